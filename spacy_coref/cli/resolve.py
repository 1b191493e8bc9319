"""`spacy-coref resolve`: resolve coreference in raw text and write jsonlines or an HTML view.

Input: texts given as arguments (one document each, or one JSON record each with
`--input-format jsonl`); a file or stdin (`--input -`, or text piped
in without arguments) read as one document per line (`text`), the whole input as one document
(`doc`), or jsonlines with a "text" field (`jsonl`; the other fields are copied to the output).
The whole input is read and checked before the model loads, so a bad line fails in a second.

Output, one JSON object per document: the input's fields, "clusters" (each with its number
`id`, as in `doc.spans["coref_clusters_{id}"]`, its "main" mention and its "mentions", each
as "start"/"end" character offsets into "text", Python string indices, and the "text"),
"resolved" (`Doc._.coref_resolved`) and, with `--scores`, "scores": every scored
(mention, antecedent) pair with the model's antecedent score (higher links more readily; the
no-antecedent option scores the model's null score, 0 for the shipped default).
"""
import io
import json
import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, TextIO, Tuple, Union

import spacy
import typer
from spacy.language import Language
from spacy.tokens import Doc, Span
from tqdm import tqdm

from ..annotations import cluster_number
from ..errors import DataFormatError, Errors, Warnings
from ..pipeline.cluster import CorefCluster
from ..pipeline.coref import CorefStack
from ..render import render_doc, wrap_page
from ..training.evaluation import BASE_PIPELINE, follow_scheme, load_coref_nlp
from ._app import app, fail_one_line

STDIN = "-"
JSONL_SUFFIXES = (".jsonl", ".jsonlines", ".ndjson")
OUTPUT_FIELDS = ("clusters", "resolved", "scores")
COREF_FACTORIES = ("coref", "coref_cluster")

Record = Dict[str, Any]


class InputFormat(str, Enum):
    text = "text"  # one document per line
    doc = "doc"  # the whole input is one document
    jsonl = "jsonl"  # one JSON object with a "text" field per line


class OutputFormat(str, Enum):
    jsonl = "jsonl"
    html = "html"


