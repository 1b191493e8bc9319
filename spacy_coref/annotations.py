"""Where coreference annotation lives on a `Doc`, and how to read and write it.

`doc.spans` is the only store (see DESIGN.md): clusters under `coref_clusters_1`,
`coref_clusters_2`, ... (1-based, the layout of spaCy's experimental coref), candidate mentions
under `coref_mentions`. Everything else (the `Doc._` extensions, the converters, the scorers)
goes through the functions here so that the key layout is written down once.
"""
import math
import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span, SpanGroup

from .types import ClusterOffsets, MentionOffsets

CLUSTER_PREFIX = "coref_clusters"
MENTIONS_KEY = "coref_mentions"
# Spans whose speakers are known: one span per run of tokens, labelled with the speaker.
SPEAKERS_KEY = "coref_speakers"
# Partially annotated documents (GAP): only these spans carry gold coreference decisions, so
# losses and scores are restricted to them. Labels are the roles ("PRONOUN", "A", "B").
GOLD_MENTIONS_KEY = "coref_gold_mentions"
# The annotation scheme a document follows ("litbank", "ontonotes", ...), kept in
# `doc.user_data`: models with schemes (spacy_coref.S2ECoref.v2) learn and predict each one.
SCHEME_KEY = "coref_scheme"
# Document identity from the source file, kept in `doc.user_data` (written to a DocBin with
# `store_user_data=True`) so CoNLL output can repeat the `#begin document` line exactly.
DOC_NAME = "coref_doc_name"
DOC_PART = "coref_doc_part"
DOC_HEADER = "coref_doc_header"

_CLUSTER_KEY_RE = re.compile(rf"^{CLUSTER_PREFIX}_(\d+)$")


def cluster_key(n: int, prefix: str = CLUSTER_PREFIX) -> str:
    """The `doc.spans` key of the n-th cluster (n from 1)."""
    return f"{prefix}_{n}"


def cluster_number(key: str) -> int:
    """The n of a cluster key `{prefix}_n` (the inverse of `cluster_key`)."""
    return int(key.rsplit("_", 1)[1])


def cluster_keys(doc: Doc, prefix: str = CLUSTER_PREFIX) -> List[str]:
    """The cluster keys present on a doc, ordered by their number (not lexically)."""
    if prefix == CLUSTER_PREFIX:
        pattern = _CLUSTER_KEY_RE
    else:
        pattern = re.compile(rf"^{re.escape(prefix)}_(\d+)$")
    numbered = []
    for key in doc.spans:
        match = pattern.match(key)
        if match:
            numbered.append((int(match.group(1)), key))
    return [key for _, key in sorted(numbered)]


def get_cluster_groups(doc: Doc, prefix: str = CLUSTER_PREFIX) -> List[SpanGroup]:
    """The non-empty cluster span groups of a doc, in key order."""
    groups = (doc.spans[key] for key in cluster_keys(doc, prefix))
    return [group for group in groups if len(group)]


def get_clusters(doc: Doc, prefix: str = CLUSTER_PREFIX) -> ClusterOffsets:
    """Clusters as lists of (start, end) token offsets, end exclusive, mentions sorted."""
    return [
        sorted((span.start, span.end) for span in group)
        for group in get_cluster_groups(doc, prefix)
    ]


def clear_clusters(doc: Doc, prefix: str = CLUSTER_PREFIX) -> None:
    """Remove every cluster key (so a re-annotated doc keeps no stale clusters)."""
    for key in cluster_keys(doc, prefix):
        del doc.spans[key]


def set_clusters(
    doc: Doc, clusters: Iterable[Sequence[Tuple[int, int]]], prefix: str = CLUSTER_PREFIX
) -> None:
    """Replace the doc's clusters. Clusters are ordered by their first mention so that the
    numbering is deterministic; mentions within a cluster are sorted and de-duplicated."""
    clear_clusters(doc, prefix)
    ordered = sorted(
        (sorted(set((int(s), int(e)) for s, e in cluster)) for cluster in clusters),
        key=_first_mention,
    )
    n = 0
    for mentions in ordered:
        if not mentions:
            continue
        n += 1
        key = cluster_key(n, prefix)
        doc.spans[key] = SpanGroup(doc, name=key, spans=[doc[s:e] for s, e in mentions])


def _first_mention(mentions: List[Tuple[int, int]]) -> Tuple[float, float]:
    """The sort key of a cluster in `set_clusters`: its first mention. An empty cluster sorts
    last; it is dropped anyway, so the order of the others does not depend on it."""
    return mentions[0] if mentions else (math.inf, math.inf)


def get_mentions(doc: Doc, key: str = MENTIONS_KEY) -> MentionOffsets:
    """Candidate mentions as sorted, unique (start, end) token offsets."""
    if key not in doc.spans:
        return []
    return sorted(set((span.start, span.end) for span in doc.spans[key]))


def set_mentions(doc: Doc, mentions: Iterable[Tuple[int, int]], key: str = MENTIONS_KEY) -> None:
    spans = [doc[s:e] for s, e in sorted(set((int(s), int(e)) for s, e in mentions))]
    doc.spans[key] = SpanGroup(doc, name=key, spans=spans)


def get_speakers(doc: Doc) -> List[Optional[str]]:
    """The speaker of every token (None where unknown)."""
    speakers: List[Optional[str]] = [None] * len(doc)
    for span in doc.spans.get(SPEAKERS_KEY, []):
        for i in range(span.start, span.end):
            speakers[i] = span.label_
    return speakers


def set_speakers(doc: Doc, speakers: Sequence[Optional[str]]) -> None:
    """Store per-token speakers as one labelled span per run of equal speakers."""
    spans: List[Span] = []
    start = 0
    for i in range(1, len(speakers) + 1):
        if i == len(speakers) or speakers[i] != speakers[start]:
            if speakers[start] is not None:
                spans.append(Span(doc, start, i, label=str(speakers[start])))
            start = i
    if spans:
        doc.spans[SPEAKERS_KEY] = SpanGroup(doc, name=SPEAKERS_KEY, spans=spans)


def get_doc_id(doc: Doc) -> Dict[str, Optional[str]]:
    """The document's source name, part and original header line (None where unknown)."""
    return {
        "name": doc.user_data.get(DOC_NAME),
        "part": doc.user_data.get(DOC_PART),
        "header": doc.user_data.get(DOC_HEADER),
    }


def set_doc_id(
    doc: Doc, name: str, part: Optional[str] = None, header: Optional[str] = None
) -> None:
    doc.user_data[DOC_NAME] = name
    if part is not None:
        doc.user_data[DOC_PART] = part
    if header is not None:
        doc.user_data[DOC_HEADER] = header


def get_scheme(doc: Doc) -> Optional[str]:
    """The annotation scheme the doc follows, if it names one."""
    return doc.user_data.get(SCHEME_KEY)


def set_scheme(doc: Doc, scheme: Optional[str]) -> None:
    """Name the annotation scheme the doc follows (None: remove it)."""
    if scheme is None:
        doc.user_data.pop(SCHEME_KEY, None)
    else:
        doc.user_data[SCHEME_KEY] = scheme
