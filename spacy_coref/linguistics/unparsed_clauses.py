"""Binding without a parse, for the fast pipeline: "Tom paid him" and "Carlos called the
mechanic and thanked him" are not about Tom or Carlos, and "Kate's mother drove herself" is
about the mother. The parsed pipeline finds the subject of a pronoun's clause in the
dependency tree (`constraints._binding_subject`); here it is read off the words, each word
tagged with its usual part of speech (`word_tags.py`):

* the pronoun is "him", "them", "her" where no noun or adjective follows it ("paid her", not
  "her brother"; but "made her laugh"), or a reflexive ("himself"), right after a verb or
  after a verb and a preposition ("waved at her", "relied on her" where no noun phrase
  follows, "walked away from her"), or after a form of "be", an adjective and a preposition
  ("was angry with him");
* the verb's subject is the noun, name or pronoun just before it, adverbs and auxiliaries
  skipped ("Tom never paid him", "Tom has paid him"); before "who" or "that", the noun before
  that ("the man who saw him");
* "and", "but" or "or" right before the verb share the subject of the verb before them
  ("called the mechanic and thanked him"), as does a comma before a verb in -ing ("thanked
  the nurse, hugging her"), and, for binding, a comma before a verb in the past tense ("called
  the mechanic, paid the driver and thanked him") where the subject it finds starts no
  subordinate clause; "to" before it takes the object of the verb before it ("asked Ann to
  help him"), or that verb's subject ("tried to help him"); a name between commas after a
  noun is the subject in apposition ("The hiring manager, Mr. Costa, called her");
* "about" after "looked" says where, not of whom ("looked about him" is he): no binding.

Anything else (no verb right before the pronoun, a subject the words do not show, a
punctuation mark other than that comma, the sentence's start) binds nothing, so that a wrong
tag mostly costs a rule that does not fire. "it" is left out: after a verb it is as often the
subject of the next clause ("said it would rain") as an object.
"""
from typing import Callable, Dict, Optional, Tuple

import numpy
from spacy.tokens import Doc

from ..lang.en import english
from .word_tags import load_fine_word_tags, load_word_tags

