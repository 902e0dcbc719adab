"""View algebra (zyxarray._lazy.view) against NumPy's strides.

The oracle: ``np.arange(n).reshape(base)`` holds each element's own offset, so any chain of
NumPy view operations on it says, at every index, which buffer offset the equivalent
ShapeTracker must compute. Random chains of permute / slice / expand / reshape are applied
to both; ``compose``, ``merge`` and ``View.reshape`` are checked against the same oracle, and
``View.reshape`` against NumPy's no-copy reshape (same strides where NumPy finds a view).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from zyxarray._lazy.view import (
    View,
    compose,
    contiguous_strides,
    merge,
    st_apply,
    st_index,
    unravel,
)


def _all_indices(shape: tuple[int, ...]) -> Any:
    return itertools.product(*(range(s) for s in shape))


def _check(st_: tuple[View, ...], expected: np.ndarray) -> None:
    """``expected`` holds each index's buffer offset, or -1 where a pad reads zero."""
    assert st_[0].shape == expected.shape, (st_, expected.shape)
    for idx in _all_indices(expected.shape):
        want = None if expected[idx] < 0 else expected[idx]
        assert st_index(st_, idx) == want, (st_, idx)


@st.composite
def _factorization(draw: st.DrawFn, size: int) -> tuple[int, ...]:
    if size == 0:
        dims = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
        dims[draw(st.integers(0, len(dims) - 1))] = 0
        return tuple(dims)
    dims = []
    rest = size
    for _ in range(draw(st.integers(0, 3))):
        d = draw(st.sampled_from([d for d in range(1, rest + 1) if rest % d == 0]))
        dims.append(d)
        rest //= d
    dims.append(rest)
    return tuple(draw(st.permutations(dims)))


