"""The cuda:N and hip:N devices (CuPy): discovery never fails and names both kinds, a ROCm
build of CuPy gives hip:N devices in the HIP dialect, nvcc compile checks work without a GPU,
and, on a machine with a GPU, the runtime contract: device info, memory and copies, launches,
compile errors, the disk cache, events and CuPy interop."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from zyxarray import _env
from zyxarray._devices import cache, cuda, registry
from zyxarray._devices.base import Buffer, Event
from zyxarray._errors import CompileError, ZyxarrayError

ROOT = Path(__file__).resolve().parents[2]


def _gpus() -> list[Any]:
    return [d for d in registry.devices().values() if d.info.kind == "cuda"]


needs_gpu = pytest.mark.skipif(not _gpus(), reason="no CUDA device here")
needs_nvcc = pytest.mark.skipif(cuda.find_nvcc() is None, reason="no nvcc here")

# the renderer's convention: buffers, then long long ints, then doubles
SCALE = """extern "C" __global__ void __launch_bounds__(256)
zx_kernel(const float* __restrict__ b0, float* __restrict__ b1, long long i0, long long i1,
          double f0) {
  const long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < i0) b1[gid] = b0[gid] * (float)f0;
}
"""

# one thread spins for i0 clock cycles, then writes f0 into b0[0]
SPIN = """extern "C" __global__ void zx_kernel(double* __restrict__ b0, long long i0,
                                           long long i1, double f0) {
  const long long start = clock64();
  while (clock64() - start < i0) { }
  b0[0] = f0;
}
"""

BROKEN = """extern "C" __global__ void zx_kernel(float* __restrict__ b0, long long i0) {
  b0[0] = undeclared_name + ;
}
"""


def _ir(buffers: list[tuple[Any, bool]], n_ints: int, n_floats: int, local_size: int = 256,
        groups_arg: int = 1, name: str = "test_kernel") -> Any:
    """The part of a kernel IR the runtime reads."""
    return SimpleNamespace(name=name, buffers=[(np.dtype(d), w) for d, w in buffers],
                           n_ints=n_ints, n_floats=n_floats,
                           meta={"local_size": local_size, "groups_arg": groups_arg,
                                 "fp64": True})


def _scale_ir(local_size: int = 256) -> Any:
    return _ir([(np.float32, False), (np.float32, True)], 2, 1, local_size, name="scale")


# -- anywhere ---------------------------------------------------------------------------------
def test_discovery_without_a_gpu_gives_a_reason() -> None:
    if _gpus():
        pytest.skip("this machine has a CUDA device")
    devices, reasons = cuda.discover()
    assert devices == []
    assert any(r.startswith("cuda") for r in reasons) and any(r.startswith("hip")
                                                              for r in reasons)
    assert any(r.startswith("cuda") for r in registry.skipped())
    assert any(r.startswith("hip") for r in registry.skipped())


def test_discovery_without_cupy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cuda, "_cupy", None)
    monkeypatch.setitem(sys.modules, "cupy", None)   # makes ``import cupy`` fail
    devices, reasons = cuda.discover()
    assert devices == [] and [r.split(":")[0] for r in reasons] == ["cuda", "hip"]
    assert all("CuPy is not available" in r for r in reasons)


@pytest.mark.parametrize("count", [0, RuntimeError("cudaErrorNoDevice: no CUDA-capable device")])
def test_discovery_with_no_devices_or_a_driver_error(monkeypatch: pytest.MonkeyPatch,
                                                     count: Any) -> None:
    def device_count() -> int:
        if isinstance(count, Exception):
            raise count
        return count

    monkeypatch.setattr(cuda, "_import_cupy", lambda: None)
    monkeypatch.setattr(cuda, "_hip", False)
    monkeypatch.setattr(cuda, "_runtime", SimpleNamespace(getDeviceCount=device_count))
    devices, reasons = cuda.discover()
    assert devices == [] and len(reasons) == 2
    assert reasons[0].startswith("hip: ") and "built for CUDA" in reasons[0]
    assert reasons[1].startswith("cuda: ")
    assert ("no devices" in reasons[1]) if count == 0 else ("cudaErrorNoDevice" in reasons[1])


class _FakeROCmCuPy:
    """What CuPy's ROCm build shows the runtime: HIP's device properties through
    ``cupy.cuda.runtime``, hiprtc behind ``cupy.cuda.nvrtc``."""

    def __init__(self) -> None:
        props = {"name": b"AMD Instinct MI300X", "gcnArchName": b"gfx942:sramecc+:xnack-",
                 "major": 9, "minor": 4, "totalGlobalMem": 192 << 30,
                 "multiProcessorCount": 304, "warpSize": 64, "maxThreadsPerBlock": 1024,
                 "sharedMemPerBlock": 64 << 10, "maxGridSize": (2**31 - 1, 65535, 65535)}
        class Ctx:
            def __init__(self, *a: Any, **k: Any) -> None:
                self.ptr = 0

            def __enter__(self) -> None:
                return None

            def __exit__(self, *a: Any) -> None:
                return None

        self.runtime = SimpleNamespace(is_hip=True, getDeviceCount=lambda: 1,
                                       getDeviceProperties=lambda i: props,
                                       driverGetVersion=lambda: 60342134,
                                       runtimeGetVersion=lambda: 60342134)
        self.module = SimpleNamespace(
            __version__="14.0.0",
            cuda=SimpleNamespace(Device=Ctx, Stream=Ctx,
                                 nvrtc=SimpleNamespace(getVersion=lambda: (6, 3))))


def test_a_rocm_build_of_cupy_gives_hip_devices(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeROCmCuPy()
    monkeypatch.setattr(cuda, "_cupy", fake.module)
    monkeypatch.setattr(cuda, "_runtime", fake.runtime)
    monkeypatch.setattr(cuda, "_hip", True)
    devices, reasons = cuda.discover()
    assert [d.name for d in devices] == ["hip:0"]
    assert reasons == ["cuda: the installed CuPy is built for ROCm (HIP); cupy-cuda13x drives "
                       "cuda devices"]
    info = devices[0].info
    assert info.kind == "hip" and info.language == "hip" and info.style == "threads"
    assert info.extra["subgroup"] == 64 and info.extra["gcn_arch"] == "gfx942:sramecc+:xnack-"
    assert "gfx942" in info.description and "wavefront 64" in info.description
    options, signature = devices[0]._compile_setup()
    assert "--gpu-architecture=gfx942:sramecc+:xnack-" in options
    assert "-ffp-contract=off" in options and "hiprtc" in signature
    assert devices[0]._suffix == ".hsaco"


def test_the_hip_dialect_on_an_nvidia_device(monkeypatch: pytest.MonkeyPatch) -> None:
    """ZYXARRAY_CUDA_DIALECT=hip: a cuda device renders HIP (how its numerics are checked on
    NVIDIA hardware); anything else than cuda or hip is refused with the variable's name."""
    fake = _FakeROCmCuPy()
    fake.runtime.is_hip = False
    monkeypatch.setattr(cuda, "_cupy", fake.module)
    monkeypatch.setattr(cuda, "_runtime", fake.runtime)
    monkeypatch.setattr(cuda, "_hip", False)
    monkeypatch.setenv(_env.CUDA_DIALECT, "hip")
    (dev,), _ = cuda.discover()
    assert dev.name == "cuda:0" and dev.info.language == "hip"
    assert dev.info.extra["subgroup"] == 64 and "HIP dialect" in dev.info.description
    monkeypatch.setenv(_env.CUDA_DIALECT, "opencl")
    devices, reasons = cuda.discover()
    assert devices == [] and any(_env.CUDA_DIALECT in r for r in reasons)


