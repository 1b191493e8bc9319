"""scripts/interpolate_pipelines.py: WiSE-FT between two pipelines of one architecture."""
from pathlib import Path

import pytest
import spacy
import torch

from spacy_coref.pipeline.coref import (
    coref_pipeline_path,
    load_coref_pipeline,
    save_coref_pipeline,
)

from script_loading import load_script  # (tests/)

SCRIPT = Path(__file__).parents[2] / "scripts" / "interpolate_pipelines.py"


@pytest.fixture(scope="module")
def script():
    return load_script(SCRIPT, "interpolate_pipelines")


def _pair():
    vocab = spacy.blank("en").vocab
    return load_coref_pipeline("default", vocab), load_coref_pipeline("default", vocab)


def test_each_weight_moves_the_share_t_towards_b(script):
    a, b = _pair()
    a_head, b_head = (script.torch_modules(nlp)["coref_cluster"] for nlp in (a, b))
    a_encoder, b_encoder = (script.torch_modules(nlp)["transformer"] for nlp in (a, b))
    before = a_head.token_proj.weight.detach().clone()
    with torch.no_grad():
        b_head.token_proj.weight.add_(1.0)
        b_encoder.embeddings.word_embeddings.weight.mul_(3.0)
    encoder_before = a_encoder.embeddings.word_embeddings.weight.detach().clone()
    n = script.interpolate(a, b, 0.25)
    # every weight of the shipped architecture lives in the two torch modules
    assert script.thinc_weights(a) == []
    assert n == len(a_head.state_dict()) + len(a_encoder.state_dict())
    assert torch.allclose(a_head.token_proj.weight, before + 0.25)
    assert torch.allclose(a_encoder.embeddings.word_embeddings.weight, encoder_before * 1.5)
    # a weight that B left alone stays A's
    assert torch.equal(a_head.mention_start.weight, b_head.mention_start.weight)


def test_pipelines_of_another_shape_are_refused(script):
    a, b = _pair()
    head = script.torch_modules(b)["coref_cluster"]
    head.mention_start = torch.nn.Linear(head.mention_start.in_features, 2)
    with pytest.raises(ValueError, match="mention_start"):
        script.interpolate(a, b, 0.5)


def test_the_output_loads_with_the_interpolated_weights(script, tmp_path):
    a, b = _pair()
    with torch.no_grad():
        script.torch_modules(b)["coref_cluster"].antecedent_bilinear.bias.fill_(0.5)
    save_coref_pipeline(b, tmp_path / "b", half=True)
    expected = (script.torch_modules(a)["coref_cluster"].antecedent_bilinear.bias + 0.5) / 2
    script.main(coref_pipeline_path("default"), tmp_path / "b", tmp_path / "out", t=0.5)
    loaded = load_coref_pipeline(str(tmp_path / "out"), spacy.blank("en").vocab)
    bias = script.torch_modules(loaded)["coref_cluster"].antecedent_bilinear.bias
    assert torch.allclose(bias, expected.detach(), atol=1e-6)
    assert loaded.meta["interpolated"]["t"] == 0.5
