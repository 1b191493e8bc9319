"""GAP metrics (official gap_scorer.py definitions), the clusters -> decisions rule, and the
prediction TSV reader/writer with file:line errors."""
import warnings
from pathlib import Path

import pytest
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from spacy_coref.annotations import GOLD_MENTIONS_KEY, set_clusters
from spacy_coref.errors import DataFormatError
from spacy_coref.formats.gap import GAP_COLUMNS, read_gap
from spacy_coref.scoring.gap import (
    GapDecision,
    GapEvaluator,
    clusters_without_possessive_markers,
    gap_decision,
    gap_decisions,
    read_gap_gold,
    read_gap_predictions,
    score_gap,
    score_gap_files,
    write_gap_predictions,
)

# Token offsets: 0 The 1 lawyer 2 John 3 Smith 4 met 5 Mary 6 Jones 7 . 8 He 9 liked 10 his 11 dog
P, A, B = (10, 11), (2, 4), (5, 7)


@pytest.mark.parametrize(
    "clusters,expected",
    [
        ([], (False, False)),
        ([[A, P]], (True, False)),  # exact match
        ([[B, P]], (False, True)),
        ([[(3, 4), P]], (True, False)),  # "Smith": ends on A's last token
        ([[(0, 4), P]], (True, False)),  # "The lawyer John Smith"
        ([[(2, 3), P]], (False, False)),  # "John": not A's last token
        ([[(2, 7), P]], (False, False)),  # "John Smith met Mary Jones": overlaps B
        ([[A, (10, 12)]], (False, False)),  # "his dog" contains the pronoun: another entity
        ([[A], [P]], (False, False)),  # not in one cluster
        ([[A, (8, 9)], [(8, 9), P]], (False, False)),  # no transitivity across clusters
        ([[A, P], [B, P]], (True, True)),  # pronoun repeated in two clusters: both linked...
    ],
)
def test_gap_decision_rule(clusters, expected):
    if expected == (True, True):  # ...then only the nearer name (B: 3 tokens away) is kept
        expected = (False, True)
    assert gap_decision(clusters, P, A, B) == expected


def test_gap_decision_both_names_linked():
    assert gap_decision([[A, B, P]], P, A, B) == (False, True)  # B is nearer
    assert gap_decision([[A, B, (8, 9), P]], P, A, B) == (False, True)
    # Equal distance: the name before the pronoun wins over the one after it.
    pronoun, before, after = (5, 6), (2, 4), (7, 9)
    assert gap_decision([[before, after, pronoun]], pronoun, before, after) == (True, False)
    assert gap_decision([[before, after, pronoun]], pronoun, after, before) == (False, True)
    # Identical distance and side: A wins.
    assert gap_decision([[(1, 2), (1, 3), (5, 6)]], (5, 6), (0, 2), (1, 3)) == (False, True)
    # Gold clusters are read exactly and may hold both.
    assert gap_decision([[A, B, P]], P, A, B, exact=True) == (True, True)


def test_gap_scores_by_gender_and_bias():
    evaluator = GapEvaluator()
    evaluator.add("masculine", (True, False), (True, False))  # tp, tn
    evaluator.add("masculine", (False, True), (True, False))  # fp, fn
    evaluator.add("feminine", (True, False), (True, True))  # tp, fp
    evaluator.add(None, (False, False), (False, False))  # tn, tn: overall only
    result = evaluator.scores()
    f = 2 * 50 * (200 / 3) / (350 / 3)
    assert result["overall"] == {
        "p": 50.0, "r": pytest.approx(200 / 3), "f": pytest.approx(f),
        "tp": 2, "fp": 2, "tn": 3, "fn": 1,
    }  # fmt: skip
    assert result["masculine"]["f"] == pytest.approx(50.0)
    assert result["feminine"]["f"] == pytest.approx(2 * 50 * 100 / 150)
    assert result["bias"] == pytest.approx((200 / 3) / 50)
    assert GapEvaluator().scores()["bias"] is None


GOLD_ROWS = [
    # ID, Text, Pronoun, Pronoun-offset, A, A-offset, A-coref, B, B-offset, B-coref, URL
    ["t-1", "John met Bill. He left.", "He", "15", "John", "0", "TRUE", "Bill", "9", "FALSE", "u"],
    ["t-2", "Ann saw Sue. She ran.", "She", "13", "Ann", "0", "FALSE", "Sue", "8", "TRUE", "u"],
    ["t-3", "Al met Bo. His dog ran.", "His", "11", "Al", "0", "FALSE", "Bo", "7", "FALSE", "u"],
]  # fmt: skip


