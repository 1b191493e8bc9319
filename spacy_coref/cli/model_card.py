"""`spacy-coref model-card`: write the model card (license, sources with citations, dev scores
from `spacy-coref evaluate` metrics files) into a pipeline's meta.json, in place (with
LICENSES.md beside it) or into another file for `spacy package --meta-path`."""
from pathlib import Path
from typing import List, Optional

import typer
from wasabi import msg

from ..model_card import LICENSES_FILE, NAMES, model_card, write_model_card
from ._app import app, fail_one_line


@app.command("model-card")
def model_card_cli(
    # fmt: off
    model_dir: Path = typer.Argument(..., help="A pipeline directory with a meta.json (e.g. spacy_coref/default_model)", exists=True, file_okay=False),
    metrics: Optional[Path] = typer.Option(None, "--metrics", help="Directory of `spacy-coref evaluate --output` files: <prefix>_litbank.json, <prefix>_gum.json, <prefix>_gap.json (without it the card has no scores)", exists=True, file_okay=False),
    prefix: Optional[str] = typer.Option(None, "--prefix", help="File name prefix of the metrics files (default: the --kind, e.g. accurate_litbank.json)"),
    name: Optional[str] = typer.Option(None, "--name", help=f"Model name (spacy package prefixes the language: en_coref_minilm; default by --kind: {', '.join(NAMES.values())})"),
    version: Optional[str] = typer.Option(None, "--version", help="Model version (default: the spacy-coref version)"),
    genres: Optional[List[str]] = typer.Option(None, "--genre", help="A GUM genre trained on (repeat the option; default: those make-corpus keeps)"),
    kind: str = typer.Option("default", "--kind", help="The shipped pipeline described: default, fast or accurate (all-mpnet-base-v2)"),
    pronoun_problems: bool = typer.Option(False, "--pronoun-problems", help="The model was trained on the pronoun problems of make-corpus (WinoGrande, WSC, PDP, BUG): the card lists them as sources"),
    silver: Optional[str] = typer.Option(None, "--silver", help="The teacher whose labels of modern text (distill-label) the model learned from, e.g. 'coref_mpnet_accurate 0.4.0': the card lists the texts and the teacher as sources"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the merged meta here (for spacy package --meta-path) instead of MODEL_DIR/meta.json"),
    # fmt: on
) -> None:
    """Write the model card into MODEL_DIR/meta.json (keeping spaCy's keys) and LICENSES.md."""
    try:
        card = model_card(
            name=name,
            version=version,
            metrics_dir=metrics,
            metrics_prefix=prefix,
            gum_genres=genres or None,
            kind=kind,
            pronoun_problems=pronoun_problems,
            silver=silver,
        )
        path = write_model_card(model_dir, card, output=output)
    except ValueError as e:
        fail_one_line(str(e))
    written = f"{path}" if output is not None else f"{path} and {model_dir / LICENSES_FILE}"
    scores = f"{len(card['evaluation'])} dev splits" if "evaluation" in card else "no scores"
    msg.good(f"Model card ({card['license']}, {scores}) written to {written}")
