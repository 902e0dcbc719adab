"""NumPy's ufunc methods on zyxarray's elementwise functions: ``xp.add.at``, ``xp.add.reduce``,
``xp.multiply.outer``, ``xp.add.accumulate``, with ``nin``, ``nout`` and ``identity``.

zyxarray's elementwise functions are plain functions (the Array API namespace is unchanged);
NumPy's are ``ufunc`` objects whose methods real code calls (``np.add.at(counts, idx, 1)``
to scatter-add, ``np.logical_or.reduce(masks)``, ``np.subtract.outer(x, y)``). ``install``
attaches the methods to the namespace's functions as attributes:

- ``reduce(a, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True)`` for
  the associative ufuncs, through the namespace's reductions (``add`` -> ``sum``,
  ``maximum`` -> ``max``, ``logical_or`` -> ``any`` ...); ``axis=None`` or a tuple reduces
  several axes. Others (``subtract.reduce``) raise TypeError naming what to use.
- ``accumulate(a, axis=0, dtype=None, out=None)`` for ``add`` and ``multiply`` (running sums
  and products), ``maximum`` and ``minimum`` (running extrema: a drawdown's running peak;
  NaN, as NumPy's, carries on from where it appears) and ``logical_and``/``logical_or``:
  one scan kernel along the axis, fused with what produces and reads it.
- ``reduceat(a, indices, axis=0, dtype=None, out=None)`` for the same six: each slice
  between consecutive indices reduced (NumPy's rules for indices that do not increase),
  as one masked reduction.
- ``outer(a, b, out=None)`` for every binary function.
- the call itself takes NumPy's ufunc keywords (``_keywords``): ``out`` (also third
  positionally), ``where`` (with ``out``), ``dtype``; ``casting``, ``order``, ``subok``
  accepted.
- ``at(a, indices, b=None)``: applied in place at ``a[indices]``, once per occurrence of a
  repeated index. ``add`` and ``subtract`` run on the device, lazily: the values are summed
  per element with ``bincount``'s scatter-add, then added (float sums may round differently
  from NumPy's one-at-a-time order). The other functions, and values whose type would need
  a cast at every step (floats into an integer array), round-trip through the host's NumPy:
  the documented fallback.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .._codegen.ir import Op, identity
from .._lazy import graph as g
from . import _dtypes as dt
from ._array_object import Array
from ._numpy_args import as_array, device_for, write_out
from ._numpy_protocols import _to_host

#: associative ufunc -> the namespace's reduction, and NumPy's identity (None: none)
_REDUCE = {"add": ("sum", 0), "multiply": ("prod", 1), "maximum": ("max", None),
           "minimum": ("min", None), "logical_and": ("all", True),
           "logical_or": ("any", False)}
_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}
#: ufuncs whose accumulate is a running extremum: the scan's combine, and whether the values
#: are made bool first (``logical_or.accumulate`` is a running any)
_RUNNING = {"maximum": (Op.MAX, False), "minimum": (Op.MIN, False),
            "logical_or": (Op.MAX, True), "logical_and": (Op.MIN, True)}
#: the standard's names NumPy spells otherwise
_NUMPY_NAMES = {"pow": "power", "atan2": "arctan2", "bitwise_left_shift": "left_shift",
                "bitwise_right_shift": "right_shift", "bitwise_invert": "invert",
                "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
                "atan": "arctan", "atanh": "arctanh", "abs": "absolute", "conj": "conjugate"}


def _numpy_ufunc(name: str) -> Any:
    fn = getattr(np, _NUMPY_NAMES.get(name, name), None)
    return fn if isinstance(fn, np.ufunc) else None


# Note: NumPy's ufuncs are objects of type np.ufunc; zyxarray's functions stay functions with
# the methods as attributes, so isinstance(xp.add, np.ufunc) is false.
def install(namespace: dict[str, Any]) -> None:
    """Put in ``namespace``, for every function that NumPy has as a ufunc, the function
    taking NumPy's ufunc keywords (``_keywords``) with the methods attached."""
    for fn in set(v for v in namespace.values() if callable(v) and hasattr(v, "__name__")):
        uf = _numpy_ufunc(fn.__name__)
        if uf is None or uf.nout != 1 or uf.nin not in (1, 2) or isinstance(fn, type) or \
                uf.signature is not None:      # (matmul, vecdot: generalized ufuncs)
            continue
        name = fn.__name__
        call = _keywords(fn, uf.nin)
        for key in [k for k, v in namespace.items() if v is fn]:
            namespace[key] = call
        _attach(call, fn, name, uf)


