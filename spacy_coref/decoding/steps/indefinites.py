"""indefinites: "a new library" introduces an entity and takes no antecedent."""
from spacy.util import registry

from ..score_edits import without_antecedents
from ..state import DecodingState
from ..step import DecodingStep


class Indefinites(DecodingStep):
    name = "indefinites"

    def scores(self, state: DecodingState) -> None:
        state.scores = without_antecedents(state.scores, state.mentions.indefinite)


@registry.misc("spacy_coref.decode.indefinites.v1")
def make_indefinites() -> Indefinites:
    return Indefinites()
