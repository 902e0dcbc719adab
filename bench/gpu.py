"""GPU benchmarks: zyxarray on a cuda, opencl or vulkan device side by side with CuPy, in one run
(issues 4 and 5's targets). Run on the GPU machine (see ``make gpu-bench`` and GPU.md).

Usage: python bench/gpu.py [--device cuda:0] [--json out.json] [--quick] [--latency]

Each case times CuPy and zyxarray on the same data the same way (after a warm-up, ten calls
back to back and one synchronization, best of five: the steady state of code that does not
wait for each result; Python's own cost per call counts when it exceeds the kernel's; the
latency-bound cases, dependent ops and a scalar read, time single calls in alternating rounds
of CuPy and zyxarray, best of 200 each) and prints the ratio
cupy_time / zyxarray_time (> 1: zyxarray is faster) and, for memory-bound cases, the
useful traffic in TB/s and its fraction of the device-to-device copy bandwidth. The row
cases (softmax, layer norm, logsumexp, var, argmax, cumulative_sum) also give their time on
the device (from the device's own timers, the ``profile`` topic: CUDA events after a short
spin, so that the launch is queued before the first event; Vulkan timestamps) and that
bandwidth: the wall time of one such call is mostly Python. Their 32 MB input can stay in
an H100's 50 MB L2 cache between calls (var then reads it at more than the copy's
bandwidth); Nsight Compute, which flushes the caches, gives longer times.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import zyxarray as xp
from zyxarray._devices import registry
from zyxarray._lazy.realize import realize


def best(fn: Callable[[], object], sync: Callable[[], None], repeat: int = 5,
         batch: int = 10) -> float:
    """Seconds per call in steady state: ``batch`` calls back to back (launches queue up
    asynchronously, as in real code), then a synchronization; the best of ``repeat``."""
    fn()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        sync()
        times.append((time.perf_counter() - t0) / batch)
    return min(times)


def best_paired(fa: Callable[[], object], fb: Callable[[], object],
                sync_a: Callable[[], None], sync_b: Callable[[], None], rounds: int = 10,
                repeat: int = 20) -> tuple[float, float]:
    """Seconds per call of ``fa`` and of ``fb``, one call then a synchronization, the best
    over ``rounds`` alternating rounds of ``repeat`` calls each. For latency-bound cases:
    the host's speed drifts on a shared machine, and alternating puts both sides under the
    same drift."""
    out = [float("inf"), float("inf")]
    for _ in range(rounds):
        for k, (fn, sync) in enumerate(((fa, sync_a), (fb, sync_b))):
            fn()
            sync()
            for _ in range(repeat):
                t0 = time.perf_counter()
                fn()
                sync()
                out[k] = min(out[k], time.perf_counter() - t0)
    return out[0], out[1]


class Bench:
    def __init__(self, device: str) -> None:
        import cupy as cp
        self.cp = cp
        self.dev = registry.get(device)
        self.name = device
        self.results: list[dict] = []
        self.copy_bw = 0.0      # bytes/s of a device-to-device copy (``copy_bandwidth``)

    def zsync(self) -> None:
        self.dev.synchronize()

    def csync(self) -> None:
        self.cp.cuda.Device().synchronize()

    def run(self, a: xp.Array) -> None:
        realize(a._node)

    def device_time(self, fn: Callable[[], xp.Array], calls: int = 10) -> float | None:
        """Seconds on the device per call of ``fn`` (all its kernels), the median of
        ``calls``, from the device's own timers (the ``profile`` topic: CUDA events around
        each launch, Vulkan timestamps); None where the device keeps no kernel times."""
        import contextlib
        import io
        import statistics

        from zyxarray import _debug
        times = getattr(self.dev, "kernel_times", None)
        if times is None:
            return None
        self.run(fn())
        self.zsync()
        per_call = []
        with _debug.debug("profile"), contextlib.redirect_stderr(io.StringIO()):
            for _ in range(calls):
                times.clear()
                self.run(fn())
                self.zsync()
                per_call.append(sum(sum(v) for v in times.values()))
        return statistics.median(per_call)

    def device_note(self, fn: Callable[[], xp.Array], traffic: float, copy_bw: float) -> str:
        t = self.device_time(fn) if copy_bw > 0 else None
        if t is None or t <= 0:
            return ""
        return f"; on the device {t * 1e6:.1f} us, {traffic / t / copy_bw:.0%} of copy bandwidth"

    def add(self, case: str, t_cp: float | None, t_zx: float, target: str, ok: bool,
            traffic: float | None = None, note: str = "") -> None:
        r = {"case": case, "cupy_s": t_cp, "zyx_s": t_zx,
             "ratio": (t_cp / t_zx) if t_cp else None, "target": target, "ok": bool(ok),
             "note": note}
        if traffic is not None:
            r["zyx_TBps"] = traffic / t_zx / 1e12
            if t_cp:
                r["cupy_TBps"] = traffic / t_cp / 1e12
        self.results.append(r)

    # -- cases ----------------------------------------------------------------------------
    def copy_bandwidth(self, n: int) -> float:
        cp = self.cp
        a = cp.ones(n, cp.float32)
        b = cp.empty_like(a)
        t = best(lambda: b.__setitem__(Ellipsis, a), self.csync)
        bw = 2 * 4 * n / t
        self.add("device-to-device copy (CuPy)", t, t, "-", True, 2 * 4 * n, "reference")
        zdev = self.dev
        if hasattr(zdev, "copy"):
            za, zb = zdev.alloc(4 * n), zdev.alloc(4 * n)
            zdev.fill_zero(za)
            tz = best(lambda: zdev.copy(zb, za), self.zsync)
            self.add(f"device-to-device copy ({self.name} runtime)", t, tz, "-", True,
                     2 * 4 * n, "reference")
        self.copy_bw = bw
        return bw

    def chain(self, n: int, copy_bw: float) -> None:
        cp = self.cp
        rng = np.random.default_rng(0)
        hs = [rng.standard_normal(n, dtype=np.float32) for _ in range(5)]
        cs = [cp.asarray(h) for h in hs]
        zs = [xp.asarray(h, device=self.name) for h in hs]

        def f(a, b, c, d, e, m):  # type: ignore[no-untyped-def]
            return a * b + c * d - m.exp(e) * 0.5

        def chain5(a, b, c, d, e):  # type: ignore[no-untyped-def]
            return a * b + c * d - cp.exp(e) * 0.5

        fused = cp.fuse(chain5)
        t_plain = best(lambda: f(*cs, cp), self.csync)
        t_fuse = best(lambda: fused(*cs), self.csync)
        t_zx = best(lambda: self.run(f(*zs, xp)), self.zsync)
        ok = np.allclose(np.asarray(f(*zs, xp)), cp.asnumpy(fused(*cs)), rtol=1e-5, atol=1e-5)
        traffic = 6 * 4 * n
        self.add(f"5-input chain, 2^{n.bit_length() - 1} f32 vs cupy.fuse", t_fuse, t_zx,
                 ">= 1x fuse", ok, traffic,
                 f"{traffic / t_zx / copy_bw:.0%} of copy bandwidth")
        self.add("  same vs CuPy unfused expression", t_plain, t_zx, ">= 4x", ok, traffic)

    def softmax(self, rows: int, cols: int) -> None:
        cp = self.cp
        h = np.random.default_rng(1).standard_normal((rows, cols), dtype=np.float32)
        c, z = cp.asarray(h), xp.asarray(h, device=self.name)

        def sm(x, m):  # type: ignore[no-untyped-def]
            e = m.exp(x - m.max(x, axis=1, keepdims=True))
            return e / m.sum(e, axis=1, keepdims=True)

        t_cp = best(lambda: sm(c, cp), self.csync)
        t_zx = best(lambda: self.run(sm(z, xp)), self.zsync)
        ok = np.allclose(np.asarray(sm(z, xp)), cp.asnumpy(sm(c, cp)), rtol=1e-4, atol=1e-6)
        self.add(f"row softmax {rows}x{cols} f32", t_cp, t_zx, ">= 3x", ok, 2 * 4 * h.size,
                 f"{len(xp.explain(sm(z, xp)))} kernel(s)"
                 + self.device_note(lambda: sm(z, xp), 2 * 4 * h.size, self.copy_bw))

    def sums(self, n: int, copy_bw: float) -> None:
        cp = self.cp
        h = np.random.default_rng(2).standard_normal((n, n), dtype=np.float32)
        c, z = cp.asarray(h), xp.asarray(h, device=self.name)
        for axis, target in ((0, ">= 2x"), (1, ">= 70% copy bw")):
            t_cp = best(lambda ax=axis: c.sum(axis=ax), self.csync)
            t_zx = best(lambda ax=axis: self.run(xp.sum(z, axis=ax)), self.zsync)
            ok = np.allclose(np.asarray(xp.sum(z, axis=axis)), cp.asnumpy(c.sum(axis=axis)),
                             rtol=1e-3, atol=1e-2)
            traffic = 4 * h.size
            self.add(f"sum axis={axis} of {n}x{n} f32", t_cp, t_zx, target, ok, traffic,
                     f"{traffic / t_zx / copy_bw:.0%} of copy bandwidth")
        t_cp = best(lambda: c.sum(), self.csync)
        t_zx = best(lambda: self.run(xp.sum(z)), self.zsync)
        ok = abs(float(xp.sum(z)) - float(c.sum())) < 1e-2 * n
        self.add(f"sum of all {n}x{n} f32", t_cp, t_zx, "-", ok, 4 * h.size)

    def matmul(self, n: int) -> None:
        cp = self.cp
        rng = np.random.default_rng(3)
        a, b = (rng.standard_normal((n, n), dtype=np.float32) for _ in range(2))
        ca, cb = cp.asarray(a), cp.asarray(b)
        za, zb = xp.asarray(a, device=self.name), xp.asarray(b, device=self.name)
        t_cp = best(lambda: ca @ cb, self.csync, 3)
        t_zx = best(lambda: self.run(za @ zb), self.zsync, 3)
        ok = np.allclose(np.asarray(za @ zb), cp.asnumpy(ca @ cb), rtol=1e-3, atol=1e-2)
        self.add(f"matmul {n}^3 f32", t_cp, t_zx, ">= 0.95x", ok, None,
                 f"{2 * n ** 3 / t_zx / 1e12:.1f} TFLOP/s")

    def rows(self, rows: int, cols: int, copy_bw: float) -> None:
        """Row kernels of issue 14 (8192x1024 f32): each against CuPy's plain expression, with
        its useful traffic (read the input once, write the output) as a fraction of the copy
        bandwidth (target 80%)."""
        cp = self.cp
        h = np.random.default_rng(4).standard_normal((rows, cols), dtype=np.float32)
        gh = np.random.default_rng(5).standard_normal(cols, dtype=np.float32)
        c, z = cp.asarray(h), xp.asarray(h, device=self.name)
        cg, zg = cp.asarray(gh), xp.asarray(gh, device=self.name)

        def layer_norm(x, g, m):  # type: ignore[no-untyped-def]
            mu = m.mean(x, axis=1, keepdims=True)
            var = m.mean((x - mu) ** 2, axis=1, keepdims=True)
            return (x - mu) / m.sqrt(var + 1e-5) * g

        def logsumexp(x, g, m):  # type: ignore[no-untyped-def]
            mx = m.max(x, axis=1, keepdims=True)
            return m.log(m.sum(m.exp(x - mx), axis=1)) + mx[:, 0]

        def var(x, g, m):  # type: ignore[no-untyped-def]
            return m.var(x, axis=1)

        def argmax(x, g, m):  # type: ignore[no-untyped-def]
            return m.argmax(x, axis=1)

        def cumsum(x, g, m):  # type: ignore[no-untyped-def]
            return m.cumsum(x, axis=1) if m is cp else m.cumulative_sum(x, axis=1)

        n_out = {"layer norm": h.size, "logsumexp": rows, "var": rows, "argmax": rows * 2,
                 "cumulative_sum": h.size}
        for name, fn, target in (("layer norm", layer_norm, ">= 80% copy bw"),
                                 ("logsumexp", logsumexp, ">= 80% copy bw"),
                                 ("var", var, ">= 80% copy bw"),
                                 ("argmax", argmax, ">= 1x"),
                                 ("cumulative_sum", cumsum, ">= 1x")):
            t_cp = best(lambda f=fn: f(c, cg, cp), self.csync)
            t_zx = best(lambda f=fn: self.run(f(z, zg, xp)), self.zsync)
            ok = np.allclose(np.asarray(fn(z, zg, xp)), cp.asnumpy(fn(c, cg, cp)),
                             rtol=1e-3, atol=1e-3)
            traffic = 4 * (h.size + n_out[name])
            self.add(f"{name} along rows {rows}x{cols} f32", t_cp, t_zx, target, ok, traffic,
                     f"{traffic / t_zx / copy_bw:.0%} of copy bandwidth, "
                     f"{len(xp.explain(fn(z, zg, xp)))} kernel(s)"
                     + self.device_note(lambda f=fn: f(z, zg, xp), traffic, copy_bw))

    def layouts(self, copy_bw: float, quick: bool) -> None:
        """A mean over the middle axis of a 3-D array and ``x + x.T`` (a transposed read)."""
        cp = self.cp
        shape = (64, 128, 64) if quick else (256, 512, 256)
        h = np.random.default_rng(6).standard_normal(shape, dtype=np.float32)
        c, z = cp.asarray(h), xp.asarray(h, device=self.name)
        t_cp = best(lambda: c.mean(axis=1), self.csync)
        t_zx = best(lambda: self.run(xp.mean(z, axis=1)), self.zsync)
        ok = np.allclose(np.asarray(xp.mean(z, axis=1)), cp.asnumpy(c.mean(axis=1)),
                         rtol=1e-4, atol=1e-5)
        traffic = 4 * (h.size + h.size // shape[1])
        self.add(f"mean over axis 1 of {shape} f32", t_cp, t_zx, ">= 1x", ok, traffic,
                 f"{traffic / t_zx / copy_bw:.0%} of copy bandwidth")
        n = 1024 if quick else 8192
        h = np.random.default_rng(7).standard_normal((n, n), dtype=np.float32)
        c, z = cp.asarray(h), xp.asarray(h, device=self.name)
        t_cp = best(lambda: c + c.T, self.csync)
        t_zx = best(lambda: self.run(z + z.T), self.zsync)
        ok = np.array_equal(np.asarray(z + z.T), cp.asnumpy(c + c.T))
        traffic = 3 * 4 * h.size
        self.add(f"x + x.T, {n}x{n} f32", t_cp, t_zx, ">= 1x", ok, traffic,
                 f"{traffic / t_zx / copy_bw:.0%} of copy bandwidth")

    def matmul_epilogue(self, n: int) -> None:
        """``relu(A @ B + bias)`` against CuPy's unfused expression."""
        cp = self.cp
        rng = np.random.default_rng(8)
        a, b = (rng.standard_normal((n, n), dtype=np.float32) for _ in range(2))
        bias = rng.standard_normal(n, dtype=np.float32)
        ca, cb, cbias = cp.asarray(a), cp.asarray(b), cp.asarray(bias)
        za, zb, zbias = (xp.asarray(v, device=self.name) for v in (a, b, bias))
        t_cp = best(lambda: cp.maximum(ca @ cb + cbias, 0), self.csync, 3)
        t_zx = best(lambda: self.run(xp.maximum(za @ zb + zbias, 0)), self.zsync, 3)
        ok = np.allclose(np.asarray(xp.maximum(za @ zb + zbias, 0)),
                         cp.asnumpy(cp.maximum(ca @ cb + cbias, 0)), rtol=1e-3, atol=1e-2)
        self.add(f"relu(A @ B + bias) {n}^3 f32", t_cp, t_zx, ">= 1x", ok, None,
                 f"{2 * n ** 3 / t_zx / 1e12:.1f} TFLOP/s")

    def dependent_ops(self) -> None:
        cp = self.cp
        h = np.arange(100, dtype=np.float32)
        c, z = cp.asarray(h), xp.asarray(h, device=self.name)

        def chain(x, read):  # type: ignore[no-untyped-def]
            for _ in range(100):
                x = x * 0.999 + 0.001
            return read(x)

        t_cp, t_zx = best_paired(lambda: chain(c, lambda y: float(y[0])),
                                 lambda: chain(z, lambda y: float(y[0])), self.csync,
                                 self.zsync)
        ok = abs(chain(z, lambda y: float(y[0])) - chain(c, lambda y: float(y[0]))) < 1e-3
        self.add("200 dependent ops (100 elems) + read", t_cp, t_zx, ">= 10x", ok, None,
                 f"zyx {1e6 * t_zx / 200:.2f} us/op, cupy {1e6 * t_cp / 200:.2f} us/op")


    def scalar_read(self) -> None:
        """``float(x[0])`` of a realized 100-element array: the latency of one small read."""
        h = np.arange(100, dtype=np.float32)
        c, z = self.cp.asarray(h), xp.asarray(h, device=self.name) * 1
        self.run(z)
        self.zsync()
        t_cp, t_zx = best_paired(lambda: float(c[0]), lambda: float(z[0]), self.csync,
                                 self.zsync)
        self.add("scalar read float(x[0])", t_cp, t_zx, "-", float(z[0]) == float(c[0]))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--device", default="cuda:0")
    p.add_argument("--json", help="also write the results here")
    p.add_argument("--quick", action="store_true", help="smaller sizes (smoke run)")
    p.add_argument("--only", help="comma-separated case groups: chain, softmax, sums, matmul, "
                   "rows, layouts, latency")
    p.add_argument("--latency", action="store_true",
                   help="only the latency-bound cases (dependent ops, scalar read)")
    args = p.parse_args()
    b = Bench(args.device)
    q = args.quick
    groups = set(args.only.split(",")) if args.only else (
        {"latency"} if args.latency else
        {"chain", "softmax", "sums", "matmul", "rows", "layouts", "latency"})
    bw = b.copy_bandwidth(1 << (20 if q else 27)) if groups - {"latency"} else 0.0
    if "chain" in groups:
        b.chain(1 << (20 if q else 27), bw)
    if "softmax" in groups:
        b.softmax(1024 if q else 8192, 1024)
    if "sums" in groups:
        b.sums(1024 if q else 8192, bw)
    if "matmul" in groups:
        # (cuBLAS on cuda:N, the generated g_matmul kernel elsewhere: 2048^3 there)
        size = 512 if q else (4096 if args.device.startswith("cuda") else 2048)
        b.matmul(size)
        b.matmul_epilogue(size)
    if "rows" in groups:
        b.rows(1024 if q else 8192, 1024, bw)
    if "layouts" in groups:
        b.layouts(bw, q)
    if "latency" in groups:
        b.dependent_ops()
        b.scalar_read()
    print(f"device: {args.device} ({b.dev.info.description})")
    print(f"{'case':<46}{'cupy ms':>10}{'zyx ms':>10}{'ratio':>8}{'zyx TB/s':>10}  target")
    for r in b.results:
        cp_ms = f"{1e3 * r['cupy_s']:.3f}" if r["cupy_s"] else "-"
        ratio = f"{r['ratio']:.2f}" if r["ratio"] else "-"
        tb = f"{r['zyx_TBps']:.2f}" if "zyx_TBps" in r else "-"
        print(f"{r['case']:<46}{cp_ms:>10}{1e3 * r['zyx_s']:>10.3f}{ratio:>8}{tb:>10}  "
              f"{r['target']:<14} {'ok' if r['ok'] else 'WRONG'} {r['note']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(b.results, f, indent=1)


if __name__ == "__main__":
    main()
