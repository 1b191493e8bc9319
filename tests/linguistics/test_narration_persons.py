"""Persons outside quotes: "I", "we", "you" and "he" are four people there, and a
conflict between them is repaired by cutting the weakest link (persons.narration_persons,
clustering's `cut_classes`)."""
import numpy
import spacy
from spacy.tokens import Doc, Span

from spacy_coref.annotations import SPEAKERS_KEY
from spacy_coref.decoding.clustering import constrained_clusters, predict_clusters
from spacy_coref.decoding import decode_clusters
from spacy_coref.linguistics.mention_analysis import mention_constraints
from spacy_coref.linguistics.mention_classes import (
    CONJOINED,
    FEMININE,
    FIRST_PLURAL_PERSON,
    FIRST_SINGULAR_PERSON,
    MASCULINE,
    PERSONS,
    PLURAL,
    READER,
    SECOND_PERSON,
    SPEAKERS,
    THIRD_PERSON,
    conflicting_classes,
)
from spacy_coref.linguistics.persons import narration_persons, speaker_persons, speakers_you_apart

from decoding_helpers import scores_for  # noqa: E402 (tests/)

VOCAB = spacy.blank("en").vocab


def words_doc(words):
    return Doc(VOCAB, words=words)


def one_word_spans(doc):
    return numpy.asarray([(i, i + 1) for i in range(len(doc))], dtype="int64")


def test_pronouns_take_their_person_in_a_doc_without_quotes():
    doc = words_doc(["Daniel", "said", "he", "told", "you", "and", "me", "about", "our", "plan"])
    spans = numpy.asarray([(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (9, 10)], dtype="int64")
    classes = numpy.asarray([MASCULINE, MASCULINE, 0, 0, PLURAL, 0])
    out = narration_persons(doc, spans, classes)
    assert out.tolist() == [
        MASCULINE,  # a name has no person ("I, Martin")
        MASCULINE | THIRD_PERSON,
        SECOND_PERSON | READER,  # no speakers: "you" is the reader
        FIRST_SINGULAR_PERSON,
        PLURAL | FIRST_PLURAL_PERSON,
        0,
    ]
    assert classes.tolist() == [MASCULINE, MASCULINE, 0, 0, PLURAL, 0]  # not changed in place


def test_an_unpaired_quote_mark_leaves_the_persons_to_the_quotes():
    # I am late , MARK he said  (the quote's other mark missing: its words may be anywhere)
    spans = numpy.asarray([(0, 1), (5, 6)], dtype="int64")
    classes = numpy.asarray([0, MASCULINE])
    for mark in ('"', "“", "'", "‘", "«"):
        doc = words_doc(["I", "am", "late", ",", mark, "he", "said"])
        assert narration_persons(doc, spans, classes).tolist() == [0, MASCULINE]
    # a transcript with speakers and no quotes is narration: "he" is not the speaker's "I"
    doc = words_doc(["I", "am", "late", ".", "he", "said"])
    doc.spans[SPEAKERS_KEY] = [Span(doc, 0, 4, label="A"), Span(doc, 4, 6, label="B")]
    spans = numpy.asarray([(0, 1), (4, 5)], dtype="int64")
    persons = narration_persons(doc, spans, classes).tolist()
    assert persons == [FIRST_SINGULAR_PERSON, MASCULINE | THIRD_PERSON]


def test_outside_paired_quotes_the_narration_takes_its_persons():
    # I asked , MARK Are you late ? MARK and he said you were .
    spans = numpy.asarray([(0, 1), (5, 6), (10, 11), (12, 13)], dtype="int64")
    classes = numpy.asarray([0, 0, MASCULINE, 0])
    for opening, closing in (('"', '"'), ("“", "”"), ("'", "'"), ("‘", "’")):
        doc = words_doc(["I", "asked", ",", opening, "Are", "you", "late", "?", closing, "and",
                         "he", "said", "you", "were", "."])
        # the narrator is not "he"; the quote's "you" is its speaker's to say; the narration's
        # "you" need not be the reader
        assert narration_persons(doc, spans, classes).tolist() == [
            FIRST_SINGULAR_PERSON, 0, MASCULINE | THIRD_PERSON, SECOND_PERSON]
    # a plural's apostrophe is no quote: "I saw the girls' room and he left"
    doc = words_doc(["I", "saw", "the", "girls", "'", "room", "and", "he", "left"])
    spans = numpy.asarray([(0, 1), (7, 8)], dtype="int64")
    persons = narration_persons(doc, spans, numpy.asarray([0, MASCULINE])).tolist()
    assert persons == [FIRST_SINGULAR_PERSON, MASCULINE | THIRD_PERSON]


def transcript():
    # A: I grew up here . B: I did too . A: my school closed .
    doc = words_doc(["I", "grew", "up", "here", ".", "I", "did", "too", ".", "my", "school",
                     "closed", "."])
    doc.spans[SPEAKERS_KEY] = [Span(doc, 0, 5, label="A"), Span(doc, 5, 9, label="B"),
                               Span(doc, 9, 13, label="A")]
    return doc


def test_the_first_person_of_each_speaker_is_one_person():
    doc = transcript()
    spans = numpy.asarray([(0, 1), (5, 6), (9, 10), (3, 4)], dtype="int64")
    classes = speaker_persons(doc, spans, numpy.zeros(4, dtype="int64"))
    a, b, a_again, here = classes.tolist()
    assert a == a_again and a & SPEAKERS and b & SPEAKERS and a != b and here == 0
    assert conflicting_classes(a) & b and not conflicting_classes(a) & a_again
    # a cluster that already holds two speakers conflicts with any speaker's "I"
    assert conflicting_classes(a | b) & (a | b)
    # without speakers nothing changes
    plain = words_doc([t.text for t in doc])
    assert speaker_persons(plain, spans, numpy.zeros(4, dtype="int64")).tolist() == [0] * 4


def test_two_speakers_first_persons_are_parted():
    doc = transcript()
    spans = [(0, 1), (5, 6), (9, 10)]
    # B's "I" links to A's "I" above A's "my" does: the cut sends B's "I" away
    scores = scores_for(spans, [[], [4.0], [3.0, 5.0]])
    assert predict_clusters(scores) == [[(0, 1), (5, 6), (9, 10)]]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(0, 1), (9, 10)]]


