"""The ``opencl:N`` devices: OpenCL C kernels built by the OpenCL driver, run through pyopencl.

Layer: ``_devices``. Imports nothing above it; receives source text from the caller and reads
only the argument description of the kernel IR (``name``, ``buffers``, ``n_ints``,
``n_floats``, ``meta``). pyopencl is imported inside ``discover``: a machine without it, without
an ICD or without platforms gets no devices and a reason, never an import error.

Every platform's devices are numbered ``opencl:0``, ``opencl:1``, ... in the order the ICD
loader returns platforms, then devices. Each device has its own context and two in-order
queues: ``queue`` runs copies in and kernels (so launches on one device are ordered), and
a second queue serves blocking reads, so ``copy_out`` waits for the buffer's writer only,
not for everything queued before it. Programs are cached on disk as driver binaries
(checksummed: some drivers crash on a damaged binary) keyed by the source and the device.

Launch convention (the renderer guarantees it)::

    __kernel void zx_kernel(__global T0* b0, ..., long i0, ..., double f0, ...)

buffers first, then ``n_ints`` longs, then ``n_floats`` doubles (floats when
``meta["fp64"]`` is false); the global size is ``ints[meta["groups_arg"]] *
meta["local_size"]`` and the local size ``meta["local_size"]``.
"""

from __future__ import annotations

import hashlib
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _debug, _env
from .._errors import CompileError, DeviceError
from . import cache
from .base import COMPLETED, Buffer, Device, DeviceInfo, Event, MemoryPool, Program, byte_range

KERNEL_NAME = "zx_kernel"
#: build options of every program (a device's ``build_options`` attribute overrides them)
BUILD_OPTIONS = ("-cl-std=CL1.2", "-w")   # (-w: a warning is not ours to print)
#: cache entries: magic, the binary's SHA-256 (hex), newline, the binary
_MAGIC = b"zyxarray-opencl-binary-1\n"

_cl: Any = None   # the pyopencl module, set by discover()


def _rounding(cl_device: Any) -> tuple[str, ...]:
    """Correctly rounded float32 division and sqrt where the device offers them (OpenCL
    otherwise allows 2.5 ulp: NVIDIA's 109 / 3 was 1 ulp off)."""
    try:
        if cl_device.single_fp_config & _cl.device_fp_config.CORRECTLY_ROUNDED_DIVIDE_SQRT:
            return ("-cl-fp32-correctly-rounded-divide-sqrt",)
    except Exception:      # (a device that cannot say)
        pass
    return ()


def _import_pyopencl() -> Any:
    global _cl
    if _cl is None:
        import pyopencl

        _cl = pyopencl
    return _cl


def _out_of_memory_codes() -> frozenset[int]:
    s = _cl.status_code
    return frozenset((s.MEM_OBJECT_ALLOCATION_FAILURE, s.OUT_OF_RESOURCES,
                      s.OUT_OF_HOST_MEMORY))


def _error_code(e: BaseException) -> int | None:
    code = getattr(e, "code", None)
    return code if isinstance(code, int) else None


def _wrap_binary(binary: bytes) -> bytes:
    return _MAGIC + hashlib.sha256(binary).hexdigest().encode() + b"\n" + binary


def _unwrap_binary(data: bytes) -> bytes | None:
    """The binary of a cache entry, or None when the entry is damaged."""
    head = len(_MAGIC) + 65
    if len(data) <= head or not data.startswith(_MAGIC) or data[head - 1:head] != b"\n":
        return None
    binary = data[head:]
    if hashlib.sha256(binary).hexdigest().encode() != data[len(_MAGIC):head - 1]:
        return None
    return binary


class OpenCLEvent(Event):
    """A command of an OpenCL queue. Keeps ``keep`` (e.g. the host array of a copy) alive
    until the command is known to be complete."""

    __slots__ = ("_event", "_keep", "_queue")

    def __init__(self, event: Any, queue: Any, keep: Any = None) -> None:
        self._event = event
        self._queue = queue    # flushed once by done(), so a polled event makes progress
        self._keep = keep

    def wait(self) -> None:
        ev = self._event
        if ev is None:
            return
        try:
            ev.wait()
            status = ev.command_execution_status
        except _cl.Error as e:
            raise DeviceError(f"an OpenCL command failed: {e}") from e
        if status < 0:
            raise DeviceError(f"an OpenCL command failed with status {status}")
        self._event = self._keep = self._queue = None

    def done(self) -> bool:
        ev = self._event
        if ev is None:
            return True
        status = ev.command_execution_status
        if status == 0:           # CL_COMPLETE
            self._event = self._keep = self._queue = None
            return True
        if status < 0:            # failed: wait() raises the error
            return True
        if self._queue is not None:
            self._queue.flush()
            self._queue = None
        return False

    @property
    def cl_event(self) -> Any:
        """The pyopencl event (None once the command is known to be complete)."""
        return self._event


