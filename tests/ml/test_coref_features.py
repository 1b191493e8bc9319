"""spacy_coref.S2ECoref.v3: the candidates' linguistic attributes, the feature scores of the head
(checked against a per-pair loop), exact v2 behaviour with zero feature weights, loading v2
weights, and a tiny training run that learns gender agreement from the features alone."""
import io
from pathlib import Path

import numpy
import pytest
import spacy
import srsly
import torch
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import fix_random_seed, registry
from thinc.api import Adam, Config, Model

import spacy_coref
from spacy_coref.annotations import (
    get_clusters,
    get_speakers,
    set_clusters,
    set_mentions,
    set_speakers,
)
from spacy_coref.ml.coref_features import candidate_attributes, text_view, word_shape
from spacy_coref.ml.s2e_coref import build_s2e_coref_v3
from spacy_coref.ml.torch import pair_features as pf
from spacy_coref.ml.torch.constants import MASKED_SCORE
from spacy_coref.ml.torch import s2e as s2e_module
from spacy_coref.ml.torch.s2e import MIN_KEPT, S2ECorefHead
from spacy_coref.pipeline.cluster import CorefCluster

DEFAULT_HEAD = Path(spacy_coref.__file__).parent / "default_model" / "coref_cluster" / "model"


pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tiny tensors: one thread is faster


# fmt: off
# "Alice told Bob that she liked him . He hurt himself ."
PARSED = dict(
    words=["Alice", "told", "Bob", "that", "she", "liked", "him", ".", "He", "hurt", "himself",
           "."],
    heads=[1, 1, 1, 5, 5, 1, 5, 1, 9, 9, 9, 9],
    deps=["nsubj", "ROOT", "dobj", "mark", "nsubj", "ccomp", "dobj", "punct", "nsubj", "ROOT",
          "dobj", "punct"],
    pos=["PROPN", "VERB", "PROPN", "SCONJ", "PRON", "VERB", "PRON", "PUNCT", "PRON", "VERB",
         "PRON", "PUNCT"],
    tags=["NNP", "VBD", "NNP", "IN", "PRP", "VBD", "PRP", ".", "PRP", "VBD", "PRP", "."],
    morphs=["Number=Sing", "", "Number=Sing", "", "Gender=Fem|Number=Sing|Person=3|PronType=Prs",
            "", "Gender=Masc|Number=Sing|Person=3|PronType=Prs", "",
            "Gender=Masc|Number=Sing|Person=3|PronType=Prs", "",
            "Gender=Masc|Number=Sing|Person=3|PronType=Prs|Reflex=Yes", ""],
    lemmas=["Alice", "tell", "Bob", "that", "she", "like", "he", ".", "he", "hurt", "himself", "."],
    ents=["B-PERSON", "O", "B-PERSON", "O", "O", "O", "O", "O", "O", "O", "O", "O"],
)
# fmt: on
PARSED_MENTIONS = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (4, 7)]


def _row(attrs, i):
    return dict(zip(pf.ATTRIBUTE_NAMES, attrs[i].tolist()))


def test_attributes_of_a_parsed_doc():
    doc = Doc(spacy.blank("en").vocab, **PARSED)
    attrs = candidate_attributes(doc, numpy.asarray(PARSED_MENTIONS))
    assert attrs.shape == (len(PARSED_MENTIONS), pf.N_ATTRIBUTES) and attrs.dtype == "int64"
    alice, bob, she, him, he, himself, she_liked_him = (_row(attrs, i) for i in range(7))
    assert alice["mention_type"] == pf.PROPER and alice["entity"] == 1  # PERSON
    assert alice["shape"] == pf.CAPITALISED_FIRST_WORD and bob["shape"] == pf.CAPITALISED
    assert he["shape"] == pf.CAPITALISED_FIRST_WORD and she["shape"] == pf.LOWER
    assert she["mention_type"] == pf.PERSONAL_PRONOUN
    assert (she["person"], she["number"], she["gender"]) == (pf.THIRD, pf.SINGULAR, pf.FEMININE)
    assert (him["gender"], he["gender"], bob["gender"]) == (pf.MASCULINE, pf.MASCULINE, 0)
    assert [r["sentence"] for r in (alice, him, he, himself)] == [0, 0, 1, 1]
    # binding: "him" is the object of "liked", whose subject is "she"; "himself" of "He"
    assert him["subject"] == 4 and himself["subject"] == 8 and she["subject"] == -1
    assert bob["subject"] == 0
    assert himself["reflexive"] == 1 and him["reflexive"] == 0
    assert (she_liked_him["head"], she_liked_him["start"], she_liked_him["end"]) == (5, 4, 7)
    assert she_liked_him["mention_type"] == pf.EVENT and she_liked_him["width"] == 2
    # "him" and "He": different text, the same head lemma
    assert him["text"] != he["text"] and him["lemma"] == he["lemma"] != she["lemma"]
    assert all(row["speaker"] == -1 for row in (alice, bob, she))


