"""The reference scorer's own test cases, with its expected numbers as oracles.

Source: github.com/conll/reference-coreference-scorers v8.01, `test/CorefMetricTestConfig.pm`
(expected R, P, F) and `test/TestCases.README` (the key and response of each case, written with
letters for mentions). Exact fractions follow the README and scorch's `conll.json` adaptation of
the same config; the config's 5-decimal values are checked to 1e-5. LEA is not in v8.01: its
expected values come from the same cases in coval's `tests/TestCases.README` (Moosavi & Strube).

Where the README writes "B" for a span overlapping b (TC-A-5, TC-A-6) it is a distinct mention;
where it writes B for a duplicate of b (TC-A-7 to TC-A-9) the same mention "b" is repeated.
"""
from fractions import Fraction as Fr

import pytest

from spacy_coref.scoring.metrics import b_cubed, blanc, ceafe, ceafm, lea, muc

TOL = 1e-9


def f1(r, p):
    return 2 * r * p / (r + p) if r + p else 0


def rp(r, p):
    """Expected (R, P, F) where F is the harmonic mean."""
    return (float(r), float(p), float(f1(Fr(r), Fr(p))))


A_KEY = [["a"], ["b", "c"], ["d", "e", "f"]]
A4_LIKE = {
    "muc": rp(Fr(1, 3), Fr(1, 3)),
    "bcub": rp(Fr(10, 3) / 6, (1 + Fr(4, 3) + Fr(1, 2)) / 7),
    "ceafm": rp(Fr(4, 6), Fr(4, 7)),
    "ceafe": rp((1 + Fr(4, 5) + Fr(2, 5)) / 3, (1 + Fr(4, 5) + Fr(2, 5)) / 4),
    "blanc": (
        (1 / 4 + 5 / 11) / 2,
        (1 / 4 + 5 / 17) / 2,
        (1 / 4 + 2 * (5 / 11) * (5 / 17) / (5 / 11 + 5 / 17)) / 2,
    ),
    "lea": rp(Fr(1 + 2 + 0, 6), Fr(1 + 1, 7)),
}
M_KEY = [["a", "b", "c", "d", "e", "f"]]
N_KEY = [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]
SINGLE_ABC_XYZ = [["a"], ["b"], ["c"], ["x"], ["y"], ["z"]]
ZERO = (0.0, 0.0, 0.0)
ONE = (1.0, 1.0, 1.0)
D_KEY = [[1, 2, 3, 4, 5], [6, 7], [8, 9, 10, 11, 12]]

