"""Every entry point in setup.cfg resolves without importing spacy_coref first."""
import configparser
import subprocess
import sys
from pathlib import Path

import pytest

SETUP_CFG = Path(__file__).resolve().parents[1] / "setup.cfg"


def _entry_points():
    parser = configparser.ConfigParser()
    parser.read(SETUP_CFG)
    section = parser["options.entry_points"]
    for group, body in section.items():
        for line in body.strip().splitlines():
            name, target = (part.strip() for part in line.split("="))
            yield group, name, target


ENTRY_POINTS = list(_entry_points())


def test_entry_points_are_installed():
    from importlib.metadata import entry_points

    for group, name, target in ENTRY_POINTS:
        found = {ep.name: ep.value for ep in entry_points(group=group)}
        assert found.get(name) == target, f"{group}: {name} not installed (pip install -e . again?)"


@pytest.mark.parametrize("group,name,target", ENTRY_POINTS)
def test_entry_point_loads(group, name, target):
    from importlib.metadata import entry_points

    (ep,) = [ep for ep in entry_points(group=group) if ep.name == name]
    assert callable(ep.load())


def test_spacy_finds_factories_and_functions_without_import():
    code = (
        "import spacy\n"
        "from spacy.util import registry\n"
        "nlp = spacy.blank('en')\n"
        "nlp.add_pipe('coref_cluster')\n"
        "assert registry.architectures.get('spacy_coref.S2ECoref.v1')\n"
        "assert registry.architectures.get('spacy_coref.S2ECoref.v2')\n"
        "assert registry.scorers.get('spacy_coref.coref_scorer.v1')\n"
        "assert registry.readers.get('spacy_coref.CoNLLCorpus.v1')\n"
        "assert registry.misc.get('spacy_coref.encoder_name.v1')\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_score_weights_are_keys_the_scorer_returns():
    import spacy
    from spacy.training import Example

    nlp = spacy.blank("en")
    for factory in ("coref_cluster",):
        pipe = nlp.add_pipe(factory)
        weights = nlp.get_pipe_meta(factory).default_score_weights
        doc = nlp.make_doc("Alice saw her .")
        scores = pipe.score([Example(doc, doc.copy())])
        assert set(weights) <= set(scores), set(weights) - set(scores)
