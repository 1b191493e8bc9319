"""`spacy-coref convert INPUT OUTPUT`: convert coreference data between formats."""
import warnings
from pathlib import Path
from typing import Dict, Optional

import typer
from wasabi import msg

from ..annotations import set_scheme
from ..errors import DataFormatError
from ..formats import read_docs, write_docs
from ..formats.stats import corpus_stats
from ._app import app, fail_one_line


# fmt: off
@app.command("convert")
def convert_cli(
    input_path: Path = typer.Argument(..., help="Data file, or a directory of data files (CoNLL-2012 .conll/*_conll, GAP .tsv, .jsonl, .spacy)", exists=True),
    output_path: Path = typer.Argument(..., help="Output file; its name picks the format (.spacy, .conll, .jsonl, GAP .tsv)"),
    scheme: Optional[str] = typer.Option(None, "--scheme", help="Annotation scheme the documents follow, stored with them in .spacy output (e.g. ontonotes, litbank): a model with schemes learns each one apart"),
) -> None:
    # fmt: on
    """Convert coreference data. The formats come from the file names; a directory is read
    whole, in name order, into one output file."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            counts = convert(input_path, output_path, scheme=scheme)
        except DataFormatError as e:
            fail_one_line(str(e))
    for warning in caught:
        msg.warn(str(warning.message))
    msg.good(
        f"Wrote {counts['documents']} docs, {counts['mentions']} mentions and "
        f"{counts['clusters']} clusters to {output_path}"
    )


def convert(input_path: Path, output_path: Path, *, scheme: Optional[str] = None) -> Dict[str, int]:
    """Read every doc of the input and write them to the output.

    input_path (Path): A data file or a directory of them.
    output_path (Path): The output file.
    scheme (Optional[str]): the annotation scheme of the docs (doc.user_data["coref_scheme"];
        kept by .spacy output only); None: as read.
    RETURNS (Dict[str, int]): Counts of what was written (see `corpus_stats`).
    """
    docs = read_docs(input_path)
    if scheme is not None:
        for doc in docs:
            set_scheme(doc, scheme)
    write_docs(docs, output_path)
    return corpus_stats(docs)

