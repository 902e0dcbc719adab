"""NumPy's mathematical functions beyond the standard: elementwise extras (fmod, frexp, ldexp,
nan_to_num, sinc, ...), calculus and signal processing (convolve, correlate, interp,
gradient, trapezoid), products (kron, inner, outer, vdot) and statistics of pairs (cov,
corrcoef).

Layer: ``_api``. Every function composes lazy graph operations (the standard's functions and
``_lazy.graph`` constructors), so its result fuses with its producers and consumers; none
reads device data back (interp's searchsorted and take are library operations). Imports
``_lazy`` and ``_codegen.ir``'s op names, never ``_devices``.

# Note: like the standard's functions here, functions defined for floating-point values
# compute integer and boolean input in the device's default float dtype (float64); NumPy
# picks float16 for int8/uint8/bool and float32 for int16/uint16.
"""

from __future__ import annotations

import builtins
import functools
import math
import operator
import warnings
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from .._lazy.view import View, compose
from . import _dtypes as dt
from . import _elementwise_functions as ew
from . import _manipulation_functions as mf
from . import _statistical_functions as sf
from ._array_object import Array
from ._creation_functions import arange, asarray, zeros
from ._elementwise_functions import check, default_float, device_of, scalar_node
from ._linalg_functions import diagonal, tensordot
from ._linear_algebra_functions import matmul
from ._numpy_args import as_array, device_for, write_out
from ._searching_functions import searchsorted, where
from ._sorting_functions import argsort

_PY_SCALARS = (builtins.bool, int, float, complex)


# -- shared helpers ---------------------------------------------------------------------------
def _ufunc_args(*xs: Any) -> list[Any]:
    """Arrays and Python scalars as they are (scalars join weakly, NEP 50); other host data
    (lists, NumPy arrays and scalars) as arrays on the device of the arrays among ``xs``.
    With no array at all, everything becomes an array (NumPy's ``f(3, 2.5)``)."""
    device = device_for(*xs)
    out = [x if isinstance(x, Array) or type(x) in _PY_SCALARS else as_array(x, device=device)
           for x in xs]
    if not any(isinstance(x, Array) for x in out):
        out = [as_array(x, device=device) for x in out]
    return out


def _array(x: Any) -> Array:
    """One operand as an array (host data on the default device)."""
    return as_array(x)


def _promoted(name: str, *xs: Any, category: str = "numeric", floating: bool = False
              ) -> tuple[list[Array], dt.DType]:
    """The operands as arrays of their common dtype (the default float dtype for integers
    when ``floating``), Python scalars as 0-d arrays; no broadcasting yet."""
    args = _ufunc_args(*xs)
    device = device_of(name, tuple(args))
    common = dt.result_type_of(*args, where=name)
    check(name, common, category)
    if floating and common not in dt.FLOATING:
        common = default_float(device)
    out = []
    for a in args:
        if isinstance(a, Array):
            out.append(Array._new(g.cast(a._node, common.np)))
        else:
            out.append(Array._new(scalar_node(name, a, common, device)))
    return out, common


def _cast(x: Array, dtype: dt.DType) -> Array:
    """x in ``dtype`` (x itself when it has it): a lazy CAST."""
    return x if x.dtype == dtype else Array._new(g.cast(x._node, dtype.np))


def _const_like(value: Any, x: Array) -> Array:
    """A 0-d array of ``value`` in x's dtype on x's device: a fixed constant of these
    algorithms, written into the kernels' source (``graph.literal``)."""
    return Array._new(g.literal(value, x.dtype.np, x.device))


def _real_dtype(d: dt.DType) -> dt.DType:
    return dt.from_np(np.empty(0, d.np).real.dtype)


def _not_complex(name: str, x: Array) -> None:
    if x.dtype in dt.COMPLEX_FLOATING:
        raise TypeError(f"{name}: not supported for complex input (dtype {x.dtype.name})")


# -- elementwise ------------------------------------------------------------------------------
def angle(z: Any, deg: bool = False) -> Array:
    """The counterclockwise angle of each complex value from the positive real axis, in
    radians (degrees if ``deg``); 0 or pi for real input."""
    z = _array(z)
    if z.dtype in dt.COMPLEX_FLOATING:
        a = ew.atan2(ew.imag(z), ew.real(z))
    else:
        check("angle", z.dtype, "real-valued" if z.dtype is not dt.bool else "bool")
        a = ew.atan2(0.0, z)
    return ew.multiply(a, 180.0 / math.pi) if deg else a


def fmod(x1: Any, x2: Any, /, out: Any = None) -> Array:
    """The remainder of division with the sign of the dividend (C's fmod; ``remainder`` has
    the sign of the divisor). Integer division by zero gives 0."""
    (a, b), common = _promoted("fmod", x1, x2, category="any")
    if common is dt.bool:
        # (NumPy has no boolean loop: bools compute as int8)
        a, b, common = _cast(a, dt.int8), _cast(b, dt.int8), dt.int8
    check("fmod", common, "real-valued")
    if common in dt.FLOATING:
        # |a| mod |b| is fmod(|a|, |b|) exactly (both positive); the sign is a's
        result = ew.copysign(ew.remainder(ew.abs(a), ew.abs(b)), a)
    elif common in dt.UNSIGNED:
        result = ew.remainder(a, b)
    else:
        r = ew.remainder(a, b)
        zero = _const_like(0, r)
        wrong_sign = ew.logical_and(ew.not_equal(r, zero),
                                    ew.not_equal(ew.less(r, zero), ew.less(a, zero)))
        result = where(wrong_sign, ew.subtract(r, b), r)
    return write_out("fmod", out, result)


def _frexp_parts(x: Array) -> tuple[Array, Array]:
    """(mantissa, exponent as the float dtype) of a real float array."""
    finite = ew.logical_and(ew.isfinite(x), ew.not_equal(x, _const_like(0, x)))
    ax = where(finite, ew.abs(x), _const_like(1, x))
    one = _const_like(1, x)
    e = ew.add(ew.floor(ew.log2(ax)), one)
    m = _scale2(x, ew.negative(e))
    # log2 may round across a power of two: one step fixes the exponent
    big = ew.greater_equal(ew.abs(m), _const_like(1, x))
    m = where(big, ew.multiply(m, _const_like(0.5, x)), m)
    e = where(big, ew.add(e, one), e)
    small = ew.less(ew.abs(m), _const_like(0.5, x))
    m = where(small, ew.multiply(m, _const_like(2, x)), m)
    e = where(small, ew.subtract(e, one), e)
    m = where(finite, m, x)
    e = where(finite, e, _const_like(0, x))
    return m, e


def _pow2(k: Array) -> Array:
    """``2**k`` exactly for an integral float ``k`` (|k| < 2048): a product of exact powers
    of two picked by the bits of |k|. (``pow(2, k)`` is off by an ulp on some GPUs.)"""
    top = 127 if k.dtype is dt.float32 else 1023
    bits = _cast(ew.abs(k), dt.int64)
    negative = ew.less(k, _const_like(0, k))
    one = _const_like(1, k)
    result = one
    for j in range(11):
        # (a factor beyond the dtype's range is inf or 0: only a 0 bit ever picks it there)
        up = _const_like(math.ldexp(1.0, 2 ** j) if 2 ** j <= top else math.inf, k)
        down = _const_like(math.ldexp(1.0, -(2 ** j)), k)
        one_bit = _const_like(1, bits)
        bit = ew.equal(ew.bitwise_and(ew.bitwise_right_shift(bits, _const_like(j, bits)),
                                      one_bit), one_bit)
        result = ew.multiply(result, where(bit, where(negative, down, up), one))
    return result


