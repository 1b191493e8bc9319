"""Pronoun problems (`../shared/data/pronouns/`) as GAP-like partial training examples.

Each problem becomes one doc with a PRONOUN span and its candidate spans A and B under
`GOLD_MENTIONS_KEY`, labelled exactly as `read_gap` labels GAP rows, and the pronoun's link to
the right candidate as the doc's one cluster. The training code recognises a partial example by
`GOLD_MENTIONS_KEY` alone, so these docs train with the gold-mention-filtered loss as GAP's do.

The formats (one JSON object a line; the kind is told by the keys):

* WinoGrande (`id`, `sentence` with one `_` blank, `option1`, `option2`, `answer` 1 or 2): the
  blank (with a "the"/"a"/"an" before it) becomes a pronoun that fits both options, by the rules
  of `choose_pronoun`; a problem that no pronoun fits is dropped and counted.
* WSC (`id`, `before`, `pronoun`, `after`, `options` [2], `answer` 1 or 2): the text is
  before + pronoun + after, as it is.
* PDP (`id`, `sentence` with one `[MASK]`, `options` [2 or more], `answer_text`): the masked
  pronoun is filled in by the same rules as WinoGrande's blank; of more than two options, the
  answer and the first other option found in the text are the candidates.
* BUG (`id`, `tokens`, `profession_index`, `pronoun_index`, ...): only PRONOUN and A (the
  occupation), linked; no B, so these docs are for training, not for GAP's scorer.

A candidate is the option's text found in the problem's text (whole words; the last occurrence
before the pronoun, else the first after it); a problem whose option is not in its text, or
whose options overlap there, is dropped and counted too.

Twins (the two problems of one schema, which differ in a word or two and have opposite answers)
share a twin key (`twin_key`): `split_by_twin` never puts twins on both sides of a split.
"""
import hashlib
import json
import logging
import re
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.tokens import Doc, Span, SpanGroup
from spacy.vocab import Vocab

from ..annotations import GOLD_MENTIONS_KEY, set_clusters, set_doc_id
from ..errors import DataFormatError, Errors
from ..lang.en import english
from ._util import PathLike, location
from .gap import A, B, GAP_ID, GAP_URL, PRONOUN, tokenize_at_spans

logger = logging.getLogger(__name__)

# doc.user_data keys: the problem's kind ("winogrande", "wsc", "pdp", "bug") and twin key
PROBLEM_KIND = "pronoun_problem_kind"
PROBLEM_TWIN = "pronoun_problem_twin"
WINOGRANDE, WSC, PDP, BUG = "winogrande", "wsc", "pdp", "bug"
# the keys that tell each kind (a line must have all of them)
KIND_KEYS = {
    WINOGRANDE: ("id", "sentence", "option1", "option2", "answer"),
    WSC: ("id", "before", "pronoun", "after", "options", "answer"),
    PDP: ("id", "sentence", "options", "answer_text"),
    BUG: ("id", "tokens", "profession_index", "pronoun_index"),
}
BLANKS = {WINOGRANDE: "_", PDP: "[MASK]"}
# counter keys (`ProblemCounts`): "read", "kept" and "dropped: <reason>"
READ, KEPT = "read", "kept"
DROP_NOT_FOUND = "dropped: an option is not in the text"
DROP_OVERLAP = "dropped: the options overlap in the text"
DROP_GENDER = "dropped: people of unknown or different genders"
DROP_MIXED = "dropped: one option a person, the other not"
DROP_NUMBER = "dropped: options of different or unclear number"
DROP_MODIFIER = "dropped: the blank is not a whole noun phrase slot"
DROP_IN_WORD = "dropped: the blank is part of a word"
DROP_CASE = "dropped: the pronoun's case is unclear"
DROP_BUG_TOKENS = "dropped: an empty token or one with whitespace (BUG)"
DROP_BUG_INDEX = "dropped: an index does not point at its word (BUG)"

ProblemCounts = Counter


class PronounProblem(NamedTuple):
    """One problem: its text, the PRONOUN/A(/B) character spans and which candidate is right."""

    id: str
    kind: str
    text: str
    spans: Dict[str, Tuple[int, int]]  # role -> (start, end) character offsets
    answer: str  # A or B
    twin: str  # the twin key (see `twin_key`)


