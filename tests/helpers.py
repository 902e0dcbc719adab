"""Helpers shared by the differential tests: dtypes, value strategies, view recipes, and
comparison against NumPy and against the reference device.

A *view recipe* is a list of view operations (permute, slice, integer index, flip,
broadcast) applied identically to a NumPy array and to a zyxarray array built from the same
base data, so every test can feed non-contiguous views (transposes, negative and stepped
slices, broadcasts) to the function under test.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from hypothesis import assume, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128")
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTEGER = SIGNED + UNSIGNED
REAL_FLOAT = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
FLOAT = REAL_FLOAT + COMPLEX
NUMERIC = INTEGER + FLOAT
REAL = INTEGER + REAL_FLOAT

REFERENCE = "reference"


def scaled(fraction: float) -> settings:
    """Settings with ``fraction`` of the active profile's examples, for test functions that
    are parametrized over dozens of functions (each example costs a compile)."""
    return settings(max_examples=max(5, int(settings.default.max_examples * fraction)))


def xp_dtype(name: str) -> xp.DType:  # type: ignore[name-defined]
    return getattr(xp, name)


# -- values -------------------------------------------------------------------------------
def elements(dtype: str, *, lo: float | None = None, hi: float | None = None,
             specials: bool = True) -> st.SearchStrategy[Any]:
    """Values of ``dtype``; floats in [lo, hi] (if given) plus NaN/inf/-0.0 if ``specials``."""
    d = np.dtype(dtype)
    if d.kind in "biu":
        if d.kind == "b" or lo is None:
            return hnp.from_dtype(d)
        info = np.iinfo(d)
        return st.integers(int(max(lo, info.min)), int(min(hi, info.max)))
    part = np.dtype(np.float32 if d in (np.float32, np.complex64) else np.float64)
    width = 32 if part == np.float32 else 64
    if lo is None:
        real = st.floats(width=width, allow_nan=specials, allow_infinity=specials)
    else:
        real = st.floats(lo, hi, width=width)
        if specials:
            real = real | st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 0.0])
    if d.kind == "f":
        return real
    return st.builds(complex, real, real)


def shapes(*, min_dims: int = 0, max_dims: int = 3, min_side: int = 0,
           max_side: int = 4) -> st.SearchStrategy[tuple[int, ...]]:
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


# -- view recipes -------------------------------------------------------------------------
Recipe = list[tuple[str, Any]]


@st.composite
def view_recipe(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[tuple[int, ...], Recipe]:
    """(base shape, view ops) such that applying the ops to an array of the base shape gives
    an array of ``shape``. The ops run in this order: permute, index, flip, broadcast."""
    ops: Recipe = []
    target = tuple(shape)
    # broadcast: some dimensions (and leading ones) are size 1 before it
    if draw(st.booleans()):
        lead = draw(st.integers(0, len(target)))
        pre = tuple(1 if draw(st.booleans()) else s for s in target[lead:])
        if pre != target:
            ops.insert(0, ("broadcast", target))
            target = pre
    # flip
    if target and draw(st.booleans()):
        axes = tuple(sorted(draw(st.sets(st.integers(0, len(target) - 1), min_size=1))))
        ops.insert(0, ("flip", axes))
    # stepped / negative slices, and integer indices that drop an axis
    if draw(st.booleans()):
        key: list[Any] = []
        base: list[int] = []
        for n in target:
            step = draw(st.sampled_from([1, 2, 3, -1, -2]))
            pad_lo, pad_hi = draw(st.integers(0, 2)), draw(st.integers(0, 2))
            span = (n - 1) * abs(step) + 1 if n else 0
            m = pad_lo + span + pad_hi
            if n == 0:
                key.append(slice(pad_lo, pad_lo, step))
            elif step > 0:
                key.append(slice(pad_lo, pad_lo + span, step))
            else:
                top = m - 1 - pad_hi
                stop = top - span
                key.append(slice(top, stop if stop >= 0 else None, step))
            base.append(m)
        if draw(st.booleans()):
            where = draw(st.integers(0, len(base)))
            size = draw(st.integers(1, 3))
            base.insert(where, size)
            key.insert(where, draw(st.integers(-size, size - 1)))
        ops.insert(0, ("index", tuple(key)))
        target = tuple(base)
    # transpose
    if len(target) > 1 and draw(st.booleans()):
        perm = tuple(draw(st.permutations(range(len(target)))))
        inverse = tuple(int(i) for i in np.argsort(perm))
        ops.insert(0, ("permute", inverse))
        target = tuple(target[p] for p in perm)
    return target, ops


def apply_np(a: np.ndarray, ops: Recipe) -> np.ndarray:
    for name, arg in ops:
        if name == "permute":
            a = np.transpose(a, arg)
        elif name == "index":
            a = a[arg]
        elif name == "flip":
            a = np.flip(a, axis=arg)
        elif name == "broadcast":
            a = np.broadcast_to(a, arg)
        else:
            raise AssertionError(name)
    return a


def apply_xp(x: Any, ops: Recipe) -> Any:
    for name, arg in ops:
        if name == "permute":
            x = xp.permute_dims(x, arg)
        elif name == "index":
            x = x[arg]
        elif name == "flip":
            x = xp.flip(x, axis=arg)
        elif name == "broadcast":
            x = xp.broadcast_to(x, arg)
        else:
            raise AssertionError(name)
    return x


class Input:
    """One operand: base data and the recipe that views it into the tested shape."""

    def __init__(self, base: np.ndarray, ops: Recipe) -> None:
        self.base = base
        self.ops = ops
        self.np = apply_np(base, ops)

    def on(self, device: str) -> Any:
        return apply_xp(xp.asarray(self.base, device=device), self.ops)

    def __repr__(self) -> str:
        return f"Input(base={self.base!r}, ops={self.ops!r})"


@st.composite
def inputs(draw: st.DrawFn, dtype: str, shape: tuple[int, ...],
           elems: st.SearchStrategy[Any] | None = None, views: bool = True) -> Input:
    """An operand of ``dtype`` and ``shape``, often a non-contiguous view."""
    base_shape, ops = draw(view_recipe(shape)) if views else (shape, [])
    base = draw(hnp.arrays(np.dtype(dtype), base_shape,
                           elements=elems if elems is not None else elements(dtype)))
    out = Input(base, ops)
    assert out.np.shape == tuple(shape), (out, shape)
    return out


# -- running and comparing ----------------------------------------------------------------
def numpy_result(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn`` applied by NumPy with its warnings silenced (overflow, invalid, casts)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def on_devices(device: str, fn: Callable[[str], Any]) -> list[tuple[str, Any]]:
    """[(device, fn(device))] for ``device`` and, unless it is the reference, the reference:
    every backend is compared with NumPy and with the reference interpreter."""
    runs = [(device, fn(device))]
    if device != REFERENCE:
        runs.append((REFERENCE, fn(REFERENCE)))
    return runs


TOLERANCES = {
    # kind -> {real component dtype: (rtol, atol)}
    "exact": {"float32": (0.0, 0.0), "float64": (0.0, 0.0)},
    "arith": {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-14)},
    "transcendental": {"float32": (1e-4, 1e-5), "float64": (1e-10, 1e-12)},
}


def tolerance(dtype: Any, kind: str) -> tuple[float, float]:
    d = np.dtype(dtype)
    if d.kind not in "fc":
        return 0.0, 0.0
    part = "float32" if d in (np.float32, np.complex64) else "float64"
    return TOLERANCES[kind][part]


def host(x: Any) -> np.ndarray:
    """A zyxarray array's value (through ``__array__``) or a NumPy value, as an ndarray."""
    return np.asarray(x)


