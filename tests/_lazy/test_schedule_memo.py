"""The scheduler's memo (``schedule._templates``): a graph of a known structure reuses the
plans made for it, filled with its own buffers and constants. Every case checks values
against NumPy, so a stale plan (old buffers, old constants) would show."""

from __future__ import annotations

import gc
import math
import weakref
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import (
    assert_close,
    flush_float32_subnormals,
    flushes_float32_subnormals,
    track_peak,
)
from zyxarray._lazy import graph, lower, realize, schedule

BASE = np.linspace(-3.0, 3.0, 24)


def _hits() -> int:
    return schedule.memo_stats["hits"]


def test_other_constants_reuse_the_plans_and_the_kernel(device: str) -> None:
    x = xp.asarray(BASE, device=device)
    np.asarray(xp.sum(x * 0.25 + 7.0))
    compiles, hits = realize.stats["compiles"], _hits()
    for c in (1.0, -2.5, 1e10, 0.0, 3):
        got = float(xp.sum(x * c + (c * 2)))
        assert got == pytest.approx(float(np.sum(BASE * c + c * 2)), rel=1e-12)
    assert realize.stats["compiles"] == compiles, "a constant's value is an argument"
    assert _hits() >= hits + 5, "the same structure is scheduled once"


def test_integer_constants_are_arguments_too(device: str) -> None:
    h = np.arange(12, dtype=np.int32)
    x = xp.asarray(h, device=device)
    for c in (3, -4, 2**31 - 1, 0):
        assert_close((x * c) // 5 - c, (h * c) // 5 - c)


def test_other_buffers_reuse_the_plans(device: str) -> None:
    for k in range(4):
        h = BASE * (k + 1)
        a, b = xp.asarray(h, device=device), xp.asarray(h[::-1].copy(), device=device)
        assert_close(xp.exp(a) - b * 2, np.exp(h) - h[::-1] * 2, rtol=1e-14)


def test_sharing_is_part_of_the_structure(device: str) -> None:
    """``x * x`` and ``x * y`` have the same kinds, dtypes and shapes, but not one load."""
    hx, hy = BASE, BASE[::-1].copy()
    x, y = xp.asarray(hx, device=device), xp.asarray(hy, device=device)
    one, two = xp.explain(x * x + 1), xp.explain(x * y + 1)
    assert one[0].source != two[0].source, "one load and two loads are other kernels"
    assert xp.explain(y * y + 1)[0].source == one[0].source
    assert_close(x * x + 1, hx * hx + 1, rtol=1e-15)
    assert_close(x * y + 1, hx * hy + 1, rtol=1e-15)
    assert_close(y * y + 1, hy * hy + 1, rtol=1e-15)
    assert_close(y * x + 1, hy * hx + 1, rtol=1e-15)


def test_ops_shapes_dtypes_and_views_are_part_of_the_structure(device: str) -> None:
    h = BASE.reshape(4, 6)
    x = xp.asarray(h, device=device)
    assert_close(x + 1, h + 1)
    assert_close(x - 1, h - 1)
    assert_close(x[::2] + 1, h[::2] + 1)
    assert_close(x[1::2] + 1, h[1::2] + 1)
    assert_close(x.T + 1, h.T + 1)
    assert_close(xp.reshape(x, (6, 4)) + 1, h.reshape(6, 4) + 1)
    assert_close(xp.sum(x, axis=0) + 1, h.sum(axis=0) + 1, rtol=1e-14)
    assert_close(xp.sum(x, axis=1) + 1, h.sum(axis=1) + 1, rtol=1e-14)
    x32 = xp.asarray(h.astype(np.float32), device=device)
    assert_close(x32 + 1, h.astype(np.float32) + 1)


def test_a_realized_intermediate_changes_the_structure(device: str) -> None:
    """The same expression over a pending and over a realized producer: different plans."""
    for realize_first in (False, True, False):
        x = xp.asarray(BASE, device=device)
        y = xp.sin(x) * 2
        if realize_first:
            np.asarray(y)
        z = y + 1
        assert_close(z, np.sin(BASE) * 2 + 1, rtol=1e-15)
        assert_close(y, np.sin(BASE) * 2, rtol=1e-15)


def test_setitem_and_views_stay_right(device: str) -> None:
    for k, v in enumerate((5.0, -1.5, 2.0)):
        h = BASE.copy() + k
        a = xp.asarray(h, device=device)
        before = a[2:9]                # a view: sees the write, as in NumPy
        earlier = a[2:9].copy()        # a copy: does not
        a[3:7] = v
        want = h.copy()
        want[3:7] = v
        assert_close(a, want)
        assert_close(before, want[2:9])
        assert_close(earlier, h[2:9])
        b = a * 1
        b[::5] = b[1::5] + v           # a pending value written into a pending base
        want2 = want.copy()
        want2[::5] = want[1::5] + v
        assert_close(b, want2)
        assert_close(a, want)


def test_structures_with_several_kernels(device: str) -> None:
    """Softmax (a reduction read twice) and a library op: every step is refilled."""
    for k in range(3):
        h = np.arange(12.0).reshape(3, 4) * (k + 1) / 7
        x = xp.asarray(h, device=device)
        e = xp.exp(x - xp.max(x, axis=1, keepdims=True))
        s = e / xp.sum(e, axis=1, keepdims=True)
        want = np.exp(h - h.max(axis=1, keepdims=True))
        assert_close(s, want / want.sum(axis=1, keepdims=True), rtol=1e-14)
        m = xp.matmul(x * 2, x.T) + k
        assert_close(m, (h * 2) @ h.T + k, rtol=1e-13)


def test_padded_computed_values_are_memoized(device: str) -> None:
    """A pad of a computed value reads a zero outside its mask that the scheduler makes
    itself (it is not in the graph); such graphs are memoized all the same (before, every
    step of a padded stencil loop was scheduled from scratch)."""
    for k in range(4):
        h = np.arange(20.0).reshape(4, 5) * (k + 1)
        u = xp.asarray(h, device=device)
        hits = _hits()
        p = xp.pad(u * 0.5 + 1, 1)
        y = p[:-2, 1:-1] + p[2:, 1:-1] - 2 * (u * 0.5 + 1)
        hp = np.pad(h * 0.5 + 1, 1)
        assert_close(y, hp[:-2, 1:-1] + hp[2:, 1:-1] - 2 * (h * 0.5 + 1), rtol=1e-14)
        if k:
            assert _hits() > hits


def test_the_memo_holds_no_graph_nodes(device: str) -> None:
    """Templates name nodes by position: they must not keep buffers alive."""
    x = xp.asarray(BASE, device=device)
    y = xp.cos(x) + 3
    np.asarray(y)
    ref = weakref.ref(y._node)
    del y
    gc.collect()
    assert ref() is None
    for template in [*schedule._templates.values(), *schedule._keyed.values()]:
        for step in template.steps:
            assert not any(isinstance(v, graph.Node) for v in step)


def test_the_memo_is_bounded(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schedule, "MAX_TEMPLATES", 2)
    x = xp.asarray(BASE, device=device)
    for n in range(1, 6):
        assert_close(x[:n] * 3, BASE[:n] * 3)
        assert len(schedule._templates) <= 2
    assert_close(x[:2] * 3, BASE[:2] * 3)


def test_the_memo_is_bounded_by_nodes(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schedule, "MAX_TEMPLATE_NODES", 50)
    x = xp.asarray(BASE, device=device)
    for n in range(1, 8):
        y = x[:n]
        for _ in range(10):
            y = y * 0.5 + 1.0
        want = BASE[:n]
        for _ in range(10):
            want = want * 0.5 + 1.0
        assert_close(y, want, rtol=1e-15)
        assert schedule.memo_stats["nodes"] <= 50 + 60


def test_a_memoized_kernel_keeps_its_program(device: str) -> None:
    """The second run of a structure finds its program on the plan's memo: the same object
    the structure-keyed program cache holds, counted as a cache hit."""
    x = xp.asarray(BASE, device=device)
    float(xp.sum(xp.tan(x) * 0.5))
    hits = realize.stats["cache_hits"]
    y = xp.sum(xp.tan(x) * 0.75)
    (plan,) = schedule.schedule([y._node.base()])
    assert plan.memo is not None
    float(y)
    assert realize.stats["cache_hits"] == hits + 1
    c = lower.canonicalize(plan, x.device.info)
    assert plan.memo["program", x.device.name, 0, c.lanes] is realize._programs[c.key]


def test_explain_matches_what_runs(device: str) -> None:
    x = xp.asarray(BASE, device=device)
    plan = xp.explain(xp.sum(x * 4.0 + 1.0))
    plan2 = xp.explain(xp.sum(x * -2.0 + 9.0))
    assert [k.source for k in plan] == [k.source for k in plan2]
    assert float(xp.sum(x * -2.0 + 9.0)) == pytest.approx(np.sum(BASE * -2 + 9), rel=1e-13)


# -- structure keys (graph.py): elementwise graphs are scheduled without a walk ---------------
def _chain(x, n: int, a: float, b: float):  # type: ignore[no-untyped-def]
    for _ in range(n):
        x = x * a + b
    return x


def test_a_keyed_graph_is_not_walked(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # (from a fresh key table: after thousands of other tests in one process this failed
    # in full runs, not alone; the cause is not understood: see the session 16 notes)
    graph._forget_keys()
    x = xp.asarray(BASE, device=device)
    assert_close(_chain(x, 30, 0.5, 1.0), _chain(BASE, 30, 0.5, 1.0), rtol=1e-14)

    def walked(*args: object) -> None:
        raise AssertionError("the keyed graph was walked")

    monkeypatch.setattr(schedule, "_structure", walked)
    hits = _hits()
    for k in range(3):
        y = xp.asarray(BASE + k, device=device)
        assert_close(_chain(y, 30, 0.25 * (k + 1), -1.0 - k),
                     _chain(BASE + k, 30, 0.25 * (k + 1), -1.0 - k), rtol=1e-14)
    assert _hits() == hits + 3


def test_keyed_graphs_with_other_sharing(device: str) -> None:
    hx, hy = BASE, BASE[::-1].copy()
    for _ in range(2):
        x, y = xp.asarray(hx, device=device), xp.asarray(hy, device=device)
        assert_close((x * 2) * (y * 2), (hx * 2) * (hy * 2), rtol=1e-15)
        assert_close((x * 2) * (x * 2), (hx * 2) * (hx * 2), rtol=1e-15)
        assert_close((y * 2) * (x * 3), (hy * 2) * (hx * 3), rtol=1e-15)
        assert_close(x * y - y * x + x, hx * hy - hy * hx + hx, rtol=1e-15)
        t = x + 1.5
        assert_close(t * t - t, (hx + 1.5) * (hx + 1.5) - (hx + 1.5), rtol=1e-15)


def test_an_intermediate_realized_after_the_key_was_made(device: str) -> None:
    """The key describes the graph as built; realizing a node inside it later changes what
    the general walk sees (it loads that node) but not the values."""
    for k in range(3):
        x = xp.asarray(BASE + k, device=device)
        y = xp.exp(x) * 2.0
        z = y - 1.0
        if k != 1:
            np.asarray(y)        # z's graph now has a BUFFER where its key has exp(x) * 2
        assert_close(z, np.exp(BASE + k) * 2 - 1, rtol=1e-14)
        assert_close(y, np.exp(BASE + k) * 2, rtol=1e-14)


def _soft_centres(x: object, c: object, m: object) -> object:
    """A k-means-like step of several kernels: distances, a row minimum, weights, and
    weighted column sums."""
    d = m.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2)           # type: ignore
    w = m.exp(-(d - m.min(d, axis=1, keepdims=True)))                  # type: ignore
    return m.sum(w[:, :, None] * x[:, None, :], axis=0) / m.sum(w, axis=0)[:, None]  # type: ignore


def test_a_keyed_graph_of_several_kernels_is_not_walked(
        device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A keyed graph that takes several kernels reuses its plans without the walk that keys
    the structure memo: the intermediates they store are found by their paths from the
    root. An intermediate realized since the key was made (the path crosses a buffer) and
    another graph's sharing of the same key still give the right values."""
    graph._forget_keys()
    rng = np.random.default_rng(3)
    hx, hc = rng.random((40, 4)), rng.random((5, 4))
    x = xp.asarray(hx, device=device)
    assert_close(_soft_centres(x, xp.asarray(hc, device=device), xp),
                 _soft_centres(hx, hc, np), rtol=1e-12)
    walks = []
    original = schedule._structure

    def counted(*args: object) -> object:
        walks.append(1)
        return original(*args)      # type: ignore[arg-type]

    monkeypatch.setattr(schedule, "_structure", counted)
    c, want = xp.asarray(hc, device=device), hc
    for _ in range(3):
        c, want = _soft_centres(x, c, xp), _soft_centres(hx, want, np)
        assert_close(c, want, rtol=1e-12)
    assert not walks
    # an intermediate realized before the root: the scheduler plans this graph instead
    d = xp.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2)
    dn = np.sum((hx[:, None, :] - want[None, :, :]) ** 2, axis=2)
    w = xp.exp(-(d - xp.min(d, axis=1, keepdims=True)))
    np.asarray(d)
    assert_close(xp.sum(w, axis=0), np.exp(-(dn - dn.min(axis=1, keepdims=True))).sum(axis=0),
                 rtol=1e-12)
    assert_close(_soft_centres(x, x[:5], xp), _soft_centres(hx, hx[:5], np), rtol=1e-12)
    # each step realizes an intermediate between building the graph and realizing it (as a
    # library call realizes its input): the plans load it, found by its path too
    walks.clear()
    for _ in range(4):
        d = xp.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2)
        w = xp.exp(-(d - xp.min(d, axis=1, keepdims=True)))
        total = xp.sum(w, axis=0)
        np.asarray(w)
        c = xp.sum(w[:, :, None] * x[:, None, :], axis=0) / total[:, None]
        dn = np.sum((hx[:, None, :] - want[None, :, :]) ** 2, axis=2)
        wn = np.exp(-(dn - dn.min(axis=1, keepdims=True)))
        want = np.sum(wn[:, :, None] * hx[:, None, :], axis=0) / wn.sum(axis=0)[:, None]
        assert_close(c, want, rtol=1e-12)
    assert len(walks) <= 2


