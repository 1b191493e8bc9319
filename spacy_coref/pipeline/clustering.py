"""From antecedent scores to clusters, and the training signal for them. Pure numpy over one doc's
`CorefScores`; no Python loop over mentions in the prediction path."""
from typing import Dict, List, Optional, Set, Tuple

import numpy

from ..ml.s2e_coref import CorefScores
from ..ml.torch.constants import FIRST_ANTECEDENT_COLUMN, MASKED_SCORE, NULL_COLUMN
from ..types import ClusterOffsets, MentionOffset


def valid_antecedents(scores: CorefScores) -> numpy.ndarray:
    """[M, K] whether each candidate antecedent column holds a real pair."""
    return numpy.asarray(scores.scores)[:, FIRST_ANTECEDENT_COLUMN:] > MASKED_SCORE / 2


def predict_clusters(scores: CorefScores, null_score: float = 0.0) -> ClusterOffsets:
    """Link each kept mention to its best antecedent (or none) and return the clusters of two or
    more mentions as token offsets, in document order.

    scores (CorefScores): the model's output for one doc.
    null_score (float): the score of "no antecedent" (0 in the model); lower links more.
    RETURNS (List[List[Tuple[int, int]]]): clusters, each sorted.
    """
    pair_scores = numpy.array(scores.scores)  # [M, 1 + K] (a copy: the null column changes)
    n = pair_scores.shape[0]
    if n == 0 or pair_scores.shape[1] == 1:
        return []
    pair_scores[:, NULL_COLUMN] = null_score
    best = pair_scores.argmax(axis=1)  # [M]
    linked = best != NULL_COLUMN  # [M]
    rows = numpy.arange(n)
    antecedent = numpy.asarray(scores.antecedents)[rows, numpy.maximum(best - 1, 0)]  # [M]
    root = numpy.where(linked, antecedent, rows)  # [M]
    # Antecedents always precede their mention, so pointer jumping reaches every chain's first
    # mention in O(log M) vectorised steps.
    while True:
        jumped = root[root]
        if numpy.array_equal(jumped, root):
            break
        root = jumped
    order = numpy.argsort(root, kind="stable")  # [M]
    boundaries = numpy.flatnonzero(numpy.diff(root[order])) + 1
    spans = numpy.asarray(scores.candidates)[numpy.asarray(scores.kept)]  # [M, 2]
    clusters = []
    for members in numpy.split(order, boundaries):
        if len(members) >= 2:
            clusters.append([(int(s), int(e)) for s, e in spans[numpy.sort(members)]])
    return sorted(clusters)


def pair_score_tuples(scores: CorefScores) -> List[Tuple[int, int, int, int, float]]:
    """Every scored (mention, antecedent) pair as (m_start, m_end, a_start, a_end, score)."""
    valid = valid_antecedents(scores)  # [M, K]
    spans = numpy.asarray(scores.candidates)[numpy.asarray(scores.kept)]  # [M, 2]
    q_idx, k_idx = numpy.nonzero(valid)
    a_idx = numpy.asarray(scores.antecedents)[q_idx, k_idx]
    values = numpy.asarray(scores.scores)[q_idx, k_idx + FIRST_ANTECEDENT_COLUMN]
    return [
        (int(spans[q, 0]), int(spans[q, 1]), int(spans[a, 0]), int(spans[a, 1]), float(v))
        for q, a, v in zip(q_idx, a_idx, values)
    ]


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
