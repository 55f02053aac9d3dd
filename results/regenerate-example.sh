#!/usr/bin/env bash
# Regenerates results/example/ (tables, manifest.json, report.md, claims.tex;
# not figures) from the committed example experiment with a binary built from
# this checkout, so its provenance names the commit. `KNIGHTWALK_SLOW=1 go
# test ./harness -run TestExampleUpToDate` fails until this has been run after
# a change to what the tables or the report hold (the fast pass checks the
# rows of its 9x9 and 10x10 boards only). Run from anywhere; commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# -buildvcs=true: the manifest names the commit even where GOFLAGS (or go env)
# says -buildvcs=false
GOFLAGS="-mod=readonly -buildvcs=true" go build -o "$tmp/experiment" ./cmd/experiment
if "$tmp/experiment" version | grep -q '^revision: unknown'; then
  echo "warning: the binary carries no VCS information (a git worktree? run this in the main checkout); results/example will record no commit" >&2
fi
"$tmp/experiment" run example --out "$tmp/example" --quiet
for f in "$tmp"/example/*; do
  [ -f "$f" ] && cp "$f" results/example/
done
echo "results/example regenerated from $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with uncommitted changes)')"
