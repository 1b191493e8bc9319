"""Whether a padded row's encoder output depends on how many rows share its call, for the
shipped encoders on this CPU, in fp32 and bf16:

    python scripts/row_count_invariance.py

For each width, the first row (a quarter of it padding) is encoded alone and with 1, 3, 7 and
15 other rows of the same width; "True" means bit-identical. Padded sub-batches of one fixed
width per segment (a width that depends on the segment's length only) would be batch-invariant
where every entry is True; the shipped encoders run each segment alone instead
(`batch_invariant`), which needs no such check.
"""
import torch

from spacy_coref.benchmark.systems import load_coref, load_fast

WIDTHS = (24, 64, 128, 256, 320, 512)
ROWS = (2, 4, 8, 16)


def main() -> None:
    for pipeline, load in (("default", load_coref), ("fast", load_fast)):
        nlp = load(precision="fp32")
        hf_model = nlp.get_pipe("coref").inner.get_pipe("transformer").model.transformer.eval()
        generator = torch.Generator().manual_seed(0)
        for width in WIDTHS:
            ids = torch.randint(1000, 20000, (max(ROWS), width), generator=generator)
            mask = torch.ones((max(ROWS), width), dtype=torch.long)
            mask[0, width - width // 4 :] = 0
            found = []
            for precision in ("fp32", "bf16"):
                bf16 = precision == "bf16"
                with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                    alone = hf_model(input_ids=ids[:1], attention_mask=mask[:1])
                    same = []
                    for k in ROWS:
                        batched = hf_model(input_ids=ids[:k], attention_mask=mask[:k])
                        same.append(torch.equal(alone.last_hidden_state[0],
                                                batched.last_hidden_state[0]))
                found.append(f"{precision} {same}")
            print(pipeline, width, " | ".join(found))


if __name__ == "__main__":
    main()
