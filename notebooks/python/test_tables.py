"""The result tables as a Python client sees them.

Runs the Go binary on two small experiments into a temporary directory and
reads every table with pyarrow, pandas, polars and DuckDB, checking the
schema (docs/tables.md), the counts against each other, and every walk of the
per-walk table against a pure-Python replay of the random-stream contract of
sim/seed.go.

    pip install -r notebooks/python/requirements.txt
    pytest notebooks/python/test_tables.py

KNIGHTWALK_BIN names a built `experiment` binary; without it the fixture
builds one with `go build`.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from knightwalk import parse_order, replay

ROOT = Path(__file__).resolve().parents[2]
TABLES = ["squares", "lengths", "deadends", "classes", "boards", "comparisons", "claims", "walks"]

# A run with a non-square board (3x4 comes before 5x5: boards are ordered by
# size), a step limit on the random walk, Clopper-Pearson intervals at 90 %,
# and the per-walk table in several row groups.
SMALL = """\
name: pytest-small
seed: 20261123
boards: [6x6, 3x4, 5x5]
starts: all
walks: 120
confidence: 0.9
interval: clopper-pearson
rules:
  - {name: warnsdorff, tie_break: random}
  - {name: random, max_steps: 6}
  - {name: warnsdorff, tie_break: first, order: "(2,-1) (1,-2) (-1,-2) (-2,-1) (-2,1) (-1,2) (1,2) (2,1)"}
outputs:
  walks: true
  row_group: 1000
claims:
  - {id: corner, rule: warnsdorff/random, class: corner, above: 0.5}
  - {id: b2, rule: random, board: 5x5, square: b2, below: 0.01}
"""

# One walk per square: standard deviations are undefined (null). A
# tie-break chain ending in first, whose move order is a parameter.
ONE = """\
name: pytest-one
seed: 3
boards: [5x5]
starts: all
walks: 1
rules:
  - {name: random}
  - {name: warnsdorff, tie_break: roth+first}
"""


# Backtracking searches, with a small node budget (some give up), random and
# first tie-breaks, a move order, a closed-tour search; per-walk table.
BACKTRACK = """\
name: pytest-backtrack
seed: 77
boards: [3x4, 5x5, 6x6]
starts: all
walks: 6
rules:
  - {name: backtrack, tie_break: random, node_budget: 400}
  - {name: backtrack, closed: true, node_budget: 1500, order: "(1,2) (2,1) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)"}
outputs:
  walks: true
