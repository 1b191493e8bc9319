"""Salience: a "he" or "she" prefers a subject, a mention in its own or the last sentence, a
closer one and one in its own role. Docs are built by hand (words, heads, deps, tags), scores
too."""
import math

import numpy
import pytest
import spacy
from decoding_helpers import parsed, scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding import decode_clusters
from spacy_coref.decoding.steps.salience import (
    FEATURES, SCALE, WEIGHTS, salience_features, with_salience,
)

WORDS = ["Anna", "met", "Beth", ".", "She", "smiled", "."]
ANNA, BETH, SHE = (0, 1), (2, 3), (4, 5)
SPANS = [ANNA, BETH, SHE]


def heads_of(spans):
    return numpy.asarray([start for start, _ in spans])  # one-word mentions: their own heads


def met_doc():
    # Anna met Beth . She smiled .
    return parsed(
        WORDS,
        [1, 1, 1, 1, 5, 5, 5],
        ["nsubj", "ROOT", "dobj", "punct", "nsubj", "ROOT", "punct"],
        ["NNP", "VBD", "NNP", ".", "PRP", "VBD", "."],
    )


def unparsed_met_doc():
    return spacy.blank("en")(" ".join(WORDS))


def she_scores(to_anna, to_beth):
    return scores_for(SPANS, [[], [-1.0], [to_anna, to_beth]])


def features_of(doc):
    scores = she_scores(0.0, 0.0)
    rows, features = salience_features(doc, numpy.asarray(SPANS), heads_of(SPANS),
                                       scores.antecedents)
    assert rows.tolist() == [2]  # only "She" is a he/she pronoun
    return {name: features[0, :2, i].tolist() for i, name in enumerate(FEATURES)}


def test_features_from_the_parse():
    features = features_of(met_doc())
    # columns: Anna, Beth
    assert features["subject"] == [1.0, 0.0]
    assert features["sentences"] == [1.0, 1.0]
    assert features["log_distance"] == pytest.approx([math.log1p(3), math.log1p(1)])
    assert features["parallel"] == [1.0, 0.0]  # "She" is a subject like Anna


def test_sentences_back_are_counted_up_to_three():
    # Anna sang . It rained . It snowed . It hailed . Then she left .
    words = ["Anna", "sang", ".", "It", "rained", ".", "It", "snowed", ".", "It", "hailed",
             ".", "Then", "she", "left", "."]
    heads = [1, 1, 1, 4, 4, 4, 7, 7, 7, 10, 10, 10, 14, 14, 14, 14]
    deps = ["nsubj", "ROOT", "punct"] * 4 + ["advmod", "nsubj", "ROOT", "punct"]
    tags = ["NNP", "VBD", ".", "PRP", "VBD", ".", "PRP", "VBD", ".", "PRP", "VBD", ".", "RB",
            "PRP", "VBD", "."]
    doc = parsed(words, heads, deps, tags)
    spans = numpy.asarray([(0, 1), (3, 4), (13, 14)])  # Anna, the first "It", she
    scores = scores_for(spans.tolist(), [[], [0.0], [0.0, 0.0]])
    _, features = salience_features(doc, spans, heads_of(spans), scores.antecedents)
    assert features[0, :2, FEATURES.index("sentences")].tolist() == [3.0, 3.0]


def test_the_shift_is_the_scaled_weighted_sum_less_its_mean():
    doc = met_doc()
    weights = {f: SCALE * w for f, w in WEIGHTS.items()}
    scores = she_scores(1.0, 2.0)
    shifted = numpy.asarray(with_salience(doc, scores, numpy.asarray(SPANS), heads_of(SPANS),
                                          numpy.asarray(scores.scores)[:, 1:] > -1e3).scores)
    features = features_of(doc)
    sums = [sum(weights[f] * features[f][i] for f in FEATURES) for i in range(2)]
    mean = sum(sums) / 2
    assert shifted[2, 1:3].tolist() == pytest.approx([1.0 + sums[0] - mean, 2.0 + sums[1] - mean])
    # the null column and the other mentions' rows stay the model's
    original = numpy.asarray(scores.scores)
    assert shifted[:, 0].tolist() == original[:, 0].tolist()
    assert shifted[:2].tolist() == original[:2].tolist()


def test_one_candidate_or_no_parse_keeps_the_scores():
    scores = scores_for([ANNA, SHE], [[], [1.0]])
    valid = numpy.asarray(scores.scores)[:, 1:] > -1e3
    assert with_salience(met_doc(), scores, numpy.asarray([ANNA, SHE]),
                         heads_of([ANNA, SHE]), valid) is scores
    scores = she_scores(1.0, 1.3)
    valid = numpy.asarray(scores.scores)[:, 1:] > -1e3
    assert with_salience(unparsed_met_doc(), scores, numpy.asarray(SPANS),
                         heads_of(SPANS), valid) is scores


def test_she_takes_the_subject_the_model_ranks_a_little_lower():
    doc = met_doc()
    # the model prefers Beth by 0.3: with salience "She" is Anna, the subject in her role
    scores = she_scores(1.0, 1.3)
    assert decode_clusters(doc, scores, 0.0, []) == [[BETH, SHE]]
    assert decode_clusters(doc, scores, 0.0, ["salience"]) == [[ANNA, SHE]]
    # a clear preference of the model stands
    assert decode_clusters(doc, she_scores(1.0, 4.0), 0.0, ["salience"]) == [[BETH, SHE]]
    # and so does a clear choice of no antecedent (the shifts sum to nothing)
    assert decode_clusters(doc, she_scores(-3.0, -3.0), 0.0, ["salience"]) == []
