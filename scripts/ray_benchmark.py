"""Words per second of `spacy_coref.ray` with 1, 2, ... workers on this machine, start-up apart,
beside one serial process (`spacy_coref.benchmark.ray_throughput`). Needs the extra spacy-s2e-coref[ray].

    python scripts/ray_benchmark.py --data ../shared/data/unlabeled --n-docs 240 \
        --workers 1,2 --output ray_benchmark.json

Each worker count runs on a fresh local Ray. The figures, the machine (`nproc`, CPU model) and
the load averages before and after go to --output as JSON; docs/scale_out.md quotes them.
"""
import json
import os
import platform
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer

from spacy_coref.benchmark.ray_throughput import benchmark_texts, run_serial, run_workers

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "unlabeled"


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def main(
    # fmt: off
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="Unlabeled prose: a .jsonl file or a directory of them"),
    n_docs: int = typer.Option(240, "--n-docs", help="Documents"),
    min_words: int = typer.Option(250, "--min-words", help="Words per document, at least (whole paragraphs)"),
    workers: str = typer.Option("1,2", "--workers", help="Worker counts to run, comma-separated"),
    batch_size: int = typer.Option(16, "--batch-size", "-b", help="Documents per batch"),
    serial: bool = typer.Option(True, "--serial/--no-serial", help="Also run one serial process (1 torch thread)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="JSON file for the figures"),
    # fmt: on
) -> None:
    texts = benchmark_texts(data, n_docs=n_docs, min_words=min_words)
    report: Dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": {"nproc": os.cpu_count(), "cpu": cpu_model(), "load_before": os.getloadavg()},
        "docs": len(texts),
        "words": sum(len(text.split()) for text in texts),
        "runs": [],
    }
    counts: List[int] = [int(n) for n in workers.split(",")]
    if serial:
        report["runs"].append(run_serial(texts, batch_size=batch_size, threads=1))
        typer.echo(json.dumps(report["runs"][-1]))
    for n in counts:
        report["runs"].append(run_workers(texts, workers=n, batch_size=batch_size))
        typer.echo(json.dumps(report["runs"][-1]))
    report["machine"]["load_after"] = os.getloadavg()
    if output is not None:
        output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf8")
    typer.echo(json.dumps(report["machine"]))


if __name__ == "__main__":
    typer.run(main)
