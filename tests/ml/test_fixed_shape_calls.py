"""What batch invariance rests on, checked on the shipped encoders on whatever CPU runs the
tests: a row's output in a call of a fixed shape, on one thread, does not depend on the other
rows of the call nor on its own position there (`run_fixed_shape_calls`); and the runner gives
every segment the output it gets alone, with any companions and any number of workers.

The row count alone is not enough: on an Intel Xeon with AMX a bf16 row computed alone and
among 1 to 15 others of its width differed in most widths (scripts/row_count_invariance.py
prints that table for the machine it runs on)."""
import threading

import pytest
import torch
from spacy_transformers.data_classes import WordpieceBatch

from spacy_coref.benchmark.systems import load_coref, load_fast
from spacy_coref.encoders.mpnet_parts import PackagedEncoderError
from spacy_coref.ml.segment_batching import invariant_width
from spacy_coref.ml.segment_transformer import (
    DEFAULT_INVARIANT_CALL_ROWS,
    build_segment_transformer,
    predict_directly,
    run_fixed_shape_calls,
)
from spacy_coref.ml.single_threaded import one_torch_thread, run_single_threaded

PRECISIONS = ("fp32", "bf16")


@pytest.fixture(
    scope="module", params=["default", "fast", pytest.param("accurate", marks=pytest.mark.slow)]
)
def hf_model(request):
    """The HF encoder of a shipped pipeline (the accurate one's MPNet where it is installed:
    `spacy-coref download accurate`)."""
    if request.param == "fast":
        nlp = load_fast(precision="fp32")
    else:
        pipeline = "accurate" if request.param == "accurate" else None
        try:
            nlp = load_coref(precision="fp32", pipeline=pipeline)
        except PackagedEncoderError as error:
            pytest.skip(str(error))
    return nlp.get_pipe("coref").inner.get_pipe("transformer").model.transformer.eval()


def encode(hf_model, ids, mask, precision):
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision == "bf16"):
        return hf_model(input_ids=ids, attention_mask=mask).last_hidden_state


