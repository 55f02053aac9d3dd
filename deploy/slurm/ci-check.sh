#!/usr/bin/env bash
# CI check of deploy/slurm on a real one-node Slurm cluster.
#
# Usage (as root, on Debian or Ubuntu): deploy/slurm/ci-check.sh [BIN]
#
# Installs Debian's slurmctld, slurmd, slurm-client and munge when they are
# missing; starts munged, slurmctld and slurmd for this host with every file
# (key, socket, state, spool, logs, slurm.conf) in a temporary directory, so
# that nothing of the machine's own Slurm or munge is used or touched; then
#   1. submits a 3-shard experiment through submit.sh and checks that the
#      merged tables are byte for byte those of one plain run;
#   2. submits it again, requeues one array task (scontrol requeue) once it
#      has checkpointed some units, and checks that the task resumed from its
#      checkpoint and that the merge still gives the same bytes;
#   3. submits a sequential experiment with claims (walks: {until: decided})
#      with 3 shards: its merge job queues round after round until the run
#      is decided, and the squares, claims and lengths tables (every Parquet
#      table) must be those of one plain run, byte for byte;
#   4. submits it again, kills (scancel) an array task of the first round
#      once it has checkpointed some units, which cancels the merge; then
#      submits it once more with the same parts: the killed shard resumes
#      from its checkpoint and the result is the same bytes;
#   5. counts 6x6 open tours in 3 shards through submit-count.sh: the
#      merged counts table equals one count's, byte for byte;
#   6. runs a rule of your own on the cluster: the examples/custom-rule
#      binary (CUSTOM_BIN, or built here) submitted through submit.sh with
#      3 shards, on an experiment of its rule mine/degree-sum2 and of
#      backtracking ordered by it; the merged tables equal that binary's
#      plain run, byte for byte.
# The daemons it started are stopped by PID and the directory removed on
# every exit. BIN is the experiment binary; without it one is built.
# Environment: CUSTOM_BIN, the examples/custom-rule binary (built when
# unset); CPUS_PER_TASK (1) and MEM (500M) go to submit.sh;
# KNIGHTWALK_SLURM_CI_TIMEOUT bounds each wait, in seconds (180);
# KNIGHTWALK_SLURM_CI_KEEP=1 keeps the directory after a failure.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
export PATH=$PATH:/usr/sbin:/sbin
export CPUS_PER_TASK=${CPUS_PER_TASK:-1} MEM=${MEM:-500M}
timeout=${KNIGHTWALK_SLURM_CI_TIMEOUT:-180}
shards=3
t_start=$SECONDS

say() { echo "slurm-ci: $*"; }
fail() {
  echo "slurm-ci: FAIL: $*" >&2
  exit 1
}

# --- packages --------------------------------------------------------------

[ "$(id -u)" -eq 0 ] || fail "must run as root (it installs packages and starts Slurm's daemons)"
install_packages() {
  local p missing=()
  for p in slurmctld slurmd sbatch munged mungekey; do
    command -v "$p" >/dev/null || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  say "installing slurmctld slurmd slurm-client munge (missing: ${missing[*]})"
  command -v apt-get >/dev/null || fail "no apt-get on this machine: install Debian's slurmctld, slurmd, slurm-client and munge by hand"
  # Keep the packages' own services from starting (they would look for
  # /etc/slurm/slurm.conf); a policy-rc.d already present is left alone.
  local policy=/usr/sbin/policy-rc.d ours=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && ours=$policy
  fi
  local ok=true
  export DEBIAN_FRONTEND=noninteractive
  # Wait for a dpkg lock held by another apt-get rather than fail at once.
  apt-get -o DPkg::Lock::Timeout=300 update -q || ok=false
  $ok && apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends \
    slurmctld slurmd slurm-client munge || ok=false
  [ -n "$ours" ] && rm -f "$ours"
  $ok || fail "could not install slurmctld slurmd slurm-client munge with apt-get (see above): the Slurm check cannot run"
  for p in slurmctld slurmd sbatch munged mungekey; do
    command -v "$p" >/dev/null || fail "$p is still missing after apt-get install"
  done
}
install_packages

# --- a private cluster -----------------------------------------------------

