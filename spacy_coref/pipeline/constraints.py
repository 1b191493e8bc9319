"""Grammatical constraints on coreference links, read off the parse that runs before
`coref_cluster`. A 22M-parameter uncased encoder trained on 400k tokens does not learn them
reliably, and their violations are the errors a user sees first:

* agreement: one entity is not referred to by "he" and by "she", nor by "it" and by a person's
  pronoun, nor by "they" and by "he"/"she" (singular they joins no he/she cluster, and an
  organisation may be "it" and "they"). Gendered nouns and titles ("his aunt", "Mr. Reyes") and
  plural nouns and coordinations ("the twins", "Ann and Bo") count like pronouns, and so do
  people's names with a first name of clear gender ("Alice Okafor", `first_names.py`; a lone
  first name even where the small NER calls it an organisation: "Sigrid met Rohan"), and a
  noun phrase a person's name names ("a teacher called Mr. Patel"). A noun for a person of
  either gender ("the physicist", `person_nouns.py`) is never "it", a body of people ("the
  jury") never "he", "she" or one person, and a coordination never "it". A conflict cuts the
  link that joins the two mentions at the least cost (its score above what the mention cut
  off can link to elsewhere; without a parse, genders keep a cluster's majority). First and
  second person are left free in dialogue, where "I" is the "he" of the narration; where the
  doc gives its speakers, two speakers' "I" are two people, and where it gives none (an
  email), "you" is never the writer's "I".
* binding: a (non-reflexive) direct or indirect object, or the object of an argument
  preposition ("talked to her"), never refers to the subject of its own clause ("The nurse
  called the plumber and thanked him": him is not the nurse); a reflexive refers to it
  ("He hurt himself"). A clause without a subject of its own takes the one of the clause it
  hangs from: "Denton began to suffocate him", "Percy left, telling him", "after meeting
  him, Sam left" (the subject), "Ann asked Bo to help him" (the object: him is not Bo).
  "him" as the subject of a verb's complement is that verb's object: "Tom watched him
  leave", "wanted him to stay", "made him captain" (him is not Tom), also where the parser
  reads "made her laugh" as a possessor and a noun. A pronoun's argument preposition may
  hang from the verb as a dative or agent ("wrote a note to him", "impressed by him"), be
  one of on/with/after/against where the verb has no object ("relied on her"), hang from an
  adverb ("walked away from him") or from a predicate adjective ("angry with him"); time
  and place phrases and "looked about him" stay free. Verbs joined by a comma share their
  subject too ("called the plumber, then thanked him").
  Binding rules out the link itself, and where other links still join the two ("He asked
  him", both linked to "Sam"), the later one leaves the cluster: a parse error then costs one
  mention's link, not a narrator's whole cluster. A possessor is not the noun phrase it is
  part of: "her mother" leaves the cluster of its "her" (`part_possessors`). Without a
  parse, the words show the clause of "him", "her", "them" or a reflexive right after a verb
  ("Tom paid him", "called the plumber and thanked him"; `unparsed_binding.py`).
* quotes: a quote's "I" is its speaker and its "you" the one it is said to, where the parse
  (without one, the words next to the quote) shows a speech tag ("..." Tom told Anna); a
  letter's "I" is its signature and its "you" its greeting's name; applied after the others
  (`quotes.py`, `unparsed_quotes.py`).
* names: a name repeated ("Petra" ... "Petra", "Helena Kurz" ... "Kurz") joins its earlier
  mention's cluster where agreement allows (`name_match.py`); without a parse, people's
  names alone, by their titles and first names.
* distinct_names: two people's names that cannot be one person's ("Ricardo Rocha" and
  "Eugenio Bernal", "Mr. Hale" and "Mr. Dunmore"), or two one-word place names ("Norway" and
  "Canada"), are never in one cluster, even where a pronoun between them was linked to both
  (`person_names.py`); with `names` on, a repeated name does not bring them together either.
* indefinites: a noun phrase with "a" or "an" ("a new library") introduces an entity: it
  takes no antecedent, though later mentions may take it as theirs. Appositives and
  predicates ("Ann, a nurse"; "Ann is a nurse") count too: the dev sets' annotations rarely
  link them. Without a parse, any span of two or more words from "a" or "an" on counts.
* contrasts: one head noun with modifiers that exclude each other ("the old bridge", "a new
  bridge"; "the first chapter", "the second chapter"; "two boxes", "three boxes") is two
  entities (`contrasts.py`).
* same_head: of two nested mentions with one head word in a cluster ("Greta" and "Greta, who
  laughed at him"), the cluster keeps one; two clusters that hold such a pair ("old Cotter"
  in one, "Cotter" in the other) are made one first, where they agree (`same_head.py`).
  Without a parse a mention's last word stands for its head, and clusters are not merged.
* other_heads: a common noun phrase takes an earlier one with another head noun ("the plan"
  after "the government") only where the link scores well above "no antecedent"
  (`other_heads.py`); without a parse, the heads of short lower-case phrases come from each
  word's usual tag (`word_tags.py`).
* whole_phrases: a mention is its whole noun phrase: "the house" linked where the candidates
  hold "the little house in Great Britain Street" becomes that, and a cluster whose only
  names are first words of a longer name ("Norvell" of "Norvell Energy") goes to the whole
  name (`whole_phrases.py`); applied last.
* salience: no constraint but a preference, applied first: a "he" or "she" takes a subject
  over an object, a mention in its own or the last sentence, a closer one, and one in its own
  role, by more than the model's scores alone say (`salience.py`).

`decode_clusters` turns them into what `clustering.constrained_clusters` needs: a class per
mention (bit flags), masks of forbidden and required (mention, antecedent) pairs, and each
mention's person name. The parse is read once per mention; the pair masks are array
operations.
"""
import dataclasses
from typing import Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

import numpy
from spacy.strings import hash_string
from spacy.symbols import PRON
from spacy.tokens import Doc, Token

from ..annotations import SPEAKERS_KEY, get_speakers
from ..errors import Errors
from ..lang.en import english  # the pronouns, gendered words and titles
from ..ml.torch.constants import FIRST_ANTECEDENT_COLUMN, MASKED_SCORE
from ..types import ClusterOffsets, CorefScores, MentionOffset, valid_antecedents
from .company_names import (
    company_run_ends, company_short_names, in_company_name, unparsed_company_short_names,
)
from .first_names import (
    FEMININE_FIRST_NAMES,
    MASCULINE_FIRST_NAMES,
    NEUTRAL_TITLES,
    PLACE_NAMES,
)
from .name_match import (
    PERSON_ENTS,
    is_naming_participle_object,
    mention_classes,
)
from .person_nouns import COLLECTIVE_NOUNS, PERSON_NOUNS
from .quotes import (
    FIRST_PLURAL,
    FIRST_SINGULAR,
    SECOND,
    find_quotes,
    marks_all_paired,
    quotation_mark_positions,
)
from .thing_nouns import THING_NOUNS
from .unparsed_binding import BARE_VERB_NOUNS
from .word_tags import TAG_CODES, load_word_tags, tag_codes

AGREEMENT = "agreement"
BINDING = "binding"
QUOTES = "quotes"  # a quote's I and you go with its speaker and addressee (quotes.py)
NAMES = "names"  # a repeated name goes with its earlier mention (name_match.py)
DISTINCT_NAMES = "distinct_names"  # two people's names part a cluster (person_names.py)
INDEFINITES = "indefinites"  # "a new library" takes no antecedent
CONTRASTS = "contrasts"  # "the old bridge" is not "the new bridge" (contrasts.py)
SAME_HEAD = "same_head"  # a cluster keeps one of "Greta" and "Greta, who ..." (same_head.py)
CATAPHORA = "cataphora"  # "When she landed, the pilot ..." (cataphora.py)
GROUPS = "groups"  # "the cat and the dog ... they": the pair, not one of them (groups.py)
WHOLE_PHRASES = "whole_phrases"  # "the house in Great Britain Street", not "the house"
OTHER_HEADS = "other_heads"  # "the plan" is seldom "the government" (other_heads.py)
SALIENCE = "salience"  # "he" prefers a subject close by in its own role (salience.py)
CONSTRAINTS = (
    AGREEMENT, BINDING, QUOTES, NAMES, DISTINCT_NAMES, INDEFINITES, CONTRASTS, SAME_HEAD,
    CATAPHORA, GROUPS, WHOLE_PHRASES, OTHER_HEADS, SALIENCE,
)
# The steps on by default (the factory's 'constraints'): each wins beyond its bootstrap interval
# on a dev set and loses on none, or fixes behaviour-suite items of its own; "salience" does
# neither and is kept off (docs/constraints_and_features.md, "What each step adds").
DEFAULT_CONSTRAINTS = tuple(c for c in CONSTRAINTS if c != SALIENCE)
INDEFINITE_ARTICLES = {"a", "an", "another"}

