"""The clustering algorithm: from antecedent scores to clusters, under what the decoding steps
add (`constrained_clusters`). Pure numpy over one doc's `CorefScores`; no Python loop over
mentions, except over the mentions of the clusters that the constraints repair."""
from typing import Any, Callable, Dict, Hashable, Iterable, List, Optional, Sequence, Set, Tuple

import numpy

from ..ml.torch.constants import FIRST_ANTECEDENT_COLUMN, MASKED_SCORE, NULL_COLUMN
from ..types import ClusterOffsets, CorefScores, valid_antecedents

# How much more score a repair that moves a class out of a conflicting cluster must keep than
# cutting links does, to be taken: where the two keep about the same, cutting stays (the move
# only rearranges which of two weak links goes).
MOVE_MARGIN = 1.0


def predict_clusters(scores: CorefScores, null_score: float = 0.0) -> ClusterOffsets:
    """Link each kept mention to its best antecedent (or none) and return the clusters of two or
    more mentions as token offsets, in document order.

    scores (CorefScores): the model's output for one doc.
    null_score (float): the score of "no antecedent" (0 in the model); lower links more.
    RETURNS (List[List[Tuple[int, int]]]): clusters, each sorted.
    """
    pair_scores = numpy.array(scores.scores)  # [M, 1 + K] (a copy: the null column changes)
    if pair_scores.shape[0] == 0 or pair_scores.shape[1] == 1:
        return []
    pair_scores[:, NULL_COLUMN] = null_score
    return clusters_from_links(scores, _best_links(pair_scores, scores.antecedents))


def _best_links(pair_scores: numpy.ndarray, antecedents) -> numpy.ndarray:
    """[M] each mention's best antecedent by `pair_scores` ([M, 1 + K], the null column set),
    its own index where the null antecedent wins."""
    best = pair_scores.argmax(axis=1)  # [M]
    rows = numpy.arange(pair_scores.shape[0])
    antecedent = numpy.asarray(antecedents)[rows, numpy.maximum(best - 1, 0)]  # [M]
    return numpy.where(best != NULL_COLUMN, antecedent, rows)


