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


# A sequential run whose squares stop on their own: the edge and interior
# claims need more walks than the corners and the centre, so a board, and
# a degree group mixing classes, holds squares of unequal walks (the same
# experiment as CI's .ci/notebook-seq.yaml).
SEQUENTIAL = """name: pyseq
seed: 44
boards: [5x5]
starts: all
walks: {until: decided, min: 50, max: 1600}
confidence: 0.9
exact: off
rules:
  - {name: warnsdorff, tie_break: random}
  - {name: warnsdorff, tie_break: first}
  - {name: random}
claims:
  - {id: W-edge, rule: warnsdorff/random, class: edge, below: 0.2}
  - {id: W-interior, rule: warnsdorff/random, class: interior, above: 0.35}
"""


@pytest.fixture(scope="session")
def seq_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("kwseq")
    src = tmp / "seq.yaml"
    src.write_text(SEQUENTIAL)
    out = tmp / "run-seq"
    subprocess.run([kw.find_binary(), "run", str(src), "--out", str(out), "--quiet"], check=True)
    return out
