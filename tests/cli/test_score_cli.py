"""`spacy-coref score` on small CoNLL-2012 fixtures and `spacy-coref gap-score` on GAP TSVs."""
import json
from pathlib import Path
from typing import List, Sequence, Tuple

import pytest
from typer.testing import CliRunner

from spacy_coref.cli import app
from spacy_coref.formats.gap import GAP_COLUMNS
from spacy_coref.scoring.metrics import score_documents

runner = CliRunner()
Clusters = Sequence[Sequence[Tuple[int, int]]]


def conll_doc(name: str, n_tokens: int, clusters: Clusters, part: str = "000") -> List[str]:
    """A CoNLL-2012 document (5 tab-separated columns) with the given (start, end) mentions."""
    fields: List[List[str]] = [[] for _ in range(n_tokens)]
    mentions = sorted(
        ((s, e, c) for c, cluster in enumerate(clusters) for s, e in cluster),
        key=lambda m: (m[0], -m[1]),
    )
    for s, e, c in mentions:  # opens, outer first
        if e - s > 1:
            fields[s].append(f"({c}")
    for s, e, c in mentions:
        if e - s == 1:
            fields[s].append(f"({c})")
    for s, e, c in sorted(mentions, key=lambda m: (m[1], -m[0])):  # closes, inner first
        if e - s > 1:
            fields[e - 1].append(f"{c})")
    lines = [f"#begin document ({name}); part {part}"]
    lines += [f"{name}\t0\t{i}\tw{i}\t{'|'.join(f) or '-'}" for i, f in enumerate(fields)]
    return lines + ["#end document"]


def write_conll(path: Path, docs: List[List[str]]) -> Path:
    path.write_text("\n".join(line for doc in docs for line in doc) + "\n", encoding="utf8")
    return path


KEY_1 = [[(0, 1), (2, 4), (6, 7)], [(3, 4), (8, 10)], [(5, 6)]]
RESP_1 = [[(0, 1), (2, 4)], [(3, 4), (8, 10), (6, 7)], [(11, 12)]]
KEY_2 = [[(0, 2), (4, 5)], [(2, 3), (6, 7)]]
RESP_2 = [[(0, 2), (4, 5), (2, 3)]]


@pytest.fixture
def files(tmp_path: Path):
    gold_docs = [conll_doc("d1", 12, KEY_1), conll_doc("d2", 8, KEY_2)]
    pred_docs = [conll_doc("d2", 8, RESP_2), conll_doc("d1", 12, RESP_1)]
    gold = write_conll(tmp_path / "gold.conll", gold_docs)
    pred = write_conll(tmp_path / "pred.conll", pred_docs)
    return gold, pred


def flat(scores):
    """{"muc": {"p": ..}, "conll_f1": ..} -> {"muc_p": .., "conll_f1": ..}, for pytest.approx."""
    result = {}
    for key, value in scores.items():
        if isinstance(value, dict):
            result.update({f"{key}_{k}": v for k, v in value.items()})
        else:
            result[key] = value
    return result


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def assert_one_line_error(result, *texts: str) -> None:
    """Exit status 1, nothing on stdout and one error line on stderr, however long."""
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("\u2718 "), result.stderr
    assert "Traceback" not in result.output
    for text in texts:
        assert text in lines[0]


def test_json_equals_metrics(files):
    result = run("score", *files, "--json")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.strip().splitlines()) == 1
    scores = json.loads(result.stdout)
    expected = score_documents([(KEY_1, RESP_1), (KEY_2, RESP_2)])
    assert list(scores) == ["muc", "b3", "ceafe", "ceafm", "blanc", "lea", "conll_f1", "mentions"]
    assert flat(scores) == pytest.approx(flat(expected))
    assert 0 < scores["conll_f1"] < 100


