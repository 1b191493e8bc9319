"""Scale-out of `spacy-coref resolve` on Ray Data (the optional extra `spacy-s2e-coref[ray]`).

- `records`: reading one input line or record on a worker, error records, input files (no Ray).
- `units`: work units (a batch of lines or parquet rows) that the workers read themselves.
- `workers`: the worker (one Ray actor each), `map_workers` and `resolve_dataset`, whose
  public entry point is `spacy_coref.ray` (a re-export).
- `job`: `spacy-coref resolve --ray`: files, directories, stdin or arguments in, one jsonl
  file in input order or shards out.

Its throughput on one machine: `spacy_coref.benchmark.ray_throughput`. The guide with the
cluster commands and measured figures is docs/scale_out.md.
"""
