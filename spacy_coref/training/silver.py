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

The manifest records the teacher's identity (its name, its pipeline's name and version, the
sha256 of its weight files: `distillation.teacher_identity`): a set is continued only by the
same weights (CE274), and `silver_teacher` / `read_silver` tell a student which teacher made it.
"""
import json
import os
import re
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
# 2: "teacher" is the teacher's identity (`teacher_identity`); 1: a name only
MANIFEST_VERSION = 2
# what a manifest records of the run; a run that goes on must agree on all of it (the teacher:
# on the digest of its weights where both sides know it, CE274)
RUN_FIELDS = ("teacher", "texts", "shard_size", "soft", "top_k", "min_prob", "temperature")
# doc.user_data of a doc that `read_silver` reads: the identity of the teacher that labelled it
SILVER_TEACHER_KEY = "coref_silver_teacher"
# what identifies a teacher (`distillation.teacher_identity`); an older manifest's plain name
# reads as {"name": NAME} with the rest None: the teacher's weights are unknown
TEACHER_FIELDS = ("name", "pipeline", "version", "weights_sha256", "weight_files")


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

    def __init__(
        self,
        output: Path,
        run: Dict[str, Any],
        prefix: str = DEFAULT_PREFIX,
        *,
        relabel: bool = False,
    ):
        self.output = Path(output)
        self.run = run
        self.prefix = prefix
        self.path = self.output / MANIFEST.format(prefix=prefix)
        self.shards: List[Dict[str, Any]] = []
        if relabel:
            self._remove_set()
        elif self.path.exists():
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

    def _remove_set(self) -> None:
        """Remove this prefix's manifest and then its shards (PREFIX-NNNNN.spacy and half-written
        ones), so that neither `read_silver` nor the training reader sees the old labels."""
        if self.path.exists():
            self.path.unlink()
        shard = re.compile(rf"{re.escape(self.prefix)}-\d{{5,}}\.(spacy|partial)")
        if self.output.is_dir():
            for path in sorted(self.output.iterdir()):
                if shard.fullmatch(path.name) and path.is_file():
                    path.unlink()

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
        _check_teacher(path, data.get("teacher"), run.get("teacher"))
        # a longer sample of the same texts goes on (read_texts cuts one seeded order short)
        skip = ("texts", "teacher")
        changed = [f for f in RUN_FIELDS if f not in skip and data.get(f) != run.get(f)]
        texts = list(data.get("texts") or [])
        if list(run.get("texts") or [])[: len(texts)] != texts:
            changed.append("texts")
        if changed:
            raise ValueError(Errors.CE272.format(path=path, fields=", ".join(changed)))
    for name in files:
        if not (Path(output) / name).exists():
            raise ValueError(Errors.CE271.format(path=path, problem=f"its shard {name} is missing"))
    return shards


def _check_teacher(path: Path, found: Any, teacher: Any) -> None:
    """CE274 where the manifest at `path` records another teacher than the run's: another
    digest of its weights where both know theirs, else another record."""
    old, new = read_teacher(found), read_teacher(teacher)
    if old["weights_sha256"] and new["weights_sha256"]:
        same = old["weights_sha256"] == new["weights_sha256"]
    else:
        same = found == teacher
    if not same:
        raise ValueError(Errors.CE274.format(
            path=path, found=old["name"], found_digest=old["weights_sha256"] or "unknown",
            teacher=new["name"], digest=new["weights_sha256"] or "unknown",
        ))


def read_teacher(teacher: Any) -> Dict[str, Any]:
    """A manifest's "teacher" as its identity (TEACHER_FIELDS): as recorded, or for an older
    manifest that names the teacher only, {"name": NAME} with the other fields None."""
    if isinstance(teacher, dict):
        return {field: teacher.get(field) for field in TEACHER_FIELDS}
    unknown = dict.fromkeys(TEACHER_FIELDS)
    return {**unknown, "name": None if teacher is None else str(teacher)}


def silver_teacher(path: Path, *, prefix: str = DEFAULT_PREFIX) -> Dict[str, Any]:
    """The identity of the teacher that labelled the set `prefix` of a silver directory
    (`read_teacher`: name, pipeline, version, weights_sha256, weight_files; None where an
    older manifest does not record them). CE271 for a broken set.

    path (Path): the silver directory.
    prefix (str): the name of the set's shards and manifest.
    RETURNS (Dict[str, Any]): the teacher's identity.
    """
    manifest = Path(path) / MANIFEST.format(prefix=prefix)
    finished_shards(path, prefix=prefix)  # CE271 where the set is missing or broken
    data = json.loads(manifest.read_text(encoding="utf8"))
    return read_teacher(data.get("teacher"))


def write_silver(
    label: Callable[[Sequence[Tuple[str, Any]]], List[Doc]],
    texts: Sequence[Tuple[str, Any]],
    output: Path,
    run: Dict[str, Any],
    *,
    shard_size: int,
    prefix: str = DEFAULT_PREFIX,
    on_shard: Optional[Callable[[Path, int], None]] = None,
    relabel: bool = False,
) -> SilverWriter:
    """Label `texts` shard by shard with `label` and write them to `output`, skipping the shards
    a previous run with the same settings and teacher finished (CE272, CE274 where they
    differ), or with `relabel`, removing the set's old shards and labelling all anew.

    label (Callable): (id, item) pairs -> their silver docs, in order.
    texts (Sequence[Tuple[str, Any]]): the (id, item) pairs to label: a text, or a gold doc.
    output (Path): the silver directory.
    run (Dict[str, Any]): the run's settings (RUN_FIELDS), recorded in the manifest; its
        "teacher" is the teacher's identity (`distillation.teacher_identity`) or a name.
    shard_size (int): docs per shard.
    prefix (str): the name of the shards and their manifest in `output`.
    on_shard (Optional[Callable[[Path, int], None]]): called with each new shard and the
        number of texts done.
    relabel (bool): label every text again, replacing the set's shards, whatever teacher or
        settings its manifest records.
    RETURNS (SilverWriter): the writer, with every shard of the run finished.
    """
    run = {**run, "texts": [name for name, _ in texts], "shard_size": shard_size}
    writer = SilverWriter(output, run, prefix=prefix, relabel=relabel)
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
    for a broken set), each with the identity of the teacher that labelled it in
    doc.user_data[SILVER_TEACHER_KEY] (`get_silver_teacher`; `silver_teacher` reads it without
    the docs)."""
    vocab = vocab if vocab is not None else Vocab()
    teacher = silver_teacher(path, prefix=prefix)
    for shard in finished_shards(path, prefix=prefix):
        for doc in read_docbin(Path(path) / shard["file"], vocab=vocab):
            doc.user_data[SILVER_TEACHER_KEY] = dict(teacher)
            yield doc


def get_silver_teacher(doc: Doc) -> Optional[Dict[str, Any]]:
    """The identity of the teacher that labelled a doc `read_silver` read (TEACHER_FIELDS), or
    None for a doc read otherwise."""
    return doc.user_data.get(SILVER_TEACHER_KEY)
