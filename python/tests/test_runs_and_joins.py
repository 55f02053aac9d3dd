"""Analysis across runs: several runs stacked, joins keyed by the whole
rule (rule_spec), files checked, levels per table, pooling at the run's
interval method, provenance and the binary's version."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest

import knightwalk as kw

RUN_A = """name: runa
seed: 18446744073709551615
boards: [5x5, 3x4]
starts: all
walks: 60
interval: clopper-pearson
confidence: 0.9
rules:
  - {name: random, max_steps: 6}
  - {name: warnsdorff, tie_break: first}
  - {name: warnsdorff, tie_break: random}
claims:
  - {id: c, rule: warnsdorff/random, board: 5x5, class: corner, below: 0.2}
"""

RUN_B = """name: runb
seed: 5
boards: [8x8, 5x5]
starts: [corner, b2]
walks: 40
rules:
  - {name: warnsdorff, tie_break: random}
  - {name: random}
"""


def _run(tmp: Path, name: str, text: str) -> Path:
    src = tmp / f"{name}.yaml"
    src.write_text(text)
    out = tmp / name
    subprocess.run([kw.find_binary(), "run", str(src), "--out", str(out), "--quiet"], check=True)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("i35")
    return _run(tmp, "runa", RUN_A), _run(tmp, "runb", RUN_B)


def test_seed_is_a_string(runs: tuple[Path, Path]) -> None:
    m = json.loads((runs[0] / "manifest.json").read_text())
    assert m["seed"] == "18446744073709551615" and m["config"]["seed"] == "18446744073709551615"
    assert isinstance(m["walks"], str) and int(m["walks"]) > 0
    if shutil.which("node"):
        out = subprocess.run(["node", "-e", "const m = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));"
                              "process.stdout.write(String(m.seed))", str(runs[0] / "manifest.json")],
                             capture_output=True, text=True, check=True).stdout
        assert out == "18446744073709551615"


@pytest.mark.parametrize("backend", ["pandas", "polars"])
def test_load_several_runs(runs: tuple[Path, Path], backend: str) -> None:
    a, b = runs
    t = kw.load([a, b], backend)
    sq = t["squares"]
    if backend == "pandas":
        assert list(sq["board"].cat.categories) == ["3x4", "5x5", "8x8"]
        assert list(sq.sort_values("board")["board"].unique()) == ["3x4", "5x5", "8x8"]
        assert list(sq["run"].cat.categories) == ["runa", "runb"] and list(sq.columns)[0] == "run"
        assert set(sq.attrs["runs"]) == {"runa", "runb"}
        assert sq.attrs["runs"]["runa"]["interval"] == "clopper-pearson"
        # the two-liner comparing two runs
        both = kw.load({"A": a, "B": b})["boards"]
        assert set(both["run"]) == {"A", "B"} and list(both["run"].cat.categories) == ["A", "B"]
    else:
        assert sq.schema["board"] == pl.Enum(["3x4", "5x5", "8x8"])
        assert sq.sort("board")["board"].unique(maintain_order=True).to_list() == ["3x4", "5x5", "8x8"]
        assert sq.schema["run"] == pl.Enum(["runa", "runb"])
    n = {r: len(kw.load(d, backend)["squares"]) for r, d in (("a", a), ("b", b))}
    assert len(sq) == n["a"] + n["b"]
    # rules: the union in the order met
    rules = list(sq["rule"].cat.categories) if backend == "pandas" else list(sq.schema["rule"].categories)
    assert rules == ["random", "warnsdorff/first", "warnsdorff/random"]


def test_duckdb_several_runs(runs: tuple[Path, Path]) -> None:
    a, b = runs
    con = kw.duckdb(a)
    con = kw.duckdb(b, connection=con)  # was: Type with name "experiment" already exists
    got = con.sql("SELECT DISTINCT board FROM squares ORDER BY board").fetchall()
    assert [r[0] for r in got] == ["3x4", "5x5", "8x8"]
    runs_seen = con.sql("SELECT run, count(*) FROM squares GROUP BY ALL ORDER BY run").fetchall()
    assert [r[0] for r in runs_seen] == ["runa", "runb"]
    con2 = kw.duckdb([a, b])
    assert con2.sql("SELECT count(*) FROM squares").fetchall() == con.sql("SELECT count(*) FROM squares").fetchall()


def _exact_file(tmp: Path, *flags: str) -> Path:
    out = tmp / ("exact" + "".join(flags) + ".parquet")
    subprocess.run([kw.find_binary(), "exact", "--board", "3x4", "--rule", "random", "--format", "parquet",
                    "--out", str(out), "--force", *flags], check=True)
    return out


def test_join_on_rule_spec(runs: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = runs
    unlimited, six = _exact_file(tmp_path), _exact_file(tmp_path, "--max-steps", "6")
    key = ["board", "rule_spec", "start"]
    for backend in ("pandas", "polars"):
        t = kw.load(a, backend, extra={"exact": unlimited, "exact6": six})
        sq = t["squares"]
        if backend == "pandas":
            rnd = sq[sq["rule"] == "random"]
            assert (rnd["board"] == "3x4").sum() == 12
            assert len(rnd.merge(t["exact"], on=key)) == 0
            j = rnd.merge(t["exact6"], on=key)
            assert len(j) == 12 and set(j["board"]) == {"3x4"}
        else:
            rnd = sq.filter(pl.col("rule") == "random")
            assert rnd.join(t["exact"], on=key).height == 0
            assert rnd.join(t["exact6"], on=key).height == 12
    con = kw.duckdb(a, extra={"exact": unlimited, "exact6": six})
    assert con.sql("SELECT count(*) FROM squares JOIN exact USING (board, rule_spec, start)").fetchall()[0][0] == 0
    assert con.sql("SELECT count(*) FROM squares JOIN exact6 USING (board, rule_spec, start)").fetchall()[0][0] == 12
    # kw.exact(like=run) takes the run's max_steps: every row joins
    for like in (a, kw.load(a)["squares"], kw.load(a)):
        ex = kw.exact("3x4", "random", like=like)
        sq = kw.load(a)["squares"]
        assert len(sq.merge(ex, on=key)) == 12
    exp = kw.exact("3x4", "random", like=kw.load(a, "polars")["squares"], backend="polars")
    assert kw.load(a, "polars")["squares"].join(exp, on=key).height == 12
    # no rule_spec is null or empty anywhere
    for name, df in kw.load(a).items():
        for col in ("rule_spec", "rule_spec_a", "rule_spec_b"):
            if col in df.columns:
                assert df[col].notna().all() and (df[col] != "").all(), (name, col)


def test_files_checked(runs: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = runs
    bad = tmp_path / "bad"
    shutil.copytree(a, bad)
    t = pq.read_table(bad / "squares.parquet")
    md = dict(pq.read_metadata(bad / "squares.parquet").metadata)
    md[b"schema_version"] = b"1"
    pq.write_table(t.replace_schema_metadata(md), bad / "squares.parquet")
    for call in (lambda: kw.load(bad), lambda: kw.duckdb(bad), lambda: kw.read_table(bad / "squares.parquet"),
                 lambda: kw.load(a, extra={"x": bad / "squares.parquet"})):
        with pytest.raises(kw.NotAResultError, match=r"squares.parquet: .*schema version 1"):
            call()
    renamed = tmp_path / "renamed"
    shutil.copytree(a, renamed)
    shutil.copy(a / "lengths.parquet", renamed / "squares.parquet")
    for call in (lambda: kw.load(renamed), lambda: kw.duckdb(renamed)):
        with pytest.raises(kw.NotAResultError, match=r"squares.parquet: it is a lengths table, not squares"):
            call()
    plain = tmp_path / "plain.parquet"
    pq.write_table(pq.read_table(a / "squares.parquet").replace_schema_metadata({}), plain)
    with pytest.raises(kw.NotAResultError, match=r"plain.parquet: its metadata names no knightwalk table"):
        kw.read_table(plain)


def test_levels_per_table(runs: tuple[Path, Path], tmp_path: Path) -> None:
    a, _ = runs
    counts = tmp_path / "counts.parquet"
    subprocess.run([kw.find_binary(), "count", "--board", "5x5", "--format", "parquet", "--out", str(counts)], check=True)
    t = kw.load(a, extra={"counts": counts})
    assert list(t["counts"]["kind"].cat.categories) == ["open", "closed", "unique"]
    assert "open" not in list(t["claims"]["kind"].cat.categories)
    assert "published" in list(t["claims"]["kind"].cat.categories)
    con = kw.duckdb(a, extra={"counts": counts})
    assert con.sql("SELECT enum_range(NULL::counts_kind)").fetchall()[0][0] == ["open", "closed", "unique"]
    assert "open" not in con.sql("SELECT enum_range(NULL::claims_kind)").fetchall()[0][0]
    c = kw.count("5x5", like=a)
    assert c["board"].dtype == t["squares"]["board"].dtype and list(c["kind"].cat.categories) == ["open", "closed", "unique"]
    assert int(c.loc[c["start"].isna() & (c["kind"] == "open"), "count"].iloc[0]) == 1728


def test_no_empty_level_and_test_null(runs: tuple[Path, Path]) -> None:
    a, _ = runs
    for name, df in kw.load(a).items():
        for col in df.columns:
            if str(df[col].dtype) == "category":
                assert "" not in list(df[col].cat.categories), (name, col)
    cl = kw.load(a)["claims"]
    assert cl["test"].isna().all()  # a below claim: no test applies
    assert "" not in json.loads(pq.read_schema(a / "claims.parquet").field("test").metadata[b"levels"])


def test_pool_reads_the_run(runs: tuple[Path, Path]) -> None:
    a, _ = runs
    t = kw.load(a)
    got = kw.pool(t["squares"], ["board", "rule"])  # the run's clopper-pearson at 0.9, not Wilson 0.95
    want = t["boards"].set_index(["board", "rule"])
    for _, r in got.iterrows():
        w = want.loc[(r["board"], r["rule"])]
        if bool(w["deterministic"]):
            assert pd.isna(r["success_lo"]) and pd.isna(r["success_hi"]) and pd.isna(w["success_lo"])  # nothing drawn, no interval
            assert r["success_rate"] == pytest.approx(float(w["success_rate"]))
        else:
            assert r["success_lo"] == pytest.approx(float(w["success_lo"]), abs=1e-12)
            assert r["success_hi"] == pytest.approx(float(w["success_hi"]), abs=1e-12)
    pol = kw.pool(kw.load(a, "polars")["squares"], ["board", "rule"], run=a)
    det = pol.filter(pl.col("rule") == "warnsdorff/first")
    assert det["success_lo"].null_count() == det.height and det["success_rate"].null_count() == 0
    with pytest.raises(ValueError, match="pass method= and level="):
        kw.pool(kw.load(a, "polars")["squares"], "board")
    # whole columns at once, the same values as one at a time
    sq = t["squares"]
    rate, lo, hi = kw.interval(sq["successes"], sq["walks"], "clopper-pearson", 0.9)
    for i in range(0, len(sq), 7):
        r1, l1, h1 = kw.interval(int(sq["successes"].iloc[i]), int(sq["walks"].iloc[i]), "clopper-pearson", 0.9)
        assert (rate[i], lo[i], hi[i]) == (r1, l1, h1)


def test_metadata_reachable(runs: tuple[Path, Path]) -> None:
    a, _ = runs
    md = pq.read_table(a / "squares.parquet").schema.metadata
    assert md is not None and md[b"table"] == b"squares" and md[b"seed"] == b"18446744073709551615"
    sq = kw.load(a)["squares"]
    assert sq.attrs["metadata"]["interval"] == "clopper-pearson" and sq.attrs["metadata"]["confidence"] == "0.9"


def test_bad_binary_and_extras(runs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    true = shutil.which("true")
    with pytest.raises(RuntimeError, match="is not the knightwalk experiment binary"):
        kw.exact("5x5", binary=true)
    monkeypatch.setitem(sys.modules, "polars", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install './python\[polars\]'"):
        kw.load(runs[0], "polars")
    monkeypatch.setitem(sys.modules, "duckdb", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install './python\[duckdb\]'"):
        kw.duckdb(runs[0])


def test_replay_and_square_names(runs: tuple[Path, Path]) -> None:
    a, _ = runs
    assert kw.square_name(3, 4, 0, 0) == "a1" and kw.square_name(2, 27, 1, 26) == "r1c26"
    w = kw.load(a)["squares"]
    row = w[(w["rule"] == "random") & (w["board"] == "3x4")].iloc[0]
    walk = kw.replay(18446744073709551615, 3, 4, "random", int(row["start_row"]), int(row["start_col"]), 0, max_steps=6)
    assert kw.square_names(3, 4, walk.path)[0] == row["start"]
    assert walk.length <= 7


def test_binary_version_checked_against_the_files(runs: tuple[Path, Path]) -> None:
    a, _ = runs
    assert kw.binary_version() == kw.load(a)["squares"].attrs["metadata"]["tool_version"]
    sq = kw.load(a)["squares"]
    sq.attrs["metadata"] = dict(sq.attrs["metadata"], tool_version="0.0.1")
    with pytest.warns(UserWarning, match=r"the experiment binary is version .*, but like was written by 0.0.1"):
        kw.exact("3x4", "random", like=sq)


def test_read_table_like_joins_a_loaded_run(runs: tuple[Path, Path], tmp_path: Path) -> None:
    a, b = runs
    six = _exact_file(tmp_path, "--max-steps", "6")
    sq = kw.load([a, b], "polars")["squares"]
    ex = kw.read_table(six, "polars", like=sq)  # pl.read_parquet's Categorical would not join the Enums
    assert ex.schema["board"] == sq.schema["board"]
    assert sq.join(ex, on=["board", "rule_spec", "start"]).height == 12
