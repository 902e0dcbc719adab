"""Searching functions: where, argmax, argmin, count_nonzero, nonzero, searchsorted.

Layer: ``_api``. They take NumPy's array-likes and keywords (``out=``, ``keepdims=``); where
with only a condition is ``nonzero``, as in NumPy. nonzero's shape depends on the data, so it
realizes its input; the others stay lazy. argmax and argmin of dtypes up to 32 bits are one
generated reduction of packed (value, index) pairs (``_packed``), fused with their producer;
wider dtypes are LIBRARY nodes, or two generated reductions on a device without a library
of its own. searchsorted is a LIBRARY node.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._devices import library
from .._lazy import graph as g
from . import _dtypes as dt
from . import _hot
from ._array_object import Array
from ._elementwise_functions import broadcast_node, broadcast_shapes, check, device_of, operands
from ._manipulation_functions import normalize_axis
from ._numpy_args import as_array, write_out

_NOT_GIVEN: Any = object()


def where(condition: Any, x1: Any = _NOT_GIVEN, x2: Any = _NOT_GIVEN, /) -> Any:
    """Elements of x1 where condition is true, else of x2 (all three broadcast); with the
    condition alone, ``nonzero(condition)`` (NumPy's one-argument form, which realizes it)."""
    if x1 is _NOT_GIVEN and x2 is _NOT_GIVEN:
        return nonzero(as_array(condition))
    if x1 is _NOT_GIVEN or x2 is _NOT_GIVEN:
        raise ValueError("where: either both or neither of x and y should be given")
    if not g.literal_scope.depth:
        # (small arrays in memory: selected in C; not inside the library's own algorithms,
        # whose graphs are remade from templates: a multinomial's padded weights, selected
        # now, became new leaves each call, and its tree was no longer keyed: 6 -> 23 ms)
        now = _hot.where_now(condition, x1, x2)
        if now is not None:
            return now
    device = device_of("where", (condition, x1, x2))
    condition = as_array(condition, device=device)
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        # Note: two host values (Python scalars too) take NumPy's dtypes of their own
        x1, x2 = as_array(x1, device=device), as_array(x2, device=device)
    (a, b), _, _ = operands("where", x1, x2)
    # (the fast path of ``operands`` leaves a Python scalar's node unbroadcast)
    shape = broadcast_shapes("where", condition.shape, a.shape, b.shape)
    cond = broadcast_node(g.cast(condition._node, np.bool_), shape)
    return Array._new(g.alu(Op.WHERE, cond, broadcast_node(a, shape), broadcast_node(b, shape)))


def _index_reduction(name: str, x: Any, axis: Any, keepdims: bool) -> Array:
    x = as_array(x)
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
    info = x.device.info
    n = x.size if ax is None else x.shape[ax]
    plain = _realized(x) and (ax is None or ax == x.ndim - 1)
    if x.dtype.np in _PACKABLE and n < 2 ** 32 and (info.style != "loops" or not plain):
        # one fused reduction of (value, index) pairs: on GPUs always; on the cpu device
        # when there is a producer to fuse or the axis is not the last (NumPy's SIMD argmax
        # of plain memory along the last axis is faster; along another axis it is 10-40x
        # slower)
        return Array._new(g.remade(_packed, (name, ax, bool(keepdims)), x._node))
    if info.style != "loops" and (library.on_device(info.kind, name) is None or
                                  x.dtype.np.kind != "c"):
        # a dtype too wide to pack on a GPU: two fused reductions on the device, not a
        # round trip through the host (OpenCL), nor CuPy's (cuda: its argmin of a float64
        # array holding several NaNs gave a later NaN's index, not the first, as NumPy);
        # complex numbers, which the IR's MAX/MIN do not order, go to the device library
        return Array._new(g.remade(_two_reductions, (name, ax, bool(keepdims)), x._node))
    node = g.library(name, (x._node,), {"axis": ax, "keepdims": bool(keepdims)},
                     np.int64, shape)
    return Array._new(node)


#: dtypes whose values order as a 32-bit key, so that (key, index) packs into one int64
_PACKABLE = frozenset(np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.int32, np.uint8,
                                            np.uint16, np.uint32, np.float16, np.float32))


def _realized(x: Array) -> bool:
    node = x._node
    return node.op == "BUFFER" or (node.op == "VIEW" and node.srcs[0].op == "BUFFER")


