"""Who speaks in a quote, without a parse (the fast pipeline): the speech tag is read off the
words next to the quote's marks, each word with its usual tag (`word_tags.py`):

* after the closing mark: a speaker and a verb of saying (`"I am late," Tom told Anna.`,
  `"...," the old fisherman said`, `"...," he said quietly`), or the verb first and the
  speaker after it (`"...," said Priya`, `"Did you leave them?" asked his wife`);
* before the opening mark: a verb of saying, its subject before it, through "and" too
  (`Grandma smiled at Lily and said, "..."`, `Mrs. Gray said to the new boy, "..."`).

The addressee is the noun phrase right after the verb ("told Anna", "asked the librarian")
or after its "to" ("said to her brother"). A speaker is a noun phrase of at most
MAX_PHRASE_WORDS words that ends in a noun, a name or a pronoun; where the words show none,
the quote is left unattributed, as the parsed rule leaves a quote whose tag it does not find.
"""
from typing import Callable, Dict, List, Optional, Tuple

from spacy.tokens import Doc

from ..lang.en import english
from ..types import MentionOffset
from .unparsed_clauses import verb_subject, word_tagger
from .word_tags import load_word_tags

MAX_PHRASE_WORDS = 4
# words of a speaker's or addressee's noun phrase: "the old fisherman", "his wife", "Mrs. Gray"
PHRASE_TAGS = {"DET", "ADJ", "NOUN", "PROPN", "PRON", "NUM"}
HEAD_TAGS = {"NOUN", "PROPN", "PRON"}
_EN = english()
# the possessive determiners ("his wife", "my friend")
POSSESSIVES = set(_EN.pronouns(possessive=("dependent", "both")))
# the plural subject pronouns ("we", "they"): a plural speaker
PLURAL_SUBJECTS = frozenset(_EN.pronouns(number="plural", case="nominative"))
# irregular forms of the verbs of saying (`quotations.SPEECH_VERBS`); the rest are regular
IRREGULAR_FORMS = _EN.irregular_speech_forms


def speech_verb_forms(lemmas) -> Dict[str, str]:
    """Each inflected form of the verbs `lemmas` (present, third person, past) -> its lemma."""
    forms: Dict[str, str] = {}
    for lemma in lemmas:
        if _consonant_y(lemma):  # "reply": "replies", "replied"
            third, past = lemma[:-1] + "ies", lemma[:-1] + "ied"
        else:
            third = lemma + ("es" if lemma.endswith(("s", "sh", "ch", "x")) else "s")
            past = lemma + ("d" if lemma.endswith("e") else "ed")
        for form in (lemma, third, past, *IRREGULAR_FORMS.get(lemma, ())):
            forms.setdefault(form, lemma)
    return forms


def _consonant_y(word: str) -> bool:
    return word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou"


def unparsed_speech_tags(
    doc: Doc,
    quotes: List[Tuple[int, int]],
    verbs: Dict[str, str],
    window: int,
    stops: frozenset,
    tags: Optional[Dict[str, str]] = None,
) -> List[Tuple[int, int, Optional[MentionOffset], Optional[MentionOffset], bool, str]]:
    """The speech tag of each quote whose words show one.

    doc (Doc): a doc without a parse.
    quotes (List[Tuple[int, int]]): `quotations.find_quotes` of the doc.
    verbs (Dict[str, str]): forms of the verbs of saying -> their lemmas.
    window (int): how far from the marks the verb may stand.
    stops (frozenset): tokens that end the search (sentence ends): the tag beyond them is
        another sentence's.
    tags (Optional[Dict[str, str]]): word -> usual tag; the shipped table by default.
    RETURNS (List[Tuple]): (start, end, speaker, addressee, plural speaker, verb lemma) per
        attributed quote, in document order.
    """
    tag = word_tagger(doc, load_word_tags() if tags is None else tags)
    marks = _quote_mark_positions(doc, quotes)
    found = []
    for start, end in quotes:
        attributed = None
        if not ends_in_full_stop(doc, start, end):
            attributed = _tag_after(doc, end, verbs, window, stops, marks, tag)
        if attributed is None:
            attributed = _tag_before(doc, start, verbs, window, stops, marks, tag)
        if attributed is None:
            continue
        verb, speaker, addressee = attributed
        last = doc[speaker[1] - 1]
        plural = last.lower_ in PLURAL_SUBJECTS or (
            tag(last.i) == "NOUN" and last.lower_.endswith("s") and not last.lower_.endswith("ss")
        )
        found.append((start, end, speaker, addressee, plural, verbs[doc[verb].lower_]))
    return found


