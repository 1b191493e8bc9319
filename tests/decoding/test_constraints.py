"""Grammatical constraints when decoding: what they read off the parse, and how they change the
clusters. Docs are built by hand (words, heads, deps, tags), scores too."""
import numpy
import pytest
import spacy
from decoding_helpers import POS, parsed, scores_for  # noqa: E402 (tests/)
from spacy.tokens import Doc, Span

from spacy_coref.ml.torch.constants import MASKED_SCORE
from spacy_coref.decoding import clustering
from spacy_coref.decoding.clustering import constrained_clusters, predict_clusters
from spacy_coref.decoding import decode_clusters
from spacy_coref.decoding.steps.binding import binding_masks
from spacy_coref.linguistics.mention_analysis import agreement_class, mention_constraints
from spacy_coref.linguistics.mention_classes import (
    ALL_CLASSES,
    COLLECTIVE,
    CONJOINED,
    FEMININE,
    HUMAN,
    MASCULINE,
    NEUTER,
    PLACE,
    PLURAL,
    conflicting_classes,
)
from spacy_coref.linguistics.first_names import (
    FEMININE_FIRST_NAMES,
    MASCULINE_FIRST_NAMES,
    UNISEX_FIRST_NAMES,
)
from spacy_coref.training.augmentation import FEMALE_NAMES, MALE_NAMES

def nurse_doc():
    # The nurse called the plumber and thanked him .
    return parsed(
        ["The", "nurse", "called", "the", "plumber", "and", "thanked", "him", "."],
        [1, 2, 2, 4, 2, 2, 2, 6, 2],
        ["det", "nsubj", "ROOT", "det", "dobj", "cc", "conj", "dobj", "punct"],
        ["DT", "NN", "VBD", "DT", "NN", "CC", "VBD", "PRP", "."],
    )


def test_classes_from_pronouns_gendered_nouns_plurals_and_coordination():
    # Ann and Bo met her aunt and the twins ; they and he left .
    doc = parsed(
        ["Ann", "and", "Bo", "met", "her", "aunt", "and", "the", "twins", "he"],
        [3, 0, 0, 3, 5, 3, 5, 8, 5, 3],
        ["nsubj", "cc", "conj", "ROOT", "poss", "dobj", "cc", "det", "conj", "dobj"],
        ["NNP", "CC", "NNP", "VBD", "PRP$", "NN", "CC", "DT", "NNS", "PRP"],
    )
    spans = [(0, 3), (0, 1), (4, 5), (4, 6), (7, 9), (9, 10)]
    classes = mention_constraints(doc, spans).classes.tolist()
    # "Ann and Bo" plural (and conjoined), "Ann" feminine (a first name), her feminine, "her
    # aunt" feminine (its head), "the twins" plural, he masculine
    assert classes == [PLURAL | CONJOINED, FEMININE, FEMININE, FEMININE, PLURAL, MASCULINE]


def test_a_name_tagged_as_a_plural_noun_is_a_name():
    # Farmers thanked Simmons . Simmons left . Owings smiled .  (the tagger's NNS for each)
    doc = parsed(
        ["Farmers", "thanked", "Simmons", ".", "Simmons", "left", ".", "Owings", "smiled", "."],
        [1, 1, 1, 1, 5, 5, 5, 8, 8, 8],
        ["nsubj", "ROOT", "dobj", "punct", "nsubj", "ROOT", "punct", "nsubj", "ROOT", "punct"],
        ["NNS", "VBD", "NNS", ".", "NNS", "VBD", ".", "NNS", "VBD", "."],
    )
    doc.ents = [Span(doc, 7, 8, label="PERSON")]
    spans = [(0, 1), (2, 3), (4, 5), (7, 8)]
    classes = mention_constraints(doc, spans).classes.tolist()
    # a capitalised plural noun that starts its sentence stays plural; "Simmons" is a name
    # inside a sentence, so at the start of the next one too; the NER makes "Owings" a person
    assert classes == [PLURAL, 0, 0, 0]
    assert not conflicting_classes(MASCULINE) & classes[1]  # "he" may take Simmons
    # the model's features read the tags as they were trained: all four plural
    features_view = mention_constraints(doc, spans, first_names=False, controlled=False)
    assert features_view.classes.tolist() == [PLURAL] * 4


def test_a_name_inside_a_titled_name_takes_the_titles_gender():
    # Ms. Brennan paid Mr. Castle and he thanked her .
    doc = parsed(
        ["Ms.", "Brennan", "paid", "Mr.", "Castle", "and", "he", "thanked", "her", "."],
        [1, 2, 2, 4, 2, 2, 7, 2, 7, 2],
        ["compound", "nsubj", "ROOT", "compound", "dobj", "cc", "nsubj", "conj", "dobj",
         "punct"],
        ["NNP", "NNP", "VBD", "NNP", "NNP", "CC", "PRP", "VBD", "PRP", "."],
    )
    spans = [(0, 2), (1, 2), (3, 5), (4, 5), (6, 7), (8, 9)]
    classes = mention_constraints(doc, spans).classes.tolist()
    assert classes == [FEMININE, FEMININE, MASCULINE, MASCULINE, MASCULINE, FEMININE]
    # the model linked "he" to the "Brennan" inside "Ms. Brennan" above all: "he" takes Castle
    scores = scores_for(spans, [[], [-5.0], [-5.0] * 2, [-5.0] * 3, [1.0, 6.0, 4.0, 2.0],
                                [5.0, 1.0, -1.0, -1.0, -1.0]])
    clusters = decode_clusters(doc, scores, 0.0, ["agreement"])
    assert [(3, 5), (6, 7)] in clusters and [(0, 2), (8, 9)] in clusters
    # the model's features read the spans as they were trained: "Brennan" alone has no class
    features_view = mention_constraints(doc, spans, first_names=False, controlled=False)
    assert features_view.classes.tolist()[1] == 0


def test_a_name_after_a_persons_title_is_a_person_never_it():
    # Professor Nakamura met Professor Ana Ruiz at St Peters and General Motors .
    doc = parsed(
        ["Professor", "Nakamura", "met", "Professor", "Ana", "Ruiz", "at", "St", "Peters",
         "and", "General", "Motors", "."],
        [1, 2, 2, 5, 5, 2, 2, 8, 6, 8, 11, 8, 2],
        ["compound", "nsubj", "ROOT", "compound", "compound", "dobj", "prep", "compound",
         "pobj", "cc", "compound", "conj", "punct"],
        ["NNP", "NNP", "VBD", "NNP", "NNP", "NNP", "IN", "NNP", "NNP", "CC", "NNP", "NNP", "."],
    )
    doc.ents = [Span(doc, 0, 2, label="PERSON"), Span(doc, 3, 6, label="PERSON"),
                Span(doc, 10, 12, label="ORG")]
    spans = [(0, 2), (1, 2), (3, 6), (7, 9), (10, 12)]
    classes = mention_constraints(doc, spans).classes.tolist()
    # a title of people makes a person (the name inside it too); a first name says more; a
    # saint's name is not a person's, and a company's is "it" or "they"
    assert classes == [HUMAN, HUMAN, FEMININE, 0, COLLECTIVE]
    assert conflicting_classes(HUMAN) & NEUTER and not conflicting_classes(HUMAN) & FEMININE
    # the model's features read the spans as they were trained
    features_view = mention_constraints(doc, spans, first_names=False, controlled=False)
    assert features_view.classes.tolist() == [0, 0, 0, 0, 0]


def test_here_and_there_are_places_never_a_person():
    # Ann lived there . There she met Bo .
    doc = parsed(
        ["Ann", "lived", "there", ".", "There", "she", "met", "Bo", "."],
        [1, 1, 1, 1, 6, 6, 6, 6, 6],
        ["nsubj", "ROOT", "advmod", "punct", "advmod", "nsubj", "ROOT", "dobj", "punct"],
        ["NNP", "VBD", "RB", ".", "RB", "PRP", "VBD", "NNP", "."],
    )
    spans = [(0, 1), (2, 3), (4, 5), (5, 6), (7, 8)]
    classes = mention_constraints(doc, spans).classes.tolist()
    assert classes[1] == classes[2] == PLACE
    assert conflicting_classes(FEMININE) & PLACE and conflicting_classes(HUMAN) & PLACE
    assert not conflicting_classes(PLACE) & (NEUTER | PLURAL)  # "there" may be "it"
    # the model linked "There" to "she" above all: the place goes, Ann keeps "she"
    pair_scores = [[], [1.0], [2.0, 6.0], [5.0, 1.0, 7.0], [-1.0, -1.0, -1.0, -1.0]]
    scores = scores_for(spans, pair_scores)
    clusters = decode_clusters(doc, scores, 0.0, ["agreement"])
    assert [(0, 1), (5, 6)] in clusters and not any((5, 6) in c and (4, 5) in c for c in clusters)
    # the model's features read the words as they were trained: no class
    features_view = mention_constraints(doc, spans, first_names=False, controlled=False)
    assert features_view.classes.tolist()[1:3] == [0, 0]


def test_a_number_or_both_at_the_head_makes_a_group():
    # She and the two of them ; both left .
    doc = parsed(
        ["She", "met", "the", "two", "of", "them", "both", "left"],
        [1, 1, 3, 1, 3, 4, 7, 7],
        ["nsubj", "ROOT", "det", "dobj", "prep", "pobj", "nsubj", "ROOT"],
        ["PRP", "VBD", "DT", "CD", "IN", "PRP", "DT", "VBD"],
    )
    spans = [(0, 1), (2, 6), (2, 4), (6, 7)]
    classes = mention_constraints(doc, spans).classes.tolist()
    # "the two of them" and "the two" are headed by "two", not by a plural noun
    assert classes == [FEMININE, PLURAL, PLURAL, PLURAL]
    assert conflicting_classes(classes[0]) & classes[1]


