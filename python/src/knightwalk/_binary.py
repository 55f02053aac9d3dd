"""Running the experiment binary from Python."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from ._tables import Backend, _assemble, _check_file, _Part, _result_dir, frame_levels, load, metadata


# The binary a wheel carries (setup.py compiles it into the package).
BUNDLED = Path(__file__).resolve().parent / "bin" / ("experiment.exe" if os.name == "nt" else "experiment")

HOW_TO_GET_ONE = (
    "install a wheel that carries it (built with Go 1.26+ on PATH: pip wheel ./python in a checkout, then "
    "pip install the knightwalk-*.whl), or set KNIGHTWALK_BIN to an experiment binary, or put one on PATH "
    "(go install github.com/knightwalk/knightwalk/cmd/experiment@latest), or pass binary=")


def _locate(binary: str | Path | None) -> tuple[str, str]:
    """(path, where it came from) of the experiment binary."""
    if binary:
        path = shutil.which(str(binary))
        if path is None:
            raise FileNotFoundError(f"binary={binary}: no such executable")
        return path, "binary="
    env = os.environ.get("KNIGHTWALK_BIN")
    if env:
        path = shutil.which(env)
        if path is None:
            raise FileNotFoundError(f"KNIGHTWALK_BIN={env}: no such executable; unset it to use "
                                    + ("the binary this package carries" if BUNDLED.is_file() else "experiment on PATH"))
        return path, "KNIGHTWALK_BIN"
    if BUNDLED.is_file():
        if not os.access(BUNDLED, os.X_OK):  # unpacked by a tool that dropped the mode bits
            try:
                BUNDLED.chmod(BUNDLED.stat().st_mode | 0o111)
            except OSError as err:
                raise PermissionError(f"{BUNDLED}: the binary this package carries is not executable ({err})") from err
        return str(BUNDLED), "bundled"
    path = shutil.which("experiment")
    if path is None:
        raise FileNotFoundError("no experiment binary: this knightwalk package carries none (a pure install, built "
                                "without Go), KNIGHTWALK_BIN is not set and no experiment is on PATH; "
                                + HOW_TO_GET_ONE)
    return path, "PATH"


def find_binary(binary: str | Path | None = None) -> str:
    """The path of the experiment binary that :func:`run`, :func:`exact`
    and :func:`count` call: ``binary`` if given, else ``$KNIGHTWALK_BIN``,
    else the binary this package carries (a wheel built with Go), else
    ``experiment`` on PATH. ``$KNIGHTWALK_BIN`` comes first because it is
    a choice made for this session (a binary just built, or one that
    registers rules of its own); the carried binary before PATH because it
    is the one built with this package's version, where an ``experiment``
    on PATH may be an older install or another program of that name.
    :func:`binary_info` says which of the four it is."""
    return _locate(binary)[0]


def binary_info(binary: str | Path | None = None) -> dict[str, str]:
    """Which binary the package runs: ``path``, ``source`` (``binary=``,
    ``KNIGHTWALK_BIN``, ``bundled`` or ``PATH``; see :func:`find_binary`)
    and ``version`` (:func:`binary_version`), with ``package_version``,
    this package's version, which a bundled binary always equals."""
    from . import __version__

    path, source = _locate(binary)
    return {"path": path, "source": source, "version": binary_version(path), "package_version": __version__}


_versions: dict[str, str] = {}


def binary_version(binary: str | Path | None = None) -> str:
    """The tool version of the experiment binary (``experiment version``'s
    first line, ``experiment 0.1.0``); refuses a program that is not it."""
    path = find_binary(binary)
    if path not in _versions:
        try:
            r = subprocess.run([path, "version"], capture_output=True, text=True, timeout=60)
        except OSError as err:
            raise RuntimeError(f"{path}: cannot run it ({err}); expected the knightwalk experiment binary") from err
        first = (r.stdout.splitlines() or [""])[0].split()
        if r.returncode != 0 or len(first) != 2 or first[0] != "experiment":
            raise RuntimeError(f"{path} is not the knightwalk experiment binary: `{path} version` exited {r.returncode} "
                               f"and printed {r.stdout.strip()[:80]!r}, not 'experiment <version>'")
        _versions[path] = first[1]
    return _versions[path]


