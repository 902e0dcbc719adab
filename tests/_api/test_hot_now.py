"""Results computed now (``_api/_hot.c``): arithmetic, comparisons, negation, the float
functions, matrix products and transposes of small arrays in the cpu device's memory are
computed at once, without a kernel, and give what the kernels give to the bit (products:
NumPy's values within rounding). Each case runs with the path on and with ``set_now_max(0)``
(every result a kernel's) and compares; each also checks that the path was taken, so that
a change that turns it off fails here."""

from __future__ import annotations

import operator
import pickle

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._api import _hot
from zyxarray._lazy import realize

pytestmark = pytest.mark.skipif(_hot.core is None, reason="the C hot path did not build here")

ARITH = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
         "truediv": operator.truediv}
COMPARE = {"lt": operator.lt, "le": operator.le, "eq": operator.eq, "ne": operator.ne,
           "gt": operator.gt, "ge": operator.ge}
NUMERIC = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64"]
SPECIAL = [0.0, -0.0, 1.0, -1.5, 1e-310, 3e-39, 1e38, 1e300, np.inf, -np.inf, np.nan, 0.1,
           -700.0, 88.5, 710.0]


def _values(dtype: str, shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        v = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
        v[:3] = [info.min, info.max, 0][:min(3, n)]
        return v.reshape(shape)
    v = rng.standard_normal(n).astype(dtype) * 10
    with np.errstate(over="ignore"):
        special = np.array(SPECIAL, dtype=dtype)
    v[:min(n, special.size)] = special[:min(n, special.size)]
    return v.reshape(shape)


def _bits(a: np.ndarray) -> np.ndarray:
    """An array's elements as bits (NaN equal to NaN, -0.0 unequal to 0.0)."""
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind == "f" else a


def _now_and_kernel(fn: object) -> tuple[np.ndarray, np.ndarray, int]:
    """fn() computed now and by kernels, as NumPy arrays, and the kernels the first took."""
    before = realize.stats["kernels"]
    now = fn()                                  # type: ignore[operator]
    now_host = np.asarray(now)
    launched = realize.stats["kernels"] - before
    previous = _hot.set_now_max(0)
    try:
        kernel = np.asarray(fn())               # type: ignore[operator]
    finally:
        _hot.set_now_max(previous)
    return now_host, kernel, launched


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("name", sorted(ARITH))
def test_arithmetic_now_is_the_kernels_to_the_bit(dtype: str, name: str) -> None:
    op = ARITH[name]
    # (true division of integers is computed in float64, as ``divide`` casts)
    result = "float64" if name == "truediv" and not dtype.startswith("float") else dtype
    a_host, b_host = _values(dtype, (4, 5), 1), _values(dtype, (4, 5), 2)
    a, b = xp.asarray(a_host), xp.asarray(b_host)
    with np.errstate(all="ignore"):
        # (each case compiles its kernel: three layouts keep the file's time down)
        for fn in (lambda: op(a, b), lambda: op(3, a), lambda: op(a.T[::-1, ::2], b.T[0, ::2])):
            now, kernel, launched = _now_and_kernel(fn)
            assert launched == 0
            assert now.dtype == kernel.dtype == np.dtype(result)
            np.testing.assert_array_equal(_bits(now), _bits(kernel))
        expected = op(a_host, b_host)
    assert np.array_equal(_bits(np.asarray(op(a, b))), _bits(expected.astype(result)))


#: pairs of dtypes that promote across kinds and widths (each pair's kernels compile once
#: per operation and layout: a few, so that CI's empty cache stays quick)
MIXED = [("bool", "int8"), ("bool", "float32"), ("int8", "uint8"), ("int32", "int64"),
         ("uint32", "int64"), ("int64", "float64"), ("float32", "float64"),
         ("int32", "float32"), ("uint8", "float32"), ("int16", "float64")]


@pytest.mark.parametrize("first,second", MIXED)
def test_mixed_dtypes_now_promote_as_the_kernels(first: str, second: str) -> None:
    """Operands of two dtypes (a float array minus an int array: a logistic regression's
    ``p - y``) are converted to the dtype they promote to and computed now, as the graph's
    casts and kernels compute them, to the bit; a 0-d array of another dtype promotes as an
    array does. Before, every such operation was a pending node and then a kernel."""
    def values(dtype: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
        if dtype == "bool":
            return np.arange(int(np.prod(shape))).reshape(shape) % 3 == 0
        return _values(dtype, shape, seed)
    a_host, b_host = values(first, (3, 4), 6), values(second, (4,), 7)
    a, b = xp.asarray(a_host), xp.asarray(b_host)
    zero_d = xp.asarray(b_host[1])            # (0-d: it promotes as an array)
    for op in (operator.sub, operator.truediv, operator.lt, xp.maximum, operator.and_):
        for fn in (lambda f=op: f(a, b), lambda f=op: f(b, a), lambda f=op: f(a, zero_d)):
            try:
                with np.errstate(all="ignore"):
                    now, kernel, launched = _now_and_kernel(fn)
            except TypeError:       # (what the standard refuses: bool arithmetic, float
                continue            # bitwise), refused either way
            assert launched == 0, (first, second, op)
            assert now.dtype == kernel.dtype, (first, second, op)
            np.testing.assert_array_equal(_bits(now), _bits(kernel))
    if "bool" not in (first, second):         # (NumPy refuses bool - bool; the rest agree)
        with np.errstate(all="ignore"):
            want = a_host - b_host
        np.testing.assert_array_equal(_bits(np.asarray(a - b)), _bits(want))


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float32", "float64"])
def test_clip_and_logical_functions_now_are_the_kernels(dtype: str) -> None:
    """``clip`` with number bounds (max, then min: a bound above the other gives it, NaN
    carries) and ``logical_and``/``or``/``xor`` of bool arrays are computed now for small
    arrays in memory, as the kernels compute them; a bound the dtype cannot hold is
    clamped to its range by the general path, as before."""
    a = xp.asarray(_values(dtype, (5, 6), 11))
    lo, hi = (-3, 7) if dtype != "uint16" else (2, 9)
    cases = [lambda: xp.clip(a, lo, hi), lambda: xp.clip(a, None, hi), lambda: xp.clip(a, hi, lo),
             lambda: xp.clip(a.T[::2], lo, None)]
    if dtype.startswith("float"):
        cases.append(lambda: xp.clip(a, -0.5, float("nan")))
    p, q = a > 0, a.T[::-1].T < 3
    cases += [lambda: xp.logical_and(p, q), lambda: xp.logical_or(p, q[0]),
              lambda: np.logical_xor(p, q)]
    for fn in cases:
        now, kernel, launched = _now_and_kernel(fn)
        assert launched == 0 and now.dtype == kernel.dtype
        np.testing.assert_array_equal(_bits(now), _bits(kernel))
    if dtype == "int8":
        wide, kernel, launched = _now_and_kernel(lambda: xp.clip(a, -1000, 1000))
        assert launched == 1 and wide.dtype == np.int8      # (the general path's clamp)
        np.testing.assert_array_equal(wide, kernel)


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint64", "float32", "float64"])
def test_where_now_is_the_kernels(dtype: str) -> None:
    """``where(c, x1, x2)`` of a bool condition in memory and operands of one dtype (or a
    Python number that the dtype holds) is selected now, broadcasting all three: the
    kernels' bits (NaN and -0.0 kept). Mixed dtypes and two numbers take the general
    path's promotion."""
    vals = (_values(dtype, (4, 6), 12) if dtype != "bool" else
            np.arange(24).reshape(4, 6) % 3 == 0)
    a, b = xp.asarray(vals), xp.asarray(vals[::-1, ::-1].copy())
    c = xp.asarray(np.arange(24).reshape(4, 6) % 4 < 2)
    number = {"bool": True, "float32": -0.0, "float64": float("nan")}.get(dtype, 3)
    cases = [lambda: xp.where(c, a, b), lambda: xp.where(c[0], a, b[:, :1]),
             lambda: xp.where(c, a, number), lambda: xp.where(c[::-1, ::-1], number, b),
             lambda: xp.where(c[:, :1], a[0], b)]
    if dtype == "bool":
        cases = cases[:2] + cases[4:]
    for fn in cases:
        now, kernel, launched = _now_and_kernel(fn)
        assert launched == 0 and now.dtype == kernel.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(_bits(now), _bits(kernel))
    assert xp.where(c, 1, -1).dtype == xp.int64
    if dtype == "int16":
        mixed = xp.where(c, a, 0.5)             # (promoted to float64 by the general path)
        assert mixed.dtype == xp.float64
        np.testing.assert_array_equal(np.asarray(mixed),
                                      np.where(np.arange(24).reshape(4, 6) % 4 < 2, vals, 0.5))


def test_no_common_dtype_is_the_slow_paths_error() -> None:
    with pytest.raises(TypeError, match="uint64"):
        xp.asarray(np.array([1, 2], np.uint64)) + xp.asarray(np.array([1, 2], np.int64))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_remainder_and_floor_division_now_are_the_kernels_to_the_bit(dtype: str) -> None:
    """``%`` and ``//`` of small arrays in memory are computed now (a grid made with ``%``
    no longer leaves everything after it pending), as the kernels' helpers compute them:
    zero divisors, the most negative integer by -1, signed zeros, infinities and NaN
    included; NumPy's values wherever NumPy and the standard agree."""
    a_host, b_host = _values(dtype, (4, 6), 4), _values(dtype, (4, 6), 5)
    if dtype.startswith("int"):
        b_host[0, :3] = [0, -1, -1]
        a_host[0, 1] = np.iinfo(dtype).min
    elif dtype.startswith("uint"):
        b_host[0, 0] = 0
    else:
        b_host[0, :6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 3.0]
        a_host[1, :4] = [np.inf, -np.inf, 0.0, -0.0]
    a, b = xp.asarray(a_host), xp.asarray(b_host)
    with np.errstate(all="ignore"):
        for op in (operator.mod, operator.floordiv):
            for fn in (lambda f=op: f(a, b), lambda f=op: f(a, 7),
                       lambda f=op: f(-3 if dtype[0] != "u" else 5, a.T)):
                now, kernel, launched = _now_and_kernel(fn)
                assert launched == 0 and now.dtype == kernel.dtype == np.dtype(dtype)
                np.testing.assert_array_equal(_bits(now), _bits(kernel))
            got, want = np.asarray(op(a, b)), op(a_host, b_host)
            if dtype.startswith("float"):       # (NumPy's inf // x is NaN; the standard's inf)
                ok = np.isfinite(a_host) & np.isfinite(b_host) & (b_host != 0)
                got, want = got[ok], want[ok]
            np.testing.assert_array_equal(_bits(got), _bits(want.astype(dtype)))


@pytest.mark.parametrize("dtype", NUMERIC + ["bool"])
@pytest.mark.parametrize("name", sorted(COMPARE))
def test_comparisons_now(dtype: str, name: str) -> None:
    op = COMPARE[name]
    if dtype == "bool":
        a_host = np.array([True, False, True, False])
        b_host = np.array([True, True, False, False])
    else:
        a_host, b_host = _values(dtype, (8,), 3), _values(dtype, (8,), 3)[::-1].copy()
    a, b = xp.asarray(a_host), xp.asarray(b_host)
    if dtype == "bool" and name not in ("eq", "ne"):
        with pytest.raises(TypeError):
            op(a, b)
        return
    now, kernel, launched = _now_and_kernel(lambda: op(a, b))
    assert launched == 0 and now.dtype == np.bool_
    np.testing.assert_array_equal(now, kernel)
    np.testing.assert_array_equal(now, op(a_host, b_host))


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_maximum_and_minimum_now_are_the_kernels(dtype: str, name: str) -> None:
    a_host, b_host = _values(dtype, (3, 5), 8), _values(dtype, (3, 5), 9)
    if dtype.startswith("float"):       # NaN on either side, signed zeros both ways
        a_host[0, :4] = [np.nan, 1.0, -0.0, 0.0]
        b_host[0, :4] = [1.0, np.nan, 0.0, -0.0]
    a, b = xp.asarray(a_host), xp.asarray(b_host)
    fn = getattr(xp, name)
    for call in (lambda: fn(a, b), lambda: fn(a, 0), lambda: fn(0, a), lambda: fn(a.T, b.T[0])):
        now, kernel, launched = _now_and_kernel(call)
        assert launched == 0 and now.dtype == np.dtype(dtype)
        # (equal zeros of both signs: NumPy's choice now, either from a kernel: the standard
        # leaves it open; every other element to the bit)
        np.testing.assert_array_equal(_bits(now + 0), _bits(kernel + 0))
        np.testing.assert_array_equal(_bits(now)[now != 0], _bits(kernel)[kernel != 0])
    reference = getattr(np, name)(a_host, b_host)
    np.testing.assert_array_equal(_bits(np.asarray(fn(a, b))), _bits(reference))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_negation_now(dtype: str) -> None:
    a = xp.asarray(_values(dtype, (3, 4)))
    now, kernel, launched = _now_and_kernel(lambda: -a)
    assert launched == 0
    np.testing.assert_array_equal(_bits(now), _bits(kernel))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(_hot.UNARY))
def test_float_functions_now_are_the_kernels_to_the_bit(dtype: str, name: str) -> None:
    with np.errstate(over="ignore"):
        host = np.concatenate([np.array(SPECIAL, dtype),
                               np.random.default_rng(4).uniform(-30, 30, 200).astype(dtype),
                               np.geomspace(1e-30, 1e30, 100).astype(dtype)])
    a = xp.asarray(host)
    fn = getattr(xp, name)
    with np.errstate(all="ignore"):
        now, kernel, launched = _now_and_kernel(lambda: fn(a))
        assert launched == 0
        np.testing.assert_array_equal(_bits(now), _bits(kernel))
        np.testing.assert_allclose(now, getattr(np, name)(host), rtol=4e-7 if dtype == "float32"
                                   else 1e-15, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shapes", [((6, 4), (4,)), ((4,), (4, 3)), ((6, 4), (4, 3)),
                                    ((4,), (4,)), ((1, 4), (4, 1))])
