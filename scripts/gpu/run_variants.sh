#!/bin/bash
# Train several variants side by side on one GPU (each step is bound by Python and kernel
# launches, not by the GPU): DATA from prepare.py, OUT for the runs, MINUTES each, then one
# "name|train.py options" argument per variant. Each run's log goes to OUT/log_NAME.txt.
#   bash scripts/gpu/run_variants.sh .gpu/data $OUT 6.5 "a|" "b|--gap-weight 3"
# For the default pipeline (one load: DATA/load_1). The accurate pipeline's data comes in
# several loads and its weights fill most of what a call sends back: run_accurate.sh.
set -u
data=$1; out=$2; minutes=$3; shift 3
python3 -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__, 'cuda', torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else '')"
pids=()
for variant in "$@"; do
  name=${variant%%|*}; options=${variant#*|}
  mkdir -p "$out/$name"
  # shellcheck disable=SC2086 (options are words)
  PYTHONUNBUFFERED=1 python3 "$(dirname "$0")/train.py" "$data" "$out/$name" --minutes "$minutes" $options \
    > "$out/log_$name.txt" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
tail -n 12 "$out"/log_*.txt
exit $status
