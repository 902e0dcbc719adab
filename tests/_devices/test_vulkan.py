"""The Vulkan runtime (``_devices/vulkan.py``) running the SPIR-V renderer's modules, against
NumPy. CI has lavapipe (Mesa's Vulkan on the CPU). These tests drive the runtime directly:
each case is planned as the cpu device would, lowered for the Vulkan device (its buffers by
address and bound as descriptors), rendered, compiled and run on its buffers."""

from __future__ import annotations

import dataclasses
import gc
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._codegen import render
from zyxarray._devices import vulkan as vulkan_runtime
from zyxarray._lazy.lower import canonicalize, lower, phases, scratch
from zyxarray._lazy.realize import to_host
from zyxarray._lazy.schedule import schedule

#: kernels of graphs built on small cpu arrays, which must stay lazy (not results
#: computed at once: ``_api/_hot.c``)
pytestmark = pytest.mark.usefixtures("kernels_only")


@pytest.fixture(scope="module")
def vk() -> Any:
    devices, reasons = vulkan_runtime.discover()
    if not devices:
        pytest.skip(f"no Vulkan device: {'; '.join(reasons)}")
    return devices[0]


def _run(dev: Any, y: xp.Array, addresses: bool | None = None) -> tuple[np.ndarray, str]:
    """``y`` (one kernel over realized cpu inputs) computed on the Vulkan device, its
    buffers by address or bound as descriptors (None: as the device does it)."""
    (plan,) = schedule([y._node.base()])
    info = dev.info
    if addresses is not None:
        extra = {k: v for k, v in info.extra.items() if k != "addresses"}
        info = dataclasses.replace(info, extra={**extra, "addresses": True} if addresses
                                   else extra)
    c = canonicalize(plan, info)
    buffers = []
    for node, _ in plan.loads:
        host = np.ascontiguousarray(to_host(node))
        b = dev.alloc(max(host.nbytes, 1))
        if host.nbytes:
            dev.copy_in(b, host)
        buffers.append(b)
    out = dev.alloc(max(plan.output.nbytes, 1))
    buffers.append(out)
    buffers += [dev.alloc(max(n * d.itemsize, 1)) for d, n in scratch(c)]
    for phase in range(phases(c)):
        kernel = lower(c, "k", phase)
        out.ready = dev.compile(render(kernel, "spirv"), kernel)(buffers, c.ints, c.floats)
    dt = plan.output.dtype
    raw = dev.copy_out(out)[:plan.output.nbytes]
    got = np.frombuffer(raw.tobytes(), np.uint8 if dt == np.bool_ else dt).astype(dt)
    return got.reshape(plan.output.shape), c.strategy


_RNG = np.random.default_rng(0)
_F = _RNG.standard_normal((64, 300)).astype(np.float32)
_F[3, 7] = np.nan
_I = _RNG.integers(-50, 50, (64, 300)).astype(np.int32)
_I[0, :4] = [0, -1, np.iinfo(np.int32).min, 7]

