"""`spacy-coref make-corpus`: the training and dev corpora from the shared data."""
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..errors import DataFormatError
from ..training.corpus import GUM_COMMERCIAL_GENRES, build_corpus
from ._app import app, fail_one_line


@app.command("make-corpus")
def make_corpus_cli(
    # fmt: off
    data_dir: Path = typer.Argument(..., help="Data directory with litbank/, gum/ and gap/", exists=True, file_okay=False),
    output_dir: Path = typer.Argument(..., help="Output directory for the .spacy files"),
    genres: Optional[List[str]] = typer.Option(None, "--genre", help="GUM genre to train on (repeatable); default: the genres whose texts allow commercial use (academic, bio, court, interview, news, speech, textbook, vlog, voyage)"),
    # fmt: on
) -> None:
    """Convert LitBank, GUM and GAP to train/, dev/ and gap-dev/ .spacy files (and dev-all/,
    the dev files together), and GUM's training documents of the genres left out of train/ to
    fresh/gum.spacy: a check that no checkpoint or decoding setting was selected on."""
    try:
        counts = build_corpus(data_dir, output_dir, genres=genres or GUM_COMMERCIAL_GENRES)
    except DataFormatError as e:
        fail_one_line(str(e))
    for name, n in counts.items():
        msg.good(f"{output_dir / name}: {n} documents")