# --- choosing WinoGrande's pronoun -------------------------------------------------------------

_LEX = english()
DETERMINERS = frozenset(("the", "a", "an"))
# Words after which the blank starts a clause: the pronoun is a subject ("because he ...").
SUBJECT_AFTER = (
    _LEX.words("subordinators", "fronting_conjunctions", "clause_coordinators")
    | frozenset(("so", "that", "then", "therefore", "thus", "hence", "yet", "whereas", "but",
                 "consequently", "however", "later", "why", "who", "whether"))
)
SINGULAR_VERBS = frozenset(("is", "was", "has", "does", "isn't", "wasn't", "hasn't", "doesn't",
                            "was't", "is'nt"))
PLURAL_VERBS = frozenset(("are", "were", "have", "do", "aren't", "weren't", "haven't", "don't"))
# Words that may follow a whole noun phrase but not stand after a noun modifier ("the _ was",
# "in the _ .", "the _ always"): after "the _", another word ("the _ actions") leaves the
# blank a modifier, and the problem is dropped.
AFTER_NOUN_PHRASE = (
    SINGULAR_VERBS | PLURAL_VERBS | _LEX.words("subordinators", "clause_coordinators")
    | frozenset((
        "would", "could", "will", "can", "should", "might", "must", "may", "shall", "had",
        "did", "wouldn't", "couldn't", "won't", "can't", "cannot", "shouldn't", "didn't",
        "hadn't", "be", "been", "being", "not", "never", "always", "also", "just", "really",
        "still", "only", "already", "often", "usually", "too", "so", "then", "to", "for",
        "with", "at", "by", "from", "of", "about", "on", "in", "into", "than", "that", "like",
        "instead", "more", "less", "much", "even", "seemed", "seems", "looked", "looks",
        "felt", "feels", "got", "gets", "kept", "became", "becomes", "needed", "needs",
    ))
)
AUXILIARIES = SINGULAR_VERBS | PLURAL_VERBS | frozenset((
    "would", "could", "will", "can", "should", "might", "must", "may", "shall", "had", "did",
    "wouldn't", "couldn't", "won't", "can't", "cannot", "shouldn't", "didn't", "hadn't",
))
PREPOSITIONS = frozenset((
    "about", "at", "for", "from", "of", "to", "in", "on", "with", "without", "by", "into",
    "onto", "over", "under", "behind", "near", "beside", "than", "like", "toward", "towards",
    "against", "upon", "around", "through", "between", "among", "despite",
))
# words that follow an object but not a subject ("gave it to ...", "than him .")
AFTER_OBJECT = PREPOSITIONS | frozenset(("and", "or", "but", "because", "so", "since", "as",
                                         "instead", "too", "again", "anymore", "either", "now",
                                         "here", "there", "up", "down", "away", "back", "off",
                                         "out", "home"))
# words before a noun but not before a pronoun: possessives, demonstratives, quantifiers
NOT_BEFORE_NP = r"(?:my|your|his|her|its|our|their|this|these|those|some|any|each|every|no|" \
    r"both|either|neither|another|other|whose)"
SENTENCE_END = re.compile(r"(^|[.!?][\"')\]]*)\s*$")
PERSON_NOUNS = _LEX.person_nouns | frozenset(_LEX.masculine_words) | frozenset(_LEX.feminine_words)
# gender -> (subject, object, possessive)
PRONOUN_FORMS = {
    "masculine": ("he", "him", "his"),
    "feminine": ("she", "her", "her"),
    "neuter": ("it", "it", "its"),
    "plural": ("they", "them", "their"),
}


# First names that WinoGrande uses often and the lexicon does not list (unlisted, or borne by
# women and men alike), with the gender of every listed name WinoGrande pairs them with (in
# train-l and dev, each is paired only with names of that one gender, 125 to 237 times): the
# pronoun a problem's author had in mind. For these problems only, not for names in general.
WINOGRANDE_NAME_GENDERS = {
    **dict.fromkeys(("Lindsey", "Carrie", "Katrina"), "feminine"),
    **dict.fromkeys(("Derrick", "Kyle", "Randy", "Brett", "Lawrence", "Hunter", "Leslie",
                     "Nelson"), "masculine"),
}


