"""Indexing functions: take (with NumPy's N-d indices, axis=None, out= and mode=) and
take_along_axis.

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
from ._elementwise_functions import clip, device_of, remainder
from ._indexing import check_bounds
from ._manipulation_functions import normalize_axis, reshape
from ._numpy_args import as_array, device_for, write_out


def _indices(name: str, indices: Any, x: Array) -> Array:
    if not isinstance(indices, Array):
        indices = asarray(indices, device=x.device)
    device_of(name, (x, indices))
    if indices.dtype not in dt.INTEGER:
        raise TypeError(f"{name}: indices must have an integer dtype, got {indices.dtype.name}")
    return indices


# Note: the parameters that NumPy takes positionally (axis) are positional-or-keyword
# here too; the standard makes them keyword-only, and its signature tests allow this.
# Note: NumPy's form is a superset of the standard's: indices of any shape, and axis=None
# flattening x (the standard requires 1-D indices, and an axis beyond 1-D x).
def take(x: Any, indices: Any, /, axis: int | None = None, out: Any = None,
         mode: str = "raise") -> Array:
    """Elements of ``x`` at ``indices`` along ``axis`` (of the flattened ``x`` if None); the
    indices' shape replaces that axis. ``mode``: 'raise' (IndexError for an index outside
    the axis; negative ones count back), 'wrap' (modulo the axis' length) or 'clip' (into
    [0, length - 1]). ``out=`` receives the result."""
    x = as_array(x, device=device_for(indices))
    idx = _indices("take", indices, x)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: clipmode must be one of 'clip', 'raise', or 'wrap', got "
                         f"{mode!r}")
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    ax = normalize_axis("take", axis, x.ndim)
    n = x.shape[ax]
    if n == 0 and idx.size:
        raise IndexError(f"take: cannot take from an empty axis {ax} of shape {x.shape}")
    shape = x.shape[:ax] + idx.shape + x.shape[ax + 1:]
    index = g.cast(idx._node, dt.int64.np)
    if mode == "raise":
        check_bounds("take", index, n, ax)
    elif idx.size:
        clipped = remainder(Array._new(index), n) if mode == "wrap" else \
            clip(Array._new(index), 0, n - 1)
        index = clipped._node
    node = g.library("take", (x._node, index), {"axis": ax}, x.dtype.np, shape)
    return write_out("take", out, Array._new(node))


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
