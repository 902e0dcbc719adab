"""Lowering and scheduling do work linear in the graph (issue 12, items 3 and 4).

These tests time nothing: they count the work (expressions lowered, plans built, expressions
scheduled) for a graph of K steps and of 2K steps, and require the count to about double.
Before the fixes the counts grew exponentially (a Newton iteration's lowering, a stencil of
rolls) or quadratically (a chain of writes) in K.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close
from zyxarray._lazy import lower, schedule


class _Counter:
    """Counts calls of a module attribute (and, for ``build_plan``, the expressions the
    plans it returns hold)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
        self.calls = 0
        self.exprs = 0
        original = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            out = original(*args, **kwargs)
            if isinstance(out, tuple) and isinstance(out[0], schedule.KernelPlan):
                self.exprs += len(out[0].exprs)
            return out

        monkeypatch.setattr(owner, name, counted)


def _grows_linearly(work: Callable[[int], int], k: int) -> None:
    small, large = work(k), work(2 * k)
    assert small > 0
    assert large <= 2.5 * small, f"work for K={k}: {small}, for 2K: {large} (not linear)"


def test_lowering_a_newton_iteration_is_linear(device: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``x = 0.5 * (x + a / x)`` reads x twice per step: lowered without a memo, a step
    doubled the work (0.6 s at 14 steps, 5.8 s at 18)."""
    a = xp.asarray([2.0, 3.0, 5.0], device=device)

    def work(k: int) -> int:
        counter = _Counter(monkeypatch, lower._Lowerer, "value")
        x = a
        for _ in range(k):
            x = 0.5 * (x + a / x)
        xp.explain(x)
        return counter.calls

    _grows_linearly(work, 12)
    x = a
    for _ in range(30):
        x = 0.5 * (x + a / x)
    assert_close(x, np.sqrt([2.0, 3.0, 5.0]), rtol=1e-12)


def test_a_chain_of_writes_plans_each_write_once(device: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``a[i] = a[i - 1] * 0.5 + 1``: every pass of the scheduler's loop planned every node
    again, K(K+1)/2 plan builds for K writes."""

    def work(k: int) -> int:
        counter = _Counter(monkeypatch, schedule, "build_plans")
        a = xp.zeros(k + 1, device=device)
        for i in range(1, k + 1):
            a[i] = a[i - 1] * 0.5 + 1
        xp.explain(a)
        return counter.calls

    _grows_linearly(work, 40)
    a = xp.zeros(61, device=device)
    expected = np.zeros(61)
    for i in range(1, 61):
        a[i] = a[i - 1] * 0.5 + 1
        expected[i] = expected[i - 1] * 0.5 + 1
    assert_close(a, expected)


def _roll_step(m: Any, u: Any) -> Any:
    return u + 0.1 * (m.roll(u, 1, axis=0) + m.roll(u, -1, axis=0) + m.roll(u, 1, axis=1)
                      + m.roll(u, -1, axis=1) - 4 * u)


def test_a_stencil_of_rolls_schedules_linearly(device: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step reads the last through five views; inlined under every one of them, 6 steps
    made 1.26 million expressions (16 s to schedule)."""
    u0 = np.random.default_rng(1).random((8, 8))

    def work(k: int) -> int:
        counter = _Counter(monkeypatch, schedule, "build_plan")
        u = xp.asarray(u0, device=device)
        for _ in range(k):
            u = _roll_step(xp, u)
        xp.explain(u)
        return counter.exprs

    _grows_linearly(work, 3)
    u, expected = xp.asarray(u0, device=device), u0
    for _ in range(8):
        u, expected = _roll_step(xp, u), _roll_step(np, expected)
    assert_close(u, expected, rtol=1e-12)


def test_a_padded_stencil_schedules_linearly(device: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A heat equation padded with ``concat`` and read through four shifted slices."""
    u0 = np.random.default_rng(2).random((6, 7))

    def step(m: Any, u: Any, cat: Any, zeros: Any) -> Any:
        z = zeros((1, u.shape[1]))
        p = cat([z, u, z], axis=0)
        zc = zeros((p.shape[0], 1))
        p = cat([zc, p, zc], axis=1)
        return u + 0.1 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u)

    def xp_zeros(shape: tuple[int, ...]) -> Any:
        return xp.zeros(shape, dtype=xp.float64, device=device)

    def work(k: int) -> int:
        counter = _Counter(monkeypatch, schedule, "build_plan")
        u = xp.asarray(u0, device=device)
        for _ in range(k):
            u = step(xp, u, xp.concat, xp_zeros)
        xp.explain(u)
        return counter.exprs

    _grows_linearly(work, 3)
    u, expected = xp.asarray(u0, device=device), u0
    for _ in range(8):
        u = step(xp, u, xp.concat, xp_zeros)
        expected = step(np, expected, np.concatenate, np.zeros)
    assert_close(u, expected, rtol=1e-12)


@pytest.mark.parametrize("parts", [5, 40, 300])
def test_concat_of_many_parts_is_one_kernel_per_part(device: str, parts: int) -> None:
    """``concat`` of N arrays was one kernel doing N masked loads per output point, and a
    new kernel structure (a compile) for every N. Many parts now write their regions of one
    buffer with one kernel structure for any N: the plans are one kernel per part, all with
    the same cache key."""
    from zyxarray._lazy.lower import canonicalize

    rng = np.random.default_rng(parts)
    host = [rng.random((3, 2)) for _ in range(parts)]
    arrays = [xp.asarray(h, device=device) for h in host]
    joined = xp.concat(arrays, axis=0)
    plans = schedule.schedule([joined._node])
    assert len(plans) == parts
    keys = {canonicalize(p, p.output.device.info).key for p in plans}  # type: ignore[arg-type]
    assert len(keys) <= 2           # (the first part allocates the buffer the others fill)
    for p in plans:
        assert isinstance(p, schedule.KernelPlan) and len(p.loads) == 1
    assert_close(joined, np.concatenate(host, axis=0))
    assert_close(xp.stack(arrays, axis=1), np.stack(host, axis=1))
    pending = [a * (i + 1) for i, a in enumerate(arrays)]      # parts fused with producers
    assert_close(xp.concat(pending, axis=1),
                 np.concatenate([h * (i + 1) for i, h in enumerate(host)], axis=1))


def test_a_pass_over_rows_canonicalizes_once(device: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Views' offsets are kernel arguments, yet the canonical form was memoized by them, so
    each step of a pass over ``i`` worked it out again."""
    from zyxarray._lazy import lower

    h = np.random.default_rng(5).random((40, 3))
    x = xp.asarray(h, device=device)
    x[0] = x[0] * 1.0             # (the structures of the first step)
    xp.explain(x)
    calls = []
    original = lower._canonical_parts

    def counted(plan: Any, info: Any, *args: Any) -> Any:
        if info.name == device:     # (not the CUDA and SPIR-V checks' own lowerings)
            calls.append(1)
        return original(plan, info, *args)

    monkeypatch.setattr(lower, "_canonical_parts", counted)
    for i in range(1, 40):
        x[i] = x[i - 1] * 0.5 + x[i]
        h[i] = h[i - 1] * 0.5 + h[i]
    assert_close(x, h, rtol=1e-12)
    assert len(calls) <= 6, f"{len(calls)} canonical forms for 39 steps of one structure"


def test_a_training_loop_lowers_and_schedules_linearly(device: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Logistic regression's updates, never observed: on opencl, where matmul is a generated
    kernel, 20 steps took 155 s to lower. The weights are read through a broadcast by the
    next step's matmul; inlined there, they were recomputed from their whole history."""
    rng = np.random.default_rng(6)
    X, y = rng.standard_normal((30, 4)), rng.integers(0, 2, 30).astype(np.float64)

    def train(m: Any, X: Any, y: Any, w: Any, steps: int) -> Any:
        for _ in range(steps):
            p = 1.0 / (1.0 + m.exp(-(X @ w)))
            w = w - 0.1 * (X.T @ (p - y)) / X.shape[0]
        return w

    Xd, yd = xp.asarray(X, device=device), xp.asarray(y, device=device)

    def work(k: int) -> int:
        values = _Counter(monkeypatch, lower._Lowerer, "value")
        plans = _Counter(monkeypatch, schedule, "build_plan")
        xp.explain(train(xp, Xd, yd, xp.zeros_like(Xd[0]), k))
        return values.calls + plans.exprs

    _grows_linearly(work, 5)
    assert_close(train(xp, Xd, yd, xp.zeros_like(Xd[0]), 12),
                 train(np, X, y, np.zeros(4), 12), rtol=1e-10)
