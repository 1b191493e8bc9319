"""The `precision` setting of `coref_cluster` and `coref`: it reaches the transformer's attrs
(upstream through the listener, or inside the model after `replace_listeners`), a bad value
raises CE370, and saved pipelines keep the configured setting, not a stale one."""
import warnings
from pathlib import Path

import pytest
import spacy
import spacy_transformers  # noqa: F401 (registers its architectures and span getters)
import torch

from spacy_coref.annotations import set_mentions
from spacy_coref.training.smoke import write_tiny_encoder

TEXT = "Alice saw Bob . She waved at him and he smiled ."
MENTIONS = [(0, 1), (2, 3), (4, 5), (7, 8), (9, 10)]


def _tiny_nlp(encoder: Path, **cluster_cfg) -> spacy.Language:
    """A blank pipeline: a tiny transformer, and coref_cluster listening to it."""
    nlp = spacy.blank("en")
    nlp.add_pipe("transformer", config={"model": {
        "@architectures": "spacy_coref.SegmentTransformerModel.v2",
        "name": str(encoder),
        "tokenizer_config": {"use_fast": True},
        "get_spans": {"@span_getters": "spacy-transformers.strided_spans.v1", "window": 24,
                      "stride": 18},
    }})
    listener = {"@architectures": "spacy-transformers.TransformerListener.v1",
                "grad_factor": 1.0, "upstream": "*", "pooling": {"@layers": "reduce_mean.v1"}}
    model = {"hidden_width": 16, "top_lambda": 1.0, "tok2vec": listener}
    nlp.add_pipe("coref_cluster", config={"model": model, **cluster_cfg})
    return nlp


@pytest.fixture(scope="module")
def encoder(tmp_path_factory) -> Path:
    return write_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"), dropout=0.0)


@pytest.fixture(scope="module")
def saved(encoder, tmp_path_factory) -> Path:
    """A trained-shape coreference pipeline on disk (random weights), with no precision set."""
    nlp = _tiny_nlp(encoder)
    nlp.initialize()
    path = tmp_path_factory.mktemp("pipeline") / "coref"
    nlp.to_disk(path)
    return path


def _trf_precision(nlp: spacy.Language):
    return nlp.get_pipe("transformer").model.attrs.get("precision")


def _run(nlp: spacy.Language) -> None:
    doc = nlp.make_doc(TEXT)
    set_mentions(doc, MENTIONS)
    for _, proc in nlp.pipeline:
        doc = proc(doc)


def test_cluster_setting_reaches_the_upstream_transformer(encoder):
    nlp = _tiny_nlp(encoder, precision="bf16")
    nlp.initialize()
    assert _trf_precision(nlp) == "bf16"
    cluster = nlp.get_pipe("coref_cluster")
    assert cluster.encoders() == [nlp.get_pipe("transformer").model]
    _run(nlp)  # the head computes in float32 on bf16 encoder output
    cluster.use_precision(None)  # the transformer's own setting again
    assert _trf_precision(nlp) == "fp32"
    cluster.use_precision("auto")
    assert _trf_precision(nlp) == "auto"
    with pytest.raises(ValueError, match="CE370"):
        cluster.use_precision("fp16")


def test_cluster_setting_survives_saving_and_loading(encoder, saved, tmp_path):
    loaded = spacy.load(saved, config={"components": {"coref_cluster": {"precision": "bf16"}}})
    assert _trf_precision(loaded) == "bf16"
    _run(loaded)
    loaded.to_disk(tmp_path / "again")
    again = spacy.load(tmp_path / "again")
    assert again.config["components"]["coref_cluster"]["precision"] == "bf16"
    assert _trf_precision(again) == "bf16"
    # the component's saved cfg does not override the config
    plain = spacy.load(tmp_path / "again", config={"components.coref_cluster.precision": "fp32"})
    assert _trf_precision(plain) == "fp32"


def test_cluster_setting_reaches_a_replaced_listener(encoder, saved):
    nlp = spacy.load(saved)
    nlp.replace_listeners("transformer", "coref_cluster", ["model.tok2vec"])
    cluster = nlp.get_pipe("coref_cluster")
    cluster.use_precision("bf16")
    inner = cluster.encoders()
    assert len(inner) == 1 and inner[0] is not nlp.get_pipe("transformer").model
    assert inner[0].attrs["precision"] == "bf16" and _trf_precision(nlp) == "fp32"


def test_bad_precision_is_an_error_at_construction(encoder):
    with pytest.raises(ValueError, match="CE370"):
        _tiny_nlp(encoder, precision="half")
    with pytest.raises(ValueError, match="CE370"):
        spacy.blank("en").add_pipe("coref", config={"precision": "float16"})


def test_setting_without_a_transformer_warns_once():
    nlp = spacy.blank("en")
    small = {"hidden_width": 16, "tok2vec": {"width": 16, "depth": 1, "embed_size": 100}}
    with pytest.warns(UserWarning, match="CW380"):
        cluster = nlp.add_pipe("coref_cluster", config={"model": small, "precision": "bf16"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cluster.use_precision("fp32")


def test_stack_setting_reaches_the_inner_transformer_and_is_saved(saved, tmp_path):
    host = spacy.blank("en")
    stack = host.add_pipe("coref", config={"pipeline": str(saved), "precision": "bf16"})
    assert _trf_precision(stack.inner) == "bf16"
    assert stack.inner.get_pipe("coref_cluster").cfg["precision"] == "bf16"
    host.to_disk(tmp_path / "host")
    # the inner pipeline is saved with its own setting, the host's config keeps the user's
    inner = spacy.load(tmp_path / "host" / "coref")
    assert _trf_precision(inner) == "fp32"
    assert _trf_precision(stack.inner) == "bf16"
    loaded = spacy.load(tmp_path / "host")
    assert loaded.config["components"]["coref"]["precision"] == "bf16"
    assert _trf_precision(loaded.get_pipe("coref").inner) == "bf16"
    reset = spacy.load(tmp_path / "host", config={"components.coref.precision": None})
    assert _trf_precision(reset.get_pipe("coref").inner) == "fp32"
    # for this run only
    reset.get_pipe("coref").use_precision("auto")
    assert _trf_precision(reset.get_pipe("coref").inner) == "auto"
    reset.get_pipe("coref").use_precision(None)
    assert _trf_precision(reset.get_pipe("coref").inner) == "fp32"


def test_bf16_where_the_cpu_emulates_it_warns_once(monkeypatch):
    """A CPU without avx512_bf16 or AMX emulates bf16 (80 times slower products on an AVX2 AMD
    EPYC): asking for it there warns once; "auto" picks float32 there and does not warn."""
    from spacy_coref.ml import precision

    cpu = torch.device("cpu")
    monkeypatch.setattr(precision, "cpu_has_bf16", lambda: False)
    precision.warn_emulated_bf16.cache_clear()
    with pytest.warns(UserWarning, match="CW381"):
        assert precision.resolve_precision("bf16", cpu) == "bf16"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert precision.resolve_precision("bf16", cpu) == "bf16"  # once a process
        assert precision.resolve_precision("auto", cpu) == "fp32"
    monkeypatch.setattr(precision, "cpu_has_bf16", lambda: True)
    precision.warn_emulated_bf16.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert precision.resolve_precision("bf16", cpu) == "bf16"
        assert precision.resolve_precision("auto", cpu) == "bf16"