def test_conflicts_leave_singular_they_and_organisations_free():
    assert conflicting_classes(MASCULINE) & FEMININE
    assert conflicting_classes(FEMININE) & PLURAL
    assert conflicting_classes(NEUTER) & MASCULINE
    assert not conflicting_classes(NEUTER) & PLURAL  # the company ... it ... they
    assert not conflicting_classes(0)


def test_binding_subject_of_a_coordinated_verb():
    doc = nurse_doc()
    spans = [(0, 2), (3, 5), (7, 8)]  # The nurse, the plumber, him
    mentions = mention_constraints(doc, spans)
    assert mentions.roots.tolist() == [1, 4, 7]
    assert mentions.clause_subjects.tolist() == [-1, 1, 1]  # both objects bound by "nurse"
    antecedents = numpy.array([[0, 0], [0, 0], [0, 1]])
    forbidden, required = binding_masks(mentions, antecedents)
    assert forbidden[2].tolist() == [True, False]  # him is not the nurse; may be the plumber
    assert forbidden[1, 0]  # nor is the plumber
    assert not required.any()


def test_binding_keeps_an_appositive_of_the_subject_from_its_object():
    # The pianist Glenn Gould praised Byrd and named him .
    doc = parsed(
        ["The", "pianist", "Glenn", "Gould", "praised", "Byrd", "and", "named", "him", "."],
        [1, 4, 3, 1, 4, 4, 4, 4, 7, 4],
        ["det", "nsubj", "compound", "appos", "ROOT", "dobj", "cc", "conj", "dobj", "punct"],
        ["DT", "NN", "NNP", "NNP", "VBD", "NNP", "CC", "VBD", "PRP", "."],
    )
    spans = [(2, 4), (5, 6), (8, 9)]  # Glenn Gould, Byrd, him
    mentions = mention_constraints(doc, spans)
    assert mentions.apposed_to.tolist() == [1, -1, -1]
    forbidden, _ = binding_masks(mentions, numpy.array([[0, 0], [0, 0], [0, 1]]))
    assert forbidden[2].tolist() == [True, False]  # him is not Glenn Gould; may be Byrd
    # the model put "him" with the name; binding sends it to Byrd
    scores = scores_for(spans, [[], [-1.0], [5.0, 2.0]])
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(5, 6), (8, 9)]]


@pytest.mark.parametrize("own", [False, True])
def test_binding_keeps_the_possessor_of_a_predicate_noun_from_the_subject(own):
    # Tina was her (own) secretary .
    words = ["Tina", "was", "her", *(["own"] if own else []), "secretary", "."]
    n = len(words)
    doc = parsed(
        words,
        [1, 1, n - 2, *([n - 2] if own else []), 1, 1],
        ["nsubj", "ROOT", "poss", *(["amod"] if own else []), "attr", "punct"],
        ["NNP", "VBD", "PRP$", *(["JJ"] if own else []), "NN", "."],
    )
    for token in doc:
        token.lemma_ = "be" if token.text == "was" else token.text.lower()
    mentions = mention_constraints(doc, [(0, 1), (2, 3)])
    assert mentions.clause_subjects.tolist() == [-1, -1 if own else 0]
    forbidden, _ = binding_masks(mentions, numpy.array([[0], [0]]))
    assert bool(forbidden[1, 0]) == (not own)  # "her own secretary" may be Tina's


@pytest.mark.parametrize("verb,forbidden_link", [("hired", True), ("became", False)])
def test_binding_keeps_a_relative_clause_s_subject_pronoun_from_the_noun_it_modifies(
    verb, forbidden_link
):
    # Ann chose the man he hired .  /  Ann chose the man he became .
    doc = parsed(
        ["Ann", "chose", "the", "man", "he", verb, "."],
        [1, 1, 3, 1, 5, 3, 1],
        ["nsubj", "ROOT", "det", "dobj", "nsubj", "relcl", "punct"],
        ["NNP", "VBD", "DT", "NN", "PRP", "VBD", "."],
    )
    for token in doc:
        token.lemma_ = {"became": "become"}.get(token.text, token.text.lower())
    spans = [(0, 1), (2, 4), (4, 5)]  # Ann, the man, he
    mentions = mention_constraints(doc, spans)
    assert mentions.relative_head.tolist() == [-1, -1, 3 if forbidden_link else -1]
    forbidden, _ = binding_masks(mentions, numpy.array([[0, 0], [0, 0], [0, 1]]))
    assert forbidden[2].tolist() == [False, forbidden_link]
    # the model put "he" with "the man"; binding leaves it alone where the man is hired
    scores = scores_for(spans, [[], [-2.0], [-1.0, 4.0]])
    expected = [] if forbidden_link else [[(2, 4), (4, 5)]]
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == expected


def test_binding_keeps_a_relative_clause_s_subject_pronoun_from_the_noun_s_appositive_head():
    # The butler , a man he met , left . I met the man I saw .
    doc = parsed(
        ["The", "butler", ",", "a", "man", "he", "met", ",", "left", ".",
         "I", "met", "the", "man", "I", "saw", "."],
        [1, 8, 1, 4, 1, 6, 4, 1, 8, 8, 11, 11, 13, 11, 15, 13, 11],
        ["det", "nsubj", "punct", "det", "appos", "nsubj", "relcl", "punct", "ROOT", "punct",
         "nsubj", "ROOT", "det", "dobj", "nsubj", "relcl", "punct"],
        ["DT", "NN", ",", "DT", "NN", "PRP", "VBD", ",", "VBD", ".",
         "PRP", "VBD", "DT", "NN", "PRP", "VBD", "."],
    )
    for token in doc:
        token.lemma_ = token.text.lower()
        if token.text == "I":
            token.set_morph("Case=Nom|Number=Sing|Person=1|PronType=Prs")
    spans = [(0, 2), (3, 7), (5, 6), (10, 11), (12, 16), (14, 15)]
    mentions = mention_constraints(doc, spans)
    # "he": the noun the appositive "a man" stands for; a first-person "I" is bound by none
    assert mentions.relative_head.tolist() == [-1, -1, 1, -1, -1, -1]
    antecedents = numpy.array([[0, 0], [0, 0], [0, 1], [0, 1], [0, 1], [4, 3]])
    forbidden, _ = binding_masks(mentions, antecedents)
    assert forbidden[2].tolist() == [True, True]  # neither "The butler" nor "a man he met"
    assert not forbidden[5].any()


def test_reflexive_requires_its_subject_and_locative_pronouns_stay_free():
    # He hurt himself near him .
    doc = parsed(
        ["He", "hurt", "himself", "near", "him", "."],
        [1, 1, 1, 1, 3, 1],
        ["nsubj", "ROOT", "dobj", "prep", "pobj", "punct"],
        ["PRP", "VBD", "PRP", "IN", "PRP", "."],
    )
    mentions = mention_constraints(doc, [(0, 1), (2, 3), (4, 5)])
    assert mentions.reflexive.tolist() == [False, True, False]
    assert mentions.clause_subjects.tolist() == [-1, 0, -1]  # "near him" may be He
    forbidden, required = binding_masks(mentions, numpy.array([[0, 0], [0, 0], [0, 1]]))
    assert required[1, 0] and not forbidden.any()


def test_relative_clause_subject_is_the_noun_it_modifies():
    # The man who saw him left .
    doc = parsed(
        ["The", "man", "who", "saw", "him", "left", "."],
        [1, 5, 3, 1, 3, 5, 5],
        ["det", "nsubj", "nsubj", "relcl", "dobj", "ROOT", "punct"],
        ["DT", "NN", "WP", "VBD", "PRP", "VBD", "."],
    )
    assert mention_constraints(doc, [(0, 2), (4, 5)]).clause_subjects.tolist() == [-1, 1]


def test_a_second_subject_of_the_verb_binds_too():
    # Mr. Abbott , the headmaster , called Jo , and the headmaster asked him .
    # (the small parser's error: "Abbott" and the second "headmaster" both subjects of "asked")
    doc = parsed(
        ["Mr.", "Abbott", ",", "the", "headmaster", ",", "called", "Jo", ",", "and", "the",
         "headmaster", "asked", "him", "."],
        [1, 12, 1, 4, 1, 1, 1, 6, 1, 1, 11, 12, 12, 12, 12],
        ["compound", "nsubj", "punct", "det", "appos", "punct", "acl", "dobj", "punct", "cc",
         "det", "nsubj", "ROOT", "dobj", "punct"],
        ["NNP", "NNP", ".", "DT", "NN", ".", "VBD", "NNP", ".", "CC", "DT", "NN", "VBD", "PRP",
         "."],
    )
    abbott, headmaster, jo, headmaster_again, him = (0, 2), (3, 5), (7, 8), (10, 12), (13, 14)
    spans = [abbott, headmaster, jo, headmaster_again, him]
    mentions = mention_constraints(doc, spans)
    assert mentions.clause_subjects[4] == 1 and mentions.co_subjects[4] == 11
    # the model's mistake: "him" is the headmaster who asks
    scores = scores_for(spans, [[], [-5.0], [-5.0, -5.0], [-5.0, -5.0, -5.0],
                                [1.0, 0.5, 2.0, 3.0]])
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[jo, him]]
    # the model's features read the first subject alone, as they were trained
    assert mention_constraints(doc, spans, controlled=False).co_subjects is None


