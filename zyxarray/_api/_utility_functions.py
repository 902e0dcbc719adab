"""Utility functions: all, any.

Layer: ``_api``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from ._array_object import Array
from ._statistical_functions import reduce_node


def all(x: Array, /, *, axis: Any = None, keepdims: bool = False) -> Array:
    """Whether every element over ``axis`` is true (non-zero)."""
    node, _ = reduce_node("all", x, Op.AND, axis, keepdims, g.cast(x._node, np.bool_))
    return Array._new(node)


def any(x: Array, /, *, axis: Any = None, keepdims: bool = False) -> Array:
    """Whether some element over ``axis`` is true (non-zero)."""
    node, _ = reduce_node("any", x, Op.OR, axis, keepdims, g.cast(x._node, np.bool_))
    return Array._new(node)


def diff(x: Array, /, *, axis: int = -1, n: int = 1, prepend: Array | None = None,
         append: Array | None = None) -> Array:
    """The n-th forward difference along ``axis`` (one fused kernel of slices)."""
    from ._elementwise_functions import check, logical_xor, subtract
    from ._manipulation_functions import concat, normalize_axis
    check("diff", x.dtype, "any")
    if x.ndim == 0:
        raise ValueError("diff: a 0-d array has no axis to difference along")
    if n < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    ax = normalize_axis("diff", axis, x.ndim)
    parts = [p for p in (prepend, x, append) if p is not None]
    y = concat(parts, axis=ax) if len(parts) > 1 else x
    head = (slice(None),) * ax
    for _ in range(n):
        if y.shape[ax] == 0:
            break
        later, earlier = y[(*head, slice(1, None))], y[(*head, slice(None, -1))]
        y = logical_xor(later, earlier) if y.dtype == np.bool_ else subtract(later, earlier)
    return y
