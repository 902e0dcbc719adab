"""View algebra: every view operation is index arithmetic on (shape, strides, offset).

Layer: ``_lazy``. Imports nothing from zyxarray but the foundation modules.

A ``View`` maps a multi-index of its shape to ``offset + sum(i[d] * strides[d])``. An
optional ``mask`` gives a valid range ``[lo, hi)`` per dimension: outside it the view reads
zero (``pad``, and so ``concat``, are views too). A
``ShapeTracker`` is a chain of views for the cases one view cannot express (a reshape of a
non-contiguous view): ``views[0]`` has the visible shape, each view's result is a linear index
that the next view reads as a multi-index of its own shape (row-major), and the last view's
result is the element offset in the buffer. Strides of size-1 dimensions are always 0 so equal
views compare equal.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple


@functools.lru_cache(maxsize=4096)
def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides = []
    acc = 1
    for s in reversed(shape):
        strides.append(acc if s != 1 else 0)
        acc *= s
    return tuple(reversed(strides))


def prod(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


class View(NamedTuple):
    """A named tuple: cheap to build, hash and compare (the scheduler keys memos by views)."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int = 0
    mask: tuple[tuple[int, int], ...] | None = None

    @staticmethod
    def make(shape: tuple[int, ...], strides: tuple[int, ...], offset: int = 0,
             mask: tuple[tuple[int, int], ...] | None = None) -> View:
        """A view with canonical strides (0 on size-1 axes) and mask (None when every index
        is valid); callers pass Python ints."""
        if 1 in shape:
            strides = tuple(0 if s == 1 else st for s, st in zip(shape, strides))
        if mask is not None:
            mask = tuple((min(max(lo, 0), s), min(max(hi, lo, 0), s))
                         for (lo, hi), s in zip(mask, shape))
            if all(lo == 0 and hi == s for (lo, hi), s in zip(mask, shape)):
                mask = None
            elif any(lo >= hi for lo, hi in mask):
                # nothing is valid: a canonical all-masked view
                mask = tuple((0, 0) for _ in shape)
                strides, offset = tuple(0 for _ in shape), 0
        return View(tuple(shape), tuple(strides), offset, mask)

    @staticmethod
    @functools.lru_cache(maxsize=4096)
    def contiguous(shape: tuple[int, ...]) -> View:
        return View(shape, contiguous_strides(shape), 0)

    @property
    def is_contiguous(self) -> bool:
        """Offset 0, row-major strides, no mask: the identity on a contiguous buffer."""
        return (self.offset == 0 and self.mask is None
                and self.strides == contiguous_strides(self.shape))

    def valid(self, idx: tuple[int, ...]) -> bool:
        return self.mask is None or all(lo <= i < hi for i, (lo, hi) in zip(idx, self.mask))

    # -- view operations ------------------------------------------------------------------
    def permute(self, order: tuple[int, ...]) -> View:
        mask = None if self.mask is None else tuple(self.mask[i] for i in order)
        return View.make(tuple(self.shape[i] for i in order),
                         tuple(self.strides[i] for i in order), self.offset, mask)

    def expand(self, shape: tuple[int, ...]) -> View:
        assert len(shape) == len(self.shape)
        strides = tuple(0 if old == 1 and new != 1 else st
                        for old, new, st in zip(self.shape, shape, self.strides))
        mask = None
        if self.mask is not None:
            mask = tuple((0, new) if old == 1 and new != 1 and hi > lo else
                         ((0, 0) if old == 1 and new != 1 else (lo, hi))
                         for (lo, hi), old, new in zip(self.mask, self.shape, shape))
        return View.make(shape, strides, self.offset, mask)

    def slice(self, spec: tuple[tuple[int, int, int], ...]) -> View:
        """``spec`` is (start, step, count) per dimension; start is a valid index if count>0."""
        offset = self.offset
        shape, strides, mask = [], [], []
        for d, ((start, step, count), st) in enumerate(zip(spec, self.strides)):
            if count > 0:
                offset += start * st
            shape.append(count)
            strides.append(st * step)
            if self.mask is not None:
                lo, hi = self.mask[d]
                # new index j is valid when lo <= start + j*step < hi
                if step > 0:
                    mask.append((-((start - lo) // step), -((start - hi) // step)))
                else:
                    mask.append(((start - hi) // -step + 1, (start - lo) // -step + 1))
        return View.make(tuple(shape), tuple(strides), offset,
                         tuple(mask) if self.mask is not None else None)

    def pad(self, widths: tuple[tuple[int, int], ...]) -> View:
        """Grow each dimension by (before, after) zeros, as a mask."""
        shape = tuple(s + b + a for s, (b, a) in zip(self.shape, widths))
        offset = self.offset - sum(b * st for (b, _), st in zip(widths, self.strides))
        old = self.mask or tuple((0, s) for s in self.shape)
        mask = tuple((lo + b, hi + b) for (lo, hi), (b, _) in zip(old, widths))
        return View.make(shape, self.strides, offset, mask)

    def reshape(self, shape: tuple[int, ...]) -> View | None:
        """The same elements as ``shape`` if one view can say it, else None."""
        if prod(shape) == 0 or prod(self.shape) == 0:
            return View.contiguous(shape)
        if self.mask is not None:
            return None   # a masked view keeps its own shape; a chain of views does the rest
        if self.strides == contiguous_strides(self.shape):
            return View.make(shape, contiguous_strides(shape), self.offset)
        old = [(s, st) for s, st in zip(self.shape, self.strides) if s != 1]
        new_strides = [0] * len(shape)
        dims = [(i, s) for i, s in enumerate(shape) if s != 1]
        oi = ni = 0
        while ni < len(dims) and oi < len(old):
            nj, oj = ni + 1, oi + 1
            n_size, o_size = dims[ni][1], old[oi][0]
            while n_size != o_size:
                if n_size < o_size:
                    n_size *= dims[nj][1]
                    nj += 1
                else:
                    o_size *= old[oj][0]
                    oj += 1
            for k in range(oi, oj - 1):
                if old[k][1] != old[k + 1][0] * old[k + 1][1]:
                    return None
            stride = old[oj - 1][1]
            for k in range(nj - 1, ni - 1, -1):
                new_strides[dims[k][0]] = stride
                stride *= dims[k][1]
            ni, oi = nj, oj
        return View.make(shape, tuple(new_strides), self.offset)

    def index(self, idx: tuple[int, ...]) -> int:
        return self.offset + sum(i * s for i, s in zip(idx, self.strides))


def unravel(linear: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    for s in reversed(shape):
        out.append(linear % s if s else 0)
        linear = linear // s if s else 0
    return tuple(reversed(out))


def merge(a: View, b: View) -> View | None:
    """One view equal to ``a`` followed by ``b`` (a's linear index read in b's shape), or None.

    Either may be masked (a padded view of a padded or sliced one: ``concat`` of slices). Each
    dimension of ``a`` must step along one dimension of b's shape, and what ``a`` reads where
    it is valid must stay inside b's shape (no carry from one coordinate into the next); b's
    mask then becomes a range of each of a's dimensions, so a dimension of b that is masked
    may be stepped along by one dimension of ``a`` at most.

    Whether two views merge, and into what, never depends on ``b``'s offset, which enters the
    result as a plain addend: the scheduler moves a window (graph.py) by shifting the last
    offset of what it composed, without composing again."""
    if b.mask is None and b.strides == contiguous_strides(b.shape):
        return a if b.offset == 0 else at_offset(a, a.offset + b.offset)
    if b.mask is None and a.is_contiguous and prod(a.shape) == prod(b.shape):
        return b.reshape(a.shape)
    if prod(a.shape) == 0:
        return View.contiguous(a.shape)
    amask = a.mask or tuple((0, s) for s in a.shape)
    if any(lo >= hi for lo, hi in amask):
        return a                # (reads nothing anywhere: a canonical all-masked view)
    # the first index where ``a`` is valid, and the coordinates of b that it reads
    first = a.offset + sum(lo * st for (lo, _), st in zip(amask, a.strides))
    if not 0 <= first < prod(b.shape):
        return None
    cstr = contiguous_strides(b.shape)
    base = unravel(first, b.shape)
    lo = list(base)
    hi = list(base)
    strides = []
    steps: list[tuple[int, int] | None] = []     # per dimension of a: (j, k) or None
    for (size, st), (mlo, mhi) in zip(zip(a.shape, a.strides), amask):
        if size == 1 or st == 0:
            strides.append(0)
            steps.append(None)
            continue
        j = next((j for j, c in enumerate(cstr) if c and abs(st) % c == 0), None)
        if j is None:
            return None
        k = st // cstr[j]
        span = k * (mhi - 1 - mlo)
        if span > 0:
            hi[j] += span
        else:
            lo[j] += span
        strides.append(k * b.strides[j])
        steps.append((j, k))
    if any(lo[j] < 0 or hi[j] >= b.shape[j] for j in range(len(b.shape))):
        return None
    offset = b.index(base) - sum(s * m for s, (m, _) in zip(strides, amask))
    if b.mask is None:
        return View.make(a.shape, tuple(strides), offset, a.mask)
    mask = list(amask)
    moved = [False] * len(b.shape)
    for d, step in enumerate(steps):
        if step is None:
            continue
        j, k = step
        if b.mask[j][0] <= lo[j] and hi[j] < b.mask[j][1]:
            continue            # (every coordinate ``a`` reads along j is valid)
        if moved[j]:
            return None         # two of a's dimensions step along one masked dimension
        moved[j] = True
        blo, bhi = b.mask[j]
        c0 = base[j] - k * amask[d][0]      # the coordinate of b at index 0 of dimension d
        if k > 0:               # blo <= c0 + k*i < bhi
            rlo, rhi = -((c0 - blo) // k), -((c0 - bhi) // k)
        else:                   # blo <= c0 - m*i < bhi, m = -k
            rlo, rhi = (c0 - bhi) // -k + 1, (c0 - blo) // -k + 1
        mask[d] = (max(mask[d][0], rlo), min(mask[d][1], rhi))
    for j, (blo, bhi) in enumerate(b.mask):
        if not moved[j] and not blo <= lo[j] <= hi[j] < bhi:
            if not a.shape:
                return None     # (a 0-d view has no mask to say that it reads nothing)
            mask = [(0, 0)] * len(a.shape)   # a fixed coordinate outside b's valid range
    return View.make(a.shape, tuple(strides), offset, tuple(mask))


ShapeTracker = tuple[View, ...]


def span(v: View) -> tuple[int, int]:
    """The elements ``[first, stop)`` of its base that a (non-empty) view can read."""
    first = last = v.offset
    for size, stride in zip(v.shape, v.strides):
        if stride > 0:
            last += (size - 1) * stride
        else:
            first += (size - 1) * stride
    return first, last + 1


def at_offset(v: View, offset: int) -> View:
    """``v`` moved to start at ``offset`` (``v._replace(offset=...)``, without its cost)."""
    return _tuple_new(View, (v.shape, v.strides, offset, v.mask))


_tuple_new = tuple.__new__


def st_shape(st: ShapeTracker) -> tuple[int, ...]:
    return st[0].shape


def compose(outer: ShapeTracker, inner: ShapeTracker) -> ShapeTracker:
    """``outer`` reads an index space that ``inner`` maps further: the chain of both, with
    neighbouring views merged wherever one view can say what two did."""
    views = list(outer) + list(inner)
    merged = True
    while merged and len(views) > 1:
        merged = False
        for i in range(len(views) - 1):
            m = merge(views[i], views[i + 1])
            if m is not None:
                views[i:i + 2] = [m]
                merged = True
                break
    return tuple(views)


def st_apply(st: ShapeTracker, fn_name: str, *args: object) -> ShapeTracker:
    """Apply a view operation to the visible view, adding a view when reshape needs one."""
    first = st[0]
    if fn_name == "reshape":
        shape = args[0]
        v = first.reshape(shape)  # type: ignore[arg-type]
        if v is not None:
            return (v,) + st[1:]
        return (View.contiguous(shape),) + st  # type: ignore[arg-type]
    return (getattr(first, fn_name)(*args),) + st[1:]


def st_index(st: ShapeTracker, idx: tuple[int, ...]) -> int | None:
    """The buffer offset of one multi-index, or None where a mask makes it read zero."""
    if not st[0].valid(idx):
        return None
    lin = st[0].index(idx)
    for v in st[1:]:
        coords = unravel(lin, v.shape)
        if not v.valid(coords):
            return None
        lin = v.index(coords)
    return lin
