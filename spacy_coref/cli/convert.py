"""`spacy-coref convert INPUT OUTPUT`: convert coreference data between formats."""
import warnings
from pathlib import Path
from typing import Dict

import typer
from wasabi import msg

from ..errors import DataFormatError
from ..formats import read_docs, write_docs
from ..formats.stats import corpus_stats
from ._app import app, fail_one_line


# fmt: off
@app.command("convert")
def convert_cli(
    input_path: Path = typer.Argument(..., help="Data file, or a directory of data files (CoNLL-2012 .conll/*_conll, GAP .tsv, .jsonl, .spacy)", exists=True),
    output_path: Path = typer.Argument(..., help="Output file; its name picks the format (.spacy, .conll, .jsonl, GAP .tsv)"),
) -> None:
    # fmt: on
    """Convert coreference data. The formats come from the file names; a directory is read
    whole, in name order, into one output file."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            counts = convert(input_path, output_path)
        except DataFormatError as e:
            fail_one_line(str(e))
    for warning in caught:
        msg.warn(str(warning.message))
    msg.good(
        f"Wrote {counts['documents']} docs, {counts['mentions']} mentions and "
        f"{counts['clusters']} clusters to {output_path}"
    )


def convert(input_path: Path, output_path: Path) -> Dict[str, int]:
    """Read every doc of the input and write them to the output.

    input_path (Path): A data file or a directory of them.
    output_path (Path): The output file.
    RETURNS (Dict[str, int]): Counts of what was written (see `corpus_stats`).
    """
    docs = read_docs(input_path)
    write_docs(docs, output_path)
    return corpus_stats(docs)

