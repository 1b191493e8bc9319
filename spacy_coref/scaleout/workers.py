"""The Ray Data workers (the optional extra: pip install 'spacy-s2e-coref[ray]'): the actor
that resolves batches, `map_workers` and `resolve_dataset`. The public entry point is
`spacy_coref.ray`, which re-exports the names of this module.

`resolve_dataset(ds)` adds to each row of a `ray.data.Dataset` the fields that
`spacy-coref resolve` writes: "clusters" (character offsets into the text), "resolved" and,
with `scores=True`, "scores", plus "error": null, or the coded reason where the row has no text
that can be resolved (those rows keep their place, with null results). It runs `map_batches`
with `CorefActor`, a callable class: each Ray actor loads the pipeline once, sets torch's
threads to its CPUs and resolves its batches with `nlp.pipe`, building the records with the
serial command's code (`spacy_coref.resolver`). A worker that dies is restarted
(`max_restarts`) and its batch run again (`max_task_retries`).

    import ray
    from spacy_coref.ray import resolve_dataset

    ds = ray.data.read_parquet("docs/").materialize()
    resolve_dataset(ds, concurrency=8).write_parquet("resolved/")

Ray Data's read tasks need a CPU each: while workers hold every CPU of the cluster, a read that
is still running waits for ever, so read the input first (`materialize()`, as above) or leave a
CPU free. Rows keep their order where the Dataset's context has
`execution_options.preserve_order` (`spacy-coref resolve --ray` sets it and also carries a row
index). docs/scale_out.md has the cluster commands and figures.
"""
import logging
import warnings
from typing import Any, Dict, List, Optional, Tuple

from ..errors import Errors

try:  # the optional extra
    import pyarrow as pa
    import ray.data
    from ray.util.annotations import RayDeprecationWarning
except ImportError as e:
    raise ImportError(Errors.CE320.format(error=e)) from e

import torch

from ..pipeline.loading import BASE_PIPELINE
from ..resolver import Record, load_resolver, resolve_records
from .records import (
    DATA,
    ERROR,
    FAILED,
    JSON,
    LINE,
    NAME,
    ROW,
    error_record,
    output_line,
    read_line_or_error,
)
from .units import PATH, GroupCache, expand_units

logger = logging.getLogger("spacy_coref")

MENTION_TYPE = pa.struct([("start", pa.int64()), ("end", pa.int64()), ("text", pa.string())])
CLUSTER_TYPE = pa.struct(
    [("id", pa.int64()), ("main", MENTION_TYPE), ("mentions", pa.list_(MENTION_TYPE))]
)
SCORE_TYPE = pa.struct(
    [("mention", MENTION_TYPE), ("antecedent", MENTION_TYPE), ("score", pa.float64())]
)
OUTPUT_TYPES = {
    "clusters": pa.list_(CLUSTER_TYPE),
    "resolved": pa.string(),
    "scores": pa.list_(SCORE_TYPE),
    "error": pa.string(),
}

Result = Tuple[Optional[Record], Optional[str]]  # the output record, or the reason it has none


def resolve_dataset(
    ds: "ray.data.Dataset",
    *,
    text_column: str = "text",
    model: str = "default",
    base: str = BASE_PIPELINE,
    scheme: Optional[str] = None,
    scores: bool = False,
    batch_size: int = 16,
    concurrency: int = 1,
    num_cpus_per_worker: int = 1,
    max_restarts: int = 3,
    max_task_retries: int = 3,
    precision: Optional[str] = None,
) -> "ray.data.Dataset":
    """Resolve coreference in every row of a Ray Dataset.

    ds (ray.data.Dataset): Rows with the text in `text_column`.
    text_column (str): The column with the text (strings; UTF-8 bytes are decoded).
    model (str): "default", "fast" or "accurate" (shipped), a pipeline directory or an
        installed package.
    base (str): The parser pipeline a coreference pipeline is stacked on.
    scheme (Optional[str]): The annotation scheme to follow (see `spacy-coref resolve`).
    scores (bool): Add "scores", the antecedent score of every scored mention pair.
    batch_size (int): Rows per batch of a worker (and per `nlp.pipe` batch).
    concurrency (int): Workers (Ray actors), each loading the pipeline once.
    num_cpus_per_worker (int): CPUs that Ray reserves per worker: its torch threads.
    max_restarts (int): How often Ray restarts a worker that died (-1: always).
    max_task_retries (int): How often a batch of a dead worker is run again (-1: always).
    precision (Optional[str]): The encoder's precision (see `spacy-coref resolve`).
    RETURNS (ray.data.Dataset): The input columns (without ones named "clusters",
        "resolved", "scores" or "error") and "clusters", "resolved", ["scores"], "error".
    """
    return map_workers(
        ds,
        dict(text_column=text_column, input_format=None),
        rows_per_call=batch_size,
        model=model,
        base=base,
        scheme=scheme,
        scores=scores,
        batch_size=batch_size,
        concurrency=concurrency,
        num_cpus_per_worker=num_cpus_per_worker,
        max_restarts=max_restarts,
        max_task_retries=max_task_retries,
        precision=precision,
    )