def test_matrix_products_now(dtype: str, shapes: tuple) -> None:
    b_host = np.random.default_rng(6).standard_normal(shapes[1]).astype(dtype)
    a_host = np.random.default_rng(7).standard_normal(shapes[0]).astype(dtype)
    a, b = xp.asarray(a_host), xp.asarray(b_host)
    now, kernel, launched = _now_and_kernel(lambda: a @ b)
    assert launched == 0
    assert now.shape == kernel.shape == (a_host @ b_host).shape and now.dtype == np.dtype(dtype)
    np.testing.assert_allclose(now, a_host @ b_host, rtol=1e-5 if dtype == "float32" else 1e-12)
    if a.ndim == 2 and b.ndim == 2:     # through transposed (strided) operands
        np.testing.assert_allclose(np.asarray(b.T @ a.T), (a_host @ b_host).T, rtol=1e-5)


def test_matrix_product_errors_are_the_slow_paths() -> None:
    a, b = xp.asarray(np.ones((3, 4))), xp.asarray(np.ones((5,)))
    with pytest.raises(ValueError, match="matmul"):
        a @ b
    with pytest.raises(ValueError):
        xp.asarray(np.ones(3)) @ xp.asarray(np.ones(4))
    # mixed dtypes promote as the standard says (the slow path)
    r = xp.asarray(np.ones((2, 2), np.float32)) @ xp.asarray(np.ones(2))
    assert r.dtype == xp.float64


