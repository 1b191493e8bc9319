"""The latency of one short document through a shipped coref stack, in this process:

    python scripts/short_doc_latency.py default|fast [--precision bf16] [--runs 120]

The default gets the document parsed first (the parse is not timed); the fast pipeline gets it
as raw text. Prints the median and the 90th percentile in ms over the runs after the first 20
(warm-up). Compare two versions by running each in turn on the same machine.
"""
import statistics
import time

import typer

from spacy_coref.benchmark.systems import load_coref, load_fast

TEXT = (
    "Maria called her brother on Sunday. He said that he would visit her soon, and she was glad."
)
WARM_UP = 20


def main(
    pipeline: str = typer.Argument(..., help="default or fast"),
    precision: str = typer.Option("bf16", "--precision", help="fp32, bf16 or auto"),
    runs: int = typer.Option(120, "--runs", min=WARM_UP + 10),
) -> None:
    load = load_coref if pipeline == "default" else load_fast
    nlp = load(precision=precision)
    doc = nlp.make_doc(TEXT)
    for _, component in nlp.pipeline[:-1]:  # the parser pipeline before the coref stack
        doc = component(doc)
    coref = nlp.get_pipe("coref")
    seconds = []
    for _ in range(runs):
        fresh = doc.copy()
        start = time.perf_counter()
        coref(fresh)
        seconds.append(time.perf_counter() - start)
    timed = sorted(seconds[WARM_UP:])
    p90 = timed[int(0.9 * (len(timed) - 1))]
    print(f"{pipeline} {precision}: median {1000 * statistics.median(timed):.2f} ms, "
          f"p90 {1000 * p90:.2f} ms over {len(timed)} runs ({len(doc)} tokens)")


if __name__ == "__main__":
    typer.run(main)
