"""The `precision` setting of `coref_cluster` and `coref`: the transformer encoders it reaches.

A `spacy_coref.SegmentTransformerModel` reads `model.attrs["precision"]` at every forward pass
(a v1 model lacks the attr, which means float32), so the setting is applied by writing that
attr. A `coref_cluster` reads its encoder in one of two ways: through a `TransformerListener`,
whose upstream is the pipeline's `transformer` component (found through the component's
`listener_map`, which spaCy fills when it links the pipeline), or with the encoder inside its
own model (after `nlp.replace_listeners`). Only the encoder changes precision: its output is
float32, and so is everything the coreference head computes.

Limits: the upstream is looked up in the pipeline that built the component (its factory's
`nlp`, or the one `initialize` gets), so a component sourced into another pipeline reaches the
new pipeline's transformer only after `initialize` or when the source pipeline shares it. The
transformer component saves its attrs with its weights: a pipeline saved with a `coref_cluster`
setting keeps that precision in its transformer even if the setting is later set to null (set
"fp32" instead). The `coref` stack saves its inner pipeline with the inner setting, and its own
lives in the host's config.
"""
import weakref
from typing import Dict, List, Optional, Tuple

from spacy.language import Language
from spacy_transformers.layers.listener import TransformerListener
from spacy_transformers.layers.transformer_model import TransformerModel
from thinc.api import Model

from ..errors import Warnings, warn
from ..ml.precision import check_precision

PRECISION_ATTR = "precision"

# The encoders a setting changed and the value each had before (None: no attr, i.e. float32).
Replaced = List[Tuple[Model, Optional[str]]]


class PipelineRef:
    """A weak reference to the pipeline that built a component, for finding the component's
    upstream. It pickles as empty: a copy in another process (`nlp.pipe(n_process=2)` with
    spawn) has no use for it, because the encoders it reached carry their setting along."""

    def __init__(self, nlp: Optional[Language] = None) -> None:
        self._ref = weakref.ref(nlp) if nlp is not None else None

    def __call__(self) -> Optional[Language]:
        return self._ref() if self._ref is not None else None

    def __reduce__(self):
        return (PipelineRef, ())


def inner_encoders(model: Model) -> List[Model]:
    """The transformer models inside a model (e.g. after `replace_listeners`)."""
    return [node for node in model.walk() if isinstance(node, TransformerModel)]


def reads_transformer(model: Model) -> bool:
    """Whether a model reads a transformer: its own, or one it listens to."""
    return any(isinstance(node, (TransformerModel, TransformerListener)) for node in model.walk())


def listened_encoders(nlp: Optional[Language], model: Model) -> List[Model]:
    """The transformer models of the upstream components that `model`'s listeners listen to.

    nlp (Optional[Language]): the pipeline holding the upstream components (None: no upstream
        can be found).
    model (Model): the listening component's model.
    RETURNS (List[Model]): the upstream transformer models.
    """
    listeners = [node for node in model.walk() if isinstance(node, TransformerListener)]
    if nlp is None or not listeners:
        return []
    ids = {id(node) for node in listeners}
    found: List[Model] = []
    for name, proc in nlp.components:
        listener_map = getattr(proc, "listener_map", None)
        model_of_proc = getattr(proc, "model", None)
        if not isinstance(listener_map, dict) or not isinstance(model_of_proc, Model):
            continue
        linked = any(id(node) in ids for nodes in listener_map.values() for node in nodes)
        # before spaCy links the pipeline, the listener's upstream name says it
        named = any(node.upstream_name == name for node in listeners)
        if linked or named:
            found.extend(inner_encoders(model_of_proc))
    return found


def set_precision(encoders: List[Model], precision: str, replaced: Replaced) -> None:
    """Write `precision` to each encoder's attrs, keeping the value it had before in `replaced`
    (the first time only, so that it stays the encoder's own value)."""
    for encoder in encoders:
        if encoder.attrs.get(PRECISION_ATTR) != precision:
            if not any(known is encoder for known, _ in replaced):
                replaced.append((encoder, encoder.attrs.get(PRECISION_ATTR)))
            encoder.attrs[PRECISION_ATTR] = precision


def restore_precision(replaced: Replaced) -> None:
    """Give each encoder in `replaced` back the precision it had before, and empty `replaced`."""
    for encoder, own in replaced:
        if own is None:
            encoder.attrs.pop(PRECISION_ATTR, None)
        else:
            encoder.attrs[PRECISION_ATTR] = own
    replaced.clear()


class PrecisionSetting:
    """The `precision` setting of a component with a `model` and a `cfg` (`coref_cluster`): the
    component keeps a weak reference to its pipeline, to find the upstream transformer."""

    name: str
    model: Model
    cfg: Dict

    def use_precision(self, precision: Optional[str]) -> None:
        """Run the transformer this component reads at this precision (None: give it back its
        own). For this run: a saved pipeline follows its config's `precision` setting.

        precision (Optional[str]): "fp32", "bf16", "auto" or None.
        """
        self.cfg["precision"] = None if precision is None else check_precision(precision)
        self._sync_precision()

    def encoders(self) -> List[Model]:
        """The transformer models this component reads: its own, or the upstream one.

        RETURNS (List[Model]): the transformer models.
        """
        return inner_encoders(self.model) + listened_encoders(self._nlp(), self.model)

    def _init_precision(self, precision: Optional[str], nlp: Optional[Language]) -> None:
        self.cfg["precision"] = None if precision is None else check_precision(precision)
        self._nlp = PipelineRef(nlp)
        self._replaced_precision: Replaced = []
        self._warned_precision = False  # CW380 is shown once per component
        self._sync_precision()

    def _sync_precision(self, nlp: Optional[Language] = None) -> None:
        """Hand the `precision` setting to the encoders (at construction, initialization,
        loading and before each batch: loading the transformer restores the attrs it was saved
        with). `nlp`: the pipeline, where the caller has it (`initialize`)."""
        if nlp is not None:
            self._nlp = PipelineRef(nlp)
        precision = self.cfg.get("precision")
        if precision is None:
            restore_precision(self._replaced_precision)
            return
        if not self._warned_precision and not reads_transformer(self.model):
            self._warned_precision = True
            warn(Warnings.CW380.format(name=self.name, precision=precision))
        set_precision(self.encoders(), precision, self._replaced_precision)
