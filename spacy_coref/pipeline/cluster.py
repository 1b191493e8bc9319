"""`coref_cluster`: the trainable pipe that links candidate mentions into clusters."""
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

import numpy
import srsly
from spacy import util
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab
from thinc.api import Config, Model, Optimizer, set_dropout_rate

from ..annotations import (
    CLUSTER_PREFIX,
    GOLD_MENTIONS_KEY,
    MENTIONS_KEY,
    get_cluster_groups,
    get_doc_id,
    get_scheme,
    set_clusters,
    set_scheme,
)
from ..decoding import Decoder
from ..decoding.clustering import pair_score_tuples
from ..decoding.decoder import shortcut_decoder
from ..errors import Errors, Warnings, warn
from ..extensions import PAIR_SCORES_KEY, install_extensions
from ..profiling import WRITE, section
from ..linguistics.transcripts import mark_transcript_speakers
from ..ml.candidates import SPAN_SOURCES
from ..ml.s2e_coref import CorefScores, ensure_head
from ..training.losses import antecedent_loss, mention_loss, soft_antecedent_loss
from ..training.option_heads import match_option_heads
from ..training.silver import get_antecedent_targets
from ..types import MentionOffset
from .constraints import DEFAULT_CONSTRAINTS, check_constraints, check_null_scores_by_form
from .encoder_precision import PrecisionSetting

DEFAULT_COREF_CLUSTER_MODEL = """
[model]
@architectures = "spacy_coref.S2ECoref.v2"
hidden_width = 256
dropout = 0.3
top_lambda = 0.4
max_antecedents = 50
antecedent_window = 500
entity_equalization = true
candidates = "rules"
candidates_key = "coref_mentions"

[model.tok2vec]
@architectures = "spacy.HashEmbedCNN.v2"
pretrained_vectors = null
width = 96
depth = 4
embed_size = 2000
window_size = 1
maxout_pieces = 3
subword_features = true
"""
DEFAULT_MODEL = Config().from_str(DEFAULT_COREF_CLUSTER_MODEL)["model"]
# Settings read from the pipeline's config alone, never from the component's saved cfg.
CONFIG_ONLY = ("scheme", "constraints", "precision")  # and the decoder, which cfg never holds


