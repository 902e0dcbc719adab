"""Linear algebra in the main namespace: matmul, matrix_transpose, vecdot.

Layer: ``_api``. matmul is a broadcast multiply and a sum over the shared axis, which the
scheduler fuses into one reduction kernel together with elementwise producers and consumers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._devices import library
from .._lazy import graph as g
from .._lazy.realize import library_now, realize
from . import _dtypes as dt
from ._arguments import mixed_devices
from ._array_object import Array
from ._elementwise_functions import broadcast_node, broadcast_shapes, check, operands


def matmul(x1: Any, x2: Any, /) -> Array:
    """Matrix product; 1-D operands are vectors (promoted and removed as NumPy does)."""
    if type(x1) is Array and type(x2) is Array:
        an, bn = x1._node, x2._node
        # a pair of shapes and dtypes seen before on a device with a library matmul: the
        # node at once (the checks below passed for it; a loop's matmul costs 1 us, not 7)
        seen = _LIBRARY_SEEN.get((an.shape, bn.shape, an.dtype, bn.dtype, an.device))
        if seen is not None and bn.device is an.device:
            if an.dtype != seen[0]:
                an = g.cast(an, seen[0])
            if bn.dtype != seen[0]:
                bn = g.cast(bn, seen[0])
            done = library_now("matmul", (an, bn), {}, seen[0], seen[1])
            if done is not None:    # (host memory, both realized: NumPy's BLAS, now)
                return Array._new(done)
            return _run_now(g.library("matmul", (an, bn), {}, seen[0], seen[1]))
    return _matmul(x1, x2)


def _run_now(node: g.Node) -> Array:
    """A library matmul, computed as it is built. Its inputs must be realized data for the
    BLAS anyway and its result is a buffer that consumers read, so waiting gains no fusion;
    but a loop of products kept pending (a training loop: ``X @ w`` every step) grows a
    graph that the scheduler must walk as a whole, about 15 us per step more than running
    each product with its fast path (``realize._realize_library``)."""
    realize(node)
    return Array._new(node)


def _matmul(x1: Any, x2: Any) -> Array:
    a = x1 if isinstance(x1, Array) else None
    b = x2 if isinstance(x2, Array) else None
    if a is None or b is None:
        raise TypeError("matmul: both operands must be arrays")
    if a.device is not b.device:          # (``a @ b`` comes here without the namespace's check)
        raise mixed_devices("matmul", {a.device, b.device})
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: operands must have at least one dimension")
    common = dt.result_type_of(a, b, where="matmul")
    check("matmul", common, "numeric")
    an, bn = g.cast(a._node, common.np), g.cast(b._node, common.np)
    a_shape = (1,) + a.shape if a.ndim == 1 else a.shape
    b_shape = b.shape + (1,) if b.ndim == 1 else b.shape
    n, k = a_shape[-2:]
    k2, m = b_shape[-2:]
    if k != k2:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} do not align "
                         f"({k} != {k2} on the contracted axis)")
    batch = broadcast_shapes("matmul", a_shape[:-2], b_shape[:-2])
    shape = batch + (n, m)
    if a.ndim == 1:
        shape = shape[:-2] + (m,)
    if b.ndim == 1:
        shape = shape[:-1]
    if k == 1:
        # an outer product (nothing to sum): a broadcast product, which fuses with what
        # produces and consumes it, where a BLAS would write it out (``err @ W2.T`` in a
        # training step: 1.2 ms of NumPy's BLAS for 8192 x 128)
        full = batch + (n, m)
        lhs = broadcast_node(g.reshape(an, a_shape), full)
        rhs = broadcast_node(g.reshape(bn, b_shape), full)
        return Array._new(g.reshape(g.alu(Op.MUL, lhs, rhs), shape))
    info = a.device.info
    if info.style == "loops" or library.on_device(info.kind, "matmul") is not None:
        # a library node: NumPy's BLAS on the host memory of the cpu/reference devices,
        # the device's own BLAS (cuBLAS) where it has one
        if len(_LIBRARY_SEEN) >= 1024:
            _LIBRARY_SEEN.clear()
        _LIBRARY_SEEN[(a.shape, b.shape, a.dtype.np, b.dtype.np, a.device)] = (common.np, shape)
        return _run_now(g.library("matmul", (an, bn), {}, common.np, shape))
    # (vectors as 1 x k and k x 1 matrices)
    an, bn = g.reshape(an, a_shape), g.reshape(bn, b_shape)
    full = batch + (n, k, m)
    lhs = broadcast_node(g.reshape(an, a_shape + (1,)), full)
    rhs = broadcast_node(g.reshape(bn, b_shape[:-2] + (1, k, m)), full)
    prod = g.alu(Op.MUL, lhs, rhs)
    out = g.reduce(prod, Op.OR if common is dt.bool else Op.ADD, (len(full) - 2,))
    return Array._new(g.reshape(out, shape))


#: (shapes, dtypes, device) of library matmuls built -> (result dtype, result shape)
_LIBRARY_SEEN: dict[tuple, tuple[np.dtype, tuple[int, ...]]] = {}


def matrix_transpose(x: Array, /) -> Array:
    """Swap the last two axes."""
    return x.mT


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Dot product of vectors along ``axis`` (the first operand conjugated)."""
    (a, b), common, _ = operands("vecdot", x1, x2)
    check("vecdot", common, "numeric")
    ndim = len(a.shape)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"vecdot: axis must be an integer, got {axis!r}")
    if not -ndim <= axis < ndim:
        from ..exceptions import AxisError
        raise AxisError(f"vecdot: axis {axis} is out of bounds for shape {a.shape}")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: sizes along axis {axis} differ: {x1.shape} and {x2.shape}")
    if common in dt.COMPLEX_FLOATING:
        a = g.alu(Op.CONJ, a)
    ax = axis % ndim
    out = g.reduce(g.alu(Op.MUL, a, b), Op.ADD, (ax,))
    return Array._new(g.reshape(out, tuple(s for i, s in enumerate(out.shape) if i != ax)))
