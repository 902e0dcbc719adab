"""NumPy's array-manipulation routines: atleast_1d/2d/3d, stacking (hstack, vstack, dstack,
column_stack, block), splitting (split, array_split, hsplit, vsplit, dsplit), append, delete,
insert, pad (every mode), trim_zeros, resize, swapaxes, rollaxis, apply_along_axis, ndindex,
iterable; and the helpers ``_numpy_index_tricks`` shares.

Layer: ``_api``. Everything composes the lazy public functions (views, ``concat``,
``where``, ``take``, ``sort``, reductions), so results stay pending and fuse. Device data is
read only where it decides a result's shape (``trim_zeros``, ``delete`` with a device index
array, ``insert`` with a device mask: the docstrings say so) and where device indices are
checked against their bounds, so that the call raises NumPy's error as ``take`` does (one
reduction; the values are read only when one is out of range). Host data given with arrays
goes to their device. Must not import ``_codegen`` or ``_devices``.
"""

from __future__ import annotations

import builtins
import itertools
import math
import operator
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .._lazy import graph as g
from . import _dtypes as dt
from . import _elementwise_functions as ew
from . import _manipulation_functions as mf
from . import _statistical_functions as sf
from ._array_object import Array
from ._creation_functions import arange, asarray, full, zeros
from ._data_type_functions import astype
from ._indexing_functions import take
from ._numpy_args import as_array, as_arrays, device_for
from ._searching_functions import where
from ._sorting_functions import argsort, sort
from ._utility_functions import any as any_

normalize_axis = mf.normalize_axis

# -- helpers ------------------------------------------------------------------------------------
def _ravel(x: Array) -> Array:
    return x if x.ndim == 1 else mf.reshape(x, (-1,))


def _int(name: str, what: str, v: Any) -> int:
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{name}: {what} must be an integer, got {v!r}") from None


def _shape_of(name: str, shape: Any) -> tuple[int, ...]:
    if isinstance(shape, Array):
        shape = shape.tolist()       # a shape: its values decide the result's shape
    items = shape if isinstance(shape, (tuple, list, np.ndarray)) else (shape,)
    return tuple(_int(name, "each dimension", s) for s in items)


def _along(axis: int, ndim: int, key: Any) -> tuple[Any, ...]:
    """The key that applies ``key`` along ``axis`` of an ``ndim``-d array."""
    return (slice(None),) * axis + (key,) + (slice(None),) * (ndim - axis - 1)


def _axis_shape(shape: tuple[int, ...], axis: int, n: int) -> tuple[int, ...]:
    return shape[:axis] + (n,) + shape[axis + 1:]


def _first_outside(idx: Array | np.ndarray, lo: int, hi: int) -> int | None:
    """The first value of the integer ``idx`` outside ``[lo, hi)``, or None. A device array is
    checked with one reduction; its values are read only when one is out of range."""
    if isinstance(idx, Array):
        if idx.size == 0:
            return None
        bad = ew.logical_or(ew.less(idx, lo), ew.greater_equal(idx, hi))
        if not builtins.bool(any_(bad)):
            return None
        idx = idx._host()
    values = np.asarray(idx)
    bad_host = (values < lo) | (values >= hi)
    return int(values[bad_host].flat[0]) if bad_host.any() else None


def _gather(x: Array, positions: np.ndarray, axis: int) -> Array:
    """``x`` at the host ``positions`` (increasing) along ``axis``: a few contiguous runs
    join as views (one fused expression), more are a ``take``."""
    positions = np.asarray(positions, np.int64)
    if positions.size == 0:
        return x[_along(axis, x.ndim, slice(0, 0))]
    breaks = np.flatnonzero(np.diff(positions) != 1) + 1
    starts = np.concatenate(([0], breaks))
    ends = np.concatenate((breaks, [positions.size]))
    if starts.size > mf.CONCAT_FUSE_MAX:
        return take(x, asarray(positions, device=x.device), axis=axis)
    parts = [x[_along(axis, x.ndim, slice(int(positions[s]), int(positions[e - 1]) + 1))]
             for s, e in zip(starts, ends)]
    return parts[0] if len(parts) == 1 else mf.concat(parts, axis=axis)


def _positions(name: str, values: Any) -> np.ndarray:
    """Host values of a condition or mask (a device one is read: its values decide the
    result's shape)."""
    return values._host() if isinstance(values, Array) else np.asarray(values)


# -- atleast_nd ---------------------------------------------------------------------------------
def _with_ndim(x: Array, ndim: int) -> Array:
    """``x`` with leading size-1 axes up to ``ndim`` dimensions (NumPy's ``ndmin``)."""
    if x.ndim >= ndim:
        return x
    return mf.reshape(x, (1,) * (ndim - x.ndim) + x.shape)


def _at_least(x: Array, ndim: int) -> Array:
    """``atleast_{ndim}d``: as ``_with_ndim``, except that 3-D puts a 1-D array on the
    middle axis and adds a last axis to a 2-D one."""
    if ndim == 3 and x.ndim < 3:
        return mf.reshape(x, {0: (1, 1, 1), 1: (1, x.size, 1), 2: (*x.shape, 1)}[x.ndim])
    return _with_ndim(x, ndim)


