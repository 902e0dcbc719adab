"""The docs' examples run: every ```python block of ``docs/*.md`` is executed, each page's
blocks in order in one namespace, in a temporary directory (they write files)."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

DOCS = sorted((Path(__file__).resolve().parents[1] / "docs").glob("*.md"))
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks(page: Path) -> list[str]:
    return BLOCK.findall(page.read_text())


@pytest.mark.parametrize("page", [p for p in DOCS if _blocks(p)], ids=lambda p: p.name)
def test_the_examples_of_a_page_run(page: Path, tmp_path: Path) -> None:
    pytest.importorskip("dask.array")
    namespace: dict = {"__name__": "__docs__"}
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        for i, source in enumerate(_blocks(page)):
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, f"{page.name} block {i + 1}", "exec"), namespace)
    finally:
        os.chdir(old)