_EN = english()

# Agreement classes, as bit flags so that a cluster's classes are one integer.
MASCULINE, FEMININE, NEUTER, PLURAL = 1, 2, 4, 8
# Persons of pronouns, outside quotes only (`narration_persons`): the decoding's alone
# (the model's features read the four classes above).
THIRD_PERSON, FIRST_SINGULAR_PERSON, FIRST_PLURAL_PERSON, SECOND_PERSON = 16, 32, 64, 128
# "you" in a doc with neither quotes nor speakers (an email, a letter, a manual): the reader,
# never the writer's "I". With speakers, one turn's "you" is the next turn's "I".
READER = 512
PERSONS = THIRD_PERSON | FIRST_SINGULAR_PERSON | FIRST_PLURAL_PERSON | SECOND_PERSON | READER
# A person of either gender ("the physicist", person_nouns.py): the decoding's alone too.
HUMAN = 256
# A body of people ("the jury", person_nouns.py): "it" or "they", never one person. The
# decoding's alone: the features read it as they read any noun.
COLLECTIVE = 1024
# Noun phrases joined by a conjunction ("the river and the farms"): plural, and never "it".
# The decoding's alone: the features read PLURAL.
CONJOINED = 2048
# "here" and "there", where the mention rules take them: a place, never "he", "she" or a
# person noun ("There she met the physicist"). The decoding's alone.
PLACE = 4096
# In a doc with speakers, "I" of each speaker (`speaker_persons`): one bit per speaker, up to
# 50 of them; the first-person mentions of two speakers are two people.
FIRST_SPEAKER_BIT, MAX_SPEAKER_BITS = 13, 50
SPEAKERS = ((1 << MAX_SPEAKER_BITS) - 1) << FIRST_SPEAKER_BIT
# The classes that cannot share a cluster with each class.
CONFLICTS = {
    # a speaker's own "I" (SPEAKERS) is never "he" or "she"
    MASCULINE: FEMININE | NEUTER | PLURAL | COLLECTIVE | PLACE | SPEAKERS,
    FEMININE: MASCULINE | NEUTER | PLURAL | COLLECTIVE | PLACE | SPEAKERS,
    NEUTER: MASCULINE | FEMININE | HUMAN | CONJOINED,  # an organisation is "it" and "they"
    CONJOINED: NEUTER | MASCULINE | FEMININE | FIRST_SINGULAR_PERSON,  # "me and Isabel" | "I"
    HUMAN: NEUTER | COLLECTIVE | PLACE,
    PLACE: MASCULINE | FEMININE | HUMAN,
    COLLECTIVE: MASCULINE | FEMININE | HUMAN,
    PLURAL: MASCULINE | FEMININE,
    # persons, outside quotes: a third-person pronoun is never "I", "we" or "you",
    # and "we" never "I" or "you"; "I" may be "you" (the turns of a transcript), but not the
    # reader's (text without speakers)
    THIRD_PERSON: PERSONS & ~THIRD_PERSON,
    FIRST_PLURAL_PERSON: PERSONS & ~FIRST_PLURAL_PERSON,
    FIRST_SINGULAR_PERSON: THIRD_PERSON | FIRST_PLURAL_PERSON | READER | CONJOINED,
    SECOND_PERSON: THIRD_PERSON | FIRST_PLURAL_PERSON,
    READER: FIRST_SINGULAR_PERSON,
}
# Conflicts in a parsed doc are repaired by cutting the cheapest link between two mentions that
# conflict (`clustering.constrained_clusters`, `cut_classes`): a majority vote would keep "her"
# and "she" that were linked through "a teacher called Mr. Patel" and drop him. Without a
# parse, all but he and she are: the fast pipeline's GAP drops 1.1 with every class cut, and
# cutting "it" and "they" too raised its LitBank dev 60.44 to 60.83
# (docs/constraints_and_features.md).
ALL_CLASSES = (
    MASCULINE | FEMININE | NEUTER | PLURAL | HUMAN | COLLECTIVE | CONJOINED | PLACE | PERSONS
    | SPEAKERS
)
UNPARSED_CUT_CLASSES = PERSONS | SPEAKERS | NEUTER | PLURAL

# the third person's forms: he, him, his, himself; she, ...; it, its, itself; they, ...
PRONOUN_CLASS = {
    **dict.fromkeys(_EN.pronouns(gender="masculine"), MASCULINE),
    **dict.fromkeys(_EN.pronouns(gender="feminine"), FEMININE),
    **dict.fromkeys(_EN.pronouns(gender="neuter"), NEUTER),
    **dict.fromkeys(_EN.pronouns(person=3, number="plural"), PLURAL),
}
# "we" is a group: never one he or she ("our" in an email is not "Daniel"). Not a third-person
# pronoun, so apart from PRONOUN_CLASS (same_head reads that as the third person).
AGREEMENT_BY_PRONOUN = {
    **PRONOUN_CLASS, **dict.fromkeys(_EN.pronouns(person=1, number="plural"), PLURAL),
}
PERSON_OF_PRONOUN = {
    **dict.fromkeys(PRONOUN_CLASS, THIRD_PERSON),
    **dict.fromkeys(FIRST_SINGULAR, FIRST_SINGULAR_PERSON),
    **dict.fromkeys(FIRST_PLURAL, FIRST_PLURAL_PERSON),
    **dict.fromkeys(SECOND, SECOND_PERSON),
}
# "it" and "they", which the default decodes with a null score of their own (null_scores_by_form)
NEUTER_PLURAL_PRONOUNS = tuple(form for form, c in PRONOUN_CLASS.items() if c in (NEUTER, PLURAL))
# the pronouns that can stand before the subject they refer to ("When she landed, the pilot"):
# he, him, his, she, her, they, them, their (not "it", a reflexive, nor "hers" or "theirs")
_CATAPHORIC = _EN.pronouns(person=3, reflexive=False, possessive=(None, "dependent", "both"))
CATAPHORIC_PRONOUNS = {form: c for form, c in PRONOUN_CLASS.items()
                       if c != NEUTER and form in _CATAPHORIC}
REFLEXIVES = set(_EN.pronouns(reflexive=True))  # "himself", ..., "yourselves", "oneself"
# Nouns and titles whose referent's gender is part of their meaning (lemmas, lower case;
# spacy_coref/lang/en/gendered_words.json).
GENDERED_WORDS = {
    **dict.fromkeys(_EN.masculine_words, MASCULINE),
    **dict.fromkeys(_EN.feminine_words, FEMININE),
}
FIRST_NAME_CLASS = {
    **dict.fromkeys(MASCULINE_FIRST_NAMES, MASCULINE),
    **dict.fromkeys(FEMININE_FIRST_NAMES, FEMININE),
}
NAME_POS = {"PROPN", "NOUN"}
# Heads that make a mention a group of more than one ("the two of them", "both"): plural
# whatever its tag, which is CD or DT and no plural noun's NNS.
GROUP_WORDS = {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "both",
               "dozen", "couple", "pair"}
