"""Corpus readers for `spacy train`.

`spacy_coref.CoNLLCorpus.v1` reads CoNLL-2012, GAP TSV or jsonlines directly. Its predicted docs
keep the dataset's tokens (so gold mentions align exactly) and, with `annotate`, are run once
through frozen components (parser, `coref_mentions`, a frozen transformer) whose output is kept
for every later epoch: with a frozen encoder, training then costs the head alone.
`spacy_coref.CoNLLCorpus.v2` adds augmented copies of the documents (`augment`: "names",
"gender_swap"; see `spacy_coref.training.augmentation`), made, annotated and kept the same way.
`spacy_coref.CoNLLCorpus.v3` mixes in the docs of a second path (short ones, such as the pronoun
problems of `spacy-coref make-corpus`) at a weight of their own, so they cannot crowd out the
documents.
"""
import logging
import random
import weakref
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from ..errors import Errors
from ..formats import read_docs
from ..util import bare_copy
from .augmentation import augment_docs, augmentation_counts, check_augmentations

logger = logging.getLogger("spacy_coref")

# `spacy train` resolves the corpora twice (once to initialize, once to train) into separate
# reader objects for the same pipeline: the annotated examples are shared between them so the
# frozen components run once per process.
_ANNOTATED: "weakref.WeakKeyDictionary[Language, Dict[Tuple, List[Example]]]" = (
    weakref.WeakKeyDictionary()
)


@registry.readers("spacy_coref.CoNLLCorpus.v1")
def create_coref_corpus(
    path: Optional[Path],
    annotate: List[str] = [],  # noqa: B006 (config default; never mutated)
    max_docs: int = 0,
    shuffle_seed: Optional[int] = None,
) -> Callable[[Language], Iterable[Example]]:
    """Read coreference data for training or evaluation.

    path (Path): a data file or a directory of them (.spacy, CoNLL-2012, GAP .tsv, .jsonl).
    annotate (List[str]): components of the pipeline being trained to run once on the
        predicted docs and keep (they must be frozen, e.g. the parser, 'coref_mentions' and a
        frozen 'transformer').
    max_docs (int): read at most this many docs (0: all), e.g. for smoke runs.
    shuffle_seed (Optional[int]): shuffle the documents once before `max_docs` applies.
    RETURNS (Callable[[Language], Iterable[Example]]): the corpus.
    """
    if path is None:
        raise ValueError(Errors.CE150)
    return CoNLLCorpus(Path(path), annotate=list(annotate), max_docs=max_docs, seed=shuffle_seed)


@registry.readers("spacy_coref.CoNLLCorpus.v2")
def create_coref_corpus_v2(
    path: Optional[Path],
    annotate: List[str] = [],  # noqa: B006 (config default; never mutated)
    max_docs: int = 0,
    shuffle_seed: Optional[int] = None,
    augment: List[str] = [],  # noqa: B006 (config default; never mutated)
    augment_seed: int = 0,
) -> Callable[[Language], Iterable[Example]]:
    """Read coreference data for training or evaluation, as `spacy_coref.CoNLLCorpus.v1` does,
    and add augmented copies of the documents: set `augment` for the training corpus only.

    path (Path): a data file or a directory of them (.spacy, CoNLL-2012, GAP .tsv, .jsonl).
    annotate (List[str]): components of the pipeline being trained to run once on the
        predicted docs (originals and copies) and keep; they must be frozen.
    max_docs (int): read at most this many docs (0: all) before augmentation.
    shuffle_seed (Optional[int]): shuffle the documents once before `max_docs` applies.
    augment (List[str]): augmentations, each adding a copy of every document it changes:
        "names" (one person renamed, same gender), "gender_swap" (gendered words and names).
    augment_seed (int): the random seed of the augmentations' names.
    RETURNS (Callable[[Language], Iterable[Example]]): the corpus.
    """
    return create_coref_corpus_v3(path, annotate, max_docs, shuffle_seed, augment, augment_seed)


