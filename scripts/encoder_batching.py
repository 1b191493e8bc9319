"""Time a shipped pipeline's encoder pipe with batch-invariant encoding (each segment alone) and
with padded sub-batches, in this fresh process, over the benchmark's documents:

    python scripts/encoder_batching.py default|fast WORKDIR [--precision bf16] [--padded]

WORKDIR is a `spacy-coref benchmark` work directory (its docs-300-seed0.spacy and .jsonl).
Prints the seconds of a first and a second pass (the first includes one-time costs). Run it
once per setting and alternate: the host's speed swings between runs.
"""
import json
import time
from pathlib import Path

import typer
from spacy.tokens import DocBin

from spacy_coref.benchmark.systems import load_coref, load_fast


def main(
    pipeline: str = typer.Argument(..., help="default or fast"),
    workdir: Path = typer.Argument(..., help="A benchmark work directory"),
    precision: str = typer.Option("bf16", "--precision"),
    padded: bool = typer.Option(False, "--padded", help="batch_invariant off"),
    n_docs: int = typer.Option(300, "--n-docs"),
) -> None:
    load = load_coref if pipeline == "default" else load_fast
    nlp = load(precision=precision)
    inner = nlp.get_pipe("coref").inner
    encoder = inner.get_pipe("transformer")
    encoder.model.attrs["batch_invariant"] = not padded
    stem = workdir / f"docs-{n_docs}-seed0"
    if pipeline == "default":
        docs = list(DocBin().from_disk(stem.with_suffix(".spacy")).get_docs(nlp.vocab))
    else:  # raw text, cut into sentences as the fast pipeline does
        lines = stem.with_suffix(".jsonl").read_text(encoding="utf8").splitlines()
        sentencizer = inner.get_pipe("sentencizer")
        docs = [sentencizer(nlp.make_doc(json.loads(line)["text"])) for line in lines]
    seconds = []
    for _ in range(2):
        start = time.perf_counter()
        list(encoder.pipe([doc.copy() for doc in docs], batch_size=32))
        seconds.append(time.perf_counter() - start)
    setting = "padded" if padded else "invariant"
    print(f"{pipeline} {precision} {setting}: first {seconds[0]:.2f} s, second {seconds[1]:.2f} s")


if __name__ == "__main__":
    typer.run(main)
