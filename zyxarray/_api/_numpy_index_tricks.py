"""NumPy's indexing routines: the index tricks (r_, c_, s_, index_exp, ix_, indices,
unravel_index, ravel_multi_index, diag_indices, tril/triu_indices and their ``_from``
forms), diagonals (diag, diagflat, fill_diagonal), selections (extract, compress,
flatnonzero), in-place writers (place, put), lexsort, partition and argpartition.

Layer: ``_api``. Index arithmetic is lazy (fused expressions of iotas and the indices);
device data is read only where it decides a result's shape (``extract``, ``compress``,
``flatnonzero``, boolean ``ix_``, ``place``'s mask: the docstrings say so) and where device
indices are checked against their bounds, so the call raises NumPy's error. In-place
functions write with ``a[key] = value``. Must not import ``_codegen`` or ``_devices``.
"""

from __future__ import annotations

import builtins
import itertools
import math
import operator
from typing import Any

import numpy as np

from . import _dtypes as dt
from . import _elementwise_functions as ew
from . import _manipulation_functions as mf
from . import _statistical_functions as sf
from ._array_object import Array
from ._creation_functions import arange, asarray, linspace, zeros
from ._data_type_functions import astype
from ._numpy_args import as_array, as_arrays, device_for, write_out
from ._numpy_manipulation import (
    _first_outside,
    _gather,
    _int,
    _positions,
    _ravel,
    _shape_of,
    _with_ndim,
    resize,
    swapaxes,
)
from ._searching_functions import nonzero, where
from ._sorting_functions import argsort, sort

normalize_axis = mf.normalize_axis


# -- index tricks -------------------------------------------------------------------------------
_SCALARS = (builtins.bool, int, float, complex, np.generic)


class AxisConcatenator:
    """NumPy's ``r_`` and ``c_``: ``r_[1:4, 0, x]`` joins slices (``start:stop:step``, or
    ``start:stop:Nj`` for N points from start to stop), scalars and arrays along an axis. A
    leading string directive sets the axis, the minimum rank and where 1-D inputs' axis goes
    (``'axis,ndmin,trans1d'``)."""

    def __init__(self, axis: int = 0, ndmin: int = 1, trans1d: int = -1) -> None:
        self.axis = axis
        self.ndmin = ndmin
        self.trans1d = trans1d

    def _item(self, item: Any, ndmin: int, trans1d: int, device: Any) -> Array:
        if isinstance(item, slice):
            start = 0 if item.start is None else item.start
            step = 1 if item.step is None else item.step
            if isinstance(step, (complex, np.complexfloating)):
                num = int(builtins.abs(complex(step)))
                out = linspace(start, item.stop, num=num, device=device)
            else:
                out = arange(start, item.stop, step, device=device)
            out = _with_ndim(out, ndmin)
            if ndmin > 1 and trans1d != -1:
                out = swapaxes(out, -1, trans1d)
            return out
        a = as_array(item, device=device)
        out = _with_ndim(a, ndmin)
        if trans1d != -1 and a.ndim < ndmin:
            k2 = ndmin - a.ndim
            k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
            order = list(range(ndmin))
            out = mf.permute_dims(out, tuple(order[:k1] + order[k2:] + order[k1:k2]))
        return out

    def __getitem__(self, key: Any) -> Array:
        items = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        device = device_for(*items)
        objs: list[Array] = []
        kinds: list[Any] = []
        for k, item in enumerate(items):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    # Note: zyxarray has no matrix type
                    raise ValueError(f"the {item!r} directive (a matrix result) is not "
                                     f"supported by zyxarray")
                fields = item.split(",")
                try:
                    axis = int(fields[0])
                    if len(fields) > 1:
                        ndmin = int(fields[1])
                    if len(fields) == 3:
                        trans1d = int(fields[2])
                except ValueError:
                    raise ValueError(f"unknown special directive {item!r}") from None
                continue
            if isinstance(item, _SCALARS):
                objs.append(asarray(item, device=device))
                kinds.append(item if not isinstance(item, np.generic) else objs[-1])
                objs[-1] = _with_ndim(objs[-1], ndmin)
            else:
                objs.append(self._item(item, ndmin, trans1d, device))
                kinds.append(objs[-1])
        if not objs:
            raise ValueError("need at least one array to concatenate")
        common = dt.result_type_of(*kinds, where="r_")
        joined = []
        for obj, kind in zip(objs, kinds):
            if isinstance(kind, Array):
                joined.append(astype(obj, common, copy=False))
            else:
                joined.append(_with_ndim(asarray(kind, dtype=common, device=device), ndmin))
        return mf.concat(joined, axis=axis)

    def __len__(self) -> int:
        return 0