def test_errors_and_promotions_are_the_slow_paths() -> None:
    a = xp.asarray(np.ones((2, 3)))
    with pytest.raises(ValueError):
        a + xp.asarray(np.ones((4,)))
    i8 = xp.asarray(np.array([1, 2], np.int8))
    with pytest.raises(OverflowError):      # (as NumPy 2: the value does not fit int8)
        i8 + 1000
    assert (i8 / 2).dtype == xp.float64
    assert (xp.asarray(np.array([1, 2])) * 0.5).dtype == xp.float64
    assert (xp.asarray(np.ones(2, np.float32)) + xp.asarray(np.ones(2))).dtype == xp.float64
    with pytest.raises(TypeError):
        -xp.asarray(np.array([True]))


def test_a_result_now_is_a_whole_array() -> None:
    host = np.arange(6.0).reshape(2, 3)
    a = xp.asarray(host)
    r = a * 2 + 1
    expected = host * 2 + 1
    assert r.shape == (2, 3) and r.dtype == xp.float64 and r.device == a.device
    np.testing.assert_array_equal(np.from_dlpack(r), expected)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(r)), expected)
    np.testing.assert_array_equal(xp.sum(r, axis=0), expected.sum(axis=0))
    np.testing.assert_array_equal(np.asarray(xp.concat([r, r])), np.concatenate([expected] * 2))
    r[0, 0] = -5.0
    expected[0, 0] = -5.0
    np.testing.assert_array_equal(np.asarray(r), expected)
    row = r[1]
    r[1, 2] = 7.0                      # a view of a result now sees writes to it
    assert float(row[2]) == 7.0
    row[0] = 8.0
    assert float(r[1, 0]) == 8.0


