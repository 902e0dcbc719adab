"""Searching functions against NumPy 2: where (three-way broadcasting, promotion of x1/x2,
arrays and Python scalars, non-bool conditions, mixing devices); argmax and argmin (NaN and
ties: the first occurrence), count_nonzero, nonzero and searchsorted (side, sorter)."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import (
    DTYPES,
    SIGNED,
    Input,
    assert_close,
    check_against_numpy,
    flush_float32_subnormals,
    flushes_float32_subnormals,
    inputs,
    on_devices,
)


@given(data=st.data())
def test_where(device: str, data: st.DataObject) -> None:
    cshape, s1, s2 = data.draw(hnp.mutually_broadcastable_shapes(
        num_shapes=3, min_dims=0, max_dims=3, min_side=0, max_side=3)).input_shapes
    cdtype = data.draw(st.sampled_from(("bool", "bool", "int8", "float64")), label="cond")
    d1 = data.draw(st.sampled_from(DTYPES), label="dtype1")
    d2 = data.draw(st.one_of(st.just(d1), st.sampled_from(DTYPES)), label="dtype2")
    if {d1, d2} & {"uint64"} and {d1, d2} & set(SIGNED):
        d2 = d1                           # refused pairing: tested in test_errors
    c = data.draw(inputs(cdtype, cshape), label="condition")
    a = data.draw(inputs(d1, s1), label="x1")
    b = data.draw(inputs(d2, s2), label="x2")
    check_against_numpy(device, xp.where, np.where, [c, a, b], kind="exact")


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "complex64", "bool"])
def test_where_with_python_scalars(device: str, dtype: str) -> None:
    """A Python scalar branch is weak (NEP 50): the array's dtype wins where it can hold it."""
    c = Input(np.array([True, False, True]), [])
    x = Input(np.array([1, 0, 1], dtype), [])
    for s in (True, 1, 2.5, 1j):
        if isinstance(s, complex) and dtype != "complex64":
            continue
        if isinstance(s, float) and dtype in ("bool", "int8", "uint8"):
            continue
        if isinstance(s, int) and not isinstance(s, bool) and dtype == "bool":
            continue
        # the scalar as a 0-d NumPy array of the weakly promoted dtype
        s_np = np.asarray(s, dtype=np.result_type(np.zeros(0, dtype), s))
        check_against_numpy(device, partial(_where_scalar_second, s=s),
                            partial(_where_scalar_second, s=s_np, lib=np), [c, x])
        check_against_numpy(device, partial(_where_scalar_first, s=s),
                            partial(_where_scalar_first, s=s_np, lib=np), [c, x])


def _where_scalar_second(cond: Any, arr: Any, s: Any, lib: Any = xp) -> Any:
    return lib.where(cond, arr, s)


def _where_scalar_first(cond: Any, arr: Any, s: Any, lib: Any = xp) -> Any:
    return lib.where(cond, s, arr)


def test_where_errors(device: str) -> None:
    x = xp.asarray([1.0, 2.0], device=device)
    with pytest.raises(ValueError, match="where"):
        xp.where(xp.asarray([True, False, True], device=device), x, x)
    other = "reference" if device != "reference" else "cpu"
    with pytest.raises(ValueError):
        xp.where(xp.asarray([True, False], device=other), x, x)
    with pytest.raises(ValueError):
        xp.where(xp.asarray([True, False], device=device), x, x.to_device(other))


def test_where_with_python_bool_condition(device: str) -> None:
    x = xp.asarray([1.0, 2.0], device=device)
    y = xp.where(True, x, 0.0)
    assert y.device.name == device
    np.testing.assert_array_equal(np.asarray(y), [1.0, 2.0])


# -- argmax, argmin, count_nonzero, nonzero, searchsorted ---------------------------------
ARG_CASES = {
    "int8": np.array([[3, -128, 127, 127], [0, 0, -1, -128], [5, 5, 5, 5]], np.int8),
    "uint32": np.array([[0, 2**32 - 1, 7, 2**32 - 1], [1, 1, 0, 0], [4, 2, 4, 2]], np.uint32),
    "bool": np.array([[False, True, True, False], [False] * 4, [True] * 4]),
    # NaN wins (first NaN), as in NumPy; equal values: the first one
    "float64": np.array([[1.0, np.nan, 3.0, np.nan], [-0.0, 0.0, -np.inf, np.inf],
                         [2.0, 2.0, -2.0, -2.0]]),
    "float32": np.array([[np.inf, np.inf, 1, 1], [np.nan, 1, np.nan, 0], [0, -0.0, 0, -0.0]],
                        np.float32),
}


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", sorted(ARG_CASES))
def test_argmax_argmin(device: str, name: str, dtype: str) -> None:
    a = Input(ARG_CASES[dtype], [])
    fn, np_fn = getattr(xp, name), getattr(np, name)
    for axis in (None, 0, 1, -1):
        for keepdims in (False, True):
            check_against_numpy(device, partial(fn, axis=axis, keepdims=keepdims),
                                partial(np_fn, axis=axis, keepdims=keepdims), [a])
    view = Input(ARG_CASES[dtype], [("permute", (1, 0)), ("index", (slice(None, None, -1),))])
    check_against_numpy(device, partial(fn, axis=1), partial(np_fn, axis=1), [view])
    check_against_numpy(device, fn, np_fn, [Input(np.array(7, dtype), [])])
    # positional axis, as NumPy
    np.testing.assert_array_equal(np.asarray(fn(a.on(device), 1)), np_fn(a.np, 1))


