"""`spacy-coref resolve --ray`: the job behind the command line.

The driver lists the inputs, and Ray tasks cut each input file into work units of a batch of
lines or parquet rows (`units`), before any worker starts. Each row gets its position in the
whole input (`records.ROW`). The Ray workers (`workers`) read their units and resolve them;
the output is either one jsonl stream that the driver writes in input order (rows that come
early wait in a buffer until the rows before them are written), or shards that Ray tasks write,
each named by its first row (`part-000000000000.jsonl`), so that their names sort in input
order. Either way the driver checks that every input row came back exactly once (CE329).
"""
import json
import logging
import os
import socket
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, TextIO, Tuple

import pyarrow as pa
import pyarrow.parquet as pq
import ray
import ray.data

from ..errors import Errors
from ..resolver import Record
from ..pipeline.loading import BASE_PIPELINE
from .records import (
    FAILED,
    JSON,
    ROW,
    error_record,
    input_kind,
    list_input_files,
    output_line,
    split_input,
)
from .units import UNIT_COLUMNS, line_table, line_units, parquet_units
from .workers import OUTPUT_TYPES, map_workers

# Ray CPUs of the tasks that write shards while the workers run: the workers hold the CPUs, and
# these tasks mostly wait for the disk. Their number is capped by IO_TASKS instead.
IO_CPUS = 0
IO_TASKS = 2
CONNECT_TIMEOUT_S = 10
MAX_BLOCKS = 20000  # blocks of the input Dataset: a block holds several units beyond it
SHARD_GLOB = "part-*"

Line = Tuple[int, Optional[str], bool]  # row, output JSON line (None: no record), error record


@dataclass
class JobOptions:
    """The settings of a job (the options of `spacy-coref resolve --ray`)."""

    model: str = "default"
    base: str = BASE_PIPELINE
    scheme: Optional[str] = None
    precision: Optional[str] = None
    scores: bool = False
    batch_size: int = 16
    workers: Optional[int] = None  # None: one per `cpus_per_worker` CPUs of the cluster
    cpus_per_worker: int = 1
    address: Optional[str] = None  # None: a local Ray
    output_format: str = "jsonl"  # of shards: "jsonl" or "parquet"
    shard_size: int = 10000
    max_restarts: int = 3
    max_task_retries: int = 3


@dataclass
class JobInput:
    """What to resolve: a file or a directory (`path`), an input read already (`data`, e.g.
    stdin), or texts given as arguments, checked already (`arguments`: the JSON of each
    record, or its bytes and the reason it is bad)."""

    path: Optional[Path] = None
    data: Optional[bytes] = None
    name: str = "<stdin>"
    input_format: Optional[str] = None
    arguments: Optional[List[Tuple[bytes, Optional[str]]]] = None


@dataclass
class JobSummary:
    records: int = 0  # output records, error records included
    errors: int = 0  # error records
    workers: int = 0
    startup_s: float = 0.0  # starting or joining Ray and cutting the input into units
    seconds: float = 0.0  # the whole job
    shards: List[str] = field(default_factory=list)


def run_resolve_job(
    job_input: JobInput,
    *,
    options: JobOptions,
    stream: Optional[TextIO] = None,
    directory: Optional[Path] = None,
) -> JobSummary:
    """Resolve the input on Ray, writing jsonl records to `stream` in input order, or shards
    into `directory`.

    job_input (JobInput): The input.
    options (JobOptions): The settings.
    stream (Optional[TextIO]): Where one jsonl output goes.
    directory (Optional[Path]): Where shards go (instead of `stream`).
    RETURNS (JobSummary): What was written.
    """
    start = time.perf_counter()
    if directory is not None:
        _check_shard_directory(directory)
    summary = JobSummary()
    with ray_session(options.address), _data_context():
        inputs = input_dataset(job_input, options.batch_size)
        workers = options.workers or default_workers(options.cpus_per_worker)
        summary.workers = min(workers, inputs.blocks)  # a worker takes a block at a time
        summary.startup_s = time.perf_counter() - start
        if inputs.rows == 0:  # empty input files: nothing to resolve, no output
            summary.workers = 0
            if directory is not None:
                directory.mkdir(parents=True, exist_ok=True)
        elif directory is None:
            resolved = _resolved(inputs, options, summary.workers)
            summary.records, summary.errors = write_stream(
                resolved, stream or sys.stdout, inputs.rows
            )
        else:
            resolved = _resolved(inputs, options, summary.workers)
            shards = write_shards(resolved, directory, options, inputs.rows)
            summary.records = sum(shard["records"] for shard in shards)
            summary.errors = sum(shard["errors"] for shard in shards)
            summary.shards = [shard["path"] for shard in shards if shard["path"]]
    summary.seconds = time.perf_counter() - start
    return summary


