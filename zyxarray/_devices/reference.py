"""The ``reference`` device: a NumPy interpreter of the kernel IR, the oracle of every backend.

Layer: ``_devices``. It must not import ``_codegen``: it reads the IR as plain data (op names
are strings), which keeps the layers pointing downward.

Loops are vectorized, not iterated: each open ``RANGE`` is one array axis, a value is an array
with one axis per loop it lives in (size 1 where it does not vary), and a mask marks the
iterations that exist (a loop's bounds may differ per outer iteration). Accumulator updates
are scattered with ``ufunc.at``, which is valid because combining is associative.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .base import COMPLETED, Buffer, Device, DeviceInfo, Event, MemoryPool, Program, byte_range

_REDUCE = {"ADD": np.add, "MUL": np.multiply, "MAX": np.maximum, "MIN": np.minimum,
           "OR": np.logical_or, "AND": np.logical_and}
_BOOL_REDUCE = {"ADD": np.logical_or, "MUL": np.logical_and}


def _int_pow(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = np.broadcast_arrays(a, b)
    neg = b < 0
    safe = np.where(neg, 0, b)
    out = np.power(a, safe)
    if neg.any():
        special = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 1, -1, 1), 0))
        out = np.where(neg, special.astype(out.dtype), out)
    return out


def _shift(a: np.ndarray, b: np.ndarray, left: bool) -> np.ndarray:
    bits = a.dtype.itemsize * 8
    big = (b < 0) | (b.astype(np.uint64, copy=False) >= bits) if b.dtype.kind == "i" else \
        b >= bits
    safe = np.where(big, 0, b).astype(a.dtype)
    out = np.left_shift(a, safe) if left else np.right_shift(a, safe)
    if left:
        fill = np.zeros((), a.dtype)
        return np.where(big, fill, out)
    fill = np.where(a < 0, -1, 0).astype(a.dtype) if a.dtype.kind == "i" else np.zeros((), a.dtype)
    return np.where(big, fill, out)


def _sign(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "c":
        m = np.abs(a)
        with np.errstate(all="ignore"):
            # divide each part by the (real) modulus: a complex division by m+0j overflows
            # for subnormal values (sign(1e-41j) would be nan+infj)
            safe = np.where(m == 0, 1, m)
            out = np.where(m == 0, 0, _complex(a.real / safe, a.imag / safe, a.dtype))
        return np.where(np.isnan(m), complex("nan+nanj"), out).astype(a.dtype)
    if a.dtype.kind == "f":
        return np.where(a > 0, 1, np.where(a < 0, -1, np.where(a == 0, 0, a))).astype(a.dtype)
    return np.sign(a)


def _floor_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.floor_divide(a, b)
    if a.dtype.kind == "f":
        # the standard's special cases: finite // inf and inf // finite are signed 0 and inf
        special = (np.isinf(b) & np.isfinite(a)) | (np.isinf(a) & np.isfinite(b))
        with np.errstate(divide="ignore"):
            out = np.where(special, a / b, out)     # inf // -0.0 is -inf, as in C
    return out


def _complex(re: np.ndarray, im: np.ndarray, dtype: np.dtype) -> np.ndarray:
    re, im = np.broadcast_arrays(re, im)
    out = np.empty(re.shape, dtype)
    out.real = re
    out.imag = im
    return out


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.true_divide(a, b)


def _minmax(op: Any, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return op(a, b)


_UNARY: dict[str, Any] = {
    "NEG": np.negative, "ABS": np.abs, "SQRT": np.sqrt, "EXP": np.exp, "EXPM1": np.expm1,
    "LOG": np.log, "LOG1P": np.log1p, "LOG2": np.log2, "LOG10": np.log10, "SIN": np.sin,
    "COS": np.cos, "TAN": np.tan, "ASIN": np.arcsin, "ACOS": np.arccos, "ATAN": np.arctan,
    "SINH": np.sinh, "COSH": np.cosh, "TANH": np.tanh, "ASINH": np.arcsinh,
    "ACOSH": np.arccosh, "ATANH": np.arctanh, "FLOOR": np.floor, "CEIL": np.ceil,
    "TRUNC": np.trunc, "ROUND": np.rint, "SIGN": _sign, "ISNAN": np.isnan, "ISINF": np.isinf,
    "ISFINITE": np.isfinite, "SIGNBIT": np.signbit, "REAL": np.real, "IMAG": np.imag,
    "CONJ": np.conj,
}
_BINARY: dict[str, Any] = {
    "ADD": np.add, "SUB": np.subtract, "MUL": np.multiply, "DIV": _div,
    "IDIV": _floor_divide, "MOD": np.remainder, "MAX": np.maximum, "MIN": np.minimum,
    "ATAN2": np.arctan2, "HYPOT": np.hypot, "COPYSIGN": np.copysign,
    "NEXTAFTER": np.nextafter, "LOGADDEXP": np.logaddexp, "CMPLT": np.less,
    "CMPLE": np.less_equal, "CMPEQ": np.equal, "CMPNE": np.not_equal, "AND": np.bitwise_and,
    "OR": np.bitwise_or, "XOR": np.bitwise_xor,
}


def _pad(v: np.ndarray, ndim: int) -> np.ndarray:
    """Give ``v`` trailing unit axes so it broadcasts against values of deeper loops."""
    return v.reshape(v.shape + (1,) * (ndim - v.ndim)) if v.ndim < ndim else v


class Interpreter:
    """Runs one ``Kernel`` (read as data) over host arrays."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel

    def run(self, bufs: list[np.ndarray], ints: list[int], floats: list[float]) -> None:
        ins = self.kernel.instrs
        vals: dict[int, Any] = {}
        extents: list[int] = []            # size of each open loop axis
        masks: list[np.ndarray] = [np.ones((), bool)]
        range_stack: list[int] = []
        acc_depth: dict[int, int] = {}
        # an empty buffer is 1 byte (the pool's minimum): trim to whole elements first
        typed = [b[:b.size - b.size % dt.itemsize].view(dt)
                 for b, (dt, _) in zip(bufs, self.kernel.buffers)]

        def full(v: np.ndarray) -> np.ndarray:
            return np.broadcast_to(_pad(v, len(extents)), tuple(extents))

        for i, x in enumerate(ins):
            op = x.op.value if hasattr(x.op, "value") else x.op
            a: list[Any] = [vals.get(s) for s in x.srcs]
            depth = len(extents)
            if op == "BUF":
                vals[i] = typed[x.arg[0]]
            elif op == "INT_ARG":
                vals[i] = np.array(ints[x.arg], np.int64)
            elif op == "FLOAT_ARG":
                vals[i] = np.array(floats[x.arg], np.float64)
            elif op == "CONST":
                vals[i] = np.array(x.arg, x.dtype)
            elif op == "RANGE":
                start, end = _pad(a[0], depth), _pad(a[1], depth)
                live = np.broadcast_to(masks[-1], np.broadcast_shapes(
                    masks[-1].shape, start.shape, end.shape))
                span = np.broadcast_to(end - start, live.shape)
                extent = int(span[live].max()) if live.any() else 0
                extent = max(extent, 0)
                step = np.arange(extent, dtype=np.int64).reshape((1,) * depth + (extent,))
                var = start[..., None] + step
                masks.append(_pad(masks[-1], depth + 1) & (var < end[..., None]))
                extents.append(extent)
                range_stack.append(i)
                vals[i] = var
            elif op == "IF":
                # (every iteration at once: the block's instructions run masked where the
                # condition holds)
                masks.append(_pad(masks[-1], depth) & _pad(a[0], depth))
                range_stack.append(i)
            elif op == "END":
                scope = ins[range_stack.pop()].op
                masks.pop()
                if getattr(scope, "value", scope) != "IF":
                    extents.pop()
            elif op == "LOAD":
                buf, idx = a[0], a[1]
                m = masks[-1] if len(a) == 2 else _pad(masks[-1], depth) & _pad(a[2], depth)
                idx_b, m_b = np.broadcast_arrays(_pad(idx, depth), _pad(m, depth))
                safe = np.where(m_b, idx_b, 0)
                if buf.size == 0:
                    vals[i] = np.zeros(safe.shape, buf.dtype)
                elif len(a) == 3:
                    vals[i] = np.where(m_b, buf[safe], np.zeros((), buf.dtype))
                else:
                    vals[i] = buf[safe]
            elif op == "STORE":
                buf, idx, val = a
                m = full(masks[-1])
                buf[full(idx)[m]] = full(val.astype(buf.dtype, copy=False))[m]
            elif op == "ACC":
                combine, lanes = x.arg
                ident = _identity(combine, x.dtype)
                # (float16 accumulates in float32 and is rounded once, as NumPy's sums do)
                vals[i] = np.full(tuple(extents) + (lanes,), ident,
                                  np.float32 if x.dtype == np.float16 else x.dtype)
                acc_depth[i] = depth
            elif op == "ACC_UPDATE":
                acc = vals[x.srcs[0]]
                d = acc_depth[x.srcs[0]]
                combine = ins[x.srcs[0]].arg[0]
                ufunc = _combiner(combine, acc.dtype)
                m = full(masks[-1])
                index = tuple(full(np.arange(extents[j]).reshape(
                    (1,) * j + (extents[j],)))[m] for j in range(d)) + (full(a[1])[m],)
                with np.errstate(all="ignore"):
                    ufunc.at(acc, index, full(a[2])[m])
            elif op == "ACC_SCAN":
                # the running value along the one loop inside the accumulator's scope: the
                # accumulator, then each iteration's value, combined in order
                acc = vals[x.srcs[0]]
                d = acc_depth[x.srcs[0]]
                combine = ins[x.srcs[0]].arg[0]
                ufunc = _combiner(combine, acc.dtype)
                lane = int(np.asarray(a[1]).reshape(-1)[0])
                m = full(masks[-1])
                ident = np.asarray(_identity(combine, x.dtype), x.dtype)
                v = np.where(m, full(a[2]).astype(x.dtype, copy=False), ident)
                start = acc[..., lane].astype(x.dtype)[..., None]
                with np.errstate(all="ignore"):
                    run = ufunc.accumulate(np.concatenate([start, v], axis=d), axis=d)[..., 1:]
                acc[..., lane] = run[..., -1] if run.shape[-1] else acc[..., lane]
                vals[i] = run
            elif op == "ACC_GET":
                acc = vals[x.srcs[0]]
                d = acc_depth[x.srcs[0]]
                lane = _pad(a[1], depth)
                # the lane may vary along fewer loops than the accumulator's own
                shape = np.broadcast_shapes(lane.shape,
                                            tuple(extents[:d]) + (1,) * (depth - d))
                index = tuple(np.broadcast_to(np.arange(extents[j]).reshape(
                    (1,) * j + (extents[j],) + (1,) * (depth - j - 1)), shape)
                    for j in range(d)) + (np.broadcast_to(lane, shape),)
                vals[i] = acc[index] if acc.size else np.zeros(shape, acc.dtype)
            elif op == "ACC_RESULT":
                acc = vals[x.srcs[0]]
                combine = ins[x.srcs[0]].arg[0]
                ufunc = _combiner(combine, acc.dtype)
                with np.errstate(all="ignore"):
                    vals[i] = ufunc.reduce(acc, axis=-1).astype(x.dtype, copy=False)
            else:
                vals[i] = self._alu(op, x.dtype, a)

    @staticmethod
    def _alu(op: str, dtype: np.dtype, a: list[np.ndarray]) -> np.ndarray:
        n = max(v.ndim for v in a)
        a = [_pad(v, n) for v in a]
        with np.errstate(all="ignore"):
            if op == "CAST":
                src = a[0]
                if dtype == np.bool_:
                    return src != 0          # complex: either component non-zero
                if src.dtype.kind == "c" and dtype.kind != "c":
                    src = src.real
                return src.astype(dtype)
            if op == "WHERE":
                return np.where(a[0], a[1], a[2]).astype(dtype, copy=False)
            if op == "NOT":
                return np.logical_not(a[0]) if a[0].dtype == np.bool_ else np.invert(a[0])
            if op in ("ADD", "SUB", "MUL") and a[0].dtype == np.bool_:
                fn = {"ADD": np.logical_or, "SUB": np.logical_xor, "MUL": np.logical_and}[op]
                return fn(a[0], a[1])
            if op == "POW":
                if a[0].dtype.kind in "iu":
                    return _int_pow(a[0], a[1]).astype(dtype, copy=False)
                out = np.power(a[0], a[1])
                if a[0].dtype.kind == "f":
                    # NumPy computes x ** 0.5 as sqrt(x), so (-inf) ** 0.5 is NaN; C99 Annex F
                    # and the standard say +inf (the other devices' pow does)
                    out = np.where(np.isneginf(a[0]) & (a[1] == 0.5), np.inf, out)
                return out.astype(dtype, copy=False)
            if op in ("SHL", "SHR"):
                return _shift(a[0], a[1], op == "SHL")
            if op == "COMPLEX":
                return _complex(a[0], a[1], dtype)
            if op == "BITCAST":
                return np.ascontiguousarray(a[0]).view(dtype)
            if op in _UNARY:
                out = _UNARY[op](a[0])
            else:
                out = _BINARY[op](a[0], a[1])
            return np.asarray(out).astype(dtype, copy=False)