def test_in_place_takes_the_result_and_views_still_see_it() -> None:
    w = xp.asarray(np.arange(4.0))
    g = xp.asarray(np.ones(4))
    w -= 0.5 * g
    np.testing.assert_array_equal(np.asarray(w), np.arange(4.0) - 0.5)
    v = w[1:3]
    w -= 1.0
    np.testing.assert_array_equal(np.asarray(v), [-0.5, 0.5])
    w2 = w
    w *= 2.0                            # the same object: both names see it, as in NumPy
    assert w2 is w
    np.testing.assert_array_equal(np.asarray(w2), (np.arange(4.0) - 1.5) * 2)


def test_transpose_is_a_view_both_ways() -> None:
    a = xp.asarray(np.arange(6.0).reshape(2, 3))
    t = a.T
    assert t.shape == (3, 2)
    a[0, 1] = 9.0
    assert float(t[1, 0]) == 9.0
    t[2, 1] = -1.0
    assert float(a[1, 2]) == -1.0
    np.testing.assert_array_equal(np.asarray(t), np.asarray(a).T)
    b = xp.asarray(np.arange(24.0).reshape(2, 3, 4))
    assert b.T.shape == (4, 3, 2)
    np.testing.assert_array_equal(np.asarray(b.T), np.arange(24.0).reshape(2, 3, 4).T)
    one = xp.asarray(np.arange(3.0))
    assert one.T.shape == (3,)


