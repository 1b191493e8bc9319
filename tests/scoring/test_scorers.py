"""The spaCy scorer `spacy_coref.coref_scorer.v1` on Examples built from hand-made docs."""
from importlib.metadata import entry_points

import pytest
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import registry
from spacy.vocab import Vocab

from spacy_coref.annotations import GOLD_MENTIONS_KEY, set_clusters
from spacy_coref.scoring.metrics import score_documents
from spacy_coref.scoring.scorers import (
    CONLL_SCORE_KEYS,
    GAP_SCORE_KEYS,
    SCORE_KEYS,
    make_coref_scorer,
    score_coref,
)

WORDS = "Anna said she would call her brother , and he agreed .".split()
GOLD = [[(0, 1), (2, 3), (5, 6)], [(5, 7), (9, 10)]]
PRED = [[(0, 1), (2, 3)], [(5, 6), (9, 10)], [(11, 12)]]


def make_example(gold, pred, words=WORDS, pred_words=None, prefix="coref_clusters"):
    vocab = Vocab()
    # No space before punctuation, so that both tokenizations have the same text.
    spaces = [i + 1 < len(words) and words[i + 1] not in ",." for i in range(len(words))]
    reference = Doc(vocab, words=words, spaces=spaces)
    pred_words = pred_words or words
    pred_spaces = [i + 1 < len(pred_words) for i in range(len(pred_words))]
    predicted = Doc(vocab, words=pred_words, spaces=spaces if pred_words is words else pred_spaces)
    set_clusters(reference, gold, prefix=prefix)
    set_clusters(predicted, pred, prefix=prefix)
    return Example(predicted, reference)


def test_registered_by_decorator_and_entry_point():
    assert registry.scorers.get("spacy_coref.coref_scorer.v1") is make_coref_scorer
    names = {ep.name: ep for ep in entry_points(group="spacy_scorers")}
    assert names["spacy_coref.coref_scorer.v1"].load() is make_coref_scorer
    assert make_coref_scorer() is score_coref


def test_conll_scores_are_fractions_of_the_metrics():
    scores = score_coref([make_example(GOLD, PRED)])
    assert set(scores) == set(SCORE_KEYS)
    expected = score_documents([(GOLD, PRED)])
    assert scores["coref_f"] == pytest.approx(expected["conll_f1"] / 100)
    for metric in ("muc", "b3", "ceafe", "ceafm", "blanc", "lea", "mentions"):
        for x in ("p", "r", "f"):
            assert scores[f"coref_{metric}_{x}"] == pytest.approx(expected[metric][x] / 100)
    assert all(scores[key] is None for key in GAP_SCORE_KEYS)
    assert 0 < scores["coref_f"] < 1


def test_settings_from_kwargs():
    eg = make_example(GOLD, PRED)
    kept = score_coref([eg], keep_singletons=True, other_setting=3)
    removed = score_coref([eg], keep_singletons=False)
    assert removed["coref_mentions_p"] == pytest.approx(1.0)  # the spurious singleton is gone
    assert kept["coref_mentions_p"] == pytest.approx(4 / 5)
    custom = make_example(GOLD, PRED, prefix="my_clusters")
    assert score_coref([custom], spans_prefix="my_clusters") == pytest.approx(kept)
    assert score_coref([custom])["coref_mentions_r"] == 0.0  # default prefix: nothing found


def test_perfect_empty_and_no_examples():
    assert score_coref([make_example(GOLD, GOLD)])["coref_f"] == pytest.approx(1.0)
    empty = score_coref([make_example([], [], words=["Hi"])])
    assert empty["coref_f"] == 0.0 and empty["coref_mentions_f"] == 0.0
    assert all(value is None for value in score_coref([]).values())


def test_different_tokenization_is_compared_by_characters():
    pred_words = "Anna said she would call her brother, and he agreed.".split()
    # Same text; "brother," is token 6 in the predicted doc and "he" token 8.
    eg = make_example(GOLD, [[(0, 1), (2, 3), (5, 6)], [(5, 7), (8, 9)]], pred_words=pred_words)
    assert eg.predicted.text == eg.reference.text
    scores = score_coref([eg])
    assert scores["coref_mentions_r"] == pytest.approx(4 / 5)  # "her brother," != "her brother"
    assert scores["coref_b3_p"] < 1.0


def gap_example(gold_a: bool, gold_b: bool, pred):
    # "He" (pronoun) ... A = "John Smith", B = "Bill"
    words = "John Smith met Bill . He left .".split()
    vocab = Vocab()
    reference, predicted = Doc(vocab, words=words), Doc(vocab, words=words)
    roles = {"PRONOUN": (5, 6), "A": (0, 2), "B": (3, 4)}
    spans = [Span(reference, start, end, label=role) for role, (start, end) in roles.items()]
    reference.spans[GOLD_MENTIONS_KEY] = spans
    gold = [roles["PRONOUN"]] + [roles[r] for r, flag in (("A", gold_a), ("B", gold_b)) if flag]
    set_clusters(reference, [gold] if len(gold) > 1 else [])
    set_clusters(predicted, pred)
    return Example(predicted, reference)


def test_gap_docs_get_gap_metrics():
    examples = [
        gap_example(True, False, [[(1, 2), (5, 6)]]),  # "Smith" ~ A: tp, tn
        gap_example(False, True, [[(0, 2), (5, 6)]]),  # fp, fn
        gap_example(False, False, [[(0, 1), (3, 4)]]),  # pronoun unlinked: tn, tn
    ]
    scores = score_coref(examples)
    assert all(scores[key] is None for key in CONLL_SCORE_KEYS)
    assert scores["coref_gap_f"] == pytest.approx(0.5)  # tp 1, fp 1, fn 1
    assert scores["coref_gap_f_masculine"] == pytest.approx(0.5)
    assert scores["coref_gap_f_feminine"] == 0.0
    assert scores["coref_gap_bias"] is None  # F feminine is 0
    mixed = score_coref(examples + [make_example(GOLD, GOLD)])
    assert mixed["coref_f"] == pytest.approx(1.0) and mixed["coref_gap_f"] == pytest.approx(0.5)


def test_malformed_gap_reference():
    eg = gap_example(True, False, [])
    eg.reference.spans[GOLD_MENTIONS_KEY] = [Span(eg.reference, 5, 6, label="PRONOUN")]
    with pytest.raises(ValueError, match="CE061"):
        score_coref([eg])