# entity types of places, where a lone first name that is also a place's name is read as one
PLACE_ENTS = {"GPE", "LOC", "FAC"}
PLACE_ADVERBS = frozenset(("here", "there"))
# titles that also start the names of places and institutions ("St Peters", "St. Louis")
PLACE_TITLES = _EN.place_titles
OBJECT_DEPS = {"dobj", "iobj", "dative", "obj"}
SUBJECT_DEPS = {"nsubj", "nsubjpass", "csubj"}
# Prepositions that introduce an argument of the verb ("talked to her", "asked about him"),
# after which a pronoun is disjoint from the subject; locative and comitative ones ("near him",
# "with him") allow coreference and are left out.
ARGUMENT_PREPOSITIONS = {"to", "at", "about", "for", "from", "of"}
RELATIVE_TAGS = {"WDT", "WP"}
COPULAR_LEMMAS = {"be", "become", "remain", "seem", "stay"}
# Forms of address whose possessor is the one addressed: "your Ladyship" is "you"
ADDRESS_TITLES = set(_EN.address_titles)
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
INTRANSITIVE_ARGUMENT_PREPOSITIONS = {"on", "upon", "with", "after", "against"}
# Prepositions of a predicate adjective or a passive participle that introduce its argument:
# "angry with him", "keen on her", "disappointed in them", "impressed by him".
ADJECTIVE_ARGUMENT_PREPOSITIONS = ARGUMENT_PREPOSITIONS | {"with", "on", "upon", "in", "by"}
# Adverbs that the parse hangs an argument preposition from, which stays the verb's where the
# verb has no direct object: "walked away from him", "moved closer to her", "stood next to
# him" ("pushed the plate away from him" may be the subject).
PREPOSITION_ADVERBS = {"away", "close", "closer", "next", "up", "down", "back", "over"}
# Verbs after which "about" says where one looks, not of whom: "looked about him" is he.
LOOKING_LEMMAS = {"look", "glance", "gaze", "stare", "peer", "peep", "turn"}
# Causative and perception verbs, whose bare complement's subject "her" the parse may read
# as a possessor ("made her laugh", "heard her sing": her laugh, her sing)
COMPLEMENT_SUBJECT_LEMMAS = {"make", "let", "have", "help", "bid", "hear", "see", "watch",
                             "feel", "notice", "observe"}
# (the verbs that the tagger reads as nouns there, "laugh" and "scream", are
# unparsed_binding.BARE_VERB_NOUNS)


class MentionConstraints(NamedTuple):
    """What the constraints know of each mention of a doc (arrays over its M mentions)."""

    classes: numpy.ndarray  # [M] agreement classes (bit flags), 0 where unknown
    roots: numpy.ndarray  # [M] token index of the syntactic head, -1 for I/we/you (unbound)
    clause_subjects: numpy.ndarray  # [M] token index of the subject binding it, -1 if none
    reflexive: numpy.ndarray  # [M] bool
    heads: numpy.ndarray  # [M] token index of the syntactic head, -1 without a parse
    possessed: numpy.ndarray  # [M] head of the noun phrase it is the possessor of, -1 if none
    indefinite: numpy.ndarray  # [M] bool: a noun phrase with "a" or "an"
    # [M] token index of the verb whose object or prepositional object it is, -1 if none
    argument_of: numpy.ndarray
    pronoun: numpy.ndarray  # [M] bool: a personal pronoun ("them", "it")
    # [M] token index of a second subject of the binding subject's verb, -1 if none: a parse
    # error that also makes "the headmaster" of "Mr. Abbott, the headmaster, called Jo, and
    # the headmaster asked him" a subject of "asked" beside "Abbott" (decoding only)
    co_subjects: Optional[numpy.ndarray] = None
    # [M] token index of the word a mention's head is in apposition to ("Glenn Gould" of "the
    # pianist Glenn Gould"), -1 if none: binding keeps it from its subject's arguments too
    apposed_to: Optional[numpy.ndarray] = None
    # [M] token index of the noun that the relative clause a pronoun is the subject of
    # modifies ("the dictator who he believed was..."), or that noun's head if it is an
    # appositive ("The butler, a man he had met"), -1 if none: not one entity
    relative_head: Optional[numpy.ndarray] = None


def check_null_scores_by_form(by_form: Dict[str, float], name: str) -> Dict[str, float]:
    """The null scores by form of a component setting, checked. Raises CE109 for a key that
    is not a lower-case word or a value that is not a number."""
    out = {}
    for key, value in dict(by_form).items():
        valid_key = isinstance(key, str) and key and key == key.lower() and " " not in key
        valid_value = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not (valid_key and valid_value):
            raise ValueError(Errors.CE109.format(name=name, key=key, value=value))
        out[key] = float(value)
    return out


def check_constraints(constraints: Iterable[str], name: str) -> List[str]:
    """The constraint names of a component setting, checked. Raises CE108 for unknown names."""
    constraints = list(constraints)
    unknown = [c for c in constraints if c not in CONSTRAINTS]
    if unknown:
        raise ValueError(Errors.CE108.format(name=name, unknown=unknown, valid=list(CONSTRAINTS)))
    return constraints


def mention_constraints(
    doc: Doc, spans: Sequence[Sequence[int]], *, first_names: bool = True, controlled: bool = True
) -> MentionConstraints:
    """Agreement class, head, binding subject and reflexivity of each mention.

    doc (Doc): the doc; without a dependency parse, mentions have no head or subject, and only
        pronouns (by their form) and names (by their first name) have a class.
    spans (Sequence): [M] (start, end) token offsets, end exclusive.
    first_names (bool): give people's names the class of their first name.
    controlled (bool): bind the objects of clauses without a subject of their own to the
        subject they take from the clause above ("began to suffocate him"), and "him" in
        "watched him leave" to the subject of "watched".
    RETURNS (MentionConstraints): arrays over the mentions.
    """
    n = len(spans)
    parsed = doc.has_annotation("DEP")
    if not parsed:
        return _unparsed_constraints(doc, numpy.asarray(spans, dtype="int64").reshape((n, 2)),
                                     first_names)
    classes = numpy.zeros(n, dtype="int64")
    roots = numpy.full(n, -1, dtype="int64")
    subjects = numpy.full(n, -1, dtype="int64")
    co_subjects = numpy.full(n, -1, dtype="int64")
    reflexive = numpy.zeros(n, dtype=bool)
    heads = numpy.full(n, -1, dtype="int64")
    possessed = numpy.full(n, -1, dtype="int64")
    indefinite = numpy.zeros(n, dtype=bool)
    argument_of = numpy.full(n, -1, dtype="int64")
    pronoun = numpy.zeros(n, dtype=bool)
    apposed_to = numpy.full(n, -1, dtype="int64")
    relative_head = numpy.full(n, -1, dtype="int64")
    names = _capitalised_mid_sentence(doc) if first_names else frozenset()
    for i, (start, end) in enumerate(spans):
        span = doc[int(start) : int(end)]
        root = span.root
        classes[i] = _agreement_class(span, root, True, first_names, names)
        reflexive[i] = len(span) == 1 and (
            root.lower_ in REFLEXIVES or "Yes" in root.morph.get("Reflex")
        )
        heads[i] = root.i
        if root.dep_ == "poss" and root.head.lower_ not in ADDRESS_TITLES:
            possessed[i] = root.head.i
        indefinite[i] = span[0].lower_ in INDEFINITE_ARTICLES and root.pos_ == "NOUN"
        argument_of[i] = _verb_of_object(root)
        pronoun[i] = len(span) == 1 and root.tag_ == "PRP"
        if root.dep_ == "appos":
            apposed_to[i] = root.head.i
        # (third person only, as binding: a narrator's "I" is bound by no clause)
        third = pronoun[i] and not _first_or_second_person(root)
        if controlled and third and _relative_clause_subject(root):
            noun = root.head.head
            # "The butler, a man he had met": the noun the appositive stands for
            relative_head[i] = noun.head.i if noun.dep_ == "appos" else noun.i
        if parsed and not _first_or_second_person(root):
            roots[i] = root.i
            subject = _binding_subject(root, reflexive[i], controlled)
            subjects[i] = -1 if subject is None else subject.i
            if controlled and subject is not None:
                co_subjects[i] = _co_subject(subject)
    if first_names:
        _share_apposition_classes(doc, spans, classes)
        _share_surname_classes(doc, spans, classes)
        _share_company_classes(doc, spans, classes)
    return MentionConstraints(
        classes, roots, subjects, reflexive, heads, possessed, indefinite, argument_of, pronoun,
        co_subjects if controlled else None, apposed_to, relative_head,
    )


