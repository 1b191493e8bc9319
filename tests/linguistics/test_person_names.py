"""Distinct names: what a person's name is read as, which names clash, and how decoding parts
a cluster that holds two people's names. Docs are tagged by hand, scores too."""
import numpy
import pytest
import spacy
from spacy.tokens import Doc, Span
from decoding_helpers import scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding.clustering import constrained_clusters, predict_clusters
from spacy_coref.decoding import decode_clusters
from spacy_coref.pipeline.constraints import DISTINCT_NAMES
from spacy_coref.linguistics.mention_classes import conflicting_classes
from spacy_coref.decoding.steps.names import link_repeated_names
from spacy_coref.linguistics.person_names import (
    GroupNames,
    PersonName,
    names_clash,
    person_name,
    person_names,
)


def name_doc(text, label="PERSON"):
    """A doc of one name, its words proper nouns hanging from the last, tagged `label`."""
    words = text.split()
    heads = [len(words) - 1] * len(words)
    doc = Doc(spacy.blank("en").vocab, words=words, pos=["PROPN"] * len(words), heads=heads,
              deps=["compound"] * (len(words) - 1) + ["ROOT"])
    if label:
        doc.ents = [Span(doc, 0, len(words), label=label)]
    return doc


def read(text, label="PERSON"):
    doc = name_doc(text, label)
    return person_name(doc[:])


def test_a_name_is_read_as_first_and_last_name_where_its_form_says_so():
    assert read("Jane Bennet") == PersonName(frozenset({"jane", "bennet"}), "jane", "bennet")
    assert read("Mr. Bennet") == PersonName(frozenset({"bennet"}), None, "bennet")
    assert read("Sir Thomas Glen-Coats") == PersonName(
        frozenset({"thomas", "glen-coats"}), "thomas", "glen-coats"
    )
    assert read("Emma") == PersonName(frozenset({"emma"}), "emma", None)
    assert read("Poirot") == PersonName(frozenset({"poirot"}), None, None)
    assert read("Pat") == PersonName(frozenset({"pat"}), "pat", None)  # a first name of either
    assert read("Queen") is None  # a title alone


def test_only_people_names_are_read():
    assert read("Acme Steel", "ORG") is None
    assert read("Geneva", "GPE") == PersonName(frozenset({"geneva"}), None, None, place=True)
    assert read("the United States", "GPE") is None  # places: one-word names only
    assert read("Poirot", None) is not None  # untyped
    # a title or a known first name outranks the entity recognizer
    assert read("Madame Duval", "GPE") == PersonName(frozenset({"duval"}), None, "duval")
    assert read("Helena Kurz", "ORG").first == "helena"


def test_a_first_name_of_a_place_is_that_first_name_s_person():
    # William of Normandy defeated Harold .  ("Harold" had joined "William of Normandy | He")
    words = ["William", "of", "Normandy", "defeated", "Harold", ".", "Duke", "of", "York"]
    doc = Doc(spacy.blank("en").vocab, words=words,
              pos=["PROPN", "ADP", "PROPN", "VERB", "PROPN", "PUNCT", "PROPN", "ADP", "PROPN"],
              heads=[3, 0, 1, 3, 3, 3, 6, 6, 7],
              deps=["nsubj", "prep", "pobj", "ROOT", "dobj", "punct", "ROOT", "prep", "pobj"])
    doc.ents = [Span(doc, 0, 3, label="PERSON"), Span(doc, 4, 5, label="PERSON")]
    william, harold, duke = person_names(doc, [(0, 3), (4, 5), (6, 9)])
    assert william == PersonName(frozenset({"william"}), "william", None)
    assert names_clash(william, harold)
    assert duke is None  # a title, not a first name, before "of"
    # the same without a parse (the fast pipeline)
    bare = Doc(doc.vocab, words=words)
    assert person_names(bare, [(0, 3), (6, 9)]) == [william, None]


