"""Masked arrays (``zyxarray.ma``) against ``numpy.ma``: the same code runs with both
modules, and the results' masks, filled values, dtypes and fill values are compared, on every
device. Covers construction, the mask accessors, arithmetic and domained functions, reductions
over partly and fully masked slices, indexing and assignment of ``masked``, median,
apply_along_axis, printing and the errors of bad calls."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.ma as nma
import pytest

import zyxarray as xp
from tests.helpers import assert_close

# (PoCL's opencl runs the backend tests, not these: tests/conftest.py, numpy_layer)
pytestmark = pytest.mark.numpy_layer

zma = xp.ma

# one shared 3x4 layout: row 1 and column 2 are fully masked, the rest partly
BASE = np.array([[1., 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
MASK = np.array([[0, 1, 1, 0], [1, 1, 1, 1], [0, 0, 1, 0]], dtype=bool)


def _maker(device: str | None) -> Callable[[Any], Any]:
    """A function that turns host data into the module's input: itself for numpy.ma, a
    zyxarray array on ``device`` for zyxarray.ma."""
    if device is None:
        return np.asarray
    return lambda h: xp.asarray(np.asarray(h), device=device)


def both(device: str, fn: Callable[[Any, Callable[[Any], Any]], Any]) -> tuple[Any, Any]:
    """(zyxarray's result, NumPy's result) of ``fn(module, make)``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            want = fn(nma, _maker(None))
        got = fn(zma, _maker(device))
    return got, want


def assert_same(got: Any, want: Any, device: str, *, rtol: float = 1e-12,
                what: str = "") -> None:
    """``got`` (a zyxarray.ma result) matches ``want`` (numpy.ma's): ``masked`` for
    ``masked``; for a masked array its class, shape, dtype, mask, values under no mask and
    fill value, on ``device``; for a scalar its value and dtype."""
    if want is nma.masked:
        assert got is zma.masked, f"{what}: expected masked, got {got!r}"
        return
    assert got is not zma.masked, f"{what}: got masked, expected {want!r}"
    if isinstance(want, nma.MaskedArray):
        assert isinstance(got, zma.MaskedArray), f"{what}: got {type(got).__name__}"
        assert got.data.device.name == device
        assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
        assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, expected {want.dtype}"
        assert (got.mask is zma.nomask) == (want.mask is nma.nomask) or \
            not nma.getmaskarray(want).any(), f"{what}: mask {got.mask!r} vs {want.mask!r}"
        np.testing.assert_array_equal(np.asarray(zma.getmaskarray(got)),
                                      nma.getmaskarray(want), err_msg=f"{what}: mask")
        zero = np.zeros((), dtype=want.dtype)[()]
        assert_close(got.filled(zero), want.filled(zero), rtol=rtol, what=f"{what}: values")
        assert got.fill_value == want.fill_value, f"{what}: fill value"
        assert type(got.fill_value) is type(want.fill_value), f"{what}: fill value type"
        return
    assert isinstance(got, xp.Array), f"{what}: got {type(got).__name__}"
    assert got.device.name == device
    assert_close(got, np.asarray(want), rtol=rtol, what=what)


def _sample(M: Any, make: Callable[[Any], Any], dtype: Any = np.float64) -> Any:
    return M.array(make(BASE.astype(dtype)), mask=MASK)


# -- construction and accessors --------------------------------------------------------------
def test_construction(device: str) -> None:
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: M.array(mk(BASE), mask=MASK),
        lambda M, mk: M.masked_array(mk(BASE), mask=MASK.tolist(), fill_value=-1.5),
        lambda M, mk: M.MaskedArray(mk(BASE), mask=True),
        lambda M, mk: M.array(mk(BASE), mask=False),
        lambda M, mk: M.array(mk(BASE), mask=[1]),
        lambda M, mk: M.array(mk(BASE), mask=MASK.ravel()),
        lambda M, mk: M.array(mk(BASE), mask=MASK, dtype=np.float32),
        lambda M, mk: M.array(mk([1, 2, 3]), dtype=np.int8, fill_value=7),
        lambda M, mk: M.array(mk([1, 2]), mask=[0, 1], ndmin=2),
        lambda M, mk: M.array(M.array(mk([1, 2, 3]), mask=[1, 0, 0]), mask=[0, 0, 1]),
        lambda M, mk: M.array(M.array(mk([1, 2, 3]), mask=[1, 0, 0]), mask=[0, 0, 1],
                              keep_mask=False),
        lambda M, mk: M.array([1, M.masked, 3]),
        lambda M, mk: M.array(nma.array([1, 2, 3], mask=[0, 1, 0])),
        lambda M, mk: M.array(mk(np.array([True, False])), mask=[0, 1]),
        lambda M, mk: M.asarray(mk([[1, 2], [3, 4]])),
        lambda M, mk: M.asanyarray(mk(np.uint8([1, 2]))),
        lambda M, mk: M.masked_all((2, 3), dtype=np.int32),
        lambda M, mk: M.zeros((2, 2)),
        lambda M, mk: M.ones(3, dtype=np.int16),
    ]
    for i, case in enumerate(cases):
        if i in (11, 12, 16, 17, 18):       # made from host data: on the default device
            got, want = both(device, case)
            assert_same(got, want, got.data.device.name, what=f"case {i}")
        else:
            got, want = both(device, case)
            assert_same(got, want, device, what=f"case {i}")


