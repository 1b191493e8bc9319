"""Which mentions are names, and the words a name is read by: the vocabulary that the names
step (`decoding/steps/names.py`), people's names (`person_names.py`) and the mention analysis
share. A name is a mention whose head is a proper noun and whose words are all capitalised,
and not a possessive, a nationality or a date (`name_words`); the first or last word of a
person's longer name in the doc is a person's name alone, whatever the recognizer calls it
there (`person_name_words`). Without a parse (the fast pipeline), only people's names are
read, by their capitals, titles and first names (`unparsed_name_words`).
"""
from functools import lru_cache
from typing import FrozenSet, Optional, Sequence, Tuple

import numpy
from spacy.strings import hash_string
from spacy.tokens import Doc, Span, Token

from ..lang.en import english
from ..types import MentionOffset
from .first_names import FIRST_NAMES, NEUTRAL_TITLES
from .word_tags import FUNCTION_WORD_TAGS, load_word_tags

# the longest name matched, in words: longer capitalised spans are titles of works or headings
MAX_NAME_WORDS = 6
# the word lists are data (spacy_coref/lang/en/: function_words.json, verbs.json, titles.json)
_EN = english()
LEADING_ARTICLES = _EN.words("definite_articles")  # "the"
POSSESSIVES = frozenset(("'s", "'", "’s", "’"))
# what the entity recognizer may call a name ("" where it saw none): not nationalities
# ("the French", "American"), dates or numbers
NAME_ENTS = frozenset((
    "", "PERSON", "ORG", "GPE", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
))
# the entity types of people's names: a name in an entity of another type is not a person's
# ("George Washington University")
PERSON_ENTS = frozenset(("", "PERSON"))
# a name inside a noun phrase may name it as an appositive of its head, or as what a
# participle of naming calls it (the participle's dependent with one of these labels)
NAMED_DEPS = frozenset(("oprd", "attr", "dobj", "xcomp"))
# ("called", "named", "nicknamed", "dubbed")
NAMING_PARTICIPLES = _EN.words("naming_participles")
# words before a name that are not its first name ("Mr. Bennet", "Aunt May", "Captain Reyes";
# data: spacy_coref/lang/en/titles.json)
HONORIFICS = _EN.name_titles | NEUTRAL_TITLES


def is_naming_participle_object(token: Token) -> bool:
    """Whether the token is what "called" or "named" calls a noun: "a teacher called [Patel]"."""
    verb = token.head
    return token.dep_ in NAMED_DEPS and verb.dep_ == "acl" and verb.lower_ in NAMING_PARTICIPLES


def person_name_words(doc: Doc) -> FrozenSet[str]:
    """The first and last words of the doc's people's names of two words or more, as written.
    Alone, the entity recognizer may call the same word something else: "Martin Oyelaran" a
    person and "Oyelaran" a nationality, "Hugo Brandt" a person and "Brandt" an organisation."""
    words = set()
    for ent in doc.ents:
        if ent.label_ == "PERSON" and len(ent) > 1:
            ends = (ent[0], ent[-1])
            words.update(t.text for t in ends if t.lower_.rstrip(".") not in HONORIFICS)
    return frozenset(words)


def is_persons_word(span: Span, person_words: FrozenSet[str]) -> bool:
    """Whether the span is one word of a person's longer name in the doc (`person_name_words`)."""
    return len(span) == 1 and span[0].text in person_words


def name_words(
    span: Span, person_words: FrozenSet[str] = frozenset()
) -> Optional[Tuple[str, ...]]:
    """The lower-case words of a span that is a name, without a leading "the"; None for a
    span that is not a name (or is a possessive one). `person_words`: words that are names of
    people whatever the entity recognizer calls them alone (`person_name_words`)."""
    tokens = list(span)
    while tokens and tokens[0].lower_ in LEADING_ARTICLES:
        tokens = tokens[1:]
    if not tokens or tokens[-1].lower_ in POSSESSIVES:
        return None  # "Emma 's": a candidate the data sets do not annotate as Emma
    if len(tokens) > MAX_NAME_WORDS:
        return None
    persons_word = is_persons_word(span, person_words)
    # the small tagger calls a surname a noun where it opens a sentence ("Mendes rejected
    # their claims" after "Carlos Mendes"): a word of a person's longer name is a name still,
    # unless it is a common noun ("Student" of a name the recognizer made too long)
    misread = (persons_word and span.root.pos_ == "NOUN"
               and load_word_tags().get(span.root.lower_) != "NOUN")
    if span.root.pos_ != "PROPN" and not misread:
        return None
    if span.root.ent_type_ not in NAME_ENTS and not persons_word:
        return None  # "American", "the French"
    if not all(t.is_title or t.is_upper for t in tokens):
        return None  # a mistagged "n't"
    if any(t.pos_ == "PRON" for t in tokens):
        return None  # "CHAPTER I Emma Woodhouse": the heading's numeral, tagged a pronoun
    return tuple(t.lower_ for t in tokens)