def random_rows(n_rows, width, seed):
    generator = torch.Generator().manual_seed(seed)
    ids = torch.randint(1000, 20000, (n_rows, width), generator=generator)
    mask = torch.ones_like(ids)
    for i in range(n_rows):  # a different share of padding in every row
        mask[i, width - (7 * i + seed) % (width // 2) :] = 0
    return ids, mask


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("width", [32, 64, 128, 256, 512])
def test_a_row_of_a_fixed_shape_call_ignores_its_companions(hf_model, width, precision):
    n_rows = 4 if width < 512 else DEFAULT_INVARIANT_CALL_ROWS  # the shipped 2, and more
    target_ids, target_mask = random_rows(1, width, seed=width)
    found = []
    with one_torch_thread():
        for seed, position in ((1, 0), (2, n_rows // 2), (3, n_rows - 1)):
            ids, mask = random_rows(n_rows, width, seed)
            ids[position], mask[position] = target_ids[0], target_mask[0]
            found.append(encode(hf_model, ids, mask, precision)[position])
    assert all(torch.equal(found[0], other) for other in found[1:])


def wordpiece_batch(ids, mask):
    lengths = mask.sum(dim=1).tolist()
    return WordpieceBatch(
        strings=[["x"] * n for n in lengths],
        input_ids=ids.numpy(),
        attention_mask=mask.numpy(),
        lengths=lengths,
        token_type_ids=None,
    )


@pytest.mark.parametrize("precision", PRECISIONS)
def test_each_segment_gets_its_own_output_in_any_batch_on_any_workers(hf_model, precision):
    """Segments of 5 to 400 wordpieces: each alone, then all together on 1 and 2 workers, give
    the same bits, and the fill rows are dropped. (n_workers=0, the GPU's way, runs on the
    caller's threads: on a CPU with 2, a bf16 call can give other bits than on 1.)"""
    lengths = [400, 5, 37, 37, 120, 64, 250, 33, 9, 300]
    n_cols = max(lengths)
    ids, mask = random_rows(len(lengths), n_cols, seed=11)
    mask[:] = 0
    for i, n in enumerate(lengths):
        mask[i, :n] = 1

    def autocast():
        return torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision == "bf16")

    def encode_call(wordpieces, _is_train):
        return predict_directly(hf_model, wordpieces, torch.device("cpu"))

    def run(rows, n_workers):
        longest = max(lengths[i] for i in rows)  # the batch is padded to its own longest
        sub = wordpiece_batch(ids[rows][:, :longest], mask[rows][:, :longest])
        output = run_fixed_shape_calls(
            encode_call, sub, 3, 512, context=autocast, n_workers=n_workers
        )
        return output.last_hidden_state

    alone = [run([i], 1)[0] for i in range(len(lengths))]
    # 37, 37, 33 and 64 share width 64 at 3 rows a call: one full call, one with 2 fill rows
    assert [invariant_width(n, 512) for n in (37, 33, 64)] == [64, 64, 64]
    for n_workers in (1, 2):
        together = run(list(range(len(lengths))), n_workers)
        assert together.shape[:2] == (len(lengths), n_cols)
        for i, n in enumerate(lengths):
            assert torch.equal(together[i, :n], alone[i][:n]), (n_workers, i)
            assert not together[i, invariant_width(n, 512) :].any()  # past its call: zeros
    reordered = [3, 9, 0, 1]
    subset = run(reordered, 2)
    for row, i in enumerate(reordered):
        assert torch.equal(subset[row, : lengths[i]], alone[i][: lengths[i]])


def test_single_threaded_calls_give_every_result_once_and_restore_the_threads():
    before = 2
    seen_threads = []

    def call(k):
        def run():
            seen_threads.append(torch.get_num_threads())
            return k * k
        return run

    saved = torch.get_num_threads()
    torch.set_num_threads(before)
    try:
        for n_workers in (0, 1, 2, 5):
            results = dict(run_single_threaded([call(k) for k in range(7)], n_workers))
            assert results == {k: k * k for k in range(7)}
            assert torch.get_num_threads() == before
    finally:
        torch.set_num_threads(saved)
    assert len(seen_threads) == 28 and set(seen_threads) == {1}  # one thread, wherever it ran


def test_an_error_in_a_call_reaches_the_caller_and_leaves_no_worker():
    def fails():
        raise ValueError("broken call")

    calls = [lambda: 1, fails, lambda: 3, lambda: 4]
    before = torch.get_num_threads()
    for n_workers in (1, 2):
        with pytest.raises(ValueError, match="broken call"):
            list(run_single_threaded(calls, n_workers))
        assert torch.get_num_threads() == before
    assert not [t for t in threading.enumerate() if t.name.startswith("spacy_coref-encoder")]


def test_a_call_without_rows_is_refused():
    with pytest.raises(ValueError, match="CE247"):
        build_segment_transformer("unused", lambda docs: docs, invariant_call_rows=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int64])
def test_rows_are_put_as_torch_puts_them(dtype):
    """The scatter of a call's rows into the full output (numpy row copies on the CPU) writes
    what torch's indexed assignment writes: rows in any order, a part narrower than the full
    width, a strided part, and a bf16 part into a float32 output."""
    from spacy_coref.ml.segment_transformer import _put_rows

    generator = torch.Generator().manual_seed(0)
    full_dtype = torch.float32 if dtype.is_floating_point else dtype
    source = (torch.randn(5, 9, 4, generator=generator) * 100).to(dtype)
    part = source[1:4, 2:8]  # [3, 6, 4], not contiguous
    index = torch.tensor([4, 0, 2])
    ours = torch.zeros((6, 7, 4), dtype=full_dtype)
    _put_rows(ours, index, part)
    expected = torch.zeros((6, 7, 4), dtype=full_dtype)
    expected[index, : part.shape[1]] = part.to(full_dtype)
    assert torch.equal(ours, expected) and ours[index, :6].abs().sum() > 0
    pooled = torch.zeros((6, 4), dtype=full_dtype)
    _put_rows(pooled, index, source[:3, 0])  # [rows, hidden] outputs
    assert torch.equal(pooled[index], source[:3, 0].to(full_dtype))
    if dtype.is_floating_point:  # a part that keeps its gradient, outside no_grad
        trained = torch.zeros((6, 4), dtype=full_dtype)
        _put_rows(trained, index, source[:3, 0].float().requires_grad_())
        assert torch.equal(trained, pooled) and not trained.requires_grad
