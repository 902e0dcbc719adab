"""The ``cuda:N`` and ``hip:N`` devices: kernels compiled at run time by NVRTC (NVIDIA) or
hiprtc (AMD), run through CuPy.

Layer: ``_devices``. Imports nothing above it; receives source text from the caller and reads
only the argument description of the kernel IR (``name``, ``buffers``, ``n_ints``,
``n_floats``, ``meta``). CuPy is imported inside ``discover``: a machine without CuPy, without
a driver or without GPUs gets no devices and a reason, never an import error.

One runtime serves both vendors: CuPy's ROCm build has the same Python API as its CUDA build
(``cupy.cuda.runtime`` is HIP's runtime, ``cupy.cuda.nvrtc`` is hiprtc, ``cupy.cuda.driver``
launches through ``hipModuleLaunchKernel``, the memory pool, streams and events are HIP's,
and ``cupy.linalg``/``cupy.fft`` run on hipBLAS, rocSOLVER and rocFFT). ``runtime.is_hip``
says which build is installed; the devices are then ``hip:N``, rendered in the HIP dialect
(``_codegen/hip.py``) for the wavefront width the device reports, compiled for its
``gcnArchName``, and exported through DLPack as kDLROCM. Otherwise they are ``cuda:N``, in the
CUDA dialect. ``ZYXARRAY_CUDA_DIALECT=hip`` renders the kernels of NVIDIA devices in the HIP
dialect instead (its prelude maps the few HIP names to CUDA's), which is how the HIP kernels'
numerics are checked on NVIDIA hardware.

Launch convention (both renderers guarantee it)::

    extern "C" __global__ void zx_kernel(const T0* __restrict__ b0, ..., long long i0, ...,
                                         double f0, ...)

buffers first, then ``n_ints`` ``long long`` scalars, then ``n_floats`` ``double`` scalars.
The grid is ``(ints[meta["groups_arg"]],)`` blocks of ``(meta["local_size"],)`` threads; a grid
of 0 blocks launches nothing.

Each device owns one non-blocking CuPy stream: every launch, copy in and device copy goes on
it, so the device's work runs in the order it was queued. ``copy_out`` waits for the buffer's
``ready`` event only, then reads through a second stream, so it does not wait for work queued
after the buffer's writer. Memory comes from CuPy's memory pool (shared with CuPy's own arrays
and libraries) through zyxarray's caching ``MemoryPool``. Compiled kernels are cached on disk
as cubins (code objects on AMD) keyed by the source, the compile options, the architecture and
the compiler and CuPy versions. NVRTC has no C or C++ standard headers (no <stdint.h>,
<math.h>, <cuda/std/...>); the math functions are built in, and <cuda_fp16.h>/<cuda_bf16.h>
come from the CUDA headers found next to CuPy's CUDA (added as include paths). HIP kernels
include nothing and call no device library.

``compile_check`` compiles CUDA source with the local ``nvcc`` (no GPU needed), for CI; the
HIP rendering is checked with clang by ``tests/hip_check.py``.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from .. import _debug, _env
from .._errors import CompileError, DeviceError
from . import cache
from .base import (
    COMPLETED,
    Buffer,
    Device,
    DeviceInfo,
    Event,
    MemoryPool,
    Program,
    byte_range,
    mark_fresh,
)
from .library.cuda import _gemm as _library_gemm

KERNEL_NAME = "zx_kernel"
#: NVRTC options of every kernel. No fast math and no FMA contraction: results must match
#: NumPy's (the cpu device compiles with -ffp-contract=off for the same reason).
NVRTC_OPTIONS = ("-std=c++17", "--fmad=false")
#: nvcc flags of ``compile_check``: the same language and numerics as NVRTC_OPTIONS.
CHECK_FLAGS = ("--ptx", "-std=c++17", "--fmad=false")
CHECK_ARCH = "sm_90"
#: hiprtc options of every HIP kernel (the architecture is added): no contraction, as above
HIPRTC_OPTIONS = ("-std=c++17", "-ffp-contract=off", "-O3")
#: bumped when the cache entry format or the way programs are built changes
_FORMAT = "zyxarray-cuda-1"
#: cache entries: magic, the binary's SHA-256 (hex), newline, the binary (cubin or PTX)
_MAGIC = b"zyxarray-cuda-binary-1\n"

#: copy_out reads this many bytes or more through pinned staging buffers of STAGE_CHUNK bytes
#: (H100: a copy into pageable memory took 0.28 ms for 4 MiB and 1.06 for 16, staged 0.40 and
#: 1.45; from 32 MiB on, staged wins, 4.9 ms against 9.8)
STAGE_MIN = 20 << 20
STAGE_CHUNK = 8 << 20
#: copy_out reads up to this many bytes through one small pinned buffer
SMALL_READ = 64 << 10
#: copy_out returns a read of more than SMALL_READ and up to this many bytes in pooled pinned
#: host memory (``_pinned``): no staging, no page faults. H100, reads after the first of their
#: size: 32 MiB 0.84 ms (CuPy's ``asnumpy`` 17.7 ms), 48 MiB 1.19 ms. Page-locking new memory
#: costs the first read of a size: 256 MiB took 317 ms then (5.3 ms after; staged: 56 ms), so
#: larger reads stay staged
PINNED_MAX = 64 << 20

_MEMCPY_H2D = 1
_MEMCPY_D2H = 2
_MEMCPY_DEFAULT = 4
_EVENT_DISABLE_TIMING = 2
_INT_MAX = 2**31 - 1

_cupy: Any = None      # the cupy module, set by discover()
_runtime: Any = None   # cupy.cuda.runtime
_driver: Any = None    # cupy.cuda.driver
_hip = False           # CuPy's ROCm build (devices are hip:N)


def _import_cupy() -> Any:
    global _cupy, _runtime, _driver, _hip
    if _cupy is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # CuPy warns about CUDA paths it cannot find
            import cupy
            from cupy.cuda import driver, runtime
        _runtime, _driver = runtime, driver
        _hip = bool(getattr(runtime, "is_hip", False))
        _cupy = cupy
    return _cupy


# -- events ---------------------------------------------------------------------------------

#: a HIP kernel with more view and size arguments than this has their values written into
#: its source as constants (one program per shape then): AMD GPUs keep kernel arguments in
#: scalar registers, and 89 64-bit ones (a concat of four padded views) spilled 144 of them
INLINE_SHAPES_ABOVE = 24

class CUDAEvent(Event):
    """A point in a device's stream: a CUDA event recorded after the work it marks.

    ``keep`` holds objects (a host array being copied in) until the event has completed.
    The handle comes from the device's pool of events and goes back to it when this object is
    collected. ``ptr`` is the raw ``cudaEvent_t`` (for ``cudaStreamWaitEvent``).
    """

    __slots__ = ("_device", "_keep", "ptr")

    def __init__(self, ptr: int, device: CUDADevice, keep: Any = None) -> None:
        self.ptr = ptr
        self._device = device
        self._keep = keep

    def wait(self) -> None:
        _runtime.eventSynchronize(self.ptr)
        self._keep = None

    def done(self) -> bool:
        if _runtime.eventQuery(self.ptr) == 0:
            self._keep = None
            return True
        return False

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._device._recycle(self.ptr, self._keep)


class _BorrowedBuffer(Buffer):
    """A buffer over memory CuPy owns (``wrap_cupy``); ``owner`` keeps that memory alive."""

    __slots__ = ("owner",)

    def __init__(self, device: Device, nbytes: int, handle: Any, owner: Any) -> None:
        super().__init__(device, nbytes, handle, pooled=False)
        self.owner = owner


# -- programs -------------------------------------------------------------------------------
_spin: Any = None


def _profile_spin() -> Any:
    """A one-thread kernel that spins for ``cycles`` clock cycles (the profile topic's)."""
    global _spin
    if _spin is None:
        _spin = _cupy.RawKernel(r'''extern "C" __global__ void zx_spin(long long cycles) {
            const long long start = clock64();
            while (clock64() - start < cycles) { }
        }''', "zx_spin")
    return _spin


class CUDAProgram(Program):
    """A loaded kernel. ``__call__`` packs the arguments into preallocated ctypes storage and
    calls ``cuLaunchKernel`` directly (a few microseconds per launch)."""

    def __init__(self, name: str, source: str, device: CUDADevice, module: Any,
                 function: Any, ir: Any) -> None:
        super().__init__(name, source)
        self.device = device
        self.module = module       # keeps the module loaded while the program lives
        self.function = function
        self._fptr = function.ptr
        meta = getattr(ir, "meta", None) or {}
        self.local_size = int(meta.get("local_size", 0))
        self.groups_arg = meta.get("groups_arg")
        self.n_buffers = len(ir.buffers) if ir is not None else -1
        self.n_ints = int(ir.n_ints) if ir is not None else -1
        self.n_floats = int(ir.n_floats) if ir is not None else -1
        self.max_threads = _driver.funcGetAttribute(
            _driver.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, self._fptr)
        self.registers = _driver.funcGetAttribute(_driver.CU_FUNC_ATTRIBUTE_NUM_REGS,
                                                  self._fptr)
        self._lock = threading.Lock()
        nb, ni, nf = max(self.n_buffers, 0), max(self.n_ints, 0), max(self.n_floats, 0)
        # one 8-byte slot per kernel parameter, and the array of pointers to the slots that
        # cuLaunchKernel reads (it copies the values when it is called)
        self._bufs = (ctypes.c_uint64 * max(nb, 1))()
        self._ints = (ctypes.c_int64 * max(ni, 1))()
        self._floats = (ctypes.c_double * max(nf, 1))()
        params = (ctypes.c_void_p * max(nb + ni + nf, 1))()
        for k in range(nb):
            params[k] = ctypes.addressof(self._bufs) + 8 * k
        for k in range(ni):
            params[nb + k] = ctypes.addressof(self._ints) + 8 * k
        for k in range(nf):
            params[nb + ni + k] = ctypes.addressof(self._floats) + 8 * k
        self._params = params
        self._params_ptr = ctypes.addressof(params)

    #: launch through CuPy's ``Function.__call__`` instead of ``cuLaunchKernel`` (slower;
    #: kept for comparison)
    cupy_launch = False

    def __call__(self, buffers: list[Buffer], ints: list[int], floats: list[float]) -> Event:
        if (len(buffers) != self.n_buffers or len(ints) != self.n_ints
                or len(floats) != self.n_floats):
            raise self._arity_error(buffers, ints, floats)
        groups = int(ints[self.groups_arg])
        if groups <= 0:
            return COMPLETED
        dev = self.device
        if _runtime.getDevice() != dev.index:
            with dev._cudevice:
                return self._launch(dev, buffers, ints, floats, groups)
        return self._launch(dev, buffers, ints, floats, groups)

    def _launch(self, dev: CUDADevice, buffers: list[Buffer], ints: list[int],
                floats: list[float], groups: int) -> Event:
        if _debug.enabled("profile"):
            return self._timed(dev, buffers, ints, floats, groups)
        self._enqueue(dev, buffers, ints, floats, groups)
        return dev.record()

    def _enqueue(self, dev: CUDADevice, buffers: list[Buffer], ints: list[int],
                 floats: list[float], groups: int) -> None:
        try:
            if self.cupy_launch:
                args = ([b.handle.ptr for b in buffers] + [int(i) for i in ints]
                        + [float(f) for f in floats])
                self.function((groups,), (self.local_size,), tuple(args), stream=dev.stream)
            else:
                self._fast_launch(dev, buffers, ints, floats, groups)
        except Exception as e:
            if not _no_context(e):
                raise self._launch_error(e, groups) from e
            # a thread whose CUDA context was never made current (the driver API does not
            # do that by itself): bind the device's primary context and try again
            with dev._cudevice:
                _runtime.free(0)
            try:
                self._fast_launch(dev, buffers, ints, floats, groups)
            except Exception as e2:
                raise self._launch_error(e2, groups) from e2

    def _timed(self, dev: CUDADevice, buffers: list[Buffer], ints: list[int],
               floats: list[float], groups: int) -> Event:
        """The launch between two CUDA events, waited for: its device time goes to
        ``dev.kernel_times`` and the ``profile`` topic (as the vulkan device's timestamps).
        A short spin goes first, so that the launch is queued before the GPU reaches the
        first event: the interval is the kernel's, not the host's time to launch it."""
        start, end = _cupy.cuda.Event(), _cupy.cuda.Event()
        spin = _profile_spin()
        with dev.stream:
            spin((1,), (1,), (np.int64(200_000),))      # (about 0.1 ms at 2 GHz)
        start.record(dev.stream)
        self._enqueue(dev, buffers, ints, floats, groups)
        end.record(dev.stream)
        end.synchronize()
        seconds = _cupy.cuda.get_elapsed_time(start, end) / 1e3
        dev.kernel_times.setdefault(self.name, []).append(seconds)
        _debug.log("profile", f"{dev.info.name} {self.name}: {seconds * 1e6:.1f} us on the "
                              "device")
        return dev.record()

    def _fast_launch(self, dev: CUDADevice, buffers: list[Buffer], ints: list[int],
                     floats: list[float], groups: int) -> None:
        with self._lock:
            if buffers:
                self._bufs[:] = [b.handle.ptr for b in buffers]
            if ints:
                self._ints[:] = ints
            if floats:
                self._floats[:] = floats
            _driver.launchKernel(self._fptr, groups, 1, 1, self.local_size, 1, 1, 0,
                                 dev.stream_ptr, self._params_ptr, 0)

    def _arity_error(self, buffers: list[Buffer], ints: list[int],
                     floats: list[float]) -> Exception:
        if self.groups_arg is None or self.n_buffers < 0:
            return ValueError(f"{self.name}: compiled without launch metadata (ir.meta needs "
                              f"'local_size' and 'groups_arg'); it cannot be launched")
        return ValueError(f"{self.name}: called with {len(buffers)} buffers, {len(ints)} ints, "
                          f"{len(floats)} floats; it takes {self.n_buffers}, {self.n_ints}, "
                          f"{self.n_floats}")

    def _launch_error(self, e: BaseException, groups: int) -> BaseException:
        if groups > _INT_MAX:
            return ValueError(f"{self.name}: {groups} blocks exceed the grid limit "
                              f"{_INT_MAX} on {self.device.name}")
        return DeviceError(f"launching {self.name} on {self.device.name} "
                           f"(grid {groups}, block {self.local_size}, {self.registers} "
                           f"registers per thread) failed: {e}")


# -- devices --------------------------------------------------------------------------------
class CUDADevice(Device):
    """One GPU through CuPy: ``cuda:<index>`` (NVIDIA) or ``hip:<index>`` (AMD)."""

    def __init__(self, index: int) -> None:
        cp = _import_cupy()
        self.index = index
        self._cudevice = cp.cuda.Device(index)
        self._thread = threading.local()        # (this thread's cuBLAS handle here)
        props = _runtime.getDeviceProperties(index)
        raw_name = props.get("name", b"GPU")
        gpu = raw_name.decode(errors="replace") if isinstance(raw_name, bytes) else str(raw_name)
        major, minor = int(props.get("major", 0)), int(props.get("minor", 0))
        self.compute_capability = major * 10 + minor
        total = int(props["totalGlobalMem"])
        units = int(props.get("multiProcessorCount", 1))
        grid = props.get("maxGridSize") or (_INT_MAX, 65535, 65535)
        warp = int(props.get("warpSize", 64 if _hip else 32))
        kind = "hip" if _hip else "cuda"
        extra = {
            "warp_size": warp,
            "max_grid": int(grid[0]),
            "max_threads_per_sm": int(props.get("maxThreadsPerMultiProcessor", 0)),
            "registers_per_block": int(props.get("regsPerBlock", 0)),
            "shared_memory_per_sm": int(props.get("sharedMemPerMultiprocessor", 0)),
            "shared_memory_per_block_optin": int(props.get("sharedMemPerBlockOptin", 0)),
            "l2_cache": int(props.get("l2CacheSize", 0)),
            "memory_bus_width": int(props.get("memoryBusWidth", 0)),
            "pci_bus_id": int(props.get("pciBusID", 0)),
            "gpu_name": gpu,
            "driver_version": _runtime.driverGetVersion(),
            "runtime_version": _runtime.runtimeGetVersion(),
        }
        if _hip:
            arch = props.get("gcnArchName", b"")
            self.arch = (arch.decode(errors="replace") if isinstance(arch, bytes)
                         else str(arch)) or f"gfx{major}{minor}"
            extra["gcn_arch"] = self.arch
            language = "hip"
            description = (f"{gpu}, {self.arch}, {total / 2**30:.1f} GiB, {units} compute "
                           f"units, wavefront {warp}")
        else:
            self.arch = f"sm_{major}{minor}"
            extra["compute_capability"] = f"{major}{minor}"
            language = _env.get(_env.CUDA_DIALECT) or "cuda"
            if language not in ("cuda", "hip"):
                raise ValueError(f"{_env.CUDA_DIALECT}={language!r}: 'cuda' or 'hip'")
            description = (f"{gpu}, compute capability {major}.{minor}, "
                           f"{total / 2**30:.1f} GiB, {units} SMs"
                           + (", HIP dialect" if language == "hip" else ""))
        if language == "hip":      # (the HIP dialect's reductions shuffle within a wavefront)
            extra["subgroup"] = warp
            # AMD kernels keep every argument in scalar registers: a kernel with many shape
            # arguments gets them written into its source (``lower``'s ``_inline_shapes``)
            extra["inline_shapes"] = INLINE_SHAPES_ABOVE
        self.info = DeviceInfo(
            name=f"{kind}:{index}", kind=kind, language=language, description=description,
            float64=True, float16=_hip or self.compute_capability >= 53, complex=True,
            compute_units=units, max_work_group=int(props.get("maxThreadsPerBlock", 1024)),
            local_memory=int(props.get("sharedMemPerBlock", 48 * 1024)), simd_lanes=1,
            style="threads", launch_bounds=True, total_memory=total, extra=extra)
        self.pool = MemoryPool(self.info.name, self._raw_alloc, self._raw_free, total)
        with self._cudevice:
            self.stream = cp.cuda.Stream(non_blocking=True)        # launches and copies in
            self.read_stream = cp.cuda.Stream(non_blocking=True)   # copies out
        self.stream_ptr = self.stream.ptr
        self.kernel_times: dict[str, list[float]] = {}   # program name -> device seconds
        self._events: list[int] = []                  # recycled event handles
        self._pending: list[tuple[int, Any]] = []     # collected events guarding host memory
        self._ptx = False
        self._stage: list[np.ndarray] | None = None     # pinned buffers of copy_out
        self._stage_events: list[Any] = []
        self._stage_lock = threading.Lock()
        self._small: np.ndarray | None = None             # pinned buffer of small reads
        self._lock = threading.Lock()
        self._modules: dict[str, tuple[Any, Any]] = {}
        self._views: dict[tuple, Any] = {}      # as_array's CuPy views, by address and layout
        self._signature: str | None = None
        self._options: tuple[str, ...] | None = None
        self.compiles = 0     # real NVRTC compilations in this process (tests read it)

    # -- streams and events ---------------------------------------------------------------
    def record(self, keep: Any = None) -> CUDAEvent:
        """An event recorded now on the device's stream (after everything queued so far)."""
        if self._pending:
            self._drain_pending()
        try:
            ptr = self._events.pop()
        except IndexError:
            with self._cudevice:
                ptr = _runtime.eventCreateWithFlags(_EVENT_DISABLE_TIMING)
        _runtime.eventRecord(ptr, self.stream_ptr)
        return CUDAEvent(ptr, self, keep)

    def _recycle(self, ptr: int, keep: Any) -> None:
        # an event collected while it still guards a host array (an asynchronous copy in)
        # waits in ``_pending`` until it completes; re-recording an event that a stream waits
        # on is safe (the wait captured the event's state when it was queued)
        if keep is None:
            self._events.append(ptr)
        else:
            self._pending.append((ptr, keep))

    def _drain_pending(self) -> None:
        still = []
        while self._pending:
            ptr, keep = self._pending.pop()
            if _runtime.eventQuery(ptr) == 0:
                self._events.append(ptr)
            else:
                still.append((ptr, keep))
        self._pending.extend(still)

    def wait_for(self, event: Event) -> None:
        """Make the device's stream wait for ``event`` (of any CUDA device) without blocking
        the host; a host-side event is waited for on the host."""
        if isinstance(event, CUDAEvent):
            _runtime.streamWaitEvent(self.stream_ptr, event.ptr, 0)
        else:
            event.wait()

    def free_memory(self) -> int:
        """The driver's free bytes (``cudaMemGetInfo``, other processes' use included), plus
        what CuPy's pool holds unused, within the pool's limit."""
        try:
            with self._cudevice:
                free, _total = _runtime.memGetInfo()
            free += _cupy.get_default_memory_pool().free_bytes()
        except Exception:
            return self.pool.free_bytes
        return min(int(free), self.pool.free_bytes) if self.pool.capacity else int(free)

    def synchronize(self) -> None:
        # (the read stream needs no wait: copy_out finishes its copies before it returns)
        self.stream.synchronize()

    @contextlib.contextmanager
    def activate(self) -> Iterator[Any]:
        """Make this device and its stream CuPy's current ones, so CuPy calls (cuBLAS, cuFFT,
        elementwise) are ordered with the device's kernels. Yields the CuPy stream."""
        with self._cudevice, self.stream:
            yield self.stream

    # -- memory ---------------------------------------------------------------------------
    def _raw_alloc(self, nbytes: int) -> Any:
        cp = _cupy
        with self._cudevice, self.stream:
            try:
                return cp.cuda.alloc(nbytes)
            except cp.cuda.memory.OutOfMemoryError:
                pass
            cp.get_default_memory_pool().free_all_blocks()
            try:
                return cp.cuda.alloc(nbytes)
            except cp.cuda.memory.OutOfMemoryError as e:
                raise MemoryError(f"cannot allocate {nbytes} bytes on device {self.name}: "
                                  f"{e}") from None

    def _raw_free(self, handle: Any) -> None:
        # dropping the MemoryPointer returns the block to CuPy's pool; free_all_blocks()
        # (in _raw_alloc, after the pool has dropped its cache) gives it back to the driver
        return None

    def copy_in(self, buffer: Buffer, data: np.ndarray) -> None:
        """Copy a host array into ``buffer``, asynchronously on the device's stream.
        ``buffer.ready`` marks the end; the host array is kept alive until then.

        The caller may change ``data`` as soon as this returns: the driver stages ordinary
        (pageable) memory before returning, and pinned memory, which it would read later,
        is snapshotted here first."""
        src = np.ascontiguousarray(data)
        n = src.nbytes
        if n > buffer.nbytes:
            raise ValueError(f"copy_in: {n} bytes do not fit a buffer of {buffer.nbytes} "
                             f"bytes on {self.name}")
        if n == 0:
            return
        if src is data and _is_pinned(src.ctypes.data):
            src = src.copy()
        try:
            _runtime.memcpyAsync(buffer.handle.ptr, src.ctypes.data, n, _MEMCPY_H2D,
                                 self.stream_ptr)
        except Exception as e:
            raise DeviceError(f"copy in of {n} bytes on device {self.name} failed: {e}") from e
        buffer.ready = self.record(keep=src)
        if _debug.enabled("memory"):
            _debug.log("memory", f"{self.name}: copy in {n} bytes (queued)")

    def copy_out(self, buffer: Buffer, start: int = 0, stop: int | None = None,
                 while_waiting: Callable[[], object] | None = None,
                 into: np.ndarray | None = None) -> np.ndarray:
        """Bytes ``start:stop`` of the buffer as a read-only host uint8 array. Waits for
        ``buffer.ready`` only (an event, not the device), then reads through the read
        stream: through a small pinned buffer up to ``SMALL_READ`` bytes, into an array of
        pooled pinned memory up to ``PINNED_MAX`` (``_pinned``); where there is none, or
        ``into`` is given, directly into pageable memory, and through two pinned staging
        buffers (DMA of one chunk overlaps the host copy of the previous one) from
        ``STAGE_MIN`` bytes on.
        ``while_waiting`` runs once the first transfer is queued."""
        start, stop = byte_range(buffer, start, stop)
        ready = buffer.ready
        if isinstance(ready, CUDAEvent):
            # the read stream waits on the device: one host synchronization per read, not two
            _runtime.streamWaitEvent(self.read_stream.ptr, ready.ptr, 0)
        else:
            ready.wait()
        n = stop - start
        pinned = self._pinned(n) if into is None and SMALL_READ < n <= PINNED_MAX else None
        if pinned is not None:
            out = pinned
        else:
            out = np.empty(n, dtype=np.uint8) if into is None else into
        if n:
            ptr = buffer.handle.ptr + start
            try:
                if pinned is None and n >= STAGE_MIN:
                    self._read_staged(out, ptr, n, while_waiting)
                elif pinned is None and n <= SMALL_READ:
                    self._read_small(out, ptr, n, while_waiting)
                else:       # (pinned memory, or pageable memory between the two)
                    _runtime.memcpyAsync(out.ctypes.data, ptr, n, _MEMCPY_D2H,
                                         self.read_stream.ptr)
                    if while_waiting is not None:
                        while_waiting()
                    self.read_stream.synchronize()
            except Exception as e:
                raise DeviceError(f"copy out of {n} bytes on device {self.name} failed: "
                                  f"{e}") from e
            if _debug.enabled("memory"):
                _debug.log("memory", f"{self.name}: copy out {n} bytes"
                                     f"{' (pinned)' if pinned is not None else ''}")
        elif while_waiting is not None:
            while_waiting()
        if into is None:
            out.flags.writeable = False
        return out if pinned is None else mark_fresh(out)

    def _pinned(self, n: int) -> np.ndarray | None:
        """A host array of ``n`` bytes in page-locked memory from CuPy's pinned memory pool,
        which the device copies into at full speed (H100, 32 MiB: 0.73 ms, where a copy into
        new pageable memory took 8-11 ms, CuPy's ``asnumpy`` too, its pages faulted in as
        it was written); its memory returns to the pool when the array is collected. None
        where none can be had (the read then goes into pageable memory)."""
        import cupyx

        try:
            with self._cudevice:
                return cupyx.empty_pinned((n,), np.uint8)
        except Exception as e:      # (out of page-locked memory: a plain read serves)
            _debug.log("memory", f"{self.name}: no pinned host memory for a read of {n} "
                                 f"bytes ({type(e).__name__}: {e})")
            return None

    def _read_small(self, out: np.ndarray, ptr: int, n: int,
                    meanwhile: Callable[[], object] | None) -> None:
        """A read of a few bytes (a scalar, a small result) through a pinned buffer: about 3
        microseconds less latency than a copy into pageable memory (H200)."""
        with self._stage_lock:
            if self._small is None:
                import cupyx

                with self._cudevice:
                    self._small = cupyx.empty_pinned((SMALL_READ,), np.uint8)
            small = self._small
            _runtime.memcpyAsync(small.ctypes.data, ptr, n, _MEMCPY_D2H, self.read_stream.ptr)
            if meanwhile is not None:
                meanwhile()
            self.read_stream.synchronize()
            out[:] = small[:n]

    def _read_staged(self, out: np.ndarray, ptr: int, n: int,
                     meanwhile: Callable[[], object] | None) -> None:
        with self._stage_lock:
            if self._stage is None:
                import cupyx

                with self._cudevice:
                    self._stage = [cupyx.empty_pinned((STAGE_CHUNK,), np.uint8)
                                   for _ in range(2)]
                    self._stage_events = [_cupy.cuda.Event(disable_timing=True)
                                          for _ in range(2)]
            stage, events = self._stage, self._stage_events
            stream = self.read_stream
            prev: tuple[int, int, int] | None = None
            for k, off in enumerate(range(0, n, STAGE_CHUNK)):
                slot, size = k & 1, min(STAGE_CHUNK, n - off)
                # the slot's previous chunk (k - 2) was copied to ``out`` in the last round
                _runtime.memcpyAsync(stage[slot].ctypes.data, ptr + off, size, _MEMCPY_D2H,
                                     stream.ptr)
                events[slot].record(stream)
                if prev is not None:
                    self._unstage(out, prev)
                elif meanwhile is not None:
                    meanwhile()
                prev = (slot, off, size)
            assert prev is not None
            self._unstage(out, prev)

    def _unstage(self, out: np.ndarray, chunk: tuple[int, int, int]) -> None:
        slot, off, size = chunk
        self._stage_events[slot].synchronize()
        out[off:off + size] = self._stage[slot][:size]

    def copy(self, dst: Buffer, src: Buffer, nbytes: int | None = None) -> None:
        """Copy ``src`` (this or another CUDA device, or any device through the host) into
        ``dst`` of this device, asynchronously on this device's stream."""
        n = min(src.nbytes, dst.nbytes) if nbytes is None else int(nbytes)
        if n == 0:
            return
        if not isinstance(src.device, CUDADevice):
            self.copy_in(dst, src.device.copy_out(src)[:n])
            return
        self.wait_for(src.ready)
        try:
            _runtime.memcpyAsync(dst.handle.ptr, src.handle.ptr, n, _MEMCPY_DEFAULT,
                                 self.stream_ptr)
        except Exception as e:
            raise DeviceError(f"device copy of {n} bytes to {self.name} failed: {e}") from e
        dst.ready = self.record(keep=src)

    def fill_zero(self, buffer: Buffer) -> None:
        """Set every byte of ``buffer`` to 0, asynchronously."""
        if buffer.nbytes:
            _runtime.memsetAsync(buffer.handle.ptr, 0, buffer.nbytes, self.stream_ptr)
            buffer.ready = self.record()

    # -- CuPy / DLPack interop ------------------------------------------------------------
    def as_cupy(self, buffer: Buffer, dtype: Any, shape: Sequence[int],
                strides_in_elements: Sequence[int] | None = None, offset: int = 0) -> Any:
        """A CuPy ndarray viewing ``buffer`` (no copy): ``offset`` and strides in elements
        (C-contiguous when strides are None). The view keeps the buffer alive. CuPy work on
        it belongs inside ``with device.activate():`` (the device's stream)."""
        cp = _cupy
        dt = np.dtype(dtype)
        shape = tuple(int(s) for s in shape)
        if strides_in_elements is None:
            strides_in_elements = _contiguous_strides(shape)
        strides = tuple(int(s) * dt.itemsize for s in strides_in_elements)
        if len(strides) != len(shape):
            raise ValueError(f"as_cupy: shape {shape} and strides {strides_in_elements} differ "
                             f"in length")
        start = int(offset) * dt.itemsize
        if all(shape):
            lo = start + sum(st * (s - 1) for s, st in zip(shape, strides) if st < 0)
            hi = start + sum(st * (s - 1) for s, st in zip(shape, strides) if st > 0)
            if lo < 0 or hi + dt.itemsize > buffer.nbytes:
                raise ValueError(f"as_cupy: a view of shape {shape}, strides {strides} bytes, "
                                 f"offset {start} bytes reaches outside a buffer of "
                                 f"{buffer.nbytes} bytes")
        mem = cp.cuda.UnownedMemory(buffer.handle.ptr, max(buffer.nbytes, 1), buffer,
                                    self.index)
        return cp.ndarray(shape, dt, memptr=cp.cuda.MemoryPointer(mem, start), strides=strides)

    def library_direct(self, name: str, views: list[tuple], dtype: np.dtype,
                       shape: tuple[int, ...], params: dict[str, Any]) -> Buffer | None:
        """``name`` run at once from its operands' (buffer, dtype, shape, element strides,
        offset), without CuPy arrays, the device's context or the library table: a matrix
        product of float32 or float64 matrices and vectors by cuBLAS's gemm (what the
        ``matmul`` implementation does after making three CuPy views, about 20 us of a
        training step's product). A new buffer holding the result, or None (nothing done)
        for anything else."""
        if name != "matmul" or params or len(views) != 2 or dtype.char not in "fd":
            return None
        (a, a_dt, a_shape, a_st, a_off), (b, b_dt, b_shape, b_st, b_off) = views
        if a_dt != dtype or b_dt != dtype or 0 in shape:
            return None
        handle = getattr(self._thread, "cublas", None)
        if handle is None:      # (CuPy's handles are per thread, destroyed with the thread)
            with self._cudevice:
                handle = self._thread.cublas = _cupy.cuda.device.get_cublas_handle()
        item = dtype.itemsize
        out = self.alloc(math.prod(shape) * item)
        # (CuPy's cuBLAS bindings set the handle's stream to CuPy's current one at each
        # call: this device's stream must be it, or the product runs unordered with the
        # device's work and a read can see the buffer before it is written)
        with self._cudevice, self.stream:
            done = _library_gemm(dtype, (a.handle.ptr + a_off * item, a_shape, a_st),
                                 (b.handle.ptr + b_off * item, b_shape, b_st),
                                 out.handle.ptr, True, handle, self.stream_ptr)
        if not done:
            return None
        out.ready = self.record()
        return out

    def as_array(self, buffer: Buffer, dtype: Any, shape: Sequence[int],
                 strides_in_elements: Sequence[int] | None = None, offset: int = 0) -> Any:
        """``as_cupy`` for a device-resident library op's operands (``library.on_device``),
        which live only during the call: views are kept by (address, layout) and reused
        (a loop's ``X @ w`` made three CuPy arrays per step, about 10 us each). A kept view
        does not hold its buffer: it is used only while the buffer now at that address,
        with at least its size, is an operand."""
        key = (buffer.handle.ptr, buffer.nbytes, dtype, tuple(shape),
               None if strides_in_elements is None else tuple(strides_in_elements), offset)
        view = self._views.get(key)
        if view is None:
            a = self.as_cupy(buffer, dtype, shape, strides_in_elements, offset)
            mem = _cupy.cuda.UnownedMemory(buffer.handle.ptr, max(buffer.nbytes, 1), None,
                                           self.index)
            view = _cupy.ndarray(a.shape, a.dtype, strides=a.strides,
                                 memptr=_cupy.cuda.MemoryPointer(mem, a.data.ptr -
                                                                 buffer.handle.ptr))
            if len(self._views) >= 1024:
                self._views.clear()
            self._views[key] = view
        return view

    def wrap_cupy(self, array: Any) -> Buffer:
        """A buffer over a CuPy array's own memory (no copy; DLPack import). The buffer keeps
        the array alive; the device's stream waits for the work queued on CuPy's current
        stream. A non-C-contiguous array is copied first (then the buffer is not a view)."""
        cp = _cupy
        if not isinstance(array, cp.ndarray):
            raise TypeError(f"wrap_cupy takes a cupy.ndarray, not {type(array).__name__}")
        if array.device.id != self.index:
            raise ValueError(f"wrap_cupy: the array is on {self.info.kind}:{array.device.id}, "
                             f"not on {self.name}")
        current = cp.cuda.get_current_stream()
        if not array.flags.c_contiguous:
            with self._cudevice:
                array = cp.ascontiguousarray(array)
        if current.ptr != self.stream_ptr:
            with self._cudevice:
                ev = cp.cuda.Event(disable_timing=True)
                ev.record(current)
            self.stream.wait_event(ev)
        return _BorrowedBuffer(self, array.nbytes, array.data, owner=array)

    # -- compile --------------------------------------------------------------------------
    def _compile_setup(self) -> tuple[tuple[str, ...], str]:
        """The compiler options (architecture, include directories) and the cache
        signature."""
        if self._options is None or self._signature is None:
            nvrtc = _cupy.cuda.nvrtc
            version = nvrtc.getVersion()
            if _hip:       # (hiprtc: a code object for the device's architecture)
                options: tuple[str, ...] = (*HIPRTC_OPTIONS, f"--gpu-architecture={self.arch}")
                self._ptx = True      # (getPTX returns hiprtc's code object)
                arch = self.arch
            else:
                try:
                    archs = tuple(int(a) for a in nvrtc.getSupportedArchs())
                except Exception:
                    archs = ()
                cc = self.compute_capability
                if not archs or cc in archs:
                    arch, self._ptx = f"sm_{cc}", False
                else:   # a GPU newer than NVRTC: PTX for the newest older target, JIT later
                    older = [a for a in archs if a <= cc] or [min(archs)]
                    arch, self._ptx = f"compute_{max(older)}", True
                options = (*NVRTC_OPTIONS, f"--gpu-architecture={arch}",
                           *(f"--include-path={d}" for d in _include_dirs()))
            self._options = options
            self._signature = "\n".join([_FORMAT, f"{'hiprtc' if _hip else 'nvrtc'} {version}",
                                         f"cupy {_cupy.__version__}", f"arch {arch}",
                                         f"language {self.info.language}", *options])
        return self._options, self._signature

    @property
    def _suffix(self) -> str:
        return ".hsaco" if _hip else ".ptx" if self._ptx else ".cubin"

    def compile(self, source: str, ir: Any) -> Program:
        name = getattr(ir, "name", None) or KERNEL_NAME
        options, signature = self._compile_setup()
        digest = cache.key(source, signature)
        with self._lock:
            loaded = self._modules.get(digest)
        if loaded is None:
            loaded = self._load_cached(digest)
        if loaded is None:
            binary = self._nvrtc(source, options)
            if cache.enabled():
                cache.store_bytes("cuda", digest, self._suffix, _wrap_binary(binary))
            loaded = self._load(binary)
        with self._lock:
            self._modules[digest] = loaded
        module, function = loaded
        prog = CUDAProgram(name, source, self, module, function, ir)
        if prog.local_size > prog.max_threads:
            raise CompileError(f"{name}: local_size {prog.local_size} exceeds the "
                               f"{prog.max_threads} threads per block this kernel allows on "
                               f"{self.name} ({prog.registers} registers per thread)",
                               source, "", self._command(options), self.name)
        return prog

    def _load(self, binary: bytes) -> tuple[Any, Any]:
        module = _cupy.cuda.function.Module()
        with self._cudevice:
            module.load(binary)
            return module, module.get_function(KERNEL_NAME)

    def _load_cached(self, digest: str) -> tuple[Any, Any] | None:
        path = cache.lookup("cuda", digest, self._suffix)
        if path is None:
            return None
        try:
            binary = _unwrap_binary(path.read_bytes())
            if binary is None:
                raise ValueError("bad checksum")
            loaded = self._load(binary)
            _debug.log("compile", f"{self.name}: disk cache hit {path.name}")
            return loaded
        except Exception as e:
            _debug.log("compile", f"{self.name}: corrupt cache entry {path} ({e}); "
                                  f"recompiling")
            cache.remove(path)
            return None

    def _command(self, options: tuple[str, ...]) -> str:
        return ("hiprtc " if _hip else "nvrtc ") + " ".join(options)

    def _nvrtc(self, source: str, options: tuple[str, ...]) -> bytes:
        nvrtc = _cupy.cuda.nvrtc
        t0 = time.perf_counter()
        prog = nvrtc.createProgram(source, "zx_kernel.hip" if _hip else "zx_kernel.cu", (), ())
        try:
            self.compiles += 1
            try:
                nvrtc.compileProgram(prog, list(options))
            except nvrtc.NVRTCError as e:
                try:
                    log = nvrtc.getProgramLog(prog)
                except Exception:
                    log = ""
                raise CompileError(f"{'hiprtc' if _hip else 'NVRTC'} rejected a generated "
                                   f"kernel for {self.name} ({e})",
                                   source, log or str(e), self._command(options),
                                   self.name) from None
            binary = nvrtc.getPTX(prog) if self._ptx else nvrtc.getCUBIN(prog)
        finally:
            nvrtc.destroyProgram(prog)
        _debug.log("compile", f"{self.name}: {'hiprtc' if _hip else 'NVRTC'} compiled in "
                              f"{1e3 * (time.perf_counter() - t0):.1f} ms")
        return binary


def _wrap_binary(binary: bytes) -> bytes:
    return _MAGIC + hashlib.sha256(binary).hexdigest().encode() + b"\n" + binary


def _unwrap_binary(data: bytes) -> bytes | None:
    """The binary of a cache entry, or None when the entry is damaged (never hand the driver
    a damaged image)."""
    if not data.startswith(_MAGIC):
        return None
    head, sep, binary = data[len(_MAGIC):].partition(b"\n")
    if not sep or hashlib.sha256(binary).hexdigest().encode() != head:
        return None
    return binary


def _is_pinned(ptr: int) -> bool:
    """Whether host memory at ``ptr`` is page-locked (registered with CUDA)."""
    try:
        return bool(_runtime.pointerGetAttributes(ptr).type != _runtime.memoryTypeUnregistered)
    except Exception:
        return True


def _no_context(e: BaseException) -> bool:
    return "CONTEXT" in str(e).upper() and "INVALID" in str(e).upper()


def _contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(strides))


