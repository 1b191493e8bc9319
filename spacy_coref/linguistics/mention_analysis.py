"""What the decoding knows of each mention of a doc (`MentionConstraints`): its agreement class,
head, binding subject, reflexivity, what it is the possessor of, whether it is indefinite, and
the verb it is an argument of, read once per mention (`mention_constraints`). With a parse, from
the doc's heads and labels read as arrays (`parse_arrays.py`), the noun phrases' classes and the
binding subjects by the rules below; without one (`unparsed_analysis.py`, the fast pipeline),
from each token's form. `agreement_class` gives the class of one span by the rules that the
arrays follow. The classes are the bit flags of `mention_classes.py`; the roles come from
`clause_roles.py`.
"""
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

import numpy
from spacy.strings import get_string_id
from spacy.symbols import NOUN, PRON
from spacy.tokens import Doc, Token

from ..lang.en import english  # titles
from ..profiling import ANALYSIS, section
from .clause_roles import binding_subject, co_subject, objects_of, relative_clause_subjects
from .company_names import company_short_names, in_company_name
from .first_names import NEUTRAL_TITLES, PLACE_NAMES
from .mention_classes import (
    AGREEMENT_BY_PRONOUN,
    COLLECTIVE,
    CONJOINED,
    FEMININE,
    FIRST_NAME_CLASS,
    GENDERED_WORDS,
    HUMAN,
    MASCULINE,
    NEUTER,
    PLACE,
    PLURAL,
)
from .mention_constraints import MentionConstraints
from .mention_words import (
    INDEFINITE_TABLE, MAX_UNPARSED_NOUN_WORDS, NOUN_CLASS, PRONOUN_TABLE, REFLEXIVE_TABLE,
)
from .name_words import PERSON_ENTS, is_naming_participle_object
from .parse_arrays import ParseArrays, ids, morph_has, parse_arrays
from .person_nouns import COLLECTIVE_NOUNS, PERSON_NOUNS
from .span_roots import span_roots
from .thing_nouns import THING_NOUNS
from .unparsed_analysis import unparsed_constraints
from .word_tables import contains, look_up, word_table
from .word_tags import load_word_tags

_EN = english()

NAME_POS = {"PROPN", "NOUN"}
# Heads that make a mention a group of more than one ("the two of them", "both"): plural
# whatever its tag, which is CD or DT and no plural noun's NNS.
GROUP_WORDS = set(_EN.words("group_words"))  # "two", ..., "both", "dozen", "pair"
# entity types of places, where a lone first name that is also a place's name is read as one
PLACE_ENTS = {"GPE", "LOC", "FAC"}
PLACE_ADVERBS = _EN.words("place_adverbs")  # here, there
# titles that also start the names of places and institutions ("St Peters", "St. Louis")
PLACE_TITLES = _EN.place_titles
# Forms of address whose possessor is the one addressed: "your Ladyship" is "you"
ADDRESS_TITLES = set(_EN.address_titles)


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
    with section(ANALYSIS):
        return _mention_constraints(doc, spans, first_names, controlled)


def _mention_constraints(
    doc: Doc, spans: Sequence[Sequence[int]], first_names: bool, controlled: bool
) -> MentionConstraints:
    n = len(spans)
    if not doc.has_annotation("DEP"):
        spans = numpy.asarray(spans, dtype="int64").reshape((n, 2))
        return unparsed_constraints(doc, spans, first_names)
    (mentions,) = parsed_variants(doc, spans, ((first_names, controlled),))
    if first_names:
        share_name_classes(doc, spans, mentions.classes)
    return mentions


