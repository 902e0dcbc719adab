"""Small NumPy programs at a million elements and more, timed with NumPy, with zyxarray on a
device and (where installed) with CuPy, in one run (issue 13's target: faster than NumPy on
such arrays).

Usage: python bench/programs.py [--device cpu] [--repeat 5] [--json out.json]

Each program takes the array module and the input data and returns one array; the time is
the best of ``--repeat`` runs after a warm-up (compilation excluded), including reading the
result back to the host. Ratios are NumPy's (or CuPy's) time over zyxarray's: > 1 means
zyxarray is faster. Nothing is asserted: these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import zyxarray
from zyxarray._devices import registry


def standardize(np: Any, data: Any) -> Any:
    """Columns to z-scores, scaled to [0, 1], and each row's norm (4M floats)."""
    z = (data - data.mean(axis=0)) / np.std(data, axis=0, ddof=1)
    scaled = (data - data.min(axis=0)) / np.ptp(data, axis=0)
    return np.linalg.norm(z, axis=1) + scaled.sum(axis=1)


def heat(np: Any, u: Any) -> Any:
    """Ten steps of a 5-point stencil on a 1024 x 1024 grid, padded with zeros each step."""
    for _ in range(10):
        p = np.pad(u, 1)
        u = u + 0.1 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u)
    return u


def clean(np: Any, readings: Any) -> Any:
    """Mask invalid readings, fill them with column means, clip and count (2M floats)."""
    bad = (readings < 0) | (readings > 50)
    masked = np.where(bad, np.nan, readings)
    means = np.nanmean(masked, axis=0)
    filled = np.where(np.isnan(masked), means, masked)
    return np.clip(filled, 1.0, 40.0) * (1 + np.count_nonzero(bad, axis=0))


def softmax_rows(np: Any, x: Any) -> Any:
    """Row softmax then a weighted row sum (4M floats)."""
    e = np.exp(x - x.max(axis=1, keepdims=True))
    s = e / e.sum(axis=1, keepdims=True)
    return (s * x).sum(axis=1)


def inputs(seed: int = 0) -> dict[str, numpy.ndarray]:
    rng = numpy.random.default_rng(seed)
    return {"standardize": rng.standard_normal((500_000, 8)),
            "heat": rng.random((1024, 1024)),
            "clean": rng.normal(20, 15, (2000, 1000)),
            "softmax_rows": rng.standard_normal((4096, 1024))}


PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    "standardize": standardize, "heat": heat, "clean": clean, "softmax_rows": softmax_rows}


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    out = fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    registry.set_default(args.device)
    try:
        import cupy
    except ImportError:
        cupy = None
    data = inputs()
    rows = []
    print(f"{'program':14} {'numpy':>10} {'zyxarray':>10} {'ratio':>7} {'cupy':>10} "
          f"{'vs cupy':>8}  device {args.device}")
    for name, program in PROGRAMS.items():
        host = data[name]
        t_np, want = timed(lambda p=program, h=host: p(numpy, h), args.repeat)
        dev = zyxarray.asarray(host, device=args.device)
        t_zx, got = timed(lambda p=program, d=dev: numpy.asarray(p(zyxarray, d).to_device(
            "cpu")), args.repeat)
        ok = numpy.allclose(got, want, rtol=1e-6, atol=1e-8, equal_nan=True)
        row = {"program": name, "numpy_s": t_np, "zyx_s": t_zx, "ratio": t_np / t_zx,
               "ok": bool(ok)}
        cupy_text = ""
        if cupy is not None and args.device.startswith("cuda"):
            d = cupy.asarray(host)
            t_cp, _ = timed(lambda p=program, d=d: cupy.asnumpy(p(cupy, d)), args.repeat)
            row.update(cupy_s=t_cp, vs_cupy=t_cp / t_zx)
            cupy_text = f"{t_cp * 1e3:9.2f}ms {t_cp / t_zx:7.2f}x"
        rows.append(row)
        print(f"{name:14} {t_np * 1e3:9.2f}ms {t_zx * 1e3:9.2f}ms {t_np / t_zx:6.2f}x "
              f"{cupy_text}{'' if ok else '  VALUES DIFFER'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": args.device, "programs": rows}, f, indent=1)


if __name__ == "__main__":
    main()
