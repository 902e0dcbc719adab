"""The linalg extension against numpy.linalg: values, dtypes, shapes, namedtuple fields and the
errors raised, on every device (and on the reference device for comparison).

Decompositions are library calls (no compile); the arithmetic functions compile kernels, so
the shapes and dtypes below are few and shared between tests.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import Input, assert_close, check_against_numpy, on_devices
from zyxarray import linalg

FLOATS = ("float32", "float64", "complex64", "complex128")


def _tol(dtype: str) -> float:
    return 2e-4 if dtype in ("float32", "complex64") else 1e-10


def _random(shape: tuple[int, ...], dtype: str, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _hermitian_pd(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Well-conditioned Hermitian positive-definite matrices."""
    a = _random(shape, dtype)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def _power(fn: Any, n: int, x: Any) -> Any:
    """``fn(x, n)`` with the exponent bound first (for ``partial``)."""
    return fn(x, n)


def _on(fn: Any, x: Input) -> Any:
    """``fn`` of ``x`` on a device given later (for ``on_devices``)."""
    return lambda device: fn(x.on(device))


def _batch(dtype: str) -> Input:
    """A stack of 2 square 3x3 matrices, viewed through a transpose (not contiguous)."""
    base = _random((2, 3, 3), dtype) + 3 * np.eye(3, dtype=dtype)
    return Input(base, [("permute", (0, 2, 1))])


# -- decompositions ---------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS)
def test_square_matrix_functions(device: str, dtype: str) -> None:
    x = _batch(dtype)
    tol = _tol(dtype)
    for xp_fn, np_fn in [(linalg.inv, np.linalg.inv), (linalg.det, np.linalg.det),
                         (linalg.eigvals, lambda a: np.linalg.eigvals(a).astype(
                             np.result_type(a.dtype, np.complex64)))]:
        check_against_numpy(device, xp_fn, np_fn, [x], rtol=tol, atol=tol)
    # eigenvalues come in LAPACK's order on both sides (the same call on the same data)
    check_against_numpy(device, lambda a: linalg.eig(a).eigenvalues,
                        lambda a: np.linalg.eig(a).eigenvalues.astype(
                            np.result_type(a.dtype, np.complex64)), [x], rtol=tol, atol=tol)
    for power in (0, 1, 3, -2) if dtype == "float64" else (3, -2):
        check_against_numpy(device, partial(_power, linalg.matrix_power, power),
                            partial(_power, np.linalg.matrix_power, power), [x],
                            rtol=10 * tol, atol=10 * tol)


@pytest.mark.parametrize("dtype", FLOATS)
def test_hermitian_functions(device: str, dtype: str) -> None:
    x = Input(_hermitian_pd((2, 3, 3), dtype), [])
    tol = _tol(dtype)
    check_against_numpy(device, linalg.eigvalsh, np.linalg.eigvalsh, [x], rtol=tol, atol=tol)
    check_against_numpy(device, linalg.cholesky, np.linalg.cholesky, [x], rtol=tol, atol=tol)
    check_against_numpy(device, lambda a: linalg.cholesky(a, upper=True),
                        lambda a: np.linalg.cholesky(a, upper=True), [x], rtol=tol, atol=tol)
    check_against_numpy(device, lambda a: linalg.eigh(a).eigenvalues,
                        lambda a: np.linalg.eigh(a).eigenvalues, [x], rtol=tol, atol=tol)
    for dev, res in on_devices(device, _on(linalg.eigh, x)):
        w, v = np.asarray(res.eigenvalues), np.asarray(res.eigenvectors)
        assert res.eigenvectors.dtype == getattr(xp, dtype), dev
        rebuilt = (v * w[..., None, :]) @ np.conj(np.swapaxes(v, -1, -2))
        assert_close(rebuilt, x.np, rtol=10 * tol, atol=10 * tol, dtype=None, what=dev)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(2, 4, 3), (3, 2)], ids=str)
