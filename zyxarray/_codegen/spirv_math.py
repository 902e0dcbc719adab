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

``complex_vec``'s helpers (complex numbers as a struct of ``x``, ``y``) also have ``if``/
``else``, blocks, early ``return`` and one counted ``for`` loop with ``break``. They are
translated by predication, still as straight-line code: both sides of an ``if`` are
evaluated and the names either side assigns are merged with ``OpSelect`` on the condition;
a ``return`` records its value under a "returned" flag that later returns respect; the loop
is unrolled, a "broke" flag keeping later iterations from assigning. The libm names those
bodies call (``exp``, ``atan2``, ``hypot``, ``isnan``, ...) are the renderer's own float
operations, of the argument's type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from . import c_math, complex_vec
from . import spirv as s  # (spirv imports this module first: names are read at call time)
from .ir import Op

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
    return _parse(c_math.preamble([(name, suffix)]))


@cache
def _complex_source(name: str, part: str) -> _Source:
    """The parsed complex_vec helper ``name`` for component type ``part``, its callees."""
    text = f"typedef struct {{ {part} x, y; }} {_VEC};\n" + complex_vec.source(
        [name], part, vec=_VEC, make="zx__mk({0}, {1})", prefix="static inline")
    return _parse(text)


def _parse(text: str) -> _Source:
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


#: the libm names complex_vec's bodies call (overloaded on float and double) -> the IR op
#: the renderer computes them with (fmax/fmin are C's, built here)
_OVERLOADED = {name: Op[name.upper()] for name in (
    "exp", "expm1", "log", "log1p", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asinh",
    "atan2", "hypot", "isnan", "isinf", "isfinite", "signbit")}
_OVERLOADED.update(fmax=None, fmin=None)  # type: ignore[arg-type]
#: the struct that stands for complex_vec's vector type, and its constructor
_VEC = "zx__cv"


class _State:
    """Where a predicated translation stands: the names' values, whether (where) the function
    has returned and what, whether (where) the loop has been left by ``break``."""

    def __init__(self, env: dict[str, _Value | None]) -> None:
        self.env = env
        self.done: bool | int = False      # True, False, or a bool id
        self.ret: _Value | None = None
        self.brk: bool | int = False
        self.declared: list[dict[str, _Value | None]] = [{}]   # per block: what it hides

    def copy(self) -> _State:
        out = _State(dict(self.env))
        out.done, out.ret, out.brk = self.done, self.ret, self.brk
        out.declared = [dict(d) for d in self.declared]
        return out


def _matching(toks: list[str], i: int) -> int:
    """The index of the bracket closing ``toks[i]``."""
    pairs = {"(": ")", "{": "}"}
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == toks[i]:
            depth += 1
        elif toks[j] == pairs[toks[i]]:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"c_math translation: unbalanced {toks[i]!r}")


def _statement_end(toks: list[str], i: int) -> int:
    """The index just past the statement that starts at ``toks[i]``."""
    if toks[i] == "{":
        return _matching(toks, i) + 1
    if toks[i] in ("if", "for"):
        j = _statement_end(toks, _matching(toks, i + 1) + 1)
        if toks[i] == "if" and j < len(toks) and toks[j] == "else":
            j = _statement_end(toks, j + 1)
        return j
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] in "({":
            depth += 1
        elif toks[j] in ")}":
            depth -= 1
        elif toks[j] == ";" and depth == 0:
            return j + 1
    raise ValueError(f"c_math translation: no ';' after {' '.join(toks[i:i + 8])!r}")


def _split_commas(toks: list[str]) -> list[list[str]]:
    """``toks`` split at the commas outside parentheses."""
    out: list[list[str]] = [[]]
    depth = 0
    for tok in toks:
        if tok == "," and depth == 0:
            out.append([])
            continue
        depth += tok == "("
        depth -= tok == ")"
        out[-1].append(tok)
    return out


