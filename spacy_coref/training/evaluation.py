"""Evaluate a coreference pipeline on gold documents: CoNLL metrics for fully annotated docs
(with and without singletons), GAP metrics for GAP examples (three labelled spans) with detected
mentions and with the labelled spans as the only candidates, and the accuracy on the pronoun
problems (WinoGrande, WSC, PDP; BUG's one-candidate ones skipped and counted) in both settings;
on request, CoNLL metrics with the gold mentions as the only candidates (how much the candidate
mentions cost)."""
import time
from contextlib import contextmanager
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from ..annotations import GOLD_MENTIONS_KEY, get_clusters, set_clusters
from ..decoding import Decoder
from ..decoding.decoder import shortcut_decoder
from ..errors import Errors
from ..formats.gap import gap_coref
from ..linguistics.mention_classes import FEMININE, MASCULINE, PRONOUN_CLASS
from ..pipeline.loading import (  # noqa: F401 (re-exported: evaluation's callers use them)
    BASE_PIPELINE,
    cluster_components,
    follow_scheme,
    load_coref_nlp,
    mention_components,
    use_constraints,
)
from ..scoring.gap import (
    GapCounts,
    GapEvaluator,
    checked_gap_spans,
    doc_gap_decision,
    pronoun_gender,
)
from ..scoring.metrics import CorefEvaluator
from ..scoring.pronoun_problems import is_pronoun_problem_doc, pronoun_problem_accuracy
from ..types import CorefScores
from ..util import bare_copy

# GAP's gold-two-mention setting: the labelled spans, given to `coref_mentions` as candidates
GIVEN_MENTIONS_KEY = "coref_given_mentions"


@contextmanager
def keeping_scores(nlp: Language) -> Iterator[Dict[int, CorefScores]]:
    """While open, the antecedent scores of every doc that the pipeline's one `coref_cluster`
    annotates, by `id(doc)`: for the docs still alive, so read them while you hold the docs."""
    (cluster,) = cluster_components(nlp)
    kept: Dict[int, CorefScores] = {}
    original = cluster.set_annotations

    def keep(docs, scores):
        docs = list(docs)
        kept.update((id(doc), doc_scores) for doc, doc_scores in zip(docs, scores))
        original(docs, scores)

    cluster.set_annotations = keep
    try:
        yield kept
    finally:
        cluster.set_annotations = original


def scored_docs(
    nlp: Language, references: Iterable[Doc], *, batch_size: int = 8
) -> List[Tuple[Doc, CorefScores]]:
    """Run a pipeline with one `coref_cluster` on bare copies of the references, and keep each
    doc with the model's antecedent scores for it: to decode them again under other settings
    (`scripts/decoding_sweep.py`) or read their candidates (`scripts/fit_salience.py`).

    nlp (Language): a pipeline from `load_coref_nlp`.
    references (Iterable[Doc]): the docs to copy and run.
    batch_size (int): docs per batch.
    RETURNS (List[Tuple[Doc, CorefScores]]): each predicted doc (clusters set) and its scores,
        in the references' order.
    """
    with keeping_scores(nlp) as kept:
        preds = list(nlp.pipe((bare_copy(ref, nlp.vocab) for ref in references),
                              batch_size=batch_size))
    return [(doc, kept[id(doc)]) for doc in preds]


