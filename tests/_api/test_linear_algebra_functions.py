"""matmul (and @), vecdot, matrix_transpose against NumPy 2."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import zyxarray as xp
from tests.helpers import Input, assert_close, check_against_numpy, elements, inputs

SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
          ((2, 1, 2, 3), (5, 3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((4, 2, 3), (3, 1))]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@given(data=st.data())
def test_matmul(device: str, shapes: tuple, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(("int16", "int64", "float32", "float64", "complex128",
                                       "uint8")), label="dtype")
    elems = elements(dtype, lo=-10, hi=10, specials=False) if dtype[0] in "fc" else \
        (st.integers(-10, 10) if dtype[0] == "i" else None)
    a = data.draw(inputs(dtype, shapes[0], elems), label="x1")
    b = data.draw(inputs(dtype, shapes[1], elems), label="x2")
    k = shapes[0][-1]
    tol = 8 * (k + 1) * 1e-7 if dtype in ("float32", "complex64") else 1e-12
    check_against_numpy(device, xp.matmul, np.matmul, [a, b], rtol=tol, atol=tol * 100)
    check_against_numpy(device, lambda p, q: p @ q, lambda p, q: p @ q, [a, b], rtol=tol,
                        atol=tol * 100)


def test_matmul_errors(device: str) -> None:
    x = xp.asarray(np.ones((2, 3)), device=device)
    with pytest.raises(ValueError, match="matmul"):
        xp.matmul(x, x)
    with pytest.raises(ValueError, match="matmul"):
        xp.matmul(xp.asarray(1.0, device=device), x)
    with pytest.raises(TypeError, match="matmul"):      # the standard: numeric dtypes only
        xp.matmul(xp.asarray(np.ones((3, 2), bool), device=device),
                  xp.asarray(np.ones((2, 3), bool), device=device))
    with pytest.raises(TypeError, match="matmul"):
        xp.matmul(xp.asarray(np.ones((3, 2), np.uint64), device=device),
                  xp.asarray(np.ones((2, 3), np.int64), device=device))


def test_vecdot(device: str) -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 3, 4))
    b = rng.standard_normal((3, 4))
    check_against_numpy(device, xp.vecdot, np.vecdot, [Input(a, []), Input(b, [])],
                        rtol=1e-12, atol=1e-12)
    x = Input(np.arange(6.0).reshape(2, 3), [])
    check_against_numpy(device, lambda p, q: xp.vecdot(p, q, axis=0),
                        lambda p, q: np.vecdot(p, q, axis=0), [x, x])


def test_vecdot_conjugates_the_first_operand(device: str) -> None:
    a = np.array([[1 + 2j, 3 - 1j], [0.5j, -2 + 0j]])
    b = np.array([2 - 1j, 1 + 1j])
    check_against_numpy(device, xp.vecdot, np.vecdot, [Input(a, []), Input(b, [])],
                        rtol=1e-12, atol=1e-12)


def test_matmul_of_pending_operands_is_correct(device: str) -> None:
    a = np.arange(12.0).reshape(3, 4)
    x = xp.asarray(a, device=device)
    assert_close((x * 2 + 1) @ (x.T - 1), (a * 2 + 1) @ (a.T - 1), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8, np.complex64])
def test_an_outer_product_is_a_fused_broadcast_product(device: str, dtype: type) -> None:
    """matmul over a contracted axis of length 1 (an outer product, batched or not, with
    vectors promoted as NumPy does) is NumPy's product, integers wrapping alike, and fuses
    with its consumer into one kernel: no library call writes the product out."""
    rng = np.random.default_rng(3)
    for sa, sb in [((6, 1), (1, 5)), ((3, 6, 1), (1, 5)), ((1,), (1, 5)), ((6, 1), (1,)),
                   ((1,), (1,)), ((2, 1, 6, 1), (3, 1, 5)), ((0, 1), (1, 3))]:
        a = (rng.random(sa) * 40).astype(dtype)
        b = (rng.random(sb) * 40).astype(dtype)
        x, y = xp.asarray(a, device=device), xp.asarray(b, device=device)
        out = x @ y
        assert out.shape == (a @ b).shape and out.dtype == (a @ b).dtype
        assert_close(out, a @ b, rtol=1e-6)
    a, b = rng.random((300, 1)), rng.random((1, 200))     # (past what is computed now)
    x, y = xp.asarray(a, device=device), xp.asarray(b, device=device)
    fused = (x @ y) * 2.0 + 1.0
    assert len(xp.explain(fused).kernels) == 1
    assert_close(fused, (a @ b) * 2.0 + 1.0, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128, np.uint8])
def test_matrix_vector_products(device: str, dtype: type) -> None:
    """Products with one output row or column (``X @ w``, ``X.T @ r``, ``v @ M``, batched,
    vectors promoted as NumPy does, empty) are NumPy's, and so is a logistic regression's
    gradient step on a strided view with pending operands."""
    rng = np.random.default_rng(5)

    def make(shape: tuple) -> np.ndarray:
        if dtype is np.complex128:
            return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        return (rng.standard_normal(shape) * 5).astype(dtype)
    for sa, sb in [((7, 5), (5,)), ((5,), (5, 7)), ((7, 5), (5, 1)), ((1, 5), (5, 7)),
                   ((3, 7, 5), (5,)), ((2, 1, 1, 5), (4, 5, 9)), ((0, 5), (5,)), ((5, 0), (0,))]:
        a, b = make(sa), make(sb)
        out = xp.asarray(a, device=device) @ xp.asarray(b, device=device)
        assert out.shape == (a @ b).shape and out.dtype == (a @ b).dtype
        f32 = dtype is np.float32          # (sums of products near 100, cancelling)
        assert_close(out, a @ b, rtol=1e-5 if f32 else 1e-12, atol=1e-4 if f32 else 1e-10)
    if dtype is not np.float64:
        return
    X, w, y = rng.standard_normal((2000, 33)), rng.standard_normal(32), rng.random(2000)
    Xd = xp.asarray(X, device=device)[:, :-1]        # (a strided view, as in the bench)
    wd, yd = xp.asarray(w, device=device), xp.asarray(y, device=device)
    p = 1.0 / (1.0 + xp.exp(-(Xd @ wd)))
    step = wd - 0.5 * (Xd.T @ (p - yd)) / 2000
    pn = 1.0 / (1.0 + np.exp(-(X[:, :-1] @ w)))
    assert_close(step, w - 0.5 * (X[:, :-1].T @ (pn - y)) / 2000, rtol=1e-12)
