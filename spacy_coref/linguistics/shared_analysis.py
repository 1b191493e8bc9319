"""One analysis of a doc's candidate mentions for everything that reads it: the model's features
and the decoding steps. Each reads its own variant of `mention_constraints` (the features
without first names or control, as the shipped models were trained; the decoding with both),
and the decoding reads only the mentions the model kept. `MentionAnalysis` reads each span of
a parsed doc once for both variants, when the first of them is asked for, and gives the
decoding the kept mentions' rows: what `mention_constraints` gives for them, bit for bit.
The model hands it to the decoder with its scores (`CorefScores.analysis`).
"""
from typing import Dict, Optional, Sequence, Tuple

import numpy
from spacy.tokens import Doc

from ..profiling import ANALYSIS, section
from .mention_analysis import mention_constraints, parsed_variants, share_name_classes
from .mention_constraints import MentionConstraints

FEATURES = (False, False)  # (first_names, controlled)
DECODING = (True, True)


class MentionAnalysis:
    """What is known of each candidate mention of a doc, read once.

    doc (Doc): the doc.
    spans (numpy.ndarray): [C, 2] the candidates' (start, end) token offsets, end exclusive.
    both (bool): read the spans for both variants at the first request (prediction, where
        the decoding follows the features); False: each variant when asked (training, where
        only the features are).
    """

    def __init__(self, doc: Doc, spans: Sequence[Sequence[int]], both: bool = True) -> None:
        self.doc = doc
        self.spans = numpy.asarray(spans, dtype="int64").reshape((-1, 2))
        self.both = both
        # per variant, the classes before `share_name_classes` (parsed docs)
        self._read: Dict[Tuple[bool, bool], MentionConstraints] = {}
        self._decoding: Optional[MentionConstraints] = None

    def for_features(self) -> MentionConstraints:
        """`mention_constraints(doc, spans, first_names=False, controlled=False)`."""
        if not self.doc.has_annotation("DEP"):
            with section(ANALYSIS):
                return mention_constraints(self.doc, self.spans, first_names=False,
                                           controlled=False)
        return self._variant(FEATURES)

    def for_decoding(self, kept: Optional[Sequence[int]] = None) -> MentionConstraints:
        """`mention_constraints(doc, spans[kept])` (first names and control on).

        kept (Optional[Sequence[int]]): indices of the kept candidates, in order; None: all.
        """
        n = len(self.spans)
        rows = None if kept is None else numpy.asarray(kept, dtype="int64").reshape((-1,))
        if rows is not None and len(rows) == n and numpy.array_equal(rows, numpy.arange(n)):
            rows = None
        if not self.doc.has_annotation("DEP"):
            # without a parse each span's row is its own: the array path reads no other span
            spans = self.spans if rows is None else self.spans[rows]
            return mention_constraints(self.doc, spans)
        if rows is None and self._decoding is not None:
            return self._decoding
        read = self._variant(DECODING)
        with section(ANALYSIS):
            mentions = _rows(read, rows)
            spans = self.spans if rows is None else self.spans[rows]
            share_name_classes(self.doc, spans, mentions.classes)  # it reads the kept ones
        if rows is None:
            self._decoding = mentions
        return mentions

    def _variant(self, variant: Tuple[bool, bool]) -> MentionConstraints:
        if variant not in self._read:
            variants = (FEATURES, DECODING) if self.both else (variant,)
            with section(ANALYSIS):
                found = parsed_variants(self.doc, self.spans, variants)
            self._read.update(zip(variants, found))
        return self._read[variant]


def _rows(mentions: MentionConstraints, rows: Optional[numpy.ndarray]) -> MentionConstraints:
    """Copies of the arrays (the rows given, or all): the consumers own what they are given."""
    return MentionConstraints(*(
        None if array is None else (array.copy() if rows is None else array[rows])
        for array in mentions
    ))
