"""names: a repeated name ("Petra" five sentences after "Petra", or "Kurz" after "Helena Kurz")
is the same person unless something says otherwise. The model scores such pairs from token
vectors of windows that rarely hold both, and leaves far repeats apart: a reader sees "Felix"
twice in a story as two entities. Exact name matching is the most precise of the classic
coreference sieves, so it is applied to the decoded clusters as a rule.

`link_repeated_names` puts the candidate mentions that are names in the cluster of an earlier
mention of the same name:

* the same words, case aside ("the Harlow Museum" and "The Harlow Museum"; a leading "the"
  is left out);
* a one-word name and a longer person's name (the recognizer's, or one in a cluster with
  "he" or "she") whose first or last word it is ("Kurz" and "Helena Kurz"; titles such as
  "Mr." are not first names), where just one cluster holds
  longer names with that word and agrees with the word's own: "Bennet" after "Mr. Bennet"
  and "Jane Bennet" is left as it is, but a "Dowson" that is "he", after "Alice Dowson" and
  "Jim Dowson", is Jim; so is a title with a last name and the full name with that title
  ("Senator Grady" and "Senator Paul Grady", not "Mrs. Grady");
* a name inside a clustered noun phrase that it names ("his sister Maren", "a teacher called
  Mr. Patel") is that phrase's cluster's, and so is a later "Maren".

Clusters are never merged where agreement forbids it (one holds "he", the other "she"), and
a cluster goes by the name its mentions use most. Which mentions are names is read in
`linguistics/name_words.py`: without a parse (the fast pipeline), people's names alone.
"""
from typing import Callable, Collection, Dict, List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span
from spacy.util import registry

from ...linguistics.mention_classes import (
    COLLECTIVE,
    FEMININE,
    MASCULINE,
    conflicting_classes,
    union_of_classes,
)
from ...linguistics.name_words import (
    PERSON_ENTS,
    capitalised_spans,
    capitalised_tokens,
    is_naming_participle_object,
    is_persons_word,
    name_titles,
    name_words,
    person_name_words,
    unparsed_name_words,
    unparsed_person_name_words,
    without_titles,
)
from ...linguistics.person_names import GroupNames
from ...linguistics.person_nouns import PERSON_NOUNS
from ...linguistics.span_roots import span_roots
from ...types import ClusterOffsets, MentionOffset
from ..state import DecodingState
from ..step import DecodingStep
from .binding import forbidden_pronoun_pairs, possessor_pairs


