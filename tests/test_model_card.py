"""The model card (spacy_coref.model_card, `spacy-coref model-card`, `export-default --card`),
the LICENSE file and the attribution file shipped beside the default model."""
import configparser
import json
from pathlib import Path

import pytest
import srsly
import yaml
from spacy.schemas import ModelMetaSchema, validate
from typer.testing import CliRunner

from spacy_coref import about, model_card as card_module
from spacy_coref.cli import app
from spacy_coref.cli.evaluate import machine_description
from spacy_coref.model_card import (
    LICENSES_FILE,
    SPACY_KEYS,
    licenses_markdown,
    model_card,
    read_performance,
    weights_license,
    write_model_card,
)
from spacy_coref.training import corpus

ROOT = Path(__file__).resolve().parents[1]
# a spaCy meta.json as `nlp.to_disk` writes it, with a key the coref stack reads
SPACY_META = {
    "lang": "en",
    "name": "pipeline",
    "version": "0.0.0",
    "spacy_version": ">=3.8.18,<3.9.0",
    "spacy_git_version": "4331199",
    "description": "",
    "license": "",
    "vectors": {"width": 0, "vectors": 0, "keys": 0, "name": None, "mode": "default"},
    "labels": {"transformer": [], "coref_mentions": [], "coref_cluster": []},
    "pipeline": ["transformer", "coref_mentions", "coref_cluster"],
    "components": ["transformer", "coref_mentions", "coref_cluster"],
    "disabled": [],
    "performance": {"tag_acc": 0.96, "coref_f": 0.52},
    "encoder_from_package": True,
}


def read_meta(path: Path) -> dict:
    """A meta.json as written (srsly's reader rounds floats in the last digit)."""
    return json.loads(path.read_text(encoding="utf8"))


def conll(base: float) -> dict:
    """CoNLL scores as `evaluate` writes them, every figure distinct and derived from `base`."""
    names = ("muc", "b3", "ceafe", "ceafm", "blanc", "lea")
    parts = {
        m: {"p": base + i + 0.1, "r": base + i + 0.2, "f": base + i + 0.3}
        for i, m in enumerate(names)
    }
    parts["mentions"] = {"p": base + 7.1, "r": base + 7.2, "f": base + 7.3}
    return {**parts, "conll_f1": base + 0.0123}


def gap(base: float) -> dict:
    names = ("overall", "masculine", "feminine")
    prf = {
        g: {"p": base + i, "r": base + i + 0.5, "f": base + i + 0.25} for i, g in enumerate(names)
    }
    return {**prf, "bias": 1.0 + base / 1000}


def evaluate_json(**fields) -> dict:
    empty = ("conll", "conll_singletons", "conll_without_singletons", "conll_oracle_mentions")
    metrics = dict.fromkeys(empty + ("gap", "gap_gold_mentions", "constraints"))
    metrics.update({"n_docs": 10, "n_words": 20438, "keep_singletons": False, "model": "default"})
    metrics["data"] = "corpus/dev/litbank.spacy"
    metrics.update(fields)
    return metrics


@pytest.fixture
def metrics_dir(tmp_path):
    path = tmp_path / "metrics"
    path.mkdir()
    litbank = evaluate_json(
        conll=conll(41.0),
        conll_singletons=conll(31.0),
        conll_without_singletons=conll(41.0),
        date="2026-12-01T10:00:00+00:00",
        machine="test box, 2 CPU cores",
    )
    # written with singletons kept: the card's main figures must be those without
    gum = evaluate_json(
        conll=conll(23.0),
        conll_singletons=conll(23.0),
        conll_without_singletons=conll(52.0),
        keep_singletons=True,
        n_docs=30,
        data="corpus/dev/gum.spacy",
    )
    gap_metrics = evaluate_json(gap=gap(61.0), gap_gold_mentions=gap(73.0), n_docs=454)
    for name, data in (("litbank", litbank), ("gum", gum), ("gap", gap_metrics)):
        (path / f"default_{name}.json").write_text(json.dumps(data), encoding="utf8")
    return path


@pytest.fixture
def model_dir(tmp_path):
    path = tmp_path / "model"
    path.mkdir()
    srsly.write_json(path / "meta.json", SPACY_META)
    return path


