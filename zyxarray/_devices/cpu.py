"""The ``cpu`` device: C kernels compiled by the system C compiler, loaded with cffi.

Layer: ``_devices``. Imports nothing above it; receives source text from the caller.

Buffers are 64-byte aligned NumPy byte arrays from a caching pool; a buffer's handle is (the
writable bytes, their address as a cffi pointer, a read-only view of them, the address as an
int). Kernels run on the calling thread (OpenMP inside), so every launch is complete when it
returns.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .. import _debug, _env
from .._errors import CompileError
from . import cache
from .base import (
    COMPLETED,
    PARALLEL_DEFAULT,
    PARALLEL_FLOOR,
    Buffer,
    Device,
    DeviceInfo,
    Event,
    MemoryPool,
    Program,
    byte_range,
)

#: ``-fno-trapping-math``: kernels never read the floating-point exception flags, and with
#: the default gcc will neither vectorize floor, trunc or ceil (whose instruction may raise
#: "inexact", which C's functions must not) nor compute both sides of a conditional
#: floating-point expression, so a loop with either stays scalar (a rejection sampler's
#: ``floor`` kept its 16 points, searching together, at one at a time). Values do not
#: change: it allows no reassociation, contraction or assumption about NaN, inf or signed
#: zeros.
CFLAGS = ("-std=gnu11", "-O3", "-march=native", "-fPIC", "-shared", "-fopenmp", "-fwrapv",
          "-fno-math-errno", "-fno-trapping-math", "-ffp-contract=off", "-fno-strict-aliasing")
#: seconds a kernel may take to compile with ``CFLAGS``: past that the compiler is stopped
#: and the kernel compiled with ``FALLBACK_CFLAGS`` (no loop vectorization), which every
#: generated kernel compiles with in well under a second. gcc 12's combiner is quadratic on
#: some vectorized code: a binomial sampler's unrolled inversion (86 steps) took 170 s, a
#: multinomial's search 2.8 s (0.2 s each without loop vectorization). The budget is spent
#: once per kernel and machine: the disk cache keeps what either compile made.
COMPILE_BUDGET = 2.0
FALLBACK_CFLAGS = (*CFLAGS, "-fno-tree-loop-vectorize")
#: kernels of more instructions than this that read a bool buffer compile with
#: ``FALLBACK_CFLAGS`` straight away: a loop that loads bytes next to float64 arithmetic
#: vectorizes at the bytes' width (16 or 64 lanes: 2 to 8 vectors for each float64 value),
#: and gcc then took 2-9 s on a multinomial's samplers (0.2 s without loop vectorization)
BYTES_AND_MANY_INSTRUCTIONS = 300
KERNEL_NAME = "zx_kernel"
#: the thread team's calibration (``CPUDevice._parallel_work``): out = in + 1 over ip[0]
#: float64 elements, on the team when ip[1] is not 0, as the generated kernels' loops
CALIBRATION = """#include <stdint.h>
void zx_kernel(void** restrict bufs, const int64_t* restrict ip, const double* restrict fp) {
  const double* restrict a = (const double*)bufs[0];
  double* restrict b = (double*)bufs[1];
  (void)fp;
  #pragma omp parallel for schedule(static) if (ip[1] != 0)
  for (int64_t i = 0; i < ip[0]; i++) b[i] = a[i] + 1.0;
}
"""
CDEF = f"void {KERNEL_NAME}(void** bufs, const int64_t* ip, const double* fp);"
ABORT_CDEF = "extern int zx_abort;"     # (the C dialect's stop flag: _Interrupts sets it)


def find_compiler() -> tuple[str | None, str]:
    """(path of a working C compiler, reason when there is none)."""
    explicit = _env.get(_env.CC)
    candidates = [explicit] if explicit else ["cc", "gcc", "clang"]
    for name in candidates:
        path = shutil.which(name) if name else None
        if path:
            return path, ""
    return None, (f"no C compiler found (tried {', '.join(c for c in candidates if c)}; "
                  f"set {_env.CC})")


def _compiler_identity(cc: str) -> str:
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30)
        return out.stdout.splitlines()[0] if out.stdout else cc
    except (OSError, subprocess.SubprocessError):
        return cc


def _cpu_signature() -> str:
    """What -march=native depends on: the CPU model and its feature flags."""
    try:
        text = Path("/proc/cpuinfo").read_text()
        lines = [ln for ln in text.splitlines() if ln.startswith(("model name", "flags"))]
        return "\n".join(sorted(set(lines)))
    except OSError:
        import platform
        return platform.processor() or platform.machine()


class _Interrupts:
    """Ctrl-C during a kernel: Python's own SIGINT handler only sets a flag, which is seen
    when the kernel returns (after 43 s for a sum of 10^12 elements). Python also writes
    the signal's number to a wakeup fd at once (``signal.set_wakeup_fd``): a daemon thread
    reads it and sets the running kernel's ``zx_abort`` flag, whose outer loop then skips
    its remaining passes; the launch raises KeyboardInterrupt and the output is discarded
    (its node stays unrealized, every array stays usable).

    Installed once, from the main thread, where no wakeup fd is in use (asyncio's event loop
    sets one: there the kernel runs to its end, as before) and SIGINT has Python's default
    handler."""

    running: Any = None      # the library of the kernel being run, if any
    installed = False

    @classmethod
    def install(cls) -> None:
        if cls.installed or threading.current_thread() is not threading.main_thread():
            return
        try:
            r, w = os.pipe()
            os.set_blocking(w, False)
            old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        except (ValueError, OSError):
            return
        if old != -1:               # someone else's (asyncio): theirs stays
            signal.set_wakeup_fd(old)
            os.close(r)
            os.close(w)
            return
        cls.installed = True
        threading.Thread(target=cls._watch, args=(r,), name="zyxarray-interrupts",
                         daemon=True).start()

    @classmethod
    def _watch(cls, fd: int) -> None:
        while True:
            try:
                data = os.read(fd, 64)
            except OSError:
                return
            if not data:
                return
            lib = cls.running
            if lib is not None and signal.SIGINT in data and \
                    signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                with contextlib.suppress(Exception):
                    lib.zx_abort = 1


#: ``launch(kernel address, stop flag address, buffer addresses, ints, floats)``: calls a
#: kernel by address with the lists converted in C, returning the stop flag's value after
#: the call (``_api/_hot.c``'s ``launch``; ``_api/_hot.py`` sets it where that module is
#: built). None: kernels are called through cffi, which costs about 2 us more per launch.
launcher: Callable[[int, int, list[int], list[int], list[float]], int] | None = None


class CPUProgram(Program):
    def __init__(self, name: str, source: str, lib: Any, ffi: Any) -> None:
        super().__init__(name, source)
        self._fn = getattr(lib, KERNEL_NAME)
        self._lib = lib   # keep the shared object loaded while the program lives
        self._ffi = ffi
        self._address = int(ffi.cast("uintptr_t", self._fn))
        try:
            lib.zx_abort = 0
            self._abortable = True
            self._flag = int(ffi.cast("uintptr_t", ffi.addressof(lib, "zx_abort")))
        except (AttributeError, KeyError):
            self._abortable = False       # (a kernel built without the flag)
            self._flag = 0

    def __call__(self, buffers: list[Buffer], ints: list[int], floats: list[float]) -> Event:
        launch = launcher
        if launch is not None:
            if self._abortable:
                _Interrupts.running = self._lib
            try:
                stopped = launch(self._address, self._flag, [b.handle[3] for b in buffers],
                                 ints, floats)
            finally:
                _Interrupts.running = None
            if stopped:
                raise KeyboardInterrupt(f"{self.name}: interrupted; the kernel stopped early "
                                        "and its output was discarded")
            return COMPLETED
        # cffi turns each list into a temporary C array for the call (no ffi.new: a launch
        # of a small kernel is mostly this overhead)
        if not self._abortable:
            self._fn([b.handle[1] for b in buffers] or [self._ffi.NULL], ints or [0],
                     floats or [0.0])
            return COMPLETED
        lib = self._lib
        lib.zx_abort = 0
        _Interrupts.running = lib
        try:
            self._fn([b.handle[1] for b in buffers] or [self._ffi.NULL], ints or [0],
                     floats or [0.0])
        finally:
            _Interrupts.running = None
        if lib.zx_abort:
            lib.zx_abort = 0
            raise KeyboardInterrupt(f"{self.name}: interrupted; the kernel stopped early and "
                                    "its output was discarded")
        return COMPLETED


def _read_only(arr: np.ndarray) -> np.ndarray:
    view = arr.view()
    view.flags.writeable = False
    return view


class CPUDevice(Device):
    """The host CPU through generated C. ``cc`` is the compiler found at discovery."""

    def __init__(self, cc: str) -> None:
        import cffi

        self.cc = cc
        self.ffi = cffi.FFI()
        self.ffi.cdef(CDEF + "\n" + ABORT_CDEF)
        _Interrupts.install()
        self.compiler_id = _compiler_identity(cc)
        self._signature = self.compiler_id + "\n" + " ".join(CFLAGS) + "\n" + _cpu_signature()
        threads = int(_env.get(_env.NUM_THREADS) or os.cpu_count() or 1)
        if _env.get(_env.NUM_THREADS):
            # libgomp reads this when the first kernel loads it
            os.environ["OMP_NUM_THREADS"] = str(threads)
        # OpenMP's threads spin for a while after each parallel kernel (libgomp's default is
        # about 300,000 iterations); the BLAS behind library ops (matmul) then shares the
        # cores with spinning threads and runs at a fraction of its speed (a 64-128-1 MLP's
        # training step: 23 -> 8 ms on 2 cores with a spin of 10,000). On 16 cores even
        # that spin cost the MLP of bench/programs.py 3x (275 ms against 84 with none;
        # PCA 19 -> 15 ms), and no spin cost the kernel chains nothing measurable, so the
        # threads sleep at once. (The user's own setting wins.)
        os.environ.setdefault("GOMP_SPINCOUNT", "0")
        self.threads = threads
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        self.info = DeviceInfo(name="cpu", kind="cpu", language="c",
                               description=f"{threads} threads, {self.compiler_id}",
                               compute_units=threads, simd_lanes=16, style="loops",
                               total_memory=total)
        self.pool = MemoryPool("cpu", self._raw_alloc, lambda h: None, total)
        self._lock = threading.Lock()
        self.compiles = 0     # real compiler invocations in this process (tests read it)
        self.slow_compiles = 0    # of them, kernels past ``COMPILE_BUDGET`` (compiled again)
        if threads > 1:     # (measured when a kernel first asks: ``_parallel_work_once``)
            self.info.extra["parallel_work"] = self._parallel_work_once

    def _parallel_work_once(self) -> int:
        """``_parallel_work``, measured once, when the first kernel large enough to ask is
        lowered (a process that computes only small arrays measures nothing)."""
        work = self._parallel_work()
        self.info.extra["parallel_work"] = work = PARALLEL_DEFAULT if work is None else work
        return work

    def _parallel_work(self) -> int | None:
        """The fewest domain points worth a thread team, measured: what waking the team
        costs (a tiny kernel with and without it, medians) against what an element costs one
        thread. On the 2-core machine the team costs 40-60 us, and ``x + 1`` of 2**15
        float64 took 52 us on two threads, 12-14 on one; on more cores it splits more ways.
        None (``PARALLEL_DEFAULT``) when the calibration kernel cannot be built."""
        try:
            prog = self.compile(CALIBRATION, None)
        except Exception as e:     # (a compiler that fails here fails for kernels too)
            _debug.log("devices", f"cpu: no thread calibration ({type(e).__name__}: {e})")
            return None
        big = 1 << 18
        a, b = self.alloc(8 * big), self.alloc(8 * big)
        self.copy_in(a, np.zeros(big))

        def run(n: int, parallel: int) -> float:
            t0 = time.perf_counter()
            prog([a, b], [n, parallel], [])
            return time.perf_counter() - t0

        small, team = [], []
        for _ in range(3):
            run(2048, 1), run(big, 0)
        for _ in range(25):
            small.append(run(2048, 0))
            team.append(run(2048, 1))
        overhead = max(sorted(team)[12] - sorted(small)[12], 0.0)
        per_element = min(run(big, 0) for _ in range(5)) / big
        cores = self.threads
        work = overhead * cores / (cores - 1) / max(per_element, 1e-12)
        _debug.log("devices", f"cpu: a thread team costs {overhead * 1e6:.1f} us, an element "
                              f"{per_element * 1e9:.2f} ns: parallel from {work:.0f} loads")
        return int(min(max(work, PARALLEL_FLOOR), 1 << 24))

    # -- memory ---------------------------------------------------------------------------
    def alloc(self, nbytes: int) -> Buffer:
        return Buffer(self, nbytes, self.pool.allocate(nbytes))

    def _raw_alloc(self, nbytes: int) -> tuple[np.ndarray, Any, np.ndarray]:
        try:
            raw = np.empty(nbytes + 64, dtype=np.uint8)
        except MemoryError:
            raise MemoryError(f"cannot allocate {nbytes} bytes on device cpu") from None
        start = (-raw.ctypes.data) % 64
        arr = raw[start:start + nbytes]
        address = arr.ctypes.data
        return arr, self.ffi.cast("void*", address), _read_only(arr), address

    def copy_in(self, buffer: Buffer, data: np.ndarray) -> None:
        dst = buffer.handle[0]
        src = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        dst[:src.size] = src

    def copy_out(self, buffer: Buffer, start: int = 0, stop: int | None = None,
                 while_waiting: Callable[[], object] | None = None,
                 into: np.ndarray | None = None) -> np.ndarray:
        buffer.ready.wait()
        if while_waiting is not None:
            while_waiting()
        if into is not None:
            start, stop = byte_range(buffer, start, stop)
            into[:] = buffer.handle[2][start:stop]
            return into
        view = buffer.handle[2]     # made once per block: clearing a flag costs more than a read
        if start == 0 and stop is None:
            return view if view.size == buffer.nbytes else view[:buffer.nbytes]
        start, stop = byte_range(buffer, start, stop)
        return view[start:stop]

    def wrap_host(self, data: np.ndarray) -> Buffer:
        """A buffer over a contiguous host array's own memory (no copy; DLPack import)."""
        raw = data.reshape(-1).view(np.uint8)
        address = raw.ctypes.data
        return Buffer(self, raw.nbytes,
                      (raw, self.ffi.cast("void*", address), _read_only(raw), address),
                      pooled=False)

    def wrap_block(self, raw: np.ndarray, address: int) -> Buffer:
        """A buffer over ``raw``, the uint8 view of memory at ``address`` that the C hot path
        allocated for a result it computed (``_api/_hot.py``'s ``adopt``): ``wrap_host``
        without reading the address back through ctypes, a microsecond of its cost."""
        return Buffer(self, raw.nbytes,
                      (raw, self.ffi.cast("void*", address), _read_only(raw), address),
                      pooled=False)

    def host_array(self, buffer: Buffer) -> np.ndarray:
        """The buffer's memory as a writable host array (the cpu device's memory is the host's)."""
        return buffer.handle[0][:buffer.nbytes]

    # -- compile --------------------------------------------------------------------------
    def compile(self, source: str, ir: Any) -> Program:
        digest = cache.key(source, self._signature)
        path = cache.lookup("cpu", digest, ".so")
        if path is not None:
            try:
                lib = self.ffi.dlopen(str(path))
                _debug.log("compile", f"cpu: disk cache hit {path.name}")
                return CPUProgram(digest, source, lib, self.ffi)
            except OSError as e:
                _debug.log("compile", f"cpu: corrupt cache entry {path} ({e}); recompiling")
                cache.remove(path)
        out = self._run_compiler(source, _costly_to_vectorize(ir))
        if cache.enabled():
            out = cache.store_file("cpu", digest, ".so", out)
            return CPUProgram(digest, source, self.ffi.dlopen(str(out)), self.ffi)
        lib = self.ffi.dlopen(str(out))
        cache.remove(out)   # the loaded library stays mapped; nothing is left on disk
        return CPUProgram(digest, source, lib, self.ffi)

    def _run_compiler(self, source: str, costly: bool = False) -> Path:
        src = cache.temp_path("cpu", ".c")
        out = src.with_suffix(".so")
        cmd = [self.cc, *(FALLBACK_CFLAGS if costly else CFLAGS), "-o", str(out), str(src),
               "-lm"]
        t0 = time.perf_counter()
        try:
            src.write_text(source)
            returncode, log = _run_to_the_end(cmd, None if costly else COMPILE_BUDGET)
            if returncode is None:
                _debug.log("compile", f"cpu: a kernel took more than {COMPILE_BUDGET} s to "
                                      "compile; compiling it without loop vectorization")
                self.slow_compiles += 1
                cmd = [self.cc, *FALLBACK_CFLAGS, "-o", str(out), str(src), "-lm"]
                returncode, log = _run_to_the_end(cmd)
        except BaseException:
            cache.remove(out)       # interrupted (Ctrl-C): nothing is left in the cache
            raise
        finally:
            cache.remove(src)
        self.compiles += 1
        if returncode != 0:
            cache.remove(out)
            raise CompileError("the cpu device's C compiler rejected a generated kernel",
                               source, log, " ".join(cmd), "cpu")
        _debug.log("compile", f"cpu: compiled in {1e3 * (time.perf_counter() - t0):.1f} ms: "
                              f"{' '.join(cmd)}")
        return out


