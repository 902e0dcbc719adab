"""sort and argsort against NumPy 2 (``kind="stable"``), on every device: every dtype, any
axis, descending order (still stable), NaN and signed-zero placement, non-contiguous inputs,
NumPy's ``axis=None`` (flattened) and the errors for bad calls."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import DTYPES, Input, assert_close, check_against_numpy


def _np_argsort(a: np.ndarray, axis: int = -1, descending: bool = False) -> np.ndarray:
    """The standard's stable argsort. Descending: sort the reversed axis ascending, reverse
    the order and map the indices back, so equal elements keep their original order."""
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    n = a.shape[axis]
    rev = np.argsort(np.flip(a, axis), axis=axis, kind="stable")
    return (n - 1 - np.flip(rev, axis)).astype(np.int64)


def _np_sort(a: np.ndarray, axis: int = -1, descending: bool = False) -> np.ndarray:
    return np.take_along_axis(a, _np_argsort(a, axis, descending), axis=axis)


def _values(dtype: str) -> np.ndarray:
    """A 3x5 array of ``dtype`` with repeated values (stability shows) and, for floats,
    NaN, infinities and both zeros."""
    if dtype == "bool":
        return np.array([[True, False, True, False, False]] * 3) ^ np.eye(3, 5, dtype=bool)
    d = np.dtype(dtype)
    if d.kind in "iu":
        info = np.iinfo(d)
        row = [info.max, 3, info.min, 3, 0]
        return np.array([row, row[::-1], [1, 1, 2, 2, 1]], dtype=d)
    real = [[np.nan, -0.0, 0.0, 2.5, -np.inf], [1.0, np.inf, 1.0, np.nan, -1.0],
            [0.0, -0.0, -0.0, 0.0, 7.0]]
    if d.kind == "f":
        return np.array(real, dtype=d)
    # complex: lexicographic order on (real, imag), as NumPy
    return (np.array(real) + 1j * np.array([[1, 2, -1, 0, 0], [2, 0, 1, 0, 1],
                                            [0, 0, 0, 0, 0]])).astype(d)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_argsort_all_dtypes(device: str, dtype: str) -> None:
    a = Input(_values(dtype), [])
    for axis in (-1, 0):
        for descending in (False, True):
            if descending and dtype.startswith("complex"):
                continue     # NaN-containing complex values: see test_sort_complex_nan
            check_against_numpy(device, partial(xp.argsort, axis=axis, descending=descending),
                                partial(_np_argsort, axis=axis, descending=descending), [a])
            check_against_numpy(device, partial(xp.sort, axis=axis, descending=descending),
                                partial(_np_sort, axis=axis, descending=descending), [a],
                                kind="exact")


def test_nan_and_signed_zero_placement(device: str) -> None:
    """NaNs go last ascending and first descending; -0.0 and 0.0 are equal, so they keep
    their order in both directions (the sign is kept: these are the input's elements)."""
    a = np.array([0.0, np.nan, -0.0, 1.0, -np.inf, np.nan, 0.0])
    x = xp.asarray(a, device=device)
    up = np.asarray(xp.sort(x))
    np.testing.assert_array_equal(np.asarray(xp.argsort(x)), [4, 0, 2, 6, 3, 1, 5])
    assert np.isnan(up[-2:]).all() and list(np.signbit(up[1:4])) == [False, True, False]
    down = np.asarray(xp.sort(x, descending=True))
    np.testing.assert_array_equal(np.asarray(xp.argsort(x, descending=True)),
                                  [1, 5, 3, 0, 2, 6, 4])
    assert np.isnan(down[:2]).all() and list(np.signbit(down[3:6])) == [False, True, False]


def test_sort_complex_nan(device: str) -> None:
    """NumPy orders complex values with NaN parts after all others; so do we."""
    a = Input(np.array([complex(np.nan, 0), 1 + 1j, complex(0, np.nan), 1 - 1j, -2 + 0j]), [])
    check_against_numpy(device, xp.argsort, partial(np.argsort, kind="stable"), [a])
    check_against_numpy(device, xp.sort, partial(np.sort, kind="stable"), [a], kind="exact")


def test_sort_views_and_pending_inputs(device: str) -> None:
    """A transposed, stepped view and an unrealized result sort like their values."""
    base = np.arange(60, dtype=np.int32).reshape(6, 10) * 7919 % 23
    views = Input(base, [("permute", (1, 0)), ("index", (slice(None, None, -2), slice(1, 5)))])
    for axis in (0, 1):
        check_against_numpy(device, partial(xp.sort, axis=axis),
                            partial(np.sort, axis=axis, kind="stable"), [views])
        check_against_numpy(device, partial(xp.argsort, axis=axis, descending=True),
                            partial(_np_argsort, axis=axis, descending=True), [views])
    pending = Input(base, [])
    check_against_numpy(device, lambda x: xp.sort(x * 2 - 1) + 1,
                        lambda x: np.sort(x * 2 - 1, kind="stable") + 1, [pending])


def test_sort_shapes(device: str) -> None:
    """Empty axes, length-1 axes and 3-D arrays; NumPy's axis=None flattens."""
    for shape, axis in (((0,), -1), ((3, 0), 0), ((1, 4), 0), ((2, 3, 4), 1)):
        a = Input(np.arange(int(np.prod(shape)), dtype=np.float32)[::-1].reshape(shape), [])
        check_against_numpy(device, partial(xp.sort, axis=axis),
                            partial(np.sort, axis=axis, kind="stable"), [a])
        check_against_numpy(device, partial(xp.argsort, axis=axis),
                            partial(np.argsort, axis=axis, kind="stable"), [a])
    a = Input(np.array([[3, 1], [2, 0]], np.int16), [])
    check_against_numpy(device, partial(xp.sort, axis=None), partial(np.sort, axis=None), [a])
    check_against_numpy(device, partial(xp.argsort, axis=None),
                        partial(np.argsort, axis=None, kind="stable"), [a])


def test_sort_positional_axis(device: str) -> None:
    a = np.array([[3, 1, 2], [0, 5, 4]])
    x = xp.asarray(a, device=device)
    np.testing.assert_array_equal(np.asarray(xp.sort(x, 0)), np.sort(a, 0))
    np.testing.assert_array_equal(np.asarray(xp.argsort(x, 0)), np.argsort(a, 0))


@pytest.mark.parametrize("fn", [xp.sort, xp.argsort])
def test_sort_errors(device: str, fn: Any) -> None:
    x = xp.asarray(np.zeros((2, 3)), device=device)
    with pytest.raises((ValueError, IndexError)):       # NumPy: AxisError (both)
        fn(x, axis=2)
    with pytest.raises((ValueError, IndexError)):
        fn(x, axis=-3)
    with pytest.raises(TypeError):
        fn(x, axis=1.0)
    with pytest.raises(ValueError):                      # the standard: no 0-d sort
        fn(xp.asarray(1.0, device=device))
    assert_close(fn(np.array([2.0, 0.0, 1.0])),            # NumPy leniency: array-likes
                 getattr(np, fn.__name__)(np.array([2.0, 0.0, 1.0])))


@pytest.mark.parametrize("descending", [False, True])
def test_unstable_sorts_use_numpys_default_sort(device: str, descending: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``stable=False`` was ignored (every sort was a stable one, 2.7x slower than NumPy's
    default on 10M floats): it reaches the implementation, which uses NumPy's introsort on
    host memory; the values are those of the stable sort, the indices sort the array."""
    from zyxarray._devices import library

    seen: list[bool] = []
    for name in ("sort", "argsort"):
        original = library.HOST[name]

        def spy(*args: Any, _original: Any = original, **kwargs: Any) -> None:
            seen.append(kwargs["stable"])
            _original(*args, **kwargs)

        monkeypatch.setitem(library.HOST, name, spy)
    h = np.random.default_rng(3).integers(0, 5, (4, 50)).astype(np.float64)
    h[0, :3] = np.nan
    x = xp.asarray(h, device=device)
    values = np.asarray(xp.sort(x, axis=1, descending=descending, stable=False))
    np.testing.assert_array_equal(values, _np_sort(h, 1, descending))
    order = np.asarray(xp.argsort(x, axis=1, descending=descending, stable=False))
    np.testing.assert_array_equal(np.take_along_axis(h, order, axis=1), values)
    assert sorted(order[1].tolist()) == list(range(50))
    if device in ("cpu", "reference") or device.startswith("opencl"):
        assert seen == [False, False]


def test_host_library_steps_read_writable_views(device: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """On host memory a library step reads its inputs in place; they were read-only views,
    which make NumPy's own argmax 4x slower."""
    from zyxarray._devices import library

    flags: list[bool] = []
    original = library.HOST["argmax"]

    def spy(a: np.ndarray, **kwargs: Any) -> None:
        flags.append(a.flags.writeable)
        original(a, **kwargs)

    monkeypatch.setitem(library.HOST, "argmax", spy)
    h = np.random.default_rng(4).random((6, 5))
    x = xp.asarray(h, device=device)
    np.testing.assert_array_equal(np.asarray(xp.argmax(x, axis=1)), np.argmax(h, axis=1))
    np.testing.assert_array_equal(np.asarray(xp.argmax(x[:, ::-2], axis=1)),
                                  np.argmax(h[:, ::-2], axis=1))
    if device in ("cpu", "reference"):
        assert flags == [True, True]


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "int8", "uint16", "bool"])
def test_stable_argsort_of_narrow_keys_is_numpys(dtype: str) -> None:
    """A stable ascending argsort of keys of 32 bits or fewer sorts (key, position) as one
    uint64 with NumPy's default sort: the indices are NumPy's stable argsort's, ties in
    their original order, -0.0 tied with 0.0, NaN of either sign last, along any axis."""
    from zyxarray._devices.library.sorting import _stable_argsort
    rng = np.random.default_rng(11)
    for shape, axis in (((60, 900), 1), ((60, 900), 0), ((6000,), 0), ((4, 50, 40), 1)):
        if dtype == "bool":
            x = rng.random(shape) < 0.5
        else:
            x = (rng.standard_normal(shape) * 5).astype(dtype)
        if x.dtype.kind == "f":
            flat = x.reshape(-1)
            flat[::7], flat[1::11], flat[2::13] = 0.0, -0.0, np.nan
            flat[3::17], flat[4::19], flat[5::23] = -np.nan, np.inf, -np.inf
        want = np.argsort(x, axis=axis, kind="stable")
        np.testing.assert_array_equal(_stable_argsort(x, axis), want)
        got = xp.argsort(xp.asarray(x, device="cpu"), axis=axis)
        np.testing.assert_array_equal(np.asarray(got), want)
