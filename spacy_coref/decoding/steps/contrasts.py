"""contrasts: "the old bridge" is not "the new bridge" (`pipeline/contrasts.py`)."""
from spacy.util import registry

from ...pipeline.contrasts import contrasting_pairs
from ..state import DecodingState
from ..step import DecodingStep


class Contrasts(DecodingStep):
    name = "contrasts"

    def masks(self, state: DecodingState) -> None:
        state.constrained = True
        heads = state.mentions.heads
        state.forbid(contrasting_pairs(state.doc, state.spans, heads, state.antecedents))


@registry.misc("spacy_coref.decode.contrasts.v1")
def make_contrasts() -> Contrasts:
    return Contrasts()