def map_workers(
    ds: "ray.data.Dataset",
    mode: Dict[str, Any],
    *,
    rows_per_call: Optional[int],
    model: str,
    base: str,
    scheme: Optional[str],
    scores: bool,
    batch_size: int,
    concurrency: int,
    num_cpus_per_worker: int,
    max_restarts: int,
    max_task_retries: int,
    worker: Optional[type] = None,
    precision: Optional[str] = None,
) -> "ray.data.Dataset":
    """`map_batches` with a pool of `CorefActor`s (`resolve_dataset`; `mode` holds the
    `CorefActor` arguments that choose column or line mode, and `rows_per_call` None gives a
    worker one block per call, see `scaleout.job`; `worker`: a subclass of `CorefActor`)."""
    for option, value in (
        ("batch_size", batch_size),
        ("concurrency", concurrency),
        ("num_cpus_per_worker", num_cpus_per_worker),
    ):
        if value < 1:
            raise ValueError(Errors.CE330.format(option=option, value=value))
    settings = dict(model=model, base=base, scheme=scheme, scores=scores, batch_size=batch_size)
    settings.update(precision=precision)
    with warnings.catch_warnings():
        # Ray 2.60 takes the actor options max_restarts and max_task_retries as `ray_remote_args`
        # only, which it deprecates (without a replacement yet): keep them, hide the warning
        warnings.simplefilter("ignore", RayDeprecationWarning)
        return ds.map_batches(
            worker or CorefActor,
            fn_constructor_kwargs=dict(settings, threads=num_cpus_per_worker, **mode),
            batch_size=rows_per_call,
            batch_format="pyarrow",
            compute=ray.data.ActorPoolStrategy(size=concurrency),
            num_cpus=num_cpus_per_worker,
            max_restarts=max_restarts,
            max_task_retries=max_task_retries,
        )