def _share_apposition_classes(doc: Doc, spans: Sequence[Sequence[int]], classes: numpy.ndarray):
    """In place: a one-word name that an apposition gave a gender ("his sister Mara") gives it
    to the doc's other mentions of that word alone ("Mara hugged him"), unless appositions give
    it two."""
    by_name: Dict[str, int] = {}
    names = []
    for i, (start, end) in enumerate(spans):
        token = doc[int(start)]
        if int(end) - int(start) == 1 and token.pos_ in NAME_POS and token.is_title:
            names.append(i)
            gender = _apposition_class(token)
            if gender:
                by_name[token.text] = by_name.get(token.text, 0) | gender
    for i in names:
        gender = by_name.get(doc[int(spans[i][0])].text, 0)
        if not classes[i] and gender in (MASCULINE, FEMININE):
            classes[i] = gender


def _share_surname_classes(doc: Doc, spans: Sequence[Sequence[int]], classes: numpy.ndarray):
    """In place: a one-word name without a class that is the last word of the doc's longer
    people's names before it takes their first names' gender where all of them have the same
    one ("Saar" after "Joel Saar"; not "Larson" after "John Larson" and "Emma Larson"). Only
    names before it count: "Larson was born ..., the daughter of John Charles Larson"."""
    by_surname: Dict[str, List[Tuple[int, int]]] = {}  # surname -> [(end, gender)]
    for ent in doc.ents:
        if ent.label_ == "PERSON" and len(ent) > 1:
            by_surname.setdefault(ent[-1].text, []).append((ent.end, _first_name_class(list(ent))))
    if not by_surname:
        return
    for i, (start, end) in enumerate(spans):
        token = doc[int(start)]
        if int(end) - int(start) != 1 or classes[i] or token.pos_ not in NAME_POS:
            continue
        genders = {g for e, g in by_surname.get(token.text, ()) if e <= int(start)}
        if len(genders) == 1 and next(iter(genders)) in (MASCULINE, FEMININE):
            classes[i] = next(iter(genders))


def _share_company_classes(doc: Doc, spans: Sequence[Sequence[int]], classes: numpy.ndarray):
    """In place: a one-word name without a class that is a word of one of the doc's company
    names is the company ("who founded Norvell" of "Norvell Energy"): "it" or "they", not "he"
    (`company_short_names`)."""
    words = company_short_names(doc)
    if not words:
        return
    for i, (start, end) in enumerate(spans):
        if int(end) - int(start) != 1 or classes[i]:
            continue
        token = doc[int(start)]
        if token.pos_ in NAME_POS and token.text in words:
            classes[i] = COLLECTIVE


_AND_HASH = hash_string("and")
_COMMA_HASH = hash_string(",")


def _unparsed_constraints(doc: Doc, spans: numpy.ndarray, first_names: bool) -> MentionConstraints:
    """`mention_constraints` of a doc without a parse, as arrays: the fast pipeline's
    candidates are every short span, about ten per token, so each token is read once and the
    spans only index what was read. Each span gets what `_agreement_class` gives it alone."""
    n = len(spans)
    starts, ends = spans[:, 0], spans[:, 1]
    last = ends - 1  # [n] a span's last token stands in for its head
    n_tokens = len(doc)
    # one entry per token, and one past the end for empty lookups
    lower, orth, title, pos, lower_case, is_punct = _padded(
        doc.to_array(["LOWER", "ORTH", "IS_TITLE", "POS", "IS_LOWER", "IS_PUNCT"])
    )
    pronoun_class = _look_up(lower, *_PRONOUN_TABLE)  # [T + 1]
    pronoun_pos = pos == PRON
    reflexive_word = _look_up(lower, *_REFLEXIVE_TABLE).astype(bool)
    if doc.has_annotation("MORPH"):
        reflexive_word[:n_tokens] |= [("Yes" in t.morph.get("Reflex")) for t in doc]
    title_case = title.astype(bool)
    title_word = _look_up(lower, *_TITLE_TABLE).astype(bool)  # "Dr.", "Mrs.": not a first name
    name_class = _look_up(orth, *_FIRST_NAME_TABLE)
    single = ends - starts == 1  # [n]
    classes = numpy.where(single | pronoun_pos[last], pronoun_class[last], 0)  # [n]
    if first_names:
        # a name alone: every word title-cased, the first word that is not a title a first name
        untitled = numpy.concatenate([[0], numpy.cumsum(~title_case[:n_tokens])])  # [T + 1]
        all_title = untitled[ends] - untitled[starts] == 0  # [n]
        # the first token at or after each position that is not a title word
        positions = numpy.where(title_word, n_tokens, numpy.arange(n_tokens + 1))
        first_word = numpy.minimum.accumulate(positions[::-1])[::-1]  # [T + 1]
        first = first_word[starts]  # [n]
        named = numpy.where(first < ends, name_class[first], 0)
        # a name after a gendered title takes the title's gender: "Mrs. Novak", "Uncle Raj"
        gendered_title = _look_up(lower, *_GENDERED_TITLE_TABLE)  # [T + 1]
        named = numpy.where((named == 0) & title_word[starts], gendered_title[starts], named)
        # and one right after a first name or such a title, a part of that name: "Ellison" of
        # "Ruth Ellison", "Haddad" of "Mrs. Haddad"
        before = numpy.maximum(starts - 1, 0)
        after_first = (starts > 0) & title_case[before]
        named = numpy.where((named == 0) & after_first, name_class[before], named)
        named = numpy.where((named == 0) & after_first, gendered_title[before], named)
        classes = numpy.where((classes == 0) & all_title, named, classes)
        # a company's name, and a name inside it: "Norvell Energy", "Norvell" (as with a parse)
        company_runs = company_run_ends(doc)  # [T]
        company = company_runs[starts] & all_title  # [n]
        classes = numpy.where(company & ~(single & pronoun_pos[starts]), COLLECTIVE, classes)
        # a coordination is a group ("Professor Sørensen and her student Ahmed Karimi ... He":
        # not the group): an "and" inside the span, not at an edge, nor after an adjective
        joins = lower[:n_tokens] == _AND_HASH
        joins[1:] &= tag_codes(lower[: n_tokens - 1], load_word_tags()) != TAG_CODES["ADJ"]
        conjunction = numpy.concatenate([[0], numpy.cumsum(joins)])
        coordinated = conjunction[ends - 1] - conjunction[starts + 1] > 0  # [n]
        classes = numpy.where((classes == 0) & coordinated, PLURAL | CONJOINED, classes)
        # a short phrase without punctuation, its last word as its head: "the defendant",
        # "her aunt", "the jury"
        noun = numpy.where(lower_case[last] > 0, _look_up(lower, *_NOUN_TABLE)[last], 0)
        punct = numpy.concatenate([[0], numpy.cumsum(is_punct[:n_tokens])])  # [T + 1]
        short = (ends - starts <= MAX_UNPARSED_NOUN_WORDS) & (punct[ends] == punct[starts])
        classes = numpy.where((classes == 0) & ~single & short, noun, classes)
        # a name after a comma ends the phrase it names: "The mayor of Lindholm, Greta
        # Sundqvist" (`_appositive_name_class`)
        comma = lower == _COMMA_HASH  # [T + 1]
        not_title_word = gendered_title == 0
        for size in (1, 2):
            name_start = ends - size  # [n]
            has_name = (name_start - 1 > starts) & comma[numpy.maximum(name_start - 1, 0)]
            if size == 2:  # the first name, then a surname
                has_name &= title_case[last] & not_title_word[last]
            gender = numpy.where(has_name, name_class[numpy.maximum(name_start, 0)], 0)
            classes = numpy.where(classes == 0, gender, classes)
        # a surname alone takes the gender of the doc's full names before it that end in it,
        # where they agree: "Reyes" after "Sofia Reyes" (`_share_surname_classes`); a full
        # name is a capitalised word after a first name of the lists
        tokens = numpy.arange(1, n_tokens)
        surnames = title_case[tokens] & ~title_word[tokens] & (name_class[tokens] == 0)
        surnames &= numpy.isin(name_class[tokens - 1], (MASCULINE, FEMININE))
        genders: Dict[int, List[Tuple[int, int]]] = {}  # surname -> [(position, gender)]
        for t in tokens[surnames].tolist():
            genders.setdefault(int(orth[t]), []).append((t, int(name_class[t - 1])))
        lone = numpy.flatnonzero(single & (classes == 0) & title_case[starts])
        for i in lone.tolist() if genders else ():
            found = {g for t, g in genders.get(int(orth[starts[i]]), ()) if t < starts[i]}
            if len(found) == 1:
                classes[i] = next(iter(found))
        # a lone word of a company's name elsewhere: "who founded Norvell" (as with a parse)
        companies = unparsed_company_short_names(doc, company_runs, orth[tokens[surnames]])
        short_name = single & (classes == 0) & numpy.isin(orth[starts], companies)
        classes = numpy.where(short_name, COLLECTIVE, classes)
    reflexive = single & reflexive_word[last]
    unbound = numpy.full(n, -1, dtype="int64")
    # no parse to find the head: any span from "a" or "an" on counts as indefinite
    indefinite = _look_up(lower, *_INDEFINITE_TABLE).astype(bool)[starts] & ~single
    return MentionConstraints(
        classes, unbound, unbound.copy(), reflexive, unbound.copy(), unbound.copy(), indefinite,
        unbound.copy(), numpy.zeros(n, dtype=bool),
    )


