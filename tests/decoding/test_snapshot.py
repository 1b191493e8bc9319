"""The decoding safety net: the stored scores of dev documents decode to the stored clusters
(tests/data/decoding_snapshot, written by scripts/decoding_snapshot.py from the shipped default
pipeline's scores). A failure names the variants (step lists, with or without the parse) and
documents whose clusters moved: either the change was not meant to move them, or it was, was
measured, and the snapshot is written again."""
from pathlib import Path

import pytest
import spacy

from spacy_coref.decoding import decode_clusters, registered_steps
from spacy_coref.decoding.snapshot import WHOLE, decoded_variants, load_snapshot

SNAPSHOT = Path(__file__).parent.parent / "data" / "decoding_snapshot"
# Every doc for the shipped step lists; every EVERY-th doc for the others (all with --slow).
EVERY = 4


class Snapshot(tuple):
    """(docs, scores, meta, expected), with a short repr for pytest's failure reports."""

    def __repr__(self):
        return f"<decoding snapshot of {len(self[0])} docs>"


@pytest.fixture(scope="module")
def snapshot():
    return Snapshot(load_snapshot(SNAPSHOT, spacy.blank("en").vocab))


def moved(snapshot, docs_to_check, variants):
    docs, scores, meta, expected = snapshot
    meta = {**meta, "variants": {v: meta["variants"][v] for v in variants}}
    found = {}
    for i in docs_to_check:
        got = decoded_variants(decode_clusters, docs[i], scores[i], meta)
        for key, value in got.items():
            if value != expected[key][i]:
                found.setdefault(key, []).append(i)
    return found


def test_the_snapshot_covers_every_step_and_both_paths(snapshot):
    docs, scores, meta, expected = snapshot
    assert meta["n_docs"] == len(docs) == len(scores) >= 100
    assert any(doc.has_annotation("DEP") for doc in docs)
    steps = {step for variant in meta["variants"].values() for step in variant}
    assert steps == set(registered_steps())
    for variant in meta["variants"]:
        for parse in ("parsed", "unparsed"):
            assert len(expected[f"{parse}/{variant}"]) == len(docs)
    # a snapshot where decoding changes nothing would check nothing
    assert expected["parsed/default"] != expected["parsed/none"]
    assert expected["unparsed/fast"] != expected["unparsed/none"]


def test_the_shipped_step_lists_give_the_stored_clusters(snapshot):
    assert moved(snapshot, range(len(snapshot[0])), WHOLE) == {}


def test_each_step_alone_and_left_out_gives_the_stored_clusters(snapshot):
    variants = [v for v in snapshot[2]["variants"] if v not in WHOLE]
    assert moved(snapshot, range(0, len(snapshot[0]), EVERY), variants) == {}


@pytest.mark.slow
def test_every_doc_under_every_variant_gives_the_stored_clusters(snapshot):
    assert moved(snapshot, range(len(snapshot[0])), list(snapshot[2]["variants"])) == {}
