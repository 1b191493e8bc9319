"""The training signal of the s2e head: the marginal log-likelihood of the gold antecedents, the
cross-entropy against a teacher's antecedent distributions (distillation) and the mention
cross-entropy, with their gradients. Pure numpy over one doc's `CorefScores`."""
from typing import TYPE_CHECKING, Dict, Optional, Set, Tuple

import numpy

from ..ml.torch.constants import FIRST_ANTECEDENT_COLUMN
from ..types import CorefScores, MentionOffset, valid_antecedents

if TYPE_CHECKING:
    from .silver import AntecedentTargets


def antecedent_loss(
    scores: CorefScores,
    gold_cluster_of: Dict[MentionOffset, int],
    labelled: Optional[Set[MentionOffset]] = None,
) -> Tuple[float, numpy.ndarray]:
    """Marginal log-likelihood of the gold antecedents (the null antecedent where a mention has
    none among its candidates), and its gradient with respect to the scores.

    gold_cluster_of (dict): gold mention offsets -> cluster id.
    labelled (set): for partially annotated docs (GAP), the only mentions with gold decisions:
        the loss is restricted to rows and antecedents among them (seed 000, eq. 1).
    RETURNS (float, numpy.ndarray): the loss and d_scores [M, 1 + K].
    """
    pair_scores = numpy.asarray(scores.scores, dtype="float32")  # [M, 1 + K]
    spans = numpy.asarray(scores.candidates)[numpy.asarray(scores.kept)]  # [M, 2]
    antecedents = numpy.asarray(scores.antecedents)  # [M, K]
    cluster = _lookup(spans, gold_cluster_of, default=-1)  # [M]
    allowed = valid_antecedents(scores)  # [M, K]
    rows = numpy.ones(len(spans), dtype=bool)  # [M]
    if labelled is not None:
        is_labelled = _lookup(spans, {m: 1 for m in labelled}, default=0).astype(bool)  # [M]
        rows = is_labelled
        allowed = allowed & is_labelled[antecedents]
    same = allowed & (cluster[antecedents] == cluster[:, None]) & (cluster[:, None] >= 0)
    gold = numpy.concatenate([~same.any(axis=1, keepdims=True), same], axis=1)  # [M, 1 + K]
    candidates = numpy.concatenate([numpy.ones_like(rows)[:, None], allowed], axis=1)
    log_norm, p_all = _masked_log_softmax(pair_scores, candidates)
    log_gold, p_gold = _masked_log_softmax(pair_scores, gold)
    loss = float(((log_norm - log_gold) * rows).sum())
    d_scores = (p_all - p_gold) * rows[:, None]  # [M, 1 + K]
    return loss, d_scores.astype("float32")


