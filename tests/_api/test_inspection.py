"""__array_namespace_info__ tells the truth about the devices and dtypes."""

from __future__ import annotations

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import DTYPES
from zyxarray._devices import registry


def test_namespace_info(device: str) -> None:
    info = xp.__array_namespace_info__()
    names = [d.name for d in info.devices()]
    assert device in names
    assert info.default_device() is registry.default()
    caps = info.capabilities()
    x = xp.asarray(np.array([3, 1, 2]), device=device)
    if caps["boolean indexing"]:
        np.testing.assert_array_equal(np.asarray(x[x > 1]), [3, 2])
    else:
        with pytest.raises(IndexError):
            x[x > 1]
    if caps["data-dependent shapes"] and hasattr(xp, "nonzero"):
        np.testing.assert_array_equal(np.asarray(xp.nonzero(x > 1)[0]), [0, 2])
    assert caps["max dimensions"] is None or caps["max dimensions"] >= 8
    defaults = info.default_dtypes(device=device)
    assert defaults["integral"] == xp.int64 and defaults["indexing"] == xp.int64
    f64 = registry.get(device).info.float64
    assert defaults["real floating"] == (xp.float64 if f64 else xp.float32)
    all_dtypes = info.dtypes(device=device)
    expected = [d for d in DTYPES if f64 or d not in ("float64", "complex128")]
    assert sorted(all_dtypes) == sorted(expected)
    assert set(info.dtypes(device=device, kind="integral")) == {
        "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
    assert set(info.dtypes(kind=("bool", "complex floating"))) >= {"bool", "complex64"}


# -- the default-device context -------------------------------------------------------------
def test_device_by_name_is_the_array_device() -> None:
    a = xp.asarray([1.0], device="reference")
    assert xp.Device("reference") is a.device and isinstance(a.device, xp.Device)
    assert not isinstance("reference", xp.Device)


def test_a_device_block_is_the_default_for_creation() -> None:
    import threading
    outside = xp.__array_namespace_info__().default_device()
    with xp.Device("reference") as dev:
        assert dev is xp.Device("reference")
        for made in (xp.asarray([1, 2]), xp.zeros(3), xp.arange(4), xp.eye(2),
                     xp.linspace(0, 1, 5), xp.full((2,), 7), xp.asarray(np.ones(2))):
            assert made.device is dev
        assert xp.__array_namespace_info__().default_device() is dev
        seen = []
        t = threading.Thread(target=lambda: seen.append(xp.zeros(1).device))
        t.start()
        t.join()
        assert seen == [outside]                 # other threads keep their own default
        with xp.Device("cpu"):
            assert xp.ones(2).device is xp.Device("cpu")
        assert xp.ones(2).device is dev
        # an input's device still wins over the block's
        assert xp.zeros_like(xp.asarray([1.0], device="cpu")).device is xp.Device("cpu")
    assert xp.zeros(1).device is outside


def test_leaving_blocks_out_of_order_is_an_error() -> None:
    a, b = xp.Device("cpu"), xp.Device("reference")
    a.__enter__()
    b.__enter__()
    try:
        with pytest.raises(RuntimeError, match="not the innermost"):
            a.__exit__(None, None, None)
    finally:
        b.__exit__(None, None, None)
        a.__exit__(None, None, None)


def test_an_unavailable_device_says_why() -> None:
    from zyxarray._devices import registry
    missing = [k for k in ("cuda", "hip", "opencl", "vulkan")
               if not any(n.startswith(k) for n in registry.devices())]
    for kind in missing:
        with pytest.raises(ValueError, match=f"'{kind}:0' is not available here: {kind}"):
            xp.Device(f"{kind}:0")
    with pytest.raises(ValueError, match="unknown device 'tpu:0'; available:"):
        xp.Device("tpu:0")
