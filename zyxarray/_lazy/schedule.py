"""The scheduler: groups pending graph nodes into kernels.

Layer: ``_lazy``. Knows no target language; produces ``KernelPlan``s that ``lower.py`` turns
into IR.

A kernel iterates a *domain* (a shape ``F``) of which the axes ``A`` are reduced. Every value
in it is an expression over the domain: loads through ShapeTrackers, constants, ALU ops and
reductions over ``A``. Its output is stored either over the whole domain (``full``) or once per
point of the kept axes (``reduced``). Fusion rules:

- elementwise nodes and views are always inlined (views become index arithmetic);
- a reduction joins a kernel whose domain and reduced axes are its own, if it is read through
  the canonical broadcast of its result (softmax: max, then sum, then the division, all one
  kernel); otherwise, or if two kernels would both compute it, it gets a kernel of its own.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .._codegen.ir import Op
from .graph import _WINDOWED, Node, literal, literal_token, window_start, window_structure
from .view import ShapeTracker, View, at_offset, compose, contiguous_strides


class Expr(NamedTuple):
    """One node of a kernel's expression DAG (a named tuple: cheap to build and hash)."""

    kind: str                # LOAD, IOTA, VALID, CONST, ALU, CAST, REDUCE, SCAN
    dtype: np.dtype
    srcs: tuple[int, ...] = ()
    arg: Any = None          # LOAD/IOTA/VALID: slot; CONST: (slot, dtype); ALU, REDUCE, SCAN: Op
    # (VALID: true where an iota slot's ShapeTracker is inside its masks)


@dataclass(slots=True)
class KernelPlan:
    output: Node
    domain: tuple[int, ...]
    axes: tuple[int, ...]            # reduced axes of the domain
    full: bool                       # output stored over the whole domain
    exprs: list[Expr] = field(default_factory=list)
    root: int = -1
    loads: list[tuple[Node, ShapeTracker]] = field(default_factory=list)
    iotas: list[ShapeTracker] = field(default_factory=list)
    consts: list[Any] = field(default_factory=list)
    fused: list[Node] = field(default_factory=list)        # reductions computed inside
    needs: list[Node] = field(default_factory=list)        # unrealized nodes it loads
    out_view: ShapeTracker | None = None   # where the output goes (SETITEM's region)
    into: bool = False                     # write into the output's existing buffer
    domain_fixed: bool = False             # no reduction met in the walk may change the domain
    const_nodes: list[Node] = field(default_factory=list)  # the CONST node of each const
    # shared by this kernel's plans in every memoized schedule of one structure (see
    # ``schedule``): what depends only on the plan's structure may be kept here
    # (``canonicalize`` keeps its canonical form, by device name)
    memo: dict[Any, Any] | None = None
    # the nodes whose expressions the plan inlined (set by ``build_plan``; the scheduler
    # rebuilds the plan when one of them is to be stored by a kernel of its own after all)
    inlined: set[int] | None = None
    why: dict[int, str] | None = None     # build_plan: the nodes it left to other steps, why
    reason: str = ""                      # why the output is stored (``explain`` shows it)
    # (is a load, slot in loads or iotas, the window VIEW read through it): see _Builder.window
    windows: list[tuple[bool, int, Node]] = field(default_factory=list)

    @property
    def out_st(self) -> ShapeTracker:
        if self.out_view is not None:
            return self.out_view
        if self.full:
            return (View.contiguous(self.domain),)
        return (collapse_view(self.domain, self.axes),)


@functools.lru_cache(maxsize=4096)
def collapse_view(domain: tuple[int, ...], axes: tuple[int, ...]) -> View:
    """Domain index -> linear index of the reduced (keepdims) result: reduced axes read 0."""
    kept = tuple(1 if i in axes else s for i, s in enumerate(domain))
    strides = tuple(0 if i in axes else st for i, st in enumerate(contiguous_strides(kept)))
    return View.make(domain, strides, 0)


class _Restart(Exception):
    def __init__(self, domain: tuple[int, ...], axes: tuple[int, ...]) -> None:
        self.domain, self.axes = domain, axes


class _TooManyLoads(Exception):
    """Inlining ``node`` took the kernel past the buffers its device can bind: it is stored
    by a kernel of its own (built again) and loaded."""

    def __init__(self, node: Node) -> None:
        self.node = node


# An elementwise value that one kernel reads through two different views (a stencil's
# shifted neighbours, both halves of a roll) is inlined again under the second view only if
# its first inlining added at most this many expressions; a costlier one is stored once by a
# kernel of its own and loaded. Without the bound a loop of stencil steps inlines each step
# into every neighbour of the next, and the kernel grows exponentially with the steps. (16
# let one 5-point step with padding be inlined into the next step's five reads: heat in
# bench/programs.py took 47 ms on the 2-core machine, 10 ms with 8, which stores each step;
# stencil_concat 21 -> 16 ms.)
REUSE_INLINE_MAX = 8
# An elementwise value that a kernel reads through a broadcast (a zero stride: matmul's
# operands, ``x - w[None, :]``) is computed again for every point it is broadcast to; it is
# stored once instead when it costs more than this many expressions. Without the bound a
# training loop's weights (w = w - lr * grad, never observed) are recomputed from their
# whole history by every kernel that reads them, a new kernel structure at every step.
BROADCAST_INLINE_MAX = 8


