"""NumPy's creation functions beyond the standard: array, copy, asanyarray,
ascontiguousarray, asfortranarray, asarray_chkfinite, identity, logspace, geomspace.

Layer: ``_api``. Each is a thin ``def`` over ``asarray``/``eye`` and graph views.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ._array_object import Array
from ._creation_functions import asarray, eye, linspace
from ._manipulation_functions import reshape


def array(object: Any, dtype: Any = None, *, copy: builtins.bool | None = True,
          order: Any = "K", subok: builtins.bool = False, ndmin: int = 0, like: Any = None,
          device: Any = None) -> Array:
    """NumPy's ``array``: a new array (``copy=True``, the default: later writes to
    ``object`` are not seen), at least ``ndmin`` dimensions (ones prepended). ``device=``
    puts host data on a device; an Array stays on its own unless ``device`` says otherwise."""
    if order not in ("C", "F", "A", "K", None):
        raise ValueError(f"array: order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    if isinstance(object, Array) and copy:
        out = asarray(object, dtype=dtype, device=device, like=like)
        if out is object:
            out = Array._new(object._node)          # a copy: writes to one are not seen
    else:
        out = asarray(object, dtype=dtype, order=order, device=device, copy=copy, like=like)
    if out.ndim < ndmin:
        out = reshape(out, (1,) * (ndmin - out.ndim) + out.shape)
    return out


def copy(a: Any, order: Any = "K", subok: builtins.bool = False) -> Array:
    """A copy of ``a`` (later writes to either are not seen by the other)."""
    return array(a, copy=True, order=order)


def asanyarray(a: Any, dtype: Any = None, order: Any = None, *, device: Any = None,
               copy: builtins.bool | None = None, like: Any = None) -> Array:
    """``asarray`` (zyxarray has no array subclasses to pass through)."""
    return asarray(a, dtype=dtype, order=order, device=device, copy=copy, like=like)


def ascontiguousarray(a: Any, dtype: Any = None, *, like: Any = None) -> Array:
    """``a`` as an array of at least one dimension (NumPy's rule). Layouts are zyxarray's
    business (views are index arithmetic, each kernel reads any layout), so no copy is made
    for the sake of contiguity."""
    out = asarray(a, dtype=dtype, like=like)
    return reshape(out, (1,)) if out.ndim == 0 else out


def asfortranarray(a: Any, dtype: Any = None, *, like: Any = None) -> Array:
    """``a`` as an array of at least one dimension.
    # Note: no Fortran-ordered copy is made: zyxarray chooses layouts itself and kernels
    # read any strides, so the order has no observable effect besides ``strides``."""
    return ascontiguousarray(a, dtype=dtype, like=like)


def asarray_chkfinite(a: Any, dtype: Any = None, order: Any = None) -> Array:
    """``asarray``, raising ValueError if the array holds an infinity or a NaN (which
    needs its values now: one reduction and a read)."""
    from ._elementwise_functions import isfinite
    from ._utility_functions import all as all_
    out = asarray(a, dtype=dtype, order=order)
    if out.dtype.kind in "fc" and not builtins.bool(all_(isfinite(out))):
        raise ValueError("array must not contain infs or NaNs")
    return out


def identity(n: int, dtype: Any = None, *, like: Any = None, device: Any = None) -> Array:
    """The ``n`` x ``n`` identity matrix."""
    if device is None and isinstance(like, Array):
        device = like.device
    return eye(n, dtype=dtype, device=device)


def logspace(start: Any, stop: Any, num: int = 50, endpoint: builtins.bool = True,
             base: Any = 10.0, dtype: Any = None, axis: int = 0, *,
             device: Any = None) -> Array:
    """``base ** linspace(start, stop, num)``: numbers spaced evenly on a log scale."""
    from . import _dtypes as dt
    from ._elementwise_functions import pow as pow_
    from ._numpy_args import as_array
    if dtype is not None:
        dt.to_dtype(dtype, "logspace")      # (refused before any work)
    exponents = linspace(start, stop, num, endpoint, axis=axis, device=device)
    if isinstance(base, (list, tuple)) or hasattr(base, "shape"):
        b = as_array(base, device=exponents.device)
        b = reshape(b, b.shape[:axis] + (1,) + b.shape[axis:]) if b.ndim else b
        out = pow_(b, exponents)
    else:
        out = pow_(float(base), exponents)
    return out if dtype is None else asarray(out, dtype=dtype)


def _geomspace_arrays(start: Any, stop: Any, num: int, endpoint: builtins.bool, dtype: Any,
                      axis: int, device: Any) -> Array:
    """``geomspace`` of array ``start``/``stop`` (broadcast together): one progression per
    pair, along a new axis ``axis``; the pairs are read (their signs decide the sequence)."""
    from .._devices import registry
    from . import _dtypes as dt
    from ._elementwise_functions import abs as abs_
    from ._elementwise_functions import broadcast_shapes, exp, log, multiply
    from ._manipulation_functions import moveaxis
    from ._utility_functions import any as any_
    if dtype is not None:
        dt.to_dtype(dtype, "geomspace")
    if device is not None:
        registry.get(device)
    if isinstance(axis, builtins.bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"geomspace: axis must be an integer, got {axis!r}")
    a = start if isinstance(start, Array) else asarray(start, device=device)
    b = stop if isinstance(stop, Array) else asarray(stop, device=a.device)
    nd = len(broadcast_shapes("geomspace", a.shape, b.shape)) + 1
    if not -nd <= axis < nd:
        from ..exceptions import AxisError
        raise AxisError(f"geomspace: axis {axis} is out of bounds for an array of dimension "
                        f"{nd}")
    a, b = (x if x.dtype.kind == "f" else asarray(x, dtype="float64") for x in (a, b))
    if builtins.bool(any_((a == 0) | (b == 0))):
        raise ValueError("geomspace: geometric sequence cannot include zero")
    if builtins.bool(any_((a < 0) != (b < 0))):
        raise ValueError("geomspace: start and stop must have the same sign for real values")
    sign = (a < 0) * -2.0 + 1.0
    out = exp(linspace(log(abs_(a)), log(abs_(b)), num, endpoint, axis=0))
    if num:
        out[0] = abs_(a)
        if endpoint and num > 1:
            out[-1] = abs_(b)
    out = moveaxis(multiply(out, sign), 0, axis)
    return out if dtype is None else asarray(out, dtype=dtype)


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: builtins.bool = True,
              dtype: Any = None, axis: int = 0, *, device: Any = None) -> Array:
    """Numbers spaced evenly on a log scale between ``start`` and ``stop`` themselves
    (a geometric progression; both must have the same sign, as in NumPy)."""
    from ._creation_functions import _count
    from ._elementwise_functions import exp
    num = _count("geomspace", num)
    if isinstance(start, Array) or isinstance(stop, Array) or np.ndim(start) or np.ndim(stop):
        return _geomspace_arrays(start, stop, num, endpoint, dtype, axis, device)
    if start == 0 or stop == 0:
        raise ValueError("geomspace: geometric sequence cannot include zero")
    sign = 1.0
    if start < 0 and stop < 0:
        sign, start, stop = -1.0, -start, -stop
    elif start < 0 or stop < 0:
        raise ValueError("geomspace: start and stop must have the same sign for real values")
    out = exp(linspace(float(np.log(start)), float(np.log(stop)), num, endpoint,
                       device=device))
    if num:
        out[0] = float(start)
        if endpoint and num > 1:
            out[-1] = float(stop)
    out = out * sign
    return out if dtype is None else asarray(out, dtype=dtype)
