"""What the decoding knows of each mention of a doc (`MentionConstraints`): its agreement class,
head, binding subject, reflexivity, what it is the possessor of, whether it is indefinite, and
the verb it is an argument of, read once per mention. With a parse (`mention_constraints`),
from the heads and labels; without one (`_unparsed_constraints`, the fast pipeline, about ten
candidate spans per token), from each token's form, as array operations. The classes are the
bit flags of `mention_classes.py`; the roles come from `clause_roles.py`.
"""
from typing import Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Tuple

import numpy
from spacy.strings import hash_string
from spacy.symbols import PRON
from spacy.tokens import Doc, Token

from ..lang.en import english  # titles
from ..profiling import ANALYSIS, section
from .clause_roles import (
    binding_subject, co_subject, first_or_second_person, relative_clause_subject, verb_of_object,
)
from .company_names import (
    company_run_ends, company_short_names, in_company_name, unparsed_company_short_names,
)
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
    REFLEXIVES,
)
from .name_words import PERSON_ENTS, is_naming_participle_object
from .person_nouns import COLLECTIVE_NOUNS, PERSON_NOUNS
from .thing_nouns import THING_NOUNS
from .word_tags import TAG_CODES, load_word_tags, tag_codes

_EN = english()

INDEFINITE_ARTICLES = set(_EN.words("indefinite_determiners"))  # a, an, another
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
MAX_UNPARSED_NOUN_WORDS = 4


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
        return _unparsed_constraints(doc, numpy.asarray(spans, dtype="int64").reshape((n, 2)),
                                     first_names)
    (mentions,) = parsed_variants(doc, spans, ((first_names, controlled),))
    if first_names:
        share_name_classes(doc, spans, mentions.classes)
    return mentions


def parsed_variants(
    doc: Doc, spans: Sequence[Sequence[int]], variants: Sequence[Tuple[bool, bool]]
) -> List[MentionConstraints]:
    """`mention_constraints` of a parsed doc for each (first_names, controlled) variant, each
    span read once for all of them; the classes before `share_name_classes`, which reads the
    other mentions."""
    n = len(spans)
    roots = numpy.full(n, -1, dtype="int64")
    reflexive = numpy.zeros(n, dtype=bool)
    heads = numpy.full(n, -1, dtype="int64")
    possessed = numpy.full(n, -1, dtype="int64")
    indefinite = numpy.zeros(n, dtype=bool)
    argument_of = numpy.full(n, -1, dtype="int64")
    pronoun = numpy.zeros(n, dtype=bool)
    apposed_to = numpy.full(n, -1, dtype="int64")
    classes = [numpy.zeros(n, dtype="int64") for _ in variants]
    subjects = [numpy.full(n, -1, dtype="int64") for _ in variants]
    co_subjects = [numpy.full(n, -1, dtype="int64") for _ in variants]
    relative_head = [numpy.full(n, -1, dtype="int64") for _ in variants]
    names = _capitalised_mid_sentence(doc) if any(f for f, _ in variants) else frozenset()
    for i, (start, end) in enumerate(spans):
        span = doc[int(start) : int(end)]
        root = span.root
        for v, (first_names, _) in enumerate(variants):
            classes[v][i] = agreement_class(
                span, root, True, first_names, names if first_names else frozenset()
            )
        reflexive[i] = len(span) == 1 and (
            root.lower_ in REFLEXIVES or "Yes" in root.morph.get("Reflex")
        )
        heads[i] = root.i
        if root.dep_ == "poss" and root.head.lower_ not in ADDRESS_TITLES:
            possessed[i] = root.head.i
        indefinite[i] = span[0].lower_ in INDEFINITE_ARTICLES and root.pos_ == "NOUN"
        argument_of[i] = verb_of_object(root)
        pronoun[i] = len(span) == 1 and root.tag_ == "PRP"
        if root.dep_ == "appos":
            apposed_to[i] = root.head.i
        # (third person only, as binding: a narrator's "I" is bound by no clause)
        personal = first_or_second_person(root)
        if pronoun[i] and not personal and relative_clause_subject(root):
            noun = root.head.head
            # "The butler, a man he had met": the noun the appositive stands for
            for v, (_, controlled) in enumerate(variants):
                if controlled:
                    relative_head[v][i] = noun.head.i if noun.dep_ == "appos" else noun.i
        if not personal:
            roots[i] = root.i
            for v, (_, controlled) in enumerate(variants):
                subject = binding_subject(root, reflexive[i], controlled)
                subjects[v][i] = -1 if subject is None else subject.i
                if controlled and subject is not None:
                    co_subjects[v][i] = co_subject(subject)
    return [
        MentionConstraints(
            classes[v], roots, subjects[v], reflexive, heads, possessed, indefinite,
            argument_of, pronoun, co_subjects[v] if controlled else None, apposed_to,
            relative_head[v],
        )
        for v, (_, controlled) in enumerate(variants)
    ]


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


# Without a parse: each token is read once, as arrays (`_unparsed_constraints`).
_AND_HASH = hash_string("and")
_COMMA_HASH = hash_string(",")


def _unparsed_constraints(doc: Doc, spans: numpy.ndarray, first_names: bool) -> MentionConstraints:
    """`mention_constraints` of a doc without a parse, as arrays: the fast pipeline's
    candidates are every short span, about ten per token, so each token is read once and the
    spans only index what was read. Each span gets what `agreement_class` gives it alone."""
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
