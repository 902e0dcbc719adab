"""Manipulation functions that are views: reshape, permute_dims, expand_dims, squeeze,
broadcast_to, broadcast_arrays, flip.

Layer: ``_api``. None of these copies data: each appends a VIEW node (index arithmetic).
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from . import _dtypes as dt
from . import _hot
from ._array_object import Array
from ._elementwise_functions import broadcast_node, broadcast_shapes, device_of

broadcast_shapes_of = broadcast_shapes


class AxisError(ValueError, IndexError):
    """An axis out of range: a ValueError (the standard) and an IndexError (as NumPy's)."""


def normalize_axis(name: str, axis: int, ndim: int) -> int:
    if type(axis) is int and -ndim <= axis < ndim:     # the common case, without a call
        return axis % ndim
    import operator
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"{name}: axis must be an integer, got {axis!r}") from None
    if not -ndim <= axis < ndim:
        raise AxisError(f"{name}: axis {axis} is out of bounds for an array of dimension "
                        f"{ndim}")
    return axis % ndim


def normalize_axes(name: str, axis: Any, ndim: int) -> tuple[int, ...]:
    """None -> all axes; an int or a tuple -> sorted non-negative axes (no repeats)."""
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int and -ndim <= axis < ndim:
        return (axis % ndim,)
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = [normalize_axis(name, a, ndim) for a in items]
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: repeated axis in {axis}")
    return tuple(sorted(out))


def reshape(x: Array, /, shape: Any, *, copy: bool | None = None) -> Array:
    """The same elements in a new shape (one dimension may be -1)."""
    if isinstance(shape, (int, np.integer)):
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
    if copy:
        return Array._new(g.reshape(x._node, shape))
    out = Array._view(x, g.reshape, shape)   # (a view of x where NumPy's would be one)
    node = out._node
    if copy is False and node.op == "VIEW" and len(node.arg) > 1:
        raise ValueError("reshape: copy=False but this reshape of a non-contiguous view "
                         "cannot be a single strided view")
    return out


def permute_dims(x: Array, /, axes: tuple[int, ...]) -> Array:
    """The axes reordered as ``axes`` says."""
    order = tuple(normalize_axis("permute_dims", a, x.ndim) for a in axes)
    if sorted(order) != list(range(x.ndim)):
        raise ValueError(f"permute_dims: {axes} is not a permutation of the axes of an array "
                         f"of shape {x.shape}")
    return Array._view(x, g.permute, order)


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
    return Array._view(x, g.reshape, tuple(shape))


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
    return Array._view(x, g.reshape, shape)


def broadcast_to(x: Array, /, shape: Any) -> Array:
    """``x`` broadcast to ``shape`` (a view: size-1 axes repeat; an int is a 1-D shape)."""
    shape = (operator.index(shape),) if not isinstance(shape, (tuple, list)) else \
        tuple(operator.index(s) for s in shape)
    if broadcast_shapes_of("broadcast_to", x.shape, shape) != shape:
        raise ValueError(f"broadcast_to: cannot broadcast shape {x.shape} to {shape}")
    # Note: as in NumPy, a read-only view (writing to it raises ValueError)
    return Array._view(x, broadcast_node, shape, writeable=False)


def broadcast_arrays(*arrays: Array) -> tuple[Array, ...]:
    """The arrays broadcast against each other (a tuple since the 2025.12 standard); each
    is a read-only view of its input, as in NumPy."""
    shape = broadcast_shapes_of("broadcast_arrays", *(a.shape for a in arrays))
    return tuple(Array._view(a, broadcast_node, shape, writeable=False) for a in arrays)


