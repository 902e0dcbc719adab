"""Branch-free, auto-vectorizable C implementations of transcendental functions.

Layer: ``_codegen``. Imports only the standard library: nothing from zyxarray's other layers
(nor from the rest of ``_codegen``), so any C-family renderer can use it and it tests alone.

Why it exists: a loop that calls libm's scalar ``expf``/``sin`` cannot be vectorized by gcc
(no ``-ffast-math``, no vector libm), so an elementwise kernel runs at scalar speed. Every
function here is a ``static inline`` C function made only of arithmetic, ``fma``, ``sqrt``,
``fabs``/``copysign``/``trunc`` (which gcc inlines), integer ops on the bit pattern and
ternary selects, with no data-dependent branch and no table, so that::

    for (int64_t i = 0; i < n; i++) y[i] = zx_exp_f32(x[i]);

is vectorized by ``gcc -O3 -march=native`` (``-fno-math-errno``, ``-ffp-contract=off``, no
``-ffast-math``). ``fma``/``fmaf`` are called explicitly where the algorithms need a single
rounding; without FMA hardware they become libm calls: still correct, just slow and scalar.

Special values follow C99 Annex F / NumPy: NaN in gives NaN out, +-inf, signed zeros
(``f(-0.0) == -0.0`` for odd functions), overflow to inf, gradual underflow, and NaN for
domain errors (``log(-1)``, ``asin(2)``, ``pow(-8, 1/3)``), ``log(0) == -inf``.

Methods (all polynomial coefficients are minimax fits that we computed with an mpmath Remez
exchange, with the coefficients rounded to the target precision one at a time and the rest
re-fitted; the fit error is noted next to each table):

* exp family: ``x = n*ln2 + r``, ``|r| <= ln2/2``, with ``n*ln2`` subtracted exactly by an
  FMA (Cody-Waite, two-part ln2) and ``r`` kept as a double-double; ``e^r = 1 + r + r^2 Q(r)``
  and ``2^n`` applied as two exact power-of-two factors (so subnormal results round once).
  expm1, sinh, cosh, tanh reuse that core with compensated (double-double) arithmetic, so no
  function has a cancellation near zero.
* log family: ``x = 2^k m``, ``m`` in ``[sqrt(1/2), sqrt(2))``, ``f = m - 1`` (exact),
  ``log(m) = 2 atanh(s)`` with ``s = f/(2+f)`` as a double-double and
  ``2s + (2/3)s^3 + s^5 T(s^2)``; the result is a double-double accurate to about 2^-64
  relative, which pow needs. log1p, asinh, acosh and atanh feed it ``1 + t`` as a
  double-double.
* sin/cos/tan: ``x = n*pi/2 + r`` with a three-part pi/2 and FMA (exact for |x| < 2^51),
  ``r`` as a double-double, odd/even polynomials on ``|r| <= pi/4``, quadrant by selects.
* atan/atan2: ``atan(t) = m*pi/4 + atan(t')`` with ``t'`` = ``t``, ``(t-1)/(t+1)`` or
  ``-1/t`` (|t'| <= tan(pi/8)) computed as a double-double. asin/acos: odd polynomial on
  ``[0, 1/2]`` and ``asin(x) = pi/2 - 2 asin(sqrt((1-x)/2))`` above.
* pow: ``exp(y * log|x|)`` with the double-double log, ``y*log|x|`` as a double-double and
  exp's core taking the low part; C99's special cases by selects.

float32: exp, exp2, expm1, log, log2, log10, log1p, sinh, cosh and tanh run in float32
(float-float where compensation is needed) from the same C templates as float64; the other
float32 functions evaluate the float64 version on the widened argument (still vectorized, four
lanes per AVX2 register instead of eight) and round once more, which keeps them within 0.5 ulp
+ 2^-29 and gives sin/cos/tan the float64 range reduction.

Measured max error (ulp, against mpmath / long double over dense random and edge samples,
see ``tests/_codegen/test_c_math.py``) is given in the comment above each C function.
sin/cos/tan are accurate for |x| < 2^20 (proved bound of the reduction) and measured
accurate up to 2^50; beyond 2^51 they return values in [-1, 1] (tan: finite) that are not
the correctly reduced result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from string import Template

__all__ = ["FUNCTIONS", "c_name", "preamble"]

# ---------------------------------------------------------------------------------------------
# Polynomial coefficients (hex floats, exact). Name -> coefficients of the lowest power first.
# Each comment: the function approximated, the interval and the max weighted error of the
# rounded coefficients as fitted (Remez, mpmath 60 digits).
# ---------------------------------------------------------------------------------------------
_COEFFS: dict[str, tuple[str, ...]] = {
    # (e^r - 1 - r) / r^2, relative to expm1(r), |r| <= ln2/2 + 3e-4; c0 fixed to 1/2: 2^-61.6
    "EXP_Q_F64": (
        "0x1p-1",
        "0x1.5555555555559p-3",
        "0x1.5555555555558p-5",
        "0x1.111111110f715p-7",
        "0x1.6c16c16c174b5p-10",
        "0x1.a01a01af9d111p-13",
        "0x1.a01a0199c3ff5p-16",
        "0x1.71ddf927f448cp-19",
        "0x1.27e5029ad74d6p-22",
        "0x1.af5d3b240dab6p-26",
        "0x1.1f2a382f937d9p-29",
    ),
    # same, float32 coefficients: 2^-28.2
    "EXP_Q_F32": (
        "0x1p-1",
        "0x1.55552cp-3",
        "0x1.555502p-5",
        "0x1.115674p-7",
        "0x1.6d2e22p-10",
        "0x1.392f3cp-13",
    ),
    # (2 atanh(s) - 2s - (2/3)s^3) / s^5 as a polynomial in s^2, relative to 2 atanh(s),
    # |s| <= (sqrt2-1)/(sqrt2+1): 2^-66.3
    "LOG_T2_F64": (
        "0x1.9999999999b2fp-2",
        "0x1.2492492457f2fp-2",
        "0x1.c71c722d3fcd9p-3",
        "0x1.745ce9efd5b57p-3",
        "0x1.3b1ee9ebb36e7p-3",
        "0x1.0f80184b8f347p-3",
        "0x1.0e4112e8c9d7ap-3",
    ),
    # same, float32: 2^-29.2
    "LOG_T2_F32": (
        "0x1.997b44p-2",
        "0x1.2f53a8p-2",
    ),
    # (sin r - r) / r^3 in r^2, relative to sin r, |r| <= pi/4 + 1e-3: 2^-57.9
    "SIN_F64": (
        "-0x1.5555555555548p-3",
        "0x1.111111110f73p-7",
        "-0x1.a01a019be9259p-13",
        "0x1.71de355532ab3p-19",
        "-0x1.ae5e4b8c4ce21p-26",
        "0x1.5d8b58b0fa3acp-33",
    ),
    # (cos r - 1 + r^2/2) / r^4 in r^2, relative to cos r, |r| <= pi/4 + 1e-3: 2^-63.9
    "COS_F64": (
        "0x1.555555555554bp-5",
        "-0x1.6c16c16c15p-10",
        "0x1.a01a019c8badep-16",
        "-0x1.27e4f7ee4d097p-22",
        "0x1.1ee9d92dfbb0ep-29",
        "-0x1.8fa4fb8b45a59p-37",
    ),
    # (atan t - t) / t^3 in t^2, relative to atan t, |t| <= tan(pi/8): 2^-59.4
    "ATAN_F64": (
        "-0x1.555555555553dp-2",
        "0x1.9999999995869p-3",
        "-0x1.24924922ad55bp-3",
        "0x1.c71c70e60c069p-4",
        "-0x1.745cf8dc3f354p-4",
        "0x1.3b11191f4233ap-4",
        "-0x1.10ebb8bd80c77p-4",
        "0x1.df0f57362ef4fp-5",
        "-0x1.9cd30af00fe58p-5",
        "0x1.37d6a5c6ff6e8p-5",
        "-0x1.256d06ecfd436p-6",
    ),
    # (asin x - x) / x^3 in x^2, relative to asin x, |x| <= 1/2: 2^-59.9
    "ASIN_F64": (
        "0x1.5555555555577p-3",
        "0x1.333333332e131p-4",
        "0x1.6db6db721222cp-5",
        "0x1.f1c71a9533754p-6",
        "0x1.6e8bded496636p-6",
        "0x1.1c49f17ae53acp-6",
        "0x1.ca1f6c72331e2p-7",
        "0x1.7586c178cd70dp-7",
        "0x1.6134fd6860c42p-7",
        "0x1.e6705577e08ddp-9",
        "0x1.63751d5595d11p-6",
        "-0x1.57c3c1cc40856p-6",
        "0x1.0b343b3cbefd3p-5",
    ),
}

# ---------------------------------------------------------------------------------------------
# Per-precision constants for the templates. *_HI/*_LO pairs are double-doubles (float-floats);
# *_HI_T heads have trailing zero bits so that k * head is exact for every exponent k.
# ---------------------------------------------------------------------------------------------
_TYPES: dict[str, dict[str, str]] = {
    "f64": {
        "T": "double", "U": "uint64_t", "S": "int64_t", "FMA": "fma", "FABS": "fabs",
        "COPYSIGN": "copysign", "SQRT": "sqrt", "MANT": "52", "BIAS": "1023",
    },
    "f32": {
        "T": "float", "U": "uint32_t", "S": "int32_t", "FMA": "fmaf", "FABS": "fabsf",
        "COPYSIGN": "copysignf", "SQRT": "sqrtf", "MANT": "23", "BIAS": "127",
    },
}

# Floating constants, written as hex literals (with an f suffix for float32 so no operation is
# silently promoted to double).
_FCONST: dict[str, dict[str, str]] = {
    "f64": {
        "MAGIC": "0x1.8p52",                  # 1.5 * 2^52: adding it rounds to an integer
        "LOG2E": "0x1.71547652b82fep+0",
        "LN2_HI": "0x1.62e42fefa39efp-1",     # ln2 rounded; n*LN2_HI is subtracted by FMA
        "LN2_LO": "0x1.abc9e3b39803fp-56",
        "LN2_HI_T": "0x1.62e42fefa38p-1",     # 42 bits: k * it exact for |k| < 2^11
        "LN2_LO_T": "0x1.ef35793c7673p-45",
        "IL2_HI": "0x1.71547652b82fep+0",     # 1/ln2
        "IL2_LO": "0x1.777d0ffda0d24p-56",
        "IL10_HI": "0x1.bcb7b1526e50ep-2",    # 1/ln10
        "IL10_LO": "0x1.95355baaafad3p-57",
        "LG2_HI_T": "0x1.34413509f78p-2",     # log10(2), 42 bits
        "LG2_LO_T": "0x1.fef311f12b358p-46",
        "TT_HI": "0x1.5555555555555p-1",      # 2/3
        "TT_LO": "0x1.5555555555555p-55",
        "MIN_NORMAL": "0x1p-1022",
        "SUB_SCALE": "0x1p54",
        "EXP_LO": "-760.0",                   # clamps: far past under/overflow, keep 2^n valid
        "EXP_HI": "720.0",
        "EXP2_LO": "-1080.0",
        "EXP2_HI": "1030.0",
        "EM1_LO": "-40.0",                    # expm1(x) rounds to -1 below -37.4
        "TANH_SAT": "20.0",                   # tanh(x) rounds to 1 above 19.06
        "HYP_BIG": "22.0",                    # sinh/cosh = e^x/2 to 2^-63 above this
        "TINY": "0x1p-54",                    # log1p(x) rounds to x below this
    },
    "f32": {
        "MAGIC": "0x1.8p23f",
        "LOG2E": "0x1.715476p+0f",
        "LN2_HI": "0x1.62e43p-1f",
        "LN2_LO": "-0x1.05c61p-29f",
        "LN2_HI_T": "0x1.62e4p-1f",           # 16 bits: k * it exact for |k| < 2^8
        "LN2_LO_T": "0x1.7f7d1cp-20f",
        "IL2_HI": "0x1.715476p+0f",
        "IL2_LO": "0x1.4ae0cp-26f",
        "IL10_HI": "0x1.bcb7b2p-2f",
        "IL10_LO": "-0x1.5b235ep-27f",
        "LG2_HI_T": "0x1.3442p-2f",
        "LG2_LO_T": "-0x1.95ec1p-19f",
        "TT_HI": "0x1.555556p-1f",
        "TT_LO": "-0x1.555556p-26f",
        "MIN_NORMAL": "0x1p-126f",
        "SUB_SCALE": "0x1p25f",
        "EXP_LO": "-110.0f",
        "EXP_HI": "95.0f",
        "EXP2_LO": "-155.0f",
        "EXP2_HI": "135.0f",
        "EM1_LO": "-18.0f",                   # expm1f(x) rounds to -1 below -17.3
        "TANH_SAT": "9.5f",                   # tanhf(x) rounds to 1 above 9.01
        "HYP_BIG": "12.0f",                   # e^-2x < 2^-34
        "TINY": "0x1p-25f",
    },
}

# Integer constants.
_ICONST: dict[str, dict[str, str]] = {
    "f64": {
        "LDEXP_OFF": "2048",                  # n + OFF > 0 so the halving shift is logical
        "LDEXP_K": "1",                       # OFF/2 - BIAS
        "SQRTH_OFF": "0x00095f619980c433u",   # bits(1.0) - bits(sqrt(1/2))
        "SUB_K": "54",
        "M1": "100",                          # largest 2^n used directly by expm1
        "KCLAMP": "1000",                     # keeps 2^-k normal when scaling u's tail
    },
    "f32": {
        "LDEXP_OFF": "512",
        "LDEXP_K": "129",
        "SQRTH_OFF": "0x004afb0du",
        "SUB_K": "25",
        "M1": "40",
        "KCLAMP": "120",
    },
}


def _literal(hexstr: str, suffix: str) -> str:
    return hexstr + ("f" if suffix == "f32" else "")


def _horner(name: str, var: str, suffix: str) -> str:
    """Horner's scheme with one FMA per coefficient (most accurate, and gcc vectorizes it)."""
    key = name + "_" + suffix.upper() if name + "_" + suffix.upper() in _COEFFS else name
    coeffs = _COEFFS[key]
    fma = _TYPES[suffix]["FMA"]
    expr = _literal(coeffs[-1], suffix)
    for c in reversed(coeffs[:-1]):
        expr = f"{fma}({expr}, {var}, {_literal(c, suffix)})"
    return expr


