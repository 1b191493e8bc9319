"""A mention's role in its clause, read off the dependency parse: the subject that binds it
(`binding_subject`), a second subject of that verb (`co_subject`), and, for every token of a doc
at once from its arrays (`parse_arrays.py`), the verb it is an argument of (`objects_of`) and
whether it is the subject of a relative clause (`relative_clause_subjects`). The binding step
(`decoding/steps/binding.py`) turns them into forbidden and required links; without a parse the
words stand in (`unparsed_clauses.py`).
"""
from typing import Optional

import numpy
from spacy.tokens import Token

from ..lang.en import english
from .parse_arrays import ParseArrays, ids
from .unparsed_clauses import BARE_VERB_NOUNS
from .word_tags import load_word_tags

_EN = english()

OBJECT_DEPS = {"dobj", "iobj", "dative", "obj"}
SUBJECT_DEPS = {"nsubj", "nsubjpass", "csubj"}
# Prepositions that introduce an argument of the verb ("talked to her", "asked about him"),
# after which a pronoun is disjoint from the subject; locative and comitative ones ("near him",
# "with him") allow coreference and are left out.
ARGUMENT_PREPOSITIONS = set(_EN.words("argument_prepositions"))  # to, at, about, for, ...
RELATIVE_TAGS = {"WDT", "WP"}
COPULAR_LEMMAS = set(_EN.words("copular_verbs"))  # be, become, remain, seem, stay
VERB_POS = {"VERB", "AUX"}
# A pronoun in the object case that is the subject of a verb's complement ("watched him
# leave") is bound in the verb's clause; a finite complement ("said he left") is its own clause.
OBJECT_CASE = set(  # "him", "her", "them"
    _EN.pronouns(person=3, case="accusative", not_case="nominative", reflexive=False)
)
COMPLEMENT_DEPS = {"ccomp", "xcomp", "oprd"}
FINITE_TAGS = {"VBD", "VBZ", "VBP", "MD"}
MAX_CONJ_HOPS = 8
# Binding in decoding only (the features keep what the shipped models were trained with):
# The labels of a verb's preposition besides "prep": "wrote a note to him" (dative), "was
# seen by him" (the passive's agent, whatever its preposition).
ARGUMENT_PREP_DEPS = {"dative", "agent"}
# Prepositions that introduce an argument of a verb without a direct object ("relied on her",
# "argued with him", "ran after her", "voted against them"); after a direct object they mostly
# say where it is, and may be the subject ("had no money on him", "took the bag with her").
INTRANSITIVE_ARGUMENT_PREPOSITIONS = set(_EN.words("intransitive_argument_prepositions"))
# Prepositions of a predicate adjective or a passive participle that introduce its argument:
# "angry with him", "keen on her", "disappointed in them", "impressed by him".
ADJECTIVE_ARGUMENT_PREPOSITIONS = set(_EN.words("argument_prepositions", "adjective_prepositions"))
# Adverbs that the parse hangs an argument preposition from, which stays the verb's where the
# verb has no direct object: "walked away from him", "moved closer to her", "stood next to
# him" ("pushed the plate away from him" may be the subject).
PREPOSITION_ADVERBS = set(_EN.words("preposition_adverbs"))  # away, close, next, up, ...
# Verbs after which "about" says where one looks, not of whom: "looked about him" is he.
LOOKING_LEMMAS = set(_EN.words("looking_verbs"))  # look, glance, gaze, stare, ...
# Causative and perception verbs, whose bare complement's subject "her" the parse may read
# as a possessor ("made her laugh", "heard her sing": her laugh, her sing)
COMPLEMENT_SUBJECT_LEMMAS = set(_EN.words("complement_subject_verbs"))  # make, let, hear, ...
# (the verbs that the tagger reads as nouns there, "laugh" and "scream", are
# unparsed_clauses.BARE_VERB_NOUNS)
# the same as string ids, for the roles of every token at once (`objects_of`, ...)
_OBJECT_DEP_IDS, _SUBJECT_DEP_IDS = ids(OBJECT_DEPS), ids(SUBJECT_DEPS)
_VERB_POS_IDS, _COPULAR_IDS = ids(VERB_POS), ids(COPULAR_LEMMAS)
_POBJ, _PREP, _RELCL = ids(("pobj", "prep", "relcl"))


