"""Indexing: integers, slices (any step), Ellipsis, None, integer arrays and boolean masks,
for reading and for writing.

Layer: ``_api``. Basic keys read through a VIEW node and write through a SETITEM node (a
functional update: earlier views and results keep their values). Keys with arrays (NumPy's
advanced indexing) are LIBRARY gathers and scatters; a boolean mask is turned into integer
indices first, which realizes it (the result's shape depends on its values). Integer index
arrays are checked against their axis by the call (``check_bounds``), so an out-of-bounds
index raises NumPy's IndexError there and the array indexed into is left as it was.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from .._lazy.realize import element, realize, to_host, write_region
from .._lazy.view import View, compose
from . import _dtypes as dt
from . import _hot
from ._array_object import Array, element_index
from ._elementwise_functions import broadcast_node, broadcast_shapes, scalar_node


def _parse(name: str, shape: tuple[int, ...], key: Any
           ) -> tuple[tuple[tuple[int, int, int], ...], list[Any]]:
    """(start, step, count) per axis, and the result's layout: per output axis either
    an input axis number or None (a new axis)."""
    if not isinstance(key, tuple):
        key = (key,)
    items = []
    for k in key:
        if isinstance(k, Array):
            if k.ndim == 0 and k.dtype.kind in "iu":
                k = operator.index(k)
            else:
                raise IndexError(f"{name}: indexing with {k.dtype.name} arrays of shape "
                                 f"{k.shape} is not supported by basic indexing")
        elif isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype.kind in "iu":
            k = operator.index(k)          # a 0-d integer array is an integer (as NumPy)
        elif isinstance(k, (list, np.ndarray, bool)):
            raise IndexError(f"{name}: array and boolean keys are not supported by basic "
                             f"indexing (got {type(k).__name__})")
        items.append(k)
    n_ell = sum(1 for k in items if k is Ellipsis)
    if n_ell > 1:
        raise IndexError(f"{name}: an index can only have a single ellipsis ('...')")
    n_real = sum(1 for k in items if k is not None and k is not Ellipsis)
    if n_real > len(shape):
        raise IndexError(f"{name}: too many indices for an array of shape {shape}: "
                         f"{n_real} were given")
    if n_ell == 0:
        items.append(Ellipsis)
    spec: list[tuple[int, int, int]] = []
    layout: list[Any] = []
    axis = 0
    for k in items:
        if k is None:
            layout.append(None)
        elif k is Ellipsis:
            for _ in range(len(shape) - n_real):
                spec.append((0, 1, shape[axis]))
                layout.append(axis)
                axis += 1
        elif isinstance(k, slice):
            start, stop, step = k.indices(shape[axis])
            count = len(range(start, stop, step))
            spec.append((start if count else 0, step, count))
            layout.append(axis)
            axis += 1
        else:
            try:
                i = operator.index(k)
            except TypeError:
                raise IndexError(f"{name}: only integers, slices, Ellipsis and None are valid "
                                 f"indices, got {k!r}") from None
            size = shape[axis]
            if not -size <= i < size:
                raise IndexError(f"{name}: index {i} is out of bounds for axis {axis} with "
                                 f"size {size}")
            spec.append((i % size, 1, 1))
            axis += 1
    return tuple(spec), layout


def _is_array_key(k: Any) -> bool:
    if isinstance(k, Array):
        return k.ndim > 0 or k.dtype.kind == "b"
    if isinstance(k, np.ndarray):
        return k.ndim > 0 or k.dtype.kind == "b"
    return isinstance(k, (list, bool, np.bool_))


def check_bounds(name: str, index: g.Node, size: int, axis: int) -> None:
    """IndexError (NumPy's message) if some value of the int64 ``index`` lies outside
    ``[-size, size)``. Computed now, so the call that made the index raises: on host memory
    with NumPy on the index's own buffer, elsewhere as one reduction on the device."""
    if index.size == 0:
        return
    const = index.base()
    if const.op == "CONST":         # (a Python int, maybe broadcast: its value is known)
        value = int(const.arg)
        if not -size <= value < size:
            raise IndexError(f"{name}: index {value} is out of bounds for axis {axis} with "
                             f"size {size}")
        return
    host_memory = hasattr(index.device, "host_array")
    if not host_memory:
        lo = g.alu(Op.CMPLT, index, broadcast_node(g.const(-size, np.int64, index.device),
                                                   index.shape), dtype=np.bool_)
        hi = g.alu(Op.CMPLE, broadcast_node(g.const(size, np.int64, index.device),
                                            index.shape), index, dtype=np.bool_)
        flat = g.reshape(g.alu(Op.OR, lo, hi), (index.size,))
        if not bool(to_host(g.reduce(flat, Op.MAX, (0,)))[0]):
            return
    values = to_host(index)
    bad = (values < -size) | (values >= size)
    if bad.any():
        raise IndexError(f"{name}: index {int(values[bad].flat[0])} is out of bounds for "
                         f"axis {axis} with size {size}")


def _consumed(k: Any) -> int:
    """How many axes of the indexed array one item of a key consumes (Ellipsis: none here)."""
    if k is None or k is Ellipsis:
        return 0
    if _is_array_key(k):
        a = k if isinstance(k, Array) else np.asarray(k)
        return a.ndim if a.dtype.kind == "b" else 1
    return 1


def _axes_of(x: Array, items: list[Any]) -> list[int]:
    """The first axis of ``x`` that each item of a key indexes."""
    rest = x.ndim - sum(_consumed(k) for k in items)
    out, axis = [], 0
    for k in items:
        out.append(axis)
        axis += rest if k is Ellipsis else _consumed(k)
    return out


def _advanced(name: str, x: Array, key: Any) -> tuple[tuple, list[g.Node], tuple[int, ...]]:
    """(a hashable key template, the int64 index nodes it refers to, the result's shape)."""
    from ._creation_functions import asarray
    items = list(key) if isinstance(key, tuple) else [key]
    n_ell = sum(1 for k in items if k is Ellipsis)
    if n_ell > 1:
        raise IndexError(f"{name}: an index can only have a single ellipsis ('...')")
    template: list[tuple] = []
    nodes: list[g.Node] = []
    dummy: list[Any] = []
    masks: list[Any] = []      # the key with masks kept as (empty) masks, for NumPy's checks
    checks: list[tuple[g.Node, int]] = []     # (device index array, item position)
    for position, k in enumerate(items):
        if k is None:
            template.append(("n",))
            dummy.append(None)
            masks.append(None)
        elif k is Ellipsis:
            template.append(("e",))
            dummy.append(Ellipsis)
            masks.append(Ellipsis)
        elif isinstance(k, slice):
            template.append(("s", k.start, k.stop, k.step))
            dummy.append(k)
            masks.append(k)
        elif _is_array_key(k):
            arr = k if isinstance(k, Array) else asarray(np.asarray(k), device=x.device)
            if arr.device is not x.device:
                raise ValueError(f"{name}: index array is on {arr.device.name}, the array on "
                                 f"{x.device.name}")
            if arr.dtype.kind == "b":
                masks.append(np.zeros(arr.shape, np.bool_))
                # a mask: its True positions, one integer array per axis it covers
                for idx in np.nonzero(arr._host()):
                    nodes.append(asarray(np.asarray(idx, np.int64), device=x.device)._node)
                    template.append(("a", len(nodes) - 1))
                    dummy.append(np.zeros(idx.shape, np.intp))
                continue
            if arr.dtype.kind not in "iu":
                raise IndexError(f"{name}: arrays used as indices must be of integer or "
                                 f"boolean type, got {arr.dtype.name}")
            nodes.append(g.cast(arr._node, np.int64))
            if isinstance(k, Array):
                checks.append((nodes[-1], position))
            template.append(("a", len(nodes) - 1))
            # host keys are known now: NumPy checks their bounds here, not at observation
            dummy.append(np.zeros(arr.shape, np.intp) if isinstance(k, Array) else
                         np.asarray(k).astype(np.intp))
            masks.append(dummy[-1])
        else:
            try:
                i = operator.index(k)
            except TypeError:
                raise IndexError(f"{name}: only integers, slices, Ellipsis, None and integer "
                                 f"or boolean arrays are valid indices, got {k!r}") from None
            template.append(("i", i))
            dummy.append(i)
            masks.append(i)
    try:
        # masks as masks first: NumPy checks that each covers the axes it indexes
        np.broadcast_to(np.empty((), np.bool_), x.shape)[tuple(masks)]
        shape = np.broadcast_to(np.empty((), np.bool_), x.shape)[tuple(dummy)].shape
    except IndexError as e:
        raise IndexError(f"{name}: {e} (array of shape {x.shape})") from None
    if checks:
        axes = _axes_of(x, items)
        for node, position in checks:
            check_bounds(name, node, x.shape[axes[position]], axes[position])
    return tuple(template), nodes, tuple(shape)


def _zero_d_mask(key: Any) -> bool | None:
    """The value of a key that is a single 0-d boolean (NumPy: True adds an axis of length
    1, False an axis of length 0), else None."""
    if isinstance(key, (Array, np.ndarray)) and key.ndim == 0 and key.dtype == np.bool_:
        return bool(key)
    if isinstance(key, (bool, np.bool_)):
        return bool(key)
    return None


#: elements of a pending array in host memory past which reading one element computes only
#: that element (a view's kernel) instead of the whole array
ELEMENT_REALIZE_MAX = 1 << 20


def _element_now(node: g.Node, idx: tuple[int, ...]) -> g.Node | None:
    """``element(node, idx)``, computing ``node`` first where it is pending, small and in host
    memory: NumPy code that reads an element of a computed array reads more of them (a loop
    over ``returns[i]``), and each would otherwise be a kernel of its own."""
    one = element(node, idx)
    if one is None and node.size <= ELEMENT_REALIZE_MAX and \
            hasattr(node.device, "host_array") and node.base().buffer is None and \
            node.base().op != "CONST":
        realize(node)
        one = element(node, idx)
    return one


def getitem(x: Array, key: Any) -> Array:
    node = x._node
    if type(key) is int and node.shape and g.first_indexable(node):   # (the commonest key)
        size = node.shape[0]
        if -size <= key < size:
            if len(node.shape) == 1:    # an element: NumPy gives a scalar, a copy
                one = _element_now(node, (key % size,))
                return Array._new(one or g.index_first(node, key % size))
            return Array._view(x, g.index_first, key % size)
    if type(key) is tuple and key and type(key[0]) is not slice and g.first_indexable(node):
        # (``a[i, j]``: host memory, now; a key led by a slice, a stencil's ``p[1:-1, :-2]``,
        # names no element)
        idx = element_index(key, node.shape)
        one = _element_now(node, idx) if idx is not None else None
        if one is not None:
            return Array._new(one)
    sig = _basic_signature(key)
    if sig is not None:
        parsed = _BASIC.get((node.shape, sig))
        if parsed is None:
            parsed = _parse_basic(node.shape, key)
            if len(_BASIC) >= 4096:
                _BASIC.clear()
            _BASIC[(node.shape, sig)] = parsed
    else:
        flag = _zero_d_mask(key)
        if flag is not None:
            y = Array._view(x, g.reshape, (1, *x.shape))
            return y if flag else y[0:0]
        keys = key if isinstance(key, tuple) else (key,)
        if any(_is_array_key(k) for k in keys):
            now = _advanced_now(x, keys, key)
            if now is not None:
                return now
            template, nodes, shape = _advanced("__getitem__", x, key)
            node = g.library("getitem", (x._node, *nodes), {"template": template},
                             x.dtype.np, shape)
            return Array._new(node)
        parsed = _parse_basic(x.shape, key)
    spec, shape, one_element = parsed
    if one_element:
        # an element (every axis indexed by an integer): NumPy gives a scalar, a copy
        one = g.slice_reshape(x._node, spec, shape)
        return Array._new(element(one) or one)
    return Array._view(x, g.slice_reshape, spec, shape)


def _advanced_now(x: Array, keys: tuple, key: Any) -> Array | None:
    """``x[key]`` for a key with index or mask arrays, by NumPy's indexing now, where ``x``
    and those arrays are values in the cpu device's memory of at most ``_hot.now_max()``
    elements each (``x[x > 0]``, ``X[idx]`` in a loop: 14-17 us as a library node and its
    bounds check, NumPy 0.3-1). The result is a new array, as NumPy's is (Python bools, the
    one array-like key NumPy answers with a view, are left to the lazy path). None where the
    lazy path serves: another device, pending values, larger arrays, float16, or a key that
    NumPy refuses (the lazy path raises the error, naming the call)."""
    limit = _hot.now_max()
    if not limit or x.size > limit or x.dtype is dt.float16 or \
            any(isinstance(k, (bool, np.bool_)) for k in keys):
        return None
    arrays = [k for k in keys if isinstance(k, Array) and _is_array_key(k)]
    if any(k.size > limit for k in arrays):
        return None
    values = _hot.host_values([x._node] + [k._node for k in arrays])
    if values is None:
        return None
    host = iter(values[1:])
    host_key = tuple(next(host) if isinstance(k, Array) and _is_array_key(k) else k
                     for k in keys)
    try:        # (an index array makes NumPy's result a copy: nothing else refers to it)
        out = values[0][host_key if isinstance(key, tuple) else host_key[0]]
    except (IndexError, ValueError, TypeError):
        return None
    return _hot.wrapped(out, x.device)


def _parse_basic(shape: tuple[int, ...], key: Any) -> tuple[tuple, tuple[int, ...], bool]:
    """(spec, the result's shape, whether the key picks one element) of a basic key."""
    spec, layout = _parse("__getitem__", shape, key)
    out = tuple(1 if a is None else spec[a][2] for a in layout)
    keys = key if isinstance(key, tuple) else (key,)
    return spec, out, not out and not any(k is Ellipsis for k in keys)


def _basic_signature(key: Any) -> tuple | None:
    """A hashable form of a key made only of Python ints, None, Ellipsis and slices of ints
    or None (slices are not hashable before Python 3.12); None for any other key."""
    out = []
    for k in key if type(key) is tuple else (key,):
        t = type(k)
        if t is slice:
            a, b, c = k.start, k.stop, k.step
            if (a is None or type(a) is int) and (b is None or type(b) is int) and \
                    (c is None or type(c) is int):
                out.append((a, b, c))
                continue
            return None
        if t is int or k is None or k is Ellipsis:
            out.append(k)
            continue
        return None
    return tuple(out)


#: (shape, a basic key's signature) -> ``_parse_basic``'s answer: a loop that takes the same
#: slices of each step's value (``p[1:-1, :-2]``, ``X[:, None, :]``) parses its key once
_BASIC: dict[tuple, tuple] = {}


def setitem(x: Array, key: Any, value: Any, in_place: bool = False) -> Array:
    """``x`` with ``value`` at ``key``: a new SETITEM node, or, when ``in_place`` (the
    caller owns x's realized buffer alone), a write into that buffer right away, which keeps
    loops like ``for i in range(n): x[i, i] = v`` free of copies and of graph growth."""
    flag = _zero_d_mask(key)
    if flag is not None:
        return setitem(x, ..., value, in_place) if flag else x
    keys = key if isinstance(key, tuple) else (key,)
    masked = _mask_fill(x, keys, value)
    if masked is not None:
        return masked
    if any(_is_array_key(k) for k in keys):
        template, nodes, shape = _advanced("__setitem__", x, key)
        if isinstance(value, Array):
            v = g.cast(value._node, x.dtype.np)
            if broadcast_shapes("__setitem__", value.shape, shape) != shape:
                raise ValueError(f"__setitem__: cannot broadcast a value of shape "
                                 f"{value.shape} into the indexed shape {shape}")
        elif np.ndim(value) == 0:
            v = scalar_node("__setitem__", value, x.dtype, x.device)
        else:
            from ._creation_functions import asarray
            return setitem(x, key, asarray(np.asarray(value), device=x.device))
        v = broadcast_node(v, shape)
        node = g.library("setitem", (x._node, v, *nodes), {"template": template},
                         x.dtype.np, x.shape)
        return Array._new(node)
    parts = _basic_write(x, key, value)
    if parts is None:
        return x
    v, region = parts
    if in_place:
        write_region(x._node, v, region)
        return x
    return Array._new(g.setitem(x._node, v, region))


def _mask_fill(x: Array, keys: tuple, value: Any) -> Array | None:
    """``x[mask] = scalar`` for a boolean mask over x's leading axes: ``where(mask, scalar,
    x)``, lazy and fused like any elementwise op (NumPy's commonest masked update, ``z[abs(z)
    > 2] = 2``, needs no host round trip for the True positions). None for other keys."""
    if len(keys) != 1:
        return None
    mask = keys[0]
    if isinstance(mask, np.ndarray) and mask.dtype == np.bool_:
        from ._creation_functions import asarray
        mask = asarray(mask, device=x.device)
    if not isinstance(mask, Array) or mask.dtype.kind != "b" or mask.device is not x.device \
            or not 0 < mask.ndim <= x.ndim or mask.shape != x.shape[:mask.ndim]:
        return None
    if isinstance(value, Array):
        if value.ndim != 0 or value.device is not x.device:
            return None
        v = g.cast(value._node, x.dtype.np)
    elif np.ndim(value) == 0 and not isinstance(value, np.ndarray):
        v = scalar_node("__setitem__", value, x.dtype, x.device)
    else:
        return None
    m = mask._node
    if mask.ndim < x.ndim:          # (a mask of rows: every element of a True row)
        m = g.reshape(m, mask.shape + (1,) * (x.ndim - mask.ndim))
    return Array._new(g.alu(Op.WHERE, broadcast_node(m, x.shape), broadcast_node(v, x.shape),
                            x._node))


def _basic_write(x: Array, key: Any, value: Any) -> tuple[g.Node, tuple] | None:
    """For a basic key: (the value, shaped as the region it fills, and the region of x's
    layout as a ShapeTracker), or None when the region is empty."""
    spec, layout = _parse("__setitem__", x.shape, key)
    out_shape = tuple(1 if a is None else spec[a][2] for a in layout)
    region_shape = tuple(c for _, _, c in spec)
    if isinstance(value, (np.ndarray, list, tuple)):
        from ._creation_functions import asarray
        value = asarray(np.asarray(value), device=x.device)
    if isinstance(value, Array):
        if value.device is not x.device:
            raise ValueError(f"__setitem__: value is on {value.device.name}, the array on "
                             f"{x.device.name}")
        v = g.cast(value._node, x.dtype.np)
        if broadcast_shapes("__setitem__", value.shape, out_shape) != out_shape:
            raise ValueError(f"__setitem__: cannot broadcast a value of shape {value.shape} "
                             f"into the indexed shape {out_shape}")
    else:
        v = scalar_node("__setitem__", value, x.dtype, x.device)
    v = g.reshape(broadcast_node(v, out_shape), region_shape)
    if 0 in region_shape:
        return None
    return v, (View.contiguous(x.shape).slice(spec),)


def write_shared(x: Array, key: Any, value: Any) -> None:
    """``x[key] = value`` for an array that shares memory with views (``x._alias``): the
    write lands in the shared base, where every view sees it (NumPy's aliasing)."""
    storage, st, _ = x._alias
    flag = _zero_d_mask(key)
    if flag is not None:
        if flag:
            write_shared(x, ..., value)
        return
    keys = key if isinstance(key, tuple) else (key,)
    if any(_is_array_key(k) for k in keys):
        # the new value of all of x (a scatter), written over x's region of the base
        new = setitem(x, key, value)._node
        storage.store(new, st)
        return
    parts = _basic_write(x, key, value)
    if parts is None:
        return
    v, region = parts
    storage.store(v, region if st is None else compose(region, st))
