"""``__array_namespace_info__``: what each device supports, truthfully; and ``Device``, the
public name of the devices.

Layer: ``_api``.
"""

from __future__ import annotations

from typing import Any

from .._devices import registry
from .._devices.base import Device as _RuntimeDevice
from . import _dtypes as dt

Device = _RuntimeDevice     # (annotations below)


class _DeviceMeta(type):
    def __call__(cls, name: Any) -> Any:
        return registry.get(name)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, _RuntimeDevice)


class PublicDevice(metaclass=_DeviceMeta):
    """``xp.Device("cuda:0")``: the device of that name, the same object ``x.device`` and
    ``__array_namespace_info__().devices()`` give (``isinstance(x.device, xp.Device)``).

    As a context manager it is the default device of the calling thread for the block:
    creation functions without ``device=`` (``asarray``, ``zeros``, ``arange``, ...) create
    there, as under CuPy's ``with cupy.cuda.Device(1):`` or PyTorch's ``with
    torch.device("cuda"):``, so library code that never passes ``device=`` computes on the
    device the caller chose::

        with xp.Device("cuda:0"):
            model.fit(X, y)          # arrays the library creates land on cuda:0

    Blocks nest; other threads keep their own default. ``default_device()`` of
    ``__array_namespace_info__`` reports the block's device.
    """


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


def memory_info(device: Any = None) -> dict[str, Any]:
    """The memory of ``device`` (the default device if None) as its pool sees it, in bytes:
    ``in_use`` by live arrays' buffers, ``cached`` (freed, kept for reuse), ``peak`` in use,
    ``limit`` (the device's memory or the config's ``memory_limit``; 0: no limit known), and
    ``device``, its name. Past the limit an allocation frees the cache, collects unreferenced
    arrays, retries, then raises ``MemoryError`` naming the size and the device."""
    dev = registry.default() if device is None else registry.get(device)
    return {"device": dev.name, **dev.pool.stats()}
