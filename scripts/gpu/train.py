"""Train the encoder and the s2e head on the arrays of `prepare.py`, with torch and transformers
alone: for a GPU machine without spaCy. The step is the one `spacy train` takes with
configs/coref_continue.cfg (windows of 256 tokens, wordpieces mean-pooled per token, the head
of spacy_coref/ml/torch, the marginal log-likelihood of the gold antecedents averaged over the
docs of a batch of about 2,500 words, Adam with decoupled weight decay 0.01, gradients clipped
to norm 1, a linear warm-up and decay, the head at 3x the encoder's rate), with every encoder
layer trained except the word embeddings.

Dev figures are a proxy for CoNLL F1 (the head's own decisions, no decoding rules): the F1 of
the antecedent links, a link right when its antecedent is in the mention's gold cluster; on
GAP only the labelled mentions count. The best checkpoint by their weighted mean (LitBank and
OntoGUM 0.67, GAP 0.33, as `spacy train` weighs them) is written to OUT after each
evaluation that improves it (`import_weights.py` makes a pipeline of it).

    python scripts/gpu/train.py DATA OUT --max-steps 543 [--gap-weight 1] [--minutes 7]
"""
import argparse
import json
import math
import random
import sys
import time
import types
from pathlib import Path

import numpy
import torch

REPO = Path(__file__).resolve().parents[2]


def import_head():
    """spacy_coref.ml.torch.s2e without importing spacy_coref itself (which needs spaCy)."""
    for name, path in (("spacy_coref", REPO / "spacy_coref"),
                       ("spacy_coref.ml", REPO / "spacy_coref" / "ml")):
        module = types.ModuleType(name)
        module.__path__ = [str(path)]
        sys.modules[name] = module
    from spacy_coref.ml.torch.constants import MASKED_SCORE
    from spacy_coref.ml.torch.s2e import S2ECorefHead
    return S2ECorefHead, MASKED_SCORE


class DocSet:
    """The docs of one .npz of prepare.py, as tensors on the device."""

    def __init__(self, path, device):
        with numpy.load(path) as npz:  # each key read once: NpzFile decompresses per access
            data = {key: npz[key] for key in npz.files}
        self.n = len(data["n_tokens"])
        self.n_tokens = data["n_tokens"].tolist()
        self.partial = data["partial"].tolist()
        win_len = data["window_lengths"].astype("int64")
        n_win = data["n_windows"].astype("int64")
        win_starts = numpy.concatenate([[0], numpy.cumsum(win_len)])
        wp = torch.as_tensor(data["wordpieces"].astype("int64"))
        self.windows = [wp[win_starts[i]:win_starts[i + 1]] for i in range(len(win_len))]
        self.win_offsets = numpy.concatenate([[0], numpy.cumsum(n_win)]).tolist()
        tok_offsets = numpy.concatenate([[0], numpy.cumsum(data["n_tokens"])])
        lengths = data["align_lengths"].astype("int64")
        entry_offsets = numpy.concatenate([[0], numpy.cumsum(lengths)])
        cand_offsets = numpy.concatenate([[0], numpy.cumsum(data["n_cands"])])
        self.docs = []
        for i in range(self.n):
            t0, t1 = tok_offsets[i], tok_offsets[i + 1]
            e0, e1 = entry_offsets[t0], entry_offsets[t1]
            c0, c1 = cand_offsets[i], cand_offsets[i + 1]
            token_of = numpy.repeat(numpy.arange(t1 - t0), lengths[t0:t1])
            self.docs.append(dict(
                token_of=torch.as_tensor(token_of, device=device),
                counts=torch.as_tensor(lengths[t0:t1], device=device).clamp(min=1),
                win=torch.as_tensor(data["align_windows"][e0:e1].astype("int64"), device=device),
                pos=torch.as_tensor(data["align_positions"][e0:e1].astype("int64"), device=device),
                starts=torch.as_tensor(data["cands"][c0:c1, 0].astype("int64"), device=device),
                ends=torch.as_tensor(data["cands"][c0:c1, 1].astype("int64") - 1, device=device),
                attrs=torch.as_tensor(data["attrs"][c0:c1].astype("int64"), device=device),
                gold=torch.as_tensor(data["gold"][c0:c1].astype("int64"), device=device),
                labelled=torch.as_tensor(data["labelled"][c0:c1], device=device),
            ))


