"""Throughput of `spacy_coref.ray` on this machine (`scripts/ray_benchmark.py`): words per second
of 1..N workers on a local Ray, with the start-up apart, and of one serial process.

Start-up: starting Ray, starting the workers and loading the pipeline in each, until the first
batch starts. Throughput: the words of all documents over the time from the first batch's start
to the last batch's end (all workers together), and per worker: its words over the time it spent
in batches. The workers time their batches themselves (`TimedCorefActor`).
"""
import json
import logging
import os
import time
from pathlib import Path
from typing import Any, Dict, List

import pyarrow as pa
import ray
import ray.data
import torch

from ..scaleout.workers import CorefActor, map_workers
from ..resolver import load_resolver
from ..pipeline.loading import BASE_PIPELINE

T0, T1, PID, WORDS = "_bench_t0", "_bench_t1", "_bench_pid", "_bench_words"


def benchmark_texts(data: Path, *, n_docs: int, min_words: int) -> List[str]:
    """Documents of consecutive paragraphs of the unlabeled prose, `min_words` words or more.

    data (Path): A .jsonl file or a directory of them, {"id": ..., "text": ...} per line.
    n_docs (int): How many documents.
    min_words (int): The words of a document, at least (whole paragraphs).
    RETURNS (List[str]): The documents, in file order.
    """
    files = sorted(data.glob("*.jsonl")) if data.is_dir() else [data]
    docs: List[str] = []
    for path in files:
        for line in path.read_text(encoding="utf8").splitlines():
            paragraphs: List[str] = []
            for paragraph in json.loads(line)["text"].split("\n\n"):
                paragraphs.append(paragraph)
                if sum(len(p.split()) for p in paragraphs) >= min_words:
                    docs.append("\n\n".join(paragraphs))
                    paragraphs = []
                if len(docs) == n_docs:
                    return docs
    return docs


class TimedCorefActor(CorefActor):
    """A worker that adds when each batch started and ended, its process and its words."""

    def __call__(self, batch: pa.Table) -> pa.Table:
        start = time.time()
        out = super().__call__(batch)
        n = out.num_rows
        words = [len(text.split()) for text in batch.column("text").to_pylist()]
        out = out.append_column(T0, pa.array([start] * n, pa.float64()))
        out = out.append_column(T1, pa.array([time.time()] * n, pa.float64()))
        out = out.append_column(PID, pa.array([os.getpid()] * n, pa.int64()))
        return out.append_column(WORDS, pa.array(words, pa.int64()))


def run_workers(
    texts: List[str],
    *,
    workers: int,
    batch_size: int,
    model: str = "default",
    base: str = BASE_PIPELINE
) -> Dict[str, Any]:
    """Resolve the texts on a fresh local Ray with `workers` workers of one CPU each.

    RETURNS (Dict[str, Any]): The figures (seconds, words/s).
    """
    start = time.time()
    ray.init(address="local", include_dashboard=False, logging_level=logging.WARNING)
    ray_start = time.time() - start
    blocks = [
        pa.table({"text": texts[i : i + batch_size]}) for i in range(0, len(texts), batch_size)
    ]
    resolved = map_workers(
        ray.data.from_arrow(blocks),
        dict(text_column="text", input_format=None),
        rows_per_call=None,
        worker=TimedCorefActor,
        model=model,
        base=base,
        scheme=None,
        scores=False,
        batch_size=batch_size,
        concurrency=workers,
        num_cpus_per_worker=1,
        max_restarts=0,
        max_task_retries=0,
    )
    columns = [T0, T1, PID, WORDS]
    batches = resolved.iter_batches(batch_size=None, batch_format="pyarrow")
    rows = [row for batch in batches for row in pa.table(batch).select(columns).to_pylist()]
    end = time.time()
    ray.shutdown()
    return _figures(rows, start=start, end=end, ray_start=ray_start, workers=workers)


def _figures(
    rows: List[Dict[str, Any]], *, start: float, end: float, ray_start: float, workers: int
) -> Dict[str, Any]:
    words = sum(row[WORDS] for row in rows)
    first, last = min(row[T0] for row in rows), max(row[T1] for row in rows)
    batches = {(row[PID], row[T0], row[T1]) for row in rows}
    per_worker = []
    for pid in {row[PID] for row in rows}:
        busy = sum(t1 - t0 for p, t0, t1 in batches if p == pid)
        per_worker.append(sum(row[WORDS] for row in rows if row[PID] == pid) / busy)
    return {
        "workers": workers,
        "docs": len(rows),
        "words": words,
        "ray_start_s": round(ray_start, 2),
        "startup_s": round(first - start, 2),  # Ray, the workers, the pipelines: to 1st batch
        "run_s": round(last - first, 2),
        "total_s": round(end - start, 2),
        "words_per_s": round(words / (last - first)),
        "words_per_s_per_worker": [round(rate) for rate in sorted(per_worker)],
    }


def run_serial(
    texts: List[str],
    *,
    batch_size: int,
    threads: int,
    model: str = "default",
    base: str = BASE_PIPELINE
) -> Dict[str, Any]:
    """Resolve the texts in this process with `nlp.pipe` and `threads` torch threads.

    RETURNS (Dict[str, Any]): The figures (seconds, words/s).
    """
    saved = torch.get_num_threads()
    torch.set_num_threads(threads)
    start = time.time()
    nlp = load_resolver(model, base=base)
    loaded = time.time()
    docs = list(nlp.pipe(texts, batch_size=batch_size))
    end = time.time()
    torch.set_num_threads(saved)
    words = sum(len(text.split()) for text in texts)
    return {
        "serial_threads": threads,
        "docs": len(docs),
        "words": words,
        "startup_s": round(loaded - start, 2),
        "run_s": round(end - loaded, 2),
        "words_per_s": round(words / (end - loaded)),
    }
