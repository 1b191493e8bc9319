"""`spacy-coref evaluate`: CoNLL and GAP metrics of a coreference pipeline on gold data."""
import json
from pathlib import Path
from typing import Optional

import typer
from wasabi import msg

from ..formats import read_docs
from ..training.evaluation import BASE_PIPELINE, evaluate_docs, load_coref_nlp
from ._app import app


@app.command("evaluate")
def evaluate_cli(
    # fmt: off
    model: str = typer.Argument(..., help="Trained pipeline dir, coreference pipeline dir, or 'default'"),
    data: Path = typer.Argument(..., help="Gold data: .spacy, CoNLL-2012, GAP .tsv or .jsonl (file or directory)", exists=True),
    base: str = typer.Option(BASE_PIPELINE, "--base", help="Parser pipeline to stack a coreference pipeline on"),
    keep_singletons: bool = typer.Option(False, "--keep-singletons/--no-singletons", help="Score singleton clusters"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the metrics as JSON"),
    # fmt: on
) -> None:
    """Resolve coreference in the gold documents' text and score the clusters."""
    nlp = load_coref_nlp(model, base=base)
    result = evaluate_docs(nlp, read_docs(data, vocab=nlp.vocab), keep_singletons=keep_singletons)
    result.update({"model": model, "data": str(data)})
    if result["conll"]:
        c = result["conll"]
        rows = [(m, c[m]["p"], c[m]["r"], c[m]["f"]) for m in ("muc", "b3", "ceafe", "lea", "mentions")]
        msg.table(rows, header=("metric", "P", "R", "F1"), aligns=("l", "r", "r", "r"))
        msg.info(f"CoNLL F1 {c['conll_f1']:.2f} (singletons {'kept' if keep_singletons else 'removed'})")
    if result["gap"]:
        g = result["gap"]
        msg.info(
            f"GAP F1 overall {g['overall']['f']:.1f}, masculine {g['masculine']['f']:.1f}, "
            f"feminine {g['feminine']['f']:.1f}, bias {g['bias'] or 0:.3f}"
        )
    msg.info(f"{result['n_docs']} docs, {result['n_words']} words, {result['words_per_second']:.0f} words/s")
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
        msg.good(f"Saved {output}")