def _include_dirs() -> list[str]:
    """Directories with the CUDA headers (cuda_fp16.h, ...) that NVRTC may need: the CUDA
    toolkit CuPy found, and the pip-installed NVIDIA header packages."""
    found: list[str] = []
    with contextlib.suppress(Exception):
        path = _cupy.cuda.get_cuda_path()
        if path:
            found.append(os.path.join(path, "include"))
    for base in sys.path:
        for sub in ("nvidia/cu13/include", "nvidia/cuda_runtime/include",
                    "nvidia/cuda_nvrtc/include"):
            found.append(os.path.join(base, sub))
    seen: list[str] = []
    for d in found:
        if d not in seen and os.path.isfile(os.path.join(d, "cuda_fp16.h")):
            seen.append(d)
    return seen


def discover() -> tuple[list[Device], list[str]]:
    """Every GPU CuPy drives, as ``cuda:N`` (CuPy's CUDA build) or ``hip:N`` (its ROCm
    build), or no devices; the reasons name both kinds, so that ``python -m zyxarray`` says
    why there is no ``hip:0`` on an NVIDIA machine and no ``cuda:0`` on an AMD one."""
    try:
        _import_cupy()
    except Exception as e:
        why = f"CuPy is not available ({type(e).__name__}: {e})"
        return [], [f"cuda: {why}", f"hip: {why}"]
    kind, other = ("hip", "cuda") if _hip else ("cuda", "hip")
    api = "ROCm (HIP)" if _hip else "CUDA"
    reasons = [f"{other}: the installed CuPy is built for {api}; "
               f"{'cupy-cuda13x' if _hip else 'CuPy for ROCm'} drives {other} devices"]
    try:
        count = _runtime.getDeviceCount()
    except Exception as e:
        return [], [*reasons, f"{kind}: no usable {api} driver ({type(e).__name__}: {e})"]
    if count == 0:
        return [], [*reasons, f"{kind}: the {api} driver reports no devices"]
    found: list[Device] = []
    for i in range(count):
        try:
            found.append(CUDADevice(i))
        except Exception as e:
            reasons.append(f"{kind}:{i}: {type(e).__name__}: {e}")
    return found, reasons


