"""scripts/gpu: the arrays prepare.py writes, read by train.py with torch alone, give the scores
and the loss that the spaCy pipeline gives, and import_weights.py puts the weights back; for
the accurate pipeline (a tiny MPNet with its lower layers frozen) the route runs end to end:
prepare.py's loads, run_accurate.sh's staging and training, import into the shipped layout."""
import sys
from pathlib import Path

import numpy
import pytest
import spacy
import torch
from spacy.tokens import Doc
from script_loading import load_script  # (tests/)
from spacy.training import Example

from spacy_coref.annotations import set_clusters
from spacy_coref.types import CorefScores
from spacy_coref.ml.torch.constants import MASKED_SCORE
from spacy_coref.training.losses import antecedent_loss
from spacy_coref.training.evaluation import load_coref_nlp

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "gpu"
TEXT = ("Mara Quint bought an old boat from her uncle. He had sailed it for thirty years, and "
        "she promised him that the boat would stay in the family. The next summer Mara and "
        "her brother took it to the islands, where they slept on deck.")


def mention(doc, text):
    """(start, end) of the n-th occurrence of `text` ("it#2": the second)."""
    text, _, nth = text.partition("#")
    words = text.split()
    found = [i for i in range(len(doc)) if [t.text for t in doc[i:i + len(words)]] == words]
    start = found[int(nth or 1) - 1]
    return start, start + len(words)


def script(name):
    return load_script(SCRIPTS / f"{name}.py", f"gpu_{name}")


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    prepare, train = script("prepare"), script("train")
    coref = load_coref_nlp("default").get_pipe("coref")
    # float32 as train.py's reference path below: "auto" would run bf16 on a CPU with AMX
    coref.use_precision("fp32")
    inner = coref.inner
    base = spacy.load(prepare.BASE)
    base.add_pipe("coref_mentions", source=inner)
    predicted = base(TEXT)
    reference = Doc(predicted.vocab, words=[t.text for t in predicted],
                    spaces=[bool(t.whitespace_) for t in predicted])
    clusters = [["Mara Quint", "her", "she", "Mara#2"], ["her uncle", "He", "him"],
                ["an old boat", "it", "the boat", "it#2"]]
    set_clusters(reference, [[mention(predicted, m) for m in c] for c in clusters],
                 "coref_clusters")
    eg = Example(predicted, reference)
    trf_model = inner.get_pipe("transformer").model
    cluster = inner.get_pipe("coref_cluster")
    record = prepare.doc_arrays(trf_model, eg, {"candidates": cluster.model.attrs["candidates"]})
    path = tmp_path_factory.mktemp("gpu") / "docs.npz"
    prepare.pack([record, record], path)
    return dict(prepare=prepare, train=train, inner=inner, eg=eg, docset=train.DocSet(
        path, torch.device("cpu")))


def test_torch_alone_scores_as_the_pipeline(setup):
    train, inner, docset = setup["train"], setup["inner"], setup["docset"]
    encoder = inner.get_pipe("transformer").model.transformer
    head = inner.get_pipe("coref_cluster").model.get_ref("head").shims[0]._model
    encoder.eval()
    head.eval()
    assert docset.n == 2 and docset.n_tokens[0] == len(setup["eg"].predicted)
    with torch.no_grad():
        vectors = train.token_vectors(encoder, docset, [0, 1], torch.device("cpu"), False)
        doc = docset.docs[0]
        mine = head(vectors[:1], [doc["starts"]], [doc["ends"]], None, [doc["attrs"]])[0]
    # the pipeline on the same annotated doc
    annotated = inner.get_pipe("transformer")(setup["eg"].predicted.copy())
    reference = inner.get_pipe("coref_cluster").model.predict([annotated])[0]
    assert numpy.allclose(vectors[0].numpy(), vectors[1].numpy())
    candidates = torch.stack([doc["starts"], doc["ends"] + 1], 1).numpy()
    assert numpy.array_equal(candidates, numpy.asarray(reference.candidates))
    assert numpy.allclose(mine.scores.numpy(), numpy.asarray(reference.scores), atol=1e-3)
    assert numpy.allclose(mine.mention_scores.numpy(), reference.mention_scores, atol=1e-3)


