"""Numeric precision of the encoder: float32, or bfloat16 autocast.

bf16 autocast runs the encoder's matrix products in bfloat16 and keeps layer norms, softmax and
everything downstream (the coreference head, the loss) in float32. On CPUs with native bf16
(avx512_bf16 or AMX) the MiniLM forward pass runs about 2.8x faster on 2 cores; on CPUs
without it, bf16 is emulated and slower than float32, so "auto" picks float32 there.
"""
import contextlib
import functools
from pathlib import Path
from typing import ContextManager

import torch

from ..errors import Errors, Warnings, warn

FP32, BF16, AUTO = "fp32", "bf16", "auto"
PRECISIONS = (FP32, BF16, AUTO)


def check_precision(precision: str) -> str:
    """The precision name, or ValueError (CE370) for an unknown one."""
    if precision not in PRECISIONS:
        raise ValueError(Errors.CE370.format(value=precision, options=", ".join(PRECISIONS)))
    return precision


@functools.lru_cache(maxsize=None)
def cpu_has_bf16() -> bool:
    """Whether this CPU computes bfloat16 natively (avx512_bf16 or AMX tiles)."""
    try:
        if torch.ops.mkldnn._is_mkldnn_bf16_supported():
            return True
    except (AttributeError, RuntimeError):
        pass
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        flags = cpuinfo.read_text(errors="ignore").split()
        return "avx512_bf16" in flags or "amx_bf16" in flags
    return False


@functools.lru_cache(maxsize=None)
def warn_emulated_bf16() -> None:
    """CW381, once a process: bf16 asked for where the CPU emulates it."""
    warn(Warnings.CW381)


def resolve_precision(precision: str, device: torch.device) -> str:
    """"fp32" or "bf16": what `precision` means on `device` ("auto": bf16 where native)."""
    check_precision(precision)
    if precision == BF16 and device.type == "cpu" and not cpu_has_bf16():
        warn_emulated_bf16()
    if precision != AUTO:
        return precision
    if device.type == "cuda":
        return BF16 if torch.cuda.is_bf16_supported() else FP32
    return BF16 if device.type == "cpu" and cpu_has_bf16() else FP32


def autocast(precision: str, device: torch.device) -> ContextManager:
    """A context that runs torch code at `precision` on `device` (a no-op for float32)."""
    if resolve_precision(precision, device) == BF16:
        return torch.autocast(device_type=device.type, dtype=torch.bfloat16)
    return contextlib.nullcontext()
