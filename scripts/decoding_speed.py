"""Decoding time per 10,000 words on the decoding snapshot (tests/data/decoding_snapshot): the
shipped default's steps on the parsed docs and the fast pipeline's on their unparsed copies,
the model's scores given, so that only the decoding is timed. Prints the best of --repeats
passes over all docs (the least disturbed by other work on the machine).

    python scripts/decoding_speed.py [--snapshot tests/data/decoding_snapshot] [--repeats 5]
"""
import argparse
import time
from pathlib import Path

import spacy

from spacy_coref.decoding import decode_clusters
from spacy_coref.decoding.snapshot import load_snapshot, unparsed_copy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snapshot", type=Path, default=Path("tests/data/decoding_snapshot"))
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    docs, scores, meta, _ = load_snapshot(args.snapshot, spacy.blank("en").vocab)
    runs = {"default": docs, "fast": [unparsed_copy(doc) for doc in docs]}
    n_words = sum(len(doc) for doc in docs)
    best = {}
    for _ in range(args.repeats):
        for variant, variant_docs in runs.items():  # interleaved: both see the same load
            steps = meta["variants"][variant]
            start = time.perf_counter()
            for doc, doc_scores in zip(variant_docs, scores):
                decode_clusters(doc, doc_scores, meta["null_score"], steps,
                                meta["null_scores_by_form"])
            seconds = time.perf_counter() - start
            best[variant] = min(best.get(variant, seconds), seconds)
    print(f"{len(docs)} docs, {n_words} words; best of {args.repeats}")
    for variant, seconds in best.items():
        parse = "parsed" if variant == "default" else "unparsed"
        print(f"{variant} steps ({parse}): {seconds * 10_000 / n_words * 1000:.0f} ms per "
              f"10,000 words")


if __name__ == "__main__":
    main()
