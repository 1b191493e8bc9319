"""The benchmark's floor (a): the bare encoder once over each document, as fastcoref encodes it.

Each document's wordpieces are cut into consecutive, non-overlapping windows of up to the
encoder's maximum input (the tokenizer's `model_max_length`, 512 for MiniLM, special tokens
included), so every wordpiece is encoded exactly once: no overlap, no sentence packing, no
spaCy tokens. The windows of all documents are run longest first under the pipeline's token
budget (`plan_sub_batches`): full windows fill whole sub-batches and the left-over windows of
all documents are batched together by length. This is the least encoder work any system on the
same model can do for these texts; the coref pipeline (b) is measured against it, and the
accurate pipeline (f) against the same floor of its own encoder (e).
"""
from typing import Any, List, Sequence, Tuple

import numpy
import torch

from ..ml.precision import autocast
from ..ml.segment_batching import plan_sub_batches

# above this, a tokenizer's model_max_length means "no limit set" (transformers' VERY_LARGE_INTEGER)
UNSET_MAX_LENGTH = 1_000_000


def max_window(tokenizer: Any, hf_model: Any = None) -> int:
    """The longest input the encoder takes, special tokens included: the tokenizer's
    model_max_length, bounded by the model's position embeddings where it has them.

    tokenizer (Any): a Hugging Face tokenizer.
    hf_model (Any): the Hugging Face model, or None.
    RETURNS (int): the window size in wordpieces.
    """
    limits = [int(tokenizer.model_max_length)]
    positions = getattr(getattr(hf_model, "config", None), "max_position_embeddings", None)
    if isinstance(positions, int) and positions > 0:
        limits.append(positions)
    limits = [limit for limit in limits if 0 < limit < UNSET_MAX_LENGTH]
    return min(limits) if limits else 512


def floor_windows(
    tokenizer: Any, texts: Sequence[str], max_length: int
) -> Tuple[List[List[int]], List[int]]:
    """Cut each text's wordpieces into consecutive windows of at most `max_length` wordpieces,
    special tokens included. A text shorter than one window gives one window; a text without
    wordpieces gives none.

    tokenizer (Any): a Hugging Face tokenizer.
    texts (Sequence[str]): the documents.
    max_length (int): the window size, special tokens included.
    RETURNS (Tuple[List[List[int]], List[int]]): the input ids of each window, and the index of
        the text each window comes from.
    """
    size = max_length - tokenizer.num_special_tokens_to_add(pair=False)
    # verbose=False: a document longer than the model's input is expected here
    encoded = tokenizer(list(texts), add_special_tokens=False, verbose=False)["input_ids"]
    windows: List[List[int]] = []
    text_of: List[int] = []
    for i, ids in enumerate(encoded):
        for start in range(0, len(ids), size):
            windows.append(tokenizer.build_inputs_with_special_tokens(ids[start : start + size]))
            text_of.append(i)
    return windows, text_of


def encode_windows(
    hf_model: torch.nn.Module,
    windows: Sequence[Sequence[int]],
    *,
    pad_id: int,
    max_tokens_in_batch: int,
    max_padding: float,
    precision: str,
) -> List[numpy.ndarray]:
    """Run the encoder over the windows in length-sorted sub-batches under a token budget.

    hf_model (torch.nn.Module): the Hugging Face model (in eval mode).
    windows (Sequence[Sequence[int]]): input ids, special tokens included.
    pad_id (int): the padding token's id.
    max_tokens_in_batch (int): at most this many tokens, padding included, per encoder call.
    max_padding (float): close a sub-batch early rather than let padding pass this share.
    precision (str): "fp32", "bf16" or "auto".
    RETURNS (List[numpy.ndarray]): the window indices of each sub-batch, in the order run.
    """
    lengths = numpy.asarray([len(window) for window in windows], dtype="int64")  # [n_windows]
    planned = plan_sub_batches(lengths, max_tokens_in_batch, max_padding=max_padding)
    device = next(hf_model.parameters()).device
    with torch.no_grad(), autocast(precision, device):
        for rows in planned:
            width = int(lengths[rows].max())
            ids = numpy.full((len(rows), width), pad_id, dtype="int64")  # [rows, width]
            mask = numpy.zeros((len(rows), width), dtype="int64")  # [rows, width]
            for row, index in enumerate(rows):
                ids[row, : lengths[index]] = windows[index]
                mask[row, : lengths[index]] = 1
            hf_model(
                input_ids=torch.from_numpy(ids).to(device),
                attention_mask=torch.from_numpy(mask).to(device),
            )
    return planned