def soft_antecedent_loss(
    scores: CorefScores, targets: "AntecedentTargets"
) -> Tuple[float, numpy.ndarray]:
    """Cross-entropy of the student's antecedent distribution against the teacher's (soft
    targets, `silver.antecedent_targets`), and its gradient with respect to the scores. Each
    student mention that the teacher kept is a row; the teacher's probabilities of the
    antecedents the student cannot choose (pruned, or out of its window) are left out and the
    rest renormalized, so the target is a distribution over the student's own choices.

    RETURNS (float, numpy.ndarray): the loss and d_scores [M, 1 + K].
    """
    pair_scores = numpy.asarray(scores.scores, dtype="float32")  # [M, 1 + K]
    spans = numpy.asarray(scores.candidates)[numpy.asarray(scores.kept)]  # [M, 2]
    antecedents = numpy.asarray(scores.antecedents)  # [M, K]
    allowed = valid_antecedents(scores)  # [M, K]
    target = numpy.zeros_like(pair_scores)  # [M, 1 + K]
    row_of = {(int(s), int(e)): i for i, (s, e) in enumerate(spans)}
    pair_rows, pair_columns, pair_probs = [], [], []  # the teacher's (mention, antecedent) pairs
    for i, mention in enumerate(targets.mentions):
        row = row_of.get(mention)
        if row is None:
            continue
        target[row, 0] = targets.null[i]
        for j, p in zip(targets.antecedents[i], targets.probs[i]):
            column = row_of.get(targets.mentions[j])
            if column is not None:
                pair_rows.append(row)
                pair_columns.append(column)
                pair_probs.append(p)
    if pair_rows and allowed.any():
        # which of its K slots holds each pair's antecedent: one sorted lookup for all pairs
        n_rows, k = antecedents.shape
        flat_allowed = allowed.reshape(-1)
        keys = numpy.repeat(numpy.arange(n_rows), k) * n_rows + antecedents.reshape(-1)
        keys, slots = keys[flat_allowed], numpy.nonzero(flat_allowed)[0] % k
        order = numpy.argsort(keys, kind="stable")
        keys, slots = keys[order], slots[order]
        rows_a = numpy.asarray(pair_rows)
        query = rows_a * n_rows + numpy.asarray(pair_columns)
        where = numpy.minimum(numpy.searchsorted(keys, query), len(keys) - 1)
        found = keys[where] == query
        target[rows_a[found], FIRST_ANTECEDENT_COLUMN + slots[where[found]]] = (
            numpy.asarray(pair_probs, dtype="float32")[found]
        )
    mass = target.sum(axis=1)  # [M]
    rows = mass > 0
    if not rows.any():
        return 0.0, numpy.zeros_like(pair_scores)
    target[rows] /= mass[rows, None]
    candidates = numpy.concatenate([numpy.ones((len(spans), 1), dtype=bool), allowed], axis=1)
    log_norm, p_all = _masked_log_softmax(pair_scores, candidates)
    log_p = numpy.where(candidates, pair_scores - log_norm[:, None], 0.0)
    loss = float(-(target * log_p)[rows].sum())
    d_scores = (p_all - target) * rows[:, None]  # [M, 1 + K]
    return loss, d_scores.astype("float32")


def mention_loss(
    scores: CorefScores,
    gold_mentions: Set[MentionOffset],
    labelled: Optional[Set[MentionOffset]] = None,
) -> Tuple[float, numpy.ndarray]:
    """Binary cross-entropy of the mention scores f_m. With `labelled` (partial annotation) only
    the labelled spans count, as positives; other candidates carry no signal.
    RETURNS (float, numpy.ndarray): the loss and d_mention_scores [C]."""
    logits = numpy.asarray(scores.mention_scores, dtype="float32")  # [C]
    cands = numpy.asarray(scores.candidates)  # [C, 2]
    target = _lookup(cands, {m: 1 for m in gold_mentions}, default=0).astype("float32")  # [C]
    weight = numpy.ones_like(target)
    if labelled is not None:
        weight = _lookup(cands, {m: 1 for m in labelled}, default=0).astype("float32")
    # softplus(x) - y * x is the BCE with logits; written stably
    loss = numpy.logaddexp(0, logits) - target * logits  # [C]
    grad = 1.0 / (1.0 + numpy.exp(-logits)) - target  # [C]
    return float((loss * weight).sum()), (grad * weight).astype("float32")


def _lookup(spans: numpy.ndarray, table: Dict[MentionOffset, int], default: int) -> numpy.ndarray:
    return numpy.fromiter(
        (table.get((int(s), int(e)), default) for s, e in spans), dtype="int64", count=len(spans)
    )


def _masked_log_softmax(
    scores: numpy.ndarray, mask: numpy.ndarray
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Row-wise log-sum-exp and softmax over the True entries (every row has at least one)."""
    masked = numpy.where(mask, scores, -numpy.inf)  # [M, 1 + K]
    top = masked.max(axis=1, keepdims=True)  # [M, 1]
    exp = numpy.where(mask, numpy.exp(masked - top), 0.0)  # [M, 1 + K]
    total = exp.sum(axis=1, keepdims=True)  # [M, 1]
    return (numpy.log(total) + top)[:, 0], exp / total
