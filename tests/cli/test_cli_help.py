"""Every command answers --help, and `python -m spacy_coref` is the same CLI."""
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from spacy_coref.cli import app

COMMANDS = [
    "convert", "stats", "score", "gap-score", "mentions-report", "make-corpus", "evaluate",
    "export-default", "model-card", "demo", "resolve", "metrics-table", "subset", "tiny-encoder",
    "pretrain", "distill-label", "distill-compare", "benchmark", "behaviour", "train", "word-tags",
    "download", "compare",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_help(command):
    result = CliRunner().invoke(app, [command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


def test_module_entry_is_the_same_app():
    result = subprocess.run([sys.executable, "-m", "spacy_coref", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    for command in COMMANDS:
        assert command in result.stdout