def _hash_table(table: Dict[str, int]) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """A word -> int table as sorted string hashes and their values, for `_look_up`."""
    keys = numpy.asarray([hash_string(word) for word in table], dtype="uint64")
    values = numpy.asarray(list(table.values()), dtype="int64")
    order = numpy.argsort(keys)
    return keys[order], values[order]


def _look_up(hashes: numpy.ndarray, keys: numpy.ndarray, values: numpy.ndarray) -> numpy.ndarray:
    """The values of `hashes` in a `_hash_table`, 0 where absent."""
    at = numpy.minimum(numpy.searchsorted(keys, hashes), len(keys) - 1)
    return numpy.where(keys[at] == hashes, values[at], 0)


def _padded(columns: numpy.ndarray) -> List[numpy.ndarray]:
    """The columns of a [T, n] token array, each with a 0 after the last token."""
    columns = numpy.asarray(columns, dtype="uint64").reshape((-1, columns.shape[-1]))
    return [numpy.append(column, numpy.uint64(0)) for column in columns.T]


_PRONOUN_TABLE = _hash_table(AGREEMENT_BY_PRONOUN)
_REFLEXIVE_TABLE = _hash_table(dict.fromkeys(REFLEXIVES, 1))
_INDEFINITE_TABLE = _hash_table(dict.fromkeys(INDEFINITE_ARTICLES, 1))
_TITLE_TABLE = _hash_table(dict.fromkeys((*GENDERED_WORDS, *NEUTRAL_TITLES), 1))
_GENDERED_TITLE_TABLE = _hash_table(GENDERED_WORDS)
_FIRST_NAME_TABLE = _hash_table(FIRST_NAME_CLASS)  # case-sensitive: "Mark", not "mark"
# Without a parse, the nouns whose class a short phrase ending in them takes (decoding only)
_NOUN_CLASS = {
    **dict.fromkeys(PERSON_NOUNS, HUMAN), **dict.fromkeys(COLLECTIVE_NOUNS, COLLECTIVE),
    **GENDERED_WORDS, **dict.fromkeys(THING_NOUNS, NEUTER),
}
_NOUN_TABLE = _hash_table(_NOUN_CLASS)
MAX_UNPARSED_NOUN_WORDS = 4


def binding_masks(mentions: MentionConstraints, antecedents: numpy.ndarray):
    """Which candidate antecedents binding forbids, and which it requires.

    mentions (MentionConstraints): the doc's kept mentions.
    antecedents (numpy.ndarray): [M, K] index of each candidate antecedent.
    RETURNS (Tuple[numpy.ndarray, numpy.ndarray]): forbidden [M, K] (an argument and the subject
        of its clause, either way round, and two objects of one verb where one is a pronoun)
        and required [M, K] (a reflexive's own subject).
    """
    roots, subjects = mentions.roots, mentions.clause_subjects
    # the mention's clause subject is the antecedent's head, or the other way round
    mention_bound = (subjects[:, None] >= 0) & (subjects[:, None] == roots[antecedents])
    antecedent_bound = (subjects[antecedents] >= 0) & (subjects[antecedents] == roots[:, None])
    apposed = mentions.apposed_to
    if apposed is not None and (apposed >= 0).any():
        # an appositive of the subject is the subject: "the pianist Glenn Gould ... named him"
        mention_bound |= (subjects[:, None] >= 0) & (subjects[:, None] == apposed[antecedents])
        antecedent_bound |= ((subjects[antecedents] >= 0)
                             & (subjects[antecedents] == apposed[:, None]))
    reflexive = mentions.reflexive[:, None]  # [M, 1]
    forbidden = (mention_bound & ~reflexive) | (antecedent_bound & ~mentions.reflexive[antecedents])
    co = mentions.co_subjects
    if co is not None and (co >= 0).any():
        # a second subject of the same verb is kept from the object too (not required of it)
        forbidden |= (co[:, None] >= 0) & (co[:, None] == roots[antecedents]) & ~reflexive
        forbidden |= ((co[antecedents] >= 0) & (co[antecedents] == roots[:, None])
                      & ~mentions.reflexive[antecedents])
    relative = mentions.relative_head
    if relative is not None and (relative >= 0).any():
        # "the book that she wrote": she is not the book, nor "he" the dictator of "the
        # dictator who he believed was...", nor the butler of "The butler, a man he had met"
        heads = [roots] if apposed is None else [roots, apposed]
        for head in heads:
            forbidden |= (relative[:, None] >= 0) & (relative[:, None] == head[antecedents])
            forbidden |= (relative[antecedents] >= 0) & (relative[antecedents] == head[:, None])
    required = mention_bound & reflexive  # [M, K]
    # two objects of one verb, one of them a pronoun: "serve them with the fish"
    verbs, pronoun = mentions.argument_of, mentions.pronoun
    objects = (verbs[:, None] >= 0) & (verbs[:, None] == verbs[antecedents])
    objects &= pronoun[:, None] | pronoun[antecedents]
    objects &= ~reflexive & ~mentions.reflexive[antecedents]
    objects &= roots[:, None] != roots[antecedents]
    return forbidden | objects, required


def part_possessors(
    clusters: ClusterOffsets, spans: numpy.ndarray, mentions: MentionConstraints
) -> ClusterOffsets:
    """The clusters without each noun phrase whose own possessor shares its cluster ("her
    mother" with "her"). The noun phrase stands alone and is not relinked: its next best
    antecedents were wrong more often than not on the dev sets. Mentions linked through it
    stay.

    clusters (ClusterOffsets): decoded clusters.
    spans (numpy.ndarray): [M, 2] the kept mentions that `mentions` describes.
    mentions (MentionConstraints): their heads and what they are the possessors of.
    RETURNS (ClusterOffsets): the clusters, each sorted, in document order.
    """
    if not (mentions.possessed >= 0).any():
        return clusters
    index = {(int(s), int(e)): i for i, (s, e) in enumerate(spans.tolist())}
    out = []
    for cluster in clusters:
        members = [index.get(tuple(m), -1) for m in cluster]
        owned = {int(mentions.possessed[i]) for i in members if i >= 0} - {-1}
        kept = [m for m, i in zip(cluster, members) if i < 0 or mentions.heads[i] not in owned]
        if len(kept) > 1:
            out.append(kept)
    return sorted(out)


def _forbidden_pairs(
    doc: Doc, scores: CorefScores, spans: numpy.ndarray, forbidden: Optional[numpy.ndarray]
) -> Set[Tuple[MentionOffset, MentionOffset]]:
    """The (pronoun, antecedent) offsets that `forbidden` ([M, K]) keeps apart ("Grace later
    told her"), for the rules that merge clusters after the clustering. Pairs of a name and
    an earlier pronoun are left out: a parse error that gives a verb the wrong subject ("he
    believed ..., but managed to beat Jenkins") would keep a repeated name from its own."""
    if forbidden is None:
        return set()
    q, k = numpy.nonzero(forbidden & valid_antecedents(scores))
    a = numpy.asarray(scores.antecedents)[q, k]
    return {
        (tuple(m), tuple(o))
        for m, o in zip(spans[q].tolist(), spans[a].tolist())
        if m[1] - m[0] == 1 and doc[m[0]].lower_ in AGREEMENT_BY_PRONOUN
    }