def test_without_a_parse_pronoun_forms_names_and_short_phrases_of_nouns_count():
    words = ["The", "twins", "saw", "her", "and", "Dr.", "Robert", "Okafor", "'s", "aunt", ",",
             "the", "jury", "and", "the", "witness", "Okafor", ",", "the", "lawyer"]
    doc = Doc(spacy.blank("en").vocab, words=words)
    spans = [(0, 2), (3, 4), (5, 8), (6, 8), (6, 10), (7, 8), (11, 13), (14, 16), (14, 17),
             (9, 13), (18, 20), (4, 10), (19, 20)]
    mentions = mention_constraints(doc, spans)
    # a name alone by its first name, "Okafor" of "Robert Okafor" by the first name before it
    # (the later "Okafor" alone too, as the surname of that full name); a phrase of up to four
    # words without punctuation by its last word, if a noun of the lists ("Robert Okafor 's
    # aunt", "the jury", "the witness"; not "the witness Okafor", "aunt , the jury", six words,
    # or a noun alone, which may be a name's word)
    assert mentions.classes.tolist() == [
        0, FEMININE, MASCULINE, MASCULINE, FEMININE, MASCULINE, COLLECTIVE, HUMAN, 0, 0, HUMAN,
        0, 0,
    ]
    assert mention_constraints(doc, [(16, 17)]).classes.tolist() == [MASCULINE]
    assert mentions.clause_subjects.tolist() == [-1] * len(spans)
    # the features (first_names=False) read neither names nor nouns
    unnamed = mention_constraints(doc, [(5, 8), (11, 13)], first_names=False)
    assert unnamed.classes.tolist() == [0, 0]
    # a coordination is a group, whatever its words ("and" inside, not at an edge)
    spans = [(11, 16), (9, 17), (5, 8), (11, 13)]
    assert mention_constraints(doc, spans).classes.tolist() == [
        PLURAL | CONJOINED, PLURAL | CONJOINED, MASCULINE, COLLECTIVE,
    ]
    assert mention_constraints(doc, spans, first_names=False).classes.tolist() == [0, 0, 0, 0]


def test_without_a_parse_a_name_after_a_gendered_title_takes_its_gender():
    doc = Doc(spacy.blank("en").vocab, words=["Mrs.", "Novak", "met", "Uncle", "Raj", "and",
                                              "Dr.", "Novak", "and", "Mr.", "Khan", "Ms."])
    spans = [(0, 2), (3, 5), (6, 8), (9, 11), (1, 2), (11, 12)]
    # "Dr." says no gender; "Novak" inside "Mrs. Novak" takes the title's; a title alone is
    # its own gender
    assert mention_constraints(doc, spans).classes.tolist() == [
        FEMININE, MASCULINE, 0, MASCULINE, FEMININE, FEMININE,
    ]
    assert mention_constraints(doc, spans, first_names=False).classes.tolist() == [0] * 6


def test_without_a_parse_a_surname_alone_takes_the_gender_of_a_full_name_before_it():
    # Reyes came . Sofia Reyes and Kai Tanaka left . Reyes smiled . Tanaka waved .
    doc = spacy.blank("en")("Reyes came . Sofia Reyes and Kai Tanaka left . Reyes smiled . "
                            "Tanaka waved .")
    spans = [(0, 1), (3, 5), (10, 11), (13, 14)]  # Reyes, Sofia Reyes, Reyes, Tanaka
    # the first "Reyes" comes before the full name; "Kai" is in no list
    assert mention_constraints(doc, spans).classes.tolist() == [0, FEMININE, FEMININE, 0]
    # a surname that two genders' full names end in has none
    doc = spacy.blank("en")("Thomas Betts and Alice Betts left . Betts stayed .")
    assert mention_constraints(doc, [(7, 8)]).classes.tolist() == [0]


def test_without_a_parse_a_surname_after_a_gendered_title_alone_takes_its_gender():
    # the fast pipeline's candidates include "Haddad" of "Mrs. Haddad" alone
    doc = spacy.blank("en")("Mrs. Haddad walked . Mr. Costa waved . Dr. Lind sat .")
    spans = [(1, 2), (5, 6), (9, 10)]  # Haddad, Costa, Lind
    assert mention_constraints(doc, spans).classes.tolist() == [FEMININE, MASCULINE, 0]


def test_without_a_parse_a_name_after_a_comma_gives_its_phrase_its_gender():
    words = ["The", "mayor", "of", "Lindholm", ",", "Greta", "Sundqvist", ",", "and", "her",
             "deputy", ",", "Oskar", ",", "spoke", "."]
    doc = Doc(spacy.blank("en").vocab, words=words)
    spans = [(0, 7), (0, 6), (9, 13), (3, 7), (0, 8), (4, 7)]
    classes = mention_constraints(doc, spans).classes.tolist()
    # the whole phrase and the phrase to the first name are hers, "her deputy, Oskar" his;
    # a span that ends after the name, or starts with the comma, names no one
    assert classes[:3] == [FEMININE, FEMININE, MASCULINE]
    assert classes[4:] == [0, 0]
    # the arrays say what the rules say of each span alone
    expected = [agreement_class(doc[s:e], doc[e - 1], False, True) for s, e in spans]
    assert classes == expected


def test_without_a_parse_an_and_between_adjectives_joins_no_phrases():
    # Ann and her student saw that black and flaming barn .
    words = ["Ann", "and", "her", "student", "saw", "that", "black", "and", "flaming", "barn",
             "."]
    doc = Doc(spacy.blank("en").vocab, words=words)
    spans = [(0, 4), (5, 10), (6, 9)]
    classes = mention_constraints(doc, spans).classes.tolist()
    assert classes[0] == PLURAL | CONJOINED
    assert not classes[1] & CONJOINED and not classes[2] & CONJOINED
    expected = [agreement_class(doc[s:e], doc[e - 1], False, True) for s, e in spans]
    assert classes == expected


def test_without_a_parse_a_word_that_is_also_a_spacy_symbol_is_looked_up():
    # "number" is a dependency label too: a doc stores the label's small id for it, not the
    # word's hash, and the array path once missed it where the rules read the word
    words = ["They", "counted", "the", "number", "and", "the", "agent", "twice", "."]
    doc = Doc(spacy.blank("en").vocab, words=words)
    spans = [(2, 4), (5, 7)]
    classes = mention_constraints(doc, spans).classes.tolist()
    assert classes[0] == NEUTER
    assert classes == [agreement_class(doc[s:e], doc[e - 1], False, True) for s, e in spans]


def test_the_plural_of_a_persons_name_is_a_family():
    # The Haddads came . Mrs. Haddad smiled .
    doc = parsed(
        ["The", "Haddads", "came", ".", "Mrs.", "Haddad", "smiled", "."],
        [1, 2, 2, 2, 5, 6, 6, 6],
        ["det", "nsubj", "ROOT", "punct", "compound", "nsubj", "ROOT", "punct"],
        ["DT", "NNPS", "VBD", ".", "NNP", "NNP", "VBD", "."],
    )
    assert mention_constraints(doc, [(0, 2), (4, 6)]).classes.tolist() == [PLURAL, FEMININE]
    # a plural proper noun whose singular names no one is no family: "The United States"
    states = parsed(
        ["The", "United", "States", "said", "."],
        [2, 2, 3, 3, 3],
        ["det", "compound", "nsubj", "ROOT", "punct"],
        ["DT", "NNP", "NNPS", "VBD", "."],
    )
    assert mention_constraints(states, [(0, 3)]).classes.tolist() == [0]


def test_without_a_parse_every_span_gets_what_the_rules_give_it_alone():
    # the arrays of a doc without a parse against the rules read off each span
    words = ["Mrs.", "Alice", "Okafor", "hurt", "herself", ";", "Dr.", "Robert", "and", "they",
             "saw", "him", "and", "Okafor", "'s", "Mary", ",", "the", "jury", "'s", "old",
             "aunt", "."]
    doc = Doc(spacy.blank("en").vocab, words=words)
    spans = [(s, e) for s in range(len(words)) for e in range(s + 1, min(s + 5, len(words) + 1))]
    for first_names in (True, False):
        mentions = mention_constraints(doc, spans, first_names=first_names)
        expected = [agreement_class(doc[s:e], doc[e - 1], False, first_names) for s, e in spans]
        if first_names:  # and, read off the whole doc, "Okafor" alone after "Alice Okafor"
            expected[spans.index((13, 14))] = FEMININE
        assert mentions.classes.tolist() == expected
    assert [spans[i] for i in numpy.flatnonzero(mentions.reflexive)] == [(4, 5)]
    assert (mentions.roots == -1).all() and (mentions.clause_subjects == -1).all()
    # the morphology, where a tagger set it, marks reflexives the word list lacks
    tagged = Doc(spacy.blank("en").vocab, words=["Er", "wusch", "sich"],
                 morphs=["", "", "PronType=Prs|Reflex=Yes"])
    assert mention_constraints(tagged, [(0, 1), (2, 3)]).reflexive.tolist() == [False, True]


