"""The standard's ``linalg`` extension (zyxarray.linalg).

Layer: ``_api``. Builds graph nodes; never touches a device.

Two kinds of function:

- Decompositions and solvers (cholesky, det, eig, eigh, eigvals, eigvalsh, inv, pinv, qr,
  slogdet, solve, svd, svdvals, and through them matrix_rank, matrix_norm's 'nuc'/2/-2 and
  matrix_power's negative powers) are ``LIBRARY`` nodes: LAPACK through NumPy on host
  memory (``_devices/library/linalg.py``). A decomposition with several results is one
  node whose packed result is split into views (``_split``), so one LAPACK call serves
  every result. (eig and eigvals are in the 2025.12 text, though not in its ``__all__``.)
  Those that can fail on the values they are given (a singular matrix, one that is not
  positive definite, NaN that stops an iteration) are computed by the call (``_now``), so
  the ``LinAlgError`` is raised there, as NumPy raises it, on every device.
- Everything that is arithmetic is built from graph ops, so it fuses with its producers and
  consumers: outer (a broadcast multiply), cross (slices, multiplies and a concat),
  diagonal (a strided view: no copy), trace (a sum over that view), vector_norm and
  matrix_norm's 'fro'/1/-1/inf/-inf (abs, pow, sum/max/min), tensordot (a permute, a
  reshape and matmul), matrix_power (repeated squaring by matmul).

# Note: where the standard says an input "should have a floating-point data type", integer
# and boolean inputs raise TypeError (as array-api-strict does); NumPy would compute in
# float64 instead.
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from .._lazy.realize import realize
from .._lazy.view import View
from . import _dtypes as dt
from . import _statistical_functions as stats
from ._array_object import Array
from ._elementwise_functions import broadcast_node, broadcast_shapes, check, device_of
from ._linear_algebra_functions import matmul
from ._manipulation_functions import concat, normalize_axes, normalize_axis


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


# -- shared helpers ---------------------------------------------------------------------------
def _array(name: str, x: Any) -> Array:
    if not isinstance(x, Array):
        raise TypeError(f"{name}: expected an array, got {type(x).__name__}")
    return x


def _matrices(name: str, x: Any, *, square: bool = False, category: str = "floating-point"
              ) -> Array:
    """``x`` checked to be a stack of (square) matrices of a ``category`` dtype."""
    x = _array(name, x)
    check(name, x.dtype, category)
    if x.ndim < 2:
        raise ValueError(f"{name}: expected a matrix or a stack of matrices (at least 2 "
                         f"dimensions), got shape {x.shape}")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{name}: expected square matrices, got shape {x.shape}")
    return x


def _real_of(d: dt.DType) -> dt.DType:
    """The real dtype of the same precision (complex64 -> float32)."""
    return dt.from_np(np.empty(0, d.np).real.dtype)


def _complex_of(d: dt.DType) -> dt.DType:
    """The complex dtype of the same precision (float32 -> complex64)."""
    return dt.complex64 if d in (dt.float32, dt.complex64) else dt.complex128


def _const(value: Any, dtype: np.dtype, like: g.Node, shape: tuple[int, ...]) -> g.Node:
    return broadcast_node(g.const(value, dtype, like.device), shape)


def _split(packed: g.Node, parts: list[tuple[tuple[int, ...], dt.DType]]) -> list[Array]:
    """The results of a packed LIBRARY node: one contiguous view per (shape, dtype), in the
    order the host implementation wrote them. A real result packed in a complex buffer is
    that view's real component (an elementwise op on the view)."""
    out = []
    start = 0
    for shape, dtype in parts:
        size = math.prod(shape)
        node = g.reshape(g.slice_view(packed, ((start, 1, size),)), shape)
        if dtype.np != packed.dtype:
            node = g.alu(Op.REAL, node, dtype=dtype.np)
        out.append(Array._new(node))
        start += size
    assert start == packed.shape[0]
    return out


def _packed(name: str, x: Array, params: dict[str, Any], dtype: dt.DType,
            parts: list[tuple[tuple[int, ...], dt.DType]], now: bool = True) -> list[Array]:
    total = sum(math.prod(shape) for shape, _ in parts)
    node = g.library(name, (x._node,), params, dtype.np, (total,))
    return _split(_now(node) if now else node, parts)


