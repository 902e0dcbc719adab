"""Data that stays in a file until a computation reads it (lazy safetensors tensors).

Layer: ``_lazy``. A FILE node (``graph.file_node``) is a leaf whose values are bytes of a
memory-mapped file, stored in a format (``FileSource.codec``) that may differ from the
node's dtype: bfloat16 and the float8/float4 formats are stored as bytes and decode to
float32. Before a realization schedules anything, ``load_files`` replaces every FILE leaf that
the pending graph reads:

- read through a view (``t[10:20]``, ``t[:, 3]``, ``t.T``, a reshape): only the elements
  ``[first, stop)`` of the tensor's flat layout that the view's last step spans are copied
  (a slice of rows is exactly its bytes; a column spans from its first row to its last),
  and the view is re-pointed at that buffer, offsets shifted;
- read otherwise: the whole tensor is copied and the FILE node becomes that buffer.

The bytes go from the mapping to the device as they are stored (one copy, which reads only
the pages it touches), and a stored format other than the dtype is decoded there by a small
kernel (``codec.decode``, built from integer operations and a bitcast), so the host never
converts anything. ``stats["file_bytes"]`` counts the bytes copied from files.
"""

from __future__ import annotations

import math
import mmap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import graph
from .graph import Node
from .view import at_offset, span

#: bytes copied from files to devices (tests and the bench read it)
stats = {"file_bytes": 0}


@dataclass(frozen=True)
class Codec:
    """How a stored format becomes a dtype the devices compute in.

    ``stored``: the NumPy dtype of the stored units (uint8 for the float8, float6 and float4
    formats, uint16 for bfloat16); ``bits``: bits per value (8 * itemsize but for the packed
    formats: 4 for float4, 6 for float6, packed least significant bit first); ``decode``:
    given the graph node of the stored units (1-D) and the number of values, the node of the
    values (1-D, the codec's ``dtype``); None when a stored unit is the value."""

    name: str
    stored: np.dtype
    dtype: np.dtype
    bits: int = 0
    decode: Callable[[Node], Node] | None = None

    @property
    def value_bits(self) -> int:
        return self.bits or self.stored.itemsize * 8

    @property
    def group(self) -> int:
        """Values in the smallest run that fills whole stored units (1; 2 for float4, 4 for
        float6: 3 bytes)."""
        unit = self.stored.itemsize * 8
        return math.lcm(self.value_bits, unit) // self.value_bits

    def nbytes(self, count: int) -> int:
        """The bytes ``count`` values take in the file."""
        return -(-count * self.value_bits // 8)


@dataclass(eq=False)
class FileSource:
    """A tensor's bytes in a mapped file: ``start`` is the byte offset of its first value,
    ``nbytes`` how many bytes it has there."""

    mapping: mmap.mmap
    start: int
    codec: Codec
    nbytes: int
    path: str = ""

    def read(self, node: Node, first: int, stop: int) -> tuple[Node, int]:
        """The values ``[first, stop)`` of ``node`` (flat, row-major) on its device: (a
        realized 1-D node holding values from ``first'`` on, ``first'``), where ``first'``
        is ``first`` rounded down to a whole group of stored units (``Codec.group``)."""
        from .realize import realize
        c = self.codec
        g = c.group
        first, stop = first // g * g, -(-stop // g) * g
        lo, hi = first * c.value_bits // 8, stop * c.value_bits // 8
        raw = np.frombuffer(self.mapping, dtype=np.uint8, count=min(hi, self.nbytes) - lo,
                            offset=self.start + lo)
        stats["file_bytes"] += raw.nbytes
        if hi > self.nbytes:          # (the last group of a packed tensor: zero padding)
            raw = np.concatenate([raw, np.zeros(hi - self.nbytes, np.uint8)])
        stored = graph.from_host(raw.view(c.stored), node.device)
        if c.decode is None:
            return stored, first
        values = c.decode(stored)
        realize(values)
        return values, first


def file_node(source: FileSource, shape: tuple[int, ...], device: Any) -> Node:
    """A lazy tensor of ``shape`` whose values are ``source``'s, read when first used."""
    return graph.file_node(source, source.codec.dtype, shape, device)


def load_files(nodes: Sequence[Node]) -> None:
    """Copy to their devices the parts of files that ``nodes`` (pending) read (see the
    module's docstring). Does nothing when no FILE node is waiting."""
    if not graph.pending_files:
        return
    seen: set[int] = set()
    stack = list(nodes)
    views: list[Node] = []
    whole: list[Node] = []
    while stack:
        n = stack.pop()
        if id(n) in seen or n.buffer is not None:
            continue
        seen.add(id(n))
        if n.op == "FILE":
            whole.append(n)
        elif n.op == "VIEW" and n.srcs[0].op == "FILE":
            views.append(n)
        else:
            stack.extend(n.srcs)
    for f in whole:
        if f.op == "FILE":
            loaded, _ = f.arg.read(f, 0, f.size)
            f.set_buffer(loaded.buffer)
            graph.pending_files.discard(f)
    for v in views:
        f = v.srcs[0]
        if f.op != "FILE":            # (loaded whole above, or by an earlier view's read)
            continue
        last = v.arg[-1]
        first, stop = _span(last, f.size)
        if stop <= first:             # (an empty view reads nothing)
            first, stop = 0, min(1, f.size)
        loaded, start = f.arg.read(f, first, stop)
        v.srcs = (loaded,)
        v.arg = v.arg[:-1] + (at_offset(last, last.offset - start),)
        v.depth = 1
        graph.rekey_window(v)


def _span(v: Any, size: int) -> tuple[int, int]:
    """The flat elements ``[first, stop)`` that a view can read, within ``[0, size)``."""
    if 0 in v.shape:
        return 0, 0
    first, stop = span(v)
    return max(first, 0), min(stop, size)