PACKED = ["bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16", "float32"]


def _arg_data(dtype: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Few distinct values (many ties), the extremes of the dtype, and for floats both
    zeros, both infinities, subnormals and NaNs with either sign bit."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.3
    dt = np.dtype(dtype)
    if dt.kind == "f":
        neg_nan = np.array([0xFFC00001], np.uint32).view(np.float32)[0]
        pool = np.array([-np.inf, -1.5, -0.0, 0.0, 1e-40, 1.5, np.inf, np.nan, neg_nan,
                         np.finfo(dt).max, -np.finfo(dt).max], np.float32).astype(dt)
        p = np.full(len(pool), 0.5 / (len(pool) - 2))
        p[[7, 8]] = 0.25 / shape[-1]            # NaNs rare, so most rows have none
        p = p / p.sum()
    else:
        info = np.iinfo(dt)
        pool = np.array([info.min, info.min + 1, 0, 1, info.max - 1, info.max], dt)
        p = None
    return rng.choice(pool, size=shape, p=p)


@pytest.mark.parametrize("dtype", PACKED)
def test_arg_reductions_fuse_with_their_producer(device: str, dtype: str) -> None:
    """argmax/argmin of a computed value are one fused reduction of (value, index) pairs
    (packed into an int64) on every device: one kernel (plan), the first of equal values and the
    first NaN win, -0.0 equals 0.0, as in NumPy; a long axis (split reductions) too."""
    for shape, seed in (((67, 301), 0), ((100_003,), 1), ((3, 40_000), 2)):
        h = _arg_data(dtype, shape, seed)
        x = xp.asarray(h, device=device)
        if flushes_float32_subnormals(device):      # (x * 1 is 0 where x is subnormal)
            h = flush_float32_subnormals(h)
        pending = xp.logical_not(xp.logical_not(x)) if dtype == "bool" else x * 1
        for name in ("argmax", "argmin"):
            for axis in (None, *range(len(shape))):
                got = getattr(xp, name)(pending, axis=axis)
                want = getattr(np, name)(h, axis=axis)
                # one kernel (a GPU's split reduction: the two kernels of one plan)
                text = str(xp.explain(got))
                kernels = text.count("stored because")
                assert kernels == 1 or kernels == text.count("(g_split)") == 2, text
                np.testing.assert_array_equal(np.asarray(got), want,
                                              err_msg=f"{name} axis={axis} {shape}")


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmax_argmin_errors(device: str, name: str) -> None:
    fn = getattr(xp, name)
    x = xp.asarray(np.zeros((2, 0)), device=device)
    with pytest.raises(ValueError, match=name):          # NumPy: ValueError too
        fn(x)
    with pytest.raises(ValueError, match=name):
        fn(x, axis=1)
    assert fn(x, axis=0).shape == (0,)                   # the empty axis is not reduced
    with pytest.raises((ValueError, IndexError)):         # NumPy: AxisError
        fn(x, axis=2)
    with pytest.raises(TypeError, match=name):           # the standard: real-valued only
        fn(xp.asarray([1j, 2j], device=device))


@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "complex64"])
def test_count_nonzero(device: str, dtype: str) -> None:
    base = np.array([[0, 1, 2], [0, 0, 3], [4, 0, 0], [5, 6, 7]]).astype(dtype)
    if dtype == "float32":
        base[0, 0], base[1, 1] = -0.0, np.nan              # -0.0 is zero, NaN is not
    if dtype == "complex64":
        base[1, 1] = 1j                                   # an imaginary part counts
    a = Input(base, [])
    for axis, keepdims in ((None, False), (0, True), (-1, False), ((0, 1), True)):
        check_against_numpy(device, partial(xp.count_nonzero, axis=axis, keepdims=keepdims),
                            partial(np.count_nonzero, axis=axis, keepdims=keepdims), [a],
                            dtype="int64")
    view = Input(base, [("index", (slice(None, None, 2),)), ("permute", (1, 0))])
    check_against_numpy(device, partial(xp.count_nonzero, axis=1),
                        partial(np.count_nonzero, axis=1), [view], dtype="int64")
    x = a.on(device)
    assert xp.count_nonzero(x).dtype == xp.int64
    np.testing.assert_array_equal(np.asarray(xp.count_nonzero(x, 0)),
                                  np.count_nonzero(base, 0))
    with pytest.raises((ValueError, IndexError)):
        xp.count_nonzero(x, axis=2)