def test_card_lists_every_source_with_license_and_citation():
    card = model_card()
    sources = {source["name"]: source for source in card["sources"]}
    # fmt: off
    expected = {
        "LitBank (coreference layer)": ("CC BY 4.0", "Bamman, Olivia Lewke and Anya Mansoor"),
        "OntoGUM (GUM V11.1.0, OntoNotes scheme)": ("CC BY 4.0", "Zeldes (2017). The GUM Corpus"),
        "GAP": ("Apache-2.0", "Mind the GAP"),
        "sentence-transformers/all-MiniLM-L6-v2": ("Apache-2.0", "Sentence-BERT"),
        "en_core_web_sm": ("MIT", "spaCy: Industrial-strength"),
    }
    # fmt: on
    assert set(sources) == set(expected)
    for name, (license_name, citation) in expected.items():
        assert license_name in sources[name]["license"]
        assert citation in sources[name]["citation"]
        assert sources[name]["url"].startswith("https://")
    gum = sources["OntoGUM (GUM V11.1.0, OntoNotes scheme)"]
    assert "OntoGUM: Evaluating Contextualized SOTA" in gum["citation"]
    genres = gum["genres"].split(", ")
    assert genres == sorted(corpus.GUM_COMMERCIAL_GENRES)
    for genre in genres:  # each genre's text license is named
        assert f"{genre}: {corpus.GUM_GENRE_LICENSES[genre]}" in gum["license"]
    # spaCy's meta schema (checked by `spacy package`) wants string values in sources
    assert validate(ModelMetaSchema, {**SPACY_META, **card}) == []


def test_card_license_and_requirements():
    card = model_card(name="coref_test", version="9.8.7")
    assert card["license"] == "CC BY-SA 3.0"  # bio and voyage: Wikipedia, Wikivoyage
    assert "bio, voyage" in card["license_notes"] and "MIT" in card["license_notes"]
    assert (card["name"], card["version"]) == ("coref_test", "9.8.7")
    major, minor = about.__version__.split(".")[:2]
    assert card["requirements"] == [f"spacy-coref>={about.__version__},<{major}.{int(minor) + 1}.0"]
    assert model_card()["version"] == about.__version__
    assert "performance" not in card and "evaluation" not in card  # no metrics given
    assert card["notes"] == licenses_markdown(card)


def test_license_follows_the_genres(monkeypatch):
    assert model_card(gum_genres=["academic", "news"])["license"] == "CC BY 4.0"
    assert model_card(gum_genres=["voyage"])["license"] == "CC BY-SA 3.0"
    licenses = {**corpus.GUM_GENRE_LICENSES, "fiction": "CC BY-NC-SA 3.0"}
    monkeypatch.setattr(corpus, "GUM_GENRE_LICENSES", licenses)
    card = model_card(gum_genres=["fiction", "bio"])
    assert card["license"] == "CC BY-NC-SA 3.0"
    assert "allow commercial use" not in card["license_notes"]
    assert weights_license({"a": "CC BY 4.0", "b": "CC BY-SA 4.0"}) == "CC BY-SA 4.0"


def test_genre_tables_are_read_at_call_time(monkeypatch):
    monkeypatch.setattr(corpus, "GUM_GENRE_LICENSES", {"news": "CC BY 2.5", "x": "CC BY-SA 9"})
    monkeypatch.setattr(corpus, "GUM_COMMERCIAL_GENRES", ("news", "x"))
    card = model_card()
    assert card["license"] == "CC BY-SA 9"
    assert card["sources"][1]["genres"] == "news, x"


def test_the_fast_pipelines_card():
    fast, default = model_card(name="coref_minilm_fast", kind="fast"), model_card()
    assert fast["name"] == "coref_minilm_fast"
    assert "needs no parser" in fast["description"] and '"pipeline": "fast"' in fast["description"]
    assert fast["description"] != default["description"]
    assert fast["sources"] == default["sources"] and fast["license"] == default["license"]
    with pytest.raises(ValueError, match="CE356"):
        model_card(kind="tiny")


def test_unknown_genre_and_bad_name():
    with pytest.raises(ValueError, match=r"CE353.*essay"):
        model_card(gum_genres=["essay"])
    with pytest.raises(ValueError, match="CE351"):
        model_card(name="coref-minilm")
    with pytest.raises(ValueError, match="CE351"):
        model_card(version=" ")


