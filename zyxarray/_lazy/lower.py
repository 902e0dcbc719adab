"""Lowering: a ``KernelPlan`` -> canonical form (cache key + arguments) -> kernel IR.

Layer: ``_lazy``. Builds IR through ``_codegen.ir``; reads only ``DeviceInfo`` about the
device (never its name).

Canonical form: the domain's reduced axes go last, size-1 axes are dropped and neighbouring
axes that every view walks contiguously are merged, so a 2-D contiguous add and a 1-D one are
the same kernel. The *structure* (ops, dtypes, ranks, which strides are 0 or 1, the loop
strategy) is the cache key; sizes, strides, offsets and constants are arguments. Loop
strategies for loop-style devices:

- ``elementwise``: a parallel loop over chunks of the domain, a contiguous inner loop;
- ``row``: one parallel iteration per kept point, the reduction over the contiguous axis
  with ``simd_lanes`` accumulators (so the C compiler vectorizes without reassociating);
- ``column``: the kept axis is the contiguous one: blocks of it are reduced side by side;
- ``split``: a whole-array reduction split over parallel chunks, combined at the end.

Strategies for thread-style devices (GPUs: work-groups of ``lanes`` work items):

- ``g_elementwise``: each work item computes ``ITEM_POINTS`` output points, a group's
  points side by side (coalesced), so more loads are in flight per item;
- ``g_tile``: elementwise where an operand is read transposed (``x + x.T``): a group per
  32 x 32 square of the last two axes, so every read and write covers whole segments;
- ``g_serial``: one work item per output point, looping over a short reduction;
- ``g_row``: one work-group per output point; its work items stride over the reduction and
  combine their partial results in a tree (``GROUP_REDUCE``); fused stages run one after the
  other in the same group (softmax: max, sum, then the elementwise output);
- ``g_column``: the kept axis is the contiguous one: a work-group covers ``COLUMN_WIDTH``
  neighbouring outputs (coalesced reads) times ``lanes / COLUMN_WIDTH`` slices of the
  reduction, combined in a tree;
- ``g_split``: a long whole-array reduction in two kernels (``phase`` 0 and 1): up to
  ``SPLIT_GROUPS`` groups each reduce an interleaved share into scratch memory, then one
  group combines those partial results and computes the output;
- ``g_column_split``: ``g_column`` with too few column groups to fill the device and long
  columns (k-means' ``sum(onehot, axis=0)`` of 50,000 x 8: one group, 180 us on an H100) in
  two kernels: each column group's reduction is split over ``splits`` groups, which leave
  partial results in scratch memory; then a work item per output combines its column's;
- ``g_matmul``: a sum over one axis of the product of two loads, one independent of the
  last kept axis and the other of the one before (a matrix product, with any elementwise
  epilogue): each work item computes a ``MATMUL_BLOCK`` x ``MATMUL_BLOCK`` block of outputs
  from ``MATMUL_BLOCK`` values of each operand per step (a register-blocked product: each
  load serves ``MATMUL_BLOCK`` multiply-adds; neighbouring items take neighbouring column
  blocks, so the second operand's reads are coalesced). Devices without a BLAS get it.
"""

from __future__ import annotations

import copy
import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._codegen.ir import BOOL, INDEX, Builder, Kernel, Op, identity
from .._devices.base import PARALLEL_DEFAULT, PARALLEL_FLOOR, DeviceInfo
from . import tune
from .graph import literal_value
from .schedule import Expr, KernelPlan
from .view import View

SPLIT_MIN = 1 << 15       # whole-array reductions at least this long are split over threads
SPLIT_PARTS = 64
COLUMN_BLOCK = 64
#: points that search together on a loops-style device (a ``FIRST`` reduction as a
#: ``column``): two SIMD vectors of float64 on AVX-512. A block walks until its last point
#: has found: of 16 rejection samplers each accepting with probability 0.76, about 2.9
#: attempts, against 1.3 for one point alone, computed 8 at a time
SEARCH_BLOCK = 16
GROUP = 256               # work items per work-group on thread-style devices
COLUMN_WIDTH = 32         # outputs side by side in a ``g_column`` work-group
SERIAL_MAX = 32           # reductions at most this long run in one work item each
ITEM_POINTS = 4           # output points per work item in ``g_elementwise`` (more loads in flight)
UNROLL_LOADS_MAX = 12     # group reductions reading more inputs take one point per step: their
                          # loads are in flight anyway, and four copies of the expression
                          # spilled registers (the game of life's 17-input sum, 296 VGPRs)
TILE = 32                 # ``g_tile``: the side of the square of output points a group computes
ROW_ITEM_ELEMS = 8        # ``g_row``: elements per work item the group size aims at
ROW_GROUP_MIN = 64        # ``g_row``: the smallest group
ROW_CACHE_ITEMS = 16      # ``g_row``: rows of at most this many elements per work item are
ROW_CACHE_VALUES = 64     # read once into registers (at most this many loaded values per
                          # work item: ``row_cache``)
MATMUL_BLOCK = 4          # ``g_matmul``: the side of the block of outputs a work item computes
MATMUL_MIN = 16           # ``g_matmul``: the smallest rows, columns and reduction it takes
COLUMN_GROUP = 1024       # ``g_column`` group (32 columns x 32 slices) with launch bounds
THREAD_SPLIT_MIN = 1 << 16   # whole-array reductions at least this long use ``g_split``
SPLIT_GROUPS = 1024       # at most this many groups in the first ``g_split`` kernel
COLUMN_SPLIT_ROWS = 64    # ``g_column_split``: the fewest reduced rows per work item
INTERVAL_CUTS_MAX = 4     # ``elementwise``: the inner loop is split where masks along it
                          # begin and end (at most this many cuts: a loop per interval)


@dataclass(slots=True)
class Canonical:
    """A plan in canonical form: everything needed to build the kernel, and its cache key."""

    plan: KernelPlan
    info: DeviceInfo
    outer: tuple[int, ...]
    red: tuple[int, ...]
    sts: list[tuple[View, ...]]          # loads, iotas, the output; over (outer + red) dims
    cats: list[tuple[str, ...]]          # stride category per st and dim: "0", "1" or "v"
    strategy: str
    lanes: int                           # accumulator lanes (loops) or work-group size (threads)
    key: tuple
    ints: list[int]
    floats: list[float]
    #: per int argument, the value ``lower`` writes into the kernel as a constant, or None
    #: for a real argument (``_inline_shapes``); None when every int is an argument
    fixed: tuple[int | None, ...] | None = None


def _category(stride: int) -> str:
    return "0" if stride == 0 else ("1" if stride == 1 else "v")


_parts_cache: dict[tuple, tuple] = {}


def canonicalize(plan: KernelPlan, info: DeviceInfo, lanes: int | None = None) -> Canonical:
    """The plan in canonical form, with its key and argument values.

    Everything but the constants' values depends only on the plan's shapes, views and ops,
    so that part is memoized: a repeated computation costs a dictionary lookup here. Plans
    from the scheduler's memo share ``plan.memo``, which skips even building the signature.
    ``lanes`` forces a work-group size (the tuner's candidates; not memoized).
    """
    parts = plan.memo.get(info.name) if plan.memo is not None and lanes is None else None
    sts = None
    if lanes is not None:
        parts = _canonical_parts(plan, info, lanes)
    elif parts is None:
        # views' offsets are only arguments: the signature leaves them out, so a loop over
        # rows (x[i] = f(x[i - 1])) canonicalizes once, and its offsets are put in below
        sts = [st for _, st in plan.loads] + list(plan.iotas)
        if plan.out_view is not None:
            sts.append(plan.out_view)
        sig = (info.name, plan.domain, plan.axes, plan.full, plan.out_view is not None,
               tuple([tuple([(v.shape, v.strides, v.mask) for v in st]) for st in sts]),
               len(plan.iotas), tuple(plan.exprs), plan.root, plan.output.dtype)
        parts = _parts_cache.get(sig)
        if parts is None:
            if len(_parts_cache) > 20_000:
                _parts_cache.clear()
            parts = _parts_cache[sig] = _canonical_parts(plan, info)
        if plan.memo is not None:       # (plans sharing a memo differ in offsets at most)
            plan.memo[info.name] = parts
    slots = parts[-1]
    if slots:
        if sts is None:
            sts = [st for _, st in plan.loads] + list(plan.iotas)
            if plan.out_view is not None:
                sts.append(plan.out_view)
        prefix = list(parts[7])
        for pos, offset in zip(slots, [v.offset for st in sts for v in st]):
            prefix[pos] = offset
        parts = (*parts[:7], prefix, *parts[8:])
    outer, red, sts, cats, strategy, lanes, key, prefix, suffix, const_kinds, _ = parts
    c = Canonical(plan, info, outer, red, sts, cats, strategy, lanes, key, [], [])
    const_ints, c.floats = _const_arguments(plan.consts, const_kinds)
    c.ints = prefix + const_ints + suffix
    last = key[-1]
    if type(last) is tuple and last[0] is SHAPES:     # (else the structure's root: an int)
        c.fixed = last[1]
    return c


#: marks the last element of a canonical key whose program has its shapes inlined
SHAPES = "inlined shapes"


def _inline_shapes(info: DeviceInfo, prefix: list[int], slots: list[int], others: int
                   ) -> tuple[int | None, ...] | None:
    """The sizes and view parameters (``prefix``, less the offsets at ``slots``, which move
    with a window) that a kernel for ``info`` takes as constants written into its source,
    by position; None to take them all as arguments. A device whose kernels keep every
    argument in scalar registers (AMD: ``extra["inline_shapes"]``) inlines them when the
    kernel has more arguments than that (``others``: the constants' and the strategy's):
    89 such 64-bit arguments spilled 144 scalar registers on gfx942, and constant divisors
    also make the index divisions multiplications. The program is then specific to these
    values (they join the key). The constants stay arguments: a loop that changes one
    must not compile a kernel per value."""
    limit = info.extra.get("inline_shapes")
    if limit is None or len(prefix) + others <= limit or len(prefix) == len(slots):
        return None
    moving = set(slots)
    return tuple(None if i in moving else v for i, v in enumerate(prefix))