# Note: the parameters that NumPy takes positionally (axis) are positional-or-keyword
# here too; the standard makes them keyword-only, and its signature tests allow this.
def flip(x: Array, /, axis: Any = None) -> Array:
    """The elements in reverse order along ``axis`` (all axes if None)."""
    axes = normalize_axes("flip", axis, x.ndim)
    spec = tuple((s - 1, -1, s) if i in axes and s > 0 else (0, 1, s)
                 for i, s in enumerate(x.shape))
    return Array._view(x, g.slice_view, spec)


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape that broadcasting ``shapes`` together gives."""
    return broadcast_shapes_of("broadcast_shapes", *(tuple(s) for s in shapes))


def _zeros_const(a: Array) -> bool:
    """True if ``a`` is a broadcast constant +0 (``zeros(...)``): no data of its own."""
    node = a._node
    if node.op == "VIEW":
        node = node.srcs[0]
    if node.op != "CONST":
        return False
    v = node.arg
    return v == 0 and not (isinstance(v, float) and math.copysign(1.0, v) < 0) and \
        not (isinstance(v, complex) and (math.copysign(1.0, v.real) < 0 or
                                         math.copysign(1.0, v.imag) < 0))


# concat of more arrays than this writes each into its region instead of selecting per point
CONCAT_FUSE_MAX = 4


#: at most this many elements of many inputs already in the cpu device's memory are joined
#: there by NumPy's copy (``_in_cpu_memory``)
HOST_CONCAT_MAX = 1 << 22


def _in_cpu_memory(parts: list[Array], limit: int = HOST_CONCAT_MAX
                   ) -> list[np.ndarray] | None:
    """The inputs of a concat (or roll) as NumPy arrays when every one's values are already
    in the cpu device's memory and together they hold at most ``limit`` elements (rows
    computed in a Python loop, then stacked; a small grid's edges joined every step): one
    copy there instead of a kernel per input. None otherwise: a pending input keeps the lazy
    path, which fuses; float16 and objects that are not arrays too."""
    total = 0
    for a in parts:
        if type(a) is not Array or a.dtype is dt.float16:
            return None
        total += a.size
        if total > limit:
            return None
    return _hot.host_values([a._node for a in parts]) if parts else None


def _host_concat(arrays: list[Array], host: list[np.ndarray], axis: Any) -> Array | None:
    """``concat`` of inputs whose values ``host`` holds (``_in_cpu_memory``), joined by
    NumPy into a new buffer of the cpu device; None where NumPy refuses them (the general
    path then raises the spec's error: 0-d inputs, shapes that differ, an axis out of
    range)."""
    first = host[0].dtype
    try:
        if any(h.dtype != first for h in host):
            common = dt.result_type_of(*arrays, where="concat").np
            host = [h.astype(common, copy=False) for h in host]
        joined = np.concatenate(host, axis=axis)
    except (ValueError, TypeError):     # (NumPy's AxisError is a ValueError)
        return None
    return _hot.wrapped(joined, arrays[0].device)


def concat(arrays: Any, /, axis: int | None = 0) -> Array:
    """The arrays joined along ``axis`` (flattened first if None).

    A few arrays (at most ``CONCAT_FUSE_MAX``) join inside one kernel that fuses with their
    producers and readers: each input is a masked view padded to the result's shape along
    ``axis``, and a chain of selects on the position along that axis picks the input it
    belongs to. More arrays make a ``CONCAT`` node: one kernel per input writes its region
    of the result (a copy's work, one compiled kernel for any number of inputs).
    """
    now = _hot.concat_now(arrays, axis)     # (small windows of one dtype: joined in C)
    if now is not None:
        return now
    arrays = list(arrays)
    host = _in_cpu_memory(arrays, _hot.now_max())
    if host is not None:
        # small inputs in the cpu device's memory: NumPy's one copy now, as NumPy does, not
        # a node and a launch (a loop over a small grid joins its edges every step)
        joined = _host_concat(arrays, host, axis)
        if joined is not None:
            return joined
    else:
        fast = _concat_again(arrays, axis)
        if fast is not None:
            return fast
    if not arrays:
        raise ValueError("concat: need at least one array")
    for a in arrays:
        if not isinstance(a, Array):
            raise TypeError(f"concat: expected arrays, got {type(a).__name__}")
    device_of("concat", tuple(arrays))
    if axis is None:
        arrays = [reshape(a, (-1,)) for a in arrays]
        axis = 0
    ndim = arrays[0].ndim
    if ndim == 0:
        raise ValueError("concat: zero-dimensional arrays cannot be concatenated")
    if any(a.ndim != ndim for a in arrays):
        raise ValueError(f"concat: all arrays must have the same number of dimensions, got "
                         f"shapes {[a.shape for a in arrays]}")
    ax = normalize_axis("concat", axis, ndim)
    for a in arrays:
        if any(s != t for i, (s, t) in enumerate(zip(a.shape, arrays[0].shape)) if i != ax):
            raise ValueError(f"concat: shapes {[a.shape for a in arrays]} differ outside "
                             f"axis {ax}")
    common = dt.result_type_of(*arrays, where="concat")
    total = sum(a.shape[ax] for a in arrays)
    shape = arrays[0].shape[:ax] + (total,) + arrays[0].shape[ax + 1:]
    device = arrays[0].device
    parts = [a for a in arrays if a.shape[ax]]
    data = [a for a in parts if not _zeros_const(a)]
    if len(data) == 1 and len(parts) > 1:
        # zeros around one array (a stencil's padding): one masked view, which reads 0
        # outside the array and fuses into every shifted read of it
        where = next(i for i, a in enumerate(parts) if a is data[0])   # (identity: no ==)
        before = sum(a.shape[ax] for a in parts[:where])
        after = total - before - data[0].shape[ax]
        widths = tuple((before, after) if i == ax else (0, 0) for i in range(ndim))
        k = next(i for i, a in enumerate(arrays) if a is data[0])
        _keep_recipe(arrays, axis, ("pad", common.np, k, widths))
        return Array._new(g.pad(g.cast(data[0]._node, common.np), widths))
    if len(parts) > CONCAT_FUSE_MAX:
        host = _in_cpu_memory(parts)
        if host is not None:    # (NumPy's one copy there, not a kernel per input)
            from ._creation_functions import asarray
            return asarray(np.concatenate(host, axis=ax).astype(common.np, copy=False),
                           device=device)
        return Array._new(g.concat(tuple(g.cast(a._node, common.np) for a in parts), ax))
    steps = []      # (input, pad widths, the bound below which it is selected or None)
    start = total
    for k in range(len(arrays) - 1, -1, -1):
        n = arrays[k].shape[ax]
        start -= n
        if n == 0:
            continue
        widths = tuple((start, total - start - n) if i == ax else (0, 0) for i in range(ndim))
        steps.append((k, widths, start + n if steps else None))
    if not steps:
        return Array._new(g.broadcast(g.const(0, common.np, device), shape))
    recipe = ("select", common.np, shape, total, ax, tuple(steps))
    _keep_recipe(arrays, axis, recipe)
    return _joined(arrays, recipe, device)


def _keep_recipe(arrays: list[Array], axis: Any, recipe: tuple) -> None:
    if len(_CONCATS) >= 1024:
        _CONCATS.clear()
    _CONCATS[_concat_signature(arrays, axis)] = recipe


def _joined(arrays: list[Array], recipe: tuple, device: Any) -> Array:
    """A fused concat's node from its ``recipe`` (what ``concat`` worked out for these
    shapes, dtypes and axis): one input padded with zeros, or a select chain."""
    if recipe[0] == "pad":
        _, dtype, k, widths = recipe
        return Array._new(g.pad(g.cast(arrays[k]._node, dtype), widths))
    _, dtype, shape, total, ax, steps = recipe
    position = g.shared_position(total, shape, ax, device)
    out: g.Node | None = None
    for k, widths, bound in steps:
        part = g.pad(g.cast(arrays[k]._node, dtype), widths)
        if bound is None:
            out = part
        else:
            below = g.alu(Op.CMPLT, position, g.shared_fill(bound, shape, device),
                          dtype=np.bool_)
            out = g.alu(Op.WHERE, below, part, out)
    assert out is not None
    return Array._new(out)


def _concat_signature(arrays: list[Array], axis: Any) -> tuple:
    """The inputs' shapes, dtypes, devices and which are zeros (a padding), and the axis."""
    return (axis, tuple([(a._node.shape, a._node.dtype, a._node.device, _zeros_const(a))
                         for a in arrays]))