def test_attributes_without_a_parse_and_with_speakers():
    doc = Doc(spacy.blank("en").vocab, words=["I", "told", "her", "that", "NASA", "called", "me"])
    set_speakers(doc, ["A", "A", "A", None, None, "B", "B"])
    attrs = candidate_attributes(doc, numpy.asarray([(0, 1), (2, 3), (4, 5), (6, 7)]))
    i, her, nasa, me = (_row(attrs, n) for n in range(4))
    assert (i["person"], i["number"], i["mention_type"]) == (pf.FIRST, pf.SINGULAR, 1)
    assert (her["gender"], her["person"]) == (pf.FEMININE, pf.THIRD)  # from the form
    assert nasa["shape"] == pf.ALL_CAPS and nasa["mention_type"] == pf.OTHER_TYPE
    assert (i["speaker"], her["speaker"], nasa["speaker"], me["speaker"]) == (0, 0, -1, 1)
    assert i["lemma"] != me["lemma"] and all(r["subject"] == -1 for r in (i, her, me))
    assert candidate_attributes(doc, numpy.zeros((0, 2), dtype="int64")).shape == (0, 16)


def test_text_ids_are_equal_exactly_where_the_lower_cased_texts_are():
    words = ["The", "cat", "saw", "the", "Cat", "and", "the", "cat", "saw", "it", "."]
    doc = Doc(spacy.blank("en").vocab, words=words)
    spans = numpy.asarray([(s, e) for s in range(len(words)) for e in range(s + 1, min(s + 4, 12))])
    attrs = candidate_attributes(doc, spans)
    texts = [doc[s:e].text.lower() for s, e in spans.tolist()]
    same_text = numpy.asarray([[a == b for b in texts] for a in texts])
    ids = attrs[:, pf.TEXT]
    assert ((ids[:, None] == ids[None, :]) == same_text).all()


def test_attributes_of_every_span_of_a_text_view_are_those_of_each_span_alone():
    # the arrays over all candidates at once give what each candidate gives on its own
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    doc = text_view(nlp("Mrs. Alice Okafor told him about herself. They and NASA met Robert."))
    n = len(doc)
    spans = numpy.asarray([(s, e) for s in range(n) for e in range(s + 1, min(s + 5, n + 1))])
    together = candidate_attributes(doc, spans)
    alone = numpy.concatenate([candidate_attributes(doc, span[None]) for span in spans])
    columns = [c for c in range(pf.N_ATTRIBUTES) if c not in (pf.TEXT, pf.LEMMA)]
    assert (together[:, columns] == alone[:, columns]).all()
    assert together[:, pf.REFLEXIVE].sum() == 1 and together[:, pf.GENDER].any()


def test_word_shapes():
    assert [word_shape(w) for w in ("rose", "Rose", "ROSE", "iPhone", "1999", "I")] == [
        pf.LOWER, pf.CAPITALISED, pf.ALL_CAPS, pf.OTHER_SHAPE, pf.OTHER_SHAPE, pf.CAPITALISED
    ]


# -- the torch head ---------------------------------------------------------------------------