def name_doc():
    # Mrs. Alice Okafor met Robert at George Washington University ; she thanked him .
    doc = parsed(
        ["Mrs.", "Alice", "Okafor", "met", "Robert", "at", "George", "Washington",
         "University", ";", "she", "thanked", "him", "."],
        [2, 2, 3, 3, 3, 3, 8, 8, 5, 3, 11, 3, 11, 3],
        ["compound", "compound", "nsubj", "ROOT", "dobj", "prep", "compound", "compound", "pobj",
         "punct", "nsubj", "conj", "dobj", "punct"],
        ["NNP", "NNP", "NNP", "VBD", "NNP", "IN", "NNP", "NNP", "NNP", ".", "PRP", "VBD", "PRP",
         "."],
    )
    doc.ents = [Span(doc, 6, 9, label="ORG")]
    return doc


def test_names_take_the_class_of_their_first_name():
    doc = name_doc()
    spans = [(0, 3), (1, 3), (2, 3), (4, 5), (6, 9)]
    classes = mention_constraints(doc, spans).classes.tolist()
    # the title first ("Mrs."), then the first name; the surname inside the titled name by the
    # title ("Okafor" of "Mrs. Alice Okafor"); an organisation named after a person has none
    assert classes == [FEMININE, FEMININE, FEMININE, MASCULINE, 0]
    assert mention_constraints(doc, spans, first_names=False).classes.tolist() == [
        FEMININE, 0, 0, 0, 0]


def test_a_first_name_tagged_as_a_noun_counts_and_a_lower_case_word_does_not():
    # Isabel beat Marco , frank and calm . (the tagger calls Isabel a noun)
    doc = parsed(
        ["Isabel", "beat", "Marco", ",", "frank"],
        [1, 1, 1, 1, 1],
        ["nsubj", "ROOT", "dobj", "punct", "dobj"],
        ["NN", "VBD", "NNP", ".", "NN"],
    )
    classes = mention_constraints(doc, [(0, 1), (2, 3), (4, 5)]).classes.tolist()
    assert classes == [FEMININE, MASCULINE, 0]


def mara_doc(noun):
    # Daniel saw his <noun> Mara . Mara hugged him .
    return parsed(
        ["Daniel", "saw", "his", noun, "Mara", ".", "Mara", "hugged", "him", "."],
        [1, 1, 3, 1, 3, 1, 7, 7, 7, 7],
        ["nsubj", "ROOT", "poss", "dobj", "appos", "punct", "nsubj", "ROOT", "dobj", "punct"],
        ["NNP", "VBD", "PRP$", "NN", "NNP", ".", "NNP", "VBD", "PRP", "."],
    )


def test_a_name_in_apposition_to_a_gendered_noun_takes_its_gender_and_gives_it_on():
    spans = [(0, 1), (2, 5), (4, 5), (6, 7), (8, 9)]  # Daniel, his sister Mara, Mara, Mara, him
    classes = mention_constraints(mara_doc("sister"), spans).classes.tolist()
    assert classes == [MASCULINE, FEMININE, FEMININE, FEMININE, MASCULINE]
    # "Mara" is in no first-name list: without the apposition, no class ("friend" is a person of
    # either gender)
    assert mention_constraints(mara_doc("friend"), spans).classes.tolist() == [
        MASCULINE, HUMAN, 0, 0, MASCULINE]
    # the model's features are read without first names, and so without this
    assert mention_constraints(mara_doc("sister"), spans, first_names=False).classes.tolist()[
        2:4] == [0, 0]


def saar_doc(first_names=("Joel",)):
    # Joel Saar came . [Anna Saar came .] Saar smiled .
    words, heads, deps, tags = [], [], [], []
    for first in first_names:
        n = len(words)
        words += [first, "Saar", "came", "."]
        heads += [n + 1, n + 2, n + 2, n + 2]
        deps += ["compound", "nsubj", "ROOT", "punct"]
        tags += ["NNP", "NNP", "VBD", "."]
    n = len(words)
    doc = parsed(words + ["Saar", "smiled", "."], heads + [n + 1, n + 1, n + 1],
                 deps + ["nsubj", "ROOT", "punct"], tags + ["NNP", "VBD", "."])
    doc.ents = [Span(doc, 4 * i, 4 * i + 2, label="PERSON") for i in range(len(first_names))]
    return doc


def test_a_surname_alone_takes_the_gender_of_the_full_names_it_ends():
    doc = saar_doc()
    assert mention_constraints(doc, [(0, 2), (4, 5)]).classes.tolist() == [MASCULINE, MASCULINE]
    # two people of the doc share it, of two genders: the surname alone has none
    doc = saar_doc(("Joel", "Anna"))
    assert mention_constraints(doc, [(0, 2), (4, 6), (8, 9)]).classes.tolist() == [
        MASCULINE, FEMININE, 0]
    # the model's features are read without first names, and so without this
    assert mention_constraints(saar_doc(), [(4, 5)], first_names=False).classes.tolist() == [0]


def test_agreement_keeps_the_sister_out_of_the_brothers_cluster():
    doc = mara_doc("sister")
    spans = [(0, 1), (4, 5), (6, 7), (8, 9)]  # Daniel, Mara, Mara, him
    # the scores put the second "Mara" with Daniel
    scores = scores_for(spans, [[], [-2.0], [3.0, 1.0], [4.0, -1.0, 0.5]])
    assert decode_clusters(doc, scores, 0.0, []) == [[(0, 1), (6, 7), (8, 9)]]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [
        [(0, 1), (8, 9)], [(4, 5), (6, 7)]]