def constrained_clusters(
    scores: CorefScores,
    null_score: float = 0.0,
    *,
    classes: Optional[numpy.ndarray] = None,
    conflicts: Optional[Callable[[int], int]] = None,
    forbidden: Optional[numpy.ndarray] = None,
    required: Optional[numpy.ndarray] = None,
    names: Optional[Sequence[Optional[Hashable]]] = None,
    clash: Optional[Callable[[Any, Any], bool]] = None,
    cut_classes: int = 0,
    same_entity: Optional[numpy.ndarray] = None,
) -> ClusterOffsets:
    """As `predict_clusters`, under constraints. Forbidden antecedents are never taken and a
    required one always is. Then each cluster whose mentions' classes conflict (he and she)
    keeps its majority: the mentions of the other classes leave it, and each takes its best
    antecedent above the null score in a cluster it agrees with, or none. Next, a forbidden
    pair that other links put in one cluster ("He asked him" through "Sam") is parted: the
    later mention leaves. Then a cluster holding names that clash ("Ricardo Rocha" ... "he"
    ... "Eugenio Bernal") is rebuilt from its links in document order: a name whose link
    would join a cluster with a clashing name (or a mention it is kept apart from) takes
    its best antecedent above the null score in a cluster without one (and that it agrees
    with), or none, and the mentions linked to it go with it; so does any mention whose
    antecedent's new cluster it does not agree with. Last, each mention that left a
    forbidden pair takes its best antecedent above the null score in a cluster without the
    other, that it agrees with and whose names do not clash with its own, or none: once the
    names are parted, "him" that must leave Mark's cluster may find Daniel's, which a wrong
    link had joined to Mark's. Without constraints this is exactly `predict_clusters`.

    scores (CorefScores): the model's output for one doc.
    null_score (float): the score of "no antecedent".
    classes (numpy.ndarray): [M] agreement classes of the kept mentions as bit flags (0:
        unknown); `conflicts(flags)` gives the flags that cannot join a cluster holding them.
    forbidden (numpy.ndarray): [M, K] antecedents never to take.
    required (numpy.ndarray): [M, K] antecedents to take ahead of any other and of the null
        antecedent (a reflexive's own subject).
    names (Sequence): [M] each kept mention's name for `clash`, None where it has none.
    clash (Callable[[Any, Any], bool]): whether two names cannot be in one cluster.
    cut_classes (int): classes (bit flags) whose conflicts are repaired by cutting links
        rather than by the majority: of the links between two mentions that conflict, the
        one that scores least above its mention's best link outside the cluster (an
        antecedent it agrees with, or the null score) goes, until none do, and each mention
        cut off takes, with the mentions linked to it, its best antecedent above the null
        score where it agrees, or none. Cutting cannot take a mention out from between two
        others ("The teacher" <- "He" <- "She"): where the mentions of one class leaving the
        cluster instead (the others keeping their links or the mention before) keeps more
        of the links' scores, by `MOVE_MARGIN`, they leave.
    same_entity (numpy.ndarray): [M] an id per kept mention, equal for mentions that are one
        entity whatever their links (nested mentions with one head: "Halvard Nyberg" and
        "Halvard Nyberg (born 1961)"): a mention that relinks takes no antecedent one of whose
        equals is in a cluster it conflicts with.
    RETURNS (List[List[Tuple[int, int]]]): clusters, each sorted.
    """
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K]
    if pair_scores.shape[0] == 0 or pair_scores.shape[1] == 1:
        return []
    candidate = valid_antecedents(scores)  # [M, K]
    pair = pair_scores[:, FIRST_ANTECEDENT_COLUMN:]  # [M, K] (a view)
    if forbidden is not None:
        pair[forbidden & candidate] = MASKED_SCORE
    if required is not None and (required & candidate).any():
        # above every real score of the doc, best first among themselves
        pair[required & candidate] += float(numpy.abs(pair[candidate]).max()) * 2 + 1
    pair_scores[:, NULL_COLUMN] = null_score
    antecedents = numpy.asarray(scores.antecedents)  # [M, K]
    links = _best_links(pair_scores, antecedents)  # [M]
    if classes is not None and conflicts is not None:
        links = _agree(pair_scores, antecedents, links, classes & ~cut_classes, conflicts,
                       null_score, same_entity)
        if cut_classes:
            links = _cut_conflicts(pair_scores, antecedents, links, classes, conflicts,
                                   null_score, same_entity)
    else:
        classes, conflicts = numpy.zeros(len(links), dtype="int64"), _no_conflicts
    pairs = numpy.zeros((0, 2), dtype="int64")
    leaving: List[int] = []
    if forbidden is not None:
        q, k = numpy.nonzero(forbidden & candidate)
        pairs = numpy.stack([q, antecedents[q, k]], axis=1)  # [n, 2] (mention, earlier one)
        links, leaving = _cut_apart(links, pairs)
    if names is not None and clash is not None:
        links = _part_names(
            pair_scores, antecedents, links, classes, conflicts, null_score, names, clash, pairs
        )
    if leaving:
        # once the names are parted: "him" that left Mark's cluster finds Daniel's, which
        # the names part from Mark's
        links = _relink(
            pair_scores, antecedents, links, classes, conflicts, null_score, leaving,
            _apart_table(pairs), names, clash, same_entity,
        )
    return clusters_from_links(scores, links)


def _no_conflicts(classes: int) -> int:
    return 0


def _cut_apart(links: numpy.ndarray, pairs: numpy.ndarray) -> Tuple[numpy.ndarray, List[int]]:
    """The later mention of each of the `pairs` ([n, 2] mention, earlier mention) that share a
    cluster of `links` stands alone (see `constrained_clusters`). RETURNS: [M] new links, and
    the mentions that left, to relink."""
    root = _roots(links)  # [M]
    together = pairs[root[pairs[:, 0]] == root[pairs[:, 1]]]  # [n', 2]
    if not len(together):
        return links, []
    links = links.copy()
    leaving = sorted(set(together[:, 0].tolist()))
    for r in numpy.unique(root[leaving]).tolist():
        members = numpy.flatnonzero(root == r)  # [n] in document order
        _leave(links, members, numpy.isin(members, leaving))
    return links, leaving


def _apart_table(pairs: numpy.ndarray) -> Dict[int, List[int]]:
    """Each mention of the `pairs` ([n, 2]) -> the mentions it must stay apart from."""
    apart: Dict[int, List[int]] = {}
    for m, a in pairs.tolist():
        apart.setdefault(m, []).append(a)
        apart.setdefault(a, []).append(m)
    return apart


