"""English: the data files of this folder (first names with their gender, surnames, titles,
gendered words, nouns of people, of bodies of people and of things, the last words of company
names, verbs of saying, contrast groups, the pronoun table, function words, the verbs the rules
name with their forms, letter words and capitalised words that are no names), read once into a
`Lexicon`.

The pipeline's modules read their word lists from `english()` at import; a config reads the
same object through the registered function:

    [components.coref_cluster.lexicon]
    @misc = "spacy_coref.en_lexicon.v1"
"""
import functools
from pathlib import Path

from spacy.util import registry

from ..lexicon import Lexicon

DATA_DIR = Path(__file__).parent


@functools.lru_cache(maxsize=None)
def english() -> Lexicon:
    """The English lexicon, read from the data files of `DATA_DIR` on the first call.

    RETURNS (Lexicon): the same object on every call.
    RAISES DataFormatError: a data file is missing or malformed (CE440 names it).
    """
    return Lexicon(DATA_DIR)


@registry.misc("spacy_coref.en_lexicon.v1")
def en_lexicon() -> Lexicon:
    """The English lexicon (`english()`), for configs.

    RETURNS (Lexicon): the lexicon, read once per process.
    """
    return english()