@pytest.mark.parametrize(
    "a,b,clash",
    [
        ("Jane Bennet", "Elizabeth Bennet", True),  # first names differ
        ("Mr. Bennet", "Mr. Collins", True),  # last names differ
        ("Ricardo Rocha", "Eugenio Bernal", True),
        ("Poirot", "Hastings", True),  # two single words of unknown part
        ("Markham", "Karen Blixen", True),  # a word that is in neither part
        ("Emma", "Jane Fairfax", True),
        ("Mr. Bennet", "Jane Bennet", False),
        ("Emma", "Miss Woodhouse", False),  # a first name and a last name
        ("Poirot", "Dr. Archie", True),  # a word of unknown part and a titled last name
        ("Woodhouse", "Emma", False),  # a word of unknown part may be a first name's surname
        ("Jennifer Jayne", "Jennifer Jayne Jones", False),  # one holds the other's words
        ("Kurz", "Helena Kurz", False),
        ("Poirot", "Poirot", False),
        ("Pat", "David", True),  # first names of no one gender are first names too
        ("Sam", "Emma", True),
        ("Pat", "Pat Carver", False),
    ],
)
def test_names_clash_when_they_differ_in_a_part_both_show(a, b, clash):
    assert names_clash(read(a), read(b)) is clash
    assert names_clash(read(b), read(a)) is clash


@pytest.mark.parametrize(
    "a,b,clash",
    [
        (("Norway", "GPE"), ("Canada", "GPE"), True),  # two places
        (("Norway", "GPE"), ("Arctic", "LOC"), True),
        (("Cal.", "GPE"), ("California", "GPE"), False),  # an abbreviation
        (("Norway", "GPE"), ("Norway", "GPE"), False),
        (("Canada", "GPE"), ("Poirot", "PERSON"), False),  # a place and a person: not read
        (("Canada", "GPE"), ("Mr. Bennet", "PERSON"), False),
    ],
)
def test_one_word_place_names_clash_with_other_one_word_place_names_alone(a, b, clash):
    assert names_clash(read(*a), read(*b)) is clash
    assert names_clash(read(*b), read(*a)) is clash


def test_a_cluster_with_two_names_is_cut_before_the_second():
    # Rocha ... he ... Bernal ... his: Bernal's best antecedent is "he", and "his" follows Bernal
    spans = [(0, 1), (2, 3), (4, 5), (6, 7)]
    scores = scores_for(spans, [[], [3.0], [1.0, 2.0], [0.5, 1.0, 4.0]])
    names = ["rocha", None, "bernal", None]
    assert predict_clusters(scores) == [spans]
    out = constrained_clusters(scores, names=names, clash=str.__ne__)
    assert out == [[(0, 1), (2, 3)], [(4, 5), (6, 7)]]
    # without a name that clashes, nothing changes
    same = ["rocha", None, "rocha", None]
    assert constrained_clusters(scores, names=same, clash=str.__ne__) == [spans]


def test_a_parted_name_takes_its_best_antecedent_without_a_clash():
    # Rocha, a visitor (no name, alone), he -> Rocha, Bernal (best: he, then the visitor)
    spans = [(0, 1), (2, 3), (4, 5), (6, 7)]
    scores = scores_for(spans, [[], [-1.0], [3.0, -1.0], [1.0, 1.5, 2.0]])
    names = ["rocha", None, None, "bernal"]
    out = constrained_clusters(scores, names=names, clash=str.__ne__)
    assert out == [[(0, 1), (4, 5)], [(2, 3), (6, 7)]]
    # below the null score it stays alone
    assert constrained_clusters(scores, 2.0, names=names, clash=str.__ne__) == [
        [(0, 1), (4, 5)]
    ]


def test_a_mention_parted_from_a_pair_leaves_the_others_their_own_links():
    # Brandt lent his car to Aubert . Aubert ... Brandt ... him: the model links the second
    # "Aubert" and "Brandt" both to "his", and "him" to "Aubert"; "him" must stay apart from
    # "Brandt" (its clause's subject). Then "Aubert" must leave for the first "Aubert", and
    # "Brandt", which chose "his", stays with the first "Brandt"; "him", relinked once the
    # names are parted, takes its best antecedent, "Aubert".
    spans = [(0, 1), (2, 3), (5, 6), (8, 9), (10, 11), (12, 13)]
    scores = scores_for(spans, [
        [], [9.0], [-1.0, -1.0], [-1.0, 6.0, 4.5], [0.7, 4.5, -3.0, -3.5],
        [6.8, 7.9, -1.0, 9.5, 9.1],
    ])
    # the second "Brandt" has no person's name: the entity recognizer took it for a company
    names = ["brandt", None, "aubert", "aubert", None, None]
    forbidden = numpy.zeros((6, 5), dtype=bool)
    forbidden[5, 4] = True  # him, Brandt
    out = constrained_clusters(scores, forbidden=forbidden, names=names, clash=str.__ne__)
    assert out == [[(0, 1), (2, 3), (10, 11)], [(5, 6), (8, 9), (12, 13)]]


