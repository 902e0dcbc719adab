"""Python loops over small arrays, written as NumPy code is written, timed with NumPy and
with zyxarray in one run (issue 13, item 6: at least NumPy's speed), and with CuPy on a
cuda device where CuPy is installed.

Usage: python bench/loops.py [--device cpu] [--repeat 5] [--json out.json]

Each case is one function taking the array module (``numpy`` or ``zyxarray``); it runs once
to warm up (compiles), then the best of ``--repeat`` runs is kept. The ratio is
numpy_time / zyxarray_time (> 1: zyxarray is faster). Nothing is asserted: these machines
are shared and noisy.
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


def add_one(np: Any) -> float:
    """``x = x + 1`` 10,000 times on a 100-element array, then one read."""
    x = np.zeros(100)
    for _ in range(10_000):
        x = x + 1
    return float(x[0])


def recurrence(np: Any) -> float:
    """``a[i] = a[i - 1] * 0.5 + 1`` over 10,000 elements: scalar indexing, reads and writes."""
    a = np.zeros(10_000)
    for i in range(1, 10_000):
        a[i] = a[i - 1] * 0.5 + 1
    return float(a[-1])


def rows(np: Any) -> float:
    """Iterating over the rows of a 1000 x 8 array, a reduction per row."""
    a = np.arange(8000, dtype=np.float64).reshape(1000, 8)
    total = 0.0
    for row in a:
        total += float(row.sum())
    return total


def element_reads(np: Any) -> float:
    """Reading 5,000 elements one by one into Python floats."""
    a = np.linspace(0, 1, 5000)
    total = 0.0
    for i in range(5000):
        total += float(a[i])
    return total


def training(np: Any) -> float:
    """500 gradient-descent steps of a logistic regression on 200 x 5 data."""
    rng = numpy.random.default_rng(0)
    X = np.asarray(rng.standard_normal((200, 5)))
    y = np.asarray((rng.standard_normal(200) > 0).astype(numpy.float64))
    w = np.zeros(5)
    for _ in range(500):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        w = w - 0.1 * (X.T @ (p - y)) / 200
    return float(w[0])


def loss_each_step(np: Any) -> float:
    """100 steps of a small least-squares descent that reads the loss every step."""
    rng = numpy.random.default_rng(1)
    A = np.asarray(rng.standard_normal((50, 4)))
    b = np.asarray(rng.standard_normal(50))
    x = np.zeros(4)
    losses = []
    for _ in range(100):
        r = A @ x - b
        losses.append(float(r @ r))
        x = x - 0.01 * (A.T @ r)
    return losses[-1]


CASES: list[Callable[[Any], float]] = [add_one, recurrence, rows, element_reads, training,
                                       loss_each_step]


def best(fn: Callable[[], float], repeat: int) -> tuple[float, float]:
    value = fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    registry.set_default(args.device)
    cupy = None
    if args.device.startswith("cuda"):
        try:
            import cupy
        except ImportError:
            cupy = None
    rows_out = []
    header = f"{'case':16} {'numpy':>10} {'zyxarray':>10} {'ratio':>7}"
    if cupy is not None:
        header += f" {'cupy':>10} {'vs cupy':>8}"
    print(f"{header}  device {args.device}")
    for case in CASES:
        t_np, v_np = best(lambda case=case: case(numpy), args.repeat)
        t_zx, v_zx = best(lambda case=case: case(zyxarray), args.repeat)
        ok = abs(v_np - v_zx) <= 1e-6 * max(1.0, abs(v_np))
        row = {"case": case.__name__, "numpy_s": t_np, "zyx_s": t_zx, "ratio": t_np / t_zx,
               "ok": ok}
        cupy_text = ""
        if cupy is not None:
            t_cp, _ = best(lambda case=case: case(cupy), args.repeat)
            row.update(cupy_s=t_cp, vs_cupy=t_cp / t_zx)
            cupy_text = f" {t_cp * 1e3:9.2f}ms {t_cp / t_zx:7.2f}x"
        rows_out.append(row)
        print(f"{case.__name__:16} {t_np * 1e3:9.2f}ms {t_zx * 1e3:9.2f}ms "
              f"{t_np / t_zx:6.2f}x{cupy_text}{'' if ok else '  VALUES DIFFER'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": args.device, "cases": rows_out}, f, indent=1)


if __name__ == "__main__":
    main()
