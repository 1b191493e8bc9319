"""`spacy-coref benchmark`: words/s, docs/s and peak memory of the bare encoder, the coref
pipeline and fastcoref on one fixed document set, at one or more encoder precisions (with
`--accurate` also the accurate pipeline and its encoder's floor); `--long` for long-document
scaling."""
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import srsly
import typer
from wasabi import msg

from ..benchmark.accurate import TARGET_OVER_FLOOR
from ..benchmark.run import run_benchmark, run_long
from ..errors import Errors
from ..ml.precision import FP32, PRECISIONS
from ._app import app, fail_one_line

# per precision
RUN_ROWS = (("encoder", "(a) encoder once over each doc, 512-wordpiece windows"),
            ("encoder_windows", "(a') encoder over the pipeline's own windows"),
            ("coref", "(b) coref on parsed docs"),
            ("fast", "(d) fast pipeline from raw text (tokenizer included)"),
            ("accurate_encoder", "(e) accurate encoder once over each doc, 512-wordpiece windows"),
            ("accurate_coref", "(f) accurate coref on parsed docs"))
RATIOS = (("coref_over_encoder", "(b)/(a)"),
          ("coref_over_encoder_windows", "(b)/(a')"),
          ("coref_over_fastcoref", "(b)/(c)"),
          ("coref_with_parse_over_fastcoref", "(parse + b)/(c)"),
          ("fast_over_fastcoref", "(d)/(c)"),
          ("fast_over_coref_with_parse", "(d)/(parse + b)"),
          ("accurate_coref_over_accurate_encoder", "(f)/(e)"),
          ("accurate_coref_over_accurate_encoder_fp32", "(f)/(e) fp32"),
          ("accurate_coref_over_coref", "(f)/(b)"),
          ("accurate_coref_over_fastcoref", "(f)/(c)"))
BAND_RATIOS = (("coref_over_encoder_fp32", "(b)/(a)"), ("fast_over_encoder_fp32", "(d)/(a)"),
               ("fast_over_fastcoref", "(d)/(c)"),
               ("accurate_coref_over_accurate_encoder_fp32", "(f)/(e)"),
               ("accurate_coref_over_fastcoref", "(f)/(c)"))


# fmt: off
@app.command("benchmark")
def benchmark_cli(
    data_dir: Path = typer.Option(Path("../shared/data/unlabeled"), "--data", help="Unlabeled prose directory (*.jsonl)", exists=True),
    workdir: Path = typer.Option(Path("benchmark"), "--workdir", help="Where the document set and per-system results go"),
    output: Optional[Path] = typer.Option(None, "--output", help="Write all results as JSON"),
    n_docs: int = typer.Option(300, "--n-docs", help="Documents in the set"),
    seed: int = typer.Option(0, "--seed", help="Seed of the document set"),
    batch_size: int = typer.Option(32, "--batch-size", help="Documents per batch"),
    fastcoref_python: Optional[str] = typer.Option(None, "--fastcoref-python", help="python of the fastcoref environment; without it (or empty) (c) is skipped"),
    long: Optional[str] = typer.Option(None, "--long", help="Instead: one document per length in words, e.g. 10000,30000,100000"),
    precision: str = typer.Option(FP32, "--precision", help="Encoder precision of (a), (a'), (b), (d), (e) and (f): fp32, bf16 or auto, or several separated by commas (e.g. fp32,bf16: rows for each, and (b) bf16 / (a) fp32). fastcoref runs in fp32"),
    accurate: bool = typer.Option(False, "--accurate", help="Also measure the accurate pipeline: (e) its encoder (MPNet) once over each doc and (f) its coref, against (e) fp32. Needs `spacy-coref download accurate`; skipped with a warning where it is not installed"),
) -> None:
    # fmt: on
    """Measure the bare encoder, the coref pipeline and fastcoref on the same documents, each in
    a fresh process; or, with --long, time and memory on single long documents."""
    precisions = parse_precisions(precision)
    if long is not None and accurate:
        fail_one_line(Errors.CE246)
    if long is not None:
        results = run_long(data_dir, workdir, parse_lengths(long), batch_size=batch_size,
                           precisions=precisions)
        print_long(results)
    else:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            results = run_benchmark(data_dir, workdir, n_docs=n_docs, seed=seed,
                                    batch_size=batch_size,
                                    fastcoref_python=optional_path(fastcoref_python),
                                    precisions=precisions, accurate=accurate)
        for warning in caught:
            one_line(str(warning.message))
        print_table(results)
    if output is not None:
        srsly.write_json(output, results)
        msg.good(f"Results written to {output}")


