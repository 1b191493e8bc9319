"""The mention rules and filters on hand-built parsed docs (so parser releases do not move them)."""
from typing import List, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import spacy
from spacy.tokens import Doc

from spacy_coref.pipeline.mention_rules import (
    DEFAULT_RULES,
    KNOWN_RULES,
    RULES,
    _ids,
    entities,
    extract_mentions,
    filter_mentions,
    is_numeric,
    is_pleonastic_it,
    outermost,
    read_parse,
    trim,
    unknown_rules,
)

# An English vocab: the rules read lowercase forms ("it", "this", "here").
VOCAB = spacy.blank("en").vocab


def make_doc(
    rows: List[tuple], ents: Optional[List[str]] = None, lemmas: Optional[List[str]] = None
) -> Doc:
    """A doc from (word, head, dep, pos[, tag]) rows; heads are absolute indices."""
    return Doc(
        VOCAB,
        words=[row[0] for row in rows],
        heads=[row[1] for row in rows],
        deps=[row[2] for row in rows],
        pos=[row[3] for row in rows],
        tags=[row[4] if len(row) > 4 else "" for row in rows],
        ents=ents,
        lemmas=lemmas,
    )


def texts(doc: Doc, spans) -> List[str]:
    return sorted(doc[start:end].text for start, end in spans)


def rule_texts(doc: Doc, name: str) -> List[str]:
    """What one rule proposes, after the common trimming and filters."""
    return texts(doc, extract_mentions(doc, rules=[name]))


# "Even the king of France , who smiled , saw her sister ."
KING = make_doc(
    [
        ("Even", 2, "advmod", "ADV"),
        ("the", 2, "det", "DET"),
        ("king", 9, "nsubj", "NOUN"),
        ("of", 2, "prep", "ADP"),
        ("France", 3, "pobj", "PROPN", "NNP"),
        (",", 2, "punct", "PUNCT"),
        ("who", 7, "nsubj", "PRON", "WP"),
        ("smiled", 2, "relcl", "VERB"),
        (",", 2, "punct", "PUNCT"),
        ("saw", 9, "ROOT", "VERB"),
        ("her", 11, "poss", "PRON", "PRP$"),
        ("sister", 9, "dobj", "NOUN"),
        (".", 9, "punct", "PUNCT"),
    ],
    ents=["O", "O", "O", "O", "B-GPE"] + ["O"] * 8,
)


def test_noun_phrases_heads_modifiers_and_nested():
    found = rule_texts(KING, "noun_phrases")
    for expected in [
        "Even the king of France , who smiled",  # the whole subtree
        "the king of France , who smiled",  # without the leading adverb
        "the king",  # head with its left dependents
        "the king of France",  # up to the first break
        "France",
        "her sister",
    ]:
        assert expected in found
    # Nothing starts or ends with punctuation, and pronouns alone are not noun phrases.
    assert "Even the king of France , who smiled ," not in found
    assert "her" not in found and "who" not in found


def test_noun_modifiers_are_not_mentions_but_names_are():
    # "the school building" / "the UK government" / "Mary Walkup"
    doc = make_doc(
        [
            ("the", 2, "det", "DET"),
            ("school", 2, "compound", "NOUN"),
            ("building", 2, "ROOT", "NOUN"),
            ("the", 5, "det", "DET"),
            ("UK", 5, "compound", "PROPN"),
            ("government", 5, "ROOT", "NOUN"),
            ("Mary", 7, "compound", "PROPN"),
            ("Walkup", 7, "ROOT", "PROPN"),
        ],
        ents=["O", "O", "O", "O", "B-GPE", "O", "B-PERSON", "I-PERSON"],
    )
    found = rule_texts(doc, "noun_phrases")
    assert "school" not in found and "the school building" in found
    assert "UK" in found and "the UK government" in found
    assert "Mary" not in found and "Mary Walkup" in found


def test_adjectives_as_arguments():
    # "the other left": an adjective heads a mention as a subject.
    doc = make_doc(
        [("the", 1, "det", "DET"), ("other", 2, "nsubj", "ADJ"), ("left", 2, "ROOT", "VERB")]
    )
    assert rule_texts(doc, "noun_phrases") == ["the other"]