def _keywords(fn: Any, nin: int) -> Any:
    """``fn`` also taking NumPy's ufunc keywords: ``out`` (also after the inputs,
    positionally, as NumPy's), ``where``, ``dtype``, and ``casting``/``order``/``subok``/
    ``signature``, accepted and ignored (``np.divide(a, b, out=c, where=b != 0)``). Without
    them, or with arguments ``fn`` does not take (its own error then), the function itself is
    called. Arrays on different devices among the inputs, ``out`` and ``where`` are refused
    before any work. ``inspect.signature`` shows the function's own (the standard's)."""
    from ._arguments import mixed_devices
    from ._numpy_protocols import ufunc_call
    name = fn.__name__

    def call(*args: Any, **kwargs: Any) -> Any:
        if not kwargs and len(args) == nin:
            return fn(*args)            # (the common call, without the keywords' cost)
        return keywords(*args, **kwargs)

    def keywords(*args: Any, out: Any = None, where: Any = True, dtype: Any = None,
                 casting: str = "same_kind", order: str = "K", subok: bool = True,
                 signature: Any = None, **kwargs: Any) -> Any:
        if len(args) == nin + 1 and out is None and not kwargs:
            args, out = args[:nin], args[nin]
        if (out is None and where is True and dtype is None) or kwargs or len(args) != nin:
            return fn(*args, **kwargs)
        outs = out if isinstance(out, tuple) else (out,)
        devices = {a.device for a in (*args, *outs, where) if isinstance(a, Array)}
        if len(devices) > 1:
            raise mixed_devices(name, devices)
        return ufunc_call(name, fn, args, out, where, dtype)
    return functools.wraps(fn)(call)


def _attach(fn: Any, base: Any, name: str, uf: Any) -> None:
    """The ufunc methods and attributes on ``fn`` (``base``: the function they apply)."""
    fn.nin, fn.nout = uf.nin, 1
    fn.identity = _REDUCE[name][1] if name in _REDUCE else uf.identity
    fn.at = _at(base, name, uf)
    if uf.nin == 2:
        fn.outer = _outer(base, name)
        fn.reduce = _reduce(name)
        fn.accumulate = _accumulate(name)
        fn.reduceat = _reduceat(name)


def _outer(fn: Any, name: str) -> Any:
    def outer(a: Any, b: Any, /, out: Any = None) -> Array:
        """``fn(a[..., None, ...], b)``: every element of ``a`` with every element of ``b``."""
        device = device_for(a, b)
        x, y = as_array(a, device=device), as_array(b, device=device)
        result = fn(x.reshape(x.shape + (1,) * y.ndim), y)
        return write_out(f"{name}.outer", out, result) if out is not None else result
    outer.__qualname__ = outer.__name__ = f"{name}.outer"
    return outer


def _reduce(name: str) -> Any:
    def reduce(a: Any, /, axis: Any = 0, dtype: Any = None, out: Any = None,
               keepdims: bool = False, initial: Any = None, where: Any = True) -> Array:
        """NumPy's ``ufunc.reduce`` for the associative ufuncs."""
        if name not in _REDUCE:
            raise TypeError(f"{name}.reduce is not provided by zyxarray (only the associative "
                            f"ufuncs reduce: {', '.join(_REDUCE)}); write the loop, or use "
                            f"NumPy on the host")
        import zyxarray as xp
        target, ident = _REDUCE[name]
        x = as_array(a, device=device_for(a, where))
        if dtype is not None:
            x = x.astype(dtype)
        axes = tuple(range(x.ndim)) if axis is None else \
            (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
        axes = tuple(int(ax) + x.ndim if int(ax) < 0 else int(ax) for ax in axes)
        if where is not True:
            fill = ident if initial is None else initial
            if fill is None:
                raise ValueError(f"reduction operation '{name}' does not have an identity, "
                                 "so to use a where mask one has to specify 'initial'")
            x = xp.where(as_array(where, device=x.device), x, xp.asarray(fill, dtype=x.dtype,
                                                                        device=x.device))
        empty = any(x.shape[ax] == 0 for ax in axes)
        if empty and initial is not None:
            shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape)) \
                if keepdims else tuple(s for i, s in enumerate(x.shape) if i not in axes)
            result = xp.full(shape, initial, dtype=x.dtype, device=x.device)
        else:
            result = getattr(xp, target)(x, axis=axes, keepdims=keepdims)
            if initial is not None:
                from . import _elementwise_functions as ef
                result = getattr(ef, name)(result, xp.asarray(initial, dtype=result.dtype,
                                                              device=result.device))
        return write_out(f"{name}.reduce", out, result) if out is not None else result
    reduce.__qualname__ = reduce.__name__ = f"{name}.reduce"
    return reduce


