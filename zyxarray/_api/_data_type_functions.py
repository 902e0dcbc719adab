"""Data type functions: astype, can_cast, finfo, iinfo, isdtype, result_type.

Layer: ``_api``.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._lazy import graph as g
from . import _dtypes as dt
from . import _hot
from ._array_object import Array


def astype(x: Array, dtype: Any, /, *, copy: builtins.bool = True, device: Any = None) -> Array:
    """``x`` converted to ``dtype`` (and moved to ``device`` if given)."""
    if not isinstance(x, Array):
        raise TypeError(f"astype: expected an array, got {type(x).__name__}")
    d = dt.to_dtype(dtype, "astype")
    from .._devices import registry
    target = x.device if device is None else registry.get(device)
    if d in (dt.float64, dt.complex128) and not target.info.float64:
        raise TypeError(f"astype: device {target.name} does not support {d.name}")
    out = x if device is None else x.to_device(device)
    if d == out.dtype:
        return Array._new(out._node) if copy else out
    if device is None:
        now = _hot.cast_now(out, d.np)      # (a small array in memory: converted now)
        if now is not None:
            return now
    return Array._new(g.cast(out._node, d.np))


def can_cast(from_: Any, to: Any, /) -> builtins.bool:
    """Whether ``from_`` (a dtype or array) converts to ``to`` without losing values."""
    src = from_.dtype if isinstance(from_, Array) else dt.to_dtype(from_, "can_cast")
    dst = dt.to_dtype(to, "can_cast")
    return builtins.bool(np.can_cast(src.np, dst.np, casting="safe"))


@dataclass(frozen=True)
class finfo_object:
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: dt.DType


@dataclass(frozen=True)
class iinfo_object:
    bits: int
    max: int
    min: int
    dtype: dt.DType


def finfo(type: Any, /) -> finfo_object:
    """Machine limits of a floating-point dtype (of the real component for complex)."""
    d = type.dtype if isinstance(type, Array) else dt.to_dtype(type, "finfo")
    if d not in dt.FLOATING:
        raise TypeError(f"finfo: {d.name} is not a floating-point dtype")
    info = np.finfo(d.np)
    real = dt.from_np(info.dtype)
    return finfo_object(int(info.bits), float(info.eps), float(info.max), float(info.min),
                        float(info.smallest_normal), real)


def iinfo(type: Any, /) -> iinfo_object:
    """Machine limits of an integer dtype."""
    d = type.dtype if isinstance(type, Array) else dt.to_dtype(type, "iinfo")
    if d not in dt.INTEGER:
        raise TypeError(f"iinfo: {d.name} is not an integer dtype")
    info = np.iinfo(d.np)
    return iinfo_object(int(info.bits), int(info.max), int(info.min), d)


_KINDS = {
    "bool": (dt.bool,),
    "signed integer": dt.SIGNED,
    "unsigned integer": dt.UNSIGNED,
    "integral": dt.INTEGER,
    "real floating": dt.REAL_FLOATING,
    "complex floating": dt.COMPLEX_FLOATING,
    "numeric": dt.NUMERIC,
}


def isdtype(dtype: Any, kind: Any) -> builtins.bool:
    """Whether ``dtype`` is of ``kind`` (a kind name, a dtype, or a tuple of them)."""
    if not isinstance(dtype, dt.DType):
        raise TypeError(f"isdtype: expected a zyxarray dtype, got {dtype!r}")
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r}; known: {', '.join(_KINDS)}")
        return dtype in _KINDS[kind]
    return dtype == dt.to_dtype(kind, "isdtype")


def result_type(*arrays_and_dtypes: Any) -> dt.DType:
    """The dtype that combining the arguments gives (Python scalars count weakly)."""
    return dt.result_type_of(*arrays_and_dtypes, where="result_type")
