"""scripts/fit_salience.py: the he/she pronouns of a gold corpus, with their candidates'
salience features, and weights fitted to them that prefer what the gold prefers."""
from pathlib import Path

import numpy
import spacy
from script_loading import load_script  # (tests/)
from spacy.tokens import DocBin

from spacy_coref.annotations import set_clusters
from spacy_coref.decoding.steps.salience import FEATURES

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fit_salience.py"


def fit_salience():
    return load_script(SCRIPT, "fit_salience")


def test_the_fit_weighs_the_feature_that_picks_the_gold():
    rng = numpy.random.default_rng(0)
    data = []
    for _ in range(200):
        features = rng.normal(size=(4, len(FEATURES))).astype("float32")
        features[:, 0] = 0.0
        gold = numpy.zeros(4, dtype=bool)
        gold[rng.integers(4)] = True
        features[gold, 0] = 1.0  # the gold antecedent is always the subject
        data.append((features, gold))
    weights = fit_salience().fit(data)
    assert weights[0] > 2.0  # subject
    assert numpy.abs(weights[1:]).max() < 0.5 * weights[0]


def test_examples_are_the_he_and_she_pronouns_of_the_gold_clusters(tmp_path):
    nlp = spacy.blank("en")
    doc = nlp("Anna met Beth at the station. She smiled and waved.")
    set_clusters(doc, [[(0, 1), (7, 8)]])  # Anna, She
    DocBin(docs=[doc], store_user_data=True).to_disk(tmp_path / "tiny.spacy")
    examples = fit_salience().examples("default", [str(tmp_path / "tiny.spacy")])
    assert len(examples) == 1  # "She"
    features, gold = examples[0]
    assert features.shape == (len(gold), len(FEATURES)) and len(gold) >= 2
    assert gold.sum() == 1  # Anna
    # Anna is the subject; no other candidate of "She" is
    assert features[gold, 0].tolist() == [1.0] and not features[~gold, 0].any()
