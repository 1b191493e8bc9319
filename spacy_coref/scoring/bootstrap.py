"""Paired bootstrap over documents: how sure is a difference between two decodings of one set?

Two decodings A and B of the same documents give, per document, the numerators and
denominators of each metric (`Counts`, `GapCounts`). A corpus score is computed from summed
counts (the micro average, as the reference scorer does), never as a mean of per-document
scores, so one resample draws `n_docs` documents with replacement and sums their counts, a
document drawn twice counted twice. A and B are resampled with the same indices (paired), so
the documents' own difficulty cancels out of the difference B - A. The interval is the
percentile interval of the resampled differences (Efron & Tibshirani, 1993, ch. 13), and
`p_b_better` the share of resamples where B scores above A (`p_b_worse`: below; ties count for
neither).

Counts are arrays of shape [n_docs, k]: for CoNLL, the four counts (r_num, r_den, p_num, p_den)
of MUC, B-cubed and CEAF-e in that order (`conll_counts_array`); for GAP, each example's
TP, FP and FN over its two decisions (`gap_counts_array`; an example is resampled as a unit);
for pronoun problems, each problem's (right, 1) (`accuracy_counts_array`).
"""
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, Mapping, Sequence, Tuple

import numpy

from ..errors import Errors
from .gap import GapCounts
from .metrics import Counts

# The metrics of CoNLL F1, in the column order of `conll_counts_array`.
CONLL_METRICS = ("muc", "b3", "ceafe")
COUNT_FIELDS = ("r_num", "r_den", "p_num", "p_den")
GAP_FIELDS = ("tp", "fp", "fn")
ACCURACY_FIELDS = ("right", "total")
Statistic = Callable[[numpy.ndarray], Dict[str, numpy.ndarray]]


@dataclass(frozen=True)
class PairedDifference:
    """One metric of two paired decodings: the scores, B - A and its bootstrap interval."""

    metric: str
    a: float  # the score of A on all documents (percent)
    b: float  # the score of B on all documents (percent)
    difference: float  # b - a
    low: float  # the interval of the difference
    high: float
    p_b_better: float  # share of resamples with B above A
    p_b_worse: float  # share with B below A (the rest are ties)
    confidence: float
    n_resamples: int

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


def conll_counts_array(doc_counts: Sequence[Mapping[str, Counts]]) -> numpy.ndarray:
    """Per-document counts of MUC, B-cubed and CEAF-e as one array.

    doc_counts (Sequence[Mapping[str, Counts]]): per document, `Counts` by metric name, e.g.
        what `CorefEvaluator.add` returns.
    RETURNS (numpy.ndarray): [n_docs, 12] float64: r_num, r_den, p_num, p_den of each metric
        of CONLL_METRICS in turn.
    """
    rows = [
        [getattr(counts[m], f) for m in CONLL_METRICS for f in COUNT_FIELDS]
        for counts in doc_counts
    ]
    return numpy.asarray(rows, dtype="float64").reshape((-1, 4 * len(CONLL_METRICS)))


def gap_counts_array(example_counts: Sequence[GapCounts]) -> numpy.ndarray:
    """Per-example GAP counts as one array.

    example_counts (Sequence[GapCounts]): one `GapCounts` per GAP example (its two decisions).
    RETURNS (numpy.ndarray): [n_examples, 3] float64: TP, FP, FN.
    """
    rows = [[getattr(counts, f) for f in GAP_FIELDS] for counts in example_counts]
    return numpy.asarray(rows, dtype="float64").reshape((-1, len(GAP_FIELDS)))


def accuracy_counts_array(outcomes: Sequence[bool]) -> numpy.ndarray:
    """Per-problem counts of the accuracy as one array.

    outcomes (Sequence[bool]): whether each problem was answered rightly.
    RETURNS (numpy.ndarray): [n_problems, 2] float64: right (0 or 1), total (1).
    """
    rows = [[float(right), 1.0] for right in outcomes]
    return numpy.asarray(rows, dtype="float64").reshape((-1, len(ACCURACY_FIELDS)))


def _ratio(num: numpy.ndarray, den: numpy.ndarray) -> numpy.ndarray:
    """num / den, 0 where den is 0 (as `Counts.recall` does)."""
    return numpy.divide(num, den, out=numpy.zeros_like(num), where=den != 0)


def _f1(precision: numpy.ndarray, recall: numpy.ndarray) -> numpy.ndarray:
    total = precision + recall
    return _ratio(2 * precision * recall, total)


