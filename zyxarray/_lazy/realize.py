"""Realization: schedule pending nodes, fetch or build each kernel, launch it.

Layer: ``_lazy``. Renders through ``_codegen`` and runs through ``_devices``.

The in-memory program cache is keyed by the canonical structure (``Canonical.key``), so a
cache hit costs no lowering, rendering or hashing of source text; a miss lowers to IR,
renders, and lets the device compile (the device keeps its own on-disk cache).
"""

from __future__ import annotations

import hashlib
import math
import pickle
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import _debug
from .._codegen import render
from .._codegen.ir import Kernel
from .._devices import cache, library
from .._devices.base import Buffer, Device, Program, host_memory
from . import graph, tune
from .files import load_files
from .graph import Node
from .lower import Canonical, _const_arguments, canonicalize, forget, lower, phases, scratch
from .schedule import (
    KernelPlan,
    LibraryStep,
    _interior,
    held_enabled,
    keyed_kernel,
    keyed_kernels,
    memo_stats,
    schedule,
)
from .view import contiguous_strides, span

# Walking a pending graph recurses once per node; graphs are kept below MAX_DEPTH levels
# (deeper ones are realized as they grow), which needs a few frames per level.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

_programs: dict[tuple, Program] = {}
stats = {"kernels": 0, "compiles": 0, "cache_hits": 0, "rendered_hits": 0}


@dataclass
class PlannedKernel:
    """One kernel of a plan, as ``explain`` shows it."""

    device: str
    name: str
    strategy: str
    source: str
    ir: Kernel | None
    outputs: list[tuple[tuple[int, ...], str]]
    reason: str = ""       # why this value is stored (the scheduler's fusion decisions)

    def __str__(self) -> str:
        outs = ", ".join(f"{d}{list(s)}" for s, d in self.outputs)
        why = f"\nstored because: {self.reason}" if self.reason else ""
        return (f"kernel {self.name} on {self.device} ({self.strategy}) -> {outs}{why}\n"
                f"{self.source}")


def _unrealized_bases(nodes: Sequence[Node]) -> list[Node]:
    if len(nodes) == 1:       # (the common case: one array observed)
        b = nodes[0].base()
        return [] if b.buffer is not None or b.op == "CONST" else [b]
    out: list[Node] = []
    seen: set[int] = set()
    for n in nodes:
        b = n.base()
        if not b.realized and b.op != "CONST" and id(b) not in seen:
            seen.add(id(b))
            out.append(b)
    return out


def _copies_first(targets: list[Node]) -> None:
    """Realize every pending COPY (a move between devices through the host) first."""
    if not graph.pending_copies[0]:
        return
    seen: set[int] = set()
    stack = list(targets)
    copies: list[Node] = []
    while stack:
        n = stack.pop()
        if id(n) in seen or n.realized:
            continue
        seen.add(id(n))
        if n.op == "COPY":
            copies.append(n)
            continue
        stack.extend(n.srcs)
    for n in copies:
        src = n.srcs[0]
        target_memory = getattr(n.device, "host_array", None)
        if target_memory is not None and src.op == "BUFFER" and src.nbytes:
            # into host memory (``x.to_device("cpu")``): read straight into the new buffer
            buf = n.device.alloc(src.nbytes)
            src.device.copy_out(src.buffer, 0, src.nbytes, None, target_memory(buf))
            nbytes = src.nbytes
        else:
            host = to_host(src)
            buf = n.device.alloc(max(host.nbytes, 1))
            n.device.copy_in(buf, host)
            nbytes = host.nbytes
        _debug.log("memory", f"copy {src.device.name} -> {n.device.name}: {nbytes} bytes")
        n.set_buffer(buf)
        graph.pending_copies[0] -= 1


def _name(c: Canonical) -> str:
    """A name that depends on the kernel's structure only (the same in every process, unlike
    ``hash``, which Python salts per process)."""
    return f"{c.strategy}_{hashlib.sha1(repr(c.key).encode()).hexdigest()[:8]}"


