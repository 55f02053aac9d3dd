"""DuckDB views whose category columns are ENUMs in the stored order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import json

import pyarrow.parquet as pq

from ._tables import (DOMAINS, MANIFEST, _check_file, _check_provenance, _read, _require, _result_dir, _runs_of,
                      _table_names, _union, levels_of)

# the connection's registry of what kw.duckdb put on it, so that a second
# call adds its runs to the first's views instead of failing on a type
# that exists
_REGISTRY = "knightwalk_sources"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _type_name(table: str, column: str) -> str:
    """A column of the DOMAINS shares one ENUM named after its domain
    (board, rule, run, ...); any other is its table's own: claims_kind,
    counts_kind, walks_outcome."""
    return DOMAINS[column] if column in DOMAINS else f"{table}_{column}"


def duckdb(path: str | Path | Iterable[str | Path] | Mapping[str, str | Path], *,
           extra: Mapping[str, str | Path] | None = None, connection: Any = None) -> Any:
    """A DuckDB connection with one view per table of result directory ``path``.

    Each category column is an ``ENUM`` whose values are the stored levels in
    their stored order, so ``ORDER BY board`` follows board size and
    ``WHERE board < '8x8'::board`` compares by it (DuckDB compares an ENUM
    with a plain string literal as text, so cast the literal to the type).
    Columns that name one thing in every table share one ENUM type named
    after it (``board``, ``rule`` for rule, rule_a and rule_b, ``run``,
    ``experiment``, ``tie_break``, ``start_class``, ``group``), so views
    join on them directly; any other category is its own table's
    (``claims_kind``, ``counts_kind``, ``claims_verdict``).

    Several runs: a list of result directories (or a dict from a name to
    one), or further calls with ``connection=`` the same connection, stack
    the runs in each view with a first column ``run`` (an ENUM of the runs
    in the order added); types are rebuilt with the union of all levels.
    ``extra`` adds views over other knightwalk Parquet files (``{"exact":
    "exact.parquet"}``), sharing those types. Every file is checked as
    ``load`` checks it. Two columns are reserved words in SQL and need
    quotes: ``"end"`` (deadends, walks) and ``"group"`` (classes).
    """
    ddb = _require("duckdb")
    con = connection if connection is not None else ddb.connect()
    runs, single = _runs_of(path)
    multi = runs is not None
    if runs is None:
        runs = [(single.name, single)]
    con.execute(f"CREATE TEMP TABLE IF NOT EXISTS {_REGISTRY} (kind VARCHAR, label VARCHAR, name VARCHAR, path VARCHAR, objects VARCHAR)")
    old = con.execute(f"SELECT kind, label, name, path, objects FROM {_REGISTRY} ORDER BY rowid").fetchall()
    sources = [(k, lb, n, p) for k, lb, n, p, _ in old if k != "objects"]
    objects = [json.loads(o) for k, _, _, _, o in old if k == "objects"]
    if sources:
        multi = True
    taken = {lb for k, lb, _, _ in sources if k == "run"}
    for label, d in runs:
        d = _result_dir(d)
        if label in taken:
            label = str(d)
        if label in taken:
            raise ValueError(f"{d}: this run is already on the connection")
        taken.add(label)
        manifest = json.loads((d / MANIFEST).read_text())
        for n in _table_names(d, manifest):
            f = d / f"{n}.parquet"
            _read(f)  # raises, naming a missing file
            _check_provenance(f, n, manifest)
            sources.append(("run", label, n, str(f)))
    for n, p in (extra or {}).items():
        _check_file(Path(p))
        sources = [s for s in sources if not (s[0] == "extra" and s[2] == n)] + [("extra", "", n, str(Path(p)))]

    # drop what an earlier call made (views first: they use the types)
    for obj in objects:
        for v in obj.get("views", []):
            con.execute(f"DROP VIEW IF EXISTS {_quote(v)}")
        for ty in obj.get("types", []):
            con.execute(f"DROP TYPE IF EXISTS {_quote(ty)}")

    levels: dict[str, list[list[str]]] = {}
    per_file: dict[str, dict[str, list[str]]] = {}
    labels: list[str] = []
    for kind, label, name, f in sources:
        lv = levels_of(pq.read_schema(f))
        per_file[f] = lv
        kind_of_table = (pq.read_metadata(f).metadata or {}).get(b"table", name.encode()).decode()
        for col, values in lv.items():
            levels.setdefault(_type_name(kind_of_table, col), []).append(values)
        if kind == "run" and label not in labels:
            labels.append(label)
    if multi:
        levels["run"] = [labels]
    types = []
    for ty, lists in levels.items():
        values = ", ".join(_literal(v) for v in _union(ty, lists))
        con.execute(f"CREATE TYPE {_quote(ty)} AS ENUM ({values})")
        types.append(ty)
    views: dict[str, list[tuple[str, str, str]]] = {}
    for kind, label, name, f in sources:
        views.setdefault(name, []).append((kind, label, f))
    for name, files in views.items():
        selects = []
        for kind, label, f in files:
            kind_of_table = (pq.read_metadata(f).metadata or {}).get(b"table", name.encode()).decode()
            casts = ", ".join(f"CAST({_quote(c)} AS {_quote(_type_name(kind_of_table, c))}) AS {_quote(c)}"
                              for c in per_file[f])
            run = f"CAST({_literal(label)} AS run) AS run, " if multi and kind == "run" else ""
            star = f"* REPLACE ({casts})" if casts else "*"
            selects.append(f"SELECT {run}{star} FROM read_parquet({_literal(f)})")
        con.execute(f"CREATE VIEW {_quote(name)} AS " + " UNION ALL BY NAME ".join(selects))
    con.execute(f"DELETE FROM {_REGISTRY}")
    for kind, label, name, f in sources:
        con.execute(f"INSERT INTO {_REGISTRY} VALUES (?, ?, ?, ?, NULL)", [kind, label, name, f])
    con.execute(f"INSERT INTO {_REGISTRY} VALUES ('objects', '', '', '', ?)",
                [json.dumps({"views": list(views), "types": types})])
    return con
