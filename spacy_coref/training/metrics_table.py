"""A markdown summary of the metrics JSON files that `spacy-coref evaluate --output` writes."""
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import Errors, Warnings, warn

Metrics = Dict[str, Any]

CONLL_HEADER = (
    "metrics", "model", "data", "CoNLL F1", "MUC F1", "B3 F1", "CEAF-e F1", "LEA F1",
    "mention P / R", "CoNLL F1, singletons kept",
)
GAP_HEADER = (
    "metrics", "model", "data", "setting", "overall F1", "masculine F1", "feminine F1", "bias F/M",
)
# the JSON field of each GAP setting and its name in the table
GAP_SETTINGS = (("gap", "detected mentions"), ("gap_gold_mentions", "gold-two-mention"))


def read_metrics_dir(path: Path) -> Tuple[Dict[str, Metrics], List[str]]:
    """The evaluation metrics in the directory's *.json files (not its subdirectories), by file
    stem; other JSON files (e.g. benchmarks) are returned by name, and warned about.

    path (Path): The metrics directory.
    RETURNS (Tuple[Dict[str, Metrics], List[str]]): The metrics by name, and the names left out.
    """
    found: Dict[str, Metrics] = {}
    skipped: List[str] = []
    for file in sorted(path.glob("*.json")):
        try:
            data = json.loads(file.read_text(encoding="utf8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ValueError(Errors.CE281.format(path=file, error=e)) from e
        if isinstance(data, dict) and ("conll" in data or "gap" in data):
            found[file.stem] = data
        else:
            skipped.append(file.name)
    if not found:
        raise ValueError(Errors.CE282.format(path=path))
    if skipped:
        warn(Warnings.CW280.format(n=len(skipped), path=path, names=", ".join(skipped)))
    return found, skipped


def metrics_table(metrics: Dict[str, Metrics]) -> str:
    """Markdown tables of CoNLL and GAP metrics, one row per metrics file (and GAP setting).

    metrics (Dict[str, Metrics]): Metrics JSON objects by name.
    RETURNS (str): The markdown text.
    """
    conll_rows = [_conll_row(name, m) for name, m in metrics.items() if m.get("conll")]
    gap_rows = [
        _gap_row(name, m, field, setting)
        for name, m in metrics.items()
        for field, setting in GAP_SETTINGS
        if m.get(field)
    ]
    parts = ["# Evaluation metrics\n"]
    if conll_rows:
        parts.append("## CoNLL-2012 metrics (singletons removed unless stated)\n")
        parts.append(_markdown(CONLL_HEADER, conll_rows))
    if gap_rows:
        parts.append("## GAP\n")
        parts.append(_markdown(GAP_HEADER, gap_rows))
    return "\n".join(parts)


def _conll_row(name: str, m: Metrics) -> List[str]:
    c, kept = m["conll"], m.get("conll_singletons")
    if m.get("keep_singletons"):  # the main columns are always with singletons removed
        c, kept = m.get("conll_without_singletons") or c, c
    if kept:
        with_singletons = _num(kept["conll_f1"])
    elif "conll_singletons" in m:
        with_singletons = "n/a (no singletons in the gold)"
    else:  # written before evaluate scored both ways
        with_singletons = "not measured"
    mentions = f"{_num(c['mentions']['p'], 1)} / {_num(c['mentions']['r'], 1)}"
    return [
        name, str(m.get("model", "")), str(m.get("data", "")), _num(c["conll_f1"]),
        _num(c["muc"]["f"]), _num(c["b3"]["f"]), _num(c["ceafe"]["f"]), _num(c["lea"]["f"]),
        mentions, with_singletons,
    ]


def _gap_row(name: str, m: Metrics, field: str, setting: str) -> List[str]:
    g = m[field]
    return [
        name, str(m.get("model", "")), str(m.get("data", "")), setting,
        _num(g["overall"]["f"], 1), _num(g["masculine"]["f"], 1), _num(g["feminine"]["f"], 1),
        _num(g["bias"], 3),
    ]


def _num(value: Optional[float], digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _markdown(header: Sequence[str], rows: List[List[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
