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

NumPy's names beyond the standard: norm (vector_norm or matrix_norm over the axes it
names), lstsq (from svd, with matmuls), multi_dot (matmuls in the cheapest order); and
NumPy's keywords of the decompositions (pinv's rcond and hermitian, svd's compute_uv and
hermitian, matrix_rank's tol and hermitian, eigh's UPLO). Every function takes array-likes
(lists, NumPy arrays) as NumPy does; they join the device of the call's other arrays.

# Note: where the standard says an input "should have a floating-point data type", integer
# and boolean inputs raise TypeError (as array-api-strict does); NumPy would compute in
# float64 instead. NumPy's own names (norm, lstsq) compute integers in float64, as NumPy.
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
from ._numpy_args import as_array, device_for


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
_HOST_DATA = (list, tuple, np.ndarray, np.generic, bool, int, float, complex)


def _array(name: str, x: Any, device: Any = None) -> Array:
    """``x`` as an array: host data (lists, NumPy arrays, scalars) as NumPy takes it, on
    ``device`` (the device of the call's other arrays) or the default one."""
    if isinstance(x, Array):
        return x
    if isinstance(x, _HOST_DATA):
        return as_array(x, device=device)
    raise TypeError(f"{name}: expected an array, got {type(x).__name__}")


def _arrays(name: str, x1: Any, x2: Any) -> tuple[Array, Array]:
    """Both operands as arrays, host data on the device of the other one."""
    device = device_for(x1, x2)
    return _array(name, x1, device), _array(name, x2, device)


def _matrices(name: str, x: Any, *, square: bool = False, category: str = "floating-point"
              ) -> Array:
    """``x`` checked to be a stack of (square) matrices of a ``category`` dtype."""
    x = _floats(_array(name, x), category)
    check(name, x.dtype, category)
    # (NumPy's LinAlgError, a ValueError: what NumPy raises for these shapes)
    if x.ndim < 2:
        raise np.linalg.LinAlgError(f"{name}: expected a matrix or a stack of matrices (at "
                                    f"least 2 dimensions), got shape {x.shape}")
    if square and x.shape[-1] != x.shape[-2]:
        raise np.linalg.LinAlgError(f"{name}: expected square matrices, got shape {x.shape}")
    return x


def _floats(x: Array, category: str) -> Array:
    """Integer and boolean input to a floating-point function, in the default float dtype.
    # Note: the standard says such input "should" be floating-point (array-api-strict
    # refuses it); NumPy computes it in float64, which is what NumPy code expects."""
    if category == "floating-point" and x.dtype.kind in "biu":
        from ._data_type_functions import astype
        from ._elementwise_functions import default_float
        return astype(x, default_float(x.device))
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
def cholesky(x: Any, /, *, upper: bool = False) -> Array:
    """The lower (or, if ``upper``, upper) Cholesky factor of each Hermitian positive-definite
    matrix; ``LinAlgError`` (from this call) where one is not positive definite."""
    x = _matrices("cholesky", x, square=True)
    return Array._new(_now(g.library("cholesky", (x._node,), {"upper": bool(upper)},
                                     x.dtype.np, x.shape)))


def det(x: Any, /) -> Array:
    """The determinant of each square matrix."""
    x = _matrices("det", x, square=True)
    return Array._new(g.library("det", (x._node,), {}, x.dtype.np, x.shape[:-2]))


def slogdet(x: Any, /) -> SlogdetResult:
    """(sign, log|det|) of each square matrix; sign has x's dtype, logabsdet is real."""
    x = _matrices("slogdet", x, square=True)
    batch = x.shape[:-2]
    sign, logabsdet = _packed("slogdet", x, {}, x.dtype,
                              [(batch, x.dtype), (batch, _real_of(x.dtype))], now=False)
    return SlogdetResult(sign, logabsdet)


def _hermitian_from(name: str, x: Array, uplo: str) -> Array:
    """The matrices whose lower triangle holds what ``uplo`` names: the library reads the
    lower one, and the conjugate transpose's lower triangle is the conjugate of the upper."""
    if uplo not in ("L", "U"):
        raise ValueError(f"{name}: UPLO must be 'L' or 'U', got {uplo!r}")
    if uplo == "L":
        return x
    node = g.permute(x._node, tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2))
    if x.dtype in dt.COMPLEX_FLOATING:
        node = g.alu(Op.CONJ, node)
    return Array._new(node)


