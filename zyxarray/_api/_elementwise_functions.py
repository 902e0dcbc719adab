"""The standard's elementwise functions (special cases follow IEEE 754 / C99 Annex G).

Layer: ``_api``. Each function checks its operands' dtypes, promotes and broadcasts them,
and appends one graph node (or a few for composed functions).

# Note: like NumPy, functions defined for floating-point inputs accept integer and boolean
# arrays and compute in the default floating-point dtype (the standard leaves this undefined).
"""

from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._devices import registry
from .._devices.base import Device
from .._lazy import graph as g
from . import _dtypes as dt
from . import _hot
from ._arguments import mixed_devices
from ._array_object import Array


# -- shared helpers ---------------------------------------------------------------------------
def broadcast_shapes(name: str, *shapes: tuple[int, ...]) -> tuple[int, ...]:
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(ndim):
        size = 1
        for s in shapes:
            d = s[i - ndim + len(s)] if i - ndim + len(s) >= 0 else 1
            if d != 1:
                if size != 1 and d != size:
                    raise ValueError(f"{name}: shapes {', '.join(map(str, shapes))} cannot be "
                                     "broadcast together")
                size = d
        out.append(size)
    return tuple(out)


def _broadcast_two(name: str, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """``broadcast_shapes`` for two shapes, the common case, without the general loop."""
    pa, pb = a, b
    if len(pa) < len(pb):
        pa = (1,) * (len(pb) - len(pa)) + pa
    elif len(pb) < len(pa):
        pb = (1,) * (len(pa) - len(pb)) + pb
    out = []
    for x, y in zip(pa, pb):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            return broadcast_shapes(name, a, b)    # raises the error with the given shapes
    return tuple(out)


def broadcast_node(node: g.Node, shape: tuple[int, ...]) -> g.Node:
    return g.broadcast(node, shape)


def device_of(name: str, args: tuple[Any, ...]) -> Device:
    devices = {a.device for a in args if isinstance(a, Array)}
    if len(devices) > 1:
        raise mixed_devices(name, devices)
    return devices.pop() if devices else registry.default()


def default_float(device: Device) -> dt.DType:
    return dt.float64 if device.info.float64 else dt.float32


def scalar_node(name: str, value: Any, dtype: dt.DType, device: Device) -> g.Node:
    if isinstance(value, np.generic):
        value = value.item()
    if dtype.kind in "iu":
        if isinstance(value, float) and (not math.isfinite(value) or value != int(value)):
            raise TypeError(f"{name}: cannot combine the float {value!r} with a "
                            f"{dtype.name} array")
        info = np.iinfo(dtype.np)
        if isinstance(value, (int, float)) and not info.min <= int(value) <= info.max:
            raise OverflowError(f"{name}: Python integer {value} is out of bounds for "
                                f"{dtype.name}")
    return g.const(value, dtype.np, device)


def _as_array(name: str, x: Any, device: Device) -> Any:
    """NumPy arrays and NumPy scalars become arrays; Python scalars stay (they are weak)."""
    if isinstance(x, Array) or (isinstance(x, (builtins.bool, int, float, complex)) and \
            not isinstance(x, np.generic)):
        return x
    if isinstance(x, (np.ndarray, np.generic, list, tuple)):
        return _require_array(name, x, device)
    raise TypeError(f"{name}: unsupported operand type {type(x).__name__}")


def operands(name: str, *args: Any, dtype: dt.DType | None = None
             ) -> tuple[list[g.Node], dt.DType, Device]:
    """Promote and broadcast the operands: (nodes of one dtype and shape, dtype, device)."""
    if len(args) == 2 and dtype is None:
        fast = operands_fast(name, args[0], args[1])
        if fast is not None:
            return fast
    device = device_of(name, args)
    args = tuple(_as_array(name, a, device) for a in args)
    device = device_of(name, args)
    if not any(isinstance(a, Array) for a in args):
        # NumPy's functions take Python numbers alone (np.add(1, 2.5)): each becomes an
        # array of its default dtype, and the arrays promote as arrays do.
        args = tuple(_require_array(name, a, device) for a in args)
    common = dtype or dt.result_type_of(*args, where=name)
    shape = broadcast_shapes(name, *(a.shape for a in args if isinstance(a, Array)))
    nodes = []
    for a in args:
        if isinstance(a, Array):
            n = g.cast(a._node, common.np)
        else:
            n = scalar_node(name, a, common, device)
        nodes.append(broadcast_node(n, shape))
    return nodes, common, device


_PY_SCALARS = (int, float, complex)


def operands_fast(name: str, a: Any, b: Any) -> tuple[list[g.Node], dt.DType, Device] | None:
    """The common cases without the general machinery: array with array of the same dtype
    and shape, and array with a Python int/float/complex (bool goes the long way)."""
    ta, tb = type(a), type(b)
    if ta is Array and tb is Array:
        na, nb = a._node, b._node
        if na.dtype != nb.dtype or na.device is not nb.device:
            return None
        sa, sb = na.shape, nb.shape
        if sa != sb:      # same dtype, broadcast shapes (x - max(x, axis=1, keepdims=True))
            shape = _broadcast_two(name, sa, sb)
            na, nb = g.broadcast(na, shape), g.broadcast(nb, shape)
        return [na, nb], dt.from_np(na.dtype), na.device
    if ta is Array and tb in _PY_SCALARS:
        arr, scalar, first = a, b, True
    elif tb is Array and ta in _PY_SCALARS:
        arr, scalar, first = b, a, False
    else:
        return None
    node = arr._node
    d = dt.scalar_result(dt.from_np(node.dtype), scalar)
    if d.np != node.dtype:
        node = g.cast(node, d.np)
    c = scalar_node(name, scalar, d, node.device)   # a scalar operand needs no broadcast
    return ([node, c] if first else [c, node]), d, node.device


def check(name: str, dtype: dt.DType, category: str) -> None:
    if not dt.is_kind(dtype, category):
        raise TypeError(f"{name}: expected a {category} dtype, got {dtype.name}")


def _wrap(node: g.Node) -> Array:
    return Array._new(node)


def _unary(name: str, x: Any, op: Op, category: str = "numeric") -> Array:
    x = _require_array(name, x)
    check(name, x.dtype, category)
    return _wrap(g.alu(op, x._node))


_ARRAY_LIKES = (np.ndarray, np.generic, list, tuple, builtins.bool, int, float, complex)


def _require_array(name: str, x: Any, device: Device | None = None) -> Array:
    """An array, or an array-like that NumPy's function of that name accepts (a NumPy array
    or scalar, a list or tuple, a Python number), made an array on ``device``."""
    if isinstance(x, Array):
        return x
    if isinstance(x, _ARRAY_LIKES) or hasattr(x, "__array__") or hasattr(x, "__dlpack__"):
        from ._creation_functions import asarray
        try:
            return asarray(x, device=device)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{name}: cannot make an array of {type(x).__name__} "
                            f"({e})") from None
    raise TypeError(f"{name}: expected an array, got {type(x).__name__}")


