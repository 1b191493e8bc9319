"""Distillation (seed 002): a teacher pipeline labels unlabeled text with its clusters (and, on
request, its antecedent distributions), written as a silver corpus (`silver.py`); a smaller,
faster student (configs/distill_student.cfg) trains on it with `spacy train`, then on gold
data starting from the silver weights (`--paths.init_coref`). Hard targets (the teacher's
clusters) avoid the intransitive logits that made soft targets fail in seed 002, 5.1; soft
targets (`coref_cluster`'s `soft_target_weight`) are measured against them.
"""

import hashlib
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import spacy
import srsly
from spacy.language import Language
from spacy.tokens import Doc

from ..annotations import get_doc_id
from ..errors import Errors
from ..formats import read_docs
from ..pipeline.coref import SHIPPED_PIPELINES, coref_pipeline_path
from ..util import bare_copy, check_at_least_one
from .evaluation import (
    BASE_PIPELINE, cluster_components, evaluate_docs, keeping_scores, load_coref_nlp, scored_docs,
)
from .silver import (
    SilverWriter, antecedent_targets, set_antecedent_targets, silver_doc, write_silver,
)
from .unlabeled import read_texts

COREF_COMPONENTS = ("coref_cluster", "coref")


def load_pipeline(model: str, *, base: str = BASE_PIPELINE) -> Language:
    """A pipeline that resolves coreference from raw tokens, the fastest way the model allows:
    a trained pipeline that needs no parse (e.g. the student, with span candidates) is loaded
    as it is; one that needs a parse gets it (`load_coref_nlp`: its own parser, or `base`).

    model (str): a trained pipeline directory, a coreference pipeline directory, or the name
        of a shipped one ("default", "fast", "accurate").
    base (str): the parser pipeline for coreference pipelines without their own.
    RETURNS (Language): the pipeline.
    """
    if model not in SHIPPED_PIPELINES:
        path = Path(model)
        if not (path / "config.cfg").exists():
            raise ValueError(Errors.CE267.format(path=path))
        names = spacy.util.load_config(path / "config.cfg")["nlp"]["pipeline"]
        if not any(name in names for name in COREF_COMPONENTS):
            raise ValueError(Errors.CE267.format(path=path))
        if "coref_cluster" in names and "coref_mentions" not in names:
            return spacy.load(path)
    return load_coref_nlp(model, base=base)


def teacher_identity(nlp: Language, model: str) -> Dict[str, Any]:
    """What identifies the teacher in a silver manifest, so that a silver set is never
    continued with another teacher's labels (CE274) and a student can say which teacher made
    its silver data: the model as given, its pipeline's name and version (its meta.json, the
    model card's), and the sha256 digest of its weight files (`weights_digest`: every
    component's "model" file and the encoder's weights, e.g. the accurate pipeline's
    coref_cluster/model and encoder_changes.safetensors).

    nlp (Language): the teacher, as `load_pipeline` loaded it.
    model (str): the teacher as given: a shipped pipeline's name or a directory.
    RETURNS (Dict[str, Any]): name, pipeline, version, weights_sha256, weight_files.
    """
    path = coref_pipeline_path(model) if model in SHIPPED_PIPELINES else Path(model)
    meta = nlp.meta
    if (path / "meta.json").exists():
        meta = srsly.read_json(path / "meta.json")
    digest, files = weights_digest(path)
    if not files:  # nothing saved: the weights in memory
        weights = hashlib.sha256()
        for cluster in cluster_components(nlp):
            weights.update(cluster.model.to_bytes())
        digest = weights.hexdigest()
    return {
        "name": model,
        "pipeline": meta.get("name"),
        "version": meta.get("version"),
        "weights_sha256": digest,
        "weight_files": files,
    }


def weights_digest(path: Path) -> Tuple[str, List[str]]:
    """The sha256 digest of a pipeline directory's weight files (every file named "model" and
    every .safetensors file under it), and their paths relative to it in the order hashed:
    each file's path and its own sha256 digest go into the whole's."""
    path = Path(path)
    found = [p for p in path.rglob("*") if p.is_file() and _is_weights(p)]
    files = sorted(p.relative_to(path).as_posix() for p in found)
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode("utf8") + b"\0")
        digest.update(_file_digest(path / name))
    return digest.hexdigest(), files


def _is_weights(path: Path) -> bool:
    return path.name == "model" or path.suffix == ".safetensors"


def _file_digest(path: Path) -> bytes:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.digest()