# Note: UPLO is NumPy's (the standard's eigh and eigvalsh have no such parameter).
def eigh(x: Any, /, UPLO: str = "L") -> EighResult:
    """Eigenvalues (real, ascending) and eigenvectors (columns) of each Hermitian matrix,
    read from its lower (``UPLO='L'``) or upper (``'U'``) triangle."""
    x = _hermitian_from("eigh", _matrices("eigh", x, square=True), UPLO)
    values, vectors = _packed("eigh", x, {}, x.dtype,
                              [(x.shape[:-1], _real_of(x.dtype)), (x.shape, x.dtype)])
    return EighResult(values, vectors)


def eigvalsh(x: Any, /, UPLO: str = "L") -> Array:
    """Eigenvalues (real, ascending) of each Hermitian matrix, read from its lower
    (``UPLO='L'``) or upper (``'U'``) triangle."""
    x = _hermitian_from("eigvalsh", _matrices("eigvalsh", x, square=True), UPLO)
    return Array._new(_now(g.library("eigvalsh", (x._node,), {}, _real_of(x.dtype).np,
                                     x.shape[:-1])))


def eig(x: Any, /) -> EigResult:
    """Eigenvalues and eigenvectors (columns) of each square matrix, always complex."""
    x = _matrices("eig", x, square=True)
    c = _complex_of(x.dtype)
    values, vectors = _packed("eig", x, {}, c, [(x.shape[:-1], c), (x.shape, c)])
    return EigResult(values, vectors)


def eigvals(x: Any, /) -> Array:
    """Eigenvalues of each square matrix, always complex."""
    x = _matrices("eigvals", x, square=True)
    return Array._new(_now(g.library("eigvals", (x._node,), {}, _complex_of(x.dtype).np,
                                     x.shape[:-1])))


def inv(x: Any, /) -> Array:
    """The inverse of each square matrix (``LinAlgError`` from this call for a singular one)."""
    x = _matrices("inv", x, square=True)
    return Array._new(_now(g.library("inv", (x._node,), {}, x.dtype.np, x.shape)))


def _rtol_array(name: str, rtol: Array, x: Array, what: str = "rtol"
                ) -> tuple[tuple[int, ...], g.Node]:
    """(the batch shape with rtol broadcast in, rtol as x's real dtype)."""
    device_of(name, (x, rtol))
    if rtol.dtype not in dt.REAL_FLOATING:
        raise TypeError(f"{name}: {what} must have a real floating-point dtype, got "
                        f"{rtol.dtype.name}")
    batch = broadcast_shapes(name, x.shape[:-2], rtol.shape)
    return batch, g.cast(rtol._node, _real_of(x.dtype).np)


class _NoValue:
    """The default of a keyword whose absence differs from None (NumPy's ``_NoValue``)."""

    def __repr__(self) -> str:
        return "<no value>"


_NO_VALUE: Any = _NoValue()


def _tolerance(value: Any, x: Array) -> float | Array | None:
    """A tolerance as NumPy takes it: None, a number, or an array (host data becomes an
    array on x's device)."""
    if value is None or isinstance(value, Array):
        return value
    if np.ndim(value) == 0:
        return float(value)
    return as_array(value, device=x.device)


# Note: NumPy's rcond (positional) and hermitian are accepted as NumPy takes them: without
# rcond or rtol the cutoff is NumPy's 1e-15; the standard's ``rtol=None`` gives its default
# ``max(M, N) * eps``.
def pinv(x: Any, /, rcond: Any = None, hermitian: bool = False, *,
         rtol: Any = _NO_VALUE) -> Array:
    """The Moore-Penrose pseudo-inverse of each matrix; singular values at or below
    ``rtol`` (or ``rcond``) times the largest count as zero (default 1e-15, or
    ``max(M, N) * eps`` for ``rtol=None``). ``hermitian`` matrices go through ``eigh``."""
    x = _matrices("pinv", x)
    if rcond is None:
        rcond = 1e-15 if rtol is _NO_VALUE else rtol
    elif rtol is not _NO_VALUE:
        raise ValueError("pinv: rtol and rcond cannot both be set")
    rtol = _tolerance(rcond, x)
    if hermitian:
        return _pinv_hermitian(x, rtol)
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