COORD = make_doc(
    [
        ("Alice", 3, "nsubj", "PROPN", "NNP"),
        ("and", 0, "cc", "CCONJ"),
        ("Bob", 0, "conj", "PROPN", "NNP"),
        ("came", 3, "ROOT", "VERB"),
        ("and", 3, "cc", "CCONJ"),
        ("went", 3, "conj", "VERB"),
    ]
)


def test_coordination_gives_the_whole_and_each_conjunct():
    assert rule_texts(COORD, "coordination") == ["Alice", "Alice and Bob", "Bob"]


def test_noun_phrases_stop_before_a_coordination():
    assert "Alice" in rule_texts(COORD, "noun_phrases")


APPOS = make_doc(
    [
        ("Walter", 5, "nsubj", "PROPN", "NNP"),
        (",", 0, "punct", "PUNCT"),
        ("a", 3, "det", "DET"),
        ("baronet", 0, "appos", "NOUN"),
        (",", 0, "punct", "PUNCT"),
        ("smiled", 5, "ROOT", "VERB"),
    ]
)


def test_appositions_anchor_appositive_and_both():
    assert rule_texts(APPOS, "appositions") == ["Walter", "Walter , a baronet", "a baronet"]


PRONOUNS = make_doc(
    [
        ("I", 1, "nsubj", "PRON", "PRP"),
        ("saw", 1, "ROOT", "VERB"),
        ("myself", 1, "dobj", "PRON", "PRP"),
        ("and", 1, "cc", "CCONJ"),
        ("this", 5, "det", "DET", "DT"),
        ("dog", 1, "conj", "NOUN"),
        ("there", 1, "advmod", "ADV", "RB"),
        (";", 1, "punct", "PUNCT"),
        ("that", 10, "nsubj", "DET", "DT"),
        ("who", 10, "nsubj", "PRON", "WP"),
        ("is", 1, "conj", "AUX"),
        ("there", 12, "expl", "PRON", "EX"),
        ("mine", 10, "attr", "PRON", "PRP"),
    ]
)


def test_pronouns_personal_reflexive_demonstrative_locative():
    found = rule_texts(PRONOUNS, "pronouns")
    assert found == sorted(["I", "myself", "there", "that", "mine"])
    # Not the determiner "this", the relative "who" or the expletive "there".
    assert "this" not in found and "who" not in found
    assert (11, 12) not in extract_mentions(PRONOUNS, rules=["pronouns"])


def test_possessives_with_and_without_s():
    doc = make_doc(
        [
            ("Lady", 1, "compound", "PROPN", "NNP"),
            ("Elliot", 3, "poss", "PROPN", "NNP"),
            ("'s", 1, "case", "PART", "POS"),
            ("book", 3, "ROOT", "NOUN"),
            ("and", 3, "cc", "CCONJ"),
            ("his", 6, "poss", "PRON", "PRP$"),
            ("hat", 3, "conj", "NOUN"),
        ]
    )
    assert rule_texts(doc, "possessives") == ["Lady Elliot", "Lady Elliot 's", "his"]


def test_proper_noun_runs_and_titles():
    doc = make_doc(
        [
            ("President", 3, "compound", "PROPN", "NNP"),
            ("Warren", 3, "compound", "PROPN", "NNP"),
            ("G.", 3, "compound", "PROPN", "NNP"),
            ("Harding", 4, "nsubj", "PROPN", "NNP"),
            ("spoke", 4, "ROOT", "VERB"),
            ("to", 4, "prep", "ADP"),
            ("Congress", 5, "pobj", "PROPN", "NNP"),
        ]
    )
    assert rule_texts(doc, "proper_nouns") == [
        "Congress",
        "President Warren G. Harding",
        "Warren G. Harding",
    ]


def test_entities_by_label_and_without_the():
    doc = make_doc(
        [
            ("the", 2, "det", "DET"),
            ("United", 2, "compound", "PROPN"),
            ("Nations", 3, "nsubj", "PROPN"),
            ("met", 3, "ROOT", "VERB"),
            ("Tuesday", 3, "npadvmod", "PROPN"),
        ],
        ents=["B-ORG", "I-ORG", "I-ORG", "O", "B-DATE"],
    )
    assert rule_texts(doc, "entities") == ["United Nations", "the United Nations"]
    view = read_parse(doc)
    assert list(entities(view, _ids("DATE"))) == [(4, 5)]