# What an expression costs to recompute, in simple operations: a transcendental function is
# worth many additions (an n-body step's r**-1.5, broadcast over 3 coordinates, was computed
# three times over 4 million pairs, slower than NumPy's one stored pass).
_COSTLY = frozenset((Op.POW, Op.EXP, Op.EXPM1, Op.LOG, Op.LOG1P, Op.LOG2, Op.LOG10, Op.SIN,
                     Op.COS, Op.TAN, Op.ASIN, Op.ACOS, Op.ATAN, Op.SINH, Op.COSH, Op.TANH,
                     Op.ASINH, Op.ACOSH, Op.ATANH, Op.ATAN2, Op.HYPOT, Op.LOGADDEXP))
_COSTLY_WEIGHT = 8


def _weight(exprs: list[Expr], start: int) -> int:
    """The recomputation cost of ``exprs[start:]``."""
    total = 0
    for e in exprs[start:]:
        total += _COSTLY_WEIGHT if e.kind == "ALU" and e.arg in _COSTLY else 1
    return total


class _Builder:
    def __init__(self, plan: KernelPlan, materialize: set[int], root: Node) -> None:
        self.plan = plan
        self.root = root
        self.materialize = materialize
        self.memo: dict[tuple[int, ShapeTracker], int] = {}
        self.expr_index: dict[Expr, int] = {}
        self.load_index: dict[tuple, int] = {}     # (node, view[, window]) -> load slot
        self.unfusable: list[Node] = []
        self.cost: dict[int, int] = {}      # elementwise node -> expressions it first added
        self.why: dict[int, str] = {}       # node stored by a kernel of its own -> why
        self.reduced = 0                    # expressions added inside fused reductions
        self.inlined: set[int] = set()      # nodes whose expressions this plan holds
        self.stored = 0     # weight of the expressions of nodes this walk stores after all
        # the buffers a kernel may read on this device (Vulkan's per-stage storage-buffer
        # limit, less the output's and the arguments'); None: no limit
        self.max_loads = root.device.info.extra.get("max_loads")

    def add(self, e: Expr) -> int:
        idx = self.expr_index.get(e)
        if idx is None:
            self.plan.exprs.append(e)
            idx = self.expr_index[e] = len(self.plan.exprs) - 1
        return idx

    def load(self, node: Node, st: ShapeTracker) -> int:
        key = (id(node), st)
        slot = self.load_index.get(key)
        if slot is None:
            self.plan.loads.append((node, st))
            slot = self.load_index[key] = len(self.plan.loads) - 1
            if not node.realized:
                self.plan.needs.append(node)
        return self.add(Expr("LOAD", node.dtype, (), slot))

    def window(self, view: Node, src: Node, st: ShapeTracker) -> int:
        """A read of realized data or an iota through ``view`` (a window, graph.py): a load or
        iota slot of its own, recorded in ``plan.windows`` so that a memoized plan can move it
        to where another graph's window starts. (Two windows are never one slot, even where
        their offsets agree: in a graph of the same structure they may not.)"""
        plan = self.plan
        if src.op == "IOTA":
            plan.iotas.append(st)
            plan.windows.append((False, len(plan.iotas) - 1, view))
            return self.add(Expr("IOTA", src.dtype, (), len(plan.iotas) - 1))
        key = (id(src), st, id(view))
        slot = self.load_index.get(key)
        if slot is None:
            plan.loads.append((src, st))
            slot = self.load_index[key] = len(plan.loads) - 1
            plan.windows.append((True, slot, view))
        return self.add(Expr("LOAD", src.dtype, (), slot))

    def separately(self, node: Node, reason: str) -> None:
        """``node`` is to be stored by a step of its own (and loaded here), for ``reason``."""
        self.unfusable.append(node)
        self.why.setdefault(id(node), reason)

    def repeats(self, st: ShapeTracker) -> bool:
        """True if a value read through ``st`` would be computed again for several points
        of the domain: a broadcast, other than the one through which the kernel's epilogue
        reads what its reductions give per kept point (that is what fusion is for)."""
        v = st[0]
        # (a masked axis of stride 0 that is valid at one index at most is not a broadcast:
        # a column padded to a row by ``concat`` reads each value once)
        if not any(stride == 0 and size > 1 and (v.mask is None or v.mask[d][1] - v.mask[d][0] > 1)
                   for d, (size, stride) in enumerate(zip(v.shape, v.strides))):
            return False
        plan = self.plan
        return not plan.axes or st != (collapse_view(plan.domain, plan.axes),)

    def walk(self, node: Node, st: ShapeTracker) -> int:
        key = (id(node), st)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        out = self._walk(node, st)
        self.memo[key] = out
        return out

    def _walk(self, node: Node, st: ShapeTracker) -> int:
        plan = self.plan
        if node.realized:
            return self.load(node, st)
        if node.op == "IOTA":
            plan.iotas.append(st)
            return self.add(Expr("IOTA", node.dtype, (), len(plan.iotas) - 1))
        if node.op == "CONST":
            token = literal_token(node)
            if token is not None:       # (written into the source: not an argument)
                return self.add(Expr("LIT", node.dtype, (), (token, node.dtype)))
            plan.consts.append(node.arg)
            plan.const_nodes.append(node)
            return self.add(Expr("CONST", node.dtype, (), (len(plan.consts) - 1, node.dtype)))
        if node.op == "VIEW":
            src = node.srcs[0]
            if src.op == "BUFFER" or src.op == "IOTA":
                return self.window(node, src, compose(st, node.arg))
            if src.op == "CONST":       # a broadcast scalar reads the same value everywhere
                inner = self.walk(src, st)
            else:
                inner = self.walk(src, compose(st, node.arg))
            if all(v.mask is None for v in node.arg) or src.realized or src.op == "IOTA" \
                    or (id(src) in self.materialize and src is not self.root):
                return inner            # (a load or an iota reads 0 outside a mask itself)
            # a padded expression: zero outside the mask (its loads read 0 there, but what
            # is computed from them, or a constant, need not be 0)
            plan.iotas.append(compose(st, node.arg))
            valid = self.add(Expr("VALID", np.dtype(np.bool_), (), len(plan.iotas) - 1))
            zero = self.walk(literal(0, node.dtype, node.device), st)
            return self.add(Expr("ALU", node.dtype, (valid, inner, zero), Op.WHERE))
        if id(node) in self.materialize and node is not self.root:
            return self.load(node, st)
        if node.op == "SETITEM" or node.op == "CONCAT":
            self.separately(node, "a write into a region" if node.op == "SETITEM" else
                            f"a concat of {len(node.srcs)} parts (written part by part)")
            return self.load(node, st)
        if node.op == "ALU" or node.op == "CAST":
            cost = self.cost.get(id(node))
            if cost is not None and node is not self.root and (
                    cost > REUSE_INLINE_MAX
                    or (cost > BROADCAST_INLINE_MAX and self.repeats(st))):
                self.separately(node, f"read through another view or a broadcast, at a cost "
                                      f"of {cost} operations per read")
                return self.load(node, st)
            self.inlined.add(id(node))
            before, reduced, stored = len(plan.exprs), self.reduced, self.stored
            srcs = tuple(self.walk(s, st) for s in node.srcs)
            if self.max_loads is not None and node is not self.root and \
                    len(plan.loads) > self.max_loads:
                raise _TooManyLoads(node)
            if node.op == "ALU":
                out = self.add(Expr("ALU", node.dtype, srcs, node.arg))
            else:
                out = self.add(Expr("CAST", node.dtype, srcs))
            if cost is None:
                # (what a fused reduction sums is computed once, wherever its result is read;
                # a value inside that this walk stores will be one load)
                cost = (_weight(plan.exprs, before) - (self.reduced - reduced)
                        - (self.stored - stored))
                self.cost[id(node)] = cost
                if cost > BROADCAST_INLINE_MAX and node is not self.root and self.repeats(st):
                    # computed again for every point it is broadcast to: store it once (the
                    # scheduler rebuilds this plan to load it). The nodes around it then
                    # count it as the one load it will be: ``1 / (1 + exp(-z)) - y`` stores
                    # exp(-z), not also each operation around it in turn
                    self.separately(node, f"read through a broadcast, at a cost of {cost} "
                                          f"operations per read")
                    self.stored += cost - 1
            return out
        if node.op == "SCAN":
            if node is self.root and plan.axes == (node.arg[1],) and plan.out_view is None:
                # (the plan's domain and axis are the scan's own)
                inner = self.walk(node.srcs[0], (View.contiguous(plan.domain),))
                return self.add(Expr("SCAN", node.dtype, (inner,), node.arg[0]))
            self.separately(node, "a scan (computed by a kernel of its own)")
            return self.load(node, st)
        if node.op == "REDUCE":
            op, axes = node.arg
            src = node.srcs[0]
            if self.root.op == "SCAN":
                self.separately(node, "a reduction read by a scan")
                return self.load(node, st)
            if not plan.axes and plan.full and not plan.domain_fixed:
                # the first reduction decides the domain
                if _reads_whole(st, plan.domain, node.shape):
                    raise _Restart(src.shape, axes)
                if src.shape == plan.domain and st == (collapse_view(plan.domain, axes),):
                    plan.axes = axes
            if (plan.axes == axes and src.shape == plan.domain
                    and st == (collapse_view(plan.domain, axes),)):
                plan.fused.append(node)
                self.inlined.add(id(node))
                before = len(plan.exprs)
                inner = self.walk(src, (View.contiguous(plan.domain),))
                self.reduced += _weight(plan.exprs, before)
                return self.add(Expr("REDUCE", node.dtype, (inner,), op))
            self.separately(node, "a reduction read over another domain or other axes")
            return self.load(node, st)
        # COPY and anything else is realized by its own step before this kernel runs
        if node.op == "LIBRARY":
            self.separately(node, f"the result of the library op {node.arg[0]}")
        else:
            self.separately(node, "a move between devices" if node.op == "COPY" else
                            f"a {node.op.lower()} step")
        return self.load(node, st)


