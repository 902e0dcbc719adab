"""A differential fuzzer: random programs run step by step with NumPy and with zyxarray on one
device, and every value compared, dtype by dtype, with tolerances that follow from the
operations (``tests/test_fuzz.py`` runs it; ``make fuzz`` runs a long campaign).

A *program* is a list of steps (plain tuples, so a failure prints as a list that a regression
test replays with ``run``). Each step reads values from a pool and adds one, or writes into
one: leaves of every dtype with edge values (signed zeros, infinities, NaN, integer extremes,
huge and tiny floats) and shapes with zero- and one-sized axes; elementwise operations with
broadcasting and Python scalars; casts; reductions over axes with ``keepdims``; ``matmul``;
views (slices with negative steps and offsets, integer indices, ``None``, transposes,
reshapes, flips); writes through views, in-place operators, element reads and writes (the C
hot path); observations in the middle (realizations of part of the graph); and exports to
NumPy by ``np.asarray`` and by DLPack, which are checked again at the end, after the rest of
the program has allocated and freed buffers (a buffer recycled under an export shows there).

Each pool value carries, besides NumPy's array, ``tol``: an absolute bound on how far
zyxarray's value may be from NumPy's, elementwise (0: exactly equal, infinity: unknown, not
compared), and ``sign``: whether a zero's sign must match. Operations that IEEE arithmetic
makes exact (``+ - * /`` in the dtype, comparisons, casts, integer arithmetic that wraps,
``max``/``min``) keep exact inputs exact; functions (``exp``, ``sin``...) allow a few ulps;
reductions allow for another summation order; inexact inputs propagate their bounds, and a
comparison, a rounding or a cast that an inexact input could flip is unknown. Views apply
the same indexing to ``tol`` and ``sign`` as to the values, so writes through views keep the
bounds of every aliasing value right.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

import zyxarray as xp
from zyxarray._devices import registry

Step = tuple

INTEGER = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
FLOAT = ("float16", "float32", "float64")
COMPLEX = ("complex64", "complex128")
DTYPES = ("bool", *INTEGER, *FLOAT, *COMPLEX)
SIDES = (0, 1, 2, 3, 5)

#: elementwise functions of one argument, by the dtypes they take ('b' bool, 'i' integers,
#: 'f' real floats, 'c' complex), and whether IEEE makes them exact (for real input)
UNARY = {
    "negative": ("ifc", True), "positive": ("ifc", True), "abs": ("ifc", True),
    "square": ("ifc", True), "sign": ("if", True), "conj": ("ifc", True),
    "floor": ("f", True), "ceil": ("f", True),
    "trunc": ("f", True), "round": ("f", True), "sqrt": ("f", True), "isnan": ("ifc", True),
    "isinf": ("ifc", True), "isfinite": ("ifc", True), "logical_not": ("b", True),
    "bitwise_invert": ("bi", True), "exp": ("f", False), "log": ("f", False),
    "sin": ("f", False), "cos": ("f", False), "tanh": ("f", False), "expm1": ("f", False),
    "log1p": ("f", False), "atan": ("f", False),
}
BINARY = {
    "add": "ifc", "subtract": "ifc", "multiply": "ifc", "divide": "fc", "maximum": "if",
    "minimum": "if", "equal": "bifc", "not_equal": "bifc", "less": "if", "less_equal": "if",
    "greater": "if", "greater_equal": "if", "logical_and": "b", "logical_or": "b",
    "logical_xor": "b", "bitwise_and": "bi", "bitwise_or": "bi", "bitwise_xor": "bi",
}
COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
REDUCTIONS = {"sum": "bifc", "prod": "if", "max": "bif", "min": "bif", "mean": "fc",
              "any": "bif", "all": "bif"}
INPLACE = {"add": "__iadd__", "subtract": "__isub__", "multiply": "__imul__"}


def _kind(dtype: np.dtype) -> str:
    return "b" if dtype == np.bool_ else dtype.kind if dtype.kind in "fc" else "i"


def _eps(dtype: np.dtype) -> float:
    return float(np.finfo(dtype).eps) if dtype.kind in "fc" else 0.0


def _wide(x: Any) -> np.ndarray:
    """Values as complex128 (complex input) or float64 (the rest), for bounds."""
    x = np.asarray(x)
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def _big(dtype: np.dtype) -> float:
    return float(np.finfo(dtype).max) if dtype.kind in "fc" else math.inf


@dataclass
class Value:
    ref: np.ndarray      # NumPy's value (a view of another value's where zyxarray's is)
    zyx: Any             # zyxarray's
    tol: np.ndarray      # float64, ref's shape: |zyx - ref| <= tol (inf: not compared)
    sign: np.ndarray     # bool, ref's shape: a zero's sign must match


def _fresh(ref: Any, zyx: Any, tol: Any, sign: Any) -> Value:
    """A new value (not a view): every parallel array C-contiguous, so views of it are alike."""
    ref = np.array(ref, order="C")         # (np.ascontiguousarray makes 0-d arrays 1-d)
    tol = np.array(np.broadcast_to(np.asarray(tol, np.float64), ref.shape), order="C")
    sign = np.array(np.broadcast_to(np.asarray(sign, bool), ref.shape), order="C")
    return Value(ref, zyx, tol, sign)


def _key(spec: Any) -> Any:
    """A basic index from its spelling in a step (tuples of ``("s", start, stop, step)``,
    ``("i", n)``, ``("n",)`` for None, ``("e",)`` for Ellipsis)."""
    out = []
    for s in spec:
        if s[0] == "s":
            out.append(slice(s[1], s[2], s[3]))
        elif s[0] == "i":
            out.append(s[1])
        elif s[0] == "n":
            out.append(None)
        else:
            out.append(Ellipsis)
    return tuple(out)


class Mismatch(AssertionError):
    pass


class Invalid(Exception):
    """NumPy refused the step: the drawing made a step no program can take (dropped)."""


def _np(fn: Any) -> Any:
    """NumPy's side of a step; its refusal marks the step invalid, not zyxarray wrong."""
    try:
        return fn()
    except Exception as e:
        raise Invalid(f"{type(e).__name__}: {e}") from e


