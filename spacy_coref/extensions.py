"""The user-facing `Doc._`, `Span._` and `Token._` extensions (their clusters are `Cluster`
views: `clusters.py`).

Every value is computed by a getter from `doc.spans` (and, for pair scores, from
`doc.user_data`), on every access: nothing is cached and no `Span` is kept on the doc, so the
values survive `DocBin`, pickling, `Doc.to_bytes` and `nlp.pipe(n_process=2)`, and always reflect
the current clusters. The getters are module-level functions (a lambda cannot be pickled for
spawned workers).

`Doc._.coref_resolved` replaces mentions by their cluster's main mention; the rules are in the
docstring of `resolved_text.resolve_text`.
"""
import numbers
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from spacy.tokens import Doc, Span, SpanGroup, Token

from .annotations import cluster_keys
from .clusters import Cluster, mention_offsets
from .errors import Errors
from .resolved_text import resolve_text
from .types import MentionOffset

# `doc.user_data` key of the antecedent scores that `coref_cluster` stores when asked to: a list
# of (mention_start, mention_end, antecedent_start, antecedent_end, score) tuples, token offsets
# with exclusive ends. `DocBin(store_user_data=True)` and `Doc.to_bytes` keep it (as tuples or
# lists); a `DocBin` without user data drops it.
PAIR_SCORES_KEY = "coref_pair_scores"

PairScores = Dict[MentionOffset, Dict[MentionOffset, float]]


def install_extensions(*, overwrite: bool = False) -> None:
    """Register the coreference extensions on `Doc`, `Span` and `Token`. Safe to call any
    number of times (every factory of the package calls it); our own registrations are refreshed,
    and a name that another library registered raises an error instead of being replaced.

    overwrite (bool): Replace extensions of the same names registered by another library.
    """
    existing = [cls.get_extension(name) for cls, name, _ in _EXTENSIONS]
    if not overwrite:  # check every name before registering any
        for (cls, name, _), current in zip(_EXTENSIONS, existing):
            if current is not None and not _is_ours(current):
                owner = _owner(current)
                raise ValueError(Errors.CE140.format(obj=cls.__name__, name=name, owner=owner))
    for (cls, name, kwargs), current in zip(_EXTENSIONS, existing):
        if current is None or not _registered_as(current, kwargs):
            cls.set_extension(name, force=current is not None, **kwargs)


# Doc getters


def get_coref_clusters(doc: Doc) -> List[Cluster]:
    """Getter of `Doc._.coref_clusters`.

    doc (Doc): The doc.
    RETURNS (List[Cluster]): The non-empty clusters, in the order of their keys.
    """
    return [Cluster(group, i, key=key) for i, (key, group) in enumerate(_groups(doc))]


def get_has_coref(doc: Doc) -> bool:
    """Getter of `Doc._.has_coref`: whether the doc has at least one non-empty cluster."""
    return bool(_groups(doc))


def get_coref_resolved(doc: Doc) -> str:
    """Getter of `Doc._.coref_resolved`: the text with mentions resolved (see
    `resolved_text.resolve_text`)."""
    return resolve_text(doc, get_coref_clusters(doc))


def get_coref_scores(doc: Doc) -> PairScores:
    """Getter of `Doc._.coref_scores`.

    doc (Doc): The doc.
    RETURNS (Dict[Tuple[int, int], Dict[Tuple[int, int], float]]): For each scored mention
        (start, end), its scored antecedents (start, end) and their scores; `{}` if none stored.
    """
    scores: PairScores = {}
    for m_start, m_end, a_start, a_end, score in _pair_entries(doc):
        scores.setdefault((m_start, m_end), {})[(a_start, a_end)] = score
    return scores


def coref_score(
    doc: Doc, span_a: Union[Span, Tuple[int, int]], span_b: Union[Span, Tuple[int, int]]
) -> Optional[float]:
    """Method `Doc._.coref_score(span_a, span_b)`: the stored antecedent score of a pair, in
    either order. Reads the stored list once per call: for many look-ups, read
    `doc._.coref_scores` once instead.

    doc (Doc): The doc.
    span_a (Union[Span, Tuple[int, int]]): A span of this doc, or its (start, end) token offsets.
    span_b (Union[Span, Tuple[int, int]]): The other span or offsets.
    RETURNS (Optional[float]): The score, or None if the pair was not scored.
    """
    a = _pair_key(doc, span_a)
    b = _pair_key(doc, span_b)
    forward: Optional[float] = None
    backward: Optional[float] = None
    for m_start, m_end, a_start, a_end, score in _pair_entries(doc):
        if (m_start, m_end) == a and (a_start, a_end) == b:
            forward = score
        elif (m_start, m_end) == b and (a_start, a_end) == a:
            backward = score
    return forward if forward is not None else backward