def label_texts(
    teacher: Language,
    texts: Sequence[Tuple[str, str]],
    *,
    batch_size: int = 8,
    soft: Optional[Dict[str, Any]] = None,
) -> List[Doc]:
    """Silver docs: the teacher's clusters on each (id, text) and, with `soft` (the settings of
    `silver.antecedent_targets`: top_k, min_prob, temperature), its antecedent distributions."""
    if soft is None:
        docs = teacher.pipe((text for _, text in texts), batch_size=batch_size)
        return [silver_doc(doc, name) for (name, _), doc in zip(texts, docs)]
    (cluster,) = cluster_components(teacher)
    silver = []
    with keeping_scores(teacher) as kept:
        docs = teacher.pipe((text for _, text in texts), batch_size=batch_size)
        for (name, _), doc in zip(texts, docs):
            targets = antecedent_targets(
                doc,
                kept.pop(id(doc)),
                null_score=cluster.cfg.get("null_score", 0.0),
                null_scores_by_form=cluster.cfg.get("null_scores_by_form", {}),
                **soft,
            )
            silver.append(silver_doc(doc, name, targets))
    return silver


def make_silver_corpus(
    teacher: str,
    data: Path,
    output: Path,
    *,
    max_texts: int = 200,
    max_words: int = 1000,
    seed: Optional[int] = 0,
    base: str = BASE_PIPELINE,
    shard_size: int = 50,
    soft: bool = False,
    top_k: int = 8,
    min_prob: float = 0.01,
    temperature: float = 1.0,
    prefix: str = "silver",
    on_shard: Optional[Callable[[Path, int], None]] = None,
    order: str = "random",
    relabel: bool = False,
) -> Dict[str, Any]:
    """Label unlabeled text with the teacher into the silver directory `output`, shard by
    shard: a run stopped part way goes on from its last finished shard, and one with a larger
    `max_texts` labels only the texts it adds. The manifest records the teacher's identity
    (`teacher_identity`): a set is continued by the same weights only (CE274).

    teacher (str): the teacher pipeline ("default", "accurate" or a directory).
    data (Path): unlabeled .jsonl file(s), e.g. ../shared/data/modern (Wikipedia chunks and
        chit-chat conversations, whose turns the teacher reads as speakers).
    output (Path): the silver directory (it may hold gold data files too).
    max_texts (int): label at most this many texts.
    max_words (int): split chunks into texts of about this many words (prose at paragraphs,
        conversations at turns).
    seed (Optional[int]): the seed of the text sample (None: the files' order).
    base (str): the parser pipeline for a teacher without its own.
    shard_size (int): texts per shard.
    soft (bool): also keep the teacher's antecedent distributions (soft targets).
    top_k (int): with `soft`, at most this many antecedents per mention.
    min_prob (float): with `soft`, antecedents less likely than this are left out.
    temperature (float): with `soft`, the softmax temperature of the teacher's scores.
    prefix (str): the name of the shards and their manifest in `output`.
    on_shard (Optional[Callable[[Path, int], None]]): called with each new shard and the texts
        done so far.
    order (str): the order of the chunks (`unlabeled.read_texts`): "random" (by `seed`),
        "pronouns" (the most third-person pronouns per word first) or "file".
    relabel (bool): label the set again from the start, replacing its shards, whatever teacher
        or settings its manifest records.
    RETURNS (Dict[str, Any]): statistics of the silver corpus and the teacher's speed in this
        run (None where every shard was finished before).
    """
    check_at_least_one(shard_size=shard_size, top_k=top_k)
    texts = read_texts(data, max_texts=max_texts, max_words=max_words, seed=seed, order=order)
    nlp = load_pipeline(teacher, base=base)
    soft_settings = {"top_k": top_k, "min_prob": min_prob, "temperature": temperature}
    # the soft settings are part of the run only where they shape its labels
    # the order is the texts' (recorded for the reader: "texts" is what a run must agree on)
    run = {"teacher": teacher_identity(nlp, teacher), "soft": soft, "order": order,
           **(soft_settings if soft else {})}
    n_words = 0
    start = time.perf_counter()

    def label(batch):
        nonlocal n_words
        docs = label_texts(nlp, batch, soft=soft_settings if soft else None)
        n_words += sum(len(doc) for doc in docs)
        return docs

    writer = write_silver(
        label, texts, output, run, shard_size=shard_size, prefix=prefix, on_shard=on_shard,
        relabel=relabel,
    )
    return _silver_stats(writer, run, str(output), n_words, time.perf_counter() - start)


def _silver_stats(
    writer: SilverWriter, run: Dict[str, Any], output: str, n_words: int, seconds: float
) -> Dict[str, Any]:
    shards = writer.shards
    return {
        "teacher": run["teacher"],
        "output": output,
        "texts": writer.done,
        "shards": len(shards),
        "tokens": sum(shard["tokens"] for shard in shards),
        "clusters": sum(shard["clusters"] for shard in shards),
        "soft": run["soft"],
        "labelled_now": n_words,
        "seconds": round(seconds, 1),
        "teacher_words_per_second": round(n_words / seconds, 1) if n_words else None,
    }


