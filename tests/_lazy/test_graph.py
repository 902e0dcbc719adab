"""Graph nodes: constructors keep shapes and dtypes, trivial views are no nodes, and a
realized node turns into a BUFFER in place (so every array sharing it sees the result)."""

from __future__ import annotations

import numpy as np
import pytest

import zyxarray as xp
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
