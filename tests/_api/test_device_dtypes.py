"""Devices without float64 (many OpenCL GPUs): float64 is refused with a TypeError that names
the device, default dtypes and ``__array_namespace_info__`` tell the truth about it."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._devices import registry


@pytest.fixture
def no_fp64() -> Iterator[str]:
    """The cpu device under another name, claiming no float64 support."""
    cpu = registry.get("cpu")
    fake = copy.copy(cpu)
    fake.info = dataclasses.replace(cpu.info, name="cpu-nofp64", float64=False)
    registry.add(fake)
    try:
        yield "cpu-nofp64"
    finally:
        registry.remove(fake)


def test_float64_is_refused_naming_the_device(no_fp64: str) -> None:
    for make in (lambda: xp.asarray([1.0], dtype=xp.float64, device=no_fp64),
                 lambda: xp.zeros(3, dtype=xp.complex128, device=no_fp64),
                 lambda: xp.full(2, 1.5, dtype="float64", device=no_fp64),
                 lambda: xp.astype(xp.asarray([1, 2], device=no_fp64), xp.float64)):
        with pytest.raises(TypeError, match="cpu-nofp64"):
            make()


def test_defaults_and_inspection_follow_the_device(no_fp64: str) -> None:
    x = xp.asarray([1.0, 2.0], device=no_fp64)
    assert x.dtype == xp.float32
    assert xp.asarray(np.array([0.5]), device=no_fp64).dtype == xp.float32
    assert xp.full(2, 0.5, device=no_fp64).dtype == xp.float32
    info = xp.__array_namespace_info__()
    assert "float64" not in info.dtypes(device=no_fp64)
    assert "complex128" not in info.dtypes(device=no_fp64)
    assert info.default_dtypes(device=no_fp64)["real floating"] == xp.float32
    np.testing.assert_allclose(np.asarray(xp.sum(x * 2)), 6.0)
