"""Run one benchmarked system in this (fresh) process and write its result as JSON.

    python -m spacy_coref.benchmark.worker parse DOCS.jsonl OUT.json --docbin PARSED.spacy
    python -m spacy_coref.benchmark.worker encoder|encoder_windows|coref PARSED.spacy OUT.json \
        --precision fp32|bf16|auto
    python -m spacy_coref.benchmark.worker fast DOCS.jsonl OUT.json --precision fp32|bf16|auto
    python -m spacy_coref.benchmark.worker accurate_encoder DOCS.jsonl OUT.json \
        --encoder ENCODER_DIR --precision fp32|bf16|auto
    python -m spacy_coref.benchmark.worker accurate_coref PARSED.spacy OUT.json --precision ...

encoder: (a), the floor (the bare encoder once over each document, in windows of the encoder's
maximum input); encoder_windows: (a'), the bare encoder over the pipeline's own windows;
coref: (b), the coref stack on parsed docs; fast: (d), the shipped fast pipeline from raw text;
accurate_encoder: (e), the floor of the encoder folder given (the accurate pipeline's MPNet),
which needs no trained pipeline; accurate_coref: (f), the accurate pipeline's coref stack.
"""
from pathlib import Path
from typing import Any, Dict, Optional

import srsly
import typer
from spacy.tokens import DocBin

from ..ml.precision import FP32, check_precision
from ..ml.segment_transformer import DEFAULT_MAX_PADDING, DEFAULT_MAX_TOKENS_IN_BATCH
from .accurate import ACCURATE, COREF_SYSTEM, ENCODER_SYSTEM
from .docset import read_docset
from .systems import (
    load_coref,
    load_fast,
    load_floor_encoder,
    run_coref,
    run_encoder,
    run_encoder_floor,
    run_fast,
    run_floor,
    run_parse,
)

SYSTEMS = ("parse", "encoder", "encoder_windows", "coref", "fast", ENCODER_SYSTEM, COREF_SYSTEM)
RUNNERS = {"encoder": run_encoder_floor, "encoder_windows": run_encoder, "coref": run_coref,
           COREF_SYSTEM: run_coref}


def run_worker(
    system: str,
    input_path: Path,
    output: Path,
    batch_size: int,
    docbin: Optional[Path],
    *,
    precision: str = FP32,
    encoder: Optional[Path] = None,
    max_tokens_in_batch: int = DEFAULT_MAX_TOKENS_IN_BATCH,
    max_padding: float = DEFAULT_MAX_PADDING,
) -> None:
    """Measure `system` on `input_path` and write the result to `output`.

    system (str): one of SYSTEMS.
    input_path (Path): documents (.jsonl) for parse, fast and accurate_encoder, parsed docs
        (.spacy) for the others.
    output (Path): the result JSON.
    batch_size (int): documents per batch.
    docbin (Optional[Path]): where parse writes its docs.
    precision (str): the encoder's precision for every system but parse.
    encoder (Optional[Path]): the encoder folder of accurate_encoder.
    max_tokens_in_batch (int): accurate_encoder's token budget (the others: their pipeline's).
    max_padding (float): accurate_encoder's padding share.
    """
    check_precision(precision)
    if system == ENCODER_SYSTEM:
        if encoder is None:
            raise ValueError(f"{ENCODER_SYSTEM} needs --encoder, the encoder folder")
        hf_model, tokenizer = load_floor_encoder(encoder)
        texts = [doc["text"] for doc in read_docset(input_path)]
        result = run_floor(hf_model, tokenizer, texts, precision=precision,
                           max_tokens_in_batch=max_tokens_in_batch, max_padding=max_padding)
        result["encoder_path"] = str(encoder)
        _write(result, system, batch_size, output)
        return
    if system == "fast":
        nlp = load_fast(precision=precision)
    else:
        nlp = load_coref(precision=None if system == "parse" else precision,
                         pipeline=ACCURATE if system == COREF_SYSTEM else None)
    if system == "fast":
        texts = [doc["text"] for doc in read_docset(input_path)]
        result = run_fast(nlp, texts, batch_size, precision=precision)
    elif system == "parse":
        texts = [doc["text"] for doc in read_docset(input_path)]
        result = run_parse(nlp, texts, batch_size)
        parsed = result.pop("parsed")
        if docbin is not None:
            DocBin(attrs=["ORTH", "TAG", "HEAD", "DEP", "POS", "ENT_IOB", "ENT_TYPE", "LEMMA",
                          "MORPH", "SENT_START"], docs=parsed).to_disk(docbin)
    else:
        docs = list(DocBin().from_disk(input_path).get_docs(nlp.vocab))
        result = RUNNERS[system](nlp, docs, batch_size, precision=precision)
    _write(result, system, batch_size, output)


def _write(result: Dict[str, Any], system: str, batch_size: int, output: Path) -> None:
    result["system"] = system
    result["batch_size"] = batch_size
    srsly.write_json(output, result)


def main(
    system: str = typer.Argument(..., help=", ".join(SYSTEMS)),
    input_path: Path = typer.Argument(..., help="Documents (.jsonl) or parsed docs (.spacy)"),
    output: Path = typer.Argument(..., help="Result JSON"),
    batch_size: int = typer.Option(32, "--batch-size", help="Documents per batch"),
    docbin: Optional[Path] = typer.Option(None, "--docbin", help="Where parse writes its docs"),
    precision: str = typer.Option(FP32, "--precision", help="fp32, bf16 or auto"),
    encoder: Optional[Path] = typer.Option(None, "--encoder", help="accurate_encoder's folder"),
    max_tokens_in_batch: int = typer.Option(
        DEFAULT_MAX_TOKENS_IN_BATCH, "--max-tokens-in-batch", help="accurate_encoder's budget"
    ),
    max_padding: float = typer.Option(
        DEFAULT_MAX_PADDING, "--max-padding", help="accurate_encoder's padding share"
    ),
) -> None:
    if system not in SYSTEMS:
        raise typer.BadParameter(f"expected one of {SYSTEMS}, found '{system}'")
    run_worker(system, input_path, output, batch_size, docbin, precision=precision,
               encoder=encoder, max_tokens_in_batch=max_tokens_in_batch, max_padding=max_padding)


if __name__ == "__main__":
    typer.run(main)