def _reads_whole(st: ShapeTracker, domain: tuple[int, ...], shape: tuple[int, ...]) -> bool:
    """True if ``st`` reads a node of ``shape`` element for element in the domain's order
    (the domain is the reduction's result, possibly with its size-1 axes dropped)."""
    if len(st) != 1:
        return False
    v = st[0]
    return (v.offset == 0 and v.strides == contiguous_strides(domain)
            and int(np.prod(domain)) == int(np.prod(shape)))


def build_plan(node: Node, materialize: set[int], root: Node | None = None,
               out_view: ShapeTracker | None = None) -> tuple[KernelPlan, list[Node]]:
    """The kernel that stores ``root`` (default: ``node``) as ``node``'s value, and the
    reductions it could not fuse. With ``out_view`` it writes into ``node``'s buffer there."""
    root = node if root is None else root
    if root.op == "REDUCE" and id(root) not in materialize - {id(node)}:
        domain, axes, full = root.srcs[0].shape, root.arg[1], False
    elif root.op == "SCAN":
        # a scan kernel: the scanned axis is the one "reduced" axis, every point is stored
        domain, axes, full = root.shape, (root.arg[1],), True
    else:
        domain, axes, full = root.shape, (), True
    if out_view is not None:
        domain, axes, full = root.shape, (), True
    split: list[Node] = []         # nodes stored separately to keep within the device's buffers
    while True:
        plan = KernelPlan(node, tuple(domain), tuple(axes), full, out_view=out_view,
                          into=out_view is not None,
                          domain_fixed=root.op in ("REDUCE", "SCAN") or out_view is not None)
        b = _Builder(plan, materialize | {id(n) for n in split} if split else materialize,
                     root)
        try:
            start = plan.out_st if out_view is None else (View.contiguous(domain),)
            plan.root = b.walk(root, start)
        except _Restart as r:
            domain, axes, full = r.domain, r.axes, False
            continue
        except _TooManyLoads as t:
            split.append(t.node)
            continue
        plan.inlined = b.inlined
        plan.why = b.why
        for n in split:
            plan.why.setdefault(id(n), f"the kernel would read more than {b.max_loads} "
                                       f"buffers (the device binds no more)")
        return plan, b.unfusable + split


