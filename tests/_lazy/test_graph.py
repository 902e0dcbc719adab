"""Graph nodes: constructors keep shapes and dtypes, trivial views are no nodes, and a
realized node turns into a BUFFER in place (so every array sharing it sees the result)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close
from zyxarray._codegen.ir import Op
from zyxarray._devices import registry
from zyxarray._lazy import graph as g
from zyxarray._lazy.realize import realize, to_host


@pytest.mark.parametrize("shape", [(), (1,), (2, 3), (0, 4)])
def test_from_host_keeps_the_shape(device: str, shape: tuple[int, ...]) -> None:
    data = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    node = g.from_host(data, registry.get(device))
    assert node.op == "BUFFER" and node.realized
    assert node.shape == shape, "(np.ascontiguousarray once made 0-d data 1-d)"
    np.testing.assert_array_equal(to_host(node), data)


def test_trivial_views_are_the_same_node(device: str) -> None:
    node = g.from_host(np.zeros((2, 3)), registry.get(device))
    assert g.reshape(node, (2, 3)) is node
    assert g.permute(node, (0, 1)) is node
    assert g.expand(node, (2, 3)) is node
    assert g.slice_view(node, ((0, 1, 2), (0, 1, 3))) is node
    assert g.cast(node, np.float64) is node
    v = g.permute(node, (1, 0))
    assert v.op == "VIEW" and v.shape == (3, 2) and v.srcs[0] is node
    assert g.permute(v, (1, 0)) is node, "a view of a view that is the identity is no node"


def test_const_cast_stays_const(device: str) -> None:
    c = g.const(3, np.int64, registry.get(device))
    f = g.cast(c, np.float32)
    assert f.op == "CONST" and f.dtype == np.float32 and f.shape == ()


def test_realized_node_becomes_a_buffer(device: str) -> None:
    dev = registry.get(device)
    a = g.from_host(np.arange(4.0), dev)
    b = g.alu(Op.ADD, a, a)
    c = g.alu(Op.MUL, b, b)
    assert not c.realized and c.depth == 2
    realize(c)
    assert c.realized and c.op == "BUFFER" and c.srcs == () and c.depth == 0
    np.testing.assert_array_equal(to_host(c), (np.arange(4.0) * 2) ** 2)


def test_alu_checks_shapes(device: str) -> None:
    dev = registry.get(device)
    a = g.from_host(np.zeros(3), dev)
    b = g.from_host(np.zeros(4), dev)
    with pytest.raises(AssertionError):
        g.alu(Op.ADD, a, b)


def test_reduce_keeps_reduced_axes(device: str) -> None:
    node = g.from_host(np.ones((2, 3, 4)), registry.get(device))
    r = g.reduce(node, Op.ADD, (2, 0))
    assert r.shape == (1, 3, 1) and r.arg == (Op.ADD, (0, 2))


def test_pending_depth_is_bounded(device: str) -> None:
    """Very long pending chains (three times ZYXARRAY_MAX_DEPTH's default) neither overflow
    the scheduler's recursion nor lose values."""
    x = xp.asarray(np.arange(3.0), device=device)
    for _ in range(1200):
        x = x + 1
    np.testing.assert_array_equal(np.asarray(x), np.arange(3.0) + 1200)


def test_equal_python_constants_share_one_node(device: str) -> None:
    dev = registry.get(device)
    f32 = np.dtype(np.float32)
    assert g.const(0.5, f32, dev) is g.const(0.5, f32, dev)
    assert g.const(0.5, f32, dev) is not g.const(0.5, np.float64, dev)
    assert g.const(1, f32, dev) is not g.const(1.0, f32, dev), "int and float stay apart"
    assert g.const(True, f32, dev) is not g.const(1, f32, dev)
    assert g.const(0.0, f32, dev) is not g.const(-0.0, f32, dev), "equal keys, other values"
    assert np.signbit(g.const(-0.0, f32, dev).arg)
    nan = float("nan")
    assert g.const(nan, f32, dev) is not g.const(nan, f32, dev)


def test_shared_constants_are_one_kernel_argument(device: str) -> None:
    # (a fresh key table: when it fills up, about 100,000 keys into a worker's session, it
    # is cleared with the shared constants, and a clear in the middle of this loop would
    # give it a second 0.5)
    g._forget_keys()
    x = xp.asarray(np.arange(5.0), device=device)
    y = x
    for _ in range(20):
        y = y * 0.5 + 0.25
    (kernel,) = xp.explain(y)
    assert kernel.ir is not None and kernel.ir.n_floats == 2, "0.5 and 0.25, once each"
    want = np.arange(5.0)
    for _ in range(20):
        want = want * 0.5 + 0.25
    np.testing.assert_allclose(np.asarray(y), want, rtol=1e-15)


def test_scalar_replay_builds_what_scalar_op_builds(device: str) -> None:
    """An operator's memo (``scalar_op`` -> ``scalar_replay``) gives the node the long way
    gives, and declines when the constant sits elsewhere among the leaves."""
    dev = registry.get(device)
    x, y = (g.from_host(np.arange(4.0) + k, dev) for k in range(2))

    def both(a: g.Node, value: float, reflected: bool = False) -> g.Node | None:
        memo: dict[tuple, tuple] = {}
        g.scalar_op(Op.MUL, x_like[a.key], value, reflected, memo)
        m = memo.get((a.key, value, type(value)))
        got = g.scalar_replay(a, m) if m is not None else None
        want = g.scalar_op(Op.MUL, a, value, reflected)
        if got is not None:
            assert (got.key, got.leaves, got.srcs, got.arg, got.dtype, got.shape, got.depth) \
                == (want.key, want.leaves, want.srcs, want.arg, want.dtype, want.shape,
                    want.depth)
        return got

    # a memo made on one node of a key, replayed on another node of that key
    p1 = g.scalar_op(Op.ADD, g.scalar_op(Op.MUL, x, 0.5, False), 0.25, False)
    p2 = g.scalar_op(Op.ADD, g.scalar_op(Op.MUL, y, 0.25, False), 0.5, False)
    p3 = g.scalar_op(Op.ADD, g.scalar_op(Op.MUL, y, 0.75, False), 0.125, False)
    assert p1.key == p2.key == p3.key
    x_like = {x.key: y, p1.key: p1}
    assert both(x, 0.5) is not None, "a new constant"
    assert both(x, 0.5, reflected=True) is not None
    assert both(p1, 0.5) is not None, "the constant where the memo saw it"
    x_like[p1.key] = p2
    assert both(p1, 0.5) is None, "the memo's constant sits elsewhere here"
    x_like[p1.key] = p3
    assert both(p1, 0.5) is None, "new to the memo's node, not to this one"
    x_like[p1.key] = p1
    assert both(p2, 3.0) is not None and both(p3, 3.0) is not None, "new to both"
    memo: dict[tuple, tuple] = {}
    for v in (0.0, -0.0, float("nan")):     # (constants that are not shared: no memo)
        g.scalar_op(Op.MUL, x, v, False, memo)
    assert memo == {}


def test_structure_keys(device: str) -> None:
    """ALU, CAST, VIEW and REDUCE nodes carry a key of their graph's structure: equal for the
    same ops on the same pattern of leaves, different when sharing, dtypes, shapes, views,
    axes or ops differ."""
    dev = registry.get(device)
    a, b = (g.from_host(np.arange(4.0) + k, dev) for k in range(2))
    c = g.from_host(np.arange(4, dtype=np.float32), dev)
    d = g.from_host(np.arange(5.0), dev)
    assert a.key == b.key and a.key != c.key and a.key != d.key
    assert g.alu(Op.MUL, a, b).key == g.alu(Op.MUL, b, a).key
    assert g.alu(Op.MUL, a, a).key != g.alu(Op.MUL, a, b).key, "sharing is structure"
    assert g.alu(Op.MUL, a, a).key == g.alu(Op.MUL, b, b).key
    assert g.alu(Op.MUL, a, b).key != g.alu(Op.ADD, a, b).key
    half = g.const(0.5, a.dtype, dev)
    one = g.alu2(Op.MUL, g.alu2(Op.ADD, a, half), half)
    two = g.alu2(Op.MUL, g.alu2(Op.ADD, b, half), g.const(0.25, a.dtype, dev))
    assert one.key != two.key and one.leaves == (a, half)
    assert two.leaves[0] is b and len(two.leaves) == 3
    assert g.cast(one, np.float32).key is not None
    one_b = g.alu2(Op.MUL, g.alu2(Op.ADD, b, half), half)
    assert g.reduce(one, Op.ADD, (0,)).key == g.reduce(one_b, Op.ADD, (0,)).key != one.key
    assert g.reduce(one, Op.ADD, (0,)).key != g.reduce(two, Op.ADD, (0,)).key
    assert g.reduce(one, Op.ADD, (0,)).key != g.reduce(one, Op.MAX, (0,)).key
    view = g.slice_view(a, ((1, 1, 2),))
    # a window of realized data is a leaf, keyed without where it starts (an argument)
    assert view.key == g.slice_view(b, ((0, 1, 2),)).key and view.leaves is None
    assert view.key != g.slice_view(a, ((0, 2, 2),)).key, "strides are structure"
    computed = g.alu(Op.NEG, a)     # a view of computed data: its offset is structure
    assert g.slice_view(computed, ((1, 1, 2),)).key != g.slice_view(computed, ((0, 1, 2),)).key
    assert g.alu(Op.NEG, view).key is not None and g.alu(Op.NEG, view).leaves == (view,)
    lib = g.library("sort", (a,), {"axis": -1}, a.dtype, a.shape)
    assert lib.key is None and g.alu(Op.NEG, lib).key is None, "library calls have no key"
    realize(one)
    assert one.op == "BUFFER" and one.leaves is None and one.key == a.key


def test_sources_sharing_their_leaves_are_keyed_as_any_others(device: str) -> None:
    """Views of one pending value (``u[:-2] + u[2:]``) share its leaves tuple, and their op
    is keyed without walking the leaves again: the same key as the walk gives, for which the
    tuples need only be equal."""
    dev = registry.get(device)
    a, b = (g.from_host(np.arange(6.0) + k, dev) for k in range(2))
    u = g.alu(Op.MUL, g.alu(Op.ADD, a, b), a)
    lo, hi = g.slice_view(u, ((0, 1, 4),)), g.slice_view(u, ((2, 1, 4),))
    assert lo.leaves is hi.leaves is u.leaves
    fast = g.alu(Op.ADD, lo, hi)
    hi.leaves = tuple(list(hi.leaves))      # (equal, not the same tuple: the walk)
    walked = g.alu(Op.ADD, lo, hi)
    assert fast.key == walked.key and fast.leaves == walked.leaves == (a, b)
    three = g.alu(Op.WHERE, g.alu(Op.CMPLT, lo, hi, dtype=np.bool_), lo, lo)
    assert three.leaves == (a, b) and three.key is not None
    assert g.alu(Op.ADD, lo, g.slice_view(g.alu(Op.NEG, u), ((1, 1, 4),))).key != fast.key


# -- reductions of one broadcast value are folded (issue 17) ----------------------------------
def test_a_sum_of_zeros_is_a_constant_not_a_computation() -> None:
    from zyxarray._lazy.realize import stats
    launches = stats.get("kernels", 0)
    z = xp.zeros((10**6, 10**6))                 # 10^12 elements: never computed
    assert float(xp.sum(z)) == 0.0 and float(xp.mean(z)) == 0.0
    assert float(xp.max(xp.full((10**5, 10**5), 2.5))) == 2.5
    assert int(xp.sum(xp.ones((10**6, 10**4), dtype=xp.int64))) == 10**10
    assert stats.get("kernels", 0) == launches


@pytest.mark.parametrize("make, reduce", [
    (lambda m: m.zeros((3, 4)), lambda m, x: m.sum(x, axis=1)),
    (lambda m: m.ones((3, 4), dtype=m.float32), lambda m, x: m.sum(x, axis=0)),
    (lambda m: m.full((2, 3), -0.0), lambda m, x: m.sum(x)),
    (lambda m: m.full((5,), 0.1), lambda m, x: m.sum(x)),                 # not exact: kernel
    (lambda m: m.full((4, 2), np.nan), lambda m, x: m.max(x, axis=0)),
    (lambda m: m.full((6,), 3, dtype=m.int64), lambda m, x: m.prod(x)),
    (lambda m: m.full((3,), 2**62, dtype=m.int64), lambda m, x: m.sum(x)),  # wraps
    (lambda m: m.full((0, 3), 1.0), lambda m, x: m.sum(x, axis=0)),
    (lambda m: m.full((2, 2), True), lambda m, x: m.all(x)),
    (lambda m: m.ones((100,), dtype=m.float16), lambda m, x: m.sum(x)),
    (lambda m: m.full((3, 3), 7, dtype=m.uint8), lambda m, x: m.max(x, axis=1)),
])
def test_folded_reductions_give_what_the_kernels_and_numpy_give(make: Any,
                                                                reduce: Any) -> None:
    want = reduce(np, make(np))
    with np.errstate(over="ignore"):
        got = reduce(xp, make(xp))
    computed = reduce(xp, make(xp) + 0)            # (a kernel: the input is no constant)
    assert got.dtype == computed.dtype and got.shape == computed.shape == np.shape(want)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(computed))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-15)
    assert np.array_equal(np.signbit(np.asarray(got)), np.signbit(np.asarray(computed)))


