#!/bin/bash
# Regenerates the parts directories of the audit corpus (cases.txt): parts
# of a small sequential run put where they do not belong. Usage, from the
# repository root: harness/testdata/audit/parts/make-parts.sh BIN
set -euo pipefail
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat >seq.yaml <<'YAML'
name: audit-seq
seed: 3
boards: [5x5]
starts: [a1]
walks: {until: decided, min: 50, max: 5000}
rules: [{name: warnsdorff}]
exact: off
claims:
  - {id: a1, rule: warnsdorff/random, square: a1, above: 0.5}
YAML
sed 's/seed: 3/seed: 4/' seq.yaml >seed4.yaml
sed 's/walks: {until: decided, min: 50, max: 5000}/walks: 50/' seq.yaml >fixed.yaml
for k in 0 1; do
  "$BIN" run seq.yaml --shard "$k/2" --round 1 --out g --quiet
  "$BIN" run seed4.yaml --shard "$k/2" --round 1 --out s --quiet
  "$BIN" run fixed.yaml --shard "$k/2" --out "f/part-$k" --quiet
done
for k in 0 1 2; do "$BIN" run seq.yaml --shard "$k/3" --round 1 --out t --quiet; done
put() { mkdir -p "$here/$2" && install -m 644 "$1/part.json" "$here/$2/part.json"; }
put f/part-0 fixed-in-rounds/round-1/part-0   # a fixed run's part among rounds
put g/round-1/part-1 fixed-in-rounds/round-1/part-1
put s/round-1/part-0 seed-tie/round-1/part-0  # one part of each of two seeds
put g/round-1/part-1 seed-tie/round-1/part-1
put g/round-1/part-0 shards-3-and-2/round-1/part-0 # a 2-shard part among 3-shard ones
put t/round-1/part-1 shards-3-and-2/round-1/part-1
put t/round-1/part-2 shards-3-and-2/round-1/part-2
