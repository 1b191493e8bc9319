"""`spacy-coref metrics-table`: every metrics file as a markdown row, other JSON left out
with a warning, clear errors for unreadable files and empty directories."""
import json
import subprocess
import sys

import pytest

from spacy_coref.training.metrics_table import metrics_table, read_metrics_dir


def prf(f: float) -> dict:
    return {"p": f + 1, "r": f - 1, "f": f}


def conll(f1: float) -> dict:
    scores = {m: prf(f1 + i) for i, m in enumerate(("muc", "b3", "ceafe", "ceafm", "lea"))}
    return {**scores, "blanc": prf(1.0), "mentions": prf(80.0), "conll_f1": f1}


def gap(f: float, bias) -> dict:
    return {"overall": prf(f), "masculine": prf(f - 2), "feminine": prf(f + 2), "bias": bias}


@pytest.fixture
def metrics_dir(tmp_path):
    files = {
        "litbank": {"model": "m", "data": "dev/litbank.spacy", "conll": conll(48.7654),
                    "conll_singletons": conll(61.2345), "gap": None, "keep_singletons": False},
        "gum": {"model": "m", "data": "dev/gum.spacy", "conll": conll(36.87),
                "conll_singletons": None, "gap": None, "keep_singletons": False},
        "old": {"model": "m", "data": "dev/old.spacy", "conll": conll(30.0), "gap": None},
        # --keep-singletons: the main figure is with singletons; the table's is without
        "kept": {"model": "m", "data": "dev/litbank.spacy", "conll": conll(61.2345),
                 "conll_singletons": conll(61.2345), "conll_without_singletons": conll(48.7654),
                 "gap": None, "keep_singletons": True},
        "gap": {"model": "m", "data": "gap.spacy", "conll": None, "gap": gap(54.04, 1.0894),
                "gap_gold_mentions": gap(70.0, None)},
        "benchmark": {"words_per_second": 2000},
    }
    for name, data in files.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data), encoding="utf8")
    (tmp_path / "smoke").mkdir()  # subdirectories are not read
    (tmp_path / "smoke" / "x.json").write_text("{not json", encoding="utf8")
    return tmp_path


def test_table_rows(metrics_dir):
    with pytest.warns(UserWarning, match="CW280.*benchmark.json"):
        metrics, skipped = read_metrics_dir(metrics_dir)
    assert sorted(metrics) == ["gap", "gum", "kept", "litbank", "old"]
    assert skipped == ["benchmark.json"]
    lines = metrics_table(metrics).splitlines()
    row = {line.split(" | ")[0].strip("| "): line for line in lines if line.startswith("| ")}
    assert row["litbank"].startswith("| litbank | m | dev/litbank.spacy | 48.77 | 48.77 | 49.77 |")
    assert row["litbank"].endswith("| 81.0 / 79.0 | 61.23 |")
    assert row["kept"].replace("| kept |", "| litbank |") == row["litbank"]
    assert row["gum"].endswith("| n/a (no singletons in the gold) |")
    assert row["old"].endswith("| not measured |")
    gap_rows = [line for line in lines if line.startswith("| gap |")]
    assert gap_rows == [
        "| gap | m | gap.spacy | detected mentions | 54.0 | 52.0 | 56.0 | 1.089 |",
        "| gap | m | gap.spacy | gold-two-mention | 70.0 | 68.0 | 72.0 | n/a |",
    ]


def test_unreadable_and_empty(tmp_path):
    with pytest.raises(ValueError, match="CE282"):
        read_metrics_dir(tmp_path)
    (tmp_path / "broken.json").write_text("{", encoding="utf8")
    with pytest.raises(ValueError, match="CE281.*broken.json"):
        read_metrics_dir(tmp_path)


def test_cli_writes_markdown(metrics_dir, tmp_path):
    output = tmp_path / "out" / "summary.md"
    cmd = [sys.executable, "-m", "spacy_coref", "metrics-table", str(metrics_dir), "-o",
           str(output)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "| litbank |" in output.read_text(encoding="utf8")
    assert "CW280" in result.stderr
    (metrics_dir / "z.json").write_text("[1, 2", encoding="utf8")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "CE281" in result.stderr and "z.json" in result.stderr