def _scale2(x: Array, e: Array) -> Array:
    """``x * 2**e`` for an integral float ``e`` whose factor may overflow, in two exact steps
    (each power of two stays representable; x times the first stays normal)."""
    half = ew.floor(ew.multiply(e, _const_like(0.5, e)))
    return ew.multiply(ew.multiply(x, _pow2(half)), _pow2(ew.subtract(e, half)))


def frexp(x: Any, /) -> tuple[Array, Array]:
    """(mantissa, exponent) with ``x == mantissa * 2**exponent``, the mantissa's magnitude
    in [0.5, 1) (0 for 0; inf and NaN as they are, exponent 0); the exponent is int32."""
    (x,), _ = _promoted("frexp", x, category="real-valued", floating=True)
    m, e = _frexp_parts(x)
    return m, _cast(e, dt.int32)


def ldexp(x1: Any, x2: Any, /, out: Any = None) -> Array:
    """``x1 * 2**x2`` exactly (rounded once, where the result is subnormal), for integer
    exponents ``x2``."""
    args = _ufunc_args(x1, x2)
    e = args[1]
    if isinstance(e, Array):
        if e.dtype not in dt.INTEGER and e.dtype is not dt.bool:
            raise TypeError(f"ldexp: the exponent must be an integer, got dtype {e.dtype.name}")
    elif type(e) not in (int, builtins.bool):
        raise TypeError(f"ldexp: the exponent must be an integer, got {type(e).__name__}")
    device = device_of("ldexp", tuple(args))
    mantissa = args[0] if isinstance(args[0], Array) else as_array(args[0], device=device)
    (x,), _ = _promoted("ldexp", mantissa, category="real-valued", floating=True)
    f = x.dtype
    en = e._node if isinstance(e, Array) else g.const(int(e), np.int64, device)
    # far-out exponents give 0 or inf anyway; clipped they stay exact in the float dtype
    lo, hi = (-400, 400) if f is dt.float32 else (-2300, 2300)
    en = g.cast(en, np.int64)
    clipped = ew.clip(Array._new(en), lo, hi)
    m, me = _frexp_parts(x)
    total = ew.add(me, _cast(clipped, f))
    # m * 2**total: a first exact factor keeps m normal, the second rounds once
    first_lim = 100.0 if f is dt.float32 else 1000.0
    first = ew.clip(total, -first_lim, first_lim)
    rest = ew.clip(ew.subtract(total, first), float(np.finfo(f.np).minexp -
                                                     np.finfo(f.np).nmant),
                   float(np.finfo(f.np).maxexp - 1))
    result = ew.multiply(ew.multiply(m, _pow2(first)), _pow2(rest))
    return write_out("ldexp", out, result)


def modf(x: Any, /) -> tuple[Array, Array]:
    """(fractional part, integral part), both with the sign of x (``modf(-inf)`` is
    ``(-0.0, -inf)``)."""
    (x,), _ = _promoted("modf", x, category="real-valued", floating=True)
    whole = ew.trunc(x)
    frac = where(ew.isinf(x), _const_like(0, x), ew.subtract(x, whole))
    return ew.copysign(frac, x), whole


def spacing(x: Any, /, out: Any = None) -> Array:
    """The distance from x to the next representable value away from zero (negative for
    negative x; NaN for infinities)."""
    (x,), _ = _promoted("spacing", x, category="real-valued", floating=True)
    toward = where(ew.less(x, _const_like(0, x)), _const_like(-math.inf, x),
                   _const_like(math.inf, x))
    return write_out("spacing", out, ew.subtract(ew.nextafter(x, toward), x))


def exp2(x: Any, /, out: Any = None) -> Array:
    """Elementwise ``2**x``."""
    (x,), _ = _promoted("exp2", x, floating=True)
    return write_out("exp2", out, ew.pow(2.0, x))


def fabs(x: Any, /, out: Any = None) -> Array:
    """Elementwise absolute value as a float (complex input is refused, as NumPy does)."""
    (x,), _ = _promoted("fabs", x, category="real-valued", floating=True)
    return write_out("fabs", out, ew.abs(x))


def float_power(x1: Any, x2: Any, /, out: Any = None) -> Array:
    """``x1 ** x2`` computed in float64 (complex128 for complex input)."""
    args = _ufunc_args(x1, x2)
    common = dt.result_type_of(*args, where="float_power")
    check("float_power", common, "numeric")
    target = dt.complex128 if common in dt.COMPLEX_FLOATING else dt.float64
    a, b = (Array._new(g.cast(v._node, target.np)) if isinstance(v, Array) else v for v in args)
    return write_out("float_power", out, ew.pow(a, b))


def true_divide(x1: Any, x2: Any, /, out: Any = None) -> Array:
    """NumPy's name for ``divide``."""
    a, b = _ufunc_args(x1, x2)
    return write_out("true_divide", out, ew.divide(a, b))


def mod(x1: Any, x2: Any, /, out: Any = None) -> Array:
    """NumPy's name for ``remainder`` (the sign of the divisor)."""
    a, b = _ufunc_args(x1, x2)
    return write_out("mod", out, ew.remainder(a, b))


def around(a: Any, decimals: int = 0, out: Any = None) -> Array:
    """``round`` to ``decimals`` places (negative: tens, hundreds...), halves to even."""
    return write_out("around", out, ew.round(_array(a), decimals=decimals))


def conjugate(x: Any, /, out: Any = None) -> Array:
    """NumPy's name for ``conj``."""
    return write_out("conjugate", out, ew.conj(_array(x)))