def _one_entity_ids(doc: Doc, mentions: Optional[MentionConstraints]) -> Optional[numpy.ndarray]:
    """[M] ids equal for mentions that are one entity, -1 for none (`constrained_clusters`'
    `same_entity`): nested mentions with one head ("Halvard Nyberg (born 1961)" and "Halvard
    Nyberg"), but not a coordination and its first member ("Sofia and her husband Marco");
    None without a parse (no heads)."""
    if mentions is None or not doc.has_annotation("DEP"):
        return None
    return numpy.where(mentions.classes & CONJOINED, -1, mentions.heads)


def _possessor_pairs(
    spans: numpy.ndarray, mentions: MentionConstraints
) -> Set[Tuple[MentionOffset, MentionOffset]]:
    """The (noun phrase, its own possessor) offsets that `part_possessors` keeps apart."""
    owners = numpy.flatnonzero(mentions.possessed >= 0)
    if not len(owners):
        return set()
    by_head: Dict[int, List[int]] = {}
    for j, head in enumerate(mentions.heads.tolist()):
        by_head.setdefault(head, []).append(j)
    return {
        (tuple(spans[j].tolist()), tuple(spans[i].tolist()))
        for i in owners.tolist()
        for j in by_head.get(int(mentions.possessed[i]), ())
    }


def _with_persons(doc: Doc, spans: numpy.ndarray, classes: numpy.ndarray) -> numpy.ndarray:
    """The agreement classes with the persons of pronouns and the bits of speakers' "I"."""
    return speaker_persons(doc, spans, narration_persons(doc, spans, classes))


def _classes_by_mention(
    doc: Doc,
    spans: numpy.ndarray,
    mentions: MentionConstraints,
    person_classes: Optional[numpy.ndarray],
) -> Dict[Tuple[int, int], int]:
    """Each mention's agreement classes with the persons that clustering reads (computed
    there already, or now), for the rules that merge clusters after it."""
    if person_classes is None:
        person_classes = _with_persons(doc, spans, mentions.classes)
    return mention_classes(spans, person_classes)


def antecedents_of_he_and_she(
    doc: Doc, scores: CorefScores, spans: numpy.ndarray, null_score: float
) -> FrozenSet[int]:
    """The mentions that are the best antecedent, above the null score, of a "he" or "she"
    (any case form): people, whatever the entity recognizer calls them ("Wells permitted ...
    He defeated").

    doc (Doc): the doc.
    scores (CorefScores): the model's output for the doc.
    spans (numpy.ndarray): [M, 2] the kept mentions' token offsets.
    null_score (float): the score of "no antecedent".
    RETURNS (FrozenSet[int]): indices of those mentions.
    """
    pair = numpy.asarray(scores.scores)[:, FIRST_ANTECEDENT_COLUMN:]  # [M, K]
    if not pair.size:
        return frozenset()
    one_word = spans[:, 1] - spans[:, 0] == 1
    gendered = [
        i for i in numpy.flatnonzero(one_word).tolist()
        if PRONOUN_CLASS.get(doc[int(spans[i, 0])].lower_) in (MASCULINE, FEMININE)
    ]
    if not gendered:
        return frozenset()
    rows = numpy.asarray(gendered)
    best = pair[rows].argmax(axis=1)  # [G]
    linked = pair[rows, best] > null_score
    return frozenset(numpy.asarray(scores.antecedents)[rows, best][linked].tolist())


def narration_persons(doc: Doc, spans: numpy.ndarray, classes: numpy.ndarray) -> numpy.ndarray:
    """The agreement classes plus each pronoun's person, in a doc without quotation marks (an
    email, a report, a transcript) or with its speakers given: there "I", "we" and "you" are
    the writer or speaker, their side and the reader or listener, never "he" or "they" ("ask
    Daniel ... your team"). In a doc without speakers, "you" is also the reader (READER),
    never the writer's "I". Inside a quote its speaker decides (`quotes.py`), so a quote's
    pronouns are left alone; outside the quotes of a doc whose marks are all paired
    (`quotes.marks_all_paired`) the narration's pronouns get their persons too: a narrator's
    "I" is never "he" (a novel told in the first person), but a "you" there need not be the
    reader. Where a mark is left over, a quote's words may be anywhere and nothing is added.
    Names and nouns have no person ("I, Martin").

    doc (Doc): the doc.
    spans (numpy.ndarray): [M, 2] the mentions' token offsets.
    classes (numpy.ndarray): [M] their agreement classes.
    RETURNS (numpy.ndarray): [M] the classes, with the pronouns' persons (PERSONS).
    """
    speakers = len(doc.spans.get(SPEAKERS_KEY, [])) > 0
    quoted = None
    if not speakers and quotation_mark_positions(doc):
        quotes = find_quotes(doc)
        if not marks_all_paired(doc, quotes):
            return classes
        quoted = numpy.zeros(len(doc), dtype=bool)
        for start, end in quotes:
            quoted[start:end] = True
    classes = classes.copy()
    one_word = numpy.flatnonzero(spans[:, 1] - spans[:, 0] == 1)
    reader = 0 if speakers or quoted is not None else READER
    for i in one_word.tolist():
        start = int(spans[i, 0])
        if quoted is not None and quoted[start]:
            continue
        person = PERSON_OF_PRONOUN.get(doc[start].lower_, 0)
        classes[i] |= person | (reader if person == SECOND_PERSON else 0)
    return classes


def speaker_persons(doc: Doc, spans: numpy.ndarray, classes: numpy.ndarray) -> numpy.ndarray:
    """The classes plus, for each "I", "me", "my", "mine" and "myself" with a known speaker,
    that speaker's bit (SPEAKERS): in a transcript, the first person of two speakers is two
    people, however alike their words. Speakers after the first MAX_SPEAKER_BITS get none.

    doc (Doc): the doc, with its speakers in `doc.spans[SPEAKERS_KEY]` (if any).
    spans (numpy.ndarray): [M, 2] the mentions' token offsets.
    classes (numpy.ndarray): [M] their classes.
    RETURNS (numpy.ndarray): [M] the classes with the speakers' bits.
    """
    if not len(doc.spans.get(SPEAKERS_KEY, [])):
        return classes
    speakers = get_speakers(doc)
    bits: Dict[str, int] = {}
    classes = classes.copy()
    for i in numpy.flatnonzero(spans[:, 1] - spans[:, 0] == 1).tolist():
        token = doc[int(spans[i, 0])]
        speaker = speakers[token.i]
        if speaker is None or token.lower_ not in FIRST_SINGULAR:
            continue
        bit = bits.setdefault(speaker, len(bits))
        if bit < MAX_SPEAKER_BITS:
            classes[i] |= 1 << (FIRST_SPEAKER_BIT + bit)
    return classes


def speakers_you_apart(
    doc: Doc, spans: numpy.ndarray, antecedents: numpy.ndarray
) -> numpy.ndarray:
    """Which candidate antecedents are a speaker's "I" for a "you" said in that speaker's turn,
    or the other way round: in a transcript a turn's "you" is someone else ("Do you have any
    sharp objects on you? ... I need ..." in one turn are two people). Docs without speakers
    have none.

    doc (Doc): the doc, with its speakers in `doc.spans[SPEAKERS_KEY]`.
    spans (numpy.ndarray): [M, 2] the kept mentions.
    antecedents (numpy.ndarray): [M, K] index of each candidate antecedent.
    RETURNS (numpy.ndarray): [M, K] bool.
    """
    speakers = get_speakers(doc)
    first = numpy.full(len(spans), -1, dtype="int64")  # the speaker of an "I"
    second = numpy.full(len(spans), -1, dtype="int64")  # the speaker who says a "you"
    ids: Dict[str, int] = {}
    for i in numpy.flatnonzero(spans[:, 1] - spans[:, 0] == 1).tolist():
        token = doc[int(spans[i, 0])]
        speaker = speakers[token.i]
        if speaker is None:
            continue
        if token.lower_ in FIRST_SINGULAR:
            first[i] = ids.setdefault(speaker, len(ids))
        elif token.lower_ in SECOND:
            second[i] = ids.setdefault(speaker, len(ids))
    mention_i = (first[:, None] >= 0) & (first[:, None] == second[antecedents])
    mention_you = (second[:, None] >= 0) & (second[:, None] == first[antecedents])
    return mention_i | mention_you


