"""kw.join_exact adds the exact or counts values to a run's rows and
nothing else (a plain merge gives every shared column twice, _x and _y)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

import knightwalk as kw

EXACT_VALUES = ["p_success", "p_closed", "p_stopped", "mean_length", "mean_ties", "nodes", "tree_nodes",
                "p_lower", "p_upper", "dropped"]


def test_join_exact_adds_only_values(run_dir: Path) -> None:
    sq = kw.load(run_dir)["squares"]
    ex = kw.exact("5x5", "warnsdorff", "random", like=sq)
    j = kw.join_exact(sq, ex)
    assert list(j.columns) == [*sq.columns, *EXACT_VALUES]
    assert len(j) == len(sq) and j.attrs == sq.attrs and j["board"].dtype == sq["board"].dtype
    hit = j[j["p_success"].notna()]
    assert set(hit["board"]) == {"5x5"} and set(hit["rule"]) == {"warnsdorff/random"} and len(hit) > 0
    assert (hit["exact_success"] - hit["p_success"]).abs().max() < 1e-12  # the run's own exact values
    assert len(kw.join_exact(sq, ex, how="inner")) == len(hit)
    c = kw.count("5x5", like=sq)
    jc = kw.join_exact(sq, c)
    assert list(jc.columns) == [*sq.columns, "count_open"]
    corner = jc[(jc["board"] == "5x5") & (jc["start"] == "a1")]
    assert set(corner["count_open"]) == {304}
    with pytest.raises(ValueError, match="already has p_success"):
        kw.join_exact(j, ex)
    with pytest.raises(ValueError, match="neither an exact table"):
        kw.join_exact(sq, sq)
    with pytest.raises(KeyError, match="no column rule_spec"):
        kw.join_exact(sq.drop(columns="rule_spec"), ex)


def test_join_exact_polars(run_dir: Path) -> None:
    sq = kw.load(run_dir, "polars")["squares"]
    ex = kw.exact("5x5", "warnsdorff", "random", like=sq, backend="polars")
    j = kw.join_exact(sq, ex)
    assert j.columns == [*sq.columns, *EXACT_VALUES] and j.height == sq.height
    assert j.filter(pl.col("p_success").is_not_null()).height == kw.join_exact(sq, ex, how="inner").height > 0
    jc = kw.join_exact(sq, kw.count("5x5", like=sq, backend="polars", closed=True))
    assert jc.columns == [*sq.columns, "count_closed"]
