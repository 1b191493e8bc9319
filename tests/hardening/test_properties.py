"""Property-based tests (derandomized hypothesis): random Unicode and adversarial text through
`coref_mentions` and the full `coref` stack never crashes, keeps the text, and gives valid,
repeatable candidates and clusters. `--slow` runs thousands of inputs."""

from typing import Callable, List

import pytest
from hardening_invariants import check_doc, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacy_coref.annotations import get_mentions

# Pieces users' text really contains; hypothesis joins them with odd separators.
# fmt: off
WORDS = [
    "he", "she", "him", "her", "his", "it", "they", "them", "I", "you", "we", "himself",
    "Anna", "Bob", "Mr.", "Smith", "the", "doctor", "said", "saw", "and", "a", "cat", "'s",
    ".", ",", "!", "?", "\"", "(", ")", "-", "--", "*", "***", "'", "’s", "…",
]
ODD_PIECES = [
    "\U0001F468\u200d\U0001F469\u200d\U0001F467",  # family emoji, ZWJ sequence
    "\U0001F44D\U0001F3FD", "\U0001F1EB\U0001F1F7", "\u2764\ufe0f",  # skin tone, flag, VS16
    "\u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd",  # Hebrew with points (RTL, marks)
    "\u0645\u064e\u0631\u0652\u062d\u064e\u0628\u064b\u0627",  # Arabic with harakat
    "\u200f", "\u200e", "\u202e",  # RTL/LTR marks, right-to-left override
    "e\u0301", "a\u0308\u0301\u0323", "\u0301",  # combining marks, one without a base
    "\u00a0", "\u200b", "\ufeff", "\x00", "\r\n", "\r", "\t", "\x0b", "\x0c", "\x1b[31m",
    "\u2028", "\u3000", "\u0085", "ｆｕｌｌｗｉｄｔｈ", "ǅ", "ß", "İ", "ﬁ",
    "\u4e2d\u6587", "\u0e20\u0e32\u0e29\u0e32", "\U0001D400\U0001D401",  # CJK, Thai, math
    "x" * 300, "supercalifragilistic" * 20, "😀" * 50, "\u0301" * 40,
]
SEPARATORS = [" ", " ", " ", "", "\n", "\n\n", "  ", "\t", "\u00a0", "\u200b", "\r\n"]
# fmt: on

_piece = st.one_of(
    st.sampled_from(WORDS), st.sampled_from(ODD_PIECES), st.text(min_size=1, max_size=6)
)
_joined = st.lists(st.tuples(_piece, st.sampled_from(SEPARATORS)), max_size=60).map(
    lambda parts: "".join(piece + sep for piece, sep in parts)
)
TEXTS = st.one_of(
    st.text(max_size=200),  # any Unicode scalar value but surrogates
    st.text(st.sampled_from(" \t\n\r\u00a0\u200b\u3000\x0b\x0c"), max_size=20),
    _joined,
)
PROPERTY_SETTINGS = dict(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def run_mentions_property(nlp, n_examples: int) -> int:
    """Check `n_examples` texts on the parser + `coref_mentions`; return the number tried."""
    tried: List[str] = []

    @settings(max_examples=n_examples, **PROPERTY_SETTINGS)
    @given(TEXTS)
    def prop(text: str) -> None:
        tried.append(text)
        doc = nlp(text)
        check_doc(doc, text)
        assert get_mentions(nlp(text)) == get_mentions(doc)

    prop()
    return len(tried)


def run_coref_property(nlp, n_examples: int) -> int:
    """Check `n_examples` batches of 1-8 texts on the full stack (batched as users run it, and
    twice, which must agree exactly); return the number of texts tried."""
    tried: List[str] = []

    @settings(max_examples=n_examples, **PROPERTY_SETTINGS)
    @given(st.lists(TEXTS, min_size=1, max_size=8))
    def prop(texts: List[str]) -> None:
        tried.extend(texts)
        docs = list(nlp.pipe(texts, batch_size=4))
        for doc, text in zip(docs, texts):
            check_doc(doc, text)
        again = list(nlp.pipe(texts, batch_size=4))
        assert [snapshot(d) for d in again] == [snapshot(d) for d in docs]

    prop()
    return len(tried)


def _report(capsys, what: str, count: int, check: Callable[[int], bool]) -> None:
    with capsys.disabled():
        print(f"\n{what}: {count} inputs tried, no failure")
    assert check(count)


def test_random_text_on_mentions(english, capsys):
    count = run_mentions_property(english, 500)
    _report(capsys, "coref_mentions", count, lambda n: n >= 450)


def test_random_text_on_the_coref_stack(coref_nlp, capsys):
    count = run_coref_property(coref_nlp, 50)
    _report(capsys, "coref stack", count, lambda n: n >= 150)


@pytest.mark.slow
def test_many_random_texts_on_mentions(english, capsys):
    count = run_mentions_property(english, 5000)
    _report(capsys, "coref_mentions (slow)", count, lambda n: n >= 4500)


@pytest.mark.slow
def test_many_random_texts_on_the_coref_stack(coref_nlp, capsys):
    count = run_coref_property(coref_nlp, 250)
    _report(capsys, "coref stack (slow)", count, lambda n: n >= 800)
