"""Training data augmentation: extra copies of gold documents with names or genders changed.

Both augmentations replace words one for one, so a copy keeps the original's token offsets:
its gold clusters, GAP spans, speakers, sentence starts, tags and `doc.user_data` carry over
as they are, and only the words differ (see `replace_words`).

- "names": one person of the document (a cluster with a proper name among its mentions and a
  known gender) gets another name of the same gender, at every occurrence of its first name
  and surname.
- "gender_swap": he <-> she, his <-> her, gendered nouns and titles, and the first names of the
  built-in lists are swapped for the other gender (Zhao et al. 2018, "Gender Bias in
  Coreference Resolution: Evaluation and Debiasing Methods").
"""
import copy
import random
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc, Span, SpanGroup
from spacy.vocab import Vocab

from ..annotations import GOLD_MENTIONS_KEY, get_cluster_groups
from ..errors import Errors
from ..formats import read_docs
from ..formats.gap import FEMININE_PRONOUNS, MASCULINE_PRONOUNS
from ..lang.en import english
from ..linguistics.first_names import NEUTRAL_TITLES

# doc.user_data key naming the augmentation that made a copy (absent on original documents).
AUGMENTED_KEY = "augmented"
NAMES, GENDER_SWAP = "names", "gender_swap"
FEMALE, MALE = "female", "male"
# Token-level attributes a copy keeps (the words' lexical attributes come from the new words).
# fmt: off
TOKEN_ATTRS = ("TAG", "POS", "MORPH", "LEMMA", "NORM", "HEAD", "DEP", "ENT_IOB", "ENT_TYPE",
               "ENT_KB_ID", "ENT_ID")
# fmt: on

# The lists are data (`spacy_coref/lang/en/`: first_names.json, surnames.json,
# gendered_words.json, titles.json, non_names.json, function_words.json; the pronouns from
# pronouns.json), read by the lexicon.
_EN = english()
# Common English first names of clear gender, none of them also a common word or place.
FEMALE_NAMES = _EN.common_feminine_names
MALE_NAMES = _EN.common_masculine_names
SURNAMES = _EN.surnames
# Gendered words as (masculine, feminine), swapped both ways (his/her/hers: see `_swap_word`):
# the pronouns he/she, him/her, himself/herself, then nouns and titles.
GENDERED_PAIRS = (
    *zip(_EN.pronouns(gender="masculine", case=("nominative", "accusative")),
         _EN.pronouns(gender="feminine", case=("nominative", "accusative"))),
    *_EN.gender_swap_pairs,
)
# One-way replacements (the reverse of a pair goes elsewhere) and titles before a name.
ONE_WAY = _EN.one_way_swaps
TITLES_BEFORE_NAME = _EN.title_swaps
# Title -> gender of the name it precedes, and titles of either gender.
TITLE_GENDERS = {
    title: {"masculine": MALE, "feminine": FEMALE}[gender]
    for title, gender in _EN.title_genders.items()
}
# Capitalised words that are never a person's name (sentence-initial function words, titles),
# and the pronouns but the gendered ones ("i", "me", "my", "it", "its", "their"; not "mine",
# "itself")
_UNGENDERED_PRONOUNS = _EN.pronouns(
    gender=(None, "neuter"), reflexive=False, possessive=(None, "dependent"), generic=False
)
NOT_NAMES = NEUTRAL_TITLES | frozenset(TITLE_GENDERS) | frozenset((
    *_UNGENDERED_PRONOUNS, *_EN.words("sentence_initial_non_names"),  # non_names.json
))
# Words after his/her that show the pronoun is not a determiner ("told her that", "with her
# to"); any other word after it is taken as the noun or adjective it determines: the pronouns
# but the independent possessives ("mine") and the reflexives of no gender ("myself"), and the
# function words of function_words.json's "not_possessed".
NOT_POSSESSED = frozenset((
    *_EN.pronouns(reflexive=False, possessive=(None, "dependent", "both"), generic=False),
    *_EN.pronouns(gender=("masculine", "feminine"), reflexive=True),
    *_EN.words("not_possessed"),
))
NAME_GENDERS = {**{n: FEMALE for n in FEMALE_NAMES}, **{n: MALE for n in MALE_NAMES}}
NAMES_OF = {FEMALE: FEMALE_NAMES, MALE: MALE_NAMES}
OTHER_GENDER = {FEMALE: MALE, MALE: FEMALE}
GENDER_SWAPS = {**dict(GENDERED_PAIRS), **{f: m for m, f in GENDERED_PAIRS}, **ONE_WAY}
# A person's names: (gender, first names, surnames).
Person = Tuple[str, Set[str], Set[str]]
Replacements = Dict[int, str]


