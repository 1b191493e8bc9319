"""Silver data (distillation): the teacher's clusters and antecedent distributions round-trip
through the sharded, resumable silver directory; the soft-target loss is a cross-entropy with
the right gradient; a distillation step on tiny data lowers it."""

import hashlib
import json

import numpy
import pytest
import spacy
from spacy.training import Example
from spacy.util import fix_random_seed

from spacy_coref.annotations import get_clusters, get_doc_id
from spacy_coref.formats import read_docs, write_docs
from spacy_coref.ml.torch.constants import MASKED_SCORE
from spacy_coref.pipeline.coref import SHIPPED_PIPELINES
from spacy_coref.training.distillation import (
    label_gold_corpus,
    label_texts,
    load_pipeline,
    make_silver_corpus,
    teacher_identity,
    weights_digest,
)
from spacy_coref.training.evaluation import keeping_scores
from spacy_coref.training.losses import soft_antecedent_loss
from spacy_coref.training.silver import (
    MANIFEST,
    AntecedentTargets,
    antecedent_targets,
    get_antecedent_targets,
    get_silver_teacher,
    read_silver,
    set_antecedent_targets,
    silver_doc,
    silver_teacher,
    write_silver,
)
from spacy_coref.types import CorefScores

TEXTS = [
    ("a", "Alice saw Bob in the park. She waved at him and he smiled back at her."),
    ("b", "The old man sold his boat. He missed it every day, and his wife missed it too."),
    ("c", ""),
    ("d", "Carla phoned her sister, who said that she would come on Monday."),
]
SOFT = {"top_k": 8, "min_prob": 0.01, "temperature": 1.0}


@pytest.fixture(scope="module")
def teacher_dir(tiny_span_model):
    return tiny_span_model(TEXTS[0][1], [[(0, 1), (8, 9)]])


@pytest.fixture()
def unlabeled(tmp_path):
    path = tmp_path / "unlabeled.jsonl"
    lines = [json.dumps({"id": name, "text": text}) for name, text in TEXTS]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


def _scores(rows, antecedents, kept_spans) -> CorefScores:
    """CorefScores of hand-written pair scores ([M, 1 + K], MASKED_SCORE for no pair)."""
    spans = numpy.asarray(kept_spans, dtype="int64")
    return CorefScores(
        candidates=spans,
        mention_scores=numpy.zeros(len(spans), dtype="float32"),
        kept=numpy.arange(len(spans)),
        antecedents=numpy.asarray(antecedents, dtype="int64"),
        scores=numpy.asarray(rows, dtype="float32"),
    )


def test_antecedent_targets_are_the_softmax_with_the_null_score():
    doc = spacy.blank("en")("Ann met Bo and she smiled")
    m = MASKED_SCORE
    scores = _scores(
        [[0.0, m, m], [0.0, 1.0, m], [0.0, 2.0, -3.0]],
        [[0, 0], [0, 0], [1, 0]],
        [(0, 1), (2, 3), (4, 5)],
    )
    targets = antecedent_targets(doc, scores, null_score=0.5, null_scores_by_form={}, **SOFT)
    assert targets.mentions == [(0, 1), (2, 3), (4, 5)]
    assert targets.null[0] == 1.0 and targets.antecedents[0] == []
    z = numpy.exp([0.5, 1.0])
    assert targets.null[1] == pytest.approx(z[0] / z.sum(), abs=1e-4)
    assert targets.antecedents[1] == [0] and targets.probs[1][0] == pytest.approx(
        z[1] / z.sum(), abs=1e-4
    )
    # most likely first; exp(-3) against exp(2) is below min_prob and left out
    assert targets.antecedents[2] == [1]
    one = antecedent_targets(doc, scores, null_score=0.5, null_scores_by_form={},
                             top_k=1, min_prob=0.0, temperature=1.0)
    assert one.antecedents[2] == [1]
    # a form's own null score: "she" links more readily with a lower one
    by_form = antecedent_targets(doc, scores, null_score=0.5, null_scores_by_form={"she": -2.0},
                                 **SOFT)
    assert by_form.null[2] < targets.null[2]
    hot = antecedent_targets(doc, scores, null_score=0.5, null_scores_by_form={},
                             top_k=8, min_prob=0.0, temperature=10.0)
    assert hot.probs[2][0] < targets.probs[2][0]  # a higher temperature flattens


