"""distinct_names: two people's names that cannot be one person's ("Ricardo Rocha" and
"Eugenio Bernal") are never in one cluster (`pipeline/person_names.py`)."""
from spacy.util import registry

from ...pipeline.persons import antecedents_of_he_and_she
from ...pipeline.person_names import person_names
from ..state import DecodingState
from ..step import DecodingStep


class DistinctNames(DecodingStep):
    name = "distinct_names"

    def masks(self, state: DecodingState) -> None:
        state.constrained = True
        persons = antecedents_of_he_and_she(
            state.doc, state.scores, state.spans, state.null_score
        )
        state.names = person_names(state.doc, state.spans.tolist(), persons)


@registry.misc("spacy_coref.decode.distinct_names.v1")
def make_distinct_names() -> DistinctNames:
    return DistinctNames()
