"""Where the coref stage spends its time: the code marks its parts with `section(name)`, and a
`StageProfile` that is on adds up each part's own time (less that of the parts inside it), so
that the parts and what no part covers add up to the whole. `spacy-coref benchmark` prints
the table (ms per 10,000 words); with no profile on, a section costs one global lookup.

    with StageProfile() as profile:
        list(nlp.pipe(texts))
    profile.table(n_words)

Only the thread that turned the profile on is timed: the encoder's worker threads
(`ml/single_threaded.py`) run inside the main thread's "encoder" section.
"""
import threading
import time
from contextlib import nullcontext
from typing import Any, ContextManager, Dict, List, Optional

# The parts, as the table lists them (sections not named here come after them, by name).
ENCODER = "encoder"
WORDPIECES = "encoder: wordpieces"
MENTIONS = "candidate mentions"
TOKEN_VECTORS = "token vectors"
FEATURES = "features"
ANALYSIS = "mention analysis"
HEAD = "head"
DECODING = "decoding"  # the decoder's own work; each step is "decoding: NAME"
CLUSTERING = "decoding: clustering"
WRITE = "writing clusters"
OTHER = "other"  # the whole less every section: spaCy's pipe, batching, the Python around
PARTS = (WORDPIECES, ENCODER, MENTIONS, TOKEN_VECTORS, FEATURES, ANALYSIS, HEAD, DECODING)
STEP_PREFIX = "decoding: "

_NOTHING = nullcontext()
_ACTIVE: Optional["StageProfile"] = None


def section(name: str) -> ContextManager[Any]:
    """Time the code in the `with` block as part `name` of the running profile, if any."""
    profile = _ACTIVE
    if profile is None or profile.thread != threading.get_ident():
        return _NOTHING
    return _Section(profile, name)


class StageProfile:
    """The time of each section while the profile is on (one at a time per process)."""

    def __init__(self) -> None:
        self.seconds: Dict[str, float] = {}
        self.calls: Dict[str, int] = {}
        self.total = 0.0
        self.thread: Optional[int] = None
        self._stack: List[List[Any]] = []  # [name, start, time of the sections inside]
        self._start = 0.0

    def __enter__(self) -> "StageProfile":
        global _ACTIVE
        if _ACTIVE is not None:
            raise RuntimeError("A StageProfile is on already: profiles do not nest.")
        self.thread = threading.get_ident()
        self._start = time.perf_counter()
        _ACTIVE = self
        return self

    def __exit__(self, *exc: Any) -> None:
        global _ACTIVE
        self.total += time.perf_counter() - self._start
        _ACTIVE = None

    def _open(self, name: str) -> None:
        self._stack.append([name, time.perf_counter(), 0.0])

    def _close(self) -> None:
        name, start, inner = self._stack.pop()
        elapsed = time.perf_counter() - start
        self.seconds[name] = self.seconds.get(name, 0.0) + elapsed - inner
        self.calls[name] = self.calls.get(name, 0) + 1
        if self._stack:
            self._stack[-1][2] += elapsed

    def table(self, n_words: int) -> List[Dict[str, Any]]:
        """The parts in order, then "other" and "total": ms per 10,000 words and share of
        the whole; rows' ms add up to the total's."""
        names = [name for name in PARTS if name in self.seconds]
        names += sorted(name for name in self.seconds if name not in PARTS)
        rows = [(name, self.seconds[name]) for name in names]
        rows.append((OTHER, self.total - sum(self.seconds.values())))
        rows.append(("total", self.total))
        scale = 10_000 * 1000 / max(n_words, 1)
        return [
            {"part": name, "ms_per_10k_words": seconds * scale,
             "share": seconds / self.total if self.total else 0.0,
             "calls": self.calls.get(name, 0)}
            for name, seconds in rows
        ]


class _Section:
    __slots__ = ("profile", "name")

    def __init__(self, profile: StageProfile, name: str) -> None:
        self.profile = profile
        self.name = name

    def __enter__(self) -> None:
        self.profile._open(self.name)

    def __exit__(self, *exc: Any) -> None:
        self.profile._close()
