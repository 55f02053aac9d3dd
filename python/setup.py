"""Build hooks: a wheel of the knightwalk package carries its experiment binary.

Building a wheel (``pip wheel ./python``, ``python -m build ./python``)
compiles the Go command ``cmd/experiment`` with ``CGO_ENABLED=0``,
``-trimpath``, ``-buildvcs=true`` in a git checkout (the tables then
record its commit) and ``-ldflags=-s -w`` (no symbol table or DWARF: a third
smaller; panics still name their functions) into the package as ``knightwalk/bin/experiment`` and tags
the wheel ``py3-none-<platform>``: the binary is statically linked, so it
needs neither Go nor a C library where it is installed (on Linux the tag
is manylinux and musllinux). The binary's ``experiment version`` must be
the package's version, or the build fails.

The Go module is found, in order, at ``$KNIGHTWALK_GO_SOURCE``, in the
sdist's ``gosrc/`` (an sdist built from a checkout carries the module's
files that ``cmd/experiment`` compiles from), or one directory up (a
checkout, python/'s parent). Without Go or without the Go source the wheel
is pure (``py3-none-any``, no binary: ``kw.run``, ``kw.exact`` and
``kw.count`` then need ``$KNIGHTWALK_BIN`` or ``experiment`` on PATH) and
a warning says why; ``KNIGHTWALK_BUILD_BINARY=required`` makes that an
error, ``=skip`` builds the pure wheel on purpose. A Go build that fails is
always an error. The build prints its progress to stderr as it goes
(_go_build): pip shows it with ``-v``, and without it the lines at least
advance pip's spinner.
"""

from __future__ import annotations

import functools
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1: the wheel package's
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
MODULE = "github.com/knightwalk/knightwalk"
COMMAND = "./cmd/experiment"
MODE = os.environ.get("KNIGHTWALK_BUILD_BINARY", "auto")  # auto, required or skip
EXE = ".exe" if sys.platform == "win32" else ""


def _is_module(d: Path) -> bool:
    gomod = d / "go.mod"
    if not gomod.is_file():
        return False
    first = next((ln.split() for ln in gomod.read_text().splitlines() if ln.startswith("module ")), [])
    return len(first) == 2 and first[1] == MODULE


def go_source() -> Path | None:
    """The Go module's root, or None where this source tree has none."""
    env = os.environ.get("KNIGHTWALK_GO_SOURCE")
    if env:
        if not _is_module(Path(env)):
            raise SystemExit(f"KNIGHTWALK_GO_SOURCE={env}: no go.mod of module {MODULE} there")
        return Path(env).resolve()
    for d in (HERE / "gosrc", HERE.parent):
        if _is_module(d):
            return d
    return None


def _fail_or_warn(why: str) -> None:
    msg = (f"knightwalk: building without the experiment binary: {why}. The wheel is pure: kw.run, kw.exact and "
           "kw.count will need $KNIGHTWALK_BIN or experiment on PATH. To carry the binary, build from a checkout "
           f"of {MODULE} with Go 1.26 or newer on PATH (https://go.dev/dl/).")
    if MODE == "required":
        raise SystemExit(msg.replace("building without", "cannot build") + " (KNIGHTWALK_BUILD_BINARY=required)")
    print(f"WARNING: {msg}", file=sys.stderr)


@functools.cache
def _want_binary() -> tuple[Path, str] | None:
    """(Go module root, go command) when the binary is to be built."""
    if MODE not in ("auto", "required", "skip"):
        raise SystemExit(f"KNIGHTWALK_BUILD_BINARY={MODE!r}: valid: auto (default), required, skip")
    if MODE == "skip":
        return None
    src = go_source()
    if src is None:
        _fail_or_warn(f"no Go source of {MODULE} (looked in $KNIGHTWALK_GO_SOURCE, {HERE / 'gosrc'} and {HERE.parent})")
        return None
    go = shutil.which(os.environ.get("GO", "go"))
    if go is None:
        _fail_or_warn("no go command on PATH")
        return None
    return src, go


# HEARTBEAT is the most seconds between two progress lines of a Go build.
HEARTBEAT = 10.0


def _say(msg: str) -> None:
    print(f"knightwalk: {msg}", file=sys.stderr, flush=True)


def _go_build(cmd: list[str], src: Path, env: dict[str, str], heartbeat: float = HEARTBEAT) -> tuple[int, str]:
    """Runs go build -v, printing progress to stderr as it goes: a first
    line saying what it does and how long it takes, the packages compiled
    so far every heartbeat seconds, and the time it took. pip shows
    these lines with -v; without -v it hides a build's output, but every
    line advances its spinner (a terminal's "Building wheel for knightwalk
    ... |", or in a log "Building wheel for knightwalk (pyproject.toml):
    still running..." at most once a minute), so a long build is seen to
    run. Returns go's exit status and its output other than the package
    paths -v lists (its errors)."""
    _say("building the experiment binary with go build: about 540 packages, 2.5 CPU-minutes from an empty Go build "
         "cache (1-2 minutes on 2 idle cores, 5 or more on busy ones), seconds where the cache holds an earlier wheel build "
         "(a plain go build does not fill it: this one is -trimpath); "
         "KNIGHTWALK_BUILD_BINARY=skip with KNIGHTWALK_BIN skips it (python/README.md)")
    _say(f"{' '.join(cmd)} (in {src}, CGO_ENABLED=0)")
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=src, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    compiled: list[str] = []
    errors: list[str] = []
    lock = threading.Lock()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            line = line.rstrip("\n")
            with lock:
                # -v lists each package as it is compiled, one import path a line
                (compiled if line and " " not in line and ":" not in line else errors).append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    while True:
        reader.join(heartbeat)
        if not reader.is_alive():
            break
        with lock:
            n, newest = len(compiled), (compiled[-1] if compiled else "")
        _say(f"go build: {n} packages compiled in {time.monotonic() - t0:.0f} s" + (f" (last {newest})" if newest else ""))
    rc = proc.wait()
    took = time.monotonic() - t0
    _say(f"go build {'done' if rc == 0 else 'failed'} in {took:.1f} s ({len(compiled)} packages compiled)")
    return rc, "\n".join(errors)