class Translator:
    """Inlines c_math's helpers into a ``SpirvRenderer``'s function body."""

    def __init__(self, renderer: Any) -> None:
        self.r = renderer
        self._in_reduce = False      # (translating the reduction _trig_reduce wraps)

    def complex_call(self, name: str, dtype: np.dtype, args: list[tuple[int, np.dtype]]
                     ) -> tuple[int, np.dtype]:
        """complex_vec's ``name`` for complex ``dtype`` on ``args`` ((id, dtype) pairs, a
        complex one a two-component vector); the result's id and dtype (a vector for a
        complex result, bool for a predicate)."""
        r = self.r
        m = r.m
        part = "float" if dtype == np.complex64 else "double"
        pdt = _TYPES[part]
        src = _complex_source(name, part)
        values = []
        for v, dt in args:
            if dt.kind == "c":
                values.append(_Value(_VEC, fields={
                    f: _Value(pdt, m.value(s.OpCompositeExtract, r.t(pdt), v, k))
                    for k, f in enumerate("xy")}))
            else:
                values.append(_Value(dt, v))
        out = self._inline(src, complex_vec.fn_name(name, part), values)
        if out.fields is not None:
            return m.value(s.OpCompositeConstruct, r.t(dtype), out.fields["x"].id,
                           out.fields["y"].id), dtype
        if out.ctype == np.int32:          # (a predicate)
            return self._truth(out), BOOL
        return out.id, out.ctype

    def call(self, name: str, suffix: str, args: list[int]) -> int:
        """The SPIR-V value of c_math's ``name`` (``suffix`` "f32"/"f64") on ``args``: a call
        of the module's function for it, made by the first call (a kernel that computes exp
        five times translates it once; the driver inlines as it likes)."""
        r = self.r
        m = r.m
        dt = np.dtype(np.float32 if suffix == "f32" else np.float64)
        fn = r.math_functions.get((name, suffix))
        if fn is None:
            fn = self._define(name, suffix, dt, len(args))
        return m.value(s.OpFunctionCall, r.t(dt), fn, *args)

    def _define(self, name: str, suffix: str, dt: np.dtype, nargs: int) -> int:
        """A function of the module computing c_math's ``name`` (its body the inlined
        translation), recorded in ``r.math_functions``."""
        r = self.r
        m = r.m
        t = r.t(dt)
        fn_type = m.type(s.OpTypeFunction, t, *([t] * nargs))
        fn = m.id()
        outer = m.code
        m.code = []
        try:
            m.op(s.OpFunction, t, fn, 0, fn_type)
            params = []
            for _ in range(nargs):
                p = m.id()
                m.op(s.OpFunctionParameter, t, p)
                m.value_types[p] = t
                params.append(_Value(dt, p))
            m.op(s.OpLabel, m.id())
            out = self._inline(_source(name, suffix), c_math.c_name(name, suffix), params)
            m.op(s.OpReturnValue, self._convert(out, dt).id)
            m.op(s.OpFunctionEnd)
            body = m.code
        finally:
            m.code = outer
        m.functions += body
        r.math_functions[(name, suffix)] = fn
        return fn

    # -- functions and statements ------------------------------------------------------------
    def _inline(self, src: _Source, fname: str, args: list[_Value]) -> _Value:
        special = self._builtin(fname, args, src)
        if special is not None:
            return special
        if fname in ("zx__trig_reduce_f64", "zx__trig_reduce_f32") and \
                not self._in_reduce:
            return self._trig_reduce(src, fname, args[0])
        fn = src.funcs.get(fname)
        if fn is None:
            raise ValueError(f"c_math translation: no function {fname}")
        st = _State({})
        for (pname, ptype), a in zip(fn.params, args):
            st.env[pname] = self._convert(a, self._ctype(ptype, src))
        self._run(src, fn.body, 0, len(fn.body), st)
        if st.ret is None or st.done is not True:
            raise ValueError(f"c_math translation: {fname} may end without a return")
        return self._convert(st.ret, self._ctype(fn.ret, src))

    def _trig_reduce(self, src: _Source, fname: str, x: _Value) -> _Value:
        """c_math's argument reduction for sin/cos/tan, whose results it clamps beyond
        |x| = 2^51 (2^50 for float32), with the renderer's Payne-Hanek reduction there
        (libm's answer for huge arguments, as the cpu device's libm and the GPU builtins
        give)."""
        r = self.r
        m = r.m
        self._in_reduce = True
        try:
            near = self._inline(src, fname, [x])
        finally:
            self._in_reduce = False
        f64, b = np.dtype(np.float64), r.t(BOOL)
        wide = self._convert(x, f64).id
        hi, lo, q = r._payne_hanek(wide)
        ax = r._glsl(s.GLSL_FABS, r.t(f64), wide)
        limit = 2.0 ** (51 if fname.endswith("f64") else 50)
        huge = m.value(s.OpLogicalAnd, b, m.value(s.OpFOrdGreaterThan, b, ax, r.const(limit, f64)),
                       m.value(s.OpLogicalNot, b, m.value(s.OpIsInf, b, ax)))
        fields = dict(src.structs[near.ctype])
        if fname.endswith("f32"):
            f32 = np.dtype(np.float32)
            rh = r._cast(hi, f64, f32)
            rest = m.value(s.OpFAdd, r.t(f64), m.value(s.OpFSub, r.t(f64), hi, r._cast(
                rh, f32, f64)), lo)
            far = {"hi": _Value(f32, rh), "lo": _Value(f32, r._cast(rest, f64, f32)),
                   "q": _Value(np.dtype(np.uint32), r._cast(q, np.dtype(np.uint64),
                                                          np.dtype(np.uint32)))}
        else:
            far = {"hi": _Value(f64, hi), "lo": _Value(f64, lo),
                   "q": _Value(np.dtype(np.uint64), q)}
        assert set(fields) == set(far), fields
        out = {name: self._select(huge, far[name], near.fields[name]) for name in fields}
        return _Value(near.ctype, fields=out)

    # -- statements (predicated: see the module's docstring) ---------------------------------
    def _run(self, src: _Source, toks: list[str], i: int, end: int, st: _State) -> None:
        """Executes the statements in ``toks[i:end]``."""
        while i < end and st.done is not True:      # (after a return: nothing runs)
            j = _statement_end(toks, i)
            self._statement(src, toks, i, j, st)
            i = j

    def _statement(self, src: _Source, toks: list[str], i: int, end: int, st: _State) -> None:
        tok = toks[i]
        if tok == "{":
            st.declared.append({})
            self._run(src, toks, i + 1, end - 1, st)
            for name, hidden in st.declared.pop().items():   # (the block's names end)
                if hidden is None:
                    st.env.pop(name, None)
                else:
                    st.env[name] = hidden
            return
        if tok == "if":
            close = _matching(toks, i + 1)
            cond = self._truth(self._expr(src, st.env, toks[i + 2:close]))
            then_end = _statement_end(toks, close + 1)
            then = st.copy()
            self._run(src, toks, close + 1, then_end, then)
            other = st.copy()
            if then_end < end and toks[then_end] == "else":
                self._run(src, toks, then_end + 1, end, other)
            self._merge(cond, then, other, st)
            return
        if tok == "for":
            close = _matching(toks, i + 1)
            head = toks[i + 2:close]
            # for (int NAME = A; NAME < B; NAME++): unrolled
            if len(head) != 12 or head[0] != "int" or head[2:5:2] != ["=", ";"] or \
                    head[6:11:2] != ["<", ";", "+"] or head[11] != "+" or \
                    not head[1] == head[5] == head[9]:
                raise ValueError(f"c_math translation: loop ({' '.join(head)})")
            name = head[1]
            outer_brk, st.brk = st.brk, False
            for k in range(int(head[3]), int(head[7])):
                st.env[name] = _Value(np.dtype(np.int32), self.r.const(k, np.int32))
                self._run(src, toks, close + 1, end, st)
            del st.env[name]
            st.brk = outer_brk
            return
        if tok == "break":
            st.brk = True
            return
        stmt = toks[i:end - 1]                 # (without its ";")
        if tok == "return":
            value = self._expr(src, st.env, stmt[1:])
            live = self._live(st, returns=True)
            st.ret = value if live is None or st.ret is None else \
                self._select(live, value, st.ret)
            if st.brk is not False:            # (returned unless the loop was left)
                r = self.r
                st.done = self._flag_or(st.done, r.m.value(s.OpLogicalNot, r.t(BOOL),
                                                           self._flag(st.brk)))
            else:
                st.done = True
            return
        if tok == "const":
            stmt = stmt[1:]
        if stmt[0] in _TYPES or stmt[0] in src.structs:
            ctype = self._ctype(stmt[0], src)
            for decl in _split_commas(stmt[1:]):
                name = decl[0]
                st.declared[-1].setdefault(name, st.env.get(name))
                if len(decl) == 1:             # declared, assigned later
                    st.env[name] = _Value(ctype, fields={}) if isinstance(ctype, str) else None
                    continue
                if decl[1] != "=":
                    raise ValueError(f"c_math translation: declaration {' '.join(decl)!r}")
                st.env[name] = self._convert(self._expr(src, st.env, decl[2:]), ctype)
            return
        # an assignment: name = e; name.field = e; or name op= e
        eq = stmt.index("=")
        target = stmt[:eq]
        value = self._expr(src, st.env, stmt[eq + 1:])
        if len(target) == 2:             # (a compound assignment: nf += ...)
            value = _Eval(self, src, st.env).apply(target[1], st.env[target[0]], value)
            target = target[:1]
        live = self._live(st, returns=False)
        if len(target) == 3 and target[1] == ".":
            struct = st.env[target[0]]
            ftype = dict(src.structs[struct.ctype])[target[2]]
            value = self._convert(value, self._ctype(ftype, src))
            old = struct.fields.get(target[2])
            fields = dict(struct.fields)
            fields[target[2]] = value if live is None or old is None else \
                self._select(live, value, old)
            st.env[target[0]] = _Value(struct.ctype, fields=fields)
        else:
            old = st.env[target[0]]
            ctype = old.ctype if old is not None else value.ctype
            value = self._convert(value, ctype)
            st.env[target[0]] = value if live is None or old is None else \
                self._select(live, value, old)

    def _live(self, st: _State, returns: bool) -> int | None:
        """Where an assignment (a return) still takes effect: a bool id, None for always."""
        flags = [st.brk] + ([st.done] if returns else [])
        if all(f is False for f in flags):
            return None
        r = self.r
        b = r.t(BOOL)
        either = flags[0]
        for f in flags[1:]:
            either = self._flag_or(either, f)
        return r.m.value(s.OpLogicalNot, b, self._flag(either))

    def _flag(self, f: bool | int) -> int:
        return self.r.m.bool_const(f) if isinstance(f, bool) else f

    def _flag_or(self, a: bool | int, b: bool | int) -> bool | int:
        if a is True or b is True:
            return True
        if a is False:
            return b
        if b is False:
            return a
        return self.r.m.value(s.OpLogicalOr, self.r.t(BOOL), a, b)

    def _select(self, cond: int, a: _Value, b: _Value) -> _Value:
        """``cond ? a : b`` for values and structs (field by field)."""
        if a is b:
            return a
        if a.fields is not None:
            fields = {}
            for name in a.fields.keys() | b.fields.keys():
                fa, fb = a.fields.get(name), b.fields.get(name)
                fields[name] = fb if fa is None else (fa if fb is None else
                                                      self._select(cond, fa, fb))
            return _Value(a.ctype, fields=fields)
        if a.id == b.id and a.ctype == b.ctype:
            return a
        a, b = self._common(a, b)
        r = self.r
        return _Value(a.ctype, r.m.value(s.OpSelect, r.t(a.ctype), cond, a.id, b.id))

    def _merge(self, cond: int, then: _State, other: _State, st: _State) -> None:
        """``st`` after ``if (cond) then else other``: each name, flag and the returned value
        as the condition picks."""
        for name, before in list(st.env.items()):
            a, b = then.env.get(name, before), other.env.get(name, before)
            st.env[name] = b if a is None else (a if b is None else self._select(cond, a, b))
        for flag in ("done", "brk"):
            fa, fb = getattr(then, flag), getattr(other, flag)
            if fa is fb:
                merged: bool | int = fa
            else:
                r = self.r
                merged = r.m.value(s.OpSelect, r.t(BOOL), cond, self._flag(fa), self._flag(fb))
            setattr(st, flag, merged)
        ra, rb = then.ret, other.ret
        st.ret = rb if ra is None else (ra if rb is None else self._select(cond, ra, rb))

    def _ctype(self, name: str, src: _Source) -> Any:
        return _TYPES.get(name, name)

    def _builtin(self, fname: str, args: list[_Value], src: _Source) -> _Value | None:
        """The pun, select and libm calls, as single instructions (or the renderer's own
        float operations)."""
        r = self.r
        m = r.m
        if fname == "zx__mk":                # complex_vec's vector of (x, y)
            fields = dict(src.structs[_VEC])
            return _Value(_VEC, fields={n: self._convert(a, _TYPES[fields[n]])
                                        for n, a in zip(("x", "y"), args)})
        if fname in _OVERLOADED:
            dt = max((a.ctype for a in args if a.ctype != BOOL and a.ctype.kind == "f"),
                     key=lambda d: d.itemsize)
            vals = [self._convert(a, dt) for a in args]
            if fname in ("fmax", "fmin"):     # C's: a NaN operand gives the other
                x, y = vals
                b = r.t(BOOL)
                code = s.OpFOrdGreaterThan if fname == "fmax" else s.OpFOrdLessThan
                pick = m.value(s.OpLogicalOr, b, m.value(code, b, x.id, y.id),
                               m.value(s.OpIsNan, b, y.id))
                return _Value(dt, m.value(s.OpSelect, r.t(dt), pick, x.id, y.id))
            op = _OVERLOADED[fname]
            out = BOOL if op in (Op.ISNAN, Op.ISINF, Op.ISFINITE, Op.SIGNBIT) else dt
            fake = s.Instr(op, out, tuple(range(len(vals))))
            return _Value(out, r._alu(fake, [v.id for v in vals], [dt] * len(vals)))
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
            if fname in ("sqrt", "fabs", "rint", "floor", "trunc") and \
                    args[0].ctype == np.float32:      # (complex_vec's overloaded calls)
                dt = args[0].ctype
            vals = [self._convert(a, dt) for a in args]
            return _Value(dt, r._glsl(glsl[fname], r.t(dt), *(v.id for v in vals)))
        if fname in ("copysign", "copysignf"):
            dt = np.dtype(np.float32 if fname == "copysignf" or
                          (args[0].ctype == np.float32 and args[1].ctype == np.float32)
                          else np.float64)
            a, b = (self._convert(v, dt) for v in args)
            fake = s.Instr(s.Op.COPYSIGN, dt, (0, 1))
            return _Value(dt, r._alu(fake, [a.id, b.id], [dt, dt]))
        return None

    def _fma(self, fname: str, args: list[_Value]) -> _Value:
        """a * b + c with the product's rounding error kept, without relying on the driver
        fusing GLSL's Fma (lavapipe does not: c_math's exact range reductions then fail).
        float32: in float64, where the product is exact (on a device without float64, as
        float64 is computed, in float32). float64: Dekker's product (a
        Veltkamp split) gives p + e == a * b exactly, then (p + c) + e; exact wherever c_math
        relies on it (the result is representable: a product's error, a reduction that
        cancels), one extra rounding in its polynomials."""
        r = self.r
        m = r.m
        f64 = np.dtype(np.float64)
        if all(a.ctype == np.float32 for a in args):      # (complex_vec's overloaded fma)
            fname = "fmaf"
        if fname == "fmaf" and not r.fp64:    # (no float64: Dekker's product in float32)
            f64 = np.dtype(np.float32)

        def op(code: int, x: int, y: int) -> int:
            v = m.value(code, r.t(f64), x, y)
            m.decorate(v, s.DEC_NO_CONTRACTION)
            return v

        fused = r.k.meta.get("fused_fma", (False, False))
        if fused[0 if fname == "fmaf" else 1]:      # (the driver's Fma rounds once)
            dt = np.dtype(np.float32 if fname == "fmaf" else np.float64)
            a, b, c = (self._convert(v, dt).id for v in args)
            return _Value(dt, r._glsl(s.GLSL_FMA, r.t(dt), a, b, c))
        a, b, c = (self._convert(v, f64).id for v in args)
        if fname == "fmaf" and r.fp64:
            out = op(s.OpFAdd, op(s.OpFMul, a, b), c)
            return _Value(np.dtype(np.float32), r._cast(out, f64, np.dtype(np.float32)))
        p = op(s.OpFMul, a, b)
        e = self.exact_product_error(a, b, p, f64)
        return _Value(f64, op(s.OpFAdd, op(s.OpFAdd, p, c), e))

    def exact_product_error(self, a: int, b: int, p: int, dtype: Any = None) -> int:
        """a * b - p exactly, for p the rounded product (Dekker: Veltkamp-split halves).

        The split multiplies by 2^27 + 1 (float32: 2^12 + 1), which overflows for operands
        above 2^995 (2^114): such an operand is split scaled down by 2^-28 (2^-13, exact)
        and the other operand's halves are scaled up by as much (exact: it is not that
        large, or the product is infinite). An infinite product has no error (0, as C's
        fma gives inf)."""
        r = self.r
        m = r.m
        dt = np.dtype(np.float64) if dtype is None else np.dtype(dtype)
        wide = dt.itemsize == 8
        split = r.const(134217729.0 if wide else 4097.0, dt)  # 2^27+1, 2^12+1
        limit = r.const(2.0 ** 995 if wide else 2.0 ** 114, dt)
        down = r.const(2.0 ** -28 if wide else 2.0 ** -13, dt)
        up = r.const(2.0 ** 28 if wide else 2.0 ** 13, dt)
        t_dt, t_b = r.t(dt), r.t(BOOL)

        def op(code: int, x: int, y: int) -> int:
            v = m.value(code, t_dt, x, y)
            m.decorate(v, s.DEC_NO_CONTRACTION)
            return v

        def sel(c: int, x: int, y: int) -> int:
            return m.value(s.OpSelect, t_dt, c, x, y)

        def halves(x: int, big: int) -> tuple[int, int]:
            xs = sel(big, op(s.OpFMul, x, down), x)
            t = op(s.OpFMul, split, xs)
            hi = op(s.OpFSub, t, op(s.OpFSub, t, xs))
            return hi, op(s.OpFSub, xs, hi)

        def scaled(pair: tuple[int, int], big: int) -> tuple[int, int]:
            return sel(big, op(s.OpFMul, pair[0], up), pair[0]), \
                sel(big, op(s.OpFMul, pair[1], up), pair[1])

        big_a, big_b = (m.value(s.OpFOrdGreaterThan, t_b, r._glsl(s.GLSL_FABS, t_dt, x), limit)
                        for x in (a, b))
        ah, al = scaled(halves(a, big_a), big_b)
        bh, bl = scaled(halves(b, big_b), big_a)
        e = op(s.OpFAdd, op(s.OpFAdd, op(s.OpFAdd, op(s.OpFSub, op(s.OpFMul, ah, bh), p),
                                       op(s.OpFMul, ah, bl)), op(s.OpFMul, al, bh)),
               op(s.OpFMul, al, bl))
        return sel(m.value(s.OpIsInf, t_b, p), r.const(0.0, dt), e)

    # -- expressions -------------------------------------------------------------------------
    def _expr(self, src: _Source, env: dict[str, _Value], toks: list[str]) -> _Value:
        return _Eval(self, src, env).eval(_parse_expr(tuple(toks)))

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


