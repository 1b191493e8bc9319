"""whole_phrases: a mention is its whole noun phrase ("the little house in Great Britain
Street", not "the house"), and a pronoun links to a whole name, not its parts
(`pipeline/whole_phrases.py`); its cluster rewrite runs last, as the other steps read the
mentions the model linked."""
from spacy.util import registry

from ..score_edits import with_whole_names
from ...pipeline.whole_phrases import fold_first_words, whole_names, whole_phrases
from ..state import DecodingState
from ..step import DecodingStep


class WholePhrases(DecodingStep):
    name = "whole_phrases"

    def scores(self, state: DecodingState) -> None:
        state.scores = with_whole_names(state.scores, *whole_names(state.doc, state.spans))

    def masks(self, state: DecodingState) -> None:
        state.constrained = True  # clustering that keeps one entity's nested mentions together

    def clusters(self, state: DecodingState) -> None:
        spans = state.spans.tolist()
        state.clusters = fold_first_words(state.doc, state.clusters, spans)
        state.clusters = whole_phrases(state.doc, state.clusters, spans)


@registry.misc("spacy_coref.decode.whole_phrases.v1")
def make_whole_phrases() -> WholePhrases:
    return WholePhrases()
