"""`spacy-coref behaviour`: pass rates of a coreference pipeline on the behaviour suite, per
category (binding, gender, number, speakers, ...)."""
import json
from pathlib import Path
from typing import Any, Dict, Optional

import typer
from wasabi import msg

from ..behaviour import SUITE_PATH, format_failures, format_table, load_suite, run_suite
from ..errors import DataFormatError, Errors
from ..training.evaluation import BASE_PIPELINE, parse_constraints, use_constraints
from ._app import app, fail_one_line
from .resolve import load_resolver


@app.command("behaviour")
def behaviour_cli(
    # fmt: off
    model: str = typer.Argument("default", help="Trained pipeline dir, coreference pipeline dir, installed package, or a shipped one: 'default', 'fast' or 'accurate'"),
    suite: Optional[Path] = typer.Option(None, "--suite", help="Behaviour suite (.jsonl; default: the one shipped with spacy-coref)", exists=True, dir_okay=False),
    base: str = typer.Option(BASE_PIPELINE, "--base", help="Parser pipeline to stack a coreference pipeline on"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the report (per category and per item) as JSON"),
    show_failures: bool = typer.Option(False, "--show-failures", help="List the failing items with the predicted clusters"),
    batch_size: int = typer.Option(32, "--batch-size", help="Texts per batch", min=1),
    constraints: Optional[str] = typer.Option(None, "--constraints", help="Grammatical constraints to decode with, comma-separated ('agreement,binding,quotes,names,distinct_names,indefinites,contrasts,same_head,cataphora,groups,whole_phrases,other_heads,salience'), or 'none' (default: the pipeline's own setting)"),
    # fmt: on
) -> None:
    """Resolve the suite's short texts and check which mentions the predicted clusters link:
    an item passes when all its must-link and must-not-link pairs hold."""
    try:  # the suite first: a bad file fails before the model loads
        items = load_suite(suite)
    except DataFormatError as e:
        fail_one_line(str(e))
    try:
        nlp = load_resolver(model, base=base)
    except (OSError, ValueError) as e:
        fail_one_line(Errors.CE207.format(model=model, base=base, error=e))
    if constraints is not None:
        try:
            use_constraints(nlp, parse_constraints(constraints))
        except ValueError as e:
            fail_one_line(str(e))
    report = run_suite(nlp, items, batch_size=batch_size)
    if show_failures:  # before the table, which stays in view
        failures = report.failures()
        msg.divider(f"{len(failures)} failing item(s)")
        typer.echo(format_failures(failures) or "none")
    typer.echo(format_table(report))  # as is: msg.text would re-wrap the lines
    if output is not None:
        result: Dict[str, Any] = {
            "model": model,
            "base": base,
            "suite": str(suite or SUITE_PATH),
            "constraints": constraints,
        }
        result.update(report.to_dict())
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
        msg.good(f"Saved {output}")
