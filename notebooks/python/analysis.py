# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Knight walks: the result tables in Python
#
# This notebook reads the Parquet tables that `go run ./cmd/experiment run`
# writes and redraws the main figures with pandas and matplotlib. You do not
# need to read any Go to follow it: every column used here is documented in
# `docs/tables.md`, the single source of truth for the table schemas.
#
# What it does, step by step:
#
# 1. find the result directory and load every table;
# 2. show each table's schema and the run metadata stored in every file
#    (seed, configuration hash, tool version, …);
# 3. redraw the success-rate heatmap of one board and rule;
# 4. compare corner, edge and centre starts, with their intervals;
# 5. plot the success rate against the board size n (the size sweep);
# 6. show the path-length distribution of the random walk by start class;
# 7. explain how the `walk` index of the per-walk table ties each row to a
#    reproducible random stream, and replay a few random walks exactly.
#
# **Which results.** By default the small example result set committed under
# `results/example/` (boards 5x5 … 10x10, rules `warnsdorff/random` and
# `random`, every start square, 300 walks each). Set the environment
# variable `KNIGHTWALK_RESULTS` to another result directory (absolute, or
# relative to the repository root) to analyse your own run. Optional:
# `KNIGHTWALK_BOARD` (default `8x8`) and `KNIGHTWALK_RULE` (default
# `warnsdorff/random`) pick the board and rule of the single-board figures;
# `KNIGHTWALK_FIGURES` is where the figures are saved (default: a new
# temporary directory).
#
# **Running it.** In Jupyter (`jupyter lab notebooks/python/knightwalk.ipynb`)
# figures appear inline; as a script (`python3 notebooks/python/analysis.py`)
# it runs headless, prints short summaries and saves the figures as PNG.
# The `.ipynb` and the `.py` hold the same cells (a jupytext "percent" pair).
#
# **Convention.** Columns are always named as string literals — `df["walks"]`,
# `on=[...]`, `.groupby("start_class")` — and tables are always loaded with
# `load("name")`, so that `go test ./notebooks` can check every name used here
# against `docs/tables.md`. Keep to it when you extend the notebook.

# %%
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import matplotlib

# In a Jupyter kernel figures are drawn inline; anywhere else (a script, CI)
# matplotlib draws off screen and the figures are only saved to files.
IN_NOTEBOOK = "ipykernel" in sys.modules
if not IN_NOTEBOOK:
    matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pyarrow.parquet as pq

try:  # the repository's Python package (pip install ./python)
    import knightwalk as kw
except ImportError:  # not installed: use it from the checkout
    _here = Path.cwd().resolve()
    for _d in [_here, *_here.parents]:
        if (_d / "python" / "src" / "knightwalk").is_dir():
            sys.path.insert(0, str(_d / "python" / "src"))
            break
    import knightwalk as kw

try:  # polars is optional: used only to show that it reads the same files
    import polars as pl
except ImportError:
    pl = None

print(f"pandas {pd.__version__}, matplotlib {matplotlib.__version__}, "
      f"polars {pl.__version__ if pl is not None else 'not installed'}")

# %% [markdown]
# ## 1. Where the results are
#
# The repository root is the first directory at or above the current one
# that holds `go.mod` (Jupyter starts in `notebooks/python/`, a script
# usually in the root). The result directory is `KNIGHTWALK_RESULTS`, or
# `results/example` by default; a relative path is taken from the root.

# %%
def repo_root(start=None):
    """The nearest directory at or above start (default: cwd) with a go.mod."""
    here = Path(start or Path.cwd()).resolve()
    for d in [here, *here.parents]:
        if (d / "go.mod").is_file():
            return d
    raise FileNotFoundError(
        f"no go.mod at or above {here}: run from inside the repository, "
        "or set KNIGHTWALK_RESULTS to an absolute path")


RESULTS = Path(os.environ.get("KNIGHTWALK_RESULTS") or "results/example")
if not RESULTS.is_absolute():
    RESULTS = repo_root() / RESULTS
if not RESULTS.is_dir():
    raise FileNotFoundError(f"result directory {RESULTS} does not exist "
                            "(set KNIGHTWALK_RESULTS)")

FIGURES = Path(os.environ.get("KNIGHTWALK_FIGURES")
               or tempfile.mkdtemp(prefix="knightwalk-figures-"))
FIGURES.mkdir(parents=True, exist_ok=True)

print(f"results: {RESULTS}")
print(f"figures: {FIGURES}")


def slug(text):
    """A file-name-safe form of a board or rule name: warnsdorff/random ->
    warnsdorff-random; a design cell's rule_spec
    (warnsdorff/first;order=(2,1)(1,2)...) -> warnsdorff-first-order-2-1-1-2..."""
    return re.sub(r"[^A-Za-z0-9._]+", "-", str(text)).strip("-")


def save(fig, name):
    """Save a figure as PNG under FIGURES; in Jupyter, show that PNG inline.

    The saved file is displayed explicitly rather than by plt.show(), which
    shows nothing under a non-interactive backend (MPLBACKEND=Agg, as in
    CI), so an executed notebook always holds its figures."""
    path = FIGURES / f"{name}.png"
    fig.savefig(path, dpi=150, bbox_inches="tight")
    print(f"saved {path}")
    plt.close(fig)
    if IN_NOTEBOOK:
        from IPython.display import Image, display
        display(Image(filename=str(path)))