class Program:
    """The pool and the steps run so far, on one device."""

    def __init__(self, device: str) -> None:
        self.device = device
        dev = registry.get(device)
        self.float64 = bool(dev.info.float64)
        self.host_memory = hasattr(dev, "host_array")
        self.flushes = False
        #: ulps a float32 quotient may be off: Vulkan allows OpFDiv 2.5 (no way to ask for a
        #: correctly rounded one, as OpenCL's -cl-fp32-correctly-rounded-divide-sqrt does);
        #: a Vulkan device with float64 divides in float64 and rounds once
        self.div_ulps = 3 if dev.info.kind == "vulkan" and not self.float64 else 0
        self.pool: list[Value | None] = []
        self.steps: list[Step] = []
        self.exports: list[tuple[np.ndarray, np.ndarray, np.ndarray, str]] = []

    # -- running ------------------------------------------------------------------------
    def apply(self, step: Step) -> bool:
        """Run ``step`` on both sides; False (and nothing done) where NumPy refuses it."""
        self.steps.append(step)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                getattr(self, "_" + step[0])(*step[1:])
                return True
            except Invalid:
                self.steps.pop()
                return False
            except Mismatch:
                raise
            except Exception as e:
                raise Mismatch(f"zyxarray raised {type(e).__name__}: {e}\n"
                               f"{self.describe()}") from e

    def live(self) -> list[int]:
        return [i for i, v in enumerate(self.pool) if v is not None]

    def _add(self, v: Value) -> None:
        if v.zyx.shape != v.ref.shape:
            raise Mismatch(f"shape {v.zyx.shape}, NumPy's {v.ref.shape}\n{self.describe()}")
        if np.dtype(v.zyx.dtype.np if hasattr(v.zyx.dtype, "np") else v.zyx.dtype) \
                != v.ref.dtype:
            raise Mismatch(f"dtype {v.zyx.dtype}, NumPy's {v.ref.dtype}\n{self.describe()}")
        if self.flushes and v.ref.dtype in (np.float32, np.complex64):
            # a subnormal result may be flushed to zero: later steps must allow for it too
            # (the comparison's own allowance does not travel: sqrt of a flushed 1.7e-41
            # is 0, not NumPy's 4.2e-21)
            tiny = np.finfo(np.float32).tiny
            mag = np.abs(v.ref.real) if v.ref.dtype.kind == "f" else np.maximum(
                np.abs(v.ref.real), np.abs(v.ref.imag))
            small = (mag > 0) & (mag < tiny) & (v.tol < tiny)
            if np.any(small):
                v.tol[...] = np.where(small, tiny, v.tol)
        self.pool.append(v)

    def _leaf(self, dtype: str, shape: tuple, values: list) -> None:
        ref = np.array(values, dtype=dtype).reshape(shape)
        zyx = xp.asarray(ref.copy(), device=self.device)
        self._add(_fresh(ref, zyx, 0.0, True))

    def _unary(self, name: str, i: int) -> None:
        v = self.pool[i]
        assert v is not None
        ref = _np(lambda: getattr(np, "invert" if name == "bitwise_invert" else name)(v.ref))
        zyx = getattr(xp, name)(v.zyx)
        tol, exact = _unary_bounds(name, v, ref)
        self._add(_fresh(ref, zyx, tol, v.sign & exact))

    def _cast(self, i: int, dtype: str) -> None:
        v = self.pool[i]
        assert v is not None
        ref = _np(lambda: v.ref.astype(dtype))
        zyx = xp.astype(v.zyx, getattr(xp, dtype))
        d = np.dtype(dtype)
        tol = np.where(np.isinf(v.tol), np.inf, v.tol + _eps(d) * np.abs(_wide(ref))
                       if d.kind in "fc" else v.tol)
        if d.kind in "fc" and v.ref.dtype.kind in "fc" and d.itemsize < v.ref.dtype.itemsize:
            # (rounded to fewer bits: exact inputs give correctly rounded results; near the
            # narrower type's overflow one side may round to inf)
            tol = np.where(np.abs(_wide(v.ref)) > _big(d) / 2, np.inf, tol)
        if d.kind not in "fc" and v.ref.dtype.kind == "f":
            # (a truncation an inexact input could move: unknown)
            lo, hi = np.trunc(v.ref - v.tol), np.trunc(v.ref + v.tol)
            tol = np.where((v.tol > 0) & (lo != hi), np.inf, tol)
        if d == np.bool_:
            tol = np.where((v.tol > 0) & (np.abs(_wide(v.ref)) <= v.tol), np.inf, tol)
        self._add(_fresh(ref, zyx, tol, v.sign))

    def _operand(self, j: Any) -> tuple[Any, Any, np.ndarray, np.ndarray]:
        """(NumPy's value, zyxarray's, tol, sign) of an operand: a pool index, or a Python
        scalar spelt ``("py", value)`` (exact, its zero's sign known)."""
        if isinstance(j, int):
            w = self.pool[j]
            assert w is not None
            return w.ref, w.zyx, w.tol, w.sign
        return j[1], j[1], np.zeros(()), np.ones((), bool)

    def _binary(self, name: str, i: int, j: Any, reflected: bool = False) -> None:
        v = self.pool[i]
        assert v is not None
        other_ref, other_zyx, other_tol, other_sign = self._operand(j)
        a_ref, b_ref = (other_ref, v.ref) if reflected else (v.ref, other_ref)
        a_zyx, b_zyx = (other_zyx, v.zyx) if reflected else (v.zyx, other_zyx)
        a_tol, b_tol = (other_tol, v.tol) if reflected else (v.tol, other_tol)
        ref = _np(lambda: getattr(np, name)(a_ref, b_ref))
        if isinstance(j, int):
            zyx = getattr(xp, name)(a_zyx, b_zyx)
        else:
            zyx = _operator(name, a_zyx, b_zyx)
        tol = _binary_bounds(name, a_ref, b_ref, a_tol, b_tol, ref)
        # (a zero's sign is known where both operands' are; max and min may pick either zero)
        sign = (v.sign & other_sign) & (name not in ("maximum", "minimum"))
        if name == "divide" and self.div_ulps and ref.dtype == np.float32:
            tol = tol + self.div_ulps * _eps(ref.dtype) * np.abs(_wide(ref))
        if name == "divide":            # (x / 0 is an infinity of the zero's sign)
            b_sign = other_sign if not reflected else v.sign
            with np.errstate(all="ignore"):
                zero = np.asarray(b_ref == 0) & ~np.asarray(b_sign)
            tol = np.where(zero, np.inf, tol)
        self._add(_fresh(ref, zyx, tol, sign))

    def _where(self, c: int, i: int, j: int) -> None:
        cv, v, w = self.pool[c], self.pool[i], self.pool[j]
        assert cv is not None and v is not None and w is not None
        ref = _np(lambda: np.where(cv.ref, v.ref, w.ref))
        zyx = xp.where(cv.zyx, v.zyx, w.zyx)
        tol = np.where(cv.ref, v.tol, w.tol)
        tol = np.where(np.isinf(cv.tol), np.inf, tol)
        self._add(_fresh(ref, zyx, tol, np.where(cv.ref, v.sign, w.sign)))

    def _reduce(self, name: str, i: int, axis: Any, keepdims: bool) -> None:
        v = self.pool[i]
        assert v is not None
        ax = tuple(axis) if isinstance(axis, list) else axis
        ref = _np(lambda: np.asarray(getattr(np, name)(v.ref, axis=ax, keepdims=keepdims)))
        zyx = getattr(xp, name)(v.zyx, axis=ax, keepdims=keepdims)
        tol = _reduce_bounds(name, v, ax, keepdims, ref)
        self._add(_fresh(ref, zyx, tol, False))

    def _matmul(self, i: int, j: int) -> None:
        v, w = self.pool[i], self.pool[j]
        assert v is not None and w is not None
        ref = _np(lambda: np.matmul(v.ref, w.ref))
        zyx = xp.matmul(v.zyx, w.zyx)
        if ref.dtype.kind in "fc":
            with np.errstate(all="ignore"):
                a, b = np.abs(_wide(v.ref)), np.abs(_wide(w.ref))
                k = v.ref.shape[-1]
                mag = np.matmul(a, b)
                ulps = (k + 2) * (4 if ref.dtype.kind == "c" else 1)
                tol = ulps * _eps(ref.dtype) * mag + np.matmul(v.tol, b) + \
                    np.matmul(a, w.tol) + np.finfo(ref.dtype).tiny * ulps
                tol = np.where(np.isfinite(tol) & (mag < _big(ref.dtype) / 4), tol, np.inf)
        else:
            tol = np.where(np.matmul(np.isinf(v.tol).astype(np.int64),
                                     np.ones(w.ref.shape, np.int64))
                           + np.matmul(np.ones(v.ref.shape, np.int64),
                                       np.isinf(w.tol).astype(np.int64)) > 0, np.inf, 0.0)
        self._add(_fresh(ref, zyx, tol, False))

    def _view(self, i: int, kind: str, arg: Any) -> None:
        v = self.pool[i]
        assert v is not None

        def on(a: Any, mod: Any) -> Any:
            if kind == "index":
                return a[_key(arg)]
            if kind == "T":
                return mod.permute_dims(a, tuple(arg)) if mod is xp else np.transpose(a, arg)
            if kind == "reshape":
                return a.reshape(tuple(arg))
            if kind == "flip":
                return mod.flip(a, axis=arg)
            raise ValueError(kind)

        ref = _np(lambda: on(v.ref, np))
        if isinstance(ref, np.generic):
            # every axis indexed by an integer: NumPy gives a scalar, the standard a new 0-d
            # array; either way a copy, which later views and writes share with nobody
            self._add(_fresh(ref, on(v.zyx, xp), on(v.tol, np), on(v.sign, np)))
            return
        self._add(Value(ref, on(v.zyx, xp), on(v.tol, np), on(v.sign, np)))

    def _write(self, i: int, key: Any, src: Any) -> None:
        v = self.pool[i]
        assert v is not None
        k = _key(key)
        if src[0] == "py":
            _np(lambda: v.ref.__setitem__(k, src[1]))
            v.zyx[k] = src[1]
            v.tol[k] = 0.0
            v.sign[k] = True
        else:
            w = self.pool[src[1]]
            assert w is not None
            # (the source as it was before the write: NumPy copies a source that overlaps
            # the destination first, except for a 1-D destination whose stride points the
            # source's way, where it copies element by element: ``a[:, -1] = a[1]`` of
            # arange(9).reshape(3, 3) gives column [3, 4, 4]; zyxarray gives [3, 4, 5])
            ref = w.ref.copy()
            _np(lambda: v.ref.__setitem__(k, ref))
            v.zyx[k] = w.zyx
            v.tol[k] = w.tol.copy()
            v.sign[k] = w.sign.copy()

    def _inplace(self, name: str, i: int, j: Any) -> None:
        v = self.pool[i]
        assert v is not None
        o_ref, o_zyx, o_tol, o_sign = self._operand(j)
        tol = _binary_bounds(name, v.ref, o_ref, v.tol, o_tol,
                             _np(lambda: getattr(np, name)(v.ref, o_ref)))
        _np(lambda: getattr(v.ref.copy(), INPLACE[name])(o_ref))
        getattr(v.ref, INPLACE[name])(o_ref)
        out = getattr(v.zyx, INPLACE[name])(o_zyx)
        if out is not v.zyx:
            raise Mismatch(f"{INPLACE[name]} returned another array\n{self.describe()}")
        v.tol[...] = tol
        v.sign[...] = v.sign & o_sign

    def _mask_write(self, i: int, c: int, value: Any) -> None:
        """``x[mask] = value`` for a boolean value of x's shape (NumPy's masked update)."""
        v, m = self.pool[i], self.pool[c]
        assert v is not None and m is not None
        if np.any(np.isinf(m.tol)) or np.shares_memory(m.ref, v.ref):
            raise Invalid("an unknown mask, or one that aliases the array written")
        _np(lambda: v.ref.__setitem__(m.ref, value))
        v.zyx[m.zyx] = value
        v.tol[m.ref] = 0.0
        v.sign[m.ref] = True

    def _take(self, i: int, indices: list) -> None:
        """``x[indices]``: integer-array indexing along the first axis (a gather, a copy)."""
        v = self.pool[i]
        assert v is not None
        idx = np.array(indices, np.int64)
        ref = _np(lambda: v.ref[idx])
        zyx = v.zyx[xp.asarray(idx, device=self.device)]
        self._add(_fresh(ref, zyx, v.tol[idx], v.sign[idx]))

    def _concat(self, i: int, j: int, axis: int) -> None:
        v, w = self.pool[i], self.pool[j]
        assert v is not None and w is not None
        ref = _np(lambda: np.concatenate([v.ref, w.ref], axis=axis))
        zyx = xp.concat([v.zyx, w.zyx], axis=axis)
        self._add(_fresh(ref, zyx, np.concatenate([v.tol, w.tol], axis=axis),
                         np.concatenate([v.sign, w.sign], axis=axis)))

    def _sort(self, i: int, axis: int) -> None:
        v = self.pool[i]
        assert v is not None
        if np.any(v.tol > 0):
            raise Invalid("sorting inexact values moves their bounds")
        ref = _np(lambda: np.sort(v.ref, axis=axis))
        zyx = xp.sort(v.zyx, axis=axis)
        self._add(_fresh(ref, zyx, 0.0, False))    # (the order of -0.0 and 0.0: unspecified)

    def _cumsum(self, i: int, axis: int) -> None:
        v = self.pool[i]
        assert v is not None
        ref = _np(lambda: np.cumulative_sum(v.ref, axis=axis))
        zyx = xp.cumulative_sum(v.zyx, axis=axis)
        if ref.dtype.kind in "fc":
            x = _wide(v.ref)
            with np.errstate(all="ignore"):
                mag = np.cumulative_sum(np.where(np.isfinite(x), np.abs(x), 0.0), axis=axis)
                n = v.ref.shape[axis] if v.ref.ndim else 1
                tol = (n + 2) * _eps(ref.dtype) * mag + np.cumulative_sum(v.tol, axis=axis)
                bad = (mag * (1 + 4 * n * _eps(ref.dtype)) >= _big(ref.dtype)) | np.isnan(tol)
                if ref.dtype.kind == "c":
                    bad = bad | np.cumulative_sum(~np.isfinite(x), axis=axis).astype(bool)
            tol = np.where(bad, np.inf, tol)
        else:
            tol = np.where(np.cumulative_sum(v.tol, axis=axis) > 0, np.inf, 0.0)
        self._add(_fresh(ref, zyx, tol, False))

    def _argmax(self, name: str, i: int, axis: Any) -> None:
        v = self.pool[i]
        assert v is not None
        if np.any(v.tol > 0):
            raise Invalid("ties and order of inexact values are unknown")
        ref = _np(lambda: np.asarray(getattr(np, name)(v.ref, axis=axis)))
        zyx = getattr(xp, name)(v.zyx, axis=axis)
        self._add(_fresh(ref, zyx, 0.0, False))

    def _element_write(self, i: int, idx: tuple, value: Any) -> None:
        v = self.pool[i]
        assert v is not None
        _np(lambda: v.ref.__setitem__(idx, value))
        v.zyx[idx] = value
        v.tol[idx] = 0.0
        v.sign[idx] = True

    def _element_read(self, i: int, idx: tuple) -> None:
        v = self.pool[i]
        assert v is not None
        ref = np.array(v.ref[idx])
        zyx = v.zyx[idx]
        self._add(_fresh(ref, zyx, v.tol[idx], v.sign[idx]))
        kind = _kind(ref.dtype)
        conv = {"b": bool, "i": int, "f": float, "c": complex}[kind]
        got, want = conv(zyx), conv(ref)
        if not _close(np.array(got, ref.dtype), np.array(want, ref.dtype),
                      np.asarray(v.tol[idx]), np.asarray(v.sign[idx]), self.flushes):
            raise Mismatch(f"{conv.__name__}(x[{idx}]) = {got!r}, NumPy's {want!r}\n"
                           f"{self.describe()}")

    def _observe(self, i: int) -> None:
        v = self.pool[i]
        assert v is not None
        self.check(i, v)

    def _observe_all(self) -> None:
        for i in self.live():
            v = self.pool[i]
            assert v is not None
            self.check(i, v)

    def _export(self, i: int, how: str) -> None:
        v = self.pool[i]
        assert v is not None
        if how == "dlpack":
            out = np.from_dlpack(v.zyx) if self.host_memory else \
                np.from_dlpack(v.zyx, device="cpu")
            # (NumPy's export shares memory: the values that share it leave the pool, so
            # that what is written later cannot legitimately change the export)
            for k, w in enumerate(self.pool):
                if w is not None and np.shares_memory(w.ref, v.ref):
                    self.pool[k] = None
        else:
            out = np.asarray(v.zyx)
        snapshot = v.ref.copy()
        self.exports.append((out, snapshot, v.tol.copy(), how))
        if not _close(out, snapshot, v.tol, v.sign, self.flushes):
            raise Mismatch(f"{how} export differs at once\n{self.describe()}")

    # -- checking -----------------------------------------------------------------------
    def check(self, i: int, v: Value) -> None:
        got = np.asarray(v.zyx)
        if got.dtype != v.ref.dtype or got.shape != v.ref.shape:
            raise Mismatch(f"value {i}: {got.dtype}{got.shape}, NumPy's "
                           f"{v.ref.dtype}{v.ref.shape}\n{self.describe()}")
        if not _close(got, v.ref, v.tol, v.sign, self.flushes):
            bad = ~_ok(got, v.ref, v.tol, v.sign, self.flushes)
            raise Mismatch(f"value {i} differs at {np.argwhere(bad)[:4].tolist()}: "
                           f"zyxarray {got[bad][:4].tolist()}, NumPy {v.ref[bad][:4].tolist()} "
                           f"(tolerance {v.tol[bad][:4].tolist()})\n{self.describe()}")

    def finish(self) -> None:
        """Compare every live value, then every export (after all the program's work)."""
        for i in self.live():
            v = self.pool[i]
            assert v is not None
            self.check(i, v)
        for k, (out, snapshot, tol, how) in enumerate(self.exports):
            if not _close(np.asarray(out), snapshot, tol, np.zeros(snapshot.shape, bool),
                          self.flushes):
                raise Mismatch(f"export {k} ({how}) changed after the program went on: "
                               f"{np.asarray(out).tolist()} != {snapshot.tolist()}\n"
                               f"{self.describe()}")

    def describe(self) -> str:
        lines = [f"device {self.device}; program (replay with tests.fuzzing.run):", "["]
        lines += [f"    {s!r}," for s in self.steps]
        return "\n".join([*lines, "]"])