def test_the_loss_is_antecedent_loss(setup):
    train, inner, docset = setup["train"], setup["inner"], setup["docset"]
    head = inner.get_pipe("coref_cluster").model.get_ref("head").shims[0]._model
    doc = docset.docs[0]
    torch.manual_seed(0)
    vectors = [torch.randn(docset.n_tokens[0], 384)]
    head.eval()
    with torch.no_grad():
        out = head(vectors, [doc["starts"]], [doc["ends"]], None, [doc["attrs"]])[0]
    gold = doc["gold"].numpy()
    candidates = torch.stack([doc["starts"], doc["ends"] + 1], 1).numpy()
    assert (gold >= 0).sum() == 11  # every gold mention is a candidate
    cluster_of = {(int(s), int(e)): int(g) for (s, e), g in zip(candidates, gold) if g >= 0}
    scores = CorefScores(candidates, out.mention_scores.numpy(), out.kept.numpy(),
                         out.antecedents.numpy(), out.scores.numpy())
    expected, _ = antecedent_loss(scores, cluster_of)
    assert float(train.doc_loss(out, doc, MASKED_SCORE)) == pytest.approx(expected, rel=1e-5)
    # GAP's partial annotation: only the labelled mentions count
    labelled = doc["labelled"].clone()
    partial = dict(doc, labelled=torch.as_tensor(gold >= 0) & (torch.arange(len(gold)) < 30))
    keep = {m for m, lab in zip(map(tuple, candidates.tolist()), partial["labelled"].tolist())
            if lab}
    expected, _ = antecedent_loss(scores, cluster_of, keep)
    assert float(train.doc_loss(out, partial, MASKED_SCORE)) == pytest.approx(expected, rel=1e-5)
    assert torch.equal(doc["labelled"], labelled)


def test_saved_weights_come_back_into_the_pipeline(setup, tmp_path, monkeypatch):
    train = setup["train"]
    encoder = setup["inner"].get_pipe("transformer").model.transformer
    head = setup["inner"].get_pipe("coref_cluster").model.get_ref("head").shims[0]._model
    changed = {"encoder.layer.5.output.dense.bias": torch.full((384,), 0.5)}
    trained = encoder.state_dict()
    trained.update(changed)
    copy = type(encoder)(encoder.config)
    copy.load_state_dict(trained)
    (tmp_path / "run").mkdir()
    train.save(tmp_path / "run", copy, head, {"score": 0.5})
    sizes = [f.stat().st_size for f in (tmp_path / "run").iterdir()]
    assert len(sizes) == 3 and max(sizes) < 16 * 2**20  # what the device may send back
    # a whole trained pipeline (here the default's own components) gets the weights too
    setup["inner"].to_disk(tmp_path / "whole")
    monkeypatch.setattr(sys, "argv", [
        "import_weights.py", str(tmp_path / "run"), "default", str(tmp_path / "model"),
        "--pipeline", str(tmp_path / "whole"), "--pipeline-out", str(tmp_path / "whole_out")])
    script("import_weights").main()
    original = encoder.state_dict()
    for nlp in (load_coref_nlp(str(tmp_path / "model")).get_pipe("coref").inner,
                spacy.load(tmp_path / "whole_out")):
        loaded = nlp.get_pipe("transformer").model.transformer.state_dict()
        assert torch.equal(loaded["encoder.layer.5.output.dense.bias"], torch.full((384,), 0.5))
        assert torch.equal(loaded["embeddings.word_embeddings.weight"],
                           original["embeddings.word_embeddings.weight"])
        assert torch.equal(loaded["encoder.layer.0.output.dense.bias"],
                           original["encoder.layer.0.output.dense.bias"])


# The accurate pipeline's route: a tiny random MPNet stands in for all-mpnet-base-v2 (packaged
# into a temporary cache as `spacy-coref download accurate` leaves it), under a pipeline of
# configs/coref_accurate.cfg with its lower layers frozen, saved in the shipped layout (only the
# upper layers, in encoder_changes.safetensors). prepare.py -> the loads -> run_accurate.sh's
# staging -> train.py (a few steps on the CPU) -> import_weights.py.
N_LAYERS, N_FROZEN = 4, 2
ACCURATE_TEXTS = [
    "Maria Lopez opened the bakery in 1998. She still bakes the bread herself, and her son "
    "Daniel runs the shop. He told a reporter that his mother works every morning.",
    TEXT,
]


