"""The spaCy scorer `spacy_coref.coref_scorer.v1`, so `spacy train` and `spacy evaluate` report
coreference scores.

Fully annotated docs (CoNLL-2012, LitBank, OntoGUM) get the CoNLL metrics of `metrics.py`, summed
over the docs. Partially annotated docs, whose reference holds `GOLD_MENTIONS_KEY` (GAP: only
the pronoun and two names carry gold decisions), get the GAP metrics of `gap.py` instead: CoNLL
metrics over three labelled spans would count every other predicted mention as spurious.
Scores are fractions (spaCy's convention), None where no doc of that kind was scored.
"""
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from ..annotations import CLUSTER_PREFIX, GOLD_MENTIONS_KEY, get_clusters
from .gap import (
    GapEvaluator,
    char_offsets,
    checked_gap_spans,
    clusters_without_possessive_markers,
    gap_decision,
    pronoun_gender,
)
from .metrics import METRICS, CorefEvaluator

# Keys this scorer returns, for `default_score_weights` and tests.
CONLL_SCORE_KEYS = (
    ["coref_f"]
    + [f"coref_{metric}_{x}" for metric in METRICS for x in ("p", "r", "f")]
    + [f"coref_mentions_{x}" for x in ("p", "r", "f")]
)
GAP_SCORE_KEYS = ["coref_gap_f", "coref_gap_f_masculine", "coref_gap_f_feminine", "coref_gap_bias"]
SCORE_KEYS = CONLL_SCORE_KEYS + GAP_SCORE_KEYS


@registry.scorers("spacy_coref.coref_scorer.v1")
def make_coref_scorer() -> Callable[..., Dict[str, Optional[float]]]:
    """The coreference scorer (registered as `spacy_coref.coref_scorer.v1`).

    RETURNS (Callable[..., Dict[str, Optional[float]]]): `score_coref`.
    """
    return score_coref


def score_coref(
    examples: Iterable[Example],
    *,
    keep_singletons: bool = True,
    spans_prefix: str = CLUSTER_PREFIX,
    **kwargs: Any,
) -> Dict[str, Optional[float]]:
    """Score predicted clusters against the reference clusters of each example.

    examples (Iterable[Example]): Examples with clusters on `eg.reference` and `eg.predicted`.
    keep_singletons (bool): Score singleton clusters (False removes them first).
    spans_prefix (str): The prefix of the cluster keys in `doc.spans`, on both docs.
    **kwargs: Other settings of the calling component, ignored.
    RETURNS (Dict[str, Optional[float]]): `coref_f` (CoNLL F1), `coref_{muc,b3,ceafe,ceafm,
        blanc,lea,mentions}_{p,r,f}`, and `coref_gap_f`, `coref_gap_f_masculine`,
        `coref_gap_f_feminine`, `coref_gap_bias` (F1 feminine / masculine).
    """
    conll = CorefEvaluator(keep_singletons=bool(keep_singletons))
    gap = GapEvaluator()
    n_gap = 0
    for eg in examples:
        if GOLD_MENTIONS_KEY in eg.reference.spans:
            _add_gap_example(gap, eg, spans_prefix)
            n_gap += 1
        else:
            key = _char_clusters(eg.reference, spans_prefix)
            conll.add(key, _char_clusters(eg.predicted, spans_prefix))
    scores: Dict[str, Optional[float]] = dict.fromkeys(SCORE_KEYS)
    if conll.n_docs:
        result = conll.scores()
        scores["coref_f"] = result["conll_f1"] / 100
        for metric in (*METRICS, "mentions"):
            for x in ("p", "r", "f"):
                scores[f"coref_{metric}_{x}"] = result[metric][x] / 100
    if n_gap:
        result = gap.scores()
        scores["coref_gap_f"] = result["overall"]["f"] / 100
        scores["coref_gap_f_masculine"] = result["masculine"]["f"] / 100
        scores["coref_gap_f_feminine"] = result["feminine"]["f"] / 100
        scores["coref_gap_bias"] = result["bias"]
    return scores


def _char_clusters(doc: Doc, prefix: str) -> List[List[Tuple[int, int]]]:
    """Clusters as character offsets, comparable across the two docs of an example even when
    their tokenizations differ."""
    return [
        [(doc[start].idx, doc[end - 1].idx + len(doc[end - 1])) for start, end in cluster]
        for cluster in get_clusters(doc, prefix)
    ]


def _add_gap_example(evaluator: GapEvaluator, eg: Example, prefix: str) -> None:
    spans = checked_gap_spans(eg.reference)
    ref_roles = {role: (span.start, span.end) for role, span in spans.items()}
    gold = gap_decision(get_clusters(eg.reference, prefix), *_ordered(ref_roles), exact=True)
    pred_roles = {role: char_offsets(eg.predicted, span) for role, span in spans.items()}
    if any(offsets is None for offsets in pred_roles.values()):
        predicted = (False, False)
    else:
        clusters = clusters_without_possessive_markers(
            eg.predicted, get_clusters(eg.predicted, prefix)
        )
        predicted = gap_decision(clusters, *_ordered(pred_roles))
    evaluator.add(pronoun_gender(spans["PRONOUN"].text), gold, predicted)


def _ordered(roles: Dict[str, Any]) -> Tuple[Any, Any, Any]:
    return roles["PRONOUN"], roles["A"], roles["B"]
