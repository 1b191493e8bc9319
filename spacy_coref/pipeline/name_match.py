"""Repeated names: "Petra" five sentences after "Petra", or "Kurz" after "Helena Kurz", is the
same person unless something says otherwise. The model scores such pairs from token vectors
of windows that rarely hold both, and leaves far repeats apart: a reader sees "Felix" twice in
a story as two entities. Exact name matching is the most precise of the classic coreference
sieves, so it is applied to the decoded clusters as a rule.

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

Clusters are never merged where agreement forbids it (one holds "he", the other "she"). A
name is a mention whose head is a proper noun and whose words are all capitalised, and not a
possessive, a nationality or a date (the first or last word of a person's longer name in the
doc is a person's name alone, whatever the recognizer calls it there); a cluster goes by the
name its mentions use most.
Without a parse (the fast pipeline), only people's names are read, by their capitals, titles
and first names (`unparsed_name_words`).
"""
from functools import lru_cache
from typing import Callable, Collection, Dict, FrozenSet, List, Optional, Sequence, Tuple

import numpy
from spacy.strings import hash_string
from spacy.tokens import Doc, Span, Token

from ..lang.en import english
from ..types import ClusterOffsets, MentionOffset
from .first_names import FIRST_NAMES, NEUTRAL_TITLES
from .person_nouns import PERSON_NOUNS
from .word_tags import FUNCTION_WORD_TAGS, load_word_tags

# the longest name matched, in words: longer capitalised spans are titles of works or headings
MAX_NAME_WORDS = 6
# the word lists are data (spacy_coref/lang/en/: function_words.json, verbs.json, titles.json)
_EN = english()
LEADING_ARTICLES = _EN.words("definite_articles")  # "the"
POSSESSIVES = frozenset(("'s", "'", "’s", "’"))
# what the entity recognizer may call a name ("" where it saw none): not nationalities
# ("the French", "American"), dates or numbers
NAME_ENTS = frozenset((
    "", "PERSON", "ORG", "GPE", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
))
# the entity types of people's names: a name in an entity of another type is not a person's
# ("George Washington University")
PERSON_ENTS = frozenset(("", "PERSON"))
# a name inside a noun phrase may name it as an appositive of its head, or as what a
# participle of naming calls it (the participle's dependent with one of these labels)
NAMED_DEPS = frozenset(("oprd", "attr", "dobj", "xcomp"))
# ("called", "named", "nicknamed", "dubbed")
NAMING_PARTICIPLES = _EN.words("naming_participles")
# words before a name that are not its first name ("Mr. Bennet", "Aunt May", "Captain Reyes";
# data: spacy_coref/lang/en/titles.json)
HONORIFICS = _EN.name_titles | NEUTRAL_TITLES


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
        (`person_names.py`); such groups are not merged. None: any may be.
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
        candidates = _capitalised(doc, mentions)
    for mention in sorted(candidates | clustered):
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
        words = _without_titles(key) if key is not None else ()
        gendered = union_of_classes(groups[g], classes) & person_classes
        if len(words) > 1 and (gendered or _is_person(doc, groups[g], names, person_words)):
            for short in ((words[0],), (words[-1],), _titles(key) + (words[-1],)):
                holders.setdefault(short, set()).add(g)
        elif len(words) > 1 and union_of_classes(groups[g], classes) & company_classes:
            # a company's short name is its first word: "Kestrel" of "Kestrel Robotics"
            holders.setdefault((words[0],), set()).add(g)
    for g, key in enumerate(keys):
        if key is None or len(_without_titles(key)) != 1:
            continue
        short = _titles(key) + _without_titles(key)  # "kurz", or "dr" and "archie"
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
    for g, group in enumerate(groups):
        for m in group:
            by_head.setdefault(doc[m[0] : m[1]].root.i, []).append((m, g))
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


def is_naming_participle_object(token: Token) -> bool:
    """Whether the token is what "called" or "named" calls a noun: "a teacher called [Patel]"."""
    verb = token.head
    return token.dep_ in NAMED_DEPS and verb.dep_ == "acl" and verb.lower_ in NAMING_PARTICIPLES


def person_name_words(doc: Doc) -> FrozenSet[str]:
    """The first and last words of the doc's people's names of two words or more, as written.
    Alone, the entity recognizer may call the same word something else: "Martin Oyelaran" a
    person and "Oyelaran" a nationality, "Hugo Brandt" a person and "Brandt" an organisation."""
    words = set()
    for ent in doc.ents:
        if ent.label_ == "PERSON" and len(ent) > 1:
            ends = (ent[0], ent[-1])
            words.update(t.text for t in ends if t.lower_.rstrip(".") not in HONORIFICS)
    return frozenset(words)


def is_persons_word(span: Span, person_words: FrozenSet[str]) -> bool:
    """Whether the span is one word of a person's longer name in the doc (`person_name_words`)."""
    return len(span) == 1 and span[0].text in person_words


