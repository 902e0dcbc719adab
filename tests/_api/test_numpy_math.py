"""NumPy's mathematical extras against NumPy 2, on every device: the elementwise functions
(fmod, frexp, ldexp, modf, spacing, cbrt, sinc, nan_to_num, ...), convolve and correlate,
interp, gradient, trapezoid, the products (kron, inner, outer, vdot), cov and corrcoef,
the polynomial functions (poly1d and friends, zyxarray.polynomial) and linalg's norm, lstsq,
multi_dot and NumPy's keywords of the decompositions.

Shapes and dtypes are few and shared: every kernel structure costs a compile per device.
"""

from __future__ import annotations

import warnings
from functools import partial
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import Input, assert_close, check_against_numpy, numpy_result, on_devices
from zyxarray import linalg

# (PoCL's opencl runs the backend tests, not these: tests/conftest.py, numpy_layer)
pytestmark = pytest.mark.numpy_layer

SPECIAL = np.array([-3.5, -2.0, -0.0, 0.0, 0.3, 1.0, 2.5, 27.0, np.inf, -np.inf, np.nan,
                    5e-324, 1e308, -7e-310])
with np.errstate(over="ignore"):
    SPECIAL32 = SPECIAL.astype(np.float32)      # (1e308 becomes inf)
REVERSED = [("index", (slice(None, None, -1),))]


def _complex(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    """re + im j without arithmetic (inf * 1j would make NaN real parts)."""
    z = np.empty(re.shape, np.complex128)
    z.real, z.imag = re, im
    return z


def _compare(device: str, xp_fn: Any, np_fn: Any, operands: list[Any], *,
             rtol: float = 1e-12, atol: float = 0.0) -> None:
    """Like ``check_against_numpy``, for results that are tuples or lists of arrays, ints and
    floats too (each part compared on its own), on the device and on the reference."""
    expected = numpy_result(np_fn, *[o.np if isinstance(o, Input) else o for o in operands])

    def compare(got: Any, exp: Any, what: str) -> None:
        if isinstance(exp, (tuple, list)):
            assert isinstance(got, (tuple, list)) and len(got) == len(exp), what
            for i, (a, b) in enumerate(zip(got, exp)):
                compare(a, b, f"{what}[{i}]")
        elif isinstance(exp, (int, np.integer)) and not isinstance(got, xp.Array):
            assert got == exp, f"{what}: {got} != {exp}"
        elif isinstance(exp, np.poly1d):
            assert isinstance(got, xp.poly1d), what
            compare(got.coeffs, exp.coeffs, what)
        else:
            if isinstance(got, xp.Array):
                assert got.device.name == dev, f"{what}: on {got.device.name}"
            part = np.asarray(exp)
            exact = part.dtype.kind not in "fc"
            assert_close(got, part, rtol=0 if exact else rtol, atol=0 if exact else atol,
                         what=what)

    for dev, result in on_devices(device, lambda d: xp_fn(
            *[o.on(d) if isinstance(o, Input) else o for o in operands])):
        compare(result, expected, f"on {dev}")


# -- elementwise ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["spacing", "exp2", "fabs", "cbrt", "sinc", "deg2rad",
                                  "rad2deg", "radians", "degrees", "angle"])
def test_float_unary(device: str, name: str) -> None:
    x = Input(SPECIAL, REVERSED)
    # (libm's exp2/cbrt and pow agree to a few ulps, not to the bit)
    check_against_numpy(device, getattr(xp, name), getattr(np, name), [x], rtol=1e-15)
    check_against_numpy(device, getattr(xp, name), getattr(np, name),
                        [Input(SPECIAL32[:9], [])], rtol=1e-6)


def test_float_unary_of_integers_and_lists(device: str) -> None:
    ints = Input(np.array([-8, 0, 1, 27], np.int64), [])
    for name in ("exp2", "cbrt", "fabs", "deg2rad", "sinc", "spacing"):
        check_against_numpy(device, getattr(xp, name), getattr(np, name), [ints], rtol=1e-15)
    assert_close(xp.exp2([1, 2, 3]), np.exp2([1, 2, 3]))
    assert_close(xp.cbrt(-27.0), np.asarray(np.cbrt(-27.0)))
    with pytest.raises(TypeError):
        xp.fabs(xp.asarray([1j], device=device))
    with pytest.raises(TypeError):
        xp.cbrt(xp.asarray([1j], device=device))


def test_cbrt_is_exact_on_cubes(device: str) -> None:
    cubes = np.array([k ** 3 for k in range(-20, 21)], np.float64)
    x = xp.asarray(cubes, device=device)
    assert_close(xp.cbrt(x), np.cbrt(cubes))
    assert_close(xp.cbrt(x * 1e-300), np.cbrt(cubes * 1e-300), rtol=2.3e-16)


def test_complex_elementwise(device: str) -> None:
    z = Input(_complex(SPECIAL[:8], SPECIAL[::-1][:8]), [])
    check_against_numpy(device, xp.angle, np.angle, [z], rtol=1e-15)
    check_against_numpy(device, partial(xp.angle, deg=True), partial(np.angle, deg=True), [z],
                        rtol=1e-15)
    check_against_numpy(device, xp.sinc, np.sinc, [Input(np.array([0j, 0.5 + 1j, 1 - 2j]), [])],
                        rtol=1e-13)
    check_against_numpy(device, xp.conjugate, np.conjugate, [z])
    check_against_numpy(device, xp.exp2, np.exp2, [Input(np.array([1j, 0.5 - 2j]), [])],
                        rtol=1e-14)


def test_frexp_ldexp_modf(device: str) -> None:
    for values, view in ((SPECIAL, REVERSED), (SPECIAL32, [])):
        x = Input(values, view)
        _compare(device, xp.frexp, np.frexp, [x], rtol=0)
        _compare(device, xp.modf, np.modf, [x], rtol=0)
        exps = Input(np.array([0, 1, -1, 5, -1074, 2000, -2000, 1023, 3, 3, 2, 1, -1, 60]), [])
        check_against_numpy(device, xp.ldexp, np.ldexp, [x, exps], rtol=0)
    # modf keeps the sign of zeros; ldexp takes Python ints and refuses float exponents
    frac, _ = xp.modf(xp.asarray([-2.0, -0.0], device=device))
    assert np.all(np.signbit(np.asarray(frac)))
    assert_close(xp.ldexp(xp.asarray([1.5], device=device), 3), np.ldexp([1.5], 3))
    assert_close(xp.frexp([4, 5])[1], np.frexp([4, 5])[1])
    with pytest.raises(TypeError):
        xp.ldexp(xp.asarray([1.0], device=device), 2.5)
    with pytest.raises(TypeError):
        xp.ldexp(xp.asarray([1.0], device=device), xp.asarray([2.0], device=device))


def test_fmod(device: str) -> None:
    a = Input(SPECIAL[:10], [])
    b = Input(np.array([2.0, -3.0, 1.5, -1.5, 0.0, np.inf, 3, 0.7, 1, -1]), REVERSED)
    check_against_numpy(device, xp.fmod, np.fmod, [a, b], rtol=0)
    i1 = Input(np.array([-7, 7, -7, 7, 5, 0, -128], np.int8), [])
    i2 = Input(np.array([2, 2, -2, -2, 0, 3, -1], np.int8), [])
    check_against_numpy(device, xp.fmod, np.fmod, [i1, i2])
    check_against_numpy(device, xp.fmod, np.fmod, [Input(np.array([7, 250], np.uint8), []), 3])
    check_against_numpy(device, xp.fmod, np.fmod,
                        [Input(np.array([True, False]), []), Input(np.array([True, True]), [])])
    assert_close(xp.fmod(7, 2.5), np.asarray(np.fmod(7, 2.5)))


