"""The standard's ``fft`` extension (zyxarray.fft).

Layer: ``_api``. Builds graph nodes; never touches a device.

The transforms are ``LIBRARY`` nodes (pocketfft through NumPy on host memory,
``_devices/library/fft.py``); this module resolves their sizes, axes and result dtypes
(precision is kept: complex64 in, complex64 out; float32 in, complex64 out for rfft).
fftfreq and rfftfreq are index arithmetic (no memory until a kernel stores them);
fftshift and ifftshift are rolls (a view and a select per axis).

# Note: fft, ifft, fftn, ifftn, irfft, irfftn and hfft also accept real floating-point
# input (as NumPy does), transformed as the complex array of the same precision; the
# standard asks for complex input. Integer and boolean input raise TypeError.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from .._codegen.ir import Op
from .._devices import registry
from .._lazy import graph as g
from . import _dtypes as dt
from ._array_object import Array
from ._elementwise_functions import broadcast_node, default_float
from ._manipulation_functions import normalize_axis, roll

Norm = Literal["backward", "ortho", "forward"]
_NORMS = ("backward", "ortho", "forward")


# -- shared helpers ---------------------------------------------------------------------------
def _array(name: str, x: Any) -> Array:
    if not isinstance(x, Array):
        raise TypeError(f"{name}: expected an array, got {type(x).__name__}")
    return x


def _complex_input(name: str, x: Any) -> tuple[g.Node, dt.DType]:
    """(``x`` as a complex node, its dtype): real floating-point input is widened to the
    complex dtype of its precision."""
    x = _array(name, x)
    if x.dtype in dt.COMPLEX_FLOATING:
        return x._node, x.dtype
    if x.dtype in dt.REAL_FLOATING:
        c = _complex_of(x.dtype)
        return g.cast(x._node, c.np), c
    raise TypeError(f"{name}: expected a complex floating-point dtype, got {x.dtype.name}")


def _real_input(name: str, x: Any) -> tuple[g.Node, dt.DType]:
    x = _array(name, x)
    if x.dtype not in dt.REAL_FLOATING:
        raise TypeError(f"{name}: expected a real floating-point dtype, got {x.dtype.name}")
    return x._node, x.dtype


def _complex_of(d: dt.DType) -> dt.DType:
    return dt.complex64 if d in (dt.float16, dt.float32, dt.complex64) else dt.complex128


def _half_like(x: Any, out: Array) -> Array:
    """A real result computed in float32 for float16 input, as float16 (NumPy's dtype)."""
    if isinstance(x, Array) and x.dtype is dt.float16:
        return Array._new(g.cast(out._node, np.float16))
    return out


def _real_of(d: dt.DType) -> dt.DType:
    return dt.float32 if d in (dt.float32, dt.complex64) else dt.float64


def _norm(name: str, norm: Any) -> str:
    if norm not in _NORMS:
        raise ValueError(f"{name}: norm must be 'backward', 'ortho' or 'forward', got {norm!r}")
    return norm


def _points(name: str, n: Any, what: str = "n") -> int:
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"{name}: {what} must be an integer, got {type(n).__name__}") from None
    if n < 1:
        raise ValueError(f"{name}: invalid number of data points {what}={n} (must be >= 1)")
    return n


def _one_axis(name: str, x: g.Node, n: int, axis: int, norm: str, out_dtype: dt.DType,
              out_len: int) -> Array:
    """A 1-D transform's LIBRARY node: ``out_len`` elements along ``axis`` in the result."""
    shape = x.shape[:axis] + (out_len,) + x.shape[axis + 1:]
    node = g.library(name, (x,), {"n": n, "axis": axis, "norm": norm}, out_dtype.np, shape)
    return Array._new(node)