def forget(plan: KernelPlan, info: DeviceInfo) -> None:
    """Drop the canonical forms memoized for ``plan`` on ``info`` (after a tuning choice)."""
    if plan.memo is not None:
        for key in (info.name, ("launch", info.name), ("ready", info.name)):
            plan.memo.pop(key, None)     # (the last two: realize's records of the kernel)
    _parts_cache.clear()


def _canonical_parts(plan: KernelPlan, info: DeviceInfo, forced: int | None = None) -> tuple:
    domain, axes = plan.domain, plan.axes
    order = [d for d in range(len(domain)) if d not in axes] + list(axes)
    n_outer = len(domain) - len(axes)
    keep = [d for d in order if domain[d] != 1]
    sts = [st for _, st in plan.loads] + list(plan.iotas) + [plan.out_st]
    views, masks, never = [], [], []
    for st in sts:
        v = st[0]
        views.append([v.strides[d] for d in keep])
        m = v.mask
        never.append(m is not None and any(lo >= hi for lo, hi in m))
        masks.append(None if m is None or never[-1] else [m[d] for d in keep])
    shape = [domain[d] for d in keep]
    is_red = [i >= n_outer for i in (order.index(d) for d in keep)]

    def full(m: list | None, i: int) -> bool:
        return m is None or m[i] == (0, shape[i])

    # merge neighbouring axes that every view walks contiguously (and no mask cuts)
    i = 0
    while i < len(shape) - 1:
        if is_red[i] == is_red[i + 1] and \
                all(s[i] == s[i + 1] * shape[i + 1] for s in views) and \
                all(full(m, i) and full(m, i + 1) for m in masks):
            for s in views:
                s[i] = s[i + 1]
                del s[i + 1]
            for m in masks:
                if m is not None:
                    m[i] = (0, shape[i] * shape[i + 1])
                    del m[i + 1]
            shape[i] *= shape[i + 1]
            del shape[i + 1], is_red[i + 1]
        else:
            i += 1
    outer = tuple(s for s, r in zip(shape, is_red) if not r)
    red = tuple(s for s, r in zip(shape, is_red) if r)
    canon_sts = []
    for st, strides, m, nv in zip(sts, views, masks, never):
        mask = tuple(m) if m is not None else (((0, 0),) * len(shape) if nv else None)
        if nv and not shape:
            mask = ()      # a scalar that reads nothing: ``valid`` sees the empty mask
        canon_sts.append((View(tuple(shape), tuple(strides), st[0].offset, mask),)
                         + tuple(st[1:]))
    cats = [tuple(_category(s) for s in v[0].strides) for v in canon_sts]
    strategy, lanes = _strategy(plan, outer, red, cats, info)
    if forced is not None:
        lanes = forced
    elif info.style == "threads":
        tuned = tune.choice(info, _key(plan, info, outer, red, canon_sts, cats, strategy, 0))
        lanes = lanes if tuned is None else tuned
    key = _key(plan, info, outer, red, canon_sts, cats, strategy, lanes)
    cached = row_cache(plan, strategy, red, lanes, cats)
    if cached is not None:      # (a program per items-per-work-item count: in the key)
        key = key + (("row cache", *cached),)
    if strategy == "elementwise":
        cuts = inner_intervals(canon_sts, outer)
        if cuts is not None:    # (a program per order of the masks' bounds: in the key)
            key = key + (("intervals", *cuts),)
    c = Canonical(plan, info, outer, red, canon_sts, cats, strategy, lanes, key, [], [])
    prefix, suffix, slots = _shape_arguments(c)
    const_kinds = tuple("U" if d == np.dtype(np.uint64) else d.kind
                        for d in (e.arg[1] for e in plan.exprs if e.kind == "CONST"))
    if plan.out_view is None:       # (the output's own view is contiguous: offset 0)
        slots = slots[:-1]
    fixed = _inline_shapes(info, prefix, slots, len(suffix) + sum(
        2 if k == "c" else 1 for k in const_kinds))
    if fixed is not None:       # (one program per shape: the values are part of the key)
        key = key + ((SHAPES, fixed),)
    return outer, red, canon_sts, cats, strategy, lanes, key, prefix, suffix, const_kinds, \
        slots


def _mask_pattern(v: View) -> tuple | None:
    """Which dimensions of a view are cut by its mask (part of the kernel's structure)."""
    if v.mask is None:
        return None
    if not v.mask or any(lo >= hi for lo, hi in v.mask):
        return ("never",)
    return tuple(m != (0, s) for m, s in zip(v.mask, v.shape))


def inner_intervals(sts: list[tuple[View, ...]], outer: tuple[int, ...]
                    ) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...],
                               tuple[tuple[bool, ...], ...]] | None:
    """Where the masks along an ``elementwise`` kernel's inner loop begin and end (a padded
    operand, each part of a ``concat``): the cuts, each as (view, 0 for its mask's start or 1
    for its end), in increasing order; the views masked along it; and per interval between
    the cuts (the first from 0, the last to the end) whether each of those masks holds
    there. Inside an
    interval a mask holds everywhere or nowhere, so the loop over it needs no tests (and
    vectorizes). None without masks along it or with more than ``INTERVAL_CUTS_MAX`` cuts.
    The result depends on the masks' values (the program is built for their order: it
    joins the key), the cuts' positions are the kernel's mask arguments."""
    if not outer:
        return None
    pos, n = len(outer) - 1, outer[-1]
    at: dict[int, tuple[int, int]] = {}
    cut = []
    for slot, st in enumerate(sts[:-1]):
        m = st[0].mask
        if m is None or any(lo >= hi for lo, hi in m) or m[pos] == (0, n):
            continue
        cut.append(slot)
        for side, b in enumerate(m[pos]):
            if 0 < b < n:
                at.setdefault(b, (slot, side))
    if not at or len(at) > INTERVAL_CUTS_MAX:
        return None
    edges = [0] + sorted(at) + [n]
    holds = tuple(tuple(sts[slot][0].mask[pos][0] <= lo and hi <= sts[slot][0].mask[pos][1]
                        for slot in cut)
                  for lo, hi in itertools.pairwise(edges))
    return tuple(at[b] for b in sorted(at)), tuple(cut), holds


def _levels(plan: KernelPlan) -> dict[int, int]:
    """Reduction expr -> its stage: 0 if it reads no other reduction, else 1 + theirs."""
    level: dict[int, int] = {}
    deepest: dict[int, int] = {}      # expr -> highest stage of reductions below it (-1: none)
    for i, e in enumerate(plan.exprs):
        below = max((deepest[s] for s in e.srcs), default=-1)
        if e.kind == "REDUCE":
            level[i] = below + 1
            deepest[i] = level[i]
        else:
            deepest[i] = below
    return level