_POLY = re.compile(r"@poly\((\w+),\s*(\w+)\)")


def _render(template: str, suffix: str) -> str:
    text = _POLY.sub(lambda m: _horner(m.group(1), m.group(2), suffix), template)
    mapping = {"SFX": suffix, **_TYPES[suffix], **_FCONST[suffix], **_ICONST[suffix]}
    return Template(text).substitute(mapping)


# ---------------------------------------------------------------------------------------------
# C templates shared by float32 and float64 ($T is the float type, $U/$S the same-width
# unsigned/signed integers). Keys are block names without the suffix; values: (deps, text).
# ---------------------------------------------------------------------------------------------
_TYPED: dict[str, tuple[tuple[str, ...], str]] = {}

_TYPED["common"] = ((), r"""
/* Bit casts through a union (gcc turns them into no-ops and vectorizes them), a
   double-double (float-float) pair, exact sums, and scaling by 2^n. */
typedef union { $T f; $U u; } zx__pun_$SFX;
typedef struct { $T hi, lo; } zx__dd_$SFX;
static inline $U zx__bits_$SFX($T x) { zx__pun_$SFX p; p.f = x; return p.u; }
static inline $T zx__float_$SFX($U u) { zx__pun_$SFX p; p.u = u; return p.f; }
/* a + b == hi + lo exactly, whatever their order (Knuth's TwoSum). */
static inline zx__dd_$SFX zx__two_sum_$SFX($T a, $T b) {
    zx__dd_$SFX r;
    r.hi = a + b;
    $T bb = r.hi - a;
    r.lo = (a - (r.hi - bb)) + (b - bb);
    return r;
}
/* y * 2^n for |n| <= ~LDEXP_OFF/2: two power-of-two factors that are always normal, so a
   subnormal result is rounded only once and a too large one overflows to inf. */
static inline $T zx__ldexp_$SFX($T y, $S n) {
    $U nb = ($U)(n + $LDEXP_OFF);
    $U h = nb >> 1;
    $T s1 = zx__float_$SFX((h - $LDEXP_K) << $MANT);
    $T s2 = zx__float_$SFX((nb - h - $LDEXP_K) << $MANT);
    return y * s1 * s2;
}
""")