def _operator(name: str, a: Any, b: Any) -> Any:
    """``a <op> b`` through Python's operators (a scalar operand: the weak-scalar path)."""
    import operator
    ops = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
           "divide": operator.truediv, "equal": operator.eq, "not_equal": operator.ne,
           "less": operator.lt, "less_equal": operator.le, "greater": operator.gt,
           "greater_equal": operator.ge, "bitwise_and": operator.and_,
           "bitwise_or": operator.or_, "bitwise_xor": operator.xor}
    if name in ops:
        return ops[name](a, b)
    return getattr(xp, name)(a, b)


# -- bounds ----------------------------------------------------------------------------------
#: the exact unary functions whose complex results are rounded (several operations each)
_COMPLEX_ROUNDED = ("abs", "square")


def _unary_bounds(name: str, v: Value, ref: np.ndarray) -> tuple[np.ndarray, Any]:
    exact = UNARY[name][1] and not (v.ref.dtype.kind == "c" and name in _COMPLEX_ROUNDED)
    x = _wide(v.ref)
    if ref.dtype.kind not in "fc":
        return np.where(v.tol > 0, np.inf, 0.0), True     # (a predicate of an inexact value)
    out = _wide(ref)
    mag = np.abs(out)
    eps = _eps(ref.dtype)
    tol = np.zeros(ref.shape)
    if not exact:
        # a few ulps of the result; unknown near overflow (one side may round to inf)
        tol = 8 * eps * mag + np.finfo(ref.dtype).tiny * 8
        if name in ("sin", "cos"):       # (an argument's reduction: its own ulps count too)
            tol = tol + 8 * eps * np.minimum(np.abs(x), 1e6)
        if name in ("log", "log1p", "atan", "tanh", "expm1"):
            tol = tol + 4 * eps * mag
        if name == "square":
            tol = tol + 4 * eps * np.abs(x) ** 2
    if np.any(v.tol > 0):
        with np.errstate(all="ignore"):
            t = v.tol
            if v.ref.dtype.kind == "c" or name in ("sin", "cos", "abs", "negative",
                                                   "positive", "conj"):
                spread = t if name != "square" else 2 * np.abs(x) * t + t * t
            else:
                f = getattr(np, name)
                spread = np.maximum(np.abs(f(x - t) - out), np.abs(f(x + t) - out))
                if name in ("floor", "ceil", "trunc", "round", "sign"):
                    spread = np.where(f(x - t) != f(x + t), np.inf, 0.0)
        tol = np.where(v.tol > 0, tol + spread + eps * mag, tol)
    with np.errstate(invalid="ignore"):
        tol = np.where(np.isnan(tol) | np.isinf(v.tol) | (~exact & (mag > _big(ref.dtype) / 4)),
                       np.inf, tol)
    return tol, exact