def row_cache(plan: KernelPlan, strategy: str, red: tuple[int, ...], lanes: int,
              cats: list[tuple[str, ...]]) -> tuple[int, bool] | None:
    """(elements per work item, whether the group covers the row exactly) when a ``g_row``
    kernel reads its row straight into registers: short rows, at most ``ROW_CACHE_ITEMS``
    elements per work item. Each work item loads its points once, without a loop (all its
    loads in flight at once), and every stage and the output reuse them, where the strided
    loops read a row once per stage. H100, 8192 rows of 1024 float32, device time: a layer
    norm (three reads of the row) 36.6 -> 23.4 us, softmax 37.2 -> 20.5 us, logsumexp
    26.7 -> 14.8 us; read once: sum 16.4 -> 13.5 us, var 18.3 -> 14.0 us, argmax 25.1 ->
    20.0 us."""
    if strategy != "g_row":
        return None
    levels = _levels(plan)
    if not levels:
        return None
    if any(plan.exprs[i].dtype == np.float16 or plan.exprs[i].dtype.kind == "c"
           for i in levels):      # (their accumulators are wider than their values)
        return None
    n = math.prod(red)
    per = -(-n // lanes)
    k = len(cats[-1]) - len(red)
    along = sum(1 for c in cats[:len(plan.loads)] if any(x != "0" for x in c[k:]))
    if per > ROW_CACHE_ITEMS or per * max(along, 1) > ROW_CACHE_VALUES:
        return None
    return per, per * lanes == n


def is_scan(plan: KernelPlan) -> bool:
    """True for a scan kernel (its root is a SCAN; its one reduced axis is the scanned one)."""
    return plan.exprs[plan.root].kind == "SCAN"


def _searches(plan: KernelPlan) -> set[int]:
    """The plan's ``FIRST`` reductions (searches that may stop early), by position."""
    return {i for i, e in enumerate(plan.exprs) if e.kind == "REDUCE" and e.arg is Op.FIRST}


def _strategy(plan: KernelPlan, outer: tuple[int, ...], red: tuple[int, ...],
              cats: list[tuple[str, ...]], info: DeviceInfo) -> tuple[str, int]:
    if is_scan(plan) and red:
        return _scan_strategy(plan, outer, red, cats, info)
    if len(red) == 1 and _searches(plan):
        # each point walks its own axis in order and stops computing once it has found
        # (``reduce_loops``): a rejection sampler's 16 to 40 attempts cost one or two
        if info.style == "threads":
            return "g_serial", 1 << (min(GROUP, max(info.max_work_group, 1)).bit_length() - 1)
        if outer and len(_levels(plan)) == 1:
            # a block of points searches together, their lanes vectorized, until every
            # one has found (``_lower_column``): 8,000 binomials 1.8 -> 0.65 ms on the cpu
            return "column", SEARCH_BLOCK
        return "row", 1
    if info.style == "threads":
        return _thread_strategy(plan, outer, red, cats, info)
    if not red:
        return "elementwise", 1
    lanes = max(info.simd_lanes, 1)
    loads = cats[:len(plan.loads)]
    k = len(outer)
    if k == 0 and len(red) == 1 and red[0] >= SPLIT_MIN and \
            max(_levels(plan).values(), default=0) == 0 and plan.full is False:
        return "split", lanes
    along_row, along_column = _contiguous_reads(loads, outer + red, k)
    if along_column > along_row:
        return "column", COLUMN_BLOCK
    return "row", lanes


def _contiguous_reads(loads: list[tuple[str, ...]], shape: tuple[int, ...], k: int
                      ) -> tuple[int, int]:
    """The elements that loads contiguous along the reduction (a row) read, and those that
    loads contiguous along the last kept axis (a column) read: the layout of the larger
    decides the loop order. ``sum(x * s[:, None], axis=0)`` of 4096 x 1024 went by rows
    because ``s`` (4096 elements) is contiguous along them, and walked x's columns, one
    cache line a load: 14.7 ms, NumPy 5.3."""
    def reads(cat: tuple[str, ...]) -> int:
        return math.prod(n for n, c in zip(shape, cat) if c != "0")

    row = sum(reads(c) for c in loads if c and c[-1] == "1")
    column = sum(reads(c) for c in loads if k and c[k - 1] == "1") if k else 0
    return row, column


def _column_splits(outer: tuple[int, ...], red: tuple[int, ...], lanes: int,
                   info: DeviceInfo) -> int:
    """Into how many groups ``g_column_split`` splits each column group's reduction: enough
    for about two groups per compute unit, each work item keeping at least
    ``COLUMN_SPLIT_ROWS`` rows; 1 (no split) where the column groups fill the device."""
    groups = math.ceil(outer[-1] / COLUMN_WIDTH) * math.prod(outer[:-1])
    want = 2 * max(info.compute_units, 1)
    if groups == 0 or 2 * groups >= want:
        return 1
    slices = max(lanes // COLUMN_WIDTH, 1)
    return max(1, min(math.ceil(want / groups), math.prod(red) // (slices * COLUMN_SPLIT_ROWS),
                      SPLIT_GROUPS))


def _scan_strategy(plan: KernelPlan, outer: tuple[int, ...], red: tuple[int, ...],
                   cats: list[tuple[str, ...]], info: DeviceInfo) -> tuple[str, int]:
    if info.style != "threads":
        return "scan", 1
    size = 1 << (min(GROUP, max(info.max_work_group, 1)).bit_length() - 1)
    along_row, along_column = _contiguous_reads(cats[:len(plan.loads)], outer + red, len(outer))
    if along_column > along_row:
        return "g_scan_serial", size
    return "g_scan", size


def _thread_strategy(plan: KernelPlan, outer: tuple[int, ...], red: tuple[int, ...],
                     cats: list[tuple[str, ...]], info: DeviceInfo) -> tuple[str, int]:
    size = 1 << (min(GROUP, max(info.max_work_group, 1)).bit_length() - 1)
    if not red:
        loads = cats[:len(plan.loads)]
        if len(outer) >= 2 and size == GROUP and outer[-1] >= TILE and outer[-2] >= TILE and \
                any(c[-1] != "1" and c[-2] == "1" for c in loads):
            # a load walks the output's rows in its columns (a transpose): square tiles
            return "g_tile", size
        return "g_elementwise", size
    loads = cats[:len(plan.loads)]
    k = len(outer)
    if _matmul_operands(plan, outer, red, cats) is not None:
        return "g_matmul", size
    along_row, along_column = _contiguous_reads(loads, outer + red, k)
    if k and size >= 2 * COLUMN_WIDTH and along_column > along_row:
        lanes = size
        if info.launch_bounds:        # (a register-hungry kernel may not reach 1024 items)
            lanes = 1 << (min(COLUMN_GROUP, max(info.max_work_group, 1)).bit_length() - 1)
        if plan.full is False and max(_levels(plan).values(), default=0) == 0 and \
                _column_splits(outer, red, lanes, info) > 1:
            return "g_column_split", lanes
        return "g_column", lanes
    if k == 0 and math.prod(red) >= THREAD_SPLIT_MIN and plan.full is False and \
            max(_levels(plan).values(), default=0) == 0:
        return "g_split", size
    if math.prod(red) <= SERIAL_MAX:
        return "g_serial", size
    # about ROW_ITEM_ELEMS elements per work item: a short row in a big group leaves most of
    # the group's time to the combine (H100, 65536 rows of 1024 float32: var at 2.58 TB/s
    # with 128 items against 1.89 with 256)
    want = 1 << max(math.ceil(math.prod(red) / ROW_ITEM_ELEMS) - 1, 1).bit_length()
    return "g_row", max(min(want, size), min(ROW_GROUP_MIN, size))


def _matmul_operands(plan: KernelPlan, outer: tuple[int, ...], red: tuple[int, ...],
                     cats: list[tuple[str, ...]]) -> tuple[int, int] | None:
    """A matrix product's expressions: (index of the REDUCE expr, of its MUL) where the plan
    is a sum over one axis of a product of two operands (loads or elementwise expressions of
    them) that vary along it, the first independent of the last kept axis and the second of
    the one before, sizes at least ``MATMUL_MIN``; None otherwise."""
    k = len(outer)
    if len(red) != 1 or k < 2 or min(outer[-1], outer[-2], red[0]) < MATMUL_MIN:
        return None
    reduces = [i for i, e in enumerate(plan.exprs) if e.kind == "REDUCE"]
    if len(reduces) != 1:
        return None
    e = plan.exprs[reduces[0]]
    prod = plan.exprs[e.srcs[0]]
    if e.arg is not Op.ADD or prod.kind != "ALU" or prod.arg is not Op.MUL or \
            e.dtype.kind not in "fiu":
        return None
    deps: dict[int, set[int]] = {}     # expr -> the axes it varies along
    for i, x in enumerate(plan.exprs):
        if x.kind in ("LOAD", "IOTA", "VALID"):
            cat = cats[x.arg if x.kind == "LOAD" else len(plan.loads) + x.arg]
            deps[i] = {ax for ax, c in enumerate(cat) if c != "0"}
        elif x.kind in ("CONST", "LIT", "ALU", "CAST"):
            deps[i] = set().union(*(deps[s] for s in x.srcs)) if x.srcs else set()
        else:                           # (the reduction itself, scans: not in an operand)
            deps[i] = {-1}
    a, b = (deps[s] for s in prod.srcs)
    if -1 in a or -1 in b:
        return None
    if k - 1 not in a and k - 2 not in b and k - 2 in a and k - 1 in b and k in a and k in b:
        return reduces[0], e.srcs[0]
    return None


def _key(plan: KernelPlan, info: DeviceInfo, outer: tuple[int, ...], red: tuple[int, ...],
         sts: list[tuple[View, ...]], cats: list[tuple[str, ...]], strategy: str,
         lanes: int) -> tuple:
    loads = tuple((node.dtype.str if i < len(plan.loads) else "iota", cats[i],
                   tuple((len(v.shape), v.mask is not None) for v in sts[i][1:]),
                   _mask_pattern(sts[i][0]))
                  for i, node in enumerate([n for n, _ in plan.loads] + [None] * len(plan.iotas)))
    exprs = tuple((e.kind, e.dtype.str, e.srcs,
                   e.arg if e.kind != "CONST" else e.arg[1].str) for e in plan.exprs)
    return (info.name, strategy, lanes, len(outer), len(red), plan.full, loads,
            plan.output.dtype.str, cats[-1], tuple(len(v.shape) for v in sts[-1][1:]),
            exprs, plan.root)


# -- arguments --------------------------------------------------------------------------------
def _const_ints(value: Any, dtype: np.dtype) -> int:
    if dtype.kind == "u":
        v = int(value) & ((1 << 64) - 1)
        return v - (1 << 64) if v >= 1 << 63 else v
    return int(value)


# The int arguments are, in the order ``lower`` declares them: sizes, view parameters
# (``prefix``), integer constants, then strategy parameters and the parallel flag (``suffix``).
def _shape_arguments(c: Canonical) -> tuple[list[int], list[int], list[int]]:
    """(the int arguments before the constants', those after, and where in the first list
    each view's offset goes: every view of every ShapeTracker in order)."""
    ints: list[int] = list(c.outer) + list(c.red)
    slots: list[int] = []
    for st, cat in zip(c.sts, c.cats):
        v0 = st[0]
        ints += [s for s, k in zip(v0.strides, cat) if k == "v"]
        slots.append(len(ints))
        ints.append(v0.offset)
        if _mask_pattern(v0) not in (None, ("never",)):
            for (lo, hi), s in zip(v0.mask, v0.shape):
                if (lo, hi) != (0, s):
                    ints += [lo, hi]
        for v in st[1:]:
            ints += list(v.shape) + list(v.strides)
            slots.append(len(ints))
            ints.append(v.offset)
            if v.mask is not None:
                ints += [x for pair in v.mask for x in pair]
    suffix = _strategy_args(c)
    # (the domain's points against what the device measured a thread team to cost. Points
    # are not weighted by their transcendental ops: on 16 cores a logistic regression's
    # sigmoid of 20,000 points, next to the BLAS's threads, then ran on the team and the
    # program took 36 -> 42-51 ms)
    total = math.prod(c.outer) * math.prod(c.red)
    parallel = 0
    if c.info.compute_units > 1 and total >= PARALLEL_FLOOR:
        limit = c.info.extra.get("parallel_work", PARALLEL_DEFAULT)
        if callable(limit):     # (the device measures it on first use)
            limit = limit()
        parallel = int(total >= limit)
    suffix.append(parallel)
    return ints, suffix, slots


def _const_arguments(consts: list[Any], kinds: tuple[str, ...]) -> tuple[list[int], list[float]]:
    """Constant values as int64/float64 kernel arguments. ``kinds`` is each constant's dtype
    kind, "U" for uint64 (its values above 2**63 wrap to negative int64)."""
    ints: list[int] = []
    floats: list[float] = []
    for value, kind in zip(consts, kinds):
        if kind in "biu":
            ints.append(int(value))
        elif kind == "U":
            ints.append(_const_ints(value, np.dtype(np.uint64)))
        elif kind == "f":
            floats.append(float(value))
        else:
            z = complex(value)
            floats += [z.real, z.imag]
    return ints, floats


def _strategy_args(c: Canonical) -> list[int]:
    threads = max(c.info.compute_units, 1)
    if c.strategy == "elementwise":
        outer = c.outer or (1,)
        last = outer[-1]
        rest = math.prod(outer[:-1])
        want = 4 * threads
        if rest >= want or last <= 8192:
            n = 1
        else:
            n = min(math.ceil(last / 8192), math.ceil(want / max(rest, 1)))
        chunk = math.ceil(last / n) if last else 1
        return [chunk, math.ceil(last / chunk) if last else 0]
    if c.strategy == "split":
        return [math.ceil(c.red[0] / SPLIT_PARTS)]
    if c.strategy == "column":
        return [math.ceil(c.outer[-1] / c.lanes)]
    outer = math.prod(c.outer)
    if c.strategy == "g_elementwise":
        return [math.ceil(outer / (c.lanes * ITEM_POINTS))]
    if c.strategy == "g_tile":
        across = math.ceil(c.outer[-1] / TILE)
        return [across * math.ceil(c.outer[-2] / TILE) * math.prod(c.outer[:-2]), across,
                math.ceil(c.outer[-2] / TILE)]
    if c.strategy == "g_serial":
        return [math.ceil(outer / c.lanes)]
    if c.strategy in ("g_row", "g_scan"):
        return [outer]
    if c.strategy == "g_scan_serial":
        return [math.ceil(outer / c.lanes)]
    if c.strategy == "g_column":
        blocks = math.ceil(c.outer[-1] / COLUMN_WIDTH)
        return [blocks * math.prod(c.outer[:-1]), blocks]
    if c.strategy == "g_split":
        return [min(math.ceil(math.prod(c.red) / (c.lanes * 8)), SPLIT_GROUPS), 1]
    if c.strategy == "g_column_split":
        # (groups of the first kernel, groups of the second: an item per output point;
        # column blocks, splits)
        blocks = math.ceil(c.outer[-1] / COLUMN_WIDTH)
        splits = _column_splits(c.outer, c.red, c.lanes, c.info)
        return [blocks * math.prod(c.outer[:-1]) * splits, math.ceil(outer / c.lanes),
                blocks, splits]
    if c.strategy == "g_matmul":
        rows = math.ceil(c.outer[-2] / MATMUL_BLOCK)
        cols = math.ceil(c.outer[-1] / MATMUL_BLOCK)
        items = rows * cols * math.prod(c.outer[:-2])
        return [math.ceil(items / c.lanes), items, cols, rows]
    return []


# -- IR ---------------------------------------------------------------------------------------
class _Lowerer:
    def __init__(self, c: Canonical, name: str, phase: int = 0) -> None:
        self.c = c
        self.phase = phase
        self.b = Builder(name)
        self.plan = c.plan
        # FIRST reductions combine as MIN; ``reduce_loops`` lets a serial walk stop early
        self.searches = _searches(c.plan)
        if self.searches:
            plan = copy.copy(c.plan)
            plan.exprs = [e._replace(arg=Op.MIN) if i in self.searches else e
                          for i, e in enumerate(c.plan.exprs)]
            self.plan = plan
        self.reduce_values: dict[int, Any] = {}
        self.lane: int | None = None
        self.stashing: int | None = None   # expr the running reduction also stores (row)
        self.stashed: int | None = None    # expr read back from the output (row)
        self.unmasked: int | None = None   # loop position whose masks hold (elementwise)
        self.along: dict[int, bool] | None = None  # view -> its mask along the inner loop
        # holds (True) or fails (False) in the interval being lowered (``inner_intervals``)
        self.clamped = False               # the last ``index`` clamped its coordinates
        self.clamp_outer = c.strategy == "elementwise"
        self.row_valid: int | None = None  # a cached row's point is in the row (``_cached_row``)
        self.row_base: list[int] | None = None  # a cached row's point for what does not vary
        self.row_varies: set[int] = set()       # along it, and the exprs that do

    def declare(self) -> None:
        b, c = self.b, self.c
        if c.fixed is not None:     # (the inlined sizes and view parameters: constants)
            b.fixed = c.fixed
        self.bufs = [b.buf(node.dtype, False) for node, _ in self.plan.loads]
        self.out = b.buf(self.plan.output.dtype, True)
        # g_split: one scratch buffer of partial results per reduction (after the output)
        self.scratch = {i: b.buf(self.plan.exprs[i].dtype, True) for i in self.split_reduces()}
        k = len(c.outer)
        self.outer_sizes = [b.int_arg() for _ in c.outer]
        self.red_sizes = [b.int_arg() for _ in c.red]
        self.st_params = []
        for st, cat in zip(c.sts, c.cats):
            strides = [b.const(0) if kk == "0" else b.const(1) if kk == "1" else b.int_arg()
                       for kk in cat]
            offset = b.int_arg()
            v0 = st[0]
            mask: Any = None
            if v0.mask is not None:
                if not v0.mask or any(lo >= hi for lo, hi in v0.mask):
                    mask = "never"
                else:
                    mask = [None if m == (0, n) else (b.int_arg(), b.int_arg())
                            for m, n in zip(v0.mask, v0.shape)]
            deeper = []
            for v in st[1:]:
                n = len(v.shape)
                params = ([b.int_arg() for _ in range(n)], [b.int_arg() for _ in range(n)],
                          b.int_arg())
                dmask = None if v.mask is None else [(b.int_arg(), b.int_arg())
                                                     for _ in range(n)]
                deeper.append((*params, dmask))
            self.st_params.append((strides, offset, deeper, mask))
        self.consts = {}
        for i, e in enumerate(self.plan.exprs):
            if e.kind == "LIT":     # (rounded to its dtype already: as a cast would)
                self.consts[i] = b.const(literal_value(e.arg[0]), e.arg[1])
                continue
            if e.kind != "CONST":
                continue
            dtype = e.arg[1]
            if dtype.kind in "biu":
                v = b.int_arg()
                self.consts[i] = b.cast(v, dtype) if dtype != INDEX else v
            elif dtype.kind == "f":
                self.consts[i] = b.cast(b.float_arg(), dtype)
            else:
                part = np.empty(0, dtype).real.dtype
                re = b.cast(b.float_arg(), part)
                im = b.cast(b.float_arg(), part)
                self.consts[i] = b.alu(Op.COMPLEX, re, im, dtype=dtype)
        self.strategy_args = [b.int_arg() for _ in _strategy_args(c)]
        self.par = b.int_arg()
        del k

    # index arithmetic
    def index(self, slot: int, env: list[int]) -> tuple[int, int | None]:
        """(the element offset, a bool that is false where a mask reads zero, or None)."""
        b = self.b
        strides, offset, deeper, mask = self.st_params[slot]
        valid: int | None = None
        inner = len(env) - 1
        along = None if self.along is None else self.along.get(slot)
        clamp = False
        if mask == "never" or along is False:
            valid = b.const(False, BOOL)
        elif mask is not None:
            # where this view's mask along an elementwise kernel's inner loop holds (or it
            # has none there), its tests on the outer positions are the same all along the
            # loop: the coordinates are clamped into the mask, so that the load is in bounds
            # and contiguous (it vectorizes), and the test selects its value (``_value``)
            clamp = self.clamp_outer and bool(env) and not deeper and \
                slot < len(self.st_params) - 1 and (     # (loads: a store is never clamped)
                mask[inner] is None or along is True or inner == self.unmasked)
            for pos, (var, m) in enumerate(zip(env, mask)):
                if m is not None and pos != self.unmasked and not (along and pos == inner):
                    valid = self._and(valid, self._in_range(var, m))
        lin = offset
        for pos, (var, st) in enumerate(zip(env, strides)):
            if clamp and mask[pos] is not None and pos != inner:
                lo, hi = mask[pos]
                var = b.emit(Op.MIN, INDEX, (b.emit(Op.MAX, INDEX, (var, lo)),
                                             b.idx(Op.SUB, hi, b.const(1))))
            lin = b.idx(Op.ADD, lin, b.idx(Op.MUL, var, st))
        for shape, dstrides, doff, dmask in deeper:
            acc = doff
            coords = []
            for n, s in zip(reversed(shape), reversed(dstrides)):
                coord = self._nonneg(Op.MOD, lin, n)
                lin = self._nonneg(Op.IDIV, lin, n)
                acc = b.idx(Op.ADD, acc, b.idx(Op.MUL, coord, s))
                coords.append(coord)
            if dmask is not None:
                for coord, m in zip(reversed(coords), dmask):
                    valid = self._and(valid, self._in_range(coord, m))
            lin = acc
        if clamp and valid is not None:
            self.clamped = True
        return lin, valid

    def _in_range(self, var: int, bounds: tuple[int, int]) -> int:
        b = self.b
        lo, hi = bounds
        return b.alu(Op.AND, b.alu(Op.CMPLE, lo, var), b.alu(Op.CMPLT, var, hi))

    def _and(self, a: int | None, c: int) -> int:
        return c if a is None else self.b.alu(Op.AND, a, c)     # (the builder folds consts)

    def _nonneg(self, op: Op, a: int, n: int) -> int:
        """Division of non-negative index values (rendered as plain / and %)."""
        return self.b.emit(op, INDEX, (a, n), "index")

    def unravel(self, flat: int, sizes: list[int]) -> list[int]:
        out = []
        for n in reversed(sizes[1:]):
            out.append(self._nonneg(Op.MOD, flat, n))
            flat = self._nonneg(Op.IDIV, flat, n)
        if sizes:
            out.append(flat)
        return list(reversed(out))

    def value(self, i: int, env: list[int]) -> int:
        """The IR value of expression ``i`` at the domain point ``env``.

        Memoized per (expression, point, lane, stash) in the builder's scopes: an expression
        DAG that reuses a value (a Newton step reads x twice) is lowered once per use site
        of the DAG, not once per path to it, so lowering is linear in the plan's size."""
        if self.row_base is not None and i not in self.row_varies:
            env = self.row_base     # (the same at every point of a cached row: once)
        key = (i, tuple(env), self.lane, self.stashed)
        hit = self.b.recall(key)
        if hit is not None:
            return hit
        out = self._value(i, env)
        self.b.remember(key, out)
        return out

    def _value(self, i: int, env: list[int]) -> int:
        e: Expr = self.plan.exprs[i]
        b = self.b
        if i == self.stashed:        # computed once by the last reduction loop (``_stash``)
            return b.load(self.out, self.index(len(self.st_params) - 1, env)[0])
        if e.kind == "LOAD":
            self.clamped = False
            idx, valid = self.index(e.arg, env)
            if self.row_valid is not None and env is not self.row_base:
                valid = self._and(valid, self.row_valid)
            if valid is None:
                return b.load(self.bufs[e.arg], idx)
            if b.instrs[valid].op is Op.CONST:      # (fails everywhere in this interval)
                return b.const(0, e.dtype)
            if self.clamped:        # (in bounds everywhere: loaded, then selected)
                return b.alu(Op.WHERE, valid, b.load(self.bufs[e.arg], idx),
                             b.const(0, e.dtype))
            return b.emit(Op.LOAD, e.dtype, (self.bufs[e.arg], idx, valid))
        if e.kind == "CONST" or e.kind == "LIT":
            return self.consts[i]
        if e.kind == "IOTA":
            idx, valid = self.index(len(self.plan.loads) + e.arg, env)
            return idx if valid is None else b.alu(Op.WHERE, valid, idx, b.const(0))
        if e.kind == "VALID":
            _, valid = self.index(len(self.plan.loads) + e.arg, env)
            return b.const(True, BOOL) if valid is None else valid
        if e.kind == "SCAN":
            return self.reduce_values[i]
        if e.kind == "REDUCE":
            if not self.c.red:
                # every reduced axis has size 1: the reduction is the element itself
                return b.cast(self.value(e.srcs[0], env), e.dtype)
            acc = self.reduce_values[i]
            if self.lane is not None and b.instrs[acc].op is Op.ACC:
                return b.emit(Op.ACC_GET, e.dtype, (acc, self.lane))
            return acc
        srcs = [self.value(s, env) for s in e.srcs]
        if e.kind == "CAST":
            return b.cast(srcs[0], e.dtype)
        return b.alu(e.arg, *srcs, dtype=e.dtype)

    def stages(self) -> list[list[int]]:
        levels = _levels(self.plan)
        if not levels:
            return []
        return [[i for i, lv in levels.items() if lv == n] for n in range(max(levels.values()) + 1)]

    def _reduced_value(self, i: int, env: list[int]) -> int:
        """The value reduction ``i`` combines at ``env`` (stored in the output too when it is
        the stashed expression, see ``_stash``)."""
        src = self.plan.exprs[i].srcs[0]
        v = self.value(src, env)
        if src == self.stashing:
            self.b.store(self.out, self.index(len(self.st_params) - 1, env)[0], v)
        return v

    def _stop_of(self, i: int) -> int | None:
        """The expression a ``FIRST`` reduction ``i`` reads where nothing is found (its
        WHERE's third operand, a constant), or None: not a search, or not of that form (then
        it is walked whole, as the MIN it is)."""
        if i not in self.searches:
            return None
        src = self.plan.exprs[self.plan.exprs[i].srcs[0]]
        if src.kind != "ALU" or src.arg is not Op.WHERE or \
                self.plan.exprs[src.srcs[2]].kind not in ("CONST", "LIT"):
            return None
        return src.srcs[2]

    def _search_stop(self, i: int, env: list[int]) -> int | None:
        """The IR value of ``_stop_of(i)``, or None."""
        stop = self._stop_of(i)
        return None if stop is None else self.value(stop, env)

    def reduce_loops(self, group: list[int], accs: dict[int, int], env: list[int],
                     red_dims: list[int], start: int | None = None, end: int | None = None,
                     lane_split: bool = True) -> None:
        """Nested loops over the reduced axes updating ``accs`` (lane-split innermost)."""
        b = self.b
        k = len(self.c.outer)
        zero = b.const(0)
        opened = []
        for j in red_dims[:-1]:
            r = b.range(zero, self.red_sizes[j], "reduce")
            env[k + j] = r
            opened.append(r)
        j = red_dims[-1]
        lo = zero if start is None else start
        hi = self.red_sizes[j] if end is None else end
        lanes = self.c.lanes if lane_split else 1
        if lanes > 1:
            count = b.idx(Op.SUB, hi, lo)
            L = b.const(lanes)
            nfull = self._nonneg(Op.IDIV, count, L)
            rb = b.range(zero, nfull, "reduce")
            ln = b.range(zero, L, "lane")
            env[k + j] = b.idx(Op.ADD, lo, b.idx(Op.ADD, b.idx(Op.MUL, rb, L), ln))
            for i in group:
                b.acc_update(accs[i], ln, self._reduced_value(i, env))
            b.end(ln)
            b.end(rb)
            lo = b.idx(Op.ADD, lo, b.idx(Op.MUL, nfull, L))
        rt = b.range(lo, hi, "reduce")
        env[k + j] = rt
        for i in group:
            stop = self._search_stop(i, env) if not opened and lanes == 1 else None
            if stop is None:
                b.acc_update(accs[i], zero, self._reduced_value(i, env))
                continue
            # a search: min(acc, stop) is the first value found so far, or stop; the
            # point's condition and value are computed only while it is stop
            so_far = b.emit(Op.ACC_SCAN, self.plan.exprs[i].dtype, (accs[i], zero, stop))
            searching = b.if_(b.alu(Op.CMPEQ, so_far, stop))
            b.acc_update(accs[i], zero, self._reduced_value(i, env))
            b.end(searching)
        b.end(rt)
        for r in reversed(opened):
            b.end(r)

    def lower(self) -> Kernel:
        self.declare()
        getattr(self, f"_lower_{self.c.strategy}")()
        par_index = self.b.instrs[self.par].arg
        meta: dict[str, Any] = {"parallel_arg": par_index, "strategy": self.c.strategy}
        if self.c.info.style == "threads":
            groups = self.strategy_args[self.phase]
            meta.update(local_size=self.c.lanes, fp64=self.c.info.float64,
                        groups_arg=self.b.instrs[groups].arg)
            controls = self.c.info.extra.get("float_controls")
            if controls:     # (float behaviour a device keeps only when asked: Vulkan)
                meta.update(float_controls=tuple(controls))
            push = self.c.info.extra.get("push_constants")
            if push:         # (bytes of arguments a launch can push: Vulkan)
                meta.update(push_constants=int(push))
            if self.c.info.extra.get("addresses"):     # (buffers by address: Vulkan)
                meta.update(addresses=True)
            fused = self.c.info.extra.get("fused_fma")
            if fused and any(fused):   # (GLSL's Fma rounds once: float32, float64)
                meta.update(fused_fma=tuple(fused))
            subgroup = self.c.info.extra.get("subgroup")
            if subgroup:     # (a fixed subgroup size with shuffles: Vulkan's group reduce)
                meta.update(subgroup=int(subgroup))
        if self.scratch:
            meta.update(phase=self.phase)
        return self.b.finish(**meta)

    def _store(self, env: list[int]) -> None:
        b = self.b
        v = b.cast(self.value(self.plan.root, env), self.plan.output.dtype)
        b.store(self.out, self.index(len(self.st_params) - 1, env)[0], v)

    def _lower_elementwise(self) -> None:
        b = self.b
        sizes = self.outer_sizes or [b.const(1)]
        chunk, nchunks = self.strategy_args
        zero = b.const(0)
        total = nchunks
        for s in sizes[:-1]:
            total = b.idx(Op.MUL, total, s)
        g = b.range(zero, total, "global")
        c = self._nonneg(Op.MOD, g, nchunks)
        rest = self._nonneg(Op.IDIV, g, nchunks)
        env = self.unravel(rest, sizes[:-1])
        start = b.idx(Op.MUL, c, chunk)
        end = b.emit(Op.MIN, INDEX, (b.idx(Op.ADD, start, chunk), sizes[-1]))
        pos = len(env)
        los, his = self._masks_along(pos) if pos < len(self.c.outer) else ([], [])
        cuts = inner_intervals(self.c.sts, self.c.outer) if los else None
        if cuts is not None:
            # a loop per interval between the cuts, each mask along it holding or failing
            # everywhere there (each part of a concat reads only in its own interval)
            refs, masked, holds = cuts
            bounds = [start]
            for slot, side in refs:
                at = self.st_params[slot][3][pos][side]
                bounds.append(b.emit(Op.MIN, INDEX, (b.emit(Op.MAX, INDEX, (at, start)), end)))
            bounds.append(end)
            for k, pattern in enumerate(holds):
                self.along = dict(zip(masked, pattern))
                i = b.range(bounds[k], bounds[k + 1], "inner")
                self._store(env + [i])
                b.end(i)
            self.along = None
        elif not los:
            i = b.range(start, end, "inner")
            self._store((env + [i])[:len(self.c.outer)])
            b.end(i)
        else:
            # masks along the inner loop (a padded operand, a concat): the points where
            # every one of them holds get a loop of their own without the tests, which
            # vectorizes; the edges before and after it keep them
            lo, hi = start, end
            for m in los:
                lo = b.emit(Op.MAX, INDEX, (lo, m))
            for m in his:
                hi = b.emit(Op.MIN, INDEX, (hi, m))
            lo = b.emit(Op.MIN, INDEX, (lo, end))
            hi = b.emit(Op.MAX, INDEX, (hi, lo))
            for first, last, inside in ((start, lo, False), (lo, hi, True), (hi, end, False)):
                self.unmasked = pos if inside else None
                i = b.range(first, last, "inner")
                self._store(env + [i])
                b.end(i)
            self.unmasked = None
        b.end(g)

    def _masks_along(self, pos: int) -> tuple[list[int], list[int]]:
        """The bounds (int arguments) of every top-level mask on loop position ``pos``."""
        los, his = [], []
        for _, _, _, mask in self.st_params:
            if isinstance(mask, list) and mask[pos] is not None:
                los.append(mask[pos][0])
                his.append(mask[pos][1])
        return los, his

    def _outer_loop(self) -> tuple[int, list[int]]:
        b = self.b
        total = b.const(1)
        for s in self.outer_sizes:
            total = b.idx(Op.MUL, total, s)
        g = b.range(b.const(0), total, "global")
        return g, self.unravel(g, self.outer_sizes)

    def _lower_row(self) -> None:
        b = self.b
        k, m = len(self.c.outer), len(self.c.red)
        g, outer_env = self._outer_loop()
        env = outer_env + [b.const(0)] * m
        stages = self.stages()
        stash = self._stash(stages)
        for n, group in enumerate(stages):
            accs = {i: b.acc(self.plan.exprs[i].arg, self.plan.exprs[i].dtype, self.c.lanes)
                    for i in group}
            self.stashing = stash if n == len(stages) - 1 else None
            self.reduce_loops(group, accs, list(env), list(range(m)))
            self.stashing = None
            for i in group:
                self.reduce_values[i] = b.emit(Op.ACC_RESULT, self.plan.exprs[i].dtype,
                                               (accs[i],))
        self.stashed = stash
        self._finish_outputs(env, k, m)
        self.stashed = None
        b.end(g)

    def _stash(self, stages: list[list[int]]) -> int | None:
        """The expression worth keeping in the output between the last reduction and the
        output loop: softmax's exp(x - max) is summed, then divided by the sum; computing it
        once, storing it where the output goes and reading it back there saves the second
        exp. Only for a full output that owns every point of the domain once."""
        plan = self.plan
        if not plan.full or plan.into or not stages or len(stages[-1]) != 1:
            return None
        out_view = self.c.sts[-1][0]
        if len(self.c.sts[-1]) > 1 or out_view.mask is not None or "0" in self.c.cats[-1]:
            return None
        src = plan.exprs[stages[-1][0]].srcs[0]
        e = plan.exprs[src]
        if e.kind in ("LOAD", "CONST", "LIT", "IOTA") or e.dtype != plan.output.dtype:
            return None
        seen, todo = set(), [plan.root]
        while todo:
            i = todo.pop()
            if i == src:
                return src
            if i not in seen and plan.exprs[i].kind != "REDUCE":
                seen.add(i)
                todo.extend(plan.exprs[i].srcs)
        return None

    def _finish_outputs(self, env: list[int], k: int, m: int) -> None:
        b = self.b
        if self.plan.full:
            opened = []
            env = list(env)
            for j in range(m):
                r = b.range(b.const(0), self.red_sizes[j], "inner")
                env[k + j] = r
                opened.append(r)
            self._store(env)
            for r in reversed(opened):
                b.end(r)
        else:
            self._store(env)

    def _lower_split(self) -> None:
        b = self.b
        (chunk,) = self.strategy_args
        n = self.red_sizes[0]
        group = self.stages()[0]
        outer_accs = {i: b.acc(self.plan.exprs[i].arg, self.plan.exprs[i].dtype, SPLIT_PARTS)
                      for i in group}
        g = b.range(b.const(0), b.const(SPLIT_PARTS), "global")
        start = b.emit(Op.MIN, INDEX, (b.idx(Op.MUL, g, chunk), n))
        end = b.emit(Op.MIN, INDEX, (b.idx(Op.ADD, start, chunk), n))
        accs = {i: b.acc(self.plan.exprs[i].arg, self.plan.exprs[i].dtype, self.c.lanes)
                for i in group}
        self.reduce_loops(group, accs, [b.const(0)], [0], start, end)
        for i in group:
            part = b.emit(Op.ACC_RESULT, self.plan.exprs[i].dtype, (accs[i],))
            b.acc_update(outer_accs[i], g, part)
        b.end(g)
        for i in group:
            self.reduce_values[i] = b.emit(Op.ACC_RESULT, self.plan.exprs[i].dtype,
                                           (outer_accs[i],))
        self._store([b.const(0)])

    def _lower_column(self) -> None:
        b = self.b
        k, m = len(self.c.outer), len(self.c.red)
        (nblk,) = self.strategy_args
        zero = b.const(0)
        B = b.const(self.c.lanes)
        total = nblk
        for s in self.outer_sizes[:-1]:
            total = b.idx(Op.MUL, total, s)
        g = b.range(zero, total, "global")
        blk = self._nonneg(Op.MOD, g, nblk)
        rest = self._nonneg(Op.IDIV, g, nblk)
        env = self.unravel(rest, self.outer_sizes[:-1]) + [zero] + [zero] * m
        c0 = b.idx(Op.MUL, blk, B)
        cnt = b.emit(Op.MIN, INDEX, (B, b.idx(Op.SUB, self.outer_sizes[-1], c0)))
        for group in self.stages():
            accs = {i: b.acc(self.plan.exprs[i].arg, self.plan.exprs[i].dtype, self.c.lanes)
                    for i in group}
            opened = []
            env2 = list(env)
            for j in range(m):
                r = b.range(zero, self.red_sizes[j], "reduce")
                env2[k + j] = r
                opened.append(r)
            searching = None
            stops = [self._stop_of(i) for i in group]
            if stops and None not in stops:
                # a search: the lanes' attempt at this point of the axis is computed only
                # while one of them has found nothing (its accumulator, a MIN, is still at
                # least the search's stop); computing more would change nothing
                found = b.acc(Op.OR, BOOL, 1)
                ln = b.range(zero, cnt, "lane")
                env2[k - 1] = b.idx(Op.ADD, c0, ln)
                for i, stop in zip(group, stops):
                    still = b.alu(Op.CMPLE, self.value(stop, env2),
                                  b.emit(Op.ACC_GET, self.plan.exprs[i].dtype, (accs[i], ln)))
                    b.acc_update(found, zero, still)
                b.end(ln)
                searching = b.if_(b.emit(Op.ACC_RESULT, BOOL, (found,)))
            ln = b.range(zero, cnt, "lane")
            env2[k - 1] = b.idx(Op.ADD, c0, ln)
            self.lane = ln
            for i in group:
                b.acc_update(accs[i], ln, self.value(self.plan.exprs[i].srcs[0], env2))
            self.lane = None
            b.end(ln)
            if searching is not None:
                b.end(searching)
            for r in reversed(opened):
                b.end(r)
            for i in group:
                self.reduce_values[i] = accs[i]
        opened = []
        env2 = list(env)
        if self.plan.full:
            for j in range(m):
                r = b.range(zero, self.red_sizes[j], "inner")
                env2[k + j] = r
                opened.append(r)
        ln = b.range(zero, cnt, "inner")
        env2[k - 1] = b.idx(Op.ADD, c0, ln)
        self.lane = ln
        self._store(env2)
        self.lane = None
        b.end(ln)
        for r in reversed(opened):
            b.end(r)
        b.end(g)


    def _lower_scan(self) -> None:
        """A scan on a loop-style device: each kept point (in parallel) runs along the
        scanned axis, storing the running value at every point."""
        g, env = self._outer_loop()
        self._scan_line(env)
        self.b.end(g)

    def _scan_line(self, env: list[int]) -> None:
        """One kept point's walk along the scanned axis: the running value (ACC_SCAN) is
        stored at every point."""
        b = self.b
        root = self.plan.root
        e = self.plan.exprs[root]
        acc = b.acc(e.arg, e.dtype, 1)
        r = b.range(b.const(0), self.red_sizes[0], "reduce")
        value = self.value(e.srcs[0], env + [r])
        self.reduce_values[root] = b.emit(Op.ACC_SCAN, e.dtype, (acc, b.const(0), value))
        self._store(env + [r])
        b.end(r)

    # -- thread-style strategies ------------------------------------------------------------
    def _lower_g_scan(self) -> None:
        """A scan with a work-group per kept point: the group takes the scanned axis a tile
        of ``lanes`` points at a time (coalesced), scans the tile across its items
        (``GROUP_SCAN``) and adds the carry from the tiles before it."""
        b = self.b
        group, local = self._work_item()
        env = self.unravel(group, self.outer_sizes)
        root = self.plan.root
        e = self.plan.exprs[root]
        op, size = e.arg, self.c.lanes
        n = self.red_sizes[0]
        zero = b.const(0)
        carry = b.acc(op, e.dtype, 1)
        t = b.range(zero, n, "reduce", b.const(size))
        i = b.idx(Op.ADD, t, local)
        inside = b.alu(Op.CMPLT, i, n)
        clamped = b.emit(Op.MIN, INDEX, (i, b.idx(Op.SUB, n, b.const(1))))
        value = b.alu(Op.WHERE, inside, self.value(e.srcs[0], env + [clamped]),
                      b.const(identity(op, e.dtype), e.dtype))
        running = b.emit(Op.GROUP_SCAN, e.dtype, (value,), (op.value, size))
        total = b.emit(Op.GROUP_REDUCE, e.dtype, (value,), (op.value, size, 1))
        before = b.emit(Op.ACC_GET, e.dtype, (carry, zero))
        self.reduce_values[root] = b.alu(op, before, running)
        guard = b.if_(inside)
        self._store(env + [i])
        b.end(guard)
        b.acc_update(carry, zero, total)
        b.end(t)

    def _lower_g_scan_serial(self) -> None:
        """A scan along a strided axis: one work item per kept point (neighbouring items
        read neighbouring memory), each running along the scanned axis."""
        b = self.b
        group, local = self._work_item()
        gid = b.idx(Op.ADD, b.idx(Op.MUL, group, b.const(self.c.lanes)), local)
        guard = b.if_(b.alu(Op.CMPLT, gid, self._product(self.outer_sizes)))
        self._scan_line(self.unravel(gid, self.outer_sizes))
        b.end(guard)

    def _work_item(self) -> tuple[int, int]:
        b = self.b
        return b.emit(Op.SPECIAL, INDEX, (), "group_id"), b.emit(Op.SPECIAL, INDEX, (), "local_id")

    def _product(self, sizes: list[int]) -> int:
        total = self.b.const(1)
        for s in sizes:
            total = self.b.idx(Op.MUL, total, s)
        return total

    def _lower_g_elementwise(self) -> None:
        b = self.b
        group, local = self._work_item()
        size = b.const(self.c.lanes)
        first = b.idx(Op.ADD, b.idx(Op.MUL, group, b.const(self.c.lanes * ITEM_POINTS)), local)
        total = self._product(self.outer_sizes)
        point = b.range(b.const(0), b.const(ITEM_POINTS), "inner")
        gid = b.idx(Op.ADD, first, b.idx(Op.MUL, point, size))
        guard = b.if_(b.alu(Op.CMPLT, gid, total))
        self._store(self.unravel(gid, self.outer_sizes))
        b.end(guard)
        b.end(point)

    def _lower_g_tile(self) -> None:
        """Elementwise, a work-group per TILE x TILE square of the last two axes: item
        ``local`` takes column ``local % TILE`` of rows ``local // TILE + k * rows``. Both a
        plain operand and a transposed one are read a whole 32-element segment per row
        (``x + x.T``: with the points of a group in a line, the transposed operand's reads
        touch a row per point)."""
        b = self.b
        group, local = self._work_item()
        _, across, down = self.strategy_args
        tile = b.const(TILE)
        tc = self._nonneg(Op.MOD, group, across)
        rest = self._nonneg(Op.IDIV, group, across)
        tr = self._nonneg(Op.MOD, rest, down)
        batch = self._nonneg(Op.IDIV, rest, down)
        col = b.idx(Op.ADD, b.idx(Op.MUL, tc, tile), self._nonneg(Op.MOD, local, tile))
        first = b.idx(Op.ADD, b.idx(Op.MUL, tr, tile), self._nonneg(Op.IDIV, local, tile))
        env = self.unravel(batch, self.outer_sizes[:-2])
        rows = self.c.lanes // TILE
        inside = b.alu(Op.CMPLT, col, self.outer_sizes[-1])
        k = b.range(b.const(0), b.const(TILE // rows), "inner")
        row = b.idx(Op.ADD, first, b.idx(Op.MUL, k, b.const(rows)))
        guard = b.if_(b.alu(Op.AND, inside, b.alu(Op.CMPLT, row, self.outer_sizes[-2])))
        self._store(env + [row, col])
        b.end(guard)
        b.end(k)

    def _lower_g_serial(self) -> None:
        b = self.b
        group, local = self._work_item()
        gid = b.idx(Op.ADD, b.idx(Op.MUL, group, b.const(self.c.lanes)), local)
        guard = b.if_(b.alu(Op.CMPLT, gid, self._product(self.outer_sizes)))
        env = self.unravel(gid, self.outer_sizes) + [b.const(0)] * len(self.c.red)
        k, m = len(self.c.outer), len(self.c.red)
        for group_exprs in self.stages():
            accs = {i: b.acc(self.plan.exprs[i].arg, self.plan.exprs[i].dtype, 1)
                    for i in group_exprs}
            self.reduce_loops(group_exprs, accs, list(env), list(range(m)), lane_split=False)
            for i in group_exprs:
                self.reduce_values[i] = b.emit(Op.ACC_RESULT, self.plan.exprs[i].dtype,
                                               (accs[i],))
        self._finish_outputs(env, k, m)
        b.end(guard)

    def _group_stages(self, env: list[int], first: int, count: int, step: int,
                      stride: int, step_value: int | None = None) -> None:
        """Every reduction stage: each work item combines the flat reduction indices
        ``first, first + step, ...`` below ``count``, then the group combines the items that
        agree modulo ``stride``; the results are visible to every work item."""
        b = self.b
        k = len(self.c.outer)
        zero = b.const(0)
        stride_v = b.const(step) if step_value is None else step_value
        points = ITEM_POINTS if len(self.plan.loads) <= UNROLL_LOADS_MAX else 1
        unroll = b.const(points)
        for group_exprs in self.stages():
            accs = {i: b.acc(self.plan.exprs[i].arg, self.plan.exprs[i].dtype, points)
                    for i in group_exprs}

            def update(r: int, lane: int, group_exprs: list[int] = group_exprs,
                       accs: dict[int, int] = accs) -> None:
                env2 = env[:k] + self.unravel(r, self.red_sizes)
                for i in group_exprs:
                    b.acc_update(accs[i], lane, self.value(self.plan.exprs[i].srcs[0], env2))

            # ``points`` independent loads per step (more memory requests in flight), then
            # the remainder one by one
            chunk = b.idx(Op.MUL, stride_v, unroll)
            whole = self._nonneg(Op.IDIV, b.idx(Op.SUB, count, first), chunk)
            main_end = b.idx(Op.ADD, first, b.idx(Op.MUL, whole, chunk))
            r0 = b.range(first, main_end, "reduce", chunk)
            lane = b.range(zero, unroll, "lane")
            update(b.idx(Op.ADD, r0, b.idx(Op.MUL, lane, stride_v)), lane)
            b.end(lane)
            b.end(r0)
            r = b.range(main_end, count, "reduce", stride_v)
            update(r, zero)
            b.end(r)
            for i in group_exprs:
                e = self.plan.exprs[i]
                part = b.emit(Op.ACC_RESULT, e.dtype, (accs[i],))
                self.reduce_values[i] = b.emit(Op.GROUP_REDUCE, e.dtype, (part,),
                                               (e.arg.value, self.c.lanes, stride))

    def _group_outputs(self, env: list[int], first: int, step: int) -> None:
        """Store the outputs: the whole reduced extent (``full``) strided over the work
        items, or the one reduced point by the first of them."""
        b = self.b
        k = len(self.c.outer)
        if self.plan.full:
            r = b.range(first, self._product(self.red_sizes), "inner", b.const(step))
            self._store(env[:k] + self.unravel(r, self.red_sizes))
            b.end(r)
        else:
            guard = b.if_(b.alu(Op.CMPEQ, first, b.const(0)))
            self._store(env)
            b.end(guard)

    def _lower_g_row(self) -> None:
        b = self.b
        group, local = self._work_item()
        env = self.unravel(group, self.outer_sizes) + [b.const(0)] * len(self.c.red)
        cached = row_cache(self.plan, self.c.strategy, self.c.red, self.c.lanes, self.c.cats)
        if cached is not None:
            self._cached_row(env, local, *cached)
            return
        self._group_stages(env, local, self._product(self.red_sizes), self.c.lanes, 1)
        self._group_outputs(env, local, self.c.lanes)

    def _cached_row(self, env: list[int], local: int, per: int, exact: bool) -> None:
        """``g_row`` with the row in registers (``row_cache``): work item ``local`` takes the
        points ``local + j * lanes`` for j < ``per``, written out straight (no loop), so each
        load is one value that every stage and the output reuse (``value``'s memo). Points
        past the row (``exact`` false) read nothing and combine the identity."""
        b = self.b
        k = len(self.c.outer)
        count = self._product(self.red_sizes)
        lanes = b.const(self.c.lanes)
        self.row_base, self.row_varies = env, self._varying(k)
        points = []
        for j in range(per):
            r = b.idx(Op.ADD, local, b.idx(Op.MUL, b.const(j), lanes))
            valid = None if exact else b.alu(Op.CMPLT, r, count)
            points.append((env[:k] + self.unravel(r, self.red_sizes), valid))
        for group_exprs in self.stages():
            for i in group_exprs:
                e = self.plan.exprs[i]
                part = None
                for env_j, valid in points:
                    self.row_valid = valid
                    v = self.value(e.srcs[0], env_j)
                    self.row_valid = None
                    if valid is not None:
                        v = b.alu(Op.WHERE, valid, v, b.const(identity(e.arg, e.dtype), e.dtype))
                    part = v if part is None else b.alu(e.arg, part, v, dtype=e.dtype)
                assert part is not None
                self.reduce_values[i] = b.emit(Op.GROUP_REDUCE, e.dtype, (part,),
                                               (e.arg.value, self.c.lanes, 1))
        if not self.plan.full:
            guard = b.if_(b.alu(Op.CMPEQ, local, b.const(0)))
            self._store(env)
            b.end(guard)
            return
        for e in self.plan.exprs:    # (what the guarded stores share: computed once, here)
            if e.kind != "REDUCE":
                for src in e.srcs:
                    if src not in self.row_varies and \
                            self.plan.exprs[src].kind not in ("CONST", "LIT"):
                        self.value(src, env)
        for env_j, valid in points:
            self.row_valid = valid
            if valid is None:
                self._store(env_j)
            else:
                guard = b.if_(valid)
                self._store(env_j)
                b.end(guard)
            self.row_valid = None

    def _varying(self, k: int) -> set[int]:
        """The exprs whose value can change along the reduced dimensions (past the first
        ``k``): those reading a view that moves or is masked along them (a view of views:
        assumed to), except through a reduction (one value per output point)."""
        varies: set[int] = set()
        for i, e in enumerate(self.plan.exprs):
            if e.kind in ("LOAD", "IOTA", "VALID"):
                slot = e.arg if e.kind == "LOAD" else len(self.plan.loads) + e.arg
                st = self.c.sts[slot]
                mask = st[0].mask
                if len(st) > 1 or any(c != "0" for c in self.c.cats[slot][k:]) or (
                        mask is not None and any(m != (0, n) for m, n in
                                                 zip(mask[k:], st[0].shape[k:]))):
                    varies.add(i)
            elif e.kind != "REDUCE" and any(s in varies for s in e.srcs):
                varies.add(i)
        return varies

    def split_reduces(self) -> list[int]:
        if self.c.strategy not in SPLIT_STRATEGIES:
            return []
        return [i for i, e in enumerate(self.plan.exprs) if e.kind == "REDUCE"]

    def _lower_g_split(self) -> None:
        b = self.b
        group, local = self._work_item()
        parts = self.strategy_args[0]
        zero = b.const(0)
        if self.phase == 0:
            size = b.idx(Op.MUL, parts, b.const(self.c.lanes))
            first = b.idx(Op.ADD, b.idx(Op.MUL, group, b.const(self.c.lanes)), local)
            self._group_stages([zero] * len(self.c.red), first,
                               self._product(self.red_sizes), 0, 1, step_value=size)
            guard = b.if_(b.alu(Op.CMPEQ, local, zero))
            for i, buf in self.scratch.items():
                b.store(buf, group, self.reduce_values[i])
            b.end(guard)
            return
        for i, buf in self.scratch.items():
            e = self.plan.exprs[i]
            acc = b.acc(e.arg, e.dtype, 1)
            r = b.range(local, parts, "reduce", b.const(self.c.lanes))
            b.acc_update(acc, zero, b.load(buf, r))
            b.end(r)
            part = b.emit(Op.ACC_RESULT, e.dtype, (acc,))
            self.reduce_values[i] = b.emit(Op.GROUP_REDUCE, e.dtype, (part,),
                                           (e.arg.value, self.c.lanes, 1))
        self._group_outputs([zero] * len(self.c.red), local, self.c.lanes)

    def _lower_g_column_split(self) -> None:
        b = self.b
        _, _, nblk, splits = self.strategy_args
        group, local = self._work_item()
        zero = b.const(0)
        total = self._product(self.outer_sizes)
        if self.phase == 0:
            part = self._nonneg(Op.MOD, group, splits)
            env, rest, col, piece, inside, count = self._column_point(
                self._nonneg(Op.IDIV, group, splits), local, nblk)
            slices = self.c.lanes // COLUMN_WIDTH
            # (rows part * slices + piece, then every splits * slices-th: the column's
            # slices across all its groups interleave)
            first = b.idx(Op.ADD, b.idx(Op.MUL, part, b.const(slices)), piece)
            step = b.idx(Op.MUL, splits, b.const(slices))
            self._group_stages(env, first, count, 0, COLUMN_WIDTH, step_value=step)
            guard = b.if_(b.alu(Op.AND, inside, b.alu(Op.CMPEQ, piece, zero)))
            flat = b.idx(Op.ADD, b.idx(Op.MUL, rest, self.outer_sizes[-1]), col)
            at = b.idx(Op.ADD, b.idx(Op.MUL, part, total), flat)
            for i, buf in self.scratch.items():
                b.store(buf, at, self.reduce_values[i])
            b.end(guard)
            return
        gid = b.idx(Op.ADD, b.idx(Op.MUL, group, b.const(self.c.lanes)), local)
        guard = b.if_(b.alu(Op.CMPLT, gid, total))
        env = self.unravel(gid, self.outer_sizes) + [zero] * len(self.c.red)
        for i, buf in self.scratch.items():
            e = self.plan.exprs[i]
            acc = b.acc(e.arg, e.dtype, 1)
            r = b.range(zero, splits, "reduce")
            b.acc_update(acc, zero, b.load(buf, b.idx(Op.ADD, b.idx(Op.MUL, r, total), gid)))
            b.end(r)
            self.reduce_values[i] = b.emit(Op.ACC_RESULT, e.dtype, (acc,))
        self._store(env)
        b.end(guard)

    def _column_point(self, column_group: int, local: int, nblk: int
                      ) -> tuple[list[int], int, int, int, int, int]:
        """Where work item ``local`` of column group ``column_group`` is (``g_column``):
        (its output point, the point's index over the other kept axes, its column, its
        slice, whether the column exists, how many reduced rows it has: 0 past the last
        column)."""
        b = self.b
        width = b.const(COLUMN_WIDTH)
        blk = self._nonneg(Op.MOD, column_group, nblk)
        rest = self._nonneg(Op.IDIV, column_group, nblk)
        col = b.idx(Op.ADD, b.idx(Op.MUL, blk, width), self._nonneg(Op.MOD, local, width))
        piece = self._nonneg(Op.IDIV, local, width)
        inside = b.alu(Op.CMPLT, col, self.outer_sizes[-1])
        env = self.unravel(rest, self.outer_sizes[:-1]) + [col] + [b.const(0)] * len(self.c.red)
        count = b.alu(Op.WHERE, inside, self._product(self.red_sizes), b.const(0))
        return env, rest, col, piece, inside, count

    def _lower_g_column(self) -> None:
        b = self.b
        _, nblk = self.strategy_args
        group, local = self._work_item()
        env, _, _, piece, inside, count = self._column_point(group, local, nblk)
        slices = self.c.lanes // COLUMN_WIDTH
        self._group_stages(env, piece, count, slices, COLUMN_WIDTH)
        guard = b.if_(inside)
        self._group_outputs(env, piece, slices)
        b.end(guard)


    def _lower_g_matmul(self) -> None:
        b = self.b
        group, local = self._work_item()
        _, items, cols, rows = self.strategy_args
        bs = MATMUL_BLOCK
        red_i, _ = _matmul_operands(self.plan, self.c.outer, self.c.red, list(self.c.cats))
        item = b.idx(Op.ADD, b.idx(Op.MUL, group, b.const(self.c.lanes)), local)
        guard = b.if_(b.alu(Op.CMPLT, item, items))
        jb = self._nonneg(Op.MOD, item, cols)
        rest = self._nonneg(Op.IDIV, item, cols)
        ib = self._nonneg(Op.MOD, rest, rows)
        env = self.unravel(self._nonneg(Op.IDIV, rest, rows), self.outer_sizes[:-2])
        n, m = self.outer_sizes[-2], self.outer_sizes[-1]
        i0, j0 = b.idx(Op.MUL, ib, b.const(bs)), b.idx(Op.MUL, jb, b.const(bs))
        rows_at = [b.idx(Op.ADD, i0, b.const(r)) for r in range(bs)]
        cols_at = [b.idx(Op.ADD, j0, b.const(c)) for c in range(bs)]
        # (the block's rows and columns past the edge read the last ones; not stored)
        last_row, last_col = b.idx(Op.SUB, n, b.const(1)), b.idx(Op.SUB, m, b.const(1))
        rows_read = [b.alu(Op.MIN, r, last_row) for r in rows_at]
        cols_read = [b.alu(Op.MIN, c, last_col) for c in cols_at]
        e = self.plan.exprs[red_i]
        acc = b.acc(e.arg, e.dtype, bs * bs)
        kk = b.range(b.const(0), self.red_sizes[0], "reduce")
        for r in range(bs):
            for c in range(bs):
                point = env + [rows_read[r], cols_read[c], kk]
                b.acc_update(acc, b.const(r * bs + c), self._reduced_value(red_i, point))
        b.end(kk)
        self.reduce_values[red_i] = acc
        for r in range(bs):
            for c in range(bs):
                inside = b.if_(b.alu(Op.AND, b.alu(Op.CMPLT, rows_at[r], n),
                                     b.alu(Op.CMPLT, cols_at[c], m)))
                self.lane = b.const(r * bs + c)
                self._store(env + [rows_at[r], cols_at[c], b.const(0)])
                self.lane = None
                b.end(inside)
        b.end(guard)


#: strategies of two kernels, the first leaving partial results in scratch memory
SPLIT_STRATEGIES = ("g_split", "g_column_split")


def phases(c: Canonical) -> int:
    """How many kernels the plan takes (2 for ``g_split`` and ``g_column_split``, else 1)."""
    return 2 if c.strategy in SPLIT_STRATEGIES else 1


def scratch(c: Canonical) -> list[tuple[np.dtype, int]]:
    """The scratch buffers a two-kernel plan passes from its first kernel to its second,
    after the output: (dtype, element count) per reduction, one partial result per group
    (``g_split``) or per output point and split (``g_column_split``)."""
    if c.strategy not in SPLIT_STRATEGIES:
        return []
    args = _strategy_args(c)
    count = args[0] if c.strategy == "g_split" else args[3] * math.prod(c.outer)
    return [(e.dtype, count) for e in c.plan.exprs if e.kind == "REDUCE"]


def lower(c: Canonical, name: str = "kernel", phase: int = 0) -> Kernel:
    """The IR of a canonical plan (called only on a cache miss); ``phase`` picks the kernel
    of a two-kernel strategy."""
    return _Lowerer(c, name, phase).lower()
