"""Grammatical constraints when decoding: what they read off the parse, and how they change the
clusters. Docs are built by hand (words, heads, deps, tags), scores too."""
import numpy
import pytest
import spacy
from spacy.tokens import Doc

from spacy_coref.ml.s2e_coref import CorefScores
from spacy_coref.ml.torch.constants import MASKED_SCORE
from spacy_coref.pipeline.clustering import constrained_clusters, predict_clusters
from spacy_coref.pipeline.constraints import (
    FEMININE,
    MASCULINE,
    NEUTER,
    PLURAL,
    binding_masks,
    conflicting_classes,
    decode_clusters,
    mention_constraints,
)

POS = {"DT": "DET", "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "VBD": "VERB", "PRP": "PRON",
       "PRP$": "PRON", "CC": "CCONJ", "IN": "ADP", ".": "PUNCT", "WP": "PRON"}


def parsed(words, heads, deps, tags):
    vocab = spacy.blank("en").vocab
    pos = [POS[t] for t in tags]
    return Doc(vocab, words=words, heads=heads, deps=deps, tags=tags, pos=pos)


def nurse_doc():
    # The nurse called the plumber and thanked him .
    return parsed(
        ["The", "nurse", "called", "the", "plumber", "and", "thanked", "him", "."],
        [1, 2, 2, 4, 2, 2, 2, 6, 2],
        ["det", "nsubj", "ROOT", "det", "dobj", "cc", "conj", "dobj", "punct"],
        ["DT", "NN", "VBD", "DT", "NN", "CC", "VBD", "PRP", "."],
    )


def scores_for(spans, pair_scores):
    """CorefScores of kept `spans` in document order, where pair_scores[i][j] is the score of
    antecedent j < i (every earlier mention is a candidate)."""
    n = len(spans)
    k = max(n - 1, 1)
    antecedents = numpy.zeros((n, k), dtype="int64")
    scores = numpy.full((n, 1 + k), MASKED_SCORE, dtype="float32")
    scores[:, 0] = 0.0
    for i in range(n):
        for j in range(i):
            antecedents[i, j] = j
            scores[i, 1 + j] = pair_scores[i][j]
    candidates = numpy.asarray(spans, dtype="int64")
    return CorefScores(candidates, numpy.zeros(n), numpy.arange(n), antecedents, scores)


def test_classes_from_pronouns_gendered_nouns_plurals_and_coordination():
    # Ann and Bo met her aunt and the twins ; they and he left .
    doc = parsed(
        ["Ann", "and", "Bo", "met", "her", "aunt", "and", "the", "twins", "he"],
        [3, 0, 0, 3, 5, 3, 5, 8, 5, 3],
        ["nsubj", "cc", "conj", "ROOT", "poss", "dobj", "cc", "det", "conj", "dobj"],
        ["NNP", "CC", "NNP", "VBD", "PRP$", "NN", "CC", "DT", "NNS", "PRP"],
    )
    spans = [(0, 3), (0, 1), (4, 5), (4, 6), (7, 9), (9, 10)]
    classes = mention_constraints(doc, spans).classes.tolist()
    # "Ann and Bo" plural, "Ann" unknown, her feminine, "her aunt" feminine (its head), "the
    # twins" plural, he masculine
    assert classes == [PLURAL, 0, FEMININE, FEMININE, PLURAL, MASCULINE]


def test_conflicts_leave_singular_they_and_organisations_free():
    assert conflicting_classes(MASCULINE) & FEMININE
    assert conflicting_classes(FEMININE) & PLURAL
    assert conflicting_classes(NEUTER) & MASCULINE
    assert not conflicting_classes(NEUTER) & PLURAL  # the company ... it ... they
    assert not conflicting_classes(0)


def test_binding_subject_of_a_coordinated_verb():
    doc = nurse_doc()
    spans = [(0, 2), (3, 5), (7, 8)]  # The nurse, the plumber, him
    mentions = mention_constraints(doc, spans)
    assert mentions.roots.tolist() == [1, 4, 7]
    assert mentions.clause_subjects.tolist() == [-1, 1, 1]  # both objects bound by "nurse"
    antecedents = numpy.array([[0, 0], [0, 0], [0, 1]])
    forbidden, required = binding_masks(mentions, antecedents)
    assert forbidden[2].tolist() == [True, False]  # him is not the nurse; may be the plumber
    assert forbidden[1, 0]  # nor is the plumber
    assert not required.any()


def test_reflexive_requires_its_subject_and_locative_pronouns_stay_free():
    # He hurt himself near him .
    doc = parsed(
        ["He", "hurt", "himself", "near", "him", "."],
        [1, 1, 1, 1, 3, 1],
        ["nsubj", "ROOT", "dobj", "prep", "pobj", "punct"],
        ["PRP", "VBD", "PRP", "IN", "PRP", "."],
    )
    mentions = mention_constraints(doc, [(0, 1), (2, 3), (4, 5)])
    assert mentions.reflexive.tolist() == [False, True, False]
    assert mentions.clause_subjects.tolist() == [-1, 0, -1]  # "near him" may be He
    forbidden, required = binding_masks(mentions, numpy.array([[0, 0], [0, 0], [0, 1]]))
    assert required[1, 0] and not forbidden.any()


