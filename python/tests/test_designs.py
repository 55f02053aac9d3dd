"""A design's run loads like any other: its cells told apart by rule_spec
and grouped by their parameter columns, and its designs table."""

from __future__ import annotations

import subprocess
from pathlib import Path

import knightwalk as kw

DESIGN = """name: pydesign
boards: [6x6]
starts: [corner, c3]
walks: 20
exact: off
rules:
  - {name: warnsdorff, tie_break: first, order: rotations}
  - {name: random, max_steps: [10, 20]}
"""


def test_design_loads(tmp_path: Path) -> None:
    src = tmp_path / "d.yaml"
    src.write_text(DESIGN)
    out = tmp_path / "d"
    subprocess.run([kw.find_binary(), "run", str(src), "--out", str(out), "--quiet"], check=True)
    t = kw.load(out)
    sq = t["squares"]
    first = sq[sq["rule"] == "warnsdorff/first"]
    # the move order is a column: a groupby needs no parsing of rule_spec
    by_order = first.groupby("move_order", observed=True)["successes"].sum()
    assert len(by_order) == 8
    assert sq["rule_spec"].nunique() == 8 + 2
    steps = sq[sq["rule"] == "random"].groupby("max_steps")["walks"].sum()
    assert sorted(steps.index) == [10, 20]
    d = t["designs"]
    assert len(d) == 2 * 5
    failing = first.assign(failed=first["successes"] < first["walks"]).groupby("start")["failed"].sum()
    w = d[d["design"] == "rules[0]"].set_index("start")["cells_failing"]
    assert (w.sort_index() == failing.sort_index()).all()


SIEVE = """name: pysieve
seed: 3
boards:
  - {sizes: "9", keep: succeeds}
  - {rows: "5..7", cols: "5..8", keep: fails}
starts: [r0c0, r1c2]
walks: 1
rules:
  - {name: warnsdorff, tie_break: [first, roth+first], order: rotations}
"""


def test_sieve_loads(tmp_path: Path) -> None:
    """A sieve's result is its sieve table: one row per (cell, stage
    entered), the kept cells marked on each, the move order a column."""
    src = tmp_path / "s.yaml"
    src.write_text(SIEVE)
    out = tmp_path / "s"
    subprocess.run([kw.find_binary(), "run", str(src), "--out", str(out), "--quiet"], check=True)
    t = kw.load(out)
    assert list(t) == ["sieve"]
    s = t["sieve"]
    first = s[s["stage"] == 1]
    assert len(first) == 16 * 2
    second = s[s["stage"] == 2]
    assert len(second) == int(first["passed"].sum())
    kept = second[second["passed"]]
    assert set(s[s["kept"]]["rule_spec"]) == set(kept["rule_spec"])
    # a failing board's sides are integers, null where no walk failed
    assert (second["failed_board"].isna() == second["failed_rows"].isna()).all()
    assert kept["failed_rows"].notna().all()
    assert s.groupby("move_order")["stage"].count().sum() == len(s)


def test_sieves_stack(tmp_path: Path) -> None:
    """Two sieve runs stack into one sieve frame with a run column, their
    rule and rule_spec columns sharing levels, grouped without parsing."""
    runs = []
    for seed in (3, 4):
        src = tmp_path / f"s{seed}.yaml"
        src.write_text(SIEVE.replace("seed: 3", f"seed: {seed}"))
        out = tmp_path / f"s{seed}"
        subprocess.run([kw.find_binary(), "run", str(src), "--out", str(out), "--quiet"], check=True)
        runs.append(out)
    one = kw.load(runs[0])["sieve"]
    s = kw.load(runs)["sieve"]
    assert list(s["run"].cat.categories) == ["s3", "s4"]
    assert len(s) == 2 * len(one)
    # a deterministic rule's walks do not depend on the seed: the runs agree cell by cell
    kept = s[s["kept"]].groupby(["run", "rule_spec"], observed=True).size().unstack("run")
    assert (kept["s3"] == kept["s4"]).all()
