"""Distinct names: "Ricardo Rocha" and "Eugenio Bernal" are two people, and so are "Poirot" and
"Hastings". The model links a pronoun to the nearest person it scores well, and through that
pronoun two people's chains become one; the names in the merged cluster show it, as plainly as
"he" and "she" do.

A person's name is read as a first name and a last name where its form says which is which:

* two or more words, after titles ("Sir", "Dr.", "Aunt"): the first and the last word
  ("Jane Bennet");
* one word after a title: a last name ("Mr. Bennet");
* one word in the first-name lists, of either gender or of both: a first name ("Emma", "Pat");
* any other single word: either ("Poirot").

Two names clash, and so cannot be one person, when neither's words hold all of the other's
and they differ in a part both have: "Jane Bennet" and "Elizabeth Bennet" (first names),
"Mr. Bennet" and "Mr. Collins" (last names), "Poirot" and "Hastings" (unknown parts, both
single words), "Markham" and "Karen Blixen" (a single word that is neither part). "Emma" and
"Miss Woodhouse" do not clash: a first name and a last name can be one person's, and a word
of unknown part may be the last name of a first name ("Emma" and "Woodhouse"); nor do
"Jennifer Jayne" and "Jennifer Jayne Jones". A word of unknown part does clash with a titled
last name ("Poirot" and "Dr. Archie"), although it may be a first name the lists lack.
Nicknames and changed surnames ("Liz" for "Elizabeth Bennet", a maiden name) clash although
they are one person: the rule trades those for the far more common merge of two people.
Merging the clusters of repeated names (`GroupNames`) asks more: there a word of unknown part
and a first name alone ("Cay" and "Vivian") are two people too, unless a longer name of the
clusters holds both.

Only names of people are read: names after a title or with a known first name, and names the
entity recognizer called PERSON or left untyped, so that "the United States" and "America" stay
free to corefer. Places are read only as one-word names, which clash with another one-word
place name alone: "Norway" and "Canada" are two countries, "Cal." may be "California", and
"America" may be "the United States". Without a parse (the fast pipeline) a name is a span of
capitalised words that are not stop words, read as untyped: there "America" and "the United
States" clash.
"""
from typing import Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Set, Tuple

import numpy
from spacy.strings import hash_string
from spacy.tokens import Doc, Span, Token

from ..lang.en import english
from ..types import MentionOffset
from .first_names import FIRST_NAMES as LISTED_FIRST_NAMES
from .first_names import UNISEX_FIRST_NAMES
from .name_words import (
    HONORIFICS,
    LEADING_ARTICLES,
    MAX_NAME_WORDS,
    PERSON_ENTS,
    POSSESSIVES,
    is_persons_word,
    name_words,
    person_name_words,
)

# the entity types of places whose one-word names are read (not facilities: "the Ritz" may be
# "the hotel", and names of buildings are many words)
PLACE_NAME_ENTS = frozenset(("GPE", "LOC"))
FIRST_NAMES = frozenset(name.lower() for name in LISTED_FIRST_NAMES | UNISEX_FIRST_NAMES)
# Without a parse: capitalised words that are no names ("I", "God", the months but "May", the
# days; data: spacy_coref/lang/en/non_names.json), and what comes before a sentence
NOT_NAMES = english().words("non_names")
SENTENCE_BOUNDARIES = frozenset(
    (".", "!", "?", "…", '"', "“", "”", "'", "‘", "’", ":", ";", "--", "—")
)
_BOUNDARY_HASHES = numpy.array([hash_string(t) for t in SENTENCE_BOUNDARIES], dtype="uint64")
_ARTICLE_HASHES = numpy.array([hash_string(t) for t in LEADING_ARTICLES], dtype="uint64")
_POSSESSIVE_HASHES = numpy.array([hash_string(t) for t in POSSESSIVES], dtype="uint64")
_OF_HASH = hash_string("of")


class PersonName(NamedTuple):
    """The parts of a person's name that its form shows (lower case; None: not shown), or a
    place's one-word name (`place`)."""

    words: FrozenSet[str]
    first: Optional[str]
    last: Optional[str]
    place: bool = False


