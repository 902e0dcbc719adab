"""Utility functions: all, any (with NumPy's ``out=`` and ``where=``), diff.

Layer: ``_api``. all and any are one fused REDUCE node each.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from ._array_object import Array
from ._numpy_args import as_array, write_out
from ._statistical_functions import masked, reduce_node, reduction_mask


# Note: the parameters that NumPy takes positionally (axis, out, keepdims; n before axis for
# diff) are positional-or-keyword here too; the standard makes them keyword-only, and its
# signature tests allow this. ``x`` may be any array-like, as in NumPy.
def _truth(name: str, x: Any, op: Op, axis: Any, out: Any, keepdims: bool,
           where: Any) -> Array:
    x = x if isinstance(x, Array) else as_array(x)
    mask = reduction_mask(name, x, where)
    src = masked(g.cast(x._node, np.bool_), mask, op is Op.AND)
    node, _ = reduce_node(name, x, op, axis, keepdims, src)
    return write_out(name, out, Array._new(node))


def all(x: Any, /, axis: Any = None, out: Any = None, keepdims: bool = False, *,
        where: Any = True) -> Array:
    """Whether every element over ``axis`` (those ``where`` selects) is true (non-zero)."""
    return _truth("all", x, Op.AND, axis, out, keepdims, where)


def any(x: Any, /, axis: Any = None, out: Any = None, keepdims: bool = False, *,
        where: Any = True) -> Array:
    """Whether some element over ``axis`` (among those ``where`` selects) is true."""
    return _truth("any", x, Op.OR, axis, out, keepdims, where)


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


def diff(x: Any, /, n: int = 1, axis: int = -1, prepend: Any = None,
         append: Any = None) -> Array:
    """The n-th forward difference along ``axis`` (one fused kernel of slices); ``x`` may
    be any array-like, as in NumPy."""
    from ._elementwise_functions import check, logical_xor, subtract
    from ._manipulation_functions import concat, normalize_axis
    from ._numpy_args import as_array
    if n == 1 and axis in (-1, 0) and prepend is None and append is None:
        from . import _hot
        now = _hot.diff_now(x)      # (a small 1-D array in memory: one loop in C)
        if now is not None:
            return now
    x = as_array(x)
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