def nan_to_num(x: Any, copy: bool = True, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Array:
    """NaN replaced by ``nan``, infinities by ``posinf``/``neginf`` (default: the dtype's
    largest and smallest finite values); complex parts are replaced each on its own.
    Integers are returned as they are. With ``copy=False`` the result is written into x."""
    x = _array(x)
    if x.dtype not in dt.FLOATING:
        return x if not copy else Array._new(x._node)
    part = _real_dtype(x.dtype)
    big = float(np.finfo(part.np).max)
    hi = big if posinf is None else posinf
    lo = -big if neginf is None else neginf

    def fix(v: Array) -> Array:
        c = where(ew.isnan(v), Array._new(g.const(nan, part.np, v.device)), v)
        c = where(ew.logical_and(ew.isinf(v), ew.greater(v, 0.0)),
                  Array._new(g.const(hi, part.np, v.device)), c)
        return where(ew.logical_and(ew.isinf(v), ew.less(v, 0.0)),
                     Array._new(g.const(lo, part.np, v.device)), c)

    if x.dtype in dt.COMPLEX_FLOATING:
        result = Array._new(g.alu(Op.COMPLEX, fix(ew.real(x))._node, fix(ew.imag(x))._node,
                                  dtype=x.dtype.np))
    else:
        result = fix(x)
    if not copy:
        x[...] = result
        return x
    return result


def isposinf(x: Any, out: Any = None) -> Array:
    """True where x is +inf (complex input is refused, as NumPy does)."""
    x = _array(x)
    _not_complex("isposinf", x)
    result = ew.logical_and(ew.isinf(x), ew.logical_not(ew.signbit(_as_float(x))))
    return write_out("isposinf", out, result)


def isneginf(x: Any, out: Any = None) -> Array:
    """True where x is -inf (complex input is refused, as NumPy does)."""
    x = _array(x)
    _not_complex("isneginf", x)
    result = ew.logical_and(ew.isinf(x), ew.signbit(_as_float(x)))
    return write_out("isneginf", out, result)


def _as_float(x: Array) -> Array:
    return x if x.dtype in dt.FLOATING else _cast(x, default_float(x.device))


def isreal(x: Any) -> Array:
    """True where the imaginary part is zero (everywhere for real dtypes)."""
    x = _array(x)
    if x.dtype not in dt.COMPLEX_FLOATING:
        return Array._new(g.broadcast(g.const(True, np.bool_, x.device), x.shape))
    return ew.equal(ew.imag(x), 0)


def iscomplex(x: Any) -> Array:
    """True where the imaginary part is non-zero (nowhere for real dtypes)."""
    x = _array(x)
    if x.dtype not in dt.COMPLEX_FLOATING:
        return Array._new(g.broadcast(g.const(False, np.bool_, x.device), x.shape))
    return ew.not_equal(ew.imag(x), 0)


def iscomplexobj(x: Any) -> bool:
    """Whether x has a complex dtype (whatever its values)."""
    if isinstance(x, Array):
        return x.dtype in dt.COMPLEX_FLOATING
    d = getattr(x, "dtype", None)
    if d is not None:
        return bool(np.dtype(d).kind == "c")
    return bool(np.asarray(x).dtype.kind == "c")


def isrealobj(x: Any) -> bool:
    """Whether x has a real (not complex) dtype."""
    return not iscomplexobj(x)


def sinc(x: Any, /) -> Array:
    """``sin(pi x) / (pi x)``, 1 at 0 (the normalized sinc)."""
    (x,), _ = _promoted("sinc", x, floating=True)
    y = ew.multiply(x, math.pi)
    zero = ew.equal(x, 0)
    safe = where(zero, _const_like(1, x), y)
    return where(zero, _const_like(1, x), ew.divide(ew.sin(safe), safe))


def deg2rad(x: Any, /, out: Any = None) -> Array:
    """Degrees to radians."""
    (x,), _ = _promoted("deg2rad", x, category="real-valued", floating=True)
    return write_out("deg2rad", out, ew.multiply(x, math.pi / 180.0))


def rad2deg(x: Any, /, out: Any = None) -> Array:
    """Radians to degrees."""
    (x,), _ = _promoted("rad2deg", x, category="real-valued", floating=True)
    return write_out("rad2deg", out, ew.multiply(x, 180.0 / math.pi))


def radians(x: Any, /, out: Any = None) -> Array:
    """Degrees to radians (``deg2rad``)."""
    return write_out("radians", out, deg2rad(x))


def degrees(x: Any, /, out: Any = None) -> Array:
    """Radians to degrees (``rad2deg``)."""
    return write_out("degrees", out, rad2deg(x))


def cbrt(x: Any, /, out: Any = None) -> Array:
    """The real cube root (negative for negative x)."""
    (x,), _ = _promoted("cbrt", x, category="real-valued", floating=True)
    y = ew.copysign(ew.pow(ew.abs(x), 1.0 / 3.0), x)
    # one Newton step, written so nothing overflows: y - (y - x / y**2) / 3
    regular = ew.logical_and(ew.isfinite(x), ew.not_equal(x, 0))
    safe = where(regular, y, _const_like(1, x))
    better = ew.subtract(safe, ew.divide(ew.subtract(safe, ew.divide(x, ew.multiply(
        safe, safe))), 3.0))
    return write_out("cbrt", out, where(regular, better, x))


def heaviside(x1: Any, x2: Any, /, out: Any = None) -> Array:
    """The Heaviside step: 0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0 (NaN stays)."""
    (a, b), _ = _promoted("heaviside", x1, x2, category="real-valued", floating=True)
    shape = ew.broadcast_shapes("heaviside", a.shape, b.shape)
    a, b = mf.broadcast_to(a, shape), mf.broadcast_to(b, shape)
    result = where(ew.less(a, 0), _const_like(0, a),
                   where(ew.greater(a, 0), _const_like(1, a), where(ew.equal(a, 0), b, a)))
    return write_out("heaviside", out, result)


def logaddexp2(x1: Any, x2: Any, /, out: Any = None) -> Array:
    """``log2(2**x1 + 2**x2)`` without overflow."""
    (a, b), _ = _promoted("logaddexp2", x1, x2, category="real-valued", floating=True)
    shape = ew.broadcast_shapes("logaddexp2", a.shape, b.shape)
    a, b = mf.broadcast_to(a, shape), mf.broadcast_to(b, shape)
    d = ew.subtract(a, b)
    # max + log2(1 + 2**-|d|), with log2(1 + t) as log1p(t) / ln 2
    tail = ew.divide(ew.log1p(ew.pow(2.0, ew.negative(ew.abs(d)))), math.log(2.0))
    result = where(ew.greater(d, 0), ew.add(a, tail), ew.add(b, tail))
    result = where(ew.isnan(d), d, result)
    result = where(ew.equal(a, b), ew.add(a, 1.0), result)
    return write_out("logaddexp2", out, result)


# -- calculus and signal processing -----------------------------------------------------------
def _reduce_same(node: g.Node, axis: int) -> g.Node:
    """A sum over ``axis`` in the node's own dtype (``or`` for bool), axis removed."""
    op = Op.OR if node.dtype == np.bool_ else Op.ADD
    out = g.reduce(node, op, (axis,))
    return g.reshape(out, tuple(s for i, s in enumerate(node.shape) if i != axis))


def _sliding_dot(a: g.Node, w: g.Node, left: int, right: int) -> g.Node:
    """``out[k] = sum_j p[k + j] * w[j]`` with ``p`` = ``a`` padded with ``left`` and
    ``right`` zeros. The windows that lie inside ``a`` are one reduction over a strided view
    of it; the few at either end that reach into the padding are computed apart (their
    index arithmetic is costlier) and joined."""
    n, m = a.shape[0], w.shape[0]
    count = n + left + right - m + 1
    inner_lo = builtins.min(builtins.max(left, 0), count)
    inner_hi = builtins.min(builtins.max(left + n - m + 1, inner_lo), count)
    parts = [_segment(a, w, left, lo, hi) for lo, hi in
             ((0, inner_lo), (inner_lo, inner_hi), (inner_hi, count)) if hi > lo]
    if len(parts) == 1:
        return parts[0]
    return mf.concat([Array._new(p) for p in parts])._node


def _segment(a: g.Node, w: g.Node, left: int, lo: int, hi: int) -> g.Node:
    """Outputs ``lo`` to ``hi`` of ``_sliding_dot``, from the part of ``a`` they read."""
    n, m = a.shape[0], w.shape[0]
    first, stop = lo - left, hi + m - 1 - left         # the span of a they read, padded
    start, end = builtins.max(first, 0), builtins.min(stop, n)
    if end <= start:
        return g.broadcast(g.const(0, a.dtype, a.device), (hi - lo,))
    piece = g.slice_view(a, ((start, 1, end - start),))
    return _windows_dot(piece, w, start - first, stop - end)


def _windows_dot(a: g.Node, w: g.Node, left: int, right: int) -> g.Node:
    """``_sliding_dot`` as one reduction over an overlapping (k, j) view of the padded
    ``a`` (strides 1, 1), fused with the padding and the weights; no copy of the
    windows."""
    m = w.shape[0]
    padded = g.pad(a, ((left, right),))
    count = padded.shape[0] - m + 1
    src, st = g.view_st(padded)
    windows_st = compose((View.make((count, m), (1, 1), 0),), st)
    windows = g.Node("VIEW", (src,), windows_st, a.dtype, (count, m), a.device)
    if left or right:
        # The padding's mask guards the loads only: an inlined expression of ``a`` with
        # constants in it (a + 1, a CONST broadcast) would give nonzero values in the
        # padding, so the zeros are selected explicitly by position.
        pos = g.alu(Op.ADD, g.broadcast(g.reshape(g.iota(count, a.device), (count, 1)),
                                        (count, m)),
                    g.broadcast(g.reshape(g.iota(m, a.device), (1, m)), (count, m)))
        inside = g.alu(Op.AND,
                       g.alu(Op.CMPLE, g.const(left, np.int64, a.device), pos, dtype=np.bool_),
                       g.alu(Op.CMPLT, pos, g.const(left + a.shape[0], np.int64, a.device),
                             dtype=np.bool_))
        windows = g.alu(Op.WHERE, inside, windows, g.const(0, a.dtype, a.device))
    weights = g.broadcast(g.reshape(w, (1, m)), (count, m))
    return _reduce_same(g.alu(Op.MUL, windows, weights), 1)


def _correlate_nodes(name: str, a: Any, v: Any, mode: str
                     ) -> tuple[g.Node, g.Node, int, int, dt.DType]:
    args = _ufunc_args(a, v)
    device = device_of(name, tuple(args))
    arrays = [x if isinstance(x, Array) else as_array(x, device=device) for x in args]
    common = dt.result_type_of(*arrays, where=name)
    nodes = []
    for x, what in zip(arrays, ("a", "v")):
        if x.ndim > 1:
            raise ValueError(f"{name}: {what} must be one-dimensional, got shape {x.shape}")
        if x.size == 0:
            raise ValueError(f"{name}: {what} cannot be empty")
        nodes.append(g.reshape(g.cast(x._node, common.np), (x.size,)))
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"{name}: mode must be 'full', 'same' or 'valid', got {mode!r}")
    return nodes[0], nodes[1], nodes[0].shape[0], nodes[1].shape[0], common


