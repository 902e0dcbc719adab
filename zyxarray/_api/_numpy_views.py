"""NumPy's memory-layout face of an array: ``strides``, ``base``, ``flags``, ``flat``,
``view``, and ``lib.stride_tricks`` (``as_strided``, ``sliding_window_view``).

Layer: ``_api``. Builds VIEW nodes over an array's storage (``_array_object._Storage``).

An array's memory is its storage's base (contiguous, C order); a view is a strided window
into it, so strides, offsets and ``base`` are what NumPy would report for the same views of
a C-ordered array. ``as_strided`` and ``sliding_window_view`` make such windows directly;
their extent is checked against the base (NumPy trusts the caller: a bad stride there reads
stray memory, here it raises ValueError).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from .._lazy import graph as g
from .._lazy.view import View, contiguous_strides
from . import _dtypes as dt
from ._array_object import Array


def _window(x: Array) -> tuple[Array, View] | None:
    """(the array that owns x's memory, x's strided view into it), or None when x is not
    one strided window of a base (a chain of views: NumPy would have copied)."""
    x._storage()
    storage, st, _ = x._alias
    if st is None:
        return x, View.contiguous(x.shape)
    if len(st) != 1 or st[0].mask is not None:
        return None
    owner = next((m for m in (r() for r in storage.members) if m is not None
                  and m._alias[1] is None), None)
    return (owner if owner is not None else x), st[0]


def strides(x: Array) -> tuple[int, ...]:
    """NumPy's ``strides`` in bytes: the view's steps through its base's memory."""
    item = x.dtype.itemsize
    st = x._alias[1] if x._alias is not None else None
    node = x._node
    if st is None and node.op == "VIEW":
        st = node.arg
    if st is not None and len(st) == 1 and st[0].mask is None:
        return tuple(int(s) * item for s in st[0].strides)
    return tuple(s * item for s in contiguous_strides(x.shape))


def base(x: Array) -> Array | None:
    """The array whose memory a view shows (None for an array that owns its memory)."""
    if x._alias is None or x._alias[1] is None:
        return None
    found = _window(x)
    return None if found is None or found[0] is x else found[0]


def _strided(x: Array, shape: tuple[int, ...], steps: tuple[int, ...], offset: int,
             writeable: bool) -> Array:
    """A view of x's storage with the given element strides and offset (checked to stay
    inside the storage)."""
    storage = x._storage()
    size = storage.node.size
    if math.prod(shape):
        lo = offset + sum((n - 1) * s for n, s in zip(shape, steps) if s < 0)
        hi = offset + sum((n - 1) * s for n, s in zip(shape, steps) if s > 0)
        if lo < 0 or hi >= size:
            raise ValueError(f"as_strided: shape {shape} with strides "
                             f"{tuple(s * x.dtype.itemsize for s in steps)} reaches outside "
                             f"the {size} elements of the array's memory")
    view = View.make(shape, steps, offset)
    return Array._member(storage, (view,), None, writeable and x._alias[2])


