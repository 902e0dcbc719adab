"""Creation functions against NumPy 2: asarray (lists, scalars, NumPy arrays, buffers),
zeros/ones/full/empty and their *_like forms, arange, linspace, eye, tril, triu, meshgrid;
NumPy's dtype spellings, NumPy scalars and NumPy's positional arguments."""

from __future__ import annotations

import array
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import (
    DTYPES,
    INTEGER,
    Input,
    assert_close,
    check_against_numpy,
    inputs,
    numpy_result,
    on_devices,
)
from zyxarray._devices import registry


# -- asarray ------------------------------------------------------------------------------
def _nested(shape: tuple[int, ...], leaf: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    if not shape:
        return leaf
    return st.lists(_nested(shape[1:], leaf), min_size=shape[0], max_size=shape[0])


LEAVES = {
    "bool": st.booleans(),
    "int": st.integers(-2**63, 2**63 - 1),
    "float": st.floats(allow_nan=True, allow_infinity=True),
    "complex": st.complex_numbers(),
    "int_and_bool": st.one_of(st.booleans(), st.integers(-100, 100)),
    "int_and_float": st.one_of(st.integers(-100, 100), st.floats(-1e3, 1e3)),
}


@pytest.mark.parametrize("leaf", sorted(LEAVES))
@given(data=st.data())
def test_asarray_from_nested_lists(device: str, leaf: str, data: st.DataObject) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=3))
    obj = data.draw(_nested(shape, LEAVES[leaf]), label="obj")
    expected = np.asarray(obj)
    for dev, x in on_devices(device, lambda d: xp.asarray(obj, device=d)):
        assert_close(x, expected, what=dev)
        assert x.device.name == dev


@pytest.mark.parametrize("value", [True, False, 0, -7, 2**62, 1.5, -0.0, float("inf"),
                                   float("nan"), 1 + 2j])
def test_asarray_from_python_scalars(device: str, value: Any) -> None:
    x = xp.asarray(value, device=device)
    assert x.shape == ()
    assert_close(x, np.asarray(value))


@given(data=st.data())
def test_asarray_from_numpy(device: str, data: st.DataObject) -> None:
    """Any dtype, any view; the data is copied (later NumPy writes do not show)."""
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    a = data.draw(inputs(dtype, shape), label="x")
    source = np.array(a.np)              # writable copy, possibly of a view
    x = xp.asarray(a.np, device=device)
    y = xp.asarray(source, device=device)
    expected = np.array(source)
    source[...] = np.zeros((), dtype)    # must not change x or y
    assert_close(x, expected)
    assert_close(y, expected)
    # with a dtype conversion, as NumPy's astype would do
    target = data.draw(st.sampled_from(DTYPES), label="target")
    assume(np.can_cast(dtype, target, "safe"))
    assert_close(xp.asarray(a.np, dtype=getattr(xp, target), device=device),
                 a.np.astype(target))


def test_asarray_from_buffers(device: str) -> None:
    raw = bytes(range(10))
    assert_close(xp.asarray(raw, device=device), np.frombuffer(raw, np.uint8))
    assert_close(xp.asarray(bytearray(raw), device=device), np.frombuffer(raw, np.uint8))
    assert_close(xp.asarray(raw, dtype=xp.int16, device=device), np.frombuffer(raw, np.int16))
    doubles = array.array("d", [1.5, -2.0, 3.25])
    assert_close(xp.asarray(doubles, device=device), np.asarray(doubles))
    assert_close(xp.asarray(memoryview(doubles), device=device), np.asarray(doubles))
    ints = array.array("i", [1, -2, 3])
    assert_close(xp.asarray(memoryview(ints), device=device), np.asarray(memoryview(ints)))


def test_asarray_of_an_array(device: str) -> None:
    x = xp.asarray([1, 2, 3], device=device)
    assert xp.asarray(x) is x
    assert xp.asarray(x, copy=True) is not x
    assert_close(xp.asarray(x, dtype=xp.float32), np.array([1, 2, 3], np.float32))
    with pytest.raises(ValueError):
        xp.asarray(x, dtype=xp.float32, copy=False)
    with pytest.raises(ValueError):
        xp.asarray(np.arange(3), copy=False, device=device)


