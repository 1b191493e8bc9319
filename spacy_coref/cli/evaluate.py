"""`spacy-coref evaluate`: CoNLL and GAP metrics of a coreference pipeline on gold data, and
the accuracy on pronoun problems (WinoGrande, WSC, PDP)."""
import json
import os
import platform
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, Optional

import typer
from wasabi import msg

from ..annotations import set_scheme
from ..formats import read_docs
from ..training.evaluation import (
    BASE_PIPELINE,
    evaluate_docs,
    follow_scheme,
    load_coref_nlp,
    parse_constraints,
    use_constraints,
)
from ._app import app, fail_one_line

CONLL_METRICS = ("muc", "b3", "ceafe", "lea", "mentions")


@app.command("evaluate")
def evaluate_cli(
    # fmt: off
    model: str = typer.Argument(..., help="Trained pipeline dir, coreference pipeline dir, or a shipped one: 'default', 'fast' or 'accurate'"),
    data: Path = typer.Argument(..., help="Gold data: .spacy, CoNLL-2012, GAP .tsv or .jsonl (file or directory)", exists=True),
    base: str = typer.Option(BASE_PIPELINE, "--base", help="Parser pipeline to stack a coreference pipeline on"),
    keep_singletons: bool = typer.Option(False, "--keep-singletons/--no-singletons", help="Score singleton clusters in the main CoNLL figures (where the gold has singletons, both ways are written to --output)"),
    gold_mentions: bool = typer.Option(True, "--gold-mentions/--no-gold-mentions", help="Also score GAP with the three labelled spans as the only candidates"),
    oracle_mentions: bool = typer.Option(False, "--oracle-mentions", help="Also score CoNLL data with every gold mention (singletons included) as the only candidates: what the candidate mentions cost"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the metrics as JSON"),
    scheme: Optional[str] = typer.Option(None, "--scheme", help="Annotation scheme for the model to follow in every document (default: the one each document names, as `spacy-coref make-corpus` and `convert --scheme` store it)"),
    constraints: Optional[str] = typer.Option(None, "--constraints", help="Grammatical constraints to decode with, comma-separated ('agreement,binding,quotes,names,distinct_names,indefinites,contrasts,same_head,cataphora,groups,whole_phrases,other_heads,salience'), or 'none' (default: the pipeline's own setting)"),
    # fmt: on
) -> None:
    """Resolve coreference in the gold documents' text and score the clusters: CoNLL metrics
    (singletons removed, and kept where the gold has them), GAP metrics (detected mentions,
    and gold-two-mention) and, for pronoun problems, the accuracy in both GAP settings."""
    try:
        nlp = load_coref_nlp(model, base=base)
        references = read_docs(data, vocab=nlp.vocab)
        if constraints is not None:
            use_constraints(nlp, parse_constraints(constraints))
        if scheme is not None:  # over the docs' own, after checking the model knows it
            follow_scheme(nlp, scheme)
            for reference in references:
                set_scheme(reference, scheme)
        result = evaluate_docs(
            nlp,
            references,
            keep_singletons=keep_singletons,
            gold_mentions=gold_mentions,
            oracle_mentions=oracle_mentions,
        )
    except (OSError, ValueError) as e:  # DataFormatError, an encoder not installed: one line
        fail_one_line(str(e))
    result.update(
        {"model": model, "data": str(data), "scheme": scheme, "constraints": constraints}
    )
    # when and where: the model card (`spacy-coref model-card`) reports them with the scores
    result.update({"date": datetime.now(timezone.utc).isoformat(timespec="seconds")})
    result.update({"machine": machine_description()})
    show_conll(result["conll"], "kept" if keep_singletons else "removed")
    if keep_singletons and result["conll_without_singletons"]:
        show_conll(result["conll_without_singletons"], "removed")
    elif not keep_singletons and result["conll_singletons"]:
        show_conll(result["conll_singletons"], "kept")
    if result["conll_oracle_mentions"]:
        singletons = "kept" if keep_singletons else "removed"
        show_conll(result["conll_oracle_mentions"], f"{singletons}; gold mentions as candidates")
    show_gap(result["gap"], "detected mentions")
    show_gap(result["gap_gold_mentions"], "gold-two-mention")
    show_pronoun_problems(result["pronoun_problems"], "detected mentions")
    show_pronoun_problems(result["pronoun_problems_gold_mentions"], "gold-two-mention")
    mixed = result["mixed_gender_clusters"]
    if mixed is not None:
        msg.info(
            f"{mixed['clusters']} predicted clusters hold both he/him/his and she/her/hers "
            f"({mixed['mentions']} of {mixed['clustered_mentions']} clustered mentions)"
        )
    msg.info(
        f"{result['n_docs']} docs, {result['n_words']} words, "
        f"{result['words_per_second'] or 0:.0f} words/s"
    )
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
        msg.good(f"Saved {output}")


def machine_description() -> str:
    """The machine a run is on: OS, architecture, processor and CPU cores (no host name).

    RETURNS (str): e.g. "Linux-6.8.0-x86_64-with-glibc2.39, x86_64, 2 CPU cores".
    """
    processor = platform.processor() or platform.machine()
    return f"{platform.platform()}, {processor}, {os.cpu_count()} CPU cores"


def show_conll(scores: Optional[Dict[str, Any]], singletons: str) -> None:
    if not scores:
        return
    rows = [(m, scores[m]["p"], scores[m]["r"], scores[m]["f"]) for m in CONLL_METRICS]
    msg.table(rows, header=("metric", "P", "R", "F1"), aligns=("l", "r", "r", "r"))
    msg.info(f"CoNLL F1 {scores['conll_f1']:.2f} (singletons {singletons})")


def show_gap(scores: Optional[Dict[str, Any]], setting: str) -> None:
    if not scores:
        return
    msg.info(
        f"GAP ({setting}) F1 overall {scores['overall']['f']:.1f}, masculine "
        f"{scores['masculine']['f']:.1f}, feminine {scores['feminine']['f']:.1f}, "
        f"bias {scores['bias'] or 0:.3f}"
    )


def show_pronoun_problems(scores: Optional[Dict[str, Any]], setting: str) -> None:
    """One line: the accuracy on pronoun problems (percent), right / total and the bootstrap
    interval, with the accuracy per kind where there are several kinds."""
    if not scores:
        return
    confidence = round(100 * scores["confidence"])
    kinds = scores["kinds"]
    per_kind = ""
    if len(kinds) > 1:
        parts = (f"{kind} {k['accuracy']:.1f}" for kind, k in sorted(kinds.items()))
        per_kind = "; " + ", ".join(parts)
    msg.info(
        f"Pronoun accuracy ({setting}) {scores['accuracy']:.1f}, {scores['right']}/"
        f"{scores['total']} right, {confidence}% CI {scores['low']:.1f}-{scores['high']:.1f}"
        f"{per_kind}"
    )
