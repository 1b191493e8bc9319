"""Token-budget sub-batching: the plan (pure) and the drop-in transformer model."""
from pathlib import Path

import numpy
import pytest
import spacy
from hypothesis import given, settings
from hypothesis import strategies as st
import spacy_transformers  # noqa: F401 (registers its span getters and architectures)
from spacy.util import registry
from thinc.api import Adam

from spacy_coref.ml.segment_batching import (
    INVARIANT_BUCKET,
    call_rows,
    invariant_width,
    naive_batches,
    padded_fraction,
    padded_tokens,
    plan_invariant_sub_batches,
    plan_sub_batches,
)
from spacy_coref.training.smoke import write_tiny_encoder

TEXTS = [
    "Alice met Bob in Paris. She gave him a book, and he thanked her for it. " * 9,
    "Short one.",
    "",
    "The committee, which had met twice, decided that its chair would resign. " * 3,
]


@given(
    lengths=st.lists(st.integers(min_value=0, max_value=512), max_size=60),
    budget=st.integers(min_value=1, max_value=4000),
    max_padding=st.sampled_from([0.0, 0.02, 0.3, 1.0]),
)
@settings(max_examples=200, deadline=None)
def test_plan_covers_every_segment_once_under_budget(lengths, budget, max_padding):
    batches = plan_sub_batches(lengths, budget, max_padding=max_padding)
    seen = numpy.concatenate(batches) if batches else numpy.zeros((0,), dtype="int64")
    assert sorted(seen.tolist()) == list(range(len(lengths)))
    for batch in batches:
        longest = max(lengths[i] for i in batch)
        # over budget only when one segment alone is longer than the budget
        assert len(batch) * longest <= budget or len(batch) == 1
        if len(batch) > 1:
            assert padded_fraction(lengths, [batch]) <= max_padding + 1e-9
    if max_padding == 1.0:
        # without a padding bound only the budget closes a sub-batch
        for batch in batches[:-1]:
            assert len(batch) == max(budget // max(max(lengths[i] for i in batch), 1), 1)


@given(
    lengths=st.lists(st.integers(min_value=0, max_value=512), max_size=60),
    budget=st.integers(min_value=1, max_value=4000),
)
@settings(max_examples=200, deadline=None)
def test_invariant_plan_pads_each_segment_by_its_own_length(lengths, budget):
    batches = plan_invariant_sub_batches(lengths, budget, 512)
    seen = numpy.concatenate([rows for rows, _ in batches]) if batches else numpy.zeros((0,))
    assert sorted(seen.tolist()) == list(range(len(lengths)))
    for rows, width in batches:
        # the width is the segment's own: its length rounded up, whatever else is in the batch
        assert all(width == invariant_width(lengths[i], 512) for i in rows)
        assert all(lengths[i] <= width <= min(lengths[i] + INVARIANT_BUCKET - 1, 512)
                   or lengths[i] == 0 for i in rows)
        assert len(rows) * width <= budget or len(rows) == 1
    # a segment's width does not move when its neighbours change
    if lengths:
        alone = plan_invariant_sub_batches(lengths[:1], budget, 512)
        assert alone[0][1] == next(w for rows, w in batches if 0 in rows.tolist())


def test_invariant_widths_stop_at_the_models_longest_input():
    assert [invariant_width(n, 512) for n in (0, 1, 32, 33, 500, 512)] == [32, 32, 32, 64, 512, 512]
    assert invariant_width(500, 510) == 510 and invariant_width(20, 10) == 20
    with pytest.raises(ValueError, match="CE240"):
        plan_invariant_sub_batches([3], 0, 512)


def test_plan_puts_full_length_segments_apart_from_left_overs():
    # three documents of 2 full segments and one left-over each
    lengths = [512, 512, 37, 512, 512, 300, 512, 512, 40]
    batches = plan_sub_batches(lengths, 4 * 512)
    assert sorted(batches[0].tolist()) == [0, 1, 3, 4]
    assert sorted(batches[1].tolist()) == [6, 7, 5] or max(lengths[i] for i in batches[1]) == 512
    left_over_batch = [b for b in batches if 2 in b.tolist()][0]
    assert all(lengths[i] < 512 for i in left_over_batch)
    naive = naive_batches([3, 3, 3])
    assert padded_fraction(lengths, batches) < padded_fraction(lengths, naive)
    assert padded_tokens(lengths, naive) == 9 * 512


def test_padded_fraction_values():
    assert padded_fraction([4, 2], [[0, 1]]) == pytest.approx(2 / 8)
    assert padded_fraction([4, 2], [[0], [1]]) == 0.0
    assert padded_fraction([], []) == 0.0


def test_padding_bound_trades_sub_batches_for_padding():
    lengths = [300, 296, 290, 250, 248, 200, 120, 118]
    loose = plan_sub_batches(lengths, 4096)
    tight = plan_sub_batches(lengths, 4096, max_padding=0.02)
    assert len(loose) == 1 and padded_fraction(lengths, loose) > 0.2
    assert [sorted(b.tolist()) for b in tight] == [[0, 1, 2], [3, 4], [5], [6, 7]]


@pytest.mark.parametrize(
    "budget,lengths,max_padding,code",
    [(0, [3], 1.0, "CE240"), (10, [3, -1], 1.0, "CE241"), (10, [3], 1.5, "CE245")],
)
def test_plan_rejects_bad_input(budget, lengths, max_padding, code):
    with pytest.raises(ValueError, match=code):
        plan_sub_batches(lengths, budget, max_padding=max_padding)


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    """A 2-layer, 32-wide BERT with random weights and MiniLM's tokenizer, without dropout."""
    return write_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"), dropout=0.0)


def _build(architecture: str, tiny_bert: Path, **extra):
    get_spans = registry.span_getters.get("spacy-transformers.strided_spans.v1")(
        window=24, stride=18
    )
    model = registry.architectures.get(architecture)(
        name=str(tiny_bert), get_spans=get_spans, tokenizer_config={"use_fast": True}, **extra
    )
    model.initialize()
    return model


@pytest.fixture(scope="module")
def models(tiny_bert):
    reference = _build("spacy-transformers.TransformerModel.v3", tiny_bert)
    segmented = _build("spacy_coref.SegmentTransformerModel.v1", tiny_bert, max_tokens_in_batch=70)
    # the same weights in both
    segmented.transformer.load_state_dict(reference.transformer.state_dict())
    return reference, segmented


@pytest.fixture(scope="module")
def padded(models, tiny_bert):
    """Length-sorted, padded sub-batches (batch_invariant off), the weights of `models`."""
    reference, _ = models
    model = _build(
        "spacy_coref.SegmentTransformerModel.v1", tiny_bert, max_tokens_in_batch=70,
        batch_invariant=False,
    )
    model.transformer.load_state_dict(reference.transformer.state_dict())
    return model


@pytest.fixture(scope="module")
def docs():
    nlp = spacy.blank("en")
    return [nlp(text) for text in TEXTS]


def test_predict_equals_transformer_model_v3(models, docs):
    reference, segmented = models
    expected = reference.predict(docs)
    found = segmented.predict(docs)
    assert found.wordpieces.lengths == expected.wordpieces.lengths
    assert len(expected.wordpieces) > 4, "the test needs several segments per batch"
    lengths = numpy.asarray(expected.wordpieces.lengths)
    hidden_e = expected.model_output.last_hidden_state.numpy()
    hidden_f = found.model_output.last_hidden_state.numpy()
    assert hidden_f.shape == hidden_e.shape
    for row, length in enumerate(lengths):
        numpy.testing.assert_allclose(hidden_f[row, :length], hidden_e[row, :length], atol=1e-5)
    # per doc, as listeners read it (the values at padded positions are never read)
    for e, f in zip(expected.doc_data, found.doc_data):
        assert f.align.lengths.tolist() == e.align.lengths.tolist()
        for row, length in enumerate(e.wordpieces.lengths):
            numpy.testing.assert_allclose(
                f.tensors[0][row, :length], e.tensors[0][row, :length], atol=1e-5
            )
    numpy.testing.assert_allclose(
        found.model_output.pooler_output.numpy(), expected.model_output.pooler_output.numpy(),
        atol=1e-5,
    )


def test_padded_sub_batches_equal_transformer_model_v3(models, padded, docs):
    reference, _ = models
    expected, found = reference.predict(docs), padded.predict(docs)
    for e, f in zip(expected.doc_data, found.doc_data):
        for row, length in enumerate(e.wordpieces.lengths):
            numpy.testing.assert_allclose(
                f.tensors[0][row, :length], e.tensors[0][row, :length], atol=1e-5
            )


def test_budget_bounds_each_encoder_call(padded, docs, monkeypatch):
    segmented = padded
    calls = []
    hf_model = segmented.transformer
    original = hf_model.forward

    def counting(input_ids, **kwargs):
        calls.append(tuple(input_ids.shape))
        return original(input_ids=input_ids, **kwargs)

    monkeypatch.setattr(hf_model, "forward", counting)
    segmented.predict(docs)
    assert len(calls) > 1 and any(n_rows > 1 for n_rows, _ in calls)
    for n_rows, width in calls:
        assert n_rows * width <= 70 or n_rows == 1


def test_training_gradients_equal_transformer_model_v3(models, docs):
    reference, segmented = models
    grads = []
    for model in (reference, segmented):
        output, backprop = model.begin_update(docs)
        # a fixed random gradient on the real (unpadded) positions
        hidden = output.model_output.last_hidden_state
        rng = numpy.random.default_rng(0)
        d_hidden = rng.normal(size=hidden.shape).astype("float32")
        for row, length in enumerate(output.wordpieces.lengths):
            d_hidden[row, length:] = 0.0
        # built as the transformer pipe builds it (unsplit_by_doc names it output_0)
        rows_per_doc = [len(doc_spans) for doc_spans in output.spans]
        bounds = numpy.cumsum([0] + rows_per_doc)
        d_output = output.unsplit_by_doc(
            [[d_hidden[start:end]] for start, end in zip(bounds[:-1], bounds[1:])]
        )
        model.transformer.zero_grad()
        assert backprop(d_output) == docs
        grads.append({n: p.grad.clone() for n, p in model.transformer.named_parameters()
                      if p.grad is not None})
    assert grads[0].keys() == grads[1].keys() and len(grads[0]) > 10
    for name in grads[0]:
        numpy.testing.assert_allclose(
            grads[1][name].numpy(), grads[0][name].numpy(), rtol=1e-4, atol=1e-4
        )
    # an optimizer step still goes through the shim and changes the weights
    before = segmented.transformer.embeddings.word_embeddings.weight.detach().clone()
    segmented.finish_update(Adam(0.01))
    after = segmented.transformer.embeddings.word_embeddings.weight.detach()
    assert not bool((before == after).all())
    segmented.transformer.load_state_dict(reference.transformer.state_dict())


def test_one_token_and_empty_docs_mixed(models):
    reference, segmented = models
    nlp = spacy.blank("en")
    docs = [nlp(""), nlp("Hi"), nlp(""), nlp("Hi there")]
    expected = reference.predict(docs)
    found = segmented.predict(docs)
    assert [len(d.align.lengths) for d in found.doc_data] == [0, 1, 0, 2]
    for e, f in zip(expected.doc_data, found.doc_data):
        for row, length in enumerate(e.wordpieces.lengths):
            numpy.testing.assert_allclose(
                f.tensors[0][row, :length], e.tensors[0][row, :length], atol=1e-5
            )


def test_copy_keeps_sub_batching(models, docs):
    reference, segmented = models
    copied = segmented.copy()
    assert copied.attrs["max_tokens_in_batch"] == 70
    expected = reference.predict(docs).model_output.last_hidden_state.numpy()
    found = copied.predict(docs)
    for row, length in enumerate(found.wordpieces.lengths):
        numpy.testing.assert_allclose(
            found.model_output.last_hidden_state.numpy()[row, :length], expected[row, :length],
            atol=1e-5,
        )
    assert copied._func is segmented._func


def test_bad_budget_is_rejected(tiny_bert):
    with pytest.raises(ValueError, match="CE240"):
        _build("spacy_coref.SegmentTransformerModel.v1", tiny_bert, max_tokens_in_batch=0)


def test_each_encoder_call_is_of_one_width_its_segments_own(models, docs, monkeypatch):
    """batch_invariant: the segments of a call share one width, each its length rounded up."""
    _, segmented = models
    assert segmented.attrs["batch_invariant"] is True
    masks = []
    hf_model = segmented.transformer
    original = hf_model.forward

    def recording(input_ids, attention_mask, **kwargs):
        masks.append(attention_mask.numpy())
        return original(input_ids=input_ids, attention_mask=attention_mask, **kwargs)

    monkeypatch.setattr(hf_model, "forward", recording)
    segmented.predict(docs)
    max_width = segmented.tokenizer.model_max_length
    assert masks and any(mask.shape[0] > 1 for mask in masks)  # batched, not one per call
    for mask in masks:
        width = mask.shape[1]
        assert all(invariant_width(int(n), max_width) == width for n in mask.sum(axis=1))


def test_a_docs_output_does_not_depend_on_its_neighbours(models, docs):
    """Bit for bit: alone, or batched with other docs of other lengths."""
    _, segmented = models
    for i, doc in enumerate(docs):
        if not len(doc):
            continue
        alone = segmented.predict([doc]).doc_data[0]
        batched = segmented.predict(docs[i:] + docs[:i]).doc_data[0]
        for row, length in enumerate(alone.wordpieces.lengths):
            found, expected = batched.tensors[0][row, :length], alone.tensors[0][row, :length]
            assert numpy.array_equal(found, expected)


def test_the_configs_batching_wins_over_the_saved_one(models, tiny_bert):
    """Sub-batching is how to run, not what was learned: loading weights saved with other
    settings keeps the settings of the model they are loaded into."""
    _, segmented = models
    saved = _build(
        "spacy_coref.SegmentTransformerModel.v1", tiny_bert, max_tokens_in_batch=50,
        max_padding=0.3, batch_invariant=False,
    ).to_bytes()
    loaded = _build("spacy_coref.SegmentTransformerModel.v1", tiny_bert, max_tokens_in_batch=70)
    loaded.from_bytes(saved)
    assert loaded.attrs["max_tokens_in_batch"] == 70 and loaded.attrs["max_padding"] == 0.02
    assert loaded.attrs["batch_invariant"] is True


def test_a_fixed_shape_call_has_its_rows_by_width_alone():
    # a short doc's one segment at width 32 pays for 3 fill rows at most, not 31
    assert [call_rows(w, 1024, 4) for w in (32, 64, 256, 320, 512)] == [4, 4, 4, 3, 2]
    assert [call_rows(w, 1024) for w in (32, 512, 2048)] == [32, 2, 1]
    plan = plan_invariant_sub_batches([40, 50, 60, 33, 64, 500], 1024, 512, max_rows=4)
    found = [(rows.tolist(), width) for rows, width in plan]
    assert found == [([5], 512), ([0, 1, 2, 3], 64), ([4], 64)]


@pytest.mark.parametrize("is_train", [False, True])
def test_a_doc_passed_twice_gets_its_own_output_twice(models, docs, is_train):
    """One Doc object twice in a batch (a pre-training batch that draws a text twice): each
    occurrence reads its own wordpieces, as a doc alone does, in prediction and in training."""
    _, segmented = models
    doc = max(docs, key=len)  # several segments
    alone = segmented.predict([doc]).doc_data[0]
    if is_train:
        twice, _ = segmented.begin_update([doc, docs[0], doc])
    else:
        twice = segmented.predict([doc, docs[0], doc])
    for found in (twice.doc_data[0], twice.doc_data[2]):
        assert found.align.lengths.tolist() == alone.align.lengths.tolist()
        assert found.align.dataXd.tolist() == alone.align.dataXd.tolist()
        for row, length in enumerate(alone.wordpieces.lengths):
            numpy.testing.assert_allclose(
                found.tensors[0][row, :length], alone.tensors[0][row, :length], atol=1e-5
            )
