"""NumPy's dispatch protocols: ``numpy.exp(x)``, ``numpy.sum(x)`` or
``numpy.concatenate([x, y])`` on zyxarray arrays run zyxarray's function of the same name,
on the arrays' device, and return zyxarray arrays (as CuPy does).

Layer: ``_api``. Looks functions up in the public namespace (imported on first use).

- ``__array_ufunc__``: a ufunc call runs ``zyxarray.<ufunc name>``; ``reduce`` and
  ``accumulate`` of add, multiply, maximum, minimum, logical_and/or run the matching
  reduction or scan; ``outer`` broadcasts; ``out=``, ``where=`` and ``dtype=`` are honoured.
- ``__array_function__``: ``numpy.<name>`` runs ``zyxarray.<name>`` (``numpy.linalg.<name>``
  runs ``zyxarray.linalg.<name>``, and so on for fft and random).
- A NumPy function or ufunc method zyxarray does not have runs on host copies of the arrays
  and its array results go back to the device of the first zyxarray argument: a round trip,
  logged under the ``launch`` debug topic, so that NumPy code keeps working.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from .. import _debug
from ._array_object import Array
from ._numpy_args import as_array, device_for, write_out

_SUBMODULES = ("linalg", "fft", "random")
_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
           "logical_and": "all", "logical_or": "any", "fmax": "nanmax", "fmin": "nanmin"}
_ACCUMULATE = {"add": "cumsum", "multiply": "cumprod"}
#: ufuncs whose ``accumulate`` is a running extremum (``_ufunc_methods._RUNNING``)
_RUNNING = ("maximum", "minimum", "logical_and", "logical_or")
_RENAMED = {"true_divide": "divide", "rint": "round", "bitwise_not": "invert",
            "conjugate": "conj", "absolute": "abs"}


def _namespace(module: str) -> Any:
    """zyxarray's module for NumPy's ``module`` (``numpy.linalg`` -> ``zyxarray.linalg``)."""
    ns = importlib.import_module("zyxarray")
    parts = module.split(".")
    for sub in parts[1:]:
        if sub in _SUBMODULES:
            return getattr(ns, sub)
    return ns


def _lookup(module: str, name: str) -> Any:
    ns = _namespace(module)
    fn = getattr(ns, name, None)
    if fn is None and name in _RENAMED:
        fn = getattr(ns, _RENAMED[name], None)
    return fn if callable(fn) else None


def _to_host(obj: Any) -> Any:
    if isinstance(obj, Array):
        return np.asarray(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_host(o) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_host(v) for k, v in obj.items()}
    return obj


def _to_device(obj: Any, device: Any) -> Any:
    if isinstance(obj, np.ndarray):
        try:
            return as_array(obj, device=device)
        except TypeError:           # (a dtype zyxarray lacks: leave NumPy's result)
            return obj
    if isinstance(obj, tuple) and not hasattr(obj, "_fields"):
        return tuple(_to_device(o, device) for o in obj)
    if isinstance(obj, list):
        return [_to_device(o, device) for o in obj]
    return obj


def _on_host(what: str, fn: Any, args: Any, kwargs: dict[str, Any]) -> Any:
    """``fn`` on host copies of the arguments; array results back on the device."""
    device = device_for(*args, *kwargs.values())
    _debug.log("launch", f"{what} has no zyxarray implementation: it runs with NumPy on "
                         f"host copies (a round trip to {getattr(device, 'name', 'the host')})")
    out = kwargs.pop("out", None)
    result = fn(*_to_host(args), **_to_host(kwargs))
    result = _to_device(result, device)
    if out is not None and isinstance(result, Array):
        return write_out(what, out, result)
    return result


def array_function(func: Any, types: Any, args: Any, kwargs: dict[str, Any]) -> Any:
    """``Array.__array_function__``."""
    if not all(issubclass(t, (Array, np.ndarray)) for t in types):
        return NotImplemented
    fn = _lookup(func.__module__ or "numpy", func.__name__)
    if fn is None:
        return _on_host(f"numpy.{func.__name__}", func, args, dict(kwargs))
    return fn(*args, **kwargs)


def ufunc_call(name: str, fn: Any, inputs: tuple[Any, ...], out: Any, where: Any,
               dtype: Any) -> Any:
    """``fn(*inputs)`` with NumPy's ufunc keywords: ``dtype`` (the inputs cast to it),
    ``out`` (an array or a tuple of one per output: written in place and returned) and
    ``where`` (``out`` keeps its elements where it is false; without ``out`` they would be
    undefined in NumPy, a TypeError here)."""
    if out is not None and not isinstance(out, tuple):
        out = (out,)
    if out is not None and not all(isinstance(o, Array) for o in out):
        raise TypeError(f"{name}: out= must be a zyxarray array, got "
                        f"{', '.join(type(o).__name__ for o in out)}")
    device = device_for(*inputs)
    args = [as_array(x, device=device) for x in inputs]
    if dtype is not None:
        args = [as_array(a, dtype=dtype) for a in args]
    result = fn(*args)
    if out is None:
        if where is not True:
            raise TypeError(f"{name}: where= needs out= (the other elements would be "
                            "undefined)")
        return result
    if isinstance(result, tuple):
        return tuple(write_out(name, o, r) for o, r in zip(out, result))
    if where is not True:
        from ._searching_functions import where as select
        result = select(as_array(where, device=device), result, out[0])
    return write_out(name, out[0], result)


def array_ufunc(ufunc: Any, method: str, inputs: tuple[Any, ...],
                kwargs: dict[str, Any]) -> Any:
    """``Array.__array_ufunc__``."""
    name = ufunc.__name__
    out = kwargs.pop("out", None)
    if out is not None and not all(isinstance(o, Array) for o in out):
        return NotImplemented       # (writing into a NumPy array: NumPy's business)
    if method == "__call__":
        fn = _lookup("numpy", name)
        if fn is None:
            kwargs["out"] = out
            return _on_host(f"numpy.{name}", ufunc, inputs, kwargs)
        where = kwargs.pop("where", True)
        dtype = kwargs.pop("dtype", None)
        kwargs.pop("casting", None)
        kwargs.pop("order", None)
        kwargs.pop("subok", None)
        if kwargs:
            raise TypeError(f"numpy.{name} on zyxarray arrays: unsupported keywords "
                            f"{sorted(kwargs)}")
        return ufunc_call(f"numpy.{name}", fn, inputs, out, where, dtype)
    if method in ("reduce", "accumulate") and name in (
            _REDUCE if method == "reduce" else _ACCUMULATE):
        target = (_REDUCE if method == "reduce" else _ACCUMULATE)[name]
        fn = _lookup("numpy", target)
        if fn is not None:
            (x,) = inputs
            kwargs.setdefault("axis", 0)
            if out is not None:
                kwargs["out"] = out[0]
            return fn(x, **kwargs)
    if (method == "accumulate" and name in _RUNNING) or (method == "reduceat" and
                                                          name in _REDUCE):
        # (running extrema and segment reductions: the namespace's ufunc methods, on the
        # device, not a round trip through NumPy)
        fn = _lookup("numpy", name)
        meth = getattr(fn, method, None) if fn is not None else None
        if meth is not None:
            if out is not None:
                kwargs["out"] = out[0]
            return meth(*inputs, **kwargs)
    if method == "outer" and len(inputs) == 2:
        fn = _lookup("numpy", name)
        if fn is not None and hasattr(fn, "outer"):     # (_ufunc_methods)
            return fn.outer(*inputs, out=out[0] if out else None)
    kwargs["out"] = out
    return _on_host(f"numpy.{name}.{method}", getattr(ufunc, method), inputs, kwargs)
