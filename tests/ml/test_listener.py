"""spacy_coref.TransformerListener.v1: mean pooling as one scatter-add gives spacy-transformers'
token vectors bit for bit, and their gradient; other poolings go through spacy-transformers."""
from pathlib import Path

import numpy
import pytest
import spacy
import spacy_transformers  # noqa: F401 (registers its span getters and architectures)
from spacy.util import registry
from spacy_transformers.layers.trfs2arrays import forward as trfs2arrays_forward
from spacy_transformers.layers.trfs2arrays import trfs2arrays
from thinc.api import reduce_max, reduce_mean

from spacy_coref.ml.listener import aligned_mean
from spacy_coref.training.smoke import write_tiny_encoder

TEXTS = [
    "Alice met Bob in Paris. She gave him a book, and he thanked her for it. " * 6,
    "",
    "Supercalifragilistic words split into many wordpieces, antidisestablishmentarianism too.",
    "One.",
]


@pytest.fixture(scope="module")
def trf_datas(tmp_path_factory):
    """Encoder outputs of docs in overlapping windows (a token in two windows is pooled over
    both), with an empty doc and words of many wordpieces."""
    path: Path = write_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"), dropout=0.0)
    get_spans = registry.span_getters.get("spacy-transformers.strided_spans.v1")(
        window=24, stride=18
    )
    model = registry.architectures.get("spacy_coref.SegmentTransformerModel.v2")(
        name=str(path), get_spans=get_spans, tokenizer_config={"use_fast": True}
    )
    model.initialize()
    nlp = spacy.blank("en")
    return model.predict([nlp(text) for text in TEXTS]).doc_data


def test_mean_pooling_is_spacy_transformers_bit_for_bit(trf_datas):
    theirs = trfs2arrays(reduce_mean(), 1.0)
    ours = aligned_mean(reduce_mean(), 1.0)
    expected, _ = theirs(trf_datas, is_train=False)
    found, _ = ours(trf_datas, is_train=False)
    assert [a.shape for a in found] == [a.shape for a in expected]
    assert found[1].shape == (0, 0)  # the empty doc
    overlapping = trf_datas[0].align.lengths.max() > 1
    assert overlapping and all(numpy.array_equal(a, b) for a, b in zip(found, expected))


@pytest.mark.parametrize("grad_factor", [1.0, 0.5])
def test_the_gradient_is_spacy_transformers(trf_datas, grad_factor):
    rng = numpy.random.default_rng(0)
    theirs = trfs2arrays(reduce_mean(), grad_factor)
    ours = aligned_mean(reduce_mean(), grad_factor)
    outputs, backprop_theirs = theirs(trf_datas, is_train=True)
    _, backprop_ours = ours(trf_datas, is_train=True)
    d_outputs = [rng.normal(size=output.shape).astype("float32") for output in outputs]
    expected = backprop_theirs([d.copy() for d in d_outputs])
    found = backprop_ours([d.copy() for d in d_outputs])
    assert len(found) == len(expected) == len(TEXTS) - 1  # not the empty doc's
    for a, b in zip(found, expected):
        d_a, d_b = a.model_output.last_hidden_state, b.model_output.last_hidden_state
        assert d_a.shape == d_b.shape and numpy.abs(d_b).max() > 0
        numpy.testing.assert_allclose(d_a, d_b, rtol=1e-5, atol=1e-7)


def test_the_architecture_keeps_spacy_transformers_structure():
    make = registry.architectures.get("spacy_coref.TransformerListener.v1")
    theirs = registry.architectures.get("spacy-transformers.TransformerListener.v1")
    ours_mean, ours_max = make(pooling=reduce_mean()), make(pooling=reduce_max())
    assert ours_mean.get_ref("listener").name == "transformer-listener"
    assert ours_mean.layers[1]._func is not trfs2arrays_forward  # the scatter-add
    assert ours_max.layers[1]._func is trfs2arrays_forward  # other poolings: theirs
    # the same nodes in the same order: what one saves, the other loads
    saved = theirs(pooling=reduce_mean(), grad_factor=0.25).to_bytes()
    loaded = ours_mean.from_bytes(saved)
    assert [n.name for n in loaded.walk()] == [n.name for n in theirs(reduce_mean()).walk()]
    assert loaded.layers[1].attrs["grad_factor"] == 0.25