def _part_names(
    pair_scores: numpy.ndarray,
    antecedents: numpy.ndarray,
    links: numpy.ndarray,
    classes: numpy.ndarray,
    conflicts: Callable[[int], int],
    null_score: float,
    names: Sequence[Optional[Hashable]],
    clash: Callable[[Any, Any], bool],
    pairs: numpy.ndarray,
) -> numpy.ndarray:
    """Rebuild the clusters of `links` whose names clash (see `constrained_clusters`); `pairs`
    ([n, 2]) are mentions that must stay apart. RETURNS (numpy.ndarray): [M] new links."""
    root = _roots(links)  # [M]
    named_in: Dict[int, Set[Hashable]] = {}  # a cluster's distinct names, at its root
    for m, name in enumerate(names):
        if name is not None:
            named_in.setdefault(int(root[m]), set()).add(name)
    bad = [r for r, found in named_in.items() if _any_clash(found, found, clash)]
    if not bad:
        return links
    links = links.copy()
    rebuilt = numpy.flatnonzero(numpy.isin(root, bad))  # [n] in document order
    # union-find over clusters: the others stay whole, the rebuilt ones start apart
    parent = root.copy()
    parent[rebuilt] = rebuilt
    flags: Dict[int, int] = {}
    for r, c in zip(parent.tolist(), classes.tolist()):
        flags[r] = flags.get(r, 0) | int(c)
    cluster_names = {r: found for r, found in named_in.items() if r not in bad}
    for m in rebuilt.tolist():
        if names[m] is not None:
            cluster_names[m] = {names[m]}
    apart = _apart_table(pairs)

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = int(parent[i])
        return i

    def may_join(m: int, ra: int) -> bool:
        if ra == m or flags[ra] & conflicts(flags[m]):
            return False
        if any(find(other) == ra for other in apart.get(m, ())):
            return False
        return not _any_clash(cluster_names.get(m, ()), cluster_names.get(ra, ()), clash)

    def join(m: int, ra: int) -> None:
        parent[m] = ra
        flags[ra] |= flags.pop(m)
        if m in cluster_names:
            cluster_names.setdefault(ra, set()).update(cluster_names.pop(m))

    # in document order, so that each mention is still alone when its own link is decided
    for m in rebuilt.tolist():
        a = int(links[m])
        if a == m:
            continue
        if may_join(m, find(a)):
            join(m, find(a))
            continue
        # its link ran into a clash (or, through the new clusters, a binding or agreement
        # conflict): the best antecedent where it fits, or none
        links[m] = m
        columns = numpy.argsort(-pair_scores[m], kind="stable")
        for column in columns[pair_scores[m, columns] > null_score].tolist():
            if column == NULL_COLUMN:
                continue
            a = int(antecedents[m, column - FIRST_ANTECEDENT_COLUMN])
            if may_join(m, find(a)):
                links[m] = a
                join(m, find(a))
                break
    return links


def _any_clash(
    ours: Iterable[Any], theirs: Iterable[Any], clash: Callable[[Any, Any], bool]
) -> bool:
    theirs = list(theirs)
    return any(clash(x, y) for x in ours for y in theirs)


def _agree(
    pair_scores: numpy.ndarray,
    antecedents: numpy.ndarray,
    links: numpy.ndarray,
    classes: numpy.ndarray,
    conflicts: Callable[[int], int],
    null_score: float,
    same_entity: Optional[numpy.ndarray] = None,
) -> numpy.ndarray:
    """Repair the clusters of `links` whose classes conflict (see `constrained_clusters`).
    Python works on the conflicting clusters' mentions only.
    RETURNS (numpy.ndarray): [M] new links (a mention's own index where it has none)."""
    root, bad_roots = _conflicting_clusters(links, classes, conflicts)
    if not bad_roots:
        return links
    links = links.copy()
    leaving: List[int] = []
    for r in bad_roots:
        members = numpy.flatnonzero(root == r)  # [n] in document order
        member_classes = classes[members]  # [n]
        kept_flags = _majority(member_classes, conflicts)
        leaves = (member_classes > 0) & (member_classes & kept_flags == 0)  # [n]
        leaving.extend(members[leaves].tolist())
        _leave(links, members, leaves)
    return _relink(pair_scores, antecedents, links, classes, conflicts, null_score, leaving,
                   same_entity=same_entity)


