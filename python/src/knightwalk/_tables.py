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


def _union(column: str, lists: Iterable[list[str]]) -> list[str]:
    """The levels of several tables' same-named column: the first table's,
    then new ones in order met; boards sorted by size, as the Go writer does."""
    out: list[str] = []
    seen: set[str] = set()
    for levels in lists:
        for v in levels:
            if v not in seen:
                seen.add(v)
                out.append(v)
    if column in ("board",):
        out.sort(key=_board_key)
    return out


def _read(path: Path) -> pa.Table:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: table missing; the manifest lists it")
    return pq.read_table(path)


def _decode(t: pa.Table) -> pa.Table:
    """Dictionary columns as plain strings (levels are applied afterwards)."""
    cols = []
    for i, field in enumerate(t.schema):
        col = t.column(i)
        if pa.types.is_dictionary(field.type):
            col = pc.cast(col, pa.string())
            field = pa.field(field.name, pa.string(), field.nullable, field.metadata)
        cols.append((field, col))
    return pa.Table.from_arrays([c for _, c in cols], schema=pa.schema([f for f, _ in cols], t.schema.metadata))


def _to_pandas(t: pa.Table, levels: Mapping[str, list[str]]) -> Any:
    import pandas as pd

    mapping = {pa.int64(): pd.Int64Dtype(), pa.int32(): pd.Int32Dtype(), pa.float64(): pd.Float64Dtype(),
               pa.bool_(): pd.BooleanDtype(), pa.string(): pd.StringDtype()}
    df = _decode(t).to_pandas(types_mapper=mapping.get)
    for name, lv in levels.items():
        if name in df.columns:
            df[name] = pd.Categorical(df[name].astype(object).where(df[name].notna(), None),
                                      categories=lv, ordered=True)
    return df


def _to_polars(t: pa.Table, levels: Mapping[str, list[str]]) -> Any:
    import polars as pl

    df = pl.from_arrow(_decode(t))
    return df.with_columns([pl.col(n).cast(pl.Enum(lv)) for n, lv in levels.items() if n in df.columns])


def frame_levels(like: Any) -> dict[str, list[str]]:
    """The category levels of a data frame (pandas categoricals, polars
    Enums) or of every frame in a dict of them, by column name."""
    frames = list(like.values()) if isinstance(like, Mapping) else [like]
    out: dict[str, list[list[str]]] = {}
    for df in frames:
        if type(df).__module__.startswith("polars"):
            import polars as pl

            for name, dtype in df.schema.items():
                if isinstance(dtype, pl.Enum):
                    out.setdefault(name, []).append(list(dtype.categories))
        elif hasattr(df, "dtypes"):
            for name, dtype in df.dtypes.items():
                if getattr(dtype, "name", "") == "category":
                    out.setdefault(str(name), []).append([str(c) for c in dtype.categories])
        else:
            raise TypeError(f"like: {type(df).__name__} is not a pandas or polars data frame, a dict of them or a result directory")
    return {name: _union(name, lists) for name, lists in out.items()}


def convert(tables: Mapping[str, pa.Table], backend: Backend,
            base: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """Arrow tables as data frames of ``backend``; a category column has the
    same levels (the union of the stored ones, after those of ``base``) in
    every table that has it, so tables join on it without casts."""
    if backend not in BACKENDS:
        raise ValueError(f"backend {backend!r}: valid backends are {', '.join(BACKENDS)}")
    per_table = {name: levels_of(t.schema) for name, t in tables.items()}
    columns: dict[str, list[list[str]]] = {col: [list(lv)] for col, lv in (base or {}).items()}
    for lv in per_table.values():
        for col, levels in lv.items():
            columns.setdefault(col, []).append(levels)
    unified = {col: _union(col, lists) for col, lists in columns.items()}
    conv = _to_pandas if backend == "pandas" else _to_polars
    return {name: conv(t, {c: unified[c] for c in per_table[name]}) for name, t in tables.items()}


def load(path: str | Path, backend: Backend = "pandas", *, tables: Iterable[str] | None = None,
         extra: Mapping[str, str | Path] | None = None) -> dict[str, Any]:
    """Load a result directory's tables: ``{"squares": df, "lengths": df, ...}``.

    Category columns (board, rule, start_class, group, verdict, ...) come
    with their full stored level list in its stored order, also for empty
    tables: pandas ordered ``Categorical`` (so ``df[df.board < "8x8"]`` and
    ``sort_values("board")`` follow board size), polars ``Enum``. Other
    columns are nullable: pandas ``Int64``/``Int32``/``Float64``/
    ``boolean``/``string`` with ``pd.NA`` for nulls; polars as stored.

    ``tables`` picks tables by name (default: every table the manifest
    lists). ``extra`` adds other Parquet files by name, e.g. ``{"exact":
    "exact.parquet"}`` from ``experiment exact --format parquet``: columns
    of the same name share one level list across all tables returned, so
    ``squares.merge(exact, on=["board", "rule", "start"])`` (pandas) or
    ``squares.join(exact, on=[...])`` (polars) needs no cast.
    """
    d = _result_dir(path)
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
    arrow = {}
    for n in names:
        arrow[n] = _read(d / f"{n}.parquet")
        _check_provenance(d / f"{n}.parquet", n, manifest)
    for n, p in (extra or {}).items():
        arrow[n] = _read(Path(p))
    return convert(arrow, backend)


def read_table(path: str | Path, backend: Backend = "pandas") -> Any:
    """One Parquet table (e.g. an exact table) with its stored levels."""
    return convert({"t": _read(Path(path))}, backend)["t"]