class IndexExpression:
    """NumPy's ``s_`` and ``index_exp``: ``s_[::2, 1]`` is the key ``(slice(None, None, 2),
    1)``; ``index_exp`` always makes a tuple."""

    def __init__(self, maketuple: bool) -> None:
        self.maketuple = maketuple

    def __getitem__(self, item: Any) -> Any:
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item


class GridClass:
    """NumPy's ``mgrid`` and ``ogrid``: ``mgrid[0:3, 0:4]`` is the (2, 3, 4) stack of each
    point's coordinates, ``ogrid`` the same ranges shaped to broadcast ((3, 1), (1, 4)).
    A slice's step ``Nj`` asks for N points from start to stop, stop included (as
    ``linspace``); the ranges share the type of all the slices' numbers."""

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        name = "ogrid" if self.sparse else "mgrid"
        items = key if isinstance(key, tuple) else (key,)
        if not all(isinstance(k, slice) for k in items):
            raise TypeError(f"{name}: every index must be a slice (start:stop:step), got "
                            f"{key!r}")
        numbers = [v for k in items for v in (k.start, k.stop, k.step) if v is not None]
        floating = any(isinstance(v, (float, complex, np.floating, np.complexfloating))
                       for v in numbers)
        dtype = dt.float64 if floating else dt.int64
        ranges = []
        for k in items:
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, (complex, np.complexfloating)):
                num = int(builtins.abs(complex(step)))
                ranges.append(linspace(start, k.stop, num=num, dtype=dt.float64))
            else:
                ranges.append(arange(start, k.stop, step, dtype=dtype))
        if not isinstance(key, tuple):
            return ranges[0]
        n = len(ranges)
        shaped = [mf.reshape(r, tuple(-1 if i == j else 1 for j in range(n)))
                  for i, r in enumerate(ranges)]
        if self.sparse:
            return tuple(shaped)
        shape = tuple(r.shape[0] for r in ranges)
        return mf.stack([mf.broadcast_to(r, shape) for r in shaped])

    def __len__(self) -> int:
        return 0


mgrid = GridClass(sparse=False)
ogrid = GridClass(sparse=True)
r_ = AxisConcatenator(0, 1, -1)
c_ = AxisConcatenator(-1, 2, 0)
s_ = IndexExpression(maketuple=False)
index_exp = IndexExpression(maketuple=True)


def ix_(*args: Any) -> tuple[Array, ...]:
    """Open-mesh index arrays: the k-th of N 1-D sequences reshaped to put its values on
    axis k, so ``a[ix_(rows, cols)]`` selects a cross product. A boolean sequence stands for
    its True positions (read: they decide the shape)."""
    device = device_for(*args)
    out = []
    for k, seq in enumerate(args):
        if isinstance(seq, Array):
            a = seq
        else:
            host = np.asarray(seq)
            if host.size == 0 and not isinstance(seq, np.ndarray):
                host = host.astype(np.int64)
            a = asarray(host, device=device)
        if a.ndim != 1:
            raise ValueError(f"ix_: cross index must be 1 dimensional, got shape {a.shape}")
        if a.dtype == dt.bool:
            a = nonzero(a)[0]
        out.append(mf.reshape(a, (1,) * k + (a.size,) + (1,) * (len(args) - k - 1)))
    return tuple(out)


