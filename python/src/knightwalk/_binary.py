"""Running the experiment binary from Python."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ._tables import Backend, _read, convert, frame_levels, load


def find_binary(binary: str | Path | None = None) -> str:
    """The experiment binary: ``binary`` if given, else ``$KNIGHTWALK_BIN``,
    else ``experiment`` on PATH."""
    candidate = binary or os.environ.get("KNIGHTWALK_BIN")
    if candidate:
        path = shutil.which(str(candidate))
        if path is None:
            raise FileNotFoundError(f"{candidate}: no such executable (from "
                                    f"{'binary=' if binary else 'KNIGHTWALK_BIN'})")
        return path
    path = shutil.which("experiment")
    if path is None:
        raise FileNotFoundError("no experiment binary: put `experiment` on PATH (go install ./cmd/experiment), "
                                "set KNIGHTWALK_BIN, or pass binary=")
    return path


def _call(args: Sequence[str], binary: str | Path | None) -> None:
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


def exact(board: str, rule: str = "warnsdorff", tie_break: str | None = None, backend: Backend = "pandas", *,
          start: str | None = None, like: Any = None, binary: str | Path | None = None,
          args: Sequence[str] = ()) -> Any:
    """Exact values per start square from ``experiment exact --format parquet``.

    The key columns (board, rule, start, start_class, tie_break, ...) have
    the result tables' names and types. ``like`` gives the category levels
    to share: a result directory, a loaded data frame, or the dict
    :func:`load` returns. With it the frame joins those tables with no cast
    (polars joins only Enums of equal levels; pandas keeps categoricals
    only then), e.g. ``sq.merge(exact("8x8", like=sq), on=["board",
    "rule", "start"])``.
    """
    flags = ["exact", "--board", board, "--rule", rule, "--format", "parquet"]
    if tie_break:
        flags += ["--tie-break", tie_break]
    if start:
        flags += ["--start", start]
    with tempfile.TemporaryDirectory(prefix="knightwalk-exact-") as tmp:
        path = Path(tmp) / "exact.parquet"
        _call([*flags, "--out", str(path), *args], binary)
        if isinstance(like, (str, Path)):
            return load(like, backend, extra={"exact": path})["exact"]
        base = frame_levels(like) if like is not None else None
        return convert({"exact": _read(path)}, backend, base)["exact"]