def test_a_speakers_i_is_never_he_or_she_even_in_a_doc_with_quotes():
    # A: I met him . " Great , " she said .  (with its speakers given, a doc with quotes
    # counts persons too, and a speaker's own "I" is no "he" or "she")
    doc = words_doc(["I", "met", "him", ".", '"', "Great", ",", '"', "she", "said", "."])
    doc.spans[SPEAKERS_KEY] = [Span(doc, 0, 11, label="A")]
    spans = numpy.asarray([(0, 1), (2, 3), (8, 9)], dtype="int64")
    classes = numpy.asarray([0, MASCULINE, FEMININE])
    assert narration_persons(doc, spans, classes).tolist() == [
        FIRST_SINGULAR_PERSON, MASCULINE | THIRD_PERSON, FEMININE | THIRD_PERSON
    ]
    i, him, she = speaker_persons(doc, spans, classes).tolist()
    assert conflicting_classes(i) & she and conflicting_classes(him) & i
    # the model put "she" with the speaker's "I": the cut sends her away
    scores = scores_for([(0, 1), (2, 3), (8, 9)], [[], [-1.0], [4.0, -1.0]])
    assert predict_clusters(scores) == [[(0, 1), (8, 9)]]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == []


def test_a_turns_you_is_not_its_speakers_i():
    # A: do you have my keys ? B: I do .  (A's "you" is B, never A's "my"; B's "I" may be it)
    doc = Doc(VOCAB, words=["do", "you", "have", "my", "keys", "?", "I", "do", "."],
              heads=[2, 2, 2, 4, 2, 2, 7, 7, 7],
              deps=["aux", "nsubj", "ROOT", "poss", "dobj", "punct", "nsubj", "ROOT", "punct"])
    doc.spans[SPEAKERS_KEY] = [Span(doc, 0, 6, label="A"), Span(doc, 6, 9, label="B")]
    spans = numpy.asarray([(1, 2), (3, 4), (6, 7)], dtype="int64")
    antecedents = numpy.asarray([[0, 0], [0, 0], [0, 1]])
    apart = speakers_you_apart(doc, spans, antecedents)
    assert apart[1, 0]  # "my" (A) and A's "you"
    assert not apart[2, 0]  # B's "I" may be A's "you"
    # the model put "my" with "you": the agreement constraint keeps them apart
    scores = scores_for([(1, 2), (3, 4), (6, 7)], [[], [3.0], [-1.0, -1.0]])
    assert predict_clusters(scores) == [[(1, 2), (3, 4)]]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == []
    # B's "I" may take A's "you"
    scores = scores_for([(1, 2), (3, 4), (6, 7)], [[], [-1.0], [4.0, -1.0]])
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(1, 2), (6, 7)]]
    # without speakers nothing is kept apart, and without a parse (the fast pipeline) the
    # decoding does not ask
    plain = words_doc([t.text for t in doc])
    assert not speakers_you_apart(plain, spans, antecedents).any()
    unparsed = words_doc([t.text for t in doc])
    unparsed.spans[SPEAKERS_KEY] = [Span(unparsed, 0, 6, label="A"),
                                    Span(unparsed, 6, 9, label="B")]
    scores = scores_for([(1, 2), (3, 4), (6, 7)], [[], [3.0], [-1.0, -1.0]])
    assert decode_clusters(unparsed, scores, 0.0, ["agreement"]) == [[(1, 2), (3, 4)]]


