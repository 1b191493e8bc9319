"""Word lists and word -> value tables as sorted arrays of string ids, to look a doc's words up
all at once (`look_up(doc.to_array("LOWER"), table)`) instead of token by token. A key is the
id a doc stores for the word: its hash, or its symbol where spaCy has one ("number", "agent",
"mark" and "root" are labels too, so their ids are small numbers, not hashes).
"""
from typing import Iterable, Mapping, NamedTuple, Union

import numpy
from spacy.strings import get_string_id


class WordTable(NamedTuple):
    keys: numpy.ndarray  # [W] sorted uint64 string ids
    values: numpy.ndarray  # [W] int64


def word_table(words: Union[Mapping[str, int], Iterable[str]]) -> WordTable:
    """A table of a word -> int mapping, or of a list of words (each with the value 1)."""
    table = words if isinstance(words, Mapping) else dict.fromkeys(words, 1)
    keys = numpy.asarray([get_string_id(word) for word in table], dtype="uint64")
    values = numpy.asarray(list(table.values()), dtype="int64")
    order = numpy.argsort(keys)
    return WordTable(keys[order], values[order])


def look_up(ids: numpy.ndarray, table: WordTable) -> numpy.ndarray:
    """The values of `ids` (string ids, any shape) in `table`, 0 where absent."""
    ids = numpy.asarray(ids, dtype="uint64")
    if not len(table.keys):
        return numpy.zeros(ids.shape, dtype="int64")
    at = numpy.minimum(numpy.searchsorted(table.keys, ids), len(table.keys) - 1)
    return numpy.where(table.keys[at] == ids, table.values[at], 0)


def contains(ids: numpy.ndarray, table: WordTable) -> numpy.ndarray:
    """Whether each of `ids` is a key of `table` (whatever its value)."""
    ids = numpy.asarray(ids, dtype="uint64")
    if not len(table.keys):
        return numpy.zeros(ids.shape, dtype=bool)
    at = numpy.minimum(numpy.searchsorted(table.keys, ids), len(table.keys) - 1)
    return table.keys[at] == ids