CASES: dict[str, tuple[Any, Any]] = {
    "elementwise": (lambda x, i: x * 2 + 1, lambda x, i: x * 2 + 1),
    "row sum": (lambda x, i: xp.sum(x, axis=1, keepdims=True),
                lambda x, i: x.sum(axis=1, keepdims=True)),
    "column sum": (lambda x, i: xp.sum(i, axis=0, keepdims=True),
                   lambda x, i: i.astype(np.int64).sum(axis=0, keepdims=True)),
    "max with NaN": (lambda x, i: xp.max(x, axis=1, keepdims=True),
                     lambda x, i: x.max(axis=1, keepdims=True)),
    "transposed read": (lambda x, i: x[:, :64] + x[:64, :64].T,
                        lambda x, i: x[:, :64] + x[:64, :64].T),
    "row scan": (lambda x, i: xp.cumulative_sum(i, axis=1), lambda x, i: np.cumsum(i, axis=1)),
    "column scan": (lambda x, i: xp.cumulative_sum(i, axis=0),
                    lambda x, i: np.cumsum(i, axis=0)),
    "argmax": (lambda x, i: xp.argmax(i * 2, axis=1, keepdims=True),
               lambda x, i: np.argmax(i, axis=1)[:, None]),
    "floor division and shifts": (
        lambda x, i: i // 7 + i % 5 - (i >> 2) + (i << 3) + i // (i % 3),
        lambda x, i: i // 7 + i % 5 - (i >> 2) + (i << 3) + _floordiv0(i, i % 3)),
    "where and comparisons": (lambda x, i: xp.where((x > 0.5) | (i == 0), x, -1.0),
                              lambda x, i: np.where((x > 0.5) | (i == 0), x, -1.0)),
    "float64 and casts": (lambda x, i: xp.astype(x, xp.float64) * 3 + xp.astype(i, xp.float64),
                          lambda x, i: x.astype(np.float64) * 3 + i),
    "int8 wraps": (lambda x, i: xp.astype(i, xp.int8) * 5, lambda x, i: i.astype(np.int8) * 5),
    "bool": (lambda x, i: (x > 0) & (i > 0), lambda x, i: (x > 0) & (i > 0)),
    "integer power": (lambda x, i: (i % 9 - 4) ** (i % 7), lambda x, i: (i % 9 - 4) ** (i % 7)),
    "copysign and nextafter": (lambda x, i: xp.copysign(x, -x * (i % 2)) + xp.nextafter(x, i * 1.0),
                               lambda x, i: np.copysign(x, -x * (i % 2))
                               + np.nextafter(x, (i * 1.0).astype(np.float32))),
    "float floor division and remainder (exact fmod)": (
        lambda x, i: x * 1e6 % (x * 1e-3 + 2) + (x * 7) // (i % 5 + 0.5),
        lambda x, i: x * np.float32(1e6) % (x * np.float32(1e-3) + np.float32(2))
        + (x * np.float32(7)) // (i % 5 + np.float32(0.5))),
    "rounding": (lambda x, i: xp.floor(x) + xp.round(x * 2) + xp.abs(x) + xp.sqrt(xp.abs(x)),
                 lambda x, i: np.floor(x) + np.round(x * 2) + np.abs(x) + np.sqrt(np.abs(x))),
}


def _floordiv0(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.where(b == 0, 0, a // np.where(b == 0, 1, b))


@pytest.mark.parametrize("binding", ["addresses", "descriptors"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_kernels_match_numpy(vk: Any, case: str, binding: str) -> None:
    if binding == "addresses" and not vk.addresses:
        pytest.skip("this device has no buffer device addresses")
    fn, np_fn = CASES[case]
    got, strategy = _run(vk, fn(xp.asarray(_F), xp.asarray(_I)), binding == "addresses")
    want = np.asarray(np_fn(_F, _I))
    assert strategy.startswith("g_")
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-4, err_msg=case)
    else:
        np.testing.assert_array_equal(got, want, err_msg=case)


def test_float16_matches_numpy_bit_for_bit(vk: Any) -> None:
    """float16 is uint16 in buffers and float32 in registers, rounded after each operation
    as NumPy's float16 loops do: every one of the 65,536 values loads and stores exactly,
    arithmetic and conversions give NumPy's bits; sums (another order) stay close."""
    every = np.arange(65536, dtype=np.uint16).view(np.float16)
    got, _ = _run(vk, xp.asarray(every) * 1)
    np.testing.assert_array_equal(got.view(np.uint16)[~np.isnan(every)],
                                  every.view(np.uint16)[~np.isnan(every)])
    assert np.isnan(got[np.isnan(every)]).all()
    h = _F.astype(np.float16)
    x = xp.asarray(h)
    with np.errstate(all="ignore"):
        for fn, np_fn in ((lambda a: a * 3 + 1, lambda a: a * np.float16(3) + np.float16(1)),
                          (lambda a: xp.astype(xp.astype(a, xp.float32) * 1.7, xp.float16),
                           lambda a: (a.astype(np.float32) * np.float32(1.7)).astype(np.float16)),
                          (lambda a: xp.astype(xp.astype(a, xp.float64) / 3, xp.float16),
                           lambda a: (a.astype(np.float64) / 3).astype(np.float16))):
            got, _ = _run(vk, fn(x))
            np.testing.assert_array_equal(got, np_fn(h))
    got, _ = _run(vk, xp.sum(x, axis=1, keepdims=True))
    np.testing.assert_allclose(got.astype(np.float64), h.astype(np.float64).sum(
        axis=1, keepdims=True), rtol=2e-3, atol=0.1)


_MATH_1 = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
           "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]
_MATH_2 = ["atan2", "pow", "hypot", "logaddexp"]


def _ulps(got: np.ndarray, want: np.ndarray) -> tuple[float, np.ndarray]:
    """Max error in units of the last place over normal finite results, and where the
    results are special (inf, NaN, zero, subnormal)."""
    fin = np.isfinite(want) & (np.abs(want) >= np.finfo(want.dtype).tiny)
    err = np.abs(got[fin].astype(np.float64) - want[fin].astype(np.float64))
    u = err / np.spacing(np.abs(want[fin])).astype(np.float64)
    return (float(u.max()) if u.size else 0.0), ~fin


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_math_functions_are_the_projects_own(vk: Any, dtype: str) -> None:
    """The transcendental functions are c_math's algorithms translated to SPIR-V
    (spirv_math): within a few ulp of NumPy (c_math's own measured error is below 1 ulp;
    NumPy's libm adds its own), NumPy's special values (NaN, inf, signed zeros, domains)."""
    dt = np.dtype(dtype)
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.standard_normal(1500) * 3, rng.uniform(-1, 1, 500),
                        rng.standard_normal(500) * 300, [0.0, -0.0, np.inf, -np.inf, np.nan,
                                                         1e-30, -1e-30, 1.0, -1.0, 0.5, 2.0,
                                                         700.0, -700.0]]).astype(dt)
    # the largest finite values (the emulated fma's split overflowed there: atan(max) was
    # NaN on lavapipe)
    big = float(np.finfo(dt).max)
    x = np.concatenate([x, np.array([big, -big, big / 3, -big / 7], dt)])
    y = np.concatenate([rng.standard_normal(2000) * 4, rng.uniform(0, 3, 500),
                        [0.0, 1.0, np.nan, np.inf, -np.inf, 0.5, 2.0, -2.0, 3.0, 0.0, -0.0,
                         1.0, -1.0, 1.0, big, 0.5, -big]]).astype(dt)
    keeps = vk.info.extra.get("float_controls", ())
    with np.errstate(all="ignore"):
        for name in _MATH_1 + _MATH_2:
            args = (x,) if name in _MATH_1 else (x, y)
            got, _ = _run(vk, getattr(xp, name)(*(xp.asarray(a) for a in args)))
            want = getattr(np, name)(*args)
            ulps, special = _ulps(got, want)
            bound = 40 if name == "logaddexp" else 4      # (cancellation, in NumPy too)
            assert ulps <= bound, f"{name} {dtype}: {ulps} ulp"
            if ("denorm_preserve", dt.itemsize * 8) not in keeps:
                # a device that flushes subnormal results (NVIDIA's, for float32) gives 0
                tiny = (want != 0) & (np.abs(want) < np.finfo(dt).tiny) & (got == 0)
                got = np.where(tiny, want, got)
            np.testing.assert_array_equal(got[special], want[special],
                                          err_msg=f"{name} {dtype} special values")


def test_a_device_without_float64_computes_float32_and_complex64(
        vk: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a device without shaderFloat64 (most mobile GPUs, Intel Arc, Apple's through
    MoltenVK): modules without float64, float arguments in float32, the math functions
    whose float32 version computes in float64 from GLSL.std.450 (the driver's accuracy:
    checked loosely), pow with NumPy's signs and special cases, complex64 on top of them."""
    import dataclasses
    monkeypatch.setattr(vk, "info", dataclasses.replace(vk.info, float64=False))
    rng = np.random.default_rng(5)
    x = rng.uniform(-3, 3, 400).astype(np.float32)
    y = np.concatenate([rng.uniform(-3, 3, 380), [0, 1, 2, 3, -1, -2, 0.5, np.nan, 0, 0,
                                                  -0.0, np.inf, 1, 2, 3, 0, -3, 2, 1, 0]]
                       ).astype(np.float32)
    x[-20:] = [0, -0.0, 0, -0.0, -2, -2, -2, 2, 1, np.nan, 3, 0.5, -0.0, -0.0, -0.0, 5, 0,
               0, 1, np.nan]
    with np.errstate(all="ignore"):
        for name in ["sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
                     "tanh", "asinh", "acosh", "atanh", "exp", "log1p"]:
            args = (x, y) if name == "atan2" else (x,)
            got, _ = _run(vk, getattr(xp, name)(*(xp.asarray(v) for v in args)))
            want = getattr(np, name)(*args)
            if name in ("sin", "cos", "tan"):        # (the driver's: NVIDIA's tan is
                # within 2e-5 near its poles)
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6, err_msg=name)
                continue
            ulps, special = _ulps(got, want)
            assert ulps <= 4, f"{name}: {ulps} ulp"
            np.testing.assert_array_equal(got[special], want[special], err_msg=name)
        got, _ = _run(vk, xp.asarray(x) ** xp.asarray(y))
        np.testing.assert_allclose(got, x ** y, rtol=1e-5, atol=1e-30, err_msg="pow")
        z = (x[:380] + 1j * y[:380]).astype(np.complex64)
        for name in ["exp", "log", "sqrt", "sin", "tanh"]:
            got, _ = _run(vk, getattr(xp, name)(xp.asarray(z)))
            np.testing.assert_allclose(got, getattr(np, name)(z), rtol=1e-5, atol=1e-6,
                                       err_msg=name)


def test_a_grid_beyond_the_dispatch_limit_runs_in_pieces(vk: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """More work-groups than one dispatch may have: several dispatches, each offsetting the
    work-group id by a push constant."""
    monkeypatch.setattr(vk, "max_groups", 3)
    got, _ = _run(vk, xp.sum(xp.asarray(_F), axis=1, keepdims=True) * 2)   # 64 groups
    np.testing.assert_allclose(got, _F.sum(axis=1, keepdims=True) * 2, rtol=2e-5, atol=1e-4)


def test_buffers_beyond_the_storage_buffer_range_are_reached_by_address(vk: Any) -> None:
    """A buffer larger than maxStorageBufferRange (128 MiB on lavapipe) cannot be bound as a
    descriptor; with buffer device addresses every kernel takes its buffers by address, so
    such arrays compute as any other (without them: a MemoryError naming the limit)."""
    from zyxarray._devices import registry
    if vk.storage_range > 1 << 30:
        pytest.skip(f"the storage-buffer range here is {vk.storage_range} bytes")
    n = vk.storage_range // 8 + 1000
    if not vk.addresses:
        with pytest.raises(MemoryError, match="at most"):
            vk.alloc(n * 8)
        return
    name = next(k for k, d in registry.devices().items() if d.info.name == vk.info.name)
    host = np.arange(n, dtype=np.float64) % 1000
    x = xp.asarray(host, device=name)
    y = x[::-1] * 2 + 1
    assert float(y[0]) == host[-1] * 2 + 1 and float(y[-1]) == 1.0
    assert float(xp.sum(x)) == host.sum() and float(xp.max(y)) == 1999.0
    del x, y
    device = registry.get(name)
    device.synchronize()
    gc.collect()
    device.pool.drop_cache()        # (hundreds of MiB: not for the tests that follow)


def test_buffers_round_trip_and_are_pooled(vk: Any) -> None:
    data = np.arange(1000, dtype=np.float64)
    b = vk.alloc(data.nbytes)
    vk.copy_in(b, data)
    np.testing.assert_array_equal(np.frombuffer(vk.copy_out(b).tobytes(), np.float64), data)
    assert bytes(vk.copy_out(b, 8, 16)) == data[1:2].tobytes()
    with pytest.raises(ValueError, match="bytes"):
        vk.copy_out(b, 0, data.nbytes + 8)
    handle = b.handle
    del b
    assert vk.alloc(data.nbytes).handle is handle       # the block came back from the pool


def test_device_copies_and_fills_are_queued(vk: Any) -> None:
    """copy and fill_zero are transfers on the queue (asynchronous, in order with kernels);
    a copy from another device's buffer goes through the host."""
    data = np.arange(257, dtype=np.uint8)
    a, b = vk.alloc(data.nbytes), vk.alloc(data.nbytes)
    vk.copy_in(a, data)
    vk.copy(b, a)
    np.testing.assert_array_equal(vk.copy_out(b), data)
    vk.fill_zero(b)
    np.testing.assert_array_equal(vk.copy_out(b), np.zeros_like(data))
    from zyxarray._devices import registry
    cpu = registry.get("cpu")
    c = cpu.alloc(100)
    cpu.copy_in(c, data[:100][::-1].copy())
    vk.copy(a, c, 100)
    np.testing.assert_array_equal(vk.copy_out(a), np.concatenate([data[:100][::-1],
                                                                  data[100:]]))


def test_small_buffers_share_blocks_of_memory(vk: Any) -> None:
    """Buffers up to 1 MiB are sub-allocated: thousands of them take a few blocks of
    device memory (a driver may allow only 4096 allocations), each keeps its own data, and
    their slots come back when they are freed."""
    from zyxarray._devices.base import MemoryPool
    pool = MemoryPool("vulkan:slabs", vk._raw_alloc, vk._raw_free, 0)    # (no caching here)
    handles = [pool.allocate(5000 + i % 7) for i in range(5000)]     # (8 KiB slots)
    blocks = {id(h.block) for h in handles}
    assert all(h.block is not None for h in handles) and len(blocks) == 3
    bufs = []
    for i, h in enumerate(handles[:50]):
        b = vulkan_runtime.Buffer(vk, h.size, h, pooled=False)
        vk.copy_in(b, np.full(h.size, i % 251, np.uint8))
        bufs.append(b)
    for i, b in enumerate(bufs):
        assert (np.asarray(vk.copy_out(b)) == i % 251).all()
    key = next(k for k, v in vk.slabs.items() if any(id(x) in blocks for x in v))
    for h in handles[50:]:
        vk._raw_free(h)
    left = vk.slabs[key]            # (emptied blocks are freed, the one in use stays)
    assert len(left) == 1 and handles[0].block in left
    slots = vulkan_runtime._BLOCK // 8192      # (other tests' live buffers may hold a few)
    assert slots - 60 <= len(left[0].free) <= slots - 50


def test_memory_the_host_cannot_see_goes_through_staging(
        vk: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Device-local memory without a host mapping (a discrete GPU's): copies in and out
    go through the staging buffer and transfers on the queue, in steps of its size."""
    monkeypatch.setattr(vk, "mapped_memory", False)
    monkeypatch.setattr(vk, "pool", type(vk.pool)("vulkan:staging", vk._raw_alloc,
                                                  vk._raw_free, 0))
    monkeypatch.setattr(vulkan_runtime, "_STAGE", 1000)     # (several steps a copy)
    monkeypatch.setattr(vk, "_stage", None)
    small = vk.alloc(64)              # (small buffers are mapped: a scalar read is a load)
    assert small.handle.view is not None
    monkeypatch.setattr(vulkan_runtime, "_SMALL", 0)
    data = np.linspace(-1, 1, 777)
    b = vk.alloc(data.nbytes)
    assert b.handle.view is None
    vk.copy_in(b, data)
    np.testing.assert_array_equal(np.frombuffer(vk.copy_out(b).tobytes(), np.float64), data)
    assert bytes(vk.copy_out(b, 16, 24)) == data[2:3].tobytes()
    into = np.zeros(data.nbytes - 8, np.uint8)
    assert vk.copy_out(b, 8, into=into) is into
    assert into.tobytes() == data[1:].tobytes()
    got, _ = _run(vk, xp.sum(xp.asarray(_F), axis=1, keepdims=True))
    np.testing.assert_allclose(got, _F.sum(axis=1, keepdims=True), rtol=2e-5, atol=1e-4)


def test_launches_are_asynchronous_events_on_a_timeline(vk: Any) -> None:
    """Launches return at once with an event (a timeline value); a read waits for its
    buffer's event; what a launch holds comes back once the device passes it."""
    x = xp.asarray(_F)
    y = x * 3 - 1
    (plan,) = schedule([y._node])
    c = canonicalize(plan, vk.info)
    src = vk.alloc(_F.nbytes)
    vk.copy_in(src, _F)
    events = []
    outs = []
    kernel = lower(c, "k")
    prog = vk.compile(render(kernel, "spirv"), kernel)
    for _ in range(5):
        out = vk.alloc(_F.nbytes)
        out.ready = prog([src, out], c.ints, c.floats)
        events.append(out.ready)
        outs.append(out)
    assert [e.value for e in events] == sorted(e.value for e in events)
    for out in (outs[-1], outs[0]):
        got = np.frombuffer(vk.copy_out(out).tobytes(), np.float32).reshape(_F.shape)
        np.testing.assert_allclose(got, _F * 3 - 1, rtol=1e-6)
    assert events[-1].done()
    vk.synchronize()
    assert all(e.done() for e in events) and not vk.in_flight


def test_profiling_reads_timestamp_queries(vk: Any, capsys: pytest.CaptureFixture) -> None:
    """The ``profile`` debug topic times each launch on the device (timestamp queries) and
    logs it once the launch completes; the times are kept by program name."""
    before = sum(len(v) for v in vk.kernel_times.values())
    with xp.debug("profile"):
        _run(vk, xp.sum(xp.asarray(_F), axis=1, keepdims=True) * 3)
        vk.synchronize()
    times = [t for v in vk.kernel_times.values() for t in v]
    assert len(times) > before and all(0 < t < 10 for t in times)
    assert "us on the device" in capsys.readouterr().err


def test_fused_multiply_add_is_measured(vk: Any, tmp_path: Path) -> None:
    """Whether the driver's Fma rounds once is measured with a probe shader (lavapipe's does
    not; NVIDIA's does): the math routines use it only where it does."""
    import shutil
    import subprocess
    for float64 in (False, True):
        path = tmp_path / f"probe{float64}.spv"
        path.write_bytes(vulkan_runtime._fma_probe(float64))
        if shutil.which("spirv-val"):
            done = subprocess.run(["spirv-val", "--target-env", "vulkan1.1", str(path)],
                                  capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
    fused = vulkan_runtime._fused_fma(vk)
    assert fused == vk.info.extra["fused_fma"] and all(isinstance(f, bool) for f in fused)


def test_pipelines_are_cached_on_disk(vk: Any, tmp_path: Path) -> None:
    """The driver's pipeline cache goes to the kernel cache directory when a process that
    made pipelines exits (and at most every ``CACHE_SAVE_EVERY`` seconds before: not after
    each one); the driver checks it against its identity when it reads it back."""
    code = ("import numpy as np, zyxarray as xp\n"
            f"x = xp.asarray([1.0, 2.0], device={vk.info.name!r})\n"
            "assert np.asarray(x * 5 + 2).tolist() == [7.0, 12.0]\n")
    env = {**os.environ, "ZYXARRAY_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    saved = list((tmp_path / "vulkan").glob("*.pipelines"))
    assert len(saved) == 1 and saved[0].stat().st_size > 0
    _run(vk, xp.asarray(_F) * 5 + 2)
    vk.save_pipeline_cache()                        # (what the exit does)
    assert vk.cache_file is not None and vk.cache_file.exists()
    assert vk.cache_file.stat().st_size > 0 and not vk._cache_dirty
    again, reasons = vulkan_runtime.discover()      # a device opened over the saved cache
    assert again and not reasons, reasons


def test_info_comes_from_the_device(vk: Any) -> None:
    info = vk.info
    assert info.kind == "vulkan" and info.language == "spirv" and info.style == "threads"
    assert info.max_work_group >= 128 and info.local_memory >= 16 * 1024
    assert info.name.startswith("vulkan:") and "Vulkan" in info.description


def test_compute_units_come_from_the_driver(vk: Any) -> None:
    """Lowering sizes split reductions by the compute units: a CPU driver (lavapipe) counts
    the host's cores; a GPU's come from its vendor's extension (NVIDIA's SMs, AMD's CUs,
    Arm's cores), and a GPU reporting none is assumed to have ``UNKNOWN_GPU_UNITS``."""
    import vulkan
    props = vulkan.vkGetPhysicalDeviceProperties(vk.physical)
    units = vulkan_runtime._compute_units(vk.physical, props)
    assert units == vk.info.compute_units >= 1
    if props.deviceType == vulkan.VK_PHYSICAL_DEVICE_TYPE_CPU:
        assert units == (os.cpu_count() or 1)
        gpu = dataclasses.make_dataclass("Props", ["deviceType"])(
            vulkan.VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)   # (lavapipe has no such extension)
        assert vulkan_runtime._compute_units(vk.physical, gpu) == \
            vulkan_runtime.UNKNOWN_GPU_UNITS
    elif "NVIDIA" in vk.info.description:
        assert units >= 16      # (an SM count: 132 on an H100)


def test_a_device_without_what_kernels_need_is_a_reason(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A device without 64-bit integers (or 8/16-bit storage, timeline semaphores) is not
    offered; the reason names what it lacks."""
    devices, _ = vulkan_runtime.discover()
    if not devices:
        pytest.skip("no Vulkan device")
    monkeypatch.setattr(vulkan_runtime, "_missing_features", lambda p: "shaderInt64")
    devices, reasons = vulkan_runtime.discover()
    assert not devices and any("shaderInt64" in r for r in reasons)


def test_a_missing_loader_is_a_reason_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise OSError("cannot load library 'libvulkan.so.1'")

    monkeypatch.setattr(vulkan_runtime, "_load", missing)
    devices, reasons = vulkan_runtime.discover()
    assert devices == [] and "loader" in reasons[0]