def test_we_is_plural_and_never_he_or_she():
    doc = words_doc(["we", "our", "us"])
    assert mention_constraints(doc, one_word_spans(doc)).classes.tolist() == [PLURAL] * 3
    assert conflicting_classes(PLURAL) & MASCULINE


def test_the_persons_that_conflict():
    # third person with every other one; "we" with "I" and "you"; "I" and "you" may be one
    # (in a conversation without speakers the "you" of one turn is the "I" of the next)
    assert conflicting_classes(THIRD_PERSON) == PERSONS & ~THIRD_PERSON
    assert conflicting_classes(FIRST_PLURAL_PERSON) == PERSONS & ~FIRST_PLURAL_PERSON
    assert not conflicting_classes(FIRST_SINGULAR_PERSON) & SECOND_PERSON
    assert not conflicting_classes(SECOND_PERSON) & FIRST_SINGULAR_PERSON
    # but the reader's "you" (a doc without speakers) is never the writer's "I"
    assert conflicting_classes(FIRST_SINGULAR_PERSON) & READER
    assert conflicting_classes(SECOND_PERSON | READER) & FIRST_SINGULAR_PERSON


def test_a_coordination_with_me_is_plural_and_never_i():
    # Isabel and I left ; me and Isabel : the pronoun heads the coordination
    doc = Doc(VOCAB, words=["me", "and", "Isabel", "left", ".", "I", "stayed"],
              heads=[3, 0, 0, 3, 3, 6, 6], deps=["nsubj", "cc", "conj", "ROOT", "punct",
                                                 "nsubj", "ROOT"],
              pos=["PRON", "CCONJ", "PROPN", "VERB", "PUNCT", "PRON", "VERB"])
    classes = mention_constraints(doc, [(0, 3), (5, 6)]).classes.tolist()
    assert classes[0] == PLURAL | CONJOINED
    assert conflicting_classes(CONJOINED) & FIRST_SINGULAR_PERSON
    assert conflicting_classes(FIRST_SINGULAR_PERSON) & CONJOINED


def test_you_is_the_reader_only_without_speakers():
    doc = words_doc(["I", "told", "you", "."])
    spans = numpy.asarray([(0, 1), (2, 3)], dtype="int64")
    classes = numpy.zeros(2, dtype="int64")
    assert narration_persons(doc, spans, classes).tolist() == [
        FIRST_SINGULAR_PERSON, SECOND_PERSON | READER,
    ]
    doc.spans[SPEAKERS_KEY] = [Span(doc, 0, 4, label="A")]
    assert narration_persons(doc, spans, classes).tolist() == [
        FIRST_SINGULAR_PERSON, SECOND_PERSON,
    ]


def test_decoding_an_email_keeps_the_writer_and_the_reader_apart():
    # Hi Daniel , I read it . Could you check it ? : "you" scores highest with "I"
    words = ["Hi", "Daniel", ",", "I", "read", "it", ".", "Could", "you", "check", "it", "?"]
    doc = words_doc(words)
    spans = [(1, 2), (3, 4), (8, 9)]
    scores = scores_for(spans, [[], [-2.0], [-3.0, 1.5]])
    assert decode_clusters(doc, scores, 0.0, []) == [[(3, 4), (8, 9)]]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == []
    # a transcript's turns: B's "you" may be A's "I"
    doc.spans[SPEAKERS_KEY] = [Span(doc, 0, 7, label="A"), Span(doc, 7, 12, label="B")]
    assert decode_clusters(doc, scores, 0.0, ["agreement"]) == [[(3, 4), (8, 9)]]


