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
    from ._elementwise_functions import pow as pow_
    from ._numpy_args import as_array
    exponents = linspace(start, stop, num, endpoint, axis=axis, device=device)
    if isinstance(base, (list, tuple)) or hasattr(base, "shape"):
        b = as_array(base, device=exponents.device)
        b = reshape(b, b.shape[:axis] + (1,) + b.shape[axis:]) if b.ndim else b
        out = pow_(b, exponents)
    else:
        out = pow_(float(base), exponents)
    return out if dtype is None else asarray(out, dtype=dtype)


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: builtins.bool = True,
              dtype: Any = None, axis: int = 0, *, device: Any = None) -> Array:
    """Numbers spaced evenly on a log scale between ``start`` and ``stop`` themselves
    (a geometric progression; both must have the same sign, as in NumPy)."""
    from ._elementwise_functions import exp
    if isinstance(start, Array) or isinstance(stop, Array) or np.ndim(start) or np.ndim(stop):
        raise TypeError("geomspace: array start/stop are not supported; use scalars")
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