def test_large_results_are_kernels() -> None:
    n = 100_000
    a = xp.asarray(np.ones(n))
    before = realize.stats["kernels"]
    np.asarray(a + 1)
    assert realize.stats["kernels"] > before


def test_other_devices_stay_lazy() -> None:
    a = xp.asarray(np.ones(4), device="reference")
    before = realize.stats["kernels"]
    np.asarray(a + 1)
    assert realize.stats["kernels"] > before


def _created(fn: object) -> tuple[np.ndarray, np.ndarray, int]:
    """A creation function's result made now and by kernels (``_now_and_kernel``). An
    unwritten fill's node is its constant, which a kernel would store when read whole: one
    element written back with its own value makes it memory first."""
    def written() -> object:
        now = fn()                              # type: ignore[operator]
        if now.size:
            first = (0,) * now.ndim
            now[first] = now[first]
        return now
    return _now_and_kernel(written)


FILLS = {"zeros": lambda m, d: m.zeros((3, 4), dtype=d),
         "ones": lambda m, d: m.ones(7, dtype=d),
         "full": lambda m, d: m.full((2, 3), 5, dtype=d),
         "empty_like": lambda m, d: m.zeros_like(m.ones((2, 2), dtype=d)),
         "arange": lambda m, d: m.arange(3, 40, 3, dtype=d),
         "arange_neg": lambda m, d: m.arange(30, -1, -4, dtype=d) if d[0] != "u" else
         m.arange(30, 1, -4, dtype=d)}
RAMPS = {"arange": lambda m, d: m.arange(0.1, 2.3, 0.3, dtype=d),
         "linspace": lambda m, d: m.linspace(-1, 3.3, 9, dtype=d),
         "linspace_open": lambda m, d: m.linspace(0, 1, 5, endpoint=False, dtype=d),
         "linspace_one": lambda m, d: m.linspace(2, 3, 1, dtype=d),
         "linspace_none": lambda m, d: m.linspace(2, 3, 0, dtype=d)}


