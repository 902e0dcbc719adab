"""Autotuning (``_lazy/tune.py``): with ZYXARRAY_TUNE=1 a new GPU kernel structure has its
work-group size measured, the choice is kept on disk, and a later process uses it without
measuring. Timings decide the choice, so the tests check the mechanism, not which size wins."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._devices import registry
from zyxarray._lazy import tune

_PROGRAM = """
import json, sys
import numpy as np
import zyxarray as xp
from zyxarray._lazy.lower import canonicalize
from zyxarray._lazy.schedule import schedule
h = np.random.default_rng(0).standard_normal((64, 700)).astype(np.float32)
x = xp.asarray(h, device=sys.argv[1])
y = xp.var(x * 2, axis=1)
ok = bool(np.allclose(np.asarray(y), (h * 2).var(axis=1), rtol=1e-4))
(plan,) = schedule([xp.var(x * 2, axis=1)._node])       # (the same structure again)
c = canonicalize(plan, x.device.info)
print(json.dumps({"strategy": c.strategy, "lanes": c.lanes, "ok": ok}))
"""


def _run(device: str, cache: Path, tune_on: bool) -> dict:
    env = dict(os.environ, ZYXARRAY_CACHE_DIR=str(cache), ZYXARRAY_TUNE="1" if tune_on else "0",
               ZYXARRAY_DEBUG="tune")
    done = subprocess.run([sys.executable, "-c", _PROGRAM, device], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["log"] = done.stderr
    return result


def test_a_tuned_choice_is_measured_once_and_kept_for_later_processes(
        device: str, tmp_path: Path) -> None:
    info = registry.get(device).info
    if info.style != "threads":
        pytest.skip("only thread-style (GPU) kernels are tuned")
    first = _run(device, tmp_path, tune_on=True)
    assert first["ok"] and first["strategy"] == "g_row"
    tried = [line for line in first["log"].splitlines() if "items/group" in line]
    sizes = tune.candidates("g_row", info)
    # every candidate measured (or found too large for the kernel), then the choice
    assert len(tried) == len(sizes) + 1 and "chose" in tried[-1], first["log"]
    (table_file,) = (tmp_path / "tune").glob("*.json")
    table = json.loads(table_file.read_text())
    assert list(table.values()) == [int(tried[-1].split("chose ")[1].split()[0])]
    # the canonical form seen after tuning in the first process is the choice
    assert first["lanes"] == next(iter(table.values()))
    # a later process, tuning off, uses the choice and measures nothing
    second = _run(device, tmp_path, tune_on=False)
    assert second["ok"] and second["lanes"] == first["lanes"]
    assert "items/group" not in second["log"]
    # and with tuning on, a structure already measured is not measured again
    third = _run(device, tmp_path, tune_on=True)
    assert third["lanes"] == first["lanes"] and "items/group" not in third["log"]


def test_candidates_fit_the_device_and_strategy(device: str) -> None:
    info = registry.get(device).info
    if info.style != "threads":
        pytest.skip("only thread-style (GPU) kernels are tuned")
    for strategy in ("g_row", "g_tile", "g_scan", "g_column"):
        sizes = tune.candidates(strategy, info)
        assert sizes and all(n <= max(info.max_work_group, 1) for n in sizes)
        assert all(n & (n - 1) == 0 for n in sizes)
        if strategy == "g_tile":
            assert min(sizes) >= 128


def test_tuning_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ZYXARRAY_TUNE", raising=False)
    assert not tune.enabled()
    monkeypatch.setenv("ZYXARRAY_TUNE", "1")
    assert tune.enabled()
    x = xp.asarray(np.ones(3))
    assert float(xp.sum(x)) == 3.0


def test_each_candidate_runs_its_own_kernel(device: str, monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    """Every candidate is compiled with its group size (a kernel cached for the plan must
    not stand in for another size), and the chosen one is what later runs launch."""
    from zyxarray._lazy import realize
    from zyxarray._lazy.lower import canonicalize
    from zyxarray._lazy.schedule import schedule
    info = registry.get(device).info
    if info.style != "threads":
        pytest.skip("only thread-style (GPU) kernels are tuned")
    monkeypatch.setenv("ZYXARRAY_TUNE", "1")
    monkeypatch.setenv("ZYXARRAY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(tune, "_tables", {})
    h = np.random.default_rng(5).standard_normal((37, 999)).astype(np.float32)
    x = xp.asarray(h, device=device)
    before = realize.stats["compiles"]
    got = np.asarray(xp.sum(xp.sin(x) * 3, axis=1))
    np.testing.assert_allclose(got, (np.sin(h) * 3).sum(axis=1), rtol=1e-4, atol=1e-4)
    assert realize.stats["compiles"] - before <= len(tune.candidates("g_row", info))
    assert realize.stats["compiles"] - before >= 2
    (plan,) = schedule([xp.sum(xp.sin(x) * 3, axis=1)._node])
    c = canonicalize(plan, info)
    assert c.lanes == next(iter(tune._tables.values()))[tune.structure(c.key)]
    assert realize._program(c).local_size == c.lanes
