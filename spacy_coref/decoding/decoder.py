"""The decoder: a doc's clusters from its antecedent scores, through the decoding steps.

It runs the stages in order ("scores", then "masks", then clustering, then "clusters"), and
within a stage the steps in the decoder's order. A config lists the steps in the order they
run:

    [components.coref_cluster.decoder]
    @misc = "spacy_coref.decoder.v1"

    [components.coref_cluster.decoder.*.salience]
    @misc = "spacy_coref.decode.salience.v1"
    scale = 0.5

The shortcut `constraints = ["agreement", ...]` (every config and saved model before the
decoder) names the steps with their default settings, and runs them in ORDER whatever order
it lists them in, as the decoding always did.
"""
import functools
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from catalogue import RegistryError
from spacy.tokens import Doc
from spacy.util import registry

from ..errors import Errors
from ..profiling import CLUSTERING, DECODING, STEP_PREFIX, section
from ..linguistics.mention_analysis import one_entity_ids
from ..linguistics.mention_classes import ALL_CLASSES, UNPARSED_CUT_CLASSES
from ..linguistics.person_names import names_clash
from ..types import ClusterOffsets, CorefScores
from .clustering import constrained_clusters, predict_clusters
from .state import DecodingState
from .step import DecodingStep
from .steps.null_scores_by_form import NullScoresByForm

# The steps' names in the order the shortcut runs them. Within "scores": a "he"'s salience
# before the whole-name edit that takes the better of two of its scores; within "clusters":
# possessors parted before repeated names merge clusters, quotes after those, and the whole
# phrases last, as the other steps read the mentions the model linked.
ORDER = (
    "salience", "indefinites", "other_heads", "agreement", "binding", "contrasts", "groups",
    "distinct_names", "names", "quotes", "cataphora", "same_head", "whole_phrases",
)
STEP_FUNCTION = "spacy_coref.decode.{name}.v1"


class Decoder:
    """Decoding steps in the order they run within each stage."""

    def __init__(self, steps: Iterable[DecodingStep]) -> None:
        self.steps: Tuple[DecodingStep, ...] = tuple(steps)
        names = [step.name for step in self.steps]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(Errors.CE144.format(repeated=repeated, names=names))

    @property
    def names(self) -> List[str]:
        return [step.name for step in self.steps]

    def only(self, names: Sequence[str]) -> "Decoder":
        """A decoder of the steps `names`: this decoder's own (with their settings, in its
        order) where it has them all, else every step in ORDER, this decoder's where it has
        it and the registered default otherwise."""
        own = {step.name: step for step in self.steps}
        if all(name in own for name in names):
            return Decoder(step for step in self.steps if step.name in set(names))
        return Decoder(own.get(name) or default_step(name) for name in in_order(names))

    def __call__(
        self,
        doc: Doc,
        scores: CorefScores,
        null_score: float,
        null_scores_by_form: Optional[Dict[str, float]] = None,
    ) -> ClusterOffsets:
        """The clusters of one doc.

        doc (Doc): the doc the scores are for.
        scores (CorefScores): the model's output for the doc.
        null_score (float): the score of "no antecedent".
        null_scores_by_form (Optional[Dict[str, float]]): the score of "no antecedent" for
            one-word mentions of these forms (lower case), in place of `null_score`; applied
            before every step, as a part of the model's calibration.
        RETURNS (List[List[Tuple[int, int]]]): clusters, each sorted, in document order.
        """
        with section(DECODING):
            state = DecodingState(doc, scores, null_score, frozenset(self.names))
            steps = [step for step in self.steps if state.parsed or not step.needs_parse]
            if null_scores_by_form:
                steps.insert(0, NullScoresByForm(null_scores_by_form))
            timed = [(step, STEP_PREFIX + step.name) for step in steps]
            if state.n_mentions:
                for step, name in timed:
                    with section(name):
                        step.scores(state)
                for step, name in timed:
                    with section(name):
                        step.masks(state)
            with section(CLUSTERING):
                state.clusters = cluster(state)
            for step, name in timed:
                with section(name):
                    step.clusters(state)
            return state.clusters


def cluster(state: DecodingState) -> ClusterOffsets:
    """The clusters of the best antecedents, under what the "masks" steps added."""
    if not state.n_mentions or not state.constrained:
        return predict_clusters(state.scores, state.null_score)
    return constrained_clusters(
        state.scores,
        state.null_score,
        classes=state.classes,
        conflicts=state.conflicts,
        forbidden=state.forbidden,
        required=state.required,
        names=state.names,
        clash=names_clash,
        cut_classes=ALL_CLASSES if state.parsed else UNPARSED_CUT_CLASSES,
        same_entity=one_entity_ids(state.doc, state.mentions),
    )


def in_order(names: Iterable[str]) -> List[str]:
    """The step names in the shortcut's ORDER (names not in ORDER last, as given)."""
    names = list(dict.fromkeys(names))
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(names, key=lambda name: rank.get(name, len(ORDER)))


def default_step(name: str) -> DecodingStep:
    """The registered step `spacy_coref.decode.NAME.v1` with its default settings."""
    try:
        make = registry.misc.get(STEP_FUNCTION.format(name=name))
    except RegistryError:  # not a registered step
        raise ValueError(Errors.CE145.format(name=name, valid=registered_steps())) from None
    return make()


def registered_steps() -> List[str]:
    """The names of the registered decoding steps."""
    prefix, suffix = STEP_FUNCTION.split("{name}")
    found = [
        key[len(prefix): -len(suffix)]
        for key in registry.misc.get_all()
        if key.startswith(prefix) and key.endswith(suffix)
    ]
    return in_order(found)


@functools.lru_cache(maxsize=64)
def shortcut_decoder(names: Tuple[str, ...]) -> Decoder:
    """The decoder of the shortcut `constraints = [...]`: the named steps, default settings."""
    return Decoder(default_step(name) for name in in_order(names))


def decode_clusters(
    doc: Doc,
    scores: CorefScores,
    null_score: float,
    constraints: Sequence[str],
    null_scores_by_form: Optional[Dict[str, float]] = None,
) -> ClusterOffsets:
    """The clusters of one doc under the steps named `constraints` (the shortcut), with their
    default settings; empty: the plain best antecedent."""
    return shortcut_decoder(tuple(constraints))(doc, scores, null_score, null_scores_by_form)


@registry.misc("spacy_coref.decoder.v1")
def make_decoder(*steps: DecodingStep) -> Decoder:
    """A decoder of these steps (`[...decoder.*.NAME]` sections), run in this order within
    each stage."""
    return Decoder(steps)