def test_table_and_singletons(files):
    result = run("score", *files)
    assert result.exit_code == 0, result.output
    assert "MUC" in result.stdout and "CEAF-e" in result.stdout and "CoNLL F1" in result.stdout
    kept = json.loads(run("score", *files, "--json").stdout)
    removed = json.loads(run("score", *files, "--json", "--no-singletons").stdout)
    expected = score_documents([(KEY_1, RESP_1), (KEY_2, RESP_2)], keep_singletons=False)
    assert flat(removed) == pytest.approx(flat(expected))
    assert removed["mentions"] != kept["mentions"]


def test_directories_and_part_numbers(tmp_path):
    (tmp_path / "gold").mkdir()
    (tmp_path / "pred").mkdir()
    write_conll(tmp_path / "gold" / "a.conll", [conll_doc("d1", 12, KEY_1)])
    write_conll(tmp_path / "gold" / "b.conll", [conll_doc("d2", 8, KEY_2)])
    pred_docs = [conll_doc("d1", 12, RESP_1, part="0"), conll_doc("d2", 8, RESP_2)]
    write_conll(tmp_path / "pred" / "all.conll", pred_docs)
    result = run("score", tmp_path / "gold", tmp_path / "pred", "--json")
    assert result.exit_code == 0, result.output
    expected = score_documents([(KEY_1, RESP_1), (KEY_2, RESP_2)])
    assert flat(json.loads(result.stdout)) == pytest.approx(flat(expected))


def test_missing_response_document_is_empty_with_warning(tmp_path, files):
    gold, _ = files
    pred = write_conll(tmp_path / "only_d1.conll", [conll_doc("d1", 12, RESP_1)])
    result = run("score", gold, pred, "--json")
    assert result.exit_code == 0, result.output
    assert "CW051" in result.stderr and "(d2) part 0" in " ".join(result.stderr.split())
    expected = score_documents([(KEY_1, RESP_1), (KEY_2, [])])
    assert flat(json.loads(result.stdout)) == pytest.approx(flat(expected))


@pytest.mark.parametrize(
    "pred_docs,code,text",
    [
        ([conll_doc("d1", 12, RESP_1), conll_doc("d3", 2, [])], "CE051", "d3"),
        ([conll_doc("d1", 12, RESP_1), conll_doc("d2", 9, RESP_2)], "CE050", "(d2) part 0 has 8"),
    ],
)
def test_document_errors(tmp_path, files, pred_docs, code, text):
    gold, _ = files
    pred = write_conll(tmp_path / "bad.conll", pred_docs)
    for extra in ([], ["--json"]):
        assert_one_line_error(run("score", gold, pred, *extra), code, text)


def test_repeated_key_mention_warns(tmp_path):
    key = [[(0, 1), (2, 3)], [(2, 3), (4, 5)]]  # (2, 3) in two clusters
    gold = write_conll(tmp_path / "gold.conll", [conll_doc("d1", 6, key)])
    pred = write_conll(tmp_path / "pred.conll", [conll_doc("d1", 6, [[(0, 1), (2, 3), (4, 5)]])])
    result = run("score", gold, pred)
    assert result.exit_code == 0, result.output
    assert "CW050" in result.stdout and "1 in the key" in result.stdout
    scores = json.loads(run("score", gold, pred, "--json").stdout)
    assert scores["muc"]["r"] == pytest.approx(50.0)  # v8.01: see test_metrics.py



def test_any_file_name_with_format_conll(tmp_path, files):
    gold, pred = files
    key = tmp_path / "key.txt"
    resp = tmp_path / "resp.txt"
    key.write_bytes(gold.read_bytes())
    resp.write_bytes(pred.read_bytes())
    assert_one_line_error(run("score", key, resp, "--json"), "CE001", "key.txt")
    result = run("score", key, resp, "--json", "--format", "conll")
    assert result.exit_code == 0, result.output
    expected = json.loads(run("score", gold, pred, "--json").stdout)
    assert json.loads(result.stdout) == expected
    (tmp_path / "gold_dir").mkdir()
    (tmp_path / "gold_dir" / "key.txt").write_bytes(gold.read_bytes())
    result = run("score", tmp_path / "gold_dir", resp, "--json", "--format", "conll")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == expected
    bad = run("score", key, resp, "--format", "txt")
    assert bad.exit_code != 0 and "--format" in bad.output


