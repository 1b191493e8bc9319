"""Silver data for distillation (seed 002): a teacher's output on unlabeled text (or its
distributions on gold documents), written in shards with a manifest so that a long labelling
run stops and goes on where it was, and read back as a training corpus (`spacy train
--paths.train DIR` reads every set of shards in DIR, in name order, and its gold files).

Each silver doc holds the words, the teacher's clusters (the hard targets of F-coref) and, on
request, its antecedent distributions (the soft targets): for each mention the teacher kept,
the probability of "no antecedent" and of its likeliest antecedents, as its decoding scores
them (its null score included, before the decoding's constraints). The student reads its
candidates off the same rule-based mention extractor, so the two sides score the same mentions
and the pruning mismatch that made soft targets fail in seed 002 (5.1) does not arise.
"""
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy
from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..annotations import get_clusters, get_doc_id, set_clusters, set_doc_id
from ..decoding.score_edits import with_null_scores_by_form
from ..errors import Errors
from ..formats import read_docbin, write_docbin
from ..ml.torch.constants import FIRST_ANTECEDENT_COLUMN
from ..types import CorefScores, MentionOffset, valid_antecedents

TARGETS_KEY = "coref_teacher_antecedents"  # doc.user_data: the soft targets of one doc
# a silver directory holds one or more sets of shards, each named by its prefix:
# PREFIX-00000.spacy, ... and their manifest PREFIX.json
DEFAULT_PREFIX = "silver"
MANIFEST = "{prefix}.json"
SHARD_NAME = "{prefix}-{index:05d}.spacy"
MANIFEST_VERSION = 1
# what a manifest records of the run; a run that goes on must agree on all of it
RUN_FIELDS = ("teacher", "texts", "shard_size", "soft", "top_k", "min_prob", "temperature")


@dataclass
class AntecedentTargets:
    """The teacher's antecedent distribution for each mention it kept, in document order."""

    mentions: List[MentionOffset]  # (start, end) token offsets, end exclusive
    null: List[float]  # P(no antecedent) of each mention
    antecedents: List[List[int]]  # per mention: indices into `mentions`, likeliest first
    probs: List[List[float]]  # their probabilities (with `null`, at most 1)

    def to_dict(self) -> Dict[str, Any]:
        return {
            "mentions": [list(m) for m in self.mentions],
            "null": self.null,
            "antecedents": self.antecedents,
            "probs": self.probs,
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any], where: str) -> "AntecedentTargets":
        """Read the stored form back, checking its shape (CE270 names `where`)."""
        try:
            mentions = [(int(s), int(e)) for s, e in data["mentions"]]
            null = [float(p) for p in data["null"]]
            antecedents = [[int(j) for j in row] for row in data["antecedents"]]
            probs = [[float(p) for p in row] for row in data["probs"]]
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(Errors.CE270.format(where=where, problem=repr(e))) from e
        n = len(mentions)
        if not len(null) == len(antecedents) == len(probs) == n:
            problem = "the mentions, null, antecedents and probs lists differ in length"
            raise ValueError(Errors.CE270.format(where=where, problem=problem))
        for i, (row, row_probs) in enumerate(zip(antecedents, probs)):
            if len(row) != len(row_probs) or any(not 0 <= j < n or j == i for j in row):
                problem = f"mention {i}'s antecedents are not other mentions with a probability"
                raise ValueError(Errors.CE270.format(where=where, problem=problem))
        return cls(mentions, null, antecedents, probs)