def test_event_verbs_are_not_a_default_rule():
    assert "event_verbs" not in DEFAULT_RULES
    assert rule_texts(COORD, "event_verbs") == ["came", "went"]


def test_every_rule_is_known_and_unknown_names_are_reported():
    assert set(RULES) | {"entities"} == set(KNOWN_RULES)
    assert unknown_rules(["pronouns", "nouns", "verbs"]) == ["nouns", "verbs"]


# Filters


def test_trim_drops_punctuation_conjunctions_and_spaces_at_the_edges():
    doc = make_doc(
        [
            ("“", 1, "punct", "PUNCT"),
            ("Alice", 1, "ROOT", "PROPN"),
            ("”", 1, "punct", "PUNCT"),
            ("and", 1, "cc", "CCONJ"),
            ("\n", 1, "dep", "SPACE"),
        ]
    )
    view = read_parse(doc)
    assert trim(view, 0, 5) == (1, 2)
    assert trim(view, 3, 5) == (5, 5)  # nothing left: dropped by filter_mentions
    assert filter_mentions(view, [(0, 5), (3, 5)], max_width=10) == [(1, 2)]


def test_a_pronoun_read_as_a_compound_starts_no_mention():
    # "CHAPTER I Emma Woodhouse , handsome": the heading's numeral, tagged a pronoun
    doc = make_doc(
        [
            ("CHAPTER", 0, "ROOT", "NOUN"),
            ("I", 3, "compound", "PRON", "PRP"),
            ("Emma", 3, "compound", "PROPN", "NNP"),
            ("Woodhouse", 0, "appos", "PROPN", "NNP"),
            (",", 3, "punct", "PUNCT"),
            ("handsome", 3, "amod", "ADJ"),
        ],
        ents=["O", "O", "B-PERSON", "I-PERSON", "O", "O"],
    )
    mentions = texts(doc, extract_mentions(doc))
    assert "Emma Woodhouse" in mentions
    assert not any(text.startswith("I ") for text in mentions)
    # a pronoun in its own role still is one, and so is one the parser hangs from a name by
    # error: "proclaim myself Emperor"
    subject = make_doc([("I", 1, "nsubj", "PRON", "PRP"), ("left", 1, "ROOT", "VERB")])
    assert texts(subject, extract_mentions(subject)) == ["I"]
    emperor = make_doc([("proclaim", 0, "ROOT", "VERB"), ("myself", 2, "compound", "PRON", "PRP"),
                        ("Emperor", 0, "dobj", "PROPN", "NNP")])
    assert "myself" in texts(emperor, extract_mentions(emperor))


@pytest.mark.parametrize("greeting", ["Dear", "Hi", "Hello"])
def test_a_greeting_read_as_part_of_the_name_starts_no_mention(greeting):
    # "Dear Ms. Okafor , thank you": the small parser makes the greeting a compound of the name
    doc = make_doc(
        [
            (greeting, 2, "compound", "PROPN", "NNP"),
            ("Ms.", 2, "compound", "PROPN", "NNP"),
            ("Okafor", 5, "npadvmod", "PROPN", "NNP"),
            (",", 2, "punct", "PUNCT"),
            ("thank", 5, "ROOT", "VERB"),
            ("you", 4, "dobj", "PRON", "PRP"),
        ],
        ents=["O", "O", "B-PERSON", "O", "O", "O"],
    )
    mentions = texts(doc, extract_mentions(doc))
    assert "Ms. Okafor" in mentions
    assert not any(text.startswith(greeting) for text in mentions)
    # the word as an adjective of a noun phrase stays in it: "a dear friend"
    friend = make_doc([("a", 2, "det", "DET"), ("dear", 2, "amod", "ADJ"),
                       ("friend", 2, "ROOT", "NOUN")])
    assert texts(friend, extract_mentions(friend)) == ["a dear friend"]


def test_an_infinitive_to_starts_no_mention():
    # "The conductor promoted her to leader .": the small parser reads "to leader" as a verb
    # with its infinitive marker; the noun is the mention, not "to leader"
    doc = make_doc(
        [
            ("The", 1, "det", "DET", "DT"),
            ("conductor", 2, "nsubj", "NOUN", "NN"),
            ("promoted", 2, "ROOT", "VERB", "VBD"),
            ("her", 2, "dobj", "PRON", "PRP"),
            ("to", 5, "aux", "PART", "TO"),
            ("leader", 2, "xcomp", "NOUN", "NN"),
            (".", 2, "punct", "PUNCT", "."),
        ]
    )
    assert texts(doc, extract_mentions(doc)) == ["The conductor", "her", "leader"]


