"""`spacy-coref convert`, `spacy-coref stats` and `spacy-coref make-corpus`, run through the
typer app."""
import json

import pytest
from typer.testing import CliRunner

from spacy_coref.annotations import get_clusters, get_scheme
from spacy_coref.cli import app
from spacy_coref.formats import read_docs
from spacy_coref.util import bare_copy

CONLL = """#begin document (d); part 000
d\t0\t0\tAlice\t(0)
d\t0\t1\tsaw\t-
d\t0\t2\ther\t(1(0)
d\t0\t3\tsister\t1)

d\t0\t0\tShe\t(1)
#end document
"""

runner = CliRunner()


def assert_one_line_error(result, *texts: str) -> None:
    """Exit status 1, nothing on stdout and one error line on stderr, however long."""
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("\u2718 "), result.stderr
    for text in texts:
        assert text in lines[0]


@pytest.fixture
def conll_file(tmp_path):
    path = tmp_path / "in.conll"
    path.write_text(CONLL, encoding="utf8")
    return path


@pytest.mark.parametrize("ext", ["spacy", "jsonl", "conll"])
def test_convert_writes_and_counts(conll_file, tmp_path, ext):
    out = tmp_path / f"out.{ext}"
    result = runner.invoke(app, ["convert", str(conll_file), str(out)])
    assert result.exit_code == 0, result.output
    assert "Wrote 1 docs, 4 mentions and 2 clusters" in result.output
    assert get_clusters(read_docs(out)[0]) == get_clusters(read_docs(conll_file)[0])


def test_convert_directory(conll_file, tmp_path):
    out = tmp_path / "all.spacy"
    result = runner.invoke(app, ["convert", str(tmp_path), str(out)])
    assert result.exit_code == 0, result.output
    assert len(read_docs(out)) == 1


def test_convert_malformed_input_fails_with_one_line(tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text(CONLL.replace("1)\n", "2)\n"), encoding="utf8")
    result = runner.invoke(app, ["convert", str(bad), str(tmp_path / "out.spacy")])
    assert_one_line_error(result, "CE013", f"{bad}:5:")
    assert not (tmp_path / "out.spacy").exists()


def test_convert_unknown_output_format(conll_file, tmp_path):
    result = runner.invoke(app, ["convert", str(conll_file), str(tmp_path / "out.txt")])
    assert_one_line_error(result, "CE001", "out.txt")


def test_convert_shows_warnings(tmp_path):
    path = tmp_path / "shared.conll"
    path.write_text(CONLL.replace("(1)\n", "(1)|(0)\n").replace("(1(0)", "(1(0)|(2)"),
                    encoding="utf8")
    result = runner.invoke(app, ["convert", str(path), str(tmp_path / "out.jsonl")])
    assert result.exit_code == 0, result.output
    assert "CW001" in result.output


def test_stats_json(conll_file):
    result = runner.invoke(app, ["stats", str(conll_file), "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats == {"documents": 1, "tokens": 5, "sentences": 2, "mentions": 4, "clusters": 2,
                     "singletons": 0, "nested_mentions": 1, "longest_doc": 5}


def test_stats_table(conll_file):
    result = runner.invoke(app, ["stats", str(conll_file)])
    assert result.exit_code == 0, result.output
    assert "Nested mentions" in result.output


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_stats_malformed_input_fails_with_one_line(tmp_path, extra):
    bad = tmp_path / "bad.conll"
    bad.write_text(CONLL.replace("1)\n", "2)\n"), encoding="utf8")
    result = runner.invoke(app, ["stats", str(bad), *extra])
    assert_one_line_error(result, "CE013", f"{bad}:5:")


def test_make_corpus_malformed_input_fails_with_one_line(tmp_path):
    conll_dir = tmp_path / "data" / "litbank" / "train" / "conll"
    conll_dir.mkdir(parents=True)
    bad = conll_dir / "bad.conll"
    bad.write_text(CONLL.replace("1)\n", "2)\n"), encoding="utf8")
    result = runner.invoke(app, ["make-corpus", str(tmp_path / "data"), str(tmp_path / "out")])
    assert_one_line_error(result, "CE013", f"{bad}:5:")


def test_convert_stores_the_annotation_scheme(conll_file, tmp_path):
    out = tmp_path / "out.spacy"
    result = runner.invoke(app, ["convert", str(conll_file), str(out), "--scheme", "litbank"])
    assert result.exit_code == 0, result.output
    doc = read_docs(out)[0]
    assert get_scheme(doc) == "litbank"
    # a predicted doc made from it for training or evaluation follows the same scheme
    assert get_scheme(bare_copy(doc)) == "litbank"
    runner.invoke(app, ["convert", str(conll_file), str(out)])
    assert get_scheme(read_docs(out)[0]) is None


def test_make_corpus_names_each_dataset_scheme(tmp_path):
    data = tmp_path / "data"
    for sub in ("litbank/train/conll", "litbank/dev/conll", "gum/train", "gum/dev"):
        (data / sub).mkdir(parents=True)
        name = "GUM_news_x" if sub.startswith("gum") else "d"
        (data / sub / "a.conll").write_text(CONLL.replace("(d)", f"({name})").replace("\nd\t", f"\n{name}\t"), encoding="utf8")
    (data / "gap").mkdir()
    gap_header = "ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB\tB-offset\tB-coref\tURL\n"
    gap_row = "x-1\tAnn met Bea. She left.\tShe\t13\tAnn\t0\tTRUE\tBea\t8\tFALSE\thttp://x\n"
    for name in ("gap-development.tsv", "gap-validation.tsv"):
        (data / "gap" / name).write_text(gap_header + gap_row.replace("x-1", name[:5] + "-1"), encoding="utf8")
    result = runner.invoke(app, ["make-corpus", str(data), str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    schemes = {
        path: {get_scheme(doc) for doc in read_docs(tmp_path / "out" / path)}
        for path in ("train/litbank.spacy", "dev/litbank.spacy", "train/gum.spacy",
                     "dev/gum.spacy", "train/gap.spacy", "gap-dev/gap.spacy")
    }
    assert schemes == {
        "train/litbank.spacy": {"litbank"}, "dev/litbank.spacy": {"litbank"},
        "train/gum.spacy": {"ontonotes"}, "dev/gum.spacy": {"ontonotes"},
        "train/gap.spacy": {"ontonotes"}, "gap-dev/gap.spacy": {"ontonotes"},
    }
    # dev-all holds every dev file, for checkpoint selection on CoNLL and GAP together
    out = tmp_path / "out"
    names = sorted(p.name for p in (out / "dev-all").iterdir())
    assert names == ["gap.spacy", "gum.spacy", "litbank.spacy"]
    for name, source in (("gap", "gap-dev/gap"), ("litbank", "dev/litbank"), ("gum", "dev/gum")):
        copy = (out / "dev-all" / f"{name}.spacy").read_bytes()
        assert copy == (out / f"{source}.spacy").read_bytes()