def show_table(df, max_rows=20):
    """Show a data frame: rich display in Jupyter, plain text in a script."""
    if IN_NOTEBOOK:
        from IPython.display import display
        display(df.head(max_rows))
    else:
        print(df.head(max_rows).to_string(index=False))
        if len(df) > max_rows:
            print(f"... {len(df) - max_rows} more rows")

# %% [markdown]
# ## 2. Loading the tables
#
# Each table is one Parquet file, `<name>.parquet`, in the result directory.
# The repository's Python package, `knightwalk` (`pip install ./python`),
# reads them all: `kw.load(RESULTS)` returns a dict of pandas data frames
# whose category columns carry their stored levels in order, and whose
# other columns are pandas' nullable types (`Int64`, `Float64`, `string`;
# `pd.NA` for null). `load(name)` below picks one. The eight tables:
#
# | table | one row per |
# |---|---|
# | `squares` | (board, rule, start square): counts, rates with intervals, path-length summary |
# | `lengths` | (board, rule, start square, path length) with a non-zero count: the length histogram |
# | `deadends` | (board, rule, start square, end square): where failed walks got stuck |
# | `classes` | (board, rule, grouping, group): start squares pooled by class or by degree |
# | `boards` | (board, rule): every start square pooled, with the outcome counts |
# | `comparisons` | two classes under one rule, or two rules on one class, compared on one board (counts, difference, interval, p-value, Holm-adjusted p-value) |
# | `claims` | (claim, board): a published claim checked against the measurement, with a verdict |
# | `walks` | one walk (optional, large): its length, end square, outcome |
#
# Every table with a `rule` column starts with `experiment` (the run's name)
# and ends with the rule's parameters that its name does not say:
# `tie_break`, `max_steps`, `node_budget` and `move_order`, null where the
# rule has no such parameter. So tables of several runs can be concatenated
# and still tell a `random` rule with `max_steps: 6` from one without.
#
# Types (schema version 3): counts are signed 64-bit integers (`int64`), so
# differences of counts may go negative; rates and interval ends are fractions
# in [0, 1] as `float64`; an undefined value (a rate over zero walks, the
# standard deviation of one walk) is null in the file, `NaN` in pandas.
# Categorical columns (board, rule, start class, group, …) are ordered
# dictionaries whose full level list is also stored in the file (the
# `levels` field metadata), so they load as ordered `Categorical`s with their
# levels in a meaningful order (boards by size, rules as the experiment
# lists them, classes corner, edge, centre, interior), even in an empty
# table: `squares[squares["board"] < "8x8"]` keeps the boards smaller than
# 8x8, by size. Squares are `(row, col)` from 0
# with row 0 at the bottom, and named like `a1`.

# %%
def table_path(name):
    return RESULTS / f"{name}.parquet"


def file_metadata(path):
    """The Parquet key-value metadata of a file as a str -> str dict
    (without ARROW:schema, the serialised Arrow schema)."""
    raw = pq.read_metadata(path).metadata or {}
    return {k.decode(): v.decode() for k, v in raw.items() if k != b"ARROW:schema"}


TABLES = kw.load(RESULTS)  # every table the manifest lists, as pandas


def load(name, required=True):
    """Table `name` of RESULTS as a pandas DataFrame (None when an optional
    table was not written), checking the file's `table` metadata key."""
    if name not in TABLES:
        if required:
            raise FileNotFoundError(f"{table_path(name)} is missing")
        print(f"{name}: no {name}.parquet in {RESULTS} (an optional table)")
        return None
    stored = file_metadata(table_path(name)).get("table")
    if stored != name:
        raise ValueError(f"{table_path(name)}: metadata says table {stored!r}, want {name!r}")
    return TABLES[name]


# A sieve (docs/designs.md, "Sieves") writes one table, `sieve`, and none
# of the eight above: section 2b reads it, and the sections after it, which
# need the squares table, say so and draw nothing.
SIEVE = "sieve" in TABLES
if SIEVE:
    sieve = load("sieve")
    squares = lengths = deadends = classes = boards_table = comparisons = claims = walks_table = None
    print(f"a sieve run: sieve {len(sieve):>8} rows  {len(sieve.columns):>3} columns")
else:
    squares = load("squares")
    lengths = load("lengths")
    deadends = load("deadends")
    classes = load("classes")
    boards_table = load("boards")
    comparisons = load("comparisons")
    claims = load("claims")
    walks_table = load("walks", required=False)  # written only when outputs.walks is on

for name, df in [("squares", squares), ("lengths", lengths), ("deadends", deadends),
                 ("classes", classes), ("boards", boards_table), ("comparisons", comparisons),
                 ("claims", claims), ("walks", walks_table)]:
    if df is not None:
        print(f"{name:<12} {len(df):>8} rows  {len(df.columns):>3} columns")

