"""The interface of a decoding step. A step takes part in one or more of the decoder's three
stages, which run in this order on one `DecodingState`:

* "scores": it edits the antecedent scores (`state.scores`) before clustering;
* "masks": it adds what clustering must respect: forbidden or required (mention, antecedent)
  pairs, agreement classes, people's names (`state.forbid`, `state.require`, ...);
* "clusters": it rewrites the clusters that clustering made (`state.clusters`).

A step overrides the method of each stage it takes part in; the others stay no-ops. A step
that `needs_parse` is skipped on a doc without a dependency parse (the fast pipeline's).
Steps are registered in `registry.misc` as `spacy_coref.decode.NAME.v1`, their settings are
the registered function's arguments, and a step never keeps state between docs.
"""
from typing import TYPE_CHECKING, Tuple

if TYPE_CHECKING:
    from .state import DecodingState

STAGES = ("scores", "masks", "clusters")


class DecodingStep:
    """A decoding step: `name` (the one the setting 'constraints' lists), whether it needs a
    parse, and a call per stage on the decoding state."""

    name: str = ""
    needs_parse: bool = False
    # Where the shortcut `constraints = [...]` puts the step in each stage: lower runs first.
    # Configs that list the steps themselves run them in the config's order instead.
    rank: int = 0

    def scores(self, state: "DecodingState") -> None:
        """Edit `state.scores` (stage "scores")."""

    def masks(self, state: "DecodingState") -> None:
        """Add pairs, classes or names for clustering (stage "masks")."""

    def clusters(self, state: "DecodingState") -> None:
        """Rewrite `state.clusters` (stage "clusters")."""

    @property
    def stages(self) -> Tuple[str, ...]:
        """The stages the step takes part in: those whose method it overrides."""
        return tuple(
            stage for stage in STAGES
            if getattr(type(self), stage) is not getattr(DecodingStep, stage)
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
