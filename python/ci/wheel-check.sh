#!/usr/bin/env bash
# The Python wheel carries its binary, and works where there is no Go.
#
# 1. Builds the wheel from ./python with Go present, twice: pip wheel (in
#    the checkout) and python -m build (an sdist, then the wheel from the
#    sdist, which carries the Go source in gosrc/); each must be a platform
#    wheel (py3-none-<platform>) holding knightwalk/bin/experiment.
# 2. Installs the wheel into a fresh venv with the pinned pyarrow, pandas
#    and numpy of python/requirements-test.txt, then with PATH=/usr/bin:/bin
#    (no Go, no experiment; an empty PATH where /usr/bin holds a go) and no
#    KNIGHTWALK_BIN runs kw.exact("5x5", "random"), kw.run and kw.count and
#    checks that the bundled binary ran and its version is the package's.
# 3. A copy of python/ without the Go source builds a pure wheel
#    (py3-none-any) with a warning, and fails, naming the cause, with
#    KNIGHTWALK_BUILD_BINARY=required.
# The first build runs pip -v and must show the Go build's progress lines.
# Prints the wheel's size and the time from pip install of the wheel to a
# first kw.exact table. Needs python3 with venv, Go 1.26+, and the package
# index (or a pip cache) for setuptools, build and the pinned packages.
# Usage: python/ci/wheel-check.sh  (from anywhere; PYTHON=python3.11 to choose)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
py=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pipq=(--quiet --disable-pip-version-check)

echo "== wheel: build (pip wheel ./python and python -m build ./python, with $(go version))"
"$py" -m venv "$work/buildenv"
"$work/buildenv/bin/pip" install "${pipq[@]}" build
# -v: pip shows the build's progress lines (setup.py's _go_build), which
# must say what it does and how long it took
KNIGHTWALK_BUILD_BINARY=required "$work/buildenv/bin/pip" wheel -v --disable-pip-version-check --no-deps -w "$work/pip" ./python \
  >"$work/wheel.log" 2>&1 || { cat "$work/wheel.log"; echo "pip wheel ./python failed"; exit 1; }
grep -q "knightwalk: building the experiment binary with go build: about" "$work/wheel.log" &&
  grep -E "knightwalk: go build done in [0-9.]+ s \([0-9]+ packages compiled\)" "$work/wheel.log" ||
  { cat "$work/wheel.log"; echo "pip wheel -v ./python: no progress lines of the Go build"; exit 1; }
KNIGHTWALK_BUILD_BINARY=required "$work/buildenv/bin/python" -m build --outdir "$work/build" ./python >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "python -m build ./python failed"; exit 1; }

check_wheel() { # wheel: a platform wheel that holds the binary, executable
  "$work/buildenv/bin/python" - "$1" <<'EOF'
import stat, sys, zipfile
path = sys.argv[1]
name = path.rsplit("/", 1)[-1]
assert "-py3-none-" in name and not name.endswith("-any.whl"), f"{name}: not a py3-none-<platform> wheel"
with zipfile.ZipFile(path) as z:
    info = z.getinfo("knightwalk/bin/experiment")
    assert (info.external_attr >> 16) & stat.S_IXUSR, f"{name}: knightwalk/bin/experiment is not executable"
    assert "Root-Is-Purelib: false" in z.read("knightwalk-%s.dist-info/WHEEL" % name.split("-")[1]).decode()
print(f"{name}: {info.file_size / 1e6:.1f} MB binary")
EOF
}
whl=$(ls "$work"/pip/knightwalk-*.whl)
check_wheel "$whl"
check_wheel "$(ls "$work"/build/knightwalk-*.whl)"
tar -tzf "$(ls "$work"/build/knightwalk-*.tar.gz)" >"$work/sdist.txt"
grep -q '/gosrc/cmd/experiment/main.go$' "$work/sdist.txt" ||
  { echo "the sdist carries no gosrc/cmd/experiment/main.go"; exit 1; }
size=$(wc -c <"$whl")
echo "wheel: $(basename "$whl"), $((size / 1024)) KiB ($(awk "BEGIN{printf \"%.1f\", $size/1048576}") MiB)"

