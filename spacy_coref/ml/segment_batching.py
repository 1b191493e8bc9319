"""Plan encoder sub-batches by a token budget so that almost no computation goes to padding.

A batch of documents is cut into segments of at most max_seq_length wordpieces. Most segments
are full length; each document also leaves a shorter left-over segment. Padding every segment of
a batch to the longest one (the naive way) wastes a fifth to a third of the work; sorting the
segments by length keeps full-length segments together and groups left-overs of similar length,
and a budget on padded tokens (rows x longest row) bounds the memory of one forward pass.
These are pure functions over lengths; `segment_transformer.py` runs the plan.

A batch-invariant plan (`plan_invariant_sub_batches`) pads each segment to a width that its own
length decides (a multiple of `INVARIANT_BUCKET`) and batches only segments of one width, a
fixed number of rows a call (`call_rows`). The runner fills a call's last rows with copies, so
every call at a width has one shape: a CPU's BLAS picks its kernel, and with it the order of a
row's sums, by the shape of the product (oneDNN's bf16 kernels on Intel AMX do, by the row
count), and the rows of one shape do not touch each other's sums. A segment's output is then
the same bit for bit whatever shares its call, and the calls stay few.
"""
from typing import List, Optional, Sequence, Tuple

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


# The widths a batch-invariant plan pads to: multiples of 32 wordpieces (at most 31 of padding
# a segment, about 5% of a full window's work), capped at the model's longest input.
INVARIANT_BUCKET = 32


def invariant_width(length: int, max_width: int, bucket: int = INVARIANT_BUCKET) -> int:
    """The width a segment of `length` wordpieces is padded to in a batch-invariant plan: the
    next multiple of `bucket`, at most `max_width` (never below `length`)."""
    rounded = -(-max(int(length), 1) // bucket) * bucket
    return max(min(rounded, int(max_width)), int(length))


def call_rows(width: int, tokens_per_call: int, max_rows: Optional[int] = None) -> int:
    """The rows of every batch-invariant call at `width`: as many as `tokens_per_call` holds,
    at least one and at most `max_rows` (None: no bound)."""
    rows = max(int(tokens_per_call) // max(int(width), 1), 1)
    return rows if max_rows is None else min(rows, max(int(max_rows), 1))


def plan_invariant_sub_batches(
    lengths: Sequence[int], max_tokens_in_batch: int, max_width: int,
    max_rows: Optional[int] = None,
) -> List[Tuple[numpy.ndarray, int]]:
    """Group segment indices into sub-batches of one padded width each (`invariant_width`),
    `call_rows(width, max_tokens_in_batch, max_rows)` segments a sub-batch but the last of
    each width.

    lengths (Sequence[int]): the true (unpadded) wordpiece length of each segment.
    max_tokens_in_batch (int): at most this many tokens, padding included, in one sub-batch; a
        segment wider than the budget gets a sub-batch alone.
    max_width (int): the model's longest input, the widest a segment is padded to.
    max_rows (Optional[int]): at most this many segments a sub-batch (None: the budget alone).
    RETURNS (List[Tuple[numpy.ndarray, int]]): (index array, width) pairs, widest first;
        together they hold every segment exactly once. A runner that wants one shape a width
        fills the last sub-batch of each width up to `call_rows`.
    """
    if max_tokens_in_batch < 1:
        raise ValueError(Errors.CE240.format(value=max_tokens_in_batch))
    sizes = numpy.asarray(lengths, dtype="int64").reshape(-1)  # [n_segments]
    if sizes.size and int(sizes.min()) < 0:
        raise ValueError(Errors.CE241.format(value=int(sizes.min())))
    widths = numpy.asarray([invariant_width(n, max_width) for n in sizes.tolist()], dtype="int64")
    batches: List[Tuple[numpy.ndarray, int]] = []
    for width in sorted(set(widths.tolist()), reverse=True):
        rows = numpy.flatnonzero(widths == width)  # in document order
        per_call = call_rows(width, max_tokens_in_batch, max_rows)
        batches.extend((rows[i : i + per_call], width) for i in range(0, len(rows), per_call))
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
