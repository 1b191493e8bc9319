"""The syntactic heads of many spans of a doc at once, as arrays: what `doc[start:end].root.i`
gives for each, without a Span and a Token object per span (the decoding steps ask for the
head of every candidate mention, thousands a document).

spaCy's `Span.root` takes the span's first sentence root if it has one; else, of the tokens
whose head is outside the span, the one with the fewest steps up to its sentence's root, the
first of equals, where a space or punctuation token without children counts as
`len(doc) - 1` steps; else the span's first token. `span_roots` computes the same from the
doc's HEAD array, one span width at a time.
"""
from typing import Sequence

import numpy
from spacy.tokens import Doc


def span_roots(doc: Doc, spans: Sequence[Sequence[int]]) -> numpy.ndarray:
    """The token index of each span's `Span.root`.

    doc (Doc): the doc (without a parse every token is its own head: each span's first token).
    spans (Sequence): [S] (start, end) token offsets, end exclusive, start < end.
    RETURNS (numpy.ndarray): [S] int64.
    """
    spans = numpy.asarray(spans, dtype="int64").reshape((-1, 2))
    if not len(spans):
        return numpy.zeros(0, dtype="int64")
    if "root" in doc.user_span_hooks:  # a user's own definition: ask the spans
        return numpy.asarray([doc[s:e].root.i for s, e in spans.tolist()], dtype="int64")
    n = len(doc)
    heads, steps = _heads_and_steps(doc)  # [T] each
    is_root = heads == numpy.arange(n)
    # the first sentence root at or after each position (n where none)
    positions = numpy.where(is_root, numpy.arange(n), n)
    next_root = numpy.append(numpy.minimum.accumulate(positions[::-1])[::-1], n)  # [T + 1]
    starts, ends = spans[:, 0], spans[:, 1]
    roots = next_root[starts]
    without_root = numpy.flatnonzero(roots >= ends)
    widths = ends[without_root] - starts[without_root]
    for width in numpy.unique(widths).tolist():
        rows = without_root[widths == width]
        tokens = starts[rows, None] + numpy.arange(width)  # [r, width]
        token_heads = heads[tokens]
        outside = (token_heads < starts[rows, None]) | (token_heads >= ends[rows, None])
        score = numpy.where(outside, steps[tokens], n)  # [r, width]
        best = score.argmin(axis=1)  # the first of the fewest steps
        found = score[numpy.arange(len(rows)), best] < n
        roots[rows] = numpy.where(found, tokens[numpy.arange(len(rows)), best], starts[rows])
    return roots


def _heads_and_steps(doc: Doc):
    """Each token's head (absolute index) and its `Span.root` score: the steps up to its
    sentence's root, or len(doc) - 1 for a space or punctuation token without children."""
    n = len(doc)
    offsets, is_space, is_punct = doc.to_array(["HEAD", "IS_SPACE", "IS_PUNCT"]).T
    heads = numpy.arange(n) + offsets.astype("int64")  # HEAD is relative (uint64 wraps)
    steps = (heads != numpy.arange(n)).astype("int64")
    up = heads.copy()
    # pointer jumping: each round doubles the path that `steps` counts
    while True:
        pending = steps > 0
        pending &= up != heads[up]
        if not pending.any():
            break
        rows = numpy.flatnonzero(pending)
        parents = up[rows]
        steps[rows] += steps[parents]
        up[rows] = up[parents]
    childless = numpy.bincount(heads[heads != numpy.arange(n)], minlength=n) == 0
    steps = numpy.where(childless & ((is_space > 0) | (is_punct > 0)), n - 1, steps)
    return heads, steps