def test_attributes(device: str) -> None:
    a = _sample(zma, _maker(device))
    n = _sample(nma, np.asarray)
    assert (a.shape, a.ndim, a.size, a.dtype) == (n.shape, n.ndim, n.size, n.dtype)
    assert isinstance(a.data, xp.Array) and a.data.device.name == device
    np.testing.assert_array_equal(np.asarray(a.data), n.data)
    np.testing.assert_array_equal(np.asarray(a.mask), n.mask)
    assert_same(a.T, n.T, device)
    assert_same(a.reshape(4, 3), n.reshape(4, 3), device)
    assert_same(a.ravel(), n.ravel(), device)
    assert_same(a[:, 1:].swapaxes(0, 1), n[:, 1:].swapaxes(0, 1), device)
    assert_same(a[None].squeeze(), n[None].squeeze(), device)
    assert_same(a.astype(np.int32), n.astype(np.int32), device)
    assert_same(a.flatten(), n.flatten(), device)
    # np.asarray of a masked array is its data (masked elements included), as NumPy's
    np.testing.assert_array_equal(np.asarray(a), np.asarray(n))
    assert a.fill_value == 1e20 and isinstance(a.fill_value, np.float64)
    assert zma.array(xp.asarray([1, 2], device=device)).fill_value == np.int64(999999)
    assert zma.array(xp.asarray([True], device=device)).fill_value is np.True_
    assert zma.array(xp.asarray([1j], device=device)).fill_value == 1e20 + 0j


def test_copy_and_sharing(device: str) -> None:
    x = xp.asarray([1.0, 2.0, 3.0], device=device)
    shared = zma.array(x)
    shared[0] = 9.0                             # copy=False: the data is x's, as NumPy's
    assert float(x[0]) == 9.0
    own = zma.array(x, copy=True)
    own[1] = -1.0
    assert float(x[1]) == 2.0
    c = shared.copy()
    c[2] = zma.masked
    assert shared.mask is zma.nomask
    assert zma.asanyarray(shared) is shared
    assert zma.asarray(shared) is not shared


def test_getters_and_masks(device: str) -> None:
    mk = _maker(device)
    a = _sample(zma, mk)
    n = _sample(nma, np.asarray)
    assert zma.nomask is nma.nomask
    plain = zma.array(mk([1, 2]))
    assert plain.mask is zma.nomask and zma.getmask(plain) is zma.nomask
    assert zma.getmask(mk([1, 2])) is zma.nomask
    np.testing.assert_array_equal(np.asarray(zma.getmask(a)), nma.getmask(n))
    np.testing.assert_array_equal(np.asarray(zma.getmaskarray(plain)), [False, False])
    np.testing.assert_array_equal(np.asarray(zma.getmaskarray(mk([[1, 2]]))), [[False, False]])
    np.testing.assert_array_equal(np.asarray(zma.getdata(a)), nma.getdata(n))
    assert_close(zma.getdata([1, 2]), nma.getdata([1, 2]))
    assert zma.is_masked(a) and not zma.is_masked(plain) and zma.is_masked(zma.masked)
    assert not zma.is_masked(zma.array(mk([1, 2]), mask=[0, 0]))
    assert not zma.is_masked(mk([1, 2]))
    assert zma.isMaskedArray(a) and zma.isMA(zma.masked) and not zma.isMaskedArray(mk([1]))
    assert zma.make_mask([0, 0]) is zma.nomask             # host data: shrunk as in NumPy
    assert zma.make_mask(zma.nomask) is zma.nomask
    np.testing.assert_array_equal(np.asarray(zma.make_mask([0, 2])), [False, True])
    np.testing.assert_array_equal(np.asarray(zma.make_mask(mk([0, 2]))), [False, True])
    assert zma.mask_or(zma.nomask, zma.nomask) is zma.nomask
    m1, m2 = mk(np.array([0, 1, 0], bool)), mk(np.array([0, 0, 1], bool))
    assert_close(zma.mask_or(m1, m2), nma.mask_or(np.array([0, 1, 0], bool),
                                                  np.array([0, 0, 1], bool)))
    assert_close(zma.mask_or(zma.nomask, m2), np.array([0, 0, 1], bool))
    assert_close(zma.make_mask_none((2,)), nma.make_mask_none((2,)))
    assert zma.default_fill_value(np.dtype(np.float32)) == nma.default_fill_value(
        np.dtype(np.float32))
    assert zma.minimum_fill_value(a.astype(np.int8)) == nma.minimum_fill_value(
        n.astype(np.int8))
    assert zma.maximum_fill_value(a) == nma.maximum_fill_value(n)