_TYPED["exp_core"] = (("common",), r"""
/* e^(x + xl) = 2^n * (1 + hi + lo), |hi| <= ln2/2 (+ rounding), |lo| ~ ulp(hi). x must be
   finite and small enough that n fits (callers clamp); xl may be up to a few ulp(x) (pow).
   n = round(x/ln2) through the magic constant; x - n*LN2_HI is exact in one FMA (it is a
   multiple of ulp(LN2_HI) below 1), and the rest of ln2 and xl are folded into a normalized
   double-double r = rh + rl; then e^r = 1 + r + r^2 Q(r) + rl*r, Q minimax (see EXP_Q). */
typedef struct { $T hi, lo; $S n; } zx__expr_$SFX;
static inline zx__expr_$SFX zx__exp_core_$SFX($T x, $T xl) {
    const $T magic = $MAGIC;
    $T t = x * $LOG2E + magic;
    $T nf = t - magic;
    $T r1 = $FMA(-nf, $LN2_HI, x);
    $T nl = nf * $LN2_LO;
    $T rh0 = r1 - nl;
    $T rl0 = ((r1 - rh0) - nl) + xl;
    $T rh = rh0 + rl0;
    $T rl = (rh0 - rh) + rl0;
    $T q = @poly(EXP_Q, rh);
    $T z = rh * rh;
    $T zl = $FMA(rh, rh, -z);
    zx__expr_$SFX e;
    e.hi = rh;
    e.lo = $FMA(z, q, $FMA(zl, q, $FMA(rl, rh, rl)));
    e.n = ($S)(zx__bits_$SFX(t) - zx__bits_$SFX(magic));
    return e;
}
/* 2^n * (1 + ph + pl) - 1 as a normalized double-double, for small n (2^n must be normal):
   2^n - 1 is split exactly, and its head dominates 2^n * ph, so one fast TwoSum is exact. */
static inline zx__dd_$SFX zx__expm1_join_$SFX($T ph, $T pl, $S n) {
    $T s = zx__float_$SFX(($U)(n + $BIAS) << $MANT);
    zx__dd_$SFX a = zx__two_sum_$SFX(s, -1);
    $T sp = s * ph;
    $T h = a.hi + sp;
    $T l = ((a.hi - h) + sp) + (a.lo + s * pl);
    zx__dd_$SFX r;
    r.hi = h + l;
    r.lo = (h - r.hi) + l;
    return r;
}
""")

_TYPED["exp"] = (("exp_core",), r"""
/* e^x: exp_core, 1 + r rounded with its error kept, one final rounding, then 2^n.
   Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_exp_$SFX($T x) {
    $T xc = x < $EXP_LO ? $EXP_LO : x;
    xc = xc > $EXP_HI ? $EXP_HI : xc;
    zx__expr_$SFX e = zx__exp_core_$SFX(xc, 0);
    $T yh = 1 + e.hi;
    $T yl = ((1 - yh) + e.hi) + e.lo;
    return zx__ldexp_$SFX(yh + yl, e.n);
}
""")