def test_soft_loss_is_the_cross_entropy_and_its_gradient_matches():
    m = MASKED_SCORE
    rows = [[0.0, m, m], [0.0, 1.0, m], [0.0, 2.0, -1.0]]
    scores = _scores(rows, [[0, 0], [0, 0], [1, 0]], [(0, 1), (2, 3), (4, 5)])
    targets = AntecedentTargets(
        mentions=[(0, 1), (2, 3), (4, 5), (7, 8)],
        null=[1.0, 0.2, 0.1, 0.5],
        antecedents=[[], [0], [1, 0], [2]],
        probs=[[], [0.8], [0.6, 0.3], [0.5]],
    )
    loss, grad = soft_antecedent_loss(scores, targets)

    def cross_entropy(values):
        total = 0.0
        for row, target in ((0, [1.0]), (1, [0.2, 0.8]), (2, [0.1, 0.6, 0.3])):
            logits = numpy.asarray(values[row][: len(target)], dtype="float64")
            log_p = logits - numpy.log(numpy.exp(logits).sum())
            total -= float((numpy.asarray(target) * log_p).sum())
        return total

    assert loss == pytest.approx(cross_entropy(rows), rel=1e-5)
    eps = 1e-3
    for row, col in ((1, 0), (1, 1), (2, 0), (2, 1), (2, 2)):
        up = [list(r) for r in rows]
        down = [list(r) for r in rows]
        up[row][col] += eps
        down[row][col] -= eps
        numeric = (cross_entropy(up) - cross_entropy(down)) / (2 * eps)
        assert grad[row, col] == pytest.approx(numeric, abs=1e-3)
    assert not grad[:, :][numpy.asarray(rows) <= m / 2].any()  # no gradient on masked pairs


def test_soft_loss_renormalizes_over_the_students_own_candidates():
    m = MASKED_SCORE
    # the student's mention 2 cannot see mention 0 (out of its window)
    scores = _scores([[0.0, m], [0.0, 0.0], [0.0, 0.0]], [[0], [0], [1]],
                     [(0, 1), (2, 3), (4, 5)])
    targets = AntecedentTargets(
        mentions=[(0, 1), (2, 3), (4, 5)],
        null=[1.0, 0.5, 0.2],
        antecedents=[[], [0], [0, 1]],
        probs=[[], [0.5], [0.6, 0.2]],
    )
    _, grad = soft_antecedent_loss(scores, targets)
    # target of row 2: null 0.2 and mention 1 0.2 of the 0.4 it can see: 0.5 each, as p is
    assert grad[2] == pytest.approx([0.0, 0.0], abs=1e-6)
    unmatched = AntecedentTargets(mentions=[(9, 10)], null=[1.0], antecedents=[[]], probs=[[]])
    assert soft_antecedent_loss(scores, unmatched)[0] == 0.0


def test_soft_targets_land_in_the_slot_of_their_antecedent_on_random_rows():
    """Each teacher pair goes to the column of the student's slot holding that antecedent,
    whatever the order of the slots; pairs the student cannot choose are dropped."""
    rng = numpy.random.default_rng(0)
    n, k = 12, 4
    spans = [(2 * i, 2 * i + 1) for i in range(n)]
    antecedents = numpy.zeros((n, k), dtype="int64")
    rows = numpy.full((n, 1 + k), MASKED_SCORE, dtype="float32")
    rows[:, 0] = 0.0
    for i in range(1, n):
        earlier = rng.permutation(i)[:k]  # the student's slots, in no particular order
        antecedents[i, : len(earlier)] = earlier
        rows[i, 1 : 1 + len(earlier)] = rng.normal(size=len(earlier))
    scores = _scores(rows, antecedents, spans)
    teacher_antecedents = [sorted(rng.permutation(i)[: min(i, 3)].tolist()) for i in range(n)]
    probs = [[0.2] * len(a) for a in teacher_antecedents]
    targets = AntecedentTargets(mentions=spans, null=[1.0 - sum(p) for p in probs],
                                antecedents=teacher_antecedents, probs=probs)
    _, grad = soft_antecedent_loss(scores, targets)
    for i in range(1, n):
        seen = {int(a): slot for slot, a in enumerate(antecedents[i]) if rows[i, 1 + slot] > -1e3}
        kept = [a for a in teacher_antecedents[i] if a in seen]
        expected = numpy.zeros(1 + k)
        expected[0] = targets.null[i]
        for a in kept:
            expected[1 + seen[a]] = 0.2
        expected /= expected.sum()
        logits = numpy.where(rows[i] > -1e3, rows[i], -numpy.inf)
        p = numpy.exp(logits - logits.max())
        p /= p.sum()
        assert grad[i] == pytest.approx(p - expected, abs=1e-5), i