def _cutoff(name: str, values: Array, rtol: float | Array | None, x: Array) -> Array:
    """``rtol`` (default ``max(M, N) * eps``) times the largest of ``values`` (real, the
    last axis), keeping that axis."""
    m, n = x.shape[-2:]
    largest = stats.max(values, axis=-1, keepdims=True)
    if isinstance(rtol, Array):
        _rtol_array(name, rtol, x)
        r = Array._new(g.cast(rtol._node, values.dtype.np))
        return largest * Array._new(g.reshape(r._node, r.shape + (1,)))
    scale = max(m, n) * float(np.finfo(values.dtype.np).eps) if rtol is None else rtol
    return largest * scale


def _pinv_hermitian(x: Array, rtol: float | Array | None) -> Array:
    """``V diag(1/w) V^H`` from ``eigh``, eigenvalues at or below the cutoff (in magnitude)
    counting as zero."""
    from ._elementwise_functions import abs as absolute
    from ._elementwise_functions import conj, divide, greater
    from ._searching_functions import where
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"pinv: hermitian=True needs square matrices, got shape {x.shape}")
    w, v = eigh(x)
    size = absolute(w)
    keep = greater(size, _cutoff("pinv", size, rtol, x))
    inverse = where(keep, divide(1.0, w), 0.0)
    scaled = v * Array._new(g.reshape(inverse._node, inverse.shape[:-1] + (1,) +
                                      inverse.shape[-1:]))
    return matmul(scaled, conj(v).mT)


def qr(x: Any, /, *, mode: Literal["reduced", "complete"] = "reduced") -> QRResult:
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


def solve(x1: Any, x2: Any, /) -> Array:
    """The solution X of ``x1 @ X = x2`` for each square ``x1``; a 1-D ``x2`` is one
    right-hand side for every matrix of the stack."""
    a, b = _arrays("solve", x1, x2)
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


# Note: NumPy's compute_uv and hermitian are accepted (and full_matrices positionally);
# with compute_uv=False the result is S alone, as in NumPy.
def svd(x: Any, /, full_matrices: bool = True, compute_uv: bool = True,
        hermitian: bool = False) -> Any:
    """Singular value decomposition ``x = U @ diag(S) @ Vh`` of each matrix; S is real and
    descending. ``hermitian`` matrices go through ``eigh``; without ``compute_uv`` only S
    is computed and returned."""
    x = _matrices("svd", x)
    if hermitian:
        return _svd_hermitian(x, compute_uv)
    if not compute_uv:
        return svdvals(x)
    *batch, m, n = x.shape
    k = min(m, n)
    mu, nv = (m, n) if full_matrices else (k, k)
    u, s, vh = _packed("svd", x, {"full_matrices": bool(full_matrices)}, x.dtype,
                       [((*batch, m, mu), x.dtype), ((*batch, k), _real_of(x.dtype)),
                        ((*batch, nv, n), x.dtype)])
    return SVDResult(u, s, vh)


def _svd_hermitian(x: Array, compute_uv: bool) -> Any:
    """The SVD of Hermitian matrices from ``eigh``: S is |eigenvalues| in descending order,
    U the eigenvectors in that order, Vh their conjugate transpose with the eigenvalues'
    signs."""
    from ._elementwise_functions import abs as absolute
    from ._elementwise_functions import conj, sign
    from ._indexing_functions import take_along_axis
    from ._manipulation_functions import flip
    from ._sorting_functions import argsort, sort
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"svd: hermitian=True needs square matrices, got shape {x.shape}")
    if not compute_uv:
        return flip(sort(absolute(eigvalsh(x)), axis=-1), axis=-1)
    w, v = eigh(x)
    order = flip(argsort(absolute(w), axis=-1), axis=-1)
    s = take_along_axis(absolute(w), order, axis=-1)
    signs = take_along_axis(sign(w), order, axis=-1)
    rows = order.shape[:-1] + (1,) + order.shape[-1:]
    u = take_along_axis(v, Array._new(g.reshape(order._node, rows)), axis=-1)
    signed = u * Array._new(g.cast(g.reshape(signs._node, rows), u.dtype.np))
    return SVDResult(u, s, conj(signed).mT)


def svdvals(x: Any, /) -> Array:
    """The singular values of each matrix (real, descending)."""
    x = _matrices("svdvals", x)
    k = min(x.shape[-2:])
    return Array._new(_now(g.library("svdvals", (x._node,), {}, _real_of(x.dtype).np,
                                     x.shape[:-2] + (k,))))


