"""`Doc._.coref_resolved`: the doc's text with each mention replaced by its cluster's main
mention (the rules are in the docstring of `resolve_text`; which mention is a cluster's main
one: `linguistics/main_mention.py`)."""
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc, Span, Token

from .clusters import Cluster
from .lang import ANY
from .lang.en import english
from .linguistics.main_mention import is_pronoun, is_pronoun_token, is_verbal
from .linguistics.name_words import unparsed_name_words
from .linguistics.quotations import GREETINGS
from .linguistics.unparsed_heads import singular
from .linguistics.word_tags import FUNCTION_WORD_TAGS, load_fine_word_tags, load_word_tags
from .types import MentionOffset

# fmt: off
_RELATIVE_TAGS = {"WP", "WP$", "WDT"}
# what follows a head without naming it further: a replacement text ends before it
_CLAUSE_DEPS = {"relcl", "acl", "appos"}
_NAME_TAGS = {"NNP", "NNPS"}
# the English word lists and pronoun sets (spacy_coref/lang/en/: function_words.json,
# verbs.json, pronouns.json)
_EN = english()
# articles and demonstratives: "the", "a", "an", "this", "that", "these", "those"
_DETERMINERS = set(_EN.words("definite_articles", "indefinite_articles", "demonstratives"))
_INDEFINITE_ARTICLES = set(_EN.words("indefinite_articles"))  # "a", "an"
# without tags, the word-tag table's tags of words lower case inside a sentence (not NOUN or
# ADJ: "Grace", "Young" may be names)
_LOWERED_UNTAGGED = frozenset(("DET", "PRON", "NUM"))
# without tags, the longest phrase read as a bare plural ("40,000 electric scooters")
_MAX_UNTAGGED_PLURAL_WORDS = 4
# kept as written in the resolved text: places ("here", "there") and reflexives ("myself", ...,
# "oneself")
_KEPT_WORDS = {*_EN.words("place_adverbs"), *_EN.pronouns(reflexive=True)}
# English word lists, used where a token has no POS or tag annotation
_RELATIVE_WORDS = set(_EN.words("wh_relatives"))  # "who", "whom", "whose", "which"
# "her" is left out: it is possessive or an object, and only the tag or dep can tell.
_POSSESSIVE_WORDS = {*_EN.pronouns(possessive=True, not_case="accusative", archaic=ANY)}
_POSSESSIVE_MARKERS = {"'s", "’s", "'S", "’S"}
# the usual tags of the words a possessive "her" stands before ("her brother", "her old car")
_OWNED_TAGS = {"NOUN", "ADJ", "NUM"}
# entity labels of numbers and times, whose words are no names ("Three little pigs")
_NUMERIC_ENTS = {"CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "DATE", "TIME"}
# words that say what a noun phrase is ("The HR team"), not which ("the", "his", "that")
_CONTENT_POS = {"NOUN", "PROPN", "ADJ", "NUM"}
_CONTENT_TAG_PREFIXES = ("NN", "JJ", "CD")
# quantifiers before a plural noun that "the" would not go with ("the many people")
_QUANTIFIERS = set(_EN.words("quantifiers"))
# "I", "we" and "you" as subjects stay where the verb agrees with them and would not with a
# name: "I am", "you were", "we think" ("Helen Marsh am" otherwise). Without tags, the verbs
# after them that only they take, and those the word-tag table calls VB or VBP.
# ("i", "we", "you", "thou", "ye")
_SPEAKER_SUBJECTS = {*_EN.pronouns(person=(1, 2), case="nominative", archaic=ANY)}
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
# ("am", "'m", "are", "were", "have", "do", "art", ...: verbs.json)
_NON_THIRD_PERSON_VERBS = set(_EN.words("non_third_person_forms"))
# fmt: on


def resolve_text(doc: Doc, clusters: Sequence[Cluster]) -> str:
    """The doc's text with each mention replaced by its cluster's main mention.

    - Only the outermost replaced mention counts: mentions inside it are not replaced. Mentions
      inside a mention that is kept (such as "his" in a main mention "his mother") are replaced.
    - Not replaced: the main mention itself, a mention containing its cluster's main mention
      or name (below), verb mentions (events), relative pronouns (who, whose, which), "here"
      and "there" (places, not noun phrases: "live there"), reflexives ("designed it herself"
      would read "designed it Emily"), a noun phrase with a content word that a main mention
      without a name lacks ("The HR team" after "the team": it would say less), "I", "we" and
      "you" as the subject of a verb that agrees with them and not with a name ("I am", "you
      were", "we think"), a mention in apposition with another of its cluster ("Her landlord,
      Mr. Castle": either one; needs a parse), and every mention of a cluster whose main
      mention is a pronoun or a verb (a pronoun is never replaced by another pronoun).
    - The replacement is, in a parsed doc, the cluster's first name: the capitalised proper
      nouns that end at a mention's head ("Mark" of "her brother Mark", "the Harlow
      Museum"), or such a name in apposition with the head inside it ("Its chief executive,
      Anna Berger"): "she" reads "Anna Berger", not "its chief executive". Without one, it is
      the main mention's text, with "the" for a leading "a" or "an" (the thing is known by
      then) and before a plural without a determiner ("two men" reads "the two men").
      Either is itself resolved (so "his mother" reads "John's mother" everywhere),
      without a trailing possessive "'s", and, in a parsed doc, without a clause or
      apposition after its head: "a golden fish, which begged him" gives "the golden fish".
      A replaced mention keeps its own clause or apposition ("The library, which has 40,000
      books," reads "The new library, which has 40,000 books,").
    - Possessives: a possessive pronoun (tag PRP$, dep `poss`, or his/its/their/my/your/our/mine/
      yours/hers/ours/theirs) becomes main + "'s", or main + "'" if the main ends in "s" (AP style,
      never wrong for plurals: "the students'"); a mention ending in a possessive "'s" keeps its
      own marker.
    - Case: the first letter is capitalised where the mention starts a sentence with a capital,
      and a main mention that starts a sentence with a determiner ("The teacher", "My
      daughter") is lowercased where it replaces a mention inside a sentence (not once its
      first word is replaced: "Helen's daughter"). Without sentence boundaries, a mention
      that starts with a capital and is not a name (nor "I") counts as starting a sentence.
    - The whitespace after each mention is kept; all other text is unchanged.

    doc (Doc): The doc.
    clusters (Sequence[Cluster]): its clusters (`Doc._.coref_clusters`).
    RETURNS (str): The resolved text; `doc.text` if the doc has no clusters.
    """
    if not clusters:
        return doc.text
    return _Resolver(doc, clusters).render(0, len(doc), trailing_ws=True)


class _Resolver:
    """The state of one `resolve_text` call: mentions by start, resolved main texts."""

    def __init__(self, doc: Doc, clusters: Sequence[Cluster]) -> None:
        self.doc = doc
        self.clusters = clusters
        # start -> [(end, cluster index)], longest first; a span shared by clusters goes to the
        # first of them.
        by_offsets: Dict[MentionOffset, int] = {}
        for cluster in clusters:
            for mention in cluster.mentions:
                if len(mention) and _offsets_of(mention) not in by_offsets:
                    by_offsets[_offsets_of(mention)] = cluster.i
        self.by_start: Dict[int, List[Tuple[int, int]]] = {}
        for (start, end), c in sorted(by_offsets.items(), key=_longest_first):
            self.by_start.setdefault(start, []).append((end, c))
        self.main_texts: Dict[int, str] = {}
        self.sources: Dict[int, Span] = {}
        self.appositions: Dict[int, Set[MentionOffset]] = {}

    def render(
        self, start: int, end: int, *, trailing_ws: bool, visiting: FrozenSet[int] = frozenset()
    ) -> str:
        """Text of doc[start:end] with the mentions inside it (but not the range itself)
        replaced."""
        pieces: List[str] = []
        i = start
        while i < end:
            replaced = False
            for m_end, c in self.by_start.get(i, ()):
                if m_end > end or (i == start and m_end == end and visiting):
                    continue
                text = self.replacement(self.doc[i:m_end], c, visiting)
                if text is not None:
                    pieces.append(text + self.doc[m_end - 1].whitespace_)
                    i = m_end
                    replaced = True
                    break
            if not replaced:
                pieces.append(self.doc[i].text_with_ws)
                i += 1
        text = "".join(pieces)
        if not trailing_ws and end > start:
            text = text[: len(text) - len(self.doc[end - 1].whitespace_)]
        return text

    def replacement(self, mention: Span, c: int, visiting: FrozenSet[int]) -> Optional[str]:
        """The text replacing a mention of cluster `c`, or None to keep it."""
        main = self.clusters[c].main
        if c in visiting or (mention.start <= main.start and main.end <= mention.end):
            return None
        if is_pronoun(main) or is_verbal(main) or is_verbal(mention):
            return None
        source = self.source_of(c)
        if source is not main and mention.start <= source.start and source.end <= mention.end:
            return None  # "her brother Mark" holds the name that would replace it
        if _greets_a_group(source):
            return None  # "Dear team, I hope you" would read "I hope dear team"
        # what is replaced ends before the mention's own clause or apposition, which stays
        cut = mention.end if len(mention) == 1 else _end_before_clause(mention, mention.end)
        replaced = mention.doc[mention.start : cut]
        if source is main and not _has_name(main) and _says_more(replaced, main):
            return None  # "The HR team" would read "the team"
        word = mention[0]
        if len(mention) == 1 and (word.text.lower() in _KEPT_WORDS or _is_relative(word)):
            # "who"; "there", a place, not a noun phrase ("live there"); "herself", which
            # would read "designed the kitchen Emily"
            return None
        if len(mention) == 1 and _subject_of_a_non_third_person_verb(word):
            return None  # "I am writing" would read "Helen Marsh am writing"
        if len(mention) == 1 and _is_possessive_pronoun(word) and _before_name_noun(word):
            return None  # "My name is Leila Haddad" would read "Leila Haddad's name is"
        if self.in_apposition(mention, c):
            return None
        base = self.main_text(c, visiting)
        if cut < mention.end:
            # the mention's own clause or apposition stays: "The library, which has 40,000
            # books, will open" reads "The new library, which has 40,000 books, will open",
            # not "The new library, will open"
            rest = self.render(cut, mention.end, trailing_ws=False, visiting=visiting)
            return _match_case(base, mention, source) + self.doc[cut - 1].whitespace_ + rest
        if _ends_in_possessive(mention):
            text = base + mention[-1].text
        elif len(mention) == 1 and _is_possessive_pronoun(mention[0]):
            text = base + ("'" if base[-1:] in ("s", "S") else "'s")
        else:
            text = base
        return _match_case(text, mention, source)

    def source_of(self, c: int) -> Span:
        """What replaces cluster `c`'s mentions: the first name among them (`_name_in`), else
        its main mention."""
        if c not in self.sources:
            names = (
                _name_in(mention) for mention in self.clusters[c].mentions
                if len(mention) and not is_pronoun(mention) and not is_verbal(mention)
            )
            name = next((n for n in names if n is not None), None)
            self.sources[c] = self.clusters[c].main if name is None else name
        return self.sources[c]

    def in_apposition(self, mention: Span, c: int) -> bool:
        """Whether the mention and another of its cluster are in apposition, one naming the
        other ("Her landlord, Mr. Castle"): both stay as written, or the text would read "her
        landlord, her landlord". Needs a parse."""
        if c not in self.appositions:
            # per cluster, once: its appositives are few, its mentions may be thousands
            mentions = self.clusters[c].mentions
            pairs: Set[MentionOffset] = set()
            for second in mentions:
                root = second.root
                if root.dep_ != "appos" or second.start <= root.head.i < second.end:
                    continue
                anchors = [m for m in mentions if m.start <= root.head.i < m.end]
                if anchors:
                    pairs.add(_offsets_of(second))
                    pairs.update(_offsets_of(m) for m in anchors)
            self.appositions[c] = pairs
        return _offsets_of(mention) in self.appositions[c]

    def main_text(self, c: int, visiting: FrozenSet[int]) -> str:
        if c not in self.main_texts:
            main = self.source_of(c)
            end = main.end - 1 if len(main) > 1 and _ends_in_possessive(main) else main.end
            end = _end_before_clause(main, end)
            start = _start_after_greeting(main)
            text = self.render(start, end, trailing_ws=False, visiting=visiting | {c})
            if end - start > 1 and main[0].text.lower() in _INDEFINITE_ARTICLES:
                # the entity is known once it has been introduced: "a fox ... it" reads "the
                # fox", not "a fox", where "it" was (lower case: `_match_case` capitalises it
                # where a sentence starts)
                text = "the" + text[len(self.doc[start].text) :]
            elif _bare_plural(main, start, end):
                # so are "two men" and "tomatoes": "One of them is 19" reads "One of the two
                # men", not "One of two men"
                first_word = self.doc[start]
                lower = first_word.is_sent_start and _lower_inside_a_sentence(first_word)
                first = text[:1].lower() if lower else text[:1]
                text = "the " + first + text[1:]
            self.main_texts[c] = text
        return self.main_texts[c]


def _has_name(span: Span) -> bool:
    return any(_is_name_token(token) for token in span)


def _says_more(words: Span, main: Span) -> bool:
    """Whether the words a mention's replacement would replace hold a content word that the
    main mention lacks ("The HR team" against "the team", "the old bridge" against "a
    bridge"): replaced, they would say less."""
    if is_pronoun(words):
        return False
    have = {t.text.lower() for t in main}
    return any(_is_content_word(t) and t.text.lower() not in have for t in words)


def _is_content_word(token: Token) -> bool:
    if token.pos_ or token.tag_:
        return token.pos_ in _CONTENT_POS or token.tag_.startswith(_CONTENT_TAG_PREFIXES)
    return token.is_alpha and not token.is_stop


def _bare_plural(main: Span, start: int, end: int) -> bool:
    """Whether doc[start:end] of a main mention is a plural common noun phrase without a
    determiner or possessor ("two men", "tomatoes", "old friends"), by its parse; not a
    quantified one ("many people", "both men"), which "the" would change. Without a parse, by
    the word-tag table: a phrase of lower-case words or numbers, none a function word, whose
    last word is a plural noun ("40,000 electric scooters", "residents")."""
    root = main.root
    if not root.dep:
        return _untagged_bare_plural(main.doc[start:end])
    if root.pos_ != "NOUN" or not (start <= root.i < end):
        return False
    children = [t for t in root.children if start <= t.i < end]
    numbered = any(t.dep_ == "nummod" for t in children)
    if root.tag_ != "NNS" and not numbered:
        return False
    return not any(
        t.dep_ in ("det", "poss", "predet") or t.lower_ in _QUANTIFIERS or _is_name_token(t)
        for t in children
    )


def _untagged_bare_plural(words: Span) -> bool:
    if not len(words) or len(words) > _MAX_UNTAGGED_PLURAL_WORDS or any(t.tag for t in words):
        return False
    fine, coarse = load_fine_word_tags(), load_word_tags()
    first, last = words[0], words[-1]
    # a word the table lacks is a plural by its ending ("scooters"; not "glass", "bus")
    plural = fine.get(last.lower_, "NNS" if singular(last.lower_) != last.lower_ else "") == "NNS"
    if not plural or not last.is_lower:
        return False
    if first.lower_ in _QUANTIFIERS or first.lower_ in _INDEFINITE_ARTICLES:
        return False
    # no determiner, preposition or the like anywhere ("one of the scooters")
    return all(
        (t.is_lower or t.like_num) and coarse.get(t.lower_) not in FUNCTION_WORD_TAGS
        for t in words
    )


def _name_in(mention: Span) -> Optional[Span]:
    """The name a mention is or holds, by its parse: the capitalised proper nouns that end at
    its head ("Maria Lopez", "Mr. Castle", "Mark" in "her brother Mark", "the Harlow Museum"
    with its "the"), or such a name in apposition with its head inside it ("Its chief
    executive, Anna Berger"). Without a parse or tags (the fast pipeline), a mention that is a
    person's name by its capitals, title or first name (`name_words.unparsed_name_words`:
    "Clara", "Mrs. Gray"). None where there is no name."""
    root = mention.root
    if not root.dep:
        # per mention: doc.has_annotation scans the whole doc each time
        if any(t.tag for t in mention) or unparsed_name_words(mention) is None:
            return None
        return mention
    doc = mention.doc
    if any(t.dep_ == "conj" and t.i < mention.end for t in root.rights):
        return None  # "Samsung and Apple ... their" is both, not "Samsung"
    if _is_name_token(root):
        start = root.i
        while start > mention.start and _is_name_token(doc[start - 1]):
            start -= 1
        if start == mention.start + 1 and doc[mention.start].text.lower() == "the":
            start = mention.start
        return doc[start : root.i + 1]
    for child in root.rights:
        if child.dep_ == "appos" and _is_name_token(child) and child.right_edge.i < mention.end:
            return _name_in(doc[child.left_edge.i : child.right_edge.i + 1])
    return None


def _is_name_token(token: Token) -> bool:
    return (token.pos_ == "PROPN" or token.tag_ in _NAME_TAGS) and token.text[:1].isupper()


def _end_before_clause(main: Span, end: int) -> int:
    """Where a main mention's replacement text ends: before a clause or an apposition after its
    head, or after a word after it ("a golden fish, which begged him" replaces "it" as "the golden
    fish"; "The mayor of Eastbridge, Ruth Okonkwo", whose parse hangs the name from
    "Eastbridge", as "The mayor of Eastbridge"). Without a parse, before a comma or a relative
    pronoun after its first word ("a teenager who went missing": "the teenager")."""
    root = main.root
    if not root.dep:
        for token in main.doc[main.start + 1 : end]:
            if token.text == "," or token.lower_ in _RELATIVE_WORDS:
                return token.i
        return end
    cut = end
    for child in root.rights:
        starts = child.left_edge.i  # after the head but for a crossing (non-projective) arc
        if child.i < end and starts > root.i and (child.dep_ in _CLAUSE_DEPS or child.text == ","):
            cut = min(cut, starts)
    for token in main.doc[root.i + 1 : cut]:
        if token.dep_ in _CLAUSE_DEPS and token.left_edge.i > root.i:
            cut = min(cut, token.left_edge.i)
    while cut > root.i + 1 and main.doc[cut - 1].is_punct:
        cut -= 1
    return cut


def _greets_a_group(main: Span) -> bool:
    """Whether a main mention is a greeting without a name ("Dear team", "Hi all"), which
    names no one to put in place of "you"."""
    return len(main) > 1 and main[0].text.lower() in GREETINGS and not main[1].text[:1].isupper()


def _start_after_greeting(main: Span) -> int:
    """Where a main mention's replacement text starts: after the greeting of a letter or an
    email, which OntoGUM annotates as part of the name ("Dear Hannah" replaces "you" as
    "Hannah")."""
    if len(main) > 1 and main[0].text.lower() in GREETINGS and main[1].text[:1].isupper():
        return main.start + 1
    return main.start


def _match_case(text: str, mention: Span, main: Span) -> str:
    if not text:
        return text
    mention_starts = _starts_sentence(mention[0])
    if mention_starts and mention[0].text[:1].isupper():
        return text[0].upper() + text[1:]
    lower = _starts_sentence(main[0]) and _lower_inside_a_sentence(main[0])
    if not mention_starts and lower and text.startswith(main[0].text):
        # "My daughter" is "my daughter" inside a sentence; "Helen's daughter" stays
        return text[0].lower() + text[1:]
    return text


def _starts_sentence(token: Token) -> bool:
    if token.is_sent_start is not None:
        return bool(token.is_sent_start)
    # No sentence boundaries: a capital on a word that is not a name, nor "I", marks a start.
    text = token.text
    is_name = token.pos_ == "PROPN" or token.tag_ in _NAME_TAGS
    return text[:1].isupper() and text != "I" and not is_name


def _lower_inside_a_sentence(token: Token) -> bool:
    """Whether a main mention's first word, capitalised because it starts a sentence, is lower
    case inside one: a determiner ("The", "My"), or, where the doc is tagged, any word but a
    name, a word of a named entity ("American officials") or "I" ("Many people", "Two men",
    "Tomatoes"); without tags, a word the word-tag table calls a determiner, pronoun or
    numeral ("My grandfather", "One of them", "Some")."""
    if _is_determiner(token):
        return True
    tagged = bool(token.pos_ or token.tag_)
    if not tagged:
        return token.text != "I" and load_word_tags().get(token.lower_) in _LOWERED_UNTAGGED
    named = token.ent_type_ and token.ent_type_ not in _NUMERIC_ENTS  # not "Three little pigs"
    return tagged and not (_is_name_token(token) or named or token.text == "I")


def _is_determiner(token: Token) -> bool:
    """An article, demonstrative or possessive determiner ("The", "This", "Her" landlord): a
    main mention's first word that is lower case inside a sentence."""
    if token.pos_ or token.tag_:
        return token.pos_ == "DET" or token.tag_ in ("DT", "PRP$")
    return token.text.lower() in _DETERMINERS


def _is_relative(token: Token) -> bool:
    if token.tag_:
        return token.tag_ in _RELATIVE_TAGS
    return token.text.lower() in _RELATIVE_WORDS


def _is_possessive_pronoun(token: Token) -> bool:
    if token.tag_ == "PRP$":
        return True
    if not is_pronoun_token(token):
        return False
    if token.dep_ == "poss" or token.text.lower() in _POSSESSIVE_WORDS:
        return True
    # no tagger (the fast pipeline): "her" before a word the word-tag table calls a noun or an
    # adjective owns it ("her brother", "her old car")
    doc, after = token.doc, token.i + 1
    return (
        token.text.lower() == "her"
        and not token.tag  # untagged, as a doc without a tagger (not doc.has_annotation: slow)
        and after < len(doc)
        and load_word_tags().get(doc[after].lower_) in _OWNED_TAGS
    )


def _before_name_noun(token: Token) -> bool:
    """Whether the next word is "name" or "names" ("my name", "her name")."""
    doc = token.doc
    return token.i + 1 < len(doc) and doc[token.i + 1].lower_ in ("name", "names")


def _subject_of_a_non_third_person_verb(token: Token) -> bool:
    """Whether `token` is "I", "we" or "you" as the subject of a verb whose form a name would
    not take: a present tense other than -s (tag VBP: "am", "have", "think") or "were". With a
    parse, the clause's first verb (its auxiliary where it has one: "were charged", "do you
    know"); without one, the next word by its tag or its form, and without tags by its usual
    tag in the word-tag table ("I think", "I really need", "Do you know"; not "I will", "I
    went", "Could you ask")."""
    if token.text.lower() not in _SPEAKER_SUBJECTS:
        return False
    doc = token.doc
    if token.dep:
        if token.dep_ not in _SUBJECT_DEPS:
            return False  # "thank you", where a name reads well
        verb = token.head
        finite = min([verb, *(c for c in verb.children if c.dep_ in ("aux", "auxpass"))])
    elif token.i + 1 < len(doc):
        finite = doc[token.i + 1]
        if not token.tag:  # untagged, as a doc without a tagger (not doc.has_annotation: slow)
            # no tagger (the fast pipeline): the word's usual tag, past an adverb or two ("I
            # really think")
            coarse, fine = load_word_tags(), load_fine_word_tags()
            i = token.i + 1
            if token.i > 0 and coarse.get(doc[token.i - 1].lower_) == "AUX":
                i = token.i - 1  # "Could you ask", "Do you know": the auxiliary agrees
            else:
                while i + 1 < len(doc) and i - token.i <= 2 and coarse.get(doc[i].lower_) == "ADV":
                    i += 1
            form = doc[i].lower_
            return form in _NON_THIRD_PERSON_VERBS or fine.get(form) in ("VB", "VBP")
    else:
        return False
    return finite.tag_ == "VBP" or finite.text.lower() in _NON_THIRD_PERSON_VERBS


def _ends_in_possessive(span: Span) -> bool:
    if len(span) < 2:
        return False
    last = span[-1]
    return last.tag_ == "POS" or last.text in _POSSESSIVE_MARKERS


def _offsets_of(span: Span) -> MentionOffset:
    return (span.start, span.end)


def _longest_first(item: Tuple[MentionOffset, int]) -> Tuple[int, int]:
    (start, end), _ = item
    return (start, -end)
