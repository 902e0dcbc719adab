"""Complex arithmetic and math on two-component vectors, for the OpenCL C and CUDA renderers.

Layer: ``_codegen``. Imports only the standard library: nothing from ``_lazy``, ``_api`` or
``_devices`` (nor from the rest of ``_codegen``), so any GPU renderer can use it and it tests
alone.

Why: OpenCL C and CUDA have no C99 ``_Complex``, so GPU kernels hold complex64 in a ``float2``
and complex128 in a ``double2`` (``.x`` real, ``.y`` imaginary) and call the helpers made here
instead of ``<complex.h>``. ``source`` emits the requested functions and everything they call,
once each, dependencies first, for one component type::

    source(["exp"], "float", vec="float2", make="(float2)({0}, {1})", prefix="inline")

    inline float2 zx_cexp_c64(float2 z) {
      float x = z.x, y = z.y;
      if (y == 0) return (float2)(exp(x), y);
      ...

The bodies are in the common subset of OpenCL C 1.2 and CUDA C++: scalar component access,
``if``/``return``, and only the math builtins that both have un-suffixed and overloaded for
float and double (exp, expm1, log, log1p, sqrt, sin, cos, tan, sinh, cosh, tanh, asinh, atan2,
hypot, fabs, copysign, rint, fmax, fmin, isnan, isinf, isfinite, signbit, and ``fma`` for the
exact squares of ``log|z|`` near the unit circle: correct everywhere, slow only on a device
without FMA hardware). Every floating literal is cast to the component type (``(float)0.5``:
a bare ``0.5`` is a double, which OpenCL devices without fp64 reject), and ``INFINITY``/``NAN``
are cast too, so that no call mixes float and double arguments (ambiguous overloads in both
dialects). A ``float`` constant is written as the float literal of its float32 value
(``(float)0.5f``), so no double constant appears at all. Predicates return ``int``.

Special values follow NumPy and the Array API standard (C99 Annex G where the standard defers
to it): signed zeros, infinities and NaNs for exp, expm1, log, log1p, sqrt, sinh, cosh, tanh,
asinh, acosh, atanh (and through ``sin z = -i sinh(iz)`` etc. for sin, cos, tan, asin, acos,
atan, as the standard specifies), sign, and NumPy's pow (``z**0 == 1`` also for ``z == 0``;
``0**b == 0`` for ``Re b > 0``, else NaN; integer exponents below 100 by repeated squaring;
otherwise ``exp(b log a)`` with C99's infinity-recovering product, as libm's ``cpow``: every
pairing of special operands gives NumPy's NaN and infinity positions). mul is the textbook
formula and div Smith's algorithm, as NumPy's loops compute them (no C99 infinity recovery);
div also scales operands near overflow, where NumPy's loop returns a spurious inf or NaN.
Where NumPy and the standard disagree the standard wins (its conformance tests check it):
``expm1(inf + 0j) == inf + 0j`` and ``expm1(-0 + 0j) == +0 + 0j`` (NumPy: ``inf + nan j``,
``-0 + 0j``); ``tanh(inf + iy) == 1 + 0j`` for every positive finite ``y`` (NumPy and C99:
``1 + 0j sin 2y``, so ``-0j`` for ``y = 2``); ``sign`` is ``NaN + NaN j`` when either part is
NaN (NumPy: ``sign(nan + inf j) == 1j``).

Methods (formulas from the literature, the code is ours):

* abs is ``hypot``; ``log|z|`` is ``log(max) + log1p((min/max)^2)/2`` away from the unit
  circle and ``log1p(x^2 + y^2 - 1)/2`` near it, the argument summed exactly enough with FMA
  products and TwoSum (no cancellation; no overflow or underflow at any magnitude). log1p is
  the same with ``|1+z|^2 - 1 = 2x + x^2 + y^2``, accurate for tiny ``z`` (NumPy's naive
  ``log(|1+z|)`` returns 0 there).
* sqrt: Kahan's ``t = sqrt((|x| + |z|)/2)``, ``y/(2t)``, with exact power-of-two scaling of
  huge and subnormal inputs.
* exp, sinh, cosh multiply ``cos y`` (``sin y``) by ``e^(x/2)`` twice where ``e^x`` alone
  would overflow but the result need not (by ``e^(x/4)`` four times further out). tanh is
  Kahan's ``(beta rho s + i t)/(1 + beta s^2)`` (``t = tan y``, ``s = sinh x``, ``beta = 1 +
  t^2``, ``rho = sqrt(1 + s^2)``), ``sign(x) + 4i sin y cos y e^(-2|x|)`` for large ``|x|``.
  expm1 is NumPy's ``expm1(x) cos y - 2 sin^2(y/2)``.
* asin, asinh, acos, acosh: Kahan's formulas from products of ``sqrt(1 - z)`` and
  ``sqrt(1 + z)`` (no cancellation: each sum adds terms of one sign), evaluated on ``|x|,
  |y|`` with the signs restored by ``copysign``, so odd and conjugate symmetries hold exactly;
  ``log(2z)`` for huge ``z``.
  atanh: ``log1p(4x / ((1-x)^2 + y^2))/4`` (the difference of two ``log|.|`` where that
  denominator is below 1), ``atan2(2y, (1-x)(1+x) - y^2)/2``, ``1/z + i pi/2`` for huge ``z``.

Accuracy (PoCL on x86-64, 48,000 inputs per function: tiny down to subnormal, around 1, on
the unit circle, huge up to 1e30 / 1e300, on the axes; complex64 against NumPy's complex128
result, complex128 against NumPy's, log1p and expm1 against mpmath), max error per component
in ulps of that component, complex64 / complex128: sqrt 1.8 / 1; log, log2, log10, log1p
1.7-3 / 2-3; exp, sin, cos, sinh, cosh 2.5-3.4 / 3; asin, acos, atan, asinh, acosh, atanh
2.2-3 / 4; tan, tanh 5.3 / 7; sign 1.5 / 2; abs 0.5 / 2 (the device's hypot); add and sub
correctly rounded; neg, conj and round exact. Where a component is a difference of nearly
equal terms (mul's ad - bc, div, expm1's e^x cos y - 1, pow's exp(b log a)) the error is
relative to ``|result|``: below 2.2 eps for mul, div and expm1, below 1.5 (1 + |b log a|)
eps for pow. The bounds the tests assert are in tests/_codegen/test_complex_vec.py.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable, Iterable

__all__ = ["NAMES", "fn_name", "source"]

_PARTS = {"float": "c64", "double": "c128"}

# Constants: name -> (float value, double value). Float values are rounded to float32 when
# written, so that ``(float)<literal>`` is exact.
_CONSTS: dict[str, tuple[float, float]] = {
    "PI": (math.pi, math.pi),
    "PI_2": (math.pi / 2, math.pi / 2),
    "PI_4": (math.pi / 4, math.pi / 4),
    "PI3_4": (3 * math.pi / 4, 3 * math.pi / 4),
    "LN2": (math.log(2), math.log(2)),
    "LOG2E": (1 / math.log(2), 1 / math.log(2)),
    "LOG10E": (1 / math.log(10), 1 / math.log(10)),
    # exp(x) overflows above log(MAX) (88.72, 709.78): split it above these
    "EXPBIG": (88.0, 709.0),
    # |x| beyond which tanh(x + iy) = sign(x) + 4i sin y cos y e^(-2|x|) to within eps/4
    "TANHBIG": (12.0, 22.0),
    # above MAX/4, |x| + hypot(x, y) may overflow: scale by 1/4
    "BIG": (2.0**126, 2.0**1022),
    # below TINY both parts: scale up by UP (a power of 4), results by DOWN = 1/sqrt(UP)
    "TINY": (2.0**-100, 2.0**-900),
    "UP": (2.0**64, 2.0**120),
    "DOWN": (2.0**-32, 2.0**-60),
    # above HUGE, atanh(z) = 1/z + i pi/2 to within 3/|z|^2 relative, asinh(z) and acosh(z)
    # are log(2z) to within 1/(2|z|^2) (and Kahan's products could overflow near MAX)
    "HUGE": (2.0**14, 2.0**28),
}


def _literal(value: float, part: str) -> str:
    if part == "float":  # exactly representable: its "f" literal (added later) is exact
        value = struct.unpack("<f", struct.pack("<f", value))[0]
    return f"(({part}){value!r})"


# name -> (return type, parameters, body). In bodies: ``V`` is the vector type, ``R`` the
# component type, ``MK(re, im)`` builds a vector, ``F_name`` calls another helper here and
# ``K_NAME`` is a constant of _CONSTS (``K_INF``/``K_NAN`` are INFINITY/NAN cast to R).
# Names starting with "_" are internal: emitted as dependencies only.
_DEFS: dict[str, tuple[str, str, str]] = {
    # -- arithmetic (NumPy's loops: textbook product, Smith's quotient) -----------------------
    "add": ("V", "V a, V b", "return MK(a.x + b.x, a.y + b.y);"),
    "sub": ("V", "V a, V b", "return MK(a.x - b.x, a.y - b.y);"),
    "mul": ("V", "V a, V b", "return MK(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);"),
    # Smith's algorithm, NumPy's branches (b == 0: a / +0, parts independently); operands
    # beyond MAX/4 are scaled by 1/4 first (the result back by 4 for a), so the sums
    # d = c + d t and a + b t overflow only where the quotient does
    "div": ("V", "V a, V b", """\