@dataclass
class LibraryStep:
    """A LIBRARY node's computation: its inputs are realized (views allowed) before it runs."""

    output: Node
    name: str
    params: dict[str, Any]
    inputs: list[Node]
    needs: list[Node] = field(default_factory=list)
    fused: list[Node] = field(default_factory=list)
    reason: str = ""


def build_plans(node: Node, materialize: set[int]
                ) -> tuple[list[KernelPlan | LibraryStep], list[Node]]:
    """All steps realizing ``node``: one kernel, two for SETITEM (copy, then write the
    region), or a library call."""
    if node.op == "LIBRARY":
        name, params = node.arg
        inputs = list(node.srcs)
        needs = []
        for n in inputs:
            base = n.base()
            if not base.realized and base.op not in ("CONST",):
                needs.append(base)
        return [LibraryStep(node, name, dict(params), inputs, needs)], needs
    if node.op == "CONCAT":
        # one kernel per part, each writing its region of one buffer (the first allocates
        # it): the work of a copy, and one compiled kernel for any number of parts
        steps: list[KernelPlan | LibraryStep] = []
        unfusable = []
        for part, region in zip(node.srcs, node.arg):
            plan, u = build_plan(node, materialize, root=part, out_view=region)
            plan.into = bool(steps)
            steps.append(plan)
            unfusable += u
        return steps, unfusable
    if node.op != "SETITEM":
        plan, unfusable = build_plan(node, materialize)
        return [plan], unfusable
    base, value = node.srcs
    first, u1 = build_plan(node, materialize, root=base)
    second, u2 = build_plan(node, materialize, root=value, out_view=node.arg)
    second.needs.extend(first.needs)
    return [first, second], u1 + u2


def schedule(targets: list[Node]) -> list[KernelPlan | LibraryStep]:
    """Kernels that realize ``targets`` (unrealized, non-VIEW nodes), in execution order.

    Memoized by the pending graph's structure: a graph seen before (the same kinds, dtypes,
    shapes, views and sharing, whatever its buffers and constants' values) reuses the plans
    made for it then, with its own nodes put in place of the old ones."""
    keyed = targets[0] if len(targets) == 1 and targets[0].leaves is not None else None
    if keyed is not None:
        # a keyed graph (graph.py) seen before: its plans without walking it
        leaves, k = keyed.leaves, keyed.key
        assert leaves is not None and k is not None       # (graph.py sets them together)
        template = _keyed.get(k)
        if template is not None:
            nodes: list[Node] | None = [*leaves, keyed]
            if template.paths:
                nodes = _interior(keyed, template.paths, nodes)   # type: ignore[arg-type]
            if nodes is not None:
                memo_stats["hits"] += 1
                return template.plans(nodes)
    key, nodes = _structure(targets)
    try:
        template = _templates.get(key)
    except TypeError:            # an unhashable argument (a LIBRARY parameter): no memo
        return _schedule(targets)
    if template is not None:
        memo_stats["hits"] += 1
        plans = template.plans(nodes)
        if keyed is not None:
            _keep_keyed(keyed, plans)
        return plans
    memo_stats["misses"] += 1
    held = _held(targets, nodes)
    plans = _schedule(targets, held)
    if len(_templates) >= MAX_TEMPLATES or memo_stats["nodes"] > MAX_TEMPLATE_NODES:
        _templates.clear()
        memo_stats["nodes"] = 0
    with contextlib.suppress(KeyError):   # (a plan naming a node outside the graph)
        _templates[key] = _Template(plans, nodes)
        memo_stats["nodes"] += len(nodes)
    if keyed is not None:       # (last: these plans then fill the keyed memo, so the next
        _keep_keyed(keyed, plans)       # realization of the structure can launch directly)
    return plans


