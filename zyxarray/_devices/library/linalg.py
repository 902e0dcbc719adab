"""Host linear algebra: NumPy's LAPACK wrappers (numpy.linalg), batched over leading axes.

Layer: ``_devices``. Imports nothing above it.

Each implementation fills ``out``, whose dtype the API layer chose by the standard's rules
(float32 in, float32 out; complex in, real eigenvalues and singular values out).
Decompositions with several results (eigh, eig, qr, slogdet, svd) write them *packed*: one
flat ``out`` holding each result's elements in order, which the API layer splits with
contiguous views. One LAPACK call then serves every result, and each result can still be
observed alone. A packed result whose dtype is real while the input is complex (eigenvalues,
singular values, logabsdet) is stored in the complex ``out`` with zero imaginary parts.

``numpy.linalg.LinAlgError`` (a singular matrix, a matrix that is not positive definite)
propagates when the value is computed.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from . import host_impl


def _pack(out: np.ndarray, *parts: np.ndarray) -> None:
    """Write ``parts`` one after another into the flat ``out``."""
    start = 0
    for p in parts:
        out[start:start + p.size] = p.reshape(-1)
        start += p.size
    assert start == out.size, (start, out.size)


@host_impl("cholesky")
def cholesky(x: np.ndarray, *, out: np.ndarray, upper: bool) -> None:
    if out.size:
        out[...] = np.linalg.cholesky(x, upper=upper)


@host_impl("det")
def det(x: np.ndarray, *, out: np.ndarray) -> None:
    if out.size:
        out[...] = np.linalg.det(x)


@host_impl("slogdet")
def slogdet(x: np.ndarray, *, out: np.ndarray) -> None:
    if out.size:
        sign, logabsdet = np.linalg.slogdet(x)
        _pack(out, np.asarray(sign), np.asarray(logabsdet))


@host_impl("eigh")
def eigh(x: np.ndarray, *, out: np.ndarray) -> None:
    if out.size:
        w, v = np.linalg.eigh(x)
        _pack(out, w, v)


@host_impl("eigvalsh")
def eigvalsh(x: np.ndarray, *, out: np.ndarray) -> None:
    if out.size:
        out[...] = np.linalg.eigvalsh(x)


@host_impl("eig")
def eig(x: np.ndarray, *, out: np.ndarray) -> None:
    # NumPy returns real eigenpairs when every eigenvalue of a real matrix is real; the
    # standard's results are always complex: the assignment into the complex ``out`` casts
    if out.size:
        w, v = np.linalg.eig(x)
        _pack(out, w, v)


@host_impl("eigvals")
def eigvals(x: np.ndarray, *, out: np.ndarray) -> None:
    if out.size:
        out[...] = np.linalg.eigvals(x)


@host_impl("inv")
def inv(x: np.ndarray, *, out: np.ndarray) -> None:
    if out.size:
        out[...] = np.linalg.inv(x)


@host_impl("pinv")
def pinv(x: np.ndarray, *rtol_array: np.ndarray, out: np.ndarray,
         rtol: float | None) -> None:
    """``rtol`` is a float or None (max(M, N) * eps); an array rtol comes as a second input
    of the batch shape."""
    if out.size:
        tol: Any = rtol_array[0] if rtol_array else rtol
        out[...] = np.linalg.pinv(x, rtol=tol)


@host_impl("qr")
def qr(x: np.ndarray, *, out: np.ndarray, mode: Literal["reduced", "complete"]) -> None:
    if out.size:
        q, r = np.linalg.qr(x, mode=mode)
        _pack(out, q, r)


@host_impl("solve")
def solve(a: np.ndarray, b: np.ndarray, *, out: np.ndarray) -> None:
    if out.size:
        out[...] = np.linalg.solve(a, b)


@host_impl("svd")
def svd(x: np.ndarray, *, out: np.ndarray, full_matrices: bool) -> None:
    if out.size:
        u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
        _pack(out, u, s, vh)


@host_impl("svdvals")
def svdvals(x: np.ndarray, *, out: np.ndarray) -> None:
    if out.size:
        out[...] = np.linalg.svd(x, compute_uv=False)