def _program(c: Canonical, phase: int = 0) -> Program:
    memo = c.plan.memo     # a memoized plan keeps its program: no hashing of the key again
    slot = ("program", c.info.name, phase, c.lanes)   # (lanes: the tuner's candidates)
    if memo is not None:
        prog = memo.get(slot)
        if prog is not None:
            stats["cache_hits"] += 1
            return prog
    key = c.key if not phase else (c.key, phase)
    prog = _programs.get(key)
    if prog is not None:
        stats["cache_hits"] += 1
    else:
        prog = _programs[key] = _build(c, phase)
    if memo is not None:
        memo[slot] = prog
    return prog


def _build(c: Canonical, phase: int = 0) -> Program:
    device = c.plan.output.device
    t0 = time.perf_counter()
    name = _name(c) + (f"_{phase}" if phase else "")
    digest = _rendered_key(c, name, phase) if device.caches_rendered and cache.enabled() \
        else None
    found = _load_rendered(digest) if digest is not None else None
    if found is not None:
        ir, source = found
    else:
        ir = lower(c, name, phase)
        if _debug.enabled("ir"):     # (the listing costs about as much as lowering)
            _debug.log("ir", str(ir))
        source = render(ir, device.info.language)
        if digest is not None:
            try:
                cache.store_bytes("rendered", digest, ".pickle",
                                  pickle.dumps((ir, source), protocol=pickle.HIGHEST_PROTOCOL))
            except Exception as e:    # (a cache that cannot keep it: the kernel still runs)
                _debug.log("compile", f"{device.name}: {name} not kept on disk: {e!r}")
    _debug.log("source", source)
    prog = device.compile(source, ir)
    stats["compiles"] += 1
    _debug.log("compile", f"{device.name}: {ir.name} ready in "
                          f"{1e3 * (time.perf_counter() - t0):.1f} ms")
    return prog


def _rendered_key(c: Canonical, name: str, phase: int) -> str:
    """The disk cache's key for the lowered and rendered kernel of ``c``: its structure
    (``c.key``, the same in every process), the device's description and the code that
    lowers and renders (``_code_digest``)."""
    return cache.key(_code_digest(), repr(c.info), repr(c.key), name, str(phase))


def _load_rendered(digest: str) -> tuple[Kernel, Any] | None:
    """(IR, source) that an earlier process lowered and rendered, None where there is none
    or it cannot be read back (then it is rendered again and replaced)."""
    path = cache.lookup("rendered", digest, ".pickle")
    if path is None:
        return None
    try:
        ir, source = pickle.loads(path.read_bytes())
    except Exception:   # (a truncated or foreign file: any unpickling error)
        return None
    stats["rendered_hits"] += 1
    return ir, source


def _code_digest() -> str:
    """A digest of the code that shapes a kernel (``_lazy`` and ``_codegen``): a rendered
    kernel kept on disk by another version of it is not used."""
    global _code
    if _code is None:
        h = hashlib.sha256()
        root = Path(__file__).resolve().parent.parent
        for folder in ("_lazy", "_codegen"):
            for f in sorted((root / folder).glob("*.py")):
                h.update(f.name.encode())
                h.update(f.read_bytes())
        _code = h.hexdigest()
    return _code


_code: str | None = None


def _device_view(node: Node) -> tuple | None:
    """(buffer, dtype, shape, strides, offset) of a realized node or plain strided view of
    one, for a device-resident library op; None for anything else (constants, masks)."""
    base = node.base()
    if base.buffer is None:
        return None
    if node is base:
        return base.buffer, node.dtype, node.shape, contiguous_strides(node.shape), 0
    st = node.arg if node.op == "VIEW" else None
    if st is None or len(st) != 1 or st[0].mask is not None:
        return None
    return base.buffer, node.dtype, node.shape, st[0].strides, st[0].offset


def _run_on_device(step: LibraryStep, impl: object) -> bool:
    """Run a library op on the device's own memory (``library.on_device``); False when an
    input is not a plain view of a buffer (the caller then goes through the host)."""
    out = step.output
    device: Any = out.device
    views = [_device_view(n) for n in step.inputs]
    if any(v is None for v in views):
        return False
    buf = device.alloc(out.nbytes)
    with device.activate():
        arrays = [device.as_array(*v) for v in views]   # type: ignore[misc]
        target = device.as_array(buf, out.dtype, out.shape)
        impl(*arrays, out=target, **step.params)  # type: ignore[operator]
    buf.ready = device.record()
    _debug.log("launch", f"{device.name}: library {step.name} on the device -> "
                         f"{list(out.shape)}")
    stats["kernels"] += 1
    out.set_buffer(buf)
    return True


