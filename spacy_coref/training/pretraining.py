"""Self-supervised pre-training of the coreference model on unlabeled text (seed 000).

Each text becomes one example of one kind, never both (appendix A.2):
* names: repeated PERSON names found by NER define clusters; their words are masked (80/10/10)
  and the coreference loss is the partial-annotation loss of `coref_cluster`, restricted to
  those mentions (the reference carries them in doc.spans["coref_gold_mentions"]);
* pronouns: third-person personal pronouns are masked and predicted from their mention
  representation by a one-hidden-layer FFNN (`pronoun_head.py`); masculine ones are down-sampled.
Every batch holds both kinds. The encoder's input is the masked text, so the recipe works with a
frozen encoder (listed in [training.frozen_components]: it runs once over the masked docs and
only the coreference head and the FFNN train) and with a fine-tuned one (updated through its
listener). The output initialises `spacy train` through `spacy_coref.init_coref_weights.v1`.
"""

import logging
import random
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy
import srsly
from spacy import util
from spacy.language import Language
from spacy.schemas import ConfigSchemaTraining
from spacy.tokens import Doc
from spacy.training import Example
from thinc.api import Config, Model, Optimizer, set_dropout_rate
from thinc.types import Floats2d

from ..annotations import GOLD_MENTIONS_KEY, MENTIONS_KEY, set_clusters
from ..errors import Errors
from ..ml.s2e_coref import CorefScores, head_inputs, head_module
from ..types import MentionOffset
from .init_weights import encoder_of
from .masking import PRONOUN_CLASSES, mask_spans, name_clusters, pronoun_targets
from .pronoun_head import build_pronoun_model, pronoun_loss
from .unlabeled import read_texts

logger = logging.getLogger("spacy_coref")

NAMES, PRONOUNS = "names", "pronouns"
COMPONENT = "coref_cluster"
DEFAULT_MASK_TOKEN = "[MASK]"


@dataclass
class PretrainingExample:
    kind: str  # NAMES or PRONOUNS
    example: Example  # masked predicted doc; for names, a reference with the name clusters
    pronouns: List[Tuple[int, int]] = field(default_factory=list)  # (token, class) to predict


def mask_token_of(nlp: Language, encoder: Optional[str]) -> str:
    """The encoder tokenizer's mask token ("[MASK]" for BERT, "<mask>" for RoBERTa)."""
    tokenizer = None
    if encoder is not None:
        model = nlp.get_pipe(encoder).model
        tokenizer = getattr(model, "tokenizer", None)
        name = model.attrs.get("name")
        if tokenizer is None and isinstance(name, str):
            # an uninitialized transformer has no tokenizer yet: load the encoder's own
            from transformers import AutoTokenizer

            tokenizer = AutoTokenizer.from_pretrained(name)
    return getattr(tokenizer, "mask_token", None) or DEFAULT_MASK_TOKEN


def make_examples(
    docs: Sequence[Doc],
    rng: random.Random,
    *,
    mask_token: str = DEFAULT_MASK_TOKEN,
    random_words: Sequence[str] = (),
) -> List[PretrainingExample]:
    """One masked example per parsed doc, of one kind: the kind the doc allows, or where it
    allows both, the kind with fewer examples so far (name examples are the rarer); docs with
    neither repeated names nor pronouns are left out.

    docs (Sequence[Doc]): docs with entities, POS tags and doc.spans["coref_mentions"].
    rng (random.Random): the random source of masking and down-sampling.
    mask_token (str): the encoder's mask token.
    random_words (Sequence[str]): replacement words (default: the docs' own alphabetic words).
    RETURNS (List[PretrainingExample]): the examples.
    """
    if not random_words:
        random_words = sorted({t.text for doc in docs for t in doc if t.is_alpha})
    examples = []
    counts = {NAMES: 0, PRONOUNS: 0}
    for doc in docs:
        clusters = name_clusters(doc)
        pronouns = pronoun_targets(doc, rng)
        kinds = sorted(
            (k for k, ok in ((NAMES, clusters), (PRONOUNS, pronouns)) if ok), key=counts.__getitem__
        )
        kind = kinds[0] if kinds else None
        if kind is not None:
            counts[kind] += 1
        if kind == NAMES:
            examples.append(name_example(doc, clusters, rng, mask_token, random_words))
        elif kind == PRONOUNS:
            examples.append(pronoun_example(doc, pronouns, rng, mask_token, random_words))
    return examples


