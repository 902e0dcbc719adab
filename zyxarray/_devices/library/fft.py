"""Host discrete Fourier transforms: NumPy's pocketfft (numpy.fft).

Layer: ``_devices``. Imports nothing above it.

NumPy 2 keeps single precision (complex64 in, complex64 out; float32 in, complex64 out for
rfft). The 1-D transforms write into ``out`` directly; the n-D ones cannot (NumPy passes
``out`` to each axis' transform in turn, which fails when ``s`` changes a size) and hfft
ignores its ``out``, so those are assigned. The API layer has resolved every size and axis:
``n`` and ``s`` are explicit, axes are non-negative, ``norm`` is one of the three modes.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from . import host_impl

Norm = Literal["backward", "ortho", "forward"]


@host_impl("fft")
def fft(x: np.ndarray, *, out: np.ndarray, n: int, axis: int, norm: Norm) -> None:
    if out.size:
        np.fft.fft(x, n=n, axis=axis, norm=norm, out=out)


@host_impl("ifft")
def ifft(x: np.ndarray, *, out: np.ndarray, n: int, axis: int, norm: Norm) -> None:
    if out.size:
        np.fft.ifft(x, n=n, axis=axis, norm=norm, out=out)


@host_impl("rfft")
def rfft(x: np.ndarray, *, out: np.ndarray, n: int, axis: int, norm: Norm) -> None:
    if out.size:
        np.fft.rfft(x, n=n, axis=axis, norm=norm, out=out)


@host_impl("irfft")
def irfft(x: np.ndarray, *, out: np.ndarray, n: int, axis: int, norm: Norm) -> None:
    if out.size:
        np.fft.irfft(x, n=n, axis=axis, norm=norm, out=out)


@host_impl("hfft")
def hfft(x: np.ndarray, *, out: np.ndarray, n: int, axis: int, norm: Norm) -> None:
    if out.size:
        # NumPy 2.x's hfft ignores its ``out`` argument (it returns a new array)
        out[...] = np.fft.hfft(x, n=n, axis=axis, norm=norm)


@host_impl("ihfft")
def ihfft(x: np.ndarray, *, out: np.ndarray, n: int, axis: int, norm: Norm) -> None:
    if out.size:
        np.fft.ihfft(x, n=n, axis=axis, norm=norm, out=out)


@host_impl("fftn")
def fftn(x: np.ndarray, *, out: np.ndarray, s: tuple[int, ...], axes: tuple[int, ...],
         norm: Norm) -> None:
    if out.size:
        out[...] = np.fft.fftn(x, s=s, axes=axes, norm=norm)


@host_impl("ifftn")
def ifftn(x: np.ndarray, *, out: np.ndarray, s: tuple[int, ...], axes: tuple[int, ...],
          norm: Norm) -> None:
    if out.size:
        out[...] = np.fft.ifftn(x, s=s, axes=axes, norm=norm)


@host_impl("rfftn")
def rfftn(x: np.ndarray, *, out: np.ndarray, s: tuple[int, ...], axes: tuple[int, ...],
          norm: Norm) -> None:
    if out.size:
        out[...] = np.fft.rfftn(x, s=s, axes=axes, norm=norm)


@host_impl("irfftn")
def irfftn(x: np.ndarray, *, out: np.ndarray, s: tuple[int, ...], axes: tuple[int, ...],
           norm: Norm) -> None:
    if out.size:
        out[...] = np.fft.irfftn(x, s=s, axes=axes, norm=norm)
