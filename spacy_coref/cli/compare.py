"""`spacy-coref compare`: two decodings of one pipeline, or two pipelines (`--model-b`), on gold
data, their difference B - A and its paired bootstrap interval over documents (CoNLL F1 and its
metrics, GAP F1)."""
import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer
from wasabi import msg

from ..annotations import set_scheme
from ..formats import read_docs
from ..errors import Errors
from ..training.comparison import (
    compare_decodings, compare_models, compared_decodings, the_cluster_component,
)
from ..training.evaluation import BASE_PIPELINE, follow_scheme, load_coref_nlp
from ._app import app, fail_one_line

LABELS = {"muc": "MUC", "b3": "B3", "ceafe": "CEAFe", "conll_f1": "CoNLL F1", "gap_f1": "GAP F1",
          "accuracy": "Accuracy"}


@app.command("compare")
def compare_cli(
    # fmt: off
    model: str = typer.Argument(..., help="Trained pipeline dir, coreference pipeline dir, or a shipped one: 'default', 'fast' or 'accurate'"),
    data: Path = typer.Argument(..., help="Gold data: .spacy, CoNLL-2012, GAP .tsv or .jsonl (file or directory)", exists=True),
    a: Optional[str] = typer.Option(None, "--a", help="Decoding A's constraints: comma-separated names, 'none' (or '') for none, or 'default' for the model's own list (default: 'default')"),
    b: Optional[str] = typer.Option(None, "--b", help="Decoding B's constraints, as --a"),
    without: Optional[str] = typer.Option(None, "--without", help="A step of the model's default list to measure: A is the default list without it, B the default list, so B - A is what the step adds (instead of --a and --b)"),
    with_step: Optional[str] = typer.Option(None, "--with", help="A step the model's default list leaves off, to measure: A is the default list, B the default list with it (instead of --a and --b)"),
    model_b: Optional[str] = typer.Option(None, "--model-b", help="Another pipeline (as MODEL) to compare with: A is MODEL, B this one, each with its own decoding (instead of --a, --b, --without and --with)"),
    n_resamples: int = typer.Option(1000, "--n-resamples", help="Bootstrap resamples of the documents"),
    seed: int = typer.Option(0, "--seed", help="Seed of the resamples"),
    confidence: float = typer.Option(0.95, "--confidence", help="Coverage of the interval of B - A"),
    base: str = typer.Option(BASE_PIPELINE, "--base", help="Parser pipeline to stack a coreference pipeline on"),
    keep_singletons: bool = typer.Option(False, "--keep-singletons/--no-singletons", help="Score singleton clusters in the CoNLL metrics"),
    scheme: Optional[str] = typer.Option(None, "--scheme", help="Annotation scheme for the model to follow in every document (default: the one each document names)"),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON object"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the result as JSON"),
    # fmt: on
) -> None:
    """Run the model once over the gold documents, decode its scores under two constraint
    lists A and B, and report each metric for A and B, B - A, the percentile interval of B - A
    over resamples of the documents (the same resamples for A and B) and P(B>A), the share of
    resamples where B scores above A. With --model-b, A is the model and B the other one, each
    decoded as it ships."""
    options = {"keep_singletons": keep_singletons, "n_resamples": n_resamples, "seed": seed,
               "confidence": confidence}
    try:
        if model_b is not None and any(x is not None for x in (a, b, without, with_step)):
            found = "--model-b together with --a, --b, --without or --with"
            raise ValueError(Errors.CE425.format(found=found))
        nlp, references = _model_and_gold(model, data, base, scheme)
        if model_b is not None:
            nlp_b, references_b = _model_and_gold(model_b, data, base, scheme)
            result = compare_models(nlp, nlp_b, references, references_b, **options)
        else:
            result = _compare_decodings(nlp, references, a, b, without, with_step, options)
    except (OSError, ValueError) as e:  # DataFormatError, an encoder not installed: one line
        fail_one_line(str(e))
    result.update({"model": model, "model_b": model_b, "data": str(data), "without": without,
                   "with": with_step, "scheme": scheme})
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    if json_output:
        typer.echo(json.dumps(result))
        return
    show_comparison(result)
    if output is not None:
        msg.good(f"Saved {output}")


def _model_and_gold(model: str, data: Path, base: str, scheme: Optional[str]):
    """The pipeline and the gold docs in its vocab, following `scheme` where one is given."""
    nlp = load_coref_nlp(model, base=base)
    references = read_docs(data, vocab=nlp.vocab)
    if scheme is not None:  # over the docs' own, after checking the model knows it
        follow_scheme(nlp, scheme)
        for reference in references:
            set_scheme(reference, scheme)
    return nlp, references


def _compare_decodings(nlp, references, a, b, without, with_step, options) -> Dict[str, Any]:
    """`compare_decodings` of the decodings that the options name."""
    cluster = the_cluster_component(nlp)
    default = list(cluster.cfg.get("constraints", []))
    constraints_a, constraints_b = compared_decodings(
        default, a=a, b=b, without=without, with_step=with_step, name=cluster.name
    )
    return compare_decodings(nlp, references, constraints_a, constraints_b, **options)


def _constraints_text(constraints: List[str]) -> str:
    return ",".join(constraints) if constraints else "none"


def show_comparison(result: Dict[str, Any]) -> None:
    """Print the table of `compare_decodings`' result: one row per metric."""
    step, added = result.get("without"), result.get("with")
    names = ("A", "B")
    if result.get("model_b"):
        names = (f"A ({result['model']})", f"B ({result['model_b']})")
    elif step:
        names = (f"A (default without {step})", "B (default)")
    elif added:
        names = ("A (default)", f"B (default with {added})")
    for name, key in zip(names, ("a", "b")):
        msg.info(f"{name}: {_constraints_text(result[key]['constraints'])}")
    rows = []
    for group in ("conll", "gap", "problems"):
        for metric, d in (result.get(group) or {}).items():
            interval = f"[{d['low']:+.2f}, {d['high']:+.2f}]"
            figures = (f"{d['a']:.2f}", f"{d['b']:.2f}", f"{d['difference']:+.2f}")
            rows.append((LABELS.get(metric, metric), *figures, interval, f"{d['p_b_better']:.3f}"))
    percent = f"{100 * result['confidence']:g}%"
    header = ("metric", "A", "B", "B-A", f"{percent} interval", "P(B>A)")
    msg.table(rows, header=header, aligns=("l", "r", "r", "r", "r", "r"), divider=True)
    singletons = "kept" if result["keep_singletons"] else "removed"
    problems = ""
    if result.get("n_problems") or result.get("n_problems_skipped"):
        problems = (f", {result['n_problems']} pronoun problems (accuracy; "
                    f"{result['n_problems_skipped']} with no choice skipped)")
    msg.info(
        f"{result['n_conll_docs']} docs (singletons {singletons}), {result['n_gap_examples']} "
        f"GAP examples{problems}; {result['n_resamples']} resamples, seed {result['seed']}"
    )