"""


@pytest.fixture(scope="session")
def binary(tmp_path_factory):
    path = os.environ.get("KNIGHTWALK_BIN")
    if path:
        return Path(path).resolve()
    out = tmp_path_factory.mktemp("bin") / "experiment"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/experiment"], cwd=ROOT, check=True)
    return out


def run_experiment(binary, tmp, text):
    cfg = tmp / "experiment.yaml"
    cfg.write_text(text)
    out = tmp / "results"
    subprocess.run([str(binary), "run", str(cfg), "--out", str(out), "--quiet"],
                   cwd=tmp, check=True, capture_output=True)
    return out


@pytest.fixture(scope="session")
def small(binary, tmp_path_factory):
    return run_experiment(binary, tmp_path_factory.mktemp("small"), SMALL)


@pytest.fixture(scope="session")
def backtrack(binary, tmp_path_factory):
    return run_experiment(binary, tmp_path_factory.mktemp("backtrack"), BACKTRACK)


@pytest.fixture(scope="session")
def one(binary, tmp_path_factory):
    return run_experiment(binary, tmp_path_factory.mktemp("one"), ONE)


def doc_columns():
    """{table: [(column, type, nullable)]} from docs/tables.md."""
    tables, cur = {}, None
    for line in (ROOT / "docs" / "tables.md").read_text().splitlines():
        m = re.match(r"^## `(\w+)`", line)
        if m:
            cur = m.group(1)
            tables[cur] = []
        elif line.startswith("#"):
            cur = None
        elif cur and line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            typ = cells[1]
            tables[cur].append((cells[0].strip("`"), typ.removesuffix(" or null"), typ.endswith(" or null")))
    return tables


ARROW_TYPES = {
    "string": pa.string(), "int32": pa.int32(), "int64": pa.int64(),
    "float64": pa.float64(), "bool": pa.bool_(),
    "dictionary": pa.dictionary(pa.int32(), pa.string(), ordered=True),
}


def file_metadata(path):
    kv = pq.read_metadata(path).metadata
    return {k.decode(): v.decode() for k, v in kv.items() if k != b"ARROW:schema"}


def load(dir, name):
    return pd.read_parquet(dir / f"{name}.parquet")


@pytest.mark.parametrize("name", TABLES)
def test_schema_matches_docs(small, name):
    """Types, order and nullability as documented; field metadata; version 3."""
    path = small / f"{name}.parquet"
    schema = pq.read_schema(path)
    docs = doc_columns()[name]
    assert [f.name for f in schema] == [c for c, _, _ in docs]
    for field, (col, typ, nullable) in zip(schema, docs):
        assert field.type == ARROW_TYPES[typ], (col, field.type)
        if typ == "dictionary":
            assert field.type.ordered, col
        assert field.nullable == nullable, col
        assert field.metadata and field.metadata.get(b"description"), col
    meta = file_metadata(path)
    assert meta.get("schema_version") == "3"
    assert meta.get("table") == name


@pytest.mark.parametrize("name", TABLES)
def test_no_unsigned_anywhere(small, name):
    """No reader sees an unsigned column: pyarrow, pandas, polars, DuckDB."""
    path = small / f"{name}.parquet"
    for field in pq.read_schema(path):
        t = field.type.value_type if pa.types.is_dictionary(field.type) else field.type
        assert not pa.types.is_unsigned_integer(t), field.name
    for col, dt in load(small, name).dtypes.items():
        assert not str(dt).startswith("uint"), col
    for col, dt in pl.read_parquet(path).schema.items():
        assert dt not in (pl.UInt8, pl.UInt16, pl.UInt32, pl.UInt64), col
    for col, typ, *_ in duckdb.sql(f"DESCRIBE SELECT * FROM '{path}'").fetchall():
        assert not typ.startswith("U"), (col, typ)


def test_counts_subtract_below_zero(small):
    """The v1 trap: successes - walks wrapped in pandas and failed in DuckDB."""
    sq = load(small, "squares")
    assert ((sq["successes"] - sq["walks"]) <= 0).all()
    d = duckdb.sql(f"SELECT min(successes - walks) FROM '{small / 'squares.parquet'}'").fetchall()[0][0]
    assert d < 0


def test_ordered_categoricals(small):
    sq = load(small, "squares")
    for col in ["board", "rule", "start_class"]:
        assert isinstance(sq[col].dtype, pd.CategoricalDtype) and sq[col].dtype.ordered, col
    assert list(sq["board"].cat.categories) == ["3x4", "5x5", "6x6"]  # by size
    assert list(sq["rule"].cat.categories) == ["warnsdorff/random", "random", "warnsdorff/first"]
    assert list(sq["start_class"].cat.categories) == ["corner", "edge", "centre", "interior"]
    cl = load(small, "classes")
    levels = list(cl["group"].cat.categories)
    assert levels[:4] == ["corner", "edge", "centre", "interior"]
    degrees = [int(g) for g in levels[4:]]
    assert degrees == sorted(degrees) and set(degrees) == set(sq["start_degree"].astype(int))
    assert pl.read_parquet(small / "squares.parquet").schema["board"] in (pl.Categorical, pl.Enum) \
        or isinstance(pl.read_parquet(small / "squares.parquet").schema["board"], (pl.Categorical, pl.Enum))


def test_nulls_not_nan(one):
    """With one walk per square the standard deviation is undefined: null in
    every reader, never NaN."""
    path = one / "squares.parquet"
    t = pq.read_table(path)
    sd = t.column("length_sd")
    assert sd.null_count == t.num_rows
    for name in TABLES[:-1]:
        tb = pq.read_table(one / f"{name}.parquet")
        for col in tb.column_names:
            if pa.types.is_floating(tb.schema.field(col).type):
                assert not pa.compute.any(pa.compute.is_nan(tb.column(col).drop_null())).as_py(), (name, col)
    assert pl.read_parquet(path)["length_sd"].null_count() == t.num_rows
    n = duckdb.sql(f"SELECT count(*) FROM '{path}' WHERE length_sd IS NULL").fetchall()[0][0]
    assert n == t.num_rows
    n = duckdb.sql(f"SELECT count(*) FROM '{path}' WHERE length_sd > 0").fetchall()[0][0]
    assert n == 0
    assert t.column("length_mean").null_count == 0


def test_rates_and_intervals(small):
    for name, pairs in [("squares", [("successes", "success"), ("closed", "closed")]),
                        ("classes", [("successes", "success"), ("closed", "closed")]),
                        ("boards", [("successes", "success"), ("closed", "closed")])]:
        df = load(small, name)
        for count, rate in pairs:
            np.testing.assert_array_equal(df[f"{rate}_rate"], df[count] / df["walks"])
            # a deterministic rule's walks are the answer: no interval (null)
            det = df["deterministic"].astype(bool)
            assert df.loc[det, f"{rate}_lo"].isna().all() and df.loc[det, f"{rate}_hi"].isna().all()
            d = df[~det]
            assert (d[f"{rate}_lo"] <= d[f"{rate}_rate"]).all()
            assert (d[f"{rate}_rate"] <= d[f"{rate}_hi"]).all()
            assert ((d[f"{rate}_lo"] >= 0) & (d[f"{rate}_hi"] <= 1)).all()
    cm = load(small, "claims")
    np.testing.assert_array_equal(cm["measured"], cm["successes"] / cm["walks"])
    assert ((cm["lo"] <= cm["measured"]) & (cm["measured"] <= cm["hi"])).all()
    # one row per (claim, board): the corner claim names no board
    assert sorted(cm.loc[cm["id"] == "corner", "board"].astype(str)) == ["3x4", "5x5", "6x6"]


def test_lengths_and_deadends_add_up(small):
    sq = load(small, "squares")
    key = ["board", "rule", "start"]
    ln = load(small, "lengths").groupby(key, observed=True, as_index=False)["count"].sum()
    m = sq.merge(ln, on=key, validate="one_to_one")
    assert len(m) == len(sq) and (m["count"] == m["walks"]).all()
    de = load(small, "deadends").groupby(key, observed=True, as_index=False)["count"].sum()
    m = sq.merge(de, on=key, how="left")
    failed = m["count"].fillna(0).astype("int64")
    assert (failed + m["successes"] + m["stopped"] == m["walks"]).all()
    # the step limit stopped some random walks, and only those
    assert sq.loc[sq["rule"] == "random", "stopped"].sum() > 0
    assert sq.loc[sq["rule"] != "random", "stopped"].sum() == 0


def test_classes_are_pooled_squares(small):
    sq = load(small, "squares")
    cl = load(small, "classes")
    for by, col in [("class", "start_class"), ("degree", "start_degree")]:
        s = sq.assign(group=sq[col].astype(str))
        pooled = s.groupby(["board", "rule", "group"], observed=True, as_index=False).agg(
            squares=("start", "size"), walks=("walks", "sum"), successes=("successes", "sum"),
            closed=("closed", "sum"))
        c = cl[cl["group_by"] == by].assign(group=lambda d: d["group"].astype(str))
        m = pooled.merge(c, on=["board", "rule", "group"], suffixes=("", "_t"), validate="one_to_one")
        assert len(m) == len(pooled) == len(c)
        for k in ["squares", "walks", "successes", "closed"]:
            assert (m[k] == m[f"{k}_t"]).all(), (by, k)


@pytest.mark.parametrize("which", ["small", "backtrack"])
def test_boards_are_pooled_squares(which, request):
    """boards: every start square of (board, rule) pooled; outcomes add up."""
    dir = request.getfixturevalue(which)
    sq = load(dir, "squares")
    bd = load(dir, "boards")
    pooled = sq.assign(lsum=sq["length_mean"] * sq["walks"]).groupby(
        ["board", "rule"], observed=True, as_index=False).agg(
        squares=("start", "size"), walks=("walks", "sum"), successes=("successes", "sum"),
        closed=("closed", "sum"), stopped=("stopped", "sum"),
        budget_exceeded=("budget_exceeded", "sum"), lsum=("lsum", "sum"))
    m = pooled.merge(bd, on=["board", "rule"], suffixes=("", "_b"), validate="one_to_one")
    assert len(m) == len(bd) == len(pooled)
    for k in ["squares", "walks", "successes", "closed", "stopped", "budget_exceeded"]:
        assert (m[k] == m[f"{k}_b"]).all(), k
    np.testing.assert_allclose(m["length_mean"], m["lsum"] / m["walks"], rtol=1e-12)
    assert (bd["successes"] + bd["dead_ends"] + bd["stopped"] + bd["budget_exceeded"] == bd["walks"]).all()
    # one row per (board, rule) in the experiment's order (the plan's: boards
    # and rules as the file lists them; the levels order boards by size)
    cfg = json.loads((dir / "manifest.json").read_text())["config"]
    assert list(zip(bd["board"].astype(str), bd["rule"].astype(str))) == [
        (b, r["name"]) for b in cfg["boards"] for r in cfg["rules"]]
    if which == "backtrack":
        assert bd["budget_exceeded"].sum() > 0 and bd["dead_ends"].sum() > 0


def holm(p):
    """Holm's step-down adjustment (as R's p.adjust(p, "holm")); NaN stays out."""
    p = np.asarray(p, dtype=float)
    out = np.full(len(p), np.nan)
    idx = np.flatnonzero(~np.isnan(p))
    order = idx[np.argsort(p[idx], kind="stable")]
    m = len(order)
    out[order] = np.maximum.accumulate(np.minimum(1, (m - np.arange(m)) * p[order]))
    return out


def test_comparisons(small):
    """Counts from the classes rows; both kinds of comparison; p_holm is
    Holm's adjustment within each comparison's family."""
    cm = load(small, "comparisons")
    cl = load(small, "classes")
    cl = cl[cl["group_by"] == "class"]
    key = ["board", "rule", "group"]
    for s in "ab":
        side = cm[["board", f"rule_{s}", f"group_{s}", f"walks_{s}", f"successes_{s}"]].astype(
            {"board": str, f"rule_{s}": str, f"group_{s}": str})
        side.columns = key + ["walks", "successes"]
        m = side.merge(cl.astype({"board": str, "rule": str, "group": str}), on=key,
                       suffixes=("", "_c"), how="left")
        assert len(m) == len(cm)
        assert (m["walks"] == m["walks_c"]).all() and (m["successes"] == m["successes_c"]).all(), s
        np.testing.assert_array_equal(cm[f"rate_{s}"], cm[f"successes_{s}"] / cm[f"walks_{s}"])
    g, r = cm[cm["compare"] == "groups"], cm[cm["compare"] == "rules"]
    assert len(g) and len(r) and len(g) + len(r) == len(cm)
    assert (g["rule_a"].astype(str) == g["rule_b"].astype(str)).all()
    assert (r["group_a"].astype(str) == r["group_b"].astype(str)).all()
    assert (r["rule_a"].astype(str) != r["rule_b"].astype(str)).all()
    # every two of the 3 rules on every class of every board
    ncls = cl.groupby("board", observed=True)["group"].nunique()
    assert len(r) == int((ncls * 3).sum())
    # Holm within each declared family (comparison_family: question, the
    # default: one rule's classes on one board, or one class's rules)
    fam = np.where(cm["compare"] == "groups",
                   cm["board"].astype(str) + " " + cm["rule_a"].astype(str) + ": classes",
                   cm["board"].astype(str) + " " + cm["group_a"].astype(str) + ": rules")
    assert (cm["family"] == fam).all()
    for _, f in cm.groupby("family"):
        np.testing.assert_allclose(f["p_holm"], holm(f["p_value"]), rtol=1e-12)
    assert (cm["p_holm"] >= cm["p_value"]).all() and (cm["p_holm"] <= 1).all()
    assert list(cm["compare"].cat.categories) == ["groups", "rules"]


def test_four_readers_agree(small):
    for name in TABLES:
        path = small / f"{name}.parquet"
        t = pq.read_table(path)
        n = t.num_rows
        assert len(pd.read_parquet(path)) == n
        assert pl.read_parquet(path).height == n
        assert duckdb.sql(f"SELECT count(*) FROM '{path}'").fetchall()[0][0] == n
        ints = [f.name for f in t.schema if pa.types.is_integer(f.type)]
        for col in ints:
            want = pa.compute.sum(t.column(col)).as_py()  # None when all null
            assert int(pd.read_parquet(path, columns=[col])[col].sum()) == (want or 0)
            assert pl.read_parquet(path, columns=[col])[col].sum() == (want or 0)
            assert duckdb.sql(f"SELECT sum(\"{col}\") FROM '{path}'").fetchall()[0][0] == want


def test_interval_settings_in_every_file(small):
    for name in TABLES:
        meta = file_metadata(small / f"{name}.parquet")
        assert meta.get("interval") == "clopper-pearson" and float(meta.get("confidence")) == 0.9


def test_config_and_provenance_in_every_file(small):
    """Every file holds the resolved configuration (as manifest.json has it)
    and the binary's provenance; no time (manifest.json has those)."""
    manifest = json.loads((small / "manifest.json").read_text())
    for key in ["vcs_revision", "vcs_modified", "go_version", "module_version", "goos", "goarch", "cpu"]:
        assert key in manifest["build"], key
    assert manifest["started_at"] <= manifest["finished_at"]
    for name in TABLES:
        meta = file_metadata(small / f"{name}.parquet")
        assert json.loads(meta["config"]) == manifest["config"], name
        assert meta["go_version"].startswith("go") and meta["goos"] and meta["goarch"], name
        assert meta["git_commit"] == manifest["build"]["vcs_revision"], name
        assert meta["vcs_modified"] in ("true", "false", ""), name
        for k in ["go_version", "module_version", "goos", "goarch", "cpu"]:
            assert meta[k] == manifest["build"][k], (name, k)
        assert not any("time" in k or k.endswith("_at") for k in meta), (name, sorted(meta))


