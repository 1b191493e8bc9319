"""The heads' attributes read from the doc's arrays (`coref_features._head_attributes`) equal
what a Token per head gave before (the reference below is that code), on the parsed dev docs of
the decoding snapshot, on their unparsed copies and text views, on an empty doc and a huge one."""
from pathlib import Path
from typing import Dict

import numpy
import pytest
import spacy
from spacy.tokens import Doc, Token

from spacy_coref.decoding.snapshot import load_snapshot, unparsed_copy
from spacy_coref.ml.coref_features import (
    ENTITY_IDS, GENDERS, NUMBERS, OTHER_ENTITY, PERSONS, PRONOUN_FORMS, _head_attributes,
    sentence_indices, text_view, word_shape,
)
from spacy_coref.ml.torch import pair_features as pf

SNAPSHOT = Path(__file__).parent.parent / "data" / "decoding_snapshot"


def token_attributes(head: Token, sentences: numpy.ndarray, lemmas: Dict[str, int]) -> tuple:
    """The attributes as they were read from a Token (the code the arrays replace)."""
    pos, morph, lower = head.pos_, head.morph, head.lower_
    if pos == "PRON" or (not pos and lower in PRONOUN_FORMS):
        personal = "Prs" in morph.get("PronType") or lower in PRONOUN_FORMS
        mention_type = pf.PERSONAL_PRONOUN if personal else pf.OTHER_PRONOUN
    else:
        types = {"DET": pf.OTHER_PRONOUN, "PROPN": pf.PROPER, "NOUN": pf.NOMINAL,
                 "NUM": pf.NOMINAL, "VERB": pf.EVENT, "AUX": pf.EVENT}
        mention_type = types.get(pos, pf.OTHER_TYPE)
    form = PRONOUN_FORMS.get(lower, (0, 0, 0)) if pos in ("PRON", "") else (0, 0, 0)
    if len(morph):
        found = [[t[v] for v in morph.get(k) if v in t]
                 for k, t in zip(("Person", "Number", "Gender"), (PERSONS, NUMBERS, GENDERS))]
        form = tuple(f[0] if f else fallback for f, fallback in zip(found, form))
    entity = ENTITY_IDS.get(head.ent_type_, OTHER_ENTITY) if head.ent_type_ else 0
    first_word = head.i == 0 or sentences[head.i] != sentences[head.i - 1]
    lemma = lemmas.setdefault((head.lemma_ or head.text).lower(), len(lemmas))
    return (mention_type, *form, entity, word_shape(head.text, first_word), lemma)


def assert_as_tokens_gave(doc: Doc, heads: numpy.ndarray) -> None:
    sentences = sentence_indices(doc)
    lemmas: Dict[str, int] = {}
    expected = [token_attributes(doc[h], sentences, lemmas) for h in heads.tolist()]
    found = _head_attributes(doc, heads, sentences)
    assert found.shape == (len(heads), 7) and found.dtype == "int64"
    assert found.tolist() == [list(row) for row in expected]


@pytest.fixture(scope="module")
def snapshot_docs():
    return load_snapshot(SNAPSHOT, spacy.blank("en").vocab)[0]


@pytest.mark.parametrize("view", ["parsed", "unparsed", "text view"])
def test_every_token_of_the_dev_docs(snapshot_docs, view):
    made = {"parsed": lambda d: d, "unparsed": unparsed_copy, "text view": text_view}[view]
    rng = numpy.random.default_rng(0)
    for doc in snapshot_docs:
        doc = made(doc)
        assert_as_tokens_gave(doc, numpy.arange(len(doc)))
        # a sparse subset, as the candidates' distinct heads are
        assert_as_tokens_gave(doc, numpy.flatnonzero(rng.random(len(doc)) < 0.1))
    parsed = snapshot_docs[0]
    assert parsed.has_annotation("MORPH") and parsed.has_annotation("ENT_IOB")
    # the parsed docs exercise what the columns can say
    found = _head_attributes(parsed, numpy.arange(len(parsed)), sentence_indices(parsed))
    assert len(set(found[:, 0].tolist())) >= 5 and found[:, 3].any() and found[:, 4].any()


def test_an_empty_and_a_huge_doc(snapshot_docs):
    vocab = snapshot_docs[0].vocab
    empty = Doc(vocab, words=[])
    assert _head_attributes(empty, numpy.zeros(0, dtype="int64"), sentence_indices(empty)).shape \
        == (0, 7)
    huge = Doc.from_docs([snapshot_docs[i % len(snapshot_docs)] for i in range(60)])
    assert len(huge) > 50_000
    assert_as_tokens_gave(huge, numpy.arange(0, len(huge), 7))