def test_asarray_errors(device: str) -> None:
    with pytest.raises(OverflowError):
        xp.asarray(2**64, device=device)
    with pytest.raises((OverflowError, TypeError)):
        xp.asarray([1, 2**70], device=device)     # NumPy makes an object array of it
    with pytest.raises(OverflowError):
        xp.asarray(300, dtype=xp.uint8, device=device)
    with pytest.raises(TypeError):
        xp.asarray(1j, dtype=xp.float64, device=device)
    with pytest.raises(TypeError):
        xp.asarray(["a", 1], device=device)
    with pytest.raises(TypeError):
        xp.asarray(np.zeros(2, np.longdouble), device=device)
    with pytest.raises(ValueError, match="device"):
        xp.asarray([1], device="no-such-device")


# -- filled arrays ------------------------------------------------------------------------
@given(shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
       dtype=st.sampled_from(DTYPES + (None,)))
def test_zeros_ones_empty(device: str, shape: tuple[int, ...], dtype: str | None) -> None:
    d = None if dtype is None else getattr(xp, dtype)
    nd = np.float64 if dtype is None else dtype
    for fn, np_fn in ((xp.zeros, np.zeros), (xp.ones, np.ones)):
        assert_close(fn(shape, dtype=d, device=device), np_fn(shape, nd))
    e = xp.empty(shape, dtype=d, device=device)
    assert e.shape == shape and e.dtype == np.dtype(nd)
    assert e.device.name == device
    if shape and len(shape) == 1:
        assert_close(xp.zeros(shape[0], dtype=d, device=device), np.zeros(shape[0], nd))


FILL_VALUES = st.one_of(st.booleans(), st.integers(-100, 100), st.floats(-1e3, 1e3),
                        st.complex_numbers(max_magnitude=1e3))


@given(shape=hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3),
       value=FILL_VALUES, dtype=st.sampled_from(DTYPES + (None,)))
def test_full(device: str, shape: tuple[int, ...], value: Any, dtype: str | None) -> None:
    if dtype is not None:
        d = np.dtype(dtype)
        kind_of = {bool: "b", int: "iu", float: "f", complex: "c"}[type(value)]
        # a value of a higher kind than the dtype is undefined by the standard
        assume(d.kind in "fc" or (d.kind in "iu" and kind_of in "biu")
               or (d.kind == "b" and kind_of == "b"))
        assume(d.kind == "c" or kind_of != "c")
    def make() -> Any:
        return xp.full(shape, value, dtype=None if dtype is None else getattr(xp, dtype),
                       device=device)
    try:
        expected = numpy_result(np.full, shape, value, dtype)
    except OverflowError:
        with pytest.raises(OverflowError):        # e.g. -1 as uint8
            make()
        return
    assert_close(make(), expected)


@given(data=st.data())
def test_like_functions(device: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3))
    a = data.draw(inputs(dtype, shape), label="x")
    x = a.on(device)
    override = data.draw(st.sampled_from((None,) + DTYPES), label="dtype=")
    d = None if override is None else getattr(xp, override)
    nd = dtype if override is None else override
    assert_close(xp.zeros_like(x, dtype=d), np.zeros_like(a.np, dtype=nd))
    assert_close(xp.ones_like(x, dtype=d), np.ones_like(a.np, dtype=nd))
    assert_close(xp.full_like(x, 1, dtype=d), np.full_like(a.np, 1, dtype=nd))
    e = xp.empty_like(x, dtype=d)
    assert e.shape == a.np.shape and e.dtype == np.dtype(nd) and e.device.name == device
    other = "reference" if device != "reference" else "cpu"
    assert xp.zeros_like(x, device=other).device.name == other


# -- ranges ---------------------------------------------------------------------------
@given(start=st.integers(-50, 50), stop=st.integers(-50, 50) | st.none(),
       step=st.integers(-7, 7).filter(bool),
       dtype=st.sampled_from([None, "int8", "int64", "uint16", "float32", "float64"]))
def test_arange_integers(device: str, start: int, stop: int | None, step: int,
                         dtype: str | None) -> None:
    args = (start,) if stop is None else (start, stop, step)
    try:
        expected = numpy_result(np.arange, *args, dtype=dtype)
    except (ValueError, OverflowError):
        return
    if dtype in INTEGER and expected.size and (
            expected.min() < np.iinfo(dtype).min or expected.max() > np.iinfo(dtype).max):
        return
    assume(not (dtype in ("uint16",) and (start < 0 or (stop is not None and stop < 0))))
    x = xp.arange(*args, dtype=None if dtype is None else getattr(xp, dtype), device=device)
    assert_close(x, expected)