# -- compile checks without a GPU -------------------------------------------------------------
def find_nvcc() -> str | None:
    """The nvcc on PATH, under $CUDA_PATH/$CUDA_HOME, or in /usr/local/cuda; None if none."""
    cands = [shutil.which("nvcc")]
    for var in ("CUDA_PATH", "CUDA_HOME"):
        if os.environ.get(var):
            cands.append(os.path.join(os.environ[var], "bin", "nvcc"))
    cands.append("/usr/local/cuda/bin/nvcc")
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


_PARAM = re.compile(r"\.param\s+\.(\w+)")


def compile_check(source: str, ir: Any = None, arch: str = CHECK_ARCH) -> tuple[bool, str]:
    """Compile CUDA source to PTX with the local nvcc (``--ptx -arch=sm_90 -std=c++17``, no
    GPU, no linking). Also checks that it defines ``extern "C" zx_kernel`` and, given the IR,
    that its parameters are the buffers, the ``long long`` ints and the ``double`` floats.
    Returns (ok, log): the compiler's diagnostics (warnings too), or why it failed.

    nvcc includes host headers that NVRTC lacks (<stdint.h>, <math.h>): a kernel that includes
    them passes here and fails at run time.
    """
    nvcc = find_nvcc()
    if nvcc is None:
        return False, "nvcc not found (PATH, $CUDA_PATH, $CUDA_HOME, /usr/local/cuda)"
    with tempfile.TemporaryDirectory(prefix="zyxarray-nvcc-") as d:
        src = Path(d) / "kernel.cu"
        out = Path(d) / "kernel.ptx"
        src.write_text(source)
        cmd = [nvcc, *CHECK_FLAGS, f"-arch={arch}", "-o", str(out), str(src)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=d, timeout=300)
        except (OSError, subprocess.SubprocessError) as e:
            return False, f"{' '.join(cmd)}: {e}"
        log = (proc.stderr + proc.stdout).replace(str(src), "kernel.cu")
        if proc.returncode != 0:
            return False, log
        ptx = out.read_text()
    why = _check_entry(ptx, ir)
    if why:
        return False, (log + "\n" if log else "") + why
    return True, log