def _shape_of(n: g.Node) -> Any:
    """A node's graph as nested tuples (op, arg, dtype, shape, key, sources), leaves by op."""
    if not n.srcs:
        return (n.op, n.dtype, n.shape)
    return (n.op, n.arg, n.dtype, n.shape, n.key, tuple(_shape_of(s) for s in n.srcs))


def _argmax_rows(node: g.Node, scale: float) -> g.Node:
    """A small composite builder: a packed-looking graph with constants, an iota and views."""
    shape = node.shape
    x = g.alu(Op.MUL, node, g.const(scale, node.dtype, node.device))
    idx = g.broadcast(g.reshape(g.iota(shape[1], node.device), (1, shape[1])), shape)
    both = g.alu(Op.ADD, g.cast(x, np.float64), g.cast(idx, np.float64))
    return g.reduce(both, Op.MAX, (1,))


def test_replay_remakes_the_builders_graph_on_new_inputs(device: str) -> None:
    """``graph.replay`` keeps the first call's graph as a template: a later call on realized
    data of the same layout makes the same nodes, keys and leaves around the new inputs
    (windows at another offset included) without running the builder, and the values are
    the builder's; pending inputs and other parameters run the builder."""
    dev = registry.get(device)
    calls = []

    def build(node: g.Node, scale: float) -> g.Node:
        calls.append(scale)
        return _argmax_rows(node, scale)

    rng = np.random.default_rng(5)
    datas = [rng.random((6, 8)) for _ in range(3)]
    nodes = [g.from_host(d, dev) for d in datas]
    first = g.replay(build, (2.0,), nodes[0])
    again = g.replay(build, (2.0,), nodes[1])
    assert calls == [2.0], "the second call is replayed"
    assert _shape_of(again) == _shape_of(first) and again.key == first.key
    assert again.leaves is not None and nodes[1] in again.leaves and nodes[0] not in again.leaves
    np.testing.assert_allclose(to_host(again).ravel(), (datas[1] * 2.0 + np.arange(8)).max(axis=1))
    np.testing.assert_allclose(to_host(first).ravel(), (datas[0] * 2.0 + np.arange(8)).max(axis=1))
    g.replay(build, (3.0,), nodes[2])
    assert calls == [2.0, 3.0], "other parameters: the builder"
    # windows: the offset is part of the layout (a template per window start)
    big = rng.random((12, 8))
    base = g.from_host(big, dev)
    for start in (0, 6, 0, 6):
        win = g.slice_view(base, ((start, 1, 6), (0, 1, 8)))
        out = g.replay(build, (2.0,), win)
        np.testing.assert_allclose(to_host(out).ravel(),
                                   (big[start:start + 6] * 2.0 + np.arange(8)).max(axis=1))
    assert calls == [2.0, 3.0, 2.0, 2.0]
    # a pending input: never a template
    pending = g.alu(Op.ADD, nodes[0], nodes[1])
    out = g.replay(build, (2.0,), pending)
    assert calls[-1] == 2.0 and len(calls) == 5
    np.testing.assert_allclose(to_host(out).ravel(),
                               ((datas[0] + datas[1]) * 2.0 + np.arange(8)).max(axis=1))
    g._forget_keys()
    assert not g._templates


