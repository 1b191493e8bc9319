"""cataphora: a pronoun in a clause or phrase put before its sentence's subject can refer to that
subject ("When she landed, the pilot called home"; "In his reply, Mr. Adeyemi ..."). The s2e
head links each mention to an earlier one only, so such a pronoun, when nothing before it is
its antecedent, is left alone: users see "she" in no cluster, or in a cluster of its own.

`link_cataphora` joins it to the subject where the parse shows the fronted part (an adverbial
clause or a prepositional phrase of the subject's verb, ending before the subject) and the
subject is known to agree: a name or noun of the pronoun's gender (by its first name, title or a
gendered noun), a person's name of unknown gender or a noun for a person of either gender ("the
pilot", `linguistics/person_nouns.py`) for "he" and "she", a plural for "they". A subject whose
agreement is unknown ("the office", and "the customer", which also names a company) is left
alone: "When he arrived, the office was empty" must not link. "It" is left to the model for the
same reason. The pronoun's cluster (if it has one) and the subject's join only when their
agreement classes do not conflict.
"""
from typing import Callable, Dict, List, Optional, Sequence

from spacy.tokens import Doc, Token

from spacy.util import registry

from ...lang.en import english
from ...linguistics.mention_classes import (
    CATAPHORIC_PRONOUNS,
    FEMININE,
    HUMAN,
    MASCULINE,
    conflicting_classes,
    union_of_classes,
)
from ...linguistics.quotations import SENTENCE_ENDS
from ...linguistics.unparsed_clauses import word_tagger
from ...linguistics.word_tags import load_word_tags
from ...types import ClusterOffsets, MentionOffset
from ..state import DecodingState
from ..step import DecodingStep

# the dependents of a verb that can stand before its subject and hold a cataphoric pronoun
FRONTED_DEPS = frozenset(("advcl", "prep"))
SUBJECT_DEPS = frozenset(("nsubj", "nsubjpass"))
VERB_POS = frozenset(("VERB", "AUX"))
SUBJECT_POS = frozenset(("NOUN", "PROPN"))
PERSON_LABEL = "PERSON"  # a name of unknown gender is a person's only by its entity label
# Without a parse: the words that open a fronted part (subordinating words and prepositions),
# how far its pronoun may stand from its opening word and from its comma, and how long the
# subject after it may be
# (data: spacy_coref/lang/en/function_words.json)
FRONTING_WORDS = english().words("fronting_conjunctions", "fronting_prepositions")
MAX_FRONTED_WORDS = 15
MAX_SUBJECT_WORDS = 4
# the subject forms of the personal pronouns: "i", "you", "he", "she", "it", "we", "they"
PERSONAL_PRONOUNS = frozenset(english().pronouns(case="nominative"))


def link_cataphora(
    doc: Doc,
    clusters: ClusterOffsets,
    mentions: Sequence[MentionOffset],
    heads: Sequence[int],
    classes: Dict[MentionOffset, int],
    pronoun_classes: Dict[str, int],
    conflicts: Callable[[int], int],
) -> ClusterOffsets:
    """The clusters with each fronted pronoun that opens its entity joined to the subject it
    stands before (see the module's docstring); without a parse, the fronted part and the
    subject are read off the words (`unparsed_fronted_subjects`).

    doc (Doc): the doc the clusters are in.
    clusters (List[List[Tuple[int, int]]]): (start, end) token offsets, end exclusive.
    mentions (Sequence[Tuple[int, int]]): every kept mention, clustered or not: the subject
        may be in no cluster yet.
    heads (Sequence[int]): the token index of each mention's syntactic head (not read
        without a parse: there the last word stands for it).
    classes (Dict[Tuple[int, int], int]): agreement classes (bit flags) of the mentions.
    pronoun_classes (Dict[str, int]): the class of each third-person pronoun form that may
        be cataphoric (lower case).
    conflicts (Callable[[int], int]): the classes that cannot join a cluster of given classes.
    RETURNS (List[List[Tuple[int, int]]]): the clusters, each sorted, in document order.
    """
    parsed = doc.has_annotation("DEP")
    offsets = [_offset(m) for m in mentions]
    pronouns = [m for m in offsets if m[1] - m[0] == 1 and doc[m[0]].lower_ in pronoun_classes]
    if not pronouns:
        return clusters
    if not parsed:  # a mention's last word stands for its head, as in the other rules
        heads = [end - 1 for _, end in offsets]
        fronted = unparsed_fronted_subjects(doc, [start for start, _ in pronouns])
    groups: List[List[MentionOffset]] = [sorted(set(map(_offset, c))) for c in clusters]
    owner: Dict[MentionOffset, int] = {m: i for i, group in enumerate(groups) for m in group}
    by_root: Dict[int, MentionOffset] = {}
    for mention, head in sorted(zip(offsets, heads), key=lambda mh: mh[0][0] - mh[0][1]):
        by_root.setdefault(int(head), mention)  # the longest mention with that head
    for mention in sorted(pronouns):
        start = mention[0]
        pronoun_class = pronoun_classes[doc[start].lower_]
        own = owner.get(mention)
        if own is not None and groups[own][0] != mention:
            continue  # it has an antecedent before it
        if parsed:
            subject = _fronted_subject(doc[start])
            target = None if subject is None else by_root.get(subject.i)
        else:
            # the subject's words, whether or not the model kept them as a mention
            target = fronted.get(start)
        agrees = target is not None and _agrees(
            doc, target, classes.get(target, 0), pronoun_class, parsed
        )
        if not agrees:
            continue
        other = owner.get(target)
        if other is not None and other == own:
            continue
        own_group = groups[own] if own is not None else [mention]
        other_group = groups[other] if other is not None else [target]
        own_classes = union_of_classes(own_group, classes)
        other_classes = union_of_classes(other_group, classes)
        if conflicts(own_classes) & other_classes or conflicts(other_classes) & own_classes:
            continue
        joined = sorted(set(own_group + other_group))
        for index in sorted({i for i in (own, other) if i is not None}, reverse=True):
            groups[index] = []
        groups.append(joined)
        owner.update({m: len(groups) - 1 for m in joined})
    return sorted(group for group in groups if len(group) > 1)


