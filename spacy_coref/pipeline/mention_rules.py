"""Rule-based candidate mentions over a parsed `Doc`, after Neuralcoref's extractor.

The rules follow the mention extraction of Neuralcoref (Wolf, 2017, seed 003; the released
`extract_mentions_spans`), written anew on spaCy 3's API and tuned on the train splits of LitBank
and OntoGUM. They read the dependency parse, the POS tags and the entities, and they are pure:
`read_parse` takes what they need from the doc in one pass, every rule maps that view to
`(start, end)` token offsets (end exclusive), and `extract_mentions` trims, filters and merges.

A nominal head yields spans that share its left edge and end after the head, after each of its
right dependents up to the first conjunct or appositive, or after its whole subtree: "[[the
king] of France]", and "[[the king of France], who ...]". Coordinations and appositions add the
spans through their conjuncts and appositives; pronouns, possessives, names and entities add
their own. Filters then drop what cannot refer.
"""
from itertools import accumulate
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, NamedTuple, Sequence, Set

from spacy.parts_of_speech import IDS as POS_IDS
from spacy.strings import get_string_id
from spacy.tokens import Doc

from ..linguistics.quotations import GREETINGS
from ..linguistics.transcripts import turn_labels
from ..types import MentionOffset, MentionOffsets


def _ids(*labels: str) -> FrozenSet[int]:
    return frozenset(get_string_id(label) for label in labels)


def _pos(*tags: str) -> FrozenSet[int]:
    return frozenset(POS_IDS[tag] for tag in tags)


# fmt: off
# Dependency labels: ClearNLP's (spaCy's English pipelines) plus their UD counterparts.
ARGUMENT_DEPS = _ids("nsubj", "nsubjpass", "nsubj:pass", "dobj", "obj", "iobj", "dative", "pobj",
                     "obl", "attr", "oprd", "appos", "conj", "npadvmod", "ROOT", "root", "dep")
CONJ_DEPS = _ids("conj")
APPOS_DEPS = _ids("appos")
POSS_DEPS = _ids("poss", "nmod:poss")
COMPOUND_DEPS = _ids("compound", "flat")
# Right dependents after which a noun phrase is no longer one mention but several.
BREAK_DEPS = _ids("conj", "cc", "appos", "punct", "parataxis")
# Left dependents that a mention may leave out: "even [the king]", "all [the rest]".
SKIPPABLE_LEFT_DEPS = _ids("predet", "preconj", "advmod", "cc", "punct", "neg", "quantmod")
# No mention starts or ends with punctuation, a space or a conjunction, and none starts with a
# preposition or with "'s", "either" or "that" (it may end with one: "the man he spoke [of]").
BAD_EDGE_POS = _pos("PUNCT", "SPACE", "CCONJ", "SCONJ")
BAD_START_POS = _pos("ADP")
# nor with an infinitive's "to" ("promoted her [to leader]": the parser read a verb)
BAD_START_TAGS = _ids("TO")
ADP = POS_IDS["ADP"]
BAD_START_DEPS = _ids("case", "cc", "preconj", "punct", "mark")
NOMINAL_POS = _pos("NOUN", "PROPN", "NUM")
# These head a noun phrase only as arguments: "[the other]", "[his eldest]", "[them all]".
ARGUMENT_POS = _pos("ADJ", "DET", "PRON", "X")
ADJ, DET, NUM = POS_IDS["ADJ"], POS_IDS["DET"], POS_IDS["NUM"]
PRON, PROPN, VERB = POS_IDS["PRON"], POS_IDS["PROPN"], POS_IDS["VERB"]
# Relative and interrogative pronouns ("who", "which") and expletive "there" do not refer.
NON_REFERRING_TAGS = _ids("WP", "WDT", "WP$", "EX")
NOT_PRONOUN_DEPS = _ids("det", "predet", "mark")
DEMONSTRATIVES = _ids("this", "that", "these", "those")
LOCATIVES = _ids("here", "there")
# "It" is pleonastic as an expletive, as the subject of a weather verb ("it rained"), of a
# raising verb with a that-clause ("it seems that"), or of a copula with an adjective and a
# clause ("it is clear that", "it is hard to say").
IT = get_string_id("it")
EXPL, CCOMP, ACOMP = (get_string_id(label) for label in ("expl", "ccomp", "acomp"))
SUBJECT_DEPS = _ids("nsubj", "nsubjpass", "nsubj:pass", "expl")
CLAUSE_DEPS = _ids("ccomp", "xcomp", "csubj")
# Inflected forms too, for pipelines without a lemmatizer.
RAISING_VERBS = _ids("seem", "seems", "seemed", "appear", "appears", "appeared", "happen",
                     "happens", "happened", "occur", "occurs", "occurred", "turn", "turns",
                     "turned")
