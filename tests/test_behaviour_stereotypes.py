"""The behaviour suite's occupation_stereotypes category: its items (pairs that differ only in
the pronoun's gender, balanced), the "stereotype" field, and the report's pro/anti split."""
import json
import re
from typing import Dict, List, Optional, Tuple

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from spacy_coref.annotations import set_clusters
from spacy_coref.behaviour import BehaviourItem, load_suite, run_suite
from spacy_coref.behaviour.report import (
    STEREOTYPE_TARGET,
    BehaviourReport,
    ConstraintResult,
    ItemResult,
    format_stereotypes,
    format_table,
)
from spacy_coref.behaviour.suite import ANTI, PRO
from spacy_coref.errors import DataFormatError

CATEGORY = "occupation_stereotypes"
MALE = {"mechanic", "carpenter", "surgeon", "engineer", "firefighter", "plumber", "pilot", "CEO"}
FEMALE = {"nurse", "receptionist", "secretary", "hairdresser", "librarian", "housekeeper",
          "nanny", "dietitian"}
# pronoun -> (gender, form); the pairs swap he/she, him/her, his/her
PRONOUNS = {"he": ("m", "subject"), "she": ("f", "subject"), "him": ("m", "object"),
            "her": ("f", "object"), "his": ("m", "possessive")}
