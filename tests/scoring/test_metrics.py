"""Metrics against scorch on generated documents, plus repeats, empty docs and summing.

scorch (PyPI, MIT) reimplements the CoNLL scorer over sets of mentions. Where it disagrees with
the reference scorer v8.01, v8.01 wins (see `test_blanc_where_scorch_disagrees`):
* BLANC when the key has fewer than two mentions (no link of either type): v8.01 prints 0,
  scorch gives 1 for an identical one-mention response (and crashes on an empty response).
* scorch cannot represent repeated mentions (it takes sets); v8.01's handling is checked against
  hand traces of CorScorer.pm in `test_repeated_*`.
* scorch's default `blanc(fast=True)` uses `np.bool`, removed in numpy 2; `fast=False` is used.
* scorch's CEAF raises StatisticsError when key and response share no mention (the similarity
  is -0.0); both scorers' answer there is 0, checked without scorch.
"""
import itertools
import random
import warnings

import pytest

from spacy_coref.scoring import metrics as M
from spacy_coref.scoring.assignment import max_assignment

scores = pytest.importorskip("scorch.scores")

TOL = 1e-9
N_PAIRS = 1000


def random_document(rng: random.Random):
    """A key and a response with missing, spurious, split and merged mentions and clusters."""
    n_tokens = rng.randint(1, 25)
    spans = [(s, e) for s in range(n_tokens) for e in range(s + 1, min(s + 4, n_tokens) + 1)]
    rng.shuffle(spans)
    n_key = rng.randint(0, min(10, len(spans)))
    key_mentions, others = spans[:n_key], spans[n_key:]
    n_clusters = rng.randint(1, max(1, n_key))
    key = [[] for _ in range(n_clusters)]
    for m in key_mentions:
        key[rng.randrange(n_clusters)].append(m)
    key = [c for c in key if c]
    response = [[m for m in c if rng.random() < 0.8] for c in key]  # missing mentions
    for _ in range(rng.randint(0, 2)):  # split clusters
        i = rng.randrange(len(response)) if response else None
        if i is not None and len(response[i]) > 1:
            cut = rng.randint(1, len(response[i]) - 1)
            response.append(response[i][cut:])
            response[i] = response[i][:cut]
    for _ in range(rng.randint(0, 2)):  # merge clusters
        if len(response) > 1:
            i, j = rng.sample(range(len(response)), 2)
            response[i] += response[j]
            del response[j]
    for m in others[: rng.randint(0, 4)]:  # spurious mentions, in old or new clusters
        if response and rng.random() < 0.5:
            response[rng.randrange(len(response))].append(m)
        else:
            response.append([m])
    if rng.random() < 0.1:  # unrelated response
        response = [[m] for m in others[:3]]
    return key, [c for c in response if c]


def theirs(metric, key, response):
    key_sets, response_sets = [set(c) for c in key], [set(c) for c in response]
    if metric == "blanc":
        return scores.blanc(key_sets, response_sets, fast=False)
    fn = {"muc": scores.muc, "b3": scores.b_cubed, "ceafe": scores.ceaf_e}.get(metric)
    return (fn or scores.ceaf_m)(key_sets, response_sets)


def ours(metric, key, response):
    if metric == "blanc":
        return M.blanc(key, response).rpf()
    fn = {"muc": M.muc, "b3": M.b_cubed, "ceafe": M.ceafe, "ceafm": M.ceafm}[metric]
    counts = fn(key, response)
    return counts.recall, counts.precision, counts.f1


def test_equal_to_scorch_on_generated_documents():
    rng = random.Random(13)
    n_blanc = 0
    for _ in range(N_PAIRS):
        key, response = random_document(rng)
        shared = {m for c in key for m in c} & {m for c in response for m in c}
        for metric in ("muc", "b3", "ceafe", "ceafm", "blanc"):
            if metric == "blanc" and (sum(map(len, key)) < 2 or not response):
                continue  # see test_blanc_where_scorch_disagrees
            if metric.startswith("ceaf") and not shared:
                assert ours(metric, key, response) == (0.0, 0.0, 0.0)
                continue
            expected = theirs(metric, key, response)
            assert ours(metric, key, response) == pytest.approx(expected, abs=TOL), (
                metric,
                key,
                response,
            )
            n_blanc += metric == "blanc"
    assert n_blanc > 0.7 * N_PAIRS


