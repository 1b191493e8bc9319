"""Self-supervised pre-training (seed 000): masking, the pronoun head, the init callback, and a
tiny end-to-end run with a random 2-layer BERT."""

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.training.initialize import init_nlp
from spacy.util import fix_random_seed, load_config
from thinc.api import Adam

from spacy_coref.annotations import GOLD_MENTIONS_KEY, MENTIONS_KEY, get_clusters, set_clusters
from spacy_coref.ml.s2e_coref import head_module
from spacy_coref.ml.torch.s2e import EE_GATE_START_BIAS, S2ECorefHead
from spacy_coref.training.init_weights import create_init_coref_weights
from spacy_coref.training.masking import (
    MASCULINE_PRONOUNS,
    PRONOUN_CLASSES,
    mask_spans,
    name_clusters,
    pronoun_targets,
)
from spacy_coref.training.pretraining import (
    NAMES,
    PRONOUNS,
    alternating_batches,
    make_examples,
    pretrain,
)
from spacy_coref.training.pronoun_head import build_pronoun_model, pronoun_loss
from spacy_coref.training.unlabeled import read_texts, split_text
from spacy_coref.training.smoke import write_tiny_encoder

ROOT = Path(__file__).resolve().parents[2]
SMALL = {
    "model": {
        "hidden_width": 16,
        "candidates": "spans",
        "max_span_width": 3,
        "tok2vec": {"width": 16, "depth": 1, "embed_size": 200},
    }
}


def parsed_doc(vocab=None) -> Doc:
    """A hand-made 'parsed' doc: names (PERSON), pronouns (PRON) and rule candidates."""
    vocab = vocab or spacy.blank("en").vocab
    # fmt: off
    words = ["Alice", "met", "Bob", "Smith", ".", "She", "thanked", "him", ".", "Bob", "Smith",
             "'s", "dog", "liked", "Alice", ".", "Carol", "saw", "her", "hat", "."]
    pos = ["PROPN", "VERB", "PROPN", "PROPN", "PUNCT", "PRON", "VERB", "PRON", "PUNCT", "PROPN",
           "PROPN", "PART", "NOUN", "VERB", "PROPN", "PUNCT", "PROPN", "VERB", "PRON", "NOUN",
           "PUNCT"]
    tags = ["NNP", "VBD", "NNP", "NNP", ".", "PRP", "VBD", "PRP", ".", "NNP", "NNP", "POS", "NN",
            "VBD", "NNP", ".", "NNP", "VBD", "PRP$", "NN", "."]
    # fmt: on
    doc = Doc(vocab, words=words, pos=pos, tags=tags)
    doc.ents = [
        Span(doc, 0, 1, "PERSON"),
        Span(doc, 2, 4, "PERSON"),
        Span(doc, 9, 12, "PERSON"),
        Span(doc, 14, 15, "PERSON"),
        Span(doc, 16, 17, "PERSON"),
    ]
    doc.spans[MENTIONS_KEY] = [doc[0:1], doc[2:4], doc[5:6], doc[7:8], doc[9:13], doc[18:19]]
    return doc


def test_mask_spans_follows_the_80_10_10_rule():
    rng = random.Random(0)
    words = ["w"] * 20000
    spans = [(i, i + 2) for i in range(0, 20000, 2)]
    masked, actions = mask_spans(words, spans, rng, mask_token="[MASK]", random_words=["r"])
    shares = {k: v / len(spans) for k, v in Counter(actions).items()}
    assert abs(shares["mask"] - 0.8) < 0.02
    assert abs(shares["random"] - 0.1) < 0.015 and abs(shares["keep"] - 0.1) < 0.015
    expected = {"mask": "[MASK]", "random": "r", "keep": "w"}
    for (start, end), action in zip(spans, actions):
        assert masked[start:end] == [expected[action]] * (end - start)  # whole spans


def test_mask_spans_leaves_other_words_alone():
    words = "a b c d e".split()
    masked, _ = mask_spans(words, [(1, 3)], random.Random(1), mask_token="[M]", random_words=["x"])
    assert masked[0] == "a" and masked[3:] == ["d", "e"] and len(masked) == len(words)


