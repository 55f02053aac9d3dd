"""Intervals and pooling reproduce the Go code's values in the tables."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import knightwalk as kw


@pytest.mark.parametrize("fixture,method", [("run_dir", "wilson"), ("cp_dir", "clopper-pearson")])
def test_interval_matches_tables(request: pytest.FixtureRequest, fixture: str, method: str) -> None:
    d = request.getfixturevalue(fixture)
    t = kw.load(d)
    for name in ("squares", "boards"):
        for _, r in t[name].iterrows():
            rate, lo, hi = kw.interval(r["successes"], r["walks"], method, 0.95)
            assert rate == pytest.approx(float(r["success_rate"]), abs=0)
            assert lo == pytest.approx(float(r["success_lo"]), abs=1e-12)
            assert hi == pytest.approx(float(r["success_hi"]), abs=1e-12)


def test_pool_matches_classes_and_boards(run_dir: Path) -> None:
    t = kw.load(run_dir)
    for backend in ("pandas", "polars"):
        sq = kw.load(run_dir, backend)["squares"] if backend == "polars" else t["squares"]
        got = kw.pool(sq, ["board", "rule"], "wilson", 0.95)
        if backend == "polars":
            got = got.to_pandas()
        want = t["boards"].set_index(["board", "rule"])
        for _, r in got.iterrows():
            w = want.loc[(r["board"], r["rule"])]
            assert (r["walks"], r["successes"]) == (w["walks"], w["successes"])
            assert r["success_lo"] == pytest.approx(float(w["success_lo"]), abs=1e-12)
            assert r["success_hi"] == pytest.approx(float(w["success_hi"]), abs=1e-12)
    got = kw.pool(t["squares"], ["board", "rule", "start_class"])
    cls = t["classes"][t["classes"]["group_by"] == "class"]
    for _, c in cls.iterrows():
        r = got[(got["board"] == c["board"]) & (got["rule"] == c["rule"]) & (got["start_class"] == c["group"])].iloc[0]
        assert r["success_hi"] == pytest.approx(float(c["success_hi"]), abs=1e-12)


def test_interval_known_values() -> None:
    # the Go stats tests' values: Wilson 81/263 at 95 % and the exact ends
    rate, lo, hi = kw.interval(81, 263, "wilson", 0.95)
    assert (lo, hi) == pytest.approx((0.2553, 0.3662), abs=5e-5)
    assert kw.interval(0, 10, "wilson")[1] == 0.0 and kw.interval(10, 10, "clopper-pearson")[2] == 1.0
    assert all(math.isnan(x) for x in kw.interval(0, 0))


def test_interval_bad_input() -> None:
    with pytest.raises(ValueError, match="interval method 'agresti': valid methods are wilson, clopper-pearson"):
        kw.interval(1, 2, "agresti")
    with pytest.raises(ValueError, match="confidence level 95"):
        kw.interval(1, 2, "wilson", 95)
    with pytest.raises(ValueError, match="3 successes of 2 walks"):
        kw.interval(3, 2)
    with pytest.raises(KeyError, match="no column 'trials'"):
        import pandas as pd
        kw.pool(pd.DataFrame({"a": [1]}), "a", "wilson", 0.95, walks="trials")