def test_silver_round_trip_with_soft_targets(teacher_dir, unlabeled, tmp_path):
    teacher = load_pipeline(str(teacher_dir))
    texts = [t for t in TEXTS if t[1]]  # the reader of unlabeled text drops empty ones
    expected = label_texts(teacher, texts, soft=SOFT)
    with keeping_scores(teacher) as kept:
        doc = teacher(TEXTS[0][1])
        scores = kept[id(doc)]
    assert len(scores.kept) > 0
    stats = make_silver_corpus(str(teacher_dir), unlabeled, tmp_path / "silver", max_texts=4,
                               max_words=100, seed=None, shard_size=2, soft=True)
    assert stats["texts"] == 3 and stats["shards"] == 2
    back = list(read_silver(tmp_path / "silver"))
    assert [get_doc_id(d)["name"] for d in back] == ["a", "b", "d"]
    assert [d.text for d in back] == [text for _, text in texts]
    assert [get_clusters(d) for d in back] == [get_clusters(d) for d in expected]
    assert sum(map(len, (get_clusters(d) for d in back))) > 0
    for got, want in zip(back, expected):
        assert get_antecedent_targets(got) == get_antecedent_targets(want)
    first = get_antecedent_targets(back[0])
    assert len(first.mentions) == len(scores.kept)
    assert any(first.antecedents) and all(
        n + sum(p) <= 1.0 + 1e-3 for n, p in zip(first.null, first.probs)
    )
    # the training reader sees the same docs in the directory (the manifest is not data)
    assert [d.text for d in read_docs(tmp_path / "silver")] == [d.text for d in back]
    # an empty text through the writer: a doc without words, mentions or clusters
    write_silver(lambda batch: label_texts(teacher, batch, soft=SOFT), [TEXTS[2]],
                 tmp_path / "empty", {"teacher": "t", "soft": True, **SOFT}, shard_size=5)
    (empty,) = read_silver(tmp_path / "empty")
    assert len(empty) == 0 and get_antecedent_targets(empty).mentions == []


def test_hard_silver_has_no_soft_targets(teacher_dir, unlabeled, tmp_path):
    make_silver_corpus(str(teacher_dir), unlabeled, tmp_path / "silver", max_texts=2,
                       max_words=100, seed=0)
    back = list(read_silver(tmp_path / "silver"))
    assert len(back) == 2 and all(get_antecedent_targets(d) is None for d in back)
    # the soft settings do not shape hard labels: another --top-k goes on with them
    again = make_silver_corpus(str(teacher_dir), unlabeled, tmp_path / "silver", max_texts=2,
                               max_words=100, seed=0, top_k=3)
    assert again["labelled_now"] == 0