@Language.factory(
    "coref_cluster",
    assigns=["doc.spans"],
    requires=["doc.spans"],
    default_config={
        "model": DEFAULT_MODEL,
        "spans_prefix": CLUSTER_PREFIX,
        "mention_loss_weight": 0.0,
        "null_score": 0.0,
        "null_scores_by_form": {},
        "store_scores": False,
        "learn_rate_scale": 1.0,
        "soft_target_weight": 0.0,
        "scheme": None,
        "constraints": list(DEFAULT_CONSTRAINTS),
        "decoder": None,
        "precision": None,
        "scorer": {"@scorers": "spacy_coref.coref_scorer.v1"},
    },
    default_score_weights={
        "coref_f": 1.0,
        "coref_muc_f": None,
        "coref_b3_f": None,
        "coref_ceafe_f": None,
        "coref_lea_f": None,
        "coref_mentions_f": None,
    },
)
def make_coref_cluster(
    nlp: Language,
    name: str,
    model: Model,
    spans_prefix: str,
    mention_loss_weight: float,
    null_score: float,
    null_scores_by_form: Dict[str, float],
    store_scores: bool,
    learn_rate_scale: float,
    soft_target_weight: float,
    scheme: Optional[str],
    constraints: List[str],
    decoder: Optional[Decoder],
    precision: Optional[str],
    scorer: Optional[Callable],
) -> "CorefCluster":
    """Link the candidate mentions in doc.spans["coref_mentions"] into clusters, written to
    doc.spans["{spans_prefix}_N"] (N from 1).

    model (Model): docs -> CorefScores, e.g. spacy_coref.S2ECoref.v2.
    spans_prefix (str): prefix of the cluster keys.
    mention_loss_weight (float): lambda of the mention cross-entropy added to the antecedent
        loss (useful with partial annotation such as GAP).
    null_score (float): the score of "no antecedent" when decoding (0 as in training); a lower
        value links more mentions.
    null_scores_by_form (Dict[str, float]): the score of "no antecedent" for one-word mentions
        of these forms (lower case), in place of `null_score`: {"it": -1.0} links "it" more
        readily than other mentions. {}: `null_score` for all.
    store_scores (bool): keep every scored pair in doc.user_data for Doc._.coref_scores.
    learn_rate_scale (float): the head's learning rate relative to the optimizer's, which a
        shared transformer is trained with (s2e trains its head about 30x faster).
    soft_target_weight (float): distillation: in training docs that hold a teacher's
        antecedent distributions (`spacy-coref distill-label --soft`), the weight w of the
        cross-entropy against them, the clusters' loss taking 1 - w; 0: the clusters alone.
    scheme (Optional[str]): for a model with annotation schemes (spacy_coref.S2ECoref.v2), the
        scheme to follow in docs that name none (e.g. "ontonotes" or "litbank"); None: the
        model's first.
    constraints (List[str]): grammatical constraints applied when decoding, read off the
        doc's parse: "agreement" (no cluster holds he and she, it and he/she, or they and
        he/she; gendered nouns and plural nouns count too), "binding" (an object is not
        its own clause's subject; a reflexive is), "quotes" (a quote's I is its speaker,
        its you the one it is said to), "names" (a name repeated is one entity),
        "distinct_names" (two people's names are never one entity), "indefinites" ("a
        new library" takes no antecedent), "contrasts" ("the old bridge" is not "the
        new bridge"), "same_head" (one of "Greta" and "Greta, who ..." per cluster, and
        the two clusters of such a pair joined), "cataphora" ("When she landed, the
        pilot ...": a pronoun before the subject it refers to), "groups" ("they" takes
        "the cat and the dog" rather than one of them), "whole_phrases" ("the house in
        Dublin" rather than "the house"), "other_heads" ("the plan" takes "the
        government" only on a high score) and "salience" (a "he" or "she" prefers a
        subject close by in its own role). By default all but "salience", which won
        beyond its bootstrap interval on no dev set; [] decodes the scores alone. The
        shortcut of `decoder`: the named steps with their default settings, in the
        decoding's own order.
    decoder (Optional[Decoder]): the decoding steps with their settings, in the order they
        run (spacy_coref.decoder.v1 with a section per step, spacy_coref.decode.NAME.v1);
        None: the steps `constraints` names.
    precision (Optional[str]): the numeric precision of the transformer this component reads
        (the upstream `transformer` its listener listens to, or its own after
        `replace_listeners`): "fp32", "bf16" (autocast) or "auto" (bf16 where the CPU or GPU
        computes it natively); None: the transformer's own setting. The head computes in
        float32 either way.
    scorer (Optional[Callable]): the scoring method.
    """
    return CorefCluster(
        nlp.vocab,
        model,
        name,
        spans_prefix=spans_prefix,
        mention_loss_weight=mention_loss_weight,
        null_score=null_score,
        null_scores_by_form=null_scores_by_form,
        store_scores=store_scores,
        learn_rate_scale=learn_rate_scale,
        soft_target_weight=soft_target_weight,
        scheme=scheme,
        constraints=constraints,
        decoder=decoder,
        precision=precision,
        scorer=scorer,
        nlp=nlp,
    )


