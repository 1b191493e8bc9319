"""Corpus statistics, counted the way the data README counts them."""
from typing import Dict, Iterable, List, Sequence

from spacy.tokens import Doc

from ..annotations import get_clusters
from ..types import MentionOffset
from .gap import A, B, FEMININE_PRONOUNS, MASCULINE_PRONOUNS, PRONOUN, gap_coref, gap_spans

# fmt: off
CORPUS_KEYS = ("documents", "tokens", "sentences", "mentions", "clusters", "singletons",
               "nested_mentions", "longest_doc")
GAP_KEYS = ("examples", "words", "labelled_spans", "a_true", "b_true", "neither", "feminine",
            "masculine")
# fmt: on


def corpus_stats(docs: Iterable[Doc]) -> Dict[str, int]:
    """Counts over docs with clusters.

    Mentions are the annotated (cluster, span) pairs, so a span in two clusters counts twice;
    clusters include singletons; a nested mention lies strictly inside another, different
    mention span of its doc.

    docs (Iterable[Doc]): The docs.
    RETURNS (Dict[str, int]): documents, tokens, sentences, mentions, clusters, singletons,
        nested_mentions, longest_doc (tokens).
    """
    stats = {key: 0 for key in CORPUS_KEYS}
    for doc in docs:
        clusters = get_clusters(doc)
        stats["documents"] += 1
        stats["tokens"] += len(doc)
        stats["sentences"] += sum(1 for i, token in enumerate(doc) if i == 0 or token.is_sent_start)
        stats["mentions"] += sum(len(cluster) for cluster in clusters)
        stats["clusters"] += len(clusters)
        stats["singletons"] += sum(1 for cluster in clusters if len(cluster) == 1)
        stats["nested_mentions"] += count_nested({m for cluster in clusters for m in cluster})
        stats["longest_doc"] = max(stats["longest_doc"], len(doc))
    return stats


def count_nested(mentions: Iterable[MentionOffset]) -> int:
    """How many distinct spans lie inside another, different span (sharing an edge counts).

    mentions (Iterable[MentionOffset]): (start, end) spans, end exclusive.
    RETURNS (int): The count.
    """
    # Sorted by start, longest first: every span seen before starts no later, and one that
    # starts at the same token is longer, so a span is nested iff an earlier one ends no sooner.
    nested = 0
    max_end = -1
    for _, negative_end in sorted((start, -end) for start, end in set(mentions)):
        end = -negative_end
        if max_end >= end:
            nested += 1
        max_end = max(max_end, end)
    return nested


def gap_stats(docs: Sequence[Doc]) -> Dict[str, int]:
    """The GAP table of the data README, over docs with GAP's PRONOUN, A and B spans.

    docs (Sequence[Doc]): The docs; those without the three spans are not counted.
    RETURNS (Dict[str, int]): examples, words (whitespace words of the text), labelled_spans,
        a_true, b_true, neither, feminine, masculine.
    """
    stats = {key: 0 for key in GAP_KEYS}
    for doc in docs:
        spans = gap_spans(doc)
        if spans is None:
            continue
        coref = gap_coref(doc, spans)
        pronoun = spans[PRONOUN].text.lower()
        stats["examples"] += 1
        stats["words"] += len(doc.text.split())
        stats["labelled_spans"] += len(spans)
        stats["a_true"] += coref[A]
        stats["b_true"] += coref[B]
        stats["neither"] += not (coref[A] or coref[B])
        stats["feminine"] += pronoun in FEMININE_PRONOUNS
        stats["masculine"] += pronoun in MASCULINE_PRONOUNS
    return stats


def data_stats(docs: List[Doc]) -> Dict[str, int]:
    """`corpus_stats`, plus `gap_stats` when any doc is a GAP example.

    docs (List[Doc]): The docs.
    RETURNS (Dict[str, int]): The counts.
    """
    stats = corpus_stats(docs)
    gap = gap_stats(docs)
    if gap["examples"]:
        stats.update(gap)
    return stats