def conll_f1s(summed: numpy.ndarray) -> Dict[str, numpy.ndarray]:
    """F1 in percent of MUC, B-cubed, CEAF-e and CoNLL F1 (their mean) from summed counts.

    summed (numpy.ndarray): [..., 12] counts summed over documents (`conll_counts_array`).
    RETURNS (Dict[str, numpy.ndarray]): "muc", "b3", "ceafe", "conll_f1", each of shape [...].
    """
    summed = _checked_columns(summed, 4 * len(CONLL_METRICS), "CoNLL")
    result: Dict[str, Any] = {}
    for i, metric in enumerate(CONLL_METRICS):
        r_num, r_den, p_num, p_den = (summed[..., 4 * i + j] for j in range(4))
        result[metric] = 100 * _f1(_ratio(p_num, p_den), _ratio(r_num, r_den))
    result["conll_f1"] = sum(result[m] for m in CONLL_METRICS) / len(CONLL_METRICS)
    return result


def gap_f1s(summed: numpy.ndarray) -> Dict[str, numpy.ndarray]:
    """GAP F1 in percent from summed counts, as `GapCounts.scores` computes it.

    summed (numpy.ndarray): [..., 3] TP, FP, FN summed over examples (`gap_counts_array`).
    RETURNS (Dict[str, numpy.ndarray]): "gap_f1", of shape [...].
    """
    summed = _checked_columns(summed, len(GAP_FIELDS), "GAP")
    tp, fp, fn = (summed[..., j] for j in range(len(GAP_FIELDS)))
    return {"gap_f1": 100 * _f1(_ratio(tp, tp + fp), _ratio(tp, tp + fn))}


def accuracies(summed: numpy.ndarray) -> Dict[str, numpy.ndarray]:
    """Accuracy in percent from summed counts.

    summed (numpy.ndarray): [..., 2] right and total summed over problems
        (`accuracy_counts_array`).
    RETURNS (Dict[str, numpy.ndarray]): "accuracy", of shape [...].
    """
    summed = _checked_columns(summed, len(ACCURACY_FIELDS), "accuracy")
    return {"accuracy": 100 * _ratio(summed[..., 0], summed[..., 1])}


def resample_indices(n_docs: int, *, n_resamples: int = 1000, seed: int = 0) -> numpy.ndarray:
    """Documents drawn with replacement, `n_docs` per resample, from a seeded generator.

    n_docs (int): the number of documents.
    n_resamples (int): the number of resamples.
    seed (int): the seed of numpy's default generator (the same seed, the same draws).
    RETURNS (numpy.ndarray): [n_resamples, n_docs] int64 document indices.
    """
    if n_docs < 1:
        raise ValueError(Errors.CE421.format(what="document"))
    if n_resamples < 1:
        raise ValueError(Errors.CE422.format(value=n_resamples))
    rng = numpy.random.default_rng(seed)
    return rng.integers(0, n_docs, size=(n_resamples, n_docs), dtype="int64")


def resampled_sums(counts: numpy.ndarray, indices: numpy.ndarray) -> numpy.ndarray:
    """Each resample's summed counts: a document counted as often as it was drawn.

    counts (numpy.ndarray): [n_docs, k] per-document counts.
    indices (numpy.ndarray): [n_resamples, n_docs'] drawn document indices.
    RETURNS (numpy.ndarray): [n_resamples, k] summed counts.
    """
    n_resamples, n_drawn = indices.shape
    n_docs = counts.shape[0]
    # times each document is drawn in each resample, then one product for all resamples
    rows = numpy.repeat(numpy.arange(n_resamples), n_drawn)  # [n_resamples * n_drawn]
    flat = rows * n_docs + indices.reshape(-1)  # [n_resamples * n_drawn]
    draws = numpy.bincount(flat, minlength=n_resamples * n_docs)  # [n_resamples * n_docs]
    return draws.reshape((n_resamples, n_docs)).astype("float64") @ counts  # [n_resamples, k]