def compile_binary(src: Path, go: str, out: Path, version: str) -> None:
    """go build cmd/experiment into out, static and without local paths,
    with VCS stamping where the source is a checkout; refuses a binary
    whose version is not the package's."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CGO_ENABLED="0")
    # a checkout (git worktrees have a .git file) with git: stamp the commit,
    # whatever GOFLAGS says; an sdist's gosrc/ has none to stamp
    vcs = "true" if (src / ".git").exists() and shutil.which("git") else "false"
    cmd = [go, "build", "-v", "-trimpath", f"-buildvcs={vcs}", "-ldflags=-s -w", "-o", str(out), COMMAND]
    rc, errors = _go_build(cmd, src, env)
    if rc != 0 and vcs == "true" and "buildvcs" in errors:  # its VCS cannot be read: build unstamped
        cmd[4] = "-buildvcs=false"
        rc, errors = _go_build(cmd, src, env)
    if rc != 0:
        raise SystemExit(f"knightwalk: {' '.join(cmd)} failed in {src} (exit {rc}):\n{errors.strip()}")
    if os.environ.get("GOOS", sys.platform) != sys.platform and "GOOS" in os.environ:
        return  # cross-compiled: it cannot run here
    v = subprocess.run([str(out), "version"], capture_output=True, text=True)
    first = (v.stdout.splitlines() or [""])[0].split()
    if v.returncode != 0 or first != ["experiment", version]:
        raise SystemExit(f"knightwalk: the binary built from {src} says {v.stdout.splitlines()[:1]} (exit "
                         f"{v.returncode}), but the package is version {version}: make harness/version.go's "
                         "releaseVersion and pyproject.toml's version agree")


class BuildPy(build_py):
    """build_py that also compiles the experiment binary into the package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install uses $KNIGHTWALK_BIN or PATH
        want = _want_binary()
        if want is None:
            return
        out = Path(self.build_lib) / "knightwalk" / "bin" / f"experiment{EXE}"
        compile_binary(*want, out, self.distribution.get_version())


def _platform_tag(plat: str) -> str:
    """A static Linux binary needs no C library: it runs on any glibc or
    musl system of its architecture (manylinux and musllinux tags). On
    macOS the binary is of this machine's architecture alone (not a
    Python's universal2) and needs macOS 12, as Go 1.26 does."""
    if plat.startswith("linux_"):
        arch = plat[len("linux_"):]
        return f"manylinux_2_17_{arch}.manylinux2014_{arch}.musllinux_1_1_{arch}"
    if plat.startswith("macosx_"):
        return f"macosx_12_0_{platform.machine()}"
    return plat


class BdistWheel(bdist_wheel):
    """A platform wheel (py3-none-<platform>) where it carries the binary."""

    def get_tag(self) -> tuple[str, str, str]:
        if self.root_is_pure:
            return "py3", "none", "any"
        plat = self.plat_name if self.plat_name_supplied else sysconfig.get_platform()
        plat = plat.replace("-", "_").replace(".", "_")
        return "py3", "none", _platform_tag(plat)


class BinaryDistribution(Distribution):
    """Where the wheel carries the binary, its files go to platlib (the
    root of a wheel that is not pure), as an extension module's would."""

    def has_ext_modules(self) -> bool:
        return _want_binary() is not None


class Sdist(sdist):
    """An sdist built from a checkout carries, in gosrc/, the Go module's
    files cmd/experiment compiles from, so a wheel built from it (python
    -m build builds the wheel from the sdist) carries the binary too."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        src = go_source() if MODE != "skip" else None
        go = shutil.which(os.environ.get("GO", "go"))
        if src is None or go is None:
            _fail_or_warn("the sdist carries no Go source" + (" (no go command)" if src is not None else ""))
            return
        fmt = "{{if .Module}}{{if eq .Module.Path \"" + MODULE + "\"}}{{.Dir}}\t{{join .GoFiles \" \"}} " \
              "{{join .IgnoredGoFiles \" \"}} {{join .IgnoredOtherFiles \" \"}} {{join .SFiles \" \"}} {{join .HFiles \" \"}} " \
              "{{join .EmbedFiles \" \"}}{{end}}{{end}}"
        r = subprocess.run([go, "list", "-deps", "-f", fmt, COMMAND], cwd=src, capture_output=True, text=True,
                           env=dict(os.environ, CGO_ENABLED="0"))
        if r.returncode != 0:
            raise SystemExit(f"knightwalk: go list {COMMAND} failed in {src}:\n{r.stderr.strip()}")
        names = ["go.mod", "go.sum", "LICENSE"]
        for line in r.stdout.splitlines():
            d, _, listed = line.partition("\t")
            rel = Path(d).resolve().relative_to(src.resolve())
            names += [str(rel / f) for f in listed.split() if not f.endswith("_test.go")]
        dest = Path(base_dir) / "gosrc"
        for n in names:
            if (src / n).is_file():
                (dest / n).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src / n, dest / n)


setup(distclass=BinaryDistribution, cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel, "sdist": Sdist})
