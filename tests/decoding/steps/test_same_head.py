"""The same_head constraint: a cluster keeps one of two nested mentions with one head word.
Docs are built by hand (words, heads, deps, tags), scores too."""
import numpy
import spacy
from spacy.tokens import Doc
from decoding_helpers import POS, parsed, scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding import decode_clusters
from spacy_coref.linguistics.mention_classes import FEMININE, MASCULINE, conflicting_classes
from spacy_coref.decoding.steps.same_head import merge_nested_same_head, one_mention_per_head

def greta_doc():
    # Greta , who laughed , left . She smiled .
    words = ["Greta", ",", "who", "laughed", ",", "left", ".", "She", "smiled", "."]
    heads = [5, 0, 3, 0, 0, 5, 5, 8, 8, 8]
    deps = ["nsubj", "punct", "nsubj", "relcl", "punct", "ROOT", "punct", "nsubj", "ROOT",
            "punct"]
    tags = ["NNP", ",", "WP", "VBD", ",", "VBD", ".", "PRP", "VBD", "."]
    return Doc(spacy.blank("en").vocab, words=words, heads=heads, deps=deps, tags=tags,
               pos=[POS[t] for t in tags])


def netherlands_doc():
    # The Netherlands won .
    words, tags = ["The", "Netherlands", "won", "."], ["DT", "NNP", "VBD", "."]
    return Doc(spacy.blank("en").vocab, words=words, heads=[1, 2, 2, 2],
               deps=["det", "nsubj", "ROOT", "punct"], tags=tags, pos=[POS[t] for t in tags])


GRETA, GRETA_WHO, SHE = (0, 1), (0, 4), (7, 8)


def test_the_name_stays_where_the_outer_mention_goes_on_after_it():
    doc = greta_doc()
    # "She" links to both "Greta" and "Greta, who laughed"
    scores = scores_for([GRETA, GRETA_WHO, SHE], [[], [2.0], [1.0, 1.5]])
    assert decode_clusters(doc, scores, 0.0, []) == [[GRETA, GRETA_WHO, SHE]]
    assert decode_clusters(doc, scores, 0.0, ["same_head"]) == [[GRETA, SHE]]