def test_agreement_keeps_a_name_out_of_the_other_gender_cluster():
    doc = name_doc()
    spans = [(1, 3), (4, 5), (10, 11), (12, 13)]  # Alice Okafor, Robert, she, him
    # the scores alone put "she" with Robert and "him" with Alice
    scores = scores_for(spans, [[], [-1.0], [1.0, 3.0], [4.0, 2.0, -1.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [[(1, 3), (12, 13)], [(4, 5), (10, 11)]]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [
        [(1, 3), (10, 11)], [(4, 5), (12, 13)]]


def test_first_names_are_of_one_gender_and_cover_the_augmentation_names():
    assert not FEMININE_FIRST_NAMES & MASCULINE_FIRST_NAMES
    assert not UNISEX_FIRST_NAMES & (FEMININE_FIRST_NAMES | MASCULINE_FIRST_NAMES)
    assert set(FEMALE_NAMES) <= FEMININE_FIRST_NAMES
    assert set(MALE_NAMES) <= MASCULINE_FIRST_NAMES


def test_a_name_of_the_added_lists_keeps_the_other_genders_pronoun_away():
    # After the meeting , Tariq emailed Rosa : "she" took Tariq (the model had no gender
    # for the name), and takes Rosa once he is a man
    words = ["After", "the", "meeting", ",", "Tariq", "emailed", "Rosa", ".", "She", "read",
             "it", "."]
    doc = Doc(spacy.blank("en").vocab, words=words)
    spans = [(4, 5), (6, 7), (8, 9)]
    assert mention_constraints(doc, spans).classes.tolist() == [MASCULINE, FEMININE, FEMININE]
    scores = scores_for(spans, [[], [-3.0], [9.0, 5.0]])
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(6, 7), (8, 9)]]


SHARES = (["Shares", "of", "Norvell", "Energy", "fell", "."], [4, 0, 3, 1, 4, 4],
          ["nsubj", "prep", "compound", "pobj", "ROOT", "punct"],
          ["NNS", "IN", "NNP", "NNP", "VBD", "."])
ACME = (["Shares", "of", "Acme", "Holdings", "Inc.", "fell"], [5, 0, 4, 4, 1, 5],
        ["nsubj", "prep", "compound", "compound", "pobj", "ROOT"],
        ["NNS", "IN", "NNP", "NNP", "NNP", "VBD"])


def later(first, last):
    return (["Later", ",", first, last, "left", "."], [4, 4, 3, 4, 4, 4],
            ["advmod", "punct", "compound", "nsubj", "ROOT", "punct"],
            ["RB", ",", "NNP", "NNP", "VBD", "."])


@pytest.mark.parametrize(
    "tagged,ents,span,expected",
    [
        (SHARES, [(2, 4)], (2, 4), COLLECTIVE),
        (SHARES, [(2, 4)], (2, 3), COLLECTIVE),  # "Norvell" inside it
        (ACME, [(2, 5)], (2, 4), COLLECTIVE),
        # a longer name that the NER calls an organisation without a company's word, or with
        # a word that ends people's names too, is not a company (nor a person: the NER's)
        (later("Sigrid", "Holm"), [(2, 4)], (2, 4), 0),
        (later("Danielle", "Steel"), [(2, 4)], (2, 4), 0),
    ],
)
def test_a_company_s_name_and_the_names_inside_it_are_it_or_they(tagged, ents, span, expected):
    # "Chief executive Ana Ruiz ... said she expected": "she" had taken "Norvell"
    doc = parsed(*tagged)
    doc.ents = [Span(doc, s, e, label="ORG") for s, e in ents]
    assert mention_constraints(doc, [span]).classes.tolist() == [expected]


def test_without_a_parse_a_capitalised_run_ending_in_a_company_s_word_is_it_or_they():
    # the fast pipeline: no entities, no parse
    words = ["She", "said", "Norvell", "Energy", "and", "Sigrid", "Holm", "met", "."]
    doc = Doc(spacy.blank("en").vocab, words=words)
    spans = [(0, 1), (2, 4), (2, 3), (3, 4), (5, 7), (5, 6)]
    classes = mention_constraints(doc, spans).classes.tolist()
    assert classes == [FEMININE, COLLECTIVE, COLLECTIVE, COLLECTIVE, FEMININE, FEMININE]


def founder(word):
    # WORD Energy hired Ed Dell . He left WORD .
    return ([word, "Energy", "hired", "Ed", "Dell", ".", "He", "left", word, "."],
            [1, 2, 2, 4, 2, 2, 7, 7, 7, 7],
            ["compound", "nsubj", "ROOT", "compound", "dobj", "punct", "nsubj", "ROOT", "dobj",
             "punct"],
            ["NNP", "NNP", "VBD", "NNP", "NNP", ".", "PRP", "VBD", "NNP", "."])


@pytest.mark.parametrize(
    "word,person,expected",
    [("Norvell", True, COLLECTIVE), ("Dell", False, COLLECTIVE),
     ("Dell", True, MASCULINE)],  # "Dell" of "Dell Energy" and of "Ed Dell": his surname
)
def test_a_lone_word_of_a_company_s_name_elsewhere_is_the_company(word, person, expected):
    # "Victor Amsel, who founded Kestrel in 2012. He will stay": "He" had taken the lone
    # "Kestrel" of "Kestrel Robotics"
    doc = parsed(*founder(word))
    ents = [Span(doc, 0, 2, label="ORG"), Span(doc, 8, 9, label="ORG")]
    doc.ents = ents + ([Span(doc, 3, 5, label="PERSON")] if person else [])
    classes = mention_constraints(doc, [(6, 7), (8, 9)]).classes.tolist()
    assert classes == [MASCULINE, expected]


def test_without_a_parse_a_lone_word_of_a_company_run_elsewhere_is_the_company():
    vocab = spacy.blank("en").vocab
    doc = Doc(vocab, words=founder("Norvell")[0])
    assert mention_constraints(doc, [(6, 7), (8, 9)]).classes.tolist() == [MASCULINE, COLLECTIVE]
    # "Dell" also comes after a first name ("Ed Dell"): a person's name, not the company
    doc = Doc(vocab, words=founder("Dell")[0])
    assert mention_constraints(doc, [(8, 9)]).classes.tolist() != [COLLECTIVE]


@pytest.mark.parametrize(
    "first,last,expected",
    [("Danny", "Boyle", MASCULINE), ("Hercule", "Poirot", MASCULINE), ("Maggie", "Smith", FEMININE),
     ("Pam", "Ayres", FEMININE), ("Jackie", "Moore", 0), ("Sasha", "Grey", 0)],
)
def test_short_forms_have_a_gender_and_names_of_both_genders_none(first, last, expected):
    # "Danny" was missing from the lists, so "she" could join "Danny Boyle"; "Jackie" and
    # "Sasha" name women and men and stay out
    words = ["Later", ",", first, last, "met", "the", "press", "."]
    doc = Doc(spacy.blank("en").vocab, words=words, ents=["O", "O", "B-PERSON", "I-PERSON",
                                                          "O", "O", "O", "O"])
    assert mention_constraints(doc, [(2, 4)]).classes.tolist() == [expected]


@pytest.mark.parametrize(
    "name,entity,expected",
    [
        ("Sigrid", "PERSON", FEMININE),
        ("Sigrid", "ORG", FEMININE),  # the small NER's mistake: a lone first name is a person
        ("Rohan", "GPE", MASCULINE),
        ("Charlotte", "ORG", FEMININE),
        ("Charlotte", "GPE", 0),  # a first name that is also a city, called a place
        ("Victoria", "LOC", 0),
    ],
)
def test_a_lone_first_name_is_a_person_whatever_the_ner_says_unless_a_known_place(
    name, entity, expected
):
    # NAME left .
    doc = Doc(spacy.blank("en").vocab, words=[name, "left", "."], heads=[1, 1, 1],
              deps=["nsubj", "ROOT", "punct"], tags=["NNP", "VBD", "."],
              pos=["PROPN", "VERB", "PUNCT"], ents=[f"B-{entity}", "O", "O"])
    assert mention_constraints(doc, [(0, 1)]).classes.tolist() == [expected]


def test_a_longer_name_follows_the_ner():
    # Sigrid Foods left .  (an organisation named after a person: not "she"; a company)
    doc = Doc(spacy.blank("en").vocab, words=["Sigrid", "Foods", "left", "."],
              heads=[1, 2, 2, 2], deps=["compound", "nsubj", "ROOT", "punct"],
              tags=["NNP", "NNP", "VBD", "."], pos=["PROPN", "PROPN", "VERB", "PUNCT"],
              ents=["B-ORG", "I-ORG", "O", "O"])
    assert mention_constraints(doc, [(0, 2)]).classes.tolist() == [COLLECTIVE]
    doc.ents = [Span(doc, 0, 2, label="PERSON")]  # a person's name to the NER: her first name's
    assert mention_constraints(doc, [(0, 2)]).classes.tolist() == [FEMININE]


def test_binding_moves_the_pronoun_to_its_next_best_antecedent():
    doc = nurse_doc()
    spans = [(0, 2), (3, 5), (7, 8)]
    scores = scores_for(spans, [[], [-1.0], [5.0, 2.0]])  # him prefers the nurse
    assert predict_clusters(scores) == [[(0, 2), (7, 8)]]
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(3, 5), (7, 8)]]
    assert decode_clusters(doc, scores, 0.0, []) == predict_clusters(scores)


def test_binding_parts_a_pronoun_from_its_clause_subject_joined_through_another_mention():
    # Sam came . He asked him .
    doc = parsed(
        ["Sam", "came", ".", "He", "asked", "him", "."],
        [1, 1, 1, 4, 4, 4, 4],
        ["nsubj", "ROOT", "punct", "nsubj", "ROOT", "dobj", "punct"],
        ["NNP", "VBD", ".", "PRP", "VBD", "PRP", "."],
    )
    spans = [(0, 1), (3, 4), (5, 6)]  # Sam, He, him
    # "him" cannot take "He", but takes "Sam", which "He" took too
    scores = scores_for(spans, [[], [3.0], [2.0, 4.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [[(0, 1), (3, 4), (5, 6)]]
    # the later mention leaves; its next best antecedent, Sam, shares He's cluster: none left
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(0, 1), (3, 4)]]
    # with another antecedent above the null score, it goes there
    spans = [(0, 1), (1, 2), (3, 4), (5, 6)]  # Sam, came (a stand-in mention), He, him
    scores = scores_for(spans, [[], [-1.0], [3.0, -1.0], [2.0, 1.0, 4.0]])
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(0, 1), (3, 4)], [(1, 2), (5, 6)]]


def test_required_link_is_taken_below_the_null_score():
    doc = parsed(
        ["He", "hurt", "himself", "."],
        [1, 1, 1, 1],
        ["nsubj", "ROOT", "dobj", "punct"],
        ["PRP", "VBD", "PRP", "."],
    )
    scores = scores_for([(0, 1), (2, 3)], [[], [-3.0]])
    assert predict_clusters(scores) == []
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(0, 1), (2, 3)]]


def test_agreement_keeps_the_majority_and_relinks_the_minority():
    # mentions 0 Anna (name), 1 she, 2 Tom (name), 3 she, 4 he
    classes = numpy.array([0, FEMININE, 0, FEMININE, MASCULINE])
    spans = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)]
    pair = [[], [4.0], [1.0, 0.5], [3.0, 2.0, 1.0], [2.0, 1.0, 1.5, 3.0]]
    scores = scores_for(spans, pair)
    # best antecedents alone: one cluster holding she, she and he (he's best is the second she)
    assert predict_clusters(scores) == [[(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)]]
    out = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    # he leaves (one against two); every antecedent above the null score is in the women's
    # cluster, so he stays alone, and the women's cluster keeps Tom (linked to Anna)
    assert out == [[(0, 1), (2, 3), (4, 5), (6, 7)]]


def test_agreement_relinks_to_a_compatible_cluster():
    classes = numpy.array([0, FEMININE, 0, MASCULINE])  # Anna, she, Tom, he
    spans = [(0, 1), (2, 3), (4, 5), (6, 7)]
    # he prefers she (wrong) over Tom; Tom stays alone
    scores = scores_for(spans, [[], [4.0], [-1.0, -1.0], [2.0, 3.0, 1.0]])
    assert predict_clusters(scores) == [[(0, 1), (2, 3), (6, 7)]]
    out = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    assert out == [[(0, 1), (2, 3)], [(4, 5), (6, 7)]]


def nadia_doc():
    # Nadia slept . Mr. Patel came . Her hat fell . She cried .
    return parsed(
        ["Nadia", "slept", ".", "Mr.", "Patel", "came", ".", "Her", "hat", "fell", ".", "She",
         "cried", "."],
        [1, 1, 1, 4, 5, 5, 5, 8, 9, 9, 9, 12, 12, 12],
        ["nsubj", "ROOT", "punct", "compound", "nsubj", "ROOT", "punct", "poss", "nsubj", "ROOT",
         "punct", "nsubj", "ROOT", "punct"],
        ["NNP", "VBD", ".", "NNP", "NNP", "VBD", ".", "PRP$", "NN", "VBD", ".", "PRP", "VBD", "."],
    )


def test_agreement_cuts_the_weakest_link_where_a_majority_would_drop_the_antecedent():
    # Her took Mr. Patel (its best score) and She took Her: a majority of two women's pronouns
    # would put Mr. Patel out; cutting the links that join him to them sends both to Nadia
    spans = [(0, 1), (3, 5), (7, 8), (11, 12)]
    scores = scores_for(spans, [[], [-2.0], [3.0, 7.0], [2.0, 4.0, 5.8]])
    classes = numpy.array([FEMININE, MASCULINE, FEMININE, FEMININE])
    majority = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    assert majority == [[(7, 8), (11, 12)]]
    cut = constrained_clusters(
        scores, classes=classes, conflicts=conflicting_classes, cut_classes=ALL_CLASSES
    )
    assert cut == [[(0, 1), (7, 8), (11, 12)]]
    # the decoding repairs every class by cutting
    assert decode_clusters(nadia_doc(), scores, 0.0, ["agreement"]) == cut


