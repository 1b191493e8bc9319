"""whole_phrases: a mention is its whole noun phrase. The candidates hold a noun phrase and the
shorter phrases inside it with the same head word ("the little house in Great Britain Street"
and "the little house"), and the model often links the shorter one. LitBank and OntoGUM
annotate the whole phrase, with its words before the head ("old Cotter", "all my patients"),
its prepositional phrases ("the Committee of Public Safety") and its relative clauses ("this
lady, about whom there were some singular stories"), and a user reads the whole phrase as the
thing meant ("the doctor in small Colorado towns" is not any doctor).

Each mention of a cluster becomes the longest candidate with its head word that holds it and
adds only such words. Not an apposition ("Highbury, the large and populous village": LitBank
annotates it as a mention of its own), a possessive ending ("Emma 's"), quotation marks, a
question word ("What school"), an adverb or adjective after the head ("the children sick"),
a phrase of time that the parse hung from the noun ("the bridge for years");
pronouns stay as they are ("them both"). A person's name takes nothing after it ("Mary
Chaworth, whom he met at school", "Kristy Puchko of The Playlist"; a person's: the entity
recognizer's, or one in a cluster with "he" or "she"): the name alone picks its referent, a
user looks for it as it stands, and GAP's scoring finds a name by its last word (such parts
cost GAP dev 0.9 F1). Other names do ("the Committee of Public Safety", "India, where
homeopathy is in common use"). A plural noun, a pronoun or a verb before a name is a parse's
error ("Wikinews interviews Mario J. Lucero"), not part of it, and so is what follows a noun
the parse makes the root of its sentence ("Residents who opposed the plan gathered outside" as
one noun phrase). A longer phrase that is a mention of a cluster already stays where it is: no
mention is in two clusters. Nor does a phrase grow to hold an object pronoun of its own
cluster ("the nurses, who she said had worked long hours, and promised them a bonus", a
parse's error): an object is never the phrase it sits in.

Part of a name is not what a pronoun means: "Harbor" in "Harbor Airlines ... it" and
"Nakamura" in "Professor Nakamura ... her" are candidates (OntoGUM annotates names inside
names: "[Penn] State"), and the model links pronouns to them. A pronoun takes no first words
of a name as its antecedent, and its link to a name's last words goes to the whole name
(`whole_names`, `score_edits.with_whole_names`). Nor is a cluster whose only names are such
first words an entity of its own (`fold_first_words`): "San" of four "San Francisco"s, or
"Norvell" of "Shares of Norvell Energy fell after the company cut its forecast" with "the
company", which belongs to the whole name. Its cluster rewrite runs last, as the other steps
read the mentions the model linked.
"""
from collections import defaultdict
from typing import Dict, FrozenSet, List, Sequence, Set, Tuple

import numpy
from spacy.attrs import DEP, ENT_IOB, HEAD, POS
from spacy.strings import get_string_id
from spacy.symbols import PRON, PROPN
from spacy.tokens import Doc, Token
from spacy.util import registry

from ...lang.en import english
from ...linguistics.first_names import FIRST_NAMES
from ...linguistics.span_roots import span_roots
from ...types import ClusterOffsets, MentionOffset
from ..score_edits import with_whole_names
from ..state import DecodingState
from ..step import DecodingStep
from .same_head import SET_OFF as SAME_HEAD_SET_OFF

# what a phrase may add before its head: determiners, adjectives, nouns and names, numbers,
# possessors, predeterminers ("all", "such") and modifiers of a compound name
BEFORE_HEAD = frozenset(("det", "amod", "compound", "nummod", "poss", "nmod", "predet"))
# and after it: prepositional phrases and relative clauses, set off by commas or not (a
# bracket that opens such a part also closes it)
AFTER_HEAD = frozenset(("prep", "relcl"))
SET_OFF = SAME_HEAD_SET_OFF | {")"}
OBJECT_DEPS = frozenset(("dobj", "iobj", "dative", "pobj", "obj"))
# a phrase of time after a noun belongs to the verb: "the bridge [for years]" ("for",
# "since", "until", "till"; data: spacy_coref/lang/en/function_words.json)
DURATION_PREPOSITIONS = english().words("duration_prepositions")
TIME_ENTS = frozenset(("DATE", "TIME"))
QUOTATION_MARKS = frozenset(('"', "“", "”", "‘", "’", "'", "`", "``", "''", "„"))
QUESTION_WORD_TAGS = frozenset(("WDT", "WP", "WP$"))
# before a name, a parse's error: "Wikinews interviews Mario J. Lucero", "traps Sarah Goodman",
# a heading's numeral read as "I" ("CHAPTER I Emma Woodhouse")
NOT_BEFORE_A_NAME_TAGS = frozenset(("NNS", "PRP", "VB", "VBD", "VBP", "VBZ"))
# a proper noun with one of these inside a name is a word of it ("[Harbor] Airlines")
NAME_PART_DEP_IDS = [get_string_id(label) for label in ("compound", "flat")]
INSIDE, OUTSIDE = 1, 2  # ENT_IOB values
# "he", "him", "his", "himself", "she", "her", "hers", "herself"
PERSONAL_PRONOUNS = frozenset(english().pronouns(gender=("masculine", "feminine")))


