"""NumPy's statistics against NumPy 2, on every device: the reductions with NumPy's keywords
(array-likes, where=, initial=, out=, ddof=, mean=), where with one argument, searchsorted
with array-likes; isclose, allclose, array_equal, array_equiv; average, ptp; median,
quantile and percentile (every method), the nan* reductions; bincount, digitize, histogram,
histogram2d, histogram_bin_edges; NumPy's unique and the 1-D set functions."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import Input, assert_close, check_against_numpy, numpy_result, on_devices
from zyxarray._api import _numpy_statistics

# (PoCL's opencl runs the backend tests, not these: tests/conftest.py, numpy_layer)
pytestmark = pytest.mark.numpy_layer

RNG = np.random.default_rng(7)
# one 3x5 float64 table shared by most tests: a NaN in row 1, an all-NaN row 2 for nan*
TABLE = RNG.standard_normal((3, 5)).round(3)
TABLE[1, 3] = np.nan
NANS = TABLE.copy()
NANS[2, :] = np.nan
CLEAN = RNG.standard_normal((4, 6)).round(3)
# CLEAN seen transposed (non-contiguous, shape (6, 4))
CLEAN_T = Input(CLEAN, [("permute", (1, 0))])


def _compare(device: str, xp_call: Callable[[str], Any], np_value: Any, *,
             rtol: float = 1e-12, atol: float = 1e-12, what: str = "") -> None:
    """``xp_call(device)`` (an array or a tuple of arrays) on ``device`` and on the
    reference device, against NumPy's value (values, dtype, shape)."""
    expected = np_value if isinstance(np_value, tuple) else (np_value,)
    for dev, got in on_devices(device, xp_call):
        parts = got if isinstance(got, tuple) else (got,)
        assert len(parts) == len(expected), what
        for g, e in zip(parts, expected):
            assert isinstance(g, xp.Array) and g.device.name == dev, what
            assert_close(g, np.asarray(e), rtol=rtol, atol=atol, what=f"{what} on {dev}")


def _on(a: np.ndarray, d: str) -> Any:
    return xp.asarray(a, device=d)


# -- the reductions with NumPy's keywords ---------------------------------------------------


def test_reductions_take_array_likes_and_numpy_keywords(device: str) -> None:
    rows = [True, False, True, True]
    mask = np.array(rows)[:, None] & (np.arange(6) % 2 == 0)
    cases: list[tuple[str, dict[str, Any]]] = [
        ("sum", {"axis": 0, "where": mask, "initial": 1.5}),
        ("prod", {"axis": 1, "where": mask, "keepdims": True}),
        ("max", {"axis": 1, "where": mask, "initial": -5.0}),
        ("min", {"axis": None, "initial": -0.25}),
        ("mean", {"axis": 0, "where": mask}),
        ("var", {"axis": 1, "ddof": 1, "where": mask}),
        ("std", {"axis": (0, 1), "correction": 1, "keepdims": True}),
        ("any", {"axis": 0, "where": mask}),
        ("all", {"axis": 1, "where": ~mask}),
    ]
    x = Input(CLEAN, [])
    for name, kw in cases:
        check_against_numpy(device, partial(getattr(xp, name), **kw),
                            partial(getattr(np, name), **kw), [x], rtol=1e-12, atol=1e-12)
    # array-likes: lists, tuples, NumPy arrays and scalars, as NumPy takes them
    for name in ("sum", "prod", "mean", "max", "min", "any", "all", "count_nonzero",
                 "argmax", "argmin", "amax", "amin", "cumsum", "cumprod", "std", "var"):
        got = getattr(xp, name)([[1, 2, 3], [0, 5, 1]])
        assert_close(got, getattr(np, name)([[1, 2, 3], [0, 5, 1]]), rtol=1e-12, what=name)
    assert_close(xp.sum((1.5, 2.5)), np.sum((1.5, 2.5)))
    assert_close(xp.max(np.float32(3)), np.max(np.float32(3)))
    # mean= of var/std, dtype= of mean/var
    m = np.mean(CLEAN, axis=0, keepdims=True)
    check_against_numpy(device, lambda v: xp.var(v, axis=1, mean=xp.mean(v, axis=1,
                                                                         keepdims=True)),
                        lambda v: np.var(v, axis=1, mean=np.mean(v, axis=1, keepdims=True)),
                        [CLEAN_T])
    _compare(device, lambda d: xp.std(_on(CLEAN, d), axis=0, mean=_on(m, d), ddof=1),
             np.std(CLEAN, axis=0, mean=m, ddof=1), what="std(mean=)")
    ints = Input(np.array([[1, 2], [4, 7]], np.int16), [])
    for name, kw in (("mean", {"dtype": np.float32}), ("var", {"dtype": np.float32}),
                     ("mean", {"dtype": np.int64, "axis": 1})):
        check_against_numpy(device, partial(getattr(xp, name), **kw),
                            partial(getattr(np, name), **kw), [ints], rtol=1e-6)


