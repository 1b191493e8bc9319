"""`spacy-coref train`: the same weights as `spacy train`, checkpoints, and a run that is stopped
and resumed ending with the weights, optimizer state and learning rate of an uninterrupted one
(the CNN config, tiny; and the fine-tuned transformer with a listener, on a tiny random BERT)."""
import io
import json
import os
import random
import shutil
import signal
from pathlib import Path
from typing import Dict

import numpy
import pytest
import spacy
import srsly
from spacy.training.initialize import init_nlp
from spacy.training.loop import train as spacy_train
from spacy.util import load_config, registry
from thinc.api import Model
from typer.testing import CliRunner

from spacy_coref.cli import app
from spacy_coref.formats import read_docs, write_docs
from spacy_coref.training.optimizer_state import get_optimizer_state, set_optimizer_state
from spacy_coref.training.resumable import (
    ARRAYS_FILE,
    LOG_FILE,
    ResumableTraining,
    latest_checkpoint,
    train,
)
from spacy_coref.training.smoke import write_tiny_encoder

ROOT = Path(__file__).resolve().parents[2]
CNN = ROOT / "configs" / "coref_cnn.cfg"
TRF = ROOT / "configs" / "coref_trf.cfg"
STEPS = 8  # eight documents, 150 words a batch: six steps an epoch
TINY = {
    "training.max_steps": STEPS,
    "training.eval_frequency": 4,
    "training.batcher.size": 150,
    "training.optimizer.use_averages": True,  # averages are optimizer state too
    "training.optimizer.learn_rate.warmup_steps": 2,
    "components.coref_cluster.model.hidden_width": 16,
    # draws from Python's random generator between the epochs' shuffles, as a component may
    "training.before_update": {"@callbacks": "test_resumable.draw_random.v1"},
}
TINY_CNN = {
    "components.coref_cluster.model.tok2vec.width": 32,
    "components.coref_cluster.model.tok2vec.depth": 1,
    "components.coref_cluster.model.tok2vec.embed_size": 500,
}
pytestmark = pytest.mark.usefixtures("one_torch_thread")


@registry.callbacks("test_resumable.draw_random.v1")
def draw_random():
    def before_update(nlp, info):
        random.random()

    return before_update


@registry.callbacks("test_resumable.sigterm_at.v1")
def sigterm_at(step: int):
    def before_update(nlp, info):
        if info["step"] == step:
            os.kill(os.getpid(), signal.SIGTERM)

    return before_update


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory, shared_data) -> Path:
    path = tmp_path_factory.mktemp("data")
    gum = read_docs(shared_data / "gum" / "dev")[:2]
    gap = read_docs(shared_data / "gap" / "gap-validation.tsv")[:6]
    write_docs(gum + gap, path / "train.spacy")
    return path


@pytest.fixture(scope="module")
def overrides(tiny_data) -> Dict:
    return {"paths.train": str(tiny_data), "paths.dev": str(tiny_data), **TINY, **TINY_CNN}


@pytest.fixture(scope="module")
def straight(tmp_path_factory, overrides, one_torch_thread) -> Path:
    """A run that is never interrupted (checkpoints every 2 steps)."""
    path = tmp_path_factory.mktemp("straight")
    summary = train(CNN, path / "out", path / "ckpt", overrides=overrides, checkpoint_every=2,
                    stdout=io.StringIO())
    assert summary["step"] == STEPS and summary["epoch"] == 1 and summary["stopped_by"] is None
    return path


def _weights(path: Path) -> Dict[str, numpy.ndarray]:
    """Every parameter of a saved pipeline, Thinc's and the PyTorch shims'."""
    nlp = spacy.load(path)
    weights = {}
    for name, proc in nlp.components:
        if not isinstance(getattr(proc, "model", None), Model):
            continue
        for i, node in enumerate(proc.model.walk()):
            for param in node.param_names:
                if node.has_param(param):
                    weights[f"{name}/{i}/{param}"] = numpy.array(node.get_param(param))
            for j, shim in enumerate(node.shims):
                for param, value in shim._model.state_dict().items():
                    weights[f"{name}/{i}/{j}/{param}"] = value.numpy().copy()
    return weights


def _assert_same_weights(a: Path, b: Path) -> None:
    weights_a, weights_b = _weights(a), _weights(b)
    assert weights_a.keys() == weights_b.keys()
    different = [key for key in weights_a if not numpy.array_equal(weights_a[key], weights_b[key])]
    assert not different, different[:5]


