#!/bin/bash
# Usage: deploy/slurm/submit-count.sh BOARD SHARDS PARTS_DIR OUT_FILE [SBATCH_OPTION...]
#
# Queues SHARDS array tasks (count.sbatch; task K runs
# `experiment count --board BOARD --shard K/SHARDS` and writes
# PARTS_DIR/count-K.json) and a merge job (count-merge.sbatch) that starts
# only when every task succeeded and writes the counts table OUT_FILE
# (Parquet). Builds nothing: put a static binary first, e.g.
#   CGO_ENABLED=0 go build -o experiment ./cmd/experiment
#
# Environment (as submit.sh): CPUS_PER_TASK (16), MEM (8G) and TIME_LIMIT
# (24:00:00) of each task, MERGE_TIME_LIMIT (00:10:00), PARTITION, ACCOUNT,
# SBATCH_EXTRA, BIN (./experiment); COUNT_FLAGS are further flags of
# `experiment count`, split at spaces, the same for every task, e.g.
#   COUNT_FLAGS="--paired-ends --max-memory 6GiB" deploy/slurm/submit-count.sh 7x7 8 parts 7x7.parquet
# (--paired-ends and --closed must be the same in every task: merge refuses
# parts of different counts). Each task's memory must hold its sweeps'
# widest layer: give --max-memory a little under MEM.
#
# Submitting again with the same PARTS_DIR keeps the finished parts and
# reruns the others.
set -euo pipefail
usage="usage: $0 BOARD SHARDS PARTS_DIR OUT_FILE [SBATCH_OPTION...]"
[ $# -ge 4 ] || { echo "$usage" >&2; exit 2; }
BOARD=$1 SHARDS=$2 PARTS=$3 OUT=$4
shift 4
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || { echo "$0: SHARDS must be a whole number of at least 1, got '$SHARDS'" >&2; exit 2; }
# Slurm's largest array (MaxArraySize, at most 4000001) bounds SHARDS before
# any arithmetic, which would wrap past 2^63; the binary's check below
# bounds it by the work there is to share.
{ [ ${#SHARDS} -le 7 ] && [ "$SHARDS" -le 4000001 ]; } ||
  { echo "$0: SHARDS $SHARDS: at most 4000001 (the largest array Slurm allows), and no more than the work there is to share: nothing queued" >&2; exit 2; }
BIN=${BIN:-./experiment}
[ -x "$BIN" ] || { echo "$0: BIN=$BIN is not an executable file: build the binary first (CGO_ENABLED=0 go build -o experiment ./cmd/experiment) or set BIN" >&2; exit 2; }
[ -e "$OUT" ] && { echo "$0: $OUT already exists: the merge writes only a new file; choose another OUT_FILE or remove it" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
mkdir -p "$PARTS" "$(dirname "$OUT")"
PARTS=$(cd "$PARTS" && pwd)
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
COUNT_FLAGS=${COUNT_FLAGS:-}
export BOARD PARTS OUT BIN COUNT_FLAGS
# Everything is checked before anything is queued: the command a task runs
# (the board, COUNT_FLAGS, the shard), with --check, which counts nothing;
# a mistake stops here with the command's own message.
read -r -a flags <<<"$COUNT_FLAGS"
if ! "$BIN" count --check --board "$BOARD" ${flags[@]+"${flags[@]}"} --shard "0/$SHARDS" --out "$PARTS/.submit-check.json" >/dev/null; then
  echo "$0: the count's tasks would fail (above): nothing queued" >&2
  exit 1
fi

here=$(cd "$(dirname "$0")" && pwd)
both=()
[ -n "${PARTITION:-}" ] && both+=(--partition="$PARTITION")
[ -n "${ACCOUNT:-}" ] && both+=(--account="$ACCOUNT")
read -r -a extra <<<"${SBATCH_EXTRA:-}"
both+=(${extra[@]+"${extra[@]}"} "$@")

array=$(sbatch --parsable --array=0-$((SHARDS - 1)) --cpus-per-task="${CPUS_PER_TASK:-16}" --mem="${MEM:-8G}" \
  --time="${TIME_LIMIT:-24:00:00}" ${both[@]+"${both[@]}"} "$here/count.sbatch")
array=${array%%;*}
if ! merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes --cpus-per-task=1 --mem=1G \
  --time="${MERGE_TIME_LIMIT:-00:10:00}" ${both[@]+"${both[@]}"} "$here/count-merge.sbatch"); then
  echo "$0: the merge job could not be queued; cancelling array job $array" >&2
  scancel "$array" || true
  exit 1
fi
merge=${merge%%;*}
echo "count array job $array ($SHARDS shards of $BOARD: parts in $PARTS), merge job $merge -> $OUT"
