"""Elementwise functions against NumPy 2, on every device and against the reference device.

Dtypes: all 13. Shapes: 0-d, empty and broadcast shapes. Operands: often non-contiguous views
(see ``tests.helpers.view_recipe``). Where zyxarray deliberately differs from NumPy (the
standard's dtype categories, the default float dtype for integer input to float functions,
uint64 mixed with signed integers) the test states the rule it checks.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import (
    COMPLEX,
    DTYPES,
    FLOAT,
    INTEGER,
    NUMERIC,
    REAL,
    REAL_FLOAT,
    SIGNED,
    Input,
    apply_np,
    assert_close,
    check_against_numpy,
    elements,
    flushes_float32_subnormals,
    inputs,
    numpy_result,
    on_devices,
    scaled,
    tolerance,
)
from zyxarray._devices import registry

ALL = DTYPES
INT_OR_BOOL = INTEGER + ("bool",)


@dataclass
class Spec:
    """How to test one function: its NumPy twin, the dtypes the standard allows (of the
    promoted operands), the tolerance kind, and value ranges."""

    np_fn: Callable[..., Any]
    allowed: tuple[str, ...]
    kind: str = "exact"
    float_fn: bool = False          # integer/bool input computes in float64 (not NumPy's)
    moderate: bool = False          # floats in [-20, 20] plus specials
    finite_complex: bool = True     # complex operands finite: NumPy is not C99 Annex G
    complex_kind: str | None = None  # tolerance kind for complex results
    extra: dict[str, Any] = field(default_factory=dict)


def _np_floor_divide(a: Any, b: Any) -> Any:
    """NumPy's floor_divide with the standard's special cases, where they differ: a finite
    number over an infinity is a signed zero (-1.0 // inf is -0.0, not -1.0), and an
    infinity over a finite number is an infinity (inf // 1.0 is inf, not nan)."""
    out = np.floor_divide(a, b)
    if out.dtype.kind == "f":
        x, y = np.asarray(a, out.dtype), np.asarray(b, out.dtype)
        special = (np.isinf(y) & np.isfinite(x)) | (np.isinf(x) & np.isfinite(y))
        out = np.asarray(np.where(special, x / y, out), out.dtype)
    return out


BINARY: dict[str, Spec] = {
    "add": Spec(np.add, ALL, complex_kind="arith"),
    "subtract": Spec(np.subtract, NUMERIC, complex_kind="arith"),
    "multiply": Spec(np.multiply, ALL, complex_kind="arith"),
    "divide": Spec(np.divide, NUMERIC, float_fn=True, complex_kind="arith"),
    "floor_divide": Spec(_np_floor_divide, REAL),
    "remainder": Spec(np.remainder, REAL),
    "pow": Spec(np.power, NUMERIC, kind="transcendental", extra={"int_exponent": True}),
    "maximum": Spec(np.maximum, REAL),
    "minimum": Spec(np.minimum, REAL),
    "atan2": Spec(np.arctan2, REAL, kind="transcendental", float_fn=True, moderate=True),
    "hypot": Spec(np.hypot, REAL, kind="transcendental", float_fn=True),
    "copysign": Spec(np.copysign, REAL, float_fn=True),
    "nextafter": Spec(np.nextafter, REAL, float_fn=True),
    "logaddexp": Spec(np.logaddexp, REAL, kind="transcendental", float_fn=True,
                      moderate=True),
    "equal": Spec(np.equal, ALL),
    "not_equal": Spec(np.not_equal, ALL),
    "less": Spec(np.less, REAL),
    "less_equal": Spec(np.less_equal, REAL),
    "greater": Spec(np.greater, REAL),
    "greater_equal": Spec(np.greater_equal, REAL),
    "bitwise_and": Spec(np.bitwise_and, INT_OR_BOOL),
    "bitwise_or": Spec(np.bitwise_or, INT_OR_BOOL),
    "bitwise_xor": Spec(np.bitwise_xor, INT_OR_BOOL),
    "bitwise_left_shift": Spec(np.left_shift, INTEGER),
    "bitwise_right_shift": Spec(np.right_shift, INTEGER),
    "logical_and": Spec(lambda a, b: np.logical_and(a, b), ALL),
    "logical_or": Spec(lambda a, b: np.logical_or(a, b), ALL),
    "logical_xor": Spec(lambda a, b: np.logical_xor(a, b), ALL),
}

TRANS = dict(kind="transcendental", float_fn=True, moderate=True)
UNARY: dict[str, Spec] = {
    "abs": Spec(np.abs, NUMERIC, complex_kind="arith"),
    "negative": Spec(np.negative, NUMERIC),
    "positive": Spec(np.positive, NUMERIC),
    "square": Spec(np.square, NUMERIC, complex_kind="arith"),
    "sqrt": Spec(np.sqrt, ALL, float_fn=True, complex_kind="transcendental"),
    "reciprocal": Spec(lambda a: np.divide(1.0, a), ALL, float_fn=True, complex_kind="arith"),
    "exp": Spec(np.exp, ALL, **TRANS),
    "expm1": Spec(np.expm1, ALL, **TRANS),
    "log": Spec(np.log, ALL, **TRANS),
    "log1p": Spec(np.log1p, ALL, **TRANS),
    "log2": Spec(np.log2, ALL, **TRANS),
    "log10": Spec(np.log10, ALL, **TRANS),
    "sin": Spec(np.sin, ALL, **TRANS),
    "cos": Spec(np.cos, ALL, **TRANS),
    "tan": Spec(np.tan, ALL, **TRANS),
    "asin": Spec(np.arcsin, ALL, **TRANS),
    "acos": Spec(np.arccos, ALL, **TRANS),
    "atan": Spec(np.arctan, ALL, **TRANS),
    "sinh": Spec(np.sinh, ALL, **TRANS),
    "cosh": Spec(np.cosh, ALL, **TRANS),
    "tanh": Spec(np.tanh, ALL, **TRANS),
    "asinh": Spec(np.arcsinh, ALL, **TRANS),
    "acosh": Spec(np.arccosh, ALL, **TRANS),
    "atanh": Spec(np.arctanh, ALL, **TRANS),
    "floor": Spec(np.floor, REAL),
    "ceil": Spec(np.ceil, REAL),
    "trunc": Spec(np.trunc, REAL),
    "round": Spec(np.round, NUMERIC),
    "sign": Spec(np.sign, NUMERIC, complex_kind="arith"),
    "isnan": Spec(np.isnan, NUMERIC, finite_complex=False),
    "isinf": Spec(np.isinf, NUMERIC, finite_complex=False),
    "isfinite": Spec(np.isfinite, NUMERIC, finite_complex=False),
    "signbit": Spec(np.signbit, REAL_FLOAT),
    "real": Spec(np.real, NUMERIC, finite_complex=False),
    "imag": Spec(np.imag, NUMERIC, finite_complex=False),
    "conj": Spec(np.conj, NUMERIC, finite_complex=False),
    "bitwise_invert": Spec(np.invert, INT_OR_BOOL),
    "logical_not": Spec(lambda a: np.logical_not(a), ALL),
}

OPERATOR_OF = {"negative": operator.neg, "positive": operator.pos, "abs": operator.abs,
               "bitwise_invert": operator.invert}


def _elems(spec: Spec, dtype: str, role: int = 0) -> st.SearchStrategy[Any]:
    d = np.dtype(dtype)
    if spec.extra.get("int_exponent") and role == 1 and d.kind in "iu":
        return st.integers(0, 70)                      # NumPy refuses negative int powers
    if d.kind == "c" and spec.finite_complex:
        return elements(dtype, lo=-4 if spec.kind == "transcendental" else -1e6,
                        hi=4 if spec.kind == "transcendental" else 1e6, specials=False)
    if spec.moderate and d.kind == "f":
        return elements(dtype, lo=-20, hi=20)
    if spec.kind == "transcendental" and d.kind == "f":
        return elements(dtype, lo=-1e4, hi=1e4)
    return elements(dtype)


def _promoted(d1: str, d2: str) -> str | None:
    """zyxarray's promotion: NumPy's, except uint64 with a signed integer (refused)."""
    if {d1, d2} & {"uint64"} and {d1, d2} & set(SIGNED):
        return None
    return np.promote_types(d1, d2).name


def _as_float(spec: Spec, arrays: list[Any]) -> list[Any]:
    """Integer and boolean input to float functions computes in float64 (zyxarray's
    default float dtype; NumPy would pick float16/float32 for small integers)."""
    if not spec.float_fn:
        return arrays
    kinds = {np.asarray(a).dtype.kind for a in arrays}
    if kinds & set("fc"):
        return arrays
    return [np.asarray(a).astype(np.float64) for a in arrays]


def _kind(spec: Spec, dtype: str) -> str:
    if np.dtype(dtype).kind == "c" and spec.complex_kind:
        return spec.complex_kind
    return spec.kind


def _dtype_pair(data: st.DataObject, spec: Spec) -> tuple[str, str]:
    d1 = data.draw(st.sampled_from(spec.allowed), label="dtype1")
    d2 = data.draw(st.one_of(st.just(d1), st.sampled_from(ALL)), label="dtype2")
    return (d1, d2) if data.draw(st.booleans()) else (d2, d1)


@pytest.mark.parametrize("name", sorted(BINARY))
@scaled(0.5)
@given(data=st.data())
def test_binary_function(device: str, name: str, data: st.DataObject) -> None:
    spec = BINARY[name]
    fn = getattr(xp, name)
    d1, d2 = _dtype_pair(data, spec)
    s1, s2 = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0,
                                                          max_dims=3, min_side=0,
                                                          max_side=4)).input_shapes
    a = data.draw(inputs(d1, s1, _elems(spec, d1, 0)), label="x1")
    b = data.draw(inputs(d2, s2, _elems(spec, d2, 1)), label="x2")
    common = _promoted(d1, d2)
    if common is None or common not in spec.allowed:
        with pytest.raises(TypeError, match=name):
            fn(a.on(device), b.on(device))
        return
    check_against_numpy(device, fn, lambda p, q: spec.np_fn(*_as_float(spec, [p, q])),
                        [a, b], kind=_kind(spec, common))


