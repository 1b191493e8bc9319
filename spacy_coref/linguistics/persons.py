"""The persons of pronouns and of speakers: outside quotes "I", "we" and "you" are the writer,
their side and the reader, never "he" (`narration_persons`); in a transcript two speakers'
"I" are two people (`speaker_persons`), and a turn's "you" is not its speaker's "I"
(`speakers_you_apart`).
"""
from typing import Dict, Optional, Tuple

import numpy
from spacy.tokens import Doc

from ..annotations import SPEAKERS_KEY, get_speakers
from .mention_constraints import MentionConstraints
from .mention_classes import (
    FIRST_SPEAKER_BIT,
    MAX_SPEAKER_BITS,
    PERSON_OF_PRONOUN,
    READER,
    SECOND_PERSON,
    mention_classes,
)
from .quotations import (
    FIRST_SINGULAR,
    SECOND,
    find_quotes,
    marks_all_paired,
    quotation_mark_positions,
)


def narration_persons(doc: Doc, spans: numpy.ndarray, classes: numpy.ndarray) -> numpy.ndarray:
    """The agreement classes plus each pronoun's person, in a doc without quotation marks (an
    email, a report, a transcript) or with its speakers given: there "I", "we" and "you" are
    the writer or speaker, their side and the reader or listener, never "he" or "they" ("ask
    Daniel ... your team"). In a doc without speakers, "you" is also the reader (READER),
    never the writer's "I". Inside a quote its speaker decides (the quotes step), so a quote's
    pronouns are left alone; outside the quotes of a doc whose marks are all paired
    (`quotations.marks_all_paired`) the narration's pronouns get their persons too: a narrator's
    "I" is never "he" (a novel told in the first person), but a "you" there need not be the
    reader. Where a mark is left over, a quote's words may be anywhere and nothing is added.
    Names and nouns have no person ("I, Martin").

    doc (Doc): the doc.
    spans (numpy.ndarray): [M, 2] the mentions' token offsets.
    classes (numpy.ndarray): [M] their agreement classes.
    RETURNS (numpy.ndarray): [M] the classes, with the pronouns' persons (PERSONS).
    """
    speakers = len(doc.spans.get(SPEAKERS_KEY, [])) > 0
    quoted = None
    if not speakers and quotation_mark_positions(doc):
        quotes = find_quotes(doc)
        if not marks_all_paired(doc, quotes):
            return classes
        quoted = numpy.zeros(len(doc), dtype=bool)
        for start, end in quotes:
            quoted[start:end] = True
    classes = classes.copy()
    one_word = numpy.flatnonzero(spans[:, 1] - spans[:, 0] == 1)
    reader = 0 if speakers or quoted is not None else READER
    for i in one_word.tolist():
        start = int(spans[i, 0])
        if quoted is not None and quoted[start]:
            continue
        person = PERSON_OF_PRONOUN.get(doc[start].lower_, 0)
        classes[i] |= person | (reader if person == SECOND_PERSON else 0)
    return classes


def speaker_persons(doc: Doc, spans: numpy.ndarray, classes: numpy.ndarray) -> numpy.ndarray:
    """The classes plus, for each "I", "me", "my", "mine" and "myself" with a known speaker,
    that speaker's bit (SPEAKERS): in a transcript, the first person of two speakers is two
    people, however alike their words. Speakers after the first MAX_SPEAKER_BITS get none.

    doc (Doc): the doc, with its speakers in `doc.spans[SPEAKERS_KEY]` (if any).
    spans (numpy.ndarray): [M, 2] the mentions' token offsets.
    classes (numpy.ndarray): [M] their classes.
    RETURNS (numpy.ndarray): [M] the classes with the speakers' bits.
    """
    if not len(doc.spans.get(SPEAKERS_KEY, [])):
        return classes
    speakers = get_speakers(doc)
    bits: Dict[str, int] = {}
    classes = classes.copy()
    for i in numpy.flatnonzero(spans[:, 1] - spans[:, 0] == 1).tolist():
        token = doc[int(spans[i, 0])]
        speaker = speakers[token.i]
        if speaker is None or token.lower_ not in FIRST_SINGULAR:
            continue
        bit = bits.setdefault(speaker, len(bits))
        if bit < MAX_SPEAKER_BITS:
            classes[i] |= 1 << (FIRST_SPEAKER_BIT + bit)
    return classes


def speakers_you_apart(
    doc: Doc, spans: numpy.ndarray, antecedents: numpy.ndarray
) -> numpy.ndarray:
    """Which candidate antecedents are a speaker's "I" for a "you" said in that speaker's turn,
    or the other way round: in a transcript a turn's "you" is someone else ("Do you have any
    sharp objects on you? ... I need ..." in one turn are two people). Docs without speakers
    have none.

    doc (Doc): the doc, with its speakers in `doc.spans[SPEAKERS_KEY]`.
    spans (numpy.ndarray): [M, 2] the kept mentions.
    antecedents (numpy.ndarray): [M, K] index of each candidate antecedent.
    RETURNS (numpy.ndarray): [M, K] bool.
    """
    speakers = get_speakers(doc)
    first = numpy.full(len(spans), -1, dtype="int64")  # the speaker of an "I"
    second = numpy.full(len(spans), -1, dtype="int64")  # the speaker who says a "you"
    ids: Dict[str, int] = {}
    for i in numpy.flatnonzero(spans[:, 1] - spans[:, 0] == 1).tolist():
        token = doc[int(spans[i, 0])]
        speaker = speakers[token.i]
        if speaker is None:
            continue
        if token.lower_ in FIRST_SINGULAR:
            first[i] = ids.setdefault(speaker, len(ids))
        elif token.lower_ in SECOND:
            second[i] = ids.setdefault(speaker, len(ids))
    mention_i = (first[:, None] >= 0) & (first[:, None] == second[antecedents])
    mention_you = (second[:, None] >= 0) & (second[:, None] == first[antecedents])
    return mention_i | mention_you


def with_persons(doc: Doc, spans: numpy.ndarray, classes: numpy.ndarray) -> numpy.ndarray:
    """The agreement classes with the persons of pronouns and the bits of speakers' "I"."""
    return speaker_persons(doc, spans, narration_persons(doc, spans, classes))


def classes_by_mention(
    doc: Doc,
    spans: numpy.ndarray,
    mentions: MentionConstraints,
    person_classes: Optional[numpy.ndarray],
) -> Dict[Tuple[int, int], int]:
    """Each mention's agreement classes with the persons that clustering reads (computed
    there already, or now), for the rules that merge clusters after it."""
    if person_classes is None:
        person_classes = with_persons(doc, spans, mentions.classes)
    return mention_classes(spans, person_classes)
