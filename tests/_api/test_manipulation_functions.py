"""View functions (reshape, permute_dims, expand_dims, squeeze, broadcast_to, flip, slicing,
.T/.mT) against NumPy 2: random chains of them, read both directly (a host view) and through
a kernel (index arithmetic in generated code). Then the functions that join, split and
rearrange: concat, stack, unstack, moveaxis, repeat, tile, roll, broadcast_arrays."""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import Input, assert_close, check_against_numpy, on_devices

CHAIN_DTYPES = ("int16", "float32", "complex128", "bool", "uint64")


@st.composite
def _reshape_target(draw: st.DrawFn, size: int) -> tuple[int, ...]:
    if size == 0:
        dims = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
        if 0 not in dims:
            dims[draw(st.integers(0, len(dims) - 1))] = 0
        return tuple(dims)
    dims: list[int] = []
    rest = size
    for _ in range(draw(st.integers(0, 3))):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = draw(st.sampled_from(divisors))
        dims.append(d)
        rest //= d
    dims.append(rest)
    dims = draw(st.permutations(dims))
    if rest == 1 and draw(st.booleans()):
        dims = [d for d in dims if d != 1] or [1]
    return tuple(dims) if math.prod(dims) == size else (size,)


@st.composite
def view_chain(draw: st.DrawFn, shape: tuple[int, ...]) -> list[tuple[str, Any]]:
    """A list of view operations, each valid for the shape the previous ones leave."""
    ops: list[tuple[str, Any]] = []
    cur = np.empty(shape, dtype=np.int8)
    for _ in range(draw(st.integers(1, 4))):
        choices = ["reshape", "expand_dims", "broadcast_to", "flip", "getitem"]
        if cur.ndim >= 2:
            choices += ["permute_dims", "mT"]
        if 1 in cur.shape:
            choices.append("squeeze")
        kind = draw(st.sampled_from(choices))
        if kind == "reshape":
            arg: Any = draw(_reshape_target(cur.size))
            if cur.size and len(arg) and draw(st.booleans()):
                arg = tuple(-1 if i == 0 else s for i, s in enumerate(arg))
        elif kind == "permute_dims":
            arg = tuple(draw(st.permutations(range(cur.ndim))))
        elif kind == "expand_dims":
            arg = draw(st.integers(-cur.ndim - 1, cur.ndim))
        elif kind == "squeeze":
            ones = [i for i, s in enumerate(cur.shape) if s == 1]
            arg = tuple(draw(st.sets(st.sampled_from(ones), min_size=1)))
            arg = arg[0] if len(arg) == 1 else arg
        elif kind == "broadcast_to":
            lead = tuple(draw(st.lists(st.integers(0, 3), max_size=2)))
            arg = lead + tuple(draw(st.integers(1, 3)) if s == 1 else s for s in cur.shape)
        elif kind == "flip":
            arg = draw(st.one_of(st.none(), hnp.valid_tuple_axes(cur.ndim))) \
                if cur.ndim else None
        elif kind == "getitem":
            arg = draw(hnp.basic_indices(cur.shape, allow_newaxis=True, allow_ellipsis=True))
        else:
            arg = None
        ops.append((kind, arg))
        cur = _apply_np(cur, [(kind, arg)])
        if cur.size > 400:
            break
    return ops


def _apply_np(a: np.ndarray, ops: list[tuple[str, Any]]) -> np.ndarray:
    for kind, arg in ops:
        if kind == "reshape":
            a = np.reshape(a, arg)
        elif kind == "permute_dims":
            a = np.transpose(a, arg)
        elif kind == "expand_dims":
            a = np.expand_dims(a, arg)
        elif kind == "squeeze":
            a = np.squeeze(a, arg)
        elif kind == "broadcast_to":
            a = np.broadcast_to(a, arg)
        elif kind == "flip":
            a = np.flip(a, axis=arg)
        elif kind == "getitem":
            a = a[arg]
        elif kind == "mT":
            a = np.swapaxes(a, -1, -2)
    return a


def _apply_xp(x: Any, ops: list[tuple[str, Any]]) -> Any:
    for kind, arg in ops:
        if kind == "reshape":
            x = xp.reshape(x, arg)
        elif kind == "permute_dims":
            x = xp.permute_dims(x, arg)
        elif kind == "expand_dims":
            x = xp.expand_dims(x, axis=arg)
        elif kind == "squeeze":
            x = xp.squeeze(x, axis=arg)
        elif kind == "broadcast_to":
            x = xp.broadcast_to(x, arg)
        elif kind == "flip":
            x = xp.flip(x, axis=arg)
        elif kind == "getitem":
            x = x[arg]
        elif kind == "mT":
            x = x.mT
    return x