def _option_class(option: str) -> Tuple[str, Optional[str]]:
    """("person", gender or None) for a first name or a person noun; ("thing", "neuter" or
    "plural" or None) otherwise (None: number unclear)."""
    words = option.split()
    last = words[-1] if words else option
    if last in WINOGRANDE_NAME_GENDERS:
        return "person", WINOGRANDE_NAME_GENDERS[last]
    if last in _LEX.feminine_first_names and last not in _LEX.masculine_first_names:
        return "person", "feminine"
    if last in _LEX.masculine_first_names and last not in _LEX.feminine_first_names:
        return "person", "masculine"
    if last in _LEX.unisex_first_names:
        return "person", None
    lower = last.lower()
    singular = lower[:-1] if lower.endswith("s") else lower
    for form in (lower, singular):
        if form in PERSON_NOUNS:
            gender = ("masculine" if form in _LEX.masculine_words
                      else "feminine" if form in _LEX.feminine_words else None)
            return "person", gender
    if last[:1].isupper() and option == last and lower not in _LEX.thing_nouns:
        return "person", None  # a capitalised single word not known as a name: unknown gender
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")) and not last.isupper():
        return "thing", "plural"
    return "thing", "neuter"


def choose_pronoun(
    text: str, start: int, end: int, options: Sequence[str]
) -> Tuple[Optional[Tuple[int, int, str]], str]:
    """The pronoun that fits both options in the blank text[start:end], by these rules:

    1. The slot: a "the"/"a"/"an" just before the blank is replaced with it. The pronoun is a
       possessive before "'s" ("_'s" -> "his", the "'s" dropped); a subject at a sentence
       start, after a comma, a subordinator or coordinator ("because _") or before an
       auxiliary ("_ was"); an object after a preposition ("to _"), at the end or before a
       preposition or conjunction ("gave _ to"); else the case is unclear ("only _ petted",
       "[MASK] boss") and the problem is dropped.
       After a determiner, the next word must be one that can follow a whole noun phrase
       (`AFTER_NOUN_PHRASE`, or punctuation): "the _ actions" is a modifier slot (dropped);
       so is a blank after a possessive, demonstrative or quantifier ("her _", "those _") or
       after "the"/"a"/"an" and one word ("the old _"), where only a noun fits.
    2. Both options people (listed first names, `WINOGRANDE_NAME_GENDERS`, person nouns, or
       other capitalised single words): "he"/"him"/"his" or "she"/"her"/"her" when both have
       the same known gender; otherwise dropped (a "they" would not agree with the verb; and
       a gender that tells the options apart gives the answer away).
    3. Both options things: "it"/"its" when both are singular, "they"/"them"/"their" when both
       are plural (a final "s", not "ss", "us" or "is"); a verb after the blank ("is"/"are")
       must agree. Options of different number are dropped; so is a person against a thing.
    4. The pronoun is capitalised at a sentence start.

    text (str): the sentence. start, end (int): the blank's character offsets.
    options (Sequence[str]): the two options.
    RETURNS: ((start, end, pronoun) of the text to replace, or None) and the drop reason ("").
    """
    before = text[:start]
    after = text[end:]
    m = re.search(r"(?:^|(?<=\s))(the|a|an|The|A|An)\s+$", before)
    determiner = m is not None
    if m is not None:
        start = m.start()
        before = text[:start]
    possessive = after.startswith(("'s", "’s"))
    if possessive:
        end += 2
    rest = after[2:] if possessive else after
    next_word = re.match(r"\s*([A-Za-z][A-Za-z'’]*)", rest)
    following = next_word.group(1).lower() if next_word else ""
    if determiner and not possessive and following and following not in AFTER_NOUN_PHRASE:
        return None, DROP_MODIFIER
    if re.search(r"(?:^|\W)(?:(?:the|a|an)\s+[\w'’-]+|" + NOT_BEFORE_NP + r")\s+$", before,
                 re.IGNORECASE):
        return None, DROP_MODIFIER  # "her _ are", "the old _": the blank is a noun, not an NP
    prev_match = re.search(r"([A-Za-z'’]+)\W*$", before)
    sentence_start = SENTENCE_END.search(before) is not None
    prev = prev_match.group(1).lower() if prev_match else ""
    if possessive:
        case: Optional[int] = 2
    elif (sentence_start or prev in SUBJECT_AFTER or following in AUXILIARIES
          or before.rstrip().endswith((",", ";", ":"))):
        case = 0
    elif prev in PREPOSITIONS or not following or following in AFTER_OBJECT:
        case = 1
    else:
        case = None  # "only _ petted", "[MASK] boss": a subject, an object or a possessive
    classes = [_option_class(option) for option in options]
    (kind1, form1), (kind2, form2) = classes
    if kind1 != kind2:
        return None, DROP_MIXED
    if kind1 == "person":
        if form1 is None or form1 != form2:
            return None, DROP_GENDER
        gender = form1
    else:
        if form1 != form2:
            return None, DROP_NUMBER
        if (form1 == "neuter" and following in PLURAL_VERBS) or (
            form1 == "plural" and following in SINGULAR_VERBS
        ):
            return None, DROP_NUMBER
        gender = form1
    if case is None:
        return None, DROP_CASE
    pronoun = PRONOUN_FORMS[gender][case]
    if sentence_start:
        pronoun = pronoun[0].upper() + pronoun[1:]
    return (start, end, pronoun), ""