def _axes_and_sizes(name: str, x: g.Node, s: Sequence[int] | None,
                    axes: Sequence[int] | None,
                    last_default: Callable[[int], int] | None = None
                    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(axes, s) resolved: axes None means all axes; s None (or an entry -1) means the
    input's sizes, except that ``last_default(size)`` gives the last axis' size if given."""
    ndim = len(x.shape)
    if axes is None:
        if s is not None:
            raise ValueError(f"{name}: s given without axes (the standard requires both)")
        ax = tuple(range(ndim))
    else:
        ax = tuple(normalize_axis(name, a, ndim) for a in axes)
    if s is None:
        sizes = [-1] * len(ax)
    else:
        sizes = [operator.index(v) for v in s]
        if len(sizes) != len(ax):
            raise ValueError(f"{name}: s {tuple(s)} and axes {ax} differ in length")
    out = []
    for i, (a, v) in enumerate(zip(ax, sizes)):
        if v == -1:
            v = x.shape[a]
            if last_default is not None and i == len(ax) - 1:
                v = last_default(v)
        out.append(_points(name, v, "s"))
    return ax, tuple(out)


def _many_axes(name: str, x: g.Node, axes: tuple[int, ...], s: tuple[int, ...], norm: str,
               out_dtype: dt.DType, shape: list[int]) -> Array:
    node = g.library(name, (x,), {"s": s, "axes": axes, "norm": norm}, out_dtype.np,
                     tuple(shape))
    return Array._new(node)


# -- complex transforms -----------------------------------------------------------------------
def fft(x: Array, /, *, n: int | None = None, axis: int = -1,
        norm: Norm = "backward") -> Array:
    """The 1-D discrete Fourier transform along ``axis`` (trimmed or zero-padded to ``n``)."""
    node, c = _complex_input("fft", x)
    ax = normalize_axis("fft", axis, len(node.shape))
    size = _points("fft", node.shape[ax] if n is None else n)
    return _one_axis("fft", node, size, ax, _norm("fft", norm), c, size)


def ifft(x: Array, /, *, n: int | None = None, axis: int = -1,
         norm: Norm = "backward") -> Array:
    """The 1-D inverse discrete Fourier transform along ``axis``."""
    node, c = _complex_input("ifft", x)
    ax = normalize_axis("ifft", axis, len(node.shape))
    size = _points("ifft", node.shape[ax] if n is None else n)
    return _one_axis("ifft", node, size, ax, _norm("ifft", norm), c, size)


def _fftn(name: str, x: Array, s: Sequence[int] | None, axes: Sequence[int] | None,
          norm: Norm) -> Array:
    node, c = _complex_input(name, x)
    ax, sizes = _axes_and_sizes(name, node, s, axes)
    mode = _norm(name, norm)
    if not ax:
        return Array._new(node)
    shape = list(node.shape)
    for a, v in reversed(list(zip(ax, sizes))):   # NumPy's order: a repeated axis
        shape[a] = v                              # ends with its first size
    return _many_axes(name, node, ax, sizes, mode, c, shape)


def fftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: Norm = "backward") -> Array:
    """The n-D discrete Fourier transform over ``axes`` (all if None) with sizes ``s``."""
    return _fftn("fftn", x, s, axes, norm)


def ifftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: Norm = "backward") -> Array:
    """The n-D inverse discrete Fourier transform over ``axes``."""
    return _fftn("ifftn", x, s, axes, norm)


# -- real-input and Hermitian transforms ------------------------------------------------------
def rfft(x: Array, /, *, n: int | None = None, axis: int = -1,
         norm: Norm = "backward") -> Array:
    """The 1-D transform of real input: the ``n // 2 + 1`` non-negative frequencies."""
    node, d = _real_input("rfft", x)
    ax = normalize_axis("rfft", axis, len(node.shape))
    size = _points("rfft", node.shape[ax] if n is None else n)
    return _one_axis("rfft", node, size, ax, _norm("rfft", norm), _complex_of(d),
                     size // 2 + 1)


def irfft(x: Array, /, *, n: int | None = None, axis: int = -1,
          norm: Norm = "backward") -> Array:
    """The inverse of ``rfft``: ``n`` real values (default ``2 * (M - 1)``) along ``axis``."""
    node, c = _complex_input("irfft", x)
    ax = normalize_axis("irfft", axis, len(node.shape))
    size = _points("irfft", 2 * (node.shape[ax] - 1) if n is None else n)
    return _half_like(x, _one_axis("irfft", node, size, ax, _norm("irfft", norm), _real_of(c),
                                   size))


def hfft(x: Array, /, *, n: int | None = None, axis: int = -1,
         norm: Norm = "backward") -> Array:
    """The transform of a Hermitian-symmetric signal given by its first half: ``n`` real
    values (default ``2 * (M - 1)``)."""
    node, c = _complex_input("hfft", x)
    ax = normalize_axis("hfft", axis, len(node.shape))
    size = _points("hfft", 2 * (node.shape[ax] - 1) if n is None else n)
    return _half_like(x, _one_axis("hfft", node, size, ax, _norm("hfft", norm), _real_of(c),
                                   size))


def ihfft(x: Array, /, *, n: int | None = None, axis: int = -1,
          norm: Norm = "backward") -> Array:
    """The inverse of ``hfft`` for real input: ``n // 2 + 1`` complex values."""
    node, d = _real_input("ihfft", x)
    ax = normalize_axis("ihfft", axis, len(node.shape))
    size = _points("ihfft", node.shape[ax] if n is None else n)
    return _one_axis("ihfft", node, size, ax, _norm("ihfft", norm), _complex_of(d),
                     size // 2 + 1)


def rfftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: Norm = "backward") -> Array:
    """The n-D transform of real input (the last axis keeps ``s[-1] // 2 + 1`` values)."""
    node, d = _real_input("rfftn", x)
    ax, sizes = _axes_and_sizes("rfftn", node, s, axes)
    mode = _norm("rfftn", norm)
    if not ax:
        raise ValueError("rfftn: at least one axis is required")
    shape = list(node.shape)
    shape[ax[-1]] = sizes[-1] // 2 + 1          # rfft on the last axis first,
    for a, v in reversed(list(zip(ax[:-1], sizes[:-1]))):   # then fft on the others
        shape[a] = v
    return _many_axes("rfftn", node, ax, sizes, mode, _complex_of(d), shape)


def irfftn(x: Array, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: Norm = "backward") -> Array:
    """The inverse of ``rfftn``: real output, ``s[-1]`` (default ``2 * (M - 1)``) values
    along the last axis."""
    node, c = _complex_input("irfftn", x)
    ax, sizes = _axes_and_sizes("irfftn", node, s, axes, last_default=lambda m: 2 * (m - 1))
    mode = _norm("irfftn", norm)
    if not ax:
        raise ValueError("irfftn: at least one axis is required")
    shape = list(node.shape)
    for a, v in zip(ax[:-1], sizes[:-1]):       # ifft on the other axes first,
        shape[a] = v
    shape[ax[-1]] = sizes[-1]                   # then irfft on the last one
    return _half_like(x, _many_axes("irfftn", node, ax, sizes, mode, _real_of(c), shape))


# -- frequencies and shifts -------------------------------------------------------------------
def _freq_setup(name: str, n: Any, d: float, dtype: Any, device: Any
                ) -> tuple[int, float, dt.DType, Any]:
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"{name}: n must be an integer, got {type(n).__name__}") from None
    if n < 1:
        raise ValueError(f"{name}: n must be positive, got {n}")
    if d == 0:
        raise ValueError(f"{name}: d must not be zero")
    dev = registry.default() if device is None else registry.get(device)
    out = default_float(dev) if dtype is None else dt.to_dtype(dtype, name)
    if out not in dt.REAL_FLOATING:
        raise TypeError(f"{name}: dtype must be a real floating-point dtype, got {out.name}")
    return n, float(d), out, dev


def _scaled(k: g.Node, n: int, d: float, out: dt.DType, dev: Any) -> Array:
    """``k / (d * n)`` as NumPy computes it (k times the float64 reciprocal), then ``out``."""
    work = default_float(dev).np
    val = broadcast_node(g.const(1.0 / (n * d), work, dev), k.shape)
    return Array._new(g.cast(g.alu(Op.MUL, g.cast(k, work), val), out.np))


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Array:
    """The sample frequencies of an ``n``-point transform: [0, 1, ..., -2, -1] / (d * n)."""
    n, d, out, dev = _freq_setup("fftfreq", n, d, dtype, device)
    i = g.iota(n, dev)
    positive = (n - 1) // 2 + 1
    below = g.alu(Op.CMPLT, i, broadcast_node(g.const(positive, np.int64, dev), (n,)),
                  dtype=np.bool_)
    wrapped = g.alu(Op.SUB, i, broadcast_node(g.const(n, np.int64, dev), (n,)))
    return _scaled(g.alu(Op.WHERE, below, i, wrapped), n, d, out, dev)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Array:
    """The non-negative sample frequencies of an ``n``-point rfft: [0, ..., n // 2] / (d * n)."""
    n, d, out, dev = _freq_setup("rfftfreq", n, d, dtype, device)
    return _scaled(g.iota(n // 2 + 1, dev), n, d, out, dev)


def _shift(name: str, x: Array, axes: int | Sequence[int] | None, sign: int) -> Array:
    x = _array(name, x)
    if axes is None:
        ax = list(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        ax = [normalize_axis(name, axes, x.ndim)]
    else:
        ax = [normalize_axis(name, a, x.ndim) for a in axes]
    if not ax:
        return x
    shifts = [sign * (x.shape[a] // 2) for a in ax]
    return roll(x, shifts, axis=tuple(ax))


def fftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """``x`` rolled so that the zero frequency is in the middle of each axis in ``axes``."""
    return _shift("fftshift", x, axes, 1)


def ifftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """The inverse of ``fftshift`` (they differ for odd lengths)."""
    return _shift("ifftshift", x, axes, -1)