def test_filled_and_compressed(device: str) -> None:
    for fill in (None, 0.5, -7):
        got, want = both(device, lambda M, mk, f=fill: _sample(M, mk).filled(f))
        assert_close(got, want, what=f"filled({fill})")
    # NumPy's default 999999 wraps in a uint8 array, as its copyto does
    got, want = both(device, lambda M, mk: M.array(mk(np.uint8([1, 2])), mask=[1, 0]).filled())
    assert_close(got, want)
    got, want = both(device, lambda M, mk: M.filled(M.array(mk([1, 2]), mask=[1, 0]), 5))
    assert_close(got, want)
    # compressed: its length depends on the mask (realized); a view too
    got, want = both(device, lambda M, mk: _sample(M, mk).T.compressed())
    assert_close(got, want)
    got, want = both(device, lambda M, mk: M.compressed(M.array(mk([1, 2]))))
    assert_close(got, want)
    got, want = both(device, lambda M, mk: _sample(M, mk).tolist())
    assert got == want
    got, want = both(device, lambda M, mk: _sample(M, mk).tolist(fill_value=0))
    assert got == want


# -- elementwise -------------------------------------------------------------------------------
def test_arithmetic_mask_propagation(device: str) -> None:
    def b(M: Any, mk: Any) -> Any:
        return M.array(mk([10., 20, 0, 40]), mask=[0, 0, 0, 1])
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: _sample(M, mk) + b(M, mk),
        lambda M, mk: _sample(M, mk) - mk([1., 2, 3, 4]),
        lambda M, mk: mk([1., 2, 3, 4]) * _sample(M, mk),
        lambda M, mk: 2 * _sample(M, mk),
        lambda M, mk: _sample(M, mk).T[::-1] ** 2,
        lambda M, mk: _sample(M, mk, np.float32) * 2,         # numpy.ma: float64
        lambda M, mk: _sample(M, mk, np.int32) + 1,           # numpy.ma: int64
        lambda M, mk: _sample(M, mk) + M.masked,
        lambda M, mk: -_sample(M, mk)[:, ::2],
        lambda M, mk: abs(_sample(M, mk) - 6),
        lambda M, mk: ~M.array(mk([1, 2]), mask=[1, 0]),
        lambda M, mk: M.array(mk([1, 6]), mask=[1, 0]) & 3,
        lambda M, mk: M.array(mk([1, 6]), mask=[0, 1]) | M.array(mk([2, 1]), mask=[0, 0]),
        lambda M, mk: M.add(_sample(M, mk), 1.5),
        lambda M, mk: M.subtract(1, _sample(M, mk)),
        lambda M, mk: M.multiply(_sample(M, mk), b(M, mk)),
        lambda M, mk: M.exp(_sample(M, mk) / 10),
        lambda M, mk: M.absolute(_sample(M, mk) - 5),
        lambda M, mk: M.negative(M.array(mk([1, 2]), mask=[1, 0])),
        lambda M, mk: M.sin(_sample(M, mk)),
        lambda M, mk: M.floor(_sample(M, mk) / 3),
        lambda M, mk: M.logical_and(M.array(mk([1, 0, 1]), mask=[0, 0, 1]), True),
        lambda M, mk: M.logical_not(M.array(mk([1, 0, 1]), mask=[0, 1, 0])),
    ]
    for i, case in enumerate(cases):
        got, want = both(device, case)
        assert_same(got, want, device, rtol=1e-12, what=f"case {i}")


