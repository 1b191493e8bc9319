"""coref_cluster on hand-made docs whose candidate mentions are set directly (no parser), with a
small CNN tok2vec so that every test runs in seconds on a CPU."""
import pickle
import warnings

import numpy
import pytest
import spacy
from spacy.tokens import DocBin
from spacy.training import Example
from spacy.util import fix_random_seed

from spacy_coref.annotations import get_clusters, set_clusters, set_mentions, set_scheme
from spacy_coref.pipeline.cluster import gold_annotation
from spacy_coref.util import bare_copy

SMALL = {"model": {"hidden_width": 32, "tok2vec": {"width": 32, "depth": 2, "embed_size": 500}}}

TRAIN = [
    (
        "Alice saw Bob . She waved at him and he smiled .",
        [[(0, 1), (4, 5)], [(2, 3), (7, 8), (9, 10)]],
        [(0, 1), (2, 3), (4, 5), (7, 8), (9, 10)],
    ),
    (
        "The cat chased the dog , but it was too fast for the cat .",
        [[(0, 2), (12, 14)], [(3, 5), (7, 8)]],
        [(0, 2), (3, 5), (7, 8), (12, 14)],
    ),
]


def _nlp(**cfg):
    fix_random_seed(0)
    nlp = spacy.blank("en")
    nlp.add_pipe("coref_cluster", config={**SMALL, **cfg})
    return nlp


def _examples(nlp, data=TRAIN):
    examples = []
    for text, clusters, mentions in data:
        reference = nlp.make_doc(text)
        set_clusters(reference, clusters)
        predicted = nlp.make_doc(text)
        set_mentions(predicted, mentions)
        examples.append(Example(predicted, reference))
    return examples


def _doc(nlp, text, mentions):
    doc = nlp.make_doc(text)
    set_mentions(doc, mentions)
    return doc


def _train(nlp, examples, steps=40):
    optimizer = nlp.initialize(lambda: examples)
    history = []
    for _ in range(steps):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
        history.append(losses["coref_cluster"])
    return history


@pytest.fixture(scope="module")
def trained():
    nlp = _nlp(model={**SMALL["model"], "top_lambda": 1.0})
    examples = _examples(nlp)
    history = _train(nlp, examples)
    return nlp, examples, history


def test_not_initialized_error():
    nlp = _nlp()
    with pytest.raises(ValueError, match="CE101"):
        nlp.get_pipe("coref_cluster")(_doc(nlp, "Alice saw her .", [(0, 1), (2, 3)]))


def test_missing_candidates_error():
    nlp = _nlp()
    nlp.initialize()
    with pytest.raises(ValueError, match="CE102"):
        nlp("Alice saw her .")


def test_initialize_without_examples_and_bad_get_examples():
    nlp = _nlp()
    nlp.initialize()
    assert nlp.get_pipe("coref_cluster").cfg["nI"] == 32
    with pytest.raises(TypeError):
        nlp.get_pipe("coref_cluster").initialize(lambda: None)


def test_overfitting_gives_the_exact_clusters(trained, tmp_path):
    nlp, examples, history = trained
    assert history[-1] < 0.1 * history[0]
    pipe = nlp.get_pipe("coref_cluster")
    docs = [pipe(_doc(nlp, text, mentions)) for text, _, mentions in TRAIN]
    assert [get_clusters(doc) for doc in docs] == [clusters for _, clusters, _ in TRAIN]
    scores = nlp.evaluate(examples)
    assert scores["coref_f"] == pytest.approx(1.0)
    # the same clusters after a disk round trip
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    pipe2 = loaded.get_pipe("coref_cluster")
    docs2 = [pipe2(_doc(loaded, text, mentions)) for text, _, mentions in TRAIN]
    assert [get_clusters(doc) for doc in docs2] == [clusters for _, clusters, _ in TRAIN]


def test_bytes_round_trip_is_stable(trained):
    nlp, _, _ = trained
    data = nlp.get_pipe("coref_cluster").to_bytes()
    fresh = _nlp(model={**SMALL["model"], "top_lambda": 1.0})
    fresh.get_pipe("coref_cluster").from_bytes(data)
    assert fresh.get_pipe("coref_cluster").to_bytes() == data
    text, clusters, mentions = TRAIN[0]
    assert get_clusters(fresh.get_pipe("coref_cluster")(_doc(fresh, text, mentions))) == clusters


