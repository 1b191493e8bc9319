"""Speed benchmark: a fixed document set, the bare encoder, the coref pipeline and fastcoref,
each measured in a fresh process (so peak memory is its own), plus a long-document mode."""