def link_repeated_names(
    doc: Doc,
    clusters: ClusterOffsets,
    mentions: Sequence[MentionOffset],
    classes: Dict[MentionOffset, int],
    conflicts,
    clashes: Optional[Callable[[Sequence[MentionOffset], Sequence[MentionOffset]], bool]] = None,
    person_classes: int = 0,
    apart: Collection[Tuple[MentionOffset, MentionOffset]] = (),
    company_classes: int = 0,
) -> ClusterOffsets:
    """The clusters with each repeated name in its earlier mention's cluster.

    doc (Doc): the doc (with a parse; without one, people's names alone are read:
        `unparsed_name_words`).
    clusters (ClusterOffsets): the decoded clusters.
    mentions (Sequence[MentionOffset]): the candidate mentions, clustered or not; names among
        them that no cluster holds can join one, or form one together.
    classes (Dict[MentionOffset, int]): agreement classes (bit flags) of the clusters'
        mentions and the candidates; a mention missing has none.
    conflicts (Callable[[int], int]): the classes that cannot join a cluster of given classes.
    clashes (Callable): whether two groups of mentions hold two people's names
        (`linguistics/person_names.py`); such groups are not merged. None: any may be.
    person_classes (int): classes (bit flags) that make a group a person's whatever the
        entity recognizer calls its names: "he" and "she" ("Arun Kumar ... him", the name
        read as an organisation, gives "Arun" its cluster).
    apart (Collection): pairs of mentions that must not share a cluster (binding: "Grace
        told her"); groups holding both are not merged.
    company_classes (int): classes (bit flags) of a company's name: a longer name with one
        gives its first word to a one-word name ("Kestrel" of "Kestrel Robotics").
    RETURNS (ClusterOffsets): the clusters, each sorted, in document order.
    """
    parsed = doc.has_annotation("DEP")
    apart_from: Dict[MentionOffset, List[MentionOffset]] = {}
    for m, a in apart:
        apart_from.setdefault(tuple(m), []).append(tuple(a))
        apart_from.setdefault(tuple(a), []).append(tuple(m))
    groups: List[List[MentionOffset]] = [sorted(set(map(tuple, c))) for c in clusters]
    clustered = {m for group in groups for m in group}
    names: Dict[MentionOffset, Tuple[str, ...]] = {}
    person_words = person_name_words(doc) if parsed else unparsed_person_name_words(doc)
    if parsed:
        candidates = set(map(tuple, mentions))
    else:  # the fast pipeline keeps several spans a token: read the capitalised ones
        candidates = capitalised_spans(doc, mentions)
    capitals = capitalised_tokens(doc)
    for mention in sorted(candidates | clustered):
        if not capitals[mention[1] - 1]:
            continue  # a name's last word is capitalised: no Span for the others
        span = doc[mention[0] : mention[1]]
        words = (name_words if parsed else unparsed_name_words)(span, person_words)
        if words is not None:
            names[mention] = words
    names = _outermost(names)
    # a name that names a clustered noun phrase it is part of ("his sister [Maren]", "a teacher
    # called [Mr. Patel]") joins that phrase's cluster, so that a later "Maren" finds it; each
    # other unclustered name is a group of its own
    group_of = {m: g for g, group in enumerate(groups) for m in group}
    naming = _naming_holders(doc, sorted(names), groups)
    for m in sorted(names):
        if m not in clustered:
            # not where the phrase's cluster holds another person's name: the model linked
            # "his wife Ethel Liles" to "Edith Thompson", and "Ethel Liles" stays out
            if m in naming and not (clashes is not None and clashes([m], groups[naming[m]])):
                groups[naming[m]].append(m)
            else:
                groups.append([m])
    # a group goes by the name its mentions use most: one wrong "Geneva" in Vevey's cluster
    # does not bring every later "Geneva" into it
    keys = [_main_name(group, names) for group in groups]
    parent = list(range(len(groups)))
    group_classes = [union_of_classes(group, classes) for group in groups]

    def find(g: int) -> int:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    members = [list(group) for group in groups]  # each union's mentions, at its root

    def join(a: int, b: int) -> None:
        a, b = find(a), find(b)
        if a == b or group_classes[a] & conflicts(group_classes[b]):
            return
        if clashes is not None and clashes(members[a], members[b]):
            return
        if apart_from and _any_apart(members[a], members[b], apart_from):
            return
        parent[b] = a
        group_classes[a] |= group_classes[b]
        members[a].extend(members[b])

    for m, g in naming.items():
        if m in clustered:
            join(g, group_of[m])  # "Mr. Patel" was clustered apart from the phrase it names
    first_of: Dict[Tuple[str, ...], int] = {}
    for g in sorted(range(len(groups)), key=lambda g: groups[g][0]):  # in document order
        key = keys[g]
        if key is None:
            continue
        if key in first_of:
            join(first_of[key], g)
        else:
            first_of[key] = g
    # one word of a longer person's name, where the longer names with it are all one entity
    holders: Dict[Tuple[str, ...], set] = {}
    for g, key in enumerate(keys):
        # "Helena Kurz" gives "Kurz" and "Helena", and so does "Dr Helena Kurz"; "Mrs.
        # Kronborg" gives neither: in a novel, "Kronborg" alone is as often her husband. A
        # titled name also gives its title with its last word: "Dr. Howard Archie" gives
        # "Dr. Archie" (not "Mr. Archie")
        words = without_titles(key) if key is not None else ()
        gendered = union_of_classes(groups[g], classes) & person_classes
        if len(words) > 1 and (gendered or _is_person(doc, groups[g], names, person_words)):
            for short in ((words[0],), (words[-1],), name_titles(key) + (words[-1],)):
                holders.setdefault(short, set()).add(g)
        elif len(words) > 1 and union_of_classes(groups[g], classes) & company_classes:
            # a company's short name is its first word: "Kestrel" of "Kestrel Robotics"
            holders.setdefault((words[0],), set()).add(g)
    for g, key in enumerate(keys):
        if key is None or len(without_titles(key)) != 1:
            continue
        short = name_titles(key) + without_titles(key)  # "kurz", or "dr" and "archie"
        if short in holders:
            # of "Alice Dowson" and "Jim Dowson", a "Dowson" that is "he" can only be Jim
            own = group_classes[find(g)]
            entities = {find(h) for h in holders[short]}
            entities = {e for e in entities if not group_classes[e] & conflicts(own)}
            if len(entities) == 1:
                join(entities.pop(), g)
    merged: Dict[int, List[MentionOffset]] = {}
    for g, group in enumerate(groups):
        merged.setdefault(find(g), []).extend(group)
    return sorted(sorted(set(group)) for group in merged.values() if len(set(group)) > 1)


def _any_apart(
    ours: Sequence[MentionOffset],
    theirs: Sequence[MentionOffset],
    apart_from: Dict[MentionOffset, List[MentionOffset]],
) -> bool:
    theirs = set(theirs)
    return any(other in theirs for m in ours for other in apart_from.get(m, ()))