def test_masked_constant_arithmetic(device: str) -> None:
    assert zma.masked + 1 is zma.masked
    assert 2 * zma.masked is zma.masked
    got, want = both(device, lambda M, mk: M.masked - M.array(mk([1, 2]), mask=[0, 1]))
    assert_same(got, want, device)
    got, want = both(device, lambda M, mk: mk(np.array([1., 2.])) * M.masked)
    assert_same(got, want, device)
    # NumPy's ndarray defers to a masked array (its ufuncs run as zyxarray.ma's)
    got = np.array([1.0, 2.0]) + zma.array(xp.asarray([1.0, 2.0], device=device), mask=[1, 0])
    assert_same(got, np.array([1.0, 2.0]) + nma.array([1.0, 2.0], mask=[1, 0]), device)
    got = np.sqrt(zma.array(xp.asarray([-1.0, 4.0], device=device)))
    assert_same(got, nma.sqrt(nma.array([-1.0, 4.0])), device)


def test_domained(device: str) -> None:
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: _sample(M, mk) / M.array(mk([0., 2, 0, 4])),
        lambda M, mk: 1 / M.array(mk([0., 2, np.inf, -0.0])),
        lambda M, mk: M.array(mk([1, 7, 9]), mask=[0, 0, 1]) // mk([0, 2, 0]),
        lambda M, mk: M.array(mk([1, 7, 9])) % mk([0, 2, 3]),
        lambda M, mk: M.array(mk([1., np.inf, 3])) / 1,
        lambda M, mk: M.divide(_sample(M, mk), 0),
        lambda M, mk: M.true_divide(mk([1e308, 1.0]), M.array(mk([1e-10, 0.5]))),
        lambda M, mk: M.floor_divide(_sample(M, mk), mk([0., 1, 2, 3])),
        lambda M, mk: M.remainder(_sample(M, mk), mk([0., 1, 2, 3])),
        lambda M, mk: M.sqrt(M.array(mk([-1., 0, 4, np.inf, 9]), mask=[0, 0, 0, 0, 1])),
        lambda M, mk: M.log(M.array(mk([0., -1, 2, np.e]))),
        lambda M, mk: M.log2(M.array(mk(np.float32([0., 8])))),
        lambda M, mk: M.log10(mk([10., -10])),
        lambda M, mk: M.arcsin(M.array(mk([-2., 0.5, 1]))),
        lambda M, mk: M.arccos(M.array(mk([1.5, 0.5]))),
        lambda M, mk: M.power(M.array(mk([0., 2, -1])), mk([-1., 2, 0.5])),
        lambda M, mk: M.array(mk([2., 3]), mask=[1, 0]) ** 2,
        lambda M, mk: M.sqrt(mk([4, 9])),
        # complex numbers meet the domains lexicographically, as in NumPy
        lambda M, mk: M.sqrt(M.array(mk([-1 + 0j, 4, -1j, 1j]), mask=[0, 0, 0, 1])),
        lambda M, mk: M.arcsin(mk([-1 + 0j, 1 + 1e-9j, -1 - 1j, 2 + 0j])),
    ]
    for i, case in enumerate(cases):
        got, want = both(device, case)
        assert_same(got, want, device, what=f"case {i}")


def test_comparisons(device: str) -> None:
    def other(M: Any, mk: Any) -> Any:
        return M.array(mk([1., 6, 3, 0]), mask=[0, 0, 0, 1])
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: _sample(M, mk) == other(M, mk),
        lambda M, mk: _sample(M, mk) != other(M, mk),
        lambda M, mk: _sample(M, mk) < 5,
        lambda M, mk: _sample(M, mk) >= mk([1., 2, 3, 4]),
        lambda M, mk: M.array(mk([1, 2]), fill_value=7) == 1,
        lambda M, mk: M.array(mk([1, 2])) > 1,
        lambda M, mk: M.equal(_sample(M, mk), 1.0),
        lambda M, mk: M.greater(_sample(M, mk), M.masked),
    ]
    for i, case in enumerate(cases):
        got, want = both(device, case)
        assert_same(got, want, device, what=f"case {i}")