def test_a_stopped_or_longer_run_labels_only_what_is_missing(teacher_dir, unlabeled, tmp_path):
    out = tmp_path / "silver"
    args = dict(max_words=100, seed=0, shard_size=1, soft=True)
    first = make_silver_corpus(str(teacher_dir), unlabeled, out, max_texts=2, **args)
    assert first["shards"] == 2 and first["labelled_now"] > 0
    again = make_silver_corpus(str(teacher_dir), unlabeled, out, max_texts=2, **args)
    assert again["labelled_now"] == 0 and again["teacher_words_per_second"] is None
    more = make_silver_corpus(str(teacher_dir), unlabeled, out, max_texts=3, **args)
    docs = list(read_silver(out))
    assert more["shards"] == 3 and more["labelled_now"] == len(docs[2])  # the added text alone
    names = [get_doc_id(d)["name"] for d in docs]
    assert len(names) == len(set(names)) == 3
    # a shard left half-written by a stopped run is neither listed nor read
    (out / "silver-00003.partial").write_bytes(b"half")
    assert len(read_docs(out)) == 3
    with pytest.raises(ValueError, match="CE272"):
        make_silver_corpus(str(teacher_dir), unlabeled, out, max_texts=3,
                           **{**args, "soft": False})
    with pytest.raises(ValueError, match="CE272"):  # another sample
        make_silver_corpus(str(teacher_dir), unlabeled, out, max_texts=3, **{**args, "seed": 1})
    (out / "silver-00001.spacy").unlink()
    with pytest.raises(ValueError, match="CE271.*silver-00001"):
        list(read_silver(out))
    (out / MANIFEST.format(prefix="silver")).write_text("{not json", encoding="utf8")
    with pytest.raises(ValueError, match="CE271"):
        list(read_silver(out))
    with pytest.raises(ValueError, match="CE271"):
        list(read_silver(tmp_path / "nothing"))


def test_malformed_soft_targets_name_the_document():
    doc = spacy.blank("en")("One two")
    doc.user_data["coref_doc_name"] = "story-7"
    set_antecedent_targets(doc, AntecedentTargets([(0, 1)], [1.0], [[]], [[]]))
    doc.user_data["coref_teacher_antecedents"]["antecedents"] = [[0]]  # itself
    doc.user_data["coref_teacher_antecedents"]["probs"] = [[0.5]]
    with pytest.raises(ValueError, match="CE270.*story-7"):
        get_antecedent_targets(doc)
    doc.user_data["coref_teacher_antecedents"] = {"mentions": [[0, 1]]}
    with pytest.raises(ValueError, match="CE270.*story-7"):
        get_antecedent_targets(doc)


def test_soft_target_weight_is_checked():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match="CE118"):
        nlp.add_pipe("coref_cluster", config={"soft_target_weight": 1.5})


def test_a_distillation_step_on_soft_targets_lowers_their_loss(teacher_dir):
    teacher = load_pipeline(str(teacher_dir))
    silver = label_texts(teacher, [TEXTS[0], TEXTS[1], TEXTS[3]], soft=SOFT)
    fix_random_seed(1)
    student = spacy.blank("en")
    config = {
        "hidden_width": 16,
        "candidates": "spans",
        "max_span_width": 2,
        "tok2vec": {"width": 16, "depth": 1, "embed_size": 200},
    }
    pipe = student.add_pipe("coref_cluster", config={"model": config, "soft_target_weight": 1.0})
    examples = [Example(student.make_doc(d.text), d) for d in silver]
    optimizer = student.initialize(lambda: examples)

    def soft_loss() -> float:
        scores = pipe.model.predict([eg.predicted for eg in examples])
        return sum(
            soft_antecedent_loss(s, get_antecedent_targets(eg.reference))[0]
            for s, eg in zip(scores, examples)
        )

    before = soft_loss()
    assert before > 0
    # the component's loss at weight 1 is the soft loss alone, averaged over the docs
    scores = pipe.model.predict([eg.predicted for eg in examples])
    assert pipe.get_loss(examples, scores)[0] == pytest.approx(before / len(examples), rel=1e-4)
    pipe.cfg["soft_target_weight"] = 0.0
    assert pipe.get_loss(examples, scores)[0] != pytest.approx(before / len(examples), rel=1e-2)
    pipe.cfg["soft_target_weight"] = 1.0
    for _ in range(8):
        student.update(examples, sgd=optimizer, drop=0.0)
    assert soft_loss() < 0.8 * before