@pytest.mark.parametrize("name", sorted(UNARY))
@scaled(0.5)
@given(data=st.data())
def test_unary_function(device: str, name: str, data: st.DataObject) -> None:
    spec = UNARY[name]
    fn = getattr(xp, name)
    dtype = data.draw(st.sampled_from(ALL), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5))
    a = data.draw(inputs(dtype, shape, _elems(spec, dtype)), label="x")
    if dtype not in spec.allowed:
        with pytest.raises(TypeError, match=name):
            fn(a.on(device))
        return
    kind = _kind(spec, dtype)
    expected = check_against_numpy(device, fn, lambda p: spec.np_fn(*_as_float(spec, [p])),
                                   [a], kind=kind)
    if name in OPERATOR_OF:
        rtol, atol = tolerance(expected.dtype, kind)
        assert_close(OPERATOR_OF[name](a.on(device)), expected, rtol=rtol, atol=atol,
                     what=f"operator form of {name}")


# -- Python scalars (weak: NEP 50) ------------------------------------------------------------
SCALARS = st.one_of(st.booleans(), st.integers(-300, 300),
                    st.floats(-1e3, 1e3) | st.sampled_from([0.5, -0.0, float("inf")]),
                    st.builds(complex, st.floats(-10, 10), st.floats(-10, 10)))