# -- reductions --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "min", "max", "any",
                                  "all", "count"])
def test_reductions(device: str, name: str) -> None:
    for axis in (None, 0, 1, -1, (0, 1)):
        for keepdims in (False, True):
            def run(M: Any, mk: Any, axis: Any = axis, keepdims: bool = keepdims) -> Any:
                return getattr(_sample(M, mk), name)(axis=axis, keepdims=keepdims)
            got, want = both(device, run)
            what = f"{name}(axis={axis}, keepdims={keepdims})"
            if name == "count" and not isinstance(want, nma.MaskedArray):
                assert_close(got, np.asarray(want), dtype=None, what=what)
                continue
            assert_same(got, want, device, rtol=1e-12, what=what)


def test_reductions_dtypes_and_scalars(device: str) -> None:
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: _sample(M, mk, np.int32).mean(axis=1),
        lambda M, mk: _sample(M, mk, np.int32).sum(axis=0),
        lambda M, mk: _sample(M, mk, np.float32).mean(),
        lambda M, mk: _sample(M, mk, np.float32).var(axis=0),
        lambda M, mk: _sample(M, mk, np.float32).sum(axis=1),
        lambda M, mk: _sample(M, mk, np.int16).min(axis=1),
        lambda M, mk: _sample(M, mk, bool).all(axis=0),
        lambda M, mk: _sample(M, mk).var(axis=1, ddof=1),
        lambda M, mk: _sample(M, mk).std(axis=0, ddof=1),
        lambda M, mk: _sample(M, mk)[1].sum(),                  # fully masked: masked
        lambda M, mk: _sample(M, mk)[1].mean(),
        lambda M, mk: _sample(M, mk)[1].max(),
        lambda M, mk: _sample(M, mk)[0].sum(),
        lambda M, mk: _sample(M, mk)[0, :1].var(ddof=1),       # one element, ddof=1: masked
        lambda M, mk: M.array(mk(BASE)).sum(axis=0),            # nomask stays nomask
        lambda M, mk: M.array(mk(BASE)).mean(),
        lambda M, mk: M.array(mk(BASE)).var(axis=1),
        lambda M, mk: M.sum(_sample(M, mk), axis=1),
        lambda M, mk: M.mean(_sample(M, mk), axis=0),
        lambda M, mk: M.prod(_sample(M, mk), axis=0),
        lambda M, mk: M.var(_sample(M, mk)),
        lambda M, mk: M.std(_sample(M, mk), axis=1),
        lambda M, mk: M.min(_sample(M, mk), axis=0),
        lambda M, mk: M.max(_sample(M, mk)),
        lambda M, mk: M.any(_sample(M, mk) > 10, axis=1),
        lambda M, mk: M.all(_sample(M, mk) > 0),
        lambda M, mk: M.count(_sample(M, mk), axis=0),
        lambda M, mk: _sample(M, mk).min(axis=1, fill_value=0),
        lambda M, mk: _sample(M, mk).cumsum(axis=1),
        lambda M, mk: _sample(M, mk).cumsum(),
        lambda M, mk: M.cumprod(_sample(M, mk), axis=0),
    ]
    for i, case in enumerate(cases):
        got, want = both(device, case)
        assert_same(got, want, device, what=f"case {i}")


def test_argmin_argmax(device: str) -> None:
    for axis in (None, 0, 1):
        for name in ("argmin", "argmax"):
            got, want = both(device, lambda M, mk, n=name, a=axis:
                             getattr(_sample(M, mk), n)(axis=a))
            assert_close(got, want, what=f"{name}(axis={axis})")
            got, want = both(device, lambda M, mk, n=name, a=axis:
                             getattr(M, n)(_sample(M, mk).T, axis=a))
            assert_close(got, want, what=f"ma.{name}(axis={axis})")


def test_reduction_out(device: str) -> None:
    mk = _maker(device)
    out = zma.array(mk(np.zeros(4)), mask=[0, 0, 0, 0])
    r = _sample(zma, mk).sum(axis=0, out=out)
    assert r is out
    assert_same(out, _sample(nma, np.asarray).sum(axis=0), device)
    plain = mk(np.zeros(3))
    assert _sample(zma, mk).mean(axis=1, out=plain) is plain
    assert_close(plain[::2], _sample(nma, np.asarray).mean(axis=1).data[::2])