@needs_nvcc
def test_compile_check_accepts_the_kernel_convention() -> None:
    ok, log = cuda.compile_check(SCALE)
    assert ok, log
    ok, log = cuda.compile_check(SCALE, _scale_ir())
    assert ok, log


@needs_nvcc
def test_compile_check_rejects_broken_source_with_the_log() -> None:
    ok, log = cuda.compile_check(BROKEN)
    assert not ok
    assert "undeclared_name" in log and "error" in log.lower()
    assert "kernel.cu" in log, "the log names the source file, not a temporary path"


@needs_nvcc
def test_compile_check_checks_the_entry_and_its_parameters() -> None:
    ok, log = cuda.compile_check(SCALE.replace('extern "C" ', ""))
    assert not ok and "zx_kernel" in log and 'extern "C"' in log
    wrong = _ir([(np.float32, False), (np.float32, True)], 1, 2)   # 1 int, 2 floats
    ok, log = cuda.compile_check(SCALE, wrong)
    assert not ok and "parameters" in log


@needs_nvcc
def test_compile_check_many_keeps_the_order() -> None:
    results = cuda.compile_check_many([SCALE, BROKEN, SPIN], jobs=3)
    assert [ok for ok, _ in results] == [True, False, True]


# -- on a GPU ---------------------------------------------------------------------------------
@pytest.fixture
def gpu() -> Any:
    return _gpus()[0]


