"""Statistical reductions: sum, prod, max, min, mean, var, std (and all/any's helper).

Layer: ``_api``. Each is one REDUCE node (var/std: two reductions in one pass, see ``var``)
with elementwise producers and consumers that the scheduler fuses into the same kernel.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from . import _dtypes as dt
from ._array_object import Array
from ._elementwise_functions import broadcast_node, check, default_float
from ._manipulation_functions import normalize_axes


def reduce_node(name: str, x: Array, op: Op, axis: Any, keepdims: bool,
                node: g.Node | None = None) -> tuple[g.Node, tuple[int, ...]]:
    """REDUCE over ``axis`` then (unless keepdims) a view without the reduced axes."""
    axes = normalize_axes(name, axis, x.ndim)
    src = x._node if node is None else node
    if not axes:
        return src, axes
    out = g.reduce(src, op, axes)
    if not keepdims:
        out = g.reshape(out, tuple([s for i, s in enumerate(out.shape) if i not in axes]))
    return out, axes


def _accumulator(x: Array, dtype: Any, name: str) -> dt.DType:
    if dtype is not None:
        return dt.to_dtype(dtype, name)
    d = x.dtype
    if d.kind in "bi":      # bool and signed integers
        return dt.int64
    if d.kind == "u":
        return dt.uint64
    return d


# Note: the parameters that NumPy takes positionally (axis, and dtype for sum and prod) are
# positional-or-keyword here too; the standard makes them keyword-only, and its
# signature tests allow this.
def sum(x: Array, /, axis: Any = None, dtype: Any = None, *,
        keepdims: bool = False) -> Array:
    """Sum of the elements over ``axis`` (all axes if None)."""
    d = x.dtype
    check("sum", d, "numeric" if d is not dt.bool else "bool")
    acc = _accumulator(x, dtype, "sum")
    node, _ = reduce_node("sum", x, Op.ADD, axis, keepdims, g.cast(x._node, acc.np))
    return Array._new(node)


def prod(x: Array, /, axis: Any = None, dtype: Any = None, *,
         keepdims: bool = False) -> Array:
    """Product of the elements over ``axis``."""
    check("prod", x.dtype, "numeric" if x.dtype is not dt.bool else "bool")
    acc = _accumulator(x, dtype, "prod")
    node, _ = reduce_node("prod", x, Op.MUL, axis, keepdims, g.cast(x._node, acc.np))
    return Array._new(node)


def _extremum(name: str, x: Array, op: Op, axis: Any, keepdims: bool) -> Array:
    check(name, x.dtype, "real-valued" if x.dtype is not dt.bool else "bool")
    axes = normalize_axes(name, axis, x.ndim)
    if any(x.shape[a] == 0 for a in axes):
        raise ValueError(f"{name}: zero-size reduction (shape {x.shape}, axis {axis}) has "
                         "no identity")
    node, _ = reduce_node(name, x, op, axis, keepdims)
    return Array._new(node)


def max(x: Array, /, axis: Any = None, *, keepdims: bool = False) -> Array:
    """Largest element over ``axis`` (NaN if any is NaN)."""
    return _extremum("max", x, Op.MAX, axis, keepdims)


def min(x: Array, /, axis: Any = None, *, keepdims: bool = False) -> Array:
    """Smallest element over ``axis`` (NaN if any is NaN)."""
    return _extremum("min", x, Op.MIN, axis, keepdims)


def _float_input(name: str, x: Array) -> g.Node:
    check(name, x.dtype, "numeric" if x.dtype is not dt.bool else "bool")
    if x.dtype in dt.FLOATING:
        return x._node
    return g.cast(x._node, default_float(x.device).np)


def _count(x: Array, axes: tuple[int, ...]) -> int:
    return math.prod(x.shape[a] for a in axes)


def mean(x: Array, /, axis: Any = None, *, keepdims: bool = False) -> Array:
    """Arithmetic mean over ``axis`` (NaN for an empty reduction)."""
    src = _float_input("mean", x)
    total, axes = reduce_node("mean", x, Op.ADD, axis, keepdims, src)
    n = g.const(_count(x, axes), src.dtype, x.device)
    return Array._new(g.alu(Op.DIV, total, broadcast_node(n, total.shape)))


def var(x: Array, /, axis: Any = None, *, correction: float = 0.0,
        keepdims: bool = False) -> Array:
    """Variance over ``axis``, dividing by ``N - correction``.

    One pass over memory: with a shift K (the first element along the reduced axes),
    S1 = sum(x - K) and S2 = sum(|x - K|^2) are reduced in the same loop, and
    var = (S2 - |S1|^2 / N) / (N - correction). Shifting by a sample keeps the cancellation
    small (the classic shifted-data algorithm).
    """
    src = _float_input("var", x)
    axes = normalize_axes("var", axis, x.ndim)
    n = _count(x, axes)
    real = np.empty(0, src.dtype).real.dtype
    dev = x.device
    if n == 0 or not axes:
        shift = src
    else:
        spec = tuple((0, 1, 1) if i in axes else (0, 1, s) for i, s in enumerate(x.shape))
        shift = g.expand(g.slice_view(src, spec), x.shape)
    d = g.alu(Op.SUB, src, shift)
    if src.dtype.kind == "c":
        re = g.alu(Op.REAL, d, dtype=real)
        im = g.alu(Op.IMAG, d, dtype=real)
        sq = g.alu(Op.ADD, g.alu(Op.MUL, re, re), g.alu(Op.MUL, im, im))
    else:
        sq = g.alu(Op.MUL, d, d)
    if not axes:
        s1, s2 = d, sq
    else:
        s1 = g.reduce(d, Op.ADD, axes)
        s2 = g.reduce(sq, Op.ADD, axes)
    if src.dtype.kind == "c":
        r1 = g.alu(Op.REAL, s1, dtype=real)
        i1 = g.alu(Op.IMAG, s1, dtype=real)
        s1sq = g.alu(Op.ADD, g.alu(Op.MUL, r1, r1), g.alu(Op.MUL, i1, i1))
    else:
        s1sq = g.alu(Op.MUL, s1, s1)
    shape = s2.shape

    def c(v: float) -> g.Node:
        return broadcast_node(g.const(v, real, dev), shape)

    num = g.alu(Op.SUB, s2, g.alu(Op.DIV, s1sq, c(float(n))))
    num = g.alu(Op.MAX, num, c(0.0))
    out = g.alu(Op.DIV, num, c(float(n) - float(correction) if n > correction else 0.0))
    if axes and not keepdims:
        out = g.reshape(out, tuple(s for i, s in enumerate(shape) if i not in axes))
    return Array._new(out)


def std(x: Array, /, axis: Any = None, *, correction: float = 0.0,
        keepdims: bool = False) -> Array:
    """Standard deviation over ``axis`` (the square root of ``var``)."""
    v = var(x, axis=axis, correction=correction, keepdims=keepdims)
    return Array._new(g.alu(Op.SQRT, v._node))


def _cumulative(name: str, x: Array, axis: Any, dtype: Any, include_initial: bool) -> Array:
    check(name, x.dtype, "numeric" if x.dtype is not dt.bool else "bool")
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{name}: axis is required for a {x.ndim}-d array")
        if x.ndim == 0:
            raise ValueError(f"{name}: a 0-d array has no axis to scan")
        axis = 0
    from ._manipulation_functions import normalize_axis
    ax = normalize_axis(name, axis, x.ndim)
    acc = _accumulator(x, dtype, name)
    shape = tuple(s + (1 if i == ax and include_initial else 0) for i, s in enumerate(x.shape))
    node = g.library(name, (g.cast(x._node, acc.np),),
                     {"axis": ax, "include_initial": bool(include_initial)}, acc.np, shape)
    return Array._new(node)


def cumulative_sum(x: Array, /, *, axis: int | None = None, dtype: Any = None,
                   include_initial: bool = False) -> Array:
    """Running sums along ``axis`` (with a leading 0 if ``include_initial``)."""
    return _cumulative("cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x: Array, /, *, axis: int | None = None, dtype: Any = None,
                    include_initial: bool = False) -> Array:
    """Running products along ``axis`` (with a leading 1 if ``include_initial``)."""
    return _cumulative("cumulative_prod", x, axis, dtype, include_initial)
