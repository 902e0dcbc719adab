"""The opencl runtime: discovery, memory (round trips, pool, out-of-memory), hand-written
kernels in the renderer's calling convention, compile errors, the on-disk binary cache and
events. Runs on the first OpenCL device found (PoCL in CI); skipped when there is none."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pyopencl", reason="pyopencl is not installed")

from tests.helpers import child_env
from zyxarray import _env
from zyxarray._devices import cache, opencl
from zyxarray._devices.base import COMPLETED
from zyxarray._errors import CompileError, DeviceError

ROOT = Path(__file__).resolve().parents[2]

_DEVICES, _REASONS = opencl.discover()
pytestmark = pytest.mark.skipif(not _DEVICES, reason="no OpenCL device: " + "; ".join(_REASONS))

# b1[gid] = b0[gid] * f0 + i1 for gid < i0; i2 is the number of work-groups (groups_arg)
AXPB = """{tag}
__kernel void zx_kernel(__global float* b0, __global float* b1, long i0, long i1, long i2,
                        {ftype} f0) {{
  long gid = get_global_id(0);
  if (gid < i0) b1[gid] = b0[gid] * (float)f0 + (float)i1;
}}
"""

# b0[0] = a long dependent chain of i0 steps (a kernel that takes a while), i1 = groups
SLOW = """
__kernel void zx_kernel(__global float* b0, long i0, long i1, double f0) {
  float x = (float)f0;
  for (long k = 0; k < i0; k++) x = x * 0.999999f + 1.0f;
  b0[get_global_id(0)] = x;
}
"""


def _ir(n_buffers: int, n_ints: int, n_floats: int, local_size: int, groups_arg: int,
        fp64: bool = True, name: str = "test_kernel") -> Any:
    """The parts of a ``zyxarray._codegen.ir.Kernel`` the runtime reads."""
    return SimpleNamespace(name=name, buffers=[(np.dtype(np.float32), True)] * n_buffers,
                           n_ints=n_ints, n_floats=n_floats,
                           meta={"local_size": local_size, "groups_arg": groups_arg,
                                 "fp64": fp64})


@pytest.fixture(scope="module")
def dev() -> opencl.OpenCLDevice:
    return _DEVICES[0]  # type: ignore[return-value]


def _upload(dev: opencl.OpenCLDevice, data: np.ndarray) -> Any:
    buf = dev.alloc(data.nbytes)
    dev.copy_in(buf, data)
    return buf


# -- discovery -------------------------------------------------------------------------------
def test_discovery_numbers_devices_and_describes_them() -> None:
    assert [d.name for d in _DEVICES] == [f"opencl:{i}" for i in range(len(_DEVICES))] or \
        _REASONS, "devices are numbered in order (a gap only where a reason says why)"
    for d in _DEVICES:
        info = d.info
        assert (info.kind, info.language, info.style, info.simd_lanes) == \
            ("opencl", "opencl", "threads", 1)
        assert info.compute_units >= 1 and info.max_work_group >= 1
        assert info.local_memory > 0 and info.total_memory > 0
        assert d.pool.capacity == info.total_memory
        assert info.complex is True
        for key in ("platform", "vendor", "driver_version", "device_name",
                    "preferred_work_group_multiple", "max_mem_alloc_size"):
            assert key in info.extra
        assert info.extra["platform"] in info.description
        assert info.extra["device_name"] in info.description
    # a second discovery gives the same names for the same devices
    again, _ = opencl.discover()
    assert [(d.name, d.info.description) for d in again] == \
        [(d.name, d.info.description) for d in _DEVICES]


def test_pocl_fields(dev: opencl.OpenCLDevice) -> None:
    if "Portable Computing Language" not in dev.info.extra["platform"]:
        pytest.skip(f"{dev.name} is not PoCL")
    assert dev.info.float64, "PoCL's CPU device has cl_khr_fp64"
    assert dev.info.extra["device_type"] == "CPU"
    assert "PoCL" in dev.info.description


def test_missing_pyopencl_is_a_reason_not_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opencl, "_cl", None)
    monkeypatch.setitem(sys.modules, "pyopencl", None)   # makes `import pyopencl` fail
    devices, reasons = opencl.discover()
    assert devices == []
    assert len(reasons) == 1 and reasons[0].startswith("opencl: pyopencl not installed")


# -- memory ----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint16", "int64",
                                   "complex64", "bool"])
@pytest.mark.parametrize("size", [0, 1, 7, 1000, 65537])
def test_round_trip(dev: opencl.OpenCLDevice, dtype: str, size: int) -> None:
    rng = np.random.default_rng(size)
    data = (rng.standard_normal(size) * 100).astype(dtype)
    buf = _upload(dev, data)
    out = dev.copy_out(buf)
    assert out.dtype == np.uint8 and out.nbytes == data.nbytes
    assert not out.flags.writeable
    np.testing.assert_array_equal(out.view(data.dtype), data)


def test_copy_in_takes_a_snapshot(dev: opencl.OpenCLDevice) -> None:
    data = np.arange(100_000, dtype=np.int32)
    buf = _upload(dev, data)
    data[:] = -1                  # the caller may reuse its array at once
    np.testing.assert_array_equal(dev.copy_out(buf).view(np.int32), np.arange(100_000))
    dev.synchronize()
    assert buf.ready.done() and not dev._pending, "the host snapshot is let go"
    donated = np.arange(10, dtype=np.int32)
    buf2 = dev.alloc(donated.nbytes)
    dev.copy_in(buf2, donated, donate=True)
    np.testing.assert_array_equal(dev.copy_out(buf2).view(np.int32), np.arange(10))


def test_device_copy(dev: opencl.OpenCLDevice) -> None:
    data = np.linspace(0, 1, 333)
    src = _upload(dev, data)
    dst = dev.alloc(data.nbytes)
    dev.copy(dst, src)
    np.testing.assert_array_equal(dev.copy_out(dst).view(np.float64), data)
    dev.fill_zero(dst)
    assert not dev.copy_out(dst).any()
    dev.copy(dst, src, nbytes=16)
    np.testing.assert_array_equal(dev.copy_out(dst).view(np.float64)[:3], [*data[:2], 0])
    dev.wait_for(dst.ready)
    dev.wait_for(COMPLETED)
    # another device object (its own context): copies and events go through the host
    twin = opencl.discover()[0][0]
    theirs = _upload(twin, data)  # type: ignore[arg-type]
    dev.wait_for(theirs.ready)
    dev.copy(dst, theirs)
    np.testing.assert_array_equal(dev.copy_out(dst).view(np.float64), data)


def test_out_of_memory_names_size_and_device(dev: opencl.OpenCLDevice,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dev.pool, "capacity", dev.pool.in_use + 4096)
    with pytest.raises(MemoryError, match=rf"8\.0 KiB on device {dev.name}"):
        dev.alloc(8192)
    monkeypatch.undo()
    with pytest.raises(MemoryError, match=rf"on device {dev.name}: larger than"):
        dev.alloc(dev.max_alloc + 1)


def test_free_bytes_and_pool_reuse(dev: opencl.OpenCLDevice) -> None:
    pool = dev.pool
    free = pool.free_bytes
    buf = dev.alloc(12345)
    assert pool.free_bytes == free - 12345
    handle = buf.handle
    del buf
    assert pool.free_bytes == free
    again = dev.alloc(12345)
    assert again.handle is handle, "a freed block of the same size is reused"
    empty = dev.alloc(0)          # OpenCL has no 0-byte buffers: the pool gives 1 byte
    assert empty.nbytes == 0 and empty.handle.size >= 1
    dev.copy_in(empty, np.empty(0, np.float32))
    assert dev.copy_out(empty).nbytes == 0


# -- kernels ---------------------------------------------------------------------------------
@pytest.mark.parametrize("fp64", [True, False])
def test_kernel_in_the_renderer_convention(dev: opencl.OpenCLDevice, fp64: bool) -> None:
    n, local = 1000, 64
    groups = -(-n // local)
    prog = dev.compile(AXPB.format(tag="", ftype="double" if fp64 else "float"),
                       _ir(2, 3, 1, local, groups_arg=2, fp64=fp64))
    x = np.arange(n, dtype=np.float32) / 7
    a = _upload(dev, x)
    out = dev.alloc(x.nbytes)
    out.ready = prog([a, out], [n, 3, groups], [2.5])
    got = dev.copy_out(out).view(np.float32)
    np.testing.assert_allclose(got, x * np.float32(2.5) + 3, rtol=1e-6)
    # no work-groups: nothing is launched and the event is already complete
    assert prog([a, out], [0, 3, 0], [1.0]) is COMPLETED
    # a wrong argument list is a clear error
    with pytest.raises(DeviceError, match="takes 2 buffers, 3 ints and 1 floats"):
        prog([a, out], [n, 3, groups], [])


def test_ir_and_kernel_must_agree(dev: opencl.OpenCLDevice) -> None:
    source = AXPB.format(tag="/* agree */", ftype="double")
    with pytest.raises(CompileError, match="declares 6 arguments, the IR describes 5"):
        dev.compile(source, _ir(2, 2, 1, 64, groups_arg=1))
    with pytest.raises(DeviceError, match="local size"):
        dev.compile(source, _ir(2, 3, 1, 1 << 30, groups_arg=2))


def test_compile_error_holds_source_and_log(dev: opencl.OpenCLDevice) -> None:
    source = "__kernel void zx_kernel(__global float* b0) { b0[0] = undeclared_name; }"
    before = dev.compiles
    with pytest.raises(CompileError) as info:
        dev.compile(source, _ir(1, 0, 0, 1, groups_arg=0))
    err = info.value
    assert err.source == source
    assert "undeclared_name" in err.log
    assert err.device == dev.name and "-cl-std=CL1.2" in err.command
    assert "1  __kernel void zx_kernel" in str(err)
    assert dev.compiles == before + 1
    assert cache.lookup("opencl", cache.key(source, dev._signature), ".bin") is None


# -- the disk cache --------------------------------------------------------------------------
CHILD = """
import sys
from types import SimpleNamespace
import numpy as np
from zyxarray._devices import opencl
dev = opencl.discover()[0][0]
ir = SimpleNamespace(name="child", buffers=[(np.dtype(np.float32), True)] * 2, n_ints=3,
                     n_floats=1, meta={"local_size": 16, "groups_arg": 2, "fp64": True})