def redecode_docs(
    docs: Sequence[Doc],
    scores: Sequence[CorefScores],
    cfg: Dict[str, Any],
    *,
    constraints: Optional[Sequence[str]] = None,
    null_score: Optional[float] = None,
    null_scores_by_form: Optional[Dict[str, float]] = None,
    decoder: Optional[Decoder] = None,
) -> None:
    """Decode the kept scores of `scored_docs` again and replace each doc's clusters, without
    running the model: each option left None is the component's own setting in `cfg`.

    docs (Sequence[Doc]): the predicted docs of `scored_docs`.
    scores (Sequence[CorefScores]): their scores, in the same order.
    cfg (Dict[str, Any]): the `coref_cluster` component's cfg (settings and spans prefix).
    constraints (Optional[Sequence[str]]): the decoding constraints ([] for none).
    null_score (Optional[float]): the score of "no antecedent".
    null_scores_by_form (Optional[Dict[str, float]]): null scores of one-word mention forms.
    decoder (Optional[Decoder]): the component's decoder (`CorefCluster.decoder`), whose
        steps' settings the steps of `constraints` keep; None: the steps' defaults.
    """
    if constraints is None:
        constraints = cfg.get("constraints", [])
    constraints = list(constraints)
    if decoder is None:
        decode = shortcut_decoder(tuple(constraints))
    else:
        decode = decoder if decoder.names == constraints else decoder.only(constraints)
    if null_score is None:
        null_score = cfg.get("null_score", 0.0)
    if null_scores_by_form is None:
        null_scores_by_form = cfg.get("null_scores_by_form", {})
    for doc, doc_scores in zip(docs, scores):
        clusters = decode(doc, doc_scores, null_score, null_scores_by_form)
        set_clusters(doc, clusters, cfg["spans_prefix"])


def evaluate_docs(
    nlp: Language,
    references: List[Doc],
    *,
    keep_singletons: bool = False,
    gold_mentions: bool = True,
    oracle_mentions: bool = False,
    batch_size: int = 8,
) -> Dict[str, Any]:
    """Run `nlp` on copies of the references' tokens and score the clusters.

    CoNLL metrics are computed for fully annotated docs as set by `keep_singletons` and, where
    the gold clusters include singletons (LitBank, GUM), both ways: kept and removed. GAP docs
    are scored with detected mentions and, with `gold_mentions`, in the gold-two-mention
    setting: the three labelled spans are the only candidates. The pronoun problems among them
    (`formats.pronoun_problems`, two candidates) are also scored by accuracy, from the same
    predictions in each setting (`scoring.pronoun_problems`).

    nlp (Language): A pipeline that parses and resolves coreference.
    references (List[Doc]): The gold docs.
    keep_singletons (bool): score singleton clusters in "conll" (False removes them from key
        and response).
    gold_mentions (bool): also score GAP docs in the gold-two-mention setting (where the
        pipeline has rule-based mentions to replace).
    oracle_mentions (bool): also score the fully annotated docs with every gold mention
        (singletons included) as the only candidates, in "conll_oracle_mentions".
    batch_size (int): docs per batch.
    RETURNS (Dict[str, Any]): "conll" (as set by `keep_singletons`), "conll_singletons"
        (kept) and "conll_without_singletons" (removed) where the gold has singletons,
        "conll_oracle_mentions" (as set by `keep_singletons`), "gap",
        "gap_gold_mentions", "pronoun_problems" and "pronoun_problems_gold_mentions" (the
        accuracy, see `pronoun_problem_accuracy`) (each None where it does not apply),
        "mixed_gender_clusters" (predicted clusters holding he and she; see
        `mixed_gender_clusters`), "n_docs", "n_words", "words_per_second", "seconds",
        "keep_singletons".
    """
    # labelled docs: GAP examples and pronoun problems, run alike; GAP F1 scores only the
    # examples (a BUG problem has no B to score), the accuracy only the problems
    labelled_refs = [ref for ref in references if GOLD_MENTIONS_KEY in ref.spans]
    conll_refs = [ref for ref in references if GOLD_MENTIONS_KEY not in ref.spans]
    is_gap = [not is_pronoun_problem_doc(ref) for ref in labelled_refs]
    gap_refs = _where(labelled_refs, is_gap)
    start = time.perf_counter()
    copies = (bare_copy(ref, nlp.vocab) for ref in conll_refs)
    conll_preds = list(nlp.pipe(copies, batch_size=batch_size))
    copies = (bare_copy(ref, nlp.vocab) for ref in labelled_refs)
    labelled_preds = list(nlp.pipe(copies, batch_size=batch_size))
    seconds = time.perf_counter() - start
    has_singletons = any(len(c) == 1 for ref in conll_refs for c in get_clusters(ref))
    result: Dict[str, Any] = {
        "conll": _conll_scores(conll_refs, conll_preds, keep_singletons) if conll_refs else None,
        "conll_singletons": None,
        "conll_without_singletons": None,
        "conll_oracle_mentions": None,
        "gap": _gap_scores(gap_refs, _where(labelled_preds, is_gap)) if gap_refs else None,
        "gap_gold_mentions": None,
        "pronoun_problems": pronoun_problem_accuracy(labelled_preds, labelled_refs),
        "pronoun_problems_gold_mentions": None,
    }
    if has_singletons:  # the setting "conll" has is scored once
        other = _conll_scores(conll_refs, conll_preds, not keep_singletons)
        kept, removed = (result["conll"], other) if keep_singletons else (other, result["conll"])
        result["conll_singletons"], result["conll_without_singletons"] = kept, removed
    # given mentions replace the rule-based ones: a model that scores all spans has none
    takes_mentions = bool(mention_components(nlp))
    if conll_refs and oracle_mentions and takes_mentions:
        with given_mentions(nlp, GIVEN_MENTIONS_KEY):
            docs = (_with_all_gold_mentions(ref, nlp.vocab) for ref in conll_refs)
            given = list(nlp.pipe(docs, batch_size=batch_size))
        result["conll_oracle_mentions"] = _conll_scores(conll_refs, given, keep_singletons)
    if labelled_refs and gold_mentions and takes_mentions:
        with given_mentions(nlp, GIVEN_MENTIONS_KEY):
            docs = (_with_given_mentions(ref, nlp.vocab) for ref in labelled_refs)
            given = list(nlp.pipe(docs, batch_size=batch_size))
        if gap_refs:
            result["gap_gold_mentions"] = _gap_scores(gap_refs, _where(given, is_gap))
        result["pronoun_problems_gold_mentions"] = pronoun_problem_accuracy(given, labelled_refs)
    n_words = sum(len(doc) for doc in references)
    result.update(
        {
            "n_docs": len(references),
            "n_words": n_words,
            # detected mentions only, so that it compares with a plain run of the pipeline
            "words_per_second": n_words / seconds if seconds else None,
            "seconds": seconds,
            "keep_singletons": keep_singletons,
            "mixed_gender_clusters": mixed_gender_clusters(conll_preds) if conll_refs else None,
        }
    )
    return result


