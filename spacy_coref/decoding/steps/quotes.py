"""quotes: a quote's "I" is its speaker and its "you" the one it is said to
(`pipeline/quotes.py`, `pipeline/unparsed_quotes.py`); after the merging steps, as who speaks
a quote outranks what the scores say."""
from spacy.util import registry

from ...pipeline.quotes import link_quote_pronouns
from ..state import DecodingState
from ..step import DecodingStep


class Quotes(DecodingStep):
    name = "quotes"

    def clusters(self, state: DecodingState) -> None:
        state.clusters = link_quote_pronouns(state.doc, state.clusters)


@registry.misc("spacy_coref.decode.quotes.v1")
def make_quotes() -> Quotes:
    return Quotes()
