"""groups: "they" after "the cat and the dog" is the pair, not one of them. The model often
gives a plural pronoun one member of a coordination as its antecedent ("The teacher and the
students visited a castle, and they ..." linked to "the students"). Where the coordination
itself is a candidate antecedent of the pronoun, its members are not: the pronoun takes the
group, or its next best antecedent. The other way round, a noun phrase whose head noun is a
member's ("The boys are friendly" after "two boys and a dog") is that member, not the group.
"""
from typing import Dict, List, Sequence, Tuple

import numpy
from spacy.attrs import DEP, HEAD, LEMMA, POS
from spacy.strings import get_string_id
from spacy.symbols import NOUN, PROPN
from spacy.tokens import Doc
from spacy.util import registry

from ...lang.en import english
from ..state import DecodingState
from ..step import DecodingStep

PLURAL_PRONOUNS = frozenset(english().pronouns(person=3, number="plural"))  # "they", "them", ...
NOUN_POS_IDS = numpy.asarray([NOUN, PROPN], dtype="uint64")
CONJ = get_string_id("conj")


def group_member_antecedents(
    doc: Doc,
    spans: Sequence[Sequence[int]],
    heads: numpy.ndarray,
    antecedents: numpy.ndarray,
    valid: numpy.ndarray,
) -> numpy.ndarray:
    """Which candidate antecedents of plural pronouns are members of a coordination that is
    itself a candidate antecedent of the same pronoun, and which of a noun phrase are
    coordinations with a member of its head noun.

    doc (Doc): the doc; without a dependency parse nothing is a coordination.
    spans (Sequence): [M] (start, end) token offsets of the kept mentions, end exclusive.
    heads (numpy.ndarray): [M] token index of each mention's syntactic head.
    antecedents (numpy.ndarray): [M, K] index of each candidate antecedent.
    valid (numpy.ndarray): [M, K] which of those columns hold a real pair (the others pad).
    RETURNS (numpy.ndarray): [M, K] bool.
    """
    antecedents = numpy.asarray(antecedents)
    forbidden = numpy.zeros(antecedents.shape, dtype=bool)
    if not doc.has_annotation("DEP") or not len(spans):
        return forbidden
    spans = [(int(s), int(e)) for s, e in spans]
    pronouns = [row for row, (s, e) in enumerate(spans)
                if e - s == 1 and doc[s].lower_ in PLURAL_PRONOUNS]
    members = _coordination_members(doc, spans, heads)  # coordination -> its conjuncts
    if not members:
        return forbidden
    for row in pronouns:
        candidates = set(antecedents[row][valid[row]].tolist())
        inside = set()
        for group, group_members in members.items():
            if group in candidates:
                inside.update(group_members)
        if inside:
            forbidden[row] = numpy.isin(antecedents[row], list(inside))
    return forbidden | _groups_of_a_members_noun(doc, spans, heads, antecedents, members)


def _groups_of_a_members_noun(
    doc: Doc,
    spans: List[Tuple[int, int]],
    heads: numpy.ndarray,
    antecedents: numpy.ndarray,
    members: Dict[int, List[int]],
) -> numpy.ndarray:
    """[M, K] which candidate antecedents of a noun phrase are coordinations with a member of
    that head noun: "The boys" after "two boys and a dog" are the boys, not the group. Arrays
    over the doc's tokens: every mention is read, and docs have many."""
    forbidden = numpy.zeros(antecedents.shape, dtype=bool)
    lemma, pos = doc.to_array([LEMMA, POS]).astype("uint64").T  # [T] each
    head_lemmas = lemma[numpy.asarray(heads, dtype="int64")]  # [M]
    nouns = numpy.isin(pos[numpy.asarray(heads, dtype="int64")], NOUN_POS_IDS)  # [M]
    starts = numpy.asarray([start for start, _ in spans], dtype="int64")  # [M]
    for group, group_members in members.items():
        member_nouns = head_lemmas[group_members][nouns[group_members]]
        # the noun phrases after the group (not one it is part of, nor itself)
        rows = nouns & numpy.isin(head_lemmas, member_nouns) & (starts >= spans[group][1])
        forbidden[rows] |= antecedents[rows] == group
    return forbidden


def _coordination_members(
    doc: Doc, spans: List[Tuple[int, int]], heads: numpy.ndarray
) -> Dict[int, List[int]]:
    """Each mention that is a coordination ("the cat and the dog") -> the mentions that are
    its conjuncts (one of "the cat", "the dog" each, nested inside it)."""
    # the tokens with a conjunct of their own: only mentions headed by one can be coordinations
    dep, head = doc.to_array([DEP, HEAD]).astype("int64").T  # [T] each, heads relative
    conjuncts = numpy.flatnonzero(dep == CONJ)
    coordinated = set((conjuncts + head[conjuncts]).tolist())
    if not coordinated:
        return {}
    by_head: Dict[int, List[int]] = {}
    for i, head in enumerate(heads.tolist()):
        by_head.setdefault(head, []).append(i)
    out: Dict[int, List[int]] = {}
    for i, (start, end) in enumerate(spans):
        if int(heads[i]) not in coordinated:
            continue
        root = doc[int(heads[i])]
        conjuncts = [t.i for t in root.conjuncts if start <= t.i < end]
        inner = [j for head in (root.i, *conjuncts) for j in by_head.get(head, ())
                 if j != i and start <= spans[j][0] and spans[j][1] <= end]
        if conjuncts and inner:
            out[i] = inner
    return out


class Groups(DecodingStep):
    name = "groups"

    def masks(self, state: DecodingState) -> None:
        state.constrained = True
        members = group_member_antecedents(
            state.doc, state.spans.tolist(), state.mentions.heads, state.antecedents,
            state.valid(),
        )
        state.forbid(members)


@registry.misc("spacy_coref.decode.groups.v1")
def make_groups() -> Groups:
    return Groups()