def run_library(step: LibraryStep) -> None:
    """A library op: on the device's own memory where it has an implementation
    (``library.on_device``), on zero-copy host views on host devices, else through a logged
    round trip to the host."""
    out = step.output
    device: Device = out.device
    direct = device.library_direct
    if direct is not None:
        views = [_device_view(n) for n in step.inputs]
        if all(v is not None for v in views):
            buf = direct(step.name, views, out.dtype, out.shape, step.params)
            if buf is not None:
                stats["kernels"] += 1
                if _debug.enabled("launch"):
                    _debug.log("launch", f"{device.name}: library {step.name} on the device "
                                         f"-> {list(out.shape)}")
                out.set_buffer(buf)
                return
    impl = library.on_device(device.info.kind, step.name)
    if impl is not None and _run_on_device(step, impl):
        return
    host_array = getattr(device, "host_array", None)
    inputs = [_host_input(n, host_array) for n in step.inputs]
    if host_array is not None:
        buf = _run_host(step.name, inputs, step.params, device, out.dtype, out.shape)
    else:
        buf = device.alloc(out.nbytes)
        _debug.log("launch", f"{device.name}: {step.name} runs on the host (round trip)")
        target = np.empty(out.shape, out.dtype)
        library.run_host(step.name, inputs, target, step.params)
        device.copy_in(buf, target)
        stats["kernels"] += 1
    if _debug.enabled("launch"):
        _debug.log("launch", f"{device.name}: library {step.name} -> {list(out.shape)}")
    out.set_buffer(buf)


def _run_host(name: str, inputs: list[np.ndarray], params: dict[str, Any], device: Any,
              dtype: np.dtype, shape: tuple[int, ...]) -> Buffer:
    """A new buffer of ``device`` (whose memory is the host's) holding the host library
    op ``name`` of ``inputs``."""
    buf = device.alloc(math.prod(shape) * dtype.itemsize)
    memory = host_memory(buf, dtype)
    assert memory is not None
    library.run_host(name, inputs, memory.reshape(shape), params)
    stats["kernels"] += 1
    return buf


def _host_input(node: Node, host_array: Any) -> np.ndarray:
    """A library op's input as a host array. On a device whose memory is the host's
    (``host_array``), a plain view of a buffer is a writable NumPy view of that memory: no
    copy, and none of the slower paths NumPy takes for read-only arrays (its argmax is 4x
    slower on them). The implementations only read their inputs."""
    view = _device_view(node) if host_array is not None and node.size else None
    if view is None:
        return to_host(node)
    buf, dtype, shape, strides, offset = view
    flat = host_memory(buf, dtype)
    assert flat is not None
    if strides == contiguous_strides(shape):
        return flat[offset:offset + node.size].reshape(shape)
    item = dtype.itemsize
    return np.ndarray(shape, dtype, flat, offset * item, tuple([s * item for s in strides]))


def library_now(name: str, srcs: tuple[Node, ...], params: dict[str, Any], dtype: np.dtype,
                shape: tuple[int, ...]) -> Node | None:
    """The library op ``name`` of realized data (or plain views of it) in host memory,
    run now into a new buffer: the realized node, without the LIBRARY node, the step and
    the dispatch that ``run_library`` takes (a small matmul in a loop: ``X @ w`` every step).
    None, with nothing done, where an input is pending, empty or elsewhere."""
    device: Any = srcs[0].device
    host_array = getattr(device, "host_array", None)
    if host_array is None:
        return None
    inputs = []
    for n in srcs:
        if not n.shape or n.base().buffer is None or not n.size:
            return None
        inputs.append(_host_input(n, host_array))
    return graph.buffer_node(_run_host(name, inputs, params, device, dtype, shape), dtype,
                             shape)