#: ``_hot.c``'s float functions computed now for small arrays in host memory (by name)
_NOW_CODES = _hot.UNARY if _hot.core is not None else {}
_now = _hot.core.unary_now if _hot.core is not None else None
_NOW_BINARY = _hot.BINARY if _hot.core is not None else {}
_binary_now = _hot.core.binary_now if _hot.core is not None else None


def _float_unary(name: str, x: Any, op: Op) -> Array:
    """A function of floating-point values; integers compute in the default float dtype."""
    if type(x) is Array:
        fn = _NOW_CODES.get(name)
        if fn is not None:
            result = _now(fn, x)        # type: ignore[misc]
            if result is not None:
                return result
        node = x._node
        if node.dtype.kind in "fc" and not g.is_constant(node):
            return Array._new(g.alu1(op, node))     # (the common case, in one step)
    x = _require_array(name, x)
    node = x._node
    if x.dtype not in dt.FLOATING:
        check(name, x.dtype, "real-valued" if x.dtype is not dt.bool else "bool")
        node = g.cast(node, default_float(x.device).np)
    return _wrap(g.alu(op, node))


def _binary(name: str, x1: Any, x2: Any, op: Op, category: str = "numeric",
            swap: bool = False) -> Array:
    fn = _NOW_BINARY.get(name)
    if fn is not None:      # (small arrays in memory: computed now, in C, as the kernels)
        result = _binary_now(x1, x2, fn)        # type: ignore[misc]
        if result is not None:
            return result
    compare = op in _COMPARISONS
    if compare:
        out_of_range = _compare_out_of_range(x1, x2, op, swap)
        if out_of_range is not None:
            return out_of_range
    (a, b), common, _ = operands_fast(name, x1, x2) or operands(name, x1, x2)
    check(name, common, category)
    if swap:
        a, b = b, a
    return Array._new(g.alu(op, a, b, dtype=_BOOL if compare else None))