R cr = fabs(b.x), ci = fabs(b.y), sc = (R)1;
if (cr > K_BIG || ci > K_BIG) {
  b = MK(b.x * (R)0.25, b.y * (R)0.25);
  a = MK(a.x * (R)0.25, a.y * (R)0.25);
}
if (fabs(a.x) > K_BIG || fabs(a.y) > K_BIG) {
  a = MK(a.x * (R)0.25, a.y * (R)0.25);
  sc = (R)4;
}
if (cr >= ci) {
  if (cr == 0 && ci == 0) return MK(a.x / cr, a.y / cr);
  R t = b.y / b.x, d = b.x + b.y * t;
  return MK(((a.x + a.y * t) / d) * sc, ((a.y - a.x * t) / d) * sc);
}
R t = b.x / b.y, d = b.x * t + b.y;
return MK(((a.x * t + a.y) / d) * sc, ((a.y * t - a.x) / d) * sc);"""),
    "neg": ("V", "V z", "return MK(-z.x, -z.y);"),
    "conj": ("V", "V z", "return MK(z.x, -z.y);"),
    "round": ("V", "V z", "return MK(rint(z.x), rint(z.y));"),
    "abs": ("R", "V z", "return hypot(z.x, z.y);"),
    # -- predicates and NumPy's lexicographic order (NaN operands win max/min) ---------------
    "isnan": ("int", "V z", "return isnan(z.x) || isnan(z.y);"),
    "isinf": ("int", "V z", "return isinf(z.x) || isinf(z.y);"),
    "isfinite": ("int", "V z", "return isfinite(z.x) && isfinite(z.y);"),
    "eq": ("int", "V a, V b", "return a.x == b.x && a.y == b.y;"),
    "ne": ("int", "V a, V b", "return a.x != b.x || a.y != b.y;"),
    "lt": ("int", "V a, V b",
           "return (a.x < b.x && !isnan(a.y) && !isnan(b.y)) || (a.x == b.x && a.y < b.y);"),
    "le": ("int", "V a, V b",
           "return (a.x < b.x && !isnan(a.y) && !isnan(b.y)) || (a.x == b.x && a.y <= b.y);"),
    "max": ("V", "V a, V b", """\
