"""Fixtures: fresh runs of the experiment binary (KNIGHTWALK_BIN or on PATH)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import knightwalk as kw

SMALL = """name: pysmall
seed: 7
boards: [8x8, 5x5, 10x10, 6x6, 3x4]
starts: [corner, centre, b2]
walks: 200
rules:
  - {name: warnsdorff, tie_break: random}
  - {name: random}
interval: %s
claims:
  - {id: c, rule: warnsdorff/random, board: 8x8, class: corner, below: 0.2}
"""


def _run(tmp: Path, method: str) -> Path:
    src = tmp / f"small-{method}.yaml"
    src.write_text(SMALL % method)
    out = tmp / f"run-{method}"
    subprocess.run([kw.find_binary(), "run", str(src), "--out", str(out), "--quiet"], check=True)
    return out


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("kw"), "wilson")


@pytest.fixture(scope="session")
def cp_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("kwcp"), "clopper-pearson")