#: (axis, the inputs' shapes, dtypes, devices and zeros) -> the recipe of the padding or the
#: select chain that a fused concat of them builds (``_joined``): a loop that joins pieces of
#: the same shapes each step checks them and works out the pads once (a Jacobi step's two
#: joins: 28 -> 18 us each)
_CONCATS: dict[tuple, tuple] = {}


def _concat_again(arrays: list[Array], axis: Any) -> Array | None:
    """A fused concat of inputs whose shapes, dtypes and devices were seen before (checked
    then), built from the recipe kept then; None for anything else."""
    if not _CONCATS or not 1 < len(arrays) <= CONCAT_FUSE_MAX:
        return None
    for a in arrays:
        if type(a) is not Array:
            return None
    recipe = _CONCATS.get(_concat_signature(arrays, axis))
    if recipe is None:
        return None
    return _joined(arrays, recipe, arrays[0]._node.device)


def stack(arrays: Any, /, axis: int = 0) -> Array:
    """The arrays (all of one shape) joined along a new axis."""
    arrays = list(arrays)
    if not arrays:
        raise ValueError("stack: need at least one array")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError(f"stack: all arrays must have the same shape, got "
                         f"{[a.shape for a in arrays]}")
    ax = normalize_axis("stack", axis, len(shape) + 1)
    return concat([expand_dims(a, axis=ax) for a in arrays], axis=ax)


