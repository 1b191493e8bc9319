"""The contrasts constraint: one head noun with modifiers that exclude each other ("the old
bridge", "a new bridge") makes two entities. Docs are built by hand (words, heads, deps,
tags), scores too."""
import numpy
import spacy
from decoding_helpers import parsed, scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding import decode_clusters
from spacy_coref.pipeline.constraints import CONSTRAINTS
from spacy_coref.decoding.steps.contrasts import CONTRAST_GROUPS, contrasting_pairs


def bridge_doc(first="new", second="old", noun="bridge"):
    # The town opened a new bridge . The old bridge closed ; it became a park .
    return parsed(
        ["The", "town", "opened", "a", first, noun, ".", "The", second, noun, "closed", ";",
         "it", "became", "a", "park", "."],
        [1, 2, 2, 5, 5, 2, 2, 9, 9, 10, 10, 10, 13, 13, 15, 13, 13],
        ["det", "nsubj", "ROOT", "det", "amod", "dobj", "punct", "det", "amod", "nsubj", "ROOT",
         "punct", "nsubj", "ROOT", "det", "attr", "punct"],
        ["DT", "NN", "VBD", "DT", "JJ", "NN", ".", "DT", "JJ", "NN", "VBD", ".", "PRP", "VBD",
         "DT", "NN", "."],
    )


SPANS = [(0, 2), (3, 6), (7, 10), (12, 13)]  # The town, a new bridge, The old bridge, it
# the model's mistake: "The old bridge" takes "a new bridge", and "it" goes with both
SCORES = [[], [-2.0], [-1.0, 3.0], [-1.0, 1.0, 2.0]]
HEADS = numpy.asarray([1, 5, 9, 12])


def pairs(doc, spans=SPANS, heads=HEADS):
    antecedents = numpy.asarray(scores_for(spans, SCORES).antecedents)
    apart = contrasting_pairs(doc, spans, heads, antecedents)
    return {(q, int(antecedents[q, k])) for q, k in zip(*numpy.nonzero(apart)) if k < q}


def test_contrasts_is_a_constraint_of_the_default():
    assert "contrasts" in CONSTRAINTS


def test_old_and_new_part_one_head_noun():
    assert pairs(bridge_doc()) == {(2, 1)}


def test_the_same_modifier_or_a_synonym_parts_nothing():
    assert pairs(bridge_doc("old", "old")) == set()
    assert pairs(bridge_doc("small", "little")) == set()
    assert pairs(bridge_doc("last", "final")) == set()


def test_adjectives_outside_the_groups_part_nothing():
    # "a nice chap" ... "the poor chap" may be one person
    assert pairs(bridge_doc("nice", "poor", "chap")) == set()
    # one of the two without a group word
    assert pairs(bridge_doc("nice", "old")) == set()


def test_a_contrast_needs_the_same_head_noun():
    # "a new bridge" ... "the old road": different nouns, nothing to part
    doc = bridge_doc()
    doc[9].lemma_ = "road"
    doc[5].lemma_ = "bridge"
    assert pairs(doc) == set()


def test_every_group_word_parts_from_another_value_of_its_group():
    for group in CONTRAST_GROUPS:
        (first, *_), (second, *_) = group[0], group[1]
        assert pairs(bridge_doc(first, second)) == {(2, 1)}, (first, second)


def test_numbers_part_where_they_differ_whether_words_or_digits():
    def boxes(first, second):
        # Two boxes came . The three boxes were heavy ; they broke .
        return parsed(
            [first, "boxes", "came", ".", "The", second, "boxes", "were", "heavy", ";", "they",
             "broke", "."],
            [1, 2, 2, 2, 6, 6, 7, 7, 7, 7, 11, 11, 11],
            ["nummod", "nsubj", "ROOT", "punct", "det", "nummod", "nsubj", "ROOT", "acomp",
             "punct", "nsubj", "ROOT", "punct"],
            ["CD", "NNS", "VBD", ".", "DT", "CD", "NNS", "VBD", "JJ", ".", "PRP", "VBD", "."],
        )
    spans, heads = [(0, 2), (4, 7)], numpy.asarray([1, 6])
    antecedents = numpy.asarray(scores_for(spans, [[], [2.0]]).antecedents)
    assert contrasting_pairs(boxes("Two", "three"), spans, heads, antecedents)[1, 0]
    assert not contrasting_pairs(boxes("Two", "two"), spans, heads, antecedents)[1, 0]
    assert not contrasting_pairs(boxes("3", "three"), spans, heads, antecedents)[1, 0]