def _packed(node: g.Node, name: str, ax: int | None, keepdims: bool) -> g.Node:
    """argmax/argmin of ``node`` as one reduction of (value, index) pairs packed into an
    int64: the value's 32-bit order key times 2^32, plus the index (argmin) or 2^32 - 1 minus
    it (argmax), so the MAX (MIN) of the packed words picks the largest (smallest) value and,
    among equal ones, the first index, as NumPy. A float's key is its bits with the negative
    ones' magnitude bits flipped (IEEE order), -0.0 made +0.0 first (they are equal), NaN the
    largest key for argmax and the smallest for argmin (the first NaN wins, as NumPy's).
    It fuses with the producer of ``node`` and reads each element once."""
    ndim, flat = len(node.shape), ax is None
    if ax is None:
        node, ax = g.reshape(node, (node.size,)), 0
    shape, dev = node.shape, node.device

    def c(value: int | float, dtype: Any) -> g.Node:
        return broadcast_node(g.const(value, dtype, dev), shape)

    i32, i64 = np.dtype(np.int32), np.dtype(np.int64)
    big = name == "argmax"
    if node.dtype.kind == "f":
        f = g.alu(Op.ADD, g.cast(node, np.float32), c(0.0, np.float32))   # -0.0 -> +0.0
        bits = g.alu(Op.BITCAST, f, dtype=i32)
        flipped = g.alu(Op.XOR, bits, c(0x7FFFFFFF, i32))
        key = g.alu(Op.WHERE, g.alu(Op.CMPLT, bits, c(0, i32), dtype=np.bool_), flipped, bits)
        nan_key = c(2 ** 31 - 1 if big else -2 ** 31, i32)
        key = g.alu(Op.WHERE, g.alu(Op.ISNAN, f, dtype=np.bool_), nan_key, key)
        key = g.cast(key, i64)
    else:
        key = g.cast(node, i64)
        if node.dtype == np.uint32:
            key = g.alu(Op.SUB, key, c(2 ** 31, i64))
    n = shape[ax]
    along = broadcast_node(g.reshape(g.iota(n, dev), tuple(n if i == ax else 1
                                                            for i in range(len(shape)))), shape)
    low = g.alu(Op.SUB, c(2 ** 32 - 1, i64), along) if big else along
    packed = g.alu(Op.ADD, g.alu(Op.MUL, key, c(2 ** 32, i64)), low)
    best = g.reduce(packed, Op.MAX if big else Op.MIN, (ax,))
    index = g.alu(Op.AND, best, broadcast_node(g.const(2 ** 32 - 1, i64, dev), best.shape))
    if big:
        index = g.alu(Op.SUB, broadcast_node(g.const(2 ** 32 - 1, i64, dev), best.shape), index)
    if flat:
        return g.reshape(index, (1,) * ndim if keepdims else ())
    return index if keepdims else g.reshape(index, tuple(s for i, s in enumerate(index.shape)
                                                          if i != ax))


def _two_reductions(node: g.Node, name: str, ax: int | None, keepdims: bool) -> g.Node:
    """argmax/argmin of ``node`` as generated reductions: the extremum along the axis (NaN
    wins, as the IR's MAX/MIN propagate it), then the smallest index where the element
    equals it (or is NaN where it is NaN): the first one, as NumPy's."""
    ndim, flat = len(node.shape), ax is None
    if ax is None:
        node, ax = g.reshape(node, (node.size,)), 0
    if node.dtype == np.bool_:
        node = g.cast(node, np.int8)
    shape = node.shape
    best = broadcast_node(g.reduce(node, Op.MAX if name == "argmax" else Op.MIN, (ax,)), shape)
    hit = g.alu(Op.CMPEQ, node, best, dtype=np.bool_)
    if node.dtype.kind == "f":
        both_nan = g.alu(Op.AND, g.alu(Op.ISNAN, node, dtype=np.bool_),
                         g.alu(Op.ISNAN, best, dtype=np.bool_), dtype=np.bool_)
        hit = g.alu(Op.OR, hit, both_nan, dtype=np.bool_)
    n = shape[ax]
    along = g.reshape(g.iota(n, node.device), tuple(n if i == ax else 1 for i in range(len(shape))))
    index = g.alu(Op.WHERE, hit, broadcast_node(along, shape),
                  broadcast_node(g.const(n, np.int64, node.device), shape))
    out = g.reduce(index, Op.MIN, (ax,))        # (the reduced axis kept, of size 1)
    if flat:
        return g.reshape(out, (1,) * ndim if keepdims else ())
    return out if keepdims else g.reshape(out, tuple(s for i, s in enumerate(out.shape)
                                                      if i != ax))