echo "== wheel: a fresh venv, no Go on PATH, no KNIGHTWALK_BIN: kw.exact, kw.run, kw.count"
nogo=/usr/bin:/bin
if PATH=$nogo command -v go >/dev/null || PATH=$nogo command -v experiment >/dev/null; then
  mkdir "$work/empty"
  nogo=$work/empty # /usr/bin has go (or an experiment): a PATH with nothing on it
fi
"$py" -m venv "$work/venv"
pins=$(grep -E '^(pyarrow|pandas|numpy)==' python/requirements-test.txt | tr '\n' ' ')
cat >"$work/check.py" <<'EOF'
import os, sys, tempfile, time
from pathlib import Path

t0 = float(sys.argv[1])
import knightwalk as kw

ex = kw.exact("5x5", "random")
first = time.time()
print(f"first kw.exact table: {first - t0:.1f} s after pip install began (import and exact: {first - float(sys.argv[2]):.2f} s)")
assert len(ex) == 25 and ex["p_success"].between(0, 1).all() and ex["p_success"].max() > 0, ex
info = kw.binary_info()
assert info["source"] == "bundled" and info["version"] == kw.__version__ == info["package_version"], info
assert Path(info["path"]).parent.parent == Path(kw.__file__).parent, info
assert "KNIGHTWALK_BIN" not in os.environ
with tempfile.TemporaryDirectory() as tmp:
    cfg = Path(tmp) / "small.yaml"
    cfg.write_text("name: wheel-check\nseed: 1\nboards: [5x5]\nstarts: all\nwalks: 100\n"
                   "rules:\n  - {name: warnsdorff, tie_break: random}\n  - {name: random}\n")
    t = kw.run(cfg, Path(tmp) / "out")
    sq, boards = t["squares"], t["boards"]
    assert len(sq) == 50 and int(sq["walks"].sum()) == 5000
    pooled = kw.pool(sq, ["board", "rule"])
    assert (abs(pooled["success_rate"].to_numpy(float) - boards["success_rate"].to_numpy(float)) < 1e-12).all()
c = kw.count("5x5")
total = c[c["start"].isna() & (c["kind"] == "open")]
assert int(total["count"].iloc[0]) == 1728, c
print(f"kw.exact, kw.run and kw.count ran {info['path']} (bundled, version {info['version']}) with PATH={os.environ['PATH']}")
EOF
t0=$(date +%s.%N)
# shellcheck disable=SC2086 # pins: one word each
"$work/venv/bin/pip" install "${pipq[@]}" "$whl" $pins
t1=$(date +%s.%N)
env -u KNIGHTWALK_BIN -u GOROOT -u GOPATH -u GOFLAGS PATH="$nogo" HOME="$work" \
  "$work/venv/bin/python" "$work/check.py" "$t0" "$t1"
echo "pip install of the wheel and its pinned dependencies: $(awk "BEGIN{printf \"%.1f\", $t1-$t0}") s"

echo "== wheel: python/ without the Go source gives a pure wheel, or with KNIGHTWALK_BUILD_BINARY=required a clear error"
mkdir -p "$work/copy"
git ls-files -z python | (cd "$root" && xargs -0 cp --parents -t "$work/copy")
"$work/buildenv/bin/pip" wheel --no-deps -w "$work/pure" "$work/copy/python" >"$work/pure.log" 2>&1 ||
  { cat "$work/pure.log"; echo "the pure wheel did not build"; exit 1; }
ls "$work"/pure/knightwalk-*-py3-none-any.whl >/dev/null
if KNIGHTWALK_BUILD_BINARY=required "$work/buildenv/bin/pip" wheel --no-deps -w "$work/pure2" "$work/copy/python" >"$work/req.log" 2>&1; then
  echo "KNIGHTWALK_BUILD_BINARY=required built a wheel without the Go source"; exit 1
fi
grep -q "cannot build the experiment binary: no Go source" "$work/req.log" ||
  { cat "$work/req.log"; echo "no clear error without the Go source"; exit 1; }
echo "wheel: ok"
