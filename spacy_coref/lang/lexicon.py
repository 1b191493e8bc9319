"""A language's facts as data: the word lists the rules read (first names and their gender,
titles, nouns of people, bodies of people and things, the last words of company names, verbs of
saying, contrast groups, the closed classes of function words, the verbs the rules name and
their forms, a letter's greetings and sign-offs, capitalised words that are no names) and one
pronoun table from which every pronoun set is derived. No word list is written in Python.

A `Lexicon` reads the JSON files of one folder (`spacy_coref/lang/en/` for English), once, and
checks their shape: a malformed file raises a `DataFormatError` that names it. Each file is an
object with an "about" field (what its lists are and where they came from) and the fields
below; lists hold each entry once and are sorted, but for the fields a file names in "ordered"
(where the order is read: the pronoun table's paradigm, the bits of the contrast groups, the
values of the number words).

The named word lists (`WORD_LISTS`: each a field of function_words.json, verbs.json,
letter_words.json or non_names.json) are read through `Lexicon.words` ("argument_prepositions",
or the union of several), and the forms of a group of verbs through `Lexicon.verb_forms`
(verbs.json's "forms": the inflected forms that the rules without a parse match, by lemma). A
word may be in two lists of one file where they are two facts ("for" is an argument
preposition and a duration preposition), but no fact is listed twice: a list that adds words
to another is the difference, read as a union (`words("argument_prepositions",
"adjective_prepositions")`).
"""
import json
from pathlib import Path
from typing import (
    Any, Callable, Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Tuple, Union,
)

from ..errors import DataFormatError, Errors

MASCULINE, FEMININE, NEUTER = "masculine", "feminine", "neuter"
GENDERS = (MASCULINE, FEMININE, NEUTER)
SINGULAR, PLURAL = "singular", "plural"
NOMINATIVE, ACCUSATIVE, GENITIVE = "nominative", "accusative", "genitive"
CASES = (NOMINATIVE, ACCUSATIVE, GENITIVE)
# "my" stands before a noun, "mine" alone, "his" either way
DEPENDENT, INDEPENDENT, BOTH = "dependent", "independent", "both"


class Pronoun(NamedTuple):
    """One form of the pronoun table."""

    form: str  # lower case
    person: int  # 1, 2 or 3
    number: Optional[str]  # SINGULAR, PLURAL, or None where either ("you")
    gender: Optional[str]  # MASCULINE, FEMININE, NEUTER, or None
    cases: Tuple[str, ...]  # of CASES: "her" is ("accusative", "genitive")
    reflexive: bool
    possessive: Optional[str]  # DEPENDENT, INDEPENDENT, BOTH, or None
    archaic: bool  # "thou", "thee", "thy", "thine", "ye"
    generic: bool  # "oneself"


class _Any:
    def __repr__(self) -> str:
        return "ANY"


ANY: Any = _Any()  # a criterion of `Lexicon.pronouns` that any value meets


class _Malformed(Exception):
    """A problem with one field of a data file (the loader adds the file's path)."""


# The named word lists: file -> its fields, each a list of words (`Lexicon.words`).
WORD_LISTS: Dict[str, Tuple[str, ...]] = {
    "function_words.json": (
        "adjective_prepositions", "argument_prepositions", "clause_coordinators",
        "definite_articles", "demonstratives", "duration_prepositions", "expletives",
        "fronting_conjunctions", "fronting_prepositions", "group_words", "indefinite_articles",
        "indefinite_determiners", "intransitive_argument_prepositions", "negations",
        "not_mention_ends", "not_mention_starts", "not_possessed", "noun_phrase_clause_words",
        "number_words", "others", "phrase_coordinators", "place_adverbs",
        "preposition_adverbs", "quantifiers", "subject_relatives", "subordinators",
        "wh_relatives",
    ),
    "verbs.json": (
        "bare_complement_verbs", "complement_subject_verbs", "copular_verbs", "looking_verbs",
        "naming_participles", "non_third_person_forms", "predicate_adjective_verbs",
    ),
    "letter_words.json": ("greetings", "sign_offs"),
    "non_names.json": ("non_names", "sentence_initial_non_names"),
}
# the fields of verbs.json that are groups of verbs (lemmas), whose forms `verb_forms` reads
VERB_GROUPS = (
    "bare_complement_verbs", "complement_subject_verbs", "copular_verbs", "looking_verbs",
    "predicate_adjective_verbs",
)