def test_walks_table_matches_summaries(small):
    w = load(small, "walks")
    sq = load(small, "squares")
    key = ["board", "rule", "start"]
    # plan order: board, rule, start square as the experiment lists them, then walk
    assert (w.groupby(key, observed=True, sort=False)["walk"].apply(
        lambda s: (s.to_numpy() == np.arange(len(s))).all())).all()
    agg = w.groupby(key, observed=True, as_index=False).agg(
        walks=("walk", "size"), successes=("success", "sum"), closed=("closed", "sum"),
        ties=("ties", "sum"))
    m = sq.merge(agg, on=key, suffixes=("", "_w"), validate="one_to_one")
    for k in ["walks", "successes", "closed"]:
        assert (m[k] == m[f"{k}_w"]).all(), k
    np.testing.assert_allclose(m["ties_mean"], m["ties"] / m["walks"], rtol=1e-12)
    # outcomes: one per walk, adding up to the summaries (docs/tables.md, walks)
    assert list(w["outcome"].cat.categories) == ["success", "closed", "dead_end", "stopped", "budget"]
    assert w["outcome"].dtype.ordered and w["outcome"].notna().all()
    assert (w["success"] == w["outcome"].isin(["success", "closed"])).all()
    assert (w["closed"] == (w["outcome"] == "closed")).all()
    oc = pd.crosstab([w["board"], w["rule"], w["start"]], w["outcome"], dropna=False).reset_index()
    m = sq.merge(oc, on=key, validate="one_to_one")
    assert ((m["success"] + m["closed_y"]) == m["successes"]).all()
    assert (m["closed_y"] == m["closed_x"]).all()
    assert (m["stopped_y"] == m["stopped_x"]).all()
    assert (m["budget"] == m["budget_exceeded"]).all()
    de = load(small, "deadends").groupby(key, observed=True, as_index=False)["count"].sum()
    m = m.merge(de, on=key, how="left")
    assert ((m["dead_end"] + m["budget"]) == m["count"].fillna(0)).all()
    # nodes and backtracks are for backtracking rules only
    bt = w["rule"].astype(str).str.startswith("backtrack")
    assert w.loc[~bt, ["nodes", "backtracks"]].isna().all().all()
    assert w.loc[bt, ["nodes", "backtracks"]].notna().all().all()
    hist = w.groupby(key + ["length"], observed=True, as_index=False).size()
    ln = load(small, "lengths")
    # rows with no walks are kept only for their exact probability
    assert (ln.loc[ln["count"] == 0, "exact_share"] > 0).all()
    ln = ln[ln["count"] > 0]
    m = ln.merge(hist, on=key + ["length"], validate="one_to_one")
    assert len(m) == len(ln) == len(hist) and (m["count"] == m["size"]).all()