@pytest.fixture
def gold_tsv(tmp_path: Path) -> Path:
    path = tmp_path / "gold.tsv"
    lines = ["\t".join(GAP_COLUMNS)] + ["\t".join(row) for row in GOLD_ROWS]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf8")
    return path


def test_score_files_as_official(gold_tsv, tmp_path):
    pred = write(tmp_path / "pred.tsv", "t-1\tTRUE\tFALSE\nt-2\ttrue\ttrue\nt-3\tFalse\tFALSE\n")
    result = score_gap_files(gold_tsv, pred)
    assert (result["overall"]["tp"], result["overall"]["fp"]) == (2, 1)
    assert (result["overall"]["tn"], result["overall"]["fn"]) == (3, 0)
    assert result["masculine"]["f"] == 100.0
    assert result["feminine"]["f"] == pytest.approx(2 * 50 * 100 / 150)
    assert result["bias"] == pytest.approx(2 / 3)


def test_prediction_round_trip_and_header(tmp_path):
    decisions = [GapDecision("x-1", True, False), GapDecision("x-2", False, False)]
    path = tmp_path / "out" / "pred.tsv"
    write_gap_predictions(decisions, path)
    assert path.read_text() == "x-1\tTRUE\tFALSE\nx-2\tFALSE\tFALSE\n"
    read = read_gap_predictions(path)
    assert [(d.gap_id, d.a_coref, d.b_coref) for d in read.values()] == [
        ("x-1", True, False),
        ("x-2", False, False),
    ]
    with_header = write(tmp_path / "h.tsv", "ID\tA-coref\tB-coref\nx-1\tTRUE\tFALSE\n")
    assert list(read_gap_predictions(with_header)) == ["x-1"]


@pytest.mark.parametrize(
    "text,code,line",
    [
        ("t-1\tTRUE\tFALSE\nt-2\tyes\tFALSE\n", "CE024", 2),
        ("t-1\tTRUE\n", "CE055", 1),
        ("t-1\tTRUE\tFALSE\nt-1\tTRUE\tFALSE\n", "CE057", 2),
    ],
)
def test_prediction_errors_name_file_and_line(tmp_path, text, code, line):
    path = write(tmp_path / "pred.tsv", text)
    with pytest.raises(DataFormatError, match=rf"{code}\] {path}:{line}:"):
        read_gap_predictions(path)


def test_missing_prediction_names_gold_line(gold_tsv, tmp_path):
    pred = write(tmp_path / "pred.tsv", "t-1\tTRUE\tFALSE\nt-3\tFALSE\tFALSE\n")
    with pytest.raises(DataFormatError, match=rf"CE056\] {gold_tsv}:3: GAP example t-2"):
        score_gap_files(gold_tsv, pred)


