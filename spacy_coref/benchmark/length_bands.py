"""Document length bands of the benchmark: words/s of every system is reported per band, since
a pipeline's cost per word grows with the document where its encoder windows, candidates or
decoding do (a 2,400-word story against a 150-word email).

fastcoref_runner.py runs in fastcoref's own environment without this package and keeps a copy
of LENGTH_BANDS: change both together.
"""
from typing import Dict, List, Optional, Sequence, Tuple

# (label, fewest words, most words + 1 or None): whitespace-separated words, as the totals
LENGTH_BANDS: Tuple[Tuple[str, int, Optional[int]], ...] = (
    ("under 500", 0, 500),
    ("500-2,000", 500, 2000),
    ("over 2,000", 2000, None),
)


def band_indices(n_words: Sequence[int]) -> List[Tuple[str, List[int]]]:
    """The documents of each band, shortest band first; bands without documents left out.

    n_words (Sequence[int]): words per document.
    RETURNS (List[Tuple[str, List[int]]]): (band label, document indices in input order).
    """
    bands = []
    for label, low, high in LENGTH_BANDS:
        chosen = [i for i, n in enumerate(n_words) if n >= low and (high is None or n < high)]
        if chosen:
            bands.append((label, chosen))
    return bands


def band_row(n_docs: int, words: int, seconds: float) -> Dict[str, float]:
    """One band's figures."""
    return {"docs": n_docs, "words": words, "seconds": seconds,
            "words_per_s": words / seconds if seconds else 0.0}
