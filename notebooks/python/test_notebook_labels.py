"""Issue 35, the notebook's labels and orders: run analysis.py as a script
on a run with rectangular boards, one wider than 26 columns (squares named
r<row>c<col>), a deterministic rule and a step limit, and check what it
prints: no interval for a rule that draws nothing, Holm within families,
the pooled table by board size, squares named as the tables name them, an
outcome row for every rule."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

RECT = (ROOT / ".ci" / "notebook-rect.yaml").read_text()


def _binary() -> str:
    b = os.environ.get("KNIGHTWALK_BIN")
    if not b:
        pytest.skip("KNIGHTWALK_BIN is not set")
    return b


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("nblabels")
    src = tmp / "rect.yaml"
    src.write_text(RECT)
    out = tmp / "rect"
    subprocess.run([_binary(), "run", str(src), "--out", str(out), "--quiet"], check=True)
    env = dict(os.environ, KNIGHTWALK_RESULTS=str(out), KNIGHTWALK_FIGURES=str(tmp / "figs"), MPLBACKEND="Agg",
               KNIGHTWALK_BOARD="3x27", KNIGHTWALK_RULE="warnsdorff/first")
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(ROOT / "python" / "src"), env.get("PYTHONPATH", "")] if p)
    r = subprocess.run([sys.executable, str(HERE / "analysis.py")], cwd=HERE, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def test_no_interval_for_a_deterministic_rule(printed: str) -> None:
    det = [line for line in printed.splitlines() if "warnsdorff/first" in line and "%" in line]
    assert det, printed
    for line in det:
        assert "deterministic: no interval" in line and "[" not in line, line


def test_holm_within_families(printed: str) -> None:
    assert "Holm over all" not in printed
    assert re.search(r"Holm within each of the \d+ families", printed)


def test_pooled_by_board_size(printed: str) -> None:
    block = printed.split("success by board, all start squares pooled:")[1].split("\n\n")[0]
    boards = [line.split()[1] for line in block.strip().splitlines() if line.strip().startswith("warnsdorff/random")]
    assert boards == ["3x4", "4x5", "3x27"], block


def test_square_names_on_a_wide_board(printed: str) -> None:
    assert "from r0c0 has the PCG seed words" in printed and "from a1" not in printed
    assert re.search(r"kw\.replay: \d+ walks of every rule on 3x27 match", printed)


def test_outcomes_for_every_rule(printed: str) -> None:
    block = printed.split("outcomes per board and rule (walks table):")[1].split("\n\n")[0]
    for board in ("3x4", "4x5", "3x27"):
        assert board in block
    # rules are named by rule_spec (a design's cells share a rule name):
    # warnsdorff/first;order=(2,1)... here
    rules = re.findall(r"(?:^|\s)(warnsdorff/random|warnsdorff/first|random)(?:;\S*)?\s+\d", block, re.M)
    for rule in ("warnsdorff/random", "warnsdorff/first", "random"):
        assert rules.count(rule) == 3, block


@pytest.fixture(scope="module")
def r_printed(tmp_path_factory: pytest.TempPathFactory) -> str:
    import shutil

    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not installed")
    tmp = tmp_path_factory.mktemp("rlabels")
    src = tmp / "rect.yaml"
    src.write_text(RECT)
    out = tmp / "rect"
    subprocess.run([_binary(), "run", str(src), "--out", str(out), "--quiet"], check=True)
    env = dict(os.environ, KNIGHTWALK_RESULTS=str(out), KNIGHTWALK_FIGURES=str(tmp / "figs"),
               KNIGHTWALK_BOARD="3x27", RETICULATE_PYTHON=sys.executable)
    code = ('pdf(NULL); script <- tempfile(fileext = ".R"); '
            'knitr::purl("knightwalk.Rmd", output = script, quiet = TRUE); '
            'source(script, echo = FALSE, print.eval = TRUE)')
    r = subprocess.run(["Rscript", "-e", code], cwd=ROOT / "notebooks" / "r", env=env, capture_output=True, text=True)
    if r.returncode != 0 and "there is no package called" in r.stderr:
        pytest.skip("an R package the notebook needs is missing: " + r.stderr.strip().splitlines()[-1])
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def test_r_notebook_labels(r_printed: str) -> None:
    # the walks chunk names the corner as the tables do on a 27-column board
    assert "the first walks from r0c0" in r_printed
    # Holm said to be within families
    assert re.search(r"Holm within each of the \d+ families", r_printed)
    # the pooled table by board size and without an interval for a deterministic rule
    block = r_printed.split("pooled by board (by size)")[1].split("\n\n")[1]  # the table after its caption
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in block.splitlines() if line.startswith("|")][2:]
    for r in rows:  # the rule_spec's rule: warnsdorff/first;order=(2,1)... is warnsdorff/first
        r[0] = r[0].split(";")[0]
    assert [r[1] for r in rows if r[0] == "warnsdorff/random"] == ["3x4", "4x5", "3x27"], block
    assert all(r[5] == "NA" and r[6] == "NA" for r in rows if r[0] == "warnsdorff/first"), block
    assert all(r[5] != "NA" for r in rows if r[0] != "warnsdorff/first"), block