def test_svd_qr_pinv(device: str, dtype: str, shape: tuple[int, ...]) -> None:
    x = Input(_random(shape, dtype), [])
    tol = _tol(dtype)
    check_against_numpy(device, linalg.svdvals, np.linalg.svdvals, [x], rtol=tol, atol=tol)
    check_against_numpy(device, linalg.pinv, np.linalg.pinv, [x], rtol=10 * tol,
                        atol=10 * tol)
    real = np.empty(0, dtype).real.dtype
    for full in (True, False):
        for dev, res in on_devices(device, _on(partial(linalg.svd, full_matrices=full), x)):
            u, s, vh = np.linalg.svd(x.np, full_matrices=full)
            assert_close(res.S, s, rtol=tol, atol=tol, what=dev)
            assert res.U.shape == u.shape and res.Vh.shape == vh.shape, dev
            assert res.U.dtype == getattr(xp, dtype) and res.S.dtype == real, dev
            k = min(shape[-2:])
            rebuilt = (np.asarray(res.U)[..., :k] * np.asarray(res.S)[..., None, :]) @ \
                np.asarray(res.Vh)[..., :k, :]
            assert_close(rebuilt, x.np, rtol=10 * tol, atol=10 * tol, dtype=None, what=dev)
    for mode in ("reduced", "complete"):
        for dev, res in on_devices(device, _on(partial(linalg.qr, mode=mode), x)):
            q, r = np.linalg.qr(x.np, mode=mode)
            assert_close(res.Q, q, rtol=tol, atol=tol, what=dev)
            assert_close(res.R, r, rtol=tol, atol=tol, what=dev)


@pytest.mark.parametrize("dtype", ("float64", "complex64"))
def test_slogdet_and_solve(device: str, dtype: str) -> None:
    x = _batch(dtype)
    tol = _tol(dtype)
    check_against_numpy(device, lambda a: linalg.slogdet(a).sign,
                        lambda a: np.linalg.slogdet(a).sign, [x], rtol=tol, atol=tol)
    check_against_numpy(device, lambda a: linalg.slogdet(a).logabsdet,
                        lambda a: np.linalg.slogdet(a).logabsdet, [x], rtol=tol, atol=tol)
    vector = Input(_random((3,), dtype, seed=1), [])
    stacked = Input(_random((4, 1, 3, 2), dtype, seed=2), [])
    check_against_numpy(device, linalg.solve, np.linalg.solve, [x, vector], rtol=tol,
                        atol=tol)
    check_against_numpy(device, linalg.solve, np.linalg.solve, [x, stacked], rtol=tol,
                        atol=tol)


def test_solve_promotes(device: str) -> None:
    a = Input(_random((3, 3), "float32") + 3 * np.eye(3, dtype=np.float32), [])
    b = Input(_random((3,), "float64"), [])
    check_against_numpy(device, linalg.solve, np.linalg.solve, [a, b], rtol=1e-6, atol=1e-6)


def test_matrix_rank(device: str) -> None:
    base = _random((3, 4, 2), "float64")
    base[1, :, 1] = 2 * base[1, :, 0]                       # rank 1
    base[2] = 0                                             # rank 0
    x = Input(base, [])
    check_against_numpy(device, linalg.matrix_rank, np.linalg.matrix_rank, [x])
    check_against_numpy(device, lambda a: linalg.matrix_rank(a, rtol=0.5),
                        lambda a: np.linalg.matrix_rank(a, rtol=0.5), [x])
    rtol = Input(np.array([0.0, 0.5, 0.1]), [])
    check_against_numpy(device, lambda a, r: linalg.matrix_rank(a, rtol=r),
                        lambda a, r: np.linalg.matrix_rank(a, rtol=r), [x, rtol])
    check_against_numpy(device, lambda a, r: linalg.pinv(a, rtol=r),
                        lambda a, r: np.linalg.pinv(a, rtol=r), [x, rtol], rtol=1e-10,
                        atol=1e-10)
    empty = xp.zeros((2, 0, 3), device=device)
    assert_close(linalg.matrix_rank(empty), np.zeros(2, np.int64))


def test_results_are_namedtuples(device: str) -> None:
    x = xp.asarray(_hermitian_pd((3, 3), "complex128"), device=device)
    expected = {linalg.eigh: ("eigenvalues", "eigenvectors"),
                linalg.eig: ("eigenvalues", "eigenvectors"),
                linalg.qr: ("Q", "R"), linalg.slogdet: ("sign", "logabsdet"),
                linalg.svd: ("U", "S", "Vh")}
    for fn, fields in expected.items():
        res = fn(x)
        assert isinstance(res, tuple) and type(res) is not tuple
        assert res._fields == fields, fn.__name__
        assert all(res[i] is getattr(res, f) for i, f in enumerate(fields))
    assert linalg.eigh(x).eigenvalues.dtype == xp.float64
    assert linalg.slogdet(x).sign.dtype == xp.complex128
    assert linalg.slogdet(x).logabsdet.dtype == xp.float64
    assert linalg.eig(xp.asarray(np.eye(2, dtype=np.float32), device=device)) \
        .eigenvectors.dtype == xp.complex64


