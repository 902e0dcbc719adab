"""The fft extension against numpy.fft: values, dtypes (precision is kept), shapes for every
n/s/axes/norm case, and the errors raised, on every device (and on the reference device).

The transforms are library calls (no compile); fftfreq, rfftfreq and the shifts compile a
few small kernels.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import Input, assert_close, check_against_numpy
from zyxarray import fft

NORMS = ("backward", "ortho", "forward")


def _tol(dtype: str) -> float:
    return 1e-5 if dtype in ("float32", "complex64") else 1e-12


def _signal(shape: tuple[int, ...], dtype: str) -> Input:
    """Random values, viewed through a transpose (not contiguous)."""
    rng = np.random.default_rng(0)
    base = rng.standard_normal(shape[::-1])
    if np.dtype(dtype).kind == "c":
        base = base + 1j * rng.standard_normal(shape[::-1])
    return Input(base.astype(dtype), [("permute", tuple(reversed(range(len(shape)))))])


@pytest.mark.parametrize("dtype", ("complex64", "complex128"))
def test_complex_transforms(device: str, dtype: str) -> None:
    x = _signal((3, 8), dtype)
    tol = _tol(dtype)
    for name in ("fft", "ifft"):
        for n, axis, norm in ((None, -1, "backward"), (5, 0, "ortho"), (11, 1, "forward")):
            kw = {"n": n, "axis": axis, "norm": norm}
            check_against_numpy(device, partial(getattr(fft, name), **kw),
                                partial(getattr(np.fft, name), **kw), [x], rtol=tol, atol=tol)
    for name in ("fftn", "ifftn"):
        for s, axes, norm in ((None, None, "backward"), ((4, 2), (1, 0), "ortho"),
                              ((-1,), (-2,), "forward")):
            np_s = None if s is None or axes is None else \
                tuple(x.np.shape[a] if v == -1 else v for v, a in zip(s, axes))
            check_against_numpy(device, partial(getattr(fft, name), s=s, axes=axes, norm=norm),
                                partial(getattr(np.fft, name), s=np_s, axes=axes, norm=norm),
                                [x], rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ("float32", "float64"))
def test_real_transforms(device: str, dtype: str) -> None:
    x = _signal((3, 8), dtype)
    c = "complex64" if dtype == "float32" else "complex128"
    spectrum = _signal((3, 5), c)
    tol = _tol(dtype)
    for n, axis, norm in ((None, -1, "backward"), (5, 0, "ortho"), (9, 1, "forward")):
        for name, arg in (("rfft", x), ("ihfft", x), ("irfft", spectrum), ("hfft", spectrum)):
            kw = {"n": n, "axis": axis, "norm": norm}
            expected = check_against_numpy(device, partial(getattr(fft, name), **kw),
                                           partial(getattr(np.fft, name), **kw), [arg],
                                           rtol=tol, atol=100 * tol)
            assert expected.dtype == (c if name in ("rfft", "ihfft") else dtype)
    for s, axes in ((None, None), ((4, 6), (0, 1)), ((7,), (0,))):
        check_against_numpy(device, partial(fft.rfftn, s=s, axes=axes),
                            partial(np.fft.rfftn, s=s, axes=axes), [x], rtol=tol,
                            atol=100 * tol)
        check_against_numpy(device, partial(fft.irfftn, s=s, axes=axes),
                            partial(np.fft.irfftn, s=s, axes=axes), [spectrum],
                            rtol=tol, atol=100 * tol)


def test_round_trips(device: str) -> None:
    x = xp.asarray(np.arange(12.0).reshape(3, 4), device=device)
    for norm in NORMS:
        assert_close(fft.irfft(fft.rfft(x, norm=norm), n=4, norm=norm), np.asarray(x),
                     rtol=1e-12, atol=1e-12)
        back = fft.ifftn(fft.fftn(x, norm=norm), norm=norm)
        assert back.dtype == xp.complex128
        assert_close(back, np.asarray(x).astype(np.complex128), rtol=1e-12, atol=1e-12)


def test_real_input_to_complex_transforms(device: str) -> None:
    # Note: NumPy's behaviour (the standard asks for complex input): float32 -> complex64
    x = Input(np.linspace(0, 1, 6, dtype=np.float32), [])
    check_against_numpy(device, fft.fft, np.fft.fft, [x], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("n", [6, 7])
def test_frequencies(device: str, n: int) -> None:
    for d, dtype in ((1.0, None), (0.25, "float32")):
        want = None if dtype is None else np.dtype(dtype)
        got = fft.fftfreq(n, d=d, dtype=dtype, device=device)
        assert got.device.name == device
        assert_close(got, np.fft.fftfreq(n, d=d).astype(want or np.float64), rtol=1e-15)
        got = fft.rfftfreq(n, d=d, dtype=dtype, device=device)
        assert_close(got, np.fft.rfftfreq(n, d=d).astype(want or np.float64), rtol=1e-15)


def test_shifts(device: str) -> None:
    x = Input(np.arange(35.0).reshape(5, 7), [])
    for axes in (None, 0, (1,), (-1, 0)):
        check_against_numpy(device, partial(fft.fftshift, axes=axes),
                            partial(np.fft.fftshift, axes=axes), [x])
        check_against_numpy(device, partial(fft.ifftshift, axes=axes),
                            partial(np.fft.ifftshift, axes=axes), [x])


def test_errors(device: str) -> None:
    c = xp.asarray(np.ones((2, 4), np.complex128), device=device)
    r = xp.asarray(np.ones((2, 4)), device=device)
    i = xp.asarray(np.ones(4, np.int64), device=device)
    for fn in (fft.fft, fft.ifft, fft.fftn, fft.irfft, fft.hfft, fft.rfft, fft.ihfft,
               fft.rfftn):
        with pytest.raises(TypeError, match=fn.__name__):
            fn(i)
    for fn in (fft.rfft, fft.ihfft, fft.rfftn):
        with pytest.raises(TypeError, match=fn.__name__):
            fn(c)
    with pytest.raises(ValueError, match="fft"):
        fft.fft(c, n=0)
    with pytest.raises(ValueError, match="fft"):
        fft.fft(c, axis=2)
    with pytest.raises(ValueError, match="ifft"):
        fft.ifft(c, norm="none")
    with pytest.raises(ValueError, match="fftn"):
        fft.fftn(c, s=(2, 2))                          # s needs axes
    with pytest.raises(ValueError, match="rfftn"):
        fft.rfftn(r, s=(2,), axes=(0, 1))
    with pytest.raises(ValueError, match="irfft"):
        fft.irfft(xp.asarray(np.ones(1, np.complex128), device=device))   # n = 2 * (1 - 1)
    with pytest.raises(ValueError, match="fftfreq"):
        fft.fftfreq(0, device=device)
    with pytest.raises(TypeError, match="rfftfreq"):
        fft.rfftfreq(4, dtype=xp.int32, device=device)