def test_reductions_write_out(device: str) -> None:
    """``out=`` receives the result (cast to its dtype) and is returned."""
    for dev, x in on_devices(device, lambda d: _on(CLEAN, d)):
        for name, kw, shape in (("sum", {"axis": 0}, (6,)), ("max", {"axis": 1}, (4,)),
                                ("mean", {}, ()), ("std", {"axis": 0, "ddof": 1}, (6,)),
                                ("argmax", {"axis": 1}, (4,)), ("any", {"axis": 0}, (6,)),
                                ("cumsum", {"axis": 1}, (4, 6)), ("amin", {"axis": 0}, (6,))):
            dtype = np.int64 if name == "argmax" else (np.bool_ if name == "any" else
                                                        np.float64)
            out = xp.zeros(shape, dtype=dtype, device=dev)
            got = getattr(xp, name)(x, out=out, **kw)
            assert got is out, name
            assert_close(out, getattr(np, name)(CLEAN, **kw), rtol=1e-12, what=f"{name} {dev}")
        with pytest.raises(ValueError, match="shape"):
            xp.sum(x, axis=0, out=xp.zeros((4,), device=dev))


def test_reduction_dtypes_follow_numpy(device: str) -> None:
    """Small integers accumulate in int64 (uint64 if unsigned), bool in int64."""
    for dtype in ("bool", "int8", "uint16", "int32", "float32"):
        a = np.array([[1, 0, 1], [1, 1, 0]], dtype)
        for name in ("sum", "prod", "cumsum", "cumprod", "nansum", "nancumsum"):
            check_against_numpy(device, partial(getattr(xp, name), axis=0),
                                partial(getattr(np, name), axis=0), [Input(a, [])])


def test_reduction_keyword_errors(device: str) -> None:
    x = _on(CLEAN, device)
    with pytest.raises(ValueError, match="initial"):
        xp.max(x, where=CLEAN > 0)
    with pytest.raises(ValueError, match="ddof"):
        xp.var(x, ddof=1, correction=1)
    with pytest.raises(ValueError, match="where"):
        xp.sum(x, where=np.ones(5, bool))
    with pytest.raises(ValueError):
        xp.min(x[:0], axis=0)
    with pytest.raises(TypeError):
        xp.sum([1, 2], dtype="not a dtype")
    # an empty reduction with initial is fine
    assert_close(xp.max(x[:0], axis=0, initial=-1.0), np.max(CLEAN[:0], axis=0, initial=-1.0))


def test_arg_reductions_keepdims_and_amax(device: str) -> None:
    a = Input(np.array([[3.0, np.nan, 1.0], [2.0, 5.0, 5.0]]), [])
    for name in ("argmax", "argmin"):
        for axis in (None, 0, 1):
            check_against_numpy(device, partial(getattr(xp, name), axis=axis, keepdims=True),
                                partial(getattr(np, name), axis=axis, keepdims=True), [a])
    for name in ("amax", "amin"):
        check_against_numpy(device, partial(getattr(xp, name), axis=1, initial=4.0,
                                            where=[True, False, True]),
                            partial(getattr(np, name), axis=1, initial=4.0,
                                    where=[True, False, True]), [a])
    check_against_numpy(device, partial(xp.count_nonzero, axis=1, keepdims=True),
                        partial(np.count_nonzero, axis=1, keepdims=True), [a])


def test_where_and_searchsorted_numpy_forms(device: str) -> None:
    c = np.array([[0, 2, 0], [1, 0, -1]])
    for dev, got in on_devices(device, lambda d: xp.where(_on(c, d))):
        assert len(got) == 2
        for g, e in zip(got, np.where(c)):
            assert g.device.name == dev
            assert_close(g, e)
    assert_close(xp.where([True, False], 1, 2.5), np.where([True, False], 1, 2.5))
    assert_close(xp.where([True, False], 1, 2), np.where([True, False], 1, 2))
    check_against_numpy(device, lambda v: xp.where(v > 0, v, 0.0),
                        lambda v: np.where(v > 0, v, 0.0), [CLEAN_T])
    with pytest.raises(ValueError, match="both"):
        xp.where(_on(c, device), 1)
    # searchsorted: array-likes for a, v and sorter; a scalar v gives a 0-d result
    assert_close(xp.searchsorted([1, 2, 3], 2.5), np.searchsorted([1, 2, 3], 2.5))
    x1 = np.array([30, 10, 20], np.int64)
    _compare(device, lambda d: xp.searchsorted(_on(x1, d), [5, 20, 40], side="right",
                                               sorter=[1, 2, 0]),
             np.searchsorted(x1, [5, 20, 40], side="right", sorter=[1, 2, 0]))


# -- comparisons ----------------------------------------------------------------------------


