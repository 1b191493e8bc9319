"""Every `spacy-coref` command line in project.yml names a command and options that exist, so
that a workflow too long to run in the tests (`accurate`, `distill-accurate`) fails on a typo
here and not hours into a run."""

import shlex
from pathlib import Path

import pytest
import srsly
import typer

from spacy_coref.cli import app

ROOT = Path(__file__).resolve().parents[1]
PREFIX = ["python", "-m", "spacy_coref"]


def command_lines():
    project = srsly.read_yaml(ROOT / "project.yml")
    for command in project["commands"]:
        for line in command.get("script", []):
            words = shlex.split(line)
            if words[:3] == PREFIX:
                yield pytest.param(words[3:], id=f"{command['name']}: {words[3]}")


def test_the_workflows_name_their_commands():
    project = srsly.read_yaml(ROOT / "project.yml")
    names = {command["name"] for command in project["commands"]}
    for workflow, steps in project["workflows"].items():
        assert set(steps) <= names, workflow
    assert len(list(command_lines())) > 40  # the lines are read


@pytest.mark.parametrize("words", command_lines())
def test_each_command_line_names_real_options(words):
    group = typer.main.get_command(app)
    assert words[0] in group.commands, f"no command {words[0]!r}"
    command = group.commands[words[0]]
    options = {opt for param in command.params for opt in getattr(param, "opts", [])}
    options |= {opt for param in command.params for opt in getattr(param, "secondary_opts", [])}
    for word in words[1:]:
        if not word.startswith("--"):
            continue
        name = word.split("=", 1)[0]
        # `train` and `pretrain` pass dotted options on to the config (--paths.train)
        if command.context_settings.get("allow_extra_args") and "." in name:
            continue
        assert name in options, f"{words[0]}: no option {name}"


def test_distill_fast_trains_on_the_corpus_and_the_teachers_silver_alone(tmp_path):
    """`distill-fast` gathers its training directory with a shell line: the gold corpus and
    silver-accurate's shards of modern text (Wikipedia and chat), not the teacher's
    distributions on the gold documents (gold-*.spacy, for the default's candidates) nor the
    manifests."""
    import subprocess
    import sys

    project = srsly.read_yaml(ROOT / "project.yml")
    commands = {command["name"]: command for command in project["commands"]}
    script = commands["distill-fast"]["script"]
    gather = next(line for line in script if line.startswith("python -c"))
    for name in ("corpus/train/gum.spacy", "corpus/train/gap.spacy",
                 "corpus/distill_default/wiki-00000.spacy", "corpus/distill_default/wiki.json",
                 "corpus/distill_default/chat-00000.spacy", "corpus/distill_default/chat.json",
                 "corpus/distill_default/gold-00000.spacy", "corpus/distill_default/gold.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    words = shlex.split(gather)
    subprocess.run([sys.executable, *words[1:]], cwd=tmp_path, check=True)
    got = sorted(p.name for p in (tmp_path / "corpus/distill_fast").iterdir())
    assert got == ["chat-00000.spacy", "gap.spacy", "gum.spacy", "wiki-00000.spacy"]
    train = next(line for line in script if " train configs/fast_student.cfg" in line)
    assert "--paths.train corpus/distill_fast" in train
    assert "--paths.init_coref spacy_coref/fast_model" in train
    # measured against the shipped fast pipeline, also where nothing was selected
    assert any("compare fast corpus/fresh/gum.spacy" in line for line in script)
