"""Train the encoder and the s2e head on the arrays of `prepare.py`, with torch and transformers
alone: for a GPU machine without spaCy. The step is the one `spacy train` takes with the
pipeline's config (the encoder's own windows, wordpieces mean-pooled per token, the head of
spacy_coref/ml/torch, the marginal log-likelihood of the gold antecedents averaged over the
docs of a batch of about 2,500 words, Adam with decoupled weight decay 0.01, gradients clipped
to norm 1, a linear warm-up and decay, the head at the config's multiple of the encoder's rate:
3 for the default, 20 for the accurate pipeline).

Which encoder weights train: with --frozen-layers N (or --train-layers K: the upper K), the
embeddings, MPNet's shared relative position bias and the lower N layers stay as they are, as
`spacy_coref/ml/frozen_layers.py` trains them on the CPU: their output for each window is
computed once (no dropout, bfloat16, kept on the device) and each step runs only the upper
layers on it. With N = 0 (the default pipeline's round), every layer trains, and the word
embeddings stay frozen. The default N is the one prepare.py wrote (the accurate pipeline's 6:
its shipped weights are its upper 6 layers). BERT-style encoders (MiniLM) and MPNet (no token
type ids, positions counted past its padding id 1, one relative position bias for all layers)
both run; on CUDA the encoder runs under bfloat16 autocast, the head in float32.

Dev figures are a proxy for CoNLL F1 (the head's own decisions, no decoding rules): the F1 of
the antecedent links, a link right when its antecedent is in the mention's gold cluster; on
GAP only the labelled mentions count. The best checkpoint by their weighted mean (LitBank and
OntoGUM 0.67, GAP 0.33, as `spacy train` weighs them) is written to OUT after each
evaluation that improves it (`import_weights.py` makes a pipeline of it): the trained encoder
weights in float16, in files of under 15 MiB (encoder_00.pt ...), and head.pt.

    python scripts/gpu/train.py DATA OUT --max-steps 543 [--gap-weight 1] [--minutes 7]
    python scripts/gpu/train.py DATA OUT --minutes 5      # the schedule fits the minutes
    python scripts/gpu/train.py DATA --check              # are all loads there (run_accurate.sh)

DATA is prepare.py's output: its files directly in DATA or in DATA/load_*/ (as prepare.py
leaves them, or as run_accurate.sh copies them on the GPU machine).
"""
import argparse
import hashlib
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
MIB = 2**20
CHUNK_BYTES = 15 * MIB  # each weight file that comes back: under the device's 16 MiB a file
RETURN_BYTES = 60 * MIB  # what all of them may take (64 MiB back, with the head and a log)


def import_head():
    """spacy_coref.ml.torch.s2e without importing spacy_coref itself (which needs spaCy):
    empty packages stand for spacy_coref and spacy_coref.ml, unless the real ones are already
    imported (train.py run inside a process that has spacy_coref, as the tests do)."""
    for name, path in (("spacy_coref", REPO / "spacy_coref"),
                       ("spacy_coref.ml", REPO / "spacy_coref" / "ml")):
        if name in sys.modules:
            continue
        module = types.ModuleType(name)
        module.__path__ = [str(path)]
        sys.modules[name] = module
    from spacy_coref.ml.torch.constants import MASKED_SCORE
    from spacy_coref.ml.torch.s2e import S2ECorefHead
    return S2ECorefHead, MASKED_SCORE


def locate(data, name):
    """A file of prepare.py's output: DATA/name, or DATA/load_*/name."""
    data = Path(data)
    if (data / name).exists():
        return data / name
    found = sorted(data.glob(f"load_*/{name}"))
    if not found:
        raise FileNotFoundError(f"{name}: not in {data} nor in {data}/load_*")
    return found[0]


def read_manifest(data):
    return json.loads(locate(data, "manifest.json").read_text())


def check_data(data, digests=False):
    """What is missing or wrong in DATA, by the manifest: a list of lines (none: complete)."""
    try:
        manifest = read_manifest(data)
    except FileNotFoundError:
        return ["manifest.json is missing: load_1 has not arrived"]
    problems = []
    for name, info in manifest["files"].items():
        try:
            path = locate(data, name)
        except FileNotFoundError:
            problems.append(f"{name} is missing (load_{info['load']})")
            continue
        if path.stat().st_size != info["bytes"]:
            problems.append(f"{name} has {path.stat().st_size} bytes, expected {info['bytes']} "
                            f"(load_{info['load']})")
        elif digests:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if digest != info["sha256"]:
                problems.append(f"{name}: sha256 {digest}, expected {info['sha256']} "
                                f"(load_{info['load']})")
    return problems


