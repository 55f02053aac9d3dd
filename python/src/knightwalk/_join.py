"""Joining exact values and tour counts onto a run's rows."""

from __future__ import annotations

from typing import Any

# The columns of the exact table that name the row (as in squares), and
# those of the counts table; every other column is a value.
EXACT_KEYS = ("board", "rule_spec", "start")
EXACT_NAMING = ("board", "rows", "cols", "rule", "start", "start_row", "start_col", "start_class", "rule_spec",
                "tie_break", "max_steps", "node_budget", "move_order")
COUNT_KEYS = ("board", "start")


def _is_polars(df: Any) -> bool:
    return type(df).__module__.startswith("polars")


def join_exact(df: Any, values: Any, *, how: str = "left") -> Any:
    """``df`` (squares, walks, or any frame with their key columns) with the
    value columns of an exact or counts frame added, and nothing else: no
    second copy of ``rows``, ``rule``, ``tie_break``, ... (a plain merge
    suffixes them ``_x``/``_y``).

    An exact frame (:func:`knightwalk.exact`) joins on (``board``,
    ``rule_spec``, ``start``), so only an enumeration of the same rule with
    the same parameters matches; it adds ``p_success``, ``p_closed``,
    ``p_stopped``, ``mean_length``, ``mean_ties``, ``nodes``,
    ``tree_nodes``, ``p_lower``, ``p_upper`` and ``dropped``. A counts frame
    (:func:`knightwalk.count`) joins on (``board``, ``start``) and adds one
    column per kind counted per start, ``count_open`` and (``closed=True``)
    ``count_closed``; its total rows (start null) are left out. ``how`` is
    ``"left"`` (every row of ``df``, nulls where ``values`` has none) or
    ``"inner"``. pandas or polars, as ``df`` is; give ``values`` the levels
    of ``df`` (``like=df``) so the category keys join with no cast.
    """
    if how not in ("left", "inner"):
        raise ValueError(f"join_exact: how={how!r}; valid: left, inner")
    if _is_polars(df) != _is_polars(values):
        raise TypeError("join_exact: df and values must both be pandas or both polars frames")
    cols = list(values.columns)
    if "p_success" in cols:
        keys = list(EXACT_KEYS)
        parts = [(values, [c for c in cols if c not in EXACT_NAMING])]
    elif "kind" in cols and "count" in cols:
        keys = list(COUNT_KEYS)
        parts = []
        if _is_polars(values):
            import polars as pl

            per = values.filter(pl.col("start").is_not_null())
            for kind in per["kind"].unique(maintain_order=True).to_list():
                parts.append((per.filter(pl.col("kind") == kind).rename({"count": f"count_{kind}"}), [f"count_{kind}"]))
        else:
            per = values[values["start"].notna()]
            for kind in per["kind"].astype(object).unique():
                parts.append((per[per["kind"] == kind].rename(columns={"count": f"count_{kind}"}), [f"count_{kind}"]))
    else:
        raise ValueError("join_exact: values is neither an exact table (p_success, ...) nor a counts table "
                         f"(kind, count); its columns: {', '.join(map(str, cols))}")
    missing = [k for k in keys if k not in df.columns]
    if missing:
        raise KeyError(f"join_exact: df has no column {', '.join(missing)}; it joins on {', '.join(keys)}")
    out = df
    for part, add in parts:
        clash = [c for c in add if c in df.columns]
        if clash:
            raise ValueError(f"join_exact: df already has {', '.join(clash)} (joined twice?)")
        if _is_polars(part):
            sub = part.select([*keys, *add])
            if sub.select(keys).is_duplicated().any():
                raise ValueError(f"join_exact: values has several rows per ({', '.join(keys)})")
            out = out.join(sub, on=keys, how=how, maintain_order="left")
        else:
            sub = part[[*keys, *add]]
            if sub.duplicated(keys).any():
                raise ValueError(f"join_exact: values has several rows per ({', '.join(keys)})")
            attrs = dict(out.attrs)
            out = out.merge(sub, on=keys, how=how, validate="many_to_one")
            out.attrs = attrs
    return out