def optional_path(value: Optional[str]) -> Optional[Path]:
    """None for a missing or empty value: project.yml passes '' for "no fastcoref environment"."""
    return Path(value) if value else None


def parse_lengths(value: str) -> List[int]:
    """'10000,30000' -> [10000, 30000]; a clear error otherwise."""
    parts = [part.strip() for part in value.split(",") if part.strip()]
    if not parts or not all(part.isdigit() and int(part) > 0 for part in parts):
        fail_one_line(Errors.CE244.format(value=value))
    return [int(part) for part in parts]


def parse_precisions(value: str) -> List[str]:
    """'fp32,bf16' -> ["fp32", "bf16"] (repeats dropped); a clear error otherwise."""
    parts = list(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))
    bad = [part for part in parts if part not in PRECISIONS]
    if not parts or bad:
        found = bad[0] if bad else value
        fail_one_line(Errors.CE370.format(value=found, options=", ".join(PRECISIONS)))
    return parts


# wasabi's icons and colours of msg.info, msg.good and msg.warn
ONE_LINE_STYLES = {"info": ("\u2139", typer.colors.BLUE), "good": ("\u2714", typer.colors.GREEN),
                   "warn": ("\u26a0", typer.colors.YELLOW)}


def one_line(message: str, kind: str = "warn") -> None:
    """A message on one line (wasabi wraps at 80 columns), so that a skipped system's note and
    the command that fixes it stay together and can be found with grep."""
    icon, color = ONE_LINE_STYLES[kind]
    typer.secho(f"{icon} {' '.join(message.split())}", fg=color)


def _row(label: str, r: Dict[str, Any]) -> Tuple[str, ...]:
    return (label, f"{r['words_per_s']:,.0f}", f"{r['docs_per_s']:.2f}",
            f"{r['peak_rss_mb']:,.0f}", f"{r['peak_above_loaded_mb']:,.0f}")


def print_table(results: Dict[str, Any]) -> None:
    rows = [_row("parse (host pipeline, reported apart)", results["parse"])]
    for precision, run in results["runs"].items():
        for key, label in RUN_ROWS:
            if key not in run:  # results written before (d) existed
                continue
            resolved = run[key]["precision_resolved"]
            shown = precision if resolved == precision else f"{precision}: {resolved}"
            rows.append(_row(f"{label} [{shown}]", run[key]))
    if "fastcoref" in results:
        rows.append(_row("(c) fastcoref FCoref [fp32]", results["fastcoref"]))
    header = ("system", "words/s", "docs/s", "peak RSS MB", "above loaded MB")
    msg.table(rows, header=header, aligns=("l", "r", "r", "r", "r"), divider=True, max_col=80)
    run = next(iter(results["runs"].values()))
    floor, windows = run["encoder"], run["encoder_windows"]
    msg.info(f"wordpieces encoded: (a) {floor['wordpieces']:,} in {floor['windows']:,} windows "
             f"of up to {floor['max_window']}; (a') {windows['wordpieces']:,} in "
             f"{windows['segments']:,} segments")
    msg.info(f"padded fraction of tokens, (a') the pipeline's segments: naive "
             f"{windows['padded_fraction_naive']:.1%}, token-budget sub-batches "
             f"{windows['padded_fraction_planned']:.1%}; (a) the floor's windows "
             f"{floor['padded_fraction_planned']:.1%}")
    accurate_floor = run.get("accurate_encoder")
    if accurate_floor is not None:
        msg.info(f"wordpieces encoded: (e) {accurate_floor['wordpieces']:,} in "
                 f"{accurate_floor['windows']:,} windows of up to "
                 f"{accurate_floor['max_window']}; padded fraction "
                 f"{accurate_floor['padded_fraction_planned']:.1%}")
    for precision in results["runs"]:
        ratios = results["ratios"][precision]
        shown = ", ".join(f"{label} {ratios[key]:.3f}" for key, label in RATIOS if key in ratios)
        msg.info(f"[{precision}] {shown}")
    if "coref_bf16_over_encoder_fp32" in results["ratios"]:
        msg.info(f"(b) bf16 / (a) fp32: {results['ratios']['coref_bf16_over_encoder_fp32']:.3f}")
    print_accurate_target(results)
    print_by_length(results)
    print_profiles(results)