def as_strided(x: Any, shape: Any = None, strides: Any = None, subok: bool = False,
               writeable: bool = True) -> Array:
    """NumPy's ``lib.stride_tricks.as_strided``: a view of x's memory with the given shape
    and byte strides (multiples of the item size), starting where x starts."""
    if not isinstance(x, Array):
        raise TypeError(f"as_strided: expected a zyxarray array, got {type(x).__name__}")
    found = _window(x)
    if found is None:
        raise ValueError("as_strided: the array is not a strided view of its memory (a "
                         "reshape of a transposed view); copy it first")
    _, view = found
    item = x.dtype.itemsize
    shape = x.shape if shape is None else tuple(int(s) for s in shape)
    if strides is None:
        steps = tuple(view.strides) if shape == x.shape else contiguous_strides(shape)
    else:
        if len(strides) != len(shape):
            raise ValueError(f"as_strided: {len(strides)} strides for shape {shape}")
        if any(int(s) % item for s in strides):
            raise ValueError(f"as_strided: strides {tuple(strides)} are not multiples of the "
                             f"item size {item}")
        steps = tuple(int(s) // item for s in strides)
    return _strided(x, shape, steps, view.offset, writeable)


def sliding_window_view(x: Any, window_shape: Any, axis: Any = None, *, subok: bool = False,
                        writeable: bool = False) -> Array:
    """NumPy's ``lib.stride_tricks.sliding_window_view``: every window of ``window_shape``
    along ``axis`` (all axes if None), as a read-only view (no copy)."""
    from ._manipulation_functions import normalize_axis
    from ._numpy_args import as_array
    x = as_array(x)
    windows = (int(window_shape),) if np.ndim(window_shape) == 0 else \
        tuple(int(w) for w in window_shape)
    if axis is None:
        if len(windows) != x.ndim:
            raise ValueError(f"sliding_window_view: window_shape {windows} needs one entry "
                             f"per axis of shape {x.shape} when axis is None")
        axes = tuple(range(x.ndim))
    else:
        items = (axis,) if np.ndim(axis) == 0 else tuple(axis)
        axes = tuple(normalize_axis("sliding_window_view", a, x.ndim) for a in items)
        if len(axes) != len(windows):
            raise ValueError(f"sliding_window_view: {len(windows)} window sizes for "
                             f"{len(axes)} axes")
    if any(w < 0 for w in windows):
        raise ValueError("sliding_window_view: window_shape cannot contain negative values")
    shape = list(x.shape)
    for ax, w in zip(axes, windows):
        if shape[ax] < w:
            raise ValueError(f"sliding_window_view: window size {w} is larger than axis "
                             f"{ax} of size {x.shape[ax]}")
        shape[ax] -= w - 1
    found = _window(x)
    if found is None:
        x = Array._new(x._node)     # a chain of views: window a copy (NumPy would have one)
        found = _window(x)
        assert found is not None
    _, view = found
    steps = tuple(view.strides) + tuple(view.strides[ax] for ax in axes)
    return _strided(x, tuple(shape) + windows, steps, view.offset, writeable)


class Flags:
    """NumPy's ``ndarray.flags`` for a zyxarray array: attributes and ``flags['NAME']``."""

    def __init__(self, x: Array) -> None:
        self._x = x

    @property
    def writeable(self) -> bool:
        alias = self._x._alias
        return alias is None or alias[2]

    @writeable.setter
    def writeable(self, value: bool) -> None:
        set_writeable(self._x, value)

    @property
    def c_contiguous(self) -> bool:
        return strides(self._x) == tuple(s * self._x.dtype.itemsize for s in
                                         contiguous_strides(self._x.shape)) or \
            self._x.size <= 1

    @property
    def f_contiguous(self) -> bool:
        x = self._x
        want = tuple(s * x.dtype.itemsize for s in
                     reversed(contiguous_strides(tuple(reversed(x.shape)))))
        return (x.ndim <= 1 and self.c_contiguous) or strides(x) == want or x.size <= 1

    @property
    def owndata(self) -> bool:
        return base(self._x) is None

    aligned = True
    writebackifcopy = False

    @property
    def contiguous(self) -> bool:
        return self.c_contiguous

    _NAMES = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous",
              "CONTIGUOUS": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
              "F": "f_contiguous", "FORTRAN": "f_contiguous", "OWNDATA": "owndata",
              "O": "owndata", "WRITEABLE": "writeable", "W": "writeable",
              "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy",
              "X": "writebackifcopy"}

    def __getitem__(self, name: str) -> bool:
        try:
            return bool(getattr(self, self._NAMES[name.upper()]))
        except KeyError:
            raise KeyError(f"Unknown flag {name!r}") from None

    def __setitem__(self, name: str, value: bool) -> None:
        if self._NAMES.get(name.upper()) != "writeable":
            raise KeyError(f"flag {name!r} cannot be set (only WRITEABLE can)")
        self.writeable = value

    def __repr__(self) -> str:
        keys = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED",
                "WRITEBACKIFCOPY")
        return "\n".join(f"  {k} : {self[k]}" for k in keys)


