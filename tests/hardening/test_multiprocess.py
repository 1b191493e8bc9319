"""`nlp.pipe(texts, n_process=2)` gives exactly the serial result, in a fresh interpreter (so a
deadlock of torch in forked workers fails the test by timeout instead of hanging it), and runs
give identical output across processes."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
from mixed_lengths import for_precision
from hardening_invariants import snapshot

WORKER = Path(__file__).with_name("multiprocess_worker.py")
TIMEOUT_S = 120
TEXTS = [
    "Marie Curie was born in Warsaw. She moved to Paris, where she met Pierre Curie.",
    "",
    "Anna met her brother. She told him that he had to come home.",
    " ",
    "The doctor said that she would call the patient when his results came in.",
    "\ufeffJohn\u00a0said he\u200b would come.\r\nHe did.",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467 Bob loves his family and they love him.",
    "he " * 40,
    "",
    "Mr. Smith and his wife arrived late. They apologised to their hosts.",
] * 4


def _run_worker(
    start_method: str, tmp_path: Path, texts: List[str] = TEXTS, precision: str = "fp32"
) -> dict:
    texts_path = tmp_path / "texts.json"
    texts_path.write_text(json.dumps(texts), encoding="utf8")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    try:
        done = subprocess.run(
            [sys.executable, str(WORKER), start_method, str(texts_path), precision],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"nlp.pipe(n_process=2) with {start_method} did not finish in {TIMEOUT_S} s")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _equal_up_to_rounding(docs_a: List[dict], docs_b: List[dict]) -> None:
    """Identical docs, but pair scores only to float32 rounding, which changes with torch's
    number of threads (not with the batch: tests/pipeline/test_batch_invariance.py)."""
    for a, b in zip(docs_a, docs_b):
        assert {**a, "scores": None} == {**b, "scores": None}
        assert [s[:4] for s in a["scores"]] == [s[:4] for s in b["scores"]]
        for score_a, score_b in zip(a["scores"], b["scores"]):
            assert score_a[4] == pytest.approx(score_b[4], rel=1e-4, abs=1e-4)
    assert len(docs_a) == len(docs_b)


def _check(result: dict, coref_nlp, *, exact: bool) -> None:
    assert len(TEXTS) == 40 and len(result["parallel"]) == len(TEXTS)
    if exact:  # forked workers run with one torch thread, as the serial reference does
        assert result["parallel"] == result["serial"]
    else:  # spawned workers start with torch's default threads
        _equal_up_to_rounding(result["parallel"], result["serial"])
    # spaCy's default batch size and torch's default threads: same up to rounding
    _equal_up_to_rounding(result["default"], result["serial"])
    # the multiprocess branch really ran: docs came back from two other processes
    assert len(result["workers"]) == 2 and result["parent"] not in result["workers"]
    assert result["alive_children"] == []
    for pid in result["workers"]:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # no worker left alive
    # another process (this one, with one torch thread) gives exactly the same output, at the
    # worker's precision (float32)
    coref = coref_nlp.get_pipe("coref")
    coref.use_precision("fp32")
    try:
        here = [json.loads(json.dumps(snapshot(d))) for d in coref_nlp.pipe(TEXTS, batch_size=4)]
    finally:
        coref.use_precision(None)
    assert here == result["serial"]
    assert any(doc["clusters"] for doc in here)


def test_n_process_2_equals_serial(tmp_path, coref_nlp):
    _check(_run_worker("fork", tmp_path), coref_nlp, exact=True)


def test_n_process_2_long_documents_in_bf16(tmp_path, mixed_length_texts):
    """Batch invariance across processes: 22 documents of mixed lengths (some over two encoder
    windows) in bf16, the shipped "auto" on CPUs with native bf16. The forked workers' output
    equals the serial one (one torch thread, batches of 4) bit for bit. With spaCy's default
    batch size and torch's default threads (two here) the clusters are the same and the scores
    equal to float32 rounding: the head's small float32 products sum in another order with
    another number of threads (up to 6e-6 on short docs; the encoder's output is the same)."""
    texts = for_precision(mixed_length_texts, "bf16")  # fewer where this CPU emulates bf16
    result = _run_worker("fork", tmp_path, texts, "bf16")
    assert len(result["workers"]) == 2 and len(result["serial"]) == len(texts)
    assert sum(len(doc["clusters"]) for doc in result["serial"]) > len(texts)
    assert result["parallel"] == result["serial"]
    _equal_up_to_rounding(result["default"], result["serial"])


@pytest.mark.slow
def test_n_process_2_with_spawn(tmp_path, coref_nlp):
    _check(_run_worker("spawn", tmp_path), coref_nlp, exact=False)


def test_torch_threads_are_limited_in_forked_children():
    """The fork hook that prevents the deadlock is installed on import of spacy_coref."""
    import torch

    import spacy_coref  # noqa: F401 (its import installs the hook)

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: report its thread count and leave without cleanup
            os.write(write, str(torch.get_num_threads()).encode())
            os._exit(0)
        os.close(write)
        os.waitpid(pid, 0)
        assert os.read(read, 16) == b"1"
        os.close(read)
    finally:
        torch.set_num_threads(before)