def test_isclose_allclose(device: str) -> None:
    a = Input(np.array([1.0, np.nan, np.inf, -np.inf, 1e-9, 1e10, 0.0]), [])
    b = Input(np.array([1.0 + 1e-9, np.nan, np.inf, np.inf, 0.0, 1.00001e10, 1e-7]), [])
    for kw in ({}, {"equal_nan": True}, {"rtol": 0.0, "atol": 1e-8}):
        check_against_numpy(device, partial(xp.isclose, **kw), partial(np.isclose, **kw),
                            [a, b])
        check_against_numpy(device, partial(xp.allclose, **kw), partial(np.allclose, **kw),
                            [a, b])
    # weak scalars: a float32 array is compared in float32; integers as floats; complex
    f32 = Input(np.array([1.0, 1.0000001, 2.0], np.float32), [])
    check_against_numpy(device, lambda v: xp.isclose(v, 1, rtol=0, atol=1e-7),
                        lambda v: np.isclose(v, 1, rtol=0, atol=1e-7), [f32])
    check_against_numpy(device, lambda v: xp.isclose(v, np.array([1, 1, 3], np.int8)),
                        lambda v: np.isclose(v, np.array([1, 1, 3], np.int8)), [f32])
    z = Input(np.array([1 + 1j, 2j, np.nan + 0j]), [])
    check_against_numpy(device, lambda v: xp.isclose(v, 1j * 2, equal_nan=True),
                        lambda v: np.isclose(v, 1j * 2, equal_nan=True), [z])
    assert bool(xp.isclose(1.0, 1.0 + 1e-12)) and not bool(xp.allclose([1.0], [1.1]))
    assert bool(xp.allclose(_on(CLEAN, device), CLEAN))


def test_array_equal_equiv(device: str) -> None:
    a = np.array([[1.0, np.nan], [2.0, 3.0]])
    for dev, x in on_devices(device, lambda d: _on(a, d)):
        assert not bool(xp.array_equal(x, a))
        assert bool(xp.array_equal(x, a, equal_nan=True))
        assert not bool(xp.array_equal(x, a[:1]))
        assert bool(xp.array_equal(x[1], [2, 3]))
        assert bool(xp.array_equiv([2.0, 3.0], x[1:]))
        assert bool(xp.array_equiv(x[1:], [[2.0, 3.0]] * 3))
        assert not bool(xp.array_equiv(x, [1.0, 2.0, 3.0]))
        assert xp.array_equal(x, x, equal_nan=True).device.name == dev


# -- average, ptp ---------------------------------------------------------------------------


def test_average(device: str) -> None:
    w = np.arange(1.0, 5.0)
    _compare(device, lambda d: xp.average(_on(CLEAN, d), axis=0, weights=_on(w, d),
                                          returned=True),
             np.average(CLEAN, axis=0, weights=w, returned=True))
    _compare(device, lambda d: xp.average(_on(CLEAN, d).T, axis=1, weights=w,
                                          keepdims=True),
             np.average(CLEAN.T, axis=1, weights=w, keepdims=True))
    ints = np.arange(12, dtype=np.int8).reshape(3, 4)
    wt = np.arange(1, 13, dtype=np.float32).reshape(4, 3)
    _compare(device, lambda d: xp.average(_on(ints, d), axis=(1, 0), weights=wt,
                                          returned=True),
             np.average(ints, axis=(1, 0), weights=wt, returned=True))
    _compare(device, lambda d: xp.average(_on(ints, d), axis=1, returned=True),
             np.average(ints, axis=1, returned=True))
    f32 = np.float32([1, 2, 4])
    _compare(device, lambda d: xp.average(_on(f32, d), weights=_on(f32, d)),
             np.average(f32, weights=f32), rtol=1e-6)
    x = _on(CLEAN, device)
    with pytest.raises(TypeError, match="axis"):
        xp.average(x, weights=w)
    with pytest.raises(ValueError, match="weights"):
        xp.average(x, axis=1, weights=w)


def test_ptp(device: str) -> None:
    check_against_numpy(device, partial(xp.ptp, axis=0), partial(np.ptp, axis=0), [CLEAN_T])
    check_against_numpy(device, partial(xp.ptp, axis=None, keepdims=True),
                        partial(np.ptp, axis=None, keepdims=True),
                        [Input(np.array([[3, -7], [12, 5]], np.int16), [])])
    with pytest.raises(TypeError):
        xp.ptp(xp.asarray([True, False], device=device))


# -- order statistics -----------------------------------------------------------------------

METHODS = ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
           "hazen", "weibull", "median_unbiased", "normal_unbiased")
QS = np.array([0.0, 0.1, 0.25, 0.4, 0.5, 0.75, 0.9, 1.0])