def _random_attributes(starts, ends, seed=0):
    g = torch.Generator().manual_seed(seed)
    n = len(starts)
    attrs = torch.zeros(n, pf.N_ATTRIBUTES, dtype=torch.long)
    for col, n_values in enumerate(pf.MENTION_VALUES):
        attrs[:, col] = torch.randint(0, n_values, (n,), generator=g)
    attrs[:, pf.SENTENCE] = starts // 7
    attrs[:, pf.START] = starts
    attrs[:, pf.END] = ends + 1
    attrs[:, pf.HEAD] = ends
    # some mentions are bound by the head of an earlier one
    subject = ends[torch.clamp(torch.arange(n) - 1, min=0)]
    attrs[:, pf.SUBJECT] = torch.where(torch.arange(n) % 3 == 1, subject, -1)
    attrs[:, pf.TEXT] = torch.randint(0, 4, (n,), generator=g)
    attrs[:, pf.LEMMA] = torch.randint(0, 3, (n,), generator=g)
    attrs[:, pf.SPEAKER] = torch.randint(-1, 2, (n,), generator=g)
    return attrs


def _random_doc(n_tokens=40, n_in=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n_tokens, n_in, generator=g)
    starts = torch.arange(0, n_tokens, 2)
    # nested and overlapping spans too
    ends = torch.minimum(starts + (starts % 5), torch.tensor(n_tokens - 1))
    return x, starts, ends, _random_attributes(starts, ends, seed)


def _randomize_features(head, seed=0):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for param in head.feature_scorer.parameters():
            param.copy_(torch.randn(param.shape, generator=g))


def _bucket(d):
    return sum(d >= b for b in pf.BUCKET_BOUNDARIES)


def _pair_values(a, q, c):
    """The pair feature values of one (query, candidate) pair, written out."""
    aq, ac = a[q].tolist(), a[c].tolist()
    pronoun = aq[pf.MENTION_TYPE] in (pf.PERSONAL_PRONOUN, pf.OTHER_PRONOUN)
    match = 1 if pronoun else 2
    speaker = 0
    if aq[pf.SPEAKER] >= 0 and ac[pf.SPEAKER] >= 0:
        speaker = 1 if aq[pf.SPEAKER] == ac[pf.SPEAKER] else 2
    speaker += 3 if aq[pf.PERSON] in (pf.FIRST, pf.SECOND) else 0
    # the two binding relations (never both in these docs)
    binding = 0
    if aq[pf.SUBJECT] >= 0 and aq[pf.SUBJECT] == ac[pf.HEAD]:
        binding = 1 + aq[pf.REFLEXIVE]
    if ac[pf.SUBJECT] >= 0 and ac[pf.SUBJECT] == aq[pf.HEAD]:
        assert binding == 0
        binding = 3 + ac[pf.REFLEXIVE]
    qs, qe, cs, ce = aq[pf.START], aq[pf.END], ac[pf.START], ac[pf.END]
    if cs <= qs and qe <= ce:
        nesting = 1
    elif qs <= cs and ce <= qe:
        nesting = 2
    else:
        nesting = 3 if cs < qe and qs < ce else 0
    return [
        _bucket(max(0, qs - cs)),
        _bucket(max(0, aq[pf.SENTENCE] - ac[pf.SENTENCE])),
        _bucket(q - c),
        match * (aq[pf.TEXT] == ac[pf.TEXT]),
        match * (aq[pf.LEMMA] == ac[pf.LEMMA]),
        speaker,
        binding,
        nesting,
    ]