def test_name_clusters_from_repeated_person_names():
    doc = parsed_doc()
    # "Bob Smith 's" loses its possessive; Carol occurs once and gives no cluster
    assert name_clusters(doc) == [[(0, 1), (14, 15)], [(2, 4), (9, 11)]]


def test_pronoun_targets_only_pronouns_and_masculine_downsampling():
    vocab = spacy.blank("en").vocab
    words = ["he", "she", "her", "it"] * 2000
    pos = ["PRON", "PRON", "NOUN", "PRON"] * 2000  # a 'her' that is not a pronoun is skipped
    doc = Doc(vocab, words=words, pos=pos)
    targets = pronoun_targets(doc, random.Random(0))
    forms = Counter(PRONOUN_CLASSES[c] for _, c in targets)
    assert forms["she"] == 2000 and forms["it"] == 2000 and "her" not in forms
    assert abs(forms["he"] / 2000 - 0.4) < 0.03  # 60% of masculine pronouns are excluded
    assert all(doc[i].lower_ == PRONOUN_CLASSES[c] for i, c in targets)
    assert not pronoun_targets(doc, random.Random(0), masculine_drop=1.0) or all(
        PRONOUN_CLASSES[c] not in MASCULINE_PRONOUNS
        for _, c in pronoun_targets(doc, random.Random(0), masculine_drop=1.0)
    )


def test_examples_never_mask_both_kinds_in_one_text():
    docs = [parsed_doc() for _ in range(6)]
    vocab = docs[0].vocab
    docs.append(Doc(vocab, words=["Rain", "fell", "."], pos=["NOUN", "VERB", "PUNCT"]))
    examples = make_examples(docs, random.Random(0), mask_token="[MASK]", random_words=["zz"])
    assert len(examples) == 6  # the text with neither kind is left out
    assert Counter(eg.kind for eg in examples) == {NAMES: 3, PRONOUNS: 3}  # balanced
    original = [t.text for t in docs[0]]
    names = {i for s, e in [(0, 1), (2, 4), (9, 11), (14, 15)] for i in range(s, e)}
    pronouns = {5, 7, 18}
    for eg in examples:
        words = [t.text for t in eg.example.predicted]
        assert len(words) == len(original)
        changed = {i for i, (a, b) in enumerate(zip(words, original)) if a != b}
        if eg.kind == NAMES:
            assert changed <= names and not eg.pronouns
            reference = eg.example.reference
            assert get_clusters(reference) == name_clusters(docs[0])
            assert {(s.start, s.end) for s in reference.spans[GOLD_MENTIONS_KEY]} == {
                (0, 1),
                (2, 4),
                (9, 11),
                (14, 15),
            }
            candidates = {(s.start, s.end) for s in eg.example.predicted.spans[MENTIONS_KEY]}
            assert {(2, 4), (9, 11)} <= candidates  # name mentions are always candidates
        else:
            assert changed <= pronouns
            assert {i for i, _ in eg.pronouns} <= pronouns
            assert [t.text for t in eg.example.reference] == words
    # over many texts, names and pronouns get masked
    assert any(eg.kind == NAMES and eg.example.predicted[0].text == "[MASK]" for eg in examples)


def test_batches_hold_both_kinds():
    docs = [parsed_doc() for _ in range(5)]
    examples = make_examples(docs, random.Random(0))
    batches = alternating_batches(examples, 4, random.Random(0))
    for _ in range(5):
        kinds = Counter(eg.kind for eg in next(batches))
        assert kinds[NAMES] == 2 and kinds[PRONOUNS] == 2


def test_pronoun_loss_gradient_matches_finite_differences():
    rng = numpy.random.default_rng(0)
    logits = rng.normal(size=(3, 5)).astype("float64")
    targets = numpy.array([1, 4, 0])
    loss, grad = pronoun_loss(logits, targets)
    eps = 1e-5
    bumped = logits.copy()
    bumped[1, 2] += eps
    assert abs((pronoun_loss(bumped, targets)[0] - loss) / eps - grad[1, 2]) < 1e-3
    assert pronoun_loss(numpy.zeros((0, 5)), numpy.zeros(0, dtype=int))[0] == 0.0


