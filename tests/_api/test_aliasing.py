"""NumPy's aliasing rules (issue 13, item 4): a view shares memory with its base, so a write
through either is seen by the other and by every other view; copies, elements read as
scalars and results computed before the write keep their values; broadcast views and
diagonals are read-only. Every case runs the same code on NumPy and on each device.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close


def _both(device: str, program: Callable[[Any, Callable[..., Any]], list[Any]]) -> None:
    """Run ``program(lib, array)`` with NumPy and with zyxarray on ``device``; compare."""
    expected = program(np, np.array)
    got = program(xp, lambda data, **kw: xp.asarray(data, device=device, **kw))
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert_close(g, np.asarray(e), what=f"result {i}")


def _base(array: Callable[..., Any]) -> Any:
    return array(np.arange(24, dtype=np.float64).reshape(4, 6))


def test_a_write_through_a_view_reaches_the_base_and_other_views(device: str) -> None:
    def program(lib: Any, array: Callable[..., Any]) -> list[Any]:
        a = _base(array)
        row = a[1]
        block = a[1:3, 2:5]
        col = a[:, 4]
        before = a * 1              # a result computed before the writes keeps its value
        row[:] = 9                  # through a view
        block[0, 1] = -1            # through another view, overlapping the first
        a[2, ::2] = 7               # through the base
        return [a, row, block, col, before]

    _both(device, program)


@pytest.mark.parametrize("make", [
    pytest.param(lambda lib, a: a.T, id="T"),
    pytest.param(lambda lib, a: lib.transpose(a), id="transpose"),
    pytest.param(lambda lib, a: a.reshape(2, 12), id="reshape"),
    pytest.param(lambda lib, a: a.reshape(-1), id="reshape-flat"),
    pytest.param(lambda lib, a: a.ravel(), id="ravel"),
    pytest.param(lambda lib, a: lib.flip(a, axis=1), id="flip"),
    pytest.param(lambda lib, a: lib.expand_dims(a, 0)[0], id="expand_dims"),
    pytest.param(lambda lib, a: a[None, :, None][0, :, 0], id="newaxis"),
    pytest.param(lambda lib, a: lib.squeeze(a[:1]), id="squeeze"),
    pytest.param(lambda lib, a: a[::2, ::-3], id="steps"),
    pytest.param(lambda lib, a: a[...], id="ellipsis"),
    pytest.param(lambda lib, a: lib.moveaxis(a, 0, 1), id="moveaxis"),
    pytest.param(lambda lib, a: lib.permute_dims(a, (1, 0)) if lib is xp else a.T,
                 id="permute_dims"),
])
def test_every_kind_of_view_aliases(device: str, make: Any) -> None:
    def program(lib: Any, array: Callable[..., Any]) -> list[Any]:
        a = _base(array)
        v = make(lib, a)
        first = (0,) * v.ndim
        v[first] = -5               # through the view
        a[3] += 100                 # through the base, in place
        w = make(lib, a)[1:]        # a view of a view
        w *= 2
        return [a, v]

    _both(device, program)


def test_copies_and_elements_do_not_alias(device: str) -> None:
    def program(lib: Any, array: Callable[..., Any]) -> list[Any]:
        a = _base(array)
        element = a[1, 2]           # NumPy: a scalar, a copy
        last = a[0][5]
        copied = a[1].copy()
        flat = a.flatten()          # always a copy
        moved = a.T.reshape(-1)     # a reshape of a transposed array: a copy in NumPy
        a[1] = 0
        a[0, 5] = 0
        moved[0] = 99
        return [a, element, last, copied, flat, moved]

    _both(device, program)


def test_in_place_operators_are_seen_by_views(device: str) -> None:
    def program(lib: Any, array: Callable[..., Any]) -> list[Any]:
        a = _base(array)
        row = a[2]
        alias = a
        a += 1
        a *= 2
        a[1:3] -= a[0]
        a **= 1
        row /= 4
        return [a, row, alias]

    _both(device, program)


def test_read_only_views(device: str) -> None:
    a = xp.asarray(np.arange(9.0).reshape(3, 3), device=device)
    d = xp.linalg.diagonal(a)
    b = xp.broadcast_to(a[0], (2, 3))
    for view in (d, b, b[1]):
        with pytest.raises(ValueError, match="read-only"):
            view[0] = 1
    a[1, 1] = 40                    # the base stays writable; the views show it
    assert_close(d, [0.0, 40.0, 8.0])
    a[0, 2] = -2
    assert_close(b, [[0.0, 1.0, -2.0]] * 2)


def test_writes_in_a_loop_over_rows(device: str) -> None:
    """``for row in a: row[...] = ...`` and ``a[i] = f(a[i - 1])``: every write lands."""
    def program(lib: Any, array: Callable[..., Any]) -> list[Any]:
        a = _base(array)
        for i, row in enumerate(a):
            row[i] = -row[i]
        for i in range(1, 4):
            a[i] = a[i - 1] * 0.5 + a[i]
        return [a]

    _both(device, program)


def test_scikit_learns_diagonal_regularization(device: str) -> None:
    """GaussianMixture(covariance_type='full') adds reg_covar to each covariance's diagonal
    through a view (``_add_to_diagonal(covariances[k, :, :], reg_covar)``): the write was
    lost, and the estimator failed."""
    def program(lib: Any, array: Callable[..., Any]) -> list[Any]:
        c = array(np.zeros((2, 3, 3)))
        v = c[1]
        v[0, 0] = 5.0
        for k in range(2):
            cov = c[k, :, :]
            flat = cov.reshape(-1)
            flat[::4] += 1e-3
        return [c]

    _both(device, program)


@pytest.mark.usefixtures("kernels_only")   # (small cpu results are not computed now)
def test_a_write_into_a_realized_base_reuses_its_buffer(device: str) -> None:
    """When nothing but the base and its views refer to the base's buffer, a write goes
    straight into it (no copy of the whole base per write)."""
    a = xp.asarray(np.arange(12.0).reshape(3, 4), device=device)
    row = a[1]
    np.asarray(a)
    buffer = a._node.buffer
    row[2] = -1.0
    a[0, 0] = -2.0
    assert a._node.buffer is buffer
    assert_close(a, [[-2.0, 1, 2, 3], [4, 5, -1, 7], [8, 9, 10, 11]])
    pending = a * 1                 # now a pending result reads the buffer: no longer in place
    a[2, 3] = 0.0
    assert a._node.buffer is not buffer
    assert_close(pending, [[-2.0, 1, 2, 3], [4, 5, -1, 7], [8, 9, 10, 11]])
    assert_close(row, [4.0, 5, -1, 7])


def test_element_writes_after_a_view_was_dropped_are_stores(device: str) -> None:
    """Once a view of an array has been taken (and let go), the array still shares its
    storage; element writes into it go into its buffer when no pending result reads it,
    and a view still alive sees them. The storage's test of that (``_exclusive``) counted
    its own reference to the base's node against it when the base came last among the
    live members, so every such write built an update and ran kernels (36 us a write)."""
    from zyxarray._lazy import realize
    h = np.arange(10.0)
    x = xp.asarray(h, device=device)
    np.asarray(x)
    view = x[2:6]
    del view
    buffer = x._node.buffer
    before = realize.stats["kernels"]
    for i in range(8):
        x[i] = -1.0 if i == 0 else float(i * i)
    assert x._node.buffer is buffer              # (in place: no copy of x per write)
    if hasattr(x._node.device, "host_array"):   # (host memory: a store, no kernel)
        assert realize.stats["kernels"] == before
    h[0], h[1:8] = -1.0, np.arange(1, 8.0) ** 2
    assert_close(x, h)
    live = x[::-1]
    x[9] = 100.0
    live[1] = 50.0                   # (x[8])
    h[9], h[8] = 100.0, 50.0
    assert_close(x, h)
    assert_close(live, h[::-1])
    pending = x * 1                  # (a pending result keeps the value it was made from)
    x[0] = 7.0
    assert_close(pending, h)
    h[0] = 7.0
    assert_close(x, h)