def test_the_cut_spares_the_link_that_has_no_other_place_to_go():
    # The queen summoned the general , and he bowed to her : "he" and "her" both took "the
    # general", "her" by a little more; cutting the weaker link would leave "he" with no one
    # (the queen disagrees), cutting the one that costs least sends "her" to the queen
    spans = [(0, 2), (3, 5), (7, 8), (10, 11)]
    scores = scores_for(spans, [[], [-5.0], [1.9, 7.3], [4.4, 7.5, 2.6]])
    classes = numpy.array([FEMININE, 0, MASCULINE, FEMININE])
    out = constrained_clusters(
        scores, classes=classes, conflicts=conflicting_classes, cut_classes=ALL_CLASSES
    )
    assert out == [[(0, 2), (10, 11)], [(3, 5), (7, 8)]]


def test_a_conflict_moves_a_mention_out_that_cutting_cannot_reach(monkeypatch):
    # The teacher asked the boy . He spoke . She frowned : "He" took the teacher (7.4, the
    # boy 5.7) and "She" took "He" (8.5, the teacher 8.3; the boy below the null score).
    # Cutting She's link leaves her no one (the teacher's cluster holds He); He leaving for
    # the boy costs 1.7 and keeps She with the teacher
    spans = [(0, 2), (3, 5), (6, 7), (9, 10)]
    scores = scores_for(spans, [[], [-5.0], [7.4, 5.7], [8.3, -1.0, 8.5]])
    classes = numpy.array([0, 0, MASCULINE, FEMININE])
    kwargs = dict(classes=classes, conflicts=conflicting_classes, cut_classes=ALL_CLASSES)
    assert constrained_clusters(scores, **kwargs) == [[(0, 2), (9, 10)], [(3, 5), (6, 7)]]
    # cutting alone (no move is ever worth it): She stands alone, He keeps the teacher
    monkeypatch.setattr(clustering, "MOVE_MARGIN", float("inf"))
    assert constrained_clusters(scores, **kwargs) == [[(0, 2), (6, 7)]]


def test_a_move_must_keep_clearly_more_than_the_cut(monkeypatch):
    # as above, but He's second choice is far behind (the boy 1.0): the move keeps 8.3 for
    # She and 1.0 for He, the cut 7.4 for He and nothing for She (alone), 1.9 less
    spans = [(0, 2), (3, 5), (6, 7), (9, 10)]
    scores = scores_for(spans, [[], [-5.0], [7.4, 1.0], [8.3, -1.0, 8.5]])
    classes = numpy.array([0, 0, MASCULINE, FEMININE])
    kwargs = dict(classes=classes, conflicts=conflicting_classes, cut_classes=ALL_CLASSES)
    assert constrained_clusters(scores, **kwargs) == [[(0, 2), (9, 10)], [(3, 5), (6, 7)]]
    monkeypatch.setattr(clustering, "MOVE_MARGIN", 2.0)
    assert constrained_clusters(scores, **kwargs) == [[(0, 2), (6, 7)]]


def test_a_repeated_name_brings_no_phrase_into_its_possessors_cluster():
    # Fenwick Labs said its chip works . It ships . Fenwick grew : "Fenwick" took the chip's
    # "It"; merging it with "Fenwick Labs" would put "its chip" with its own "its"
    doc = parsed(
        ["Fenwick", "Labs", "said", "its", "chip", "works", ".", "It", "ships", ".", "Fenwick",
         "grew", "."],
        [1, 2, 2, 4, 5, 2, 2, 8, 8, 8, 11, 11, 11],
        ["compound", "nsubj", "ROOT", "poss", "nsubj", "ccomp", "punct", "nsubj", "ROOT",
         "punct", "nsubj", "ROOT", "punct"],
        ["NNP", "NNP", "VBD", "PRP$", "NN", "VBZ", ".", "PRP", "VBZ", ".", "NNP", "VBD", "."],
    )
    spans = [(0, 2), (3, 4), (3, 5), (7, 8), (10, 11)]
    scores = scores_for(spans, [[], [6.0], [-2.0, -3.0], [2.0, 3.0, 7.0], [-1.0, 1.0, 2.0, 5.0]])
    apart = [[(0, 2), (3, 4)], [(3, 5), (7, 8), (10, 11)]]
    assert decode_clusters(doc, scores, 0.0, ["binding", "names"]) == apart
    # without binding the names merge as before
    assert decode_clusters(doc, scores, 0.0, ["names"]) == [[(0, 2), (3, 4), (3, 5), (7, 8),
                                                             (10, 11)]]


def test_a_relinked_mention_takes_no_equal_of_a_mention_it_conflicts_with():
    # Halvard Nyberg ( born 1961 ) ... He ... her : "her" took "Halvard Nyberg" (He's);
    # agreement sends it away, and the nested "Halvard Nyberg ( born 1961 )", alone in its
    # cluster, is the same man
    spans = [(0, 2), (0, 6), (7, 8), (9, 10)]  # the name, the name with its brackets, He, her
    scores = scores_for(spans, [[], [-8.0], [6.0, 2.0], [4.0, 2.2, 2.5]])
    classes = numpy.array([0, 0, MASCULINE, FEMININE])
    kwargs = dict(classes=classes, conflicts=conflicting_classes, cut_classes=ALL_CLASSES)
    assert constrained_clusters(scores, **kwargs) == [[(0, 2), (7, 8)], [(0, 6), (9, 10)]]
    heads = numpy.array([1, 1, 7, 9])  # both names are headed by "Nyberg"
    assert constrained_clusters(scores, same_entity=heads, **kwargs) == [[(0, 2), (7, 8)]]


def test_without_a_parse_a_conflict_with_it_is_cut_not_outvoted():
    # The car stopped . Tom got out . It was hot . it steamed : "It" took Tom (wrong, 7.0;
    # the car 3.0). Outvoted by the two "it", Tom would leave, and the car stay apart; cutting
    # the link between Tom and "It" sends "It" to the car
    doc = spacy.blank("en")("The car stopped . Tom got out . It was hot . it steamed .")
    spans = [(0, 2), (4, 5), (8, 9), (12, 13)]
    scores = scores_for(spans, [[], [-2.0], [3.0, 7.0], [2.0, 4.0, 5.8]])
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(0, 2), (8, 9), (12, 13)]]


def test_a_person_noun_is_not_it():
    # Okafor was a physicist . It won .
    doc = parsed(
        ["Okafor", "was", "a", "physicist", ".", "It", "won", "."],
        [1, 1, 3, 1, 1, 6, 6, 6],
        ["nsubj", "ROOT", "det", "attr", "punct", "nsubj", "ROOT", "punct"],
        ["NNP", "VBD", "DT", "NN", ".", "PRP", "VBD", "."],
    )
    spans = [(0, 1), (2, 4), (5, 6)]
    assert mention_constraints(doc, spans).classes.tolist() == [0, HUMAN, NEUTER]
    scores = scores_for(spans, [[], [3.0], [1.0, 4.0]])
    assert predict_clusters(scores) == [[(0, 1), (2, 4), (5, 6)]]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(0, 1), (2, 4)]]


def garden_doc(noun):
    # Priya called Walter . He fell in his garden . She ran .
    return parsed(
        ["Priya", "called", "Walter", ".", "He", "fell", "in", "his", noun, ".", "She", "ran",
         "."],
        [1, 1, 1, 1, 5, 5, 5, 8, 6, 5, 11, 11, 11],
        ["nsubj", "ROOT", "dobj", "punct", "nsubj", "ROOT", "prep", "poss", "pobj", "punct",
         "nsubj", "ROOT", "punct"],
        ["NNP", "VBD", "NNP", ".", "PRP", "VBD", "IN", "PRP$", "NN", ".", "PRP", "VBD", "."],
    )


def test_a_thing_is_never_he_or_she():
    doc = garden_doc("garden")
    spans = [(0, 1), (2, 3), (4, 5), (7, 8), (7, 9), (10, 11)]
    assert mention_constraints(doc, spans).classes[4] == NEUTER
    # the model's features read no such class (the shipped models were trained without it)
    assert mention_constraints(doc, spans, first_names=False).classes[4] == 0
    # "She" scores "his" first and "his garden" above "Priya": agreement sends her to Priya
    scores = scores_for(spans, [[], [-5.0], [-5.0, 3.0], [-5.0, 2.0, 4.0], [-9.0] * 4,
                                [0.5, 1.0, 2.0, 4.0, 1.5]])
    walter = [(2, 3), (4, 5), (7, 8)]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(0, 1), (10, 11)], walter]
    # capitalised, the noun may name a person ("his Angel"), and "She" may take it
    doc = garden_doc("Garden")
    assert mention_constraints(doc, spans).classes[4] == 0
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [walter, [(7, 9), (10, 11)]]