def test_a_capitalised_greeting_read_as_an_adjective_starts_no_mention():
    # "Dear Mr. Alvarez ," and "Dear colleagues ,": the parser may make "Dear" an adjective
    alvarez = make_doc([("Dear", 2, "amod", "ADJ", "JJ"), ("Mr.", 2, "compound", "PROPN", "NNP"),
                        ("Alvarez", 2, "ROOT", "PROPN", "NNP"), (",", 2, "punct", "PUNCT")],
                       ents=["O", "O", "B-PERSON", "O"])
    mentions = texts(alvarez, extract_mentions(alvarez))
    assert "Mr. Alvarez" in mentions and not any(m.startswith("Dear") for m in mentions)
    colleagues = make_doc([("Dear", 1, "amod", "ADJ", "JJ"), ("colleagues", 1, "ROOT", "NOUN"),
                           (",", 1, "punct", "PUNCT")])
    assert texts(colleagues, extract_mentions(colleagues)) == ["colleagues"]
    # in lower case it stays, as in the data sets: "I am , dear Sir ,", "my dear friend"
    sir = make_doc([("dear", 1, "amod", "ADJ", "JJ"), ("Sir", 1, "ROOT", "PROPN", "NNP")])
    assert "dear Sir" in texts(sir, extract_mentions(sir))
    friend = make_doc([("my", 2, "poss", "PRON", "PRP$"), ("dear", 2, "amod", "ADJ", "JJ"),
                       ("friend", 2, "ROOT", "NOUN")])
    assert "my dear friend" in texts(friend, extract_mentions(friend))


def test_a_mention_holds_the_whole_of_a_hyphenated_word():
    # "My ex-wife called": the small parser makes "ex", "-" and "wife" three subjects
    words = ["My", "ex", "-", "wife", "called", "."]
    doc = Doc(VOCAB, words=words, spaces=[True, False, False, True, False, False],
              heads=[1, 4, 4, 4, 4, 4], deps=["poss", "nsubj", "nsubj", "nsubj", "ROOT", "punct"],
              pos=["PRON", "NOUN", "NOUN", "NOUN", "VERB", "PUNCT"])
    mentions = texts(doc, extract_mentions(doc))
    assert "My ex-wife" in mentions and "ex-wife" in mentions
    assert not {"My ex", "wife", "ex"} & set(mentions)
    # a hyphen between spaces is a dash, not part of a word: "Anna - the doctor - came"
    dash = Doc(VOCAB, words=["Anna", "-", "the", "doctor"], spaces=[True, True, True, False],
               heads=[0, 0, 3, 0], deps=["ROOT", "punct", "det", "appos"],
               pos=["PROPN", "PUNCT", "DET", "NOUN"])
    assert "the doctor" in texts(dash, extract_mentions(dash))


def test_a_mention_crosses_no_paragraph_and_no_line_break_after_punctuation():
    def line_doc(words, heads, deps, pos):
        spaces = [word[0].isalpha() and words[i + 1][0].isalpha()
                  for i, word in enumerate(words[:-1])] + [False]
        return Doc(VOCAB, words=words, spaces=spaces, heads=heads, deps=deps, pos=pos)

    # "Best,\nAnna": the sign-off's parse makes one phrase of the two lines
    signed = line_doc(["Best", ",", "\n", "Anna"], [3, 3, 3, 3], ["amod", "punct", "dep", "ROOT"],
                      ["ADJ", "PUNCT", "SPACE", "PROPN"])
    assert texts(signed, extract_mentions(signed)) == ["Anna"]
    # a paragraph break, even without punctuation before it
    paragraph = line_doc(["the", "old", "\n\n", "man"], [3, 3, 3, 3],
                         ["det", "amod", "dep", "ROOT"], ["DET", "ADJ", "SPACE", "NOUN"])
    assert "the old\n\nman" not in texts(paragraph, extract_mentions(paragraph))
    # a line wrapped inside a phrase is crossed
    wrapped = line_doc(["the", "old", "\n", "man"], [3, 3, 3, 3], ["det", "amod", "dep", "ROOT"],
                       ["DET", "ADJ", "SPACE", "NOUN"])
    assert texts(wrapped, extract_mentions(wrapped)) == ["the old\nman"]