def paired_bootstrap(
    counts_a: numpy.ndarray,
    counts_b: numpy.ndarray,
    statistic: Statistic,
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> Dict[str, PairedDifference]:
    """The difference B - A of each metric of `statistic`, with its paired bootstrap interval.

    counts_a (numpy.ndarray): [n_docs, k] per-document counts of decoding A.
    counts_b (numpy.ndarray): [n_docs, k] those of decoding B, same documents, same order.
    statistic (Callable): summed counts [..., k] -> {metric: scores [...]}, e.g. `conll_f1s`.
    n_resamples (int): resamples of the documents.
    seed (int): the seed of the draws.
    confidence (float): the interval's coverage, between 0 and 1.
    RETURNS (Dict[str, PairedDifference]): by metric, in the statistic's order.
    """
    counts_a, counts_b = _checked_pair(counts_a, counts_b)
    if not 0 < confidence < 1:
        raise ValueError(Errors.CE423.format(value=confidence))
    indices = resample_indices(len(counts_a), n_resamples=n_resamples, seed=seed)
    observed_a = statistic(counts_a.sum(axis=0))
    observed_b = statistic(counts_b.sum(axis=0))
    resampled_a = statistic(resampled_sums(counts_a, indices))  # {metric: [n_resamples]}
    resampled_b = statistic(resampled_sums(counts_b, indices))
    tail = 100 * (1 - confidence) / 2
    result: Dict[str, Any] = {}
    for metric, a in observed_a.items():
        diffs = resampled_b[metric] - resampled_a[metric]  # [n_resamples]
        low, high = numpy.percentile(diffs, [tail, 100 - tail])
        result[metric] = PairedDifference(
            metric=metric,
            a=float(a),
            b=float(observed_b[metric]),
            difference=float(observed_b[metric] - a),
            low=float(low),
            high=float(high),
            p_b_better=float(numpy.mean(diffs > 0)),
            p_b_worse=float(numpy.mean(diffs < 0)),
            confidence=confidence,
            n_resamples=n_resamples,
        )
    return result


def bootstrap_conll(
    counts_a: numpy.ndarray, counts_b: numpy.ndarray, **options: Any
) -> Dict[str, PairedDifference]:
    """`paired_bootstrap` of MUC, B-cubed, CEAF-e and CoNLL F1 (`conll_counts_array` counts).
    Options as for `paired_bootstrap`."""
    a, b = _checked_pair(counts_a, counts_b)
    _checked_columns(a, 4 * len(CONLL_METRICS), "CoNLL")
    return paired_bootstrap(a, b, conll_f1s, **options)


def bootstrap_gap(
    counts_a: numpy.ndarray, counts_b: numpy.ndarray, **options: Any
) -> Dict[str, PairedDifference]:
    """`paired_bootstrap` of GAP F1 over examples (`gap_counts_array` counts). Options as for
    `paired_bootstrap`."""
    a, b = _checked_pair(counts_a, counts_b)
    _checked_columns(a, len(GAP_FIELDS), "GAP")
    return paired_bootstrap(a, b, gap_f1s, **options)


def bootstrap_accuracy(
    counts_a: numpy.ndarray, counts_b: numpy.ndarray, **options: Any
) -> Dict[str, PairedDifference]:
    """`paired_bootstrap` of the accuracy on pronoun problems, each problem resampled as a unit
    (`accuracy_counts_array` counts). Options as for `paired_bootstrap`."""
    a, b = _checked_pair(counts_a, counts_b)
    _checked_columns(a, len(ACCURACY_FIELDS), "accuracy")
    return paired_bootstrap(a, b, accuracies, **options)


def _checked_pair(a: numpy.ndarray, b: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Both decodings' counts as float64 [n_docs, k], the same n_docs and k, n_docs > 0."""
    a = numpy.asarray(a, dtype="float64")
    b = numpy.asarray(b, dtype="float64")
    n_a, n_b = (len(c) if c.ndim else None for c in (a, b))
    if n_a is not None and n_b is not None and n_a != n_b:
        raise ValueError(Errors.CE420.format(n_a=n_a, n_b=n_b))
    if n_a == 0 and n_b == 0:
        raise ValueError(Errors.CE421.format(what="document"))
    for name, counts in (("decoding A's", a), ("decoding B's", b)):
        if counts.ndim != 2:
            raise ValueError(Errors.CE424.format(what=name, k="k", shape=counts.shape))
    if a.shape[1] != b.shape[1]:
        raise ValueError(Errors.CE424.format(what="decoding B's", k=a.shape[1], shape=b.shape))
    return a, b


def _checked_columns(summed: numpy.ndarray, k: int, what: str) -> numpy.ndarray:
    summed = numpy.asarray(summed, dtype="float64")
    if summed.ndim < 1 or summed.shape[-1] != k:
        raise ValueError(Errors.CE424.format(what=what, k=k, shape=summed.shape))
    return summed