def _atleast(ndim: int, arys: tuple[Any, ...]) -> Any:
    device = device_for(*arys)
    out = [_at_least(as_array(a, device=device), ndim) for a in arys]
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys: Any) -> Any:
    """Each input as an array of at least one dimension (one array, or a tuple of them)."""
    return _atleast(1, arys)


def atleast_2d(*arys: Any) -> Any:
    """Each input with at least two dimensions: 1-D ``(N,)`` becomes ``(1, N)``."""
    return _atleast(2, arys)


def atleast_3d(*arys: Any) -> Any:
    """Each input with at least three dimensions: ``(N,)`` becomes ``(1, N, 1)`` and
    ``(M, N)`` becomes ``(M, N, 1)``."""
    return _atleast(3, arys)


# -- stacking -----------------------------------------------------------------------------------
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def _sequence(name: str, tup: Any) -> list[Array]:
    if isinstance(tup, Array):
        if tup.ndim == 0:
            raise TypeError(f"{name}: a 0-d array is not a sequence of arrays")
        return list(mf.unstack(tup))
    if isinstance(tup, np.ndarray):
        tup = list(tup)
    if not isinstance(tup, (list, tuple)):
        raise TypeError(f"{name}: arrays to stack must be passed as a sequence (a list or "
                        f"tuple), got {type(tup).__name__}")
    return as_arrays(*tup)


def _join(name: str, arrays: list[Array], axis: int, dtype: Any = None,
          casting: str = "same_kind") -> Array:
    """``concat`` with NumPy's ``dtype`` and ``casting`` keywords."""
    if not arrays:
        raise ValueError(f"{name}: need at least one array to concatenate")
    if casting not in _CASTINGS:
        raise ValueError(f"{name}: casting must be one of {_CASTINGS}, got {casting!r}")
    want = dt.result_type_of(*arrays, where=name) if dtype is None else \
        dt.to_dtype(dtype, name)
    for a in arrays:
        if not np.can_cast(a.dtype.np, want.np, casting=casting):  # type: ignore[arg-type]
            raise TypeError(f"{name}: cannot cast {a.dtype.name} to {want.name} with "
                            f"casting={casting!r}")
    return mf.concat([astype(a, want, copy=False) for a in arrays], axis=axis)


def hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Array:
    """The arrays joined horizontally: along axis 0 for 1-D arrays, else axis 1."""
    arrays = [_with_ndim(a, 1) for a in _sequence("hstack", tup)]
    axis = 0 if arrays and arrays[0].ndim == 1 else 1
    return _join("hstack", arrays, axis, dtype, casting)


def vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Array:
    """The arrays joined vertically (1-D ``(N,)`` arrays become rows ``(1, N)``)."""
    arrays = [_with_ndim(a, 2) for a in _sequence("vstack", tup)]
    return _join("vstack", arrays, 0, dtype, casting)


def dstack(tup: Any) -> Array:
    """The arrays joined along the third axis (after ``atleast_3d``)."""
    arrays = [_at_least(a, 3) for a in _sequence("dstack", tup)]
    return _join("dstack", arrays, 2)


def column_stack(tup: Any) -> Array:
    """1-D arrays as the columns of a 2-D array (2-D arrays join as they are)."""
    arrays = [mf.reshape(a, (a.size, 1)) if a.ndim < 2 else a
              for a in _sequence("column_stack", tup)]
    return _join("column_stack", arrays, 1)


def _block_depth(arrays: Any, index: list[int]) -> int:
    if type(arrays) is tuple:
        raise TypeError(f"block: arrays{index} is a tuple; only lists can be used to arrange "
                        f"blocks")
    if type(arrays) is not list:
        return 0
    if not arrays:
        raise ValueError(f"block: list at arrays{index} cannot be empty")
    depths = [_block_depth(a, [*index, i]) for i, a in enumerate(arrays)]
    if any(d != depths[0] for d in depths):
        raise ValueError(f"block: list depths are mismatched under arrays{index}: "
                         f"{depths}")
    return depths[0] + 1


def _block_leaves(arrays: Any, device: Any) -> Any:
    if type(arrays) is list:
        return [_block_leaves(a, device) for a in arrays]
    return as_array(arrays, device=device)


def _block_max_ndim(arrays: Any) -> int:
    if type(arrays) is list:
        return builtins.max(_block_max_ndim(a) for a in arrays)
    return int(arrays.ndim)


def _block_join(arrays: Any, depth: int, depth_total: int, ndim: int) -> Array:
    if depth == depth_total:
        return _with_ndim(arrays, ndim)
    parts = [_block_join(a, depth + 1, depth_total, ndim) for a in arrays]
    return mf.concat(parts, axis=-(depth_total - depth)) if len(parts) > 1 else parts[0]


