"""Clusters, candidates and pair scores from the `coref` stack survive every way a doc or the
pipeline is stored. spaCy's `assert_docs_equal` ignores spans, so `snapshot` compares them."""

import pickle

import pytest
import spacy
from hardening_invariants import snapshot
from spacy.tokens import Doc, DocBin

from spacy_coref.annotations import get_clusters

TEXTS = [
    "Marie Curie was born in Warsaw. She moved to Paris, where she met Pierre Curie. "
    "He was a physicist, and he married her in 1895.",
    "Anna met her brother. She told him that he had to come home.",
    "",
    "\ufeffJohn\u00a0said he\u200b would come.\r\nHe did.",
]


@pytest.fixture(scope="module")
def docs(coref_nlp):
    docs = list(coref_nlp.pipe(TEXTS))
    assert sum(len(get_clusters(doc)) for doc in docs) >= 3, "nothing to round-trip"
    assert any(doc._.coref_scores for doc in docs)
    return docs


def _docbin(docs, vocab, **kwargs):
    data = DocBin(docs=docs, **kwargs).to_bytes()
    return list(DocBin().from_bytes(data).get_docs(vocab))


def test_pickle(docs):
    assert [snapshot(pickle.loads(pickle.dumps(doc))) for doc in docs] == [
        snapshot(doc) for doc in docs
    ]


def test_doc_to_bytes(docs, coref_nlp):
    restored = [Doc(coref_nlp.vocab).from_bytes(doc.to_bytes()) for doc in docs]
    assert [snapshot(doc) for doc in restored] == [snapshot(doc) for doc in docs]


def test_docbin_with_user_data(docs, coref_nlp):
    restored = _docbin(docs, coref_nlp.vocab, store_user_data=True)
    assert [snapshot(doc) for doc in restored] == [snapshot(doc) for doc in docs]


def test_docbin_without_user_data_keeps_all_but_the_scores(docs, coref_nlp):
    """The pair scores live in user_data (as DESIGN says); clusters live in doc.spans."""
    restored = _docbin(docs, coref_nlp.vocab)
    expected = [{**snapshot(doc), "scores": []} for doc in docs]
    assert [snapshot(doc) for doc in restored] == expected


def test_docbin_into_a_fresh_vocab(docs):
    """Reading into a new process's vocab (spans store label strings in the DocBin)."""
    restored = _docbin(docs, spacy.blank("en").vocab, store_user_data=True)
    assert [snapshot(doc) for doc in restored] == [snapshot(doc) for doc in docs]


def test_pipeline_to_disk_and_load(coref_nlp, docs, tmp_path):
    coref_nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    assert [snapshot(doc) for doc in loaded.pipe(TEXTS)] == [snapshot(doc) for doc in docs]
    # saving the loaded copy again gives the same files
    loaded.to_disk(tmp_path / "again")
    for path in (tmp_path / "nlp" / "coref").rglob("*"):
        if path.is_file():
            again = tmp_path / "again" / path.relative_to(tmp_path / "nlp")
            assert again.read_bytes() == path.read_bytes(), path


def test_stack_refuses_bytes_with_a_coded_error(coref_nlp):
    with pytest.raises(NotImplementedError, match="CE110"):
        coref_nlp.to_bytes()


def test_pickle_the_pipeline(coref_nlp, docs):
    """What spawned workers of nlp.pipe(n_process=2) receive."""
    loaded = pickle.loads(pickle.dumps(coref_nlp))
    assert [snapshot(doc) for doc in loaded.pipe(TEXTS)] == [snapshot(doc) for doc in docs]
