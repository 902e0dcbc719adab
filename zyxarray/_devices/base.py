"""The runtime contract every device implements.

Layer: ``_devices`` (the bottom layer). Imports nothing from ``_api``, ``_lazy`` or ``_codegen``.

A runtime is small: an allocator (``alloc``, ``free`` through the pool, ``copy_in``,
``copy_out``), a compiler (source -> ``Program``, cached on disk), programs that are called
with buffers and integer/float argument arrays, and events that order asynchronous work.
Passes read ``DeviceInfo``; they never read a device's name.
"""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _debug

#: a loop-style device's thread team: a kernel of fewer domain points than ``PARALLEL_FLOOR``
#: never runs on it; one of more runs on it from the points the device measured the team to
#: be worth (``DeviceInfo.extra["parallel_work"]``: a number, or a function that measures it
#: on first use), or from ``PARALLEL_DEFAULT`` where it measured nothing
PARALLEL_FLOOR = 1 << 12
PARALLEL_DEFAULT = 1 << 15


@dataclass(frozen=True)
class DeviceInfo:
    """What a device can do. Lowering and passes read only this, never the device's name."""

    name: str                       # e.g. "cpu", "opencl:0"
    kind: str                       # the registry kind: "cpu", "reference", "opencl", ...
    language: str                   # renderer to use: "c", "opencl", "cuda", "hip", "spirv", "ir"
    description: str = ""
    float64: bool = True
    float16: bool = False
    complex: bool = True
    compute_units: int = 1
    max_work_group: int = 1
    local_memory: int = 0
    simd_lanes: int = 16            # accumulator lanes a loop-style reduction uses
    style: str = "loops"            # "loops": CPU-like nested loops; "threads": GPU work items
    launch_bounds: bool = False     # kernels are compiled for their group size (CUDA's
    #                                 __launch_bounds__), so any group up to max_work_group
    #                                 fits; else large groups may exceed a kernel's limit
    total_memory: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


class Event:
    """Marks a point in a device's queue. ``wait()`` blocks the host until it is reached."""

    def wait(self) -> None:  # pragma: no cover - overridden by asynchronous devices
        return None

    def done(self) -> bool:
        return True


COMPLETED = Event()


class Buffer:
    """A block of device memory of ``nbytes``; returned to its device's pool when collected.

    ``ready`` is the event after which the contents are valid (writers set it).
    """

    __slots__ = ("__weakref__", "device", "exported", "handle", "host", "nbytes", "pooled",
                 "ready")

    def __init__(self, device: Device, nbytes: int, handle: Any, pooled: bool = True) -> None:
        self.device = device
        self.nbytes = nbytes
        self.handle = handle
        self.ready: Event = COMPLETED
        self.pooled = pooled   # memory we allocated goes back to the pool; borrowed does not
        self.host: np.ndarray | None = None   # its memory as a typed host array, where the
        #                                       device's memory is the host's (host_memory)
        #: handed out without a copy (``export_host``: DLPack): never written in place again,
        #: since the arrays that share it by copy-on-write cannot know who reads it
        self.exported = False

    def __del__(self) -> None:
        # ``__del__``, not ``weakref.finalize``: a finalizer costs about 4 us per buffer, more
        # than launching a small kernel, and every realization allocates a buffer
        # (try/except, not contextlib.suppress: half the cost; at interpreter shutdown the
        # pool may be gone already)
        if self.pooled:
            try:
                self.device.pool.release(self.nbytes, self.handle)
            except Exception:
                return


#: host arrays that a device's ``copy_out`` made for one read in memory it does not own as a
#: NumPy array (pooled pinned memory), by id: the read's caller may hand them out as they are,
#: as it does arrays that own their data (``mark_fresh``, ``is_fresh``)
_fresh: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()


def mark_fresh(array: np.ndarray) -> np.ndarray:
    """Record that ``array`` was made for one read alone (nothing else refers to its memory)."""
    _fresh[id(array)] = array
    return array


def is_fresh(array: np.ndarray) -> bool:
    return _fresh.get(id(array)) is array


def host_memory(buffer: Buffer, dtype: np.dtype) -> np.ndarray | None:
    """The buffer's memory as a host array of ``dtype`` (kept on the buffer: a loop over
    elements reads through it), or None where the device's memory is not the host's."""
    memory = buffer.host
    if memory is None or memory.dtype != dtype:
        host_array = getattr(buffer.device, "host_array", None)
        if host_array is None:
            return None
        memory = buffer.host = host_array(buffer).view(dtype)
    buffer.ready.wait()
    return memory