def name_words(
    span: Span, person_words: FrozenSet[str] = frozenset()
) -> Optional[Tuple[str, ...]]:
    """The lower-case words of a span that is a name, without a leading "the"; None for a
    span that is not a name (or is a possessive one). `person_words`: words that are names of
    people whatever the entity recognizer calls them alone (`person_name_words`)."""
    tokens = list(span)
    while tokens and tokens[0].lower_ in LEADING_ARTICLES:
        tokens = tokens[1:]
    if not tokens or tokens[-1].lower_ in POSSESSIVES:
        return None  # "Emma 's": a candidate the data sets do not annotate as Emma
    if len(tokens) > MAX_NAME_WORDS:
        return None
    persons_word = is_persons_word(span, person_words)
    # the small tagger calls a surname a noun where it opens a sentence ("Mendes rejected
    # their claims" after "Carlos Mendes"): a word of a person's longer name is a name still,
    # unless it is a common noun ("Student" of a name the recognizer made too long)
    misread = (persons_word and span.root.pos_ == "NOUN"
               and load_word_tags().get(span.root.lower_) != "NOUN")
    if span.root.pos_ != "PROPN" and not misread:
        return None
    if span.root.ent_type_ not in NAME_ENTS and not persons_word:
        return None  # "American", "the French"
    if not all(t.is_title or t.is_upper for t in tokens):
        return None  # a mistagged "n't"
    if any(t.pos_ == "PRON" for t in tokens):
        return None  # "CHAPTER I Emma Woodhouse": the heading's numeral, tagged a pronoun
    return tuple(t.lower_ for t in tokens)


def unparsed_name_words(
    span: Span, person_words: FrozenSet[str] = frozenset()
) -> Optional[Tuple[str, ...]]:
    """`name_words` without a parse or tags (the fast pipeline), for people's names alone:
    capitalised words, none a function word by its usual tag (`word_tags.py`), with a title
    ("Mrs. Gray") or a known first name first ("Lucia Moretti", "Emma"), or one word of such a
    longer name in the doc (`person_words`: "Moretti"). Without an entity recognizer other
    capitalised words are too often no names to link ("Wuthering", "the French"): on the
    fast pipeline's LitBank dev, linking every capitalised phrase lost 0.13."""
    tokens = list(span)
    while tokens and tokens[0].lower_ in LEADING_ARTICLES:
        tokens = tokens[1:]
    if not tokens or len(tokens) > MAX_NAME_WORDS or tokens[-1].lower_ in POSSESSIVES:
        return None
    tags = load_word_tags()
    for token in tokens:
        if not (token.is_title or token.is_upper) or token.lower_ == "i":
            return None
        if tags.get(token.lower_) in FUNCTION_WORD_TAGS:
            return None  # "She", "When", "All"
    words = tuple(t.lower_ for t in tokens)
    core = _without_titles(words)
    if not core:
        return None
    titled = len(core) < len(words)
    first = tokens[len(words) - len(core)]
    if titled or first.text in FIRST_NAMES:
        return words
    if len(core) == 1 and first.text in person_words:
        return words
    return None


def _capitalised(doc: Doc, spans: Sequence[MentionOffset]) -> set:
    """The spans whose words are all capitalised, but for a leading "the": only they can be
    names."""
    offsets = numpy.asarray(spans, dtype="int64").reshape((-1, 2))
    if not len(offsets):
        return set()
    caps = _capitals(doc)
    counts = numpy.concatenate([[0], numpy.cumsum(caps)])
    starts, ends = offsets[:, 0], offsets[:, 1]
    lower = doc.to_array("LOWER").astype("uint64")
    the = numpy.isin(lower[starts], [doc.vocab.strings[w] for w in LEADING_ARTICLES])
    first = starts + the.astype("int64")
    keep = (ends > first) & (counts[ends] - counts[first] == ends - first)
    return {tuple(o) for o in offsets[keep].tolist()}


def _capitals(doc: Doc) -> numpy.ndarray:
    """[T] int64: 1 where a token is capitalised ("Ann", "NASA")."""
    columns = doc.to_array(["IS_TITLE", "IS_UPPER"]).reshape((len(doc), 2))
    return (columns.sum(axis=1) > 0).astype("int64")


def unparsed_person_name_words(doc: Doc) -> FrozenSet[str]:
    """`person_name_words` without an entity recognizer: the first and last words of runs of
    two to four capitalised words that begin with a known first name ("Lucia Moretti"). Not
    after a title: "Kronborg" of "Mrs. Kronborg" is in a novel as often her husband (with
    titled names too, the fast pipeline's LitBank dev was 0.11 lower)."""
    if not len(doc):
        return frozenset()
    caps = _capitals(doc)
    orth = doc.to_array("ORTH").astype("uint64")
    first_names = numpy.isin(orth, _first_name_hashes()) & (caps > 0)
    words = set()
    for i in numpy.flatnonzero(first_names).tolist():
        j = i + 1
        while j < len(doc) and j - i < 4 and caps[j]:
            j += 1
        if j - i >= 2:
            words.update((doc[i].text, doc[j - 1].text))
    return frozenset(words)


@lru_cache(maxsize=1)
def _first_name_hashes() -> numpy.ndarray:
    return numpy.asarray([hash_string(name) for name in FIRST_NAMES], dtype="uint64")


def _titles(words: Tuple[str, ...]) -> Tuple[str, ...]:
    """The titles before a name's words, without their full stops ("dr." and "dr": "dr")."""
    return tuple(word.rstrip(".") for word in words[: len(words) - len(_without_titles(words))])


def _without_titles(words: Tuple[str, ...]) -> Tuple[str, ...]:
    """A name's words after the titles before it ("dr", "mrs.", "captain")."""
    start = 0
    while start < len(words) and words[start].rstrip(".") in HONORIFICS:
        start += 1
    return words[start:]


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


def union_of_classes(group: Sequence[MentionOffset], classes: Dict[MentionOffset, int]) -> int:
    """The agreement classes (bit flags) of a group of mentions together."""
    out = 0
    for mention in group:
        out |= int(classes.get(mention, 0))
    return out


def mention_classes(spans: numpy.ndarray, classes: numpy.ndarray) -> Dict[MentionOffset, int]:
    """A {(start, end): class} table from arrays of spans [M, 2] and their classes [M]."""
    return {(int(s), int(e)): int(c) for (s, e), c in zip(spans.tolist(), classes.tolist())}
