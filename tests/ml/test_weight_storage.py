"""How exported encoder weights are stored: float16, or int8 rows with their scales."""
import pytest
import torch

from spacy_coref.ml.weight_storage import (
    SCALE_SUFFIX,
    check_storage,
    pack_weights,
    quantize_int8,
    unpack_weights,
)


def _weights():
    torch.manual_seed(0)
    return {
        "layer.dense.weight": torch.randn(48, 64),
        "layer.dense.bias": torch.randn(48),
        "layer.small.weight": torch.randn(8, 8),  # too small to be worth its scales
        "layer.zero.weight": torch.zeros(32, 64),
    }


def test_int8_rows_are_within_half_a_step_of_the_weights():
    weight = torch.randn(16, 100) * torch.logspace(-3, 1, 16)[:, None]  # rows of other sizes
    parts = quantize_int8(weight)
    assert parts["values"].dtype == torch.int8 and parts["scale"].shape == (16,)
    # the largest magnitude of each row maps to 127
    assert torch.equal(parts["values"].abs().amax(dim=1), torch.full((16,), 127, dtype=torch.int8))
    restored = parts["values"].float() * parts["scale"][:, None]
    assert torch.all((restored - weight).abs() <= parts["scale"][:, None] / 2 + 1e-7)


def test_int8_storage_packs_matrices_and_keeps_vectors_in_float16():
    weights = _weights()
    packed = pack_weights(weights, "int8")
    assert packed["layer.dense.weight"].dtype == torch.int8
    assert packed["layer.dense.weight" + SCALE_SUFFIX].shape == (48,)
    assert packed["layer.dense.bias"].dtype == torch.float16
    assert packed["layer.small.weight"].dtype == torch.float16
    restored = unpack_weights(packed)
    assert restored.keys() == weights.keys()
    assert {value.dtype for value in restored.values()} == {torch.float32}
    error = (restored["layer.dense.weight"] - weights["layer.dense.weight"]).abs().max()
    assert 0 < error <= weights["layer.dense.weight"].abs().max() / 254 + 1e-6
    assert torch.equal(restored["layer.zero.weight"], weights["layer.zero.weight"])
    assert torch.equal(restored["layer.dense.bias"], weights["layer.dense.bias"].half().float())


@pytest.mark.parametrize("storage,dtype", [("float16", torch.float16), ("float32", torch.float32)])
def test_float_storages_keep_every_tensor_in_their_type(storage, dtype):
    weights = _weights()
    packed = pack_weights(weights, storage)
    assert packed.keys() == weights.keys()
    assert {value.dtype for value in packed.values()} == {dtype}
    restored = unpack_weights(packed)
    for key, value in weights.items():
        assert torch.equal(restored[key], value.to(dtype).float())


def test_broken_int8_files_name_the_weight():
    packed = pack_weights(_weights(), "int8")
    without_scale = {k: v for k, v in packed.items() if k != "layer.dense.weight" + SCALE_SUFFIX}
    with pytest.raises(KeyError, match="layer.dense.weight"):
        unpack_weights(without_scale)
    orphan = {k: v for k, v in packed.items() if k != "layer.dense.weight"}
    with pytest.raises(KeyError, match="scales no stored weight"):
        unpack_weights(orphan)
    packed["layer.dense.weight" + SCALE_SUFFIX] = torch.ones(3)
    with pytest.raises(ValueError, match="48 rows"):
        unpack_weights(packed)


def test_unknown_storage_is_refused():
    with pytest.raises(ValueError, match="CE398.*bfloat16"):
        check_storage("bfloat16")
    with pytest.raises(ValueError, match="CE398"):
        pack_weights(_weights(), "int4")
