"""Reading result directories: tables with their stored category levels."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

Backend = Literal["pandas", "polars"]
BACKENDS = ("pandas", "polars")

MANIFEST = "manifest.json"
LEVELS_KEY = b"levels"


class NotAResultError(ValueError):
    """A path that is not a result directory written by `experiment run`."""


def _result_dir(path: str | Path) -> Path:
    d = Path(path)
    if not d.is_dir():
        raise NotAResultError(
            f"{d}: not a directory; expected a result directory written by "
            "`experiment run` (manifest.json and *.parquet tables)")
    if not (d / MANIFEST).is_file():
        raise NotAResultError(
            f"{d}: no {MANIFEST}; expected a result directory written by "
            "`experiment run` (manifest.json and *.parquet tables)")
    return d


def metadata(path: str | Path) -> dict[str, Any]:
    """The manifest of result directory ``path`` as Python objects.

    Returns manifest.json (what ran, the resolved ``config``, ``build`` and
    ``host`` provenance, timings, ``warnings``) with one more key,
    ``table_metadata``: each table file's Parquet key-value metadata (``seed``,
    ``config_hash``, ``confidence``, ``interval``, ...; ``config`` and
    ``levels`` decoded from JSON).
    """
    d = _result_dir(path)
    try:
        manifest = json.loads((d / MANIFEST).read_text())
    except json.JSONDecodeError as err:
        raise NotAResultError(f"{d / MANIFEST}: not JSON ({err})") from err
    manifest["table_metadata"] = {name: file_metadata(d / name) for name in manifest.get("tables", [])
                                  if (d / name).is_file()}
    return manifest


def file_metadata(path: str | Path) -> dict[str, Any]:
    """A Parquet table's key-value metadata (``config`` and ``levels`` decoded)."""
    raw = pq.read_metadata(path).metadata or {}
    out: dict[str, Any] = {k.decode(): v.decode() for k, v in raw.items() if k != b"ARROW:schema"}
    for key in ("config", "levels"):
        if out.get(key):
            out[key] = json.loads(out[key])
    return out


SCHEMA_VERSION = "3"


def _check_provenance(path: Path, name: str, manifest: Mapping[str, Any]) -> None:
    """Refuse a table that is not this run's: its key-value metadata must
    name the table, the schema version this package reads, and the
    manifest's experiment and config hash (as the Go reader checks)."""
    md = file_metadata(path)
    problems = []
    if md.get("table") != name:
        problems.append(f"it is a {md.get('table') or 'unnamed'} table, not {name}")
    if md.get("schema_version", "1") != SCHEMA_VERSION:
        problems.append(f"schema version {md.get('schema_version', '1')}, but this package reads {SCHEMA_VERSION} "
                        "(run the experiment again with this tool)")
    if md.get("experiment") != manifest.get("experiment") or md.get("config_hash") != manifest.get("config_hash"):
        problems.append(f"written by a run of experiment {md.get('experiment')!r} (config {str(md.get('config_hash'))[:12]}), "
                        f"but {MANIFEST} is of {manifest.get('experiment')!r} (config {str(manifest.get('config_hash'))[:12]}): "
                        "a table from another run")
    if problems:
        raise NotAResultError(f"{path}: " + "; ".join(problems) + "; it is not loaded")


def _table_names(d: Path, manifest: Mapping[str, Any]) -> list[str]:
    names = [n[: -len(".parquet")] for n in manifest.get("tables", []) if n.endswith(".parquet")]
    if not names:
        raise NotAResultError(f"{d / MANIFEST}: lists no tables; expected a finished run's manifest")
    return names


def levels_of(schema: pa.Schema) -> dict[str, list[str]]:
    """Each categorical column's stored levels, in order (field metadata
    ``levels``); columns without them are left out."""
    out = {}
    for field in schema:
        md = field.metadata or {}
        if LEVELS_KEY in md:
            out[field.name] = json.loads(md[LEVELS_KEY])
    return out


_BOARD = re.compile(r"^(\d+)x(\d+)$")


def _board_key(name: str) -> tuple[int, int, int, str]:
    m = _BOARD.match(name)
    if not m:
        return (1, 0, 0, name)
    r, c = int(m.group(1)), int(m.group(2))
    return (0, r * c, r, name)