class _Owner:
    """Owns a buffer for the NumPy arrays made over its memory (``export_host``): NumPy keeps
    the object that lent an array its data as the array's ``base``, and every view and DLPack
    capsule made from the array keeps that base, so the buffer cannot go back to its pool
    while any of them lives."""

    __slots__ = ("__array_interface__", "buffer")

    def __init__(self, buffer: Buffer, memory: np.ndarray) -> None:
        self.buffer = buffer
        self.__array_interface__ = {"shape": (buffer.nbytes,), "typestr": "|u1",
                                    "data": (memory.ctypes.data, False), "version": 3}


def export_host(buffer: Buffer) -> np.ndarray | None:
    """The buffer's bytes as a writable host uint8 array that keeps the buffer alive (None
    where the device's memory is not the host's). Every array handed out of zyxarray without
    a copy goes through here: a plain view of pooled memory would be recycled under its
    reader once the array that owned the buffer is collected."""
    host_array = getattr(buffer.device, "host_array", None)
    if host_array is None:
        return None
    memory = host_array(buffer)
    if buffer.nbytes == 0:
        return np.empty(0, np.uint8)
    buffer.exported = True
    return np.asarray(_Owner(buffer, memory))


class MemoryPool:
    """A caching allocator: freed blocks are kept by size and reused.

    ``capacity`` is the most it hands out (the device's memory, or the config's
    ``memory_limit``). Out of memory (past the capacity, or refused by the device), it
    recovers in the order users expect: free the cached blocks, collect the arrays nothing
    references any more (a garbage collection: their buffers come back), retry; then a
    MemoryError names the size, the device and what is in use. ``peak`` is the most ever in
    use.
    """

    def __init__(self, device_name: str, raw_alloc: Any, raw_free: Any, capacity: int) -> None:
        self.device_name = device_name
        self._raw_alloc = raw_alloc
        self._raw_free = raw_free
        self.capacity = capacity
        self._free: dict[int, list[Any]] = {}
        self._lock = threading.Lock()
        self.in_use = 0      # bytes held by live buffers
        self.cached = 0      # bytes held by the cache, ready for reuse
        self.peak = 0        # the most bytes ever held by live buffers at once
        #: the device's ``synchronize`` (the registry sets it): out of memory, work in flight
        #: finishes first, so that the buffers it holds can be freed
        self.wait_idle: Any = None
        self._last_collect = -1e9        # (monotonic time of recover's last collection)
        self._collect_helped = False

    @property
    def free_bytes(self) -> int:
        """Bytes still available to new buffers (capacity minus what live buffers hold)."""
        return max(self.capacity - self.in_use, 0)

    def allocate(self, nbytes: int) -> Any:
        size = int(nbytes) if nbytes > 0 else 1
        lock = self._lock       # (acquire/release, not ``with``: a small kernel's launch
        lock.acquire()          # allocates a buffer, and this is half of its cost)
        blocks = self._free.get(size)
        if blocks:
            self.cached -= size
            self.in_use += size
            handle = blocks.pop()
            lock.release()
            return handle
        lock.release()
        if self.capacity and self.in_use + size > self.capacity:
            self.recover(size)
            if self.in_use + size > self.capacity:
                raise MemoryError(f"cannot allocate {_fmt_bytes(size)} on device "
                                  f"{self.device_name}: {_fmt_bytes(self.in_use)} of "
                                  f"{_fmt_bytes(self.capacity)} in use by live arrays")
        try:
            handle = self._raw_alloc(size)
        except MemoryError:
            self.recover()
            try:
                handle = self._raw_alloc(size)
            except MemoryError:
                raise MemoryError(f"cannot allocate {_fmt_bytes(size)} on device "
                                  f"{self.device_name}: the device is out of memory "
                                  f"({_fmt_bytes(self.in_use)} in use by live arrays)") from None
        with self._lock:
            self.in_use += size
            if self.in_use > self.peak:
                self.peak = self.in_use
        if _debug.enabled("memory"):
            _debug.log("memory", f"{self.device_name}: alloc {_fmt_bytes(size)} "
                                 f"(in use {_fmt_bytes(self.in_use)})")
        return handle

    def release(self, nbytes: int, handle: Any) -> None:
        size = int(nbytes) if nbytes > 0 else 1
        lock = self._lock
        lock.acquire()
        self.in_use -= size
        self.cached += size
        blocks = self._free.get(size)
        if blocks is None:
            self._free[size] = [handle]
        else:
            blocks.append(handle)
        lock.release()

    def recover(self, needed: int = 0) -> None:
        """Out of memory: free the cached blocks, then collect unreferenced arrays (their
        buffers return here) and free those blocks too, once the device's work in flight has
        finished (it may hold buffers nothing else references)."""
        if self.wait_idle is not None:
            self.wait_idle()
        self.drop_cache()
        gc.collect(1)            # young garbage (cheap): what was just let go of
        self.drop_cache()
        if needed and self.capacity and self.in_use + needed <= self.capacity:
            return
        # a full collection costs 0.1-0.5 s in a big process: again within a second only if
        # the last one gave memory back (1000 failures in a row must not take minutes)
        now = time.monotonic()
        if self._collect_helped or now - self._last_collect > 1.0:
            before = self.in_use
            gc.collect()
            self._collect_helped = self.in_use < before
            self._last_collect = now
            self.drop_cache()

    def stats(self) -> dict[str, int]:
        """Bytes in use by live buffers, cached for reuse, the peak in use, and the limit."""
        return {"in_use": self.in_use, "cached": self.cached, "peak": self.peak,
                "limit": self.capacity}

    def drop_cache(self) -> None:
        with self._lock:
            blocks, self._free = self._free, {}
            self.cached = 0
        for _size, handles in blocks.items():
            for h in handles:
                self._raw_free(h)
        _debug.log("memory", f"{self.device_name}: dropped cached blocks")


