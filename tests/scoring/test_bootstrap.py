"""The paired bootstrap over documents: summed counts per resample, paired draws, the interval,
P(B>A), determinism under a seed and the coded errors."""
import time

import numpy
import pytest

from spacy_coref.scoring.bootstrap import (
    CONLL_METRICS,
    accuracies,
    accuracy_counts_array,
    bootstrap_accuracy,
    bootstrap_conll,
    bootstrap_gap,
    conll_counts_array,
    conll_f1s,
    gap_counts_array,
    gap_f1s,
    paired_bootstrap,
    resample_indices,
    resampled_sums,
)
from spacy_coref.scoring.gap import GapCounts, GapEvaluator
from spacy_coref.scoring.metrics import CorefEvaluator, score_documents

# (key, response) clusters of three small documents
DOCS = [
    ([[(0, 1), (2, 3), (5, 6)], [(3, 4), (7, 8)]], [[(0, 1), (2, 3)], [(5, 6), (7, 8)]]),
    ([[(0, 2), (4, 5)]], [[(0, 2), (4, 5)], [(6, 7), (8, 9)]]),
    ([[(1, 2), (3, 4), (6, 7), (9, 10)]], [[(1, 2), (3, 4), (6, 7), (9, 10)]]),
]


def doc_counts(docs):
    evaluator = CorefEvaluator()
    return conll_counts_array([evaluator.add(key, response) for key, response in docs])


def one_metric_counts(rows):
    """CoNLL counts where MUC, B-cubed and CEAF-e all have the counts of `rows`."""
    return numpy.tile(numpy.asarray(rows, dtype="float64"), (1, len(CONLL_METRICS)))


def noisy_pair(n_docs=40, seed=1):
    """Decodings A and B of `n_docs` documents, B better on some and worse on others."""
    rng = numpy.random.default_rng(seed)
    den = rng.integers(5, 60, size=(n_docs, 12)).astype("float64")
    a = den.copy()
    # numerators (even columns) below their denominators (the next column)
    a[:, 0::2] = numpy.floor(den[:, 1::2] * rng.uniform(0.3, 0.9, size=(n_docs, 6)))
    b = a.copy()
    b[:, 0::2] = numpy.clip(a[:, 0::2] + rng.integers(-3, 5, size=(n_docs, 6)), 0, den[:, 1::2])
    return a, b


def test_counts_array_sums_to_the_corpus_score():
    counts = doc_counts(DOCS)
    assert counts.shape == (3, 12)
    expected = score_documents(DOCS)
    f1s = conll_f1s(counts.sum(axis=0))
    for metric in CONLL_METRICS:
        assert f1s[metric] == pytest.approx(expected[metric]["f"])
    assert f1s["conll_f1"] == pytest.approx(expected["conll_f1"])


def test_a_resample_counts_a_document_as_often_as_it_is_drawn():
    # hand-computed: doc 0 (1/2 recall, 1/1 precision) twice and doc 1 (3/4, 3/6) once give
    # recall 5/8 and precision 5/8, so every F1 is 62.5; doc 2 is not drawn
    counts = one_metric_counts([[1, 2, 1, 1], [3, 4, 3, 6], [0, 10, 0, 10]])
    sums = resampled_sums(counts, numpy.asarray([[0, 0, 1]]))
    assert sums.tolist() == [[5, 8, 5, 8] * 3]
    f1s = conll_f1s(sums)
    assert f1s["conll_f1"].tolist() == [pytest.approx(62.5)]
    # the same as scoring a corpus that holds doc 0 twice
    real = doc_counts(DOCS)
    resampled = conll_f1s(resampled_sums(real, numpy.asarray([[0, 0, 1], [2, 1, 2]])))
    twice = score_documents([DOCS[0], DOCS[0], DOCS[1]])
    other = score_documents([DOCS[2], DOCS[1], DOCS[2]])
    assert resampled["conll_f1"].tolist() == [
        pytest.approx(twice["conll_f1"]),
        pytest.approx(other["conll_f1"]),
    ]
    assert resampled["muc"][0] == pytest.approx(twice["muc"]["f"])


