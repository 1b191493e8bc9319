"""The words the mention analysis reads, as sets and as `word_tables` arrays: the pronouns'
classes, reflexives, indefinite articles, titles, first names, and the nouns whose class a short
phrase without a parse takes from its last word. Read with a parse (`mention_analysis.py`) and
without one (`unparsed_analysis.py`)."""
from ..lang.en import english
from .first_names import NEUTRAL_TITLES
from .mention_classes import (
    AGREEMENT_BY_PRONOUN,
    COLLECTIVE,
    FIRST_NAME_CLASS,
    GENDERED_WORDS,
    HUMAN,
    NEUTER,
    REFLEXIVES,
)
from .person_nouns import COLLECTIVE_NOUNS, PERSON_NOUNS
from .thing_nouns import THING_NOUNS
from .word_tables import word_table

_EN = english()

INDEFINITE_ARTICLES = set(_EN.words("indefinite_determiners"))  # a, an, another
# the longest phrase without a parse whose last word gives it a class ("the old defendant")
MAX_UNPARSED_NOUN_WORDS = 4

PRONOUN_TABLE = word_table(AGREEMENT_BY_PRONOUN)
REFLEXIVE_TABLE = word_table(REFLEXIVES)
INDEFINITE_TABLE = word_table(INDEFINITE_ARTICLES)
TITLE_TABLE = word_table((*GENDERED_WORDS, *NEUTRAL_TITLES))
GENDERED_TITLE_TABLE = word_table(GENDERED_WORDS)
FIRST_NAME_TABLE = word_table(FIRST_NAME_CLASS)  # case-sensitive: "Mark", not "mark"
# Without a parse, the nouns whose class a short phrase ending in them takes (decoding only)
NOUN_CLASS = {
    **dict.fromkeys(PERSON_NOUNS, HUMAN), **dict.fromkeys(COLLECTIVE_NOUNS, COLLECTIVE),
    **GENDERED_WORDS, **dict.fromkeys(THING_NOUNS, NEUTER),
}
NOUN_TABLE = word_table(NOUN_CLASS)