def assert_close(actual: Any, expected: Any, *, rtol: float = 0.0, atol: float = 0.0,
                 dtype: Any = "expected", what: str = "") -> None:
    """Shape, dtype and values (NaN equals NaN; complex compared part by part).

    ``actual`` is a zyxarray array (its own dtype is checked) or a host array.
    ``dtype="expected"`` checks ``actual``'s dtype against ``expected``'s.
    """
    exp = np.asarray(expected)
    if isinstance(actual, xp.Array):
        got_dtype = actual.dtype
        assert got_dtype.name == np.dtype(got_dtype.np).name
        got = host(actual)
        assert got.dtype == got_dtype.np, f"{what}: host dtype {got.dtype} != {got_dtype}"
    else:
        got = np.asarray(actual)
    want_dtype = exp.dtype if dtype == "expected" else (None if dtype is None else
                                                          np.dtype(dtype))
    if want_dtype is not None:
        assert got.dtype == want_dtype, f"{what}: dtype {got.dtype}, expected {want_dtype}"
    assert got.shape == exp.shape, f"{what}: shape {got.shape}, expected {exp.shape}"
    if got.dtype.kind == "c" or exp.dtype.kind == "c":
        _close_complex(got.astype(np.complex128), exp.astype(np.complex128), rtol, atol, what)
    else:
        _close(got, exp, rtol, atol, what)