# Note: NumPy's tol (an absolute threshold, positional) and hermitian are accepted, and a
# 0-d or 1-D x gives 1 unless it is all zeros, as in NumPy (a 0-d array here, not an int).
def matrix_rank(x: Any, /, tol: Any = None, hermitian: bool = False, *,
                rtol: Any = None) -> Array:
    """The number of singular values above ``tol``, or else above ``rtol`` times the
    largest (default ``max(M, N) * eps``), as int64. ``hermitian`` matrices use the
    magnitudes of their eigenvalues."""
    x = _array("matrix_rank", x)
    if x.ndim < 2:
        zero = broadcast_node(g.const(0, x.dtype.np, x.device), x.shape)
        nonzero = g.cast(g.alu(Op.CMPNE, x._node, zero, dtype=np.bool_), np.int64)
        return Array._new(_reduce(nonzero, Op.MAX, tuple(range(x.ndim)), False)
                          if x.size else g.const(0, np.int64, x.device))
    x = _matrices("matrix_rank", x)
    *batch_list, m, n = x.shape
    batch = tuple(batch_list)
    real = _real_of(x.dtype).np
    absolute_tol = tol is not None
    limit = _tolerance(tol if absolute_tol else rtol, x)
    if isinstance(limit, Array):
        batch, r = _rtol_array("matrix_rank", limit, x, "tol" if absolute_tol else "rtol")
        r = g.reshape(r, r.shape + (1,))
    else:
        scale = max(m, n) * float(np.finfo(real).eps) if limit is None else limit
        r = g.const(scale, real, x.device)
    k = min(m, n)
    if k == 0:
        return Array._new(broadcast_node(g.const(0, np.int64, x.device), batch))
    if hermitian:
        from ._elementwise_functions import abs as absolute
        s = absolute(eigvalsh(x))._node
    else:
        s = svdvals(x)._node
    s = broadcast_node(s, batch + (k,))
    if absolute_tol:
        tol = broadcast_node(r, batch + (1,))
    else:
        largest = g.reduce(s, Op.MAX, (len(batch),))
        tol = g.alu(Op.MUL, largest, broadcast_node(r, batch + (1,)))
    above = g.alu(Op.CMPLT, broadcast_node(tol, batch + (k,)), s, dtype=np.bool_)
    count = g.reduce(g.cast(above, np.int64), Op.ADD, (len(batch),))
    return Array._new(g.reshape(count, batch))


# -- arithmetic (graph ops that fuse) ---------------------------------------------------------
def matrix_power(x: Any, n: int, /) -> Array:
    """``x`` multiplied by itself ``n`` times (identity for 0, powers of the inverse for
    negative ``n``), by repeated squaring."""
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"matrix_power: n must be an integer, got {type(n).__name__}") \
            from None
    # (integers keep their dtype for n >= 0, as NumPy's: exact products, not float64)
    x = _matrices("matrix_power", x, square=True,
                  category="numeric" if n >= 0 else "floating-point")
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


def matrix_norm(x: Any, /, *, keepdims: bool = False,
                ord: float | Literal["fro", "nuc"] | None = "fro") -> Array:
    """A matrix norm of each matrix: 'fro' (also for None), 'nuc', 1, -1, 2, -2, inf or -inf
    (the result is real)."""
    x = _matrices("matrix_norm", x)
    real = _real_of(x.dtype).np
    node = x._node
    nd = x.ndim
    rows, cols = nd - 2, nd - 1
    if ord == "fro" or ord is None:
        out = g.alu(Op.SQRT, g.reduce(stats.abs2(node, real), Op.ADD, (rows, cols)))
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


def vector_norm(x: Any, /, *, axis: int | tuple[int, ...] | None = None,
                keepdims: bool = False, ord: int | float = 2) -> Array:
    """The ``ord``-norm of the vectors along ``axis`` (all axes if None); the result is
    real. ord 0 counts non-zeros; inf/-inf are the largest/smallest magnitude."""
    x = _floats(_array("vector_norm", x), "floating-point")
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
        out = g.alu(Op.SQRT, _reduce(stats.abs2(node, real), Op.ADD, axes, keepdims))
    else:
        powered = g.alu(Op.POW, _abs(node, real), _const(p, real, node, node.shape))
        total = _reduce(powered, Op.ADD, axes, keepdims)
        out = g.alu(Op.POW, total, _const(1.0 / p, real, node, total.shape))
    return Array._new(out)


