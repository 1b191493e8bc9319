"""Reading `resolve --ray` input lines on a worker: the serial command's records and checks, with
a bad record as an error record (no Ray, no model)."""
import pytest

from spacy_coref.cli.resolve import InputFormat, read_records
from spacy_coref.errors import DataFormatError
from spacy_coref.scaleout.records import (
    error_record,
    input_kind,
    list_input_files,
    read_line,
    read_line_or_error,
    split_input,
)

CONTENTS = [
    b"\xef\xbb\xbfFirst line.\r\n\nThird \xc3\xa9 line.\rFourth\n",
    b'{"id": 7, "text": "A b."}\r\n\n  \n{"text": ""}',
    b"no line end at all",
    b"",
]


def read_all(data: bytes, input_format: str, name: str):
    lines = split_input(data, input_format)
    records = [
        read_line(line, name=name, number=i, input_format=input_format)
        for i, line in enumerate(lines, start=1)
    ]
    return [record for record in records if record is not None]


@pytest.mark.parametrize("data", CONTENTS)
@pytest.mark.parametrize("input_format", ["text", "doc", "jsonl"])
def test_lines_give_the_serial_records(tmp_path, data, input_format):
    if input_format == "jsonl" and data and not data.lstrip(b"\xef\xbb\xbf").startswith(b"{"):
        return  # not jsonl
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    expected = read_records(str(path), InputFormat(input_format))
    assert read_all(data, input_format, str(path)) == expected


@pytest.mark.parametrize(
    "line,code,record_id",
    [
        (b'{"id": 3, "text": 12}\n', "CE201", 3),
        (b'{"id": "x"}\n', "CE201", "x"),
        (b'["text"]\n', "CE201", None),
        (b'{"id": 4, "text": "broken"\n', "CE200", None),
        (b'{"id": 5, "text": "na\xefve"}\n', "CE203", 5),
        (b'{"id": 6, "text": "lone \\ud800"}\n', "CE210", 6),
        (b'{"id": "\\ud800", "text": "lone"}\n', "CE210", None),
    ],
)
def test_bad_line_gives_an_error_record_with_its_id(line, code, record_id):
    record, error = read_line_or_error(
        line, name="in.jsonl", number=9, input_format="jsonl", error=None
    )
    assert record is None and set(error) <= {"id", "error"}
    assert error.get("id") == record_id
    assert error["error"].startswith(f"[{code}]") and "in.jsonl:9" in error["error"]


def test_blank_jsonl_line_is_no_record_and_earlier_reasons_are_kept():
    assert read_line_or_error(b" \r\n", name="f", number=1, input_format="jsonl", error=None) == (
        None,
        None,
    )
    record, error = read_line_or_error(
        b'{"id": 1}', name="f", number=1, input_format="jsonl", error="[CE211] why"
    )
    assert record is None and error == {"id": 1, "error": "[CE211] why"}
    assert error_record("[CE321] no text", record_id=0) == {"id": 0, "error": "[CE321] no text"}


def test_input_files_of_a_directory(tmp_path):
    with pytest.raises(DataFormatError, match="CE326"):
        list_input_files(tmp_path)
    (tmp_path / "b").mkdir()
    for name in ("b/2.jsonl", "a.ndjson", ".hidden.jsonl", "notes.txt"):
        (tmp_path / name).write_text("")
    files, kind = list_input_files(tmp_path)
    assert kind == "jsonl" and [p.relative_to(tmp_path).as_posix() for p in files] == [
        "a.ndjson",
        "b/2.jsonl",
    ]
    (tmp_path / "c.parquet").write_bytes(b"")
    with pytest.raises(DataFormatError, match="CE327"):
        list_input_files(tmp_path)
    assert [
        input_kind(tmp_path / n, f)
        for n, f in [("x.PARQUET", "text"), ("x.txt", None), ("x.jsonl", None), ("x.jsonl", "doc")]
    ] == ["parquet", "text", "jsonl", "doc"]