def test_a_mention_ends_with_its_transcript_turn():
    # "A: We fed the dog\nB: Nice ...": the parse makes the next speaker's label an apposition
    # of the turn's last noun, across a line break with no punctuation before it
    words = ["A", ":", "We", "fed", "the", "dog", "\n", "B", ":", "Nice", "\n", "A", ":", "Yes",
             "\n", "B", ":", "Good"]
    spaces = [w not in (":", "\n") and words[i + 1] not in (":", "\n")
              for i, w in enumerate(words[:-1])] + [False]
    spaces[1] = spaces[8] = spaces[12] = spaces[16] = True  # "A: We"
    heads = [3, 3, 3, 3, 5, 3, 5, 5, 3, 3, 9, 3, 3, 3, 13, 3, 3, 3]
    deps = ["dep", "punct", "nsubj", "ROOT", "det", "dobj", "dep", "appos", "punct", "intj",
            "dep", "dep", "punct", "intj", "dep", "dep", "punct", "intj"]
    pos = ["PROPN", "PUNCT", "PRON", "VERB", "DET", "NOUN", "SPACE", "PROPN", "PUNCT", "INTJ",
           "SPACE", "PROPN", "PUNCT", "INTJ", "SPACE", "PROPN", "PUNCT", "INTJ"]
    doc = Doc(VOCAB, words=words, spaces=spaces, heads=heads, deps=deps, pos=pos)
    assert doc.text == "A: We fed the dog\nB: Nice\nA: Yes\nB: Good"
    mentions = texts(doc, extract_mentions(doc))
    assert "the dog" in mentions and "B" in mentions
    assert "the dog\nB" not in mentions
    # one labelled line is no transcript: the wrapped line is crossed as before
    short = Doc(VOCAB, words=words[:10], spaces=spaces[:9] + [False], heads=heads[:10],
                deps=deps[:10], pos=pos[:10])
    assert "the dog\nB" in texts(short, extract_mentions(short))


# "they shared the Nobel Prize with Henri Becquerel": the parser hangs "with ..." from the name,
# and the recognizer's entity ends on "with"
NOBEL_ROWS = [
        ("they", 1, "nsubj", "PRON", "PRP"),
        ("shared", 1, "ROOT", "VERB"),
        ("the", 4, "det", "DET"),
        ("Nobel", 4, "compound", "PROPN", "NNP"),
        ("Prize", 1, "dobj", "PROPN", "NNP"),
        ("with", 4, "prep", "ADP"),
        ("Henri", 7, "compound", "PROPN", "NNP"),
        ("Becquerel", 5, "pobj", "PROPN", "NNP"),
]
NOBEL_ENTS = ["O", "O", "B-WORK_OF_ART", "I-WORK_OF_ART", "I-WORK_OF_ART", "I-WORK_OF_ART",
              "B-PERSON", "I-PERSON"]


def test_trim_drops_a_last_preposition_whose_object_lies_outside_the_span():
    doc = make_doc(NOBEL_ROWS, ents=NOBEL_ENTS)
    view = read_parse(doc)
    assert trim(view, 2, 6) == (2, 5)
    assert trim(view, 2, 8) == (2, 8)  # the object inside: the phrase stays whole
    mentions = texts(doc, extract_mentions(doc, rules=["entities"]))
    assert "the Nobel Prize with" not in mentions and "Nobel Prize with" not in mentions
    assert "the Nobel Prize" in mentions