def _retrained(teacher_dir, path):
    """A copy of the teacher at `path` with other weights (a retrained teacher)."""
    teacher = spacy.load(teacher_dir)
    model = teacher.get_pipe("coref_cluster").model
    node = next(n for n in model.walk() if n.has_param("W"))
    node.set_param("W", node.get_param("W") + 0.01)
    teacher.to_disk(path)
    return path


def test_the_teacher_identity_names_its_weight_files(teacher_dir, tmp_path):
    teacher = load_pipeline(str(teacher_dir))
    identity = teacher_identity(teacher, str(teacher_dir))
    meta = json.loads((teacher_dir / "meta.json").read_text(encoding="utf8"))
    assert identity["name"] == str(teacher_dir)
    assert (identity["pipeline"], identity["version"]) == (meta["name"], meta["version"])
    assert identity["weight_files"] == ["coref_cluster/model"]
    model_digest = hashlib.sha256((teacher_dir / "coref_cluster" / "model").read_bytes())
    whole = hashlib.sha256(b"coref_cluster/model\0" + model_digest.digest()).hexdigest()
    assert identity["weights_sha256"] == whole == weights_digest(teacher_dir)[0]
    # the same weights elsewhere are the same teacher; other weights are another
    copy = tmp_path / "copy"
    teacher.to_disk(copy)
    assert weights_digest(copy)[0] == whole
    assert weights_digest(_retrained(teacher_dir, tmp_path / "other"))[0] != whole
    # an encoder's changed weights count too (the accurate pipeline's)
    (copy / "encoder_changes.safetensors").write_bytes(b"weights")
    digest, files = weights_digest(copy)
    assert files == ["coref_cluster/model", "encoder_changes.safetensors"] and digest != whole
    # the shipped accurate pipeline: its coref_cluster weights and its encoder's changes
    assert weights_digest(SHIPPED_PIPELINES["accurate"])[1] == [
        "coref_cluster/model", "encoder_changes.safetensors"]


FAKE_TEACHER = {"name": "accurate", "pipeline": "coref_mpnet_accurate", "version": "0.3.0",
                "weights_sha256": "ab" * 32, "weight_files": ["coref_cluster/model"]}


def _fake_label(batch):
    nlp = spacy.blank("en")
    return [silver_doc(nlp(text), name) for name, text in batch]


def test_silver_shards_keep_the_teachers_identity(tmp_path):
    out, texts = tmp_path / "silver", [("a", "One text."), ("b", "Another one."), ("c", "More.")]
    run = {"teacher": FAKE_TEACHER, "soft": False}
    write_silver(_fake_label, texts[:2], out, run, shard_size=1)
    manifest = json.loads((out / "silver.json").read_text(encoding="utf8"))
    assert manifest["teacher"] == FAKE_TEACHER and manifest["version"] == 2
    assert silver_teacher(out) == FAKE_TEACHER
    docs = list(read_silver(out))
    assert [get_silver_teacher(d) for d in docs] == [FAKE_TEACHER] * 2
    assert get_silver_teacher(spacy.blank("en")("x")) is None
    # the same weights under another name go on; other weights are refused, naming both
    renamed = {**FAKE_TEACHER, "name": "spacy_coref/accurate_model"}
    more = write_silver(_fake_label, texts, out, {**run, "teacher": renamed}, shard_size=1)
    assert more.done == 3 and silver_teacher(out)["name"] == "spacy_coref/accurate_model"
    other = {**FAKE_TEACHER, "weights_sha256": "cd" * 32}
    with pytest.raises(ValueError, match=r"CE274.*silver.json.*abababab.*cdcdcdcd.*--relabel"):
        write_silver(_fake_label, texts, out, {**run, "teacher": other}, shard_size=1)
    assert silver_teacher(out)["weights_sha256"] == "ab" * 32  # nothing was changed
    # unless asked to label the set again: its old shards go
    (out / "silver-00002.partial").write_bytes(b"half")
    again = write_silver(_fake_label, texts[:1], out, {**run, "teacher": other}, shard_size=1,
                         relabel=True)
    assert again.done == 1 and silver_teacher(out) == other
    assert sorted(p.name for p in out.iterdir()) == ["silver-00000.spacy", "silver.json"]
    assert [get_doc_id(d)["name"] for d in read_docs(out)] == ["a"]


