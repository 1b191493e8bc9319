"""Batch coreference on Ray Data (the optional extra: pip install 'spacy-s2e-coref[ray]').

The public entry point of the scale-out API; the code is in `spacy_coref.scaleout.workers`.
Without the extra, importing this module raises CE320.

    import ray
    from spacy_coref.ray import resolve_dataset

    ds = ray.data.read_parquet("docs/").materialize()
    resolve_dataset(ds, concurrency=8).write_parquet("resolved/")

docs/scale_out.md has the cluster commands and figures.
"""
from .scaleout.workers import (
    CLUSTER_TYPE,
    MENTION_TYPE,
    OUTPUT_TYPES,
    SCORE_TYPE,
    CorefActor,
    Result,
    column_texts,
    map_workers,
    resolve_dataset,
)

__all__ = [
    "CLUSTER_TYPE",
    "MENTION_TYPE",
    "OUTPUT_TYPES",
    "SCORE_TYPE",
    "CorefActor",
    "Result",
    "column_texts",
    "map_workers",
    "resolve_dataset",
]
