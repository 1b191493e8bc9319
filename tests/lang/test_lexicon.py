"""The English lexicon: its data files load, are sorted and hold each entry once, the pronoun
sets derived from its one table are the ones the code expects, its named word lists (function
words, verbs and their forms, letter words, non-names) are there, no word is in two groups
that exclude each other, it resolves through spaCy's registry, and a malformed file names
itself."""
import configparser
import json
import shutil
from pathlib import Path

import pytest
from spacy.util import registry

from spacy_coref.errors import DataFormatError
from spacy_coref.lang import ANY, Lexicon
from spacy_coref.lang.lexicon import VERB_GROUPS, WORD_LISTS
from spacy_coref.lang.en import DATA_DIR, en_lexicon, english

DATA_FILES = sorted(DATA_DIR.glob("*.json"))
SETUP_CFG = Path(__file__).resolve().parents[2] / "setup.cfg"


def test_the_lexicon_loads_once():
    lexicon = english()
    assert isinstance(lexicon, Lexicon) and english() is lexicon
    assert "Alice" in lexicon.feminine_first_names and "David" in lexicon.masculine_first_names
    assert "Sam" in lexicon.unisex_first_names and "Sofia" in lexicon.place_first_names
    assert "physicist" in lexicon.person_nouns and "jury" in lexicon.collective_nouns
    assert "garden" in lexicon.thing_nouns and "Energy" in lexicon.company_words
    assert "dr." in lexicon.neutral_titles and lexicon.title_genders["mrs."] == "feminine"
    assert "say" in lexicon.speech_verbs and "reply" in lexicon.reply_verbs
    assert lexicon.irregular_speech_forms["write"] == ("wrote", "written")
    assert lexicon.contrast_groups[0] == (("old",), ("new",), ("young",))
    assert ("man", "woman") in lexicon.gender_swap_pairs
    assert lexicon.first_names == lexicon.feminine_first_names | lexicon.masculine_first_names


def test_the_registered_function_resolves_to_the_lexicon():
    assert registry.misc.get("spacy_coref.en_lexicon.v1") is en_lexicon
    assert en_lexicon() is english()
    config = {"lexicon": {"@misc": "spacy_coref.en_lexicon.v1"}}
    assert registry.resolve(config)["lexicon"] is english()


def test_the_entry_point_and_the_data_files_are_in_setup_cfg():
    parser = configparser.ConfigParser()
    parser.read(SETUP_CFG)
    misc = parser["options.entry_points"]["spacy_misc"]
    assert "spacy_coref.en_lexicon.v1 = spacy_coref.lang.en:en_lexicon" in misc
    package_data = [p.strip() for p in parser["options.package_data"]["spacy_coref"].split(",")]
    assert "lang/en/*.json" in package_data
    assert len(DATA_FILES) == 16


PRONOUN_SETS = [
    ({"gender": "masculine"}, ("he", "him", "his", "himself")),
    ({"gender": "feminine"}, ("she", "her", "hers", "herself")),
    ({"gender": "neuter"}, ("it", "its", "itself")),
    ({"person": 3, "number": "plural"}, ("they", "them", "their", "theirs", "themselves")),
    ({"person": 1, "number": "singular"}, ("i", "me", "my", "mine", "myself")),
    ({"person": 1, "number": "plural"}, ("we", "us", "our", "ours", "ourselves")),
    ({"person": 2}, ("you", "your", "yours", "yourself", "yourselves")),
    ({"reflexive": True}, ("myself", "ourselves", "yourself", "yourselves", "himself", "herself",
                           "itself", "themselves", "oneself")),
    ({"case": "nominative"}, ("i", "we", "you", "he", "she", "it", "they")),
    ({"case": "nominative", "not_case": "accusative"}, ("i", "we", "he", "she", "they")),
    ({"case": "accusative", "not_case": "nominative", "reflexive": False},
     ("me", "us", "him", "her", "them")),
    ({"possessive": ("dependent", "both")}, ("my", "our", "your", "his", "her", "its", "their")),
    ({"possessive": True, "not_case": "accusative", "archaic": ANY},
     ("my", "mine", "our", "ours", "your", "yours", "his", "hers", "its", "their", "theirs",
      "thy", "thine")),
    ({"person": (1, 2), "case": "nominative", "archaic": ANY}, ("i", "we", "you", "thou", "ye")),
    ({"archaic": True}, ("thou", "thee", "thy", "thine", "ye")),
    ({"gender": "masculine", "case": ("nominative", "accusative")}, ("he", "him", "himself")),
]


