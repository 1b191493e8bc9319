"""What the decoding steps of one doc read and write: the doc, its scores, what the steps add
for clustering, and the clusters. The analysis of the mentions (heads, roles, classes) is
read off the doc at most once, when a step first asks for it."""
from typing import Callable, Dict, FrozenSet, List, Optional, Tuple

import numpy
from spacy.tokens import Doc

from ..linguistics.mention_analysis import mention_constraints
from ..linguistics.mention_constraints import MentionConstraints
from ..linguistics.persons import classes_by_mention
from ..types import ClusterOffsets, CorefScores, valid_antecedents


class DecodingState:
    """One doc's decoding, passed through every step.

    doc (Doc): the doc.
    scores (CorefScores): its antecedent scores; "scores" steps replace them.
    null_score (float): the score of "no antecedent".
    active (FrozenSet[str]): the names of the steps in this decoding, for a step whose work
        depends on another's ("names" keeps the pairs that "binding" forbids).
    """

    def __init__(
        self, doc: Doc, scores: CorefScores, null_score: float, active: FrozenSet[str]
    ) -> None:
        self.doc = doc
        self.scores = scores
        self.null_score = null_score
        self.active = active
        self.parsed = doc.has_annotation("DEP")
        kept = numpy.asarray(scores.kept, dtype="int64")
        candidates = numpy.asarray(scores.candidates, dtype="int64").reshape((-1, 2))
        self.spans = candidates[kept]  # [M, 2] the kept mentions' token offsets
        # What "masks" steps add for clustering. `constrained`: cluster with
        # `constrained_clusters` even where no step added a mask.
        self.constrained = False
        self.forbidden: Optional[numpy.ndarray] = None  # [M, K] bool
        self.required: Optional[numpy.ndarray] = None  # [M, K] bool
        self.classes: Optional[numpy.ndarray] = None  # [M] agreement and person bits
        self.conflicts: Optional[Callable[[int], int]] = None
        self.names: Optional[List[Optional[str]]] = None  # [M] each mention's person name
        self.clusters: ClusterOffsets = []
        self._mentions: Optional[MentionConstraints] = None
        self._mention_classes: Optional[Dict[Tuple[int, int], int]] = None

    @property
    def n_mentions(self) -> int:
        return len(self.spans)

    @property
    def mentions(self) -> MentionConstraints:
        """The mentions' heads, roles and classes, read off the doc once."""
        if self._mentions is None:
            analysis = self.scores.analysis
            if analysis is not None and analysis.doc is self.doc:  # what the features read
                self._mentions = analysis.for_decoding(self.scores.kept)
            else:
                self._mentions = mention_constraints(self.doc, self.spans)
        return self._mentions

    @property
    def mention_classes(self) -> Dict[Tuple[int, int], int]:
        """Each mention's agreement classes with the persons that clustering reads, for the
        steps that merge clusters after it."""
        if self._mention_classes is None:
            self._mention_classes = classes_by_mention(
                self.doc, self.spans, self.mentions, self.classes
            )
        return self._mention_classes

    @property
    def antecedents(self) -> numpy.ndarray:
        return numpy.asarray(self.scores.antecedents)  # [M, K]

    def valid(self) -> numpy.ndarray:
        """[M, K] bool: the real (mention, antecedent) pairs of the current scores."""
        return valid_antecedents(self.scores)

    def forbid(self, pairs: numpy.ndarray) -> None:
        """Keep the (mention, antecedent) `pairs` ([M, K] bool) apart."""
        self.constrained = True
        self.forbidden = pairs if self.forbidden is None else self.forbidden | pairs

    def require(self, pairs: numpy.ndarray) -> None:
        """Join the (mention, antecedent) `pairs` ([M, K] bool) wherever they can be joined."""
        self.constrained = True
        self.required = pairs if self.required is None else self.required | pairs
