"""Accuracy on pronoun problems (WinoGrande, WSC, PDP): did the model pick the right candidate?

A pronoun problem (`formats.pronoun_problems`) is a doc with a PRONOUN span and two candidate
spans A and B under `GOLD_MENTIONS_KEY`, the pronoun in one gold cluster with the right
candidate, and its kind in `doc.user_data[PROBLEM_KIND]`. A prediction is right when the
predicted clusters holding the pronoun hold a mention of the right candidate and none of the
other one; it is wrong when they hold both, only the other, or neither (a pronoun in no
predicted cluster). Problems with one candidate (BUG) have no choice to get right and are
skipped, and so is a doc whose gold links the pronoun with neither or both candidates.

Spans are matched as the GAP scorer matches them (`scoring.gap`): on token offsets of the
predicted doc, which has the reference's tokens; the pronoun matches only a predicted mention
with exactly its span; a candidate matches a predicted mention with its span or one that ends
on its last token ("the trophy" for the candidate "trophy") and overlaps neither the pronoun
nor the other candidate; a possessive mention counts without its marker. Predicted and
reference docs are matched by their order, as `evaluate_docs` matches GAP docs.

The interval is a percentile bootstrap over problems (`scoring.bootstrap`'s draws): each
resample draws the problems with replacement and computes the accuracy of the draw.
"""
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy
from spacy.tokens import Doc

from ..annotations import CLUSTER_PREFIX, GOLD_MENTIONS_KEY, get_clusters
from ..errors import Errors
from ..formats.gap import A, B, PRONOUN, gap_coref, gap_spans
from ..formats.pronoun_problems import PROBLEM_KIND
from ..types import ClusterOffsets, MentionOffset
from .bootstrap import resample_indices, resampled_sums
from .gap import matches_name, clusters_without_possessive_markers

# one problem's outcome: its kind and whether the prediction is right
Outcome = Tuple[str, bool]


def is_pronoun_problem_doc(doc: Doc) -> bool:
    """Whether a doc is a pronoun problem (`doc.user_data[PROBLEM_KIND]`, as
    `read_pronoun_problems` sets it), of any kind and with any number of candidates."""
    return bool(doc.user_data.get(PROBLEM_KIND)) and GOLD_MENTIONS_KEY in doc.spans


def problem_roles(reference: Doc) -> Optional[Dict[str, MentionOffset]]:
    """The token offsets of a two-candidate pronoun problem's PRONOUN, its right candidate
    ("right") and the other one ("other"), or None where the doc is not one: no pronoun-problem
    kind, not exactly the spans PRONOUN, A and B (BUG's PRONOUN and A), or a gold cluster that
    links the pronoun with neither or both candidates.

    reference (Doc): The gold doc.
    RETURNS (Optional[Dict[str, MentionOffset]]): "pronoun", "right", "other" -> (start, end).
    """
    if not is_pronoun_problem_doc(reference):
        return None
    spans = gap_spans(reference)
    if spans is None:
        return None
    gold = gap_coref(reference, spans)
    if gold[A] == gold[B]:
        return None
    right, other = (A, B) if gold[A] else (B, A)
    return {
        role: (spans[label].start, spans[label].end)
        for role, label in (("pronoun", PRONOUN), ("right", right), ("other", other))
    }


def problem_decision(
    clusters: ClusterOffsets, pronoun: MentionOffset, right: MentionOffset, other: MentionOffset
) -> bool:
    """Whether predicted clusters answer a problem rightly: the clusters holding the pronoun
    hold a mention matching the right candidate and none matching the other.

    clusters (ClusterOffsets): The predicted clusters as (start, end) token offsets, possessive
        markers cut (`clusters_without_possessive_markers`).
    pronoun (MentionOffset): The pronoun's span.
    right (MentionOffset): The right candidate's span.
    other (MentionOffset): The other candidate's span.
    RETURNS (bool): True when right.
    """
    linked = [m for cluster in clusters if pronoun in cluster for m in cluster if m != pronoun]
    has_right = any(matches_name(m, right, (pronoun, other)) for m in linked)
    has_other = any(matches_name(m, other, (pronoun, right)) for m in linked)
    return has_right and not has_other


