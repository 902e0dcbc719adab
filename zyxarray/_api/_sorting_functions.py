"""Sorting functions: sort and argsort (stable, ascending or descending).

Layer: ``_api``. Both are LIBRARY nodes (host NumPy on the cpu and reference devices).
"""

from __future__ import annotations

from .._lazy import graph as g
from . import _dtypes as dt
from ._array_object import Array
from ._elementwise_functions import check
from ._manipulation_functions import normalize_axis


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
def argsort(x: Array, /, axis: int | None = -1, *, descending: bool = False,
            stable: bool = True) -> Array:
    """Indices that sort ``x`` along ``axis``; equal elements keep their order when
    ``stable`` (the default), and may not otherwise (NumPy's faster default sort)."""
    x, ax = _prepare("argsort", x, axis)
    node = g.library("argsort", (x._node,), {"axis": ax, "descending": bool(descending),
                                             "stable": bool(stable)}, dt.int64.np, x.shape)
    return Array._new(node)


def sort(x: Array, /, axis: int | None = -1, *, descending: bool = False,
         stable: bool = True) -> Array:
    """A sorted copy of ``x`` along ``axis`` (``stable=False``: NumPy's faster default
    sort; the values are the same)."""
    x, ax = _prepare("sort", x, axis)
    node = g.library("sort", (x._node,), {"axis": ax, "descending": bool(descending),
                                          "stable": bool(stable)}, x.dtype.np, x.shape)
    return Array._new(node)