def test_empty_and_one_token_docs(trained):
    nlp, _, _ = trained
    pipe = nlp.get_pipe("coref_cluster")
    docs = [_doc(nlp, "", []), _doc(nlp, "Hi", [(0, 1)]), _doc(nlp, TRAIN[0][0], TRAIN[0][2]), _doc(nlp, "", [])]
    out = list(pipe.pipe(docs, batch_size=4))
    assert [get_clusters(d) for d in out] == [[], [], TRAIN[0][1], []]


def test_update_on_only_empty_docs_gives_zero_loss(trained):
    nlp, _, _ = trained
    examples = _examples(nlp, [("", [], []), ("", [], [])])
    losses = nlp.get_pipe("coref_cluster").update(examples)
    assert losses["coref_cluster"] == 0.0


def test_batch_equals_one_by_one(trained):
    nlp, _, _ = trained
    pipe = nlp.get_pipe("coref_cluster")
    docs = [_doc(nlp, text, m) for text, _, m in TRAIN] * 3
    batched = [get_clusters(d) for d in pipe.pipe([d.copy() for d in docs], batch_size=5)]
    single = [get_clusters(pipe(d.copy())) for d in docs]
    assert batched == single


def test_clusters_survive_serialization(trained):
    nlp, _, _ = trained
    text, clusters, mentions = TRAIN[0]
    doc = nlp.get_pipe("coref_cluster")(_doc(nlp, text, mentions))
    restored = [
        pickle.loads(pickle.dumps(doc)),
        spacy.tokens.Doc(nlp.vocab).from_bytes(doc.to_bytes()),
        list(DocBin(docs=[doc]).get_docs(nlp.vocab))[0],
        list(DocBin(docs=[doc], store_user_data=True).get_docs(nlp.vocab))[0],
    ]
    for other in restored:
        assert get_clusters(other) == clusters
        assert [str(c.main) for c in other._.coref_clusters] == ["Alice", "Bob"]


def test_pair_scores_are_stored_on_request(trained):
    nlp, _, _ = trained
    pipe = nlp.get_pipe("coref_cluster")
    text, _, mentions = TRAIN[0]
    pipe.cfg["store_scores"] = True
    try:
        doc = pipe(_doc(nlp, text, mentions))
    finally:
        pipe.cfg["store_scores"] = False
    she, alice, bob = doc[4:5], doc[0:1], doc[2:3]
    assert doc._.coref_score(she, alice) > doc._.coref_score(she, bob)
    assert doc._.coref_score(alice, she) == doc._.coref_score(she, alice)


def test_two_trainings_with_the_same_seed_match():
    runs = []
    for _ in range(2):
        nlp = _nlp()
        history = _train(nlp, _examples(nlp), steps=5)
        runs.append(history)
    assert runs[0] == runs[1]


def test_gold_annotation_aligns_to_other_tokenization():
    nlp = spacy.blank("en")
    reference = spacy.tokens.Doc(nlp.vocab, words=["Anne", "'s", "cat", "saw", "her"])
    set_clusters(reference, [[(0, 1), (4, 5)]])
    predicted = nlp.make_doc("Anne's cat saw her")
    eg = Example(predicted, reference)
    cluster_of, labelled = gold_annotation(eg)
    assert cluster_of == {(0, 1): 0, (4, 5): 0}
    assert labelled is None


