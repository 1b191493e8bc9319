import typer

app = typer.Typer(
    name="spacy-coref",
    help="Coreference resolution for spaCy: convert data, score, inspect mentions, resolve text.",
    no_args_is_help=True,
    add_completion=False,
)