def test_binary_extras(device: str) -> None:
    a = Input(SPECIAL[:10], REVERSED)
    b = Input(np.array([1.0, np.inf, -np.inf, np.nan, 0.0, -1.0, 2.5, 2.5, 3.0, 0.3]), [])
    check_against_numpy(device, xp.logaddexp2, np.logaddexp2, [a, b], rtol=1e-15)
    check_against_numpy(device, xp.heaviside, np.heaviside, [a, 0.5])
    check_against_numpy(device, xp.heaviside, np.heaviside, [a, b])
    ints = Input(np.array([2, -3, 0, 4], np.int8), [])
    check_against_numpy(device, xp.float_power, np.float_power, [ints, 2], rtol=0)
    check_against_numpy(device, xp.float_power, np.float_power,
                        [Input(np.array([2.0, 0.5], np.float32), []), -1.5], rtol=1e-15)
    check_against_numpy(device, xp.true_divide, np.true_divide, [ints, 3])
    check_against_numpy(device, xp.mod, np.mod, [ints, 3])
    check_against_numpy(device, partial(xp.around, decimals=-1), partial(np.around, decimals=-1),
                        [a])
    check_against_numpy(device, partial(xp.around, decimals=2), partial(np.around, decimals=2),
                        [Input(np.array([1.005, 2.675, -0.125]), [])])
    # out= writes into the given array
    out = xp.zeros(4, dtype=xp.float64, device=device)
    result = xp.heaviside(xp.asarray([-1.0, 0.0, 2.0, 1.0], device=device), 0.5, out=out)
    assert result is out
    assert_close(out, np.array([0.0, 0.5, 1.0, 1.0]))


def test_nan_to_num(device: str) -> None:
    x = Input(SPECIAL, [])
    check_against_numpy(device, xp.nan_to_num, np.nan_to_num, [x])
    check_against_numpy(device, partial(xp.nan_to_num, nan=-1.0, posinf=9.0, neginf=-9.0),
                        partial(np.nan_to_num, nan=-1.0, posinf=9.0, neginf=-9.0), [x])
    z = Input(_complex(SPECIAL[:10], SPECIAL[::-1][:10]), [])
    check_against_numpy(device, partial(xp.nan_to_num, nan=2.0),
                        partial(np.nan_to_num, nan=2.0), [z])
    check_against_numpy(device, xp.nan_to_num, np.nan_to_num,
                        [Input(SPECIAL32, [])])
    ints = xp.asarray([1, 2], device=device)
    assert_close(xp.nan_to_num(ints), np.array([1, 2]))
    # copy=False writes into x
    y = xp.asarray([np.nan, 1.0, -np.inf], device=device)
    assert xp.nan_to_num(y, copy=False) is y
    assert_close(y, np.nan_to_num(np.array([np.nan, 1.0, -np.inf])))


def test_predicates(device: str) -> None:
    x = Input(SPECIAL, [])
    check_against_numpy(device, xp.isposinf, np.isposinf, [x])
    check_against_numpy(device, xp.isneginf, np.isneginf, [x])
    check_against_numpy(device, xp.isposinf, np.isposinf, [Input(np.array([1, 2], np.int32), [])])
    z = Input(np.array([1 + 0j, 1j, np.nan + 0j, -0.0 - 0j]), [])
    for name in ("isreal", "iscomplex"):
        check_against_numpy(device, getattr(xp, name), getattr(np, name), [z])
        check_against_numpy(device, getattr(xp, name), getattr(np, name), [x])
    zx = xp.asarray(z.np, device=device)
    assert xp.iscomplexobj(zx) and not xp.isrealobj(zx)
    assert xp.isrealobj(xp.asarray([1.0], device=device)) and not xp.iscomplexobj([1, 2])
    assert xp.iscomplexobj([1j]) and xp.isrealobj(3.0)
    with pytest.raises(TypeError):
        xp.isposinf(zx)
    with pytest.raises(TypeError):
        xp.isneginf(zx)


# -- signal and calculus ----------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_and_correlate(device: str, mode: str) -> None:
    rng = np.random.default_rng(0)
    for n, m in ((5, 3), (5, 4), (3, 5), (4, 5), (6, 6), (1, 4)):
        a = Input(rng.standard_normal(n), REVERSED)
        v = Input(rng.standard_normal(m) + 1j * rng.standard_normal(m), [])
        for name in ("convolve", "correlate"):
            check_against_numpy(device, partial(getattr(xp, name), mode=mode),
                                partial(getattr(np, name), mode=mode), [a, v], rtol=1e-13,
                                atol=1e-14)
            check_against_numpy(device, partial(getattr(xp, name), mode=mode),
                                partial(getattr(np, name), mode=mode), [v, a], rtol=1e-13,
                                atol=1e-14)
    ints = Input(np.array([1, 2, 3, 100], np.int8), [])
    check_against_numpy(device, partial(xp.convolve, mode=mode),
                        partial(np.convolve, mode=mode), [ints, Input(np.array([0, 1, 2],
                                                                               np.int8), [])])


@pytest.mark.usefixtures("kernels_only")
def test_convolve_of_expressions_and_lists(device: str) -> None:
    """The zero padding holds for inputs that are expressions with constants (a masked view
    zeroes loads only) and for a broadcast constant. (The lazy path: on cpu, small
    expressions would be computed at once, and convolved by NumPy's loop.)"""
    x = xp.asarray([1.0, 2.0, 3.0], device=device)
    v = xp.asarray([1.0, 1.0], device=device)
    assert_close(xp.convolve(x + 1, v), np.convolve([2.0, 3.0, 4.0], [1.0, 1.0]))
    assert_close(xp.correlate(xp.exp(x), v, "same"),
                 np.correlate(np.exp([1.0, 2.0, 3.0]), [1.0, 1.0], "same"), rtol=1e-15)
    assert_close(xp.convolve(xp.ones(1, device=device), x), np.convolve([1.0], [1, 2, 3.0]))
    assert_close(xp.convolve([1, 2, 3], [0, 1, 0.5]), np.convolve([1, 2, 3], [0, 1, 0.5]))
    assert_close(xp.convolve(3, [1, 2]), np.convolve(3, [1, 2]))
    assert len(xp.explain(xp.convolve(x * 2, v, "valid")).kernels) == 1   # one reduction
    with pytest.raises(ValueError, match="empty"):
        xp.convolve(x[:0], v)
    with pytest.raises(ValueError, match="mode"):
        xp.correlate(x, v, "circular")
    with pytest.raises(ValueError, match="one-dimensional"):
        xp.convolve(xp.ones((2, 2), device=device), v)


def test_convolve_of_values_in_cpu_memory_is_numpys() -> None:
    """On the cpu device, operands already in memory are convolved by NumPy's loop there
    (no kernel, NumPy's values); ``apply_along_axis`` stores its input once, so each row's
    call sees a row in memory."""
    from zyxarray._lazy import realize
    rng = np.random.default_rng(5)
    a, k = rng.standard_normal(48), np.array([1.0, 4.0, 6.0, 4.0, 1.0]) / 16
    x, w = xp.asarray(a), xp.asarray(k)
    before = realize.stats["kernels"]
    for mode in ("full", "same", "valid"):
        np.testing.assert_array_equal(np.asarray(xp.convolve(x, w, mode)),
                                      np.convolve(a, k, mode))
        np.testing.assert_array_equal(np.asarray(xp.correlate(w, x[::-2], mode)),
                                      np.correlate(k, a[::-2], mode))
    assert realize.stats["kernels"] == before
    img = xp.asarray(np.arange(20 * 12).reshape(20, 12) % 7) * 1.5     # pending
    blur = xp.apply_along_axis(lambda r: xp.convolve(r, w, mode="same"), 0, img)
    host = (np.arange(20 * 12).reshape(20, 12) % 7) * 1.5
    np.testing.assert_allclose(np.asarray(blur), np.apply_along_axis(
        lambda r: np.convolve(r, k, mode="same"), 0, host), rtol=1e-15)
    assert realize.stats["kernels"] - before <= 2     # the input once (then NumPy's stack)


