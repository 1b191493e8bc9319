"""Input lines and records of `resolve --ray`, read on the workers: the same checks and the same
records as the serial `spacy-coref resolve`, except that a bad record becomes an error record
instead of stopping the job. No Ray here.

An error record is {"id": ..., "error": "[CE...] where: why"}: the record's "id" where it has
one that can be read, and the coded reason, which names the file and line.
"""
import json
from contextlib import suppress
from pathlib import Path
from typing import Any, List, Optional, Tuple

from ..errors import DataFormatError, Errors
from ..resolver import Record, decode_text, parse_record

# the columns of the input rows in line mode (text, doc and jsonl inputs)
ROW = "_coref_row"  # position in the whole input, from 0: restores the input order
NAME = "_coref_name"  # the input's name (file path, <stdin>, argument N)
LINE = "_coref_line"  # line number in the input, from 1
DATA = "_coref_data"  # the line's bytes, or the whole input for the doc format
ERROR = "_coref_error"  # a reason found before the workers (arguments), else null
# the columns of the output rows in line mode
JSON = "_coref_json"  # the output record as one JSON line; null for a blank jsonl line
FAILED = "_coref_failed"  # whether the record is an error record

LINE_FORMATS = ("text", "doc", "jsonl")
JSONL_SUFFIXES = (".jsonl", ".jsonlines", ".ndjson")
PARQUET_SUFFIXES = (".parquet",)


def split_input(data: bytes, input_format: str) -> List[bytes]:
    """The lines of an input as the serial resolve splits them (`bytes.splitlines`: at \\n,
    \\r\\n and \\r), or the whole input as one for the doc format.

    data (bytes): The input.
    input_format (str): "text", "doc" or "jsonl".
    RETURNS (List[bytes]): The lines with their line ends.
    """
    return [data] if input_format == "doc" else data.splitlines(keepends=True)


def read_line(data: bytes, *, name: str, number: int, input_format: str) -> Optional[Record]:
    """The record of one input line, as the serial resolve reads it.

    data (bytes): The line (the whole input for the doc format).
    name (str): The input's name.
    number (int): The line number, from 1.
    input_format (str): "text" (the line is the text), "doc" or "jsonl".
    RETURNS (Optional[Record]): The record; None for a blank jsonl line (not a record). Raises
        DataFormatError with the serial resolve's code and location for a bad one.
    """
    if input_format == "doc":
        return {"text": decode_text(data, name, 1)}
    text = decode_text(data, name, number).rstrip("\r\n")
    if input_format == "text":
        return {"text": text}
    if not text.strip():
        return None
    return parse_record(text, f"{name}:{number}")


def read_line_or_error(
    data: Optional[bytes], *, name: str, number: int, input_format: str, error: Optional[str]
) -> Tuple[Optional[Record], Optional[Record]]:
    """`read_line`, with a bad line as an error record rather than an exception.

    data (Optional[bytes]): The line.
    name (str): The input's name.
    number (int): The line number, from 1.
    input_format (str): "text", "doc" or "jsonl".
    error (Optional[str]): A reason found earlier: the line is bad.
    RETURNS (Tuple[Optional[Record], Optional[Record]]): The record or None, and the error
        record or None; both None for a blank jsonl line.
    """
    if error is not None:
        return None, error_record(error, data)
    try:
        return read_line(data or b"", name=name, number=number, input_format=input_format), None
    except DataFormatError as e:  # the reason goes to the output, the job goes on
        return None, error_record(str(e), data)


def error_record(message: str, data: Optional[bytes] = None, record_id: Any = None) -> Record:
    """The error record of a bad input: its id where it has one, and the reason.

    message (str): The coded reason, naming where the input is.
    data (Optional[bytes]): The input line: its "id" is read where it is a JSON object.
    record_id (Any): The id, where it is known.
    RETURNS (Record): {"id": ..., "error": message}, without "id" where there is none.
    """
    if record_id is None and data is not None:
        record_id = _id_of(data)
    out: Record = {} if record_id is None else {"id": record_id}
    out["error"] = message
    return out


def _id_of(data: bytes) -> Any:
    value = None
    with suppress(ValueError):  # not JSON: no id to read
        # bytes that are not UTF-8 (in the text, say) do not hide the id
        value = json.loads(data.decode("utf8", errors="replace"))
    record_id = value.get("id") if isinstance(value, dict) else None
    # an unpaired surrogate ("\ud800") could not be written as UTF-8
    encoded = json.dumps(record_id, ensure_ascii=False)
    return None if any("\ud800" <= char <= "\udfff" for char in encoded) else record_id


def output_line(record: Record) -> str:
    """The JSON line of an output record, exactly as the serial resolve writes it."""
    return json.dumps(record, ensure_ascii=False)


def input_kind(path: Path, input_format: Optional[str] = None) -> str:
    """How a file is read: "parquet" for *.parquet, else `input_format`, else "jsonl" for
    *.jsonl/*.jsonlines/*.ndjson and "text" for the rest (as the serial resolve guesses)."""
    suffix = path.suffix.lower()
    if suffix in PARQUET_SUFFIXES:
        return "parquet"
    if input_format is not None:
        return input_format
    return "jsonl" if suffix in JSONL_SUFFIXES else "text"


def list_input_files(directory: Path) -> Tuple[List[Path], str]:
    """The jsonl or parquet files in a directory and its subdirectories, sorted by path.

    directory (Path): The directory.
    RETURNS (Tuple[List[Path], str]): The files and their kind, "jsonl" or "parquet". Raises
        CE326 where there are none and CE327 where there are both kinds.
    """
    files = sorted(p for p in directory.rglob("*") if p.is_file() and not p.name.startswith("."))
    jsonl = [p for p in files if p.suffix.lower() in JSONL_SUFFIXES]
    parquet = [p for p in files if p.suffix.lower() in PARQUET_SUFFIXES]
    if not jsonl and not parquet:
        raise DataFormatError(Errors.CE326.format(path=directory))
    if jsonl and parquet:
        examples = f"{jsonl[0].name}, {parquet[0].name}"
        raise DataFormatError(Errors.CE327.format(path=directory, examples=examples))
    return (jsonl, "jsonl") if jsonl else (parquet, "parquet")