def _resolved(inputs: "Inputs", options: JobOptions, workers: int) -> "ray.data.Dataset":
    """The workers' output: line mode for text, doc and jsonl inputs, else column mode."""
    return map_workers(
        inputs.ds,
        dict(text_column="text", input_format=inputs.input_format),
        rows_per_call=None,
        model=options.model,
        base=options.base,
        scheme=options.scheme,
        precision=options.precision,
        scores=options.scores,
        batch_size=options.batch_size,
        concurrency=workers,
        num_cpus_per_worker=options.cpus_per_worker,
        max_restarts=options.max_restarts,
        max_task_retries=options.max_task_retries,
    )


@contextmanager
def ray_session(address: Optional[str]) -> Iterator[None]:
    """Use the Ray this process has joined already, else join the cluster at `address`, else
    start a local Ray; leave it (and stop a local one) at the end."""
    if ray.is_initialized():
        yield
        return
    _check_reachable(address)
    try:
        ray.init(
            address=address or "local",
            include_dashboard=False,
            logging_level=logging.WARNING,
        )
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise RuntimeError(Errors.CE333.format(address=address or "local", error=e)) from e
    try:
        yield
    finally:
        ray.shutdown()


def _check_reachable(address: Optional[str]) -> None:
    """CE333 at once where nothing listens at a host:port address (Ray itself would try to
    connect for minutes)."""
    if address is None or ":" not in address or "://" in address:
        return  # a local Ray, "auto" (the address `ray start` wrote on this machine), a URI
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except (OSError, ValueError) as e:
        raise RuntimeError(Errors.CE333.format(address=address, error=e)) from e


@contextmanager
def _data_context() -> Iterator[None]:
    """Ray Data keeps the input order (the workers may finish out of order)."""
    context = ray.data.DataContext.get_current()
    saved = context.execution_options.preserve_order
    context.execution_options.preserve_order = True
    try:
        yield
    finally:
        context.execution_options.preserve_order = saved