def test_interp(device: str) -> None:
    xs = Input(np.array([np.nan, 0, 1, 1.5, 2, 2.5, 3, 4, 5, 6]), REVERSED)
    xp_ = Input(np.array([1.0, 2.0, 2.0, 3.0, 5.0]), [])
    fp = Input(np.array([3.0, 2.0, 5.0, 0.0, 1.0]), [])
    check_against_numpy(device, xp.interp, np.interp, [xs, xp_, fp])
    check_against_numpy(device, partial(xp.interp, left=-1, right=9),
                        partial(np.interp, left=-1, right=9), [xs, xp_, fp])
    check_against_numpy(device, xp.interp, np.interp,
                        [xs, xp_, Input(np.array([3.0, 2j, 5.0, 0.0, 1 - 1j]), [])])
    check_against_numpy(device, xp.interp, np.interp,
                        [xs, Input(np.array([2.0]), []), Input(np.array([7.0]), [])])
    check_against_numpy(device, partial(xp.interp, period=360),
                        partial(np.interp, period=360),
                        [Input(np.array([-180.0, 190, 10, 360, 5]), []),
                         Input(np.array([-170.0, 0, 170]), []), Input(np.array([1.0, 2, 3]), [])])
    assert_close(xp.interp(2.5, [1, 2, 3], [3, 2, 0]), np.asarray(np.interp(2.5, [1, 2, 3],
                                                                            [3, 2, 0])))
    x = xp.asarray([1.0, 2.0], device=device)
    with pytest.raises(ValueError):
        xp.interp(x, x, x[:1])
    with pytest.raises(ValueError):
        xp.interp(x, x[:0], x[:0])
    with pytest.raises(ValueError):
        xp.interp(x, x, x, period=0)


def test_interp_of_values_in_cpu_memory_is_numpys() -> None:
    """On the cpu device, x (a Python number too), xp and fp already in memory are
    interpolated by NumPy's loop there: no kernel (the lazy path launched several and read
    its indices back to check them), NumPy's values; left, right and period as NumPy."""
    from zyxarray._lazy import realize
    s = np.sort(np.random.default_rng(2).random(50))
    z, w = xp.asarray(s), xp.asarray(s * 3 - 1j)
    before = realize.stats["kernels"]
    for x in (0.3, 2, -1.0, s[::-3]):
        for kw in ({}, {"left": -5.0, "right": 7}, {"period": 0.25}):
            got = xp.interp(x if np.isscalar(x) else xp.asarray(x), z, w, **kw)
            assert isinstance(got, xp.Array) and got.dtype == xp.complex128
            np.testing.assert_array_equal(np.asarray(got), np.interp(x, s, s * 3 - 1j, **kw))
    assert realize.stats["kernels"] == before
    with pytest.raises(ValueError, match="period"):
        xp.interp(0.3, z, z, period=0)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(device: str, edge_order: int) -> None:
    rng = np.random.default_rng(1)
    f = Input(rng.standard_normal((4, 5)), [("permute", (1, 0))])       # shape (5, 4)
    coords = np.array([0.0, 0.5, 1.7, 2.0, 3.5])
    _compare(device, partial(xp.gradient, edge_order=edge_order),
             partial(np.gradient, edge_order=edge_order), [f])
    _compare(device, lambda a: xp.gradient(a, coords, 2.0, edge_order=edge_order),
             lambda a: np.gradient(a, coords, 2.0, edge_order=edge_order), [f])
    _compare(device, lambda a: xp.gradient(a, 0.5, axis=1, edge_order=edge_order),
             lambda a: np.gradient(a, 0.5, axis=1, edge_order=edge_order), [f])
    _compare(device, lambda a: xp.gradient(a, coords, axis=-2, edge_order=edge_order),
             lambda a: np.gradient(a, coords, axis=-2, edge_order=edge_order), [f])
    _compare(device, lambda a: xp.gradient(a, axis=(1, 0), edge_order=edge_order),
             lambda a: np.gradient(a, axis=(1, 0), edge_order=edge_order), [f])
    _compare(device, partial(xp.gradient, edge_order=edge_order),
             partial(np.gradient, edge_order=edge_order),
             [Input(np.array([1, 4, 9, 16, 25], np.int32), [])])
    _compare(device, partial(xp.gradient, edge_order=edge_order),
             partial(np.gradient, edge_order=edge_order),
             [Input(np.array([1, 4, 9, 16], np.float32), [])], rtol=1e-6)


def test_gradient_errors(device: str) -> None:
    f = xp.asarray(np.ones((2, 3)), device=device)
    with pytest.raises(ValueError):
        xp.gradient(f, edge_order=2)                # 2 points along axis 0
    with pytest.raises(ValueError):
        xp.gradient(f, edge_order=3)
    with pytest.raises(TypeError):
        xp.gradient(f, 1.0, 2.0, 3.0)
    with pytest.raises(ValueError):
        xp.gradient(f, [0.0, 1.0, 2.0], axis=0)
    with pytest.raises(TypeError):
        xp.gradient(xp.asarray([True, False, True], device=device))


def test_trapezoid(device: str) -> None:
    rng = np.random.default_rng(2)
    y = Input(rng.standard_normal((4, 5)), REVERSED)
    x = Input(np.array([0.0, 0.5, 1.7, 2.0, 3.5]), [])
    check_against_numpy(device, xp.trapezoid, np.trapezoid, [y])
    check_against_numpy(device, xp.trapezoid, np.trapezoid, [y, x])
    check_against_numpy(device, partial(xp.trapezoid, dx=0.5, axis=0),
                        partial(np.trapezoid, dx=0.5, axis=0), [y])
    check_against_numpy(device, partial(xp.trapezoid, axis=0), partial(np.trapezoid, axis=0),
                        [y, Input(rng.standard_normal((4, 5)), [])])
    assert_close(xp.trapezoid([1, 2, 3]), np.asarray(np.trapezoid([1, 2, 3])))


# -- products and statistics ------------------------------------------------------------------
def test_products(device: str) -> None:
    rng = np.random.default_rng(3)
    a = Input(rng.standard_normal((2, 3)), [])
    b = Input(np.arange(6).reshape(3, 2), [("permute", (1, 0))])       # shape (2, 3), ints
    check_against_numpy(device, xp.kron, np.kron, [a, b])
    check_against_numpy(device, xp.kron, np.kron,
                        [Input(np.arange(3), []), Input(np.ones((2, 2), np.int32), [])])
    check_against_numpy(device, xp.inner, np.inner, [a, b])
    check_against_numpy(device, xp.inner, np.inner,
                        [Input(np.array([True, False]), []),
                         Input(np.array([[True, True], [False, False]]), [])])
    check_against_numpy(device, xp.outer, np.outer, [a, Input(np.array([1, 2]), [])])
    z = Input(rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3)), [])
    check_against_numpy(device, xp.vdot, np.vdot, [z, a])
    check_against_numpy(device, xp.vdot, np.vdot, [Input(np.array([100, 100], np.int8), []),
                                                   Input(np.array([2, 2], np.int8), [])])
    assert_close(xp.inner(2.0, [1, 2]), np.inner(2.0, [1, 2]))
    with pytest.raises(ValueError):
        xp.vdot([1, 2], [1, 2, 3])
    with pytest.raises(ValueError):
        xp.inner(xp.ones((2, 3), device=device), xp.ones(2, device=device))