def _interrupt(config_path: Path, overrides: Dict, path: Path, *, at: int) -> ResumableTraining:
    """Run with a checkpoint every 2 steps and stop after step `at`, as a killed run would
    (no last checkpoint, no model-last)."""
    config = load_config(config_path, overrides=overrides, interpolate=False)
    run = ResumableTraining(config, path / "ckpt", output=path / "out", checkpoint_every=2,
                            stdout=io.StringIO())
    for info in run.steps():
        if info["step"] == at:
            break
    return run


def test_same_weights_as_spacy_train(straight, overrides, tmp_path):
    config = load_config(CNN, overrides=overrides, interpolate=False)
    (tmp_path / "out").mkdir()
    spacy_train(init_nlp(config), tmp_path / "out", stdout=io.StringIO())
    _assert_same_weights(tmp_path / "out" / "model-last", straight / "out" / "model-last")
    best = spacy.load(tmp_path / "out" / "model-best").meta["performance"]
    assert spacy.load(straight / "out" / "model-best").meta["performance"] == best


def test_checkpoints_and_log(straight):
    log = srsly.read_json(straight / "out" / LOG_FILE)
    best_step = -max((record["score"], -record["step"]) for record in log)[1]
    names = sorted(path.name for path in (straight / "ckpt").iterdir())
    assert names == [f"best-{best_step:08d}", f"step-{STEPS:08d}"]  # the older ones removed
    assert [record["step"] for record in log] == [0, 4, 8]
    assert log[-1]["cpu_hours"] > 0 and log[-1]["seconds"] > 0
    assert log[-1]["score"] == log[-1]["scores"]["coref_f"]  # the weighted scores only
    assert "coref_muc_f" not in log[-1]["scores"]


def test_resume_ends_as_the_uninterrupted_run(straight, overrides, tmp_path):
    run = _interrupt(CNN, overrides, tmp_path, at=7)  # step 7 is lost: the checkpoint is of 6
    assert latest_checkpoint(tmp_path / "ckpt").name == "step-00000006"
    assert run.state["epoch"] == 1  # the replay goes over an epoch's end
    shutil.rmtree(tmp_path / "out")  # the machine is gone: model-best comes from the checkpoints
    summary = train(CNN, tmp_path / "out", tmp_path / "ckpt", overrides=overrides,
                    checkpoint_every=2, resume=True, stdout=io.StringIO())
    assert summary["step"] == STEPS and summary["epoch"] == 1
    _assert_same_weights(tmp_path / "out" / "model-last", straight / "out" / "model-last")
    _assert_same_weights(tmp_path / "out" / "model-best", straight / "out" / "model-best")
    last = f"step-{STEPS:08d}"
    resumed = srsly.msgpack_loads((tmp_path / "ckpt" / last / ARRAYS_FILE).read_bytes())
    expected = srsly.msgpack_loads((straight / "ckpt" / last / ARRAYS_FILE).read_bytes())
    for name in ("learn_rate", "nr_update", "last_seen"):
        assert resumed["optimizer"][name] == expected["optimizer"][name], name
    assert {n for _, _, _, n in resumed["optimizer"]["nr_update"]} == {STEPS + 1}
    for slot in ("mom1", "mom2", "averages"):
        assert len(resumed["optimizer"][slot]) == len(expected["optimizer"][slot]) > 0
        for got, want in zip(resumed["optimizer"][slot], expected["optimizer"][slot]):
            assert got[:3] == want[:3] and numpy.array_equal(got[3], want[3]), (slot, got[:3])
    log = srsly.read_json(tmp_path / "out" / LOG_FILE)
    expected_log = srsly.read_json(straight / "out" / LOG_FILE)
    assert [(r["step"], r["score"]) for r in log] == [(r["step"], r["score"]) for r in expected_log]


def test_optimizer_state_maps_onto_new_ids(overrides, tmp_path):
    run = _interrupt(CNN, overrides, tmp_path, at=2)
    state = get_optimizer_state(run.optimizer, run.nlp)
    resumed = ResumableTraining(load_config(CNN, overrides=overrides, interpolate=False),
                                tmp_path / "ckpt", output=tmp_path / "out", resume=True,
                                stdout=io.StringIO())
    assert not set(resumed.optimizer.mom1) & set(run.optimizer.mom1)  # other ids
    again = get_optimizer_state(resumed.optimizer, resumed.nlp)
    assert [key[:3] for key in again["mom1"]] == [key[:3] for key in state["mom1"]]
    assert again["nr_update"] == state["nr_update"]
    assert again["learn_rate"] == state["learn_rate"] > 0
    wrong = {**state, "mom1": [["shim", "coref_cluster/99/0", "w", state["mom1"][0][3]]]}
    with pytest.raises(ValueError, match="CE363"):
        set_optimizer_state(resumed.optimizer, resumed.nlp, wrong)


