"""`spacy-coref stats DATA`: corpus statistics of coreference data."""
import warnings
from pathlib import Path
from typing import Dict

import srsly
import typer
from wasabi import msg

from ..errors import DataFormatError
from ..formats import read_docs
from ..formats.stats import data_stats
from ._app import app, fail_one_line

LABELS = {
    "documents": "Documents",
    "tokens": "Tokens",
    "sentences": "Sentences",
    "mentions": "Mentions",
    "clusters": "Clusters (with singletons)",
    "singletons": "Singleton clusters",
    "nested_mentions": "Nested mentions",
    "longest_doc": "Longest document (tokens)",
    "examples": "GAP examples",
    "words": "GAP words (whitespace-separated, as in the GAP papers)",
    "labelled_spans": "GAP labelled spans",
    "a_true": "A true",
    "b_true": "B true",
    "neither": "Neither",
    "feminine": "Feminine pronouns",
    "masculine": "Masculine pronouns",
}


# fmt: off
@app.command("stats")
def stats_cli(
    data_path: Path = typer.Argument(..., help="Data file, or a directory of data files", exists=True),
    json_output: bool = typer.Option(False, "--json", help="Print the counts as JSON"),
) -> None:
    # fmt: on
    """Count documents, tokens, mentions, clusters, singletons and nested mentions (and GAP's
    examples, labels and pronoun genders for GAP files)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            counts = stats(data_path)
        except DataFormatError as e:
            fail_one_line(str(e))
    if json_output:
        # Warnings go to stderr so that stdout stays valid JSON.
        for warning in caught:
            typer.echo(str(warning.message), err=True)
        typer.echo(srsly.json_dumps(counts, indent=2))
        return
    for warning in caught:
        msg.warn(str(warning.message))
    rows = [(LABELS.get(key, key), f"{value:,}") for key, value in counts.items()]
    msg.table(rows, title=str(data_path), aligns=("l", "r"))


def stats(data_path: Path) -> Dict[str, int]:
    """The counts of `spacy_coref.formats.stats.data_stats` over a data file or directory.

    data_path (Path): A data file or a directory of them.
    RETURNS (Dict[str, int]): The counts.
    """
    return data_stats(read_docs(data_path))
