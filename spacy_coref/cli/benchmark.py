"""`spacy-coref benchmark`: words/s, docs/s and peak memory of the bare encoder, the coref
pipeline and fastcoref on one fixed document set; `--long` for long-document scaling."""
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional

import srsly
import typer
from wasabi import msg

from ..benchmark.run import run_benchmark, run_long
from ..errors import Errors
from ._app import app, fail_one_line

ROWS = (("parse", "parse (host pipeline, reported apart)"),
        ("encoder", "(a) bare encoder forward"),
        ("coref", "(b) coref on parsed docs"),
        ("fastcoref", "(c) fastcoref FCoref"))


# fmt: off
@app.command("benchmark")
def benchmark_cli(
    data_dir: Path = typer.Option(Path("../shared/data/unlabeled"), "--data", help="Unlabeled prose directory (*.jsonl)", exists=True),
    workdir: Path = typer.Option(Path("benchmark"), "--workdir", help="Where the document set and per-system results go"),
    output: Optional[Path] = typer.Option(None, "--output", help="Write all results as JSON"),
    n_docs: int = typer.Option(300, "--n-docs", help="Documents in the set"),
    seed: int = typer.Option(0, "--seed", help="Seed of the document set"),
    batch_size: int = typer.Option(32, "--batch-size", help="Documents per batch"),
    fastcoref_python: Optional[str] = typer.Option(None, "--fastcoref-python", help="python of the fastcoref environment; without it (or empty) (c) is skipped"),
    long: Optional[str] = typer.Option(None, "--long", help="Instead: one document per length in words, e.g. 10000,30000,100000"),
) -> None:
    # fmt: on
    """Measure the bare encoder, the coref pipeline and fastcoref on the same documents, each in
    a fresh process; or, with --long, time and memory on single long documents."""
    if long is not None:
        results = run_long(data_dir, workdir, parse_lengths(long), batch_size=batch_size)
        print_long(results)
    else:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            results = run_benchmark(data_dir, workdir, n_docs=n_docs, seed=seed,
                                    batch_size=batch_size,
                                    fastcoref_python=optional_path(fastcoref_python))
        for warning in caught:
            msg.warn(str(warning.message))
        print_table(results)
    if output is not None:
        srsly.write_json(output, results)
        msg.good(f"Results written to {output}")


def optional_path(value: Optional[str]) -> Optional[Path]:
    """None for a missing or empty value: project.yml passes '' for "no fastcoref environment"."""
    return Path(value) if value else None


def parse_lengths(value: str) -> List[int]:
    """'10000,30000' -> [10000, 30000]; a clear error otherwise."""
    parts = [part.strip() for part in value.split(",") if part.strip()]
    if not parts or not all(part.isdigit() and int(part) > 0 for part in parts):
        fail_one_line(Errors.CE244.format(value=value))
    return [int(part) for part in parts]


def print_table(results: Dict[str, Any]) -> None:
    rows = []
    for key, label in ROWS:
        if key in results:
            r = results[key]
            rows.append((label, f"{r['words_per_s']:,.0f}", f"{r['docs_per_s']:.2f}",
                         f"{r['peak_rss_mb']:,.0f}", f"{r['peak_above_loaded_mb']:,.0f}"))
    header = ("system", "words/s", "docs/s", "peak RSS MB", "above loaded MB")
    msg.table(rows, header=header, aligns=("l", "r", "r", "r", "r"), divider=True)
    enc = results["encoder"]
    msg.info(f"padded fraction of tokens: naive {enc['padded_fraction_naive']:.1%}, "
             f"token-budget sub-batches {enc['padded_fraction_planned']:.1%}")
    for name, value in results["ratios"].items():
        msg.info(f"{name}: {value:.2f}")


def print_long(results: Dict[str, Any]) -> None:
    rows = [(f"{row['words']:,}", f"{row['parse']['seconds']:.1f}",
             f"{row['coref']['seconds']:.1f}", f"{row['coref_s_per_1k_words']:.3f}",
             f"{row['coref']['peak_above_loaded_mb']:,.0f}") for row in results["long"]]
    header = ("words", "parse s", "coref s", "coref s / 1k words", "coref peak above loaded MB")
    msg.table(rows, header=header, aligns=("r", "r", "r", "r", "r"), divider=True)