if (isnan(a.x) || isnan(a.y)) return a;
if ((a.x > b.x && !isnan(b.y)) || (a.x == b.x && a.y >= b.y)) return a;
return b;"""),
    "min": ("V", "V a, V b", """\
if (isnan(a.x) || isnan(a.y)) return a;
if ((a.x < b.x && !isnan(b.y)) || (a.x == b.x && a.y <= b.y)) return a;
return b;"""),
    # -- internal helpers -----------------------------------------------------------------
    # h + x*x + y*y with the products' and the sums' rounding errors carried (TwoSum)
    "_hxy": ("R", "R h, R x, R y", """\
R p = x * x, q = y * y;
R ep = fma(x, x, -p), eq = fma(y, y, -q);
R s = h + p, sb = s - h;
R es = (h - (s - sb)) + (p - sb);
R t = s + q, tb = t - s;
R et = (s - (t - tb)) + (q - tb);
return t + (((es + et) + ep) + eq);"""),
    # log|x + iy| without overflow, underflow or cancellation near the unit circle
    "_logabs": ("R", "R x, R y", """\
R ax = fabs(x), ay = fabs(y);
if (isinf(ax) || isinf(ay)) return K_INF;
if (isnan(ax) || isnan(ay)) return K_NAN;
R mx = fmax(ax, ay), mn = fmin(ax, ay);
if (mx == 0) return -K_INF;
R h = hypot(mx, mn);
if (h > (R)0.71 && h < (R)1.41) return (R)0.5 * log1p(F__hxy((R)-1, mx, mn));
R r = mn / mx;
return log(mx) + (R)0.5 * log1p(r * r);"""),
    # c * k * e^x for x > EXPBIG, where e^x alone overflows (k = 1 or 1/2, applied early so
    # that a subnormal c keeps its bits): e^(x/2) twice, e^(x/4) four times beyond 2 EXPBIG
    "_expmul": ("R", "R x, R c, R k", """\