def _keep_keyed(t: Node, plans: list[KernelPlan | LibraryStep]) -> None:
    """Memoize ``plans`` under ``t``'s structure key (graph.py) when they compute ``t`` from
    its leaves: kernels that read only the leaves and what the kernels before them stored.
    The intermediates they store are found in another graph of this key by their paths
    from the root (sources' positions, ``_interior``), not by walking it: a loop that
    realizes a few kernels each step (k-means: the distances, their argmin, the one-hot
    labels) skips the walk that keys the structure memo. An intermediate realized since the
    key was made (not a leaf: the key describes the tree as it was built), which the plans
    load, is found by its path too, and must be realized in the next graph as well. Fused
    reductions are interior nodes the run does not need (they only steer scheduling). A
    single kernel that loads such an intermediate is not memoized (``keyed_kernel`` launches
    it from the leaves alone)."""
    if any(not isinstance(p, KernelPlan) for p in plans):
        return
    assert t.key is not None and t.leaves is not None
    made: list[Node] = []       # intermediates the plans store
    read: list[Node] = []       # intermediates realized since the key was made, which they load
    if len(plans) == 1:
        if plans[0].needs:      # type: ignore[union-attr]
            return
    else:
        known = {id(n) for n in t.leaves}
        for p in plans:
            assert isinstance(p, KernelPlan)
            windows = {slot: w for is_load, slot, w in p.windows if is_load}
            for slot, (n, _) in enumerate(p.loads):
                n = windows.get(slot, n)
                if id(n) not in known:
                    if n.buffer is None or slot in windows:
                        return
                    known.add(id(n))
                    read.append(n)
            if p.out_view is not None or p.into or id(p.output) in known or \
                    any(id(n) not in known for n in p.needs):
                return
            known.add(id(p.output))
            if p.output is not t:
                made.append(p.output)
    paths = _paths(t, made + read)
    if paths is None:
        return
    if len(_keyed) >= MAX_TEMPLATES:
        _keyed.clear()
    with contextlib.suppress(KeyError):
        template = _Template(plans, [*t.leaves, t, *made, *read], keep_fused=False)
        template.paths = [(path, i >= len(made)) for i, path in enumerate(paths)]
        _keyed[t.key] = template


def _paths(root: Node, wanted: list[Node]) -> list[tuple[int, ...]] | None:
    """Each of ``wanted`` as the source positions leading to it from ``root`` (None when
    one is not below it)."""
    found: dict[int, tuple[int, ...]] = {}
    ids = {id(n) for n in wanted}
    stack: list[tuple[Node, tuple[int, ...]]] = [(root, ())]
    seen: set[int] = set()
    while stack and len(found) < len(ids):
        n, path = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if id(n) in ids:
            found[id(n)] = path
        for i, s in enumerate(n.srcs):
            stack.append((s, path + (i,)))
    if len(found) < len(ids):
        return None
    return [found[id(n)] for n in wanted]


def _interior(root: Node, paths: list[tuple[tuple[int, ...], bool]], nodes: list[Node]
              ) -> list[Node] | None:
    """``nodes`` and the node at each of ``paths`` below ``root``. A path marked realized
    leads to a node the memoized plans load (realized after the key was made, as in the
    graph they were made for), the others to nodes they compute: None when this graph
    differs (the scheduler plans it instead)."""
    for path, realized in paths:
        n = root
        for i in path:
            if n.buffer is not None:    # (a realized node has no sources to follow)
                return None
            srcs = n.srcs
            if i >= len(srcs):
                return None
            n = srcs[i]
        if (n.buffer is not None) != realized:
            return None
        nodes.append(n)
    return nodes


def keyed_kernel(key: int) -> tuple | None:
    """What a realization needs to run the one kernel memoized for a keyed graph (see
    ``_keep_keyed``) straight from another graph's leaves, without making its plan:
    (loads, offsets, constants, memo), or None when none is memoized or the kernel writes
    into an existing buffer or a region.

    - loads: per load, (leaf position, -1) or (-1, the window's leaf position): the node
      whose buffer it reads is that leaf, or that window's source;
    - offsets: per view of every load's and iota's ShapeTracker, in ``canonicalize``'s
      order, (offset, window leaf position or -1, where that window started): a window's
      last view moves with where the other graph's window starts;
    - constants: per constant, its leaf position, or the CONST node the scheduler made;
    - memo: the kernel's memo (``canonicalize`` keeps its canonical parts there, ``realize``
      its program)."""
    template = _keyed.get(key)
    return None if template is None else template.kernel