def _now(node: g.Node) -> g.Node:
    """``node`` computed now. Code such as scikit-learn's ``except LinAlgError:`` around a
    factorization relies on the call raising, as NumPy's does; computed later, the error
    would surface at some unrelated observation. (Inputs are realized for a library op
    anyway, so this costs the op's laziness, not extra work.)"""
    realize(node)
    return node


def _reduce(node: g.Node, op: Op, axes: tuple[int, ...], keepdims: bool) -> g.Node:
    """REDUCE over ``axes`` (none: the node itself), then drop them unless ``keepdims``."""
    if not axes:
        return node
    out = g.reduce(node, op, axes)
    if not keepdims:
        out = g.reshape(out, tuple(s for i, s in enumerate(out.shape) if i not in axes))
    return out


def _abs2(node: g.Node, real: np.dtype) -> g.Node:
    """|x|**2 without a square root: re*re + im*im for complex x (as NumPy's norms)."""
    if node.dtype.kind != "c":
        return g.alu(Op.MUL, node, node)
    re = g.alu(Op.REAL, node, dtype=real)
    im = g.alu(Op.IMAG, node, dtype=real)
    return g.alu(Op.ADD, g.alu(Op.MUL, re, re), g.alu(Op.MUL, im, im))


def _abs(node: g.Node, real: np.dtype) -> g.Node:
    return g.alu(Op.ABS, node, dtype=real)


def _diagonal(node: g.Node, offset: int) -> g.Node:
    """The ``offset`` diagonal of each matrix, as a view (no copy).

    When ``node`` reads its data through one strided view (contiguous, transposed,
    sliced), the diagonal is one strided view too: the row and column strides add up.
    Otherwise (masked or chained views) it is a view of the flattened matrices that starts
    at the diagonal's first element and steps by ``N + 1``."""
    *batch, m, n = node.shape
    if offset >= 0:
        size, row, col = max(0, min(m, n - offset)), 0, offset
    else:
        size, row, col = max(0, min(m + offset, n)), -offset, 0
    shape = (*batch, size)
    src, st = g.view_st(node)
    if len(st) == 1 and st[0].mask is None:
        *outer, row_stride, col_stride = st[0].strides
        start = st[0].offset + (row * row_stride + col * col_stride if size else 0)
        view = View.make(shape, (*outer, row_stride + col_stride), start)
        return g.Node("VIEW", (src,), (view,), node.dtype, shape, node.device)
    flat = g.reshape(node, (*batch, m * n))
    spec = tuple((0, 1, s) for s in batch) + ((row * n + col if size else 0, n + 1, size),)
    return g.slice_view(flat, spec)


# -- decompositions and solvers (LIBRARY nodes) -----------------------------------------------
def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """The lower (or, if ``upper``, upper) Cholesky factor of each Hermitian positive-definite
    matrix; ``LinAlgError`` (from this call) where one is not positive definite."""
    x = _matrices("cholesky", x, square=True)
    return Array._new(_now(g.library("cholesky", (x._node,), {"upper": bool(upper)},
                                     x.dtype.np, x.shape)))


def det(x: Array, /) -> Array:
    """The determinant of each square matrix."""
    x = _matrices("det", x, square=True)
    return Array._new(g.library("det", (x._node,), {}, x.dtype.np, x.shape[:-2]))


def slogdet(x: Array, /) -> SlogdetResult:
    """(sign, log|det|) of each square matrix; sign has x's dtype, logabsdet is real."""
    x = _matrices("slogdet", x, square=True)
    batch = x.shape[:-2]
    sign, logabsdet = _packed("slogdet", x, {}, x.dtype,
                              [(batch, x.dtype), (batch, _real_of(x.dtype))], now=False)
    return SlogdetResult(sign, logabsdet)


def eigh(x: Array, /) -> EighResult:
    """Eigenvalues (real, ascending) and eigenvectors (columns) of each Hermitian matrix."""
    x = _matrices("eigh", x, square=True)
    values, vectors = _packed("eigh", x, {}, x.dtype,
                              [(x.shape[:-1], _real_of(x.dtype)), (x.shape, x.dtype)])
    return EighResult(values, vectors)


