#!/bin/sh
# The general kernel against its C baseline: bench/c/large.c
# (cc -O3 -march=native, the project's stream, so the same walks) against
# `experiment run --workers 1` with exact off, from the corner square r0c0
# (`starts: [corner]` would be all four corners, four times the walks), on 100x100
# and 1000x1000 for warnsdorff/random and the random walk. Each pair runs
# REPS times interleaved (C, Go, C, Go, ...); it prints each run's CPU
# seconds (user + system of the process: Go's includes planning, tables
# and report, and its system time the pages of its tables) and the median
# ratio C time / Go time (higher is better), of user + system and of user
# time alone (issue 56's measure).
#
# Usage: [EXPERIMENT=binary] bench/c/large.sh [REPS]
# (from the repository root; default 3 runs a pair, ./cmd/experiment built)
set -eu
reps=${1:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O3 -march=native -o "$tmp/large" bench/c/large.c
if [ -n "${EXPERIMENT:-}" ]; then # another build to measure, e.g. an earlier commit's
	cp "$EXPERIMENT" "$tmp/experiment"
else
	go build -o "$tmp/experiment" ./cmd/experiment
fi
grep -m1 'model name' /proc/cpuinfo || true
grep -q avx512f /proc/cpuinfo && echo "AVX-512: yes" || echo "AVX-512: no"
cputime() { # prints the user + system and the user CPU seconds of the command
	/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null
	awk '{print $1 + $2, $1}' "$tmp/t"
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
for spec in "100 random 200000" "1000 random 100000" "100 warnsdorff 8000" "1000 warnsdorff 400"; do
	set -- $spec
	n=$1 rule=$2 walks=$3
	cat >"$tmp/e.yaml" <<YAML
name: large-c
seed: 1
exact: off
boards: [${n}x${n}]
starts: [r0c0]
walks: $walks
rules:
  - {name: $rule}
YAML
	ratios="" uratios=""
	for i in $(seq "$reps"); do
		set -- $(cputime "$tmp/large" "$rule" "$n" "$walks")
		c=$1 cu=$2
		set -- $(cputime "$tmp/experiment" run "$tmp/e.yaml" --workers 1 --out "$tmp/out" --force --quiet)
		g=$1 gu=$2
		echo "${n}x${n} $rule $walks walks: C ${c}s (user ${cu}s), Go ${g}s (user ${gu}s)"
		ratios="$ratios $(awk -v c="$c" -v g="$g" 'BEGIN{printf "%.3f", c / g}')"
		uratios="$uratios $(awk -v c="$cu" -v g="$gu" 'BEGIN{printf "%.3f", c / g}')"
	done
	echo "${n}x${n} $rule: C/Go$ratios, median $(echo $ratios | median); user C/Go$uratios, median $(echo $uratios | median)"
done