def _close_complex(g: np.ndarray, e: np.ndarray, rtol: float, atol: float, what: str) -> None:
    """Complex values: the error is measured against the modulus (a component that cancels,
    like the real part of (4097+4085j)**2, is only as accurate as the whole value). Values
    that are not finite match when both have a NaN part or both have an infinite part: C99
    Annex G has one complex infinity (a value with an infinite part, whatever the other part)
    and NumPy and C pick different representatives, e.g. for (1+1j) / (-0+0j), for
    1 / (0+1e-45j) in complex64 (NumPy nan-infj, Smith's scaled division 0-infj) or
    (0+4j) / 2.2e-308 (NumPy 0+infj, gcc's __divdc3 nan+infj). With zero tolerances (exact
    operations such as conj or real) values must match part by part, NaN matching NaN."""
    g_inf = np.isinf(g.real) | np.isinf(g.imag)
    e_inf = np.isinf(e.real) | np.isinf(e.imag)
    g_nan = np.isnan(g.real) | np.isnan(g.imag)
    e_nan = np.isnan(e.real) | np.isnan(e.imag)
    finite = ~(g_inf | g_nan) & ~(e_inf | e_nan)
    special = ~finite
    if rtol == 0 and atol == 0:
        def same(x: np.ndarray, y: np.ndarray) -> np.ndarray:
            return (x == y) | (np.isnan(x) & np.isnan(y))
        bad = special & ~(same(g.real, e.real) & same(g.imag, e.imag))
    else:
        # NaN anywhere matches NaN anywhere; an infinite part matches an infinite part
        bad = special & ~((g_nan & e_nan) | (g_inf & e_inf))
    with np.errstate(all="ignore"):
        err = np.where(finite, np.abs(g - e), 0.0)
        bad |= finite & ~((g == e) | (err <= atol + rtol * np.abs(e)))
    if np.any(bad):
        idx = tuple(int(i) for i in np.argwhere(bad)[0]) if bad.ndim else ()
        raise AssertionError(f"{what}: {int(np.sum(bad))} of {bad.size} complex values differ "
                             f"(rtol={rtol}, atol={atol}); first at {idx}: got {g[idx]!r}, "
                             f"expected {e[idx]!r}")


def _close(got: np.ndarray, exp: np.ndarray, rtol: float, atol: float, what: str) -> None:
    if got.dtype.kind in "biu" and exp.dtype.kind in "biu":
        np.testing.assert_array_equal(got, exp, err_msg=what, strict=False)
        return
    g = got.astype(np.float64)
    e = exp.astype(np.float64)
    np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
    # infinities must match in sign too (assert_allclose checks that: inf - inf is NaN)


def check_against_numpy(device: str, xp_fn: Callable[..., Any], np_fn: Callable[..., Any],
                        operands: Sequence[Input | Any], *, kind: str = "arith",
                        rtol: float | None = None, atol: float | None = None,
                        dtype: Any = "expected") -> np.ndarray:
    """Run ``xp_fn`` on ``device`` and on the reference device, ``np_fn`` in NumPy, and
    compare both with NumPy (values, dtype, shape). Operands that are ``Input`` become
    views on each device; anything else (Python scalars) is passed as is.
    Returns NumPy's result."""
    np_args = [o.np if isinstance(o, Input) else o for o in operands]
    expected = numpy_result(np_fn, *np_args)
    exp = np.asarray(expected)
    r, a = tolerance(exp.dtype, kind)
    r = r if rtol is None else rtol
    a = a if atol is None else atol
    flushed = exp
    if flushes_float32_subnormals(device) and any(
            _float32_subnormals(v) for v in [*np_args, exp]):
        # the device computes as NumPy does on inputs and results with subnormals as zeros
        flushed = flush_float32_subnormals(np.asarray(numpy_result(
            np_fn, *[flush_float32_subnormals(v) for v in np_args])))
    for dev, result in on_devices(device, lambda d: xp_fn(
            *[o.on(d) if isinstance(o, Input) else o for o in operands])):
        assert isinstance(result, xp.Array), f"{dev}: expected an Array, got {type(result)}"
        assert result.device.name == dev, f"result on {result.device.name}, not {dev}"
        assert_close(result, flushed if dev == device else exp, rtol=r, atol=a, dtype=dtype,
                     what=f"on {dev}")
    return exp