def test_performance_comes_from_the_metrics_files(metrics_dir):
    card = model_card(metrics_dir=metrics_dir)
    perf = card["performance"]
    assert perf["coref_litbank_dev_conll_f"] == round(41.0123 / 100, 4)
    assert perf["coref_litbank_dev_muc_f"] == round(41.3 / 100, 4)
    assert perf["coref_litbank_dev_lea_f"] == round(46.3 / 100, 4)
    assert perf["coref_litbank_dev_singletons_kept_f"] == round(31.0123 / 100, 4)
    assert perf["coref_ontogum_dev_conll_f"] == round(52.0123 / 100, 4)  # singletons removed
    assert perf["coref_ontogum_dev_mentions_r"] == round(59.2 / 100, 4)
    assert perf["coref_gap_validation_overall_f"] == round(61.25 / 100, 4)
    assert perf["coref_gap_validation_feminine_f"] == round(63.25 / 100, 4)
    assert perf["coref_gap_validation_gold_two_mention_f"] == round(73.25 / 100, 4)
    assert all(isinstance(v, float) and 0 < v < 1 for v in perf.values())
    litbank, gum, gap_entry = card["evaluation"]
    assert (litbank["dataset"], litbank["split"]) == ("LitBank", "fold-0 dev")
    assert litbank["conll_f"] == 41.01 and litbank["n_docs"] == 10
    assert litbank["date"] == "2026-12-01T10:00:00+00:00"
    assert litbank["machine"] == "test box, 2 CPU cores"
    assert litbank["metrics_file"] == str(metrics_dir / "default_litbank.json")
    assert gum["dataset"] == "OntoGUM" and gum["split"].startswith("dev")
    assert gum["date"] is None and gum["machine"] is None  # not recorded in the file
    assert gap_entry["split"].startswith("validation")
    assert gap_entry["bias"] == round(1.061, 2) and gap_entry["n_docs"] == 454
    assert validate(ModelMetaSchema, {**SPACY_META, **card}) == []


def test_missing_or_wrong_metrics_files(metrics_dir):
    (metrics_dir / "default_gum.json").unlink()
    with pytest.raises(ValueError, match=r"CE350.*default_gum\.json.*OntoGUM dev"):
        read_performance(metrics_dir)
    with pytest.raises(ValueError, match=r"CE350.*other_litbank\.json"):
        model_card(metrics_dir=metrics_dir, metrics_prefix="other")
    # GAP scores where LitBank's CoNLL scores belong
    gap_file = metrics_dir / "default_gap.json"
    (metrics_dir / "default_litbank.json").write_text(gap_file.read_text(), encoding="utf8")
    with pytest.raises(ValueError, match=r"CE352.*LitBank fold-0 dev.*'conll'"):
        read_performance(metrics_dir)
    (metrics_dir / "default_litbank.json").write_text("{not json", encoding="utf8")
    with pytest.raises(ValueError, match="CE281"):
        read_performance(metrics_dir)


def test_meta_keeps_spacys_keys(model_dir, metrics_dir):
    card = model_card(metrics_dir=metrics_dir)
    write_model_card(model_dir, card)
    meta = read_meta(model_dir / "meta.json")
    for key in SPACY_KEYS + ("encoder_from_package",):
        assert meta[key] == SPACY_META[key]
    assert meta["name"] == "coref_minilm" and meta["license"] == "CC BY-SA 3.0"
    assert meta["performance"] == card["performance"]  # the training-time figures replaced
    assert meta["sources"] == card["sources"]
    licenses = (model_dir / LICENSES_FILE).read_text(encoding="utf8")
    assert licenses == card["notes"]
    assert validate(ModelMetaSchema, meta) == []


def test_meta_into_another_file(model_dir, tmp_path):
    output = tmp_path / "training" / "package_meta.json"
    write_model_card(model_dir, model_card(), output=output)
    assert read_meta(model_dir / "meta.json") == SPACY_META
    assert not (model_dir / LICENSES_FILE).exists()
    meta = read_meta(output)
    assert meta["lang"] == "en" and meta["license"] == "CC BY-SA 3.0"
    assert meta["performance"] == SPACY_META["performance"]  # no metrics: left as it was
    with pytest.raises(ValueError, match="CE354"):
        write_model_card(tmp_path, model_card())
    (model_dir / "meta.json").write_text("[1, 2]", encoding="utf8")
    with pytest.raises(ValueError, match="CE355"):
        write_model_card(model_dir, model_card())