def token_vectors(encoder, docset, indices, device, train):
    """Mean-pooled wordpiece vectors per token of each doc, as the transformer listener gives."""
    windows = [w for i in indices
               for w in docset.windows[docset.win_offsets[i]:docset.win_offsets[i + 1]]]
    width = max(len(w) for w in windows)
    ids = torch.zeros((len(windows), width), dtype=torch.long)
    mask = torch.zeros((len(windows), width), dtype=torch.long)
    for row, w in enumerate(windows):
        ids[row, :len(w)] = w
        mask[row, :len(w)] = 1
    ids, mask = ids.to(device), mask.to(device)
    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
        hidden = encoder(input_ids=ids, attention_mask=mask).last_hidden_state
    hidden = hidden.float()
    out, row = [], 0
    for i in indices:
        doc = docset.docs[i]
        n_win = docset.win_offsets[i + 1] - docset.win_offsets[i]
        pieces = hidden[row + doc["win"], doc["pos"]]  # [E, h]
        row += n_win
        vec = hidden.new_zeros((docset.n_tokens[i], hidden.shape[2]))
        vec = vec.index_add(0, doc["token_of"], pieces) / doc["counts"][:, None]
        out.append(vec)
    return out


def _gold_pairs(scores, doc, masked_score):
    """(rows, allowed, same) of antecedent_loss: the labelled kept mentions [M], the real
    candidate antecedents among them [M, K], and those in the mention's gold cluster [M, K]."""
    kept, ants = scores.kept, scores.antecedents
    cluster, rows = doc["gold"][kept], doc["labelled"][kept]
    allowed = (scores.scores[:, 1:] > masked_score / 2) & rows[ants]
    same = allowed & (cluster[ants] == cluster[:, None]) & (cluster[:, None] >= 0)
    return rows, allowed, same


def doc_loss(scores, doc, masked_score):
    """The marginal log-likelihood of the gold antecedents of one doc (antecedent_loss)."""
    rows, allowed, same = _gold_pairs(scores, doc, masked_score)
    gold = torch.cat([~same.any(dim=1, keepdim=True), same], dim=1)
    cands = torch.cat([torch.ones_like(rows)[:, None], allowed], dim=1)
    log_norm = scores.scores.masked_fill(~cands, -math.inf).logsumexp(dim=1)
    log_gold = scores.scores.masked_fill(~gold, -math.inf).logsumexp(dim=1)
    return ((log_norm - log_gold) * rows).sum()


def link_counts(scores, doc, masked_score):
    """(right links, predicted links, gold anaphors) of the head's own best antecedents."""
    rows, allowed, same = _gold_pairs(scores, doc, masked_score)
    cands = torch.cat([torch.ones_like(rows)[:, None], allowed], dim=1)
    best = scores.scores.masked_fill(~cands, -math.inf).argmax(dim=1)  # [M], 0 = null
    linked = (best > 0) & rows
    right = linked & same.gather(1, (best - 1).clamp(min=0)[:, None]).squeeze(1)
    anaphors = same.any(dim=1) & rows
    return int(right.sum()), int(linked.sum()), int(anaphors.sum())


def evaluate(encoder, head, dev, device, masked_score):
    encoder.eval()
    head.eval()
    figures = {}
    with torch.no_grad():
        for name, docset in dev.items():
            right = linked = anaphors = 0
            for batch in batches(docset, list(range(docset.n)), 4000):
                vecs = token_vectors(encoder, docset, batch, device, False)
                docs = [docset.docs[i] for i in batch]
                out = head(vecs, [d["starts"] for d in docs], [d["ends"] for d in docs],
                           None, [d["attrs"] for d in docs])
                for s, d in zip(out, docs):
                    r, l, a = link_counts(s, d, masked_score)
                    right, linked, anaphors = right + r, linked + l, anaphors + a
            p, r = right / max(linked, 1), right / max(anaphors, 1)
            figures[name] = 2 * p * r / max(p + r, 1e-9)
    figures["score"] = (0.67 * (figures["dev_litbank"] + figures["dev_gum"]) / 2
                        + 0.33 * figures["dev_gap"])
    encoder.train()
    head.train()
    return figures


def batches(docset, order, size, tolerance=0.2):
    """Docs in order, grouped while their tokens stay within size * (1 + tolerance)."""
    batch, n = [], 0
    for i in order:
        if batch and n + docset.n_tokens[i] > size * (1 + tolerance):
            yield batch
            batch, n = [], 0
        batch.append(i)
        n += docset.n_tokens[i]
    if batch:
        yield batch


