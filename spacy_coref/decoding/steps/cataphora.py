"""cataphora: "When she landed, the pilot ..." (`pipeline/cataphora.py`)."""
from spacy.util import registry

from ...pipeline.cataphora import link_cataphora
from ...pipeline.mention_classes import CATAPHORIC_PRONOUNS, conflicting_classes
from ..state import DecodingState
from ..step import DecodingStep


class Cataphora(DecodingStep):
    name = "cataphora"

    def clusters(self, state: DecodingState) -> None:
        if not state.n_mentions:
            return
        state.clusters = link_cataphora(
            state.doc, state.clusters, state.spans.tolist(), state.mentions.heads.tolist(),
            state.mention_classes, CATAPHORIC_PRONOUNS, conflicting_classes,
        )


@registry.misc("spacy_coref.decode.cataphora.v1")
def make_cataphora() -> Cataphora:
    return Cataphora()
