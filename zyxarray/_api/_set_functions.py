"""Set functions: unique_all, unique_counts, unique_inverse, unique_values, isin.

Layer: ``_api``. The unique_* results have data-dependent shapes, so these functions realize
their input and return arrays with concrete shapes (NaNs are distinct, as the standard says).
isin's shape is known, so it stays a lazy LIBRARY node.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._lazy import graph as g
from . import _dtypes as dt
from ._array_object import Array
from ._creation_functions import asarray
from ._elementwise_functions import broadcast_node, device_of


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


def isin(x1: Any, x2: Any, /, *, invert: bool = False) -> Array:
    """Whether each element of x1 is in x2 (or not, with ``invert``)."""
    device = device_of("isin", (x1, x2))
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        raise TypeError("isin: at least one argument must be an array")
    common = dt.result_type_of(x1, x2, where="isin")   # a Python scalar counts weakly
    a = x1 if isinstance(x1, Array) else asarray(x1, dtype=common, device=device)
    b = x2 if isinstance(x2, Array) else asarray(x2, dtype=common, device=device)
    node = g.library("isin", (g.cast(a._node, common.np), g.cast(b._node, common.np)),
                     {"invert": bool(invert)}, np.bool_, a.shape)
    if a.ndim == 0:
        node = broadcast_node(node, ())
    return Array._new(node)