# The word lists are data (spacy_coref/lang/en/: pronouns.json, function_words.json and
# verbs.json, whose "forms" are the verbs' forms matched here, without lemmas).
_EN = english()
# "him", "her", "them"; "himself", "herself", "itself", "themselves"
OBJECT_PRONOUNS = set(
    _EN.pronouns(person=3, case="accusative", not_case="nominative", reflexive=False)
)
THIRD_PERSON_REFLEXIVES = set(_EN.pronouns(person=3, reflexive=True, generic=False))
# prepositions after which a pronoun is still the verb's argument ("looked at him"); any
# preposition for a reflexive ("for herself"): as the parsed rule
ARGUMENT_PREPOSITIONS = set(_EN.words("argument_prepositions"))
SUBJECT_TAGS = {"NOUN", "PROPN", "PRON"}
# pronouns that stand for no one: "there was ... itself"
EXPLETIVES = set(_EN.words("expletives"))
COORDINATORS = set(_EN.words("clause_coordinators"))  # "and", "but", "or"
RELATIVE_WORDS = set(_EN.words("subject_relatives"))  # "who", "that", "which"
# tags that may stand between a subject and its verb: "Tom never paid", "Tom has paid"
BETWEEN_SUBJECT_AND_VERB = {"ADV", "AUX"}
NEGATIONS = set(_EN.words("negations"))  # "not", "n't", "never"
# a possessive "her" is followed by what it owns: "her brother", "her new car"
OWNED_TAGS = {"NOUN", "ADJ", "PROPN", "NUM"}
# prepositions after which a pronoun is the argument of a verb right before them only where no
# noun phrase follows it ("relied on her"; not "took with him a bag", which is he); as the
# parsed rule's (clause_roles.INTRANSITIVE_ARGUMENT_PREPOSITIONS)
INTRANSITIVE_ARGUMENT_PREPOSITIONS = set(_EN.words("intransitive_argument_prepositions"))
# a noun phrase starts with these tags ("took with him a bag")
PHRASE_START_TAGS = {"DET", "NOUN", "ADJ", "PROPN", "NUM"}
# adverbs between a verb and an argument preposition: "walked away from him" (as the parsed
# rule's clause_roles.PREPOSITION_ADVERBS)
PREPOSITION_ADVERBS = set(_EN.words("preposition_adverbs"))
# an adjective's preposition after these verbs takes an argument of their subject: "was angry
# with him", "felt sorry for her" (clause_roles.ADJECTIVE_ARGUMENT_PREPOSITIONS): the forms of
# "be", "seem", "become", "remain", "feel"
COPULAS = set(_EN.verb_forms("predicate_adjective_verbs"))
ADJECTIVE_ARGUMENT_PREPOSITIONS = set(
    _EN.words("argument_prepositions", "adjective_prepositions")
)
# forms of causative and perception verbs after which "her" and a bare verb that is tagged
# as a noun is the verb's subject: "made her laugh" (clause_roles.COMPLEMENT_SUBJECT_LEMMAS,
# of which "have", "bid" and "observe" have no forms here)
COMPLEMENT_SUBJECT_FORMS = set(_EN.verb_forms("complement_subject_verbs"))
# verbs whose usual tag (`word_tags.py`) is a noun's that stand bare after such a "her" ("made
# her laugh", "heard her scream"); the parsed rule's too
BARE_VERB_NOUNS = set(_EN.words("bare_complement_verbs"))
# words before a subordinate clause's subject, which a comma between verbs does not share
SUBORDINATORS = RELATIVE_WORDS | _EN.words("subordinators")
# after these, "about" says where one looks, not of whom: "looked about him" is he ("looked",
# "glanced", ...)
LOOKING_FORMS = set(_EN.verb_forms("looking_verbs"))
# verbs followed through "and", "to" or a comma before the subject is found
MAX_HOPS = 4
# how far back the verb before "and" may stand ("called the mechanic and thanked him")
MAX_CLAUSE_WORDS = 30
# the longest name in apposition read as a subject ("the mayor, Dr. Ruth Okonkwo, called him")
MAX_APPOSED_NAME_WORDS = 4


def unparsed_clause_subjects(
    doc: Doc, spans: numpy.ndarray, tags: Optional[Dict[str, str]] = None
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Each mention's head and the subject that binds it, read off the words.

    doc (Doc): a doc without a parse (sentence boundaries are read where it has them).
    spans (numpy.ndarray): [M, 2] (start, end) token offsets, end exclusive.
    tags (Optional[Dict[str, str]]): word -> usual tag; the shipped table by default.
    RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): roots [M] (the last token of each span
        stands for its head) and clause_subjects [M] (the last token of the subject that
        binds a one-word object pronoun or reflexive, -1 for every other mention), as
        `constraints.MentionConstraints` holds them.
    """
    spans = numpy.asarray(spans, dtype="int64").reshape((-1, 2))
    roots = spans[:, 1] - 1
    subjects = numpy.full(len(spans), -1, dtype="int64")
    single = numpy.flatnonzero(spans[:, 1] - spans[:, 0] == 1)
    if not len(single):
        return roots, subjects
    tag = word_tagger(doc, load_word_tags() if tags is None else tags)
    for i in single.tolist():
        token = doc[int(spans[i, 0])]
        word = token.lower_
        reflexive = word in THIRD_PERSON_REFLEXIVES
        if not reflexive and (word not in OBJECT_PRONOUNS or _possessive_her(doc, token.i, tag)):
            continue
        verb = _verb_before(doc, token.i, reflexive, tag)
        if verb is not None:
            subject = verb_subject(doc, verb, tag, verb_lists=True)
            if subject is not None:
                subjects[i] = subject
    return roots, subjects


def word_tagger(doc: Doc, tags: Dict[str, str]) -> Callable[[int], str]:
    """A token's usual tag by its index: punctuation, a name where a capital falls inside a
    sentence, else the table's tag of the lower-case word, else a guess by its ending."""
    cache: Dict[int, str] = {}

    def tag(i: int) -> str:
        if i not in cache:
            token = doc[i]
            lower = token.lower_
            starts = token.is_sent_start or i == 0 or doc[i - 1].is_punct
            if token.is_punct:
                cache[i] = "PUNCT"
            elif lower == "i":
                cache[i] = "PRON"
            elif token.is_title and not starts:
                cache[i] = "PROPN"
            elif lower in tags:
                cache[i] = tags[lower]
            elif token.like_num:
                cache[i] = "NUM"
            elif not token.is_lower:
                cache[i] = "PROPN"
            elif lower.endswith("ly"):
                cache[i] = "ADV"
            elif lower.endswith(("ed", "ing")):
                cache[i] = "VERB"
            else:
                cache[i] = "NOUN"
        return cache[i]

    return tag


