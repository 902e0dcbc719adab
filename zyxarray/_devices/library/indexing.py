"""Host gathers: take, take_along_axis.

Layer: ``_devices``. Out-of-bounds indices raise IndexError when the value is computed.
"""

from __future__ import annotations

import numpy as np

from . import host_impl


@host_impl("take")
def take(x: np.ndarray, idx: np.ndarray, *, out: np.ndarray, axis: int) -> None:
    if out.size == 0:
        return
    np.take(x, idx, axis=axis, out=out, mode="raise")


@host_impl("take_along_axis")
def take_along_axis(x: np.ndarray, idx: np.ndarray, *, out: np.ndarray, axis: int) -> None:
    if out.size == 0:
        return
    n = x.shape[axis]
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError(f"take_along_axis: index out of bounds for axis {axis} of size {n}")
    shape = list(np.broadcast_shapes(
        tuple(1 if i == axis else s for i, s in enumerate(x.shape)),
        tuple(1 if i == axis else s for i, s in enumerate(idx.shape))))
    xs = list(shape)
    xs[axis] = n
    idx_shape = list(shape)
    idx_shape[axis] = idx.shape[axis]
    out[...] = np.take_along_axis(np.broadcast_to(x, xs), np.broadcast_to(idx, idx_shape),
                                  axis=axis)


def _key(template: tuple, idx: tuple[np.ndarray, ...]) -> tuple:
    out: list = []
    for t in template:
        kind = t[0]
        if kind == "n":
            out.append(None)
        elif kind == "e":
            out.append(Ellipsis)
        elif kind == "s":
            out.append(slice(t[1], t[2], t[3]))
        elif kind == "i":
            out.append(t[1])
        else:
            out.append(idx[t[1]])
    return tuple(out)


@host_impl("getitem")
def getitem(x: np.ndarray, *idx: np.ndarray, out: np.ndarray, template: tuple) -> None:
    """NumPy's advanced indexing (integer arrays mixed with slices, ints, None, ...)."""
    result = x[_key(template, idx)]
    if out.size:
        out[...] = result


@host_impl("setitem")
def setitem(x: np.ndarray, value: np.ndarray, *idx: np.ndarray, out: np.ndarray,
            template: tuple) -> None:
    """A copy of x with ``value`` scattered at an advanced key (the last write wins)."""
    out[...] = x
    out[_key(template, idx)] = value


@host_impl("bitcast")
def bitcast(x: np.ndarray, *, out: np.ndarray) -> None:
    """The bytes of ``x`` (C order) read as ``out``'s dtype (``ndarray.view(dtype)``)."""
    if out.size:
        out[...] = np.ascontiguousarray(x).view(out.dtype).reshape(out.shape)
