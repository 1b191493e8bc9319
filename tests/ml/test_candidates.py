"""Candidate mentions without a parse: all spans up to a width ("spans"), and the spans a mention
can be ("sentence_spans": within one sentence or transcript turn, no punctuation or function
word at an edge)."""
import spacy
from spacy.tokens import Doc

from spacy_coref.ml.candidates import doc_candidates

WORDS = ["Maria", "runs", "the", "shop", ".", "She", "and", "her", "son", "left", "."]
SENT_STARTS = [True] + [False] * 4 + [True] + [False] * 5


def _doc(sentences: bool = True) -> Doc:
    return Doc(spacy.blank("en").vocab, words=WORDS,
               sent_starts=SENT_STARTS if sentences else None)


def _texts(doc, spans):
    return {doc[int(s):int(e)].text for s, e in spans}


def test_sentence_spans_stay_in_one_sentence_and_skip_edges():
    doc = _doc()
    spans = doc_candidates(doc, source="sentence_spans", max_width=4)
    texts = _texts(doc, spans)
    assert {"Maria", "the shop", "She", "her son", "her", "She and her son"} <= texts
    assert "shop . She" not in texts and ". She" not in texts  # across the boundary, punct
    assert "the" not in texts and "and her" not in texts  # function words at an edge
    assert "runs the" not in texts
    every = _texts(doc, doc_candidates(doc, source="spans", max_width=4))
    assert texts < every and "shop . She" in every and "the" in every
    # sorted and unique, as for the other sources
    assert [tuple(s) for s in spans.tolist()] == sorted({tuple(s) for s in spans.tolist()})


def test_without_sentence_boundaries_the_doc_is_one_sentence():
    doc = _doc(sentences=False)
    texts = _texts(doc, doc_candidates(doc, source="sentence_spans", max_width=4))
    assert "shop . She" in texts  # one sentence: only the edges are checked
    assert ". She and" not in texts and "the shop" in texts
    assert "Maria runs the shop" in texts
    empty = Doc(doc.vocab, words=[])
    assert doc_candidates(empty, source="sentence_spans").shape == (0, 2)


def test_a_transcripts_turns_and_labels_are_sentences_of_their_own():
    nlp = spacy.blank("en")
    doc = nlp("Ann: We fed the dog\nBo: Nice one\nAnn: Yes he ate\nBo: Good")
    texts = _texts(doc, doc_candidates(doc, source="sentence_spans", max_width=6))
    assert {"the dog", "Nice one", "he", "Ann", "Bo"} <= texts
    assert not any("\n" in text or ":" in text for text in texts)
    # a text with labelled lines that are no transcript (one turn each) is read as before
    email = nlp("From: Ann Lee\nTo: Bo\nSubject: the dog")
    assert "Ann Lee\nTo: Bo" in _texts(email, doc_candidates(email, source="sentence_spans"))


def test_a_subject_pronoun_starts_no_span_but_a_coordination():
    doc = Doc(spacy.blank("en").vocab, words=["He", "told", "her", "that", "she", "and", "Tom",
                                              "won", "."])
    texts = _texts(doc, doc_candidates(doc, source="sentence_spans", max_width=4))
    assert {"He", "her", "she", "she and Tom", "Tom"} <= texts
    assert not {"He told", "He told her", "she and"} & texts  # clauses, and an edge
    # the last word of a doc starts no two-word span: no index past the end
    last = Doc(doc.vocab, words=["Anna", "saw", "she"])
    assert "she" in _texts(last, doc_candidates(last, source="sentence_spans", max_width=4))


def test_a_verb_and_its_object_pronoun_end_no_span_but_a_relative_clause():
    words = ["The", "city", "hired", "her", ";", "the", "man", "who", "saw", "him", "left", ";",
             "a", "picture", "of", "him", ";", "the", "time", "to", "drink", "them"]
    doc = Doc(spacy.blank("en").vocab, words=words)
    texts = _texts(doc, doc_candidates(doc, source="sentence_spans", max_width=5))
    assert {"The city", "her", "him", "them"} <= texts
    assert not {"The city hired her", "city hired her", "hired her"} & texts
    # a relative word or "to" makes the clause part of a noun phrase; a preposition is no verb
    assert {"the man who saw him", "a picture of him", "the time to drink them"} <= texts


def test_a_comma_a_coordinator_and_a_subject_pronoun_end_no_span():
    # "Her son joined her ten years later , and he now runs the shop"
    words = ["Her", "son", "joined", "her", "ten", "years", "later", ",", "and", "he", "now",
             "runs", "it", ";", "Ann", "and", "he", "left"]
    doc = Doc(spacy.blank("en").vocab, words=words)
    texts = _texts(doc, doc_candidates(doc, source="sentence_spans", max_width=7))
    assert {"her", "he", "Ann and he"} <= texts  # a coordination without a comma stays
    assert not {"her ten years later , and he", "later , and he"} & texts