def block(arrays: Any) -> Array:
    """An array assembled from nested lists of blocks: the innermost lists join along the
    last axis, the next ones along the second-to-last, and so on."""
    depth = _block_depth(arrays, [])
    leaves = _block_leaves(arrays, device_for(arrays))
    ndim = builtins.max(depth, _block_max_ndim(leaves))
    return _block_join(leaves, 0, depth, ndim)


# -- splitting ----------------------------------------------------------------------------------
def _split(name: str, ary: Any, indices_or_sections: Any, axis: Any, equal: bool
           ) -> list[Array]:
    x = as_array(ary)
    ax = normalize_axis(name, axis, x.ndim)
    n = x.shape[ax]
    if np.ndim(indices_or_sections) if not isinstance(indices_or_sections, Array) else \
            indices_or_sections.ndim:
        points = [0, *(_int(name, "a split index", i) for i in indices_or_sections), n]
    else:
        sections = _int(name, "the number of sections", indices_or_sections)
        if sections <= 0:
            # Note: NumPy's split raises ZeroDivisionError for 0 sections; this is ValueError.
            raise ValueError(f"{name}: number of sections must be larger than 0, got "
                             f"{sections}")
        each, extra = divmod(n, sections)
        if equal and extra:
            raise ValueError(f"{name}: array split does not result in an equal division "
                             f"({n} into {sections})")
        sizes = [each + 1] * extra + [each] * (sections - extra)
        points = [0, *itertools.accumulate(sizes)]
    return [x[_along(ax, x.ndim, slice(points[i], points[i + 1]))]
            for i in range(len(points) - 1)]


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """Views of ``ary`` split into equal sections, or at the given indices, along ``axis``."""
    return _split("split", ary, indices_or_sections, axis, equal=True)


def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """As ``split``, but the sections may differ in length (the first ones are longer)."""
    return _split("array_split", ary, indices_or_sections, axis, equal=False)


def hsplit(ary: Any, indices_or_sections: Any) -> list[Array]:
    """``split`` along axis 1 (axis 0 for 1-D arrays)."""
    x = as_array(ary)
    if x.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return _split("hsplit", x, indices_or_sections, 1 if x.ndim > 1 else 0, equal=True)


def vsplit(ary: Any, indices_or_sections: Any) -> list[Array]:
    """``split`` along axis 0 of an array of 2 or more dimensions."""
    x = as_array(ary)
    if x.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split("vsplit", x, indices_or_sections, 0, equal=True)


def dsplit(ary: Any, indices_or_sections: Any) -> list[Array]:
    """``split`` along axis 2 of an array of 3 or more dimensions."""
    x = as_array(ary)
    if x.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split("dsplit", x, indices_or_sections, 2, equal=True)


# -- append, delete, insert ---------------------------------------------------------------------
def append(arr: Any, values: Any, axis: int | None = None) -> Array:
    """``values`` joined to the end of ``arr`` (both flattened when ``axis`` is None)."""
    if axis is None and type(arr) is Array and type(values) in (int, float) and \
            arr.device.info.kind == "cpu" and arr.dtype.kind in "iuf":
        # (a loop's ``a = np.append(a, x)``: the number as a one-element array in memory,
        # so a small ``a`` in memory of the number's dtype is joined in C; 29 -> 10 us)
        from . import _hot
        host = np.asarray([values])     # (NumPy's: the number as its own array)
        if host.dtype == arr.dtype.np:
            return mf.concat([_ravel(arr), _hot.wrapped(host, arr.device)], axis=0)
    a, v = as_arrays(arr, values)
    if axis is None:
        a, v, axis = _ravel(a), _ravel(v), 0
    return mf.concat([a, v], axis=axis)


def delete(arr: Any, obj: Any, axis: int | None = None) -> Array:
    """``arr`` without the entries ``obj`` names along ``axis`` (flattened if None): an
    integer, a slice, integer indices or a boolean mask of the axis' length.

    A device index array is read: repeated indices delete one entry, so the result's length
    depends on its values. The kept entries are views joined (a few runs) or a ``take``."""
    a = as_array(arr)
    if axis is None:
        a, axis = _ravel(a), 0
    ax = normalize_axis("delete", axis, a.ndim)
    n = a.shape[ax]
    keep = np.ones(n, np.bool_)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        is_int = isinstance(obj, (int, np.integer)) and not isinstance(obj, (bool, np.bool_))
        host = _positions("delete", obj)
        if host.dtype == np.bool_:
            if host.shape != (n,):
                raise ValueError(f"delete: boolean array argument obj to delete must be one "
                                 f"dimensional and match the axis length of {n}")
            keep = ~host
        elif host.size or isinstance(obj, (np.ndarray, Array)):
            if host.dtype.kind not in "iu":
                raise IndexError("delete: arrays used as indices must be of integer (or "
                                 "boolean) type")
            bad = _first_outside(host, -n, n)
            if bad is not None:
                raise IndexError(f"delete: index {bad} is out of bounds for axis {ax} with "
                                 f"size {n}")
            keep[host if not is_int else int(host)] = False
    return _gather(a, np.flatnonzero(keep), ax)