def run_plan(plan: KernelPlan | LibraryStep) -> None:
    if isinstance(plan, LibraryStep):
        run_library(plan)
        return
    out = plan.output
    device: Device = out.device
    c = canonicalize(plan, device.info)
    buf = out.buffer if plan.into else device.alloc(out.nbytes)
    assert buf is not None
    if math.prod(c.outer) == 0 or (plan.full and math.prod(c.red) == 0):
        out.set_buffer(buf)
        return
    buffers = [node.buffer for node, _ in plan.loads] + [buf]
    tuned = c.info.style == "threads" and not plan.into and tune.enabled()
    if tuned:
        c = _tuned(c, plan, buffers)
    _launch(c, buffers, buf)
    out.set_buffer(buf)
    memo = plan.memo
    if memo is not None and not tuned and not plan.into and plan.out_view is None:
        # (what _realize_keyed needs to launch this kernel again without a plan: its
        # programs, one per phase, and the scratch memory the first leaves the second)
        parts = memo.get(c.info.name)
        progs = tuple(memo.get(("program", c.info.name, phase, c.lanes))
                      for phase in range(phases(c)))
        if parts is not None and None not in progs:
            memo[("launch", c.info.name)] = (progs, parts[7], parts[10], parts[8], parts[9],
                                             tuple(n * d.itemsize for d, n in scratch(c)))


def _launch(c: Canonical, buffers: list[Any], buf: Any) -> None:
    """Run the kernel(s) of ``c`` on ``buffers`` (the loads', then the output ``buf``)."""
    device = c.plan.output.device
    for phase in range(phases(c)):
        prog = _program(c, phase)
        if phase == 0:
            # scratch memory for the partial results the first kernel leaves the second
            buffers += [device.alloc(n * d.itemsize) for d, n in scratch(c)]
        if _debug.enabled("launch"):
            _debug.log("launch", f"{device.name}: {prog.name} outer={c.outer} red={c.red} "
                                 f"ints={c.ints} floats={c.floats}")
        buf.ready = prog(buffers, c.ints, c.floats)  # type: ignore[arg-type]
        stats["kernels"] += 1


def _realize_keyed(t: Node) -> bool:
    """Realize ``t`` by the one kernel memoized for its keyed graph, with the arguments
    read straight from its leaves (``schedule.keyed_kernel``): what ``schedule`` (the
    template's plan), ``canonicalize`` and ``run_plan`` would do, without making a plan or
    a canonical form. A loop that observes a small result every step pays this, not the
    whole realization. False (nothing done) until a realization by the slow path has run
    that kernel on this device."""
    spec = keyed_kernel(t.key)      # type: ignore[arg-type]
    if spec is None:
        return _realize_keyed_kernels(t)
    device = t.device
    ready = spec[3].get(("ready", device.info.name))
    if ready is None:
        ready = _ready(spec, device)
        if ready is None:
            return False
    leaves = t.leaves
    assert leaves is not None
    _launch_ready(ready, leaves, t)
    memo_stats["hits"] += 1     # (the scheduler's plans for this structure, reused)
    return True


def _launch_ready(ready: tuple, nodes: Sequence[Node], out: Node) -> None:
    """Launch a kernel from its ``_ready`` record, reading the graph's ``nodes`` by the
    positions the record names, into a new buffer for ``out``."""
    progs, loads, ints, moving, consts, kinds, suffix, scratch_bytes = ready
    buffers = [(nodes[i].srcs[0] if window else nodes[i]).buffer for i, window in loads]
    if moving:
        ints = list(ints)
        for pos, delta, w in moving:
            ints[pos] = delta + nodes[w].arg[-1].offset
    floats: list[float] = []
    if consts:
        const_ints, floats = _const_arguments(
            [nodes[p].arg if type(p) is int else p.arg for p in consts], kinds)
        ints = ints + const_ints + suffix
    elif suffix:
        ints = ints + suffix
    device = out.device
    buf = device.alloc(out.nbytes)
    buffers.append(buf)       # (a new buffer: no window the C hot path knows moves)
    if scratch_bytes:         # (a two-kernel plan's partial results, as ``_launch`` makes)
        buffers += [device.alloc(n) for n in scratch_bytes]
    for prog in progs:
        buf.ready = prog(buffers, ints, floats)
    stats["kernels"] += len(progs)
    stats["cache_hits"] += 1
    out.set_buffer(buf)