def unparsed_name_words(
    span: Span, person_words: FrozenSet[str] = frozenset()
) -> Optional[Tuple[str, ...]]:
    """`name_words` without a parse or tags (the fast pipeline), for people's names alone:
    capitalised words, none a function word by its usual tag (`word_tags.py`), with a title
    ("Mrs. Gray") or a known first name first ("Lucia Moretti", "Emma"), or one word of such a
    longer name in the doc (`person_words`: "Moretti"). Without an entity recognizer other
    capitalised words are too often no names to link ("Wuthering", "the French"): on the
    fast pipeline's LitBank dev, linking every capitalised phrase lost 0.13."""
    tokens = list(span)
    while tokens and tokens[0].lower_ in LEADING_ARTICLES:
        tokens = tokens[1:]
    if not tokens or len(tokens) > MAX_NAME_WORDS or tokens[-1].lower_ in POSSESSIVES:
        return None
    tags = load_word_tags()
    for token in tokens:
        if not (token.is_title or token.is_upper) or token.lower_ == "i":
            return None
        if tags.get(token.lower_) in FUNCTION_WORD_TAGS:
            return None  # "She", "When", "All"
    words = tuple(t.lower_ for t in tokens)
    core = without_titles(words)
    if not core:
        return None
    titled = len(core) < len(words)
    first = tokens[len(words) - len(core)]
    if titled or first.text in FIRST_NAMES:
        return words
    if len(core) == 1 and first.text in person_words:
        return words
    return None


def capitalised_spans(doc: Doc, spans: Sequence[MentionOffset]) -> set:
    """The spans whose words are all capitalised, but for a leading "the": only they can be
    names."""
    offsets = numpy.asarray(spans, dtype="int64").reshape((-1, 2))
    if not len(offsets):
        return set()
    caps = capitalised_tokens(doc)
    counts = numpy.concatenate([[0], numpy.cumsum(caps)])
    starts, ends = offsets[:, 0], offsets[:, 1]
    lower = doc.to_array("LOWER").astype("uint64")
    the = numpy.isin(lower[starts], [doc.vocab.strings[w] for w in LEADING_ARTICLES])
    first = starts + the.astype("int64")
    keep = (ends > first) & (counts[ends] - counts[first] == ends - first)
    return {tuple(o) for o in offsets[keep].tolist()}


def capitalised_tokens(doc: Doc) -> numpy.ndarray:
    """[T] int64: 1 where a token is capitalised ("Ann", "NASA")."""
    columns = doc.to_array(["IS_TITLE", "IS_UPPER"]).reshape((len(doc), 2))
    return (columns.sum(axis=1) > 0).astype("int64")


def unparsed_person_name_words(doc: Doc) -> FrozenSet[str]:
    """`person_name_words` without an entity recognizer: the first and last words of runs of
    two to four capitalised words that begin with a known first name ("Lucia Moretti"). Not
    after a title: "Kronborg" of "Mrs. Kronborg" is in a novel as often her husband (with
    titled names too, the fast pipeline's LitBank dev was 0.11 lower)."""
    if not len(doc):
        return frozenset()
    caps = capitalised_tokens(doc)
    orth = doc.to_array("ORTH").astype("uint64")
    first_names = numpy.isin(orth, _first_name_hashes()) & (caps > 0)
    words = set()
    for i in numpy.flatnonzero(first_names).tolist():
        j = i + 1
        while j < len(doc) and j - i < 4 and caps[j]:
            j += 1
        if j - i >= 2:
            words.update((doc[i].text, doc[j - 1].text))
    return frozenset(words)


@lru_cache(maxsize=1)
def _first_name_hashes() -> numpy.ndarray:
    return numpy.asarray([hash_string(name) for name in FIRST_NAMES], dtype="uint64")


def name_titles(words: Tuple[str, ...]) -> Tuple[str, ...]:
    """The titles before a name's words, without their full stops ("dr." and "dr": "dr")."""
    return tuple(word.rstrip(".") for word in words[: len(words) - len(without_titles(words))])


def without_titles(words: Tuple[str, ...]) -> Tuple[str, ...]:
    """A name's words after the titles before it ("dr", "mrs.", "captain")."""
    start = 0
    while start < len(words) and words[start].rstrip(".") in HONORIFICS:
        start += 1
    return words[start:]