def _binary_bounds(name: str, a: Any, b: Any, ta: Any, tb: Any, ref: np.ndarray) -> np.ndarray:
    a, b = _wide(a), _wide(b)
    ta = np.asarray(ta, np.float64)
    tb = np.asarray(tb, np.float64)
    zero = np.zeros(ref.shape)
    unknown = np.isinf(ta) | np.isinf(tb)
    inexact = (ta > 0) | (tb > 0)
    with np.errstate(all="ignore"):
        if name in COMPARISONS:
            diff = np.abs(a - b)
            close = (diff <= ta + tb) | np.isnan(diff)
            return np.where(unknown | (inexact & close), np.inf, 0.0) + zero
        if ref.dtype.kind not in "fc":
            return np.where(inexact, np.inf, 0.0) + zero
        am, bm = np.abs(a), np.abs(b)
        eps = _eps(ref.dtype)
        r = np.abs(_wide(ref))
        complex_op = ref.dtype.kind == "c" and name in ("multiply", "divide")
        if name in ("add", "subtract"):
            tol = ta + tb
        elif name == "multiply":
            tol = am * tb + bm * ta + ta * tb
        elif name == "divide":
            tol = np.where(bm > tb, (am * tb + bm * ta) / (bm * np.maximum(bm - tb, 1e-300)),
                           np.inf)
        else:                           # maximum, minimum
            tol = np.maximum(ta, tb)
        tol = np.where(inexact, tol + eps * r, 0.0)
        if complex_op:                  # (several roundings, another formula: a few ulps)
            scale = am * bm if name == "multiply" else np.where(bm > 0, am / bm, np.inf)
            tol = tol + 8 * eps * scale + 8 * np.finfo(ref.dtype).tiny
            # components whose products over- or underflow: each formula (textbook, Smith's,
            # scaled) loses them differently
            lo, hi = math.sqrt(np.finfo(ref.dtype).tiny) * 4, math.sqrt(_big(ref.dtype)) / 4
            extreme = np.zeros(np.broadcast_shapes(a.shape, b.shape), bool)
            for z in (a, b):
                for part in (np.abs(z.real), np.abs(z.imag)):
                    extreme = extreme | (part > hi) | ((part != 0) & (part < lo))
            unknown = unknown | ~np.isfinite(a) | ~np.isfinite(b) | extreme | \
                (scale > _big(ref.dtype) / 16)
        tol = np.where(unknown | np.isnan(tol) | ((inexact | complex_op) &
                                                  (r > _big(ref.dtype) / 4)), np.inf, tol)
    return tol + zero


