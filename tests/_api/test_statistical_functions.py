"""Reductions (sum, prod, max, min, mean, var, std) and scans (cumulative_sum,
cumulative_prod) against NumPy 2, on every device.

Any set of axes (None, an int, a tuple, negative axes), keepdims, all dtypes, empty
reductions, and non-contiguous inputs. Tolerances grow with the number of elements reduced:
a backend may sum in any order (several accumulators, split reductions).
"""

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
    COMPLEX,
    DTYPES,
    REAL_FLOAT,
    Input,
    assert_close,
    axes_for,
    check_against_numpy,
    elements,
    inputs,
    numpy_result,
    reduced_count,
)

EPS = {"float32": float(np.finfo(np.float32).eps), "float64": float(np.finfo(np.float64).eps)}


def _eps(dtype: Any) -> float:
    d = np.dtype(dtype)
    if d.kind not in "fc":
        return 0.0
    return EPS["float32" if d in (np.float32, np.complex64) else "float64"]


def _case(data: st.DataObject, dtypes: tuple[str, ...], lo: float = -100.0,
          hi: float = 100.0) -> tuple[str, Input, Any, bool]:
    dtype = data.draw(st.sampled_from(dtypes), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
                      label="shape")
    # complex values are finite: NumPy's complex product is not C99 Annex G's
    # (1 * (0+inf j) is nan+inf j in NumPy), and neither is wrong
    elems = elements(dtype, lo=lo, hi=hi, specials=np.dtype(dtype).kind == "f") \
        if np.dtype(dtype).kind in "fc" else None
    a = data.draw(inputs(dtype, shape, elems), label="x")
    axis = data.draw(axes_for(len(shape)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    return dtype, a, axis, keepdims


SUM_LIKE = {"sum": np.sum, "prod": np.prod, "mean": np.mean}


@pytest.mark.parametrize("name", sorted(SUM_LIKE))
@given(data=st.data())
def test_sum_prod_mean(device: str, name: str, data: st.DataObject) -> None:
    dtype, a, axis, keepdims = _case(data, DTYPES, -4.0 if name == "prod" else -100.0,
                                     4.0 if name == "prod" else 100.0)
    fn = getattr(xp, name)
    n = reduced_count(a.np.shape, axis)
    eps = _eps(dtype)
    if name == "prod":
        rtol, atol = 4 * (n + 1) * eps, 0.0
    else:
        rtol = 4 * (n + 1) * eps
        scale = float(np.max(np.abs(a.np))) if a.np.size and a.np.dtype.kind in "fc" else 0.0
        atol = 4 * (n + 1) * eps * (scale if np.isfinite(scale) else 0.0)
    if name == "mean" and dtype not in REAL_FLOAT + COMPLEX:
        rtol, atol = 4 * (n + 1) * EPS["float64"], 0.0
    check_against_numpy(device, lambda x: fn(x, axis=axis, keepdims=keepdims),
                        lambda x: SUM_LIKE[name](x, axis=axis, keepdims=keepdims), [a],
                        rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", ["max", "min"])
@given(data=st.data())
def test_max_min(device: str, name: str, data: st.DataObject) -> None:
    dtype, a, axis, keepdims = _case(data, DTYPES)
    fn = getattr(xp, name)
    if dtype in COMPLEX:
        with pytest.raises(TypeError, match=name):
            fn(a.on(device), axis=axis, keepdims=keepdims)
        return
    try:
        numpy_result(getattr(np, name), a.np, axis=axis, keepdims=keepdims)
    except ValueError:
        # a zero-size reduction has no identity: ValueError, as in NumPy
        with pytest.raises(ValueError, match=name):
            fn(a.on(device), axis=axis, keepdims=keepdims)
        return
    check_against_numpy(device, lambda x: fn(x, axis=axis, keepdims=keepdims),
                        lambda x: getattr(np, name)(x, axis=axis, keepdims=keepdims), [a],
                        kind="exact")


@pytest.mark.parametrize("name", ["var", "std"])
@given(data=st.data())
def test_var_std(device: str, name: str, data: st.DataObject) -> None:
    dtype, a, axis, keepdims = _case(data, DTYPES)
    correction = data.draw(st.sampled_from([0, 1, 0.5, 2.0]), label="correction")
    fn = getattr(xp, name)
    n = reduced_count(a.np.shape, axis)
    eps = _eps(dtype) or EPS["float64"]
    finite = a.np[np.isfinite(a.np)] if a.np.dtype.kind in "fc" else a.np
    scale = float(np.max(np.abs(finite))) if finite.size else 1.0
    # the shifted one-pass formula loses about n * eps * max|x - shift|**2 absolutely
    atol = 16 * (n + 1) * eps * (2 * scale) ** 2
    if name == "std":
        atol = np.sqrt(atol)
    check_against_numpy(device,
                        lambda x: fn(x, axis=axis, correction=correction, keepdims=keepdims),
                        lambda x: getattr(np, name)(x.astype(np.float64) if x.dtype.kind in
                                                    "biu" else x, axis=axis, ddof=correction,
                                                    keepdims=keepdims),
                        [a], rtol=16 * (n + 1) * eps, atol=atol)


def test_empty_reductions(device: str) -> None:
    """sum -> 0, prod -> 1, mean/var -> NaN, max/min -> ValueError (no identity)."""
    e = Input(np.zeros((0, 3), np.float32), [])
    for name, np_fn in (("sum", np.sum), ("prod", np.prod), ("mean", np.mean),
                        ("var", np.var), ("std", np.std)):
        for axis in (None, 0):
            check_against_numpy(device, partial(getattr(xp, name), axis=axis),
                                partial(np_fn, axis=axis), [e])
    for name in ("max", "min"):
        with pytest.raises(ValueError, match=name):
            getattr(xp, name)(e.on(device))
        with pytest.raises(ValueError, match=name):
            getattr(xp, name)(e.on(device), axis=0)
        # reducing the non-empty axis is fine: the result is empty
        check_against_numpy(device, partial(getattr(xp, name), axis=1),
                            partial(getattr(np, name), axis=1), [e])


def test_empty_reductions_feed_broadcast_operands(device: str) -> None:
    """A reduction over an empty axis whose result meets another operand: the reduction is
    its identity and the operand is read as it is (a kernel over the empty domain read a
    broadcast scalar through a view normalized for no elements, past its one element)."""
    five = np.array(5.0)
    row = np.arange(40.0)
    for shape, axis in (((0, 40), 0), ((3, 0, 2), 1), ((2, 0), 1), ((3, 0, 2), (0, 1))):
        x = np.ones(shape)
        for other in (five, row[:np.sum(x, axis=axis).shape[-1]]):
            got = xp.sum(xp.asarray(x, device=device), axis=axis) + \
                xp.asarray(other, device=device)
            np.testing.assert_array_equal(np.asarray(got), np.sum(x, axis=axis) + other)
    c = xp.any(xp.asarray(np.zeros((1, 0, 2), np.int16), device=device), axis=1)
    b = xp.asarray(np.array(-128, np.int8), device=device)
    np.testing.assert_array_equal(np.asarray(xp.where(c, b, b)), np.full((1, 2), -128, np.int8))


def test_sum_accumulator_dtypes(device: str) -> None:
    """The standard's defaults: signed -> int64, unsigned -> uint64, bool -> int64, floats
    keep their dtype; dtype= overrides."""
    for dtype, want in (("int8", "int64"), ("uint16", "uint64"), ("bool", "int64"),
                        ("float32", "float32"), ("complex64", "complex64")):
        x = xp.asarray(np.ones(4, dtype), device=device)
        assert xp.sum(x).dtype == getattr(xp, want)
        assert xp.prod(x).dtype == getattr(xp, want)
    x = Input(np.array([100, 100, 100], np.int8), [])
    check_against_numpy(device, lambda v: xp.sum(v, dtype=xp.int8),
                        lambda v: np.sum(v, dtype=np.int8), [x])
    check_against_numpy(device, lambda v: xp.sum(v, dtype=xp.float32),
                        lambda v: np.sum(v, dtype=np.float32), [x])


def test_large_reductions(device: str) -> None:
    """Long rows, long columns and whole-array reductions take the split/row/column paths."""
    rng = np.random.default_rng(0)
    n = 40_000 if device != "reference" else 4_000
    v = Input(rng.standard_normal(n), [])
    m = Input(rng.standard_normal((3, n // 3)), [])
    for fn, np_fn in ((xp.sum, np.sum), (xp.max, np.max), (xp.mean, np.mean)):
        check_against_numpy(device, fn, np_fn, [v], rtol=1e-9, atol=1e-9)
        for axis in (0, 1):
            check_against_numpy(device, partial(fn, axis=axis), partial(np_fn, axis=axis),
                                [m], rtol=1e-9, atol=1e-9)
    check_against_numpy(device, lambda x: xp.var(x, correction=1),
                        lambda x: np.var(x, ddof=1), [v], rtol=1e-9, atol=1e-9)


def test_var_is_stable_with_a_large_mean(device: str) -> None:
    """One-pass variance must not cancel catastrophically: data near 1e8 with spread 1."""
    x = np.array([1e8 + 1, 1e8 + 2, 1e8 + 3, 1e8 + 4], np.float64)
    check_against_numpy(device, xp.var, np.var, [Input(x, [])], rtol=1e-6, atol=0)
    check_against_numpy(device, lambda v: xp.std(v, correction=1),
                        lambda v: np.std(v, ddof=1), [Input(x, [])], rtol=1e-6, atol=0)


def test_invalid_axis(device: str) -> None:
    x = xp.asarray(np.ones((2, 3)), device=device)
    for fn in (xp.sum, xp.prod, xp.max, xp.min, xp.mean, xp.var, xp.std, xp.any, xp.all):
        with pytest.raises((ValueError, IndexError)):
            fn(x, axis=2)
        with pytest.raises((ValueError, IndexError)):
            fn(x, axis=-3)
        with pytest.raises(ValueError):
            fn(x, axis=(0, -2))        # repeated axis
    assert_close(xp.sum(x, axis=()), np.sum(np.ones((2, 3)), axis=()))


# -- cumulative_sum, cumulative_prod ------------------------------------------------------
@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float32", "complex128"])
def test_cumulative(device: str, name: str, dtype: str) -> None:
    """Accumulator dtypes as sum/prod (int8 -> int64, uint16 -> uint64, bool -> int64),
    include_initial (a leading 0 or 1), any axis, views."""
    base = np.array([[1, 2, 0, 3], [2, 2, 1, 1], [3, 1, 2, 0]]).astype(dtype)
    if dtype == "float32":
        base[1, 2] = np.nan
    fn, np_fn = getattr(xp, name), getattr(np, name)
    a = Input(base, [])
    for axis, initial in ((1, False), (0, True), (-1, True)):
        check_against_numpy(device, partial(fn, axis=axis, include_initial=initial),
                            partial(np_fn, axis=axis, include_initial=initial), [a])
    view = Input(base, [("permute", (1, 0)), ("index", (slice(None, None, -1),))])
    check_against_numpy(device, partial(fn, axis=0), partial(np_fn, axis=0), [view])
    vec = Input(base[0], [])
    check_against_numpy(device, fn, np_fn, [vec])        # axis may be omitted for 1-D


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_dtype_and_shapes(device: str, name: str) -> None:
    fn, np_fn = getattr(xp, name), getattr(np, name)
    small = Input(np.array([100, 100, 100, -3], np.int8), [])
    for dtype in ("int8", "float32", "uint32"):
        check_against_numpy(device, partial(fn, dtype=getattr(xp, dtype)),
                            partial(np_fn, dtype=dtype), [small])
    check_against_numpy(device, partial(fn, dtype=np.float64), partial(np_fn, dtype=np.float64),
                        [small])
    for shape, axis in (((0,), 0), ((2, 0), 1), ((0, 3), 0), ((2, 3, 2), 1)):
        e = Input(np.ones(shape, np.float64), [])
        for initial in (False, True):
            check_against_numpy(device, partial(fn, axis=axis, include_initial=initial),
                                partial(np_fn, axis=axis, include_initial=initial), [e])
    # a pending input fuses in front of the scan, and the result feeds a kernel
    check_against_numpy(device, lambda x: fn(x * 2, axis=0) + 1,
                        lambda x: np_fn(x * 2, axis=0) + 1, [Input(np.arange(6.0), [])])


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_scans_are_kernels_fused_with_their_producer(device: str, name: str) -> None:
    """A scan is one generated kernel that computes its input inline, on every device and
    along any axis: rows longer than a GPU's work-group (several tiles), a strided axis
    (one work item per line), a middle axis, one long line; a reduction that the scanned
    value reads, and a kernel that reads the scan, are kernels of their own."""
    fn, np_fn = getattr(xp, name), getattr(np, name)
    rng = np.random.default_rng(7)
    mul = name == "cumulative_prod"
    for shape, axis in (((3, 1000), 1), ((700, 5), 0), ((6, 50, 7), 1), ((3000,), 0)):
        h = rng.uniform(0.99, 1.01, shape) if mul else rng.standard_normal(shape)
        hi = rng.integers(-3, 4, shape).astype(np.int32)
        for data in (h.astype(np.float32), hi):
            x = xp.asarray(data, device=device)
            got = fn(x * 2 - 1, axis=axis)
            text = str(xp.explain(got))
            assert text.count("stored because") == 1 and "library" not in text, text
            want = np_fn(data * 2 - 1, axis=axis)
            if data.dtype.kind == "i":
                np.testing.assert_array_equal(np.asarray(got), want)
            else:
                assert_close(got, want, rtol=2e-4, atol=2e-3)
    h = rng.standard_normal((40, 300)).astype(np.float32)
    x = xp.asarray(h, device=device)
    centered = fn(x - xp.mean(x, axis=1, keepdims=True), axis=1)
    assert_close(xp.flip(centered, axis=1) + 1,
                 np.flip(np_fn(h - h.mean(axis=1, keepdims=True), axis=1), axis=1) + 1,
                 rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_errors(device: str, name: str) -> None:
    fn = getattr(xp, name)
    x = xp.asarray(np.ones((2, 3)), device=device)
    with pytest.raises(ValueError, match="axis"):          # required beyond 1-D
        fn(x)
    with pytest.raises((ValueError, IndexError)):
        fn(x, axis=2)
    with pytest.raises((ValueError, IndexError)):
        fn(x, axis=-3)
    with pytest.raises(TypeError):
        fn(x, axis=0, dtype="not a dtype")


def test_reductions_take_numpy_positional_arguments(device: str) -> None:
    """NumPy's order: sum(x, axis, dtype), mean/var/std/max/min(x, axis)."""
    a = np.arange(1, 13, dtype=np.int16).reshape(3, 4)
    x = xp.asarray(a, device=device)
    assert_close(xp.sum(x, 0), np.sum(a, 0))
    assert_close(xp.sum(x, 1, xp.int16), np.sum(a, 1, np.int16))
    assert_close(xp.prod(x, 0, np.float64), np.prod(a, 0, np.float64))
    for name in ("mean", "var", "std"):
        assert_close(getattr(xp, name)(x, 1), getattr(np, name)(a, 1), rtol=1e-12)
    for name in ("max", "min"):
        assert_close(getattr(xp, name)(x, 1), getattr(np, name)(a, 1))