# What each field of a data file holds; each check returns the field's value, read.
def _words(value: Any) -> Tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(w, str) and w for w in value):
        raise _Malformed("expected a list of non-empty strings")
    twice = sorted({w for w in value if value.count(w) > 1})
    if twice:
        raise _Malformed(f"listed twice: {', '.join(twice)}")
    return tuple(value)


def _word_groups(value: Any) -> Dict[str, Tuple[str, ...]]:
    if not isinstance(value, dict) or not value:
        raise _Malformed("expected an object of groups, each a list of strings")
    groups = {str(name): _words(words) for name, words in value.items()}
    seen: Dict[str, str] = {}
    for name, words in groups.items():
        for word in words:
            if word in seen:
                raise _Malformed(f"'{word}' is in group '{seen[word]}' and in group '{name}'")
            seen[word] = name
    return groups


def _mapping(value: Any) -> Dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v for k, v in value.items()
    ):
        raise _Malformed("expected an object of strings")
    return dict(value)


def _genders(value: Any) -> Dict[str, str]:
    mapping = _mapping(value)
    wrong = sorted(k for k, v in mapping.items() if v not in (MASCULINE, FEMININE))
    if wrong:
        raise _Malformed(f"expected 'masculine' or 'feminine' for {', '.join(wrong)}")
    return mapping


def _word_forms(value: Any) -> Dict[str, Tuple[str, ...]]:
    if not isinstance(value, dict):
        raise _Malformed("expected an object of lists of strings")
    return {str(k): _words(v) for k, v in value.items()}


def _pairs(value: Any) -> Tuple[Tuple[str, str], ...]:
    if not isinstance(value, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(w, str) and w for w in p)
        for p in value
    ):
        raise _Malformed("expected a list of [masculine, feminine] pairs of strings")
    return tuple((m, f) for m, f in value)


def _contrast_groups(value: Any) -> Tuple[Tuple[Tuple[str, ...], ...], ...]:
    if not isinstance(value, list) or not all(
        isinstance(group, list) and len(group) > 1 and all(
            isinstance(synonyms, list) and synonyms and all(isinstance(w, str) and w
                                                             for w in synonyms)
            for synonyms in group
        )
        for group in value
    ):
        raise _Malformed(
            "expected a list of groups, each a list of two or more values, each a list of "
            "synonyms (strings)"
        )
    words = [w for group in value for synonyms in group for w in synonyms]
    twice = sorted({w for w in words if words.count(w) > 1})
    if twice:
        raise _Malformed(f"in two values: {', '.join(twice)}")
    return tuple(tuple(tuple(synonyms) for synonyms in group) for group in value)


_PRONOUN_FIELDS = {
    "form": lambda v: isinstance(v, str) and v == v.lower() and bool(v),
    "person": lambda v: v in (1, 2, 3) and not isinstance(v, bool),
    "number": lambda v: v in (SINGULAR, PLURAL, None),
    "gender": lambda v: v in (*GENDERS, None),
    "case": lambda v: isinstance(v, list) and bool(v) and all(c in CASES for c in v),
    "reflexive": lambda v: isinstance(v, bool),
    "possessive": lambda v: v in (DEPENDENT, INDEPENDENT, BOTH, None),
    "archaic": lambda v: isinstance(v, bool),
    "generic": lambda v: isinstance(v, bool),
}