@pytest.mark.parametrize("criteria,forms", PRONOUN_SETS)
def test_pronoun_sets_derived_from_the_table(criteria, forms):
    assert english().pronouns(**criteria) == forms


def test_the_code_reads_its_pronoun_sets_from_the_table():
    from spacy_coref import resolved_text
    from spacy_coref.decoding.steps import cataphora, groups, salience, whole_phrases
    from spacy_coref.linguistics import clause_roles, main_mention, mention_classes, quotations
    from spacy_coref.linguistics import unparsed_quotes
    from spacy_coref.ml import candidates
    from spacy_coref.training import augmentation

    he, she = {"he", "him", "his", "himself"}, {"she", "her", "hers", "herself"}
    they = {"they", "them", "their", "theirs", "themselves"}
    assert mention_classes.PRONOUN_CLASS == {
        **dict.fromkeys(sorted(he), mention_classes.MASCULINE),
        **dict.fromkeys(sorted(she), mention_classes.FEMININE),
        **dict.fromkeys(("it", "its", "itself"), mention_classes.NEUTER),
        **dict.fromkeys(sorted(they), mention_classes.PLURAL),
    }
    assert mention_classes.NEUTER_PLURAL_PRONOUNS == (
        "it", "its", "itself", "they", "them", "their", "theirs", "themselves"
    )
    assert list(mention_classes.CATAPHORIC_PRONOUNS) == [
        "he", "him", "his", "she", "her", "they", "them", "their"
    ]
    assert clause_roles.OBJECT_CASE == {"him", "her", "them"}
    assert salience.GENDERED_PRONOUNS == whole_phrases.PERSONAL_PRONOUNS == he | she
    assert groups.PLURAL_PRONOUNS == they
    assert quotations.FIRST_SINGULAR == {"i", "me", "my", "mine", "myself"}
    assert cataphora.PERSONAL_PRONOUNS == {"i", "you", "he", "she", "it", "we", "they"}
    assert candidates.SUBJECT_PRONOUNS == {"i", "he", "she", "we", "they"}
    assert candidates.OBJECT_PRONOUNS == {"him", "her", "them", "me", "us"}
    assert unparsed_quotes.POSSESSIVES == {"his", "her", "their", "my", "our", "your", "its"}
    assert main_mention._PERSONAL == {
        *quotations.FIRST_SINGULAR, *quotations.FIRST_PLURAL, *quotations.SECOND, *he, *she, *they,
        "it", "its", "itself", "thou", "thee", "thy", "thine",
    }
    assert resolved_text._SPEAKER_SUBJECTS == {"i", "we", "you", "thou", "ye"}
    assert augmentation.GENDERED_PAIRS[:4] == (
        ("he", "she"), ("him", "her"), ("himself", "herself"), ("man", "woman")
    )


def test_every_form_is_in_the_table_once_with_all_its_fields():
    table = english().pronoun_table
    assert len({p.form for p in table}) == len(table) == 37
    her = english().pronoun("her")
    assert her.cases == ("accusative", "genitive") and her.possessive == "dependent"
    assert english().pronoun("oneself").generic and english().pronoun("xyz") is None


