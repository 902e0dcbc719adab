"""Manipulation functions that are views: reshape, permute_dims, expand_dims, squeeze,
broadcast_to, broadcast_arrays, flip.

Layer: ``_api``. None of these copies data: each appends a VIEW node (index arithmetic).
"""

from __future__ import annotations

import math
from typing import Any

from .._lazy import graph as g
from ._array_object import Array
from ._elementwise_functions import broadcast_node, broadcast_shapes


def normalize_axis(name: str, axis: int, ndim: int) -> int:
    import operator
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"{name}: axis must be an integer, got {axis!r}") from None
    if not -ndim <= axis < ndim:
        raise ValueError(f"{name}: axis {axis} is out of bounds for an array of dimension "
                         f"{ndim}")
    return axis % ndim


def normalize_axes(name: str, axis: Any, ndim: int) -> tuple[int, ...]:
    """None -> all axes; an int or a tuple -> sorted non-negative axes (no repeats)."""
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = [normalize_axis(name, a, ndim) for a in items]
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: repeated axis in {axis}")
    return tuple(sorted(out))


def reshape(x: Array, /, shape: Any, *, copy: bool | None = None) -> Array:
    """The same elements in a new shape (one dimension may be -1)."""
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(int(s) for s in shape)
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1 or any(s < -1 for s in shape):
        raise ValueError(f"reshape: invalid shape {shape}")
    if unknown:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or x.size % known:
            raise ValueError(f"reshape: cannot reshape an array of size {x.size} into "
                             f"shape {shape}")
        shape = tuple(x.size // known if s == -1 else s for s in shape)
    if math.prod(shape) != x.size:
        raise ValueError(f"reshape: cannot reshape an array of shape {x.shape} (size {x.size}) "
                         f"into shape {shape}")
    node = g.reshape(x._node, shape)
    if copy is False and node.op == "VIEW" and len(node.arg) > 1:
        raise ValueError("reshape: copy=False but this reshape of a non-contiguous view "
                         "cannot be a single strided view")
    return Array._new(node)


def permute_dims(x: Array, /, axes: tuple[int, ...]) -> Array:
    """The axes reordered as ``axes`` says."""
    order = tuple(normalize_axis("permute_dims", a, x.ndim) for a in axes)
    if sorted(order) != list(range(x.ndim)):
        raise ValueError(f"permute_dims: {axes} is not a permutation of the axes of an array "
                         f"of shape {x.shape}")
    return Array._new(g.permute(x._node, order))


def expand_dims(x: Array, /, axis: Any = 0) -> Array:
    """New size-1 axes at the positions ``axis`` names in the result."""
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    ndim = x.ndim + len(items)
    positions = sorted(normalize_axis("expand_dims", a, ndim) for a in items)
    if len(set(positions)) != len(positions):
        raise ValueError(f"expand_dims: repeated axis in {axis}")
    shape = list(x.shape)
    for p in positions:
        shape.insert(p, 1)
    return Array._new(g.reshape(x._node, tuple(shape)))


def squeeze(x: Array, /, axis: Any = None) -> Array:
    """The array without the size-1 axes ``axis`` names (all of them if None)."""
    if axis is None:
        axes = tuple(i for i, s in enumerate(x.shape) if s == 1)
    else:
        axes = normalize_axes("squeeze", axis, x.ndim)
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"squeeze: cannot remove axis {a} of size {x.shape[a]} "
                             f"(shape {x.shape})")
    shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
    return Array._new(g.reshape(x._node, shape))


def broadcast_to(x: Array, /, shape: Any) -> Array:
    """``x`` broadcast to ``shape`` (a view: size-1 axes repeat)."""
    shape = tuple(int(s) for s in shape)
    if broadcast_shapes("broadcast_to", x.shape, shape) != shape:
        raise ValueError(f"broadcast_to: cannot broadcast shape {x.shape} to {shape}")
    return Array._new(broadcast_node(x._node, shape))


def broadcast_arrays(*arrays: Array) -> tuple[Array, ...]:
    """The arrays broadcast against each other (a tuple since the 2025.12 standard)."""
    shape = broadcast_shapes("broadcast_arrays", *(a.shape for a in arrays))
    return tuple(Array._new(broadcast_node(a._node, shape)) for a in arrays)


def flip(x: Array, /, *, axis: Any = None) -> Array:
    """The elements in reverse order along ``axis`` (all axes if None)."""
    axes = normalize_axes("flip", axis, x.ndim)
    spec = tuple((s - 1, -1, s) if i in axes and s > 0 else (0, 1, s)
                 for i, s in enumerate(x.shape))
    return Array._new(g.slice_view(x._node, spec))
