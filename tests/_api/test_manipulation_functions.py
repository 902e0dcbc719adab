"""View functions (reshape, permute_dims, expand_dims, squeeze, broadcast_to, flip, slicing,
.T/.mT) against NumPy 2: random chains of them, read both directly (a host view) and through
a kernel (index arithmetic in generated code)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import assert_close, on_devices

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