@given(data=st.data())
def test_view_chains(device: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(CHAIN_DTYPES), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
                      label="shape")
    base = data.draw(hnp.arrays(np.dtype(dtype), shape), label="base")
    ops = data.draw(view_chain(shape), label="ops")
    expected = _apply_np(base, ops)
    for dev, x in on_devices(device, lambda d: _apply_xp(xp.asarray(base, device=d), ops)):
        assert x.shape == expected.shape
        assert_close(x, expected, what=f"host read of the view on {dev}")
        # through a kernel: the view becomes index arithmetic in generated code
        through = xp.where(xp.asarray(True, device=dev), x, x)
        assert_close(through, expected, what=f"kernel read of the view on {dev}")


@given(data=st.data())
def test_view_of_a_pending_result(device: str, data: st.DataObject) -> None:
    """Views of unrealized results fuse into the consumer's kernel; values are unchanged."""
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    base = data.draw(hnp.arrays(np.int32, shape, elements=st.integers(-1000, 1000)))
    ops = data.draw(view_chain(shape), label="ops")
    expected = _apply_np(base * 3 + 1, ops) * 2
    for dev, x in on_devices(device, lambda d: _apply_xp(xp.asarray(base, device=d) * 3 + 1,
                                                          ops) * 2):
        assert_close(x, expected, what=dev)


def test_transpose_attributes(device: str) -> None:
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    x = xp.asarray(a, device=device)
    assert_close(x.T, a.T)
    assert_close(x.mT, np.swapaxes(a, -1, -2))
    assert_close(xp.matrix_transpose(x), np.swapaxes(a, -1, -2))
    with pytest.raises(ValueError):
        _ = xp.asarray([1, 2], device=device).mT


def test_broadcast_arrays(device: str) -> None:
    a = np.arange(3)
    b = np.arange(6.0).reshape(2, 1, 3)[:, :, :1]
    xs = xp.broadcast_arrays(xp.asarray(a, device=device), xp.asarray(b, device=device))
    ns = np.broadcast_arrays(a, b)
    for x, n in zip(xs, ns):
        assert_close(x, n)


def test_reshape_copy_false(device: str) -> None:
    """copy=False must refuse when the result cannot be a view (NumPy 2 does too)."""
    x = xp.asarray(np.arange(6).reshape(2, 3), device=device)
    assert_close(xp.reshape(x, (3, 2), copy=False), np.arange(6).reshape(3, 2))
    with pytest.raises(ValueError):
        xp.reshape(x.T, (6,), copy=False)
    with pytest.raises(ValueError):
        np.reshape(np.arange(6).reshape(2, 3).T, (6,), copy=False)


def test_manipulation_errors(device: str) -> None:
    x = xp.asarray(np.zeros((2, 3)), device=device)
    with pytest.raises(ValueError, match="reshape"):
        xp.reshape(x, (4, 2))
    with pytest.raises(ValueError, match="reshape"):
        xp.reshape(x, (-1, -1))
    with pytest.raises(ValueError, match="permute_dims"):
        xp.permute_dims(x, (0, 0))
    with pytest.raises((ValueError, IndexError)):
        xp.permute_dims(x, (0, 2))
    with pytest.raises(ValueError, match="squeeze"):
        xp.squeeze(x, axis=0)
    with pytest.raises((ValueError, IndexError)):
        xp.expand_dims(x, axis=4)
    with pytest.raises(ValueError, match=r"broadcast_to.*\(2, 3\).*\(3, 3\)"):
        xp.broadcast_to(x, (3, 3))
    with pytest.raises(ValueError, match="broadcast_to"):
        xp.broadcast_to(x, (3,))
    with pytest.raises((ValueError, IndexError)):
        xp.flip(x, axis=2)
    with pytest.raises(ValueError, match="broadcast_arrays"):
        xp.broadcast_arrays(x, xp.asarray(np.zeros(4), device=device))


# -- concat, stack, unstack, moveaxis, repeat, tile, roll -----------------------------------
def _tuple_against_numpy(device: str, xp_fn: Any, np_fn: Any, *arrays: np.ndarray) -> None:
    """A function returning a tuple of arrays, on the device and the reference."""
    expected = np_fn(*arrays)
    for dev, got in on_devices(device, lambda d: xp_fn(*[xp.asarray(a, device=d)
                                                         for a in arrays])):
        assert isinstance(got, tuple) and len(got) == len(expected), dev
        for g_, e in zip(got, expected):
            assert g_.device.name == dev
            assert_close(g_, e, what=dev)