def unstack(x: Array, /, *, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis``, as a tuple."""
    if x.ndim == 0:
        raise ValueError("unstack: a 0-d array has no axis to unstack")
    ax = normalize_axis("unstack", axis, x.ndim)
    key = (slice(None),) * ax
    return tuple(x[(*key, i)] for i in range(x.shape[ax]))


def moveaxis(x: Array, source: Any, destination: Any, /) -> Array:
    """``x`` with the axes ``source`` moved to the positions ``destination``."""
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination must have the same length")
    src = [normalize_axis("moveaxis", a, x.ndim) for a in src]
    dst = [normalize_axis("moveaxis", a, x.ndim) for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("moveaxis: repeated axis")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute_dims(x, tuple(order))


def tile(x: Array, repetitions: tuple[int, ...], /) -> Array:
    """``x`` repeated ``repetitions`` times along each axis (a broadcast view, no copy); an
    int repeats the last axis, as NumPy's ``tile(a, 2)`` does."""
    reps = (operator.index(repetitions),) if not isinstance(repetitions, (tuple, list)) \
        else tuple(operator.index(r) for r in repetitions)
    if any(r < 0 for r in reps):
        raise ValueError(f"tile: negative repetitions {reps}")
    ndim = max(len(reps), x.ndim)
    reps = (1,) * (ndim - len(reps)) + reps
    shape = (1,) * (ndim - x.ndim) + x.shape
    node = g.reshape(x._node, tuple(v for s in shape for v in (1, s)))
    node = g.expand(node, tuple(v for r, s in zip(reps, shape) for v in (r, s)))
    return Array._new(g.reshape(node, tuple(r * s for r, s in zip(reps, shape))))


def repeat(x: Array, repeats: Any, /, axis: int | None = None) -> Array:
    """Each element repeated ``repeats`` times (an int, or one count per element)."""
    if axis is None:
        x = reshape(x, (-1,))
        axis = 0
    ax = normalize_axis("repeat", axis, x.ndim)
    n = x.shape[ax]
    if isinstance(repeats, Array) and repeats.ndim == 0:
        repeats = int(repeats)
    if isinstance(repeats, int):
        if repeats < 0:
            raise ValueError(f"repeat: negative repeats {repeats}")
        shape = x.shape[:ax + 1] + (1,) + x.shape[ax + 1:]
        node = g.reshape(x._node, shape)
        node = g.expand(node, x.shape[:ax + 1] + (repeats,) + x.shape[ax + 1:])
        return Array._new(g.reshape(node, x.shape[:ax] + (n * repeats,) + x.shape[ax + 1:]))
    counts = np.asarray(repeats)
    if counts.dtype.kind not in "iu" or counts.ndim > 1:
        raise TypeError("repeat: repeats must be an int or a 1-d integer array")
    counts = np.broadcast_to(counts, (n,)) if counts.ndim == 0 or counts.size == 1 else counts
    if counts.shape != (n,):
        raise ValueError(f"repeat: {counts.size} repeats for an axis of size {n}")
    if (counts < 0).any():
        raise ValueError("repeat: negative repeats")
    from ._creation_functions import asarray
    from ._indexing_functions import take
    index = asarray(np.repeat(np.arange(n), counts), device=x.device)
    return take(x, index, axis=ax)


def _int_list(name: str, what: str, v: Any) -> list[int]:
    import operator
    items = v if isinstance(v, (tuple, list)) else (v,)
    try:
        return [operator.index(i) for i in items]
    except TypeError:
        raise TypeError(f"{name}: {what} must be an integer or a tuple of integers, got "
                        f"{v!r}") from None


def roll(x: Array, /, shift: Any, axis: Any = None) -> Array:
    """Elements shifted along ``axis`` (flattened if None), wrapping around."""
    if axis is None or (x.ndim == 1 and axis in (0, -1)):
        now = _hot.roll_now(x, shift)       # (a small array in memory: two copies in C)
        if now is not None:
            return now
    shifts = _int_list("roll", "shift", shift)
    host = _in_cpu_memory([x]) if x.ndim else None
    if host is not None:        # (in the cpu device's memory: NumPy's one copy there)
        try:
            rolled = np.roll(host[0], shifts if len(shifts) > 1 else shifts[0], axis)
        except (ValueError, TypeError):     # (the checks below raise the spec's error)
            rolled = None
        if rolled is not None:
            return _hot.wrapped(rolled, x.device)
    if axis is None:
        # Note: as in NumPy, several shifts of the flattened array add up.
        flat = roll(reshape(x, (-1,)), sum(shifts), axis=0)
        return reshape(flat, x.shape)
    axes = _int_list("roll", "axis", axis)
    # one shift for several axes, or several shifts of one axis, broadcast (as in NumPy)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    elif len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(f"roll: {len(shifts)} shifts for {len(axes)} axes")
    axes = [normalize_axis("roll", a, x.ndim) for a in axes]
    out = x
    for s, a in zip(shifts, axes):
        ax = normalize_axis("roll", a, x.ndim)
        n = x.shape[ax]
        if n == 0:
            continue
        k = s % n
        if k == 0:
            continue
        head = (slice(None),) * ax
        out = concat([out[(*head, slice(n - k, None))], out[(*head, slice(0, n - k))]],
                     axis=ax)
    return out