def keyed_kernels(key: int) -> tuple[list[tuple], list[tuple[tuple[int, ...], bool]]] | None:
    """The kernels memoized for a keyed graph of several kernels (``_keep_keyed``), each as
    ``keyed_kernel`` describes one plus the position of the node it stores, and the paths to
    the intermediates (``_interior``): a realization runs them from another graph's leaves
    and intermediates without making plans. None when none are memoized or one writes into
    an existing buffer or a region."""
    template = _keyed.get(key)
    if template is None or template.kernels is None or len(template.kernels) < 2:
        return None
    return template.kernels, template.paths


_keyed: dict[int, _Template] = {}


# The memo is cleared when it holds this many graphs, or graphs of this many nodes in all
# (a deep graph's key and plans take a few hundred bytes per node).
MAX_TEMPLATES = 1024
MAX_TEMPLATE_NODES = 200_000
_templates: dict[tuple, _Template] = {}
memo_stats = {"hits": 0, "misses": 0, "nodes": 0}


def _structure(targets: list[Node]) -> tuple[tuple, list[Node]]:
    """The graph under ``targets`` as a hashable key, and its nodes in the key's order.

    Each node is a record (kind, dtype, shape, device, argument, positions of its sources);
    a CONST's value is left out, so constants stay arguments (a ``literal``'s is in). Two
    graphs with equal keys get the same plans up to which nodes fill them: sharing is part
    of the key (``x * x`` and ``x * y`` differ), the identity of realized buffers is not."""
    index: dict[int, int] = {}
    nodes: list[Node] = []
    records: list[tuple] = []
    roots = tuple([_visit(t, index, nodes, records) for t in targets])
    return (roots, tuple(records)), nodes


def _visit(n: Node, index: dict[int, int], nodes: list[Node], records: list[tuple]) -> int:
    """Post-order position of ``n`` (a plain function, not a closure: a recursive closure is
    a reference cycle that would keep the graph's buffers alive until the next collection)."""
    i = index.get(id(n))
    if i is not None:
        return i
    srcs = n.srcs
    if not srcs:
        pos: tuple[int, ...] = ()
    elif len(srcs) == 1:      # (the common arities spelled out: no comprehension per node)
        pos = (_visit(srcs[0], index, nodes, records),)
    elif len(srcs) == 2:
        pos = (_visit(srcs[0], index, nodes, records), _visit(srcs[1], index, nodes, records))
    else:
        pos = tuple([_visit(s, index, nodes, records) for s in srcs])
    i = index[id(n)] = len(nodes)
    nodes.append(n)
    op = n.op
    arg = n.arg
    if op == "CONST":
        arg = literal_token(n)      # (None: a value that is an argument)
    elif op == "VIEW" and srcs[0].op in _WINDOWED:     # a window: where it starts is not
        arg = window_structure(arg)                   # structure (_Builder.window)
    records.append((op, n.dtype, n.shape, n.device, arg, pos))
    return i


