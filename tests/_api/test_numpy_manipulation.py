"""NumPy's array-manipulation and indexing routines against NumPy 2, on every device:
atleast_nd, the stacks and block, the splits, append/delete/insert, pad (every mode and
width form), trim_zeros, r_/c_/s_/index_exp, ix_, indices, unravel_index and
ravel_multi_index, the diagonal and triangle index helpers, diag/diagflat, the in-place
writers (fill_diagonal, place, put), extract/compress/flatnonzero, lexsort, partition and
argpartition (checked by their contract), resize, swapaxes, rollaxis, apply_along_axis,
ndindex, iterable, and NumPy's form of take (N-d indices, axis=None, out=, mode=). Inputs
include lists, NumPy arrays, non-contiguous views and empty arrays; bad calls raise NumPy's
error types."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import Input, assert_close, check_against_numpy, on_devices, tolerance

# (PoCL's opencl runs the backend tests, not these: tests/conftest.py, numpy_layer)
pytestmark = pytest.mark.numpy_layer

M = np.arange(1, 13, dtype=np.float64).reshape(3, 4) * np.array([1, -2, 0.5, 3])
I16 = (np.arange(24, dtype=np.int16).reshape(2, 3, 4) * 7) % 11 - 3
# a transposed, reversed view of a (4, 3) base: values of M's shape, not contiguous
VIEW = Input(np.ascontiguousarray(M.T), [("permute", (1, 0)),
                                         ("index", (slice(None, None, -1),))])
PLAIN = Input(M, [])


def _other(device: str) -> str:
    return "reference" if device != "reference" else "cpu"


def compare(device: str, xp_fn: Callable[..., Any], np_fn: Callable[..., Any],
            operands: list[Any], *, kind: str = "exact") -> None:
    """Like ``check_against_numpy`` for results that are arrays or tuples/lists of arrays:
    each compared with NumPy (values, dtype, shape) on ``device`` and the reference."""
    expected = np_fn(*[o.np if isinstance(o, Input) else o for o in operands])
    for dev, got in on_devices(device, lambda d: xp_fn(
            *[o.on(d) if isinstance(o, Input) else o for o in operands])):
        many = isinstance(expected, (tuple, list))
        pairs = zip(got, expected) if many else [(got, expected)]
        if many:
            assert len(got) == len(expected), f"on {dev}: {len(got)} results, not " \
                                              f"{len(expected)}"
        for g, e in pairs:
            assert isinstance(g, xp.Array), f"on {dev}: got {type(g).__name__}"
            assert g.device.name == dev
            rtol, atol = tolerance(np.asarray(e).dtype, kind)
            assert_close(g, e, rtol=rtol, atol=atol, what=f"on {dev}")


# -- atleast_nd, stacking, block ---------------------------------------------------------------
def test_atleast_nd(device: str) -> None:
    for ndim in (1, 2, 3):
        xp_fn, np_fn = getattr(xp, f"atleast_{ndim}d"), getattr(np, f"atleast_{ndim}d")
        for shape in ((), (3,), (2, 3), (1, 2, 3, 1)):
            check_against_numpy(device, xp_fn, np_fn, [Input(np.ones(shape, np.int8), [])])
        compare(device, lambda a, b, f=xp_fn: f(a, b, 5), lambda a, b, f=np_fn: f(a, b, 5),
                [VIEW, Input(np.float32(2), [])])
    assert_close(xp.atleast_2d([1, 2]), np.atleast_2d([1, 2]))
    assert xp.atleast_1d() == np.atleast_1d()


def test_stacks(device: str) -> None:
    col = Input(np.array([7, 8, 9], np.int32), [])
    for name in ("hstack", "vstack", "dstack", "column_stack"):
        xp_fn, np_fn = getattr(xp, name), getattr(np, name)
        check_against_numpy(device, lambda a, b, f=xp_fn: f([a, b]),
                            lambda a, b, f=np_fn: f([a, b]), [VIEW, PLAIN])
        check_against_numpy(device, lambda a, b, f=xp_fn: f((a, b, a)),
                            lambda a, b, f=np_fn: f((a, b, a)), [col, col])
    # host data joins the arrays' device; a 2-D array is a sequence of its rows
    check_against_numpy(device, lambda a: xp.vstack([a, [1, 2, 3, 4]]),
                        lambda a: np.vstack([a, [1, 2, 3, 4]]), [PLAIN])
    check_against_numpy(device, lambda a: xp.column_stack([[1, 2, 3], a]),
                        lambda a: np.column_stack([[1, 2, 3], a]), [VIEW])
    check_against_numpy(device, xp.hstack, np.hstack, [VIEW])
    check_against_numpy(device, lambda a: xp.hstack([a, 5]), lambda a: np.hstack([a, 5]), [col])
    for kw in ({"dtype": "float32"}, {"dtype": xp.int64, "casting": "unsafe"}):
        check_against_numpy(device, lambda a, b, kw=kw: xp.vstack([a, b], **kw),
                            lambda a, b, kw=kw: np.vstack([a, b], **kw), [VIEW, M[0] * 2])
    check_against_numpy(device, lambda a: xp.hstack([a, a[:, :0]]),
                        lambda a: np.hstack([a, a[:, :0]]), [VIEW])


def test_stack_errors(device: str) -> None:
    x = xp.asarray(M, device=device)
    with pytest.raises(ValueError):
        xp.hstack([])
    with pytest.raises(TypeError):
        xp.vstack(a for a in (x, x))
    with pytest.raises(TypeError):          # float64 -> int8 is not same_kind
        xp.vstack([x, x], dtype="int8")
    with pytest.raises(TypeError):
        xp.hstack([x, xp.asarray(M, dtype=xp.float32, device=device)], casting="no")
    with pytest.raises(ValueError):
        xp.vstack([x, xp.ones((3, 5), device=device)])
    with pytest.raises(ValueError, match="device"):
        xp.hstack([x, xp.asarray(M, device=_other(device))])


def test_block(device: str) -> None:
    a = Input(np.eye(2), [])
    b = Input(np.arange(6.0).reshape(2, 3), [("index", (slice(None), slice(None, None, -1)))])
    c = Input(np.array([5, 6], np.int64), [])
    check_against_numpy(device, lambda a, b: xp.block([[a, b], [b[:, :2], a, b[:, :1]]]),
                        lambda a, b: np.block([[a, b], [b[:, :2], a, b[:, :1]]]), [a, b])
    check_against_numpy(device, lambda c: xp.block([c, 1, c]),
                        lambda c: np.block([c, 1, c]), [c])
    check_against_numpy(device, lambda a, c: xp.block([[a], [c]]),
                        lambda a, c: np.block([[a], [c]]), [a, c])
    check_against_numpy(device, xp.block, np.block, [b])
    check_against_numpy(device, lambda c: xp.block([[[c]], [[c]]]),
                        lambda c: np.block([[[c]], [[c]]]), [c])
    x = xp.asarray(np.eye(2), device=device)
    with pytest.raises(TypeError):
        xp.block((x, x))
    with pytest.raises(ValueError):
        xp.block([[x], x])
    with pytest.raises(ValueError):
        xp.block([x, []])


# -- splitting -----------------------------------------------------------------------------------
def test_splits(device: str) -> None:
    cube = Input(I16, [("permute", (2, 1, 0))])             # (4, 3, 2), not contiguous
    compare(device, lambda a: xp.split(a, 2), lambda a: np.split(a, 2), [cube])
    compare(device, lambda a: xp.split(a, [1, 3], axis=-1),
            lambda a: np.split(a, [1, 3], axis=-1), [VIEW])
    compare(device, lambda a: xp.array_split(a, 3, axis=1),
            lambda a: np.array_split(a, 3, axis=1), [VIEW])
    compare(device, lambda a: xp.array_split(a, [3, 1, -1, 9], axis=1),
            lambda a: np.array_split(a, [3, 1, -1, 9], axis=1), [VIEW])
    compare(device, lambda a: xp.array_split(a, 5), lambda a: np.array_split(a, 5), [cube])
    compare(device, lambda a: xp.hsplit(a, 2), lambda a: np.hsplit(a, 2), [VIEW])
    compare(device, lambda a: xp.hsplit(a[0], np.array([1])),
            lambda a: np.hsplit(a[0], np.array([1])), [VIEW])
    compare(device, lambda a: xp.vsplit(a, [2]), lambda a: np.vsplit(a, [2]), [cube])
    compare(device, lambda a: xp.dsplit(a, 2), lambda a: np.dsplit(a, 2), [cube])
    assert [s.shape for s in xp.split(xp.zeros((0, 2), device=device), 3)] == \
        [s.shape for s in np.split(np.zeros((0, 2)), 3)]
    x = xp.asarray(M, device=device)
    with pytest.raises(ValueError):
        xp.split(x, 3, axis=1)                   # 4 columns into 3 equal parts
    with pytest.raises(ValueError):
        xp.array_split(x, 0)
    with pytest.raises(IndexError):              # NumPy: AxisError
        xp.split(x, 2, axis=2)
    with pytest.raises(ValueError):
        xp.hsplit(x[0, 0], 1)
    with pytest.raises(ValueError):
        xp.vsplit(x[0], 1)
    with pytest.raises(ValueError):
        xp.dsplit(x, 1)


# -- append, delete, insert ----------------------------------------------------------------------
def test_append(device: str) -> None:
    check_against_numpy(device, xp.append, np.append, [VIEW, Input(np.array([1, 2]), [])])
    check_against_numpy(device, partial(xp.append, axis=0), partial(np.append, axis=0),
                        [VIEW, PLAIN])
    check_against_numpy(device, lambda a: xp.append(a, [[0.5], [1], [2]], axis=1),
                        lambda a: np.append(a, [[0.5], [1], [2]], axis=1), [VIEW])
    with pytest.raises(ValueError):
        xp.append(xp.asarray(M, device=device), [1, 2], axis=0)


def test_appending_numbers_in_a_loop(device: str) -> None:
    """``a = np.append(a, x)`` with a Python number, as a loop grows a record: NumPy's
    values and dtypes (the number is an array of its own dtype, so an int8 array with 5
    becomes int64, a float32 one with 1.5 float64); on the cpu device a small array of the
    number's dtype is joined in C, without a node for the join."""
    from zyxarray._lazy import graph
    a = xp.asarray(np.zeros(0), device=device)
    want = np.zeros(0)
    for i in range(6):
        a, want = xp.append(a, i * 0.5), np.append(want, i * 0.5)
    np.testing.assert_array_equal(np.asarray(a), want)
    for host, value in ((np.arange(4, dtype=np.int8), 5), (np.arange(4, dtype=np.int8), 300),
                        (np.arange(3, dtype=np.float32), 1.5), (np.arange(3), 2.5),
                        (np.arange(3), 7)):
        got, w = xp.append(xp.asarray(host, device=device), value), np.append(host, value)
        assert got.dtype == w.dtype, (host.dtype, value, got.dtype)
        np.testing.assert_array_equal(np.asarray(got), w)
    if device == "cpu":
        made: list[str] = []
        init = graph.Node.__init__
        graph.Node.__init__ = lambda self, *x, **k: (made.append(x[0]),  # type: ignore
                                                     init(self, *x, **k))[1]
        try:
            longer = xp.append(a, 9.0)
        finally:
            graph.Node.__init__ = init          # type: ignore[method-assign]
        assert made == ["BUFFER"]           # (the number's own array; the join is C's)
        np.testing.assert_array_equal(np.asarray(longer), np.append(want, 9.0))


