"""`spacy-coref metrics-table`: one markdown summary of the metrics JSON files in a directory."""
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from ..training.metrics_table import metrics_table, read_metrics_dir
from ._app import app, fail_one_line


@app.command("metrics-table")
def metrics_table_cli(
    # fmt: off
    metrics_dir: Path = typer.Argument(..., help="Directory of metrics JSON files (spacy-coref evaluate --output)", exists=True, file_okay=False),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the markdown here (default: print it)"),
    # fmt: on
) -> None:
    """Tabulate CoNLL and GAP metrics (both GAP settings) of every metrics file as markdown."""
    try:
        metrics, _ = read_metrics_dir(metrics_dir)
    except ValueError as e:
        fail_one_line(str(e))
    text = metrics_table(metrics)
    if output is None:
        print(text)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf8")
    msg.good(f"Saved {output} ({len(metrics)} metrics files)")