def eigvalsh(x: Array, /) -> Array:
    """Eigenvalues (real, ascending) of each Hermitian matrix."""
    x = _matrices("eigvalsh", x, square=True)
    return Array._new(_now(g.library("eigvalsh", (x._node,), {}, _real_of(x.dtype).np,
                                     x.shape[:-1])))


def eig(x: Array, /) -> EigResult:
    """Eigenvalues and eigenvectors (columns) of each square matrix, always complex."""
    x = _matrices("eig", x, square=True)
    c = _complex_of(x.dtype)
    values, vectors = _packed("eig", x, {}, c, [(x.shape[:-1], c), (x.shape, c)])
    return EigResult(values, vectors)


def eigvals(x: Array, /) -> Array:
    """Eigenvalues of each square matrix, always complex."""
    x = _matrices("eigvals", x, square=True)
    return Array._new(_now(g.library("eigvals", (x._node,), {}, _complex_of(x.dtype).np,
                                     x.shape[:-1])))


def inv(x: Array, /) -> Array:
    """The inverse of each square matrix (``LinAlgError`` from this call for a singular one)."""
    x = _matrices("inv", x, square=True)
    return Array._new(_now(g.library("inv", (x._node,), {}, x.dtype.np, x.shape)))


def _rtol_array(name: str, rtol: Array, x: Array) -> tuple[tuple[int, ...], g.Node]:
    """(the batch shape with rtol broadcast in, rtol as x's real dtype)."""
    device_of(name, (x, rtol))
    if rtol.dtype not in dt.REAL_FLOATING:
        raise TypeError(f"{name}: rtol must have a real floating-point dtype, got "
                        f"{rtol.dtype.name}")
    batch = broadcast_shapes(name, x.shape[:-2], rtol.shape)
    return batch, g.cast(rtol._node, _real_of(x.dtype).np)


