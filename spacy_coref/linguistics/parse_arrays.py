"""A parsed doc read once as arrays over its tokens (`ParseArrays`): each token's head as an
absolute index, and the string ids of its dependency label, part of speech, tag, lower-case
form and lemma. The mention analysis reads what it knows of every candidate from these, by
indexing with the candidates' head tokens, instead of a Span and Token objects per candidate.
"""
from typing import Iterable, NamedTuple

import numpy
from spacy.strings import get_string_id
from spacy.tokens import Doc, MorphAnalysis


class ParseArrays(NamedTuple):
    head: numpy.ndarray  # [T] int64: the token index of each token's head (itself for a root)
    dep: numpy.ndarray  # [T] uint64 string ids
    pos: numpy.ndarray
    tag: numpy.ndarray
    lower: numpy.ndarray
    lemma: numpy.ndarray
    morph: numpy.ndarray  # [T] uint64 morphological analysis keys


def parse_arrays(doc: Doc) -> ParseArrays:
    """The doc's parse as arrays (a doc without one: every token its own head)."""
    columns = doc.to_array(["HEAD", "DEP", "POS", "TAG", "LOWER", "LEMMA", "MORPH"])
    columns = numpy.asarray(columns, dtype="uint64").reshape((-1, 7))
    offsets, dep, pos, tag, lower, lemma, morph = columns.T
    # HEAD is relative and stored unsigned: a head before the token wraps around
    head = numpy.arange(len(doc), dtype="int64") + offsets.astype("int64")
    return ParseArrays(head, dep, pos, tag, lower, lemma, morph)


def ids(labels: Iterable[str]) -> numpy.ndarray:
    """The string ids of labels or words, to compare with a `ParseArrays` column."""
    return numpy.asarray([get_string_id(label) for label in labels], dtype="uint64")


def morph_has(doc: Doc, morph: numpy.ndarray, field: str, values: Iterable[str]) -> numpy.ndarray:
    """[T] bool: whether each token's morphology gives `field` one of `values`
    (`token.morph.get(field)`), each distinct analysis read once."""
    wanted = set(values)
    keys, where = numpy.unique(morph, return_inverse=True)
    found = [
        bool(wanted & set(MorphAnalysis.from_id(doc.vocab, int(key)).get(field))) for key in keys
    ]
    return numpy.asarray(found, dtype=bool)[where.reshape(-1)]
