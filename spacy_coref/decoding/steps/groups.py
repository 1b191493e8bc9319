"""groups: "the cat and the dog ... they" is the pair, not one of them (`pipeline/groups.py`)."""
from spacy.util import registry

from ...pipeline.groups import group_member_antecedents
from ..state import DecodingState
from ..step import DecodingStep


class Groups(DecodingStep):
    name = "groups"

    def masks(self, state: DecodingState) -> None:
        state.constrained = True
        members = group_member_antecedents(
            state.doc, state.spans.tolist(), state.mentions.heads, state.antecedents,
            state.valid(),
        )
        state.forbid(members)


@registry.misc("spacy_coref.decode.groups.v1")
def make_groups() -> Groups:
    return Groups()
