"""The whole_phrases constraint: a mention is its whole noun phrase among the candidates.
Docs are built by hand (words, heads, deps, tags, entities), scores too, with sentences of
our own."""
import spacy
from spacy.tokens import Doc, Span
from decoding_helpers import parsed, scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding import decode_clusters
from spacy_coref.pipeline.constraints import CONSTRAINTS
from spacy_coref.decoding.steps.whole_phrases import fold_first_words, whole_names, whole_phrases

def house_doc():
    # The little house in Dublin burned , and it fell .
    return parsed(
        ["The", "little", "house", "in", "Dublin", "burned", ",", "and", "it", "fell", "."],
        [2, 2, 5, 2, 3, 5, 5, 5, 9, 5, 5],
        ["det", "amod", "nsubj", "prep", "pobj", "ROOT", "punct", "cc", "nsubj", "conj",
         "punct"],
        ["DT", "JJ", "NN", "IN", "NNP", "VBD", ",", "CC", "PRP", "VBD", "."],
    )


HOUSE, LITTLE_HOUSE, HOUSE_IN_DUBLIN, DUBLIN, IT = (2, 3), (1, 3), (0, 5), (4, 5), (8, 9)


def test_a_linked_part_of_a_phrase_becomes_the_whole_phrase():
    doc = house_doc()
    spans = [HOUSE_IN_DUBLIN, LITTLE_HOUSE, HOUSE, DUBLIN, IT]
    # "it" links to "house" best; no other link
    scores = scores_for(spans, [[], [-5.0], [-5.0, -5.0], [-5.0] * 3, [0.5, 1.0, 2.0, -5.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [[HOUSE, IT]]
    # the longest candidate with the head "house" that adds words of its phrase
    assert decode_clusters(doc, scores, 0.0, ["whole_phrases"]) == [[HOUSE_IN_DUBLIN, IT]]
    # among fewer candidates, the longest there is
    assert whole_phrases(doc, [[HOUSE, IT]], [LITTLE_HOUSE, HOUSE, IT]) == [[LITTLE_HOUSE, IT]]


def test_a_phrase_that_is_a_mention_already_stays_in_its_cluster():
    doc = house_doc()
    clusters = [[HOUSE_IN_DUBLIN, DUBLIN], [HOUSE, IT]]
    candidates = [HOUSE_IN_DUBLIN, HOUSE, DUBLIN, IT]
    assert whole_phrases(doc, clusters, candidates) == clusters


def test_pronouns_and_docs_without_a_parse_stay_as_they_are():
    doc = house_doc()
    # "it fell" would hold the pronoun with its verb: a pronoun is never grown
    assert whole_phrases(doc, [[HOUSE_IN_DUBLIN, IT]], [(8, 10), IT]) == [[HOUSE_IN_DUBLIN, IT]]
    bare = Doc(spacy.blank("en").vocab, words=[t.text for t in doc])
    candidates = [HOUSE_IN_DUBLIN, HOUSE, IT]
    assert whole_phrases(bare, [[HOUSE, IT]], candidates) == [[HOUSE, IT]]


def highbury_doc():
    # Highbury , the village , grew . Emma 's sister left .
    return parsed(
        ["Highbury", ",", "the", "village", ",", "grew", ".", "Emma", "'s", "sister", "left",
         "."],
        [5, 0, 3, 0, 0, 5, 5, 9, 7, 10, 10, 10],
        ["nsubj", "punct", "det", "appos", "punct", "ROOT", "punct", "poss", "case", "nsubj",
         "ROOT", "punct"],
        ["NNP", ",", "DT", "NN", ",", "VBD", ".", "NNP", "POS", "NN", "VBD", "."],
    )


def test_an_apposition_or_a_possessive_ending_is_not_part_of_the_phrase():
    doc = highbury_doc()
    highbury, with_apposition = (0, 1), (0, 5)
    emma, emma_s = (7, 8), (7, 9)
    clusters = [[highbury, emma]]  # not a sensible cluster: the spans alone matter here
    assert whole_phrases(doc, clusters, [with_apposition, highbury, emma_s, emma]) == clusters


def names_doc(person):
    # Mary , who sang , left . She smiled . (or: India , where ...)
    words = ["Mary" if person else "India", ",", "who", "sang", ",", "left", ".", "She",
             "smiled", "."]
    return parsed(
        words,
        [5, 0, 3, 0, 0, 5, 5, 8, 8, 8],
        ["nsubj", "punct", "nsubj", "relcl", "punct", "ROOT", "punct", "nsubj", "ROOT",
         "punct"],
        ["NNP", ",", "WP", "VBD", ",", "VBD", ".", "PRP", "VBD", "."],
        ents=["B-PERSON" if person else "B-GPE"] + ["O"] * 9,
    )


def test_a_persons_name_takes_no_clause_after_it_and_other_names_do():
    name, name_who, left, she = (0, 1), (0, 4), (5, 6), (7, 8)
    person, place = names_doc(True), names_doc(False)
    assert whole_phrases(person, [[name, left]], [name, name_who]) == [[name, left]]
    assert whole_phrases(place, [[name, left]], [name, name_who]) == [[name_who, left]]
    # a name in a cluster with "she" is a person's, whatever the entity recognizer says
    assert whole_phrases(place, [[name, she]], [name, name_who]) == [[name, she]]


def test_a_verb_or_pronoun_before_a_name_is_not_part_of_it():
    # Reuters interviews Ana Ruiz . / The young Ana Ruiz smiled .
    misparsed = parsed(
        ["Reuters", "interviews", "Ana", "Ruiz", "."],
        [1, 3, 3, 3, 3],
        ["compound", "compound", "compound", "ROOT", "punct"],
        ["NNP", "VBZ", "NNP", "NNP", "."],
    )
    assert whole_phrases(misparsed, [[(2, 4), (4, 5)]], [(0, 4), (2, 4)]) == [[(2, 4), (4, 5)]]
    # CHAPTER I Ana Ruiz : a heading's numeral, tagged as the pronoun
    heading = parsed(
        ["CHAPTER", "I", "Ana", "Ruiz", "."],
        [3, 3, 3, 3, 3],
        ["compound", "compound", "compound", "ROOT", "punct"],
        ["NN", "PRP", "NNP", "NNP", "."],
    )
    assert whole_phrases(heading, [[(2, 4), (4, 5)]], [(1, 4), (2, 4)]) == [[(2, 4), (4, 5)]]
    young = parsed(
        ["The", "young", "Ana", "Ruiz", "smiled", "."],
        [3, 3, 3, 4, 4, 4],
        ["det", "amod", "compound", "nsubj", "ROOT", "punct"],
        ["DT", "JJ", "NNP", "NNP", "VBD", "."],
    )
    assert whole_phrases(young, [[(2, 4), (5, 6)]], [(0, 4), (2, 4)]) == [[(0, 4), (5, 6)]]


def test_quotation_marks_and_question_words_are_not_part_of_the_phrase():
    # What school ? " the Crown " , she said .
    doc = parsed(
        ["What", "school", "?", "``", "the", "Crown", "''", ",", "she", "said", "."],
        [1, 9, 9, 5, 5, 9, 5, 9, 9, 9, 9],
        ["det", "dobj", "punct", "punct", "det", "dobj", "punct", "punct", "nsubj", "ROOT",
         "punct"],
        ["WDT", "NN", ".", "``", "DT", "NNP", "''", ",", "PRP", "VBD", "."],
    )
    clusters = [[(1, 2), (5, 6)]]
    assert whole_phrases(doc, clusters, [(0, 2), (1, 2), (3, 7), (5, 6)]) == clusters
    assert whole_phrases(doc, clusters, [(4, 6), (1, 2), (5, 6)]) == [[(1, 2), (4, 6)]]


def bridge_doc(preposition, noun, tag, label):
    # Ann warned him about the bridge <preposition> <noun> . It fell .  (hung from "bridge")
    return parsed(
        ["Ann", "warned", "him", "about", "the", "bridge", preposition, noun, ".", "It", "fell",
         "."],
        [1, 1, 1, 1, 5, 3, 5, 6, 1, 10, 10, 10],
        ["nsubj", "ROOT", "dobj", "prep", "det", "pobj", "prep", "pobj", "punct", "nsubj",
         "ROOT", "punct"],
        ["NNP", "VBD", "PRP", "IN", "DT", "NN", "IN", tag, ".", "PRP", "VBD", "."],
        ents=["O"] * 7 + [f"B-{label}"] + ["O"] * 4,
    )


def test_a_phrase_of_time_the_parse_hung_from_the_noun_is_not_part_of_it():
    clusters = [[(4, 6), (9, 10)]]
    candidates = [(4, 6), (4, 8), (9, 10)]
    assert whole_phrases(bridge_doc("for", "years", "NNS", "DATE"), clusters, candidates) == (
        clusters
    )
    # a place is part of the phrase: "the bridge in Leeds"
    assert whole_phrases(bridge_doc("in", "Leeds", "NNP", "GPE"), clusters, candidates) == [
        [(4, 8), (9, 10)]
    ]


def nurses_doc(pronoun):
    # The nurses who thanked <pronoun> left . They smiled .
    return parsed(
        ["The", "nurses", "who", "thanked", pronoun, "left", ".", "They", "smiled", "."],
        [1, 5, 3, 1, 3, 5, 5, 8, 8, 8],
        ["det", "nsubj", "nsubj", "relcl", "dobj", "ROOT", "punct", "nsubj", "ROOT", "punct"],
        ["DT", "NNS", "WP", "VBD", "PRP", ".", ".", "PRP", "VBD", "."],
    )


def test_a_phrase_holding_an_object_pronoun_of_its_own_cluster_is_not_grown_to():
    candidates = [(0, 2), (0, 5), (4, 5), (7, 8)]
    # the model put "them" with "The nurses": the phrase "The nurses who thanked them" would
    # hold its own object, so "The nurses" stays as it is
    clusters = [[(0, 2), (4, 5), (7, 8)]]
    assert whole_phrases(nurses_doc("them"), clusters, candidates) == clusters
    # without "them" in the cluster, or with a reflexive, the phrase is whole
    assert whole_phrases(nurses_doc("them"), [[(0, 2), (7, 8)]], candidates) == [
        [(0, 5), (7, 8)]
    ]
    assert whole_phrases(nurses_doc("themselves"), clusters, candidates) == [
        [(0, 5), (4, 5), (7, 8)]
    ]


def airline_doc(hugo_label="PERSON"):
    # Harbor Airlines thanked Hugo Brandt because it owed him .
    doc = parsed(
        ["Harbor", "Airlines", "thanked", "Hugo", "Brandt", "because", "it", "owed", "him", "."],
        [1, 2, 2, 4, 2, 7, 7, 2, 7, 2],
        ["compound", "nsubj", "ROOT", "compound", "dobj", "mark", "nsubj", "advcl", "dobj",
         "punct"],
        ["NNP", "NNP", "VBD", "NNP", "NNP", "IN", "PRP", "VBD", "PRP", "."],
    )
    # the entity recognizer splits the man's name: "Hugo" alone, read as `hugo_label`
    doc.set_ents([Span(doc, 0, 2, "ORG"), Span(doc, 3, 4, hugo_label)])
    return doc


HARBOR, HARBOR_AIRLINES, HUGO, HUGO_BRANDT = (0, 1), (0, 2), (3, 4), (3, 5)
IT2, HIM = (6, 7), (8, 9)


def test_a_pronoun_takes_a_whole_name_rather_than_its_first_words():
    doc = airline_doc("EVENT")
    spans = [HARBOR, HARBOR_AIRLINES, HUGO, HUGO_BRANDT, IT2, HIM]
    # "it" links to "Harbor" best and "him" to "Hugo"; the whole names score a little less
    scores = scores_for(spans, [
        [], [-5.0], [-5.0] * 2, [-5.0] * 3, [5.0, 4.0, -5.0, -5.0], [-5.0, -5.0, 6.0, 5.0, -5.0],
    ])
    assert decode_clusters(doc, scores, 0.0, []) == [[HARBOR, IT2], [HUGO, HIM]]
    wanted = [[HARBOR_AIRLINES, IT2], [HUGO_BRANDT, HIM]]
    assert decode_clusters(doc, scores, 0.0, ["whole_phrases"]) == wanted
    assert decode_clusters(doc, scores, 0.0, list(CONSTRAINTS)) == wanted
    pronoun, whole, first = whole_names(doc, spans)
    assert pronoun.tolist() == [False] * 4 + [True, True]
    assert whole.tolist() == [1, -1, 3, -1, -1, -1] and first.tolist() == [True, False] * 2 + [
        False, False]


def nakamura_doc():
    # Professor Nakamura wrote a book , and her colleagues praised it .
    return parsed(
        ["Professor", "Nakamura", "wrote", "a", "book", ",", "and", "her", "colleagues",
         "praised", "it", "."],
        [1, 2, 2, 4, 2, 2, 2, 8, 9, 2, 9, 2],
        ["compound", "nsubj", "ROOT", "det", "dobj", "punct", "cc", "poss", "nsubj", "conj",
         "dobj", "punct"],
        ["NNP", "NNP", "VBD", "DT", "NN", ",", "CC", "PRP$", "NNS", "VBD", "PRP", "."],
        ents=["B-PERSON", "I-PERSON"] + ["O"] * 10,
    )


def test_a_pronoun_linked_to_a_name_without_its_title_takes_the_titled_name():
    doc = nakamura_doc()
    spans = [(0, 2), (1, 2), (3, 5), (7, 8), (10, 11)]
    # "her" links to "Nakamura" best; "Professor Nakamura" scores below the null score
    scores = scores_for(spans, [[], [-5.0], [-5.0, -5.0], [-3.0, 5.0, -5.0],
                                [-5.0, -5.0, 4.0, -5.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [[(1, 2), (7, 8)], [(3, 5), (10, 11)]]
    # the link goes to the whole name, with the better of the two scores
    assert decode_clusters(doc, scores, 0.0, ["whole_phrases"]) == [
        [(0, 2), (7, 8)], [(3, 5), (10, 11)]
    ]
    pronoun, whole, first = whole_names(doc, spans)
    assert whole.tolist() == [-1, 0, -1, -1, -1] and not first.any()


def test_a_name_inside_a_name_stays_where_the_whole_name_is_no_mention_or_another_entity():
    doc = airline_doc()
    # without the whole name among the mentions, the first words are what there is
    assert (whole_names(doc, [HARBOR, HUGO, IT2])[1] == -1).all()
    # two entities ("Apple chief Tim Cook"): "Harbor" is a name of its own
    doc.set_ents([Span(doc, 0, 1, "ORG"), Span(doc, 1, 2, "ORG")])
    assert (whole_names(doc, [HARBOR, HARBOR_AIRLINES, IT2])[1] == -1).all()
    # without a pronoun (a name's link to the first words of another, "Penn ... Penn State",
    # is the model's) or a parse, nothing
    doc = airline_doc()
    assert (whole_names(doc, [HARBOR, HARBOR_AIRLINES, HUGO_BRANDT])[1] == -1).all()
    bare = Doc(doc.vocab, words=[t.text for t in doc])
    assert (whole_names(bare, [HARBOR, HARBOR_AIRLINES, IT2])[1] == -1).all()


def norvell_doc(pronoun="its", label="ORG"):
    # Shares of Norvell Energy fell after the company cut its forecast , and Norvell said so .
    words = ["Shares", "of", "Norvell", "Energy", "fell", "after", "the", "company", "cut",
             pronoun, "forecast", ",", "and", "Norvell", "said", "so", "."]
    doc = parsed(
        words,
        [4, 0, 3, 1, 4, 8, 7, 8, 4, 10, 8, 4, 4, 14, 4, 14, 4],
        ["nsubj", "prep", "compound", "pobj", "ROOT", "mark", "det", "nsubj", "advcl", "poss",
         "dobj", "punct", "cc", "nsubj", "conj", "advmod", "punct"],
        ["NNS", "IN", "NNP", "NNP", "VBD", "IN", "DT", "NN", "VBD", "PRP$", "NN", ",", "CC",
         "NNP", "VBD", "RB", "."],
    )
    doc.set_ents([Span(doc, 2, 4, label), Span(doc, 13, 14, "ORG")])
    return doc


NORVELL, NORVELL_ENERGY, COMPANY, ITS, NORVELL_ALONE = (2, 3), (2, 4), (6, 8), (9, 10), (13, 14)
NORVELL_SPANS = [NORVELL, NORVELL_ENERGY, COMPANY, ITS, NORVELL_ALONE]


def test_a_cluster_whose_only_names_are_first_words_goes_to_the_whole_name():
    doc = norvell_doc()
    # "the company" links to "Norvell" best, "its" to "the company"
    scores = scores_for(NORVELL_SPANS, [
        [], [-5.0], [5.0, -5.0], [3.0, 2.0, 6.0], [-5.0] * 4,
    ])
    assert decode_clusters(doc, scores, 0.0, []) == [[NORVELL, COMPANY, ITS]]
    wanted = [[NORVELL_ENERGY, COMPANY, ITS]]
    assert decode_clusters(doc, scores, 0.0, ["whole_phrases"]) == wanted
    # the whole name in a cluster already: the others join it
    clusters = [[NORVELL, COMPANY], [NORVELL_ENERGY, ITS]]
    assert fold_first_words(doc, clusters, NORVELL_SPANS) == wanted
    # a name of its own in the cluster: the name is an entity, the cluster stays
    clusters = [[NORVELL, COMPANY, NORVELL_ALONE]]
    assert fold_first_words(doc, clusters, NORVELL_SPANS) == clusters
    bare = Doc(doc.vocab, words=[t.text for t in doc])
    assert fold_first_words(bare, [[NORVELL, COMPANY]], NORVELL_SPANS) == [[NORVELL, COMPANY]]


def test_first_words_alone_are_no_cluster():
    # Norvell Energy grew , and Norvell Energy hired .  ("San" of four "San Francisco"s)
    doc = parsed(
        ["Norvell", "Energy", "grew", ",", "and", "Norvell", "Energy", "hired", "."],
        [1, 2, 2, 2, 2, 6, 7, 2, 2],
        ["compound", "nsubj", "ROOT", "punct", "cc", "compound", "nsubj", "conj", "punct"],
        ["NNP", "NNP", "VBD", ",", "CC", "NNP", "NNP", "VBD", "."],
        ents=["B-ORG", "I-ORG", "O", "O", "O", "B-ORG", "I-ORG", "O", "O"],
    )
    spans = [(0, 1), (0, 2), (5, 6), (5, 7)]
    assert fold_first_words(doc, [[(0, 1), (5, 6)], [(0, 2), (5, 7)]], spans) == [
        [(0, 2), (5, 7)]
    ]


def test_a_first_word_in_its_whole_name_s_cluster_leaves_it():
    # "Kestrel | Kestrel Robotics | it | Kestrel": the names rule brought the inner first word
    # along with a later "Kestrel"; the whole name is its mention there
    doc = norvell_doc()
    clusters = [[NORVELL, NORVELL_ENERGY, ITS, NORVELL_ALONE]]
    assert fold_first_words(doc, clusters, NORVELL_SPANS) == [[NORVELL_ENERGY, ITS, NORVELL_ALONE]]


def test_he_or_she_goes_to_the_whole_name_only_if_it_is_a_persons():
    clusters = [[NORVELL, COMPANY, ITS]]
    # "the Clinton Foundation ... he": "he" is no foundation; the first words leave
    doc = norvell_doc("his", "ORG")
    assert fold_first_words(doc, clusters, NORVELL_SPANS) == [[COMPANY, ITS]]
    doc = norvell_doc("his", "PERSON")
    assert fold_first_words(doc, clusters, NORVELL_SPANS) == [[NORVELL_ENERGY, COMPANY, ITS]]


def test_first_words_linked_to_their_own_word_leave_the_cluster_to_it():
    # World War ended , and the world rejoiced and it danced .
    doc = parsed(
        ["World", "War", "ended", ",", "and", "the", "world", "rejoiced", "and", "it", "danced",
         "."],
        [1, 2, 2, 2, 2, 6, 7, 2, 7, 10, 7, 2],
        ["compound", "nsubj", "ROOT", "punct", "cc", "det", "nsubj", "conj", "cc", "nsubj",
         "conj", "punct"],
        ["NNP", "NNP", "VBD", ",", "CC", "DT", "NN", "VBD", "CC", "PRP", "VBD", "."],
        ents=["B-EVENT", "I-EVENT"] + ["O"] * 10,
    )
    world, world_war, the_world, it = (0, 1), (0, 2), (5, 7), (9, 10)
    spans = [world, world_war, the_world, it]
    # "the world" is the world, not the war
    assert fold_first_words(doc, [[world, the_world, it]], spans) == [[the_world, it]]
