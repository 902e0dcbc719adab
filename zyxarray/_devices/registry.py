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

_lock = threading.RLock()
_found: dict[str, list[Device]] = {}     # runtime module -> its usable devices, once discovered
_skipped: list[str] = []

#: the runtime module that gives each kind of device
_RUNTIME_OF = {"hip": "cuda"}


def _discover(kind: str) -> list[Device]:
    """The usable devices of one runtime module (discovered once: importing a runtime and
    asking its driver costs time and memory, so a process that only ever uses ``cpu`` never
    loads an OpenCL or Vulkan driver)."""
    with _lock:
        done = _found.get(kind)
        if done is not None:
            return done
        config = _config.current()
        disabled = set(config.get("disabled"))
        ids = config.get("devices")
        limits = config.get("memory_limit")
        where = config.sources["disabled"].removeprefix("file ")
        found: list[Device] = []
        skipped: list[str] = []
        if kind in disabled:
            skipped.append(f"{kind}: disabled in {where}")
        else:
            try:
                module = importlib.import_module(f"{__package__}.{kind}")
            except ImportError as e:
                if kind in ("cpu", "reference"):
                    raise
                module = None
                skipped.append(f"{kind}: runtime not available ({e})")
            if module is not None:
                devices, reasons = module.discover()
                skipped.extend(reasons)
                for dev in devices:
                    if dev.name in disabled or dev.info.kind in disabled:
                        skipped.append(f"{dev.name}: disabled in {where}")
                        continue
                    kind_ids = ids.get(dev.info.kind)
                    if kind_ids is not None and getattr(dev, "index", 0) not in kind_ids:
                        skipped.append(f"{dev.name}: not among the {dev.info.kind} ids "
                                       f"{kind_ids} of "
                                       f"{config.sources['devices'].removeprefix('file ')}")
                        continue
                    dev.pool.wait_idle = dev.synchronize
                    limit = limits.get(dev.name, limits.get(dev.info.kind))
                    if limit is not None:  # (the pool refuses past it, as past the device's size)
                        dev.pool.capacity = min(limit, dev.pool.capacity or limit)
                    found.append(dev)
        _skipped.extend(skipped)
        for reason in skipped:
            _debug.log("devices", f"skipped {reason}")
        for dev in found:
            _debug.log("devices", f"found {dev.name}: {dev.info.description}")
        if kind == "cpu" and not found:
            warnings.warn("zyxarray: the cpu device is unavailable ("
                          + "; ".join(r for r in skipped if r.startswith("cpu")) +
                          "); the slow reference device serves instead", RuntimeWarning,
                          stacklevel=4)
        _found[kind] = found
        return found


#: devices that the program made itself (``add``): test doubles, mostly
_added: dict[str, Device] = {}


def add(device: Device) -> None:
    """Make ``device`` (built by the program, not discovered) usable by its name."""
    _added[device.name] = device


def remove(device: Device) -> None:
    """Undo ``add``."""
    _added.pop(device.name, None)


def devices() -> dict[str, Device]:
    """Every usable device, by name, in ``RUNTIMES`` order (each runtime discovered once),
    then those ``add`` gave."""
    out: dict[str, Device] = {}
    for kind in RUNTIMES:
        for dev in _discover(kind):
            out[dev.name] = dev
    out.update(_added)
    return out


def skipped() -> list[str]:
    """Why each runtime or device that is not in ``devices()`` was skipped."""
    devices()
    return list(_skipped) + list(UNDER_CONSTRUCTION.values())


def get(name: str | Device) -> Device:
    """The device called ``name`` (``cpu``, ``reference``, ``opencl:0``; ``opencl`` = ``:0``).
    Only the runtime of that kind is discovered."""
    if isinstance(name, Device):
        return name
    key = str(name).strip().lower()
    if key == "auto":
        return auto()
    if key in _added:
        return _added[key]
    kind = key.split(":")[0]
    runtime = _RUNTIME_OF.get(kind, kind)
    if runtime in RUNTIMES:
        for dev in _discover(runtime):
            if dev.name == key or (":" not in key and dev.name == f"{key}:0"):
                return dev
    devs = devices()
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
        if wanted:
            _default = get(wanted)
        else:
            cpu = _discover("cpu")
            _default = cpu[0] if cpu else next(iter(devices().values()))
    return _default


def set_default(device: str | Device | None) -> None:
    global _default
    _default = None if device is None else get(device)