def _with_null_scores_by_form(
    doc: Doc,
    scores: CorefScores,
    spans: numpy.ndarray,
    null_score: float,
    by_form: Dict[str, float],
) -> CorefScores:
    """The scores with each one-word mention of a form in `by_form` scored as if its "no
    antecedent" scored that: its real antecedents' scores move by the difference, so that
    every later step, which compares them with `null_score`, sees the same choice."""
    forms = numpy.asarray([hash_string(form) for form in by_form], dtype="uint64")  # [F]
    shifts = numpy.asarray([null_score - value for value in by_form.values()], dtype="float32")
    words = doc.to_array("LOWER").astype("uint64")[spans[:, 0]]  # [M] each mention's first word
    match = (words[:, None] == forms[None, :]) & (spans[:, 1:] - spans[:, :1] == 1)  # [M, F]
    shift = numpy.where(match.any(axis=1), shifts[match.argmax(axis=1)], 0.0)  # [M]
    if not shift.any():
        return scores
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K], a copy
    pair = pair_scores[:, FIRST_ANTECEDENT_COLUMN:]  # [M, K] (a view)
    real = pair > MASKED_SCORE / 2  # [M, K]
    pair += numpy.where(real, shift[:, None], 0.0).astype("float32")  # [M, K]
    return dataclasses.replace(scores, scores=pair_scores)


def _with_whole_names(
    scores: CorefScores, pronoun: numpy.ndarray, whole: numpy.ndarray, first: numpy.ndarray
) -> CorefScores:
    """The scores with no link from a pronoun to part of a name (`whole_phrases.whole_names`):
    to its first words ("Harbor" of "Harbor Airlines") none at all, and a link to its last
    words ("Nakamura" of "Professor Nakamura") given to the whole name, whose score becomes
    the better of the two, where the whole name is among the pronoun's candidates. On the dev
    sets, moving the first words' links too gave GAP 0.1 and OntoGUM 0.03 less, and dropping
    the last words' links GAP 0.5 less (the model then often took another person).

    scores (CorefScores): the model's output for the doc.
    pronoun (numpy.ndarray): [M] bool, the pronouns.
    whole (numpy.ndarray): [M] the index of each mention's whole name, -1 where none.
    first (numpy.ndarray): [M] bool, the parts that are a name's first words.
    RETURNS (CorefScores): the scores, a copy where any changed.
    """
    antecedents = numpy.asarray(scores.antecedents)  # [M, K]
    if not antecedents.size or not pronoun.any() or (whole < 0).all():
        return scores
    parts = pronoun[:, None] & (whole[antecedents] >= 0) & valid_antecedents(scores)  # [M, K]
    if not parts.any():
        return scores
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K], a copy
    pair = pair_scores[:, FIRST_ANTECEDENT_COLUMN:]  # [M, K] (a view)
    for m, k in zip(*numpy.nonzero(parts)):
        part = antecedents[m, k]
        columns = numpy.flatnonzero(antecedents[m] == whole[part])
        moved = len(columns) > 0 and pair[m, columns[0]] > MASKED_SCORE / 2
        if moved and not first[part]:
            pair[m, columns[0]] = max(pair[m, columns[0]], pair[m, k])
        if moved or first[part]:
            pair[m, k] = MASKED_SCORE
    return dataclasses.replace(scores, scores=pair_scores)


def _lowered(scores: CorefScores, pairs: numpy.ndarray, margin: float) -> CorefScores:
    """The scores with the (mention, antecedent) `pairs` ([M, K] bool) lowered by `margin`."""
    if not pairs.any():
        return scores
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K], a copy
    pair_scores[:, FIRST_ANTECEDENT_COLUMN:][pairs] -= margin
    return dataclasses.replace(scores, scores=pair_scores)


def _without_antecedents(scores: CorefScores, rows: numpy.ndarray) -> CorefScores:
    """The scores with no antecedent for the mentions of `rows` ([M] bool)."""
    if not rows.any():
        return scores
    pair_scores = numpy.array(scores.scores, dtype="float32")  # [M, 1 + K], a copy
    pair_scores[rows, FIRST_ANTECEDENT_COLUMN:] = MASKED_SCORE
    return dataclasses.replace(scores, scores=pair_scores)


def conflicting_classes(classes: int) -> int:
    """The classes (bit flags) that cannot join a cluster holding `classes`."""
    out = 0
    for flag, conflicts in CONFLICTS.items():
        if classes & flag:
            out |= conflicts
    speakers = classes & SPEAKERS
    if speakers:
        # another speaker's "I"; with two speakers' already, any speaker's; and "he" or "she"
        out |= SPEAKERS if speakers & (speakers - 1) else SPEAKERS & ~speakers
        out |= MASCULINE | FEMININE
    return out


def _agreement_class(
    span, root: Token, parsed: bool, first_names: bool, names: FrozenSet[int] = frozenset()
) -> int:
    if parsed and len(span) > 1 and any(t.dep_ == "conj" and t.head == root for t in span):
        return PLURAL | CONJOINED  # "me and Isabel", "Sofia and her husband"
    if len(span) == 1 or root.pos_ == "PRON":
        pronoun = AGREEMENT_BY_PRONOUN.get(root.lower_)
        if pronoun is not None:
            return pronoun
    if first_names and len(span) == 1 and root.lower_ in PLACE_ADVERBS:
        return PLACE
    if not parsed:
        # no parse: a name alone ("Alice", "Alice Okafor", "Dr. Alice Okafor"), or a short
        # phrase by its last word ("the defendant"; `_unparsed_constraints`)
        if not first_names:
            return 0
        named = 0
        short = len(span) <= MAX_UNPARSED_NOUN_WORDS and not any(t.is_punct for t in span)
        if all(t.is_title for t in span):
            named = _first_name_class(span)
            if not named and span.start > 0 and span.doc[span.start - 1].is_title:
                # "Ellison" of "Ruth Ellison", "Haddad" of "Mrs. Haddad"
                before = span.doc[span.start - 1]
                named = FIRST_NAME_CLASS.get(before.text, 0) or GENDERED_WORDS.get(
                    before.lower_, 0
                )
        if not named and any(_joins_phrases(t) for t in span[1:-1]):
            return PLURAL | CONJOINED  # a coordination: "Ann and her student"
        if not named and len(span) > 1 and short and span[-1].is_lower:
            named = _NOUN_CLASS.get(span[-1].lower_, 0)
        if not named:
            named = _appositive_name_class(span)
        return named
    if root.pos_ == "PRON":
        return 0
    if root.tag_ == "NNS" and not (first_names and _plural_tagged_name(root, names)):
        return PLURAL
    if root.tag_ == "NNPS" and _family_name(root):
        return PLURAL  # "the Haddads" of "Mrs. Haddad"
    if root.lower_ in GROUP_WORDS:
        return PLURAL
    # the head noun, or a title before it ("Mrs. Okafor", "Queen Ana"), in decoding also one
    # just outside the span: "Okafor" inside "Mrs. Okafor" is a mention too, and the same
    # woman (the model's features read the span as they were trained)
    name = [t for t in span if t.i < root.i and t.dep_ == "compound"] + [root]  # in order
    outside = [t for t in root.lefts if t.i < span.start and t.dep_ == "compound"]
    outside = outside if first_names else []
    for token in (root, *name[:-1], *outside):
        gendered = GENDERED_WORDS.get(token.lemma_.lower()) or GENDERED_WORDS.get(token.lower_)
        if gendered:
            return gendered
    if root.pos_ == "NOUN":
        named = _naming_name_class(span, root) if first_names else 0
        if named:
            return named  # "an elderly teacher called Mr. Patel"
        if root.lemma_.lower() in PERSON_NOUNS or root.lower_ in PERSON_NOUNS:
            return HUMAN
        if root.lower_ in COLLECTIVE_NOUNS:
            return COLLECTIVE  # "the jury"
        if first_names and root.is_lower and (
            root.lemma_.lower() in THING_NOUNS or root.lower_ in THING_NOUNS
        ):
            return NEUTER  # "his garden", "the meeting": never "he" or "she"
    if first_names and in_company_name(span):
        return COLLECTIVE  # "Norvell Energy", and its "Norvell": "it" or "they", not "she"
    # a small tagger calls a rarer first name a noun ("Isabel beat Marco"), and its NER calls
    # a lone first name an organisation or a place ("Sigrid met Rohan": both ORG)
    person = root.pos_ in NAME_POS and root.is_title and (
        root.ent_type_ in PERSON_ENTS
        or (len(span) == 1 and not (root.ent_type_ in PLACE_ENTS and root.text in PLACE_NAMES))
    )
    if first_names and person:
        return _first_name_class(name) or _apposition_class(root) or _titled_person(
            root, (*name[:-1], *outside)
        )
    return 0