if (x <= (R)2 * K_EXPBIG) {
  R e = exp((R)0.5 * x);
  return ((c * e) * k) * e;
}
R e = exp((R)0.25 * x);
return (((c * e) * k) * e) * e * e;"""),
    # a * b with C99 Annex G's recovery of infinities (a NaN + NaN j textbook product whose
    # factors or partial products are infinite is an infinity): pow's b log a, as libm's cpow
    "_mulg": ("V", "V a, V b", """\
R ac = a.x * b.x, bd = a.y * b.y, ad = a.x * b.y, bc = a.y * b.x;
R x = ac - bd, y = ad + bc;
if (!isnan(x) || !isnan(y)) return MK(x, y);
R p = a.x, q = a.y, r = b.x, s = b.y;
int again = 0;
if (isinf(p) || isinf(q)) {
  p = copysign(isinf(p) ? (R)1 : (R)0, p); q = copysign(isinf(q) ? (R)1 : (R)0, q);
  if (isnan(r)) r = copysign((R)0, r);
  if (isnan(s)) s = copysign((R)0, s);
  again = 1;
}
if (isinf(r) || isinf(s)) {
  r = copysign(isinf(r) ? (R)1 : (R)0, r); s = copysign(isinf(s) ? (R)1 : (R)0, s);
  if (isnan(p)) p = copysign((R)0, p);
  if (isnan(q)) q = copysign((R)0, q);
  again = 1;
}
if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
  if (isnan(p)) p = copysign((R)0, p);
  if (isnan(q)) q = copysign((R)0, q);
  if (isnan(r)) r = copysign((R)0, r);
  if (isnan(s)) s = copysign((R)0, s);
  again = 1;
}
if (again) return MK(K_INF * (p * r - q * s), K_INF * (p * s + q * r));
return MK(x, y);"""),
    # asin(p + iq) for finite p, q (Kahan)
    "_asin": ("V", "R p, R q", """\
V s1 = F_sqrt(MK((R)1 - p, -q));
V s2 = F_sqrt(MK((R)1 + p, q));
return MK(atan2(p, s1.x * s2.x - s1.y * s2.y), asinh(s1.x * s2.y - s1.y * s2.x));"""),
    # -- exponentials and logarithms --------------------------------------------------------
    "exp": ("V", "V z", """\