def _realize_keyed_kernels(t: Node) -> bool:
    """``_realize_keyed`` for a keyed graph of several kernels: each launched in turn from
    its record, the intermediates found by their paths (``schedule._interior``), without
    plans or canonical forms (a Jacobi step or a k-means step, each iteration: about 10 us
    a kernel on the 2-core machine, more on slower hosts). False (nothing done) where the
    graph differs or a kernel has not run by the slow path on this device yet. An
    intermediate is let go after its last reader, as ``realize`` lets its plans go."""
    found = keyed_kernels(t.key)    # type: ignore[arg-type]
    if found is None:
        return False
    kernels, paths = found
    device = t.device
    readies = []
    for spec in kernels:
        ready = spec[3].get(("ready", device.info.name))
        if ready is None:
            ready = _ready(spec[:4], device)
            if ready is None:
                return False
        readies.append(ready)
    leaves = t.leaves
    assert leaves is not None
    nodes: list[Any] = _interior(t, paths, [*leaves, t])
    if nodes is None:
        return False
    first = len(leaves) + 1     # (the intermediates' positions: after the leaves and t)
    last = {}                   # intermediate position -> the last kernel that reads it
    for k, ready in enumerate(readies):
        for i, window in ready[1]:
            if not window and i >= first:
                last[i] = k
    for k, (spec, ready) in enumerate(zip(kernels, readies)):
        _launch_ready(ready, nodes, nodes[spec[4]])
        for i, window in ready[1]:
            if not window and last.get(i) == k:
                nodes[i] = None
    memo_stats["hits"] += 1
    assert t.buffer is not None
    return True


def _realize_library(t: Node) -> bool:
    """Run the library op ``t`` straight away when its inputs are realized data or views
    of it, after realizing at most one pending input by itself: the plan ``schedule``
    would make (the input's steps, then the op's), without planning the whole graph, so
    each part takes its own fast path. False, with nothing done, when two inputs are
    pending (the scheduler plans them together)."""
    pending = None
    for s in t.srcs:
        b = s.base()
        if b.buffer is None and b.op != "CONST":
            if pending is not None and b is not pending:
                return False
            pending = b
    if pending is not None:
        realize(pending)
    name, params = t.arg
    run_library(LibraryStep(t, name, dict(params), list(t.srcs)))
    return True


def _ready(spec: tuple, device: Device) -> tuple | None:
    """``_realize_keyed``'s record of a keyed kernel on ``device``, made from what
    ``run_plan`` kept once it ran the kernel there (None before that), and kept in the
    kernel's memo: (programs, one per phase, loads as (leaf position, is a window), the
    ints before the constants' with every fixed offset in place, the offsets that move
    with a window as (position, offset less where it started, window leaf position), the
    constants, their kinds, the ints after the constants', the scratch buffers' sizes in
    bytes). ``lower.forget`` drops both records with the canonical form."""
    loads, offsets, consts, memo = spec
    launch = memo.get(("launch", device.info.name))
    if launch is None:
        return None
    progs, prefix, slots, suffix, kinds, scratch_bytes = launch
    ints = list(prefix)
    moving = []
    for pos, (offset, w, start) in zip(slots, offsets):
        if w < 0:
            ints[pos] = offset
        else:
            moving.append((pos, offset - start, w))
    sources = tuple((w, True) if i < 0 else (i, False) for i, w in loads)
    ready = memo[("ready", device.info.name)] = (progs, sources, ints, tuple(moving), consts,
                                                 kinds, list(suffix), scratch_bytes)
    return ready


def _tuned(c: Canonical, plan: KernelPlan, buffers: list[Any]) -> Canonical:
    """``c`` with its work-group size measured (``tune.py``): each candidate runs on this
    plan's inputs into a scratch output, best of three timed rounds."""
    device = plan.output.device
    scratch_out = device.alloc(plan.output.nbytes)
    trial = buffers[:-1] + [scratch_out]

    def measure(cand: Canonical) -> float:
        _launch(cand, list(trial), scratch_out)      # (compiles it; warms the caches)
        device.synchronize()
        t0 = time.perf_counter()
        _launch(cand, list(trial), scratch_out)
        device.synchronize()
        rounds = tune.timer_rounds(time.perf_counter() - t0)
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(rounds):
                _launch(cand, list(trial), scratch_out)
            device.synchronize()
            best = min(best, (time.perf_counter() - t0) / rounds)
        return best

    def redo(lanes: int) -> Canonical:
        return canonicalize(plan, c.info, lanes)

    chosen = tune.tuned(c, measure, redo)
    if chosen is not c:
        forget(plan, c.info)     # (later runs of this structure canonicalize to the choice)
    return chosen


