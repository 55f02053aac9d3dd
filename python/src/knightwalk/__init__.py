"""knightwalk: read the knight-walk harness's result tables from Python.

Five lines from results to an analysis::

    import knightwalk as kw
    t = kw.load("results/example")                      # pandas; backend="polars" too
    sq = t["squares"]
    small = sq[sq.board < "8x8"].sort_values("board")   # boards in size order
    kw.pool(small, ["board", "rule"])                   # the run's own intervals

Several runs as one frame per table, with a ``run`` column::

    t = kw.load({"seed 1": "results/a", "seed 2": "results/b"})

See python/README.md and docs/tables.md.
"""

from ._binary import binary_info, binary_version, count, exact, find_binary, run
from ._duckdb import duckdb
from ._join import join_exact
from ._intervals import CS_METHOD, METHODS, clopper_pearson, confidence_sequence, interval, method_of, pool, wilson
from ._replay import Walk, parse_order, replay, square_name, square_names, stream_seeds
from ._tables import DOMAINS, NotAResultError, file_metadata, levels_of, load, metadata, read_table

__all__ = [
    "CS_METHOD", "DOMAINS", "METHODS", "NotAResultError", "Walk", "binary_info", "binary_version", "clopper_pearson", "confidence_sequence", "count", "duckdb", "exact",
    "file_metadata", "find_binary", "interval", "join_exact", "levels_of", "load", "metadata", "method_of", "parse_order", "pool",
    "read_table", "replay", "run", "square_name", "square_names", "stream_seeds", "wilson",
]
__version__ = "0.1.0"