def test_feature_scores_match_a_loop_over_pairs():
    head = S2ECorefHead(16, 8, dropout=0.0, top_lambda=1.0, max_antecedents=100,
                        antecedent_window=100, entity_equalization=False, query_block=4,
                        feature_width=6)
    plain = S2ECorefHead(16, 8, dropout=0.0, top_lambda=1.0, max_antecedents=100,
                         antecedent_window=100, entity_equalization=False, query_block=4)
    plain.load_state_dict({k: v for k, v in head.state_dict().items() if "feature" not in k})
    _randomize_features(head)
    x, starts, ends, attrs = _random_doc()
    with torch.no_grad():
        out = head([x], [starts], [ends], None, [attrs])[0]
        ref = plain([x], [starts], [ends])[0]
        fs = head.feature_scorer
        u = fs.mention_vectors(attrs)
    # f_m: plus w . u, where u sums one embedding row per categorical attribute
    offsets = numpy.cumsum((0,) + pf.MENTION_VALUES[:-1])
    for i in range(len(starts)):
        u_i = sum(fs.embed.weight[offsets[k] + attrs[i, k]] for k in range(pf.N_EMBEDDED))
        assert torch.allclose(u[i], u_i, atol=1e-5)
    assert torch.allclose(out.mention_scores, ref.mention_scores + u @ fs.mention_out.weight[0],
                          atol=1e-4)
    pair_offsets = numpy.cumsum((0,) + tuple(n for _, n in pf.PAIR_FEATURES[:-1]))
    delta = out.mention_scores - ref.mention_scores
    for q in range(len(starts)):
        for k, c in enumerate(out.antecedents[q].tolist()):
            if out.scores[q, k + 1] <= MASKED_SCORE / 2:
                continue
            k_ref = ref.antecedents[q].tolist().index(c)
            values = _pair_values(attrs, q, c)
            bias = pf.PAIR_GAIN * sum(fs.pair_bias[o + v] for o, v in zip(pair_offsets, values))
            bilinear = fs.pair_bilinear(u[q]) @ u[c]
            expected = ref.scores[q, k_ref + 1] + delta[q] + delta[c] + bilinear + bias
            assert torch.allclose(out.scores[q, k + 1], expected, atol=1e-3)


@pytest.mark.parametrize("q0,q1,c0", [(0, 20, 0), (5, 12, 2), (12, 20, 3), (19, 20, 0)])
def test_block_scores_equal_the_scores_of_gathered_pairs(q0, q1, c0):
    head = S2ECorefHead(16, 8, feature_width=6)
    _randomize_features(head)
    _, starts, ends, attrs = _random_doc()
    scorer = head.feature_scorer
    with torch.no_grad():
        for speakers in (True, False):
            if not speakers:
                attrs[:, pf.SPEAKER] = -1
            kept = scorer.kept_features(attrs, scorer.mention_vectors(attrs))
            assert kept.speakers == speakers
            block = scorer.block_scores(kept, q0, q1, c0)  # [b, c]
            c = torch.arange(c0, q1).expand(q1 - q0, -1)  # [b, c]
            gathered = scorer.gathered_scores(kept, q0, c)  # [b, c]
            earlier = c < torch.arange(q0, q1)[:, None]
            assert torch.allclose(block[earlier], gathered[earlier], atol=1e-4)


@pytest.mark.parametrize("entity_equalization", [False, True])
def test_zero_feature_weights_give_exactly_the_v2_scores(entity_equalization):
    kwargs = dict(dropout=0.0, top_lambda=0.6, max_antecedents=4, antecedent_window=7,
                  query_block=5, entity_equalization=entity_equalization, ee_chunk=6,
                  n_schemes=2, containing_antecedents=False)
    torch.manual_seed(0)
    v2 = S2ECorefHead(16, 8, **kwargs).eval()
    with torch.no_grad():
        v2.scheme_shift.normal_()  # a trained scheme
    v3 = S2ECorefHead(16, 8, feature_width=8, **kwargs).eval()
    # a v2 state dict loads into a v3 head; the features keep their (zero-output) start
    v3.load_state_dict(v2.state_dict())
    docs = [_random_doc(n, seed=n) for n in (40, 1, 7)]
    args = [list(part) for part in zip(*docs)]
    expected = v2(*args[:3], [1, 0, 1])
    got = v3(*args[:3], [1, 0, 1], args[3])
    for e, g in zip(expected, got):
        assert all(torch.equal(a, b) for a, b in zip(e, g))
    # the features change the scores once their weights are not zero
    _randomize_features(v3)
    changed = v3(*args[:3], [1, 0, 1], args[3])[0]
    assert not torch.allclose(changed.mention_scores, expected[0].mention_scores)
    assert not torch.equal(changed.scores, expected[0].scores)
    # and only the pair biases, too
    with torch.no_grad():
        for param in (v3.feature_scorer.mention_out.weight, v3.feature_scorer.pair_bilinear.weight):
            param.zero_()
        v3.feature_scorer.pair_bias.zero_()
        # mention distance 1: the previous mention
        v3.feature_scorer.pair_bias[2 * pf.N_BUCKETS + 1] = 1.0
    nested = v3(*args[:3], [1, 0, 1], args[3])[0]
    assert torch.equal(nested.mention_scores, expected[0].mention_scores)
    assert not torch.equal(nested.scores, expected[0].scores)