def _naming_holders(
    doc: Doc, names: Sequence[MentionOffset], groups: Sequence[Sequence[MentionOffset]]
) -> Dict[MentionOffset, int]:
    """The names that name a clustered mention holding them, with the index of that mention's
    group: an appositive of its head ("his sister Maren", "the mayor, Ana Ruiz") or what a
    participle of naming calls it ("a teacher called Mr. Patel")."""
    out: Dict[MentionOffset, int] = {}
    by_head: Dict[int, List[Tuple[MentionOffset, int]]] = {}  # clustered mentions by head
    grouped = [(m, g) for g, group in enumerate(groups) for m in group]
    for (m, g), root in zip(grouped, span_roots(doc, [m for m, _ in grouped]).tolist()):
        by_head.setdefault(root, []).append((m, g))
    for name in names:
        root = doc[name[0] : name[1]].root
        if root.ent_type_ not in PERSON_ENTS:
            continue  # "Portland, Oregon" is two places
        if root.dep_ == "appos":
            named = root.head
        elif is_naming_participle_object(root):
            named = root.head.head
        else:
            continue
        if named.pos_ != "NOUN":
            continue  # a noun names a person: "his sister", "a teacher"
        for (start, end), g in sorted(by_head.get(named.i, [])):
            if start <= name[0] and end >= name[1]:
                out[name] = g
                break
    return out


def _outermost(names: Dict[MentionOffset, Tuple[str, ...]]) -> Dict[MentionOffset, Tuple[str, ...]]:
    """The names that no other name contains: "Helena" in "Helena Kurz" is part of that
    mention, not a repeat. Sorted by start and then longest first, a name is inside another
    exactly when an earlier one reaches as far as it does."""
    out, reach = {}, -1
    for mention in sorted(names, key=lambda m: (m[0], -m[1])):
        if reach < mention[1]:
            out[mention] = names[mention]
        reach = max(reach, mention[1])
    return out


def _main_name(group: Sequence[MentionOffset], names: Dict[MentionOffset, Tuple[str, ...]]):
    """The name that a group's mentions use most often (the first of those used as often),
    or None for a group without names."""
    counts: Dict[Tuple[str, ...], int] = {}
    for mention in group:  # in document order: the first name counted wins a tie
        if mention in names:
            counts[names[mention]] = counts.get(names[mention], 0) + 1
    return max(counts, key=counts.get) if counts else None


def _is_person(doc: Doc, group: Sequence[MentionOffset], names, person_words) -> bool:
    """A group whose names the entity recognizer calls a person's, or leaves untyped (or that
    are words of a person's longer name, or name a person noun: "their captain, [Kemi
    Adeyemi]", which the recognizer called a place)."""
    spans = (doc[m[0] : m[1]] for m in group if m in names)
    return all(
        s.root.ent_type_ in PERSON_ENTS or is_persons_word(s, person_words) or _names_a_person(s)
        for s in spans
    )


def _names_a_person(span: Span) -> bool:
    """Whether the span is the appositive of a noun for a person: "the mayor, [Ana Ruiz]"."""
    root = span.root
    named = root.head
    return (
        root.dep_ == "appos" and named.pos_ == "NOUN" and named.lemma_.lower() in PERSON_NOUNS
    )


class Names(DecodingStep):
    name = "names"

    def clusters(self, state: DecodingState) -> None:
        if not state.n_mentions:
            return
        spans = state.spans.tolist()
        # agreement between the merged clusters even where the decoding leaves agreement out:
        # "Jordan ... he" and "Jordan ... she" are two people; and persons, as in clustering:
        # in a transcript "Jones: My grandmother ... She" and "Jones: ... I" are two
        classes = state.mention_classes
        clashes = None
        if state.names is not None:  # "distinct_names" ran
            clashes = GroupNames(dict(zip(map(tuple, spans), state.names))).clash
        apart = forbidden_pronoun_pairs(state.doc, state.scores, state.spans, state.forbidden)
        if "binding" in state.active:
            # nor may a name bring a phrase into its possessor's cluster ("its new chip" with
            # the "its" of Fenwick Labs, through "Fenwick" linked to the chip's "it")
            apart |= possessor_pairs(state.spans, state.mentions)
        state.clusters = link_repeated_names(
            state.doc, state.clusters, spans, classes, conflicting_classes, clashes,
            person_classes=MASCULINE | FEMININE, apart=apart, company_classes=COLLECTIVE,
        )


@registry.misc("spacy_coref.decode.names.v1")
def make_names() -> Names:
    return Names()