@pytest.mark.parametrize("dtype", NUMERIC + ["bool"])
@pytest.mark.parametrize("name", sorted(FILLS))
def test_creation_now_is_the_kernels(dtype: str, name: str) -> None:
    if dtype == "bool" and name.startswith("arange"):
        pytest.skip("arange has no bool dtype")
    fn = FILLS[name]
    now, kernel, launched = _created(lambda: fn(xp, dtype))
    assert launched == 0
    assert now.dtype == kernel.dtype == np.dtype(dtype) and now.shape == kernel.shape
    np.testing.assert_array_equal(_bits(now), _bits(kernel))
    np.testing.assert_array_equal(now, fn(np, dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(RAMPS))
def test_float_ramps_now_are_the_kernels_to_the_bit(dtype: str, name: str) -> None:
    fn = RAMPS[name]
    now, kernel, launched = _created(lambda: fn(xp, dtype))
    assert launched == 0
    assert now.dtype == kernel.dtype == np.dtype(dtype) and now.shape == kernel.shape
    np.testing.assert_array_equal(_bits(now), _bits(kernel))
    np.testing.assert_array_equal(_bits(now), _bits(fn(np, dtype)))   # (NumPy's formulas)


def test_an_unwritten_fill_is_a_constant_and_a_written_one_is_memory() -> None:
    z = xp.zeros((1, 4))
    u = xp.asarray(np.arange(8.0).reshape(2, 4))
    padded = xp.concat([z, u, z], axis=0)    # zeros stay a constant: one fused kernel
    assert len(xp.explain(padded[1:] + padded[:-1])) == 1
    w = xp.zeros(4)
    w[2] = 3.0                              # written: its memory, read without a kernel
    before = realize.stats["kernels"]
    assert float(w[2]) == 3.0 and float(w.sum()) == 3.0
    np.testing.assert_array_equal(np.asarray(w), [0, 0, 3, 0])
    assert realize.stats["kernels"] == before
    big = xp.zeros(10**6)                   # past 16 x now_max: a lazy constant
    assert big._node.op != "BUFFER"


def test_a_region_written_into_a_fill_is_memory_and_what_follows_is_now() -> None:
    """``z = zeros(n); z[:5] = 50.0`` writes a region, not an element, into a fill nobody
    else holds: its memory takes the write, so a NumPy-style loop over a small grid (a ring
    rolled, a plate's interior joined to its edges) computes each step now, launching no
    kernel, as NumPy does; before, the write left the fill a pending update and every step
    after it pending too."""
    ring, plate = xp.zeros(90), xp.zeros((6, 6))
    ring[:5] = 50.0
    plate[0, :] = 100.0
    plate[:, -1] = xp.linspace(100.0, 0.0, 6)
    assert ring._node.op == "BUFFER" and plate._node.op == "BUFFER"
    h_ring, h_plate = np.asarray(ring), np.asarray(plate)
    before = realize.stats["kernels"]
    for np_ in (xp, np):
        r = h_ring if np_ is np else ring
        p = h_plate if np_ is np else plate
        for _ in range(3):
            r = r + 0.2 * (np_.roll(r, 1) + np_.roll(r, -1) - 2 * r)
            inner = 0.25 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:])
            middle = np_.concat([p[1:-1, :1], inner, p[1:-1, -1:]], axis=1)
            new = np_.concat([p[:1], middle, p[-1:]], axis=0)
            change = float(np_.max(np_.abs(new - p)))
            p = new
        if np_ is xp:
            assert realize.stats["kernels"] == before
            got = (np.asarray(r), np.asarray(p), change)
    np.testing.assert_allclose(got[0], r, rtol=1e-15)
    np.testing.assert_allclose(got[1], p, rtol=1e-15)
    assert got[2] == pytest.approx(change, rel=1e-15)


def test_created_arrays_follow_now_max() -> None:
    previous = _hot.set_now_max(0)
    try:
        a = xp.zeros(4)
        assert a._node.op != "BUFFER"
    finally:
        _hot.set_now_max(previous)


def test_a_fill_written_after_use_keeps_earlier_results() -> None:
    a = xp.zeros(5)
    c = xp.concat([a, a])                   # (uses the fill's constant node, lazily)
    big = xp.zeros((300, 300))              # (larger than now_max: a kernel adds)
    d = a + big[0, :5]
    assert a.shape == (5,)
    a[0] = 5.0                              # NumPy: c and d were computed before the write
    a[1] += 1.0
    np.testing.assert_array_equal(np.asarray(c), np.zeros(10))
    np.testing.assert_array_equal(np.asarray(d), np.zeros(5))
    np.testing.assert_array_equal(np.asarray(a), [5, 1, 0, 0, 0])
    e = xp.zeros(3)
    assert e.shape == (3,) and e._node.op != "BUFFER"   # (its node: the constant)
    before = realize.stats["kernels"]
    e[1] = 2.0                              # nobody else holds that node: the memory now
    assert float(e[1]) == 2.0 and realize.stats["kernels"] == before
    np.testing.assert_array_equal(np.asarray(e), [0, 2, 0])
    v = xp.ones((2, 3))
    row = v[1]                              # a view: writes go through the shared storage
    row[2] = 4.0
    v[0, 0] = -1.0
    np.testing.assert_array_equal(np.asarray(v), [[-1, 1, 1], [1, 1, 4]])
    assert float(row[2]) == 4.0