class CorefCluster(PrecisionSetting, TrainablePipe):
    def __init__(
        self,
        vocab: Vocab,
        model: Model,
        name: str = "coref_cluster",
        *,
        spans_prefix: str = CLUSTER_PREFIX,
        mention_loss_weight: float = 0.0,
        null_score: float = 0.0,
        null_scores_by_form: Optional[Dict[str, float]] = None,
        store_scores: bool = False,
        learn_rate_scale: float = 1.0,
        soft_target_weight: float = 0.0,
        scheme: Optional[str] = None,
        constraints: Iterable[str] = DEFAULT_CONSTRAINTS,
        decoder: Optional[Decoder] = None,
        precision: Optional[str] = None,
        scorer: Optional[Callable] = None,
        nlp: Optional[Language] = None,
    ) -> None:
        install_extensions()
        self.vocab = vocab
        self.model = model
        self.name = name
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {
            "spans_prefix": spans_prefix,
            "mention_loss_weight": mention_loss_weight,
            "null_score": null_score,
            "null_scores_by_form": check_null_scores_by_form(null_scores_by_form or {}, name),
            "store_scores": store_scores,
            "learn_rate_scale": learn_rate_scale,
            "soft_target_weight": check_weight(soft_target_weight, name),
            "scheme": scheme,
            "constraints": self._step_names(constraints, decoder, name),
            "nI": None,
        }
        # the decoder of the steps cfg["constraints"] names (which evaluation may change)
        self.decoder = decoder
        if decoder is None:
            self.decoder = shortcut_decoder(tuple(self.cfg["constraints"]))
        self._sync_scheme()
        self._warned_unaligned = False  # CW100 is shown once per component
        self._init_precision(precision, nlp)

    @staticmethod
    def _step_names(constraints: Iterable[str], decoder: Optional[Decoder], name: str) -> List[str]:
        """cfg["constraints"]: the decoder's steps, or the shortcut's (checked). A config with
        a decoder leaves 'constraints' at its default or lists the decoder's steps (CE147)."""
        constraints = list(constraints)
        if decoder is None:
            return check_constraints(constraints, name)
        if constraints not in (list(DEFAULT_CONSTRAINTS), decoder.names):
            raise ValueError(Errors.CE147.format(
                name=name, decoder=decoder.names, constraints=constraints
            ))
        return decoder.names

    def current_decoder(self) -> Decoder:
        """The decoder of the steps cfg["constraints"] now names: the configured one, or its
        steps that remain (`compare --without`), with defaults for steps it does not have."""
        names = list(self.cfg.get("constraints", []))
        if names == self.decoder.names:
            return self.decoder
        return self.decoder.only(names)

    def __call__(self, doc: Doc) -> Doc:
        """Cluster one doc; a transcript without speakers gets them from its turn labels
        first (`linguistics/transcripts.py`)."""
        return super().__call__(mark_transcript_speakers(doc))

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Cluster a stream of docs, as `__call__`."""
        marked = (mark_transcript_speakers(doc) for doc in stream)
        return super().pipe(marked, batch_size=batch_size)

    def predict(self, docs: Iterable[Doc]) -> List[CorefScores]:
        """Score the candidates of each doc. Does not modify the docs."""
        docs = list(docs)
        if not docs:
            return []
        self._check_initialized()
        self._check_candidates(docs)
        self._sync_scheme()
        self._sync_precision()  # for the next batch: the upstream transformer ran already
        # Empty docs get empty scores without a forward pass: some encoders (spacy-transformers'
        # pooling) fail on a batch of only empty docs.
        nonempty = [i for i, doc in enumerate(docs) if len(doc)]
        scores = [empty_scores(self.model.ops)] * len(docs)
        if nonempty:
            for i, doc_scores in zip(nonempty, self.model.predict([docs[i] for i in nonempty])):
                scores[i] = doc_scores
        return scores

    def set_annotations(self, docs: Iterable[Doc], scores: List[CorefScores]) -> None:
        """Write the clusters (two or more mentions each) to doc.spans."""
        null_score = self.cfg.get("null_score", 0.0)
        by_form = self.cfg.get("null_scores_by_form", {})
        decode = self.current_decoder()
        for doc, doc_scores in zip(docs, scores):
            clusters = decode(doc, doc_scores, null_score, by_form)
            with section(WRITE):
                set_clusters(doc, clusters, self.cfg["spans_prefix"])
            if self.cfg["store_scores"]:
                doc.user_data[PAIR_SCORES_KEY] = pair_score_tuples(doc_scores)

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """One forward and backward pass over the whole batch (listeners require it)."""
        if losses is None:
            losses = {}
        losses.setdefault(self.name, 0.0)
        examples = list(examples)
        validate_examples(examples, "CorefCluster.update")
        if not any(len(eg.predicted) for eg in examples):
            return losses  # nothing to score (and some tok2vec layers fail on no tokens)
        self._check_initialized()
        docs = [eg.predicted for eg in examples]
        self._check_candidates(docs)
        self._sync_scheme()
        for eg in examples:
            # The gold doc's scheme is the one its clusters follow. Readers other than
            # spacy_coref.CoNLLCorpus.v1 (spacy.Corpus.v1) make predicted docs without it.
            if get_scheme(eg.predicted) is None:
                set_scheme(eg.predicted, get_scheme(eg.reference))
        set_dropout_rate(self.model, drop)
        scores, backprop = self.model.begin_update(docs)
        loss, d_scores = self.get_loss(examples, scores)
        backprop(d_scores)
        if sgd is not None:
            self.finish_update(sgd)
        losses[self.name] += loss
        return losses

    def finish_update(self, sgd: Optimizer) -> None:
        """Update the head's weights, at `learn_rate_scale` times the optimizer's rate."""
        scale = self.cfg.get("learn_rate_scale", 1.0)
        self.model.finish_update(sgd if scale == 1.0 else ScaledOptimizer(sgd, scale))

    def get_loss(
        self, examples: Iterable[Example], scores: List[CorefScores]
    ) -> Tuple[float, List[Tuple[Any, Any]]]:
        """Marginal log-likelihood of the gold antecedents (mixed with the cross-entropy
        against a teacher's distributions where a doc has them and `soft_target_weight` is
        set; plus the weighted mention loss), averaged over the docs of the batch."""
        examples = list(examples)
        ops = self.model.ops
        weight = self.cfg["mention_loss_weight"]
        soft = self.cfg.get("soft_target_weight", 0.0)
        total, grads = 0.0, []
        for eg, doc_scores in zip(examples, scores):
            cluster_of, labelled = gold_annotation(eg)
            self._warn_unaligned(eg, cluster_of)
            mention_labelled = labelled
            matched = match_option_heads(eg, cluster_of, labelled, doc_scores.candidates)
            if matched is not None:  # a pronoun problem: its options named by their heads
                cluster_of, labelled, mention_labelled = matched
            loss, d_pairs = antecedent_loss(doc_scores, cluster_of, labelled)
            targets = get_antecedent_targets(eg.reference) if soft else None
            if targets is not None:
                soft_loss, d_soft = soft_antecedent_loss(doc_scores, targets)
                loss = (1.0 - soft) * loss + soft * soft_loss
                d_pairs = (1.0 - soft) * d_pairs + soft * d_soft
            d_mentions = numpy.zeros(len(doc_scores.mention_scores), dtype="float32")
            if weight:
                m_loss, d_mentions = mention_loss(doc_scores, set(cluster_of), mention_labelled)
                loss += weight * m_loss
                d_mentions = weight * d_mentions
            total += loss
            grads.append((d_pairs, d_mentions))
        n = max(1, len(examples))
        return total / n, [(ops.asarray2f(d / n), ops.asarray1f(m / n)) for d, m in grads]

    def _warn_unaligned(self, eg: Example, cluster_of: Dict[MentionOffset, int]) -> None:
        # Gold mentions whose boundaries fall inside a predicted token cannot be trained on; say
        # so once per pipe instead of losing them silently (the corpus reader keeps the gold
        # tokenization, spacy.Corpus re-tokenizes the text).
        if self._warned_unaligned:
            return
        n_gold = count_gold_mentions(eg)
        if len(cluster_of) < n_gold:
            self._warned_unaligned = True
            doc_id = get_doc_id(eg.reference)["name"] or f"{eg.reference.text[:40]!r}..."
            warn(Warnings.CW100.format(
                name=self.name, n=n_gold - len(cluster_of), total=n_gold, doc=doc_id
            ))

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
    ) -> None:
        """Infer the input width and build the head. Works without gold clusters."""
        validate_get_examples(get_examples, "CorefCluster.initialize")
        sample = [eg.predicted for eg in islice(get_examples(), 10)]
        self.model.initialize(X=sample or None)
        self.cfg["nI"] = self.model.get_dim("nI")
        self._sync_precision(nlp)

    def use_scheme(self, scheme: Optional[str]) -> None:
        """Follow this annotation scheme in docs that name none (None: the model's first). For
        this run: a saved pipeline follows its config's `scheme` setting.

        scheme (Optional[str]): one of the model's schemes.
        """
        self.cfg["scheme"] = scheme
        self._sync_scheme()

    def _sync_scheme(self) -> None:
        """Hand the `scheme` setting to the model, which reads it for docs that name no scheme.
        (Done before each use: loading the model's bytes restores the attribute it was saved
        with.)"""
        scheme = self.cfg.get("scheme")
        schemes = self.model.attrs.get("schemes", [])
        if scheme is not None and scheme not in schemes:
            raise ValueError(Errors.CE107.format(name=self.name, scheme=scheme, schemes=schemes))
        self.model.attrs["default_scheme"] = scheme

    def _check_initialized(self) -> None:
        if not self.model.has_ref("head"):
            raise ValueError(Errors.CE101)

    def _check_candidates(self, docs: List[Doc]) -> None:
        candidates = self.model.attrs.get("candidates", {})
        if candidates.get("source", "rules") in SPAN_SOURCES:
            return
        key = candidates.get("key", MENTIONS_KEY)
        if any(len(doc) and key not in doc.spans for doc in docs):
            raise ValueError(Errors.CE102.format(key=key, name=self.name))

    def _ensure_head(self) -> None:
        if self.cfg.get("nI"):
            ensure_head(self.model, self.cfg["nI"])

    def _load_cfg(self, data: Union[bytes, str], source: Union[str, Path]) -> None:
        # A damaged file must fail here, naming itself, not later as a shape error in the model.
        try:
            cfg = srsly.json_loads(data)
        except ValueError as e:  # also not UTF-8
            found = f"it is not JSON ({' '.join(str(e).split())[:100]})"
            raise ValueError(Errors.CE221.format(name=self.name, path=source, found=found)) from e
        if not isinstance(cfg, dict) or not isinstance(cfg.get("nI", 0), (int, type(None))):
            found = f"found {str(cfg)[:100]!r}"
            raise ValueError(Errors.CE221.format(name=self.name, path=source, found=found))
        for key in CONFIG_ONLY:  # the pipeline's config sets them, as for a new pipe
            cfg.pop(key, None)
        by_form = cfg.get("null_scores_by_form")
        if by_form is not None:  # absent from pipelines saved before the setting
            if not isinstance(by_form, dict):
                found = f"'null_scores_by_form' is {by_form!r}, not a mapping"
                raise ValueError(Errors.CE221.format(name=self.name, path=source, found=found))
            cfg["null_scores_by_form"] = check_null_scores_by_form(by_form, self.name)
        self.cfg.update(cfg)

    def _saved_cfg(self) -> Dict[str, Any]:
        # left out: they come from the config (use_scheme changes `scheme` for this run)
        return {key: value for key, value in self.cfg.items() if key not in CONFIG_ONLY}

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        serialize = {
            "cfg": lambda: srsly.json_dumps(self._saved_cfg()),
            "model": lambda: self.model.to_bytes(),
        }
        return util.to_bytes(serialize, exclude)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "CorefCluster":
        def load_model(b: bytes) -> None:
            self._ensure_head()
            try:
                load_weights(self.model, b)
            except Exception as e:  # any failure to parse names the file
                raise ValueError(Errors.CE103.format(name=self.name, path="<bytes>")) from e

        deserialize = {
            "cfg": lambda b: self._load_cfg(b, "<bytes>"),
            "model": load_model,
        }
        util.from_bytes(bytes_data, deserialize, exclude)
        self._sync_precision()
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        serialize = {
            "cfg": lambda p: srsly.write_json(p, self._saved_cfg()),
            "model": lambda p: self.model.to_disk(p),
        }
        util.to_disk(path, serialize, exclude)

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()
    ) -> "CorefCluster":
        path = Path(path)

        def load_cfg(p: Path) -> None:
            if not p.exists():
                raise ValueError(Errors.CE104.format(name=self.name, path=p))
            self._load_cfg(p.read_bytes(), p)

        def load_model(p: Path) -> None:
            if not p.exists():
                raise ValueError(Errors.CE104.format(name=self.name, path=p))
            self._ensure_head()
            try:
                load_weights(self.model, p.read_bytes())
            except Exception as e:  # any failure to parse names the file
                raise ValueError(Errors.CE103.format(name=self.name, path=p)) from e

        util.from_disk(path, {"cfg": load_cfg, "model": load_model}, exclude)
        self._sync_precision()
        return self


class ScaledOptimizer:
    """An optimizer that scales the learning rate of another (Thinc's Optimizer has one rate;
    its `lr_scale` argument is per call)."""

    def __init__(self, optimizer: Optimizer, scale: float) -> None:
        self.optimizer = optimizer
        self.scale = scale

    def __call__(self, key, weights, gradient, *, lr_scale: float = 1.0):
        return self.optimizer(key, weights, gradient, lr_scale=lr_scale * self.scale)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.optimizer, name)


def load_weights(model: Model, data: bytes) -> None:
    """Load a model's weights from bytes, keeping the settings its config built it with: Thinc's
    from_bytes also restores the attrs saved with the weights, so an edited config (schemes
    added to a trained model, say) would otherwise be overridden by the saved one."""
    configured = dict(model.attrs)
    model.from_bytes(data)
    model.attrs.update(configured)


def check_weight(value: Any, name: str) -> float:
    """The soft target weight of a component setting, checked (CE118)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(Errors.CE118.format(name=name, value=value))
    return float(value)


def empty_scores(ops) -> CorefScores:
    """The scores of a doc without tokens."""
    return CorefScores(
        ops.alloc2i(0, 2), ops.alloc1f(0), ops.alloc1i(0), ops.alloc2i(0, 0), ops.alloc2f(0, 1)
    )


def count_gold_mentions(eg: Example) -> int:
    """The number of distinct mention spans of the reference clusters."""
    spans = {(s.start, s.end) for group in get_cluster_groups(eg.reference) for s in group}
    return len(spans)


def gold_annotation(eg: Example) -> Tuple[Dict[MentionOffset, int], Optional[Set[MentionOffset]]]:
    """The reference clusters mapped onto the predicted doc's tokens: mention -> cluster id, and
    the labelled mentions when the reference is only partially annotated (GAP)."""
    cluster_of: Dict[MentionOffset, int] = {}
    for i, group in enumerate(get_cluster_groups(eg.reference)):
        for span in eg.get_aligned_spans_y2x(group, allow_overlap=True):
            # a span in two gold clusters (rare in OntoGUM) keeps its first cluster
            cluster_of.setdefault((span.start, span.end), i)
    labelled = None
    if GOLD_MENTIONS_KEY in eg.reference.spans:
        gold_mentions = eg.reference.spans[GOLD_MENTIONS_KEY]
        aligned = eg.get_aligned_spans_y2x(gold_mentions, allow_overlap=True)
        labelled = {(span.start, span.end) for span in aligned}
    return cluster_of, labelled