class DocSet:
    """The docs of one .npz of prepare.py, as tensors on the device."""

    def __init__(self, path, device, name=None):
        self.name = name or Path(path).stem
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


def _autocast(device):
    return torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda")


def _pad_id(hf_model):
    return int(getattr(hf_model.config, "pad_token_id", 0) or 0)


def padded(windows, pad_id, device):
    """Wordpiece ids [rows, width] padded with `pad_id`, and the attention mask."""
    width = max(len(w) for w in windows)
    ids = torch.full((len(windows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(windows), width), dtype=torch.long)
    for row, w in enumerate(windows):
        ids[row, :len(w)] = w
        mask[row, :len(w)] = 1
    return ids.to(device), mask.to(device)


def _output(out):
    """A layer's output: a tuple (hidden, ...) in transformers 4 and 5, or a tensor."""
    return out[0] if isinstance(out, (tuple, list)) else out


class PartlyFrozen(torch.nn.Module):
    """The encoder with its embeddings (and MPNet's relative position bias) and lower
    `n_frozen` layers frozen: their output for each window is computed once, in eval mode
    (no dropout) and kept in bfloat16 on the device, as spacy_coref/ml/frozen_layers.py keeps
    it; a forward pass runs the upper layers on it."""

    def __init__(self, hf_model, n_frozen):
        super().__init__()
        self.hf = hf_model
        self.n_frozen = n_frozen
        self.states = {}  # (docset name, window) -> [length, hidden] bfloat16

    @property
    def config(self):
        return self.hf.config

    def _mask(self, mask):
        """The additive mask [rows, 1, 1, width], as the model builds it for its layers."""
        build = getattr(self.hf, "get_extended_attention_mask", None)
        if build is not None:
            return build(mask, tuple(mask.shape))
        return (1.0 - mask[:, None, None, :].float()) * torch.finfo(torch.float32).min

    def _extra(self, hidden):
        """MPNet's relative position bias [rows, heads, width, width], computed once for all
        its layers and frozen (the frozen layers' cached outputs depend on it)."""
        compute = getattr(self.hf.encoder, "compute_position_bias", None)
        if compute is None:
            return {}
        with torch.no_grad():
            return {"position_bias": compute(hidden)}

    def _run(self, layers, hidden, mask):
        extended, extra = self._mask(mask), self._extra(hidden)
        for layer in layers:
            hidden = _output(layer(hidden, attention_mask=extended, **extra))
        return hidden

    def lower(self, ids, mask):
        """The embeddings and the frozen layers (no gradient; dropout as the module's mode)."""
        with torch.no_grad():
            hidden = self.hf.embeddings(input_ids=ids)  # token type ids: the model's zeros
            return self._run(self.hf.encoder.layer[:self.n_frozen], hidden, mask)

    def upper(self, hidden, mask):
        return self._run(self.hf.encoder.layer[self.n_frozen:], hidden, mask)

    def fill(self, docset, rows, device, max_tokens=16384):
        """Compute and keep the frozen layers' output of these windows (by length, in chunks
        of at most `max_tokens` padded wordpieces)."""
        rows = sorted(rows, key=lambda r: len(docset.windows[r]))
        was_training = self.hf.training
        self.hf.eval()
        try:
            start = 0
            while start < len(rows):
                end = start + 1
                while end < len(rows) and len(docset.windows[rows[end]]) * (end + 1 - start) \
                        <= max_tokens:
                    end += 1
                chunk = rows[start:end]
                ids, mask = padded([docset.windows[r] for r in chunk], _pad_id(self.hf), device)
                with _autocast(device):
                    hidden = self.lower(ids, mask)
                for j, r in enumerate(chunk):
                    n = len(docset.windows[r])
                    self.states[(docset.name, r)] = hidden[j, :n].to(torch.bfloat16).clone()
                start = end
        finally:
            self.hf.train(was_training)

    def prefill(self, docset, device):
        rows = [r for r in range(len(docset.windows)) if (docset.name, r) not in self.states]
        if rows:
            self.fill(docset, rows, device)

    def encode(self, docset, rows, device):
        """The last hidden state [rows, width, hidden] of these windows (float32)."""
        missing = [r for r in rows if (docset.name, r) not in self.states]
        if missing:
            self.fill(docset, missing, device)
        states = [self.states[(docset.name, r)] for r in rows]
        width = max(len(s) for s in states)
        hidden = torch.zeros((len(rows), width, states[0].shape[1]), device=device)
        mask = torch.zeros((len(rows), width), dtype=torch.long, device=device)
        for j, s in enumerate(states):
            hidden[j, :len(s)] = s.float()
            mask[j, :len(s)] = 1
        with _autocast(device):
            return self.upper(hidden, mask).float()

    def nbytes(self):
        return sum(s.numel() * s.element_size() for s in self.states.values())


def check_split(encoder, docset, device):
    """The frozen and upper layers run one after the other give the model's own output (in
    float32, eval mode): a check that this transformers version calls layers as expected."""
    rows = list(range(min(2, len(docset.windows))))
    if not rows:
        return 0.0
    ids, mask = padded([docset.windows[r] for r in rows], _pad_id(encoder.hf), device)
    was_training = encoder.hf.training
    encoder.hf.eval()
    with torch.no_grad():
        whole = encoder.hf(input_ids=ids, attention_mask=mask).last_hidden_state
        split = encoder.upper(encoder.lower(ids, mask), mask)
    encoder.hf.train(was_training)
    keep = mask.bool()
    error = float((whole[keep] - split[keep]).abs().max())
    scale = float(whole[keep].abs().max())
    if not error <= 1e-4 * max(scale, 1.0):
        raise SystemExit(f"the encoder's layers run one by one differ from the model by {error}")
    return error


def token_vectors(encoder, docset, indices, device, train):
    """Mean-pooled wordpiece vectors per token of each doc, as the transformer listener gives.
    `encoder`: a PartlyFrozen, or a Hugging Face model run whole."""
    rows = [r for i in indices for r in range(docset.win_offsets[i], docset.win_offsets[i + 1])]
    if isinstance(encoder, PartlyFrozen):
        hidden = encoder.encode(docset, rows, device)
    else:
        ids, mask = padded([docset.windows[r] for r in rows], _pad_id(encoder), device)
        with _autocast(device):
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


def hf_model_of(encoder):
    return encoder.hf if isinstance(encoder, PartlyFrozen) else encoder


def trained_keys(hf_model, n_frozen):
    """The weights that train: with no frozen layer, all but the word embeddings (and the
    pooler, which no token vector reads); else those of the layers from `n_frozen` up."""
    keys = [k for k, v in hf_model.state_dict().items() if v.is_floating_point()]
    if n_frozen == 0:
        return [k for k in keys if "word_embeddings" not in k and not k.startswith("pooler.")]
    upper = {str(i) for i in range(n_frozen, int(hf_model.config.num_hidden_layers))}
    return [k for k in keys if k.startswith("encoder.layer.") and k.split(".")[2] in upper]


def save(out, encoder, head, figures):
    """The weights in files of under 15 MiB each (what the device sends back): the encoder's
    trained weights in float16 (encoder_00.pt, encoder_01.pt ...; the frozen ones stay out),
    and the head in float32 with the dev figures (head.pt)."""
    out = Path(out)
    hf_model = hf_model_of(encoder)
    n_frozen = encoder.n_frozen if isinstance(encoder, PartlyFrozen) else 0
    keys = set(trained_keys(hf_model, n_frozen))
    chunks, size = [{}], 0
    for key, value in hf_model.state_dict().items():  # in the model's order: layer by layer
        if key not in keys:
            continue
        value = value.detach().half().cpu()
        nbytes = value.numel() * value.element_size()
        if chunks[-1] and size + nbytes > CHUNK_BYTES:
            chunks.append({})
            size = 0
        chunks[-1][key] = value
        size += nbytes
    names = [f"encoder_{i:02d}.pt" for i in range(len(chunks))]
    for path in list(out.glob("encoder_*.pt")):
        if path.name not in names:  # an earlier run's (encoder_a.pt, encoder_b.pt, more chunks)
            path.unlink()
    for name, chunk in zip(names, chunks):
        torch.save(chunk, out / name)
    head_state = {k: v.detach().cpu() for k, v in head.state_dict().items()}
    torch.save({"state": head_state, "figures": figures, "frozen_layers": n_frozen,
                "model_type": getattr(hf_model.config, "model_type", None)}, out / "head.pt")


def build_encoder(data):
    """The encoder of prepare.py's files: its config and the float16 weights, as float32."""
    import transformers
    from safetensors.torch import load_file

    config = json.loads(locate(data, "encoder_config.json").read_text())
    model_type = config.pop("model_type")
    hf_config = transformers.AutoConfig.for_model(model_type, **config)
    encoder = transformers.AutoModel.from_config(hf_config)
    encoder.pooler = None  # no token vector reads it
    state = {}
    for name in read_manifest(data)["files"]:
        if name.endswith(".safetensors"):
            state.update(load_file(str(locate(data, name))))
    missing, unexpected = encoder.load_state_dict({k: v.float() for k, v in state.items()},
                                                  strict=False)
    missing = [k for k in missing if not k.startswith("pooler.") and "position_ids" not in k]
    if missing or unexpected:
        raise SystemExit(f"the encoder's weights do not fit its config: missing {missing[:4]}, "
                         f"unexpected {unexpected[:4]}")
    return encoder


def main(argv=None):
    start = time.time()
    parser = argparse.ArgumentParser()
    parser.add_argument("data", type=Path)
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--check", action="store_true",
                        help="only say whether DATA is complete (sizes and sha256); exit 3 if not")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this long (from the start, loading included); without "
                        "--max-steps the schedule fits it")
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--head-lr-scale", type=float, default=None,
                        help="the head's rate over the encoder's (default: the pipeline's "
                        "learn_rate_scale from prepare.py: 3 for the default, 20 for accurate)")
    parser.add_argument("--frozen-layers", type=int, default=None,
                        help="keep the embeddings and this many lower layers frozen (default: "
                        "prepare.py's, i.e. the accurate pipeline's 9, the default's 0)")
    parser.add_argument("--train-layers", type=int, default=None,
                        help="train only the upper K layers (the same as --frozen-layers "
                        "n_layers - K)")
    parser.add_argument("--gap-weight", type=float, default=1.0)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--evals", type=int, default=6)
    parser.add_argument("--max-steps", type=int, default=0, help="the schedule's length")
    parser.add_argument("--log-every", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.check:
        problems = check_data(args.data, digests=True)
        for line in problems:
            print(f"[check] {args.data}: {line}")
        if problems:
            raise SystemExit(3)
        print(f"[check] {args.data}: complete")
        return
    if args.out is None:
        parser.error("give OUT (or --check)")
    if not args.max_steps and not args.minutes:
        parser.error("give --max-steps, --minutes or both")
    if args.frozen_layers is not None and args.train_layers is not None:
        parser.error("--frozen-layers or --train-layers, not both")
    problems = check_data(args.data)
    if problems:
        raise SystemExit(f"{args.data} is incomplete: " + "; ".join(problems))
    manifest = read_manifest(args.data)
    args.out.mkdir(parents=True, exist_ok=True)
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True  # the head's float32 products
    S2ECorefHead, masked_score = import_head()

    def say(text):
        print(f"[{args.out.name}] {text}", flush=True)

    hf_model = build_encoder(args.data)
    n_layers = int(hf_model.config.num_hidden_layers)
    n_frozen = args.frozen_layers
    if n_frozen is None:
        n_frozen = manifest.get("frozen_layers", 0)
    if args.train_layers is not None:
        n_frozen = n_layers - args.train_layers
    if not 0 <= n_frozen <= n_layers:
        parser.error(f"{n_frozen} frozen layers: the encoder has {n_layers}")
    keys = set(trained_keys(hf_model, n_frozen))
    for name, param in hf_model.named_parameters():
        param.requires_grad_(name in keys)
    back = sum(v.numel() * 2 for k, v in hf_model.state_dict().items() if k in keys)
    if back > RETURN_BYTES:
        say(f"warning: the trained encoder weights take {back / MIB:.0f} MiB in float16, more "
            f"than the device sends back ({RETURN_BYTES / MIB:.0f} MiB with the head): freeze more")
    encoder = PartlyFrozen(hf_model, n_frozen) if n_frozen > 0 else hf_model
    head_cfg = json.loads(locate(args.data, "head_config.json").read_text())
    n_in = head_cfg.pop("n_in")
    head_cfg.pop("n_schemes", None)
    head = S2ECorefHead(n_in, head_cfg.pop("hidden"), **head_cfg)
    head.load_state_dict(torch.load(locate(args.data, "head.pt")))
    encoder.to(device).train()
    head.to(device).train()
    train = DocSet(locate(args.data, "train.npz"), device)
    dev = {name: DocSet(locate(args.data, f"{name}.npz"), device)
           for name in ("dev_litbank", "dev_gum", "dev_gap")}
    head_lr_scale = (manifest.get("head_lr_scale", 3.0) if args.head_lr_scale is None
                     else args.head_lr_scale)
    say(f"device {device}, torch {torch.__version__}, {manifest.get('model_type')} of "
        f"{n_layers} layers ({n_frozen} frozen, {len(keys)} tensors, {back / MIB:.1f} MiB to "
        f"save), {train.n} train docs, head at {head_lr_scale}x")
    if isinstance(encoder, PartlyFrozen):
        error = check_split(encoder, dev["dev_litbank"] if dev["dev_litbank"].n else train,
                            device)
        t0 = time.time()
        for docset in (train, *dev.values()):
            encoder.prefill(docset, device)
        say(f"frozen layers' output of {len(encoder.states)} windows: "
            f"{encoder.nbytes() / MIB:.0f} MiB, {time.time() - t0:.1f} s (split check {error:.1e})")
    enc_params = [p for p in hf_model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(
        [{"params": enc_params, "lr": args.lr},
         {"params": list(head.parameters()), "lr": args.lr * head_lr_scale}],
        betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)
    base_lrs = [g["lr"] for g in optimizer.param_groups]
    loop_start = time.time()
    best = evaluate(encoder, head, dev, device, masked_score)
    say(f"step 0 {json.dumps({k: round(v, 4) for k, v in best.items()})}")
    save(args.out, encoder, head, dict(best, step=0))
    budget = args.minutes * 60 if args.minutes else math.inf
    total_steps = args.max_steps or 10**9
    step, docs_seen = 0, 0
    eval_every = max(50, total_steps // args.evals) if args.max_steps else None

    def out_of_time():  # the schedule fits the budget; this stops one that runs slower
        return time.time() - start > budget * 1.05

    evaluated = 0
    while step < total_steps and not out_of_time():
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
                # first evaluation counts in, so it ends early rather than late)
                per_step = (time.time() - loop_start) / 50
                left = budget - (time.time() - start)
                total_steps = 50 + int(max(0.0, left) / (per_step * 1.08))
                eval_every = max(50, total_steps // args.evals)
                say(f"{per_step:.3f} s a step (evaluation included): {total_steps} steps, "
                    f"{total_steps * 2500 / max(sum(train.n_tokens), 1):.1f} epochs")
            if step % args.log_every == 0:
                value = float(loss.detach()) if torch.is_tensor(loss) else float(loss)
                say(f"step {step} loss {value:.4f} {time.time() - start:.0f} s")
            if eval_every and step % eval_every == 0 or step == total_steps:
                figures = evaluate(encoder, head, dev, device, masked_score)
                say(f"step {step} {json.dumps({k: round(v, 4) for k, v in figures.items()})}")
                evaluated = step
                if figures["score"] > best["score"]:
                    best = dict(figures, step=step)
                    save(args.out, encoder, head, best)
            if step >= total_steps or out_of_time():
                break
    if step > evaluated:  # stopped by the clock between evaluations
        figures = evaluate(encoder, head, dev, device, masked_score)
        say(f"step {step} {json.dumps({k: round(v, 4) for k, v in figures.items()})}")
        if figures["score"] > best["score"]:
            best = dict(figures, step=step)
            save(args.out, encoder, head, best)
    say(f"done: {step} steps, {docs_seen / max(train.n, 1):.2f} epochs, "
        f"{time.time() - start:.0f} s; best {best}")


if __name__ == "__main__":
    main()
