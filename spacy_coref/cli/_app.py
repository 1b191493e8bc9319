"""The typer app that every command module registers on, and what the commands share."""
from typing import NoReturn

import typer

app = typer.Typer(
    name="spacy-coref",
    help="Coreference resolution for spaCy: convert data, score, inspect mentions, resolve text.",
    no_args_is_help=True,
    add_completion=False,
)


def fail_one_line(message: str) -> NoReturn:
    """Print an error to stderr on one line and exit with status 1. (wasabi's `msg.fail` wraps
    at 80 columns, which splits a `file:line` message; stdout stays clean for `--json`.)

    message (str): The message; line breaks in it become spaces.
    """
    text = " ".join(line.strip() for line in message.splitlines() if line.strip())
    typer.secho(f"\u2718 {text}", fg=typer.colors.RED, err=True)
    raise typer.Exit(1)