def _fmt_bytes(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


class Program:
    """A compiled kernel. Called with buffers, int64 arguments and float64 arguments."""

    def __init__(self, name: str, source: str) -> None:
        self.name = name
        self.source = source

    def __call__(self, buffers: list[Buffer], ints: list[int], floats: list[float]) -> Event:
        raise NotImplementedError  # every device defines its own Program subclass


def byte_range(buffer: Buffer, start: int, stop: int | None) -> tuple[int, int]:
    """``copy_out``'s ``start:stop``, checked against the buffer's size."""
    end = buffer.nbytes if stop is None else stop
    if not 0 <= start <= end <= buffer.nbytes:
        raise ValueError(f"copy_out: bytes {start}:{stop} of a {buffer.nbytes}-byte buffer "
                         f"on device {buffer.device.name}")
    return start, end


class Device:
    """One device. Subclasses fill in the raw allocator, copies and the compiler."""

    info: DeviceInfo
    pool: MemoryPool
    #: whether the disk cache keeps this device's lowered and rendered kernels by structure,
    #: so a later process skips lowering and rendering: where rendering costs more than the
    #: compiler's own cache hit (SPIR-V, emitted in Python: 3 ms a kernel)
    caches_rendered = False
    #: ``library_direct(name, views, dtype, shape, params) -> Buffer | None``: a library op
    #: run at once on its operands' buffers, (buffer, dtype, shape, element strides,
    #: offset) each, where the device has a direct path for it (cuda: cuBLAS's gemm); None
    #: where it has none (``library.on_device`` and the host serve)
    library_direct: Any = None

    @property
    def name(self) -> str:
        return self.info.name

    def __repr__(self) -> str:
        return f"<zyxarray device {self.info.name}>"

    # -- the default-device context (``with xp.Device("cuda:0"):``) -----------------------
    def __enter__(self) -> Device:
        """Make this the default device of the calling thread until the block ends: creation
        functions without ``device=`` create here (as ``with cupy.cuda.Device(1):`` and
        ``with torch.device("cuda"):`` do). Blocks nest; other threads are unaffected."""
        from . import registry
        registry.push_default(self)
        return self

    def __exit__(self, *exc: object) -> None:
        from . import registry
        registry.pop_default(self)

    # -- memory ---------------------------------------------------------------------------
    def alloc(self, nbytes: int) -> Buffer:
        return Buffer(self, nbytes, self.pool.allocate(nbytes))

    def copy_in(self, buffer: Buffer, data: np.ndarray) -> None:
        """Copy a contiguous host array into ``buffer`` (same byte size)."""
        raise NotImplementedError

    def copy_out(self, buffer: Buffer, start: int = 0, stop: int | None = None,
                 while_waiting: Callable[[], object] | None = None,
                 into: np.ndarray | None = None) -> np.ndarray:
        """Bytes ``start:stop`` of the buffer (all of it by default) as a read-only host
        uint8 array; waits for ``buffer.ready``. ``while_waiting`` is called once the copy
        is under way and before waiting for it (host work that would otherwise come after
        the read: ``to_host`` frees the realized graph there); devices that read at once
        call it first. With ``into`` (a writable uint8 array of that many bytes, e.g. a
        host-memory device's buffer) the bytes are read into it, and it is returned."""
        raise NotImplementedError

    # -- compute --------------------------------------------------------------------------
    def compile(self, source: str, ir: Any) -> Program:
        """Source (or, for the reference device, the IR itself) -> a callable Program."""
        raise NotImplementedError

    def free_memory(self) -> int:
        """Bytes a new array can still get here: the runtime's own count where it has one
        (cuda: ``cudaMemGetInfo``), else the pool's capacity less what live buffers hold
        (0: unknown)."""
        return self.pool.free_bytes

    def synchronize(self) -> None:
        return None
