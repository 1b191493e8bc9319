"""scripts/gpu: the arrays prepare.py writes, read by train.py with torch alone, give the scores
and the loss that the spaCy pipeline gives, and import_weights.py puts the weights back."""
import importlib.util
import sys
from pathlib import Path

import numpy
import pytest
import spacy
import torch
from spacy.tokens import Doc
from spacy.training import Example

from spacy_coref.annotations import set_clusters
from spacy_coref.ml.s2e_coref import CorefScores
from spacy_coref.ml.torch.constants import MASKED_SCORE
from spacy_coref.pipeline.clustering import antecedent_loss
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
    spec = importlib.util.spec_from_file_location(f"gpu_{name}", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


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
