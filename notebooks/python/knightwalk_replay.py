"""Replay a knightwalk walk in pure Python: the random-stream contract.

The replay lives in the knightwalk package (``kw.replay``,
python/src/knightwalk/_replay.py); this module keeps the name the notebook
and its tests used, and needs the package importable (pip install
./python, or PYTHONPATH=python/src).
"""

from knightwalk._replay import *  # noqa: F401,F403
from knightwalk._replay import (CANONICAL_MOVES, DEFAULT_NODE_BUDGET, PCG, SORTED_MOVES, Walk, fnv1a64,  # noqa: F401
                                mix64, parse_order, replay, square_name, square_names, stream_seeds)
