"""The agreement classes of mentions, as bit flags (so that a cluster's classes are one integer),
which classes cannot share a cluster (`CONFLICTS`), the pronoun and word tables that give a
mention its class, and the classes of mentions by their offsets (`mention_classes`,
`union_of_classes`). Read by the mention analysis (`mention_analysis.py`), the decoding steps and
the model's features; it imports none of them.
"""
from typing import Dict, Sequence

import numpy

from ..lang.en import english  # the pronouns, gendered words and titles
from ..types import MentionOffset
from .first_names import FEMININE_FIRST_NAMES, MASCULINE_FIRST_NAMES
from .quotations import FIRST_PLURAL, FIRST_SINGULAR, SECOND

_EN = english()

# Agreement classes, as bit flags so that a cluster's classes are one integer.
MASCULINE, FEMININE, NEUTER, PLURAL = 1, 2, 4, 8
# Persons of pronouns, outside quotes only (`narration_persons`): the decoding's alone
# (the model's features read the four classes above).
THIRD_PERSON, FIRST_SINGULAR_PERSON, FIRST_PLURAL_PERSON, SECOND_PERSON = 16, 32, 64, 128
# "you" in a doc with neither quotes nor speakers (an email, a letter, a manual): the reader,
# never the writer's "I". With speakers, one turn's "you" is the next turn's "I".
READER = 512
PERSONS = THIRD_PERSON | FIRST_SINGULAR_PERSON | FIRST_PLURAL_PERSON | SECOND_PERSON | READER
# A person of either gender ("the physicist", person_nouns.py): the decoding's alone too.
HUMAN = 256
# A body of people ("the jury", person_nouns.py): "it" or "they", never one person. The
# decoding's alone: the features read it as they read any noun.
COLLECTIVE = 1024
# Noun phrases joined by a conjunction ("the river and the farms"): plural, and never "it".
# The decoding's alone: the features read PLURAL.
CONJOINED = 2048
# "here" and "there", where the mention rules take them: a place, never "he", "she" or a
# person noun ("There she met the physicist"). The decoding's alone.
PLACE = 4096
# In a doc with speakers, "I" of each speaker (`speaker_persons`): one bit per speaker, up to
# 50 of them; the first-person mentions of two speakers are two people.
FIRST_SPEAKER_BIT, MAX_SPEAKER_BITS = 13, 50
SPEAKERS = ((1 << MAX_SPEAKER_BITS) - 1) << FIRST_SPEAKER_BIT
# The classes that cannot share a cluster with each class.
CONFLICTS = {
    # a speaker's own "I" (SPEAKERS) is never "he" or "she"
    MASCULINE: FEMININE | NEUTER | PLURAL | COLLECTIVE | PLACE | SPEAKERS,
    FEMININE: MASCULINE | NEUTER | PLURAL | COLLECTIVE | PLACE | SPEAKERS,
    NEUTER: MASCULINE | FEMININE | HUMAN | CONJOINED,  # an organisation is "it" and "they"
    CONJOINED: NEUTER | MASCULINE | FEMININE | FIRST_SINGULAR_PERSON,  # "me and Isabel" | "I"
    HUMAN: NEUTER | COLLECTIVE | PLACE,
    PLACE: MASCULINE | FEMININE | HUMAN,
    COLLECTIVE: MASCULINE | FEMININE | HUMAN,
    PLURAL: MASCULINE | FEMININE,
    # persons, outside quotes: a third-person pronoun is never "I", "we" or "you",
    # and "we" never "I" or "you"; "I" may be "you" (the turns of a transcript), but not the
    # reader's (text without speakers)
    THIRD_PERSON: PERSONS & ~THIRD_PERSON,
    FIRST_PLURAL_PERSON: PERSONS & ~FIRST_PLURAL_PERSON,
    FIRST_SINGULAR_PERSON: THIRD_PERSON | FIRST_PLURAL_PERSON | READER | CONJOINED,
    SECOND_PERSON: THIRD_PERSON | FIRST_PLURAL_PERSON,
    READER: FIRST_SINGULAR_PERSON,
}
# Conflicts in a parsed doc are repaired by cutting the cheapest link between two mentions that
# conflict (`clustering.constrained_clusters`, `cut_classes`): a majority vote would keep "her"
# and "she" that were linked through "a teacher called Mr. Patel" and drop him. Without a
# parse, all but he and she are: the fast pipeline's GAP drops 1.1 with every class cut, and
# cutting "it" and "they" too raised its LitBank dev 60.44 to 60.83
# (docs/constraints_and_features.md).
ALL_CLASSES = (
    MASCULINE | FEMININE | NEUTER | PLURAL | HUMAN | COLLECTIVE | CONJOINED | PLACE | PERSONS
    | SPEAKERS
)
UNPARSED_CUT_CLASSES = PERSONS | SPEAKERS | NEUTER | PLURAL

