"""kw.pool gives the boards and classes tables' rates and intervals, on a
fixed run and on a sequential run whose squares ran unequal walks (there
the equal-weight mean of the squares' rates at its effective sample size,
docs/design.md), in pandas and polars, under the tables' column names."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

import knightwalk as kw

RATES = ("success_rate", "success_lo", "success_hi", "closed_rate", "closed_lo", "closed_hi")


def _same(got: pd.DataFrame, want: pd.DataFrame, keys: list[str], what: str) -> int:
    """Every row of want (a boards or classes table) has its twin in got,
    equal to 1e-12 (counts exactly, nulls where the table's are null)."""
    assert len(got) == len(want), what
    g = got.set_index(keys)
    for _, w in want.iterrows():
        r = g.loc[tuple(w[k] for k in keys)]
        assert (int(r["walks"]), int(r["successes"]), int(r["closed"])) == \
            (int(w["walks"]), int(w["successes"]), int(w["closed"])), what
        assert int(r["squares"]) == int(w["squares"]), what
        for c in RATES:
            if pd.isna(w[c]):
                assert pd.isna(r[c]), (what, c, tuple(w[k] for k in keys))
            else:
                assert abs(float(r[c]) - float(w[c])) <= 1e-12, (what, c, tuple(w[k] for k in keys), r[c], w[c])
    return len(want)


def _check_run(d: Path) -> None:
    t = kw.load(d)
    boards = t["boards"]
    cls = t["classes"].rename(columns={"group": "start_class"})
    deg = t["classes"][t["classes"]["group_by"] == "degree"].copy()
    deg["start_degree"] = deg["group"].astype(str).astype(int)
    for backend in ("pandas", "polars"):
        sq = kw.load(d, backend)["squares"]
        def pooled(by: list[str]) -> pd.DataFrame:
            p = kw.pool(sq, by, run=d)
            return p.to_pandas() if backend == "polars" else p
        _same(pooled(["board", "rule"]), boards, ["board", "rule"], f"{backend} boards")
        _same(pooled(["board", "rule", "start_class"]), cls[cls["group_by"] == "class"],
              ["board", "rule", "start_class"], f"{backend} classes")
        p = pooled(["board", "rule", "start_degree"])
        p["start_degree"] = p["start_degree"].astype(int)
        _same(p, deg, ["board", "rule", "start_degree"], f"{backend} degrees")


def test_pool_equals_the_tables_fixed(cp_dir: Path, run_dir: Path) -> None:
    _check_run(run_dir)
    _check_run(cp_dir)


def test_pool_equals_the_tables_sequential(seq_dir: Path) -> None:
    _check_run(seq_dir)
    t = kw.load(seq_dir)
    sq = t["squares"]
    w = sq[sq["rule"] == "warnsdorff/random"]
    assert w["walks"].nunique() > 1  # the squares ran unequal walks: the test can tell the two pools apart
    b = t["boards"].set_index("rule").loc["warnsdorff/random"]
    weighted = int(w["successes"].sum()) / int(w["walks"].sum())
    mean = float((w["successes"] / w["walks"]).mean())
    assert abs(float(b["success_rate"]) - mean) < 1e-12 and abs(weighted - mean) > 0.01
    got = kw.pool(sq, ["board", "rule"]).set_index("rule").loc["warnsdorff/random"]
    assert abs(float(got["success_rate"]) - mean) < 1e-12
    # told the frame is of a fixed run, it pools by walks
    fixed = kw.pool(sq.drop(columns="stop"), ["board", "rule"], sequential=False).set_index("rule")
    assert float(fixed.loc["warnsdorff/random", "success_rate"]) == pytest.approx(weighted, abs=1e-15)
    # the deterministic rule: one walk per square, a rate and no interval
    det = kw.pool(sq, ["board", "rule"]).set_index("rule").loc["warnsdorff/first"]
    assert pd.isna(det["success_lo"]) and not pd.isna(det["success_rate"])


def test_pool_names_its_columns_as_the_tables() -> None:
    df = pd.DataFrame({"g": ["a", "a", "b"], "walks": [10, 20, 0], "successes": [1, 2, 0]})
    got = kw.pool(df, "g", "wilson", 0.95)
    assert list(got.columns) == ["g", "squares", "walks", "successes", "success_rate", "success_lo", "success_hi"]
    assert got["success_rate"].iloc[0] == pytest.approx(0.1) and pd.isna(got["success_rate"].iloc[1])
    assert got.attrs == {"method": "wilson", "level": 0.95}
    # sequential=True with unequal walks: the equal-weight mean (0.1 and 0.1 here)
    seq = kw.pool(df.iloc[:2], "g", "wilson", 0.95, sequential=True)
    assert seq["success_rate"].iloc[0] == pytest.approx(0.1)
    assert not math.isnan(float(seq["success_lo"].iloc[0]))
