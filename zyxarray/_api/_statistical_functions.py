"""Statistical reductions: sum, prod, max, min, mean, var, std, the cumulative sums and
products (and the helpers all/any and the NumPy-compatible functions share).

Layer: ``_api``. Each is one REDUCE node (var/std: two reductions in one pass, see ``var``)
with elementwise producers and consumers that the scheduler fuses into the same kernel. They
take NumPy's keywords too: ``out=``, ``initial=``, ``where=`` (a masked reduction: masked-out
elements become the reduction's identity before it), ``ddof=`` and ``mean=`` (var, std).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._codegen.ir import Op, identity
from .._devices import library
from .._lazy import graph as g
from . import _dtypes as dt
from . import _hot
from ._array_object import Array
from ._elementwise_functions import (
    broadcast_node,
    broadcast_shapes,
    check,
    default_float,
    device_of,
    scalar_node,
)
from ._manipulation_functions import normalize_axes
from ._numpy_args import as_array, write_out


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


# Note: the NumPy keywords (out, initial, where, ddof, mean, dtype of mean/var/std) and the
# parameters NumPy takes positionally (axis, dtype, out, keepdims...) are accepted in NumPy's
# order; the standard makes them keyword-only, and its signature tests allow this. ``x`` may be
# any array-like (a list, a NumPy array, a scalar), as in NumPy; it stays positional-only.
def _input(name: str, x: Any) -> Array:
    """``x`` as an Array (host data goes to the default device)."""
    return x if isinstance(x, Array) else as_array(x)


def reduction_mask(name: str, x: Array, where: Any) -> g.Node | None:
    """NumPy's ``where=`` of a reduction: a bool node broadcast to ``x``'s shape, or None when
    every element takes part (``where=True``)."""
    if where is True:
        return None
    m = as_array(where, device=x.device)
    device_of(name, (x, m))
    try:
        shape = broadcast_shapes(name, x.shape, m.shape)
    except ValueError:
        shape = None
    if shape != x.shape:
        raise ValueError(f"{name}: where of shape {m.shape} does not broadcast to the array's "
                         f"shape {x.shape}")
    return broadcast_node(g.cast(m._node, np.bool_), x.shape)


def masked(node: g.Node, mask: g.Node | None, fill: Any) -> g.Node:
    """``node`` where ``mask`` holds, else the constant ``fill`` (the reduction's identity)."""
    if mask is None:
        return node
    f = broadcast_node(g.const(fill, node.dtype, node.device), node.shape)
    return g.alu(Op.WHERE, mask, node, f)


def _with_initial(name: str, r: Array, initial: Any, op: Op) -> Array:
    """``initial`` combined with the reduction's result (NumPy's ``initial=``).

    Note: a float ``initial`` for an integer result raises TypeError (NumPy truncates it)."""
    if initial is None:
        return r
    init = scalar_node(name, initial, r.dtype, r.device)
    return Array._new(g.alu(op, r._node, broadcast_node(init, r.shape)))


def _sum_like(name: str, x: Any, op: Op, axis: Any, dtype: Any, out: Any, keepdims: bool,
              initial: Any, where: Any) -> Array:
    x = _input(name, x)
    check(name, x.dtype, "numeric" if x.dtype is not dt.bool else "bool")
    acc = _accumulator(x, dtype, name)
    mask = reduction_mask(name, x, where)
    src = masked(g.cast(x._node, acc.np), mask, 0 if op is Op.ADD else 1)
    node, _ = reduce_node(name, x, op, axis, keepdims, src)
    return write_out(name, out, _with_initial(name, Array._new(node), initial, op))


def sum(x: Any, /, axis: Any = None, dtype: Any = None, out: Any = None,
        keepdims: bool = False, initial: Any = None, where: Any = True) -> Array:
    """Sum of the elements over ``axis`` (all axes if None); small integers accumulate in
    int64/uint64 as in NumPy; ``initial`` is added; ``where`` masks elements out."""
    if axis is None and dtype is None and out is None and keepdims is False and \
            initial is None and where is True:
        r = _hot.quick_sum(x)       # (a small array in host memory: now, in a loop)
        if r is not None:
            return r
    return _sum_like("sum", x, Op.ADD, axis, dtype, out, keepdims, initial, where)


def prod(x: Any, /, axis: Any = None, dtype: Any = None, out: Any = None,
         keepdims: bool = False, initial: Any = None, where: Any = True) -> Array:
    """Product of the elements over ``axis``; ``initial`` multiplies in, ``where`` masks."""
    return _sum_like("prod", x, Op.MUL, axis, dtype, out, keepdims, initial, where)


def _extremum(name: str, x: Any, op: Op, axis: Any, out: Any, keepdims: bool, initial: Any,
              where: Any) -> Array:
    x = _input(name, x)
    check(name, x.dtype, "real-valued" if x.dtype is not dt.bool else "bool")
    mask = reduction_mask(name, x, where)
    if mask is not None and initial is None:
        raise ValueError(f"{name}: reduction operation {name} does not have an identity, so "
                         "to use a where mask one has to specify 'initial'")
    axes = normalize_axes(name, axis, x.ndim)
    if initial is None and any(x.shape[a] == 0 for a in axes):
        raise ValueError(f"{name}: zero-size reduction (shape {x.shape}, axis {axis}) has "
                         "no identity")
    fill = identity(op, x.dtype.np)
    node, _ = reduce_node(name, x, op, axis, keepdims, masked(x._node, mask, fill))
    return write_out(name, out, _with_initial(name, Array._new(node), initial, op))


def max(x: Any, /, axis: Any = None, out: Any = None, keepdims: bool = False,
        initial: Any = None, where: Any = True) -> Array:
    """Largest element over ``axis`` (NaN if any is NaN); at least ``initial``."""
    if axis is None and out is None and keepdims is False and initial is None and \
            where is True:
        r = _hot.quick_extremum("max", x)   # (a small array in host memory: now)
        if r is not None:
            return r
    return _extremum("max", x, Op.MAX, axis, out, keepdims, initial, where)


def min(x: Any, /, axis: Any = None, out: Any = None, keepdims: bool = False,
        initial: Any = None, where: Any = True) -> Array:
    """Smallest element over ``axis`` (NaN if any is NaN); at most ``initial``."""
    if axis is None and out is None and keepdims is False and initial is None and \
            where is True:
        r = _hot.quick_extremum("min", x)   # (a small array in host memory: now)
        if r is not None:
            return r
    return _extremum("min", x, Op.MIN, axis, out, keepdims, initial, where)


def _float_input(name: str, x: Array, dtype: Any = None) -> g.Node:
    """The values that mean/var/std average: in ``dtype`` if given, floats as they are,
    integers and bools in the default float."""
    check(name, x.dtype, "numeric" if x.dtype is not dt.bool else "bool")
    if dtype is not None:
        d = dt.to_dtype(dtype, name)
        if d in dt.FLOATING:
            return g.cast(x._node, d.np)
    if x.dtype in dt.FLOATING:
        return x._node
    return g.cast(x._node, default_float(x.device).np)


def _count(x: Array, axes: tuple[int, ...]) -> int:
    return math.prod(x.shape[a] for a in axes)


def _as_requested(r: Array, dtype: Any, name: str) -> Array:
    """NumPy's integer ``dtype=`` of mean: the float result converted (truncated)."""
    if dtype is None:
        return r
    d = dt.to_dtype(dtype, name)
    return r if d == r.dtype else Array._new(g.cast(r._node, d.np))


def mean(x: Any, /, axis: Any = None, dtype: Any = None, out: Any = None,
         keepdims: bool = False, *, where: Any = True) -> Array:
    """Arithmetic mean over ``axis`` (NaN for an empty reduction); ``where`` averages only
    the elements it selects."""
    if axis is None and dtype is None and out is None and keepdims is False and \
            where is True:
        r = _hot.quick_mean(x)      # (a small array in host memory: now, in a loop)
        if r is not None:
            return r
    x = _input("mean", x)
    src = _float_input("mean", x, dtype)
    mask = reduction_mask("mean", x, where)
    total, axes = reduce_node("mean", x, Op.ADD, axis, keepdims, masked(src, mask, 0))
    if mask is None:
        n = broadcast_node(g.const(_count(x, axes), src.dtype, x.device), total.shape)
    else:
        n, _ = reduce_node("mean", x, Op.ADD, axis, keepdims, g.cast(mask, src.dtype))
    r = Array._new(g.alu(Op.DIV, total, n))
    return write_out("mean", out, _as_requested(r, dtype, "mean"))


def _ddof(name: str, ddof: float, correction: float | None) -> float:
    for v, what in ((ddof, "ddof"), (correction, "correction")):
        if v is not None and (isinstance(v, bool) or not isinstance(
                v, (int, float, np.integer, np.floating))):
            raise TypeError(f"{name}: {what} must be a real number, got {v!r}")
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError(f"{name}: ddof and correction can't be provided simultaneously")
    return correction


def var(x: Any, /, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
        keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: float | None = None) -> Array:
    """Variance over ``axis``, dividing by ``N - ddof`` (``correction`` is the standard's
    name for ``ddof``); ``where`` selects elements, ``mean`` gives the mean (keepdims shape)
    instead of computing it.

    One pass over memory: with a shift K (the first element along the reduced axes),
    S1 = sum(x - K) and S2 = sum(|x - K|^2) are reduced in the same loop, and
    var = (S2 - |S1|^2 / N) / (N - correction). Shifting by a sample keeps the cancellation
    small (the classic shifted-data algorithm). With ``where`` or ``mean``, the two-pass
    formula sum(|x - mean|^2) (fused into one kernel by the scheduler).
    """
    x = _input("var", x)
    correction = _ddof("var", ddof, correction)
    src = _float_input("var", x, dtype)
    mask = reduction_mask("var", x, where)
    if mask is not None or mean is not None:
        r = _var_two_pass("var", x, src, axis, keepdims, correction, mask, mean)
    else:
        axes = normalize_axes("var", axis, x.ndim)
        r = Array._new(g.remade(_var_one_pass, (axes, bool(keepdims), float(correction)), src))
    return write_out("var", out, r)


def _var_one_pass(src: g.Node, axes: tuple[int, ...], keepdims: bool,
                  correction: float) -> g.Node:
    n = math.prod(src.shape[i] for i in axes)
    real = np.empty(0, src.dtype).real.dtype
    dev = src.device
    if n == 0 or not axes:
        shift = src
    else:
        spec = tuple((0, 1, 1) if i in axes else (0, 1, s) for i, s in enumerate(src.shape))
        shift = g.expand(g.slice_view(src, spec), src.shape)
    d = g.alu(Op.SUB, src, shift)
    sq = abs2(d, real)
    if not axes:
        s1, s2 = d, sq
    else:
        s1 = g.reduce(d, Op.ADD, axes)
        s2 = g.reduce(sq, Op.ADD, axes)
    s1sq = abs2(s1, real)
    shape = s2.shape

    def c(v: float) -> g.Node:
        return broadcast_node(g.const(v, real, dev), shape)

    num = g.alu(Op.SUB, s2, g.alu(Op.DIV, s1sq, c(float(n))))
    num = g.alu(Op.MAX, num, c(0.0))
    out = g.alu(Op.DIV, num, c(float(n) - float(correction) if n > correction else 0.0))
    if axes and not keepdims:
        out = g.reshape(out, tuple(s for i, s in enumerate(shape) if i not in axes))
    return out


def abs2(d: g.Node, real: np.dtype) -> g.Node:
    """|d|^2 in the real dtype ``real``, without a square root: re*re + im*im for complex d
    (variances, and NumPy's norms in ``_linalg_functions``)."""
    if d.dtype.kind != "c":
        return g.alu(Op.MUL, d, d)
    re = g.alu(Op.REAL, d, dtype=real)
    im = g.alu(Op.IMAG, d, dtype=real)
    return g.alu(Op.ADD, g.alu(Op.MUL, re, re), g.alu(Op.MUL, im, im))


def _var_two_pass(name: str, x: Array, src: g.Node, axis: Any, keepdims: bool,
                  correction: float, mask: g.Node | None, mean: Any) -> Array:
    """sum(|x - mean|^2 over the selected elements) / (count - correction), NumPy's
    formula; a count at or below ``correction`` divides by zero (inf or NaN, as NumPy)."""
    real = np.empty(0, src.dtype).real.dtype
    dev = x.device
    axes = normalize_axes(name, axis, x.ndim)
    kept = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    if mask is None:
        count = broadcast_node(g.const(float(_count(x, axes)), real, dev), kept)
    else:
        count = g.reduce(g.cast(mask, real), Op.ADD, axes) if axes else g.cast(mask, real)
    if mean is None:
        total = masked(src, mask, 0)
        total = g.reduce(total, Op.ADD, axes) if axes else total
        m = g.alu(Op.DIV, total, g.cast(count, src.dtype))
    else:
        given = as_array(mean, device=x.device)
        device_of(name, (x, given))
        m = g.cast(g.broadcast(given._node, kept), src.dtype)
    sq = masked(abs2(g.alu(Op.SUB, src, broadcast_node(m, x.shape)), real), mask, 0)
    s2 = g.reduce(sq, Op.ADD, axes) if axes else sq
    dof = g.alu(Op.MAX, g.alu(Op.SUB, count, broadcast_node(
        g.const(float(correction), real, dev), kept)), broadcast_node(g.const(0.0, real, dev),
                                                                      kept))
    out = g.alu(Op.DIV, s2, dof)
    if axes and not keepdims:
        out = g.reshape(out, tuple(s for i, s in enumerate(kept) if i not in axes))
    return Array._new(out)


def std(x: Any, /, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
        keepdims: bool = False, *, where: Any = True, mean: Any = None,
        correction: float | None = None) -> Array:
    """Standard deviation over ``axis`` (the square root of ``var``)."""
    v = var(x, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
            correction=correction)
    return write_out("std", out, Array._new(g.alu(Op.SQRT, v._node)))


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
    src = g.cast(x._node, acc.np)
    n = x.shape[ax]
    info = x.device.info
    if info.style == "threads" and library.on_device(info.kind, name) is not None and \
            n >= SCAN_LIBRARY_LENGTH and x.size // n < SCAN_LIBRARY_ROWS:
        # a few long scans: the device library's multi-block scan spreads one scan over
        # the whole device; a generated scan runs each on one work-group
        shape = tuple(s + (1 if i == ax and include_initial else 0)
                      for i, s in enumerate(x.shape))
        return Array._new(g.library(name, (src,), {"axis": ax,
                                                   "include_initial": bool(include_initial)},
                                    acc.np, shape))
    if include_initial:
        # scanning the identity, then the values, gives the identity, then the running values
        widths = tuple((1, 0) if i == ax else (0, 0) for i in range(x.ndim))
        src = g.pad(src, widths)            # (zero outside the values)
        if name == "cumulative_prod":
            inside = g.pad(g.broadcast(g.const(True, np.bool_, x.device), x.shape), widths)
            src = g.alu(Op.WHERE, inside, src,
                        g.broadcast(g.const(1, acc.np, x.device), src.shape))
        n += 1
    if n <= 1 or math.prod(src.shape) == 0:
        return Array._new(src)
    return Array._new(g.scan(src, Op.ADD if name == "cumulative_sum" else Op.MUL, ax))


# On a GPU with a library scan, fewer scans than this, each at least this long, go to the
# library (a generated scan takes one work-group per scanned line).
SCAN_LIBRARY_ROWS = 64
SCAN_LIBRARY_LENGTH = 1 << 16


def cumulative_sum(x: Array, /, *, axis: int | None = None, dtype: Any = None,
                   include_initial: bool = False) -> Array:
    """Running sums along ``axis`` (with a leading 0 if ``include_initial``)."""
    return _cumulative("cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x: Array, /, *, axis: int | None = None, dtype: Any = None,
                    include_initial: bool = False) -> Array:
    """Running products along ``axis`` (with a leading 1 if ``include_initial``)."""
    return _cumulative("cumulative_prod", x, axis, dtype, include_initial)
