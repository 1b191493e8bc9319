#!/bin/bash
# The accurate pipeline's round on a GPU machine (torch and transformers only), over several
# calls of the device tool: DATA is prepare.py's output, packed into loads DATA/load_1 ...
# DATA/load_N of under 64 MiB each, since one call carries at most 64 MiB (the working tree
# with it). Each call carries one load and copies it into $GPU_STAGE (default
# /tmp/spacy_coref_gpu) on that machine, which keeps it while the machine stays warm (30 s
# after a call): the calls follow one another at once.
#
#   bash scripts/gpu/run_accurate.sh stage DATA                  # calls 1 .. N-1
#   bash scripts/gpu/run_accurate.sh train DATA MINUTES [train.py options]   # call N
#
# `train` stages the load it came with, checks every file of the manifest (sizes, sha256;
# exit 3 naming the missing loads), then runs train.py for MINUTES (loading and the frozen
# layers' cache included) with its log in $OUT/log_accurate.txt and the weights in
# $OUT/accurate (an encoder file of 13.5 MiB per trained layer of MPNet, and head.pt).
# train.py comes from the staged code/ (prepare.py's copy), so the calls need no checkout of
# this repository there; where it has one, its scripts/gpu/train.py is the same file.
# On a machine without a GPU it runs too (a CPU check of the route, far slower).
set -u -o pipefail
cmd=${1:?stage or train}; data=${2:?DATA}; shift 2
stage=${GPU_STAGE:-/tmp/spacy_coref_gpu}/$(basename "$data")
mkdir -p "$stage"
for load in "$data"/load_*/; do
  [ -d "$load" ] || continue
  cp -r "$load". "$stage"/ && echo "staged $(basename "$load") ($(du -sm "$load" | cut -f1) MiB)"
done
py=python3
command -v "$py" >/dev/null || py=python
if [ -f "$stage/code/scripts/gpu/train.py" ]; then
  train="$stage/code/scripts/gpu/train.py"
else
  train="$(dirname "$0")/train.py"
fi
case "$cmd" in
  stage)
    "$py" "$train" "$stage" --check || true  # says which loads are still to come
    ;;
  train)
    minutes=${1:?MINUTES}; shift
    "$py" "$train" "$stage" --check || exit 3
    out=${OUT:-training/gpu/accurate_out}
    mkdir -p "$out/accurate"
    "$py" -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__, 'cuda', torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else '')"
    PYTHONUNBUFFERED=1 "$py" "$train" "$stage" "$out/accurate" --minutes "$minutes" "$@" 2>&1 \
      | tee "$out/log_accurate.txt"
    ;;
  *)
    echo "usage: $0 stage DATA | train DATA MINUTES [train.py options]" >&2
    exit 2
    ;;
esac