def test_a_cluster_of_two_nested_mentions_alone_is_no_cluster():
    doc = greta_doc()
    scores = scores_for([GRETA, GRETA_WHO, SHE], [[], [2.0], [-1.0, -1.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [[GRETA, GRETA_WHO]]
    assert decode_clusters(doc, scores, 0.0, ["same_head"]) == []


def test_words_only_before_the_inner_mention_leave_it_to_the_mention_scores():
    doc = netherlands_doc()
    candidates = numpy.asarray([(0, 2), (1, 2), (2, 3)])
    cluster = [[(0, 2), (1, 2), (2, 3)]]
    outer_better = numpy.asarray([1.0, 0.5, 0.0])
    inner_better = numpy.asarray([0.5, 1.0, 0.0])
    assert one_mention_per_head(doc, cluster, candidates, outer_better) == [[(0, 2), (2, 3)]]
    assert one_mention_per_head(doc, cluster, candidates, inner_better) == [[(1, 2), (2, 3)]]
    # different heads: "won" is not "Netherlands", nothing goes
    assert one_mention_per_head(doc, [[(1, 2), (1, 3)]], candidates, outer_better) == [
        [(1, 2), (1, 3)]
    ]


def test_one_of_a_chain_of_nested_mentions_stays():
    doc = greta_doc()
    # Greta / Greta , who laughed / Greta , who laughed ,: one head, three spans
    cluster = [[GRETA, GRETA_WHO, (0, 5), SHE]]
    candidates = numpy.asarray([GRETA, GRETA_WHO, (0, 5), SHE])
    for mention_scores in ([3.0, 2.0, 1.0, 0.0], [1.0, 2.0, 3.0, 0.0]):
        kept = one_mention_per_head(doc, cluster, candidates, numpy.asarray(mention_scores))
        assert kept == [[GRETA, SHE]]


def test_without_a_parse_the_last_word_stands_for_the_head():
    # "Greta" and "Greta , who laughed" end on other words: both stay
    doc = Doc(spacy.blank("en").vocab, words=["Greta", ",", "who", "laughed", ",", "left"])
    cluster = [[GRETA, GRETA_WHO]]
    candidates = numpy.asarray([GRETA, GRETA_WHO])
    assert one_mention_per_head(doc, cluster, candidates, numpy.zeros(2)) == cluster
    # Poor Miss Taylor ... Miss Taylor ... she: the mention scores pick one of the nested two
    doc = Doc(spacy.blank("en").vocab, words=["Poor", "Miss", "Taylor", "wept", ";", "she"])
    cluster = [[(0, 3), (1, 3), (5, 6)]]
    candidates = numpy.asarray([(0, 3), (1, 3), (5, 6)])
    inner_better = numpy.asarray([0.5, 1.0, 0.0])
    assert one_mention_per_head(doc, cluster, candidates, inner_better) == [[(1, 3), (5, 6)]]
    outer_better = numpy.asarray([1.0, 0.5, 0.0])
    assert one_mention_per_head(doc, cluster, candidates, outer_better) == [[(0, 3), (5, 6)]]


def test_two_clusters_holding_one_name_with_and_without_words_before_it_become_one():
    doc = netherlands_doc()  # The Netherlands won .
    clusters = [[(0, 2), (2, 3)], [(1, 2), (3, 4)]]
    assert merge_nested_same_head(doc, clusters) == [[(0, 2), (1, 2), (2, 3), (3, 4)]]
    # then one of the two nested mentions goes, as in one cluster
    links = [[], [-1.0], [1.0, -1.0], [-1.0, 1.0, -1.0]]
    scores = scores_for([(0, 2), (1, 2), (2, 3), (3, 4)], links)
    assert decode_clusters(doc, scores, 0.0, []) == [[(0, 2), (2, 3)], [(1, 2), (3, 4)]]
    merged = decode_clusters(doc, scores, 0.0, ["agreement", "same_head"])
    assert len(merged) == 1 and len(merged[0]) == 3 and {(2, 3), (3, 4)} < set(merged[0])


def test_a_part_set_off_by_a_comma_keeps_the_referent():
    doc = greta_doc()  # Greta , who laughed , left . She smiled .
    clusters = [[GRETA, SHE], [GRETA_WHO, (8, 9)]]
    assert merge_nested_same_head(doc, clusters) == [[GRETA, GRETA_WHO, SHE, (8, 9)]]


def test_a_name_in_apposition_after_the_noun_keeps_the_referent():
    # her son David left .  ("her son" in one cluster, "her son David" in another)
    doc = parsed(["her", "son", "David", "left", "."], [1, 3, 1, 3, 3],
                 ["poss", "nsubj", "appos", "ROOT", "punct"], ["PRP", "NN", "NNP", "VBD", "."])
    clusters = [[(0, 2), (4, 5)], [(0, 3), (3, 4)]]
    assert merge_nested_same_head(doc, clusters) == [[(0, 2), (0, 3), (3, 4), (4, 5)]]
    # a common noun in apposition is no name: the clusters stay apart, as before
    doc = parsed(["her", "son", "teacher", "left", "."], [1, 3, 1, 3, 3],
                 ["poss", "nsubj", "appos", "ROOT", "punct"], ["PRP", "NN", "NN", "VBD", "."])
    assert merge_nested_same_head(doc, clusters) == clusters


def test_a_restrictive_part_after_the_noun_or_a_coordination_is_another_referent():
    # the doctor in towns left .
    doc = parsed(["the", "doctor", "in", "towns", "left", "."], [1, 4, 1, 2, 4, 4],
                 ["det", "nsubj", "prep", "pobj", "ROOT", "punct"],
                 ["DT", "NN", "IN", "NNS", "VBD", "."])
    clusters = [[(0, 2), (5, 6)], [(0, 4), (4, 5)]]
    assert merge_nested_same_head(doc, clusters) == clusters
    # the lake and the hills froze .
    doc = parsed(["the", "lake", "and", "the", "hills", "froze", "."], [1, 5, 1, 4, 1, 5, 5],
                 ["det", "nsubj", "cc", "det", "conj", "ROOT", "punct"],
                 ["DT", "NN", "CC", "DT", "NNS", "VBD", "."])
    clusters = [[(0, 2), (6, 7)], [(0, 5), (5, 6)]]
    assert merge_nested_same_head(doc, clusters) == clusters


def test_clusters_whose_agreement_conflicts_stay_apart():
    doc = netherlands_doc()
    clusters = [[(0, 2), (2, 3)], [(1, 2), (3, 4)]]
    classes = {(2, 3): MASCULINE, (3, 4): FEMININE}
    assert merge_nested_same_head(doc, clusters, classes, conflicting_classes) == clusters
    classes = {(2, 3): MASCULINE, (3, 4): MASCULINE}
    assert len(merge_nested_same_head(doc, clusters, classes, conflicting_classes)) == 1


def test_a_speaker_s_cluster_and_a_third_person_s_stay_apart():
    # Ms. Chen , my teacher , left and I miss her .
    words = ["Ms.", "Chen", ",", "my", "teacher", ",", "left", "and", "I", "miss", "her", "."]
    doc = Doc(spacy.blank("en").vocab, words=words,
              heads=[1, 6, 1, 4, 1, 1, 6, 6, 9, 6, 9, 6],
              deps=["compound", "nsubj", "punct", "poss", "appos", "punct", "ROOT", "cc",
                    "nsubj", "conj", "dobj", "punct"],
              tags=["NNP", "NNP", ",", "PRP$", "NN", ",", "VBD", "CC", "PRP", "VBP", "PRP", "."],
              pos=["PROPN", "PROPN", "PUNCT", "PRON", "NOUN", "PUNCT", "VERB", "CCONJ", "PRON",
                   "VERB", "PRON", "PUNCT"],
              morphs=["", "", "", "Person=1|Poss=Yes", "", "", "", "", "Person=1", "", "Person=3",
                      ""])
    speaker, third = [[(0, 2), (3, 4), (8, 9)], [(1, 2), (10, 11)]]
    assert merge_nested_same_head(doc, [speaker, third]) == [speaker, third]
    # without the speaker's pronouns the two are one
    assert merge_nested_same_head(doc, [[(0, 2), (4, 5)], third]) == [
        [(0, 2), (1, 2), (4, 5), (10, 11)]
    ]


def test_a_mention_in_two_clusters_is_not_lost():
    doc = netherlands_doc()
    # (2, 3) in both: the clusters are one, each mention once
    clusters = [[(0, 2), (2, 3)], [(2, 3), (3, 4)], [(1, 2)]]
    merged = merge_nested_same_head(doc, clusters)
    assert merged == [[(0, 2), (1, 2), (2, 3), (3, 4)]]


def test_a_doc_without_a_parse_keeps_clusters_apart():
    doc = Doc(spacy.blank("en").vocab, words=["The", "Netherlands", "won", "."])
    clusters = [[(0, 2), (2, 3)], [(1, 2), (3, 4)]]
    assert merge_nested_same_head(doc, clusters) == clusters