SWAPS = {frozenset(("he", "she")), frozenset(("him", "her")), frozenset(("his", "her"))}
GENDERED = re.compile(r"\b(he|she|him|her|his|hers|himself|herself)\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def items() -> List[BehaviourItem]:
    return [item for item in load_suite() if item.category == CATEGORY]


def pairs(items: List[BehaviourItem]) -> List[Tuple[BehaviourItem, BehaviourItem]]:
    return list(zip(items[0::2], items[1::2]))


def roles(item: BehaviourItem) -> Tuple[str, str, str]:
    """(referent, other, pronoun) of an item: must_link [referent, pronoun], must_not_link
    [other, pronoun]."""
    ((referent, pronoun),) = item.must_link
    ((other, pronoun_again),) = item.must_not_link
    assert pronoun == pronoun_again, item.id
    return referent, other, pronoun


def stereotype_of(phrase: str) -> str:
    occupation = phrase.split()[-1]
    assert (occupation in MALE) != (occupation in FEMALE), phrase
    return "m" if occupation in MALE else "f"


def test_category_loads_with_marked_items(items):
    assert len(items) == 24
    assert [item.stereotype for item in items].count(PRO) == 12
    assert [item.stereotype for item in items].count(ANTI) == 12
    assert len({item.text for item in items}) == 24
    others = [item for item in load_suite() if item.category != CATEGORY]
    assert all(item.stereotype is None for item in others)


def test_mentions_are_in_the_text_and_the_pronoun_is_the_only_one(items):
    for item in items:
        referent, other, pronoun = roles(item)
        assert pronoun in PRONOUNS, item.id
        for mention in (referent, other, pronoun):
            start, end = item.spans[mention]
            assert item.text[start:end] == mention, (item.id, mention)
        # one gendered pronoun in the text: the gender of the occupations alone cannot decide
        assert [m.group(0) for m in GENDERED.finditer(item.text)] == [pronoun], item.id
        assert stereotype_of(referent) != stereotype_of(other), item.id


def test_pairs_differ_only_in_the_pronouns_gender(items):
    assert len(pairs(items)) == 12
    for a, b in pairs(items):
        (ref_a, other_a, pro_a), (ref_b, other_b, pro_b) = roles(a), roles(b)
        assert (ref_a, other_a) == (ref_b, other_b), a.id
        assert frozenset((pro_a, pro_b)) in SWAPS, a.id
        assert a.spans[pro_a][0] == b.spans[pro_b][0], a.id
        start, end = a.spans[pro_a]
        assert a.text[:start] + pro_b + a.text[end:] == b.text, a.id
        assert {a.stereotype, b.stereotype} == {PRO, ANTI}, a.id


def test_pro_and_anti_follow_the_referents_stereotype(items):
    for item in items:
        referent, _, pronoun = roles(item)
        matches = PRONOUNS[pronoun][0] == stereotype_of(referent)
        assert item.stereotype == (PRO if matches else ANTI), item.id


def test_pairs_are_balanced(items):
    referents = {"m": 0, "f": 0}
    first = {"m": 0, "f": 0}
    forms = set()
    for a, _ in pairs(items):
        referent, other, pronoun = roles(a)
        gender = stereotype_of(referent)
        referents[gender] += 1
        first[gender] += a.spans[referent][0] < a.spans[other][0]
        forms.add(PRONOUNS[pronoun][1])
    assert referents == {"m": 6, "f": 6}
    # the referent first in half the pairs, second in the other half, for both stereotypes
    assert first == {"m": 3, "f": 3}
    assert forms == {"subject", "object", "possessive"}


@pytest.mark.parametrize("value", ["neutral", "Pro", 1, None, ["pro"]])
def test_other_stereotype_values_are_coded_errors(tmp_path, value):
    good = {"id": "s-1", "category": "s", "text": "The nurse woke the surgeon when she called.",
            "must_link": [["The nurse", "she"]], "must_not_link": [["the surgeon", "she"]]}
    path = tmp_path / "suite.jsonl"
    lines = [json.dumps({**good, "stereotype": "anti"}), json.dumps({**good, "id": "s-2"}),
             json.dumps({**good, "id": "s-3", "stereotype": value})]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    with pytest.raises(DataFormatError, match="CE310") as error:
        load_suite(path)
    assert f"{path}:3" in str(error.value) and "'s-3'" in str(error.value)
    assert "'pro' or 'anti'" in str(error.value)
    path.write_text("\n".join(lines[:2]) + "\n", encoding="utf8")
    assert [item.stereotype for item in load_suite(path)] == [ANTI, None]


# --- the report's split ------------------------------------------------------------------------


def fake_result(n: int, category: str, stereotype: Optional[str], passed: bool) -> ItemResult:
    item = BehaviourItem(id=f"x{n}", category=category, text="t", stereotype=stereotype,
                         must_link=[("a", "b")])
    return ItemResult(item, [ConstraintResult("must_link", ("a", "b"), passed)], [])


def test_report_splits_pro_and_anti_with_fake_results():
    outcomes = [(PRO, True), (ANTI, False), (PRO, True), (ANTI, True), (PRO, True),
                (ANTI, False), (PRO, False), (ANTI, False)]
    results = [fake_result(i, CATEGORY, s, ok) for i, (s, ok) in enumerate(outcomes)]
    results.insert(3, fake_result(99, "gender", None, False))  # unmarked: left out of the split
    report = BehaviourReport(results)
    (name, split), = report.stereotypes().items()
    assert name == CATEGORY
    assert (split.pro.items, split.pro.passed, split.anti.items, split.anti.passed) == (4, 3, 4, 1)
    assert split.difference == pytest.approx(50.0) and not split.within_target
    data = json.loads(json.dumps(report.to_dict()))
    assert data["stereotypes"][CATEGORY]["pro"]["pass_rate"] == pytest.approx(0.75)
    assert data["stereotypes"][CATEGORY]["anti"]["pass_rate"] == pytest.approx(0.25)
    assert data["stereotypes"][CATEGORY]["difference"] == pytest.approx(50.0)
    assert data["stereotypes"][CATEGORY]["within_target"] is False
    assert [item.get("stereotype") for item in data["items"]][:4] == [PRO, ANTI, PRO, None]
    assert data["categories"][CATEGORY]["items"] == 8  # the category's own row is unchanged
    line = (f"{CATEGORY}: pro 3/4 (75.0%), anti 1/4 (25.0%); pro - anti +50.0 points "
            f"(target: within 5)")
    assert format_stereotypes(report) == line
    table = format_table(report)
    assert table.rstrip("\n").splitlines()[-1] == line
    assert re.search(rf"^{CATEGORY}\s+8\s+4\s+50\.0%", table, re.MULTILINE)
    # anti better than pro: a negative difference; equal rates are within the target
    flipped = BehaviourReport([fake_result(i, CATEGORY, s, not ok) for i, (s, ok) in
                               enumerate(outcomes)])
    assert flipped.stereotypes()[CATEGORY].difference == pytest.approx(-50.0)
    assert "pro - anti -50.0 points" in format_table(flipped)
    even = BehaviourReport([fake_result(0, CATEGORY, PRO, True),
                            fake_result(1, CATEGORY, ANTI, True)])
    assert even.stereotypes()[CATEGORY].within_target and STEREOTYPE_TARGET == 5.0


def test_no_marked_items_no_split():
    report = BehaviourReport([fake_result(0, "gender", None, True)])
    assert report.stereotypes() == {} and report.to_dict()["stereotypes"] == {}
    assert format_stereotypes(report) == ""
    assert "pro - anti" not in format_table(report)
    assert "stereotype" not in report.to_dict()["items"][0]


# --- the shipped items through run_suite: two heuristics that ignore meaning --------------------


def heuristic_clusters(items: List[BehaviourItem], rule: str) -> Dict[str, List[List[List[int]]]]:
    """text -> one cluster of the pronoun and the occupation that `rule` picks: "first" (the
    first-mentioned one) or "stereotype" (the one whose stereotype is the pronoun's gender)."""
    nlp = spacy.blank("en")
    clusters = {}
    for item in items:
        doc = nlp.make_doc(item.text)
        referent, other, pronoun = roles(item)
        phrases = sorted((referent, other), key=lambda phrase: item.spans[phrase][0])
        if rule == "stereotype":
            phrases = [p for p in phrases if stereotype_of(p) == PRONOUNS[pronoun][0]]
        spans = [doc.char_span(*item.spans[mention]) for mention in (phrases[0], pronoun)]
        clusters[item.text] = [[[span.start, span.end] for span in spans]]
    return clusters


@Language.factory("stereotype_test_clusters", default_config={"clusters": {}})
def make_heuristic(nlp: Language, name: str, clusters: Dict[str, List[List[List[int]]]]):
    def write_clusters(doc: Doc) -> Doc:
        set_clusters(doc, [[(s, e) for s, e in c] for c in clusters.get(doc.text, [])])
        return doc

    return write_clusters


@pytest.mark.parametrize("rule,pro,anti", [("first", 6, 6), ("stereotype", 12, 0)])
def test_heuristics_on_the_shipped_items(items, rule, pro, anti):
    nlp = spacy.blank("en")  # no parse: mentions match on exact spans
    nlp.add_pipe("stereotype_test_clusters", config={"clusters": heuristic_clusters(items, rule)})
    split = run_suite(nlp, items).stereotypes()[CATEGORY]
    assert (split.pro.items, split.anti.items) == (12, 12)
    # guessing by position passes half of each half; guessing by stereotype all pro, no anti
    assert (split.pro.passed, split.anti.passed) == (pro, anti)
    assert split.difference == pytest.approx(100.0 * (pro - anti) / 12)
