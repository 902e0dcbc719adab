"""explain() shows the kernel plan without running it; debug topics print to stderr, from the
``with xp.debug(...)`` context manager or from ZYXARRAY_DEBUG."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import child_env
from zyxarray._lazy import realize

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.usefixtures("kernels_only")   # (small cpu results are not computed now)
def test_explain_describes_without_running(device: str) -> None:
    x = xp.asarray(np.arange(6.0).reshape(2, 3), device=device)
    y = xp.exp(x) * 2 + 1
    launches = realize.stats["kernels"]
    plan = xp.explain(y)
    assert len(plan) == 1
    k = plan[0]
    assert k.device == device
    assert isinstance(k.source, str) and k.source
    assert isinstance(k.strategy, str) and k.strategy
    assert "kernel" in str(plan) and k.source in str(plan)
    assert list(plan) == plan.kernels
    assert realize.stats["kernels"] == launches, "explain must not launch kernels"
    assert len(xp.explain(y)) == 1, "explain must not realize"
    np.testing.assert_allclose(np.asarray(y), np.exp(np.arange(6.0).reshape(2, 3)) * 2 + 1)
    assert len(xp.explain(y)) == 0
    assert "nothing to run" in str(xp.explain(y))


@pytest.mark.usefixtures("kernels_only")   # (small cpu results are not computed now)
def test_explain_several_arrays(device: str) -> None:
    x = xp.asarray(np.ones((4, 4)), device=device)
    a, b = x + 1, xp.sum(x * 3, axis=0)
    assert len(xp.explain(a, b)) == 2
    assert len(xp.explain(a, a)) == 1


def _unique_chain(x: xp.Array) -> xp.Array:
    # an op sequence no other test builds, so its kernel is compiled (and logged) here
    return xp.nextafter(xp.copysign(xp.hypot(x, x + 0.5), -x), xp.atan(x) * 0.25)


def test_debug_context_prints_topics(device: str, capsys: pytest.CaptureFixture[str]) -> None:
    x = xp.asarray(np.linspace(0, 1, 5, dtype=np.float32).reshape(5, 1)[::-1], device=device)
    capsys.readouterr()
    with xp.debug("schedule", "source"):
        np.asarray(_unique_chain(x))
    err = capsys.readouterr().err
    assert "[zyxarray:schedule]" in err
    assert "[zyxarray:source]" in err
    # outside the block nothing is printed
    np.asarray(_unique_chain(x) + 1)
    assert "[zyxarray:" not in capsys.readouterr().err


def test_debug_context_restores_previous_topics(capsys: pytest.CaptureFixture[str]) -> None:
    from zyxarray import _debug
    with xp.debug("launch"):
        with xp.debug("launch", "memory"):
            assert _debug.enabled("memory")
        assert _debug.enabled("launch") and not _debug.enabled("memory")
    assert not _debug.enabled("launch")


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = child_env(ROOT, **env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=full, cwd=ROOT, timeout=120)


def test_debug_environment_variable() -> None:
    code = ("import numpy as np, zyxarray as xp\n"
            "x = xp.asarray(np.arange(4.0))\n"
            "print(float(xp.sum(x * 2)))\n")
    out = _run(code, ZYXARRAY_DEBUG="schedule,graph", ZYXARRAY_NOW_MAX="0")   # (kernels)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "12.0"
    assert "[zyxarray:schedule]" in out.stderr
    assert "[zyxarray:graph]" in out.stderr
    assert "[zyxarray:source]" not in out.stderr
    quiet = _run(code)
    assert "[zyxarray:" not in quiet.stderr
    unknown = _run(code, ZYXARRAY_DEBUG="schedul")
    assert "ZYXARRAY_DEBUG: unknown topics" in unknown.stderr and "schedule" in unknown.stderr
