"""One device per call: every public function refuses arrays on different devices, with the
same error, before any work.

Layer: ``_api``. ``zyxarray/__init__.py``, ``linalg.py`` and ``fft.py`` pass their public
functions through ``check_namespace`` once, at import: each becomes a thin wrapper that looks
at the arrays among its arguments (positional, keyword, and inside lists and tuples, as
``concat([x, y])`` and ``einsum("ij,jk", x, y)`` take them) and raises ``ValueError`` naming
the function and the devices when they differ. The functions that exist to move data between
devices or that only read dtypes are left alone (``UNCHECKED``).

The operators (``x + y``, ``x @ y``, ``x[i] = y``) reach the same check through the functions
they call (``device_of`` in the elementwise module, ``matmul``, the indexing code).
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

from ._array_object import Array

#: public functions that take arrays on several devices on purpose, or never compute with
#: their arrays' data (dtype and shape queries, writers of files, interop)
UNCHECKED = frozenset({
    "asarray", "array", "asanyarray", "ascontiguousarray", "asfortranarray", "from_dlpack",
    "result_type", "can_cast", "isdtype", "finfo", "iinfo", "broadcast_shapes", "shape",
    "ndim", "size", "save", "savez", "savez_compressed", "savetxt", "min_scalar_type",
    "common_type", "iscomplexobj", "isrealobj", "isscalar", "may_share_memory",
    "shares_memory", "get_include", "set_printoptions", "get_printoptions", "printoptions",
})


def mixed_devices(name: str, devices: set[Any]) -> ValueError:
    """The error for a call ``name`` given arrays on ``devices`` (more than one)."""
    return ValueError(f"{name}: arrays are on different devices "
                      f"({', '.join(sorted(d.name for d in devices))}); move them with "
                      "to_device first")


def _devices_in(values: Any, found: set[Any]) -> None:
    for v in values:
        if isinstance(v, Array):
            found.add(v.device)
        elif type(v) in (list, tuple):
            for w in v:
                if isinstance(w, Array):
                    found.add(w.device)


def checked(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` refusing arrays on different devices (``name``: the public name)."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if len(args) + len(kwargs) > 1 or (args and type(args[0]) in (list, tuple)):
            found: set[Any] = set()
            _devices_in(args, found)
            if kwargs:
                _devices_in(kwargs.values(), found)
            if len(found) > 1:
                raise mixed_devices(name, found)
        return fn(*args, **kwargs)

    call.__zyx_device_checked__ = True  # type: ignore[attr-defined]
    return call


_wrapped: dict[Callable[..., Any], Callable[..., Any]] = {}   # one wrapper per function


def check_namespace(namespace: dict[str, Any], names: list[str]) -> None:
    """Wrap each public function of ``namespace`` listed in ``names`` (not ``UNCHECKED``).
    A function exported under several names (``concat``, ``concatenate``; ``xp.matmul``,
    ``xp.linalg.matmul``) keeps one wrapper, named after the function."""
    for name in names:
        fn = namespace.get(name)
        if not isinstance(fn, types.FunctionType) or name in UNCHECKED or \
                fn.__name__ in UNCHECKED or getattr(fn, "__zyx_device_checked__", False):
            continue
        if fn not in _wrapped:
            _wrapped[fn] = checked(fn, fn.__name__)
        namespace[name] = _wrapped[fn]
