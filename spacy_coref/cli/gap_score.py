"""`spacy-coref gap-score`: score GAP predictions (ID, A-coref, B-coref) against a GAP TSV, as
the official `gap_scorer.py` does."""
import json
import warnings
from pathlib import Path

import typer
from wasabi import Printer, msg

from ..scoring.gap import score_gap_files
from ._app import app, fail_one_line

GROUPS = (("overall", "Overall"), ("masculine", "Masculine"), ("feminine", "Feminine"))


@app.command("gap-score")
def gap_score_cli(
    # fmt: off
    gold: Path = typer.Argument(..., help="Gold GAP TSV with header", exists=True, dir_okay=False),
    pred: Path = typer.Argument(..., help="ID, A-coref, B-coref TSV", exists=True, dir_okay=False),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON object"),
    # fmt: on
) -> None:
    """Score GAP predictions: F1 overall, masculine and feminine, and the bias F/M, as the
    official GAP scorer computes them."""
    err = Printer(no_print=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = score_gap_files(gold, pred)
        except ValueError as e:  # DataFormatError included: one line, non-zero exit
            fail_one_line(str(e))
    for warning in caught:
        if json_output:
            typer.echo(err.warn(str(warning.message)), err=True)
        else:
            msg.warn(str(warning.message))
    if json_output:
        typer.echo(json.dumps(result))
        return
    rows = []
    for key, name in GROUPS:
        s = result[key]
        prf = (f"{s[x]:.1f}" for x in ("p", "r", "f"))
        rows.append((name, *prf, s["tp"], s["fp"], s["fn"], s["tn"]))
    header = ("", "P", "R", "F1", "TP", "FP", "FN", "TN")
    msg.table(rows, header=header, aligns=("l",) + ("r",) * 7, divider=True)
    bias = result["bias"]
    msg.good(f"Bias (F/M): {bias:.2f}" if bias is not None else "Bias (F/M): - (an F1 is 0)")