# Span and Token getters


def get_span_is_coref(span: Span) -> bool:
    """Getter of `Span._.is_coref`: whether the span (same start and end) is a mention of some
    cluster."""
    target = mention_offsets(span)
    return any(mention_offsets(m) == target for _, group in _groups(span.doc) for m in group)


def get_span_coref_cluster(span: Span) -> Optional[Cluster]:
    """Getter of `Span._.coref_cluster`: the cluster the span is a mention of (same start and
    end), or None if it is not a mention; the one extension that can return None. A span that
    two clusters share gets the first of them.
    """
    target = mention_offsets(span)
    for i, (key, group) in enumerate(_groups(span.doc)):
        if any(mention_offsets(m) == target for m in group):
            return Cluster(group, i, key=key)
    return None


def get_token_in_coref(token: Token) -> bool:
    """Getter of `Token._.in_coref`: whether the token lies inside a mention of some cluster."""
    i = token.i
    return any(m.start <= i < m.end for _, group in _groups(token.doc) for m in group)


def get_token_coref_clusters(token: Token) -> List[Cluster]:
    """Getter of `Token._.coref_clusters`: the clusters with a mention containing the token,
    in key order (`[]` if none)."""
    i = token.i
    return [
        Cluster(group, n, key=key)
        for n, (key, group) in enumerate(_groups(token.doc))
        if any(m.start <= i < m.end for m in group)
    ]


# Helpers


def _groups(doc: Doc) -> List[Tuple[str, SpanGroup]]:
    """The non-empty cluster groups with their keys, in key order (as `get_cluster_groups`)."""
    pairs = ((key, doc.spans[key]) for key in cluster_keys(doc))
    return [(key, group) for key, group in pairs if len(group)]


def _pair_entries(doc: Doc) -> Iterator[Tuple[int, int, int, int, float]]:
    """The stored pair scores, normalised (msgpack turns the tuples into lists)."""
    for index, entry in enumerate(doc.user_data.get(PAIR_SCORES_KEY) or ()):
        if not _is_pair_entry(entry):
            raise ValueError(Errors.CE141.format(key=PAIR_SCORES_KEY, value=entry, index=index))
        m_start, m_end, a_start, a_end, score = entry
        yield int(m_start), int(m_end), int(a_start), int(a_end), float(score)


def _is_pair_entry(entry: Any) -> bool:
    if not isinstance(entry, (tuple, list)) or len(entry) != 5:
        return False
    return all(_is_int(x) for x in entry[:4]) and _is_number(entry[4])


def _is_int(value: Any) -> bool:
    """A Python or numpy integer, not a bool (exact types first: the ABC check is slow)."""
    if type(value) is int:
        return True
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    if type(value) is float or type(value) is int:
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _pair_key(doc: Doc, value: Union[Span, Tuple[int, int]]) -> MentionOffset:
    if isinstance(value, Span):
        if value.doc is not doc:
            raise ValueError(Errors.CE142.format(value=repr(value)))
        return mention_offsets(value)
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(_is_int(x) for x in value):
        return (int(value[0]), int(value[1]))
    raise ValueError(Errors.CE142.format(value=repr(value)))


# Registration


_EXTENSIONS: List[Tuple[Any, str, Dict[str, Callable]]] = [
    (Doc, "coref_clusters", {"getter": get_coref_clusters}),
    (Doc, "has_coref", {"getter": get_has_coref}),
    (Doc, "coref_resolved", {"getter": get_coref_resolved}),
    (Doc, "coref_scores", {"getter": get_coref_scores}),
    (Doc, "coref_score", {"method": coref_score}),
    (Span, "is_coref", {"getter": get_span_is_coref}),
    (Span, "coref_cluster", {"getter": get_span_coref_cluster}),
    (Token, "in_coref", {"getter": get_token_in_coref}),
    (Token, "coref_clusters", {"getter": get_token_coref_clusters}),
]


def _registered_as(existing: Tuple[Any, ...], kwargs: Dict[str, Callable]) -> bool:
    default, method, getter, setter = existing
    return (
        default is None
        and setter is None
        and method is kwargs.get("method")
        and getter is kwargs.get("getter")
    )


def _is_ours(existing: Tuple[Any, ...]) -> bool:
    """Registered by this module, maybe by an earlier import of it (a reload)."""
    functions = [f for f in existing[1:] if f is not None]
    return bool(functions) and all(getattr(f, "__module__", None) == __name__ for f in functions)


def _owner(existing: Tuple[Any, ...]) -> str:
    for function in existing[1:]:
        if function is not None:
            module = getattr(function, "__module__", "?")
            return f"{module}.{getattr(function, '__qualname__', '?')}"
    return f"a plain attribute (default={existing[0]!r})"