@needs_gpu
def test_device_info(gpu: Any) -> None:
    info = gpu.info
    assert info.name == gpu.name == "cuda:0" and info.kind == "cuda"
    assert info.language == (_env.get(_env.CUDA_DIALECT) or "cuda")
    assert info.style == "threads" and info.simd_lanes == 1
    assert info.float64 and info.float16 and info.complex
    assert info.compute_units >= 1 and info.max_work_group >= 256
    assert info.local_memory >= 16 * 1024
    assert info.total_memory > 2**30
    cc = info.extra["compute_capability"]
    assert cc.isdigit() and int(cc) >= 50 and info.extra["warp_size"] == 32
    assert "compute capability" in info.description and "GiB" in info.description
    assert registry.get("cuda") is gpu and registry.get("cuda:0") is gpu


@needs_gpu
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.int64,
                                   np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128])
def test_copy_round_trip(gpu: Any, dtype: Any) -> None:
    rng = np.random.default_rng(0)
    host = (rng.standard_normal(1001) * 100).astype(dtype)
    buf = gpu.alloc(host.nbytes)
    gpu.copy_in(buf, host)
    out = gpu.copy_out(buf)
    assert out.dtype == np.uint8 and out.shape == (host.nbytes,)
    assert not out.flags.writeable
    np.testing.assert_array_equal(out.view(dtype), host)