@app.command("resolve")
def resolve_cli(
    # fmt: off
    texts: Optional[List[str]] = typer.Argument(None, help="Texts to resolve, one document each"),
    input_path: Optional[str] = typer.Option(None, "--input", "-i", help="File to read, or - for stdin (read when piped without texts)"),
    input_format: Optional[InputFormat] = typer.Option(None, "--input-format", help="text: one document per line; doc: the whole input is one document; jsonl: objects with a \"text\" field (for texts given as arguments: each one is a JSON object). Default: jsonl for .jsonl/.jsonlines/.ndjson, else text"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Output file (default: stdout)"),
    model: str = typer.Option("default", "--model", "-m", help="Coreference pipeline: 'default' (shipped), a directory or a package; a pipeline with its own parser is used alone"),
    base: str = typer.Option(BASE_PIPELINE, "--base", help="Pipeline with a parser that a coreference pipeline is stacked on"),
    scores: bool = typer.Option(False, "--scores", help="Add the antecedent score of every scored mention pair"),
    output_format: OutputFormat = typer.Option(OutputFormat.jsonl, "--format", "-f", help="jsonl records or an HTML view of the clusters"),
    batch_size: int = typer.Option(16, "--batch-size", "-b", help="Documents per batch", min=1),
    scheme: Optional[str] = typer.Option(None, "--scheme", help="Annotation scheme to follow, for a model trained with several (e.g. ontonotes: every referring noun phrase; litbank: people, places, organisations and vehicles). The shipped default tells none apart"),
    # fmt: on
) -> None:
    """Resolve coreference in raw text: clusters with character offsets, the resolved text and
    optional pair scores as jsonlines, or `--format html` for a view of the clusters."""
    if texts and input_path is not None:
        fail_one_line(Errors.CE205.format(path=input_path))
    if texts:
        try:
            records = read_arguments(texts, input_format)
        except DataFormatError as e:
            fail_one_line(str(e))
        source = None
    else:
        if input_path is None and sys.stdin.isatty():
            fail_one_line(Errors.CE204)
        source = input_path if input_path is not None else STDIN
        fmt = input_format or guess_input_format(source)
        try:
            records = read_records(source, fmt)
        except (DataFormatError, OSError) as e:
            fail_one_line(str(e))
        if input_path is None and not records:  # stdin that was neither a tty nor given data
            fail_one_line(Errors.CE204)
    _warn_replaced_fields(records, source)
    if output is not None:  # a folder that cannot be made fails before the model loads
        with _output_errors(output):
            output.parent.mkdir(parents=True, exist_ok=True)
    try:
        nlp = load_resolver(model, base=base, scores=scores, scheme=scheme)
    except (OSError, ValueError) as e:
        fail_one_line(Errors.CE207.format(model=model, base=base, error=e))
    # opened (and emptied) only now: a model that fails to load leaves an existing file as it was
    if output is None:
        out = _stdout()
    else:
        with _output_errors(output):
            out = output.open("w", encoding="utf8")
    # a progress bar for file input, on stderr when it is a terminal (tqdm's disable=None)
    progress = tqdm(total=len(records), unit="doc", disable=None if source else True)
    docs = resolve_records(nlp, records, batch_size=batch_size, scores=scores)
    resolved = _counted(docs, progress)
    if output_format == OutputFormat.html:
        views = [render_doc(doc) for doc, _ in resolved]
        out.write(wrap_page(views, title="Coreference clusters", lang=nlp.lang or "en"))
    else:
        for _, record in resolved:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    progress.close()
    if output is not None:
        out.close()
        typer.secho(f"\u2714 Wrote {len(records)} document(s) to {output}", err=True)


def read_arguments(texts: List[str], input_format: Optional[InputFormat]) -> List[Record]:
    """The records of texts given as arguments: one document each, or with `jsonl` one JSON
    record each. Python keeps bytes of the command line that are not UTF-8 as unpaired
    surrogates, which are not text: they raise CE211."""
    records: List[Record] = []
    for i, text in enumerate(texts, start=1):
        loc = f"argument {i}"
        bad = next((char for char in text if "\ud800" <= char <= "\udfff"), None)
        if bad is not None:
            raise DataFormatError(Errors.CE211.format(loc=loc, char=ascii(bad)))
        if input_format == InputFormat.jsonl:
            records.append(_parse_record(text, loc))
        else:
            records.append({"text": text})
    return records


def guess_input_format(source: str) -> InputFormat:
    """jsonl for a file named *.jsonl, *.jsonlines or *.ndjson; text otherwise (and for stdin)."""
    is_jsonl = source != STDIN and source.lower().endswith(JSONL_SUFFIXES)
    return InputFormat.jsonl if is_jsonl else InputFormat.text


def read_records(source: str, input_format: InputFormat) -> List[Record]:
    """Read every input document as a record with a "text" field.

    source (str): A file path, or "-" for stdin.
    input_format (InputFormat): How the input holds documents (see `InputFormat`).
    RETURNS (List[Record]): The records, in input order; jsonl records keep all their fields.
    """
    name = "<stdin>" if source == STDIN else source
    data = _read_bytes(source)
    if input_format == InputFormat.doc:
        return [{"text": _decode(data, name, 1)}]
    records: List[Record] = []
    for number, line in enumerate(data.splitlines(keepends=True), start=1):
        text = _decode(line, name, number).rstrip("\r\n")
        if input_format == InputFormat.text:
            records.append({"text": text})  # empty lines stay: output line N is input line N
        elif text.strip():
            records.append(_parse_record(text, f"{name}:{number}"))
    return records


def load_resolver(
    model: str,
    *,
    base: str = BASE_PIPELINE,
    scores: bool = False,
    scheme: Optional[str] = None,
) -> Language:
    """Load a pipeline that parses and resolves coreference (see `load_coref_nlp`).

    model (str): "default", a pipeline directory, or an installed package.
    base (str): The parser pipeline to stack a coreference pipeline on.
    scores (bool): Make the coreference components store their pair scores.
    scheme (Optional[str]): The annotation scheme for every `coref_cluster` to follow; None:
        their own setting.
    RETURNS (Language): The pipeline.
    """
    nlp = load_coref_nlp(_model_location(model), base=base)
    coref_pipes = [pipe for _, pipe in nlp.pipeline if isinstance(pipe, (CorefStack, CorefCluster))]
    if not coref_pipes:
        names = ", ".join(nlp.pipe_names) or "no components"
        factories = " or ".join(COREF_FACTORIES)
        raise ValueError(Errors.CE209.format(factories=factories, model=model, names=names))
    for pipe in coref_pipes:
        _prepare(pipe, scores=scores)
    if scheme is not None:  # one the model does not know fails here, before any output
        follow_scheme(nlp, scheme)
    return nlp


def _prepare(pipe: Union[CorefStack, CorefCluster], *, scores: bool) -> None:
    """Load a `coref` stack's own pipeline now (it loads on first use), so that a broken one
    fails here and not in the middle of the output; with `scores`, make every `coref_cluster`
    store its pair scores."""
    pipes: List[Any] = [pipe]
    if isinstance(pipe, CorefStack):
        pipes += [inner for _, inner in pipe.inner.pipeline if isinstance(inner, CorefCluster)]
    if scores:
        for each in pipes:
            each.cfg["store_scores"] = True


def resolve_records(
    nlp: Language, records: Iterable[Record], *, batch_size: int = 16, scores: bool = False
) -> Iterator[Tuple[Doc, Record]]:
    """Resolve each record's "text" and build its output record.

    nlp (Language): A pipeline from `load_resolver`.
    records (Iterable[Record]): Records with a "text" field.
    batch_size (int): Documents per batch.
    scores (bool): Add the pair scores (the pipeline must store them).
    YIELDS (Tuple[Doc, Record]): Each doc and its output record, in input order.
    """
    pairs = ((record["text"], record) for record in records)
    for doc, record in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size):
        title = record.get("title", record.get("id"))
        if title is not None:
            doc.user_data["title"] = str(title)
        yield doc, doc_record(doc, record, scores=scores)


