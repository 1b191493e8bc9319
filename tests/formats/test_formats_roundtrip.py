"""read(write(docs)) == docs for generated docs with nested, crossing and shared mentions."""
import warnings
from pathlib import Path
from typing import List, Optional, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc
from spacy.vocab import Vocab

from spacy_coref.annotations import get_clusters, get_doc_id, get_speakers, set_clusters
from spacy_coref.annotations import set_doc_id, set_speakers
from spacy_coref.formats import read_docs, write_docs

VOCAB = Vocab()
# Words without whitespace or control characters: brackets, `|`, `#`, `-`, `_` and non-ASCII
# included, since they must not be taken for columns or coreference.
WORDS = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Z")) | st.sampled_from("()|#-_"),
    min_size=1,
    max_size=4,
)
SPEAKERS = st.sampled_from([None, "A", "speaker two"])
Mention = Tuple[int, int]


def _nested_or_disjoint(a: Mention, b: Mention) -> bool:
    inside = (a[0] <= b[0] and b[1] <= a[1]) or (b[0] <= a[0] and a[1] <= b[1])
    return inside or a[1] <= b[0] or b[1] <= a[0]


def _laminar(cluster: List[Mention]) -> List[Mention]:
    """Drop the mentions that overlap an earlier one of the cluster without nesting: CoNLL
    brackets cannot hold those (tested on their own in test_formats_conll.py)."""
    kept: List[Mention] = []
    for mention in cluster:
        if all(_nested_or_disjoint(mention, other) for other in kept):
            kept.append(mention)
    return kept


@st.composite
def docs(draw, laminar: bool) -> Doc:
    words = draw(st.lists(WORDS, min_size=0, max_size=25))
    n = len(words)
    sent_starts = [i == 0 or draw(st.booleans()) for i in range(n)]
    doc = Doc(VOCAB, words=words, sent_starts=sent_starts or None)
    mention = st.tuples(st.integers(0, max(n - 1, 0)), st.integers(1, 6)).map(
        lambda m: (m[0], min(m[0] + m[1], n))
    )
    clusters = draw(st.lists(st.lists(mention, min_size=1, max_size=5), max_size=6)) if n else []
    if laminar:
        clusters = [_laminar(cluster) for cluster in clusters]
    set_clusters(doc, clusters)
    set_speakers(doc, draw(st.lists(SPEAKERS, min_size=n, max_size=n)))
    name = draw(st.from_regex(r"[a-z][a-z0-9_/]{0,10}", fullmatch=True))
    set_doc_id(doc, name, part=draw(st.sampled_from(["0", "000", "017"])))
    return doc


def _structure(doc: Doc):
    sent_starts = [i == 0 or bool(token.is_sent_start) for i, token in enumerate(doc)]
    clusters = sorted(tuple(cluster) for cluster in get_clusters(doc))
    identity = get_doc_id(doc)
    return ([t.text for t in doc], sent_starts, clusters, get_speakers(doc), identity["name"],
            identity["part"])


def _round_trip(batch: List[Doc], path: Path) -> Optional[List[Doc]]:
    # Unique (name, part) per file, as CoNLL needs.
    for i, doc in enumerate(batch):
        set_doc_id(doc, f"{get_doc_id(doc)['name']}_{i}", part=get_doc_id(doc)["part"])
    write_docs(batch, path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # generated spans in two clusters warn, by design
        return read_docs(path)


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("roundtrip")


@settings(max_examples=150, derandomize=True, deadline=None)
@given(batch=st.lists(docs(laminar=True), min_size=1, max_size=3))
def test_conll_round_trip(out_dir, batch):
    again = _round_trip(batch, out_dir / "docs.conll")
    assert [_structure(doc) for doc in again] == [_structure(doc) for doc in batch]


@settings(max_examples=150, derandomize=True, deadline=None)
@given(batch=st.lists(docs(laminar=False), min_size=1, max_size=3))
def test_jsonlines_round_trip(out_dir, batch):
    again = _round_trip(batch, out_dir / "docs.jsonl")
    assert [_structure(doc) for doc in again] == [_structure(doc) for doc in batch]


@settings(max_examples=50, derandomize=True, deadline=None)
@given(batch=st.lists(docs(laminar=False), min_size=1, max_size=3))
def test_docbin_round_trip(out_dir, batch):
    again = _round_trip(batch, out_dir / "docs.spacy")
    assert [_structure(doc) for doc in again] == [_structure(doc) for doc in batch]