# %% [markdown]
# ## 2b. A sieve run: where each cell first failed
#
# A sieve follows each cell (a rule and a named start square; in a design,
# one move order) from board to board, stage by stage, and stops it at its
# first failure (docs/designs.md, "Sieves"). The `sieve` table has one row
# per (cell, stage entered): `failed_board` is the board where its walk
# first failed (null if it passed every board of the stage), `passed`
# whether it did, and `kept` whether the stage's `keep` (fails or succeeds)
# kept it for the next stage. Cells are told apart by `rule_spec` (the rule
# with its tie-break and move order), never by `rule`, which a design's
# cells share. On other runs this section does nothing.

# %%
if SIEVE:
    stages = (sieve.groupby(["stage", "keep"], observed=True)
              .agg(cells=("rule_spec", "size"), passed=("passed", "sum"), kept=("kept", "sum"))
              .reset_index())
    show_table(stages)
    failed = sieve[sieve["failed_board"].notna()]
    # boards in the order the stage walks them (by rows, then columns)
    order = (failed[["failed_board", "failed_rows", "failed_cols"]].drop_duplicates()
             .sort_values(["failed_rows", "failed_cols"])["failed_board"].tolist())
    for stage, rows in sieve.groupby("stage", observed=True):
        first = rows["failed_board"].value_counts().reindex(order, fill_value=0)
        n_passed = int(rows["passed"].sum())
        fig, ax = plt.subplots(figsize=(max(4, 0.5 * len(order) + 2), 3))
        ax.bar(range(len(order) + 1), [*first.tolist(), n_passed], color="0.4")
        ax.set_xticks(range(len(order) + 1), [*order, "passed"], rotation=45)
        ax.set_xlabel("board of the first failure (boards where no cell failed are not shown)")
        ax.set_ylabel(f"cells (of {len(rows)})")
        ax.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_title(f"stage {stage} (keep: {rows['keep'].iloc[0]}): "
                     f"{len(rows)} cells, {n_passed} passed every board")
        save(fig, f"sieve_stage{stage}")
    kept_last = sieve[(sieve["stage"] == sieve["stage"].max()) & sieve["kept"]]
    print(f"kept by the last stage: {len(kept_last)} cells")
    for spec in kept_last["rule_spec"]:
        print(f"  {spec}")

# %% [markdown]
# ## 3. Schemas and run metadata
#
# Every file stores its Arrow schema, so the types below are exactly those of
# the table documentation (`string`, `dictionary`, `int32`, `int64`,
# `float64`, `bool`; only the columns documented "or null" are nullable), and
# each field carries its unit and description. Every file also carries
# key-value metadata identifying the run that produced it: `schema_version`,
# `table`, `experiment`, `seed`, `config_hash` (a hash of the validated
# configuration), `config` (the resolved configuration itself, as JSON),
# `tool_version`; the binary's provenance from its Go build information —
# `git_commit`, `vcs_modified` (`true` if built with uncommitted changes),
# `go_version`, `module_version` — and the machine's `goos`, `goarch` and
# `cpu`; and `confidence` and
# `interval`: the level and method of every `*_lo` / `*_hi` column. The
# start and finish times are only in `manifest.json`, so that equal tables
# are byte-identical files. Files
# from one run share the seed and configuration hash; the check below makes
# sure nothing from another run slipped into the directory. The interval
# settings are read from the files themselves (`manifest.json` only as a
# fallback), so a table copied out of its directory still says how its
# intervals were made.

# %%
runs = set()
settings = set()
for path in sorted(RESULTS.glob("*.parquet")):
    schema = pq.read_schema(path)
    meta = file_metadata(path)
    runs.add((meta.get("seed"), meta.get("config_hash")))
    settings.add((meta.get("confidence"), meta.get("interval")))
    print(f"== {path.name}")
    for field in schema:
        print(f"   {field.name:<16} {str(field.type):<8} "
              f"{'' if field.nullable else 'not null'}")
    for key, value in meta.items():
        if key in ("config", "levels"):
            value = value[:60] + ("…" if len(value) > 60 else "")
        print(f"   [{key}] {value}")

if len(runs) != 1:
    print(f"WARNING: the files come from {len(runs)} different runs: {sorted(runs)}")
else:
    print(f"all files come from one run: seed {runs.pop()[0]}")

manifest_path = RESULTS / "manifest.json"
manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
config = manifest.get("config", {})
if len(settings) != 1:
    raise ValueError(f"the tables disagree on their interval settings: {sorted(settings, key=str)}")
conf_text, METHOD = settings.pop()
if conf_text is None or METHOD is None:  # files without the keys: the manifest says
    conf_text, METHOD = config.get("confidence"), config.get("interval")
if conf_text is None or METHOD is None:
    raise ValueError("neither the tables nor manifest.json say which intervals the tables hold")
CONFIDENCE = float(conf_text)
if METHOD not in ("wilson", "clopper-pearson"):
    raise ValueError(f"unknown interval method {METHOD!r}")
print(f"intervals in the tables: {METHOD}, {CONFIDENCE:.0%} confidence")
MAIN_TABLE = "sieve" if SIEVE else "squares"
SCHEMA_VERSION = int(file_metadata(table_path(MAIN_TABLE)).get("schema_version") or 1)
print(f"schema version {SCHEMA_VERSION}")