def test_relative_clause_subject_is_the_noun_it_modifies():
    # The man who saw him left .
    doc = parsed(
        ["The", "man", "who", "saw", "him", "left", "."],
        [1, 5, 3, 1, 3, 5, 5],
        ["det", "nsubj", "nsubj", "relcl", "dobj", "ROOT", "punct"],
        ["DT", "NN", "WP", "VBD", "PRP", "VBD", "."],
    )
    assert mention_constraints(doc, [(0, 2), (4, 5)]).clause_subjects.tolist() == [-1, 1]


def test_without_a_parse_only_pronoun_forms_count():
    doc = Doc(spacy.blank("en").vocab, words=["The", "twins", "saw", "her"])
    mentions = mention_constraints(doc, [(0, 2), (3, 4)])
    assert mentions.classes.tolist() == [0, FEMININE]
    assert mentions.clause_subjects.tolist() == [-1, -1]


def test_binding_moves_the_pronoun_to_its_next_best_antecedent():
    doc = nurse_doc()
    spans = [(0, 2), (3, 5), (7, 8)]
    scores = scores_for(spans, [[], [-1.0], [5.0, 2.0]])  # him prefers the nurse
    assert predict_clusters(scores) == [[(0, 2), (7, 8)]]
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(3, 5), (7, 8)]]
    assert decode_clusters(doc, scores, 0.0, []) == predict_clusters(scores)


def test_required_link_is_taken_below_the_null_score():
    doc = parsed(
        ["He", "hurt", "himself", "."],
        [1, 1, 1, 1],
        ["nsubj", "ROOT", "dobj", "punct"],
        ["PRP", "VBD", "PRP", "."],
    )
    scores = scores_for([(0, 1), (2, 3)], [[], [-3.0]])
    assert predict_clusters(scores) == []
    assert decode_clusters(doc, scores, 0.0, ["binding"]) == [[(0, 1), (2, 3)]]


def test_agreement_keeps_the_majority_and_relinks_the_minority():
    # mentions 0 Anna (name), 1 she, 2 Tom (name), 3 she, 4 he
    classes = numpy.array([0, FEMININE, 0, FEMININE, MASCULINE])
    spans = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)]
    pair = [[], [4.0], [1.0, 0.5], [3.0, 2.0, 1.0], [2.0, 1.0, 1.5, 3.0]]
    scores = scores_for(spans, pair)
    # best antecedents alone: one cluster holding she, she and he (he's best is the second she)
    assert predict_clusters(scores) == [[(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)]]
    out = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    # he leaves (one against two); every antecedent above the null score is in the women's
    # cluster, so he stays alone, and the women's cluster keeps Tom (linked to Anna)
    assert out == [[(0, 1), (2, 3), (4, 5), (6, 7)]]


def test_agreement_relinks_to_a_compatible_cluster():
    classes = numpy.array([0, FEMININE, 0, MASCULINE])  # Anna, she, Tom, he
    spans = [(0, 1), (2, 3), (4, 5), (6, 7)]
    # he prefers she (wrong) over Tom; Tom stays alone
    scores = scores_for(spans, [[], [4.0], [-1.0, -1.0], [2.0, 3.0, 1.0]])
    assert predict_clusters(scores) == [[(0, 1), (2, 3), (6, 7)]]
    out = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    assert out == [[(0, 1), (2, 3)], [(4, 5), (6, 7)]]


def test_agreement_without_a_compatible_antecedent_leaves_the_mention_alone():
    classes = numpy.array([FEMININE, MASCULINE])
    scores = scores_for([(0, 1), (2, 3)], [[], [2.0]])
    assert constrained_clusters(scores, classes=classes, conflicts=conflicting_classes) == []


@pytest.mark.parametrize("seed", range(20))
def test_constrained_decoding_never_mixes_classes_and_equals_plain_without_them(seed):
    rng = numpy.random.default_rng(seed)
    n = 30
    spans = [(2 * i, 2 * i + 1) for i in range(n)]
    pair = [list(rng.normal(0.5, 2.0, size=i)) for i in range(n)]
    scores = scores_for(spans, pair)
    assert constrained_clusters(scores) == predict_clusters(scores)
    classes = rng.choice([0, 0, MASCULINE, FEMININE, NEUTER, PLURAL], size=n)
    out = constrained_clusters(scores, classes=classes, conflicts=conflicting_classes)
    seen = set()
    for cluster in out:
        flags = 0
        for mention in cluster:
            assert mention not in seen
            seen.add(mention)
            flags |= int(classes[spans.index(mention)])
        assert not flags & conflicting_classes(flags), (cluster, flags)


def test_decoding_a_doc_without_real_antecedents():
    doc = parsed(
        ["He", "hurt", "himself"], [1, 1, 1], ["nsubj", "ROOT", "dobj"], ["PRP", "VBD", "PRP"]
    )
    spans = [(0, 1), (2, 3)]
    scores = scores_for(spans, [[], [MASKED_SCORE]])  # the only antecedent column is padding
    assert decode_clusters(doc, scores, 0.0, ["agreement", "binding"]) == []
    assert decode_clusters(doc, scores_for([(0, 1)], [[]]), 0.0, ["binding"]) == []
