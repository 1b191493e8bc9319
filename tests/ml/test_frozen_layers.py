"""SegmentTransformerModel.v2: frozen lower layers with cached outputs, and bf16 autocast."""
from pathlib import Path

import numpy
import pytest
import spacy
import spacy_transformers  # noqa: F401 (registers its span getters and architectures)
import torch
from spacy.util import registry
from thinc.api import Adam

from spacy_coref.ml.frozen_layers import layer_cache
from spacy_coref.ml.precision import autocast, cpu_has_bf16, resolve_precision
from spacy_coref.training.smoke import write_tiny_encoder

TEXTS = [
    "Ada Lovelace wrote the first program. She worked with Charles Babbage on his engine, "
    "and he admired her notes on it for years.",
    "The committee met on Tuesday. It voted to close the old bridge, which the town had "
    "built in 1890, and to open a new one.",
    "Hi.",
]


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    return write_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"), n_layers=3, dropout=0.0)


def _build(tiny_bert: Path, **extra):
    get_spans = registry.span_getters.get("spacy-transformers.strided_spans.v1")(
        window=24, stride=18
    )
    model = registry.architectures.get("spacy_coref.SegmentTransformerModel.v2")(
        name=str(tiny_bert), get_spans=get_spans, tokenizer_config={"use_fast": True},
        max_tokens_in_batch=70, **extra
    )
    model.initialize()
    return model


@pytest.fixture(scope="module")
def docs():
    nlp = spacy.blank("en")
    return [nlp(text) for text in TEXTS]


def _d_output(output, seed=0):
    """A fixed random gradient on the real positions, built as the transformer pipe does."""
    hidden = output.model_output.last_hidden_state
    d_hidden = numpy.random.default_rng(seed).normal(size=hidden.shape).astype("float32")
    for row, length in enumerate(output.wordpieces.lengths):
        d_hidden[row, length:] = 0.0
    bounds = numpy.cumsum([0] + [len(spans) for spans in output.spans])
    return output.unsplit_by_doc(
        [[d_hidden[start:end]] for start, end in zip(bounds[:-1], bounds[1:])]
    )


def _train_step(model, docs):
    output, backprop = model.begin_update(docs)
    model.transformer.zero_grad()
    backprop(_d_output(output))
    grads = {n: p.grad.clone() for n, p in model.transformer.named_parameters()
             if p.grad is not None}
    return output, grads


def test_frozen_layers_train_upper_layers_only_with_the_same_output(tiny_bert, docs):
    full = _build(tiny_bert)
    frozen = _build(tiny_bert, frozen_layers=2)
    frozen.transformer.load_state_dict(full.transformer.state_dict())
    expected, full_grads = _train_step(full, docs)
    found, frozen_grads = _train_step(frozen, docs)
    lengths = expected.wordpieces.lengths
    hidden_e = expected.model_output.last_hidden_state.detach().numpy()
    hidden_f = found.model_output.last_hidden_state.detach().numpy()
    # the cache holds bf16 states: equal up to bf16 rounding of the layer-2 output
    for row, length in enumerate(lengths):
        numpy.testing.assert_allclose(hidden_f[row, :length], hidden_e[row, :length], atol=0.05)
    # gradients reach the top layer alone, close to the full model's there
    assert frozen_grads and all(name.startswith("encoder.layer.2.") for name in frozen_grads)
    assert any(name.startswith("embeddings.") for name in full_grads)
    for name, grad in frozen_grads.items():
        numpy.testing.assert_allclose(grad.numpy(), full_grads[name].numpy(), rtol=0.1, atol=0.05)
    # one state per distinct segment, kept for the next step
    cache = layer_cache(frozen.transformer)
    assert len(cache.states) == len(set(tuple(r) for r in expected.wordpieces.strings))
    assert all(t.dtype == torch.bfloat16 for t in cache.states.values())


def test_optimizer_step_leaves_frozen_weights_and_cache_valid(tiny_bert, docs):
    model = _build(tiny_bert, frozen_layers=2)
    _train_step(model, docs)
    lower = model.transformer.encoder.layer[0].attention.self.query.weight.detach().clone()
    upper = model.transformer.encoder.layer[2].attention.self.query.weight.detach().clone()
    n_states = len(layer_cache(model.transformer).states)
    model.finish_update(Adam(0.01))
    assert torch.equal(model.transformer.encoder.layer[0].attention.self.query.weight, lower)
    assert not torch.equal(model.transformer.encoder.layer[2].attention.self.query.weight, upper)
    _train_step(model, docs)
    assert len(layer_cache(model.transformer).states) == n_states


def test_cache_is_dropped_when_frozen_weights_change(tiny_bert, docs):
    model = _build(tiny_bert, frozen_layers=1)
    _train_step(model, docs)
    cache = layer_cache(model.transformer)
    old = next(iter(cache.states.values())).clone()
    with torch.no_grad():
        model.transformer.embeddings.word_embeddings.weight.mul_(2.0)
    _train_step(model, docs)
    new = cache.states[next(iter(cache.states))]
    assert not torch.equal(old, new)


def test_prediction_runs_the_whole_encoder(tiny_bert, docs):
    full = _build(tiny_bert)
    frozen = _build(tiny_bert, frozen_layers=3)
    frozen.transformer.load_state_dict(full.transformer.state_dict())
    expected = full.predict(docs).model_output.last_hidden_state.numpy()
    found = frozen.predict(docs).model_output.last_hidden_state.numpy()
    numpy.testing.assert_allclose(found, expected, atol=1e-5)
    assert len(layer_cache(frozen.transformer).states) == 0


def test_bf16_prediction_is_close_and_float32(tiny_bert, docs):
    full = _build(tiny_bert)
    half = _build(tiny_bert, precision="bf16")
    half.transformer.load_state_dict(full.transformer.state_dict())
    expected = full.predict(docs).model_output.last_hidden_state
    found = half.predict(docs).model_output.last_hidden_state
    assert found.dtype == torch.float32
    assert not torch.equal(found, expected)  # bf16 did run
    numpy.testing.assert_allclose(found.numpy(), expected.numpy(), atol=0.1)


@pytest.mark.parametrize(
    "extra,code", [({"precision": "fp16"}, "CE370"), ({"frozen_layers": -1}, "CE372")]
)
def test_bad_settings_are_rejected(tiny_bert, extra, code):
    with pytest.raises(ValueError, match=code):
        _build(tiny_bert, **extra)


def test_too_many_frozen_layers_fail_on_first_step(tiny_bert, docs):
    model = _build(tiny_bert, frozen_layers=4)
    with pytest.raises(ValueError, match="CE372"):
        model.begin_update(docs)


def test_auto_precision_follows_the_cpu():
    cpu = torch.device("cpu")
    assert resolve_precision("auto", cpu) == ("bf16" if cpu_has_bf16() else "fp32")
    assert resolve_precision("fp32", cpu) == "fp32"
    with autocast("bf16", cpu):
        assert torch.is_autocast_cpu_enabled()
    with autocast("fp32", cpu):
        assert not torch.is_autocast_cpu_enabled()


def test_bf16_training_step_gives_float32_gradients_close_to_fp32(tiny_bert, docs):
    full = _build(tiny_bert)
    half = _build(tiny_bert, precision="bf16")
    half.transformer.load_state_dict(full.transformer.state_dict())
    _, expected = _train_step(full, docs)
    _, found = _train_step(half, docs)
    assert found.keys() == expected.keys()
    for name, grad in found.items():
        assert grad.dtype == torch.float32
        numpy.testing.assert_allclose(grad.numpy(), expected[name].numpy(), rtol=0.2, atol=0.05)
