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


def interval(successes: int, walks: int, method: str = "wilson", level: float = 0.95) -> tuple[float, float, float]:
    """(rate, lo, hi) of ``successes`` out of ``walks``, as the tables hold it.

    ``method`` is ``"wilson"`` or ``"clopper-pearson"`` (a run's is in its
    metadata: ``metadata(dir)["config"]["interval"]``), ``level`` the
    confidence level. Over zero walks all three are NaN (null in the tables).
    """
    _check(method, level)
    s, n = int(successes), int(walks)
    if s < 0 or n < 0 or s > n:
        raise ValueError(f"{s} successes of {n} walks: want 0 <= successes <= walks")
    if n == 0:
        return math.nan, math.nan, math.nan
    lo, hi = (wilson if method == "wilson" else clopper_pearson)(s, n, level)
    return s / n, lo, hi


def pool(df: Any, by: str | Sequence[str], method: str = "wilson", level: float = 0.95,
         walks: str = "walks", successes: str = "successes") -> Any:
    """Pool rows by ``by`` (summing walks and successes) and add ``rate``,
    ``lo`` and ``hi``: the interval of the pooled counts, as the Go code
    pools squares into classes and boards. ``df`` is a pandas or polars
    data frame; the result is of the same kind, one row per group, in the
    groups' (category) order.
    """
    _check(method, level)
    keys = [by] if isinstance(by, str) else list(by)
    for col in [*keys, walks, successes]:
        if col not in df.columns:
            raise KeyError(f"pool: no column {col!r}; the frame has {', '.join(map(str, df.columns))}")
    if type(df).__module__.startswith("polars"):
        import polars as pl

        g = df.group_by(keys, maintain_order=False).agg(pl.col(walks).sum(), pl.col(successes).sum()).sort(keys)
        rows = [interval(s, n, method, level) for s, n in zip(g[successes].to_list(), g[walks].to_list())]
        return g.with_columns(rate=pl.Series([r[0] for r in rows]), lo=pl.Series([r[1] for r in rows]),
                              hi=pl.Series([r[2] for r in rows]))
    g = df.groupby(keys, observed=True, as_index=False, sort=True)[[walks, successes]].sum()
    rows = [interval(s, n, method, level) for s, n in zip(g[successes], g[walks])]
    g["rate"] = [r[0] for r in rows]
    g["lo"] = [r[1] for r in rows]
    g["hi"] = [r[2] for r in rows]
    return g
