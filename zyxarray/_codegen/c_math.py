"""Branch-free, auto-vectorizable C implementations of transcendental functions.

Layer: ``_codegen``. Imports only the standard library: nothing from zyxarray's other layers
(nor from the rest of ``_codegen``), so any C-family renderer can use it and it tests alone.

Why: a loop that calls libm's scalar ``expf``/``sin`` is not vectorized by gcc (no
``-ffast-math``, no vector libm), so an elementwise kernel runs at scalar speed. Every helper
here is a ``static inline`` function made of arithmetic, ``fma``, ``sqrt``, ``fabs``,
``copysign``, integer ops on the bit pattern and bit-mask selects, with no branch, no table and
no other libm call (``far_trig``'s reduction for GPUs excepted: see the end), so that with the
cpu device's flags (``gcc -std=gnu11 -O3 -march=native -fno-math-errno -ffp-contract=off
-fwrapv``, no ``-ffast-math``)::

    for (int64_t i = 0; i < n; i++) y[i] = zx_exp_f32(x[i]);

is vectorized (every helper, float32 and float64, on AVX2+FMA). ``fma``/``fmaf`` are called
explicitly where a single rounding matters; without FMA hardware they are libm calls: correct,
but scalar. ``preamble`` emits what a kernel uses, once each, dependencies first::

    static inline float zx_exp_f32(float x) {
        float xc = zx__sel_f32(x < -110.0f, -110.0f, x);    /* NaN passes through */
        ...

Special values are NumPy's (C99 Annex F): NaN in, NaN out; +-inf; signed zeros (odd functions
keep -0.0); overflow to inf and gradual underflow exactly where the rounded result does; NaN for
domain errors (``log(-1)``, ``asin(2)``, ``pow(-8, 1/3)``); ``log(0) == -inf``; ``pow``'s
zero/inf/odd-integer cases.

Methods. Polynomials are minimax fits we computed (mpmath Remez exchange, coefficients rounded
to the target precision one at a time with the rest re-fitted; the fit error is noted at each
table). Error-free transformations (TwoSum, FMA products) carry double-double (float-float)
intermediates wherever a rounding would otherwise show in the result.

* exp, exp2, expm1, sinh, cosh, tanh: ``x = n ln2 + r``, ``|r| <= ln2/2``; ``x - n*ln2_hi`` is
  exact in one FMA; ``r`` is a double-double; ``e^r = 1 + r + r^2 Q(r)``; 2^n is applied as
  two normal power-of-two factors, so a subnormal result is rounded once and overflow happens
  where it should. expm1 forms ``2^n (1 + p) - 1`` exactly, tanh is ``E/(E+2)`` and sinh
  ``(E + E/(E+1))/2`` with ``E = expm1`` as a double-double: no cancellation near 0.
* log, log2, log10, log1p: ``x = 2^k m``, ``m`` in ``[sqrt(1/2), sqrt(2))`` from the bits,
  ``f = m - 1`` exact, ``s = f/(2+f)`` as a double-double, ``log m = 2s + (2/3)s^3 +
  s^5 T(s^2)``, accurate to about 2^-64 as a double-double (pow needs it). log1p passes the
  exact tail of ``1 + x``; asinh, acosh and atanh build their log1p argument as double-doubles.
* sin, cos, tan: ``x = n pi/2 + r``. float64: n from ``x * 2/pi`` as a double-double, a
  three-part pi/2 with FMAs, ``r`` a double-double with an absolute error below n * 2^-159:
  within 1 ulp for ``|x| < 2^42`` (no double comes closer than 2^-62 to a multiple of pi/2),
  and for ``|x| < 2^50`` except inputs within ~2^-57 of a multiple of pi/2 (random samples up
  to 2^50 stay below 0.8 ulp). float32: the reduction runs in double (two FMAs; float32 inputs
  are never closer than 2^-28.9 to a multiple of pi/2 below 2^64, checked binade by binade),
  the polynomials in float32 on a float-float ``r``: accurate for ``|x| < 2^50``. Beyond 2^50
  the results are not the correctly reduced ones but stay in [-1, 1] (tan: finite).
* atan, atan2: ``atan t = m pi/4 + atan t'``, ``t'`` one of ``t``, ``(t-1)/(t+1)``, ``-1/t``
  (``|t'| <= tan(pi/8)``) as a double-double. asin, acos: odd polynomial on ``[0, 1/2]``,
  ``pi/2 - 2 asin(sqrt((1-|x|)/2))`` above.
* pow: ``exp(y log|x|)`` with ``y log|x|`` a double-double whose tail exp's reduction absorbs;
  float32 pow does it in plain double. asin, acos, atan, atan2, asinh, acosh and atanh in
  float32 evaluate the float64 helper on the widened argument (four lanes per AVX2 register
  instead of eight; one more rounding: within 0.5 ulp + 2^-29).

Accuracy: the comment above each public helper gives its measured max error in ulps (dense
random and edge samples against long double; every float32 input for the float32 exp, exp2,
expm1, log, log2, log10, log1p, sin, cos, tan, sinh, cosh and tanh): all below 0.95 ulp,
below 0.6 ulp for exp and the logs with normal results (subnormal exp results: 0.76). See
tests/_codegen/test_c_math.py.

For devices without a math library (the HIP dialect), see tests/_codegen/test_c_math_device.py:

* ``preamble(used, prefix="__device__ inline", far_trig=True)``: the same functions as device
  code (no #include; the caller defines the integer types and the few primitives), and sin,
  cos, tan accurate for every argument: beyond 2^51 (float64) or 2^50 (float32) the argument
  is reduced with Payne and Hanek's method (x's mantissa times 224 bits of 2/pi in 32-bit
  limbs; 2/pi's words ``TWO_OVER_PI`` are computed at import with integers, as is
  ``PI_HALF_TAIL``), reached by a branch and reading a small constant table: the one branch
  and the one table of this module, there for GPUs (the cpu dialect uses libm's sin, cos and
  tan). Max error for huge arguments, the closest to multiples of pi/2 included (measured):
  0.81 ulp (tan; sin and cos 0.74), float32 and float64.
* ``DEVICE_ONLY`` functions, which the cpu takes from libm: hypot (float64: scaled by a power
  of two, the sum of squares as a double-double, a corrected square root: 0.50 ulp, 0.75 for
  subnormal results; float32 in double: 0.50 ulp) and nextafter (exact, on the bit pattern).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from string import Template

__all__ = ["DEVICE_ONLY", "FUNCTIONS", "PI_HALF_TAIL", "TWO_OVER_PI", "c_name", "preamble"]


def _machin_two_over_pi(words: int) -> tuple[tuple[int, ...], float]:
    """2/pi in 32-bit words, the first its integer part (0), and pi/2 - float64(pi/2):
    from pi computed here with integers (Machin's formula)."""
    bits = 32 * words + 64
    one = 1 << bits

    def atan_inv(k: int) -> int:          # atan(1/k) * 2^bits
        total, term, n, sign = 0, one // k, 1, 1
        while term:
            total += sign * (term // n)
            term //= k * k
            n += 2
            sign = -sign
        return total

    pi = 16 * atan_inv(5) - 4 * atan_inv(239)
    two_over_pi = (2 << (2 * bits)) // pi          # 2/pi * 2^bits
    frac_bits = 32 * (words - 1)
    value = two_over_pi >> (bits - frac_bits)      # 2/pi * 2^frac_bits (integer part 0)
    out = tuple((value >> (32 * (words - 1 - i))) & 0xFFFFFFFF for i in range(words))
    half = pi >> 1                                 # pi/2 * 2^bits
    tail = float(Fraction(half, one) - Fraction(_PI_HALF))
    return out, tail


_PI_HALF = float.fromhex("0x1.921fb54442d18p+0")   # float64(pi/2)

#: 2/pi as 32-bit words, most significant first: 2/pi = sum of TWO_OVER_PI[i] * 2^(-32 i)
#: (word 0 is the integer part, 0), truncated after 40 words (1248 fraction bits: enough for
#: the Payne-Hanek reduction of any float64). Computed at import with integers.
#: PI_HALF_TAIL: pi/2 - float64(pi/2), so that float64(pi/2) + PI_HALF_TAIL is pi/2 to 2^-107.
TWO_OVER_PI: tuple[int, ...]
PI_HALF_TAIL: float
TWO_OVER_PI, PI_HALF_TAIL = _machin_two_over_pi(40)

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
    # (sin r - r) / r^3 in r^2, float32 coefficients, |r| <= pi/4 + 1e-3: 2^-32.5
    "SIN_F32": (
        "-0x1.555556p-3",
        "0x1.111174p-7",
        "-0x1.a05954p-13",
        "0x1.7c2cfap-19",
    ),
    # (cos r - 1 + r^2/2) / r^4 in r^2, float32 coefficients, |r| <= pi/4 + 1e-3: 2^-33.0
    "COS_F32": (
        "0x1.55554ap-5",
        "-0x1.6c0c28p-10",
        "0x1.99e81p-16",
    ),
    # (2 atanh(s) - 2s) / s^3 in s^2 (float32 pow's double log), relative to 2 atanh(s): 2^-37.6
    "LOG_T_LITE": (
        "0x1.555554fde3827p-1",
        "0x1.999a7a18fa89ep-2",
        "0x1.2438f1a06a3f3p-2",
        "0x1.e2f2cbfe95596p-3",
    ),
    # (e^r - 1 - r) / r^2, relative to e^r (float32 pow's double exp), c0 = 1/2: 2^-39.2
    "EXP_Q_LITE": (
        "0x1p-1",
        "0x1.55555588dfe7fp-3",
        "0x1.555555e5aa553p-5",
        "0x1.11108f9b1e5b2p-7",
        "0x1.6c14b9d3e0513p-10",
        "0x1.a1a214d6c6d3bp-13",
        "0x1.a3cb95888cf8ap-16",
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
        "PI_HALF_TAIL": PI_HALF_TAIL.hex(),   # pi/2 - float64(pi/2)
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


# @poly(NAME, var): Horner in the block's precision; @dpoly(NAME, var): in double (float32
# blocks that compute in double).
_POLY = re.compile(r"@(d?)poly\((\w+),\s*(\w+)\)")


def _render(template: str, suffix: str) -> str:
    text = _POLY.sub(lambda m: _horner(m.group(2), m.group(3), "f64" if m.group(1) else suffix),
                     template)
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
/* c ? a : b through bit masks. A plain ?: is a branch early in gcc's pipeline, and with
   -ftrapping-math (the default) jump threading then duplicates the floating-point code after
   it into both arms, which the vectorizer refuses ("control flow in loop"); masks keep the
   code straight-line. */
static inline $T zx__sel_$SFX(int c, $T a, $T b) {
    $U m = ($U)0 - ($U)(c != 0);
    return zx__float_$SFX((zx__bits_$SFX(a) & m) | (zx__bits_$SFX(b) & ~m));
}
static inline $S zx__seli_$SFX(int c, $S a, $S b) {
    $U m = ($U)0 - ($U)(c != 0);
    return ($S)((($U)a & m) | (($U)b & ~m));
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
   Max error (measured): f64 0.57 ulp, f32 0.58 ulp; 0.75 (f64) and 0.76 (f32, every input)
   ulp for subnormal results (the sum is rounded before the scaling). */
static inline $T zx_exp_$SFX($T x) {
    $T xc = zx__sel_$SFX(x < $EXP_LO, $EXP_LO, x);    /* NaN passes through */
    xc = zx__sel_$SFX(xc > $EXP_HI, $EXP_HI, xc);
    zx__expr_$SFX e = zx__exp_core_$SFX(xc, -($T)0);
    $T yh = 1 + e.hi;
    $T yl = ((1 - yh) + e.hi) + e.lo;
    return zx__ldexp_$SFX(yh + yl, e.n);
}
""")

_TYPED["exp2"] = (("exp_core",), r"""
/* 2^x = 2^n * e^(r*ln2), n = round(x), r = x - n exact, r*ln2 as a double-double fed to
   exp_core. Exact for integer x. Max error (measured): f64 0.57 ulp, f32 0.58 ulp; 0.75 (f64)
   and 0.76 (f32, every input) ulp for subnormal results. */
static inline $T zx_exp2_$SFX($T x) {
    const $T magic = $MAGIC;
    $T xc = zx__sel_$SFX(x < $EXP2_LO, $EXP2_LO, x);
    xc = zx__sel_$SFX(xc > $EXP2_HI, $EXP2_HI, xc);
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
   Max error (measured): f64 0.78 ulp, f32 0.80 ulp (every input). */
static inline $T zx_expm1_$SFX($T x) {
    $T xc = zx__sel_$SFX(x < $EM1_LO, $EM1_LO, x);
    xc = zx__sel_$SFX(xc > $EXP_HI, $EXP_HI, xc);
    zx__expr_$SFX e = zx__exp_core_$SFX(xc, -($T)0);
    $S m = zx__seli_$SFX(e.n > $M1, $M1, e.n);
    zx__dd_$SFX d = zx__expm1_join_$SFX(e.hi, e.lo, m);
    $T y = (d.hi + d.lo) * zx__float_$SFX(($U)(e.n - m + $BIAS) << $MANT);
    return zx__sel_$SFX(x == 0, x, y);
}
""")

_TYPED["tanh"] = (("exp_core",), r"""
/* tanh|x| = E / (E + 2), E = e^(2|x|) - 1 as a double-double from exp_core, divided with a
   first-order correction; 1 beyond TANH_SAT; sign restored by copysign (keeps -0).
   Max error (measured): f64 0.68 ulp, f32 0.71 ulp (every input). */
static inline $T zx_tanh_$SFX($T x) {
    $T ax = $FABS(x);
    $T a2 = 2 * zx__sel_$SFX(ax > $TANH_SAT, $TANH_SAT, ax);
    zx__expr_$SFX e = zx__exp_core_$SFX(a2, -($T)0);
    zx__dd_$SFX m = zx__expm1_join_$SFX(e.hi, e.lo, e.n);
    zx__dd_$SFX d = zx__two_sum_$SFX(m.hi, 2);
    $T dl = d.lo + m.lo;
    $T inv = 1 / d.hi;
    $T q = m.hi * inv;
    $T ql = ($FMA(-q, d.hi, m.hi) + (m.lo - q * dl)) * inv;
    $T t = q + ql;
    t = zx__sel_$SFX(ax > $TANH_SAT, 1, t);
    return $COPYSIGN(t, x);
}
""")

_TYPED["sinh"] = (("exp_core",), r"""
/* sinh|x| = (E + E/(E + 1)) / 2 with E = e^|x| - 1 as a double-double (both terms positive, so
   no cancellation near 0); above HYP_BIG, e^|x| / 2 with 2^(n-1) applied in two steps so it
   overflows exactly where sinh does. Max error (measured): f64 0.69 ulp, f32 0.72 ulp (every
   input). */
static inline $T zx_sinh_$SFX($T x) {
    $T ax = $FABS(x);
    $T xc = zx__sel_$SFX(ax > $EXP_HI, $EXP_HI, ax);
    zx__expr_$SFX e = zx__exp_core_$SFX(xc, -($T)0);
    $S ns = zx__seli_$SFX(e.n > $M1, $M1, e.n);
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
    $T r = zx__sel_$SFX(ax > $HYP_BIG, big, small);
    return $COPYSIGN(r, x);
}
""")

_TYPED["cosh"] = (("exp_core",), r"""
/* cosh x = (E + 1/E) / 2 with E = e^|x| as a double-double; above HYP_BIG, e^|x| / 2.
   Max error (measured): f64 0.57 ulp, f32 0.58 ulp (every input). */
static inline $T zx_cosh_$SFX($T x) {
    $T ax = $FABS(x);
    $T xc = zx__sel_$SFX(ax > $EXP_HI, $EXP_HI, ax);
    zx__expr_$SFX e = zx__exp_core_$SFX(xc, -($T)0);
    $T yh = 1 + e.hi;
    $T yl = ((1 - yh) + e.hi) + e.lo;
    $T y = yh + yl;
    $S ns = zx__seli_$SFX(e.n > $M1, $M1, e.n);
    $T s = zx__float_$SFX(($U)(ns + $BIAS) << $MANT);
    $T eh = y * s;
    $T el = ((yh - y) + yl) * s;
    $T ih = 1 / eh;
    $T il = ($FMA(-ih, eh, 1) - ih * el) * ih;
    zx__dd_$SFX t = zx__two_sum_$SFX(eh, ih);
    $T small = (t.hi + (t.lo + (el + il))) * ($T)0.5;
    $T big = zx__ldexp_$SFX(y, e.n - 1);
    return zx__sel_$SFX(ax > $HYP_BIG, big, small);
}
""")

_TYPED["log_core"] = (("common",), r"""
/* log(u + ul) = k*ln2 + hi + lo (hi + lo normalized) for finite u > 0 (subnormals included;
   then ul must be 0), |ul| <= ulp(u), plus kadd added to k; tail is a constant, 0 when ul is
   known to be 0. u = 2^k m with m in [sqrt(1/2), sqrt(2)) found with integer ops on the bits;
   f = m - 1 is exact and ul*2^-k is its exact tail (renormalized: for log1p it is as large as
   f); s = f/(2+f) as a double-double; log(m) = 2s + (2/3)s^3 + s^5 T(s^2) with the terms
   compensated: hi + lo is accurate to about 2^-64 relative (pow relies on it). Other inputs
   give garbage that callers replace by selects. */
typedef struct { $T k, hi, lo; } zx__logr_$SFX;
static inline zx__logr_$SFX zx__log_core_$SFX($T u, $T ul, $S kadd, int tail) {
    const $T magic = $MAGIC;
    int sub = u < $MIN_NORMAL;
    $T v = zx__sel_$SFX(sub, u * $SUB_SCALE, u);
    $U ix = zx__bits_$SFX(v);
    $U tmp = ix + $SQRTH_OFF;
    $S ke = ($S)(tmp >> $MANT) - $BIAS;
    $T m = zx__float_$SFX(ix - (($U)ke << $MANT));
    $S kc = zx__seli_$SFX(ke > $KCLAMP, $KCLAMP, ke);
    $T ml = ul * zx__float_$SFX(($U)($BIAS - kc) << $MANT);
    $S ki = ke + kadd - zx__seli_$SFX(sub, $SUB_K, 0);
    /* (T)ki through the magic constant: int64 -> double does not vectorize on AVX2 */
    $T k = zx__float_$SFX(zx__bits_$SFX(magic) + ($U)ki) - magic;
    zx__dd_$SFX ft = zx__two_sum_$SFX(m - 1, ml);
    /* tail is a constant at every call: without one, fl = -0 folds away (x + -0 == x) */
    $T fh = tail ? ft.hi : m - 1;
    $T fl = tail ? ft.lo : -($T)0;
    $T d = 2 + fh;
    $T dl = ((2 - d) + fh) + fl;
    $T inv = 1 / d;
    $T s = fh * inv;
    $T sl = (($FMA(-s, d, fh) + fl) - s * dl) * inv;
    $T w = s * s;
    $T wl = $FMA(s, s, -w);
    $T c3 = s * w;
    $T c3l = $FMA(s, w, -c3) + (s * wl + 3 * w * sl);
    $T a = $TT_HI * c3;
    $T al = $FMA($TT_HI, c3, -a) + ($TT_HI * c3l + $TT_LO * c3);
    $T c5 = c3 * w;
    $T c5l = $FMA(c3, w, -c5) + (c3l * w + c3 * wl);
    $T t2 = @poly(LOG_T2, w);
    $T b = $FMA(c5, t2, c5l * t2);
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
    return zx__log_core_$SFX(u.hi, u.lo + tl, 0, 1);
}
/* the log family's special cases: r for 0 < x < inf, else -inf (x == 0), inf, NaN */
static inline $T zx__log_special_$SFX($T x, $T r) {
    $T sp = zx__sel_$SFX(x == 0, -($T)INFINITY, zx__sel_$SFX(x > 0, x, ($T)NAN));
    return zx__sel_$SFX((x > 0) & (x < ($T)INFINITY), r, sp);
}
""")

_TYPED["log"] = (("log_core",), r"""
/* natural log (log_core + log_join).
   Max error (measured): f64 0.501 ulp, f32 0.523 ulp (every input). */
static inline $T zx_log_$SFX($T x) {
    return zx__log_special_$SFX(x, zx__log_join_$SFX(zx__log_core_$SFX(x, 0, 0, 0)));
}
""")

_TYPED["log2"] = (("log_core",), r"""
/* log2 x = k + (hi + lo) / ln2 with the product compensated: exact for powers of two.
   Max error (measured): f64 0.501 ulp, f32 0.527 ulp (every input). */
static inline $T zx_log2_$SFX($T x) {
    zx__logr_$SFX L = zx__log_core_$SFX(x, 0, 0, 0);
    $T ph = L.hi * $IL2_HI;
    $T pl = $FMA(L.hi, $IL2_HI, -ph) + (L.hi * $IL2_LO + L.lo * $IL2_HI);
    $T H = L.k + ph;
    $T e = (L.k - H) + ph;
    return zx__log_special_$SFX(x, H + (e + pl));
}
""")

_TYPED["log10"] = (("log_core",), r"""
/* log10 x = k*log10(2) + (hi + lo) / ln10, compensated (exact for powers of ten).
   Max error (measured): f64 0.501 ulp, f32 0.520 ulp (every input). */
static inline $T zx_log10_$SFX($T x) {
    zx__logr_$SFX L = zx__log_core_$SFX(x, 0, 0, 0);
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
   tiny x. Max error (measured): f64 0.500 ulp, f32 0.523 ulp (every input). */
static inline $T zx_log1p_$SFX($T x) {
    $T r = zx__log_join_$SFX(zx__log1p_core_$SFX(x, 0));
    $T sp = zx__sel_$SFX(x == -1, -($T)INFINITY, zx__sel_$SFX(x > 0, x, ($T)NAN));
    r = zx__sel_$SFX((x > -1) & (x < ($T)INFINITY), r, sp);
    return zx__sel_$SFX($FABS(x) < $TINY, x, r);
}
""")

# ---------------------------------------------------------------------------------------------
# float64-only blocks (float32 evaluates them on the widened argument).
# ---------------------------------------------------------------------------------------------
_F64: dict[str, tuple[tuple[str, ...], str]] = {}

_F64["trig_core"] = (("common_f64",), r"""
/* x = n*pi/2 + r, r = hi + lo, |r| <= pi/4 (+ rounding), q = n mod 4 in the low bits.
   pi/2 = P1 + P2 + P3 (159 bits); x - n*P1 is exact in one FMA and n*P2 is split exactly, so
   r is off by less than n * 2^-159 (the rounding of the low-order sum), i.e. by 2^-55 |r| or
   less for |x| < 2^42 since no double is closer than 2^-62 to a multiple of pi/2. Beyond
   2^51, r is clamped (results stay in [-1, 1]); inf gives NaN through x - x. */
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
    nf += zx__sel_f64(fr > 0.5, 1.0, zx__sel_f64(fr < -0.5, -1.0, 0.0));
    double r1 = fma(-nf, 0x1.921fb54442d18p+0, x);
    double wh = nf * 0x1.1a62633145c07p-54;
    double wl = fma(nf, 0x1.1a62633145c07p-54, -wh) + nf * -0x1.f1976b7ed8fbcp-110;
    zx__dd_f64 r = zx__two_sum_f64(r1, -wh);
    double rl = r.lo - wl;
    double rh = r.hi + rl;
    rl = (r.hi - rh) + rl;
    double rb = zx__sel_f64(rh > 0.78, 0.78, zx__sel_f64(rh < -0.78, -0.78, rh));
    rb = zx__sel_f64(rb == 0, 0.5, rb);  /* keeps tan finite there too */
    int big = fabs(x) > 0x1p51;
    zx__trig_f64 o;
    o.hi = zx__sel_f64(big, (x - x) + rb, rh);
    o.lo = zx__sel_f64(big, 0.0, rl);
    o.q = zx__bits_f64(t) + (uint64_t)zx__seli_f64(fr > 0.5, 1, zx__seli_f64(fr < -0.5, -1, 0));
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

_F64["atan_core"] = (("common_f64",), r"""
/* atan(t + tl) = m*pi/4 + hi + lo for 0 <= t < inf: m = 0, 1, 2 as t passes tan(pi/8) and
   tan(3pi/8), t' = t, (t-1)/(t+1) or -1/t (|t'| <= tan(pi/8)) as a double-double, then
   atan t' = t' + t'^3 P(t'^2) and the first-order term of the tail. */
typedef struct { double m, hi, lo; } zx__atanr_f64;
static inline zx__atanr_f64 zx__atan_core_f64(double t, double tl) {
    int m1 = t > 0x1.a827999fcef32p-2;
    int m2 = t > 0x1.3504f333f9de6p+1;
    int mid = m1 & !m2;
    double m = zx__sel_f64(m1, 1.0, 0.0) + zx__sel_f64(m2, 1.0, 0.0);
    zx__dd_f64 nu = zx__two_sum_f64(zx__sel_f64(m2, -1.0, t), zx__sel_f64(mid, -1.0, 0.0));
    zx__dd_f64 de = zx__two_sum_f64(zx__sel_f64(m1, t, 1.0), zx__sel_f64(mid, 1.0, 0.0));
    double nl = nu.lo + zx__sel_f64(m2, 0.0, tl);
    double dl = de.lo + zx__sel_f64(m1, tl, 0.0);
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
/* atan: odd, atan(+-inf) = +-pi/2. Max error 0.63 ulp (measured). */
static inline double zx_atan_f64(double x) {
    double ax = fabs(x);
    zx__atanr_f64 R = zx__atan_core_f64(ax, 0.0);
    double v = zx__atan_join_f64(R.m, R.hi, R.lo);
    v = zx__sel_f64(ax == INFINITY, 0x1.921fb54442d18p+0, v);
    return copysign(v, x);
}
""")

_F64["atan2"] = (("atan_core",), r"""
/* atan2(y, x): t = min/max of |x|, |y| as a double-double (tiny or huge pairs rescaled first,
   0/0 -> 0, inf/inf -> 1), atan_core, then pi/2 - . and pi - . folded into m*pi/4 +- atan,
   sign of y by copysign; every C99 zero/inf case follows. Max error 0.75 ulp (measured, at
   results near the subnormal range; 0.6 elsewhere). */
static inline double zx_atan2_f64(double y, double x) {
    double ax = fabs(x);
    double ay = fabs(y);
    int sw = ay > ax;
    double a = zx__sel_f64(sw, ax, ay);
    double b = zx__sel_f64(sw, ay, ax);
    double sc = zx__sel_f64(b < 0x1p-500, 0x1p600, zx__sel_f64(b > 0x1p1000, 0x1p-600, 1.0));
    sc = zx__sel_f64((a < 0x1p-900) & (b >= 0x1p-500) & (b < 0x1p500), 0x1p500, sc);
    a *= sc;
    b *= sc;
    double inv = 1 / b;
    double t = a * inv;
    double tl = fma(-t, b, a) * inv;
    int bz = b == 0;
    int bi = b == INFINITY;
    t = zx__sel_f64(bz, 0.0, zx__sel_f64(bi, zx__sel_f64(a == INFINITY, 1.0, 0.0), t));
    tl = zx__sel_f64(bz | bi, 0.0, tl);
    zx__atanr_f64 R = zx__atan_core_f64(t, tl);
    double m = zx__sel_f64(sw, 2 - R.m, R.m);
    double sg = zx__sel_f64(sw, -1.0, 1.0);
    int xneg = (int64_t)zx__bits_f64(x) < 0;
    m = zx__sel_f64(xneg, 4 - m, m);
    sg = zx__sel_f64(xneg, -sg, sg);
    double v = zx__atan_join_f64(m, sg * R.hi, sg * R.lo);
    v = zx__sel_f64((x != x) | (y != y), x + y, v);
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
    double sl = zx__sel_f64(s > 0, fma(-s, s, w) / (2 * s), 0.0);
    zx__asinr_f64 r;
    r.s = s;
    r.tail = s * w * @poly(ASIN, w) + sl * (1 + 0.5 * w);
    return r;
}
""")

_F64["asin"] = (("asin_core",), r"""
/* asin x = x + x^3 P(x^2) for |x| <= 1/2, else pi/2 - 2 asin(sqrt((1-|x|)/2)), compensated.
   Max error 0.64 ulp (measured). */
static inline double zx_asin_f64(double x) {
    double ax = fabs(x);
    double z = ax * ax;
    double small = ax + ax * z * @poly(ASIN, z);
    zx__asinr_f64 h = zx__asin_half_f64(ax);
    double s2 = 2 * h.s;
    double H = 0x1.921fb54442d18p+0 - s2;
    double e = (0x1.921fb54442d18p+0 - H) - s2;
    double big = H + (e + (0x1.1a62633145c07p-54 - 2 * h.tail));
    double v = zx__sel_f64(ax > 0.5, big, small);
    return copysign(v, x);
}
""")

_F64["acos"] = (("asin_core",), r"""
/* acos x = pi/2 - asin x for |x| <= 1/2; 2 asin(s) for x > 1/2; pi - 2 asin(s) for x < -1/2,
   s = sqrt((1-|x|)/2); compensated. Max error 0.62 ulp (measured). */
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
    double big = zx__sel_f64(x > 0, pos, neg);
    return zx__sel_f64(ax > 0.5, big, small);
}
""")

_F64["asinh"] = (("log_core_f64",), r"""
/* asinh|x| = log1p(t), t = |x| + x^2 / (1 + sqrt(1 + x^2)), every step a double-double so that
   t is accurate relative to itself; log(2|x|) above 2^500 (x^2 would overflow); odd.
   Max error 0.501 ulp (measured). */
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
    double uh = zx__sel_f64(big, ax, u.hi);
    double r = zx__log_join_f64(zx__log_core_f64(uh, zx__sel_f64(big, 0.0, ul), big, 1));
    r = zx__sel_f64(ax < INFINITY, r, ax);
    r = zx__sel_f64(ax < 0x1p-28, ax, r);
    return copysign(r, x);
}
""")

_F64["acosh"] = (("log_core_f64",), r"""
/* acosh x = log1p(t), t = (x - 1) + sqrt(x^2 - 1) as double-doubles (accurate near 1);
   log(2x) above 2^500; NaN below 1. Max error 0.52 ulp (measured). */
static inline double zx_acosh_f64(double x) {
    double sq = x * x;
    double sql = fma(x, x, -sq);
    zx__dd_f64 v = zx__two_sum_f64(sq, -1.0);
    double vl = v.lo + sql;
    double sh = sqrt(v.hi);
    double sl = zx__sel_f64(sh > 0, (fma(-sh, sh, v.hi) + vl) / (2 * sh), 0.0);
    zx__dd_f64 xm = zx__two_sum_f64(x, -1.0);
    zx__dd_f64 T = zx__two_sum_f64(xm.hi, sh);
    double tl = T.lo + (xm.lo + sl);
    zx__dd_f64 u = zx__two_sum_f64(1.0, T.hi);
    double ul = u.lo + tl;
    int big = x > 0x1p500;
    double uh = zx__sel_f64(big, x, u.hi);
    double r = zx__log_join_f64(zx__log_core_f64(uh, zx__sel_f64(big, 0.0, ul), big, 1));
    r = zx__sel_f64(x >= 1, r, NAN);
    return zx__sel_f64(x == INFINITY, x, r);
}
""")

_F64["atanh"] = (("log_core_f64",), r"""
/* atanh|x| = log1p(2|x| / (1 - |x|)) / 2 with the quotient as a double-double; odd; +-inf at
   +-1, NaN beyond. Max error 0.501 ulp (measured). */
static inline double zx_atanh_f64(double x) {
    double ax = fabs(x);
    zx__dd_f64 d = zx__two_sum_f64(1.0, -ax);
    double n = 2 * ax;
    double inv = 1 / d.hi;
    double th = n * inv;
    double tl = (fma(-th, d.hi, n) - th * d.lo) * inv;
    double r = 0.5 * zx__log_join_f64(zx__log1p_core_f64(th, tl));
    r = zx__sel_f64(ax < 1, r, zx__sel_f64(ax == 1, INFINITY, NAN));
    r = zx__sel_f64(ax < 0x1p-28, ax, r);
    return copysign(r, x);
}
""")

_F64["pow_special"] = (("common_f64",), r"""
/* pow's special cases (C99 Annex F, as NumPy): r is exp(y log|x|) for finite nonzero x and
   finite y; pow(x, 0) = pow(1, y) = 1 (even NaN), zeros and infinities of x or y, the sign of
   negative x for odd integer y, NaN for negative finite x and non-integer y. */
static inline double zx__pow_special_f64(double x, double y, double r) {
    double ax = fabs(x);
    /* integer / odd integer tests by rounding through 2^52 (gcc does not vectorize trunc
       without -fno-trapping-math); |y| >= 2^52 is an even integer, inf included */
    double ay = fabs(y);
    double y2 = 0.5 * ay;
    int yint = (ay >= 0x1p52) | (((ay + 0x1p52) - 0x1p52) == ay);
    int yodd = yint & (ay < 0x1p53) & (((y2 + 0x1p52) - 0x1p52) != y2);
    double sp = zx__sel_f64((y > 0) == (ax > 1), INFINITY, 0.0);
    r = zx__sel_f64((ax == 0) | (ax == INFINITY) | (fabs(y) == INFINITY), sp, r);
    r = zx__sel_f64(ax == 1, 1.0, r);
    r = zx__sel_f64(((int64_t)zx__bits_f64(x) < 0) & yodd, -r, r);
    r = zx__sel_f64((x < 0) & (x > -INFINITY) & !yint, NAN, r);
    r = zx__sel_f64((x != x) | (y != y), x + y, r);
    return zx__sel_f64((y == 0) | (x == 1), 1.0, r);
}
""")

_F64["pow"] = (("log_core_f64", "exp_core_f64", "pow_special"), r"""
/* pow(x, y) = exp(y * log|x|): log|x| as a double-double (~2^-64 relative), y*log|x| as a
   double-double, whose low part exp_core adds to its reduced argument; then C99 Annex F's
   special cases by selects (pow(x, 0) = pow(1, y) = 1, signed zeros and infinities, odd
   integer y keeps the sign of negative x, NaN for negative x and non-integer y).
   Max error (measured): 0.74 ulp (0.75 for subnormal results). */
static inline double zx_pow_f64(double x, double y) {
    double ax = fabs(x);
    zx__logr_f64 L = zx__log_core_f64(ax, 0.0, 0, 0);
    double kh = L.k * 0x1.62e42fefa38p-1;
    double lh0 = kh + L.hi;
    double ll0 = ((kh - lh0) + L.hi) + (L.lo + L.k * 0x1.ef35793c7673p-45);
    double lh = lh0 + ll0;
    double ll = (lh0 - lh) + ll0;
    double zh = y * lh;
    double zl = fma(y, lh, -zh) + y * ll;
    int inr = (zh > -760.0) & (zh < 720.0);
    double zc = zx__sel_f64(zh < -760.0, -760.0, zx__sel_f64(zh > 720.0, 720.0, zh));
    zx__expr_f64 e = zx__exp_core_f64(zc, zx__sel_f64(inr, zl, 0.0));
    double yh = 1 + e.hi;
    double yl = ((1 - yh) + e.hi) + e.lo;
    double r = zx__ldexp_f64(yh + yl, e.n);
    return zx__pow_special_f64(x, y, r);
}
""")

_TYPED["sin"] = (("trig_core",), r"""
/* sin: quadrant selects between the sin and cos kernels of the reduced argument.
   Max error (|x| < 2^50, measured): f64 0.77 ulp, f32 0.80 ulp (every input). */
static inline $T zx_sin_$SFX($T x) {
    zx__trig_$SFX R = zx__trig_reduce_$SFX(x);
    zx__sc_$SFX K = zx__sincos_kernel_$SFX(R.hi, R.lo);
    $T v = zx__sel_$SFX((int)(R.q & 1), K.ch + K.cl, K.sh + K.sl);
    v = zx__sel_$SFX((int)(R.q & 2), -v, v);
    return zx__sel_$SFX(x == 0, x, v);
}
""")

_TYPED["cos"] = (("trig_core",), r"""
/* cos x = sin(x + pi/2): the quadrant plus one.
   Max error (|x| < 2^50, measured): f64 0.77 ulp, f32 0.79 ulp (every input). */
static inline $T zx_cos_$SFX($T x) {
    zx__trig_$SFX R = zx__trig_reduce_$SFX(x);
    zx__sc_$SFX K = zx__sincos_kernel_$SFX(R.hi, R.lo);
    $U q = R.q + 1;
    $T v = zx__sel_$SFX((int)(q & 1), K.ch + K.cl, K.sh + K.sl);
    return zx__sel_$SFX((int)(q & 2), -v, v);
}
""")

_TYPED["tan"] = (("trig_core",), r"""
/* tan = sin/cos (-cos/sin in odd quadrants) of the reduced argument, both normalized
   double-doubles, divided with a first-order correction.
   Max error (|x| < 2^50, measured): f64 0.87 ulp, f32 0.94 ulp (every input). */
static inline $T zx_tan_$SFX($T x) {
    zx__trig_$SFX R = zx__trig_reduce_$SFX(x);
    zx__sc_$SFX K = zx__sincos_kernel_$SFX(R.hi, R.lo);
    $T sh = K.sh + K.sl;
    $T sl = (K.sh - sh) + K.sl;
    $T ch = K.ch + K.cl;
    $T cl = (K.ch - ch) + K.cl;
    int odd = (int)(R.q & 1);
    $T nh = zx__sel_$SFX(odd, ch, sh);
    $T nl = zx__sel_$SFX(odd, cl, sl);
    $T dh = zx__sel_$SFX(odd, -sh, ch);
    $T dl = zx__sel_$SFX(odd, -sl, cl);
    $T inv = 1 / dh;
    $T qh = nh * inv;
    $T ql = ($FMA(-qh, dh, nh) + (nl - qh * dl)) * inv;
    $T v = qh + ql;
    return zx__sel_$SFX(x == 0, x, v);
}
""")

# ---------------------------------------------------------------------------------------------
# float32-only blocks.
# ---------------------------------------------------------------------------------------------
_F32: dict[str, tuple[tuple[str, ...], str]] = {}

_F32["trig_core"] = (("common_f32", "common_f64"), r"""
/* float32 x = n*pi/2 + r, reduced in double where x is exact: n = round(x * 2/pi) by one FMA
   with the magic constant, x - n*P1 exact (FMA), - n*P2 rounded once; the dropped n*P3 is
   below 2^-59, and float32 inputs are never closer than 2^-28.9 to a multiple of pi/2 (below
   2^64), so r is good to 2^-30 relative for |x| < 2^50; then r is split into a float-float and
   the polynomials run in float32 (eight lanes). Beyond 2^50, r is clamped (results in
   [-1, 1]); inf gives NaN. */
typedef struct { float hi, lo; uint32_t q; } zx__trig_f32;
static inline zx__trig_f32 zx__trig_reduce_f32(float xf) {
    const double magic = 0x1.8p52;
    double x = xf;
    double t = fma(x, 0x1.45f306dc9c883p-1, magic);
    double nf = t - magic;
    double r = fma(-nf, 0x1.1a62633145c07p-54, fma(-nf, 0x1.921fb54442d18p+0, x));
    float rh = (float)r;
    float rl = (float)(r - (double)rh);
    float rb = zx__sel_f32(rh > 0.78f, 0.78f, zx__sel_f32(rh < -0.78f, -0.78f, rh));
    rb = zx__sel_f32(rb == 0, 0.5f, rb);  /* keeps tan finite there too */
    int big = fabsf(xf) > 0x1p50f;
    zx__trig_f32 o;
    o.hi = zx__sel_f32(big, (xf - xf) + rb, rh);
    o.lo = zx__sel_f32(big, 0.0f, rl);
    o.q = (uint32_t)zx__bits_f64(t);
    return o;
}
/* sin(r) = sh + sl and cos(r) = ch + cl for r = rh + rl, |r| <= pi/4 (see the float64 kernel) */
typedef struct { float sh, sl, ch, cl; } zx__sc_f32;
static inline zx__sc_f32 zx__sincos_kernel_f32(float rh, float rl) {
    float z = rh * rh;
    float zl = fmaf(rh, rh, -z);
    float hz = 0.5f * z;
    zx__sc_f32 o;
    o.sh = rh;
    o.sl = rh * z * @poly(SIN, z) + rl * (1 - hz);
    o.ch = 1 - hz;
    o.cl = (((1 - o.ch) - hz) - 0.5f * zl) - rh * rl + z * z * @poly(COS, z);
    return o;
}
""")

_F32["pow"] = (("common_f32", "pow_special_f64"), r"""
/* float32 pow in double: log|x| = k*ln2 + 2s + s^3 T(s^2) (plain double, ~2^-37 relative; float
   subnormals are normal doubles), z = y*log|x|, e^z = 2^n (1 + r + r^2 Q(r)) (~2^-39), so the
   double result is within ~2^-31 of x^y and the conversion to float rounds once (into
   subnormals or to inf as needed); the special cases are float64 pow's.
   Max error 0.505 ulp (measured). */
static inline float zx_pow_f32(float xf, float yf) {
    const double magic = 0x1.8p52;
    double x = xf;
    double y = yf;
    double ax = fabs(x);
    uint64_t ix = zx__bits_f64(ax);
    uint64_t tmp = ix + 0x00095f619980c433u;
    int64_t ke = (int64_t)(tmp >> 52) - 1023;
    double m = zx__float_f64(ix - ((uint64_t)ke << 52));
    double k = zx__float_f64(zx__bits_f64(magic) + (uint64_t)ke) - magic;
    double f = m - 1;
    double s = f / (2 + f);
    double w = s * s;
    double lg = fma(s * w, @dpoly(LOG_T_LITE, w), 2 * s);
    double z = y * fma(k, 0x1.62e42fefa39efp-1, lg);
    double zc = zx__sel_f64(z < -200.0, -200.0, zx__sel_f64(z > 200.0, 200.0, z));
    double t = zc * 0x1.71547652b82fep+0 + magic;
    double nf = t - magic;
    int64_t n = (int64_t)(zx__bits_f64(t) - zx__bits_f64(magic));
    double r = fma(-nf, 0x1.abc9e3b39803fp-56, fma(-nf, 0x1.62e42fefa39efp-1, zc));
    double p = fma(r * r, @dpoly(EXP_Q_LITE, r), r) + 1;
    double v = p * zx__float_f64((uint64_t)(n + 1023) << 52);
    return (float)zx__pow_special_f64(x, y, v);
}
""")

# ---------------------------------------------------------------------------------------------
# For devices without a math library (preamble(..., far_trig=True), hypot, nextafter): a
# Payne-Hanek reduction for sin/cos/tan of huge arguments, C99's hypot and nextafter.
# ---------------------------------------------------------------------------------------------
def _two_over_pi_word() -> str:
    """``zx__two_over_pi_word(i)``: TWO_OVER_PI[i], from a const array local to the function:
    no table at file scope (which CUDA/HIP would need in a memory space the caller names),
    and gcc, clang (also for amdgcn) and nvcc make it one read-only table, read with no copy
    (a switch becomes a tree of branches on amdgcn)."""
    rows = [", ".join(f"0x{w:08x}u" for w in TWO_OVER_PI[i:i + 6])
            for i in range(0, len(TWO_OVER_PI), 6)]
    body = ",\n        ".join(rows)
    return ("/* 2/pi = sum over i of word(i) * 2^(-32 i), 0 <= i < "
            f"{len(TWO_OVER_PI)} (c_math.TWO_OVER_PI; word 0,\n"
            "   the integer part, is 0) */\n"
            "static inline uint64_t zx__two_over_pi_word(int64_t i) {\n"
            f"    const uint32_t w[{len(TWO_OVER_PI)}] = {{\n        {body}}};\n"
            "    return w[i];\n}\n")


_F64["payne_hanek"] = (("common_f64",), _two_over_pi_word() + r"""
/* x = (n + f) pi/2 for finite |x| >= 2^22 (far_trig uses it beyond 2^51, or 2^50 for a
   widened float32), |f| <= 1/2: hi + lo = f pi/2 (a double-double, |hi| <= pi/4), q = n mod
   2^64 (its low bits are what sin/cos/tan use). Payne and Hanek's method: x = mant * 2^s
   with a 53-bit integer mant; the words of 2/pi above 2^-32(j-1), j = floor((s + 30) / 32),
   only add multiples of 4 to x * 2/pi and are skipped; mant times the next seven words (224
   bits) is formed exactly in 32-bit limbs; its bits from the binary point (bit 192 - a,
   a = s - 32 j in [-30, 1]) on give n's two low bits and 128 bits of f, off by less than
   2^-127 (the words past the seventh add below 2^-136). f >= 1/2 becomes f - 1 and n + 1;
   |f| goes to a double-double exactly (53 + 53 + 22 bits) and is multiplied by pi/2 as a
   double-double. No float64 is closer to a multiple of pi/2 than ~2^-61 (f >= 2^-62), so r
   keeps more than 64 good bits everywhere (64 bits of f would leave next to none there; the
   SPIR-V renderer's _payne_hanek is the same method, 128 bits too). */
typedef struct { double hi, lo; uint64_t q; } zx__ph_f64;
static inline zx__ph_f64 zx__payne_hanek_f64(double x) {
    const uint64_t low32 = 0xffffffffu;
    uint64_t bits = zx__bits_f64(x);
    int64_t s = (int64_t)((bits >> 52) & 0x7ff) - 1075;
    uint64_t mant = (bits & 0xfffffffffffffu) | 0x10000000000000u;
    int64_t j = s + 30 < 0 ? 0 : (s + 30) >> 5;
    j = j > 33 ? 33 : j;                /* (float64's largest exponents need j <= 31) */
    uint64_t ml = mant & low32;
    uint64_t mh = mant >> 32;
    /* limb[c] = bits 32c .. 32c + 31 of mant * (words j .. j+6 as one integer) */
    uint64_t limb[7];
    uint64_t carry = 0;
    uint64_t prev = 0;
    for (int c = 0; c < 7; c++) {
        uint64_t w = zx__two_over_pi_word(j + 6 - c);
        uint64_t pl = ml * w;
        uint64_t ph = mh * prev;
        uint64_t sum = carry + (pl & low32) + (ph & low32);
        carry = (pl >> 32) + (ph >> 32) + (sum >> 32);
        limb[c] = sum & low32;
        prev = w;
    }
    int sh = (int)(32 - (s - 32 * j));  /* 31 .. 62 */
    uint64_t A = limb[1] | (limb[2] << 32);
    uint64_t B = limb[3] | (limb[4] << 32);
    uint64_t C = limb[5] | (limb[6] << 32);
    uint64_t fh = (B >> sh) | (C << (64 - sh));
    uint64_t fl = (A >> sh) | (B << (64 - sh));
    uint64_t n = C >> sh;
    /* f >= 1/2: n + 1 and |f - 1| = 2^128 - f as a 128-bit integer */
    int up = (int)(fh >> 63);
    n += (uint64_t)up;
    uint64_t gl = up ? ~fl + 1 : fl;
    uint64_t gh = up ? ~fh + (uint64_t)(fl == 0) : fh;
    double d1 = (double)(int64_t)(gh >> 11) * 0x1p-53;
    double d2 = (double)(int64_t)(((gh & 0x7ff) << 42) | (gl >> 22)) * 0x1p-106;
    double d3 = (double)(int64_t)(gl & 0x3fffff) * 0x1p-128;
    double th = d1 + d2;
    double tl = ((d1 - th) + d2) + d3;
    /* (th + tl) * (P1 + P2), pi/2 = P1 + P2 */
    double rh = th * 0x1.921fb54442d18p+0;
    double rl = fma(th, 0x1.921fb54442d18p+0, -rh) + (tl * 0x1.921fb54442d18p+0 +
                                                       th * $PI_HALF_TAIL);
    double hi = rh + rl;
    double lo = (rh - hi) + rl;
    /* r = -|f| pi/2 for f - 1; x < 0: -(n + f) */
    int neg = (int)(bits >> 63);
    zx__ph_f64 o;
    o.hi = up != neg ? -hi : hi;
    o.lo = up != neg ? -lo : lo;
    o.q = neg ? 0 - n : n;
    return o;
}
""")

# far_trig: the reductions of trig_core renamed ..._near_..., and in their place a choice of
# it or Payne-Hanek (a branch: meant for GPUs, where a huge argument is rare and the branch
# skips the long path; the cpu keeps libm's sin/cos/tan).
_TRIG_FAR: dict[str, str] = {
    "f64": r"""
/* far_trig: Payne-Hanek beyond 2^51 (finite): accurate for every float64 */
static inline zx__trig_f64 zx__trig_reduce_f64(double x) {
    zx__trig_f64 o;
    if (fabs(x) > 0x1p51 && fabs(x) < INFINITY) {
        zx__ph_f64 p = zx__payne_hanek_f64(x);
        o.hi = p.hi;
        o.lo = p.lo;
        o.q = p.q;
    } else {
        o = zx__trig_reduce_near_f64(x);
    }
    return o;
}
""",
    "f32": r"""
/* far_trig: Payne-Hanek on the widened argument beyond 2^50 (finite), r split into a
   float-float: accurate for every float32 */
static inline zx__trig_f32 zx__trig_reduce_f32(float xf) {
    zx__trig_f32 o;
    if (fabsf(xf) > 0x1p50f && fabsf(xf) < INFINITY) {
        zx__ph_f64 p = zx__payne_hanek_f64((double)xf);
        o.hi = (float)p.hi;
        o.lo = (float)((p.hi - (double)o.hi) + p.lo);
        o.q = (uint32_t)p.q;
    } else {
        o = zx__trig_reduce_near_f32(xf);
    }
    return o;
}
""",
}

_F64["hypot"] = (("common_f64",), r"""
/* hypot(x, y) = sqrt(x^2 + y^2) (C99, NumPy): the larger magnitude b and the smaller s,
   both scaled by 2^-600 when b > 2^510 and by 2^600 when b < 2^-450 (exact: a subnormal s
   becomes normal; a scaled-down s that underflows is below 2^-900 b, negligible), so b^2 +
   s^2 neither overflows nor loses s^2; the sum as a double-double (FMA squares), its square
   root r corrected by (h + hl - r^2) / 2r, scaled back (overflow to inf, gradual underflow
   where hypot does). inf if x or y is infinite (even with a NaN), else NaN for a NaN.
   Max error (measured): 0.50 ulp; 0.75 ulp for subnormal results (rounded twice). */
static inline double zx_hypot_f64(double x, double y) {
    double ax = fabs(x);
    double ay = fabs(y);
    int sw = ay > ax;
    double b = zx__sel_f64(sw, ay, ax);
    double s = zx__sel_f64(sw, ax, ay);
    int hi = b > 0x1p510;
    int lo = b < 0x1p-450;
    double sc = zx__sel_f64(hi, 0x1p-600, zx__sel_f64(lo, 0x1p600, 1.0));
    double un = zx__sel_f64(hi, 0x1p600, zx__sel_f64(lo, 0x1p-600, 1.0));
    b *= sc;
    s *= sc;
    double b2 = b * b;
    double s2 = s * s;
    double h = b2 + s2;
    double hl = ((b2 - h) + s2) + (fma(b, b, -b2) + fma(s, s, -s2));
    double r = sqrt(h);
    double c = (fma(-r, r, h) + hl) / (2 * r);
    r = zx__sel_f64(h > 0, r + c, r) * un;
    r = zx__sel_f64((x != x) | (y != y), x + y, r);
    return zx__sel_f64((ax == INFINITY) | (ay == INFINITY), INFINITY, r);
}
""")

_F32["hypot"] = (("common_f32",), r"""
/* float32 hypot in double: x^2 and y^2 are exact there and cannot overflow or underflow, the
   sum and the square root round once each (2^-52 relative), the conversion to float once
   more (into subnormals or to inf where hypot does). inf if x or y is infinite (even with a
   NaN), else NaN for a NaN. Max error 0.5 ulp + 2^-28 (measured: 0.50 ulp). */
static inline float zx_hypot_f32(float x, float y) {
    double dx = (double)x;
    double dy = (double)y;
    float r = (float)sqrt(dx * dx + dy * dy);
    r = zx__sel_f32((x != x) | (y != y), x + y, r);
    return zx__sel_f32((fabsf(x) == INFINITY) | (fabsf(y) == INFINITY), INFINITY, r);
}
""")

_TYPED["nextafter"] = (("common",), r"""
/* nextafter(x, y) (C99, NumPy): the neighbour of x towards y, one step on the bit pattern
   (+1 moves away from zero: x < y for positive x, x > y for negative x); from a zero the
   smallest subnormal with y's sign; y itself when x == y (so the sign of a zero y); x + y
   (NaN) for a NaN. Exact. */
static inline $T zx_nextafter_$SFX($T x, $T y) {
    int away = (x < y) == (x > 0);
    $U step = ($U)zx__seli_$SFX(away, 1, -1);
    $T r = zx__float_$SFX(zx__bits_$SFX(x) + step);
    r = zx__sel_$SFX(x == 0, $COPYSIGN(zx__float_$SFX(1), y), r);
    r = zx__sel_$SFX(x == y, y, r);
    return zx__sel_$SFX((x != x) | (y != y), x + y, r);
}
""")

# float32 versions that evaluate the float64 one (name -> number of arguments).
_WIDENED: dict[str, int] = {
    "asin": 1, "acos": 1, "atan": 1, "atan2": 2, "asinh": 1, "acosh": 1, "atanh": 1,
}

#: Names of the functions this module implements (each for both "f32" and "f64"), which the
#: cpu C dialect takes from here instead of libm (but for its LIBM_ONLY: sin, cos, tan).
FUNCTIONS: frozenset[str] = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "pow",
})

#: Functions also implemented here (both suffixes, two arguments each) for devices without a
#: math library, but not in ``FUNCTIONS``: a host C compiler's libm has them, exact or
#: correctly rounded and fast, and the cpu dialect keeps using it (it tests ``name in
#: FUNCTIONS``). ``c_name`` and ``preamble`` accept them.
DEVICE_ONLY: frozenset[str] = frozenset({"hypot", "nextafter"})


def _build() -> dict[str, tuple[tuple[str, ...], str]]:
    blocks: dict[str, tuple[tuple[str, ...], str]] = {}
    for suffix in ("f32", "f64"):
        for base, (deps, text) in _TYPED.items():
            name = base + "_" + suffix
            blocks[name] = (tuple(d + "_" + suffix for d in deps), _render(text, suffix))
    for suffix, table in (("f64", _F64), ("f32", _F32)):
        for base, (deps, text) in table.items():
            full = tuple(d if d[-4:] in ("_f32", "_f64") else d + "_" + suffix for d in deps)
            blocks[base + "_" + suffix] = (full, _render(text, suffix))
    for suffix in ("f32", "f64"):
        deps, text = blocks["trig_core_" + suffix]
        head = f"zx__trig_reduce_{suffix}("
        assert text.count(head) == 1
        text = text.replace(head, f"zx__trig_reduce_near_{suffix}(") + _TRIG_FAR[suffix]
        blocks["trig_core_far_" + suffix] = ((*deps, "payne_hanek_f64"), text)
    note = ("/* float32: the float64 helper on the widened argument, rounded once more.\n"
            "   Max error 0.5 ulp (measured). */\n")
    for name, nargs in _WIDENED.items():
        if nargs == 1:
            text = (f"static inline float zx_{name}_f32(float x) {{\n"
                    f"    return (float)zx_{name}_f64((double)x);\n}}\n")
        else:
            text = (f"static inline float zx_{name}_f32(float a, float b) {{\n"
                    f"    return (float)zx_{name}_f64((double)a, (double)b);\n}}\n")
        blocks[name + "_f32"] = ((name + "_f64",), note + text)
    return blocks


_BLOCKS = _build()
assert all(f"{n}_{s}" in _BLOCKS for n in FUNCTIONS | DEVICE_ONLY for s in ("f32", "f64"))
#: the blocks that far_trig=True puts in place of others
_FAR_TRIG = {"trig_core_f32": "trig_core_far_f32", "trig_core_f64": "trig_core_far_f64"}

_HEADER = "#include <stdint.h>\n#include <math.h>\n"
_PREFIX = "static inline"


def c_name(name: str, suffix: str) -> str:
    """C name of the helper for ``name`` ("exp", ..., or one of ``DEVICE_ONLY``) and
    ``suffix`` ("f32" or "f64")."""
    if name not in FUNCTIONS and name not in DEVICE_ONLY:
        raise ValueError(f"c_math.c_name: no C implementation of {name!r}")
    if suffix not in ("f32", "f64"):
        raise ValueError(f"c_math.c_name: suffix must be 'f32' or 'f64', not {suffix!r}")
    return f"zx_{name}_{suffix}"


def preamble(used: Iterable[tuple[str, str]], *, prefix: str = _PREFIX,
             far_trig: bool = False) -> str:
    """C source defining each requested (name, suffix) helper and what it needs, once each,
    dependencies first, as ``static inline`` functions (after the two #includes it needs).

    ``prefix`` replaces ``static inline`` at the head of every function (a GPU dialect passes
    ``__device__ inline``); with any other prefix the #include lines are left out and the
    caller supplies, before the text: ``uint32_t``, ``int32_t``, ``uint64_t``, ``int64_t``
    (the names the text uses), ``INFINITY`` and ``NAN`` (float constants, as <math.h>'s), and
    ``fma``, ``fmaf``, ``fabs``, ``fabsf``, ``sqrt``, ``copysign``, ``copysignf`` (correctly
    rounded: single-rounding FMA and square root). Like all of this module, the text must be
    compiled without floating-point contraction (-ffp-contract=off, --fmad=false).

    ``far_trig``: sin/cos/tan reduce finite arguments beyond 2^51 (float64) or 2^50
    (float32) with Payne and Hanek's method (``zx__payne_hanek_f64``: 2/pi's words in a const
    array local to a function, 32-bit limb products, an ``if`` to reach it) instead of
    clamping them, so that they are accurate for every argument: for devices with no other
    sin/cos/tan. Below the threshold the results are the same; with ``far_trig=False`` the
    text is what it always was (the cpu dialect's, which sends sin/cos/tan to libm)."""
    order: list[str] = []
    seen: set[str] = set()
    swap = _FAR_TRIG if far_trig else {}

    def visit(block: str) -> None:
        block = swap.get(block, block)
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
    text = "".join(_BLOCKS[b][1] for b in order)
    if prefix == _PREFIX:
        return _HEADER + text
    return re.sub(r"^static inline\b", lambda _: prefix, text, flags=re.MULTILINE)