def diagonal(x: Any, /, *, offset: int = 0) -> Array:
    """The ``offset`` diagonal of each matrix (a view: no copy; read-only, as NumPy's,
    and it shows later writes to ``x``)."""
    x = _matrices("diagonal", x, category="any")
    return Array._view(x, _diagonal, operator.index(offset), writeable=False)


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Array:
    """The sum of the ``offset`` diagonal of each matrix (integers sum in int64/uint64 as
    ``sum`` does, unless ``dtype`` says otherwise)."""
    x = _matrices("trace", x, category="numeric")
    diag = Array._new(_diagonal(x._node, operator.index(offset)))
    return stats.sum(diag, axis=-1, dtype=dtype)


def outer(x1: Any, x2: Any, /) -> Array:
    """The outer product ``x1[:, None] * x2[None, :]`` of two vectors."""
    a, b = _arrays("outer", x1, x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"outer: expected two 1-D arrays, got shapes {a.shape} and {b.shape}")
    device_of("outer", (a, b))
    common = dt.result_type_of(a, b, where="outer")
    check("outer", common, "numeric")
    shape = (a.shape[0], b.shape[0])
    lhs = broadcast_node(g.reshape(g.cast(a._node, common.np), (shape[0], 1)), shape)
    rhs = broadcast_node(g.reshape(g.cast(b._node, common.np), (1, shape[1])), shape)
    return Array._new(g.alu(Op.MUL, lhs, rhs))


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Array:
    """The cross product of the 3-element vectors along ``axis`` (other axes broadcast)."""
    a, b = _arrays("cross", x1, x2)
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
def tensordot(x1: Any, x2: Any, /,
              axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> Array:
    """The contraction of ``x1`` and ``x2`` over ``axes`` (the last N axes of x1 with the
    first N of x2, or two explicit sequences): a permute, a reshape and one matmul."""
    a, b = _arrays("tensordot", x1, x2)
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


# -- NumPy's linalg names beyond the standard --------------------------------------------------
def _float_input(name: str, x: Any) -> Array:
    """``x`` as an array of a floating dtype: integers and bools as float64, as NumPy's
    norm and lstsq convert them (these names are NumPy's, not the standard's)."""
    x = _array(name, x)
    if x.dtype not in dt.FLOATING:
        check(name, x.dtype, "real-valued" if x.dtype is not dt.bool else "bool")
        x = Array._new(g.cast(x._node, np.float64))
    return x


_MATRIX_ORDS = (None, "fro", "f", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Array:
    """NumPy's ``linalg.norm``: a vector norm over one axis (``ord`` None/2, 1, inf, -inf,
    0 or any other power), a matrix norm over two ('fro', 'nuc', 1, -1, 2, -2, inf,
    -inf); with ``axis=None`` the 2-norm of the flattened array for ``ord=None``, else x's
    vector (1-D) or matrix (2-D) norm. Integers compute in float64."""
    x = _float_input("norm", x)
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            return vector_norm(x, keepdims=keepdims)
        axes: tuple[int, ...] = tuple(range(nd))
    elif isinstance(axis, tuple):
        axes = axis
    else:
        try:
            axes = (operator.index(axis),)
        except TypeError:
            raise TypeError(f"norm: axis must be None, an integer or a tuple of integers, "
                            f"got {axis!r}") from None
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"norm: invalid norm order {ord!r} for vectors")
        return vector_norm(x, axis=axes[0], keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) != 2:
        raise ValueError(f"norm: improper number of dimensions to norm (axis {axis} of "
                         f"shape {x.shape})")
    row, col = (normalize_axis("norm", a, nd) for a in axes)
    if row == col:
        raise ValueError(f"norm: duplicate axes given ({axis})")
    if isinstance(ord, str):
        valid = ord in ("fro", "f", "nuc")
    else:
        valid = ord is None or (isinstance(ord, numbers.Real) and ord in _MATRIX_ORDS[4:])
        ord = None if ord is None else float(ord)
    if not valid:
        raise ValueError(f"norm: invalid norm order {ord!r} for matrices")
    rest = tuple(i for i in range(nd) if i not in (row, col))
    moved = Array._new(g.permute(x._node, rest + (row, col)))
    out = matrix_norm(moved, ord="fro" if ord in (None, "f") else ord)
    if keepdims:
        shape = tuple(1 if i in (row, col) else s for i, s in enumerate(x.shape))
        out = Array._new(g.reshape(out._node, shape))
    return out


def lstsq(a: Any, b: Any, rcond: Any = None) -> tuple[Array, Array, int, Array]:
    """The least-squares solution x of ``a @ x = b`` from the SVD of a: (x, the squared
    residual norms of each column of b, the rank of a, a's singular values), as NumPy's
    (residuals are empty unless a has full column rank and more rows than columns).
    Singular values at or below ``rcond`` times the largest count as zero (default
    ``eps * max(M, N)``). Integers compute in float64.

    The rank is read back from the device: the residuals' shape depends on it."""
    # Note: the rank is a Python int (NumPy's is a NumPy int32).
    from ._elementwise_functions import abs as absolute
    from ._elementwise_functions import conj, divide, greater
    from ._searching_functions import where
    device = device_for(a, b)
    a, b = _float_input("lstsq", _array("lstsq", a, device)), \
        _float_input("lstsq", _array("lstsq", b, device))
    device_of("lstsq", (a, b))
    common = dt.result_type_of(a, b, where="lstsq")
    if a.ndim != 2:
        raise np.linalg.LinAlgError(f"lstsq: {a.ndim}-dimensional array given; a must be "
                                    "two-dimensional")
    if b.ndim not in (1, 2):
        raise np.linalg.LinAlgError(f"lstsq: {b.ndim}-dimensional array given; b must be "
                                    "one- or two-dimensional")
    m, n = a.shape
    if b.shape[0] != m:
        raise np.linalg.LinAlgError(f"lstsq: incompatible dimensions: a {a.shape}, b "
                                    f"{b.shape}")
    vector = b.ndim == 1
    a = Array._new(g.cast(a._node, common.np))
    b2 = Array._new(g.cast(g.reshape(b._node, (m, 1)) if vector else b._node, common.np))
    k = b2.shape[1]
    real = _real_of(common)
    if min(m, n) == 0:
        x = Array._new(broadcast_node(g.const(0, common.np, a.device), (n, k)))
        s = Array._new(broadcast_node(g.const(0, real.np, a.device), (0,)))
        rank = 0
    else:
        u, s, vh = svd(a, full_matrices=False)
        eps = float(np.finfo(real.np).eps)
        scale = eps * max(m, n) if rcond is None else rcond
        if np.ndim(scale) == 0 and not isinstance(scale, Array) and scale < 0:
            scale = eps      # (LAPACK's convention, which NumPy passes on)
        cutoff = _cutoff("lstsq", s, _tolerance(scale, a), a)
        keep = greater(s, cutoff)
        inverse = where(keep, divide(1.0, s), 0.0)
        column = Array._new(g.reshape(inverse._node, inverse.shape + (1,)))
        projected = matmul(conj(u).mT, b2) * column
        x = matmul(conj(vh).mT, projected)
        rank = int(stats.sum(keep))
    if rank == n and m > n:
        r = b2 - matmul(a, x)
        residuals = stats.sum(absolute(r) * absolute(r), axis=0) if common in \
            dt.COMPLEX_FLOATING else stats.sum(r * r, axis=0)
    else:
        residuals = Array._new(broadcast_node(g.const(0, real.np, a.device), (0,)))
    if vector:
        x = Array._new(g.reshape(x._node, (n,)))
    return x, residuals, rank, s


def multi_dot(arrays: Any, *, out: Any = None) -> Array:
    """The product of two or more matrices in the cheapest order (fewest scalar
    multiplications, by dynamic programming over the chain); the first and last may be
    vectors (a row and a column), as in NumPy."""
    from ._numpy_args import write_out
    items = list(arrays)
    if len(items) < 2:
        raise ValueError(f"multi_dot: expecting at least two arrays, got {len(items)}")
    device = device_for(*items)
    mats = [_array("multi_dot", v, device) for v in items]
    device_of("multi_dot", tuple(mats))
    first_vector, last_vector = mats[0].ndim == 1, mats[-1].ndim == 1
    if first_vector:
        mats[0] = Array._new(g.reshape(mats[0]._node, (1,) + mats[0].shape))
    if last_vector:
        mats[-1] = Array._new(g.reshape(mats[-1]._node, mats[-1].shape + (1,)))
    for v in mats:
        if v.ndim != 2:
            raise np.linalg.LinAlgError(f"multi_dot: {v.ndim}-dimensional array given; the "
                                        "arrays must be two-dimensional (the first and last "
                                        "may be one-dimensional)")
    for i in range(len(mats) - 1):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise ValueError(f"multi_dot: shapes {mats[i].shape} and {mats[i + 1].shape} "
                             f"(arrays {i} and {i + 1}) do not align")
    order = _chain_order([v.shape[0] for v in mats] + [mats[-1].shape[1]])

    def product(i: int, j: int) -> Array:
        if i == j:
            return mats[i]
        k = order[i][j]
        return matmul(product(i, k), product(k + 1, j))

    result = product(0, len(mats) - 1)
    shape = result.shape
    if first_vector:
        shape = shape[1:]
    if last_vector:
        shape = shape[:-1]
    return write_out("multi_dot", out, Array._new(g.reshape(result._node, shape)))


def _chain_order(dims: list[int]) -> list[list[int]]:
    """``split[i][j]``: where the cheapest product of matrices i..j splits (matrix i has
    shape ``dims[i], dims[i + 1]``), by the textbook dynamic programme."""
    count = len(dims) - 1
    cost = [[0] * count for _ in range(count)]
    split = [[0] * count for _ in range(count)]
    for length in range(1, count):
        for i in range(count - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j] = c
                    split[i][j] = k
    return split


def cond(x: Any, p: Any = None) -> Array:
    """NumPy's ``linalg.cond``: the condition number of (a stack of) matrices in the norm
    ``p``: for None, 2 and -2 the ratio of the largest and smallest singular values (inf for a
    singular matrix), for the other matrix norms ('fro', 'nuc', 1, -1, inf, -inf) of square
    matrices ``norm(x, p) * norm(inv(x), p)``."""
    x = _matrices("cond", x)
    if p is None or p == 2 or p == -2:
        s = svdvals(x)
        big, small = s[..., 0], s[..., -1]
        return big / small if p != -2 else small / big
    if p not in _MATRIX_ORDS:
        raise ValueError(f"cond: invalid norm order {p!r} for matrices")
    if x.shape[-1] != x.shape[-2]:
        raise np.linalg.LinAlgError(f"cond: expected square matrices for p={p!r}, got shape "
                                    f"{x.shape}")
    return norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))


