"""Basic indexing against NumPy 2: __getitem__ and __setitem__ with integers, slices of any
step, Ellipsis and None. __setitem__ is a functional update: views taken and results
computed before it keep their values."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import DTYPES, apply_np, assert_close, elements, inputs, on_devices


@given(data=st.data())
def test_getitem(device: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    a = data.draw(inputs(dtype, shape), label="x")
    key = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True),
                    label="key")
    expected = a.np[key]
    for dev, y in on_devices(device, lambda d: a.on(d)[key]):
        assert_close(y, expected, what=f"x[{key!r}] on {dev}")
        assert_close(xp.where(xp.asarray(True, device=dev), y, y), expected,
                     what=f"x[{key!r}] read by a kernel on {dev}")


def _value(data: st.DataObject, dtype: str, shape: tuple[int, ...]) -> tuple[Any, Any]:
    """(value for zyxarray, the same for NumPy): a Python scalar of the array's kind, or an
    array (maybe a view) broadcastable to ``shape`` of a dtype that casts safely."""
    d = np.dtype(dtype)
    if data.draw(st.booleans(), label="scalar value"):
        v = data.draw(elements(dtype), label="value")
        v = np.asarray(v, dtype).item()
        return v, v
    lead = data.draw(st.integers(0, len(shape)), label="value drops leading axes")
    vshape = tuple(1 if data.draw(st.booleans()) else s for s in shape[lead:])
    safe = [t for t in DTYPES if np.can_cast(t, d, "safe")]
    vdtype = data.draw(st.sampled_from(safe), label="value dtype")
    v = data.draw(inputs(vdtype, vshape), label="value")
    return v, v.np


@given(data=st.data())
def test_setitem(device: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5))
    a = data.draw(inputs(dtype, shape), label="x")
    key = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True),
                    label="key")
    other_key = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True),
                          label="earlier view")
    value, np_value = _value(data, dtype, a.np[key].shape)
    # NumPy's semantics, on a private copy of the base: an earlier view sees the write, a
    # broadcast view is read-only
    expected = np.asarray(apply_np(a.base.copy(), a.ops))    # (x[()] of a 0-d: a scalar)
    expected_view = expected[other_key]
    if not isinstance(expected_view, np.ndarray):   # an element: a copy, as in NumPy
        expected_view = np.array(expected_view)
    read_only = not expected.flags.writeable
    if not read_only:
        expected[key] = np_value
    realize_first = data.draw(st.booleans(), label="realize x first")
    for dev in dict(on_devices(device, lambda d: d)):
        x = a.on(dev)
        if realize_first:
            np.asarray(x)
        view = x[other_key]                 # an earlier view
        pending = xp.where(xp.asarray(True, device=dev), x, x)   # an unrealized result
        done = xp.where(xp.asarray(True, device=dev), x, x)
        np.asarray(done)                    # a realized result
        if read_only:
            with pytest.raises(ValueError, match="read-only"):
                x[key] = value.on(dev) if hasattr(value, "on") else value
        else:
            x[key] = value.on(dev) if hasattr(value, "on") else value
        assert_close(x, expected, what=f"x[{key!r}] = value on {dev}")
        assert_close(view, expected_view, what=f"a view taken before, on {dev}")
        assert_close(pending, a.np, what=f"a pending result computed before, on {dev}")
        assert_close(done, a.np, what=f"a realized result computed before, on {dev}")


@given(data=st.data())
def test_setitem_sequence(device: str, data: st.DataObject) -> None:
    """Several updates in a row (each reads the previous), then reductions of the result."""
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    base = data.draw(hnp.arrays(np.int32, shape, elements=st.integers(-100, 100)))
    keys = data.draw(st.lists(hnp.basic_indices(shape, allow_ellipsis=True), min_size=1,
                              max_size=3), label="keys")
    expected = base.copy()
    for i, key in enumerate(keys):
        expected[key] = expected[key] * 2 + i
    for dev, x in on_devices(device, lambda d: xp.asarray(base, device=d)):
        snapshots = []
        for i, key in enumerate(keys):
            snapshots.append(x)
            x[key] = x[key] * 2 + i
        assert_close(x, expected, what=dev)
        assert_close(xp.sum(x, axis=0), expected.sum(axis=0), what=dev)
        # ``snapshots`` hold the same Array object: in-place semantics, like NumPy
        assert all(s is x for s in snapshots)


def test_setitem_does_not_touch_other_arrays(device: str) -> None:
    base = np.arange(12, dtype=np.float64).reshape(3, 4)
    x = xp.asarray(base, device=device)
    y = x                       # the same object: sees the update, as in NumPy
    row = x[1]                  # a view: sees it too, as in NumPy
    copied = x[1].copy()        # a copy does not
    twice = x * 2               # nor does a result computed before
    x[1, ::-2] = -1.0
    want = base.copy()
    want[1, ::-2] = -1.0
    assert_close(x, want)
    assert_close(y, want)
    assert_close(row, want[1])
    assert_close(copied, base[1])
    assert_close(twice, base * 2)
    x[...] = 0
    assert_close(x, np.zeros((3, 4)))
    assert_close(row, np.zeros(4))
    assert_close(copied, base[1])


def test_index_errors(device: str) -> None:
    x = xp.asarray(np.zeros((2, 3)), device=device)
    for key in (2, -3, (0, 3), (0, 0, 0), (..., ...), 1.0, "a"):
        with pytest.raises(IndexError):
            x[key]
        with pytest.raises(IndexError):
            np.zeros((2, 3))[key]
    with pytest.raises(IndexError):
        x[np.array([0.5])]                 # float arrays are no indices
    with pytest.raises(IndexError):
        x[[0, 5]]                          # out of bounds in an index array
    with pytest.raises(ValueError):
        x[0] = xp.asarray(np.zeros(4), device=device)
    with pytest.raises(IndexError):
        x[2] = 1.0


@st.composite
def _advanced_key(draw: st.DrawFn, shape: tuple[int, ...]) -> Any:
    """Integer arrays (one per axis, broadcast together), an integer array with a slice,
    a boolean mask of the whole shape, or a mask of the first axis with a reversed slice."""
    kind = draw(st.sampled_from(["ints", "int+slice", "mask", "mask+slice"]))
    if kind == "ints":
        return draw(hnp.integer_array_indices(
            shape, result_shape=hnp.array_shapes(min_dims=0, max_dims=2, max_side=3)))
    if kind == "int+slice":
        idx = draw(hnp.arrays(np.int64, draw(hnp.array_shapes(max_dims=2, max_side=3)),
                              elements=st.integers(-shape[0], shape[0] - 1)))
        return (idx, slice(None, None, -1)) if len(shape) > 1 else (idx,)
    if kind == "mask":
        return draw(hnp.arrays(np.bool_, shape))
    mask = draw(hnp.arrays(np.bool_, shape[:1]))
    return (mask, slice(None, None, -2)) if len(shape) > 1 else (mask,)


def _on(key: Any, device: str, as_arrays: bool) -> Any:
    if not as_arrays:
        return key
    keys = key if isinstance(key, tuple) else (key,)
    out = tuple(xp.asarray(k, device=device) if isinstance(k, np.ndarray) else k
                for k in keys)
    return out if isinstance(key, tuple) else out[0]


@given(data=st.data())
def test_advanced_indexing(device: str, data: st.DataObject) -> None:
    """Integer-array and boolean-mask keys (as NumPy arrays or zyxarray arrays), reading
    and writing a scalar, against NumPy; an earlier view sees the write (NumPy's aliasing),
    a read-only (broadcast) array refuses it."""
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = data.draw(inputs(dtype, shape), label="x")
    key = data.draw(_advanced_key(shape), label="key")
    as_arrays = data.draw(st.booleans(), label="keys as zyxarray arrays")
    value = np.asarray(data.draw(elements(dtype), label="value"), dtype).item()
    expected = apply_np(a.base.copy(), a.ops)
    read_only = not expected.flags.writeable
    if not read_only:
        expected[key] = value
    for dev in dict(on_devices(device, lambda d: d)):
        x = a.on(dev)
        assert_close(x[_on(key, dev, as_arrays)], a.np[key], what=f"x[key] on {dev}")
        before = x[...]
        copied = x.copy()
        if read_only:
            with pytest.raises(ValueError, match="read-only"):
                x[_on(key, dev, as_arrays)] = value
        else:
            x[_on(key, dev, as_arrays)] = value
        assert_close(x, expected, what=f"x[key] = value on {dev}")
        assert_close(before, expected, what=f"a view taken before, on {dev}")
        assert_close(copied, a.np, what=f"a copy taken before, on {dev}")


def test_zero_d_array_as_index(device: str) -> None:
    x = xp.asarray(np.arange(5) * 10, device=device)
    i = xp.asarray(3, device=device)
    assert_close(x[i], np.asarray(30))
    assert int(x[xp.asarray(-1, device=device)]) == 40


def test_setitem_into_an_exclusive_buffer(device: str) -> None:
    """A realized array that nothing else refers to may be written in place; the values
    must be those of the functional update, also when the value reads the same array."""
    base = np.arange(20, dtype=np.int64).reshape(4, 5)
    x = xp.asarray(base, device=device) * 1
    np.asarray(x)
    want = base.copy()
    for i in range(4):
        x[i, i] = -i
        want[i, i] = -i
    assert_close(x, want)
    x[1:, :] = x[:-1, :]                # overlapping source and destination
    want[1:, :] = want[:-1, :].copy()
    assert_close(x, want)
    x[:, ::-1] = x                      # a reversed copy of itself
    want[:, ::-1] = want.copy()
    assert_close(x, want)
    x[0] = x[0] * 10 + x[3]
    want[0] = want[0] * 10 + want[3]
    assert_close(x, want)


def test_setitem_does_not_write_through_shared_nodes(device: str) -> None:
    """Arrays that share a node (asarray(copy=True), astype to the same dtype) are distinct
    arrays: writing one must not change the other, nor a host copy taken before."""
    base = np.arange(6, dtype=np.float32)
    x = xp.asarray(base, device=device) + 0
    np.asarray(x)
    host = np.asarray(x)
    for make in (lambda a: xp.asarray(a, copy=True), lambda a: xp.astype(a, a.dtype)):
        y = make(x)
        y[0] = 99.0
        assert float(y[0]) == 99.0
        assert_close(x, base)
    assert_close(host, base)


def test_one_integer_key(device: str) -> None:
    """``x[i]`` (the commonest key, one VIEW through ``graph.index_first``) on pending,
    realized and viewed arrays of several ranks."""
    h = np.arange(24.0).reshape(2, 3, 4)
    x = xp.asarray(h, device=device)
    for i in (0, 1, -1, -2):
        assert_close(x[i], h[i])
        assert_close(x[i][-1], h[i][-1])
        assert_close((x * 2)[i], h[i] * 2)
        assert_close(x[:, 1][i], h[:, 1][i])
        assert_close(x.T[i], h.T[i])
    v = xp.asarray(np.arange(5, dtype=np.int16), device=device)
    assert int(v[3]) == 3 and int(v[-5]) == 0 and v[2].shape == ()
    for bad in (2, -3):
        with pytest.raises(IndexError, match="out of bounds"):
            x[bad]
    with pytest.raises(IndexError):
        xp.asarray(1.0, device=device)[0]


def test_out_of_bounds_index_arrays_raise_from_the_call(device: str) -> None:
    """An out-of-bounds device index array used to raise only when the result was observed;
    after a failed ``x[idx] = v`` every later read of ``x`` raised. NumPy raises from the
    call and leaves ``x`` as it was."""
    h = np.arange(12.0).reshape(3, 4)
    x = xp.asarray(h, device=device)

    def idx(*values: int) -> Any:
        return xp.asarray(list(values), device=device)

    for call, match in [
        (lambda: x[idx(0, 3)], "index 3 is out of bounds for axis 0 with size 3"),
        (lambda: x[idx(-4)], "index -4 is out of bounds for axis 0 with size 3"),
        (lambda: x[..., idx(1, 4)], "index 4 is out of bounds for axis 1 with size 4"),
        (lambda: x[None, 1:, idx(9)], "axis 1 with size 4"),
        (lambda: x.__setitem__(idx(7), 1.0), "index 7 is out of bounds"),
        (lambda: xp.take(x, idx(5), axis=1), "index 5 is out of bounds for axis 1"),
        (lambda: xp.take_along_axis(x, xp.asarray([[4]], device=device), axis=1),
         "out of bounds"),
    ]:
        with pytest.raises(IndexError, match=match):
            call()
    assert_close(x, h)
    assert_close(x[idx(2, -1), idx(3, 0)], h[[2, -1], [3, 0]])
    x[idx(0)] = -1.0
    h[[0]] = -1.0
    assert_close(x, h)


def test_index_arrays_into_cpu_memory_are_read_by_numpy_now(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On the cpu device, an array in memory read through index arrays or masks that are
    in memory too (``x[x > 0]``, ``X[idx]``, ``A[:, [1, 2]]``) is indexed by NumPy at once:
    no library node, no kernel, NumPy's values; the result is a new array (a write to it
    leaves ``x`` alone); keys NumPy refuses take the lazy path, whose error names the call;
    a pending array keeps the lazy path."""
    from zyxarray._lazy import graph, realize
    rng = np.random.default_rng(9)
    h, hi = rng.standard_normal((12, 5)), rng.integers(-5, 12, 7)
    x, idx = xp.asarray(h), xp.asarray(hi)
    made: list[Any] = []
    library = graph.library
    monkeypatch.setattr(graph, "library", lambda *a, **k: made.append(a[0]) or
                        library(*a, **k))
    before = realize.stats["kernels"]
    for key, host in [(idx, hi), ((x[:, 0] > 0), (h[:, 0] > 0)), ((slice(None), [1, 2]),
                      (slice(None), [1, 2])), ((idx[:3], idx[3:6] % 5), (hi[:3], hi[3:6] % 5)),
                      ((x > 0.5), (h > 0.5)), ((Ellipsis, np.array([0, -1])),
                                               (Ellipsis, np.array([0, -1])))]:
        got = x[key]
        np.testing.assert_array_equal(np.asarray(got), h[host])
    assert made == [] and realize.stats["kernels"] == before
    row = x[idx]
    row[0, 0] = 100.0
    assert float(x[int(hi[0]), 0]) == h[hi[0], 0]
    with pytest.raises(IndexError, match="__getitem__: index 12 is out of bounds"):
        x[xp.asarray([0, 12])]
    big = xp.asarray(np.arange(5000.0)) * 2.0           # (pending: past now_max)
    np.testing.assert_array_equal(np.asarray(big[xp.asarray([3, 4999])]), [6.0, 9998.0])
    assert made == ["getitem"]


def test_boolean_mask_fills_are_lazy_elementwise_kernels(device: str) -> None:
    """``x[mask] = scalar`` (NumPy's commonest masked update) is ``where(mask, scalar, x)``:
    no host round trip for the True positions, fused with what follows; masks over leading
    axes fill whole rows; a 0-d array serves as the scalar."""
    rng = np.random.default_rng(9)
    h = rng.standard_normal((30, 40))
    for mask_of, value in ((lambda a: a > 0.5, 7.0), (lambda a: np.isnan(a) | (a < -1), -0.0),
                           (lambda a: a[:, 0] > 0, 3), (lambda a: a > 9, 1.0)):
        want = h.copy()
        want[mask_of(want)] = value
        x = xp.asarray(h, device=device)
        x[mask_of(x)] = value
        assert not [k for k in xp.explain(x) if "library" in str(k).lower()]
        np.testing.assert_array_equal(np.asarray(x), want)
    ints = np.arange(12).reshape(3, 4)
    y = xp.asarray(ints, device=device)
    y[y % 3 == 0] = -5
    want = ints.copy()
    want[want % 3 == 0] = -5
    np.testing.assert_array_equal(np.asarray(y), want)
    z = xp.asarray(h + 1j * h, device=device)
    z[xp.abs(z) > 1] = xp.asarray(2 + 0j, device=device)
    hz = h + 1j * h
    hz[np.abs(hz) > 1] = 2
    np.testing.assert_array_equal(np.asarray(z), hz)


def test_masked_stores_into_small_cpu_memory_are_numpys_in_place(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On the cpu device, ``x[mask] = number`` for a small array and mask in memory that
    no pending result reads is NumPy's masked store in place: no update node, no kernel (it was
    a pending update and a kernel: 40 us, and 440 us a write as a loop's chain grew);
    through a row of a matrix the matrix sees it; a pending result keeps the value it was
    made from; a value of another kind keeps the general path."""
    from zyxarray._lazy import graph, realize
    h = np.random.default_rng(10).standard_normal((40, 12))
    x = xp.asarray(h.copy())
    rows = [row for row in x]
    masks = [row < 0 for row in rows]
    flat = xp.asarray(h[0].copy())
    low = flat < -0.5
    assert low._node.op == "BUFFER"         # (the mask computed now: its node, made now)
    made: list[str] = []
    init = graph.Node.__init__
    monkeypatch.setattr(graph.Node, "__init__", lambda self, *a, **k: (made.append(a[0]),
                                                                         init(self, *a, **k))[1])
    before = realize.stats["kernels"]
    flat[low] = -0.5
    assert made == []
    for row, m in zip(rows, masks):         # (each row made a member of x's storage first)
        row[m] = 0.0
    assert realize.stats["kernels"] == before
    want = h.copy()
    want[want < 0] = 0.0
    np.testing.assert_array_equal(np.asarray(x), want)
    first = h[0].copy()
    first[first < -0.5] = -0.5
    np.testing.assert_array_equal(np.asarray(flat), first)
    big = xp.asarray(np.arange(6000.0))
    later = big * 2.0                       # (pending: it keeps the value it was made from)
    ints = xp.asarray(np.arange(10))
    kept = ints + 0                         # (computed now: its own memory)
    ints[ints > 6] = -1
    np.testing.assert_array_equal(np.asarray(ints), [0, 1, 2, 3, 4, 5, 6, -1, -1, -1])
    np.testing.assert_array_equal(np.asarray(kept), np.arange(10))
    big[big > 10.0] = 0.0
    np.testing.assert_array_equal(np.asarray(later), np.arange(6000.0) * 2)
    with pytest.raises(TypeError, match="float"):    # (the general path's refusal, as before)
        ints[ints < 0] = 2.5


def test_a_repeated_basic_key_is_parsed_once_and_means_the_same(device: str) -> None:
    """Basic keys are remembered by shape (``_indexing._BASIC``): the same key on arrays of
    other shapes, a bad key each time it is used, keys that differ only in int vs bool or
    in a slice's parts, and a view's writes through a remembered key all behave as NumPy."""
    keys = [(slice(None), None, slice(None)), (slice(1, -1), slice(None, -2)), (0,),
            (slice(None, None, -2),), (..., 1), (1, ...), (None,), (slice(1, None),),
            (slice(None, 1),), (slice(None), 1)]
    for shape in ((4, 5), (6, 3), (3, 4, 2)):
        base = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
        x = xp.asarray(base, device=device)
        for _ in range(2):
            for key in keys:
                assert_close(x[key], base[key])
    x = xp.asarray(np.zeros((2, 3)), device=device)
    for _ in range(3):
        with pytest.raises(IndexError):
            x[0, 3]
        with pytest.raises(IndexError):
            x[:, :, 0]
    m = xp.asarray(np.arange(6.0).reshape(2, 3), device=device)
    assert m[True].shape == (1, 2, 3) and m[1].shape == (3,)
    for _ in range(2):
        v = m[:, 1:]
        v[0, 0] = -1.0
    expected = np.arange(6.0).reshape(2, 3)
    expected[0, 1] = -1.0
    assert_close(m, expected)
