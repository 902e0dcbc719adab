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


# Note: the parameters that NumPy takes positionally (axis; n before axis for diff) are
# positional-or-keyword here too; the standard makes them keyword-only, and its
# signature tests allow this.
def all(x: Array, /, axis: Any = None, *, keepdims: bool = False) -> Array:
    """Whether every element over ``axis`` is true (non-zero)."""
    node, _ = reduce_node("all", x, Op.AND, axis, keepdims, g.cast(x._node, np.bool_))
    return Array._new(node)


def any(x: Array, /, axis: Any = None, *, keepdims: bool = False) -> Array:
    """Whether some element over ``axis`` is true (non-zero)."""
    node, _ = reduce_node("any", x, Op.OR, axis, keepdims, g.cast(x._node, np.bool_))
    return Array._new(node)


def _edge(v: Any, x: Array, ax: int) -> Array:
    """A prepend/append value as an array; a scalar is one slice along ``ax`` (NumPy)."""
    from ._creation_functions import asarray
    from ._manipulation_functions import broadcast_to
    if v is x:
        return x
    # Note: Python and NumPy scalars and 0-d arrays are accepted, as NumPy does; the
    # standard asks for arrays. They promote with x as NumPy's concatenation does.
    a = v if isinstance(v, Array) else asarray(v, device=x.device)
    if a.ndim == 0:
        a = broadcast_to(a, tuple(1 if i == ax else s for i, s in enumerate(x.shape)))
    return a


def diff(x: Array, /, n: int = 1, axis: int = -1, prepend: Any = None,
         append: Any = None) -> Array:
    """The n-th forward difference along ``axis`` (one fused kernel of slices)."""
    from ._elementwise_functions import check, logical_xor, subtract
    from ._manipulation_functions import concat, normalize_axis
    check("diff", x.dtype, "any")
    if x.ndim == 0:
        raise ValueError("diff: a 0-d array has no axis to difference along")
    if n < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    ax = normalize_axis("diff", axis, x.ndim)
    parts = [_edge(p, x, ax) for p in (prepend, x, append) if p is not None]
    y = concat(parts, axis=ax) if len(parts) > 1 else x
    head = (slice(None),) * ax
    for _ in range(n):
        if y.shape[ax] == 0:
            break
        later, earlier = y[(*head, slice(1, None))], y[(*head, slice(None, -1))]
        y = logical_xor(later, earlier) if y.dtype == np.bool_ else subtract(later, earlier)
    return y
