"""Binomial intervals that reproduce the Go code's (stats.Proportion.Interval)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

METHODS = ("wilson", "clopper-pearson")  # a run's fixed-n interval (its metadata's interval)
CS_METHOD = "beta-binomial-cs"  # the always-valid interval of a sequential run (confidence_sequence)


def _check(method: str, level: float, cs: bool = False) -> None:
    valid = (*METHODS, CS_METHOD) if cs else METHODS
    if method not in valid:
        raise ValueError(f"interval method {method!r}: valid methods are {', '.join(valid)}")
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


_CS_PRIOR = 0.5  # Beta(1/2, 1/2), as stats/confseq.go's csPrior


def _cs_log_m(k: float, n: float, p: float) -> float:
    """log M_n(p) of the beta-binomial mixture (stats/confseq.go csLogM)."""
    def lbeta(a: float, b: float) -> float:
        return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)

    out = lbeta(_CS_PRIOR + k, _CS_PRIOR + n - k) - lbeta(_CS_PRIOR, _CS_PRIOR)
    if k > 0:
        out -= k * math.log(p)
    if n > k:
        out -= (n - k) * math.log1p(-p)
    return out


def confidence_sequence(successes: int, walks: int, level: float = 0.95) -> tuple[float, float]:
    """The always-valid interval of a sequential run (Go's
    stats.ConfidenceSequence, ``beta-binomial-cs``): the p with M_n(p) <
    1/(1 − level), M_n the beta-binomial mixture of Robbins with a
    Beta(1/2, 1/2) prior, so that it covers the rate at every number of
    walks at once and stays valid wherever the run stopped. The claims
    table's ``cs_lo``/``cs_hi`` and the classes table's
    ``success_cs_lo``/``success_cs_hi`` are this interval of their pooled
    counts at the run's level."""
    if not 0 < level < 1:
        raise ValueError(f"confidence level {level!r}: want 0 < level < 1, e.g. 0.95")
    k, n = int(successes), int(walks)
    if k < 0 or n <= 0 or k > n:
        raise ValueError(f"{k} successes of {n} walks: want 0 <= successes <= walks, walks > 0")
    bound = -math.log(1 - level)
    c = k / n

    def out(p: float) -> bool:
        return _cs_log_m(float(k), float(n), p) >= bound

    def edge(x: float, c: float) -> float:  # stats/confseq.go bisectEdge: x out, c in; the end still inside
        for _ in range(200):
            mid = (x + c) / 2
            if mid == x or mid == c:
                break
            if out(mid):
                x = mid
            else:
                c = mid
        return c

    lo, hi = 0.0, 1.0
    if k > 0 and out(5e-324):
        lo = edge(0.0, c)
    if k < n and out(1 - 2.0 ** -53):
        hi = edge(1.0, c)
    return lo, hi


def _scalar_interval(s: int, n: int, method: str, level: float) -> tuple[float, float, float]:
    if s < 0 or n < 0 or s > n:
        raise ValueError(f"{s} successes of {n} walks: want 0 <= successes <= walks")
    if n == 0:
        return math.nan, math.nan, math.nan
    f = {"wilson": wilson, "clopper-pearson": clopper_pearson, CS_METHOD: confidence_sequence}[method]
    lo, hi = f(s, n, level)
    return s / n, lo, hi


def interval(successes: Any, walks: Any, method: str = "wilson", level: float = 0.95) -> Any:
    """(rate, lo, hi) of ``successes`` out of ``walks``, as the tables hold it.

    ``method`` is ``"wilson"`` or ``"clopper-pearson"`` (a run's is in its
    metadata: ``metadata(dir)["config"]["interval"]``), or
    ``"beta-binomial-cs"``, a sequential run's always-valid interval
    (:func:`confidence_sequence`); ``level`` the confidence level. Over zero walks all three are NaN (null in the tables).
    ``successes`` and ``walks`` may be whole columns (pandas or polars
    Series, numpy arrays, lists): then the result is three float64 numpy
    arrays, each pair of counts computed once.
    """
    _check(method, level, cs=True)
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


def _interval_of(md: dict[str, Any]) -> tuple[str, float] | None:
    """(method, level) of a run's metadata: a manifest (its ``config``) or
    a table file's key-value metadata; None where it names none."""
    cfg = md.get("config") if isinstance(md.get("config"), dict) else None
    if cfg and cfg.get("interval") and cfg.get("confidence") is not None:
        return cfg["interval"], float(cfg["confidence"])
    if md.get("interval") and md.get("confidence") is not None:
        return md["interval"], float(md["confidence"])
    return None


