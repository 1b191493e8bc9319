"""Edits of a doc's antecedent scores that the "scores" stage of the decoding makes: each
returns new scores (a copy where any changed) and leaves its input alone, so that a step
never changes what another decoding of the same scores sees.
"""
import dataclasses
from typing import Dict

import numpy
from spacy.strings import hash_string
from spacy.tokens import Doc

from ..ml.torch.constants import FIRST_ANTECEDENT_COLUMN, MASKED_SCORE
from ..types import CorefScores, valid_antecedents


def with_null_scores_by_form(
    doc: Doc,
    scores: CorefScores,
    spans: numpy.ndarray,
    null_score: float,
    by_form: Dict[str, float],
) -> CorefScores:
    """The scores with each one-word mention of a form in `by_form` scored as if its "no
    antecedent" scored that: its real antecedents' scores move by the difference, so that
    every later step, which compares them with `null_score`, sees the same choice."""
    forms = numpy.asarray([hash_string(form) for form in by_form], dtype="uint64")  # [F]
    shifts = numpy.asarray([null_score - value for value in by_form.values()], dtype="float32")
    words = doc.to_array("LOWER").astype("uint64")[spans[:, 0]]  # [M] each mention's first word
    match = (words[:, None] == forms[None, :]) & (spans[:, 1:] - spans[:, :1] == 1)  # [M, F]
    shift = numpy.where(match.any(axis=1), shifts[match.argmax(axis=1)], 0.0)  # [M]
    if not shift.any():
        return scores
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K], a copy
    pair = pair_scores[:, FIRST_ANTECEDENT_COLUMN:]  # [M, K] (a view)
    real = pair > MASKED_SCORE / 2  # [M, K]
    pair += numpy.where(real, shift[:, None], 0.0).astype("float32")  # [M, K]
    return dataclasses.replace(scores, scores=pair_scores)


def with_whole_names(
    scores: CorefScores, pronoun: numpy.ndarray, whole: numpy.ndarray, first: numpy.ndarray
) -> CorefScores:
    """The scores with no link from a pronoun to part of a name (`whole_phrases.whole_names`):
    to its first words ("Harbor" of "Harbor Airlines") none at all, and a link to its last
    words ("Nakamura" of "Professor Nakamura") given to the whole name, whose score becomes
    the better of the two, where the whole name is among the pronoun's candidates. On the dev
    sets, moving the first words' links too gave GAP 0.1 and OntoGUM 0.03 less, and dropping
    the last words' links GAP 0.5 less (the model then often took another person).

    scores (CorefScores): the model's output for the doc.
    pronoun (numpy.ndarray): [M] bool, the pronouns.
    whole (numpy.ndarray): [M] the index of each mention's whole name, -1 where none.
    first (numpy.ndarray): [M] bool, the parts that are a name's first words.
    RETURNS (CorefScores): the scores, a copy where any changed.
    """
    antecedents = numpy.asarray(scores.antecedents)  # [M, K]
    if not antecedents.size or not pronoun.any() or (whole < 0).all():
        return scores
    parts = pronoun[:, None] & (whole[antecedents] >= 0) & valid_antecedents(scores)  # [M, K]
    if not parts.any():
        return scores
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K], a copy
    pair = pair_scores[:, FIRST_ANTECEDENT_COLUMN:]  # [M, K] (a view)
    for m, k in zip(*numpy.nonzero(parts)):
        part = antecedents[m, k]
        columns = numpy.flatnonzero(antecedents[m] == whole[part])
        moved = len(columns) > 0 and pair[m, columns[0]] > MASKED_SCORE / 2
        if moved and not first[part]:
            pair[m, columns[0]] = max(pair[m, columns[0]], pair[m, k])
        if moved or first[part]:
            pair[m, k] = MASKED_SCORE
    return dataclasses.replace(scores, scores=pair_scores)


def lowered_scores(scores: CorefScores, pairs: numpy.ndarray, margin: float) -> CorefScores:
    """The scores with the (mention, antecedent) `pairs` ([M, K] bool) lowered by `margin`."""
    if not pairs.any():
        return scores
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K], a copy
    pair_scores[:, FIRST_ANTECEDENT_COLUMN:][pairs] -= margin
    return dataclasses.replace(scores, scores=pair_scores)


def without_antecedents(scores: CorefScores, rows: numpy.ndarray) -> CorefScores:
    """The scores with no antecedent for the mentions of `rows` ([M] bool)."""
    if not rows.any():
        return scores
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K], a copy
    pair_scores[rows, FIRST_ANTECEDENT_COLUMN:] = MASKED_SCORE
    return dataclasses.replace(scores, scores=pair_scores)
