#!/usr/bin/env bash
# Regenerates results/example/ (tables, manifest.json, report.md, claims.tex;
# not figures) from the committed example experiment with a binary built from
# this checkout, so its provenance names the commit. `go test ./cmd/experiment
# -run TestExampleUpToDate` fails until this has been run after a change to
# what the tables hold. Run from anywhere; commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -buildvcs=true -o "$tmp/experiment" ./cmd/experiment # provenance even where GOFLAGS says -buildvcs=false
"$tmp/experiment" run example --out "$tmp/example" --quiet
for f in "$tmp"/example/*; do
  [ -f "$f" ] && cp "$f" results/example/
done
echo "results/example regenerated from $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with uncommitted changes)')"