class _Template:
    """Plans of one graph structure with every node replaced by its position in
    ``_structure``'s order; ``plans(nodes)`` fills them with another graph's nodes."""

    def __init__(self, plans: list[KernelPlan | LibraryStep], nodes: list[Node],
                 keep_fused: bool = True) -> None:
        pos = {id(n): i for i, n in enumerate(nodes)}
        self.steps: list[tuple] = []
        self.moves = False      # some plan reads a window
        self.kernel: tuple | None = None     # see keyed_kernel
        self.kernels: list[tuple] | None = None     # see keyed_kernels
        # a keyed template's intermediates: path from the root, realized (``_interior``)
        self.paths: list[tuple[tuple[int, ...], bool]] = []
        for p in plans:
            if isinstance(p, LibraryStep):
                self.steps.append((False, pos[id(p.output)], [pos[id(n)] for n in p.inputs],
                                   [pos[id(n)] for n in p.needs],
                                   [pos[id(n)] for n in p.fused], p.reason))
                continue
            memo: dict[Any, Any] = {}     # one per step: it is this kernel's memo
            p.memo = memo
            # a window's load names the window's position (its data: the window's source)
            # and where it started, to be moved by where another graph's window starts
            via = {(w[0], w[1]): w[2] for w in p.windows}
            loads = []
            for slot, (n, st) in enumerate(p.loads):
                w = via.get((True, slot))
                loads.append((pos[id(n)], st, None, 0) if w is None else
                             (None, st, pos[id(w)], window_start(w)))
            iotas = tuple((st, None, 0) if (False, slot) not in via else
                          (st, pos[id(via[(False, slot)])], window_start(via[(False, slot)]))
                          for slot, st in enumerate(p.iotas))
            self.moves = self.moves or bool(p.windows)
            self.steps.append((True, pos[id(p.output)], p.domain, p.axes, p.full,
                               tuple(p.exprs), p.root, tuple(loads), iotas,
                               # (a constant the walk made itself, the zero outside a
                               # padded expression, is not in the graph: kept as it is)
                               [pos.get(id(n), n) for n in p.const_nodes],
                               [pos[id(n)] for n in p.fused] if keep_fused else [],
                               [pos[id(n)] for n in p.needs],
                               p.out_view, p.into, p.domain_fixed, memo, p.reason))
        if not keep_fused and all(step[0] for step in self.steps) and \
                all(p.out_view is None and not p.into for p in plans):  # type: ignore[union-attr]
            self.kernels = [self._launch_spec(step) for step in self.steps]
            if len(plans) == 1:
                self.kernel = self.kernels[0][:4]

    @staticmethod
    def _launch_spec(step: tuple) -> tuple:
        """A kernel step as ``keyed_kernel`` gives it, with the position of its output."""
        _, o, _, _, _, _, _, loads, iotas, consts, *_ = step
        offsets = []
        for st, w, start in [(ld[1], ld[2], ld[3]) for ld in loads] + list(iotas):
            for k, v in enumerate(st):
                moved = w is not None and k == len(st) - 1
                offsets.append((v.offset, w if moved else -1, start))
        return (tuple((-1, w) if w is not None else (i, -1) for i, _, w, _ in loads),
                tuple(offsets), tuple(consts), step[-2], o)

    def plans(self, nodes: list[Node]) -> list[KernelPlan | LibraryStep]:
        out: list[KernelPlan | LibraryStep] = []
        for step in self.steps:
            if not step[0]:
                _, o, inputs, needs, fused, reason = step
                name, params = nodes[o].arg
                out.append(LibraryStep(nodes[o], name, dict(params), [nodes[i] for i in inputs],
                                       [nodes[i] for i in needs], [nodes[i] for i in fused],
                                       reason))
                continue
            (_, o, domain, axes, full, exprs, root, loads, iotas, consts, fused, needs,
             out_view, into, domain_fixed, memo, reason) = step
            const_nodes = [nodes[i] if type(i) is int else i for i in consts]
            if self.moves:
                load_list = [(nodes[i], st) if w is None else
                             (nodes[w].srcs[0], _moved(st, window_start(nodes[w]) - start))
                             for i, st, w, start in loads]
                iota_list = [st if w is None else _moved(st, window_start(nodes[w]) - start)
                             for st, w, start in iotas]
            else:
                load_list = [(nodes[i], st) for i, st, _, _ in loads]
                iota_list = [st for st, _, _ in iotas]
            plan = KernelPlan(nodes[o], domain, axes, full, list(exprs), root, load_list,
                              iota_list, [n.arg for n in const_nodes],
                              [nodes[i] for i in fused] if fused else [],
                              [nodes[i] for i in needs] if needs else [],
                              out_view, into, domain_fixed, const_nodes, memo, reason=reason)
            if self.moves:      # (a plan made from this one may be memoized in turn)
                plan.windows = [(True, k, nodes[ld[2]]) for k, ld in enumerate(loads)
                                if ld[2] is not None]
                plan.windows += [(False, k, nodes[it[1]]) for k, it in enumerate(iotas)
                                 if it[1] is not None]
            out.append(plan)
        return out


def _moved(st: ShapeTracker, delta: int) -> ShapeTracker:
    """``st`` composed with a window that starts ``delta`` elements later (view.merge: the
    window's offset is an addend of the last view's)."""
    if delta == 0:
        return st
    last = st[-1]
    return st[:-1] + (at_offset(last, last.offset + delta),)


#: a graph at least this deep stores the pending values that something outside it still
#: refers to (``_held``)
HELD_DEPTH = 16
#: off while ``realize.bound_depth`` realizes a graph that grew past MAX_DEPTH
held_enabled = [True]


#: on a device that runs kernels as loops (the cpu device), a pending elementwise value of
#: at least ``HELD_MIN_SIZE`` elements that a live array shows is stored with the graph when
#: computing it again would cost at least this much (``_weight``'s units: two transcendental
#: functions). NumPy code reads its variables again and again: ``sales = base * weekly +
#: noise`` (two sines and a cube per element) was computed by the kernel of its cumulative
#: sum, then again by its argmax's. A store and a load cost far less than that there; a GPU
#: computes it again (its arithmetic is cheap next to the memory they would take).
HELD_WEIGHT = 16
HELD_MIN_SIZE = 1 << 12