def save(out, encoder, head, figures):
    """The weights in three files of under 16 MB each: the encoder without its (frozen) word
    embeddings in float16, in two halves, and the head in float32 with the dev figures."""
    state = {k: v.detach().half().cpu() for k, v in encoder.state_dict().items()
             if "word_embeddings" not in k and v.is_floating_point()}
    keys = sorted(state)
    half = len(keys) // 2
    torch.save({k: state[k] for k in keys[:half]}, out / "encoder_a.pt")
    torch.save({k: state[k] for k in keys[half:]}, out / "encoder_b.pt")
    head_state = {k: v.detach().cpu() for k, v in head.state_dict().items()}
    torch.save({"state": head_state, "figures": figures}, out / "head.pt")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this long; without --max-steps the schedule fits it")
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--head-lr-scale", type=float, default=3.0)
    parser.add_argument("--gap-weight", type=float, default=1.0)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--evals", type=int, default=6)
    parser.add_argument("--max-steps", type=int, default=0, help="the schedule's length")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not args.max_steps and not args.minutes:
        parser.error("give --max-steps, --minutes or both")
    args.out.mkdir(parents=True, exist_ok=True)
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    S2ECorefHead, masked_score = import_head()
    from transformers import BertConfig, BertModel

    config = json.loads((args.data / "encoder_config.json").read_text())
    encoder = BertModel(BertConfig.from_dict(config), add_pooling_layer=False)
    state = {k: v.float() for k, v in torch.load(args.data / "encoder.pt").items()}
    missing, unexpected = encoder.load_state_dict(state, strict=False)
    assert not [k for k in missing if "position_ids" not in k], missing
    assert not [k for k in unexpected if "pooler" not in k and "position_ids" not in k], unexpected
    encoder.embeddings.word_embeddings.weight.requires_grad_(False)
    head_cfg = json.loads((args.data / "head_config.json").read_text())
    n_in = head_cfg.pop("n_in")
    head_cfg.pop("n_schemes", None)
    head = S2ECorefHead(n_in, head_cfg.pop("hidden"), **head_cfg)
    head.load_state_dict(torch.load(args.data / "head.pt"))
    encoder.to(device).train()
    head.to(device).train()
    train = DocSet(args.data / "train.npz", device)
    dev = {name: DocSet(args.data / f"{name}.npz", device)
           for name in ("dev_litbank", "dev_gum", "dev_gap")}

    def say(text):
        print(f"[{args.out.name}] {text}", flush=True)

    say(f"device {device}, {train.n} train docs, torch {torch.__version__}")
    enc_params = [p for p in encoder.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(
        [{"params": enc_params, "lr": args.lr},
         {"params": list(head.parameters()), "lr": args.lr * args.head_lr_scale}],
        betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)
    base_lrs = [g["lr"] for g in optimizer.param_groups]
    start = time.time()
    best = evaluate(encoder, head, dev, device, masked_score)
    say(f"step 0 {json.dumps({k: round(v, 4) for k, v in best.items()})}")
    save(args.out, encoder, head, dict(best, step=0))
    budget = args.minutes * 60 if args.minutes else math.inf
    total_steps = args.max_steps or 10**9
    step, docs_seen = 0, 0
    eval_every = max(50, total_steps // args.evals) if args.max_steps else None
    while step < total_steps:
        order = list(range(train.n))
        random.shuffle(order)
        for batch in batches(train, order, 2500):
            lr_factor = min(1.0, (step + 1) / args.warmup) * max(0.0, 1 - step / total_steps)
            for group, base in zip(optimizer.param_groups, base_lrs):
                group["lr"] = base * lr_factor
            vecs = token_vectors(encoder, train, batch, device, True)
            docs = [train.docs[i] for i in batch]
            out = head(vecs, [d["starts"] for d in docs], [d["ends"] for d in docs], None,
                       [d["attrs"] for d in docs])
            loss = sum(doc_loss(s, d, masked_score) * (args.gap_weight if train.partial[i] else 1)
                       for s, d, i in zip(out, docs, batch)) / len(batch)
            optimizer.zero_grad(set_to_none=True)
            if torch.is_tensor(loss) and loss.requires_grad:  # docs without candidates: none
                loss.backward()
                torch.nn.utils.clip_grad_norm_(enc_params + list(head.parameters()), 1.0)
                optimizer.step()
            step += 1
            docs_seen += len(batch)
            if step == 50 and not args.max_steps:
                # the schedule's length from the measured speed: it ends with the budget (the
                # first evaluation and the start count in, so it ends early rather than late)
                per_step = (time.time() - start) / 50
                total_steps = int(budget / (per_step * 1.08))
                eval_every = max(50, total_steps // args.evals)
                say(f"{per_step:.3f} s a step (evaluation included): {total_steps} steps")
            if step % 50 == 0:
                value = float(loss.detach()) if torch.is_tensor(loss) else float(loss)
                say(f"step {step} loss {value:.3f} {time.time() - start:.0f} s")
            if eval_every and step % eval_every == 0 or step == total_steps:
                figures = evaluate(encoder, head, dev, device, masked_score)
                say(f"step {step} {json.dumps({k: round(v, 4) for k, v in figures.items()})}")
                if figures["score"] > best["score"]:
                    best = dict(figures, step=step)
                    save(args.out, encoder, head, best)
            if step >= total_steps or time.time() - start > budget * 1.1:
                break
        if time.time() - start > budget * 1.1:
            break
    say(f"done: {step} steps, {docs_seen / train.n:.2f} epochs, {time.time() - start:.0f} s; "
        f"best {best}")


if __name__ == "__main__":
    main()