def augment_docs(docs: Sequence[Doc], augmentations: Sequence[str], *, seed: int = 0) -> List[Doc]:
    """Augmented copies of gold documents: for each augmentation (in order), a copy of every
    document it changes. Documents it leaves as they are (no name of known gender, no gendered
    word) give no copy. The result depends on the seed, the documents and their order only.

    docs (Sequence[Doc]): gold documents (their `doc.spans` and `doc.user_data` are copied).
    augmentations (Sequence[str]): names in `AUGMENTATIONS` ("names", "gender_swap").
    seed (int): the random seed of the replacement names.
    RETURNS (List[Doc]): the copies, marked with `doc.user_data["augmented"]`.
    """
    check_augmentations(augmentations)
    copies: List[Doc] = []
    for name in augmentations:
        rng = random.Random(f"{seed}:{name}")
        for doc in docs:
            # One seed per document, drawn for every document so that each doc's copy does
            # not depend on how many random draws the documents before it took.
            replacements = AUGMENTATIONS[name](doc, random.Random(rng.getrandbits(64)))
            if replacements:
                copies.append(replace_words(doc, replacements, name))
    return copies


def check_augmentations(augmentations: Iterable[str]) -> None:
    """Raise CE340 for a name that is not an augmentation.

    augmentations (Iterable[str]): the names asked for.
    """
    for name in augmentations:
        if name not in AUGMENTATIONS:
            raise ValueError(Errors.CE340.format(name=name, names=list(AUGMENTATIONS)))


def augmentation_counts(docs: Iterable[Doc]) -> Dict[str, int]:
    """How many of the docs each augmentation made (originals are not counted).

    docs (Iterable[Doc]): documents, e.g. a corpus with its augmented copies.
    RETURNS (Dict[str, int]): augmentation name -> number of copies.
    """
    counts = Counter(doc.user_data.get(AUGMENTED_KEY) for doc in docs)
    return {name: counts[name] for name in AUGMENTATIONS if counts[name]}


def augmentation_report(
    path: Path, augmentations: Sequence[str], *, seed: int = 0
) -> Dict[str, int]:
    """How many copies each augmentation makes of a data file or directory, as the corpus
    reader `spacy_coref.CoNLLCorpus.v2` makes them (without `max_docs` or shuffling).

    path (Path): a data file or a directory of them (see `read_docs`).
    augmentations (Sequence[str]): names in `AUGMENTATIONS`.
    seed (int): the random seed of the replacement names.
    RETURNS (Dict[str, int]): augmentation name -> number of copies (0 included).
    """
    check_augmentations(augmentations)
    docs = read_docs(path, vocab=Vocab())
    counts = augmentation_counts(augment_docs(docs, augmentations, seed=seed))
    return {name: counts.get(name, 0) for name in augmentations}


def swap_gender(doc: Doc, *, seed: int = 0) -> Optional[Doc]:
    """The doc with its gendered words and listed first names swapped for the other gender.

    doc (Doc): a gold document.
    seed (int): the random seed of the replacement names.
    RETURNS (Optional[Doc]): the copy, or None when the doc has no word to swap.
    """
    replacements = gender_swap_words(doc, random.Random(seed))
    return replace_words(doc, replacements, GENDER_SWAP) if replacements else None


def substitute_name(doc: Doc, *, seed: int = 0) -> Optional[Doc]:
    """The doc with one person's first name and surname replaced everywhere by other names of
    the same gender.

    doc (Doc): a gold document (the person is found among its gold clusters).
    seed (int): the random seed of the person and the replacement names.
    RETURNS (Optional[Doc]): the copy, or None when no person of known gender is named.
    """
    replacements = name_substitution_words(doc, random.Random(seed))
    return replace_words(doc, replacements, NAMES) if replacements else None