def test_decoding_parts_the_two_bridges_and_it_stays_with_its_best():
    doc = bridge_doc()
    scores = scores_for(SPANS, SCORES)
    assert decode_clusters(doc, scores, 0.0, []) == [[(3, 6), (7, 10), (12, 13)]]
    assert decode_clusters(doc, scores, 0.0, ["contrasts"]) == [[(7, 10), (12, 13)]]


def test_contrasts_join_binding_in_one_mask():
    doc = bridge_doc()
    scores = scores_for(SPANS, SCORES)
    assert decode_clusters(doc, scores, 0.0, ["binding", "contrasts"]) == [[(7, 10), (12, 13)]]


def test_without_a_parse_the_last_word_is_the_head():
    text = "The town opened a new bridge. The old bridge closed; it became a park."
    doc = spacy.blank("en")(text)
    unparsed = numpy.full(len(SPANS), -1)
    assert pairs(doc, heads=unparsed) == {(2, 1)}
    scores = scores_for(SPANS, SCORES)
    assert decode_clusters(doc, scores, 0.0, ["contrasts"]) == [[(7, 10), (12, 13)]]
    # "new bridge" without its article still contrasts; a bare "bridge" has nothing to
    assert pairs(doc, [(0, 2), (4, 6), (8, 10), (12, 13)], unparsed) == {(2, 1)}
    assert pairs(doc, [(0, 2), (4, 6), (9, 10), (12, 13)], unparsed) == set()


def test_no_mentions_and_empty_docs():
    doc = spacy.blank("en")("")
    none = contrasting_pairs(doc, [], numpy.zeros(0, dtype="int64"), numpy.zeros((0, 0), "int64"))
    assert none.shape == (0, 0)


def men_doc():
    # Two men came . One of them laughed ; the other cried .
    return parsed(
        ["Two", "men", "came", ".", "One", "of", "them", "laughed", ";", "the", "other",
         "cried", "."],
        [1, 2, 2, 2, 7, 4, 5, 7, 7, 10, 11, 7, 7],
        ["nummod", "nsubj", "ROOT", "punct", "nsubj", "prep", "pobj", "ROOT", "punct", "det",
         "nsubj", "conj", "punct"],
        ["CD", "NNS", "VBD", ".", "CD", "IN", "PRP", "VBD", ":", "DT", "JJ", "VBD", "."],
    )


MEN_SPANS = [(0, 2), (4, 7), (6, 7), (9, 11)]  # Two men, One of them, them, the other
MEN_SCORES = [[], [-1.0], [3.0, -1.0], [-1.0, 2.0, -1.0]]


def test_one_and_the_other_are_two_whatever_their_heads():
    antecedents = numpy.asarray(scores_for(MEN_SPANS, MEN_SCORES).antecedents)
    found = contrasting_pairs(men_doc(), MEN_SPANS, numpy.asarray([1, 4, 6, 10]), antecedents)
    assert {(q, int(antecedents[q, k])) for q, k in zip(*numpy.nonzero(found)) if k < q} == {
        (3, 1)
    }
    # the model's mistake, "the other" with "One of them", is undone
    scores = scores_for(MEN_SPANS, MEN_SCORES)
    assert decode_clusters(men_doc(), scores, 0.0, []) == [[(0, 2), (6, 7)], [(4, 7), (9, 11)]]
    assert decode_clusters(men_doc(), scores, 0.0, ["contrasts"]) == [[(0, 2), (6, 7)]]


def test_one_and_the_other_without_a_parse():
    doc = spacy.blank("en")("Two men came. One of them laughed; the other cried.")
    assert [t.text for t in doc][4:11] == ["One", "of", "them", "laughed", ";", "the", "other"]
    antecedents = numpy.asarray(scores_for(MEN_SPANS, MEN_SCORES).antecedents)
    found = contrasting_pairs(doc, MEN_SPANS, numpy.full(4, -1), antecedents)
    assert {(q, int(antecedents[q, k])) for q, k in zip(*numpy.nonzero(found)) if k < q} == {
        (3, 1)
    }
