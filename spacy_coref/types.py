"""Types shared across the package: mentions and clusters as offsets, and the model's output
(here rather than with the model, so that decoding needs nothing of `ml/`)."""
from dataclasses import dataclass, field
from typing import Any, List, Tuple

import numpy
from thinc.types import Floats1d, Floats2d, Ints1d, Ints2d

from .ml.torch.constants import FIRST_ANTECEDENT_COLUMN, MASKED_SCORE

# A mention as token offsets into its doc: (start, end), end exclusive, like `doc[start:end]`.
MentionOffset = Tuple[int, int]
MentionOffsets = List[MentionOffset]
# Clusters as lists of mentions; each cluster sorted, clusters in document order.
ClusterOffsets = List[List[MentionOffset]]


@dataclass
class CorefScores:
    """The model's output for one doc (arrays of the model's ops)."""

    candidates: Ints2d  # [C, 2] (start, end) token offsets, end exclusive
    mention_scores: Floats1d  # [C]
    kept: Ints1d  # [M] indices into candidates, document order
    antecedents: Ints2d  # [M, K] indices into kept
    scores: Floats2d  # [M, 1 + K] null antecedent at NULL_COLUMN
    # the analysis of the candidates that the features read (a MentionAnalysis of
    # `linguistics/shared_analysis.py`, for the same doc), for the decoding to read too; None:
    # the decoding reads the doc itself
    analysis: Any = field(default=None, compare=False, repr=False)


def valid_antecedents(scores: CorefScores) -> numpy.ndarray:
    """[M, K] whether each candidate antecedent column holds a real pair."""
    return numpy.asarray(scores.scores)[:, FIRST_ANTECEDENT_COLUMN:] > MASKED_SCORE / 2