def _boundary(doc: Doc, i: int) -> bool:
    """Whether token `i` starts its sentence (or the doc)."""
    return i == 0 or bool(doc[i].is_sent_start)


def _possessive_her(doc: Doc, i: int, tag: Callable[[int], str]) -> bool:
    """Whether "her" at `i` owns what follows it (not in "made her laugh")."""
    if doc[i].lower_ != "her" or i + 1 >= len(doc) or tag(i + 1) not in OWNED_TAGS:
        return False
    complement = not _boundary(doc, i) and doc[i - 1].lower_ in COMPLEMENT_SUBJECT_FORMS
    return not (complement and doc[i + 1].lower_ in BARE_VERB_NOUNS)


def _verb_before(doc: Doc, i: int, reflexive: bool, tag: Callable[[int], str]) -> Optional[int]:
    """The verb right before the pronoun at `i`, or before it and a preposition (and an adverb
    before that: "walked away from him"), or the form of "be" before an adjective and its
    preposition ("was angry with him")."""
    if _boundary(doc, i):
        return None
    j = i - 1
    word = doc[j].lower_
    if tag(j) == "ADP" or word == "to":  # "to" is as often tagged the infinitive's
        intransitive = word in INTRANSITIVE_ARGUMENT_PREPOSITIONS and not _phrase_after(doc, i, tag)
        if not (reflexive or word in ARGUMENT_PREPOSITIONS or intransitive):
            return _copula_before_adjective(doc, j, reflexive, tag)
        if _boundary(doc, j):
            return None
        j -= 1
        if word == "about" and not reflexive and doc[j].lower_ in LOOKING_FORMS:
            return None
        if tag(j) == "ADJ":
            return _copula_before_adjective(doc, j + 1, reflexive, tag)
        if doc[j].lower_ in PREPOSITION_ADVERBS and not intransitive and not _boundary(doc, j):
            j -= 1
    return j if tag(j) == "VERB" else None


def _phrase_after(doc: Doc, i: int, tag: Callable[[int], str]) -> bool:
    """Whether a noun phrase starts right after token `i` in its sentence."""
    return i + 1 < len(doc) and not _boundary(doc, i + 1) and tag(i + 1) in PHRASE_START_TAGS


def _copula_before_adjective(
    doc: Doc, prep: int, reflexive: bool, tag: Callable[[int], str]
) -> Optional[int]:
    """The form of "be" (or "seem", "feel"...) before the adjective before the preposition at
    `prep`, where that preposition takes the adjective's argument: "was angry with him"."""
    if not (reflexive or doc[prep].lower_ in ADJECTIVE_ARGUMENT_PREPOSITIONS):
        return None
    adjective = prep - 1
    if _boundary(doc, prep) or tag(adjective) != "ADJ" or _boundary(doc, adjective):
        return None
    return adjective - 1 if doc[adjective - 1].lower_ in COPULAS else None


