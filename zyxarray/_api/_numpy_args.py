"""Arguments as NumPy takes them: array-likes, ``out=``, the device of mixed arguments.

Layer: ``_api``. Shared by the NumPy-compatible functions (``_numpy_*`` modules), which take
lists, tuples, Python and NumPy scalars and NumPy arrays wherever NumPy does.

- ``as_array(x, device=...)``: ``x`` as an Array; host data goes to ``device`` (the device of
  the call's other arrays, see ``device_for``), arrays stay where they are.
- ``device_for(*args)``: the device of the first Array among ``args`` (None: the default).
- ``write_out(name, out, result)``: NumPy's ``out=``: the result is written into ``out`` (in
  place, seen by every view of ``out``) and ``out`` is returned.
"""

from __future__ import annotations

from typing import Any

from .._devices.base import Device
from ._array_object import Array
from ._creation_functions import asarray


def device_for(*args: Any) -> Device | None:
    """The device of the first Array among ``args`` (lists and tuples of them searched too),
    or None when there is none (host data then goes to the default device)."""
    for a in args:
        if isinstance(a, Array):
            return a.device
        if isinstance(a, (list, tuple)):
            d = device_for(*a)
            if d is not None:
                return d
    return None


def as_array(x: Any, dtype: Any = None, device: Device | None = None) -> Array:
    """``x`` (an Array, NumPy array, list, tuple or scalar) as an Array on ``device`` (or
    the default device); an Array is returned as it is, converted only to ``dtype``."""
    if isinstance(x, Array):
        if dtype is None:
            return x
        return asarray(x, dtype=dtype)
    return asarray(x, dtype=dtype, device=device)


def as_arrays(*xs: Any) -> list[Array]:
    """Each of ``xs`` as an Array, host data on the device of the first Array among them."""
    device = device_for(*xs)
    return [as_array(x, device=device) for x in xs]


def write_out(name: str, out: Any, result: Array) -> Array:
    """``result`` stored into ``out`` (NumPy's ``out=``), which is returned; without ``out``,
    ``result`` itself."""
    if out is None:
        return result
    if isinstance(out, tuple):
        if len(out) != 1:
            raise TypeError(f"{name}: out must be an array or a tuple of one array")
        out = out[0]
    if not isinstance(out, Array):
        raise TypeError(f"{name}: out must be a zyxarray array, got {type(out).__name__}")
    if out.shape != result.shape:
        raise ValueError(f"{name}: out has shape {out.shape}, the result {result.shape}")
    out[...] = result
    return out


class Unsupported:
    """A NumPy name that makes no sense for a device array library (object arrays, datetime
    types...): using it raises a TypeError that says why (the list is in the README, "Names
    zyxarray refuses")."""

    def __init__(self, name: str, why: str) -> None:
        self.name = name
        self.why = why

    def _refuse(self) -> TypeError:
        return TypeError(f"numpy.{self.name} is not supported by zyxarray: {self.why}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise self._refuse()

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise self._refuse()

    def __repr__(self) -> str:
        return f"<unsupported numpy.{self.name}>"