def test_blanc_where_scorch_disagrees():
    # v8.01: a key without links (< 2 mentions) gives BLANC 0; scorch says 1 here.
    assert scores.blanc([{"a"}], [{"a"}], fast=False) == (1.0, 1.0, 1.0)
    assert M.blanc([["a"]], [["a"]]).rpf() == (0.0, 0.0, 0.0)
    assert M.blanc([], []).rpf() == (0.0, 0.0, 0.0)
    # An empty response (scorch raises IndexError): no links, so 0.
    assert M.blanc([["a", "b"], ["c"]], []).rpf() == (0.0, 0.0, 0.0)


def test_blanc_closed_form_equals_link_sets():
    rng = random.Random(5)
    for _ in range(300):
        doc = M.identify_mentions(*random_document(rng))
        closed = M._blanc(doc, M._overlaps(doc))
        assert closed == M._blanc_from_links(doc)


def test_max_assignment_brute_force():
    rng = random.Random(3)
    for _ in range(200):
        n_rows, n_cols = rng.randint(1, 5), rng.randint(1, 5)
        weights = {
            (i, j): rng.choice([0.5, 1.0, 2.0, rng.random()])
            for i in range(n_rows)
            for j in range(n_cols)
            if rng.random() < 0.6
        }
        best = 0.0
        for cols in itertools.permutations(range(max(n_rows, n_cols)), n_rows):
            best = max(best, sum(weights.get((i, j), 0.0) for i, j in enumerate(cols)))
        assert max_assignment(weights) == pytest.approx(best, abs=TOL)


def test_max_assignment_equals_scipy_on_dense_matrices():
    optimize = pytest.importorskip("scipy.optimize")
    numpy = pytest.importorskip("numpy")
    rng = numpy.random.default_rng(0)
    for shape in [(30, 40), (40, 30), (25, 25)]:
        matrix = rng.random(shape) * (rng.random(shape) < 0.3)
        rows, cols = optimize.linear_sum_assignment(-matrix)
        weights = {(i, j): matrix[i, j] for i, j in zip(*numpy.nonzero(matrix))}
        assert max_assignment(weights) == pytest.approx(matrix[rows, cols].sum(), abs=TOL)


def test_repeated_key_mention_follows_v801():
    """Hand trace of CorScorer.pm: b is in both key clusters, so it keeps one id held by both
    key chains; MUC and B-cubed attribute it to the last chain."""
    key, response = [["a", "b"], ["b", "c"]], [["a", "b", "c"]]
    assert ours("muc", key, response) == pytest.approx((1 / 2, 1 / 2, 1 / 2))
    assert ours("b3", key, response) == pytest.approx((3 / 4, 2 / 3, 2 * 0.5 / (3 / 4 + 2 / 3)))
    assert ours("ceafe", key, response) == pytest.approx((0.4, 0.8, 2 * 0.32 / 1.2))
    assert ours("ceafm", key, response) == pytest.approx((0.5, 2 / 3, 2 * (1 / 3) / (7 / 6)))
    assert ours("blanc", key, response) == pytest.approx((0.5, 1 / 3, 0.4))
    counts = M.lea(key, response)  # LEA counts each mention once (first occurrence)
    assert (counts.recall, counts.precision) == pytest.approx((2 / 3, 1 / 3))
    assert M.mention_counts(key, response) == M.Counts(3, 3, 3, 3)
    assert M.identify_mentions(key, response).n_repeated_key == 1


def test_repeated_response_mentions_follow_v801():
    """A gold span repeated in the response keeps its first occurrence; a spurious span
    repeated in the response is kept twice (v8.01 only removes key-matched repeats)."""
    key, response = [["a", "b"]], [["a", "b"], ["b", "x"], ["x"]]
    doc = M.identify_mentions(key, response)
    assert doc.n_repeated_response == 2
    assert doc.response == [[0, 1], [2], [2]]
    assert M.mention_counts(key, response) == M.Counts(2, 2, 2, 3)
    assert ours("muc", key, response) == pytest.approx((1.0, 1.0, 1.0))
    assert ours("b3", key, response) == pytest.approx((1.0, 0.5, 2 / 3))
    assert ours("ceafe", key, response) == pytest.approx((1.0, 1 / 3, 0.5))
    assert ours("ceafm", key, response) == pytest.approx((1.0, 0.5, 2 / 3))
    assert ours("blanc", key, response) == pytest.approx((1.0, 1.0, 1.0))
    counts = M.lea(key, response)
    assert (counts.recall, counts.precision) == pytest.approx((1.0, 2 / 3))


