"""Write analysis.ipynb from its paired percent-format script analysis.py.

The .py is the source: edit it, then run

    python3 notebooks/python/py2ipynb.py            # rewrite the .ipynb
    python3 notebooks/python/py2ipynb.py --check    # exit 1 if it is stale

It needs only the standard library (the json module), and writes an
nbformat 4 notebook with no outputs. jupytext (`jupytext --sync`) produces
the same cells, if you prefer it; `go test ./notebooks` checks that both
files hold the same code.
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "analysis.py"
TARGET = HERE / "analysis.ipynb"

METADATA = {
    "jupytext": {"formats": "ipynb,py:percent"},
    "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
}


def cells(text):
    """Split a percent-format script into (cell_type, source) pairs."""
    lines = text.splitlines()
    if lines and lines[0] == "# ---":  # the jupytext header: not a cell
        end = lines.index("# ---", 1)
        lines = lines[end + 1:]
    out, kind, body = [], None, []

    def flush():
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        if kind is not None:
            out.append((kind, "\n".join(body)))

    for line in lines:
        if line.startswith("# %%"):
            flush()
            kind = "markdown" if "[markdown]" in line else "code"
            body = []
        elif kind is None:
            if line.strip():
                raise ValueError(f"text before the first cell: {line!r}")
        elif kind == "markdown":
            if line == "#":
                body.append("")
            elif line.startswith("# "):
                body.append(line[2:])
            elif not line.strip():
                body.append("")
            else:
                raise ValueError(f"markdown line not commented: {line!r}")
        else:
            body.append(line)
    flush()
    return out


def notebook(text):
    nb_cells = []
    for i, (kind, source) in enumerate(cells(text)):
        cell = {
            "cell_type": kind,
            "id": f"cell-{i:02d}",
            "metadata": {},
            "source": source.splitlines(keepends=True),
        }
        if kind == "code":
            cell["execution_count"] = None
            cell["outputs"] = []
        nb_cells.append(cell)
    return {"cells": nb_cells, "metadata": METADATA, "nbformat": 4, "nbformat_minor": 5}


def main():
    want = json.dumps(notebook(SOURCE.read_text()), indent=1, ensure_ascii=False) + "\n"
    if "--check" in sys.argv[1:]:
        if not TARGET.exists() or TARGET.read_text() != want:
            print(f"{TARGET.name} is stale: run python3 {Path(__file__).name}")
            return 1
        print(f"{TARGET.name} is up to date")
        return 0
    TARGET.write_text(want)
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
