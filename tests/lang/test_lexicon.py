"""The English lexicon: its data files load, are sorted and hold each entry once, the pronoun
sets derived from its one table are the ones the code expects, it resolves through spaCy's
registry, and a malformed file names itself."""
import configparser
import json
import shutil
from pathlib import Path

import pytest
from spacy.util import registry

from spacy_coref.errors import DataFormatError
from spacy_coref.lang import ANY, Lexicon
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
    assert len(DATA_FILES) == 12


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
    from spacy_coref.ml import candidates
    from spacy_coref.pipeline import cataphora, constraints, groups, quotes, salience
    from spacy_coref.pipeline import unparsed_quotes, whole_phrases
    from spacy_coref.training import augmentation

    he, she = {"he", "him", "his", "himself"}, {"she", "her", "hers", "herself"}
    they = {"they", "them", "their", "theirs", "themselves"}
    assert constraints.PRONOUN_CLASS == {
        **dict.fromkeys(sorted(he), constraints.MASCULINE),
        **dict.fromkeys(sorted(she), constraints.FEMININE),
        **dict.fromkeys(("it", "its", "itself"), constraints.NEUTER),
        **dict.fromkeys(sorted(they), constraints.PLURAL),
    }
    assert constraints.NEUTER_PLURAL_PRONOUNS == (
        "it", "its", "itself", "they", "them", "their", "theirs", "themselves"
    )
    assert list(constraints.CATAPHORIC_PRONOUNS) == [
        "he", "him", "his", "she", "her", "they", "them", "their"
    ]
    assert constraints.OBJECT_CASE == {"him", "her", "them"}
    assert salience.GENDERED_PRONOUNS == whole_phrases.PERSONAL_PRONOUNS == he | she
    assert groups.PLURAL_PRONOUNS == they
    assert quotes.FIRST_SINGULAR == {"i", "me", "my", "mine", "myself"}
    assert cataphora.PERSONAL_PRONOUNS == {"i", "you", "he", "she", "it", "we", "they"}
    assert candidates.SUBJECT_PRONOUNS == {"i", "he", "she", "we", "they"}
    assert candidates.OBJECT_PRONOUNS == {"him", "her", "them", "me", "us"}
    assert unparsed_quotes.POSSESSIVES == {"his", "her", "their", "my", "our", "your", "its"}
    assert resolved_text._PERSONAL == {
        *quotes.FIRST_SINGULAR, *quotes.FIRST_PLURAL, *quotes.SECOND, *he, *she, *they,
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
