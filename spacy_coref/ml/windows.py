"""Encoder windows of up to 512 wordpieces that cover each token once.

spacy-transformers' strided spans count spaCy tokens: windows of 256 tokens with a stride of
192 encode a quarter of every document twice and stay well under the encoder's 512
wordpieces. These windows count wordpieces: whole sentences are packed into a window while
they fit (a sentence longer than a window is cut between tokens), so each wordpiece is encoded
once and a window boundary falls between sentences wherever it can.

The getter needs the encoder's tokenizer to count. `SegmentTransformerModel` hands it over
before each call (`set_tokenizer`), so the config names no tokenizer of its own.
"""
from typing import Any, Callable, List, Optional

import numpy
from spacy.tokens import Doc, Span
from spacy.util import registry

from ..errors import Errors

# Tokenizing a window's text can give a few more wordpieces than its tokens one by one (a
# token joined to the next without a space); the margin keeps the window under the limit.
MARGIN = 8


@registry.span_getters("spacy_coref.wordpiece_windows.v1")
def configure_wordpiece_windows(
    max_wordpieces: int = 512,
) -> Callable[[List[Doc]], List[List[Span]]]:
    """Windows of whole sentences of at most `max_wordpieces` wordpieces, special tokens
    included, each token in exactly one window.

    max_wordpieces (int): the window size, at most the encoder's maximum input length.
    RETURNS (Callable[[List[Doc]], List[List[Span]]]): the span getter.
    """
    return WordpieceWindows(max_wordpieces)


class WordpieceWindows:
    def __init__(self, max_wordpieces: int) -> None:
        if max_wordpieces <= MARGIN + 2:
            raise ValueError(Errors.CE373.format(value=max_wordpieces, minimum=MARGIN + 3))
        self.max_wordpieces = max_wordpieces
        self.tokenizer: Optional[Any] = None

    def set_tokenizer(self, tokenizer: Any) -> None:
        """Count with this (Hugging Face) tokenizer from now on."""
        self.tokenizer = tokenizer

    def __call__(self, docs: List[Doc]) -> List[List[Span]]:
        if self.tokenizer is None:
            raise ValueError(Errors.CE374)
        limit = self.max_wordpieces
        model_max = getattr(self.tokenizer, "model_max_length", None)
        if isinstance(model_max, int) and 0 < model_max < limit:
            limit = model_max
        budget = limit - self.tokenizer.num_special_tokens_to_add() - MARGIN
        return [self._windows(doc, budget) for doc in docs]

    def _windows(self, doc: Doc, budget: int) -> List[Span]:
        if len(doc) == 0:
            return []
        counts = self._wordpiece_counts(doc)  # [n_tokens]
        pieces: List[Span] = []
        for sent in _sentences(doc):
            pieces.extend(_cut_long_sentence(sent, counts, budget))
        windows: List[Span] = []
        start = end = pieces[0].start
        used = 0
        for piece in pieces:
            size = int(counts[piece.start : piece.end].sum())
            if used and used + size > budget:
                windows.append(doc[start:end])
                start, used = piece.start, 0
            end = piece.end
            used += size
        windows.append(doc[start:end])
        return windows

    def _wordpiece_counts(self, doc: Doc) -> numpy.ndarray:
        encoded = self.tokenizer([token.text for token in doc], add_special_tokens=False)
        return numpy.asarray([len(ids) for ids in encoded["input_ids"]], dtype="int64")


def _sentences(doc: Doc) -> List[Span]:
    if doc.has_annotation("SENT_START") or doc.has_annotation("DEP"):
        return list(doc.sents)
    return [doc[:]]


def _cut_long_sentence(sent: Span, counts: numpy.ndarray, budget: int) -> List[Span]:
    """The sentence, or consecutive parts of it under the budget where it is longer."""
    if int(counts[sent.start : sent.end].sum()) <= budget:
        return [sent]
    doc = sent.doc
    parts: List[Span] = []
    start, used = sent.start, 0
    for i in range(sent.start, sent.end):
        if used and used + int(counts[i]) > budget:
            parts.append(doc[start:i])
            start, used = i, 0
        used += int(counts[i])
    parts.append(doc[start : sent.end])
    return parts
