"""`spacy-coref export-default`: keep the coreference part of a trained pipeline as a directory
the `coref` component loads: without the encoder's weights when the encoder was frozen (they
come from the encoder package), with them, stored in half precision, when it was fine-tuned, or
with only those that differ from a base encoder's (--base-encoder: a student that kept the
package's embeddings).
With --card, the model card (spacy_coref.model_card) goes into its meta.json, and LICENSES.md
beside it."""
from pathlib import Path
from typing import List, Optional

import spacy
import typer
from wasabi import msg

from ..errors import Errors
from ..ml.candidates import SPAN_SOURCES
from ..ml.precision import check_precision
from ..ml.weight_storage import check_storage
from ..model_card import NAMES, model_card, write_model_card
from ..linguistics.mention_classes import NEUTER_PLURAL_PRONOUNS
from ..pipeline.coref import save_coref_pipeline
from ._app import app, fail_one_line

COREF_COMPONENTS = ("sentencizer", "transformer", "coref_mentions", "coref_cluster")


@app.command("export-default")
def export_default_cli(
    # fmt: off
    trained: Path = typer.Argument(..., help="A trained pipeline directory (e.g. training/coref/model-best)", exists=True, file_okay=False),
    output: Path = typer.Argument(..., help="Output directory (spacy_coref/default_model for the shipped default)"),
    null_score: Optional[float] = typer.Option(None, "--null-score", help="Decode with this score for 'no antecedent' (lower links more)"),
    pronoun_null_score: Optional[float] = typer.Option(None, "--pronoun-null-score", help="Decode it, its, itself, they, them, their, theirs and themselves with this score for 'no antecedent' instead (the setting null_scores_by_form)"),
    top_lambda: Optional[float] = typer.Option(None, "--top-lambda", help="Keep this many candidates per token after mention scoring (the pruning ratio) when decoding; more is slower and may recall more"),
    max_antecedents: Optional[int] = typer.Option(None, "--max-antecedents", help="Score at most this many earlier mentions as each mention's antecedents when decoding", min=1),
    candidates: Optional[str] = typer.Option(None, "--candidates", help="Where the candidate mentions come from when decoding, for a model that scores spans: spans or sentence_spans (within a sentence, no punctuation at either edge)"),
    with_encoder: bool = typer.Option(False, "--with-encoder", help="Keep the encoder's weights (a fine-tuned encoder), stored as float16"),
    base_encoder: Optional[str] = typer.Option(None, "--base-encoder", help="Store only the encoder weights that differ from this encoder's (e.g. sentence-transformers/all-MiniLM-L6-v2 for a student on its embeddings), as float16; the config names it"),
    weight_storage: Optional[str] = typer.Option(None, "--weight-storage", help="How the stored encoder weights are kept: float16 (the default with --with-encoder or --base-encoder) or int8 (weight matrices rounded per row, a quarter of float32's size; measure dev before shipping)"),
    precision: Optional[str] = typer.Option(None, "--precision", help="The exported encoder's precision: fp32, bf16 or auto (bf16 where the CPU has it); default: as trained"),
    card: bool = typer.Option(False, "--card", help="Write the model card (license, sources, citations) into meta.json, and LICENSES.md; --name, --version and --card-metrics imply it"),
    card_metrics: Optional[Path] = typer.Option(None, "--card-metrics", help="Directory of `spacy-coref evaluate --output` files (<prefix>_litbank/gum/gap.json) for the card's scores", exists=True, file_okay=False),
    card_prefix: Optional[str] = typer.Option(None, "--card-prefix", help="File name prefix of the metrics files (default: the --kind, e.g. accurate_litbank.json)"),
    name: Optional[str] = typer.Option(None, "--name", help=f"The card's model name (default by --kind: {', '.join(NAMES.values())})"),
    version: Optional[str] = typer.Option(None, "--version", help="The card's model version (default: the spacy-coref version)"),
    pronoun_problems: bool = typer.Option(False, "--pronoun-problems", help="The model was trained on the pronoun problems of make-corpus (WinoGrande, WSC, PDP, BUG): the card lists them as sources"),
    silver: Optional[str] = typer.Option(None, "--silver", help="The teacher whose labels of modern text (distill-label) the model learned from, e.g. 'coref_mpnet_accurate 0.4.0': the card lists the texts and the teacher as sources"),
    kind: str = typer.Option("default", "--kind", help="The shipped pipeline the card describes: default, fast or accurate (all-mpnet-base-v2)"),
    genres: Optional[List[str]] = typer.Option(None, "--genre", help="A GUM genre trained on, for the card (repeat the option; default: those make-corpus keeps)"),
    # fmt: on
) -> None:
    """Export the transformer config, coref_mentions and coref_cluster of a trained pipeline."""
    # the options are checked before anything is loaded or written
    if with_encoder and base_encoder is not None:
        fail_one_line(Errors.CE396)
    if with_encoder and weight_storage is not None:
        fail_one_line(Errors.CE399)
    if top_lambda is not None and top_lambda <= 0:
        fail_one_line(Errors.CE394.format(value=top_lambda))
    if candidates is not None and candidates not in SPAN_SOURCES:
        fail_one_line(Errors.CE395.format(value=candidates, options=", ".join(SPAN_SOURCES)))
    meta_card = None
    if card or card_metrics is not None or name is not None or version is not None or (
        pronoun_problems or silver
    ):
        try:  # before the export: a missing metrics file leaves the output as it was
            meta_card = model_card(
                name=name,
                version=version,
                metrics_dir=card_metrics,
                metrics_prefix=card_prefix,
                gum_genres=genres or None,
                kind=kind,
                pronoun_problems=pronoun_problems,
                silver=silver,
            )
        except ValueError as e:
            fail_one_line(str(e))
    if weight_storage is not None:
        try:
            check_storage(weight_storage)
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
    by_form = None
    if pronoun_null_score is not None:
        by_form = dict.fromkeys(NEUTER_PLURAL_PRONOUNS, pronoun_null_score)
        nlp.get_pipe("coref_cluster").cfg["null_scores_by_form"] = by_form
    if top_lambda is not None:
        # the head is built from the config's value when the exported pipeline loads
        nlp.get_pipe("coref_cluster").model.attrs["head_cfg"]["top_lambda"] = top_lambda
    if max_antecedents is not None:
        nlp.get_pipe("coref_cluster").model.attrs["head_cfg"]["max_antecedents"] = max_antecedents
    if candidates is not None:
        source = nlp.get_pipe("coref_cluster").model.attrs["candidates"]
        if source["source"] not in SPAN_SOURCES:  # a head trained on rule mentions
            fail_one_line(Errors.CE397.format(value=candidates, found=source["source"]))
        source["source"] = candidates  # read at every forward pass: the saved attr counts
    if precision is not None:
        # the saved attrs win over the config when the pipeline loads: set both
        nlp.get_pipe("transformer").model.attrs["precision"] = precision
    save_coref_pipeline(
        nlp,
        output,
        encoder_from_package=not with_encoder,
        half=with_encoder or base_encoder is not None,
        base_encoder=base_encoder,
        storage=weight_storage,
    )
    decoding = (null_score, by_form, precision, top_lambda, max_antecedents, candidates)
    if any(value is not None for value in decoding):
        # keep config.cfg in agreement with the components' saved settings
        config = spacy.util.load_config(output / "config.cfg", interpolate=False)
        if null_score is not None:
            config["components"]["coref_cluster"]["null_score"] = null_score
        if by_form is not None:
            config["components"]["coref_cluster"]["null_scores_by_form"] = by_form
        if top_lambda is not None:
            config["components"]["coref_cluster"]["model"]["top_lambda"] = top_lambda
        if max_antecedents is not None:
            config["components"]["coref_cluster"]["model"]["max_antecedents"] = max_antecedents
        if candidates is not None:
            config["components"]["coref_cluster"]["model"]["candidates"] = candidates
        encoder_config = config["components"]["transformer"]["model"]
        if precision is not None and "precision" in encoder_config:  # v1 has only the attr
            encoder_config["precision"] = precision
        config.to_disk(output / "config.cfg")
    if meta_card is not None:
        write_model_card(output, meta_card)
        msg.good(f"Model card ({meta_card['license']}) written to {output / 'meta.json'}")
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    msg.good(f"Exported {nlp.pipe_names} to {output} ({size / 1e6:.1f} MB)")