@pytest.mark.parametrize("method", METHODS)
def test_quantile_methods(device: str, method: str) -> None:
    """Every method, along each axis, on a slice with a NaN (NaN) and, for nanquantile, an
    all-NaN slice (NaN); q of several values and positions between and on the samples."""
    t = Input(NANS, [])
    for axis in (1, 0):
        check_against_numpy(device, partial(xp.quantile, q=QS, axis=axis, method=method),
                            partial(np.quantile, q=QS, axis=axis, method=method), [t])
    check_against_numpy(device, partial(xp.nanquantile, q=QS, axis=1, method=method),
                        partial(np.nanquantile, q=QS, axis=1, method=method), [t])
    # an integer input keeps its dtype where the method picks an element
    ints = Input(np.array([[5, -3, 9, 1], [0, 2, 2, 7]], np.int32), [])
    check_against_numpy(device, partial(xp.percentile, q=[0, 30, 50, 100], axis=1,
                                        method=method),
                        partial(np.percentile, q=[0, 30, 50, 100], axis=1, method=method),
                        [ints])


def test_quantile_shapes_and_dtypes(device: str) -> None:
    t = Input(CLEAN, [])
    q2 = np.array([[0.2, 0.5], [0.9, 1.0]])
    for kw in ({"axis": None}, {"axis": (0, 1), "keepdims": True}, {"axis": -1,
                                                                     "keepdims": True}):
        check_against_numpy(device, partial(xp.quantile, q=q2, **kw),
                            partial(np.quantile, q=q2, **kw), [t])
    check_against_numpy(device, partial(xp.quantile, q=0.3, axis=0),
                        partial(np.quantile, q=0.3, axis=0), [CLEAN_T])
    # float32 stays float32 with a Python q, becomes float64 with a float64 array of q
    f32 = Input(CLEAN.astype(np.float32), [])
    for q in (0.3, [0.3], np.float32(0.3), 1, [0, 1]):
        check_against_numpy(device, partial(xp.quantile, q=q, axis=1),
                            partial(np.quantile, q=q, axis=1), [f32], rtol=1e-6)
    check_against_numpy(device, partial(xp.percentile, q=np.float32(50), axis=0),
                        partial(np.percentile, q=np.float32(50), axis=0), [f32], rtol=1e-6)
    # q as a device array (not range-checked), and out=
    for dev, x in on_devices(device, lambda d: _on(CLEAN, d)):
        got = xp.nanpercentile(x, xp.asarray([10.0, 90.0], device=dev), axis=1)
        assert_close(got, np.nanpercentile(CLEAN, [10.0, 90.0], axis=1), rtol=1e-12)
        out = xp.zeros((2, 4), device=dev)
        assert xp.quantile(x, [0.1, 0.9], axis=1, out=out) is out
        assert_close(out, np.quantile(CLEAN, [0.1, 0.9], axis=1), rtol=1e-12)


@pytest.mark.usefixtures("kernels_only")   # (small cpu results are not computed now)
def test_quantile_is_lazy(device: str) -> None:
    """The data is not pulled to the host: a pending input stays pending."""
    x = _on(CLEAN, device) * 2.0
    results = [xp.quantile(x, [0.2, 0.7], axis=0), xp.nanmedian(x, axis=1),
               xp.median(x), xp.nanquantile(x, 0.5, axis=1, weights=np.ones(6),
                                            method="inverted_cdf"),
               xp.histogram(x, bins=4)[0], xp.nanmax(x), xp.average(x, weights=x)]
    assert not x._node.realized
    assert_close(results[0], np.quantile(CLEAN * 2, [0.2, 0.7], axis=0), rtol=1e-12)


def test_weighted_quantile(device: str) -> None:
    w = np.array([[1.0, 0.0, 2.0, 1.0, 0.5], [0.0, 0.0, 3.0, 1.0, 1.0], [1, 1, 1, 1, 1]])
    a = np.array([[3.0, 1.0, 4.0, 1.5, 9.0], [2.0, 7.0, 1.0, 8.0, 2.5], [5, 4, 3, 2, 1]])
    for q in (0.0, 0.3, 0.5, [0.1, 0.9, 1.0]):
        _compare(device, lambda d, q=q: xp.quantile(_on(a, d), q, axis=1, weights=w,
                                                     method="inverted_cdf"),
                 np.quantile(a, q, axis=1, weights=w, method="inverted_cdf"))
    an = a.copy()
    an[0, 2] = np.nan
    _compare(device, lambda d: xp.nanquantile(_on(an, d), [0.2, 0.6], axis=1, weights=w,
                                              method="inverted_cdf"),
             np.nanquantile(an, [0.2, 0.6], axis=1, weights=w, method="inverted_cdf"))
    # 1-D weights along the axis
    _compare(device, lambda d: xp.quantile(_on(a, d), 0.4, axis=0, weights=[1.0, 2.0, 1.0],
                                           method="inverted_cdf"),
             np.quantile(a, 0.4, axis=0, weights=[1.0, 2.0, 1.0], method="inverted_cdf"))