def test_concat(device: str) -> None:
    a = Input(np.arange(6, dtype=np.int16).reshape(2, 3), [])
    b = Input(np.arange(6, dtype=np.int16).reshape(3, 2)[::-1], [("permute", (1, 0))])
    c = Input(np.ones((2, 1), np.float32), [])
    check_against_numpy(device, lambda x, y: xp.concat([x, y], axis=1),
                        lambda x, y: np.concat([x, y], axis=1), [a, b])
    # promotion (int16 with float32 -> float32), negative axis, a tuple of arrays
    check_against_numpy(device, lambda x, y, z: xp.concat((x, z, y), axis=-1),
                        lambda x, y, z: np.concat((x, z, y), axis=-1), [a, b, c])
    # axis=None flattens; empty inputs take no part; one array is a copy
    e = Input(np.zeros((0, 3), np.int16), [])
    check_against_numpy(device, lambda x, y: xp.concat([x, y], axis=None),
                        lambda x, y: np.concat([x, y], axis=None), [a, b])
    check_against_numpy(device, lambda x, y: xp.concat([y, x, y], axis=0),
                        lambda x, y: np.concat([y, x, y], axis=0), [a, e])
    check_against_numpy(device, lambda x: xp.concat([x]), lambda x: np.concat([x]), [a])
    check_against_numpy(device, lambda y: xp.concat([y, y]), lambda y: np.concat([y, y]), [e])
    # positional axis, as NumPy
    x = a.on(device)
    assert_close(xp.concat([x, x], 1), np.concat([a.np, a.np], 1))


def test_stack_unstack(device: str) -> None:
    a = Input(np.arange(6.0).reshape(2, 3), [])
    b = Input(np.arange(6.0).reshape(3, 2), [("permute", (1, 0))])
    for axis in (0, 1, -1):
        check_against_numpy(device, lambda x, y, axis=axis: xp.stack([x, y, x], axis=axis),
                            lambda x, y, axis=axis: np.stack([x, y, x], axis=axis), [a, b])
    check_against_numpy(device, lambda x, y: xp.stack((x, y), 1),
                        lambda x, y: np.stack((x, y), 1), [a, b])
    c = np.arange(24, dtype=np.int8).reshape(2, 3, 4)
    for axis in (0, 1, -1):
        _tuple_against_numpy(device, partial(xp.unstack, axis=axis),
                             lambda v, axis=axis: tuple(np.moveaxis(v, axis, 0)), c)
    _tuple_against_numpy(device, xp.unstack, tuple, np.zeros((0, 2)))


def test_moveaxis(device: str) -> None:
    a = Input(np.arange(24).reshape(2, 3, 4), [])
    for src, dst in ((0, -1), (-1, 0), ((0, 1), (2, 0)), ([2, 0], [0, 1]), ((), ())):
        check_against_numpy(device, lambda x, s=src, d=dst: xp.moveaxis(x, s, d),
                            lambda x, s=src, d=dst: np.moveaxis(x, s, d), [a])


def test_repeat(device: str) -> None:
    a = Input(np.array([[1, 2, 3], [4, 5, 6]], np.uint8), [("index", (slice(None, None, -1),))])
    for repeats, axis in ((2, None), (3, 0), (0, 1), (1, -1)):
        check_against_numpy(device, lambda x, r=repeats, ax=axis: xp.repeat(x, r, axis=ax),
                            lambda x, r=repeats, ax=axis: np.repeat(x, r, axis=ax), [a])
    # one count per element: an array, a list, a 0-d array; positional axis
    counts = np.array([2, 0, 1])
    check_against_numpy(device, lambda x: xp.repeat(x, xp.asarray(counts, device=x.device), 1),
                        lambda x: np.repeat(x, counts, 1), [a])
    check_against_numpy(device, lambda x: xp.repeat(x, [1, 3], axis=0),
                        lambda x: np.repeat(x, [1, 3], axis=0), [a])
    check_against_numpy(device, lambda x: xp.repeat(x, xp.asarray(2, device=x.device)),
                        lambda x: np.repeat(x, 2), [a])
    x = a.on(device)
    with pytest.raises(ValueError):
        xp.repeat(x, -1)
    with pytest.raises(ValueError):
        xp.repeat(x, [1, 2], axis=1)                    # NumPy: ValueError too
    with pytest.raises(ValueError):
        xp.repeat(x, [1, -1], axis=0)
    with pytest.raises((ValueError, IndexError)):
        xp.repeat(x, 2, axis=2)