def whole_phrases(
    doc: Doc, clusters: ClusterOffsets, candidates: Sequence[Sequence[int]]
) -> ClusterOffsets:
    """The clusters with each mention replaced by its whole noun phrase among the candidates
    (see the module's docstring). Docs without a parse are left as they are.

    doc (Doc): the doc the clusters are in.
    clusters (List[List[Tuple[int, int]]]): (start, end) token offsets, end exclusive.
    candidates (Sequence): [C] (start, end) token offsets of the candidate mentions.
    RETURNS (List[List[Tuple[int, int]]]): the clusters, each sorted, in their order.
    """
    if not doc.has_annotation("DEP") or not clusters:
        return clusters
    by_head: Dict[int, List[MentionOffset]] = defaultdict(list)
    candidates = numpy.asarray(candidates, dtype="int64").reshape((-1, 2))
    for (start, end), root in zip(candidates.tolist(), span_roots(doc, candidates).tolist()):
        by_head[root].append((start, end))
    taken: Set[MentionOffset] = {mention for cluster in clusters for mention in cluster}
    result = []
    for cluster in clusters:
        # a person's cluster: its names are people's whatever the entity recognizer says
        person = any(e - s == 1 and doc[s].lower_ in PERSONAL_PRONOUNS for s, e in cluster)
        # its object pronouns: a phrase holding one is not this entity ("the nurses, who
        # ... and promised them a bonus", a parse's error; "the man who loved his wife" is)
        own = [s for s, e in cluster if e - s == 1 and _object_pronoun(doc[s])]
        grown = {_whole_phrase(doc, mention, by_head, taken, person, own) for mention in cluster}
        # two clusters' mentions may grow into one phrase ("Emperor Napoleon" and "Napoleon"
        # into "the Emperor Napoleon"): the first cluster has it, the later keeps its own
        taken |= grown
        result.append(sorted(grown))
    return result


def _object_pronoun(token: Token) -> bool:
    """A pronoun as an object, not a reflexive ("the man who hurt himself" is the man)."""
    reflexive = token.lower_.endswith(("self", "selves"))
    return token.pos_ == "PRON" and token.dep_ in OBJECT_DEPS and not reflexive


def _whole_phrase(
    doc: Doc,
    mention: MentionOffset,
    by_head: Dict[int, List[MentionOffset]],
    taken: Set[MentionOffset],
    person: bool,
    own_pronouns: Sequence[int] = (),
) -> MentionOffset:
    start, end = mention
    head = doc[start:end].root
    if head.pos_ == "PRON":
        return mention
    best = mention
    for outer in by_head.get(head.i, ()):
        if outer == mention or not (outer[0] <= start and end <= outer[1]) or outer in taken:
            continue
        if outer[1] - outer[0] <= best[1] - best[0]:
            continue
        if any(outer[0] <= i < outer[1] and not start <= i < end for i in own_pronouns):
            continue
        if _adds_phrase_words_only(doc, head.i, mention, outer, person):
            best = outer
    return best


def _adds_phrase_words_only(
    doc: Doc, head: int, inner: MentionOffset, outer: MentionOffset, person: bool
) -> bool:
    """Whether the words `outer` adds to `inner` are parts of the noun phrase of `head`."""
    if outer[1] > inner[1]:
        name = doc[head].pos_ == "PROPN"
        if doc[head].ent_type_ == "PERSON" or (name and person) or doc[head].dep_ == "ROOT":
            return False
    before = range(outer[0], inner[0])
    if doc[head].pos_ == "PROPN" and any(doc[i].tag_ in NOT_BEFORE_A_NAME_TAGS for i in before):
        return False
    after = range(inner[1], outer[1])
    if any(_how_long(doc[i], head) for i in after):
        return False
    return _attached(doc, head, before, BEFORE_HEAD, after_head=False) and _attached(
        doc, head, after, AFTER_HEAD, after_head=True
    )


