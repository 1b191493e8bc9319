"""How many gold mentions the candidate mentions cover: the ceiling of the clustering model.

Gold mentions are the mentions of the reference clusters (`coref_clusters_*`), or the labelled
spans of `coref_gold_mentions` where a document is only partly annotated (GAP's pronoun and two
names). Mentions are compared by character offsets, so the predicted doc may be tokenized
differently from the reference.
"""
from collections import Counter
from typing import Callable, Dict, Iterable, List, Optional, Set, Tuple

from spacy.tokens import Doc, Span, Token
from spacy.training import Example
from spacy.util import registry

from ..annotations import GOLD_MENTIONS_KEY, MENTIONS_KEY, get_cluster_groups
from ..lang.en import english

MENTION_TYPES = ("pronoun", "proper", "nominal", "other")
_PRONOUN_LIKE = set(english().words("place_adverbs"))  # "here", "there"
_NOMINAL_POS = {"NOUN", "NUM", "ADJ", "DET", "X", "SYM"}

CharOffsets = Tuple[int, int]


def gold_mentions(doc: Doc) -> List[Span]:
    """The annotated mentions of a reference doc: its labelled spans where only some are
    labelled (GAP), otherwise the mentions of its clusters.

    doc (Doc): A reference doc.
    RETURNS (List[Span]): The gold mentions, in document order.
    """
    if GOLD_MENTIONS_KEY in doc.spans:
        spans = list(doc.spans[GOLD_MENTIONS_KEY])
    else:
        spans = [span for group in get_cluster_groups(doc) for span in group]
    return sorted(spans, key=lambda span: (span.start, span.end))


def mention_type(head: Token) -> str:
    """The type of a mention from its head: "pronoun" (personal, possessive, demonstrative,
    "here"/"there"), "proper" (a proper noun or a token of a named entity), "nominal" (a common
    noun, number or adjective) or "other" (verbs, for events, and anything else).

    head (Token): The syntactic head of the mention.
    RETURNS (str): One of MENTION_TYPES.
    """
    if head.pos_ == "PRON" or head.lower_ in _PRONOUN_LIKE:
        return "pronoun"
    if head.pos_ == "DET" and head.dep_ != "det":
        return "pronoun"
    if head.pos_ == "PROPN" or (head.ent_type_ and head.pos_ != "NUM"):
        return "proper"
    if head.pos_ in _NOMINAL_POS:
        return "nominal"
    return "other"


def _char_offsets(spans: Iterable[Span]) -> Set[CharOffsets]:
    return {(span.start_char, span.end_char) for span in spans}


def _ratio(numerator: int, denominator: int) -> Optional[float]:
    return numerator / denominator if denominator else None


def mentions_score(
    examples: Iterable[Example], *, candidates_key: str = MENTIONS_KEY, **cfg
) -> Dict[str, Optional[float]]:
    """Exact-boundary recall and precision of the candidate mentions against the gold
    mentions, and the number of candidates per token.

    examples (Iterable[Example]): Predicted docs with candidates, reference docs with gold.
    candidates_key (str): The `doc.spans` key of the candidates on the predicted docs.
    cfg: The component's settings, passed by `Pipe.score`; not used.
    RETURNS (Dict[str, Optional[float]]): coref_candidates_r, coref_candidates_p and
        coref_candidates_per_token (None where undefined).
    """
    n_gold = n_candidates = n_found = n_tokens = 0
    for eg in examples:
        gold = _char_offsets(gold_mentions(eg.reference))
        candidates = _char_offsets(eg.predicted.spans.get(candidates_key, []))
        n_gold += len(gold)
        n_candidates += len(candidates)
        n_found += len(gold & candidates)
        n_tokens += len(eg.predicted)
    return {
        "coref_candidates_r": _ratio(n_found, n_gold),
        "coref_candidates_p": _ratio(n_found, n_candidates),
        "coref_candidates_per_token": _ratio(n_candidates, n_tokens),
    }


@registry.scorers("spacy_coref.mentions_scorer.v1")
def make_mentions_scorer() -> Callable[..., Dict[str, Optional[float]]]:
    """The scorer of `coref_mentions`: recall of the gold mentions (`coref_candidates_r`),
    precision (`coref_candidates_p`) and candidates per token."""
    return mentions_score


class RecallCounts:
    """Gold mentions found by exact boundaries and by head, overall and per mention type, over
    docs that share their tokens with the reference (as in the mentions report)."""

    def __init__(self) -> None:
        self.gold: Counter = Counter()
        self.exact: Counter = Counter()
        self.head: Counter = Counter()
        self.candidates = 0
        self.tokens = 0
        self.docs = 0

    def add(self, gold: Iterable[Tuple[int, int]], predicted: Doc, candidates_key: str) -> None:
        """Count one doc: gold (start, end) token offsets into `predicted`, which carries the
        parse and the candidates."""
        candidates = {(span.start, span.end) for span in predicted.spans.get(candidates_key, [])}
        candidate_heads = {predicted[s:e].root.i for s, e in candidates}
        for start, end in set(gold):
            head = predicted[start:end].root
            kind = mention_type(head)
            for key in ("all", kind):
                self.gold[key] += 1
                self.exact[key] += (start, end) in candidates
                self.head[key] += head.i in candidate_heads
        self.candidates += len(candidates)
        self.tokens += len(predicted)
        self.docs += 1

    def table(self) -> Dict[str, object]:
        """The counts and ratios as plain data (for printing and JSON)."""
        by_type = {
            kind: {
                "gold": self.gold[kind],
                "exact_recall": _ratio(self.exact[kind], self.gold[kind]),
                "head_recall": _ratio(self.head[kind], self.gold[kind]),
            }
            for kind in MENTION_TYPES
        }
        return {
            "docs": self.docs,
            "tokens": self.tokens,
            "gold_mentions": self.gold["all"],
            "candidates": self.candidates,
            "exact_recall": _ratio(self.exact["all"], self.gold["all"]),
            "head_recall": _ratio(self.head["all"], self.gold["all"]),
            "precision": _ratio(self.exact["all"], self.candidates),
            "candidates_per_token": _ratio(self.candidates, self.tokens),
            "by_type": by_type,
        }