def test_model_card_cli(model_dir, metrics_dir):
    runner = CliRunner()
    args = ["model-card", str(model_dir), "--metrics", str(metrics_dir), "--version", "1.2.3"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    meta = read_meta(model_dir / "meta.json")
    assert meta["version"] == "1.2.3" and meta["pipeline"] == SPACY_META["pipeline"]
    assert meta["performance"]["coref_litbank_dev_conll_f"] == round(41.0123 / 100, 4)
    (metrics_dir / "default_gap.json").unlink()
    result = runner.invoke(app, ["model-card", str(model_dir), "--metrics", str(metrics_dir)])
    assert result.exit_code == 1
    assert "CE350" in result.output
    result = runner.invoke(app, ["model-card", str(model_dir), "--genre", "essay"])
    assert result.exit_code == 1 and "CE353" in result.output


def test_export_default_card_fails_before_exporting(tmp_path):
    trained = tmp_path / "trained"
    trained.mkdir()  # never read: the card is checked first
    output = tmp_path / "export"
    args = ["export-default", str(trained), str(output), "--card-metrics", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and "CE350" in result.output
    assert not output.exists()


def test_license_file_and_setup_cfg():
    text = (ROOT / "LICENSE").read_text(encoding="utf8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 spacy-coref developers" in text
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg")
    assert setup["metadata"]["license"] == "MIT"
    assert setup["metadata"]["license_files"].split() == ["LICENSE"]
    assert "default_model/**/*" in setup["options.package_data"]["spacy_coref"]
    assert "fast_model/**/*" in setup["options.package_data"]["spacy_coref"]


def test_default_model_attribution_file():
    text = (ROOT / "spacy_coref" / "default_model" / LICENSES_FILE).read_text(encoding="utf8")
    card = model_card()
    assert f"**Model weights:** {card['license']}." in text
    for source in card["sources"]:
        assert f"### {source['name']}" in text
        assert source["license"] in text and source["citation"] in text


def test_project_writes_the_card():
    project = yaml.safe_load((ROOT / "project.yml").read_text(encoding="utf8"))
    workflow = project["workflows"]["all"]
    assert workflow.index("model-card") == workflow.index("evaluate") + 1
    commands = {command["name"]: command for command in project["commands"]}
    card_script = " ".join(commands["model-card"]["script"])
    assert "model-card spacy_coref/default_model --metrics metrics" in card_script
    for name in ("litbank", "gum", "gap"):  # the files `evaluate` writes
        assert f"metrics/default_{name}.json" in commands["evaluate"]["outputs"]
        assert f"metrics/default_{name}.json" in commands["model-card"]["deps"]
    package = " ".join(commands["package"]["script"])
    assert "--output training/package_meta.json" in package
    assert "--meta-path training/package_meta.json" in package
    assert "--card" in " ".join(commands["export-default"]["script"])
    # the fast pipeline: exported with its card, evaluated, its scores on the card
    fast = " ".join(commands["fast"]["script"])
    assert "export-default training/fast/model-best spacy_coref/fast_model" in fast
    assert "--kind fast" in fast and "model-card spacy_coref/fast_model" in fast
    for name in ("litbank", "gum", "gap"):
        assert f"metrics/fast_{name}.json" in commands["fast"]["outputs"]
        assert f"--output metrics/fast_{name}.json" in fast
    # fast-refresh: the shipped student goes on (its encoder and head) and is exported the same way
    refresh = " ".join(commands["fast-refresh"]["script"])
    assert "distill-encoder spacy_coref/fast_model" in refresh
    assert "--paths.init_coref spacy_coref/fast_model" in refresh
    assert "export-default training/fast_refresh/model-best spacy_coref/fast_model" in refresh
    assert "--kind fast" in refresh and "model-card spacy_coref/fast_model" in refresh


def test_machine_description():
    assert machine_description().endswith("CPU cores")
    assert card_module.ENCODER in model_card()["description"]