def indices(dimensions: Any, dtype: Any = int, sparse: bool = False, *,
            device: Any = None) -> Any:
    """The index grid of shape ``dimensions``: an array ``(N, *dimensions)`` whose k-th
    slice holds each point's k-th index, or (``sparse``) N arrays broadcastable to it.

    Note: the keyword ``device`` (not in NumPy) says where the result goes."""
    dims = _shape_of("indices", dimensions)
    d = dt.to_dtype(dtype, "indices")
    parts = [mf.reshape(arange(s, dtype=d, device=device),
                        (1,) * i + (s,) + (1,) * (len(dims) - i - 1))
             for i, s in enumerate(dims)]
    if sparse:
        return tuple(parts)
    if not parts:
        return zeros((0,), dtype=d, device=device)
    return mf.stack([mf.broadcast_to(p, dims) for p in parts])


def _strides(dims: tuple[int, ...], order: str, name: str) -> list[int]:
    if order not in ("C", "F"):
        raise ValueError(f"{name}: only 'C' or 'F' order is permitted, got {order!r}")
    axes = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    strides = [0] * len(dims)
    step = 1
    for i in axes:
        strides[i] = step
        step *= dims[i]
    return strides


def unravel_index(indices: Any, shape: Any, order: str = "C") -> tuple[Array, ...]:
    """The coordinates in an array of ``shape`` of the flat ``indices`` (one int64 array per
    dimension, shaped like ``indices``). Index arithmetic: lazy, fused."""
    dims = _shape_of("unravel_index", shape)
    _strides(dims, order, "unravel_index")
    idx = as_array(indices)
    if idx.dtype not in dt.INTEGER:
        raise TypeError(f"unravel_index: only int indices permitted, got {idx.dtype.name}")
    size = math.prod(dims)
    if size == 0 and idx.size:
        raise ValueError("unravel_index: cannot unravel if shape has zero entries")
    bad = _first_outside(idx, 0, size)
    if bad is not None:
        raise ValueError(f"unravel_index: index {bad} is out of bounds for array with size "
                         f"{size}")
    return _unravel(astype(idx, dt.int64), dims, order)


def _unravel(idx: Array, dims: tuple[int, ...], order: str) -> tuple[Array, ...]:
    """The coordinates of the int64 flat indices ``idx`` (lazy index arithmetic)."""
    strides = _strides(dims, order, "unravel_index")
    return tuple(ew.remainder(ew.floor_divide(idx, s), n) if n > 1 else ew.multiply(idx, 0)
                 for s, n in zip(strides, dims))


def ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise",
                      order: str = "C") -> Array:
    """The flat indices of the coordinates ``multi_index`` in an array of shape ``dims``
    (int64, the coordinates broadcast). ``mode`` per dimension or for all: 'raise'
    (ValueError for a coordinate outside its dimension), 'wrap' or 'clip'."""
    shape = _shape_of("ravel_multi_index", dims)
    strides = _strides(shape, order, "ravel_multi_index")
    coords = as_arrays(*multi_index)
    if len(coords) != len(shape):
        raise ValueError(f"ravel_multi_index: parameter multi_index must be a sequence of "
                         f"length {len(shape)}")
    modes = list(mode) if isinstance(mode, (tuple, list)) else [mode] * len(shape)
    if len(modes) != len(shape):
        raise ValueError(f"ravel_multi_index: {len(modes)} modes for {len(shape)} dimensions")
    out: Array | None = None
    for c, n, s, m in zip(coords, shape, strides, modes):
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"ravel_multi_index: clipmode must be one of 'clip', 'raise', "
                             f"or 'wrap', got {m!r}")
        if c.dtype not in dt.INTEGER:
            raise TypeError(f"ravel_multi_index: only int indices permitted, got "
                            f"{c.dtype.name}")
        c = astype(c, dt.int64)
        if m == "raise":
            if _first_outside(c, 0, n) is not None:
                raise ValueError("ravel_multi_index: invalid entry in coordinates array")
        elif n == 0 and c.size:
            raise ValueError(f"ravel_multi_index: cannot {m} a coordinate into a dimension "
                             f"of size 0")
        elif m == "wrap":
            c = ew.remainder(c, n)
        else:
            c = ew.clip(c, 0, n - 1)
        term = ew.multiply(c, s)
        out = term if out is None else ew.add(out, term)
    if out is None:
        return asarray(0, dtype=dt.int64)
    return out


