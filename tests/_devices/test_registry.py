"""The device registry and the test suite's device selection."""

from __future__ import annotations

import pytest

from tests import conftest
from zyxarray._devices import registry
from zyxarray._devices.base import Device


def test_cpu_and_reference_are_found() -> None:
    devices = registry.devices()
    assert "reference" in devices, "the reference device needs only NumPy"
    for name, dev in devices.items():
        assert isinstance(dev, Device) and dev.name == name == dev.info.name
        assert registry.get(name) is dev
        assert registry.get(dev) is dev
        assert registry.get(name.upper()) is dev
    assert isinstance(registry.skipped(), list)


def test_unknown_device_lists_the_available_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown device.*reference"):
        registry.get("quantum:3")


def test_default_device_is_a_found_device() -> None:
    assert registry.default() in registry.devices().values()


def test_device_info_is_truthful(device: str) -> None:
    info = registry.get(device).info
    assert info.kind == device.split(":")[0]
    assert info.language in ("c", "ir", "opencl", "cuda", "hip", "spirv")
    assert info.style in ("loops", "threads")
    assert info.simd_lanes >= 1 and info.compute_units >= 1


def test_test_devices_narrowing(monkeypatch: pytest.MonkeyPatch) -> None:
    names = list(registry.devices())
    monkeypatch.delenv("ZYXARRAY_TEST_DEVICES", raising=False)
    assert conftest.selected_devices() == names
    monkeypatch.setenv("ZYXARRAY_TEST_DEVICES", "reference")
    assert conftest.selected_devices() == ["reference"]
    monkeypatch.setenv("ZYXARRAY_TEST_DEVICES", " Reference , nonexistent ")
    assert conftest.selected_devices() == ["reference"]
    monkeypatch.setenv("ZYXARRAY_TEST_DEVICES", "nonexistent")
    with pytest.raises(pytest.UsageError):
        conftest.selected_devices()


def test_device_fixture_ids(request: pytest.FixtureRequest, device: str) -> None:
    assert f"[{device}]" in request.node.nodeid
