"""Plan encoder sub-batches by a token budget so that almost no computation goes to padding.

A batch of documents is cut into segments of at most max_seq_length wordpieces. Most segments
are full length; each document also leaves a shorter left-over segment. Padding every segment of
a batch to the longest one (the naive way) wastes a fifth to a third of the work; sorting the
segments by length keeps full-length segments together and groups left-overs of similar length,
and a budget on padded tokens (rows x longest row) bounds the memory of one forward pass.
These are pure functions over lengths; `segment_transformer.py` runs the plan.
"""
from typing import List, Sequence

import numpy

from ..errors import Errors


def plan_sub_batches(
    lengths: Sequence[int], max_tokens_in_batch: int, *, max_padding: float = 1.0
) -> List[numpy.ndarray]:
    """Group segment indices into sub-batches under a budget of padded tokens.

    lengths (Sequence[int]): the true (unpadded) wordpiece length of each segment.
    max_tokens_in_batch (int): at most this many tokens, padding included, in one sub-batch
        (rows x its longest row); a single segment longer than the budget gets a sub-batch alone.
    max_padding (float): a sub-batch is closed early rather than let padding exceed this share
        of its tokens (1.0: no bound, only the budget).
    RETURNS (List[numpy.ndarray]): index arrays, longest segments first; together they hold
        every segment exactly once.
    """
    if max_tokens_in_batch < 1:
        raise ValueError(Errors.CE240.format(value=max_tokens_in_batch))
    if not 0.0 <= max_padding <= 1.0:
        raise ValueError(Errors.CE245.format(value=max_padding))
    sizes = numpy.asarray(lengths, dtype="int64").reshape(-1)  # [n_segments]
    if sizes.size == 0:
        return []
    if int(sizes.min()) < 0:
        raise ValueError(Errors.CE241.format(value=int(sizes.min())))
    # Stable descending sort: full-length segments first, then left-overs by length, so each
    # sub-batch pads only to its first (longest) row.
    order = numpy.argsort(-sizes, kind="stable")  # [n_segments]
    sorted_sizes = sizes[order].tolist()
    batches: List[numpy.ndarray] = []
    start = 0
    while start < len(order):
        longest = max(sorted_sizes[start], 1)
        limit = min(start + max(max_tokens_in_batch // longest, 1), len(order))
        end = start + 1
        padding = longest - sorted_sizes[start]
        # one step per sub-batch row, not per token: segments number ~ words / 150
        while end < limit:
            padding += longest - sorted_sizes[end]
            if padding > max_padding * longest * (end + 1 - start):
                break
            end += 1
        batches.append(order[start:end])
        start = end
    return batches


def padded_tokens(lengths: Sequence[int], batches: Sequence[Sequence[int]]) -> int:
    """Tokens computed, padding included, when each batch is padded to its longest row.

    lengths (Sequence[int]): the true length of each segment.
    batches (Sequence[Sequence[int]]): segment indices per batch.
    RETURNS (int): the sum over batches of rows x longest row.
    """
    sizes = numpy.asarray(lengths, dtype="int64").reshape(-1)
    total = 0
    for batch in batches:
        rows = sizes[numpy.asarray(batch, dtype="int64")]
        if rows.size:
            total += int(rows.size * rows.max())
    return total


def padded_fraction(lengths: Sequence[int], batches: Sequence[Sequence[int]]) -> float:
    """The share of computed tokens that are padding (0.0 when nothing is computed).

    lengths (Sequence[int]): the true length of each segment.
    batches (Sequence[Sequence[int]]): segment indices per batch.
    RETURNS (float): (padded tokens - real tokens) / padded tokens.
    """
    computed = padded_tokens(lengths, batches)
    if computed == 0:
        return 0.0
    real = sum(int(numpy.asarray(lengths)[numpy.asarray(b, dtype="int64")].sum()) for b in batches)
    return (computed - real) / computed


def naive_batches(segments_per_batch: Sequence[int]) -> List[numpy.ndarray]:
    """The batches spacy-transformers runs: all segments of one batch of documents at once.

    segments_per_batch (Sequence[int]): how many segments each batch of documents has, in order.
    RETURNS (List[numpy.ndarray]): consecutive index ranges, one per batch of documents.
    """
    bounds = numpy.cumsum([0] + list(segments_per_batch))
    return [numpy.arange(bounds[i], bounds[i + 1]) for i in range(len(segments_per_batch))]