_TYPED["exp2"] = (("exp_core",), r"""
/* 2^x = 2^n * e^(r*ln2), n = round(x), r = x - n exact, r*ln2 as a double-double fed to
   exp_core. Exact for integer x. Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_exp2_$SFX($T x) {
    const $T magic = $MAGIC;
    $T xc = x < $EXP2_LO ? $EXP2_LO : x;
    xc = xc > $EXP2_HI ? $EXP2_HI : xc;
    $T t = xc + magic;
    $T nf = t - magic;
    $S n0 = ($S)(zx__bits_$SFX(t) - zx__bits_$SFX(magic));
    $T r = xc - nf;
    $T xh = r * $LN2_HI;
    $T xl = $FMA(r, $LN2_HI, -xh) + r * $LN2_LO;
    zx__expr_$SFX e = zx__exp_core_$SFX(xh, xl);
    $T yh = 1 + e.hi;
    $T yl = ((1 - yh) + e.hi) + e.lo;
    return zx__ldexp_$SFX(yh + yl, e.n + n0);
}
""")

_TYPED["expm1"] = (("exp_core",), r"""
/* e^x - 1 = 2^n (1 + P) - 1 formed as a double-double (no cancellation for any x); for
   n > M1 the -1 is negligible and 2^(n-M1) is applied last. -0 is kept.
   Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_expm1_$SFX($T x) {
    $T xc = x < $EM1_LO ? $EM1_LO : x;
    xc = xc > $EXP_HI ? $EXP_HI : xc;
    zx__expr_$SFX e = zx__exp_core_$SFX(xc, 0);
    $S m = e.n > $M1 ? $M1 : e.n;
    zx__dd_$SFX d = zx__expm1_join_$SFX(e.hi, e.lo, m);
    $T y = (d.hi + d.lo) * zx__float_$SFX(($U)(e.n - m + $BIAS) << $MANT);
    return x == 0 ? x : y;
}
""")

_TYPED["tanh"] = (("exp_core",), r"""
/* tanh|x| = E / (E + 2), E = e^(2|x|) - 1 as a double-double from exp_core, divided with a
   first-order correction; 1 beyond TANH_SAT; sign restored by copysign (keeps -0).
   Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_tanh_$SFX($T x) {
    $T ax = $FABS(x);
    $T a2 = 2 * (ax > $TANH_SAT ? $TANH_SAT : ax);
    zx__expr_$SFX e = zx__exp_core_$SFX(a2, 0);
    zx__dd_$SFX m = zx__expm1_join_$SFX(e.hi, e.lo, e.n);
    zx__dd_$SFX d = zx__two_sum_$SFX(m.hi, 2);
    $T dl = d.lo + m.lo;
    $T inv = 1 / d.hi;
    $T q = m.hi * inv;
    $T ql = ($FMA(-q, d.hi, m.hi) + (m.lo - q * dl)) * inv;
    $T t = q + ql;
    t = ax > $TANH_SAT ? 1 : t;
    return $COPYSIGN(t, x);
}
""")

_TYPED["sinh"] = (("exp_core",), r"""
/* sinh|x| = (E + E/(E + 1)) / 2 with E = e^|x| - 1 as a double-double (both terms positive, so
   no cancellation near 0); above HYP_BIG, e^|x| / 2 with 2^(n-1) applied in two steps so it
   overflows exactly where sinh does. Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_sinh_$SFX($T x) {
    $T ax = $FABS(x);
    $T xc = ax > $EXP_HI ? $EXP_HI : ax;
    zx__expr_$SFX e = zx__exp_core_$SFX(xc, 0);
    $S ns = e.n > $M1 ? $M1 : e.n;
    zx__dd_$SFX m = zx__expm1_join_$SFX(e.hi, e.lo, ns);
    zx__dd_$SFX d = zx__two_sum_$SFX(m.hi, 1);
    $T dl = d.lo + m.lo;
    $T inv = 1 / d.hi;
    $T q = m.hi * inv;
    $T ql = ($FMA(-q, d.hi, m.hi) + (m.lo - q * dl)) * inv;
    zx__dd_$SFX s = zx__two_sum_$SFX(m.hi, q);
    $T small = (s.hi + (s.lo + (m.lo + ql))) * ($T)0.5;
    $T yh = 1 + e.hi;
    $T yl = ((1 - yh) + e.hi) + e.lo;
    $T big = zx__ldexp_$SFX(yh + yl, e.n - 1);
    $T r = ax > $HYP_BIG ? big : small;
    return $COPYSIGN(r, x);
}
""")

_TYPED["cosh"] = (("exp_core",), r"""
/* cosh x = (E + 1/E) / 2 with E = e^|x| as a double-double; above HYP_BIG, e^|x| / 2.
   Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_cosh_$SFX($T x) {
    $T ax = $FABS(x);
    $T xc = ax > $EXP_HI ? $EXP_HI : ax;
    zx__expr_$SFX e = zx__exp_core_$SFX(xc, 0);
    $T yh = 1 + e.hi;
    $T yl = ((1 - yh) + e.hi) + e.lo;
    $T y = yh + yl;
    $S ns = e.n > $M1 ? $M1 : e.n;
    $T s = zx__float_$SFX(($U)(ns + $BIAS) << $MANT);
    $T eh = y * s;
    $T el = ((yh - y) + yl) * s;
    $T ih = 1 / eh;
    $T il = ($FMA(-ih, eh, 1) - ih * el) * ih;
    zx__dd_$SFX t = zx__two_sum_$SFX(eh, ih);
    $T small = (t.hi + (t.lo + (el + il))) * ($T)0.5;
    $T big = zx__ldexp_$SFX(y, e.n - 1);
    return ax > $HYP_BIG ? big : small;
}
""")