COPULAS = _ids("be", "is", "'s", "was", "were", "been", "being", "become", "becomes", "became",
               "remain", "remains", "remained")
WEATHER_VERBS = _ids("rain", "rains", "rained", "raining", "snow", "snows", "snowed", "snowing",
                     "hail", "hailed", "hailing", "thunder", "thundered", "thundering", "drizzle",
                     "drizzled", "drizzling", "sleet")
PERSON = get_string_id("PERSON")
# Curly quotes pair like brackets: "[the shore of the “ holy lake ”]". Straight ones do not say
# which way they face.
OPENING = _ids("(", "[", "“")
CLOSING = _ids(")", "]", "”")
PREP = get_string_id("prep")
OBJECT_DEPS = _ids("pobj", "pcomp")
# Prepositions that join the parts of a name ("the Bank [of] England") or say where a person is
# from ("Smith [from] accounting"): a name keeps its phrase with these.
NAME_PREPOSITIONS = _ids("of", "from")
NUMERIC_ENT_LABELS = _ids("DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL")
DEFAULT_ENT_LABELS = ("PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT",
                      "WORK_OF_ART", "LAW", "LANGUAGE")
_ATTRS = [
    "POS", "DEP", "TAG", "LOWER", "LEMMA", "ENT_TYPE", "IS_PUNCT", "IS_SPACE", "SPACY", "IS_TITLE"
]
_LOWER_I = get_string_id("i")
HYPHEN_IDS = _ids("-", "\u2010", "\u2011")
# A letter's greeting that the parser makes part of the name it greets: "[Dear Ms. Okafor]",
# as a compound, or capitalised as an adjective ("Dear Mr. Alvarez", "Dear colleagues"; "I
# am, dear Sir" and "a dear friend" keep theirs)
GREETING_WORDS = _ids(*GREETINGS)
AMOD = get_string_id("amod")
# fmt: on


class ParseView(NamedTuple):
    """What the rules read from a doc, as plain per-token lists (ids are spaCy's string ids)."""

    doc: Doc
    heads: List[int]
    lefts: List[int]  # first token of the subtree
    rights: List[int]  # one past the last token of the subtree
    children: List[List[int]]  # in token order
    pos: List[int]
    dep: List[int]
    tag: List[int]
    lower: List[int]
    lemma: List[int]  # 0 where there is none
    ent_type: List[int]  # 0 outside entities
    entity: List[int]  # the index of the token's entity in doc.ents, -1 outside entities
    can_start: List[bool]
    can_end: List[bool]
    nominals: List[int]  # the heads of noun phrases (see `nominal_heads`)
    # Prefix counts (n_tokens + 1) of tokens that are not numeric entities (or that are
    # determiners or pronouns: "[that year]", "[his] sixties") and of non-numbers, so that
    # "is this span only numbers" costs two lookups.
    non_numeric_ents: List[int]
    non_numbers: List[int]
    # Prefix counts of opening and closing brackets: a mention may end with a bracket that
    # closes one inside it ("[Quilis ( 1964 )]").
    opening: List[int]
    closing: List[int]
    # whether each token is a hyphen inside a word ("start-up", "Jean-Paul"): a mention holds
    # the whole word
    word_hyphen: List[bool]
    # Prefix counts of line breaks no mention crosses: a paragraph's, one after punctuation
    # ("Best,\nAnna", "the box?\nJones: I do") or one before a transcript's turn label
    # ("you said so\nJones: I do"); a line wrapped inside a phrase is crossed
    line_breaks: List[int]


Rule = Callable[[ParseView], Iterable[MentionOffset]]


