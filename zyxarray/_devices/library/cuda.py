"""Library operations resident on ``cuda`` and ``hip`` devices: CuPy's cuBLAS, cuSOLVER, cuFFT
(hipBLAS, rocSOLVER, rocFFT on ROCm), sorts and scans on views of the device's own buffers
(no host round trip).

Layer: ``_devices``. Imports nothing above it; CuPy only when a cuda device exists.

Each implementation takes the device, the inputs as CuPy views and ``out`` (a CuPy view of the
result's buffer) plus the op's keyword parameters, the same ones the host implementations take.
The caller runs it inside ``device.activate()`` (the device's stream) and records the event
that makes the result ready. Ops missing here run on the host with a logged round trip.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import device_impl


def _impl(name: str) -> Callable[[Any], Any]:
    """Register an implementation for both kinds of CuPy device (CuPy's ROCm build has the
    same API on hipBLAS, rocSOLVER, rocFFT and hipCUB)."""
    def register(fn: Any) -> Any:
        return device_impl("hip", name)(device_impl("cuda", name)(fn))
    return register


def _cp() -> Any:
    import cupy
    return cupy


def _reporting() -> Any:
    """CuPy's linalg checks the factorization's status on the device and raises NumPy's
    ``LinAlgError`` (it returns NaN by default): a singular matrix, one that is not positive
    definite, an iteration that did not converge fail as they do with NumPy."""
    import cupyx
    return cupyx.errstate(linalg="raise")


@_impl("matmul")
def matmul(a: Any, b: Any, *, out: Any) -> None:
    if out.size == 0:
        return
    cp = _cp()
    if a.dtype == bool:
        out[...] = cp.matmul(a.astype(cp.uint8), b.astype(cp.uint8)) != 0
        return
    if _gemm(a.dtype, _operand(a), _operand(b), out.data.ptr, out.flags.c_contiguous,
             cp.cuda.device.get_cublas_handle(), cp.cuda.get_current_stream().ptr):
        return
    cp.matmul(a, b, out=out)


def _operand(x: Any) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """(address, shape, strides in elements) of a CuPy view, None for strides that are not
    whole elements."""
    item = x.itemsize
    if any(s % item for s in x.strides):
        return None
    return x.data.ptr, x.shape, tuple(s // item for s in x.strides)


#: dtype char -> (CuPy's cuBLAS bindings, their gemm for the dtype, the addresses of 1 and 0
#: as host scalars: ``.ctypes.data`` costs a microsecond a call)
_GEMMS: dict[str, tuple[Any, Any, int, int]] = {}
_SCALARS: list[Any] = []
_INT32 = 2 ** 31 - 1


def _blas_layout(rows: int, cols: int, s0: int, s1: int) -> tuple[int, int] | None:
    """(0: row-major, 1: column-major; leading dimension) of a matrix with element strides
    (s0, s1) that cuBLAS reads as it is, a strided slice of a larger matrix included; None
    for a layout it cannot read (a copy would be needed: CuPy's matmul then makes it)."""
    if s0 < 0 or s1 < 0:
        return None
    if cols == 1 or s1 == 1:
        ld = s0 if rows > 1 else max(cols, 1)
        if ld >= max(cols, 1):
            return 0, ld
    if rows == 1 or s0 == 1:
        ld = s1 if cols > 1 else max(rows, 1)
        if ld >= max(rows, 1):
            return 1, ld
    return None


def _gemm(dtype: Any, a: tuple | None, b: tuple | None, out_ptr: int, out_contiguous: bool,
          handle: int, stream_ptr: int) -> bool:
    """``out = a @ b`` by cuBLAS's sgemm/dgemm called directly, for float32/float64 operands
    (address, shape, element strides) of at most 2 dimensions that cuBLAS reads as they
    are: what ``cp.matmul`` does, without its Python (15-25 us a call) and without the copy
    it makes of a strided operand (a column slice ``X[:, :-1]`` of a data matrix). The
    row-major product is computed as the column-major ``out^T = b^T a^T``. False, with
    nothing done, for anything else."""
    if a is None or b is None or dtype.char not in "fd" or not out_contiguous:
        return False
    a_ptr, a_shape, a_st = a
    b_ptr, b_shape, b_st = b
    if len(a_shape) > 2 or len(b_shape) > 2:
        return False
    n, k, sa0, sa1 = (1, a_shape[0], 0, a_st[0]) if len(a_shape) == 1 else (*a_shape, *a_st)
    k2, m, sb0, sb1 = (b_shape[0], 1, b_st[0], 0) if len(b_shape) == 1 else (*b_shape, *b_st)
    la, lb = _blas_layout(n, k, sa0, sa1), _blas_layout(k2, m, sb0, sb1)
    if la is None or lb is None or k == 0 or k != k2 or \
            max(n, m, k, la[1], lb[1]) > _INT32:
        return False
    gemm = _GEMMS.get(dtype.char)
    if gemm is None:
        import numpy as np
        from cupy_backends.cuda.libs import cublas
        fn = cublas.sgemm if dtype.char == "f" else cublas.dgemm
        one, zero = np.ones(1, dtype), np.zeros(1, dtype)
        _SCALARS.extend((one, zero))    # (kept alive: cuBLAS reads them by address)
        gemm = _GEMMS[dtype.char] = (cublas, fn, one.ctypes.data, zero.ctypes.data)
    cublas, fn, one, zero = gemm
    cublas.setStream(handle, stream_ptr)
    cublas.setPointerMode(handle, cublas.CUBLAS_POINTER_MODE_HOST)
    # (row-major B is B^T column-major with its leading dimension: no transpose; a
    # column-major one is B itself, transposed by cuBLAS; the same for A)
    fn(handle, cublas.CUBLAS_OP_T if lb[0] else cublas.CUBLAS_OP_N,
       cublas.CUBLAS_OP_T if la[0] else cublas.CUBLAS_OP_N, m, n, k, one,
       b_ptr, lb[1], a_ptr, la[1], zero, out_ptr, max(m, 1))
    return True


def _nan_last(x: Any) -> Any:
    """``x`` with every NaN made positive: CuPy's radix sort orders floats by their bits, so a
    NaN with the sign bit set (what ``inf - inf`` gives on some hardware) came first, where
    NumPy puts every NaN last."""
    cp = _cp()
    if x.dtype.kind == "f":     # (complex values: CuPy orders their NaNs itself, as NumPy)
        return cp.where(cp.isnan(x), cp.array(cp.nan, x.dtype), x)
    return x


# (CuPy's sorts are stable whatever ``stable`` asks: a stable sort is a valid unstable one)
@_impl("sort")
def sort(x: Any, *, out: Any, axis: int, descending: bool, stable: bool = True) -> None:
    if out.size == 0:
        return
    cp = _cp()
    x = _nan_last(x)
    if descending:
        out[...] = cp.take_along_axis(x, _descending_argsort(x, axis), axis=axis)
    else:
        out[...] = cp.sort(x, axis=axis)


@_impl("argsort")
def argsort(x: Any, *, out: Any, axis: int, descending: bool, stable: bool = True) -> None:
    if out.size == 0:
        return
    # CuPy's argsort is a stable radix/merge sort along the axis (NaN last, as NumPy, once
    # every NaN is positive)
    x = _nan_last(x)
    out[...] = _descending_argsort(x, axis) if descending else _cp().argsort(x, axis=axis)


def _descending_argsort(x: Any, axis: int) -> Any:
    cp = _cp()
    n = x.shape[axis]
    order = cp.argsort(cp.flip(x, axis), axis=axis)
    return (n - 1) - cp.flip(order, axis)


def _scan(name: str, initial: int, x: Any, out: Any, axis: int, include_initial: bool) -> None:
    if out.size == 0:
        return
    target = out
    if include_initial:
        head = [slice(None)] * out.ndim
        head[axis] = slice(0, 1)
        out[tuple(head)] = initial
        head[axis] = slice(1, None)
        target = out[tuple(head)]
    if target.size:
        target[...] = getattr(_cp(), name)(x, axis=axis, dtype=out.dtype)


@_impl("cumulative_sum")
def cumulative_sum(x: Any, *, out: Any, axis: int, include_initial: bool) -> None:
    _scan("cumsum", 0, x, out, axis, include_initial)


@_impl("cumulative_prod")
def cumulative_prod(x: Any, *, out: Any, axis: int, include_initial: bool) -> None:
    _scan("cumprod", 1, x, out, axis, include_initial)


def _fft1(name: str) -> None:
    def run(x: Any, *, out: Any, n: int, axis: int, norm: str) -> None:
        if out.size:
            out[...] = getattr(_cp().fft, name)(x, n=n, axis=axis, norm=norm)
    _impl(name)(run)


def _fftn(name: str) -> None:
    def run(x: Any, *, out: Any, s: tuple[int, ...], axes: tuple[int, ...], norm: str) -> None:
        if out.size:
            out[...] = getattr(_cp().fft, name)(x, s=s, axes=axes, norm=norm)
    _impl(name)(run)


for _name in ("fft", "ifft", "rfft", "irfft"):
    _fft1(_name)
for _name in ("fftn", "ifftn", "rfftn", "irfftn"):
    _fftn(_name)


def _pack(out: Any, *parts: Any) -> None:
    """The host implementations' packed layout: each result's elements one after another."""
    flat = out.reshape(-1)
    start = 0
    for p in parts:
        flat[start:start + p.size] = p.reshape(-1)
        start += p.size


@_impl("inv")
def inv(x: Any, *, out: Any) -> None:
    if out.size:
        with _reporting():
            out[...] = _cp().linalg.inv(x)


@_impl("solve")
def solve(a: Any, b: Any, *, out: Any) -> None:
    if out.size:
        cp = _cp()
        if b.ndim > 1:     # CuPy does not broadcast the batch axes itself
            batch = cp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = cp.broadcast_to(a, batch + a.shape[-2:])
            b = cp.broadcast_to(b, batch + b.shape[-2:])
        with _reporting():
            out[...] = cp.linalg.solve(a, b)


@_impl("det")
def det(x: Any, *, out: Any) -> None:
    if out.size:
        out[...] = _cp().linalg.det(x)


@_impl("slogdet")
def slogdet(x: Any, *, out: Any) -> None:
    if out.size:
        sign, logabsdet = _cp().linalg.slogdet(x)
        _pack(out, sign, logabsdet)


@_impl("cholesky")
def cholesky(x: Any, *, out: Any, upper: bool) -> None:
    if out.size:
        with _reporting():
            low = _cp().linalg.cholesky(x)
        out[...] = low.swapaxes(-1, -2).conj() if upper else low


@_impl("eigh")
def eigh(x: Any, *, out: Any) -> None:
    if out.size:
        with _reporting():
            w, v = _cp().linalg.eigh(x)
        _pack(out, w, v)


@_impl("eigvalsh")
def eigvalsh(x: Any, *, out: Any) -> None:
    if out.size:
        with _reporting():
            out[...] = _cp().linalg.eigvalsh(x)


@_impl("qr")
def qr(x: Any, *, out: Any, mode: str) -> None:
    if out.size:
        q, r = _cp().linalg.qr(x, mode=mode)
        _pack(out, q, r)


def _converged(s: Any) -> None:
    """LAPACK's gesdd fails on NaN or infinite input ("SVD did not converge", NumPy's
    error); cuSOLVER's gesvd returns NaN singular values and reports success."""
    if s.size and not bool(_cp().isfinite(s).all()):
        import numpy as np
        raise np.linalg.LinAlgError("SVD did not converge")


@_impl("svd")
def svd(x: Any, *, out: Any, full_matrices: bool) -> None:
    if out.size:
        with _reporting():
            u, s, vh = _cp().linalg.svd(x, full_matrices=full_matrices)
        _converged(s)
        _pack(out, u, s, vh)


@_impl("svdvals")
def svdvals(x: Any, *, out: Any) -> None:
    if out.size:
        with _reporting():
            s = _cp().linalg.svd(x, compute_uv=False)
        _converged(s)
        out[...] = s


@_impl("bitcast")
def bitcast(x: Any, *, out: Any) -> None:
    if out.size:
        out[...] = _cp().ascontiguousarray(x).view(out.dtype).reshape(out.shape)


# -- searching and gathering on the device (they were host round trips) ------------------
@_impl("argmax")
def argmax(x: Any, *, out: Any, axis: int | None, keepdims: bool) -> None:
    out[...] = _cp().argmax(x, axis=axis, keepdims=keepdims)


@_impl("argmin")
def argmin(x: Any, *, out: Any, axis: int | None, keepdims: bool) -> None:
    out[...] = _cp().argmin(x, axis=axis, keepdims=keepdims)


@_impl("searchsorted")
def searchsorted(x1: Any, x2: Any, *sorter: Any, out: Any, side: str) -> None:
    if out.size:
        out[...] = _cp().searchsorted(x1, x2, side=side, sorter=sorter[0] if sorter else None)


@_impl("take")
def take(x: Any, idx: Any, *, out: Any, axis: int) -> None:
    # (the indices were checked against the axis by the call: CuPy's wrapping of negative
    # ones is then NumPy's meaning)
    if out.size:
        out[...] = _cp().take(x, idx, axis=axis)


@_impl("take_along_axis")
def take_along_axis(x: Any, idx: Any, *, out: Any, axis: int) -> None:
    if out.size == 0:
        return
    cp = _cp()
    n = x.shape[axis]
    shape = list(cp.broadcast_shapes(
        tuple(1 if i == axis else s for i, s in enumerate(x.shape)),
        tuple(1 if i == axis else s for i, s in enumerate(idx.shape))))
    xs, idx_shape = list(shape), list(shape)
    xs[axis], idx_shape[axis] = n, idx.shape[axis]
    index = cp.broadcast_to(idx, tuple(idx_shape))
    index = cp.where(index < 0, index + n, index)
    out[...] = cp.take_along_axis(cp.broadcast_to(x, tuple(xs)), index, axis=axis)


@_impl("getitem")
def getitem(x: Any, *idx: Any, out: Any, template: tuple) -> None:
    from .indexing import _key
    result = x[_key(template, idx)]
    if out.size:
        out[...] = result


@_impl("isin")
def isin(x1: Any, x2: Any, *, out: Any, invert: bool) -> None:
    if out.size:
        out[...] = _cp().isin(x1, x2, invert=invert)


@_impl("einsum")
def einsum(*operands: Any, out: Any, subscripts: str) -> None:
    out[...] = _cp().einsum(subscripts, *operands)