_COMPARISONS = (Op.CMPLT, Op.CMPLE, Op.CMPEQ, Op.CMPNE)
_BOOL = np.dtype(np.bool_)


_IINFO: dict[np.dtype, np.iinfo] = {}


def _compare_out_of_range(x1: Any, x2: Any, op: Op, swap: bool) -> Array | None:
    """NumPy 2 compares a Python int with an integer array by value, even outside the
    dtype's range (int8_array < 300 is all True): then every element compares alike."""
    for arr, value, arr_first in ((x1, x2, True), (x2, x1, False)):
        if type(value) is int and isinstance(arr, Array) and arr._node.dtype.kind in "iu":
            info = _IINFO.get(arr._node.dtype)
            if info is None:
                info = _IINFO[arr._node.dtype] = np.iinfo(arr._node.dtype)
            if info.min <= value <= info.max:
                return None
            if op is Op.CMPEQ or op is Op.CMPNE:
                result = op is Op.CMPNE
            else:
                above = value > info.max
                result = above if arr_first != swap else not above
            return _wrap(broadcast_node(g.const(result, np.bool_, arr.device), arr.shape))
    return None


def _float_binary(name: str, x1: Any, x2: Any, op: Op, category: str = "real-valued") -> Array:
    # Note: a Python int joins as a float (as in NumPy 2: int8_array / 300 is fine); the
    # result dtype is the same as with the int, which the float dtype would absorb anyway.
    x1, x2 = (float(v) if type(v) is int else v for v in (x1, x2))
    (a, b), common, device = operands(name, x1, x2)
    check(name, common, category)
    if common not in dt.FLOATING:
        f = default_float(device).np
        a, b = g.cast(a, f), g.cast(b, f)
    return _wrap(g.alu(op, a, b))