def _run_intervals(df: Any = None, run: Any = None) -> dict[str | None, tuple[str, float]]:
    """The interval method and level of each run a frame holds, by the
    run's label (its ``run`` column), or under None for a frame of one run:
    from ``run`` (a result directory or :func:`knightwalk.metadata`'s dict;
    for a frame of several runs, a list of result directories or a dict from
    a label to one, as :func:`knightwalk.load` took them) or else the
    frame's ``attrs`` (pandas, from :func:`knightwalk.load`)."""
    found: dict[str | None, tuple[str, float]] = {}
    if run is not None:
        from ._tables import _runs_of, metadata

        if isinstance(run, dict) and ("config" in run or "interval" in run):
            runs, single = None, run
        else:
            runs, single = _runs_of(run)
        if runs is None:
            got = _interval_of(single if isinstance(single, dict) else metadata(single))
            if got:
                found[None] = got
        else:
            for label, d in runs:
                got = _interval_of(metadata(d))
                if got is None:
                    raise ValueError(f"pool: run {label!r} ({d}): its manifest names no interval")
                found[label] = got
    else:
        attrs = getattr(df, "attrs", None) or {}
        if "metadata" in attrs:
            got = _interval_of(attrs["metadata"])
            if got:
                found[None] = got
        for label, md in (attrs.get("runs") or {}).items():
            got = _interval_of(md)
            if got:
                found[label] = got
    if not found:
        raise ValueError("pool: which interval? the frame carries no run metadata (polars frames, or a frame built by hand): "
                         "pass method= and level=, or run=<result directory> (for several runs, the list or dict of "
                         "result directories kw.load took)")
    return found


def method_of(df: Any = None, run: Any = None) -> tuple[str, float]:
    """The interval method and confidence level of the run a frame was
    loaded from: its ``attrs`` (pandas, from :func:`knightwalk.load`), or
    ``run`` (a result directory or :func:`knightwalk.metadata`'s dict, or
    the result directories of a stacked frame); one method and level
    shared by every run the frame holds (:func:`pool` pools runs of
    different intervals each by its own)."""
    found = set(_run_intervals(df, run).values())
    if len(found) > 1:
        raise ValueError(f"the frame's runs use different intervals ({sorted(found)}): pass method= and level=")
    return next(iter(found))


# The rates pool adds, as the tables name them: (prefix, count column).
_RATES = (("success", "successes"), ("closed", "closed"))


def _round(x: Any) -> Any:
    """math.Round of Go: halves away from zero (numpy rounds them to even)."""
    import numpy as np

    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _uniform_interval(rate: Any, adj: Any, var: Any, k: Any, method: str, level: float) -> tuple[Any, Any]:
    """The interval of an equal-weight mean ``rate`` of k squares' rates at
    its effective sample size, as the Go code gives the classes and boards
    of a sequential run (results.uniformStart): n_eff = p̃(1 − p̃)/V,
    V = Σ [p̃ᵢ(1 − p̃ᵢ) + (p̃ᵢ − p̃)²]/nᵢ / k², the variance of a walk from a
    uniformly random start spread over the squares' walks (so that equal
    walks give the pooled interval), p̃ᵢ = (xᵢ + 2)/(nᵢ + 4), p̃ their mean
    (``adj``); the run's method at n_eff walks and round(n_eff·rate)
    successes, widened to hold the rate."""
    import numpy as np

    with np.errstate(divide="ignore", invalid="ignore"):
        n = _round(adj * (1 - adj) / (var / (k * k)))
        n = np.where(np.isfinite(n), n, 0).astype(np.int64)
        x = _round(rate * n)
        x = np.clip(np.where(np.isfinite(x), x, 0), 0, n).astype(np.int64)
    _, lo, hi = interval(x, n, method, level)
    lo = np.where(np.isnan(lo), lo, np.fmin(lo, rate))
    hi = np.where(np.isnan(hi), hi, np.fmax(hi, rate))
    return lo, hi


_PARTS = ("rate", "adj", "var", "qq", "qn", "inv")  # the sums a group's uniform-start interval needs