def _accumulate(name: str) -> Any:
    def accumulate(a: Any, /, axis: int = 0, dtype: Any = None, out: Any = None) -> Array:
        """NumPy's ``ufunc.accumulate`` (running sums, products and extrema)."""
        if name not in _ACCUMULATE and name not in _RUNNING:
            raise TypeError(f"{name}.accumulate is not provided by zyxarray (only "
                            f"{', '.join([*_ACCUMULATE, *_RUNNING])} accumulate); write the "
                            f"loop, or use NumPy on the host")
        import zyxarray as xp
        x = as_array(a)
        if axis is None:
            raise TypeError(f"{name}.accumulate: axis must be an integer, not None")
        if name in _RUNNING:
            result = _running(name, x, axis, dtype)
        else:
            result = getattr(xp, _ACCUMULATE[name])(x, axis=axis, dtype=dtype)
        return write_out(f"{name}.accumulate", out, result) if out is not None else result
    accumulate.__qualname__ = accumulate.__name__ = f"{name}.accumulate"
    return accumulate


def _reduceat(name: str) -> Any:
    def reduceat(a: Any, indices: Any, /, axis: int = 0, dtype: Any = None,
                 out: Any = None) -> Array:
        """NumPy's ``ufunc.reduceat``: along ``axis``, the reduction of each slice
        ``a[indices[i]:indices[i + 1]]`` (the last to the end), or ``a[indices[i]]`` itself
        where ``indices[i + 1]`` is not past it. The indices are read on the host (they
        are what NumPy's loop walks); the slices are one masked reduction on the device,
        each output point reducing its own range (the identity elsewhere)."""
        where = f"{name}.reduceat"
        if name not in _REDUCE:
            raise TypeError(f"{where} is not provided by zyxarray (only the associative "
                            f"ufuncs: {', '.join(_REDUCE)}); write the loop, or use NumPy on "
                            f"the host")
        import zyxarray as xp

        from ._manipulation_functions import normalize_axis
        x = as_array(a)
        if dtype is not None:
            x = x.astype(dtype)
        if x.ndim == 0:
            raise ValueError(f"{where}: a 0-d array has no axis to reduce along")
        ax = normalize_axis(where, axis, x.ndim)
        idx = np.asarray(_to_host(indices))
        if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
            raise TypeError(f"{where}: indices must be a 1-D sequence of integers, got "
                            f"{idx.dtype} of shape {idx.shape}")
        n = x.shape[ax]
        bad = (idx < 0) | (idx >= n)
        if bad.any():
            raise IndexError(f"{where}: index {int(idx[bad][0])} is out of bounds for axis "
                             f"{ax} with size {n}")
        idx = idx.astype(np.int64)
        ends = np.append(idx[1:], n)
        ends = np.where(ends > idx, ends, idx + 1)      # (a single element where not past)
        y = xp.moveaxis(x, ax, -1)[..., None, :]        # (..., 1, n)
        position = xp.arange(n, device=x.device)
        inside = (position >= xp.asarray(idx[:, None], device=x.device)) & \
            (position < xp.asarray(ends[:, None], device=x.device))     # (m, n)
        if name in ("logical_and", "logical_or"):
            y = y.astype(dt.bool)
        fill = identity(_REDUCEAT_OPS[name], y.dtype.np)     # (masked-out elements)
        picked = xp.where(inside, y, xp.asarray(fill, dtype=y.dtype, device=x.device))
        result = xp.moveaxis(getattr(xp, _REDUCE[name][0])(picked, axis=-1), -1, ax)
        return write_out(where, out, result) if out is not None else result
    reduceat.__qualname__ = reduceat.__name__ = f"{name}.reduceat"
    return reduceat