work=$(mktemp -d /tmp/knightwalk-slurm-ci.XXXXXX)
chmod 755 "$work" # munged wants its socket's directories searchable by all
mkdir -p "$work"/{state,spool,log,run,jobs}
mkdir -m 700 "$work/key"
pids=() ctld_pid=""
# strays prints the processes other than this script that hold a file under
# $work open: job steps (slurmstepd and the experiment) that outlived slurmd.
strays() {
  local p f
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" = $$ ] || [ "$p" = "$BASHPID" ] && continue
    for f in /proc/"$p"/fd/*; do
      [[ $(readlink "$f" 2>/dev/null) == "$work"/* ]] && { echo "$p"; break; }
    done
  done
  return 0
}
cleanup() {
  local rc=$? i left=()
  set +e # clean up as much as can be, whatever fails
  # Jobs first, while the controller can still end them: slurmstepd and the
  # job's processes do not stop with slurmd.
  if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null && [ -n "$(timeout 10 squeue -h 2>/dev/null)" ]; then
    timeout 10 scancel --user=root 2>/dev/null
    for _ in $(seq 60); do [ -z "$(timeout 10 squeue -h 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  # Then the daemons, in reverse order of starting: slurmd, slurmctld, munged.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null || true
  done
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    for _ in $(seq 50); do kill -0 "${pids[i]}" 2>/dev/null || break; sleep 0.1; done
    kill -9 "${pids[i]}" 2>/dev/null || true
    wait "${pids[i]}" 2>/dev/null || true
  done
  mapfile -t left < <(strays)
  if [ ${#left[@]} -gt 0 ]; then
    echo "slurm-ci: killing job processes left behind: ${left[*]}" >&2
    kill -9 "${left[@]}" 2>/dev/null
  fi
  if [ $rc -ne 0 ] && [ "${KNIGHTWALK_SLURM_CI_KEEP:-}" = 1 ]; then
    echo "slurm-ci: kept $work (KNIGHTWALK_SLURM_CI_KEEP=1)" >&2
  else
    rm -rf "$work"
  fi
  if [ $rc -eq 0 ]; then
    say "PASS in $((SECONDS - t_start)) s"
  else
    echo "slurm-ci: failed (exit $rc) after $((SECONDS - t_start)) s; the daemons it started are stopped" >&2
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# free_port prints a TCP port from $1 up on which nothing listens.
free_port() {
  local p=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}
ctld_port=$(free_port 46817)
slurmd_port=$(free_port $((ctld_port + 1)))

node=$(hostname -s)
cpus=$(nproc)
mem_mb=$(free -m | awk '/^Mem:/ {print $2}')
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<EOF
# One-node cluster of the knightwalk CI check; everything under $work.
ClusterName=knightwalk-ci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/run/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$work/log/jobcomp.txt
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
KillWait=10
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

mungekey -c -k "$work/key/munge.key"
munged -F --key-file="$work/key/munge.key" --socket="$work/run/munge.socket" \
  --pid-file="$work/run/munged.pid" --seed-file="$work/key/munged.seed" \
  >"$work/log/munged.log" 2>&1 &
pids+=($!)
slurmctld -D -f "$SLURM_CONF" >"$work/log/slurmctld.out" 2>&1 &
ctld_pid=$!
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)

# diagnose prints what the scheduler and the daemons say; on every failure.
diagnose() {
  local f
  echo "---- squeue"; timeout 10 squeue -a -l 2>&1 || true
  echo "---- sinfo"; timeout 10 sinfo -N -l 2>&1 || true
  echo "---- scontrol show job"; timeout 10 scontrol show job 2>&1 || true
  echo "---- sacct (without slurmdbd it has nothing; jobcomp.txt below lists the finished jobs)"
  timeout 10 sacct -a -X 2>&1 || true
  for f in "$work"/jobs/*/*.log "$work"/log/*; do
    [ -f "$f" ] && { echo "---- $f (last 30 lines)"; tail -n 30 "$f"; }
  done
}
fail_diag() {
  echo "slurm-ci: FAIL: $*" >&2
  diagnose >&2
  exit 1
}

# wait_for SECONDS WHAT COMMAND...: polls COMMAND every $poll seconds (0.5)
# until it succeeds.
wait_for() {
  local limit=$1 what=$2 t0=$SECONDS
  shift 2
  until "$@"; do
    local i
    for i in "${!pids[@]}"; do
      kill -0 "${pids[i]}" 2>/dev/null || fail_diag "a daemon (pid ${pids[i]}) exited while waiting for $what"
    done
    ((SECONDS - t0 < limit)) || fail_diag "timed out after ${limit} s waiting for $what"
    sleep "${poll:-0.5}"
  done
}
node_idle() { [ "$(timeout 10 sinfo -h -n "$node" -o %T 2>/dev/null)" = idle ]; }
wait_for 60 "node $node to come up idle" node_idle
say "cluster up: node $node, $cpus CPUs, ${mem_mb} MB; controller on port $ctld_port ($((SECONDS - t_start)) s)"

# --- the experiment and one plain run --------------------------------------

if [ $# -ge 1 ]; then
  bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
else
  bin=$work/experiment
  (cd "$repo" && CGO_ENABLED=0 go build -o "$bin" ./cmd/experiment)
fi
if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then fail "$bin is not an executable file: give the experiment binary"; fi
# 5 million walks per shard, 4 to 15 s on one CPU of the 2-CPU development
# machine (idle or shared): long enough for the requeue to land mid-run,
# short enough to keep the check near a minute.
exp=$work/slurm-ci.yaml
cat >"$exp" <<'EOF'
name: slurm-ci
description: The experiment of the Slurm CI check (deploy/slurm/ci-check.sh).
seed: 14
boards: [8x8]
starts: all
walks: 120000
rules:
  - {name: warnsdorff, tie_break: random}
  - {name: random}
EOF
# From the directory the jobs run in: a binary without a VCS stamp takes
# the tables' git_commit from its working directory's repository.
t0=$SECONDS
(cd "$work/jobs" && "$bin" run "$exp" --out "$work/one" --quiet --workers "$cpus" >/dev/null)
say "plain run in $((SECONDS - t0)) s"

# --- jobs --------------------------------------------------------------------

# submit NAME [EXPERIMENT]: queues the experiment through submit.sh; sets
# array and merge.
submit() {
  local d=$work/jobs/$1 line
  mkdir -p "$d"
  line=$(cd "$d" && BIN=${submit_bin:-$bin} "$repo/deploy/slurm/submit.sh" "${2:-$exp}" $shards "$d/parts" "$d/out") ||
    fail_diag "submit.sh failed for job $1"
  echo "$line"
  [[ $line =~ array\ job\ ([0-9]+).*merge\ job\ ([0-9]+) ]] || fail "cannot read the job ids from submit.sh's output: $line"
  array=${BASH_REMATCH[1]} merge=${BASH_REMATCH[2]}
}

# Slurm's clients retry for a minute when the controller is gone: bound them.
job_field() { timeout 10 scontrol -o show job "$1" 2>/dev/null | grep -o "$2=[^ ]*" | head -n 1 | cut -d= -f2; }

merge_done() {
  local st reason
  st=$(job_field "$merge" JobState)
  reason=$(job_field "$merge" Reason)
  [ "$st" = COMPLETED ] && return 0
  [ "$reason" = DependencyNeverSatisfied ] && fail_diag "merge job $merge will never run ($st): an array task of job $array failed (see its log below)"
  case $st in
  FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE)
    fail_diag "merge job $merge ended $st (Reason=$reason)" ;;
  esac
  return 1
}

# same_tables DIR [ONE]: the Parquet tables of DIR are those of the plain
# run ONE ($work/one), byte for byte.
same_tables() {
  local f n=0 one=${2:-$work/one}
  for f in "$one"/*.parquet; do
    cmp -s "$f" "$1/$(basename "$f")" || fail_diag "$1/$(basename "$f") differs from the plain run's"
    n=$((n + 1))
  done
  [ $n -gt 0 ] || fail "the plain run wrote no Parquet tables"
  for f in "$1"/*.parquet; do
    [ -e "$one/$(basename "$f")" ] || fail "$f: a table the plain run did not write"
  done
  say "$n Parquet tables byte-identical to the plain run's: $(cd "$1" && echo *.parquet)"
}

t0=$SECONDS
submit plain
wait_for "$timeout" "merge job $merge" merge_done
same_tables "$work/jobs/plain/out"
say "job 1 (3 array tasks + merge) in $((SECONDS - t0)) s"

# Job 2: requeue task 1 once it has checkpointed a unit and while it runs.
t0=$SECONDS
submit requeue
task=${array}_1
cp=$work/jobs/requeue/parts/part-1.partial/checkpoint.jsonl
mid_run() {
  [ "$(job_field "$task" JobState)" = RUNNING ] && [ -f "$cp" ] && [ "$(wc -l <"$cp")" -ge 2 ]
}
poll=0.1 wait_for "$timeout" "array task $task to checkpoint a unit" mid_run
[ -e "$work/jobs/requeue/parts/part-1" ] && fail_diag "task $task finished before it could be requeued: make the experiment longer"
units=$(($(wc -l <"$cp") - 1))
scontrol requeue "$task" || fail_diag "scontrol requeue $task failed"
say "requeued task $task after $units units"
# Slurm holds a requeued job back for two minutes (Reason=BeginTime); once
# it is pending again, let it start at once to keep the check short.
pending() { [ "$(job_field "$task" JobState)" = PENDING ]; }
wait_for 60 "requeued task $task to be pending" pending
scontrol update JobId="$task" StartTime=now || fail_diag "cannot release requeued task $task"
wait_for "$timeout" "merge job $merge" merge_done
restarts=$(job_field "$task" Restarts)
[ "${restarts:-0}" -ge 1 ] || fail_diag "task $task shows Restarts=${restarts:-none}: it was not requeued"
grep -q "resuming .*part-1 from its checkpoint" "$work"/jobs/requeue/knightwalk-"${array}"_1.log ||
  fail_diag "task $task did not resume from its checkpoint (no 'resuming' in its log)"
say "task $task resumed: $(grep -h 'resuming' "$work"/jobs/requeue/knightwalk-"${array}"_1.log | tail -n 1)"
same_tables "$work/jobs/requeue/out"
say "job 2 (requeued task + merge) in $((SECONDS - t0)) s"

# --- a sequential run, round by round ------------------------------------

# Four rounds on the 2-CPU development machine (128, 28, 28 and 28
# squares), the first of 19.2 million walks, a few seconds a shard: long
# enough for the kill to land mid-round.
seq=$work/slurm-ci-seq.yaml
cat >"$seq" <<'EOF'
name: slurm-ci-seq
description: The sequential experiment of the Slurm CI check (deploy/slurm/ci-check.sh).
seed: 14
boards: [8x8]
starts: all
walks: {until: decided, min: 150000, max: 3000000}
rules: [{name: warnsdorff, tie_break: random}, {name: random}]
exact: off
claims:
  - {id: W-centre, rule: warnsdorff/random, class: centre, above: 0.9715}
  - {id: W-edge, rule: warnsdorff/random, class: edge, above: 0.9865}
  - {id: R-corner, rule: random, class: corner, below: 0.20}
EOF
t0=$SECONDS
(cd "$work/jobs" && "$bin" run "$seq" --out "$work/one-seq" --quiet --workers "$cpus" >/dev/null)
say "plain sequential run in $((SECONDS - t0)) s"

# failed_jobs NAME: the jobs of NAME that ended other than COMPLETED (the
# job completion log lists every finished job with its working directory).
failed_jobs() { grep "WorkDir=$work/jobs/$1 " "$work/log/jobcomp.txt" 2>/dev/null | grep -v "JobState=COMPLETED" || true; }
# seq_done NAME [FAILED]: the result of NAME is complete; more than FAILED
# (0) jobs of NAME that ended other than COMPLETED fail the check.
seq_done() {
  local bad
  bad=$(failed_jobs "$1")
  [ "$(printf '%s' "$bad" | grep -c .)" -le "${2:-0}" ] || fail_diag "a job of $1 failed: $bad"
  [ -f "$work/jobs/$1/out/manifest.json" ]
}
queue_empty() { [ -z "$(timeout 10 squeue -h 2>/dev/null)" ]; }

t0=$SECONDS
submit seq "$seq"
wait_for $((3 * timeout)) "the rounds of job seq to decide the run" seq_done seq
n=$(find "$work/jobs/seq/parts" -mindepth 1 -maxdepth 1 -name 'round-*' | wc -l)
[ "$n" -ge 2 ] || fail_diag "job seq took $n round: the check wants several"
same_tables "$work/jobs/seq/out" "$work/one-seq"
say "job 3 (sequential, $n rounds of $shards shards, each merged by a job that queued the next) in $((SECONDS - t0)) s"

# Job 4: kill task 1 of the first round mid-run, then submit again.
t0=$SECONDS
submit seqkill "$seq"
task=${array}_1
cp=$work/jobs/seqkill/parts/round-1/part-1.partial/checkpoint.jsonl
poll=0.1 wait_for "$timeout" "array task $task to checkpoint a unit" mid_run
[ -e "$work/jobs/seqkill/parts/round-1/part-1/part.json" ] && fail_diag "task $task finished before it could be killed: make round 1 longer"
units=$(($(wc -l <"$cp") - 1))
scancel "$task" || fail_diag "scancel $task failed"
say "killed task $task after $units units of round 1"
wait_for "$timeout" "the queue to empty after the kill (the merge job is cancelled with it)" queue_empty
[ -e "$work/jobs/seqkill/out" ] && fail_diag "a result was written although task $task was killed"
[ -e "$work/jobs/seqkill/parts/round-1/part-1/part.json" ] && fail_diag "the killed task $task left a finished part"
killed=$(failed_jobs seqkill | grep -c . || true)
submit seqkill "$seq"
wait_for $((3 * timeout)) "the resubmitted rounds of job seqkill to decide the run" seq_done seqkill "$killed"
grep -q "resuming: " "$work"/jobs/seqkill/knightwalk-"${array}"_1.log ||
  fail_diag "the resubmitted task ${array}_1 did not resume from its checkpoint (no 'resuming' in its log)"
say "task ${array}_1 resumed: $(grep -h 'resuming' "$work"/jobs/seqkill/knightwalk-"${array}"_1.log | tail -n 1)"
same_tables "$work/jobs/seqkill/out" "$work/one-seq"
say "job 4 (killed task, resubmitted) in $((SECONDS - t0)) s"

# --- a tour count in shards ------------------------------------------------

t0=$SECONDS
d=$work/jobs/count
mkdir -p "$d"
(cd "$d" && "$bin" count --board 6x6 --method frontier --paired-ends --format parquet --out "$d/one.parquet")
line=$(cd "$d" && BIN=$bin COUNT_FLAGS="--paired-ends --max-memory 400MiB" MEM=500M "$repo/deploy/slurm/submit-count.sh" 6x6 $shards "$d/parts" "$d/counts.parquet") ||
  fail_diag "submit-count.sh failed"
echo "$line"
[[ $line =~ merge\ job\ ([0-9]+) ]] || fail "cannot read the merge job id from submit-count.sh's output: $line"
merge=${BASH_REMATCH[1]}
wait_for "$timeout" "count merge job $merge" merge_done
cmp -s "$d/one.parquet" "$d/counts.parquet" || fail_diag "the merged counts table differs from one count's"
say "job 5 (6x6 open tours in $shards count shards + merge) in $((SECONDS - t0)) s"

# --- a rule of your own on the cluster --------------------------------------

t0=$SECONDS
if [ -n "${CUSTOM_BIN:-}" ]; then
  custom=$(cd "$(dirname "$CUSTOM_BIN")" && pwd)/$(basename "$CUSTOM_BIN")
else
  custom=$work/custom-rule
  (cd "$repo" && CGO_ENABLED=0 go build -o "$custom" ./examples/custom-rule)
fi
[ -x "$custom" ] || fail "$custom is not an executable file: give the examples/custom-rule binary in CUSTOM_BIN"
cexp=$work/slurm-ci-custom.yaml
cat >"$cexp" <<'EOF'
name: slurm-ci-custom
description: A rule of your own and backtracking ordered by it, on the cluster (deploy/slurm/ci-check.sh).
seed: 15
boards: [6x6, 8x8]
starts: [corner, centre]
walks: 400
rules:
  - {name: mine/degree-sum2}
  - {name: backtrack/mine/degree-sum2, tie_break: random, node_budget: 20000}
EOF
(cd "$work/jobs" && "$custom" run "$cexp" --out "$work/one-custom" --quiet --workers "$cpus" >/dev/null)
submit_bin=$custom submit custom "$cexp"
wait_for "$timeout" "merge job $merge of the custom-rule binary" merge_done
same_tables "$work/jobs/custom/out" "$work/one-custom"
say "job 6 (a rule of your own: the custom-rule binary, $shards array tasks + merge) in $((SECONDS - t0)) s"