@pytest.mark.parametrize("dtype", ["bool", "int64", "float64", "complex128"])
def test_nonzero(device: str, dtype: str) -> None:
    base = np.array([[[0, 1], [2, 0]], [[0, 0], [3, 4]], [[5, 0], [0, 0]]]).astype(dtype)
    views = (Input(base, []), Input(base, [("permute", (2, 0, 1))]),
             Input(base[0, 0], []), Input(np.zeros((0, 2), dtype), []))
    for x in views:
        expected = np.nonzero(x.np)
        for dev, got in on_devices(device, lambda d, x=x: xp.nonzero(x.on(d) + 0)):
            assert isinstance(got, tuple) and len(got) == len(expected)
            for g_, e in zip(got, expected):
                assert g_.device.name == dev
                assert_close(g_, e, dtype="int64", what=dev)
    with pytest.raises(ValueError, match="nonzero"):       # NumPy 2 refuses 0-d too
        xp.nonzero(xp.asarray(1, device=device))
    x = xp.asarray([0.0, np.nan, -0.0], device=device)
    np.testing.assert_array_equal(np.asarray(xp.nonzero(x)[0]), [1])


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(device: str, side: str) -> None:
    sorted_ = Input(np.array([-np.inf, -1.0, 0.0, 0.0, 2.5, 2.5, 2.5, np.inf, np.nan]), [])
    values = Input(np.array([[0.0, -0.0, 2.5], [np.nan, 3.0, -np.inf], [-5.0, np.inf, 1.0]]),
                   [])
    check_against_numpy(device, partial(xp.searchsorted, side=side),
                        partial(np.searchsorted, side=side), [sorted_, values])
    ints = Input(np.array([1, 1, 2, 3, 5, 8], np.int16), [])
    check_against_numpy(device, partial(xp.searchsorted, side=side),
                        partial(np.searchsorted, side=side),
                        [ints, Input(np.array([0, 1, 4, 8, 9], np.int16), [])])
    # a sorter: x1 is unsorted, sorter is its argsort
    x1 = np.array([30, 10, 20, 10, 40], np.int32)
    order = np.argsort(x1, kind="stable")
    check_against_numpy(device, lambda a, v, s: xp.searchsorted(a, v, side=side, sorter=s),
                        lambda a, v, s: np.searchsorted(a, v, side=side, sorter=s),
                        [Input(x1, []), Input(np.array([10, 25, 40, 50], np.int32), []),
                         Input(order, [])])
    # x2 a Python scalar, a 0-d array, or of another dtype (promoted)
    x = ints.on(device)
    assert int(xp.searchsorted(x, 2, side=side)) == np.searchsorted(ints.np, 2, side=side)
    assert xp.searchsorted(x, xp.asarray(2, device=device)).shape == ()
    check_against_numpy(device, partial(xp.searchsorted, side=side),
                        partial(np.searchsorted, side=side),
                        [ints, Input(np.array([1.5, 8.0]), [])])
    # side positionally, as NumPy
    np.testing.assert_array_equal(np.asarray(xp.searchsorted(x, xp.asarray([1], device=device),
                                                             side)),
                                  np.searchsorted(ints.np, [1], side))


def test_searchsorted_errors(device: str) -> None:
    x = xp.asarray([1, 2, 3], device=device)
    with pytest.raises(ValueError, match="side"):
        xp.searchsorted(x, x, side="middle")
    with pytest.raises(ValueError, match="1-D"):
        xp.searchsorted(xp.reshape(x, (1, 3)), x)
    with pytest.raises(ValueError, match="sorter"):
        xp.searchsorted(x, x, sorter=xp.asarray([0, 1], device=device))
    with pytest.raises(ValueError, match="sorter"):
        xp.searchsorted(x, x, sorter=xp.asarray([0.0, 1.0, 2.0], device=device))


def test_arg_reductions_stay_on_a_device_without_a_library(device: str) -> None:
    """Where the device has no argmax/argmin of its own and its memory is not the host's
    (OpenCL), they are two generated reductions: no library step, no host round trip; the
    first NaN and the first of equal elements win, as in NumPy."""
    from zyxarray._devices import library, registry
    info = registry.get(device).info
    h = np.array([[1.0, np.nan, 3.0, np.nan], [2.0, 5.0, 5.0, 1.0], [0.0, -1.0, -1.0, 4.0]])
    x = xp.asarray(h, device=device)
    for name in ("argmax", "argmin"):
        for axis in (None, 0, 1):
            got = getattr(xp, name)(x * 1.0, axis=axis)
            np.testing.assert_array_equal(np.asarray(got), getattr(np, name)(h, axis=axis))
            if info.style != "loops" and library.on_device(info.kind, name) is None:
                assert "library" not in str(xp.explain(got))