def test_every_word_list_is_there_and_not_empty():
    lexicon = english()
    assert {p.name for p in DATA_FILES} >= set(WORD_LISTS)
    names = [name for lists in WORD_LISTS.values() for name in lists]
    assert len(names) == len(set(names))  # one name, one list, across the files
    assert set(lexicon.word_lists) == set(names)
    for name in names:
        assert lexicon.words(name), name
    assert set(VERB_GROUPS) <= set(WORD_LISTS["verbs.json"])
    for group in VERB_GROUPS:
        assert lexicon.words(group) and all(w.isalpha() for w in lexicon.words(group))


def test_word_lists_and_verb_forms():
    lexicon = english()
    assert lexicon.words("argument_prepositions") == {"to", "at", "about", "for", "from", "of"}
    assert lexicon.words("argument_prepositions", "adjective_prepositions") == {
        "to", "at", "about", "for", "from", "of", "with", "on", "upon", "in", "by"
    }
    assert {"dear", "hi"} <= lexicon.words("greetings") and "regards" in lexicon.words(
        "sign_offs")
    assert "january" in lexicon.words("non_names") and "may" not in lexicon.words("non_names")
    assert lexicon.number_words[:3] == ("zero", "one", "two") and len(lexicon.number_words) == 21
    # the forms of a group are those of its verbs that verbs.json's "forms" lists
    assert lexicon.verb_forms("looking_verbs") == {
        "look", "looks", "looked", "looking", "glanced", "gazed", "stared", "peered", "turned"
    }
    assert {"made", "felt", "saw"} <= lexicon.verb_forms("complement_subject_verbs")
    assert "had" not in lexicon.verb_forms("complement_subject_verbs")  # "have": no forms
    assert lexicon.verb_form_table["be"] == (
        "am", "are", "be", "been", "being", "is", "was", "were"
    )
    with pytest.raises(KeyError, match="no word list 'prepositions'"):
        lexicon.words("prepositions")
    with pytest.raises(KeyError, match="no group of verbs 'greetings'"):
        lexicon.verb_forms("greetings")


def test_the_code_reads_its_word_lists_from_the_lexicon():
    from spacy_coref import resolved_text
    from spacy_coref.decoding.steps import cataphora, contrasts
    from spacy_coref.linguistics import name_words, person_names, quotations
    from spacy_coref.linguistics import unparsed_clauses as ub
    from spacy_coref.ml import candidates
    from spacy_coref.training import masking

    lexicon = english()
    assert ub.COPULAS == lexicon.verb_forms("predicate_adjective_verbs")
    assert ub.BARE_VERB_NOUNS == lexicon.words("bare_complement_verbs")
    assert ub.SUBORDINATORS >= ub.RELATIVE_WORDS == {"who", "that", "which"}
    assert cataphora.FRONTING_WORDS >= {"although", "when", "in", "despite"}
    assert person_names.NOT_NAMES == lexicon.words("non_names")
    assert candidates.COORDINATORS == {"and", "or"} and "but" in ub.COORDINATORS
    assert resolved_text._DETERMINERS == {"the", "a", "an", "this", "that", "these", "those"}
    assert quotations.GREETINGS == lexicon.words("greetings")
    assert name_words.NAMING_PARTICIPLES == {"called", "named", "nicknamed", "dubbed"}
    assert contrasts.NUMBER_WORDS["twenty"] == "20"
    # a masked pronoun's class is its place in this tuple: the table must keep its order
    assert masking.PRONOUN_CLASSES == (
        "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself",
        "they", "them", "their", "theirs", "themselves",
    )