def set_writeable(x: Array, value: bool) -> None:
    """``x.flags.writeable = value`` / ``x.setflags(write=value)``: a view of a read-only
    array cannot be made writeable (NumPy's rule)."""
    x._storage()
    storage, st, writeable = x._alias
    if value and not writeable:
        owner = base(x)
        if owner is not None and not owner._alias[2]:
            raise ValueError("cannot set WRITEABLE flag to True of this array")
    x._alias = (storage, st, bool(value))


class FlatIter:
    """NumPy's ``ndarray.flat``: the elements in C order; ``flat[i]``, ``flat[a:b]``,
    ``flat[index_array]`` read and ``flat[...] = v`` writes into the array itself."""

    def __init__(self, x: Array) -> None:
        self.base = x

    def _flat(self) -> Array:
        from ._manipulation_functions import reshape
        return reshape(self.base, (-1,), copy=True)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._flat())

    def __len__(self) -> int:
        return self.base.size

    def __getitem__(self, key: Any) -> Array:
        return self._flat()[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        from ._creation_functions import arange
        x = self.base
        if x.ndim == 1:
            x[key] = value
            return
        positions = arange(x.size, device=x.device)[key]
        if positions.ndim == 0:     # one element: its multi-index
            x[np.unravel_index(int(positions), x.shape)] = value
            return
        coords = []
        rest = positions
        for n in reversed(x.shape):
            coords.append(rest % n)
            rest = rest // n
        x[tuple(reversed(coords))] = value

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return np.asarray(self._flat(), dtype=dtype)


def view(x: Array, dtype: Any = None, type: Any = None) -> Array:
    """NumPy's ``ndarray.view``: the same memory (a view, aliased) for the same dtype. A view
    as another dtype reinterprets the bytes (``dtype`` of the same item size, or one that
    divides the last axis' bytes evenly).
    # Note: a view as another dtype is a reinterpreted copy, not an alias: later writes to
    # either are not seen by the other."""
    if type is not None and type is not Array:
        raise TypeError("view: zyxarray has no array subclasses (type= must be None)")
    if dtype is None or (isinstance(dtype, type_) and issubclass(dtype, Array)):
        return Array._view(x, _identity)
    d = dt.to_dtype(dtype, "view")
    if d == x.dtype:
        return Array._view(x, _identity)
    last = x.shape[-1] if x.ndim else 1
    total = last * x.dtype.itemsize
    if x.ndim == 0 and d.itemsize != x.dtype.itemsize:
        raise ValueError("view: changing the dtype of a 0-d array needs the same item size")
    if total % d.itemsize:
        raise ValueError(f"view: the last axis ({total} bytes) is not a multiple of the new "
                         f"item size {d.itemsize}")
    shape = x.shape[:-1] + (total // d.itemsize,) if x.ndim else ()
    node = g.library("bitcast", (x._node,), {}, d.np, shape)
    return Array._new(node)


type_ = type


def _identity(node: g.Node) -> g.Node:
    return node


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """NumPy's ``diagonal``: the diagonal over ``axis1`` and ``axis2`` (the first two by
    default, unlike ``linalg.diagonal``), as a new last axis; a read-only view."""
    from ._linalg_functions import diagonal as last_two
    from ._manipulation_functions import moveaxis, normalize_axis
    from ._numpy_args import as_array
    x = as_array(a)
    if x.ndim < 2:
        raise ValueError(f"diagonal: needs at least 2 dimensions, got shape {x.shape}")
    a1 = normalize_axis("diagonal", axis1, x.ndim)
    a2 = normalize_axis("diagonal", axis2, x.ndim)
    if a1 == a2:
        raise ValueError("diagonal: axis1 and axis2 cannot be the same")
    if (a1, a2) != (x.ndim - 2, x.ndim - 1):
        x = moveaxis(x, (a1, a2), (-2, -1))
    return last_two(x, offset=offset)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
          out: Any = None) -> Array:
    """NumPy's ``trace``: the sum along the diagonal over ``axis1`` and ``axis2``."""
    from ._numpy_args import write_out
    from ._statistical_functions import sum as sum_
    d = diagonal(a, offset, axis1, axis2)
    return write_out("trace", out, sum_(d, axis=-1, dtype=dtype))
