"""distinct_names: two people's names that cannot be one person's ("Ricardo Rocha" and
"Eugenio Bernal") are never in one cluster (the names are read in
`linguistics/person_names.py`). A mention that is the best antecedent of a "he" or "she" is
read as a person's name whatever the entity recognizer says (`antecedents_of_he_and_she`)."""
from typing import FrozenSet

import numpy
from spacy.tokens import Doc
from spacy.util import registry

from ...linguistics.mention_classes import FEMININE, MASCULINE, PRONOUN_CLASS
from ...linguistics.person_names import person_names
from ...ml.torch.constants import FIRST_ANTECEDENT_COLUMN
from ...types import CorefScores
from ..state import DecodingState
from ..step import DecodingStep


def antecedents_of_he_and_she(
    doc: Doc, scores: CorefScores, spans: numpy.ndarray, null_score: float
) -> FrozenSet[int]:
    """The mentions that are the best antecedent, above the null score, of a "he" or "she"
    (any case form): people, whatever the entity recognizer calls them ("Wells permitted ...
    He defeated").

    doc (Doc): the doc.
    scores (CorefScores): the model's output for the doc.
    spans (numpy.ndarray): [M, 2] the kept mentions' token offsets.
    null_score (float): the score of "no antecedent".
    RETURNS (FrozenSet[int]): indices of those mentions.
    """
    pair = numpy.asarray(scores.scores)[:, FIRST_ANTECEDENT_COLUMN:]  # [M, K]
    if not pair.size:
        return frozenset()
    one_word = spans[:, 1] - spans[:, 0] == 1
    gendered = [
        i for i in numpy.flatnonzero(one_word).tolist()
        if PRONOUN_CLASS.get(doc[int(spans[i, 0])].lower_) in (MASCULINE, FEMININE)
    ]
    if not gendered:
        return frozenset()
    rows = numpy.asarray(gendered)
    best = pair[rows].argmax(axis=1)  # [G]
    linked = pair[rows, best] > null_score
    return frozenset(numpy.asarray(scores.antecedents)[rows, best][linked].tolist())


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
