"""The notebook and its paired script hold the same cells."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_ipynb_matches_py():
    r = subprocess.run([sys.executable, str(HERE / "py2ipynb.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, f"analysis.ipynb is stale: run python3 notebooks/python/py2ipynb.py\n{r.stdout}{r.stderr}"


def test_stale_notebook_detected(tmp_path):
    """--check fails on a notebook that differs from the script."""
    import shutil
    for name in ["py2ipynb.py", "analysis.py", "analysis.ipynb"]:
        shutil.copy(HERE / name, tmp_path / name)
    with open(tmp_path / "analysis.py", "a") as f:
        f.write("\n# %%\nprint('a cell the notebook lacks')\n")
    r = subprocess.run([sys.executable, str(tmp_path / "py2ipynb.py"), "--check"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode != 0