def _joins_phrases(token: Token) -> bool:
    """Whether an "and" inside a span without a parse joins two phrases ("Ann and her
    student"), not two adjectives ("that black and flaming cabin": the word before it is
    usually an adjective)."""
    if token.lower_ != "and":
        return False
    return load_word_tags().get(token.doc[token.i - 1].lower_) != "ADJ"


def _titled_person(root: Token, before: Sequence[Token]) -> int:
    """HUMAN for a name after a title that only a person bears ("Professor Nakamura",
    "Senator Grady"; not "St Peters" or "General Motors"), whatever its gender: never "it"."""
    if root.ent_type_ not in PERSON_ENTS:
        return 0
    titled = any(t.lower_ in NEUTRAL_TITLES and t.lower_ not in PLACE_TITLES for t in before)
    return HUMAN if titled else 0


def _capitalised_mid_sentence(doc: Doc) -> FrozenSet[int]:
    """The capitalised words (ORTH ids) of a doc that stand somewhere inside a sentence:
    names."""
    if not len(doc):
        return frozenset()
    orth, title, sent_start = doc.to_array(["ORTH", "IS_TITLE", "SENT_START"]).T
    return frozenset(orth[(title == 1) & (sent_start != 1)].tolist())


def _plural_tagged_name(token: Token, names: FrozenSet[int]) -> bool:
    """Whether a word tagged as a plural noun is a name: the small tagger tags names that end
    in "s" so ("Simmons", "Hicks"), and "he" could then not take them. A capitalised word that
    the NER calls a person, or that is capitalised inside a sentence (`names`), which a
    plural noun is only at the start of one ("Farmers planted corn")."""
    return token.is_title and (token.ent_type_ == "PERSON" or token.orth in names)


def _family_name(token: Token) -> bool:
    """Whether a plural proper noun after "the" names a family: its singular is a person's
    name elsewhere in the doc, after a title or called a person ("the Haddads" and "Mrs.
    Haddad"; not "the United States", "General Motors")."""
    if not any(child.lower_ == "the" for child in token.lefts):
        return False
    text, doc = token.text, token.doc
    singulars = {text[:-1], text[:-2]} if text.endswith("es") else {text[:-1]}
    hashes = numpy.asarray([hash_string(word) for word in singulars], dtype="uint64")
    for i in numpy.flatnonzero(numpy.isin(doc.to_array("ORTH"), hashes)).tolist():
        other = doc[i]
        if other.i != token.i:
            before = doc[other.i - 1] if other.i > 0 else None
            titled = before is not None and (
                before.lower_ in GENDERED_WORDS or before.lower_ in NEUTRAL_TITLES
            )
            if titled or other.ent_type_ == "PERSON":
                return True
    return False


def _naming_name_class(span, noun: Token) -> int:
    """The gender of a person's name inside the span that names its head noun, by its title or
    first name: "an elderly teacher called Mr. Patel", "the mayor, Ana Ruiz", and through an
    appositive noun, "her neighbour, a teacher called Mr. Patel"."""
    for child in noun.children:
        if not span.start <= child.i < span.end:
            continue
        names = [child] if child.dep_ == "appos" else []
        if child.dep_ == "acl":
            names = [t for t in child.children if is_naming_participle_object(t)]
        elif child.dep_ == "appos" and child.pos_ == "NOUN":
            # "her neighbour, an elderly teacher called Mr. Patel"
            gender = _naming_name_class(span, child)
            if gender:
                return gender
        for name in names:
            if name.pos_ != "PROPN" or name.ent_type_ not in PERSON_ENTS:
                continue
            words = [t for t in name.lefts if t.dep_ == "compound"] + [name]
            for word in words:
                gendered = GENDERED_WORDS.get(word.lower_)
                if gendered:
                    return gendered
            gender = _first_name_class(words)
            if gender:
                return gender
    return 0


def _apposition_class(name: Token) -> int:
    """The gender of a noun in apposition with a name: "his sister Mara", "Mara, his sister"
    (for a name in no first-name list)."""
    nouns = [t for t in name.children if t.dep_ == "appos"]
    if name.dep_ == "appos":
        nouns.append(name.head)
    for noun in nouns:
        if noun.pos_ == "NOUN":
            gendered = GENDERED_WORDS.get(noun.lemma_.lower()) or GENDERED_WORDS.get(noun.lower_)
            if gendered:
                return gendered
    return 0


def _appositive_name_class(span) -> int:
    """Without a parse, the gender of a name that ends a phrase after a comma: "The mayor of
    Lindholm, Greta Sundqvist" (the first name, or the word after it, ends the span)."""
    for size in (1, 2):
        start = span.end - size
        if start - 1 <= span.start or span.doc[start - 1].text != ",":
            continue
        first = span.doc[start]
        if size == 2 and not (span[-1].is_title and span[-1].lower_ not in GENDERED_WORDS):
            continue
        gender = FIRST_NAME_CLASS.get(first.text, 0)
        if gender:
            return gender
    return 0


def _first_name_class(name: Sequence[Token]) -> int:
    """The class of a person's name by its first name: the first of its words that is not a
    title ("Dr. Alice Okafor": Alice; "Okafor" alone: none); else by a gendered title it
    starts with ("Mrs. Novak", "Uncle Raj")."""
    titled = GENDERED_WORDS.get(name[0].lower_, 0) if len(name) else 0
    for token in name:
        if token.lower_ not in GENDERED_WORDS and token.lower_ not in NEUTRAL_TITLES:
            return FIRST_NAME_CLASS.get(token.text, 0) or titled
    return titled


def _first_or_second_person(token: Token) -> bool:
    """I, me, we, you...: their binding is left to the model, since a parse error inside
    a narrator's sentence would otherwise split a whole first-person narrative."""
    return token.pos_ == "PRON" and bool(set(token.morph.get("Person")) & {"1", "2"})


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


def _relative_clause_subject(root: Token) -> bool:
    """Whether `root` is the subject of a relative clause, not one of "be" or a verb like it
    ("the woman she was" may be she)."""
    clause = root.head
    return (
        root.dep_ in SUBJECT_DEPS
        and clause.dep_ == "relcl"
        and clause.lemma_ not in COPULAR_LEMMAS
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


def _verb_of_object(root: Token) -> int:
    """The verb whose object or prepositional object `root` is, or -1."""
    if root.dep_ in OBJECT_DEPS and root.head.pos_ in VERB_POS:
        return root.head.i
    if root.dep_ == "pobj" and root.head.dep_ == "prep" and root.head.head.pos_ in VERB_POS:
        return root.head.head.i
    return -1


def _co_subject(subject: Token) -> int:
    """The token index of another subject of `subject`'s verb, -1 if it has none."""
    if subject.dep_ not in SUBJECT_DEPS:
        return -1  # a relative clause's antecedent or a controller
    other = [t for t in subject.head.children if t.dep_ in SUBJECT_DEPS and t.i != subject.i]
    return other[0].i if other else -1


def _binding_subject(root: Token, reflexive: bool, controlled: bool = True) -> Optional[Token]:
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
