"""names: a repeated name ("Petra" ... "Petra", "Helena Kurz" ... "Kurz") joins its earlier
mention's cluster where agreement allows (`pipeline/name_match.py`)."""
from spacy.util import registry

from ...pipeline.binding import forbidden_pronoun_pairs, possessor_pairs
from ...pipeline.mention_classes import COLLECTIVE, FEMININE, MASCULINE, conflicting_classes
from ...pipeline.name_match import link_repeated_names
from ...pipeline.person_names import GroupNames
from ..state import DecodingState
from ..step import DecodingStep


class Names(DecodingStep):
    name = "names"

    def clusters(self, state: DecodingState) -> None:
        if not state.n_mentions:
            return
        spans = state.spans.tolist()
        # agreement between the merged clusters even where the decoding leaves agreement out:
        # "Jordan ... he" and "Jordan ... she" are two people; and persons, as in clustering:
        # in a transcript "Jones: My grandmother ... She" and "Jones: ... I" are two
        classes = state.mention_classes
        clashes = None
        if state.names is not None:  # "distinct_names" ran
            clashes = GroupNames(dict(zip(map(tuple, spans), state.names))).clash
        apart = forbidden_pronoun_pairs(state.doc, state.scores, state.spans, state.forbidden)
        if "binding" in state.active:
            # nor may a name bring a phrase into its possessor's cluster ("its new chip" with
            # the "its" of Fenwick Labs, through "Fenwick" linked to the chip's "it")
            apart |= possessor_pairs(state.spans, state.mentions)
        state.clusters = link_repeated_names(
            state.doc, state.clusters, spans, classes, conflicting_classes, clashes,
            person_classes=MASCULINE | FEMININE, apart=apart, company_classes=COLLECTIVE,
        )


@registry.misc("spacy_coref.decode.names.v1")
def make_names() -> Names:
    return Names()
