"""Memory on every device: ``xp.memory_info`` (in use, cached, peak, limit), and running out
of memory under a limit (what the config's ``memory_limit`` sets: the pool's capacity):
cached blocks are freed and unreferenced arrays collected before giving up, the MemoryError
names the size and the device, and a thousand of them in a row leak nothing."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._devices import registry


@pytest.fixture
def limited(device: str, monkeypatch: pytest.MonkeyPatch) -> str:
    pool = registry.get(device).pool
    gc.collect()
    pool.drop_cache()
    monkeypatch.setattr(pool, "capacity", pool.in_use + (4 << 20))     # 4 MiB more
    return device


def _make(device: str, n: int) -> xp.Array:
    """A realized array of n float32 values (a pool allocation on every device)."""
    a = xp.arange(n, dtype=xp.float32, device=device) * 2
    a.tolist() if n < 10 else np.asarray(a)
    return a


def test_memory_info(device: str) -> None:
    info = xp.memory_info(device)
    assert info["device"] == registry.get(device).name
    assert set(info) == {"device", "in_use", "cached", "peak", "limit"}
    a = _make(device, 1 << 18)                       # 1 MiB
    after = xp.memory_info(device)
    assert after["in_use"] >= 1 << 20 and after["peak"] >= after["in_use"]
    del a
    registry.get(device).synchronize()     # (a device may hold a buffer until its work ends)
    gc.collect()
    assert xp.memory_info(device)["in_use"] <= after["in_use"] - (1 << 20)


def test_out_of_memory_names_size_and_device(limited: str) -> None:
    with pytest.raises(MemoryError, match=rf"cannot allocate 8\.0 MiB on device {limited}"):
        _make(limited, 2 << 20)                      # 8 MiB past a 4 MiB limit


def test_cached_and_unreferenced_memory_is_recovered(limited: str) -> None:
    pool = registry.get(limited).pool
    a = _make(limited, 1 << 19)                      # 2 MiB, then cached when freed
    del a
    gc.collect()
    cycle: list = []
    b = _make(limited, 1 << 19)                      # 2 MiB held only by a reference cycle
    cycle.append(cycle)
    cycle.append(b)
    del b, cycle
    c = _make(limited, (3 << 20) // 4)               # 3 MiB: needs the cache and the cycle
    assert c.shape == (3 << 18,) and pool.in_use <= pool.capacity


def test_a_thousand_failures_leak_nothing(limited: str) -> None:
    pool = registry.get(limited).pool
    keep = _make(limited, 1 << 18)
    baseline = pool.in_use
    for _ in range(1000):
        with pytest.raises(MemoryError):
            pool.allocate(16 << 20)
    assert pool.in_use == baseline
    np.testing.assert_array_equal(np.asarray(keep)[:3], [0, 2, 4])
    assert _make(limited, 1 << 18).shape == (1 << 18,)    # and it still allocates


def test_free_memory(device: str) -> None:
    """What ``device="auto"`` weighs: the runtime's free bytes on cuda, the pool's elsewhere;
    within the device's size either way."""
    dev = registry.get(device)
    free = dev.free_memory()
    assert 0 <= free <= max(dev.pool.capacity, free)
    if dev.info.kind != "cuda":
        assert free == max(dev.pool.capacity - dev.pool.in_use, 0)
    else:
        assert free <= dev.info.total_memory