_TYPED["log_core"] = (("common",), r"""
/* log(u + ul) = k*ln2 + hi + lo (hi + lo normalized) for finite u > 0 (subnormals included;
   then ul must be 0), |ul| <= ulp(u), plus kadd added to k. u = 2^k m with m in
   [sqrt(1/2), sqrt(2)) found with integer ops on the bits; f = m - 1 is exact and ul*2^-k is
   its exact tail (renormalized: for log1p it is as large as f); s = f/(2+f) as a
   double-double; log(m) = 2s + (2/3)s^3 + s^5 T(s^2) with the
   first two terms compensated: hi + lo is accurate to about 2^-64 relative (pow relies on it).
   Other inputs give garbage that callers replace by selects. */
typedef struct { $T k, hi, lo; } zx__logr_$SFX;
static inline zx__logr_$SFX zx__log_core_$SFX($T u, $T ul, $S kadd) {
    const $T magic = $MAGIC;
    $T v = u < $MIN_NORMAL ? u * $SUB_SCALE : u;
    $U ix = zx__bits_$SFX(v);
    $U tmp = ix + $SQRTH_OFF;
    $S ke = ($S)(tmp >> $MANT) - $BIAS;
    $T m = zx__float_$SFX(ix - (($U)ke << $MANT));
    $S kc = ke > $KCLAMP ? $KCLAMP : ke;
    $T ml = ul * zx__float_$SFX(($U)($BIAS - kc) << $MANT);
    $S ki = ke + kadd - (u < $MIN_NORMAL ? $SUB_K : 0);
    /* (T)ki through the magic constant: int64 -> double does not vectorize on AVX2 */
    $T k = zx__float_$SFX(zx__bits_$SFX(magic) + ($U)ki) - magic;
    zx__dd_$SFX f = zx__two_sum_$SFX(m - 1, ml);
    $T d = 2 + f.hi;
    $T dl = ((2 - d) + f.hi) + f.lo;
    $T inv = 1 / d;
    $T s = f.hi * inv;
    $T sl = (($FMA(-s, d, f.hi) + f.lo) - s * dl) * inv;
    $T w = s * s;
    $T wl = $FMA(s, s, -w);
    $T c3 = s * w;
    $T c3l = $FMA(s, w, -c3) + (s * wl + 3 * w * sl);
    $T a = $TT_HI * c3;
    $T al = $FMA($TT_HI, c3, -a) + ($TT_HI * c3l + $TT_LO * c3);
    $T b = c3 * w * @poly(LOG_T2, w);
    $T h = 2 * s;
    $T hh = h + a;
    $T hl = ((h - hh) + a) + ((2 * sl + al) + b);
    zx__logr_$SFX r;
    r.k = k;
    r.hi = hh + hl;
    r.lo = (hh - r.hi) + hl;
    return r;
}
/* k*ln2 + hi + lo rounded once: k*LN2_HI_T is exact and dominates hi (or k == 0). */
static inline $T zx__log_join_$SFX(zx__logr_$SFX L) {
    $T kh = L.k * $LN2_HI_T;
    $T H = kh + L.hi;
    $T e = (kh - H) + L.hi;
    return H + (e + (L.lo + L.k * $LN2_LO_T));
}
/* log(1 + t + tl) for 1 + t > 0: 1 + t split exactly, its tail passed on. */
static inline zx__logr_$SFX zx__log1p_core_$SFX($T t, $T tl) {
    zx__dd_$SFX u = zx__two_sum_$SFX(1, t);
    return zx__log_core_$SFX(u.hi, u.lo + tl, 0);
}
/* the log family's special cases: r for 0 < x < inf, else -inf (x == 0), inf, NaN */
static inline $T zx__log_special_$SFX($T x, $T r) {
    $T sp = x == 0 ? -($T)INFINITY : (x > 0 ? x : ($T)NAN);
    return (x > 0) & (x < ($T)INFINITY) ? r : sp;
}
""")

_TYPED["log"] = (("log_core",), r"""
/* natural log (log_core + log_join). Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_log_$SFX($T x) {
    return zx__log_special_$SFX(x, zx__log_join_$SFX(zx__log_core_$SFX(x, 0, 0)));
}
""")

_TYPED["log2"] = (("log_core",), r"""
/* log2 x = k + (hi + lo) / ln2 with the product compensated: exact for powers of two.
   Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_log2_$SFX($T x) {
    zx__logr_$SFX L = zx__log_core_$SFX(x, 0, 0);
    $T ph = L.hi * $IL2_HI;
    $T pl = $FMA(L.hi, $IL2_HI, -ph) + (L.hi * $IL2_LO + L.lo * $IL2_HI);
    $T H = L.k + ph;
    $T e = (L.k - H) + ph;
    return zx__log_special_$SFX(x, H + (e + pl));
}
""")

_TYPED["log10"] = (("log_core",), r"""
/* log10 x = k*log10(2) + (hi + lo) / ln10, compensated.
   Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_log10_$SFX($T x) {
    zx__logr_$SFX L = zx__log_core_$SFX(x, 0, 0);
    $T kh = L.k * $LG2_HI_T;
    $T ph = L.hi * $IL10_HI;
    $T pl = $FMA(L.hi, $IL10_HI, -ph) + (L.hi * $IL10_LO + L.lo * $IL10_HI);
    $T H = kh + ph;
    $T e = (kh - H) + ph;
    return zx__log_special_$SFX(x, H + (e + (pl + L.k * $LG2_LO_T)));
}
""")

_TYPED["log1p"] = (("log_core",), r"""
/* log(1 + x) with 1 + x split exactly (TwoSum) and its tail passed to log_core: accurate for
   tiny x. Max error: f64 0.51 ulp, f32 0.51 ulp (measured). */
static inline $T zx_log1p_$SFX($T x) {
    $T r = zx__log_join_$SFX(zx__log1p_core_$SFX(x, 0));
    $T sp = x == -1 ? -($T)INFINITY : (x > 0 ? x : ($T)NAN);
    r = (x > -1) & (x < ($T)INFINITY) ? r : sp;
    return $FABS(x) < $TINY ? x : r;
}
""")

# ---------------------------------------------------------------------------------------------
# float64-only blocks (float32 evaluates them on the widened argument).
# ---------------------------------------------------------------------------------------------
_F64: dict[str, tuple[tuple[str, ...], str]] = {}