def diag_indices(n: int, ndim: int = 2, *, device: Any = None) -> tuple[Array, ...]:
    """``ndim`` copies of ``arange(n)``: the indices of the main diagonal of an n x ... x n
    array. Note: the keyword ``device`` (not in NumPy) says where they go."""
    idx = arange(_int("diag_indices", "n", n), device=device)
    return (idx,) * _int("diag_indices", "ndim", ndim)


def diag_indices_from(arr: Any) -> tuple[Array, ...]:
    """The indices of the main diagonal of ``arr`` (at least 2-D, all sides equal)."""
    a = as_array(arr)
    if a.ndim < 2:
        raise ValueError("diag_indices_from: input array must be at least 2-d")
    if len(set(a.shape)) != 1:
        raise ValueError(f"diag_indices_from: all dimensions of input must be of equal "
                         f"length, got shape {a.shape}")
    return diag_indices(a.shape[0], a.ndim, device=a.device)


def _triangle_indices(name: str, n: int, k: int, m: int | None, lower: bool,
                      device: Any) -> tuple[Array, Array]:
    # computed on the host from the sizes alone (no device data), then copied to the device
    rows, cols = np.indices((_int(name, "n", n), n if m is None else _int(name, "m", m)))
    mask = (cols - rows <= k) if lower else (cols - rows >= k)
    r, c = np.nonzero(mask)
    return asarray(r, dtype=dt.int64, device=device), asarray(c, dtype=dt.int64, device=device)


def tril_indices(n: int, k: int = 0, m: int | None = None, *,
                 device: Any = None) -> tuple[Array, Array]:
    """Row and column indices of the lower triangle (on and below diagonal ``k``) of an
    n x m array, row by row. Note: the keyword ``device`` is not in NumPy."""
    return _triangle_indices("tril_indices", n, _int("tril_indices", "k", k), m, True, device)


def triu_indices(n: int, k: int = 0, m: int | None = None, *,
                 device: Any = None) -> tuple[Array, Array]:
    """Row and column indices of the upper triangle (on and above diagonal ``k``) of an
    n x m array, row by row. Note: the keyword ``device`` is not in NumPy."""
    return _triangle_indices("triu_indices", n, _int("triu_indices", "k", k), m, False, device)


def _matrix(name: str, arr: Any) -> Array:
    a = as_array(arr)
    if a.ndim != 2:
        raise ValueError(f"{name}: input array must be 2-d, got shape {a.shape}")
    return a


def tril_indices_from(arr: Any, k: int = 0) -> tuple[Array, Array]:
    """``tril_indices`` for the shape of the 2-D ``arr`` (on its device)."""
    a = _matrix("tril_indices_from", arr)
    return tril_indices(a.shape[0], k, a.shape[1], device=a.device)


def triu_indices_from(arr: Any, k: int = 0) -> tuple[Array, Array]:
    """``triu_indices`` for the shape of the 2-D ``arr`` (on its device)."""
    a = _matrix("triu_indices_from", arr)
    return triu_indices(a.shape[0], k, a.shape[1], device=a.device)


# -- diagonals ----------------------------------------------------------------------------------
def diag(v: Any, k: int = 0) -> Array:
    """The k-th diagonal of a 2-D array (a strided view), or a 2-D array with the 1-D ``v``
    on its k-th diagonal and zeros elsewhere (a fused select on the positions)."""
    x = as_array(v)
    k = _int("diag", "k", k)
    if x.ndim == 1:
        n = x.size
        size = n + builtins.abs(k)
        values = mf.concat([x, zeros((builtins.abs(k),), dtype=x.dtype, device=x.device)]) \
            if k else x
        values = mf.reshape(values, (size, 1) if k >= 0 else (1, size))
        rows = mf.reshape(arange(size, device=x.device), (size, 1))
        cols = mf.reshape(arange(size, device=x.device), (1, size))
        on = ew.equal(ew.subtract(cols, rows), k)
        return where(on, mf.broadcast_to(values, (size, size)), zeros((), dtype=x.dtype,
                                                                     device=x.device))
    if x.ndim != 2:
        raise ValueError(f"diag: input must be 1- or 2-d, got shape {x.shape}")
    n_rows, n_cols = x.shape
    count = builtins.max(0, builtins.min(n_rows, n_cols - k) if k >= 0 else
                         builtins.min(n_rows + k, n_cols))
    if count == 0:
        return mf.reshape(x, (-1,))[0:0]
    start = k if k >= 0 else -k * n_cols
    return mf.reshape(x, (-1,))[start:start + (count - 1) * (n_cols + 1) + 1:n_cols + 1]