def _pooled(agg: Any, rates: Sequence[tuple[str, str]], method: str, level: float,
            always_valid: bool = False) -> dict[str, Any]:
    """The rate columns of pooled groups from their sums (numpy arrays by
    name): walk-weighted successes/walks and its interval; the
    equal-weight mean of the squares' rates where the tables give it (a
    sequential run's group of two or more squares of a rule that draws,
    every square walked, not all the same walks); lo and hi null for a
    deterministic group."""
    import numpy as np

    walks = agg["walks"].astype(np.int64)
    uniform = (agg["sequential"] & ~agg["det"] & (agg["k"] >= 2) & (agg["wmin"] > 0) & (agg["wmin"] != agg["wmax"]))
    out = {}
    for prefix, count in rates:
        rate, lo, hi = interval(agg[count].astype(np.int64), walks, method, level)
        if uniform.any():
            k = agg["k"].astype(np.float64)
            mean = agg[f"_{prefix}_rate"] / k
            adj = agg[f"_{prefix}_adj"] / k
            # Σ (q − adj)²/n = Σ q²/n − 2·adj·Σ q/n + adj²·Σ 1/n
            var = (agg[f"_{prefix}_var"] + agg[f"_{prefix}_qq"] - 2 * adj * agg[f"_{prefix}_qn"]
                   + adj * adj * agg[f"_{prefix}_inv"])
            ulo, uhi = _uniform_interval(mean, adj, var, k, method, level)
            rate, lo, hi = (np.where(uniform, u, w) for u, w in ((mean, rate), (ulo, lo), (uhi, hi)))
        lo = np.where(agg["det"], np.nan, lo)
        hi = np.where(agg["det"], np.nan, hi)
        out[f"{prefix}_rate"], out[f"{prefix}_lo"], out[f"{prefix}_hi"] = rate, lo, hi
    if always_valid:  # the classes table's success_cs_lo, success_cs_hi: of the pooled counts, as claims judge
        _, cslo, cshi = interval(agg[rates[0][1]].astype(np.int64), walks, CS_METHOD, level)
        out["success_cs_lo"] = np.where(agg["det"], np.nan, cslo)
        out["success_cs_hi"] = np.where(agg["det"], np.nan, cshi)
    return out


def pool(df: Any, by: str | Sequence[str], method: str | None = None, level: float | None = None,
         walks: str = "walks", successes: str = "successes", *, run: Any = None,
         sequential: bool | None = None, always_valid: bool = False) -> Any:
    """Pool squares rows by ``by`` as the classes and boards tables pool
    them: one row per group, in the groups' (category) order, with
    ``squares`` (rows pooled), the summed ``walks``, ``successes`` and
    ``closed``, and ``success_rate``, ``success_lo``, ``success_hi``,
    ``closed_rate``, ``closed_lo``, ``closed_hi`` as the tables name them
    (closed ones where the frame has a ``closed`` column). ``df`` is a
    pandas or polars data frame; the result is of the same kind.

    The rate is the tables' (docs/design.md): the pooled successes / walks
    with the run's interval; but in a sequential run (``walks: {until:
    ...}``), where a group's squares ran unequal walks, the equal-weight
    mean of the squares' rates (the rate from a uniformly random start,
    which a square that ran longer would otherwise pull towards its own)
    with the interval at that mean's effective sample size. So
    ``pool(squares, ["board", "rule"])`` equals the boards table and
    ``pool(squares, ["board", "rule", "start_class"])`` the classes table's
    class rows, on fixed and sequential runs alike. A row is of a
    sequential run when its ``stop`` column is set (null in a fixed run);
    ``sequential=True`` or ``False`` says so for a frame without one. A
    group that holds squares of a sequential run and of a fixed one (a
    frame of several runs pooled without ``run`` in ``by``) is refused:
    no one rule is either run's.

    ``method`` and ``level`` default to the run's (a pandas frame from
    :func:`knightwalk.load` carries them in ``attrs``; for polars, pass
    ``run=`` the result directory, or for several runs the list or dict of
    directories :func:`knightwalk.load` took, or both). A frame of runs of
    different methods or levels is pooled run by run, each group by its own
    run's; a group that holds rows of runs that differ in them is refused,
    naming it and the runs (pass ``method=`` and ``level=`` to pool it
    anyway). A group with a deterministic
    row (the ``deterministic`` column: a rule that draws nothing) has a
    rate but no interval (``success_lo``, ``success_hi`` null), as in the
    tables: its walks are not a sample.

    ``always_valid=True`` adds ``success_cs_lo`` and ``success_cs_hi``, as
    the classes table of a sequential run names them: the always-valid
    interval (:func:`confidence_sequence`, at each group's level) of the
    pooled ``successes / walks``, the interval a claim on those squares
    judges its verdict by (the claims table's ``cs_lo``, ``cs_hi``), beside
    the fixed-n ``success_lo``, ``success_hi``; null for a deterministic
    group. Where a sequential run's squares ran unequal walks it is about
    the pooled ``successes / walks``, not the equal-weight ``success_rate``.
    """
    keys = [by] if isinstance(by, str) else list(by)
    for col in [*keys, walks, successes]:
        if col not in df.columns:
            raise KeyError(f"pool: no column {col!r}; the frame has {', '.join(map(str, df.columns))}")
    if method is not None and level is not None:
        _check(method, level)
        return _pool_one(df, keys, method, level, walks, successes, sequential, always_valid)
    by_run = {label: (method or m, level if level is not None else lv) for label, (m, lv) in _run_intervals(df, run).items()}
    for m, lv in set(by_run.values()):
        _check(m, lv)
    if len(set(by_run.values())) == 1:
        m, lv = next(iter(by_run.values()))
        return _pool_one(df, keys, m, lv, walks, successes, sequential, always_valid)
    return _pool_by_interval(df, keys, by_run, walks, successes, sequential, always_valid)