_LAUNCHER = """
def launch(buffers, ints, floats):
    [{bufs}] = buffers
    [{ints}] = ints
    [{floats}] = floats
    groups = i{groups_arg}
    if groups <= 0:
        return COMPLETED
    with lock:
        set_args({args})
        ev = enqueue(queue, kernel, (groups * {local},), ({local},))
    return OpenCLEvent(ev, queue)
"""


def _make_launcher(n_buffers: int, n_ints: int, n_floats: int, groups_arg: int, local: int,
                   kernel: Any, queue: Any, lock: threading.Lock) -> Any:
    """A launch function specialised to one kernel's argument counts: it unpacks the
    arguments (a wrong count raises ValueError), sets them and enqueues, with no loops or
    star-calls on the way (a launch costs a few microseconds of Python)."""
    names_b = [f"b{i}" for i in range(n_buffers)]
    names_i = [f"i{i}" for i in range(n_ints)]
    names_f = [f"f{i}" for i in range(n_floats)]
    code = _LAUNCHER.format(bufs=", ".join(names_b), ints=", ".join(names_i),
                            floats=", ".join(names_f), groups_arg=groups_arg, local=local,
                            args=", ".join([f"{b}.handle" for b in names_b]
                                           + names_i + names_f))
    scope: dict[str, Any] = {"COMPLETED": COMPLETED, "OpenCLEvent": OpenCLEvent,
                             "set_args": kernel.set_args, "kernel": kernel, "queue": queue,
                             "enqueue": _cl.enqueue_nd_range_kernel, "lock": lock}
    exec(compile(code, f"<zyxarray opencl launcher {n_buffers}b {n_ints}i {n_floats}f>",
                 "exec"), scope)
    return scope["launch"]


