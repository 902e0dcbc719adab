"""Throughput of the vectorizable C math helpers (zyxarray/_codegen/c_math.py) against NumPy.

Run: ``python bench/bench_c_math.py [N] [name ... | all]`` (default: exp over 10M elements,
float32 and float64). Single-threaded on both sides: the loop has no ``#pragma omp``, so the
ratio measures the math, not the thread count. Needs gcc and cffi; imports only c_math (by
path) from zyxarray.
"""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys
import tempfile
import time

import cffi
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
FLAGS = ["-std=gnu11", "-O3", "-march=native", "-fPIC", "-shared", "-fopenmp", "-fwrapv",
         "-fno-math-errno", "-ffp-contract=off"]
BINARY = {"atan2", "pow"}
NUMPY = {"exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2,
         "log10": np.log10, "log1p": np.log1p, "sin": np.sin, "cos": np.cos, "tan": np.tan,
         "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "atan2": np.arctan2,
         "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
         "acosh": np.arccosh, "atanh": np.arctanh, "pow": np.power}
# Inputs inside each function's domain, so neither side spends its time on NaN paths.
DOMAIN = {"log": (0.01, 100.0), "log2": (0.01, 100.0), "log10": (0.01, 100.0),
          "log1p": (-0.9, 100.0), "asin": (-1.0, 1.0), "acos": (-1.0, 1.0),
          "atanh": (-0.99, 0.99), "acosh": (1.0, 100.0), "pow": (0.01, 10.0),
          "exp": (-80.0, 80.0), "exp2": (-120.0, 120.0), "expm1": (-80.0, 80.0),
          "sinh": (-80.0, 80.0), "cosh": (-80.0, 80.0)}


def load_c_math():
    path = ROOT / "zyxarray" / "_codegen" / "c_math.py"
    spec = importlib.util.spec_from_file_location("zyx_c_math_bench", path)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def build(c_math, names: list[str], tmp: str):
    src = [c_math.preamble([(n, s) for n in names for s in ("f32", "f64")])]
    decls = []
    for n in names:
        for s, t in (("f32", "float"), ("f64", "double")):
            if n in BINARY:
                sig = f"void run_{n}_{s}(const {t}* x, const {t}* y, {t}* o, int64_t k)"
                call = f"zx_{n}_{s}(x[i], y[i])"
            else:
                sig = f"void run_{n}_{s}(const {t}* x, {t}* o, int64_t k)"
                call = f"zx_{n}_{s}(x[i])"
            src.append(sig + f" {{ for (int64_t i = 0; i < k; i++) o[i] = {call}; }}")
            decls.append(sig + ";")
    c_file = pathlib.Path(tmp) / "bench.c"
    so_file = pathlib.Path(tmp) / "bench.so"
    c_file.write_text("\n".join(src) + "\n")
    subprocess.run(["gcc", *FLAGS, str(c_file), "-o", str(so_file), "-lm"], check=True)
    ffi = cffi.FFI()
    ffi.cdef("\n".join(decls))
    return ffi, ffi.dlopen(str(so_file))


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    c_math = load_c_math()
    names = sys.argv[2:] or ["exp"]
    if names == ["all"]:
        names = ["exp"] + sorted(c_math.FUNCTIONS - {"exp"})
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        ffi, lib = build(c_math, names, tmp)
        print(f"{'function':10s} {'ours ns/elem':>13s} {'numpy ns/elem':>14s} {'speedup':>8s}")
        for name in names:
            for s, dt, ct in (("f32", np.float32, "float"), ("f64", np.float64, "double")):
                lo, hi = DOMAIN.get(name, (-10.0, 10.0))
                args = [rng.uniform(lo, hi, n).astype(dt)]
                if name in BINARY:
                    args.append(rng.uniform(-5.0, 5.0, n).astype(dt))
                out = np.empty(n, dt)
                ptrs = [ffi.cast(f"{ct}*", ffi.from_buffer(a)) for a in (*args, out)]
                fn = getattr(lib, f"run_{name}_{s}")
                ours = best_of(lambda fn=fn, ptrs=ptrs: fn(*ptrs, n))
                ref = NUMPY[name]
                theirs = best_of(lambda ref=ref, args=args, out=out: ref(*args, out=out))
                print(f"{name + ' ' + s:10s} {ours / n * 1e9:13.2f} {theirs / n * 1e9:14.2f} "
                      f"{theirs / ours:7.2f}x")


if __name__ == "__main__":
    main()
