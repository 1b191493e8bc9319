"""One mention per head word in a cluster. Where a cluster holds two nested mentions with the
same head, users read them as the same mention twice, and the gold never has both: in LitBank
and OntoGUM dev the default put 64 such pairs in its clusters, and no pair was two gold
mentions of one entity.

Where the outer mention goes on after the inner one ("Greta" and "Greta, who laughed at him";
"The two" and "The two of them"), the cluster keeps the inner one: the name as it stands, which
GAP's scoring and a user looking for "Greta" match by its last word. Where it only adds words
before it ("Netherlands" and "the Netherlands"), it keeps the one the model scores higher as a
mention.
"""
from collections import defaultdict
from itertools import permutations
from typing import Dict, List, Sequence, Set

import numpy
from spacy.tokens import Doc

from ..types import ClusterOffsets, MentionOffset


def one_mention_per_head(
    doc: Doc, clusters: ClusterOffsets, candidates: numpy.ndarray, mention_scores: numpy.ndarray
) -> ClusterOffsets:
    """The clusters with one mention of each two nested ones with one head word (see the
    module's docstring). A cluster left with one mention is dropped. Docs without a parse are left as they are: the
    head is the parse's.

    doc (Doc): the doc the clusters are in.
    clusters (List[List[Tuple[int, int]]]): (start, end) token offsets, end exclusive.
    candidates (numpy.ndarray): [C, 2] the candidate spans that `mention_scores` score.
    mention_scores (numpy.ndarray): [C] the model's mention scores.
    RETURNS (List[List[Tuple[int, int]]]): the clusters, each in its order.
    """
    if not doc.has_annotation("DEP"):
        return clusters
    score: Dict[MentionOffset, float] = {
        (int(start), int(end)): float(value)
        for (start, end), value in zip(numpy.asarray(candidates).reshape((-1, 2)),
                                       numpy.asarray(mention_scores))
    }
    result = []
    for cluster in clusters:
        gone = _lower_of_nested(doc, cluster, score)
        kept = [mention for mention in cluster if mention not in gone]
        if len(kept) > 1:
            result.append(kept)
    return result


def _lower_of_nested(
    doc: Doc, cluster: Sequence[MentionOffset], score: Dict[MentionOffset, float]
) -> Set[MentionOffset]:
    """The mentions that lose to a nested mention with their head: the outer one where it ends
    later, else the lower-scored (a tie keeps the outer one). Of a chain of nested mentions, the
    shortest-ending and then best-scored one wins each of its pairs, so one of them stays."""
    # only mentions with one head can clash: a long cluster costs no pairs of all its mentions
    by_head: Dict[int, List[MentionOffset]] = defaultdict(list)
    for mention in cluster:
        by_head[doc[mention[0] : mention[1]].root.i].append(mention)
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
