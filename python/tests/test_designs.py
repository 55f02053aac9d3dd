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