def _insert_one(a: Array, index: Array | int, values: Array, ax: int, scalar: bool) -> Array:
    """NumPy's insert of one index: ``values`` (at least ``a.ndim``-d; for a scalar index its
    first axis moved to ``ax``) is broadcast into a slot of its own length at ``index``."""
    v = _with_ndim(values, a.ndim)
    if scalar:
        v = mf.moveaxis(v, 0, ax)
    m = v.shape[ax]
    v = mf.broadcast_to(v, _axis_shape(a.shape, ax, m))
    n = a.shape[ax]
    if isinstance(index, int):
        before, after = a[_along(ax, a.ndim, slice(0, index))], \
            a[_along(ax, a.ndim, slice(index, None))]
        return mf.concat([p for p in (before, v, after) if p.shape[ax]] or [before], axis=ax)
    # a device index: each output position picks its source in concat([a, v]) lazily
    p = arange(n + m, device=a.device)
    i = where(ew.less(index, 0), ew.add(index, n), index)
    src = where(ew.less(p, i), p, where(ew.less(p, ew.add(i, m)),
                                        ew.add(ew.subtract(p, i), n), ew.subtract(p, m)))
    return take(mf.concat([a, v], axis=ax), src, axis=ax)


def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> Array:
    """``values`` inserted before the entries ``obj`` names along ``axis`` (flattened if
    None): an integer, a slice, a sequence of integers or a 1-D boolean mask.

    The result's shape depends only on ``obj``'s size, so device indices stay lazy: each
    output position's source is worked out on the device (a stable argsort of the indices)
    and gathered with ``take``. An integer index joins views (one fused expression).
    """
    a = as_array(arr)
    if axis is None:
        a, axis = _ravel(a), 0
    ax = normalize_axis("insert", axis, a.ndim)
    n = a.shape[ax]
    v = astype(as_array(values, device=a.device), a.dtype, copy=False)
    if isinstance(obj, slice):
        idx: Array | np.ndarray = np.arange(*obj.indices(n))
    elif isinstance(obj, Array) and obj.dtype != dt.bool:
        idx = obj
    else:
        # a mask stands for its True positions (a device mask is read: their number
        # decides the shape)
        idx = _positions("insert", obj)
        if idx.dtype == np.bool_:
            if idx.ndim != 1:
                raise ValueError("insert: boolean array argument obj to insert must be one "
                                 "dimensional")
            idx = np.flatnonzero(idx)
        elif idx.size == 0 and not isinstance(obj, np.ndarray):
            idx = idx.astype(np.int64)
    if idx.ndim > 1:
        raise ValueError("insert: index array argument obj to insert must be one dimensional "
                         "or scalar")
    if idx.dtype.kind not in "iu":
        raise IndexError(f"insert: indices must be integers, got {idx.dtype}")
    # Note: NumPy's several-index path lets some indices below -N wrap around; we raise.
    bad = _first_outside(idx, -n, n + 1)
    if bad is not None:
        raise IndexError(f"insert: index {bad} is out of bounds for axis {ax} with size {n}")
    if idx.size == 1:
        if isinstance(idx, Array):
            one: Array | int = mf.reshape(astype(idx, dt.int64), ())
        else:
            one = int(idx.reshape(()))
            one = one + n if one < 0 else one
        return _insert_one(a, one, v, ax, scalar=idx.ndim == 0)
    m = int(idx.size)
    index = astype(as_array(idx, device=a.device), dt.int64)
    index = where(ew.less(index, 0), ew.add(index, n), index)
    # inserted value k lands at index[k] + (its rank in a stable sort of the indices);
    # old entry j moves right by the number of indices <= j
    rank = argsort(argsort(index, stable=True), stable=True)
    new_pos = ew.add(index, rank)
    old_pos = ew.add(arange(n, device=a.device),
                     _searchsorted_right(sort(index), arange(n, device=a.device)))
    src = argsort(mf.concat([old_pos, new_pos]))
    vb = mf.broadcast_to(v, _axis_shape(a.shape, ax, m))
    return take(mf.concat([a, vb], axis=ax), src, axis=ax)


def _searchsorted_right(sorted_: Array, x: Array) -> Array:
    from ._searching_functions import searchsorted
    return searchsorted(sorted_, x, side="right")


# -- pad ----------------------------------------------------------------------------------------
_PAD_KEYWORDS: dict[str, tuple[str, ...]] = {
    "constant": ("constant_values",), "edge": (), "empty": (), "wrap": (),
    "linear_ramp": ("end_values",), "maximum": ("stat_length",), "mean": ("stat_length",),
    "median": ("stat_length",), "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
}