def _mode_pads(mode: str, n: int, m: int, offset: int) -> tuple[int, int]:
    """(left, right) zeros around a signal of n with a window of m for ``mode``: 'full' has
    m - 1 on each side; 'same' and 'valid' are the slice of 'full' of length max(n, m) and
    max(n, m) - min(n, m) + 1 that starts at ``offset``."""
    length = {"full": n + m - 1, "same": builtins.max(n, m),
              "valid": builtins.max(n, m) - builtins.min(n, m) + 1}[mode]
    left = m - 1 - offset
    return left, length + m - 1 - n - left


#: at most this many multiply-adds of a convolution or correlation whose operands are
#: already in the cpu device's memory run in NumPy's loop there (``_in_memory``)
HOST_CORRELATE_MAX = 1 << 20


def _in_memory(an: g.Node, vn: g.Node, common: dt.DType
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """The two 1-D operands of ``convolve``/``correlate`` as NumPy arrays when their values
    are already in the cpu device's memory, for NumPy's own loop there: the lazy path
    records a graph of window segments (about 0.5 ms for a row of 48), and
    ``apply_along_axis`` over rows calls it once per row. None where the lazy path serves:
    another device, pending operands, a large product, float16 or bool."""
    from . import _hot
    if common in (dt.float16, dt.bool) or an.shape[0] * vn.shape[0] > HOST_CORRELATE_MAX:
        return None
    values = _hot.host_values([an, vn])
    return None if values is None else (values[0], values[1])


def convolve(a: Any, v: Any, mode: str = "full") -> Array:
    """The discrete linear convolution of two 1-D sequences (``mode`` 'full', 'same' or
    'valid', as NumPy): one fused reduction over windows of the zero-padded ``a``; on the
    cpu device, operands already in memory are convolved by NumPy's loop there."""
    an, vn, n, m, common = _correlate_nodes("convolve", a, v, mode)
    host = _in_memory(an, vn, common)
    if host is not None:
        return asarray(np.convolve(*host, mode=mode).astype(common.np, copy=False),
                       device=an.device)
    small = builtins.min(n, m)
    offset = {"full": 0, "same": (small - 1) // 2, "valid": small - 1}[mode]
    left, right = _mode_pads(mode, n, m, offset)
    w = g.slice_view(vn, ((m - 1, -1, m),))      # v reversed
    return Array._new(_sliding_dot(an, w, left, right))


def correlate(a: Any, v: Any, mode: str = "valid") -> Array:
    """The cross-correlation ``c[k] = sum_n a[n + k] * conj(v[n])`` of two 1-D sequences
    (``mode`` 'valid', 'same' or 'full', as NumPy)."""
    an, vn, n, m, common = _correlate_nodes("correlate", a, v, mode)
    host = _in_memory(an, vn, common)
    if host is not None:
        return asarray(np.correlate(*host, mode=mode).astype(common.np, copy=False),
                       device=an.device)
    small = builtins.min(n, m)
    same = (small - 1) // 2 if n >= m else small // 2
    offset = {"full": 0, "same": same, "valid": small - 1}[mode]
    left, right = _mode_pads(mode, n, m, offset)
    w = g.alu(Op.CONJ, vn) if common in dt.COMPLEX_FLOATING else vn
    return Array._new(_sliding_dot(an, w, left, right))


def _gather(values: Array, index: Array) -> Array:
    """``values[index]`` for a 1-D ``values`` and an index array of any shape."""
    flat = mf.reshape(index, (-1,))
    from ._indexing_functions import take
    return mf.reshape(take(values, flat), index.shape)


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None,
           period: Any = None) -> Array:
    """Piecewise-linear interpolation of the points (xp, fp) (xp increasing) at x; ``left``
    and ``right`` (default fp[0] and fp[-1]) outside, or x wrapped by ``period``. The
    result is float64 (complex128 for complex fp). The interval of each x is found by
    ``searchsorted`` and its end points gathered by ``take`` (library operations)."""
    device = device_for(x, xp, fp)
    x, xp, fp = (as_array(v, device=device) for v in (x, xp, fp))
    device_of("interp", (x, xp, fp))
    out_dtype = dt.complex128 if fp.dtype in dt.COMPLEX_FLOATING else dt.float64
    for v, what in ((x, "x"), (xp, "xp"), (fp, "fp")):
        check("interp", v.dtype, "numeric" if what == "fp" else "real-valued")
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError(f"interp: xp and fp must be 1-D, got shapes {xp.shape} and "
                         f"{fp.shape}")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError(f"interp: fp and xp are not of the same length ({fp.shape[0]} and "
                         f"{xp.shape[0]})")
    if xp.shape[0] == 0:
        raise ValueError("interp: array of sample points is empty")
    host = _interp_in_memory(x, xp, fp, left, right, period)
    if host is not None:
        return host
    x = _cast(x, dt.float64)
    xp = _cast(xp, dt.float64)
    fp = _cast(fp, out_dtype)
    if period is not None:
        if isinstance(period, Array):
            period = ew.abs(_cast(period, dt.float64))
        else:
            if period == 0:
                raise ValueError("interp: period must be a non-zero value")
            period = builtins.abs(float(period))
        left = right = None
        x = ew.remainder(x, period)
        xp = ew.remainder(xp, period)
        order = argsort(xp)
        xp, fp = _gather(xp, order), _gather(fp, order)
        xp = mf.concat([ew.subtract(xp[-1:], period), xp, ew.add(xp[:1], period)])
        fp = mf.concat([fp[-1:], fp, fp[:1]])
    n = xp.shape[0]
    j = ew.clip(ew.subtract(searchsorted(xp, x, side="right"), 1), 0, builtins.max(n - 2, 0))
    j1 = ew.minimum(ew.add(j, 1), n - 1)
    xj, xj1, fj, fj1 = _gather(xp, j), _gather(xp, j1), _gather(fp, j), _gather(fp, j1)
    slope = ew.divide(ew.subtract(fj1, fj), _cast(ew.subtract(xj1, xj), out_dtype))
    res = ew.add(ew.multiply(slope, _cast(ew.subtract(x, xj), out_dtype)), fj)
    # where a zero-width interval gives NaN, NumPy tries from the right end, then takes fj
    # when both ends agree
    again = ew.add(ew.multiply(slope, _cast(ew.subtract(x, xj1), out_dtype)), fj1)
    res = where(ew.isnan(res), again, res)
    res = where(ew.logical_and(ew.isnan(res), ew.equal(fj, fj1)), fj, res)
    res = where(ew.equal(x, xj), fj, res)
    first, last = fp[0], fp[n - 1]
    res = where(ew.equal(x, xp[n - 1]), last, res)
    res = where(ew.greater(x, xp[n - 1]), last if right is None else _fill(right, res), res)
    return where(ew.less(x, xp[0]), first if left is None else _fill(left, res), res)


#: at most this many elements (x, xp and fp together) are interpolated by NumPy where they
#: already lie in the cpu device's memory
HOST_INTERP_MAX = 1 << 16


def _interp_in_memory(x: Array, xp: Array, fp: Array, left: Any, right: Any,
                      period: Any) -> Array | None:
    """``interp`` by NumPy's own loop where x, xp and fp are already values in the cpu
    device's memory and small (``HOST_INTERP_MAX``), and left, right and period are Python
    numbers or None: the lazy path's search, four gathers (each checking its indices on
    the host) and selects cost 330 us for one x against NumPy's 0.8. None where the lazy
    path serves: another device, pending values, float16, large inputs."""
    from . import _hot
    if x.size + xp.size + fp.size > HOST_INTERP_MAX or dt.float16 in (x.dtype, fp.dtype) or \
            any(v is not None and type(v) not in _PY_SCALARS for v in (left, right, period)):
        return None
    # (a Python number for x is a constant: its value is at hand)
    const = x._node.op == "CONST" and not x.shape
    values = _hot.host_values([xp._node, fp._node] if const else [x._node, xp._node, fp._node])
    if values is None:
        return None
    if const:
        values = [np.asarray(x._node.arg, x.dtype.np), *values]
    if period == 0:
        raise ValueError("interp: period must be a non-zero value")
    out = np.interp(*values, left=left, right=right, period=period)
    return _hot.wrapped(np.asarray(out, dtype=np.complex128 if fp.dtype in
                                   dt.COMPLEX_FLOATING else np.float64), x.device)


def _fill(value: Any, like: Array) -> Any:
    """A left/right value of interp: a Python scalar as it is, host data as an array of the
    result's dtype on its device."""
    if type(value) in _PY_SCALARS:
        return complex(value) if like.dtype in dt.COMPLEX_FLOATING else float(value)
    return _cast(as_array(value, device=like.device), like.dtype)


def _along(x: Array, axis: int, start: int | None, stop: int | None) -> Array:
    return x[(slice(None),) * axis + (slice(start, stop),)]


def _on_axis(v: Array, axis: int, ndim: int) -> Array:
    """A 1-D array shaped to broadcast along ``axis`` of an ndim-d array."""
    return mf.reshape(v, tuple(v.shape[0] if i == axis else 1 for i in range(ndim)))


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1
             ) -> Array | tuple[Array, ...]:
    """The gradient of f by second-order central differences inside and first- or
    second-order (``edge_order``) one-sided differences at the ends; spacings are scalars
    or coordinate arrays, one per axis (or one for all). One array per axis (a tuple when
    there are several)."""
    # Note: NumPy checks coordinate arrays for uniform spacing on the host and then uses
    # the scalar formulas; here coordinates always take the non-uniform formulas (the same
    # values up to rounding), so nothing is read back.
    f = _array(f)
    if f.dtype is dt.bool:
        raise TypeError("gradient: boolean input is not supported (NumPy's subtract refuses it)")
    check("gradient", f.dtype, "numeric")
    otype = f.dtype if f.dtype in dt.FLOATING else dt.float64
    f = _cast(f, otype)
    nd = f.ndim
    if axis is None:
        axes = tuple(range(nd))
    else:
        # (in the order given, not sorted: one result per axis, in that order)
        items = axis if isinstance(axis, (tuple, list)) else (axis,)
        axes = tuple(mf.normalize_axis("gradient", a, nd) for a in items)
        if len(set(axes)) != len(axes):
            raise ValueError(f"gradient: repeated axis in {axis}")
    if len(varargs) == 0:
        spacing: list[Any] = [1.0] * len(axes)
    elif len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        spacing = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacing = list(varargs)
    else:
        raise TypeError(f"gradient: invalid number of spacing arguments ({len(varargs)} for "
                        f"{len(axes)} axes)")
    if edge_order not in (1, 2):
        raise ValueError(f"gradient: edge_order must be 1 or 2, got {edge_order}")
    outs = []
    for ax, h in zip(axes, spacing):
        n = f.shape[ax]
        if n < edge_order + 1:
            raise ValueError(f"gradient: shape {f.shape} is too small along axis {ax} to "
                             f"calculate a numerical gradient: at least edge_order + 1 = "
                             f"{edge_order + 1} elements are required")
        if type(h) in _PY_SCALARS or np.ndim(h) == 0:
            d = h if isinstance(h, Array) or type(h) in _PY_SCALARS else \
                as_array(h, device=f.device)
            out = _uniform_gradient(f, ax, d, edge_order)
        else:
            x = as_array(h, device=f.device)
            if x.ndim != 1:
                raise ValueError(f"gradient: distances must be scalars or 1-D, got shape "
                                 f"{x.shape}")
            if x.shape[0] != n:
                raise ValueError(f"gradient: when 1-D, distances must match the length of "
                                 f"axis {ax} ({x.shape[0]} != {n})")
            if x.dtype not in dt.FLOATING:
                x = _cast(x, dt.float64)
            out = _coordinate_gradient(f, ax, x, edge_order)
        outs.append(_cast(out, otype))
    return outs[0] if len(outs) == 1 else tuple(outs)