_F64["trig_core"] = (("common_f64",), r"""
/* x = n*pi/2 + r, r = hi + lo, |r| <= pi/4 (+ rounding), q = n mod 4 in the low bits.
   pi/2 = P1 + P2 + P3 (159 bits); x - n*P1 is exact in one FMA, n*P2 is split exactly, so r is
   accurate to ~2^-105 absolute for |x| < 2^51, hence to 2^-60 relative where |x| < 2^20
   (r >= 2^-60 there). Beyond 2^51, r is clamped (results stay in [-1, 1]); inf gives NaN. */
typedef struct { double hi, lo; uint64_t q; } zx__trig_f64;
static inline zx__trig_f64 zx__trig_reduce_f64(double x) {
    const double magic = 0x1.8p52;
    /* n = round(x * 2/pi) with x * 2/pi as a double-double: a plain product is off by up to
       0.1 near 2^50 and could pick the wrong quadrant (|r| up to 0.94) */
    double yh = x * 0x1.45f306dc9c883p-1;
    double yl = fma(x, 0x1.45f306dc9c883p-1, -yh) + x * -0x1.6b01ec5417056p-55;
    double t = yh + magic;
    double nf = t - magic;
    double fr = (yh - nf) + yl;
    double adj = fr > 0.5 ? 1.0 : (fr < -0.5 ? -1.0 : 0.0);
    nf += adj;
    double r1 = fma(-nf, 0x1.921fb54442d18p+0, x);
    double wh = nf * 0x1.1a62633145c07p-54;
    double wl = fma(nf, 0x1.1a62633145c07p-54, -wh) + nf * -0x1.f1976b7ed8fbcp-110;
    zx__dd_f64 r = zx__two_sum_f64(r1, -wh);
    double rl = r.lo - wl;
    double rh = r.hi + rl;
    rl = (r.hi - rh) + rl;
    double rb = rh > 0.78 ? 0.78 : (rh < -0.78 ? -0.78 : rh);
    int big = fabs(x) > 0x1p51;
    zx__trig_f64 o;
    o.hi = big ? (x - x) + rb : rh;
    o.lo = big ? 0.0 : rl;
    o.q = zx__bits_f64(t) + (fr > 0.5 ? 1u : (fr < -0.5 ? ~(uint64_t)0 : 0u));
    return o;
}
/* sin(r) = sh + sl and cos(r) = ch + cl for r = rh + rl, |r| <= pi/4:
   sin r = r + r^3 S(r^2), cos r = 1 - r^2/2 + r^4 C(r^2), with 1 - r^2/2 compensated. */
typedef struct { double sh, sl, ch, cl; } zx__sc_f64;
static inline zx__sc_f64 zx__sincos_kernel_f64(double rh, double rl) {
    double z = rh * rh;
    double zl = fma(rh, rh, -z);
    double hz = 0.5 * z;
    zx__sc_f64 o;
    o.sh = rh;
    o.sl = rh * z * @poly(SIN, z) + rl * (1 - hz);
    o.ch = 1 - hz;
    o.cl = (((1 - o.ch) - hz) - 0.5 * zl) - rh * rl + z * z * @poly(COS, z);
    return o;
}
""")

_F64["sin"] = (("trig_core",), r"""
/* sin: quadrant selects between the sin and cos kernels. Max error 0.51 ulp for |x| < 2^50
   (measured). */
static inline double zx_sin_f64(double x) {
    zx__trig_f64 R = zx__trig_reduce_f64(x);
    zx__sc_f64 K = zx__sincos_kernel_f64(R.hi, R.lo);
    double v = (R.q & 1) ? K.ch + K.cl : K.sh + K.sl;
    v = (R.q & 2) ? -v : v;
    return x == 0 ? x : v;
}
""")

_F64["cos"] = (("trig_core",), r"""
/* cos x = sin(x + pi/2): the quadrant plus one. Max error 0.51 ulp for |x| < 2^50 (measured). */
static inline double zx_cos_f64(double x) {
    zx__trig_f64 R = zx__trig_reduce_f64(x);
    zx__sc_f64 K = zx__sincos_kernel_f64(R.hi, R.lo);
    uint64_t q = R.q + 1;
    double v = (q & 1) ? K.ch + K.cl : K.sh + K.sl;
    return (q & 2) ? -v : v;
}
""")

_F64["tan"] = (("trig_core",), r"""
/* tan = sin/cos (or -cos/sin in odd quadrants) of the reduced argument, both as normalized
   double-doubles, divided with a first-order correction. Max error 0.51 ulp for |x| < 2^50
   (measured). */
static inline double zx_tan_f64(double x) {
    zx__trig_f64 R = zx__trig_reduce_f64(x);
    zx__sc_f64 K = zx__sincos_kernel_f64(R.hi, R.lo);
    double sh = K.sh + K.sl;
    double sl = (K.sh - sh) + K.sl;
    double ch = K.ch + K.cl;
    double cl = (K.ch - ch) + K.cl;
    int odd = (int)(R.q & 1);
    double nh = odd ? ch : sh;
    double nl = odd ? cl : sl;
    double dh = odd ? -sh : ch;
    double dl = odd ? -sl : cl;
    double inv = 1 / dh;
    double qh = nh * inv;
    double ql = (fma(-qh, dh, nh) + (nl - qh * dl)) * inv;
    double v = qh + ql;
    return x == 0 ? x : v;
}
""")

_F64["atan_core"] = (("common_f64",), r"""
/* atan(t + tl) = m*pi/4 + hi + lo for 0 <= t < inf: m = 0, 1, 2 as t passes tan(pi/8) and
   tan(3pi/8), t' = t, (t-1)/(t+1) or -1/t (|t'| <= tan(pi/8)) as a double-double, then
   atan t' = t' + t'^3 P(t'^2) and the first-order term of the tail. */
typedef struct { double m, hi, lo; } zx__atanr_f64;
static inline zx__atanr_f64 zx__atan_core_f64(double t, double tl) {
    double m = (t > 0x1.a827999fcef32p-2 ? 1.0 : 0.0) + (t > 0x1.3504f333f9de6p+1 ? 1.0 : 0.0);
    zx__dd_f64 nu = zx__two_sum_f64(m == 2 ? -1.0 : t, m == 1 ? -1.0 : 0.0);
    zx__dd_f64 de = zx__two_sum_f64(m == 0 ? 1.0 : t, m == 1 ? 1.0 : 0.0);
    double nl = nu.lo + (m == 2 ? 0.0 : tl);
    double dl = de.lo + (m == 0 ? 0.0 : tl);
    double inv = 1 / de.hi;
    double u = nu.hi * inv;
    double ul = (fma(-u, de.hi, nu.hi) + (nl - u * dl)) * inv;
    double z = u * u;
    zx__atanr_f64 r;
    r.m = m;
    r.hi = u;
    r.lo = u * z * @poly(ATAN, z) + ul * (1 - z);
    return r;
}
/* m*pi/4 + h + l rounded once, m in 0..4 (pi/4's head has 3 trailing zero bits). */
static inline double zx__atan_join_f64(double m, double h, double l) {
    double kh = m * 0x1.921fb54442d18p-1;
    double H = kh + h;
    double e = (kh - H) + h;
    return H + (e + (l + m * 0x1.1a62633145c07p-55));
}
""")

_F64["atan"] = (("atan_core",), r"""
/* atan: odd, atan(+-inf) = +-pi/2. Max error 0.51 ulp (measured). */
static inline double zx_atan_f64(double x) {
    double ax = fabs(x);
    zx__atanr_f64 R = zx__atan_core_f64(ax, 0.0);
    double v = zx__atan_join_f64(R.m, R.hi, R.lo);
    v = ax == INFINITY ? 0x1.921fb54442d18p+0 : v;
    return copysign(v, x);
}
""")

