"""Groups: "they" after "the cat and the dog" is the pair, not one of them. The model often
gives a plural pronoun one member of a coordination as its antecedent ("The teacher and the
students visited a castle, and they ..." linked to "the students"; "the bride and groom ...
they" to "the guests" past them). Where the coordination itself is a candidate antecedent of
the pronoun, its members are not: the pronoun takes the group, or its next best antecedent.
"""
from typing import Dict, List, Sequence

import numpy
from spacy.tokens import Doc

PLURAL_PRONOUNS = frozenset(("they", "them", "their", "theirs", "themselves"))


def group_member_antecedents(
    doc: Doc, spans: Sequence[Sequence[int]], antecedents: numpy.ndarray
) -> numpy.ndarray:
    """Which candidate antecedents of plural pronouns are members of a coordination that is
    itself a candidate antecedent of the same pronoun.

    doc (Doc): the doc; without a dependency parse nothing is a coordination.
    spans (Sequence): [M] (start, end) token offsets of the kept mentions, end exclusive.
    antecedents (numpy.ndarray): [M, K] index of each candidate antecedent.
    RETURNS (numpy.ndarray): [M, K] bool.
    """
    antecedents = numpy.asarray(antecedents)
    forbidden = numpy.zeros(antecedents.shape, dtype=bool)
    if not doc.has_annotation("DEP") or not len(spans):
        return forbidden
    spans = [(int(s), int(e)) for s, e in spans]
    members = _coordination_members(doc, spans)  # coordination index -> member indices
    if not members:
        return forbidden
    for row, (start, end) in enumerate(spans):
        if end - start != 1 or doc[start].lower_ not in PLURAL_PRONOUNS:
            continue
        candidates = set(antecedents[row].tolist())
        inside = set()
        for group, group_members in members.items():
            if group in candidates:
                inside.update(group_members)
        if inside:
            forbidden[row] = numpy.isin(antecedents[row], list(inside))
    return forbidden


def _coordination_members(doc: Doc, spans: List[Sequence[int]]) -> Dict[int, List[int]]:
    """Each mention that is a coordination ("the cat and the dog") -> the mentions that are
    its conjuncts (one of "the cat", "the dog" each, nested inside it)."""
    index = {span: i for i, span in enumerate(spans)}
    by_root: Dict[int, List[int]] = {}
    for i, (start, end) in enumerate(spans):
        by_root.setdefault(doc[start:end].root.i, []).append(i)
    out: Dict[int, List[int]] = {}
    for i, (start, end) in enumerate(spans):
        root = doc[start:end].root
        conjuncts = [t for t in root.conjuncts if start <= t.i < end]
        if not conjuncts:
            continue
        inner = []
        for head in (root, *conjuncts):
            for j in by_root.get(head.i, ()):
                s, e = spans[j]
                if j != i and start <= s and e <= end and (s, e) in index:
                    inner.append(j)
        if inner:
            out[i] = inner
    return out
