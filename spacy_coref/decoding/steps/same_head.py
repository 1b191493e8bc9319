"""same_head: one mention per head word in a cluster. Where a cluster holds two nested mentions
with the same head, users read them as the same mention twice, and the gold never has both: in
LitBank and OntoGUM dev the default put 64 such pairs in its clusters, and no pair was two gold
mentions of one entity.

Where the outer mention goes on after the inner one ("Greta" and "Greta, who laughed at him";
"The two" and "The two of them"), the cluster keeps the inner one: the name as it stands, which
GAP's scoring and a user looking for "Greta" match by its last word. Where it only adds words
before it ("Netherlands" and "the Netherlands"), it keeps the one the model scores higher as a
mention.
`whole_phrases` (after this) then grows the mention kept to its whole noun phrase where
that is a candidate, but for a person's name.

Where the two are in different clusters ("old Cotter" in one, "Cotter" at the same place in
another), one entity has been split in two: the clusters become one first
(`merge_nested_same_head`), unless their agreement classes conflict, one holds "I" or "you"
and the other "he" or "her", or the outer mention names something else (a coordination, or a
restrictive part after the noun: "the doctor in small Colorado towns" is any such doctor, not
the one named before). In LitBank and OntoGUM dev the default left 89 such pairs in different
clusters, and the gold never had both as mentions of one entity.
"""
from collections import defaultdict
from itertools import permutations
from typing import Callable, Dict, List, Optional, Sequence, Set

import numpy
from spacy.tokens import Doc
from spacy.util import registry

from ...linguistics.clause_roles import first_or_second_person
from ...linguistics.mention_classes import PRONOUN_CLASS, conflicting_classes
from ...linguistics.span_roots import span_roots
from ...types import ClusterOffsets, MentionOffset
from ..state import DecodingState
from ..step import DecodingStep

SPEAKER, THIRD = 1, 2  # which pronouns a cluster holds: first or second person, third person
# what begins a non-restrictive part after a name or noun ("Greta, who...", "Tate (a judge)")
SET_OFF = frozenset((",", "(", "-", "--", "–", "—"))


def one_mention_per_head(
    doc: Doc, clusters: ClusterOffsets, candidates: numpy.ndarray, mention_scores: numpy.ndarray
) -> ClusterOffsets:
    """The clusters with one mention of each two nested ones with one head word (see the
    module's docstring). A cluster left with one mention is dropped. Without a parse, a
    mention's last word stands for its head, so that of "Poor Miss Taylor" and "Miss Taylor"
    in one cluster the one the model scores higher as a mention stays (the fast pipeline:
    LitBank dev +0.12, OntoGUM +0.12).

    doc (Doc): the doc the clusters are in.
    clusters (List[List[Tuple[int, int]]]): (start, end) token offsets, end exclusive.
    candidates (numpy.ndarray): [C, 2] the candidate spans that `mention_scores` score.
    mention_scores (numpy.ndarray): [C] the model's mention scores.
    RETURNS (List[List[Tuple[int, int]]]): the clusters, each in its order.
    """
    score = _clustered_scores(doc, clusters, candidates, mention_scores)
    parsed = doc.has_annotation("DEP")  # once: it reads the whole doc
    result = []
    for cluster in clusters:
        gone = _lower_of_nested(doc, cluster, score, parsed)
        kept = [mention for mention in cluster if mention not in gone]
        if len(kept) > 1:
            result.append(kept)
    return result


def _clustered_scores(
    doc: Doc, clusters: ClusterOffsets, candidates: numpy.ndarray, mention_scores: numpy.ndarray
) -> Dict[MentionOffset, float]:
    """The mention scores of the clustered mentions that are candidates. Looked up in sorted
    span keys: the fast pipeline's candidates are every short span, ten per token, and a dict
    of all of them took most of its decoding time."""
    clustered = sorted({(int(start), int(end)) for cluster in clusters for start, end in cluster})
    spans = numpy.asarray(candidates, dtype="int64").reshape((-1, 2))
    if not clustered or not len(spans):
        return {}
    width = len(doc) + 1
    keys = spans[:, 0] * width + spans[:, 1]
    order = numpy.argsort(keys, kind="stable")
    wanted = numpy.asarray([start * width + end for start, end in clustered], dtype="int64")
    at = numpy.minimum(numpy.searchsorted(keys[order], wanted), len(keys) - 1)
    found = keys[order][at] == wanted
    values = numpy.asarray(mention_scores, dtype="float64")[order][at]
    return {m: float(v) for m, v, ok in zip(clustered, values.tolist(), found.tolist()) if ok}