def test_arange_of_a_count_is_one_node(device: str) -> None:
    """``arange(k)`` (start 0, step 1) that is not computed now is the iota itself: one
    node, not an iota times 1 plus 0 (k-means' one-hot labels build one every step)."""
    x = xp.arange(100_000, device=device)
    if x._node.op != "BUFFER":
        assert x._node.op == "IOTA"
    np.testing.assert_array_equal(np.asarray(x[-3:]), [99_997, 99_998, 99_999])
    y = xp.arange(5, 100_005, device=device)
    np.testing.assert_array_equal(np.asarray(y[:2]), [5, 6])


@given(start=st.floats(-100, 100), stop=st.floats(-100, 100),
       step=st.floats(0.01, 10) | st.floats(-10, -0.01),
       dtype=st.sampled_from([None, "float32", "float16"]))
def test_arange_floats(device: str, start: float, stop: float, step: float,
                       dtype: str | None) -> None:
    """NumPy's values to the bit: element 0 is start, element 1 start + step, then
    start + i * (element 1 - element 0) in float64 for float64, float32 otherwise."""
    assume(abs((stop - start) / step) < 2000)
    expected = np.arange(start, stop, step, dtype=dtype)
    x = xp.arange(start, stop, step, dtype=None if dtype is None else getattr(xp, dtype),
                  device=device)
    assert x.shape == expected.shape
    if x.dtype == expected.dtype:
        np.testing.assert_array_equal(np.asarray(x), expected)
    else:                       # (a device without float64: its default float is float32)
        assert_close(x, expected, rtol=1e-6, atol=1e-6 * max(abs(start), abs(stop), 1.0))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
def test_arange_floats_are_numpys_now_and_in_kernels(device: str, dtype: str) -> None:
    """Small arrays made at once (cpu) and large ones made by a kernel, starts and steps
    whose element 1 is not element 0 plus their difference: NumPy's values to the bit."""
    if dtype == "float64" and not registry.get(device).info.float64:
        pytest.skip("no float64 on this device")
    rng = np.random.default_rng(7)
    for n in (3, 50, 70_000):
        for _ in range(20):
            start = float(rng.uniform(-1e3, 1e3)) * float(rng.choice([1.0, 1e-3]))
            step = float(rng.uniform(0.01, 5)) * float(rng.choice([1.0, -1.0, 1e2]))
            stop = start + step * n
            expected = np.arange(start, stop, step, dtype=dtype)
            got = np.asarray(xp.arange(start, stop, step, dtype=getattr(xp, dtype),
                                       device=device))
            np.testing.assert_array_equal(got, expected)


def test_arange_errors(device: str) -> None:
    with pytest.raises(ValueError):
        xp.arange(0, 10, 0, device=device)
    with pytest.raises(TypeError):
        xp.arange(1j, device=device)


@given(start=st.floats(-100, 100), stop=st.floats(-100, 100), num=st.integers(0, 12),
       endpoint=st.booleans(),
       dtype=st.sampled_from([None, "float32", "float64", "int64", "int16", "complex128"]))
def test_linspace(device: str, start: float, stop: float, num: int, endpoint: bool,
                  dtype: str | None) -> None:
    expected = np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
    x = xp.linspace(start, stop, num, endpoint=endpoint,
                    dtype=None if dtype is None else getattr(xp, dtype), device=device)
    scale = max(abs(start), abs(stop), 1.0)
    if dtype in ("int64", "int16"):
        # NumPy 2 computes in float and rounds toward -inf (floor); a value within a few ulp
        # of an integer may land on either side, so compare within 1 there
        assert x.dtype == np.dtype(dtype) and x.shape == expected.shape
        np.testing.assert_allclose(np.asarray(x), expected, atol=1, rtol=0)
        exact = np.abs(np.linspace(start, stop, num, endpoint=endpoint) -
                       np.round(np.linspace(start, stop, num, endpoint=endpoint))) > 1e-9
        np.testing.assert_array_equal(np.asarray(x)[exact], expected[exact])
        return
    rtol = 1e-6 if dtype in ("float32",) else 1e-12
    assert_close(x, expected, rtol=rtol, atol=scale * rtol)


def test_linspace_complex(device: str) -> None:
    expected = np.linspace(1 + 2j, -3 + 0.5j, 5)
    assert_close(xp.linspace(1 + 2j, -3 + 0.5j, 5, device=device), expected, rtol=1e-12,
                 atol=1e-12)


@given(n=st.integers(0, 6), m=st.integers(0, 6) | st.none(), k=st.integers(-7, 7),
       dtype=st.sampled_from([None, "bool", "int32", "float32", "complex64"]))
def test_eye(device: str, n: int, m: int | None, k: int, dtype: str | None) -> None:
    x = xp.eye(n, m, k=k, dtype=None if dtype is None else getattr(xp, dtype), device=device)
    assert_close(x, np.eye(n, m, k=k, dtype=dtype or np.float64))


