"""`spacy-coref export-default`: keep the coreference part of a trained pipeline as a directory
the `coref` component loads: without the encoder's weights when the encoder was frozen (they
come from the encoder package), or with them, stored in half precision, when it was fine-tuned.
With --card, the model card (spacy_coref.model_card) goes into its meta.json, and LICENSES.md
beside it."""
from pathlib import Path
from typing import List, Optional

import spacy
import typer
from wasabi import msg

from ..ml.precision import check_precision
from ..model_card import DEFAULT_NAME, model_card, write_model_card
from ..pipeline.coref import save_coref_pipeline
from ._app import app, fail_one_line

COREF_COMPONENTS = ("transformer", "coref_mentions", "coref_cluster")


@app.command("export-default")
def export_default_cli(
    # fmt: off
    trained: Path = typer.Argument(..., help="A trained pipeline directory (e.g. training/coref/model-best)", exists=True, file_okay=False),
    output: Path = typer.Argument(..., help="Output directory (spacy_coref/default_model for the shipped default)"),
    null_score: Optional[float] = typer.Option(None, "--null-score", help="Decode with this score for 'no antecedent' (lower links more)"),
    with_encoder: bool = typer.Option(False, "--with-encoder", help="Keep the encoder's weights (a fine-tuned encoder), stored as float16"),
    precision: Optional[str] = typer.Option(None, "--precision", help="The exported encoder's precision: fp32, bf16 or auto (bf16 where the CPU has it); default: as trained"),
    card: bool = typer.Option(False, "--card", help="Write the model card (license, sources, citations) into meta.json, and LICENSES.md; --name, --version and --card-metrics imply it"),
    card_metrics: Optional[Path] = typer.Option(None, "--card-metrics", help="Directory of `spacy-coref evaluate --output` files (<prefix>_litbank/gum/gap.json) for the card's scores", exists=True, file_okay=False),
    card_prefix: str = typer.Option("default", "--card-prefix", help="File name prefix of the metrics files"),
    name: Optional[str] = typer.Option(None, "--name", help=f"The card's model name (default: {DEFAULT_NAME})"),
    version: Optional[str] = typer.Option(None, "--version", help="The card's model version (default: the spacy-coref version)"),
    genres: Optional[List[str]] = typer.Option(None, "--genre", help="A GUM genre trained on, for the card (repeat the option; default: those make-corpus keeps)"),
    # fmt: on
) -> None:
    """Export the transformer config, coref_mentions and coref_cluster of a trained pipeline."""
    meta_card = None
    if card or card_metrics is not None or name is not None or version is not None:
        try:  # before the export: a missing metrics file leaves the output as it was
            meta_card = model_card(
                name=name or DEFAULT_NAME,
                version=version,
                metrics_dir=card_metrics,
                metrics_prefix=card_prefix,
                gum_genres=genres or None,
            )
        except ValueError as e:
            fail_one_line(str(e))
    if precision is not None:
        try:
            check_precision(precision)
        except ValueError as e:
            fail_one_line(str(e))
    names = spacy.util.load_config(trained / "config.cfg")["nlp"]["pipeline"]
    nlp = spacy.load(trained, exclude=[pipe for pipe in names if pipe not in COREF_COMPONENTS])
    if null_score is not None:
        nlp.get_pipe("coref_cluster").cfg["null_score"] = null_score
    if precision is not None:
        # the saved attrs win over the config when the pipeline loads: set both
        nlp.get_pipe("transformer").model.attrs["precision"] = precision
    save_coref_pipeline(nlp, output, encoder_from_package=not with_encoder, half=with_encoder)
    if null_score is not None or precision is not None:
        # keep config.cfg in agreement with the components' saved settings
        config = spacy.util.load_config(output / "config.cfg", interpolate=False)
        if null_score is not None:
            config["components"]["coref_cluster"]["null_score"] = null_score
        encoder_config = config["components"]["transformer"]["model"]
        if precision is not None and "precision" in encoder_config:  # v1 has only the attr
            encoder_config["precision"] = precision
        config.to_disk(output / "config.cfg")
    if meta_card is not None:
        write_model_card(output, meta_card)
        msg.good(f"Model card ({meta_card['license']}) written to {output / 'meta.json'}")
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    msg.good(f"Exported {nlp.pipe_names} to {output} ({size / 1e6:.1f} MB)")
