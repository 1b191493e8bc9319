"""other_heads: a common noun phrase takes one with another head noun ("the plan" after "the
government") only where the link scores well above "no antecedent" (`pipeline/other_heads.py`;
without a parse, heads from each word's usual tag, `pipeline/word_tags.py`)."""
from spacy.util import registry

from ..score_edits import lowered_scores
from ...pipeline.other_heads import OTHER_HEAD_MARGIN, other_head_pairs, unparsed_other_head_pairs
from ..state import DecodingState
from ..step import DecodingStep


class OtherHeads(DecodingStep):
    name = "other_heads"

    def __init__(self, margin: float = OTHER_HEAD_MARGIN) -> None:
        self.margin = margin

    def scores(self, state: DecodingState) -> None:
        if state.parsed:
            other = other_head_pairs(state.doc, state.mentions.heads, state.scores.antecedents)
        else:
            other = unparsed_other_head_pairs(state.doc, state.spans, state.scores.antecedents)
        state.scores = lowered_scores(state.scores, other & state.valid(), self.margin)


@registry.misc("spacy_coref.decode.other_heads.v1")
def make_other_heads(margin: float = OTHER_HEAD_MARGIN) -> OtherHeads:
    """margin (float): how much a link to another head loses (tuned on the dev sets)."""
    return OtherHeads(margin=margin)