def test_a_body_of_people_is_never_he_she_or_one_person():
    # The jury listened . The lawyer spoke ; she smiled .
    doc = parsed(
        ["The", "jury", "listened", ".", "The", "lawyer", "spoke", ";", "she", "smiled", "."],
        [1, 2, 2, 2, 5, 6, 6, 6, 9, 6, 6],
        ["det", "nsubj", "ROOT", "punct", "det", "nsubj", "ROOT", "punct", "nsubj", "conj",
         "punct"],
        ["DT", "NN", "VBD", ".", "DT", "NN", "VBD", ":", "PRP", "VBD", "."],
    )
    spans = [(0, 2), (4, 6), (8, 9)]
    assert mention_constraints(doc, spans).classes.tolist() == [COLLECTIVE, HUMAN, FEMININE]
    assert conflicting_classes(COLLECTIVE) & (MASCULINE | FEMININE | HUMAN)
    assert not conflicting_classes(COLLECTIVE) & (NEUTER | PLURAL)
    # "she" scores "the jury" above "the lawyer"; "the lawyer" alone with the jury
    scores = scores_for(spans, [[], [1.0], [4.0, 3.0]])
    assert predict_clusters(scores) == [[(0, 2), (4, 6), (8, 9)]]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(4, 6), (8, 9)]]


def test_noun_phrases_joined_by_a_conjunction_are_never_it():
    # The dam and the river flooded ; it broke .
    doc = parsed(
        ["The", "dam", "and", "the", "river", "flooded", ";", "it", "broke", "."],
        [1, 5, 1, 4, 1, 5, 5, 8, 5, 5],
        ["det", "nsubj", "cc", "det", "conj", "ROOT", "punct", "nsubj", "conj", "punct"],
        ["DT", "NN", "CC", "DT", "NN", "VBD", ":", "PRP", "VBD", "."],
    )
    spans = [(0, 2), (0, 5), (3, 5), (7, 8)]
    classes = mention_constraints(doc, spans).classes.tolist()
    assert classes == [0, PLURAL | CONJOINED, NEUTER, NEUTER]  # "river": a thing noun
    assert conflicting_classes(PLURAL | CONJOINED) & NEUTER
    # "it" scores the pair above "the dam": it goes to the dam
    scores = scores_for(spans, [[], [-9.0], [-9.0, -9.0], [1.0, 3.0, -1.0]])
    assert predict_clusters(scores) == [[(0, 5), (7, 8)]]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(0, 2), (7, 8)]]


def test_a_noun_phrase_named_by_a_person_s_name_takes_its_gender():
    # Her neighbour , a teacher called Mr. Patel , came .
    doc = parsed(
        ["Her", "neighbour", ",", "a", "teacher", "called", "Mr.", "Patel", ",", "came", "."],
        [1, 9, 1, 4, 1, 4, 7, 5, 1, 9, 9],
        ["poss", "nsubj", "punct", "det", "appos", "acl", "compound", "oprd", "punct", "ROOT",
         "punct"],
        ["PRP$", "NN", ".", "DT", "NN", "VBD", "NNP", "NNP", ".", "VBD", "."],
    )
    spans = [(0, 2), (0, 8), (3, 5), (3, 8)]
    named = mention_constraints(doc, spans, first_names=True).classes.tolist()
    assert named == [HUMAN, MASCULINE, HUMAN, MASCULINE]
    # the model's features read no names (first_names=False): the nouns alone
    assert mention_constraints(doc, spans, first_names=False).classes.tolist() == [HUMAN] * 4


def test_agreement_without_a_compatible_antecedent_leaves_the_mention_alone():
    classes = numpy.array([FEMININE, MASCULINE])
    scores = scores_for([(0, 1), (2, 3)], [[], [2.0]])
    assert constrained_clusters(scores, classes=classes, conflicts=conflicting_classes) == []


@pytest.mark.parametrize("seed", range(20))
def test_constrained_decoding_never_mixes_classes_and_equals_plain_without_them(seed):
    rng = numpy.random.default_rng(seed)
    n = 30
    spans = [(2 * i, 2 * i + 1) for i in range(n)]
    pair = [list(rng.normal(0.5, 2.0, size=i)) for i in range(n)]
    scores = scores_for(spans, pair)
    assert constrained_clusters(scores) == predict_clusters(scores)
    classes = rng.choice([0, 0, MASCULINE, FEMININE, NEUTER, PLURAL], size=n)
    out = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    seen = set()
    for cluster in out:
        flags = 0
        for mention in cluster:
            assert mention not in seen
            seen.add(mention)
            flags |= int(classes[spans.index(mention)])
        assert not flags & conflicting_classes(flags), (cluster, flags)


def test_decoding_a_doc_without_real_antecedents():
    doc = parsed(
        ["He", "hurt", "himself"], [1, 1, 1], ["nsubj", "ROOT", "dobj"], ["PRP", "VBD", "PRP"]
    )
    spans = [(0, 1), (2, 3)]
    scores = scores_for(spans, [[], [MASKED_SCORE]])  # the only antecedent column is padding
    assert decode_clusters(doc, scores, 0.0, ["agreement", "binding"]) == []
    assert decode_clusters(doc, scores_for([(0, 1)], [[]]), 0.0, ["binding"]) == []


CONTROL_POS = {**POS, "TO": "PART", "VB": "VERB", "VBG": "VERB", "VBZ": "VERB", "MD": "AUX",
               ",": "PUNCT"}


def control_doc(words, heads, deps, tags):
    pos = [CONTROL_POS[t] for t in tags]
    return Doc(spacy.blank("en").vocab, words=words, heads=heads, deps=deps, tags=tags, pos=pos)


@pytest.mark.parametrize(
    "words,heads,deps,tags,pronoun,subject",
    [
        # Denton began to suffocate him .  (the subject of "began" suffocates)
        (["Denton", "began", "to", "suffocate", "him", "."], [1, 1, 3, 1, 3, 1],
         ["nsubj", "ROOT", "aux", "xcomp", "dobj", "punct"],
         ["NNP", "VBD", "TO", "VB", "PRP", "."], 4, 0),
        # Ann asked Bo to help him .  (the object of "asked" helps)
        (["Ann", "asked", "Bo", "to", "help", "him", "."], [1, 1, 1, 4, 1, 4, 1],
         ["nsubj", "ROOT", "dobj", "aux", "xcomp", "dobj", "punct"],
         ["NNP", "VBD", "NNP", "TO", "VB", "PRP", "."], 5, 2),
        # Percy left , telling him .
        (["Percy", "left", ",", "telling", "him", "."], [1, 1, 1, 1, 3, 1],
         ["nsubj", "ROOT", "punct", "advcl", "dobj", "punct"],
         ["NNP", "VBD", ",", "VBG", "PRP", "."], 4, 0),
        # After meeting him , Sam left .
        (["After", "meeting", "him", ",", "Sam", "left", "."], [5, 0, 1, 5, 5, 5, 5],
         ["prep", "pcomp", "dobj", "punct", "nsubj", "ROOT", "punct"],
         ["IN", "VBG", "PRP", ",", "NNP", "VBD", "."], 2, 4),
    ],
)
def test_binding_reaches_the_unspoken_subject_of_a_clause(words, heads, deps, tags, pronoun,
                                                          subject):
    doc = control_doc(words, heads, deps, tags)
    spans = sorted([(subject, subject + 1), (pronoun, pronoun + 1)])
    mentions = mention_constraints(doc, spans)
    assert mentions.clause_subjects.tolist()[spans.index((pronoun, pronoun + 1))] == subject
    # the model's features keep the binding the shipped weights were trained with
    narrow = mention_constraints(doc, spans, controlled=False)
    assert narrow.clause_subjects.tolist()[spans.index((pronoun, pronoun + 1))] == -1
    # the pronoun prefers that subject; binding leaves it without an antecedent
    scores = scores_for(spans, [[], [3.0]])
    assert predict_clusters(scores) == [spans]
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == []


@pytest.mark.parametrize(
    "words,heads,deps,tags,bound",
    [
        # Tom watched him leave .  (him: the subject of "leave", governed by "watched")
        (["Tom", "watched", "him", "leave", "."], [1, 1, 3, 1, 1],
         ["nsubj", "ROOT", "nsubj", "ccomp", "punct"], ["NNP", "VBD", "PRP", "VB", "."], True),
        # Tom wanted him to stay .
        (["Tom", "wanted", "him", "to", "stay", "."], [1, 1, 4, 4, 1, 1],
         ["nsubj", "ROOT", "nsubj", "aux", "ccomp", "punct"],
         ["NNP", "VBD", "PRP", "TO", "VB", "."], True),
        # Tom made him captain .  (a small clause without a verb)
        (["Tom", "made", "him", "captain", "."], [1, 1, 3, 1, 1],
         ["nsubj", "ROOT", "nsubj", "ccomp", "punct"], ["NNP", "VBD", "PRP", "NN", "."], True),
        # Tom said he left .  (a finite clause, and "he" in the subject case: free)
        (["Tom", "said", "he", "left", "."], [1, 1, 3, 1, 1],
         ["nsubj", "ROOT", "nsubj", "ccomp", "punct"], ["NNP", "VBD", "PRP", "VBD", "."], False),
        # Tom knows she will leave .  (the modal makes the clause finite)
        (["Tom", "knows", "she", "will", "leave", "."], [1, 1, 4, 4, 1, 1],
         ["nsubj", "ROOT", "nsubj", "aux", "ccomp", "punct"],
         ["NNP", "VBZ", "PRP", "MD", "VB", "."], False),
    ],
)
def test_the_object_case_subject_of_a_complement_is_bound_by_the_verb_above(
    words, heads, deps, tags, bound
):
    doc = control_doc(words, heads, deps, tags)
    spans = [(0, 1), (2, 3)]
    mentions = mention_constraints(doc, spans)
    assert mentions.clause_subjects.tolist()[1] == (0 if bound else -1)
    # the model's features keep the binding the shipped weights were trained with
    assert mention_constraints(doc, spans, controlled=False).clause_subjects.tolist()[1] == -1
    scores = scores_for(spans, [[], [3.0]])
    expected = [] if bound else [spans]
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == expected