print(f"\npandas dtypes of {MAIN_TABLE} (nullable Int64 counts, ordered categories):")
print(TABLES[MAIN_TABLE].dtypes.to_string())

if pl is not None and not SIEVE:
    print("\npolars, with the stored levels as Enums (kw.load(RESULTS, backend=\"polars\")):")
    polars_tables = kw.load(RESULTS, backend="polars", tables=["classes"])
    print(polars_tables.get("classes").schema)

# %% [markdown]
# ## 4. The success heatmap of one board and rule
#
# `squares` has one row per start square. The grid below puts each square's
# success rate (the fraction of walks from it that visited every square) at
# `(start_row, start_col)`, with rank 1 (row 0) at the bottom and file `a`
# (column 0) on the left, as on a chess diagram. Squares that were not run
# stay blank.

# %%
if not SIEVE:  # a sieve run has no squares table: section 2b drew its figures
    BOARD = os.environ.get("KNIGHTWALK_BOARD") or "8x8"
    RULE = os.environ.get("KNIGHTWALK_RULE") or "warnsdorff/random"
    # the categories are in their stored order: boards by size, rules as the
    # experiment lists them; keep those present
    boards = [b for b in squares["board"].cat.categories if (squares["board"] == b).any()]
    # a rule is its rule_spec (docs/tables.md: the experiment and rule_spec name
    # a rule): the cells of a design share a rule name (warnsdorff/first) and
    # differ in their parameters (order=...), so every grouping below is by
    # rule_spec, in the experiment's order (the squares table's rows are in
    # plan order: board, then rule)
    rules = list(dict.fromkeys(squares["rule_spec"].astype(str)))
    if BOARD not in boards:
        print(f"board {BOARD} is not in these results; using {boards[-1]}")
        BOARD = boards[-1]
    if RULE not in rules:
        named = [spec for spec in rules if (squares.loc[squares["rule_spec"] == spec, "rule"].astype(str) == RULE).any()]
        print(f"rule {RULE} is not a rule_spec of these results; using {(named or rules)[0]}")
        RULE = (named or rules)[0]
    # figures with a panel or a line per rule show at most this many (a
    # design has hundreds or thousands of cells); the printed tables hold all
    RULE_INDEX = {r: i for i, r in enumerate(rules)}


    def by_rule(df, *more):
        """df sorted by its rules in the experiment's order, then by the
        columns more (categories: boards by size, classes in their order)."""
        df = df.copy()
        df["rule_order"] = df["rule_spec"].astype(str).map(RULE_INDEX)
        return df.sort_values(["rule_order", *more], kind="stable").drop(columns="rule_order")


    MAX_SHOWN = 6
    shown = rules[:MAX_SHOWN]
    if len(rules) > len(shown):
        print(f"{len(rules)} rules (rule_spec): the figures with one panel or line per rule show the first {len(shown)}")
    print(f"boards: {', '.join(boards)}; rules: {', '.join(rules)}")


    def file_letters(cols):
        """Axis labels for the columns: a, b, c, … (0-based numbers beyond 26
        columns, where squares are named r<row>c<col>)."""
        return [chr(ord("a") + c) if cols <= 26 else str(c) for c in range(cols)]


    def rank_labels(rows, cols):
        """Axis labels for the rows: ranks 1, 2, … as in a1; 0-based row numbers
        beyond 26 columns, to match the column numbers of r<row>c<col>."""
        return [str(r + 1) if cols <= 26 else str(r) for r in range(rows)]


    def rate_text(rate, lo, hi, digits=1):
        """A rate with its interval; a null interval (a deterministic rule: it
        draws nothing, its one walk decides) is said, not printed as numbers."""
        if pd.isna(rate):
            return "no walks"
        if pd.isna(lo) or pd.isna(hi):
            return f"{rate:.{digits}%} (deterministic: no interval)"
        return f"{rate:.{digits}%} [{lo:.{digits}%}, {hi:.{digits}%}]"


    one = squares[(squares["board"] == BOARD) & (squares["rule_spec"] == RULE)]
    rows, cols = int(one["rows"].iloc[0]), int(one["cols"].iloc[0])
    grid = np.full((rows, cols), np.nan)
    grid[one["start_row"].to_numpy(dtype=int), one["start_col"].to_numpy(dtype=int)] = \
        one["success_rate"].to_numpy(dtype=float, na_value=np.nan)

    fig, ax = plt.subplots(figsize=(1 + 0.6 * cols, 0.6 * rows))
    im = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=1)
    ax.set_xticks(range(cols), file_letters(cols))
    ax.set_yticks(range(rows), rank_labels(rows, cols))
    if rows * cols <= 144:
        for r in range(rows):
            for c in range(cols):
                if not np.isnan(grid[r, c]):
                    ax.text(c, r, f"{100 * grid[r, c]:.0f}", ha="center", va="center",
                            fontsize=7, color="white" if grid[r, c] < 0.6 else "black")
    fig.colorbar(im, ax=ax, label="success rate")
    ax.set_title(f"Success rate by start square, {BOARD}, {RULE}")
    save(fig, f"success-heatmap_{slug(BOARD)}_{slug(RULE)}")

    ranked = one.sort_values("success_rate")
    print(f"{BOARD} {RULE}: {len(one)} start squares, {int(one['walks'].sum())} walks")
    for label, row in [("lowest", ranked.iloc[0]), ("highest", ranked.iloc[-1])]:
        print(f"  {label:<7} {row['start']:>4} ({row['start_class']}): "
              f"{rate_text(row['success_rate'], row['success_lo'], row['success_hi'])}")