def _combiner(combine: str, dtype: np.dtype) -> Any:
    """The ufunc that combines an accumulator of ``dtype`` (logical ones for bool)."""
    return (_BOOL_REDUCE.get(combine) if dtype == np.bool_ else None) or _REDUCE[combine]


def _identity(combine: str, dtype: np.dtype) -> Any:
    if combine == "ADD":
        return 0
    if combine == "MUL":
        return 1
    if combine == "OR":
        return False
    if combine == "AND":
        return True
    if dtype.kind == "f":
        return -np.inf if combine == "MAX" else np.inf
    if dtype.kind == "c":
        return complex(-np.inf, -np.inf) if combine == "MAX" else complex(np.inf, np.inf)
    if dtype == np.bool_:
        return combine == "MIN"
    info = np.iinfo(dtype)
    return info.min if combine == "MAX" else info.max


class ReferenceProgram(Program):
    def __init__(self, name: str, source: str, kernel: Any) -> None:
        super().__init__(name, source)
        self.interpreter = Interpreter(kernel)

    def __call__(self, buffers: list[Buffer], ints: list[int], floats: list[float]) -> Event:
        self.interpreter.run([b.handle for b in buffers], list(ints), list(floats))
        return COMPLETED


class ReferenceDevice(Device):
    """Interprets the IR with NumPy on host memory. Slow, simple, and the definition of right."""

    def __init__(self) -> None:
        self.info = DeviceInfo(name="reference", kind="reference", language="ir",
                               description="NumPy interpreter of the kernel IR",
                               compute_units=1, simd_lanes=4, style="loops")
        self.pool = MemoryPool("reference", lambda n: np.empty(n, np.uint8), lambda h: None, 0)

    def copy_in(self, buffer: Buffer, data: np.ndarray) -> None:
        src = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        buffer.handle[:src.size] = src

    def copy_out(self, buffer: Buffer, start: int = 0, stop: int | None = None,
                 while_waiting: Callable[[], object] | None = None,
                 into: np.ndarray | None = None) -> np.ndarray:
        if while_waiting is not None:
            while_waiting()
        start, stop = byte_range(buffer, start, stop)
        if into is not None:
            into[:] = buffer.handle[start:stop]
            return into
        view = buffer.handle[start:stop].view()
        view.flags.writeable = False
        return view

    def wrap_host(self, data: np.ndarray) -> Buffer:
        """A buffer over a contiguous host array's own memory (no copy; DLPack import)."""
        raw = data.reshape(-1).view(np.uint8)
        return Buffer(self, raw.nbytes, raw, pooled=False)

    def host_array(self, buffer: Buffer) -> np.ndarray:
        return buffer.handle[:buffer.nbytes]

    def compile(self, source: str, ir: Any) -> Program:
        return ReferenceProgram(ir.name, source, ir)


def discover() -> tuple[list[Device], list[str]]:
    return [ReferenceDevice()], []