def test_quantile_errors(device: str) -> None:
    x = _on(CLEAN, device)
    with pytest.raises(ValueError, match="range"):
        xp.quantile(x, 1.5)
    with pytest.raises(ValueError, match="range"):
        xp.percentile(x, [-1, 50])
    with pytest.raises(ValueError, match="method"):
        xp.quantile(x, 0.5, method="cubic")
    with pytest.raises(ValueError, match="weights"):
        xp.quantile(x, 0.5, weights=np.ones(CLEAN.shape))
    with pytest.raises(TypeError):
        xp.quantile(xp.asarray([1j, 2j], device=device), 0.5)
    with pytest.raises(TypeError):
        xp.quantile(xp.asarray([True, False], device=device), 0.5)
    with pytest.raises(IndexError):
        xp.quantile(xp.zeros((0,), device=device), 0.5)
    with pytest.raises((ValueError, IndexError)):
        xp.quantile(x, 0.5, axis=2)
    with pytest.warns(DeprecationWarning):
        got = xp.quantile(x, 0.5, interpolation="lower")
    assert_close(got, np.quantile(CLEAN, 0.5, method="lower"))


def test_median(device: str) -> None:
    for kw in ({}, {"axis": 0}, {"axis": 1, "keepdims": True}, {"axis": (0, 1)}):
        check_against_numpy(device, partial(xp.median, **kw), partial(np.median, **kw),
                            [Input(NANS, [])])
        check_against_numpy(device, partial(xp.nanmedian, **kw), partial(np.nanmedian, **kw),
                            [Input(NANS, [])])
    check_against_numpy(device, partial(xp.median, axis=1), partial(np.median, axis=1),
                        [CLEAN_T])
    for a in (np.array([[4, 1, 7], [2, 2, 9]], np.int8), np.array([True, False, True]),
              np.float32([3, 1, 2, 8]), np.array([1 + 2j, -1j, 3 + 0j])):
        check_against_numpy(device, xp.median, np.median, [Input(a, [])], rtol=1e-6)
    # empty slices give NaN (NumPy warns)
    e = Input(np.zeros((0, 3)), [])
    check_against_numpy(device, partial(xp.median, axis=0), partial(np.median, axis=0), [e])
    check_against_numpy(device, partial(xp.nanmedian, axis=0), partial(np.nanmedian, axis=0),
                        [e])


def test_order_statistics_sort_without_stability(monkeypatch: pytest.MonkeyPatch) -> None:
    """median, quantile and percentile need the sorted values only: they ask for NumPy's
    introsort, not its stable sort (a 20,000-value median took 1.1 ms, NumPy 0.15)."""
    asked: list[bool] = []
    sort = _numpy_statistics.sort

    def watched(x: Any, /, *, axis: int = -1, descending: bool = False,
                stable: bool = True) -> Any:
        asked.append(stable)
        return sort(x, axis=axis, descending=descending, stable=stable)

    monkeypatch.setattr(_numpy_statistics, "sort", watched)
    monkeypatch.setattr(_numpy_statistics, "HOST_ORDER_MAX", 0)     # (the lazy path's sort)
    h = np.random.default_rng(4).standard_normal(2001)
    h[:50] = 0.0
    h[50:100] = -0.0
    x = xp.asarray(h)
    assert float(xp.median(x)) == np.median(h)
    assert float(xp.percentile(x, 90)) == np.percentile(h, 90)
    np.testing.assert_allclose(np.asarray(xp.quantile(x, [0.1, 0.5])),
                               np.quantile(h, [0.1, 0.5]), rtol=1e-15)
    assert asked == [False, False, False]


def test_order_statistics_of_floats_in_cpu_memory_are_numpys() -> None:
    """Float values already in the cpu device's memory have their medians, quantiles and
    percentiles (nan* versions too) taken by NumPy there: no kernel, NumPy's values, the
    lazy path's dtypes; integers and pending values keep the lazy path."""
    from zyxarray._lazy import realize
    h = np.random.default_rng(8).standard_normal((30, 7))
    h[3, 2] = np.nan
    h32 = h.astype(np.float32)
    x, x32 = xp.asarray(h), xp.asarray(h32)
    before = realize.stats["kernels"]
    for a, host in ((x, h), (x32, h32)):
        for axis, keep in ((None, False), (0, True), (1, False), ((0, 1), True)):
            for name, args in (("median", ()), ("nanmedian", ()), ("quantile", (0.3,)),
                               ("percentile", ([10, 50, 90],)), ("nanquantile", ((0.5, 1),)),
                               ("nanpercentile", (25,))):
                got = getattr(xp, name)(a, *args, axis=axis, keepdims=keep)
                want = getattr(np, name)(host, *args, axis=axis, keepdims=keep)
                assert got.dtype == xp.asarray(want).dtype, (name, got.dtype, want.dtype)
                np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(xp.percentile(x, 50, axis=1, method="lower")),
                                  np.percentile(h, 50, axis=1, method="lower"))
    assert realize.stats["kernels"] == before
    ints = xp.asarray(np.arange(10))
    assert float(xp.median(ints)) == 4.5 and realize.stats["kernels"] > before