def test_a_name_phrase_stops_before_a_prepositional_phrase_outside_the_name():
    # NOBEL_ROWS, then "in the Bank of England"
    rows = NOBEL_ROWS + [
        ("in", 1, "prep", "ADP"),
        ("the", 10, "det", "DET"),
        ("Bank", 8, "pobj", "PROPN", "NNP"),
        ("of", 10, "prep", "ADP"),
        ("England", 11, "pobj", "PROPN", "NNP"),
    ]
    ents = NOBEL_ENTS + ["O", "B-ORG", "I-ORG", "I-ORG", "I-ORG"]
    mentions = rule_texts(make_doc(rows, ents=ents), "noun_phrases")
    assert "the Nobel Prize" in mentions
    assert not any(m.startswith("the Nobel Prize with") for m in mentions)
    # "of" joins the parts of a name
    assert "the Bank of England" in mentions
    # a common noun keeps its phrase: "the prize with the highest honour"
    rows[3:5] = [("Nobel", 4, "amod", "ADJ"), ("prize", 1, "dobj", "NOUN", "NN")]
    mentions = rule_texts(make_doc(rows, ents=["O"] * len(rows)), "noun_phrases")
    assert "the Nobel prize with Henri Becquerel" in mentions
    # the preposition inside the name's own entity stays: "the Church in Wales"
    church = make_doc(
        [
            ("the", 1, "det", "DET"),
            ("Church", 1, "ROOT", "PROPN", "NNP"),
            ("in", 1, "prep", "ADP"),
            ("Wales", 2, "pobj", "PROPN", "NNP"),
        ],
        ents=["B-ORG", "I-ORG", "I-ORG", "I-ORG"],
    )
    assert "the Church in Wales" in rule_texts(church, "noun_phrases")


def test_trim_keeps_a_stranded_preposition():
    # "the man she spoke of"
    doc = make_doc(
        [
            ("the", 1, "det", "DET"),
            ("man", 1, "ROOT", "NOUN"),
            ("she", 3, "nsubj", "PRON", "PRP"),
            ("spoke", 1, "relcl", "VERB"),
            ("of", 3, "prep", "ADP"),
        ]
    )
    assert trim(read_parse(doc), 0, 5) == (0, 5)


def test_trim_keeps_a_closing_bracket_it_opened():
    doc = make_doc(
        [
            ("Quilis", 0, "ROOT", "PROPN"),
            ("(", 0, "punct", "PUNCT"),
            ("1964", 0, "appos", "NUM"),
            (")", 0, "punct", "PUNCT"),
        ]
    )
    view = read_parse(doc)
    assert trim(view, 0, 4) == (0, 4)
    assert trim(view, 2, 4) == (2, 3)


def test_trim_keeps_a_closing_curly_quote_it_opened():
    # the shore of the “ holy lake ”
    doc = make_doc(
        [
            ("the", 1, "det", "DET"),
            ("shore", 1, "ROOT", "NOUN"),
            ("of", 1, "prep", "ADP"),
            ("the", 6, "det", "DET"),
            ("“", 6, "punct", "PUNCT"),
            ("holy", 6, "amod", "ADJ"),
            ("lake", 2, "pobj", "NOUN"),
            ("”", 6, "punct", "PUNCT"),
        ]
    )
    view = read_parse(doc)
    assert trim(view, 0, 8) == (0, 8)
    assert trim(view, 5, 8) == (5, 7)  # the quote opened before the span


@pytest.mark.parametrize(
    "rows,lemmas,pleonastic",
    [
        # It rained .
        ([("It", 1, "nsubj", "PRON", "PRP"), ("rained", 1, "ROOT", "VERB")], ["it", "rain"], True),
        # It seems that he left
        (
            [
                ("It", 1, "nsubj", "PRON", "PRP"),
                ("seems", 1, "ROOT", "VERB"),
                ("that", 4, "mark", "SCONJ"),
                ("he", 4, "nsubj", "PRON", "PRP"),
                ("left", 1, "ccomp", "VERB"),
            ],
            ["it", "seem", "that", "he", "leave"],
            True,
        ),
        # It is clear that she won
        (
            [
                ("It", 1, "nsubj", "PRON", "PRP"),
                ("is", 1, "ROOT", "AUX"),
                ("clear", 1, "acomp", "ADJ"),
                ("that", 5, "mark", "SCONJ"),
                ("she", 5, "nsubj", "PRON", "PRP"),
                ("won", 1, "ccomp", "VERB"),
            ],
            ["it", "be", "clear", "that", "she", "win"],
            True,
        ),
        # it 's an expletive
        ([("it", 1, "expl", "PRON", "PRP"), ("is", 1, "ROOT", "AUX")], ["it", "be"], True),
        # It was red : referential
        (
            [
                ("It", 1, "nsubj", "PRON", "PRP"),
                ("was", 1, "ROOT", "AUX"),
                ("red", 1, "acomp", "ADJ"),
            ],
            ["it", "be", "red"],
            False,
        ),
        # I saw it : referential
        (
            [
                ("I", 1, "nsubj", "PRON", "PRP"),
                ("saw", 1, "ROOT", "VERB"),
                ("it", 1, "dobj", "PRON", "PRP"),
            ],
            ["I", "see", "it"],
            False,
        ),
    ],
)
def test_pleonastic_it(rows, lemmas, pleonastic):
    # With and without a lemmatizer.
    for doc in (make_doc(rows, lemmas=lemmas), make_doc(rows)):
        it = next(t.i for t in doc if t.lower_ == "it")
        assert is_pleonastic_it(read_parse(doc), it) is pleonastic
        assert ((it, it + 1) in extract_mentions(doc)) is not pleonastic