def _count_schedules(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time a realization plans a graph (``schedule``)."""
    planned: list[int] = []
    original = realize.schedule

    def counted(*args: object) -> object:
        planned.append(1)
        return original(*args)      # type: ignore[arg-type]

    monkeypatch.setattr(realize, "schedule", counted)
    return planned


def _jacobi_steps(m: Any, u: Any, steps: int) -> Any:
    for _ in range(steps):
        inner = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        mid = m.concatenate([u[1:-1, :1], inner, u[1:-1, -1:]], axis=1)
        u = m.concatenate([u[:1], mid, u[-1:]], axis=0)
    return u


def test_a_keyed_graph_of_several_kernels_launches_without_plans(
        device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a keyed graph of several kernels has run, another graph of its structure runs
    its kernels from their launch records (``realize._realize_keyed_kernels``): no schedule,
    no plans, no canonical forms; the same values, each step's buffer let go after the next
    step read it, and a graph whose windows moved reads where they are now."""
    graph._forget_keys()
    h = np.random.default_rng(5).random((20, 16))
    u = xp.asarray(h, device=device)
    assert_close(_jacobi_steps(xp, u, 4), _jacobi_steps(np, h, 4), rtol=1e-12)
    planned = _count_schedules(monkeypatch)
    for k in range(3):
        h2 = h * (k + 2)
        r = _jacobi_steps(xp, xp.asarray(h2, device=device), 4)
        assert_close(r, _jacobi_steps(np, h2, 4), rtol=1e-12)
    assert not planned, "launched from the records"
    big = xp.asarray(np.random.default_rng(6).random((30, 16)), device=device)
    window = big[5:25]       # (a window: its offset moves, the structure is the same)
    assert_close(_jacobi_steps(xp, window, 4), _jacobi_steps(np, np.asarray(big)[5:25], 4),
                 rtol=1e-12)
    dev = u.device
    pool = getattr(dev, "pool", None)
    if pool is None or dev.info.style != "loops":
        return      # (a GPU's queue keeps each launch's buffers until it has finished)
    np.asarray(_jacobi_steps(xp, u, 10))
    r = _jacobi_steps(xp, u, 10)
    start = pool.in_use
    most = track_peak(monkeypatch, pool)
    planned.clear()
    assert_close(r, _jacobi_steps(np, h, 10), rtol=1e-12)
    assert not planned and most[0] - start <= 3 * h.nbytes, "each step let go in turn"


def test_too_many_leaves_take_the_general_path(device: str) -> None:
    hs = [BASE * (i + 1) for i in range(graph.MAX_KEYED_LEAVES + 3)]
    xs = [xp.asarray(h, device=device) for h in hs]
    acc, want = xs[0], hs[0]
    for x, h in zip(xs[1:], hs[1:]):
        acc, want = acc + x, want + h
    assert acc._node.key is None
    assert_close(acc, want, rtol=1e-14)


def test_literals_are_not_leaves(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a library algorithm's constants (``graph.literal``) are written into its kernel: its
    # key names them, and the scheduler puts nothing in their place, so dozens of them keep
    # a graph keyed and its plans reused without a walk
    def poly(x):  # type: ignore[no-untyped-def]
        with graph.literals():
            acc = x * 0.0
            for i in range(graph.MAX_KEYED_LEAVES + 8):
                acc = acc * x + (1.0 / (i + 2))
            return acc

    x = xp.asarray(BASE / 4, device=device)
    first = poly(x)
    assert first._node.key is not None and first._node.leaves == (x._node,)
    assert_close(first, poly(BASE / 4), rtol=1e-13)

    def walked(*args: object) -> None:
        raise AssertionError("the keyed graph was walked")

    monkeypatch.setattr(schedule, "_structure", walked)
    hits = _hits()
    for k in range(2):
        h = BASE / (5 + k)
        assert_close(poly(xp.asarray(h, device=device)), poly(h), rtol=1e-13)
    assert _hits() == hits + 2


def test_a_random_draw_is_keyed_and_not_walked(device: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # Philox's round keys are made in the kernel from the key's two words: a draw's leaves
    # are its index, the key and the offset (its 20-odd constants are literals)
    rng = xp.random.default_rng(5, device=device)
    want = [np.asarray(rng.standard_normal(40)) for _ in range(3)]
    draw = xp.random.default_rng(5, device=device).standard_normal(40)
    assert draw._node.key is not None and len(draw._node.leaves) <= 4
    assert_close(draw, want[0], rtol=0)

    def walked(*args: object) -> None:
        raise AssertionError("the keyed graph was walked")

    rng = xp.random.default_rng(5, device=device)
    monkeypatch.setattr(schedule, "_structure", walked)
    for w in want:
        assert_close(rng.standard_normal(40), w, rtol=0)


def test_a_multinomial_is_keyed_and_not_walked(device: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # a tree of three binomial samplers: its numbers are literals, its attempt axes share
    # one iota, so its graph (4,500 nodes) is keyed and each call launches its memoized
    # kernels without walking it (it was built and walked at every call: 25 ms, NumPy 0.7)
    # (and six even categories, as examples/numpy_programs/simulations.py rolls dice)
    cases = [(60, [0.1, 0.2, 0.3, 0.15, 0.25], 50), (600, [1 / 6] * 6, 2000)]

    def draws() -> list[np.ndarray]:
        rng = xp.random.default_rng(8, device=device)
        return [np.asarray(rng.multinomial(n, p, size=size))
                for _ in range(3) for n, p, size in cases]

    want = draws()
    for n, p, size in cases:
        one = xp.random.default_rng(8, device=device).multinomial(n, p, size=size)
        assert one._node.key is not None and len(one._node.leaves) <= graph.MAX_KEYED_LEAVES

    def walked(*args: object) -> None:
        raise AssertionError("the keyed graph was walked")

    monkeypatch.setattr(schedule, "_structure", walked)
    for i, (got, w) in enumerate(zip(draws(), want)):
        n, p, size = cases[i % len(cases)]
        np.testing.assert_array_equal(got, w)
        assert (got.sum(axis=1) == n).all() and got.shape == (size, len(p))


def test_a_keyed_softmax_is_not_walked(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def softmax(x):  # type: ignore[no-untyped-def]
        e = xp.exp(x - xp.max(x, axis=1, keepdims=True))
        return e / xp.sum(e, axis=1, keepdims=True)

    def want(h: np.ndarray) -> np.ndarray:
        e = np.exp(h - h.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    h = BASE.reshape(4, 6)
    assert_close(softmax(xp.asarray(h, device=device)), want(h), rtol=1e-14)

    def walked(*args: object) -> None:
        raise AssertionError("the keyed graph was walked")

    monkeypatch.setattr(schedule, "_structure", walked)
    for k in range(3):
        assert_close(softmax(xp.asarray(h * (k + 2), device=device)), want(h * (k + 2)),
                     rtol=1e-14)


def test_shared_and_repeated_reductions_with_one_key(device: str) -> None:
    """One reduction read under two views (shared: the scheduler may give it a kernel of
    its own) and two equal reductions (one kernel computes both) have the same key; either
    order of first use gives the right values."""
    h = BASE.reshape(4, 6)

    def shared(x):  # type: ignore[no-untyped-def]
        m = xp.max(x, axis=1, keepdims=True)
        return (x - m) * xp.reshape(m, (4, 1))[::-1]

    def repeated(x):  # type: ignore[no-untyped-def]
        return (x - xp.max(x, axis=1, keepdims=True)) * \
            xp.reshape(xp.max(x, axis=1, keepdims=True), (4, 1))[::-1]

    m = h.max(axis=1, keepdims=True)
    expected = (h - m) * m[::-1]
    for order in ((shared, repeated), (repeated, shared)):
        for f in order * 2:
            x = xp.asarray(h, device=device)
            assert_close(f(x), expected, rtol=1e-15)


# -- a keyed kernel launched from its leaves (realize._realize_keyed) ------------------------

def _no_planning(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on a realization that plans (``schedule``) fails the test."""
    def planned(*args: object) -> None:
        raise AssertionError("planned again: the keyed kernel was not launched directly")

    monkeypatch.setattr(realize, "schedule", planned)


def test_a_repeated_small_kernel_is_launched_from_its_leaves(
        device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Other buffers, constants of every kind and the rows of an array (windows at other
    offsets) give NumPy's values without planning again."""
    h = np.linspace(-2.0, 2.0, 40).reshape(8, 5)
    rows = xp.asarray(h, device=device)
    ints = xp.asarray(np.arange(5, dtype=np.uint64), device=device)
    steps = [(rows[i] * c + 1.5, h[i] * c + 1.5) for i, c in ((0, 2.0), (1, -1.0))]
    for got, want in steps:                       # (plans, then keeps the launch record)
        assert_close(got, want)
    assert_close(ints + np.uint64(2**63 + 5), np.arange(5, dtype=np.uint64) + 2**63 + 5)
    assert_close(ints + np.uint64(3), np.arange(5, dtype=np.uint64) + 3)
    assert_close(xp.sum(rows[2] * 3.0), np.sum(h[2] * 3.0), rtol=1e-14)
    assert_close(xp.sum(rows[3] * 3.0), np.sum(h[3] * 3.0), rtol=1e-14)
    kernels = realize.stats["kernels"]
    _no_planning(monkeypatch)
    for i in (7, 4, 2, 0):
        for c in (0.5, -3.0, 1e300):
            assert_close(rows[i] * c + 1.5, h[i] * c + 1.5)
        assert_close(xp.sum(rows[i] * 3.0), np.sum(h[i] * 3.0), rtol=1e-14)
    other = xp.asarray(h[::-1].copy(), device=device)      # another buffer, same structure
    assert_close(other[1] * 4.0 + 1.5, h[::-1][1] * 4.0 + 1.5)
    for big in (2**64 - 1, 2**63, 7):
        assert_close(ints + np.uint64(big), np.arange(5, dtype=np.uint64) + np.uint64(big))
    assert realize.stats["kernels"] == kernels + 4 * 4 + 1 + 3


def test_a_launched_kernel_reads_the_values_from_before_a_later_write(device: str) -> None:
    """A pending result launched from its leaves gives the values its leaves held when it was
    made, as NumPy's would, even when a write into one of them comes before the read."""
    h = np.arange(12, dtype=np.float64).reshape(3, 4)
    x = xp.asarray(h, device=device)
    for _ in range(3):
        assert_close(x[1] * 2.0, h[1] * 2.0)
    y = x[1] * 2.0            # (pending)
    x[1, 2] = 100.0
    x[1] += 1.0
    assert_close(y, h[1] * 2.0)
    h[1, 2] = 100.0
    h[1] += 1.0
    assert_close(x[1] * 2.0, h[1] * 2.0)


def test_a_library_op_on_realized_inputs_runs_without_planning(
        device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A matrix product of realized data and views of it, or of one pending input whose
    kernel is memoized, runs without the scheduler, with NumPy's values."""
    rng = np.random.default_rng(3)
    ha, hw = rng.standard_normal((30, 9)), rng.standard_normal(8)
    a, w = xp.asarray(ha, device=device), xp.asarray(hw, device=device)

    def steps(c: float) -> None:
        assert_close(a[:, :-1] @ w, ha[:, :-1] @ hw, rtol=1e-12)
        assert_close(a[::2, 1:] @ (w * c), ha[::2, 1:] @ (hw * c), rtol=1e-12)
        assert_close(a[:, 1:].T @ (a[:, 1:] @ w), ha[:, 1:].T @ (ha[:, 1:] @ hw), rtol=1e-12)

    for c in (1.0, 2.0):                # (the pending input's kernel, memoized)
        steps(c)
    if (a[:, 1:].T @ (a[:, 1:] @ w))._node.op != "LIBRARY":
        pytest.skip(f"{device} computes small products as generated kernels")
    _no_planning(monkeypatch)
    for c in (3.0, -0.5):
        steps(c)


def _float_arguments(plan: list) -> int:
    from zyxarray._codegen.ir import Op
    return sum(1 for k in plan for i in k.ir.instrs if i.op is Op.FLOAT_ARG)


def test_literals_are_written_into_the_kernel(device: str) -> None:
    """``graph.literal``: the value is in the source, and each value is a structure of its
    own (a kernel or plan memoized for another value would give that value's results)."""
    from zyxarray._api._array_object import Array
    h = BASE.astype(np.float32)
    x = xp.asarray(h, device=device)
    d = x._node.device
    for v in (0.5, 2.0 ** -130, math.inf, math.nan, -0.0, 0.1, 3.0):
        lit = Array._new(graph.literal(v, np.float32, d))
        flushes = flushes_float32_subnormals(device)   # (NVIDIA's Vulkan: 2^-130 is 0)
        w = np.array([v], np.float32)
        w = flush_float32_subnormals(w)[0] if flushes else w[0]
        with np.errstate(all="ignore"):
            want = h * w + w
        assert_close(x * lit + lit, flush_float32_subnormals(want) if flushes else want)
    assert _float_arguments(xp.explain(x * Array._new(graph.literal(0.5, np.float32, d)))) == 0
    assert _float_arguments(xp.explain(x * 0.5)) == 1, "a user's scalar stays an argument"
    n = xp.asarray(np.arange(8, dtype=np.int32), device=device)
    assert_close(n >> Array._new(graph.literal(1, np.int32, n._node.device)),
                 np.arange(8, dtype=np.int32) >> 1)


def test_python_numbers_are_literals_inside_literals(device: str) -> None:
    from zyxarray._api._array_object import Array
    x = xp.asarray(BASE.astype(np.float32), device=device)
    with graph.literals():
        inside = x * 2.53 + 0.931
        fresh = x * Array._new(graph.const(np.float32(2.53), np.float32, x._node.device))
    assert _float_arguments(xp.explain(inside)) == 0
    assert _float_arguments(xp.explain(fresh)) == 1, "a NumPy scalar's node stays an argument"
    assert _float_arguments(xp.explain(x * 2.53 + 0.931)) == 2, "outside: arguments again"
    assert_close(inside, BASE.astype(np.float32) * np.float32(2.53) + np.float32(0.931))


def test_samplers_compile_nothing_for_a_new_seed_or_parameter(device: str) -> None:
    """The samplers' constants are literals (``_random_sampling._fixed_constants``); their
    seeds, offsets and parameters stay arguments."""
    def draws(seed: int, lam: float, p: float) -> None:
        g = xp.random.default_rng(seed, device=device)
        np.asarray(g.normal(size=64) + g.poisson(lam, 64) + g.binomial(40, p, 64))
    draws(0, 3.0, 0.25)
    compiles = realize.stats["compiles"]
    # (in the same ranges of lam and n p: those choose how many inversion steps are built)
    for seed, lam, p in ((1, 3.0, 0.25), (2, 3.5, 0.24), (3, 2.5, 0.2)):
        draws(seed, lam, p)
    assert realize.stats["compiles"] == compiles


def test_literals_are_per_thread(device: str) -> None:
    """A sampler inside ``literals()`` in one thread leaves another thread's scalars
    arguments (a global scope made them literals: a compile per value)."""
    import threading
    inside, leave = threading.Event(), threading.Event()

    def sampler() -> None:
        with graph.literals():
            inside.set()
            leave.wait(10)

    t = threading.Thread(target=sampler)
    t.start()
    try:
        assert inside.wait(10)
        x = xp.asarray(BASE.astype(np.float32), device=device)
        assert _float_arguments(xp.explain(x * 2.53 + 0.931)) == 2
    finally:
        leave.set()
        t.join()



def test_keyed_plans_survive_the_key_table_being_cleared(device: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """When the key table fills and is cleared, the shared constants go with it: a constant
    made before (with a key of the old table) and one made after would give one graph two
    keys, and a long session's loops fell off the keyed path."""
    x = xp.asarray(BASE, device=device)
    np.asarray(x * 0.5 + 1.0)                  # (0.5 and 1.0 shared, keyed in the old table)
    monkeypatch.setattr(graph, "MAX_KEYS", 0)
    graph._intern(("a record that fills the table", device))
    monkeypatch.setattr(graph, "MAX_KEYS", 100_000)
    y = xp.asarray(BASE, device=device)
    assert_close(_chain(y, 30, 0.5, 1.0), _chain(BASE, 30, 0.5, 1.0), rtol=1e-14)

    def walked(*args: object) -> None:
        raise AssertionError("the keyed graph was walked")

    monkeypatch.setattr(schedule, "_structure", walked)
    for k in range(3):
        assert_close(_chain(y, 30, 0.25 * (k + 1), -1.0 - k),
                     _chain(BASE, 30, 0.25 * (k + 1), -1.0 - k), rtol=1e-14)


def test_a_two_kernel_reduction_launches_from_its_record(
        device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long whole-array reduction on a GPU is two kernels (``g_split``: partial results in
    scratch memory, then their combination), as is a long column reduction over few columns
    (``g_column_split``). Their launch records hold both programs and the scratch sizes, so
    a loop that realizes one each step launches them from the record, with new inputs."""
    rng = np.random.default_rng(8)
    h = rng.random(1 << 17)
    hc = rng.random((40_000, 4))
    x, c = xp.asarray(h, device=device), xp.asarray(hc, device=device)
    assert_close(xp.sum(x * 2.0), (h * 2.0).sum(), rtol=1e-12)
    assert_close(xp.sum(c * 2.0, axis=0), (hc * 2.0).sum(axis=0), rtol=1e-12)
    planned = _count_schedules(monkeypatch)
    for k in range(3):
        h2, hc2 = h * (k + 1), hc + k
        assert_close(xp.sum(xp.asarray(h2, device=device) * 2.0), (h2 * 2.0).sum(), rtol=1e-12)
        assert_close(xp.sum(xp.asarray(hc2, device=device) * 2.0, axis=0),
                     (hc2 * 2.0).sum(axis=0), rtol=1e-12)
    assert not planned