# --- reading -----------------------------------------------------------------------------------


def read_pronoun_problems(
    path: PathLike, *, vocab: Optional[Vocab] = None, counts: Optional[ProblemCounts] = None
) -> Iterator[Doc]:
    """Read a pronoun-problem file (WinoGrande, WSC, PDP or BUG jsonlines), one doc per kept
    problem; the counts of read, kept and dropped problems (by reason) are added to `counts`
    and logged at the end.

    path (PathLike): The file.
    vocab (Optional[Vocab]): The vocab of the docs; an English one by default.
    counts (Optional[Counter]): Where to add the counts.
    YIELDS (Doc): Docs with PRONOUN/A/B spans under `GOLD_MENTIONS_KEY` (BUG: PRONOUN/A), the
        pronoun's cluster with the right candidate, sentence starts, and in `doc.user_data`
        the ID (also as GAP's), the kind and the twin key.
    """
    counts = counts if counts is not None else Counter()
    nlp: Language = spacy.blank("en", vocab=vocab) if vocab is not None else spacy.blank("en")
    sentencizer = Sentencizer()
    for problem, loc in iter_problems(path, counts):
        yield sentencizer(make_problem_doc(nlp, problem, loc))
    logger.info("%s: %s", path, format_counts(counts))


def load_pronoun_problems(
    path: PathLike, *, vocab: Optional[Vocab] = None
) -> Tuple[List[Doc], ProblemCounts]:
    """`read_pronoun_problems` as a list, with the counts of read, kept and dropped problems."""
    counts: ProblemCounts = Counter()
    docs = list(read_pronoun_problems(path, vocab=vocab, counts=counts))
    return docs, counts


def format_counts(counts: ProblemCounts) -> str:
    """A one-line summary: 'read N, kept K; dropped: reason M, ...'."""
    drops = [(k, v) for k, v in sorted(counts.items()) if k.startswith("dropped")]
    summary = f"read {counts[READ]}, kept {counts[KEPT]}"
    if drops:
        summary += "; " + ", ".join(f"{k} {v}" for k, v in drops)
    return summary


def iter_problems(
    path: PathLike, counts: Optional[ProblemCounts] = None
) -> Iterator[Tuple[PronounProblem, str]]:
    """The kept problems of a file with their `file:line`; drops are counted in `counts`."""
    counts = counts if counts is not None else Counter()
    path = Path(path)
    with path.open(encoding="utf8") as file_:
        for line, text in enumerate(file_, start=1):
            if not text.strip():
                continue
            loc = location(path, line)
            obj = _json_object(text, loc)
            counts[READ] += 1
            problem, reason = parse_problem(obj, loc)
            if problem is None:
                counts[reason] += 1
                continue
            counts[KEPT] += 1
            yield problem, loc