def test_delete(device: str) -> None:
    mask = np.array([True, False, True, False])
    for obj in (1, -1, slice(None, None, 2), slice(3, 0, -2), [0, 2, 0], [], mask,
                np.array([[3], [1]])):
        check_against_numpy(device, lambda a, o=obj: xp.delete(a, o, axis=1),
                            lambda a, o=obj: np.delete(a, o, axis=1), [VIEW])
    # flattened; more runs than fuse into one expression (a take); a device index array
    check_against_numpy(device, lambda a: xp.delete(a, [0, 3, 5, 7, 9, 11]),
                        lambda a: np.delete(a, [0, 3, 5, 7, 9, 11]), [PLAIN])
    check_against_numpy(device, lambda a, i: xp.delete(a, i, 0),
                        lambda a, i: np.delete(a, i, 0), [VIEW, Input(np.array([2, -3, 2]), [])])
    x = xp.asarray(M, device=device)
    with pytest.raises(IndexError):
        xp.delete(x, 4, axis=1)
    with pytest.raises(IndexError):
        xp.delete(x, [0, -5], axis=1)
    with pytest.raises(IndexError):
        xp.delete(x, [1.0], axis=1)
    with pytest.raises(ValueError):
        xp.delete(x, np.array([True, False]), axis=1)
    with pytest.raises(IndexError):
        xp.delete(x, 0, axis=2)