def diagflat(v: Any, k: int = 0) -> Array:
    """A 2-D array with the flattened ``v`` on its k-th diagonal."""
    return diag(_ravel(as_array(v)), k)


def _in_place_target(name: str, a: Any) -> Array:
    if not isinstance(a, Array):
        raise TypeError(f"{name}: argument 1 must be a zyxarray array, not "
                        f"{type(a).__name__}")
    return a


def _cycled(values: Any, count: int, like: Array) -> Array:
    """``values`` flattened and repeated (or cut) to ``count`` elements, as NumPy's flat
    assignments cycle them."""
    return resize(astype(_ravel(as_array(values, device=like.device)), like.dtype,
                         copy=False), (count,))


def fill_diagonal(a: Any, val: Any, wrap: bool = False) -> None:
    """Write ``val`` (a scalar, or values used in turn) on the main diagonal of ``a`` in
    place; a tall 2-D matrix restarts the diagonal below each square block when ``wrap``."""
    x = _in_place_target("fill_diagonal", a)
    if x.ndim < 2:
        raise ValueError("fill_diagonal: array must be at least 2-d")
    if x.ndim == 2:
        step = x.shape[1] + 1
        end = x.size if wrap else builtins.min(x.size, x.shape[1] * x.shape[1])
    else:
        if len(set(x.shape)) != 1:
            raise ValueError(f"fill_diagonal: all dimensions of input must be of equal "
                             f"length, got shape {x.shape}")
        step = 1 + sum(itertools.accumulate(x.shape[:-1], operator.mul))
        end = x.size
    flat = np.arange(0, end, step)
    if flat.size == 0:
        return
    key = tuple(np.unravel_index(flat, x.shape))
    if isinstance(val, (Array, np.ndarray, list, tuple)) and np.ndim(val) > 0:
        v = as_array(val, device=x.device)
        if v.size == 0:
            return
        x[key] = _cycled(v, flat.size, x)
    else:
        x[key] = val


# -- selection ----------------------------------------------------------------------------------
def extract(condition: Any, arr: Any) -> Array:
    """The elements of the flattened ``arr`` where the flattened ``condition`` is nonzero.
    Reads ``condition`` (the result's length depends on it)."""
    a = _ravel(as_array(arr))
    where_ = np.flatnonzero(_positions("extract", condition))
    if where_.size and where_[-1] >= a.size:
        raise IndexError(f"extract: index {where_[-1]} is out of bounds for size {a.size}")
    return _gather(a, where_, 0)


def compress(condition: Any, a: Any, axis: int | None = None, out: Any = None) -> Array:
    """The slices of ``a`` along ``axis`` (of the flattened ``a`` if None) where the 1-D
    ``condition`` is true. Reads ``condition`` (the result's length depends on it)."""
    x = as_array(a)
    cond = _positions("compress", condition)
    if cond.ndim != 1:
        raise ValueError(f"compress: condition must be a 1-d array, got shape {cond.shape}")
    if axis is None:
        x, axis = _ravel(x), 0
    ax = normalize_axis("compress", axis, x.ndim)
    where_ = np.flatnonzero(cond)
    if where_.size and where_[-1] >= x.shape[ax]:
        raise IndexError(f"compress: index {where_[-1]} is out of bounds for axis {ax} with "
                         f"size {x.shape[ax]}")
    return write_out("compress", out, _gather(x, where_, ax))


def flatnonzero(a: Any) -> Array:
    """The indices of the nonzero elements of the flattened ``a`` (int64). Reads ``a``:
    the result's length depends on it."""
    return nonzero(_ravel(as_array(a)))[0]