def test_pronoun_head_learns_and_trains_the_shared_projection():
    fix_random_seed(0)
    coref_head = S2ECorefHead(8, 4, dropout=0.0)
    model = build_pronoun_model(coref_head, len(PRONOUN_CLASSES), hidden=16, dropout=0.0)
    rng = numpy.random.default_rng(0)
    vectors = [rng.normal(size=(6, 8)).astype("float32") for _ in range(2)]
    positions = [numpy.array([0, 3]), numpy.array([1, 2, 5])]
    targets = numpy.array([0, 4, 7, 4, 0])
    proj_before = coref_head.token_proj.weight.detach().clone()
    optimizer = Adam(0.01)
    losses = []
    for _ in range(60):
        logits, backprop = model.begin_update((vectors, positions))
        loss, d_logits = pronoun_loss(logits, targets)
        d_vectors = backprop(d_logits)
        losses.append(loss)
        # the shared projection gets gradients but is not this model's parameter
        assert coref_head.token_proj.weight.grad is not None
        model.finish_update(optimizer)
        coref_head.token_proj.weight.data -= 0.01 * coref_head.token_proj.weight.grad
        coref_head.zero_grad()
    assert losses[-1] < 0.1 * losses[0]
    assert [d.shape for d in d_vectors] == [(6, 8), (6, 8)]
    assert not numpy.allclose(proj_before.numpy(), coref_head.token_proj.weight.detach().numpy())
    names = {name for name, _ in model.shims[0]._model.named_parameters()}
    assert names and all(name.startswith("ffnn.") for name in names)


def _initialized(nlp):
    doc = nlp.make_doc("Alice saw Bob . She waved at him .")
    reference = nlp.make_doc("Alice saw Bob . She waved at him .")
    set_clusters(reference, [[(0, 1), (4, 5)]])
    nlp.initialize(lambda: [Example(doc, reference)])
    return nlp


def _cnn_nlp(seed: int, **head):
    """A small coref_cluster on a CNN, initialized; `head`: settings of its model."""
    fix_random_seed(seed)
    nlp = spacy.blank("en")
    nlp.add_pipe("coref_cluster", config={"model": {**SMALL["model"], **head}})
    return _initialized(nlp)


def _scores(nlp):
    doc = nlp.make_doc("Alice saw Bob . She waved at him .")
    return numpy.asarray(nlp.get_pipe("coref_cluster").predict([doc])[0].scores)


def test_init_callback_loads_the_saved_weights(tmp_path):
    saved, fresh = _cnn_nlp(0), _cnn_nlp(1)
    saved.get_pipe("coref_cluster").to_disk(tmp_path / "coref_cluster")
    assert not numpy.allclose(_scores(saved), _scores(fresh))
    create_init_coref_weights(None)(fresh)  # null path: nothing changes
    assert not numpy.allclose(_scores(saved), _scores(fresh))
    create_init_coref_weights(tmp_path)(fresh)
    assert numpy.allclose(_scores(saved), _scores(fresh))
    assert fresh.get_pipe("coref_cluster").to_bytes(exclude=["cfg"]) == saved.get_pipe(
        "coref_cluster"
    ).to_bytes(exclude=["cfg"])


def test_init_callback_errors(tmp_path):
    nlp = _cnn_nlp(0)
    with pytest.raises(ValueError, match="CE263"):
        create_init_coref_weights(tmp_path / "missing")(nlp)
    other = spacy.blank("en")
    other.add_pipe(
        "coref_cluster",
        config={
            "model": {**SMALL["model"], "tok2vec": {"width": 24, "depth": 1, "embed_size": 200}}
        },
    )
    other.initialize(lambda: [Example(other.make_doc("a b"), other.make_doc("a b"))])
    other.get_pipe("coref_cluster").to_disk(tmp_path / "wide")
    with pytest.raises(ValueError, match="CE265"):
        create_init_coref_weights(tmp_path / "wide")(nlp)
    with pytest.raises(ValueError, match="CE264"):
        create_init_coref_weights(tmp_path / "wide")(spacy.blank("en"))