def test_insert(device: str) -> None:
    cases: list[tuple[Any, Any]] = [
        (1, 9), (1, [7, 8, 9]), (-1, [[7], [8], [9]]), (4, 2.5), ([1], [7, 8, 9, 10]),
        ([1, 3, 1], [7, 8, 9]), ([4, 0, 4, -2], 6), (slice(0, 4, 2), [5, 6]), ([], 1),
        (np.array([True, False, False, True]), 3)]
    for obj, values in cases:
        check_against_numpy(device, lambda a, o=obj, v=values: xp.insert(a, o, v, axis=1),
                            lambda a, o=obj, v=values: np.insert(a, o, v, axis=1), [VIEW])
    ints = Input(I16[0], [])
    check_against_numpy(device, lambda a: xp.insert(a, [3, 1, 3], [70, 80, 90]),
                        lambda a: np.insert(a, [3, 1, 3], [70, 80, 90]), [ints])
    check_against_numpy(device, lambda a: xp.insert(a, 1, 5.9, axis=0),
                        lambda a: np.insert(a, 1, 5.9, axis=0), [ints])
    # device indices stay lazy: the sources are worked out on the device
    for idx, values in ((np.array([3, 1, 3, -4]), [[7], [8], [9], [6]]), (np.array(2), [7, 8, 9]),
                        (np.array([-1]), [[7], [8], [9]])):
        check_against_numpy(device, lambda a, i, v=values: xp.insert(a, i, v, axis=0),
                            lambda a, i, v=values: np.insert(a, i, v, axis=0),
                            [Input(M.T.copy(), []), Input(idx, [])])
    x = xp.asarray(M, device=device)
    with pytest.raises(IndexError):
        xp.insert(x, 5, 1, axis=1)
    with pytest.raises(IndexError):
        xp.insert(x, xp.asarray([0, -5], device=device), 1, axis=1)
    with pytest.raises(ValueError):
        xp.insert(x, [[1]], 1, axis=1)
    with pytest.raises(IndexError):
        xp.insert(x, [1.5], 1, axis=1)
    with pytest.raises(ValueError):
        xp.insert(x, 1, [[1, 2], [3, 4]], axis=1)


# -- pad -----------------------------------------------------------------------------------------
PAD_CASES: list[tuple[str, dict[str, Any]]] = [
    ("constant", {}), ("constant", {"constant_values": ((1, 2), (3, 4))}), ("edge", {}),
    ("linear_ramp", {"end_values": (5, -3)}), ("maximum", {}), ("minimum", {"stat_length": 2}),
    ("mean", {"stat_length": ((1, 2), (3, 1))}), ("median", {}), ("reflect", {}),
    ("reflect", {"reflect_type": "odd"}), ("symmetric", {}),
    ("symmetric", {"reflect_type": "odd"}), ("wrap", {}),
]


def test_pad_modes(device: str) -> None:
    # widths larger than the array (reflections of reflections), on a non-contiguous view
    widths = ((5, 2), (0, 9))
    for mode, kw in PAD_CASES:
        check_against_numpy(device, lambda a, m=mode, kw=kw: xp.pad(a, widths, m, **kw),
                            lambda a, m=mode, kw=kw: np.pad(a, widths, m, **kw), [VIEW],
                            kind="arith")