def replay_row(seed, row):
    """Replay one row of the walks table with the rule's parameters from the
    row's own columns (docs/tables.md: null where the rule has none)."""
    rows, cols = (int(x) for x in str(row.board).split("x"))

    def opt(v):
        return None if pd.isna(v) else v

    max_steps, budget = opt(row.max_steps), opt(row.node_budget)
    return replay(seed, rows, cols, str(row.rule), int(row.start_row), int(row.start_col), int(row.walk),
                  max_steps=int(max_steps) if max_steps is not None else None,
                  order=opt(row.move_order),
                  node_budget=int(budget) if budget is not None else None,
                  tie_break=opt(row.tie_break))


def test_rule_parameters_in_rows(small, backtrack, one):
    """Every table with a rule column carries the experiment's name and the
    rule's parameters, as the resolved configuration has them."""
    for dir in (small, backtrack, one):
        manifest = json.loads((dir / "manifest.json").read_text())
        cfg = {r["name"]: r for r in manifest["config"]["rules"]}
        for name in ["squares", "lengths", "deadends", "classes", "boards", "claims", "walks"]:
            if not (dir / f"{name}.parquet").exists():
                continue  # walks: only where the run asks for it
            df = load(dir, name)
            if df.empty:
                continue
            assert (df["experiment"].astype(str) == manifest["experiment"]).all(), name
            for rule, g in df.groupby("rule", observed=True):
                r, kind = cfg[str(rule)], str(rule).split("/")[0]
                for col in ["tie_break", "max_steps", "node_budget", "move_order"]:
                    assert g[col].nunique(dropna=False) == 1, (name, rule, col)
                row = g.iloc[0]
                assert (pd.isna(row.tie_break) if kind == "random" else row.tie_break == r["tie_break"]), (name, rule)
                assert (pd.isna(row.max_steps) if not r["max_steps"] else row.max_steps == r["max_steps"]), (name, rule)
                assert (row.node_budget == r["node_budget"] if kind == "backtrack" else pd.isna(row.node_budget)), (name, rule)
                uses_order = kind == "backtrack" or str(rule).startswith("warnsdorff/") and str(rule).endswith("first")
                assert (row.move_order == r["order"] if uses_order else pd.isna(row.move_order)), (name, rule)
    chain = load(one, "squares").query("rule == 'warnsdorff/roth+first'")
    assert len(chain) and (chain["tie_break"].astype(str) == "roth+first").all() and chain["move_order"].notna().all()
    sq = load(small, "squares")
    assert sq.loc[sq["rule"] == "random", "max_steps"].eq(6).all()
    assert sq.loc[sq["rule"] != "random", "max_steps"].isna().all()
    assert str(sq["max_steps"].dtype) in ("float64", "Int64")  # nullable int64: NaN in numpy-backed pandas
    assert pq.read_schema(small / "squares.parquet").field("max_steps").type == pa.int64()


