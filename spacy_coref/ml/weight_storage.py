"""How the trained encoder weights of an exported pipeline are stored (ENCODER_CHANGES).

"float16" halves float32's size and is exact for weights loaded from such a file. "int8" halves
it again for the weight matrices, which are nearly all of an encoder layer: each row is scaled by
its largest magnitude over 127 and rounded (symmetric, per output channel, weight only: the model
computes in float as before), and the row scales are stored beside it as `<key>.int8_scale`.
Vectors (biases, layer norms) and small matrices stay float16. It is what lets the accurate
pipeline's 6 trained MPNet layers (85 MB in float16) fit the package's 60 MB; the dev figures of
both storages are measured before one ships (docs/training.md, "The accurate pipeline").
"""
from typing import Dict

import torch

from ..errors import Errors

STORAGES = ("float32", "float16", "int8")
SCALE_SUFFIX = ".int8_scale"
# matrices smaller than this stay float16: their scales would cost more than they save
MIN_INT8_ELEMENTS = 1024


def check_storage(storage: str) -> str:
    if storage not in STORAGES:
        raise ValueError(Errors.CE398.format(value=storage, options=", ".join(STORAGES)))
    return storage


def quantize_int8(weight: torch.Tensor) -> Dict[str, torch.Tensor]:
    """A 2-D float tensor as int8 rows and one float32 scale per row (0 rows keep scale 1)."""
    weight = weight.detach().float()
    scale = weight.abs().amax(dim=1) / 127.0
    scale = torch.where(scale > 0, scale, torch.ones_like(scale))
    quantized = torch.round(weight / scale[:, None]).clamp_(-127, 127).to(torch.int8)
    return {"values": quantized.contiguous(), "scale": scale.contiguous()}


def pack_weights(weights: Dict[str, torch.Tensor], storage: str) -> Dict[str, torch.Tensor]:
    """The tensors to write for `weights` (name: float tensor) in this storage."""
    check_storage(storage)
    if storage == "float32":
        return {key: value.float().contiguous() for key, value in weights.items()}
    packed = {}
    for key, value in weights.items():
        if storage == "int8" and value.dim() == 2 and value.numel() >= MIN_INT8_ELEMENTS:
            parts = quantize_int8(value)
            packed[key] = parts["values"]
            packed[key + SCALE_SUFFIX] = parts["scale"]
        else:
            packed[key] = value.to(torch.float16).contiguous()
    return packed


def unpack_weights(packed: Dict[str, torch.Tensor]) -> Dict[str, torch.Tensor]:
    """The float32 weights that `pack_weights` wrote. An int8 tensor without its scales (or
    scales of the wrong length) raises a KeyError or ValueError that names the weight."""
    weights = {}
    for key, value in packed.items():
        if key.endswith(SCALE_SUFFIX):
            if key[: -len(SCALE_SUFFIX)] not in packed:
                raise KeyError(f"'{key}' scales no stored weight")
            continue
        if value.dtype == torch.int8:
            scale = packed.get(key + SCALE_SUFFIX)
            if scale is None:
                raise KeyError(f"the int8 weight '{key}' has no '{key}{SCALE_SUFFIX}'")
            if value.dim() != 2 or scale.shape != (value.shape[0],):
                raise ValueError(f"the scales of '{key}' do not match its {value.shape[0]} rows")
            weights[key] = value.float() * scale.float()[:, None]
        else:
            weights[key] = value.float()
    return weights