def _listener_nlp(seed: int):
    """coref_cluster over a shared tok2vec component (through a listener), initialized."""
    fix_random_seed(seed)
    nlp = spacy.blank("en")
    tok2vec = {
        "@architectures": "spacy.HashEmbedCNN.v2",
        **SMALL["model"]["tok2vec"],
        "pretrained_vectors": None,
        "window_size": 1,
        "maxout_pieces": 3,
        "subword_features": True,
    }
    nlp.add_pipe("tok2vec", config={"model": tok2vec})
    listener = {"@architectures": "spacy.Tok2VecListener.v1", "width": 16, "upstream": "tok2vec"}
    nlp.add_pipe("coref_cluster", config={"model": {**SMALL["model"], "tok2vec": listener}})
    return _initialized(nlp)


def test_init_callback_loads_a_trained_encoder(tmp_path):
    saved, fresh = _listener_nlp(0), _listener_nlp(1)
    saved.to_disk(tmp_path / "pipeline")
    encoder_bytes = saved.get_pipe("tok2vec").to_bytes(exclude=["vocab"])
    assert fresh.get_pipe("tok2vec").to_bytes(exclude=["vocab"]) != encoder_bytes
    create_init_coref_weights(tmp_path / "pipeline")(fresh)  # the head only
    assert fresh.get_pipe("tok2vec").to_bytes(exclude=["vocab"]) != encoder_bytes
    create_init_coref_weights(
        tmp_path / "pipeline", encoder_path=tmp_path / "pipeline" / "tok2vec"
    )(fresh)
    assert fresh.get_pipe("tok2vec").to_bytes(exclude=["vocab"]) == encoder_bytes
    assert numpy.allclose(_scores(saved), _scores(fresh))
    with pytest.raises(ValueError, match="CE269"):  # no such directory
        create_init_coref_weights(tmp_path / "pipeline", encoder_path=tmp_path / "nope")(fresh)
    with pytest.raises(ValueError, match="CE269"):  # an encoder without the head's weights
        create_init_coref_weights(None, encoder_path=tmp_path / "pipeline" / "tok2vec")(fresh)
    with pytest.raises(ValueError, match="CE269"):  # the head has its own tok2vec
        create_init_coref_weights(
            tmp_path / "pipeline", encoder_path=tmp_path / "pipeline" / "tok2vec"
        )(_cnn_nlp(0))


def test_init_callback_loads_an_encoder_that_training_has_frozen(tmp_path):
    # `spacy train` disables its frozen components while [initialize.after_init] runs: a trained
    # encoder must still load into a frozen one, to train a new head on its fixed output.
    saved, fresh = _listener_nlp(0), _listener_nlp(1)
    saved.to_disk(tmp_path / "pipeline")
    encoder_bytes = saved.get_pipe("tok2vec").to_bytes(exclude=["vocab"])
    with fresh.select_pipes(disable=["tok2vec"]):
        create_init_coref_weights(
            tmp_path / "pipeline", encoder_path=tmp_path / "pipeline" / "tok2vec"
        )(fresh)
    assert fresh.get_pipe("tok2vec").to_bytes(exclude=["vocab"]) == encoder_bytes
    assert numpy.allclose(_scores(saved), _scores(fresh))


