"""The C-family renderer base: IR -> C-like source, shared by C, OpenCL C, CUDA C and HIP.

Layer: ``_codegen``. Imports the IR and ``c_math``; nothing from ``_lazy`` or ``_api``.

A renderer is mostly data: a type map, an op-to-expression table and a few hooks a dialect
overrides (the signature, how a ``global`` loop is written, math function names). Each
instruction becomes one ``const`` local, so the source reads like the IR::

    for (int64_t v4 = v3; v4 < v2; v4++) {
      const float v5 = b0[v4];
      const float v8 = (v5 * v7);
      b1[v4] = v8;
    }

Helpers (floor division, NaN-propagating max, vectorizable exp...) are emitted in a preamble
only when an instruction needs them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    from . import c_math
except ImportError:  # the math helpers module is being written; libm serves meanwhile
    c_math = None  # type: ignore[assignment]
from .ir import BOOL, Instr, Kernel, Op, identity

#: IR ops on complex operands -> the name of their vector-complex helper (``complex_vec``)
VECTOR_COMPLEX = {
    Op.ADD: "add", Op.SUB: "sub", Op.MUL: "mul", Op.DIV: "div", Op.NEG: "neg",
    Op.CONJ: "conj", Op.POW: "pow", Op.ABS: "abs", Op.SIGN: "sign", Op.ISNAN: "isnan",
    Op.ISINF: "isinf", Op.ISFINITE: "isfinite", Op.CMPEQ: "eq", Op.CMPNE: "ne",
    Op.CMPLT: "lt", Op.CMPLE: "le", Op.MAX: "max", Op.MIN: "min", Op.ROUND: "round",
    Op.EXP: "exp", Op.EXPM1: "expm1", Op.LOG: "log", Op.LOG1P: "log1p", Op.LOG2: "log2",
    Op.LOG10: "log10", Op.SQRT: "sqrt", Op.SIN: "sin", Op.COS: "cos", Op.TAN: "tan",
    Op.SINH: "sinh", Op.COSH: "cosh", Op.TANH: "tanh", Op.ASIN: "asin", Op.ACOS: "acos",
    Op.ATAN: "atan", Op.ASINH: "asinh", Op.ACOSH: "acosh", Op.ATANH: "atanh",
}

# Integer helpers with NumPy's semantics (no traps: x86 faults on INT_MIN / -1 and on x / 0).
_INT_HELPERS = {
    "floordiv": """static inline {T} zx_floordiv_{S}({T} a, {T} b) {{
  if (b == 0) return 0;
  if ({SIGNED} && b == ({T})-1) return ({T})(0 - ({U})a);
  {T} q = a / b;
  if ({SIGNED} && (a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
  return q;
}}""",
    "mod": """static inline {T} zx_mod_{S}({T} a, {T} b) {{
  if (b == 0 || ({SIGNED} && b == ({T})-1)) return 0;
  {T} r = a % b;
  if ({SIGNED} && r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}}""",
    "mul": """static inline {T} zx_mul_{S}({T} a, {T} b) {{
  {R} ar = creal{F}(a), ai = cimag{F}(a), br = creal{F}(b), bi = cimag{F}(b);
  return CMPLX{FU}(ar * br - ai * bi, ar * bi + ai * br);
}}""",
    "pow": """static inline {T} zx_pow_{S}({T} a, {T} b) {{
  if ({SIGNED} && b < 0) return a == 1 ? 1 : (a == ({T})-1 ? ((b & 1) ? ({T})-1 : 1) : 0);
  {U} r = 1, x = ({U})a, e = ({U})b;
  while (e) {{ if (e & 1) r *= x; x *= x; e >>= 1; }}
  return ({T})r;
}}""",
    "shl": """static inline {T} zx_shl_{S}({T} a, {T} b) {{
  return (b < 0 || ({U})b >= {BITS}) ? 0 : ({T})(({U})a << b);
}}""",
    "shr": """static inline {T} zx_shr_{S}({T} a, {T} b) {{
  if (b < 0 || ({U})b >= {BITS}) return ({SIGNED} && a < 0) ? ({T})-1 : 0;
  return ({T})(a >> b);
}}""",
}

# Float helpers with NumPy's semantics (floor_divide and remainder follow npy_divmod).
_FLOAT_HELPERS = {
    "mod": """static inline {T} zx_mod_{S}({T} a, {T} b) {{
  {T} m = fmod{F}(a, b);
  if (b == 0) return m;
  if (m != 0) {{ if ((b < 0) != (m < 0)) m += b; }} else m = copysign{F}(({T})0, b);
  return m;
}}""",
    "floordiv": """static inline {T} zx_floordiv_{S}({T} a, {T} b) {{
  if (b == 0) return a / b;
  /* the standard's special cases: finite // inf and inf // finite are signed 0 and inf */
  if (isinf(b) && isfinite(a)) return a / b;
  if (isinf(a) && isfinite(b)) return a / b;
  {T} m = fmod{F}(a, b);
  {T} d = (a - m) / b;
  if (m != 0 && ((b < 0) != (m < 0))) d -= 1;
  if (d == 0) return copysign{F}(({T})0, a / b);
  {T} f = floor{F}(d);
  if (d - f > ({T})0.5) f += 1;
  return f;
}}""",
    "logaddexp": """static inline {T} zx_logaddexp_{S}({T} a, {T} b) {{
  if (a == b) return a + ({T})0.6931471805599453094;
  {T} d = a - b;
  if (d > 0) return a + {LOG1P}({EXP}(-d));
  if (d <= 0) return b + {LOG1P}({EXP}(d));
  return d;
}}""",
    # c ? a : b through bit masks: gcc makes a floating-point ?: a branch (with the default
    # -ftrapping-math it will not compute both sides), and a branch stops vectorization
    "select": """static inline {T} zx_select_{S}(_Bool c, {T} a, {T} b) {{
  union {{ {T} f; {U} u; }} pa = {{a}}, pb = {{b}}, r;
  {U} m = ({U})0 - ({U})c;
  r.u = (pa.u & m) | (pb.u & ~m);
  return r.f;
}}""",
    "bits": """static inline {I} zx_bits_{S}({T} a) {{
  union {{ {T} f; {I} i; }} u = {{a}};
  return u.i;
}}""",
    "of_bits": """static inline {T} zx_of_bits_{S}({I} a) {{
  union {{ {I} i; {T} f; }} u = {{a}};
  return u.f;
}}""",
    "sign": """static inline {T} zx_sign_{S}({T} a) {{
  return a > 0 ? ({T})1 : (a < 0 ? ({T})-1 : (a == 0 ? ({T})0 : a));
}}""",
    # C99's pow with its (-inf)**b cases spelled out (some OpenCL libraries get them wrong)
    "mul": """static inline {T} zx_mul_{S}({T} a, {T} b) {{
  {R} ar = creal{F}(a), ai = cimag{F}(a), br = creal{F}(b), bi = cimag{F}(b);
  return CMPLX{FU}(ar * br - ai * bi, ar * bi + ai * br);
}}""",
    "pow": """static inline {T} zx_pow_{S}({T} a, {T} b) {{
  if (a == -({T})INFINITY && b == b) {{
    {T} h = b * ({T})0.5;
    int odd = b == floor{F}(b) && h != floor{F}(h);
    if (b == 0) return ({T})1;
    if (b > 0) return odd ? -({T})INFINITY : ({T})INFINITY;
    return odd ? -({T})0 : ({T})0;
  }}
  return pow{F}(a, b);
}}""",
}

_COMPLEX_HELPERS = {
    "lt": """static inline _Bool zx_lt_{S}({T} a, {T} b) {{
  {R} ar = creal{F}(a), br = creal{F}(b), ai = cimag{F}(a), bi = cimag{F}(b);
  return ar < br || (ar == br && ai < bi);
}}""",
    "le": """static inline _Bool zx_le_{S}({T} a, {T} b) {{
  {R} ar = creal{F}(a), br = creal{F}(b), ai = cimag{F}(a), bi = cimag{F}(b);
  return ar < br || (ar == br && ai <= bi);
}}""",
    "sign": """static inline {T} zx_sign_{S}({T} a) {{
  {R} m = cabs{F}(a);
  if (m != m) return CMPLX{FU}(NAN, NAN);
  return m == 0 ? CMPLX{FU}(0, 0) : a / m;
}}""",
    "mul": """static inline {T} zx_mul_{S}({T} a, {T} b) {{
  {R} ar = creal{F}(a), ai = cimag{F}(a), br = creal{F}(b), bi = cimag{F}(b);
  return CMPLX{FU}(ar * br - ai * bi, ar * bi + ai * br);
}}""",
    "pow": """static inline {T} zx_pow_{S}({T} a, {T} b) {{
  /* NumPy's special cases: z**0 = 1 (also for z = 0), 0**b = 0 for real b > 0 */
  if (creal{F}(b) == 0 && cimag{F}(b) == 0) return CMPLX{FU}(1, 0);
  if (creal{F}(a) == 0 && cimag{F}(a) == 0 && cimag{F}(b) == 0 && creal{F}(b) > 0)
    return CMPLX{FU}(0, 0);
  return cpow{F}(a, b);
}}""",
    "isnan": """static inline _Bool zx_isnan_{S}({T} a) {{
  return isnan(creal{F}(a)) || isnan(cimag{F}(a));
}}""",
    "isinf": """static inline _Bool zx_isinf_{S}({T} a) {{
  return isinf(creal{F}(a)) || isinf(cimag{F}(a));
}}""",
    "isfinite": """static inline _Bool zx_isfinite_{S}({T} a) {{
  return isfinite(creal{F}(a)) && isfinite(cimag{F}(a));
}}""",
}


#: c_math's sin/cos/tan reduce arguments exactly only below 2**50; libm's are right for every
#: argument (the standard's tests use huge ones), so libm serves them, at scalar speed.
LIBM_ONLY = frozenset({"sin", "cos", "tan"})


F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
U16 = np.dtype(np.uint16)

#: float16 in kernels: buffers hold the 16 bits (as uint16), values are floats, and every
#: operation's result is rounded to float16 (``zx_rh``, round half to even, from a double:
#: one rounding, as NumPy's conversions), as NumPy's float16 loops compute in float and round.
#: Reductions accumulate in float and round once, as NumPy's pairwise sum does. Arithmetic
#: only (frexp, ldexp, rint): the same text serves C, OpenCL C and CUDA. Checked bit for bit
#: against NumPy's conversions on every float16 and on random doubles (tests/_codegen).
HALF = """{P} float zx_rh(double x) {{
  double a = fabs(x);
  if (!(a < 65520.0)) return (float)(x != x ? x : copysign((double)INFINITY, x));
  if (a < 6.103515625e-05) return (float)(rint(x * 16777216.0) * 5.9604644775390625e-08);
  int e;
  (void)frexp(a, &e);
  double scale = ldexp(1.0, 11 - e);
  return (float)(rint(x * scale) / scale);
}}
{P} float zx_h2f({U} h) {{
  int e = (h >> 10) & 31, f = h & 1023;
  float v = e == 0 ? ldexp((float)f, -24)
            : (e == 31 ? (f ? (float)NAN : (float)INFINITY)
                       : ldexp((float)(f + 1024), e - 25));
  return (h & 0x8000) ? -v : v;
}}
{P} {U} zx_f2h(float x) {{
  {U} s = signbit(x) ? ({U})0x8000 : ({U})0;
  float a = fabs(x);
  if (a != a) return ({U})(s | 0x7e00);
  if (a > 65504.0f) return ({U})(s | 0x7c00);
  if (a < 6.103515625e-05f) return ({U})(s | ({U})(a * 16777216.0f));
  int e;
  float m = frexp(a, &e);
  return ({U})(s | ((e + 14) << 10) | ({U})(m * 2048.0f - 1024.0f));
}}"""


def stored(dtype: np.dtype) -> np.dtype:
    """The type a buffer of ``dtype`` holds in a kernel (float16: its 16 bits)."""
    return U16 if dtype == F16 else dtype


class CStyleRenderer:
    """IR -> source for a C-family language. Dialects override the data and a few hooks."""

    language = "c"
    types = {
        "bool": "_Bool", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t",
        "int64": "int64_t", "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t",
        "uint64": "uint64_t", "float16": "float", "float32": "float", "float64": "double",
        "complex64": "float _Complex", "complex128": "double _Complex",
    }
    restrict = "restrict"
    headers = ("#include <stdint.h>", "#include <math.h>")
    complex_headers = ("#include <complex.h>",)
    fn_prefix = "static inline"   # how helper functions are declared
    bitmask_select = True         # float ``where`` through bit masks (vectorizes on CPUs)
    vector_complex = False        # complex as float2/double2 with helpers (no C99 complex)
    vector_make = "{vec}({0}, {1})"   # constructor of a two-component vector
    use_c_math = True             # our vectorizable exp/log/... (CPU); else the builtins
    checked_pow = False           # float pow through a helper with C99's (-inf)**b cases
    #: signed integer overflow wraps (the cpu device compiles with -fwrapv); elsewhere (OpenCL
    #: C, CUDA, HIP) it is undefined, and compilers fold ``(x + big) >= x`` to true: integer
    #: arithmetic on values is then rendered in unsigned types, which wrap
    wraps_signed = False
    float_header = "#include <float.h>"   # where FLT_MAX and DBL_MAX come from
    c_math_options: dict[str, Any] = {}   # keywords of c_math.preamble (prefix, far_trig)

    def __init__(self) -> None:
        self._helpers: dict[str, str] = {}
        self._math: set[tuple[str, str]] = set()
        self._uses_complex = False
        self._complex_fns: dict[str, set[str]] = {}    # part type -> vector-complex helpers
        self._shared: list[str] = []                   # work-group memory declarations

    # -- types --------------------------------------------------------------------------------
    def _wrapping_type(self, ins: Any, src: Any) -> str | None:
        """The unsigned type integer arithmetic on values of ``src`` is done in where signed
        overflow is undefined (or small types promote to a signed int that can overflow:
        65535 * 65535), so that it wraps as NumPy's does; None where the plain expression
        already wraps (``wraps_signed``), for floats, and for index arithmetic (``"index"``
        instructions: offsets, never near overflow)."""
        if self.wraps_signed or src is None or src.kind not in "iu" or ins.arg == "index":
            return None
        if src.kind == "u" and src.itemsize >= 4:
            return None
        return self.ctype(np.dtype(np.uint64 if src.itemsize == 8 else np.uint32))

    def negate_narrow(self, t: str, x: str, ut: str) -> str:
        """``-x`` of an int8 or int16 value ``x``, wrapping (``-(-32768)`` is -32768),
        computed in the unsigned type ``ut``. Dialects whose compilers get this wrong
        override it (NVIDIA's: see ``CUDARenderer`` and ``OpenCLRenderer``)."""
        return f"(({t})(({ut})0 - ({ut}){x}))"

    def ctype(self, dtype: np.dtype) -> str:
        return self.types[np.dtype(dtype).name]

    @staticmethod
    def suffix(dtype: np.dtype) -> str:
        d = np.dtype(dtype)
        return {"b": "b", "i": "i", "u": "u", "f": "f", "c": "c"}[d.kind] + str(d.itemsize * 8)

    def half(self) -> None:
        """Emit (once) the float16 conversions (``HALF``)."""
        if "zx_half" not in self._helpers:
            self._helpers["zx_half"] = HALF.format(P=self.fn_prefix, U=self.types["uint16"])

    def literal(self, value: object, dtype: np.dtype) -> str:
        d = np.dtype(dtype)
        if d == F16:        # (a float holding the float16 value)
            with np.errstate(over="ignore"):
                return self._float_literal(float(np.float16(value)), F32)  # type: ignore
        if d.kind == "b":
            return "1" if value else "0"
        if d.kind in "iu":
            v = int(value)  # type: ignore[call-overload]
            if d.kind == "i" and v == np.iinfo(d).min:
                return f"(({self.ctype(d)})({v + 1}LL - 1))"
            return f"(({self.ctype(d)}){v}{'ULL' if d.kind == 'u' else 'LL'})"
        if d.kind == "f":
            return self._float_literal(float(value), d)  # type: ignore[arg-type]
        c = complex(value)  # type: ignore[arg-type]
        part = np.dtype(np.float32 if d == np.complex64 else np.float64)
        if self.vector_complex:
            return self.make_complex(self._float_literal(c.real, part),
                                     self._float_literal(c.imag, part), d)
        self._uses_complex = True   # CMPLX/CMPLXF come from <complex.h>
        return (f"CMPLX{'F' if part == np.float32 else ''}("
                f"{self._float_literal(c.real, part)}, {self._float_literal(c.imag, part)})")

    def _float_literal(self, v: float, d: np.dtype) -> str:
        f = "f" if d == np.float32 else ""
        if math.isnan(v):
            return f"(({self.ctype(d)})NAN)"
        if math.isinf(v):
            return f"(({self.ctype(d)}){'-' if v < 0 else ''}INFINITY)"
        return f"{v!r}{f}" if "e" in repr(v) or "." in repr(v) else f"{v!r}.0{f}"

    # -- helpers ------------------------------------------------------------------------------
    def helper(self, kind: str, dtype: np.dtype) -> str:
        """Emit (once) the helper ``kind`` for ``dtype`` and return its function name."""
        d = np.dtype(dtype)
        s = self.suffix(d)
        name = f"zx_{kind}_{s}"
        if name in self._helpers:
            return name
        t = self.ctype(d)
        if d.kind in "iu":
            bits = d.itemsize * 8
            unsigned = self.types[f"uint{bits}"]
            text = _INT_HELPERS[kind].format(T=t, S=s, U=unsigned, BITS=bits,
                                             SIGNED=int(d.kind == "i"))
        elif d.kind == "f":
            bits = self.types["uint32" if d == np.float32 else "uint64"]
            signed = self.types["int32" if d == np.float32 else "int64"]
            text = _FLOAT_HELPERS[kind].format(T=t, S=s, F=self.fsuffix(d), U=bits, I=signed,
                                               LOG1P=self.math("log1p", d),
                                               EXP=self.math("exp", d))
        else:
            part = np.float32 if d == np.complex64 else np.float64
            f = "f" if d == np.complex64 else ""
            text = _COMPLEX_HELPERS[kind].format(T=t, S=s, R=self.ctype(np.dtype(part)), F=f,
                                                 FU=f.upper())
        self._helpers[name] = text.replace("static inline", self.fn_prefix)
        return name

    # -- complex numbers as two-component vectors (GPU dialects) --------------------------
    def make_complex(self, re: str, im: str, dtype: np.dtype) -> str:
        vec = self.ctype(dtype)
        return self.vector_make.format(re, im, vec=vec)

    def complex_fn(self, name: str, dtype: np.dtype) -> str:
        """Emit (once) the vector-complex helper ``name`` for ``dtype``; its function name."""
        from . import complex_vec
        part = "float" if np.dtype(dtype) == np.complex64 else "double"
        self._complex_fns.setdefault(part, set()).add(name)
        return complex_vec.fn_name(name, part)

    def _vector_complex_expr(self, ins: Instr, a: list[str], src: np.dtype) -> str:
        op = ins.op
        if op is Op.WHERE:
            return f"({a[0]} ? {a[1]} : {a[2]})"
        if op is Op.REAL:
            return f"({a[0]}).x"
        if op is Op.IMAG:
            return f"({a[0]}).y"
        name = VECTOR_COMPLEX.get(op)
        if name is None:
            raise ValueError(f"{op.value} is not defined for complex operands")
        return f"{self.complex_fn(name, src)}({', '.join(a)})"

    def _complex_source(self) -> list[str]:
        if not self._complex_fns:
            return []
        from . import complex_vec
        out = []
        for part, names in sorted(self._complex_fns.items()):
            vec = self.types["complex64" if part == "float" else "complex128"]
            make = self.vector_make.replace("{vec}", vec)
            out.append(complex_vec.source(sorted(names), part, vec=vec, make=make,
                                          prefix=self.fn_prefix, libm=self.complex_libm))
        return out

    #: ``complex_vec``'s ``libm`` hook: the function each math library name calls (None: the
    #: dialect's own overloaded builtins)
    complex_libm: Callable[[str, str], str] | None = None

    def fsuffix(self, dtype: np.dtype) -> str:
        """The suffix of C's float32 math functions (``expf``); OpenCL's are overloaded."""
        return "f" if np.dtype(dtype) == np.float32 else ""

    def math(self, name: str, dtype: np.dtype) -> str:
        """Name of a real math function: our vectorizable one if it exists, else libm's."""
        d = np.dtype(dtype)
        suffix = "f32" if d == np.float32 else "f64"
        if self.use_c_math and c_math is not None and name not in LIBM_ONLY and (
                name in c_math.FUNCTIONS or name == "hypot"):
            self._math.add((name, suffix))
            return c_math.c_name(name, suffix)
        return name + self.fsuffix(d)

    def cmath(self, name: str, dtype: np.dtype) -> str:
        """Name of a complex math function from <complex.h> (cexp, csqrt, creal, conj...)."""
        self._uses_complex = True
        base = name if name == "conj" else "c" + name
        return base + ("f" if np.dtype(dtype) == np.complex64 else "")

    # -- expressions --------------------------------------------------------------------------
    def expr(self, ins: Instr, a: list[str], dts: list[np.dtype]) -> str:
        """The C expression of one ALU instruction, given its operands' expressions."""
        op, d = ins.op, ins.dtype
        if d == F16 or F16 in dts:      # (computed as float: the caller rounds the result)
            d = F32 if d == F16 else d
            dts = [F32 if s == F16 else s for s in dts]
        t = self.ctype(d)  # type: ignore[arg-type]
        src = dts[0] if dts else d
        kind = src.kind  # type: ignore[union-attr]
        if self.vector_complex:
            if op is Op.COMPLEX:
                return self.make_complex(a[0], a[1], d)  # type: ignore[arg-type]
            complex_src = dts[1] if op is Op.WHERE else src
            if complex_src is not None and complex_src.kind == "c":
                return self._vector_complex_expr(ins, a, complex_src)
        if kind == "c":
            self._uses_complex = True
        if op is Op.WHERE:
            if d is not None and d.kind == "f" and self.bitmask_select:
                return f"{self.helper('select', d)}({a[0]}, {a[1]}, {a[2]})"
            if d is not None and d.kind in "iu" and self.bitmask_select:
                # (gcc vectorizes no integer ?: whose condition is the same along the loop:
                # a concat's position read through a padded view)
                u = self.ctype(np.dtype(f"u{d.itemsize}"))
                m = f"(({u})0 - ({u}){a[0]})"
                return f"(({t})((({u}){a[1]} & {m}) | (({u}){a[2]} & ~{m})))"
            return f"({a[0]} ? {a[1]} : {a[2]})"
        if op is Op.MUL and kind == "c":
            # the textbook product, as NumPy's loop and the GPU dialects compute it (C99's
            # ``*`` recovers infinities through a libgcc call that keeps loops scalar)
            return f"{self.helper('mul', src)}({a[0]}, {a[1]})"
        if op in (Op.ADD, Op.SUB, Op.MUL):
            sym = {Op.ADD: "+", Op.SUB: "-", Op.MUL: "*"}[op]
            if kind == "b":
                sym = {Op.ADD: "|", Op.SUB: "^", Op.MUL: "&"}[op]
            ut = self._wrapping_type(ins, src)
            if ut is not None:
                return f"(({t})(({ut}){a[0]} {sym} ({ut}){a[1]}))"
            return f"(({t})({a[0]} {sym} {a[1]}))"
        if op is Op.DIV:
            return f"({a[0]} / {a[1]})"
        if op in (Op.IDIV, Op.MOD) and ins.arg == "index":
            # index arithmetic on values known to be non-negative: C's / and % are floor ops
            return f"({a[0]} {'/' if op is Op.IDIV else '%'} {a[1]})"
        if op in (Op.IDIV, Op.MOD):
            return f"{self.helper('floordiv' if op is Op.IDIV else 'mod', src)}({a[0]}, {a[1]})"
        if op is Op.POW:
            if kind in "iu":
                return f"{self.helper('pow', src)}({a[0]}, {a[1]})"
            if kind == "c":
                return f"{self.helper('pow', src)}({a[0]}, {a[1]})"
            if self.checked_pow:
                return f"{self.helper('pow', src)}({a[0]}, {a[1]})"
            return f"{self.math('pow', src)}({a[0]}, {a[1]})"
        if op in (Op.MAX, Op.MIN):
            cmp = ">" if op is Op.MAX else "<"
            if kind == "f":
                # (``|``, not ``||``: both comparisons are made, so gcc's if-conversion need
                # not speculate a comparison that may trap, and the loop vectorizes)
                return f"((({a[0]} != {a[0]}) | ({a[0]} {cmp} {a[1]})) ? {a[0]} : {a[1]})"
            if kind == "c":
                lt = self.helper("lt", src)
                first, second = (a[1], a[0]) if op is Op.MAX else (a[0], a[1])
                return (f"({self.helper('isnan', src)}({a[0]}) || {lt}({first}, {second}) "
                        f"? {a[0]} : {a[1]})")
            return f"({a[0]} {cmp} {a[1]} ? {a[0]} : {a[1]})"
        if op in (Op.CMPLT, Op.CMPLE, Op.CMPEQ, Op.CMPNE):
            if kind == "c" and op in (Op.CMPLT, Op.CMPLE):
                return f"{self.helper('lt' if op is Op.CMPLT else 'le', src)}({a[0]}, {a[1]})"
            sym = {Op.CMPLT: "<", Op.CMPLE: "<=", Op.CMPEQ: "==", Op.CMPNE: "!="}[op]
            return f"({a[0]} {sym} {a[1]})"
        if op in (Op.AND, Op.OR, Op.XOR):
            sym = {Op.AND: "&", Op.OR: "|", Op.XOR: "^"}[op]
            return f"(({t})({a[0]} {sym} {a[1]}))"
        if op in (Op.SHL, Op.SHR):
            return f"{self.helper('shl' if op is Op.SHL else 'shr', src)}({a[0]}, {a[1]})"
        if op is Op.COMPLEX:
            self._uses_complex = True
            return f"CMPLX{'F' if d == np.complex64 else ''}({a[0]}, {a[1]})"
        if op is Op.NEG:
            ut = self._wrapping_type(ins, src)
            if ut is not None and src.kind == "i" and src.itemsize < 4:
                return self.negate_narrow(t, a[0], ut)
            if ut is not None:
                return f"(({t})(({ut})0 - ({ut}){a[0]}))"
            return f"(({t})(-{a[0]}))"
        if op is Op.NOT:
            return f"(!{a[0]})" if kind == "b" else f"(({t})(~{a[0]}))"
        if op is Op.ABS:
            if kind == "c" and self.use_c_math and c_math is not None:
                # (our branch-free hypot, 0.5 ulp, inlined: libm's cabs is a call, 20 ns)
                part = F32 if src == np.complex64 else F64
                return f"{self.math('hypot', part)}({self.cmath('real', src)}({a[0]}), " \
                       f"{self.cmath('imag', src)}({a[0]}))"
            if kind == "c":
                return f"{self.cmath('abs', src)}({a[0]})"
            if kind == "f":
                return f"fabs{self.fsuffix(src)}({a[0]})"
            ut = self._wrapping_type(ins, src)
            if ut is not None and src.kind == "i" and src.itemsize < 4:
                return f"({a[0]} < 0 ? {self.negate_narrow(t, a[0], ut)} : {a[0]})"
            if ut is not None:
                return f"(({t})({a[0]} < 0 ? ({ut})0 - ({ut}){a[0]} : ({ut}){a[0]}))"
            return f"(({t})({a[0]} < 0 ? -{a[0]} : {a[0]}))"
        if op is Op.SIGN:
            if kind in "fc":
                return f"{self.helper('sign', src)}({a[0]})"
            return f"(({t})(({a[0]} > 0) - ({a[0]} < 0)))"
        if op in (Op.ISNAN, Op.ISINF, Op.ISFINITE):
            if kind == "c":
                return f"{self.helper(op.value.lower(), src)}({a[0]})"
            if op is Op.ISNAN:
                return f"({a[0]} != {a[0]})"
            f = self.fsuffix(src)
            big = "FLT_MAX" if f else "DBL_MAX"
            if self.float_header:
                self._helpers.setdefault("float.h", self.float_header)
            if op is Op.ISINF:
                return f"(fabs{f}({a[0]}) > {big})"
            return f"(fabs{f}({a[0]}) <= {big})"
        if op is Op.SIGNBIT:
            return f"(signbit({a[0]}) != 0)"
        if op is Op.BITCAST:
            if np.dtype(src).kind == "f":
                return f"{self.helper('bits', src)}({a[0]})"
            return f"{self.helper('of_bits', d)}({a[0]})"
        if op in (Op.REAL, Op.IMAG, Op.CONJ):
            return f"{self.cmath(op.value.lower(), src)}({a[0]})"
        if op in (Op.FLOOR, Op.CEIL, Op.TRUNC, Op.ROUND):
            name = "rint" if op is Op.ROUND else op.value.lower()
            return f"{name}{self.fsuffix(src)}({a[0]})"
        if op in (Op.ATAN2, Op.HYPOT, Op.COPYSIGN, Op.NEXTAFTER):
            return f"{self.math(op.value.lower(), src)}({a[0]}, {a[1]})"
        if op is Op.LOGADDEXP:
            return f"{self.helper('logaddexp', src)}({a[0]}, {a[1]})"
        # the remaining unary math functions
        name = op.value.lower()
        if kind == "c":
            return f"{self.cmath(name, src)}({a[0]})"
        return f"{self.math(name, src)}({a[0]})"

    def cast(self, x: str, src: np.dtype, dst: np.dtype) -> str:
        if self.vector_complex and (src.kind == "c" or dst.kind == "c"):
            if dst.kind != "c":
                if dst == BOOL:
                    return f"(({x}).x != 0 || ({x}).y != 0)"
                return f"(({self.ctype(dst)})({x}).x)"
            part = self.ctype(np.dtype(np.float32 if dst == np.complex64 else np.float64))
            if src.kind == "c":
                return self.make_complex(f"({part})({x}).x", f"({part})({x}).y", dst)
            return self.make_complex(f"({part})({x})", f"({part})0", dst)
        if dst == BOOL:
            return f"({x} != 0)"
        if src.kind == "c" and dst.kind != "c":
            return f"(({self.ctype(dst)}){self.cmath('real', src)}({x}))"
        if src == BOOL and dst.kind == "f":
            # (through the signed integer of the float's width: gcc vectorizes no loop
            # that converts a _Bool to a double, a count of conditions ``sum(c)``)
            width = self.ctype(np.dtype(f"int{dst.itemsize * 8}"))
            return f"(({self.ctype(dst)})({width})({x}))"
        return f"(({self.ctype(dst)})({x}))"

    # -- hooks a dialect overrides ------------------------------------------------------------
    def load(self, buf: str, index: str, dtype: np.dtype) -> str:
        """An element of a buffer."""
        return f"{buf}[{index}]"

    def signature(self, kernel: Kernel) -> list[str]:
        raise NotImplementedError

    def buffer_decl(self, index: int, dtype: np.dtype, writable: bool, var: str) -> str:
        raise NotImplementedError

    def float_arg_type(self, kernel: Kernel) -> str:
        """The type float arguments arrive in (double, or float on devices without fp64)."""
        return "double"

    def int_arg(self, index: int) -> str:
        return f"ip[{index}]"

    def float_arg(self, index: int) -> str:
        return f"fp[{index}]"

    def global_loop(self, var: str, start: str, end: str, kernel: Kernel) -> list[str]:
        raise NotImplementedError

    def loop_check(self, var: str, kind: str) -> str | None:
        """A statement at the top of a loop of ``kind`` ("reduce", "inner", "lane"), or None
        (the C dialect checks its stop flag in long reductions)."""
        return None

    # thread-style dialects (GPUs) define these three
    def special(self, name: str) -> str:
        raise ValueError(f"the {self.language} dialect has no work items ({name})")

    def shared_array(self, ctype: str, name: str, size: int) -> str:
        raise ValueError(f"the {self.language} dialect has no work-group memory")

    def barrier(self) -> str:
        raise ValueError(f"the {self.language} dialect has no work-group barrier")

    def group_reduce(self, v: str, x: Instr, value: str, local: str) -> list[str]:
        """Tree combine of ``value`` over the work-group through work-group memory (a dialect
        may override it with something faster, e.g. warp shuffles)."""
        combine, size, stride = x.arg
        t = self.ctype(x.dtype)  # type: ignore[arg-type]
        mem = f"zx_shared_{v}"
        self._shared.append(self.shared_array(t, mem, size))
        fake = Instr(Op.ACC, x.dtype, (), (combine, 1))
        lines = [f"{mem}[{local}] = {value};", self.barrier()]
        if size > stride:
            lines += [f"for (int s = {size // 2}; s >= {stride}; s >>= 1) {{",
                      f"  if ({local} < s) {{ const {t} c = {mem}[{local}]; "
                      f"{mem}[{local}] = {self._combine(fake, 'c', f'{mem}[{local} + s]')}; }}",
                      f"  {self.barrier()}", "}"]
        lines.append(f"const {t} {v} = {mem}[{local} % {stride}];")
        return lines

    def group_scan(self, v: str, x: Instr, value: str, local: str) -> list[str]:
        """Inclusive scan of ``value`` over the work-group in local-id order, through
        work-group memory (Hillis-Steele: log2(size) steps)."""
        combine, size = x.arg
        t = self.ctype(x.dtype)  # type: ignore[arg-type]
        mem = f"zx_shared_{v}"
        self._shared.append(self.shared_array(t, mem, size))
        fake = Instr(Op.ACC, x.dtype, (), (combine, 1))
        return [f"{mem}[{local}] = {value};", self.barrier(),
                f"for (int s = 1; s < {size}; s <<= 1) {{",
                f"  {t} o = {mem}[{local}];",
                f"  if ({local} >= s) o = {self._combine(fake, f'{mem}[{local} - s]', 'o')};",
                f"  {self.barrier()}",
                f"  {mem}[{local}] = o;",
                f"  {self.barrier()}", "}",
                f"const {t} {v} = {mem}[{local}];"]

    # -- the walk -----------------------------------------------------------------------------
    def render(self, kernel: Kernel) -> str:
        """The whole source text of ``kernel``."""
        self._helpers, self._math, self._uses_complex = {}, set(), False
        self._complex_fns, self._shared = {}, []
        body = self._body(kernel)
        complex_source = self._complex_source()   # (may need math functions too)
        head = list(self.headers)
        if self._uses_complex:
            head += self.complex_headers
        if self._math and c_math is not None:
            head.append(c_math.preamble(sorted(self._math), **self.c_math_options))
        head += list(self._helpers.values())
        head += complex_source
        shared = ["  " + line for line in self._shared]
        return "\n".join(head + [""] + self.signature(kernel) + shared + body + ["}", ""])

    def _body(self, kernel: Kernel) -> list[str]:
        lines: list[str] = []
        names: dict[int, str] = {}
        ins = kernel.instrs
        depth = 1
        local = "0"     # the variable holding this work item's local id (thread-style)
        index_t = self.types["int64"]

        def emit(text: str) -> None:
            lines.append("  " * depth + text)

        for i, x in enumerate(ins):
            v = f"v{i}"
            names[i] = v
            a = [names[s] for s in x.srcs]
            op = x.op
            if op is Op.BUF:
                index, _, writable = x.arg
                emit(self.buffer_decl(index, stored(x.dtype), writable, v))  # type: ignore
            elif op is Op.INT_ARG:
                emit(f"const {index_t} {v} = {self.int_arg(x.arg)};")
            elif op is Op.FLOAT_ARG:
                emit(f"const {self.float_arg_type(kernel)} {v} = {self.float_arg(x.arg)};")
            elif op is Op.CONST:
                names[i] = self.literal(x.arg, x.dtype)  # type: ignore[arg-type]
            elif op is Op.RANGE:
                if x.arg == "global":
                    for line in self.global_loop(v, a[0], a[1], kernel):
                        emit(line)
                else:
                    step = f"{v} += {a[2]}" if len(a) == 3 else f"{v}++"
                    emit(f"for ({index_t} {v} = {a[0]}; {v} < {a[1]}; {step}) {{")
                    check = self.loop_check(v, x.arg)
                    if check:
                        emit("  " + check)
                depth += 1
            elif op is Op.IF:
                emit(f"if ({a[0]}) {{")
                depth += 1
            elif op is Op.SPECIAL:
                emit(f"const {index_t} {v} = ({index_t}){self.special(x.arg)};")
                if x.arg == "local_id":
                    local = v
            elif op is Op.GROUP_REDUCE or op is Op.GROUP_SCAN:
                render = self.group_reduce if op is Op.GROUP_REDUCE else self.group_scan
                for line in render(v, x, a[0], local):
                    emit(line)
                if depth > 1:
                    # in a loop, the next pass rewrites the work-group memory that items
                    # may still be reading
                    emit(self.barrier())
            elif op is Op.END:
                depth -= 1
                emit("}")
            elif op is Op.LOAD:
                item = self.load(a[0], a[1], x.dtype)  # type: ignore[arg-type]
                if x.dtype == F16:
                    self.half()
                    item = f"zx_h2f({item})"
                if len(a) == 3:
                    item = f"{a[2]} ? {item} : {self.literal(0, x.dtype)}"  # type: ignore
                emit(f"const {self.ctype(x.dtype)} {v} = {item};")  # type: ignore[arg-type]
            elif op is Op.STORE:
                value = a[2]
                if ins[x.srcs[0]].dtype == F16:
                    self.half()
                    value = f"zx_f2h({value})"
                emit(f"{a[0]}[{a[1]}] = {value};")
            elif op is Op.ACC:
                combine, lanes = x.arg
                init = self.literal(_identity(combine, x.dtype), x.dtype)  # type: ignore
                emit(f"{self.ctype(x.dtype)} {v}[{lanes}];")  # type: ignore[arg-type]
                emit(f"for (int l = 0; l < {lanes}; l++) {v}[l] = {init};")
            elif op is Op.ACC_UPDATE:
                acc = ins[x.srcs[0]]
                # read the lane once into a local: select chains on array elements (max/min)
                # do not vectorize, on a scalar they do
                t = self.ctype(acc.dtype)  # type: ignore[arg-type]
                emit(f"{{ const {t} c = {a[0]}[{a[1]}]; "
                     f"{a[0]}[{a[1]}] = {self._combine(acc, 'c', a[2])}; }}")
            elif op is Op.ACC_SCAN:
                acc = ins[x.srcs[0]]
                t = self.ctype(acc.dtype)  # type: ignore[arg-type]
                combined = self._combine(acc, "c", a[2])
                if x.dtype == F16:      # (a running float16 value rounds at each step)
                    self.half()
                    combined = f"zx_rh({combined})"
                emit(f"{{ const {t} c = {a[0]}[{a[1]}]; {a[0]}[{a[1]}] = {combined}; }}")
                emit(f"const {t} {v} = {a[0]}[{a[1]}];")
            elif op is Op.ACC_GET:
                emit(f"const {self.ctype(x.dtype)} {v} = {a[0]}[{a[1]}];")  # type: ignore
            elif op is Op.ACC_RESULT:
                acc = ins[x.srcs[0]]
                lanes = acc.arg[1]
                emit(f"{self.ctype(x.dtype)} {v} = {a[0]}[0];")  # type: ignore[arg-type]
                if lanes > 1:
                    emit(f"for (int l = 1; l < {lanes}; l++) "
                         f"{v} = {self._combine(acc, v, f'{a[0]}[l]')};")
                if x.dtype == F16:      # (accumulated in float, rounded once)
                    self.half()
                    emit(f"{v} = zx_rh({v});")
            elif op is Op.CAST:
                src = ins[x.srcs[0]].dtype
                assert src is not None and x.dtype is not None
                if src == F16:
                    src = F32
                if x.dtype == F16:      # (from a double: one rounding)
                    self.half()
                    value = f"zx_rh({self.cast(a[0], src, F64)})"
                else:
                    value = self.cast(a[0], src, x.dtype)
                emit(f"const {self.ctype(x.dtype)} {v} = {value};")  # type: ignore[arg-type]
            else:
                dts = [ins[s].dtype for s in x.srcs]
                value = self.expr(x, a, dts)  # type: ignore[arg-type]
                if x.dtype == F16:
                    self.half()
                    value = f"zx_rh({value})"
                emit(f"const {self.ctype(x.dtype)} {v} = {value};")  # type: ignore[arg-type]
        return lines

    def _combine(self, acc: Instr, cur: str, val: str) -> str:
        fake = Instr(Op(acc.arg[0]), acc.dtype, (0, 0))
        return self.expr(fake, [cur, val], [acc.dtype, acc.dtype])  # type: ignore[list-item]


def _identity(op_name: str, dtype: np.dtype) -> object:
    return identity(Op(op_name), dtype)
