"""Repeated names linked after decoding: docs tagged by hand (words, POS, heads, entities), so
that the tests read the rule and not a tagger's mistakes."""
import spacy
from spacy.tokens import Doc, Span
from decoding_helpers import scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding import decode_clusters
from spacy_coref.pipeline.constraints import AGREEMENT, BINDING, NAMES
from spacy_coref.linguistics.mention_classes import (
    COLLECTIVE,
    FEMININE,
    MASCULINE,
    conflicting_classes,
)
from spacy_coref.linguistics.person_names import GroupNames, person_names
from spacy_coref.decoding.steps.names import link_repeated_names
from spacy_coref.linguistics.name_words import (
    name_words,
    person_name_words,
    unparsed_name_words,
    unparsed_person_name_words,
)


def tagged(words, pos, persons=(), names=()):
    """A doc with the given POS, PERSON entities over the `persons` spans, and a flat parse
    (the rule reads the POS and the span's root): each word of a span in `names` or `persons`
    hangs from the span's last word, every other word is a root of its own."""
    heads = list(range(len(words)))
    for start, end in (*names, *persons):
        heads[start : end - 1] = [end - 1] * (end - 1 - start)
    doc = Doc(spacy.blank("en").vocab, words=words, pos=pos, heads=heads,
              deps=["dep"] * len(words))
    doc.ents = [Span(doc, s, e, label="PERSON") for s, e in persons]
    return doc


def link(doc, clusters, mentions, classes=None):
    return link_repeated_names(doc, clusters, mentions, classes or {}, conflicting_classes)


def test_a_name_repeated_joins_its_first_mention():
    # Felix left . He came . Felix smiled .
    doc = tagged(["Felix", "left", ".", "He", "came", ".", "Felix", "smiled", "."],
                 ["PROPN", "VERB", "PUNCT", "PRON", "VERB", "PUNCT", "PROPN", "VERB", "PUNCT"])
    mentions = [(0, 1), (3, 4), (6, 7)]
    assert link(doc, [], mentions) == [[(0, 1), (6, 7)]]
    # a clustered mention brings its cluster along
    assert link(doc, [[(0, 1), (3, 4)]], mentions) == [[(0, 1), (3, 4), (6, 7)]]


def test_a_cluster_goes_by_the_name_it_uses_most():
    # Vevey ; Geneva ; Vevey ; Geneva : the model put the first Geneva with Vevey
    doc = tagged(["Vevey", ";", "Geneva", ";", "Vevey", ";", "Geneva"],
                 ["PROPN", "PUNCT", "PROPN", "PUNCT", "PROPN", "PUNCT", "PROPN"])
    clusters = [[(0, 1), (2, 3), (4, 5)]]
    assert link(doc, clusters, [(0, 1), (2, 3), (4, 5), (6, 7)]) == clusters


def test_possessives_nationalities_and_lower_case_words_are_no_names():
    words = ["Emma", "'s", "hat", ";", "Emma", "'s", "coat", ";", "French", "French", "n't", "n't"]
    pos = ["PROPN", "PART", "NOUN", "PUNCT", "PROPN", "PART", "NOUN", "PUNCT", "PROPN", "PROPN",
           "PROPN", "PROPN"]
    doc = tagged(words, pos, names=[(0, 2), (4, 6)])
    doc.ents = [Span(doc, 8, 9, label="NORP"), Span(doc, 9, 10, label="NORP")]
    assert [name_words(doc[s:e]) for s, e in [(0, 2), (0, 1), (8, 9), (10, 11)]] == [
        None, ("emma",), None, None]
    assert link(doc, [], [(0, 2), (4, 6), (8, 9), (9, 10), (10, 11), (11, 12)]) == []


