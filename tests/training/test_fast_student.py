"""The fast pipeline's recipe end to end on tiny data with a tiny random BERT: the student
encoder cut from a teacher's, `spacy train configs/fast_student.cfg`, the export that stores
only the encoder weights that differ from the base encoder's, and the `coref` stack on a blank
pipeline (no parser)."""
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
import torch
from safetensors.torch import load_file, save_file
from transformers import AutoModel

from spacy_coref.annotations import get_clusters
from spacy_coref.formats import read_docs, write_docs
from spacy_coref.pipeline.coref import ENCODER_CHANGES, ENCODER_WEIGHTS_MARKER
from spacy_coref.training.smoke import write_tiny_encoder
from spacy_coref.training.student_encoder import make_student_encoder

ROOT = Path(__file__).resolve().parents[2]
TEXT = "Anna met her brother. She told him the news because he asked her."


@pytest.fixture(scope="module")
def base_encoder(tmp_path_factory) -> Path:
    """The 'package' encoder: 3 layers, 32 wide, random."""
    return write_tiny_encoder(tmp_path_factory.mktemp("base"), n_layers=3)


@pytest.fixture(scope="module")
def teacher(tmp_path_factory, base_encoder):
    """A teacher pipeline whose encoder is the base with every weight moved (as fine-tuning
    moves them)."""
    path = tmp_path_factory.mktemp("teacher") / "teacher"
    cmd = [sys.executable, "-m", "spacy", "assemble",
           str(ROOT / "configs" / "distill_student_base.cfg"), str(path),
           "--paths.encoder", str(base_encoder),
           "--components.transformer.model.transformer_config.num_hidden_layers", "3"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    nlp = spacy.load(path)
    torch.manual_seed(0)
    with torch.no_grad():
        for param in nlp.get_pipe("transformer").model.transformer.parameters():
            param.add_(0.01 * torch.randn_like(param))
    return nlp


@pytest.fixture(scope="module")
def student_encoder(tmp_path_factory, teacher, base_encoder) -> Path:
    path = tmp_path_factory.mktemp("student_encoder")
    make_student_encoder(teacher, str(base_encoder), 2, path)
    return path


def test_student_encoder_is_the_teachers_lower_layers_on_the_base_embeddings(
    teacher, base_encoder, student_encoder
):
    student = AutoModel.from_pretrained(student_encoder).state_dict()
    base = AutoModel.from_pretrained(base_encoder).state_dict()
    fine_tuned = teacher.get_pipe("transformer").model.transformer.state_dict()
    assert not any(key.startswith("encoder.layer.2.") for key in student)
    for key, value in student.items():
        expected = fine_tuned[key] if key.startswith("encoder.layer.") else base[key]
        assert torch.equal(value, expected), key
    assert not torch.equal(base["encoder.layer.0.output.dense.weight"],
                           student["encoder.layer.0.output.dense.weight"])


def test_student_encoder_errors(teacher, base_encoder, tmp_path):
    with pytest.raises(ValueError, match="CE390"):
        make_student_encoder(teacher, str(base_encoder), 4, tmp_path / "too_deep")
    wider = write_tiny_encoder(tmp_path / "wider", width=48, n_layers=3)
    with pytest.raises(ValueError, match="CE391"):
        make_student_encoder(teacher, str(wider), 2, tmp_path / "other_base")


@pytest.fixture(scope="module")
def trained(tmp_path_factory, student_encoder, shared_data) -> Path:
    data = tmp_path_factory.mktemp("data")
    write_docs(read_docs(shared_data / "gum" / "dev")[:2], data / "train.spacy")
    output = tmp_path_factory.mktemp("training")
    cmd = [
        sys.executable, "-m", "spacy", "train", str(ROOT / "configs" / "fast_student.cfg"),
        "--output", str(output), "--paths.encoder", str(student_encoder),
        "--paths.init_coref", "null", "--paths.train", str(data), "--paths.dev", str(data),
        "--training.max_steps", "4", "--training.eval_frequency", "4",
        "--components.transformer.model.frozen_layers", "1",
        "--components.transformer.model.precision", "fp32",
        "--components.coref_cluster.model.hidden_width", "16",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return output / "model-last"


@pytest.fixture(scope="module")
def exported(tmp_path_factory, trained, base_encoder) -> Path:
    path = tmp_path_factory.mktemp("export") / "fast"
    cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(trained), str(path),
           "--base-encoder", str(base_encoder)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return path


def test_export_stores_only_the_weights_that_differ_from_the_base(exported, trained, base_encoder):
    assert (exported / ENCODER_WEIGHTS_MARKER).exists()
    assert not (exported / "transformer").exists()
    changes = load_file(str(exported / ENCODER_CHANGES))
    trained_encoder = spacy.load(trained).get_pipe("transformer").model.transformer
    base = AutoModel.from_pretrained(base_encoder).state_dict()
    # the frozen embeddings equal the base's and are read from it; every layer kept was the
    # teacher's (layer 0, frozen) or trained (layer 1)
    assert not any(key.startswith("embeddings.") for key in changes)
    assert {key.split(".")[2] for key in changes} == {"0", "1"}
    assert {value.dtype for value in changes.values()} == {torch.float16}
    for key, value in trained_encoder.state_dict().items():
        if key in changes:
            assert torch.equal(changes[key], value.half())
        else:
            assert torch.equal(value, base[key]), key
    config = spacy.util.load_config(exported / "config.cfg", interpolate=True)
    model = config["components"]["transformer"]["model"]
    assert model["name"]["name"] == str(base_encoder)
    assert model["transformer_config"]["num_hidden_layers"] == 2


def test_the_stack_runs_on_a_blank_pipeline_with_the_trained_weights(exported, trained):
    nlp = spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": str(exported)})
    stack = nlp.get_pipe("coref")
    assert not stack.needs_parse
    loaded = stack.inner.get_pipe("transformer").model.transformer.state_dict()
    reference = spacy.load(trained)
    changed = load_file(str(exported / ENCODER_CHANGES))
    for key, value in reference.get_pipe("transformer").model.transformer.state_dict().items():
        expected = value.half().float() if key in changed else value  # stored in half
        assert torch.equal(loaded[key], expected), key
    doc = nlp(TEXT)  # no parse: the stack's own sentencizer gives the sentences
    assert doc.has_annotation("SENT_START") and not doc.has_annotation("DEP")
    assert len(list(doc.sents)) == 2
    assert [len(c) >= 2 for c in get_clusters(doc)] == [True] * len(get_clusters(doc))
    docs = list(nlp.pipe([TEXT, "", "He left."]))
    assert len(docs) == 3 and get_clusters(docs[0]) == get_clusters(doc)
    # saved inside a host pipeline and loaded again: the same weights, no parse needed
    nlp.to_disk(exported.parent / "host")
    again = spacy.load(exported.parent / "host")
    assert get_clusters(again(TEXT)) == get_clusters(doc)
    assert (exported.parent / "host" / "coref" / ENCODER_CHANGES).exists()


def test_a_shipped_student_gives_back_its_own_encoder_to_train_on(exported, base_encoder, tmp_path):
    """`fast-refresh` goes on from the shipped student: `distill-encoder` on the exported
    pipeline, keeping all its layers, must give back the encoder it runs with."""
    from spacy_coref.pipeline.coref import load_coref_pipeline

    student = load_coref_pipeline(str(exported), spacy.blank("en").vocab)
    running = student.get_pipe("transformer").model.transformer.state_dict()
    stats = make_student_encoder(student, str(base_encoder), 2, tmp_path / "again")
    assert stats["layers"] == 2
    again = AutoModel.from_pretrained(tmp_path / "again").state_dict()
    assert again.keys() <= running.keys()
    for key, value in again.items():
        assert torch.equal(value, running[key].float()), key


def test_int8_export_stores_rows_and_scales_and_loads_them(trained, base_encoder, tmp_path):
    from spacy_coref.ml.weight_storage import SCALE_SUFFIX, unpack_weights

    path = tmp_path / "int8"
    cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(trained), str(path),
           "--base-encoder", str(base_encoder), "--weight-storage", "int8"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    packed = load_file(str(path / ENCODER_CHANGES))
    int8_keys = [key for key, value in packed.items() if value.dtype == torch.int8]
    assert int8_keys and all(key + SCALE_SUFFIX in packed for key in int8_keys)
    assert all(packed[key].dim() == 1 for key in packed if key.endswith("bias"))
    nlp = spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": str(path)})
    nlp("Anna left.")  # the inner pipeline is built on first use
    loaded = nlp.get_pipe("coref").inner.get_pipe("transformer").model.transformer.state_dict()
    for key, value in unpack_weights(packed).items():
        assert torch.equal(loaded[key], value), key
    trained_weight = spacy.load(trained).get_pipe("transformer").model.transformer.state_dict()
    key = int8_keys[0]
    assert not torch.equal(loaded[key], trained_weight[key])  # rounded, but close
    step = trained_weight[key].abs().max() / 127  # the largest row's rounding step
    assert torch.allclose(loaded[key], trained_weight[key], atol=float(step))


def test_weight_storage_is_refused_with_the_whole_encoder(trained, tmp_path):
    for options, code in ((["--with-encoder", "--weight-storage", "int8"], "CE399"),
                          (["--weight-storage", "int4"], "CE398")):
        cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(trained),
               str(tmp_path / code), *options]
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert result.returncode != 0 and code in result.stdout + result.stderr
        assert not (tmp_path / code).exists()


def test_a_damaged_encoder_changes_file_names_the_file(exported, tmp_path):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(exported, broken)
    (broken / ENCODER_CHANGES).write_bytes(b"not safetensors")
    nlp = spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": str(broken)})
    with pytest.raises(ValueError, match=f"CE392.*{ENCODER_CHANGES}"):
        nlp("Anna left.")
    save_file({"encoder.layer.9.output.dense.weight": torch.zeros(2, 2)},
              str(broken / ENCODER_CHANGES))
    nlp = spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": str(broken)})
    with pytest.raises(ValueError, match="CE392.*encoder.layer.9"):
        nlp("Anna left.")


def test_evaluation_runs_a_parse_free_pipeline_on_a_blank_host(exported, shared_data):
    from spacy_coref.training.evaluation import evaluate_docs, load_coref_nlp

    nlp = load_coref_nlp(str(exported))
    assert nlp.pipe_names == ["coref"]  # no parser loaded for a model that reads none
    gap = read_docs(shared_data / "gap" / "gap-validation.tsv")[:4]
    result = evaluate_docs(nlp, gap)
    assert result["gap"] is not None
    assert result["gap_gold_mentions"] is None  # no rule-based mentions to replace


def test_export_takes_one_way_of_storing_the_encoder(trained, tmp_path):
    cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(trained),
           str(tmp_path / "out"), "--with-encoder", "--base-encoder", "x"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1 and "CE396" in result.stdout + result.stderr
    assert not (tmp_path / "out").exists()


def test_export_sets_how_the_pipeline_decodes(trained, tmp_path):
    path = tmp_path / "decoding"
    cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(trained), str(path),
           "--top-lambda", "1.2", "--max-antecedents", "7", "--candidates", "sentence_spans"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    model = spacy.util.load_config(path / "config.cfg")["components"]["coref_cluster"]["model"]
    assert (model["top_lambda"], model["max_antecedents"]) == (1.2, 7)
    assert model["candidates"] == "sentence_spans"
    nlp = spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": str(path)})
    cluster = nlp.get_pipe("coref").inner.get_pipe("coref_cluster").model
    head = cluster.get_ref("head").shims[0]._model
    assert (head.top_lambda, head.max_antecedents) == (1.2, 7)
    assert cluster.attrs["candidates"]["source"] == "sentence_spans"
    for bad, code in ((["--top-lambda", "0"], "CE394"), (["--candidates", "rules"], "CE395")):
        cmd = [sys.executable, "-m", "spacy_coref", "export-default", str(trained),
               str(tmp_path / "bad"), *bad]
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert result.returncode == 1 and code in result.stdout + result.stderr
        assert not (tmp_path / "bad").exists()