def _exclusive_groups(lexicon):
    """Groups of lists whose words exclude each other: a word in two lists of one group is a
    conflict (the lists read it two ways)."""
    first_names = {n.lower() for n in lexicon.first_names | lexicon.unisex_first_names}
    masculine_titles = {t for t, g in lexicon.title_genders.items() if g == "masculine"}
    feminine_titles = {t for t, g in lexicon.title_genders.items() if g == "feminine"}
    return {
        "gender": {  # of a person's word: masculine, feminine or either
            "masculine": set(lexicon.masculine_words) | masculine_titles,
            "feminine": set(lexicon.feminine_words) | feminine_titles,
            "either gender": lexicon.neutral_titles | lexicon.person_nouns,
        },
        "first names": {
            "feminine": lexicon.feminine_first_names,
            "masculine": lexicon.masculine_first_names,
            "unisex": lexicon.unisex_first_names,
        },
        "nouns": {  # what a noun's referent is
            "a person": lexicon.person_nouns | set(lexicon.masculine_words)
            | set(lexicon.feminine_words),
            "a body of people": lexicon.collective_nouns,
            "a thing": lexicon.thing_nouns,
        },
        "names": {
            "first names": first_names,
            "no names": lexicon.words("non_names", "sentence_initial_non_names"),
        },
        "conjunctions": {
            "coordinating": lexicon.words("clause_coordinators", "phrase_coordinators"),
            "subordinating": lexicon.words("subordinators", "fronting_conjunctions"),
        },
        "articles": {
            "definite": lexicon.words("definite_articles"),
            "indefinite": lexicon.words("indefinite_determiners"),
        },
        "letters": {
            "greetings": lexicon.words("greetings"),
            "sign-offs": lexicon.words("sign_offs"),
        },
    }


def test_no_word_is_in_two_exclusive_groups():
    conflicts = [
        f"{family}: '{word}' is {a} and {b}"
        for family, groups in _exclusive_groups(english()).items()
        for i, (a, words_a) in enumerate(groups.items())
        for b, words_b in list(groups.items())[i + 1:]
        for word in sorted(set(words_a) & set(words_b))
    ]
    assert not conflicts, "\n".join(conflicts)


def test_a_gendered_title_is_not_a_neutral_one():
    # "chairman" was a neutral title and a masculine word; it is masculine, a title before a
    # name (the names rule) and one the augmentation takes off a name with its gender
    lexicon = english()
    for title, gender in (("chairman", "masculine"), ("congressman", "masculine"),
                          ("chairwoman", "feminine")):
        assert title not in lexicon.neutral_titles
        assert title in lexicon.name_titles and lexicon.title_genders[title] == gender
        assert title in (lexicon.masculine_words if gender == "masculine"
                         else lexicon.feminine_words)


def test_exclusive_groups_find_a_conflict(data_copy):
    path = data_copy / "titles.json"
    data = json.loads(path.read_text(encoding="utf8"))
    data["neutral"] = sorted(data["neutral"] + ["chairman"])
    path.write_text(json.dumps(data), encoding="utf8")
    groups = _exclusive_groups(Lexicon(data_copy))["gender"]
    assert "chairman" in groups["masculine"] & groups["either gender"]