class OpenCLProgram(Program):
    """``zx_kernel`` of a built program, with its launch configuration from the IR's meta."""

    def __init__(self, name: str, source: str, device: OpenCLDevice, program: Any,
                 ir: Any) -> None:
        super().__init__(name, source)
        self.device = device
        self.program = program            # the pyopencl Program (keeps the kernel's code alive)
        self.kernel = program.zx_kernel   # created once; set_args + enqueue per launch
        self._queue = device.queue
        self._lock = threading.Lock()     # set_args and enqueue are two steps
        self.max_local_size = int(self.kernel.get_work_group_info(
            _cl.kernel_work_group_info.WORK_GROUP_SIZE, device.cl_device))
        self.preferred_multiple = int(self.kernel.get_work_group_info(
            _cl.kernel_work_group_info.PREFERRED_WORK_GROUP_SIZE_MULTIPLE, device.cl_device))
        self.launchable = ir is not None
        if ir is None:   # a compile check only: nothing says how to launch it
            return
        meta = ir.meta
        try:
            self.local_size = int(meta["local_size"])
            self.groups_arg = int(meta["groups_arg"])
        except KeyError as e:
            raise CompileError(f"kernel {name}: the IR's meta has no {e} (needed to launch "
                               f"on {device.name})", source, "", "", device.name) from None
        fp64 = bool(meta.get("fp64", True))
        self.n_buffers = len(ir.buffers)
        self.n_ints = int(ir.n_ints)
        self.n_floats = int(ir.n_floats)
        n_args = self.n_buffers + self.n_ints + self.n_floats
        declared = int(self.kernel.get_info(_cl.kernel_info.NUM_ARGS))
        if declared != n_args:
            raise CompileError(
                f"kernel {name}: {KERNEL_NAME} declares {declared} arguments, the IR "
                f"describes {n_args} ({self.n_buffers} buffers, {self.n_ints} ints, "
                f"{self.n_floats} floats)", source, "", "", device.name)
        if not 0 <= self.groups_arg < self.n_ints:
            raise CompileError(f"kernel {name}: groups_arg {self.groups_arg} is not one of its "
                               f"{self.n_ints} int arguments", source, "", "", device.name)
        if not 0 < self.local_size <= self.max_local_size:
            raise DeviceError(f"kernel {name}: local size {self.local_size} is not in 1.."
                              f"{self.max_local_size}, the work-group limit of this kernel "
                              f"on {device.name}")
        self.float_dtype = np.dtype(np.float64 if fp64 else np.float32)
        self.kernel.set_scalar_arg_dtypes([None] * self.n_buffers + [np.int64] * self.n_ints
                                          + [self.float_dtype.type] * self.n_floats)
        self._launch = _make_launcher(self.n_buffers, self.n_ints, self.n_floats,
                                      self.groups_arg, self.local_size, self.kernel,
                                      self._queue, self._lock)

    def __call__(self, buffers: list[Buffer], ints: list[int], floats: list[float]) -> Event:
        if not self.launchable:
            raise DeviceError(f"kernel {self.name} was compiled without its IR; it cannot "
                              f"be launched")
        try:
            ev = self._launch(buffers, ints, floats)
        except (_cl.Error, TypeError, ValueError, OverflowError) as e:
            raise self._launch_error(e, buffers, ints, floats) from e
        if _debug.enabled("launch"):
            _debug.log("launch", f"{self.device.name}: {self.name} "
                                 f"{ints[self.groups_arg]} groups of {self.local_size}")
        return ev

    def _launch_error(self, e: BaseException, buffers: list[Buffer], ints: list[int],
                      floats: list[float]) -> BaseException:
        got = (len(buffers), len(ints), len(floats))
        want = (self.n_buffers, self.n_ints, self.n_floats)
        if got != want:
            return DeviceError(f"kernel {self.name} takes {want[0]} buffers, {want[1]} ints and "
                               f"{want[2]} floats; it was called with {got[0]}, {got[1]} and "
                               f"{got[2]} ({e})")
        if _error_code(e) in _out_of_memory_codes():
            return MemoryError(f"launching {self.name} on device {self.device.name}: the device "
                               f"is out of memory or resources ({e})")
        return DeviceError(f"launching {self.name} on device {self.device.name} failed: {e}")


