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