def test_resample_indices_are_seeded_draws_with_replacement():
    indices = resample_indices(5, n_resamples=200, seed=3)
    assert indices.shape == (200, 5) and indices.min() >= 0 and indices.max() <= 4
    assert (indices == resample_indices(5, n_resamples=200, seed=3)).all()
    assert not (indices == resample_indices(5, n_resamples=200, seed=4)).all()
    # with replacement: some resample draws a document twice
    assert any(len(set(row)) < 5 for row in indices.tolist())


def test_the_resamples_are_paired_and_the_interval_is_their_percentiles():
    a, b = noisy_pair()
    result = bootstrap_conll(a, b, n_resamples=300, seed=7, confidence=0.9)
    indices = resample_indices(len(a), n_resamples=300, seed=7)
    diffs = (
        conll_f1s(resampled_sums(b, indices))["conll_f1"]
        - conll_f1s(resampled_sums(a, indices))["conll_f1"]
    )
    conll = result["conll_f1"]
    assert conll.low == pytest.approx(numpy.percentile(diffs, 5))
    assert conll.high == pytest.approx(numpy.percentile(diffs, 95))
    assert conll.p_b_better == pytest.approx(numpy.mean(diffs > 0))
    assert conll.p_b_worse == pytest.approx(numpy.mean(diffs < 0))
    assert conll.n_resamples == 300 and conll.confidence == 0.9


def test_the_interval_contains_the_observed_difference():
    a, b = noisy_pair()
    result = bootstrap_conll(a, b)
    assert list(result) == ["muc", "b3", "ceafe", "conll_f1"]
    for metric, d in result.items():
        f1_a, f1_b = (conll_f1s(c.sum(axis=0))[metric] for c in (a, b))
        assert d.a == pytest.approx(f1_a) and d.b == pytest.approx(f1_b)
        assert d.difference == pytest.approx(d.b - d.a)
        assert d.low < d.difference < d.high, metric
        assert 0.0 <= d.p_b_better <= 1.0
    conll = result["conll_f1"]
    assert conll.a == pytest.approx(sum(result[m].a for m in CONLL_METRICS) / 3)


def test_identical_decodings_differ_by_exactly_zero():
    counts = doc_counts(DOCS)
    for d in bootstrap_conll(counts, counts.copy()).values():
        assert d.difference == 0.0 and d.low == 0.0 and d.high == 0.0
        assert d.p_b_better == 0.0 and d.p_b_worse == 0.0  # all ties
        assert d.a == d.b


def test_better_on_every_document_gives_an_interval_above_zero():
    a, _ = noisy_pair()
    b = a.copy()
    # one more correct link or mention on every document, for recall and precision
    b[:, 0::2] = numpy.minimum(a[:, 0::2] + 1, a[:, 1::2])
    assert (b[:, 0::2] > a[:, 0::2]).any(axis=1).all()
    result = bootstrap_conll(a, b)
    for d in result.values():
        assert 0 < d.low <= d.difference <= d.high
        assert d.p_b_better == 1.0
    # and the other way round: B worse everywhere, all below zero
    for d in bootstrap_conll(b, a).values():
        assert d.low <= d.high < 0 and d.p_b_better == 0.0 and d.p_b_worse == 1.0


def test_seeded_results_are_deterministic():
    a, b = noisy_pair()
    first = bootstrap_conll(a, b, n_resamples=200, seed=11)
    assert bootstrap_conll(a, b, n_resamples=200, seed=11) == first
    other = bootstrap_conll(a, b, n_resamples=200, seed=12)["conll_f1"]
    assert (other.low, other.high) != (first["conll_f1"].low, first["conll_f1"].high)
    assert other.difference == first["conll_f1"].difference  # the observed one is no draw