R x = z.x, y = z.y;
if (y == 0) return MK(exp(x), y);
if (isinf(x)) {
  if (!isfinite(y)) {
    if (x > 0) return MK(x, y - y);
    return MK((R)0, (R)0);
  }
  R c = cos(y), s = sin(y);
  if (x > 0) return MK(x * c, x * s);
  return MK(copysign((R)0, c), copysign((R)0, s));
}
if (isnan(x) || !isfinite(y)) return MK(K_NAN, K_NAN);
R c = cos(y), s = sin(y);
if (x > K_EXPBIG) return MK(F__expmul(x, c, (R)1), F__expmul(x, s, (R)1));
R e = exp(x);
return MK(e * c, e * s);"""),
    "expm1": ("V", "V z", """\
R x = z.x, y = z.y;
if (y == 0) return MK(x == 0 ? (R)0 : expm1(x), y);
if (isinf(x)) {
  if (!isfinite(y)) {
    if (x > 0) return MK(x, y - y);
    return MK((R)-1, copysign((R)0, y));
  }
  R c = cos(y), s = sin(y);
  if (x > 0) return MK(x * c, x * s);
  return MK((R)-1, copysign((R)0, s));
}
if (isnan(x) || !isfinite(y)) return MK(K_NAN, K_NAN);
R c = cos(y), s = sin(y);
if (x > K_EXPBIG) return MK(F__expmul(x, c, (R)1), F__expmul(x, s, (R)1));
R h = sin((R)0.5 * y);
return MK(expm1(x) * c - (R)2 * (h * h), exp(x) * s);"""),
    "log": ("V", "V z", "return MK(F__logabs(z.x, z.y), atan2(z.y, z.x));"),
    "log2": ("V", "V z", "V l = F_log(z);\nreturn MK(l.x * K_LOG2E, l.y * K_LOG2E);"),
    "log10": ("V", "V z", "V l = F_log(z);\nreturn MK(l.x * K_LOG10E, l.y * K_LOG10E);"),
    "log1p": ("V", "V z", """\
R x = z.x, y = z.y, xp = (R)1 + x;
R h = hypot(xp, y);
if (h > (R)0.71 && h < (R)1.41)
  return MK((R)0.5 * log1p(F__hxy(x + x, x, y)), atan2(y, xp));
return MK(F__logabs(xp, y), atan2(y, xp));"""),
    "sqrt": ("V", "V z", """\
R x = z.x, y = z.y;
if (isinf(y)) return MK(K_INF, y);
if (isnan(x)) return MK(x, x);
if (isinf(x)) {
  if (x > 0) return MK(x, isnan(y) ? y : copysign((R)0, y));
  return MK(isnan(y) ? y : (R)0, copysign(K_INF, y));
}
if (isnan(y)) return MK(y, y);
if (x == 0 && y == 0) return MK((R)0, y);
R ax = fabs(x), ay = fabs(y), sc = (R)1;
if (ax > K_BIG || ay > K_BIG) {
  ax = ax * (R)0.25; ay = ay * (R)0.25; sc = (R)2;
} else if (ax < K_TINY && ay < K_TINY) {
  ax = ax * K_UP; ay = ay * K_UP; sc = K_DOWN;
}
R t = sqrt((R)0.5 * (ax + hypot(ax, ay)));
R u = ay / (t + t);
if (x >= 0) return MK(t * sc, copysign(u * sc, y));
return MK(u * sc, copysign(t * sc, y));"""),
    "pow": ("V", "V a, V b", """\
