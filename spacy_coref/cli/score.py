"""`spacy-coref score`: score predicted CoNLL-2012 files against gold ones, like the reference
scorer v8.01 (MUC, B-cubed, CEAF-e, CEAF-m, BLANC, their CoNLL average, plus LEA and mention
identification)."""
import json
import warnings
from enum import Enum
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import typer
from spacy.tokens import Doc
from spacy.vocab import Vocab
from wasabi import Printer, msg

from ..annotations import get_clusters, get_doc_id
from ..errors import Errors, Warnings, warn
from ..formats import read_conll, read_docs
from ..scoring.metrics import METRICS, CorefEvaluator
from ._app import app, fail_one_line

DocKey = Tuple[str, Optional[str]]
METRIC_NAMES = {
    "muc": "MUC",
    "b3": "B-cubed",
    "ceafe": "CEAF-e",
    "ceafm": "CEAF-m",
    "blanc": "BLANC",
    "lea": "LEA",
    "mentions": "Mentions",
}
KEEP = "Score singleton clusters, or remove them from gold and predictions first"
FORMAT = (
    "Read both inputs as CoNLL-2012 whatever their names (a directory: every file in it). "
    "Default: by file name (.conll, .gold_conll, *_conll, .jsonl, .spacy)"
)


class InputFormat(str, Enum):
    conll = "conll"