def _scalar_dtype(dtype: str, value: Any) -> str:
    """The result dtype of ``array(dtype) op value`` under NEP 50 (zyxarray's rule)."""
    if isinstance(value, bool):
        return dtype
    if isinstance(value, int):
        return "int64" if dtype == "bool" else dtype
    if isinstance(value, float):
        return dtype if dtype in FLOAT else "float64"
    if dtype in COMPLEX:
        return dtype
    return "complex64" if dtype == "float32" else "complex128"


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "floor_divide",
                                  "remainder", "pow", "maximum", "equal", "less",
                                  "bitwise_and", "bitwise_left_shift", "logical_or",
                                  "atan2", "copysign"])
@scaled(0.5)
@given(data=st.data())
def test_binary_function_with_python_scalar(device: str, name: str,
                                            data: st.DataObject) -> None:
    spec = BINARY[name]
    fn = getattr(xp, name)
    dtype = data.draw(st.sampled_from(ALL), label="dtype")
    value = data.draw(SCALARS, label="scalar")
    scalar_first = data.draw(st.booleans(), label="scalar_first")
    if name == "pow" and scalar_first is False and isinstance(value, int) \
            and not isinstance(value, bool):
        value = abs(value)                             # NumPy refuses negative int powers
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4))
    a = data.draw(inputs(dtype, shape, _elems(spec, dtype, 1 if scalar_first else 0)),
                  label="x")
    operands: list[Any] = [value, a] if scalar_first else [a, value]

    result_dtype = _scalar_dtype(dtype, value)
    np_args = [a.np if isinstance(o, Input) else o for o in operands]
    try:
        expected = numpy_result(spec.np_fn, *_as_float(spec, np_args)
                                if result_dtype not in FLOAT else np_args)
        numpy_error: type[BaseException] | None = None
    except (TypeError, OverflowError, ValueError) as e:
        numpy_error = type(e)
    if name == "pow" and not scalar_first and value == 0.5 and numpy_error is None \
            and a.np.dtype.kind == "f":
        # NumPy computes x ** 0.5 as sqrt(x) (a fast path), which makes (-inf) ** 0.5 NaN;
        # C99 Annex F and the standard say +inf
        expected = np.where(np.isneginf(a.np), np.inf, expected).astype(expected.dtype)
    if result_dtype not in spec.allowed:
        with pytest.raises(TypeError, match=name):
            fn(*[o.on(device) if isinstance(o, Input) else o for o in operands])
        return
    if numpy_error is not None:
        # e.g. uint8 array + 300: OverflowError in NumPy 2 and here
        with pytest.raises(numpy_error):
            fn(*[o.on(device) if isinstance(o, Input) else o for o in operands])
        return
    check_against_numpy(device, fn, lambda *args: expected, operands,
                        kind=_kind(spec, result_dtype))


