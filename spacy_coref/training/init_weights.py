"""`spacy_coref.init_coref_weights.v1`: an [initialize.after_init] callback that starts training
from pre-trained `coref_cluster` weights (the output of `spacy-coref pretrain`, or a trained
pipeline's component) and, optionally, a trained encoder:

    [initialize.after_init]
    @callbacks = "spacy_coref.init_coref_weights.v1"
    path = ${paths.init_coref}
    encoder_path = ${paths.init_encoder}

With `path = null` it does nothing. Only the weights are loaded: the component's settings
(`null_score`, `mention_loss_weight`, ...) stay those of the training config. An exported model
(`spacy-coref export-default`, e.g. the shipped `spacy_coref/accurate_model`) stores only the
encoder weights that training changed, in `encoder_changes.safetensors`: with `path` set to it,
they are copied into the encoder as published, so a round goes on from the shipped weights.
A head saved without Entity Equalization, loaded where the config turns it on, gets a gate that
starts nearly shut (`S2ECorefHead.start_entity_equalization`): its own was never trained.
"""

import logging
from pathlib import Path
from typing import Callable, Optional

import srsly
from spacy.language import Language
from spacy.util import registry

from ..errors import Errors
from ..ml.s2e_coref import head_module
from ..pipeline.coref import ENCODER_CHANGES, load_encoder_changes

logger = logging.getLogger("spacy_coref")


@registry.callbacks("spacy_coref.init_coref_weights.v1")
def create_init_coref_weights(
    path: Optional[Path] = None,
    component: str = "coref_cluster",
    encoder_path: Optional[Path] = None,
) -> Callable[[Language], Language]:
    """Load pre-trained weights into a component after initialization.

    path (Optional[Path]): a pre-training output directory (with a `coref_cluster`
        subdirectory, and `encoder` when the encoder was pre-trained too), a trained pipeline
        directory or a saved component directory (with `cfg` and `model`); None: do nothing.
    component (str): the component to load into.
    encoder_path (Optional[Path]): a saved encoder component (e.g. a trained pipeline's
        `transformer` directory) or an exported model's `encoder_changes.safetensors`, to load
        into the component's upstream encoder and go on fine-tuning both; None: the `encoder`
        subdirectory or the `encoder_changes.safetensors` of `path`, where there is one.
    RETURNS (Callable[[Language], Language]): the callback.
    """

    def init_coref_weights(nlp: Language) -> Language:
        if path is None:
            if encoder_path is not None:
                raise ValueError(Errors.CE269.format(path=encoder_path))
            return nlp
        root = Path(path)
        encoder_dir = Path(encoder_path) if encoder_path is not None else root / "encoder"
        if encoder_path is None and (root / ENCODER_CHANGES).is_file():
            encoder_dir = root / ENCODER_CHANGES
        encoder = encoder_of(nlp, component) if component in nlp.component_names else None
        is_changes = encoder_dir.is_file() and encoder_dir.name.endswith(".safetensors")
        # checked before anything is loaded, so a wrong path changes nothing
        if encoder_path is not None and (
            encoder is None or not (encoder_dir.is_dir() or is_changes)
        ):
            raise ValueError(Errors.CE269.format(path=encoder_dir))
        component_dir = root / component if (root / component).is_dir() else root
        load_component_weights(nlp, component, component_dir)
        if encoder is not None and is_changes:
            load_encoder_changes(nlp.get_pipe(encoder).model.transformer, encoder_dir)
            logger.info("Loaded the encoder changes of '%s' from %s", encoder, encoder_dir)
        elif encoder_dir.is_dir() and encoder is not None:
            # the vocab is the pipeline's own (a saved component directory may not have one)
            nlp.get_pipe(encoder).from_disk(encoder_dir, exclude=["vocab"])
            logger.info("Loaded the encoder '%s' from %s", encoder, encoder_dir)
        return nlp

    return init_coref_weights


def load_component_weights(nlp: Language, component: str, directory: Path) -> None:
    """Load the `model` file of a saved component into the pipeline's initialized component,
    after checking that the input widths agree."""
    if component not in nlp.component_names:
        raise ValueError(Errors.CE264.format(name=component, names=nlp.component_names))
    cfg_path, model_path = directory / "cfg", directory / "model"
    if not cfg_path.exists() or not model_path.exists():
        raise ValueError(Errors.CE263.format(path=directory, component=component))
    pipe = nlp.get_pipe(component)
    saved_width = srsly.read_json(cfg_path).get("nI")
    width = pipe.cfg.get("nI")
    if saved_width != width:
        raise ValueError(
            Errors.CE265.format(path=directory, saved=saved_width, width=width, name=component)
        )
    # the weights come from the file, the settings (model attrs, e.g. where the candidates come
    # from) from the config being trained: thinc's from_bytes would restore the saved ones
    configured = [dict(node.attrs) for node in pipe.model.walk()]
    try:
        pipe.model.from_bytes(model_path.read_bytes())
    except Exception as e:  # any mismatch in the layer tree names the file
        raise ValueError(Errors.CE266.format(path=model_path, name=component, error=e)) from e
    saved_head = dict(pipe.model.attrs.get("head_cfg", {}))
    for node, attrs in zip(pipe.model.walk(), configured):
        node.attrs.clear()
        node.attrs.update(attrs)
    logger.info("Loaded pre-trained weights into '%s' from %s", component, directory)
    head_cfg = pipe.model.attrs.get("head_cfg", {})
    if head_cfg.get("entity_equalization") and saved_head.get("entity_equalization") is False:
        # the saved gate was never trained: it would mix in half of the entity at the first step
        head_module(pipe.model).start_entity_equalization()
        logger.info("Entity Equalization starts with its gate nearly shut in '%s'", component)


def encoder_of(nlp: Language, component: str = "coref_cluster") -> Optional[str]:
    """The upstream component whose listener feeds the component's model, if any. Disabled
    components count: `spacy train` disables the frozen ones while `after_init` runs."""
    tok2vec = nlp.get_pipe(component).model.get_ref("tok2vec")
    for node in tok2vec.walk():
        if getattr(node, "upstream_name", None) in nlp.component_names:
            return node.upstream_name
    return None
