#!/usr/bin/env bash
# Installs knightwalk as a user outside the repository would: from a module
# proxy, into an empty GOPATH and module cache, with no clone and no
# replace directive.
#
# .ci/modproxy lays this working tree out as a file-based module proxy at
# version $VERSION (default v0.1.0); the go command then reads
# GOPROXY="file://DIR,https://proxy.golang.org": knightwalk from the file
# proxy, its dependencies from the real one (GONOSUMDB skips the checksum
# database for knightwalk only, which it has never seen). Then:
#   (a) go install github.com/knightwalk/knightwalk/cmd/experiment@VERSION
#       gives a binary that prints its version and runs a small exact;
#   (b) a module of its own in a temporary directory outside the checkout
#       go gets knightwalk@VERSION, registers a rule through the public API
#       (sim.MustRegister, harness.Main), runs exact and run with it, and its
#       manifest and tables record knightwalk's module path and version
#       beside its own module (read back with the public tables package).
# Needs git, go and network access to the module proxy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# VERSION: a release (v0.1.0) or a pseudo-version
# (v0.0.0-20261128021024-d1f1801abcde: then knightwalk_commit is checked too)
version=${VERSION:-v0.1.0}
mod=github.com/knightwalk/knightwalk

work=$(mktemp -d)
cleanup() { chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

echo "== goproxy: lay the working tree out as a module proxy at $version"
(cd "$root/.ci/modproxy" && GOFLAGS=-mod=readonly go run . -dir "$root" -version "$version" -out "$work/proxy")

# An empty GOPATH and module cache; the build cache (content-addressed) is
# kept unless GOCACHE says otherwise, to spare the CPU.
export GOPATH="$work/gopath" GOMODCACHE="$work/gopath/pkg/mod"
export GOPROXY="file://$work/proxy,https://proxy.golang.org"
export GONOSUMDB="$mod" GOFLAGS="-mod=mod -modcacherw" GOTOOLCHAIN=local
unset GOBIN GOWORK
export GOWORK=off

echo "== goproxy (a): go install $mod/cmd/experiment@$version"
(cd "$work" && go install "$mod/cmd/experiment@$version")
exp="$GOPATH/bin/experiment"
"$exp" version | tee "$work/version.txt"
grep -qx "experiment ${version#v}" "$work/version.txt" || { echo "goproxy: experiment version does not say ${version#v}"; exit 1; }
grep -q "^module: *$mod $version\$" "$work/version.txt" || { echo "goproxy: experiment version does not name $mod $version"; exit 1; }
"$exp" exact --board 5x5 --rule warnsdorff --start a1 --format csv | tee "$work/exact.txt"
grep -q a1 "$work/exact.txt" || { echo "goproxy: exact printed no a1 row"; exit 1; }

echo "== goproxy (b): a module of its own go gets $mod@$version and registers a rule"
lab="$work/lab"
mkdir -p "$lab/readmeta"
cat > "$lab/main.go" <<'GO'
// Command lab is the experiment command with one rule of its own:
// Warnsdorff's rule with its ties broken towards the last move listed.
package main

import (
	"github.com/knightwalk/knightwalk/harness"
	"github.com/knightwalk/knightwalk/sim"
)

// lastMin allows the last unvisited neighbour of minimum degree.
type lastMin struct{ next []int }

func (l *lastMin) Allowed(p *sim.Position, dst []int) []int {
	l.next = p.Moves(p.Current(), l.next[:0])
	best := 9
	for _, sq := range l.next {
		if d := p.Degree(sq); d <= best {
			best = d
			dst = append(dst[:0], sq)
		}
	}
	return dst
}

func main() {
	sim.MustRegister(sim.CustomRule{
		Name: "lab/last-min",
		Doc:  "Warnsdorff's rule, ties kept by the last neighbour of least degree",
		New:  func(*sim.Board) sim.Policy { return &lastMin{} },
		Deterministic: true,
	})
	harness.Main()
}
GO
cat > "$lab/readmeta/main.go" <<'GO'
// Command readmeta prints the provenance keys of a result directory's
// squares table, read with the public tables package.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/knightwalk/knightwalk/tables"
)

func main() {
	res, err := tables.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sq, err := res.Squares()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	md, err := tables.ReadMetadata(filepath.Join(os.Args[1], tables.SquaresFile))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b := md.Build
	fmt.Printf("rows=%d tool_version=%s module=%s knightwalk_module=%s knightwalk_version=%s\n",
		len(sq), md.ToolVersion, b.Module, b.HarnessModule, b.HarnessVersion)
}
GO
cat > "$lab/lab.yaml" <<'YAML'
name: lab
description: a rule of my own against Warnsdorff's on a small board
seed: 7
boards: [5x5]
starts: all
walks: 200
rules:
  - {name: lab/last-min}
  - {name: warnsdorff}
YAML
(
  cd "$lab"
  go mod init example.com/lab
  go get "$mod@$version"
  go mod tidy
  grep -q "^require $mod $version\$\|^	$mod $version\$" go.mod || { echo "goproxy: go.mod does not require $mod $version"; cat go.mod; exit 1; }
  if grep -q replace go.mod; then echo "goproxy: go.mod has a replace directive"; exit 1; fi
  go build -o lab . && go build -o meta ./readmeta
  ./lab version
  ./lab exact --board 5x5 --rule lab/last-min --start a1 --format csv | tee exact.txt
  grep -q a1 exact.txt || { echo "goproxy: lab exact printed no a1 row"; exit 1; }
  ./lab run lab.yaml --out "$lab/out" --quiet
  python3 - "$lab/out/manifest.json" "$mod" "$version" <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))
b, mod, ver = m["build"], sys.argv[2], sys.argv[3]
want = {"module": "example.com/lab", "knightwalk_module": mod, "knightwalk_version": ver}
pseudo = re.search(r"[0-9]{14}-([0-9a-f]{12})$", ver)
if pseudo:  # a pseudo-version names its commit
    want["knightwalk_commit"] = pseudo.group(1)
bad = {k: b.get(k) for k, v in want.items() if b.get(k) != v}
if bad or m["tool_version"] != ver.lstrip("v"):
    sys.exit(f"goproxy: manifest build {bad}, tool_version {m['tool_version']!r}; want {want}, {ver.lstrip('v')}")
print("manifest:", {k: b[k] for k in want}, "tool_version", m["tool_version"])
PY
  ./meta "$lab/out" | tee meta.txt
  grep -qx "rows=50 tool_version=${version#v} module=example.com/lab knightwalk_module=$mod knightwalk_version=$version" meta.txt ||
    { echo "goproxy: the tables' metadata does not record $mod $version"; exit 1; }
)
echo "== goproxy: ok ($mod@$version installed and embedded from a module proxy)"
