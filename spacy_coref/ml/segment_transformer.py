"""A drop-in for spacy-transformers' TransformerModel.v3 that runs the encoder in sub-batches.

spacy-transformers pads all segments of a batch of documents to the longest one and runs them
in one forward pass: the short left-over segment of every document costs a full-length row,
and a 100,000-word document becomes one huge padded batch. This model keeps everything else
(the HF shim, tokenization, serialization, the `FullTransformerBatch` output that
listeners read) and only replaces the encoder call: segments are grouped by length into
sub-batches under `max_tokens_in_batch` (see segment_batching.py), each sub-batch is trimmed to
its own longest row, and the outputs are scattered back into the padded layout. Results equal
TransformerModel.v3's up to float noise; padding waste and peak memory drop. By default
(`batch_invariant`) prediction gives each segment's encoder output as a function of the
segment alone: each segment is padded to a width that its own length decides (a multiple of
32 wordpieces), every call at a width has the same number of rows (the last filled with
copies), and every call runs on one torch thread, the process's threads running several
calls at once (`single_threaded.py`). A doc's output then does not depend on the docs batched
with it nor on the number of threads or processes, in fp32 and bf16 alike, on any CPU
(tests/pipeline/test_batch_invariance.py, tests/ml/test_fixed_shape_calls.py). The alignment
of tokens to wordpieces and the split of the output per doc are computed as arrays (`alignment.py`,
`transformer_batch.py`), with spacy-transformers' results.
"""
import contextlib
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

import numpy
import torch
from spacy.tokens import Doc
from spacy.util import registry
from spacy_transformers.align import get_alignment
from spacy_transformers.data_classes import FullTransformerBatch, WordpieceBatch
from spacy_transformers.layers.transformer_model import TransformerModel, huggingface_tokenize
from spacy_transformers.layers.transformer_model import init as transformer_init
from spacy_transformers.truncate import truncate_oversize_splits
from thinc.api import Model, get_array_module
from transformers.modeling_outputs import BaseModelOutput
from transformers.utils import ModelOutput

from ..errors import Errors
from ..profiling import ENCODER, WORDPIECES, section
from .alignment import offset_alignment
from .frozen_layers import check_frozen_layers, encode_partly_frozen
from .precision import FP32, autocast, check_precision
from .segment_batching import plan_invariant_sub_batches, plan_sub_batches
from .single_threaded import run_single_threaded
from .transformer_batch import SegmentTransformerBatch

DEFAULT_MAX_TOKENS_IN_BATCH = 4096
DEFAULT_MAX_PADDING = 0.02
# The rows of every batch-invariant call in prediction: with one thread a call, bigger calls
# gain little and fill more rows (2 against 4 rows or 1,024 wordpieces a call: 4 to 8% more
# words/s; BENCHMARKS.md, "Batch invariance on every CPU").
DEFAULT_INVARIANT_CALL_ROWS = 2
BATCHING_ATTRS = ("max_tokens_in_batch", "max_padding", "batch_invariant", "invariant_call_rows")


