"""Which experiment binary the package runs: binary=, $KNIGHTWALK_BIN, the
binary a wheel carries, PATH; the versions agree; the error without one
says how to get one."""

from __future__ import annotations

import re
import stat
import sys
from pathlib import Path

import pytest

import knightwalk as kw
from knightwalk import _binary

ROOT = Path(__file__).resolve().parents[2]


def test_versions_agree() -> None:
    """The package's version is pyproject's, the Go tool's and the test
    binary's (a wheel's build refuses a binary of another version)."""
    pyproject = re.search(r'^version = "([^"]+)"', (ROOT / "python/pyproject.toml").read_text(), re.M)
    go = re.search(r'^const releaseVersion = "([^"]+)"', (ROOT / "harness/version.go").read_text(), re.M)
    assert pyproject and go
    assert kw.__version__ == pyproject.group(1) == go.group(1)
    assert kw.binary_version() == kw.__version__
    info = kw.binary_info()
    assert info["version"] == info["package_version"] == kw.__version__
    assert info["source"] in ("KNIGHTWALK_BIN", "bundled", "PATH") and Path(info["path"]).is_file()


def _fake(d: Path, name: str = "experiment") -> Path:
    d.mkdir(parents=True, exist_ok=True)
    p = d / name
    p.write_text(f"#!/bin/sh\necho 'experiment {kw.__version__}'\n")
    p.chmod(0o644)  # as a tool that drops mode bits might unpack it
    return p


@pytest.mark.skipif(sys.platform == "win32", reason="shell scripts stand in for the binary")
def test_find_binary_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bundled = _fake(tmp_path / "pkg" / "bin")
    on_path = _fake(tmp_path / "path")
    on_path.chmod(0o755)
    env = _fake(tmp_path / "env", "mine")
    env.chmod(0o755)
    monkeypatch.setattr(_binary, "BUNDLED", bundled)
    monkeypatch.setenv("PATH", str(on_path.parent))
    monkeypatch.setenv("KNIGHTWALK_BIN", str(env))
    assert kw.binary_info()["source"] == "KNIGHTWALK_BIN" and kw.find_binary() == str(env)
    assert kw.binary_info(binary=str(on_path))["source"] == "binary="
    monkeypatch.delenv("KNIGHTWALK_BIN")
    assert kw.find_binary() == str(bundled)  # before PATH: the one built with this package
    assert bundled.stat().st_mode & stat.S_IXUSR  # made executable where the mode bits were lost
    assert kw.binary_info() == {"path": str(bundled), "source": "bundled", "version": kw.__version__,
                                "package_version": kw.__version__}
    monkeypatch.setattr(_binary, "BUNDLED", tmp_path / "none" / "experiment")
    assert kw.binary_info()["source"] == "PATH" and kw.find_binary() == str(on_path)
    monkeypatch.setenv("KNIGHTWALK_BIN", str(tmp_path / "gone"))
    with pytest.raises(FileNotFoundError, match=r"KNIGHTWALK_BIN=.*gone: no such executable"):
        kw.find_binary()


def test_no_binary_says_how_to_get_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_binary, "BUNDLED", tmp_path / "experiment")
    monkeypatch.delenv("KNIGHTWALK_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(FileNotFoundError) as err:
        kw.exact("5x5", "random")
    msg = str(err.value)
    for how in ("pip wheel ./python", "KNIGHTWALK_BIN", "go install github.com/knightwalk/knightwalk/cmd/experiment@latest"):
        assert how in msg
