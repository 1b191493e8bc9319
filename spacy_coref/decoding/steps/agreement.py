"""agreement: one entity is not "he" and "she", nor "it" and a person, nor two speakers' "I"
(the classes of `linguistics/mention_classes.py`, cut by `constrained_clusters`)."""
from spacy.util import registry

from ...annotations import SPEAKERS_KEY
from ...linguistics.mention_classes import conflicting_classes
from ...linguistics.persons import with_persons, speakers_you_apart
from ..state import DecodingState
from ..step import DecodingStep


class Agreement(DecodingStep):
    name = "agreement"

    def masks(self, state: DecodingState) -> None:
        state.constrained = True
        doc = state.doc
        if state.parsed and len(doc.spans.get(SPEAKERS_KEY, [])) > 0:
            # not without a parse (the fast pipeline), whose OntoGUM it cost 0.06
            state.forbid(speakers_you_apart(doc, state.spans, state.antecedents))
        state.classes = with_persons(doc, state.spans, state.mentions.classes)
        state.conflicts = conflicting_classes


@registry.misc("spacy_coref.decode.agreement.v1")
def make_agreement() -> Agreement:
    return Agreement()