def read_parse(doc: Doc) -> ParseView:
    """Read the parse, tags and entities of a doc once, for all rules.

    doc (Doc): A doc with a dependency parse.
    RETURNS (ParseView): What the rules work on.
    """
    n = len(doc)
    heads, lefts, rights = [0] * n, [0] * n, [0] * n
    children: List[List[int]] = [[] for _ in range(n)]
    for token in doc:
        i = token.i
        head = token.head.i
        heads[i], lefts[i], rights[i] = head, token.left_edge.i, token.right_edge.i + 1
        if head != i:
            children[head].append(i)
    # Python ints from uint64: lowercase forms and lemmas are 64-bit string hashes.
    columns = doc.to_array(_ATTRS).reshape((n, len(_ATTRS))).T.tolist()
    pos, dep, tag, lower, lemma, ent_type, is_punct, is_space, spacy, is_title = columns
    can_end = [not (p in BAD_EDGE_POS or pu or sp) for p, pu, sp in zip(pos, is_punct, is_space)]
    # a hyphen with no space on either side; the space tokens read one by one (few)
    word_hyphen = [
        0 < i < n - 1 and low in HYPHEN_IDS and not spacy[i] and not spacy[i - 1]
        for i, low in enumerate(lower)
    ]
    breaks = [False] * n
    wrapped = False  # a line break that a phrase may cross
    for i in (i for i, sp in enumerate(is_space) if sp):
        text = doc[i].text
        breaks[i] = "\n" in text and ("\n\n" in text or (i > 0 and bool(is_punct[i - 1])))
        wrapped = wrapped or ("\n" in text and not breaks[i])
    # a transcript's turn ends at its line break, punctuated or not: "... themselves\nB: ..."
    # is no phrase of two speakers
    for start, _ in turn_labels(doc) if wrapped else ():
        if start > 0 and is_space[start - 1]:
            breaks[start - 1] = True
    # an "I" that the parser makes part of a name is a heading's numeral: "CHAPTER [I] Emma
    # Woodhouse" (other pronouns it hangs so are its errors: "proclaim [myself] Emperor");
    # neither does a greeting start one: "Hi [Priya]"
    can_start = [
        ok and d not in BAD_START_DEPS and p not in BAD_START_POS and t not in BAD_START_TAGS
        and not (p == PRON and low == _LOWER_I and d in COMPOUND_DEPS and pos[h] == PROPN)
        and not (low in GREETING_WORDS and (d in COMPOUND_DEPS or (d == AMOD and title)))
        for ok, d, p, t, low, h, title in zip(can_end, dep, pos, tag, lower, heads, is_title)
    ]
    entity = [-1] * n
    for index, ent in enumerate(doc.ents):
        entity[ent.start : ent.end] = [index] * len(ent)
    referential = (DET, PRON)
    not_numeric = [t not in NUMERIC_ENT_LABELS or p in referential for t, p in zip(ent_type, pos)]
    view = ParseView(
        doc, heads, lefts, rights, children, pos, dep, tag, lower, lemma, ent_type, entity,
        can_start, can_end, [],
        _prefix_counts(not_numeric), _prefix_counts(p != NUM for p in pos),
        _prefix_counts(low in OPENING for low in lower),
        _prefix_counts(low in CLOSING for low in lower),
        word_hyphen,
        _prefix_counts(breaks),
    )  # fmt: skip
    view.nominals.extend(nominal_heads(view))
    return view


def _prefix_counts(flags: Iterable[bool]) -> List[int]:
    return list(accumulate(flags, initial=0))


def nominal_heads(view: ParseView) -> List[int]:
    """The heads of noun phrases: nouns, proper nouns and numbers, and adjectives, determiners
    and pronouns as arguments ("[the other]", "[them all]"; a pronoun or determiner alone is
    the pronoun rule's). Noun modifiers are left out ("the [school] building"), except names
    ("the [UK] government"), but not first names ("[Mary] Walkup").

    view (ParseView): The doc's parse.
    RETURNS (List[int]): Token indices, in order.
    """
    dep, children = view.dep, view.children
    result = []
    for i, p in enumerate(view.pos):
        if p in NOMINAL_POS:
            if _is_noun_modifier(view, i):
                continue
        elif p not in ARGUMENT_POS or dep[i] not in ARGUMENT_DEPS:
            continue
        elif p != ADJ and not children[i]:
            continue
        result.append(i)
    return result