def _pronoun_table(value: Any) -> Tuple[Pronoun, ...]:
    if not isinstance(value, list) or not value:
        raise _Malformed("expected a list of pronoun forms")
    table = []
    for i, entry in enumerate(value):
        if not isinstance(entry, dict) or set(entry) != set(_PRONOUN_FIELDS):
            raise _Malformed(
                f"form {i + 1}: expected an object with the fields {', '.join(_PRONOUN_FIELDS)}"
            )
        wrong = [name for name, valid in _PRONOUN_FIELDS.items() if not valid(entry[name])]
        if wrong:
            raise _Malformed(
                f"form {i + 1} ({entry.get('form')!r}): unexpected "
                + ", ".join(f"{name} {entry[name]!r}" for name in wrong)
            )
        table.append(Pronoun(
            entry["form"], entry["person"], entry["number"], entry["gender"],
            tuple(entry["case"]), entry["reflexive"], entry["possessive"], entry["archaic"],
            entry["generic"],
        ))
    _words([p.form for p in table])
    return tuple(table)


Check = Callable[..., Any]


def read_data_file(path: Union[str, Path], fields: Dict[str, Check]) -> Dict[str, Any]:
    """One data file's fields, read and checked: an object with "about" (a string), an
    optional "ordered" (the names of the fields whose order is read) and `fields`.

    path (Union[str, Path]): the JSON file.
    fields (Dict[str, Callable]): field name -> the check that reads it.
    RETURNS (Dict[str, Any]): field name -> value (without "about" and "ordered").
    RAISES DataFormatError: the file is missing, not JSON, or a field is missing or malformed.
    """
    path = Path(path)

    def malformed(problem: str) -> DataFormatError:
        return DataFormatError(Errors.CE440.format(path=path, problem=problem))

    try:
        data = json.loads(path.read_text(encoding="utf8"))
    except OSError as e:
        raise malformed(f"it cannot be read ({e.strerror or e})") from e
    except ValueError as e:  # json.JSONDecodeError and UnicodeDecodeError
        raise malformed(f"it is not JSON ({e})") from e
    if not isinstance(data, dict):
        raise malformed(f"expected a JSON object, found {type(data).__name__}")
    expected = {"about", "ordered", *fields}
    if not isinstance(data.get("about"), str) or not data["about"]:
        raise malformed("expected a field 'about' (a string: what the lists are)")
    missing = [name for name in fields if name not in data]
    unknown = sorted(set(data) - expected)
    if missing or unknown:
        raise malformed(
            f"expected the fields {', '.join(fields)} (missing: {', '.join(missing) or 'none'}; "
            f"unknown: {', '.join(unknown) or 'none'})"
        )
    ordered = data.get("ordered", [])
    if not isinstance(ordered, list) or not set(ordered) <= set(fields):
        raise malformed(f"'ordered' should list fields of this file ({', '.join(fields)})")
    read = {}
    for name, check in fields.items():
        try:
            read[name] = check(data[name])
        except _Malformed as e:
            raise malformed(f"field '{name}': {e}") from None
    return read