@pytest.mark.parametrize("which", ["small", "backtrack"])
def test_walks_replay_bit_for_bit(which, request):
    """Every walk of the table, replayed in Python from the seed and the
    stream contract with the rule's parameters read from the row (max_steps,
    move order, node budget, tie-break): same length, end square, outcome,
    ties, and for backtracking nodes and backtracks."""
    dir = request.getfixturevalue(which)
    seed = int(file_metadata(dir / "walks.parquet")["seed"])
    w = load(dir, "walks")
    replayed = {"random", "warnsdorff/random", "warnsdorff/first", "backtrack", "backtrack/closed"}
    assert set(w["rule"].astype(str)) <= replayed
    bad = []
    stopped, dead = {}, {}  # outcomes by replay: per square, per (square, end)
    outcomes = set()
    for row in w.itertuples(index=False):
        r = replay_row(seed, row)
        got = (r.length, r.success, r.closed, r.end, r.ties, r.outcome,
               r.nodes, r.backtracks)
        want = (row.length, row.success, row.closed, (row.end_row, row.end_col), row.ties, row.outcome,
                None if pd.isna(row.nodes) else int(row.nodes),
                None if pd.isna(row.backtracks) else int(row.backtracks))
        if got != want:
            bad.append((row, got))
        outcomes.add(r.outcome)
        key = (str(row.board), str(row.rule), row.start)
        stopped[key] = stopped.get(key, 0) + r.stopped
        if not r.success and not r.stopped:
            dead[key + (row.end,)] = dead.get(key + (row.end,), 0) + 1
    assert not bad, f"{len(bad)} of {len(w)} walks differ from their replay; first: {bad[:3]}"
    if which == "small":
        assert {"success", "closed", "dead_end", "stopped"} <= outcomes
    else:
        assert {"success", "closed", "budget"} <= outcomes, outcomes
    # the replayed outcomes add up to the summary tables: stopped walks per
    # square, and dead ends per (square, end square)
    sq = load(dir, "squares")
    want = {(str(b), str(r), s): int(n) for b, r, s, n in
            zip(sq["board"], sq["rule"], sq["start"], sq["stopped"])}
    assert stopped == want
    de = load(dir, "deadends")
    want = {(str(b), str(r), s, e): int(n) for b, r, s, e, n in
            zip(de["board"], de["rule"], de["start"], de["end"], de["count"])}
    assert dead == want