def test_a_pronoun_that_must_leave_a_cluster_is_relinked_once_the_names_are_parted():
    # Mark called his brother Daniel . Daniel ... Mark offered to lend him ...: the model links
    # the second "Daniel" to Mark's "his", and "him" best to "Mark", its clause's subject, then
    # to "Daniel". "him" must leave Mark; Daniel's cluster is Mark's until the names part them.
    spans = [(0, 1), (2, 3), (4, 5), (7, 8), (9, 10), (13, 14)]  # Mark his Daniel Daniel Mark him
    scores = scores_for(spans, [
        [], [8.0], [-5.0, -6.0], [-1.0, 7.0, -2.0], [5.0, 6.0, -1.0, -1.0],
        [5.0, 4.0, 1.0, 4.5, 6.0],
    ])
    names = ["mark", None, "daniel", "daniel", "mark", None]
    forbidden = numpy.zeros((6, 5), dtype=bool)
    forbidden[5, 4] = True  # him, Mark (its clause's subject)
    out = constrained_clusters(scores, forbidden=forbidden, names=names, clash=str.__ne__)
    # "him" joins Daniel; relinked before the names were parted (the order until
    # 2026-11-27), it found only Mark's mentions and stayed alone
    assert out == [[(0, 1), (2, 3), (9, 10)], [(7, 8), (13, 14)]]


def test_a_relinked_mention_joins_no_cluster_whose_names_clash_with_its_own():
    # Ann ... she ... Bo ... Ann: the last "Ann" takes the first, and must leave that cluster,
    # which holds "she", a mention it is kept apart from; its next best antecedent, "Bo",
    # names another person
    spans = [(0, 1), (2, 3), (4, 5), (6, 7)]  # Ann, she, Bo, Ann
    scores = scores_for(spans, [[], [5.0], [-1.0, -1.0], [4.0, 1.0, 3.0]])
    names = ["ann", None, "bo", "ann"]
    forbidden = numpy.zeros((4, 3), dtype=bool)
    forbidden[3, 1] = True
    out = constrained_clusters(scores, forbidden=forbidden, names=names, clash=str.__ne__)
    assert out == [[(0, 1), (2, 3)]]  # not "Bo" and "Ann"


@pytest.mark.parametrize("seed", range(10))
def test_decoding_never_leaves_two_clashing_names_in_a_cluster(seed):
    rng = numpy.random.default_rng(seed)
    n = 40
    spans = [(2 * i, 2 * i + 1) for i in range(n)]
    scores = scores_for(spans, [list(rng.normal(1.0, 2.0, size=i)) for i in range(n)])
    names = list(rng.choice(["ann", "bo", "cy", None, None, None], size=n))
    classes = rng.choice([0, 0, 1, 2], size=n)  # unknown, masculine, feminine
    out = constrained_clusters(
        scores, classes=classes, conflicts=conflicting_classes, names=names, clash=str.__ne__
    )
    for cluster in out:
        found = {names[spans.index(m)] for m in cluster} - {None}
        assert len(found) <= 1, (cluster, found)
    # names all different from None but never clashing: the plain agreement decoding
    plain = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    never = constrained_clusters(
        scores, classes=classes, conflicts=conflicting_classes, names=names,
        clash=lambda a, b: False,
    )
    assert never == plain


def people_doc():
    # Ricardo Rocha met him . Eugenio Bernal left .
    words = ["Ricardo", "Rocha", "met", "him", ".", "Eugenio", "Bernal", "left", "."]
    pos = ["PROPN", "PROPN", "VERB", "PRON", "PUNCT", "PROPN", "PROPN", "VERB", "PUNCT"]
    heads = [1, 2, 2, 2, 2, 6, 7, 7, 7]
    deps = ["compound", "nsubj", "ROOT", "dobj", "punct", "compound", "nsubj", "ROOT", "punct"]
    doc = Doc(spacy.blank("en").vocab, words=words, pos=pos, heads=heads, deps=deps)
    doc.ents = [Span(doc, 0, 2, label="PERSON"), Span(doc, 5, 7, label="PERSON")]
    return doc