def _how_long(token: Token, head: int) -> bool:
    """Whether the token is a preposition of time hung from the head with a date or time as
    its object: the verb's, which the parse hung from the noun ("warned her about the bridge
    for years", "owned the shop since 1990")."""
    if token.head.i != head or token.lower_ not in DURATION_PREPOSITIONS:
        return False
    return any(child.ent_type_ in TIME_ENTS for child in token.children)


def _attached(
    doc: Doc, head: int, indices: range, relations: FrozenSet[str], after_head: bool
) -> bool:
    """Whether each token at `indices` hangs from `head` by one of `relations` (through the
    child of `head` whose subtree holds it); after the head, commas and dashes may set it off."""
    for index in indices:
        token = doc[index]
        if token.text in QUOTATION_MARKS:
            return False
        if token.text in SET_OFF:
            if after_head:
                continue
            return False
        if not after_head and token.tag_ in QUESTION_WORD_TAGS:
            return False
        relation = _relation_to(token, head)
        if relation not in relations:
            return False
    return True


def _relation_to(token: Token, head: int) -> str:
    """The dependency label of the child of `head` whose subtree holds `token` ("" if none)."""
    while token.head.i != head and token.head.i != token.i:
        token = token.head
    return token.dep_ if token.head.i == head and token.i != head else ""


def whole_names(
    doc: Doc, spans: Sequence[Sequence[int]], *, for_pronouns: bool = True
) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """Which mentions are pronouns, and for each mention that is part of a longer name that is
    a mention too, that name: its first words, "Harbor" of "Harbor Airlines" (one named
    entity, the words proper nouns compounded with the last) and a first name before a
    surname ("Hugo" of "Hugo Brandt"), or its last words without a title or first name
    compounded with them ("Nakamura" of "Professor Nakamura"; the shortest such name). Docs
    without a parse have none.

    doc (Doc): the doc.
    spans (Sequence): [M] (start, end) token offsets of the kept mentions, end exclusive.
    for_pronouns (bool): find no names where no mention is a pronoun (the scores' use).
    RETURNS (Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]): [M] bool, the pronouns; [M]
        int, the index of each mention's whole name, -1 where it has none; [M] bool, the
        parts that are first words.
    """
    spans = numpy.asarray(spans, dtype="int64").reshape((-1, 2))
    whole = numpy.full(len(spans), -1, dtype="int64")
    pronoun = numpy.zeros(len(spans), dtype=bool)
    first = numpy.zeros(len(spans), dtype=bool)
    if not len(spans) or not doc.has_annotation("DEP"):
        return pronoun, whole, first
    # one pass over the doc's arrays: the loops below read only the few name parts
    pos, dep, head, iob = doc.to_array([POS, DEP, HEAD, ENT_IOB]).astype("int64").T
    head = head + numpy.arange(len(head))  # [T] absolute
    not_inside = numpy.concatenate([[0], numpy.cumsum(iob != INSIDE)])  # [T + 1]
    last = spans[:, 1] - 1  # [M]
    pronoun = (spans[:, 1] - spans[:, 0] == 1) & (pos[last] == PRON)  # [M]
    name = pos[last] == PROPN  # [M]
    first_words = numpy.flatnonzero(
        name
        & numpy.isin(dep[last], NAME_PART_DEP_IDS)
        & (head[last] > last)
        & (pos[head[last]] == PROPN)
    )
    before = numpy.maximum(spans[:, 0] - 1, 0)  # [M] the word before each mention
    last_words = numpy.flatnonzero(
        name
        & (spans[:, 0] > 0)
        & (head[before] == last)
        & numpy.isin(dep[before], NAME_PART_DEP_IDS)
    )
    if not (len(first_words) or len(last_words)) or (for_pronouns and not pronoun.any()):
        return pronoun, whole, first
    index = {(int(start), int(end)): i for i, (start, end) in enumerate(spans.tolist())}
    for i in first_words.tolist():
        start, end = int(spans[i, 0]), int(spans[i, 1])
        name_end = int(head[end - 1]) + 1
        # one entity, or a first name before a surname, whatever the entity recognizer says
        # ("[Hugo] Brandt" read as an event)
        one_entity = iob[end - 1] != OUTSIDE and not_inside[name_end] == not_inside[end]
        first_name = name_end == end + 1 and doc[end - 1].text in FIRST_NAMES
        if one_entity or first_name:
            whole[i] = index.get((start, name_end), -1)
            first[i] = whole[i] >= 0
    for i in last_words.tolist():
        if first[i]:
            continue
        start, end = int(spans[i, 0]), int(spans[i, 1])
        outer = start - 1
        while outer > 0 and head[outer - 1] == end - 1 and dep[outer - 1] in NAME_PART_DEP_IDS:
            outer -= 1
        for s in range(start - 1, outer - 1, -1):  # the shortest first
            if (s, end) in index:
                whole[i] = index[(s, end)]
                break
    return pronoun, whole, first