prog = dev.compile(sys.stdin.read(), ir)
x = np.arange(40, dtype=np.float32)
a = dev.alloc(x.nbytes); dev.copy_in(a, x); out = dev.alloc(x.nbytes)
out.ready = prog([a, out], [40, 1, 3], [2.0])
assert (dev.copy_out(out).view(np.float32) == 2 * x + 1).all()
print("COMPILES", dev.compiles)
"""


@pytest.mark.skipif(not cache.enabled(), reason="the disk cache is disabled")
def test_disk_cache_serves_a_fresh_process(dev: opencl.OpenCLDevice,
                                           request: pytest.FixtureRequest) -> None:
    source = AXPB.format(tag=f"/* {request.node.nodeid} {time.time()} */", ftype="double")
    ir = _ir(2, 3, 1, 16, groups_arg=2)
    before = dev.compiles
    dev.compile(source, ir)
    assert dev.compiles == before + 1
    path = cache.lookup("opencl", cache.key(source, dev._signature), ".bin")
    assert path is not None and path.is_relative_to(_env.cache_dir())
    dev.compile(source, ir)
    assert dev.compiles == before + 1, "the second compile loads the cached binary"
    env = child_env(ROOT, ZYXARRAY_CACHE_DIR=str(_env.cache_dir()))
    out = subprocess.run([sys.executable, "-c", CHILD], input=source, capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-2:] == ["COMPILES", "0"], out.stdout


@pytest.mark.skipif(not cache.enabled(), reason="the disk cache is disabled")
@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped"])
def test_corrupt_cache_entry_is_rebuilt(dev: opencl.OpenCLDevice, damage: str,
                                        request: pytest.FixtureRequest) -> None:
    source = AXPB.format(tag=f"/* {request.node.nodeid} {time.time()} */", ftype="double")
    ir = _ir(2, 3, 1, 16, groups_arg=2)
    dev.compile(source, ir)
    path = cache.lookup("opencl", cache.key(source, dev._signature), ".bin")
    assert path is not None
    good = path.read_bytes()
    # (a truncated binary handed to PoCL crashes the process: the checksum must catch it)
    bad = {"garbage": b"not a binary",
           "truncated": good[:len(good) // 2],
           "flipped": good[:-10] + bytes(b ^ 0xFF for b in good[-10:])}[damage]
    path.write_bytes(bad)
    before = dev.compiles
    prog = dev.compile(source, ir)
    assert dev.compiles == before + 1, "a damaged entry is rebuilt"
    assert path.read_bytes() == good or opencl._unwrap_binary(path.read_bytes()) is not None
    x = np.ones(20, np.float32)
    a = _upload(dev, x)
    out = dev.alloc(x.nbytes)
    out.ready = prog([a, out], [20, 0, 2], [3.0])
    np.testing.assert_array_equal(dev.copy_out(out).view(np.float32), 3 * x)


# -- events ----------------------------------------------------------------------------------
def test_events_and_reads_wait_only_for_the_writer(dev: opencl.OpenCLDevice) -> None:
    slow = dev.compile(SLOW, _ir(1, 2, 1, 1, groups_arg=1))
    other = _upload(dev, np.arange(5, dtype=np.float32))
    other.ready.wait()
    assert other.ready.done()
    busy = dev.alloc(4)
    steps = 20_000_000
    for _ in range(4):
        busy.ready = slow([busy], [steps, 1], [0.0])
        # a buffer written before the slow kernel is readable while it runs
        np.testing.assert_array_equal(dev.copy_out(other).view(np.float32), np.arange(5))
        if not busy.ready.done():
            break
        steps *= 8        # the kernel finished before the read: make it longer
    else:
        pytest.fail("the slow kernel never outlasted a read")
    value = dev.copy_out(busy).view(np.float32)[0]   # waits for the writer
    assert busy.ready.done()
    assert value > 0
    busy.ready.wait()   # waiting again is harmless
    dev.synchronize()