def test_pad_integers_and_widths(device: str) -> None:
    u8 = Input(np.array([[3, 200, 7], [250, 0, 9]], np.uint8), [])
    for mode, kw in (("linear_ramp", {"end_values": 100}), ("mean", {}), ("median", {}),
                     ("reflect", {"reflect_type": "odd"}), ("constant",
                                                            {"constant_values": 7.9})):
        check_against_numpy(device, lambda a, m=mode, kw=kw: xp.pad(a, ((3, 2), (4, 5)), m, **kw),
                            lambda a, m=mode, kw=kw: np.pad(a, ((3, 2), (4, 5)), m, **kw), [u8])
    # NaN propagates into the statistics; a float stat_length is rounded
    nan = Input(np.array([[1.0, np.nan, 3.0, 2.0], [4.0, 5.0, 6.0, 0.5]]), [])
    for mode, kw in (("median", {}), ("maximum", {}), ("mean", {"stat_length": 1.6})):
        check_against_numpy(device, lambda a, m=mode, kw=kw: xp.pad(a, (1, 2), m, **kw),
                            lambda a, m=mode, kw=kw: np.pad(a, (1, 2), m, **kw), [nan])
    # every form of pad_width: int, (n,), (before, after), per axis, dict, NumPy array
    for width in (2, (3,), (1, 3), ((2, 1), (0, 3)), {1: 3}, {-2: (0, 2)}, np.array([[1, 0]])):
        check_against_numpy(device, lambda a, w=width: xp.pad(a, w, "edge"),
                            lambda a, w=width: np.pad(a, w, "edge"), [PLAIN])
    # a singleton axis reflects as its edge; constant pads an empty array; complex; 1-D
    check_against_numpy(device, lambda a: xp.pad(a[:1], 3, "reflect"),
                        lambda a: np.pad(a[:1], 3, "reflect"), [VIEW])
    check_against_numpy(device, lambda a: xp.pad(a[:0], 1, constant_values=-1),
                        lambda a: np.pad(a[:0], 1, constant_values=-1), [VIEW])
    z = Input(np.array([1 + 2j, -3j, 4], np.complex64), [])
    check_against_numpy(device, lambda a: xp.pad(a, (2, 3), "linear_ramp", end_values=1j),
                        lambda a: np.pad(a, (2, 3), "linear_ramp", end_values=1j), [z],
                        kind="arith")
    check_against_numpy(device, lambda a: xp.pad(a, 4, "wrap"), lambda a: np.pad(a, 4, "wrap"),
                        [z])
    # constant_values as a device array stays lazy
    check_against_numpy(device, lambda a, c: xp.pad(a, 1, constant_values=c),
                        lambda a, c: np.pad(a, 1, constant_values=c),
                        [PLAIN, Input(np.array([5.0, 6.0]), [])])
    assert xp.pad(xp.asarray(M, device=device), 2, "empty").shape == (7, 8)


def test_pad_callable_and_errors(device: str) -> None:
    def pad_with(vector: Any, pad_width: tuple[int, int], iaxis: int, kwargs: dict) -> None:
        vector[:pad_width[0]] = kwargs.get("padder", 10)
        if pad_width[1]:
            vector[-pad_width[1]:] = kwargs.get("padder", 10)

    check_against_numpy(device, lambda a: xp.pad(a, (1, 2), pad_with, padder=-1),
                        lambda a: np.pad(a, (1, 2), pad_with, padder=-1), [VIEW])
    x = xp.asarray(M, device=device)
    with pytest.raises(ValueError):
        xp.pad(x, 1, "nearest")
    with pytest.raises(ValueError):
        xp.pad(x, 1, "edge", constant_values=3)
    with pytest.raises(TypeError):
        xp.pad(x, 1.5)
    with pytest.raises(TypeError):
        xp.pad(x, True)
    with pytest.raises(ValueError):
        xp.pad(x, -1)
    with pytest.raises(ValueError):
        xp.pad(x, ((1, 2, 3),))
    with pytest.raises(ValueError):
        xp.pad(x[:0], 1, "edge")
    with pytest.raises(ValueError):
        xp.pad(x, 1, "maximum", stat_length=0)


def test_trim_zeros(device: str) -> None:
    z = Input(np.array([[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]], np.int32), [])
    for trim in ("fb", "f", "b", "BF"):
        for axis in (None, 0, -1):
            check_against_numpy(device, lambda a, t=trim, ax=axis: xp.trim_zeros(a, t, ax),
                                lambda a, t=trim, ax=axis: np.trim_zeros(a, t, ax), [z])
    vec = Input(np.array([0.0, 0.0, 1.5, 0.0, 2.0, 0.0, 0.0]), [])
    check_against_numpy(device, xp.trim_zeros, np.trim_zeros, [vec])
    check_against_numpy(device, lambda a: xp.trim_zeros(a * 0), lambda a: np.trim_zeros(a * 0),
                        [z])
    with pytest.raises(ValueError):
        xp.trim_zeros(xp.asarray([0, 1], device=device), "x")


# -- index tricks --------------------------------------------------------------------------------
def test_r_c_s(device: str) -> None:
    row = Input(np.array([4, 5, 6], np.int8), [])
    check_against_numpy(device, lambda a: xp.r_[1:4, 0, a], lambda a: np.r_[1:4, 0, a], [row])
    check_against_numpy(device, lambda a: xp.r_[a, 3], lambda a: np.r_[a, 3], [row])
    check_against_numpy(device, lambda a: xp.r_[a, 0:1:5j], lambda a: np.r_[a, 0:1:5j], [row])
    check_against_numpy(device, lambda a: xp.r_["-1", a, a], lambda a: np.r_["-1", a, a],
                        [VIEW])
    check_against_numpy(device, lambda a: xp.r_["0,2,0", [1, 2], a[:2]],
                        lambda a: np.r_["0,2,0", [1, 2], a[:2]], [row])
    check_against_numpy(device, lambda a: xp.r_["1,3,0", [1, 2], a[:2, :2]],
                        lambda a: np.r_["1,3,0", [1, 2], a[:2, :2]], [VIEW])
    check_against_numpy(device, lambda a: xp.c_[a, [1, 2, 3], 1:4],
                        lambda a: np.c_[a, [1, 2, 3], 1:4], [row])
    check_against_numpy(device, lambda a: xp.c_[a, a[:, :1]], lambda a: np.c_[a, a[:, :1]],
                        [VIEW])
    check_against_numpy(device, lambda a: xp.c_[a[None], 0, 0, a[None]],
                        lambda a: np.c_[a[None], 0, 0, a[None]], [row])
    assert xp.s_[::2] == np.s_[::2]
    assert xp.s_[1, ::2, ...] == np.s_[1, ::2, ...]
    assert xp.index_exp[1] == np.index_exp[1]
    assert len(xp.r_) == len(np.r_)
    with pytest.raises(ValueError):
        xp.r_[1, "0,2"]
    with pytest.raises(ValueError):
        xp.r_["zz", 1]