def test_read_texts_splits_and_reports_bad_lines(tmp_path):
    text = "\n\n".join(["one two three"] * 5)
    assert split_text(text, 6) == ["one two three\n\none two three"] * 2 + ["one two three"]
    path = tmp_path / "u.jsonl"
    path.write_text(json.dumps({"id": "a", "text": text}) + "\n", encoding="utf8")
    texts = read_texts(path, max_texts=2, max_words=6)
    assert [i for i, _ in texts] == ["a#0", "a#1"]
    path.write_text('{"id": "a", "text": "x"}\n{"id": 1}\n', encoding="utf8")
    with pytest.raises(ValueError, match=r"CE201.*u.jsonl:2"):
        read_texts(path)
    with pytest.raises(ValueError, match="CE260"):
        read_texts(tmp_path / "nothing-here")
    # a file without any text is an error too, not an empty corpus
    path.write_text('{"id": "a", "text": " "}\n\n', encoding="utf8")
    with pytest.raises(ValueError, match="CE260"):
        read_texts(path)


@pytest.fixture(scope="module")
def tiny_base(tmp_path_factory) -> Path:
    """The frozen base with a 2-layer, 32-wide random BERT (MiniLM's tokenizer)."""
    root = write_tiny_encoder(tmp_path_factory.mktemp("tiny"))
    cmd = [
        sys.executable,
        "-m",
        "spacy",
        "assemble",
        str(ROOT / "configs" / "base_trf.cfg"),
        str(root / "base"),
        "--paths.encoder",
        str(root),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return root / "base"


def test_pretrain_end_to_end_and_train_starts_from_it(tmp_path, tiny_base, shared_data):
    overrides = {
        "paths.base_model": str(tiny_base),
        "components.coref_cluster.model.hidden_width": 16,
    }
    stats = pretrain(
        ROOT / "configs" / "coref_trf_frozen.cfg",
        shared_data / "unlabeled" / "gutenberg-00.jsonl",
        tmp_path / "pre",
        overrides=overrides,
        max_texts=6,
        max_words=600,
        max_steps=3,
        batch_size=2,
        hidden=16,
    )
    assert stats["name_examples"] >= 1 and stats["pronoun_examples"] >= 1
    assert len(stats["losses"]) == 3 and all(r["pronouns"] > 0 for r in stats["losses"])
    assert (tmp_path / "pre" / "coref_cluster" / "model").exists()
    assert (tmp_path / "pre" / "pronoun_head.bin").exists()
    assert not (tmp_path / "pre" / "encoder").exists()  # frozen encoder: not saved
    # `spacy train`'s initialization loads the pre-trained head through paths.init_coref
    train = tmp_path / "train.spacy"
    from spacy_coref.formats import read_docs, write_docs

    write_docs(read_docs(shared_data / "gap" / "gap-validation.tsv")[:2], train)
    saved = (tmp_path / "pre" / "coref_cluster" / "model").read_bytes()
    weights = {}
    for init in (str(tmp_path / "pre"), None):
        config = load_config(
            ROOT / "configs" / "coref_trf_frozen.cfg",
            overrides={
                **overrides,
                "paths.train": str(train),
                "paths.dev": str(train),
                "paths.init_coref": init,
            },
        )
        nlp = init_nlp(config)
        weights[init] = nlp.get_pipe("coref_cluster").model.to_bytes()
    assert weights[str(tmp_path / "pre")] == saved
    assert weights[None] != saved


def test_pretrain_fine_tunes_an_encoder_that_is_not_frozen(tmp_path, tiny_base, shared_data):
    # The distillation student's parser-free pipeline (transformer + coref_cluster over span
    # candidates), with the transformer left trainable: without NER there are no name examples,
    # and the pronoun examples' gradients reach the encoder through its listener.
    encoder_dir = tiny_base.parent
    base = tmp_path / "student_base"
    cmd = [
        sys.executable,
        "-m",
        "spacy",
        "assemble",
        str(ROOT / "configs" / "distill_student_base.cfg"),
        str(base),
        "--paths.encoder",
        str(encoder_dir),
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    overrides = {
        "paths.base_model": str(base),
        "components.coref_cluster.model.hidden_width": 16,
        "training.frozen_components": [],
        "corpora.train.annotate": [],
    }
    stats = pretrain(
        ROOT / "configs" / "distill_student.cfg",
        shared_data / "unlabeled" / "gutenberg-00.jsonl",
        tmp_path / "pre",
        overrides=overrides,
        max_texts=4,
        max_words=300,
        max_steps=3,
        batch_size=2,
        hidden=16,
    )
    assert stats["name_examples"] == 0 and stats["pronoun_examples"] == 4
    assert (tmp_path / "pre" / "encoder").is_dir()
    before = dict(spacy.load(base).get_pipe("transformer").model.transformer.named_parameters())
    tuned = spacy.load(base).get_pipe("transformer").from_disk(tmp_path / "pre" / "encoder")
    changed = [
        name
        for name, param in tuned.model.transformer.named_parameters()
        if not numpy.array_equal(param.detach().numpy(), before[name].detach().numpy())
    ]
    assert changed  # the masked texts' gradients reached the encoder


def test_mask_token_comes_from_the_encoders_tokenizer(tmp_path):
    """Before initialization the transformer has no tokenizer: the encoder's own is read, so a
    RoBERTa-style encoder masks with "<mask>", not BERT's "[MASK]"."""
    from transformers import RobertaTokenizer

    from spacy_coref.training.pretraining import mask_token_of

    vocab = {t: i for i, t in enumerate(["<s>", "<pad>", "</s>", "<unk>", "<mask>", "a", "\u0120"])}
    (tmp_path / "vocab.json").write_text(json.dumps(vocab), encoding="utf8")
    (tmp_path / "merges.txt").write_text("#version: 0.2\n", encoding="utf8")
    RobertaTokenizer(tmp_path / "vocab.json", tmp_path / "merges.txt").save_pretrained(
        tmp_path / "roberta"
    )
    nlp = spacy.blank("en")
    nlp.add_pipe("transformer", config={"model": {"name": str(tmp_path / "roberta")}})
    assert nlp.get_pipe("transformer").model.tokenizer is None
    assert mask_token_of(nlp, "transformer") == "<mask>"
    assert mask_token_of(nlp, None) == "[MASK]"  # no encoder component: BERT's


def test_init_callback_keeps_the_settings_of_the_config(tmp_path):
    """The weights come from the saved component, the settings (model attrs: where candidates
    come from, their widths) from the pipeline being trained: a student with all spans as
    candidates keeps them when it starts from a teacher's head that read rule mentions."""
    teacher = spacy.blank("en")
    teacher.add_pipe("coref_cluster", config={"model": {**SMALL["model"], "candidates": "rules"}})
    _initialized_with_mentions(teacher)
    teacher.get_pipe("coref_cluster").to_disk(tmp_path / "coref_cluster")
    student = _cnn_nlp(1)
    create_init_coref_weights(tmp_path)(student)
    model = student.get_pipe("coref_cluster").model
    assert model.attrs["candidates"]["source"] == "spans"
    assert model.attrs["candidates"]["max_width"] == SMALL["model"]["max_span_width"]
    # and the weights are the teacher's
    assert student.get_pipe("coref_cluster").to_bytes(exclude=["cfg"]) != _cnn_nlp(1).get_pipe(
        "coref_cluster").to_bytes(exclude=["cfg"])
    doc = student.make_doc("Alice saw Bob . She waved at him .")
    assert len(student.get_pipe("coref_cluster").predict([doc])[0].candidates) > 0


def _gate(nlp):
    head = head_module(nlp.get_pipe("coref_cluster").model)
    return head.ee_gate.weight.detach().clone(), head.ee_gate.bias.detach().clone()


def test_entity_equalization_starts_with_its_gate_nearly_shut(tmp_path):
    """A head trained without Entity Equalization never trained its gate: loaded into a config
    that turns it on, the gate starts with zero weights and EE_GATE_START_BIAS. A head trained
    with it keeps its own gate, and one that stays without it is loaded as saved."""
    (tmp_path / "without").mkdir()
    (tmp_path / "with").mkdir()
    without = _cnn_nlp(0, entity_equalization=False)
    without.get_pipe("coref_cluster").to_disk(tmp_path / "without" / "coref_cluster")
    with_ee = _cnn_nlp(1, entity_equalization=True)
    with_ee.get_pipe("coref_cluster").to_disk(tmp_path / "with" / "coref_cluster")

    turned_on = _cnn_nlp(2, entity_equalization=True, ee_mean=True)
    create_init_coref_weights(tmp_path / "without")(turned_on)
    weight, bias = _gate(turned_on)
    assert not weight.any()
    assert bias.eq(EE_GATE_START_BIAS).all()
    assert _gate(without)[1].ne(EE_GATE_START_BIAS).all()  # the saved gate was another

    kept = _cnn_nlp(3, entity_equalization=True)
    create_init_coref_weights(tmp_path / "with")(kept)
    assert all(numpy.array_equal(a, b) for a, b in zip(_gate(kept), _gate(with_ee)))

    still_off = _cnn_nlp(4, entity_equalization=False)
    create_init_coref_weights(tmp_path / "without")(still_off)
    assert all(numpy.array_equal(a, b) for a, b in zip(_gate(still_off), _gate(without)))


def _initialized_with_mentions(nlp):
    doc = nlp.make_doc("Alice saw Bob . She waved at him .")
    doc.spans["coref_mentions"] = [doc[0:1], doc[2:3], doc[4:5], doc[7:8]]
    reference = nlp.make_doc("Alice saw Bob . She waved at him .")
    set_clusters(reference, [[(0, 1), (4, 5)]])
    nlp.initialize(lambda: [Example(doc, reference)])
    return nlp


def test_pretraining_goes_on_from_the_shipped_default_and_becomes_a_pipeline(
    tmp_path, shared_data
):
    """The Wikipedia round (`pretrain-wikipedia`): the shipped default's weights go on in
    configs/coref_continue.cfg, with batches that draw one text twice (2 texts, 3 a batch);
    scripts/pretrained_pipeline.py makes a pipeline of the output that holds its weights, not
    the shipped ones, and resolves text."""
    from script_loading import load_script

    default = ROOT / "spacy_coref" / "default_model"
    config = ROOT / "configs" / "coref_continue.cfg"
    wikipedia = tmp_path / "wikipedia.jsonl"
    texts = [
        "Anna Berg was born in Oslo. Berg studied law, and she later taught it. Anna Berg "
        "wrote two books; her students still read them.",
        "Tomas Keller founded a bakery in Bern. Keller ran it for thirty years before he sold "
        "it. Tomas Keller then moved to Basel with his wife.",
    ]
    wikipedia.write_text(
        "".join(json.dumps({"id": str(i), "text": text}) + "\n" for i, text in enumerate(texts)),
        encoding="utf8",
    )
    overrides = {
        "paths.init_coref": str(default),
        "paths.init_encoder": str(default / "transformer"),
        "training.optimizer.learn_rate.warmup_steps": 0,
    }
    stats = pretrain(config, wikipedia, tmp_path / "pre", overrides=overrides, max_steps=2,
                     batch_size=3)
    assert stats["texts"] == 2 and (tmp_path / "pre" / "encoder").is_dir()
    script = load_script(ROOT / "scripts" / "pretrained_pipeline.py", "pretrained_pipeline")
    script.main(config, tmp_path / "pre", tmp_path / "pipeline", sample=wikipedia)
    nlp = spacy.load(tmp_path / "pipeline")
    other = spacy.load(default)

    def weights(pipeline):
        layers = pipeline.get_pipe("transformer").model.transformer.state_dict()
        return {name: value.clone() for name, value in layers.items() if ".layer.5." in name}

    found, before = weights(nlp), weights(other)
    other.get_pipe("transformer").from_disk(tmp_path / "pre" / "encoder", exclude=["vocab"])
    saved = weights(other)
    assert found and all(found[name].equal(saved[name]) for name in found)
    assert any(not found[name].equal(before[name]) for name in found)  # the steps changed it
    doc = nlp("Maria Lopez founded the clinic in 2004. She still runs it.")
    assert [(0, 2), (8, 9)] in get_clusters(doc)  # Maria Lopez, She
