"""`span_roots` gives what `Span.root` gives, for every candidate mention of the decoding
snapshot's dev docs, random spans of them, and docs without a parse, with spaces and empty."""
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.tokens import Doc

from spacy_coref.decoding.snapshot import load_snapshot, unparsed_copy
from spacy_coref.linguistics.span_roots import span_roots

SNAPSHOT = Path(__file__).parent.parent / "data" / "decoding_snapshot"


@pytest.fixture(scope="module")
def docs():
    return load_snapshot(SNAPSHOT, spacy.blank("en").vocab)[:2]


def expected(doc, spans):
    return [doc[s:e].root.i for s, e in spans]


def test_every_candidate_and_random_spans_of_the_dev_docs(docs):
    rng = numpy.random.default_rng(0)
    checked = 0
    for doc, scores in zip(*docs):
        candidates = numpy.asarray(scores.candidates, dtype="int64").tolist()
        starts = rng.integers(0, len(doc), 300)
        ends = numpy.minimum(starts + rng.integers(1, 40, 300), len(doc))
        spans = candidates + list(zip(starts.tolist(), ends.tolist()))
        assert span_roots(doc, spans).tolist() == expected(doc, spans)
        plain = unparsed_copy(doc)
        assert span_roots(plain, spans).tolist() == [s for s, _ in spans]
        checked += len(spans)
    assert checked > 50_000


def test_spaces_punctuation_and_no_spans():
    nlp = spacy.blank("en")
    words = ["The", "cat", "\n\n", "sat", ",", "here", "."]
    doc = Doc(nlp.vocab, words=words, heads=[1, 3, 1, 3, 3, 3, 3],
              deps=["det", "nsubj", "dep", "ROOT", "punct", "advmod", "punct"])
    spans = [(s, e) for s in range(len(doc)) for e in range(s + 1, len(doc) + 1)]
    assert span_roots(doc, spans).tolist() == expected(doc, spans)
    assert span_roots(doc, []).shape == (0,)
    assert span_roots(Doc(nlp.vocab, words=[]), []).shape == (0,)
