"""The wheel's build of the experiment binary shows progress (setup.py):
what it does and how long it takes, the packages compiled so far at a
steady beat (lines that advance pip's spinner where pip hides the build's
output), and the time it took; go's errors, not its package list, make
the message of a failed build."""

from __future__ import annotations

import runpy
import sys
import types
from pathlib import Path

import pytest

import knightwalk as kw

SETUP = Path(__file__).resolve().parents[1] / "setup.py"


@pytest.fixture
def setup_py(monkeypatch: pytest.MonkeyPatch) -> dict:
    """setup.py's functions, loaded with setuptools stubbed out (setup()
    does nothing), so that no setuptools or wheel of a given version is
    needed to test them."""
    class Command:
        pass

    mods = {
        "setuptools": {"Distribution": Command, "setup": lambda **kw: None},
        "setuptools.command": {},
        "setuptools.command.build_py": {"build_py": Command},
        "setuptools.command.sdist": {"sdist": Command},
        "setuptools.command.bdist_wheel": {"bdist_wheel": Command},
    }
    for name, attrs in mods.items():
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        monkeypatch.setitem(sys.modules, name, m)
    return runpy.run_path(str(SETUP), run_name="knightwalk_setup")


def _fake_go(tmp: Path, body: str) -> Path:
    go = tmp / "go"
    go.write_text("#!/bin/sh\n" + body)
    go.chmod(0o755)
    return go


def test_build_prints_progress(setup_py: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    go = _fake_go(tmp_path, "for p in a/b c/d e/f; do echo $p >&2; sleep 0.3; done\n")
    rc, errors = setup_py["_go_build"]([str(go), "build", "-v"], tmp_path, {"PATH": "/usr/bin:/bin"}, heartbeat=0.2)
    assert rc == 0 and errors == ""
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("knightwalk: building the experiment binary with go build: about ")
    assert "CPU-minutes" in lines[0]
    assert "KNIGHTWALK_BUILD_BINARY=skip" in lines[0]
    beats = [ln for ln in lines if ln.startswith("knightwalk: go build: ")]
    assert len(beats) >= 3, lines  # about 0.9 s at a 0.2 s beat
    assert any("packages compiled in" in ln and "(last " in ln for ln in beats), beats
    assert lines[-1].startswith("knightwalk: go build done in ") and lines[-1].endswith("(3 packages compiled)")


def test_failed_build_reports_errors_not_packages(setup_py: dict, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    go = _fake_go(tmp_path, "echo a/b >&2\necho 'x.go:1:1: syntax error' >&2\nexit 1\n")
    out = tmp_path / "bin" / "experiment"
    with pytest.raises(SystemExit) as e:
        setup_py["compile_binary"](tmp_path, str(go), out, kw.__version__)
    msg = str(e.value)
    assert "failed" in msg and "(exit 1)" in msg and "x.go:1:1: syntax error" in msg and "a/b" not in msg
    assert "knightwalk: go build failed in " in capsys.readouterr().err


def test_compile_binary_checks_the_version(setup_py: dict, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    # the fake go writes, at -o, a binary that prints the package's version
    go = _fake_go(tmp_path, 'while [ "$1" != "-o" ]; do shift; done\n'
                            f"printf '#!/bin/sh\\necho experiment {kw.__version__}\\n' >\"$2\"; chmod +x \"$2\"\n")
    out = tmp_path / "bin" / "experiment"
    setup_py["compile_binary"](tmp_path, str(go), out, kw.__version__)
    assert out.is_file()
    err = capsys.readouterr().err
    assert "knightwalk: building the experiment binary" in err and "knightwalk: go build done in " in err
    with pytest.raises(SystemExit, match="but the package is version 9.9.9"):
        setup_py["compile_binary"](tmp_path, str(go), out, "9.9.9")