class OpenCLDevice(Device):
    """One OpenCL device. Its context and queues are created on first use."""

    def __init__(self, index: int, platform: Any, cl_device: Any,
                 build_options: tuple[str, ...] = BUILD_OPTIONS) -> None:
        cl = _import_pyopencl()
        self.platform = platform
        self.cl_device = cl_device
        self.build_options = tuple(build_options)
        self.index = index
        name = f"opencl:{index}"
        d = cl_device
        extensions = set(d.extensions.split())
        try:
            double_config = int(d.double_fp_config)
        except cl.Error:
            double_config = 0
        extra: dict[str, Any] = {
            "platform": platform.name.strip(), "platform_version": platform.version.strip(),
            "vendor": d.vendor.strip(), "device_name": d.name.strip(),
            "device_version": d.version.strip(), "driver_version": d.driver_version.strip(),
            "max_mem_alloc_size": int(d.max_mem_alloc_size),
            "device_type": " | ".join(t for t in ("CPU", "GPU", "ACCELERATOR", "CUSTOM")
                                      if int(d.type) & int(getattr(cl.device_type, t, 0))),
        }
        for key, attr in (("opencl_c_version", "opencl_c_version"),
                          ("address_bits", "address_bits"),
                          ("mem_base_addr_align", "mem_base_addr_align"),
                          ("warp_size", "warp_size_nv"),
                          ("wavefront_width", "wavefront_width_amd")):
            try:
                value = getattr(d, attr)
            except (cl.Error, AttributeError):
                continue
            extra[key] = value.strip() if isinstance(value, str) else int(value)
        # the work-group size a kernel should be a multiple of (NVIDIA warps, AMD wavefronts);
        # each program reports its own exact value as ``preferred_multiple``
        extra["preferred_work_group_multiple"] = int(extra.get(
            "warp_size", extra.get("wavefront_width", 1)))
        self.info = DeviceInfo(
            name=name, kind="opencl", language="opencl",
            description=(f"{extra['platform']} ({extra['platform_version']}): "
                         f"{extra['device_name']} ({extra['device_version']}, driver "
                         f"{extra['driver_version']})"),
            float64="cl_khr_fp64" in extensions or double_config != 0,
            float16="cl_khr_fp16" in extensions,
            complex=True,
            compute_units=int(d.max_compute_units),
            max_work_group=int(d.max_work_group_size),
            local_memory=int(d.local_mem_size),
            simd_lanes=1, style="threads",
            total_memory=int(d.global_mem_size),
            extra=extra)
        self.max_alloc = int(d.max_mem_alloc_size)
        self.pool = MemoryPool(name, self._raw_alloc, self._raw_free, int(d.global_mem_size))
        self._identity = "\n".join((
            extra["platform"], extra["platform_version"], extra["vendor"],
            extra["device_name"], extra["device_version"], extra["driver_version"]))
        self._lock = threading.Lock()
        self._context: Any = None
        self._queue: Any = None
        self._read_queue: Any = None
        self._pending: list[OpenCLEvent] = []   # copies in that hold host memory
        self.compiles = 0     # real driver builds from source in this process (tests read it)

    @property
    def _signature(self) -> str:
        """What a cached binary depends on besides the source: the platform, the device, its
        driver and the build options."""
        return self._identity + "\n" + " ".join(self.build_options)

    # -- context and queues (created on first use) -------------------------------------------
    def _start(self) -> None:
        with self._lock:
            if self._queue is not None:
                return
            cl = _cl
            try:
                ctx = cl.Context([self.cl_device])
                self._read_queue = cl.CommandQueue(ctx, self.cl_device)
                self._context = ctx
                self._queue = cl.CommandQueue(ctx, self.cl_device)
            except cl.Error as e:
                raise DeviceError(f"cannot open OpenCL device {self.name} "
                                  f"({self.info.description}): {e}") from e
            _debug.log("devices", f"{self.name}: context and queues created")

    @property
    def context(self) -> Any:
        """The device's pyopencl Context."""
        if self._queue is None:
            self._start()
        return self._context

    @property
    def queue(self) -> Any:
        """The in-order queue of copies in and kernel launches."""
        if self._queue is None:
            self._start()
        return self._queue

    @property
    def read_queue(self) -> Any:
        """The queue of blocking reads (``copy_out``)."""
        if self._queue is None:
            self._start()
        return self._read_queue

    # -- memory ---------------------------------------------------------------------------
    def alloc(self, nbytes: int) -> Buffer:
        if nbytes > self.max_alloc:
            raise MemoryError(f"cannot allocate {nbytes} bytes on device {self.name}: larger "
                              f"than its largest single allocation ({self.max_alloc} bytes)")
        return Buffer(self, nbytes, self.pool.allocate(nbytes))

    def _raw_alloc(self, nbytes: int) -> Any:
        cl = _cl
        try:
            return cl.Buffer(self.context, cl.mem_flags.READ_WRITE, max(int(nbytes), 1))
        except cl.Error as e:
            if (_error_code(e) in _out_of_memory_codes()
                    or _error_code(e) == cl.status_code.INVALID_BUFFER_SIZE):
                raise MemoryError(f"cannot allocate {nbytes} bytes on device {self.name}: "
                                  f"{e}") from None
            raise DeviceError(f"allocating {nbytes} bytes on device {self.name} failed: "
                              f"{e}") from e

    def _raw_free(self, handle: Any) -> None:
        handle.release()

    def copy_in(self, buffer: Buffer, data: np.ndarray, *, donate: bool = False) -> None:
        """Copy a host array into ``buffer``, asynchronously; ``buffer.ready`` marks the end.

        The bytes are snapshotted first, so the caller may change ``data`` at once; with
        ``donate=True`` the caller promises not to touch ``data`` again and the snapshot is
        skipped (the array is kept alive until the copy completes).
        """
        src = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        if src.nbytes > buffer.nbytes:
            raise ValueError(f"copy_in: {src.nbytes} bytes do not fit a buffer of "
                             f"{buffer.nbytes} bytes on {self.name}")
        if src.nbytes == 0:
            return
        if not donate:
            src = src.copy()
        queue = self.queue
        try:
            ev = _cl.enqueue_copy(queue, buffer.handle, src, is_blocking=False)
        except _cl.Error as e:
            raise self._transfer_error(e, "copy in", src.nbytes) from e
        event = OpenCLEvent(ev, queue, keep=src)
        buffer.ready = event
        # the host bytes are let go when the copy is seen complete, not when someone waits
        self._pending = [e for e in self._pending if not e.done()]
        self._pending.append(event)
        if _debug.enabled("memory"):
            _debug.log("memory", f"{self.name}: copy in {src.nbytes} bytes (queued)")

    def copy_out(self, buffer: Buffer, start: int = 0, stop: int | None = None,
                 while_waiting: Callable[[], object] | None = None,
                 into: np.ndarray | None = None) -> np.ndarray:
        """Bytes ``start:stop`` of the buffer as a read-only host uint8 array. Waits for
        ``buffer.ready`` only (reads go through their own queue), then reads."""
        start, stop = byte_range(buffer, start, stop)
        buffer.ready.wait()
        n = stop - start
        out = np.empty(n, dtype=np.uint8) if into is None else into
        if n:
            try:
                # (a blocking copy returns sooner than waiting on the copy's event: 9 against
                # 12 us for 4 bytes, NVIDIA's OpenCL on an H200)
                ev = _cl.enqueue_copy(self.read_queue, out, buffer.handle, src_offset=start,
                                      is_blocking=while_waiting is None)
                if while_waiting is not None:
                    while_waiting()
                    while_waiting = None
                    ev.wait()
            except _cl.Error as e:
                raise self._transfer_error(e, "copy out", n) from e
            if _debug.enabled("memory"):
                _debug.log("memory", f"{self.name}: copy out {n} bytes")
        if while_waiting is not None:
            while_waiting()
        if into is None:
            out.flags.writeable = False
        return out

    def copy(self, dst: Buffer, src: Buffer, nbytes: int | None = None) -> None:
        """Copy ``src`` into ``dst`` (a buffer of this device), asynchronously. A source on
        this device is copied by the device; any other goes through the host."""
        n = min(src.nbytes, dst.nbytes) if nbytes is None else int(nbytes)
        if n == 0:
            return
        if src.device is not self:
            self.copy_in(dst, src.device.copy_out(src)[:n], donate=True)
            return
        queue = self.queue
        self.wait_for(src.ready)
        try:
            ev = _cl.enqueue_copy(queue, dst.handle, src.handle, byte_count=n)
        except _cl.Error as e:
            raise self._transfer_error(e, "device copy", n) from e
        dst.ready = OpenCLEvent(ev, queue, keep=src)

    def fill_zero(self, buffer: Buffer) -> None:
        """Set every byte of ``buffer`` to 0, asynchronously."""
        if buffer.nbytes == 0:
            return
        queue = self.queue
        try:
            ev = _cl.enqueue_fill_buffer(queue, buffer.handle, np.zeros(1, np.uint8), 0,
                                         buffer.nbytes)
        except _cl.Error as e:
            raise self._transfer_error(e, "fill", buffer.nbytes) from e
        buffer.ready = OpenCLEvent(ev, queue)

    def wait_for(self, event: Event) -> None:
        """Make this device's queue wait for ``event`` without blocking the host when the
        event is of this device's context; any other event is waited for on the host."""
        ev = event.cl_event if isinstance(event, OpenCLEvent) else None
        if ev is None:
            event.wait()
            return
        try:
            same = ev.context == self.context
        except _cl.Error:
            same = False
        if same:
            _cl.enqueue_marker(self.queue, wait_for=[ev])
        else:
            event.wait()

    def _transfer_error(self, e: BaseException, what: str, nbytes: int) -> BaseException:
        if _error_code(e) in _out_of_memory_codes():
            return MemoryError(f"{what} of {nbytes} bytes on device {self.name}: the device is "
                               f"out of memory ({e})")
        return DeviceError(f"{what} of {nbytes} bytes on device {self.name} failed: {e}")

    def synchronize(self) -> None:
        if self._queue is not None:
            self._queue.finish()
            self._read_queue.finish()
            pending, self._pending = self._pending, []
            for event in pending:
                event.wait()

    # -- compile --------------------------------------------------------------------------
    def compile(self, source: str, ir: Any) -> Program:
        """Build ``source`` (or load its cached binary) and return its ``zx_kernel``."""
        cl = _cl
        digest = cache.key(source, self._signature)
        name = str(getattr(ir, "name", None) or digest)
        program = None
        path = cache.lookup("opencl", digest, ".bin")
        if path is not None:
            program = self._load_binary(path)
        if program is None:
            program = self._build(source)
            if cache.enabled():
                try:
                    binary = program.get_info(cl.program_info.BINARIES)[0]
                except cl.Error as e:
                    binary = b""
                    _debug.log("compile", f"{self.name}: no program binary to cache ({e})")
                if binary:
                    cache.store_bytes("opencl", digest, ".bin", _wrap_binary(bytes(binary)))
        try:
            return OpenCLProgram(name, source, self, program, ir)
        except cl.Error as e:
            raise CompileError(f"the OpenCL program of kernel {name} has no usable "
                               f"{KERNEL_NAME}", source, str(e), self._command(),
                               self.name) from None

    def _load_binary(self, path: Any) -> Any:
        """The program of a cache entry, or None (the entry is removed) when it is damaged
        or the driver rejects it."""
        cl = _cl
        try:
            binary = _unwrap_binary(path.read_bytes())
        except OSError as e:
            _debug.log("compile", f"{self.name}: unreadable cache entry {path} ({e})")
            return None
        if binary is None:
            _debug.log("compile", f"{self.name}: corrupt cache entry {path}; rebuilding")
            cache.remove(path)
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", cl.CompilerWarning)
                program = cl.Program(self.context, [self.cl_device], [binary])
                program.build(options=list(self.build_options))
        except cl.Error as e:
            _debug.log("compile", f"{self.name}: the driver rejected cache entry {path} "
                                  f"({e}); rebuilding")
            cache.remove(path)
            return None
        _debug.log("compile", f"{self.name}: disk cache hit {path.name}")
        return program

    def _command(self) -> str:
        return (f"clBuildProgram {' '.join(self.build_options)} "
                f"[{self.info.description}]")

    def _build(self, source: str) -> Any:
        cl = _cl
        t0 = time.perf_counter()
        self.compiles += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", cl.CompilerWarning)
                program = cl.Program(self.context, source)
                program.build(options=list(self.build_options), devices=[self.cl_device])
        except cl.Error as e:
            raise CompileError(f"the OpenCL driver of {self.name} rejected a generated kernel",
                               source, str(e), self._command(), self.name) from None
        if _debug.enabled("compile"):
            try:
                log = program.get_build_info(self.cl_device, cl.program_build_info.LOG)
            except cl.Error:
                log = ""
            _debug.log("compile", f"{self.name}: built in "
                                  f"{1e3 * (time.perf_counter() - t0):.1f} ms: "
                                  f"{self._command()}" + (f"\n{log.strip()}" if log.strip()
                                                          else ""))
        return program