def test_gap_counts_and_bootstrap():
    # (gold, predicted) decisions of four examples, A and B
    examples_a = [
        ((True, False), (True, False)),
        ((False, True), (True, False)),
        ((True, False), (False, False)),
        ((False, False), (False, True)),
    ]
    examples_b = [
        ((True, False), (True, False)),
        ((False, True), (False, True)),
        ((True, False), (True, False)),
        ((False, False), (False, False)),
    ]
    per_example = []
    for examples in (examples_a, examples_b):
        evaluator, counts = GapEvaluator(), []
        for gold, predicted in examples:
            evaluator.add(None, gold, predicted)
            one = GapCounts()
            for g, p in zip(gold, predicted):
                one.add(g, p)
            counts.append(one)
        array = gap_counts_array(counts)
        assert array.shape == (4, 3)
        assert gap_f1s(array.sum(axis=0))["gap_f1"] == pytest.approx(
            evaluator.scores()["overall"]["f"]
        )
        per_example.append(array)
    result = bootstrap_gap(*per_example, n_resamples=500)
    assert list(result) == ["gap_f1"]
    gap = result["gap_f1"]
    assert gap.a == pytest.approx(100 / 3) and gap.b == pytest.approx(100.0)
    assert gap.low <= gap.difference <= gap.high and gap.p_b_better > 0.9
    # an example is resampled as a unit: doc 1 twice is its TP, FP and FN twice
    assert resampled_sums(per_example[0], numpy.asarray([[1, 1]])).tolist() == [[0, 2, 2]]


def test_accuracy_counts_and_bootstrap():
    a = accuracy_counts_array([True, False, False, True])
    b = accuracy_counts_array([True, True, False, True])
    assert a.tolist() == [[1, 1], [0, 1], [0, 1], [1, 1]]
    assert accuracies(a.sum(axis=0))["accuracy"] == pytest.approx(50.0)
    result = bootstrap_accuracy(a, b, n_resamples=500)
    assert list(result) == ["accuracy"]
    accuracy = result["accuracy"]
    assert (accuracy.a, accuracy.b, accuracy.difference) == (50.0, 75.0, 25.0)
    # B is never worse on a problem, so no resample has B below A, and problem 1 decides
    assert accuracy.p_b_worse == 0.0 and accuracy.low >= 0.0
    assert 0.5 < accuracy.p_b_better < 1.0  # resamples without problem 1 tie
    same = bootstrap_accuracy(a, a, n_resamples=50)["accuracy"]
    assert same.difference == same.low == same.high == 0.0
    assert accuracy_counts_array([]).shape == (0, 2)
    with pytest.raises(ValueError, match="CE421"):
        bootstrap_accuracy([], [])
    with pytest.raises(ValueError, match="CE424"):
        bootstrap_accuracy(numpy.ones((3, 3)), numpy.ones((3, 3)))


def test_a_thousand_resamples_of_500_documents_take_well_under_a_second():
    rng = numpy.random.default_rng(0)
    a = rng.integers(0, 50, size=(500, 12)).astype("float64")
    b = a + rng.integers(0, 2, size=(500, 12))
    start = time.perf_counter()
    result = bootstrap_conll(a, b, n_resamples=1000)
    assert time.perf_counter() - start < 2.0  # about 0.05 s alone; slack for a busy machine
    assert result["conll_f1"].n_resamples == 1000


def test_custom_statistic():
    a = numpy.asarray([[1.0], [2.0], [3.0]])

    def total(summed):
        return {"total": summed[..., 0]}

    result = paired_bootstrap(a, a + 1, total, n_resamples=50)
    assert result["total"].difference == 3.0
    assert result["total"].low == result["total"].high == 3.0  # 3 docs, each +1


def test_error_cases():
    counts = doc_counts(DOCS)
    with pytest.raises(ValueError, match="CE420"):
        bootstrap_conll(counts, counts[:2])
    with pytest.raises(ValueError, match="CE421"):
        bootstrap_conll(counts[:0], counts[:0])
    with pytest.raises(ValueError, match="CE421"):
        bootstrap_gap([], [])
    with pytest.raises(ValueError, match="CE421"):
        resample_indices(0)
    for n_resamples in (0, -5):
        with pytest.raises(ValueError, match="CE422"):
            bootstrap_conll(counts, counts, n_resamples=n_resamples)
    for confidence in (0.0, 1.0, 95):
        with pytest.raises(ValueError, match="CE423"):
            bootstrap_conll(counts, counts, confidence=confidence)
    with pytest.raises(ValueError, match="CE424"):
        bootstrap_conll(counts[:, :11], counts[:, :11])  # not CoNLL's 12 columns
    with pytest.raises(ValueError, match="CE424"):
        bootstrap_conll(counts, counts[:, :11])  # A and B of different widths
    with pytest.raises(ValueError, match="CE424"):
        bootstrap_gap(counts[0], counts[0])  # one document's row, not [n_docs, k]
    with pytest.raises(ValueError, match="CE424"):
        gap_f1s(numpy.zeros(4))