def _pool_by_interval(df: Any, keys: list[str], by_run: dict[Any, tuple[str, float]], walks: str, successes: str,
                      sequential: bool | None, always_valid: bool = False) -> Any:
    """pool over a frame of runs of different intervals: each run's rows
    pooled by its own method and level; refused where a group holds rows
    of runs that differ in them, naming the group and the runs."""
    polars = type(df).__module__.startswith("polars")
    if "run" not in df.columns:
        raise ValueError(f"pool: the frame's runs use different intervals ({sorted(set(by_run.values()))}) and the frame "
                         "has no run column to tell their rows apart: pass method= and level=")
    if polars:
        import polars as pl

        labels = df.get_column("run").cast(pl.String).to_list()
        key_rows = list(df.select(keys).iter_rows())
    else:
        labels = [None if v is None or v != v else str(v) for v in df["run"].tolist()]
        key_rows = list(df[keys].itertuples(index=False, name=None))
    unknown = sorted({str(r) for r in labels if r not in by_run})
    if unknown:
        raise ValueError(f"pool: no interval known for run {', '.join(unknown)} (the frame names {', '.join(map(str, by_run))}): "
                         "pass method= and level=, or run= every result directory")
    groups: dict[tuple[Any, ...], dict[tuple[str, float], set[str]]] = {}
    for key, label in zip(key_rows, labels):
        groups.setdefault(key, {}).setdefault(by_run[label], set()).add(label)
    for key, ivs in groups.items():
        if len(ivs) > 1:
            what = "; ".join(f"{', '.join(sorted(rs))}: {m} at {lv:g}" for (m, lv), rs in sorted(ivs.items()))
            raise ValueError(f"pool: the group {dict(zip(keys, key))} holds rows of runs with different intervals ({what}): "
                             "no one interval covers it; pool each run apart (add 'run' to by) or pass method= and level=")
    parts = []
    for iv in sorted(set(by_run.values())):
        rows = [by_run[label] == iv for label in labels]
        if not any(rows):
            continue
        if polars:
            sub = df.filter(pl.Series(rows))
        else:
            sub = df[rows]
        parts.append(_pool_one(sub, keys, iv[0], iv[1], walks, successes, sequential, always_valid))
    if polars:
        return pl.concat(parts).sort(keys, maintain_order=True)
    import pandas as pd

    out = pd.concat(parts, ignore_index=True).sort_values(keys, kind="stable").reset_index(drop=True)
    out.attrs = {"intervals": {label: {"method": m, "level": lv} for label, (m, lv) in by_run.items()}}
    return out


def _refuse_mixed(groups: list[tuple[Any, ...]], mixed: Any, keys: list[str]) -> None:
    """Refuses groups that hold squares of a sequential run (``stop`` set)
    and of a fixed one (``stop`` null): the tables pool a sequential run's
    squares by the equal-weight mean of their rates, at its effective
    sample size, and a fixed run's by walks; no one rule is either run's."""
    import numpy as np

    bad = [groups[i] for i in np.flatnonzero(mixed)]
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise ValueError(f"pool: the group {dict(zip(keys, bad[0]))}{more} holds squares of a sequential run (walks: {{until: ...}}, "
                         "pooled by the equal-weight mean of its squares' rates) and of a fixed run (pooled by walks): "
                         "no one rule is either run's; pool each run apart (add 'run' to by), or pass sequential= to choose one rule")