@registry.architectures("spacy_coref.SegmentTransformerModel.v1")
def build_segment_transformer(
    name: str,
    get_spans: Callable,
    tokenizer_config: Dict[str, Any] = {},  # noqa: B006 (spacy-transformers' signature)
    transformer_config: Dict[str, Any] = {},  # noqa: B006
    mixed_precision: bool = False,
    grad_scaler_config: Dict[str, Any] = {},  # noqa: B006
    *,
    max_tokens_in_batch: int = DEFAULT_MAX_TOKENS_IN_BATCH,
    max_padding: float = DEFAULT_MAX_PADDING,
    batch_invariant: bool = True,
    invariant_call_rows: int = DEFAULT_INVARIANT_CALL_ROWS,
) -> Model[List[Doc], FullTransformerBatch]:
    """TransformerModel.v3 whose encoder runs in length-sorted sub-batches under a token budget.

    name (str): the Hugging Face model name or a local directory.
    get_spans (Callable[[List[Doc]], List[List[Span]]]): cuts docs into segments.
    tokenizer_config (Dict[str, Any]): settings for the tokenizer.
    transformer_config (Dict[str, Any]): settings for the transformer.
    mixed_precision (bool): autocast the encoder to half precision (on GPU).
    grad_scaler_config (Dict[str, Any]): gradient scaling for mixed-precision training.
    max_tokens_in_batch (int): at most this many wordpieces, padding included, per encoder call.
    max_padding (float): close a sub-batch early rather than let padding pass this share.
    batch_invariant (bool): in prediction, a doc's output the same bit for bit whatever it is
        batched with and however many threads or processes run it (see
        `run_fixed_shape_calls`); False: length-sorted, padded sub-batches under
        `max_tokens_in_batch` and `max_padding` on the process's threads (fewer calls:
        faster, on a GPU most of all), whose float noise moves with the neighbours.
    invariant_call_rows (int): with `batch_invariant`, the rows of every prediction call (a
        width's last call filled with copies).
    RETURNS (Model[List[Doc], FullTransformerBatch]): the model.
    """
    if max_tokens_in_batch < 1:
        raise ValueError(Errors.CE240.format(value=max_tokens_in_batch))
    if not 0.0 <= max_padding <= 1.0:
        raise ValueError(Errors.CE245.format(value=max_padding))
    if invariant_call_rows < 1:
        raise ValueError(Errors.CE247.format(value=invariant_call_rows))
    return SegmentTransformerModel(
        name,
        get_spans,
        tokenizer_config=tokenizer_config,
        transformer_config=transformer_config,
        mixed_precision=mixed_precision,
        grad_scaler_config=grad_scaler_config,
        max_tokens_in_batch=max_tokens_in_batch,
        max_padding=max_padding,
        batch_invariant=batch_invariant,
        invariant_call_rows=invariant_call_rows,
    )


@registry.architectures("spacy_coref.SegmentTransformerModel.v2")
def build_segment_transformer_v2(
    name: str,
    get_spans: Callable,
    tokenizer_config: Dict[str, Any] = {},  # noqa: B006 (spacy-transformers' signature)
    transformer_config: Dict[str, Any] = {},  # noqa: B006
    mixed_precision: bool = False,
    grad_scaler_config: Dict[str, Any] = {},  # noqa: B006
    *,
    max_tokens_in_batch: int = DEFAULT_MAX_TOKENS_IN_BATCH,
    max_padding: float = DEFAULT_MAX_PADDING,
    precision: str = FP32,
    frozen_layers: int = 0,
    batch_invariant: bool = True,
    invariant_call_rows: int = DEFAULT_INVARIANT_CALL_ROWS,
) -> Model[List[Doc], FullTransformerBatch]:
    """SegmentTransformerModel.v1 with a numeric precision and frozen lower layers.

    precision (str): "fp32", "bf16" (autocast: matrix products in bfloat16) or "auto" (bf16
        where the device computes it natively). Applies to training and prediction.
    frozen_layers (int): in training, keep the embeddings and the lower K layers fixed and
        cache their output per segment, so that each step runs only the upper layers.
    Other arguments: as SegmentTransformerModel.v1.
    RETURNS (Model[List[Doc], FullTransformerBatch]): the model.
    """
    check_precision(precision)
    if frozen_layers < 0:
        raise ValueError(Errors.CE372.format(value=frozen_layers, n_layers="the encoder's"))
    model = build_segment_transformer(
        name,
        get_spans,
        tokenizer_config=tokenizer_config,
        transformer_config=transformer_config,
        mixed_precision=mixed_precision,
        grad_scaler_config=grad_scaler_config,
        max_tokens_in_batch=max_tokens_in_batch,
        max_padding=max_padding,
        batch_invariant=batch_invariant,
        invariant_call_rows=invariant_call_rows,
    )
    model.attrs["precision"] = precision
    model.attrs["frozen_layers"] = frozen_layers
    return model


