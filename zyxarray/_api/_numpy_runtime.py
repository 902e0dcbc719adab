"""NumPy's runtime settings and helpers that are not array math: errstate and seterr, print
options, vectorize, memory-sharing queries, constants, and the names zyxarray refuses.

Layer: ``_api``. Imports ``_lazy`` only through the Array object.

- ``errstate``/``seterr``/``geterr`` are accepted and remembered, and have no effect on
  results: kernels never trap or warn on floating-point errors (overflow gives inf, invalid
  operations NaN, as NumPy's defaults print warnings for); division by zero of integers
  gives 0 as NumPy's does. Code that sets them to silence warnings runs unchanged.
- Print options are NumPy's own (``repr``/``str`` of an array format a host copy with
  NumPy), so ``set_printoptions`` and ``printoptions`` act on zyxarray arrays too.
- ``vectorize`` calls a Python function per element: that is host work by nature. Its
  inputs are copied to the host and the result back to their device (logged under the
  ``launch`` debug topic); prefer array expressions, which fuse.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .. import _debug
from ._array_object import Array
from ._creation_functions import asarray
from ._numpy_args import Unsupported, device_for

euler_gamma = 0.5772156649015329

#: NumPy's ufunc class, for ``isinstance`` checks (zyxarray's functions are plain functions,
#: not ufuncs: code that tests for one takes its generic path)
ufunc = np.ufunc

_ERR_KEYS = ("divide", "over", "under", "invalid")
_ERR_VALUES = ("ignore", "warn", "raise", "call", "print", "log")
_errors = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}


def geterr() -> dict[str, str]:
    """The floating-point error settings (see the module docstring: they change nothing)."""
    return dict(_errors)


def seterr(all: str | None = None, divide: str | None = None, over: str | None = None,
           under: str | None = None, invalid: str | None = None) -> dict[str, str]:
    """Set the floating-point error settings; returns the old ones. Accepted for NumPy code;
    zyxarray's kernels neither warn nor raise on floating-point errors."""
    old = geterr()
    given = {"divide": divide, "over": over, "under": under, "invalid": invalid}
    for key in _ERR_KEYS:
        value = given[key] if given[key] is not None else all
        if value is None:
            continue
        if value not in _ERR_VALUES:
            raise ValueError(f"seterr: {key}={value!r} is not one of {', '.join(_ERR_VALUES)}")
        _errors[key] = value
    return old


class errstate(contextlib.ContextDecorator):
    """``with errstate(divide="ignore"):``: the settings for the block (restored after it).
    Accepted for NumPy code; they change nothing (see the module docstring)."""

    def __init__(self, *, call: Any = None, all: str | None = None, divide: str | None = None,
                 over: str | None = None, under: str | None = None,
                 invalid: str | None = None) -> None:
        self._settings = {"all": all, "divide": divide, "over": over, "under": under,
                          "invalid": invalid}
        for key, value in self._settings.items():
            if value is not None and value not in _ERR_VALUES:
                raise ValueError(f"errstate: {key}={value!r} is not one of "
                                 f"{', '.join(_ERR_VALUES)}")
        self._old: dict[str, str] = {}

    def __enter__(self) -> errstate:
        self._old = seterr(**self._settings)
        return self

    def __exit__(self, *exc: object) -> None:
        seterr(**self._old)


set_printoptions = np.set_printoptions
get_printoptions = np.get_printoptions


def _host(a: Any) -> Any:
    return a._host() if isinstance(a, Array) else a


def array2string(a: Any, *args: Any, **kwargs: Any) -> str:
    """NumPy's ``array2string`` of the array's values (formatting is host work: a host
    copy is formatted by NumPy, with every one of its options)."""
    return np.array2string(np.asarray(_host(a)), *args, **kwargs)


def array_repr(arr: Any, *args: Any, **kwargs: Any) -> str:
    """NumPy's ``array_repr`` of the values (``repr(x)`` also names a non-default device)."""
    return np.array_repr(np.asarray(_host(arr)), *args, **kwargs)


def array_str(a: Any, *args: Any, **kwargs: Any) -> str:
    """NumPy's ``array_str`` of the values."""
    return np.array_str(np.asarray(_host(a)), *args, **kwargs)


