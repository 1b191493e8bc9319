"""same_head: a cluster keeps one of two nested mentions with one head ("Greta" and "Greta,
who ..."), after merging the clusters that hold such a pair (`pipeline/same_head.py`)."""
from spacy.util import registry

from ...pipeline.mention_classes import conflicting_classes
from ...pipeline.same_head import merge_nested_same_head, one_mention_per_head
from ..state import DecodingState
from ..step import DecodingStep


class SameHead(DecodingStep):
    name = "same_head"

    def clusters(self, state: DecodingState) -> None:
        if state.n_mentions and state.parsed:  # without a parse, no heads to merge by
            state.clusters = merge_nested_same_head(
                state.doc, state.clusters, state.mention_classes, conflicting_classes
            )
        scores = state.scores
        state.clusters = one_mention_per_head(
            state.doc, state.clusters, scores.candidates, scores.mention_scores
        )


@registry.misc("spacy_coref.decode.same_head.v1")
def make_same_head() -> SameHead:
    return SameHead()
