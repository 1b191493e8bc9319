"""A decoding snapshot: docs as a pipeline parsed them, the model's antecedent scores for them,
and the clusters that a decoding gave under several step lists, with the parse and without it.
Decoding the stored scores again must give the same clusters: the safety net of a change to
the decoding code (tests/decoding/test_snapshot.py; written by scripts/decoding_snapshot.py).
Beside them, `analysis.npz` keeps what the mention analysis read of every candidate, for the
features and for the decoding, with the parse and without it: the safety net of a change to
how the analysis reads a doc (tests/linguistics/test_analysis_snapshot.py).

The scores are stored rounded to float16 and the clusters are those of the rounded scores;
docs keep their words, sentences, tags, parse, entities and span groups, but no tensors.
"""
import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy
from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from ..annotations import CLUSTER_PREFIX
from ..linguistics.mention_analysis import mention_constraints
from ..linguistics.mention_constraints import MentionConstraints
from ..types import ClusterOffsets, CorefScores

Decode = Callable[[Doc, CorefScores, float, Sequence[str], Dict[str, float]], ClusterOffsets]
# The variants whose clusters are kept whole; the others as a digest.
WHOLE = ("none", "default", "fast")
FIELDS = ("candidates", "mention_scores", "kept", "antecedents", "scores")
# The analysis variants kept: (first_names, controlled) of the features and of the decoding.
ANALYSIS_VARIANTS = {"features": (False, False), "decoding": (True, True)}


def snapshot_variants(
    all_steps: Sequence[str], default: Sequence[str], fast: Sequence[str]
) -> Dict[str, List[str]]:
    """The step lists decoded: none, the shipped lists, each step alone, the default list
    without each of its steps."""
    found = {"none": [], "default": list(default), "fast": list(fast)}
    for step in all_steps:
        found[f"only:{step}"] = [step]
        found[f"default-without:{step}"] = [s for s in default if s != step]
    return found


def rounded(scores: CorefScores) -> CorefScores:
    """The scores as a snapshot stores them: float16 scores, int32 indices."""
    return CorefScores(
        candidates=numpy.asarray(scores.candidates, dtype="int32"),
        mention_scores=numpy.asarray(scores.mention_scores).astype("float16").astype("float32"),
        kept=numpy.asarray(scores.kept, dtype="int32"),
        antecedents=numpy.asarray(scores.antecedents, dtype="int32"),
        scores=numpy.asarray(scores.scores).astype("float16").astype("float32"),
    )


def unparsed_copy(doc: Doc) -> Doc:
    """The doc with its words, sentences, span groups and settings but no tags, parse or
    entities (what the fast pipeline decodes): the decoding's unparsed paths."""
    bare = Doc(
        doc.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc],
        sent_starts=[bool(t.is_sent_start) for t in doc],
    )
    for key, group in doc.spans.items():
        bare.spans[key] = [bare[s.start:s.end] for s in group]
    bare.user_data.update(doc.user_data)
    return bare


def stored_doc(doc: Doc) -> Doc:
    """The doc as a snapshot keeps it: no predicted clusters, tensors or extension values."""
    for key in [k for k in doc.spans if k.startswith(CLUSTER_PREFIX)]:
        del doc.spans[key]
    doc.tensor = numpy.zeros((len(doc), 0), dtype="float32")
    for key in [k for k in doc.user_data if not isinstance(k, str)]:
        del doc.user_data[key]  # ("._.", name, ...) keys: the transformer's output among them
    return doc


def clusters_digest(clusters: List[List[List[int]]]) -> str:
    return hashlib.sha1(json.dumps(clusters).encode("utf8")).hexdigest()[:16]


def decoded_variants(
    decode: Decode, doc: Doc, scores: CorefScores, meta: Dict[str, Any]
) -> Dict[str, Any]:
    """Each variant's clusters of one doc ("parsed/NAME" and "unparsed/NAME"): whole for the
    variants of WHOLE, a digest for the others."""
    out = {}
    bare = unparsed_copy(doc)
    for variant, steps in meta["variants"].items():
        for parse, d in (("parsed", doc), ("unparsed", bare)):
            clusters = decode(d, scores, meta["null_score"], steps, meta["null_scores_by_form"])
            clusters = [[list(m) for m in c] for c in clusters]
            out[f"{parse}/{variant}"] = clusters if variant in WHOLE else clusters_digest(clusters)
    return out


