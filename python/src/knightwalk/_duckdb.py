"""DuckDB views whose category columns are ENUMs in the stored order."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from ._tables import MANIFEST, _read, _result_dir, _table_names, _union, levels_of


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def duckdb(path: str | Path, *, extra: Mapping[str, str | Path] | None = None,
           connection: Any = None) -> Any:
    """A DuckDB connection with one view per table of result directory ``path``.

    Each category column is an ``ENUM`` whose values are the stored levels in
    their stored order, so ``ORDER BY board`` follows board size and
    ``WHERE board < '8x8'::board`` compares by it (DuckDB compares an ENUM
    with a plain string literal as text, so cast the literal to the type);
    columns of the same name share one ENUM type, named after the column,
    so views join on them directly.
    ``extra`` adds views over other Parquet files (``{"exact":
    "exact.parquet"}``), sharing those types. Two columns are reserved
    words in SQL and need quotes: ``"end"`` (deadends, walks) and
    ``"group"`` (classes).
    """
    import duckdb as ddb

    d = _result_dir(path)
    manifest = json.loads((d / MANIFEST).read_text())
    files = {n: d / f"{n}.parquet" for n in _table_names(d, manifest)}
    files.update({n: Path(p) for n, p in (extra or {}).items()})
    levels = {}
    for name, f in files.items():
        if not f.is_file():
            _read(f)  # raises, naming the file
        levels[name] = levels_of(pq.read_schema(f))
    columns: dict[str, list[list[str]]] = {}
    for lv in levels.values():
        for col, values in lv.items():
            columns.setdefault(col, []).append(values)
    con = connection if connection is not None else ddb.connect()
    for col, lists in columns.items():
        values = ", ".join(_literal(v) for v in _union(col, lists))
        con.execute(f"CREATE TYPE {_quote(col)} AS ENUM ({values})")
    for name, f in files.items():
        casts = ", ".join(f"CAST({_quote(c)} AS {_quote(c)}) AS {_quote(c)}" for c in levels[name])
        select = f"SELECT * REPLACE ({casts})" if casts else "SELECT *"
        con.execute(f"CREATE VIEW {_quote(name)} AS {select} FROM read_parquet({_literal(str(f))})")
    return con
