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
