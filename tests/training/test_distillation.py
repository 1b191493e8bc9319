"""Distillation (seed 002): the silver corpus holds exactly the teacher's clusters; the student
config trains on it and then on gold data from the silver weights; both are compared."""

import json
import subprocess
import sys
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.training import Example
from spacy.util import fix_random_seed

from spacy_coref.annotations import get_clusters, get_doc_id, set_clusters
from spacy_coref.formats import read_docs, write_docs
from spacy_coref.training.distillation import (
    compare_models,
    label_texts,
    load_pipeline,
    make_silver_corpus,
)
from spacy_coref.training.smoke import write_tiny_encoder

ROOT = Path(__file__).resolve().parents[2]
TEXTS = [
    ("a", "Alice saw Bob in the park. She waved at him and he smiled back at her."),
    ("b", "The old man sold his boat. He missed it every day, and his wife missed it too."),
    ("c", ""),
]


@pytest.fixture(scope="module")
def teacher_dir(tmp_path_factory) -> Path:
    """A small CNN coreference pipeline that needs no parse (span candidates), decoding with a
    low null score so that even its random weights link mentions into clusters."""
    fix_random_seed(0)
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "coref_cluster",
        config={
            "null_score": -50.0,
            "model": {
                "hidden_width": 16,
                "candidates": "spans",
                "max_span_width": 2,
                "tok2vec": {"width": 16, "depth": 1, "embed_size": 200},
            },
        },
    )
    doc = nlp.make_doc(TEXTS[0][1])
    reference = nlp.make_doc(TEXTS[0][1])
    set_clusters(reference, [[(0, 1), (8, 9)]])
    nlp.initialize(lambda: [Example(doc, reference)])
    path = tmp_path_factory.mktemp("teacher") / "teacher"
    nlp.to_disk(path)
    return path


def test_silver_docs_hold_exactly_the_teachers_clusters(teacher_dir, tmp_path):
    teacher = load_pipeline(str(teacher_dir))
    expected = [get_clusters(teacher(text)) for _, text in TEXTS]
    assert sum(map(len, expected)) > 0  # the test needs clusters to compare
    silver = label_texts(teacher, TEXTS)
    write_docs(silver, tmp_path / "silver.spacy")
    back = read_docs(tmp_path / "silver.spacy")
    assert [get_clusters(doc) for doc in back] == expected
    assert [doc.text for doc in back] == [text for _, text in TEXTS]  # empty text included
    assert [get_doc_id(doc)["name"] for doc in back] == ["a", "b", "c"]
    # hard targets only: no parse, tags or scores from the teacher
    assert not any(doc.has_annotation("DEP") or doc.has_annotation("TAG") for doc in back[:2])


def test_make_silver_corpus_from_unlabeled_jsonl(teacher_dir, tmp_path):
    data = tmp_path / "unlabeled.jsonl"
    data.write_text(
        "".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in TEXTS), encoding="utf8"
    )
    stats = make_silver_corpus(
        str(teacher_dir),
        data,
        tmp_path / "silver",
        max_texts=2,
        max_words=100,
        seed=0,
    )
    docs = read_docs(tmp_path / "silver")  # the shards, as the training reader reads them
    assert stats["texts"] == len(docs) == 2 and stats["shards"] == 1
    assert stats["clusters"] == sum(len(get_clusters(doc)) for doc in docs)
    assert stats["tokens"] == sum(len(doc) for doc in docs)


def test_load_pipeline_needs_a_coreference_component(tmp_path):
    spacy.blank("en").to_disk(tmp_path / "blank")
    with pytest.raises(ValueError, match="CE267"):
        load_pipeline(str(tmp_path / "blank"))
    with pytest.raises(ValueError, match="CE267"):
        load_pipeline(str(tmp_path / "missing"))