# -- operators: plain, reflected and in-place forms ----------------------------------------
OPERATORS = {
    "+": ("add", operator.add, operator.iadd),
    "-": ("subtract", operator.sub, operator.isub),
    "*": ("multiply", operator.mul, operator.imul),
    "/": ("divide", operator.truediv, operator.itruediv),
    "//": ("floor_divide", operator.floordiv, operator.ifloordiv),
    "%": ("remainder", operator.mod, operator.imod),
    "**": ("pow", operator.pow, operator.ipow),
    "&": ("bitwise_and", operator.and_, operator.iand),
    "|": ("bitwise_or", operator.or_, operator.ior),
    "^": ("bitwise_xor", operator.xor, operator.ixor),
    "<<": ("bitwise_left_shift", operator.lshift, operator.ilshift),
    ">>": ("bitwise_right_shift", operator.rshift, operator.irshift),
    "<": ("less", operator.lt, None),
    "<=": ("less_equal", operator.le, None),
    ">": ("greater", operator.gt, None),
    ">=": ("greater_equal", operator.ge, None),
    "==": ("equal", operator.eq, None),
    "!=": ("not_equal", operator.ne, None),
}


@pytest.mark.parametrize("symbol", list(OPERATORS))
@scaled(0.3)
@given(data=st.data())
def test_operator(device: str, symbol: str, data: st.DataObject) -> None:
    """``x op y``, ``scalar op x`` (reflected), ``x op= y`` agree with the functions and
    NumPy; in-place forms keep the dtype (same-kind casting, as NumPy) and the shape."""
    name, op, iop = OPERATORS[symbol]
    spec = BINARY[name]
    d1, d2 = _dtype_pair(data, spec)
    s1, s2 = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0,
                                                          max_dims=2, min_side=0,
                                                          max_side=3)).input_shapes
    a = data.draw(inputs(d1, s1, _elems(spec, d1, 0)), label="x1")
    b = data.draw(inputs(d2, s2, _elems(spec, d2, 1)), label="x2")
    common = _promoted(d1, d2)
    x, y = a.on(device), b.on(device)
    if common is None or common not in spec.allowed:
        with pytest.raises(TypeError):
            op(x, y)
        return
    expected = numpy_result(lambda p, q: spec.np_fn(*_as_float(spec, [p, q])), a.np, b.np)
    rtol, atol = tolerance(expected.dtype, _kind(spec, common))
    assert_close(op(x, y), expected, rtol=rtol, atol=atol, what=f"x {symbol} y")

    # reflected: a Python scalar on the left
    if a.np.size and d2 not in ("bool",) and not (name == "pow" and d2 in INTEGER):
        left = a.np.reshape(-1)[0].item()
        if d1 == "bool" or isinstance(left, bool):
            left = bool(left)
        try:
            want = numpy_result(lambda q: spec.np_fn(*_as_float(spec, [left, q])
                                                      if _scalar_dtype(d2, left) not in FLOAT
                                                      else [left, q]), b.np)
        except (TypeError, OverflowError, ValueError) as e:
            with pytest.raises(type(e)):
                op(left, y)
        else:
            if _scalar_dtype(d2, left) in spec.allowed:
                rt, at = tolerance(np.asarray(want).dtype, _kind(spec, common))
                assert_close(op(left, y), want, rtol=rt, atol=at,
                             what=f"{left!r} {symbol} y (reflected)")

    if iop is None:
        return
    # in-place: x op= y keeps x's dtype and shape; other references to the old value
    x = a.on(device)
    before = x[...]            # a view taken before the update sees it (NumPy's aliasing)
    copied = x.copy()          # a copy does not
    target = np.array(a.np)
    bad_shape = np.broadcast_shapes(s1, s2) != s1
    bad_cast = not np.can_cast(expected.dtype, target.dtype, "same_kind")
    if bad_shape or bad_cast:
        # NumPy reports the cast first when both are wrong; either report is right
        errors = (ValueError,) * bad_shape + (TypeError,) * bad_cast
        with pytest.raises(errors):
            iop(x, y)
        with pytest.raises(errors):
            numpy_result(iop, target, b.np)
        return
    numpy_result(iop, target, b.np)
    ref = apply_np(a.base.copy(), a.ops)    # (x[()] of a 0-d array: a NumPy scalar)
    if isinstance(ref, np.ndarray) and not ref.flags.writeable:
        with pytest.raises(ValueError, match="read-only"):    # a broadcast view, as NumPy
            iop(x, y)
        return
    # the value is the operator's (with the standard's special cases), cast same-kind
    target = numpy_result(lambda: np.asarray(expected).astype(a.np.dtype))
    ident = id(x)
    x = iop(x, y)
    assert id(x) == ident, "in-place operators return the same array object"
    rtol, atol = tolerance(target.dtype, _kind(spec, common))
    assert_close(x, target, rtol=rtol, atol=atol, what=f"x {symbol}= y")
    assert_close(before, target, rtol=rtol, atol=atol,
                 what="a view taken before the in-place update")
    assert_close(copied, a.np, what="a copy taken before the in-place update")