def test_rebuilt_remakes_a_graph_on_pending_inputs_and_new_constants(device: str) -> None:
    """``graph.rebuilt`` keeps a builder's graph as a template keyed by its inputs'
    structure: a later call on pending inputs of the same structure (another constant, the
    same layout) gets the same nodes, keys and leaves around them, without the builder, and
    the builder's values; another structure, another parameter, a leaf pattern that differs
    (two inputs reading one node, or two) or an unkeyed input runs the builder."""
    dev = registry.get(device)
    calls: list[int] = []

    def build(a: g.Node, k: g.Node, shift: int) -> tuple[g.Node, g.Node]:
        calls.append(shift)
        lit = g.literal(shift, np.int64, dev)
        mixed = g.alu(Op.ADD, g.alu(Op.MUL, a, lit), k)
        return mixed, g.alu(Op.XOR, mixed, a)

    rng = np.random.default_rng(8)
    datas = [rng.integers(0, 99, 16) for _ in range(3)]
    nodes = [g.alu(Op.ADD, g.from_host(d, dev), g.const(np.int64(7), np.int64, dev))
             for d in datas]                          # (pending inputs)
    keys = [g.const(np.int64(v), np.int64, dev) for v in (5, 11, 13)]
    first = g.rebuilt(build, (3,), (nodes[0], keys[0]))
    again = g.rebuilt(build, (3,), (nodes[1], keys[1]))
    assert calls == [3], "the second call is remade from the template"
    for x, y in zip(first, again):
        assert x.key == y.key and x.depth == y.depth and x.op == y.op
        assert y.leaves is not None and keys[1] in y.leaves and keys[0] not in y.leaves
    for (m, x), d, k in ((first, datas[0], 5), (again, datas[1], 11)):
        np.testing.assert_array_equal(to_host(m), (d + 7) * 3 + k)
        np.testing.assert_array_equal(to_host(x), ((d + 7) * 3 + k) ^ (d + 7))
    g.rebuilt(build, (4,), (nodes[2], keys[2]))
    assert calls == [3, 4], "another parameter: the builder"
    other = g.alu(Op.MUL, g.from_host(datas[2], dev), g.const(np.int64(2), np.int64, dev))
    g.rebuilt(build, (3,), (other, keys[2]))
    assert calls == [3, 4, 3], "another structure: the builder"
    shared = g.const(np.int64(7), np.int64, dev)
    same = g.alu(Op.ADD, g.from_host(datas[2], dev), shared)
    out = g.rebuilt(build, (3,), (same, shared))  # (the key is a leaf of the input too)
    assert calls == [3, 4, 3, 3], "another leaf pattern: the builder"
    np.testing.assert_array_equal(to_host(out[0]), (datas[2] + 7) * 3 + 7)
    # a builder that folds a constant input: keyed by its value (``values=True``)
    folds: list[int] = []

    def fold(a: g.Node, k: g.Node) -> tuple[g.Node]:
        folds.append(1)
        return (g.alu(Op.ADD, a, g.alu(Op.MUL, k, g.literal(3, np.int64, dev))),)

    for value, again in ((5, 1), (11, 2), (5, 2), (11, 2)):
        k = g.const(np.int64(value), np.int64, dev)
        (out,) = g.rebuilt(fold, (), (nodes[0], k), values=True)
        assert len(folds) == again
        np.testing.assert_array_equal(to_host(out), datas[0] + 7 + 3 * value)
    g._forget_keys()
    assert not g._rebuilt


