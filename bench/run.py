"""Side-by-side benchmarks: zyxarray against NumPy in one run (issue 2's targets).

Usage: python bench/run.py [--device cpu] [--quick] [--json out.json]

Each case times NumPy and zyxarray on the same data (best of several runs after a warm-up,
so compilation is excluded except where a case measures it) and prints the ratio
numpy_time / zyxarray_time (> 1 means zyxarray is faster). Timings are never asserted: these
machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import zyxarray as xp


def best(fn: Callable[[], object], repeat: int = 7) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def sync(a: xp.Array) -> None:
    """Force a realization without a host copy of the whole result."""
    from zyxarray._lazy.realize import realize
    realize(a._node)


def case_chain(dev: str, n: int) -> dict:
    rng = np.random.default_rng(0)
    hs = [rng.standard_normal(n, dtype=np.float32) for _ in range(5)]
    zs = [xp.asarray(h, device=dev) for h in hs]
    a, b, c, d, e = hs
    za, zb, zc, zd, ze = zs
    t_np = best(lambda: a * b + c * d - np.exp(e) * 0.5)
    t_zx = best(lambda: sync(za * zb + zc * zd - xp.exp(ze) * 0.5))
    y = za * zb + zc * zd - xp.exp(ze) * 0.5
    ok = np.allclose(np.asarray(y), a * b + c * d - np.exp(e) * 0.5, rtol=1e-5, atol=1e-5)
    gbs = 6 * n * 4 / t_zx / 1e9
    return {"case": f"a*b+c*d-exp(e)*0.5, {n} f32", "numpy_s": t_np, "zyx_s": t_zx,
            "ratio": t_np / t_zx, "target": 5.0, "ok": ok, "note": f"{gbs:.1f} GB/s"}


def case_reduce(dev: str, n: int) -> list[dict]:
    rng = np.random.default_rng(1)
    h = rng.standard_normal((n, n), dtype=np.float32)
    z = xp.asarray(h, device=dev)
    out = []
    for name, fnp, fzx, target in (
        ("sum all", lambda: h.sum(), lambda: sync(xp.sum(z)), 1.5),
        ("sum axis=1", lambda: h.sum(axis=1), lambda: sync(xp.sum(z, axis=1)), 1.5),
        ("var axis=0", lambda: h.var(axis=0), lambda: sync(xp.var(z, axis=0)), 4.0),
    ):
        t_np, t_zx = best(fnp), best(fzx)
        out.append({"case": f"{name}, {n}x{n} f32", "numpy_s": t_np, "zyx_s": t_zx,
                    "ratio": t_np / t_zx, "target": target, "ok": True, "note": ""})
    out[0]["ok"] = abs(float(xp.sum(z)) - float(h.astype(np.float64).sum())) <= \
        abs(float(h.sum()) - float(h.astype(np.float64).sum())) + 1e-3 * n
    out[2]["ok"] = np.allclose(np.asarray(xp.var(z, axis=0)), h.var(axis=0), rtol=1e-4)
    return out


def _softmax_np(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _softmax_zx(x: xp.Array) -> xp.Array:
    e = xp.exp(x - xp.max(x, axis=1, keepdims=True))
    return e / xp.sum(e, axis=1, keepdims=True)


def _layernorm_np(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
    mu = x.mean(axis=1, keepdims=True)
    v = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(v + 1e-5) * g + b


def _layernorm_zx(x: xp.Array, g: xp.Array, b: xp.Array) -> xp.Array:
    mu = xp.mean(x, axis=1, keepdims=True)
    v = xp.mean((x - mu) ** 2, axis=1, keepdims=True)
    return (x - mu) / xp.sqrt(v + 1e-5) * g + b


def case_rows(dev: str, rows: int, cols: int) -> list[dict]:
    rng = np.random.default_rng(2)
    h = rng.standard_normal((rows, cols), dtype=np.float32)
    hg = rng.standard_normal(cols, dtype=np.float32)
    hb = rng.standard_normal(cols, dtype=np.float32)
    z, zg, zb = (xp.asarray(v, device=dev) for v in (h, hg, hb))
    out = []
    t_np, t_zx = best(lambda: _softmax_np(h), 15), best(lambda: sync(_softmax_zx(z)), 15)
    ok = np.allclose(np.asarray(_softmax_zx(z)), _softmax_np(h), rtol=1e-4, atol=1e-6)
    out.append({"case": f"row softmax {rows}x{cols} f32", "numpy_s": t_np, "zyx_s": t_zx,
                "ratio": t_np / t_zx, "target": 4.0, "ok": ok,
                "note": f"{len(xp.explain(_softmax_zx(z)))} kernel(s)"})
    t_np = best(lambda: _layernorm_np(h, hg, hb))
    t_zx = best(lambda: sync(_layernorm_zx(z, zg, zb)))
    ok = np.allclose(np.asarray(_layernorm_zx(z, zg, zb)), _layernorm_np(h, hg, hb),
                     rtol=1e-3, atol=1e-4)
    out.append({"case": f"row layernorm {rows}x{cols} f32", "numpy_s": t_np, "zyx_s": t_zx,
                "ratio": t_np / t_zx, "target": 4.0, "ok": ok,
                "note": f"{len(xp.explain(_layernorm_zx(z, zg, zb)))} kernel(s)"})
    return out


def case_where_clip(dev: str, n: int) -> dict:
    rng = np.random.default_rng(3)
    h = rng.standard_normal(n, dtype=np.float32)
    z = xp.asarray(h, device=dev)
    t_np = best(lambda: np.clip(np.where(h > 0, h, 0.1 * h), -0.5, 0.5))
    t_zx = best(lambda: sync(xp.clip(xp.where(z > 0, z, 0.1 * z), -0.5, 0.5)))
    ok = np.allclose(np.asarray(xp.clip(xp.where(z > 0, z, 0.1 * z), -0.5, 0.5)),
                     np.clip(np.where(h > 0, h, 0.1 * h), -0.5, 0.5))
    return {"case": f"where(x>0,x,0.1x)+clip, {n} f32", "numpy_s": t_np, "zyx_s": t_zx,
            "ratio": t_np / t_zx, "target": 10.0, "ok": ok, "note": ""}


_COMPILE_CHILD = """
import time, numpy as np, zyxarray as xp
from zyxarray._lazy.realize import realize
x = xp.asarray(np.arange(1000, dtype=np.float32), device={dev!r})
t0 = time.perf_counter()
y = xp.tanh(x * {k}.5 + 1.25) * xp.sqrt(x + 2.0) - xp.sin(x) / (x + 3.0)
realize(y._node)
print(time.perf_counter() - t0)
"""


def case_compile(dev: str) -> list[dict]:
    """First realization of a never-seen kernel (fresh cache dir), then from the disk cache."""
    out = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ZYXARRAY_CACHE_DIR=cache)
        # a user's zyxarray has its bytecode (pip compiles it at install); a checkout run with
        # PYTHONDONTWRITEBYTECODE=1 would compile every module in each child instead and time
        # that (about 10 ms)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        subprocess.run([sys.executable, "-c", "import zyxarray._codegen.c"], env=env,
                       check=True, cwd=repo)
        code = _COMPILE_CHILD.format(dev=dev, k=1)
        times = []
        for _ in range(2):
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               env=env, check=True, cwd=repo)
            times.append(float(r.stdout.strip().splitlines()[-1]))
    out.append({"case": "first realization incl. compile", "numpy_s": float("nan"),
                "zyx_s": times[0], "ratio": float("nan"), "target": "< 0.300 s", "ok": True,
                "note": ""})
    out.append({"case": "first realization from disk cache", "numpy_s": float("nan"),
                "zyx_s": times[1], "ratio": float("nan"), "target": "< 0.020 s", "ok": True,
                "note": ""})
    return out


def case_overhead(dev: str) -> list[dict]:
    h = np.arange(100, dtype=np.float32)
    z = xp.asarray(h, device=dev)
    t_np = best(lambda: (h * 2 + 1).sum(), 50)
    t_zx = best(lambda: float(xp.sum(z * 2 + 1)), 50)
    out = [{"case": "cache-hit realization, 100 elements", "numpy_s": t_np, "zyx_s": t_zx,
            "ratio": t_np / t_zx, "target": "< 50 us", "ok": True, "note": ""}]

    def chain_np() -> float:
        y = h
        for _ in range(200):
            y = y * 0.999 + 0.001
        return float(y[0])

    def chain_zx() -> float:
        y = z
        for _ in range(200):
            y = y * 0.999 + 0.001
        return float(y[0])

    t_np, t_zx = best(chain_np, 5), best(chain_zx, 5)
    out.append({"case": "200 dependent ops (100 elems) + read", "numpy_s": t_np, "zyx_s": t_zx,
                "ratio": t_np / t_zx, "target": "< 10 us/op", "ok":
                abs(chain_zx() - chain_np()) < 1e-3,
                "note": f"{1e6 * t_zx / 400:.2f} us/op (400 ops)"})
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--device", default="cpu")
    p.add_argument("--quick", action="store_true", help="smaller sizes (smoke run)")
    p.add_argument("--json", help="also write the results here")
    args = p.parse_args()
    q = args.quick
    results = [case_chain(args.device, 1_000_000 if q else 10_000_000)]
    results += case_reduce(args.device, 1024 if q else 4096)
    results += case_rows(args.device, 1024 if q else 4096, 1024)
    results.append(case_where_clip(args.device, 1_000_000 if q else 10_000_000))
    results += case_compile(args.device)
    results += case_overhead(args.device)
    print(f"device: {args.device}  numpy {np.__version__}  threads {os.cpu_count()}")
    print(f"{'case':<42}{'numpy ms':>10}{'zyx ms':>10}{'ratio':>8}  target      ok  note")
    for r in results:
        print(f"{r['case']:<42}{1e3 * r['numpy_s']:>10.3f}{1e3 * r['zyx_s']:>10.3f}"
              f"{r['ratio']:>8.2f}  {r['target']!s:<10}  {'yes' if r['ok'] else 'NO':<3} "
              f"{r['note']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