def _is_noun_modifier(view: ParseView, i: int) -> bool:
    """Whether a noun modifies another one without being a mention: common nouns ("the
    [school] building") and first names ("[Mary] Walkup"), not names ("the [UK] government")."""
    if view.dep[i] not in COMPOUND_DEPS:
        return False
    if view.pos[i] != PROPN:
        return True
    return view.ent_type[i] == PERSON and view.pos[view.heads[i]] == PROPN


def _starts(view: ParseView, head: int) -> List[int]:
    """The left edge of the head's subtree, and the first token after its leading adverbs,
    predeterminers, conjunctions and wh-words ("even [the king]", "whose [children]")."""
    first = start = view.lefts[head]
    dep, tag = view.dep, view.tag
    for child in view.children[head]:
        if child > head or view.lefts[child] != start:
            break
        if dep[child] not in SKIPPABLE_LEFT_DEPS and tag[child] not in NON_REFERRING_TAGS:
            break
        start = view.rights[child]
    return [first, start] if first < start <= head else [first]


def _modifier_ends(view: ParseView, head: int) -> List[int]:
    """Ends after each right dependent of the head up to the first conjunction, apposition or
    punctuation ("[[the king] of France]")."""
    ends = []
    for child in view.children[head]:
        if child > head:
            if view.dep[child] in BREAK_DEPS:
                break
            ends.append(view.rights[child])
    return ends


def _ends_after(view: ParseView, head: int, deps: FrozenSet[int]) -> List[int]:
    """Ends after each right dependent of the head with one of these labels."""
    dep, rights = view.dep, view.rights
    return [rights[child] for child in view.children[head] if child > head and dep[child] in deps]


def _spans(view: ParseView, head: int, ends: Sequence[int]) -> Iterator[MentionOffset]:
    for start in _starts(view, head):
        for end in ends:
            yield start, end


def noun_phrases(view: ParseView) -> Iterator[MentionOffset]:
    """Noun phrases and their nested parts: from the left edge to the head, to each right
    dependent up to the first break, and to the end of the subtree. A name's phrase stops
    before a prepositional phrase outside the name (see `_name_limit`)."""
    for head in view.nominals:
        ends = [head + 1, view.rights[head], *_modifier_ends(view, head)]
        limit = _name_limit(view, head)
        yield from _spans(view, head, [end for end in ends if end <= limit])


def _name_limit(view: ParseView, head: int) -> int:
    """Where a name's noun phrase must end: before its first prepositional phrase whose object
    lies outside the name's entity, other than "of" and "from". A name takes no restrictive
    modifier, so such a phrase belongs to the verb, and the parser's attachment to the name is
    an error: "shared [the Nobel Prize] with Henri Becquerel", "met [Pierre] in Paris"."""
    if view.pos[head] != PROPN:
        return len(view.pos)
    entity = view.entity[head]
    for child in view.children[head]:
        if child < head or view.dep[child] != PREP or view.lower[child] in NAME_PREPOSITIONS:
            continue
        objects = [i for i in view.children[child] if view.dep[i] in OBJECT_DEPS]
        if entity < 0 or any(view.entity[i] != entity for i in objects):
            return child
    return len(view.pos)


def _attached(view: ParseView, deps: FrozenSet[int]) -> List[int]:
    """Noun phrase heads with one of these labels whose own head is a noun phrase head."""
    nominal = set(view.nominals)
    dep, heads = view.dep, view.heads
    return [i for i in view.nominals if dep[i] in deps and heads[i] in nominal]


def _grouped(view: ParseView, deps: FrozenSet[int]) -> Iterator[MentionOffset]:
    """The head alone (up to its first break), with its dependents up to each one with these
    labels, and each of those alone."""
    attached = _attached(view, deps)
    for head in sorted(set(view.heads[i] for i in attached)):
        anchor = (_modifier_ends(view, head) or [head + 1])[-1]
        yield from _spans(view, head, [anchor, *_ends_after(view, head, deps)])
    for i in attached:
        yield from _spans(view, i, (i + 1, view.rights[i]))


def coordination(view: ParseView) -> Iterator[MentionOffset]:
    """Coordinated noun phrases ("[you and I]", "[A, B and C]") and each conjunct."""
    return _grouped(view, CONJ_DEPS)


def appositions(view: ParseView) -> Iterator[MentionOffset]:
    """Appositions: the anchor with its appositive ("[Walter Elliot, a baronet]"), and the
    appositive alone."""
    return _grouped(view, APPOS_DEPS)