class SegmentTransformerModel(TransformerModel):
    """A TransformerModel (same shim, attrs and serialization, so the transformer pipe and its
    listeners treat it as before) whose forward runs the encoder in sub-batches."""

    def __init__(
        self,
        name: str,
        get_spans: Callable,
        *,
        max_tokens_in_batch: int = DEFAULT_MAX_TOKENS_IN_BATCH,
        max_padding: float = DEFAULT_MAX_PADDING,
        batch_invariant: bool = True,
        invariant_call_rows: int = DEFAULT_INVARIANT_CALL_ROWS,
        **kwargs: Any,
    ) -> None:
        super().__init__(name, get_spans, **kwargs)
        self._func = forward
        self.init = init
        self.attrs["max_tokens_in_batch"] = max_tokens_in_batch
        self.attrs["max_padding"] = max_padding
        self.attrs["batch_invariant"] = batch_invariant
        self.attrs["invariant_call_rows"] = invariant_call_rows

    def from_bytes(self, bytes_data: bytes) -> "SegmentTransformerModel":
        # The sub-batching settings are how to run, not what was learned: the config's values
        # win over those saved with the weights (the shipped default's weights were saved
        # with max_padding 0.02 inside them, before batch_invariant existed).
        settings = {key: self.attrs[key] for key in BATCHING_ATTRS}
        super().from_bytes(bytes_data)
        self.attrs.update(settings)
        return self

    def copy(self) -> "SegmentTransformerModel":
        # TransformerModel.copy builds a plain TransformerModel, which would drop the sub-batching
        # (replace_listeners copies the upstream model)
        copied = super().copy()
        copied.__class__ = SegmentTransformerModel
        copied._func = forward
        copied.init = init
        for key in BATCHING_ATTRS:
            copied.attrs[key] = self.attrs[key]
        for key in ("precision", "frozen_layers"):
            if key in self.attrs:
                copied.attrs[key] = self.attrs[key]
        return copied


def init(model: TransformerModel, X: Optional[List[Doc]] = None, Y: Any = None) -> None:
    """TransformerModel's init, with the tokenizer handed to a span getter that counts
    wordpieces (it cuts the sample docs once the encoder is loaded)."""
    get_spans = model.attrs["get_spans"]
    if not hasattr(get_spans, "set_tokenizer"):
        return transformer_init(model, X=X, Y=Y)

    def with_tokenizer(docs: List[Doc]) -> List[List[Any]]:
        get_spans.set_tokenizer(model.tokenizer)
        return get_spans(docs)

    model.attrs["get_spans"] = with_tokenizer
    try:
        return transformer_init(model, X=X, Y=Y)
    finally:
        model.attrs["get_spans"] = get_spans


def segment_wordpieces(
    model: TransformerModel, docs: List[Doc]
) -> Tuple[List[List[Any]], WordpieceBatch, Any]:
    """The docs cut into the model's segments, their wordpieces (padded to the longest) and the
    alignment of each token to its wordpieces in the flattened [segments * width] layout.
    RETURNS (Tuple): nested spans per doc, the WordpieceBatch, the alignment (Ragged)."""
    tokenizer = model.tokenizer
    get_spans = model.attrs["get_spans"]
    if hasattr(get_spans, "set_tokenizer"):  # windows counted in wordpieces (windows.py)
        get_spans.set_tokenizer(tokenizer)
    nested_spans = get_spans(distinct_docs(docs))
    flat_spans = [span for doc_spans in nested_spans for span in doc_spans]
    batch_encoding = huggingface_tokenize(tokenizer, [span.text for span in flat_spans])
    wordpieces = WordpieceBatch.from_batch_encoding(batch_encoding)
    if "offset_mapping" in batch_encoding:  # spacy-transformers' alignment, as arrays
        align = offset_alignment(flat_spans, batch_encoding["offset_mapping"])
    else:
        align = get_alignment(flat_spans, wordpieces.strings, tokenizer.all_special_tokens)
    wordpieces, align = truncate_oversize_splits(wordpieces, align, tokenizer.model_max_length)
    return nested_spans, wordpieces, align


def distinct_docs(docs: List[Doc]) -> List[Doc]:
    """The docs, each repeat of a Doc object already in the batch replaced by a copy: the
    alignment finds a doc's tokens by the doc, so a doc passed twice (a pre-training batch
    drawing one text twice, `pipe([doc, doc])`) would read both occurrences' wordpieces."""
    seen: Set[int] = set()
    distinct = []
    for doc in docs:
        distinct.append(doc.copy() if id(doc) in seen else doc)
        seen.add(id(doc))
    return distinct