def _call(args: Sequence[str], binary: str | Path | None) -> None:
    binary_version(binary)
    cmd = [find_binary(binary), *args]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {r.returncode}):\n{r.stderr.strip()}")


def run(experiment: str | Path, out: str | Path, backend: Backend = "pandas", *,
        binary: str | Path | None = None, args: Sequence[str] = ()) -> dict[str, Any]:
    """Run ``experiment`` (a file, a committed name, or a result's
    manifest.json) into ``out`` with ``experiment run --quiet`` and return
    its tables as :func:`load` does. ``args`` are further flags
    (``["--workers", "4"]``, ``["--force"]``)."""
    _call(["run", str(experiment), "--out", str(out), "--quiet", *args], binary)
    return load(out, backend)


def _rule_of_like(like: Any, rule: str, tie_break: str | None) -> dict[str, Any] | None:
    """The parameters (tie_break, max_steps, order) with which ``like`` ran
    ``rule``: from a result directory's configuration, or a loaded frame's
    parameter columns; None where like does not hold the rule."""
    name = f"{rule}/{tie_break}" if tie_break and rule == "warnsdorff" else rule
    found: list[dict[str, Any]] = []
    if isinstance(like, (str, Path)):
        for r in metadata(like)["config"]["rules"]:
            if r["name"] == name or r["name"] == rule:
                found.append({"name": r["name"], "tie_break": r.get("tie_break") or None,
                              "max_steps": r.get("max_steps") or None, "order": r.get("order") or None})
    else:
        frames = list(like.values()) if isinstance(like, Mapping) else [like]
        for df in frames:
            cols = list(df.columns)
            if "rule" not in cols or "rule_spec" not in cols:
                continue
            if type(df).__module__.startswith("polars"):
                rows = df.select([c for c in ("rule", "tie_break", "max_steps", "move_order") if c in cols]).unique().to_dicts()
            else:
                sub = df[[c for c in ("rule", "tie_break", "max_steps", "move_order") if c in cols]].astype(object)
                rows = sub.where(sub.notna(), None).drop_duplicates().to_dict("records")
            for r in rows:
                if str(r["rule"]) in (name, rule):
                    found.append({"name": str(r["rule"]), "tie_break": r.get("tie_break"),
                                  "max_steps": r.get("max_steps"), "order": r.get("move_order")})
    uniq = {tuple(sorted((k, str(v)) for k, v in f.items())): f for f in found}
    if len(uniq) > 1:
        raise ValueError(f"like holds rule {name!r} with different parameters ({list(uniq.values())}): "
                         "give max_steps= and order= yourself")
    return next(iter(uniq.values()), None)


