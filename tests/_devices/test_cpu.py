"""The cpu device: a compiler failure is a CompileError with the source and the log; the
on-disk cache serves repeated compiles and survives a corrupt entry; an interrupted compile
leaves no compiler running and no file behind."""

from __future__ import annotations

import os
import signal
import stat
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import zyxarray as xp
from zyxarray import _env
from zyxarray._codegen import render
from zyxarray._devices import cache, registry

pytestmark = pytest.mark.skipif("cpu" not in registry.devices(),
                                reason="no cpu device (no C compiler)")


def test_compile_error_holds_source_and_log() -> None:
    cpu = registry.get("cpu")
    before = cpu.compiles
    with pytest.raises(xp.CompileError) as info:
        cpu.compile("this is not C", None)
    err = info.value
    assert isinstance(err, xp.ZyxarrayError)
    assert err.source == "this is not C"
    assert err.log.strip(), "the compiler's diagnostics are kept"
    assert "error" in err.log.lower()
    assert err.device == "cpu" and err.command
    assert "this is not C" in str(err) and "1  this is not C" in str(err)
    assert cpu.compiles == before + 1


def _fresh_source(tag: str) -> str:
    # a valid kernel whose text no other test produces (the comment changes the digest)
    return (f"/* {tag} */\n#include <stdint.h>\n"
            "void zx_kernel(void** bufs, const int64_t* ip, const double* fp) {\n"
            "  double* out = (double*)bufs[0]; out[0] = fp[0] * 2.0; (void)ip;\n}\n")


def _call(prog, value: float) -> float:  # type: ignore[no-untyped-def]
    cpu = registry.get("cpu")
    buf = cpu.alloc(8)
    prog([buf], [], [value])
    return float(cpu.copy_out(buf).view(np.float64)[0])


def test_second_compile_of_a_source_is_a_cache_hit(request: pytest.FixtureRequest) -> None:
    cpu = registry.get("cpu")
    source = _fresh_source(request.node.nodeid)
    before = cpu.compiles
    assert _call(cpu.compile(source, None), 1.5) == 3.0
    assert cpu.compiles == before + 1
    assert _call(cpu.compile(source, None), 2.0) == 4.0
    assert cpu.compiles == before + 1, "the second compile of the same source is a cache hit"
    if cache.enabled():
        path = cache.lookup("cpu", cache.key(source, cpu._signature), ".so")
        assert path is not None and path.is_relative_to(_env.cache_dir())
    # (a corrupt entry is tested in test_cache.py, in fresh processes: overwriting a
    # shared object this process has loaded would crash it)