def replace_words(doc: Doc, words: Replacements, augmentation: str) -> Doc:
    """A copy of the doc with some words replaced, one token for one: whitespace, token
    attributes (tags, parse, entities, sentence starts), every span group with its offsets and
    labels, `doc.cats` and `doc.user_data` are kept. Replaced tokens lose their lemma and norm;
    with "gender_swap" their morphological Gender is swapped.

    doc (Doc): the original.
    words (Dict[int, str]): token index -> new word (one token, no whitespace).
    augmentation (str): the augmentation's name, stored under `doc.user_data["augmented"]`.
    RETURNS (Doc): the copy.
    """
    new_words = [words.get(token.i, token.text) for token in doc]
    spaces = [bool(token.whitespace_) for token in doc]
    user_data = copy.deepcopy(doc.user_data)
    user_data[AUGMENTED_KEY] = augmentation
    new = Doc(doc.vocab, words=new_words, spaces=spaces, user_data=user_data)
    attrs = list(TOKEN_ATTRS) + ([] if doc.has_annotation("DEP") else ["SENT_START"])
    array = doc.to_array(attrs)
    for i in words:
        array[i, attrs.index("LEMMA")] = 0
        array[i, attrs.index("NORM")] = 0
        if augmentation == GENDER_SWAP:
            morph = _swap_morph_gender(str(doc[i].morph))
            array[i, attrs.index("MORPH")] = doc.vocab.strings.add(morph) if morph else 0
    new.from_array(attrs, array)
    for key, group in doc.spans.items():
        spans = [
            Span(new, s.start, s.end, label=s.label, kb_id=s.kb_id, span_id=s.id) for s in group
        ]
        new.spans[key] = SpanGroup(new, name=key, attrs=copy.deepcopy(group.attrs), spans=spans)
    new.cats = dict(doc.cats)
    return new


def gender_swap_words(doc: Doc, rng: random.Random) -> Replacements:
    """The replacements of "gender_swap": gendered words, and listed first names mapped to
    names of the other gender (the same one at every occurrence, none already in the doc).

    doc (Doc): the document.
    rng (random.Random): picks the replacement names.
    RETURNS (Dict[int, str]): token index -> new word.
    """
    taken = {token.text for token in doc}
    names: Dict[str, str] = {}
    replacements: Replacements = {}
    for token in doc:
        name = _as_name(token.text)
        if name in NAME_GENDERS:
            if name not in names:
                names[name] = _pick(rng, NAMES_OF[OTHER_GENDER[NAME_GENDERS[name]]], taken)
            replacements[token.i] = _match_case(token.text, names[name])
        else:
            word = _swap_word(doc, token.i)
            if word is not None:
                replacements[token.i] = _match_case(token.text, word)
    return replacements


def name_substitution_words(doc: Doc, rng: random.Random) -> Replacements:
    """The replacements of "names": one person (picked at random among `find_persons`) gets a
    first name of the same gender and another surname, at every occurrence of each.

    doc (Doc): the document.
    rng (random.Random): picks the person and the names.
    RETURNS (Dict[int, str]): token index -> new word.
    """
    persons = find_persons(doc)
    if not persons:
        return {}
    gender, firsts, surnames = rng.choice(persons)
    taken = {token.text for token in doc}
    names = {name: _pick(rng, NAMES_OF[gender], taken) for name in sorted(firsts)}
    names.update({name: _pick(rng, SURNAMES, taken) for name in sorted(surnames)})
    return {
        token.i: _match_case(token.text, names[_as_name(token.text)])
        for token in doc
        if _as_name(token.text) in names
    }


def find_persons(doc: Doc) -> List[Person]:
    """The people a doc names, from its gold clusters (and, for GAP, its A and B spans outside
    the clusters): a cluster whose mentions include a proper name of one or two capitalised
    tokens (after an optional title: "Mr. Darcy"), and whose gender is known from a listed
    first name, the title, or a majority of its he/she pronouns.

    doc (Doc): the document.
    RETURNS (List[Tuple[str, Set[str], Set[str]]]): (gender, first names, surnames) per person,
        in the order of the clusters.
    """
    groups: List[List[Span]] = [list(group) for group in get_cluster_groups(doc)]
    in_clusters = {(span.start, span.end) for group in groups for span in group}
    for span in doc.spans.get(GOLD_MENTIONS_KEY, []):
        if (span.start, span.end) not in in_clusters:
            groups.append([span])
    proper, first_names = _proper_words(doc, groups)
    persons = []
    for mentions in groups:
        person = _person(mentions, proper, first_names)
        if person is not None:
            persons.append(person)
    return persons


def _proper_words(doc: Doc, groups: List[List[Span]]) -> Tuple[Set[str], Set[str]]:
    """The capitalised words of a doc that look like proper names: a listed first name, a word
    that is capitalised somewhere other than at a sentence start and never lower case
    ("Outfielder Brock Holt ..." and "the chair ... Mr. Chair" give neither word), or the first
    word of a two-word mention before such a word ("Zelda Quill", starting a GAP text). And
    those of them that look like first names: listed, or before another name and never after.
    """
    has_sents = doc.has_annotation("SENT_START")
    lower = {token.text for token in doc if token.text.islower()}
    proper = set()
    for token in doc:
        word = token.text
        if not _is_name_word(word) or word.lower() in lower:
            continue
        if word in NAME_GENDERS or (token.i > 0 and not (has_sents and token.is_sent_start)):
            proper.add(word)
    for span in (span for mentions in groups for span in mentions if len(span) == 2):
        first, second = span[0].text, span[1].text
        if second in proper and _is_name_word(first) and first.lower() not in lower:
            proper.add(first)
    pairs = [(a.text, b.text) for a, b in zip(doc[:-1], doc[1:]) if {a.text, b.text} <= proper]
    seconds = {second for _, second in pairs}
    firsts = {first for first, _ in pairs if first not in seconds}
    return proper, firsts | (proper & set(NAME_GENDERS))