def discover() -> tuple[list[Device], list[str]]:
    """Every device of every OpenCL platform, numbered in platform then device order; a
    reason for each runtime, platform or device that is unusable."""
    try:
        cl = _import_pyopencl()
    except ImportError as e:
        return [], [f"opencl: pyopencl not installed ({e})"]
    except Exception as e:
        return [], [f"opencl: pyopencl failed to import ({type(e).__name__}: {e})"]
    try:
        platforms = cl.get_platforms()
    except Exception as e:
        return [], [f"opencl: no OpenCL platform (no ICD installed?): {e}"]
    if not platforms:
        return [], ["opencl: no OpenCL platform"]
    found: list[Device] = []
    reasons: list[str] = []
    index = 0
    for platform in platforms:
        try:
            pname = platform.name.strip()
            cl_devices = platform.get_devices()
        except Exception as e:
            reasons.append(f"opencl: platform {platform!r} has no usable devices ({e})")
            continue
        _debug.log("devices", f"opencl: platform {pname}: {len(cl_devices)} device(s)")
        for cl_device in cl_devices:
            name = f"opencl:{index}"
            index += 1      # an unusable device keeps its number, so the others keep theirs
            try:
                if not cl_device.available:
                    reasons.append(f"{name}: {cl_device.name.strip()} on {pname} is not "
                                   f"available")
                    continue
                extra = tuple((_env.get(_env.OPENCL_OPTIONS) or "").split())
                found.append(OpenCLDevice(index - 1, platform, cl_device,
                                          build_options=BUILD_OPTIONS + _rounding(cl_device)
                                          + extra))
            except Exception as e:
                reasons.append(f"{name}: {type(e).__name__}: {e}")
    if not found and not reasons:
        reasons.append("opencl: the OpenCL platforms have no devices")
    return found, reasons
