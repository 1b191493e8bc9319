"""`spacy-coref convert`, `spacy-coref stats` and `spacy-coref make-corpus`, run through the
typer app."""
import json

import pytest
from typer.testing import CliRunner

from spacy_coref.annotations import get_clusters, get_doc_id, get_scheme
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
    write_shared_data(data, ["GUM_news_x"])
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


def write_shared_data(data, gum_train_names):
    """A tiny ../shared/data layout: one LitBank and GAP document per split, and the given GUM
    training documents (GUM_<genre>_<title>)."""
    def conll(name):
        return CONLL.replace("(d)", f"({name})").replace("\nd\t", f"\n{name}\t")

    for sub in ("litbank/train/conll", "litbank/dev/conll", "gum/train", "gum/dev"):
        (data / sub).mkdir(parents=True)
    for sub in ("litbank/train/conll", "litbank/dev/conll"):
        (data / sub / "a.conll").write_text(conll("d"), encoding="utf8")
    (data / "gum/dev/a.conll").write_text(conll("GUM_news_dev"), encoding="utf8")
    for name in gum_train_names:
        (data / "gum/train" / f"{name}.conll").write_text(conll(name), encoding="utf8")
    (data / "gap").mkdir()
    columns = "ID Text Pronoun Pronoun-offset A A-offset A-coref B B-offset B-coref URL".split()
    row = "x-1|Ann met Bea. She left.|She|13|Ann|0|TRUE|Bea|8|FALSE|http://x".split("|")
    for name in ("gap-development.tsv", "gap-validation.tsv"):
        lines = ["\t".join(columns), "\t".join(row), ""]
        (data / "gap" / name).write_text("\n".join(lines), encoding="utf8")


def doc_names(path):
    return sorted(get_doc_id(doc)["name"] for doc in read_docs(path))


def test_make_corpus_writes_the_left_out_genres_to_fresh(tmp_path):
    data, out = tmp_path / "data", tmp_path / "out"
    write_shared_data(data, ["GUM_news_a", "GUM_fiction_b", "GUM_whow_c", "GUM_court_d"])
    result = runner.invoke(app, ["make-corpus", str(data), str(out)])
    assert result.exit_code == 0, result.output
    assert doc_names(out / "train/gum.spacy") == ["GUM_court_d", "GUM_news_a"]
    # the genres not trained on: kept whole (clusters and scheme), for a check nothing chose on
    fresh = read_docs(out / "fresh/gum.spacy")
    assert sorted(get_doc_id(doc)["name"] for doc in fresh) == ["GUM_fiction_b", "GUM_whow_c"]
    assert all(get_scheme(doc) == "ontonotes" and len(get_clusters(doc)) == 2 for doc in fresh)
    assert "fresh/gum.spacy: 2 documents" in " ".join(result.output.split())
    # training on every genre leaves nothing fresh: an earlier run's file goes, not kept stale
    genres = ["--genre", "news", "--genre", "fiction", "--genre", "whow", "--genre", "court"]
    result = runner.invoke(app, ["make-corpus", str(data), str(out), *genres])
    assert result.exit_code == 0, result.output
    assert len(doc_names(out / "train/gum.spacy")) == 4
    assert not (out / "fresh/gum.spacy").exists()


def test_make_corpus_keeps_the_ldc_recording_out_of_train(tmp_path):
    # GUM_court_carpet is a Santa Barbara Corpus recording (the LDC's terms): evaluation only
    data, out = tmp_path / "data", tmp_path / "out"
    write_shared_data(data, ["GUM_court_carpet", "GUM_court_d", "GUM_fiction_b"])
    result = runner.invoke(app, ["make-corpus", str(data), str(out)])
    assert result.exit_code == 0, result.output
    assert doc_names(out / "train/gum.spacy") == ["GUM_court_d"]
    assert doc_names(out / "fresh/gum.spacy") == ["GUM_court_carpet", "GUM_fiction_b"]
    # asking for its genre does not bring it back
    result = runner.invoke(app, ["make-corpus", str(data), str(out), "--genre", "court"])
    assert doc_names(out / "train/gum.spacy") == ["GUM_court_d"]
    assert doc_names(out / "fresh/gum.spacy") == ["GUM_court_carpet", "GUM_fiction_b"]


def test_make_corpus_writes_the_pronoun_problems_apart(tmp_path):
    data, out = tmp_path / "data", tmp_path / "out"
    write_shared_data(data, ["GUM_news_a"])
    assert runner.invoke(app, ["make-corpus", str(data), str(out)]).exit_code == 0
    assert not (out / "pronouns").exists()  # a data directory without pronouns/
    (data / "pronouns").mkdir()
    rows = {
        "winogrande-train-l.jsonl": [
            {"id": "t-1", "sentence": "Maria thanked Sarah because _ had helped with the move.",
             "option1": "Maria", "option2": "Sarah", "answer": 2},
            # no pronoun fits both a person and a thing: dropped, and counted
            {"id": "t-2", "sentence": "Maria dropped the vase because _ was slippery.",
             "option1": "Maria", "option2": "vase", "answer": 2},
        ],
        "winogrande-dev.jsonl": [
            {"id": "d-1", "sentence": "The trophy did not fit in the case because _ was small.",
             "option1": "trophy", "option2": "case", "answer": 2},
        ],
    }
    for name, lines in rows.items():
        with (data / "pronouns" / name).open("w", encoding="utf8") as file_:
            file_.writelines(json.dumps(row) + "\n" for row in lines)
    for name in ("wsc273.jsonl", "pdp.jsonl", "bug-gold-wikipedia.jsonl"):
        (data / "pronouns" / name).write_text("", encoding="utf8")
    result = runner.invoke(app, ["make-corpus", str(data), str(out)])
    assert result.exit_code == 0, result.output
    train, dev = read_docs(out / "pronouns/train.spacy"), read_docs(out / "pronouns-dev")
    assert [doc.text for doc in train] == ["Maria thanked Sarah because she had helped with "
                                           "the move."]
    assert [doc.text for doc in dev] == ["The trophy did not fit in the case because it was "
                                         "small."]
    assert get_scheme(train[0]) == get_scheme(dev[0]) == "ontonotes"
    # apart from train/: a recipe mixes them in with a weight of its own
    assert not any("Maria" in doc.text for doc in read_docs(out / "train"))