def _pairs(name: str, x: Any, ndim: int, as_index: bool, what: str = ""
           ) -> list[list[Any]]:
    """(before, after) per axis from NumPy's forms: a scalar, a pair, one pair per axis, or
    (widths only) a dict {axis: width or pair}. Widths are host ints (they decide the
    shape); values stay 0-d arrays when given as an array."""
    if x is None:
        return [[None, None] for _ in range(ndim)]
    if isinstance(x, dict):
        out = [[0, 0] for _ in range(ndim)]
        for axis, w in x.items():
            out[normalize_axis(name, axis, ndim)] = _pairs(name, w, 1, as_index, what)[0]
        return out
    if isinstance(x, Array) and not as_index:
        flat = _ravel(x)
        if x.size == 1:
            return [[flat[0], flat[0]] for _ in range(ndim)]
        if x.size == 2 and x.shape != (2, 1):
            return [[flat[0], flat[1]] for _ in range(ndim)]
        b = mf.broadcast_to(x, (ndim, 2))
        return [[b[i, 0], b[i, 1]] for i in range(ndim)]
    v = _positions(name, x)
    if as_index:
        if what == "pad_width" and v.dtype.kind != "i":
            raise TypeError(f"{name}: `pad_width` must be of integral type, got {v.dtype}")
        v = np.round(v).astype(np.int64)      # (stat_length may be a float: rounded)
        if v.size and v.min() < 0:
            raise ValueError(f"{name}: index can't contain negative values")
    if v.size == 1:
        return [[v.flat[0].item(), v.flat[0].item()] for _ in range(ndim)]
    if v.size == 2 and v.shape != (2, 1):
        return [[v.flat[0].item(), v.flat[1].item()] for _ in range(ndim)]
    try:
        return np.broadcast_to(v, (ndim, 2)).tolist()
    except ValueError:
        raise ValueError(f"{name}: cannot broadcast {v.shape} to (before, after) pairs for "
                         f"{ndim} axes") from None


def _fill(value: Any, shape: tuple[int, ...], like: Array) -> Array:
    """``value`` (a scalar or a 0-d array) cast as NumPy's assignment casts, broadcast."""
    if isinstance(value, Array):
        return mf.broadcast_to(astype(value, like.dtype, copy=False), shape)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        v = np.asarray(value).astype(like.dtype.np).item()
    return full(shape, v, dtype=like.dtype, device=like.device)


def _around(x: Array, axis: int, left: Array | None, right: Array | None) -> Array:
    parts = [p for p in (left, x, right) if p is not None and p.shape[axis]]
    return mf.concat(parts, axis=axis) if len(parts) > 1 else x


def _edge(x: Array, axis: int, first: bool) -> Array:
    n = x.shape[axis]
    return x[_along(axis, x.ndim, slice(0, 1) if first else slice(n - 1, n))]


def _pad_edge(x: Array, axis: int, lw: int, rw: int) -> Array:
    left = mf.broadcast_to(_edge(x, axis, True), _axis_shape(x.shape, axis, lw))
    right = mf.broadcast_to(_edge(x, axis, False), _axis_shape(x.shape, axis, rw))
    return _around(x, axis, left, right)


def _work_dtype(x: Array) -> dt.DType:
    if x.dtype in dt.COMPLEX_FLOATING:
        return dt.complex128 if x.device.info.float64 else dt.complex64
    return dt.float64 if x.device.info.float64 else dt.float32


def _ramp(x: Array, axis: int, width: int, end: Any, first: bool) -> Array | None:
    """NumPy's ``linspace(end, edge, width, endpoint=False)`` along ``axis`` (reversed on the
    right), computed in float64 (floored for integer dtypes) and cast to x's dtype."""
    if width == 0:
        return None
    work = _work_dtype(x)
    edge = astype(_edge(x, axis, first), work)
    if isinstance(end, Array):
        start = mf.broadcast_to(astype(end, work), edge.shape)
    else:
        start = full(edge.shape, np.asarray(end).astype(work.np).item(), dtype=work,
                     device=x.device)
    delta = ew.subtract(edge, start)
    k = astype(arange(width, device=x.device), work)
    k = mf.reshape(k, _axis_shape((1,) * x.ndim, axis, width))
    step = ew.divide(delta, width)
    # linspace computes (k / width) * delta when some step is zero, else k * step
    divide_first = any_(ew.equal(step, 0))
    y = ew.multiply(where(divide_first, ew.divide(k, width), k),
                    where(divide_first, delta, step))
    y = ew.add(y, start)
    if x.dtype in dt.INTEGER:
        y = ew.floor(y)
    y = astype(y, x.dtype)
    return y if first else mf.flip(y, axis=axis)