def _pool_one(df: Any, keys: list[str], method: str, level: float, walks: str, successes: str,
              sequential: bool | None, always_valid: bool = False) -> Any:
    """pool with one interval method and level for every row."""
    counts = [(p, c if c != "successes" else successes) for p, c in _RATES if c in df.columns or c == "successes"]
    det = "deterministic" in df.columns
    has_stop = "stop" in df.columns and sequential is None
    seq_const = bool(sequential)
    sums = [walks] + [c for _, c in counts]
    polars = type(df).__module__.startswith("polars")
    if polars:
        import polars as pl

        w = pl.col(walks).cast(pl.Float64)
        aggs = [pl.len().alias("squares"), *(pl.col(c).sum() for c in sums),
                pl.col(walks).min().alias("_wmin"), pl.col(walks).max().alias("_wmax"),
                (pl.col("deterministic").any() if det else pl.lit(False)).alias("_det"),
                (pl.col("stop").is_not_null().all() if has_stop else pl.lit(seq_const)).alias("_seq"),
                (pl.col("stop").is_not_null().any() if has_stop else pl.lit(seq_const)).alias("_seqany")]
        for p, c in counts:
            q = (pl.col(c).cast(pl.Float64) + 2) / (w + 4)
            aggs += [(pl.col(c).cast(pl.Float64) / w).sum().alias(f"_{p}_rate"), q.sum().alias(f"_{p}_adj"),
                     (q * (1 - q) / w).sum().alias(f"_{p}_var"), (q * q / w).sum().alias(f"_{p}_qq"),
                     (q / w).sum().alias(f"_{p}_qn"), (1 / w).sum().alias(f"_{p}_inv")]
        g = df.group_by(keys, maintain_order=True).agg(aggs).sort(keys)
        _refuse_mixed(list(g.select(keys).iter_rows()), g["_seqany"].to_numpy() & ~g["_seq"].to_numpy(), keys)
        agg = {"walks": g[walks].to_numpy(), "k": g["squares"].to_numpy(), "wmin": g["_wmin"].to_numpy(),
               "wmax": g["_wmax"].to_numpy(), "det": g["_det"].to_numpy().astype(bool),
               "sequential": g["_seq"].to_numpy().astype(bool)}
        for p, c in counts:
            agg[c] = g[c].to_numpy()
            for part in _PARTS:
                agg[f"_{p}_{part}"] = g[f"_{p}_{part}"].to_numpy()
        out = _pooled(agg, counts, method, level, always_valid)
        g = g.drop([c for c in g.columns if c.startswith("_")])
        g = g.with_columns([pl.Series(name, v).fill_nan(None) for name, v in out.items()])
        return g.select([*keys, "squares", *sums, *out])
    import numpy as np
    import pandas as pd

    work = pd.DataFrame({k: df[k] for k in keys})
    wf = df[walks].astype("float64").to_numpy(na_value=np.nan)
    work["squares"] = 1
    for c in sums:
        work[c] = df[c]
    work["_wmin"] = work["_wmax"] = df[walks]
    work["_det"] = df["deterministic"].astype(bool) if det else False
    work["_seq"] = df["stop"].notna().to_numpy() if has_stop else seq_const
    work["_seqany"] = work["_seq"]
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, c in counts:
            x = df[c].astype("float64").to_numpy(na_value=np.nan)
            q = (x + 2) / (wf + 4)
            work[f"_{p}_rate"], work[f"_{p}_adj"], work[f"_{p}_var"] = x / wf, q, q * (1 - q) / wf
            work[f"_{p}_qq"], work[f"_{p}_qn"], work[f"_{p}_inv"] = q * q / wf, q / wf, 1 / wf
    how = {"squares": "sum", **{c: "sum" for c in sums}, "_wmin": "min", "_wmax": "max", "_det": "any", "_seq": "all", "_seqany": "any",
           **{f"_{p}_{part}": "sum" for p, _ in counts for part in _PARTS}}
    g = work.groupby(keys, observed=True, as_index=False, sort=True).agg(how)
    _refuse_mixed(list(g[keys].itertuples(index=False, name=None)),
                  g["_seqany"].to_numpy(dtype=bool) & ~g["_seq"].to_numpy(dtype=bool), keys)
    agg = {"walks": g[walks].to_numpy(dtype=np.int64), "k": g["squares"].to_numpy(dtype=np.int64),
           "wmin": g["_wmin"].to_numpy(dtype=np.int64), "wmax": g["_wmax"].to_numpy(dtype=np.int64),
           "det": g["_det"].to_numpy(dtype=bool), "sequential": g["_seq"].to_numpy(dtype=bool)}
    for p, c in counts:
        agg[c] = g[c].to_numpy(dtype=np.int64)
        for part in _PARTS:
            agg[f"_{p}_{part}"] = g[f"_{p}_{part}"].to_numpy(dtype=np.float64)
    out = _pooled(agg, counts, method, level, always_valid)
    g = g[[*keys, "squares", *sums]].copy()
    for name, v in out.items():
        col = pd.array(v, dtype="Float64")
        col[np.isnan(v)] = pd.NA
        g[name] = col
    g.attrs = {"method": method, "level": level}
    return g
