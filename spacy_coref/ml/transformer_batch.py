"""The encoder's output for a batch of docs, split per doc without a Token object per token.

spacy-transformers' `FullTransformerBatch.split_by_doc` (run when the transformer pipe writes
`doc._.trf_data`) finds where each doc's tokens start by building a dictionary from every Token
of the batch to its position: 0.22 to 0.47 s of Python for the 140,334 words of the benchmark
in the default's windows, against 0.003 s here. Here a doc's first token's position is the
number of tokens of the docs before it, and the split is otherwise the same (a test compares
the two on the same batch).
"""
from typing import Dict, List

import torch
from spacy_transformers.data_classes import FullTransformerBatch, TransformerData
from thinc.api import torch2xp
from transformers.utils import ModelOutput


class SegmentTransformerBatch(FullTransformerBatch):
    """`FullTransformerBatch` with a split per doc that counts tokens instead of mapping them."""

    def split_by_doc(self) -> List[TransformerData]:
        """One TransformerData per doc: its segments' wordpieces and outputs, and its tokens'
        alignment, its wordpiece indices counted from its own first segment."""
        first_token = _first_token_positions(self.spans)
        outputs = _as_arrays(self.model_output)
        split: List[TransformerData] = []
        segment = 0  # the doc's first segment in the batch
        wordpiece = 0  # the doc's first wordpiece slot in the flattened [segments * width] batch
        for doc_spans in self.spans:
            if not doc_spans or not len(doc_spans[0]):
                split.append(TransformerData.empty())
                continue
            offset = first_token[id(doc_spans[0].doc)]
            align = self.align[offset + doc_spans[0].start : offset + doc_spans[-1].end]
            align.data = align.data - wordpiece
            rows = slice(segment, segment + len(doc_spans))
            wordpieces = self.wordpieces[rows]
            model_output = ModelOutput()
            for key, output in outputs.items():
                model_output[key] = [o[rows] for o in output] if isinstance(output, list) else (
                    output[rows]
                )
            split.append(
                TransformerData(wordpieces=wordpieces, model_output=model_output, align=align)
            )
            wordpiece += wordpieces.input_ids.size
            segment += len(doc_spans)
        return split


def _first_token_positions(spans: List[List]) -> Dict[int, int]:
    """id(doc) -> the position of the doc's first token among all tokens of the batch's docs,
    docs in the order their spans first name them (as the batch's alignment counts them)."""
    positions: Dict[int, int] = {}
    n_tokens = 0
    for doc_spans in spans:
        for span in doc_spans:
            if id(span.doc) not in positions:
                positions[id(span.doc)] = n_tokens
                n_tokens += len(span.doc)
    return positions


def _as_arrays(model_output: ModelOutput) -> Dict[str, object]:
    """The encoder's outputs as arrays: each tensor, and each tuple of tensors with a row per
    segment (the hidden states of every layer) as a list; other outputs are left out."""
    rows = None
    if model_output.get("last_hidden_state") is not None:
        rows = model_output["last_hidden_state"].shape[0]
    arrays: Dict[str, object] = {}
    for key, output in model_output.items():
        if isinstance(output, torch.Tensor):
            arrays[key] = torch2xp(output)
        elif isinstance(output, tuple) and all(
            isinstance(t, torch.Tensor) and t.shape[0] == rows for t in output
        ):
            arrays[key] = [torch2xp(t) for t in output]
    return arrays