def test_decode_clusters_parts_two_people_joined_through_a_pronoun():
    doc = people_doc()
    spans = [(0, 2), (3, 4), (5, 7)]  # Ricardo Rocha, him, Eugenio Bernal
    scores = scores_for(spans, [[], [2.0], [-1.0, 1.0]])  # Bernal's best: him
    assert decode_clusters(doc, scores, 0.0, []) == [spans]
    assert decode_clusters(doc, scores, 0.0, [DISTINCT_NAMES]) == [[(0, 2), (3, 4)]]


def wells_doc():
    # Wells left . He won . Davis came  ("Wells" tagged an organisation)
    words = ["Wells", "left", ".", "He", "won", ".", "Davis", "came"]
    doc = Doc(spacy.blank("en").vocab, words=words,
              pos=["PROPN", "VERB", "PUNCT", "PRON", "VERB", "PUNCT", "PROPN", "VERB"],
              heads=[1, 1, 1, 4, 4, 4, 7, 7],
              deps=["nsubj", "ROOT", "punct", "nsubj", "ROOT", "punct", "nsubj", "ROOT"])
    doc.ents = [Span(doc, 0, 1, label="ORG"), Span(doc, 6, 7, label="PERSON")]
    return doc


def test_the_antecedent_of_he_is_a_person_whatever_the_entity_recognizer_says():
    doc = wells_doc()
    spans = [(0, 1), (3, 4), (6, 7)]  # Wells, He, Davis
    assert person_names(doc, spans)[0] is None
    assert person_names(doc, spans, frozenset({0}))[0] == PersonName(
        frozenset({"wells"}), None, None)
    # "He" takes "Wells", and "Davis" takes "He": Wells is a person, and Davis another
    scores = scores_for(spans, [[], [3.0], [-1.0, 1.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [spans]
    assert decode_clusters(doc, scores, 0.0, [DISTINCT_NAMES]) == [[(0, 1), (3, 4)]]
    # "He" alone: nothing says that the organisation is a person
    scores = scores_for(spans, [[], [-1.0], [-1.0, 1.0]])
    assert decode_clusters(doc, scores, 0.0, [DISTINCT_NAMES]) == [[(3, 4), (6, 7)]]


def test_repeated_names_do_not_merge_groups_holding_names_that_clash():
    # Ann Lee spoke . Ann Lee met Bo Park .  (the model put the second Ann Lee with Bo Park)
    words = ["Ann", "Lee", "spoke", ".", "Ann", "Lee", "met", "Bo", "Park", "."]
    pos = ["PROPN", "PROPN", "VERB", "PUNCT", "PROPN", "PROPN", "VERB", "PROPN", "PROPN", "PUNCT"]
    heads = [1, 2, 2, 2, 5, 6, 6, 8, 6, 6]
    deps = ["compound", "nsubj", "ROOT", "punct", "compound", "nsubj", "ROOT", "compound",
            "dobj", "punct"]
    doc = Doc(spacy.blank("en").vocab, words=words, pos=pos, heads=heads, deps=deps)
    doc.ents = [Span(doc, s, e, label="PERSON") for s, e in [(0, 2), (4, 6), (7, 9)]]
    clusters = [[(4, 6), (7, 9)]]
    mentions = [(0, 2), (4, 6), (7, 9)]
    merged = link_repeated_names(doc, clusters, mentions, {}, conflicting_classes)
    assert merged == [[(0, 2), (4, 6), (7, 9)]]  # "Ann Lee" twice: one group
    groups = GroupNames(dict(zip(mentions, person_names(doc, mentions))))
    kept = link_repeated_names(doc, clusters, mentions, {}, conflicting_classes, groups.clash)
    assert kept == clusters  # but that group holds Bo Park too


def test_a_word_of_unknown_part_and_a_first_name_alone_clash_only_to_merge():
    names = {(0, 1): read("Vivian"), (1, 2): read("Cay"), (2, 4): read("Vivian Cay"),
             (4, 5): read("Poirot"), (5, 6): read("Hastings")}
    assert not names_clash(names[0, 1], names[1, 2])  # decoding keeps such a link
    groups = GroupNames(names)
    assert groups.clash([(0, 1)], [(1, 2)]) and groups.clash([(1, 2)], [(0, 1)])
    assert not groups.clash([(0, 1)], [(1, 2), (2, 4)])  # "Vivian Cay" holds both words
    assert not groups.clash([(0, 1)], [(2, 4)])
    assert groups.clash([(4, 5)], [(5, 6)])  # as names_clash


def test_repeated_names_merge_no_first_name_alone_into_a_group_with_another_word():
    # Vivian left . Cay met Vivian . Vivian smiled .  (the model put Cay with the later Vivians)
    words = ["Vivian", "left", ".", "Cay", "met", "Vivian", ".", "Vivian", "smiled", "."]
    pos = ["PROPN", "VERB", "PUNCT", "PROPN", "VERB", "PROPN", "PUNCT", "PROPN", "VERB", "PUNCT"]
    heads = [1, 1, 1, 4, 4, 4, 4, 8, 8, 8]
    deps = ["nsubj", "ROOT", "punct", "nsubj", "ROOT", "dobj", "punct", "nsubj", "ROOT", "punct"]
    doc = Doc(spacy.blank("en").vocab, words=words, pos=pos, heads=heads, deps=deps)
    doc.ents = [Span(doc, i, i + 1, label="PERSON") for i in (0, 3, 5, 7)]
    clusters = [[(3, 4), (5, 6), (7, 8)]]
    mentions = [(0, 1), (3, 4), (5, 6), (7, 8)]
    merged = link_repeated_names(doc, clusters, mentions, {}, conflicting_classes)
    assert merged == [mentions]  # "Vivian" three times: one group, without the names read
    groups = GroupNames(dict(zip(mentions, person_names(doc, mentions))))
    kept = link_repeated_names(doc, clusters, mentions, {}, conflicting_classes, groups.clash)
    assert kept == clusters  # the first "Vivian" stays out of the group that holds "Cay"


def test_repeated_names_do_not_merge_groups_holding_mentions_kept_apart():
    # Grace spoke . Grace told her .  (the model put "her" with the first "Grace")
    words = ["Grace", "spoke", ".", "Grace", "told", "her", "."]
    pos = ["PROPN", "VERB", "PUNCT", "PROPN", "VERB", "PRON", "PUNCT"]
    heads = [1, 1, 1, 4, 4, 4, 4]
    deps = ["nsubj", "ROOT", "punct", "nsubj", "ROOT", "dobj", "punct"]
    doc = Doc(spacy.blank("en").vocab, words=words, pos=pos, heads=heads, deps=deps)
    doc.ents = [Span(doc, 0, 1, label="PERSON"), Span(doc, 3, 4, label="PERSON")]
    clusters = [[(0, 1), (5, 6)]]
    mentions = [(0, 1), (3, 4), (5, 6)]
    merged = link_repeated_names(doc, clusters, mentions, {}, conflicting_classes)
    assert merged == [[(0, 1), (3, 4), (5, 6)]]
    # binding keeps "her" apart from the subject of its clause
    kept = link_repeated_names(doc, clusters, mentions, {}, conflicting_classes,
                               apart=[((5, 6), (3, 4))])
    assert kept == clusters
    # decoding gives the names rule the pairs binding keeps apart
    doc = Doc(doc.vocab, words=words, pos=pos, heads=heads, deps=deps,
              tags=["NNP", "VBD", ".", "NNP", "VBD", "PRP", "."], ents=["B-PERSON", "O", "O",
              "B-PERSON", "O", "O", "O"])
    scores = scores_for(mentions, [[], [-1.0], [5.0, 4.0]])
    assert decode_clusters(doc, scores, 0.0, ["names"]) == [mentions]
    assert decode_clusters(doc, scores, 0.0, ["binding", "names"]) == clusters
    # but a name is not kept from its repeated name by the pronoun subject of its clause
    # (Principle C), which a parse error gives it too often: "he believed ..., but managed to
    # beat Jenkins"
    words = ["Grace", "spoke", ".", "She", "saw", "Grace", "."]
    doc = Doc(doc.vocab, words=words, pos=["PROPN", "VERB", "PUNCT", "PRON", "VERB", "PROPN",
              "PUNCT"], heads=heads, deps=deps, tags=["NNP", "VBD", ".", "PRP", "VBD", "NNP", "."],
              ents=["B-PERSON", "O", "O", "O", "O", "B-PERSON", "O"])
    mentions = [(0, 1), (3, 4), (5, 6)]
    scores = scores_for(mentions, [[], [3.0], [-1.0, 4.0]])
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(0, 1), (3, 4)]]
    assert decode_clusters(doc, scores, 0.0, ["binding", "names"]) == [mentions]


def test_a_pronoun_whose_antecedent_left_for_another_cluster_takes_its_next_best():
    # Tomasz Wren, he, Marta, she, Wren, her: "her" took "Wren", who goes to Tomasz Wren's
    # cluster; "her" cannot follow (he), and takes "she" instead
    spans = [(0, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)]
    pair = [[], [3.0], [-1.0, -1.0], [-1.0, -1.0, 3.0], [1.0, -1.0, -1.0, 2.0],
            [-1.0, -1.0, 1.0, 1.5, 2.5]]
    scores = scores_for(spans, pair)
    classes = numpy.array([0, 1, 2, 2, 0, 2])  # masculine 1, feminine 2
    names = ["tomasz wren", None, "marta", None, "wren", None]

    def clash(a, b):
        return a.split()[-1] != b.split()[-1]

    plain = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    assert plain == [[(0, 2), (2, 3)], [(3, 4), (4, 5), (5, 6), (6, 7)]]
    out = constrained_clusters(
        scores, classes=classes, conflicts=conflicting_classes, names=names, clash=clash
    )
    assert out == [[(0, 2), (2, 3), (5, 6)], [(3, 4), (4, 5), (6, 7)]]


def test_without_a_parse_names_are_read_from_capitalisation():
    nlp = spacy.blank("en")
    doc = nlp("Yesterday Ricardo Rocha met Eugenio Bernal. He left. Rocha stayed. Rocha smiled.")
    spans = {t.text: (t.i, t.i + 1) for t in doc}
    found = person_names(doc, [spans["Yesterday"], (1, 3), (4, 6), spans["He"], (10, 11)])
    # "Yesterday" opens a sentence and is capitalised nowhere else; "He" is a stop word;
    # "Rocha" opens a sentence but stands capitalised inside one too
    assert found == [
        None,
        PersonName(frozenset({"ricardo", "rocha"}), "ricardo", "rocha"),
        PersonName(frozenset({"eugenio", "bernal"}), "eugenio", "bernal"),
        None,
        PersonName(frozenset({"rocha"}), None, None),
    ]
    # a possessive is its possessor's name, with a parse or without
    doc = nlp("Liverpool beat Arsenal. Arsenal 's manager left.")
    arsenal = PersonName(frozenset({"arsenal"}), None, None)
    assert person_names(doc, [(2, 3), (4, 6)]) == [arsenal, arsenal]
    ann_lee = PersonName(frozenset({"ann", "lee"}), "ann", "lee")
    assert person_names(name_doc("Ann Lee 's"), [(0, 3)]) == [ann_lee]
    # a name that opens the text and is in no list counts where a "he" or "she" takes it
    doc = nlp("Maya Okonjo won. She beat Viktor Hale.")
    assert person_names(doc, [(0, 2)]) == [None]
    assert person_names(doc, [(0, 2)], frozenset({0})) == [
        PersonName(frozenset({"maya", "okonjo"}), "maya", "okonjo")
    ]


def test_decoding_parts_two_people_without_a_parse():
    doc = spacy.blank("en")("Ricardo Rocha met him before Eugenio Bernal left.")
    spans = [(0, 2), (3, 4), (5, 7)]  # Ricardo Rocha, him, Eugenio Bernal
    scores = scores_for(spans, [[], [2.0], [-1.0, 1.0]])
    assert decode_clusters(doc, scores, 0.0, []) == [spans]
    assert decode_clusters(doc, scores, 0.0, [DISTINCT_NAMES]) == [[(0, 2), (3, 4)]]