def _reduce_bounds(name: str, v: Value, axis: Any, keepdims: bool,
                   ref: np.ndarray) -> np.ndarray:
    unknown = np.any(np.isinf(v.tol), axis=axis, keepdims=keepdims)
    n = v.ref.size // max(ref.size, 1) if v.ref.size else 0
    if name in ("max", "min", "any", "all") or ref.dtype.kind not in "fc":
        if ref.dtype.kind == "f" and name in ("max", "min"):
            tol = np.max(v.tol, axis=axis, keepdims=keepdims, initial=0.0)
        else:
            inexact = np.any(v.tol > 0, axis=axis, keepdims=keepdims)
            tol = np.where(inexact, np.inf, 0.0)
        return np.where(unknown, np.inf, tol)
    x = _wide(v.ref)
    with np.errstate(all="ignore"):
        finite = np.where(np.isfinite(x), np.abs(x), 0.0)
        special = np.any(~np.isfinite(x), axis=axis, keepdims=keepdims)
    eps = _eps(ref.dtype)
    big = _big(ref.dtype)
    with np.errstate(all="ignore"):
        if name in ("sum", "mean"):
            mag = np.sum(finite, axis=axis, keepdims=keepdims)
            tol = (n + 2) * eps * mag + np.sum(v.tol, axis=axis, keepdims=keepdims)
            if name == "mean":
                tol = tol / max(n, 1) + eps * np.abs(_wide(ref))
            overflow = mag * (1 + 4 * n * eps) >= big
            if ref.dtype.kind == "c":   # (inf and nan parts combine by order: not compared)
                overflow = overflow | special
        else:                               # prod
            mag = np.prod(np.maximum(finite, 1.0), axis=axis, keepdims=keepdims)
            small = np.any((finite != 0) & (finite < 2.0 ** -20), axis=axis, keepdims=keepdims)
            tol = (n + 2) * eps * np.abs(_wide(ref))
            overflow = (mag >= big / 4) | small | np.any(v.tol > 0, axis=axis,
                                                         keepdims=keepdims)
        tol = np.where(overflow | unknown | np.isnan(tol), np.inf, tol)
    return np.asarray(tol, np.float64)


