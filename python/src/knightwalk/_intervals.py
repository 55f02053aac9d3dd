"""Binomial intervals that reproduce the Go code's (stats.Proportion.Interval)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

METHODS = ("wilson", "clopper-pearson")


def _check(method: str, level: float) -> None:
    if method not in METHODS:
        raise ValueError(f"interval method {method!r}: valid methods are {', '.join(METHODS)}")
    if not 0 < level < 1:
        raise ValueError(f"confidence level {level!r}: want 0 < level < 1, e.g. 0.95")


def wilson(successes: int, walks: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval, written in counts as the Go code does:
    (2x + z² ∓ z·sqrt(z² + 4x(n−x)/n)) / (2(n + z²)), exactly 0 at x = 0 and
    1 at x = n."""
    x, n = float(successes), float(walks)
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    z2 = z * z
    root = z * math.sqrt(z2 + 4 * x * (n - x) / n)
    den = 2 * (n + z2)
    lo = 0.0 if successes == 0 else (2 * x + z2 - root) / den
    hi = 1.0 if successes == walks else (2 * x + z2 + root) / den
    return max(lo, 0.0), min(hi, 1.0)


def _betacf(a: float, b: float, x: float) -> float:
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def _beta_cdf(x: float, a: float, b: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1 - math.exp(lbt) * _betacf(b, a, 1 - x) / b


def _beta_quantile(p: float, a: float, b: float) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if _beta_cdf(mid, a, b) < p else (lo, mid)
    return (lo + hi) / 2


def clopper_pearson(successes: int, walks: int, level: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson exact interval from beta quantiles; 0 at x = 0, 1 at x = n."""
    alpha, x, n = 1 - level, float(successes), float(walks)
    lo = 0.0 if successes == 0 else _beta_quantile(alpha / 2, x, n - x + 1)
    hi = 1.0 if successes == walks else _beta_quantile(1 - alpha / 2, x + 1, n - x)
    return lo, hi


def _scalar_interval(s: int, n: int, method: str, level: float) -> tuple[float, float, float]:
    if s < 0 or n < 0 or s > n:
        raise ValueError(f"{s} successes of {n} walks: want 0 <= successes <= walks")
    if n == 0:
        return math.nan, math.nan, math.nan
    lo, hi = (wilson if method == "wilson" else clopper_pearson)(s, n, level)
    return s / n, lo, hi


def interval(successes: Any, walks: Any, method: str = "wilson", level: float = 0.95) -> Any:
    """(rate, lo, hi) of ``successes`` out of ``walks``, as the tables hold it.

    ``method`` is ``"wilson"`` or ``"clopper-pearson"`` (a run's is in its
    metadata: ``metadata(dir)["config"]["interval"]``), ``level`` the
    confidence level. Over zero walks all three are NaN (null in the tables).
    ``successes`` and ``walks`` may be whole columns (pandas or polars
    Series, numpy arrays, lists): then the result is three float64 numpy
    arrays, each pair of counts computed once.
    """
    _check(method, level)
    if not hasattr(successes, "__len__") and not hasattr(walks, "__len__"):
        return _scalar_interval(int(successes), int(walks), method, level)
    import numpy as np

    s = np.asarray(_plain(successes), dtype=np.int64)
    n = np.asarray(_plain(walks), dtype=np.int64)
    s, n = np.broadcast_arrays(s, n)
    if ((s < 0) | (n < 0) | (s > n)).any():
        i = int(np.flatnonzero((s < 0) | (n < 0) | (s > n))[0])
        raise ValueError(f"row {i}: {s[i]} successes of {n[i]} walks: want 0 <= successes <= walks")
    rate, lo, hi = (np.full(s.shape, np.nan) for _ in range(3))
    pairs, inverse = np.unique(np.stack([s.ravel(), n.ravel()], axis=1), axis=0, return_inverse=True)
    got = np.array([_scalar_interval(int(a), int(b), method, level) for a, b in pairs]).reshape(-1, 3)
    inverse = np.asarray(inverse).ravel()
    if len(pairs):
        rate.flat[:], lo.flat[:], hi.flat[:] = got[inverse, 0], got[inverse, 1], got[inverse, 2]
    return rate, lo, hi


def _plain(col: Any) -> Any:
    """A column as something numpy reads (pandas nullable Int64 included);
    a null count is an error."""
    if hasattr(col, "to_numpy"):
        nulls = col.null_count() if callable(getattr(col, "null_count", None)) else int(col.isna().sum()) if hasattr(col, "isna") else 0
        if nulls:
            raise ValueError("a null count: successes and walks must be whole numbers")
        return col.to_numpy()
    return col


def method_of(df: Any = None, run: Any = None) -> tuple[str, float]:
    """The interval method and confidence level of the run a frame was
    loaded from: its ``attrs`` (pandas, from :func:`knightwalk.load`), or
    ``run`` (a result directory or :func:`knightwalk.metadata`'s dict);
    one method and level shared by every run a stacked frame holds."""
    found = set()
    if run is not None:
        from ._tables import metadata

        md = metadata(run) if not isinstance(run, dict) else run
        cfg = md.get("config") or {}
        if cfg:
            found.add((cfg.get("interval"), float(cfg.get("confidence"))))
        elif "interval" in md:
            found.add((md.get("interval"), float(md.get("confidence"))))
    else:
        attrs = getattr(df, "attrs", None) or {}
        mds = [attrs["metadata"]] if "metadata" in attrs else list((attrs.get("runs") or {}).values())
        for md in mds:
            if md.get("interval") and md.get("confidence"):
                found.add((md["interval"], float(md["confidence"])))
    if not found:
        raise ValueError("pool: which interval? the frame carries no run metadata (polars frames, or a frame built by hand): "
                         "pass method= and level=, or run=<result directory>")
    if len(found) > 1:
        raise ValueError(f"pool: the frame's runs use different intervals ({sorted(found)}): pass method= and level=")
    return next(iter(found))


def pool(df: Any, by: str | Sequence[str], method: str | None = None, level: float | None = None,
         walks: str = "walks", successes: str = "successes", *, run: Any = None) -> Any:
    """Pool rows by ``by`` (summing walks and successes) and add ``rate``,
    ``lo`` and ``hi``: the interval of the pooled counts, as the Go code
    pools squares into classes and boards. ``df`` is a pandas or polars
    data frame; the result is of the same kind, one row per group, in the
    groups' (category) order.

    ``method`` and ``level`` default to the run's (a pandas frame from
    :func:`knightwalk.load` carries them in ``attrs``; for polars, pass
    ``run=`` the result directory, or both). A group with a deterministic
    row (the ``deterministic`` column: a rule that draws nothing) has a
    rate but no interval (``lo``, ``hi`` null), as in the tables: its
    walks are not a sample.
    """
    if method is None or level is None:
        m, lv = method_of(df, run)
        method = method if method is not None else m
        level = level if level is not None else lv
    _check(method, level)
    keys = [by] if isinstance(by, str) else list(by)
    for col in [*keys, walks, successes]:
        if col not in df.columns:
            raise KeyError(f"pool: no column {col!r}; the frame has {', '.join(map(str, df.columns))}")
    det = "deterministic" in df.columns
    if type(df).__module__.startswith("polars"):
        import polars as pl

        aggs = [pl.col(walks).sum(), pl.col(successes).sum()]
        if det:
            aggs.append(pl.col("deterministic").any().alias("_det"))
        g = df.group_by(keys, maintain_order=False).agg(aggs).sort(keys)
        rate, lo, hi = interval(g[successes], g[walks], method, level)
        g = g.with_columns(rate=pl.Series(rate), lo=pl.Series(lo), hi=pl.Series(hi)).with_columns(
            [pl.when(pl.col(c).is_nan()).then(None).otherwise(pl.col(c)).alias(c) for c in ("rate", "lo", "hi")])
        if det:
            g = g.with_columns([pl.when(pl.col("_det")).then(None).otherwise(pl.col(c)).alias(c) for c in ("lo", "hi")]).drop("_det")
        return g
    import pandas as pd

    cols = [walks, successes] + (["deterministic"] if det else [])
    g = df.groupby(keys, observed=True, as_index=False, sort=True)[cols].agg(
        {walks: "sum", successes: "sum", **({"deterministic": "any"} if det else {})})
    rate, lo, hi = interval(g[successes], g[walks], method, level)
    g["rate"], g["lo"], g["hi"] = (pd.array(x, dtype="Float64") for x in (rate, lo, hi))
    for c in ("rate", "lo", "hi"):
        g.loc[g[c].isna(), c] = pd.NA
    if det:
        g.loc[g["deterministic"].astype(bool), ["lo", "hi"]] = pd.NA
        g = g.drop(columns="deterministic")
    g.attrs = {"method": method, "level": level}
    return g