def _conflicting_clusters(
    links: numpy.ndarray, classes: numpy.ndarray, conflicts: Callable[[int], int]
) -> Tuple[numpy.ndarray, List[int]]:
    """[M] each mention's cluster root, and the roots of the clusters whose classes conflict."""
    root = _roots(links)  # [M]
    flags = numpy.zeros(len(links), dtype="int64")
    numpy.bitwise_or.at(flags, root, classes)  # each cluster's classes, at its root
    candidates = numpy.unique(root[classes > 0]).tolist()  # clusters with a classed mention
    return root, [r for r in candidates if flags[r] & conflicts(int(flags[r]))]


def _cut_conflicts(
    pair_scores: numpy.ndarray,
    antecedents: numpy.ndarray,
    links: numpy.ndarray,
    classes: numpy.ndarray,
    conflicts: Callable[[int], int],
    null_score: float,
    same_entity: Optional[numpy.ndarray] = None,
) -> numpy.ndarray:
    """Repair the clusters of `links` whose classes conflict by cutting their cheapest links
    (see `cut_classes` in `constrained_clusters`). RETURNS (numpy.ndarray): [M] new links."""
    root, bad_roots = _conflicting_clusters(links, classes, conflicts)
    if not bad_roots:
        return links
    cut: List[int] = []
    for r in bad_roots:
        members = numpy.flatnonzero(root == r)  # [n] in document order
        repairs = [_cut_cheapest(pair_scores, antecedents, links, members, classes, conflicts,
                                 null_score)]
        # cutting links parts a cluster where the conflict is, but cannot move a mention out
        # from between others: "The teacher ... He ... She" linked She to He, and only He
        # leaving lets She keep the teacher. A class that leaves may do that
        member_classes = classes[members]
        for seed in numpy.unique(member_classes[member_classes > 0]).tolist():
            kept = _majority(member_classes, conflicts, first=int(seed))
            leaves = (member_classes & conflicts(kept)) != 0  # [n]
            moved = links.copy()
            _leave(moved, members, leaves)
            repairs.append((moved, members[leaves].tolist()))
        # each repair scored as it would end, its mentions relinked
        totals = [
            _total_score(pair_scores, antecedents, _relink(
                pair_scores, antecedents, repaired.copy(), classes, conflicts, null_score, gone,
                same_entity=same_entity,
            ), null_score)
            for repaired, gone in repairs
        ]
        best = int(numpy.argmax(totals))
        links, gone = repairs[best] if totals[best] > totals[0] + MOVE_MARGIN else repairs[0]
        cut.extend(gone)
    # relinked together once every cluster is repaired: "him" cut from Alice finds Robert
    # once "she" is cut from him
    return _relink(pair_scores, antecedents, links, classes, conflicts, null_score, cut,
                   same_entity=same_entity)


def _cut_cheapest(
    pair_scores: numpy.ndarray,
    antecedents: numpy.ndarray,
    links: numpy.ndarray,
    members: numpy.ndarray,
    classes: numpy.ndarray,
    conflicts: Callable[[int], int],
    null_score: float,
) -> Tuple[numpy.ndarray, List[int]]:
    """`links` with the cheapest links between a cluster's conflicting `members` cut until
    none conflict, and the mentions cut off (to relink)."""
    links = links.copy()
    # a link costs what it scores above the mention's best link outside the cluster: "he"
    # and "her" both took "the general", and "her" can take "The queen" instead
    cost = _link_scores(pair_scores, antecedents, links)  # [M]
    cost[members] -= _fallback_scores(
        pair_scores, antecedents, members, classes, conflicts, null_score
    )
    cut: List[int] = []
    while True:
        edge = _cheapest_conflicting_link(links, members, classes, conflicts, cost)
        if edge is None:
            break
        links[edge] = edge
        cut.append(edge)
    return links, cut


def _total_score(
    pair_scores: numpy.ndarray, antecedents: numpy.ndarray, links: numpy.ndarray,
    null_score: float,
) -> float:
    """The sum of the scores of `links`, the null score for a mention without a link."""
    scores = _link_scores(pair_scores, antecedents, links)
    return float(numpy.where(numpy.isinf(scores), null_score, scores).sum())