def test_arrays_are_freed_with_their_weak_references() -> None:
    import gc
    import sys
    import weakref
    x = xp.zeros(3)
    ref = weakref.ref(x)
    del x
    assert ref() is None
    before = sys.getrefcount(xp.Array)
    for _ in range(1000):
        y = xp.ones(4) * 2.0 + 1.0
        float(y[0])
    del y
    gc.collect()
    assert sys.getrefcount(xp.Array) <= before + 2   # (the class's count: no leak per array)

    class Sub(xp.Array):
        pass
    s = object.__new__(Sub)
    s.tag = 1                                # (a subclass with a __dict__ still frees)
    ref = weakref.ref(s)
    del s
    assert ref() is None


@pytest.mark.parametrize("dtype", NUMERIC + ["bool"])
def test_max_min_argmax_argmin_now(dtype: str) -> None:
    host = _values(dtype, (6, 7), 4) if dtype != "bool" else np.arange(42).reshape(6, 7) % 3 == 1
    if dtype.startswith("float"):
        host[2, 3] = host[4, 1] = np.nan         # the first NaN wins, as in NumPy
    for h in (host, host[1] if dtype != "bool" else host[0]):
        a = xp.asarray(h)
        for name in ("max", "min", "argmax", "argmin"):
            fn = getattr(xp, name)
            now, kernel, launched = _now_and_kernel(lambda fn=fn, a=a: fn(a))
            assert launched == 0, name
            assert now.dtype == kernel.dtype == getattr(np, name)(h).dtype, name
            np.testing.assert_array_equal(now, kernel)
            np.testing.assert_array_equal(now, getattr(np, name)(h))
    np.testing.assert_array_equal(xp.argmax(xp.asarray(host).T), host.T.argmax())  # (a kernel)
    with pytest.raises(ValueError):
        xp.max(xp.asarray(np.zeros(0)))


def test_bincount_of_host_values_is_counted_there() -> None:
    votes = xp.asarray(np.array([[0, 2, 2, 3, 2], [1, 1, 4, 0, 4]]))
    before = realize.stats["kernels"]
    winners = [int(xp.bincount(v, minlength=5).argmax()) for v in votes]
    assert winners == [2, 1] and realize.stats["kernels"] == before
    np.testing.assert_array_equal(xp.bincount(votes[0], minlength=7), [1, 0, 3, 1, 0, 0, 0])
    with pytest.raises(ValueError):
        xp.bincount(xp.asarray(np.array([1, -1])))


INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("dtype", INTS + ["bool"])
@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor"])
def test_bitwise_now_is_the_kernels(dtype: str, name: str) -> None:
    if dtype == "bool":
        a_host = np.arange(12).reshape(3, 4) % 3 == 0
        b_host = np.arange(12).reshape(3, 4) % 2 == 0
    else:
        a_host, b_host = _values(dtype, (3, 4), 6), _values(dtype, (3, 4), 7)
    a, b = xp.asarray(a_host), xp.asarray(b_host)
    fn = getattr(xp, name)
    for call in (lambda: fn(a, b), lambda: fn(a.T, b[0:1].T)):
        now, kernel, launched = _now_and_kernel(call)
        assert launched == 0 and now.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(now, kernel)
    np.testing.assert_array_equal(np.asarray(fn(a, b)), getattr(np, name)(a_host, b_host))
    with pytest.raises(TypeError):
        fn(xp.asarray(np.ones(3)), xp.asarray(np.ones(3)))     # floats: the slow path's error


CASTS = [(f, t) for f in NUMERIC + ["bool"] for t in NUMERIC + ["bool"]
         if f != t and not (f.startswith("float") and t[0] in "iu")]


@pytest.mark.parametrize("src,dst", CASTS)
def test_conversions_now_are_the_kernels(src: str, dst: str) -> None:
    host = _values(src, (4, 6), 8) if src != "bool" else np.arange(24).reshape(4, 6) % 3 == 0
    a = xp.asarray(host)
    for call in (lambda: a.astype(dst), lambda: xp.astype(a.T[::2], dst)):
        now, kernel, launched = _now_and_kernel(call)
        assert launched == 0 and now.dtype == kernel.dtype == np.dtype(dst)
        np.testing.assert_array_equal(_bits(now), _bits(kernel))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(_bits(np.asarray(a.astype(dst))),
                                      _bits(host.astype(dst)))


