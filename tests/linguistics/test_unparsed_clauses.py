"""Binding without a parse (the fast pipeline): the subject of a pronoun's clause read off the
words and their usual tags. Docs come from a blank English pipeline with a sentencizer, as the
fast pipeline's do; the scores of the decoding test are built by hand."""
import numpy
import pytest
import spacy
from decoding_helpers import scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding import decode_clusters
from spacy_coref.linguistics.unparsed_clauses import unparsed_clause_subjects


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def subject_of(nlp, text, pronoun, tags=None):
    """The words of the subject that binds the one-word mention `pronoun` (its last
    occurrence), or None."""
    doc = nlp(text)
    at = max(t.i for t in doc if t.text == pronoun)
    roots, subjects = unparsed_clause_subjects(doc, numpy.asarray([[at, at + 1]]), tags)
    assert roots.tolist() == [at]  # a span's last token stands for its head
    return None if subjects[0] < 0 else doc[int(subjects[0])].text


@pytest.mark.parametrize(
    "text,pronoun,subject",
    [
        ("Tom paid him.", "him", "Tom"),
        ("Tom never paid him.", "him", "Tom"),  # an adverb between subject and verb
        ("Tom has paid them.", "them", "Tom"),  # an auxiliary
        ("Sara saw the dentist and waved at her.", "her", "Sara"),  # a preposition
        ("Carlos called the mechanic and thanked him.", "him", "Carlos"),  # "and" shares it
        ("Elena thanked the nurse, hugging her warmly.", "her", "Elena"),  # -ing after a comma
        ("Luis offered to carry him home.", "him", "Luis"),  # "to": the subject of "offered"
        ("Tom asked Ann to help him.", "him", "Ann"),  # "to": the object of "asked"
        ("Ann told Tom to let him go.", "him", "Tom"),
        ("Tom said Mary liked him.", "him", "Mary"),  # the nearest clause's subject
        ("I know the man who saw him.", "him", "man"),  # a relative clause
        ("Kate's mother drove herself home.", "herself", "mother"),  # the possessed noun
        ("The plumber came, and Tom paid him.", "him", "Tom"),
        # a name in apposition after a noun: the subject's last word
        ("The hiring manager, Mr. Costa, called her.", "her", "Costa"),
    ],
)
def test_the_subject_of_a_pronouns_clause(nlp, text, pronoun, subject):
    assert subject_of(nlp, text, pronoun) == subject


@pytest.mark.parametrize(
    "text,pronoun",
    [
        ("Tom met her brother.", "her"),  # possessive: her brother is not bound
        ("The company said it would grow.", "it"),  # "it" may be the next clause's subject
        ("Tom put the box behind him.", "him"),  # no verb right before the pronoun
        ("Tom liked Ann. Him, she never paid.", "Him"),  # the sentence's start
        ("Tom ; paid him.", "him"),  # no subject the words show
        ("Ann let him see them.", "them"),  # "him": the object case is read as no subject
        ("Slowly, Mr. Costa, called her.", "her"),  # no noun before the commas' name
    ],
)
def test_nothing_binds_where_the_words_do_not_show_a_subject(nlp, text, pronoun):
    assert subject_of(nlp, text, pronoun) is None


def test_an_expletive_is_no_subject(nlp):
    assert subject_of(nlp, "There seemed itself a reason.", "itself") is None
    assert subject_of(nlp, "He found himself alone.", "himself") == "He"


def test_the_table_decides_what_a_word_is(nlp):
    # "zorbed" is in no table: its ending makes it a verb; a table that calls it a noun wins
    assert subject_of(nlp, "Tom zorbed him.", "him", tags={}) == "Tom"
    assert subject_of(nlp, "Tom zorbed him.", "him", tags={"zorbed": "NOUN"}) is None


def test_unparsed_binding_moves_a_pronoun_to_another_antecedent(nlp):
    doc = nlp("The plumber fixed the sink and Tom paid him .")
    assert not doc.has_annotation("DEP")
    plumber, sink, tom, him = (0, 2), (3, 5), (6, 7), (8, 9)
    spans = [plumber, sink, tom, him]
    # the model's mistake: "him" scores Tom highest, the plumber next
    scores = scores_for(spans, [[], [-2.0], [-1.0, -2.0], [2.0, -1.0, 3.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [[tom, him]]
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[plumber, him]]


def test_unparsed_binding_makes_a_reflexive_take_its_subject(nlp):
    doc = nlp("Kate 's mother drove herself home .")
    kate, mother, herself = (0, 1), (0, 3), (4, 5)
    scores = scores_for([kate, mother, herself], [[], [-1.0], [3.0, 1.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [[kate, herself]]
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[mother, herself]]