# Note: the parameters that NumPy takes positionally (axis, out; side and sorter) are
# positional-or-keyword here too; the standard makes them keyword-only, and its signature
# tests allow this.
def argmax(x: Any, /, axis: int | None = None, out: Any = None, *,
           keepdims: bool = False) -> Array:
    """Index of the first largest element (along ``axis``, or of the flattened array); the
    first NaN counts as the largest, as in NumPy."""
    if axis is None and out is None and keepdims is False:
        r = _hot.quick_extremum("argmax", x)   # (a small array in host memory: now)
        if r is not None:
            return r
    return write_out("argmax", out, _index_reduction("argmax", x, axis, keepdims))


def argmin(x: Any, /, axis: int | None = None, out: Any = None, *,
           keepdims: bool = False) -> Array:
    """Index of the first smallest element (along ``axis``, or of the flattened array)."""
    if axis is None and out is None and keepdims is False:
        r = _hot.quick_extremum("argmin", x)   # (a small array in host memory: now)
        if r is not None:
            return r
    return write_out("argmin", out, _index_reduction("argmin", x, axis, keepdims))


def count_nonzero(x: Any, /, axis: Any = None, *, keepdims: bool = False) -> Array:
    """How many elements over ``axis`` are non-zero (a fused reduction, int64)."""
    from ._statistical_functions import reduce_node
    if axis is None and not keepdims and type(x) is Array and x.dtype is dt.bool:
        # (``np.count_nonzero(x > 0)`` of a small bool array in memory: its sum, computed
        # now in C as an int64 known scalar; 12 -> 1 us)
        now = _hot.quick_sum(x)
        if now is not None and now.dtype is dt.int64:
            return now
    x = as_array(x)
    nonzero_ = g.cast(g.alu(Op.CMPNE, x._node, broadcast_node(
        g.const(0, x.dtype.np, x.device), x.shape), dtype=np.bool_), np.int64)
    node, _ = reduce_node("count_nonzero", x, Op.ADD, axis, keepdims, nonzero_)
    return Array._new(node)


def nonzero(x: Any, /) -> tuple[Array, ...]:
    """Indices of the non-zero elements, one int64 array per axis (realizes x: the result's
    shape depends on its values)."""
    from ._creation_functions import asarray
    x = as_array(x)
    if x.ndim == 0:
        raise ValueError("nonzero: a 0-d array has no axes to index; use x[None] first")
    host = x._host()
    return tuple(asarray(np.ascontiguousarray(i, dtype=np.int64), device=x.device)
                 for i in np.nonzero(host))


def searchsorted(x1: Any, x2: Any, /, side: str = "left", sorter: Any = None) -> Array:
    """Where the values of x2 would go in the sorted 1-D x1 to keep it sorted (``sorter``:
    the indices that sort x1). Either may be an array-like; a scalar x2 gives a 0-d result."""
    from . import _dtypes as dt
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    device = device_of("searchsorted", (x1, x2, sorter))
    x1 = as_array(x1, device=device)
    if x1.ndim != 1:
        raise ValueError(f"searchsorted: x1 must be a 1-D array, got shape {x1.shape}")
    if isinstance(x2, (bool, int, float, complex)) and not isinstance(x2, np.generic):
        # a Python scalar takes x1's dtype where it fits (it is weak)
        x2 = as_array(x2, dtype=dt.result_type_of(x1, x2, where="searchsorted"), device=device)
    else:
        x2 = as_array(x2, device=device)
    common = dt.result_type_of(x1, x2, where="searchsorted")
    srcs = [g.cast(x1._node, common.np), g.cast(x2._node, common.np)]
    if sorter is not None:
        sorter = as_array(sorter, device=device)
        if sorter.shape != x1.shape or sorter.dtype not in dt.INTEGER:
            raise ValueError("searchsorted: sorter must be integer indices shaped like x1")
        srcs.append(sorter._node)
    node = g.library("searchsorted", tuple(srcs), {"side": side}, np.int64, x2.shape)
    return Array._new(node)