def parsed_variants(
    doc: Doc, spans: Sequence[Sequence[int]], variants: Sequence[Tuple[bool, bool]]
) -> List[MentionConstraints]:
    """`mention_constraints` of a parsed doc for each (first_names, controlled) variant, each
    span read once for all of them; the classes before `share_name_classes`, which reads the
    other mentions. What a span's head decides is read from the doc's arrays for all spans at
    once; a Span is made only for the classes of noun phrases and names, and Tokens only for
    the binding subjects, once per distinct head."""
    spans = numpy.asarray(spans, dtype="int64").reshape((-1, 2))
    n = len(spans)
    starts, ends = spans[:, 0], spans[:, 1]
    parse = parse_arrays(doc)
    root = span_roots(doc, spans)  # [n]
    single = ends - starts == 1
    head = parse.head[root]
    dep, pos = parse.dep[root], parse.pos[root]
    reflexive_word = contains(parse.lower, REFLEXIVE_TABLE)
    reflexive_word |= morph_has(doc, parse.morph, "Reflex", ("Yes",))
    reflexive = single & reflexive_word[root]
    address = contains(parse.lower[head], _ADDRESS_TABLE)
    possessed = numpy.where((dep == _POSS) & ~address, head, -1)
    indefinite = contains(parse.lower[starts], INDEFINITE_TABLE) & (pos == NOUN)
    argument_of = objects_of(parse)[root]
    pronoun = single & (parse.tag[root] == _PRP)
    apposed_to = numpy.where(dep == _APPOS, head, -1)
    # I, me, we, you (`first_or_second_person`): bound by no clause
    personal = ((parse.pos == PRON) & morph_has(doc, parse.morph, "Person", ("1", "2")))[root]
    # a pronoun that is the subject of a relative clause is not the noun the clause modifies
    # ("the dictator who he believed was..."), nor what that noun is an appositive of
    relative = pronoun & ~personal & relative_clause_subjects(parse)[root]
    noun = parse.head[head]
    relative_noun = numpy.where(relative, numpy.where(parse.dep[noun] == _APPOS,
                                                      parse.head[noun], noun), -1)
    names = _capitalised_mid_sentence(doc) if any(f for f, _ in variants) else frozenset()
    classes = _parsed_classes(doc, spans, root, parse, variants, names)
    subjects, co_subjects = _binding_subjects(doc, root, reflexive, personal, variants)
    roots = numpy.where(personal, -1, root)
    return [
        MentionConstraints(
            classes[v], roots, subjects[v], reflexive, root.copy(), possessed, indefinite,
            argument_of, pronoun, co_subjects[v] if controlled else None, apposed_to,
            relative_noun.copy() if controlled else numpy.full(n, -1, dtype="int64"),
        )
        for v, (_, controlled) in enumerate(variants)
    ]


def _parsed_classes(
    doc: Doc, spans: numpy.ndarray, root: numpy.ndarray, parse: ParseArrays,
    variants: Sequence[Tuple[bool, bool]], names: FrozenSet[int],
) -> List[numpy.ndarray]:
    """Each variant's `agreement_class` of every span: what the span's form decides as arrays
    (a coordination, a pronoun, "here" and "there"), the noun phrases and names one by one."""
    starts, ends = spans[:, 0], spans[:, 1]
    single = ends - starts == 1
    # "Sofia and her husband": a token of the span joined to its head by "conj"
    conj = numpy.flatnonzero((parse.dep == _CONJ) & (parse.head != numpy.arange(len(doc))))
    keys = numpy.sort(parse.head[conj] * (len(doc) + 1) + conj)  # (head, token), in order
    first = numpy.searchsorted(keys, root * (len(doc) + 1) + starts)
    last = numpy.searchsorted(keys, root * (len(doc) + 1) + ends)
    conjoined = ~single & (last > first)
    lower = parse.lower[root]
    by_pronoun = (single | (parse.pos[root] == PRON)) & contains(lower, PRONOUN_TABLE)
    place = single & contains(lower, _PLACE_ADVERB_TABLE)
    found = []
    for first_names, _ in variants:
        decided = conjoined | by_pronoun | (place if first_names else False)
        classes = numpy.where(
            conjoined, PLURAL | CONJOINED,
            numpy.where(by_pronoun, look_up(lower, PRONOUN_TABLE), numpy.where(place, PLACE, 0)),
        )
        found.append(numpy.where(decided, classes, 0))
    # the noun phrases and names: the compounds of a name read off the arrays, once for all
    # variants ("Mrs." of "Mrs. Okafor" inside the span, and just before it)
    compounds = numpy.flatnonzero(parse.dep == _COMPOUND)
    name_from, name_to = numpy.searchsorted(compounds, starts), numpy.searchsorted(compounds, root)
    lefts: Dict[int, List[int]] = {}  # a head's compounds before it, in order (`Token.lefts`)
    for j, h in zip(compounds.tolist(), parse.head[compounds].tolist()):
        if h > j:
            lefts.setdefault(h, []).append(j)
    for i in numpy.flatnonzero(~conjoined & ~by_pronoun & (parse.pos[root] != PRON)).tolist():
        start, head = int(starts[i]), int(root[i])
        span, token = doc[start : int(ends[i])], doc[head]
        name = [doc[j] for j in compounds[name_from[i] : name_to[i]].tolist()] + [token]
        outside = [doc[j] for j in lefts.get(head, ()) if j < start]
        for v, (first_names, _) in enumerate(variants):
            if not (first_names and place[i]):
                found[v][i] = _noun_class(span, token, first_names,
                                          names if first_names else frozenset(), name, outside)
    return found