def test_a_compile_past_its_budget_is_done_again_without_loop_vectorization(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel whose compile runs past ``COMPILE_BUDGET`` (gcc 12 took 170 s on a sampler's
    vectorized inversion) is stopped and compiled with ``FALLBACK_CFLAGS``: it works, and
    the stopped compiler leaves no process or file behind."""
    from zyxarray._devices import cpu as cpu_module
    cpu = registry.get("cpu")
    calls: list[list[str]] = []
    run = cpu_module._run_to_the_end

    def watched(cmd: list[str], budget: float | None = None) -> tuple[int | None, str]:
        calls.append(cmd)
        return run(cmd, 1e-4 if budget is not None else None)

    monkeypatch.setattr(cpu_module, "_run_to_the_end", watched)
    before = cpu.slow_compiles
    assert _call(cpu.compile(_fresh_source(request.node.nodeid), None), 2.0) == 4.0
    assert cpu.slow_compiles == before + 1
    assert len(calls) == 2 and "-fno-tree-loop-vectorize" in calls[1] and \
        "-fno-tree-loop-vectorize" not in calls[0]
    source = Path(next(a for a in calls[0] if a.endswith(".c")))
    assert not source.exists() and not source.with_suffix(".so").exists()


def test_generated_kernels_compile(device: str) -> None:
    """Every kernel of a mixed workload renders to C that the compiler accepts (the kernels
    of loop-style devices; thread-style IR has no C rendering)."""
    if registry.get(device).info.style != "loops":
        pytest.skip(f"{device} lowers to thread-style IR, which has no C rendering")
    x = xp.asarray(np.linspace(-1, 1, 24).reshape(2, 3, 4), device=device)
    cpu = registry.get("cpu")
    for e in (xp.exp(x) * x, xp.sum(x, axis=(0, 2)), xp.max(x.T, axis=0),
              xp.where(x > 0, x, 0.0), xp.astype(x * 100, xp.int16) >> 2, xp.std(x, axis=1)):
        for k in xp.explain(e):
            cpu.compile(render(k.ir, "c"), k.ir)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_an_interrupted_compile_ends_the_compiler_and_leaves_no_file(
        tmp_path: Path, request: pytest.FixtureRequest,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a compile left the compiler (and what it started) running and its
    temporary files in the cache directory."""
    # (a cache of its own: pytest-xdist's other workers write into the session's)
    monkeypatch.setenv("ZYXARRAY_CACHE_DIR", str(tmp_path / "cache"))
    # (Python's own Ctrl-C, whatever a test before this one left installed)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    request.addfinalizer(lambda: signal.signal(signal.SIGINT, previous))
    cpu = registry.get("cpu")
    pids = tmp_path / "pids"
    slow = tmp_path / "slow-cc"
    # a "compiler" that starts a child of its own, as cc starts cc1, and waits for it
    slow.write_text(f"#!/bin/sh\nsleep 60 &\necho $$ $! > {pids}\nwait\n")
    slow.chmod(slow.stat().st_mode | stat.S_IEXEC)
    directory = cache.directory("cpu")
    before = set(os.listdir(directory))

    def interrupt() -> None:
        for _ in range(6000):       # (up to a minute: a loaded machine starts it late)
            if pids.exists() and pids.read_text().strip():
                break
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)   # as Ctrl-C does

    original = cpu.cc
    cpu.cc = str(slow)
    timer = threading.Thread(target=interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            cpu.compile(_fresh_source(request.node.nodeid), None)
    finally:
        cpu.cc = original
        timer.join()
    shell, child = (int(p) for p in pids.read_text().split())
    deadline = time.monotonic() + 5
    while (_alive(shell) or _alive(child)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(shell) and not _alive(child), "the compiler is still running"
    assert set(os.listdir(directory)) == before, "a temporary file was left in the cache"


# -- Ctrl-C during a kernel (issue 17) -----------------------------------------------------
_LONG = """
import os, signal, threading, time
# (an interactive Python's Ctrl-C: a process started in the background of a shell, as a CI
# runner may start the tests, inherits SIGINT ignored)
signal.signal(signal.SIGINT, signal.default_int_handler)
import zyxarray as xp
x = xp.arange(4 * 10**8, dtype=xp.float64)       # computed in the kernel: no memory
y = xp.sum(xp.sin(x) * xp.cos(x))                # about 20 s on two cores
float(xp.sum(xp.sin(xp.arange(4000.0)) * xp.cos(xp.arange(4000.0))))   # (compiles it)
from zyxarray._devices import cpu


def ctrl_c():          # (once the kernel runs: under load its compile may take a while)
    while cpu._Interrupts.running is None:
        time.sleep(0.01)
    time.sleep(0.3)
    os.kill(os.getpid(), signal.SIGINT)


threading.Thread(target=ctrl_c, daemon=True).start()
t0 = time.perf_counter()
try:
    float(y)
    print("finished", time.perf_counter() - t0)
except KeyboardInterrupt:
    print("interrupted", time.perf_counter() - t0)
print(float(xp.sum(x[:10])), float(xp.sum(xp.sin(x[:4000]) * xp.cos(x[:4000]))))
"""


def test_ctrl_c_stops_a_long_kernel_and_leaves_arrays_usable() -> None:
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", _LONG], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()
    what, seconds = first.split()
    assert what == "interrupted" and float(seconds) < 3.0, out.stdout
    total, small = (float(v) for v in second.split())
    a = np.arange(4000.0)
    assert total == 45.0 and abs(small - np.sum(np.sin(a) * np.cos(a))) < 1e-12


def test_the_stop_flag_ends_a_launch_with_keyboard_interrupt() -> None:
    """The flag itself (what the SIGINT watcher sets): the kernel stops at its next check, the
    launch raises, and the output node stays unrealized."""
    import threading
    import time

    from zyxarray._devices import cpu
    x = xp.arange(4 * 10**8, dtype=xp.float64, device="cpu")
    y = xp.sum(xp.sin(x) * xp.cos(x))

    def poke() -> None:
        for _ in range(200):
            lib = cpu._Interrupts.running
            if lib is not None:
                lib.zx_abort = 1
                return
            time.sleep(0.01)

    threading.Thread(target=poke, daemon=True).start()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt, match="interrupted; the kernel stopped early"):
        float(y)
    assert time.perf_counter() - t0 < 5.0
    assert y._node.base().buffer is None


def test_the_thread_team_is_used_where_the_device_measured_it_pays() -> None:
    """The cpu device measures what waking its thread team costs against what an element
    costs one thread (``parallel_work``, in points, once, when a kernel first asks); a
    kernel runs on the team when its domain has that many points."""
    import dataclasses

    from zyxarray._lazy.lower import canonicalize
    from zyxarray._lazy.schedule import schedule

    dev = registry.get("cpu")
    if dev.info.compute_units < 2:
        pytest.skip("one thread: no team")
    work = dev.info.extra["parallel_work"]
    if callable(work):          # (measured when a kernel large enough first asks)
        work = work()
    assert 4096 <= work <= 1 << 24 and dev.info.extra["parallel_work"] == work
    x = xp.asarray(np.ones(40_000), device="cpu")

    def flag(y: xp.Array, threshold: int) -> int:
        info = dataclasses.replace(dev.info, name=f"cpu:test{threshold}",
                                   extra={"parallel_work": threshold})
        (plan,) = schedule([y._node.base()])
        return canonicalize(plan, info).ints[-1]      # (the parallel flag comes last)

    assert flag(x + 1, 40_000) == 1 and flag(x + 1, 40_001) == 0
    assert flag(xp.sum(xp.exp(x)), 40_000) == 1 and flag(xp.sum(xp.exp(x)), 40_001) == 0
    assert float(xp.sum(xp.exp(x))) == pytest.approx(40_000 * np.e)


def _vectorized_loops(source: str, tmp_path: Path) -> int:
    """How many loops gcc reports vectorizing in ``source`` (compiled as the device does)."""
    import subprocess

    from zyxarray._devices.cpu import CFLAGS, find_compiler
    cc, _ = find_compiler()
    src = tmp_path / "k.c"
    src.write_text(source)
    done = subprocess.run([cc, *CFLAGS, "-fopt-info-vec-optimized", "-o",
                           str(tmp_path / "k.so"), str(src), "-lm"],
                          capture_output=True, text=True, check=True)
    return done.stderr.count("loop vectorized")


def test_loops_of_bools_floors_and_searches_vectorize(tmp_path: Path) -> None:
    """gcc vectorizes no loop that loads a _Bool, converts one to a double, or calls floor
    under its default -ftrapping-math: bool buffers are bytes, a bool becomes a float
    through the integer of its width, and kernels compile with -fno-trapping-math. A
    rejection sampler's block of points then computes its attempts 8 at a time (8,000
    binomials 1.8 -> 0.65 ms), and the values stay NumPy's."""
    if "clang" in registry.get("cpu").compiler_id.lower():
        pytest.skip("the vectorizer's report is gcc's")
    # (more elements than the cpu device computes now: these are kernels)
    h = np.random.default_rng(2).random(6000) * 10 - 5
    x = xp.asarray(h, device="cpu")
    mask = x > 0.5
    np.asarray(mask)                                        # (a bool buffer)
    cases = [(xp.where(mask, x, 1.0) / 3.0, np.where(h > 0.5, h, 1.0) / 3.0),
             (xp.astype(x > 0.5, xp.float64) + xp.floor(x), (h > 0.5) + np.floor(h))]
    for got, want in cases:
        (plan,) = xp.explain(got)
        assert _vectorized_loops(plan.source, tmp_path) > 0, plan.source
        np.testing.assert_array_equal(np.asarray(got), want)
    draws = xp.random.default_rng(4, device="cpu").binomial(200, 0.5, size=3000)
    (plan,) = xp.explain(draws)
    assert plan.strategy == "column" and _vectorized_loops(plan.source, tmp_path) > 0
    assert abs(float(xp.mean(xp.astype(draws, xp.float64))) - 100) < 1
