"""Clear, coded errors instead of crashes deep inside spaCy or Thinc: no parser upstream, an
uninitialised `coref_cluster`, and corrupted or missing files of a saved coreference pipeline
(the error names the component and the file)."""

import shutil
from pathlib import Path

import pytest
import spacy
from hardening_invariants import BASE_MODEL
from spacy.training import Example

from spacy_coref.annotations import set_clusters, set_mentions
from spacy_coref.pipeline.coref import DEFAULT_PIPELINE_DIR

TEXT = "Anna met her brother. She told him to come home."
SMALL = {"model": {"hidden_width": 32, "tok2vec": {"width": 32, "depth": 2, "embed_size": 500}}}


# No parser upstream


@pytest.mark.parametrize("factory,code", [("coref", "CE111"), ("coref_mentions", "CE070")])
def test_pipeline_without_parser(factory, code):
    nlp = spacy.load(BASE_MODEL, exclude=["parser"])  # tagger and NER, but no dependencies
    nlp.add_pipe(factory)
    with pytest.raises(ValueError, match=f"{code}.*parse"):
        nlp(TEXT)
    with pytest.raises(ValueError, match=code):
        list(nlp.pipe([TEXT, TEXT]))
    assert nlp("").text == ""  # nothing to parse, nothing to complain about


def test_blank_pipeline_with_the_stack():
    nlp = spacy.blank("en")
    nlp.add_pipe("coref")
    with pytest.raises(ValueError, match="CE111"):
        nlp(TEXT)


# Uninitialised coref_cluster


def _uninitialised():
    nlp = spacy.blank("en")
    nlp.add_pipe("coref_cluster", config=SMALL)
    doc = nlp.make_doc("Alice saw her .")
    set_mentions(doc, [(0, 1), (2, 3)])
    reference = nlp.make_doc("Alice saw her .")
    set_clusters(reference, [[(0, 1), (2, 3)]])
    return nlp, doc, Example(doc, reference)


@pytest.mark.parametrize("use", ["call", "pipe", "predict", "update", "evaluate"])
def test_uninitialised_cluster_pipe(use):
    nlp, doc, example = _uninitialised()
    pipe = nlp.get_pipe("coref_cluster")
    run = {
        "call": lambda: pipe(doc),
        "pipe": lambda: list(pipe.pipe([doc])),
        "predict": lambda: pipe.predict([doc]),
        "update": lambda: nlp.update([example]),
        "evaluate": lambda: nlp.evaluate([example]),
    }[use]
    with pytest.raises(ValueError, match="CE101.*not initialized"):
        run()


def test_uninitialised_cluster_pipe_saved_and_loaded(tmp_path):
    nlp, doc, _ = _uninitialised()
    nlp.to_disk(tmp_path / "nlp")
    loaded = spacy.load(tmp_path / "nlp")
    with pytest.raises(ValueError, match="CE101"):
        loaded.get_pipe("coref_cluster")(doc)
    from_bytes = spacy.blank("en")
    from_bytes.add_pipe("coref_cluster", config=SMALL)
    from_bytes.from_bytes(nlp.to_bytes())
    with pytest.raises(ValueError, match="CE101"):
        from_bytes.get_pipe("coref_cluster")(doc)


# Corrupted or missing files


def _truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _zero(data: bytes) -> bytes:
    return bytes(len(data))


def _flip(data: bytes) -> bytes:
    flipped = bytearray(data)
    for i in range(0, len(flipped), max(1, len(flipped) // 50)):
        flipped[i] ^= 0xFF
    return bytes(flipped)


DAMAGE = {"truncated": _truncate, "zeroed": _zero, "flipped": _flip, "emptied": lambda d: b""}
# the file, the error code, and the component the message must name
FILES = [
    ("coref_cluster/model", "CE103", "coref_cluster"),
    ("coref_cluster/cfg", "CE221", "coref_cluster"),
    ("coref_mentions/cfg", "CE073", "coref_mentions"),
    ("config.cfg", "CE220", "coref"),
]


def _load_stack(pipeline: Path):
    nlp = spacy.load(BASE_MODEL)
    nlp.add_pipe("coref", config={"pipeline": str(pipeline)})
    return nlp(TEXT)  # the stack loads its weights on first use


@pytest.fixture
def model_copy(tmp_path) -> Path:
    path = tmp_path / "model"
    shutil.copytree(DEFAULT_PIPELINE_DIR, path)
    return path


@pytest.mark.parametrize("damage", list(DAMAGE))
@pytest.mark.parametrize("name,code,component", FILES)
def test_damaged_file_is_named(model_copy, name, code, component, damage):
    path = model_copy / name
    path.write_bytes(DAMAGE[damage](path.read_bytes()))
    with pytest.raises(ValueError, match=code) as error:
        _load_stack(model_copy)
    message = str(error.value)
    assert f"'{component}'" in message and str(path) in message


@pytest.mark.parametrize(
    "old,new,named",
    [
        ('factory = "coref_cluster"', 'factory = "coref_clusterx"', "coref_clusterx"),
        ("top_lambda = 1.0", 'top_lambda = "high"', "top_lambda"),
        ("top_lambda = 1.0", "top_lambda = 1.0\nwidth_of_nothing = 3", "width_of_nothing"),
    ],
)
def test_config_that_reads_but_does_not_build(model_copy, old, new, named):
    """A hand-edited config that is valid syntax but names an unknown factory or a bad setting
    is not called corrupted (CE220): CE222 passes on what spaCy says is wrong."""
    path = model_copy / "config.cfg"
    text = path.read_text(encoding="utf8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf8")
    with pytest.raises(ValueError, match="CE222") as error:
        _load_stack(model_copy)
    message = str(error.value)
    assert "'coref'" in message and str(path) in message and named in message


@pytest.mark.parametrize(
    "name,code,component",
    [
        ("coref_cluster/model", "CE104", "coref_cluster"),
        ("coref_cluster/cfg", "CE104", "coref_cluster"),
        ("coref_mentions/cfg", "CE073", "coref_mentions"),
        ("config.cfg", "CE113", "config.cfg"),
    ],
)
def test_missing_file_is_named(model_copy, name, code, component):
    (model_copy / name).unlink()
    with pytest.raises(ValueError, match=code) as error:
        _load_stack(model_copy)
    assert component in str(error.value) and str(model_copy) in str(error.value)


def test_missing_encoder_weights_are_named(model_copy):
    """The shipped default holds its fine-tuned encoder's weights (no marker that they come from
    the encoder package); without them the error names the file that is not there."""
    assert not (model_copy / "encoder_from_package").exists()
    (model_copy / "transformer" / "model").unlink()
    with pytest.raises(ValueError, match=r"CE104.*'coref'.*transformer"):
        _load_stack(model_copy)


def test_damaged_file_in_a_saved_host_pipeline(coref_nlp, tmp_path):
    """The same errors when the stack is loaded as part of a saved pipeline by spacy.load."""
    coref_nlp.to_disk(tmp_path / "nlp")
    model = tmp_path / "nlp" / "coref" / "coref_cluster" / "model"
    model.write_bytes(_truncate(model.read_bytes()))
    with pytest.raises(ValueError, match="CE103") as error:
        spacy.load(tmp_path / "nlp")
    assert str(model) in str(error.value)


def test_cluster_settings_that_are_not_an_object():
    nlp, _, _ = _uninitialised()
    pipe = nlp.get_pipe("coref_cluster")
    for data in (b"[]", b'"nI"', b'{"nI": "wide"}'):
        with pytest.raises(ValueError, match="CE221.*coref_cluster"):
            pipe._load_cfg(data, "cfg")