@app.command("score")
def score_cli(
    # fmt: off
    gold: Path = typer.Argument(..., help="Gold CoNLL-2012 file or directory", exists=True),
    pred: Path = typer.Argument(..., help="Predicted CoNLL-2012 file or directory", exists=True),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON object"),
    keep_singletons: bool = typer.Option(True, "--keep-singletons/--no-singletons", help=KEEP),
    input_format: Optional[InputFormat] = typer.Option(None, "--format", help=FORMAT),
    # fmt: on
) -> None:
    """Score predicted coreference against gold CoNLL-2012 data, like the reference scorer
    v8.01. Documents are matched by their '#begin document' line (name and part)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fmt = input_format.value if input_format is not None else None
            result = score_files(gold, pred, keep_singletons=keep_singletons, fmt=fmt)
        except ValueError as e:  # DataFormatError included: one line, non-zero exit
            fail_one_line(str(e))
    for warning in caught:
        _warn(str(warning.message), json_output)
    if json_output:
        typer.echo(json.dumps(result))
        return
    rows = [
        (METRIC_NAMES[name], *(f"{result[name][x]:.2f}" for x in ("p", "r", "f")))
        for name in (*METRICS, "mentions")
    ]
    msg.table(rows, header=("Metric", "P", "R", "F1"), aligns=("l", "r", "r", "r"), divider=True)
    singletons = "kept" if keep_singletons else "removed"
    msg.good(f"CoNLL F1 (mean of MUC, B-cubed, CEAF-e F1): {result['conll_f1']:.2f}")
    msg.text(f"Singletons {singletons}. Scores in percent.")


def _warn(message: str, json_output: bool) -> None:
    if json_output:
        typer.echo(Printer(no_print=True).warn(message), err=True)
    else:
        msg.warn(message)


def score_files(
    gold: Path, pred: Path, *, keep_singletons: bool = True, fmt: Optional[str] = None
) -> Dict[str, Any]:
    """Score the CoNLL-2012 documents of a predictions file or directory against gold ones.

    gold (Path): Gold file or directory.
    pred (Path): Predictions file or directory.
    keep_singletons (bool): Score singleton clusters (False removes them first).
    fmt (Optional[str]): "conll" reads both as CoNLL-2012 whatever their names (a directory:
        every file in it); None picks each file's format from its name.
    RETURNS (Dict[str, Any]): As `CorefEvaluator.scores`: `muc`, `b3`, `ceafe`, `ceafm`,
        `blanc`, `lea`, `mentions` ({"p", "r", "f"}) and `conll_f1`, in percent.
    """
    gold_docs = _read(gold, fmt)
    pred_docs = _read(pred, fmt)
    return score_docs(
        gold_docs, pred_docs, keep_singletons=keep_singletons, gold_name=gold, pred_name=pred
    )


def _read(path: Path, fmt: Optional[str]) -> List[Doc]:
    """The docs of a file or directory, in the given format or the one its names stand for."""
    if fmt is None:
        return read_docs(path)
    if fmt != InputFormat.conll.value:
        raise ValueError(f"Unknown input format '{fmt}': expected 'conll' or None (by name).")
    vocab = Vocab()
    files = sorted(p for p in path.iterdir() if _is_data_file(p)) if path.is_dir() else [path]
    # Documents repeated across the files are rejected when indexed (`score_docs`).
    return [doc for file_path in files for doc in read_conll(file_path, vocab=vocab)]


def _is_data_file(path: Path) -> bool:
    return path.is_file() and not path.name.startswith(".")


def score_docs(
    gold_docs: Sequence[Doc],
    pred_docs: Sequence[Doc],
    *,
    keep_singletons: bool = True,
    gold_name: Any = "the gold data",
    pred_name: Any = "the predictions",
) -> Dict[str, Any]:
    """Match predicted docs to gold docs by name and part, and score their clusters.

    A gold document missing from the predictions is scored as an empty response (with a
    warning), as v8.01 does; a predicted document missing from the gold data is an error.

    gold_docs (Sequence[Doc]): Gold docs, with clusters and document names.
    pred_docs (Sequence[Doc]): Predicted docs, tokenized like the gold ones.
    keep_singletons (bool): Score singleton clusters (False removes them first).
    gold_name (Any): The gold data's name, for messages.
    pred_name (Any): The predictions' name, for messages.
    RETURNS (Dict[str, Any]): As `CorefEvaluator.scores`, in percent.
    """
    gold_index = _index(gold_docs, gold_name)
    pred_index = _index(pred_docs, pred_name)
    if not gold_index:
        raise ValueError(Errors.CE053.format(path=gold_name))
    extra = next((key for key in pred_index if key not in gold_index), None)
    if extra is not None:
        raise ValueError(Errors.CE051.format(doc=_label(extra), pred=pred_name, gold=gold_name))
    evaluator = CorefEvaluator(keep_singletons=keep_singletons)
    missing: List[str] = []
    for key, gold_doc in gold_index.items():
        pred_doc = pred_index.get(key)
        if pred_doc is None:
            missing.append(_label(key))
            evaluator.add(get_clusters(gold_doc), [])
            continue
        if len(gold_doc) != len(pred_doc):
            error = Errors.CE050.format(doc=_label(key), n_gold=len(gold_doc), n_pred=len(pred_doc))
            raise ValueError(error)
        evaluator.add(get_clusters(gold_doc), get_clusters(pred_doc))
    if missing:
        shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
        warn(Warnings.CW051.format(n=len(missing), docs=shown))
    return evaluator.scores()


def _doc_key(doc: Doc, index: int) -> DocKey:
    doc_id = get_doc_id(doc)
    if doc_id["name"] is None:
        return (f"#{index}", None)
    part = doc_id["part"]
    # "part 000" and "part 0" are the same part.
    return (str(doc_id["name"]), str(int(part)) if part and part.isdigit() else part)


def _label(key: DocKey) -> str:
    return key[0] if key[1] is None else f"({key[0]}) part {key[1]}"


def _index(docs: Sequence[Doc], name: Any) -> Dict[DocKey, Doc]:
    index: Dict[DocKey, Doc] = {}
    counts: Dict[DocKey, int] = {}
    for i, doc in enumerate(docs):
        key = _doc_key(doc, i)
        counts[key] = counts.get(key, 0) + 1
        index.setdefault(key, doc)
    repeated = next((key for key, n in counts.items() if n > 1), None)
    if repeated is not None:
        raise ValueError(Errors.CE052.format(doc=_label(repeated), n=counts[repeated], path=name))
    return index
