"""Searching functions: where.

Layer: ``_api``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from ._array_object import Array
from ._elementwise_functions import broadcast_node, broadcast_shapes, device_of, operands


def where(condition: Any, x1: Any, x2: Any, /) -> Array:
    """Elements of x1 where condition is true, else of x2 (all three broadcast)."""
    device = device_of("where", (condition, x1, x2))
    if not isinstance(condition, Array):
        from ._creation_functions import asarray
        condition = asarray(condition, device=device)
    (a, b), _, _ = operands("where", x1, x2)
    shape = broadcast_shapes("where", condition.shape, a.shape)
    cond = broadcast_node(g.cast(condition._node, np.bool_), shape)
    return Array._new(g.alu(Op.WHERE, cond, broadcast_node(a, shape), broadcast_node(b, shape)))


def _index_reduction(name: str, x: Array, axis: Any, keepdims: bool) -> Array:
    from . import _dtypes as dt
    from ._elementwise_functions import check
    from ._manipulation_functions import normalize_axis
    check(name, x.dtype, "real-valued" if x.dtype is not dt.bool else "bool")
    if axis is None:
        if x.size == 0:
            raise ValueError(f"{name}: attempt to get {name} of an empty array")
        shape = (1,) * x.ndim if keepdims else ()
        ax = None
    else:
        ax = normalize_axis(name, axis, x.ndim)
        if x.shape[ax] == 0:
            raise ValueError(f"{name}: attempt to get {name} of an empty axis {ax}")
        shape = tuple(1 if i == ax else s for i, s in enumerate(x.shape) if keepdims or i != ax)
    node = g.library(name, (x._node,), {"axis": ax, "keepdims": bool(keepdims)},
                     np.int64, shape)
    return Array._new(node)


# Note: the parameters that NumPy takes positionally (axis; side and sorter) are
# positional-or-keyword here too; the standard makes them keyword-only, and its
# signature tests allow this.
def argmax(x: Array, /, axis: int | None = None, *, keepdims: bool = False) -> Array:
    """Index of the first largest element (along ``axis``, or of the flattened array)."""
    return _index_reduction("argmax", x, axis, keepdims)


def argmin(x: Array, /, axis: int | None = None, *, keepdims: bool = False) -> Array:
    """Index of the first smallest element (along ``axis``, or of the flattened array)."""
    return _index_reduction("argmin", x, axis, keepdims)


def count_nonzero(x: Array, /, axis: Any = None, *, keepdims: bool = False) -> Array:
    """How many elements over ``axis`` are non-zero (a fused reduction, int64)."""
    from ._statistical_functions import reduce_node
    nonzero_ = g.cast(g.alu(Op.CMPNE, x._node, broadcast_node(
        g.const(0, x.dtype.np, x.device), x.shape), dtype=np.bool_), np.int64)
    node, _ = reduce_node("count_nonzero", x, Op.ADD, axis, keepdims, nonzero_)
    return Array._new(node)


def nonzero(x: Array, /) -> tuple[Array, ...]:
    """Indices of the non-zero elements, one int64 array per axis (realizes x)."""
    from ._creation_functions import asarray
    if x.ndim == 0:
        raise ValueError("nonzero: a 0-d array has no axes to index; use x[None] first")
    host = x._host()
    return tuple(asarray(np.ascontiguousarray(i, dtype=np.int64), device=x.device)
                 for i in np.nonzero(host))


def searchsorted(x1: Array, x2: Any, /, side: str = "left",
                 sorter: Array | None = None) -> Array:
    """Where the values of x2 would go in the sorted 1-D x1 to keep it sorted."""
    from . import _dtypes as dt
    from ._creation_functions import asarray
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if not isinstance(x1, Array) or x1.ndim != 1:
        raise ValueError("searchsorted: x1 must be a 1-D array")
    if not isinstance(x2, Array):
        x2 = asarray(x2, dtype=dt.result_type_of(x1, x2, where="searchsorted"),
                     device=x1.device)
    device_of("searchsorted", (x1, x2))
    common = dt.result_type_of(x1, x2, where="searchsorted")
    srcs = [g.cast(x1._node, common.np), g.cast(x2._node, common.np)]
    if sorter is not None:
        if sorter.shape != x1.shape or sorter.dtype not in dt.INTEGER:
            raise ValueError("searchsorted: sorter must be integer indices shaped like x1")
        srcs.append(sorter._node)
    node = g.library("searchsorted", tuple(srcs), {"side": side}, np.int64, x2.shape)
    return Array._new(node)
