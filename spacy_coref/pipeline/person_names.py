"""Distinct names: "Ricardo Rocha" and "Eugenio Bernal" are two people, and so are "Poirot" and
"Hastings". The model links a pronoun to the nearest person it scores well, and through that
pronoun two people's chains become one; the names in the merged cluster show it, as plainly as
"he" and "she" do.

A person's name is read as a first name and a last name where its form says which is which:

* two or more words, after titles ("Sir", "Dr.", "Aunt"): the first and the last word
  ("Jane Bennet");
* one word after a title: a last name ("Mr. Bennet");
* one word in the first-name lists: a first name ("Emma");
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

Only names of people are read: names after a title or with a known first name, and names the
entity recognizer called PERSON or left untyped, so that "the United States" and "America" stay
free to corefer.
"""
from typing import Dict, FrozenSet, NamedTuple, Optional, Sequence

from spacy.tokens import Doc, Span

from ..types import MentionOffset
from .first_names import FEMININE_FIRST_NAMES, MASCULINE_FIRST_NAMES
from .name_match import HONORIFICS, name_words

FIRST_NAMES = frozenset(name.lower() for name in FEMININE_FIRST_NAMES | MASCULINE_FIRST_NAMES)
PERSON_ENTS = frozenset(("PERSON", ""))


class PersonName(NamedTuple):
    """The parts of a person's name that its form shows (lower case; None: not shown)."""

    words: FrozenSet[str]
    first: Optional[str]
    last: Optional[str]


def person_name(span: Span) -> Optional[PersonName]:
    """The name of a mention that is a person's name, else None.

    span (Span): a candidate mention.
    RETURNS (Optional[PersonName]): its words and the first and last name they show.
    """
    words = name_words(span)
    if words is None:
        return None
    titled = False
    while len(words) > 1 and words[0].rstrip(".") in HONORIFICS:
        words, titled = words[1:], True
    if words[0].rstrip(".") in HONORIFICS:  # "the Queen", "Father": a title, not a name
        return None
    # a title or a known first name makes it a person's name whatever the entity recognizer
    # says ("Madame Duval" as a place, "Ines Carvalho" as an organisation)
    if not titled and words[0] not in FIRST_NAMES and span.root.ent_type_ not in PERSON_ENTS:
        return None
    if len(words) > 1:
        return PersonName(frozenset(words), words[0], words[-1])
    word = words[0]
    if titled:
        return PersonName(frozenset(words), None, word)
    if word in FIRST_NAMES:
        return PersonName(frozenset(words), word, None)
    return PersonName(frozenset(words), None, None)


def names_clash(a: PersonName, b: PersonName) -> bool:
    """Whether two names cannot be one person's (see the module docstring)."""
    if a.words <= b.words or b.words <= a.words:
        return False
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


class GroupNames:
    """Whether two groups of a doc's mentions hold names that clash, each mention's name read
    once."""

    def __init__(
        self, doc: Doc, known: Optional[Dict[MentionOffset, Optional[PersonName]]] = None
    ):
        """doc (Doc): the doc. known (dict): names already read, by mention offsets."""
        self.doc = doc
        self.names: Dict[MentionOffset, Optional[PersonName]] = dict(known or {})

    def name(self, mention: MentionOffset) -> Optional[PersonName]:
        if mention not in self.names:
            self.names[mention] = person_name(self.doc[mention[0] : mention[1]])
        return self.names[mention]

    def clash(self, a: Sequence[MentionOffset], b: Sequence[MentionOffset]) -> bool:
        """Whether a name among mentions `a` clashes with one among mentions `b`."""
        theirs = [n for n in map(self.name, b) if n is not None]
        return any(names_clash(x, y) for x in map(self.name, a) if x is not None for y in theirs)
