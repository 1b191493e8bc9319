"""Thinc Optimizer state that survives a new process, for checkpoints of a training run.

Thinc's optimizer keys its moments, averages and counts by `(model id, param name)`, and ids
are new in every process. So the state is saved keyed by stable places (component, index in
`model.walk()`, shim index, param name) and mapped back onto the ids of a pipeline built from
the same config.
"""
from typing import Any, Dict, List, Tuple

import numpy
from spacy.language import Language
from thinc.api import Model, Optimizer, get_current_ops

from ..errors import Errors

SLOTS = ("mom1", "mom2", "averages")  # Thinc Optimizer's arrays per parameter
COUNTS = ("nr_update", "last_seen")  # and its counts per parameter
SCALARS = ("learn_rate", "b1", "b2", "eps", "L2", "grad_clip")  # current values of schedules


def model_places(nlp: Language) -> Tuple[Dict[int, Tuple[str, Model]], Dict[int, str]]:
    """Name the nodes and shims of the pipeline's models by place: component, index in
    `model.walk()` (and among the node's shims). The pipeline built from the same config in
    another process has the same places, other ids. A shared model keeps its first place.

    nlp (Language): The pipeline.
    RETURNS (Tuple[Dict[int, Tuple[str, Model]], Dict[int, str]]): node id -> (place, node),
        shim id -> place.
    """
    nodes: Dict[int, Tuple[str, Model]] = {}
    shims: Dict[int, str] = {}
    for name, proc in nlp.components:
        model = getattr(proc, "model", None)
        for i, node in enumerate(model.walk() if isinstance(model, Model) else []):
            nodes.setdefault(node.id, (f"{name}/{i}", node))
            for j, shim in enumerate(node.shims):
                shims.setdefault(shim.id, f"{name}/{i}/{j}")
    return nodes, shims


def get_optimizer_state(optimizer: Optimizer, nlp: Language) -> Dict[str, Any]:
    """The optimizer's state, its parameters named by place (see `model_places`).

    optimizer (Optimizer): Thinc's optimizer, used on `nlp`'s models.
    nlp (Language): The pipeline.
    RETURNS (Dict[str, Any]): SCALARS, and per slot and count [kind, place, name, value] rows.
    """
    nodes, shims = model_places(nlp)
    ops = get_current_ops()

    def stable(key: Tuple[int, str]) -> List[str]:
        if key[0] in nodes and nodes[key[0]][1].has_param(key[1]):
            return ["node", nodes[key[0]][0], key[1]]
        if key[0] in shims:
            return ["shim", shims[key[0]], key[1]]
        raise ValueError(Errors.CE364.format(key=key, names=nlp.component_names))

    state: Dict[str, Any] = {name: getattr(optimizer, name) for name in SCALARS}
    for name in SLOTS + COUNTS:
        table = getattr(optimizer, name) or {}
        state[name] = [[*stable(key), ops.to_numpy(value) if name in SLOTS else int(value)]
                       for key, value in table.items()]
    return state


def set_optimizer_state(optimizer: Optimizer, nlp: Language, state: Dict[str, Any]) -> None:
    """Give the optimizer the state of `get_optimizer_state`, keyed by this process's ids.

    optimizer (Optimizer): A new optimizer from the same config.
    nlp (Language): The pipeline, built from the same config.
    state (Dict[str, Any]): What `get_optimizer_state` returned.
    """
    nodes, shims = model_places(nlp)
    ids = {("node", place): id_ for id_, (place, _) in nodes.items()}
    ids.update({("shim", place): id_ for id_, place in shims.items()})
    ops = get_current_ops()
    for name in SLOTS + COUNTS:
        table = getattr(optimizer, name)
        if table is None:  # no averages
            continue
        table.clear()
        for kind, place, param, value in state[name]:
            id_ = ids.get((kind, place))
            if id_ is None or (kind == "node" and name in SLOTS
                               and nodes[id_][1].get_param(param).size != value.size):
                raise ValueError(Errors.CE363.format(key=f"{place} {param}"))
            table[(id_, param)] = ops.asarray(numpy.array(value)) if name in SLOTS else value