def test_mgrid_ogrid(device: str) -> None:
    """Dense and open grids on the default device: integer and float steps, ``Nj`` points
    with the stop included, one slice or several; the dtype of the slices' numbers."""
    from zyxarray._devices import registry
    registry.set_default(device)
    try:
        for key in (np.s_[0:3, 0:2], np.s_[0:1:5j], np.s_[0:3], np.s_[0:1:0.5, 0:2],
                    np.s_[-1:1:3j, 0:4:2], np.s_[2:0:-1, 0:3, 1:2]):
            want, got = np.mgrid[key], xp.mgrid[key]
            assert got.device.name == device
            np.testing.assert_array_equal(np.asarray(got), want)
            assert np.asarray(got).dtype == want.dtype
            open_want, open_got = np.ogrid[key], xp.ogrid[key]
            if isinstance(open_want, tuple):
                assert isinstance(open_got, tuple) and len(open_got) == len(open_want)
                for w, g in zip(open_want, open_got):
                    np.testing.assert_array_equal(np.asarray(g), w)
                    assert np.asarray(g).dtype == w.dtype
            else:
                np.testing.assert_array_equal(np.asarray(open_got), open_want)
    finally:
        registry.set_default(None)
    with pytest.raises(TypeError, match="mgrid"):
        xp.mgrid[0:3, 2]


def test_ix_and_indices(device: str) -> None:
    compare(device, lambda b: xp.ix_([0, 2], b), lambda b: np.ix_([0, 2], b),
            [Input(np.array([True, False, True, True]), [])])
    check_against_numpy(device, lambda a, i: a[xp.ix_(i, [3, 1])],
                        lambda a, i: a[np.ix_(i, [3, 1])], [VIEW, Input(np.array([0, 2]), [])])
    compare(device, lambda i: xp.ix_(i, [], i), lambda i: np.ix_(i, [], i),
            [Input(np.array([1, 0], np.int32), [])])
    with pytest.raises(ValueError):
        xp.ix_([[0, 1]])
    for dims, dtype in (((2, 3), int), ((2, 1, 4), "int16"), ((0, 3), "int32")):
        assert_close(xp.indices(dims, dtype, device=device), np.indices(dims, dtype))
        for got, want in zip(xp.indices(dims, dtype, sparse=True, device=device),
                             np.indices(dims, dtype, sparse=True)):
            assert_close(got, want)
            assert got.device.name == device
    assert_close(xp.indices((), device=device), np.indices(()))


def test_unravel_and_ravel_multi_index(device: str) -> None:
    flat = Input(np.array([[22, 41], [37, 0]], np.int32), [])
    for order in ("C", "F"):
        compare(device, lambda i, o=order: xp.unravel_index(i, (7, 6), o),
                lambda i, o=order: np.unravel_index(i, (7, 6), o), [flat])
        compare(device, lambda r, c, o=order: (xp.ravel_multi_index((r, c), (7, 6), order=o),),
                lambda r, c, o=order: (np.ravel_multi_index((r, c), (7, 6), order=o),),
                [Input(np.array([3, 6, 6]), []), Input(np.array([[4], [5]], np.uint8), [])])
    compare(device, lambda i: xp.unravel_index(i, (2, 3, 4)),
            lambda i: np.unravel_index(i, (2, 3, 4)), [Input(np.int64(17), [])])
    compare(device, lambda r: (xp.ravel_multi_index((r, [4, 5, 7]), (7, 6),
                                                    mode=("wrap", "clip")),),
            lambda r: (np.ravel_multi_index((r, [4, 5, 7]), (7, 6), mode=("wrap", "clip")),),
            [Input(np.array([3, 8, -1]), [])])
    assert_close(xp.ravel_multi_index((1, 2), (3, 3)), np.ravel_multi_index((1, 2), (3, 3)))
    with pytest.raises(ValueError):
        xp.unravel_index(xp.asarray([3, 42], device=device), (7, 6))
    with pytest.raises(ValueError):
        xp.unravel_index([-1], (7, 6))
    with pytest.raises(TypeError):
        xp.unravel_index([1.0], (7, 6))
    with pytest.raises(ValueError):
        xp.unravel_index(1, (7, 6), order="K")
    with pytest.raises(ValueError):
        xp.ravel_multi_index((xp.asarray([1, 7], device=device), [0, 0]), (7, 6))
    with pytest.raises(ValueError):
        xp.ravel_multi_index(([1], [0]), (7, 6), mode="nope")
    with pytest.raises(ValueError):
        xp.ravel_multi_index(([1],), (7, 6))
    with pytest.raises(TypeError):
        xp.ravel_multi_index(([1.0], [0]), (7, 6))


def test_diagonal_indices(device: str) -> None:
    for got, want in ((xp.diag_indices(4, 3, device=device), np.diag_indices(4, 3)),
                      (xp.tril_indices(4, -1, 5, device=device), np.tril_indices(4, -1, 5)),
                      (xp.triu_indices(4, 2, device=device), np.triu_indices(4, 2)),
                      (xp.triu_indices(3, 7, device=device), np.triu_indices(3, 7))):
        for g, w in zip(got, want, strict=True):
            assert g.device.name == device
            assert_close(g, w)
    compare(device, xp.diag_indices_from, np.diag_indices_from, [Input(np.zeros((3, 3, 3)), [])])
    compare(device, lambda a: xp.tril_indices_from(a, 1), lambda a: np.tril_indices_from(a, 1),
            [VIEW])
    compare(device, lambda a: xp.triu_indices_from(a, -1),
            lambda a: np.triu_indices_from(a, -1), [VIEW])
    with pytest.raises(ValueError):
        xp.diag_indices_from(xp.zeros((3, 4), device=device))
    with pytest.raises(ValueError):
        xp.tril_indices_from(xp.zeros((3,), device=device))


