"""Who speaks in a quote, and to whom: in `"I am late," Tom told Anna.` "I" is Tom and never
Anna; in `Maria said to her brother, "You look tired."` "you" is her brother and never Maria.
An encoder that sees a quote's words does not see whose words they are, and dialogue is where
a reader notices first that "I" went to the wrong person. The quotes step
(`decoding/steps/quotes.py`) moves the pronouns by what is read here.

`quote_speakers` finds each quote (between paired double quotation marks: `"`, `“ ”`, PTB's
`` and '') and its speech tag from the dependency parse: a verb of saying ("said", "told",
"asked", ...) that the quote hangs from (or hangs from the quote, or stands right before or
after it), its subject as the speaker and its object or "to" phrase as the addressee; a
reply or a question ("Mia replied", "asked his wife") without one is said to the speaker of
the quote before it. Without a parse (the fast pipeline) the speech tag is read off the
words next to the quote's marks (`unparsed_quotes.py`).

A letter or an email is one speaker's words to one reader: `letter_parties` reads the name
its greeting addresses ("Dear Mr. Hallworth,", "Hi Daniel,") and the name it is signed with
("Best, Ruth", "Yours sincerely, Peter Amos").
"""
from typing import List, NamedTuple, Optional, Sequence, Tuple

import numpy
from spacy.strings import hash_string
from spacy.tokens import Doc, Token

from ..lang.en import english
from ..types import MentionOffset
from .unparsed_quotes import (
    PLURAL_SUBJECTS,
    ends_in_full_stop,
    speech_verb_forms,
    unparsed_speech_tags,
)
from .word_tags import FUNCTION_WORD_TAGS, load_word_tags

# The marks that open a quote, each with the mark that closes it.
QUOTE_MARKS = {'"': '"', "“": "”", "``": "''", "„": "“"}
_MARK_HASHES = numpy.asarray(
    [hash_string(mark) for mark in {*QUOTE_MARKS, *QUOTE_MARKS.values()}], dtype="uint64"
)
# Single marks, which quote too where they stand apart from an apostrophe's place (`single_quotes`)
SINGLE_OPENING = frozenset(("'", "‘"))
SINGLE_CLOSING = frozenset(("'", "’"))
SINGLE_MARKS = SINGLE_OPENING | SINGLE_CLOSING
APOSTROPHES = frozenset(("'", "’"))  # single marks that also stand for an apostrophe
_SINGLE_MARK_HASHES = numpy.asarray([hash_string(mark) for mark in SINGLE_MARKS], dtype="uint64")
# Every token that may open or close a quote: double marks, single ones (also an apostrophe's
# token: "the girls' room") and others that are not paired here
QUOTATION_TOKENS = frozenset((*QUOTE_MARKS, *QUOTE_MARKS.values(), *SINGLE_MARKS, "`", "«", "»"))
_QUOTATION_HASHES = numpy.asarray([hash_string(mark) for mark in QUOTATION_TOKENS], dtype="uint64")
# A quote that runs longer than this is a parse of stray marks (or a chapter of dialogue
# whose closing mark is missing): it is not attributed.
MAX_QUOTE_TOKENS = 150
# How far from a quote's marks a speech tag without a parse link is looked for ("... ," he said).
TAG_WINDOW = 4
SENTENCE_ENDS = frozenset((".", "!", "?", ";"))
# fmt: off
_EN = english()
# the verbs of saying (data: spacy_coref/lang/en/speech_verbs.json)
SPEECH_VERBS = _EN.speech_verbs
# A quote tagged with one of these and no addressee is said to the speaker of the quote before
# it, if that one ends at most REPLY_WINDOW tokens before: a reply, or a question in an
# exchange ('"Did you leave them in the car?" asked his wife')
REPLY_VERBS = _EN.reply_verbs
REPLY_WINDOW = 60
# their forms, for a doc without a parse (no lemmas): "said", "tells", "replied"
SPEECH_VERB_FORMS = speech_verb_forms(SPEECH_VERBS)
# the pronouns of the first and second person (the lexicon's table)
FIRST_SINGULAR = frozenset(_EN.pronouns(person=1, number="singular"))
FIRST_PLURAL = frozenset(_EN.pronouns(person=1, number="plural"))
SECOND = frozenset(_EN.pronouns(person=2))
SUBJECT_DEPS = frozenset(("nsubj", "nsubjpass"))
OBJECT_DEPS = frozenset(("dobj", "dative", "iobj"))
NOMINAL_POS = frozenset(("NOUN", "PROPN", "PRON"))
# the dependents kept in a speaker's span: "the old fisherman", "Mrs. Gray", "her brother"
NOUN_PHRASE_DEPS = frozenset(("det", "amod", "compound", "poss", "nummod", "case"))
# A letter's greeting and sign-off (`letter_parties`): the greeting within the first
# tokens, the sign-off within the last ones, each followed by a name ("Dear", "Hi"; "Best",
# "Regards", "Yours sincerely"; data: spacy_coref/lang/en/letter_words.json)
GREETINGS = _EN.words("greetings")
SIGN_OFFS = _EN.words("sign_offs")
LETTER_EDGE_TOKENS = 30
MAX_NAME_TOKENS = 4
MAX_SIGNATURE_TAIL = 6
# fmt: on