def test_rescoring_adds_the_same_feature_scores():
    kwargs = dict(dropout=0.0, top_lambda=1.0, max_antecedents=5, antecedent_window=8,
                  query_block=3, feature_width=4)
    plain = S2ECorefHead(16, 8, entity_equalization=False, **kwargs).eval()
    _randomize_features(plain)
    equalized = S2ECorefHead(16, 8, entity_equalization=True, ee_chunk=4, **kwargs).eval()
    equalized.load_state_dict(plain.state_dict())
    with torch.no_grad():  # a gate of 1 keeps each mention's own representation
        equalized.ee_gate.weight.zero_()
        equalized.ee_gate.bias.fill_(100.0)
    x, starts, ends, attrs = _random_doc()
    a = plain([x], [starts], [ends], None, [attrs])[0]
    b = equalized([x], [starts], [ends], None, [attrs])[0]
    assert torch.equal(a.antecedents, b.antecedents)
    assert torch.allclose(a.scores, b.scores, atol=1e-4)


def test_a_v2_head_does_not_load_v3_weights_and_v3_needs_attributes():
    v2, v3 = S2ECorefHead(16, 8), S2ECorefHead(16, 8, feature_width=4)
    with pytest.raises(RuntimeError, match="feature_scorer"):
        v2.load_state_dict(v3.state_dict())
    x, starts, ends, attrs = _random_doc()
    with pytest.raises(ValueError, match="CE115"):
        v3([x], [starts], [ends])
    with pytest.raises(ValueError, match=r"CE115.*shape \(20, 15\)"):
        v3([x], [starts], [ends], None, [attrs[:, :15]])
    v3([x], [starts], [ends], None, [attrs])  # a v2 head ignores attributes it is given
    assert len(v2([x], [starts], [ends], None, [attrs])) == 1


def test_mention_scores_in_chunks_equal_those_at_once(monkeypatch):
    head = S2ECorefHead(16, 8, feature_width=4).eval()
    _randomize_features(head)
    x, starts, ends, attrs = _random_doc()
    with torch.no_grad():
        whole = head([x], [starts], [ends], None, [attrs])[0]
        monkeypatch.setattr(s2e_module, "MENTION_CHUNK", 3)  # 20 candidates in 7 chunks
        chunked = head([x], [starts], [ends], None, [attrs])[0]
    assert torch.allclose(whole.mention_scores, chunked.mention_scores, atol=1e-6)
    assert torch.equal(whole.kept, chunked.kept)
    assert torch.equal(whole.antecedents, chunked.antecedents)
    assert torch.allclose(whole.scores, chunked.scores, atol=1e-5)


@pytest.mark.parametrize("n_tokens,n_cands", [(0, 0), (1, 1), (3, 0), (2, 2)])
def test_tiny_docs(n_tokens, n_cands):
    head = S2ECorefHead(16, 8, feature_width=4)
    _randomize_features(head)
    x = torch.randn(n_tokens, 16, requires_grad=True)
    idx = torch.arange(n_cands)
    out = head([x], [idx], [idx], None, [_random_attributes(idx, idx)])[0]
    kept = min(n_cands, max(MIN_KEPT, int(0.4 * n_tokens)))
    assert out.scores.shape == (kept, 1 + max(0, kept - 1))
    assert torch.isfinite(out.scores).all()


