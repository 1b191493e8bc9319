"""The cataphora constraint: a pronoun in a part fronted before its clause's subject joins that
subject where nothing before it is its antecedent. Docs are built by hand (words, heads, deps,
tags, entities), scores too, with sentences of our own."""
import numpy
import spacy
from decoding_helpers import parsed, scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding.steps.cataphora import link_cataphora, unparsed_fronted_subjects
from spacy_coref.decoding import decode_clusters
from spacy_coref.linguistics.mention_analysis import mention_constraints
from spacy_coref.linguistics.mention_classes import CATAPHORIC_PRONOUNS, conflicting_classes
from spacy_coref.linguistics.mention_classes import mention_classes

def landed_doc(pronoun="she", subject="Maria"):
    # When she landed , Maria called home .
    return parsed(
        ["When", pronoun, "landed", ",", subject, "called", "home", "."],
        [2, 2, 5, 5, 5, 5, 5, 5],
        ["advmod", "nsubj", "advcl", "punct", "nsubj", "ROOT", "advmod", "punct"],
        ["WRB", "PRP", "VBD", ",", "NNP", "VBD", "RB", "."],
    )


PRONOUN, SUBJECT = (1, 2), (4, 5)


def decode(doc, spans, pair_scores, constraints=("cataphora",)):
    return decode_clusters(doc, scores_for(spans, pair_scores), 0.0, list(constraints))


def test_a_fronted_clause_pronoun_joins_the_subject_after_it():
    doc = landed_doc()
    # the model gives "Maria" no antecedent: "she" comes first
    assert decode(doc, [PRONOUN, SUBJECT], [[], [-3.0]], constraints=()) == []
    assert decode(doc, [PRONOUN, SUBJECT], [[], [-3.0]]) == [[PRONOUN, SUBJECT]]


def test_no_link_where_the_genders_differ_or_the_subject_is_no_known_person():
    assert decode(landed_doc("he"), [PRONOUN, SUBJECT], [[], [-3.0]]) == []
    # "When he landed, Okafor called": a surname alone, which no first name makes a man
    assert decode(landed_doc("he", "Okafor"), [PRONOUN, SUBJECT], [[], [-3.0]]) == []
    # the same name as a PERSON entity: a person of unknown gender, "he" may be them
    doc = landed_doc("he", "Okafor")
    doc.ents = [doc.char_span(doc[4].idx, doc[4].idx + len("Okafor"), label="PERSON")]
    assert decode(doc, [PRONOUN, SUBJECT], [[], [-3.0]]) == [[PRONOUN, SUBJECT]]


def test_a_person_noun_of_either_gender_takes_he_or_she():
    # When she landed , the pilot called home .  ("pilot" is a person noun, either gender)
    words = ["When", "she", "landed", ",", "the", "pilot", "called", "home", "."]
    heads = [2, 2, 6, 6, 5, 6, 6, 6, 6]
    deps = ["advmod", "nsubj", "advcl", "punct", "det", "nsubj", "ROOT", "advmod", "punct"]
    tags = ["WRB", "PRP", "VBD", ",", "DT", "NN", "VBD", "RB", "."]
    assert decode(parsed(words, heads, deps, tags), [(1, 2), (4, 6)], [[], [-3.0]]) == [
        [(1, 2), (4, 6)]
    ]
    # a plural pronoun does not take the pilot
    words[1], tags[1] = "they", "PRP"
    assert decode(parsed(words, heads, deps, tags), [(1, 2), (4, 6)], [[], [-3.0]]) == []


def test_no_link_to_a_subject_of_unknown_agreement():
    # When he arrived , the office was empty .
    doc = parsed(
        ["When", "he", "arrived", ",", "the", "office", "was", "empty", "."],
        [2, 2, 6, 6, 5, 6, 6, 6, 6],
        ["advmod", "nsubj", "advcl", "punct", "det", "nsubj", "ROOT", "acomp", "punct"],
        ["WRB", "PRP", "VBD", ",", "DT", "NN", "VBD", "JJ", "."],
    )
    assert decode(doc, [(1, 2), (4, 6)], [[], [-3.0]]) == []


def test_a_plural_pronoun_joins_a_plural_subject():
    # Because they were hungry , the children ate .
    doc = parsed(
        ["Because", "they", "were", "hungry", ",", "the", "children", "ate", "."],
        [2, 2, 7, 2, 7, 6, 7, 7, 7],
        ["mark", "nsubj", "advcl", "acomp", "punct", "det", "nsubj", "ROOT", "punct"],
        ["IN", "PRP", "VBD", "JJ", ",", "DT", "NNS", "VBD", "."],
    )
    assert decode(doc, [(1, 2), (5, 7)], [[], [-3.0]]) == [[(1, 2), (5, 7)]]