def binding_subject(root: Token, reflexive: bool, controlled: bool = True) -> Optional[Token]:
    """The subject of the clause in which `root` is an object, or None; `controlled`: also
    where the clause takes its subject from the clause above, and for "him" in "watched him
    leave"."""
    prepositional = _prepositional_verb(root, reflexive, controlled)
    if root.dep_ in OBJECT_DEPS:
        verb = root.head
    elif prepositional is not None:
        verb = prepositional
    elif root.dep_ == "pobj" and root.head.dep_ == "prep" and root.head.head.pos_ in VERB_POS:
        return None  # "sat near him", "looked about him": where, not whom
    elif controlled and _predicate_adjective_argument(root, reflexive):
        # "he was proud of him", "she is kind to her": the adjective's preposition takes an
        # argument of the clause, as a verb's does (decoding only: the model's binding
        # feature reads the verbs' alone, as it was trained)
        verb = root.head.head.head
    elif controlled and _complement_subject(root, reflexive):
        # "Tom watched him leave", "made him captain": the verb above governs "him" as its
        # object, so Tom's clause binds it
        verb = root.head.head
    elif controlled and _possessive_complement_subject(root):
        # "Tom made her laugh", parsed as "her laugh": as "made him laugh"
        verb = root.head.head
    elif controlled and _predicate_noun_possessor(root):
        # "Tina Haynes was her secretary": the possessor of what the subject is said to be is
        # someone else (in LitBank and OntoGUM dev, 12 of 12 gold pairs)
        verb = root.head.head
    else:
        return None
    for _ in range(MAX_CONJ_HOPS):
        subject = next((t for t in verb.children if t.dep_ in SUBJECT_DEPS), None)
        if subject is not None:
            if subject.tag_ in RELATIVE_TAGS and verb.dep_ == "relcl":
                return verb.head  # "the man who saw him": the subject is "the man"
            return subject
        if verb.dep_ == "conj":
            verb = verb.head  # "called the plumber and thanked him": the shared subject
        elif not controlled:
            return None
        elif _comma_coordinated(verb):
            verb = verb.head  # "called the plumber, then thanked him", parsed as "dep"
        elif verb.dep_ == "xcomp":
            # the unspoken subject of "to help him" is the object of "asked Ann to help him",
            # else the subject of "tried to help him"
            governor = verb.head
            controller = next((t for t in governor.children if t.dep_ in OBJECT_DEPS), None)
            if controller is not None:
                return controller
            verb = governor
        elif verb.tag_ == "VBG" and verb.dep_ == "advcl":
            verb = verb.head  # "Percy left, telling him ...": Percy tells
        elif verb.tag_ == "VBG" and verb.dep_ == "pcomp" and verb.head.dep_ == "prep":
            verb = verb.head.head  # "after meeting him, Sam left": Sam met
            if verb.pos_ not in VERB_POS:
                return None
        else:
            return None
    return None


def objects_of(parse: ParseArrays) -> numpy.ndarray:
    """[T] the verb whose object or prepositional object each token is, or -1."""
    head = parse.head
    verb_head = numpy.isin(parse.pos[head], _VERB_POS_IDS)
    direct = numpy.isin(parse.dep, _OBJECT_DEP_IDS) & verb_head
    prepositional = (parse.dep == _POBJ) & (parse.dep[head] == _PREP)
    prepositional &= numpy.isin(parse.pos[head[head]], _VERB_POS_IDS)
    return numpy.where(direct, head, numpy.where(prepositional, head[head], -1))


def co_subject(subject: Token) -> int:
    """The token index of another subject of `subject`'s verb, -1 if it has none."""
    if subject.dep_ not in SUBJECT_DEPS:
        return -1  # a relative clause's antecedent or a controller
    other = [t for t in subject.head.children if t.dep_ in SUBJECT_DEPS and t.i != subject.i]
    return other[0].i if other else -1


def relative_clause_subjects(parse: ParseArrays) -> numpy.ndarray:
    """[T] bool: whether each token is the subject of a relative clause, not one of "be" or a
    verb like it ("the woman she was" may be she)."""
    clause = parse.head
    return (
        numpy.isin(parse.dep, _SUBJECT_DEP_IDS)
        & (parse.dep[clause] == _RELCL)
        & ~numpy.isin(parse.lemma[clause], _COPULAR_IDS)
    )


def first_or_second_person(token: Token) -> bool:
    """I, me, we, you...: their binding is left to the model, since a parse error inside
    a narrator's sentence would otherwise split a whole first-person narrative."""
    return token.pos_ == "PRON" and bool(set(token.morph.get("Person")) & {"1", "2"})