NUMBERS = make_doc(
    [
        ("In", 5, "prep", "ADP"),
        ("1920", 0, "pobj", "NUM"),
        ("that", 3, "det", "DET"),
        ("year", 5, "npadvmod", "NOUN"),
        ("three", 5, "nsubj", "NUM"),
        ("left", 5, "ROOT", "VERB"),
    ],
    ents=["O", "B-DATE", "B-DATE", "I-DATE", "B-CARDINAL", "O"],
)


def test_numbers_and_dates_are_dropped_unless_kept():
    view = read_parse(NUMBERS)
    assert is_numeric(view, 1, 2) and is_numeric(view, 4, 5)
    assert not is_numeric(view, 2, 4)  # "that year" refers
    assert texts(NUMBERS, extract_mentions(NUMBERS)) == ["that year"]
    kept = texts(NUMBERS, extract_mentions(NUMBERS, keep_numbers=True))
    assert kept == ["1920", "that year", "three"]


def test_max_width():
    wide = texts(KING, extract_mentions(KING, max_width=3))
    assert "the king" in wide and "the king of France" not in wide
    assert all(len(text.split()) <= 3 for text in wide)


def test_keep_nested_false_keeps_the_outermost():
    assert outermost([(0, 3), (1, 2), (1, 4), (5, 6), (5, 6)]) == [(0, 3), (1, 4), (5, 6)]
    flat = extract_mentions(KING, keep_nested=False)
    assert all(not (s <= s2 and e2 <= e and (s, e) != (s2, e2)) for s, e in flat for s2, e2 in flat)
    assert "her sister" in texts(KING, flat) and "her" not in texts(KING, flat)


def test_empty_doc_and_doc_without_entities():
    assert extract_mentions(Doc(VOCAB, words=[])) == []
    assert not APPOS.ents
    assert "Walter" in texts(APPOS, extract_mentions(APPOS))


# fmt: off
POS_LABELS = ["NOUN", "PROPN", "PRON", "DET", "ADJ", "VERB", "NUM", "PUNCT", "CCONJ", "ADP",
              "SPACE"]
DEP_LABELS = ["nsubj", "dobj", "pobj", "conj", "cc", "appos", "poss", "compound", "det", "punct",
              "prep", "expl", "case", "acomp", "ccomp"]
WORDS = ["it", "the", ",", "Alice", "'s", "1920", " ", "(", ")", "this", "there"]
# fmt: on


@st.composite
def parsed_docs(draw):
    """Random trees (each token's head comes earlier) with random labels."""
    n = draw(st.integers(min_value=1, max_value=25))
    heads = [0] + [draw(st.integers(min_value=0, max_value=i - 1)) for i in range(1, n)]
    pos = draw(st.lists(st.sampled_from(POS_LABELS), min_size=n, max_size=n))
    deps = ["ROOT"] + draw(st.lists(st.sampled_from(DEP_LABELS), min_size=n - 1, max_size=n - 1))
    words = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
    return Doc(VOCAB, words=words, heads=heads, deps=deps, pos=pos)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(parsed_docs(), st.integers(min_value=1, max_value=6), st.booleans())
def test_random_trees(doc, max_width, keep_nested):
    rules = list(KNOWN_RULES)
    mentions = extract_mentions(doc, rules=rules, max_width=max_width, keep_nested=keep_nested)
    assert mentions == sorted(set(mentions))
    for start, end in mentions:
        assert 0 <= start < end <= len(doc) and end - start <= max_width
        assert not doc[start].is_punct and not doc[start].is_space
        assert not doc[end - 1].is_space
    again = extract_mentions(doc, rules=rules, max_width=max_width, keep_nested=keep_nested)
    assert again == mentions