def _uniform_gradient(f: Array, ax: int, h: Any, edge_order: int) -> Array:
    def at(i: int) -> Array:
        return _along(f, ax, i, i + 1 if i != -1 else None)

    inner = ew.divide(ew.subtract(_along(f, ax, 2, None), _along(f, ax, None, -2)),
                      ew.multiply(h, 2.0) if isinstance(h, Array) else 2.0 * h)
    if edge_order == 1:
        first = ew.divide(ew.subtract(at(1), at(0)), h)
        last = ew.divide(ew.subtract(at(-1), at(-2)), h)
    else:
        def coef(c: float) -> Any:
            return ew.divide(c, h) if isinstance(h, Array) else c / h

        first = ew.add(ew.add(ew.multiply(coef(-1.5), at(0)), ew.multiply(coef(2.0), at(1))),
                       ew.multiply(coef(-0.5), at(2)))
        last = ew.add(ew.add(ew.multiply(coef(0.5), at(-3)), ew.multiply(coef(-2.0), at(-2))),
                      ew.multiply(coef(1.5), at(-1)))
    return mf.concat([first, inner, last], axis=ax)


def _coordinate_gradient(f: Array, ax: int, x: Array, edge_order: int) -> Array:
    nd = f.ndim
    dx = ew.subtract(x[1:], x[:-1])

    def at(i: int) -> Array:
        return _along(f, ax, i, i + 1 if i != -1 else None)

    def d(i: int) -> Array:
        return dx[i:i + 1] if i != -1 else dx[-1:]

    dx1, dx2 = _on_axis(dx[:-1], ax, nd), _on_axis(dx[1:], ax, nd)
    total = ew.add(dx1, dx2)
    a = ew.negative(ew.divide(dx2, ew.multiply(dx1, total)))
    b = ew.divide(ew.subtract(dx2, dx1), ew.multiply(dx1, dx2))
    c = ew.divide(dx1, ew.multiply(dx2, total))
    inner = ew.add(ew.add(ew.multiply(a, _along(f, ax, None, -2)),
                          ew.multiply(b, _along(f, ax, 1, -1))),
                   ew.multiply(c, _along(f, ax, 2, None)))
    if edge_order == 1:
        first = ew.divide(ew.subtract(at(1), at(0)), _on_axis(d(0), ax, nd))
        last = ew.divide(ew.subtract(at(-1), at(-2)), _on_axis(d(-1), ax, nd))
    else:
        def three(p: Array, q: Array, r: Array, s: tuple[Array, Array, Array]) -> Array:
            return ew.add(ew.add(ew.multiply(_on_axis(p, ax, nd), s[0]),
                                 ew.multiply(_on_axis(q, ax, nd), s[1])),
                          ew.multiply(_on_axis(r, ax, nd), s[2]))

        h1, h2 = d(0), d(1)
        s12 = ew.add(h1, h2)
        first = three(ew.negative(ew.divide(ew.add(ew.multiply(h1, 2.0), h2),
                                            ew.multiply(h1, s12))),
                      ew.divide(s12, ew.multiply(h1, h2)),
                      ew.negative(ew.divide(h1, ew.multiply(h2, s12))),
                      (at(0), at(1), at(2)))
        h1, h2 = dx[-2:-1], d(-1)
        s12 = ew.add(h1, h2)
        last = three(ew.divide(h2, ew.multiply(h1, s12)),
                     ew.negative(ew.divide(s12, ew.multiply(h1, h2))),
                     ew.divide(ew.add(ew.multiply(h2, 2.0), h1), ew.multiply(h2, s12)),
                     (at(-3), at(-2), at(-1)))
    return mf.concat([first, inner, last], axis=ax)