# -- regression tests for bugs this suite found (each was a strict xfail until fixed) ----
@pytest.mark.parametrize("dtype", COMPLEX)
def test_conj_of_complex_compiles(device: str, dtype: str) -> None:
    """The cpu device once called cconj/cconjf, which libm lacks."""
    x = np.array([1 + 2j, -3 - 4j], dtype)
    assert_close(xp.conj(xp.asarray(x, device=device)), np.conj(x))


@pytest.mark.parametrize("dtype", REAL_FLOAT)
def test_trig_of_huge_arguments(device: str, dtype: str) -> None:
    """sin/cos/tan need a full argument reduction: 1e16 is an ordinary float (the cpu
    device's vectorized helpers once gave sin(1e16) = -0.626, not 0.780)."""
    x = np.array([1e16, -3.6028797018963968e16, 1e18, 2.0**60, 2.0**51 + 1], dtype)
    for name, np_fn in (("sin", np.sin), ("cos", np.cos), ("tan", np.tan)):
        check_against_numpy(device, getattr(xp, name), np_fn, [Input(x, [])],
                            kind="transcendental")


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_pow_zero_to_the_zero(device: str, dtype: str) -> None:
    """The cpu device once computed cexp(0 * clog(0)) = nan+nanj."""
    x = xp.asarray(np.zeros(2, dtype), device=device)
    assert_close(xp.pow(x, x), np.ones(2, dtype))