def test_a_reflexive_subject_of_a_complement_takes_the_subject_above():
    # Sam watched himself leave .  (the model prefers no antecedent; binding requires Sam)
    doc = control_doc(["Sam", "watched", "himself", "leave", "."], [1, 1, 3, 1, 1],
                         ["nsubj", "ROOT", "nsubj", "ccomp", "punct"],
                         ["NNP", "VBD", "PRP", "VB", "."])
    scores = scores_for([(0, 1), (2, 3)], [[], [-3.0]])
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(0, 1), (2, 3)]]


def test_a_reflexive_in_a_clause_without_a_subject_takes_the_one_above():
    # Sam tried to hurt himself .
    doc = control_doc(["Sam", "tried", "to", "hurt", "himself", "."], [1, 1, 3, 1, 3, 1],
                      ["nsubj", "ROOT", "aux", "xcomp", "dobj", "punct"],
                      ["NNP", "VBD", "TO", "VB", "PRP", "."])
    scores = scores_for([(0, 1), (4, 5)], [[], [-3.0]])
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(0, 1), (4, 5)]]


def test_a_comitative_pronoun_stays_free_in_a_clause_without_a_subject():
    # Sam tried to take Bo with him .
    doc = control_doc(["Sam", "tried", "to", "take", "Bo", "with", "him", "."],
                      [1, 1, 3, 1, 3, 3, 5, 1],
                      ["nsubj", "ROOT", "aux", "xcomp", "dobj", "prep", "pobj", "punct"],
                      ["NNP", "VBD", "TO", "VB", "NNP", "IN", "PRP", "."])
    assert mention_constraints(doc, [(0, 1), (6, 7)]).clause_subjects.tolist() == [-1, -1]


def test_an_argument_of_a_predicate_adjective_is_bound_in_its_clause():
    # He was proud of him , and near him .  ("near" takes no argument: free)
    doc = control_doc(["He", "was", "proud", "of", "him", ",", "and", "near", "him", "."],
                      [1, 1, 1, 2, 3, 1, 1, 1, 7, 1],
                      ["nsubj", "ROOT", "acomp", "prep", "pobj", "punct", "cc", "conj", "pobj",
                       "punct"],
                      ["PRP", "VBD", "JJ", "IN", "PRP", ",", "CC", "IN", "PRP", "."])
    mentions = mention_constraints(doc, [(0, 1), (4, 5), (8, 9)])
    assert mentions.clause_subjects.tolist() == [-1, 0, -1]
    # the model's features read the verbs' objects alone, as they were trained
    features = mention_constraints(doc, [(0, 1), (4, 5)], first_names=False, controlled=False)
    assert features.clause_subjects.tolist() == [-1, -1]


def test_a_noun_phrase_leaves_the_cluster_of_its_own_possessor():
    # Anna came . Her mother smiled .
    doc = parsed(["Anna", "came", ".", "Her", "mother", "smiled", "."], [1, 1, 1, 4, 5, 5, 5],
                 ["nsubj", "ROOT", "punct", "poss", "nsubj", "ROOT", "punct"],
                 ["NNP", "VBD", ".", "PRP$", "NN", "VBD", "."])
    spans = [(0, 1), (3, 4), (3, 5)]  # Anna, Her, Her mother
    scores = scores_for(spans, [[], [3.0], [1.0, 2.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [spans]
    # "Her mother" stands alone: not relinked to Anna, whom the scores rank next
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(0, 1), (3, 4)]]


def test_a_form_of_address_stays_with_its_possessor():
    # Your Ladyship smiled .
    doc = parsed(["Your", "Ladyship", "smiled", "."], [1, 2, 2, 2],
                 ["poss", "nsubj", "ROOT", "punct"], ["PRP$", "NNP", "VBD", "."])
    scores = scores_for([(0, 1), (0, 2)], [[], [2.0]])
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(0, 1), (0, 2)]]


def library_doc():
    # The old library closed . A new library opened ; it is big .
    return parsed(
        ["The", "old", "library", "closed", ".", "A", "new", "library", "opened", ";", "it",
         "is", "big", "."],
        [2, 2, 3, 3, 3, 7, 7, 8, 8, 8, 11, 11, 11, 11],
        ["det", "amod", "nsubj", "ROOT", "punct", "det", "amod", "nsubj", "ROOT", "punct",
         "nsubj", "ROOT", "acomp", "punct"],
        ["DT", "JJ", "NN", "VBD", ".", "DT", "JJ", "NN", "VBD", ".", "PRP", "VBD", "JJ", "."],
    )


def test_an_indefinite_takes_no_antecedent_but_may_be_one():
    doc = library_doc()
    spans = [(0, 3), (5, 8), (10, 11)]  # The old library, A new library, it
    mentions = mention_constraints(doc, spans)
    assert mentions.indefinite.tolist() == [False, True, False]
    scores = scores_for(spans, [[], [3.0], [1.0, 2.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [spans]
    # "it" still takes "A new library"
    assert decode_clusters(doc, scores, 0.0, ["indefinites"]) == [[(5, 8), (10, 11)]]


def test_another_is_an_indefinite_article():
    # The old library closed . Another library opened ; it is big .
    words = [t.text for t in library_doc()]
    words[5:7] = ["Another"]
    doc = parsed(
        words,
        [2, 2, 3, 3, 3, 6, 7, 7, 7, 10, 10, 10, 10],
        ["det", "amod", "nsubj", "ROOT", "punct", "det", "nsubj", "ROOT", "punct", "nsubj",
         "ROOT", "acomp", "punct"],
        ["DT", "JJ", "NN", "VBD", ".", "DT", "NN", "VBD", ".", "PRP", "VBD", "JJ", "."],
    )
    spans = [(0, 3), (5, 7), (9, 10)]  # The old library, Another library, it
    assert mention_constraints(doc, spans).indefinite.tolist() == [False, True, False]
    unparsed = spacy.blank("en")("The old library closed. Another library opened; it is big.")
    assert mention_constraints(unparsed, spans).indefinite.tolist() == [False, True, False]


def test_without_a_parse_a_span_from_an_article_on_is_indefinite():
    doc = spacy.blank("en")("The old library closed. A new library opened; it is big. A")
    spans = [(0, 3), (5, 8), (10, 11), (14, 15)]  # ..., it, "A" alone
    assert mention_constraints(doc, spans).indefinite.tolist() == [False, True, False, False]
    scores = scores_for(spans, [[], [3.0], [1.0, 2.0], [-1.0, -1.0, -1.0]])
    assert decode_clusters(doc, scores, 0.0, ["indefinites"]) == [[(5, 8), (10, 11)]]


def test_repeated_names_keep_persons_apart():
    # Jones : I paint . Jones : She died .  (a transcript without quotes: "I" is Jones, "She"
    # someone else, though the model linked the second "Jones" to her)
    doc = parsed(
        ["Jones", ":", "I", "paint", ".", "Jones", ":", "She", "died", "."],
        [3, 3, 3, 3, 3, 8, 8, 8, 8, 8],
        ["dep", "punct", "nsubj", "ROOT", "punct", "dep", "punct", "nsubj", "ROOT", "punct"],
        ["NNP", ":", "PRP", "VBD", ".", "NNP", ":", "PRP", "VBD", "."],
    )
    spans = [(0, 1), (2, 3), (5, 6), (7, 8)]
    pair_scores = [[], [5.0], [-1.0, -1.0], [-1.0, -1.0, 5.0]]
    scores = scores_for(spans, pair_scores)
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(0, 1), (2, 3)], [(5, 6), (7, 8)]]
    # the repeated name would join the two; "I" and "She" are two people
    clusters = decode_clusters(doc, scores, 0.0, ["agreement", "names"])
    assert clusters == [[(0, 1), (2, 3)], [(5, 6), (7, 8)]]


def test_two_objects_of_one_verb_are_apart_where_one_is_a_pronoun():
    # Serve them with the fish .
    doc = parsed(
        ["Serve", "them", "with", "the", "fish", "."],
        [0, 0, 0, 4, 2, 0],
        ["ROOT", "dobj", "prep", "det", "pobj", "punct"],
        ["VBD", "PRP", "IN", "DT", "NN", "."],
    )
    spans = [(1, 2), (3, 5)]
    mentions = mention_constraints(doc, spans)
    assert mentions.argument_of.tolist() == [0, 0]
    assert mentions.pronoun.tolist() == [True, False]
    antecedents = numpy.array([[0], [0]])
    forbidden, _ = binding_masks(mentions, antecedents)
    assert forbidden[1, 0]  # "the fish" is not "them"
    scores = scores_for(spans, [[], [4.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [[(1, 2), (3, 5)]]
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == []


def test_a_reflexive_object_may_take_the_other_object():
    # Ann showed Bo himself .  (a reflexive is bound, not kept apart)
    doc = parsed(
        ["Ann", "showed", "Bo", "himself", "."],
        [1, 1, 1, 1, 1],
        ["nsubj", "ROOT", "dative", "dobj", "punct"],
        ["NNP", "VBD", "NNP", "PRP", "."],
    )
    mentions = mention_constraints(doc, [(2, 3), (3, 4)])
    forbidden, _ = binding_masks(mentions, numpy.array([[0], [0]]))
    assert not forbidden[1, 0]