@registry.readers("spacy_coref.CoNLLCorpus.v3")
def create_coref_corpus_v3(
    path: Optional[Path],
    annotate: List[str] = [],  # noqa: B006 (config default; never mutated)
    max_docs: int = 0,
    shuffle_seed: Optional[int] = None,
    augment: List[str] = [],  # noqa: B006 (config default; never mutated)
    augment_seed: int = 0,
    mix_path: Optional[Path] = None,
    mix_weight: float = 0.0,
) -> Callable[[Language], Iterable[Example]]:
    """Read coreference data as `spacy_coref.CoNLLCorpus.v2` does, and mix in the docs of
    `mix_path` (e.g. corpus/pronouns, short partial examples): as many as make up `mix_weight`
    times the words of the documents (augmented copies included), drawn once with
    `augment_seed`, then copied as the documents are (so their copies come on top of the
    weight). The draw is fixed for the whole run (`spacy train` lists the corpus once), so a
    weight above the docs' share uses them all.

    mix_path (Optional[Path]): docs to mix in; None: none.
    mix_weight (float): their words as a share of the documents' words, 0 or more.
    Other arguments: see `spacy_coref.CoNLLCorpus.v2`.
    RETURNS (Callable[[Language], Iterable[Example]]): the corpus.
    """
    if path is None:
        raise ValueError(Errors.CE150)
    check_augmentations(augment)
    if mix_weight < 0 or (mix_weight > 0 and mix_path is None):
        raise ValueError(Errors.CE153.format(weight=mix_weight, path=mix_path))
    return CoNLLCorpus(
        Path(path),
        annotate=list(annotate),
        max_docs=max_docs,
        seed=shuffle_seed,
        augment=list(augment),
        augment_seed=augment_seed,
        mix_path=Path(mix_path) if mix_path is not None and mix_weight > 0 else None,
        mix_weight=mix_weight,
    )


def draw_mix(docs: Sequence[Doc], words: float, seed: int) -> List[Doc]:
    """Docs drawn at random (without replacement) until they hold `words` words, in the
    order drawn; all of them when they hold fewer."""
    order = list(range(len(docs)))
    random.Random(seed).shuffle(order)
    chosen: List[Doc] = []
    total = 0
    for i in order:
        if total >= words:
            break
        chosen.append(docs[i])
        total += len(docs[i])
    return chosen


class CoNLLCorpus:
    def __init__(
        self,
        path: Path,
        *,
        annotate: List[str],
        max_docs: int,
        seed: Optional[int],
        augment: Sequence[str] = (),
        augment_seed: int = 0,
        mix_path: Optional[Path] = None,
        mix_weight: float = 0.0,
    ):
        self.path = path
        self.annotate = annotate
        self.max_docs = max_docs
        self.seed = seed
        self.augment = tuple(augment)
        self.augment_seed = augment_seed
        self.mix_path = mix_path
        self.mix_weight = mix_weight

    def __call__(self, nlp: Language) -> Iterator[Example]:
        cache = _ANNOTATED.setdefault(nlp, {})
        key = (
            str(self.path),
            tuple(self.annotate),
            self.max_docs,
            self.seed,
            self.augment,
            self.augment_seed,
            str(self.mix_path),
            self.mix_weight,
        )
        if key not in cache:
            cache[key] = self._load(nlp)
        # Training never writes onto predicted docs (only annotating components do, and they ran
        # once), so the cached examples are handed out as they are.
        yield from cache[key]

    def _load(self, nlp: Language) -> List[Example]:
        references = read_docs(self.path, vocab=nlp.vocab)
        if self.seed is not None:
            random.Random(self.seed).shuffle(references)
        if self.max_docs:
            references = references[: self.max_docs]
        references = self._with_copies(self.path, references)
        if self.mix_path is not None:
            words = self.mix_weight * sum(len(doc) for doc in references)
            pool = read_docs(self.mix_path, vocab=nlp.vocab)
            mixed = draw_mix(pool, words, self.augment_seed)
            logger.info(
                "%s: %d of %d docs mixed in (%d words, weight %g)",
                self.mix_path,
                len(mixed),
                len(pool),
                sum(len(doc) for doc in mixed),
                self.mix_weight,
            )
            references = references + self._with_copies(self.mix_path, mixed)
        predicted: Iterable[Doc] = (bare_copy(ref) for ref in references)
        for name in self.annotate:
            if name not in nlp.component_names:
                raise ValueError(Errors.CE151.format(name=name, names=nlp.component_names))
            predicted = nlp.get_pipe(name).pipe(predicted, batch_size=nlp.batch_size)
        return [Example(doc, ref) for doc, ref in zip(predicted, references)]

    def _with_copies(self, path: Path, references: List[Doc]) -> List[Doc]:
        if not self.augment:
            return references
        copies = augment_docs(references, self.augment, seed=self.augment_seed)
        counts = augmentation_counts(copies)
        logger.info(
            "%s: %d documents and %d augmented copies (%s)",
            path,
            len(references),
            len(copies),
            ", ".join(f"{name}: {counts.get(name, 0)}" for name in self.augment),
        )
        return references + copies