def _accurate_training_nlp(make_config):
    """The tiny accurate pipeline to train (tests/conftest.py), with windows of up to 24
    wordpieces (several per doc)."""
    config = make_config(N_FROZEN)
    config["components"]["transformer"]["model"]["get_spans"]["max_wordpieces"] = 24
    return spacy.util.load_model_from_config(config, auto_fill=True)


@pytest.fixture(scope="module")
def accurate(tmp_path_factory, tiny_mpnet_writer, accurate_config_maker):
    """The tiny accurate pipeline (trained two steps, saved as shipped), a corpus of its
    texts, and prepare.py's output for them."""
    import dataclasses
    import hashlib

    from spacy_coref.encoders import PACKAGED_ENCODERS, mpnet_parts, packaged_encoder_path
    from spacy_coref.formats import write_docs
    from spacy_coref.pipeline.coref import save_coref_pipeline

    root = tmp_path_factory.mktemp("accurate_gpu")
    real = PACKAGED_ENCODERS["accurate"]
    folder = tiny_mpnet_writer(root / "cache" / "encoders" / real.folder, ACCURATE_TEXTS,
                               N_LAYERS, spare_rows=20)  # rows the data leaves out
    digest = hashlib.sha256((folder / real.weights_file).read_bytes()).hexdigest()
    fake = dataclasses.replace(real, model="test/tiny-mpnet", sha256=digest)
    mpnet_parts._write_manifest(fake, folder, [])
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPACY_COREF_CACHE", str(root / "cache"))
        patch.setitem(PACKAGED_ENCODERS, "accurate", fake)
        assert packaged_encoder_path("accurate", assemble=False) == folder
        parser = spacy.load(script("prepare").BASE)
        nlp = _accurate_training_nlp(accurate_config_maker)
        mentions = nlp.get_pipe("coref_mentions")
        references, examples = [], []
        for text in ACCURATE_TEXTS:
            predicted = mentions(parser(text))
            reference = parser.make_doc(text)
            offsets = [(m.start, m.end) for m in predicted.spans["coref_mentions"]]
            # gold: the mentions in pairs of two (enough for a loss)
            set_clusters(reference, [offsets[i:i + 2] for i in range(0, len(offsets) - 1, 2)])
            references.append(reference)
            examples.append(Example(predicted, reference))
        optimizer = nlp.initialize(lambda: examples)
        for _ in range(2):  # the "CPU-trained" pipeline: its upper layers differ from the package's
            nlp.update(examples, sgd=optimizer)
        model = root / "accurate_model"
        save_coref_pipeline(nlp, model, encoder_from_package=True, half=True)
        corpus = root / "corpus"
        write_docs(references, corpus / "train" / "docs.spacy")
        write_docs(references, corpus / "dev" / "litbank.spacy")
        write_docs(references[:1], corpus / "dev" / "gum.spacy")
        write_docs(references[1:], corpus / "gap-dev" / "gap.spacy")
        data = root / "data"
        script("prepare").main([str(model), str(data), "--corpus", str(corpus),
                                "--load-mib", "0.2"])
        yield dict(root=root, model=model, data=data, package=folder, nlp=nlp)


def _flat_weights(data):
    from safetensors.torch import load_file

    train = script("train")
    state = {}
    for name in train.read_manifest(data)["files"]:
        if name.endswith(".safetensors"):
            state.update(load_file(str(train.locate(data, name))))
    return state