def pronouns(view: ParseView) -> Iterator[MentionOffset]:
    """Personal, possessive, reflexive and demonstrative pronouns, and "here" and "there"
    (not the expletive), as one-token mentions."""
    pos, dep, tag, lower = view.pos, view.dep, view.tag, view.lower
    for i, p in enumerate(pos):
        if tag[i] in NON_REFERRING_TAGS:
            continue
        if (
            p == PRON
            or lower[i] in LOCATIVES
            or (p == DET and lower[i] in DEMONSTRATIVES and dep[i] not in NOT_PRONOUN_DEPS)
        ):
            yield i, i + 1


def possessives(view: ParseView) -> Iterator[MentionOffset]:
    """Possessive determiners ("[his] hat") and possessors, without and with their "'s" (the
    data disagree): "[Lady Elliot] 's", "[Lady Elliot 's]"."""
    for head, d in enumerate(view.dep):
        if d in POSS_DEPS:
            yield from _spans(view, head, (head + 1, view.rights[head]))


def proper_nouns(view: ParseView) -> Iterator[MentionOffset]:
    """Runs of proper nouns, noun modifiers included ("the [Obama] administration"); a run of
    three or more also without its first word, often a title ("President [Warren G. Harding]")."""
    pos = view.pos
    n = len(pos)
    start = 0
    while start < n:
        if pos[start] != PROPN:
            start += 1
            continue
        end = start + 1
        while end < n and pos[end] == PROPN:
            end += 1
        yield start, end
        if end - start >= 3:
            yield start + 1, end
        start = end


def entities(view: ParseView, labels: FrozenSet[int]) -> Iterator[MentionOffset]:
    """Named entities with these labels, also without a leading determiner ("the")."""
    for ent in view.doc.ents:
        if ent.label in labels:
            yield ent.start, ent.end
            if view.pos[ent.start] == DET and len(ent) > 1:
                yield ent.start + 1, ent.end


def event_verbs(view: ParseView) -> Iterator[MentionOffset]:
    """Main verbs as one-token mentions of events (OntoNotes and GUM mark "[visited] ... the
    visit"). Not a default rule: a verb is rarely a mention, and verbs are many."""
    for i, p in enumerate(view.pos):
        if p == VERB:
            yield i, i + 1


RULES: Dict[str, Rule] = {
    "noun_phrases": noun_phrases,
    "coordination": coordination,
    "appositions": appositions,
    "pronouns": pronouns,
    "possessives": possessives,
    "proper_nouns": proper_nouns,
    "event_verbs": event_verbs,
}
# Named entities also need the labels to keep.
ENTITIES_RULE = "entities"
KNOWN_RULES = (*RULES, ENTITIES_RULE)
DEFAULT_RULES = tuple(name for name in KNOWN_RULES if name != "event_verbs")


def is_pleonastic_it(view: ParseView, i: int) -> bool:
    """Whether the token is a non-referring "it" (see the comment at IT above)."""
    dep = view.dep
    if view.lower[i] != IT or dep[i] not in SUBJECT_DEPS:
        return False
    if dep[i] == EXPL:
        return True
    head = view.heads[i]
    verb = {view.lemma[head], view.lower[head]}
    if not verb.isdisjoint(WEATHER_VERBS):
        return True
    later = [dep[child] for child in view.children[head] if child > i]
    if not verb.isdisjoint(RAISING_VERBS):
        return CCOMP in later
    copula = not verb.isdisjoint(COPULAS)
    return copula and ACOMP in later and any(d in CLAUSE_DEPS for d in later)


def is_numeric(view: ParseView, start: int, end: int) -> bool:
    """Whether the span is only a number, a date, a time or an amount."""
    ents, numbers = view.non_numeric_ents, view.non_numbers
    return ents[end] == ents[start] or numbers[end] == numbers[start]


def trim(view: ParseView, start: int, end: int) -> MentionOffset:
    """Drop tokens that no mention starts or ends with from the edges of a span (a closing
    bracket stays where the span opens it), and a last preposition whose object lies past the
    span: the entity recognizer's "[the Nobel Prize with] Henri Becquerel" (a stranded one
    stays: "the man he spoke [of]")."""
    can_start, can_end = view.can_start, view.can_end
    while start < end and not can_start[start]:
        start += 1
    while end > start and (
        (not can_end[end - 1] and not _closes_bracket(view, start, end - 1))
        or _dangling_preposition(view, end - 1, end)
    ):
        end -= 1
    return start, end