def _fallback_scores(
    pair_scores: numpy.ndarray,
    antecedents: numpy.ndarray,
    members: numpy.ndarray,
    classes: numpy.ndarray,
    conflicts: Callable[[int], int],
    null_score: float,
) -> numpy.ndarray:
    """[n] for each of a cluster's `members`, the best score it could link with outside the
    cluster: its best antecedent elsewhere whose class does not conflict with its own, or the
    null score."""
    rows = pair_scores[members, FIRST_ANTECEDENT_COLUMN:]  # [n, K]
    ante = numpy.asarray(antecedents)[members]  # [n, K]
    own = numpy.array([conflicts(int(c)) for c in classes[members].tolist()], dtype="int64")
    allowed = ~numpy.isin(ante, members) & ((classes[ante] & own[:, None]) == 0)
    allowed &= ante < members[:, None]
    best = numpy.where(allowed, rows, -numpy.inf).max(axis=1, initial=-numpy.inf)
    return numpy.maximum(best, null_score)


def _link_scores(
    pair_scores: numpy.ndarray, antecedents: numpy.ndarray, links: numpy.ndarray
) -> numpy.ndarray:
    """[M] the score of each mention's link to its antecedent (inf where it has none)."""
    rows = numpy.arange(len(links))
    match = numpy.asarray(antecedents) == links[:, None]  # [M, K]
    column = match.argmax(axis=1) + FIRST_ANTECEDENT_COLUMN
    has = match.any(axis=1) & (links != rows)
    return numpy.where(has, pair_scores[rows, column], numpy.inf)


def _cheapest_conflicting_link(
    links: numpy.ndarray,
    members: numpy.ndarray,
    classes: numpy.ndarray,
    conflicts: Callable[[int], int],
    link_cost: numpy.ndarray,
) -> Optional[int]:
    """The mention whose link costs least (`link_cost`) of those on a path between two
    conflicting mentions of `members` (one tree of `links`, and what was cut from it), or None.
    Linear in the members: per class, how many mentions hold it below each link and in its
    tree."""
    n = len(members)
    position = {int(m): i for i, m in enumerate(members.tolist())}
    parent = [position.get(int(links[m]), i) for i, m in enumerate(members.tolist())]
    member_classes = classes[members]  # [n]
    bits = 1 << numpy.arange(max(int(member_classes.max()).bit_length(), 1))  # [B]
    below = ((member_classes[:, None] & bits[None, :]) != 0).astype("int64")  # [n, B]
    for i in range(n - 1, -1, -1):  # links point to earlier mentions: children come later
        if parent[i] != i:
            below[parent[i]] += below[i]
    tree = list(range(n))
    for i in range(n):
        tree[i] = i if parent[i] == i else tree[parent[i]]
    elsewhere = below[tree] - below  # [n, B] the rest of each mention's tree
    inside = (below > 0).astype("int64") @ bits  # [n]
    outside = (elsewhere > 0).astype("int64") @ bits  # [n]
    conflicting = {int(c): conflicts(int(c)) for c in numpy.unique(outside).tolist()}
    best, best_score = None, numpy.inf
    for i in range(n):
        score = float(link_cost[members[i]])
        if parent[i] != i and inside[i] & conflicting[int(outside[i])] and score < best_score:
            best, best_score = int(members[i]), score
    return best


def _leave(links: numpy.ndarray, members: numpy.ndarray, leaves: numpy.ndarray) -> None:
    """In place: the `leaves` ([n] mask) of a cluster's `members` ([n], document order) stand
    alone; a mention that stays keeps its own link where that is to a mention that stays, and
    otherwise links to the mention that stays before it, so that whoever linked to a leaving
    mention keeps its cluster. Own links matter later: a name that must leave its cluster
    takes with it the mentions linked to it, and a chain made up here would drag along a
    mention that never chose it ("Aubert ... Brandt" after "him" left "Brandt"'s cluster)."""
    links[members[leaves]] = members[leaves]
    staying = members[~leaves]
    previous = numpy.concatenate([staying[:1], staying[:-1]])  # [s]
    links[staying] = numpy.where(numpy.isin(links[staying], staying), links[staying], previous)


def _majority(
    member_classes: numpy.ndarray, conflicts: Callable[[int], int], first: int = 0
) -> int:
    """The classes a conflicting cluster keeps: `first` if given, then the most frequent, then
    each other one that agrees with those kept (ties: the class that comes first in the
    document)."""
    values, first_seen, counts = numpy.unique(
        member_classes[member_classes > 0], return_index=True, return_counts=True
    )
    kept = first
    for i in numpy.lexsort((first_seen, -counts)).tolist():
        if not int(values[i]) & conflicts(kept):
            kept |= int(values[i])
    return kept