# -- indexing and assignment -------------------------------------------------------------------
def test_getitem(device: str) -> None:
    a = _sample(zma, _maker(device))
    n = _sample(nma, np.asarray)
    assert a[0, 1] is zma.masked
    assert_close(a[0, 0], n[0, 0])
    assert_same(a[2], n[2], device)
    assert_same(a[:, ::-2], n[:, ::-2], device)
    assert_same(a[..., 0], n[..., 0], device)
    assert_same(a[[0, 2]], n[[0, 2]], device)
    assert_same(a[a > 3], n[n > 3], device)
    assert [e is zma.masked for e in a[1]] == [True] * 4
    assert len(a) == 3


def test_setitem(device: str) -> None:
    def run(M: Any, mk: Any) -> Any:
        a = _sample(M, mk)
        a[0, 0] = M.masked           # masks
        a[1, 1] = 66.0               # unmasks
        a[2] = M.array(mk([1., 2, 3, 4]), mask=[1, 0, 0, 0])   # mask copied along
        v = a[:, 3]                  # a view: writes are seen by a, data and mask
        v[0] = M.masked
        v[1] = 7.5
        b = M.array(mk([1, 2, 3]))
        b[1:] = M.masked
        b[2] = 9
        return a, b
    (ga, gb), (wa, wb) = both(device, run)
    assert_same(ga, wa, device)
    assert_same(gb, wb, device)

    def hard(M: Any, mk: Any) -> Any:
        h = M.array(mk([1, 2, 3]), mask=[0, 1, 0], hard_mask=True)
        h[1] = 5                     # a hard mask stays
        h[0] = 6
        h.soften_mask()
        h[2] = M.masked
        return h
    got, want = both(device, hard)
    assert_same(got, want, device)

    def mask_attr(M: Any, mk: Any) -> Any:
        p = M.array(mk([1.0, 2.0, 3.0]))
        p.mask = [0, 1, 0]
        p.fill_value = 3
        return p
    got, want = both(device, mask_attr)
    assert_same(got, want, device)
    with pytest.raises(ValueError):
        zma.masked[()] = 1


def test_in_place(device: str) -> None:
    def run(M: Any, mk: Any) -> Any:
        x = M.array(mk([1.0, 2.0, 3.0, 4.0]), mask=[0, 1, 0, 0])
        x += 1
        x *= M.array(mk([2.0, 2.0, 2.0, 2.0]), mask=[0, 0, 1, 0])
        x /= mk([1.0, 1.0, 1.0, 0.0])
        y = M.array(mk([1, 2, 3]))
        y -= M.array(mk([1, 1, 1]), mask=[1, 0, 0])
        return x, y
    (gx, gy), (wx, wy) = both(device, run)
    assert_same(gx, wx, device)
    assert_same(gy, wy, device)


# -- masking functions -------------------------------------------------------------------------
def test_masked_where_family(device: str) -> None:
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: M.masked_where(mk(BASE) > 6, mk(BASE)),
        lambda M, mk: M.masked_where(mk(BASE) > 6, _sample(M, mk)),
        lambda M, mk: M.masked_where(False, mk([1, 2])),
        lambda M, mk: M.masked_where([True, False], [1, 2]),
        lambda M, mk: M.masked_invalid(mk([1.0, np.nan, -np.inf, 2.0])),
        lambda M, mk: M.masked_invalid(mk([1, 2])),
        lambda M, mk: M.masked_equal(mk([1, 2, 2, 3]), 2),
        lambda M, mk: M.masked_not_equal(mk([1, 2, 2, 3]), 2),
        lambda M, mk: M.masked_greater(mk(BASE).T, 5),
        lambda M, mk: M.masked_greater_equal(mk(BASE), 5),
        lambda M, mk: M.masked_less(_sample(M, mk), 5),
        lambda M, mk: M.masked_less_equal(mk(BASE), 5),
        lambda M, mk: M.masked_inside(mk(BASE), 8, 3),
        lambda M, mk: M.masked_outside(mk(BASE), 3, 8),
        lambda M, mk: M.masked_values(mk([1.0, 1.1, 2.0, 1.0000001]), 1.0),
        lambda M, mk: M.masked_values(M.array(mk([1, 2, 3]), mask=[0, 0, 1]), 2),
        lambda M, mk: M.fix_invalid(mk([1.0, np.nan, np.inf, 4.0])),
        lambda M, mk: M.fix_invalid(M.array(mk([1.0, np.nan, 4.0]), mask=[0, 0, 1]),
                                    fill_value=0),
        lambda M, mk: M.fix_invalid(mk([1, 2])),
    ]
    for i, case in enumerate(cases):
        got, want = both(device, case)
        dev = got.data.device.name if i == 3 else device
        assert_same(got, want, dev, what=f"case {i}")
    # without copy, an unmasked input shares the new mask (NumPy's)
    a = zma.array(xp.asarray([1, 2, 3], device=device))
    zma.masked_where(xp.asarray([True, False, False], device=device), a, copy=False)
    assert a[0] is zma.masked