def test_histogram_of_values_in_cpu_memory_is_numpys() -> None:
    """A histogram of real values already in the cpu device's memory, with a number of
    bins or a list of edges and no weights, is NumPy's there: no kernel, NumPy's counts,
    edges and dtypes; weights, and values not in memory, keep the lazy path."""
    from zyxarray._lazy import realize
    h = np.random.default_rng(11).standard_normal((10, 30))
    x, x32, xi = xp.asarray(h), xp.asarray(h.astype(np.float32)), xp.asarray(np.arange(40))
    before = realize.stats["kernels"]
    for a, host in ((x, h), (x32, h.astype(np.float32)), (xi, np.arange(40))):
        for args, kw in (((7,), {}), ((4, (-1.0, 1)), {}), (([-2, 0, 0.5, 3],), {}),
                         ((5,), {"density": True})):
            counts, edges = xp.histogram(a, *args, **kw)
            want_counts, want_edges = np.histogram(host, *args, **kw)
            assert counts.dtype == want_counts.dtype and edges.dtype == want_edges.dtype
            np.testing.assert_array_equal(np.asarray(counts), want_counts)
            np.testing.assert_array_equal(np.asarray(edges), want_edges)
    assert realize.stats["kernels"] == before
    counts, _ = xp.histogram(x, 3, weights=xp.ones_like(x))      # (the lazy path's)
    np.testing.assert_array_equal(np.asarray(counts), np.histogram(h, 3)[0].astype(float))
    assert realize.stats["kernels"] > before


# -- NaN-ignoring reductions ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean",
                                  "nanvar", "nanstd"])
def test_nan_reductions(device: str, name: str) -> None:
    t = Input(NANS, [])
    for axis in (None, 1, 0):
        check_against_numpy(device, partial(getattr(xp, name), axis=axis),
                            partial(getattr(np, name), axis=axis), [t], rtol=1e-12,
                            atol=1e-12)
    check_against_numpy(device, partial(getattr(xp, name), axis=1, keepdims=True),
                        partial(getattr(np, name), axis=1, keepdims=True),
                        [Input(NANS.T, [("permute", (1, 0))])], rtol=1e-12, atol=1e-12)
    # integers have no NaN: the plain reduction
    ints = Input(np.array([[3, 1], [4, 1]], np.int16), [])
    check_against_numpy(device, partial(getattr(xp, name), axis=0),
                        partial(getattr(np, name), axis=0), [ints], rtol=1e-12)


def test_nan_reduction_keywords(device: str) -> None:
    t = Input(NANS, [])
    keep = np.array([True, True, False, True, True])
    check_against_numpy(device, partial(xp.nanmax, axis=1, initial=0.5),
                        partial(np.nanmax, axis=1, initial=0.5), [t])
    check_against_numpy(device, partial(xp.nanmin, axis=1, initial=0.5, where=keep),
                        partial(np.nanmin, axis=1, initial=0.5, where=keep), [t])
    check_against_numpy(device, partial(xp.nansum, axis=1, where=keep, initial=2.0),
                        partial(np.nansum, axis=1, where=keep, initial=2.0), [t])
    check_against_numpy(device, partial(xp.nanmean, axis=1, where=keep),
                        partial(np.nanmean, axis=1, where=keep), [t], rtol=1e-12)
    check_against_numpy(device, partial(xp.nanvar, axis=1, ddof=4),
                        partial(np.nanvar, axis=1, ddof=4), [t], rtol=1e-12)
    check_against_numpy(device, partial(xp.nanstd, axis=0, correction=1),
                        partial(np.nanstd, axis=0, correction=1), [t], rtol=1e-12)
    for name in ("nancumsum", "nancumprod"):
        for axis in (None, 1):
            check_against_numpy(device, partial(getattr(xp, name), axis=axis),
                                partial(getattr(np, name), axis=axis), [t], rtol=1e-12)


def test_nanargmax_nanargmin(device: str) -> None:
    t = Input(TABLE, [])
    for name in ("nanargmax", "nanargmin"):
        for axis in (None, 0, 1):
            check_against_numpy(device, partial(getattr(xp, name), axis=axis),
                                partial(getattr(np, name), axis=axis), [t])
        # Note: an all-NaN slice gives -1 here (NumPy raises ValueError)
        got = getattr(xp, name)(_on(NANS, device), axis=1, keepdims=True)
        np.testing.assert_array_equal(np.asarray(got)[2], [-1])


# -- counting -------------------------------------------------------------------------------

COUNTS = RNG.integers(0, 9, 60)
WEIGHTS = RNG.random(60)