def put_along_axis(arr: Any, indices: Any, values: Any, axis: int | None) -> None:
    """Write ``values`` at ``indices`` along ``axis`` (the inverse of ``take_along_axis``),
    in place: ``indices`` has ``arr``'s rank and broadcasts with it on the other axes;
    ``axis=None`` takes 1-D indices into ``arr`` flattened. A scatter on the device; where
    an index repeats, the last value written wins."""
    a = _in_place_target("put_along_axis", arr)
    idx = as_array(indices, device=a.device)
    if idx.dtype not in dt.INTEGER:
        raise IndexError(f"put_along_axis: indices must be integers, got {idx.dtype}")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("put_along_axis: when axis=None, indices must have a single "
                             f"dimension, got shape {idx.shape}")
        a.flat[idx] = values
        return
    ax = normalize_axis("put_along_axis", axis, a.ndim)
    if idx.ndim != a.ndim:
        raise ValueError(f"put_along_axis: indices must have the rank of arr ({a.ndim}), got "
                         f"shape {idx.shape}")
    key = tuple(idx if d == ax else mf.reshape(
        arange(a.shape[d], device=a.device), tuple(-1 if e == d else 1 for e in range(a.ndim)))
        for d in range(a.ndim))
    a[key] = values


def place(arr: Any, mask: Any, vals: Any) -> None:
    """Write ``vals`` (used in turn, repeated as needed) where ``mask`` is true, in place.
    Reads ``mask`` (how many values are written depends on it)."""
    x = _in_place_target("place", arr)
    m = np.asarray(_positions("place", mask)).astype(np.bool_, copy=False)
    if m.size != x.size:
        raise ValueError(f"place: mask and data must be the same size ({m.size} and "
                         f"{x.size})")
    flat = np.flatnonzero(m)
    if flat.size == 0:
        return
    v = as_array(vals, device=x.device)
    if v.size == 0:
        raise ValueError("place: cannot insert from an empty array")
    values = _cycled(v, flat.size, x)
    if x.ndim == 0:
        x[()] = mf.reshape(values, ())
        return
    x[tuple(np.unravel_index(flat, x.shape))] = values


def put(a: Any, ind: Any, v: Any, mode: str = "raise") -> None:
    """Write ``v`` (used in turn, repeated as needed) at the flat indices ``ind`` of ``a``,
    in place. ``mode``: 'raise' (IndexError out of range; negative indices count back),
    'wrap' (modulo the size) or 'clip' (into [0, size - 1])."""
    x = _in_place_target("put", a)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"put: clipmode must be one of 'clip', 'raise', or 'wrap', got "
                         f"{mode!r}")
    idx = _ravel(as_array(ind, device=x.device))
    if idx.size and idx.dtype not in dt.INTEGER:
        raise TypeError(f"put: cannot cast indices of dtype {idx.dtype.name} to int64")
    values = _ravel(as_array(v, device=x.device))
    if idx.size == 0 or values.size == 0:
        return
    if x.size == 0:
        raise IndexError("put: cannot replace elements of an empty array")
    n = x.size
    idx = astype(idx, dt.int64)
    if mode == "raise":
        bad = _first_outside(idx, -n, n)
        if bad is not None:
            raise IndexError(f"put: index {bad} is out of bounds for axis 0 with size {n}")
        idx = where(ew.less(idx, 0), ew.add(idx, n), idx)
    elif mode == "wrap":
        idx = ew.remainder(idx, n)
    else:
        idx = ew.clip(idx, 0, n - 1)
    cycled = _cycled(values, idx.size, x)
    if x.ndim == 0:
        x[()] = mf.reshape(cycled[-1:], ())      # every index is 0: the last write wins
        return
    x[_unravel(idx, x.shape, "C")] = cycled


