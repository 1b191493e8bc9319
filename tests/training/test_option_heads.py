"""Pronoun problems' options matched by their heads in training (`training/option_heads.py`):
"trophy" stands for the candidate "The trophy", and the pronoun is taught to link to it where it
was taught nothing."""
import numpy
import spacy
from spacy.tokens import Span, SpanGroup
from spacy.training import Example
from thinc.api import fix_random_seed

from spacy_coref.annotations import GOLD_MENTIONS_KEY, set_clusters
from spacy_coref.formats.pronoun_problems import PROBLEM_KIND
from spacy_coref.ml.torch.constants import MASKED_SCORE
from spacy_coref.pipeline.cluster import gold_annotation
from spacy_coref.training.losses import antecedent_loss
from spacy_coref.training.option_heads import match_option_heads
from spacy_coref.types import CorefScores

NLP = spacy.blank("en")
# The(0) trophy(1) did(2) not(3) fit(4) in(5) the(6) suitcase(7) because(8) it(9) was(10)
# too(11) big(12) .(13)
TEXT = "The trophy did not fit in the suitcase because it was too big ."
PRONOUN, TROPHY, SUITCASE = (9, 10), (1, 2), (7, 8)


def example(kind="winogrande"):
    reference = NLP.make_doc(TEXT)
    roles = {"PRONOUN": PRONOUN, "A": TROPHY, "B": SUITCASE}
    spans = [Span(reference, *offsets, label=role) for role, offsets in roles.items()]
    reference.spans[GOLD_MENTIONS_KEY] = SpanGroup(reference, name=GOLD_MENTIONS_KEY, spans=spans)
    set_clusters(reference, [[PRONOUN, TROPHY]])
    if kind is not None:
        reference.user_data[PROBLEM_KIND] = kind
    return Example(NLP.make_doc(TEXT), reference)


def test_options_are_matched_by_their_heads():
    eg = example()
    cluster_of, labelled = gold_annotation(eg)
    assert set(cluster_of) == {PRONOUN, TROPHY} and labelled == {PRONOUN, TROPHY, SUITCASE}
    candidates = [(0, 2), (1, 2), (5, 8), (6, 8), (0, 8), (9, 10), (7, 10)]
    matched = match_option_heads(eg, cluster_of, labelled, candidates)
    assert matched is not None
    new_cluster_of, new_labelled, mention_labelled = matched
    # "The trophy" is the trophy, in the pronoun's cluster; "the suitcase" and "in the suitcase"
    # are the other option, labelled and in no cluster
    assert new_cluster_of[(0, 2)] == new_cluster_of[PRONOUN] == new_cluster_of[TROPHY]
    assert {(5, 8), (6, 8)} <= new_labelled and (6, 8) not in new_cluster_of
    # a span over both options is neither; one that ends on the pronoun is not an option
    assert (0, 8) not in new_labelled and (7, 10) not in new_labelled
    assert mention_labelled == {PRONOUN}  # the options' boundaries are not known
    assert cluster_of == {PRONOUN: cluster_of[PRONOUN], TROPHY: cluster_of[TROPHY]}  # not changed


def test_other_docs_keep_their_annotation():
    eg = example(kind=None)  # a GAP row: its names are exact spans
    cluster_of, labelled = gold_annotation(eg)
    assert match_option_heads(eg, cluster_of, labelled, [(0, 2), (9, 10)]) is None


def test_the_pronoun_learns_to_link_the_phrase():
    # the parse's candidates: "The trophy", "the suitcase", "it"; none is an option's span
    candidates = [(0, 2), (6, 8), (9, 10)]
    scores = CorefScores(
        candidates=numpy.asarray(candidates),
        mention_scores=numpy.zeros(3, dtype="float32"),
        kept=numpy.arange(3),
        antecedents=numpy.asarray([[0, 0], [0, 0], [0, 1]]),
        scores=numpy.asarray([[0.0, MASKED_SCORE, MASKED_SCORE], [0.0, 0.5, MASKED_SCORE],
                              [0.0, 0.2, 0.3]], dtype="float32"),
    )
    eg = example()
    cluster_of, labelled = gold_annotation(eg)
    _, before = antecedent_loss(scores, cluster_of, labelled)
    assert not before.any()  # without matching no candidate is an option: no signal at all
    matched_cluster_of, matched_labelled, _ = match_option_heads(eg, cluster_of, labelled,
                                                                 candidates)
    _, after = antecedent_loss(scores, matched_cluster_of, matched_labelled)
    # with it: toward "The trophy" (column 1), away from null and "the suitcase"
    assert after[2, 1] < 0 and after[2, 0] > 0 and after[2, 2] > 0


def test_the_component_trains_the_pronoun_and_not_the_bare_option():
    fix_random_seed(0)
    nlp = spacy.blank("en")
    config = {"hidden_width": 16, "candidates": "spans", "max_span_width": 2,
              "tok2vec": {"width": 16, "depth": 1, "embed_size": 200}}
    pipe = nlp.add_pipe("coref_cluster", config={"model": config, "mention_loss_weight": 1.0})
    eg = example()
    nlp.initialize(lambda: [eg])
    (scores,) = pipe.model.predict([eg.predicted])
    _, ((d_pairs, d_mentions),) = pipe.get_loss([eg], [scores])
    row = {(int(s), int(e)): i for i, (s, e) in enumerate(numpy.asarray(scores.candidates))}
    d_mentions = numpy.asarray(d_mentions)
    assert d_mentions[row[PRONOUN]] != 0
    # "trophy" alone is not taught as a mention; "The trophy" and it are antecedents of "it"
    assert d_mentions[row[TROPHY]] == 0 and d_mentions[row[(0, 2)]] == 0
    assert numpy.asarray(d_pairs).any()
