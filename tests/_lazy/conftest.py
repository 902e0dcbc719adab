"""The lazy machinery's tests (scheduling, fusion, lowering, kernel counts) build their graphs
on small arrays, which the cpu device would otherwise compute at once (``_api/_hot.c``)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _lazy_cpu(kernels_only: None) -> None:
    return None