def test_unaligned_gold_mentions_warn_once(trained):
    nlp = trained[0]
    # the gold mention "Anne" is half of the predicted token "Anne-Marie": it cannot align
    reference = spacy.tokens.Doc(nlp.vocab, words=["Anne", "-Marie", "saw", "her", "."])
    set_clusters(reference, [[(0, 1), (3, 4)]])
    predicted = spacy.tokens.Doc(nlp.vocab, words=["Anne-Marie", "saw", "her", "."])
    set_mentions(predicted, [(0, 1), (2, 3)])
    eg = Example(predicted, reference)
    pipe = nlp.get_pipe("coref_cluster")
    pipe._warned_unaligned = False
    with pytest.warns(UserWarning, match=r"CW100.*1 of 2 gold mention"):
        pipe.get_loss([eg], pipe.predict([eg.predicted]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pipe.get_loss([eg], pipe.predict([eg.predicted]))  # shown once per component


def test_partial_annotation_restricts_the_loss():
    """GAP: only the labelled spans carry gold decisions; unlabelled candidates get no gradient."""
    from spacy_coref.annotations import GOLD_MENTIONS_KEY
    from spacy_coref.training.losses import antecedent_loss

    nlp = _nlp(model={**SMALL["model"], "top_lambda": 1.0})
    text = "Kate met Ann and Bob . She left ."
    examples = _examples(nlp, [(text, [[(0, 1), (7, 8)]], [(0, 1), (2, 3), (4, 5), (7, 8)])])
    reference = examples[0].reference
    reference.spans[GOLD_MENTIONS_KEY] = [reference[0:1], reference[2:3], reference[7:8]]
    nlp.initialize(lambda: examples)
    scores = nlp.get_pipe("coref_cluster").model.predict([examples[0].predicted])[0]
    cluster_of, labelled = gold_annotation(examples[0])
    _, grad = antecedent_loss(scores, cluster_of, labelled)
    kept = numpy.asarray(scores.candidates)[numpy.asarray(scores.kept)].tolist()
    assert numpy.all(grad[kept.index([4, 5])] == 0)  # "Bob" is not labelled
    she = kept.index([7, 8])
    assert grad[she].any()
    # the unlabelled "Bob" gets no probability mass in "She"'s distribution
    bob_cols = numpy.asarray(scores.antecedents)[she] == kept.index([4, 5])
    assert numpy.all(grad[she, 1:][bob_cols] == 0)


def test_decoding_chains_and_the_null_score():
    """Links follow the best antecedent; chains merge; a lower null score links more."""
    from spacy_coref.types import CorefScores
    from spacy_coref.ml.torch.constants import MASKED_SCORE
    from spacy_coref.decoding.clustering import predict_clusters

    candidates = numpy.array([[0, 1], [2, 3], [4, 5], [6, 7]])
    antecedents = numpy.array([[0, 0], [0, 0], [1, 0], [2, 1]])
    m = MASKED_SCORE
    scores = numpy.array(
        [
            [0.0, m, m],  # first mention: nothing before it
            [0.0, -1.0, m],  # (2,3) -> (0,1) scores -1: linked only when null < -1
            [0.0, 2.0, 1.0],  # (4,5) -> (2,3)
            [0.0, 3.0, 0.5],  # (6,7) -> (4,5)
        ],
        dtype="float32",
    )
    doc_scores = CorefScores(candidates, numpy.zeros(4), numpy.arange(4), antecedents, scores)
    assert predict_clusters(doc_scores) == [[(2, 3), (4, 5), (6, 7)]]
    assert predict_clusters(doc_scores, null_score=-2.0) == [[(0, 1), (2, 3), (4, 5), (6, 7)]]
    assert predict_clusters(doc_scores, null_score=5.0) == []
    assert doc_scores.scores[0, 0] == 0.0  # decoding does not change the model's scores


def _listener_nlp(learn_rate_scale):
    """A shared tok2vec component feeding coref_cluster through a listener, as with a shared
    transformer."""
    fix_random_seed(0)
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "tok2vec",
        config={
            "model": {
                "@architectures": "spacy.HashEmbedCNN.v2",
                "pretrained_vectors": None,
                "width": 32,
                "depth": 1,
                "embed_size": 300,
                "window_size": 1,
                "maxout_pieces": 3,
                "subword_features": True,
            }
        },
    )
    listener = {"@architectures": "spacy.Tok2VecListener.v1", "width": 32, "upstream": "tok2vec"}
    nlp.add_pipe(
        "coref_cluster",
        config={
            "model": {"hidden_width": 16, "top_lambda": 1.0, "tok2vec": listener},
            "learn_rate_scale": learn_rate_scale,
        },
    )
    return nlp


def _weights(nlp, name):
    model = nlp.get_pipe(name).model
    own = [node.get_param(p).copy() for node in model.walk() for p in node.param_names]
    torch_params = [
        value.detach().numpy().copy()
        for node in model.walk()
        for shim in node.shims
        for _, value in shim._model.named_parameters()
    ]
    return own + torch_params


def _changed(before, after):
    return any(not numpy.array_equal(b, a) for b, a in zip(before, after))


@pytest.mark.parametrize("scale", [0.0, 1.0])
def test_learn_rate_scale_applies_to_the_head_only(scale):
    nlp = _listener_nlp(scale)
    examples = _examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    head, encoder = _weights(nlp, "coref_cluster"), _weights(nlp, "tok2vec")
    # as spacy train does: the shared encoder's gradient is complete only after every listener
    nlp.update(examples, sgd=False)
    for name in ("tok2vec", "coref_cluster"):
        nlp.get_pipe(name).finish_update(optimizer)
    assert _changed(encoder, _weights(nlp, "tok2vec"))  # the encoder trains at the full rate
    assert _changed(head, _weights(nlp, "coref_cluster")) == (scale > 0)
    saved = nlp.get_pipe("coref_cluster").cfg["learn_rate_scale"]
    assert saved == scale


def test_scaled_optimizer_scales_the_step():
    from thinc.api import SGD

    from spacy_coref.pipeline.cluster import ScaledOptimizer

    weights, gradient = numpy.ones(3, dtype="f"), numpy.full(3, 0.5, dtype="f")
    plain, _ = SGD(0.1)((1, "W"), weights.copy(), gradient.copy())
    scaled, _ = ScaledOptimizer(SGD(0.1), 3.0)((1, "W"), weights.copy(), gradient.copy())
    numpy.testing.assert_allclose(1 - plain, 0.05, rtol=1e-6)
    numpy.testing.assert_allclose(1 - scaled, 0.15, rtol=1e-6)
    assert ScaledOptimizer(SGD(0.1), 3.0).learn_rate == 0.1  # the rest is the optimizer's


# The same text annotated under two schemes: "all" links both entities, "people" only marks
# Alice (as LitBank marks only some entity types).
SCHEME_TEXT = "Alice saw the box . She opened it ."
SCHEME_MENTIONS = [(0, 1), (2, 4), (5, 6), (7, 8)]
SCHEME_GOLD = {"all": [[(0, 1), (5, 6)], [(2, 4), (7, 8)]], "people": [[(0, 1), (5, 6)]]}


def _scheme_nlp(**cfg):
    model = {**SMALL["model"], "top_lambda": 1.0, "schemes": ["all", "people"]}
    return _nlp(model=model, **cfg)


def _scheme_doc(nlp, scheme):
    doc = _doc(nlp, SCHEME_TEXT, SCHEME_MENTIONS)
    set_scheme(doc, scheme)
    return doc


@pytest.mark.parametrize("copy_scheme", [True, False])
def test_schemes_learn_each_annotation_apart(tmp_path, copy_scheme):
    nlp = _scheme_nlp()
    examples = []
    for scheme, clusters in SCHEME_GOLD.items():
        reference = nlp.make_doc(SCHEME_TEXT)
        set_clusters(reference, clusters)
        set_scheme(reference, scheme)
        # bare_copy keeps the scheme (spacy_coref.CoNLLCorpus.v1); spacy.Corpus.v1's predicted
        # docs have none, and training then follows the reference's
        predicted = bare_copy(reference) if copy_scheme else nlp.make_doc(SCHEME_TEXT)
        examples.append(Example(predicted, reference))
        set_mentions(examples[-1].predicted, SCHEME_MENTIONS)
    _train(nlp, examples, steps=200)
    pipe = nlp.get_pipe("coref_cluster")
    for scheme, clusters in SCHEME_GOLD.items():
        assert get_clusters(pipe(_scheme_doc(nlp, scheme))) == clusters
    # a doc that names no scheme follows the pipe's setting, else the model's first scheme
    assert get_clusters(pipe(_scheme_doc(nlp, None))) == SCHEME_GOLD["all"]
    pipe.use_scheme("people")
    assert get_clusters(pipe(_scheme_doc(nlp, None))) == SCHEME_GOLD["people"]
    assert get_clusters(pipe(_scheme_doc(nlp, "all"))) == SCHEME_GOLD["all"]
    # saved and loaded, the pipe follows the config's setting (use_scheme was for that run)
    nlp.to_disk(tmp_path / "model")
    for scheme, expected in ((None, "all"), ("people", "people"), ("all", "all")):
        config = {"components": {"coref_cluster": {"scheme": scheme}}}
        loaded = spacy.load(tmp_path / "model", config=config)
        doc = loaded.get_pipe("coref_cluster")(_scheme_doc(loaded, None))
        assert get_clusters(doc) == SCHEME_GOLD[expected]


def test_unknown_schemes_are_errors():
    with pytest.raises(ValueError, match="CE107"):
        _scheme_nlp(scheme="ontonotes")
    nlp = _scheme_nlp()
    nlp.initialize()
    with pytest.raises(ValueError, match="CE106.*'ontonotes'"):
        nlp.get_pipe("coref_cluster")(_scheme_doc(nlp, "ontonotes"))
    with pytest.raises(ValueError, match="CE105"):
        _nlp(model={**SMALL["model"], "schemes": ["a", "a"]})


def test_a_model_without_schemes_ignores_the_doc_scheme(trained):
    nlp, _, _ = trained
    text, clusters, mentions = TRAIN[0]
    doc = _doc(nlp, text, mentions)
    set_scheme(doc, "litbank")
    assert get_clusters(nlp.get_pipe("coref_cluster")(doc)) == clusters


def _vase_doc_scores(nlp):
    """"The vase fell and it broke .": "it" scores -0.5 against "The vase"."""
    from spacy_coref.types import CorefScores
    from spacy_coref.ml.torch.constants import MASKED_SCORE

    doc = nlp.make_doc("The vase fell and it broke .")
    candidates = numpy.array([[0, 2], [4, 5]])
    scores = numpy.array([[0.0, MASKED_SCORE], [0.0, -0.5]], dtype="float32")
    antecedents = numpy.array([[0], [0]])
    return doc, CorefScores(candidates, numpy.zeros(2), numpy.arange(2), antecedents, scores)


def test_null_scores_by_form_link_those_forms_more_readily():
    from spacy_coref.decoding import decode_clusters

    nlp = spacy.blank("en")
    doc, scores = _vase_doc_scores(nlp)
    assert decode_clusters(doc, scores, 0.0, []) == []
    linked = [[(0, 2), (4, 5)]]
    assert decode_clusters(doc, scores, 0.0, [], {"it": -1.0}) == linked
    assert decode_clusters(doc, scores, 0.0, ["agreement"], {"it": -1.0}) == linked
    # other forms, and a null score above the pair's, leave it alone
    assert decode_clusters(doc, scores, 0.0, [], {"they": -1.0}) == []
    assert decode_clusters(doc, scores, -1.0, [], {"it": 0.0}) == []
    assert scores.scores[1, 1] == -0.5  # decoding does not change the model's scores


def test_null_scores_by_form_setting_is_checked_and_saved(tmp_path):
    with pytest.raises(ValueError, match="CE109.*'It'"):
        _nlp(null_scores_by_form={"It": -1.0})
    with pytest.raises(ValueError, match="null_scores_by_form"):  # spaCy checks the type
        _nlp(null_scores_by_form={"it": "low"})
    nlp = _nlp(null_scores_by_form={"it": -1})
    pipe = nlp.get_pipe("coref_cluster")
    assert pipe.cfg["null_scores_by_form"] == {"it": -1.0}
    nlp.initialize(lambda: _examples(nlp))
    doc, scores = _vase_doc_scores(nlp)
    pipe.set_annotations([doc], [scores])
    assert get_clusters(doc) == [[(0, 2), (4, 5)]]
    nlp.to_disk(tmp_path / "nlp")
    assert spacy.load(tmp_path / "nlp").get_pipe("coref_cluster").cfg["null_scores_by_form"] == {
        "it": -1.0
    }
    with pytest.raises(ValueError, match="CE221.*not a mapping"):
        pipe._load_cfg(b'{"nI": 32, "null_scores_by_form": [1]}', "cfg")
    with pytest.raises(ValueError, match="CE109"):
        pipe._load_cfg(b'{"nI": 32, "null_scores_by_form": {"it": null}}', "cfg")