@needs_gpu
def test_matrix_products_go_straight_to_cublas(gpu: Any) -> None:
    """float32/float64 products of realized matrices, vectors and strided slices run by
    ``library_direct`` (cuBLAS's gemm on the buffers, no CuPy arrays), with NumPy's values;
    other dtypes, batches and empty results are left to the library table (None)."""
    import zyxarray as xp
    from zyxarray._lazy import realize
    rng = np.random.default_rng(0)
    calls = []
    direct = type(gpu).library_direct

    def counted(self: Any, *args: Any) -> Any:
        out = direct(self, *args)
        calls.append(out is not None)
        return out

    type(gpu).library_direct = counted
    try:
        for dt in (np.float32, np.float64):
            h = rng.standard_normal((40, 33)).astype(dt)
            v = rng.standard_normal(32).astype(dt)
            a = xp.asarray(h, device=gpu.name)
            w = xp.asarray(v, device=gpu.name)
            pairs = [(a[:, :-1], w), (w, a[:32, 1:]), (a[:, :-1].T, a[:, 1:]),
                     (a[::2, :32], a[1::2, :32].T)]
            hp = [(h[:, :-1], v), (v, h[:32, 1:]), (h[:, :-1].T, h[:, 1:]),
                  (h[::2, :32], h[1::2, :32].T)]
            for (x, y), (hx, hy) in zip(pairs, hp):
                calls.clear()
                got = np.asarray(x @ y)
                np.testing.assert_allclose(got, hx @ hy, rtol=1e-4 if dt == np.float32
                                           else 1e-12, atol=1e-5)
                assert calls == [True], (x.shape, y.shape)
        declined = [(xp.asarray(np.arange(12).reshape(3, 4), device=gpu.name),
                     xp.asarray(np.arange(8).reshape(4, 2), device=gpu.name)),
                    (xp.ones((2, 3, 4), device=gpu.name), xp.ones((2, 4, 5), device=gpu.name)),
                    (xp.ones((0, 4), device=gpu.name), xp.ones((4, 5), device=gpu.name))]
        for x, y in declined:
            calls.clear()
            want = np.asarray(x) @ np.asarray(y)
            np.testing.assert_allclose(np.asarray(x @ y), want)
            assert True not in calls
        assert realize.stats["kernels"] > 0
        # products of one shape read at once: each must be written on the device's stream
        # before the read (on another stream a read saw the previous product's buffer)
        w = xp.asarray(rng.standard_normal((5, 1)).astype(np.float32), device=gpu.name)
        for _ in range(20):
            h = rng.standard_normal((7, 5)).astype(np.float32)
            np.testing.assert_allclose(np.asarray(xp.asarray(h, device=gpu.name) @ w),
                                       h @ np.asarray(w), rtol=1e-5, atol=1e-5)
        # cuBLAS handles are per thread (CuPy destroys one with its thread): a product in a
        # thread that has ended, then one here
        h = rng.standard_normal((9, 6)).astype(np.float32)
        a = xp.asarray(h, device=gpu.name)
        done: list[Any] = []
        t = threading.Thread(target=lambda: done.append(np.asarray(a @ a.T)))
        t.start()
        t.join()
        for _ in range(3):
            np.testing.assert_allclose(np.asarray(a @ a.T), h @ h.T, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(done[0], h @ h.T, rtol=1e-5, atol=1e-5)
    finally:
        type(gpu).library_direct = direct


@needs_gpu
def test_copy_edge_cases(gpu: Any) -> None:
    empty = gpu.alloc(0)
    gpu.copy_in(empty, np.empty(0, np.float32))
    assert gpu.copy_out(empty).shape == (0,)
    # a non-contiguous host array is copied in its logical order
    host = np.arange(24, dtype=np.int32).reshape(4, 6)[:, ::2]
    buf = gpu.alloc(host.nbytes)
    gpu.copy_in(buf, host)
    np.testing.assert_array_equal(gpu.copy_out(buf).view(np.int32), host.ravel())
    # the caller may change its array right after copy_in returns
    src = np.full(1 << 20, 7.0)
    buf = gpu.alloc(src.nbytes)
    gpu.copy_in(buf, src)
    src[:] = 0
    assert (gpu.copy_out(buf).view(np.float64) == 7.0).all()
    # ... even when it lives in pinned memory, which the driver reads asynchronously
    cupyx = pytest.importorskip("cupyx")
    pinned = cupyx.empty_pinned((1 << 20,), np.float64)
    pinned[:] = 4.0
    gpu.copy_in(buf, pinned)
    pinned[:] = 0
    assert (gpu.copy_out(buf).view(np.float64) == 4.0).all()
    gpu.copy_in(buf, src + 7)
    # small reads go through one pinned buffer, medium ones directly, large ones through
    # pinned staging buffers, chunk by chunk
    for n in (1, cuda.SMALL_READ, cuda.SMALL_READ + 1, cuda.STAGE_MIN,
              3 * cuda.STAGE_CHUNK + 12345):
        big = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8)
        big_buf = gpu.alloc(n)
        gpu.copy_in(big_buf, big)
        out = gpu.copy_out(big_buf)
        assert not out.flags.writeable
        np.testing.assert_array_equal(out, big)
        calls: list[int] = []       # a range, on each path: the same bytes, one callback
        part = gpu.copy_out(big_buf, n // 3, n - n // 5, lambda calls=calls: calls.append(1))
        np.testing.assert_array_equal(part, big[n // 3:n - n // 5])
        assert calls == [1]
    with pytest.raises(ValueError, match="do not fit"):
        gpu.copy_in(gpu.alloc(4), np.zeros(2, np.float32))
    # device-to-device copies and zero fill
    dst = gpu.alloc(buf.nbytes)
    gpu.copy(dst, buf)
    assert (gpu.copy_out(dst).view(np.float64) == 7.0).all()
    gpu.fill_zero(dst)
    assert not gpu.copy_out(dst).any()


@needs_gpu
def test_pool_accounting_and_reuse(gpu: Any) -> None:
    before = gpu.pool.in_use
    buf = gpu.alloc(12345)
    ptr = buf.handle.ptr
    assert gpu.pool.in_use == before + 12345
    assert gpu.pool.free_bytes == gpu.pool.capacity - gpu.pool.in_use
    del buf
    assert gpu.pool.in_use == before
    again = gpu.alloc(12345)
    assert again.handle.ptr == ptr, "a freed block of the same size is reused"


@needs_gpu
def test_memory_error_names_size_and_device(gpu: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gpu.pool, "capacity", 1 << 20)
    with pytest.raises(MemoryError, match=r"2\.0 MiB.*cuda:0"):
        gpu.alloc(2 << 20)
    # past what the GPU really has: CuPy's out-of-memory error becomes our MemoryError
    monkeypatch.setattr(gpu.pool, "capacity", 0)    # no accounting limit
    with pytest.raises(MemoryError, match=r"cuda:0") as info:
        gpu.alloc(4 * gpu.info.total_memory)
    assert "GiB" in str(info.value)
    # and the device still works afterwards
    small = gpu.alloc(64)
    gpu.copy_in(small, np.arange(16, dtype=np.float32))
    assert gpu.copy_out(small).view(np.float32)[15] == 15


def _launch_scale(gpu: Any, prog: Any, x: np.ndarray, factor: float,
                  local_size: int = 256) -> tuple[np.ndarray, Event]:
    src = gpu.alloc(x.nbytes)
    gpu.copy_in(src, x)
    dst = gpu.alloc(x.nbytes)
    groups = (x.size + local_size - 1) // local_size
    ev = prog([src, dst], [x.size, groups], [factor])
    dst.ready = ev
    return gpu.copy_out(dst).view(np.float32), ev


@needs_gpu
def test_hand_written_kernel_matches_numpy(gpu: Any) -> None:
    prog = gpu.compile(SCALE, _scale_ir())
    assert prog.local_size == 256 and prog.groups_arg == 1
    rng = np.random.default_rng(1)
    for n in (1, 255, 256, 1000, (1 << 20) + 3):
        x = rng.standard_normal(n).astype(np.float32)
        got, ev = _launch_scale(gpu, prog, x, 1.5)
        assert isinstance(ev, Event) and ev.done()
        np.testing.assert_array_equal(got, x * np.float32(1.5))
    # numpy integers and floats are accepted as arguments
    x = np.arange(10, dtype=np.float32)
    src, dst = gpu.alloc(40), gpu.alloc(40)
    gpu.copy_in(src, x)
    dst.ready = prog([src, dst], [np.int64(10), np.int32(1)], [np.float32(2.0)])
    np.testing.assert_array_equal(gpu.copy_out(dst).view(np.float32), x * 2)


@needs_gpu
def test_launch_edge_cases(gpu: Any) -> None:
    prog = gpu.compile(SCALE, _scale_ir())
    src, dst = gpu.alloc(16), gpu.alloc(16)
    gpu.copy_in(dst, np.full(4, 9.0, np.float32))
    ev = prog([src, dst], [0, 0], [2.0])       # 0 blocks: nothing runs
    assert ev.done()
    assert (gpu.copy_out(dst).view(np.float32) == 9.0).all()
    with pytest.raises(ValueError, match="1 buffers"):
        prog([src], [4, 1], [2.0])
    with pytest.raises(ValueError, match="launch metadata"):
        gpu.compile(SCALE, None)([src, dst], [4, 1], [2.0])


@needs_gpu
def test_the_profile_topic_times_each_launch_on_the_device(gpu: Any) -> None:
    """With the ``profile`` debug topic on, each launch runs between two CUDA events and its
    device time is kept by program name (what ``bench/gpu.py`` reports as device time)."""
    from zyxarray import _debug
    prog = gpu.compile(SCALE, _scale_ir())
    x = np.arange(1 << 20, dtype=np.float32)
    gpu.kernel_times.clear()
    _launch_scale(gpu, prog, x, 2.0)
    assert prog.name not in gpu.kernel_times          # (off: launches are not timed)
    with _debug.debug("profile"):
        out, _ = _launch_scale(gpu, prog, x, 2.0)
    assert (out == x * 2).all()
    (seconds,) = gpu.kernel_times[prog.name]
    assert 0 < seconds < 0.1


@needs_gpu
def test_local_size_beyond_the_kernel_limit_is_a_compile_error(gpu: Any) -> None:
    # __launch_bounds__(256) caps the block size at 256 threads
    with pytest.raises(CompileError, match="exceeds"):
        gpu.compile(SCALE, _scale_ir(local_size=512))


@needs_gpu
def test_launch_from_another_thread(gpu: Any) -> None:
    prog = gpu.compile(SCALE, _scale_ir())
    x = np.arange(1000, dtype=np.float32)
    result: list[Any] = []

    def work() -> None:
        try:
            result.append(_launch_scale(gpu, prog, x, 3.0)[0])
        except BaseException as e:
            result.append(e)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert not isinstance(result[0], BaseException), result[0]
    np.testing.assert_array_equal(result[0], x * 3)


@needs_gpu
def test_compile_error_holds_source_and_log(gpu: Any) -> None:
    before = gpu.compiles
    with pytest.raises(CompileError) as info:
        gpu.compile(BROKEN, _ir([(np.float32, True)], 1, 0, groups_arg=0))
    err = info.value
    assert isinstance(err, ZyxarrayError)
    assert err.source == BROKEN
    assert "undeclared_name" in err.log and "error" in err.log.lower()
    assert err.device == "cuda:0" and err.command.startswith("nvrtc ")
    assert "--fmad=false" in err.command
    assert "undeclared_name" in str(err)
    assert gpu.compiles == before + 1


_CHILD = """
import sys
import numpy as np
from types import SimpleNamespace
from zyxarray._devices import registry
gpu = registry.get("cuda:0")
source = open(sys.argv[1]).read()
ir = SimpleNamespace(name="scale", buffers=[(np.dtype(np.float32), False),
                     (np.dtype(np.float32), True)], n_ints=2, n_floats=1,
                     meta={"local_size": 256, "groups_arg": 1, "fp64": True})
prog = gpu.compile(source, ir)
x = np.arange(300, dtype=np.float32)
a, b = gpu.alloc(x.nbytes), gpu.alloc(x.nbytes)
gpu.copy_in(a, x)
b.ready = prog([a, b], [300, 2], [0.5])
assert (gpu.copy_out(b).view(np.float32) == x * np.float32(0.5)).all()
print("compiles", gpu.compiles)
"""


def _child_compiles(source_path: Path) -> int:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(source_path)], env=env,
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return int(proc.stdout.split("compiles")[-1])


@needs_gpu
def test_disk_cache_serves_another_process(gpu: Any, tmp_path: Path,
                                           request: pytest.FixtureRequest) -> None:
    if not cache.enabled():
        pytest.skip("the disk cache is disabled")
    source = f"// {request.node.nodeid} {time.time()}\n{SCALE}"
    before = gpu.compiles
    gpu.compile(source, _scale_ir())
    assert gpu.compiles == before + 1
    gpu.compile(source, _scale_ir())
    assert gpu.compiles == before + 1, "the same source twice is compiled once"
    path = tmp_path / "kernel.cu"
    path.write_text(source)
    assert _child_compiles(path) == 0, "a second process loads the cubin from disk"
    _, signature = gpu._compile_setup()
    entry = cache.lookup("cuda", cache.key(source, signature), ".cubin")
    assert entry is not None and entry.is_relative_to(_env.cache_dir())
    entry.write_bytes(b"not a cubin")
    assert _child_compiles(path) == 1, "a corrupt entry is recompiled"
    assert entry.read_bytes() != b"not a cubin"


@needs_gpu
def test_events_order_work_and_copy_out_waits_only_for_its_buffer(gpu: Any) -> None:
    spin = gpu.compile(SPIN, _ir([(np.float64, True)], 2, 1, local_size=1, groups_arg=1))
    clock_khz = 2_000_000      # above any GPU clock: the spin lasts at least 0.1 s
    slow = gpu.alloc(8)
    gpu.copy_in(slow, np.zeros(1))
    t0 = time.perf_counter()
    ev = spin([slow], [clock_khz * 100, 1], [42.0])
    assert time.perf_counter() - t0 < 0.05, "a launch does not wait for the kernel"
    assert not ev.done()
    slow.ready = ev
    # a buffer written before the spinning kernel is readable while the kernel still runs
    early = gpu.alloc(8)
    gpu.copy_in(early, np.array([5.0]))       # queued after the spin: waits for it
    late_ev = early.ready
    assert not late_ev.done()
    assert gpu.copy_out(slow).view(np.float64)[0] == 42.0
    assert ev.done()
    late_ev.wait()
    assert late_ev.done()
    assert gpu.copy_out(early).view(np.float64)[0] == 5.0
    # copy_out of a buffer finished before a long kernel does not wait for that kernel
    ready_buf = gpu.alloc(8)
    gpu.copy_in(ready_buf, np.array([3.0]))
    ready_buf.ready.wait()
    ev2 = spin([slow], [clock_khz * 100, 1], [1.0])
    assert gpu.copy_out(ready_buf).view(np.float64)[0] == 3.0
    assert not ev2.done(), "copy_out waited for unrelated work"
    gpu.synchronize()
    assert ev2.done()


@needs_gpu
def test_as_cupy_is_a_view(gpu: Any) -> None:
    cp = pytest.importorskip("cupy")
    host = np.arange(12, dtype=np.float32)
    buf = gpu.alloc(host.nbytes)
    gpu.copy_in(buf, host)
    buf.ready.wait()
    view = gpu.as_cupy(buf, np.float32, (3, 4), None, 0)
    assert view.data.ptr == buf.handle.ptr
    np.testing.assert_array_equal(cp.asnumpy(view), host.reshape(3, 4))
    t = gpu.as_cupy(buf, np.float32, (4, 3), (1, 4), 0)        # the transpose
    np.testing.assert_array_equal(cp.asnumpy(t), host.reshape(3, 4).T)
    tail = gpu.as_cupy(buf, np.float32, (2,), (3,), 5)           # offset and stride
    np.testing.assert_array_equal(cp.asnumpy(tail), host[5::3][:2])
    with gpu.activate():
        view *= 2                          # CuPy work on the device's stream
    buf.ready = gpu.record()
    np.testing.assert_array_equal(gpu.copy_out(buf).view(np.float32), host * 2)
    with pytest.raises(ValueError, match="outside"):
        gpu.as_cupy(buf, np.float32, (13,), None, 0)
    # the view keeps the buffer alive
    ptr = buf.handle.ptr
    del buf, t, tail
    other = gpu.alloc(host.nbytes)
    assert other.handle.ptr != ptr
    np.testing.assert_array_equal(cp.asnumpy(view).ravel(), host * 2)


@needs_gpu
def test_as_cupy_negative_strides(gpu: Any) -> None:
    cp = pytest.importorskip("cupy")
    host = np.arange(6, dtype=np.int64)
    buf = gpu.alloc(host.nbytes)
    gpu.copy_in(buf, host)
    buf.ready.wait()
    rev = gpu.as_cupy(buf, np.int64, (6,), (-1,), 5)
    np.testing.assert_array_equal(cp.asnumpy(rev), host[::-1])


@needs_gpu
def test_wrap_cupy_is_zero_copy(gpu: Any) -> None:
    cp = pytest.importorskip("cupy")
    prog = gpu.compile(SCALE, _scale_ir())
    with cp.cuda.Device(0):
        a = cp.arange(1000, dtype=cp.float32)      # made on CuPy's current stream
        out = cp.zeros(1000, dtype=cp.float32)
    src, dst = gpu.wrap_cupy(a), gpu.wrap_cupy(out)
    assert isinstance(src, Buffer) and src.handle.ptr == a.data.ptr and src.nbytes == 4000
    dst.ready = prog([src, dst], [1000, 4], [2.0])
    dst.ready.wait()
    np.testing.assert_array_equal(cp.asnumpy(out), np.arange(1000, dtype=np.float32) * 2)
    np.testing.assert_array_equal(gpu.copy_out(dst).view(np.float32), cp.asnumpy(out))
    # the buffer keeps the array's memory alive
    del a
    np.testing.assert_array_equal(gpu.copy_out(src).view(np.float32), np.arange(1000))
    # a non-contiguous array is copied first
    strided = cp.arange(20, dtype=cp.int32)[::2]
    wrapped = gpu.wrap_cupy(strided)
    np.testing.assert_array_equal(gpu.copy_out(wrapped).view(np.int32), np.arange(0, 20, 2))
    with pytest.raises(TypeError):
        gpu.wrap_cupy(np.zeros(3))


@needs_gpu
def test_a_large_read_lands_in_pinned_memory_and_is_handed_over() -> None:
    """A read above ``SMALL_READ`` goes straight into pooled pinned host memory (32 MiB on an
    H100: 0.73 ms, where pageable memory took 8-11 ms, CuPy's ``asnumpy`` too), and
    ``numpy.asarray`` hands that array out without a second copy, writable."""
    import zyxarray as xp
    from zyxarray._devices.base import is_fresh

    dev = _gpus()[0]
    h = np.random.default_rng(0).standard_normal(1 << 17)      # 1 MiB
    x = xp.asarray(h, device=dev.name) * 2.0
    raw = dev.copy_out(xp.asarray(h, device=dev.name)._node.buffer)
    assert is_fresh(raw) and not raw.flags.writeable
    assert np.array_equal(raw.view(np.float64), h)
    out = np.asarray(x)
    root = out
    while isinstance(root.base, np.ndarray):
        root = root.base
    assert is_fresh(root), "handed over, not copied"
    assert out.flags.writeable and np.array_equal(out, h * 2.0)
    out[0] = 7.0                # (its own memory: the device's value is untouched)
    assert float(x[0]) == h[0] * 2.0