def test_one_library_call_serves_every_result(device: str) -> None:
    """svd's three results come from one library call (made by the call, which can fail):
    observing them launches nothing more."""
    from zyxarray._lazy.realize import stats

    x = xp.asarray(_random((3, 2), "float64"), device=device)
    before = stats["kernels"]
    u, s, vh = linalg.svd(x)
    assert stats["kernels"] == before + 1
    assert list(xp.explain(u, s, vh)) == []
    q, r = linalg.qr(x)                 # (QR cannot fail: lazy, one call for both)
    assert [k.name for k in xp.explain(q, r)] == ["library:qr"]


def test_empty_matrices(device: str) -> None:
    x = xp.zeros((2, 0, 0), device=device)
    assert_close(linalg.det(x), np.ones(2))
    assert_close(linalg.inv(x), np.zeros((2, 0, 0)))
    u, s, vh = linalg.svd(xp.zeros((0, 3), device=device))
    assert (u.shape, s.shape, vh.shape) == ((0, 0), (0,), (3, 3))


# -- arithmetic functions (graph ops) ---------------------------------------------------------
@pytest.mark.parametrize("dtype", ("float64", "complex64"))
def test_vector_norm(device: str, dtype: str) -> None:
    base = _random((3, 4), dtype)
    base[0, 1] = 0
    x = Input(base, [("permute", (1, 0))])
    # each (ord, axes) pair is a kernel structure to compile: one reduction per ord (the
    # p-norms 3 and -1.5 share theirs)
    cases = [(2, None, False), (1, 0, True), (0, (0, 1), False), (math.inf, -1, False),
             (-math.inf, None, False), (3, 0, True), (-1.5, 0, True)]
    if dtype != "float64":
        cases = [(2, (0, 1), False), (math.inf, -1, False)]
    for ord, axis, keepdims in cases:
        kw = {"axis": axis, "keepdims": keepdims, "ord": ord}
        check_against_numpy(device, partial(linalg.vector_norm, **kw),
                            partial(np.linalg.vector_norm, **kw), [x], rtol=_tol(dtype),
                            atol=_tol(dtype))


@pytest.mark.parametrize("dtype", ("float64", "complex64"))
def test_matrix_norm(device: str, dtype: str) -> None:
    x = Input(_random((2, 3, 4), dtype), [])
    ords = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf) if dtype == "float64" else \
        ("fro", 1, 2)
    for ord in ords:
        for keepdims in (False, True):
            kw = {"ord": ord, "keepdims": keepdims}
            check_against_numpy(device, partial(linalg.matrix_norm, **kw),
                                partial(np.linalg.matrix_norm, **kw), [x], rtol=_tol(dtype),
                                atol=_tol(dtype))


@pytest.mark.parametrize("offset", [1, -1, 5])
def test_diagonal_and_trace(device: str, offset: int) -> None:
    x = Input(np.arange(2 * 3 * 4, dtype=np.int32).reshape(2, 4, 3), [("permute", (0, 2, 1))])
    check_against_numpy(device, lambda a: linalg.diagonal(a, offset=offset),
                        lambda a: np.diagonal(a, offset=offset, axis1=-2, axis2=-1), [x])
    # integers sum in the default integer dtype (the standard's rule for trace)
    check_against_numpy(device, lambda a: linalg.trace(a, offset=offset),
                        lambda a: np.trace(a, offset=offset, axis1=-2, axis2=-1,
                                           dtype=np.int64), [x])
    y = Input(_random((3, 4), "complex128"), [])
    check_against_numpy(device, lambda a: linalg.trace(a, offset=offset),
                        lambda a: np.trace(a, offset=offset), [y], rtol=1e-12, atol=1e-12)


def test_trace_fuses_with_its_producer(device: str) -> None:
    x = xp.asarray(np.arange(9.0).reshape(3, 3), device=device)
    t = linalg.trace(x * 2 + 1)
    assert len(xp.explain(t)) == 1
    assert float(t) == 27.0


def test_outer_and_cross(device: str) -> None:
    a = Input(np.array([1, -2, 3], np.int16), [])
    b = Input(np.array([0.5, 2.0, -1.0, 4.0], np.float32), [])
    check_against_numpy(device, linalg.outer, np.outer, [a, b])
    u = Input(_random((2, 1, 3), "float64"), [])
    v = Input(_random((4, 3), "float64", seed=1), [])
    check_against_numpy(device, linalg.cross, np.cross, [u, v], rtol=1e-12, atol=1e-12)
    p = Input(np.arange(6, dtype=np.int64).reshape(3, 2), [])
    q = Input(np.array([[1, 0], [0, 1], [2, 2]], np.int64), [])
    check_against_numpy(device, lambda s, t: linalg.cross(s, t, axis=-2),
                        lambda s, t: np.cross(s, t, axis=-2), [p, q])