def _in_base(node: Node) -> tuple[Node, int, tuple[int, ...]] | None:
    """(the node whose buffer holds ``node``'s elements, the first one's index, the element
    strides) for a node or a one-view unmasked window of one; None for other views."""
    if node.op != "VIEW":
        return node, 0, contiguous_strides(node.shape)
    st = node.arg
    if len(st) != 1 or st[0].mask is not None or st[0].shape != node.shape:
        return None
    return node.srcs[0], st[0].offset, st[0].strides


def host_element(node: Node, idx: tuple[int, ...] = ()) -> tuple[np.ndarray, int] | None:
    """(the host memory holding an element of ``node``, typed, and the element's index in
    it) on a device whose memory is the host's (cpu, reference), for realized data or a
    one-view unmasked window of it; None otherwise. ``idx`` names the element (one index
    per axis, in range and non-negative); without it ``node`` must hold one element.
    Reading or writing an element there is a memory access, not a kernel: what loops over
    elements need."""
    at = _in_base(node)
    if at is None or (not idx and math.prod(node.shape) != 1):
        return None
    base, index, strides = at
    for i, s in zip(idx, strides):
        index += i * s
    buf = base.buffer
    memory = host_memory(buf, base.dtype) if buf is not None else None
    return None if memory is None else (memory, index)


def element(node: Node, idx: tuple[int, ...] = ()) -> Node | None:
    """``node[idx]`` (see ``host_element``) read now as a CONST: NumPy's ``a[i]`` (a scalar,
    a copy), with no kernel; an element of one value broadcast (``full``) is that value, on
    every device. None where the data is elsewhere."""
    at = host_element(node, idx)
    if at is not None:
        value = at[0][at[1]].item()
    elif graph.is_constant(node):     # (``full``, ``zeros`` not yet computed: their value)
        value = (node if node.op == "CONST" else node.srcs[0]).arg
    else:
        return None
    n = _new_node(Node)
    n.op, n.srcs, n.arg, n.buffer = "CONST", (), value, None
    n.dtype, n.shape, n.device, n.depth = node.dtype, (), node.device, 0
    n.key = graph.const_key(node.dtype, node.device)
    n.leaves = None
    n.epoch = graph._realized[0]
    return n


_new_node = object.__new__


def store_element(node: Node, idx: tuple[int, ...], value: Any) -> bool:
    """Store the Python number ``value`` as ``node[idx]`` in host memory (see
    ``host_element``); False where the element is elsewhere or NumPy refuses the value (an
    int8 out of range, a NaN into integers: a kernel's cast decides those)."""
    at = host_element(node, idx)
    if at is None:
        return False
    try:
        at[0][at[1]] = value
    except (OverflowError, ValueError, TypeError):
        return False
    return True


def host_window(node: Node) -> tuple | bool | None:
    """Where ``node``'s elements lie in host memory, for the C hot path (``_api/_hot.c``):
    (address, dtype, shape, byte strides, whether the node owns the buffer, device, the
    accumulator lanes of the device's loop-kernel reductions or 0 for another style, whether
    the device computes small results now: the cpu device, whose kernels the C path matches),
    for realized data or a one-view unmasked window of it on a device whose memory is the
    host's, once its producer has finished; None otherwise, and False for a device whose
    memory is not the host's (never a window: the C path remembers the device). The answer
    holds until the node changes or a kernel writes into an existing buffer (``on_write``)."""
    if not hasattr(node.device, "host_array"):
        return False
    at = _in_base(node)
    if at is None:
        return None
    base, offset, strides = at
    # (a store needs the node's own buffer, never handed out without a copy)
    direct = base is node and node.buffer is not None and not node.buffer.exported
    if base.buffer is None or base.dtype != node.dtype:     # (rank: _hot.c's MAXDIM decides)
        return None
    memory = host_memory(base.buffer, base.dtype)
    if memory is None:
        return None
    item = node.dtype.itemsize
    info = node.device.info
    return (memory.ctypes.data + offset * item, node.dtype, node.shape,
            tuple(s * item for s in strides), direct, node.device,
            max(info.simd_lanes, 1) if info.style == "loops" else 0, info.kind == "cpu")


def _nothing() -> None:
    pass


#: called before a kernel may write into a buffer that already holds data (the C hot path
#: then forgets where arrays' elements are: ``_api/_hot.py`` sets it)
on_write: Callable[[], None] = _nothing