def test_extra_predictions_warn(gold_tsv, tmp_path):
    lines = ["t-1\tTRUE\tFALSE", "t-2\tFALSE\tTRUE", "t-3\tFALSE\tFALSE", "t-9\tTRUE\tFALSE"]
    pred = write(tmp_path / "pred.tsv", "\n".join(lines) + "\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert score_gap_files(gold_tsv, pred)["overall"]["f"] == 100.0
    assert "CW052" in str(caught[0].message) and "t-9" in str(caught[0].message)


@pytest.mark.parametrize(
    "row,code",
    [(["t-1", "x", "It", "0", "A", "0", "TRUE", "B", "0", "FALSE", "u"], "CE058"),
     (["t-1", "x", "He", "0", "A", "0", "maybe", "B", "0", "FALSE", "u"], "CE024"),
     (["t-1", "x", "He"], "CE055")],
)  # fmt: skip
def test_gold_errors(tmp_path, row, code):
    path = write(tmp_path / "g.tsv", "\t".join(GAP_COLUMNS) + "\n" + "\t".join(row) + "\n")
    with pytest.raises(DataFormatError, match=rf"{code}\] {path}:2:"):
        read_gap_gold(path)
    with pytest.raises(DataFormatError, match="CE059"):
        read_gap_gold(write(tmp_path / "h.tsv", "\t".join(row) + "\n"))
    with pytest.raises(DataFormatError, match="CE060"):
        read_gap_gold(write(tmp_path / "e.tsv", "\t".join(GAP_COLUMNS) + "\n"))


def gap_doc(words, roles, gap_id="t-1", clusters=()):
    """A hand-built GAP doc: roles maps PRONOUN/A/B to token offsets."""
    doc = Doc(Vocab(), words=words)
    spans = [Span(doc, start, end, label=role) for role, (start, end) in roles.items()]
    doc.spans[GOLD_MENTIONS_KEY] = spans
    doc.user_data["gap_id"] = gap_id
    set_clusters(doc, clusters)
    return doc


def test_gap_decisions_from_docs():
    words = "Al and Bo met . His dog barked .".split()
    roles = {"PRONOUN": (5, 6), "A": (0, 1), "B": (2, 3)}
    docs = [
        gap_doc(words, roles, "t-1", [[(0, 1), (5, 6)]]),
        gap_doc(words, roles, "t-2", [[(0, 1), (2, 3), (5, 6)]]),  # both: nearer B wins
        gap_doc(words, roles, "t-3", [[(5, 7), (0, 1)]]),  # "His dog" is not the pronoun
    ]
    decisions = gap_decisions(docs)
    assert [(d.gap_id, d.a_coref, d.b_coref) for d in decisions] == [
        ("t-1", True, False),
        ("t-2", False, True),
        ("t-3", False, False),
    ]
    assert [d.gender for d in decisions] == ["masculine"] * 3


def test_a_possessive_mention_is_its_possessor():
    # "Al met Bo 's sister . He left": the model's mention is "Bo 's", GAP's name "Bo"
    words = ["Al", "met", "Bo", "'s", "sister", ".", "He", "left"]
    roles = {"PRONOUN": (6, 7), "A": (0, 1), "B": (2, 3)}
    doc = gap_doc(words, roles, "t-1", [[(2, 4), (6, 7)]])
    decision = gap_decisions([doc])[0]
    assert (decision.a_coref, decision.b_coref) == (False, True)
    # without the cut the mention would end on "'s", past the name: no match
    assert gap_decision([[(2, 4), (6, 7)]], (6, 7), (0, 1), (2, 3)) == (False, False)
    # "Bo 's sister" is another person; a one-token "'s" is left as it is
    assert clusters_without_possessive_markers(doc, [[(2, 5), (3, 4), (6, 7)]]) == [
        [(2, 5), (3, 4), (6, 7)]
    ]


def test_gap_decisions_errors():
    doc = gap_doc(["He", "left"], {"PRONOUN": (0, 1), "A": (1, 2), "B": (1, 2)})
    del doc.user_data["gap_id"]
    with pytest.raises(ValueError, match="CE062"):
        gap_decisions([doc])
    doc.spans[GOLD_MENTIONS_KEY] = [Span(doc, 0, 1, label="PRONOUN")]
    with pytest.raises(ValueError, match=r"CE061.*found \['PRONOUN'\]"):
        gap_decisions([doc])


def test_gap_decisions_on_read_gap_docs(gold_tsv, tmp_path):
    docs = list(read_gap(gold_tsv))
    # Gold clusters give the gold decisions back; predicted clusters use the rule.
    assert [(d.a_coref, d.b_coref) for d in gap_decisions(docs)] == [
        (True, False),
        (False, True),
        (False, False),
    ]
    assert [d.gender for d in gap_decisions(docs)] == ["masculine", "feminine", "masculine"]
    set_clusters(docs[2], [[(0, 1), (2, 3), (4, 5)]])  # "Al", "Bo", "His": both -> nearer Bo
    write_gap_predictions(gap_decisions(docs), tmp_path / "pred.tsv")
    result = score_gap_files(gold_tsv, tmp_path / "pred.tsv")
    assert (result["overall"]["fp"], result["overall"]["tp"]) == (1, 2)


def test_shared_gap_validation_gold_against_itself(shared_data):
    path = shared_data / "gap" / "gap-validation.tsv"
    gold = read_gap_gold(path)
    assert len(gold) == 454
    assert sum(d.gender == "feminine" for d in gold.values()) == 227
    assert sum(d.a_coref for d in gold.values()) == 187
    result = score_gap(gold, gold)
    assert result["overall"]["f"] == 100.0 and result["bias"] == 1.0
    assert result["overall"]["tp"] == 187 + 205
    nothing = {k: GapDecision(k, False, False) for k in gold}
    assert score_gap(gold, nothing)["overall"]["f"] == 0.0