def person_name(
    span: Span, person: bool = False, person_words: FrozenSet[str] = frozenset()
) -> Optional[PersonName]:
    """The name of a mention that is a person's name, else None (from the parse).

    span (Span): a candidate mention.
    person (bool): read it as a person's name whatever the entity recognizer says.
    person_words (FrozenSet[str]): words of the doc's people's longer names, read as people's
        names alone whatever the recognizer says (`name_words.person_name_words`).
    RETURNS (Optional[PersonName]): its words and the first and last name they show.
    """
    words = name_words(span, person_words)
    if words is None:
        return None
    person = person or is_persons_word(span, person_words)
    name = _read(words, person or span.root.ent_type_ in PERSON_ENTS)
    if name is None and len(words) == 1 and span.root.ent_type_ in PLACE_NAME_ENTS:
        return PersonName(frozenset(words), None, None, place=True)
    return name


def person_names(
    doc: Doc, spans: Sequence[Sequence[int]], persons: FrozenSet[int] = frozenset()
) -> List[Optional[PersonName]]:
    """The names of a doc's mentions: from the parse where there is one, else from
    capitalisation alone (`unparsed_name`).

    doc (Doc): the doc.
    spans (Sequence): [M] (start, end) token offsets.
    persons (FrozenSet[int]): the mentions (indices into `spans`) known to be people by other
        means, such as a "he" or "she" whose best antecedent they are: their names are read
        as people's whatever the entity recognizer says ("Wells" as an organisation).
    RETURNS (List[Optional[PersonName]]): each mention's name, or None.
    """
    out: List[Optional[PersonName]] = [None] * len(spans)
    if not len(spans) or not len(doc):
        return out
    orth, lower, title, upper, space = doc.to_array(
        ["ORTH", "LOWER", "IS_TITLE", "IS_UPPER", "IS_SPACE"]
    ).T.astype("uint64")
    # there are about 0.4 candidates a token: only spans of capitalised words (a leading
    # "the" aside) are read one by one
    capitalised = numpy.append((title | upper).astype(bool), False)  # [T + 1]
    article = numpy.append(numpy.isin(lower, _ARTICLE_HASHES), False)
    uncapitalised = numpy.concatenate([[0], numpy.cumsum(~capitalised[:-1])])  # [T + 1]
    offsets = numpy.asarray(spans, dtype="int64").reshape((-1, 2)).copy()
    starts, ends = offsets[:, 0], offsets[:, 1]
    # a possessive is its possessor's name: "Arsenal 's" clashes with "Liverpool" as
    # "Arsenal" does
    possessive = numpy.isin(lower, _POSSESSIVE_HASHES)
    ends -= possessive[numpy.maximum(ends - 1, 0)] & (ends - starts > 1)
    starts = starts + (article[starts] & (ends - starts > 1))
    named = numpy.flatnonzero(uncapitalised[ends] - uncapitalised[starts] == 0).tolist()
    # "William of Normandy", "Catherine of Aragon": a first name, "of" and a capitalised place
    # is that first name's person (else "Harold" could join William's cluster)
    of = numpy.append(lower == _OF_HASH, False)  # [T + 1]
    first_of = (ends - starts > 2) & of[numpy.minimum(starts + 1, len(doc))]
    first_of &= uncapitalised[ends] - uncapitalised[starts] == 1  # "of" alone uncapitalised
    for i in numpy.flatnonzero(first_of).tolist():
        first = doc[int(starts[i])]
        if first.lower_ in FIRST_NAMES:
            out[i] = PersonName(frozenset((first.lower_,)), first.lower_, None)
    if doc.has_annotation("DEP"):
        person_words = person_name_words(doc)
        for i in named:
            span = doc[int(offsets[i, 0]) : int(offsets[i, 1])]
            out[i] = person_name(span, i in persons, person_words)
        return out
    ends_sentence = numpy.isin(orth, _BOUNDARY_HASHES) | space.astype(bool)
    opens = numpy.concatenate([[True], ends_sentence[:-1]])  # [T]
    # a capitalised word that also stands capitalised inside a sentence is a name there too
    inside = set(lower[title.astype(bool) & ~opens].tolist())
    for i in named:
        span = doc[int(offsets[i, 0]) : int(offsets[i, 1])]
        out[i] = unparsed_name(span, opens, inside, i in persons)
    return out