def test_cov_and_corrcoef(device: str) -> None:
    rng = np.random.default_rng(4)
    m = Input(rng.standard_normal((3, 5)), [])
    fw = Input(np.array([1, 2, 1, 3, 1]), [])
    aw = Input(np.array([0.5, 1, 2, 1, 0.1]), [])
    check_against_numpy(device, xp.cov, np.cov, [m])
    check_against_numpy(device, partial(xp.cov, rowvar=False, bias=True),
                        partial(np.cov, rowvar=False, bias=True), [m])
    check_against_numpy(device, lambda a, f, w: xp.cov(a, fweights=f, aweights=w),
                        lambda a, f, w: np.cov(a, fweights=f, aweights=w), [m, fw, aw])
    check_against_numpy(device, lambda a, w: xp.cov(a, aweights=w, ddof=2),
                        lambda a, w: np.cov(a, aweights=w, ddof=2), [m, aw])
    check_against_numpy(device, lambda a, f: xp.cov(a, fweights=f, ddof=0),
                        lambda a, f: np.cov(a, fweights=f, ddof=0), [m, fw])
    check_against_numpy(device, lambda a: xp.cov(a[0], a[1]), lambda a: np.cov(a[0], a[1]), [m])
    check_against_numpy(device, xp.corrcoef, np.corrcoef, [m])
    z = Input(rng.standard_normal((2, 4)) + 1j * rng.standard_normal((2, 4)), [])
    check_against_numpy(device, xp.cov, np.cov, [z])
    check_against_numpy(device, xp.corrcoef, np.corrcoef, [z])
    check_against_numpy(device, xp.cov, np.cov, [Input(m.np.astype(np.float32), [])])
    assert_close(xp.cov([1, 2, 4]), np.cov([1, 2, 4]))
    assert_close(xp.corrcoef([1, 2, 4]), np.asarray(np.corrcoef([1, 2, 4])))
    with pytest.warns(RuntimeWarning):
        xp.cov([1.0])
    with pytest.raises(ValueError):
        xp.cov(np.ones((2, 2, 2)))
    with pytest.raises(RuntimeError):
        xp.cov(np.ones((2, 3)), fweights=[1, 2])


# -- polynomials ------------------------------------------------------------------------------
def test_polyval_and_polyfit(device: str) -> None:
    x = Input(np.array([0.0, 1, 2, 3, 4, 5]), REVERSED)
    y = Input(np.array([1.0, 3, 5, 8, 1, 2]), [])
    check_against_numpy(device, xp.polyval, np.polyval,
                        [Input(np.array([1, 2, 3]), []), Input(np.array([1, 2], np.int32), [])])
    check_against_numpy(device, xp.polyval, np.polyval, [Input(np.array([1.0, -2, 3]), []), x])
    check_against_numpy(device, partial(xp.polyfit, deg=2), partial(np.polyfit, deg=2), [x, y],
                        rtol=1e-10)
    w = Input(np.array([1.0, 2, 1, 1, 3, 1]), [])
    check_against_numpy(device, lambda a, b, c: xp.polyfit(a, b, 2, w=c),
                        lambda a, b, c: np.polyfit(a, b, 2, w=c), [x, y, w], rtol=1e-10)
    two = Input(np.stack([y.np, y.np ** 2], 1), [])
    check_against_numpy(device, partial(xp.polyfit, deg=3), partial(np.polyfit, deg=3),
                        [x, two], rtol=1e-10)
    _compare(device, partial(xp.polyfit, deg=2, full=True),
             partial(np.polyfit, deg=2, full=True), [x, y], rtol=1e-10)
    _compare(device, partial(xp.polyfit, deg=2, cov=True), partial(np.polyfit, deg=2, cov=True),
             [x, y], rtol=1e-10)
    _compare(device, partial(xp.polyfit, deg=1, cov="unscaled"),
             partial(np.polyfit, deg=1, cov="unscaled"), [x, two], rtol=1e-10)
    with pytest.warns(np.exceptions.RankWarning):
        xp.polyfit([1.0, 1, 1], [1.0, 2, 3], 2)
    with pytest.raises(TypeError):
        xp.polyfit(np.ones((2, 2)), [1.0, 2], 1)
    with pytest.raises(ValueError):
        xp.polyfit([1.0, 2], [1.0, 2], -1)


def test_poly1d(device: str) -> None:
    coeffs = xp.asarray([0, 1.0, -3, 2], device=device)
    p, pn = xp.poly1d(coeffs), np.poly1d([0, 1.0, -3, 2])
    assert (p.order, len(p), p.variable) == (pn.order, len(pn), "x")
    assert repr(p) == repr(pn) and str(p) == str(pn)
    assert p.coeffs.device.name == device
    t = xp.asarray([0.0, 1, 2.5], device=device)
    assert_close(p(t), pn([0.0, 1, 2.5]))
    assert_close(p.roots, pn.roots, rtol=1e-12)
    cases = [(p + [1, 1], pn + [1, 1]), (3 + p, 3 + pn), (p - p, pn - pn), (1 - p, 1 - pn),
             (p * p, pn * pn), (p * 2, pn * 2), (p ** 3, pn ** 3), (-p, -pn), (p / 2, pn / 2),
             (p.deriv(), pn.deriv()), (p.deriv(2), pn.deriv(2)), (p.integ(2, 3), pn.integ(2, 3)),
             (p.integ(2, [1, 2]), pn.integ(2, [1, 2])),
             (p(xp.poly1d(coeffs[1:3] * 0 + 1)), pn(np.poly1d([1.0, 1]))),
             (xp.poly1d([1, 2, 3], r=True), np.poly1d([1, 2, 3], r=True))]
    for i, (got, want) in enumerate(cases):
        assert isinstance(got, xp.poly1d), i
        assert_close(got.coeffs, want.coeffs, rtol=1e-12, what=str(i))
    q, r = p / xp.poly1d(xp.asarray([1.0, -2], device=device))
    qn, rn = pn / np.poly1d([1.0, -2])
    assert_close(q.coeffs, qn.coeffs)
    assert_close(r.coeffs, rn.coeffs)
    assert_close(p[1], np.asarray(pn[1]))
    assert_close(p[7], np.asarray(pn[7]))
    assert p == xp.poly1d([1.0, -3, 2]) and p != xp.poly1d([1.0, -3, 3])
    with pytest.raises(ValueError):
        p ** -1
    with pytest.raises(ValueError):
        xp.poly1d(np.ones((2, 2)))


def test_polynomial_functions(device: str) -> None:
    a = xp.asarray([1, 2, 3], device=device)
    cases = [(xp.polyadd([1, 2], a), np.polyadd([1, 2], [1, 2, 3])),
             (xp.polysub(a, [1.0, 2]), np.polysub([1, 2, 3], [1.0, 2])),
             (xp.polymul([0, 1, 2], a), np.polymul([0, 1, 2], [1, 2, 3])),
             (xp.polyder(a, 2), np.polyder([1, 2, 3], 2)),
             (xp.polyint(a, 2), np.polyint([1, 2, 3], 2)),
             (xp.poly([1j, -1j]), np.poly([1j, -1j])),
             (xp.poly([1j, 1.0]), np.poly([1j, 1.0])),
             (xp.poly(xp.asarray([[1.0, 2], [3, 4]], device=device)),
              np.poly([[1.0, 2], [3, 4]])),
             (xp.roots([0, 1, -3, 2, 0, 0]), np.roots([0, 1, -3, 2, 0, 0])),
             (xp.roots([1, 0, 1]), np.roots([1, 0, 1])),
             (xp.roots([0, 0]), np.roots([0, 0]))]
    for i, (got, want) in enumerate(cases):
        assert_close(got, want, rtol=1e-12, atol=1e-15, what=str(i))
    for got, want in zip(xp.polydiv([1, 2, 3, 4], a[:2]), np.polydiv([1, 2, 3, 4], [1, 2])):
        assert_close(got, want, rtol=1e-14)
    for got, want in zip(xp.polydiv([1.0, -3, 2], [1.0, -1]), np.polydiv([1.0, -3, 2],
                                                                        [1.0, -1])):
        assert_close(got, want, rtol=1e-14)