class QuoteSpeaker(NamedTuple):
    """A quote's text (token offsets, end exclusive, marks excluded), its speaker and its
    addressee (the spans of their noun phrases, or None)."""

    start: int
    end: int
    speaker: Optional[MentionOffset]
    addressee: Optional[MentionOffset]
    plural_speaker: bool


def find_quotes(doc: Doc) -> List[Tuple[int, int]]:
    """The token offsets of each quote's text, between paired quotation marks: double ones,
    and outside them single ones (`single_quotes`).

    doc (Doc): the doc.
    RETURNS (List[Tuple[int, int]]): (start, end) of the text inside each pair of marks, in
        document order. Unpaired marks and empty or over-long quotes are left out.
    """
    double = _double_quotes(doc)
    single = single_quotes(doc, double)
    return sorted(double + single) if single else double


def _double_quotes(doc: Doc) -> List[Tuple[int, int]]:
    quotes = []
    opened: Optional[Tuple[int, str]] = None
    # only the marks are read: a novel has a hundred thousand tokens and a few thousand marks
    orth = doc.to_array("ORTH").astype("uint64")
    marks = numpy.flatnonzero(numpy.isin(orth, _MARK_HASHES))
    for i in marks.tolist():
        text = doc.vocab.strings[int(orth[i])]
        if opened is not None and text == QUOTE_MARKS[opened[1]]:
            start, end = opened[0] + 1, i
            if 0 < end - start <= MAX_QUOTE_TOKENS:
                quotes.append((start, end))
            opened = None
        elif text in QUOTE_MARKS:
            opened = (i, text)
    return quotes


def single_quotes(doc: Doc, double: Sequence[Tuple[int, int]] = ()) -> List[Tuple[int, int]]:
    """Quotes between single marks ("'Mr. Heathcliff?' I said", as British novels print
    dialogue), outside the `double` quotes (a quote inside a quote is its speaker's words).
    An apostrophe is a token of its own too ("the girls' room"), so a mark opens a quote
    only after punctuation or a line, and closes it only right after punctuation (`_opens`,
    `_closes`); the spaces are not read, as a tokenized corpus has one after every word.

    doc (Doc): the doc.
    double (Sequence[Tuple[int, int]]): the double quotes' text offsets.
    RETURNS (List[Tuple[int, int]]): (start, end) of each quote's text, in document order.
    """
    marks = _mark_positions(doc, _SINGLE_MARK_HASHES)
    if not marks:
        return []
    inside = numpy.zeros(len(doc) + 1, dtype="int64")
    for start, end in double:
        inside[start - 1] += 1
        inside[end + 1] -= 1
    inside = numpy.cumsum(inside) > 0
    quotes = []
    opened: Optional[int] = None
    for i in marks:
        if inside[i]:
            continue
        token = doc[i]
        if opened is not None and _closes(token):
            if 0 < i - opened - 1 <= MAX_QUOTE_TOKENS:
                quotes.append((opened + 1, i))
            opened = None
        elif _opens(token):
            opened = i
    return quotes


