"""Windows: a view of realized data (or of an iota) is keyed without where it starts, so a
loop over rows, ``a[i - 1]``/``a[i]`` or a sliding slice is scheduled once and every later
graph of the loop reuses the plans with its windows moved (issue 13, item 6; issue 14).

The moved plans must read exactly what freshly built ones would: these tests compare values
with NumPy on every device, count the schedules, and check the view algebra the move rests
on (``view.merge``: a window's offset enters what it composes into as a plain addend).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close
from zyxarray._codegen.ir import Op
from zyxarray._lazy import graph as g
from zyxarray._lazy import schedule
from zyxarray._lazy.view import View, at_offset, compose


@pytest.fixture
def misses() -> list[int]:
    start = schedule.memo_stats["misses"]
    return [start]


def _new_misses(start: list[int]) -> int:
    return schedule.memo_stats["misses"] - start[0]


def test_rows_are_scheduled_once(device: str, misses: list[int]) -> None:
    h = np.arange(240.0).reshape(30, 8) ** 1.5
    a = xp.asarray(h, device=device)
    got = [float((row * 2.0).sum()) for row in a]
    assert_close(np.array(got), (h * 2.0).sum(axis=1), rtol=1e-12)
    assert _new_misses(misses) <= 2, "one structure for every row"


def test_neighbouring_windows_and_strided_windows(device: str, misses: list[int]) -> None:
    h = np.linspace(-3.0, 5.0, 64)
    a = xp.asarray(h, device=device)
    out = []
    for i in range(1, 40):
        out.append(xp.sum(a[i - 1:i + 7:2] * a[i:i + 8:2] - a[i]))
    want = [np.sum(h[i - 1:i + 7:2] * h[i:i + 8:2] - h[i]) for i in range(1, 40)]
    assert_close(xp.stack(out), np.array(want), rtol=1e-12)
    assert _new_misses(misses) <= 3


def test_one_window_twice_and_two_windows_at_one_offset(device: str) -> None:
    """Two windows are two slots even where their offsets agree: the memoized plan serves
    a graph in which they differ."""
    h = np.arange(20.0)
    a = xp.asarray(h, device=device)
    assert_close((a[3:8] + a[3:8]).sum(), 2 * h[3:8].sum())
    assert_close((a[2:7] + a[5:10]).sum(), (h[2:7] + h[5:10]).sum())
    assert_close((a[4:9] + a[4:9]).sum(), 2 * h[4:9].sum())


def test_windows_of_an_iota(device: str) -> None:
    for i in range(5):
        r = xp.arange(100, device=device)[i * 7:i * 7 + 9]
        assert_close(r * 3 + 1, np.arange(100)[i * 7:i * 7 + 9] * 3 + 1)


def test_views_of_computed_data_keep_their_offsets_in_the_key(device: str) -> None:
    a = xp.asarray(np.arange(16.0), device=device)
    b = a * 2.0                         # (not realized: a view of it is not a window)
    for i in range(4):
        assert_close(b[i:i + 4] + 1, np.arange(16.0)[i:i + 4] * 2 + 1)


def test_masked_windows(device: str) -> None:
    h = np.arange(30.0).reshape(5, 6)
    a = xp.asarray(h, device=device)
    for i in range(4):
        p = xp.concat([a[i], a[i + 1][:2]])         # (a pad: masked views of windows)
        assert_close(p * 1.5, np.concatenate([h[i], h[i + 1][:2]]) * 1.5)


def test_a_window_offset_is_an_addend_of_what_it_composes_into() -> None:
    """``compose(outer, window moved by d)`` is ``compose(outer, window)`` with its last
    offset moved by d, for random outer views and windows: what ``_moved`` relies on."""
    rng = random.Random(0)
    for _ in range(3000):
        n = rng.randint(1, 4)
        inner_shape = tuple(rng.randint(1, 5) for _ in range(n))
        strides = tuple(rng.choice([0, 1, 2, 3, 7, -1, -4]) for _ in range(n))
        mask = None
        if rng.random() < 0.3:
            mask = tuple((rng.randint(0, s), rng.randint(0, s) + 1) for s in inner_shape)
        inner = View.make(inner_shape, strides, rng.randint(0, 50), mask)
        size = int(np.prod(inner_shape))
        outer_shape = tuple(rng.choice([s for s in range(1, size + 1) if size % s == 0])
                            for _ in range(1))
        outer_shape = (size // outer_shape[0], outer_shape[0])
        if rng.random() < 0.5:
            outer = View.contiguous(outer_shape)
        else:
            outer = View.contiguous(outer_shape).permute((1, 0))
        delta = rng.randint(-20, 20)
        moved = at_offset(inner, inner.offset + delta)
        if inner.mask is not None and any(lo >= hi for lo, hi in inner.mask):
            continue        # (nothing valid: a canonical view with no offset)
        base = compose((outer,), (inner,))
        again = compose((outer,), (moved,))
        shifted = base[:-1] + (at_offset(base[-1], base[-1].offset + delta),)
        assert again == shifted, (outer, inner, delta)


def test_window_keys() -> None:
    from zyxarray._devices import registry

    dev = registry.get("cpu")
    a = g.from_host(np.arange(12.0), dev)
    w1, w2 = g.slice_view(a, ((2, 1, 4),)), g.slice_view(a, ((5, 1, 4),))
    assert w1.key == w2.key and w1.leaves is None and g.is_window(w1)
    s1, s2 = g.alu(Op.ADD, w1, w2), g.alu(Op.ADD, w1, w1)
    assert s1.key != s2.key, "which windows are the same node is structure"
    assert s1.leaves == (w1, w2) and s2.leaves == (w1,)



def test_padded_rows_split_into_edges_and_an_unmasked_middle(device: str) -> None:
    """An elementwise kernel whose operands are masked along the inner loop (a padding, a
    concat) runs the points where every mask holds in a loop of its own without the tests;
    the values are the same as NumPy's at the edges and inside."""
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 17, 64):
        h = rng.standard_normal((5, n))
        u = xp.asarray(h, device=device)
        z = xp.zeros((5, 1), dtype=u.dtype, device=device)
        p = xp.concat([z, u, z], axis=1)
        got = u + 0.25 * (p[:, :-2] + p[:, 2:] - 2 * u)
        hp = np.concatenate([np.zeros((5, 1)), h, np.zeros((5, 1))], axis=1)
        assert_close(got, h + 0.25 * (hp[:, :-2] + hp[:, 2:] - 2 * h), rtol=1e-12)
        wide = xp.concat([z, z, u, z], axis=1)[:, 1:]            # (masks of other widths)
        assert_close(wide * 2.0, np.concatenate([np.zeros((5, 1)), h, np.zeros((5, 1))],
                                                axis=1) * 2.0)
