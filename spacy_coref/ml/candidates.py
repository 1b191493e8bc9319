"""Candidate mentions for the clustering model: the rule-based spans from `coref_mentions`, all
spans up to a width, or both (so the recall ceiling of the rules can be measured against learned
candidates)."""
from typing import Literal

import numpy

from ..annotations import MENTIONS_KEY
from ..types import MentionOffsets

CandidateSource = Literal["rules", "spans", "both"]


def doc_candidates(
    doc, *, source: CandidateSource = "rules", key: str = MENTIONS_KEY, max_width: int = 10
) -> numpy.ndarray:
    """Candidate mentions of a doc as an int array [C, 2] of (start, end) token offsets, end
    exclusive, sorted by (start, end), unique. No candidate starts or ends on a space token.

    doc (Doc): the doc, with `doc.spans[key]` set when source includes "rules".
    source (str): "rules", "spans" or "both".
    key (str): the `doc.spans` key of the rule-based candidates.
    max_width (int): the widest span enumerated when source includes "spans".
    RETURNS (numpy.ndarray): [C, 2] int64.
    """
    pairs: MentionOffsets = []
    if source in ("rules", "both") and key in doc.spans:
        pairs.extend((span.start, span.end) for span in doc.spans[key])
    arr = numpy.asarray(pairs, dtype="int64").reshape((-1, 2))
    if source in ("spans", "both"):
        arr = numpy.concatenate([arr, _all_spans(len(doc), max_width)])
    if not len(arr):
        return arr
    is_space = doc.to_array("IS_SPACE").astype(bool)  # [T]
    keep = (arr[:, 1] > arr[:, 0]) & ~is_space[arr[:, 0]] & ~is_space[arr[:, 1] - 1]
    return numpy.unique(arr[keep], axis=0)  # unique() also sorts rows lexicographically


def _all_spans(n_tokens: int, max_width: int) -> numpy.ndarray:
    starts = numpy.repeat(numpy.arange(n_tokens), max_width)  # [T * W]
    ends = starts + numpy.tile(numpy.arange(1, max_width + 1), n_tokens)  # [T * W]
    keep = ends <= n_tokens
    return numpy.stack([starts[keep], ends[keep]], axis=1)  # [C, 2]
