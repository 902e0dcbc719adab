"""Long-running programs keep their memory flat: a training-style loop of lazy operations
with periodic reads, and many allocations and frees of large arrays, on every device
(measured by the device pool's statistics, and on cpu by the process's RSS too)."""

from __future__ import annotations

import gc

import numpy as np

import zyxarray as xp


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def test_a_lazy_training_loop_keeps_memory_flat(device: str) -> None:
    """10^5 lazy operations on cpu (10 per step; half as many elsewhere), a read every 100
    steps: after a warm-up, neither the pool nor (on cpu) the RSS grows."""
    rng = np.random.default_rng(0)
    x = xp.asarray(rng.standard_normal((64, 16)).astype(np.float32), device=device)
    w = xp.zeros(16, dtype=xp.float32, device=device)
    pool = xp.Device(device).pool
    marks = []
    steps = 10_000 if device == "cpu" else 5_000
    for step in range(steps):
        g = x.T @ (x @ w - 1.0) * 0.001
        w = xp.clip(w - g * 0.5, -10.0, 10.0)
        if step % 100 == 99:
            assert np.isfinite(float(w[0]))
        if step in (2_000, steps - 1):
            xp.Device(device).synchronize()
            gc.collect()
            marks.append((pool.in_use, _rss_mib()))
    (used0, rss0), (used1, rss1) = marks
    assert used1 <= used0 + 4096, f"the pool grew from {used0} to {used1} bytes"
    if device == "cpu":
        assert rss1 - rss0 < 16, f"RSS grew from {rss0:.1f} to {rss1:.1f} MiB"


def test_many_large_allocations_are_given_back(device: str) -> None:
    """10^4 arrays of 1 MiB made, read and dropped on cpu (300 elsewhere, 300 MiB through a
    pool that may cache 64: each costs a launch and a read there, 22 ms on PoCL): the
    pool's bytes in use come back to where they were, and what it caches stays bounded."""
    pool = xp.Device(device).pool
    gc.collect()
    before = pool.in_use
    for i in range(10_000 if device == "cpu" else 300):
        a = xp.full((512, 512), float(i), dtype=xp.float32, device=device) * 2.0
        assert float(a[1, 1]) == 2.0 * i
        del a
    xp.Device(device).synchronize()       # (buffers of work in flight are freed when it ends)
    gc.collect()
    assert pool.in_use <= before + 4096, (before, pool.in_use)
    assert xp.memory_info(device)["cached"] < 64 * 2**20
