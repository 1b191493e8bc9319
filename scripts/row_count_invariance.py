"""Why batch invariance fixes the shape and the threads of every encoder call, shown for the
shipped encoders on this CPU, in fp32 and bf16:

    python scripts/row_count_invariance.py

For each width, the first row (a quarter of it padding) is encoded alone and with 1, 3, 7 and
15 other rows of the same width, on the process's threads ("rows", True = bit-identical): on
an Intel Xeon with AMX many entries are False, since the BLAS picks its kernel by the product's
shape. Then the same row in calls of one fixed shape on one thread, among other companions and
at other positions ("fixed"), which `run_fixed_shape_calls` relies on and
tests/ml/test_fixed_shape_calls.py asserts; and one call of that shape on 1 thread against 2
("threads"), which is why each call runs on one (`single_threaded.py`).
"""
import torch

from spacy_coref.benchmark.systems import load_coref, load_fast
from spacy_coref.ml.segment_transformer import DEFAULT_INVARIANT_CALL_ROWS

WIDTHS = (32, 64, 128, 256, 320, 512)
ROWS = (2, 4, 8, 16)


def encode(hf_model, ids, mask, bf16: bool, threads: int) -> torch.Tensor:
    saved = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            return hf_model(input_ids=ids, attention_mask=mask).last_hidden_state
    finally:
        torch.set_num_threads(saved)


def main() -> None:
    threads = max(torch.get_num_threads(), 2)
    for pipeline, load in (("default", load_coref), ("fast", load_fast)):
        nlp = load(precision="fp32")
        hf_model = nlp.get_pipe("coref").inner.get_pipe("transformer").model.transformer.eval()
        generator = torch.Generator().manual_seed(0)
        for width in WIDTHS:
            n_call = DEFAULT_INVARIANT_CALL_ROWS
            n_rows = max(max(ROWS), 3 * n_call)
            ids = torch.randint(1000, 20000, (n_rows, width), generator=generator)
            mask = torch.ones((n_rows, width), dtype=torch.long)
            mask[0, width - width // 4 :] = 0
            found = []
            for precision in ("fp32", "bf16"):
                bf16 = precision == "bf16"
                alone = encode(hf_model, ids[:1], mask[:1], bf16, threads)[0]
                rows = [torch.equal(alone, encode(hf_model, ids[:k], mask[:k], bf16, threads)[0])
                        for k in ROWS]
                fixed = []
                for position, start in ((0, 0), (n_call // 2, n_call), (n_call - 1, 2 * n_call)):
                    call_ids = ids[start : start + n_call].clone()
                    call_mask = mask[start : start + n_call].clone()
                    call_ids[position], call_mask[position] = ids[0], mask[0]
                    fixed.append(encode(hf_model, call_ids, call_mask, bf16, 1)[position])
                same_fixed = all(torch.equal(fixed[0], other) for other in fixed[1:])
                one, more = (
                    encode(hf_model, ids[:n_call], mask[:n_call], bf16, t) for t in (1, threads)
                )
                found.append(
                    f"{precision} rows {rows} fixed {same_fixed} threads {torch.equal(one, more)}"
                )
            print(pipeline, width, " | ".join(found), flush=True)


if __name__ == "__main__":
    main()
