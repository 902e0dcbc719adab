"""Set functions: the standard's unique_all, unique_counts, unique_inverse, unique_values and
isin; NumPy's unique, setdiff1d, intersect1d, union1d, setxor1d.

Layer: ``_api``. Every result but isin's has a data-dependent shape, so these functions realize
their inputs, compute on the host (NumPy) and return arrays with concrete shapes on the
inputs' device (the unique_* functions keep NaNs distinct, as the standard says; NumPy's
``unique`` merges them unless ``equal_nan=False``). isin's shape is known, so it stays a lazy
LIBRARY node.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._lazy import graph as g
from . import _dtypes as dt
from ._array_object import Array
from ._creation_functions import asarray
from ._elementwise_functions import broadcast_node, device_of
from ._numpy_args import as_array, as_arrays


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _unique(name: str, x: Array) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    if not isinstance(x, Array):
        raise TypeError(f"{name}: expected an array, got {type(x).__name__}")
    host = x._host().reshape(-1)
    values, index, inverse, counts = np.unique(host, return_index=True, return_inverse=True,
                                               return_counts=True, equal_nan=False)
    return values, index, inverse.reshape(x.shape), counts


def _up(a: np.ndarray, x: Array, dtype: Any = None) -> Array:
    return asarray(np.asarray(a, dtype=dtype, order="C"), device=x.device)


def unique_all(x: Array, /) -> UniqueAllResult:
    """Unique values, the index of each one's first occurrence, the inverse map, counts."""
    v, i, inv, c = _unique("unique_all", x)
    return UniqueAllResult(_up(v, x), _up(i, x, np.int64), _up(inv, x, np.int64),
                           _up(c, x, np.int64))


def unique_counts(x: Array, /) -> UniqueCountsResult:
    """Unique values and how often each occurs."""
    v, _, _, c = _unique("unique_counts", x)
    return UniqueCountsResult(_up(v, x), _up(c, x, np.int64))


def unique_inverse(x: Array, /) -> UniqueInverseResult:
    """Unique values and, for each element of x, the index of its value among them."""
    v, _, inv, _ = _unique("unique_inverse", x)
    return UniqueInverseResult(_up(v, x), _up(inv, x, np.int64))


def unique_values(x: Array, /) -> Array:
    """The unique values of x, sorted."""
    v, _, _, _ = _unique("unique_values", x)
    return _up(v, x)


# Note: isin's operands stay positional-only (the standard's ``x1, x2``; NumPy calls them
# ``element, test_elements``), and at least one must be an array (NumPy also takes two
# array-likes).
def isin(x1: Any, x2: Any, /, assume_unique: bool = False, invert: bool = False, *,
         kind: str | None = None) -> Array:
    """Whether each element of x1 is in x2 (or not, with ``invert``). ``assume_unique`` and
    ``kind`` ('sort' or 'table', NumPy's algorithm choice) are accepted; the result is the
    same whatever they say."""
    device = device_of("isin", (x1, x2))
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        raise TypeError("isin: at least one argument must be an array")
    x1, x2 = (x if isinstance(x, (Array, bool, int, float, complex)) and not
              isinstance(x, np.generic) else asarray(x, device=device) for x in (x1, x2))
    common = dt.result_type_of(x1, x2, where="isin")   # a Python scalar counts weakly
    if kind not in (None, "sort", "table"):
        raise ValueError(f"isin: invalid kind {kind!r}; use None, 'sort' or 'table'")
    if kind == "table" and common not in dt.INTEGER and common is not dt.bool:
        raise ValueError(f"isin: kind='table' needs integer or bool arrays, not {common.name}")
    a = x1 if isinstance(x1, Array) else asarray(x1, dtype=common, device=device)
    b = x2 if isinstance(x2, Array) else asarray(x2, dtype=common, device=device)
    node = g.library("isin", (g.cast(a._node, common.np), g.cast(b._node, common.np)),
                     {"invert": bool(invert)}, np.bool_, a.shape)
    if a.ndim == 0:
        node = broadcast_node(node, ())
    return Array._new(node)


def unique(ar: Any, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *, equal_nan: bool = True,
           sorted: bool = True) -> Any:
    """NumPy's unique: the sorted unique elements (or slices along ``axis``), and on request
    the index of each one's first occurrence, the inverse map (NumPy 2's shapes) and the
    counts. NaNs count as one value unless ``equal_nan=False``.

    Realizes ``ar``: the result's length depends on its values."""
    x = as_array(ar)
    host = x._host()
    if axis is not None:
        from ._manipulation_functions import normalize_axis
        axis = normalize_axis("unique", axis, host.ndim)
    res = np.unique(host, return_index=return_index,  # type: ignore[call-overload]
                    return_inverse=return_inverse, return_counts=return_counts, axis=axis,
                    equal_nan=equal_nan, sorted=sorted)
    if not isinstance(res, tuple):
        return _up(res, x)
    values, *extra = res
    return (_up(values, x), *(_up(e, x, np.int64) for e in extra))


def _pair(name: str, ar1: Any, ar2: Any) -> tuple[Array, np.ndarray, np.ndarray]:
    """Both operands realized and flattened, with the first as an Array (the device of the
    result). NumPy then gives the result's dtype (the common one, or ar1's for setdiff1d);
    zyxarray's promotion rules are checked first."""
    a, b = as_arrays(ar1, ar2)
    device_of(name, (a, b))
    dt.result_type_of(a, b, where=name)
    return a, a._host().reshape(-1), b._host().reshape(-1)


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Array:
    """The sorted unique values of ``ar1`` that are not in ``ar2`` (with ``assume_unique``,
    ``ar1``'s values in their order). Realizes both: the length depends on the values."""
    a, h1, h2 = _pair("setdiff1d", ar1, ar2)
    return _up(np.setdiff1d(h1, h2, assume_unique=assume_unique), a)


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False,
                return_indices: bool = False) -> Any:
    """The sorted unique values in both; with ``return_indices`` also the index of each one's
    first occurrence in each (flattened) input. Realizes both: the length depends on the
    values."""
    a, h1, h2 = _pair("intersect1d", ar1, ar2)
    res = np.intersect1d(h1, h2, assume_unique=assume_unique,  # type: ignore[call-overload]
                         return_indices=return_indices)
    if not return_indices:
        return _up(res, a)
    values, i1, i2 = res
    return _up(values, a), _up(i1, a, np.int64), _up(i2, a, np.int64)


def union1d(ar1: Any, ar2: Any) -> Array:
    """The sorted unique values in either. Realizes both: the length depends on the values."""
    a, h1, h2 = _pair("union1d", ar1, ar2)
    return _up(np.union1d(h1, h2), a)


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Array:
    """The sorted unique values in exactly one of the two. Realizes both: the length depends
    on the values."""
    a, h1, h2 = _pair("setxor1d", ar1, ar2)
    return _up(np.setxor1d(h1, h2, assume_unique=assume_unique), a)