def format_float_positional(x: Any, *args: Any, **kwargs: Any) -> str:
    """NumPy's ``format_float_positional`` of a scalar (a 0-d array is read)."""
    return np.format_float_positional(_host(x), *args, **kwargs)


def format_float_scientific(x: Any, *args: Any, **kwargs: Any) -> str:
    """NumPy's ``format_float_scientific`` of a scalar (a 0-d array is read)."""
    return np.format_float_scientific(_host(x), *args, **kwargs)


def binary_repr(num: Any, width: int | None = None) -> str:
    """NumPy's ``binary_repr`` of an integer (a 0-d array is read)."""
    return np.binary_repr(int(num), width)


def base_repr(number: Any, base: int = 2, padding: int = 0) -> str:
    """NumPy's ``base_repr`` of an integer (a 0-d array is read)."""
    return np.base_repr(int(number), base, padding)


@contextlib.contextmanager
def printoptions(*args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
    """NumPy's print options for the block (zyxarray prints with NumPy's formatter)."""
    with np.printoptions(*args, **kwargs) as opts:
        yield opts


class vectorize:
    """NumPy's ``vectorize``: ``pyfunc`` called once per element (with broadcasting). It is a
    Python loop on the host: the inputs are copied to the host and the result goes back to
    the device of the first array argument (logged under the ``launch`` debug topic)."""

    def __init__(self, pyfunc: Callable[..., Any] | None = None, otypes: Any = None,
                 doc: str | None = None, excluded: Any = None, cache: bool = False,
                 signature: str | None = None) -> None:
        self._kwargs = {"otypes": otypes, "doc": doc, "excluded": excluded, "cache": cache,
                        "signature": signature}
        self.pyfunc = pyfunc
        self._np: Any = None if pyfunc is None else np.vectorize(pyfunc, **self._kwargs)
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._np is None:            # used as a decorator with arguments
            return vectorize(args[0], **self._kwargs)
        device = device_for(*args, *kwargs.values())
        _debug.log("launch", f"vectorize({getattr(self.pyfunc, '__name__', '?')}) runs on "
                             "the host (a Python call per element)")
        host_args = [np.asarray(a) if isinstance(a, Array) else a for a in args]
        host_kwargs = {k: np.asarray(v) if isinstance(v, Array) else v
                       for k, v in kwargs.items()}
        out = self._np(*host_args, **host_kwargs)
        if isinstance(out, tuple):
            return tuple(asarray(o, device=device) for o in out)
        return asarray(out, device=device)


def shares_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    """True if ``a`` and ``b`` show the same memory (a base and its views: NumPy's aliasing,
    see ``_array_object``); arrays that are not zyxarray views never share memory."""
    if not isinstance(a, Array) or not isinstance(b, Array):
        return False
    if a is b:
        return True
    alias_a, alias_b = a._alias, b._alias
    return alias_a is not None and alias_b is not None and alias_a[0] is alias_b[0]


def may_share_memory(a: Any, b: Any, max_work: Any = None) -> bool:
    """``shares_memory`` (zyxarray knows exactly which arrays are views of which)."""
    return shares_memory(a, b)


object_ = Unsupported("object_", "arrays of Python objects do not live on a device; use a "
                      "list, or a NumPy array")
str_ = Unsupported("str_", "zyxarray arrays hold numbers and booleans, not strings")
bytes_ = Unsupported("bytes_", "zyxarray arrays hold numbers and booleans, not bytes")
datetime64 = Unsupported("datetime64", "there are no date/time dtypes on devices; keep "
                         "times as int64 (e.g. nanoseconds) or use NumPy for them")
timedelta64 = Unsupported("timedelta64", "there are no date/time dtypes on devices; keep "
                          "durations as int64 or use NumPy for them")
matrix = Unsupported("matrix", "numpy.matrix is deprecated in NumPy itself; use 2-D arrays "
                     "and the @ operator")
nditer = Unsupported("nditer", "an element-by-element iterator over host memory; use array "
                     "expressions (they fuse into kernels) or numpy.nditer on a host copy")
frompyfunc = Unsupported("frompyfunc", "it makes object arrays; use zyxarray.vectorize (a "
                         "host loop) or an array expression")