@pytest.mark.parametrize("name", ["tril", "triu"])
@given(data=st.data())
def test_tril_triu(device: str, name: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=2, max_dims=4, min_side=0, max_side=4))
    a = data.draw(inputs(dtype, shape), label="x")
    k = data.draw(st.integers(-5, 5), label="k")
    check_against_numpy(device, lambda x: getattr(xp, name)(x, k=k),
                        lambda x: getattr(np, name)(x, k=k), [a], kind="exact")


def test_diagonals_beyond_int64(device: str) -> None:
    """k outside the int64 range (the standard's test draws them) selects no diagonal, or
    every element for tril/triu; NumPy's eye agrees, its tril/triu overflow."""
    a = np.arange(12.0).reshape(3, 4)
    for k, near in ((2**63, 4), (-(2**63) - 1, -3), (2**70, 4)):
        for n, m in ((0, None), (3, 4), (4, 2)):
            assert_close(xp.eye(n, m, k=k, device=device), np.eye(n, m, k=k))
        assert_close(xp.tril(xp.asarray(a, device=device), k=k), np.tril(a, k=near))
        assert_close(xp.triu(xp.asarray(a, device=device), k=k), np.triu(a, k=near))


def test_tril_needs_a_matrix(device: str) -> None:
    with pytest.raises(ValueError, match="tril"):
        xp.tril(xp.asarray([1, 2], device=device))


def test_from_dlpack(device: str) -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)[:, ::2]
    x = xp.from_dlpack(a, device=device)
    assert x.device.name == device
    assert_close(x, a)
    y = xp.from_dlpack(xp.asarray([1, 2], device=device))
    assert_close(y, np.array([1, 2]))


def test_creation_takes_a_device(device: str) -> None:
    for x in (xp.asarray([1], device=device), xp.zeros(2, device=device),
              xp.ones(2, device=device), xp.full(2, 3, device=device),
              xp.empty(2, device=device), xp.arange(3, device=device),
              xp.linspace(0, 1, 3, device=device), xp.eye(2, device=device)):
        assert x.device.name == device
        assert_close(Input(np.asarray(x), []).on(device), np.asarray(x))


# -- meshgrid -----------------------------------------------------------------------------
@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(device: str, indexing: str) -> None:
    vectors = (np.array([1, 2, 3], np.int16), np.array([4, 5], np.int16),
               np.array([6, 7, 8, 9], np.int16))
    for n in (0, 1, 2, 3):
        expected = np.meshgrid(*vectors[:n], indexing=indexing)
        for dev, got in on_devices(device, lambda d, n=n: xp.meshgrid(
                *[xp.asarray(v, device=d) for v in vectors[:n]], indexing=indexing)):
            assert isinstance(got, tuple) and len(got) == n
            for g_, e in zip(got, expected):
                assert g_.device.name == dev
                assert_close(g_, e, what=dev)
                assert_close(g_ * 2, e * 2, what=f"{dev}, through a kernel")
    # an empty vector gives empty grids
    got = xp.meshgrid(xp.asarray([1.0, 2.0], device=device),
                      xp.asarray(np.zeros(0), device=device), indexing=indexing)
    assert [g_.shape for g_ in got] == [e.shape for e in np.meshgrid([1.0, 2.0], [],
                                                                     indexing=indexing)]


def test_meshgrid_errors(device: str) -> None:
    v = xp.asarray([1.0, 2.0], device=device)
    with pytest.raises(ValueError, match="indexing"):
        xp.meshgrid(v, v, indexing="yx")
    with pytest.raises(TypeError, match="meshgrid"):
        xp.meshgrid(v, "ab")


def test_meshgrid_is_numpy_lenient(device: str) -> None:
    """As NumPy's: inputs of other ranks are flattened, each grid keeps its dtype, lists and
    scalars are taken."""
    m = np.array([[1.0, 2.0], [3.0, 4.0]])
    i = np.array([5, 6, 7])
    for args in ((m, i), ([1.0, 2.0], 3), (np.float32(2.0), i)):
        expected = np.meshgrid(*args)
        got = xp.meshgrid(*(xp.asarray(a, device=device) if isinstance(a, np.ndarray) else a
                            for a in args))
        assert len(got) == len(expected)
        for g_, e in zip(got, expected):
            assert_close(g_, e)
            assert str(g_.dtype) == str(e.dtype)


