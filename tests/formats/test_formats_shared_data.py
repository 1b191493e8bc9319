"""The shared LitBank, OntoGUM and GAP files: read without errors, counted as the data README
counts them, and written back without losing a mention."""
import re
import warnings
from pathlib import Path

import pytest

from spacy_coref.annotations import get_clusters, get_doc_id, get_speakers
from spacy_coref.formats import read_docs, write_docs
from spacy_coref.formats.stats import corpus_stats, gap_stats

# The tables of ../shared/data/README.md.
# fmt: off
README_CONLL = {
    # split: documents, tokens, sentences, mentions, clusters, singletons, nested, longest doc
    "litbank_train": (80, 169_456, 6_755, 23_218, 6_344, 4_635, 2_579, 3_419),
    "litbank_dev": (10, 20_438, 927, 3_053, 776, 563, 387, 2_247),
    "gum_train": (177, 177_410, 10_224, 23_320, 5_311, 7, 2_662, 1_878),
    "gum_dev": (30, 28_119, 1_575, 3_818, 857, 2, 520, 1_247),
}
README_GAP = {
    # split: examples, words, labelled spans, A true, B true, neither, feminine, masculine
    "gap_train": (2_000, 142_407, 6_000, 874, 925, 201, 1_000, 1_000),
    "gap_dev": (454, 32_213, 1_362, 187, 205, 62, 227, 227),
}
# OntoGUM spans that belong to two clusters (README: 6 in train, 1 in dev), one file each.
SHARED_SPANS = {"litbank_train": 0, "litbank_dev": 0, "gum_train": 6, "gum_dev": 1}
# fmt: on
CONLL_KEYS = ("documents", "tokens", "sentences", "mentions", "clusters", "singletons",
              "nested_mentions", "longest_doc")
GAP_KEYS = ("examples", "words", "labelled_spans", "a_true", "b_true", "neither", "feminine",
            "masculine")


@pytest.mark.parametrize("split", sorted(README_CONLL))
def test_conll_split_counts_match_readme(read_split, split):
    docs, _ = read_split(split)
    stats = corpus_stats(docs)
    assert tuple(stats[key] for key in CONLL_KEYS) == README_CONLL[split]


@pytest.mark.parametrize("split", sorted(README_GAP))
def test_gap_split_counts_match_readme(read_split, split):
    docs, warned = read_split(split)
    assert not warned
    stats = gap_stats(docs)
    assert tuple(stats[key] for key in GAP_KEYS) == README_GAP[split]


@pytest.mark.parametrize("split", sorted(SHARED_SPANS))
def test_conll_split_warns_once_per_file_with_shared_spans(read_split, split):
    _, warned = read_split(split)
    assert all(message.startswith("[CW001]") for message in warned)
    assert len(warned) == SHARED_SPANS[split]  # one warning per file, each counting 1 span
    counts = [int(re.search(r": (\d+) mention span", message).group(1)) for message in warned]
    assert sum(counts) == SHARED_SPANS[split]


def test_shared_spans_are_kept_in_both_clusters(read_split):
    docs, _ = read_split("gum_dev")
    doc = next(d for d in docs if get_doc_id(d)["name"] == "GUM_bio_emperor")
    spans = [m for cluster in get_clusters(doc) for m in cluster]
    assert len(spans) - len(set(spans)) == 1


def test_gum_speakers_and_headers(read_split):
    docs, _ = read_split("gum_dev")
    doc = next(d for d in docs if get_doc_id(d)["name"] == "GUM_conversation_grounded")
    assert get_doc_id(doc) == {
        "name": "GUM_conversation_grounded",
        "part": "000",
        "header": "#begin document (GUM_conversation_grounded); part 000",
    }
    assert all(speaker is not None for speaker in get_speakers(doc))
    assert doc[0].tag_  # gold PTB POS from column 5


def _structure(doc):
    clusters = sorted(tuple(cluster) for cluster in get_clusters(doc))
    sent_starts = [i == 0 or bool(token.is_sent_start) for i, token in enumerate(doc)]
    words = [token.text for token in doc]
    return words, sent_starts, clusters, get_speakers(doc), get_doc_id(doc)


def test_conll_to_docbin_to_conll_keeps_everything(read_split, tmp_path):
    docs = [doc for split in sorted(SHARED_SPANS) for doc in read_split(split)[0]]
    write_docs(docs, tmp_path / "all.spacy")
    write_docs(read_docs(tmp_path / "all.spacy"), tmp_path / "all.conll")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the 7 shared OntoGUM spans, tested above
        again = read_docs(tmp_path / "all.conll")
    assert len(again) == len(docs)
    for doc, doc_again in zip(docs, again):
        assert _structure(doc_again) == _structure(doc)


@pytest.mark.parametrize("split", sorted(README_GAP))
def test_gap_writes_back_the_same_file(read_split, shared_data: Path, tmp_path, split):
    docs, _ = read_split(split)
    write_docs(docs, tmp_path / "gap.tsv")
    original = shared_data / {"gap_train": "gap/gap-development.tsv",
                              "gap_dev": "gap/gap-validation.tsv"}[split]
    assert (tmp_path / "gap.tsv").read_text(encoding="utf8") == original.read_text(encoding="utf8")