def _whole_words(view: ParseView, start: int, end: int) -> MentionOffset:
    """The span grown over the hyphenated words it cuts: the small parser splits "ex-wife"
    into three nouns, and "[wife]" or "[My ex]" would be its mentions ("[My ex-wife]"), and
    the start of "start-up" a verb ("the start-[up Fenwick Labs]")."""
    hyphens = view.word_hyphen
    if start < end:
        while start > 0 and hyphens[start - 1]:
            start -= 2
        while end < len(hyphens) and hyphens[end]:
            end += 2
    return start, end


def _dangling_preposition(view: ParseView, i: int, end: int) -> bool:
    """Whether token i is a preposition with dependents at or after `end`."""
    return view.pos[i] == ADP and view.rights[i] > end


def _closes_bracket(view: ParseView, start: int, i: int) -> bool:
    """Whether token i closes a bracket opened in [start, i)."""
    opened = view.opening[i] - view.opening[start]
    return view.lower[i] in CLOSING and opened > view.closing[i] - view.closing[start]


def filter_mentions(
    view: ParseView,
    spans: Iterable[MentionOffset],
    *,
    max_width: int,
    keep_nested: bool = True,
    keep_numbers: bool = False,
) -> MentionOffsets:
    """Trim the spans and drop what cannot refer: empty or too wide spans, pleonastic "it",
    numbers and dates (unless `keep_numbers`), and with `keep_nested=False` every span inside
    another one.

    view (ParseView): The doc's parse.
    spans (Iterable[MentionOffset]): Candidate (start, end) offsets.
    max_width (int): The most tokens a mention may have.
    keep_nested (bool): Whether to keep mentions inside other mentions.
    keep_numbers (bool): Whether to keep numbers, dates, times and amounts.
    RETURNS (MentionOffsets): Sorted, unique mentions.
    """
    kept: Set[MentionOffset] = set()
    for span in set(spans):
        start, end = _whole_words(view, *trim(view, *span))
        if not 0 < end - start <= max_width or (start, end) in kept:
            continue
        if view.line_breaks[end] != view.line_breaks[start]:
            continue
        if end - start == 1 and is_pleonastic_it(view, start):
            continue
        if not keep_numbers and is_numeric(view, start, end):
            continue
        kept.add((start, end))
    return sorted(kept) if keep_nested else outermost(kept)


def outermost(mentions: Iterable[MentionOffset]) -> MentionOffsets:
    """The mentions that lie inside no other one, sorted."""
    result = []
    reach = -1
    for start, neg_end in sorted((start, -end) for start, end in mentions):
        if -neg_end > reach:
            result.append((start, -neg_end))
            reach = -neg_end
    return result


def unknown_rules(rules: Iterable[str]) -> List[str]:
    """The names among `rules` that are not rules."""
    return [name for name in rules if name not in KNOWN_RULES]


def extract_mentions(
    doc: Doc,
    *,
    rules: Sequence[str] = DEFAULT_RULES,
    entity_labels: Sequence[str] = DEFAULT_ENT_LABELS,
    max_width: int = 50,
    keep_nested: bool = True,
    keep_numbers: bool = False,
) -> MentionOffsets:
    """Candidate mentions of a parsed doc.

    doc (Doc): A doc with a dependency parse, POS tags and (optionally) entities.
    rules (Sequence[str]): The rules to apply, from KNOWN_RULES.
    entity_labels (Sequence[str]): The entity labels the "entities" rule keeps.
    max_width (int): The most tokens a mention may have.
    keep_nested (bool): Whether to keep mentions inside other mentions.
    keep_numbers (bool): Whether to keep numbers, dates, times and amounts.
    RETURNS (MentionOffsets): Sorted, unique (start, end) token offsets, end exclusive.
    """
    if not len(doc):
        return []
    view = read_parse(doc)
    labels = _ids(*entity_labels)
    spans: Set[MentionOffset] = set()
    for name in rules:
        spans.update(entities(view, labels) if name == ENTITIES_RULE else RULES[name](view))
    return filter_mentions(
        view, spans, max_width=max_width, keep_nested=keep_nested, keep_numbers=keep_numbers
    )
