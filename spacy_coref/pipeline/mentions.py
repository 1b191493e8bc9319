"""`coref_mentions`: rule-based candidate mentions, after Neuralcoref, without weights.

The clustering model can only link the mentions this pipe proposes, so their recall is the
ceiling of the whole system (`spacy-coref mentions-report` measures it). The rules themselves
live in `mention_rules.py` as pure functions over a parsed doc; this module is the spaCy
component around them: settings, validation, serialization and scoring.
"""
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Union

import srsly
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import SimpleFrozenList, ensure_path, minibatch
from spacy.vocab import Vocab
from thinc.api import ConfigValidationError

from ..annotations import MENTIONS_KEY, set_mentions
from ..errors import Errors, Warnings, warn
from ..extensions import install_extensions
from ..profiling import MENTIONS, section
from ..scoring.mention_recall import mentions_score
from ..types import MentionOffsets
from .mention_rules import (
    DEFAULT_ENT_LABELS,
    DEFAULT_RULES,
    KNOWN_RULES,
    extract_mentions,
    unknown_rules,
)

CFG_FILE = "cfg"
DEFAULT_MAX_WIDTH = 50


@Language.factory(
    "coref_mentions",
    assigns=["doc.spans"],
    requires=["token.dep", "token.head", "token.pos"],
    default_config={
        "rules": list(DEFAULT_RULES),
        "entity_labels": list(DEFAULT_ENT_LABELS),
        "max_width": DEFAULT_MAX_WIDTH,
        "keep_nested": True,
        "keep_numbers": False,
        "spans_key": None,
        "scorer": {"@scorers": "spacy_coref.mentions_scorer.v1"},
    },
    default_score_weights={
        "coref_candidates_r": 0.0,
        "coref_candidates_p": 0.0,
        "coref_candidates_per_token": None,
    },
)
def make_coref_mentions(
    nlp: Language,
    name: str,
    rules: List[str],
    entity_labels: List[str],
    max_width: int,
    keep_nested: bool,
    keep_numbers: bool,
    spans_key: Optional[str],
    scorer: Optional[Callable],
) -> "CorefMentions":
    """Create a `coref_mentions` component: candidate mentions in doc.spans["coref_mentions"].

    rules (List[str]): The rules to apply (see mention_rules.KNOWN_RULES).
    entity_labels (List[str]): The entity labels the "entities" rule keeps.
    max_width (int): The most tokens a mention may have.
    keep_nested (bool): Whether to keep mentions inside other mentions ("[her] sister").
    keep_numbers (bool): Whether to keep numbers, dates, times and amounts.
    spans_key (Optional[str]): A doc.spans key of given candidates: where a doc has it, its
        spans are the candidates and no parse is needed (GAP's gold-two-mention setting).
    scorer (Optional[Callable]): The scoring method.
    """
    return CorefMentions(
        nlp.vocab,
        name,
        rules=rules,
        entity_labels=entity_labels,
        max_width=max_width,
        keep_nested=keep_nested,
        keep_numbers=keep_numbers,
        spans_key=spans_key,
        scorer=scorer,
    )


def validate_settings(name: str, cfg: Dict[str, Any]) -> None:
    """Check the settings that types alone do not: rule names and the width limit.

    name (str): The component name, for the message.
    cfg (Dict[str, Any]): The settings.
    """
    unknown = unknown_rules(cfg["rules"])
    if unknown:
        message = Errors.CE071.format(unknown=unknown, name=name, valid=", ".join(KNOWN_RULES))
        raise ConfigValidationError(
            errors=[{"loc": [name, "rules"], "msg": message}], title=message, show_config=False
        )
    width = cfg["max_width"]
    if not isinstance(width, int) or isinstance(width, bool) or width < 1:
        message = Errors.CE072.format(name=name, value=width)
        raise ConfigValidationError(
            errors=[{"loc": [name, "max_width"], "msg": message}], title=message, show_config=False
        )