# %% [markdown]
# ## 5. Corner, edge and centre
#
# `classes` pools the start squares of each class (rows with `group_by ==
# "class"`; there are also rows grouped by the squares' knight degree). Its
# rate is the pooled rate of the class (sum of successes over sum of walks;
# in a sequential run whose squares ran unequal walks, the equal-weight mean
# of the squares' rates, section 6) and `success_lo` / `success_hi` its
# interval. The classes: `corner` (the 4 corners), `edge` (the rest of the
# border), `centre` (the central 2×2 on even boards, the centre square on odd
# ones) and `interior` (everything else). `comparisons` holds the pairwise
# differences — between the classes of one rule (`compare == "groups"`) and
# between the rules on one class (`compare == "rules"`) — with both sides'
# counts, Newcombe intervals, two-sided p-values, and `p_holm`, the p-value
# adjusted by Holm's method within the row's `family` (by default the
# comparisons answering one question: one rule's classes on one board, or
# one class's rules). By convention p = 1 when both sides are all failures or all
# successes. `claims` checks published claims against the measurement.

# %%
if not SIEVE:  # a sieve run has no squares table: section 2b drew its figures
    # the class levels come from the file's dictionary, in their fixed order
    CLASS_ORDER = (list(squares["start_class"].cat.categories)
                   if isinstance(squares["start_class"].dtype, pd.CategoricalDtype)
                   else ["corner", "edge", "centre", "interior"])
    by_class = classes[(classes["board"] == BOARD) & (classes["group_by"] == "class")].copy()

    # one panel per rule, each with its own y range, so that the intervals show
    fig, axes = plt.subplots(1, len(shown), figsize=(4 * len(shown), 3.5), squeeze=False)
    for ax, rule in zip(axes[0], shown):
        d = by_class[by_class["rule_spec"] == rule].set_index("group").reindex(CLASS_ORDER).dropna(how="all")
        x = [CLASS_ORDER.index(g) for g in d.index]
        rate = d["success_rate"].to_numpy(dtype=float)
        yerr = np.vstack([rate - d["success_lo"].to_numpy(dtype=float),
                          d["success_hi"].to_numpy(dtype=float) - rate])
        ax.errorbar(x, rate, yerr=yerr, fmt="o", capsize=4)
        ax.set_xticks(range(len(CLASS_ORDER)), CLASS_ORDER)
        ax.set_xlim(-0.5, len(CLASS_ORDER) - 0.5)
        ax.set_title(rule)
    axes[0][0].set_ylabel("success rate")
    fig.suptitle(f"Success by start class, {BOARD} ({CONFIDENCE:.0%} {METHOD} intervals)")
    fig.tight_layout()
    save(fig, f"classes_{slug(BOARD)}")

    print(f"{BOARD}, success by start class:")
    for _, row in by_rule(by_class, "group").iterrows():  # categories: rules as listed, classes in order
        print(f"  {row['rule_spec']:<18} {row['group']:<9} {int(row['squares']):>3} squares "
              f"{int(row['walks']):>7} walks  {rate_text(row['success_rate'], row['success_lo'], row['success_hi'], 2)}")

    here = comparisons[comparisons["board"] == BOARD]
    # p_holm is adjusted within the row's family (experiment key
    # comparison_family), not over every comparison of the run
    families = comparisons.loc[comparisons["p_value"].notna(), "family"]
    print(f"\n{BOARD}, differences between classes (rate_a - rate_b; p_holm: Holm within each of the "
          f"{families.nunique()} families of comparisons, e.g. {families.iloc[0] if len(families) else 'none'!r}, "
          f"{families.value_counts().max() if len(families) else 0} comparisons at most):")
    for _, row in here[here["compare"] == "groups"].iterrows():
        print(f"  {row['rule_a']:<18} {row['group_a']:>8} - {row['group_b']:<8} "
              f"{row['diff']:+.3f} [{row['diff_lo']:+.3f}, {row['diff_hi']:+.3f}]  "
              f"p = {row['p_value']:.2g}, Holm {row['p_holm']:.2g}")
    print(f"\n{BOARD}, differences between rules on each class:")
    for _, row in here[here["compare"] == "rules"].iterrows():
        print(f"  {row['group_a']:<8} {row['rule_a']:>18} - {row['rule_b']:<18} "
              f"{row['diff']:+.3f} [{row['diff_lo']:+.3f}, {row['diff_hi']:+.3f}]  "
              f"p = {row['p_value']:.2g}, Holm {row['p_holm']:.2g}")
    # the counts behind each comparison are in the row: the rates follow from them
    assert np.allclose(comparisons["rate_a"], comparisons["successes_a"] / comparisons["walks_a"], equal_nan=True)

    print("\nclaims:")
    for _, row in claims.iterrows():
        print(f"  {row['id']} ({row['source']}): {row['rule_spec']} {row['board']} {row['target']} "
              f"claimed [{row['claimed_lo']:.3f}, {row['claimed_hi']:.3f}], measured "
              f"{rate_text(row['measured'], row['lo'], row['hi'])} ({row['decided_by']}) -> {row['verdict']}")