def quotation_mark_positions(doc: Doc) -> List[int]:
    """The positions of the tokens that may open or close a quote (QUOTATION_TOKENS), an
    apostrophe's too."""
    return _mark_positions(doc, _QUOTATION_HASHES)


def _mark_positions(doc: Doc, hashes: numpy.ndarray) -> List[int]:
    # only the marks are read: a novel has a hundred thousand tokens and a few thousand marks
    orth = doc.to_array("ORTH").astype("uint64")
    return numpy.flatnonzero(numpy.isin(orth, hashes)).tolist()


def marks_all_paired(doc: Doc, quotes: Sequence[Tuple[int, int]]) -> bool:
    """Whether every quotation mark of the doc opens or closes one of `quotes` (its
    `find_quotes`), but for marks that stand where an apostrophe does ("the girls' room"):
    then the quotes hold all the doc's quoted words. Marks of other kinds ("«", "`") count as
    unpaired.

    doc (Doc): the doc.
    quotes (Sequence[Tuple[int, int]]): the doc's quotes, text offsets.
    RETURNS (bool): no quotation mark is left over.
    """
    bounds = {i for start, end in quotes for i in (start - 1, end)}
    for i in quotation_mark_positions(doc):
        token = doc[i]
        if i not in bounds and (token.text not in APOSTROPHES or _opens(token) or _closes(token)):
            return False
    return True


def _opens(token: Token) -> bool:
    """A single mark that opens a quote: at the start, on a new line, or after punctuation
    (". 'Mr.", ", 'Go", "' 'Thrushcross": not after a word, as a plural's apostrophe is),
    with a word after it."""
    doc, i = token.doc, token.i
    if token.text not in SINGLE_OPENING or i + 1 >= len(doc):
        return False
    after = doc[i + 1]
    if after.is_space or after.is_punct:
        return False
    if i == 0:
        return True
    before = doc[i - 1]
    return before.is_space or before.is_punct


def _closes(token: Token) -> bool:
    """A single mark that closes a quote: right after the punctuation that ends the quoted
    words ("?' I said", ",' he", "--' "), not after a word ("the girls' room")."""
    doc, i = token.doc, token.i
    if token.text not in SINGLE_CLOSING or i == 0:
        return False
    before = doc[i - 1]
    return before.is_punct and before.text not in SINGLE_MARKS


def quote_speakers(
    doc: Doc, quotes: Optional[List[Tuple[int, int]]] = None
) -> List[QuoteSpeaker]:
    """The quotes of a parsed doc whose speech tag is found, with their speaker and addressee.

    doc (Doc): the doc (with a dependency parse; without one, no quote is attributed).
    quotes (Optional[List[Tuple[int, int]]]): the doc's `find_quotes`, if already found.
    RETURNS (List[QuoteSpeaker]): one per attributed quote, in document order.
    """
    quotes = find_quotes(doc) if quotes is None else quotes
    found: List[QuoteSpeaker] = []
    if not doc.has_annotation("DEP"):
        tags = unparsed_speech_tags(doc, quotes, SPEECH_VERB_FORMS, TAG_WINDOW, SENTENCE_ENDS)
        for start, end, said_by, said_to, plural, lemma in tags:
            if said_to is None and found and lemma in REPLY_VERBS:
                said_to = _replied_to(doc, found[-1], start, said_by)
            found.append(QuoteSpeaker(start, end, said_by, said_to, plural))
        return found
    for start, end in quotes:
        verb = _speech_verb(doc, start, end)
        if verb is None:
            continue
        inside = range(start - 1, end + 1)  # the marks too
        speaker = _subject(verb)
        addressee = None
        if (speaker is None or speaker.i in inside) and verb.i == end + 1:
            # '"...," said Priya': small parsers take the inverted subject for an object, and
            # '"Did you ...?" asked his wife' for a verb coordinated with the quote's own
            speaker = next((c for c in verb.rights if c.pos_ in NOMINAL_POS), None)
        elif speaker is not None:
            addressee = _addressee(verb, inside)
        if speaker is None or speaker.i in inside:
            continue
        said_by = _phrase(speaker)
        said_to = None if addressee is None else _phrase(addressee)
        if said_to is None and found and verb.lemma_.lower() in REPLY_VERBS:
            said_to = _replied_to(doc, found[-1], start, said_by)
        found.append(QuoteSpeaker(start, end, said_by, said_to, _is_plural(speaker)))
    return found