def test_a_possessive_in_a_fronted_phrase():
    # In her letter , Maria asked .
    doc = parsed(
        ["In", "her", "letter", ",", "Maria", "asked", "."],
        [5, 2, 0, 5, 5, 5, 5],
        ["prep", "poss", "pobj", "punct", "nsubj", "ROOT", "punct"],
        ["IN", "PRP$", "NN", ",", "NNP", "VBD", "."],
    )
    spans = [(1, 2), (1, 3), (4, 5)]
    assert decode(doc, spans, [[], [-3.0], [-3.0, -3.0]]) == [[(1, 2), (4, 5)]]


def test_a_clause_after_the_subject_is_left_to_the_model():
    # Maria called when she landed .
    doc = parsed(
        ["Maria", "called", "when", "she", "landed", "."],
        [1, 1, 4, 4, 1, 1],
        ["nsubj", "ROOT", "advmod", "nsubj", "advcl", "punct"],
        ["NNP", "VBD", "WRB", "PRP", "VBD", "."],
    )
    assert decode(doc, [(0, 1), (3, 4)], [[], [-3.0]]) == []


def test_a_pronoun_with_an_antecedent_before_it_stays_there():
    # Anna slept . When she landed , Maria called home .
    words = ["Anna", "slept", "."]
    doc = parsed(
        words + ["When", "she", "landed", ",", "Maria", "called", "home", "."],
        [1, 1, 1, 5, 5, 8, 8, 8, 8, 8, 8],
        ["nsubj", "ROOT", "punct", "advmod", "nsubj", "advcl", "punct", "nsubj", "ROOT",
         "advmod", "punct"],
        ["NNP", "VBD", ".", "WRB", "PRP", "VBD", ",", "NNP", "VBD", "RB", "."],
    )
    spans = [(0, 1), (4, 5), (7, 8)]
    assert decode(doc, spans, [[], [2.0], [-3.0, -3.0]]) == [[(0, 1), (4, 5)]]


def test_the_pronouns_cluster_joins_the_subjects_cluster():
    doc = landed_doc()
    clusters = [[PRONOUN, (6, 7)], [SUBJECT, (7, 8)]]  # stand-ins for later mentions
    spans = [PRONOUN, SUBJECT, (6, 7), (7, 8)]
    mentions = mention_constraints(doc, spans)
    classes = mention_classes(numpy.asarray(spans), mentions.classes)
    heads = mentions.heads.tolist()
    joined = link_cataphora(doc, clusters, spans, heads, classes, CATAPHORIC_PRONOUNS,
                            conflicting_classes)
    assert joined == [[PRONOUN, SUBJECT, (6, 7), (7, 8)]]
    # a masculine mention in the subject's cluster keeps "she" out
    classes[(7, 8)] = CATAPHORIC_PRONOUNS["he"]
    kept = link_cataphora(doc, clusters, spans, heads, classes, CATAPHORIC_PRONOUNS,
                          conflicting_classes)
    assert kept == sorted(clusters)


def test_without_a_parse_the_words_show_the_fronted_part_and_its_subject():
    nlp = spacy.blank("en")

    def subjects(text):
        doc = nlp(text)
        pronouns = [t.i for t in doc if t.lower_ in CATAPHORIC_PRONOUNS]
        found = unparsed_fronted_subjects(doc, pronouns)
        return {doc[i].text: doc[s:e].text for i, (s, e) in found.items()}

    assert subjects("While she waited for the bus , Ines read a book .") == {"she": "Ines"}
    assert subjects("In his speech , the old mayor praised them .") == {"his": "the old mayor"}
    # no fronting word, a pronoun after the comma, no verb after the subject: nothing
    assert subjects("She waited , and Ines read .") == {}
    assert subjects("When she left , she cried .") == {}
    assert subjects("When she left , the long dark night .") == {}
    # the opening word is looked for at most MAX_FRONTED_WORDS back (text without punctuation
    # is one long sentence): farther, the part is not read as fronted
    far = "When " + "the old man and " * 4 + "she waited , Ines read ."
    assert subjects(far) == {}
    # decoding: "Maria" is a she by her first name; "the office" is no known person
    doc = nlp("When she landed , Maria called home .")
    assert decode(doc, [PRONOUN, SUBJECT], [[], [-3.0]], constraints=()) == []
    assert decode(doc, [PRONOUN, SUBJECT], [[], [-3.0]]) == [[PRONOUN, SUBJECT]]
    doc = nlp("When he arrived , the office was empty .")
    assert decode(doc, [(1, 2), (4, 6)], [[], [-3.0]]) == []