def save_snapshot(
    path: Path, docs: Sequence[Doc], scores: Sequence[CorefScores], meta: Dict[str, Any],
    decode: Decode,
) -> Dict[str, List[Any]]:
    """Write docs.spacy, scores.npz and clusters.json under `path`, the clusters decoded by
    `decode` from the rounded scores. RETURNS the expected clusters by variant."""
    docs = [stored_doc(doc) for doc in docs]
    scores = [rounded(s) for s in scores]
    expected: Dict[str, List[Any]] = {}
    for doc, doc_scores in zip(docs, scores):
        for key, value in decoded_variants(decode, doc, doc_scores, meta).items():
            expected.setdefault(key, []).append(value)
    path.mkdir(parents=True, exist_ok=True)
    DocBin(store_user_data=True, docs=docs).to_disk(path / "docs.spacy")
    arrays = {}
    for i, doc_scores in enumerate(scores):
        for field in FIELDS:
            value = numpy.asarray(getattr(doc_scores, field))
            arrays[f"{i}:{field}"] = value.astype("float16") if value.dtype.kind == "f" else value
    numpy.savez_compressed(path / "scores.npz", **arrays)
    meta = {**meta, "n_docs": len(docs), "n_words": sum(len(d) for d in docs)}
    with (path / "clusters.json").open("w", encoding="utf8") as f:
        json.dump({"meta": meta, "expected": expected}, f, separators=(",", ":"))
    return expected


def load_snapshot(
    path: Path, vocab: Vocab
) -> Tuple[List[Doc], List[CorefScores], Dict[str, Any], Dict[str, List[Any]]]:
    """The docs, scores (float32 again), settings and expected clusters of a snapshot."""
    docs = list(DocBin().from_disk(path / "docs.spacy").get_docs(vocab))
    with numpy.load(path / "scores.npz") as arrays:
        scores = []
        for i in range(len(docs)):
            values = {field: arrays[f"{i}:{field}"] for field in FIELDS}
            for field in ("mention_scores", "scores"):
                values[field] = values[field].astype("float32")
            scores.append(CorefScores(**values))
    with (path / "clusters.json").open(encoding="utf8") as f:
        data = json.load(f)
    return docs, scores, data["meta"], data["expected"]


def analysed_variants(doc: Doc, scores: CorefScores) -> Dict[str, MentionConstraints]:
    """`mention_constraints` of every candidate of a doc ("parsed/features", ...,
    "unparsed/decoding")."""
    out = {}
    for parse, d in (("parsed", doc), ("unparsed", unparsed_copy(doc))):
        for name, (first_names, controlled) in ANALYSIS_VARIANTS.items():
            out[f"{parse}/{name}"] = mention_constraints(
                d, scores.candidates, first_names=first_names, controlled=controlled
            )
    return out


def save_analysis(path: Path, docs: Sequence[Doc], scores: Sequence[CorefScores]) -> None:
    """Write analysis.npz under `path`: each doc's `analysed_variants`, the docs' rows one
    after the other in one int32 (or bool) array per variant and field, and `offsets`, where
    each doc's rows start; a field that a variant leaves as None is not stored."""
    rows: Dict[str, List[numpy.ndarray]] = {}
    for doc, doc_scores in zip(docs, scores):
        for key, mentions in analysed_variants(doc, doc_scores).items():
            for field, value in zip(MentionConstraints._fields, mentions):
                if value is not None:
                    kind = "bool" if value.dtype == bool else "int32"
                    rows.setdefault(f"{key}:{field}", []).append(value.astype(kind))
    sizes = [len(s.candidates) for s in scores]
    arrays = {key: numpy.concatenate(values) for key, values in rows.items()}
    arrays["offsets"] = numpy.concatenate([[0], numpy.cumsum(sizes)]).astype("int64")
    numpy.savez_compressed(path / "analysis.npz", **arrays)


def load_analysis(path: Path) -> List[Dict[str, Dict[str, Optional[numpy.ndarray]]]]:
    """Each doc's stored analysis: {"parsed/features": {field: array or None}, ...}."""
    with numpy.load(path / "analysis.npz") as stored:
        arrays = {key: stored[key] for key in stored.files}
    offsets = arrays.pop("offsets").tolist()
    keys = [f"{p}/{v}" for p in ("parsed", "unparsed") for v in ANALYSIS_VARIANTS]
    return [
        {
            key: {
                field: arrays[f"{key}:{field}"][start:end] if f"{key}:{field}" in arrays else None
                for field in MentionConstraints._fields
            }
            for key in keys
        }
        for start, end in zip(offsets, offsets[1:])
    ]