def test_prepare_writes_the_accurate_pipeline_in_loads(accurate):
    from transformers import AutoModel

    data, train = accurate["data"], script("train")
    manifest = train.read_manifest(data)
    assert manifest["model_type"] == "mpnet" and manifest["n_layers"] == N_LAYERS
    # the config's frozen layers (an encoder read from a package), its head rate and windows
    assert manifest["frozen_layers"] == N_FROZEN and manifest["encoder_from_package"]
    assert manifest["head_lr_scale"] == 20
    assert manifest["windows"] == {"@span_getters": "spacy_coref.wordpiece_windows.v1",
                                   "max_wordpieces": 24}
    assert manifest["augment"] == []  # as configs/coref_accurate.cfg
    assert manifest["mix"] is None and manifest["mix_weight"] == 0.0
    assert manifest["loads"] > 1
    loads = sorted(data.glob("load_*"))
    assert [p.name for p in loads] == [f"load_{k}" for k in range(1, manifest["loads"] + 1)]
    assert not [p for p in data.iterdir() if not p.name.startswith("load_")]
    assert (data / "load_1" / "manifest.json").exists()
    assert (data / "load_1" / "code" / "scripts" / "gpu" / "train.py").exists()
    assert train.check_data(data, digests=True) == []
    # windows of whole sentences under 24 wordpieces, each token in one window
    sets = manifest["sets"]
    assert sets["train"]["docs"] == 2 and sets["train"]["windows"] > 2
    assert 0 < sets["train"]["longest_window"] <= 24
    docset = train.DocSet(train.locate(data, "train.npz"), torch.device("cpu"))
    assert sum(len(w) for w in docset.windows) == sets["train"]["wordpieces"]
    assert all(int(d["counts"].sum()) == len(d["token_of"]) for d in docset.docs)
    # the encoder: the pipeline's, every layer, the word embeddings cut to the used rows
    pipeline = load_coref_nlp(str(accurate["model"])).get_pipe("coref").inner
    expected = pipeline.get_pipe("transformer").model.transformer.state_dict()
    package = AutoModel.from_pretrained(accurate["package"]).state_dict()
    weights = _flat_weights(data)
    vocab_ids = numpy.load(train.locate(data, "vocab_ids.npy"))
    assert manifest["vocab_size"] == len(vocab_ids) < manifest["original_vocab_size"]
    assert list(vocab_ids[:2]) == [0, 1]  # <s> and <pad> keep their ids
    for key, value in weights.items():
        assert value.dtype == torch.float16
        reference = expected[key]
        if key == "embeddings.word_embeddings.weight":
            reference = reference[torch.as_tensor(vocab_ids, dtype=torch.long)]
        assert torch.equal(value, reference.half()), key
    assert {k for k in expected if not k.startswith("pooler.")} == set(weights)
    upper = [k for k in weights
             if k.startswith("encoder.layer.") and int(k.split(".")[2]) >= N_FROZEN]
    assert any(not torch.equal(expected[k], package[k]) for k in upper)  # the trained ones


def test_prepare_mixes_in_short_docs(accurate, tmp_path):
    # the pronoun problems of make-corpus join the training docs at their weight
    data = tmp_path / "mixed"
    mix = accurate["root"] / "corpus" / "dev" / "litbank.spacy"
    script("prepare").main([str(accurate["model"]), str(data), "--corpus",
                            str(accurate["root"] / "corpus"), "--mix", str(mix),
                            "--mix-weight", "100", "--max-dev-docs", "1"])
    manifest = script("train").read_manifest(data)
    assert manifest["mix"] == str(mix) and manifest["mix_weight"] == 100.0
    assert manifest["sets"]["train"]["docs"] == 4  # the 2 documents and the 2 mixed in
    assert manifest["sets"]["dev_litbank"]["docs"] == 1


def test_torch_alone_scores_the_accurate_pipeline(accurate):
    """train.py's MPNet (rebuilt from the loads, its vocabulary cut), whole and split at the
    frozen layers, gives the pipeline's vectors and scores."""
    data, train = accurate["data"], script("train")
    S2ECorefHead, _ = train.import_head()
    encoder = train.build_encoder(data).eval()
    docset = train.DocSet(train.locate(data, "train.npz"), torch.device("cpu"))
    pipeline = load_coref_nlp(str(accurate["model"]))
    inner = pipeline.get_pipe("coref").inner
    head = inner.get_pipe("coref_cluster").model.get_ref("head").shims[0]._model.eval()
    with torch.no_grad():
        whole = train.token_vectors(encoder, docset, [0, 1], torch.device("cpu"), False)
        split = train.PartlyFrozen(encoder, N_FROZEN)
        assert train.check_split(split, docset, torch.device("cpu")) < 1e-5
        parts = train.token_vectors(split, docset, [0, 1], torch.device("cpu"), False)
        doc = docset.docs[0]
        mine = head(whole[:1], [doc["starts"]], [doc["ends"]], None, [doc["attrs"]])[0]
    for a, b in zip(whole, parts):  # the frozen layers' output kept in bfloat16
        assert torch.allclose(a, b, atol=0.05)
    annotated = pipeline(ACCURATE_TEXTS[0])
    reference = inner.get_pipe("coref_cluster").model.predict(
        [inner.get_pipe("transformer")(inner.get_pipe("coref_mentions")(annotated.copy()))])[0]
    candidates = torch.stack([doc["starts"], doc["ends"] + 1], 1).numpy()
    assert numpy.array_equal(candidates, numpy.asarray(reference.candidates))
    assert numpy.allclose(mine.scores.numpy(), numpy.asarray(reference.scores), atol=1e-3)


