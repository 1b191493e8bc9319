"""Speed benchmarks: a fixed document set, the bare encoder, the coref pipeline and fastcoref,
each measured in a fresh process (so peak memory is its own), plus a long-document mode
(`spacy-coref benchmark`); and the throughput of Ray workers (`ray_throughput`,
`scripts/ray_benchmark.py`)."""