if (b.x == 0 && b.y == 0) return MK((R)1, (R)0);
if (a.x == 0 && a.y == 0) {
  if (b.x > 0) return MK((R)0, (R)0);
  return MK(K_NAN, K_NAN);
}
if (b.y == 0 && b.x == rint(b.x) && fabs(b.x) < (R)100) {
  int n = (int)b.x;
  if (n == 1) return a;
  if (n == 2) return F_mul(a, a);
  if (n == 3) return F_mul(F_mul(a, a), a);
  int m = n < 0 ? -n : n;
  V r = MK((R)1, (R)0), p = a;
  for (int i = 0; i < 7; i++) {  /* (m < 100 has at most 7 bits: the break ends it) */
    if (m & 1) r = F_mul(r, p);
    m >>= 1;
    if (m == 0) break;
    p = F_mul(p, p);
  }
  if (n < 0) return F_div(MK((R)1, (R)0), r);
  return r;
}
return F_exp(F__mulg(b, F_log(a)));"""),
    # -- hyperbolic and trigonometric ---------------------------------------------------------
    "sinh": ("V", "V z", """\
R x = z.x, y = z.y;
if (y == 0) return MK(sinh(x), y);
if (!isfinite(y)) {
  if (x == 0 || isinf(x)) return MK(x, y - y);
  return MK(K_NAN, K_NAN);
}
R c = cos(y), s = sin(y), ax = fabs(x);
if (ax > K_EXPBIG)
  return MK(F__expmul(ax, copysign((R)1, x) * c, (R)0.5), F__expmul(ax, s, (R)0.5));
return MK(sinh(x) * c, cosh(x) * s);"""),
    "cosh": ("V", "V z", """\
R x = z.x, y = z.y;
if (y == 0) return MK(cosh(x), copysign((R)0, x) * y);
if (!isfinite(y)) {
  if (x == 0) return MK(y - y, x);
  if (isinf(x)) return MK(K_INF, y - y);
  return MK(K_NAN, K_NAN);
}
R c = cos(y), s = sin(y), ax = fabs(x);
if (ax > K_EXPBIG)
  return MK(F__expmul(ax, c, (R)0.5), F__expmul(ax, copysign((R)1, x) * s, (R)0.5));
return MK(cosh(x) * c, sinh(x) * s);"""),
    "tanh": ("V", "V z", """\
R x = z.x, y = z.y;
if (!isfinite(y)) {
  if (x == 0) return MK(x, y - y);
  if (isinf(x)) return MK(copysign((R)1, x), copysign((R)0, y));
  return MK(K_NAN, K_NAN);
}
if (isinf(x)) return MK(copysign((R)1, x), copysign((R)0, y));
if (y == 0) return MK(fabs(x) > K_TANHBIG ? copysign((R)1, x) : tanh(x), y);
if (fabs(x) > K_TANHBIG) {
  R e = exp((R)-2 * fabs(x));
  return MK(copysign((R)1, x), ((R)4 * sin(y) * cos(y)) * e);
}
R t = tan(y), b = (R)1 + t * t, s = sinh(x), r = sqrt((R)1 + s * s);
R d = (R)1 + b * (s * s);
return MK((b * r * s) / d, t / d);"""),
    "sin": ("V", "V z", "V w = F_sinh(MK(-z.y, z.x));\nreturn MK(w.y, -w.x);"),
    "cos": ("V", "V z", "return F_cosh(MK(-z.y, z.x));"),
    "tan": ("V", "V z", "V w = F_tanh(MK(-z.y, z.x));\nreturn MK(w.y, -w.x);"),
    # -- inverse functions ----------------------------------------------------------------------
    "asinh": ("V", "V z", """\
R x = z.x, y = z.y;
if (isnan(x) || isnan(y)) {
  if (isinf(x) || isinf(y)) return MK(copysign(K_INF, x), K_NAN);
  if (y == 0) return MK(x, y);
  return MK(K_NAN, K_NAN);
}
if (isinf(x) || isinf(y)) {
  R im = isinf(x) ? (isinf(y) ? K_PI_4 : (R)0) : K_PI_2;
  return MK(copysign(K_INF, x), copysign(im, y));
}
R ax = fabs(x), ay = fabs(y);
if (ax > K_HUGE || ay > K_HUGE)  /* log(2z), to within 1/(2|z|^2) relative */
  return MK(copysign(F__logabs(ax, ay) + K_LN2, x), copysign(atan2(ay, ax), y));
