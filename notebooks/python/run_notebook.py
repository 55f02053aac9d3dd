"""Execute analysis.ipynb headless with nbclient; any cell error fails, and
so does an executed notebook without figures (image/png outputs).

    python notebooks/python/run_notebook.py RESULT_DIR [OUT.ipynb]

Runs the notebook in its own directory (as Jupyter would) with
KNIGHTWALK_RESULTS set to RESULT_DIR, and optionally saves the executed
notebook. Exit status 1 on a cell error, naming the cell, or when no code
cell shows an image/png (the notebook displays each saved figure; under
MPLBACKEND=Agg plt.show() alone would show none).
"""

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

HERE = Path(__file__).resolve().parent
# the heatmap, the class comparison, the size curve and the length
# distribution: drawn for any result directory
MIN_FIGURES = 4


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    results = Path(argv[1]).resolve()
    if not results.is_dir():
        print(f"run_notebook: {results} is not a directory", file=sys.stderr)
        return 2
    os.environ["KNIGHTWALK_RESULTS"] = str(results)
    nb = nbformat.read(HERE / "analysis.ipynb", as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(HERE)}})
    try:
        client.execute()
    except CellExecutionError as err:
        print(f"run_notebook: a cell failed on {results}:\n{err}", file=sys.stderr)
        return 1
    finally:
        if len(argv) == 3:
            nbformat.write(nb, argv[2])
    cells = sum(c.cell_type == "code" for c in nb.cells)
    images = sum("image/png" in out.get("data", {}) for c in nb.cells if c.cell_type == "code"
                 for out in c.get("outputs", []))
    print(f"run_notebook: {cells} code cells ran without error on {results}; {images} image/png outputs")
    # a sieve writes the sieve table alone, and the notebook draws one
    # figure a stage from it (section 2b)
    want = 1 if (results / "sieve.parquet").exists() else MIN_FIGURES
    if images < want:
        print(f"run_notebook: want at least {want} figures (image/png outputs), got {images}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
