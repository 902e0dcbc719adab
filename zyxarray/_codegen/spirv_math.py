"""The project's math routines (``c_math``) in SPIR-V: a translator of the C subset they are
written in, straight into the SPIR-V renderer's instructions.

Layer: ``_codegen``. Used by ``spirv.py`` for the transcendental functions, which
GLSL.std.450 lacks in float64 and gives with loose accuracy in float32.

``c_math`` is branch-free C on purpose (it must vectorize): typedef'd structs and bit-cast
unions, ``static inline`` functions whose bodies are declarations, assignments (to locals
and struct fields) and one ``return``, expressions of arithmetic, comparisons, bit
operations, casts, ``?:``, calls of other helpers and of ``fma``/``sqrt``/``fabs``/
``copysign``. Each helper call is inlined (SSA: an assignment rebinds a name), so a function
becomes straight-line SPIR-V with the same operations in the same order as the C compiler
is given, and the same measured accuracy (see ``c_math``). C's usual arithmetic conversions
are followed for the types that occur (float, double, int, int32/uint32/int64/uint64).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from . import c_math
from . import spirv as s  # (spirv imports this module first: names are read at call time)

_TOKEN = re.compile(r"""
    (?P<num>0[xX][0-9a-fA-F.]+[pP][-+]?\d+[fF]?|\d+\.\d*(?:[eE][-+]?\d+)?[fF]?|\d+(?:[eE][-+]?\d+)[fF]?|0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op><<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^~!<>=?:;,.(){}\[\]])
  | (?P<ws>\s+)
