"""kw.pool on frames of several runs: runs of different interval methods
pool each by its own method (a group refused only where it mixes them),
in pandas and polars; a group that mixes a sequential run's squares with a
fixed run's is refused, naming why (issues 53.9 and 58.3)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pandas as pd
import pytest

import knightwalk as kw

RATES = ("success_rate", "success_lo", "success_hi", "closed_rate", "closed_lo", "closed_hi")


def _equal(got: pd.DataFrame, want: pd.DataFrame, keys: list[str]) -> None:
    g = got.set_index(keys)
    for _, w in want.iterrows():
        r = g.loc[tuple(w[k] for k in keys)]
        assert int(r["walks"]) == int(w["walks"]) and int(r["successes"]) == int(w["successes"])
        for c in RATES:
            if pd.isna(w[c]):
                assert pd.isna(r[c]), (c, tuple(w[k] for k in keys))
            else:
                assert abs(float(r[c]) - float(w[c])) <= 1e-12, (c, tuple(w[k] for k in keys), r[c], w[c])


def test_pool_runs_of_different_intervals(run_dir: Path, cp_dir: Path) -> None:
    runs = {"wilson": run_dir, "cp": cp_dir}
    assert kw.metadata(run_dir)["config"]["interval"] != kw.metadata(cp_dir)["config"]["interval"]
    for backend in ("pandas", "polars"):
        sq = kw.load(runs, backend)["squares"]
        extra = {"run": runs} if backend == "polars" else {}
        got = kw.pool(sq, ["run", "board", "rule"], **extra)
        got = got.to_pandas() if backend == "polars" else got
        assert len(got) == len(kw.load(run_dir)["boards"]) + len(kw.load(cp_dir)["boards"])
        for label, d in runs.items():
            # each run's groups: its own boards table, with its own interval
            _equal(got[got["run"] == label], kw.load(d)["boards"], ["board", "rule"])
        # the two methods really differ here: the same counts, other bounds
        w = got[got["run"] == "wilson"].set_index(["board", "rule"])
        c = got[got["run"] == "cp"].set_index(["board", "rule"])
        assert (w["success_lo"] - c["success_lo"]).abs().max() > 1e-4
        # a group of both runs has no one interval: refused, naming the runs
        with pytest.raises(ValueError, match=r"holds rows of runs with different intervals \(cp: clopper-pearson at 0.95; "
                                             r"wilson: wilson at 0.95\)"):
            kw.pool(sq, ["board", "rule"], **extra)
        # unless the caller names one
        one = kw.pool(sq, ["board", "rule"], "wilson", 0.95)
        assert len(one) == len(kw.load(run_dir)["boards"])
    # the pandas result says which interval each run's rows have
    got = kw.pool(kw.load(runs)["squares"], ["run", "board", "rule"])
    assert got.attrs["intervals"] == {"wilson": {"method": "wilson", "level": 0.95},
                                      "cp": {"method": "clopper-pearson", "level": 0.95}}
    # in the groups' order: run, then board (by size), then rule
    assert list(got["run"].astype(str)) == sorted(got["run"].astype(str), key=["wilson", "cp"].index)


FIXED = """name: pyfixed
seed: 45
boards: [5x5]
starts: all
walks: 400
confidence: 0.9
exact: off
rules:
  - {name: warnsdorff, tie_break: random}
"""


def test_pool_refuses_a_sequential_run_with_a_fixed_one(seq_dir: Path, tmp_path: Path) -> None:
    src = tmp_path / "fixed.yaml"
    src.write_text(FIXED)
    fixed = tmp_path / "fixed"
    subprocess.run([kw.find_binary(), "run", str(src), "--out", str(fixed), "--quiet"], check=True)
    runs = {"seq": seq_dir, "fixed": fixed}
    for backend in ("pandas", "polars"):
        sq = kw.load(runs, backend)["squares"]
        extra = {"run": runs} if backend == "polars" else {}
        # one interval (wilson at 0.9) but two rules of pooling: refused, saying why
        with pytest.raises(ValueError, match=r"holds squares of a sequential run .* and of a fixed run \(pooled by walks\)"):
            kw.pool(sq, ["board", "rule"], **extra)
        # pooled run by run, each is its own boards table: the sequential
        # one the equal-weight mean of its squares' rates, the fixed one by walks
        got = kw.pool(sq, ["run", "board", "rule"], **extra)
        got = got.to_pandas() if backend == "polars" else got
        for label, d in runs.items():
            _equal(got[got["run"] == label], kw.load(d)["boards"], ["board", "rule"])