def _offset(mention: Sequence[int]) -> MentionOffset:
    return (int(mention[0]), int(mention[1]))


def _fronted_subject(pronoun: Token) -> Optional[Token]:
    """The subject of the clause the pronoun's fronted part belongs to, or None: going up from
    the pronoun, the first adverbial clause or prepositional phrase of a verb decides; the
    part must end before the verb's subject begins."""
    token = pronoun
    while token.head.i != token.i:
        head = token.head
        if token.dep_ in FRONTED_DEPS and head.pos_ in VERB_POS:
            subjects = [child for child in head.children if child.dep_ in SUBJECT_DEPS]
            if subjects and token.right_edge.i < subjects[0].left_edge.i:
                return subjects[0]
            return None
        token = head
    return None


def _agrees(
    doc: Doc, mention: MentionOffset, mention_class: int, pronoun_class: int, parsed: bool
) -> bool:
    """Whether the subject is known to agree with the pronoun: its class is the pronoun's, or
    it is a person's name of unknown gender or a person noun of either gender and the pronoun
    is "he" or "she"."""
    person_pronoun = pronoun_class in (MASCULINE, FEMININE)
    if not parsed:
        # no tags or entities: only a subject whose class is known ("Ines", "my sister", "the
        # pilot"; `unparsed_fronted_subjects` keeps pronouns out)
        if mention_class == HUMAN:
            return person_pronoun
        return bool(mention_class) and mention_class == pronoun_class
    root = doc[mention[0] : mention[1]].root
    if root.pos_ not in SUBJECT_POS:
        return False  # a pronoun ("When he left, he ...") or a number
    if mention_class == HUMAN:
        return person_pronoun  # a person of either gender: "the pilot", "the doctor"
    if mention_class:
        return mention_class == pronoun_class
    return person_pronoun and root.ent_type_ == PERSON_LABEL


def unparsed_fronted_subjects(doc: Doc, pronouns: Sequence[int]) -> Dict[int, MentionOffset]:
    """Without a parse: for each pronoun (by token index) in a part fronted before its
    sentence's subject, the subject's words. The part is read off the words: the sentence opens
    with a subordinating word or a preposition ("While she was waiting for the bus,", "In her
    letter,") and ends at its first comma; the subject is the words after the comma up to the
    first verb (by its usual tag, `linguistics/word_tags.py`), at most MAX_SUBJECT_WORDS of
    them, and no pronoun ("When he left, he ..." is left to the model)."""
    tag = word_tagger(doc, load_word_tags())
    out: Dict[int, MentionOffset] = {}
    for i in pronouns:
        # the sentence's start, looked for no further back than a fronted part reaches: text
        # without punctuation is one long sentence, and each pronoun would walk all of it
        sentence_start = i
        while sentence_start > 0 and not doc[sentence_start].is_sent_start:
            if doc[sentence_start - 1].text in SENTENCE_ENDS:
                break
            if i - sentence_start >= MAX_FRONTED_WORDS:
                break
            sentence_start -= 1
        opener = doc[sentence_start].lower_
        if opener not in FRONTING_WORDS or sentence_start == i:
            continue
        comma = next(
            (t.i for t in doc[i + 1 : i + 1 + MAX_FRONTED_WORDS] if t.is_punct), None
        )
        if comma is None or doc[comma].text != ",":
            continue
        end = comma + 1
        while end < len(doc) and end - comma <= MAX_SUBJECT_WORDS:
            if tag(end) in ("PUNCT", "VERB", "AUX"):
                break
            end += 1
        words = doc[comma + 1 : end]
        if not len(words) or end - comma > MAX_SUBJECT_WORDS or end >= len(doc):
            continue
        if tag(end) not in ("VERB", "AUX"):
            continue  # the words after the comma are no subject before its verb
        if any(t.lower_ in PERSONAL_PRONOUNS for t in words):
            continue
        out[i] = (comma + 1, end)
    return out


class Cataphora(DecodingStep):
    name = "cataphora"

    def clusters(self, state: DecodingState) -> None:
        if not state.n_mentions:
            return
        state.clusters = link_cataphora(
            state.doc, state.clusters, state.spans.tolist(), state.mentions.heads.tolist(),
            state.mention_classes, CATAPHORIC_PRONOUNS, conflicting_classes,
        )


@registry.misc("spacy_coref.decode.cataphora.v1")
def make_cataphora() -> Cataphora:
    return Cataphora()