V w = F__asin(-ay, ax);
return MK(copysign(w.y, x), copysign(w.x, y));"""),
    "asin": ("V", "V z", "V w = F_asinh(MK(-z.y, z.x));\nreturn MK(w.y, -w.x);"),
    "acosh": ("V", "V z", """\
R x = z.x, y = z.y;
if (isnan(x) || isnan(y)) {
  if (isinf(x) || isinf(y)) return MK(K_INF, K_NAN);
  if (x == 0) return MK(K_NAN, K_PI_2);
  return MK(K_NAN, K_NAN);
}
if (isinf(x) || isinf(y)) {
  R im = K_PI_2;
  if (isinf(x)) {
    if (isinf(y)) im = x > 0 ? K_PI_4 : K_PI3_4;
    else im = x > 0 ? (R)0 : K_PI;
  }
  return MK(K_INF, copysign(im, y));
}
R ay = fabs(y);
if (fabs(x) > K_HUGE || ay > K_HUGE)  /* log(2z), to within 1/(2|z|^2) relative */
  return MK(F__logabs(x, ay) + K_LN2, copysign(atan2(ay, x), y));
V s1 = F_sqrt(MK(x - (R)1, ay));
V s2 = F_sqrt(MK(x + (R)1, ay));
return MK(asinh(s1.x * s2.x + s1.y * s2.y), copysign((R)2 * atan2(s1.y, s2.x), y));"""),
    "acos": ("V", "V z", """\
V w = F_acosh(z);
if (signbit(z.y)) return MK(fabs(w.y), w.x);
return MK(fabs(w.y), -w.x);"""),
    "atanh": ("V", "V z", """\
R x = z.x, y = z.y, ax = fabs(x), ay = fabs(y);
if (isnan(x) || isnan(y)) {
  if (isinf(ax)) return MK(copysign((R)0, x), K_NAN);
  if (isinf(ay)) return MK(copysign((R)0, x), copysign(K_PI_2, y));
  if (x == 0) return MK(x, K_NAN);
  return MK(K_NAN, K_NAN);
}
R re, im;
if (isinf(ax) || isinf(ay)) {
  re = (R)0;
  im = K_PI_2;
} else if (ax > K_HUGE || ay > K_HUGE) {
  R r, q;
  if (ax >= ay) {
    r = ay / ax; q = ((R)1 / ax) / ((R)1 + r * r);
    re = q; im = K_PI_2 - r * q;
  } else {
    r = ax / ay; q = ((R)1 / ay) / ((R)1 + r * r);
    re = r * q; im = K_PI_2 - q;
  }
} else {
  R d = ((R)1 - ax) * ((R)1 - ax) + ay * ay;
  if (ax < (R)0.5 || d >= (R)1) re = (R)0.25 * log1p((R)4 * ax / d);
  else re = (R)0.5 * (F__logabs((R)1 + ax, ay) - F__logabs((R)1 - ax, ay));
  im = (R)0.5 * atan2((R)2 * ay, ((R)1 - ax) * ((R)1 + ax) - ay * ay);
}
return MK(copysign(re, x), copysign(im, y));"""),
    "atan": ("V", "V z", "V w = F_atanh(MK(-z.y, z.x));\nreturn MK(w.y, -w.x);"),
    "sign": ("V", "V z", """\