def test_tile(device: str) -> None:
    a = Input(np.arange(6, dtype=np.float32).reshape(2, 3), [("permute", (1, 0))])
    for reps in ((2,), (1, 1), (2, 3), (3, 1, 2), (0, 2)):
        check_against_numpy(device, lambda x, r=reps: xp.tile(x, r),
                            lambda x, r=reps: np.tile(x, r), [a])
    with pytest.raises(ValueError):
        xp.tile(a.on(device), (-1, 2))


def test_roll(device: str) -> None:
    a = Input(np.arange(12, dtype=np.int32).reshape(3, 4), [])
    cases = ((5, None), (-1, 0), ((1, -2), (0, 1)), (2, (0, 1)), ((1, 2), (1, 1)), (14, 1))
    for shift, axis in cases:
        check_against_numpy(device, lambda x, s=shift, ax=axis: xp.roll(x, s, axis=ax),
                            lambda x, s=shift, ax=axis: np.roll(x, s, axis=ax), [a])
    # NumPy integers as shift and axis; positional axis; a tuple of shifts flattened
    check_against_numpy(device, lambda x: xp.roll(x, np.int64(3), np.int8(1)),
                        lambda x: np.roll(x, 3, 1), [a])
    check_against_numpy(device, lambda x: xp.roll(x, (1, 2)), lambda x: np.roll(x, (1, 2)),
                        [a])
    check_against_numpy(device, lambda x: xp.roll(x, 3), lambda x: np.roll(x, 3),
                        [Input(np.zeros((0, 2)), [])])
    x = a.on(device)
    with pytest.raises((ValueError, IndexError)):
        xp.roll(x, 1, axis=2)
    with pytest.raises(ValueError):
        xp.roll(x, (1, 2, 3), axis=(0, 1))             # NumPy: ValueError too
    with pytest.raises(TypeError):
        xp.roll(x, 1.5)


def test_broadcast_arrays_more(device: str) -> None:
    """Several arrays, a 0-d one, an empty dimension, one array; a tuple every time."""
    _tuple_against_numpy(device, xp.broadcast_arrays, np.broadcast_arrays,
                         np.arange(3.0), np.array(7, np.int8), np.ones((2, 1), bool))
    _tuple_against_numpy(device, xp.broadcast_arrays, np.broadcast_arrays,
                         np.ones((0, 1)), np.arange(4))
    _tuple_against_numpy(device, xp.broadcast_arrays, np.broadcast_arrays, np.arange(2))
    assert xp.broadcast_arrays() == ()


def test_join_errors(device: str) -> None:
    x = xp.asarray(np.zeros((2, 3)), device=device)
    y = xp.asarray(np.zeros((2, 4)), device=device)
    with pytest.raises(ValueError, match="concat"):
        xp.concat([x, y], axis=0)
    with pytest.raises(ValueError, match="concat"):
        xp.concat([x, xp.asarray(np.zeros(3), device=device)])
    with pytest.raises(ValueError):
        xp.concat([])
    with pytest.raises(ValueError):
        xp.concat([xp.asarray(1.0, device=device)])   # NumPy: ValueError (0-d) too
    with pytest.raises((ValueError, IndexError)):
        xp.concat([x, x], axis=2)
    with pytest.raises(TypeError, match="concat"):
        xp.concat([x, "abc"])
    # (a NumPy array among the arrays is taken, as NumPy takes it)
    assert xp.concat([x, np.zeros((2, 3))]).shape == (x.shape[0] + 2, 3)
    with pytest.raises(TypeError, match="concat"):
        xp.concat([xp.asarray([1], dtype=xp.uint64, device=device),
                   xp.asarray([1], dtype=xp.int8, device=device)])
    with pytest.raises(ValueError, match="stack"):
        xp.stack([x, y])
    with pytest.raises((ValueError, IndexError)):
        xp.stack([x, x], axis=3)
    with pytest.raises(ValueError):
        xp.unstack(xp.asarray(1.0, device=device))
    with pytest.raises((ValueError, IndexError)):
        xp.unstack(x, axis=2)
    with pytest.raises((ValueError, IndexError)):
        xp.moveaxis(x, 0, 2)
    with pytest.raises(ValueError):
        xp.moveaxis(x, (0, 1), (0,))
    with pytest.raises(ValueError):
        xp.moveaxis(x, (0, 0), (0, 1))
    other = "reference" if device != "reference" else "cpu"
    with pytest.raises(ValueError, match="device"):
        xp.concat([x, xp.asarray(np.zeros((2, 3)), device=other)])


