"""spacy_coref.wordpiece_windows.v1: windows of whole sentences under a wordpiece budget."""
from pathlib import Path

import numpy
import pytest
import spacy
import spacy_transformers  # noqa: F401 (registers its span getters and architectures)
from spacy.tokens import Doc
from spacy.util import registry
from transformers import AutoTokenizer

import spacy_coref.ml.segment_transformer  # noqa: F401 (registers the architecture)
from spacy_coref.ml.windows import MARGIN, configure_wordpiece_windows
from spacy_coref.training.smoke import write_tiny_encoder


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    return write_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"), dropout=0.0)


@pytest.fixture(scope="module")
def tokenizer(tiny_bert):
    return AutoTokenizer.from_pretrained(str(tiny_bert), use_fast=True)


def _doc(n_sents: int, words_per_sent: int) -> Doc:
    nlp = spacy.blank("en")
    words, starts = [], []
    for s in range(n_sents):
        for w in range(words_per_sent):
            words.append("Tokenization" if w % 3 == 0 else "cat")
            starts.append(w == 0)
    words[-1] = "."
    return Doc(nlp.vocab, words=words, sent_starts=starts)


def _pieces(tokenizer, span) -> int:
    return len(tokenizer(span.text)["input_ids"])


@pytest.mark.parametrize("max_wordpieces", [40, 64, 512])
def test_windows_cover_each_token_once_under_the_limit(tokenizer, max_wordpieces):
    getter = configure_wordpiece_windows(max_wordpieces)
    getter.set_tokenizer(tokenizer)
    docs = [_doc(12, 9), _doc(1, 70), _doc(1, 1), spacy.blank("en")("")]
    for doc, windows in zip(docs, getter(docs)):
        covered = [i for w in windows for i in range(w.start, w.end)]
        assert covered == list(range(len(doc)))  # each token once, in order
        for w in windows:
            assert _pieces(tokenizer, w) <= max_wordpieces


def test_windows_end_at_sentence_boundaries_where_sentences_fit(tokenizer):
    getter = configure_wordpiece_windows(64)
    getter.set_tokenizer(tokenizer)
    doc = _doc(12, 9)  # 9 tokens and about 13 wordpieces a sentence
    windows = getter([doc])[0]
    assert len(windows) > 2
    sent_starts = {s.start for s in doc.sents}
    assert all(w.start in sent_starts for w in windows)
    # packed: a window holds as many sentences as fit
    budget = 64 - tokenizer.num_special_tokens_to_add() - MARGIN
    counts = [len(tokenizer(t.text, add_special_tokens=False)["input_ids"]) for t in doc]
    for w, following in zip(windows, windows[1:]):
        next_sent = next(s for s in doc.sents if s.start == following.start)
        assert sum(counts[w.start : next_sent.end]) > budget


def test_long_document_gives_fewer_windows_than_strided_spans(tokenizer):
    getter = configure_wordpiece_windows(512)
    getter.set_tokenizer(tokenizer)
    doc = _doc(200, 12)
    strided = registry.span_getters.get("spacy-transformers.strided_spans.v1")(
        window=256, stride=192
    )([doc])[0]
    windows = getter([doc])[0]
    encoded = sum(_pieces(tokenizer, w) for w in windows)
    assert encoded < 0.8 * sum(_pieces(tokenizer, w) for w in strided)
    assert len(windows) < len(strided)


def test_without_a_tokenizer_or_with_a_tiny_window_it_fails_clearly():
    with pytest.raises(ValueError, match="CE373"):
        configure_wordpiece_windows(5)
    with pytest.raises(ValueError, match="CE374"):
        configure_wordpiece_windows(512)([_doc(1, 3)])


def test_segment_transformer_hands_its_tokenizer_over(tiny_bert):
    get_spans = registry.span_getters.get("spacy_coref.wordpiece_windows.v1")(max_wordpieces=40)
    model = registry.architectures.get("spacy_coref.SegmentTransformerModel.v2")(
        name=str(tiny_bert), get_spans=get_spans, tokenizer_config={"use_fast": True}
    )
    model.initialize()
    docs = [_doc(10, 9)]
    output = model.predict(docs)
    lengths = numpy.asarray(output.wordpieces.lengths)
    assert len(lengths) > 2 and lengths.max() <= 40
    # every token has wordpieces (nothing truncated away)
    assert (output.doc_data[0].align.lengths > 0).all()


def test_initialize_with_sample_docs_counts_with_the_tokenizer(tiny_bert):
    get_spans = registry.span_getters.get("spacy_coref.wordpiece_windows.v1")(max_wordpieces=40)
    model = registry.architectures.get("spacy_coref.SegmentTransformerModel.v2")(
        name=str(tiny_bert), get_spans=get_spans, tokenizer_config={"use_fast": True}
    )
    model.initialize(X=[_doc(3, 9)])  # spacy-transformers cuts the sample docs here
    assert model.attrs["get_spans"] is get_spans and get_spans.tokenizer is not None
    assert model.copy().init is model.init
