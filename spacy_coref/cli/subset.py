"""`spacy-coref subset INPUT OUTPUT --n-docs N`: the first documents of a corpus."""
from pathlib import Path

import typer
from wasabi import msg

from ..errors import DataFormatError
from ..training.smoke import write_subset
from ._app import app, fail_one_line


@app.command("subset")
def subset_cli(
    # fmt: off
    input_path: Path = typer.Argument(..., help="Data file, or a directory of data files (CoNLL-2012, GAP .tsv, .jsonl, .spacy)", exists=True),
    output_path: Path = typer.Argument(..., help="Output file; its name picks the format"),
    n_docs: int = typer.Option(..., "--n-docs", "-n", help="How many documents to keep, from the first (in file name order)"),
    # fmt: on
) -> None:
    """Write the first N documents of a corpus, e.g. for a quick smoke run."""
    try:
        counts = write_subset(input_path, output_path, n_docs=n_docs)
    except (DataFormatError, ValueError) as e:
        fail_one_line(str(e))
    msg.good(f"Wrote {counts['documents']} docs, {counts['mentions']} mentions to {output_path}")