def letter_parties(
    doc: Doc, quotes: Optional[List[Tuple[int, int]]] = None
) -> Tuple[Optional[MentionOffset], Optional[MentionOffset]]:
    """A letter's writer and reader: the name after a sign-off among its last tokens ("Best,
    Ruth"), and the name after a greeting among its first ("Dear Mr. Hallworth:"), each None
    where there is none. A greeting inside a quote, or one to a word that is no name ("Hi
    everyone"), does not count.

    doc (Doc): the doc (a name is a proper noun by its tag; without tags, by its capital).
    quotes (Optional[List[Tuple[int, int]]]): the doc's `find_quotes`, if already found.
    RETURNS (Tuple[Optional[MentionOffset], Optional[MentionOffset]]): writer, reader.
    """
    if not len(doc):
        return None, None
    quotes = find_quotes(doc) if quotes is None else quotes
    # the tokens, marks included, of the quotes that reach the first or the last tokens
    last = len(doc) - LETTER_EDGE_TOKENS
    quoted = {
        i
        for start, end in quotes
        if start - 1 < LETTER_EDGE_TOKENS or end >= last
        for i in range(start - 1, end + 1)
    }
    reader = None
    for token in doc[:LETTER_EDGE_TOKENS]:
        if token.lower_ in GREETINGS and token.is_title and token.i not in quoted:
            reader = _name_after(doc, token.i + 1, (",", ":", "!"))
            if reader is not None:
                break
    # a sign-off opens with a capital ("Best,", "Kind regards,", "Yours sincerely,"), a comma
    # after it, and its name ends the text but for a few words ("Tomas from the support team")
    writer = None
    first = max(1, len(doc) - LETTER_EDGE_TOKENS)
    for token in reversed(doc[first:]):
        after = token.i + 1
        if (
            token.lower_ in SIGN_OFFS
            and (token.is_title or doc[token.i - 1].is_title)
            and token.i not in quoted
            and after < len(doc)
            and doc[after].text in (",", "!")
        ):
            writer = _name_after(doc, after + 1, None)
            if writer is not None and len(doc) - writer[1] > MAX_SIGNATURE_TAIL:
                writer = None
            if writer is not None:
                break
    return writer, reader


def _replied_to(
    doc: Doc, before: QuoteSpeaker, start: int, speaker: MentionOffset
) -> Optional[MentionOffset]:
    """The addressee of a reply: the speaker of the quote before it ('"Where are my glasses?"
    Grandpa asked. "On your head," Mia replied.'), unless that one is far or the same words."""
    if start - before.end > REPLY_WINDOW:
        return None
    if doc[before.speaker[0] : before.speaker[1]].text == doc[speaker[0] : speaker[1]].text:
        return None
    return before.speaker


