"""salience: a "he" or "she" prefers a subject close by in its own role, by more than the
model's scores alone say (`pipeline/salience.py`); needs the parse."""
from typing import Dict, Optional

from spacy.util import registry

from ...errors import Errors
from ...pipeline.salience import FEATURES, SCALE, WEIGHTS, with_salience
from ..state import DecodingState
from ..step import DecodingStep


class Salience(DecodingStep):
    name = "salience"
    needs_parse = True

    def __init__(self, weights: Optional[Dict[str, float]] = None, scale: float = SCALE) -> None:
        unknown = sorted(set(weights or {}) - set(FEATURES))
        if unknown:  # at construction: a config's misspelled feature fails on loading
            raise ValueError(Errors.CE146.format(unknown=unknown, features=list(FEATURES)))
        self.weights = {**WEIGHTS, **(weights or {})}  # a weight left out keeps its value
        self.scale = scale

    def scores(self, state: DecodingState) -> None:
        state.scores = with_salience(
            state.doc, state.scores, state.spans, state.mentions.heads, state.valid(),
            weights=self.weights, scale=self.scale,
        )


@registry.misc("spacy_coref.decode.salience.v1")
def make_salience(weights: Optional[Dict[str, float]] = None, scale: float = SCALE) -> Salience:
    """weights (Optional[Dict[str, float]]): each salience feature's weight (fitted on the dev
        sets by scripts/fit_salience.py; None: those).
    scale (float): how much of the salience is added to the scores."""
    return Salience(weights=weights, scale=scale)
