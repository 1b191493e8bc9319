"""Hard-target distillation (seed 002): a teacher pipeline labels unlabeled text with its
clusters, written as a silver .spacy corpus; a smaller, faster student (configs/
distill_student.cfg) trains on it with `spacy train`, then on gold data starting from the silver
weights (`--paths.init_coref`). Hard targets (the teacher's clusters, not its scores) avoid the
pruning mismatch and the intransitive logits that made soft targets fail in seed 002, 5.1.
"""

import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from ..annotations import get_clusters, set_clusters, set_doc_id
from ..errors import Errors
from ..formats import read_docs, write_docs
from ..pipeline.coref import SHIPPED_PIPELINES
from ..util import bare_copy, check_at_least_one
from .evaluation import BASE_PIPELINE, evaluate_docs, load_coref_nlp
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


def silver_doc(predicted: Doc, name: str) -> Doc:
    """The teacher's output as training data: the words and the clusters, nothing else."""
    doc = Doc(
        predicted.vocab,
        words=[t.text for t in predicted],
        spaces=[bool(t.whitespace_) for t in predicted],
    )
    set_clusters(doc, get_clusters(predicted))
    set_doc_id(doc, name)
    return doc


def label_texts(
    teacher: Language, texts: Sequence[Tuple[str, str]], *, batch_size: int = 8
) -> List[Doc]:
    """Silver docs: the teacher's clusters on each (id, text)."""
    docs = teacher.pipe((text for _, text in texts), batch_size=batch_size)
    return [silver_doc(doc, name) for (name, _), doc in zip(texts, docs)]


def make_silver_corpus(
    teacher: str,
    data: Path,
    output: Path,
    *,
    max_texts: int = 200,
    max_words: int = 1000,
    seed: int = 0,
    base: str = BASE_PIPELINE,
) -> Dict[str, Any]:
    """Label unlabeled text with the teacher and write the silver corpus.

    teacher (str): the teacher pipeline ("default" or a directory).
    data (Path): unlabeled .jsonl file(s).
    output (Path): the .spacy file to write.
    max_texts (int): label at most this many texts.
    max_words (int): split chunks into texts of about this many words.
    seed (int): the seed of the text sample.
    base (str): the parser pipeline for a teacher without its own.
    RETURNS (Dict[str, Any]): statistics of the silver corpus and the teacher's speed.
    """
    texts = read_texts(data, max_texts=max_texts, max_words=max_words, seed=seed)
    nlp = load_pipeline(teacher, base=base)
    start = time.perf_counter()
    docs = label_texts(nlp, texts)
    seconds = time.perf_counter() - start
    output.parent.mkdir(parents=True, exist_ok=True)
    write_docs(docs, output)
    clusters = [get_clusters(doc) for doc in docs]
    n_words = sum(len(doc) for doc in docs)
    return {
        "teacher": teacher,
        "texts": len(docs),
        "tokens": n_words,
        "clusters": sum(len(c) for c in clusters),
        "mentions": sum(len(cluster) for c in clusters for cluster in c),
        "seconds": round(seconds, 1),
        "teacher_words_per_second": round(n_words / seconds, 1) if seconds else None,
    }


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
