"""The groups constraint: a plural pronoun takes a coordination rather than one of its members,
and a noun phrase with a member's head noun the member. Docs are built by hand (words, heads,
deps, tags), scores too, with sentences of our own."""
import numpy
import spacy
from spacy.tokens import Doc
from decoding_helpers import scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding import decode_clusters
from spacy_coref.decoding.steps.groups import group_member_antecedents

POS = {"DT": "DET", "NN": "NOUN", "CC": "CCONJ", "VBD": "VERB", ",": "PUNCT", "RB": "ADV",
       "PRP": "PRON", ".": "PUNCT"}


def pets_doc(pronoun="they"):
    # The cat and the dog hid , so they slept .
    tags = ["DT", "NN", "CC", "DT", "NN", "VBD", ",", "RB", "PRP", "VBD", "."]
    return Doc(
        spacy.blank("en").vocab,
        words=["The", "cat", "and", "the", "dog", "hid", ",", "so", pronoun, "slept", "."],
        heads=[1, 5, 1, 4, 1, 5, 5, 9, 9, 5, 5],
        deps=["det", "nsubj", "cc", "det", "conj", "ROOT", "punct", "advmod", "nsubj", "conj",
              "punct"],
        tags=tags,
        pos=[POS[t] for t in tags],
    )


PAIR, CAT, DOG, PRONOUN = (0, 5), (0, 2), (3, 5), (8, 9)
SPANS = [PAIR, CAT, DOG, PRONOUN]
HEADS = numpy.asarray([1, 1, 4, 8])  # "cat" heads the pair
VALID = numpy.ones((4, 3), dtype=bool)
# the pronoun scores "The cat" highest, then "the dog", then the pair
SCORES = [[], [-5.0], [-5.0, -5.0], [1.0, 2.0, 1.5]]


def test_a_plural_pronoun_takes_the_pair_not_a_member():
    doc = pets_doc()
    scores = scores_for(SPANS, SCORES)
    assert decode_clusters(doc, scores, 0.0, []) == [[CAT, PRONOUN]]
    assert decode_clusters(doc, scores, 0.0, ["groups"]) == [[PAIR, PRONOUN]]


def test_members_stay_where_the_pair_is_no_candidate_or_the_pronoun_is_singular():
    doc = pets_doc()
    antecedents = numpy.asarray([[0, 0, 0], [0, 0, 0], [0, 1, 0], [1, 2, 2]])  # no pair
    assert not group_member_antecedents(doc, SPANS, HEADS, antecedents, VALID).any()
    # a padding column that holds the pair's index makes it no candidate
    padded = numpy.asarray([[0, 0, 0], [0, 0, 0], [0, 1, 0], [1, 2, 0]])
    valid = VALID.copy()
    valid[3, 2] = False
    assert not group_member_antecedents(doc, SPANS, HEADS, padded, valid).any()
    it = pets_doc("it")
    scores = scores_for(SPANS, SCORES)
    assert decode_clusters(it, scores, 0.0, ["groups"]) == [[CAT, PRONOUN]]


def test_without_a_parse_nothing_is_a_group():
    doc = Doc(spacy.blank("en").vocab, words=pets_doc().text.split())
    antecedents = numpy.asarray([[0, 0, 0], [0, 0, 0], [0, 1, 0], [0, 1, 2]])
    members = group_member_antecedents(pets_doc(), SPANS, HEADS, antecedents, VALID)
    assert members[3].tolist() == [False, True, True]
    assert not group_member_antecedents(doc, SPANS, HEADS, antecedents, VALID).any()


def boys_doc():
    # The boys and the dog hid , so the boys slept .
    tags = ["DT", "NNS", "CC", "DT", "NN", "VBD", ",", "RB", "DT", "NNS", "VBD", "."]
    return Doc(
        spacy.blank("en").vocab,
        words=["The", "boys", "and", "the", "dog", "hid", ",", "so", "the", "boys", "slept", "."],
        heads=[1, 5, 1, 4, 1, 5, 5, 10, 9, 10, 5, 5],
        deps=["det", "nsubj", "cc", "det", "conj", "ROOT", "punct", "advmod", "det", "nsubj",
              "conj", "punct"],
        tags=tags,
        pos=[POS.get(t, "NOUN") for t in tags],
        lemmas=["the", "boy", "and", "the", "dog", "hide", ",", "so", "the", "boy", "sleep", "."],
    )


def test_a_noun_phrase_with_a_members_head_noun_takes_the_member_not_the_group():
    doc = boys_doc()
    spans = [(0, 5), (0, 2), (3, 5), (8, 10)]
    heads = numpy.asarray([1, 1, 4, 9])
    # "the boys" scores the pair highest, then "The boys"
    scores = scores_for(spans, [[], [-5.0], [-5.0, -5.0], [3.0, 2.0, -1.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [[(0, 5), (8, 10)]]
    assert decode_clusters(doc, scores, 0.0, ["groups"]) == [[(0, 2), (8, 10)]]
    forbidden = group_member_antecedents(doc, spans, heads, numpy.asarray(scores.antecedents),
                                         numpy.ones((4, 3), dtype=bool))
    assert forbidden[3].tolist() == [True, False, False]
    # another head noun ("the children") may take the group
    doc[9].lemma_ = "child"
    forbidden = group_member_antecedents(doc, spans, heads, numpy.asarray(scores.antecedents),
                                         numpy.ones((4, 3), dtype=bool))
    assert not forbidden.any()