# -- arithmetic -------------------------------------------------------------------------------
def add(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 + x2``."""
    return _binary("add", x1, x2, Op.ADD, "any")


def subtract(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 - x2``."""
    return _binary("subtract", x1, x2, Op.SUB)


def multiply(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 * x2``."""
    return _binary("multiply", x1, x2, Op.MUL, "any")


def divide(x1: Any, x2: Any, /) -> Array:
    """Elementwise true division ``x1 / x2``."""
    return _float_binary("divide", x1, x2, Op.DIV, "numeric")


def floor_divide(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 // x2`` (rounded toward negative infinity)."""
    return _binary("floor_divide", x1, x2, Op.IDIV, "real-valued")


def remainder(x1: Any, x2: Any, /) -> Array:
    """Elementwise remainder with the sign of the divisor (Python's ``%``)."""
    return _binary("remainder", x1, x2, Op.MOD, "real-valued")


def pow(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 ** x2``.

    Like NumPy, a Python scalar exponent of 2 or 1 becomes a multiply or a copy: the same
    values (x*x is what pow gives, correctly rounded) without a pow call per element.
    """
    if isinstance(x1, Array) and type(x2) in (int, float) and x2 in (1, 2):
        d = dt.scalar_result(x1.dtype, x2)
        check("pow", d, "numeric")
        if x2 == 2 and d == x1.dtype:
            return x1 * x1      # (the operator: a small array in memory computes it now)
        node = g.cast(x1._node, d.np)
        return _wrap(node if x2 == 1 else g.alu(Op.MUL, node, node))
    out = _binary("pow", x1, x2, Op.POW, "numeric")
    if out.dtype in dt.INTEGER:
        _no_negative_powers(x2)
    return out


def _no_negative_powers(x2: Any) -> None:
    """NumPy's rule: an integer to a negative integer power raises (it would be a fraction;
    a silent 0 is wrong). An array exponent is read to check it (one small reduction)."""
    if isinstance(x2, (int, np.integer)) and not isinstance(x2, builtins.bool):
        negative = x2 < 0
    elif isinstance(x2, Array) and x2.dtype in dt.SIGNED:
        from ._utility_functions import any as any_
        negative = builtins.bool(any_(less(x2, 0)))
    else:
        return
    if negative:
        raise ValueError("pow: integers to negative integer powers are not allowed")


def negative(x: Any, /) -> Array:
    """Elementwise ``-x``."""
    return _unary("negative", x, Op.NEG)


def positive(x: Any, /) -> Array:
    """Elementwise ``+x`` (a copy of the values)."""
    x = _require_array("positive", x)
    check("positive", x.dtype, "numeric")
    return Array._new(x._node)      # (a new array, as NumPy's: a write to x is not seen)


def abs(x: Any, /) -> Array:
    """Elementwise absolute value (the modulus, as a real dtype, for complex input)."""
    if type(x) is Array and _now is not None:
        result = _now(_NOW_CODES["abs"], x)     # (floats of small arrays in memory: now)
        if result is not None:
            return result
    x = _require_array("abs", x)
    check("abs", x.dtype, "numeric")
    if x.dtype in dt.UNSIGNED:
        return Array._new(x._node)
    return _wrap(g.alu(Op.ABS, x._node, dtype=np.empty(0, x.dtype.np).real.dtype))


def square(x: Any, /) -> Array:
    """Elementwise ``x * x``."""
    x = _require_array("square", x)
    check("square", x.dtype, "numeric")
    return _wrap(g.alu(Op.MUL, x._node, x._node))


def sqrt(x: Any, /) -> Array:
    """Elementwise square root."""
    return _float_unary("sqrt", x, Op.SQRT)


def reciprocal(x: Any, /) -> Array:
    """Elementwise ``1 / x``."""
    return divide(1.0, _require_array("reciprocal", x))


def sign(x: Any, /) -> Array:
    """-1, 0 or 1 by the sign of x (x / |x| for complex x); NaN stays NaN."""
    x = _require_array("sign", x)
    check("sign", x.dtype, "numeric")
    if x.dtype in dt.UNSIGNED:
        return _wrap(g.cast(g.alu(Op.CMPNE, x._node, g.expand(g.reshape(
            g.const(0, x.dtype.np, x.device), (1,) * x.ndim), x.shape)), x.dtype.np))
    return _wrap(g.alu(Op.SIGN, x._node))


def exp(x: Any, /) -> Array:
    """Elementwise e**x."""
    return _float_unary("exp", x, Op.EXP)


def expm1(x: Any, /) -> Array:
    """Elementwise e**x - 1, accurate near 0."""
    x = _require_array("expm1", x)
    if x.dtype in dt.COMPLEX_FLOATING:
        # NumPy's formula, accurate near 0 (exp(z) - 1 is not):
        # expm1(a+bi) = (expm1(a) cos b - 2 sin(b/2)**2) + (exp(a) sin b) i
        part = np.empty(0, x.dtype.np).real.dtype
        a = g.alu(Op.REAL, x._node, dtype=part)
        b = g.alu(Op.IMAG, x._node, dtype=part)
        half = g.alu(Op.SIN, g.alu(Op.MUL, b, broadcast_node(g.const(0.5, part, x.device),
                                                              x.shape)))
        two = broadcast_node(g.const(2.0, part, x.device), x.shape)
        re = g.alu(Op.SUB, g.alu(Op.MUL, g.alu(Op.EXPM1, a), g.alu(Op.COS, b)),
                   g.alu(Op.MUL, two, g.alu(Op.MUL, half, half)))
        # + 0.0 turns the -0 of expm1(-0 + 0j) into the +0 the standard asks for (and changes
        # nothing else)
        re = g.alu(Op.ADD, re, broadcast_node(g.const(0.0, part, x.device), x.shape))
        im = g.alu(Op.MUL, g.alu(Op.EXP, a), g.alu(Op.SIN, b))
        accurate = g.alu(Op.COMPLEX, re, im, dtype=x.dtype.np)
        # infinities and NaNs: C99's cexp(z) - 1 (from the real part) has the standard's
        # special cases (expm1(-inf + inf j) = -1 + 0j, ...)
        e = g.alu(Op.EXP, x._node)
        one = broadcast_node(g.const(1.0, part, x.device), x.shape)
        edge = g.alu(Op.COMPLEX, g.alu(Op.SUB, g.alu(Op.REAL, e, dtype=part), one),
                     g.alu(Op.IMAG, e, dtype=part), dtype=x.dtype.np)
        finite = g.alu(Op.ISFINITE, x._node, dtype=np.bool_)
        return _wrap(g.alu(Op.WHERE, finite, accurate, edge))
    return _float_unary("expm1", x, Op.EXPM1)


def log(x: Any, /) -> Array:
    """Elementwise natural logarithm."""
    return _float_unary("log", x, Op.LOG)


def log1p(x: Any, /) -> Array:
    """Elementwise log(1 + x), accurate near 0."""
    x = _require_array("log1p", x)
    if x.dtype in dt.COMPLEX_FLOATING:
        # 1 joins the real part only: a complex 1+0j would turn -2-0j into -1+0j and flip
        # the branch cut's side (NumPy: log1p(-2-0j) = log(2) - pi j)
        part = np.empty(0, x.dtype.np).real.dtype
        one = broadcast_node(g.const(1.0, part, x.device), x.shape)
        re = g.alu(Op.ADD, g.alu(Op.REAL, x._node, dtype=part), one)
        z = g.alu(Op.COMPLEX, re, g.alu(Op.IMAG, x._node, dtype=part), dtype=x.dtype.np)
        return log(_wrap(z))
    return _float_unary("log1p", x, Op.LOG1P)


def _scale_components(z: Array, factor: float) -> Array:
    """Complex ``z`` times a real factor, component by component (as NumPy's clog2/clog10):
    a complex product would turn log(0) = -inf+0j into -inf+nanj."""
    part = np.empty(0, z.dtype.np).real.dtype
    c = broadcast_node(g.const(factor, part, z.device), z.shape)
    re = g.alu(Op.MUL, g.alu(Op.REAL, z._node, dtype=part), c)
    im = g.alu(Op.MUL, g.alu(Op.IMAG, z._node, dtype=part), c)
    return _wrap(g.alu(Op.COMPLEX, re, im, dtype=z.dtype.np))


def log2(x: Any, /) -> Array:
    """Elementwise base-2 logarithm."""
    x = _require_array("log2", x)
    if x.dtype in dt.COMPLEX_FLOATING:
        return _scale_components(log(x), math.log2(math.e))
    return _float_unary("log2", x, Op.LOG2)


def log10(x: Any, /) -> Array:
    """Elementwise base-10 logarithm."""
    x = _require_array("log10", x)
    if x.dtype in dt.COMPLEX_FLOATING:
        return _scale_components(log(x), math.log10(math.e))
    return _float_unary("log10", x, Op.LOG10)


def logaddexp(x1: Any, x2: Any, /) -> Array:
    """Elementwise log(exp(x1) + exp(x2)) without overflow."""
    return _float_binary("logaddexp", x1, x2, Op.LOGADDEXP)


def sin(x: Any, /) -> Array:
    """Elementwise sine."""
    return _float_unary("sin", x, Op.SIN)


def cos(x: Any, /) -> Array:
    """Elementwise cosine."""
    return _float_unary("cos", x, Op.COS)


def tan(x: Any, /) -> Array:
    """Elementwise tangent."""
    return _float_unary("tan", x, Op.TAN)


def asin(x: Any, /) -> Array:
    """Elementwise inverse sine."""
    return _float_unary("asin", x, Op.ASIN)


def acos(x: Any, /) -> Array:
    """Elementwise inverse cosine."""
    return _float_unary("acos", x, Op.ACOS)


def atan(x: Any, /) -> Array:
    """Elementwise inverse tangent."""
    return _float_unary("atan", x, Op.ATAN)


def atan2(x1: Any, x2: Any, /) -> Array:
    """Elementwise angle of the point (x2, x1), quadrant-aware."""
    return _float_binary("atan2", x1, x2, Op.ATAN2)


def sinh(x: Any, /) -> Array:
    """Elementwise hyperbolic sine."""
    return _float_unary("sinh", x, Op.SINH)


def cosh(x: Any, /) -> Array:
    """Elementwise hyperbolic cosine."""
    return _float_unary("cosh", x, Op.COSH)


def tanh(x: Any, /) -> Array:
    """Elementwise hyperbolic tangent."""
    x = _require_array("tanh", x)
    if x.dtype not in dt.COMPLEX_FLOATING:
        return _float_unary("tanh", x, Op.TANH)
    # the standard's tanh(+-inf + bj) = +-1 + 0j for finite b (with the sign of b on the zero);
    # C99 leaves the zero's sign unspecified and libm gives the sign of sin(2b)
    part = np.empty(0, x.dtype.np).real.dtype
    a = g.alu(Op.REAL, x._node, dtype=part)
    b = g.alu(Op.IMAG, x._node, dtype=part)

    def c(v: float) -> g.Node:
        return broadcast_node(g.const(v, part, x.device), x.shape)

    edge = g.alu(Op.COMPLEX, g.alu(Op.COPYSIGN, c(1.0), a), g.alu(Op.COPYSIGN, c(0.0), b),
                 dtype=x.dtype.np)
    at_inf = g.alu(Op.AND, g.alu(Op.ISINF, a, dtype=np.bool_),
                   g.alu(Op.ISFINITE, b, dtype=np.bool_), dtype=np.bool_)
    return _wrap(g.alu(Op.WHERE, at_inf, edge, g.alu(Op.TANH, x._node)))


def asinh(x: Any, /) -> Array:
    """Elementwise inverse hyperbolic sine."""
    return _float_unary("asinh", x, Op.ASINH)


def acosh(x: Any, /) -> Array:
    """Elementwise inverse hyperbolic cosine."""
    return _float_unary("acosh", x, Op.ACOSH)


def atanh(x: Any, /) -> Array:
    """Elementwise inverse hyperbolic tangent."""
    return _float_unary("atanh", x, Op.ATANH)


def hypot(x1: Any, x2: Any, /) -> Array:
    """Elementwise sqrt(x1**2 + x2**2) without undue overflow."""
    return _float_binary("hypot", x1, x2, Op.HYPOT)


def copysign(x1: Any, x2: Any, /) -> Array:
    """Elementwise |x1| with the sign of x2."""
    return _float_binary("copysign", x1, x2, Op.COPYSIGN)


def nextafter(x1: Any, x2: Any, /) -> Array:
    """Elementwise next representable value after x1 toward x2."""
    return _float_binary("nextafter", x1, x2, Op.NEXTAFTER)


def _rounding(name: str, x: Any, op: Op) -> Array:
    x = _require_array(name, x)
    check(name, x.dtype, "real-valued" if op is not Op.ROUND else "numeric")
    if x.dtype in dt.INTEGER or x.dtype is dt.bool:
        return Array._new(x._node)
    if x.dtype in dt.COMPLEX_FLOATING:
        part = np.empty(0, x.dtype.np).real.dtype
        re = g.alu(op, g.alu(Op.REAL, x._node, dtype=part))
        im = g.alu(op, g.alu(Op.IMAG, x._node, dtype=part))
        return _wrap(g.alu(Op.COMPLEX, re, im, dtype=x.dtype.np))
    return _wrap(g.alu(op, x._node))


def floor(x: Any, /) -> Array:
    """Elementwise largest integer value not above x."""
    return _rounding("floor", x, Op.FLOOR)


def ceil(x: Any, /) -> Array:
    """Elementwise smallest integer value not below x."""
    return _rounding("ceil", x, Op.CEIL)


def trunc(x: Any, /) -> Array:
    """Elementwise integer part of x (rounded toward zero)."""
    return _rounding("trunc", x, Op.TRUNC)


def round(x: Any, /, decimals: int = 0) -> Array:
    """Elementwise rounding to the nearest integer (or to ``decimals`` places, as NumPy),
    halves to even."""
    # Note: ``decimals`` is NumPy's; the standard's round has no such parameter. Like NumPy,
    # x is scaled by 10**decimals, rounded and scaled back, and integers are rounded to
    # tens, hundreds, ... through the default float dtype.
    import operator
    try:
        decimals = operator.index(decimals)
    except TypeError:
        raise TypeError(f"round: decimals must be an integer, got {decimals!r}") from None
    out = _rounding("round", x, Op.ROUND)
    if decimals == 0 or (decimals > 0 and x.dtype not in dt.FLOATING):
        return out
    if x.dtype is dt.bool:
        raise TypeError("round: decimals other than 0 are not supported for bool")
    if decimals > 0:
        scale = 10.0 ** decimals
        return divide(_rounding("round", multiply(x, scale), Op.ROUND), scale)
    scale = 10.0 ** -decimals
    out = multiply(_rounding("round", divide(x, scale), Op.ROUND), scale)
    return out if x.dtype in dt.FLOATING else _wrap(g.cast(out._node, x.dtype.np))


def maximum(x1: Any, x2: Any, /) -> Array:
    """Elementwise maximum; NaN if either is NaN."""
    return _binary("maximum", x1, x2, Op.MAX, "real-valued")


def minimum(x1: Any, x2: Any, /) -> Array:
    """Elementwise minimum; NaN if either is NaN."""
    return _binary("minimum", x1, x2, Op.MIN, "real-valued")


def clip(x: Any, /, min: Any = None, max: Any = None, out: Any = None, *, a_min: Any = None,
         a_max: Any = None) -> Array:
    """Clamp x to [min, max]; a None bound is absent. The result keeps x's dtype and has
    the broadcast shape of x and the array bounds (as NumPy). NumPy's ``a_min``/``a_max``
    name the bounds too; ``out`` is written in place."""
    if a_min is not None or a_max is not None:
        if (a_min is not None and min is not None) or (a_max is not None and max is not None):
            raise TypeError("clip: give each bound once (min or a_min, max or a_max)")
        min = a_min if a_min is not None else min
        max = a_max if a_max is not None else max
    if out is not None:
        from ._numpy_args import write_out
        return write_out("clip", out, clip(x, min, max))
    if type(x) is Array and _binary_now is not None and (min is not None or max is not None) \
            and type(min) in _CLIP_NOW and type(max) in _CLIP_NOW:
        # (a small array in memory and number bounds: max then min, computed now in C as
        # the kernels compute them; a bound its dtype cannot hold takes the path below)
        result: Any = x
        for bound, code in ((min, "maximum"), (max, "minimum")):
            if bound is not None and result is not None:
                result = _binary_now(result, bound, _NOW_BINARY[code])
        if result is not None:
            return result
    x = _require_array("clip", x)
    check("clip", x.dtype, "real-valued")
    arrays = [b for b in (min, max) if isinstance(b, Array)]
    shape = broadcast_shapes("clip", x.shape, *(b.shape for b in arrays))
    out = broadcast_node(x._node, shape)
    for bound, op in ((min, Op.MAX), (max, Op.MIN)):
        if bound is None:
            continue
        if isinstance(bound, Array):
            b = g.cast(bound._node, x.dtype.np)
        else:
            if x.dtype in dt.INTEGER:
                info = np.iinfo(x.dtype.np)
                bound = builtins.min(builtins.max(bound, info.min), info.max)
            b = g.const(bound, x.dtype.np, x.device)
        out = g.alu(op, out, broadcast_node(b, shape))
    return _wrap(out)

_CLIP_NOW = (int, float, type(None))


# -- complex ----------------------------------------------------------------------------------
def real(x: Any, /) -> Array:
    """Real component (the values themselves for real input)."""
    x = _require_array("real", x)
    check("real", x.dtype, "numeric")
    if x.dtype not in dt.COMPLEX_FLOATING:
        return x
    return _wrap(g.alu(Op.REAL, x._node, dtype=np.empty(0, x.dtype.np).real.dtype))


def imag(x: Any, /) -> Array:
    """Imaginary component (zeros for real input)."""
    x = _require_array("imag", x)
    check("imag", x.dtype, "numeric")
    if x.dtype not in dt.COMPLEX_FLOATING:
        return _wrap(broadcast_node(g.const(0, x.dtype.np, x.device), x.shape))
    return _wrap(g.alu(Op.IMAG, x._node, dtype=np.empty(0, x.dtype.np).real.dtype))


def conj(x: Any, /) -> Array:
    """Complex conjugate (the values themselves for real input)."""
    x = _require_array("conj", x)
    check("conj", x.dtype, "numeric")
    if x.dtype not in dt.COMPLEX_FLOATING:
        return Array._new(x._node)
    return _wrap(g.alu(Op.CONJ, x._node))


# -- predicates -------------------------------------------------------------------------------
def _predicate(name: str, x: Any, op: Op, ints: bool) -> Array:
    x = _require_array(name, x)
    check(name, x.dtype, "numeric" if name != "signbit" else "real floating-point")
    if x.dtype not in dt.FLOATING:
        return _wrap(broadcast_node(g.const(ints, np.bool_, x.device), x.shape))
    return _wrap(g.alu(op, x._node, dtype=np.bool_))


def isnan(x: Any, /) -> Array:
    """True where x is NaN."""
    return _predicate("isnan", x, Op.ISNAN, False)


def isinf(x: Any, /) -> Array:
    """True where x is +-infinity."""
    return _predicate("isinf", x, Op.ISINF, False)


def isfinite(x: Any, /) -> Array:
    """True where x is neither infinite nor NaN."""
    return _predicate("isfinite", x, Op.ISFINITE, True)


def signbit(x: Any, /) -> Array:
    """True where the sign bit of x is set (also for -0.0 and negative NaNs)."""
    return _predicate("signbit", x, Op.SIGNBIT, False)


# -- comparison -------------------------------------------------------------------------------
def equal(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 == x2``."""
    return _binary("equal", x1, x2, Op.CMPEQ, "any")


def not_equal(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 != x2``."""
    return _binary("not_equal", x1, x2, Op.CMPNE, "any")


def less(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 < x2``."""
    return _binary("less", x1, x2, Op.CMPLT, "real-valued")


def less_equal(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 <= x2``."""
    return _binary("less_equal", x1, x2, Op.CMPLE, "real-valued")


def greater(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 > x2``."""
    return _binary("greater", x1, x2, Op.CMPLT, "real-valued", swap=True)


def greater_equal(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 >= x2``."""
    return _binary("greater_equal", x1, x2, Op.CMPLE, "real-valued", swap=True)


# -- bitwise and logical ----------------------------------------------------------------------
def bitwise_and(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 & x2``."""
    return _binary("bitwise_and", x1, x2, Op.AND, "integer or boolean")


def bitwise_or(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 | x2``."""
    return _binary("bitwise_or", x1, x2, Op.OR, "integer or boolean")


def bitwise_xor(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 ^ x2``."""
    return _binary("bitwise_xor", x1, x2, Op.XOR, "integer or boolean")


def bitwise_invert(x: Any, /) -> Array:
    """Elementwise ``~x``."""
    return _unary("bitwise_invert", x, Op.NOT, "integer or boolean")


def bitwise_left_shift(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 << x2`` (0 once every bit is shifted out)."""
    return _binary("bitwise_left_shift", x1, x2, Op.SHL, "integer")


def bitwise_right_shift(x1: Any, x2: Any, /) -> Array:
    """Elementwise ``x1 >> x2`` (arithmetic for signed integers)."""
    return _binary("bitwise_right_shift", x1, x2, Op.SHR, "integer")


def _logical(name: str, x1: Any, x2: Any, op: Op) -> Array:
    # Note: NumPy accepts numbers here (non-zero is True); the standard requires bool.
    # Python scalars count by truth value (uint8_array or -1 is True, as in NumPy).
    if type(x1) is Array and type(x2) is Array and _binary_now is not None and \
            x1.dtype is dt.bool and x2.dtype is dt.bool:
        # (bool arrays in memory: the bitwise operator of 0s and 1s, computed now in C)
        result = _binary_now(x1, x2, _NOW_BINARY[_LOGICAL_BITS[op]])
        if result is not None:
            return result
    x1, x2 = (builtins.bool(v) if type(v) in (int, float, complex) else v for v in (x1, x2))
    (a, b), _, _ = operands(name, x1, x2)
    return _wrap(g.alu(op, g.cast(a, np.bool_), g.cast(b, np.bool_)))


_LOGICAL_BITS = {Op.AND: "bitwise_and", Op.OR: "bitwise_or", Op.XOR: "bitwise_xor"}


def logical_and(x1: Any, x2: Any, /) -> Array:
    """Elementwise logical AND."""
    return _logical("logical_and", x1, x2, Op.AND)


def logical_or(x1: Any, x2: Any, /) -> Array:
    """Elementwise logical OR."""
    return _logical("logical_or", x1, x2, Op.OR)


def logical_xor(x1: Any, x2: Any, /) -> Array:
    """Elementwise logical XOR."""
    return _logical("logical_xor", x1, x2, Op.XOR)


def logical_not(x: Any, /) -> Array:
    """Elementwise logical NOT."""
    x = _require_array("logical_not", x)
    return _wrap(g.alu(Op.NOT, g.cast(x._node, np.bool_)))