# Category columns that name one thing in every table (a board, a rule, a
# run): their levels are united across tables, so tables join on them with
# no cast. Every other category column (kind, verdict, outcome, stop, ...)
# keeps its own table's levels: claims.kind and counts.kind share a name,
# not their levels (docs/tables.md, "Category levels").
DOMAINS = {"run": "run", "experiment": "experiment", "board": "board", "rule": "rule", "rule_a": "rule",
           "rule_b": "rule", "tie_break": "tie_break", "start_class": "start_class", "group": "group",
           "group_a": "group", "group_b": "group"}


def _union(column: str, lists: Iterable[list[str]]) -> list[str]:
    """Several level lists of one column as one: the first list's levels,
    then new ones in the order met; boards (any column of the board
    domain) sorted by size, rows·cols then rows, as the Go writer does;
    runs, experiments and rules in the order met."""
    out: list[str] = []
    seen: set[str] = set()
    for levels in lists:
        for v in levels:
            if v not in seen:
                seen.add(v)
                out.append(v)
    if DOMAINS.get(column) == "board":
        out.sort(key=_board_key)
    return out


def _read(path: Path) -> pa.Table:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: table missing; the manifest lists it")
    return pq.read_table(path)


# Tables the binary writes, and the tables written outside a result
# directory (by experiment exact and experiment count).
TABLES = ("squares", "lengths", "deadends", "classes", "boards", "comparisons", "claims", "walks", "exact", "counts", "designs", "sieve")


def _check_file(path: Path, want: str | None = None) -> dict[str, Any]:
    """Refuse a Parquet file that is not a knightwalk table this package
    reads: its metadata must name a table (``want``, when given) and this
    package's schema version. Returns the file's metadata."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such table file")
    md = file_metadata(path)
    problems = []
    table = md.get("table")
    if table not in TABLES:
        problems.append(f"its metadata names no knightwalk table (table={table!r}; valid: {', '.join(TABLES)})")
    elif want is not None and table != want:
        problems.append(f"it is a {table} table, not {want}")
    if md.get("schema_version", "1") != SCHEMA_VERSION:
        problems.append(f"schema version {md.get('schema_version', '1')}, but this package reads {SCHEMA_VERSION} "
                        "(write it again with this tool)")
    if problems:
        raise NotAResultError(f"{path}: " + "; ".join(problems) + "; it is not loaded")
    return md


def _decode(t: pa.Table) -> pa.Table:
    """Dictionary columns as plain strings (levels are applied afterwards),
    without field or schema metadata, so the tables of several runs stack."""
    cols, fields = [], []
    for i, field in enumerate(t.schema):
        col = t.column(i)
        typ = field.type
        if pa.types.is_dictionary(typ):
            col, typ = pc.cast(col, pa.string()), pa.string()
        cols.append(col)
        fields.append(pa.field(field.name, typ, field.nullable))
    return pa.Table.from_arrays(cols, schema=pa.schema(fields))


def _require(module: str) -> Any:
    """Import an optional backend, or say which extra installs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        raise ModuleNotFoundError(
            f"{module} is not installed: it is an optional dependency of knightwalk; install it with "
            f"pip install './python[{module}]' (or pip install {module})", name=module) from err


def _to_pandas(t: pa.Table, levels: Mapping[str, list[str]], attrs: Mapping[str, Any]) -> Any:
    import pandas as pd

    mapping = {pa.int64(): pd.Int64Dtype(), pa.int32(): pd.Int32Dtype(), pa.float64(): pd.Float64Dtype(),
               pa.bool_(): pd.BooleanDtype(), pa.string(): pd.StringDtype()}
    df = t.to_pandas(types_mapper=mapping.get)
    for name, lv in levels.items():
        if name in df.columns:
            df[name] = pd.Categorical(df[name].astype(object).where(df[name].notna(), None),
                                      categories=lv, ordered=True)
    df.attrs.update(attrs)
    return df


def _to_polars(t: pa.Table, levels: Mapping[str, list[str]], attrs: Mapping[str, Any]) -> Any:
    pl = _require("polars")
    df = pl.from_arrow(t)
    return df.with_columns([pl.col(n).cast(pl.Enum(lv)) for n, lv in levels.items() if n in df.columns])


