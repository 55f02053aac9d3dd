"""Every reader: order by board size, filter by board, join exact values, no casts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import polars as pl
import pytest

import knightwalk as kw

BOARDS = ["3x4", "5x5", "6x6", "8x8", "10x10"]  # by size, not as the file lists them


def test_pandas_order_filter_dtypes(run_dir: Path) -> None:
    t = kw.load(run_dir)
    sq = t["squares"]
    assert list(sq["board"].cat.categories) == BOARDS and sq["board"].cat.ordered
    assert list(sq.sort_values("board")["board"].unique()) == BOARDS
    small = sq[sq["board"] < "8x8"]
    assert set(small["board"]) == {"3x4", "5x5", "6x6"}
    assert str(sq["walks"].dtype) == "Int64" and str(sq["success_rate"].dtype) == "Float64"
    # nodes_mean is null for rules without a search; the random rule's tie_break is null, not a '' level
    assert sq["nodes_mean"].isna().all()
    assert "" not in list(sq["tie_break"].cat.categories)
    assert sq.loc[sq["rule"] == "random", "tie_break"].isna().all()


def test_polars_enum_order_filter(run_dir: Path) -> None:
    sq = kw.load(run_dir, "polars")["squares"]
    assert sq.schema["board"] == pl.Enum(BOARDS)
    assert sq.sort("board")["board"].unique(maintain_order=True).to_list() == BOARDS
    assert set(sq.filter(pl.col("board") < "8x8")["board"].to_list()) == {"3x4", "5x5", "6x6"}


def test_empty_table_keeps_levels(tmp_path: Path) -> None:
    # one rule and one start square: nothing to compare, an empty comparisons table
    src = tmp_path / "empty.yaml"
    src.write_text("name: empty\nboards: [6x6, 5x5]\nstarts: [b2]\nwalks: 5\nrules: [{name: random}]\n")
    t = kw.run(src, tmp_path / "out")
    cmp = t["comparisons"]
    assert len(cmp) == 0
    assert list(cmp["board"].cat.categories) == ["5x5", "6x6"] and cmp["board"].cat.ordered
    assert list(cmp["compare"].cat.categories) == ["groups", "rules"]
    assert list(cmp["rule_a"].cat.categories) == ["random"]
    assert len(t["claims"]) == 0 and list(t["claims"]["verdict"].cat.categories) == ["consistent", "inconclusive", "refuted", "reproduced", "not reproduced"]
    pcmp = kw.load(tmp_path / "out", "polars")["comparisons"]
    assert pcmp.height == 0 and pcmp.schema["board"] == pl.Enum(["5x5", "6x6"])
    con = kw.duckdb(tmp_path / "out")
    assert con.sql("SELECT enum_range(NULL::board)").fetchall()[0][0] == ["5x5", "6x6"]


def test_duckdb_enums(run_dir: Path) -> None:
    con = kw.duckdb(run_dir)
    got = [r[0] for r in con.sql("SELECT DISTINCT board FROM squares ORDER BY board").fetchall()]
    assert got == BOARDS
    small = {r[0] for r in con.sql("SELECT DISTINCT board FROM squares WHERE board < '8x8'::board").fetchall()}
    assert small == {"3x4", "5x5", "6x6"}
    n = con.sql('SELECT count(*) FROM classes WHERE "group" = \'corner\'').fetchall()[0][0]
    assert n > 0


@pytest.mark.parametrize("like", ["dir", "frame", "dict"])
def test_join_exact_without_casts(run_dir: Path, like: str) -> None:
    for backend in ("pandas", "polars"):
        t = kw.load(run_dir, backend)
        sq = t["squares"]
        ex = kw.exact("5x5", like={"dir": run_dir, "frame": sq, "dict": t}[like], backend=backend)
        if backend == "pandas":
            j = sq.merge(ex, on=["board", "rule", "start"])
            assert j["board"].dtype == sq["board"].dtype  # still the ordered categorical
            b2 = j[(j["start"] == "b2") & (j["rule"] == "warnsdorff/random")]
        else:
            j = sq.join(ex, on=["board", "rule", "start"])
            b2 = j.filter((pl.col("start") == "b2") & (pl.col("rule") == "warnsdorff/random")).to_pandas()
        assert len(b2) == 1 and float(b2["p_success"].iloc[0]) == 0.75
    exact_path = run_dir.parent / "exact.parquet"
    import subprocess
    subprocess.run([kw.find_binary(), "exact", "--board", "5x5", "--format", "parquet", "--out", str(exact_path), "--force"], check=True)
    con = kw.duckdb(run_dir, extra={"exact": exact_path})
    n = con.sql("SELECT count(*) FROM squares JOIN exact USING (board, rule, start)").fetchall()[0][0]
    assert n == 4 + 1 + 1  # 5x5 corners, centre and b2 under warnsdorff/random


def test_metadata(run_dir: Path) -> None:
    m = kw.metadata(run_dir)
    assert m["experiment"] == "pysmall" and m["config"]["interval"] == "wilson"
    assert isinstance(m["host"]["cpus"], int) and m["host"]["kernel_path"]
    assert m["build"]["vcs_modified"] in (True, False, None)
    md = m["table_metadata"]["squares.parquet"]
    assert md["seed"] == "7" and md["levels"]["board"] == BOARDS


def test_run_returns_tables(tmp_path: Path, run_dir: Path) -> None:
    t = kw.run(run_dir / "manifest.json", tmp_path / "again", "polars")
    assert t["squares"].height == kw.load(run_dir, "polars")["squares"].height


def test_bad_input(tmp_path: Path, run_dir: Path) -> None:
    with pytest.raises(kw.NotAResultError, match=r"nothere: not a directory; expected a result directory"):
        kw.load(tmp_path / "nothere")
    with pytest.raises(kw.NotAResultError, match=r"no manifest.json"):
        kw.load(tmp_path)
    broken = tmp_path / "broken"
    shutil.copytree(run_dir, broken)
    (broken / "lengths.parquet").unlink()
    with pytest.raises(FileNotFoundError, match=r"broken/lengths.parquet: table missing"):
        kw.load(broken)
    with pytest.raises(KeyError, match="no table nope"):
        kw.load(run_dir, tables=["nope"])
    with pytest.raises(ValueError, match="backend 'arrow'"):
        kw.load(run_dir, "arrow")  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError, match="no-such-binary"):
        kw.exact("5x5", binary="no-such-binary")
    with pytest.raises(RuntimeError, match="exit 2"):
        kw.exact("5x5", rule="nonsense")
    with pytest.raises(TypeError, match="like: int is not a pandas or polars data frame"):
        kw.exact("5x5", like=3)
    assert json.loads((run_dir / "manifest.json").read_text())["experiment"] == "pysmall"


def test_table_of_another_run_refused(tmp_path: Path, run_dir: Path, cp_dir: Path) -> None:
    """Issue 33: a table copied in from another run, a table of another
    name under this one's, a file of an older schema and a manifest that is
    not JSON are refused, naming the file and why."""
    import pyarrow.parquet as pq

    mixed = tmp_path / "mixed"
    shutil.copytree(run_dir, mixed)
    shutil.copy(cp_dir / "claims.parquet", mixed / "claims.parquet")  # other config hash
    with pytest.raises(kw.NotAResultError, match=r"mixed/claims.parquet: .*a table from another run"):
        kw.load(mixed)
    renamed = tmp_path / "renamed"
    shutil.copytree(run_dir, renamed)
    shutil.copy(run_dir / "lengths.parquet", renamed / "squares.parquet")
    with pytest.raises(kw.NotAResultError, match=r"squares.parquet: it is a lengths table, not squares"):
        kw.load(renamed)
    old = tmp_path / "old"
    shutil.copytree(run_dir, old)
    t = pq.read_table(old / "boards.parquet")
    md = dict(pq.read_metadata(old / "boards.parquet").metadata)
    md[b"schema_version"] = b"1"
    pq.write_table(t.replace_schema_metadata(md), old / "boards.parquet")
    with pytest.raises(kw.NotAResultError, match=r"boards.parquet: schema version 1"):
        kw.load(old)
    bad = tmp_path / "bad"
    shutil.copytree(run_dir, bad)
    (bad / "manifest.json").write_text("{not json")
    with pytest.raises(kw.NotAResultError, match=r"bad/manifest.json: not JSON"):
        kw.load(bad)