def _ok(got: np.ndarray, want: np.ndarray, tol: np.ndarray, sign: np.ndarray,
        flushes: bool = False) -> np.ndarray:
    if want.dtype.kind not in "fc":
        return (got == want) | np.isinf(tol)
    g, w = _wide(got), _wide(want)
    t = tol + (np.finfo(np.float32).tiny if flushes and want.dtype in (
        np.float32, np.complex64) else 0.0)
    with np.errstate(all="ignore"):
        same = (g == w) | (np.isnan(g) & np.isnan(w)) | (np.abs(g - w) <= t) | np.isinf(t)
        signs = np.ones(want.shape, bool)
        for part in ((np.real, np.imag) if want.dtype.kind == "c" else (np.real,)):
            gp, wp = part(g), part(w)
            check = sign & (tol == 0) & (wp == 0) & (gp == 0)
            signs &= ~check | (np.signbit(gp) == np.signbit(wp))
    return same & signs


def _close(got: np.ndarray, want: np.ndarray, tol: np.ndarray, sign: np.ndarray,
           flushes: bool = False) -> bool:
    return bool(np.all(_ok(np.asarray(got), np.asarray(want), np.asarray(tol),
                           np.asarray(sign), flushes)))


def run(steps: list[Step], device: str) -> Program:
    """Replay ``steps`` (a printed program) on ``device`` and check everything."""
    p = Program(device)
    from tests.helpers import flushes_float32_subnormals
    p.flushes = flushes_float32_subnormals(device)
    for s in steps:
        p.apply(s)
    p.finish()
    return p


# -- drawing programs --------------------------------------------------------------------------
def _scalar(draw: st.DrawFn, dtype: np.dtype) -> Any:
    if dtype == np.bool_:
        return draw(st.booleans())
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return draw(st.sampled_from([0, 1, 2, -1, 3, int(info.max), int(info.min)]).filter(
            lambda v: info.min <= v <= info.max))
    real = [0.0, -0.0, 1.0, 0.5, -2.0, 3.25, 1e-30, 1e30, math.inf, -math.inf, math.nan, 0.1]
    if dtype.kind == "c":
        return draw(st.sampled_from([1j, -0.5 + 2j, complex(0.0, -0.0), 3.0, 1e20 - 1e-20j,
                                     2.5]))
    return draw(st.sampled_from(real))


