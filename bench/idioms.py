"""Small NumPy idioms on small arrays (100 elements, a 20 x 10 matrix), each timed with NumPy
and with ``zyxarray`` on one device in one run: the Python per operation that a loop pays.

Usage: python bench/idioms.py [--device cpu] [--only "name;name"]

Prints each idiom's time per call and the ratio, worst first. The expressions are built once
and evaluated many times; results are not observed (a lazy result's kernel is not counted),
so this measures the cost of making each result, which is what a loop over small arrays
pays. Min of three rounds (the machines are shared).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import Any

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import zyxarray
from zyxarray._devices import registry

IDIOMS = {
    "x[2:50]": "x[2:50]", "x[::-1]": "x[::-1]", "A[1:3, :]": "A[1:3, :]", "A[:, 0]": "A[:, 0]",
    "A[i]": "A[3]", "A[i, j]": "A[2, 3]", "concatenate": "np.concatenate([x, y])",
    "stack": "np.stack([x, y])", "x.max()": "x.max()", "argmax": "np.argmax(x)",
    "where": "np.where(x > 0, x, 0.0)", "clip": "np.clip(x, -1, 1)", "dot": "np.dot(x, y)",
    "norm": "np.linalg.norm(x)", "copy": "x.copy()", "x[x > 0]": "x[x > 0]", "x[idx]": "x[idx]",
    "astype": "x.astype(np.float32)", "reshape": "A.reshape(-1)", "sort": "np.sort(x)",
    "cumsum": "np.cumsum(x)", "mean axis 0": "A.mean(axis=0)", "std": "np.std(x)",
    "x * 2 + 1": "x * 2 + 1", "exp": "np.exp(x)", "float(x.sum())": "float(x.sum())",
    "zeros": "np.zeros(100)", "arange": "np.arange(100)", "round": "np.round(x, 2)",
    "allclose": "np.allclose(x, y)", "diff": "np.diff(x)", "outer": "np.outer(x[:10], y[:10])",
    "A.T @ A": "A.T @ A", "unique": "np.unique(idx)", "bincount": "np.bincount(idx)",
    "append": "np.append(x, 1.0)", "roll": "np.roll(x, 1)", "logical_and":
    "np.logical_and(x > 0, y > 0)", "count_nonzero": "np.count_nonzero(x > 0)",
    "percentile": "np.percentile(x, 50)", "median": "np.median(x)",
    "histogram": "np.histogram(x, 5)", "interp": "np.interp(0.3, s, s)",
    "searchsorted": "np.searchsorted(s, 0.3)", "cross": "np.cross(x[:3], y[:3])",
    "x - ints": "x - idx", "isnan any": "np.isnan(x).any()",
}


def _time(fn: Any, n: int = 2000) -> float:
    fn()
    fn()
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def run(np: Any, names: list[str]) -> dict[str, float]:
    rng = numpy.random.default_rng(0)
    env = {"np": np, "x": np.asarray(rng.standard_normal(100)),
           "y": np.asarray(rng.standard_normal(100)),
           "A": np.asarray(rng.standard_normal((20, 10))),
           "idx": np.asarray(rng.integers(0, 10, 100)),
           "s": np.asarray(numpy.sort(rng.random(50)))}
    out = {}
    for name in names:
        code = compile(IDIOMS[name], name, "eval")
        out[name] = _time(lambda c=code: eval(c, env))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--only", help="idiom names separated by semicolons")
    args = parser.parse_args()
    registry.set_default(args.device)
    names = args.only.split(";") if args.only else list(IDIOMS)
    base, ours = run(numpy, names), run(zyxarray, names)
    print(f"{'idiom':18} {'numpy':>9} {'zyxarray':>9} {'ratio':>7}  device {args.device}")
    for name in sorted(names, key=lambda k: base[k] / ours[k]):
        print(f"{name:18} {base[name] * 1e6:7.2f}us {ours[name] * 1e6:7.2f}us "
              f"{base[name] / ours[name]:6.2f}x")

    mean = math.exp(sum(math.log(base[k] / ours[k]) for k in names) / len(names))
    print(f"geometric mean vs NumPy: {mean:.2f}x")


if __name__ == "__main__":
    main()