class Lexicon:
    """The facts of one language, read from the JSON files of `path` (see the module's
    docstring); `spacy_coref.lang.en.english()` is English's, read once."""

    def __init__(self, path: Union[str, Path]):
        """path (Union[str, Path]): the folder of the data files.
        RAISES DataFormatError: a file is missing or malformed (the message names it).
        """
        self.path = Path(path)
        names = self._read("first_names.json", feminine=_words, masculine=_words,
                           unisex=_words, common_feminine=_words, common_masculine=_words)
        self.feminine_first_names: FrozenSet[str] = frozenset(names["feminine"])
        self.masculine_first_names: FrozenSet[str] = frozenset(names["masculine"])
        self.unisex_first_names: FrozenSet[str] = frozenset(names["unisex"])
        # the names the training augmentation gives a person, in their order
        self.common_feminine_names: Tuple[str, ...] = names["common_feminine"]
        self.common_masculine_names: Tuple[str, ...] = names["common_masculine"]
        self.surnames: Tuple[str, ...] = self._read("surnames.json", surnames=_words)["surnames"]
        self.place_first_names: FrozenSet[str] = frozenset(
            self._read("place_names.json", first_names_of_places=_words)["first_names_of_places"]
        )
        titles = self._read("titles.json", neutral=_words, gendered=_genders,
                            before_names=_words, places=_words, address=_words)
        self.neutral_titles: FrozenSet[str] = frozenset(titles["neutral"])
        # title -> MASCULINE or FEMININE, the gender of the name after it
        self.title_genders: Dict[str, str] = titles["gendered"]
        self.name_titles: FrozenSet[str] = frozenset(titles["before_names"])
        self.place_titles: FrozenSet[str] = frozenset(titles["places"])
        self.address_titles: FrozenSet[str] = frozenset(titles["address"])
        gendered = self._read("gendered_words.json", masculine=_words, feminine=_words,
                              swap_pairs=_pairs, one_way_swaps=_mapping, title_swaps=_mapping)
        self.masculine_words: Tuple[str, ...] = gendered["masculine"]
        self.feminine_words: Tuple[str, ...] = gendered["feminine"]
        # (masculine, feminine) nouns and titles swapped by the training augmentation
        self.gender_swap_pairs: Tuple[Tuple[str, str], ...] = gendered["swap_pairs"]
        self.one_way_swaps: Dict[str, str] = gendered["one_way_swaps"]
        self.title_swaps: Dict[str, str] = gendered["title_swaps"]
        self.person_noun_groups: Dict[str, Tuple[str, ...]] = self._read(
            "person_nouns.json", nouns=_word_groups)["nouns"]
        self.person_nouns: FrozenSet[str] = _union(self.person_noun_groups)
        self.collective_nouns: FrozenSet[str] = frozenset(
            self._read("collective_nouns.json", nouns=_words)["nouns"]
        )
        self.thing_noun_groups: Dict[str, Tuple[str, ...]] = self._read(
            "thing_nouns.json", nouns=_word_groups)["nouns"]
        self.thing_nouns: FrozenSet[str] = _union(self.thing_noun_groups)
        self.company_words: FrozenSet[str] = frozenset(
            self._read("company_words.json", words=_words)["words"]
        )
        speech = self._read("speech_verbs.json", verbs=_words, reply_verbs=_words,
                            irregular_forms=_word_forms)
        self.speech_verbs: FrozenSet[str] = frozenset(speech["verbs"])
        self.reply_verbs: FrozenSet[str] = frozenset(speech["reply_verbs"])
        # lemma -> its irregular forms ("say": ("said",))
        self.irregular_speech_forms: Dict[str, Tuple[str, ...]] = speech["irregular_forms"]
        self.contrast_groups: Tuple[Tuple[Tuple[str, ...], ...], ...] = self._read(
            "contrasts.json", groups=_contrast_groups)["groups"]
        self.pronoun_table: Tuple[Pronoun, ...] = self._read(
            "pronouns.json", forms=_pronoun_table)["forms"]
        # name -> its words, in the file's order (`words`); verbs.json's forms by lemma
        self.word_lists: Dict[str, Tuple[str, ...]] = {}
        self.verb_form_table: Dict[str, Tuple[str, ...]] = {}
        for name, lists in WORD_LISTS.items():
            fields: Dict[str, Check] = dict.fromkeys(lists, _words)
            if name == "verbs.json":
                fields["forms"] = _word_forms
            read = self._read(name, **fields)
            self.verb_form_table = read.pop("forms", self.verb_form_table)
            self.word_lists.update(read)
        grouped = {lemma for group in VERB_GROUPS for lemma in self.word_lists[group]}
        ungrouped = sorted(set(self.verb_form_table) - grouped)
        if ungrouped:
            raise DataFormatError(Errors.CE440.format(
                path=self.path / "verbs.json",
                problem=f"field 'forms': in no group of verbs: {', '.join(ungrouped)}",
            ))
        # the numbers from zero to twenty as words, each at its value's place
        self.number_words: Tuple[str, ...] = self.word_lists["number_words"]

    def _read(self, name: str, **fields: Check) -> Dict[str, Any]:
        return read_data_file(self.path / name, fields)

    @property
    def first_names(self) -> FrozenSet[str]:
        """The first names of either listed gender, as written ("Mark", not "mark")."""
        return self.feminine_first_names | self.masculine_first_names

    def words(self, *names: str) -> FrozenSet[str]:
        """The words of the named word lists (`WORD_LISTS`), together:
        `words("argument_prepositions")`, `words("fronting_conjunctions",
        "fronting_prepositions")`.

        names (str): the lists' names (fields of function_words.json, verbs.json,
            letter_words.json, non_names.json).
        RETURNS (FrozenSet[str]): the words of any of them.
        RAISES KeyError: a name that is no list's.
        """
        unknown = [name for name in names if name not in self.word_lists]
        if unknown or not names:
            raise KeyError(
                f"no word list {', '.join(map(repr, unknown)) or '(none named)'}; the lists: "
                f"{', '.join(sorted(self.word_lists))}"
            )
        return frozenset(w for name in names for w in self.word_lists[name])

    def verb_forms(self, *groups: str) -> FrozenSet[str]:
        """The forms (verbs.json's "forms") of the verbs of the named groups of verbs
        (`VERB_GROUPS`): `verb_forms("looking_verbs")` holds "looked" and "glanced"; a verb
        without forms there ("peep") adds none.

        groups (str): the groups' names.
        RETURNS (FrozenSet[str]): the forms.
        RAISES KeyError: a name that is no group of verbs.
        """
        unknown = [group for group in groups if group not in VERB_GROUPS]
        if unknown or not groups:
            raise KeyError(
                f"no group of verbs {', '.join(map(repr, unknown)) or '(none named)'}; the "
                f"groups: {', '.join(VERB_GROUPS)}"
            )
        return frozenset(
            form for lemma in self.words(*groups) for form in self.verb_form_table.get(lemma, ())
        )

    def pronoun(self, form: str) -> Optional[Pronoun]:
        """The table's entry of `form` (lower case), or None."""
        for pronoun in self.pronoun_table:
            if pronoun.form == form:
                return pronoun
        return None

    def pronouns(
        self,
        *,
        person: Any = ANY,
        number: Any = ANY,
        gender: Any = ANY,
        case: Any = ANY,
        not_case: Any = ANY,
        reflexive: Any = ANY,
        possessive: Any = ANY,
        archaic: Any = False,
        generic: Any = ANY,
    ) -> Tuple[str, ...]:
        """The forms of the pronoun table that meet every criterion given, in the table's order:
        `pronouns(gender="masculine")` is ("he", "him", "his", "himself"). A criterion is one
        value or a tuple of values the form's may be (`gender=("masculine", "feminine")`;
        None is a value: `possessive=(None, "dependent")`); `case` holds where the form
        stands in any of the cases given, `not_case` where it stands in none of them ("he", not
        "you", is `case="nominative", not_case="accusative"`), and `possessive=True` for any
        possessive form. Archaic forms ("thou") are left out unless `archaic` is True or ANY.
        """

        def meets(value: Any, criterion: Any) -> bool:
            if criterion is ANY:
                return True
            return value in criterion if isinstance(criterion, tuple) else value == criterion

        cases = (case,) if isinstance(case, str) else case
        not_cases = (not_case,) if isinstance(not_case, str) else not_case
        return tuple(
            p.form for p in self.pronoun_table
            if meets(p.person, person) and meets(p.number, number) and meets(p.gender, gender)
            and (cases is ANY or any(c in p.cases for c in cases))
            and (not_cases is ANY or not any(c in p.cases for c in not_cases))
            and meets(p.reflexive, reflexive) and meets(p.archaic, archaic)
            and meets(p.generic, generic)
            and (meets(p.possessive is not None, possessive) if isinstance(possessive, bool)
                 else meets(p.possessive, possessive))
        )


def _union(groups: Dict[str, Iterable[str]]) -> FrozenSet[str]:
    words: List[str] = [w for group in groups.values() for w in group]
    return frozenset(words)
