"""NumPy leniency against NumPy 2, on every device: the NumPy names that the standard renamed
or left out (concatenate, transpose, power, absolute, arc*, amax/amin, dot, einsum, cumsum,
cumprod, ravel, newaxis, the scalar-type aliases), NumPy scalars as operands, and NumPy's
own functions called on zyxarray arrays."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import Input, assert_close, check_against_numpy, on_devices

# (PoCL's opencl runs the backend tests, not these: tests/conftest.py, numpy_layer)
pytestmark = pytest.mark.numpy_layer

M = np.arange(1, 13, dtype=np.float32).reshape(3, 4) / 4


def test_renamed_elementwise_functions(device: str) -> None:
    unit = Input(np.array([-0.75, -0.0, 0.25, 0.5], np.float64), [])
    big = Input(np.array([1.0, 1.5, 3.0, 10.0], np.float32), [("index", (slice(None, None, -1),))])
    ints = Input(np.array([-3, 0, 7, 100], np.int16), [])
    for name, operands in (("arccos", [unit]), ("arcsin", [unit]), ("arctan", [big]),
                           ("arccosh", [big]), ("arcsinh", [unit]), ("arctanh", [unit]),
                           ("arctan2", [unit, big]), ("absolute", [ints]),
                           ("absolute", [unit]), ("power", [big, unit]), ("power", [ints, ints]),
                           ("invert", [ints]), ("left_shift", [ints, Input(np.int16(2), [])]),
                           ("right_shift", [ints, Input(np.array([1, 2, 0, 3], np.int16), [])])):
        if name == "power" and operands[0] is ints:
            operands = [ints, Input(np.array([2, 0, 3, 1], np.int16), [])]
        check_against_numpy(device, getattr(xp, name), getattr(np, name), operands,
                            kind="transcendental")


def test_concatenate_and_transpose(device: str) -> None:
    a = Input(M, [])
    b = Input(M.astype(np.int8), [("index", (slice(None, None, -1),))])
    check_against_numpy(device, lambda x, y: xp.concatenate((x, y)),
                        lambda x, y: np.concatenate((x, y)), [a, b])
    check_against_numpy(device, lambda x, y: xp.concatenate([x, y], 1),
                        lambda x, y: np.concatenate([x, y], 1), [a, b])
    check_against_numpy(device, lambda x, y: xp.concatenate([x, y], axis=None),
                        lambda x, y: np.concatenate([x, y], axis=None), [a, b])
    c = Input(np.arange(24).reshape(2, 3, 4), [])
    check_against_numpy(device, xp.transpose, np.transpose, [c])
    check_against_numpy(device, lambda x: xp.transpose(x, (1, 0, 2)),
                        lambda x: np.transpose(x, (1, 0, 2)), [c])
    # NumPy arrays and lists are accepted where NumPy takes them
    assert_close(xp.concatenate([M, M]), np.concatenate([M, M]))
    assert_close(xp.transpose([[1, 2, 3]]), np.transpose([[1, 2, 3]]))


def test_amax_amin(device: str) -> None:
    a = Input(np.array([[3, np.nan, 1], [0, 2, -1]], np.float64), [])
    for name in ("amax", "amin"):
        for axis, keepdims in ((None, False), (0, False), (1, True), ((0, 1), False)):
            check_against_numpy(device, partial(getattr(xp, name), axis=axis, keepdims=keepdims),
                                partial(getattr(np, name), axis=axis, keepdims=keepdims), [a])
        check_against_numpy(device, lambda x, n=name: getattr(xp, n)(x, 1),
                            lambda x, n=name: getattr(np, n)(x, 1), [a])


def test_dot(device: str) -> None:
    """Scalars, 1-D x 1-D (inner), 2-D x 1-D, 2-D x 2-D and N-D x M-D as NumPy."""
    rng = np.random.default_rng(3)
    cases = (((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)), ((3, 4), (4, 2)),
             ((2, 3, 4), (4, 5)), ((2, 3, 4), (5, 4, 2)), ((), (3,)))
    for s1, s2 in cases:
        a = Input(rng.standard_normal(s1), [])
        b = Input(rng.standard_normal(s2), [])
        check_against_numpy(device, xp.dot, np.dot, [a, b], rtol=1e-12, atol=1e-12)
    ints = Input(np.arange(6, dtype=np.int32).reshape(2, 3), [])
    check_against_numpy(device, lambda x: xp.dot(x, x.T), lambda x: np.dot(x, x.T), [ints])
    with pytest.raises(ValueError):
        xp.dot(xp.ones((2, 3), device=device), xp.ones((2, 3), device=device))


def test_einsum(device: str) -> None:
    rng = np.random.default_rng(4)
    a = Input(rng.standard_normal((2, 3)), [])
    b = Input(rng.standard_normal((3, 4)), [("permute", (1, 0))])   # a (4, 3) view ...
    sq = Input(rng.standard_normal((3, 3)), [])
    v = Input(np.arange(3, dtype=np.int64), [])
    for subscripts, operands in (("ij,kj->ik", [a, b]), ("ij,kj", [a, b]), ("ii", [sq]),
                                 ("ii->i", [sq]), ("ij->", [a]), ("i,i", [v, v]),
                                 ("i,j->ij", [v, v]), ("...j,j->...", [a, v]),
                                 ("ij,j->i", [sq, v])):
        check_against_numpy(device, partial(xp.einsum, subscripts),
                            partial(np.einsum, subscripts), operands, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="einsum"):
        xp.einsum("ij,jk->ik", a.on(device))
    with pytest.raises(ValueError, match="einsum"):
        xp.einsum("ij,jk->ik", a.on(device), a.on(device))


def test_cumsum_cumprod(device: str) -> None:
    """NumPy's cumsum/cumprod flatten when axis is None; positional axis and dtype."""
    a = Input(np.array([[1, 2, 3], [4, 5, 6]], np.int8), [("permute", (1, 0))])
    for name in ("cumsum", "cumprod"):
        fn, np_fn = getattr(xp, name), getattr(np, name)
        check_against_numpy(device, fn, np_fn, [a])
        check_against_numpy(device, lambda x, f=fn: f(x, 1), lambda x, f=np_fn: f(x, 1), [a])
        check_against_numpy(device, lambda x, f=fn: f(x, 0, xp.float32),
                            lambda x, f=np_fn: f(x, 0, np.float32), [a])
        assert_close(fn([1, 2, 3]), np_fn([1, 2, 3]))