# %% [markdown]
# ## 6. Success against board size
#
# For the size sweep we pool all start squares of a board — the `boards`
# table does exactly that. Where every square ran the same number of walks
# (a fixed run) the board's success rate is the sum of successes over the
# sum of walks, which is also the plain mean of the squares' rates. In a
# sequential run (`walks: {until: decided}`) squares stop on their own and
# run unequal walks; there the tables give the **equal-weight mean** of the
# squares' rates (the rate from a uniformly random start square: a square
# that ran longer must not count more) with an interval at that mean's
# effective sample size (docs/design.md). As a check, the pooling is redone
# here with the package's `kw.pool`, which pools by any grouping as the
# tables do, by the tables' own interval method and level (read from the
# files above: the Wilson score interval or the Clopper-Pearson exact
# interval, `kw.interval`, computed as the Go code does), and names its
# columns as the tables do (`success_rate`, `success_lo`, `success_hi`);
# pooled by class it must reproduce the `classes` table, pooled by board
# the `boards` table. Your own groupings get the same rates and intervals
# the same way.

# %%
if not SIEVE:  # a sieve run has no squares table: section 2b drew its figures
    # kw.pool reads the method and level from the frame's metadata (attrs):
    # they must be those found in the files above; a deterministic rule's
    # groups get a rate and no interval, as in the tables
    assert kw.method_of(squares) == (METHOD, CONFIDENCE)
    pooled = kw.pool(squares, ["rule_spec", "board", "rows", "cols"])
    pooled = by_rule(pooled, "board").reset_index(drop=True)  # categories: rules as listed, boards by size
    assert list(pooled.drop_duplicates("board").sort_values("board")["board"].astype(str)) == \
        [b for b in squares["board"].cat.categories if b in set(pooled["board"].astype(str))]
    unequal = squares.groupby(["board", "rule_spec"], observed=True)["walks"].nunique().gt(1).sum()
    print(f"(board, rule) pairs whose squares ran unequal walks: {unequal}"
          + (" (a sequential run: equal-weight means)" if unequal else ""))


    def floats(series):
        """A nullable column as a float array, null as NaN."""
        return series.to_numpy(dtype=float, na_value=np.nan)


    def largest_difference(merged, suffix):
        """The largest |pooled - table| over the rate and its interval (nulls
        must agree)."""
        worst = 0.0
        for col in ("success_rate", "success_lo", "success_hi"):
            a, b = floats(merged[col + suffix]), floats(merged[col])
            assert (np.isnan(a) == np.isnan(b)).all(), f"{col}: null in one and not the other"
            if (~np.isnan(a)).any():
                worst = max(worst, float(np.nanmax(np.abs(a - b))))
        return worst


    # the check against the boards table: the same counts, rates and intervals
    check = pooled.copy()
    check["pooled_walks"] = check["walks"]
    bt = boards_table.merge(check[["board", "rule_spec", "pooled_walks", "success_rate", "success_lo", "success_hi"]],
                            on=["board", "rule_spec"], validate="one_to_one", suffixes=("", "_pooled"))
    assert len(bt) == len(boards_table) and (bt["walks"] == bt["pooled_walks"]).all()
    worst = largest_difference(bt, "_pooled")
    print(f"{METHOD} rates and intervals recomputed for {len(bt)} boards: largest difference from the boards table {worst:.1e}")
    assert worst < 1e-12, "the package's pooled rates disagree with the boards table"

    # the check against the classes table: pool squares by class, compare
    check = kw.pool(squares, ["board", "rule_spec", "start_class"])
    ref = classes[classes["group_by"] == "class"].copy()
    ref["start_class"] = ref["group"].astype(str)
    check["start_class"] = check["start_class"].astype(str)
    check = ref.merge(check, on=["board", "rule_spec", "start_class"], suffixes=("", "_pooled"), validate="one_to_one")
    assert len(check) == len(ref)
    worst = largest_difference(check, "_pooled")
    print(f"{METHOD} rates and intervals recomputed for {len(check)} classes: "
          f"largest difference from the classes table {worst:.1e}")
    assert worst < 1e-12, "the package's pooled rates disagree with the classes table"

    # square boards by n; with other boards in the run, every board by its
    # number of squares instead (labelled), so none is silently left out
    all_square = bool((pooled["rows"] == pooled["cols"]).all())
    fig, ax = plt.subplots(figsize=(6, 4))
    for rule in shown:
        d = pooled[pooled["rule_spec"] == rule]
        x = floats(d["rows"]) if all_square else floats(d["rows"] * d["cols"])
        rate = floats(d["success_rate"])
        ax.errorbar(x, rate, yerr=np.vstack([rate - floats(d["success_lo"]), floats(d["success_hi"]) - rate]),
                    fmt="o-", capsize=3, label=rule)
        if not all_square:
            for xi, ri, b in zip(x, rate, d["board"]):
                ax.annotate(str(b), (xi, ri), textcoords="offset points", xytext=(3, 3), fontsize=6)
    ax.set_xlabel("board size n (n×n)" if all_square else "squares on the board (rows × cols)")
    ax.set_ylabel("success rate, all start squares")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("Success against board size")
    ax.legend()
    save(fig, "size-curve")

    print("success by board, all start squares pooled:")
    for _, row in pooled.iterrows():
        print(f"  {row['rule_spec']:<18} {row['board']:>6} {int(row['walks']):>7} walks "
              f"{rate_text(row['success_rate'], row['success_lo'], row['success_hi'], 2)}")