def test_where_and_concatenate(device: str) -> None:
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: M.where(mk(BASE) > 5, _sample(M, mk), 0.0),
        lambda M, mk: M.where(_sample(M, mk) > 5, mk(BASE), -mk(BASE)),
        lambda M, mk: M.where(mk([True, False, True]), M.masked, mk([1, 2, 3])),
        lambda M, mk: M.where(mk([True, False]), mk([1, 2]), mk([3, 4])),
        lambda M, mk: M.concatenate([_sample(M, mk), mk(BASE[:1])]),
        lambda M, mk: M.concatenate([_sample(M, mk), _sample(M, mk).T[:3]], axis=1),
        lambda M, mk: M.concatenate([mk([1, 2]), mk([3])]),
        lambda M, mk: M.concatenate([_sample(M, mk), mk(BASE)], axis=None),
    ]
    for i, case in enumerate(cases):
        got, want = both(device, case)
        assert_same(got, want, device, what=f"case {i}")
    got, want = both(device, lambda M, mk: M.where(_sample(M, mk) > 10))
    for g_, w_ in zip(got, want):
        assert_close(g_, w_)


# -- median and apply_along_axis ---------------------------------------------------------------
def test_median(device: str) -> None:
    nan_data = np.array([[1.0, np.nan, 3, 0], [3, 4, 5, 6], [7, 8, 9, 2]])
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: M.median(_sample(M, mk)),
        lambda M, mk: M.median(_sample(M, mk), axis=0),
        lambda M, mk: M.median(_sample(M, mk), axis=1),
        lambda M, mk: M.median(_sample(M, mk).T, axis=0, keepdims=True),
        lambda M, mk: M.median(_sample(M, mk, np.int32), axis=-1),
        lambda M, mk: M.median(_sample(M, mk, np.float32), axis=0),
        lambda M, mk: M.median(_sample(M, mk)[1]),               # fully masked: masked
        lambda M, mk: M.median(M.array(mk(nan_data), mask=MASK), axis=1),
        lambda M, mk: M.median(M.array(mk(nan_data), mask=MASK), axis=0),
        lambda M, mk: M.median(M.array(mk(BASE)), axis=1),       # nomask
        lambda M, mk: M.median(M.array(mk(BASE))),
        lambda M, mk: M.median(mk(BASE), axis=0),                # not a masked array
    ]
    for i, case in enumerate(cases):
        got, want = both(device, case)
        assert_same(got, want, device, what=f"case {i}")


def test_apply_along_axis(device: str) -> None:
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: M.apply_along_axis(lambda r: r.sum(), 1, _sample(M, mk)),
        lambda M, mk: M.apply_along_axis(lambda r: r.sum(), 0, _sample(M, mk, np.int32)),
        lambda M, mk: M.apply_along_axis(lambda r: r * 2, 1, _sample(M, mk)),
        lambda M, mk: M.apply_along_axis(lambda r, k: r.max() + k, -1, _sample(M, mk), 1.0),
        lambda M, mk: M.apply_along_axis(lambda r: r.count(), 0, _sample(M, mk)),
        lambda M, mk: M.apply_along_axis(lambda r: r.mean(), 1, M.array(mk(BASE))),
    ]
    for i, case in enumerate(cases):
        got, want = both(device, case)
        assert_same(got, want, device, what=f"case {i}")


