"""Write the decoding safety net of tests/decoding/test_snapshot.py (`spacy_coref.decoding.
snapshot`): the dev documents as the shipped default pipeline parsed them, the model's scores
for them, and the clusters that today's decoding gives under every step list of
`snapshot_variants`, with the parse and without it.

    python scripts/decoding_snapshot.py [--model default] [--corpus corpus]
        [--out tests/data/decoding_snapshot] [--gap-examples 150]
    python scripts/decoding_snapshot.py --analysis-only

Beside the clusters it writes what the mention analysis reads of each candidate
(`analysis.npz`); `--analysis-only` writes that alone, from the stored docs and scores, when
a rule of the analysis is changed on purpose (seconds; no model is run).

Rerun it only when a step is changed on purpose and measured (`spacy-coref compare`): the
commit then shows which variants' clusters moved. Reads every LitBank and OntoGUM dev doc and
the first GAP dev examples of `spacy-coref make-corpus ../shared/data corpus` (dev/ and
gap-dev/).
"""
import argparse
import time
from pathlib import Path

import spacy
from spacy.util import load_config

from spacy_coref.decoding import decode_clusters
from spacy_coref.decoding.snapshot import (
    load_snapshot, save_analysis, save_snapshot, snapshot_variants,
)
from spacy_coref.formats import read_docs
from spacy_coref.pipeline.constraints import CONSTRAINTS
from spacy_coref.pipeline.coref import coref_pipeline_path
from spacy_coref.training.evaluation import cluster_components, load_coref_nlp, scored_docs


def shipped_steps(pipeline: str):
    """The 'constraints' list of a shipped pipeline's config."""
    config = load_config(coref_pipeline_path(pipeline) / "config.cfg", interpolate=False)
    return list(config["components"]["coref_cluster"]["constraints"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="default")
    parser.add_argument("--corpus", type=Path, default=Path("corpus"))
    parser.add_argument("--out", type=Path, default=Path("tests/data/decoding_snapshot"))
    parser.add_argument("--gap-examples", type=int, default=150)
    parser.add_argument("--analysis-only", action="store_true",
                        help="only analysis.npz, from the stored docs and scores")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.analysis_only:
        docs, scores, _, _ = load_snapshot(args.out, spacy.blank("en").vocab)
        save_analysis(args.out, docs, scores)
        print(f"analysis of {len(docs)} docs in {args.out}; {time.perf_counter() - start:.0f} s")
        return
    nlp = load_coref_nlp(args.model)
    (cluster,) = cluster_components(nlp)
    references = []
    for name in ("dev/litbank", "dev/gum", "gap-dev/gap"):
        docs = read_docs(args.corpus / f"{name}.spacy", vocab=nlp.vocab)
        references.extend(docs[: args.gap_examples] if name.endswith("gap") else docs)
    scored = scored_docs(nlp, references)
    meta = {
        "model": args.model,
        "null_score": float(cluster.cfg.get("null_score", 0.0)),
        "null_scores_by_form": dict(cluster.cfg.get("null_scores_by_form", {})),
        "variants": snapshot_variants(
            CONSTRAINTS, shipped_steps("default"), shipped_steps("fast")
        ),
    }
    docs = [doc for doc, _ in scored]
    expected = save_snapshot(args.out, docs, [s for _, s in scored], meta, decode_clusters)
    # what was stored: the docs without their tensors, the scores rounded
    stored_docs, stored_scores, _, _ = load_snapshot(args.out, spacy.blank("en").vocab)
    save_analysis(args.out, stored_docs, stored_scores)
    print(f"{len(docs)} docs, {sum(len(d) for d in docs)} words, {len(expected)} decodings "
          f"each, in {args.out}; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