def pronoun_problem_outcomes(
    predicted_docs: Sequence[Doc], reference_docs: Sequence[Doc], *, prefix: str = CLUSTER_PREFIX
) -> List[Optional[Outcome]]:
    """Each doc's outcome: (kind, right) for two-candidate pronoun problems, None for other
    docs (skipped).

    predicted_docs (Sequence[Doc]): The predicted docs (clusters set), the references' tokens.
    reference_docs (Sequence[Doc]): The gold docs, in the same order.
    prefix (str): The prefix of the predicted cluster keys.
    RETURNS (List[Optional[Outcome]]): One per doc pair.
    """
    outcomes: List[Optional[Outcome]] = []
    for pred, ref in zip(predicted_docs, reference_docs):
        roles = problem_roles(ref)
        if roles is None:
            outcomes.append(None)
            continue
        clusters = clusters_without_possessive_markers(pred, get_clusters(pred, prefix))
        right = problem_decision(clusters, roles["pronoun"], roles["right"], roles["other"])
        outcomes.append((str(ref.user_data[PROBLEM_KIND]), right))
    return outcomes


def pronoun_problem_accuracy(
    predicted_docs: Sequence[Doc],
    reference_docs: Sequence[Doc],
    *,
    prefix: str = CLUSTER_PREFIX,
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> Optional[Dict[str, Any]]:
    """The accuracy of predicted clusters on the pronoun problems among the docs, with its
    bootstrap interval over problems.

    predicted_docs (Sequence[Doc]): The predicted docs (clusters set), the references' tokens.
    reference_docs (Sequence[Doc]): The gold docs, in the same order.
    prefix (str): The prefix of the predicted cluster keys.
    n_resamples (int): Bootstrap resamples of the problems.
    seed (int): The seed of the draws.
    confidence (float): The interval's coverage, between 0 and 1.
    RETURNS (Optional[Dict[str, Any]]): None when no doc is a two-candidate problem; else
        "accuracy" (percent), "right", "total", "low" and "high" (the interval, percent),
        "confidence", "n_resamples", "skipped" (pronoun-problem docs that were not scored,
        such as BUG's one-candidate ones) and "kinds" (per kind: "accuracy", "right",
        "total").
    """
    if not 0 < confidence < 1:
        raise ValueError(Errors.CE423.format(value=confidence))
    outcomes = pronoun_problem_outcomes(predicted_docs, reference_docs, prefix=prefix)
    scored = [outcome for outcome in outcomes if outcome is not None]
    skipped = sum(
        outcome is None and is_pronoun_problem_doc(ref)
        for outcome, ref in zip(outcomes, reference_docs)
    )
    if not scored:
        return None
    counts = numpy.asarray([[float(right), 1.0] for _, right in scored])  # [n_problems, 2]
    indices = resample_indices(len(counts), n_resamples=n_resamples, seed=seed)
    sums = resampled_sums(counts, indices)  # [n_resamples, 2]
    tail = 100 * (1 - confidence) / 2
    low, high = numpy.percentile(100 * sums[:, 0] / sums[:, 1], [tail, 100 - tail])
    kinds: Dict[str, Dict[str, Any]] = {}
    for kind, right in scored:
        tally = kinds.setdefault(kind, {"accuracy": 0.0, "right": 0, "total": 0})
        tally["right"] += int(right)
        tally["total"] += 1
    for tally in kinds.values():
        tally["accuracy"] = 100.0 * tally["right"] / tally["total"]
    n_right = sum(right for _, right in scored)
    return {
        "accuracy": 100.0 * n_right / len(scored),
        "right": n_right,
        "total": len(scored),
        "low": float(low),
        "high": float(high),
        "confidence": confidence,
        "n_resamples": n_resamples,
        "skipped": skipped,
        "kinds": kinds,
    }