def test_evaluator_warns_once_about_repeats():
    evaluator = M.CorefEvaluator()
    evaluator.add([["a", "b"]], [["a", "b", "a"]])
    evaluator.add([["a", "b"], ["b"]], [["a", "b"]])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluator.scores()
    assert [str(w.message)[:7] for w in caught] == ["[CW050]"]
    assert "1 in the key" in str(caught[0].message)


def test_empty_documents_score_zero():
    result = M.score_documents([([], []), ([], [])])
    assert set(result) == {"muc", "b3", "ceafe", "ceafm", "blanc", "lea", "conll_f1", "mentions"}
    assert all(v == {"p": 0.0, "r": 0.0, "f": 0.0} for k, v in result.items() if k != "conll_f1")
    assert result["conll_f1"] == 0.0
    # An empty response: recall and precision 0, nothing divides by zero.
    result = M.score_documents([([["a", "b"], ["c"]], [])])
    assert result["mentions"] == {"p": 0.0, "r": 0.0, "f": 0.0}
    assert result["b3"]["f"] == 0.0


def test_singletons():
    key, response = [["a"], ["b", "c"]], [["a"], ["b", "c"], ["d"]]
    kept = M.score_documents([(key, response)], keep_singletons=True)
    assert kept["mentions"] == pytest.approx({"p": 75.0, "r": 100.0, "f": 2 * 75 / 1.75})
    assert kept["b3"]["p"] == pytest.approx(75.0)
    assert kept["muc"]["f"] == 100.0
    removed = M.score_documents([(key, response)], keep_singletons=False)
    assert all(removed[k]["f"] == pytest.approx(100.0) for k in M.METRICS)
    # One singleton each: v8.01's MUC and BLANC are 0 (no links); the others are perfect.
    single = M.score_documents([([["a"]], [["a"]])])
    assert single["muc"]["f"] == 0.0 and single["blanc"]["f"] == 0.0
    assert single["b3"]["f"] == single["ceafe"]["f"] == single["lea"]["f"] == 100.0
    assert single["conll_f1"] == pytest.approx(200 / 3)


def test_documents_are_micro_averaged():
    docs = [
        ([["a", "b", "c", "d"]], [["a", "b"], ["c", "d"]]),  # MUC 2/3 recall, 2/2 precision
        ([["a", "b"]], [["a"], ["b"]]),  # MUC 0/1 recall, 0/0 precision
    ]
    evaluator = M.CorefEvaluator()
    for key, response in docs:
        evaluator.add(key, response)
    assert evaluator.counts["muc"] == M.Counts(2, 4, 2, 2)
    result = evaluator.scores()
    assert result["muc"]["r"] == pytest.approx(50.0)
    assert result["muc"]["p"] == pytest.approx(100.0)
    assert result["conll_f1"] == pytest.approx(
        (result["muc"]["f"] + result["b3"]["f"] + result["ceafe"]["f"]) / 3
    )
    # Summing documents equals scoring them as one document with disjoint mentions.
    merged_key = [[(0, m) for m in c] for c in docs[0][0]] + [[(1, m) for m in docs[1][0][0]]]
    merged_response = [[(0, m) for m in c] for c in docs[0][1]] + [
        [(1, m) for m in c] for c in docs[1][1]
    ]
    merged = M.score_documents([(merged_key, merged_response)])
    for name in ("muc", "b3", "ceafe", "ceafm", "lea", "mentions"):
        assert merged[name] == pytest.approx(result[name])


def test_any_hashable_mentions_and_order():
    key = [[("x", 1), ("y", 2)], [("z", 3)]]
    response = [[("z", 3)], [("y", 2), ("x", 1)]]
    result = M.score_documents([(key, response)])
    assert all(result[k]["f"] == pytest.approx(100.0) for k in ("b3", "ceafe", "ceafm", "lea"))