def forward(
    model: TransformerModel, docs: List[Doc], is_train: bool
) -> Tuple[FullTransformerBatch, Callable]:
    with section(ENCODER):
        return _forward(model, docs, is_train)


def _forward(
    model: TransformerModel, docs: List[Doc], is_train: bool
) -> Tuple[FullTransformerBatch, Callable]:
    with section(WORDPIECES):
        nested_spans, wordpieces, align = segment_wordpieces(model, docs)
    precision, device = model.attrs.get("precision", FP32), _device(model)
    fixed_shapes = model.attrs.get("batch_invariant", False) and model.layers[0].shims
    # nothing to encode: run_sub_batches hands empty batches to spacy-transformers
    if not is_train and fixed_shapes and max(wordpieces.lengths, default=0) > 0:
        with _eval_mode(model, is_train):
            model_output = run_fixed_shape_calls(
                sub_batch_encoder(model, is_train),
                wordpieces,
                model.attrs.get("invariant_call_rows", DEFAULT_INVARIANT_CALL_ROWS),
                _max_width(model),
                # each thread that encodes enters its own region (autocast belongs to a thread)
                context=lambda: autocast(precision, device),
                n_workers=torch.get_num_threads() if device.type == "cpu" else 0,
            )
        backprop_output = _no_gradient
    else:
        # one autocast region over all sub-batches: torch casts each weight to bf16 once per
        # region, not once per sub-batch (about a tenth of the encoder's time in bf16)
        with autocast(precision, device), _eval_mode(model, is_train):
            model_output, backprop_output = run_sub_batches(
                model.layers[0], wordpieces, model.attrs["max_tokens_in_batch"], is_train,
                max_padding=model.attrs.get("max_padding", DEFAULT_MAX_PADDING),
                encode=sub_batch_encoder(model, is_train),
                invariant_width=(
                    _max_width(model) if model.attrs.get("batch_invariant", False) else None
                ),
            )
    output = SegmentTransformerBatch(
        spans=nested_spans, wordpieces=wordpieces, model_output=model_output, align=align
    )

    def backprop(d_output: FullTransformerBatch) -> List[Doc]:
        backprop_output(d_output.model_output)
        return docs

    return output, backprop


@contextlib.contextmanager
def _eval_mode(model: TransformerModel, is_train: bool) -> Iterator[None]:
    """In prediction, the HF model in eval mode for the whole forward pass (and its mode as it
    was after): thinc's shim would switch it to eval and back to train around every call."""
    encoder = model.layers[0]
    if is_train or not encoder.shims:
        yield
        return
    hf_model = encoder.shims[0]._model
    was_training = hf_model.training
    hf_model.eval()
    try:
        yield
    finally:
        hf_model.train(was_training)


def _max_width(model: TransformerModel) -> int:
    """The longest input the model takes: its tokenizer's maximum length."""
    return int(model.tokenizer.model_max_length)


def _device(model: TransformerModel) -> torch.device:
    """The encoder's device (the CPU before it is initialized)."""
    encoder = model.layers[0]
    if not encoder.shims:
        return torch.device("cpu")
    return next(encoder.shims[0]._model.parameters()).device


def sub_batch_encoder(model: TransformerModel, is_train: bool) -> Callable:
    """The encoder call for one sub-batch under the model's precision and frozen layers."""
    encoder = model.layers[0]
    precision = model.attrs.get("precision", FP32)
    n_frozen = model.attrs.get("frozen_layers", 0)
    if not encoder.shims:  # not initialized yet: the plain call raises spacy-transformers' error
        return encoder
    hf_model = encoder.shims[0]._model
    device = next(hf_model.parameters()).device
    if is_train and n_frozen > 0:
        check_frozen_layers(hf_model, n_frozen)
        return lambda wordpieces, _is_train: encode_partly_frozen(
            hf_model, wordpieces, n_frozen, precision
        )
    if not is_train:
        half = bool(getattr(encoder.shims[0], "_mixed_precision", False))
        return lambda wordpieces, _is_train: predict_directly(
            hf_model, wordpieces, device, mixed_precision=half
        )

    def encode(wordpieces: WordpieceBatch, is_train: bool) -> Tuple[ModelOutput, Callable]:
        with autocast(precision, device):
            return encoder(wordpieces, is_train)

    return encode


