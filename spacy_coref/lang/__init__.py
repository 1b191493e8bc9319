"""Language data, the way spaCy keeps `spacy/lang/xx`: the facts of a language that the rules
read (word lists and a pronoun table) sit in data files of `spacy_coref/lang/<code>/`, read once
into a `Lexicon` (`lexicon.py`). English is the only language: `spacy_coref.lang.en.english()`,
registered as `spacy_coref.en_lexicon.v1`."""
from .lexicon import ANY, Lexicon, Pronoun  # noqa: F401