def _lists(value, path=()):
    """The lists of strings in a data file's field, with where they are."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        yield path, value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from _lists(inner, (*path, key))


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_data_files_are_sorted_and_without_duplicates(path):
    data = json.loads(path.read_text(encoding="utf8"))
    assert isinstance(data.pop("about"), str)
    ordered = data.pop("ordered", [])
    for field, value in data.items():
        if isinstance(value, dict):
            assert list(value) == sorted(value), f"{path.name}: {field}: keys not sorted"
        words = [w for _, words in _lists(value) for w in words]
        assert len(words) == len(set(words)), f"{path.name}: {field}: an entry twice"
        if field in ordered:
            continue
        for where, words in _lists(value, (field,)):
            assert words == sorted(words), f"{path.name}: {'/'.join(where)} not sorted"


def test_no_word_is_masculine_and_feminine():
    lexicon = english()
    assert not lexicon.feminine_first_names & lexicon.masculine_first_names
    assert not set(lexicon.masculine_words) & set(lexicon.feminine_words)
    assert not lexicon.unisex_first_names & lexicon.first_names
    assert lexicon.place_first_names <= lexicon.first_names
    assert set(lexicon.common_feminine_names) <= lexicon.feminine_first_names


@pytest.fixture
def data_copy(tmp_path):
    for path in DATA_FILES:
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def test_a_copy_of_the_data_loads_the_same(data_copy):
    copy = Lexicon(data_copy)
    assert copy.pronoun_table == english().pronoun_table
    assert copy.thing_nouns == english().thing_nouns


@pytest.mark.parametrize("name,text,problem", [
    ("thing_nouns.json", '{"about": "x", "nouns": {"a": ["wall",]}}', "not JSON"),
    ("company_words.json", '["Inc"]', "expected a JSON object"),
    ("company_words.json", '{"words": ["Inc"]}', "'about'"),
    ("company_words.json", '{"about": "x", "word": ["Inc"]}', "missing: words"),
    ("company_words.json", '{"about": "x", "words": ["Inc", "Inc"]}', "listed twice: Inc"),
    ("company_words.json", '{"about": "x", "words": "Inc"}', "field 'words'"),
    ("thing_nouns.json", '{"about": "x", "nouns": {"a": ["wall"], "b": ["wall"]}}',
     "'wall' is in group 'a' and in group 'b'"),
    ("titles.json", '{"about": "x", "neutral": [], "gendered": {"mr": "male"}, '
     '"before_names": [], "places": [], "address": []}', "'masculine' or 'feminine' for mr"),
    ("function_words.json", '{"about": "x"}', "missing: adjective_prepositions"),
    ("letter_words.json", '{"about": "x", "greetings": ["dear", "dear"], "sign_offs": []}',
     "listed twice: dear"),
    ("letter_words.json", '{"about": "x", "greetings": ["dear"], "sign_offs": ["best"], '
     '"openings": []}', "unknown: openings"),
    ("non_names.json", '{"about": "x", "non_names": "god", "sentence_initial_non_names": []}',
     "field 'non_names'"),
])
def test_a_malformed_file_names_itself(data_copy, name, text, problem):
    (data_copy / name).write_text(text, encoding="utf8")
    with pytest.raises(DataFormatError, match="CE440") as error:
        Lexicon(data_copy)
    assert str(data_copy / name) in str(error.value)
    assert problem in str(error.value)


def test_a_malformed_pronoun_says_which_form(data_copy):
    path = data_copy / "pronouns.json"
    data = json.loads(path.read_text(encoding="utf8"))
    data["forms"][1]["person"] = 4
    path.write_text(json.dumps(data), encoding="utf8")
    with pytest.raises(DataFormatError, match=r"pronouns\.json.*form 2 \('me'\).*person 4"):
        Lexicon(data_copy)


def test_a_missing_file_names_itself(data_copy):
    (data_copy / "contrasts.json").unlink()
    with pytest.raises(DataFormatError, match=r"CE440.*contrasts\.json.*cannot be read"):
        Lexicon(data_copy)


def _rewrite(path, change):
    data = json.loads(path.read_text(encoding="utf8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf8")


def test_malformed_verb_forms_name_their_file(data_copy):
    path = data_copy / "verbs.json"
    _rewrite(path, lambda data: data["forms"].update(look="looked"))
    with pytest.raises(DataFormatError, match=r"CE440.*verbs\.json.*field 'forms'"):
        Lexicon(data_copy)
    # a verb with forms is in a group of verbs
    _rewrite(path, lambda data: data["forms"].update(look=["looked"], run=["ran"]))
    with pytest.raises(DataFormatError, match=r"CE440.*verbs\.json.*in no group of verbs: run"):
        Lexicon(data_copy)


def test_a_missing_word_list_file_names_itself(data_copy):
    (data_copy / "function_words.json").unlink()
    with pytest.raises(DataFormatError, match=r"CE440.*function_words\.json.*cannot be read"):
        Lexicon(data_copy)