def _check_entry(ptx: str, ir: Any) -> str:
    m = re.search(r"\.entry\s+" + KERNEL_NAME + r"\s*\((.*?)\)", ptx, re.S)
    if m is None:
        return (f'no kernel entry named {KERNEL_NAME}: it must be declared '
                f'extern "C" __global__ void {KERNEL_NAME}(...)')
    if ir is None:
        return ""
    kinds = _PARAM.findall(m.group(1))
    nb = len(ir.buffers)
    want = ["u64"] * (nb + int(ir.n_ints)) + ["f64"] * int(ir.n_floats)
    if kinds != want:
        return (f"{KERNEL_NAME}'s parameters are {kinds} (PTX types); the IR wants {nb} "
                f"pointers and {ir.n_ints} long longs (u64), then {ir.n_floats} doubles (f64)")
    return ""


def compile_check_many(sources: Sequence[str], irs: Sequence[Any] | None = None,
                       jobs: int | None = None) -> list[tuple[bool, str]]:
    """``compile_check`` of many sources, ``jobs`` nvcc processes at a time (default: the
    number of CPUs); results in the order of ``sources``."""
    irs = list(irs) if irs is not None else [None] * len(sources)
    workers = max(1, jobs or os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=workers) as ex:
        return list(ex.map(compile_check, sources, irs))