def ends_in_full_stop(doc: Doc, start: int, end: int) -> bool:
    """Whether the quote's words (`start` to `end`) end in a full stop, which ends its
    sentence: a tag after it is the next sentence's ('"You look tired." Tom laughed.'),
    where one after a comma is its own ('"You look tired," Tom laughed.')."""
    return end > start and doc[end - 1].text == "."


def _quote_mark_positions(doc: Doc, quotes: List[Tuple[int, int]]) -> set:
    return {i for start, end in quotes for i in (start - 1, end)}


def _tag_after(doc, end, verbs, window, stops, marks, tag):
    """(verb, speaker, addressee) after the closing mark at `end`, or None."""
    for v in range(end + 1, min(end + 1 + window, len(doc))):
        token = doc[v]
        if token.i in marks or token.text in stops or tag(v) == "PUNCT":
            return None
        if token.lower_ not in verbs:
            continue
        if v == end + 1:  # '"...," said Priya'
            speaker = _phrase_after(doc, v + 1, tag)
            return None if speaker is None else (v, speaker, None)
        speaker = _phrase_between(doc, end + 1, v, tag)
        if speaker is None:
            return None
        return v, speaker, _addressee(doc, v, tag)
    return None


def _tag_before(doc, start, verbs, window, stops, marks, tag):
    """(verb, speaker, addressee) before the opening mark at `start - 1`, or None: the verb
    right before the mark (a comma or colon between), or its addressee between them."""
    i = start - 2
    while i >= 0 and doc[i].text in (",", ":"):
        i -= 1
    lowest = max(i - window - MAX_PHRASE_WORDS, -1)  # "said to the new boy"
    for v in range(i, lowest, -1):
        token = doc[v]
        if v in marks or token.text in stops or tag(v) == "PUNCT":
            return None
        if token.lower_ not in verbs or tag(v) not in ("VERB", "AUX"):
            continue
        addressee = _addressee(doc, v, tag)
        if v < i and (addressee is None or addressee[1] != i + 1):
            return None  # other words between the verb and the quote
        subject = verb_subject(doc, v, tag)
        if subject is None:
            return None
        return v, _phrase_ending(doc, subject, tag), None if v == i else addressee
    return None


def _phrase_word(doc: Doc, i: int, tag: Callable[[int], str]) -> bool:
    """Whether token `i` may be part of a speaker's noun phrase: a pronoun only as a
    possessive ("his wife"), and a possessive "'s" ("the child's nurse")."""
    t = tag(i)
    if doc[i].lower_ in ("'s", "’s"):
        return True
    return t in PHRASE_TAGS and (t != "PRON" or doc[i].lower_ in POSSESSIVES)


def _phrase_after(doc: Doc, i: int, tag: Callable[[int], str]) -> Optional[MentionOffset]:
    """The noun phrase that starts at `i` ("his wife", "Tom", "him"), or None."""
    end = i
    while end < len(doc) and end - i < MAX_PHRASE_WORDS + 1:
        if tag(end) not in PHRASE_TAGS and not _phrase_word(doc, end, tag):
            break
        end += 1
        if not _phrase_word(doc, end - 1, tag):
            break  # "asked him": a personal pronoun is its own phrase
    while end > i and tag(end - 1) not in HEAD_TAGS:
        end -= 1
    return (i, end) if end > i else None


def _phrase_between(doc: Doc, start: int, end: int, tag) -> Optional[MentionOffset]:
    """The words from `start` to `end` as a speaker's noun phrase ("the old fisherman", "he"),
    adverbs before the verb left out ("Tom quietly said")."""
    while end > start and tag(end - 1) == "ADV":
        end -= 1
    if end == start or end - start > MAX_PHRASE_WORDS or tag(end - 1) not in HEAD_TAGS:
        return None
    if not all(_phrase_word(doc, i, tag) for i in range(start, end - 1)):
        return None
    return (start, end)


def _phrase_ending(doc: Doc, last: int, tag) -> MentionOffset:
    """The noun phrase that ends at token `last` ("the old fisherman"), within its sentence,
    at most MAX_PHRASE_WORDS words."""
    start = last
    while (
        start > 0
        and last - start + 1 < MAX_PHRASE_WORDS
        and not doc[start].is_sent_start
        and _phrase_word(doc, start - 1, tag)
    ):
        start -= 1
    return (start, last + 1)


def _addressee(doc: Doc, verb: int, tag) -> Optional[MentionOffset]:
    """Whom the verb is said to: the phrase right after it ("told Anna") or after its "to"
    ("said to her brother")."""
    after = verb + 1
    to = after < len(doc) and doc[after].lower_ == "to"
    if to:
        after += 1
    if after >= len(doc):
        return None
    phrase = _phrase_after(doc, after, tag)
    if to and phrase is not None and tag(after) not in ("DET", "PROPN", "PRON"):
        return None  # "said to her brother", "to Tom", but not "began to puff"
    return phrase