def frame_levels(like: Any) -> dict[str, list[str]]:
    """The category levels of a data frame (pandas categoricals, polars
    Enums) or of every frame in a dict of them, by column, for the columns
    that name one thing in every table (board, rule, run, ...: DOMAINS)."""
    frames = list(like.values()) if isinstance(like, Mapping) else [like]
    out: dict[str, list[list[str]]] = {}
    for df in frames:
        if type(df).__module__.startswith("polars"):
            import polars as pl

            for name, dtype in df.schema.items():
                if isinstance(dtype, pl.Enum) and name in DOMAINS:
                    out.setdefault(DOMAINS[name], []).append(list(dtype.categories))
        elif hasattr(df, "dtypes"):
            for name, dtype in df.dtypes.items():
                if getattr(dtype, "name", "") == "category" and str(name) in DOMAINS:
                    out.setdefault(DOMAINS[str(name)], []).append([str(c) for c in dtype.categories])
        else:
            raise TypeError(f"like: {type(df).__name__} is not a pandas or polars data frame, a dict of them or a result directory")
    return {name: _union(name, lists) for name, lists in out.items()}


class _Part:
    """One table file of one run (or an extra file), read and checked."""

    def __init__(self, table: pa.Table, kind: str, run: str | None, md: Mapping[str, Any]):
        self.levels = levels_of(table.schema)
        self.table = _decode(table)
        self.kind = kind  # the table it is (squares, exact, ...): its own levels are that table's
        self.run = run
        self.md = dict(md)


def _assemble(groups: Mapping[str, list[_Part]], backend: Backend, base: Mapping[str, list[str]] | None = None,
              runs: list[str] | None = None) -> dict[str, Any]:
    """Stack each name's parts into one frame of ``backend``. A category
    column of a DOMAINS column gets the union of every table's and run's
    levels (after ``base``); any other keeps its own table's levels, united
    over runs; ``run`` (when ``runs`` is given) is a category of the runs
    in the order given."""
    if backend not in BACKENDS:
        raise ValueError(f"backend {backend!r}: valid backends are {', '.join(BACKENDS)}")
    domain: dict[str, list[list[str]]] = {d: [list(lv)] for d, lv in (base or {}).items()}
    if runs is not None:
        domain["run"] = [list(runs)]
    own: dict[tuple[str, str], list[list[str]]] = {}
    for parts in groups.values():
        for part in parts:
            for col, levels in part.levels.items():
                if col in DOMAINS:
                    domain.setdefault(DOMAINS[col], []).append(levels)
                else:
                    own.setdefault((part.kind, col), []).append(levels)
    united = {d: _union(d, lists) for d, lists in domain.items()}
    conv = _to_pandas if backend == "pandas" else _to_polars
    out = {}
    for name, parts in groups.items():
        tables = []
        for part in parts:
            t = part.table
            if runs is not None and part.run is not None:
                t = t.add_column(0, pa.field("run", pa.string(), False), pa.array([part.run] * t.num_rows, pa.string()))
            tables.append(t)
        t = tables[0] if len(tables) == 1 else pa.concat_tables(tables, promote_options="default")
        levels: dict[str, list[str]] = {}
        for part in parts:
            for col in part.levels:
                levels[col] = united[DOMAINS[col]] if col in DOMAINS else _union(col, own[(part.kind, col)])
        if "run" in t.column_names and "run" in united:
            levels["run"] = united["run"]
        if runs is None:
            attrs = {"metadata": parts[0].md}
        else:
            attrs = {"runs": {p.run: p.md for p in parts if p.run is not None}}
        out[name] = conv(t, levels, attrs)
    return out


