"""take and take_along_axis against NumPy 2, on every device: any axis, negative indices,
index arrays of every integer dtype, views and pending inputs, broadcasting in
take_along_axis, and the errors for bad calls (out-of-range indices raise IndexError, as
NumPy's)."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import INTEGER, Input, check_against_numpy

BASE = np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 1.5 - 7


@pytest.mark.parametrize("index_dtype", INTEGER)
def test_take_index_dtypes(device: str, index_dtype: str) -> None:
    signed = np.dtype(index_dtype).kind == "i"
    idx = np.array([2, -1, 0, 1, 2] if signed else [2, 0, 0, 1, 3], index_dtype)
    size = 3 if signed else 4
    axis = 1 if signed else -1
    check_against_numpy(device, partial(xp.take, axis=axis), partial(np.take, axis=axis),
                        [Input(BASE[:, :, :size] if signed else BASE, []), Input(idx, [])])


def test_take(device: str) -> None:
    for dtype in ("bool", "int64", "uint8", "complex64", "float64"):
        a = Input(BASE.astype(dtype), [])
        for axis in (0, 1, -1):
            idx = Input(np.array([0, -1, 1, 1]), [])
            check_against_numpy(device, partial(xp.take, axis=axis),
                                partial(np.take, axis=axis), [a, idx])
    view = Input(BASE, [("permute", (2, 0, 1)), ("index", (slice(None, None, -1),))])
    check_against_numpy(device, partial(xp.take, axis=2), partial(np.take, axis=2),
                        [view, Input(np.array([2, 0]), [])])
    # 1-D x without axis; empty indices; a pending input and a pending index
    vec = Input(np.array([5, 6, 7, 8], np.int16), [])
    check_against_numpy(device, xp.take, np.take, [vec, Input(np.array([3, 0, -2]), [])])
    check_against_numpy(device, partial(xp.take, axis=1), partial(np.take, axis=1),
                        [Input(BASE, []), Input(np.zeros(0, np.int64), [])])
    check_against_numpy(device, lambda x, i: xp.take(x + 1, i * 2, axis=0) * 3,
                        lambda x, i: np.take(x + 1, i * 2, axis=0) * 3,
                        [vec, Input(np.array([1, 0]), [])])


def test_take_python_indices_and_positional_axis(device: str) -> None:
    x = xp.asarray(BASE, device=device)
    np.testing.assert_array_equal(np.asarray(xp.take(x, [1, 0], axis=0)), np.take(BASE, [1, 0], 0))
    np.testing.assert_array_equal(np.asarray(xp.take(x, xp.asarray([2], device=device), 1)),
                                  np.take(BASE, [2], 1))


def test_take_errors(device: str) -> None:
    x = xp.asarray(BASE, device=device)
    with pytest.raises(IndexError):
        np.asarray(xp.take(x, xp.asarray([3], device=device), axis=1))
    with pytest.raises(IndexError):
        np.asarray(xp.take(x, xp.asarray([-4], device=device), axis=1))
    with pytest.raises(TypeError, match="take"):
        xp.take(x, xp.asarray([1.0], device=device), axis=0)
    # NumPy's form (a superset of the standard's): N-d indices, and axis=None flattens
    np.testing.assert_array_equal(np.asarray(xp.take(x, xp.asarray([[0]], device=device),
                                                     axis=0)), np.take(BASE, [[0]], axis=0))
    np.testing.assert_array_equal(np.asarray(xp.take(x, xp.asarray([5], device=device))),
                                  np.take(BASE, [5]))
    with pytest.raises((ValueError, IndexError)):              # NumPy: AxisError
        xp.take(x, xp.asarray([0], device=device), axis=3)
    with pytest.raises(IndexError):
        xp.take(xp.asarray(np.zeros((2, 0)), device=device), xp.asarray([0], device=device),
                axis=1)
    other = "reference" if device != "reference" else "cpu"
    with pytest.raises(ValueError, match="device"):
        xp.take(x, xp.asarray([0], device=other), axis=0)


def test_take_along_axis(device: str) -> None:
    a = Input(BASE, [])
    order = np.argsort(BASE * np.array([1, -1, 1, -1]), axis=-1)
    for axis in (0, 1, -1):
        idx = np.argsort(np.sin(BASE), axis=axis)
        check_against_numpy(device, partial(xp.take_along_axis, axis=axis),
                            partial(np.take_along_axis, axis=axis), [a, Input(idx, [])])
    check_against_numpy(device, xp.take_along_axis, np.take_along_axis,
                        [a, Input(order, [])])
    # indices broadcast against x off the axis; negative indices; fewer or more per row
    check_against_numpy(device, partial(xp.take_along_axis, axis=2),
                        partial(np.take_along_axis, axis=2),
                        [a, Input(np.array([[[-1, 0, 3, 3, 1, -4]]]), [])])
    check_against_numpy(device, partial(xp.take_along_axis, axis=1),
                        partial(np.take_along_axis, axis=1),
                        [Input(BASE[:, :, :1], []), Input(np.array([[[2, 0, 1, 1]]]), [])])
    view = Input(BASE, [("permute", (1, 2, 0))])
    check_against_numpy(device, partial(xp.take_along_axis, axis=0),
                        partial(np.take_along_axis, axis=0),
                        [view, Input(np.array([[[1, 0]], [[0, 0]]], np.int32), [])])
    # the standard's use: gather with argsort's result
    x = xp.asarray(BASE, device=device)
    np.testing.assert_array_equal(np.asarray(xp.take_along_axis(x, xp.argsort(x, axis=1), 1)),
                                  np.sort(BASE, axis=1))


def test_take_along_axis_errors(device: str) -> None:
    x = xp.asarray(BASE, device=device)
    with pytest.raises(ValueError, match="rank"):
        xp.take_along_axis(x, xp.asarray([[0]], device=device), axis=0)
    with pytest.raises(ValueError, match="broadcast"):
        xp.take_along_axis(x, xp.zeros((2, 2, 1), dtype=xp.int64, device=device), axis=2)
    with pytest.raises(TypeError, match="take_along_axis"):
        xp.take_along_axis(x, xp.zeros((2, 3, 1), device=device), axis=2)
    with pytest.raises((ValueError, IndexError)):
        xp.take_along_axis(x, xp.zeros((2, 3, 1), dtype=xp.int64, device=device), axis=3)
    with pytest.raises(IndexError):
        np.asarray(xp.take_along_axis(x, xp.full((2, 3, 1), 4, device=device), axis=2))