def predict_directly(
    hf_model: torch.nn.Module,
    wordpieces: WordpieceBatch,
    device: torch.device,
    *,
    mixed_precision: bool = False,
) -> Tuple[ModelOutput, Callable]:
    """One sub-batch in prediction, straight to the HF model (in eval mode, `_eval_mode`): the
    thinc wrapper's conversions and mode switches cost milliseconds a call, as much as a short
    segment's encoding when each segment has a call of its own. The same inputs as
    spacy-transformers' wrapper gives, its output, and its CUDA autocast for
    `mixed_precision`."""
    inputs = {
        "input_ids": torch.as_tensor(wordpieces.input_ids, device=device),
        "attention_mask": torch.as_tensor(wordpieces.attention_mask, device=device),
    }
    if wordpieces.token_type_ids is not None:
        inputs["token_type_ids"] = torch.as_tensor(wordpieces.token_type_ids, device=device)
    with torch.no_grad(), torch.autocast(device_type="cuda", enabled=mixed_precision):
        output = hf_model(**inputs)
    return output, _no_gradient


def _no_gradient(d_output: ModelOutput) -> None:
    """Nothing to do: as thinc's shim in prediction, no gradient flows into the encoder."""


def run_sub_batches(
    encoder: Model,
    wordpieces: WordpieceBatch,
    max_tokens_in_batch: int,
    is_train: bool,
    *,
    max_padding: float = DEFAULT_MAX_PADDING,
    encode: Optional[Callable] = None,
    invariant_width: Optional[int] = None,
) -> Tuple[ModelOutput, Callable[[ModelOutput], None]]:
    """Run the HF wrapper on length-sorted sub-batches and scatter the outputs back.

    encoder (Model): the HFWrapper layer of a TransformerModel.
    wordpieces (WordpieceBatch): all segments, padded to the longest.
    max_tokens_in_batch (int): the budget of padded tokens per encoder call.
    is_train (bool): keep the sub-batches' backprop callbacks.
    max_padding (float): the most padding, as a share of a sub-batch's tokens.
    encode (Optional[Callable]): runs one sub-batch, (wordpieces, is_train) -> (output,
        backprop); default: the encoder itself.
    invariant_width (Optional[int]): in training with `batch_invariant`, the model's longest
        input: each segment padded to a width its own length decides
        (`plan_invariant_sub_batches`), in sub-batches of one width, as in prediction (which
        runs `run_fixed_shape_calls`). None: `plan_sub_batches`.
    RETURNS (Tuple[ModelOutput, Callable]): the encoder output in the padded layout of
        `wordpieces`, and a callback taking the gradient of last_hidden_state.
    """
    encode = encoder if encode is None else encode
    lengths = numpy.asarray(wordpieces.lengths, dtype="int64")  # [n_segments]
    if lengths.size == 0 or int(lengths.max()) == 0:
        # Nothing to encode: the plain call handles empty batches as spacy-transformers does.
        return encoder(wordpieces, is_train)
    n_rows, n_cols = wordpieces.input_ids.shape
    merged: Dict[str, Any] = {}
    output_type: Any = BaseModelOutput
    callbacks: List[Tuple[torch.Tensor, int, Callable]] = []
    if invariant_width is not None:
        plan = plan_invariant_sub_batches(lengths, max_tokens_in_batch, invariant_width)
    else:
        plan = [
            (rows, int(lengths[rows].max()))
            for rows in plan_sub_batches(lengths, max_tokens_in_batch, max_padding=max_padding)
        ]
    for rows, width in plan:
        sub_output, sub_backprop = encode(_take_rows(wordpieces, rows, width), is_train)
        index = torch.as_tensor(rows, device=sub_output.last_hidden_state.device)
        # written into the full output at once, so one sub-batch's output is alive at a time
        _scatter_into(merged, sub_output, index, n_rows, n_cols)
        output_type = type(sub_output)
        # the gradient goes back in the dtype the encoder produced (bfloat16 under autocast)
        callbacks.append((index, width, sub_backprop, sub_output.last_hidden_state.dtype))
    model_output = output_type(**merged)

    def backprop(d_model_output: ModelOutput) -> None:
        # The transformer pipe rebuilds the gradient with unsplit_by_doc, which names the
        # outputs output_0, output_1, ... in the order of the forward's keys; like
        # spacy-transformers, only the first (last_hidden_state) carries gradient.
        if "last_hidden_state" in d_model_output:
            d_hidden = d_model_output["last_hidden_state"]
        else:
            d_hidden = next(iter(d_model_output.values()))  # [n_segments, n_cols, hidden]
        for index, width, sub_backprop, dtype in callbacks:
            sub_d = d_hidden[index.to(d_hidden.device), :width]  # [rows, width_sub, hidden]
            if sub_d.shape[1] < width:  # a batch-invariant width past the longest: no gradient
                sub_d = torch.nn.functional.pad(sub_d, (0, 0, 0, width - sub_d.shape[1]))
            sub_backprop(BaseModelOutput(last_hidden_state=sub_d.to(dtype).contiguous()))

    return model_output, backprop