@st.composite
def _slice_spec(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    spec = []
    for s in shape:
        step = draw(st.sampled_from([1, 1, 2, 3, -1, -2]))
        if s == 0:
            spec.append((0, step, 0))
            continue
        start = draw(st.integers(0, s - 1))
        most = (s - 1 - start) // step + 1 if step > 0 else start // -step + 1
        spec.append((start, step, draw(st.integers(0, most))))
    return tuple(spec)


def _np_slice(a: np.ndarray, spec: tuple[tuple[int, int, int], ...]) -> np.ndarray:
    key = []
    for start, step, count in spec:
        if count == 0:
            key.append(slice(0, 0))
        else:
            stop = start + step * count
            key.append(slice(start, stop if stop >= 0 else None, step))
    return a[tuple(key)]


@st.composite
def view_ops(draw: st.DrawFn, base: tuple[int, ...], n_max: int = 4,
             reshape: bool = True, pad: bool = False) -> list[tuple[str, Any]]:
    """A chain of (fn_name, arg) valid for st_apply, starting from ``base``."""
    ops: list[tuple[str, Any]] = []
    shape = base
    for _ in range(draw(st.integers(0, n_max))):
        kinds = ["slice", "reshape"] if reshape else ["slice"]
        if pad and shape:
            kinds.append("pad")
        if len(shape) > 1:
            kinds.append("permute")
        if 1 in shape:
            kinds.append("expand")
        kind = draw(st.sampled_from(kinds))
        if kind == "slice":
            arg: Any = draw(_slice_spec(shape))
            shape = tuple(c for _, _, c in arg)
        elif kind == "reshape":
            arg = draw(_factorization(math.prod(shape)))
            shape = arg
        elif kind == "permute":
            arg = tuple(draw(st.permutations(range(len(shape)))))
            shape = tuple(shape[i] for i in arg)
        elif kind == "pad":
            arg = tuple((draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in shape)
            shape = tuple(s + b + a for s, (b, a) in zip(shape, arg))
        else:
            arg = tuple(draw(st.integers(1, 3)) if s == 1 else s for s in shape)
            shape = arg
        ops.append((kind, arg))
    return ops


def _apply_np(a: np.ndarray, ops: list[tuple[str, Any]]) -> np.ndarray:
    for kind, arg in ops:
        if kind == "slice":
            a = _np_slice(a, arg)
        elif kind == "reshape":
            a = np.reshape(a, arg)
        elif kind == "permute":
            a = np.transpose(a, arg)
        elif kind == "pad":
            a = np.pad(a, arg, constant_values=-1)
        else:
            a = np.broadcast_to(a, arg)
    return a


def _apply_st(st_: tuple[View, ...], ops: list[tuple[str, Any]]) -> tuple[View, ...]:
    for kind, arg in ops:
        st_ = st_apply(st_, kind, arg)
    return st_


BASES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)


@given(data=st.data())
def test_view_chains_match_numpy(data: st.DataObject) -> None:
    base = data.draw(BASES, label="base")
    ops = data.draw(view_ops(base), label="ops")
    expected = _apply_np(np.arange(math.prod(base)).reshape(base), ops)
    _check(_apply_st((View.contiguous(base),), ops), expected)


@given(data=st.data())
def test_compose_matches_numpy(data: st.DataObject) -> None:
    """compose(outer, inner): outer's views read inner's index space; merged or not, the
    offsets are those of NumPy's views of views."""
    base = data.draw(BASES, label="base")
    inner_ops = data.draw(view_ops(base, pad=True), label="inner")
    inner = _apply_st((View.contiguous(base),), inner_ops)
    middle = _apply_np(np.arange(math.prod(base)).reshape(base), inner_ops)
    outer_ops = data.draw(view_ops(middle.shape, pad=True), label="outer")
    outer = _apply_st((View.contiguous(middle.shape),), outer_ops)
    composed = compose(outer, inner)
    assert len(composed) <= len(outer) + len(inner)
    _check(composed, _apply_np(middle, outer_ops))


@given(data=st.data())
def test_merge_is_exact_when_it_succeeds(data: st.DataObject) -> None:
    base = data.draw(BASES, label="base")
    b = _apply_st((View.contiguous(base),),
                  data.draw(view_ops(base, 2, pad=True), label="b"))[0]
    a_ops = data.draw(view_ops(b.shape, 3, pad=True), label="a")
    a_st = _apply_st((View.contiguous(b.shape),), a_ops)
    if len(a_st) != 1:
        return
    a = a_st[0]
    m = merge(a, b)
    if m is None:
        return
    assert m.shape == a.shape
    for idx in _all_indices(a.shape):
        got = m.index(idx) if m.valid(idx) else None
        assert got == st_index((a, b), idx), (a, b, m, idx)


def test_merge_simple_cases() -> None:
    b = View.make((4, 6), (1, 4), 3)        # a transposed layout
    assert merge(View.contiguous((4, 6)), b) == b
    a = View.make((2, 6), (12, 1), 0)       # rows 0 and 2 of the (4, 6) index space
    m = merge(a, b)
    assert m is not None and m.strides == (2, 4) and m.offset == 3
    assert merge(a, View.contiguous((4, 6))) == a


@st.composite
def _strided_view(draw: st.DrawFn) -> tuple[View, np.ndarray]:
    base = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    ops = draw(view_ops(base, reshape=False))
    st_ = _apply_st((View.contiguous(base),), ops)
    assert len(st_) == 1
    arr = _apply_np(np.arange(math.prod(base)).reshape(base), ops)
    return st_[0], arr


@given(data=st.data())
def test_reshape_matches_numpy_no_copy_reshape(data: st.DataObject) -> None:
    """View.reshape gives one view exactly when NumPy can reshape without a copy, with the
    same strides (those of size-1 dimensions aside, which zyxarray sets to 0)."""
    v, arr = data.draw(_strided_view(), label="view")
    target = data.draw(_factorization(arr.size), label="shape")
    got = v.reshape(target)
    try:
        np_view = np.reshape(arr, target, copy=False)
    except ValueError:
        np_view = None
    if got is not None:
        _check((got,), np.reshape(arr, target))
    if np_view is not None and arr.size > 0:
        assert got is not None, f"NumPy reshapes {v} to {target} without a copy; View cannot"
        np_strides = tuple(s // arr.itemsize for s in np_view.strides)
        assert all(gs == ns for gs, ns, n in zip(got.strides, np_strides, target) if n > 1), \
            (got.strides, np_strides)


def test_reshape_contiguous_and_size_one() -> None:
    v = View.contiguous((2, 3, 4))
    assert v.reshape((6, 4)) == View.contiguous((6, 4))
    assert v.reshape((24,)) == View.contiguous((24,))
    t = v.permute((2, 0, 1))
    assert t.reshape((24,)) is None           # a transpose cannot be flattened in place
    assert t.reshape((4, 1, 6)) is not None   # adding a size-1 axis always can
    assert View.contiguous((3, 1)).strides == (1, 0)
    assert View.make((1, 5), (99, 2), 7).strides == (0, 2)


def test_contiguous_strides_and_unravel() -> None:
    assert contiguous_strides((2, 3, 4)) == (12, 4, 1)
    assert contiguous_strides((2, 1, 4)) == (4, 0, 1)
    assert contiguous_strides(()) == ()
    for shape in ((2, 3, 4), (5,), (1, 7, 1)):
        for lin in range(math.prod(shape)):
            assert unravel(lin, shape) == np.unravel_index(lin, shape)
    assert View.contiguous((2, 3)).is_contiguous
    assert not View.make((2, 3), (3, 1), 1).is_contiguous


def test_masked_views_merge() -> None:
    """A concat pads a one-column slice of ``u`` to the full width, and the next concat pads
    that to the full height: the two masks and the slice are one view (before, reading it
    unravelled the linear index: two divisions and two remainders per load)."""
    u = View.contiguous((300, 300))
    column = u.slice(((1, 1, 298), (0, 1, 1))).pad(((0, 0), (0, 299)))
    rows = View.contiguous((298, 300)).pad(((1, 1), (0, 0)))
    m = merge(rows, column)
    assert m == View.make((300, 300), (300, 0), 0, ((1, 299), (0, 1)))
    for idx in [(0, 0), (1, 0), (1, 1), (298, 0), (299, 0), (7, 0), (7, 9)]:
        want = st_index((rows, column), idx)
        assert (m.index(idx) if m.valid(idx) else None) == want
    # a mask that two of a's dimensions step along cannot be said by one view
    flat = View.contiguous((12,)).pad(((0, 4),))       # 16 elements, the last 4 masked
    assert merge(View.contiguous((4, 4)), flat) is None
    assert merge(View.contiguous((4, 4)).slice(((0, 1, 2), (0, 1, 4))), flat) is not None
    # a 0-d view of a padded element: no mask can say "nothing" (stack of two scalars,
    # ``d[1] - d[0]``, read d[0] as the other scalar's value)
    padded = View.make((1,), (0,), 0).pad(((1, 0),))
    for i in (0, 1):
        a = View.make((), (), i)
        m = merge(a, padded)
        want = st_index((a, padded), ())
        assert m is None or (m.index(()) if m.valid(()) else None) == want, (i, m)