# fmt: off
CASES = {
    "A1": (A_KEY, A_KEY, {m: ONE for m in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")}),
    "A2": (A_KEY, [["a"], ["d", "e"]], {
        "muc": rp(Fr(1, 3), 1), "bcub": rp(Fr(7, 18), 1), "ceafm": rp(Fr(1, 2), 1),
        "ceafe": rp(Fr(3, 5), Fr(9, 10)),
        "blanc": ((1 / 4 + 2 / 11) / 2, 1.0, 1 / 5 + 2 / 13),
        "lea": rp((1 + 3 * Fr(1, 3)) / 6, 1)}),
    "A3": (A_KEY, [["a"], ["b", "c", "x"], ["d", "e", "f", "y"], ["z"]], {
        "muc": rp(1, Fr(3, 5)), "bcub": rp(1, (4 + Fr(7, 12)) / 9), "ceafm": rp(1, Fr(2, 3)),
        "ceafe": rp((1 + Fr(4, 5) + Fr(6, 7)) / 3, (1 + Fr(4, 5) + Fr(6, 7)) / 4),
        "blanc": (1.0, (4 / 9 + 11 / 27) / 2, 4 / 13 + 11 / 38),
        "lea": rp(1, (1 + 3 * Fr(1, 3) + 4 * Fr(3, 6)) / 9)}),
    "A4": (A_KEY, [["a"], ["b", "c", "x"], ["d", "y"], ["z"]], A4_LIKE),
    "A5": (A_KEY, [["a"], ["b", "c", "x", "B"], ["d", "y"], ["z"]], {
        "muc": rp(Fr(1, 3), Fr(1, 4)), "bcub": rp(Fr(10, 3) / 6, Fr(5, 2) / 8),
        "ceafm": rp(Fr(2, 3), Fr(1, 2)),
        "ceafe": rp((1 + Fr(4, 6) + Fr(2, 5)) / 3, (1 + Fr(4, 6) + Fr(2, 5)) / 4),
        "blanc": ((1 / 4 + 5 / 11) / 2, (1 / 7 + 5 / 21) / 2,
                  (1 / 4) * (1 / 7) / (1 / 4 + 1 / 7) + (5 / 11) * (5 / 21) / (5 / 11 + 5 / 21)),
        "lea": rp(Fr(3, 6), (1 + 4 * Fr(1, 6)) / 8)}),
    "A6": (A_KEY, [["a"], ["b", "c", "x"], ["d", "y"], ["B", "z"]], {
        "muc": rp(Fr(1, 3), Fr(1, 4)), "bcub": rp(Fr(10, 3) / 6, (1 + Fr(4, 3) + Fr(1, 2)) / 8),
        "ceafm": rp(Fr(4, 6), Fr(1, 2)),
        "ceafe": rp((1 + Fr(4, 5) + Fr(2, 5)) / 3, (1 + Fr(4, 5) + Fr(2, 5)) / 4),
        "blanc": ((1 / 4 + 5 / 11) / 2, (1 / 5 + 5 / 23) / 2,
                  (1 / 4) * (1 / 5) / (1 / 4 + 1 / 5) + (5 / 11) * (5 / 23) / (5 / 11 + 5 / 23)),
        "lea": rp(Fr(3, 6), Fr(2, 8))}),
    # Repeated response mentions: v8.01 keeps the first occurrence, so these score as TC-A-4.
    "A7": (A_KEY, [["a"], ["b", "c", "x", "b"], ["d", "y"], ["z"]], A4_LIKE),
    "A8": (A_KEY, [["a"], ["b", "c", "x"], ["d", "y"], ["b", "z"]], A4_LIKE),
    "A9": (A_KEY, [["a"], ["b", "c", "x"], ["d", "y"], ["b"] * 10 + ["z"]], A4_LIKE),
    "A10": (A_KEY, [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]], {
        "muc": ZERO, "bcub": rp(Fr(3, 6), 1), "blanc": (0.5, 11 / 30, 11 / 26),
        "lea": rp(Fr(1, 6), Fr(1, 6))}),
    "A11": (A_KEY, [["a", "b", "c", "d", "e", "f"]], {
        "muc": rp(1, Fr(3, 5)), "bcub": rp(1, (Fr(1, 6) + 2 * Fr(2, 6) + 3 * Fr(3, 6)) / 6),
        "blanc": (0.5, 4 / 30, 4 / 19), "lea": rp(Fr(5, 6), Fr(4, 15))}),
    "A12": (A_KEY, [["a"], ["x"], ["y"], ["c"], ["d"], ["e"], ["z"]], {
        "muc": ZERO, "bcub": rp(Fr(13, 36), Fr(4, 7)),
        "blanc": (5 / 22, 5 / 42, 2 * (5 / 22) * (5 / 42) / (5 / 22 + 5 / 42)),
        "lea": rp(Fr(1, 6), Fr(1, 7))}),
    "A13": (A_KEY, [["a", "x", "y", "c", "d", "e", "z"]], {
        "muc": rp(Fr(1, 3), Fr(1, 6)),
        "bcub": rp((1 + Fr(1, 2) + 2 * Fr(2, 3)) / 6, (Fr(1, 7) + Fr(1, 7) + 2 * Fr(2, 7)) / 7),
        "blanc": (1 / 8, 1 / 42, 0.04), "lea": rp(Fr(1, 6), Fr(1, 21))}),
    "B1": ([["a", "b"], ["c", "d", "e"]], [["b", "c", "x"], ["d", "e"]], {
        "blanc": (7 / 24, 7 / 24, 7 / 24), "lea": rp(Fr(1, 5), Fr(2, 5))}),
    "C1": ([["a", "b"], ["c", "d", "e"], ["f", "g"]], [["b", "c", "x"], ["d", "e"], ["f", "g"]], {
        "blanc": ((2 / 5 + 10 / 16) / 2,) * 3, "lea": rp(Fr(3, 7), Fr(4, 7))}),
    "D1": (D_KEY, [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11, 12]], {
        "muc": rp(1, Fr(9, 10)), "bcub": rp(1, Fr(16, 21)),
        "lea": rp(1, (5 + 7 * Fr(11, 21)) / 12)}),
    "E1": (D_KEY, [[1, 2, 3, 4, 5, 8, 9, 10, 11, 12], [6, 7]], {
        "muc": rp(1, Fr(9, 10)), "bcub": rp(1, Fr(7, 12)),
        "lea": rp(1, (10 * Fr(20, 45) + 2) / 12)}),
    "F1": ([["A", "B", "C", "D"]], [["A", "B"], ["C", "D"]], {
        "muc": rp(Fr(2, 3), 1), "lea": rp(Fr(2, 6), 1)}),
    "G1": ([["A", "B"], ["C", "D"]], [["A", "B", "C", "D"]], {
        "muc": rp(1, Fr(2, 3)), "lea": rp(1, Fr(2, 6))}),
    "H1": ([["A", "B", "C", "D"]], [["A", "B", "C", "D"]], {"muc": ONE, "lea": ONE}),
    # I1 is F1 with other MUC links drawn in the README: the same partitions.
    "I1": ([["A", "B", "C", "D"]], [["A", "B"], ["C", "D"]], {
        "muc": rp(Fr(2, 3), 1), "lea": rp(Fr(2, 6), 1)}),
    "J1": ([["A", "B", "C"]], [["A", "C"]], {"muc": rp(Fr(1, 2), 1), "lea": rp(Fr(1, 3), 1)}),
    "K1": ([["B", "C", "D", "E", "G", "H", "J"]],
           [["A", "B", "C"], ["D", "E", "F"], ["G", "H", "I"]], {
        "muc": rp(Fr(3, 6), Fr(3, 6)), "lea": rp(Fr(3, 21), Fr(3, 9))}),
    "L1": ([["A", "B", "C"], ["D", "E", "F", "G"]], [["A", "B"], ["C", "D"], ["F", "G", "H"]], {
        "muc": rp(Fr(2, 5), Fr(2, 4)),
        "lea": rp((3 * Fr(1, 3) + 4 * Fr(1, 6)) / 7, Fr(2 + 0 + 1, 7))}),
    # The key has no non-coreference link: v8.01's BLANC is the coreference-link score alone.
    "M1": (M_KEY, M_KEY, {m: ONE for m in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")}),
    "M2": (M_KEY, N_KEY, {"muc": ZERO, "blanc": ZERO, "lea": ZERO}),
    "M3": (M_KEY, [["a", "b"], ["c", "d", "e"], ["f"]], {
        "blanc": (4 / 15, 1.0, 8 / 19), "lea": rp(Fr(4, 15), Fr(5, 6))}),
    "M4": (M_KEY, [["a", "b", "c", "x", "y", "z"]], {
        "blanc": (0.2, 0.2, 0.2), "lea": rp(Fr(3, 15), Fr(3, 15))}),
    "M5": (M_KEY, SINGLE_ABC_XYZ, {"muc": ZERO, "blanc": ZERO, "lea": ZERO}),
    "M6": (M_KEY, [["a", "b"], ["c", "x", "y"], ["z"]], {
        "blanc": (1 / 15, 1 / 4, 2 * (1 / 15) * (1 / 4) / (1 / 15 + 1 / 4)),
        "lea": rp(Fr(1, 15), Fr(2, 6))}),
    # The key has no coreference link: v8.01's BLANC is the non-coreference-link score alone.
    "N1": (N_KEY, N_KEY, {"muc": ZERO, "bcub": ONE, "ceafm": ONE, "ceafe": ONE, "blanc": ONE,
                          "lea": ONE}),
    "N2": (N_KEY, M_KEY, {"muc": ZERO, "blanc": ZERO, "lea": ZERO}),
    "N3": (N_KEY, [["a", "b"], ["c", "d", "e"], ["f"]], {
        "blanc": (11 / 15, 1.0, 11 / 13), "lea": rp(Fr(1, 6), Fr(1, 6))}),
    "N4": (N_KEY, SINGLE_ABC_XYZ, {"muc": ZERO, "blanc": (0.2, 0.2, 0.2), "lea": (0.5, 0.5, 0.5)}),
    "N5": (N_KEY, [["a", "b", "c", "x", "y", "z"]], {"blanc": ZERO, "lea": ZERO}),
    "N6": (N_KEY, [["a", "b"], ["c", "x", "y"], ["z"]], {
        "blanc": (2 / 15, 2 / 11, 2 * (2 / 15) * (2 / 11) / (2 / 15 + 2 / 11)), "lea": ZERO}),
}
# The config's own (truncated) numbers for the cases above, checked to 1e-5.
CONFIG_5DP = {
    "A2": {"ceafm": (0.5, 1, 0.66667), "ceafe": (0.6, 0.9, 0.72), "blanc": (0.21591, 1, 0.35385)},
    "A3": {"ceafm": (1, 0.66667, 0.8), "ceafe": (0.88571, 0.66429, 0.75918),
           "blanc": (1, 0.42593, 0.59717)},
    "A4": {"ceafm": (0.66667, 0.57143, 0.61538), "ceafe": (0.73333, 0.55, 0.62857),
           "blanc": (0.35227, 0.27206, 0.30357)},
    "A5": {"ceafm": (0.66667, 0.5, 0.57143), "ceafe": (0.68889, 0.51667, 0.59048),
           "blanc": (0.35227, 0.19048, 0.24716)},
    "A6": {"ceafm": (0.66667, 0.5, 0.57143), "ceafe": (0.73333, 0.55, 0.62857),
           "blanc": (0.35227, 0.20870, 0.25817)},
    "A7": {"ceafm": (0.66667, 0.57143, 0.61538), "blanc": (0.35227, 0.27206, 0.30357)},
    "A9": {"ceafm": (0.66667, 0.57143, 0.61538), "ceafe": (0.73333, 0.55, 0.62857)},
    "A10": {"blanc": (0.5, 0.36667, 0.42308)},
    "A11": {"blanc": (0.5, 0.13333, 0.21053)},
    "A12": {"blanc": (0.22727, 0.11905, 0.15625)},
    "A13": {"blanc": (0.125, 0.02381, 0.04)},
    "M3": {"blanc": (0.26667, 1, 0.42105)},
    "M6": {"blanc": (0.06667, 0.25, 0.10526)},
    "N3": {"blanc": (0.73333, 1, 0.84615)},
    "N6": {"blanc": (0.13333, 0.18182, 0.15385)},
}
# fmt: on


def compute(metric, key, response):
    if metric == "blanc":
        return blanc(key, response).rpf()
    fn = {"muc": muc, "bcub": b_cubed, "ceafm": ceafm, "ceafe": ceafe, "lea": lea}[metric]
    counts = fn(key, response)
    return counts.recall, counts.precision, counts.f1


@pytest.mark.parametrize("case", sorted(CASES))
def test_reference_case(case):
    key, response, expected = CASES[case]
    for metric, rpf in expected.items():
        assert compute(metric, key, response) == pytest.approx(rpf, abs=TOL), (case, metric)


@pytest.mark.parametrize("case", sorted(CONFIG_5DP))
def test_reference_config_values(case):
    key, response, _ = CASES[case]
    for metric, rpf in CONFIG_5DP[case].items():
        assert compute(metric, key, response) == pytest.approx(rpf, abs=1e-5), (case, metric)


def test_blanc_v801_not_coval_when_key_lacks_one_link_type():
    """coval halves BLANC for M3/M6/N3/N6 ("the original is wrong as |N_r| != 0"); v8.01 uses
    only the link type the key has, and v8.01 is the reference here."""
    key, response, _ = CASES["M3"]
    assert blanc(key, response).rpf()[0] == pytest.approx(4 / 15)