def merge_nested_same_head(
    doc: Doc,
    clusters: ClusterOffsets,
    classes: Optional[Dict[MentionOffset, int]] = None,
    conflicts: Optional[Callable[[int], int]] = None,
) -> ClusterOffsets:
    """The clusters with each two holding nested mentions with one head word made one ("old
    Cotter" in one, "Cotter" at the same place in another: one person split in two). Not where
    the outer mention names something else (`_same_referent`), where the clusters' agreement
    classes conflict, nor where one holds a first- or second-person pronoun and the other a
    third-person one. Docs without a parse are left as they are.

    doc (Doc): the doc the clusters are in.
    clusters (List[List[Tuple[int, int]]]): (start, end) token offsets, end exclusive.
    classes (Optional[Dict[MentionOffset, int]]): agreement classes (bit flags) of the
        mentions; a mention missing has none. None: no class stops a merge.
    conflicts (Optional[Callable[[int], int]]): the classes that cannot join a cluster of
        given classes; needed with `classes`.
    RETURNS (List[List[Tuple[int, int]]]): the clusters, each sorted, in document order.
    """
    if not doc.has_annotation("DEP") or len(clusters) < 2:
        return clusters
    parent = list(range(len(clusters)))

    def find(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    owner: Dict[MentionOffset, int] = {}
    by_head: Dict[int, List[MentionOffset]] = defaultdict(list)
    indexed = [(index, (int(m[0]), int(m[1]))) for index, c in enumerate(clusters) for m in c]
    roots = span_roots(doc, [mention for _, mention in indexed]).tolist()
    for (index, mention), root in zip(indexed, roots):
        if mention in owner:  # one mention in two clusters: they are one, none is lost
            parent[find(index)] = find(owner[mention])
            continue
        owner[mention] = index
        by_head[root].append(mention)

    def person(mention: MentionOffset) -> int:
        if mention[1] - mention[0] != 1:
            return 0
        token = doc[mention[0]]
        if token.lower_ in PRONOUN_CLASS:
            return THIRD
        return SPEAKER if first_or_second_person(token) else 0

    cluster_classes = [0] * len(clusters)
    persons = [0] * len(clusters)
    for mention, index in owner.items():
        root = find(index)
        if classes is not None:
            cluster_classes[root] |= classes.get(mention, 0)
        persons[root] |= person(mention)

    for group in by_head.values():
        for outer, inner in permutations(sorted(set(group)), 2):
            if not _same_referent(doc, outer, inner):
                continue
            a, b = find(owner[outer]), find(owner[inner])
            if a == b:
                continue
            if conflicts is not None and cluster_classes[a] & conflicts(cluster_classes[b]):
                continue
            # "I" in one and "her" in the other: a wrong link to the speaker is not made larger
            if (persons[a] | persons[b]) == SPEAKER | THIRD and persons[a] != persons[b]:
                continue
            parent[b] = a
            cluster_classes[a] |= cluster_classes[b]
            persons[a] |= persons[b]
    merged: Dict[int, Set[MentionOffset]] = defaultdict(set)
    for mention, index in owner.items():
        merged[find(index)].add(mention)
    return sorted(sorted(group) for group in merged.values())


def _same_referent(doc: Doc, outer: MentionOffset, inner: MentionOffset) -> bool:
    """Whether `outer` holds `inner` (same head) with words that leave the referent as it is:
    words before it ("old Cotter", "the late Lady Belmont") and a part set off by a comma
    ("Greta, who laughed at him") or a name in apposition ("Her son David"), not a
    coordination ("the lake and the mountains") nor a restrictive part after it ("the doctor
    in small Colorado towns": another referent)."""
    if not (outer[0] <= inner[0] and inner[1] <= outer[1]) or outer == inner:
        return False
    if _coordination(doc, outer):
        return False
    return (
        inner[1] == outer[1]
        or doc[inner[1]].text in SET_OFF
        or _appositive_name(doc, inner, outer[1])
    )


def _appositive_name(doc: Doc, inner: MentionOffset, end: int) -> bool:
    """Whether the words from the end of `inner` to `end` are a proper name in apposition to
    its head ("David" of "Her son David")."""
    words = doc[inner[1] : end]
    root = doc[inner[0] : inner[1]].root
    return (
        all(t.pos_ == "PROPN" for t in words)
        and words.root.dep_ == "appos"
        and words.root.head.i == root.i
    )


def _coordination(doc: Doc, mention: MentionOffset) -> bool:
    span = doc[mention[0] : mention[1]]
    root = span.root
    return any(token.dep_ == "conj" and token.head.i == root.i for token in span)


def _lower_of_nested(
    doc: Doc, cluster: Sequence[MentionOffset], score: Dict[MentionOffset, float], parsed: bool
) -> Set[MentionOffset]:
    """The mentions that lose to a nested mention with their head (without a parse, their last
    word): the outer one where it ends later, else the lower-scored (a tie keeps the outer
    one). Of a chain of nested mentions, the shortest-ending and then best-scored one wins each
    of its pairs, so one of them stays."""
    # only mentions with one head can clash: a long cluster costs no pairs of all its mentions
    by_head: Dict[int, List[MentionOffset]] = defaultdict(list)
    for mention in cluster:
        head = doc[mention[0] : mention[1]].root.i if parsed else mention[1] - 1
        by_head[head].append(mention)
    gone = set()
    for group in by_head.values():
        for outer, inner in permutations(group, 2):
            if not (outer[0] <= inner[0] and inner[1] <= outer[1]):
                continue
            if inner[1] < outer[1]:
                gone.add(outer)
            elif score.get(outer, 0.0) >= score.get(inner, 0.0):
                gone.add(inner)
            else:
                gone.add(outer)
    return gone


class SameHead(DecodingStep):
    name = "same_head"

    def clusters(self, state: DecodingState) -> None:
        if state.n_mentions and state.parsed:  # without a parse, no heads to merge by
            state.clusters = merge_nested_same_head(
                state.doc, state.clusters, state.mention_classes, conflicting_classes
            )
        scores = state.scores
        state.clusters = one_mention_per_head(
            state.doc, state.clusters, scores.candidates, scores.mention_scores
        )


@registry.misc("spacy_coref.decode.same_head.v1")
def make_same_head() -> SameHead:
    return SameHead()
