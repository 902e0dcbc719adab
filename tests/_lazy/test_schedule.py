"""Fusion, seen through explain(): how many kernels an expression becomes, and that values
stay right when fused. Counts are upper bounds the architecture promises (ARCHITECTURE.md,
decision 3); every case also checks the values against NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close
from zyxarray._lazy import realize

RNG = np.random.default_rng(7)
ROWS = RNG.standard_normal((6, 33))


def _chain(x: Any, lib: Any) -> Any:
    """Ten elementwise operations."""
    y = lib.sin(x) * 1.5          # 2
    y = y + x                     # 3
    y = lib.exp(-y * y)           # 6 (negative, multiply, exp)
    y = lib.sqrt(y + 2.0)         # 8
    return lib.maximum(y, 0.5) - x  # 10


def test_elementwise_chain_is_one_kernel(device: str) -> None:
    x = xp.asarray(ROWS, device=device)
    y = _chain(x, xp)
    assert len(xp.explain(y)) == 1
    assert_close(y, _chain(ROWS, np), rtol=1e-12, atol=1e-12)


def test_views_in_a_chain_are_index_math(device: str) -> None:
    """Transposes, reversed and stepped slices, reshapes and broadcasts cost no kernel."""
    x = xp.asarray(ROWS, device=device)
    y = (x.T[::-2, 1:] * 2)[..., None] + xp.reshape(x[:3, :2], (1, 6, 1))[:, :1]
    z = y[::-1] - 1
    want = (ROWS.T[::-2, 1:] * 2)[..., None] + np.reshape(ROWS[:3, :2], (1, 6, 1))[:, :1]
    assert len(xp.explain(z)) == 1
    assert_close(z, want[::-1] - 1, rtol=1e-15)


def test_sum_of_a_chain_is_one_kernel(device: str) -> None:
    x = xp.asarray(ROWS, device=device)
    for axis in (None, 0, 1):
        s = xp.sum(_chain(x, xp), axis=axis)
        assert len(xp.explain(s)) == 1, axis
        assert_close(s, np.sum(_chain(ROWS, np), axis=axis), rtol=1e-12, atol=1e-12)


def test_reduction_with_elementwise_consumer_is_one_kernel(device: str) -> None:
    x = xp.asarray(ROWS, device=device)
    y = xp.sqrt(xp.sum(x * x, axis=1)) + 1
    assert len(xp.explain(y)) == 1
    assert_close(y, np.sqrt(np.sum(ROWS * ROWS, axis=1)) + 1, rtol=1e-12)


def _softmax(x: Any, lib: Any) -> Any:
    e = lib.exp(x - lib.max(x, axis=1, keepdims=True))
    return e / lib.sum(e, axis=1, keepdims=True)


def test_softmax_is_at_most_two_kernels(device: str) -> None:
    x = xp.asarray(ROWS, device=device)
    y = _softmax(x, xp)
    assert len(xp.explain(y)) <= 2
    assert_close(y, _softmax(ROWS, np), rtol=1e-12, atol=1e-15)


def _layernorm(x: Any, lib: Any) -> Any:
    m = lib.mean(x, axis=-1, keepdims=True)
    v = lib.var(x, axis=-1, keepdims=True)
    return (x - m) / lib.sqrt(v + 1e-5)


def test_layernorm_is_at_most_two_kernels(device: str) -> None:
    x = xp.asarray(ROWS, device=device)
    y = _layernorm(x, xp)
    assert len(xp.explain(y)) <= 2
    assert_close(y, _layernorm(ROWS, np), rtol=1e-10, atol=1e-12)


def test_shared_subexpression_is_not_recomputed_into_two_kernels(device: str) -> None:
    x = xp.asarray(ROWS, device=device)
    a = xp.exp(x)
    y = a * a + a
    assert len(xp.explain(y)) == 1
    assert_close(y, np.exp(ROWS) ** 2 + np.exp(ROWS), rtol=1e-12)


def test_nothing_is_computed_twice(device: str) -> None:
    x = xp.asarray(ROWS, device=device)
    y = _chain(x, xp)
    np.asarray(y)
    assert len(xp.explain(y)) == 0
    assert len(xp.explain(y + 1)) == 1
    launches = realize.stats["kernels"]
    np.asarray(y)
    float(y[0, 0])
    y.tolist()
    assert realize.stats["kernels"] == launches, "observing a realized array runs nothing"
    z = y + 1
    np.asarray(z)
    assert realize.stats["kernels"] == launches + 1, "y + 1 must reuse y's buffer"
    assert_close(z, _chain(ROWS, np) + 1, rtol=1e-12, atol=1e-12)


def test_realizing_a_consumer_keeps_shared_producers_once(device: str) -> None:
    """Two consumers of one pending reduction: realizing both computes it at most once."""
    x = xp.asarray(ROWS, device=device)
    s = xp.sum(x, axis=1, keepdims=True)
    a, b = x - s, x * s
    assert len(xp.explain(a, b)) <= 3
    assert_close(a, ROWS - ROWS.sum(axis=1, keepdims=True), rtol=1e-12, atol=1e-12)
    assert_close(b, ROWS * ROWS.sum(axis=1, keepdims=True), rtol=1e-12, atol=1e-12)


def test_a_padded_expression_is_zero_outside_its_mask(device: str) -> None:
    """A masked (padded) view made its loads read 0, but an expression computed from them
    (``x + 1``) or a broadcast constant was not 0 in the padding: ``pad(x + 1) * 2`` gave
    ``[2, 4, 6, 8, 2]``, ``sum(pad(ones(3)))`` gave 5."""
    from zyxarray._api._array_object import Array
    from zyxarray._lazy import graph as g

    x = xp.asarray([1.0, 2.0, 3.0], device=device)
    padded = Array._new(g.pad((x + 1)._node, ((1, 1),)))
    ones = Array._new(g.pad(xp.ones(3, device=device)._node, ((2, 1),)))
    assert_close(padded * 2, [0.0, 4.0, 6.0, 8.0, 0.0])
    assert_close(xp.sum(padded), 9.0)
    assert_close(ones, [0.0, 0.0, 1.0, 1.0, 1.0, 0.0])
    assert_close(xp.sum(ones), 3.0)
    nested = Array._new(g.pad((padded + 1)._node, ((1, 0),)))
    assert_close(nested, [0.0, 1.0, 3.0, 4.0, 5.0, 1.0])


def test_a_costly_value_read_through_a_broadcast_is_stored_once(device: str) -> None:
    """An n-body step's ``r2 ** -1.5`` is read through a broadcast over 3 coordinates:
    inlined, the pow ran three times per pair; weighted as costly, it is stored once."""
    h = np.random.default_rng(7).standard_normal((16, 3))
    pos = xp.asarray(h, device=device)
    d = pos[None, :, :] - pos[:, None, :]
    r2 = xp.sum(d * d, axis=2) + 1e-3
    acc = xp.sum(d * (r2 ** -1.5)[:, :, None], axis=1)
    kernels = xp.explain(acc)
    assert len(kernels) == 3, [k.name for k in kernels]     # r2, its pow, the sum
    hd = h[None, :, :] - h[:, None, :]
    hr = (hd * hd).sum(axis=2) + 1e-3
    assert_close(acc, (hd * (hr ** -1.5)[:, :, None]).sum(axis=1), rtol=1e-12)


def test_explain_says_why_each_value_is_stored(device: str) -> None:
    """Every kernel in ``explain`` says why its value is stored rather than inlined."""
    h = np.random.default_rng(8).standard_normal((6, 3))
    pos = xp.asarray(h, device=device)
    d = pos[None, :, :] - pos[:, None, :]
    r2 = xp.sum(d * d, axis=2) + 1e-3
    acc = xp.sum(d * (r2 ** -1.5)[:, :, None], axis=1)
    reasons = [k.reason for k in xp.explain(acc)]
    assert reasons[-1] == "asked for"
    assert any("broadcast" in r for r in reasons)
    assert any("reduction" in r for r in reasons)
    assert "stored because: asked for" in str(xp.explain(acc))
    m = xp.asarray(h[:3], device=device)
    kinds = {k.name: k.reason for k in xp.explain(xp.sum(m @ m.T, axis=0))}
    if "library:matmul" in kinds:           # (opencl: matmul is a generated kernel)
        assert kinds["library:matmul"] == "the result of the library op matmul"


def test_kernels_stay_within_the_buffers_a_device_binds(device: str) -> None:
    """A sum of many element views (each a load of its own) and of many distinct arrays:
    on a device with a binding limit (Vulkan: 32 storage buffers per stage on lavapipe,
    which crashed past it) the scheduler stores parts by kernels of their own."""
    from zyxarray._devices import registry
    x = np.sin(np.arange(200) * 0.1)
    a = xp.asarray(x, device=device)
    total = xp.asarray(0.0, device=device)
    for k in range(70):
        total = total + a[k] * 0.5
    assert float(total) == pytest.approx(float(np.sum(x[:70] * 0.5)), rel=1e-12)
    parts = [xp.asarray(x[i:i + 10], device=device) for i in range(50)]
    acc = parts[0]
    for p in parts[1:]:
        acc = acc + p
    np.testing.assert_allclose(np.asarray(acc), sum(x[i:i + 10] for i in range(50)),
                               rtol=1e-12)
    limit = registry.get(device).info.extra.get("max_loads")
    if limit is not None:
        from zyxarray._lazy import schedule
        parts2 = [xp.asarray(x[i:i + 10], device=device) for i in range(50)]
        acc2 = parts2[0]
        for p in parts2[1:]:
            acc2 = acc2 - p
        plans = schedule.schedule([acc2._node])
        assert all(len(p.loads) <= limit + 1 for p in plans if hasattr(p, "loads"))


def test_a_binding_limit_splits_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """A device that binds at most ``max_loads`` buffers per kernel (Vulkan without buffer
    device addresses) gets kernels within it, and the same values."""
    import dataclasses

    from zyxarray._devices import registry
    from zyxarray._lazy import schedule
    dev = registry.get("cpu")
    monkeypatch.setattr(dev, "info", dataclasses.replace(dev.info, extra={
        **dev.info.extra, "max_loads": 6}))
    x = np.sin(np.arange(200) * 0.1)
    parts = [xp.asarray(x[i:i + 10], device="cpu") for i in range(30)]
    acc = parts[0]
    for p in parts[1:]:
        acc = acc - p
    plans = schedule.schedule([acc._node])
    assert len(plans) > 1 and all(len(p.loads) <= 7 for p in plans if hasattr(p, "loads"))
    np.testing.assert_allclose(np.asarray(acc), x[:10] - sum(x[i:i + 10] for i in range(1, 30)),
                               rtol=1e-12)


def test_a_loop_that_observes_a_sum_of_its_state_stores_the_state() -> None:
    """``v *= 0.9; v -= 0.1 * (p - 1); p += v`` then ``float(p.sum())`` every step: the
    sum is all that is observed, but ``p`` and ``v`` are live arrays, so a deep graph
    stores them (``HELD_DEPTH``) instead of growing the next step's kernel. Structures then
    repeat: a bounded number of compiles, not one per step."""
    from zyxarray._lazy import realize, schedule
    p, v = xp.zeros(300), xp.zeros(300)
    pn, vn = np.zeros(300), np.zeros(300)
    before = realize.stats["compiles"]
    for _ in range(120):
        v *= 0.9
        v -= 0.1 * (p - 1.0)
        p += v
        vn *= 0.9
        vn -= 0.1 * (pn - 1.0)
        pn += vn
        assert float(p.sum()) == pytest.approx(float(pn.sum()), rel=1e-12)
    assert realize.stats["compiles"] - before <= 30
    assert p._node.depth < 3 * schedule.HELD_DEPTH
    # a shallow graph keeps its named intermediates fused: one kernel for the sum
    x = xp.asarray(np.arange(100.0))
    d = x - 1.0
    plans = schedule.schedule([xp.sum(d * d)._node.base()])
    assert len(plans) == 1


def test_a_costly_live_value_is_stored_on_the_cpu(device: str) -> None:
    """``noise = 10 * sin(t * 12.9898) ** 3`` is a live array that costs two transcendental
    functions per element (``HELD_WEIGHT``): the cpu device stores it with the first graph
    that reads it, so the next reads load it (NumPy code reads its variables again); GPUs
    compute it again. A cheap live value stays fused either way."""
    from zyxarray._lazy import schedule
    h = np.arange(2 * schedule.HELD_MIN_SIZE, dtype=np.float64)
    t = xp.asarray(h, device=device)
    noise = 10.0 * xp.sin(t * 12.9898) ** 3
    shifted = t - 1.0
    want = 10.0 * np.sin(h * 12.9898) ** 3
    np.testing.assert_allclose(np.asarray(xp.cumulative_sum(noise + shifted)),
                               np.cumsum(want + h - 1.0), rtol=1e-9, atol=1e-9)
    loops = t.device.info.style == "loops"
    assert noise._node.realized == loops
    assert not shifted._node.realized
    assert int(xp.argmax(noise)) == int(np.argmax(want))
    # below the size, a costly value is computed again (a launch costs more)
    small = 10.0 * xp.sin(xp.asarray(h[:64], device=device)) ** 3
    np.asarray(xp.sum(small))
    assert not small._node.realized


def _jacobi(m: Any, u: Any) -> Any:
    inner = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    mid = m.concatenate([u[1:-1, :1], inner, u[1:-1, -1:]], axis=1)
    return m.concatenate([u[:1], mid, u[-1:]], axis=0)


def test_a_column_padded_to_a_row_is_not_a_broadcast(device: str) -> None:
    """``concat([u[1:-1, :1], inner, u[1:-1, -1:]], axis=1)`` pads a one-column slice to
    the full width: its stride there is 0, but its mask lets one column through, so each
    value is read once. Taken for a broadcast, it made the interior (9 operations) and the
    concat each a kernel of their own: three kernels a Jacobi step instead of one."""
    h = np.random.default_rng(3).standard_normal((12, 10))
    u, expected = xp.asarray(h, device=device), h
    for _ in range(3):
        u, expected = _jacobi(xp, u), _jacobi(np, expected)
    assert len(xp.explain(u)) == 3, "a kernel per step"
    assert_close(u, expected, rtol=1e-12)