def test_format_conll_rejects_documents_repeated_across_files(tmp_path, files):
    gold, pred = files
    (tmp_path / "pred_dir").mkdir()
    for name in ("a.txt", "b.txt"):
        (tmp_path / "pred_dir" / name).write_bytes(pred.read_bytes())
    result = run("score", gold, tmp_path / "pred_dir", "--format", "conll")
    assert_one_line_error(result, "CE052")


# Two key clusters share their first span [0:2]; cluster 1's bracket opens first, cluster 0's
# closes first. v8.01 orders clusters by their first bracket, and where a key span sits in two
# clusters MUC and B-cubed count it in the last one: here cluster 0, which the response's
# [3:4] is not in, so MUC finds no correct link (0/2, 0/1). In close order, it would be 1/2, 1/1.
SHARED_KEY = """#begin document (d); part 000
d\t0\t0\tThe\t(1(0
d\t0\t1\tdog\t0)1)
d\t0\t2\tit\t(0)
d\t0\t3\tbarks\t(1)
#end document
"""
SHARED_RESPONSE = """#begin document (d); part 000
d\t0\t0\tThe\t(0
d\t0\t1\tdog\t0)
d\t0\t2\tit\t-
d\t0\t3\tbarks\t(0)
#end document
"""


def test_shared_key_span_scored_in_reference_scorer_cluster_order(tmp_path):
    gold = tmp_path / "gold.conll"
    pred = tmp_path / "pred.conll"
    gold.write_text(SHARED_KEY, encoding="utf8")
    pred.write_text(SHARED_RESPONSE, encoding="utf8")
    result = run("score", gold, pred, "--json")
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)
    # v8.01 (scorer.pl muc / bcub / ceafe) on these two files.
    assert (scores["muc"]["r"], scores["muc"]["p"]) == (0.0, 0.0)
    assert scores["b3"]["r"] == pytest.approx(100 * 1.5 / 4)
    assert scores["b3"]["p"] == pytest.approx(100 * 1.5 / 2)
    assert scores["ceafe"]["r"] == pytest.approx(50.0)
    assert scores["ceafe"]["p"] == pytest.approx(100.0)

GAP_ROWS = [
    ["t-1", "John met Bill. He left.", "He", "15", "John", "0", "TRUE", "Bill", "9", "FALSE", "u"],
    ["t-2", "Ann saw Sue. She ran.", "She", "13", "Ann", "0", "FALSE", "Sue", "8", "TRUE", "u"],
]


def test_gap_score(tmp_path):
    gold = tmp_path / "gold.tsv"
    gold.write_text("\n".join("\t".join(r) for r in [list(GAP_COLUMNS)] + GAP_ROWS) + "\n")
    pred = tmp_path / "pred.tsv"
    pred.write_text("t-1\tTRUE\tFALSE\nt-2\tTRUE\tFALSE\n")
    result = run("gap-score", gold, pred, "--json")
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)
    assert scores["masculine"]["f"] == 100.0 and scores["feminine"]["f"] == 0.0
    assert scores["bias"] is None
    assert scores["overall"]["tp"] == 1 and scores["overall"]["fp"] == 1
    table = run("gap-score", gold, pred)
    assert "Masculine" in table.stdout and "Bias (F/M)" in table.stdout
    pred.write_text("t-1\tTRUE\tFALSE\nt-2\tyes\tFALSE\n")
    for extra in ([], ["--json"]):
        assert_one_line_error(run("gap-score", gold, pred, *extra), f"CE024] {pred}:2:")