def antecedent_targets(
    doc: Doc,
    scores: CorefScores,
    *,
    null_score: float,
    null_scores_by_form: Dict[str, float],
    top_k: int = 8,
    min_prob: float = 0.01,
    temperature: float = 1.0,
) -> AntecedentTargets:
    """The soft targets of one doc from the teacher's scores: each row's softmax over "no
    antecedent" (scored `null_score`, or its form's) and its valid antecedents, at `temperature`,
    keeping at most `top_k` antecedents of at least `min_prob` (the rest of the mass is left
    out; the loss renormalizes over what it keeps)."""
    kept = numpy.asarray(scores.kept)
    spans = numpy.asarray(scores.candidates)[kept]  # [M, 2]
    if null_scores_by_form and len(spans):
        scores = with_null_scores_by_form(doc, scores, spans, null_score, null_scores_by_form)
    pair_scores = numpy.array(scores.scores, dtype="float64")  # [M, 1 + K]
    pair_scores[:, 0] = null_score
    allowed = numpy.concatenate(
        [numpy.ones((len(spans), 1), dtype=bool), valid_antecedents(scores)], axis=1
    )
    logits = numpy.where(allowed, pair_scores / temperature, -numpy.inf)
    logits -= logits.max(axis=1, keepdims=True) if len(spans) else 0.0
    probs = numpy.where(allowed, numpy.exp(logits), 0.0)
    probs /= probs.sum(axis=1, keepdims=True) if len(spans) else 1.0
    columns = numpy.asarray(scores.antecedents)  # [M, K] indices into kept
    antecedents, row_probs = [], []
    for i in range(len(spans)):
        ante = probs[i, FIRST_ANTECEDENT_COLUMN:]
        order = [k for k in numpy.argsort(-ante, kind="stable")[:top_k] if ante[k] >= min_prob]
        antecedents.append([int(columns[i, k]) for k in order])
        row_probs.append([round(float(ante[k]), 4) for k in order])
    return AntecedentTargets(
        mentions=[(int(s), int(e)) for s, e in spans],
        null=[round(float(p), 4) for p in probs[:, 0]],
        antecedents=antecedents,
        probs=row_probs,
    )


def set_antecedent_targets(doc: Doc, targets: AntecedentTargets) -> None:
    doc.user_data[TARGETS_KEY] = targets.to_dict()


def get_antecedent_targets(doc: Doc) -> Optional[AntecedentTargets]:
    """The doc's soft targets, or None where it has none (gold data)."""
    data = doc.user_data.get(TARGETS_KEY)
    if data is None:
        return None
    name = get_doc_id(doc)["name"] or f"{doc.text[:40]!r}..."
    return AntecedentTargets.from_dict(data, where=f"document {name}")


def silver_doc(predicted: Doc, name: str, targets: Optional[AntecedentTargets] = None) -> Doc:
    """The teacher's output as training data: the words, the clusters and, where given, the
    soft targets; nothing else of the teacher's annotation."""
    doc = Doc(
        predicted.vocab,
        words=[t.text for t in predicted],
        spaces=[bool(t.whitespace_) for t in predicted],
    )
    set_clusters(doc, get_clusters(predicted))
    set_doc_id(doc, name)
    if targets is not None:
        set_antecedent_targets(doc, targets)
    return doc


class SilverWriter:
    """Writes silver docs to a directory in shards of `shard_size` docs, and the manifest that
    lists the finished ones. Each shard is written under a temporary name and renamed, and the
    manifest after it, so a run stopped at any moment goes on from its last finished shard."""

    def __init__(self, output: Path, run: Dict[str, Any], prefix: str = DEFAULT_PREFIX):
        self.output = Path(output)
        self.run = run
        self.prefix = prefix
        self.path = self.output / MANIFEST.format(prefix=prefix)
        self.shards: List[Dict[str, Any]] = []
        if self.path.exists():
            self.shards = finished_shards(self.output, run, prefix=prefix)

    @property
    def done(self) -> int:
        """How many of the run's texts the finished shards hold."""
        return sum(shard["docs"] for shard in self.shards)

    def write_shard(self, docs: Sequence[Doc], stats: Dict[str, Any]) -> Path:
        self.output.mkdir(parents=True, exist_ok=True)
        path = self.output / SHARD_NAME.format(prefix=self.prefix, index=len(self.shards))
        partial = path.with_suffix(".partial")  # not a data file: the corpus reader skips it
        write_docbin(docs, partial)
        os.replace(partial, path)
        self.shards.append({"file": path.name, "docs": len(docs), **stats})
        self._write_manifest()
        return path

    def _write_manifest(self) -> None:
        data = {"version": MANIFEST_VERSION, **self.run, "shards": self.shards}
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps(data, indent=1) + "\n", encoding="utf8")
        os.replace(partial, self.path)