def test_shape_helpers_and_newaxis(device: str) -> None:
    x = xp.asarray(M, device=device)
    assert (xp.ndim(x), xp.shape(x), xp.size(x)) == (M.ndim, M.shape, M.size)
    assert (xp.ndim([[1, 2]]), xp.shape([[1, 2]]), xp.size([[1, 2]])) == (2, (1, 2), 2)
    assert_close(xp.ravel(x.T), np.ravel(M.T))
    assert xp.newaxis is None and np.newaxis is None
    assert_close(x[xp.newaxis, :, xp.newaxis], M[np.newaxis, :, np.newaxis])


def test_scalar_type_aliases() -> None:
    """NumPy's aliases name the dtypes NumPy 2 gives them (float_ is gone from NumPy 2 but
    old code uses it: it is float64)."""
    for name, want in (("float_", "float64"), ("int_", "int64"), ("bool_", "bool"),
                       ("double", "float64"), ("single", "float32"), ("cdouble", "complex128"),
                       ("csingle", "complex64"), ("intp", "int64"), ("uintp", "uint64")):
        alias = getattr(xp, name)
        assert alias == getattr(xp, want) == np.dtype(want)
        if hasattr(np, name):
            assert alias == np.dtype(getattr(np, name))
        assert xp.zeros(1, dtype=alias).dtype == getattr(xp, want)


@pytest.mark.parametrize("scalar", [np.float32(2.5), np.float64(-1.5), np.int8(3),
                                    np.uint16(9), np.bool_(True), np.complex64(1 + 1j)],
                         ids=lambda v: type(v).__name__)
def test_numpy_scalars_as_operands(device: str, scalar: np.generic) -> None:
    """NumPy scalars are typed (NEP 50): they promote like 0-d arrays of their dtype."""
    s = Input(np.asarray(scalar), [])
    for dtype in ("int16", "float32"):
        a = Input(np.array([1, 2, 5], dtype), [])
        check_against_numpy(device, lambda x, v=scalar: x * v, lambda x, v: x * v, [a, s],
                            rtol=1e-6)
        check_against_numpy(device, lambda x, v=scalar: v - x if v.dtype != bool else v + x,
                            lambda x, v: v - x if v.dtype != bool else v + x, [a, s],
                            rtol=1e-6)
    x = xp.asarray([1.0, 2.0, 3.0], device=device)
    assert_close(x[np.int64(1):], np.array([2.0, 3.0]))