def _stat(x: Array, mode: str, chunk: Array, axis: int) -> Array:
    """The statistic of ``chunk`` along ``axis`` (keepdims), rounded (half to even) for
    integer arrays as NumPy's pad rounds, in x's dtype."""
    if mode == "maximum":
        return sf.max(chunk, axis=axis, keepdims=True)
    if mode == "minimum":
        return sf.min(chunk, axis=axis, keepdims=True)
    work = _work_dtype(chunk) if chunk.dtype not in dt.FLOATING else chunk.dtype
    c = astype(chunk, work, copy=False)
    if mode == "mean":
        value = ew.divide(sf.sum(c, axis=axis, keepdims=True), chunk.shape[axis])
    else:
        s = sort(c, axis=axis)
        length = chunk.shape[axis]
        lo = s[_along(axis, s.ndim, slice((length - 1) // 2, (length - 1) // 2 + 1))]
        hi = s[_along(axis, s.ndim, slice(length // 2, length // 2 + 1))]
        value = ew.divide(ew.add(lo, hi), 2)
        if work in dt.FLOATING:      # NaN sorts last; any NaN makes the median NaN
            last = s[_along(axis, s.ndim, slice(length - 1, length))]
            value = where(ew.isnan(last), last, value)
    if x.dtype in dt.INTEGER:
        value = ew.round(value)
    return astype(value, x.dtype)


def _pad_stat(x: Array, axis: int, lw: int, rw: int, lengths: list[Any], mode: str) -> Array:
    n = x.shape[axis]
    ll = n if lengths[0] is None or lengths[0] > n else lengths[0]
    rl = n if lengths[1] is None or lengths[1] > n else lengths[1]
    if (ll == 0 or rl == 0) and mode in ("maximum", "minimum"):
        raise ValueError("pad: stat_length of 0 yields no value for padding")
    left = _stat(x, mode, x[_along(axis, x.ndim, slice(0, ll))], axis)
    right = left if ll == rl == n else \
        _stat(x, mode, x[_along(axis, x.ndim, slice(n - rl, n))], axis)
    return _around(x, axis, mf.broadcast_to(left, _axis_shape(x.shape, axis, lw)),
                   mf.broadcast_to(right, _axis_shape(x.shape, axis, rw)))


def _pad_reflect(x: Array, axis: int, lw: int, rw: int, odd: bool, symmetric: bool) -> Array:
    """Reflections of the current values, chunk by chunk as NumPy pads: a pad wider than the
    array reflects the padded values (about the new edge, for ``reflect_type='odd'``)."""
    period = x.shape[axis]
    if period == 1:
        return _pad_edge(x, axis, lw, rw)
    out = x
    while lw > 0 or rw > 0:
        length = out.shape[axis]
        if symmetric:
            chunk_max = length // period * period
            offset = 1
        else:
            chunk_max = (length - 1) // (period - 1) * (period - 1)
            offset = 0
        left = right = None
        if lw > 0:
            c = builtins.min(chunk_max, lw)
            left = mf.flip(out[_along(axis, out.ndim, slice(1 - offset, c + 1 - offset))],
                           axis=axis)
            if odd:
                left = ew.subtract(ew.multiply(_edge(out, axis, True), 2), left)
            lw -= c
        if rw > 0:
            c = builtins.min(chunk_max, rw)
            stop = length - 1 + offset
            right = mf.flip(out[_along(axis, out.ndim, slice(stop - c, stop))], axis=axis)
            if odd:
                right = ew.subtract(ew.multiply(_edge(out, axis, False), 2), right)
            rw -= c
        out = _around(out, axis, left if left is None else astype(left, x.dtype),
                      right if right is None else astype(right, x.dtype))
    return out


def _pad_wrap(x: Array, axis: int, lw: int, rw: int) -> Array:
    """Periodic: a slice of ``x`` tiled along ``axis`` (a broadcast view, no copy)."""
    n = x.shape[axis]
    start = (-lw) % n
    total = lw + n + rw
    reps = -(-(start + total) // n)
    tiled = mf.tile(x, _axis_shape((1,) * x.ndim, axis, reps))
    return tiled[_along(axis, x.ndim, slice(start, start + total))]


def _pad_callable(x: Array, widths: list[list[int]], function: Callable[..., Any],
                  kwargs: dict[str, Any]) -> Array:
    """NumPy's callable mode: ``function(vector, (before, after), axis, kwargs)`` edits each
    1-D vector of the zero-padded array along each axis in place (``vector[...] = ...``);
    the edited vectors are read back and stacked."""
    out = x
    for axis, (lw, rw) in enumerate(widths):
        out = _around(out, axis, zeros(_axis_shape(out.shape, axis, lw), dtype=x.dtype,
                                       device=x.device),
                      zeros(_axis_shape(out.shape, axis, rw), dtype=x.dtype, device=x.device))
    if out.size == 0:
        return out
    for axis in range(out.ndim):
        view = mf.moveaxis(out, axis, -1)
        rows = []
        for ind in ndindex(view.shape[:-1]):
            vector = view[ind + (Ellipsis,)]
            function(vector, tuple(widths[axis]), axis, kwargs)
            rows.append(vector)
        out = mf.moveaxis(mf.reshape(mf.stack(rows), view.shape), -1, axis)
    return out


def pad(array: Any, pad_width: Any, mode: str | Callable[..., Any] = "constant",
        **kwargs: Any) -> Array:
    """``array`` padded by ``pad_width`` (an int, a (before, after) pair, one pair per axis,
    or a dict {axis: width}) with every NumPy mode: 'constant' (``constant_values``),
    'edge', 'linear_ramp' (``end_values``), 'maximum', 'mean', 'median', 'minimum'
    (``stat_length``), 'reflect' and 'symmetric' (``reflect_type`` 'even' or 'odd'), 'wrap',
    'empty', or a function ``f(vector, iaxis_pad_width, iaxis, kwargs)`` that edits
    vectors in place. Axes are padded one after another (later axes fill the corners), each
    as views of the array joined with the padding (a fused expression)."""
    x = as_array(array)
    widths = _pairs("pad", pad_width, x.ndim, as_index=True, what="pad_width")
    if callable(mode):
        return _pad_callable(x, widths, mode, kwargs)
    if mode not in _PAD_KEYWORDS:
        raise ValueError(f"pad: mode {mode!r} is not supported")
    extra = set(kwargs) - set(_PAD_KEYWORDS[mode])
    if extra:
        raise ValueError(f"pad: unsupported keyword arguments for mode {mode!r}: "
                         f"{sorted(extra)}")
    if mode not in ("constant", "empty"):
        for axis, (lw, rw) in enumerate(widths):
            if x.shape[axis] == 0 and (lw or rw):
                raise ValueError(f"pad: can't extend empty axis {axis} using modes other "
                                 f"than 'constant' or 'empty'")
    values = _pairs("pad", kwargs.get("constant_values", 0), x.ndim, as_index=False)
    ends = _pairs("pad", kwargs.get("end_values", 0), x.ndim, as_index=False)
    lengths = _pairs("pad", kwargs.get("stat_length"), x.ndim, as_index=True)
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"pad: reflect_type must be 'even' or 'odd', got {reflect_type!r}")
    zeros = mode == "empty" or all(not isinstance(v, Array) and v == 0
                                   for pair in values for v in pair)
    if mode in ("constant", "empty") and zeros:
        # zeros all around: one masked view (reads 0 outside the array), which fuses into
        # its readers (a stencil reads it through several shifted views at no copy)
        return Array._new(g.pad(x._node, tuple((int(lw), int(rw)) for lw, rw in widths)))
    out = x
    for axis, (lw, rw) in enumerate(widths):
        if mode in ("constant", "empty"):
            # Note: 'empty' pads with zeros (NumPy leaves the memory uninitialized)
            cl, cr = values[axis] if mode == "constant" else (0, 0)
            out = _around(out, axis, _fill(cl, _axis_shape(out.shape, axis, lw), out),
                          _fill(cr, _axis_shape(out.shape, axis, rw), out))
        elif not (lw or rw):
            continue
        elif mode == "edge":
            out = _pad_edge(out, axis, lw, rw)
        elif mode == "linear_ramp":
            out = _around(out, axis, _ramp(out, axis, lw, ends[axis][0], True),
                          _ramp(out, axis, rw, ends[axis][1], False))
        elif mode in ("maximum", "minimum", "mean", "median"):
            out = _pad_stat(out, axis, lw, rw, lengths[axis], mode)
        elif mode == "wrap":
            out = _pad_wrap(out, axis, lw, rw)
        else:
            out = _pad_reflect(out, axis, lw, rw, reflect_type == "odd", mode == "symmetric")
    return out


def _axes_list(name: str, axis: Any, ndim: int) -> tuple[int, ...]:
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(normalize_axis(name, a, ndim) for a in items)
    if len(set(axes)) != len(axes):
        raise ValueError(f"{name}: repeated axis in {axis}")
    return axes


def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> Array:
    """``filt`` without its leading ('f') and/or trailing ('b') zeros along ``axis`` (all
    axes if None): a view. Reads which rows are all zero (one reduction per trimmed axis):
    the result's shape depends on the values.

    Note: NumPy returns a list for a list input; this returns an array."""
    x = as_array(filt)
    mode = trim.lower() if isinstance(trim, str) else trim
    if mode not in ("f", "b", "fb", "bf"):
        raise ValueError(f"trim_zeros: unexpected character(s) in `trim`: {trim!r}")
    axes = range(x.ndim) if axis is None else _axes_list("trim_zeros", axis, x.ndim)
    key: list[Any] = [slice(None)] * x.ndim
    nonzero_ = ew.not_equal(x, 0)
    for ax in axes:
        others = tuple(i for i in range(x.ndim) if i != ax)
        rows = np.flatnonzero(any_(nonzero_, axis=others)._host() if others else
                              nonzero_._host())
        if rows.size == 0:
            key[ax] = slice(0, 0)
        else:
            key[ax] = slice(int(rows[0]) if "f" in mode else None,
                            int(rows[-1]) + 1 if "b" in mode else None)
    return x[tuple(key)]



# -- reshaping ----------------------------------------------------------------------------------
def resize(a: Any, new_shape: Any) -> Array:
    """An array of ``new_shape`` filled with the flattened ``a`` repeated as often as needed
    (zeros if either is empty): a slice of a broadcast view, no copy."""
    x = as_array(a)
    shape = _shape_of("resize", new_shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"resize: all elements of `new_shape` must be non-negative, got "
                         f"{shape}")
    size = math.prod(shape)
    if x.size == 0 or size == 0:
        return zeros(shape, dtype=x.dtype, device=x.device)
    flat = _ravel(x)
    reps = -(-size // x.size)
    return mf.reshape(mf.tile(flat, (reps,))[:size], shape)


def swapaxes(a: Any, axis1: int, axis2: int) -> Array:
    """``a`` with two axes exchanged (a view)."""
    x = as_array(a)
    i = normalize_axis("swapaxes", axis1, x.ndim)
    j = normalize_axis("swapaxes", axis2, x.ndim)
    order = list(range(x.ndim))
    order[i], order[j] = j, i
    return mf.permute_dims(x, tuple(order))


def rollaxis(a: Any, axis: int, start: int = 0) -> Array:
    """``a`` with ``axis`` moved to lie before position ``start`` (a view)."""
    x = as_array(a)
    n = x.ndim
    ax = normalize_axis("rollaxis", axis, n)
    start = _int("rollaxis", "start", start)
    if not -n <= start <= n:
        raise mf.AxisError(f"rollaxis: 'start' arg requires {-n} <= start < {n + 1}, but "
                           f"{start} was passed in")
    if start < 0:
        start += n
    if ax < start:
        start -= 1
    order = [i for i in range(n) if i != ax]
    order.insert(start, ax)
    return mf.permute_dims(x, tuple(order))


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any,
                     **kwargs: Any) -> Array:
    """``func1d`` applied to each 1-D slice of ``arr`` along ``axis``; its results (all of
    one shape, in the first result's dtype) replace that axis. A Python loop over the other
    axes builds lazy results, which are stacked."""
    x = as_array(arr)
    ax = normalize_axis("apply_along_axis", axis, x.ndim)
    outer = tuple(s for i, s in enumerate(x.shape) if i != ax)
    if 0 in outer:
        raise ValueError("apply_along_axis: cannot apply_along_axis when any iteration "
                         "dimensions are 0")
    if len(outer) and math.prod(outer) > 1:
        # (every slice is read by its own call: stored once, not recomputed in each)
        from .._lazy.realize import realize
        realize(x._node)
    view = mf.moveaxis(x, ax, -1)
    results: list[Array] = []
    for ind in ndindex(outer):
        r = as_array(func1d(view[ind + (Ellipsis,)], *args, **kwargs), device=x.device)
        if results:
            first = results[0]
            r = mf.broadcast_to(astype(r, first.dtype, copy=False), first.shape)
        results.append(r)
    res_shape = results[0].shape
    out = mf.reshape(mf.stack(results) if len(results) > 1 else results[0],
                     outer + res_shape)
    k = len(res_shape)
    if k == 0:
        return out
    return mf.moveaxis(out, tuple(range(len(outer), len(outer) + k)),
                       tuple(range(ax, ax + k)))


class ndindex:
    """An iterator over the index tuples of a shape, in C order: ``ndindex(2, 3)`` or
    ``ndindex((2, 3))`` yields (0, 0), (0, 1), ... (1, 2). Host shape arithmetic."""

    def __init__(self, *shape: Any) -> None:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        dims = tuple(_int("ndindex", "each dimension", s) for s in shape)
        if any(s < 0 for s in dims):
            raise ValueError(f"ndindex: negative dimensions are not allowed, got {dims}")
        self._it: Iterator[tuple[int, ...]] = itertools.product(*(range(s) for s in dims))

    def __iter__(self) -> ndindex:
        return self

    def __next__(self) -> tuple[int, ...]:
        return next(self._it)


def iterable(y: Any) -> bool:
    """Whether ``iter(y)`` works (False for a 0-d array, as in NumPy)."""
    if isinstance(y, Array):
        return y.ndim > 0         # (iterating would realize it)
    try:
        iter(y)
    except TypeError:
        return False
    return True


# -- flips and quarter turns (views, as NumPy's) ----------------------------------------------
def flipud(m: Any) -> Array:
    """``m`` upside down: ``flip(m, axis=0)`` (a view)."""
    a = as_array(m)
    if a.ndim < 1:
        raise ValueError("flipud: input must be >= 1-d")
    return mf.flip(a, axis=0)


def fliplr(m: Any) -> Array:
    """``m`` left to right: ``flip(m, axis=1)`` (a view)."""
    a = as_array(m)
    if a.ndim < 2:
        raise ValueError("fliplr: input must be >= 2-d")
    return mf.flip(a, axis=1)


def rot90(m: Any, k: int = 1, axes: Any = (0, 1)) -> Array:
    """``m`` turned by ``k`` quarter turns from the first of ``axes`` towards the second
    (a view: flips and a transpose)."""
    a = as_array(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("rot90: len(axes) must be 2")
    if a.ndim < 2:
        raise ValueError(f"rot90: the array must have at least 2 dimensions, got {a.ndim}")
    a0, a1 = (mf.normalize_axis("rot90", ax, a.ndim) for ax in axes)
    if a0 == a1:
        raise ValueError("rot90: axes must be different")
    k = int(k) % 4
    if k == 0:
        return a[...]
    if k == 2:
        return mf.flip(mf.flip(a, axis=a0), axis=a1)
    order = list(range(a.ndim))
    order[a0], order[a1] = order[a1], order[a0]
    if k == 1:
        return mf.permute_dims(mf.flip(a, axis=a1), tuple(order))
    return mf.flip(mf.permute_dims(a, tuple(order)), axis=a1)
