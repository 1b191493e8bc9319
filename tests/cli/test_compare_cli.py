"""`spacy-coref compare` on a tiny random-weight model: one run of the model, two decodings,
the paired bootstrap of B - A; two models (`--model-b`); and the pure functions behind it."""
import json
import shutil
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin, Span, SpanGroup
from typer.testing import CliRunner

from spacy_coref.annotations import GOLD_MENTIONS_KEY, set_clusters
from spacy_coref.cli import app
from spacy_coref.formats import read_docs
from spacy_coref.formats.pronoun_problems import PROBLEM_KIND
from spacy_coref.pipeline.constraints import DEFAULT_CONSTRAINTS
from spacy_coref.training.comparison import compare_decodings, compare_models, compared_decodings
from spacy_coref.training.evaluation import evaluate_docs, load_coref_nlp, use_constraints

runner = CliRunner()
TEXTS = [
    ("Alice saw Bob in the park. She waved at him.", [[(0, 1), (7, 8)], [(2, 3), (10, 11)]]),
    ("Anna met her brother. She told him the news.", [[(0, 1), (2, 3), (5, 6)], [(3, 4), (7, 8)]]),
    ("The plumber fixed the sink, and Tom paid him.", [[(0, 2), (9, 10)]]),
    ("Mina and Joe got married. Their wedding was small.", [[(0, 3), (6, 7)]]),
]
GAP_HEADER = "ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB\tB-offset\tB-coref\tURL"
# (ID, text, pronoun, A, A-coref, B, B-coref); offsets are each word's first occurrence
GAP_EXAMPLES = [
    ("x-1", "Ann met Bea. She left.", "She", "Ann", "TRUE", "Bea", "FALSE"),
    ("x-2", "Tom called Ed because he was late.", "he", "Tom", "FALSE", "Ed", "TRUE"),
    ("x-3", "Mary told Sue that her car was gone.", "her", "Mary", "TRUE", "Sue", "FALSE"),
]


def gap_row(gap_id, text, pronoun, a, a_coref, b, b_coref):
    offsets = [str(text.index(word)) for word in (pronoun, a, b)]
    fields = [gap_id, text, pronoun, offsets[0], a, offsets[1], a_coref, b, offsets[2], b_coref]
    return "\t".join(fields + ["http://x"])


@pytest.fixture(scope="module")
def tiny_model(tiny_span_model) -> Path:
    """The tiny span-candidate pipeline (tests/conftest.py), decoding under all the
    constraints."""
    text, clusters = TEXTS[0]
    return tiny_span_model(text, clusters)


@pytest.fixture(scope="module")
def unlinking_model(tiny_model, tmp_path_factory) -> Path:
    """The tiny model with a null score no link beats: it decodes no clusters."""
    path = tmp_path_factory.mktemp("compare-b") / "tiny"
    shutil.copytree(tiny_model, path)
    cfg = json.loads((path / "coref_cluster" / "cfg").read_text(encoding="utf8"))
    assert cfg["null_score"] == -50.0
    cfg["null_score"] = 1e9
    (path / "coref_cluster" / "cfg").write_text(json.dumps(cfg), encoding="utf8")
    return path


@pytest.fixture(scope="module")
def conll_data(tmp_path_factory) -> Path:
    nlp = spacy.blank("en")
    docs = []
    for text, clusters in TEXTS:
        doc = nlp.make_doc(text)
        set_clusters(doc, clusters)
        docs.append(doc)
    path = tmp_path_factory.mktemp("compare-data") / "dev.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


