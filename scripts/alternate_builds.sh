#!/usr/bin/env bash
# Speed of two builds of the package, alternated on the benchmark's 300 documents, each system
# in a fresh process (BENCHMARKS.md: "On a CPU without native bf16").
#
#   git worktree add /tmp/before COMMIT
#   bash scripts/alternate_builds.sh /tmp/before . WORKDIR [fp32|bf16|auto] [RUNS]
#
# (N_DOCS=10 for a quick check of the script.) Writes WORKDIR/{coref,fast}-{before,after}-RUN.json
# and prints each run's words/s; then the bare encoder (a) once, with the second build. Pause
# anything else running on the machine.
set -euo pipefail
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
work=$3
precision=${4:-fp32}
runs=${5:-2}
python=${PYTHON:-$after/.venv/bin/python}
data=${DATA:-$after/../shared/data/unlabeled}
n_docs=${N_DOCS:-300}
mkdir -p "$work"
work=$(cd "$work" && pwd)
if [ ! -f "$work/docs-$n_docs-seed0.spacy" ]; then
  (cd "$after" && "$python" -c "from pathlib import Path
from spacy_coref.benchmark.docset import build_docset, write_docset
write_docset(build_docset(Path('$data'), $n_docs, seed=0), Path('$work/docs-$n_docs-seed0.jsonl'))")
  (cd "$after" && "$python" -m spacy_coref.benchmark.worker parse "$work/docs-$n_docs-seed0.jsonl" \
    "$work/parse.json" --docbin "$work/docs-$n_docs-seed0.spacy")
fi
words_per_s() {
  "$python" -c "import json, sys; print(round(json.load(open(sys.argv[1]))['words_per_s']))" "$1"
}
for run in $(seq 1 "$runs"); do
  for build in before after; do
    dir=$before; [ "$build" = after ] && dir=$after
    for system in coref fast; do
      docs=$work/docs-$n_docs-seed0.spacy
      [ "$system" = fast ] && docs=$work/docs-$n_docs-seed0.jsonl
      out=$work/$system-$build-$run.json
      (cd "$dir" && PYTHONPATH="$dir" "$python" -m spacy_coref.benchmark.worker "$system" \
        "$docs" "$out" --precision "$precision")
      echo "$system $build run $run: $(words_per_s "$out") words/s"
    done
  done
done
(cd "$after" && PYTHONPATH="$after" "$python" -m spacy_coref.benchmark.worker encoder \
  "$work/docs-$n_docs-seed0.spacy" "$work/encoder.json" --precision "$precision")
echo "bare encoder: $(words_per_s "$work/encoder.json") words/s"