def doc_record(doc: Doc, record: Optional[Record] = None, *, scores: bool = False) -> Record:
    """The output record of a resolved doc.

    doc (Doc): The resolved doc.
    record (Optional[Record]): Input fields to keep ("text" is the doc's text).
    scores (bool): Add "scores", the stored pair scores.
    RETURNS (Record): The fields of the input record, "text", "clusters", "resolved" and,
        with `scores`, "scores".
    """
    out: Record = dict(record or {})
    out["text"] = doc.text
    out["clusters"] = [
        {
            "id": cluster_number(cluster.key),
            "main": _mention(cluster.main),
            "mentions": [_mention(span) for span in cluster.mentions],
        }
        for cluster in doc._.coref_clusters
    ]
    out["resolved"] = doc._.coref_resolved
    if scores:
        out["scores"] = [
            {
                "mention": _mention(doc[m_start:m_end]),
                "antecedent": _mention(doc[a_start:a_end]),
                "score": score,
            }
            for (m_start, m_end), antecedents in sorted(doc._.coref_scores.items())
            for (a_start, a_end), score in sorted(antecedents.items())
        ]
    return out


def _mention(span: Span) -> Dict[str, Any]:
    return {"start": span.start_char, "end": span.end_char, "text": span.text}


def _model_location(model: str) -> str:
    """What `load_coref_nlp` takes: "default", or the directory of a pipeline (a package's
    data directory, which holds its config.cfg)."""
    if model == "default" or Path(model).exists() or not spacy.util.is_package(model):
        return model
    package_dir = spacy.util.get_package_path(model)
    configs = sorted(package_dir.glob("*/config.cfg"))
    return str(configs[0].parent) if configs else model


def _read_bytes(source: str) -> bytes:
    if source == STDIN:
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except OSError as e:
        raise DataFormatError(Errors.CE202.format(path=source, error=e.strerror or e)) from e


def _decode(data: bytes, name: str, first_line: int) -> str:
    try:
        text = data.decode("utf8")
    except UnicodeDecodeError as e:
        line = first_line + data[: e.start].count(b"\n")
        raise DataFormatError(Errors.CE203.format(loc=f"{name}:{line}", error=e.reason)) from e
    # a byte order mark opens some files written on Windows; it is not text
    return text[1:] if first_line == 1 and text.startswith("\ufeff") else text


def _parse_record(line: str, loc: str) -> Record:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as e:
        raise DataFormatError(Errors.CE200.format(loc=loc, error=e.msg)) from e
    _check_unicode(line, value, loc)
    if not isinstance(value, dict):
        found = f"a JSON {type(value).__name__}"
    elif "text" not in value:
        found = f"an object with the fields {sorted(value)}"
    elif not isinstance(value["text"], str):
        found = f"a \"text\" of type {type(value['text']).__name__}"
    else:
        return value
    raise DataFormatError(Errors.CE201.format(loc=loc, found=found))


def _check_unicode(line: str, value: Any, loc: str) -> None:
    """JSON can spell an unpaired surrogate ("\\ud800"): spaCy would take it, the UTF-8 output
    could not."""
    if "\\u" not in line:  # only an escape can make one
        return
    decoded = json.dumps(value, ensure_ascii=False)
    for char in decoded:
        if "\ud800" <= char <= "\udfff":
            raise DataFormatError(Errors.CE210.format(loc=loc, char=ascii(char)))


def _warn_replaced_fields(records: List[Record], source: Optional[str]) -> None:
    clashing = [i for i, record in enumerate(records) if any(f in record for f in OUTPUT_FIELDS)]
    if clashing:
        fields = sorted({f for i in clashing for f in OUTPUT_FIELDS if f in records[i]})
        name = "<stdin>" if source == STDIN else source
        loc = f"{name}, record {clashing[0] + 1}"
        warning = Warnings.CW200.format(n=len(clashing), fields=", ".join(fields), loc=loc)
        typer.secho(f"\u26a0 {warning}", fg=typer.colors.YELLOW, err=True)


def _counted(items: Iterable[Tuple[Doc, Record]], progress: tqdm) -> Iterator[Tuple[Doc, Record]]:
    for item in items:
        yield item
        progress.update(1)


@contextmanager
def _output_errors(path: Path) -> Iterator[None]:
    """Exit with CE208 where the output cannot be written."""
    try:
        yield
    except OSError as e:
        fail_one_line(Errors.CE208.format(path=path, error=e.strerror or e))


def _stdout() -> TextIO:
    """stdout writing UTF-8, as jsonlines requires, whatever the locale."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf8")
    return sys.stdout
