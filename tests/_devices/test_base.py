"""The runtime contract's shared parts: the caching memory pool and buffers."""

from __future__ import annotations

import numpy as np
import pytest

from zyxarray._devices import registry
from zyxarray._devices.base import MemoryPool


def test_pool_reuses_freed_blocks() -> None:
    made: list[int] = []

    def raw_alloc(n: int) -> object:
        made.append(n)
        return object()

    pool = MemoryPool("unit", raw_alloc, lambda h: None, capacity=0)
    h = pool.allocate(100)
    assert pool.in_use == 100
    pool.release(100, h)
    assert pool.in_use == 0 and pool.cached == 100
    assert pool.allocate(100) is h and made == [100], "a freed block of that size is reused"
    pool.allocate(0)
    assert made == [100, 1], "zero-byte buffers still get one byte"


def test_pool_out_of_memory_names_size_and_device() -> None:
    pool = MemoryPool("unit:0", lambda n: object(), lambda h: None, capacity=1000)
    pool.allocate(900)
    with pytest.raises(MemoryError, match=r"unit:0") as info:
        pool.allocate(200)
    assert "200" in str(info.value)

    def failing(n: int) -> object:
        raise MemoryError

    freed: list[object] = []
    pool = MemoryPool("unit:1", failing, freed.append, capacity=0)
    with pytest.raises(MemoryError, match=r"unit:1.*out of memory"):
        pool.allocate(64)


def test_buffers_round_trip(device: str) -> None:
    dev = registry.get(device)
    data = np.arange(10, dtype=np.int32)
    buf = dev.alloc(data.nbytes)
    dev.copy_in(buf, data)
    out = dev.copy_out(buf)
    assert out.dtype == np.uint8 and not out.flags.writeable
    np.testing.assert_array_equal(out[:data.nbytes].view(np.int32), data)
    assert buf.device is dev and buf.nbytes == data.nbytes


def test_copy_out_of_a_byte_range(device: str) -> None:
    """``copy_out(buf, start, stop, while_waiting)`` reads only those bytes and calls
    ``while_waiting`` exactly once, also for an empty range; a range outside the buffer is a
    ValueError naming the device."""
    dev = registry.get(device)
    data = np.arange(1000, dtype=np.int32)
    buf = dev.alloc(data.nbytes)
    dev.copy_in(buf, data)
    calls: list[int] = []
    for start, stop in ((0, None), (8, 12), (4 * 999, None), (40, 40), (0, 4000)):
        out = dev.copy_out(buf, start, stop, lambda: calls.append(1))
        want = data.view(np.uint8)[start:stop]
        assert out.dtype == np.uint8 and not out.flags.writeable
        np.testing.assert_array_equal(out, want)
    assert len(calls) == 5
    for start, stop in ((-4, None), (8, 4), (0, 4004)):
        with pytest.raises(ValueError, match=device):
            dev.copy_out(buf, start, stop)