def test_diag_and_diagflat(device: str) -> None:
    for k in (-4, -1, 0, 2, 5):
        check_against_numpy(device, lambda a, k=k: xp.diag(a, k), lambda a, k=k: np.diag(a, k),
                            [VIEW])
        check_against_numpy(device, lambda a, k=k: xp.diag(a, k), lambda a, k=k: np.diag(a, k),
                            [Input(np.array([1, -2, 3], np.int16), [])])
    check_against_numpy(device, partial(xp.diagflat, k=-1), partial(np.diagflat, k=-1), [VIEW])
    check_against_numpy(device, xp.diag, np.diag, [Input(np.zeros(0, np.bool_), [])])
    with pytest.raises(ValueError):
        xp.diag(xp.zeros((2, 2, 2), device=device))


# -- in-place writers ----------------------------------------------------------------------------
def _in_place(device: str, xp_fn: Callable[[Any], None], np_fn: Callable[[np.ndarray], None],
              base: np.ndarray) -> None:
    want = base.copy()
    assert np_fn(want) is None
    for dev in {device, "reference"}:
        x = xp.asarray(base, device=dev)
        assert xp_fn(x) is None
        assert_close(x, want, what=f"on {dev}")


def test_fill_diagonal(device: str) -> None:
    for shape, wrap, val in (((3, 3), False, 5), ((5, 3), False, [1, 2]), ((7, 3), True, [1, 2]),
                             ((3, 5), False, -1.5), ((3, 3, 3), False, 4)):
        _in_place(device, lambda x, v=val, w=wrap: xp.fill_diagonal(x, v, w),
                  lambda a, v=val, w=wrap: np.fill_diagonal(a, v, w), np.zeros(shape))
    x = xp.zeros((3, 3), dtype=xp.int32, device=device)
    xp.fill_diagonal(x, xp.asarray([7, 8], dtype=xp.int32, device=device))
    assert_close(x, np.array([[7, 0, 0], [0, 8, 0], [0, 0, 7]], np.int32))
    with pytest.raises(ValueError):
        xp.fill_diagonal(xp.zeros((3,), device=device), 1)
    with pytest.raises(ValueError):
        xp.fill_diagonal(xp.zeros((3, 3, 2), device=device), 1)


def test_place_and_put(device: str) -> None:
    _in_place(device, lambda x: xp.place(x, x > 5, [44, 55]),
              lambda a: np.place(a, a > 5, [44, 55]), M)
    _in_place(device, lambda x: xp.place(x, x.T.T < 0, xp.asarray([9], device=x.device)),
              lambda a: np.place(a, a < 0, [9]), M)
    for mode, ind in (("raise", [0, -1, 5, 5]), ("wrap", [13, -14, 2]), ("clip", [-5, 40, 3])):
        _in_place(device, lambda x, i=ind, m=mode: xp.put(x, i, [-1, -2, -3], m),
                  lambda a, i=ind, m=mode: np.put(a, i, [-1, -2, -3], m), M)
    _in_place(device, lambda x: xp.put(x, xp.asarray([[1, 2], [3, 4]], device=x.device), 7.5),
              lambda a: np.put(a, [[1, 2], [3, 4]], 7.5), I16)
    x = xp.asarray(M, device=device)
    with pytest.raises(IndexError):
        xp.put(x, [12], 1)
    with pytest.raises(IndexError):
        xp.put(x, xp.asarray([-13], device=device), 1)
    with pytest.raises(ValueError):
        xp.put(x, [0], 1, mode="nope")
    with pytest.raises(TypeError):
        xp.put(M.copy(), [0], 1)
    with pytest.raises(ValueError):
        xp.place(x, [True, False], 1)
    with pytest.raises(ValueError):
        xp.place(x, x > 0, [])
    with pytest.raises(TypeError):
        xp.place([1, 2], [True, False], 1)
    assert_close(x, M)                            # failed calls left x as it was


# -- selection -----------------------------------------------------------------------------------
def test_extract_compress_flatnonzero(device: str) -> None:
    check_against_numpy(device, lambda a: xp.extract(a > 1, a), lambda a: np.extract(a > 1, a),
                        [VIEW])
    check_against_numpy(device, lambda a: xp.extract(np.arange(5) % 2, a),
                        lambda a: np.extract(np.arange(5) % 2, a), [VIEW])
    for cond, axis in (([0, 1, 1], 0), ([False, True], 1), ([True, False, True], None),
                       ([True, True, False, True, True, False, True], None)):
        check_against_numpy(device, lambda a, c=cond, ax=axis: xp.compress(c, a, axis=ax),
                            lambda a, c=cond, ax=axis: np.compress(c, a, axis=ax), [VIEW])
    check_against_numpy(device, lambda a, c: xp.compress(c, a, 1),
                        lambda a, c: np.compress(c, a, 1),
                        [VIEW, Input(np.array([1, 0, 0, 2]), [])])
    out = xp.zeros((3, 2), device=device)
    assert xp.compress([0, 1, 1, 0], xp.asarray(M, device=device), axis=1, out=out) is out
    assert_close(out, np.compress([0, 1, 1, 0], M, axis=1))
    check_against_numpy(device, lambda a: xp.flatnonzero(a - 1), lambda a: np.flatnonzero(a - 1),
                        [VIEW])
    check_against_numpy(device, xp.flatnonzero, np.flatnonzero, [Input(np.float32(3), [])])
    x = xp.asarray(M, device=device)
    with pytest.raises(IndexError):
        xp.compress([0, 0, 0, 1], x, axis=0)
    with pytest.raises(ValueError):
        xp.compress([[True]], x)
    with pytest.raises(IndexError):
        xp.extract(np.ones(13), x)