def tensorinv(a: Any, ind: int = 2) -> Array:
    """NumPy's ``linalg.tensorinv``: the inverse of ``a`` for ``tensordot`` over its first
    ``ind`` axes (``a`` reshaped to a square matrix, inverted, reshaped back to
    ``a.shape[ind:] + a.shape[:ind]``)."""
    a = _array("tensorinv", a)
    if ind <= 0:
        raise ValueError(f"tensorinv: ind must be a positive integer, got {ind!r}")
    old = a.shape
    rows, cols = math.prod(old[:ind]), math.prod(old[ind:])
    if rows != cols:
        raise np.linalg.LinAlgError(f"tensorinv: the first {ind} axes of shape {old} hold "
                                    f"{rows} elements, the others {cols}: not square")
    from ._manipulation_functions import reshape
    return reshape(inv(reshape(a, (rows, cols))), old[ind:] + old[:ind])


def tensorsolve(a: Any, b: Any, axes: Any = None) -> Array:
    """NumPy's ``linalg.tensorsolve``: ``x`` with ``tensordot(a, x, x.ndim) == b``; ``axes``
    of ``a`` are first moved to the end."""
    from ._manipulation_functions import permute_dims, reshape
    a, b = _array("tensorsolve", a), _array("tensorsolve", b)
    if axes is not None:
        order = [k for k in range(a.ndim) if k not in
                 {normalize_axis("tensorsolve", ax, a.ndim) for ax in axes}]
        order += [normalize_axis("tensorsolve", ax, a.ndim) for ax in axes]
        a = permute_dims(a, tuple(order))
    shape = a.shape[b.ndim:]
    n = math.prod(shape)
    if math.prod(a.shape[:b.ndim]) != n or a.shape[:b.ndim] != b.shape:
        raise np.linalg.LinAlgError(f"tensorsolve: a of shape {a.shape} and b of shape "
                                    f"{b.shape} do not make a square system")
    x = solve(reshape(a, (n, n)), reshape(b, (n, 1)))
    return reshape(x, shape)