def name_example(
    doc: Doc,
    clusters: List[List[MentionOffset]],
    rng: random.Random,
    mask_token: str,
    random_words: Sequence[str],
) -> PretrainingExample:
    """Names masked; the reference holds their clusters and marks them as the only labelled
    mentions, so the partial-annotation loss of `coref_cluster` is restricted to them."""
    spans = [mention for cluster in clusters for mention in cluster]
    words, _ = mask_spans(
        doc_words(doc), spans, rng, mask_token=mask_token, random_words=random_words
    )
    predicted = masked_copy(doc, words, extra_candidates=spans)
    reference = masked_copy(doc, words, extra_candidates=None)
    set_clusters(reference, clusters)
    reference.spans[GOLD_MENTIONS_KEY] = [reference[s:e] for s, e in spans]
    return PretrainingExample(NAMES, Example(predicted, reference))


def pronoun_example(
    doc: Doc,
    pronouns: List[Tuple[int, int]],
    rng: random.Random,
    mask_token: str,
    random_words: Sequence[str],
) -> PretrainingExample:
    """Pronouns masked; the targets are their classes (the reference has no clusters)."""
    spans = [(i, i + 1) for i, _ in pronouns]
    words, _ = mask_spans(
        doc_words(doc), spans, rng, mask_token=mask_token, random_words=random_words
    )
    predicted = masked_copy(doc, words, extra_candidates=[])
    reference = masked_copy(doc, words, extra_candidates=None)
    return PretrainingExample(PRONOUNS, Example(predicted, reference), pronouns)


def doc_words(doc: Doc) -> List[str]:
    return [t.text for t in doc]


def masked_copy(
    doc: Doc, words: List[str], *, extra_candidates: Optional[List[MentionOffset]]
) -> Doc:
    """The doc with masked words and the same token offsets. With `extra_candidates` (a list),
    the original's candidate mentions are kept, plus those spans (the masked names must be
    candidates for the coreference loss to see them)."""
    copy = Doc(doc.vocab, words=words, spaces=[bool(t.whitespace_) for t in doc])
    if extra_candidates is not None:
        pairs = [(s.start, s.end) for s in doc.spans.get(MENTIONS_KEY, [])]
        pairs = sorted(set(pairs) | set(extra_candidates))
        copy.spans[MENTIONS_KEY] = [copy[s:e] for s, e in pairs]
    return copy


def parse_texts(nlp: Language, texts: Sequence[str], *, skip: Sequence[str]) -> List[Doc]:
    """Run the pipeline's analysis components (parser, NER, `coref_mentions`) on the texts."""
    with nlp.select_pipes(disable=[name for name in skip if name in nlp.pipe_names]):
        return list(nlp.pipe(texts, batch_size=nlp.batch_size))


