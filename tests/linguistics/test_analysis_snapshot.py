"""What the mention analysis reads of each candidate stays what it was: on the docs of the
decoding snapshot, every row of `mention_constraints` (the features' variant and the
decoding's, with the parse and without it) equals the row stored in
tests/data/decoding_snapshot/analysis.npz, which the token-by-token reading wrote before the
analysis read the parse as arrays (then rewritten once, when the unparsed lookups learnt that
"number" is a spaCy symbol: 11 rows of the unparsed classes moved); and so do empty docs, docs
without candidates and a doc of 50,000 words made of one dev doc over and over. Rewrite
analysis.npz only when a rule is changed on purpose:
`python scripts/decoding_snapshot.py --analysis-only`."""
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.tokens import Doc

from spacy_coref.decoding.snapshot import (
    ANALYSIS_VARIANTS, load_analysis, load_snapshot, unparsed_copy,
)
from spacy_coref.linguistics.mention_analysis import MentionConstraints, mention_constraints
from spacy_coref.linguistics.shared_analysis import MentionAnalysis

SNAPSHOT = Path(__file__).parent.parent / "data" / "decoding_snapshot"
# token offsets, shifted with the doc's position in a longer one (-1: none)
TOKEN_FIELDS = ("roots", "clause_subjects", "heads", "possessed", "argument_of", "co_subjects",
                "apposed_to", "relative_head")


@pytest.fixture(scope="module")
def snapshot():
    docs, scores, _, _ = load_snapshot(SNAPSHOT, spacy.blank("en").vocab)
    return docs, scores, load_analysis(SNAPSHOT)


def assert_rows(found: MentionConstraints, stored, where: str, offset: int = 0) -> None:
    for field, value in zip(MentionConstraints._fields, found):
        expected = stored[field]
        if expected is None:
            assert value is None, f"{where}: {field} should be None"
            continue
        assert value is not None, f"{where}: {field} is None"
        assert value.dtype == (bool if expected.dtype == bool else numpy.int64), f"{where}: {field}"
        if offset and field in TOKEN_FIELDS:
            expected = numpy.where(expected >= 0, expected + offset, expected)
        bad = numpy.flatnonzero(value != expected)
        assert not len(bad), f"{where}: {field}, rows {bad[:5].tolist()}: {value[bad[:5]]}"


def test_the_snapshot_holds_every_candidate(snapshot):
    docs, scores, stored = snapshot
    assert len(stored) == len(docs) == 190
    assert sum(len(s["parsed/features"]["classes"]) for s in stored) == sum(
        len(s.candidates) for s in scores
    ) > 20_000


@pytest.mark.parametrize("parse", ["parsed", "unparsed"])
@pytest.mark.parametrize("variant", list(ANALYSIS_VARIANTS))
def test_every_candidate_reads_as_stored(snapshot, parse, variant):
    docs, scores, stored = snapshot
    first_names, controlled = ANALYSIS_VARIANTS[variant]
    for i, (doc, doc_scores) in enumerate(zip(docs, scores)):
        doc = doc if parse == "parsed" else unparsed_copy(doc)
        found = mention_constraints(doc, doc_scores.candidates, first_names=first_names,
                                    controlled=controlled)
        assert_rows(found, stored[i][f"{parse}/{variant}"], f"doc {i} {parse}/{variant}")


def test_the_shared_analysis_reads_as_stored(snapshot):
    docs, scores, stored = snapshot
    for i, (doc, doc_scores) in enumerate(zip(docs, scores)):
        analysis = MentionAnalysis(doc, doc_scores.candidates)
        assert_rows(analysis.for_features(), stored[i]["parsed/features"], f"doc {i} features")
        assert_rows(analysis.for_decoding(), stored[i]["parsed/decoding"], f"doc {i} decoding")


@pytest.mark.parametrize("parse", ["parsed", "unparsed"])
def test_empty_docs_and_docs_without_candidates(snapshot, parse):
    docs, _, _ = snapshot
    nlp = spacy.blank("en")
    for doc in (Doc(nlp.vocab, words=[]), docs[0]):
        doc = doc if parse == "parsed" else unparsed_copy(doc)
        for first_names, controlled in ANALYSIS_VARIANTS.values():
            found = mention_constraints(doc, numpy.zeros((0, 2), dtype="int64"),
                                        first_names=first_names, controlled=controlled)
            assert all(value is None or value.shape == (0,) for value in found)
        analysis = MentionAnalysis(doc, numpy.zeros((0, 2), dtype="int64"))
        assert len(analysis.for_features().classes) == len(analysis.for_decoding().classes) == 0


@pytest.mark.filterwarnings("ignore:.*W102")  # the copies' annotation scheme is not merged
@pytest.mark.parametrize("parse", ["parsed", "unparsed"])
def test_a_huge_doc_reads_as_its_parts(snapshot, parse):
    """One dev doc over and over, to 50,000 words: the features' rows of every copy are the
    doc's own (a row reads its own sentence and nothing else of the doc that a copy changes),
    and so are the decoding's rows of the first copy (a surname reads the full names before
    it, which the later copies have more of)."""
    docs, scores, stored = snapshot
    i = max(range(len(docs)), key=lambda k: len(docs[k]))
    doc, candidates = docs[i], numpy.asarray(scores[i].candidates, dtype="int64")
    copies = -(-50_000 // len(doc))
    huge = Doc.from_docs([doc] * copies, ensure_whitespace=False)
    assert len(huge) >= 50_000
    huge = huge if parse == "parsed" else unparsed_copy(huge)
    spans = numpy.concatenate([candidates + k * len(doc) for k in range(copies)])
    features = mention_constraints(huge, spans, first_names=False, controlled=False)
    n = len(candidates)
    for k in range(copies):
        rows = MentionConstraints(*(None if v is None else v[k * n:(k + 1) * n] for v in features))
        assert_rows(rows, stored[i][f"{parse}/features"], f"copy {k}", offset=k * len(doc))
    decoding = mention_constraints(huge, spans)
    first = MentionConstraints(*(None if v is None else v[:n] for v in decoding))
    assert_rows(first, stored[i][f"{parse}/decoding"], "copy 0")