def is_pronoun_problem_file(path: PathLike) -> bool:
    """Whether a jsonlines file holds pronoun problems: its first line is a JSON object with
    the keys of one kind (`KIND_KEYS`) and without the coreference jsonlines' 'sentences'.
    An unreadable first line gives False (the jsonlines reader then reports it)."""
    try:
        with Path(path).open(encoding="utf8") as file_:
            first = next((text for text in file_ if text.strip()), "")
        obj = json.loads(first)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return is_pronoun_problem(obj) and "sentences" not in obj


def is_pronoun_problem(obj: Any) -> bool:
    """Whether a JSON object has the keys of one kind of pronoun problem."""
    return isinstance(obj, dict) and problem_kind(obj) is not None


def problem_kind(obj: Dict[str, Any]) -> Optional[str]:
    """The kind whose keys the object has, or None."""
    for kind, keys in KIND_KEYS.items():
        if all(key in obj for key in keys):
            return kind
    return None


def _json_object(text: str, loc: str) -> Dict[str, Any]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataFormatError(Errors.CE040.format(loc=loc, error=e)) from e
    if not isinstance(obj, dict):
        raise DataFormatError(Errors.CE040.format(loc=loc, error=f"found {type(obj).__name__}"))
    return obj


def _expect(obj: Dict[str, Any], key: str, ok: bool, expected: str, loc: str) -> None:
    if not ok:
        found = json.dumps(obj.get(key))[:80] if key in obj else "no such key"
        raise DataFormatError(Errors.CE041.format(loc=loc, key=key, expected=expected, found=found))


def _string(obj: Dict[str, Any], key: str, loc: str) -> str:
    value = obj.get(key)
    _expect(obj, key, isinstance(value, str), "a string", loc)
    return value


def _options(obj: Dict[str, Any], loc: str, *, at_least: bool = False) -> List[str]:
    value = obj.get("options")
    ok = (isinstance(value, list) and (len(value) >= 2 if at_least else len(value) == 2)
          and all(isinstance(v, str) and v.strip() for v in value))
    what = "two or more" if at_least else "two"
    _expect(obj, "options", ok, f"a list of {what} non-empty strings", loc)
    return value


def _two_options(text: str, options: List[str], answer_text: str) -> List[str]:
    """PDP's options cut to two: the answer and the first other option (in the file's order)
    whose words are in the text, in the file's order; the first two if none is."""
    others = [o for o in options if o != answer_text]
    found = [o for o in others if re.search(r"(?<![\w])" + re.escape(o) + r"(?![\w])", text, re.I)]
    other = (found or others)[0]
    return [o for o in options if o in (answer_text, other)][:2]


def _answer(obj: Dict[str, Any], loc: str) -> str:
    value = obj.get("answer")
    _expect(obj, "answer", value in (1, 2) and not isinstance(value, bool), "1 or 2", loc)
    return A if value == 1 else B


