"""Random states of Python, NumPy and PyTorch (CPU and CUDA), saved in and restored from a
checkpoint, so a resumed training run draws the numbers an uninterrupted run would.
"""
import random
from typing import Any, Dict, List

import numpy


def get_random_states() -> Dict[str, Any]:
    """The states of Python's, NumPy's and PyTorch's (CPU and CUDA) random generators."""
    import torch

    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else []
    return {"python": get_python_state(), "numpy": list(numpy.random.get_state()),
            "torch": torch.get_rng_state().numpy(), "cuda": [s.numpy() for s in cuda]}


def set_random_states(states: Dict[str, Any]) -> None:
    """Restore the random states of `get_random_states`."""
    import torch

    set_python_state(states["python"])
    name, keys, *rest = states["numpy"]
    numpy.random.set_state((name, numpy.array(keys, dtype="uint32"), *rest))
    torch.set_rng_state(torch.from_numpy(numpy.array(states["torch"], dtype="uint8")))
    if states["cuda"] and torch.cuda.is_available():
        cuda = [torch.from_numpy(numpy.array(s, dtype="uint8")) for s in states["cuda"]]
        torch.cuda.set_rng_state_all(cuda)


def get_python_state() -> List[Any]:
    """Python's random state as a list (msgpack has no tuples)."""
    version, internal, gauss = random.getstate()
    return [version, list(internal), gauss]


def set_python_state(state: List[Any]) -> None:
    """Restore a state of `get_python_state`."""
    random.setstate((state[0], tuple(state[1]), state[2]))