def read_scalar(node: Node) -> Any:
    """The value of a one-element node as a Python scalar: a constant's value, an element of
    host memory, or a read through ``to_host``."""
    if node.op == "CONST":
        return node.dtype.type(node.arg).item()
    if node.base().buffer is None and node.base().srcs and hasattr(node.device, "host_array"):
        realize(node)           # (elsewhere to_host realizes it, freeing the graph meanwhile)
    at = host_element(node)
    if at is not None:
        return at[0][at[1]].item()
    return to_host(node).reshape(()).item()


def write_region(node: Node, value: Node, region: tuple) -> None:
    """Store ``value`` (of the region's shape) into ``node``'s own buffer at ``region``, now.

    The caller guarantees that nothing else can observe ``node`` (it owns it alone), so the
    functional update may reuse the buffer instead of copying it."""
    from .schedule import build_plan

    assert node.realized
    on_write()
    if value.base().op == "CONST" and len(region) == 1 and region[0].mask is None \
            and math.prod(region[0].shape) == 1 and (value.op == "CONST" or (
                len(value.arg) == 1 and value.arg[0].mask is None)):
        # one element of host memory: a store, no kernel (the region's offset is where)
        flat = Node("VIEW", (node,), region, node.dtype, region[0].shape, node.device)
        if store_element(flat, (), value.base().arg):
            return
    base = value.base()
    if not base.realized and base.op not in ("CONST", "IOTA"):
        realize(value)
    plan, unfusable = build_plan(node, set(), root=value, out_view=region)
    assert not unfusable and not plan.needs
    run_plan(plan)


def bound_depth(node: Node) -> None:
    """Realize ``node``, whose graph grew past ``graph.MAX_DEPTH`` (the operators call this:
    a long loop that observes nothing). The values live arrays still show are not stored
    with it (``schedule._held``): in ``x = x + 1`` the array about to be rebound still shows
    the previous value, which nothing will read again."""
    held_enabled[0] = False
    try:
        realize(node)
    finally:
        held_enabled[0] = True


def realize(*nodes: Node) -> None:
    """Compute every pending node that ``nodes`` (or their views) need."""
    if len(nodes) == 1 and not graph.pending_files and not _debug.active():
        t = nodes[0].base()
        if t.buffer is not None or t.op == "CONST":
            return
        if t.leaves is not None and _realize_keyed(t):
            return
        if t.op == "LIBRARY" and _realize_library(t):
            return
    if graph.pending_files:
        load_files(nodes)
    targets = _unrealized_bases(nodes)
    if not targets:
        return
    on_write()
    if graph.pending_copies[0]:
        _copies_first(targets)
        targets = [t for t in targets if not t.realized]
    if _debug.enabled("graph"):
        _debug.log("graph", "realize " + "; ".join(_describe(t) for t in targets))
    plans = schedule(targets)
    if _debug.enabled("schedule"):
        _debug.log("schedule", f"{len(plans)} kernel(s) for {len(targets)} target(s)")
        for p in plans:
            if isinstance(p, LibraryStep):
                _debug.log("schedule", f"  -> library {p.name} {list(p.output.shape)}")
                continue
            _debug.log("schedule", f"  -> {p.output.op if not p.output.realized else 'BUFFER'} "
                                   f"{list(p.output.shape)}: domain {list(p.domain)}, reduce "
                                   f"axes {list(p.axes)}, {len(p.exprs)} exprs, "
                                   f"{len(p.loads)} loads, {len(p.fused)} fused reductions")
    # (each plan let go once it has run: an intermediate that only later plans read is freed
    # after the last of them, and its memory serves the next step's output while it is still
    # in the caches; a loop of 30 Jacobi steps on 512 x 512 held 60 MB to the end)
    plans.reverse()
    while plans:
        run_plan(plans.pop())


def _describe(node: Node) -> str:
    """A short census of the pending graph under ``node`` (for the graph debug topic)."""
    counts: dict[str, int] = {}
    seen: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        counts[n.op] = counts.get(n.op, 0) + 1
        stack.extend(n.srcs)
    parts = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    return f"{node.op} {node.dtype} {list(node.shape)} on {node.device.name}: {parts}"