def pinv(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """The Moore-Penrose pseudo-inverse of each matrix; singular values at or below
    ``rtol`` times the largest count as zero (default ``max(M, N) * eps``)."""
    x = _matrices("pinv", x)
    m, n = x.shape[-2:]
    if isinstance(rtol, Array):
        batch, r = _rtol_array("pinv", rtol, x)
        xn = broadcast_node(x._node, batch + (m, n))
        node = g.library("pinv", (xn, broadcast_node(r, batch)), {"rtol": None}, x.dtype.np,
                         batch + (n, m))
        return Array._new(_now(node))
    params = {"rtol": None if rtol is None else float(rtol)}
    return Array._new(_now(g.library("pinv", (x._node,), params, x.dtype.np,
                                     x.shape[:-2] + (n, m))))


def qr(x: Array, /, *, mode: Literal["reduced", "complete"] = "reduced") -> QRResult:
    """QR decomposition of each matrix: ``mode`` 'reduced' (Q is M x K) or 'complete'."""
    x = _matrices("qr", x)
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', got {mode!r}")
    *batch, m, n = x.shape
    k = min(m, n) if mode == "reduced" else m
    # (Householder QR cannot fail: it stays lazy)
    q, r = _packed("qr", x, {"mode": mode}, x.dtype,
                   [((*batch, m, k), x.dtype), ((*batch, k, n), x.dtype)], now=False)
    return QRResult(q, r)


def solve(x1: Array, x2: Array, /) -> Array:
    """The solution X of ``x1 @ X = x2`` for each square ``x1``; a 1-D ``x2`` is one
    right-hand side for every matrix of the stack."""
    a, b = _array("solve", x1), _array("solve", x2)
    device_of("solve", (a, b))
    common = dt.result_type_of(a, b, where="solve")
    check("solve", common, "floating-point")
    _matrices("solve", a, square=True, category="any")
    m = a.shape[-1]
    if b.ndim == 0:
        raise ValueError("solve: x2 must have at least one dimension")
    if b.ndim == 1:
        if b.shape[0] != m:
            raise ValueError(f"solve: shapes {a.shape} and {b.shape} do not align")
        shape = a.shape[:-2] + (m,)
    else:
        if b.shape[-2] != m:
            raise ValueError(f"solve: shapes {a.shape} and {b.shape} do not align "
                             f"({m} != {b.shape[-2]})")
        shape = broadcast_shapes("solve", a.shape[:-2], b.shape[:-2]) + b.shape[-2:]
    node = g.library("solve", (g.cast(a._node, common.np), g.cast(b._node, common.np)), {},
                     common.np, shape)
    return Array._new(_now(node))


def svd(x: Array, /, *, full_matrices: bool = True) -> SVDResult:
    """Singular value decomposition ``x = U @ diag(S) @ Vh`` of each matrix; S is real and
    descending."""
    x = _matrices("svd", x)
    *batch, m, n = x.shape
    k = min(m, n)
    mu, nv = (m, n) if full_matrices else (k, k)
    u, s, vh = _packed("svd", x, {"full_matrices": bool(full_matrices)}, x.dtype,
                       [((*batch, m, mu), x.dtype), ((*batch, k), _real_of(x.dtype)),
                        ((*batch, nv, n), x.dtype)])
    return SVDResult(u, s, vh)


def svdvals(x: Array, /) -> Array:
    """The singular values of each matrix (real, descending)."""
    x = _matrices("svdvals", x)
    k = min(x.shape[-2:])
    return Array._new(_now(g.library("svdvals", (x._node,), {}, _real_of(x.dtype).np,
                                     x.shape[:-2] + (k,))))


def matrix_rank(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """The number of singular values above ``rtol`` times the largest (default
    ``max(M, N) * eps``), as int64."""
    x = _matrices("matrix_rank", x)
    *batch_list, m, n = x.shape
    batch = tuple(batch_list)
    real = _real_of(x.dtype).np
    if isinstance(rtol, Array):
        batch, r = _rtol_array("matrix_rank", rtol, x)
        r = g.reshape(r, r.shape + (1,))
    else:
        scale = max(m, n) * float(np.finfo(real).eps) if rtol is None else float(rtol)
        r = g.const(scale, real, x.device)
    k = min(m, n)
    if k == 0:
        return Array._new(broadcast_node(g.const(0, np.int64, x.device), batch))
    s = svdvals(x)._node
    s = broadcast_node(s, batch + (k,))
    largest = g.reduce(s, Op.MAX, (len(batch),))
    tol = g.alu(Op.MUL, largest, broadcast_node(r, batch + (1,)))
    above = g.alu(Op.CMPLT, broadcast_node(tol, batch + (k,)), s, dtype=np.bool_)
    count = g.reduce(g.cast(above, np.int64), Op.ADD, (len(batch),))
    return Array._new(g.reshape(count, batch))


# -- arithmetic (graph ops that fuse) ---------------------------------------------------------
def matrix_power(x: Array, n: int, /) -> Array:
    """``x`` multiplied by itself ``n`` times (identity for 0, powers of the inverse for
    negative ``n``), by repeated squaring."""
    x = _matrices("matrix_power", x, square=True)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"matrix_power: n must be an integer, got {type(n).__name__}") \
            from None
    if n == 0:
        from ._creation_functions import eye
        return Array._new(broadcast_node(eye(x.shape[-1], dtype=x.dtype,
                                             device=x.device)._node, x.shape))
    base = inv(x) if n < 0 else x
    n = abs(n)
    result: Array | None = None
    while True:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if not n:
            break
        base = matmul(base, base)
    assert result is not None
    return Array._new(result._node)


def matrix_norm(x: Array, /, *, keepdims: bool = False,
                ord: float | Literal["fro", "nuc"] | None = "fro") -> Array:
    """A matrix norm of each matrix: 'fro' (also for None), 'nuc', 1, -1, 2, -2, inf or -inf
    (the result is real)."""
    x = _matrices("matrix_norm", x)
    real = _real_of(x.dtype).np
    node = x._node
    nd = x.ndim
    rows, cols = nd - 2, nd - 1
    if ord == "fro" or ord is None:
        out = g.alu(Op.SQRT, g.reduce(_abs2(node, real), Op.ADD, (rows, cols)))
    elif ord == "nuc":
        out = g.reduce(svdvals(x)._node, Op.ADD, (rows,))
    elif isinstance(ord, (int, float)) and ord in (1, -1, math.inf, -math.inf):
        # 1/-1: the largest/smallest column sum; inf/-inf: the largest/smallest row sum
        along, across = (rows, cols) if abs(ord) == 1 else (cols, rows)
        if x.shape[across] == 0:
            raise ValueError(f"matrix_norm: ord={ord} of matrices of shape {x.shape[-2:]} "
                             "has no value (an empty maximum)")
        sums = g.reduce(_abs(node, real), Op.ADD, (along,))
        out = g.reduce(sums, Op.MAX if ord > 0 else Op.MIN, (across,))
    elif isinstance(ord, (int, float)) and ord in (2, -2):
        k = min(x.shape[-2:])
        if k == 0:
            raise ValueError(f"matrix_norm: ord={ord} of matrices of shape {x.shape[-2:]} "
                             "has no value (no singular values)")
        s = svdvals(x)._node
        first = 0 if ord == 2 else k - 1    # singular values are descending
        spec = tuple((0, 1, d) for d in s.shape[:-1]) + ((first, 1, 1),)
        out = g.slice_view(s, spec)
    else:
        raise ValueError(f"matrix_norm: invalid ord {ord!r} (expected 'fro', 'nuc', 1, -1, 2, "
                         "-2, inf or -inf)")
    batch = x.shape[:-2]
    return Array._new(g.reshape(out, batch + (1, 1) if keepdims else batch))


def vector_norm(x: Array, /, *, axis: int | tuple[int, ...] | None = None,
                keepdims: bool = False, ord: int | float = 2) -> Array:
    """The ``ord``-norm of the vectors along ``axis`` (all axes if None); the result is
    real. ord 0 counts non-zeros; inf/-inf are the largest/smallest magnitude."""
    x = _array("vector_norm", x)
    check("vector_norm", x.dtype, "floating-point")
    if isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        raise ValueError(f"vector_norm: ord must be a real number, got {ord!r}")
    axes = normalize_axes("vector_norm", axis, x.ndim)
    real = _real_of(x.dtype).np
    node = x._node
    p = float(ord)
    if p in (math.inf, -math.inf):
        if any(x.shape[a] == 0 for a in axes):
            raise ValueError(f"vector_norm: ord={ord} of an empty vector (shape {x.shape}, "
                             f"axis {axis}) has no value")
        out = _reduce(_abs(node, real), Op.MAX if p > 0 else Op.MIN, axes, keepdims)
    elif p == 0:
        zero = _const(0, node.dtype, node, node.shape)
        nonzero = g.cast(g.alu(Op.CMPNE, node, zero, dtype=np.bool_), real)
        out = _reduce(nonzero, Op.ADD, axes, keepdims)
    elif p == 1:
        out = _reduce(_abs(node, real), Op.ADD, axes, keepdims)
    elif p == 2:
        out = g.alu(Op.SQRT, _reduce(_abs2(node, real), Op.ADD, axes, keepdims))
    else:
        powered = g.alu(Op.POW, _abs(node, real), _const(p, real, node, node.shape))
        total = _reduce(powered, Op.ADD, axes, keepdims)
        out = g.alu(Op.POW, total, _const(1.0 / p, real, node, total.shape))
    return Array._new(out)


def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """The ``offset`` diagonal of each matrix (a view: no copy; read-only, as NumPy's,
    and it shows later writes to ``x``)."""
    x = _matrices("diagonal", x, category="any")
    return Array._view(x, _diagonal, operator.index(offset), writeable=False)


def trace(x: Array, /, *, offset: int = 0, dtype: Any = None) -> Array:
    """The sum of the ``offset`` diagonal of each matrix (integers sum in int64/uint64 as
    ``sum`` does, unless ``dtype`` says otherwise)."""
    x = _matrices("trace", x, category="numeric")
    diag = Array._new(_diagonal(x._node, operator.index(offset)))
    return stats.sum(diag, axis=-1, dtype=dtype)


def outer(x1: Array, x2: Array, /) -> Array:
    """The outer product ``x1[:, None] * x2[None, :]`` of two vectors."""
    a, b = _array("outer", x1), _array("outer", x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"outer: expected two 1-D arrays, got shapes {a.shape} and {b.shape}")
    device_of("outer", (a, b))
    common = dt.result_type_of(a, b, where="outer")
    check("outer", common, "numeric")
    shape = (a.shape[0], b.shape[0])
    lhs = broadcast_node(g.reshape(g.cast(a._node, common.np), (shape[0], 1)), shape)
    rhs = broadcast_node(g.reshape(g.cast(b._node, common.np), (1, shape[1])), shape)
    return Array._new(g.alu(Op.MUL, lhs, rhs))


def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The cross product of the 3-element vectors along ``axis`` (other axes broadcast)."""
    a, b = _array("cross", x1), _array("cross", x2)
    device_of("cross", (a, b))
    common = dt.result_type_of(a, b, where="cross")
    check("cross", common, "numeric")
    ndim = min(a.ndim, b.ndim)
    if ndim == 0:
        raise ValueError("cross: the operands must have at least one dimension")
    axis = operator.index(axis)
    if 0 <= axis < ndim and a.ndim == b.ndim:
        axis -= ndim        # unambiguous when the ranks agree
    if not -ndim <= axis < 0:
        raise ValueError(f"cross: axis {axis} must be in [-{ndim}, -1] for shapes {a.shape} "
                         f"and {b.shape}")
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(f"cross: the vectors along axis {axis} must have 3 elements, got "
                         f"shapes {a.shape} and {b.shape}")
    shape = broadcast_shapes("cross", a.shape, b.shape)
    ax = axis % len(shape)
    an = broadcast_node(g.cast(a._node, common.np), shape)
    bn = broadcast_node(g.cast(b._node, common.np), shape)

    def part(node: g.Node, i: int) -> g.Node:
        return g.slice_view(node, tuple((i, 1, 1) if d == ax else (0, 1, s)
                                        for d, s in enumerate(shape)))

    def term(i: int, j: int) -> g.Node:
        return g.alu(Op.SUB, g.alu(Op.MUL, part(an, i), part(bn, j)),
                     g.alu(Op.MUL, part(an, j), part(bn, i)))

    pieces = [Array._new(term(1, 2)), Array._new(term(2, 0)), Array._new(term(0, 1))]
    return concat(pieces, axis=ax)


# Note: axes may be positional, as in NumPy.
def tensordot(x1: Array, x2: Array, /,
              axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> Array:
    """The contraction of ``x1`` and ``x2`` over ``axes`` (the last N axes of x1 with the
    first N of x2, or two explicit sequences): a permute, a reshape and one matmul."""
    a, b = _array("tensordot", x1), _array("tensordot", x2)
    device_of("tensordot", (a, b))
    common = dt.result_type_of(a, b, where="tensordot")
    check("tensordot", common, "numeric")
    if isinstance(axes, (int, np.integer)):
        count = operator.index(axes)
        if count < 0 or count > min(a.ndim, b.ndim):
            raise ValueError(f"tensordot: axes={count} is invalid for shapes {a.shape} and "
                             f"{b.shape}")
        ax1 = tuple(range(a.ndim - count, a.ndim))
        ax2 = tuple(range(count))
    else:
        try:
            first, second = axes
            first, second = list(first), list(second)
        except (TypeError, ValueError):
            raise ValueError(f"tensordot: axes must be an int or a pair of sequences, got "
                             f"{axes!r}") from None
        if len(first) != len(second):
            raise ValueError(f"tensordot: axes {axes!r} name different numbers of axes")
        ax1 = tuple(normalize_axis("tensordot", i, a.ndim) for i in first)
        ax2 = tuple(normalize_axis("tensordot", j, b.ndim) for j in second)
        if len(set(ax1)) != len(ax1) or len(set(ax2)) != len(ax2):
            raise ValueError(f"tensordot: repeated axis in {axes!r}")
    for i, j in zip(ax1, ax2):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"tensordot: shapes {a.shape} and {b.shape} differ on the "
                             f"contracted axes {i} and {j} ({a.shape[i]} != {b.shape[j]})")
    free1 = [i for i in range(a.ndim) if i not in ax1]
    free2 = [j for j in range(b.ndim) if j not in ax2]
    k = math.prod(a.shape[i] for i in ax1)
    shape1 = tuple(a.shape[i] for i in free1)
    shape2 = tuple(b.shape[j] for j in free2)
    lhs = g.reshape(g.permute(g.cast(a._node, common.np), tuple(free1) + ax1),
                    (math.prod(shape1), k))
    rhs = g.reshape(g.permute(g.cast(b._node, common.np), ax2 + tuple(free2)),
                    (k, math.prod(shape2)))
    out = matmul(Array._new(lhs), Array._new(rhs))
    return Array._new(g.reshape(out._node, shape1 + shape2))