def test_resume_without_checkpoint(overrides, tmp_path):
    with pytest.raises(ValueError, match="CE360"):
        train(CNN, tmp_path / "out", tmp_path / "ckpt", overrides=overrides, resume=True)
    result = CliRunner().invoke(app, ["train", str(CNN), "--output", str(tmp_path / "out"),
                                      "--checkpoints", str(tmp_path / "ckpt"), "--resume"])
    assert result.exit_code == 1 and "CE360" in result.output


def test_new_run_refuses_a_checkpoint_directory_in_use(straight, overrides, tmp_path):
    with pytest.raises(ValueError, match="CE362"):
        train(CNN, tmp_path / "out", straight / "ckpt", overrides=overrides)


def test_resume_with_another_config(straight, overrides, tmp_path):
    shutil.copytree(straight / "ckpt", tmp_path / "ckpt")
    changed = {**overrides, "components.coref_cluster.model.hidden_width": 8}
    with pytest.raises(ValueError, match="CE361.*hidden_width: 16 -> 8"):
        train(CNN, tmp_path / "out", tmp_path / "ckpt", overrides=changed, resume=True)
    with pytest.warns(UserWarning, match="CW361.*training.dropout"):
        summary = train(CNN, tmp_path / "out", tmp_path / "ckpt", resume=True, force=True,
                        overrides={**overrides, "training.dropout": 0.2}, stdout=io.StringIO())
    assert summary["step"] == STEPS  # nothing left to do


def test_resume_with_more_steps(straight, overrides, tmp_path):
    """max_steps may grow; the learning rate schedule reads it (total_steps), hence CW360."""
    shutil.copytree(straight / "ckpt", tmp_path / "ckpt")
    more = {**overrides, "training.max_steps": STEPS + 2}
    args = [arg for key, value in more.items() for arg in (f"--{key}", json.dumps(value))]
    cmd = ["train", str(CNN), "--output", str(tmp_path / "out"), "--checkpoints",
           str(tmp_path / "ckpt"), "--resume", *args]
    with pytest.warns(UserWarning, match="CW360"):
        result = CliRunner().invoke(app, cmd)
    assert result.exit_code == 0, result.output
    assert f"Step {STEPS + 2} (epoch 1)" in result.output and "steps/h" in result.output
    assert latest_checkpoint(tmp_path / "ckpt").name == f"step-{STEPS + 2:08d}"
    log = srsly.read_json(tmp_path / "out" / LOG_FILE)  # the evaluations before the resume kept
    assert [record["step"] for record in log] == [0, 4, 8]


def test_sigterm_stops_after_the_step_with_a_checkpoint(overrides, tmp_path):
    stop = {**overrides, "training.before_update": {"@callbacks": "test_resumable.sigterm_at.v1",
                                                    "step": 3}}
    handler = signal.getsignal(signal.SIGTERM)
    summary = train(CNN, tmp_path / "out", tmp_path / "ckpt", overrides=stop, checkpoint_every=100,
                    stdout=io.StringIO())
    assert summary["stopped_by"] == "SIGTERM" and summary["step"] == 3
    assert latest_checkpoint(tmp_path / "ckpt").name == "step-00000003"
    assert (tmp_path / "out" / "model-last").exists()
    assert signal.getsignal(signal.SIGTERM) is handler  # given back


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    return write_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"))


def test_transformer_with_listener_resumes(tiny_data, tiny_bert, tmp_path):
    """The fine-tuned encoder (a shim, read by coref_cluster's listener) and the head."""
    overrides = {"paths.train": str(tiny_data), "paths.dev": str(tiny_data),
                 "paths.encoder": str(tiny_bert), **TINY, "training.max_steps": 4}
    train(TRF, tmp_path / "a" / "out", tmp_path / "a" / "ckpt", overrides=overrides,
          stdout=io.StringIO())
    run = _interrupt(TRF, overrides, tmp_path / "b", at=3)
    places = {(kind, place.split("/")[0]) for kind, place, _, _ in
              get_optimizer_state(run.optimizer, run.nlp)["mom1"]}
    assert places == {("shim", "transformer"), ("shim", "coref_cluster")}
    train(TRF, tmp_path / "b" / "out", tmp_path / "b" / "ckpt", overrides=overrides, resume=True,
          stdout=io.StringIO())
    _assert_same_weights(*(tmp_path / run / "out" / "model-last" for run in "ab"))
