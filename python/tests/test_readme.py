"""The documentation's five-line analysis (README tour, docs/python.md, python/README.md) runs as written on results/example."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("readme", ["README.md", "docs/python.md", "python/README.md"])
def test_five_line_analysis(readme: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / readme).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    analysis = next(b for b in blocks if 'kw.load("results/example")' in b)
    assert len(analysis.strip().splitlines()) == 5
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(analysis, readme, "exec"), {})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    for board in ("5x5", "6x6", "7x7"):
        assert board in out
    assert "8x8" not in out and "lo" in out and "hi" in out