def _costly_to_vectorize(ir: Any) -> bool:
    """Whether ``ir`` (a Kernel, or None for a hand-written source) is a kernel that gcc
    vectorizes slowly and for little: see ``BYTES_AND_MANY_INSTRUCTIONS``."""
    if ir is None or len(ir.instrs) <= BYTES_AND_MANY_INSTRUCTIONS:
        return False
    return any(dtype == np.dtype(np.bool_) and not writable for dtype, writable in ir.buffers)


def _run_to_the_end(cmd: list[str], budget: float | None = None) -> tuple[int | None, str]:
    """Run a compiler: (exit status, its output); (None, "") when it ran past ``budget``
    seconds (then it was stopped). The compiler runs in a process group of its own, so an
    interruption (KeyboardInterrupt, any exception in the wait) or the budget kills it and
    every process it started (cc1, as, ld) instead of leaving them running."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        log, _ = proc.communicate(timeout=budget)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None, ""
    except BaseException:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    return proc.returncode, log


def discover() -> tuple[list[Device], list[str]]:
    """The cpu device if a C compiler works here, else a reason."""
    cc, why = find_compiler()
    if cc is None:
        return [], [f"cpu: {why}"]
    try:
        return [CPUDevice(cc)], []
    except Exception as e:
        return [], [f"cpu: {type(e).__name__}: {e}"]