@pytest.mark.parametrize("axes", [2, 0, ((0, 2), (1, 0)), ((-1,), (-3,))], ids=str)
def test_tensordot(device: str, axes: object) -> None:
    a = Input(np.arange(24, dtype=np.float64).reshape(2, 3, 4), [])
    b = Input(np.arange(24, dtype=np.float64).reshape(4, 2, 3) % 5, [])
    if axes == 2:
        b = Input(np.arange(24, dtype=np.int32).reshape(3, 4, 2) % 5, [])
    check_against_numpy(device, lambda s, t: linalg.tensordot(s, t, axes=axes),
                        lambda s, t: np.tensordot(s, t, axes=axes), [a, b], rtol=1e-12)


def test_aliases_of_the_main_namespace() -> None:
    assert linalg.matmul is xp.matmul
    assert linalg.matrix_transpose is xp.matrix_transpose
    assert linalg.vecdot is xp.vecdot


# -- errors -----------------------------------------------------------------------------------
def test_errors(device: str) -> None:
    square = xp.asarray(np.eye(3), device=device)
    wide = xp.asarray(np.ones((2, 3)), device=device)
    ints = xp.asarray(np.eye(3, dtype=np.int64), device=device)
    vector = xp.asarray(np.ones(3), device=device)
    for fn in (linalg.inv, linalg.det, linalg.cholesky, linalg.eigh, linalg.eigvalsh,
               linalg.slogdet, linalg.eig):
        with pytest.raises(ValueError, match=fn.__name__):
            fn(wide)
        with pytest.raises(ValueError, match=fn.__name__):
            fn(vector)
    # integers are computed in float64, as NumPy does (the standard leaves it open)
    assert_close(linalg.inv(ints), np.eye(3))
    assert_close(linalg.det(ints), 1.0)
    assert_close(linalg.svdvals(ints), np.ones(3))
    assert_close(linalg.vector_norm(ints), np.sqrt(3.0))
    assert linalg.matrix_norm(ints).dtype == xp.float64
    with pytest.raises(ValueError, match="qr"):
        linalg.qr(square, mode="r")
    with pytest.raises(ValueError, match="matrix_norm"):
        linalg.matrix_norm(square, ord=3)
    with pytest.raises(ValueError, match="solve"):
        linalg.solve(square, xp.ones(2, device=device))
    with pytest.raises(ValueError, match="cross"):
        linalg.cross(wide, xp.ones((2, 2), device=device))
    with pytest.raises(ValueError, match="outer"):
        linalg.outer(square, vector)
    with pytest.raises(ValueError, match="tensordot"):
        linalg.tensordot(wide, wide, axes=((0,), (1,)))
    with pytest.raises(TypeError, match="matrix_power"):
        linalg.matrix_power(square, 1.5)
    with pytest.raises(TypeError, match="trace"):
        linalg.trace(xp.asarray(np.eye(2, dtype=bool), device=device))


@pytest.mark.parametrize("call", [
    pytest.param(lambda x: linalg.cholesky(x), id="cholesky-not-positive-definite"),
    pytest.param(lambda x: linalg.inv(x - x), id="inv-singular"),
    pytest.param(lambda x: linalg.solve(x - x, x[0]), id="solve-singular"),
    pytest.param(lambda x: linalg.matrix_power(x - x, -2), id="matrix_power-singular"),
    pytest.param(lambda x: linalg.svd(x * xp.nan), id="svd-nan"),
    pytest.param(lambda x: linalg.pinv(x * xp.nan), id="pinv-nan"),
])
def test_a_failing_factorization_raises_from_its_call(device: str, call: Any) -> None:
    """NumPy raises LinAlgError from the call (scikit-learn catches it around the call);
    the error used to surface at a later, unrelated observation, and cuda returned NaN.
    Nothing is lost: the input and unrelated pending work still compute."""
    x = xp.asarray([[1.0, 2.0], [2.0, 1.0]], device=device)   # symmetric, not definite
    pending = x * 2 + 1
    with pytest.raises(np.linalg.LinAlgError):
        call(x)
    assert issubclass(linalg.LinAlgError, np.linalg.LinAlgError)
    assert_close(pending, np.array([[3.0, 5.0], [5.0, 3.0]]))
    assert_close(x, np.array([[1.0, 2.0], [2.0, 1.0]]))
    assert_close(linalg.cholesky(x + 3 * xp.eye(2, device=device)),
                 np.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 4.0]])), rtol=1e-12)