def test_an_older_manifest_reads_with_an_unknown_teacher(tmp_path):
    out, texts = tmp_path / "silver", [("a", "One text."), ("b", "Another one.")]
    name = "default (coref_default 0.2.0, weights 0123456789abcdef)"  # a version 1 manifest
    write_silver(_fake_label, texts, out, {"teacher": name, "soft": False}, shard_size=1)
    manifest = json.loads((out / "silver.json").read_text(encoding="utf8"))
    manifest["version"] = 1
    (out / "silver.json").write_text(json.dumps(manifest), encoding="utf8")
    unknown = {"name": name, "pipeline": None, "version": None, "weights_sha256": None,
               "weight_files": None}
    assert silver_teacher(out) == unknown
    assert [get_silver_teacher(d) for d in read_silver(out)] == [unknown] * 2
    # the same record goes on; a teacher whose weights are known cannot vouch for it
    assert write_silver(_fake_label, texts, out, {"teacher": name, "soft": False},
                        shard_size=1).done == 2
    with pytest.raises(ValueError, match="CE274.*unknown"):
        write_silver(_fake_label, texts, out, {"teacher": FAKE_TEACHER, "soft": False},
                     shard_size=1)


def test_a_silver_set_goes_on_with_its_own_teacher_only(teacher_dir, unlabeled, tmp_path):
    out = tmp_path / "silver"
    args = dict(max_words=100, seed=0, shard_size=1)
    make_silver_corpus(str(teacher_dir), unlabeled, out, max_texts=2, **args)
    recorded = silver_teacher(out)
    assert recorded["weights_sha256"] == weights_digest(teacher_dir)[0]
    assert recorded["name"] == str(teacher_dir) and recorded["version"]
    other = _retrained(teacher_dir, tmp_path / "retrained")
    with pytest.raises(ValueError, match="CE274"):
        make_silver_corpus(str(other), unlabeled, out, max_texts=3, **args)
    stats = make_silver_corpus(str(other), unlabeled, out, max_texts=3, relabel=True, **args)
    assert stats["shards"] == 3 and stats["labelled_now"] > 0
    assert silver_teacher(out)["weights_sha256"] == weights_digest(other)[0]
    assert stats["teacher"]["weights_sha256"] == weights_digest(other)[0]


def test_gold_documents_keep_their_clusters_and_gain_the_teachers_distributions(
    teacher_dir, unlabeled, tmp_path, shared_data
):
    gold = tmp_path / "gold.spacy"
    write_docs(read_docs(shared_data / "gap" / "gap-validation.tsv")[:3], gold)
    stats = label_gold_corpus(str(teacher_dir), gold, tmp_path / "soft", shard_size=2, **SOFT)
    assert stats["texts"] == 3 and stats["shards"] == 2 and stats["soft"] == "gold"
    before, after = read_docs(gold), list(read_silver(tmp_path / "soft", prefix="gold"))
    assert [get_clusters(d) for d in after] == [get_clusters(d) for d in before]
    assert [get_doc_id(d) for d in after] == [get_doc_id(d) for d in before]
    assert [sorted(d.spans) for d in after] == [sorted(d.spans) for d in before]  # GAP's spans
    teacher = load_pipeline(str(teacher_dir))
    for doc in after:
        with keeping_scores(teacher) as kept:
            predicted = teacher(doc.text)
            n_kept = len(kept[id(predicted)].kept)
        assert len(get_antecedent_targets(doc).mentions) == n_kept > 0
    again = label_gold_corpus(str(teacher_dir), gold, tmp_path / "soft", shard_size=2, **SOFT)
    assert again["labelled_now"] == 0
    # silver texts beside them, under their own name: the training reader reads both sets
    make_silver_corpus(str(teacher_dir), unlabeled, tmp_path / "soft", max_texts=2,
                       max_words=100, seed=0, soft=True)
    assert {p.name for p in (tmp_path / "soft").glob("*.json")} >= {"gold.json", "silver.json"}
    assert len(read_docs(tmp_path / "soft")) == 3 + 2
