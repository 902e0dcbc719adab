"""The device registry: discovers runtimes, maps device strings to devices, picks the default.

Layer: ``_devices``. Imports each runtime module; a runtime whose driver or package is
missing contributes no devices and a logged reason, never an import error.

The JSON config file (``_config.py``: its schema and validation) says which kinds and device
ids to use or skip, the default device and per-device memory limits (the pools' capacity).
"""

from __future__ import annotations

import importlib
import threading
import warnings
from typing import Any

from .. import _config, _debug
from .base import Device

#: runtime modules, in the order their devices are listed (``cuda`` is the CuPy runtime: it
#: gives ``cuda:N`` or ``hip:N`` devices, as CuPy is built for CUDA or ROCm)
RUNTIMES = ("cuda", "opencl", "vulkan", "cpu", "reference")
#: every kind of device zyxarray knows (``cuda`` and ``hip`` come from one runtime module)
KNOWN_KINDS = ("cuda", "hip", "opencl", "vulkan", "cpu", "reference")
#: runtimes that exist but offer no device yet, and why (``python -m zyxarray`` says so)
UNDER_CONSTRUCTION: dict[str, str] = {}

_lock = threading.Lock()
_devices: dict[str, Device] | None = None
_skipped: list[str] = []


def _discover() -> dict[str, Device]:
    config = _config.current()
    disabled = set(config.get("disabled"))
    ids = config.get("devices")
    limits = config.get("memory_limit")
    where = config.sources["disabled"].removeprefix("file ")
    found: dict[str, Device] = {}
    for kind in RUNTIMES:
        if kind in disabled:
            _skipped.append(f"{kind}: disabled in {where}")
            continue
        try:
            module = importlib.import_module(f"{__package__}.{kind}")
        except ImportError as e:
            if kind in ("cpu", "reference"):
                raise
            _skipped.append(f"{kind}: runtime not available ({e})")
            continue
        devices, reasons = module.discover()
        _skipped.extend(reasons)
        for dev in devices:
            if dev.name in disabled or dev.info.kind in disabled:
                _skipped.append(f"{dev.name}: disabled in {where}")
                continue
            kind_ids = ids.get(dev.info.kind)
            if kind_ids is not None and getattr(dev, "index", 0) not in kind_ids:
                _skipped.append(f"{dev.name}: not among the {dev.info.kind} ids {kind_ids} of "
                                f"{config.sources['devices'].removeprefix('file ')}")
                continue
            dev.pool.wait_idle = dev.synchronize
            limit = limits.get(dev.name, limits.get(dev.info.kind))
            if limit is not None:      # (the pool refuses past it, as past the device's size)
                dev.pool.capacity = min(limit, dev.pool.capacity or limit)
            found[dev.name] = dev
    _skipped.extend(UNDER_CONSTRUCTION.values())
    for reason in _skipped:
        _debug.log("devices", f"skipped {reason}")
    for dev in found.values():
        _debug.log("devices", f"found {dev.name}: {dev.info.description}")
    if "cpu" not in found:
        warnings.warn("zyxarray: the cpu device is unavailable ("
                      + "; ".join(r for r in _skipped if r.startswith("cpu")) +
                      "); the slow reference device serves instead", RuntimeWarning,
                      stacklevel=3)
    return found


def devices() -> dict[str, Device]:
    """Every usable device, by name, discovered once."""
    global _devices
    if _devices is None:
        with _lock:
            if _devices is None:
                _devices = _discover()
    return _devices


def skipped() -> list[str]:
    """Why each runtime or device that is not in ``devices()`` was skipped."""
    devices()
    return list(_skipped)


def get(name: str | Device) -> Device:
    """The device called ``name`` (``cpu``, ``reference``, ``opencl:0``; ``opencl`` = ``:0``)."""
    if isinstance(name, Device):
        return name
    devs = devices()
    key = str(name).strip().lower()
    if key == "auto":
        return auto()
    if key in devs:
        return devs[key]
    if ":" not in key and f"{key}:0" in devs:
        return devs[f"{key}:0"]
    kind = key.split(":")[0]
    why = [r for r in _skipped if r.split(":")[0].strip().lower() == kind]
    if why or kind in KNOWN_KINDS:
        raise ValueError(f"device {name!r} is not available here: "
                         + ("; ".join(why) if why else f"no {kind} device was found")
                         + f" (available: {', '.join(devs)})")
    raise ValueError(f"unknown device {name!r}; available: {', '.join(devs)}")


_default: Device | None = None
#: ``device="auto"``'s chooser (``_lazy/choose.py`` sets it: the choice runs a kernel, which
#: this layer cannot)
auto_chooser: Any = None


def auto(float64: bool = True) -> Device:
    """The fastest available device for work that needs ``float64`` (or not), measured once
    per device model (see ``_lazy/choose.py``)."""
    if auto_chooser is None:    # (only while zyxarray itself is being imported)
        raise RuntimeError("device 'auto' is not available before zyxarray is imported")
    return auto_chooser(float64)
_context = threading.local()     # .stack: the devices of this thread's ``with device:`` blocks


def push_default(device: Device) -> None:
    """Enter a ``with device:`` block on this thread (``Device.__enter__``)."""
    stack = getattr(_context, "stack", None)
    if stack is None:
        stack = _context.stack = []
    stack.append(device)


def pop_default(device: Device) -> None:
    """Leave the innermost ``with device:`` block of this thread (``Device.__exit__``)."""
    stack = getattr(_context, "stack", None)
    if not stack or stack[-1] is not device:
        raise RuntimeError(f"leaving a 'with {device.name}:' block that is not the innermost "
                           "one on this thread")
    stack.pop()


def default() -> Device:
    """The default device: the innermost ``with device:`` block of this thread, else
    ZYXARRAY_DEVICE, the config's default_device, else ``cpu`` (the C backend works on any
    machine with a C compiler), else the first found."""
    stack = getattr(_context, "stack", None)
    if stack:
        return stack[-1]
    global _default
    if _default is None:
        wanted = _config.get("default_device")     # (ZYXARRAY_DEVICE, else the file's)
        devs = devices()
        if wanted:
            _default = get(wanted)
        else:
            _default = devs["cpu"] if "cpu" in devs else next(iter(devs.values()))
    return _default


def set_default(device: str | Device | None) -> None:
    global _default
    _default = None if device is None else get(device)