def test_small_arrays_in_cpu_memory_are_joined_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the cpu device, small arrays of one dtype whose values are in memory (a grid's
    edges joined every step of a loop) are joined by ``_hot.c`` at once: no node, no
    kernel, NumPy's values, any strides and axis; other inputs (mixed dtypes, pending
    values, axis None, 0-d, mismatched shapes) take the general path and its errors."""
    from zyxarray._lazy import graph, realize
    h = np.arange(48.0).reshape(6, 8)
    x = xp.asarray(h)
    made: list[str] = []
    init = graph.Node.__init__
    monkeypatch.setattr(graph.Node, "__init__", lambda self, *a, **k: (made.append(a[0]),
                                                                         init(self, *a, **k))[1])
    parts = [x[1:-1, :1], x[1:-1, 1:-1], x[1:-1, -1:]]
    host = [h[1:-1, :1], h[1:-1, 1:-1], h[1:-1, -1:]]
    flipped = (x[::-1, ::3], x[:, :2])
    ints = xp.asarray(np.arange(5, dtype=np.int16))
    pieces = [ints, ints[::-2], ints[:0]]
    made.clear()
    before = realize.stats["kernels"]
    got = [xp.concat(parts, axis=1), xp.concat(parts, axis=-1),
           xp.concatenate(flipped, 1), xp.concat(pieces)]
    assert made == [] and realize.stats["kernels"] == before      # (joined in C)
    want = [np.concatenate(host, axis=1), np.concatenate(host, axis=-1),
            np.concatenate((h[::-1, ::3], h[:, :2]), 1),
            np.concatenate([np.arange(5), np.arange(5)[::-2]]).astype(np.int16)]
    for a, b in zip(got, want):
        np.testing.assert_array_equal(np.asarray(a), b)
        assert np.asarray(a).dtype == b.dtype
    assert xp.concat([ints, ints]).dtype == xp.int16
    mixed = xp.concat([ints, xp.asarray(np.ones(2))])          # (promoted: general path)
    assert mixed.dtype == xp.float64 and made != []
    np.testing.assert_array_equal(np.asarray(xp.concat([x[0], x[1]], axis=None)),
                                  np.concatenate([h[0], h[1]], axis=None))
    with pytest.raises(ValueError, match="concat"):
        xp.concat([x, x[:, :3]], axis=0)
    with pytest.raises(ValueError, match="concat"):
        xp.concat([x[0, 0], x[0, 1]])


def test_concat_of_zeros_around_an_array_is_a_padded_view(device: str) -> None:
    """``concat([zeros, u, zeros])`` (a stencil's padding) is one masked view of u: read
    through shifted slices it fuses into one kernel per step instead of a stored copy."""
    h = np.arange(12.0).reshape(3, 4)
    u = xp.asarray(h, device=device)
    zr = xp.zeros((1, 4), device=device)
    p = xp.concat([zr, u, zr], axis=0)
    zc = xp.zeros((5, 1), device=device)
    p = xp.concat([zc, p, zc], axis=1)
    hp = np.pad(h, 1)
    assert_close(p, hp)
    step = u + 0.1 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u)
    assert len(xp.explain(step)) == 1
    assert_close(step, h + 0.1 * (hp[:-2, 1:-1] + hp[2:, 1:-1] + hp[1:-1, :-2]
                                  + hp[1:-1, 2:] - 4 * h))
    neg = xp.concat([xp.full((1, 4), -0.0, device=device), u], axis=0)   # -0.0 is data
    assert np.signbit(np.asarray(neg)[0]).all()


def test_many_inputs_in_cpu_memory_join_in_one_copy() -> None:
    """Rows computed in a Python loop, then stacked (``np.array(rows)``, ``np.stack``): on
    the cpu device, inputs already in memory are joined there by one copy, not a kernel
    each; a pending input keeps the lazy CONCAT."""
    from zyxarray._lazy import realize
    rows = [xp.asarray(np.arange(6.0) + i) for i in range(12)]
    before = realize.stats["kernels"]
    s = xp.stack(rows)
    c = xp.concat(rows[:7] + [xp.asarray(np.arange(3, dtype=np.int32))])  # (promoted)
    np.testing.assert_array_equal(np.asarray(s), np.arange(6.0) + np.arange(12.0)[:, None])
    assert c.dtype == xp.float64 and c.shape == (45,)
    np.testing.assert_array_equal(np.asarray(c)[-3:], [0, 1, 2])
    assert realize.stats["kernels"] == before
    lazy = xp.stack(rows[:11] + [xp.sum(xp.ones((6, 6)), axis=0)])
    np.testing.assert_array_equal(np.asarray(lazy)[-1], np.full(6, 6.0))


def test_small_inputs_in_cpu_memory_join_now() -> None:
    """A few small inputs already in the cpu device's memory (a small grid's edges joined
    each step of a loop) are joined now by NumPy's copy, as NumPy does, not by a node and a
    launch: the values and the promotions are concat's, and bad input gets concat's own
    errors."""
    from zyxarray._api import _hot
    from zyxarray._lazy import realize
    if not _hot.now_max():
        pytest.skip("the C hot path did not build here")
    rng = np.random.default_rng(3)
    h = [rng.standard_normal((4, 2)), rng.integers(-5, 5, (4, 3)).astype(np.int16),
         rng.standard_normal((4, 1)).astype(np.float32)]
    a = [xp.asarray(v) for v in h]
    before = realize.stats["kernels"]
    cases = [(xp.concat(a, axis=1), np.concatenate(h, axis=1)),
             (xp.concat(a[:1] * 3, axis=-2), np.concatenate(h[:1] * 3, axis=-2)),
             (xp.concat(a, axis=None), np.concatenate([v.ravel() for v in h])),
             (xp.concat([a[0][1:3], a[0][:1]]), np.concatenate([h[0][1:3], h[0][:1]]))]
    for got, want in cases:
        assert got._node.op == "BUFFER"
        assert got.dtype == xp.float64 and got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)
    assert realize.stats["kernels"] == before
    with pytest.raises(ValueError, match="concat"):
        xp.concat([a[0], a[1]], axis=0)
    with pytest.raises(ValueError, match="concat"):
        xp.concat([a[0][0, 0], a[0][1, 1]])
    with pytest.raises((ValueError, IndexError), match="concat"):
        xp.concat([a[0], a[0]], axis=2)
    big = xp.asarray(np.ones((100, 100)))           # (past now_max: the fused lazy join)
    assert xp.concat([big, big])._node.op != "BUFFER"


def test_a_concat_of_shapes_seen_before_reuses_its_recipe(device: str) -> None:
    """The second concat of inputs with the same shapes, dtypes and axis (and zeros in the
    same places) builds its select chain, or its padding, from what the first worked out (a
    loop's join), and gives the new inputs' values: mixed dtypes promoted, an empty part
    skipped, zeros around an array a padded view of it."""
    from zyxarray._api import _hot
    from zyxarray._api import _manipulation_functions as mf

    previous = _hot.set_now_max(0)      # (else the cpu device joins these small inputs now)
    try:
        _recipes_reused(device, mf)
    finally:
        _hot.set_now_max(previous)


def _recipes_reused(device: str, mf: Any) -> None:
    rng = np.random.default_rng(9)
    for round_ in range(3):
        h = [rng.standard_normal((3, 2)), rng.integers(0, 9, (3, 4)).astype(np.int16),
             np.zeros((3, 0)), rng.standard_normal((3, 1)).astype(np.float32)]
        parts = [xp.asarray(a, device=device) for a in h]
        assert_close(xp.concat(parts, axis=-1), np.concatenate(h, axis=-1))
        if round_:
            assert mf._concat_signature(parts, -1) in mf._CONCATS
        zero = xp.zeros((3, 2), device=device)
        padded = xp.concat([zero, parts[0]], axis=1)
        assert padded._node.op == "VIEW", "a padded view, no select"
        assert_close(padded, np.concatenate([np.zeros((3, 2)), h[0]], axis=1))
        if round_:
            assert mf._concat_signature([zero, parts[0]], 1) in mf._CONCATS
        assert_close(xp.concat([parts[0], parts[0] * 0.0], axis=1),   # (zeros, not known)
                     np.concatenate([h[0], h[0] * 0.0], axis=1))
        assert_close(xp.concat(parts[:2], axis=1), np.concatenate(h[:2], axis=1))
    with pytest.raises(ValueError):
        xp.concat([parts[0], xp.asarray(np.ones((4, 2)), device=device)], axis=1)