# %% [markdown]
# ## 7. Path lengths of the random walk, by start class
#
# `lengths` is a histogram: one row per (board, rule, start square, path
# length) with the number of walks of that length (lengths that never
# occurred have no row). A path length counts the squares visited, start
# included, so a full tour of an 8x8 board has length 64. `lengths` does not
# carry the start class, so we join it with `squares` on the seven key
# columns they share, then sum the counts over each class's squares and
# divide by the class's walks.

# %%
if not SIEVE:  # a sieve run has no squares table: section 2b drew its figures
    KEY_COLUMNS = ["board", "rows", "cols", "rule_spec", "start", "start_row", "start_col"]
    LENGTH_RULE = "random" if "random" in rules else RULE

    joined = lengths.merge(squares[KEY_COLUMNS + ["start_class"]], on=KEY_COLUMNS,
                           how="inner", validate="many_to_one")
    assert len(joined) == len(lengths), "every lengths row has its square"
    one = joined[(joined["board"] == BOARD) & (joined["rule_spec"] == LENGTH_RULE)]
    dist = one.groupby(["start_class", "length"], as_index=False)[["count"]].sum()
    cells = rows * cols

    fig, ax = plt.subplots(figsize=(7, 4))
    print(f"{BOARD}, {LENGTH_RULE}: path length by start class")
    for start_class in CLASS_ORDER:
        d = dist[dist["start_class"] == start_class]
        if d.empty:
            continue
        counts = np.zeros(cells + 1)
        counts[d["length"].to_numpy()] = d["count"].to_numpy(dtype=float)
        total = counts.sum()
        share = counts / total
        ax.step(np.arange(1, cells + 1), share[1:], where="mid", label=start_class)
        mean = (np.arange(cells + 1) * counts).sum() / total
        median = int(np.searchsorted(np.cumsum(counts), total / 2))
        print(f"  {start_class:<9} {int(total):>7} walks  mean {mean:6.2f}  "
              f"median {median:>3}  full tours {counts[cells] / total:.2%}")
    ax.set_xlabel("path length (squares visited, start included)")
    ax.set_ylabel("share of walks")
    ax.set_xlim(1, cells)
    ax.set_title(f"Path-length distribution, {BOARD}, {LENGTH_RULE}")
    ax.legend()
    save(fig, f"length-distribution_{slug(BOARD)}_{slug(LENGTH_RULE)}")

    means = classes[(classes["board"] == BOARD) & (classes["rule_spec"] == LENGTH_RULE)
                    & (classes["group_by"] == "class")]
    print("  the classes table's mean lengths: "
          + ", ".join(f"{g} {m:.2f}" for g, m in zip(means["group"], means["length_mean"])))

# %% [markdown]
# ## 8. Where failed walks end
#
# A walk fails when it is not a tour: it reached a dead end, it was stopped
# by the rule's `max_steps` with moves left (`squares.stopped`), or — for a
# backtracking search — it gave up at its node budget
# (`squares.budget_exceeded`). `deadends` counts, for each start square, the
# squares where walks got stuck (stopped walks are not in it; a search that
# gave up is counted at the end of its deepest path). Summed over start
# squares, it shows which squares trap walks. The `boards` table has the
# outcome counts per board; the `walks` table has each walk's `outcome`.

# %%
if not SIEVE:  # a sieve run has no squares table: section 2b drew its figures
    ends = deadends[(deadends["board"] == BOARD) & (deadends["rule_spec"] == RULE)]
    traps = ends.groupby("end", as_index=False)[["count"]].sum().sort_values("count", ascending=False)
    at_dead_end = int(traps["count"].sum())
    sel = squares[(squares["board"] == BOARD) & (squares["rule_spec"] == RULE)]
    stopped = int(sel["stopped"].sum())
    failed = int((sel["walks"] - sel["successes"]).sum())  # int64: never wraps
    assert failed == at_dead_end + stopped, "failed walks = dead ends (incl. over budget) + stopped"
    b = boards_table[(boards_table["board"] == BOARD) & (boards_table["rule_spec"] == RULE)].iloc[0]
    assert (b["dead_ends"] + b["budget_exceeded"], b["stopped"]) == (at_dead_end, stopped)
    print(f"{BOARD}, {RULE}: {failed} failed walks: {int(b['dead_ends'])} at a dead end, "
          f"{stopped} stopped by max_steps, {int(b['budget_exceeded'])} over the node budget")
    for _, row in traps.head(5).iterrows():
        print(f"  {row['end']:>4}: {int(row['count'])} ({int(row['count']) / max(at_dead_end, 1):.1%} of the dead ends)")