def test_the_shipped_default_head_loads_into_a_v3_head():
    msg = srsly.msgpack_loads(DEFAULT_HEAD.read_bytes())
    (shim,) = [s for node_shims in msg["shims"] for s in node_shims]
    state = torch.load(io.BytesIO(srsly.msgpack_loads(shim)["state"]), map_location="cpu")
    n_in = state["token_proj.weight"].shape[1]
    hidden = state["mention_bilinear.weight"].shape[0]
    v3 = S2ECorefHead(n_in, hidden, feature_width=32)
    v3.load_state_dict(state)
    assert all(torch.equal(v3.state_dict()[name], value) for name, value in state.items())


# -- the Thinc model and the pipe ------------------------------------------------------------


def constant_tok2vec(width=8):
    """The same vector for every token: whatever the model learns, it learns from features."""

    def forward(model, docs, is_train):
        return [model.ops.alloc2f(len(doc), width) + 1.0 for doc in docs], lambda d: []

    return Model("constant_tok2vec", forward, dims={"nO": width})


CNN = {"@architectures": "spacy.HashEmbedCNN.v2", "pretrained_vectors": None, "width": 16,
       "depth": 1, "embed_size": 200, "window_size": 1, "maxout_pieces": 2,
       "subword_features": True}


def _model(architecture, **kwargs):
    config = {"model": {"@architectures": architecture, "hidden_width": 8, "tok2vec": CNN,
                        "top_lambda": 1.0, **kwargs}}
    fix_random_seed(0)
    return registry.resolve(Config(config))["model"]


def _parsed_docs():
    vocab = spacy.blank("en").vocab
    docs = [Doc(vocab, **PARSED), Doc(vocab, words=["Hi"]), Doc(vocab, **PARSED)]
    for doc in docs:
        set_mentions(doc, PARSED_MENTIONS if len(doc) > 1 else [(0, 1)])
    set_speakers(docs[2], ["A"] * 8 + ["B"] * 4)
    return docs


def test_v3_resolves_and_a_v2_model_loads_into_it():
    docs = _parsed_docs()
    v2 = _model("spacy_coref.S2ECoref.v2", entity_equalization=True)
    v2.initialize(X=docs)
    v3 = _model("spacy_coref.S2ECoref.v3", entity_equalization=True, feature_width=8)
    v3.initialize(X=docs)
    v3.from_bytes(v2.to_bytes())
    for a, b in zip(v2.predict(docs), v3.predict(docs)):
        for name in ("candidates", "mention_scores", "kept", "antecedents", "scores"):
            numpy.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    # and the round trip keeps the features
    v3.get_ref("head").shims[0]._model.feature_scorer.pair_bias.data.fill_(0.5)
    expected = v3.predict(docs)[0].scores
    fresh = _model("spacy_coref.S2ECoref.v3", entity_equalization=True, feature_width=8)
    fresh.initialize(X=docs)
    fresh.from_bytes(v3.to_bytes())
    numpy.testing.assert_array_equal(fresh.predict(docs)[0].scores, expected)
    assert not numpy.array_equal(expected, v2.predict(docs)[0].scores)
    assert not _model("spacy_coref.S2ECoref.v3", features=False).attrs["feature_width"]
    with pytest.raises(ValueError, match="CE268"):
        _model("spacy_coref.S2ECoref.v3", feature_width=0)


def test_batch_equals_one_by_one_and_gradients_flow():
    docs = _parsed_docs()
    model = _model("spacy_coref.S2ECoref.v3", feature_width=8)
    model.initialize(X=docs)
    model.get_ref("head").shims[0]._model.feature_scorer.pair_bilinear.weight.data.normal_()
    batched = model.predict(docs)
    for doc, out in zip(docs, batched):
        (single,) = model.predict([doc])
        numpy.testing.assert_allclose(single.scores, out.scores, atol=1e-5)
        numpy.testing.assert_array_equal(single.antecedents, out.antecedents)
    assert batched[1].scores.shape == (1, 1)
    scores, backprop = model.begin_update(docs)
    d_scores = [(numpy.ones_like(s.scores), numpy.ones_like(s.mention_scores)) for s in scores]
    backprop(d_scores)
    head = model.get_ref("head").shims[0]._model
    assert head.feature_scorer.pair_bias.grad.abs().sum() > 0
    empty = Doc(docs[0].vocab, words=[])
    set_mentions(empty, [])
    assert model.predict([empty])[0].scores.shape == (0, 1)


