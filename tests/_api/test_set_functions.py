"""unique_all, unique_counts, unique_inverse, unique_values and isin against NumPy 2, on
every device. NaNs are distinct (each one is its own value, with a count of one), -0.0 and
0.0 are one value (their counts add up), as the standard says and NumPy 2 does with
``equal_nan=False``."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import DTYPES, Input, assert_close, check_against_numpy, on_devices

CASES = {
    "int8": np.array([[3, -1, 3], [127, -128, -1]], np.int8),
    "uint64": np.array([2**64 - 1, 0, 2**64 - 1, 5], np.uint64),
    "bool": np.array([True, False, True, True]),
    "float32": np.array([[np.nan, 0.0, -0.0], [1.5, np.nan, 0.0], [-np.inf, 1.5, np.inf]],
                        np.float32),
    "complex128": np.array([1 + 1j, complex(np.nan, 0), 1 + 1j, -0.0 + 0j, 0j,
                            complex(0, np.nan)]),
}


def _np_unique(a: np.ndarray) -> tuple[np.ndarray, ...]:
    """NumPy's sorted unique with distinct NaNs: values, first index, inverse, counts."""
    v, i, inv, c = np.unique(a.reshape(-1), return_index=True, return_inverse=True,
                             return_counts=True, equal_nan=False)
    return v, i, inv.reshape(a.shape), c


def _check(device: str, fn: Any, a: np.ndarray, expected: tuple[np.ndarray, ...]) -> None:
    for dev, result in on_devices(device, lambda d: fn(xp.asarray(a, device=d))):
        parts = result if isinstance(result, tuple) else (result,)
        assert len(parts) == len(expected)
        for got, want in zip(parts, expected):
            assert got.device.name == dev
            assert_close(got, want, what=f"{fn.__name__} on {dev}")


@pytest.mark.parametrize("dtype", sorted(CASES))
def test_unique_functions(device: str, dtype: str) -> None:
    a = CASES[dtype]
    v, i, inv, c = _np_unique(a)
    _check(device, xp.unique_all, a, (v, i, inv, c))
    _check(device, xp.unique_counts, a, (v, c))
    _check(device, xp.unique_inverse, a, (v, inv))
    _check(device, xp.unique_values, a, (v,))
    # the results are named tuples with the standard's field names
    r = xp.unique_all(xp.asarray(a, device=device))
    assert r._fields == ("values", "indices", "inverse_indices", "counts")
    assert xp.unique_counts(xp.asarray(a, device=device))._fields == ("values", "counts")
    assert xp.unique_inverse(xp.asarray(a, device=device))._fields == ("values",
                                                                     "inverse_indices")


def test_unique_nan_and_signed_zeros(device: str) -> None:
    x = xp.asarray([np.nan, -0.0, 0.0, np.nan, 0.0, np.nan], device=device)
    values, counts = xp.unique_counts(x)
    v, c = np.asarray(values), np.asarray(counts)
    assert v.shape == (4,) and v[0] == 0 and np.isnan(v[1:]).all()
    np.testing.assert_array_equal(c, [3, 1, 1, 1])
    # every element maps back to a value equal to it (NaN to a NaN)
    u = xp.unique_inverse(x)
    back = np.asarray(u.values)[np.asarray(u.inverse_indices)]
    np.testing.assert_array_equal(back, np.asarray(x))


def test_unique_shapes(device: str) -> None:
    """0-d and empty inputs; inverse_indices has x's shape; views and pending results."""
    for a in (np.array(4.5), np.zeros((0, 3), np.int16), np.ones((2, 1, 2), np.uint8)):
        _check(device, xp.unique_all, a, _np_unique(a))
    base = np.array([[5, 1, 5, 2], [2, 2, 9, 1], [0, 5, 0, 0]], np.int32)
    x = Input(base, [("permute", (1, 0)), ("index", (slice(None, None, -1), slice(0, 3, 2)))])
    for dev, (values, inverse) in on_devices(device, lambda d: xp.unique_inverse(x.on(d) + 1)):
        v, _, inv, _ = _np_unique(x.np + 1)
        assert_close(values, v, what=dev)
        assert_close(inverse, inv, what=dev)


def test_unique_takes_array_likes_and_refuses_other_objects() -> None:
    """As NumPy 2's unique_* functions: a list is an array; a string is not."""
    for fn in (xp.unique_all, xp.unique_counts, xp.unique_inverse, xp.unique_values):
        got, expected = fn([3, 1, 3]), getattr(np, fn.__name__)([3, 1, 3])
        for g_, e in zip(got if isinstance(got, tuple) else (got,),
                         expected if isinstance(expected, tuple) else (expected,)):
            np.testing.assert_array_equal(np.asarray(g_), e)
        with pytest.raises(TypeError, match=fn.__name__):
            fn("abc")


@pytest.mark.parametrize("dtype", DTYPES)
def test_isin_dtypes(device: str, dtype: str) -> None:
    a = np.array([[0, 1, 2], [3, 1, 0]]).astype(dtype)
    b = np.array([1, 3, 7]).astype(dtype)
    for invert in (False, True):
        check_against_numpy(device, partial(xp.isin, invert=invert),
                            partial(np.isin, invert=invert), [Input(a, []), Input(b, [])])


def test_isin_special_values_and_shapes(device: str) -> None:
    """NaN is in nothing (not even a set with NaN); -0.0 is in {0.0}; x2 of any shape;
    0-d x1; mixed dtypes promote; views."""
    a = Input(np.array([np.nan, -0.0, 2.0, np.inf, 5.0]), [])
    b = Input(np.array([[np.nan, 0.0], [np.inf, 1.0]]), [])
    check_against_numpy(device, xp.isin, np.isin, [a, b])
    check_against_numpy(device, xp.isin, np.isin, [Input(np.array(3, np.int8), []),
                                                   Input(np.array([1, 3], np.int64), [])])
    check_against_numpy(device, xp.isin, np.isin, [Input(np.arange(6, dtype=np.int16), []),
                                                   Input(np.array([2.0, 4.5]), [])])
    view = Input(np.arange(12, dtype=np.int64).reshape(3, 4), [("permute", (1, 0))])
    check_against_numpy(device, xp.isin, np.isin, [view, Input(np.array([0, 5, 11]), [])])
    check_against_numpy(device, xp.isin, np.isin, [Input(np.zeros((0, 2)), []),
                                                   Input(np.array([0.0]), [])])


def test_isin_python_scalars(device: str) -> None:
    x = xp.asarray([1, 2, 3], dtype=xp.uint8, device=device)
    np.testing.assert_array_equal(np.asarray(xp.isin(x, 2)), [False, True, False])
    assert bool(xp.isin(2, x)) is True
    out = xp.isin(2.5, xp.asarray([2.5, 3.0], device=device))
    assert out.shape == () and out.dtype == xp.bool and bool(out)


def test_isin_errors(device: str) -> None:
    other = "reference" if device != "reference" else "cpu"
    x = xp.asarray([1, 2], device=device)
    with pytest.raises(ValueError, match="device"):
        xp.isin(x, xp.asarray([1], device=other))
    assert bool(xp.isin(1, [2, 1])) and not bool(xp.isin(1, 2))   # array-likes, as NumPy
    with pytest.raises(TypeError, match="isin"):
        xp.isin(x, "ab")
    with pytest.raises(TypeError, match="isin"):
        xp.isin(xp.asarray([1], dtype=xp.uint64, device=device),
                xp.asarray([1], dtype=xp.int8, device=device))