def convert(tables: Mapping[str, pa.Table], backend: Backend,
            base: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """Arrow tables (read from knightwalk files) as data frames of
    ``backend``: category columns with their stored levels, and the columns
    that name one thing in every table (board, rule, ...) the union of
    those levels, after those of ``base``, so the frames join on them."""
    groups = {}
    for name, t in tables.items():
        raw = {k.decode(): v.decode() for k, v in (t.schema.metadata or {}).items() if k != b"ARROW:schema"}
        groups[name] = [_Part(t, raw.get("table", name), None, raw)]
    return _assemble(groups, backend, base)


def _runs_of(path: Any) -> tuple[list[tuple[str, Path]] | None, Path | None]:
    """(label, directory) of each run of a list or dict of result
    directories, or (None, dir) for one directory."""
    if isinstance(path, (str, Path)):
        return None, Path(path)
    if isinstance(path, Mapping):
        return [(str(k), Path(v)) for k, v in path.items()], None
    dirs = [Path(p) for p in path]
    if not dirs:
        raise ValueError("no result directories given")
    labels = [d.name for d in dirs]
    if len(set(labels)) < len(labels):  # two runs of one name: their paths tell them apart
        labels = [str(d) for d in dirs]
    if len(set(labels)) < len(labels):
        raise ValueError(f"result directories given twice: {', '.join(labels)}")
    return list(zip(labels, dirs)), None


def _read_run(d: Path, tables: Iterable[str] | None) -> list[tuple[str, pa.Table, dict[str, Any]]]:
    d = _result_dir(d)
    try:
        manifest = json.loads((d / MANIFEST).read_text())
    except json.JSONDecodeError as err:
        raise NotAResultError(f"{d / MANIFEST}: not JSON ({err}); expected the manifest of a finished run") from err
    names = _table_names(d, manifest)
    if tables is not None:
        wanted = list(tables)
        unknown = [n for n in wanted if n not in names]
        if unknown:
            raise KeyError(f"{d}: no table {', '.join(unknown)}; this run has {', '.join(names)}")
        names = wanted
    out = []
    for n in names:
        t = _read(d / f"{n}.parquet")
        _check_provenance(d / f"{n}.parquet", n, manifest)
        out.append((n, t, file_metadata(d / f"{n}.parquet")))
    return out


def load(path: str | Path | Iterable[str | Path] | Mapping[str, str | Path], backend: Backend = "pandas", *,
         tables: Iterable[str] | None = None, extra: Mapping[str, str | Path] | None = None) -> dict[str, Any]:
    """Load a result directory's tables: ``{"squares": df, "lengths": df, ...}``.

    Category columns (board, rule, start_class, group, verdict, ...) come
    with their full stored level list in its stored order, also for empty
    tables: pandas ordered ``Categorical`` (so ``df[df.board < "8x8"]`` and
    ``sort_values("board")`` follow board size), polars ``Enum``. Other
    columns are nullable: pandas ``Int64``/``Int32``/``Float64``/
    ``boolean``/``string`` with ``pd.NA`` for nulls; polars as stored.
    pandas frames carry the file's key-value metadata in ``df.attrs["metadata"]``
    (seed, config, interval, confidence, ...).

    Several runs: ``path`` a list of result directories (or a dict from a
    name to one) stacks them into one frame per table with a first column
    ``run`` (the directory's name, or the dict's key; a category in the
    order given). Every category column has the union of the runs' levels:
    boards by size, rules, experiments and runs in the order met; pandas
    ``df.attrs["runs"]`` maps each run to its file's metadata. A table some
    runs lack (walks) holds the others' rows.

    Levels belong to a table's column, not to a column name: only the
    columns that name one thing in every table (run, experiment, board,
    rule, rule_a, rule_b, tie_break, start_class, group, group_a, group_b)
    share one level list across tables, so they join without a cast.

    ``tables`` picks tables by name (default: every table the manifest
    lists). ``extra`` adds other knightwalk Parquet files by name, e.g.
    ``{"exact": "exact.parquet"}`` from ``experiment exact --format
    parquet``, sharing those levels (no run column), so
    ``squares.merge(exact, on=["board", "rule_spec", "start"])`` (pandas) or
    ``squares.join(exact, on=[...])`` (polars) needs no cast. Every file is
    checked: its metadata must name its table and this package's schema
    version, and a run's tables must be of its manifest's run.
    """
    runs, single = _runs_of(path)
    groups: dict[str, list[_Part]] = {}
    labels = None
    if runs is None:
        for n, t, md in _read_run(single, tables):
            groups.setdefault(n, []).append(_Part(t, n, None, md))
    else:
        labels = [label for label, _ in runs]
        for label, d in runs:
            for n, t, md in _read_run(d, tables):
                groups.setdefault(n, []).append(_Part(t, n, label, md))
    for n, p in (extra or {}).items():
        md = _check_file(Path(p))
        groups[n] = [_Part(pq.read_table(p), md["table"], None, md)]
    return _assemble(groups, backend, runs=labels)


def read_table(path: str | Path, backend: Backend = "pandas", *, like: Any = None) -> Any:
    """One knightwalk Parquet table (e.g. an exact table from ``experiment
    exact --format parquet``) with its stored levels; refused unless its
    metadata names a table and this package's schema version. ``like`` (a
    loaded frame or dict of frames) gives the levels of the columns that
    name one thing in every table (board, rule, ...), so the table joins
    those frames with no cast (``pl.read_parquet`` gives Categoricals that
    a loaded run's Enums do not join)."""
    md = _check_file(Path(path))
    base = frame_levels(like) if like is not None else None
    return _assemble({"t": [_Part(pq.read_table(path), md["table"], None, md)]}, backend, base)["t"]
