"""The benchmark's floor (a): windows that encode every wordpiece once, their sub-batches, and
the rows and ratios the benchmark reports per precision."""
from pathlib import Path

import numpy
import pytest
from transformers import AutoModel, AutoTokenizer

from spacy_coref.benchmark.floor import encode_windows, floor_windows, max_window
from spacy_coref.benchmark.length_bands import band_indices
from spacy_coref.benchmark.run import ratios
from spacy_coref.benchmark.systems import _timed_by_band
from spacy_coref.cli.benchmark import print_table
from spacy_coref.training.smoke import write_tiny_encoder

# made-up worker results, shared with the other benchmark tests
from fake_results import FLOOR, WINDOWS
from fake_results import fake_banded as _banded
from fake_results import fake_result as _result

PARAGRAPH = (
    "Ada Lovelace wrote the first program. She worked with Charles Babbage on his engine, and "
    "he admired her notes on it for years; the committee, which met on Tuesdays, disagreed. "
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path: Path = write_tiny_encoder(tmp_path_factory.mktemp("tiny_bert"), dropout=0.0)
    return AutoTokenizer.from_pretrained(str(path)), AutoModel.from_pretrained(str(path)).eval()


def _texts():
    return ["Hi.", PARAGRAPH * 30, "", PARAGRAPH, PARAGRAPH * 12]


def test_every_wordpiece_is_encoded_once_in_windows_of_at_most_512(tiny):
    tokenizer, model = tiny
    size = max_window(tokenizer, model)
    assert size == 512
    texts = _texts()
    windows, text_of = floor_windows(tokenizer, texts, size)
    assert max(len(window) for window in windows) <= 512
    assert sorted(text_of) == text_of  # consecutive windows per document
    for i, text in enumerate(texts):
        own = [window for window, j in zip(windows, text_of) if j == i]
        expected = tokenizer(text, add_special_tokens=False)["input_ids"]
        inner = [ids for window in own for ids in window[1:-1]]
        assert inner == expected  # each wordpiece once, in order, no overlap
        for window in own:
            assert window[0] == tokenizer.cls_token_id and window[-1] == tokenizer.sep_token_id
        # full windows, then one left-over; a document shorter than a window gives one window
        assert len(own) == -(-len(expected) // 510)
        assert all(len(window) == 512 for window in own[:-1])
    assert text_of.count(0) == 1 and text_of.count(3) == 1  # short documents
    assert text_of.count(1) >= 3 and 2 not in text_of  # long; empty: nothing to encode


def test_smaller_windows_and_the_model_bound(tiny):
    tokenizer, model = tiny
    windows, _ = floor_windows(tokenizer, [PARAGRAPH], 16)
    assert all(len(window) <= 16 for window in windows) and len(windows) > 2

    class Config:
        max_position_embeddings = 128

    class Small:
        config = Config()

    assert max_window(tokenizer, Small()) == 128


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_windows_of_all_docs_run_length_sorted_under_the_budget(tiny, precision):
    tokenizer, model = tiny
    windows, _ = floor_windows(tokenizer, _texts(), 512)
    planned = encode_windows(model, windows, pad_id=tokenizer.pad_token_id,
                             max_tokens_in_batch=1024, max_padding=1.0, precision=precision)
    lengths = numpy.asarray([len(window) for window in windows])
    assert sorted(numpy.concatenate(planned).tolist()) == list(range(len(windows)))
    for rows in planned:
        assert len(rows) * lengths[rows].max() <= 1024
    # the left-overs of different documents share a sub-batch
    assert any(len(rows) > 1 and lengths[rows].max() < 512 for rows in planned)


def test_rows_and_ratios_per_precision(capsys):
    results = {
        "parse": _result(5000.0, "fp32"),
        "runs": {
            precision: {
                "encoder": _result(speed, precision, **FLOOR),
                "encoder_windows": _result(0.8 * speed, precision, **WINDOWS),
                "coref": _result(0.7 * speed, precision),
            }
            for precision, speed in (("fp32", 6000.0), ("bf16", 12000.0))
        },
        "fastcoref": _result(2000.0, "fp32"),
    }
    results["ratios"] = ratios(results)
    assert results["ratios"]["fp32"]["coref_over_encoder"] == pytest.approx(0.7)
    assert results["ratios"]["bf16"]["coref_over_encoder_windows"] == pytest.approx(0.875)
    assert results["ratios"]["bf16"]["coref_over_fastcoref"] == pytest.approx(4.2)
    assert results["ratios"]["coref_bf16_over_encoder_fp32"] == pytest.approx(1.4)
    print_table(results)
    out = capsys.readouterr().out
    for row in ("(a) encoder once over each doc", "(a') encoder over the pipeline's own windows",
                "(b) coref on parsed docs", "(c) fastcoref"):
        assert f"{row}" in out
    assert out.count("[bf16]") >= 3 and "(b) bf16 / (a) fp32: 1.400" in out


def test_the_fast_pipeline_row_and_its_ratios(capsys):
    results = {
        "parse": _result(4000.0, "fp32"),
        "runs": {"fp32": {"encoder": _result(6000.0, "fp32", **FLOOR),
                          "encoder_windows": _result(5000.0, "fp32", **WINDOWS),
                          "coref": _result(4000.0, "fp32"),
                          "fast": _result(5000.0, "fp32")}},
        "fastcoref": _result(2000.0, "fp32"),
    }
    results["ratios"] = ratios(results)
    assert results["ratios"]["fp32"]["fast_over_fastcoref"] == pytest.approx(2.5)
    # parse at 4,000 and coref at 4,000 words/s together run at 2,000
    assert results["ratios"]["fp32"]["fast_over_coref_with_parse"] == pytest.approx(2.5)
    print_table(results)
    out = capsys.readouterr().out
    assert "(d) fast pipeline from raw text" in out and "(d)/(c) 2.500" in out


def test_length_bands_hold_each_document_once():
    n_words = [120, 2400, 499, 500, 1999, 2000, 0]
    bands = dict(band_indices(n_words))
    assert bands == {"under 500": [0, 2, 6], "500-2,000": [3, 4], "over 2,000": [1, 5]}
    assert dict(band_indices([30, 40])) == {"under 500": [0, 1]}  # empty bands left out


def test_each_band_is_timed_apart_and_the_total_holds_every_document():
    seen = []
    result, outputs = _timed_by_band([10, 3000, 20], lambda chosen: seen.append(chosen) or chosen)
    assert seen == [[0, 2], [1]] and outputs == [[0, 2], [1]]
    assert (result["words"], result["docs"]) == (3030, 3)
    assert result["by_length"]["under 500"]["words"] == 30
    assert result["by_length"]["over 2,000"]["docs"] == 1
    assert sum(band["seconds"] for band in result["by_length"].values()) <= result["seconds"]


def test_ratios_and_rows_by_length(capsys):
    floor = {"under 500": 6000.0, "over 2,000": 5000.0}
    results = {
        "parse": _banded(5000.0, "fp32", {"under 500": 5000.0, "over 2,000": 5000.0}),
        "runs": {
            "fp32": {"encoder": _banded(5500.0, "fp32", floor, **FLOOR),
                     "encoder_windows": _result(5000.0, "fp32", **WINDOWS),
                     "coref": _banded(4000.0, "fp32", {"under 500": 4200.0, "over 2,000": 3000.0}),
                     "fast": _banded(6000.0, "fp32", {"under 500": 7200.0, "over 2,000": 5500.0})},
            "bf16": {"encoder": _banded(9000.0, "bf16", floor, **FLOOR),
                     "encoder_windows": _result(8000.0, "bf16", **WINDOWS),
                     "coref": _banded(6000.0, "bf16", {"under 500": 6600.0, "over 2,000": 5000.0}),
                     "fast": _banded(9000.0, "bf16", {"under 500": 9000.0, "over 2,000": 6000.0})},
        },
        "fastcoref": _banded(2000.0, "fp32", {"under 500": 2400.0, "over 2,000": 1500.0}),
    }
    results["ratios"] = ratios(results)
    by_length = results["ratios"]["by_length"]
    # both precisions over the float32 floor of the same band
    assert by_length["bf16"]["over 2,000"]["fast_over_encoder_fp32"] == pytest.approx(1.2)
    assert by_length["fp32"]["under 500"]["coref_over_encoder_fp32"] == pytest.approx(0.7)
    assert by_length["bf16"]["over 2,000"]["fast_over_fastcoref"] == pytest.approx(4.0)
    print_table(results)
    out = capsys.readouterr().out
    assert "words/s by document length" in out and "over 2,000" in out
    assert "(d)/(a) 1.200" in out and "5,500 (1)" in out