def _relink(
    pair_scores: numpy.ndarray,
    antecedents: numpy.ndarray,
    links: numpy.ndarray,
    classes: numpy.ndarray,
    conflicts: Callable[[int], int],
    null_score: float,
    leaving: List[int],
    apart: Optional[Dict[int, List[int]]] = None,
    names: Optional[Sequence[Optional[Hashable]]] = None,
    clash: Optional[Callable[[Any, Any], bool]] = None,
    same_entity: Optional[numpy.ndarray] = None,
) -> numpy.ndarray:
    """Give each mention that left its cluster its best antecedent above the null score whose
    cluster it agrees with (and holds none of the mentions `apart` keeps it from, and no
    name that clashes with one of its own), in document order; where `same_entity` is
    given, the clusters of the antecedent's equals must agree too."""
    root = _roots(links)
    flags = numpy.zeros(len(links), dtype="int64")
    numpy.bitwise_or.at(flags, root, classes)
    parent = {int(m): int(r) for m, r in enumerate(root)}  # union-find over the clusters
    named_in: Dict[int, Set[Hashable]] = {}  # a cluster's names, at its root
    if names is not None and clash is not None:
        for m, name in enumerate(names):
            if name is not None:
                named_in.setdefault(int(root[m]), set()).add(name)

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    equals: Dict[int, List[int]] = {}  # an entity id -> its mentions, where several
    entity_of: List[int] = [] if same_entity is None else numpy.asarray(same_entity).tolist()
    for i, key in enumerate(entity_of):
        if key >= 0:
            equals.setdefault(key, []).append(i)
    equals = {key: group for key, group in equals.items() if len(group) > 1}

    for m in sorted(leaving):
        columns = numpy.argsort(-pair_scores[m], kind="stable")
        for column in columns[pair_scores[m, columns] > null_score].tolist():
            if column == NULL_COLUMN:
                continue
            a = int(antecedents[m, column - FIRST_ANTECEDENT_COLUMN])
            ra, rm = find(a), find(m)
            if ra == rm or flags[ra] & conflicts(int(flags[rm])):
                continue
            if equals and any(
                flags[find(e)] & conflicts(int(flags[rm])) for e in equals.get(entity_of[a], ())
            ):
                continue
            if apart and any(find(other) == ra for other in apart.get(m, ())):
                continue
            if named_in and _any_clash(named_in.get(rm, ()), named_in.get(ra, ()), clash):
                continue
            links[m] = a
            parent[rm] = ra
            flags[ra] |= flags[rm]
            if rm in named_in:
                named_in.setdefault(ra, set()).update(named_in.pop(rm))
            break
    return links


def _roots(links: numpy.ndarray) -> numpy.ndarray:
    """[M] the first mention of each mention's chain. Antecedents always precede their
    mention, so pointer jumping gets there in O(log M) vectorised steps."""
    root = numpy.asarray(links).copy()
    while True:
        jumped = root[root]
        if numpy.array_equal(jumped, root):
            return root
        root = jumped


def clusters_from_links(scores: CorefScores, links: numpy.ndarray) -> ClusterOffsets:
    """Clusters (two or more mentions, as token offsets, in document order) from each kept
    mention's antecedent ([M] indices; a mention's own index where it has none)."""
    root = _roots(links)  # [M]
    order = numpy.argsort(root, kind="stable")  # [M]
    boundaries = numpy.flatnonzero(numpy.diff(root[order])) + 1
    spans = numpy.asarray(scores.candidates)[numpy.asarray(scores.kept)]  # [M, 2]
    clusters = []
    for members in numpy.split(order, boundaries):
        if len(members) >= 2:
            clusters.append([(int(s), int(e)) for s, e in spans[numpy.sort(members)]])
    return sorted(clusters)


def pair_score_tuples(scores: CorefScores) -> List[Tuple[int, int, int, int, float]]:
    """Every scored (mention, antecedent) pair as (m_start, m_end, a_start, a_end, score)."""
    valid = valid_antecedents(scores)  # [M, K]
    spans = numpy.asarray(scores.candidates)[numpy.asarray(scores.kept)]  # [M, 2]
    q_idx, k_idx = numpy.nonzero(valid)
    a_idx = numpy.asarray(scores.antecedents)[q_idx, k_idx]
    values = numpy.asarray(scores.scores)[q_idx, k_idx + FIRST_ANTECEDENT_COLUMN]
    return [
        (int(spans[q, 0]), int(spans[q, 1]), int(spans[a, 0]), int(spans[a, 1]), float(v))
        for q, a, v in zip(q_idx, a_idx, values)
    ]