def test_polynomial_class(device: str) -> None:
    Pn = np.polynomial.Polynomial

    def P(coef: Any, **kwargs: Any) -> Any:
        return xp.polynomial.Polynomial(xp.asarray(coef, device=device), **kwargs)

    p = P([1, 2, 3])
    pn = Pn([1, 2, 3])
    assert repr(p) == repr(pn) and str(p) == str(pn) and p.degree() == 2
    assert p.coef.device.name == device and p.coef.dtype == np.float64
    q, qn = P([1.0, 2], domain=[0, 1]), Pn([1.0, 2], domain=[0, 1])
    x = xp.asarray([0.0, 0.5, 2.0], device=device)
    assert_close(p(x), pn(np.array([0.0, 0.5, 2.0])))
    assert_close(q(0.5), np.asarray(qn(0.5)))
    fit = xp.polynomial.Polynomial.fit(xp.asarray([0.0, 1, 2, 3], device=device),
                                       [1, 3, 5, 8], 2)
    cases = [(p + [1, 0, -3], pn + [1, 0, -3]), (p * 2, pn * 2), (p - p, pn - pn),
             (p // P([1, 1]), pn // Pn([1, 1])), (p % P([1, 1]), pn % Pn([1, 1])),
             (p ** 2, pn ** 2), (-p, -pn), (1 - p, 1 - pn), (p / 2, pn / 2),
             (p.deriv(), pn.deriv()), (p.integ(k=[1]), pn.integ(k=[1])),
             (q.integ(lbnd=1), qn.integ(lbnd=1)), (q.deriv(), qn.deriv()),
             (fit, Pn.fit([0, 1, 2, 3], [1, 3, 5, 8], 2)),
             (fit.convert(), Pn.fit([0, 1, 2, 3], [1, 3, 5, 8], 2).convert()),
             (xp.polynomial.Polynomial.fromroots(xp.asarray([1.0, 2, 3], device=device)),
              Pn.fromroots([1, 2, 3])),
             (p(P([0.0, 1, 1])), pn(Pn([0.0, 1, 1])))]
    for i, (got, want) in enumerate(cases):
        assert isinstance(got, xp.polynomial.Polynomial) and got.coef.device.name == device, i
        assert_close(got.coef, want.coef, rtol=1e-12, atol=1e-14, what=str(i))
        assert_close(got.domain, want.domain, rtol=1e-15, what=str(i))
    assert_close(p.roots(), pn.roots(), rtol=1e-12)
    assert_close(q.roots(), qn.roots(), rtol=1e-12)
    assert p == P([1.0, 2, 3]) and p != P([1.0, 2, 3], domain=[0, 1])
    with pytest.raises(TypeError):
        p + q
    with pytest.raises(TypeError):
        p / p


def test_polynomial_module_functions(device: str) -> None:
    pp, npp = xp.polynomial.polynomial, np.polynomial.polynomial
    c = xp.asarray([[1.0, 2], [3, 4]], device=device)
    assert_close(pp.polyval([1, 2], c), npp.polyval([1, 2], [[1.0, 2], [3, 4]]))
    assert_close(pp.polyval(c, c, tensor=False),
                 npp.polyval([[1.0, 2], [3, 4]], [[1.0, 2], [3, 4]], tensor=False))
    assert_close(pp.polyval(2, [1, 2]), np.asarray(npp.polyval(2, [1, 2])))
    base = [[1, 2], [3, 4], [5, 6]]
    assert_close(pp.polyder(base, 2, 3), npp.polyder(base, 2, 3))
    assert_close(pp.polyint(base, 2, [1, 2], lbnd=2, scl=3, axis=1),
                 npp.polyint(base, 2, [1, 2], lbnd=2, scl=3, axis=1))
    assert_close(pp.polyint([0.0]), npp.polyint([0.0]))
    assert_close(pp.polyroots([2, -3, 1]), npp.polyroots([2, -3, 1]), rtol=1e-14)
    assert_close(pp.polyroots([1, 0, 1]), npp.polyroots([1, 0, 1]), rtol=1e-14, atol=1e-15)
    for got, want in zip(pp.polydiv([1, 2, 3], [1, 1]), npp.polydiv([1, 2, 3], [1, 1])):
        assert_close(got, want)
    x, y = [0, 1, 2, 3, 4], [1, 3, 5, 8, 1]
    assert_close(pp.polyfit(x, y, [0, 2]), npp.polyfit(x, y, [0, 2]), rtol=1e-12)
    assert_close(pp.polyfit(x, y, 2), npp.polyfit(x, y, 2), rtol=1e-12)
    assert_close(pp.polyvander([1.0, 2, 3], 3), npp.polyvander([1.0, 2, 3], 3))
    assert_close(pp.polyadd([1, 2, 0], [1]), npp.polyadd([1, 2, 0], [1]))
    assert_close(pp.polymul([1, 2], [1, -2]), npp.polymul([1, 2], [1, -2]))
    assert_close(pp.polyfromroots([1, 2, 3]), npp.polyfromroots([1, 2, 3]))


# -- linalg -----------------------------------------------------------------------------------
X3 = np.random.default_rng(5).standard_normal((2, 3, 4))


@pytest.mark.parametrize("ord", [None, 1, -1, 2, -2, np.inf, -np.inf, 0, 3, -0.5])
def test_norm_of_vectors(device: str, ord: Any) -> None:
    x = Input(X3, [])
    for axis, keepdims in ((0, False), (-1, True)):
        check_against_numpy(device, partial(linalg.norm, ord=ord, axis=axis, keepdims=keepdims),
                            partial(np.linalg.norm, ord=ord, axis=axis, keepdims=keepdims), [x],
                            rtol=1e-14)
    if ord not in (0, 3, -0.5):
        check_against_numpy(device, partial(linalg.norm, ord=ord), partial(np.linalg.norm,
                                                                           ord=ord),
                            [Input(X3[0, 0], [])], rtol=1e-14)


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
def test_norm_of_matrices(device: str, ord: Any) -> None:
    x = Input(X3, [])
    for axis, keepdims in (((2, 0), False), ((-1, -2), True)):
        check_against_numpy(device, partial(linalg.norm, ord=ord, axis=axis, keepdims=keepdims),
                            partial(np.linalg.norm, ord=ord, axis=axis, keepdims=keepdims), [x],
                            rtol=1e-13)
    check_against_numpy(device, partial(linalg.norm, ord=ord), partial(np.linalg.norm, ord=ord),
                        [Input(X3[0] + 1j * X3[1], [])], rtol=1e-13)


def test_norm_defaults_and_errors(device: str) -> None:
    x = Input(X3, [])
    check_against_numpy(device, linalg.norm, np.linalg.norm, [x], rtol=1e-14)
    check_against_numpy(device, partial(linalg.norm, keepdims=True),
                        partial(np.linalg.norm, keepdims=True), [x], rtol=1e-14)
    assert_close(linalg.norm([3, 4]), np.asarray(np.linalg.norm([3, 4])))
    a = xp.asarray(X3, device=device)
    for call in (lambda: linalg.norm(a, 2), lambda: linalg.norm(a, "fro", 0),
                 lambda: linalg.norm(a, 3, (0, 1)), lambda: linalg.norm(a, None, (0, 0)),
                 lambda: linalg.norm(a, None, (0, 1, 2))):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(TypeError):
        linalg.norm(a, None, 1.5)


def test_lstsq(device: str) -> None:
    rng = np.random.default_rng(6)
    a = Input(rng.standard_normal((5, 3)), [])
    b = Input(rng.standard_normal(5), [])
    two = Input(rng.standard_normal((5, 2)), [])
    _compare(device, linalg.lstsq, np.linalg.lstsq, [a, b], rtol=1e-10)
    _compare(device, partial(linalg.lstsq, rcond=None), partial(np.linalg.lstsq, rcond=None),
             [a, two], rtol=1e-10)
    singular = Input(np.ones((3, 2)), [])
    _compare(device, linalg.lstsq, np.linalg.lstsq, [singular, Input(two.np[:3], [])],
             rtol=1e-10, atol=1e-14)
    _compare(device, linalg.lstsq, np.linalg.lstsq,
             [Input(a.np.T.astype(np.float32), []), Input(b.np[:3].astype(np.float32), [])],
             rtol=1e-4)
    _compare(device, linalg.lstsq, np.linalg.lstsq,
             [Input(a.np + 1j * a.np[::-1], []), Input(b.np + 0j, [])], rtol=1e-10)
    _compare(device, linalg.lstsq, np.linalg.lstsq,
             [Input(np.array([[1, 0], [1, 1], [1, 2]]), []), Input(np.array([1, 2, 2]), [])],
             rtol=1e-12)
    with pytest.raises(np.linalg.LinAlgError):
        linalg.lstsq(xp.ones(3, device=device), xp.ones(3, device=device))
    with pytest.raises(np.linalg.LinAlgError):
        linalg.lstsq(xp.ones((3, 2), device=device), xp.ones(4, device=device))


def test_multi_dot(device: str) -> None:
    rng = np.random.default_rng(7)
    mats = [Input(rng.standard_normal(s), []) for s in ((6, 40), (40, 3), (3, 20), (20, 2))]
    check_against_numpy(device, lambda *m: linalg.multi_dot(m), lambda *m: np.linalg.multi_dot(m),
                        mats, rtol=1e-12)
    vec_first = Input(mats[0].np[0], [])
    vec_last = Input(mats[2].np[:, 0], [])
    check_against_numpy(device, lambda *m: linalg.multi_dot(list(m)),
                        lambda *m: np.linalg.multi_dot(list(m)),
                        [vec_first, mats[1], vec_last], rtol=1e-12)
    check_against_numpy(device, lambda p, q: linalg.multi_dot([p, q]),
                        lambda p, q: np.linalg.multi_dot([p, q]), mats[:2], rtol=1e-12)
    from zyxarray._api._linalg_functions import _chain_order
    # (10x100)(100x5)(5x50): (AB)C costs 7500 multiplications, A(BC) 75000
    assert _chain_order([10, 100, 5, 50])[0][2] == 1
    with pytest.raises(ValueError):
        linalg.multi_dot([xp.ones((2, 2), device=device)])
    with pytest.raises(np.linalg.LinAlgError):
        linalg.multi_dot([xp.ones((2, 2), device=device), xp.ones((2, 2, 2), device=device),
                          xp.ones(2, device=device)])


def test_numpy_keywords_of_decompositions(device: str) -> None:
    rng = np.random.default_rng(8)
    h = rng.standard_normal((3, 3))
    h = h + h.T
    h[0, 0] = 0.0
    hc = h + 1j * np.triu(h, 1) - 1j * np.tril(h, -1)
    for m in (h, hc):
        x = Input(m, [])
        check_against_numpy(device, linalg.pinv, np.linalg.pinv, [x], rtol=1e-10)
        check_against_numpy(device, partial(linalg.pinv, hermitian=True),
                            partial(np.linalg.pinv, hermitian=True), [x], rtol=1e-10)
        check_against_numpy(device, lambda a: linalg.pinv(a, 0.5), lambda a: np.linalg.pinv(a, 0.5),
                            [x], rtol=1e-10)
        check_against_numpy(device, partial(linalg.pinv, rtol=None),
                            partial(np.linalg.pinv, rtol=None), [x], rtol=1e-10)
        check_against_numpy(device, partial(linalg.svd, compute_uv=False),
                            partial(np.linalg.svd, compute_uv=False), [x], rtol=1e-12)
        check_against_numpy(device, partial(linalg.svd, compute_uv=False, hermitian=True),
                            partial(np.linalg.svd, compute_uv=False, hermitian=True), [x],
                            rtol=1e-12)
        u, s, vh = linalg.svd(xp.asarray(m, device=device), hermitian=True)
        assert_close(s, np.linalg.svd(m, hermitian=True)[1], rtol=1e-12)
        assert_close(xp.matmul(u * s[None, :], vh), m, rtol=1e-12, atol=1e-12)
        check_against_numpy(device, partial(linalg.matrix_rank, hermitian=True),
                            partial(np.linalg.matrix_rank, hermitian=True), [x])
        check_against_numpy(device, lambda a: linalg.matrix_rank(a, 1.0),
                            lambda a: np.linalg.matrix_rank(a, 1.0), [x])
        check_against_numpy(device, partial(linalg.matrix_rank, rtol=0.3),
                            partial(np.linalg.matrix_rank, rtol=0.3), [x])
        upper = np.triu(m) + np.triu(m, 1).conj().T + 5 * np.tril(np.ones((3, 3)), -1)
        check_against_numpy(device, lambda a: linalg.eigh(a, UPLO="U")[0],
                            lambda a: np.linalg.eigh(a, UPLO="U")[0], [Input(upper, [])],
                            rtol=1e-12)
        check_against_numpy(device, lambda a: linalg.eigvalsh(a, "U"),
                            lambda a: np.linalg.eigvalsh(a, "U"), [Input(upper, [])],
                            rtol=1e-12)
    check_against_numpy(device, lambda a, t: linalg.matrix_rank(a, t),
                        lambda a, t: np.linalg.matrix_rank(a, t),
                        [Input(np.stack([h, h]), []), Input(np.array([0.1, 100.0]), [])])
    assert_close(linalg.matrix_rank([0.0, 1]), np.asarray(np.linalg.matrix_rank([0.0, 1])))
    assert_close(linalg.matrix_rank([0.0, 0]), np.asarray(np.linalg.matrix_rank([0.0, 0])))
    with pytest.raises(ValueError):
        linalg.pinv(xp.asarray(h, device=device), 0.5, rtol=0.5)
    with pytest.raises(ValueError):
        linalg.eigh(xp.asarray(h, device=device), UPLO="X")


def test_linalg_takes_array_likes(device: str) -> None:
    m = [[1.0, 2.0], [3.0, 4.0]]
    assert_close(linalg.det(m), np.asarray(np.linalg.det(m)), rtol=1e-14)
    assert_close(linalg.inv(np.array(m)), np.linalg.inv(m), rtol=1e-14)
    assert_close(linalg.solve(m, [1.0, 2.0]), np.linalg.solve(m, [1.0, 2.0]), rtol=1e-14)
    a = xp.asarray(m, device=device)
    x = linalg.solve(a, [1.0, 2.0])          # host data joins the array's device
    assert x.device.name == device
    assert_close(x, np.linalg.solve(m, [1.0, 2.0]), rtol=1e-14)
    assert_close(linalg.qr(m).R, np.linalg.qr(m).R, rtol=1e-14)
    assert_close(linalg.svd(m).S, np.linalg.svd(m).S, rtol=1e-14)
    assert_close(linalg.cross([1.0, 0, 0], [0.0, 1, 0]), np.cross([1.0, 0, 0], [0.0, 1, 0]))
    with pytest.raises(TypeError):
        linalg.det("not a matrix")


def test_results_stay_on_the_device(device: str) -> None:
    a = xp.asarray([1.0, 2.0, 4.0], device=device)
    for result in (xp.convolve(a, [1.0, 1.0]), xp.interp([1.5], a, a), xp.gradient(a),
                   xp.trapezoid(a), xp.kron(a, [1.0, 2.0]), xp.outer(a, [1.0]),
                   xp.vdot(a, [1.0, 1.0, 1.0]), xp.cov(a), xp.fmod(a, 3), xp.polyval([1, 2], a),
                   linalg.norm(a), xp.polyfit(a, a, 1)):
        assert result.device.name == device
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        xp.frexp(a)


def test_ufunc_at_applies_once_per_occurrence(device: str) -> None:
    """``add.at`` and ``subtract.at`` (on the device), and the other functions' ``at``
    (through the host), in place, a repeated index counted each time, as NumPy's."""
    cases = [
        ("add", np.zeros(5), [0, 2, 2, 4, 2], 1.0),
        ("add", np.arange(12.0).reshape(3, 4), (slice(None), [0, 0, 3]),
         np.array([[1.0], [2.0], [3.0]])),
        ("add", np.zeros(4, np.int32), np.array([True, False, True, True]), 3),
        ("add", np.zeros((2, 3), np.float32), ([1, 1, 0], [2, 2, 2]), np.float32(0.5)),
        ("add", np.zeros(3, np.int64), [0, 0], 1.5),          # (int + float: cast each step)
        ("subtract", np.ones(4), [1, 1, 3], np.array([0.5, 0.25, 2.0])),
        ("multiply", np.full(3, 2.0), [0, 0, 2], 3.0),
        ("maximum", np.zeros(4), [1, 1, 2], np.array([5.0, 7.0, -1.0])),
    ]
    for name, base, idx, value in cases:
        want = base.copy()
        getattr(np, name).at(want, idx, value)
        a = xp.asarray(base, device=device)
        row = a[...]                                # (a view sees the write)
        dev_idx = tuple(xp.asarray(i, device=device) if isinstance(i, list) else i
                        for i in idx) if isinstance(idx, tuple) else idx
        assert getattr(xp, name).at(a, dev_idx, value) is None
        np.testing.assert_allclose(np.asarray(a), want, rtol=1e-6, err_msg=name)
        assert np.asarray(a).dtype == want.dtype
        np.testing.assert_allclose(np.asarray(row), want, rtol=1e-6)
    a = xp.asarray(np.arange(4), device=device)
    xp.negative.at(a, [0, 1, 1, 2])   # (1 twice: itself again)
    assert np.asarray(a).tolist() == [0, 1, -2, 3]
    with pytest.raises(TypeError, match=r"add\.at"):
        xp.add.at([1, 2], [0], 1)


def test_ufunc_reduce_accumulate_outer(device: str) -> None:
    x = np.arange(1.0, 13.0).reshape(3, 4)
    a = xp.asarray(x, device=device)
    for axis in (0, 1, None, (0, 1), -1):
        np.testing.assert_allclose(np.asarray(xp.add.reduce(a, axis=axis)),
                                   np.add.reduce(x, axis=axis))
    np.testing.assert_allclose(np.asarray(xp.multiply.reduce(a, axis=1, keepdims=True)),
                               np.multiply.reduce(x, axis=1, keepdims=True))
    np.testing.assert_allclose(np.asarray(xp.add.reduce(a, initial=10.0)),
                               np.add.reduce(x, initial=10.0))
    mask = x > 5
    np.testing.assert_allclose(np.asarray(xp.add.reduce(a, axis=0, where=mask)),
                               np.add.reduce(x, axis=0, where=mask))
    np.testing.assert_allclose(np.asarray(xp.maximum.reduce(a, axis=1, initial=9.0,
                                                            where=mask)),
                               np.maximum.reduce(x, axis=1, initial=9.0, where=mask))
    assert float(xp.maximum.reduce(xp.asarray(np.zeros(0), device=device), initial=-5.0)) \
        == -5.0
    with pytest.raises(ValueError, match="identity"):
        xp.maximum.reduce(a, where=mask)
    b = xp.asarray(x > 6, device=device)
    assert np.asarray(xp.logical_or.reduce(b, axis=0)).tolist() == \
        np.logical_or.reduce(x > 6, axis=0).tolist()
    with pytest.raises(TypeError, match=r"subtract\.reduce"):
        xp.subtract.reduce(a)
    np.testing.assert_allclose(np.asarray(xp.add.accumulate(a, axis=1)),
                               np.add.accumulate(x, axis=1))
    np.testing.assert_allclose(np.asarray(xp.multiply.accumulate(a)), np.multiply.accumulate(x))
    np.testing.assert_allclose(np.asarray(xp.subtract.outer(a[0], [1.0, 2.0])),
                               np.subtract.outer(x[0], [1.0, 2.0]))
    assert (xp.add.nin, xp.add.nout, xp.add.identity, xp.maximum.identity) == (2, 1, 0, None)
    assert xp.sqrt.nin == 1 and not hasattr(xp.sqrt, "reduce")


def test_running_extrema_accumulate(device: str) -> None:
    """``maximum.accumulate`` (a running peak: drawdowns, envelopes) and its kin are scans:
    NaN carries on from where it appears, as in NumPy; ints keep their dtype; the logical
    ones give bool; ``dtype`` casts first; complex values and 0-d inputs are refused."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((6, 40))
    x[2, 17] = np.nan
    a = xp.asarray(x, device=device)
    for name in ("maximum", "minimum"):
        for axis in (0, 1, -1):
            got = getattr(xp, name).accumulate(a, axis=axis)
            want = getattr(np, name).accumulate(x, axis=axis)
            np.testing.assert_array_equal(np.asarray(got), want)
    k = (x * 10).astype(np.int16)
    got = xp.maximum.accumulate(xp.asarray(k, device=device), axis=1)
    assert got.dtype == xp.int16
    np.testing.assert_array_equal(np.asarray(got), np.maximum.accumulate(k, axis=1))
    got = xp.minimum.accumulate(xp.asarray(k, device=device), dtype=np.float32)
    assert got.dtype == xp.float32
    np.testing.assert_array_equal(np.asarray(got), np.minimum.accumulate(k, dtype=np.float32))
    for name in ("logical_or", "logical_and"):
        got = getattr(xp, name).accumulate(xp.asarray(k, device=device), axis=1)
        assert got.dtype == xp.bool
        np.testing.assert_array_equal(np.asarray(got),
                                      getattr(np, name).accumulate(k, axis=1))
    one = xp.asarray(x[:, :1], device=device)
    peak = xp.maximum.accumulate(one, axis=1)
    peak[0, 0] = 100.0                      # (a new array: the input keeps its value)
    assert float(one[0, 0]) == x[0, 0]
    with pytest.raises(TypeError, match=r"maximum\.accumulate"):
        xp.maximum.accumulate(xp.asarray(np.array([1j, 2]), device=device))
    with pytest.raises(ValueError, match=r"minimum\.accumulate"):
        xp.minimum.accumulate(xp.asarray(1.0, device=device))
    with pytest.raises(TypeError, match=r"subtract\.accumulate"):
        xp.subtract.accumulate(a)


def test_ufunc_reduceat(device: str) -> None:
    """``add.reduceat(a, indices)`` and the other associative ufuncs': each slice between
    consecutive indices reduced, an index not followed by a larger one giving its element
    alone, the last slice to the end, along any axis; NaN kept by maximum/minimum; indices
    out of range refused naming the call."""
    h = np.arange(8.0)
    h[5] = np.nan
    a = xp.asarray(h, device=device)
    for name in ("add", "multiply", "maximum", "minimum"):
        for idx in ([0, 4, 6], [0, 4, 1, 7], [3], [0, 0, 5]):
            np.testing.assert_array_equal(np.asarray(getattr(xp, name).reduceat(a, idx)),
                                          getattr(np, name).reduceat(h, idx))
    m = np.arange(24).reshape(4, 6)
    x = xp.asarray(m, device=device)
    for name in ("add", "maximum", "minimum"):
        got = getattr(xp, name).reduceat(x, [0, 2, 5], axis=1)
        want = getattr(np, name).reduceat(m, [0, 2, 5], axis=1)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
        np.testing.assert_array_equal(np.asarray(getattr(xp, name).reduceat(x, [3, 1], axis=0)),
                                      getattr(np, name).reduceat(m, [3, 1], axis=0))
    b = m % 5 == 0
    for name in ("logical_or", "logical_and"):
        np.testing.assert_array_equal(
            np.asarray(getattr(xp, name).reduceat(xp.asarray(b, device=device), [0, 3], 1)),
            getattr(np, name).reduceat(b, [0, 3], axis=1))
    with pytest.raises(IndexError, match=r"add\.reduceat: index 8"):
        xp.add.reduceat(a, [0, 8])
    with pytest.raises(TypeError, match=r"subtract\.reduceat"):
        xp.subtract.reduceat(a, [0])


def test_numpy_cross(device: str) -> None:
    """NumPy's ``cross``: axes, broadcasting, 2-element vectors (zero z component)."""
    u = np.array([[1.0, 0, 0], [0, 1, 0], [2, 3, 4]])
    v = np.array([0.0, 0, 1])
    check_against_numpy(device, xp.cross, np.cross, [Input(u, []), Input(v, [])])
    e = np.eye(3)
    o = np.ones((3, 1))
    got = xp.cross(xp.asarray(e, device=device), xp.asarray(o, device=device), axisa=0,
                   axisb=0, axisc=0)
    np.testing.assert_array_equal(np.asarray(got), np.cross(e, o, axisa=0, axisb=0, axisc=0))
    np.testing.assert_array_equal(
        np.asarray(xp.cross(xp.asarray([1, 2], device=device), [3, 4, 5])), [10, -5, -2])
    with pytest.warns(DeprecationWarning):
        assert int(xp.cross(xp.asarray([1, 2], device=device), [3, 4])) == -2
    with pytest.raises(ValueError, match="cross"):
        xp.cross(xp.asarray([1, 2, 3, 4], device=device), [1, 2, 3])


def _same(name: str, got: Any, want: Any) -> None:
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), name
        for g, w in zip(got, want):
            _same(name, g, w)
        return
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape and g.dtype == w.dtype, (name, g.dtype, g.shape, w.dtype, w.shape)
    np.testing.assert_allclose(g, w, equal_nan=True, err_msg=name)