@pytest.fixture(scope="module")
def gap_data(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("compare-gap") / "gap.tsv"
    rows = [gap_row(*example) for example in GAP_EXAMPLES]
    path.write_text("\n".join([GAP_HEADER, *rows]) + "\n", encoding="utf8")
    return path


# (text, PRONOUN, A, B, the answer) as token offsets; the last has one candidate (BUG's kind)
PROBLEMS = [
    ("Anna thanked Maria because she had helped .", (4, 5), (0, 1), (2, 3), "B"),
    ("Tom called Ed because he was late .", (4, 5), (0, 1), (2, 3), "A"),
    ("The cup fell off the shelf because it was wet .", (7, 8), (0, 2), (4, 6), "B"),
    ("Mary said that she would come .", (3, 4), (0, 1), None, "A"),
]


@pytest.fixture(scope="module")
def problem_data(tmp_path_factory) -> Path:
    """Pronoun problems as `make-corpus` writes them: three with two candidates, one without."""
    nlp = spacy.blank("en")
    docs = []
    for text, pronoun, a, b, answer in PROBLEMS:
        doc = nlp.make_doc(text)
        roles = {"PRONOUN": pronoun, "A": a, "B": b}
        spans = [Span(doc, *roles[r], label=r) for r in ("PRONOUN", "A", "B") if roles[r]]
        doc.spans[GOLD_MENTIONS_KEY] = SpanGroup(doc, name=GOLD_MENTIONS_KEY, spans=spans)
        set_clusters(doc, [[pronoun, roles[answer]]])
        doc.user_data[PROBLEM_KIND] = "bug" if b is None else "winogrande"
        docs.append(doc)
    path = tmp_path_factory.mktemp("compare-problems") / "problems.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def run_json(*args):
    result = runner.invoke(app, ["compare", *map(str, args), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_help():
    result = runner.invoke(app, ["compare", "--help"])
    assert result.exit_code == 0 and "--without" in result.output


def test_same_decoding_twice_differs_by_zero(tiny_model, conll_data):
    out = run_json(tiny_model, conll_data, "--a", "none", "--b", "", "--n-resamples", "50")
    assert out["a"]["constraints"] == [] and out["b"]["constraints"] == []
    assert list(out["conll"]) == ["muc", "b3", "ceafe", "conll_f1"] and out["gap"] is None
    for d in out["conll"].values():
        assert d["difference"] == 0.0 and d["low"] == 0.0 and d["high"] == 0.0
        assert d["n_resamples"] == 50
    assert out["n_conll_docs"] == 4 and out["n_gap_examples"] == 0


def test_without_a_step_and_the_figures_match_evaluate(tiny_model, conll_data):
    out = run_json(tiny_model, conll_data, "--without", "agreement", "--seed", "3")
    assert out["b"]["constraints"] == list(DEFAULT_CONSTRAINTS)  # the tiny model's default
    assert out["a"]["constraints"] == [c for c in DEFAULT_CONSTRAINTS if c != "agreement"]
    assert out["seed"] == 3 and out["n_resamples"] == 1000 and out["without"] == "agreement"
    conll = out["conll"]["conll_f1"]
    assert conll["low"] <= conll["high"]
    # A and B are the figures `evaluate` gives for those constraint lists
    nlp = load_coref_nlp(str(tiny_model))
    refs = read_docs(conll_data, vocab=nlp.vocab)
    for name in ("a", "b"):
        use_constraints(nlp, out[name]["constraints"])
        assert evaluate_docs(nlp, refs)["conll"]["conll_f1"] == pytest.approx(conll[name])
    again = run_json(tiny_model, conll_data, "--without", "agreement", "--seed", "3")
    assert again["conll"] == out["conll"]


def test_gap_data_and_the_table(tiny_model, gap_data):
    result = runner.invoke(app, ["compare", str(tiny_model), str(gap_data), "--b", "none"])
    assert result.exit_code == 0, result.output
    assert "GAP F1" in result.output and "P(B>A)" in result.output
    assert "95% interval" in result.output and "3 GAP examples" in result.output
    out = run_json(tiny_model, gap_data, "--a", "default", "--b", "none", "--confidence", "0.8")
    assert list(out["gap"]) == ["gap_f1"] and out["conll"] is None
    assert out["gap"]["gap_f1"]["confidence"] == 0.8


def test_output_writes_the_result_the_table_shows(tiny_model, gap_data, tmp_path):
    path = tmp_path / "metrics" / "compare.json"
    result = runner.invoke(app, ["compare", str(tiny_model), str(gap_data), "--b", "none",
                                 "--output", str(path)])
    assert result.exit_code == 0, result.output
    assert "GAP F1" in result.output and "Saved" in result.output and path.name in result.output
    written = json.loads(path.read_text(encoding="utf8"))
    printed = run_json(tiny_model, gap_data, "--b", "none")
    assert written.pop("seconds") > 0 and printed.pop("seconds") > 0  # the run's own time
    assert written == printed
    assert written["b"]["constraints"] == [] and written["data"] == str(gap_data)


def test_compare_decodings_on_mixed_data(tiny_model, conll_data, gap_data):
    nlp = load_coref_nlp(str(tiny_model))
    refs = read_docs(conll_data, vocab=nlp.vocab) + read_docs(gap_data, vocab=nlp.vocab)
    out = compare_decodings(nlp, refs, ["binding"], [], n_resamples=20)
    assert out["n_conll_docs"] == 4 and out["n_gap_examples"] == 3
    assert out["conll"] is not None and out["gap"] is not None


def test_compared_decodings():
    default = ["agreement", "binding", "quotes"]
    assert compared_decodings(default, without="binding") == (["agreement", "quotes"], default)
    assert compared_decodings(default, b="none") == (default, [])
    assert compared_decodings(default, a="quotes, binding", b="default") == (
        ["quotes", "binding"],
        default,
    )
    with pytest.raises(ValueError, match="CE425"):
        compared_decodings(default)
    with pytest.raises(ValueError, match="CE425"):
        compared_decodings(default, without="binding", b="none")
    with pytest.raises(ValueError, match="CE426"):
        compared_decodings(default, without="salience")
    with pytest.raises(ValueError, match="CE108"):
        compared_decodings(default, without="bind")
    # a step left off: A the default list, B with it, in the decoding's order
    assert compared_decodings(default, with_step="salience") == (
        default, ["salience", "agreement", "binding", "quotes"],
    )
    with pytest.raises(ValueError, match="CE428"):
        compared_decodings(default, with_step="binding")
    with pytest.raises(ValueError, match="CE425"):
        compared_decodings(default, with_step="salience", without="binding")


def test_a_model_against_itself_differs_by_zero(tiny_model, conll_data, gap_data):
    for data in (conll_data, gap_data):
        out = run_json(tiny_model, data, "--model-b", tiny_model, "--n-resamples", "50")
        assert out["model_b"] == str(tiny_model)
        assert out["a"]["constraints"] == out["b"]["constraints"] == list(DEFAULT_CONSTRAINTS)
        for d in (out["conll"] or out["gap"]).values():
            assert d["difference"] == 0.0 and d["low"] == 0.0 and d["high"] == 0.0


def test_two_models_give_the_figures_evaluate_gives_each(tiny_model, unlinking_model, conll_data):
    out = run_json(tiny_model, conll_data, "--model-b", unlinking_model, "--seed", "1")
    conll = out["conll"]["conll_f1"]
    for name, path in (("a", tiny_model), ("b", unlinking_model)):
        nlp = load_coref_nlp(str(path))
        expected = evaluate_docs(nlp, read_docs(conll_data, vocab=nlp.vocab))["conll"]["conll_f1"]
        assert conll[name] == pytest.approx(expected)
    assert conll["a"] > 0 and conll["b"] == 0  # B links nothing
    assert conll["difference"] == pytest.approx(conll["b"] - conll["a"])
    assert conll["high"] < 0 and conll["p_b_better"] == 0.0
    table = runner.invoke(app, ["compare", str(tiny_model), str(conll_data), "--model-b",
                                str(unlinking_model)])
    assert table.exit_code == 0 and f"B ({unlinking_model})" in table.output


def test_pronoun_problems_are_compared_by_accuracy(tiny_model, unlinking_model, problem_data):
    out = run_json(tiny_model, problem_data, "--model-b", unlinking_model, "--n-resamples", "50")
    assert out["conll"] is None and out["gap"] is None  # problems are scored by accuracy only
    assert out["n_problems"] == 3 and out["n_problems_skipped"] == 1
    accuracy = out["problems"]["accuracy"]
    nlp = load_coref_nlp(str(tiny_model))
    two_candidates = read_docs(problem_data, vocab=nlp.vocab)[:3]
    expected = evaluate_docs(nlp, two_candidates)["pronoun_problems"]
    assert accuracy["a"] == pytest.approx(expected["accuracy"])
    assert accuracy["b"] == 0.0  # B links nothing: every pronoun alone is wrong
    assert accuracy["difference"] == pytest.approx(-accuracy["a"])
    table = runner.invoke(app, ["compare", str(tiny_model), str(problem_data), "--model-b",
                                str(tiny_model)])
    assert table.exit_code == 0 and "Accuracy" in table.output
    assert "3 pronoun problems" in table.output and "1 with no choice skipped" in table.output


def test_two_models_need_the_same_documents(tiny_model, conll_data, gap_data):
    nlp_a, nlp_b = load_coref_nlp(str(tiny_model)), load_coref_nlp(str(tiny_model))
    refs_a = read_docs(conll_data, vocab=nlp_a.vocab)
    refs_b = read_docs(conll_data, vocab=nlp_b.vocab)
    with pytest.raises(ValueError, match="CE429.*document 2 "):
        compare_models(nlp_a, nlp_b, refs_a, refs_b[:2] + refs_b[3:], n_resamples=10)
    assert compare_models(nlp_a, nlp_b, refs_a, refs_b, n_resamples=10)["n_conll_docs"] == 4


@pytest.mark.parametrize(
    "options,code",
    [
        (["--b", "agreement,gender"], "CE108"),
        (["--without", "agreement", "--a", "none"], "CE425"),
        (["--with", "agreement"], "CE428"),
        ([], "CE425"),
        (["--model-b", "default", "--b", "none"], "CE425"),
        (["--b", "none", "--n-resamples", "0"], "CE422"),
        (["--b", "none", "--confidence", "95"], "CE423"),
    ],
)
def test_errors_are_one_coded_line(tiny_model, conll_data, options, code):
    result = runner.invoke(app, ["compare", str(tiny_model), str(conll_data), *options])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and code in lines[0], result.stderr


def test_no_documents(tiny_model, tmp_path):
    empty = tmp_path / "empty.spacy"
    DocBin().to_disk(empty)
    result = runner.invoke(app, ["compare", str(tiny_model), str(empty), "--b", "none"])
    assert result.exit_code == 1 and "CE421" in result.stderr, result.output
