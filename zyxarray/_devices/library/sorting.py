"""Host sorting, searching and scans: sort, argsort, argmax, argmin, searchsorted,
cumulative sums and products, isin.

Layer: ``_devices``. NaN sorts last (NumPy's order); descending stable sorts keep equal
elements in their original order. ``stable=False`` is NumPy's default introsort (about
twice as fast on floats).
"""

from __future__ import annotations

import numpy as np

from . import host_impl


def _descending_argsort(x: np.ndarray, axis: int) -> np.ndarray:
    # stable descending: sort the reversed array ascending, then reverse back; equal
    # elements then keep their original order. NaN goes first in descending order
    # (last in ascending order, reversed), as NumPy's flip(sort(x)) gives.
    n = x.shape[axis]
    rev = np.flip(x, axis)
    order = np.argsort(rev, axis=axis, kind="stable")
    return (n - 1) - np.flip(order, axis)


def _stable_argsort(x: np.ndarray, axis: int) -> np.ndarray:
    """NumPy's stable ascending argsort (NaN last, -0.0 equal to 0.0). For keys of 32 bits
    or fewer, each element's order-preserving key and its position are one distinct uint64,
    sorted by NumPy's default (SIMD) sort: any order of distinct keys is the stable one, and
    it takes less than half the time of NumPy's stable sort (300 x 900 float32 along rows:
    9.5 -> 4.0 ms). Other dtypes: NumPy's stable sort."""
    n = x.shape[axis] if x.ndim else 1
    kind = x.dtype.kind
    if x.ndim == 0 or x.dtype.itemsize > 4 or kind not in "biuf" or n >= 1 << 32 or \
            x.size < 4096:
        return np.argsort(x, axis=axis, kind="stable")
    v = np.moveaxis(x, axis, -1)
    if kind == "f":
        v = v.astype(np.float32)
        v = np.where(v == 0, np.float32(0), v)          # (-0.0: equal to 0.0)
        bits = v.view(np.uint32)
        key = np.where(bits >> np.uint32(31), ~bits, bits | np.uint32(0x80000000))
        key = np.where(np.isnan(v), np.uint32(0xFFFFFFFF), key).astype(np.uint64)
    elif kind == "i":
        key = (v.astype(np.int64) + (1 << 31)).astype(np.uint64)
    else:
        key = v.astype(np.uint64)
    key <<= np.uint64(32)
    key |= np.arange(n, dtype=np.uint64)
    key.sort(axis=-1)
    key &= np.uint64(0xFFFFFFFF)
    return np.moveaxis(key.astype(np.int64), -1, axis)


@host_impl("argsort")
def argsort(x: np.ndarray, *, out: np.ndarray, axis: int, descending: bool,
            stable: bool = True) -> None:
    if out.size == 0:
        return
    if not stable:      # NumPy's default introsort (equal elements in any order)
        order = np.argsort(x, axis=axis)
        out[...] = np.flip(order, axis) if descending else order
        return
    out[...] = _descending_argsort(x, axis) if descending else _stable_argsort(x, axis)


@host_impl("sort")
def sort(x: np.ndarray, *, out: np.ndarray, axis: int, descending: bool,
         stable: bool = True) -> None:
    if out.size == 0:
        return
    if not stable:
        values = np.sort(x, axis=axis)
        out[...] = np.flip(values, axis) if descending else values
    elif descending:
        out[...] = np.take_along_axis(x, _descending_argsort(x, axis), axis=axis)
    else:
        out[...] = np.sort(x, axis=axis, kind="stable")


@host_impl("argmax")
def argmax(x: np.ndarray, *, out: np.ndarray, axis: int | None, keepdims: bool) -> None:
    out[...] = np.argmax(x, axis=axis, keepdims=keepdims)


@host_impl("argmin")
def argmin(x: np.ndarray, *, out: np.ndarray, axis: int | None, keepdims: bool) -> None:
    out[...] = np.argmin(x, axis=axis, keepdims=keepdims)


@host_impl("searchsorted")
def searchsorted(x1: np.ndarray, x2: np.ndarray, *sorter: np.ndarray, out: np.ndarray,
                 side: str) -> None:
    if out.size == 0:
        return
    out[...] = np.searchsorted(x1, x2, side=side, sorter=sorter[0] if sorter else None)


@host_impl("cumulative_sum")
def cumulative_sum(x: np.ndarray, *, out: np.ndarray, axis: int, include_initial: bool
                   ) -> None:
    _scan(np.cumsum, 0, x, out, axis, include_initial)


@host_impl("cumulative_prod")
def cumulative_prod(x: np.ndarray, *, out: np.ndarray, axis: int, include_initial: bool
                    ) -> None:
    _scan(np.cumprod, 1, x, out, axis, include_initial)


def _scan(fn: object, initial: int, x: np.ndarray, out: np.ndarray, axis: int,
          include_initial: bool) -> None:
    if out.size == 0:
        return
    if include_initial:
        head = [slice(None)] * out.ndim
        head[axis] = slice(0, 1)
        out[tuple(head)] = initial
        head[axis] = slice(1, None)
        target = out[tuple(head)]
    else:
        target = out
    if target.size:
        with np.errstate(all="ignore"):
            target[...] = fn(x, axis=axis, dtype=out.dtype)  # type: ignore[operator]


@host_impl("isin")
def isin(x1: np.ndarray, x2: np.ndarray, *, out: np.ndarray, invert: bool) -> None:
    if out.size == 0:
        return
    out[...] = np.isin(x1, x2, invert=invert)
