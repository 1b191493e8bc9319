"""Who speaks a quote without a parse (the fast pipeline): the speech tag read off the words
next to the quote's marks. Docs from a blank English pipeline with a sentencizer."""
import pytest
import spacy
from decoding_helpers import scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding import decode_clusters
from spacy_coref.pipeline.constraints import QUOTES
from spacy_coref.decoding.steps.quotes import link_quote_pronouns
from spacy_coref.linguistics.quotations import letter_parties, quote_speakers
from spacy_coref.linguistics.unparsed_quotes import speech_verb_forms


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def attributed(nlp, text):
    """(quote, speaker, addressee) words of each attributed quote."""
    doc = nlp(text)
    assert not doc.has_annotation("DEP")

    def words(span):
        return None if span is None else doc[span[0] : span[1]].text

    return [(doc[q.start : q.end].text, words(q.speaker), words(q.addressee))
            for q in quote_speakers(doc)]


@pytest.mark.parametrize(
    "text,speaker,addressee",
    [
        ('"I am late," Tom told Anna.', "Tom", "Anna"),
        ('"You look tired," Maria said to her brother.', "Maria", "her brother"),
        ('"Can you help me?" Sam asked the librarian.', "Sam", "the librarian"),
        ('"I lived here," the old fisherman told the reporter.', "the old fisherman",
         "the reporter"),
        ('"Yes," said his wife quietly.', "his wife", None),  # the verb first
        ('"I will show you out," said the child\'s nurse.', "the child's nurse", None),
        ('"Wait," he said softly.', "he", None),
        ('Grandma smiled at Lily and said, "I knitted this for you."', "Grandma", None),
        ('Mrs. Gray said to the new boy, "You can sit here."', "Mrs. Gray", "the new boy"),
        ('"Hi," he began to puff.', "he", None),  # "to puff" is no one
        ("'You look tired,' Tom laughed.", "Tom", None),  # single marks
    ],
)
def test_the_speech_tag_is_read_off_the_words(nlp, text, speaker, addressee):
    [(_, found_speaker, found_addressee)] = attributed(nlp, text)
    assert (found_speaker, found_addressee) == (speaker, addressee)


@pytest.mark.parametrize(
    "text",
    [
        '"I am late." Tom sat down.',  # no verb of saying
        '"You look tired." Tom laughed.',  # a full stop ends the quote's sentence
        'Tom said nothing. "I am late."',  # the tag is the sentence before's
        'Tom, who never said much about it, "I am late."',  # other words between verb and quote
    ],
)
def test_no_speaker_where_the_words_show_none(nlp, text):
    assert attributed(nlp, text) == []


def test_a_reply_is_said_to_the_speaker_before(nlp):
    text = '"Where are my glasses?" Grandpa asked. "On your head," Mia replied.'
    assert attributed(nlp, text) == [
        ("Where are my glasses?", "Grandpa", None), ("On your head,", "Mia", "Grandpa"),
    ]


def test_forms_of_the_verbs_of_saying():
    forms = speech_verb_forms(["say", "reply", "ask", "whisper", "sob", "tell"])
    for form, lemma in [("said", "say"), ("says", "say"), ("replied", "reply"),
                        ("replies", "reply"), ("asked", "ask"), ("whispered", "whisper"),
                        ("whispers", "whisper"), ("sobbed", "sob"), ("told", "tell")]:
        assert forms[form] == lemma


def test_the_pronouns_of_a_quote_move_to_its_speaker(nlp):
    doc = nlp('"I am late," Tom told Anna.')
    i, tom, anna = (1, 2), (6, 7), (8, 9)
    assert link_quote_pronouns(doc, [[i, anna]]) == [[i, tom]]
    scores = scores_for([i, tom, anna], [[], [-1.0], [2.0, -1.0]])  # Anna's best: "I"
    assert decode_clusters(doc, scores, 0.0, []) == [[i, anna]]
    assert decode_clusters(doc, scores, 0.0, [QUOTES]) == [[i, tom]]


def test_a_letters_writer_and_reader_without_tags(nlp):
    doc = nlp("Dear Hannah,\n\nI wrote to you.\n\nBest wishes,\nRuth Alvarez")
    writer, reader = letter_parties(doc)
    assert doc[writer[0] : writer[1]].text == "Ruth Alvarez"
    assert doc[reader[0] : reader[1]].text == "Hannah"
    # a capitalised word the table calls a function word is no name; a noun may be one
    doc = nlp("Dear All,\n\nYour letter came.\n\nThanks,\nThe team")
    assert letter_parties(doc) == (None, None)
    doc = nlp("Dear Sir,\n\nYour letter came.\n\nBest,\nGrace")
    assert [doc[s:e].text for s, e in letter_parties(doc)] == ["Grace", "Sir"]


def test_a_letters_i_leaves_its_reader_where_the_writer_is_unknown(nlp):
    doc = nlp("Hi Grace,\n\nI read your draft.\n\nCheers")
    assert letter_parties(doc) == (None, (1, 2))
    grace, i, your = [(t.i, t.i + 1) for t in doc if t.text in ("Grace", "I", "your")]
    assert link_quote_pronouns(doc, [[grace, i, your]]) == [[grace, your]]