# -- sorting ------------------------------------------------------------------------------------
def lexsort(keys: Any, axis: int = -1) -> Array:
    """Indices that sort by several keys: the last key is the primary one, ties broken by
    the one before, and so on (stable argsorts, last key last)."""
    if isinstance(keys, Array):
        if keys.ndim == 0:
            raise TypeError("lexsort: need sequence of keys with len > 0 in lexsort")
        arrays = list(mf.unstack(keys))
    elif isinstance(keys, (list, tuple, np.ndarray)):
        arrays = as_arrays(*keys)
    else:
        raise TypeError(f"lexsort: keys must be a sequence of arrays, got "
                        f"{type(keys).__name__}")
    if not arrays:
        raise TypeError("lexsort: need sequence of keys with len > 0 in lexsort")
    if any(k.shape != arrays[0].shape for k in arrays):
        raise ValueError(f"lexsort: all keys need to be the same shape, got "
                         f"{[k.shape for k in arrays]}")
    if arrays[0].ndim == 0:
        return asarray(0, dtype=dt.int64, device=arrays[0].device)
    ax = normalize_axis("lexsort", axis, arrays[0].ndim)
    from ._indexing_functions import take_along_axis
    order = argsort(arrays[0], axis=ax, stable=True)
    for k in arrays[1:]:
        step = argsort(take_along_axis(k, order, axis=ax), axis=ax, stable=True)
        order = take_along_axis(order, step, axis=ax)
    return order


def _partition_args(name: str, a: Any, kth: Any, axis: Any, kind: str, order: Any
                    ) -> tuple[Array, int]:
    if order is not None:
        raise ValueError(f"{name}: cannot specify order when the array has no fields")
    if kind != "introselect":
        raise ValueError(f"{name}: kind must be 'introselect', got {kind!r}")
    x = as_array(a)
    if axis is None:
        x, axis = _ravel(x), 0
    ax = normalize_axis(name, axis, x.ndim)
    ks = _positions(name, kth)
    if ks.dtype == np.bool_:
        raise ValueError(f"{name}: booleans unacceptable as partition index")
    if ks.dtype.kind not in "iu":
        raise TypeError(f"{name}: kth must be an integer or a sequence of integers")
    n = x.shape[ax]
    for k in ks.ravel().tolist():
        if not -n <= k < n:
            raise ValueError(f"{name}: kth(={k}) out of bounds ({n})")
    return x, ax


def partition(a: Any, kth: Any, axis: Any = -1, kind: str = "introselect",
              order: Any = None) -> Array:
    """``a`` rearranged along ``axis`` so that each ``kth`` element is where sorting would
    put it, smaller ones before and larger ones after.

    Note: implemented as a full sort (NumPy's introsort, not its stable sort: equal values
    in any order), which meets the contract; NumPy's order within each side differs (it is
    unspecified)."""
    x, ax = _partition_args("partition", a, kth, axis, kind, order)
    return sort(x, axis=ax, stable=False)


def argpartition(a: Any, kth: Any, axis: Any = -1, kind: str = "introselect",
                 order: Any = None) -> Array:
    """Indices that partition ``a`` along ``axis`` around each ``kth`` element.

    Note: a full argsort (NumPy's introsort: equal values in any order), which meets the
    contract; NumPy's order within each side differs (it is unspecified)."""
    x, ax = _partition_args("argpartition", a, kth, axis, kind, order)
    return argsort(x, axis=ax, stable=False)


# -- selection by conditions and indices --------------------------------------------------------
def argwhere(a: Any) -> Array:
    """The indices of the non-zero elements, one row each: shape (N, a.ndim). Reads ``a``
    (N depends on its values)."""
    x = as_array(a)
    if x.ndim == 0:
        return zeros((int(builtins.bool(x)), 0), dtype=dt.int64, device=x.device)
    return mf.stack(list(nonzero(x)), axis=1)


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Array:
    """The element of the first choice whose condition holds, else ``default``: nested
    ``where`` from the last condition to the first (fused)."""
    conds, choices = list(condlist), list(choicelist)
    if len(conds) != len(choices):
        raise ValueError("select: list of cases must be same length as list of conditions")
    if not conds:
        raise ValueError("select with an empty condition list is not possible")
    device = device_for(*conds, *choices, default)
    cs = [as_array(c, device=device) for c in conds]
    for i, c in enumerate(cs):
        if c.dtype is not dt.bool:
            raise TypeError(f"select: invalid entry {i} in condlist: should be boolean ndarray")
    vs = [as_array(v, device=device) for v in choices]
    common = dt.result_type_of(*vs, default, where="select")
    out = as_array(default, dtype=common, device=device)
    for c, v in zip(reversed(cs), reversed(vs)):
        out = where(c, astype(v, common), out)
    shape = np.broadcast_shapes(*(x.shape for x in cs + vs), out.shape)
    return mf.broadcast_to(out, shape) if out.shape != shape else out