def explain(*nodes: Node) -> list[PlannedKernel]:
    """The kernels realizing ``nodes`` would run, without running any (the parts of files
    that they read are loaded first, as a realization would)."""
    if graph.pending_files:
        load_files(nodes)
    targets = _unrealized_bases(list(nodes))
    out = []
    for plan in schedule(targets) if targets else []:
        device = plan.output.device
        if isinstance(plan, LibraryStep):
            params = ", ".join(f"{k}={v!r}" for k, v in plan.params.items())
            text = f"{plan.name}({params}) through the device's library table"
            out.append(PlannedKernel(device.name, f"library:{plan.name}", "library", text,
                                     None, [(plan.output.shape, plan.output.dtype.name)],
                                     plan.reason))
            continue
        c = canonicalize(plan, device.info)
        for phase in range(phases(c)):
            ir = lower(c, _name(c) + (f"_{phase}" if phase else ""), phase)
            out.append(PlannedKernel(device.name, ir.name, c.strategy,
                                     render(ir, device.info.language), ir,
                                     [(plan.output.shape, plan.output.dtype.name)],
                                     plan.reason))
    return out


def to_host(node: Node) -> np.ndarray:
    """The node's value as a host array (realizing it first). Views cost no kernel: a plain
    strided view reads only the bytes it spans and is a NumPy view of them; masks and chains
    of views read the whole buffer and index on the host.

    The graph a read realizes is freed while the read's copy is in flight (the device's
    ``copy_out(while_waiting=...)``), not before it is queued: a long chain's nodes cost
    their deallocation in time the host would spend waiting anyway."""
    if graph.pending_files:
        load_files((node,))
    base = node.base()
    st = node.arg if node.op == "VIEW" else None
    masked = False
    for v in st or ():
        masked = masked or v.mask is not None
    simple = st[0] if st is not None and len(st) == 1 and not masked else None
    if simple is not None and node.size == 0:
        return np.empty(node.shape, node.dtype)
    if base.op == "CONST":
        if not masked:
            return np.full(node.shape, base.arg, node.dtype)
        flat = np.full((1,), base.arg, node.dtype)
    else:
        first, stop = span(simple) if simple is not None else (0, base.size)  # (elements)
        held: list[tuple[Node, ...]] = []
        if base.buffer is None:
            held.append(base.srcs)          # (alive until the copy is queued)
            realize(base)
        assert base.buffer is not None
        item = base.dtype.itemsize
        try:
            raw = base.device.copy_out(base.buffer, first * item, stop * item,
                                       held.clear if held else None)
        finally:
            held.clear()
        flat = raw.view(base.dtype)
        if simple is not None:         # (one unmasked view: flat holds just what it spans)
            if simple.strides == contiguous_strides(simple.shape):
                return flat.reshape(node.shape)
            return np.lib.stride_tricks.as_strided(flat[simple.offset - first:], node.shape,
                                                   tuple(s * item for s in simple.strides),
                                                   writeable=False)
    if st is None:
        return flat.reshape(node.shape)
    return _gather_host(flat, st, node.shape, node.dtype)


def _gather_host(flat: np.ndarray, st: tuple, shape: tuple[int, ...], dtype: np.dtype
                 ) -> np.ndarray:
    """Read a chain of (possibly masked) views element by element, vectorized with NumPy."""
    size = int(np.prod(shape)) if shape else 1
    if size == 0:
        return np.empty(shape, dtype)
    idx = np.indices(shape).reshape(len(shape), -1) if shape else np.zeros((0, 1), np.int64)
    valid = np.ones(idx.shape[1], bool)
    coords: tuple = tuple(idx)
    lin = np.zeros(idx.shape[1], np.int64)
    for level, v in enumerate(st):
        if level:
            coords = np.unravel_index(lin, v.shape) if v.shape else ()
        if v.mask is not None:
            for c, (lo, hi) in zip(coords, v.mask):
                valid &= (lo <= c) & (c < hi)
            if not v.mask:
                valid[:] = False
        lin = v.offset + sum((c * s for c, s in zip(coords, v.strides)),
                             np.zeros(idx.shape[1], np.int64))
        lin = np.where(valid, lin, 0)
    if flat.size == 0:
        return np.zeros(shape, dtype)
    out = np.where(valid, flat[lin], np.zeros((), dtype))
    return out.astype(dtype, copy=False).reshape(shape)