def run_fixed_shape_calls(
    encode: Callable,
    wordpieces: WordpieceBatch,
    rows_per_call: int,
    max_width: int,
    *,
    context: Callable[[], Any] = contextlib.nullcontext,
    n_workers: int = 1,
) -> ModelOutput:
    """Predict with each segment's output a function of the segment alone, on any CPU.

    Each segment is padded to the width its own length decides, every call has `rows_per_call`
    rows of one width (a width's last call is filled with copies of its first row, computed
    and dropped), and every call runs on one torch thread (`run_single_threaded`).
    BLAS libraries choose a kernel, and so the order of a row's sums, by the product's shape
    and the threads that split it: with both fixed by the segment, no companion and no
    thread count moves a bit (on an Intel Xeon with AMX, the row count of a bf16 product
    alone moved bits at 24 to 320 wordpieces; tests/ml/test_fixed_shape_calls.py checks the
    property on the shipped encoders wherever it runs).

    encode (Callable): runs one call, (wordpieces, is_train) -> (output, backprop).
    wordpieces (WordpieceBatch): all segments, padded to the longest.
    rows_per_call (int): the rows of every call, fill rows included.
    max_width (int): the model's longest input.
    context (Callable[[], ContextManager]): entered on each thread that encodes (autocast).
    n_workers (int): calls run side by side, each on its own thread (0: on this thread, with
        its threads as they are, for a GPU).
    RETURNS (ModelOutput): the encoder output in the padded layout of `wordpieces`.
    """
    lengths = numpy.asarray(wordpieces.lengths, dtype="int64")  # [n_segments]
    n_rows, n_cols = wordpieces.input_ids.shape
    calls = []
    # a budget that gives every width up to the longest input `rows_per_call` rows a call
    plan = plan_invariant_sub_batches(lengths, rows_per_call * max_width, max_width, rows_per_call)
    for rows, width in plan:
        n_fill = rows_per_call - len(rows)
        filled = numpy.concatenate([rows, numpy.repeat(rows[:1], n_fill)]) if n_fill else rows
        calls.append((rows, _take_rows(wordpieces, filled, width)))

    def call(k: int) -> Callable[[], ModelOutput]:
        return lambda: encode(calls[k][1], False)[0]

    def on_this_thread() -> Iterator[Tuple[int, ModelOutput]]:
        with context():
            for k in range(len(calls)):
                yield k, call(k)()

    merged: Dict[str, Any] = {}
    output_type: Any = BaseModelOutput
    if n_workers > 0:
        finished = run_single_threaded([call(k) for k in range(len(calls))], n_workers, context)
    else:
        finished = on_this_thread()
    for k, sub_output in finished:
        index = torch.as_tensor(calls[k][0], device=sub_output.last_hidden_state.device)
        _scatter_into(merged, sub_output, index, n_rows, n_cols)  # the fill rows are dropped
        output_type = type(sub_output)
    return output_type(**merged)


