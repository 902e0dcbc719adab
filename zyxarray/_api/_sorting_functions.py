"""Sorting functions: sort and argsort (stable, ascending or descending).

Layer: ``_api``. Both are LIBRARY nodes (host NumPy on the cpu and reference devices).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._lazy import graph as g
from . import _dtypes as dt
from ._array_object import Array
from ._elementwise_functions import check
from ._manipulation_functions import normalize_axis


def _array(x: Any) -> Array:
    """NumPy leniency: lists and NumPy arrays are sorted too."""
    if isinstance(x, (list, tuple, np.ndarray, np.generic)):
        from ._creation_functions import asarray
        return asarray(x)
    return x


def _prepare(name: str, x: Array, axis: int | None) -> tuple[Array, int]:
    if not isinstance(x, Array):
        raise TypeError(f"{name}: expected an array, got {type(x).__name__}")
    if axis is None:
        # Note: axis=None sorts the flattened array, as in NumPy (the standard wants an int).
        from ._manipulation_functions import reshape
        x, axis = reshape(x, (-1,)), 0
    # Note: like NumPy we also order complex numbers (lexicographically) and booleans.
    check(name, x.dtype, "any")
    if x.ndim == 0:
        raise ValueError(f"{name}: a 0-d array has no axis to sort along")
    return x, normalize_axis(name, axis, x.ndim)


# Note: the parameters that NumPy takes positionally (axis) are positional-or-keyword
# here too; the standard makes them keyword-only, and its signature tests allow this.
def _stable(name: str, kind: Any, stable: bool | None, order: Any) -> bool:
    """The standard's ``stable`` from NumPy's ``kind`` too ('stable'/'mergesort' are stable,
    'quicksort'/'heapsort' need not be). Without either, stable (the standard's default)."""
    if order is not None:
        raise ValueError(f"{name}: order= sorts structured arrays, which zyxarray does not "
                         "have")
    if kind is not None:
        if kind not in ("quicksort", "mergesort", "heapsort", "stable"):
            raise ValueError(f"{name}: kind must be one of 'quicksort', 'mergesort', "
                             f"'heapsort', 'stable', got {kind!r}")
        if stable is None:
            return kind in ("stable", "mergesort")
    return True if stable is None else bool(stable)


def argsort(x: Any, /, axis: int | None = -1, kind: Any = None, order: Any = None, *,
            descending: bool = False, stable: bool | None = None) -> Array:
    """Indices that sort ``x`` along ``axis``; equal elements keep their order when
    ``stable`` (the default), and may not otherwise (NumPy's faster default sort)."""
    stable = _stable("argsort", kind, stable, order)
    x, ax = _prepare("argsort", _array(x), axis)
    node = g.library("argsort", (x._node,), {"axis": ax, "descending": bool(descending),
                                             "stable": stable}, dt.int64.np, x.shape)
    return Array._new(node)


def sort(x: Any, /, axis: int | None = -1, kind: Any = None, order: Any = None, *,
         descending: bool = False, stable: bool | None = None) -> Array:
    """A sorted copy of ``x`` along ``axis`` (``stable=False``: NumPy's faster default
    sort; the values are the same)."""
    stable = _stable("sort", kind, stable, order)
    x, ax = _prepare("sort", _array(x), axis)
    node = g.library("sort", (x._node,), {"axis": ax, "descending": bool(descending),
                                          "stable": stable}, x.dtype.np, x.shape)
    return Array._new(node)