MASC, FEM = "Gender=Masc|Number=Sing", "Gender=Fem|Number=Sing"
PRONOUNS = {"he": "Gender=Masc|Number=Sing|Person=3|PronType=Prs",
            "she": "Gender=Fem|Number=Sing|Person=3|PronType=Prs"}


def _agreement_doc(vocab, first, second, pronoun):
    """'X and Y met . he/she smiled .', the pronoun's antecedent the name of its gender."""
    (name1, gender1), (name2, gender2) = first, second
    words = [name1, "and", name2, "met", ".", pronoun, "smiled", "."]
    pos = ["PROPN", "CCONJ", "PROPN", "VERB", "PUNCT", "PRON", "VERB", "PUNCT"]
    morphs = [gender1, "", gender2, "", "", PRONOUNS[pronoun], "", ""]
    doc = Doc(vocab, words=words, pos=pos, morphs=morphs)
    set_mentions(doc, [(0, 1), (2, 3), (5, 6)])
    antecedent = (0, 1) if (gender1 == MASC) == (pronoun == "he") else (2, 3)
    return doc, [[antecedent, (5, 6)]]


def _agreement_set(vocab, masculine, feminine):
    orders = [((masculine, MASC), (feminine, FEM)), ((feminine, FEM), (masculine, MASC))]
    return [_agreement_doc(vocab, *order, p) for order in orders for p in ("he", "she")]


def test_a_v3_model_learns_gender_agreement_from_the_features():
    fix_random_seed(0)
    vocab = spacy.blank("en").vocab
    model = build_s2e_coref_v3(constant_tok2vec(), hidden_width=8, dropout=0.0,
                               top_lambda=1.0, feature_width=8)
    pipe = CorefCluster(vocab, model)
    examples = []
    for doc, clusters in _agreement_set(vocab, "Tom", "Ann"):
        reference = Doc(vocab, words=[t.text for t in doc])
        set_clusters(reference, clusters)
        examples.append(Example(doc, reference))
    pipe.initialize(lambda: examples)
    optimizer = Adam(0.01)
    first = pipe.update(examples, sgd=optimizer)["coref_cluster"]
    for _ in range(50):
        last = pipe.update(examples, sgd=optimizer)["coref_cluster"]
    assert last < 0.05 * first
    # unseen names: nothing but the morphology tells them apart
    for doc, clusters in _agreement_set(vocab, "Zed", "Kim") + _agreement_set(vocab, "Max", "Joy"):
        assert get_clusters(pipe(doc)) == clusters


def _trained_v3_nlp(**settings):
    """A blank pipeline whose v3 coref_cluster took three update steps on one parsed doc.
    RETURNS (Tuple[Language, Set[str]]): the pipeline and the head parameters that changed."""
    fix_random_seed(0)
    nlp = spacy.blank("en")
    model = {"@architectures": "spacy_coref.S2ECoref.v3", "hidden_width": 8, "tok2vec": CNN,
             "top_lambda": 1.0, "feature_width": 8, **settings}
    nlp.add_pipe("coref_cluster", config={"model": model})
    examples = []
    for doc in _parsed_docs()[:1]:
        reference = Doc(nlp.vocab, words=[t.text for t in doc])
        set_clusters(reference, [[(0, 1), (4, 5)], [(2, 3), (6, 7), (8, 9), (10, 11)]])
        examples.append(Example(doc, reference))
    optimizer = nlp.initialize(lambda: examples)
    head = nlp.get_pipe("coref_cluster").model.get_ref("head").shims[0]._model
    before = {name: p.detach().clone() for name, p in head.named_parameters()}
    for _ in range(3):
        nlp.update(examples, sgd=optimizer)
    changed = {name for name, p in head.named_parameters() if not torch.equal(p, before[name])}
    return nlp, changed


