#!/bin/bash
# Usage: deploy/slurm/submit.sh EXPERIMENT SHARDS PARTS_DIR OUT_DIR
# Builds nothing: put a static binary first, e.g.
#   CGO_ENABLED=0 go build -o experiment ./cmd/experiment
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 EXPERIMENT SHARDS PARTS_DIR OUT_DIR" >&2; exit 2; }
EXPERIMENT=$1 SHARDS=$2 PARTS=$3 OUT=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$PARTS"
export EXPERIMENT PARTS OUT
array=$(sbatch --parsable --array=0-$((SHARDS - 1)) "$here/array.sbatch")
merge=$(sbatch --parsable --dependency=afterok:"$array" "$here/merge.sbatch")
echo "array job $array ($SHARDS shards), merge job $merge -> $OUT"