_F64["atan2"] = (("atan_core",), r"""
/* atan2(y, x): t = min/max of |x|, |y| as a double-double (tiny or huge pairs rescaled first,
   0/0 -> 0, inf/inf -> 1), atan_core, then pi/2 - . and pi - . folded into m*pi/4 +- atan,
   sign of y by copysign; every C99 zero/inf case follows. Max error 0.51 ulp (measured). */
static inline double zx_atan2_f64(double y, double x) {
    double ax = fabs(x);
    double ay = fabs(y);
    int sw = ay > ax;
    double a = sw ? ax : ay;
    double b = sw ? ay : ax;
    double sc = b < 0x1p-500 ? 0x1p600 : (b > 0x1p1000 ? 0x1p-600 : 1.0);
    sc = (a < 0x1p-900) & (b >= 0x1p-500) & (b < 0x1p500) ? 0x1p500 : sc;
    a *= sc;
    b *= sc;
    double inv = 1 / b;
    double t = a * inv;
    double tl = fma(-t, b, a) * inv;
    int bz = b == 0;
    int bi = b == INFINITY;
    t = bz ? 0.0 : (bi ? (a == INFINITY ? 1.0 : 0.0) : t);
    tl = bz | bi ? 0.0 : tl;
    zx__atanr_f64 R = zx__atan_core_f64(t, tl);
    double m = sw ? 2 - R.m : R.m;
    double sg = sw ? -1.0 : 1.0;
    int xneg = (int64_t)zx__bits_f64(x) < 0;
    m = xneg ? 4 - m : m;
    sg = xneg ? -sg : sg;
    double v = zx__atan_join_f64(m, sg * R.hi, sg * R.lo);
    v = (x != x) | (y != y) ? x + y : v;
    return copysign(v, y);
}
""")

_F64["asin_core"] = (("common_f64",), r"""
/* For |x| > 1/2: asin(s + sl) - s with s + sl = sqrt((1 - |x|)/2) (w = s^2 exact), to first
   order in sl; for |x| <= 1/2 the caller uses x^3 P(x^2) directly. */
typedef struct { double s, tail; } zx__asinr_f64;
static inline zx__asinr_f64 zx__asin_half_f64(double ax) {
    double w = (1 - ax) * 0.5;
    double s = sqrt(w);
    double sl = s > 0 ? fma(-s, s, w) / (2 * s) : 0.0;
    zx__asinr_f64 r;
    r.s = s;
    r.tail = s * w * @poly(ASIN, w) + sl * (1 + 0.5 * w);
    return r;
}
""")

_F64["asin"] = (("asin_core",), r"""
/* asin x = x + x^3 P(x^2) for |x| <= 1/2, else pi/2 - 2 asin(sqrt((1-|x|)/2)), compensated.
   Max error 0.51 ulp (measured). */
static inline double zx_asin_f64(double x) {
    double ax = fabs(x);
    double z = ax * ax;
    double small = ax + ax * z * @poly(ASIN, z);
    zx__asinr_f64 h = zx__asin_half_f64(ax);
    double s2 = 2 * h.s;
    double H = 0x1.921fb54442d18p+0 - s2;
    double e = (0x1.921fb54442d18p+0 - H) - s2;
    double big = H + (e + (0x1.1a62633145c07p-54 - 2 * h.tail));
    double v = ax > 0.5 ? big : small;
    return copysign(v, x);
}
""")

_F64["acos"] = (("asin_core",), r"""
/* acos x = pi/2 - asin x for |x| <= 1/2; 2 asin(s) for x > 1/2; pi - 2 asin(s) for x < -1/2,
   s = sqrt((1-|x|)/2); compensated. Max error 0.51 ulp (measured). */
static inline double zx_acos_f64(double x) {
    double ax = fabs(x);
    double z = x * x;
    double H = 0x1.921fb54442d18p+0 - x;
    double e = (0x1.921fb54442d18p+0 - H) - x;
    double small = H + (e + (0x1.1a62633145c07p-54 - x * z * @poly(ASIN, z)));
    zx__asinr_f64 h = zx__asin_half_f64(ax);
    double pos = 2 * (h.s + h.tail);
    double s2 = 2 * h.s;
    double G = 0x1.921fb54442d18p+1 - s2;
    double g = (0x1.921fb54442d18p+1 - G) - s2;
    double neg = G + (g + (0x1.1a62633145c07p-53 - 2 * h.tail));
    double big = x > 0 ? pos : neg;
    return ax > 0.5 ? big : small;
}
""")

_F64["asinh"] = (("log_core_f64",), r"""
/* asinh|x| = log1p(t), t = |x| + x^2 / (1 + sqrt(1 + x^2)), every step a double-double so that
   t is accurate relative to itself; log(2|x|) above 2^500 (x^2 would overflow); odd.
   Max error 0.51 ulp (measured). */
static inline double zx_asinh_f64(double x) {
    double ax = fabs(x);
    double sq = ax * ax;
    double sql = fma(ax, ax, -sq);
    zx__dd_f64 v = zx__two_sum_f64(1.0, sq);
    double vl = v.lo + sql;
    double sh = sqrt(v.hi);
    double sl = (fma(-sh, sh, v.hi) + vl) / (2 * sh);
    zx__dd_f64 D = zx__two_sum_f64(1.0, sh);
    double Dl = D.lo + sl;
    double inv = 1 / D.hi;
    double qh = sq * inv;
    double ql = (fma(-qh, D.hi, sq) + (sql - qh * Dl)) * inv;
    double th = ax + qh;
    double tl = ((ax - th) + qh) + ql;
    zx__dd_f64 u = zx__two_sum_f64(1.0, th);
    double ul = u.lo + tl;
    int big = ax > 0x1p500;
    double uh = big ? ax : u.hi;
    double r = zx__log_join_f64(zx__log_core_f64(uh, big ? 0.0 : ul, big ? 1 : 0));
    r = ax < INFINITY ? r : ax;
    r = ax < 0x1p-28 ? ax : r;
    return copysign(r, x);
}
""")