def test_a_v3_pipe_trains_and_round_trips(tmp_path):
    nlp, changed = _trained_v3_nlp()
    assert "feature_scorer.pair_bias" in changed  # the features were trained
    pipe = nlp.get_pipe("coref_cluster")
    nlp.to_disk(tmp_path / "v3")
    loaded = spacy.load(tmp_path / "v3")
    docs = _parsed_docs()
    expected = pipe.predict(docs)
    for a, b in zip(expected, loaded.get_pipe("coref_cluster").predict(docs)):
        numpy.testing.assert_array_equal(a.scores, b.scores)


def test_features_only_trains_the_features_alone():
    _, changed = _trained_v3_nlp(features_only=True)
    assert changed and all(name.startswith("feature_scorer.") for name in changed), changed
    assert "feature_scorer.pair_bias" in changed and "feature_scorer.embed.weight" in changed


def test_feature_groups_left_out_keep_their_zero_weights():
    _, changed = _trained_v3_nlp(features_only=True, feature_groups=["pair"])
    assert changed == {"feature_scorer.pair_bias"}
    _, changed = _trained_v3_nlp(features_only=True, feature_groups=["mention"])
    assert changed == {
        "feature_scorer.embed.weight",
        "feature_scorer.mention_out.weight",
        "feature_scorer.pair_bilinear.weight",
    }
    with pytest.raises(ValueError, match="CE116.*'syntax'"):
        _model("spacy_coref.S2ECoref.v3", feature_groups=["syntax"])


def test_v4_features_from_the_text_alone_ignore_the_parse():
    """feature_annotations "text": a parsed doc scores exactly as its bare words with the same
    sentences and speakers; "doc" (v3's behaviour) reads the parse, so the scores differ."""
    vocab = spacy.blank("en").vocab
    parsed = Doc(vocab, **PARSED)
    bare = Doc(vocab, words=PARSED["words"], sent_starts=[t.is_sent_start for t in parsed])
    for doc in (parsed, bare):
        set_speakers(doc, ["A"] * 8 + ["B"] * 4)
    text = _model("spacy_coref.S2ECoref.v4", candidates="spans", max_span_width=3,
                  feature_width=8, feature_annotations="text")
    text.initialize(X=[parsed])
    _randomize_features(text.get_ref("head").shims[0]._model)
    doc_features = _model("spacy_coref.S2ECoref.v4", candidates="spans", max_span_width=3,
                          feature_width=8)
    doc_features.initialize(X=[parsed])
    doc_features.from_bytes(text.to_bytes())
    doc_features.attrs["feature_annotations"] = "doc"  # from_bytes brought the saved "text"
    from_parsed, from_bare = text.predict([parsed])[0], text.predict([bare])[0]
    numpy.testing.assert_array_equal(from_parsed.scores, from_bare.scores)
    assert not numpy.array_equal(doc_features.predict([parsed])[0].scores, from_parsed.scores)
    # the text view keeps the sentences and speakers the features read
    view = text_view(parsed)
    assert not view.has_annotation("DEP") and not view.has_annotation("POS")
    assert [s.start for s in view.sents] == [s.start for s in parsed.sents] == [0, 8]
    assert get_speakers(view) == get_speakers(parsed)
    with pytest.raises(ValueError, match="CE393"):
        _model("spacy_coref.S2ECoref.v4", feature_annotations="parse")


def test_text_view_keeps_words_spaces_and_sentences_and_a_bare_doc_is_its_own_view():
    vocab = spacy.blank("en").vocab
    words = ["Dr.", "Ann", "left", ".", "\n", "She", "sang", "!"]
    spaces = [True, True, False, True, False, True, False, False]
    sent_starts = [True, False, False, False, False, True, False, False]
    parsed = Doc(vocab, words=words, spaces=spaces, sent_starts=sent_starts,
                 pos=["PROPN", "PROPN", "VERB", "PUNCT", "SPACE", "PRON", "VERB", "PUNCT"])
    view = text_view(parsed)
    assert view is not parsed and not view.has_annotation("POS")
    assert view.text == parsed.text and [t.text for t in view] == words
    assert [bool(t.is_sent_start) for t in view] == sent_starts  # False stays False
    bare = Doc(vocab, words=words, spaces=spaces, sent_starts=sent_starts)
    assert text_view(bare) is bare  # nothing to leave out: no copy