R x = z.x, y = z.y;
if (isnan(x) || isnan(y)) return MK(K_NAN, K_NAN);
if (isinf(x)) {
  if (isinf(y)) return MK(K_NAN, K_NAN);
  return MK(copysign((R)1, x), (R)0);
}
if (isinf(y)) return MK((R)0, copysign((R)1, y));
if (x == 0 && y == 0) return MK((R)0, (R)0);
R ax = fabs(x), ay = fabs(y);
if (ax > K_BIG || ay > K_BIG) {
  x = x * (R)0.25; y = y * (R)0.25;
} else if (ax < K_TINY && ay < K_TINY) {
  x = x * K_UP; y = y * K_UP;
}
R h = hypot(x, y);
return MK(x / h, y / h);"""),
}

NAMES: frozenset[str] = frozenset(n for n in _DEFS if not n.startswith("_"))

_CALL = re.compile(r"\bF_(\w+)")
_FLOAT_LITERAL = re.compile(r"(\(float\)\d+(?:\.\d*(?:[eE][-+]?\d+)?|[eE][-+]?\d+))")


def fn_name(name: str, part: str) -> str:
    """C name of the helper ``name`` for component type ``part`` ("float" or "double")."""
    if part not in _PARTS:
        raise ValueError(f"part must be 'float' or 'double', not {part!r}")
    if name not in _DEFS:
        raise ValueError(f"no complex helper {name!r}")
    return f"zx_c{name}_{_PARTS[part]}"


def _make(text: str, make: str) -> str:
    """Replace every ``MK(a, b)`` (arguments may nest parentheses) by ``make.format(a, b)``."""
    out: list[str] = []
    i = 0
    while True:
        j = text.find("MK(", i)
        if j < 0:
            return "".join(out) + text[i:]
        out.append(text[i:j])
        depth, k, comma = 1, j + 3, -1
        while depth:
            ch = text[k]
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch == "," and depth == 1:
                comma = k
            k += 1
        args = [text[j + 3:comma].strip(), text[comma + 1:k - 1].strip()]
        out.append(make.format(*(_make(a, make) for a in args)))
        i = k


#: the math library names the helpers call (each overloaded for float and double)
LIBM: frozenset[str] = frozenset({
    "exp", "expm1", "log", "log1p", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asinh",
    "atan2", "hypot", "fabs", "copysign", "rint", "fmax", "fmin", "isnan", "isinf", "isfinite",
    "signbit", "fma"})
_LIBM_CALL = re.compile(r"\b(" + "|".join(sorted(LIBM)) + r")\s*\(")


def _render(name: str, part: str, vec: str, make: str, prefix: str,
            libm: Callable[[str, str], str] | None = None) -> str:
    ret, params, body = _DEFS[name]
    if libm is not None:
        body = _LIBM_CALL.sub(lambda m: libm(m.group(1), part) + "(", body)
    lines = "\n".join("  " + line for line in body.splitlines())
    text = f"{prefix} {ret} {fn_name(name, part)}({params}) {{\n{lines}\n}}"
    text = _CALL.sub(lambda m: fn_name(m.group(1), part), text)
    consts = {"INF": f"(({part})INFINITY)", "NAN": f"(({part})NAN)"}
    text = re.sub(r"\bK_(\w+)\b", lambda m: consts.get(m.group(1)) or _literal(
        _CONSTS[m.group(1)][part == "double"], part), text)
    text = re.sub(r"\bV\b", vec, re.sub(r"\bR\b", part, text))
    if part == "float":  # float literals: no double constant at all (no fp64 warning)
        text = _FLOAT_LITERAL.sub(r"\1f", text)
    return _make(text, make)


def source(names: Iterable[str], part: str, *, vec: str, make: str, prefix: str,
           libm: Callable[[str, str], str] | None = None) -> str:
    """C text defining the helpers ``names`` and their dependencies, each once, callees first.

    ``part`` is the component type ("float" or "double"), ``vec`` the two-component vector
    type, ``make`` a ``str.format`` pattern building a vector from ``{0}`` (real) and ``{1}``
    (imaginary), ``prefix`` what precedes each definition (``inline``, ``__device__ inline``).
    ``libm(name, part)``, when given, names the function called for each math library name
    in ``LIBM`` (a dialect without a math library calls its own functions).
    """
    if part not in _PARTS:
        raise ValueError(f"part must be 'float' or 'double', not {part!r}")
    order: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        for callee in _CALL.findall(_DEFS[name][2]):
            visit(callee)
        order.append(name)

    for name in sorted(set(names)):
        if name not in NAMES:
            raise ValueError(f"no complex helper {name!r}")
        visit(name)
    return "\n\n".join(_render(n, part, vec, make, prefix, libm) for n in order) + "\n"