def print_accurate_target(results: Dict[str, Any]) -> None:
    """(f) in its shipped precision over (e) fp32 against the target, or why it is missing."""
    if not any("accurate_coref" in run for run in results["runs"].values()):
        return  # not asked for, or skipped: the warnings said why
    shipped = results["ratios"].get("accurate_shipped")
    if shipped is None:
        wanted = results.get("accurate", {}).get("shipped_precision")
        hint = (f"run with --precision {','.join(dict.fromkeys((FP32, wanted)))}"
                if wanted else "its config names no precision")
        one_line(f"(f) shipped / (e) fp32 not measured: {hint}", "info")
        return
    ratio = shipped["accurate_coref_over_accurate_encoder_fp32"]
    verdict = "met" if shipped["meets_target"] else "NOT met"
    precision = shipped["shipped_precision"]
    shown = (precision if precision == shipped["precision_resolved"]
             else f"{precision}: {shipped['precision_resolved']}")
    one_line(f"(f) shipped [{shown}] / (e) fp32: {ratio:.3f} (target >= "
             f"{TARGET_OVER_FLOOR:.2f}: {verdict})", "good" if shipped["meets_target"] else "warn")


def print_by_length(results: Dict[str, Any]) -> None:
    """Words/s of each system per length band, and (b) and (d) over the float32 floor (a)."""
    systems = [("parse", results["parse"])]
    for precision, run in results["runs"].items():
        systems += [(f"{label.split()[0]} [{precision}]", run[key])
                    for key, label in RUN_ROWS if key in run]
    if "fastcoref" in results:
        systems.append(("(c) fastcoref [fp32]", results["fastcoref"]))
    bands = list(dict.fromkeys(band for _, r in systems for band in r.get("by_length", {})))
    if not bands:  # results written before the bands existed
        return
    rows = [(label, *(_band_words_per_s(r, band) for band in bands)) for label, r in systems]
    msg.text("words/s by document length (words):")
    msg.table(rows, header=("system", *bands), aligns=("l", *("r" for _ in bands)),
              divider=True)
    for precision, by_band in results["ratios"].get("by_length", {}).items():
        shown = "; ".join(
            f"{band}: " + ", ".join(f"{label} {row[key]:.3f}" for key, label in BAND_RATIOS
                                    if key in row)
            for band, row in by_band.items()
        )
        msg.info(f"[{precision}] over the fp32 floors by length: {shown}")


def print_profiles(results: Dict[str, Any]) -> None:
    """Where (b), (d) and (f) spend their time: ms per 10,000 words in each part of the coref
    stage (spacy_coref.profiling), one column per system and precision."""
    columns = [(f"{label.split()[0]} [{precision}]", run[key]["profile"])
               for precision, run in results["runs"].items()
               for key, label in RUN_ROWS if "profile" in run.get(key, {})]
    if not columns:  # results written before the profile existed
        return
    parts = list(dict.fromkeys(row["part"] for _, profile in columns for row in profile))
    by_part = [{row["part"]: row for row in profile} for _, profile in columns]
    rows = [(part, *(_profile_cell(found.get(part)) for found in by_part)) for part in parts]
    msg.text("time per part of the coref stage, ms per 10,000 words (share of the whole):")
    msg.table(rows, header=("part", *(label for label, _ in columns)),
              aligns=("l", *("r" for _ in columns)), divider=True)


def _profile_cell(row: Optional[Dict[str, Any]]) -> str:
    return "" if row is None else f"{row['ms_per_10k_words']:,.0f} ({row['share']:.0%})"


def _band_words_per_s(result: Dict[str, Any], band: str) -> str:
    row = result.get("by_length", {}).get(band)
    return "" if row is None else f"{row['words_per_s']:,.0f} ({row['docs']})"


def print_long(results: Dict[str, Any]) -> None:
    rows = [(f"{row['words']:,}", row.get("precision", FP32), f"{row['parse']['seconds']:.1f}",
             f"{row['coref']['seconds']:.1f}", f"{row['coref_s_per_1k_words']:.3f}",
             f"{row['coref']['peak_above_loaded_mb']:,.0f}", *_fast_columns(row))
            for row in results["long"]]
    header = ("words", "precision", "parse s", "coref s", "coref s / 1k words",
              "coref peak above loaded MB", "fast s", "fast peak above loaded MB")
    msg.table(rows, header=header, aligns=("r", "l", "r", "r", "r", "r", "r", "r"), divider=True)


def _fast_columns(row: Dict[str, Any]) -> Tuple[str, str]:
    """The fast pipeline's seconds and memory (empty for results written before it ran)."""
    fast = row.get("fast")
    if not fast:
        return ("", "")
    return (f"{fast['seconds']:.1f}", f"{fast['peak_above_loaded_mb']:,.0f}")