# -- sorting -------------------------------------------------------------------------------------
def test_lexsort(device: str) -> None:
    k1 = Input(np.array([1, 5, 1, 4, 3, 4, 4]), [])
    k2 = Input(np.array([9.0, 4, 0, 4, 0, 2, 1]), [("index", (slice(None, None, -1),))])
    check_against_numpy(device, lambda a, b: xp.lexsort((a, b)), lambda a, b: np.lexsort((a, b)),
                        [k2, k1])
    check_against_numpy(device, lambda a, b: xp.lexsort([a, b, a]),
                        lambda a, b: np.lexsort([a, b, a]), [k1, k2])
    check_against_numpy(device, lambda a: xp.lexsort(a, axis=0),
                        lambda a: np.lexsort(a, axis=0), [Input(I16 % 3, [])])
    with pytest.raises(TypeError):
        xp.lexsort([])
    with pytest.raises(ValueError):
        xp.lexsort(([1, 2], [1, 2, 3]))


def test_partition_contract(device: str) -> None:
    # Note: partition is a full sort here; NumPy's order within each side is unspecified, so
    # the check is the contract: the kth element in place, nothing larger before it, nothing
    # smaller after it
    data = np.array([[3.0, 1, 4, 1, 5, 9, 2, 6], [5, 3, 5, 8, 9, 7, 9, 3]])
    for dev in {device, "reference"}:
        x = xp.asarray(data, device=dev)[:, ::-1]
        host = data[:, ::-1]
        for kth, axis in ((1, -1), ([0, 5], 1), (-1, -1), (3, None), (0, 0)):
            part = np.asarray(xp.partition(x, kth, axis=axis))
            idx = np.asarray(xp.argpartition(x, kth, axis=axis))
            flat = host.ravel() if axis is None else host
            ax = 0 if axis is None else axis
            ordered = np.sort(flat, axis=ax)
            assert part.shape == flat.shape and idx.dtype == np.int64
            gathered = np.take_along_axis(flat, idx, axis=ax)
            for got in (part, gathered):
                for k in np.atleast_1d(kth):
                    kk = k % flat.shape[ax]
                    pivot = np.take(ordered, [kk], axis=ax)
                    assert (np.take(got, [kk], axis=ax) == pivot).all()
                    assert (np.take(got, range(kk), axis=ax) <= pivot).all()
                    assert (np.take(got, range(kk + 1, flat.shape[ax]), axis=ax) >= pivot).all()
    x = xp.asarray(data, device=device)
    with pytest.raises(ValueError):
        xp.partition(x, 8)
    with pytest.raises(ValueError):
        xp.argpartition(x, True)
    with pytest.raises(ValueError):
        xp.partition(x, 1, kind="quicksort")
    with pytest.raises(ValueError):
        xp.partition(x, 1, order="f0")


# -- reshaping -----------------------------------------------------------------------------------
def test_resize_swapaxes_rollaxis(device: str) -> None:
    for shape in ((3, 4), (2,), (5, 7), (0,), 6):
        check_against_numpy(device, lambda a, s=shape: xp.resize(a, s),
                            lambda a, s=shape: np.resize(a, s), [VIEW])
    check_against_numpy(device, lambda a: xp.resize(a[:0], (2, 2)),
                        lambda a: np.resize(a[:0], (2, 2)), [VIEW])
    with pytest.raises(ValueError):
        xp.resize(xp.asarray(M, device=device), (-1, 2))
    cube = Input(I16, [])
    check_against_numpy(device, lambda a: xp.swapaxes(a, 0, -1),
                        lambda a: np.swapaxes(a, 0, -1), [cube])
    for axis, start in ((2, 1), (1, 3), (-1, -3), (0, 2), (1, 1)):
        check_against_numpy(device, lambda a, ax=axis, s=start: xp.rollaxis(a, ax, s),
                            lambda a, ax=axis, s=start: np.rollaxis(a, ax, s), [cube])
    c = xp.asarray(I16, device=device)
    with pytest.raises(IndexError):                # NumPy: AxisError
        xp.rollaxis(c, 0, 5)
    with pytest.raises(IndexError):
        xp.swapaxes(c, 0, 3)


def test_apply_along_axis(device: str) -> None:
    check_against_numpy(device, lambda a: xp.apply_along_axis(lambda v: v[0] + v[-1], 1, a),
                        lambda a: np.apply_along_axis(lambda v: v[0] + v[-1], 1, a), [VIEW])
    check_against_numpy(device, lambda a: xp.apply_along_axis(xp.sort, 0, a),
                        lambda a: np.apply_along_axis(np.sort, 0, a), [VIEW])
    cube = Input(I16, [])
    check_against_numpy(device, lambda a: xp.apply_along_axis(xp.diag, 1, a),
                        lambda a: np.apply_along_axis(np.diag, 1, a), [cube])
    check_against_numpy(device, lambda a: xp.apply_along_axis(lambda v, s: s * float(v.size),
                                                              -1, a, 2),
                        lambda a: np.apply_along_axis(lambda v, s: s * float(v.size), -1, a, 2),
                        [cube])
    with pytest.raises(ValueError):
        xp.apply_along_axis(xp.sum, 1, xp.zeros((0, 3), device=device))


def test_ndindex_and_iterable(device: str) -> None:
    for shape in ((2, 3), ((3, 1, 2),), (), ((0, 2),)):
        assert list(xp.ndindex(*shape)) == list(np.ndindex(*shape))
    x = xp.asarray(M, device=device)
    assert xp.iterable(x) and not xp.iterable(x[0, 0])
    assert xp.iterable([1]) and not xp.iterable(2) and xp.iterable(M)
    with pytest.raises(ValueError):
        xp.ndindex(2, -1)


