"""The other_heads constraint: a common noun phrase takes an earlier one with another head
noun ("the budget" after "the council") only on a high score. Docs are built by hand (words,
heads, deps, tags), scores too; without a parse, from the words and the word-tag table."""
import numpy
import pytest
import spacy
from spacy.tokens import Doc, Span
from decoding_helpers import POS, parsed, scores_for  # noqa: E402 (tests/)

from spacy_coref.decoding import decode_clusters
from spacy_coref.decoding.steps.other_heads import OTHER_HEAD_MARGIN, other_head_pairs
from spacy_coref.linguistics.unparsed_heads import singular, unparsed_head_lemmas


def council_doc():
    # The council approved the budget . The council praised it .
    return parsed(
        ["The", "council", "approved", "the", "budget", ".", "The", "council", "praised", "it",
         "."],
        [1, 2, 2, 4, 2, 2, 7, 8, 8, 8, 8],
        ["det", "nsubj", "ROOT", "det", "dobj", "punct", "det", "nsubj", "ROOT", "dobj",
         "punct"],
        ["DT", "NN", "VBD", "DT", "NN", ".", "DT", "NN", "VBD", "PRP", "."],
    )


COUNCIL, BUDGET, COUNCIL_AGAIN, IT = (0, 2), (3, 5), (6, 8), (9, 10)
SPANS = [COUNCIL, BUDGET, COUNCIL_AGAIN, IT]
HEADS = numpy.asarray([1, 4, 7, 9])


def marked(doc, spans, heads, pair_scores):
    antecedents = numpy.asarray(scores_for(spans, pair_scores).antecedents)
    other = other_head_pairs(doc, heads, antecedents)
    return {(q, int(antecedents[q, k])) for q, k in zip(*numpy.nonzero(other)) if k < q}


def test_common_nouns_with_other_heads_are_marked_and_pronouns_are_not():
    pairs = marked(council_doc(), SPANS, HEADS, [[], [0.0], [0.0, 0.0], [0.0, 0.0, 0.0]])
    # the budget / the council both ways; not the council twice, nor "it"
    assert pairs == {(1, 0), (2, 1)}


def plan_doc(entity=None, company="company"):
    # Apple sold the plans . The company liked the plan .
    words = ["Apple", "sold", "the", "plans", ".", "The", company, "liked", "the", "plan", "."]
    tags = ["NNP", "VBD", "DT", "NNS", ".", "DT", "NN", "VBD", "DT", "NN", "."]
    doc = Doc(
        spacy.blank("en").vocab, words=words, tags=tags, pos=[POS[t] for t in tags],
        heads=[1, 1, 3, 1, 1, 6, 7, 7, 9, 7, 7],
        deps=["nsubj", "ROOT", "det", "dobj", "punct", "det", "nsubj", "ROOT", "det", "dobj",
              "punct"],
        lemmas=["Apple", "sell", "the", "plan", ".", "the", "company", "like", "the", "plan", "."],
    )
    if entity:  # as if the NER had called "The company" an organisation (or a date)
        doc.ents = [Span(doc, 5, 7, label=entity)]
    return doc


def test_names_and_one_lemma_are_not_marked():
    spans = [(0, 1), (2, 4), (5, 7), (8, 10)]  # Apple, the plans, The company, the plan
    heads = numpy.asarray([0, 3, 6, 9])
    scores = [[], [0.0], [0.0, 0.0], [0.0, 0.0, 0.0]]
    # "The company" after "Apple" is left alone; "the plan" after "the plans" is one lemma
    assert marked(plan_doc(), spans, heads, scores) == {(2, 1), (3, 2)}
    # a noun inside a named entity counts as a name where it is capitalised or the entity a
    # date, a time or a number ("the third quarter"); not a lower-case one that the NER took
    # for a name ("the fox": ORG)
    assert marked(plan_doc("ORG", "Company"), spans, heads, scores) == set()
    assert marked(plan_doc("DATE"), spans, heads, scores) == set()
    assert marked(plan_doc("ORG"), spans, heads, scores) == {(2, 1), (3, 2)}


def test_nothing_is_marked_without_tags_or_heads():
    doc = Doc(spacy.blank("en").vocab, words=[t.text for t in council_doc()])
    assert marked(doc, SPANS, HEADS, [[], [0.0], [0.0, 0.0], [0.0, 0.0, 0.0]]) == set()
    unparsed = numpy.full(len(SPANS), -1)
    assert marked(council_doc(), SPANS, unparsed, [[], [0.0], [0.0, 0.0], [0.0, 0.0, 0.0]]) == set()


def council_scores(budget_to_council):
    # the model's mistake: "the budget" takes "The council", and "it" the budget
    return scores_for(SPANS, [[], [budget_to_council], [4.0, 1.0], [-1.0, 2.0, 0.5]])


def unparsed_council_doc():
    # the same words without a parse: the heads come from the word tags
    return spacy.blank("en")("The council approved the budget . The council praised it .")


@pytest.mark.parametrize("make_doc", [council_doc, unparsed_council_doc])
def test_a_link_to_another_head_needs_the_margin(make_doc):
    doc = make_doc()
    one = [[COUNCIL, BUDGET, COUNCIL_AGAIN, IT]]
    assert decode_clusters(doc, council_scores(3.0), 0.0, []) == one
    apart = [[COUNCIL, COUNCIL_AGAIN], [BUDGET, IT]]
    assert decode_clusters(doc, council_scores(3.0), 0.0, ["other_heads"]) == apart
    # a link the model is sure of stays ("the firm" ... "the company")
    sure = council_scores(OTHER_HEAD_MARGIN + 1.0)
    assert decode_clusters(doc, sure, 0.0, ["other_heads"]) == one


def test_without_a_parse_heads_come_from_the_word_tags():
    nlp = spacy.blank("en")
    doc = nlp("Apple sold the old plans to the top of the hill and the plan that failed .")
    assert not doc.has_annotation("DEP")
    apple, old_plans, top, plan_that, plan = (0, 1), (2, 5), (6, 11), (12, 16), (12, 14)
    lemmas = unparsed_head_lemmas(doc, numpy.asarray([apple, old_plans, top, plan_that, plan]))
    strings = doc.vocab.strings
    # a name has none; "the old plans" is "plan", as "the plan"; "the top of the hill" is
    # "top"; "the plan that failed" holds a word no noun phrase starts with
    heads = [strings[h] if h else None for h in lemmas.tolist()]
    assert heads == [None, "plan", "top", None, "plan"]
    # the table decides: a word it calls a verb heads nothing
    as_verb = {"the": "DET", "plan": "VERB"}
    assert unparsed_head_lemmas(doc, numpy.asarray([plan]), tags=as_verb)[0] == 0


@pytest.mark.parametrize(
    "plural,singular_form",
    [("companies", "company"), ("boxes", "box"), ("churches", "church"), ("dogs", "dog"),
     ("glass", "glass"), ("bus", "bus"), ("analysis", "analysis"), ("children", "children")],
)
def test_singular_of_regular_plurals(plural, singular_form):
    assert singular(plural) == singular_form
