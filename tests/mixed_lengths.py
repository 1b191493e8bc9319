"""The lengths of the batch-invariance documents (conftest's `mixed_length_texts`), and the
fewer that a bf16 check runs where the CPU emulates bf16."""
from typing import List

# Words per document of `mixed_length_texts`: from a few words to over two encoder windows
# (the default's 256-token windows and the fast pipeline's 512 wordpieces), in no order.
MIXED_LENGTHS = (60, 4, 330, 18, 1150, 45, 9, 520, 150, 0, 80, 780, 30, 260, 110, 950, 200, 640,
                 25, 420, 12, 70)


# The documents of `mixed_length_texts` that a bf16 check runs on a CPU without native bf16,
# where torch emulates bf16 products (a 1,024-square one 80 times slower than in float32 on a
# 2-core AMD EPYC with AVX2 only): the short ones, the empty one and one over two windows.
EMULATED_BF16_LENGTHS = {0, 4, 9, 12, 18, 25, 60, 330, 1150}


def for_precision(items: List, precision: str) -> List:
    """`items` (one per document of `mixed_length_texts`, in order), or, for a bf16 check on a
    CPU that emulates bf16, those of EMULATED_BF16_LENGTHS: the same property on about a quarter of
    the words."""
    from spacy_coref.ml.precision import cpu_has_bf16

    assert len(items) == len(MIXED_LENGTHS)
    if precision != "bf16" or cpu_has_bf16():
        return list(items)
    return [item for item, n in zip(items, MIXED_LENGTHS) if n in EMULATED_BF16_LENGTHS]