# -- printing ----------------------------------------------------------------------------------
def test_printing(device: str) -> None:
    cases: list[Callable[[Any, Any], Any]] = [
        lambda M, mk: _sample(M, mk),
        lambda M, mk: _sample(M, mk, np.int32),
        lambda M, mk: M.array(mk([1.5, 2.5]), mask=[0, 1], fill_value=-1),
        lambda M, mk: M.array(mk([1, 2])),
        lambda M, mk: M.array(mk(5.0), mask=True),
        lambda M, mk: M.sqrt(M.array(mk([1, 4, 9]), mask=[0, 0, 1], fill_value=7)),
        lambda M, mk: M.array(mk([True, False]), mask=[1, 0]),
    ]
    for i, case in enumerate(cases):
        got, want = both(device, case)
        assert repr(got) == repr(want), f"case {i}"
        assert str(got) == str(want), f"case {i}"
    assert repr(zma.masked) == repr(nma.masked) == "masked"
    assert str(zma.masked) == str(nma.masked) == "--"
    assert f"{zma.masked}" == "--"


def test_scalar_conversions(device: str) -> None:
    a = zma.array(xp.asarray([1.5, 2.5], device=device), mask=[1, 0])
    assert float(a[1]) == 2.5
    with pytest.warns(UserWarning, match="masked element"):
        assert np.isnan(float(zma.masked))
    with pytest.warns(UserWarning, match="masked element"):
        assert np.isnan(float(a[:1]))
    assert int(a[1:]) == 2
    with pytest.raises(zma.MaskError):
        int(a[:1])
    with pytest.raises(nma.MaskError):      # the same class as NumPy's
        int(zma.masked)
    assert not bool(zma.masked)
    assert bool(zma.array(xp.asarray([3], device=device)))


# -- errors ------------------------------------------------------------------------------------
def test_errors(device: str) -> None:
    mk = _maker(device)
    with pytest.raises(zma.MaskError):
        zma.array(mk([1, 2, 3]), mask=[1, 0])
    with pytest.raises(IndexError):
        zma.masked_where(mk([True, False]), mk([1, 2, 3]))
    with pytest.raises(TypeError):
        zma.array(mk([1, 2]), dtype=np.int8, fill_value=1000)
    with pytest.raises(TypeError):
        zma.array(mk([1, 2])).fill_value = "a"
    with pytest.raises(TypeError):
        zma.array(mk([1, 2]), mask=[1, 0]).filled(1.5j)
    with pytest.raises(TypeError):
        y = zma.array(mk([1, 2]))
        y += 1.5
    with pytest.raises(ValueError):
        x = zma.array(mk([1.0, 2.0]))
        x += mk([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError):
        zma.where(mk([True]), mk([1]))
    with pytest.raises(ValueError):
        _ = zma.array(mk([1.0, 2.0])) + zma.array(mk([1.0, 2.0, 3.0]))
    with pytest.raises(IndexError):            # an AxisError, as NumPy's
        zma.apply_along_axis(lambda r: r.sum(), 2, _sample(zma, mk))
    with pytest.raises(ValueError):
        zma.apply_along_axis(lambda r: r[None], 1, _sample(zma, mk))
    with pytest.raises(ValueError):
        _sample(zma, mk).sum(axis=2)
    with pytest.raises(ValueError):
        _sample(zma, mk).max(axis=(0, 0))
    with pytest.raises(TypeError):
        len(zma.array(mk(1.0)))
    with pytest.raises(TypeError):
        zma.MaskedArray()
    with pytest.raises(ValueError):
        zma.array(mk([1.0]), mask=[True]) + zma.array(xp.asarray([1.0], device="reference")
                                                      if device != "reference" else
                                                      xp.asarray([1.0], device="cpu"))
    with pytest.raises(TypeError):
        np.add.reduce(zma.array(mk([1.0])))


def test_lazy_until_observed(device: str) -> None:
    """Building masked expressions, reductions and medians launches no kernel."""
    from zyxarray._lazy.realize import stats
    x = xp.asarray(BASE, device=device)
    np.asarray(x)
    before = stats.get("kernels", 0)
    a = zma.masked_where(x > 7, x)
    b = zma.sqrt(a - 2) / (a + 1) + a * 2
    parts = [b.sum(axis=1), b.mean(axis=0), b.var(axis=1, ddof=1), b.min(axis=1),
             zma.median(b, axis=1), b.count(axis=0), b.filled(0), zma.where(b > 1, b, 0),
             zma.fix_invalid(b), zma.concatenate([b, a])]
    view = b[1:, ::2]
    view[0] = zma.masked
    assert stats.get("kernels", 0) == before
    assert_same(parts[4], nma.median(nma.sqrt(nma.masked_where(BASE > 7, BASE) - 2) /
                                     (nma.masked_where(BASE > 7, BASE) + 1) +
                                     nma.masked_where(BASE > 7, BASE) * 2, axis=1), device)