def test_stage_train_and_import_the_accurate_pipeline(accurate, tmp_path):
    import os
    import subprocess

    from safetensors.torch import load_file

    from spacy_coref.pipeline.coref import ENCODER_CHANGES, ENCODER_WEIGHTS_MARKER

    data, train = accurate["data"], script("train")
    # the device's calls, one load each (the last one trains): staged outside the data
    out = tmp_path / "out"
    env = dict(os.environ, GPU_STAGE=str(tmp_path / "stage"), OUT=str(out),
               PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    staged = tmp_path / "stage" / data.name
    loads = sorted(data.glob("load_*"))
    for k, load in enumerate(loads, 1):
        call = tmp_path / "calls" / str(k) / data.name  # what one call carries: one load
        call.mkdir(parents=True)
        os.symlink(load, call / load.name)
        command = ["bash", str(SCRIPTS / "run_accurate.sh"), "stage", str(call)]
        if k == len(loads):  # a few steps on the CPU: the upper layers and the head train
            command[2:] = ["train", str(call), "1", "--max-steps", "8", "--evals", "1",
                           "--warmup", "1", "--lr", "1e-3", "--log-every", "1"]
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"staged {load.name}" in done.stdout
        assert ("complete" in done.stdout) == (k == len(loads)), done.stdout
    assert not list(staged.glob("load_*")) and (staged / "manifest.json").exists()
    assert train.check_data(staged, digests=True) == []
    log = (out / "log_accurate.txt").read_text()
    losses = [float(line.split(" loss ")[1].split()[0]) for line in log.splitlines()
              if " loss " in line]
    assert len(losses) == 8 and losses[-1] < losses[0], log
    assert f"{N_LAYERS} layers ({N_FROZEN} frozen" in log and "split check" in log
    run = out / "accurate"
    start = _flat_weights(data)
    trained = {}
    for path in sorted(run.glob("encoder_*.pt")):
        trained.update(torch.load(path))
    upper = {k for k in start if k.startswith("encoder.layer.")
             and int(k.split(".")[2]) >= N_FROZEN}
    assert set(trained) == upper  # the frozen layers and the embeddings do not come back
    assert all(v.dtype == torch.float16 for v in trained.values())
    assert any(not torch.equal(trained[k], start[k]) for k in upper)
    saved = torch.load(run / "head.pt")
    assert saved["frozen_layers"] == N_FROZEN and saved["model_type"] == "mpnet"
    start_head = torch.load(train.locate(data, "head.pt"))
    assert any(not torch.equal(saved["state"][k], start_head[k]) for k in start_head)
    # back into the shipped layout: only the upper layers differ from the package
    exported = tmp_path / "accurate_model"
    script("import_weights").main([str(run), str(accurate["model"]), str(exported)])
    assert (exported / ENCODER_WEIGHTS_MARKER).exists() and not (exported / "transformer").exists()
    changes = load_file(str(exported / ENCODER_CHANGES))
    assert set(changes) == upper
    assert all(torch.equal(changes[k], trained[k]) for k in upper)
    inner = load_coref_nlp(str(exported)).get_pipe("coref").inner
    loaded = inner.get_pipe("transformer").model.transformer.state_dict()
    from transformers import AutoModel

    package = AutoModel.from_pretrained(accurate["package"]).state_dict()
    for key, value in loaded.items():
        if key in upper:
            assert torch.equal(value, trained[key].float()), key
        else:  # the embeddings, the frozen layers, the position bias: the package's
            assert torch.equal(value, package[key]), key
    head = inner.get_pipe("coref_cluster").model.get_ref("head").shims[0]._model
    assert all(torch.equal(v, saved["state"][k]) for k, v in head.state_dict().items())
