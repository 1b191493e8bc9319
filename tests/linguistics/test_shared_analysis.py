"""One analysis per doc (spacy_coref.linguistics.shared_analysis): on the dev docs of the
decoding snapshot, every mention's row of the shared analysis equals what the features and the
decoding computed apart before (`mention_constraints` with their settings), parsed and
unparsed, for all the candidates and for a subset; and decoding with the analysis attached
to the scores gives the stored clusters."""
import dataclasses
from pathlib import Path

import numpy
import pytest
import spacy

from spacy_coref.decoding import decode_clusters
from spacy_coref.decoding.snapshot import decoded_variants, load_snapshot, unparsed_copy
from spacy_coref.linguistics.mention_analysis import MentionConstraints, mention_constraints
from spacy_coref.linguistics.shared_analysis import MentionAnalysis
from spacy_coref.profiling import ANALYSIS, StageProfile

SNAPSHOT = Path(__file__).parent.parent / "data" / "decoding_snapshot"


@pytest.fixture(scope="module")
def snapshot():
    return load_snapshot(SNAPSHOT, spacy.blank("en").vocab)


def assert_same(found: MentionConstraints, expected: MentionConstraints, where: str) -> None:
    for name, a, b in zip(MentionConstraints._fields, found, expected):
        if a is None or b is None:
            assert a is None and b is None, f"{where}: {name}"
        else:
            assert a.dtype == b.dtype and numpy.array_equal(a, b), f"{where}: {name}"


@pytest.mark.parametrize("parse", ["parsed", "unparsed"])
def test_every_mention_as_each_consumer_read_it(snapshot, parse):
    docs, scores, _, _ = snapshot
    rng = numpy.random.default_rng(0)
    checked = 0
    for i, (doc, doc_scores) in enumerate(zip(docs, scores)):
        doc = doc if parse == "parsed" else unparsed_copy(doc)
        candidates = numpy.asarray(doc_scores.candidates, dtype="int64")
        kept = numpy.asarray(doc_scores.kept, dtype="int64")
        analysis = MentionAnalysis(doc, candidates)
        features = mention_constraints(doc, candidates, first_names=False, controlled=False)
        assert_same(analysis.for_features(), features, f"doc {i} features")
        assert_same(analysis.for_decoding(kept), mention_constraints(doc, candidates[kept]),
                    f"doc {i} decoding")
        # a subset: the names shared between mentions are those of the subset's
        subset = numpy.flatnonzero(rng.random(len(candidates)) < 0.5)
        assert_same(analysis.for_decoding(subset), mention_constraints(doc, candidates[subset]),
                    f"doc {i} subset")
        assert_same(analysis.for_decoding(), mention_constraints(doc, candidates), f"doc {i}")
        checked += len(candidates)
    assert checked > 10_000


def test_the_decoding_owns_its_arrays(snapshot):
    docs, scores, _, _ = snapshot
    doc, doc_scores = docs[0], scores[0]
    analysis = MentionAnalysis(doc, doc_scores.candidates)
    features = analysis.for_features()
    expected = features.heads.copy()
    analysis.for_decoding().heads[:] = -7  # a step writing into what it was given
    assert numpy.array_equal(analysis.for_features().heads, expected)


def test_decoding_with_the_shared_analysis_gives_the_stored_clusters(snapshot):
    docs, scores, meta, expected = snapshot
    meta = {**meta, "variants": {"default": meta["variants"]["default"]}}
    for i, (doc, doc_scores) in enumerate(zip(docs, scores)):
        shared = dataclasses.replace(
            doc_scores, analysis=MentionAnalysis(doc, doc_scores.candidates)
        )
        got = decoded_variants(decode_clusters, doc, shared, meta)
        assert got["parsed/default"] == expected["parsed/default"][i], f"doc {i}"


def test_each_span_is_read_once_for_both_consumers(snapshot):
    docs, scores, _, _ = snapshot
    doc, doc_scores = docs[1], scores[1]
    analysis = MentionAnalysis(doc, doc_scores.candidates)
    with StageProfile() as profile:
        analysis.for_features()
        analysis.for_decoding(doc_scores.kept)
    # one read of the spans, and the sharing of names among the kept mentions
    assert profile.calls[ANALYSIS] == 2
    with StageProfile() as again:
        analysis.for_features()
    assert ANALYSIS not in again.calls


def test_a_training_analysis_reads_only_what_is_asked(snapshot):
    docs, scores, _, _ = snapshot
    doc, doc_scores = docs[1], scores[1]
    lazy = MentionAnalysis(doc, doc_scores.candidates, both=False)
    with StageProfile() as profile:
        lazy.for_features()
    assert profile.calls[ANALYSIS] == 1 and set(lazy._read) == {(False, False)}
    assert_same(lazy.for_decoding(doc_scores.kept),
                mention_constraints(doc, numpy.asarray(doc_scores.candidates)[doc_scores.kept]),
                "lazy decoding")