#: each reduceat's combine, whose identity its masked-out elements take
_REDUCEAT_OPS = {"add": Op.ADD, "multiply": Op.MUL, "maximum": Op.MAX, "minimum": Op.MIN,
                 "logical_and": Op.AND, "logical_or": Op.OR}


def _running(name: str, x: Array, axis: Any, dtype: Any) -> Array:
    """``name.accumulate`` of ``x`` for the running extrema of ``_RUNNING``: a SCAN node."""
    from ._manipulation_functions import normalize_axis
    op, logical = _RUNNING[name]
    where = f"{name}.accumulate"
    if x.ndim == 0:
        raise ValueError(f"{where}: a 0-d array has no axis to accumulate along")
    ax = normalize_axis(where, axis, x.ndim)
    if dtype is not None:
        x = x.astype(dtype)
    if logical:
        x = x.astype(dt.bool)
    elif x.dtype in dt.COMPLEX_FLOATING:
        raise TypeError(f"{where}: complex values have no order (got {x.dtype})")
    if x.shape[ax] <= 1 or x.size == 0:
        return Array._new(x._node)      # (a new array: writes to it leave ``x`` alone)
    return Array._new(g.scan(x._node, op, ax))


def _at(fn: Any, name: str, uf: Any) -> Any:
    def at(a: Any, indices: Any, b: Any = None, /) -> None:
        """NumPy's ``ufunc.at``: ``a[indices] = fn(a[indices], b)`` in place, unbuffered
        (a repeated index is applied once per occurrence)."""
        if not isinstance(a, Array):
            raise TypeError(f"{name}.at: the first argument must be a zyxarray array, got "
                            f"{type(a).__name__}")
        if (b is None) != (uf.nin == 1):
            why = "a second operand is required" if b is None else "takes no second operand"
            raise ValueError(f"{name}.at: {why}")
        if name in ("add", "subtract") and a.dtype is not dt.bool:
            values = _same_type(a, b)
            if values is not None:
                _scatter_add(a, indices, values, name == "subtract")
                return
        host = np.array(a)       # (the fallback: NumPy's ufunc.at on a host copy)
        args = (host, _to_host(indices)) + (() if b is None else (_to_host(b),))
        uf.at(*args)
        a[...] = as_array(host, device=a.device)
    at.__qualname__ = at.__name__ = f"{name}.at"
    return at


def _same_type(a: Array, b: Any) -> Array | None:
    """``b`` as an array of ``a``'s dtype, where adding it needs no cast of the sums (NumPy
    casts after every addition: floats into an integer array round at each step); None
    where it would."""
    if isinstance(b, (bool, int, float, complex)) and not isinstance(b, np.generic):
        kind = "b" if isinstance(b, bool) else "i" if isinstance(b, int) else \
            "f" if isinstance(b, float) else "c"
        if "biufc".index(kind) > "biufc".index(a.dtype.kind.replace("u", "i")):
            return None
        return as_array(b, dtype=a.dtype, device=a.device)
    values = as_array(b, device=a.device)
    if dt.to_dtype(np.result_type(a.dtype.np, values.dtype.np), "at") is not a.dtype:
        return None
    return values.astype(a.dtype)


# Note: NumPy's add.at adds one value at a time; the values here are summed per element first,
# so float results may round differently (integers are exact either way).
def _scatter_add(a: Array, indices: Any, values: Array, negate: bool) -> None:
    """``a[indices] += values`` (``-=``) with repeated indices counted once each: the values
    summed per element of ``a`` (``bincount``'s scatter-add over flat positions)."""
    from ._creation_functions import arange
    from ._manipulation_functions import broadcast_to
    from ._numpy_statistics import _count_bins
    positions = arange(a.size, dtype=dt.int64, device=a.device).reshape(a.shape)[indices]
    if positions.size == 0:
        return
    v = broadcast_to(values, positions.shape).reshape(-1)
    sums = _count_bins(positions.reshape(-1), v, a.size).reshape(a.shape)
    a[...] = (a - sums if negate else a + sums).astype(a.dtype)