# -- deterministic special cases ----------------------------------------------------------
def test_floor_divide_and_remainder_follow_python(device: str) -> None:
    """Floor division and remainder of floats are Python's (and NumPy's): 1.0 // 0.1 is 9.0
    (not floor(1.0 / 0.1) = 10.0), and the remainder takes the divisor's sign; with
    infinities, floor division follows the standard's special cases."""
    a = np.array([1.0, -1.0, 7.5, -7.5, 0.0, -0.0, 5.0, -5.0, np.inf, -np.inf, np.inf])
    b = np.array([0.1, 0.1, -2.0, 2.0, 3.0, -3.0, np.inf, np.inf, 2.0, 2.0, -0.0])
    for xp_fn, np_fn in ((xp.floor_divide, _np_floor_divide), (xp.remainder, np.remainder)):
        check_against_numpy(device, xp_fn, np_fn, [Input(a, []), Input(b, [])], kind="exact")


def test_division_by_zero(device: str) -> None:
    """Integers: x // 0 and x % 0 are 0 (NumPy's result, no trap); INT_MIN // -1 wraps.
    Floats: IEEE results."""
    ints = Input(np.array([7, -7, 0, -128, -128], np.int8), [])
    div = Input(np.array([0, 0, 0, -1, 1], np.int8), [])
    for xp_fn, np_fn in ((xp.floor_divide, np.floor_divide), (xp.remainder, np.remainder)):
        check_against_numpy(device, xp_fn, np_fn, [ints, div])
    floats = Input(np.array([1.0, -1.0, 0.0, np.nan]), [])
    zeros = Input(np.array([0.0, 0.0, 0.0, 0.0]), [])
    for xp_fn, np_fn in ((xp.divide, np.divide), (xp.floor_divide, _np_floor_divide),
                         (xp.remainder, np.remainder)):
        check_against_numpy(device, xp_fn, np_fn, [floats, zeros], kind="exact")


def test_integer_overflow_wraps(device: str) -> None:
    for dtype in INTEGER:
        info = np.iinfo(dtype)
        a = Input(np.array([info.max, info.min, info.max], dtype), [])
        b = Input(np.array([1, 1, 2], dtype), [])
        for xp_fn, np_fn in ((xp.add, np.add), (xp.subtract, np.subtract),
                             (xp.multiply, np.multiply)):
            check_against_numpy(device, xp_fn, np_fn, [a, b])
        if dtype in SIGNED:
            check_against_numpy(device, xp.negative, np.negative, [a])
            check_against_numpy(device, xp.abs, np.abs, [a])


@pytest.mark.parametrize("dtype", [np.int8, np.int16])
def test_narrow_negation_of_every_value(device: str, dtype: type) -> None:
    """-x, abs(x) and their signs and widenings for every int8/int16 value: NVIDIA's ptxas
    left -(-32768) as 32768 in its 32-bit register (the renderers' negate_narrow)."""
    info = np.iinfo(dtype)
    h = np.arange(info.min, info.max + 1, dtype=dtype)
    x = xp.asarray(h, device=device)
    for got, want in ((xp.sign(-x), np.sign(-h)), (xp.astype(-x, xp.int32), (-h).astype(np.int32)),
                      (xp.abs(x) < 0, np.abs(h) < 0), (xp.astype(xp.abs(x), xp.int64),
                                                       np.abs(h).astype(np.int64))):
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_negation_keeps_the_signs_of_zeros(device: str, dtype: str) -> None:
    """-z, and -z conjugated, of complex numbers made from booleans and floats: NVIDIA's
    Vulkan compiler lost the real part's -0.0 in both (the SPIR-V math routines' negate)."""
    h = np.array([False, True])
    b = xp.asarray(h, device=device)
    f = xp.astype(b, xp.float32 if dtype == "complex64" else xp.float64)
    z = h.astype(dtype)
    for got, want in ((-xp.astype(b, dtype), -z), (xp.conj(-xp.astype(b, dtype)), np.conj(-z)),
                      (-xp.astype(f, dtype), -z), (xp.conj(-xp.astype(f, dtype)), np.conj(-z))):
        g = np.asarray(got)
        np.testing.assert_array_equal(g, want)
        np.testing.assert_array_equal(np.signbit(g.real), np.signbit(want.real))
        np.testing.assert_array_equal(np.signbit(g.imag), np.signbit(want.imag))