def verb_subject(
    doc: Doc, verb: int, tag: Callable[[int], str], verb_lists: bool = False
) -> Optional[int]:
    """The last token of the subject of the verb at `verb`, or None where the words do not
    show it. `verb_lists`: also through a comma before a verb in the past tense ("called the
    plumber, paid him") and one before "and" ("called the plumber, and paid him")."""
    listed = False  # through a comma: the subject must not be a subordinate clause's
    for _ in range(MAX_HOPS):
        if _boundary(doc, verb):
            return None
        k = verb - 1
        while tag(k) in BETWEEN_SUBJECT_AND_VERB or doc[k].lower_ in NEGATIONS:
            if _boundary(doc, k):
                return None
            k -= 1
        word = doc[k].lower_
        if word == "to" and not _boundary(doc, k):
            before = k - 1
            if tag(before) == "VERB":  # "tried to help him": the subject of "tried"
                verb = before
                continue
            object_of_verb = not _boundary(doc, before) and tag(before - 1) == "VERB"
            if tag(before) in SUBJECT_TAGS and object_of_verb:
                return before  # "asked Ann to help him": Ann helps
            return None
        if word in RELATIVE_WORDS:
            # "the man who saw him": the man saw
            if _boundary(doc, k) or tag(k - 1) not in {"NOUN", "PROPN"}:
                return None
            return k - 1
        if tag(k) in SUBJECT_TAGS:
            # an object-case pronoun is no subject ("let him see her")
            if word in OBJECT_PRONOUNS or word in EXPLETIVES:
                return None
            # "with which she was seized, occasioned her": not the subject of "occasioned"
            return None if listed and _subordinate_subject(doc, k, tag) else k
        if word == "," and not doc[verb].lower_.endswith("ing"):
            # "The hiring manager, Mr. Costa, called her": the name in apposition
            name = _apposed_name_end(doc, k, tag)
            if name is not None or not (verb_lists and _past_tense(doc[verb].lower_)):
                return name
            listed = True  # "called the plumber, paid him": one subject for both
        elif word != "," and word not in COORDINATORS:  # the comma here: before an -ing verb
            return None
        elif verb_lists and word in COORDINATORS and not _boundary(doc, k):
            if doc[k - 1].text == ",":
                k -= 1  # "waited an hour, and paid him"
                listed = True
        verb = _verb_before_in_clause(doc, k, tag)
        if verb is None:
            return None
    return None


def _subordinate_subject(doc: Doc, k: int, tag: Callable[[int], str]) -> bool:
    """Whether the subject that ends at token `k` follows a subordinator, a relative word or a
    preposition ("with which she was seized"; "when the nurse left")."""
    while not _boundary(doc, k) and tag(k - 1) in PHRASE_START_TAGS:
        k -= 1
    if _boundary(doc, k):
        return False
    before = k - 1
    return tag(before) in ("SCONJ", "ADP") or doc[before].lower_ in SUBORDINATORS


def _past_tense(word: str) -> bool:
    """Whether `word` is a verb in the past tense (or its participle: "paid"), by its ending or
    its usual fine tag."""
    return word.endswith("ed") or load_fine_word_tags().get(word) in ("VBD", "VBN")


def _apposed_name_end(doc: Doc, comma: int, tag: Callable[[int], str]) -> Optional[int]:
    """The last token of a name of capitalised words (at most MAX_APPOSED_NAME_WORDS) that ends
    right before the comma at `comma` and follows a comma after a noun ("the mayor, Ruth
    Okonkwo,"), or None."""
    start = comma
    while start > comma - MAX_APPOSED_NAME_WORDS and not _boundary(doc, start):
        if not doc[start - 1].is_title:
            break
        start -= 1
    if start == comma or _boundary(doc, start) or doc[start - 1].text != ",":
        return None
    if _boundary(doc, start - 1) or tag(start - 2) not in ("NOUN", "PROPN"):
        return None
    return comma - 1


def _verb_before_in_clause(doc: Doc, k: int, tag: Callable[[int], str]) -> Optional[int]:
    """The nearest verb before token `k` in its sentence, not past other punctuation, at most
    MAX_CLAUSE_WORDS back (text without punctuation is one long sentence)."""
    lowest = k - MAX_CLAUSE_WORDS
    while not _boundary(doc, k) and k > lowest:
        k -= 1
        t = tag(k)
        if t == "VERB":
            return k
        if t == "PUNCT" or doc[k].lower_ in RELATIVE_WORDS or t == "SCONJ":
            return None
    return None
