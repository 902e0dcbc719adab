"""Indexing functions: take and take_along_axis.

Layer: ``_api``. Both are LIBRARY nodes (a gather on the device's library table); their
output shapes are known from the operands' shapes, so they stay lazy. The indices are
checked against the axis by the call (``_indexing.check_bounds``), as NumPy checks them.
"""

from __future__ import annotations

from typing import Any

from .._lazy import graph as g
from . import _dtypes as dt
from ._array_object import Array
from ._creation_functions import asarray
from ._elementwise_functions import device_of
from ._indexing import check_bounds
from ._manipulation_functions import normalize_axis


def _indices(name: str, indices: Any, x: Array) -> Array:
    if not isinstance(indices, Array):
        indices = asarray(indices, device=x.device)
    device_of(name, (x, indices))
    if indices.dtype not in dt.INTEGER:
        raise TypeError(f"{name}: indices must have an integer dtype, got {indices.dtype.name}")
    return indices


# Note: the parameters that NumPy takes positionally (axis) are positional-or-keyword
# here too; the standard makes them keyword-only, and its signature tests allow this.
def take(x: Array, indices: Any, /, axis: int | None = None) -> Array:
    """Elements of ``x`` at ``indices`` (1-D) along ``axis``; negative indices count back."""
    idx = _indices("take", indices, x)
    if idx.ndim != 1:
        raise ValueError(f"take: indices must be 1-D, got shape {idx.shape}")
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"take: axis is required for a {x.ndim}-d array")
        axis = 0
    ax = normalize_axis("take", axis, x.ndim)
    if x.shape[ax] == 0 and idx.size:
        raise IndexError(f"take: cannot take from an empty axis {ax} of shape {x.shape}")
    shape = x.shape[:ax] + idx.shape + x.shape[ax + 1:]
    index = g.cast(idx._node, dt.int64.np)
    check_bounds("take", index, x.shape[ax], ax)
    node = g.library("take", (x._node, index), {"axis": ax}, x.dtype.np, shape)
    return Array._new(node)


def take_along_axis(x: Array, indices: Any, /, axis: int = -1) -> Array:
    """Elements of ``x`` at ``indices`` (same rank as x) along ``axis``."""
    idx = _indices("take_along_axis", indices, x)
    if idx.ndim != x.ndim:
        raise ValueError(f"take_along_axis: indices must have the rank of x ({x.ndim}), got "
                         f"shape {idx.shape}")
    ax = normalize_axis("take_along_axis", axis, x.ndim)
    shape = []
    for i, (s, t) in enumerate(zip(x.shape, idx.shape)):
        if i == ax:
            shape.append(t)
        elif s == t or t == 1 or s == 1:
            shape.append(max(s, t) if min(s, t) else 0)
        else:
            raise ValueError(f"take_along_axis: shapes {x.shape} and {idx.shape} do not "
                             f"broadcast outside axis {ax}")
    index = g.cast(idx._node, dt.int64.np)
    check_bounds("take_along_axis", index, x.shape[ax], ax)
    node = g.library("take_along_axis", (x._node, index), {"axis": ax}, x.dtype.np,
                     tuple(shape))
    return Array._new(node)
