"""Reading values back (``realize.to_host``): what a read copies and when the graph it
realized is freed."""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import track_peak
from zyxarray._devices import registry


def _spy(monkeypatch: pytest.MonkeyPatch, device: str) -> list[tuple[int, int | None]]:
    """Record the byte ranges the device's ``copy_out`` is asked for."""
    dev = registry.get(device)
    ranges: list[tuple[int, int | None]] = []
    real = dev.copy_out

    def copy_out(buffer: Any, start: int = 0, stop: int | None = None,
                 while_waiting: Any = None) -> np.ndarray:
        ranges.append((start, stop))
        return real(buffer, start, stop, while_waiting)

    monkeypatch.setattr(dev, "copy_out", copy_out)
    return ranges


@pytest.mark.parametrize("index", [5, -1, slice(10, 20), slice(None, None, 7),
                                   slice(90, 10, -3), (slice(2, 4), slice(None, None, -1)),
                                   (3, slice(1, 9, 2)), (slice(None), 0)])
def test_a_view_reads_only_the_bytes_it_spans(device: str, monkeypatch: pytest.MonkeyPatch,
                                              index: Any) -> None:
    h = np.arange(100, dtype=np.float32)
    shape = (10, 10) if isinstance(index, tuple) else (100,)
    x = xp.asarray(h.reshape(shape), device=device) * 2     # (realized by the read below)
    want = (h.reshape(shape) * 2)[index]
    ranges = _spy(monkeypatch, device)
    got = np.asarray(x[index])
    np.testing.assert_array_equal(got, want)
    if isinstance(index, int) and hasattr(registry.get(device), "host_array"):
        # (one element of a small pending array in host memory: the read computes the array
        # and reads the element from memory, no copy at all)
        assert ranges == []
        return
    (start, stop), = ranges
    assert stop is not None
    span = np.abs(np.arange(100).reshape(shape)[index]).ravel()
    assert (start, stop) == (4 * int(span.min()), 4 * (int(span.max()) + 1))
    np.testing.assert_array_equal(np.asarray(x), h.reshape(shape) * 2)


def test_empty_and_masked_views(device: str) -> None:
    h = np.arange(12.0).reshape(3, 4)
    x = xp.asarray(h, device=device) + 1
    assert np.asarray(x[2:2]).shape == (0, 4)
    assert np.asarray(x[:, 5:]).shape == (3, 0)
    padded = xp.concat([x, x[:1]], axis=0)        # (a masked view of x's buffer)
    np.testing.assert_array_equal(np.asarray(padded[1:]), np.concatenate([h + 1, h[:1] + 1])[1:])


def test_the_realized_graph_is_freed_while_the_copy_is_in_flight(
        device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    dev = registry.get(device)
    x = xp.asarray(np.arange(10.0), device=device)
    y = x
    for _ in range(50):
        y = y * 0.5 + 1.0
    inner = weakref.ref(y._node.srcs[0])
    seen: list[tuple[bool, bool]] = []
    real = dev.copy_out

    def copy_out(buffer: Any, start: int = 0, stop: int | None = None,
                 while_waiting: Any = None) -> np.ndarray:
        def meanwhile() -> None:
            before = inner() is not None
            while_waiting()
            seen.append((before, inner() is None))
        return real(buffer, start, stop, meanwhile)

    monkeypatch.setattr(dev, "copy_out", copy_out)
    want = np.arange(10.0)
    for _ in range(50):
        want = want * 0.5 + 1.0
    np.testing.assert_array_equal(np.asarray(y), want)
    assert seen == [(True, True)], "alive until the copy is queued, freed while it runs"


def test_a_move_to_host_memory_reads_into_the_new_buffer(
        device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``x.to_device("cpu")`` of realized data reads the bytes straight into the cpu
    buffer (one copy; before, a host array then a copy of it)."""
    cpu = registry.get("cpu")
    x = xp.asarray(np.arange(24.0).reshape(4, 6), device=device) * 3
    np.asarray(x)                            # (realized)
    calls: list[int] = []
    real = cpu.copy_in
    monkeypatch.setattr(cpu, "copy_in", lambda buf, data: (calls.append(1), real(buf, data)))
    y = x.to_device("cpu")
    np.testing.assert_array_equal(np.asarray(y), np.arange(24.0).reshape(4, 6) * 3)
    if x.device is not cpu:
        assert not calls
    t = x.T.to_device("cpu")                 # (a view: through the host, as before)
    np.testing.assert_array_equal(np.asarray(t), (np.arange(24.0).reshape(4, 6) * 3).T)


def test_an_intermediate_is_freed_after_the_last_kernel_that_reads_it(
        device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten pending Jacobi steps are ten kernels, each reading the step before. The list of
    plans held every step's output to the end of the realization (ten arrays); each is now
    let go when the next step has read it, so its memory serves a later step while it is
    still in the caches (30 steps on 512 x 512: 7.7 -> 4.8 ms on the cpu device)."""
    dev = registry.get(device)
    pool = getattr(dev, "pool", None)
    if pool is None or dev.info.style != "loops":
        # (a GPU's queue keeps each launch's buffers until the launch has finished)
        pytest.skip(f"{device}: no memory pool, or launches that run after they return")
    h = np.random.default_rng(0).random((40, 40))
    u, expected = xp.asarray(h, device=device), h
    for _ in range(10):
        inner = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        u = xp.concat([u[:1], xp.concat([u[1:-1, :1], inner, u[1:-1, -1:]], axis=1),
                       u[-1:]], axis=0)
        e = 0.25 * (expected[:-2, 1:-1] + expected[2:, 1:-1] + expected[1:-1, :-2]
                    + expected[1:-1, 2:])
        expected = np.concatenate([expected[:1], np.concatenate(
            [expected[1:-1, :1], e, expected[1:-1, -1:]], axis=1), expected[-1:]], axis=0)
    del inner
    assert len(xp.explain(u)) == 10
    start = pool.in_use
    most = track_peak(monkeypatch, pool)
    u.__array__()
    assert most[0] - start <= 3 * h.nbytes, "at most a step, the one it reads, the result"
    np.testing.assert_allclose(np.asarray(u), expected, rtol=1e-12)