def _prepositional_verb(root: Token, reflexive: bool, controlled: bool) -> Optional[Token]:
    """The verb whose argument `root` is as the object of a preposition, or None: of an
    argument preposition of the verb ("talked to her"; any preposition, for a reflexive: "for
    herself"). With `controlled` (decoding), a pronoun (PRP) also as the object of the verb's
    dative ("wrote a note to him") and passive agent ("was seen by her"), of a preposition of
    a verb without a direct object ("relied on her", "argued with him") or of a passive
    participle ("disappointed in him"), and of one that the parse hangs from an adverb of the
    verb ("walked away from him"); not "looked about him" (where he looked)."""
    if root.dep_ != "pobj":
        return None
    prep = root.head
    word = prep.lower_
    # (pronouns only: a noun phrase there is as often a time or a place, "arrived on Monday")
    controlled = controlled and root.tag_ == "PRP"
    if prep.dep_ == "prep" and prep.head.pos_ in VERB_POS:
        verb = prep.head
        if reflexive or not controlled:
            return verb if reflexive or word in ARGUMENT_PREPOSITIONS else None
        if word in ARGUMENT_PREPOSITIONS:
            looking = word == "about" and verb.lemma_ in LOOKING_LEMMAS
            return None if looking else verb
        if word in INTRANSITIVE_ARGUMENT_PREPOSITIONS and not _has_object(verb):
            return verb
        passive = any(child.dep_ == "auxpass" for child in verb.children)
        if passive and word in ADJECTIVE_ARGUMENT_PREPOSITIONS:
            return verb
        return None
    if not controlled:
        return None
    if prep.dep_ in ARGUMENT_PREP_DEPS and prep.head.pos_ in VERB_POS:
        if reflexive or prep.dep_ == "agent" or word in ARGUMENT_PREPOSITIONS:
            return prep.head
        return None
    adverb = prep.head
    if (
        prep.dep_ == "prep"
        and adverb.dep_ == "advmod"
        and adverb.lower_ in PREPOSITION_ADVERBS
        and adverb.head.pos_ in VERB_POS
        and (reflexive or word in ARGUMENT_PREPOSITIONS)
        and not _has_object(adverb.head)
    ):
        return adverb.head
    return None


def _predicate_adjective_argument(root: Token, reflexive: bool) -> bool:
    """Whether `root` is the object of an argument preposition (any, for a reflexive) of an
    adjective that is a verb's predicate: "proud of him", "angry with her", "kind to them"."""
    if root.dep_ != "pobj" or root.head.dep_ != "prep":
        return False
    adjective = root.head.head
    if adjective.dep_ != "acomp" or adjective.head.pos_ not in VERB_POS:
        return False
    # "angry with him": a pronoun's (PRP) only
    preps = ADJECTIVE_ARGUMENT_PREPOSITIONS if root.tag_ == "PRP" else ARGUMENT_PREPOSITIONS
    return reflexive or root.head.lower_ in preps


def _has_object(verb: Token) -> bool:
    """Whether `verb` has a direct or indirect object."""
    return any(child.dep_ in OBJECT_DEPS for child in verb.children)


def _possessive_complement_subject(root: Token) -> bool:
    """Whether `root` is a "her" right after a causative or perception verb that the parse makes
    the possessor of the next word, a bare verb it reads as a noun or as that verb's
    complement: "made her laugh", "heard her sing", "watched her walk away" ("made her bed",
    "heard her voice" are her bed and her voice)."""
    if root.dep_ != "poss" or root.lower_ != "her":
        return False
    word, verb = root.head, root.head.head
    if word.i != root.i + 1 or verb.i != root.i - 1:
        return False
    if verb.pos_ not in VERB_POS or verb.lemma_ not in COMPLEMENT_SUBJECT_LEMMAS:
        return False
    if word.dep_ not in {"dobj", "ccomp", "xcomp"}:
        return False
    if word.tag_ == "VB":
        return True
    if word.tag_ != "NN" or any(child.i != root.i for child in word.children):
        return False
    return word.lower_ in BARE_VERB_NOUNS or load_word_tags().get(word.lower_) == "VERB"


def _comma_coordinated(verb: Token) -> bool:
    """Whether `verb` is a finite verb that the parse hangs from the verb before it as "dep"
    after a comma, where a coordination is meant: "called the plumber, then thanked him"."""
    head = verb.head
    if verb.dep_ != "dep" or verb.tag_ not in {"VBD", "VBZ", "VBP"} or head.pos_ != "VERB":
        return False
    if head.i >= verb.i:
        return False
    return any(t.text == "," and t.head.i in (head.i, verb.i) for t in verb.doc[head.i : verb.i])


def _complement_subject(root: Token, reflexive: bool) -> bool:
    """Whether `root` is a pronoun in the object case ("him", not "he") that the parse makes
    the subject of a verb's non-finite complement: "watched him leave", "wanted him to stay",
    "made him captain", "let her borrow the car"."""
    if root.dep_ != "nsubj" or root.pos_ != "PRON":
        return False
    if not (reflexive or root.lower_ in OBJECT_CASE or "Acc" in root.morph.get("Case")):
        return False
    clause = root.head
    return (
        clause.dep_ in COMPLEMENT_DEPS
        and clause.tag_ not in FINITE_TAGS
        and clause.head.pos_ in VERB_POS
    )


def _predicate_noun_possessor(root: Token) -> bool:
    """Whether `root` is the possessor of the noun that a form of "be" says its subject is
    ("her" of "Tina was her secretary", "Ann's" of "Bo is Ann's son"), not before "own" ("he
    was his own master")."""
    noun = root.head
    return (
        root.dep_ == "poss"
        and noun.dep_ == "attr"
        and noun.head.lemma_ == "be"
        and not any(child.lower_ == "own" for child in noun.children)
    )