def _binding_subjects(
    doc: Doc, root: numpy.ndarray, reflexive: numpy.ndarray, personal: numpy.ndarray,
    variants: Sequence[Tuple[bool, bool]],
) -> Tuple[List[numpy.ndarray], List[numpy.ndarray]]:
    """Each variant's `binding_subject` and `co_subject` of every span (-1 for none, and for
    I, we and you), read once per distinct (head, reflexive)."""
    n = len(root)
    subjects = [numpy.full(n, -1, dtype="int64") for _ in variants]
    co_subjects = [numpy.full(n, -1, dtype="int64") for _ in variants]
    rows = numpy.flatnonzero(~personal)
    pairs, where = numpy.unique(root[rows] * 2 + reflexive[rows], return_inverse=True)
    where = where.reshape(-1)
    for v, (_, controlled) in enumerate(variants):
        subject = numpy.full(len(pairs), -1, dtype="int64")
        co_subject_of = numpy.full(len(pairs), -1, dtype="int64")
        for k, pair in enumerate(pairs.tolist()):
            found = binding_subject(doc[pair // 2], bool(pair % 2), controlled)
            if found is not None:
                subject[k] = found.i
                if controlled:
                    co_subject_of[k] = co_subject(found)
        subjects[v][rows] = subject[where]
        co_subjects[v][rows] = co_subject_of[where]
    return subjects, co_subjects


def share_name_classes(doc: Doc, spans: Sequence[Sequence[int]], classes: numpy.ndarray) -> None:
    """In place: what one mention of a name tells of the doc's other mentions of it (an
    apposition's gender, a full name's for its surname, a company's for its words)."""
    _share_apposition_classes(doc, spans, classes)
    _share_surname_classes(doc, spans, classes)
    _share_company_classes(doc, spans, classes)


def one_entity_ids(doc: Doc, mentions: Optional[MentionConstraints]) -> Optional[numpy.ndarray]:
    """[M] ids equal for mentions that are one entity, -1 for none (`constrained_clusters`'
    `same_entity`): nested mentions with one head ("Halvard Nyberg (born 1961)" and "Halvard
    Nyberg"), but not a coordination and its first member ("Sofia and her husband Marco");
    None without a parse (no heads)."""
    if mentions is None or not doc.has_annotation("DEP"):
        return None
    return numpy.where(mentions.classes & CONJOINED, -1, mentions.heads)


def agreement_class(
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
        # phrase by its last word ("the defendant"; `unparsed_analysis.py`)
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
            named = NOUN_CLASS.get(span[-1].lower_, 0)
        if not named:
            named = _appositive_name_class(span)
        return named
    # the head noun, or a title before it ("Mrs. Okafor", "Queen Ana"), in decoding also one
    # just outside the span: "Okafor" inside "Mrs. Okafor" is a mention too, and the same
    # woman (the model's features read the span as they were trained)
    name = [t for t in span if t.i < root.i and t.dep_ == "compound"] + [root]  # in order
    outside = [t for t in root.lefts if t.i < span.start and t.dep_ == "compound"]
    return _noun_class(span, root, first_names, names, name, outside)


def _noun_class(
    span, root: Token, first_names: bool, names: FrozenSet[int], name: Sequence[Token],
    outside: Sequence[Token],
) -> int:
    """`agreement_class` of a parsed span that is not a coordination, a pronoun of the lists
    or "here" or "there": by its head noun, its name (`name`: the compounds before the head
    inside the span, then the head) or a title (also one of `outside`, the head's compounds
    before the span)."""
    if root.pos_ == "PRON":
        return 0
    if root.tag_ == "NNS" and not (first_names and _plural_tagged_name(root, names)):
        return PLURAL
    if root.tag_ == "NNPS" and _family_name(root):
        return PLURAL  # "the Haddads" of "Mrs. Haddad"
    if root.lower_ in GROUP_WORDS:
        return PLURAL
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
    hashes = numpy.asarray([get_string_id(word) for word in singulars], dtype="uint64")
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


_ADDRESS_TABLE = word_table(ADDRESS_TITLES)
_PLACE_ADVERB_TABLE = word_table(PLACE_ADVERBS)
_POSS, _APPOS, _CONJ, _COMPOUND, _PRP = ids(("poss", "appos", "conj", "compound", "PRP"))
_POSS, _APPOS, _CONJ, _COMPOUND, _PRP = ids(("poss", "appos", "conj", "compound", "PRP"))
