"""The steps each shipped pipeline and the factory decode with, pinned in one place: a step
enters or leaves a list only with its figures (docs/constraints_and_features.md, "What each
step adds")."""
import pytest
import spacy

from spacy_coref.decoding import registered_steps
from spacy_coref.pipeline.coref import coref_pipeline_path

KEPT = [
    "agreement", "binding", "quotes", "names", "distinct_names", "indefinites", "contrasts",
    "same_head", "cataphora", "groups", "whole_phrases", "other_heads",
]
SHIPPED_STEPS = {
    # "salience" off: it won beyond its interval on no dev set
    "default": KEPT,
    # nor "indefinites" and "other_heads" without a parse (nor "groups", never in it)
    "fast": [
        "agreement", "binding", "quotes", "names", "distinct_names", "contrasts", "same_head",
        "cataphora",
    ],
}


@pytest.mark.parametrize("pipeline", sorted(SHIPPED_STEPS))
def test_a_shipped_pipeline_decodes_with_its_steps(pipeline):
    config = spacy.util.load_config(coref_pipeline_path(pipeline) / "config.cfg")
    steps = config["components"]["coref_cluster"]["constraints"]
    assert steps == SHIPPED_STEPS[pipeline]
    assert set(steps) <= set(registered_steps())


def test_a_new_coref_cluster_decodes_with_the_kept_steps():
    cluster = spacy.blank("en").add_pipe("coref_cluster")
    assert cluster.cfg["constraints"] == KEPT
    assert "salience" in registered_steps()  # off, not gone