def finished_shards(
    output: Path, run: Optional[Dict[str, Any]] = None, *, prefix: str = DEFAULT_PREFIX
) -> List[Dict[str, Any]]:
    """The finished shards that the manifest `prefix`.json of the silver directory `output`
    lists, each checked to exist; with `run`, it must record the same settings (CE272)."""
    path = Path(output) / MANIFEST.format(prefix=prefix)
    if not path.exists():
        raise ValueError(Errors.CE271.format(path=path, problem="it does not exist"))
    try:
        data = json.loads(path.read_text(encoding="utf8"))
        shards = list(data["shards"])
        files = [shard["file"] for shard in shards]
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(Errors.CE271.format(path=path, problem=repr(e))) from e
    if run is not None:
        # a longer sample of the same texts goes on (read_texts cuts one seeded order short)
        changed = [f for f in RUN_FIELDS if f != "texts" and data.get(f) != run.get(f)]
        texts = list(data.get("texts") or [])
        if list(run.get("texts") or [])[: len(texts)] != texts:
            changed.append("texts")
        if changed:
            raise ValueError(Errors.CE272.format(path=path, fields=", ".join(changed)))
    for name in files:
        if not (Path(output) / name).exists():
            raise ValueError(Errors.CE271.format(path=path, problem=f"its shard {name} is missing"))
    return shards


def write_silver(
    label: Callable[[Sequence[Tuple[str, Any]]], List[Doc]],
    texts: Sequence[Tuple[str, Any]],
    output: Path,
    run: Dict[str, Any],
    *,
    shard_size: int,
    prefix: str = DEFAULT_PREFIX,
    on_shard: Optional[Callable[[Path, int], None]] = None,
) -> SilverWriter:
    """Label `texts` shard by shard with `label` and write them to `output`, skipping the shards
    a previous run with the same settings finished.

    label (Callable): (id, item) pairs -> their silver docs, in order.
    texts (Sequence[Tuple[str, Any]]): the (id, item) pairs to label: a text, or a gold doc.
    output (Path): the silver directory.
    run (Dict[str, Any]): the run's settings (RUN_FIELDS), recorded in the manifest.
    shard_size (int): docs per shard.
    prefix (str): the name of the shards and their manifest in `output`.
    on_shard (Optional[Callable[[Path, int], None]]): called with each new shard and the
        number of texts done.
    RETURNS (SilverWriter): the writer, with every shard of the run finished.
    """
    run = {**run, "texts": [name for name, _ in texts], "shard_size": shard_size}
    writer = SilverWriter(output, run, prefix=prefix)
    for start in range(writer.done, len(texts), shard_size):
        batch = texts[start:start + shard_size]
        docs = label(batch)
        stats = {
            "tokens": sum(len(doc) for doc in docs),
            "clusters": sum(len(get_clusters(doc)) for doc in docs),
        }
        path = writer.write_shard(docs, stats)
        if on_shard is not None:
            on_shard(path, writer.done)
    return writer


def read_silver(
    path: Path, *, prefix: str = DEFAULT_PREFIX, vocab: Optional[Vocab] = None
) -> Iterator[Doc]:
    """The docs of the finished shards named `prefix` in a silver directory, in order (CE271
    for a broken set)."""
    vocab = vocab if vocab is not None else Vocab()
    for shard in finished_shards(path, prefix=prefix):
        yield from read_docbin(Path(path) / shard["file"], vocab=vocab)
