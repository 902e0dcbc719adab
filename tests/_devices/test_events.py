"""Events across devices (issue 17, item 7), checked by what is waited on, not by timing:
launching work on an asynchronous device (opencl, vulkan, cuda) waits for nothing, so the
cpu device computes while it runs; a copy from such a device waits for the event of the
buffer it copies, not for the device's later work nor for the whole device."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._devices import registry
from zyxarray._lazy.realize import realize


def _async_devices() -> list[str]:
    return [n for n, d in registry.devices().items() if d.info.style == "threads"]


@pytest.fixture(params=_async_devices() or [None])
def gpu(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Any:
    if request.param is None:
        pytest.skip("no asynchronous device here")
    dev = registry.get(request.param)
    waits: list[Any] = []
    node = (xp.asarray(np.ones(8, np.float32), device=dev) * 3)._node
    realize(node)
    event_type = type(node.buffer.ready)           # (this device's kind of event)
    original = event_type.wait

    def recording(self: Any) -> None:
        waits.append(self)
        original(self)

    monkeypatch.setattr(event_type, "wait", recording)

    def no_sync() -> None:
        raise AssertionError(f"{dev.name} was synchronized")

    monkeypatch.setattr(dev, "synchronize", no_sync)
    return dev, waits


def test_launching_waits_for_nothing_so_the_cpu_computes_meanwhile(gpu: Any) -> None:
    dev, waits = gpu
    a = xp.asarray(np.arange(1 << 20, dtype=np.float32), device=dev)
    np.asarray(a[:1])                                # (the upload has landed)
    waits.clear()
    heavy = xp.sum(xp.sin(a) * xp.cos(a) + a * 0.5)
    realize(heavy._node)                             # queued on the device
    assert waits == []
    on_cpu = xp.sum(xp.arange(1000.0, device="cpu") * 2)
    assert float(on_cpu) == 999000.0                  # the cpu computes, nothing waited
    assert waits == []
    host_a = np.arange(1 << 20, dtype=np.float32)
    want = np.sum(np.sin(host_a) * np.cos(host_a) + host_a * np.float32(0.5))
    np.testing.assert_allclose(float(heavy), want, rtol=1e-3)   # (the read waits, its way)


def test_a_copy_waits_only_for_its_producer(gpu: Any) -> None:
    dev, waits = gpu
    a = xp.asarray(np.arange(1 << 16, dtype=np.float32), device=dev)
    produced = a * 2
    realize(produced._node)
    later = xp.sum(xp.sin(a) * xp.cos(a))              # queued after the producer
    realize(later._node)
    theirs = later._node.base().buffer.ready
    moved = produced.to_device("cpu")
    # (the copy waits for the producer's event, on the host or, on cuda, on the device's
    # read stream; never for the later work, nor for the device)
    np.testing.assert_array_equal(np.asarray(moved), np.arange(1 << 16, dtype=np.float32) * 2)
    assert not any(w is theirs for w in waits)