class CorefActor:
    """One Ray worker: loads the pipeline once, then resolves batches (pyarrow Tables).

    Column mode (`input_format` None): the text is in `text_column`; the output is the batch
    with the result columns. Line mode (`input_format` "text", "doc" or "jsonl", for
    `resolve --ray`): the rows are input lines (`scaleout.records`); the output is the row
    index, each output record as a JSON line (as the serial command writes it) and whether it
    is an error record. A batch of work units (`scaleout.units`) is first read into its rows.
    """

    def __init__(
        self,
        *,
        model: str,
        base: str,
        scheme: Optional[str],
        scores: bool,
        batch_size: int,
        threads: int,
        text_column: str = "text",
        input_format: Optional[str] = None,
        precision: Optional[str] = None,
    ) -> None:
        torch.set_num_threads(threads)
        self.nlp = load_resolver(
            model, base=base, scores=scores, scheme=scheme, precision=precision
        )
        self.scores = scores
        self.batch_size = batch_size
        self.text_column = text_column
        self.input_format = input_format
        self.cache: GroupCache = {}

    def __call__(self, batch: pa.Table) -> pa.Table:
        if PATH in batch.column_names:  # work units of `resolve --ray`: read their rows
            batch = expand_units(batch, self.input_format, self.cache)
        if self.input_format is None:
            return self.resolve_columns(batch)
        return self.resolve_lines(batch)

    def resolve_columns(self, batch: pa.Table) -> pa.Table:
        """The batch with "clusters", "resolved", ["scores"] and "error" (column mode)."""
        texts, errors = column_texts(batch, self.text_column)
        good = [i for i, error in enumerate(errors) if error is None]
        results = self.resolve([{"text": texts[i]} for i in good])
        outputs: List[Optional[Record]] = [None] * batch.num_rows
        for i, (record, error) in zip(good, results):
            outputs[i], errors[i] = record, error
        names = ["clusters", "resolved"] + (["scores"] if self.scores else [])
        table = batch.drop_columns([c for c in names + ["error"] if c in batch.column_names])
        for name in names:
            values = [None if out is None else out[name] for out in outputs]
            table = table.append_column(name, pa.array(values, type=OUTPUT_TYPES[name]))
        return table.append_column("error", pa.array(errors, type=pa.string()))

    def resolve_lines(self, batch: pa.Table) -> pa.Table:
        """Row index, output JSON line and error flag of each input line (line mode)."""
        columns = {name: batch.column(name).to_pylist() for name in (ROW, NAME, LINE, DATA, ERROR)}
        lines: List[Optional[str]] = [None] * batch.num_rows
        failed = [False] * batch.num_rows
        records: List[Record] = []
        positions: List[int] = []
        for i in range(batch.num_rows):
            record, bad = read_line_or_error(
                columns[DATA][i],
                name=columns[NAME][i],
                number=columns[LINE][i],
                input_format=self.input_format or "jsonl",
                error=columns[ERROR][i],
            )
            if bad is not None:
                lines[i], failed[i] = output_line(bad), True
            elif record is not None:
                records.append(record)
                positions.append(i)
        for i, record, (out, error) in zip(positions, records, self.resolve(records)):
            if out is None:
                out, failed[i] = error_record(error or "", record_id=record.get("id")), True
            lines[i] = output_line(out)
        return pa.table(
            {
                ROW: batch.column(ROW),
                JSON: pa.array(lines, type=pa.string()),
                FAILED: pa.array(failed, type=pa.bool_()),
            }
        )

    def resolve(self, records: List[Record]) -> List[Result]:
        """Resolve records with `nlp.pipe`. Where the pipeline raises, each record is resolved
        on its own, and the one it fails on gets CE323 instead of stopping the job."""
        try:
            outputs = resolve_records(
                self.nlp, records, batch_size=self.batch_size, scores=self.scores
            )
            return [(out, None) for _, out in outputs]
        except Exception as e:  # noqa: BLE001: one document must not end a job of millions
            if len(records) <= 1:
                logger.warning("The pipeline failed on a document: %r", e)
                return [(None, Errors.CE323.format(error=repr(e)))] * len(records)
        return [result for record in records for result in self.resolve([record])]


def column_texts(batch: pa.Table, column: str) -> Tuple[List[Optional[str]], List[Optional[str]]]:
    """The text of each row, or why it has none: CE321 (missing, null, not a string) or CE322
    (bytes that are not UTF-8).

    batch (pa.Table): The rows.
    column (str): The text column.
    RETURNS (Tuple[List[Optional[str]], List[Optional[str]]]): Texts and reasons, per row.
    """
    n = batch.num_rows
    if column not in batch.column_names:
        return [None] * n, [Errors.CE321.format(column=column, found="no such column")] * n
    texts: List[Optional[str]] = []
    errors: List[Optional[str]] = []
    for value in batch.column(column).to_pylist():
        text, error = _as_text(value, column)
        texts.append(text)
        errors.append(error)
    return texts, errors


def _as_text(value: Any, column: str) -> Tuple[Optional[str], Optional[str]]:
    if isinstance(value, str):
        return value, None
    if isinstance(value, bytes):
        try:
            return value.decode("utf8"), None
        except UnicodeDecodeError as e:
            return None, Errors.CE322.format(column=column, error=e.reason)
    found = "null" if value is None else f"a value of type {type(value).__name__}"
    return None, Errors.CE321.format(column=column, found=found)
