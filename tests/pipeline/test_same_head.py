"""The same_head constraint: a cluster keeps one of two nested mentions with one head word.
Docs are built by hand (words, heads, deps, tags), scores too."""
import numpy
import spacy
from spacy.tokens import Doc
from test_constraints import scores_for  # noqa: E402 (the same folder)

from spacy_coref.pipeline.constraints import CONSTRAINTS, decode_clusters
from spacy_coref.pipeline.coref import coref_pipeline_path
from spacy_coref.pipeline.same_head import one_mention_per_head

POS = {"NNP": "PROPN", "DT": "DET", ",": "PUNCT", ".": "PUNCT", "WP": "PRON", "VBD": "VERB",
       "PRP": "PRON"}


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


def test_same_head_is_a_constraint_of_the_default():
    assert "same_head" in CONSTRAINTS
    config = spacy.util.load_config(coref_pipeline_path("default") / "config.cfg")
    assert "same_head" in config["components"]["coref_cluster"]["constraints"]


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


def test_a_doc_without_a_parse_keeps_its_clusters():
    doc = Doc(spacy.blank("en").vocab, words=["Greta", ",", "who", "laughed", ",", "left"])
    cluster = [[GRETA, GRETA_WHO]]
    candidates = numpy.asarray([GRETA, GRETA_WHO])
    assert one_mention_per_head(doc, cluster, candidates, numpy.zeros(2)) == cluster
