#!/bin/bash
# Usage: deploy/slurm/submit.sh EXPERIMENT SHARDS PARTS_DIR OUT_DIR [SBATCH_OPTION...]
#
# Queues SHARDS array tasks (array.sbatch; task K runs shard K/SHARDS,
# 0-based, and writes PARTS_DIR/part-K) and a merge job (merge.sbatch) that
# starts only when every task succeeded and writes OUT_DIR. Builds nothing:
# put a static binary first, e.g.
#   CGO_ENABLED=0 go build -o experiment ./cmd/experiment
#
# Resources and placement come from the environment, so nobody edits the
# scripts (options given on sbatch's command line override their #SBATCH
# lines):
#   CPUS_PER_TASK   CPUs of each array task, also its --workers   (16)
#   MEM             memory of each array task and of the merge    (4G)
#   TIME_LIMIT      time limit of each array task                 (04:00:00)
#   MERGE_TIME_LIMIT time limit of the merge job                  (00:30:00)
#   PARTITION, ACCOUNT  --partition / --account of both jobs      (cluster default)
#   SBATCH_EXTRA    further sbatch options for both jobs, split at spaces
#   BIN             the experiment binary                         (./experiment)
# SBATCH_OPTIONs after the four arguments are passed to both jobs too, e.g.
#   CPUS_PER_TASK=4 MEM=1G deploy/slurm/submit.sh large-boards 8 parts out --qos=long
#
# Submitting again with the same PARTS_DIR continues: finished parts are
# kept and interrupted ones resume from their checkpoints.
#
# A sequential experiment (walks: {until: ...}) runs round by round: the
# array runs the next round (task K writes PARTS_DIR/round-R/part-K), the
# merge job merges the rounds so far and, while squares are still running,
# queues the next round's array and merge by calling this script again
# (from the job: sbatch must work on the compute nodes); once the rounds
# decide the run it writes OUT_DIR, byte for byte one machine's run. Its
# log says after each round how many squares still run. After a failure,
# submit again with the same arguments: finished parts are kept, an
# interrupted shard resumes, and the run goes on from the round it was in.
set -euo pipefail
usage="usage: $0 EXPERIMENT SHARDS PARTS_DIR OUT_DIR [SBATCH_OPTION...]"
[ $# -ge 4 ] || { echo "$usage" >&2; exit 2; }
EXPERIMENT=$1 SHARDS=$2 PARTS=$3 OUT=$4
shift 4
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || { echo "$0: SHARDS must be a whole number of at least 1, got '$SHARDS'" >&2; exit 2; }
# Slurm's largest array (MaxArraySize, at most 4000001) bounds SHARDS before
# any arithmetic, which would wrap past 2^63; the binary's check below
# bounds it by the work there is to share.
{ [ ${#SHARDS} -le 7 ] && [ "$SHARDS" -le 4000001 ]; } ||
  { echo "$0: SHARDS $SHARDS: at most 4000001 (the largest array Slurm allows), and no more than the work there is to share: nothing queued" >&2; exit 2; }
BIN=${BIN:-./experiment}
[ -x "$BIN" ] || { echo "$0: BIN=$BIN is not an executable file: build the binary first (CGO_ENABLED=0 go build -o experiment ./cmd/experiment) or set BIN" >&2; exit 2; }
[ -e "$OUT" ] && { echo "$0: $OUT already exists: the merge would refuse to overwrite it; choose another OUT_DIR or remove it" >&2; exit 2; }
# Everything is checked before anything is made or queued: an experiment
# that does not validate stops here, with validate's own message (file,
# line, key), instead of queueing tasks that fail at once.
if ! report=$("$BIN" validate "$EXPERIMENT"); then
  echo "$0: $EXPERIMENT does not validate (above): nothing queued" >&2
  exit 1
fi
# A sieve's stages depend on each other: it runs whole, in one process,
# and writes a result, not a part for merge.sbatch, whatever SHARDS is.
if grep -q "a sieve of" <<<"$report"; then
  echo "$0: $EXPERIMENT is a sieve: it runs whole, in one process (its stages depend on each other), not as array tasks; run it as one job, e.g. sbatch --wrap \"$BIN run $EXPERIMENT --out $OUT\": nothing queued" >&2
  exit 1
fi
# What the array's tasks run, checked by the binary (run --check --shard):
# a sieve (it runs whole), more shards than work units, anything a task
# would refuse stops here with the binary's own message.
if ! "$BIN" run "$EXPERIMENT" --check --quiet --shard "0/$SHARDS" >/dev/null; then
  echo "$0: the array's tasks would fail (above): nothing queued" >&2
  exit 1
fi
# The jobs may start in another directory (--chdir): give them absolute paths.
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
[ -f "$EXPERIMENT" ] && EXPERIMENT=$(cd "$(dirname "$EXPERIMENT")" && pwd)/$(basename "$EXPERIMENT")
mkdir -p "$PARTS" "$(dirname "$OUT")"
PARTS=$(cd "$PARTS" && pwd)
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
export EXPERIMENT PARTS OUT BIN

here=$(cd "$(dirname "$0")" && pwd)
# A sequential run: the array and merge scripts go round by round, and the
# merge calls this script again; options given after the four arguments
# join SBATCH_EXTRA so that the next rounds get them too.
SEQUENTIAL=""
if grep -q "sequential until" <<<"$report"; then
  SEQUENTIAL=1
  SBATCH_EXTRA="${SBATCH_EXTRA:-}${*:+ $*}"
  set --
fi
# The round the array runs: the first whose parts are not all in PARTS,
# fixed here for every task (a task that started later would otherwise see
# the round the others just finished as complete).
ROUND=""
if [ -n "$SEQUENTIAL" ]; then
  ROUND=1
  while [ -e "$PARTS/round-$ROUND" ]; do
    n=$(find "$PARTS/round-$ROUND" -mindepth 2 -maxdepth 2 -name part.json | wc -l)
    [ "$n" -lt "$SHARDS" ] && break
    ROUND=$((ROUND + 1))
  done
fi
SHARDS_N=$SHARDS SUBMIT=$here/submit.sh
export SEQUENTIAL ROUND SHARDS_N SUBMIT SBATCH_EXTRA=${SBATCH_EXTRA:-}
both=(--mem="${MEM:-4G}")
[ -n "${PARTITION:-}" ] && both+=(--partition="$PARTITION")
[ -n "${ACCOUNT:-}" ] && both+=(--account="$ACCOUNT")
read -r -a extra <<<"${SBATCH_EXTRA:-}"
both+=(${extra[@]+"${extra[@]}"} "$@")

array=$(sbatch --parsable --array=0-$((SHARDS - 1)) --cpus-per-task="${CPUS_PER_TASK:-16}" \
  --time="${TIME_LIMIT:-04:00:00}" "${both[@]}" "$here/array.sbatch")
array=${array%%;*} # --parsable prints "id;cluster" on multi-cluster set-ups
if ! merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes --cpus-per-task=1 \
  --time="${MERGE_TIME_LIMIT:-00:30:00}" "${both[@]}" "$here/merge.sbatch"); then
  echo "$0: the merge job could not be queued; cancelling array job $array" >&2
  scancel "$array" || true
  exit 1
fi
merge=${merge%%;*}
if [ -n "$SEQUENTIAL" ]; then
  echo "array job $array ($SHARDS shards of round $ROUND: parts in $PARTS/round-$ROUND), merge job $merge -> $OUT (sequential: the merge queues the next round until decided)"
else
  echo "array job $array ($SHARDS shards: parts in $PARTS), merge job $merge -> $OUT"
fi