def test_float32_sqrt_and_products_round_once(device: str) -> None:
    """float32 sqrt and division are correctly rounded (Vulkan's GLSL sqrt and OpFDiv are
    not: they go through float64 where the device has it), and ``a * b - c`` is two
    roundings, not a fused multiply-add (OpenCL C contracts unless told not to)."""
    rng = np.random.default_rng(7)
    h = (rng.random(20_000) * 1e4 + 1e-3).astype(np.float32)
    np.testing.assert_array_equal(np.asarray(xp.sqrt(xp.asarray(h, device=device))),
                                  np.sqrt(h))
    if registry.get(device).info.float64:
        q = (rng.random(20_000) * 1e3 + 1e-2).astype(np.float32)
        np.testing.assert_array_equal(
            np.asarray(xp.asarray(h, device=device) / xp.asarray(q, device=device)), h / q)
    a = np.array([1 + 2.0**-12], np.float32)           # a * a = 1 + 2^-11 + 2^-24: a tie
    c = np.array([1 + 2.0**-11], np.float32)
    xa, xc = xp.asarray(a, device=device), xp.asarray(c, device=device)
    np.testing.assert_array_equal(np.asarray(xa * xa - xc), a * a - c)


def test_division_over_the_whole_exponent_range(device: str) -> None:
    """Quotients of divisors from the subnormals to the largest floats, exact as NumPy's.
    Vulkan bounds OpFDiv only for divisors in [2^-126, 2^126], and NVIDIA's driver gave inf
    for 1 / 8.9e-300 (``spirv.SpirvRenderer._fdiv64``). There the one known difference is a
    subnormal quotient of a divisor beyond 2^126, rounded twice (one ulp)."""
    rng = np.random.default_rng(11)
    n = 4000
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 2.2250738585072014e-308,
                        1.7976931348623157e308, 2.0 ** -126, 2.0 ** 126, 2.0 ** -127,
                        2.0 ** 127, 8.901883996436551e-300, 1.0])
    dtypes = [np.float32] + ([np.float64] if registry.get(device).info.float64 else [])
    for d in dtypes:
        info = np.finfo(d)
        lo, hi = int(np.log2(float(info.smallest_subnormal))), int(np.log2(float(info.max)))
        with np.errstate(all="ignore"):
            x = np.concatenate([np.ldexp(rng.uniform(-2, 2, n), rng.integers(lo, hi, n)),
                                special]).astype(d)
            y = np.concatenate([np.ldexp(rng.uniform(-2, 2, n), rng.integers(lo, hi, n)),
                                special[::-1]]).astype(d)
            want = x / y
        got = np.asarray(xp.asarray(x, device=device) / xp.asarray(y, device=device))
        same = (got == want) & (np.signbit(got) == np.signbit(want)) | \
            (np.isnan(got) & np.isnan(want))
        allowed = (registry.get(device).info.kind == "vulkan") & \
            (np.abs(want) < info.tiny) & (np.abs(y) > 2.0 ** 126)
        if d == np.float32 and flushes_float32_subnormals(device):
            # (NVIDIA's Vulkan driver flushes float32 subnormals, operands and results)
            allowed |= (np.abs(x) < info.tiny) | (np.abs(y) < info.tiny) | \
                (np.abs(want) < info.tiny)
        bad = ~same & ~allowed
        assert not bad.any(), (d, x[bad][:4], y[bad][:4], got[bad][:4], want[bad][:4])


def test_nan_propagation_in_maximum_and_minimum(device: str) -> None:
    a = Input(np.array([np.nan, 1.0, np.nan, -np.inf, 0.0]), [])
    b = Input(np.array([1.0, np.nan, np.nan, np.inf, -0.0]), [])
    for xp_fn, np_fn in ((xp.maximum, np.maximum), (xp.minimum, np.minimum)):
        check_against_numpy(device, xp_fn, np_fn, [a, b])


def test_clip(device: str) -> None:
    x = Input(np.array([[-5, 0, 3], [9, 2, -1]], np.int16), [])
    check_against_numpy(device, lambda v: xp.clip(v, -1, 4), lambda v: np.clip(v, -1, 4), [x])
    check_against_numpy(device, lambda v: xp.clip(v, max=2), lambda v: np.clip(v, None, 2),
                        [x])
    f = Input(np.array([-2.5, np.nan, 0.5, 7.0], np.float32), [])
    check_against_numpy(device, lambda v: xp.clip(v, -1.0, 1.0),
                        lambda v: np.clip(v, np.float32(-1), np.float32(1)), [f])
    lo = Input(np.array([0, 1, 2], np.int16), [])
    check_against_numpy(device, lambda v, m: xp.clip(v, m), lambda v, m: np.clip(v, m, None),
                        [x, lo])


