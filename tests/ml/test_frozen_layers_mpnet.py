"""`encode_partly_frozen` on MPNet (the accurate pipeline's encoder): its layers share one
relative position bias, which the frozen and the trained layers both read. A tiny random MPNet
with dropout 0 and weights large enough for attention and its position bias to matter, on
random wordpiece ids."""
import numpy
import pytest
import torch
from spacy_transformers.data_classes import WordpieceBatch
from transformers import MPNetConfig, MPNetModel
from transformers.modeling_outputs import BaseModelOutput

from spacy_coref.ml import frozen_layers
from spacy_coref.ml.frozen_layers import encode_partly_frozen, layer_cache

N_LAYERS = 4
PAD_ID = 1  # MPNet's <pad>
LENGTHS = [12, 7, 12, 3]  # rows 0 and 2 are the same segment: one cached state for both


@pytest.fixture(scope="module")
def mpnet() -> MPNetModel:
    config = MPNetConfig(
        vocab_size=60, hidden_size=32, num_hidden_layers=N_LAYERS, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=64, hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0, initializer_range=0.2,
    )
    torch.manual_seed(0)
    model = MPNetModel(config)
    with torch.no_grad():  # at the initial std the bias would hardly change an output
        model.encoder.relative_attention_bias.weight.normal_(0.0, 2.0)
    return model


def _batch(seed: int = 0) -> WordpieceBatch:
    rng = numpy.random.default_rng(seed)
    width = max(LENGTHS)
    ids = numpy.full((len(LENGTHS), width), PAD_ID, dtype="int64")
    mask = numpy.zeros((len(LENGTHS), width), dtype="float32")
    for row, n in enumerate(LENGTHS):
        ids[row, :n] = rng.integers(3, 60, size=n)
        ids[row, 0], ids[row, n - 1] = 0, 2  # <s> ... </s>
        mask[row, :n] = 1.0
    ids[2] = ids[0]
    strings = [[str(i) for i in row[:n]] for row, n in zip(ids, LENGTHS)]
    return WordpieceBatch(strings, ids, mask, list(LENGTHS), None)


def _full(model: MPNetModel, batch: WordpieceBatch) -> torch.Tensor:
    output = model(
        input_ids=torch.as_tensor(batch.input_ids),
        attention_mask=torch.as_tensor(batch.attention_mask),
    )
    return output.last_hidden_state  # [rows, width, hidden]


def _real(hidden: torch.Tensor) -> numpy.ndarray:
    """The real (not padding) positions of every row, one after the other."""
    return numpy.concatenate([hidden[row, :n].detach().numpy() for row, n in enumerate(LENGTHS)])


def _rounded_reference(model: MPNetModel, batch: WordpieceBatch, n_frozen: int) -> torch.Tensor:
    """The whole model's forward pass with the output of the frozen layers rounded to bf16, as
    the cache stores it."""
    ids = torch.as_tensor(batch.input_ids)
    mask = model.get_extended_attention_mask(torch.as_tensor(batch.attention_mask), ids.shape)
    with torch.no_grad():
        hidden = model.embeddings(input_ids=ids)
        bias = model.encoder.compute_position_bias(hidden)
        for i, layer in enumerate(model.encoder.layer):
            if i == n_frozen:
                hidden = hidden.to(torch.bfloat16).float()
            hidden = layer(hidden, attention_mask=mask, position_bias=bias)[0]
    return hidden


@pytest.mark.parametrize("n_frozen", range(1, N_LAYERS))
def test_partly_frozen_output_is_the_full_models(mpnet, n_frozen):
    mpnet.eval()
    batch = _batch()
    output, _ = encode_partly_frozen(mpnet, batch, n_frozen, "fp32")
    found = _real(output.last_hidden_state)
    # exact but for the bf16 cache: the same computation with that rounding
    expected = _real(_rounded_reference(mpnet, batch, n_frozen))
    numpy.testing.assert_allclose(found, expected, rtol=1e-5, atol=1e-5)
    with torch.no_grad():
        full = _real(_full(mpnet, batch))
    numpy.testing.assert_allclose(found, full, atol=0.02)
    # the position bias matters in this model: without it the output is another one
    with torch.no_grad():
        saved = mpnet.encoder.relative_attention_bias.weight.clone()
        mpnet.encoder.relative_attention_bias.weight.zero_()
        unbiased = _real(_full(mpnet, batch))
        mpnet.encoder.relative_attention_bias.weight.copy_(saved)
    assert numpy.abs(unbiased - full).max() > 0.5


def test_cache_fills_once_and_gradients_reach_the_upper_layers_only(mpnet, monkeypatch):
    n_frozen = 2
    mpnet.train()
    calls = []
    fill = frozen_layers._fill_cache

    def counting_fill(*args, **kwargs):
        calls.append(args[4])  # the rows it computes
        return fill(*args, **kwargs)

    monkeypatch.setattr(frozen_layers, "_fill_cache", counting_fill)
    layer_cache(mpnet).states.clear()
    batch = _batch(seed=1)
    mpnet.zero_grad()
    output, backprop = encode_partly_frozen(mpnet, batch, n_frozen, "fp32")
    d_hidden = torch.ones_like(output.last_hidden_state)
    backprop(BaseModelOutput(last_hidden_state=d_hidden))
    assert calls == [[0, 1, 2, 3]] and len(layer_cache(mpnet).states) == 3  # rows 0, 2 equal
    grads = {name for name, p in mpnet.named_parameters() if p.grad is not None}
    upper = {name for name, _ in mpnet.named_parameters()
             if int(name.split(".")[2] if name.startswith("encoder.layer.") else -1) >= n_frozen}
    assert grads == upper
    assert not any(name.startswith(("embeddings.", "encoder.relative_attention_bias", "pooler."))
                   for name in grads)
    assert all(mpnet.get_parameter(name).grad.abs().sum() > 0 for name in grads
               if name.endswith("dense.weight"))
    # the next step reads the cache: no frozen layer runs, and the output is the same
    again, _ = encode_partly_frozen(mpnet, batch, n_frozen, "fp32")
    assert len(calls) == 1
    found, first = _real(again.last_hidden_state), _real(output.last_hidden_state)
    numpy.testing.assert_array_equal(found, first)
    # the full model's gradient does reach the bias: freezing it is what the cache does
    mpnet.zero_grad()
    _full(mpnet, batch).sum().backward()
    assert mpnet.encoder.relative_attention_bias.weight.grad is not None
    mpnet.zero_grad()