def test_a_leading_the_and_case_do_not_count_but_other_words_do():
    words = ["The", "Harlow", "Museum", "opened", ";", "the", "Harlow", "Museum", "closed", ";",
             "the", "museum", "and", "the", "museum"]
    pos = ["DET", "PROPN", "PROPN", "VERB", "PUNCT", "DET", "PROPN", "PROPN", "VERB", "PUNCT",
           "DET", "NOUN", "CCONJ", "DET", "NOUN"]
    doc = tagged(words, pos, names=[(0, 3), (5, 8), (10, 12), (13, 15)])
    assert name_words(doc[0:3]) == ("harlow", "museum")
    assert name_words(doc[10:12]) is None  # a common noun
    assert link(doc, [], [(0, 3), (5, 8), (10, 12), (13, 15)]) == [[(0, 3), (5, 8)]]


def test_one_word_of_a_single_longer_name():
    # Helena Kurz left . Kurz smiled . Helena waved .
    doc = tagged(["Helena", "Kurz", "left", ".", "Kurz", "smiled", ".", "Helena", "waved"],
                 ["PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "VERB", "PUNCT", "PROPN", "VERB"],
                 persons=[(0, 2), (4, 5), (7, 8)])
    # "Helena" inside "Helena Kurz" is no mention of its own to link
    clusters = link(doc, [], [(0, 1), (0, 2), (4, 5), (7, 8)])
    assert clusters == [[(0, 2), (4, 5), (7, 8)]]


def test_a_heading_s_numeral_tagged_a_pronoun_is_no_part_of_a_name():
    # CHAPTER I Emma Woodhouse , she ... Emma smiled : the candidate "I Emma Woodhouse" (the
    # tagger calls the numeral a pronoun) would hide "Emma Woodhouse" from the later "Emma"
    words = ["CHAPTER", "I", "Emma", "Woodhouse", ",", "she", "read", ".", "Emma", "smiled"]
    pos = ["NOUN", "PRON", "PROPN", "PROPN", "PUNCT", "PRON", "VERB", "PUNCT", "PROPN", "VERB"]
    doc = tagged(words, pos, persons=[(2, 4), (8, 9)], names=[(1, 4)])
    assert name_words(doc[1:4]) is None
    assert name_words(doc[2:4]) == ("emma", "woodhouse")
    clusters = link(doc, [[(2, 4), (5, 6)]], [(1, 4), (2, 4), (5, 6), (8, 9)])
    assert clusters == [[(2, 4), (5, 6), (8, 9)]]


def test_a_title_and_last_name_join_the_same_title_s_full_name():
    # Senator Paul Grady spoke . Mrs. Grady smiled . Senator Grady left .
    words = ["Senator", "Paul", "Grady", "spoke", ".", "Mrs.", "Grady", "smiled", ".", "Senator",
             "Grady", "left"]
    pos = ["PROPN", "PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "PROPN", "VERB", "PUNCT",
           "PROPN", "PROPN", "VERB"]
    doc = tagged(words, pos, persons=[(1, 3), (6, 7), (10, 11)], names=[(0, 3), (5, 7), (9, 11)])
    mentions = [(0, 3), (5, 7), (9, 11)]
    # "Senator Grady" is the senator's; "Mrs. Grady" has another title: not his
    assert link(doc, [], mentions) == [[(0, 3), (9, 11)]]


def test_a_name_that_names_a_person_noun_is_a_person_s_whatever_the_recognizer_says():
    # their captain , Kemi Adeyemi , scored . Adeyemi smiled : the recognizer called the full
    # name a place
    words = ["their", "captain", ",", "Kemi", "Adeyemi", ",", "scored", ".", "Adeyemi", "smiled"]
    doc = Doc(spacy.blank("en").vocab, words=words,
              pos=["PRON", "NOUN", "PUNCT", "PROPN", "PROPN", "PUNCT", "VERB", "PUNCT", "PROPN",
                   "VERB"],
              heads=[1, 6, 1, 4, 1, 1, 6, 6, 9, 9],
              deps=["poss", "nsubj", "punct", "compound", "appos", "punct", "ROOT", "punct",
                    "nsubj", "ROOT"],
              lemmas=["their", "captain", ",", "Kemi", "Adeyemi", ",", "score", ".", "Adeyemi",
                      "smile"])
    doc.ents = [Span(doc, 3, 5, label="GPE")]
    assert link(doc, [], [(0, 1), (0, 5), (3, 5), (8, 9)]) == [[(3, 5), (8, 9)]]
    # a place's name that names no person noun stays apart: "Portland , Oregon ... Oregon"
    place = Doc(spacy.blank("en").vocab, words=["Portland", ",", "Oregon", ".", "Oregon"],
                pos=["PROPN", "PUNCT", "PROPN", "PUNCT", "PROPN"], heads=[0, 0, 0, 0, 4],
                deps=["ROOT", "punct", "appos", "punct", "ROOT"])
    place.ents = [Span(place, 0, 1, label="GPE"), Span(place, 2, 3, label="GPE"),
                  Span(place, 4, 5, label="GPE")]
    assert link(place, [], [(0, 1), (0, 3), (2, 3), (4, 5)]) == [[(2, 3), (4, 5)]]


def test_a_longer_name_in_a_cluster_with_he_is_a_person_s_whatever_the_recognizer_says():
    # Arun sang . He wrote for Arun Kumar and paid him : the recognizer called the full name
    # an organisation
    words = ["Arun", "sang", ".", "He", "wrote", "for", "Arun", "Kumar", "and", "paid", "him"]
    pos = ["PROPN", "VERB", "PUNCT", "PRON", "VERB", "ADP", "PROPN", "PROPN", "CCONJ", "VERB",
           "PRON"]
    doc = tagged(words, pos, persons=[(0, 1)], names=[(6, 8)])
    doc.ents = [Span(doc, 0, 1, label="PERSON"), Span(doc, 6, 8, label="ORG")]
    clusters = [[(0, 1), (3, 4)], [(6, 8), (10, 11)]]
    mentions = [(0, 1), (3, 4), (6, 8), (10, 11)]
    classes = {(3, 4): MASCULINE, (10, 11): MASCULINE}
    # with "him", "Arun Kumar" is a man's name, and gives "Arun" its cluster
    out = link_repeated_names(doc, clusters, mentions, classes, conflicting_classes,
                              person_classes=MASCULINE | FEMININE)
    assert out == [[(0, 1), (3, 4), (6, 8), (10, 11)]]
    # without that reading (or without "him"), an organisation's word stays apart
    assert link(doc, clusters, mentions, classes) == clusters
    out = link_repeated_names(doc, [[(0, 1), (3, 4)]], mentions, classes, conflicting_classes,
                              person_classes=MASCULINE | FEMININE)
    assert out == [[(0, 1), (3, 4)]]


def test_a_word_that_two_entities_share_links_neither():
    # Jane Bennet read . Lydia Bennet laughed . Bennet left .
    words = ["Jane", "Bennet", "read", ".", "Lydia", "Bennet", "laughed", ".", "Bennet", "left"]
    pos = ["PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "VERB"]
    doc = tagged(words, pos, persons=[(0, 2), (4, 6), (8, 9)])
    mentions = [(0, 2), (4, 6), (8, 9)]
    assert link(doc, [], mentions) == []
    # one entity (the model's cluster) holds both: "Bennet" is that entity's
    assert link(doc, [[(0, 2), (4, 6)]], mentions) == [[(0, 2), (4, 6), (8, 9)]]


def test_of_two_entities_sharing_a_word_the_one_that_agrees_takes_it():
    # Jane Bennet read . Tom Bennet laughed . Bennet left , he said .
    words = ["Jane", "Bennet", "read", ".", "Tom", "Bennet", "laughed", ".", "Bennet", "left",
             ",", "he", "said"]
    pos = ["PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "VERB",
           "PUNCT", "PRON", "VERB"]
    doc = tagged(words, pos, persons=[(0, 2), (4, 6), (8, 9)])
    mentions = [(0, 2), (4, 6), (8, 9), (11, 12)]
    classes = {(0, 2): FEMININE, (4, 6): MASCULINE, (11, 12): MASCULINE}
    # "Bennet" is "he": Tom's, not Jane's
    assert link(doc, [[(8, 9), (11, 12)]], mentions, classes) == [[(4, 6), (8, 9), (11, 12)]]
    # without a class of its own it is either, and stays apart
    assert link(doc, [], mentions, classes) == []


def test_a_company_s_first_word_alone_joins_the_company():
    # Kestrel Robotics grew . Amsel founded Kestrel . The first word alone is the company's
    # short name ("He" had taken it); only a name with a company's class gives it
    words = ["Kestrel", "Robotics", "grew", ".", "Amsel", "founded", "Kestrel", "."]
    pos = ["PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "VERB", "PROPN", "PUNCT"]
    doc = tagged(words, pos, names=[(0, 2)], persons=[(4, 5)])
    doc.ents = [Span(doc, 0, 2, label="ORG"), Span(doc, 4, 5, label="PERSON"),
                Span(doc, 6, 7, label="ORG")]
    mentions = [(0, 2), (4, 5), (6, 7)]
    classes = {(0, 2): COLLECTIVE, (6, 7): COLLECTIVE}
    joined = link_repeated_names(doc, [], mentions, classes, conflicting_classes,
                                 company_classes=COLLECTIVE)
    assert joined == [[(0, 2), (6, 7)]]
    assert link(doc, [], mentions, classes) == []  # without company classes: no holder


def test_a_title_is_no_first_name():
    # Mrs. Kronborg sang . Kronborg left : the surname alone may be her husband
    words = ["Mrs.", "Kronborg", "sang", ".", "Kronborg", "left"]
    pos = ["PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "VERB"]
    doc = tagged(words, pos, persons=[(0, 2), (4, 5)])
    assert link(doc, [], [(0, 2), (4, 5)]) == []


def test_a_full_name_after_a_title_gives_its_surname():
    # Dr Ines Varga spoke . Varga left : a first name after the title makes it a full name
    words = ["Dr", "Ines", "Varga", "spoke", ".", "Varga", "left"]
    pos = ["PROPN", "PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "VERB"]
    doc = tagged(words, pos, persons=[(1, 3), (5, 6)], names=[(0, 3)])
    assert link(doc, [], [(0, 3), (5, 6)]) == [[(0, 3), (5, 6)]]
    # the same with two titles ("Captain Dr"), and not with the title and surname alone
    words = ["Captain", "Dr", "Varga", "spoke", ".", "Varga", "left"]
    doc = tagged(words, pos, persons=[(2, 3), (5, 6)], names=[(0, 3)])
    assert link(doc, [], [(0, 3), (5, 6)]) == []


def test_clusters_that_agreement_keeps_apart_stay_apart():
    # Jordan left ; he ... Jordan came ; she
    doc = tagged(["Jordan", "left", "he", ";", "Jordan", "came", "she"],
                 ["PROPN", "VERB", "PRON", "PUNCT", "PROPN", "VERB", "PRON"])
    clusters = [[(0, 1), (2, 3)], [(4, 5), (6, 7)]]
    classes = {(2, 3): MASCULINE, (6, 7): FEMININE}
    assert link(doc, clusters, [(0, 1), (2, 3), (4, 5), (6, 7)], classes) == clusters
    assert link(doc, clusters, [(0, 1), (2, 3), (4, 5), (6, 7)]) == [
        [(0, 1), (2, 3), (4, 5), (6, 7)]]


def test_without_a_parse_people_s_names_are_read_by_capitals_titles_and_first_names():
    def unparsed(text):
        return spacy.blank("en")(text)

    # a known first name, and a title: linked
    assert link(unparsed("Felix left . Felix came"), [], [(0, 1), (3, 4)]) == [[(0, 1), (3, 4)]]
    doc = unparsed("Mrs. Gray sat . Mrs. Gray left")
    assert link(doc, [], [(0, 2), (4, 6)]) == [[(0, 2), (4, 6)]]
    # a capitalised word with neither, without an entity recognizer to say what it is: not
    assert link(unparsed("Wuthering stood . Wuthering fell"), [], [(0, 1), (3, 4)]) == []
    # one word of a longer name that starts with a first name ("Lucia Moretti"): linked
    doc = unparsed("Lucia Moretti sang . Moretti left")
    assert unparsed_person_name_words(doc) == {"Lucia", "Moretti"}
    assert link(doc, [], [(0, 2), (4, 5)]) == [[(0, 2), (4, 5)]]
    # function words and a sentence's first common word are no names
    doc = unparsed("She left . Yesterday Felix came .")
    assert unparsed_name_words(doc[0:1]) is None and unparsed_name_words(doc[3:4]) is None
    assert unparsed_name_words(doc[4:5]) == ("felix",)


def test_decoding_links_names_only_when_asked():
    doc = tagged(["Felix", "left", ".", "Jonas", "came", ".", "Felix", "smiled", "."],
                 ["PROPN", "VERB", "PUNCT", "PROPN", "VERB", "PUNCT", "PROPN", "VERB", "PUNCT"])
    scores = scores_for([(0, 1), (3, 4), (6, 7)], [[], [-1.0], [-1.0, -1.0]])
    assert decode_clusters(doc, scores, 0.0, [AGREEMENT, BINDING]) == []
    assert decode_clusters(doc, scores, 0.0, [NAMES]) == [[(0, 1), (6, 7)]]


def named_doc(words, heads, deps, pos, ents=()):
    doc = Doc(spacy.blank("en").vocab, words=words, heads=heads, deps=deps, pos=pos)
    doc.ents = [Span(doc, s, e, label=label) for s, e, label in ents]
    return doc


def test_a_name_that_names_a_clustered_noun_phrase_brings_its_repeats_to_that_cluster():
    # His sister Maren came . Maren smiled . She left .
    doc = named_doc(
        ["His", "sister", "Maren", "came", ".", "Maren", "smiled", ".", "She", "left", "."],
        [1, 3, 1, 3, 3, 6, 6, 6, 9, 9, 9],
        ["poss", "nsubj", "appos", "ROOT", "punct", "nsubj", "ROOT", "punct", "nsubj", "ROOT",
         "punct"],
        ["PRON", "NOUN", "PROPN", "VERB", "PUNCT", "PROPN", "VERB", "PUNCT", "PRON", "VERB",
         "PUNCT"],
    )
    clusters = [[(0, 3), (8, 9)]]
    mentions = [(0, 1), (0, 3), (2, 3), (5, 6), (8, 9)]
    assert link(doc, clusters, mentions) == [[(0, 3), (2, 3), (5, 6), (8, 9)]]
    # two places in apposition are two entities: "Portland , Oregon"
    doc = named_doc(
        ["Portland", ",", "Oregon", "grew", ".", "Oregon", "voted", "."],
        [3, 0, 0, 3, 3, 6, 6, 6],
        ["nsubj", "punct", "appos", "ROOT", "punct", "nsubj", "ROOT", "punct"],
        ["PROPN", "PUNCT", "PROPN", "VERB", "PUNCT", "PROPN", "VERB", "PUNCT"],
        ents=[(0, 1, "GPE"), (2, 3, "GPE"), (5, 6, "GPE")],
    )
    # (a cluster of one mention is no cluster: "Portland , Oregon" stays out)
    assert link(doc, [[(0, 3)]], [(0, 1), (0, 3), (2, 3), (5, 6)]) == [[(2, 3), (5, 6)]]


def test_a_name_stays_out_of_the_cluster_of_the_phrase_it_names_that_holds_another_name():
    # Edith Cole met his wife Ethel Liles .  (the model put "his wife ..." with Edith Cole)
    doc = named_doc(
        ["Edith", "Cole", "met", "his", "wife", "Ethel", "Liles", "."],
        [1, 2, 2, 4, 2, 6, 4, 2],
        ["compound", "nsubj", "ROOT", "poss", "dobj", "compound", "appos", "punct"],
        ["PROPN", "PROPN", "VERB", "PRON", "NOUN", "PROPN", "PROPN", "PUNCT"],
        ents=[(0, 2, "PERSON"), (5, 7, "PERSON")],
    )
    clusters = [[(0, 2), (3, 7)]]
    mentions = [(0, 2), (3, 4), (3, 7), (5, 7)]
    assert link(doc, clusters, mentions) == [[(0, 2), (3, 7), (5, 7)]]  # names not read
    groups = GroupNames(dict(zip(mentions, person_names(doc, mentions))))
    kept = link_repeated_names(doc, clusters, mentions, {}, conflicting_classes, groups.clash)
    assert kept == clusters  # Ethel Liles is not Edith Cole


def test_a_clustered_name_joins_the_cluster_of_the_phrase_it_names():
    # A teacher called Mr. Patel came . He smiled . The teacher left .
    doc = named_doc(
        ["A", "teacher", "called", "Mr.", "Patel", "came", ".", "He", "smiled", ".", "The",
         "teacher", "left", "."],
        [1, 5, 1, 4, 2, 5, 5, 8, 8, 8, 11, 12, 12, 12],
        ["det", "nsubj", "acl", "compound", "oprd", "ROOT", "punct", "nsubj", "ROOT", "punct",
         "det", "nsubj", "ROOT", "punct"],
        ["DET", "NOUN", "VERB", "PROPN", "PROPN", "VERB", "PUNCT", "PRON", "VERB", "PUNCT", "DET",
         "NOUN", "VERB", "PUNCT"],
        ents=[(3, 5, "PERSON")],
    )
    clusters = [[(0, 5), (10, 12)], [(3, 5), (7, 8)]]
    mentions = [(0, 2), (0, 5), (3, 5), (7, 8), (10, 12)]
    assert link(doc, clusters, mentions) == [[(0, 5), (3, 5), (7, 8), (10, 12)]]
    # not where the two clusters disagree
    classes = {(10, 12): FEMININE, (7, 8): MASCULINE}
    assert link(doc, clusters, mentions, classes) == clusters


def test_a_word_of_a_person_s_name_alone_is_a_name_whatever_the_recognizer_calls_it():
    # Martin Oyelaran sold it . Oyelaran smiled : the small NER calls the second a nationality
    words = ["Martin", "Oyelaran", "sold", "it", ".", "Oyelaran", "smiled", "."]
    pos = ["PROPN", "PROPN", "VERB", "PRON", "PUNCT", "PROPN", "VERB", "PUNCT"]
    doc = tagged(words, pos, persons=[(0, 2)])
    doc.ents = [Span(doc, 0, 2, label="PERSON"), Span(doc, 5, 6, label="NORP")]
    assert name_words(doc[5:6]) is None
    assert person_name_words(doc) == {"Martin", "Oyelaran"}
    assert name_words(doc[5:6], person_name_words(doc)) == ("oyelaran",)
    assert link(doc, [], [(0, 2), (3, 4), (5, 6)]) == [[(0, 2), (5, 6)]]
    # without the longer name, a nationality stays no name
    doc.ents = [Span(doc, 5, 6, label="NORP")]
    assert person_name_words(doc) == set()
    assert link(doc, [], [(0, 2), (3, 4), (5, 6)]) == []


def test_a_word_of_a_person_s_name_tagged_a_noun_is_a_name_unless_a_common_noun():
    # Carlos Mendes spoke . Mendes smiled : the small tagger calls the second "Mendes" a noun
    words = ["Carlos", "Mendes", "spoke", ".", "Mendes", "smiled", "."]
    pos = ["PROPN", "PROPN", "VERB", "PUNCT", "NOUN", "VERB", "PUNCT"]
    doc = tagged(words, pos, persons=[(0, 2)])
    assert name_words(doc[4:5]) is None
    assert name_words(doc[4:5], person_name_words(doc)) == ("mendes",)
    assert link(doc, [], [(0, 2), (4, 5)]) == [[(0, 2), (4, 5)]]
    # a common noun the recognizer put at the end of a name ("George Chriss Student") is none
    words = ["George", "Student", "spoke", ".", "Student", "smiled", "."]
    doc = tagged(words, pos, persons=[(0, 2)])
    assert name_words(doc[4:5], person_name_words(doc)) is None
    assert link(doc, [], [(0, 2), (4, 5)]) == []