def parse_problem(obj: Dict[str, Any], loc: str) -> Tuple[Optional[PronounProblem], str]:
    """Check one line's object; the problem, or None and the reason it is dropped."""
    kind = problem_kind(obj)
    if kind is None:
        expected = "; ".join(f"{k}: {', '.join(keys)}" for k, keys in KIND_KEYS.items())
        raise DataFormatError(
            Errors.CE042.format(loc=loc, expected=expected, found=", ".join(sorted(obj)))
        )
    id_ = _string(obj, "id", loc)
    if kind == BUG:
        return _bug_problem(obj, id_, loc)
    if kind == WSC:
        before, pronoun, after = (_string(obj, key, loc) for key in ("before", "pronoun", "after"))
        _expect(obj, "pronoun", bool(pronoun.strip()), "a non-empty string", loc)
        text = " ".join(part for part in (before.strip(), pronoun.strip()) if part)
        p_start = len(text) - len(pronoun.strip())
        p_end = len(text)
        rest = after.strip()
        if rest:
            text += rest if rest[0] in ".,;:!?'’" else " " + rest
        options = _options(obj, loc)
        return _with_candidates(kind, id_, text, (p_start, p_end), options, _answer(obj, loc))
    sentence = _string(obj, "sentence", loc)
    blank = BLANKS[kind]
    found = [m.span() for m in re.finditer(re.escape(blank), sentence)]
    if len(found) != 1:
        raise DataFormatError(
            Errors.CE043.format(loc=loc, blank=blank, key="sentence", found=len(found))
        )
    (b_start, b_end), = found
    if sentence[b_start - 1 : b_start].isalnum() or sentence[b_end : b_end + 1].isalnum():
        return None, DROP_IN_WORD  # "the sun_ seemed"
    if kind == WINOGRANDE:
        options = [_string(obj, key, loc) for key in ("option1", "option2")]
        for key, option in zip(("option1", "option2"), options):
            _expect(obj, key, bool(option.strip()), "a non-empty string", loc)
        answer = _answer(obj, loc)
    else:
        options = _options(obj, loc, at_least=True)
        answer_text = _string(obj, "answer_text", loc)
        if answer_text not in options:
            raise DataFormatError(
                Errors.CE044.format(loc=loc, answer=answer_text, options=options)
            )
        options = _two_options(sentence, options, answer_text)
        answer = A if answer_text == options[0] else B
    choice, reason = choose_pronoun(sentence, *found[0], options)
    if choice is None:
        return None, reason
    start, end, pronoun = choice
    text = sentence[:start] + pronoun + sentence[end:]
    return _with_candidates(kind, id_, text, (start, start + len(pronoun)), options, answer)


def _with_candidates(
    kind: str, id_: str, text: str, pronoun: Tuple[int, int], options: Sequence[str], answer: str
) -> Tuple[Optional[PronounProblem], str]:
    spans = {PRONOUN: pronoun}
    for role, option in zip((A, B), options):
        span = find_option(text, option, pronoun)
        if span is None:
            return None, DROP_NOT_FOUND
        spans[role] = span
    (s1, e1), (s2, e2) = spans[A], spans[B]
    if s1 < e2 and s2 < e1:
        return None, DROP_OVERLAP
    return PronounProblem(id_, kind, text, spans, answer, twin_key(kind, id_, options)), ""


def find_option(text: str, option: str, pronoun: Tuple[int, int]) -> Optional[Tuple[int, int]]:
    """The option's place in the text as whole words outside the pronoun: the last occurrence
    before the pronoun, else the first after it; exact case first, then any case; then without
    a leading "the"/"a"/"an", then the option's last word alone (its head: "Anne's daughter"
    is "a daughter" in the text)."""
    option = option.strip()
    variants = [option]
    stripped = re.sub(r"^(the|a|an)\s+", "", option, flags=re.IGNORECASE)
    if stripped != option and stripped:
        variants.append(stripped)
    if len(stripped.split()) > 1:
        variants.append(stripped.split()[-1])  # "Anne's daughter": "a daughter" in the text
    for variant in variants:
        for flags in (0, re.IGNORECASE):
            pattern = r"(?<![\w])" + re.escape(variant) + r"(?![\w])"
            spans = [m.span() for m in re.finditer(pattern, text, flags)]
            spans = [s for s in spans if s[1] <= pronoun[0] or s[0] >= pronoun[1]]
            before = [s for s in spans if s[1] <= pronoun[0]]
            if before:
                return before[-1]
            if spans:
                return spans[0]
    return None


def _bug_problem(obj: Dict[str, Any], id_: str, loc: str) -> Tuple[Optional[PronounProblem], str]:
    tokens = obj.get("tokens")
    ok = isinstance(tokens, list) and all(isinstance(t, str) for t in tokens)
    _expect(obj, "tokens", ok, "a list of strings", loc)
    for key in ("pronoun_index", "profession_index"):
        index = obj.get(key)
        ok = isinstance(index, int) and not isinstance(index, bool) and index >= 0
        _expect(obj, key, ok, "a token index (an integer from 0)", loc)
    if any(not t.strip() or any(c.isspace() for c in t) for t in tokens):
        return None, DROP_BUG_TOKENS
    offsets = []
    text = ""
    for token in tokens:
        text += " " if text else ""
        offsets.append((len(text), len(text) + len(token)))
        text += token
    spans = {}
    for role, key, word_key in ((PRONOUN, "pronoun_index", "pronoun"),
                                (A, "profession_index", "profession")):
        index = obj[key]
        word = obj.get(word_key)
        if index >= len(tokens) or (
            isinstance(word, str) and word.lower() != tokens[index].lower()
        ):
            return None, DROP_BUG_INDEX
        spans[role] = offsets[index]
    if spans[PRONOUN] == spans[A]:
        return None, DROP_BUG_INDEX
    return PronounProblem(id_, BUG, text, spans, A, twin_key(BUG, text, ())), ""