_F64["acosh"] = (("log_core_f64",), r"""
/* acosh x = log1p(t), t = (x - 1) + sqrt(x^2 - 1) as double-doubles (accurate near 1);
   log(2x) above 2^500; NaN below 1. Max error 0.51 ulp (measured). */
static inline double zx_acosh_f64(double x) {
    double sq = x * x;
    double sql = fma(x, x, -sq);
    zx__dd_f64 v = zx__two_sum_f64(sq, -1.0);
    double vl = v.lo + sql;
    double sh = sqrt(v.hi);
    double sl = sh > 0 ? (fma(-sh, sh, v.hi) + vl) / (2 * sh) : 0.0;
    zx__dd_f64 xm = zx__two_sum_f64(x, -1.0);
    zx__dd_f64 T = zx__two_sum_f64(xm.hi, sh);
    double tl = T.lo + (xm.lo + sl);
    zx__dd_f64 u = zx__two_sum_f64(1.0, T.hi);
    double ul = u.lo + tl;
    int big = x > 0x1p500;
    double uh = big ? x : u.hi;
    double r = zx__log_join_f64(zx__log_core_f64(uh, big ? 0.0 : ul, big ? 1 : 0));
    r = x >= 1 ? r : NAN;
    return x == INFINITY ? x : r;
}
""")

_F64["atanh"] = (("log_core_f64",), r"""
/* atanh|x| = log1p(2|x| / (1 - |x|)) / 2 with the quotient as a double-double; odd; +-inf at
   +-1, NaN beyond. Max error 0.51 ulp (measured). */
static inline double zx_atanh_f64(double x) {
    double ax = fabs(x);
    zx__dd_f64 d = zx__two_sum_f64(1.0, -ax);
    double n = 2 * ax;
    double inv = 1 / d.hi;
    double th = n * inv;
    double tl = (fma(-th, d.hi, n) - th * d.lo) * inv;
    double r = 0.5 * zx__log_join_f64(zx__log1p_core_f64(th, tl));
    r = ax < 1 ? r : (ax == 1 ? INFINITY : NAN);
    r = ax < 0x1p-28 ? ax : r;
    return copysign(r, x);
}
""")

_F64["pow"] = (("log_core_f64", "exp_core_f64"), r"""
/* pow(x, y) = exp(y * log|x|): log|x| as a double-double (~2^-64 relative), y*log|x| as a
   double-double, whose low part exp_core adds to its reduced argument; then C99 Annex F's
   special cases by selects (pow(x, 0) = pow(1, y) = 1, signed zeros and infinities, odd
   integer y keeps the sign of negative x, NaN for negative x and non-integer y).
   Max error 0.52 ulp (measured). */
static inline double zx_pow_f64(double x, double y) {
    double ax = fabs(x);
    zx__logr_f64 L = zx__log_core_f64(ax, 0.0, 0);
    double kh = L.k * 0x1.62e42fefa38p-1;
    double lh0 = kh + L.hi;
    double ll0 = ((kh - lh0) + L.hi) + (L.lo + L.k * 0x1.ef35793c7673p-45);
    double lh = lh0 + ll0;
    double ll = (lh0 - lh) + ll0;
    double zh = y * lh;
    double zl = fma(y, lh, -zh) + y * ll;
    int inr = (zh > -760.0) & (zh < 720.0);
    double zc = zh < -760.0 ? -760.0 : (zh > 720.0 ? 720.0 : zh);
    zx__expr_f64 e = zx__exp_core_f64(zc, inr ? zl : 0.0);
    double yh = 1 + e.hi;
    double yl = ((1 - yh) + e.hi) + e.lo;
    double r = zx__ldexp_f64(yh + yl, e.n);
    double yt = trunc(y);
    double y2 = 0.5 * y;
    int yint = yt == y;
    int yodd = yint & (trunc(y2) != y2);
    double sp = (y > 0) == (ax > 1) ? INFINITY : 0.0;
    r = (ax == 0) | (ax == INFINITY) | (fabs(y) == INFINITY) ? sp : r;
    r = ax == 1 ? 1.0 : r;
    r = ((int64_t)zx__bits_f64(x) < 0) & yodd ? -r : r;
    r = (x < 0) & (x > -INFINITY) & !yint ? NAN : r;
    r = (x != x) | (y != y) ? x + y : r;
    return (y == 0) | (x == 1) ? 1.0 : r;
}
""")

# float32 versions that evaluate the float64 one (name -> number of arguments).
_WIDENED: dict[str, int] = {
    "sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1, "atan2": 2,
    "asinh": 1, "acosh": 1, "atanh": 1, "pow": 2,
}

_TEMPLATED_PUBLIC = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
                     "sinh", "cosh", "tanh")


def _build() -> dict[str, tuple[tuple[str, ...], str]]:
    blocks: dict[str, tuple[tuple[str, ...], str]] = {}
    for suffix in ("f32", "f64"):
        for base, (deps, text) in _TYPED.items():
            name = base + "_" + suffix
            blocks[name] = (tuple(d + "_" + suffix for d in deps), _render(text, suffix))
    for base, (deps, text) in _F64.items():
        blocks[base + "_f64"] = (tuple(d if d.endswith("_f64") else d + "_f64" for d in deps),
                                 _render(text, "f64"))
    for name, nargs in _WIDENED.items():
        if nargs == 1:
            text = (f"static inline float zx_{name}_f32(float x) {{\n"
                    f"    return (float)zx_{name}_f64((double)x);\n}}\n")
        else:
            text = (f"static inline float zx_{name}_f32(float a, float b) {{\n"
                    f"    return (float)zx_{name}_f64((double)a, (double)b);\n}}\n")
        blocks[name + "_f32"] = ((name + "_f64",), text)
    return blocks


_BLOCKS = _build()

#: Names of the functions this module implements (each for both "f32" and "f64").
FUNCTIONS: frozenset[str] = frozenset(_TEMPLATED_PUBLIC) | frozenset(_F64) - {
    "trig_core", "atan_core", "asin_core"}

_HEADER = "#include <stdint.h>\n#include <math.h>\n"


def c_name(name: str, suffix: str) -> str:
    """C name of the helper for ``name`` ("exp", ...) and ``suffix`` ("f32" or "f64")."""
    if name not in FUNCTIONS:
        raise ValueError(f"c_math.c_name: no vectorizable C implementation of {name!r}")
    if suffix not in ("f32", "f64"):
        raise ValueError(f"c_math.c_name: suffix must be 'f32' or 'f64', not {suffix!r}")
    return f"zx_{name}_{suffix}"


def preamble(used: Iterable[tuple[str, str]]) -> str:
    """C source defining each requested (name, suffix) helper and what it needs, once each,
    dependencies first, as ``static inline`` functions (after the two #includes it needs)."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(block: str) -> None:
        if block in seen:
            return
        seen.add(block)
        for dep in _BLOCKS[block][0]:
            visit(dep)
        order.append(block)

    for name, suffix in sorted(set(used)):
        c_name(name, suffix)  # validates
        visit(f"{name}_{suffix}")
    if not order:
        return ""
    return _HEADER + "".join(_BLOCKS[b][1] for b in order)