""", re.X)

_TYPES = {"float": np.dtype(np.float32), "double": np.dtype(np.float64),
          "int": np.dtype(np.int32), "int32_t": np.dtype(np.int32),
          "uint32_t": np.dtype(np.uint32), "int64_t": np.dtype(np.int64),
          "uint64_t": np.dtype(np.uint64)}
BOOL = np.dtype(np.bool_)


@dataclass
class _Func:
    ret: str
    params: list[tuple[str, str]]
    body: list[str]          # tokens


@dataclass
class _Source:
    structs: dict[str, list[tuple[str, str]]]      # name -> [(field, type)]
    funcs: dict[str, _Func]


def _tokens(text: str) -> list[str]:
    out = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"c_math translation: cannot read {text[pos:pos + 30]!r}")
        pos = m.end()
        if m.lastgroup != "ws":
            out.append(m.group(0))
    return out


@cache
def _source(name: str, suffix: str) -> _Source:
    """The parsed helpers that ``name``/``suffix`` needs (c_math's own preamble)."""
    text = c_math.preamble([(name, suffix)])
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^#.*$", "", text, flags=re.M)
    toks = _tokens(text)
    structs: dict[str, list[tuple[str, str]]] = {}
    funcs: dict[str, _Func] = {}
    i = 0
    while i < len(toks):
        if toks[i] == "typedef":
            kind = toks[i + 1]
            j = toks.index("}", i)
            tname = toks[j + 1]
            if kind == "struct":
                fields: list[tuple[str, str]] = []
                k = i + 3
                while k < j:
                    ftype = toks[k]
                    k += 1
                    while toks[k] != ";":
                        if toks[k] != ",":
                            fields.append((toks[k], ftype))
                        k += 1
                    k += 1
                structs[tname] = fields
            i = j + 3
            continue
        if toks[i] == "static":
            ret, fname = toks[i + 2], toks[i + 3]
            j = toks.index(")", i)
            params = []
            plist = toks[i + 5:j]
            for k in range(0, len(plist), 3):
                params.append((plist[k + 1], plist[k]))
            depth, k = 0, j + 1
            start = k + 1
            while True:
                if toks[k] == "{":
                    depth += 1
                elif toks[k] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            funcs[fname] = _Func(ret, params, toks[start:k])
            i = k + 1
            continue
        raise ValueError(f"c_math translation: unexpected {toks[i]!r}")
    return _Source(structs, funcs)


class _Value:
    """A typed value: a SPIR-V id of a C type, or a struct (dict of fields)."""

    __slots__ = ("ctype", "fields", "id")

    def __init__(self, ctype: Any, id: int = -1, fields: dict | None = None) -> None:
        self.ctype = ctype        # np.dtype, BOOL for comparisons, or a struct name
        self.id = id
        self.fields = fields


class Translator:
    """Inlines c_math's helpers into a ``SpirvRenderer``'s function body."""

    def __init__(self, renderer: Any) -> None:
        self.r = renderer

    def call(self, name: str, suffix: str, args: list[int]) -> int:
        """The SPIR-V value of c_math's ``name`` (``suffix`` "f32"/"f64") on ``args``."""
        src = _source(name, suffix)
        fname = c_math.c_name(name, suffix)
        dt = np.dtype(np.float32 if suffix == "f32" else np.float64)
        out = self._inline(src, fname, [_Value(dt, a) for a in args])
        return out.id

    # -- functions and statements ------------------------------------------------------------
    def _inline(self, src: _Source, fname: str, args: list[_Value]) -> _Value:
        special = self._builtin(fname, args)
        if special is not None:
            return special
        fn = src.funcs.get(fname)
        if fn is None:
            raise ValueError(f"c_math translation: no function {fname}")
        env: dict[str, _Value] = {}
        for (pname, ptype), a in zip(fn.params, args):
            env[pname] = self._convert(a, self._ctype(ptype, src))
        toks = fn.body
        i = 0
        while i < len(toks):
            end = toks.index(";", i)
            stmt = toks[i:end]
            i = end + 1
            if stmt[0] == "return":
                return self._convert(self._expr(src, env, stmt[1:]), self._ctype(fn.ret, src))
            if stmt[0] == "const":
                stmt = stmt[1:]
            if stmt[0] in _TYPES or stmt[0] in src.structs:
                ctype = self._ctype(stmt[0], src)
                if len(stmt) == 2:               # a struct declared, fields set later
                    env[stmt[1]] = _Value(ctype, fields={})
                    continue
                assert stmt[2] == "=", stmt
                env[stmt[1]] = self._convert(self._expr(src, env, stmt[3:]), ctype)
                continue
            # an assignment: name = e; name.field = e; or name op= e
            eq = stmt.index("=")
            target = stmt[:eq]
            value = self._expr(src, env, stmt[eq + 1:])
            if len(target) == 2:             # (a compound assignment: nf += ...)
                value = _Parser(self, src, env, []).apply(target[1], env[target[0]], value)
                target = target[:1]
            if len(target) == 3 and target[1] == ".":
                struct = env[target[0]]
                ftype = dict(src.structs[struct.ctype])[target[2]]
                struct.fields[target[2]] = self._convert(value, self._ctype(ftype, src))
            else:
                env[target[0]] = self._convert(value, env[target[0]].ctype)
        raise ValueError(f"c_math translation: {fname} has no return")

    def _ctype(self, name: str, src: _Source) -> Any:
        return _TYPES.get(name, name)

    def _builtin(self, fname: str, args: list[_Value]) -> _Value | None:
        """The pun, select and libm calls, as single instructions."""
        r = self.r
        m = r.m
        if fname.startswith("zx__bits_"):
            u = np.dtype(np.uint32 if fname.endswith("f32") else np.uint64)
            return _Value(u, m.value(s.OpBitcast, r.t(u), args[0].id))
        if fname.startswith("zx__float_"):
            f = np.dtype(np.float32 if fname.endswith("f32") else np.float64)
            u = np.dtype(np.uint32 if fname.endswith("f32") else np.uint64)
            return _Value(f, m.value(s.OpBitcast, r.t(f), self._convert(args[0], u).id))
        if fname.startswith(("zx__sel_", "zx__seli_")):
            c = self._truth(args[0])
            a, b = self._common(args[1], args[2])
            return _Value(a.ctype, m.value(s.OpSelect, r.t(a.ctype), c, a.id, b.id))
        if fname in ("fma", "fmaf"):
            return self._fma(fname, args)
        glsl = {"sqrt": s.GLSL_SQRT,
                "sqrtf": s.GLSL_SQRT, "fabs": s.GLSL_FABS, "fabsf": s.GLSL_FABS,
                "floor": s.GLSL_FLOOR, "floorf": s.GLSL_FLOOR, "rint": s.GLSL_ROUND_EVEN,
                "rintf": s.GLSL_ROUND_EVEN, "trunc": s.GLSL_TRUNC, "truncf": s.GLSL_TRUNC}
        if fname in glsl:
            dt = np.dtype(np.float32 if fname.endswith("f") else np.float64)
            vals = [self._convert(a, dt) for a in args]
            return _Value(dt, r._glsl(glsl[fname], r.t(dt), *(v.id for v in vals)))
        if fname in ("copysign", "copysignf"):
            dt = np.dtype(np.float32 if fname == "copysignf" else np.float64)
            a, b = (self._convert(v, dt) for v in args)
            fake = s.Instr(s.Op.COPYSIGN, dt, (0, 1))
            return _Value(dt, r._alu(fake, [a.id, b.id], [dt, dt]))
        return None

    def _fma(self, fname: str, args: list[_Value]) -> _Value:
        """a * b + c with the product's rounding error kept, without relying on the driver
        fusing GLSL's Fma (lavapipe does not: c_math's exact range reductions then fail).
        float32: in float64, where the product is exact. float64: Dekker's product (a
        Veltkamp split) gives p + e == a * b exactly, then (p + c) + e; exact wherever c_math
        relies on it (the result is representable: a product's error, a reduction that
        cancels), one extra rounding in its polynomials."""
        r = self.r
        m = r.m
        f64 = np.dtype(np.float64)

        def op(code: int, x: int, y: int) -> int:
            v = m.value(code, r.t(f64), x, y)
            m.decorate(v, s.DEC_NO_CONTRACTION)
            return v

        a, b, c = (self._convert(v, f64).id for v in args)
        if fname == "fmaf":
            out = op(s.OpFAdd, op(s.OpFMul, a, b), c)
            return _Value(np.dtype(np.float32), r._cast(out, f64, np.dtype(np.float32)))
        split = r.const(134217729.0, f64)          # 2^27 + 1

        def halves(x: int) -> tuple[int, int]:
            t = op(s.OpFMul, split, x)
            hi = op(s.OpFSub, t, op(s.OpFSub, t, x))
            return hi, op(s.OpFSub, x, hi)

        p = op(s.OpFMul, a, b)
        ah, al = halves(a)
        bh, bl = halves(b)
        e = op(s.OpFAdd, op(s.OpFAdd, op(s.OpFAdd, op(s.OpFSub, op(s.OpFMul, ah, bh), p),
                                         op(s.OpFMul, ah, bl)), op(s.OpFMul, al, bh)),
               op(s.OpFMul, al, bl))
        return _Value(f64, op(s.OpFAdd, op(s.OpFAdd, p, c), e))

    # -- expressions -------------------------------------------------------------------------
    def _expr(self, src: _Source, env: dict[str, _Value], toks: list[str]) -> _Value:
        p = _Parser(self, src, env, toks)
        v = p.ternary()
        if p.i != len(toks):
            raise ValueError(f"c_math translation: trailing {' '.join(toks[p.i:])!r}")
        return v

    def _truth(self, v: _Value) -> int:
        """A C truth value (bool, or an int compared with 0) as a SPIR-V bool."""
        if v.ctype == BOOL:
            return v.id
        r = self.r
        zero = r.const(0, v.ctype)
        op = s.OpFUnordNotEqual if v.ctype.kind == "f" else s.OpINotEqual
        return r.m.value(op, r.t(BOOL), v.id, zero)

    def _convert(self, v: _Value, ctype: Any) -> _Value:
        if v.fields is not None or v.ctype == ctype or isinstance(ctype, str):
            return v
        r = self.r
        if v.ctype == BOOL:
            return _Value(ctype, r.m.value(s.OpSelect, r.t(ctype), v.id, r.const(1, ctype),
                                           r.const(0, ctype)))
        return _Value(ctype, r._cast(v.id, v.ctype, ctype))

    def _common(self, a: _Value, b: _Value) -> tuple[_Value, _Value]:
        """C's usual arithmetic conversions (for the types c_math uses)."""
        ta = a.ctype if a.ctype != BOOL else np.dtype(np.int32)
        tb = b.ctype if b.ctype != BOOL else np.dtype(np.int32)
        if ta.kind == "f" or tb.kind == "f":
            t = max((x for x in (ta, tb) if x.kind == "f"), key=lambda x: x.itemsize)
        elif ta.itemsize != tb.itemsize:
            t = ta if ta.itemsize > tb.itemsize else tb
        else:
            t = ta if ta.kind == "u" else tb
        return self._convert(a, t), self._convert(b, t)


class _Parser:
    """Precedence climbing over one expression's tokens, emitting as it goes."""

    _BINARY = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
               ("<<", ">>"), ("+", "-"), ("*", "/", "%")]

    def __init__(self, t: Translator, src: _Source, env: dict[str, _Value],
                 toks: list[str]) -> None:
        self.t, self.src, self.env, self.toks, self.i = t, src, env, toks, 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expect: str | None = None) -> str:
        tok = self.toks[self.i]
        if expect is not None and tok != expect:
            raise ValueError(f"c_math translation: expected {expect!r}, got {tok!r}")
        self.i += 1
        return tok

    def ternary(self) -> _Value:
        cond = self.binary(0)
        if self.peek() != "?":
            return cond
        self.take("?")
        a = self.ternary()
        self.take(":")
        b = self.ternary()
        a, b = self.t._common(a, b)
        r = self.t.r
        return _Value(a.ctype, r.m.value(s.OpSelect, r.t(a.ctype), self.t._truth(cond),
                                         a.id, b.id))

    def binary(self, level: int) -> _Value:
        if level == len(self._BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self._BINARY[level]:
            op = self.take()
            right = self.binary(level + 1)
            left = self.apply(op, left, right)
        return left

    def apply(self, op: str, a: _Value, b: _Value) -> _Value:
        t = self.t
        r = t.r
        m = r.m
        if op in ("&&", "||"):
            code = s.OpLogicalAnd if op == "&&" else s.OpLogicalOr
            return _Value(BOOL, m.value(code, r.t(BOOL), t._truth(a), t._truth(b)))
        if op in ("<<", ">>"):
            ta = a.ctype if a.ctype != BOOL else np.dtype(np.int32)
            a = t._convert(a, ta)
            b = t._convert(b, ta)
            if op == "<<":
                code = s.OpShiftLeftLogical
            else:
                code = s.OpShiftRightArithmetic if ta.kind == "i" else s.OpShiftRightLogical
            return _Value(ta, m.value(code, r.t(ta), a.id, b.id))
        a, b = t._common(a, b)
        dt = a.ctype
        cmp = {"<": s.Op.CMPLT, "<=": s.Op.CMPLE, "==": s.Op.CMPEQ, "!=": s.Op.CMPNE}
        if op in cmp or op in (">", ">="):
            if op in (">", ">="):
                a, b = b, a
                op = "<" if op == ">" else "<="
            fake = s.Instr(cmp[op], BOOL, (0, 1))
            return _Value(BOOL, r._alu(fake, [a.id, b.id], [dt, dt]))
        ops = {"+": s.Op.ADD, "-": s.Op.SUB, "*": s.Op.MUL, "&": s.Op.AND, "|": s.Op.OR,
               "^": s.Op.XOR}
        if op in ops:
            fake = s.Instr(ops[op], dt, (0, 1))
            return _Value(dt, r._alu(fake, [a.id, b.id], [dt, dt]))
        if op == "/":
            if dt.kind == "f":
                return _Value(dt, m.value(s.OpFDiv, r.t(dt), a.id, b.id))
            code = s.OpSDiv if dt.kind == "i" else s.OpUDiv
            return _Value(dt, m.value(code, r.t(dt), a.id, b.id))
        raise ValueError(f"c_math translation: operator {op!r}")

    def unary(self) -> _Value:
        tok = self.peek()
        t = self.t
        r = t.r
        if tok == "-":
            self.take()
            v = self.unary()
            dt = v.ctype if v.ctype != BOOL else np.dtype(np.int32)
            v = t._convert(v, dt)
            code = s.OpFNegate if dt.kind == "f" else s.OpSNegate
            return _Value(dt, r.m.value(code, r.t(dt), v.id))
        if tok == "+":
            self.take()
            return self.unary()
        if tok == "!":
            self.take()
            return _Value(BOOL, r.m.value(s.OpLogicalNot, r.t(BOOL), t._truth(self.unary())))
        if tok == "~":
            self.take()
            v = self.unary()
            return _Value(v.ctype, r.m.value(s.OpNot, r.t(v.ctype), v.id))
        if tok == "(" and self.toks[self.i + 1] in _TYPES and self.toks[self.i + 2] == ")":
            self.take()
            ctype = _TYPES[self.take()]
            self.take(")")
            return t._convert(self.unary(), ctype)
        return self.postfix()

    def postfix(self) -> _Value:
        v = self.primary()
        while self.peek() == ".":
            self.take()
            v = v.fields[self.take()]
        return v

    def primary(self) -> _Value:
        tok = self.take()
        t = self.t
        if tok == "(":
            v = self.ternary()
            self.take(")")
            return v
        if tok[0].isdigit():
            return self.number(tok)
        if self.peek() == "(":
            self.take()
            args = []
            while self.peek() != ")":
                args.append(self.ternary())
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return t._inline(self.src, tok, args)
        if tok in self.env:
            return self.env[tok]
        if tok in ("INFINITY", "NAN"):        # (<math.h>'s float constants)
            dt = np.dtype(np.float32)
            return _Value(dt, t.r.const(np.inf if tok == "INFINITY" else np.nan, dt))
        raise ValueError(f"c_math translation: unknown name {tok!r}")

    def number(self, tok: str) -> _Value:
        r = self.t.r
        low = tok.lower()
        if "p" in low or "." in low or ("e" in low and not low.startswith("0x")):
            f32 = low.endswith("f")
            text = tok[:-1] if f32 else tok
            value = float.fromhex(text) if low.startswith("0x") else float(text)
            dt = np.dtype(np.float32 if f32 else np.float64)
            return _Value(dt, r.const(value, dt))
        text = low.rstrip("ul")
        value = int(text, 16) if text.startswith("0x") else int(text)
        unsigned = "u" in low[len(text):]
        dt = np.dtype(np.uint32 if unsigned else np.int32)
        if value >= 2 ** 31:
            dt = np.dtype(np.uint32 if value < 2 ** 32 and unsigned else np.int64)
        return _Value(dt, r.const(value, dt))
