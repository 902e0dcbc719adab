"""float16 on every device (issue 13, item 1): 16 bits in memory, computed in float32 and
rounded to float16 after each operation (``cstyle.HALF``), reductions accumulated in float32
and rounded once, as NumPy's float16 loops and pairwise sums do.

The conversions are checked bit for bit against NumPy's on every float16 value (through a
device cast of each one to float64 and back) and on doubles of every magnitude, including the
ties, the subnormal range and the overflow threshold; arithmetic, math functions, reductions,
promotion and files against NumPy.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close

_EVERY_HALF = np.arange(65536, dtype=np.uint16).view(np.float16)


def _doubles() -> np.ndarray:
    rng = np.random.default_rng(16)
    wild = rng.standard_normal(20_000) * 10.0 ** rng.integers(-9, 6, 20_000)
    halves = _EVERY_HALF[np.isfinite(_EVERY_HALF)].astype(np.float64)
    # the midpoints between neighbouring float16 values: ties go to even
    mids = (halves[:-1] + np.diff(halves) / 2)[::7]
    edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, 65519.99, 65520.0, 65536.0,
                      1e-8, 2.9802322387695312e-08, 5.96e-08, 6.1e-05, 6.103515625e-05, 1 / 3])
    return np.concatenate([wild, mids, edges])


def _same_bits(got: np.ndarray, want: np.ndarray) -> None:
    got, want = np.asarray(got, np.float16), np.asarray(want, np.float16)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    bad = got.view(np.uint16)[~nan] != want.view(np.uint16)[~nan]
    assert not bad.any(), f"{bad.sum()} values differ, e.g. {want[~nan][bad][:5]}"


def test_every_float16_round_trips(device: str) -> None:
    x = xp.asarray(_EVERY_HALF, device=device)
    _same_bits(xp.astype(xp.astype(x, xp.float64), xp.float16), _EVERY_HALF)
    _same_bits(xp.astype(xp.astype(x, xp.float32), xp.float16), _EVERY_HALF)
    assert_close(xp.astype(x, xp.float64), _EVERY_HALF.astype(np.float64))


def test_rounding_from_doubles_is_numpy_s(device: str) -> None:
    d = _doubles()
    with np.errstate(over="ignore"):
        want = d.astype(np.float16)
    _same_bits(xp.astype(xp.asarray(d, device=device), xp.float16), want)
    f = d.astype(np.float32)
    with np.errstate(over="ignore"):
        _same_bits(xp.astype(xp.asarray(f, device=device), xp.float16), f.astype(np.float16))
    ints = np.arange(-70_000, 70_000, 37, dtype=np.int64)
    with np.errstate(over="ignore"):
        _same_bits(xp.astype(xp.asarray(ints, device=device), xp.float16),
                   ints.astype(np.float16))


def test_each_operation_rounds_as_numpy_does(device: str) -> None:
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(500) * 30).astype(np.float16)
    b = (rng.standard_normal(500) * 3).astype(np.float16)
    x, y = xp.asarray(a, device=device), xp.asarray(b, device=device)
    with np.errstate(all="ignore"):
        _same_bits(x * y + x, a * b + a)            # (two roundings, as NumPy's two loops)
        _same_bits(x / y - 1.5, a / b - np.float16(1.5))
        _same_bits(xp.sqrt(xp.abs(x)), np.sqrt(np.abs(a)))
        _same_bits(xp.where(x > y, x, -y), np.where(a > b, a, -b))
        _same_bits(xp.maximum(x, y), np.maximum(a, b))
        _same_bits(x * 3000.0, a * np.float16(3000.0))      # (overflows to inf)
    # math functions: float32's, rounded (NumPy's are too, from another libm: 1 ulp)
    assert_close(xp.exp(x / 10), np.exp(a / np.float16(10)), rtol=1e-3)
    assert_close(xp.sin(x), np.sin(a), rtol=1e-3, atol=1e-3)


def test_reductions_accumulate_in_float32(device: str) -> None:
    a = np.full(5000, 0.1, np.float16)       # a float16 accumulator would stall at 256
    x = xp.asarray(a, device=device)
    s = xp.sum(x)
    assert s.dtype == xp.float16
    assert float(s) == pytest.approx(float(np.sum(a)), rel=1e-3)
    assert float(xp.mean(x)) == pytest.approx(float(np.mean(a)), rel=1e-3)
    m = xp.asarray(np.arange(-20, 20, dtype=np.float16).reshape(4, 10), device=device)
    _same_bits(xp.max(m, axis=1), np.max(np.arange(-20, 20, dtype=np.float16).reshape(4, 10),
                                         axis=1))


def test_promotion_is_numpy_s() -> None:
    h = xp.float16
    assert xp.result_type(h, xp.float32) == xp.float32
    assert xp.result_type(h, xp.int8) == xp.float16
    assert xp.result_type(h, xp.uint8) == xp.float16
    assert xp.result_type(h, xp.int16) == xp.float32
    assert xp.result_type(h, xp.complex64) == xp.complex64
    x = xp.ones(3, dtype=h)
    assert (x + 1.5).dtype == h and (x + 1).dtype == h and (x + 1j).dtype == xp.complex64
    assert xp.isdtype(h, "real floating") and h not in xp.__array_namespace_info__().dtypes(
    ).values()
    assert xp.finfo(h).eps == float(np.finfo(np.float16).eps)
    assert repr(xp.asarray(np.array([1.5, 2], np.float16))) == \
        "array([1.5, 2. ], dtype=float16)"


def test_files_and_numpy_interop(device: str) -> None:
    a = np.linspace(-2, 2, 9).astype(np.float16)
    buf = io.BytesIO()
    xp.save(buf, xp.asarray(a, device=device))
    buf.seek(0)
    back = np.load(buf)
    assert back.dtype == np.float16 and np.array_equal(back, a)
    buf.seek(0)
    loaded = xp.load(buf, device=device)
    assert loaded.dtype == xp.float16
    _same_bits(loaded, a)
    assert float(xp.asarray(a, device=device)[3]) == float(a[3])


def test_ffts_of_float16_have_numpy_s_dtypes(device: str) -> None:
    h = np.linspace(0, 1, 6).astype(np.float16)
    x = xp.asarray(h, device=device)
    for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "rfftn", "irfftn"):
        got, want = getattr(xp.fft, name)(x), getattr(np.fft, name)(h)
        assert got.dtype == want.dtype, name
        assert_close(got, want, rtol=2e-2, atol=2e-2)
