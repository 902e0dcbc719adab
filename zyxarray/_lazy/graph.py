"""Graph nodes: every array operation appends one; nothing is computed here.

Layer: ``_lazy``. Imports ``_codegen.ir`` for op names and ``_devices`` for buffers; it
never renders or compiles.

Node kinds (``Node.op``):

- ``BUFFER``: realized data, a contiguous buffer of ``shape`` on ``device``.
- ``CONST``: a scalar (shape ``()``), broadcast by views; its value becomes a kernel argument,
  or a literal in the kernel's source for a constant made by ``literal`` (the library's own
  fixed constants).
- ``VIEW``: ``arg`` is a ShapeTracker from this node's shape into ``srcs[0]``'s index space.
- ``ALU``: ``arg`` is an IR ``Op``; sources have this node's shape.
- ``CAST``: to ``dtype``.
- ``REDUCE``: ``arg`` is (IR ``Op``, axes); the result keeps reduced axes as size 1.
- ``COPY``: ``srcs[0]`` on another device, moved here through the host.
- ``SETITEM``: ``srcs`` (base, value); ``arg`` a ShapeTracker of the region of this node's
  (contiguous) layout that takes ``value`` (of the region's shape); elsewhere ``base``.
- ``CONCAT``: ``srcs`` the parts; ``arg`` one ShapeTracker per part, the region of this
  node's (contiguous) layout that it fills. Realized as one kernel per part, each writing
  its region of one buffer.
- ``LIBRARY``: ``arg`` is (op name, parameters as a sorted tuple of pairs): matmul, sort,
  FFT... computed by the device's library implementation, not by a generated kernel.
- ``IOTA``: the int64 values ``0, 1, ..., n-1`` (shape ``(n,)``), computed from the index
  inside kernels: arange, eye, tril and masks need no memory of their own.
- ``FILE``: ``arg`` is a ``files.FileSource``: values still in a mapped file (a lazy
  safetensors tensor). ``files.load_files`` copies what a realization reads before it is
  scheduled, so the scheduler never sees one.

When a node is realized it becomes a ``BUFFER`` in place (its sources are dropped), so every
array that shares it sees the result and nothing is computed twice.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import itertools
import math
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.typing import DTypeLike

from .. import _env
from .._codegen.ir import Op, identity
from .._devices.base import Buffer, Device
from .view import ShapeTracker, View, at_offset, compose, contiguous_strides, st_apply

MAX_DEPTH = int(_env.get(_env.MAX_DEPTH) or 400)


class Node:
    __slots__ = (
        "__weakref__",
        "arg",
        "buffer",
        "depth",
        "device",
        "dtype",
        "epoch",
        "key",
        "leaves",
        "op",
        "shape",
        "srcs",
    )

    def __init__(self, op: str, srcs: tuple[Node, ...], arg: Any, dtype: np.dtype,
                 shape: tuple[int, ...], device: Device, buffer: Buffer | None = None) -> None:
        self.op = op
        self.srcs = srcs
        self.arg = arg
        self.dtype = dtype
        self.shape = shape
        self.device = device
        self.buffer = buffer
        depth = 0
        for s in srcs:              # 1 + the deepest source (a loop: no generator per node)
            if s.depth >= depth:
                depth = s.depth + 1
        self.depth: int = depth
        self.leaves: tuple[Node, ...] | None = None
        self.key: int | None = None
        self.epoch = _realized[0]   # (realizations so far: see ``_refresh``)
        if not srcs:
            self.key = _leaf_key(op, dtype, shape, device)
        elif op in _KEYED:
            if op == "VIEW" and srcs[0].op in _WINDOWED:
                _set_window_key(self, srcs[0])
            else:
                _set_key(self, (op, arg, dtype, shape), srcs)

    def __repr__(self) -> str:
        return f"<Node {self.op} {self.dtype} {self.shape} on {self.device.name}>"

    @property
    def realized(self) -> bool:
        return self.buffer is not None

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * self.dtype.itemsize

    def base(self) -> Node:
        """The node a VIEW reads (itself for every other kind)."""
        return self.srcs[0] if self.op == "VIEW" else self

    def set_buffer(self, buffer: Buffer) -> None:
        """Turn this node into realized data; drop the graph above it."""
        self.buffer = buffer
        if self.srcs:
            _realized[0] += 1       # (keys made before may now be stale: ``_refresh``)
        self.op = "BUFFER"
        self.srcs = ()
        self.arg = None
        self.depth = 0
        self.leaves = None
        self.key = _leaf_key("BUFFER", self.dtype, self.shape, self.device)


# -- structure keys --------------------------------------------------------------------------
# ALU, CAST, VIEW, REDUCE and SCAN nodes carry a key of their graph's structure, computed as they
# are built (the way PyTorch's lazy tensors hash their IR): equal keys mean the same
# operations on the same pattern of leaves (BUFFER, CONST and IOTA nodes: kind, dtype, shape
# and device, not their data or values). ``leaves`` lists the node's distinct leaves in
# first-use order. The scheduler reuses the plans made for a key with the new leaves put in,
# without walking the graph: a long chain of operators costs its realization O(leaves), not
# O(nodes). LIBRARY, SETITEM and COPY nodes have no key; graphs with them are walked.
# Keys are never reused: the table that interns them is cleared, the counter is not.
_KEYED = frozenset(("ALU", "CAST", "VIEW", "REDUCE", "SCAN"))
MAX_KEYED_LEAVES = 32
MAX_KEYS = 100_000
_keys: dict[tuple, int] = {}
_key_counter = itertools.count(1)


def _intern(record: tuple) -> int:
    k = _keys.get(record)
    if k is None:
        if len(_keys) >= MAX_KEYS:
            _forget_keys()
        k = _keys[record] = next(_key_counter)
    return k


def _forget_keys() -> None:
    """Clear the key table and every cache of nodes or keys made from it. The shared
    constants go too: one made before (its leaf key from the old table) and one made after
    would give the same graph two keys, and the keyed plans memoized for one would never
    serve the other (a long session's loops fell off the keyed path for good)."""
    _keys.clear()
    _window_keys.clear()
    _templates.clear()
    _rebuilt.clear()
    _consts.clear()
    _literals.clear()
    _const_keys.clear()
    _shared_views.clear()


def const_key(dtype: np.dtype, device: Device) -> int:
    """The leaf key of a CONST of ``dtype`` on ``device`` (what ``Node`` would give one)."""
    k = _const_keys.get((dtype, device))
    if k is None:
        k = _intern(("CONST", dtype, (), device))
        _const_keys[(dtype, device)] = k
    return k


_const_keys: dict[tuple, int] = {}


def _leaf_key(op: str, dtype: np.dtype, shape: tuple[int, ...], device: Device) -> int | None:
    if op == "BUFFER" or op == "CONST" or op == "IOTA":
        return _intern((op, dtype, shape, device))
    return None


# A view of realized data or of an iota is a *window*: a leaf of its own whose key leaves out
# where the window starts (its last view's offset, which kernels take as an argument). The
# rows of an array, ``a[i - 1]`` and ``a[i]`` in a loop, or a sliding slice are then one
# structure: the scheduler's plans for the first serve them all (schedule.py shifts the
# offsets). Only a window's start is left out: the offset of a view of computed data
# decides how later views merge with it, so it stays in the key.
_WINDOWED = frozenset(("BUFFER", "IOTA"))


def is_window(node: Node) -> bool:
    """True for a VIEW that reads realized data or an iota directly."""
    return node.op == "VIEW" and node.srcs[0].op in _WINDOWED


def window_start(node: Node) -> int:
    """Where a window starts: its last view's offset."""
    return node.arg[-1].offset


def window_structure(st: ShapeTracker) -> ShapeTracker:
    """A window's ShapeTracker without where it starts (its structure)."""
    return st[:-1] + (at_offset(st[-1], 0),)


def _set_window_key(n: Node, src: Node) -> None:
    k = src.key
    if k is not None:
        memo = (n.arg, n.dtype, n.shape, k)
        key = _window_keys.get(memo)
        if key is None:
            key = _intern(("WINDOW", window_structure(n.arg), n.dtype, n.shape, k))
            if len(_window_keys) >= MAX_KEYS:
                _window_keys.clear()
            _window_keys[memo] = key
        n.key = key
        # (its leaves are itself: ``leaves`` stays None, as a leaf's does, rather than
        # a tuple that would hold the node in a reference cycle)


#: how many pending nodes have been realized (``Node.set_buffer``); a node keyed before the
#: last one may name leaves of a source that is now realized data (``_refresh``)
_realized = [0]


def _refresh(s: Node, depth: int = 4) -> None:
    """Key ``s`` again if a source below it has been realized since its key was made. A key
    describes the tree as it was built: k-means' ``counts = sum(onehot, axis=0)``, made before
    ``onehot.T @ X`` realized ``onehot``, kept onehot's leaves, and so did every value built
    from it; each iteration's graph carried the last one's leaves, past ``MAX_KEYED_LEAVES``
    by the fourth, and lost its key (its plans then walked the graph every step). Sources
    are refreshed first, ``depth`` levels down (each node once per realization: a long
    pending chain is not walked again and again; below that a stale key is only less
    useful)."""
    epoch = s.epoch = _realized[0]
    leaves = s.leaves
    assert leaves is not None
    stale = False
    for x in s.srcs:
        if x.leaves is not None:
            if depth and x.epoch != epoch:
                old = x.key
                _refresh(x, depth - 1)
                stale = stale or x.key != old
        elif x.key is not None and x.key not in _literal_tokens and \
                not any(x is leaf for leaf in leaves):
            stale = True    # (now a leaf, realized data or a window of it, not among its leaves)
    if not stale:
        return
    s.key = None
    s.leaves = None
    if s.op == "VIEW" and s.srcs[0].op in _WINDOWED:
        _set_window_key(s, s.srcs[0])
    else:
        _set_key(s, (s.op, s.arg, s.dtype, s.shape), s.srcs)


def _set_key(n: Node, record: tuple, srcs: tuple[Node, ...]) -> None:
    """Key ``n`` (an op on ``srcs`` described by ``record``) if every source has a key."""
    epoch = _realized[0]
    for s in srcs:
        if s.leaves is not None and s.epoch != epoch:
            _refresh(s)
    if len(srcs) == 1:          # (views, reductions, casts, unary ops: the leaves as they are)
        s = srcs[0]
        k = s.key
        if k is not None:
            n.leaves = own_leaves(s)
            n.key = _intern((record, k))
        return
    first = srcs[0].leaves
    if first is not None and all(s.leaves is first for s in srcs):
        # (the sources read one graph's leaves: views of one value, ``u[:-2] + u[2:]``)
        keys = [s.key for s in srcs]
        if None not in keys:
            n.key = _intern((record, tuple(keys), _repeated(len(first), len(srcs))))
            n.leaves = first
        return
    leaves: list[Node] = []
    where: dict[int, int] = {}     # id(leaf) -> its position (a list search per leaf made a
    pattern = []                   # binary op of two 16-leaf graphs cost 10-20 us)
    keys = []
    for s in srcs:
        k = s.key
        if k is None:
            return
        keys.append(k)
        for leaf in own_leaves(s):
            i = where.get(id(leaf))
            if i is None:
                i = where[id(leaf)] = len(leaves)
                leaves.append(leaf)
            pattern.append(i)
        if len(leaves) > MAX_KEYED_LEAVES:
            return
    n.key = _intern((record, tuple(keys), tuple(pattern)))
    n.leaves = tuple(leaves)


def own_leaves(s: Node) -> tuple[Node, ...]:
    """The leaves a keyed ``s`` brings to a node made on it: its leaves, itself if it is a
    leaf, none if it is a ``literal``: a literal's key names its value, which kernels hold in
    their source, so the scheduler has nothing to put in its place, and a sampler's dozens of
    literals do not push its graph past ``MAX_KEYED_LEAVES``."""
    leaves = s.leaves
    if leaves is not None:
        return leaves
    return () if s.key in _literal_tokens else (s,)


@functools.lru_cache(maxsize=256)
def _repeated(count: int, times: int) -> tuple[int, ...]:
    """The leaf pattern of ``times`` sources that all have the same ``count`` leaves."""
    return tuple(range(count)) * times


# -- constructors ----------------------------------------------------------------------------
def buffer_node(buffer: Buffer, dtype: DTypeLike, shape: tuple[int, ...]) -> Node:
    return Node("BUFFER", (), None, np.dtype(dtype), tuple(shape), buffer.device, buffer)


def from_host(data: np.ndarray, device: Device) -> Node:
    """Copy a host array to ``device`` (contiguous) and return its BUFFER node."""
    data = np.asarray(data, order="C")   # (ascontiguousarray would make 0-d data 1-d)
    buf = device.alloc(data.nbytes)
    device.copy_in(buf, data)
    return buffer_node(buf, data.dtype, data.shape)


def const(value: Any, dtype: DTypeLike, device: Device) -> Node:
    """A scalar. Equal Python ints and floats share one node per (dtype, device), so a loop
    such as ``y = y * 0.999 + 0.001`` records two constants, not two per iteration (the
    kernel gets one argument each). Zeros of float type (0.0 and -0.0 are equal keys) and
    NaNs are not shared. Inside ``literals()`` a Python int, float or bool is a ``literal``
    (a NumPy scalar stays an argument)."""
    t = type(value)
    if literal_scope.depth and (t is int or t is float or t is bool) and \
            np.dtype(dtype).kind in "biuf":
        return literal(value, dtype, device)
    if t is int or t is bool or (t is float and value != 0.0 and value == value):
        key = (t, value, dtype, device)     # (dtype as given: equal spellings are equal keys)
        node = _consts.get(key)
        if node is None:
            if len(_consts) >= MAX_SHARED_CONSTS:
                _consts.clear()
            node = _consts[key] = Node("CONST", (), value, np.dtype(dtype), (), device)
        return node
    return Node("CONST", (), value, np.dtype(dtype), (), device)


class _LiteralScope(threading.local):
    """How deep in ``literals()`` this thread is (per thread: a sampler running in one
    thread must not make another thread's scalars literals, whose values would then be
    structure: a compile per value)."""

    depth = 0


literal_scope = _LiteralScope()


@contextlib.contextmanager
def literals() -> Iterator[None]:
    """Within: the Python ints, floats and bools that operations take (``x * 2.53``) are
    ``literal``s, written into the kernels. For the library's own algorithms (a sampler's
    coefficients): the values that change from call to call must then be NumPy scalars or
    arrays (``_random_sampling._fresh``), which stay arguments."""
    literal_scope.depth += 1
    try:
        yield
    finally:
        literal_scope.depth -= 1


def literal(value: int | float | bool, dtype: DTypeLike, device: Device) -> Node:
    """A scalar that kernels take written into their source, not as an argument: for the
    constants of the library's own algorithms (the powers of two of ``frexp``, a sampler's
    coefficients, the zero a padded expression reads), which never change from one call to
    the next. Each value is then a structure of its own (its leaf key names it), so a user's
    scalar, which a loop may change every step, must stay a ``const``: one program serves
    all its values. Arguments cost registers: on AMD targets kernels with dozens of them
    spilled scalar registers. A literal is a CONST node like any other (its ``arg`` is its
    value); only the scheduler tells it apart (``literal_token``). A complex value is a
    ``const`` (its two parts are arguments)."""
    dt = np.dtype(dtype)
    if dt.kind == "c":
        return const(value, dt, device)
    token = _literal_token(value, dt)
    key = (token, dt, device)
    node = _literals.get(key)
    if node is None:
        if len(_literals) >= MAX_SHARED_CONSTS:
            _literals.clear()
        node = _literals[key] = Node("CONST", (), value, dt, (), device)
        node.key = _intern(("LITERAL", token, dt, device))
        _literal_tokens[node.key] = token
    return node


def _literal_token(value: Any, dtype: np.dtype) -> Any:
    """``value`` as the kernel will hold it (rounded to ``dtype`` on the host, as a kernel's
    cast of the argument would round it), hashable and equal to itself (NaN included): a
    float as ``float.hex``, an int or bool as itself."""
    if dtype.kind == "f":
        with np.errstate(over="ignore"):
            return float(np.asarray(float(value), np.float64).astype(dtype)).hex()
    if dtype.kind in "iub":
        v = int(value)
        if dtype.kind == "b":
            return bool(v)
        bounds = _int_bounds.get(dtype)
        if bounds is None:
            info = np.iinfo(dtype)
            bounds = _int_bounds[dtype] = (int(info.min), int(info.max))
        if not bounds[0] <= v <= bounds[1]:
            raise ValueError(f"literal: {v} is out of range for {dtype}")
        return v
    raise TypeError(f"literal: no literal of dtype {dtype}")


_int_bounds: dict[np.dtype, tuple[int, int]] = {}    # (np.iinfo's lookup costs 1 us)


def literal_token(node: Node) -> Any:
    """The value a ``literal`` node writes into kernels (see ``_literal_token``), or None
    for any other node."""
    return _literal_tokens.get(node.key) if node.key is not None else None


def literal_value(token: Any) -> int | float | bool:
    """The value of a literal's token."""
    return float.fromhex(token) if type(token) is str else token


#: (token, dtype, device) -> the shared literal node; leaf key -> token
_literals: dict[tuple, Node] = {}
_literal_tokens: dict[int, Any] = {}

#: (a window's ShapeTracker, dtype, shape, its source's key) -> the window's key
_window_keys: dict[tuple, int] = {}

#: shared CONST nodes (a CONST is never realized or changed in place, so sharing is safe)
_consts: dict[tuple, Node] = {}
MAX_SHARED_CONSTS = 4096


def iota(n: int, device: Device) -> Node:
    return Node("IOTA", (), None, np.dtype(np.int64), (int(n),), device)


#: shared views of iotas and constants (``shared_position``, ``shared_fill``): VIEW nodes of
#: leaves, which are never realized or changed, so sharing them is safe (an ALU node is not
#: shared: a reference from here would make the scheduler take it for a live array's)
_shared_views: dict[tuple, Node] = {}


def shared_iota(n: int, device: Device) -> Node:
    """``iota(n)`` shared by the library's own graphs (an attempt axis, a join's positions):
    two draws of one sampler then read one leaf, not two (a multinomial's tree of binomials
    had six iotas of two lengths, which pushed its graph past ``MAX_KEYED_LEAVES``). Never an
    array's own node (``arange`` makes its own), so never realized."""
    key = ("iota", int(n), device)
    node = _shared_views.get(key)
    if node is None or node.op != "IOTA":
        if len(_shared_views) >= MAX_SHARED_CONSTS:
            _shared_views.clear()
        node = _shared_views[key] = iota(n, device)
    return node


def shared_position(total: int, shape: tuple[int, ...], axis: int, device: Device) -> Node:
    """Each element's index along ``axis`` (of length ``total``) in an array of ``shape``:
    an iota seen through a broadcast view, one node for every concat of that shape (a loop
    that joins its pieces each step built three nodes a join for it)."""
    key = ("position", total, shape, axis, device)
    node = _shared_views.get(key)
    if node is None:
        if len(_shared_views) >= MAX_SHARED_CONSTS:
            _shared_views.clear()
        node = shared_iota(total, device)
        node = _shared_views[key] = broadcast(
            reshape(node, (total,) + (1,) * (len(shape) - axis - 1)), shape)
    return node


def shared_fill(value: int, shape: tuple[int, ...], device: Device) -> Node:
    """The int64 ``value`` broadcast to ``shape`` (a concat's bound), one node per value."""
    key = ("fill", value, shape, device)
    node = _shared_views.get(key)
    if node is None:
        if len(_shared_views) >= MAX_SHARED_CONSTS:
            _shared_views.clear()
        node = _shared_views[key] = broadcast(const(value, np.int64, device), shape)
    return node


def alu(op: Op, *srcs: Node, dtype: DTypeLike | None = None) -> Node:
    """An elementwise op. Sources have the result's shape, except that a CONST (a scalar)
    may stand as it is: it reads the same value everywhere, so it needs no broadcast view."""
    first = srcs[1] if op is Op.WHERE else srcs[0]
    shape = None
    for s in srcs:
        if s.op != "CONST":
            if shape is None:
                shape = s.shape
            elif s.shape != shape:
                raise AssertionError(f"{op}: shapes {[s.shape for s in srcs]}")
        elif s.shape != ():
            raise AssertionError(f"{op}: a CONST source of shape {s.shape}")
    if shape is None:
        shape = first.shape
    out = first.dtype if dtype is None else np.dtype(dtype)
    if op in _FOLDABLE and all(is_constant(s) for s in srcs):
        folded = _fold_alu(op, srcs, out)
        if folded is not None:
            return broadcast(_own_const(folded, out, first.device), shape)
    return Node("ALU", srcs, op, out, shape, first.device)


#: elementwise ops folded when every operand is one value (a CONST, or one broadcast): IEEE
#: arithmetic and comparisons, which NumPy's scalars compute exactly as the kernels do
_FOLDABLE = {Op.ADD: np.add, Op.SUB: np.subtract, Op.MUL: np.multiply,
             Op.DIV: np.true_divide, Op.MAX: np.maximum, Op.MIN: np.minimum,
             Op.NEG: np.negative, Op.CMPLT: np.less, Op.CMPLE: np.less_equal,
             Op.CMPEQ: np.equal, Op.CMPNE: np.not_equal}


def is_const_view(node: Node) -> bool:
    """Whether ``node`` is one CONST broadcast (``zeros``, ``full``)."""
    return node.op == "VIEW" and node.srcs[0].op == "CONST" and len(node.arg) == 1 and \
        node.arg[0].mask is None and not any(node.arg[0].strides)


def is_constant(node: Node) -> bool:
    """Whether ``node`` is one value: a CONST or one broadcast (what ``alu`` and ``reduce``
    fold; the API's fast paths leave such operands to the functions that fold them)."""
    return node.op == "CONST" or is_const_view(node)


def _fold_alu(op: Op, srcs: tuple[Node, ...], out: np.dtype) -> Any:
    """``op`` of constant operands, now (None where a kernel must compute it: complex and
    float16 values, integer division)."""
    values = []
    for s in srcs:
        c = s if s.op == "CONST" else s.srcs[0]
        if s.dtype.kind not in "biuf" or (s.dtype.itemsize < 4 and s.dtype.kind == "f") or \
                isinstance(c.arg, complex):
            return None
        values.append(s.dtype.type(c.arg))
    if op is Op.DIV and out.kind != "f":
        return None
    with np.errstate(all="ignore"):
        r = _FOLDABLE[op](*values)
    return r.astype(out).item()


def alu2(op: Op, a: Node, b: Node) -> Node:
    """``alu`` for two sources of one dtype and shape (the caller checked): the operators'
    fast path, which builds the node without ``Node.__init__``'s call."""
    n = _new_node(Node)
    n.op = "ALU"
    n.srcs = (a, b)
    n.arg = op
    n.buffer = None
    n.dtype, n.shape, n.device = a.dtype, a.shape, a.device
    n.depth = (a.depth if a.depth >= b.depth else b.depth) + 1
    n.key = n.leaves = None
    n.epoch = _realized[0]
    _set_key(n, ("ALU2", op), (a, b))
    return n


def alu1(op: Op, a: Node) -> Node:
    """``alu`` of one source that is neither a constant nor one broadcast (the caller
    checked), with the source's dtype: the unary operators' fast path."""
    n = _new_node(Node)
    n.op = "ALU"
    n.srcs = (a,)
    n.arg = op
    n.buffer = None
    n.dtype, n.shape, n.device = a.dtype, a.shape, a.device
    n.depth = a.depth + 1
    n.key = n.leaves = None
    n.epoch = _realized[0]
    _set_key(n, ("ALU1", op), (a,))
    return n


def scalar_op(op: Op, a: Node, value: int | float, reflected: bool,
              memo: dict[tuple, tuple] | None = None) -> Node:
    """``a op value`` (``value op a`` if ``reflected``) for a Python int or float taken in
    a's dtype: the operators' fast path for the commonest node of all, with ``const`` and
    the key's bookkeeping spelled out. A keyed result is built by ``scalar_replay`` from
    what this works out; with ``memo`` (an operator's own dict) that is also kept under
    ``(a.key, value, type(value))``, so the next operand of this key skips the work."""
    t = type(value)
    dtype, device = a.dtype, a.device
    shared = t is int or (t is float and value != 0.0 and value == value)
    c = _consts.get((t, value, dtype, device)) if shared else None
    if c is None or literal_scope.depth:
        c = const(value, dtype, device)
        shared = shared and literal_token(c) is None
    if a.leaves is not None and a.epoch != _realized[0]:
        _refresh(a)
    ka = a.key
    if ka is not None:
        leaves = own_leaves(a)
        if c.key in _literal_tokens:
            pattern = -1                        # (a literal is no leaf: ``own_leaves``)
        else:
            try:
                pattern = leaves.index(c)       # (identity: Node has no __eq__)
            except ValueError:
                pattern = len(leaves)
        if pattern < MAX_KEYED_LEAVES:
            record = (op, ka, c.key, pattern, reflected)
            k = _keys.get(record)
            m = (op, reflected, c, pattern, k if k is not None else _intern(record))
            if memo is not None and shared:
                if len(memo) >= MAX_SCALAR_MEMO:
                    memo.clear()
                memo[(ka, value, t)] = m
            n = scalar_replay(a, m)
            assert n is not None                # (m was made from a itself)
            return n
    return Node("ALU", (c, a) if reflected else (a, c), op, dtype, a.shape, device)


def scalar_replay(a: Node, m: tuple) -> Node | None:
    """The node ``scalar_op`` would build, from what it kept in its memo for an ``a`` of the
    same key and the same operand: one dict lookup per operator instead of three. The key
    fixes a's dtype, shape, device and leaf pattern, so only the constant's place among a's
    leaves is checked (None: it differs, build the long way)."""
    op, reflected, c, p, k = m
    if a.leaves is not None and a.epoch != _realized[0]:
        old = a.key
        _refresh(a)
        if a.key != old:
            return None     # (``m`` was found under a's stale key)
    leaves = own_leaves(a)
    if p < 0:
        pass                    # (a literal: the key names it, it is no leaf)
    elif p < len(leaves):
        if leaves[p] is not c:
            return None
    elif c in leaves:           # (identity: Node has no __eq__)
        return None
    else:
        leaves = leaves + (c,)
    n = _new_node(Node)
    n.op = "ALU"
    n.srcs = (c, a) if reflected else (a, c)
    n.arg = op
    n.buffer = None
    n.dtype, n.shape, n.device = a.dtype, a.shape, a.device
    n.depth = a.depth + 1
    n.epoch = _realized[0]
    n.key = k
    n.leaves = leaves
    return n


def fold(op: Op, a: Node, value: int | float | bool, reflected: bool) -> Node | None:
    """``a op value`` (``value op a`` if ``reflected``) for a 0-d CONST ``a`` of float64 or
    int64 and a Python number taken in a's dtype (an int or float, or another such
    constant's value), computed now: a CONST, or None where a kernel must do it. Python's
    float arithmetic is IEEE double's, as the kernels' is, and int64 wraps as they do; a
    division by zero is left to a kernel (Python raises, kernels give inf or nan)."""
    dtype = a.dtype
    x = a.arg
    if type(value) is bool or type(x) is bool:
        return None
    if dtype == _F64:
        x, y = float(x), float(value)
    elif dtype == _I64 and type(value) is int and type(x) is int and op is not Op.DIV:
        y = value
    else:
        return None
    if reflected:
        x, y = y, x
    if op is Op.ADD:
        r = x + y
    elif op is Op.SUB:
        r = x - y
    elif op is Op.MUL:
        r = x * y
    elif op is Op.DIV and y != 0:
        r = x / y
    else:
        return None
    if dtype == _I64 and not -_I64_HALF <= r < _I64_HALF:
        r = (r + _I64_HALF) % (2 * _I64_HALF) - _I64_HALF
    n = _new_node(Node)
    n.op, n.srcs, n.arg, n.buffer = "CONST", (), r, None
    n.dtype, n.shape, n.device, n.depth = dtype, (), a.device, 0
    n.key, n.leaves = a.key, None       # (a CONST's key: its dtype, shape and device)
    n.epoch = _realized[0]
    return n


_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
_I64_HALF = 2 ** 63
_new_node = object.__new__
#: entries an operator's memo holds before it starts over (a 400-op chain needs 200 each)
MAX_SCALAR_MEMO = 16384


def cast(node: Node, dtype: DTypeLike) -> Node:
    dtype = np.dtype(dtype)
    if node.dtype == dtype:
        return node
    if node.op == "CONST":    # (converted now, as a kernel's cast would: -1 -> uint8 255)
        with np.errstate(all="ignore"):
            value = np.array(node.arg).astype(node.dtype).astype(dtype).item()
        return const(value, dtype, node.device)
    return Node("CAST", (node,), None, dtype, node.shape, node.device)


def reduce(node: Node, op: Op, axes: tuple[int, ...]) -> Node:
    axes = tuple(sorted(set(axes)))
    shape = tuple([1 if i in axes else s for i, s in enumerate(node.shape)])
    folded = _fold_reduce(node, op, axes, shape)
    if folded is not None:
        return folded
    return Node("REDUCE", (node,), (op, axes), node.dtype, shape, node.device)


#: integers a float type's sums hold exactly (float16 accumulates in float32, as kernels do)
_EXACT_SUM = {2: 2.0 ** 24, 4: 2.0 ** 24, 8: 2.0 ** 53}


def _fold_reduce(node: Node, op: Op, axes: tuple[int, ...], shape: tuple[int, ...]
                 ) -> Node | None:
    """A reduction of one value broadcast (``zeros``, ``ones``, ``full``) computed now, as a
    constant of the reduced shape, where the result is exactly what the kernel would give:
    max, min, and, or give the value; a sum of integers wraps as the kernel's does; a float
    sum only where every partial sum is exact (zeros, whole numbers below 2^53, 2^24 for
    float32); a product of ones (or of integers, wrapping). None: a kernel must do it.
    ``float(xp.sum(xp.zeros((10**6, 10**6))))`` is immediate, not 10^12 additions.

    A reduction over no elements is its identity whatever it reads (a kernel over a domain
    with an empty axis would read its other operands through views normalized for no
    elements: ``sum(ones((0, 2)), axis=0) + 5`` read the 5 past its one element)."""
    n = math.prod(node.shape[a] for a in axes)
    if n == 0 and (node.dtype.kind in "biuf" or op in (Op.ADD, Op.MUL)):
        return broadcast(_own_const(identity(op, node.dtype), node.dtype, node.device), shape)
    if node.op == "CONST":
        src = node
    elif is_const_view(node):
        src = node.srcs[0]
    else:
        return None
    dtype, v = node.dtype, src.arg
    if dtype.kind not in "biuf" or isinstance(v, complex):
        return None
    value: Any
    if op in (Op.MAX, Op.MIN, Op.FIRST, Op.AND, Op.OR) or (dtype.kind == "b" and op in (Op.ADD,
                                                                              Op.MUL)):
        value = v
    elif dtype.kind in "iu" and op in (Op.ADD, Op.MUL):
        bits = 8 * dtype.itemsize
        total = int(v) * n if op is Op.ADD else pow(int(v), n, 1 << bits)
        total %= 1 << bits
        if dtype.kind == "i" and total >= 1 << (bits - 1):
            total -= 1 << bits
        value = total
    elif dtype.kind == "f" and op is Op.ADD and float(v).is_integer() and \
            abs(float(v)) * n < _EXACT_SUM[dtype.itemsize]:
        value = 0.0 + float(dtype.type(float(v) * n))    # (+0.0 for -0.0s: the identity)
    elif dtype.kind == "f" and op is Op.MUL and v == 1:
        value = float(v)
    else:
        return None
    return broadcast(_own_const(value, dtype, node.device), shape)


def _own_const(value: Any, dtype: np.dtype, device: Device) -> Node:
    """A folded value as a CONST of its own: not shared with equal constants (``const``
    shares by value), so a kernel's structure never depends on what the values are."""
    return Node("CONST", (), value, np.dtype(dtype), (), device)


def scan(node: Node, op: Op, axis: int) -> Node:
    """The running combine (``op``: ADD or MUL) of ``node`` along ``axis``, inclusive: a
    cumulative sum or product, of ``node``'s shape and dtype."""
    return Node("SCAN", (node,), (op, axis), node.dtype, node.shape, node.device)


def setitem(base: Node, value: Node, region: ShapeTracker) -> Node:
    return Node("SETITEM", (base, value), region, base.dtype, base.shape, base.device)


def concat(parts: tuple[Node, ...], axis: int) -> Node:
    """``parts`` (of one dtype and rank, equal outside ``axis``) joined along ``axis``."""
    first = parts[0]
    total = sum(p.shape[axis] for p in parts)
    shape = first.shape[:axis] + (total,) + first.shape[axis + 1:]
    layout = View.contiguous(shape)
    regions = []
    start = 0
    for p in parts:
        n = p.shape[axis]
        spec = [(0, 1, s) for s in shape]
        spec[axis] = (start, 1, n)
        regions.append((layout.slice(tuple(spec)),))
        start += n
    return Node("CONCAT", tuple(parts), tuple(regions), first.dtype, shape, first.device)


def library(name: str, srcs: tuple[Node, ...], params: dict[str, Any], dtype: DTypeLike,
            shape: tuple[int, ...]) -> Node:
    return Node("LIBRARY", tuple(srcs), (name, tuple(sorted(params.items()))), np.dtype(dtype),
                tuple(shape), srcs[0].device)


#: number of COPY nodes created and not yet realized (realize skips its search when 0)
pending_copies = [0]

#: FILE nodes not yet loaded (``files.load_files`` skips its search when there is none)
pending_files: weakref.WeakSet[Node] = weakref.WeakSet()


def file_node(source: Any, dtype: DTypeLike, shape: tuple[int, ...], device: Device) -> Node:
    node = Node("FILE", (), source, np.dtype(dtype), tuple(shape), device)
    pending_files.add(node)
    return node


def rekey_window(node: Node) -> None:
    """Key a VIEW whose source was just replaced by realized data (it is a window now)."""
    node.key = None
    node.leaves = None
    if node.srcs[0].op in _WINDOWED:
        _set_window_key(node, node.srcs[0])


def copy_to(node: Node, device: Device) -> Node:
    pending_copies[0] += 1
    return Node("COPY", (node,), None, node.dtype, node.shape, device)


def _view(node: Node, fn: str, *args: Any, shape: tuple[int, ...]) -> Node:
    if node.op == "VIEW":
        src = node.srcs[0]
        memo = (node.arg, fn, args)
    else:
        src = node
        memo = (node.shape, fn, args)       # (a shape, where a view has a ShapeTracker)
    found = _views.get(memo)
    if found is None:
        st = st_apply(node.arg if src is not node else (View.contiguous(node.shape),), fn,
                      *args)
        found = (st, len(st) == 1 and st[0].is_contiguous)
        _remember_view(memo, found)
    st, contiguous = found
    if contiguous and st[0].shape == src.shape:
        return src
    return Node("VIEW", (src,), st, node.dtype, tuple(shape), node.device)


def _remember_view(memo: tuple, found: tuple[ShapeTracker | None, bool]) -> None:
    if len(_views) >= MAX_VIEWS:
        _views.clear()
    _views[memo] = found


#: (a node's ShapeTracker or a contiguous node's shape, view op, its arguments) -> (the
#: resulting ShapeTracker, whether it is one contiguous view): a loop that takes the same
#: view of each step's value (``X.T``, ``a[i]``) works it out once
_views: dict[tuple, tuple[ShapeTracker, bool]] = {}
MAX_VIEWS = 16384


def reshape(node: Node, shape: tuple[int, ...]) -> Node:
    shape = tuple([int(s) for s in shape])
    if shape == node.shape:
        return node
    if node.op != "VIEW":
        # a contiguous node: the new view is the contiguous one of the new shape
        return Node("VIEW", (node,), (View.contiguous(shape),), node.dtype, shape, node.device)
    return _view(node, "reshape", shape, shape=shape)


def permute(node: Node, order: tuple[int, ...]) -> Node:
    if tuple(order) == tuple(range(len(order))):
        return node
    return _view(node, "permute", tuple(order), shape=tuple(node.shape[i] for i in order))


def expand(node: Node, shape: tuple[int, ...]) -> Node:
    """Broadcast to ``shape`` (same rank; size-1 dimensions grow)."""
    shape = tuple(shape)
    if shape == node.shape:
        return node
    return _view(node, "expand", shape, shape=shape)


def broadcast(node: Node, shape: tuple[int, ...]) -> Node:
    """``node`` broadcast to ``shape`` (NumPy rules, axes aligned on the right), one VIEW."""
    shape = tuple(shape)
    if shape == node.shape:
        return node
    if node.op == "VIEW":
        src, st = node.srcs[0], node.arg
        memo = (st, "broadcast", shape)
    else:
        src, st = node, None
        memo = (node.shape, "broadcast", shape)
    found = _views.get(memo)
    if found is None:
        st = st or (View.contiguous(node.shape),)
        v = st[0]
        lead = len(shape) - len(v.shape)
        strides = tuple(0 if i < lead or v.shape[i - lead] != s else v.strides[i - lead]
                        for i, s in enumerate(shape))
        found = ((View.make(shape, strides, v.offset),) + st[1:], False)
        _remember_view(memo, found)
    return Node("VIEW", (src,), found[0], node.dtype, shape, node.device)


def slice_view(node: Node, spec: tuple[tuple[int, int, int], ...]) -> Node:
    """``spec`` gives (start, step, count) per dimension."""
    shape = tuple(c for _, _, c in spec)
    if all(start == 0 and step == 1 and c == s
           for (start, step, c), s in zip(spec, node.shape)):
        return node
    return _view(node, "slice", tuple(spec), shape=shape)


def slice_reshape(node: Node, spec: tuple[tuple[int, int, int], ...],
                  shape: tuple[int, ...]) -> Node:
    """``reshape(slice_view(node, spec), shape)`` as one VIEW node, its ShapeTracker worked
    out once per layout (basic indexing: ``X[:, None, :]``, a stencil's ``p[1:-1, :-2]``)."""
    if node.op == "VIEW":
        src = node.srcs[0]
        memo = (node.arg, "slice_reshape", spec, shape)
    else:
        src = node
        memo = (node.shape, "slice_reshape", spec, shape)
    found = _views.get(memo)
    if found is None:
        st = node.arg if src is not node else (View.contiguous(node.shape),)
        whole = all(start == 0 and step == 1 and c == s
                    for (start, step, c), s in zip(spec, node.shape))
        if whole and shape == node.shape:
            found = (None, False)
        else:
            if not whole:
                st = st_apply(st, "slice", spec)
            if st[0].shape != shape:
                st = st_apply(st, "reshape", shape)
            found = (st, len(st) == 1 and st[0].is_contiguous)
        _remember_view(memo, found)
    st, contiguous = found
    if st is None:
        return node
    if contiguous and st[0].shape == src.shape:
        return src
    return Node("VIEW", (src,), st, node.dtype, shape, node.device)


# -- templates ---------------------------------------------------------------------------------
# A composite op (argmax's packed reduction, var's one pass) builds 20-30 nodes, each keyed as
# it is made: 50-70 us of Python per call, more than a kernel launch. On realized inputs its
# graph depends only on their layout and the op's parameters, so ``replay`` keeps the graph the
# first call made as a template and makes the same nodes (keys and leaves included) around the
# next call's inputs, without running the builder.
_templates: dict[tuple, tuple | None] = {}
MAX_TEMPLATES = 1024


def replay(build: Callable[..., Node], params: tuple, *inputs: Node) -> Node:
    """``build(*inputs, *params)``, where ``build`` is a pure function of its parameters
    (hashable) and of its inputs' layout that returns a node made on them. Inputs that are
    realized data (a BUFFER or one VIEW of one) are rebuilt from the template of the first
    call's graph; other inputs run ``build``."""
    layout = []
    for n in inputs:
        if n.op == "BUFFER":
            layout.append((n.dtype, n.shape, n.device))
        elif n.op == "VIEW" and n.srcs[0].op == "BUFFER":
            b = n.srcs[0]
            layout.append((n.dtype, n.shape, n.device, n.arg, b.dtype, b.shape))
        else:
            return build(*inputs, *params)
    memo = (build, params, tuple(layout))
    t = _templates.get(memo, False)
    bases = [n.srcs[0] if n.op == "VIEW" else n for n in inputs]
    if t is False:
        out = build(*inputs, *params)
        if len(_templates) >= MAX_TEMPLATES:
            _templates.clear()
        _templates[memo] = _rebuild_template((out,), inputs, bases)
        return out
    if t is None:
        return build(*inputs, *params)
    pool = _remake([*inputs, *bases, *t[0]], t)
    return pool[t[2][0]]


def remade(build: Callable[..., Node], params: tuple, node: Node) -> Node:
    """``build(node, *params)`` (one node made on one input) from a template after the first
    call: ``replay`` for realized data (keyed by its layout), ``rebuilt`` for a pending
    input (keyed by its structure, and by its value where it is one value, which the
    builder may fold): argmax's packed reduction and var's one pass of a pending value
    (k-means' distances) were built by their operators at every call (29 -> 6 us)."""
    if node.op == "BUFFER" or (node.op == "VIEW" and node.srcs[0].op == "BUFFER"):
        return replay(build, params, node)
    return rebuilt(_one_node, (build, params), (node,), values=True)[0]


def _one_node(node: Node, build: Callable[..., Node], params: tuple) -> tuple[Node]:
    return (build(node, *params),)


#: templates of at least this many nodes are remade with Python's cyclic garbage collector
#: paused: the new nodes form no cycles, and each 700 of them started a collection, every
#: tenth of which walked the older generation too (a multinomial's 4,500 nodes: 5.2 -> 2.0
#: ms a call, three fifths of it the collector)
GC_PAUSE_NODES = 512

#: ``_remake``'s loop in C (``_api/_hot.c``'s ``remake``: each slot written at its offset,
#: a tenth of the time), set by ``_api/_hot.py`` when its module is built; None: Python's
remake_c: Callable[..., None] | None = None


def _remake(pool: list[Node], template: tuple) -> list[Node]:
    """``pool`` (a template's inputs, their leaves or bases, its shared leaves) with the
    template's nodes made after them, each source and leaf named by its position in
    ``pool``; depths are computed from the new sources. Nodes with the same leaves share
    one tuple of them (a Philox block's 150 nodes have 3 or 4 leaves: one tuple, not 150)."""
    _, nodes, _, leaf_sets = template
    if remake_c is not None:
        if len(nodes) < GC_PAUSE_NODES or not gc.isenabled():
            remake_c(Node, pool, nodes, leaf_sets, _realized[0])
            return pool
        gc.disable()        # (see GC_PAUSE_NODES)
        try:
            remake_c(Node, pool, nodes, leaf_sets, _realized[0])
        finally:
            gc.enable()
        return pool
    new = Node.__new__
    epoch = _realized[0]
    made: list[tuple[Node, ...] | None] = [None] * len(leaf_sets)
    for op, arg, dtype, shape, device, srcs, key, k in nodes:
        n = new(Node)
        n.op, n.arg, n.dtype, n.shape, n.device, n.buffer = op, arg, dtype, shape, device, None
        n.srcs = tuple([pool[i] for i in srcs])
        depth = 0
        for x in n.srcs:
            if x.depth >= depth:
                depth = x.depth + 1
        n.depth, n.key, n.epoch = depth, key, epoch
        if k < 0:
            n.leaves = None
        else:
            leaves = made[k]
            if leaves is None:      # (a leaf comes before what is made on it: it is in pool)
                leaves = made[k] = tuple([pool[i] for i in leaf_sets[k]])
            n.leaves = leaves
        pool.append(n)
    return pool


# ``rebuilt``: the same idea for a builder whose inputs are pending nodes (Philox's counter
# words) and constants that change from call to call (its round keys): the template is keyed
# by the inputs' structure (their keys, and which of their leaves are one node), and its
# nodes' leaves that are leaves of an input are found again in the new input's leaves.
_rebuilt: dict[tuple, tuple | None] = {}


def rebuilt(build: Callable[..., tuple[Node, ...]], params: tuple,
            inputs: tuple[Node, ...], values: bool = False) -> tuple[Node, ...]:
    """``build(*inputs, *params)``, a tuple of nodes made on ``inputs`` (any keyed nodes),
    for a ``build`` whose graph depends on its inputs only through their structure, never
    their values (nothing it makes folds an input's value: the caller's promise; ``params``
    hold whatever else it depends on, hashable). The first call's graph is kept as a
    template; a later call with inputs of the same structure gets the same nodes, keys and
    leaves made around its inputs, without ``build`` (a Philox block: 100 nodes, 10-15 us
    of Python each through the operators, 1 us remade).

    ``values``: the inputs that are one value (a CONST or its broadcast) are keyed by that
    value too, for a ``build`` that may fold them (a sampler's scalar parameters): a call
    with other values builds, and keeps, a template of its own."""
    flat: list[Node] = []
    sig: list[Any] = []
    for n in inputs:
        if n.key is None:
            return build(*inputs, *params)
        one = is_constant(n)
        if one and values:
            c = n if n.op == "CONST" else n.srcs[0]
            one = (type(c.arg), c.arg)
        sig.append((n.key, one, n.dtype, n.shape, n.device))
        flat.extend(own_leaves(n))
    first: dict[int, int] = {}
    pattern = tuple([first.setdefault(id(leaf), i) for i, leaf in enumerate(flat)])
    memo = (build, params, tuple(sig), pattern)
    t = _rebuilt.get(memo, False)
    if t is False:
        outs = build(*inputs, *params)
        if len(_rebuilt) >= MAX_TEMPLATES:
            _rebuilt.clear()
        _rebuilt[memo] = _rebuild_template(outs, inputs, flat)
        return outs
    if t is None:
        return build(*inputs, *params)
    pool = _remake([*inputs, *flat, *t[0]], t)
    return tuple([pool[r] for r in t[2]])


def _rebuild_template(outs: tuple, inputs: tuple[Node, ...], flat: list[Node]
                      ) -> tuple | None:
    """(shared leaves, the made nodes in an order they can be remade, the outputs'
    positions, the distinct tuples of leaf positions the nodes name) for ``rebuilt`` and
    ``replay``; positions index the inputs, ``flat`` (the
    inputs' leaves, or their bases), the shared leaves (constants and iotas the builder
    made), then the made nodes. None where the graph reaches anything else (realized data,
    a pending node not among the inputs)."""
    if not isinstance(outs, tuple) or not all(isinstance(o, Node) for o in outs):
        return None
    pos: dict[int, int] = {}
    for i, n in enumerate(inputs):
        pos.setdefault(id(n), i)
    for i, leaf in enumerate(flat):
        pos.setdefault(id(leaf), len(inputs) + i)
    fixed = len(inputs) + len(flat)
    shared: list[Node] = []
    made: list[Node] = []
    stack: list[tuple[Node, bool]] = [(o, False) for o in reversed(outs)]
    seen: set[int] = set()
    while stack:
        n, ready = stack.pop()
        if ready:
            made.append(n)
            continue
        if id(n) in pos or id(n) in seen:
            continue
        seen.add(id(n))
        if not n.srcs:
            if n.op not in ("CONST", "IOTA") or n.buffer is not None:
                return None
            pos[id(n)] = fixed + len(shared)
            shared.append(n)
            continue
        if n.buffer is not None:
            return None
        stack.append((n, True))
        stack.extend((s, False) for s in reversed(n.srcs) if id(s) not in pos)
    start = fixed + len(shared)
    for i, n in enumerate(made):
        pos[id(n)] = start + i
    for n in made:
        for leaf in n.leaves or ():
            if id(leaf) not in pos:
                return None
    sets: dict[tuple[int, ...], int] = {}       # leaves' positions -> their index
    nodes = tuple((n.op, n.arg, n.dtype, n.shape, n.device, tuple(pos[id(s)] for s in n.srcs),
                   n.key, -1 if n.leaves is None else
                   sets.setdefault(tuple([pos[id(x)] for x in n.leaves]), len(sets)))
                  for n in made)
    return tuple(shared), nodes, tuple(pos[id(o)] for o in outs), tuple(sets)


def view_of(node: Node, st: ShapeTracker, shape: tuple[int, ...]) -> Node:
    """``node`` seen through ``st`` (a ShapeTracker from ``shape`` into node's layout), as one
    VIEW node: folded onto node's own view when node is a VIEW."""
    if node.op == "VIEW":
        return Node("VIEW", (node.srcs[0],), compose(st, node.arg), node.dtype, shape,
                    node.device)
    return Node("VIEW", (node,), st, node.dtype, shape, node.device)


def probe(shape: tuple[int, ...], dtype: np.dtype, device: Device) -> Node:
    """A placeholder node of ``shape`` that view functions (``slice_view``, ``reshape``...)
    can be applied to, to learn the ShapeTracker a view takes; never scheduled."""
    key = (shape, dtype, device)
    node = _probes.get(key)
    if node is None:
        if len(_probes) >= MAX_SHARED_CONSTS:
            _probes.clear()
        node = _probes[key] = Node("PROBE", (), None, dtype, shape, device)
    return node


_probes: dict[tuple, Node] = {}


def index_first(node: Node, i: int) -> Node:
    """``node[i]`` for ``0 <= i < node.shape[0]``, where node is not a VIEW or is a VIEW
    through one unmasked view (``first_indexable``): one VIEW (``slice_view`` then
    ``reshape`` give the same, in more steps)."""
    shape = node.shape[1:]
    if node.op == "VIEW":
        v = node.arg[0]
        return Node("VIEW", node.srcs, (View.make(shape, v.strides[1:],
                                                  v.offset + i * v.strides[0]),),
                    node.dtype, shape, node.device)
    strides = contiguous_strides(node.shape)
    return Node("VIEW", (node,), (View.make(shape, strides[1:], i * strides[0]),), node.dtype,
                shape, node.device)


def first_indexable(node: Node) -> bool:
    """True if ``index_first`` takes ``node``."""
    return node.op != "VIEW" or (len(node.arg) == 1 and node.arg[0].mask is None)


def pad(node: Node, widths: tuple[tuple[int, int], ...]) -> Node:
    """Zeros added before and after each dimension (a masked view: no copy)."""
    if all(b == 0 and a == 0 for b, a in widths):
        return node
    shape = tuple(s + b + a for s, (b, a) in zip(node.shape, widths))
    return _view(node, "pad", tuple(widths), shape=shape)


def view_st(node: Node) -> tuple[Node, ShapeTracker]:
    """(the node holding the data, the ShapeTracker from ``node``'s shape into it)."""
    if node.op == "VIEW":
        return node.srcs[0], node.arg
    return node, (View.contiguous(node.shape),)