def choose(a: Any, choices: Any, out: Any = None, mode: str = "raise") -> Array:
    """``choices[a[i]][i]`` for every i (everything broadcast); ``mode`` 'raise' (indices
    are read to check them), 'wrap' or 'clip'."""
    idx = as_array(a)
    if idx.dtype not in dt.INTEGER:
        raise TypeError(f"choose: a must hold integers, got {idx.dtype}")
    device = idx.device
    cs = [as_array(c, device=device) for c in (choices if not isinstance(choices, Array)
                                               else [choices[i] for i in
                                                     range(choices.shape[0])])]
    n = len(cs)
    if n == 0:
        raise ValueError("choose: choices must not be empty")
    if mode == "raise":
        if idx.size and (int(sf.min(idx)) < 0 or int(sf.max(idx)) >= n):
            raise ValueError("choose: invalid entry in choice array")
    elif mode == "wrap":
        idx = ew.remainder(idx, n)
    elif mode == "clip":
        idx = ew.clip(idx, 0, n - 1)
    else:
        raise ValueError(f"choose: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    common = dt.result_type_of(*cs, where="choose")
    result = astype(cs[-1], common)
    for i in range(n - 2, -1, -1):
        result = where(ew.equal(idx, i), astype(cs[i], common), result)
    shape = np.broadcast_shapes(idx.shape, *(c.shape for c in cs))
    result = mf.broadcast_to(result, shape) if result.shape != shape else result
    return write_out("choose", out, result) if out is not None else result


def putmask(a: Any, mask: Any, values: Any) -> None:
    """``a.flat[n] = values.flat[n % len(values)]`` wherever ``mask`` is true, in place
    (the values repeat over all positions, not only the masked ones: NumPy's rule)."""
    x = _in_place_target("putmask", a)
    m = as_array(mask, device=x.device)
    if m.shape != x.shape:
        raise ValueError(f"putmask: mask and data must be the same size ({m.shape} and "
                         f"{x.shape})")
    v = mf.reshape(as_array(values, device=x.device), (-1,))
    if v.size == 0:
        return
    cycled = mf.reshape(_cycled(v, x.size, x), x.shape) if x.size else v[:0]
    x[...] = where(astype(m, dt.bool), cycled, x)


def copyto(dst: Any, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """``dst[...] = src`` (broadcast), where ``where`` holds, in place; ``casting`` as
    NumPy's ``can_cast`` decides."""
    from ._searching_functions import where as select_
    x = _in_place_target("copyto", dst)
    s = as_array(src, device=x.device)
    if not np.can_cast(s.dtype.np, x.dtype.np, casting=casting) and \
            not (not isinstance(src, Array) and np.isscalar(src)):
        raise TypeError(f"copyto: cannot cast array data from {s.dtype} to {x.dtype} "
                        f"according to the rule {casting!r}")
    value = astype(s, x.dtype) if s.dtype is not x.dtype else s
    if where is True:
        x[...] = value
        return
    x[...] = select_(as_array(where, device=x.device), value, x)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = float, *,
        like: Any = None, device: Any = None) -> Array:
    """Ones at and below the k-th diagonal of an N x M array, zeros above (fused)."""
    M = N if M is None else M
    rows = mf.reshape(arange(N, dtype=dt.int64, device=device), (N, 1))
    cols = mf.reshape(arange(M, dtype=dt.int64, device=device), (1, M))
    return astype(ew.greater_equal(ew.add(rows, int(k)), cols), dtype)


def mask_indices(n: int, mask_func: Any, k: int = 0) -> tuple[Array, ...]:
    """The indices where ``mask_func(ones((n, n)), k)`` is non-zero (``triu``, ``tril``)."""
    from ._creation_functions import ones
    return nonzero(as_array(mask_func(ones((n, n), dtype=dt.int64), k)))