# the third person's forms: he, him, his, himself; she, ...; it, its, itself; they, ...
PRONOUN_CLASS = {
    **dict.fromkeys(_EN.pronouns(gender="masculine"), MASCULINE),
    **dict.fromkeys(_EN.pronouns(gender="feminine"), FEMININE),
    **dict.fromkeys(_EN.pronouns(gender="neuter"), NEUTER),
    **dict.fromkeys(_EN.pronouns(person=3, number="plural"), PLURAL),
}
# "we" is a group: never one he or she ("our" in an email is not "Daniel"). Not a third-person
# pronoun, so apart from PRONOUN_CLASS (same_head reads that as the third person).
AGREEMENT_BY_PRONOUN = {
    **PRONOUN_CLASS, **dict.fromkeys(_EN.pronouns(person=1, number="plural"), PLURAL),
}
PERSON_OF_PRONOUN = {
    **dict.fromkeys(PRONOUN_CLASS, THIRD_PERSON),
    **dict.fromkeys(FIRST_SINGULAR, FIRST_SINGULAR_PERSON),
    **dict.fromkeys(FIRST_PLURAL, FIRST_PLURAL_PERSON),
    **dict.fromkeys(SECOND, SECOND_PERSON),
}
# "it" and "they", which the default decodes with a null score of their own (null_scores_by_form)
NEUTER_PLURAL_PRONOUNS = tuple(form for form, c in PRONOUN_CLASS.items() if c in (NEUTER, PLURAL))
# the pronouns that can stand before the subject they refer to ("When she landed, the pilot"):
# he, him, his, she, her, they, them, their (not "it", a reflexive, nor "hers" or "theirs")
_CATAPHORIC = _EN.pronouns(person=3, reflexive=False, possessive=(None, "dependent", "both"))
CATAPHORIC_PRONOUNS = {form: c for form, c in PRONOUN_CLASS.items()
                       if c != NEUTER and form in _CATAPHORIC}
REFLEXIVES = set(_EN.pronouns(reflexive=True))  # "himself", ..., "yourselves", "oneself"
# Nouns and titles whose referent's gender is part of their meaning (lemmas, lower case;
# spacy_coref/lang/en/gendered_words.json).
GENDERED_WORDS = {
    **dict.fromkeys(_EN.masculine_words, MASCULINE),
    **dict.fromkeys(_EN.feminine_words, FEMININE),
}
FIRST_NAME_CLASS = {
    **dict.fromkeys(MASCULINE_FIRST_NAMES, MASCULINE),
    **dict.fromkeys(FEMININE_FIRST_NAMES, FEMININE),
}


def conflicting_classes(classes: int) -> int:
    """The classes (bit flags) that cannot join a cluster holding `classes`."""
    out = 0
    for flag, conflicts in CONFLICTS.items():
        if classes & flag:
            out |= conflicts
    speakers = classes & SPEAKERS
    if speakers:
        # another speaker's "I"; with two speakers' already, any speaker's; and "he" or "she"
        out |= SPEAKERS if speakers & (speakers - 1) else SPEAKERS & ~speakers
        out |= MASCULINE | FEMININE
    return out


def union_of_classes(group: Sequence[MentionOffset], classes: Dict[MentionOffset, int]) -> int:
    """The agreement classes (bit flags) of a group of mentions together."""
    out = 0
    for mention in group:
        out |= int(classes.get(mention, 0))
    return out


def mention_classes(spans: numpy.ndarray, classes: numpy.ndarray) -> Dict[MentionOffset, int]:
    """A {(start, end): class} table from arrays of spans [M, 2] and their classes [M]."""
    return {(int(s), int(e)): int(c) for (s, e), c in zip(spans.tolist(), classes.tolist())}