def _where(docs: List[Doc], keep: List[bool]) -> List[Doc]:
    return [doc for doc, k in zip(docs, keep) if k]


def _conll_scores(refs: List[Doc], preds: List[Doc], keep_singletons: bool) -> Dict[str, Any]:
    evaluator = CorefEvaluator(keep_singletons=keep_singletons)
    for ref, pred in zip(refs, preds):
        evaluator.add(get_clusters(ref), get_clusters(pred))
    return evaluator.scores()


def _gap_scores(refs: List[Doc], preds: List[Doc]) -> Dict[str, Any]:
    evaluator = GapEvaluator()
    for index, (ref, pred) in enumerate(zip(refs, preds)):
        evaluator.add(*_gap_example(ref, pred, index))
    return evaluator.scores()


def _gap_example(
    ref: Doc, pred: Doc, index: int
) -> Tuple[Optional[str], Tuple[bool, bool], Tuple[bool, bool]]:
    """A GAP example's pronoun gender, gold and predicted (A-coref, B-coref)."""
    spans = checked_gap_spans(ref, index)  # a malformed GAP doc fails with its name
    # the decision rule reads the labelled spans from the doc it decides for
    pred.spans[GOLD_MENTIONS_KEY] = [
        Span(pred, span.start, span.end, label=span.label_) for span in spans.values()
    ]
    gold = gap_coref(ref, spans)
    gender = pronoun_gender(spans["PRONOUN"].text)
    return gender, (gold["A"], gold["B"]), doc_gap_decision(pred)


