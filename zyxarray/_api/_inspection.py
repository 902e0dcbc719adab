"""``__array_namespace_info__``: what each device supports, truthfully.

Layer: ``_api``.
"""

from __future__ import annotations

from typing import Any

from .._devices import registry
from .._devices.base import Device
from . import _dtypes as dt


class Info:
    """The standard's inspection object."""

    def capabilities(self) -> dict[str, Any]:
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self) -> Device:
        return registry.default()

    def devices(self) -> tuple[Device, ...]:
        return tuple(registry.devices().values())

    def default_dtypes(self, *, device: Any = None) -> dict[str, dt.DType]:
        dev = registry.default() if device is None else registry.get(device)
        f64 = dev.info.float64
        return {"real floating": dt.float64 if f64 else dt.float32,
                "complex floating": dt.complex128 if f64 else dt.complex64,
                "integral": dt.int64, "indexing": dt.int64}

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, dt.DType]:
        from ._data_type_functions import isdtype
        dev = registry.default() if device is None else registry.get(device)
        out = {}
        for d in dt.STANDARD:
            if d in (dt.float64, dt.complex128) and not dev.info.float64:
                continue
            if kind is None or isdtype(d, kind):
                out[d.name] = d
        return out


def __array_namespace_info__() -> Info:
    return Info()