# -- take in NumPy's form ------------------------------------------------------------------------
def test_take_numpy_form(device: str) -> None:
    cube = Input(I16, [("permute", (2, 0, 1))])
    for idx, axis in (([[2, 0], [1, -1]], 2), (5, None), (np.array(-2), 0),
                      ([[3, 0, 23]], None)):
        check_against_numpy(device, lambda a, i=idx, ax=axis: xp.take(a, i, axis=ax),
                            lambda a, i=idx, ax=axis: np.take(a, i, axis=ax), [cube])
    for mode, idx in (("wrap", [[7, -9], [3, 1]]), ("clip", [-5, 1, 40])):
        check_against_numpy(device, lambda a, i, m=mode: xp.take(a, i, 1, mode=m),
                            lambda a, i, m=mode: np.take(a, i, 1, mode=m),
                            [VIEW, Input(np.array(idx), [])])
    check_against_numpy(device, lambda a: xp.take(a, [1, 0]), lambda a: np.take(a, [1, 0]),
                        [Input(M.tolist(), [])])
    out = xp.zeros((2, 2), device=device)
    assert xp.take(xp.asarray(M, device=device), [[0, 5], [11, 2]], out=out) is out
    assert_close(out, np.take(M, [[0, 5], [11, 2]]))
    x = xp.asarray(M, device=device)
    with pytest.raises(IndexError):
        xp.take(x, [12])
    with pytest.raises(ValueError):
        xp.take(x, [0], mode="nope")
    with pytest.raises(IndexError):
        xp.take(x[:, :0], [0], axis=1, mode="wrap")


def test_flips_and_quarter_turns_are_views(device: str) -> None:
    m = np.arange(24).reshape(2, 3, 4)
    a = xp.asarray(m, device=device)
    np.testing.assert_array_equal(np.asarray(xp.flipud(a)), np.flipud(m))
    np.testing.assert_array_equal(np.asarray(xp.fliplr(a)), np.fliplr(m))
    for k in range(-2, 6):
        np.testing.assert_array_equal(np.asarray(xp.rot90(a, k)), np.rot90(m, k))
        np.testing.assert_array_equal(np.asarray(xp.rot90(a, k, axes=(2, 0))),
                                      np.rot90(m, k, axes=(2, 0)))
    xp.rot90(a)[0, 0, 0] = -1            # (a view: the write reaches the base)
    want = m.copy()
    np.rot90(want)[0, 0, 0] = -1
    np.testing.assert_array_equal(np.asarray(a), want)
    with pytest.raises(ValueError, match="fliplr"):
        xp.fliplr(xp.asarray([1, 2], device=device))
    with pytest.raises(ValueError, match="rot90"):
        xp.rot90(a, axes=(1, 1))


def test_selection_helpers(device: str) -> None:
    """argwhere, select, choose, putmask, copyto, put_along_axis, tri, mask_indices."""
    m = np.arange(24).reshape(2, 3, 4)
    a = xp.asarray(m, device=device)
    np.testing.assert_array_equal(np.asarray(xp.argwhere(a % 5 == 0)), np.argwhere(m % 5 == 0))
    assert xp.argwhere(xp.asarray(3, device=device)).shape == np.argwhere(3).shape
    c = np.arange(6)
    C = xp.asarray(c, device=device)
    np.testing.assert_array_equal(np.asarray(xp.select([C < 2, C > 3], [C, C ** 2], 42)),
                                  np.select([c < 2, c > 3], [c, c ** 2], 42))
    choices = [[1, 2, 3], [10, 20, 30], [100, 200, 300]]
    for idx, mode in (([0, 1, 2], "raise"), ([3, -1, 2], "wrap"), ([3, -1, 2], "clip")):
        np.testing.assert_array_equal(
            np.asarray(xp.choose(xp.asarray(idx, device=device), choices, mode=mode)),
            np.choose(np.array(idx), choices, mode=mode))
    with pytest.raises(ValueError, match="choose"):
        xp.choose(xp.asarray([0, 5], device=device), choices)
    want = np.arange(6)
    got = xp.asarray(want, device=device)
    np.putmask(want, want > 2, [10, 20])
    xp.putmask(got, got > 2, [10, 20])
    np.testing.assert_array_equal(np.asarray(got), want)
    want = np.zeros((2, 3))
    got = xp.asarray(want, device=device)
    row = got[1]
    np.copyto(want, [1, 2, 3], where=[True, False, True])
    xp.copyto(got, [1, 2, 3], where=[True, False, True])
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(row), want[1])
    with pytest.raises(TypeError, match="copyto"):
        xp.copyto(xp.zeros(3, dtype=xp.int32, device=device), xp.asarray([1.5, 2, 3],
                                                                           device=device))
    want = np.arange(12.0).reshape(3, 4)
    got = xp.asarray(want, device=device)
    view = got[1:]
    idx = np.array([[0, 2], [1, 3]])
    np.put_along_axis(want[1:], idx, [[10.0, 20.0], [30.0, 40.0]], axis=1)
    xp.put_along_axis(view, idx, [[10.0, 20.0], [30.0, 40.0]], axis=1)
    np.testing.assert_array_equal(np.asarray(got), want)
    flat = xp.asarray(np.arange(6).reshape(2, 3), device=device)
    xp.put_along_axis(flat, [5, 0, -1], 9, axis=None)
    assert np.asarray(flat).tolist() == [[9, 1, 2], [3, 4, 9]]
    with pytest.raises(IndexError, match="put_along_axis"):
        xp.put_along_axis(flat, [6], 1, axis=None)
    from zyxarray._devices import registry
    registry.set_default(device)
    try:
        np.testing.assert_array_equal(np.asarray(xp.tri(3, 4, 1)), np.tri(3, 4, 1))
        assert np.asarray(xp.tri(3, dtype=int)).dtype == np.tri(3, dtype=int).dtype
        for got_i, want_i in zip(xp.mask_indices(3, xp.triu), np.mask_indices(3, np.triu)):
            np.testing.assert_array_equal(np.asarray(got_i), want_i)
    finally:
        registry.set_default(None)