def _name_after(doc: Doc, start: int, ends: Optional[Tuple[str, ...]]) -> Optional[MentionOffset]:
    """The name (capitalised proper nouns, titles before them) that starts at `start` after
    any line breaks, followed by one of `ends` (None: anything), or None."""
    while start < len(doc) and doc[start].is_space:
        start += 1
    end = start
    while end < len(doc) and end - start < MAX_NAME_TOKENS and doc[end].is_title:
        end += 1
    if end == start or not _is_name_word(doc[end - 1]):
        return None
    if ends is not None and (end == len(doc) or doc[end].text not in ends):
        return None
    return (start, end)


def _is_name_word(token: Token) -> bool:
    """A proper noun by its tag; without tags, a capitalised word that the word-tag table
    does not call a function word ("Ruth", "Grace", "Sir"; not "All" or "There")."""
    if token.doc.has_annotation("POS"):
        return token.pos_ == "PROPN"
    return token.is_title and load_word_tags().get(token.lower_) not in FUNCTION_WORD_TAGS


def _speech_verb(doc: Doc, start: int, end: int) -> Optional[Token]:
    """The verb of saying that a quote belongs to: the quote hangs from it ("..." Tom said),
    it hangs from the quote ('"No," he said, "..."'), or it stands within TAG_WINDOW tokens
    after the closing mark or before the opening one."""
    inside = range(start - 1, end + 1)
    for token in doc[start:end]:
        head = token.head
        if head.i not in inside and _says(head):
            return head
    for token in doc[start:end]:
        for child in token.children:
            if child.i not in inside and _says(child):
                return child
    after = range(end + 1, min(end + 1 + TAG_WINDOW, len(doc)))
    if ends_in_full_stop(doc, start, end):
        after = range(0)  # '"You look tired." Tom laughed.': the tag after is another's
    before = range(start - 2, max(start - 2 - TAG_WINDOW, -1), -1)
    for positions in (after, before):
        for i in positions:
            if doc[i].text in QUOTE_MARKS or doc[i].text in QUOTE_MARKS.values():
                break  # another quote
            if doc[i].text in SENTENCE_ENDS:
                break  # '... he said. "I ...': that tag is the quote before's
            if _says(doc[i]):
                return doc[i]
    return None


def _says(token: Token) -> bool:
    return token.pos_ in ("VERB", "AUX") and token.lemma_.lower() in SPEECH_VERBS


def _subject(verb: Token) -> Optional[Token]:
    """The verb's subject, or that of the verb it is coordinated with ("smiled and said")."""
    for candidate in (verb, verb.head if verb.dep_ == "conj" else None):
        if candidate is None:
            continue
        for child in candidate.children:
            if child.dep_ in SUBJECT_DEPS and child.pos_ in NOMINAL_POS:
                return child
    return None


def _addressee(verb: Token, inside: range) -> Optional[Token]:
    """Whom the verb is said to: its object ("told Anna") or a "to" phrase ("said to her
    brother"), outside the quote."""
    for child in verb.children:
        if child.i in inside:
            continue
        if child.dep_ in OBJECT_DEPS and child.pos_ in NOMINAL_POS:
            return child
        if child.dep_ == "prep" and child.lower_ == "to":
            for pobj in child.children:
                if pobj.dep_ == "pobj" and pobj.pos_ in NOMINAL_POS:
                    return pobj
    return None


def _phrase(head: Token) -> MentionOffset:
    """The noun phrase of a speaker or addressee: its head with the determiners, modifiers
    and compounds right before it, without relative clauses or anything after it."""
    start = head.i
    for child in reversed(list(head.lefts)):  # nearest first
        if child.dep_ not in NOUN_PHRASE_DEPS or child.right_edge.i != start - 1:
            break
        start = child.left_edge.i
    return (start, head.i + 1)


def _is_plural(token: Token) -> bool:
    return (
        token.tag_ in ("NNS", "NNPS")
        or token.lower_ in PLURAL_SUBJECTS
        or any(child.dep_ == "conj" for child in token.children)
    )