def test_more_numpy_elementwise_and_windows(device: str) -> None:
    """divmod, fmax/fmin (NaN ignored), rint, fix, bitwise_count, vander, the windows,
    piecewise, ediff1d, real_if_close, matvec/vecmat, fromfunction: NumPy's results."""
    from zyxarray._devices import registry
    x = np.array([1.0, -2.5, np.nan, 3.5, 0.5])
    y = np.array([np.nan, 1.0, np.nan, 4.0, -0.5])
    i = np.array([7, -7, 0, 5, -128], np.int8)
    X, Y, Int = (xp.asarray(v, device=device) for v in (x, y, i))
    _same("divmod", xp.divmod(xp.asarray([7, -7], device=device), 3),
          np.divmod(np.array([7, -7]), 3))
    _same("fmax", xp.fmax(X, Y), np.fmax(x, y))
    _same("fmin", xp.fmin(X, Y), np.fmin(x, y))
    _same("fmax int", xp.fmax(Int, 2), np.fmax(i, 2))
    _same("rint", xp.rint(X), np.rint(x))
    _same("fix", xp.fix(X), np.fix(x))
    _same("fix int", xp.fix(Int), np.fix(i))
    _same("bitwise_count", xp.bitwise_count(Int), np.bitwise_count(i))
    u = np.array([0, 1, 2**64 - 1, 2**63], np.uint64)
    _same("bitwise_count u64", xp.bitwise_count(xp.asarray(u, device=device)),
          np.bitwise_count(u))
    _same("vander", xp.vander(xp.asarray([1, 2, 3], device=device)),
          np.vander(np.array([1, 2, 3])))
    _same("vander inc", xp.vander(X[:3], 4, increasing=True), np.vander(x[:3], 4, increasing=True))
    xx = np.array([-1.0, 0, 2, 5])
    XX = xp.asarray(xx, device=device)
    _same("piecewise", xp.piecewise(XX, [XX < 0, XX >= 2], [lambda v: -v, lambda v: v * 2, 7]),
          np.piecewise(xx, [xx < 0, xx >= 2], [lambda v: -v, lambda v: v * 2, 7]))
    _same("ediff1d", xp.ediff1d(xp.asarray([1, 2, 4], device=device), to_begin=0,
                                to_end=[9, 9]),
          np.ediff1d([1, 2, 4], to_begin=0, to_end=[9, 9]))
    for z in (np.array([1 + 1e-16j, 2]), np.array([1 + 1e-3j, 2])):
        _same("real_if_close", xp.real_if_close(xp.asarray(z, device=device)),
              np.real_if_close(z))
    A = np.arange(6.0).reshape(2, 3)
    _same("matvec", xp.matvec(xp.asarray(A, device=device), [1.0, 2, 3]),
          np.matvec(A, np.array([1.0, 2, 3])))
    _same("vecmat", xp.vecmat(xp.asarray([1.0, 2], device=device), xp.asarray(A, device=device)),
          np.vecmat(np.array([1.0, 2]), A))
    registry.set_default(device)
    try:
        for w in ("hanning", "hamming", "blackman", "bartlett"):
            for M in (0, 1, 2, 7):
                _same(f"{w}({M})", getattr(xp, w)(M), getattr(np, w)(M))
        _same("fromfunction", xp.fromfunction(lambda a, b: a + 2 * b, (2, 3)),
              np.fromfunction(lambda a, b: a + 2 * b, (2, 3)))
        _same("fromfunction int", xp.fromfunction(lambda a, b: a * b, (2, 2), dtype=int),
              np.fromfunction(lambda a, b: a * b, (2, 2), dtype=int))
    finally:
        registry.set_default(None)
    with pytest.raises(TypeError, match="bitwise_count"):
        xp.bitwise_count(X)


def test_unwrap_and_ndenumerate(device: str) -> None:
    p = np.array([0, 3, 6.5, 0.2, 3.5, -3, 1])
    cases = [((p,), {}), ((np.arange(8),), {"period": 4}),
             ((np.array([[0, 6.2], [1, 7]]),), {"axis": 0}), ((p,), {"discont": 4.0}),
             ((np.array([0, 5, 10, 2, 3], np.int32),), {"period": 6})]
    for args, kw in cases:
        _same(f"unwrap {kw}", xp.unwrap(*(xp.asarray(a, device=device) for a in args), **kw),
              np.unwrap(*args, **kw))
    a = np.array([[1, 2], [3, 4]])
    assert list(xp.ndenumerate(xp.asarray(a, device=device))) == list(np.ndenumerate(a))