_FLUSHES: dict[str, bool] = {}


def flushes_float32_subnormals(device: str) -> bool:
    """Whether ``device`` flushes float32 subnormals to zero anywhere, as NVIDIA's Vulkan
    driver does (it offers no DenormPreserve for 32-bit floats; with round-to-nearest asked
    for, its products keep them while its comparisons and conversions flush them): measured
    once per device, by a product, a comparison and a conversion."""
    if device not in _FLUSHES:
        x = xp.asarray(np.array([1e-40], np.float32), device=device)
        _FLUSHES[device] = bool(np.asarray(x * 1)[0] == 0) or not bool(
            np.asarray(x != 0)[0]) or bool(np.asarray(xp.astype(x, xp.float64))[0] == 0)
    return _FLUSHES[device]


def _float32_subnormals(v: Any) -> bool:
    if not isinstance(v, np.ndarray) or v.dtype not in (np.float32, np.complex64):
        return False
    parts = [v.real, v.imag] if v.dtype.kind == "c" else [v]
    tiny = np.finfo(np.float32).tiny
    return any(bool(np.any((p != 0) & (np.abs(p) < tiny))) for p in parts)


def flush_float32_subnormals(v: Any) -> Any:
    """``v`` with its float32 subnormals replaced by zeros of their sign."""
    if not _float32_subnormals(v):
        return v
    tiny = np.finfo(np.float32).tiny

    def flush(p: np.ndarray) -> np.ndarray:
        return np.where(np.abs(p) < tiny, np.copysign(np.zeros_like(p), p), p)

    if v.dtype.kind == "c":
        return (flush(v.real) + 1j * flush(v.imag)).astype(v.dtype)
    return flush(v)


def raises_like_numpy(exc: type[BaseException], fn: Callable[[], Any]) -> None:
    import pytest
    with pytest.raises(exc):
        fn()


def assume_no_overflow(*arrays: np.ndarray) -> None:
    for a in arrays:
        if a.dtype.kind in "fc":
            assume(np.all(np.isfinite(a)))


def known_bug(request: Any, device: str, on: Sequence[str], reason: str) -> None:
    """Mark the running test a strict xfail when it runs on one of the devices ``on``:
    the test must fail there (an unexpected pass fails the suite, so a fix is noticed)."""
    import pytest
    if device in on:
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))


# -- reductions ---------------------------------------------------------------------------
@st.composite
def axes_for(draw: st.DrawFn, ndim: int) -> Any:
    """None, an int, or a tuple of distinct axes (any sign), all valid for ``ndim``."""
    options = [st.none(), hnp.valid_tuple_axes(ndim)]
    if ndim:
        options.append(st.integers(-ndim, ndim - 1))
    return draw(st.one_of(*options))


def reduced_count(shape: tuple[int, ...], axis: Any) -> int:
    """How many elements each output element of a reduction combines."""
    if axis is None:
        return math.prod(shape)
    axes = axis if isinstance(axis, tuple) else (axis,)
    return math.prod(shape[a] for a in axes)


def child_env(root: Any, **extra: str) -> dict[str, str]:
    """The environment for a child ``python -c``: this checkout first on PYTHONPATH (kept
    in front of whatever was there), plus ``extra``."""
    import os
    path = os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, PYTHONPATH=path, **extra)


def two_over_pi() -> tuple[int, int]:
    """2/pi as an integer numerator over 2^bits (c_math's words, also the SPIR-V renderer's
    table): what the Payne-Hanek tests measure arguments' distance to multiples of pi/2 with."""
    from zyxarray._codegen import c_math
    value = 0
    for w in c_math.TWO_OVER_PI:
        value = (value << 32) | w
    return value, 32 * (len(c_math.TWO_OVER_PI) - 1)


def track_peak(monkeypatch: Any, pool: Any) -> list[int]:
    """A one-element list holding the most bytes ``pool`` (a device's ``MemoryPool``) has
    had in use since this call, updated at each allocation."""
    most = [pool.in_use]
    real = pool.allocate

    def allocate(nbytes: int) -> Any:
        handle = real(nbytes)
        most[0] = max(most[0], pool.in_use)
        return handle

    monkeypatch.setattr(pool, "allocate", allocate)
    return most
