"""Run one benchmarked system in this (fresh) process and write its result as JSON.

    python -m spacy_coref.benchmark.worker parse DOCS.jsonl OUT.json --docbin PARSED.spacy
    python -m spacy_coref.benchmark.worker encoder|coref PARSED.spacy OUT.json
"""
from pathlib import Path
from typing import Optional

import srsly
import typer
from spacy.tokens import DocBin

from .docset import read_docset
from .systems import load_coref, run_coref, run_encoder, run_parse

SYSTEMS = ("parse", "encoder", "coref")


def run_worker(
    system: str, input_path: Path, output: Path, batch_size: int, docbin: Optional[Path]
) -> None:
    """Measure `system` on `input_path` and write the result to `output`."""
    nlp = load_coref()
    if system == "parse":
        texts = [doc["text"] for doc in read_docset(input_path)]
        result = run_parse(nlp, texts, batch_size)
        parsed = result.pop("parsed")
        if docbin is not None:
            DocBin(attrs=["ORTH", "TAG", "HEAD", "DEP", "POS", "ENT_IOB", "ENT_TYPE", "LEMMA",
                          "MORPH", "SENT_START"], docs=parsed).to_disk(docbin)
    else:
        docs = list(DocBin().from_disk(input_path).get_docs(nlp.vocab))
        runner = run_encoder if system == "encoder" else run_coref
        result = runner(nlp, docs, batch_size)
    result["system"] = system
    result["batch_size"] = batch_size
    srsly.write_json(output, result)


def main(
    system: str = typer.Argument(..., help="parse, encoder or coref"),
    input_path: Path = typer.Argument(..., help="Documents (.jsonl) or parsed docs (.spacy)"),
    output: Path = typer.Argument(..., help="Result JSON"),
    batch_size: int = typer.Option(32, "--batch-size", help="Documents per batch"),
    docbin: Optional[Path] = typer.Option(None, "--docbin", help="Where parse writes its docs"),
) -> None:
    if system not in SYSTEMS:
        raise typer.BadParameter(f"expected one of {SYSTEMS}, found '{system}'")
    run_worker(system, input_path, output, batch_size, docbin)


if __name__ == "__main__":
    typer.run(main)
