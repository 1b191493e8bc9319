"""contrasts: noun phrases that one modifier sets apart: "the old bridge" and "a new bridge",
"the first chapter" and "the second chapter", "two boxes" and "three boxes". Two mentions with
the same head noun are two entities when each has a word of one contrast group below that head
(or a number) and the words differ.

The groups are closed sets whose members exclude each other when they describe the same kind
of thing. In LitBank and OntoGUM train, 101 gold-mention pairs with one head noun differ in a
word of these groups and 20 in a number; none of them corefer. Adjectives in general do not
part mentions: "a nice chap" and "the poor dear chap" are one person, and 12% of the same-head
pairs whose adjectives differ (none of them from the groups) corefer.

"One" and "the other" set two apart whatever their heads: "One of them is 19; the other is
23", "one sister ... the other sister". Neither LitBank nor OntoGUM dev has a gold pair of the
two in one cluster.
"""
from typing import Dict, Sequence, Tuple

import numpy
from spacy.strings import hash_string
from spacy.tokens import Doc
from spacy.util import registry

from ...lang.en import english
from ..state import DecodingState
from ..step import DecodingStep

# each group lists values that exclude each other; words of one value ("small", "little")
# are synonyms and set nothing apart (data: spacy_coref/lang/en/contrasts.json)
CONTRAST_GROUPS: Tuple[Tuple[Tuple[str, ...], ...], ...] = english().contrast_groups
# "zero" ... "twenty" -> "0" ... "20" (data: spacy_coref/lang/en/function_words.json)
NUMBER_WORDS = {word: str(i) for i, word in enumerate(english().number_words)}
MODIFIER_DEPS = {"amod", "nummod", "compound"}
OTHER_WORDS = tuple(sorted(english().words("others")))  # "another", "other"
_GROUP_BITS: Dict[str, Tuple[int, int]] = {
    word: (g, 1 << i)
    for g, group in enumerate(CONTRAST_GROUPS)
    for i, synonyms in enumerate(group)
    for word in synonyms
}
_GROUP_HASHES = numpy.sort(
    numpy.asarray([hash_string(w) for w in (*_GROUP_BITS, *OTHER_WORDS)], dtype="uint64")
)


def contrasting_pairs(
    doc: Doc, spans: Sequence[Sequence[int]], heads: numpy.ndarray, antecedents: numpy.ndarray
) -> numpy.ndarray:
    """Which candidate antecedents a contrasting modifier sets apart from their mention.

    doc (Doc): the doc; without a dependency parse a mention's head is its last word and its
        modifiers are the words before it.
    spans (Sequence): [M] (start, end) token offsets of the kept mentions, end exclusive.
    heads (numpy.ndarray): [M] token index of each mention's head, -1 where not parsed.
    antecedents (numpy.ndarray): [M, K] index of each candidate antecedent.
    RETURNS (numpy.ndarray): [M, K] bool, True where the two have one head noun and a
        modifier of one contrast group (or a number) that differs, or where one is "one" and
        the other "the other".
    """
    n = len(spans)
    groups = numpy.zeros((n, len(CONTRAST_GROUPS)), dtype="int64")  # bits of the words used
    numbers = numpy.zeros(n, dtype="uint64")  # hash of the number, 0 where none
    ones = numpy.zeros(n, dtype=bool)  # "one", "one of them", "one sister"
    others = numpy.zeros(n, dtype=bool)  # "the other", "another sister", "the other one"
    head_words = numpy.zeros(n, dtype="uint64")  # hash of the head noun, 0: nothing to contrast
    parsed = doc.has_annotation("DEP")
    strings = doc.vocab.strings
    # only spans with a group word, "other" or a number are read token by token
    spans = numpy.asarray(spans, dtype="int64").reshape((n, 2))
    lowers, like_num = doc.to_array(["LOWER", "LIKE_NUM"]).reshape((-1, 2)).T
    at = numpy.minimum(numpy.searchsorted(_GROUP_HASHES, lowers), len(_GROUP_HASHES) - 1)
    marked = (_GROUP_HASHES[at] == lowers) | (like_num != 0)
    marks = numpy.concatenate([[0], numpy.cumsum(marked)])
    starts, ends = spans[:, 0], spans[:, 1]
    read = numpy.nonzero(marks[ends] > marks[starts])[0]
    for i in read.tolist():
        start, end = int(starts[i]), int(ends[i])
        head = doc[int(heads[i])] if parsed and heads[i] >= 0 else doc[end - 1]
        if parsed:
            modifiers = [t for t in head.children if start <= t.i < end and t.dep_ in MODIFIER_DEPS]
            words = [*(t for t in head.children if start <= t.i < end and t.dep_ == "det"), head]
            words += modifiers
        else:
            # the head is the last word: "One of them" is read by its first
            modifiers = list(doc[start : head.i])
            words = [*modifiers, head]
        others[i] = any(t.lower_ in OTHER_WORDS for t in words)
        ones[i] = not others[i] and any(t.lower_ == "one" for t in (*words, doc[start]))
        if head.pos_ not in ("NOUN", "PROPN", "") or head.like_num:
            continue
        found = False
        for word in modifiers:
            lower = word.lower_
            if lower in _GROUP_BITS:
                g, bit = _GROUP_BITS[lower]
                groups[i, g] |= bit
                found = True
            elif word.like_num and (not parsed or word.dep_ == "nummod"):
                numbers[i] = strings.add(NUMBER_WORDS.get(lower, lower.replace(",", "")))
                found = True
        if found:
            # the lemma where there is one, so that "the old bridges" meets "a new bridge"
            head_words[i] = strings.add((head.lemma_ or head.lower_).lower())
    antecedents = numpy.asarray(antecedents, dtype="int64")
    if not (head_words.any() or others.any()) or antecedents.size == 0:
        return numpy.zeros(antecedents.shape, dtype=bool)
    one_and_other = (ones[:, None] & others[antecedents]) | (others[:, None] & ones[antecedents])
    same_head = (head_words[:, None] != 0) & (head_words[:, None] == head_words[antecedents])
    mine, theirs = groups[:, None, :], groups[antecedents]  # [M, 1, G], [M, K, G]
    group_clash = ((mine != 0) & (theirs != 0) & ((mine & theirs) == 0)).any(axis=2)
    number_clash = (numbers[:, None] != 0) & (numbers[antecedents] != 0) & (
        numbers[:, None] != numbers[antecedents]
    )
    return (same_head & (group_clash | number_clash)) | one_and_other


class Contrasts(DecodingStep):
    name = "contrasts"

    def masks(self, state: DecodingState) -> None:
        state.constrained = True
        heads = state.mentions.heads
        state.forbid(contrasting_pairs(state.doc, state.spans, heads, state.antecedents))


@registry.misc("spacy_coref.decode.contrasts.v1")
def make_contrasts() -> Contrasts:
    return Contrasts()
