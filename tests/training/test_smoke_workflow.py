"""`spacy project run smoke`: every step of the project on a tiny subset, in a copy of the
project, ending with a wheel that installs and loads with `spacy.load`."""
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "en_coref_smoke"
LOAD_AND_RESOLVE = """
import json, spacy
nlp = spacy.load("en_coref_smoke")
doc = nlp("Anna met her brother in Paris. She told him that she would stay there.")
print(json.dumps({
    "path": str(nlp.path), "pipes": nlp.pipe_names, "keys": sorted(doc.spans),
    "clusters": [[m.text for m in c.mentions] for c in doc._.coref_clusters],
}))
"""


@pytest.fixture(scope="module")
def smoke_project(tmp_path_factory, shared_data) -> Path:
    project = tmp_path_factory.mktemp("project")
    shutil.copy(ROOT / "project.yml", project / "project.yml")
    shutil.copytree(ROOT / "configs", project / "configs")
    cmd = [
        sys.executable, "-m", "spacy", "project", "run", "smoke", str(project),
        "--vars.data_dir", str(shared_data),
    ]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return project


def test_smoke_outputs(smoke_project):
    for path in ("corpus/smoke/train/litbank.spacy", "corpus/smoke/gap-dev/gap.spacy",
                 "training/smoke/base/config.cfg", "training/smoke/coref/model-best/config.cfg",
                 "training/smoke/coref_pretrained/model-best/config.cfg",
                 "training/smoke/student/model-best/config.cfg", "metrics/smoke/distill.json",
                 "metrics/smoke/benchmark.json"):
        assert (smoke_project / path).exists(), path
    litbank = json.loads((smoke_project / "metrics/smoke/litbank.json").read_text())
    assert litbank["n_docs"] == 1
    assert litbank["conll"] and litbank["conll_singletons"]  # LitBank keeps singletons
    gap = json.loads((smoke_project / "metrics/smoke/gap.json").read_text())
    assert gap["n_docs"] == 20
    for setting in ("gap", "gap_gold_mentions"):
        assert sum(gap[setting]["overall"][k] for k in ("tp", "fp", "tn", "fn")) == 40
    # the student's silver: Wikipedia's most pronoun-dense chunks of two files, and chat
    wiki = json.loads((smoke_project / "corpus/smoke/silver/wiki.json").read_text())
    assert wiki["order"] == "pronouns" and len(wiki["texts"]) == 3
    assert all(text.startswith("enwiki") for text in wiki["texts"])
    chat = json.loads((smoke_project / "corpus/smoke/silver/chat.json").read_text())
    assert len(chat["texts"]) == 2 and all(t.startswith("chitchat") for t in chat["texts"])
    compared = json.loads((smoke_project / "metrics/smoke/distill_vs_teacher.json").read_text())
    assert compared["model_b"] == "training/smoke/student/model-best"
    f1 = compared["conll"]["conll_f1"]
    assert f1["difference"] == pytest.approx(f1["b"] - f1["a"]) and f1["low"] <= f1["high"]
    summary = (smoke_project / "metrics/smoke/summary.md").read_text()
    assert "| litbank |" in summary and "gold-two-mention" in summary


def test_smoke_wheel_installs_and_loads(smoke_project, tmp_path):
    wheels = list((smoke_project / "packages" / "smoke").glob(f"*/dist/{PACKAGE}-*.whl"))
    assert len(wheels) == 1, wheels
    with zipfile.ZipFile(wheels[0]) as wheel:
        metadata = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        requires = [
            line.split(":", 1)[1].strip() for line in wheel.read(metadata).decode().splitlines()
            if line.startswith("Requires-Dist:")
        ]
    # spacy package found the registered functions' distribution in the config
    assert any(req.startswith("spacy-s2e-coref") for req in requires), requires
    target = tmp_path / "site"
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
           str(wheels[0])]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    env = {**os.environ, "PYTHONPATH": str(target), "HF_HUB_OFFLINE": "1"}
    result = subprocess.run([sys.executable, "-c", LOAD_AND_RESOLVE], capture_output=True,
                            text=True, timeout=300, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert loaded["path"].startswith(str(target))  # the installed copy, not the training dir
    assert loaded["pipes"][-2:] == ["coref_mentions", "coref_cluster"]
    assert "coref_mentions" in loaded["keys"]
    n_clusters = len([k for k in loaded["keys"] if k.startswith("coref_clusters_")])
    assert n_clusters == len(loaded["clusters"])