@pytest.mark.parametrize("one_hot", [True, False])
def test_bincount(device: str, one_hot: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both ways of counting: comparing with every bin, and sorting (large inputs)."""
    if not one_hot:
        monkeypatch.setattr(_numpy_statistics, "ONE_HOT_MAX", 0)
    x = Input(COUNTS, [])
    check_against_numpy(device, xp.bincount, np.bincount, [x])
    check_against_numpy(device, lambda v, w: xp.bincount(v, weights=w, minlength=12),
                        lambda v, w: np.bincount(v, weights=w, minlength=12),
                        [x, Input(WEIGHTS, [])], rtol=1e-12, atol=1e-12)
    check_against_numpy(device, xp.bincount, np.bincount,
                        [Input(COUNTS.astype(np.uint8)[::-2], [])])
    assert_close(xp.bincount([True, True, False]), np.bincount([True, True, False]))
    _compare(device, lambda d: xp.bincount(xp.zeros((0,), dtype=xp.int64, device=d),
                                           minlength=3),
             np.bincount(np.zeros(0, np.int64), minlength=3))


def test_bincount_errors(device: str) -> None:
    x = _on(COUNTS, device)
    with pytest.raises(ValueError, match="negative"):
        xp.bincount(x - 1)
    with pytest.raises(ValueError):
        xp.bincount(xp.reshape(x, (6, 10)))
    with pytest.raises(TypeError):
        xp.bincount(xp.asarray([1.0, 2.0], device=device))
    with pytest.raises(ValueError, match="minlength"):
        xp.bincount(x, minlength=-1)
    with pytest.raises(ValueError, match="length"):
        xp.bincount(x, weights=WEIGHTS[:5])


def _digitize(x: Any, bins: Any, *, lib: Any, right: bool) -> Any:
    return lib.digitize(x, bins, right=right)


def test_digitize(device: str) -> None:
    x = Input(np.array([-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, 7.0, np.nan]), [])
    for bins in ([0.0, 1.0, 2.5, 3.0], [3.0, 2.5, 1.0, 0.0], [1.0, 1.0, 2.0]):
        for right in (False, True):
            check_against_numpy(device, partial(xp.digitize, bins=bins, right=right),
                                partial(np.digitize, bins=bins, right=right), [x])
            # bins on the device: the direction is read there
            check_against_numpy(device, partial(_digitize, lib=xp, right=right),
                                partial(_digitize, lib=np, right=right),
                                [x, Input(np.array(bins), [])])
    assert_close(xp.digitize(2.5, [1, 2, 3]), np.digitize(2.5, [1, 2, 3]))
    with pytest.raises(ValueError, match="monoton"):
        xp.digitize(_on(np.ones(3), device), [1, 3, 2])
    with pytest.raises(TypeError, match="complex"):
        xp.digitize(xp.asarray([1j], device=device), [1, 2])


SAMPLE = RNG.standard_normal(120).round(2)


def test_histogram(device: str) -> None:
    w = RNG.random(120)
    cases: list[tuple[Any, dict[str, Any]]] = [
        (SAMPLE, {}), (SAMPLE, {"bins": 7, "range": (-1, 2)}),
        (SAMPLE, {"bins": [-3, -0.5, 0.0, 0.25, 4], "weights": w}),
        (SAMPLE, {"bins": 5, "density": True}), (SAMPLE, {"bins": 6, "weights": w,
                                                          "density": True}),
        (SAMPLE.reshape(12, 10).T, {"bins": 4}),
        (np.arange(10), {"bins": 3}), (np.full(5, 2.0), {"bins": 2}),
        (np.float32(SAMPLE), {"bins": 5, "weights": np.float32(w)}),
        (np.zeros(0), {"bins": 3}), (SAMPLE, {"bins": 4, "weights": (w * 10).astype(int)}),
    ]
    for a, kw in cases:
        _compare(device, lambda d, a=a, kw=kw: xp.histogram(_on(a, d), **{
            k: (_on(v, d) if k == "weights" else v) for k, v in kw.items()}),
            numpy_result(np.histogram, a, **kw), rtol=1e-6 if a.dtype == np.float32 else
            1e-12, what=str(kw))
    for bins in ("auto", "fd", "sturges", "sqrt"):
        _compare(device, lambda d, b=bins: xp.histogram(_on(SAMPLE, d), bins=b),
                 np.histogram(SAMPLE, bins=bins), what=bins)
        _compare(device, lambda d, b=bins: xp.histogram_bin_edges(_on(SAMPLE, d), bins=b),
                 np.histogram_bin_edges(SAMPLE, bins=bins), what=bins)
    _compare(device, lambda d: xp.histogram_bin_edges(_on(np.float32(SAMPLE), d), bins=4,
                                                      range=(0, 1)),
             np.histogram_bin_edges(np.float32(SAMPLE), bins=4, range=(0, 1)))
    # edges on the device
    edges = np.array([-2.0, 0.0, 0.5, 3.0])
    _compare(device, lambda d: xp.histogram(_on(SAMPLE, d), bins=_on(edges, d)),
             np.histogram(SAMPLE, bins=edges))


def test_histogram_errors(device: str) -> None:
    x = _on(SAMPLE, device)
    for kw, exc in (({"bins": 0}, ValueError), ({"bins": [1, 0]}, ValueError),
                    ({"range": (2, 1)}, ValueError), ({"range": (0, np.inf)}, ValueError),
                    ({"weights": np.ones(3)}, ValueError), ({"bins": "nope"}, ValueError),
                    ({"bins": 2.5}, TypeError),
                    ({"bins": "auto", "weights": np.ones(120)}, TypeError)):
        with pytest.raises(exc):
            xp.histogram(x, **kw)
    with pytest.raises(TypeError):
        xp.histogram(xp.asarray([1j], device=device))


def test_histogram2d(device: str) -> None:
    x, y = SAMPLE[:60], SAMPLE[60:]
    w = RNG.random(60)
    cases: list[dict[str, Any]] = [
        {}, {"bins": 4}, {"bins": [3, 5], "range": [[-1, 1], [-2, 2]]},
        {"bins": [np.array([-3, 0, 0.5, 3]), 2], "density": True},
        {"bins": np.array([-2.0, -1.0, 0.0, 1.0, 2.0]), "weights": w},
    ]
    for kw in cases:
        _compare(device, lambda d, kw=kw: xp.histogram2d(_on(x, d), _on(y, d), **kw),
                 numpy_result(np.histogram2d, x, y, **kw), what=str(kw))
    f32 = np.float32(x)
    _compare(device, lambda d: xp.histogram2d(_on(f32, d), _on(f32[::-1], d), bins=3),
             np.histogram2d(f32, f32[::-1], bins=3), rtol=1e-6)
    with pytest.raises(ValueError, match="length"):
        xp.histogram2d(_on(x, device), _on(y[:5], device))


# -- NumPy's unique and the 1-D set functions ------------------------------------------------


def test_unique_numpy(device: str) -> None:
    a = np.array([[3.0, np.nan, 1.0], [1.0, np.nan, 3.0], [3.0, np.nan, 1.0]])
    flags = {"return_index": True, "return_inverse": True, "return_counts": True}
    for kw in ({}, flags, {**flags, "equal_nan": False}, {**flags, "axis": 0},
               {"return_inverse": True, "axis": 1}, {"sorted": False}):
        _compare(device, lambda d, kw=kw: xp.unique(_on(a, d), **kw),
                 np.unique(a, **kw), what=str(kw))
    assert_close(xp.unique([2, 1, 2]), np.unique([2, 1, 2]))


def test_set_functions_1d(device: str) -> None:
    a = np.array([5, 1, 3, 3, 7, 1], np.int32)
    b = np.array([3, 8, 1, 9], np.int64)
    for name, kw in (("setdiff1d", {}), ("intersect1d", {}),
                     ("intersect1d", {"return_indices": True}), ("union1d", {}),
                     ("setxor1d", {})):
        _compare(device, lambda d, n=name, kw=kw: getattr(xp, n)(_on(a, d), b, **kw),
                 getattr(np, name)(a, b, **kw), what=name)
    u = np.array([1, 4, 6])
    for name in ("setdiff1d", "setxor1d", "intersect1d"):
        _compare(device, lambda d, n=name: getattr(xp, n)(_on(u, d), [6, 2],
                                                          assume_unique=True),
                 getattr(np, name)(u, [6, 2], assume_unique=True), what=name)
    assert_close(xp.union1d([1.5, 2], [2]), np.union1d([1.5, 2], [2]))


def test_isin_numpy_keywords(device: str) -> None:
    a = Input(np.array([[1, 5], [3, 2]]), [])
    b = Input(np.array([2, 5, 9]), [])
    for kw in ({"assume_unique": True}, {"invert": True}, {"kind": "table"},
               {"kind": "sort", "invert": True}):
        check_against_numpy(device, partial(xp.isin, **kw), partial(np.isin, **kw), [a, b])
    with pytest.raises(ValueError, match="kind"):
        xp.isin(_on(np.arange(3), device), [1], kind="hash")
    with pytest.raises(ValueError, match="table"):
        xp.isin(_on(np.arange(3.0), device), [1.0], kind="table")


def test_mixing_devices_is_refused(device: str) -> None:
    other = "reference" if device != "reference" else "cpu"
    x, y = _on(CLEAN, device), _on(CLEAN, other)
    for call in (lambda: xp.isclose(x, y), lambda: xp.average(x, axis=0, weights=y[:, 0]),
                 lambda: xp.quantile(x, xp.asarray([0.5], device=other)),
                 lambda: xp.histogram(x, weights=y),
                 lambda: xp.digitize(x, xp.asarray([0.0, 1.0], device=other))):
        with pytest.raises(ValueError, match="device"):
            call()


def test_no_warnings_for_all_nan_slices(device: str) -> None:
    """Note: NumPy warns (RuntimeWarning) for all-NaN slices; zyxarray does not look."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = xp.nanmean(_on(NANS, device), axis=1)
        assert np.isnan(np.asarray(got)[2])