def label_gold_corpus(
    teacher: str,
    data: Path,
    output: Path,
    *,
    base: str = BASE_PIPELINE,
    shard_size: int = 50,
    top_k: int = 8,
    min_prob: float = 0.01,
    temperature: float = 1.0,
    prefix: str = "gold",
    on_shard: Optional[Callable[[Path, int], None]] = None,
    relabel: bool = False,
) -> Dict[str, Any]:
    """The gold training documents with the teacher's antecedent distributions added (soft
    targets beside the gold clusters, which stay as they are), written to the silver directory
    `output` shard by shard as `make_silver_corpus` writes (and goes on).

    teacher (str): the teacher pipeline ("default", "accurate" or a directory).
    data (Path): gold data (.spacy, CoNLL-2012, GAP .tsv or .jsonl; a file or a directory).
    output (Path): the silver directory (its gold data files are read as gold training data
        too: write to another directory than `data`'s).
    prefix (str): the name of the shards and their manifest in `output`.
    relabel (bool): label the set again from the start, replacing its shards.
    RETURNS (Dict[str, Any]): as `make_silver_corpus`.
    """
    check_at_least_one(shard_size=shard_size, top_k=top_k)
    nlp = load_pipeline(teacher, base=base)
    references = read_docs(data, vocab=nlp.vocab)
    soft = {"top_k": top_k, "min_prob": min_prob, "temperature": temperature}
    (cluster,) = cluster_components(nlp)
    run = {"teacher": teacher_identity(nlp, teacher), "soft": "gold", **soft}
    # documents are named by their place and source name: names may repeat across sources
    items = [(f"{i}:{get_doc_id(doc)['name']}", doc) for i, doc in enumerate(references)]
    n_words = 0
    start = time.perf_counter()

    def label(batch):
        nonlocal n_words
        refs = [doc for _, doc in batch]
        n_words += sum(len(doc) for doc in refs)
        for ref, (predicted, scores) in zip(refs, scored_docs(nlp, refs)):
            set_antecedent_targets(ref, antecedent_targets(
                predicted,
                scores,
                null_score=cluster.cfg.get("null_score", 0.0),
                null_scores_by_form=cluster.cfg.get("null_scores_by_form", {}),
                **soft,
            ))
        return refs

    writer = write_silver(
        label, items, output, run, shard_size=shard_size, prefix=prefix, on_shard=on_shard,
        relabel=relabel,
    )
    return _silver_stats(writer, run, str(output), n_words, time.perf_counter() - start)


def compare_models(
    models: Dict[str, str],
    data: Path,
    *,
    base: str = BASE_PIPELINE,
    repeats: int = 1,
    null_scores: Dict[str, float] = {},  # noqa: B006 (never mutated)
) -> Dict[str, Dict[str, Any]]:
    """Accuracy and CPU speed of each model on the same gold data, side by side.

    models (Dict[str, str]): role (e.g. "teacher", "student") -> model.
    data (Path): gold data (.spacy, CoNLL, ...).
    repeats (int): time this many runs and keep the fastest (the scores are the same).
    null_scores (Dict[str, float]): role -> decode with this null score instead of the
        model's own (for trained pipelines with a `coref_cluster`).
    RETURNS (Dict[str, Dict[str, Any]]): role -> the `evaluate_docs` result.
    """
    check_at_least_one(repeats=repeats)
    results = {}
    for role, model in models.items():
        nlp = load_pipeline(model, base=base)
        if role in null_scores and "coref_cluster" in nlp.pipe_names:
            nlp.get_pipe("coref_cluster").cfg["null_score"] = null_scores[role]
        references = read_docs(data, vocab=nlp.vocab)
        if references:
            # first use loads lazy weights (the `coref` stack): keep it out of the timing
            list(nlp.pipe([bare_copy(references[0])]))
        # detected mentions only: a parser-free student has no `coref_mentions` to give
        # GAP's labelled spans to, and the table shows the detected-mention scores
        runs = [evaluate_docs(nlp, references, gold_mentions=False) for _ in range(repeats)]
        best = max(runs, key=_speed)
        results[role] = {**best, "model": model, "null_score": null_scores.get(role)}
    return results


def _speed(result: Dict[str, Any]) -> float:
    return result["words_per_second"] or 0.0


def summary_rows(results: Dict[str, Dict[str, Any]]) -> List[Tuple[str, str, str, str]]:
    """(role, CoNLL F1, GAP F1, words/s) per model, for a table."""
    rows = []
    for role, result in results.items():
        conll: Optional[Dict] = result.get("conll")
        gap: Optional[Dict] = result.get("gap")
        rows.append(
            (
                role,
                f"{conll['conll_f1']:.2f}" if conll else "-",
                f"{gap['overall']['f']:.1f}" if gap else "-",
                f"{result['words_per_second']:.0f}" if result.get("words_per_second") else "-",
            )
        )
    return rows
