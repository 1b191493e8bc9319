"""binding: a non-reflexive pronoun is not the subject of its own clause, a reflexive is, and
a possessor is not the noun phrase it is part of (`pipeline/binding.py`; without a parse,
`pipeline/unparsed_binding.py`)."""
from spacy.util import registry

from ...pipeline.binding import binding_masks, part_possessors
from ...pipeline.unparsed_binding import unparsed_clause_subjects
from ..state import DecodingState
from ..step import DecodingStep


class Binding(DecodingStep):
    name = "binding"

    def masks(self, state: DecodingState) -> None:
        state.constrained = True
        bound = state.mentions
        if not state.parsed:
            # read off the words (decoding only: the features keep no subjects, as the fast
            # model was trained)
            roots, subjects = unparsed_clause_subjects(state.doc, state.spans)
            bound = bound._replace(roots=roots, clause_subjects=subjects)
        forbidden, required = binding_masks(bound, state.antecedents)
        state.forbid(forbidden)
        state.require(required)

    def clusters(self, state: DecodingState) -> None:
        if state.n_mentions:
            state.clusters = part_possessors(state.clusters, state.spans, state.mentions)


@registry.misc("spacy_coref.decode.binding.v1")
def make_binding() -> Binding:
    return Binding()