def default_workers(cpus_per_worker: int) -> int:
    """One worker per `cpus_per_worker` CPUs of the Ray cluster (at least one)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)) // cpus_per_worker)


class Inputs(NamedTuple):
    ds: "ray.data.Dataset"  # work units, or line rows
    rows: int  # input rows
    input_format: Optional[str]  # "text", "doc", "jsonl" (line mode); None: parquet columns
    blocks: int  # blocks of `ds`: a worker takes one at a time


def input_dataset(job_input: JobInput, unit_rows: int) -> Inputs:
    """The input as a Dataset of work units (files) or of line rows (stdin, arguments).

    job_input (JobInput): The input.
    unit_rows (int): Rows per work unit and per block of line rows.
    RETURNS (Inputs): The Dataset, its input rows, how the workers read them, its blocks.
    """
    if job_input.arguments is not None:
        rows = job_input.arguments
        names = [f"argument {i}" for i in range(1, len(rows) + 1)]
        errors = [error for _, error in rows]
        table = line_table([data for data, _ in rows], names=names, errors=errors)
        ds, blocks = _in_blocks(table, unit_rows)
        return Inputs(ds, rows=len(rows), input_format="jsonl", blocks=blocks)
    if job_input.data is not None:
        input_format = job_input.input_format or "text"
        lines = split_input(job_input.data, input_format)
        table = line_table(lines, names=[job_input.name] * len(lines))
        ds, blocks = _in_blocks(table, unit_rows)
        return Inputs(ds, rows=len(lines), input_format=input_format, blocks=blocks)
    if job_input.path is None:
        raise ValueError(Errors.CE204)
    return _units_dataset(job_input.path, job_input.input_format, unit_rows)


def _units_dataset(path: Path, input_format: Optional[str], unit_rows: int) -> Inputs:
    if path.is_dir():
        files, kind = list_input_files(path)
    else:
        files, kind = [path], input_kind(path, input_format)
    try:
        per_file = ray.get([_cut_file.remote(str(p), kind, unit_rows) for p in files])
    except ray.exceptions.RayTaskError as e:  # a file that cannot be read: its own error, CE332
        raise e.cause from e
    columns: Dict[str, List[Any]] = {name: [] for name in UNIT_COLUMNS}
    total = 0
    for file, units in zip(files, per_file):
        line = 1
        for group, start, size, rows in units:
            values = (str(file), group, start, size, rows, total, line)
            for name, value in zip(UNIT_COLUMNS, values):
                columns[name].append(value)
            total += rows
            line += rows
    table = pa.table({name: pa.array(values) for name, values in columns.items()})
    input_format = None if kind == "parquet" else kind
    ds, blocks = _in_blocks(table, 1)
    return Inputs(ds, rows=total, input_format=input_format, blocks=blocks)


@ray.remote
def _cut_file(path: str, kind: str, unit_rows: int) -> List[Tuple[int, int, int, int]]:
    """The work units of an input file: (row group, start, size, rows) each."""
    if kind == "parquet":
        return [(group, start, 0, n) for group, start, n in parquet_units(Path(path), unit_rows)]
    data = Path(path).read_bytes()
    return [(-1, start, size, n) for start, size, n in line_units(data, kind, unit_rows)]


def _in_blocks(table: pa.Table, rows_per_block: int) -> Tuple["ray.data.Dataset", int]:
    """A Dataset of the table in blocks of `rows_per_block` rows (a worker takes a block per
    call), at most MAX_BLOCKS of them; and the number of blocks."""
    n = table.num_rows
    rows_per_block = max(rows_per_block, -(-n // MAX_BLOCKS))
    blocks = [table.slice(i, rows_per_block) for i in range(0, n, rows_per_block)] or [table]
    return ray.data.from_arrow(blocks), len(blocks)


def batch_lines(batch: pa.Table) -> List[Line]:
    """The output JSON lines of a batch of results (line mode or column mode)."""
    if JSON in batch.column_names:
        columns = [batch.column(name).to_pylist() for name in (ROW, JSON, FAILED)]
        return [(row, line, failed) for row, line, failed in zip(*columns)]
    lines: List[Line] = []
    for row in batch.to_pylist():
        position = row.pop(ROW)
        record, failed = _column_record(row)
        lines.append((position, output_line(record), failed))
    return lines


def _column_record(row: Record) -> Tuple[Record, bool]:
    """The output record of a column-mode row: the row without "error", or its error record."""
    error = row.pop("error", None)
    if error is None:
        return row, False
    return error_record(error, record_id=row.get("id")), True


def write_stream(resolved: "ray.data.Dataset", stream: TextIO, total: int) -> Tuple[int, int]:
    """Write the output records as jsonl in input order.

    resolved (ray.data.Dataset): The workers' output.
    stream (TextIO): Where to write.
    total (int): The number of input rows.
    RETURNS (Tuple[int, int]): The records written, and how many of them are error records.
    """
    pending: Dict[int, Tuple[Optional[str], bool]] = {}
    next_row = records = errors = 0
    for batch in resolved.iter_batches(batch_size=None, batch_format="pyarrow"):
        for position, line, failed in batch_lines(batch):
            pending[position] = (line, failed)
        while next_row in pending:  # rows that came early wait for the ones before them
            line, failed = pending.pop(next_row)
            next_row += 1
            if line is not None:
                stream.write(line + "\n")
                records += 1
                errors += failed
    if next_row != total or pending:
        detail = f" (the first one missing is row {next_row})" if next_row < total else ""
        raise RuntimeError(Errors.CE329.format(found=next_row, expected=total, detail=detail))
    return records, errors


def _check_shard_directory(directory: Path) -> None:
    if directory.is_dir():
        existing = sorted(p.name for p in directory.glob(SHARD_GLOB))
        if existing:
            raise ValueError(Errors.CE328.format(path=directory, examples=", ".join(existing[:3])))


def write_shards(
    resolved: "ray.data.Dataset", directory: Path, options: JobOptions, total: int
) -> List[Dict[str, Any]]:
    """Write the output as shards of `options.shard_size` input rows (rounded up to whole
    batches; fewer where blocks end early, as at the end of a file), named by their first row.

    resolved (ray.data.Dataset): The workers' output.
    directory (Path): The output directory (every machine of the cluster writes into it).
    options (JobOptions): The shard format and size.
    total (int): The number of input rows.
    RETURNS (List[Dict[str, Any]]): Per shard: "path" ("" where it has no records), "first"
        and "rows" (its input rows), "records" and "errors".
    """
    directory.mkdir(parents=True, exist_ok=True)
    # whole blocks of one batch each, so that no shard is a remainder of a few rows
    rows_per_shard = -(-options.shard_size // options.batch_size) * options.batch_size
    # (the keyword arguments of _write_shard come with fn_kwargs)
    shards = resolved.map_batches(
        _write_shard,  # type: ignore[arg-type]
        batch_size=rows_per_shard,
        batch_format="pyarrow",
        num_cpus=IO_CPUS,
        compute=ray.data.TaskPoolStrategy(size=IO_TASKS),
        fn_kwargs=dict(directory=str(directory), output_format=options.output_format),
    ).take_all()
    shards.sort(key=itemgetter("first"))
    position = 0
    for shard in shards:  # together, the shards hold every input row once, in order
        if shard["first"] != position:
            break
        position += shard["rows"]
    if position != total or sum(shard["rows"] for shard in shards) != total:
        detail = f" (the first one missing is row {position})" if position < total else ""
        raise RuntimeError(Errors.CE329.format(found=position, expected=total, detail=detail))
    return shards


def _write_shard(batch: pa.Table, *, directory: str, output_format: str) -> pa.Table:
    """Write one shard (to a temporary name, then renamed: a retried task writes it again)."""
    batch = batch.sort_by(ROW)
    lines = batch_lines(batch)
    positions = [position for position, _, _ in lines]
    written = [(line, failed) for _, line, failed in lines if line is not None]
    path = Path(directory) / f"part-{positions[0]:012d}.{output_format}"
    if written:
        temporary = path.with_name(f".{path.name}.tmp")
        if output_format == "parquet":
            table = _parquet_table(batch, [line for line, _ in written])
            pq.write_table(table, temporary)
        else:
            temporary.write_text("".join(line + "\n" for line, _ in written), encoding="utf8")
        os.replace(temporary, path)
    return pa.table(
        {
            "path": [str(path) if written else ""],
            "first": [positions[0]],
            "rows": [len(positions)],
            "records": [len(written)],
            "errors": [sum(failed for _, failed in written)],
        }
    )


def _parquet_table(batch: pa.Table, lines: List[str]) -> pa.Table:
    """Column mode: the result columns as they are. Line mode: a table of the records, with the
    result columns typed (so that every shard has the same types for them)."""
    if JSON not in batch.column_names:
        return batch.drop_columns([ROW])
    records = [json.loads(line) for line in lines]
    names = list(dict.fromkeys(key for record in records for key in record))
    names += [name for name in ("clusters", "resolved", "error") if name not in names]
    return pa.table({name: _column([r.get(name) for r in records], name) for name in names})


def _column(values: List[Any], name: str) -> pa.Array:
    """An Arrow column of values: typed for the result fields; values that Arrow cannot hold
    in one column (mixed types) as JSON strings."""
    try:
        return pa.array(values, type=OUTPUT_TYPES.get(name))
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
        encoded = [None if v is None else json.dumps(v, ensure_ascii=False) for v in values]
        return pa.array(encoded, type=pa.string())
