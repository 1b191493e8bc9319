"""The component's `null_scores_by_form`: one-word mentions of these forms ("it", "they") get
their own score of "no antecedent". Not a named step: the decoder runs it before every step,
as a part of the model's calibration."""
from typing import Dict

from ..score_edits import with_null_scores_by_form
from ..state import DecodingState
from ..step import DecodingStep


class NullScoresByForm(DecodingStep):
    name = "null_scores_by_form"

    def __init__(self, by_form: Dict[str, float]) -> None:
        self.by_form = dict(by_form)

    def scores(self, state: DecodingState) -> None:
        state.scores = with_null_scores_by_form(
            state.doc, state.scores, state.spans, state.null_score, self.by_form
        )