def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Array:
    """The integral of y along ``axis`` by the trapezoidal rule, at sample points x (1-D
    along the axis, or shaped like y) or a constant spacing dx."""
    y = _array(y)
    if y.ndim == 0:
        raise ValueError("trapezoid: y must have at least one dimension")
    ax = mf.normalize_axis("trapezoid", axis, y.ndim)
    if x is None:
        d = dx if type(dx) in _PY_SCALARS or isinstance(dx, Array) else \
            as_array(dx, device=y.device)
    else:
        xa = as_array(x, device=y.device)
        if xa.ndim == 1:
            if xa.shape[0] != y.shape[ax]:
                raise ValueError(f"trapezoid: x has {xa.shape[0]} points, y {y.shape[ax]} "
                                 f"along axis {ax}")
            d = _on_axis(ew.subtract(xa[1:], xa[:-1]), ax, y.ndim)
        else:
            xax = mf.normalize_axis("trapezoid", axis, xa.ndim)
            d = ew.subtract(_along(xa, xax, 1, None), _along(xa, xax, None, -1))
    pairs = ew.add(_along(y, ax, 1, None), _along(y, ax, None, -1))
    return sf.sum(ew.divide(ew.multiply(d, pairs), 2.0), axis=ax)


# -- products ---------------------------------------------------------------------------------
def kron(a: Any, b: Any) -> Array:
    """The Kronecker product: blocks ``a[i, j] * b`` (the ranks are aligned on the right)."""
    a, b = (as_array(v, device=device_for(a, b)) for v in (a, b))
    device_of("kron", (a, b))
    nd = builtins.max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    ai = mf.reshape(a, tuple(v for s in sa for v in (s, 1)))
    bi = mf.reshape(b, tuple(v for s in sb for v in (1, s)))
    return mf.reshape(ew.multiply(ai, bi), tuple(p * q for p, q in zip(sa, sb)))


def inner(a: Any, b: Any, /) -> Array:
    """The sum of products over the last axes of a and b (no conjugation); a product for
    scalars. The result has shape ``a.shape[:-1] + b.shape[:-1]``."""
    a, b = (as_array(v, device=device_for(a, b)) for v in (a, b))
    device_of("inner", (a, b))
    if a.ndim == 0 or b.ndim == 0:
        return ew.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: shapes {a.shape} and {b.shape} differ on the last axis "
                         f"({a.shape[-1]} != {b.shape[-1]})")
    common = dt.result_type_of(a, b, where="inner")
    if common is dt.bool:
        ints = tensordot(_cast(a, dt.int64), _cast(b, dt.int64),
                         axes=((a.ndim - 1,), (b.ndim - 1,)))
        return ew.not_equal(ints, 0)
    return tensordot(a, b, axes=((a.ndim - 1,), (b.ndim - 1,)))


def outer(a: Any, b: Any, out: Any = None) -> Array:
    """The outer product of a and b flattened: ``result[i, j] = a[i] * b[j]``."""
    a, b = (as_array(v, device=device_for(a, b)) for v in (a, b))
    device_of("outer", (a, b))
    result = ew.multiply(mf.reshape(a, (-1, 1)), mf.reshape(b, (1, -1)))
    return write_out("outer", out, result)