def twin_key(kind: str, id_: str, options: Sequence[str]) -> str:
    """The key that twins share: WinoGrande dev "wg-dev-STEM-N" -> "wg-dev-STEM"; WinoGrande
    train "wg-train-N" -> "wg-train-pair-{N // 2}" (the file holds the twins as consecutive
    pairs 0/1, 2/3, ...); WSC and PDP: the kind and the two options, lower case (the problems of
    one schema share their candidates); BUG: "bug:" and the text, passed as `id_` (one
    sentence each; BUG's IDs are not unique)."""
    if kind == WINOGRANDE:
        head, _, number = id_.rpartition("-")
        if head == "wg-train" and number.isdecimal():
            return f"wg-train-pair-{int(number) // 2}"
        return head if head and number.isdecimal() else id_
    if kind in (WSC, PDP):
        return kind + ":" + "|".join(sorted(option.strip().lower() for option in options))
    return f"{kind}:{id_}"


def make_problem_doc(nlp: Language, problem: PronounProblem, loc: str) -> Doc:
    """Tokenize so that every span is a token span, and annotate the doc as `read_gap` does."""
    text = problem.text
    doc = tokenize_at_spans(nlp, text, problem.spans.values())
    spans: Dict[str, Span] = {}
    for role, (start, end) in problem.spans.items():
        span = doc.char_span(start, end, label=role)
        if span is None:  # offsets come from whole-word matches; a guard, not an expected case
            raise DataFormatError(Errors.CE045.format(loc=loc, role=role, span=text[start:end]))
        spans[role] = span
    ordered = [spans[role] for role in (PRONOUN, A, B) if role in spans]
    doc.spans[GOLD_MENTIONS_KEY] = SpanGroup(doc, name=GOLD_MENTIONS_KEY, spans=ordered)
    pair = [spans[PRONOUN], spans[problem.answer]]
    set_clusters(doc, [[(span.start, span.end) for span in pair]])
    set_doc_id(doc, problem.id)
    doc.user_data[GAP_ID] = problem.id
    doc.user_data[GAP_URL] = ""
    doc.user_data[PROBLEM_KIND] = problem.kind
    doc.user_data[PROBLEM_TWIN] = problem.twin
    return doc


# --- splitting ---------------------------------------------------------------------------------


def split_by_twin(
    docs: Iterable[Doc], dev_fraction: float = 0.1, *, seed: int = 0
) -> Tuple[List[Doc], List[Doc]]:
    """Split problem docs into train and dev by their twin key (`PROBLEM_TWIN`, else the doc's
    GAP ID), so that twins always land on the same side. The side of a key comes from a hash
    of the seed and the key: it does not depend on the order or on the other docs.

    docs (Iterable[Doc]): Docs from `read_pronoun_problems`.
    dev_fraction (float): The expected share of twin keys in dev, from 0 to 1.
    seed (int): Another seed gives another split.
    RETURNS (Tuple[List[Doc], List[Doc]]): train, dev, each in the input's order.
    """
    if not 0.0 <= dev_fraction <= 1.0:
        raise ValueError(Errors.CE046.format(fraction=dev_fraction))
    train: List[Doc] = []
    dev: List[Doc] = []
    for doc in docs:
        key = doc.user_data.get(PROBLEM_TWIN) or doc.user_data.get(GAP_ID) or doc.text
        (dev if _in_dev(key, dev_fraction, seed) else train).append(doc)
    return train, dev


def _in_dev(key: str, dev_fraction: float, seed: int) -> bool:
    digest = hashlib.sha256(f"{seed}\0{key}".encode("utf8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < dev_fraction