def _person(mentions: List[Span], proper: Set[str], first_names: Set[str]) -> Optional[Person]:
    votes: Counter = Counter()
    firsts: Set[str] = set()
    surnames: Set[str] = set()
    names = []
    for span in sorted(mentions, key=len, reverse=True):  # full names first
        words = [token.text for token in span]
        lower = words[0].lower()
        if len(words) == 1 and lower in MASCULINE_PRONOUNS | FEMININE_PRONOUNS:
            votes[MALE if lower in MASCULINE_PRONOUNS else FEMALE] += 1
            continue
        if len(words) > 1 and words[-1] in ("'s", "'"):
            words = words[:-1]
        if len(words) > 1 and (lower in TITLE_GENDERS or lower in NEUTRAL_TITLES):
            if lower in TITLE_GENDERS:
                votes[TITLE_GENDERS[lower]] += 2
            words = words[1:]
        if 1 <= len(words) <= 2 and all(word in proper for word in words):
            names.append(words)
            if len(words) == 2 or words[0] in first_names or words[0] in firsts:
                firsts.add(words[0])
            if len(words) == 2 or words[0] not in firsts:
                surnames.add(words[-1])
    listed = {NAME_GENDERS[name] for name in firsts if name in NAME_GENDERS}
    if not names or len(listed) > 1:
        return None
    if listed:
        return (listed.pop(), firsts, surnames - firsts)
    if votes[MALE] == votes[FEMALE]:
        return None
    return (MALE if votes[MALE] > votes[FEMALE] else FEMALE, firsts, surnames - firsts)


def _is_name_word(word: str) -> bool:
    """A capitalised alphabetic word (Smith, not SMITH or smith) that is not a function word."""
    return word.isalpha() and word.istitle() and word.lower() not in NOT_NAMES


def _as_name(word: str) -> str:
    """The name a token spells, in title case ("SMITH" -> "Smith"), or "" if it is no name."""
    if word.istitle() or (word.isupper() and len(word) > 1):
        return word.title() if word.isalpha() else ""
    return ""


def _pick(rng: random.Random, names: Sequence[str], taken: Set[str]) -> str:
    """A name not in the doc and not picked before (it is added to `taken`)."""
    free = [name for name in names if name not in taken]
    name = rng.choice(free or list(names))
    taken.add(name)
    return name


def _swap_word(doc: Doc, i: int) -> Optional[str]:
    """The other gender's word for token i (lower case), or None."""
    lower = doc[i].text.lower()
    after = doc[i + 1].text if i + 1 < len(doc) else ""
    if lower in ("her", "his"):
        possessive = _is_possessive(doc, i)
        if lower == "her":
            return "his" if possessive else "him"
        return "her" if possessive else "hers"
    if lower == "hers":
        return "his"
    if lower in TITLES_BEFORE_NAME and after.istitle() and doc[i].text.istitle():
        return TITLES_BEFORE_NAME[lower]
    return GENDER_SWAPS.get(lower)


def _is_possessive(doc: Doc, i: int) -> bool:
    """Whether his/her at i is a determiner ("her book"), by its tag (PTB PRP$ or PRP) where the
    doc has one, otherwise by the next word: a word that is not a function word."""
    tag = doc[i].tag_
    if tag in ("PRP$", "PRP"):
        return tag == "PRP$"
    if i + 1 == len(doc):
        return False
    after = doc[i + 1].text
    return after[:1].isalnum() and after.lower() not in NOT_POSSESSED


def _match_case(original: str, word: str) -> str:
    """`word` in the case of `original`: HE -> SHE, He -> She, he -> she."""
    if original.isupper() and len(original) > 1:
        return word.upper()
    if original[:1].isupper():
        return word[:1].upper() + word[1:]
    return word.lower()


def _swap_morph_gender(morph: str) -> str:
    swapped = {"Gender=Masc": "Gender=Fem", "Gender=Fem": "Gender=Masc"}
    return "|".join(swapped.get(feature, feature) for feature in morph.split("|") if feature)


AUGMENTATIONS: Dict[str, Callable[[Doc, random.Random], Replacements]] = {
    NAMES: name_substitution_words,
    GENDER_SWAP: gender_swap_words,
}