def cross(a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> Array:
    """NumPy's cross product of the vectors along ``axisa`` of a and ``axisb`` of b (``axis``
    sets all three), the other axes broadcast, the result's vectors along ``axisc``.
    2-element vectors are taken with a zero z component; two of them give the z component
    alone (deprecated by NumPy 2.0, which warns: so does this)."""
    a, b = (as_array(v, device=device_for(a, b)) for v in (a, b))
    device_of("cross", (a, b))
    if axis is not None:
        axisa = axisb = axisc = axis
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("cross: a and b must have at least one dimension")
    a = mf.moveaxis(a, mf.normalize_axis("cross", axisa, a.ndim), -1)
    b = mf.moveaxis(b, mf.normalize_axis("cross", axisb, b.ndim), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError(f"cross: incompatible dimensions for cross product (dimension must "
                         f"be 2 or 3), got {a.shape[-1]} and {b.shape[-1]}")
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
        return ew.subtract(ew.multiply(a[..., 0], b[..., 1]), ew.multiply(a[..., 1], b[..., 0]))
    a, b = (mf.concat([v, ew.multiply(v[..., :1], 0)], axis=-1) if v.shape[-1] == 2 else v
            for v in (a, b))
    from ._linalg_functions import cross as cross3
    c = cross3(a, b, axis=-1)
    return mf.moveaxis(c, -1, mf.normalize_axis("cross", axisc, c.ndim))


def vdot(a: Any, b: Any, /) -> Array:
    """The dot product of a and b flattened, a conjugated (a 0-d array)."""
    a, b = (as_array(v, device=device_for(a, b)) for v in (a, b))
    device_of("vdot", (a, b))
    if a.size != b.size:
        raise ValueError(f"vdot: a and b have different sizes ({a.size} and {b.size}; shapes "
                         f"{a.shape} and {b.shape})")
    common = dt.result_type_of(a, b, where="vdot")
    an = g.reshape(g.cast(a._node, common.np), (a.size,))
    bn = g.reshape(g.cast(b._node, common.np), (b.size,))
    if common in dt.COMPLEX_FLOATING:
        an = g.alu(Op.CONJ, an)
    return Array._new(_reduce_same(g.alu(Op.MUL, an, bn), 0))


# -- statistics of pairs ----------------------------------------------------------------------
def _observations(name: str, m: Any, rowvar: bool, dtype: dt.DType, device: Any) -> Array:
    x = as_array(m, device=device)
    if x.ndim > 2:
        raise ValueError(f"{name}: m has more than 2 dimensions (shape {x.shape})")
    x = _cast(x, dtype)
    if x.ndim < 2:
        x = mf.reshape(x, (1, -1))
    if not rowvar and x.shape[0] != 1:
        x = x.T
    return x


def _weights(name: str, w: Any, what: str, count: int, device: Any) -> Array:
    arr = as_array(w, device=device)
    if arr.ndim > 1:
        raise RuntimeError(f"{name}: cannot handle multidimensional {what}")
    if arr.ndim == 0 or arr.shape[0] != count:
        raise RuntimeError(f"{name}: incompatible numbers of samples ({count}) and {what} "
                           f"(shape {arr.shape})")
    return _cast(arr, dt.float64)


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False,
        ddof: int | None = None, fweights: Any = None, aweights: Any = None, *,
        dtype: Any = None) -> Array:
    """The covariance matrix of the variables in the rows of m (columns if not ``rowvar``),
    y's joining them; ``ddof`` (default 1, 0 if ``bias``), frequency and reliability
    weights as NumPy. One variable gives a 0-d array."""
    # Note: NumPy reads fweights back to check that they are non-negative integers (and the
    # weights' degrees of freedom to warn when they are not positive); nothing is read back
    # here: a float array of fweights is refused by its dtype, values are not checked.
    device = device_for(m, y, fweights, aweights)
    sources = [as_array(m, device=device)] + ([] if y is None else [as_array(y, device=device)])
    if dtype is None:
        out_dtype = dt.result_type_of(*sources, dt.float64, where="cov")
    else:
        out_dtype = dt.to_dtype(dtype, "cov")
    if y is not None and sources[1].ndim > 2:
        raise ValueError(f"cov: y has more than 2 dimensions (shape {sources[1].shape})")
    x = _observations("cov", sources[0], rowvar, out_dtype, device)
    if x.shape[0] == 0:
        return Array._new(g.broadcast(g.const(0, out_dtype.np, x.device), (0, 0)))
    if y is not None:
        x = mf.concat([x, _observations("cov", sources[1], rowvar, out_dtype, device)], axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    try:
        ddof = operator.index(ddof)
    except TypeError:
        raise ValueError(f"cov: ddof must be an integer, got {ddof!r}") from None
    samples = x.shape[1]
    w = None
    if fweights is not None:
        if isinstance(fweights, Array) and fweights.dtype not in dt.INTEGER:
            raise TypeError("cov: fweights must be integer")
        w = _weights("cov", fweights, "fweights", samples, x.device)
    a = None
    if aweights is not None:
        a = _weights("cov", aweights, "aweights", samples, x.device)
        w = a if w is None else ew.multiply(w, a)
    if w is None:
        avg = sf.mean(x, axis=1, keepdims=True)
        fact: Any = samples - ddof
        if fact <= 0:
            warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
            fact = 0.0
    else:
        v1 = sf.sum(w)
        avg = ew.divide(sf.sum(ew.multiply(x, w), axis=1, keepdims=True), v1)
        if ddof == 0:
            fact = v1
        elif a is None:
            fact = ew.subtract(v1, ddof)
        else:
            fact = ew.subtract(v1, ew.divide(ew.multiply(ddof, sf.sum(ew.multiply(w, a))), v1))
        fact = where(ew.less_equal(fact, 0), _const_like(0, fact), fact)
    centered = ew.subtract(x, avg)
    weighted = centered if w is None else ew.multiply(centered, w)
    c = matmul(centered, ew.conj(weighted.T))
    c = ew.multiply(c, ew.divide(1.0, fact) if isinstance(fact, Array) else
                    (math.inf if fact == 0 else 1.0 / fact))
    return mf.squeeze(c) if 1 in c.shape else c


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> Array:
    """Pearson correlation coefficients: ``cov`` normalized by the standard deviations and
    clipped to [-1, 1] (real and imaginary parts each)."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return ew.divide(c, c)
    d = diagonal(c)
    std = ew.sqrt(ew.real(d))
    c = ew.divide(ew.divide(c, mf.reshape(std, (-1, 1))), mf.reshape(std, (1, -1)))
    if c.dtype in dt.COMPLEX_FLOATING:
        re = ew.clip(ew.real(c), -1.0, 1.0)
        im = ew.clip(ew.imag(c), -1.0, 1.0)
        return Array._new(g.alu(Op.COMPLEX, re._node, im._node, dtype=c.dtype.np))
    return ew.clip(c, -1.0, 1.0)


# -- more of NumPy's elementwise functions --------------------------------------------------------
def divmod_(x1: Any, x2: Any, /) -> tuple[Array, Array]:
    """``(floor_divide(x1, x2), remainder(x1, x2))`` (NumPy's ``divmod``; one fused pass
    when both are observed together)."""
    a, b = (as_array(v, device=device_for(x1, x2)) for v in (x1, x2))
    return ew.floor_divide(a, b), ew.remainder(a, b)


divmod_.__name__ = divmod_.__qualname__ = "divmod"


def _nan_ignoring(name: str, pick: Any, x1: Any, x2: Any) -> Array:
    a, b = (as_array(v, device=device_for(x1, x2)) for v in (x1, x2))
    device_of(name, (a, b))
    both = pick(x1 if isinstance(x1, Array) else a if not isinstance(x2, Array) else x1,
                x2 if isinstance(x2, Array) else b if not isinstance(x1, Array) else x2)
    if dt.result_type_of(a, b, where=name).kind not in "fc":
        return both
    return where(ew.isnan(b), a, where(ew.isnan(a), b, both))


def fmax(x1: Any, x2: Any, /) -> Array:
    """The larger of each pair, ignoring a NaN (NaN only where both are)."""
    return _nan_ignoring("fmax", ew.maximum, x1, x2)


def fmin(x1: Any, x2: Any, /) -> Array:
    """The smaller of each pair, ignoring a NaN (NaN only where both are)."""
    return _nan_ignoring("fmin", ew.minimum, x1, x2)


def rint(x: Any, /) -> Array:
    """To the nearest whole number, halves to even; integers give floats, as NumPy's."""
    a = as_array(x)
    if a.dtype.kind in "biu":
        return _as_float(a)
    return ew.round(a)


def fix(x: Any, /) -> Array:
    """Towards zero (``trunc``), keeping integers integers as NumPy's ``fix`` does."""
    return ew.trunc(as_array(x))


def bitwise_count(x: Any, /) -> Array:
    """The number of 1 bits in ``abs(x)`` of integers (uint8), by the SWAR popcount."""
    a = as_array(x)
    if a.dtype.kind not in "biu":
        raise TypeError(f"bitwise_count: not supported for {a.dtype} (integers only)")
    if a.dtype is dt.bool:
        return _cast(a, dt.uint8)
    u = _cast(ew.abs(_cast(a, dt.int64)) if a.dtype.kind == "i" else a, dt.uint64)
    m1, m2, m4 = 0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F
    u = ew.subtract(u, ew.bitwise_and(ew.bitwise_right_shift(u, 1), m1))
    u = ew.add(ew.bitwise_and(u, m2), ew.bitwise_and(ew.bitwise_right_shift(u, 2), m2))
    u = ew.bitwise_and(ew.add(u, ew.bitwise_right_shift(u, 4)), m4)
    u = ew.bitwise_right_shift(ew.multiply(u, 0x0101010101010101), 56)
    return _cast(u, dt.uint8)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> Array:
    """The Vandermonde matrix of the 1-D ``x``: columns ``x**(N-1), ..., x, 1`` (or
    increasing powers)."""
    a = as_array(x)
    if a.ndim != 1:
        raise ValueError(f"vander: x must be a one-dimensional array or sequence, got shape "
                         f"{a.shape}")
    n = a.shape[0] if N is None else int(N)
    powers = arange(n, dtype=dt.int64, device=a.device)
    if not increasing:
        powers = ew.subtract(n - 1, powers)
    base = a if a.dtype is not dt.bool else _cast(a, dt.int64)
    return ew.pow(mf.reshape(base, (-1, 1)), _cast(powers, base.dtype)) if n else \
        zeros((a.shape[0], 0), dtype=base.dtype, device=a.device)


def _window(M: int, terms: tuple[float, ...]) -> Array:
    """``sum_k terms[k] * cos(2 pi k n / (M - 1))`` with alternating signs, n = 0..M-1."""
    from .._devices import registry
    M = int(M)
    if M < 1:
        return zeros((0,), dtype=dt.float64)
    if M == 1:
        return asarray(np.ones(1))
    n = arange(M, dtype=default_float(registry.default()))
    out: Any = None
    for k, c in enumerate(terms):
        term = ew.multiply(c * (-1) ** k, ew.cos(ew.multiply(n, 2.0 * math.pi * k / (M - 1))))
        out = term if out is None else ew.add(out, term)
    return out


def hanning(M: int) -> Array:
    """The Hann window of M points (0 at both ends)."""
    return _window(M, (0.5, 0.5))


def hamming(M: int) -> Array:
    """The Hamming window of M points."""
    return _window(M, (0.54, 0.46))


def blackman(M: int) -> Array:
    """The Blackman window of M points."""
    return _window(M, (0.42, 0.5, 0.08))


def bartlett(M: int) -> Array:
    """The triangular (Bartlett) window of M points."""
    M = int(M)
    if M < 2:
        return _window(M, ())
    n = arange(M, dtype=dt.float64)
    half = (M - 1) / 2.0
    return ew.subtract(1.0, ew.abs(ew.divide(ew.subtract(n, half), half)))


def piecewise(x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Array:
    """Each function (or constant) of ``funclist`` where its condition holds, the last
    condition's winning; an extra function is the default where none holds. Every
    function is evaluated on all of ``x`` and selected (fused), not on ``x[cond]``."""
    a = as_array(x)
    single = isinstance(condlist, (bool, np.bool_)) or (
        isinstance(condlist, Array) and condlist.ndim == a.ndim and condlist.dtype is dt.bool)
    conds = [condlist] if single else list(condlist)
    conds = [as_array(c, device=a.device) for c in conds]
    funcs = list(funclist)
    n = len(conds)
    if len(funcs) == n + 1:
        none = ew.logical_not(functools.reduce(ew.logical_or, conds)) if conds else \
            asarray(True, device=a.device)
        conds.append(none)
    elif len(funcs) != n:
        raise ValueError(f"piecewise: with {n} condition(s), either {n} or {n + 1} functions "
                         f"are expected, got {len(funcs)}")
    out = zeros(a.shape, dtype=a.dtype, device=a.device)
    for c, f in zip(conds, funcs):
        value = as_array(f(a, *args, **kw), device=a.device) if callable(f) else \
            asarray(f, dtype=a.dtype, device=a.device)
        out = where(c, _cast(value, a.dtype) if value.dtype is not a.dtype else value, out)
    return out


def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Array:
    """The differences of consecutive elements of ``ary`` flattened, with ``to_begin``
    and ``to_end`` put around them."""
    a = mf.reshape(as_array(ary), (-1,))
    parts = []
    if to_begin is not None:
        parts.append(_cast(mf.reshape(as_array(to_begin, device=a.device), (-1,)), a.dtype))
    parts.append(ew.subtract(a[1:], a[:-1]))
    if to_end is not None:
        parts.append(_cast(mf.reshape(as_array(to_end, device=a.device), (-1,)), a.dtype))
    return mf.concat(parts) if len(parts) > 1 else parts[0]


def real_if_close(a: Any, tol: float = 100) -> Array:
    """The real part of a complex ``a`` if every imaginary part is within ``tol`` machine
    epsilons of zero (reads that), else ``a``."""
    x = as_array(a)
    if x.dtype.kind != "c":
        return x
    eps = float(np.finfo(x.dtype.np).eps)
    limit = tol * eps if tol > 1 else tol
    if x.size and not builtins.bool(sf.max(ew.abs(ew.imag(x))) < limit):
        return x
    return ew.real(x)


def matvec(x1: Any, x2: Any, /) -> Array:
    """Matrix-vector products over the last axes: ``(x1 @ x2[..., None])[..., 0]``."""
    a, b = (as_array(v, device=device_for(x1, x2)) for v in (x1, x2))
    return matmul(a, mf.expand_dims(b, axis=-1))[..., 0]


def vecmat(x1: Any, x2: Any, /) -> Array:
    """Vector-matrix products over the last axes, the vector conjugated:
    ``(conj(x1)[..., None, :] @ x2)[..., 0, :]``."""
    a, b = (as_array(v, device=device_for(x1, x2)) for v in (x1, x2))
    if a.dtype.kind == "c":
        a = ew.conj(a)
    return matmul(mf.expand_dims(a, axis=-2), b)[..., 0, :]


def fromfunction(function: Any, shape: Any, *, dtype: Any = float, like: Any = None,
                 device: Any = None, **kwargs: Any) -> Any:
    """``function(*indices)`` with one coordinate array per axis of ``shape`` (of
    ``dtype``), as NumPy calls it once with whole arrays."""
    from ._numpy_index_tricks import indices
    return function(*indices(tuple(shape), dtype=dtype, device=device), **kwargs)


def unwrap(p: Any, discont: float | None = None, axis: int = -1, *,
           period: float = 2 * math.pi) -> Array:
    """``p`` with every jump between neighbours along ``axis`` larger than ``discont``
    (default ``period / 2``) taken back by a whole number of periods (phase unwrapping):
    each difference is reduced into ``[-period/2, period/2)`` (a difference of exactly
    ``period/2`` upwards keeps its sign), the corrections summed along the axis (fused)."""
    from ._utility_functions import diff
    x = as_array(p)
    ax = mf.normalize_axis("unwrap", axis, x.ndim) if x.ndim else 0
    if x.ndim == 0 or x.shape[ax] < 2:
        return x[...] if x.dtype.kind in "fc" else _cast(x, default_float(x.device))
    d = diff(x, axis=ax)
    dtype = dt.to_dtype(np.result_type(d.dtype.np, period), "unwrap")
    if dtype.kind in "iu":
        high, rem = builtins.divmod(int(period), 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    d = _cast(d, dtype) if d.dtype is not dtype else d
    low = -high
    dmod = ew.add(ew.remainder(ew.subtract(d, low), period), low)
    if ambiguous:
        dmod = where(ew.logical_and(ew.equal(dmod, low), ew.greater(d, 0)),
                     asarray(high, dtype=dtype, device=x.device), dmod)
    correct = ew.subtract(dmod, d)
    limit = period / 2 if discont is None else discont
    correct = where(ew.less(ew.abs(d), limit), asarray(0, dtype=dtype, device=x.device),
                    correct)
    head = tuple(slice(0, 1) if i == ax else slice(None) for i in range(x.ndim))
    tail = tuple(slice(1, None) if i == ax else slice(None) for i in range(x.ndim))
    first = _cast(x[head], dtype) if x.dtype is not dtype else x[head]
    rest = ew.add(_cast(x[tail], dtype) if x.dtype is not dtype else x[tail],
                  sf.cumulative_sum(correct, axis=ax, dtype=dtype))
    return mf.concat([first, rest], axis=ax)


class ndenumerate:
    """NumPy's ``ndenumerate``: ``(index, value)`` pairs in C order, the values read once
    (a Python loop over elements is host work by nature) as NumPy scalars."""

    def __init__(self, arr: Any) -> None:
        self._it = np.ndenumerate(np.asarray(as_array(arr)._host()))

    def __iter__(self) -> ndenumerate:
        return self

    def __next__(self) -> tuple[tuple[int, ...], Any]:
        return next(self._it)
