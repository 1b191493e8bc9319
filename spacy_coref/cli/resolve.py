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

With `--ray` (the extra spacy-s2e-coref[ray]) the documents are resolved by Ray workers, on a local
Ray or on the cluster at `--address`, and the input can also be a directory of jsonl or parquet
files. The records are the same, in input order, but a bad record gives an error record
({"id": ..., "error": ...}) instead of stopping the command; `-o DIR` writes shards of jsonl or
(`--format parquet`) parquet files (docs/scale_out.md, `spacy_coref.scaleout.job`).
"""
import io
import json
import os
import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, TextIO, Tuple

import typer
from spacy.tokens import Doc
from tqdm import tqdm

from ..errors import DataFormatError, Errors, Warnings
from ..ml.precision import PRECISIONS
from ..render import render_doc, wrap_page

# the record building lives in the library, shared with the Ray workers (scaleout.workers)
from ..resolver import (  # noqa: F401
    COREF_FACTORIES,
    Record,
    decode_text,
    doc_record,
    load_resolver,
    parse_record,
    resolve_records,
)
from ..pipeline.loading import BASE_PIPELINE
from ._app import app, fail_one_line

if TYPE_CHECKING:  # Ray is an optional extra: `--ray` imports it when it runs
    from ..scaleout.job import JobInput

STDIN = "-"
JSONL_SUFFIXES = (".jsonl", ".jsonlines", ".ndjson")
OUTPUT_FIELDS = ("clusters", "resolved", "scores")


class InputFormat(str, Enum):
    text = "text"  # one document per line
    doc = "doc"  # the whole input is one document
    jsonl = "jsonl"  # one JSON object with a "text" field per line


class OutputFormat(str, Enum):
    jsonl = "jsonl"
    html = "html"
    parquet = "parquet"  # shards, with --ray -o DIR


@app.command("resolve")
def resolve_cli(
    # fmt: off
    texts: Optional[List[str]] = typer.Argument(None, help="Texts to resolve, one document each"),
    input_path: Optional[str] = typer.Option(None, "--input", "-i", help="File to read, or - for stdin (read when piped without texts)"),
    input_format: Optional[InputFormat] = typer.Option(None, "--input-format", help="text: one document per line; doc: the whole input is one document; jsonl: objects with a \"text\" field (for texts given as arguments: each one is a JSON object). Default: jsonl for .jsonl/.jsonlines/.ndjson, else text"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Output file (default: stdout)"),
    model: str = typer.Option("default", "--model", "-m", help="Coreference pipeline: 'default', 'fast' or 'accurate' (shipped; fast needs no parser, accurate needs `spacy-coref download accurate`), a directory or a package; a pipeline with its own parser is used alone"),
    base: str = typer.Option(BASE_PIPELINE, "--base", help="Pipeline with a parser that a coreference pipeline is stacked on"),
    scores: bool = typer.Option(False, "--scores", help="Add the antecedent score of every scored mention pair"),
    output_format: OutputFormat = typer.Option(OutputFormat.jsonl, "--format", "-f", help="jsonl records or an HTML view of the clusters; with --ray -o DIR: jsonl or parquet shards"),
    batch_size: int = typer.Option(16, "--batch-size", "-b", help="Documents per batch", min=1),
    scheme: Optional[str] = typer.Option(None, "--scheme", help="Annotation scheme to follow, for a model trained with several (e.g. ontonotes: every referring noun phrase; litbank: people, places, organisations and vehicles). The shipped default tells none apart"),
    precision: Optional[str] = typer.Option(None, "--precision", help="Numeric precision of the encoder: fp32, bf16 (about 2.8x faster on CPUs with native bf16; CoNLL F1 within 0.1 for the shipped default) or auto (bf16 where the CPU or GPU computes it natively). Default: the model's own setting"),
    use_ray: bool = typer.Option(False, "--ray", help="Resolve on Ray Data workers (pip install 'spacy-s2e-coref\\[ray]'); --input may be a directory of jsonl or parquet files; a bad record gives an error record; -o DIR (an existing directory or a path without a suffix) writes shards"),
    address: Optional[str] = typer.Option(None, "--address", help="With --ray: join the Ray cluster at this address (e.g. 10.0.0.1:6379, or auto); default: start a local Ray"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="With --ray: workers, each loading the pipeline once (default: one per --cpus-per-worker CPUs of the cluster)", min=1),
    cpus_per_worker: int = typer.Option(1, "--cpus-per-worker", help="With --ray: CPUs (torch threads) of each worker", min=1),
    shard_size: int = typer.Option(10000, "--shard-size", help="With --ray -o DIR: input records per shard (rounded up to whole batches)", min=1),
    # fmt: on
) -> None:
    """Resolve coreference in raw text: clusters with character offsets, the resolved text and
    optional pair scores as jsonlines, or `--format html` for a view of the clusters."""
    if precision is not None and precision not in PRECISIONS:  # before reading any input
        fail_one_line(Errors.CE370.format(value=precision, options=", ".join(PRECISIONS)))
    if use_ray:
        settings: Dict[str, Any] = dict(model=model, base=base, scheme=scheme, scores=scores)
        settings.update(precision=precision)
        settings.update(batch_size=batch_size, workers=workers, address=address)
        settings.update(cpus_per_worker=cpus_per_worker, shard_size=shard_size)
        _resolve_on_ray(texts, input_path, input_format, output, output_format, settings)
        return
    for option, given in (("--address", address), ("--workers", workers)):
        if given is not None:
            fail_one_line(Errors.CE324.format(option=option))
    if output_format == OutputFormat.parquet:
        fail_one_line(Errors.CE324.format(option="--format parquet"))
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
        nlp = load_resolver(model, base=base, scores=scores, scheme=scheme, precision=precision)
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


def read_arguments(
    texts: List[str], input_format: Optional[InputFormat], *, start: int = 1
) -> List[Record]:
    """The records of texts given as arguments: one document each, or with `jsonl` one JSON
    record each. Python keeps bytes of the command line that are not UTF-8 as unpaired
    surrogates, which are not text: they raise CE211. `start`: the number of the first."""
    records: List[Record] = []
    for i, text in enumerate(texts, start=start):
        loc = f"argument {i}"
        bad = next((char for char in text if "\ud800" <= char <= "\udfff"), None)
        if bad is not None:
            raise DataFormatError(Errors.CE211.format(loc=loc, char=ascii(bad)))
        if input_format == InputFormat.jsonl:
            records.append(parse_record(text, loc))
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
        return [{"text": decode_text(data, name, 1)}]
    records: List[Record] = []
    for number, line in enumerate(data.splitlines(keepends=True), start=1):
        text = decode_text(line, name, number).rstrip("\r\n")
        if input_format == InputFormat.text:
            records.append({"text": text})  # empty lines stay: output line N is input line N
        elif text.strip():
            records.append(parse_record(text, f"{name}:{number}"))
    return records


def _read_bytes(source: str) -> bytes:
    if source == STDIN:
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except OSError as e:
        raise DataFormatError(Errors.CE202.format(path=source, error=e.strerror or e)) from e


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


def _resolve_on_ray(
    texts: Optional[List[str]],
    input_path: Optional[str],
    input_format: Optional[InputFormat],
    output: Optional[Path],
    output_format: OutputFormat,
    settings: Dict[str, Any],
) -> None:
    """`resolve --ray`: run `spacy_coref.scaleout.job` and report on stderr."""
    if output_format == OutputFormat.html:
        fail_one_line(Errors.CE325.format(option="--format html"))
    try:
        from ..scaleout.job import JobOptions, run_resolve_job
    except ImportError as e:  # the extra is not installed (scaleout.workers says so: CE320)
        fail_one_line(str(e) if "[CE320]" in str(e) else Errors.CE320.format(error=e))
    job_input = _ray_input(texts, input_path, input_format)
    shards = output is not None and (output.is_dir() or not output.suffix)
    if output_format == OutputFormat.parquet and not shards:
        fail_one_line(Errors.CE331)
    # one CPU per worker: no tokenizer threads (also quiets their warning when Ray forks)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:  # in this process first: a model that does not load fails before Ray starts
        load_resolver(settings["model"], base=settings["base"], scheme=settings["scheme"],
                      precision=settings["precision"])
    except (OSError, ValueError) as e:
        fail_one_line(Errors.CE207.format(model=settings["model"], base=settings["base"], error=e))
    options = JobOptions(output_format=output_format.value, **settings)
    out = None
    if output is not None and not shards:
        with _output_errors(output):
            output.parent.mkdir(parents=True, exist_ok=True)
            out = output.open("w", encoding="utf8")
    stream, directory = (out or _stdout(), None) if not shards else (None, output)
    try:
        summary = run_resolve_job(job_input, options=options, stream=stream, directory=directory)
    except (RuntimeError, ValueError, OSError) as e:  # incl. DataFormatError, CE328/CE329/CE333
        fail_one_line(str(e))
    finally:
        if out is not None:
            out.close()
    where = f" to {output}" if output is not None else ""
    typer.secho(
        f"\u2714 Wrote {summary.records} record(s){where} ({summary.errors} error record(s)) "
        f"with {summary.workers} Ray worker(s) in {summary.seconds:.1f}s",
        err=True,
    )


def _ray_input(
    texts: Optional[List[str]], input_path: Optional[str], input_format: Optional[InputFormat]
) -> "JobInput":
    """The `JobInput` of `resolve --ray`: arguments (checked here; a bad one gives an error
    record), stdin (read here), or a file or directory (read by Ray)."""
    from ..scaleout.job import JobInput

    fmt = input_format.value if input_format is not None else None
    if texts and input_path is not None:
        fail_one_line(Errors.CE205.format(path=input_path))
    if texts:
        arguments: List[Tuple[bytes, Optional[str]]] = []
        for i, text in enumerate(texts, start=1):
            try:
                record = read_arguments([text], input_format, start=i)[0]
                arguments.append((json.dumps(record, ensure_ascii=False).encode("utf8"), None))
            except DataFormatError as e:  # an error record, as for a bad line of a file
                arguments.append((text.encode("utf8", "surrogateescape"), str(e)))
        return JobInput(arguments=arguments)
    if input_path is None and sys.stdin.isatty():
        fail_one_line(Errors.CE204)
    if input_path is None or input_path == STDIN:
        data = _read_bytes(STDIN)
        if input_path is None and not data:  # stdin that was neither a tty nor given data
            fail_one_line(Errors.CE204)
        return JobInput(data=data, input_format=fmt)
    if not Path(input_path).exists():
        fail_one_line(Errors.CE202.format(path=input_path, error="No such file or directory"))
    return JobInput(path=Path(input_path), input_format=fmt)