def _held(targets: list[Node], nodes: list[Node]) -> list[Node]:
    """The pending elementwise values that something outside the graph refers to (a live
    array, or another pending graph) which realizing the targets stores too:

    - inside a deep graph (``HELD_DEPTH``), all of them: a loop's state (``v *= 0.9; p +=
      v`` then ``float(p.sum())`` every step); otherwise the next step's graph holds this
      one whole: one kernel per step of a new structure, each compiled and each longer than
      the last;
    - on the cpu device, the costly ones (``HELD_WEIGHT``): the program will most likely
      read them again.

    ``nodes`` is the graph (``_structure``'s, each node once, sources first); what refers to
    a node from inside is ``nodes`` and its parents' source tuples."""
    if not held_enabled[0] or not nodes:
        return []
    deep = max((t.depth for t in targets), default=0) >= HELD_DEPTH
    costly = targets[0].device.info.style == "loops"
    if not deep and not costly:
        return []
    parents: dict[int, int] = {}    # node -> the source tuples in the graph that hold it
    for n in nodes:
        for src in n.srcs:
            parents[id(src)] = parents.get(id(src), 0) + 1
    weight: dict[int, int] = {}     # elementwise node -> the cost of computing it again
    n = src = None      # (the loops' variables would count as references below)
    asked = {id(t) for t in targets}
    out: list[Node] = []
    for n in nodes:
        if n.op == "VIEW":
            weight[id(n)] = weight.get(id(n.srcs[0]), 0)
            continue
        if (n.op != "ALU" and n.op != "CAST") or n.buffer is not None:
            continue
        w = _COSTLY_WEIGHT if n.op == "ALU" and n.arg in _COSTLY else 1
        for x in n.srcs:
            w += weight.get(id(x), 0)
        weight[id(n)] = w
        # (the references from here: ``nodes``, this loop's ``n``, getrefcount's argument)
        if id(n) not in asked and n.depth > 1 and (deep or (
                w >= HELD_WEIGHT and n.size >= HELD_MIN_SIZE)) and \
                sys.getrefcount(n) > 3 + parents.get(id(n), 0):
            out.append(n)
            weight[id(n)] = 0       # (stored: what reads it loads it)
    x = None
    return out


def _schedule(targets: list[Node], held: Sequence[Node] = ()) -> list[KernelPlan | LibraryStep]:
    """Plan every node that must be stored: the targets, what is ``held`` (see ``_held``),
    and whatever their plans cannot inline (unfusable nodes, reductions that two kernels
    would both compute, values read through a second view at a cost). Each node is planned
    once; a plan is rebuilt only when a node it inlined turns out to need a kernel of its
    own, so the work is linear in the graph (a chain of K writes makes K plans, not
    K(K+1)/2)."""
    materialize = {id(t) for t in targets} | {id(h) for h in held}
    plans: dict[int, list[KernelPlan | LibraryStep]] = {}
    owner: dict[int, Node] = {}
    inlined_by: dict[int, set[int]] = {}    # node -> the planned nodes whose plans inline it
    reasons = {id(t): "asked for" for t in targets}     # node -> why it is stored
    for h in held:
        reasons[id(h)] = ("a value a live array still shows, in a deep graph (a loop's state) "
                          "or costly to compute again")
    pending = list(targets) + list(held)
    while pending:
        n = pending.pop()
        if id(n) in plans or n.realized:
            continue
        node_plans, unfusable = build_plans(n, materialize)
        plans[id(n)] = node_plans
        owner[id(n)] = n
        grow = list(unfusable)
        fused = [id(r) for plan in node_plans for r in plan.fused]
        for plan in node_plans:
            grow += plan.needs
            for i in _inlined(plan):
                inlined_by.setdefault(i, set()).add(id(n))
            if isinstance(plan, KernelPlan):
                for i, why in (plan.why or {}).items():
                    reasons.setdefault(i, why)
            else:
                for dep in plan.needs:
                    reasons.setdefault(id(dep), f"an input of the library op {plan.name}")
        for plan in node_plans:
            for r in plan.fused:
                if len(inlined_by[id(r)]) > 1 or fused.count(id(r)) > 1:
                    grow.append(r)
                    reasons.setdefault(id(r), "a reduction that two kernels would compute")
        for g in grow:
            if id(g) in materialize or g.realized:
                continue
            materialize.add(id(g))
            pending.append(g)
            for user in inlined_by.pop(id(g), ()):   # plans that inlined it: rebuild them
                stale = plans.pop(user, None)
                if stale is None:
                    continue
                for plan in stale:
                    for i in _inlined(plan):
                        users = inlined_by.get(i)
                        if users is not None:
                            users.discard(user)
                pending.append(owner[user])
    for i, steps in plans.items():
        for plan in steps:
            plan.reason = reasons.get(i, "")
    return _order(plans)


def _inlined(plan: KernelPlan | LibraryStep) -> set[int]:
    return (plan.inlined or set()) if isinstance(plan, KernelPlan) else set()


def _order(plans: dict[int, list[KernelPlan | LibraryStep]]) -> list[KernelPlan | LibraryStep]:
    """Plans in dependency order (a kernel after the kernels whose outputs it loads).

    Iterative on purpose: a recursive closure would form a reference cycle that keeps every
    plan, and so every intermediate buffer, alive until the garbage collector runs."""
    out: list[KernelPlan | LibraryStep] = []
    done: set[int] = set()
    for start in plans:
        stack = [(start, False)]
        while stack:
            key, expanded = stack.pop()
            if key in done:
                continue
            if expanded:
                done.add(key)
                out.extend(plans[key])
                continue
            stack.append((key, True))
            for plan in plans[key]:
                for dep in plan.needs:
                    if id(dep) in plans and dep is not plan.output and id(dep) not in done:
                        stack.append((id(dep), False))
    return out