def test_compare_models_side_by_side(teacher_dir, tmp_path, shared_data):
    gold = tmp_path / "gold.spacy"
    write_docs(read_docs(shared_data / "litbank" / "dev" / "conll")[:1], gold)
    results = compare_models(
        {"teacher": str(teacher_dir), "student": str(teacher_dir)},
        gold,
        null_scores={"student": 0.0},
    )
    teacher, student = results["teacher"], results["student"]
    assert teacher["n_words"] == student["n_words"] > 1000
    assert teacher["words_per_second"] > 0 and student["words_per_second"] > 0
    # the null score changes the student's decoding only
    assert teacher["null_score"] is None and student["null_score"] == 0.0
    assert teacher["conll"]["muc"]["r"] > student["conll"]["muc"]["r"]
    with pytest.raises(ValueError, match="CE268"):
        compare_models({"teacher": str(teacher_dir)}, gold, repeats=0)


def test_compare_models_on_gap_with_a_parser_free_model(teacher_dir, tmp_path, shared_data):
    # span candidates, no `coref_mentions`: GAP is scored with detected mentions only
    gold = tmp_path / "gap.spacy"
    write_docs(read_docs(shared_data / "gap" / "gap-validation.tsv")[:3], gold)
    result = compare_models({"student": str(teacher_dir)}, gold)["student"]
    assert sum(result["gap"]["overall"][k] for k in ("tp", "fp", "tn", "fn")) == 6
    assert result["gap_gold_mentions"] is None


@pytest.fixture(scope="module")
def tiny_encoder(tmp_path_factory) -> Path:
    """A 3-layer, 32-wide random BERT with MiniLM's tokenizer."""
    return write_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"), n_layers=3)


def _run(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


def test_student_trains_on_silver_then_gold(teacher_dir, tiny_encoder, tmp_path, shared_data):
    base = tmp_path / "student_base"
    _run(
        "spacy",
        "assemble",
        str(ROOT / "configs" / "distill_student_base.cfg"),
        str(base),
        "--paths.encoder",
        str(tiny_encoder),
    )
    student_base = spacy.load(base)
    assert student_base.pipe_names == ["transformer"]
    assert student_base.get_pipe("transformer").model.transformer.config.num_hidden_layers == 2
    silver = tmp_path / "silver.spacy"
    write_docs(label_texts(load_pipeline(str(teacher_dir)), TEXTS[:2]), silver)
    gold = tmp_path / "gold.spacy"
    write_docs(read_docs(shared_data / "gap" / "gap-validation.tsv")[:3], gold)
    config = str(ROOT / "configs" / "distill_student.cfg")
    common = [
        "--paths.base_model",
        str(base),
        "--training.eval_frequency",
        "2",
        "--components.coref_cluster.model.hidden_width",
        "16",
    ]
    _run(
        "spacy",
        "train",
        config,
        "--output",
        str(tmp_path / "silver_out"),
        "--paths.train",
        str(silver),
        "--paths.dev",
        str(silver),
        "--training.max_steps",
        "2",
        *common
    )
    silver_model = tmp_path / "silver_out" / "model-last"
    _run(
        "spacy",
        "train",
        config,
        "--output",
        str(tmp_path / "gold_out"),
        "--paths.train",
        str(gold),
        "--paths.dev",
        str(gold),
        "--training.max_steps",
        "2",
        "--paths.init_coref",
        str(silver_model / "coref_cluster"),
        *common
    )
    student = load_pipeline(str(tmp_path / "gold_out" / "model-last"))
    assert student.pipe_names == ["transformer", "coref_cluster"]  # no parser needed
    doc = student("Anna met her brother. She told him the news.")
    assert all(len(cluster) >= 2 for cluster in get_clusters(doc))
    silver_weights = spacy.load(silver_model).get_pipe("coref_cluster").model.get_ref("head")
    gold_weights = student.get_pipe("coref_cluster").model.get_ref("head")
    # trained further from the silver weights (2 small steps): close to them, not equal
    a = next(silver_weights.shims[0]._model.parameters()).detach().numpy()
    b = next(gold_weights.shims[0]._model.parameters()).detach().numpy()
    assert not numpy.array_equal(a, b) and numpy.abs(a - b).max() < 0.05