# %% [markdown]
# ## 9. The `walks` table and reproducible random streams
#
# When a run writes the optional `walks` table, it has one row per walk. Its
# rows are in the experiment's plan order — board, rule, start square, then
# walk index — whatever the number of workers, so the file is the same for
# any `--workers`.
# The `walk` column is the walk's index `w` (0, 1, 2, …) within its (board,
# rule, start square), and that index is all you need to reproduce the walk:
# every random number a walk draws comes from its own stream, derived only
# from (experiment seed, board, rule name, start square, `w`). It does not
# depend on the number of workers, on the order in which walks ran, or on
# how a run was split into shards; and walk `w` is the same walk in a run
# with more walks per square under the same seed and rule settings.
#
# The derivation is a public contract, documented and implemented in
# `sim/seed.go` (the generator in `sim/pcg.go`), using 64-bit integer
# operations only:
#
# - `mix64(z)`: the SplitMix64 finaliser;
# - key `k = mix64(seed)`, then `k = mix64(k ^ v)` for v in (rows, cols,
#   FNV-1a-64 of the rule name, start index `row*cols + col`);
# - walk `w`'s stream: Go's `math/rand/v2` PCG (128-bit LCG, DXSM output)
#   seeded with `(mix64(k ^ w), mix64(k + w + 0x9e3779b97f4a7c15))`;
# - a choice among `m` allowed squares (in ascending square index) is
#   Lemire's multiply-shift with rejection on the low 32 bits of a draw; no
#   draw when `m == 1`.
#
# The knightwalk package implements the contract in pure Python
# (python/src/knightwalk/_replay.py: `mix64`, `stream_seeds`, the PCG and
# every rule); below, `kw.stream_seeds` gives walk 0's seed words, and
# `kw.replay` replays a few walks of every rule of the run, each with its
# row's own parameters (`max_steps`, null: no limit; move order, node
# budget, tie-break), compared with the table.

# %%
if not SIEVE:  # a sieve run has no squares table: section 2b drew its figures
    seed = int(file_metadata(table_path("squares")).get("seed"))  # metadata keys: .get, not [ ]
    corner = kw.square_name(rows, cols, 0, 0)  # a1, or r0c0 on boards wider than 26 columns
    print(f"seed {seed}; walk 0 of {BOARD} random from {corner} has the PCG seed words "
          "%#018x %#018x" % kw.stream_seeds(seed, rows, cols, "random", 0, 0, 0))


    if walks_table is None:
        print("no walks table here: nothing to replay")
    else:
        # every rule of the run, replayed by the package (kw.replay) with the
        # row's own parameters, end squares named as the table names them
        replayed = 0
        for (spec,), group in walks_table[walks_table["board"] == BOARD].groupby(["rule_spec"], observed=True):
            rule_name = str(group["rule"].iloc[0])
            for _, row in group.sort_values(["start", "walk"]).head(4).iterrows():
                w = kw.replay(seed, rows, cols, rule_name, int(row["start_row"]), int(row["start_col"]), int(row["walk"]),
                              max_steps=0 if pd.isna(row["max_steps"]) else int(row["max_steps"]),
                              order=None if pd.isna(row["move_order"]) else str(row["move_order"]),
                              node_budget=None if pd.isna(row["node_budget"]) else int(row["node_budget"]),
                              tie_break=None if pd.isna(row["tie_break"]) else str(row["tie_break"]))
                names = kw.square_names(rows, cols, [w.path[0], w.end])
                assert (names[0], names[1], w.length, w.outcome) == (row["start"], row["end"], row["length"], row["outcome"]), \
                    f"{rule_name} {row['start']} walk {row['walk']}: replayed {names} {w.length} {w.outcome}"
                replayed += 1
        print(f"kw.replay: {replayed} walks of every rule on {BOARD} match the walks table (start, end, length, outcome)")

        counts = walks_table.groupby(["board", "rule_spec", "start"], observed=True, as_index=False)[["success"]].sum()
        counts = counts.merge(squares, on=["board", "rule_spec", "start"])
        agree = (counts["success"] == counts["successes"]).all()
        print(f"walks table vs squares: successes per start square "
              f"{'agree' if agree else 'DISAGREE'} for {len(counts)} squares")
        # groupby, not pd.crosstab: crosstab drops the (board, rule) rows of
        # categories whose outcomes miss a level
        outcomes = (walks_table.groupby(["board", "rule_spec"], observed=True)["outcome"]
                    .value_counts().unstack(fill_value=0))
        outcomes = outcomes[[c for c in walks_table["outcome"].cat.categories if c in outcomes.columns]]
        print("\noutcomes per board and rule (walks table):")
        print(outcomes.to_string())

# %% [markdown]
# ## Summary

# %%
if not SIEVE:  # a sieve run has no squares table: section 2b drew its figures
    print(f"results {RESULTS}: {int(squares['walks'].sum())} walks, "
          f"{len(boards)} boards, {len(rules)} rules")
    print(f"figures saved in {FIGURES}:")
    for path in sorted(FIGURES.glob("*.png")):
        print(f"  {path.name}")