def rosa_scores():
    """'Aunt Rosa , my mother 's sister , sends me a card , and she never forgets my birthday':
    Aunt Rosa, my, me, she, my. "my" links weakly to Aunt Rosa, "she" strongly."""
    spans = [(0, 2), (3, 4), (9, 10), (14, 15), (17, 18)]
    pair = [[], [0.9], [2.0, 7.6], [10.8, 1.8, 2.8], [-1.7, 6.5, 9.1, -0.3]]
    classes = numpy.asarray([
        FEMININE, FIRST_SINGULAR_PERSON, FIRST_SINGULAR_PERSON, FEMININE | THIRD_PERSON,
        FIRST_SINGULAR_PERSON,
    ])
    return scores_for(spans, pair), classes


def test_a_person_conflict_cuts_the_weakest_link_not_the_fewest_mentions():
    scores, classes = rosa_scores()
    assert predict_clusters(scores) == [[(0, 2), (3, 4), (9, 10), (14, 15), (17, 18)]]
    out = constrained_clusters(
        scores, classes=classes, conflicts=conflicting_classes, cut_classes=PERSONS
    )
    assert out == [[(0, 2), (14, 15)], [(3, 4), (9, 10), (17, 18)]]
    # by the majority (three "my"/"me" against one "she"), "she" would have left instead
    majority = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    assert [(0, 2), (14, 15)] not in majority


def test_a_cut_mention_takes_the_mentions_linked_to_it_and_may_join_another_cluster():
    # you, Daniel, he, your: "your" links to "he" (weakly) and "you" (less); "he" to Daniel
    spans = [(0, 1), (2, 3), (4, 5), (6, 7)]
    pair = [[], [-2.0], [-1.0, 5.0], [1.0, -1.0, 2.0]]
    classes = numpy.asarray([SECOND_PERSON, MASCULINE, MASCULINE | THIRD_PERSON, SECOND_PERSON])
    scores = scores_for(spans, pair)
    out = constrained_clusters(
        scores, classes=classes, conflicts=conflicting_classes, cut_classes=PERSONS
    )
    assert out == [[(0, 1), (6, 7)], [(2, 3), (4, 5)]]


def test_cut_decoding_never_leaves_a_person_conflict():
    rng = numpy.random.default_rng(0)
    n = 40
    spans = [(2 * i, 2 * i + 1) for i in range(n)]
    for _ in range(20):
        pair = [list(rng.normal(1.0, 2.0, size=i)) for i in range(n)]
        choices = [0, MASCULINE, FEMININE | THIRD_PERSON, FIRST_SINGULAR_PERSON,
                   SECOND_PERSON, PLURAL | FIRST_PLURAL_PERSON, MASCULINE | THIRD_PERSON]
        classes = rng.choice(choices, size=n)
        out = constrained_clusters(
            scores_for(spans, pair), classes=classes, conflicts=conflicting_classes,
            cut_classes=PERSONS,
        )
        for cluster in out:
            flags = numpy.bitwise_or.reduce([int(classes[spans.index(m)]) for m in cluster])
            assert not flags & conflicting_classes(int(flags)), cluster


def test_decoding_an_email_keeps_the_reader_out_of_a_third_person_cluster():
    words = ["Ask", "Daniel", ".", "He", "knows", "your", "numbers", "."]
    doc = words_doc(words)
    spans = [(1, 2), (3, 4), (5, 6)]
    # the scores put "your" with "He"
    scores = scores_for(spans, [[], [6.0], [0.5, 2.0]])
    clusters = decode_clusters(doc, scores, 0.0, ["agreement"])
    assert clusters == [[(1, 2), (3, 4)]]
    quoted = words_doc(["Ask", "Daniel", '"', "He", "knows", "your", "numbers", '"'])
    assert decode_clusters(quoted, scores, 0.0, ["agreement"]) == [[(1, 2), (3, 4), (5, 6)]]