def _take_rows(wordpieces: WordpieceBatch, rows: numpy.ndarray, width: int) -> WordpieceBatch:
    """The given segments at `width` columns: trimmed to it, or padded to it with masked-out
    zeros where a batch-invariant width is wider than the batch's longest segment."""
    token_type_ids: Optional[Any] = wordpieces.token_type_ids
    extra = max(width - wordpieces.input_ids.shape[1], 0)

    def columns(array: Any) -> Any:
        array = array[rows, :width]
        if not extra:
            return array
        # a masked column's id never reaches a real column's output: any value serves
        return get_array_module(array).pad(array, ((0, 0), (0, extra)))

    return WordpieceBatch(
        strings=[wordpieces.strings[i] for i in rows],
        input_ids=columns(wordpieces.input_ids),
        attention_mask=columns(wordpieces.attention_mask),
        lengths=[wordpieces.lengths[i] for i in rows],
        token_type_ids=None if token_type_ids is None else columns(token_type_ids),
    )


def _scatter_into(
    merged: Dict[str, Any], output: ModelOutput, index: torch.Tensor, n_rows: int, n_cols: int
) -> None:
    """Write one sub-batch's tensors at its rows of the full outputs (allocated on first use):
    sequence outputs [rows, width, hidden] zero-padded to n_cols, pooled ones [rows, hidden].
    Rows past the index's (a fixed-shape call's fill) are dropped. Per-layer attentions
    ([rows, heads, width, width]) are left out: listeners never read them.
    """
    n_index = index.shape[0]
    # Gradients flow through the sub-batches' own callbacks, never through the scatter.
    with torch.no_grad():
        for key, value in output.items():
            if isinstance(value, torch.Tensor) and value.dim() in (2, 3):
                if key not in merged:
                    merged[key] = _zeros_like_full(value, n_rows, n_cols)
                # rows past the index, columns past the longest segment
                value = value[:n_index, :n_cols] if value.dim() == 3 else value[:n_index]
                _put_rows(merged[key], index, value)
            elif isinstance(value, tuple) and all(
                isinstance(t, torch.Tensor) and t.dim() == 3 for t in value
            ):
                # hidden states of every layer, when the transformer config asks for them
                if key not in merged:
                    merged[key] = tuple(_zeros_like_full(t, n_rows, n_cols) for t in value)
                for full, part in zip(merged[key], value):
                    _put_rows(full, index, part[:n_index, :n_cols])


def _put_rows(full: torch.Tensor, index: torch.Tensor, part: torch.Tensor) -> None:
    """full[index, :width] = part, in full's dtype. On the CPU through numpy, which copies on
    this thread: torch splits a copy over the calling thread's OpenMP threads, and while the
    encoder's worker threads hold the cores each copy waited on them (on 2 cores, 5.8 ms a
    call, where numpy's copies took 1.7: BENCHMARKS.md, the Xeon with AMX on 2026-12-07)."""
    # float32 or an integer type (`_zeros_like_full`): numpy has both; detached, as numpy needs
    part = part.detach().to(full.dtype)
    if full.device.type == "cpu":
        target, source, width = full.numpy(), part.numpy(), part.shape[1]
        for row, i in enumerate(index.tolist()):  # a basic slice a row: a plain memory copy
            target[i, :width] = source[row]
    else:
        full[index, : part.shape[1]] = part


def _zeros_like_full(sample: torch.Tensor, n_rows: int, n_cols: int) -> torch.Tensor:
    # float32 even when the encoder ran in bf16: the listeners and the head compute in float32
    dtype = torch.float32 if sample.is_floating_point() else sample.dtype
    if sample.dim() == 3:
        return sample.new_zeros((n_rows, n_cols, sample.shape[2]), dtype=dtype)  # [n_seg, cols, h]
    return sample.new_zeros((n_rows, sample.shape[1]), dtype=dtype)  # [n_segments, h]
