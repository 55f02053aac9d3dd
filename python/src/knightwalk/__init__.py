"""knightwalk: read the knight-walk harness's result tables from Python.

Five lines from results to an analysis::

    import knightwalk as kw
    t = kw.load("results/example")                      # pandas; backend="polars" too
    sq = t["squares"]
    small = sq[sq.board < "8x8"].sort_values("board")   # boards in size order
    kw.pool(small, ["board", "rule"], method="wilson")  # the Go code's intervals

See python/README.md and docs/tables.md.
"""

from ._binary import exact, find_binary, run
from ._duckdb import duckdb
from ._intervals import METHODS, clopper_pearson, interval, pool, wilson
from ._tables import NotAResultError, file_metadata, levels_of, load, metadata, read_table

__all__ = [
    "METHODS", "NotAResultError", "clopper_pearson", "duckdb", "exact", "file_metadata", "find_binary",
    "interval", "levels_of", "load", "metadata", "pool", "read_table", "run", "wilson",
]
__version__ = "0.1.0"
