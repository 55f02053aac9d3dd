"""A sequential run's always-valid interval from Python: kw.confidence_sequence
is Go's (the claims table's cs_lo, cs_hi from their counts), and
kw.pool(..., always_valid=True) gives the classes table's success_cs_lo,
success_cs_hi (the pooled counts' always-valid interval), in pandas and
polars; a fixed run's classes table leaves them null."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import knightwalk as kw


def test_confidence_sequence_is_the_claims(seq_dir: Path) -> None:
    t = kw.load(seq_dir)
    level = float(kw.metadata(seq_dir)["config"]["confidence"])
    c = t["claims"].dropna(subset=["cs_lo"])
    assert len(c) >= 2
    for _, r in c.iterrows():
        lo, hi = kw.confidence_sequence(int(r["successes"]), int(r["walks"]), level)
        assert abs(lo - float(r["cs_lo"])) < 1e-12 and abs(hi - float(r["cs_hi"])) < 1e-12, (r["id"], lo, hi)
        wlo, whi = kw.wilson(int(r["successes"]), int(r["walks"]), level)
        assert lo < wlo and whi < hi  # wider than the fixed-n interval
    assert kw.interval(3, 10, kw.CS_METHOD, 0.95)[1:] == kw.confidence_sequence(3, 10, 0.95)
    assert kw.confidence_sequence(0, 10)[0] == 0.0 and kw.confidence_sequence(10, 10)[1] == 1.0
    with pytest.raises(ValueError, match="valid methods"):
        kw.pool(t["squares"], ["board", "rule"], kw.CS_METHOD, 0.9)  # not a fixed-n method
    with pytest.raises(ValueError):
        kw.confidence_sequence(5, 0)


def test_pool_always_valid_equals_classes(seq_dir: Path) -> None:
    cls = kw.load(seq_dir)["classes"]
    cls = cls[cls["group_by"] == "class"].rename(columns={"group": "start_class"})
    assert cls["success_cs_lo"].notna().any()
    for backend in ("pandas", "polars"):
        sq = kw.load(seq_dir, backend)["squares"]
        p = kw.pool(sq, ["board", "rule", "start_class"], run=seq_dir, always_valid=True)
        p = (p.to_pandas() if backend == "polars" else p).set_index(["board", "rule", "start_class"])
        assert "success_cs_lo" not in kw.pool(sq, ["board", "rule"], run=seq_dir).columns  # only when asked
        for _, w in cls.iterrows():
            r = p.loc[(w["board"], w["rule"], w["start_class"])]
            for c in ("success_cs_lo", "success_cs_hi"):
                if pd.isna(w[c]):
                    assert w["deterministic"] and pd.isna(r[c]), (backend, c, w["rule"], w["start_class"])
                else:
                    assert abs(float(r[c]) - float(w[c])) < 1e-12, (backend, c, w["rule"], w["start_class"], r[c], w[c])


def test_fixed_run_classes_have_no_always_valid_interval(run_dir: Path) -> None:
    cls = kw.load(run_dir)["classes"]
    assert cls["success_cs_lo"].isna().all() and cls["success_cs_hi"].isna().all()