def exact(board: str, rule: str = "warnsdorff", tie_break: str | None = None, backend: Backend = "pandas", *,
          start: str | None = None, like: Any = None, max_steps: int | None = None, order: str | None = None,
          binary: str | Path | None = None, args: Sequence[str] = ()) -> Any:
    """Exact values per start square from ``experiment exact --format parquet``.

    The key columns (board, rule, rule_spec, start, start_class, tie_break,
    ...) have the result tables' names and types. ``like`` (a result
    directory, a loaded data frame, or the dict :func:`load` returns) gives
    the category levels to share, so the frame joins those tables with no
    cast (polars joins only Enums of equal levels), and the parameters with
    which it ran ``rule``: its ``max_steps`` and move ``order`` are passed
    on unless given here, so the exact ``rule_spec`` is the run's and
    ``sq.merge(exact("3x4", "random", like=sq), on=["board", "rule_spec",
    "start"])`` matches row for row. ``max_steps`` and ``order`` set them
    yourself. The binary must be the experiment binary writing this
    package's schema version; a version other than the one that wrote
    ``like`` is warned about.
    """
    flags = ["exact", "--board", board, "--rule", rule, "--format", "parquet"]
    if like is not None and not isinstance(like, (str, Path, Mapping)) and not hasattr(like, "columns"):
        raise TypeError(f"like: {type(like).__name__} is not a pandas or polars data frame, a dict of them or a result directory")
    inherited = _rule_of_like(like, rule, tie_break) if like is not None else None
    if inherited is not None:
        if max_steps is None:
            max_steps = inherited["max_steps"]
        if order is None and inherited["order"] and (tie_break or inherited["tie_break"] or "").endswith("first"):
            order = inherited["order"]
        if tie_break is None and rule == "backtrack":
            tie_break = inherited["tie_break"]
    if tie_break:
        flags += ["--tie-break", tie_break]
    if max_steps:
        flags += ["--max-steps", str(int(max_steps))]
    if order:
        flags += ["--order", str(order)]
    if start:
        flags += ["--start", start]
    with tempfile.TemporaryDirectory(prefix="knightwalk-exact-") as tmp:
        path = Path(tmp) / "exact.parquet"
        _call([*flags, "--out", str(path), *args], binary)
        return _with_like(path, "exact", like, backend)


def count(board: str, backend: Backend = "pandas", *, closed: bool = False, unique: bool = False,
          start: str | None = None, like: Any = None, binary: str | Path | None = None,
          args: Sequence[str] = ()) -> Any:
    """Exact numbers of knight's tours from ``experiment count --format
    parquet`` (the counts table of docs/tables.md): open tours per start
    square and in total, ``closed=True`` closed ones, ``unique=True`` up to
    the board's symmetries. ``like`` shares the board levels of a result
    (directory, frame or dict of frames), so it joins on ``board`` and
    ``start`` with no cast. ``args`` are further flags (``["--method",
    "frontier"]``)."""
    flags = ["count", "--board", board, "--format", "parquet"]
    if closed:
        flags.append("--closed")
    if unique:
        flags.append("--unique")
    if start:
        flags += ["--start", start]
    with tempfile.TemporaryDirectory(prefix="knightwalk-count-") as tmp:
        path = Path(tmp) / "counts.parquet"
        _call([*flags, "--out", str(path), *args], binary)
        return _with_like(path, "counts", like, backend)


def _with_like(path: Path, table: str, like: Any, backend: Backend) -> Any:
    """The table the binary wrote at path, checked, with like's levels."""
    try:
        md = _check_file(path, table)
    except FileNotFoundError as err:
        raise RuntimeError(f"the experiment binary exited 0 but wrote no {table} table at {path}") from err
    base = None
    like_md: Mapping[str, Any] | None = None
    if isinstance(like, (str, Path)):
        d = _result_dir(like)
        t = load(d, backend, extra={table: path})
        like_md = t["squares"].attrs.get("metadata") if backend == "pandas" and "squares" in t else None
        if like_md is None:
            like_md = next(iter(metadata(d)["table_metadata"].values()), None)
        _warn_version(md, like_md)
        return t[table]
    if like is not None:
        base = frame_levels(like)
        frames = list(like.values()) if isinstance(like, Mapping) else [like]
        like_md = next((f.attrs.get("metadata") for f in frames if hasattr(f, "attrs") and f.attrs.get("metadata")), None)
        _warn_version(md, like_md)
    return _assemble({table: [_Part(pq.read_table(path), table, None, md)]}, backend, base)[table]


def _warn_version(md: Mapping[str, Any], like_md: Mapping[str, Any] | None) -> None:
    if like_md and like_md.get("tool_version") and md.get("tool_version") != like_md.get("tool_version"):
        warnings.warn(f"the experiment binary is version {md.get('tool_version')}, but like was written by "
                      f"{like_md.get('tool_version')}: compare the rule_spec and values with care", stacklevel=3)