# -- NumPy leniency: dtype spellings, NumPy scalars, positional arguments --------------------
@pytest.mark.parametrize("spelling", [np.float32, np.dtype("float32"), "float32", "f4",
                                      xp.float32])
def test_numpy_dtype_spellings(device: str, spelling: Any) -> None:
    """NumPy's dtype objects, scalar types and names all work as dtype=."""
    for x in (xp.zeros(2, dtype=spelling, device=device),
              xp.full((1, 2), 3, dtype=spelling, device=device),
              xp.asarray([1, 2], dtype=spelling, device=device),
              xp.arange(3, dtype=spelling, device=device),
              xp.linspace(0, 1, 3, dtype=spelling, device=device),
              xp.eye(2, dtype=spelling, device=device),
              xp.ones_like(xp.asarray([1], device=device), dtype=spelling),
              xp.astype(xp.asarray([1, 2], device=device), spelling)):
        assert x.dtype == xp.float32 and np.asarray(x).dtype == np.float32


def test_python_types_as_dtypes(device: str) -> None:
    """bool, int, float and complex mean NumPy's defaults for them."""
    for t, want in ((bool, xp.bool), (int, xp.int64), (float, xp.float64),
                    (complex, xp.complex128)):
        assert xp.zeros(2, dtype=t, device=device).dtype == want
        assert xp.asarray([1], dtype=t, device=device).dtype == want
    for name in ("bool", "int8", "uint16", "int64", "complex64"):
        assert xp.zeros(1, dtype=np.dtype(name), device=device).dtype == getattr(xp, name)


def test_numpy_scalars_in_creation(device: str) -> None:
    """A NumPy scalar keeps its dtype (as in NumPy); NumPy integers count as sizes."""
    for value in (np.float32(1.5), np.int8(-3), np.uint16(7), np.bool_(True),
                  np.complex64(1 - 2j), np.float64(0.25)):
        assert_close(xp.full(2, value, device=device), np.full(2, value))
        assert_close(xp.asarray(value, device=device), np.asarray(value))
        assert_close(xp.asarray([value, value], device=device), np.asarray([value, value]))
    assert xp.zeros(np.int64(3), device=device).shape == (3,)
    assert xp.ones((np.int32(2), np.uint8(1)), device=device).shape == (2, 1)
    assert_close(xp.arange(np.int16(5), device=device), np.arange(5))
    assert_close(xp.arange(np.float32(0.5), 3, device=device), np.arange(np.float32(0.5), 3))
    assert_close(xp.linspace(np.float64(0), np.int8(2), np.int64(5), device=device),
                 np.linspace(0, 2, 5))
    assert_close(xp.eye(np.int64(3), k=np.int64(1), device=device), np.eye(3, k=1))


def test_creation_numpy_positional_arguments(device: str) -> None:
    """NumPy's order: zeros/ones/empty(shape, dtype), full(shape, value, dtype),
    asarray(obj, dtype), arange(start, stop, step, dtype), eye(n, m, k, dtype),
    *_like(x, dtype), full_like(x, value, dtype), linspace(start, stop, num, endpoint),
    tril/triu(x, k)."""
    dev = {"device": device}
    assert_close(xp.zeros((2,), xp.int8, **dev), np.zeros((2,), np.int8))
    assert_close(xp.ones(3, "uint16", **dev), np.ones(3, "uint16"))
    assert xp.empty((1, 2), np.float32, **dev).dtype == xp.float32
    assert_close(xp.full((2,), 7, np.int16, **dev), np.full((2,), 7, np.int16))
    assert_close(xp.asarray([1, 2], xp.float32, **dev), np.asarray([1, 2], np.float32))
    assert_close(xp.arange(1, 8, 3, xp.float64, **dev), np.arange(1, 8, 3, np.float64))
    assert_close(xp.eye(3, 4, 1, xp.int32, **dev), np.eye(3, 4, 1, np.int32))
    x = xp.asarray([[1, 2], [3, 4]], **dev)
    a = np.array([[1, 2], [3, 4]])
    for name in ("zeros_like", "ones_like"):
        assert_close(getattr(xp, name)(x, xp.float32), getattr(np, name)(a, np.float32))
    assert xp.empty_like(x, xp.uint8).dtype == xp.uint8
    assert_close(xp.full_like(x, 5, xp.int8), np.full_like(a, 5, np.int8))
    assert_close(xp.linspace(0, 1, 4, False, **dev), np.linspace(0, 1, 4, False))
    assert_close(xp.tril(x, -1), np.tril(a, -1))
    assert_close(xp.triu(x, 1), np.triu(a, 1))