@pytest.mark.parametrize("dtype", FLOAT)
def test_transcendental_special_values(device: str, dtype: str) -> None:
    """Special values (NaN, +-inf, +-0) of the real functions follow C99 Annex F, as NumPy."""
    values = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5], dtype)
    if np.dtype(dtype).kind == "c":
        return  # complex special values: C99 Annex G and NumPy differ; not compared here
    for name, spec in UNARY.items():
        if spec.kind != "transcendental" and name not in ("sqrt",):
            continue
        check_against_numpy(device, getattr(xp, name), spec.np_fn, [Input(values, [])],
                            kind="transcendental")


def test_results_stay_on_the_inputs_device(device: str) -> None:
    x = xp.asarray([1.0, 2.0], device=device)
    for result in (x + 1, xp.exp(x), x < 2, xp.sum(x), xp.where(x > 1, x, 0.0)):
        assert result.device.name == device


def test_promotion_table_matches_numpy_within_kinds() -> None:
    """result_type agrees with NumPy for every pair except uint64 with a signed integer."""
    for d1 in DTYPES:
        for d2 in DTYPES:
            want = _promoted(d1, d2)
            if want is None:
                with pytest.raises(TypeError, match="uint64"):
                    xp.result_type(getattr(xp, d1), getattr(xp, d2))
            else:
                assert xp.result_type(getattr(xp, d1), getattr(xp, d2)) == getattr(xp, want)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "complex64", "bool"])
def test_weak_python_scalars(device: str, dtype: str) -> None:
    x = xp.asarray(np.ones(3, dtype), device=device)
    for value in (True, 2, 2.5, 1j):
        want = _scalar_dtype(dtype, value)
        if want not in BINARY["multiply"].allowed:
            continue
        assert (x * value).dtype == getattr(xp, want), (dtype, value)
        assert (value * x).dtype == getattr(xp, want), (dtype, value)


def test_python_integer_out_of_range_raises(device: str) -> None:
    x = xp.asarray(np.ones(3, np.uint8), device=device)
    with pytest.raises(OverflowError):
        x + 300
    with pytest.raises(OverflowError):
        x + (-1)
    with pytest.raises(TypeError):
        xp.asarray(np.ones(3, np.int8), device=device) & 1.5


def test_numpy_array_operand(device: str) -> None:
    """A NumPy array on either side of an operator gives a zyxarray array."""
    x = xp.asarray([1, 2, 3], device=device)
    n = np.array([10, 20, 30])
    for result in (x + n, n + x, x * n, n < x):
        assert isinstance(result, xp.Array)
    assert_close(n - x, n - np.array([1, 2, 3]))
    assert_close(x - n, np.array([1, 2, 3]) - n)


def test_reference_agrees_on_each_function(device: str) -> None:
    """A quick all-functions smoke test on a fixed float64 input, device vs reference."""
    values = np.linspace(-0.9, 0.9, 7)
    for name, spec in UNARY.items():
        if "float64" not in spec.allowed:
            continue
        rtol, atol = tolerance(np.float64, spec.kind)
        fn = getattr(xp, name)
        runs = on_devices(device, lambda d, fn=fn: fn(xp.asarray(values, device=d)))
        assert_close(runs[0][1], np.asarray(runs[-1][1]), rtol=rtol, atol=atol, what=name)


def test_complex_division_by_a_tiny_divisor(device: str) -> None:
    """Found by test_binary_function_with_python_scalar: (0+4j) / 2.2250738585072014e-308.
    NumPy (and the reference device) divide with Smith's algorithm: 0+inf j; the cpu
    device's C99 `/` on double _Complex (gcc's __divdc3, which rescales tiny divisors) gives
    nan+inf j. Both are C99 Annex G's one complex infinity (a value with an infinite part is
    infinite whatever its other part), which is what the comparison checks."""
    a = Input(np.array([4j, 1 + 1j, 3.0]), [])
    check_against_numpy(device, lambda x: x / 2.2250738585072014e-308,
                        lambda x: x / 2.2250738585072014e-308, [a])