class CorefMentions(Pipe):
    """Find candidate mentions with rules over the dependency parse, POS tags and entities, and
    write them to doc.spans["coref_mentions"]."""

    def __init__(
        self,
        vocab: Vocab,
        name: str = "coref_mentions",
        *,
        rules: Iterable[str] = DEFAULT_RULES,
        entity_labels: Iterable[str] = DEFAULT_ENT_LABELS,
        max_width: int = DEFAULT_MAX_WIDTH,
        keep_nested: bool = True,
        keep_numbers: bool = False,
        spans_key: Optional[str] = None,
        scorer: Optional[Callable] = mentions_score,
    ) -> None:
        """Initialize the component (see `make_coref_mentions` for the settings)."""
        install_extensions()  # Span._.is_coref and the rest work on its output alone too
        self.vocab = vocab
        self.name = name
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {
            "rules": list(rules),
            "entity_labels": list(entity_labels),
            "max_width": max_width,
            "keep_nested": keep_nested,
            "keep_numbers": keep_numbers,
            "spans_key": spans_key,
        }
        validate_settings(name, self.cfg)

    def __call__(self, doc: Doc) -> Doc:
        """Write the doc's candidate mentions to doc.spans["coref_mentions"].

        doc (Doc): A parsed doc, or one with given candidates under `spans_key`.
        RETURNS (Doc): The same doc.
        """
        self._check_tags(doc)
        set_mentions(doc, self.find_mentions(doc), key=MENTIONS_KEY)
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Apply the component to a stream of docs.

        stream (Iterable[Doc]): The docs.
        batch_size (int): The number of docs per batch (warnings come once per batch).
        YIELDS (Doc): The docs, in order.
        """
        error_handler = self.get_error_handler()
        for docs in minibatch(stream, size=batch_size):
            self._check_tags(*docs)
            for doc in docs:
                try:
                    set_mentions(doc, self.find_mentions(doc), key=MENTIONS_KEY)
                    yield doc
                except Exception as e:
                    error_handler(self.name, self, [doc], e)

    def _check_tags(self, *docs: Doc) -> None:
        """Warn (once per batch) where the rules would run on a parse without POS tags."""
        key = self.cfg["spans_key"]
        for doc in docs:
            given = key is not None and key in doc.spans
            if not given and doc.has_annotation("DEP") and not doc.has_annotation("POS"):
                warn(Warnings.CW070.format(name=self.name))
                return

    def find_mentions(self, doc: Doc) -> MentionOffsets:
        """The candidate mentions of a doc as (start, end) token offsets, without changing it.

        doc (Doc): A parsed doc, or one with given candidates under `spans_key`.
        RETURNS (MentionOffsets): Sorted, unique (start, end) offsets, end exclusive.
        """
        cfg = self.cfg
        key = cfg["spans_key"]
        if key is not None and key in doc.spans:
            return sorted(set((span.start, span.end) for span in doc.spans[key]))
        if len(doc) and not doc.has_annotation("DEP"):
            raise ValueError(Errors.CE070.format(name=self.name))
        with section(MENTIONS):
            return extract_mentions(
                doc,
                rules=cfg["rules"],
                entity_labels=cfg["entity_labels"],
                max_width=cfg["max_width"],
                keep_nested=cfg["keep_nested"],
                keep_numbers=cfg["keep_numbers"],
            )

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Optional[float]]:
        """Recall and precision of the candidates against the gold mentions, and candidates
        per token (see `spacy_coref.mentions_scorer.v1`).

        examples (Iterable[Example]): Predicted docs with candidates, reference docs with gold.
        RETURNS (Dict[str, Optional[float]]): The scores.
        """
        if self.scorer is None:
            return {}
        return self.scorer(examples, **{**self.cfg, **kwargs})

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialize the settings.

        RETURNS (bytes): The settings as JSON.
        """
        return srsly.json_dumps(self.cfg, sort_keys=True).encode("utf8")

    def from_bytes(
        self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> "CorefMentions":
        """Load the settings written by `to_bytes`.

        bytes_data (bytes): The data.
        RETURNS (CorefMentions): The component.
        """
        self._load_cfg(bytes_data, "<bytes>")
        return self

    def to_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> None:
        """Write the settings to a directory.

        path (Union[str, Path]): The directory; created if needed.
        """
        path = ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        (path / CFG_FILE).write_bytes(self.to_bytes(exclude=exclude))

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> "CorefMentions":
        """Load the settings written by `to_disk`.

        path (Union[str, Path]): The directory.
        RETURNS (CorefMentions): The component.
        """
        cfg_path = ensure_path(path) / CFG_FILE
        if not cfg_path.is_file():
            raise ValueError(self._cfg_error(cfg_path, "the file is missing"))
        self._load_cfg(cfg_path.read_bytes(), cfg_path)
        return self

    def _load_cfg(self, data: bytes, source: Union[str, Path]) -> None:
        try:
            cfg = srsly.json_loads(data)
        except ValueError as e:
            raise ValueError(self._cfg_error(source, f"it is not JSON ({e})")) from e
        if not isinstance(cfg, dict) or set(cfg) != set(self.cfg):
            found = f"found {sorted(cfg) if isinstance(cfg, dict) else type(cfg).__name__}"
            raise ValueError(self._cfg_error(source, found))
        validate_settings(self.name, cfg)
        self.cfg = cfg

    def _cfg_error(self, source: Union[str, Path], found: str) -> str:
        return Errors.CE073.format(name=self.name, path=source, keys=sorted(self.cfg), found=found)