def test_roll_of_memory_is_numpys_and_runs_no_kernel() -> None:
    host = np.arange(35).reshape(5, 7)
    a = xp.asarray(host)
    before = realize.stats["kernels"]
    for shift, axis in ((3, None), (-2, 0), ((1, 2), (0, 1)), ((1, 1), (1, 1)), (9, -1)):
        np.testing.assert_array_equal(np.asarray(xp.roll(a, shift, axis=axis)),
                                      np.roll(host, shift, axis=axis))
        rolled = xp.roll(a.T[::-1], shift, axis=axis)     # (a view: NumPy keeps its layout)
        np.testing.assert_array_equal(np.asarray(rolled), np.roll(host.T[::-1], shift, axis))
        np.testing.assert_array_equal(np.asarray(rolled + 1), np.roll(host.T[::-1], shift,
                                                                      axis) + 1)
    assert realize.stats["kernels"] == before
    with pytest.raises(ValueError):
        xp.roll(a, 1, axis=2)


def test_roll_without_an_axis_is_two_copies_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """``roll(x, k)`` with no axis (a ring's neighbours each step of a loop) of a small array
    in memory, 1-D at any step or C-contiguous, is two copies in ``_hot.c``: no node, no
    kernel, NumPy's values for any shift; a transposed array keeps the general path."""
    from zyxarray._lazy import graph
    ring, grid = np.arange(90.0), np.arange(24).reshape(4, 6)
    a, g = xp.asarray(ring), xp.asarray(grid)
    views = [(a, ring), (a[::-3], ring[::-3]), (g, grid), (g[1:3], grid[1:3])]
    made: list[str] = []
    init = graph.Node.__init__
    monkeypatch.setattr(graph.Node, "__init__", lambda self, *x, **k: (made.append(x[0]),
                                                                         init(self, *x, **k))[1])
    got = [xp.roll(v, s) for v, _ in views for s in (0, 1, -1, 7, 95, -200)]
    got.append(xp.roll(a, 5, axis=0))
    assert made == []
    want = [np.roll(h, s) for _, h in views for s in (0, 1, -1, 7, 95, -200)]
    want.append(np.roll(ring, 5, axis=0))
    for x, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(x), w)
    np.testing.assert_array_equal(np.asarray(xp.roll(g.T, 5)), np.roll(grid.T, 5))
    assert made != []


def test_count_nonzero_of_a_bool_array_in_memory_is_its_sum_now() -> None:
    """``count_nonzero(mask)`` over all of a small bool array in memory is its sum computed
    now (an int64 known scalar, no kernel); an axis, keepdims or another dtype keep the
    reduction kernel."""
    h = np.random.default_rng(12).standard_normal((6, 7))
    x = xp.asarray(h)
    for fn in (lambda: xp.count_nonzero(x > 0), lambda: xp.count_nonzero((x > 0)[2, ::3])):
        now, kernel, launched = _now_and_kernel(fn)
        assert launched == 0 and now.dtype == kernel.dtype == np.int64
        assert int(now) == int(kernel)
    assert int(xp.count_nonzero(x > 0)) == np.count_nonzero(h > 0)
    before = realize.stats["kernels"]
    got = xp.count_nonzero(x > 0, axis=0)
    np.testing.assert_array_equal(np.asarray(got), np.count_nonzero(h > 0, axis=0))
    assert realize.stats["kernels"] > before


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32", "float64"])
def test_diff_of_a_1d_array_in_memory_is_computed_now(dtype: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``diff(x)`` of a small 1-D array in memory (at any step) is one subtraction loop in C
    (the exclusive or for bools, NumPy's not_equal): the kernels' bits, no kernel and no
    node (the general path made two slices' views, 16 us); n > 1, another axis, prepend or
    append keep the general path."""
    from zyxarray._lazy import graph
    h = (_values(dtype, (30,), 13) if dtype != "bool" else np.arange(30) % 4 == 0)
    x = xp.asarray(h)
    made: list[str] = []
    init = graph.Node.__init__
    monkeypatch.setattr(graph.Node, "__init__", lambda self, *a, **k: (made.append(a[0]),
                                                                         init(self, *a, **k))[1])
    xp.diff(x)
    assert made == []
    monkeypatch.setattr(graph.Node, "__init__", init)
    for fn in (lambda: xp.diff(x), lambda: xp.diff(x[::-2]), lambda: xp.diff(x[:2])):
        with np.errstate(all="ignore"):
            now, kernel, launched = _now_and_kernel(fn)
        assert launched == 0 and now.dtype == kernel.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(_bits(now), _bits(kernel))
    with np.errstate(all="ignore"):
        want = np.diff(h, n=2)
    np.testing.assert_array_equal(_bits(np.asarray(xp.diff(x, n=2))), _bits(want))