def test_the_c_remake_makes_what_the_python_loop_makes(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """``graph._remake`` in C (``_hot.c``'s ``remake``, each slot written at its offset)
    and in Python make the same nodes: fields, keys, depths from the new sources, and one
    shared tuple of leaves per leaf set. Malformed templates raise, not crash."""
    if g.remake_c is None:
        pytest.skip("the C hot path did not build here")
    dev = registry.get("cpu")

    def build(a: g.Node, k: g.Node) -> tuple[g.Node, g.Node]:
        x = g.alu(Op.MUL, g.alu(Op.ADD, a, k), g.literal(3, np.int64, dev))
        y = g.reduce(g.alu(Op.XOR, x, g.cast(g.iota(16, dev), np.int64)), Op.ADD, (0,))
        return x, y

    def made(seed: int) -> tuple[tuple[g.Node, g.Node], np.ndarray, int]:
        data = np.random.default_rng(seed).integers(0, 99, 16)
        a = g.alu(Op.ADD, g.from_host(data, dev), g.const(np.int64(1), np.int64, dev))
        k = g.const(np.int64(seed), np.int64, dev)
        return g.rebuilt(build, (), (a, k)), data, seed   # type: ignore[return-value]

    made(1)                                                   # (the template)
    (cx, cy), data, k = made(2)
    monkeypatch.setattr(g, "remake_c", None)
    (px, py), _, _ = made(2)
    for c, p in ((cx, px), (cy, py)):
        assert (c.op, c.arg, c.dtype, c.shape, c.device, c.key, c.depth, c.buffer) == \
            (p.op, p.arg, p.dtype, p.shape, p.device, p.key, p.depth, p.buffer)
        assert [s.op for s in c.srcs] == [s.op for s in p.srcs]
        assert len(c.leaves) == len(p.leaves)
    assert cx.leaves is cx.srcs[0].leaves, "one tuple per leaf set (a literal is no leaf)"
    want = (data + 1 + k) * 3
    np.testing.assert_array_equal(to_host(cx), want)
    assert int(to_host(cy)[0]) == int(np.sum(want ^ np.arange(16)))
    from zyxarray._api import _hot
    assert _hot.core is not None
    for bad, error in ((((1,),), TypeError),
                       ((("ALU", Op.ADD, np.dtype(np.int64), (), dev, (5,), None, -1),),
                        IndexError)):
        with pytest.raises(error):
            _hot.core.remake(g.Node, [], bad, (), 0)


def test_a_large_template_is_remade_with_the_collector_paused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A template of ``GC_PAUSE_NODES`` nodes or more is remade with Python's cyclic
    collector paused (its new nodes make no cycles; each 700 of them started a collection),
    and the collector is left as it was found: on, or off where the caller turned it off."""
    import gc
    dev = registry.get("cpu")

    def build(a: g.Node) -> tuple[g.Node]:
        for _ in range(g.GC_PAUSE_NODES):
            a = g.alu(Op.ADD, a, g.literal(1, np.int64, dev))
        return (a,)

    seen: list[bool] = []
    inner = g.remake_c

    def remake(*args: Any) -> None:
        seen.append(gc.isenabled())
        if inner is not None:
            inner(*args)

    def made(seed: int) -> g.Node:
        a = g.alu(Op.ADD, g.from_host(np.arange(4), dev), g.const(np.int64(seed), np.int64,
                                                                     dev))
        return g.rebuilt(build, (), (a,))[0]

    made(0)                                                   # (the template)
    if inner is None:
        pytest.skip("the C hot path did not build here")
    monkeypatch.setattr(g, "remake_c", remake)
    assert gc.isenabled()
    got = made(5)
    assert seen == [False] and gc.isenabled()
    np.testing.assert_array_equal(to_host(got), np.arange(4) + 5 + g.GC_PAUSE_NODES)
    gc.disable()
    try:
        made(6)
        assert seen == [False, False] and not gc.isenabled()
    finally:
        gc.enable()


def test_argmax_and_var_replayed_give_numpys_values(device: str) -> None:
    """argmax/argmin and var go through ``graph.replay``: called again on other data of the
    same layout, and on windows of one buffer, they give NumPy's answers."""
    rng = np.random.default_rng(6)
    for _ in range(3):
        a = rng.standard_normal((40, 33)).astype(np.float32)
        a[3, 7] = np.nan
        x = xp.asarray(a, device=device)
        for k in range(2):
            w = x[k * 20:(k + 1) * 20]
            np.testing.assert_array_equal(np.asarray(xp.argmax(w, axis=1)),
                                          np.argmax(a[k * 20:(k + 1) * 20], axis=1))
            np.testing.assert_array_equal(np.asarray(xp.argmin(w, axis=0)),
                                          np.argmin(a[k * 20:(k + 1) * 20], axis=0))
            np.testing.assert_allclose(np.asarray(xp.var(w, axis=1, correction=1)),
                                       np.var(a[k * 20:(k + 1) * 20], axis=1, ddof=1),
                                       rtol=1e-4)


def test_argmax_and_var_of_pending_values_are_remade(device: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """On a pending input (k-means' distances) argmin/argmax and var are remade from a
    template after the first call of a structure (``graph.remade``: ``rebuilt``), with NumPy's
    answers for other data and other constants; an input that is one value is keyed by it
    (the reductions fold it)."""
    from zyxarray._api import _searching_functions, _statistical_functions
    built: list[str] = []
    for module, name in ((_searching_functions, "_packed"),
                         (_searching_functions, "_two_reductions"),
                         (_statistical_functions, "_var_one_pass")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _r=real, _n=name: (built.append(_n),
                                                                         _r(*a))[1])
    rng = np.random.default_rng(7)
    for k in range(3):
        a = rng.standard_normal((30, 17))
        a[2, 5] = np.nan
        x = xp.asarray(a, device=device) * (k + 2.0)        # (pending)
        want = a * (k + 2.0)
        np.testing.assert_array_equal(np.asarray(xp.argmin(x, axis=1)), np.argmin(want, axis=1))
        np.testing.assert_array_equal(np.asarray(xp.argmax(xp.astype(x, xp.float32), axis=0)),
                                      np.argmax(want.astype(np.float32), axis=0))
        np.testing.assert_allclose(np.asarray(xp.var(x, axis=1)), np.var(want, axis=1),
                                   rtol=1e-10)
    assert len(built) <= 3, built       # (each once: the first call of its structure)
    for value in (1.5, 2.5):            # one value: keyed by it
        c = xp.full((4, 5), value, device=device) * 1.0
        assert float(xp.var(c)) == 0.0 and int(xp.argmax(c)) == 0


def test_a_key_made_before_a_source_was_realized_is_made_again(device: str) -> None:
    """``counts = sum(onehot, axis=0)`` is built before ``onehot`` is realized (by a library
    call or a read): its key kept onehot's whole graph as leaves, and every value built
    from it after did too, so a k-means loop's graph grew by a few leaves each iteration and
    lost its key by the fourth. A source realized since is seen when the next node is built
    (``graph._refresh``), and the loop's key stays the same size."""
    rng = np.random.default_rng(2)
    hx = rng.random((60, 4))
    X = xp.asarray(hx, device=device)

    def nearest(d: Any) -> Any:      # (one-hot of each row's minimum: a keyed reduction)
        return xp.astype(d == xp.min(d, axis=1, keepdims=True), X.dtype)

    onehot = nearest(X * 2.0 + 0.5)
    counts = xp.sum(onehot, axis=0)
    assert len(counts._node.leaves) == 3        # (X, 2.0, 0.5)
    np.asarray(onehot)
    m = xp.maximum(counts, 1.0)
    assert len(m._node.leaves) == 2, "onehot's buffer and the 1.0"
    hoh = (hx == hx.min(axis=1, keepdims=True)).astype(float)
    assert_close(m, np.maximum(hoh.sum(axis=0), 1.0))
    centers, hc, sizes = X[:3], hx[:3], []
    for _ in range(6):
        onehot = nearest(xp.sum((X[:, None, :] - centers[None, :, :]) ** 2, axis=2))
        counts = xp.sum(onehot, axis=0)
        np.asarray(onehot)
        centers = xp.sum(onehot[:, :, None] * X[:, None, :], axis=0) / \
            xp.maximum(counts, 1.0)[:, None]
        sizes.append(None if centers._node.leaves is None else len(centers._node.leaves))
        dn = ((hx[:, None, :] - hc[None, :, :]) ** 2).sum(axis=2)
        oh = (dn == dn.min(axis=1, keepdims=True)).astype(float)
        hc = (oh[:, :, None] * hx[:, None, :]).sum(axis=0) / \
            np.maximum(oh.sum(axis=0), 1)[:, None]
    assert None not in sizes and len(set(sizes[1:])) == 1, sizes
    assert_close(centers, hc, rtol=1e-12)