def _values(draw: st.DrawFn, dtype: str, n: int, flushes: bool) -> list:
    d = np.dtype(dtype)
    if d == np.bool_:
        return draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if d.kind in "iu":
        info = np.iinfo(d)
        edge = st.sampled_from([int(info.min), int(info.max), 0, 1, -1 if info.min else 2])
        return draw(st.lists(edge | st.integers(int(info.min), int(info.max)), min_size=n,
                             max_size=n))
    part = np.dtype(np.float32 if d == np.complex64 else np.float64 if d.kind == "c" else d)
    width = {2: 16, 4: 32, 8: 64}[part.itemsize]
    fin = np.finfo(part)
    specials = [0.0, -0.0, float(fin.max), -float(fin.max), float(fin.tiny), float(fin.eps),
                1.0, -1.0]
    if d.kind == "f":           # (complex infinities and NaNs: left out, see _binary_bounds)
        specials += [math.inf, -math.inf, math.nan]
    plain = st.floats(-1e3, 1e3, width=width, allow_subnormal=not flushes)
    anything = st.floats(width=width, allow_subnormal=not flushes, allow_nan=d.kind == "f",
                         allow_infinity=d.kind == "f")
    one = plain | st.sampled_from(specials) | anything
    if d.kind == "c":
        return draw(st.lists(st.builds(complex, one, one), min_size=n, max_size=n))
    return draw(st.lists(one, min_size=n, max_size=n))


def _shape(draw: st.DrawFn) -> tuple[int, ...]:
    return tuple(draw(st.lists(st.sampled_from(SIDES), min_size=0, max_size=3)))