def conll_doc_counts(
    refs: List[Doc], preds: List[Doc], *, keep_singletons: bool = False
) -> List[Dict[str, Any]]:
    """Each document's own CoNLL metric counts, to sum or resample (`scoring.bootstrap`).

    refs (List[Doc]): the gold docs.
    preds (List[Doc]): the predicted docs, in the same order.
    keep_singletons (bool): score singleton clusters (False removes them first).
    RETURNS (List[Dict[str, Any]]): per document, `Counts` by metric, as `CorefEvaluator.add`.
    """
    evaluator = CorefEvaluator(keep_singletons=keep_singletons)
    return [evaluator.add(get_clusters(ref), get_clusters(pred)) for ref, pred in zip(refs, preds)]


def gap_example_counts(refs: List[Doc], preds: List[Doc]) -> List[GapCounts]:
    """Each GAP example's overall counts (TP, FP, TN, FN of its two decisions), to sum or
    resample (`scoring.bootstrap`); the decisions as `evaluate_docs` scores them.

    refs (List[Doc]): the gold GAP docs.
    preds (List[Doc]): the predicted docs, in the same order.
    RETURNS (List[GapCounts]): one per example.
    """
    result = []
    for index, (ref, pred) in enumerate(zip(refs, preds)):
        _, gold, predicted = _gap_example(ref, pred, index)
        counts = GapCounts()
        for g, p in zip(gold, predicted):
            counts.add(g, p)
        result.append(counts)
    return result


def _with_given_mentions(reference: Doc, vocab: Vocab) -> Doc:
    """A bare copy of a GAP doc whose only candidate mentions are its three labelled spans."""
    doc = bare_copy(reference, vocab)
    doc.spans[GIVEN_MENTIONS_KEY] = [
        Span(doc, span.start, span.end, label=span.label_)
        for span in reference.spans[GOLD_MENTIONS_KEY]
    ]
    return doc


def _with_all_gold_mentions(reference: Doc, vocab: Vocab) -> Doc:
    """A bare copy of a doc whose only candidate mentions are its gold mentions."""
    doc = bare_copy(reference, vocab)
    doc.spans[GIVEN_MENTIONS_KEY] = [
        Span(doc, start, end) for cluster in get_clusters(reference) for start, end in cluster
    ]
    return doc


def parse_constraints(text: str) -> List[str]:
    """The constraint names of a command-line option: comma-separated, or "none" for []."""
    if text.strip().lower() == "none":
        return []
    return [name.strip() for name in text.split(",") if name.strip()]


def mixed_gender_clusters(docs: List[Doc]) -> Dict[str, int]:
    """How many predicted clusters hold both he/him/his(/himself) and she/her/hers(/herself),
    a mistake a reader sees at once, and how many of all clustered mentions are in them.

    docs (List[Doc]): predicted docs.
    RETURNS (Dict[str, int]): "clusters", "mentions" (in those clusters), "clustered_mentions".
    """
    counts = {"clusters": 0, "mentions": 0, "clustered_mentions": 0}
    for doc in docs:
        for cluster in get_clusters(doc):
            classes = {PRONOUN_CLASS.get(doc[s:e].text.lower()) for s, e in cluster if e - s == 1}
            counts["clustered_mentions"] += len(cluster)
            if {MASCULINE, FEMININE} <= classes:
                counts["clusters"] += 1
                counts["mentions"] += len(cluster)
    return counts


@contextmanager
def given_mentions(nlp: Language, key: str) -> Iterator[None]:
    """Within the block, every `coref_mentions` component of `nlp` takes the spans under
    `doc.spans[key]` as the candidates (where a doc has them) instead of running its rules.

    nlp (Language): A pipeline with a `coref_mentions` component, directly or in a `coref` stack.
    key (str): The doc.spans key of the given candidates.
    """
    components = mention_components(nlp)
    if not components:
        raise ValueError(Errors.CE280.format(pipes=nlp.pipe_names))
    saved = [proc.cfg["spans_key"] for proc in components]
    for proc in components:
        proc.cfg["spans_key"] = key
    try:
        yield
    finally:
        for proc, value in zip(components, saved):
            proc.cfg["spans_key"] = value