def alternating_batches(
    examples: List[PretrainingExample], batch_size: int, rng: random.Random
) -> Iterator[List[PretrainingExample]]:
    """Endless batches holding both kinds (half each where both exist), reshuffled per pass."""
    pools = [[eg for eg in examples if eg.kind == kind] for kind in (NAMES, PRONOUNS)]
    pools = [pool for pool in pools if pool]
    if not pools:
        raise ValueError(Errors.CE261)
    cursors = [len(pool) for pool in pools]  # start with a shuffle
    shares = [batch_size // len(pools) + (i < batch_size % len(pools)) for i in range(len(pools))]
    while True:
        batch = []
        for p, pool in enumerate(pools):
            for _ in range(max(1, shares[p])):
                if cursors[p] >= len(pool):
                    rng.shuffle(pool)
                    cursors[p] = 0
                batch.append(pool[cursors[p]])
                cursors[p] += 1
        yield batch


class Pretrainer:
    """Both objectives over one pipeline: one listener pass over the whole batch, the
    coreference head on the name examples, the pronoun head on the pronoun examples."""

    def __init__(
        self, nlp: Language, *, frozen: Sequence[str], hidden: int = 512, dropout: float = 0.3
    ):
        self.nlp = nlp
        self.frozen = list(frozen)
        self.coref = nlp.get_pipe(COMPONENT)
        self.model: Model = self.coref.model
        self.pronoun_model = build_pronoun_model(
            head_module(self.model), len(PRONOUN_CLASSES), hidden=hidden, dropout=dropout
        )
        self.encoder = encoder_of(nlp)

    @property
    def trains_encoder(self) -> bool:
        return self.encoder is not None and self.encoder not in self.frozen

    def update(
        self, batch: List[PretrainingExample], *, sgd: Optimizer, drop: float
    ) -> Dict[str, float]:
        examples = [eg.example for eg in batch]
        if self.trains_encoder:
            # the encoder hands its output to the listener and updates once it has the gradient
            self.nlp.get_pipe(self.encoder).update(examples, drop=drop, sgd=sgd)
        set_dropout_rate(self.model, drop)
        docs = [eg.predicted for eg in examples]
        vectors, backprop_tok2vec = self.model.get_ref("tok2vec").begin_update(docs)
        d_vectors = [self.model.ops.alloc2f(*v.shape) for v in vectors]
        losses = {NAMES: 0.0, PRONOUNS: 0.0}
        names = [i for i, eg in enumerate(batch) if eg.kind == NAMES]
        if names:
            losses[NAMES], grads = self._name_step(batch, names, vectors)
            for i, d in zip(names, grads):
                d_vectors[i] += d
        prons = [i for i, eg in enumerate(batch) if eg.kind == PRONOUNS]
        if prons:
            losses[PRONOUNS], grads = self._pronoun_step(batch, prons, vectors)
            for i, d in zip(prons, grads):
                d_vectors[i] += d
        backprop_tok2vec(d_vectors)
        self.model.finish_update(sgd)
        self.pronoun_model.finish_update(sgd)
        return losses

    def _name_step(
        self, batch: List[PretrainingExample], rows: List[int], vectors: List[Floats2d]
    ) -> Tuple[float, List[Floats2d]]:
        head = self.model.get_ref("head")
        docs = [batch[i].example.predicted for i in rows]
        inputs = head_inputs(self.model, docs, [vectors[i] for i in rows])
        candidates = inputs[1]
        outputs, backprop = head.begin_update(inputs)
        ops = self.model.ops
        scores = [CorefScores(ops.asarray2i(c), *out) for c, out in zip(candidates, outputs)]
        loss, d_scores = self.coref.get_loss([batch[i].example for i in rows], scores)
        return loss, backprop(d_scores)

    def _pronoun_step(
        self, batch: List[PretrainingExample], rows: List[int], vectors: List[Floats2d]
    ) -> Tuple[float, List[Floats2d]]:
        positions = [numpy.asarray([t for t, _ in batch[i].pronouns], dtype="int64") for i in rows]
        targets = numpy.asarray([c for i in rows for _, c in batch[i].pronouns], dtype="int64")
        logits, backprop = self.pronoun_model.begin_update(([vectors[i] for i in rows], positions))
        loss, d_logits = pronoun_loss(self.model.ops.to_numpy(logits), targets)
        return loss, backprop(self.model.ops.asarray2f(d_logits))

    def to_disk(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.coref.to_disk(path / COMPONENT)
        (path / "pronoun_head.bin").write_bytes(self.pronoun_model.to_bytes())
        if self.trains_encoder:
            self.nlp.get_pipe(self.encoder).to_disk(path / "encoder")


def pretrain(
    config_path: Path,
    data: Path,
    output: Path,
    *,
    overrides: Dict[str, Any] = {},  # noqa: B006 (never mutated)
    max_texts: int = 200,
    max_words: int = 600,
    max_steps: int = 300,
    batch_size: int = 8,
    seed: int = 0,
    hidden: int = 512,
) -> Dict[str, Any]:
    """Pre-train the coreference head (and a non-frozen encoder) of the pipeline a training
    config describes, and save the weights for `spacy_coref.init_coref_weights.v1`.

    config_path (Path): a training config with a `coref_cluster` component.
    data (Path): a .jsonl file or a directory of them ({"id": ..., "text": ...} per line).
    output (Path): the output directory.
    overrides (Dict[str, Any]): config overrides, e.g. {"paths.base_model": "training/base"}.
    max_texts (int): use at most this many texts (after splitting chunks to `max_words`).
    max_words (int): split longer chunks at paragraph breaks into texts of about this size.
    max_steps (int): optimizer steps.
    batch_size (int): texts per batch (both kinds in each).
    seed (int): the seed of the text order, masking and initialization.
    hidden (int): the width of the pronoun FFNN's hidden layer.
    RETURNS (Dict[str, Any]): statistics, also written to output/pretraining.json.
    """
    start = time.perf_counter()
    util.fix_random_seed(seed)
    rng = random.Random(seed)
    overrides = {**overrides, "training.max_steps": max_steps, "system.seed": seed}
    nlp, config, training = training_pipeline(config_path, overrides)
    if COMPONENT not in nlp.pipe_names:
        raise ValueError(Errors.CE264.format(name=COMPONENT, names=nlp.pipe_names))
    frozen = list(training["frozen_components"])
    encoder = encoder_of(nlp)
    texts = read_texts(data, max_texts=max_texts, max_words=max_words, seed=seed)
    parsed = parse_texts(nlp, [text for _, text in texts], skip=[COMPONENT, encoder or ""])
    examples = make_examples(parsed, rng, mask_token=mask_token_of(nlp, encoder))
    if not examples:
        raise ValueError(Errors.CE261)
    if encoder is not None and encoder in frozen:
        # a frozen encoder runs once over the masked texts; the listener reads its output
        for _ in nlp.get_pipe(encoder).pipe(eg.example.predicted for eg in examples):
            pass  # annotates the docs in place
    optimizer = training["optimizer"]
    initialize_as_spacy_train(nlp, config, training, examples)
    trainer = Pretrainer(nlp, frozen=frozen, hidden=hidden)
    history = run_steps(
        trainer,
        examples,
        optimizer,
        max_steps=max_steps,
        batch_size=batch_size,
        drop=training["dropout"],
        rng=rng,
    )
    trainer.to_disk(output)
    stats = pretraining_stats(texts, examples, history)
    stats.update(
        {
            "seed": seed,
            "max_steps": max_steps,
            "batch_size": batch_size,
            "config": str(config_path),
            "seconds": round(time.perf_counter() - start, 1),
        }
    )
    srsly.write_json(output / "pretraining.json", stats)
    return stats


def training_pipeline(
    config_path: Path, overrides: Dict[str, Any]
) -> Tuple[Language, Config, Dict[str, Any]]:
    """The pipeline a training config describes, not yet initialised, its config and its
    resolved [training] section."""
    config = util.load_config(config_path, overrides=overrides, interpolate=False)
    nlp = util.load_model_from_config(config, auto_fill=True)
    training = util.registry.resolve(
        nlp.config.interpolate()["training"], schema=ConfigSchemaTraining
    )
    return nlp, config, training


def initialize_as_spacy_train(
    nlp: Language, config: Config, training: Dict[str, Any], examples: List[PretrainingExample]
) -> None:
    """Initialise the pipeline as `spacy train` does (its `[initialize.after_init]` loads
    `init_coref`): frozen and sourced components keep their weights."""
    keep = set(training["frozen_components"]) | set(util.get_sourced_components(config))
    with nlp.select_pipes(disable=[name for name in nlp.pipe_names if name in keep]):
        nlp.initialize(partial(first_examples, examples), sgd=training["optimizer"])


def first_examples(examples: List[PretrainingExample], n: int = 10) -> List[Example]:
    """A sample to initialize the components from (they read widths and labels from it)."""
    return [eg.example for eg in examples[:n]]


def run_steps(
    trainer: Pretrainer,
    examples: List[PretrainingExample],
    optimizer: Optimizer,
    *,
    max_steps: int,
    batch_size: int,
    drop: float,
    rng: random.Random,
) -> List[Dict[str, float]]:
    """The optimizer steps; RETURNS the mean losses of every tenth of the run."""
    history: List[Dict[str, float]] = []
    window: List[Dict[str, float]] = []
    every = max(1, max_steps // 10)
    batches = alternating_batches(examples, batch_size, rng)
    for step in range(1, max_steps + 1):
        window.append(trainer.update(next(batches), sgd=optimizer, drop=drop))
        optimizer.step_schedules()  # the learning rate's warm-up and decay, as `spacy train`
        if step % every == 0 or step == max_steps:
            means = {k: float(numpy.mean([w[k] for w in window])) for k in (NAMES, PRONOUNS)}
            history.append({"step": step, **means})
            logger.info("pretrain step %d: %s", step, means)
            window = []
    return history


def pretraining_stats(
    texts: List[Tuple[str, str]],
    examples: List[PretrainingExample],
    history: List[Dict[str, float]],
) -> Dict[str, Any]:
    names = [eg for eg in examples if eg.kind == NAMES]
    return {
        "texts": len(texts),
        "words": sum(len(text.split()) for _, text in texts),
        "name_examples": len(names),
        "pronoun_examples": len(examples) - len(names),
        "name_mentions": sum(len(eg.example.reference.spans[GOLD_MENTIONS_KEY]) for eg in names),
        "pronouns": sum(len(eg.pronouns) for eg in examples),
        "losses": history,
    }