@cache
def _parse_expr(toks: tuple[str, ...]) -> tuple:
    """One expression's tokens as a tree (parsed once: kernels call the same helpers)."""
    p = _Parser(list(toks))
    tree = p.ternary()
    if p.i != len(toks):
        raise ValueError(f"c_math translation: trailing {' '.join(toks[p.i:])!r}")
    return tree


class _Parser:
    """Precedence climbing over one expression's tokens: a tree of tuples ("num", tok),
    ("name", tok), ("call", name, args), ("field", tree, name), ("cast", ctype, tree),
    ("unary", op, tree), ("bin", op, left, right), ("tern", cond, a, b)."""

    _BINARY = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
               ("<<", ">>"), ("+", "-"), ("*", "/", "%")]

    def __init__(self, toks: list[str]) -> None:
        self.toks, self.i = toks, 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expect: str | None = None) -> str:
        tok = self.toks[self.i]
        if expect is not None and tok != expect:
            raise ValueError(f"c_math translation: expected {expect!r}, got {tok!r}")
        self.i += 1
        return tok

    def ternary(self) -> tuple:
        cond = self.binary(0)
        if self.peek() != "?":
            return cond
        self.take("?")
        a = self.ternary()
        self.take(":")
        b = self.ternary()
        return ("tern", cond, a, b)

    def binary(self, level: int) -> tuple:
        if level == len(self._BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self._BINARY[level]:
            op = self.take()
            left = ("bin", op, left, self.binary(level + 1))
        return left

    def unary(self) -> tuple:
        tok = self.peek()
        if tok in ("-", "+", "!", "~"):
            self.take()
            inner = self.unary()
            return inner if tok == "+" else ("unary", tok, inner)
        if tok == "(" and self.toks[self.i + 1] in _TYPES and self.toks[self.i + 2] == ")":
            self.take()
            ctype = self.take()
            self.take(")")
            return ("cast", ctype, self.unary())
        v = self.primary()
        while self.peek() == ".":
            self.take()
            v = ("field", v, self.take())
        return v

    def primary(self) -> tuple:
        tok = self.take()
        if tok == "(":
            v = self.ternary()
            self.take(")")
            return v
        if tok[0].isdigit():
            return ("num", tok)
        if self.peek() == "(":
            self.take()
            args = []
            while self.peek() != ")":
                args.append(self.ternary())
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return ("call", tok, tuple(args))
        return ("name", tok)


class _Eval:
    """Emits an expression tree's instructions, left to right as C evaluates them here."""

    def __init__(self, t: Translator, src: _Source, env: dict[str, _Value]) -> None:
        self.t, self.src, self.env = t, src, env

    def eval(self, node: tuple) -> _Value:
        kind = node[0]
        t = self.t
        r = t.r
        if kind == "bin":
            left = self.eval(node[2])
            return self.apply(node[1], left, self.eval(node[3]))
        if kind == "name":
            tok = node[1]
            if tok in self.env:
                return self.env[tok]
            if tok in ("INFINITY", "NAN"):        # (<math.h>'s float constants)
                dt = np.dtype(np.float32)
                return _Value(dt, r.const(np.inf if tok == "INFINITY" else np.nan, dt))
            raise ValueError(f"c_math translation: unknown name {tok!r}")
        if kind == "num":
            return self.number(node[1])
        if kind == "call":
            args = [self.eval(a) for a in node[2]]
            return t._inline(self.src, node[1], args)
        if kind == "field":
            return self.eval(node[1]).fields[node[2]]
        if kind == "cast":
            return t._convert(self.eval(node[2]), _TYPES[node[1]])
        if kind == "unary":
            op, v = node[1], self.eval(node[2])
            if op == "-":
                dt = v.ctype if v.ctype != BOOL else np.dtype(np.int32)
                v = t._convert(v, dt)
                if dt.kind == "f" and dt.itemsize >= 4:
                    return _Value(dt, r.negate_float(r.t(dt), dt, v.id))
                code = s.OpFNegate if dt.kind == "f" else s.OpSNegate
                return _Value(dt, r.m.value(code, r.t(dt), v.id))
            if op == "!":
                return _Value(BOOL, r.m.value(s.OpLogicalNot, r.t(BOOL), t._truth(v)))
            return _Value(v.ctype, r.m.value(s.OpNot, r.t(v.ctype), v.id))      # ~
        # ("tern", cond, a, b)
        cond = self.eval(node[1])
        a, b = t._common(self.eval(node[2]), self.eval(node[3]))
        return _Value(a.ctype, r.m.value(s.OpSelect, r.t(a.ctype), t._truth(cond), a.id, b.id))

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