def fold_first_words(
    doc: Doc, clusters: ClusterOffsets, spans: Sequence[Sequence[int]]
) -> ClusterOffsets:
    """The clusters, each whose only names are the first words of longer names that are
    mentions ("Norvell" of "Norvell Energy": `whole_names`) folded into the whole name: the
    first words leave it, and its other mentions join the whole name's cluster ("the company"
    goes to "Norvell Energy"; a cluster of first words alone is gone). The other mentions stay
    a cluster of their own where one has the first words' last word as its head ("World" of
    "World War II" with "the world"), or is "he" or "she" and the whole name is not a
    person's ("Clinton" of "the Clinton Foundation" with "he"). First words in the cluster of
    their whole name leave it too. Docs without a parse are left as they are.

    doc (Doc): the doc the clusters are in.
    clusters (List[List[Tuple[int, int]]]): (start, end) token offsets, end exclusive.
    spans (Sequence): [M] (start, end) token offsets of the kept mentions.
    RETURNS (List[List[Tuple[int, int]]]): the clusters, each sorted, in document order.
    """
    if not clusters or not doc.has_annotation("DEP"):
        return clusters
    spans = [(int(start), int(end)) for start, end in spans]
    _, whole, first = whole_names(doc, spans, for_pronouns=False)
    if not first.any():
        return clusters
    whole_of = {spans[i]: spans[whole[i]] for i in numpy.flatnonzero(first).tolist()}
    # a first word in its whole name's own cluster leaves it: "Kestrel" of "Kestrel Robotics",
    # brought there with a later "Kestrel" by `link_repeated_names`
    result = []
    for cluster in clusters:
        members = set(cluster)
        result.append([m for m in cluster if whole_of.get(m) not in members])
    for k, cluster in enumerate(result):
        names = [(s, e) for s, e in cluster if doc[e - 1].pos == PROPN]
        if not names or any(name not in whole_of for name in names):
            continue
        rest = [mention for mention in cluster if mention not in whole_of]
        name = whole_of[names[0]]
        words = {doc[e - 1].lower_ for _, e in names}
        person = doc[name[1] - 1].ent_type_ == "PERSON"
        if any(
            doc[s:e].root.lower_ in words
            or (e - s == 1 and doc[s].lower_ in PERSONAL_PRONOUNS and not person)
            for s, e in rest
        ):
            result[k] = rest
            continue
        result[k] = []
        holder = next((c for c in result if name in c), None)
        if holder is None:
            result[k] = [name, *rest] if rest else []
        else:
            holder.extend(rest)
    kept = [sorted(set(cluster)) for cluster in result if len(set(cluster)) > 1]
    return sorted(kept, key=lambda cluster: cluster[0])


class WholePhrases(DecodingStep):
    name = "whole_phrases"

    def scores(self, state: DecodingState) -> None:
        state.scores = with_whole_names(state.scores, *whole_names(state.doc, state.spans))

    def masks(self, state: DecodingState) -> None:
        state.constrained = True  # clustering that keeps one entity's nested mentions together

    def clusters(self, state: DecodingState) -> None:
        spans = state.spans.tolist()
        state.clusters = fold_first_words(state.doc, state.clusters, spans)
        state.clusters = whole_phrases(state.doc, state.clusters, spans)


@registry.misc("spacy_coref.decode.whole_phrases.v1")
def make_whole_phrases() -> WholePhrases:
    return WholePhrases()