def _broadcast_partner(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[int, ...]:
    drop = draw(st.integers(0, len(shape)))
    return tuple(1 if draw(st.integers(0, 3)) == 0 else s for s in shape[drop:])


def _basic_key(draw: st.DrawFn, shape: tuple[int, ...], allow_int: bool = True) -> list:
    key: list = []
    for n in shape:
        choice = draw(st.integers(0, 5))
        if choice == 0 and n and allow_int:
            key.append(("i", draw(st.integers(-n, n - 1))))
            continue
        if choice == 1:
            key.append(("s", None, None, None))
            continue
        step = draw(st.sampled_from([1, 1, 2, -1, -2, 3]))
        start = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
        stop = draw(st.one_of(st.none(), st.integers(-n - 1, n + 1)))
        key.append(("s", start, stop, step))
    if draw(st.integers(0, 6)) == 0:
        key.insert(draw(st.integers(0, len(key))), ("n",))
    if key and draw(st.integers(0, 8)) == 0:
        key = [*key[:1], ("e",)]
    return key


def _same(p: Program, dtype: np.dtype, shape: Any = None) -> list[int]:
    out = []
    for i in p.live():
        v = p.pool[i]
        assert v is not None
        if v.ref.dtype == dtype and (shape is None or shape(v.ref.shape)):
            out.append(i)
    return out


def _broadcasts(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


@st.composite
def programs(draw: st.DrawFn, device: str, max_steps: int = 14) -> Program:
    """Draw and run a program on ``device`` (failures raise ``Mismatch``), then check it."""
    p = Program(device)
    from tests.helpers import flushes_float32_subnormals
    p.flushes = flushes_float32_subnormals(device)
    info = registry.get(device).info
    dtypes = [d for d in DTYPES if (p.float64 or d not in ("float64", "complex128"))
              and (info.complex or d not in COMPLEX)]
    n_steps = draw(st.integers(4, max_steps))
    for _ in range(n_steps):
        step = _draw_step(draw, p, dtypes)
        if step is not None:
            p.apply(step)
    p.finish()
    return p


#: step kinds, each as often as it appears here (writes, element access and observations
#: often: the aliasing bugs need a realized value, a pending reader of it, then a write)
_WEIGHTED = (["unary"] * 3 + ["binary"] * 4 + ["scalar"] * 3 + ["cast"] * 2 + ["reduce"] * 2
             + ["view"] * 4 + ["write"] * 3 + ["inplace"] * 2 + ["element_write"] * 3
             + ["element_read"] * 2 + ["observe"] * 2 + ["observe_all"] * 2 + ["export"] * 2
             + ["matmul", "where", "mask_write", "take", "concat", "sort", "cumsum",
                "argmax"])


def _draw_step(draw: st.DrawFn, p: Program, dtypes: list[str]) -> Step | None:
    live = p.live()
    if len(live) < 1 or draw(st.integers(0, 7)) == 0:
        dtype = draw(st.sampled_from(dtypes))
        shape = _shape(draw)
        return ("leaf", dtype, shape, _values(draw, dtype, math.prod(shape), p.flushes))
    # (half the time the newest value: chains of operations, which fusion puts in one kernel)
    i = live[-1] if draw(st.booleans()) else draw(st.sampled_from(live))
    v = p.pool[i]
    assert v is not None
    kind = _kind(v.ref.dtype)
    what = draw(st.sampled_from(_WEIGHTED))
    if what == "observe_all":
        return ("observe_all",)
    shape = v.ref.shape
    if what == "unary":
        names = [n for n, (kinds, _) in UNARY.items() if kind in kinds]
        return ("unary", draw(st.sampled_from(names)), i)
    if what == "cast":
        target = draw(st.sampled_from(dtypes))
        if kind == "c" and np.dtype(target).kind != "c":
            return None         # (NumPy drops the imaginary part with a warning)
        if v.ref.dtype.kind == "f" and np.dtype(target).kind in "iub" and target != "bool":
            info = np.iinfo(target)
            x = v.ref.astype(np.float64)
            if not (np.all(np.isfinite(x)) and np.all(x > info.min - 1.0)
                    and np.all(x < float(info.max))):
                return None     # (NumPy's float-to-int cast of those is undefined)
        return ("cast", i, target)
    if what in ("binary", "scalar"):
        names = [n for n, kinds in BINARY.items() if kind in kinds]
        name = draw(st.sampled_from(names))
        if what == "scalar" and name not in ("logical_and", "logical_or", "logical_xor",
                                             "maximum", "minimum"):
            return ("binary", name, i, ("py", _scalar(draw, v.ref.dtype)),
                    draw(st.booleans()))
        partners = _same(p, v.ref.dtype, lambda s: _broadcasts(s, shape))
        if not partners:
            partner = _broadcast_partner(draw, shape)
            return ("leaf", v.ref.dtype.name, partner,
                    _values(draw, v.ref.dtype.name, math.prod(partner), p.flushes))
        return ("binary", name, i, draw(st.sampled_from(partners)), False)
    if what == "where":
        conds = _same(p, np.dtype(bool), lambda s: _broadcasts(s, shape))
        others = _same(p, v.ref.dtype, lambda s: _broadcasts(s, shape))
        if not conds or not others:
            return None
        c, j = draw(st.sampled_from(conds)), draw(st.sampled_from(others))
        w, cv = p.pool[j], p.pool[c]
        assert w is not None and cv is not None
        if not _broadcasts(np.broadcast_shapes(shape, w.ref.shape), cv.ref.shape):
            return None
        return ("where", c, i, j)
    if what == "reduce":
        names = [n for n, kinds in REDUCTIONS.items() if kind in kinds]
        name = draw(st.sampled_from(names))
        if name in ("max", "min") and v.ref.size == 0:
            return None         # (NumPy raises: no identity)
        nd = len(shape)
        axis: Any = None
        if nd and draw(st.booleans()):
            axes = draw(st.sets(st.integers(0, nd - 1), min_size=1, max_size=nd))
            axis = sorted(axes) if len(axes) > 1 else next(iter(axes))
            if name in ("max", "min") and any(shape[a] == 0 for a in axes):
                return None
        return ("reduce", name, i, axis, draw(st.booleans()))
    if what == "matmul":
        if kind == "b" or v.ref.ndim not in (1, 2):
            return None
        k = shape[-1]
        partners = _same(p, v.ref.dtype, lambda s: len(s) in (1, 2) and s[0] == k)
        if not partners:
            n = draw(st.sampled_from(SIDES))
            pshape = (k,) if draw(st.booleans()) else (k, n)
            return ("leaf", v.ref.dtype.name, pshape,
                    _values(draw, v.ref.dtype.name, math.prod(pshape), p.flushes))
        return ("matmul", i, draw(st.sampled_from(partners)))
    if what == "view":
        choice = draw(st.integers(0, 3))
        if choice == 0 or not shape:
            return ("view", i, "index", _basic_key(draw, shape))
        if choice == 1:
            return ("view", i, "T", list(draw(st.permutations(range(len(shape))))))
        if choice == 2:
            sizes = [s for s in range(1, 31) if v.ref.size % s == 0] or [0]
            first = draw(st.sampled_from(sizes))
            new = (first, v.ref.size // first) if first else (0,)
            if draw(st.booleans()):
                new = (v.ref.size,)
            return ("view", i, "reshape", list(new))
        return ("view", i, "flip", draw(st.integers(0, len(shape) - 1)))
    if what == "write":
        key = _basic_key(draw, shape)
        target = v.ref[_key(key)].shape
        if draw(st.booleans()):
            return ("write", i, key, ("py", _scalar(draw, v.ref.dtype)))
        sources = _same(p, v.ref.dtype, lambda s: _broadcasts(s, target) and
                        np.broadcast_shapes(s, target) == target)
        if not sources:
            return ("write", i, key, ("py", _scalar(draw, v.ref.dtype)))
        return ("write", i, key, ("pool", draw(st.sampled_from(sources))))
    if what == "inplace":
        if kind == "b":
            return None
        name = draw(st.sampled_from(sorted(INPLACE)))
        sources = _same(p, v.ref.dtype, lambda s: _broadcasts(s, shape) and
                        np.broadcast_shapes(s, shape) == shape)
        if sources and draw(st.booleans()):
            return ("inplace", name, i, draw(st.sampled_from(sources)))
        return ("inplace", name, i, ("py", _scalar(draw, v.ref.dtype)))
    if what in ("element_write", "element_read"):
        if not shape or 0 in shape:
            return None
        idx = tuple(draw(st.integers(-s, s - 1)) for s in shape)
        if what == "element_read":
            return ("element_read", i, idx)
        return ("element_write", i, idx, _scalar(draw, v.ref.dtype))
    if what == "mask_write":
        # (a mask that shares memory with the array written: NumPy reads it while writing,
        # so its result depends on its loop order; zyxarray reads the mask first)
        masks = [c for c in _same(p, np.dtype(bool), lambda s: s == shape)
                 if not np.shares_memory(p.pool[c].ref, v.ref)]   # type: ignore[union-attr]
        if not masks or not shape:
            return None
        return ("mask_write", i, draw(st.sampled_from(masks)), _scalar(draw, v.ref.dtype))
    if what == "take":
        if not shape or shape[0] == 0:
            return None
        n = draw(st.integers(0, 5))
        return ("take", i, [draw(st.integers(-shape[0], shape[0] - 1)) for _ in range(n)])
    if what == "concat":
        if not shape:
            return None
        axis = draw(st.integers(0, len(shape) - 1))
        partners = _same(p, v.ref.dtype, lambda s: len(s) == len(shape) and all(
            a == b for k, (a, b) in enumerate(zip(s, shape)) if k != axis))
        return ("concat", i, draw(st.sampled_from(partners)), axis) if partners else None
    if what == "sort":
        if not shape or kind in "bc":
            return None
        return ("sort", i, draw(st.integers(-len(shape), len(shape) - 1)))
    if what == "cumsum":
        if len(shape) != 1 or kind == "b":
            return None
        return ("cumsum", i, 0)
    if what == "argmax":
        if not shape or 0 in shape or kind in "bc":
            return None
        axis = draw(st.one_of(st.none(), st.integers(0, len(shape) - 1)))
        return ("argmax", draw(st.sampled_from(["argmax", "argmin"])), i, axis)
    if what == "observe":
        return ("observe", i)
    return ("export", i, draw(st.sampled_from(["asarray", "dlpack"])))