def test_numpy_functions_on_arrays(device: str) -> None:
    """NumPy's reductions call the array's methods with NumPy's keywords (out=None, ddof):
    the result stays a zyxarray array on its device."""
    a = np.arange(12, dtype=np.float64).reshape(3, 4) / 3
    x = xp.asarray(a, device=device)
    for name, kwargs in (("sum", {}), ("sum", {"axis": 0}), ("prod", {"axis": 1}),
                         ("mean", {"axis": 1}), ("std", {"ddof": 1}), ("var", {"axis": 0}),
                         ("max", {}), ("min", {"axis": 1, "keepdims": True}),
                         ("argmax", {"axis": 0}), ("argmin", {}), ("any", {"axis": 1}),
                         ("all", {}), ("cumsum", {"axis": 1}), ("round", {"decimals": 1})):
        for dev, got in on_devices(device, lambda d, n=name, k=kwargs: getattr(np, n)(
                x.to_device(d), **k)):
            assert isinstance(got, xp.Array), name
            assert got.device.name == dev
            assert_close(got, getattr(np, name)(a, **kwargs), rtol=1e-12, what=f"np.{name}")
    # out= cannot be honoured: arrays are values
    with pytest.raises(TypeError, match="out"):
        np.sum(x, out=np.zeros(()))
    # ufuncs compute in NumPy on the array's value
    np.testing.assert_array_equal(np.add(x, 1), a + 1)


def test_ufunc_keywords_out_where_dtype(device: str) -> None:
    """``np.divide(a, d, out=..., where=d > 0)`` and friends, as NumPy's ufuncs take them."""
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    d = np.array([2.0, 0.0])
    xa, xd = xp.asarray(a, device=device), xp.asarray(d, device=device)
    out = xp.zeros_like(xa)
    got = xp.divide(xa, xd, out=out, where=xd > 0)
    assert got is out
    assert np.asarray(out).tolist() == np.divide(a, d, out=np.zeros_like(a), where=d > 0).tolist()
    o = xp.zeros(2, device=device)
    xp.add(xd, 1.0, o)                              # (out third, positionally)
    assert np.asarray(o).tolist() == [3.0, 1.0]
    assert xp.exp(xd, dtype=xp.float32).dtype == xp.float32
    xp.negative(xd, out=(o,))
    assert np.asarray(o).tolist() == [-2.0, -0.0]
    with pytest.raises(TypeError, match="where= needs out="):
        xp.sqrt(xd, where=xd > 0)
    import inspect
    assert list(inspect.signature(xp.add).parameters) == ["x1", "x2"]     # (the standard's)
    assert xp.add.reduce(xa, axis=0).tolist() == [4.0, 6.0]


def test_scalars_hash_and_containers(device: str) -> None:
    labels = xp.asarray([3, 1, 3], device=device)
    names = {1: "one", 3: "three"}
    assert [names[v] for v in labels] == ["three", "one", "three"]
    assert {int(v) for v in set(xp.asarray([1, 2, 2], device=device))} == {1, 2}
    assert hash(xp.asarray(2.5, device=device)) == hash(2.5)
    with pytest.raises(TypeError, match="unhashable"):
        hash(labels)
    grid = xp.reshape(xp.arange(6, device=device), (2, 3))
    assert 4 in grid and 9 not in grid
    q, r = divmod(xp.asarray([7, -7], device=device), 3)
    assert np.asarray(q).tolist() == [2, -3] and np.asarray(r).tolist() == [1, 2]
    q, r = divmod(7, xp.asarray([2, 3], device=device))
    assert np.asarray(q).tolist() == [3, 2] and np.asarray(r).tolist() == [1, 1]
    x = xp.asarray([1, 5, 9], device=device)
    assert np.asarray(xp.clip(x, a_min=2, a_max=4)).tolist() == [2, 4, 4]
    with pytest.raises(TypeError, match="once"):
        xp.clip(x, 1, a_min=2)


def test_more_linalg_names() -> None:
    m = xp.linalg.matrix_power(xp.asarray([[1, 1], [1, 0]]), 80)
    assert m.dtype == xp.int64 and int(m[0, 0]) == 37889062373143906
    assert xp.linalg.matrix_power(xp.asarray([[1, 2], [3, 4]], dtype=xp.int32), 0).dtype == \
        xp.int32
    r = np.random.default_rng(0).standard_normal((4, 4))
    for p in (None, 2, -2, "fro", "nuc", 1, -1, np.inf, -np.inf):
        assert float(xp.linalg.cond(xp.asarray(r), p)) == pytest.approx(np.linalg.cond(r, p))
    t = np.eye(24).reshape(4, 6, 8, 3) + 0.1 * np.random.default_rng(1).standard_normal(
        (4, 6, 8, 3))
    np.testing.assert_allclose(np.asarray(xp.linalg.tensorinv(xp.asarray(t), ind=2)),
                               np.linalg.tensorinv(t, ind=2), rtol=1e-9, atol=1e-12)
    a = np.random.default_rng(2).standard_normal((6, 2, 3))
    b = np.random.default_rng(3).standard_normal((2, 3))
    np.testing.assert_allclose(
        np.asarray(xp.linalg.tensorsolve(xp.asarray(a), xp.asarray(b), axes=(0,))),
        np.linalg.tensorsolve(a, b, axes=(0,)), rtol=1e-9, atol=1e-12)