def unparsed_name(
    span: Span, opens: Sequence[bool], inside: Set[int], person: bool = False
) -> Optional[PersonName]:
    """The name of a mention of a doc without a parse: every word capitalised and none a stop
    word ("He", "After"); a word that opens a sentence only where it is a title, a known
    first name or capitalised inside some sentence too ("Yesterday" is not), or where the
    mention is known to be a person ("Maya Okonjo won ... She beat").

    span (Span): a candidate mention.
    opens (Sequence[bool]): [T] whether each token of the doc opens a sentence.
    inside (Set[int]): the lower-case forms (hashes) of the words capitalised inside a
        sentence somewhere.
    person (bool): the mention is a person by other means (the best antecedent of a "he"
        or "she").
    RETURNS (Optional[PersonName]): its words and the first and last name they show.
    """
    tokens = list(span)
    while tokens and tokens[0].lower_ in LEADING_ARTICLES:
        tokens = tokens[1:]
    if not tokens or len(tokens) > MAX_NAME_WORDS or tokens[-1].lower_ in POSSESSIVES:
        return None
    for token in tokens:
        if not (token.is_title or (token.is_upper and len(token) > 1)):
            return None
        if (token.is_stop or token.lower_ in NOT_NAMES) and _bare(token) not in HONORIFICS:
            return None
    first = tokens[0]
    if opens[first.i] and first.lower not in inside and not person:
        if _bare(first) not in HONORIFICS and first.lower_ not in FIRST_NAMES:
            return None
    return _read(tuple(t.lower_ for t in tokens), True)


def _read(words: Tuple[str, ...], typed_person: bool) -> Optional[PersonName]:
    """A person's name from the lower-case words of a name; `typed_person`: the entity
    recognizer called it a person's or left it untyped."""
    titled = False
    while len(words) > 1 and words[0].rstrip(".") in HONORIFICS:
        words, titled = words[1:], True
    if words[0].rstrip(".") in HONORIFICS:  # "the Queen", "Father": a title, not a name
        return None
    # a title or a known first name makes it a person's name whatever the entity recognizer
    # says ("Madame Duval" as a place, "Ines Carvalho" as an organisation)
    if not titled and words[0] not in FIRST_NAMES and not typed_person:
        return None
    if len(words) > 1:
        return PersonName(frozenset(words), words[0], words[-1])
    word = words[0]
    if titled:
        return PersonName(frozenset(words), None, word)
    if word in FIRST_NAMES:
        return PersonName(frozenset(words), word, None)
    return PersonName(frozenset(words), None, None)


def _bare(token: Token) -> str:
    return token.lower_.rstrip(".")


def names_clash(a: PersonName, b: PersonName) -> bool:
    """Whether two names cannot be one person's or one place's (see the module docstring)."""
    if a.words <= b.words or b.words <= a.words:
        return False
    if a.place or b.place:
        # two one-word names of places, neither the other's abbreviation ("Cal.")
        if not (a.place and b.place):
            return False
        x, y = (next(iter(n.words)).rstrip(".") for n in (a, b))
        return not (x.startswith(y) or y.startswith(x))
    if a.first is not None and b.first is not None and a.first != b.first:
        return True
    if a.last is not None and b.last is not None and a.last != b.last:
        return True
    # a single word of unknown part clashes with any name it is not in, but a first name: it
    # may be the last name of "Emma"
    for one, other in ((a, b), (b, a)):
        if len(one.words) == 1 and one.first is None and one.last is None:
            return other.first is None or other.last is not None
    return False


def _word_and_first_name(a: PersonName, b: PersonName) -> bool:
    """Whether one name is a single word of unknown part and the other a first name alone, a
    different word ("Cay" and "Vivian")."""
    if a.place or b.place or a.words == b.words:
        return False
    return any(
        len(x.words) == 1 and x.first is None and x.last is None
        and len(y.words) == 1 and y.first is not None
        for x, y in ((a, b), (b, a))
    )


class GroupNames:
    """Whether two groups of a doc's mentions hold names that clash, to merge the groups."""

    def __init__(self, names: Dict[MentionOffset, Optional[PersonName]]):
        """names (dict): each mention's name (`person_names`), by its offsets."""
        self.names = names

    def clash(self, a: Sequence[MentionOffset], b: Sequence[MentionOffset]) -> bool:
        """Whether a name among mentions `a` clashes with one among mentions `b`: by
        `names_clash`, or a word of unknown part and a first name alone ("Cay" and "Vivian")
        that no longer name of the two groups holds both of ("Erik Holm" for "Holm" and
        "Erik"). Merging has no score of the model behind it, so the word that might be the
        first name's surname keeps the groups apart, where decoding keeps such a link that the
        model made."""
        ours = [n for n in map(self.names.get, a) if n is not None]
        theirs = [n for n in map(self.names.get, b) if n is not None]
        if any(names_clash(x, y) for x in ours for y in theirs):
            return True
        longer = [n.words for n in ours + theirs if len(n.words) > 1]
        return any(
            _word_and_first_name(x, y) and not any(x.words | y.words <= w for w in longer)
            for x in ours for y in theirs
        )
