"""Binding without a parse, for the fast pipeline: "Tom paid him" and "Carlos called the
mechanic and thanked him" are not about Tom or Carlos, and "Kate's mother drove herself" is
about the mother. The parsed pipeline finds the subject of a pronoun's clause in the
dependency tree (`constraints._binding_subject`); here it is read off the words, each word
tagged with its usual part of speech (`word_tags.py`):

* the pronoun is "him", "them", "her" where no noun or adjective follows it ("paid her", not
  "her brother"), or a reflexive ("himself"), right after a verb or after a verb and a
  preposition ("waved at her");
* the verb's subject is the noun, name or pronoun just before it, adverbs and auxiliaries
  skipped ("Tom never paid him", "Tom has paid him"); before "who" or "that", the noun before
  that ("the man who saw him");
* "and", "but" or "or" right before the verb share the subject of the verb before them
  ("called the mechanic and thanked him"), as does a comma before a verb in -ing ("thanked
  the nurse, hugging her"); "to" before it takes the object of the verb before it ("asked Ann
  to help him"), or that verb's subject ("tried to help him"); a name between commas after a
  noun is the subject in apposition ("The hiring manager, Mr. Costa, called her").

Anything else (no verb right before the pronoun, a subject the words do not show, a
punctuation mark other than that comma, the sentence's start) binds nothing, so that a wrong
tag mostly costs a rule that does not fire. "it" is left out: after a verb it is as often the
subject of the next clause ("said it would rain") as an object.
"""
from typing import Callable, Dict, Optional, Tuple

import numpy
from spacy.tokens import Doc

from .word_tags import load_word_tags

OBJECT_PRONOUNS = {"him", "her", "them"}
THIRD_PERSON_REFLEXIVES = {"himself", "herself", "itself", "themselves"}
# prepositions after which a pronoun is still the verb's argument ("looked at him"); any
# preposition for a reflexive ("for herself"): as the parsed rule
ARGUMENT_PREPOSITIONS = {"to", "at", "about", "for", "from", "of"}
SUBJECT_TAGS = {"NOUN", "PROPN", "PRON"}
# pronouns that stand for no one: "there was ... itself"
EXPLETIVES = {"there", "it"}
COORDINATORS = {"and", "but", "or"}
RELATIVE_WORDS = {"who", "that", "which"}
# tags that may stand between a subject and its verb: "Tom never paid", "Tom has paid"
BETWEEN_SUBJECT_AND_VERB = {"ADV", "AUX"}
NEGATIONS = {"not", "n't", "never"}
# a possessive "her" is followed by what it owns: "her brother", "her new car"
OWNED_TAGS = {"NOUN", "ADJ", "PROPN", "NUM"}
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
            subject = verb_subject(doc, verb, tag)
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
    """Whether "her" at `i` owns what follows it."""
    return doc[i].lower_ == "her" and i + 1 < len(doc) and tag(i + 1) in OWNED_TAGS


def _verb_before(doc: Doc, i: int, reflexive: bool, tag: Callable[[int], str]) -> Optional[int]:
    """The verb right before the pronoun at `i`, or before it and a preposition."""
    if _boundary(doc, i):
        return None
    j = i - 1
    if tag(j) == "ADP" and (reflexive or doc[j].lower_ in ARGUMENT_PREPOSITIONS):
        if _boundary(doc, j):
            return None
        j -= 1
    return j if tag(j) == "VERB" else None


def verb_subject(doc: Doc, verb: int, tag: Callable[[int], str]) -> Optional[int]:
    """The last token of the subject of the verb at `verb`, or None where the words do not
    show it."""
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
            return None if word in OBJECT_PRONOUNS or word in EXPLETIVES else k
        if word == "," and not doc[verb].lower_.endswith("ing"):
            # "The hiring manager, Mr. Costa, called her": the name in apposition
            return _apposed_name_end(doc, k, tag)
        if word != "," and word not in COORDINATORS:  # the comma here: before an -ing verb
            return None
        verb = _verb_before_in_clause(doc, k, tag)
        if verb is None:
            return None
    return None


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
