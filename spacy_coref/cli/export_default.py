"""`spacy-coref export-default`: keep the coreference part of a trained pipeline as a directory
the `coref` component loads: without the encoder's weights when the encoder was frozen (they
come from the encoder package), or with them, stored in half precision, when it was fine-tuned."""
from pathlib import Path
from typing import Optional

import spacy
import typer
from wasabi import msg

from ..pipeline.coref import save_coref_pipeline
from ._app import app

COREF_COMPONENTS = ("transformer", "coref_mentions", "coref_cluster")


@app.command("export-default")
def export_default_cli(
    # fmt: off
    trained: Path = typer.Argument(..., help="A trained pipeline directory (e.g. training/coref/model-best)", exists=True, file_okay=False),
    output: Path = typer.Argument(..., help="Output directory (spacy_coref/default_model for the shipped default)"),
    null_score: Optional[float] = typer.Option(None, "--null-score", help="Decode with this score for 'no antecedent' (lower links more)"),
    with_encoder: bool = typer.Option(False, "--with-encoder", help="Keep the encoder's weights (a fine-tuned encoder), stored as float16"),
    # fmt: on
) -> None:
    """Export the transformer config, coref_mentions and coref_cluster of a trained pipeline."""
    names = spacy.util.load_config(trained / "config.cfg")["nlp"]["pipeline"]
    nlp = spacy.load(trained, exclude=[name for name in names if name not in COREF_COMPONENTS])
    if null_score is not None:
        nlp.get_pipe("coref_cluster").cfg["null_score"] = null_score
    save_coref_pipeline(nlp, output, encoder_from_package=not with_encoder, half=with_encoder)
    if null_score is not None:
        # keep config.cfg in agreement with the component's saved cfg
        config = spacy.util.load_config(output / "config.cfg", interpolate=False)
        config["components"]["coref_cluster"]["null_score"] = null_score
        config.to_disk(output / "config.cfg")
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    msg.good(f"Exported {nlp.pipe_names} to {output} ({size / 1e6:.1f} MB)")
