"""Python overhead of small computations on one device (issue 2's overhead targets).

Usage: python bench/overhead.py [--device cpu] [--repeat N] [--profile small|chain]

- ``small``: ``float(xp.sum(z * 2 + 1))`` on a 100-element float32 array whose kernel is
  already compiled: building the expression, scheduling, launching and reading back.
- ``chain``: 200 iterations of ``y = y * 0.999 + 0.001`` (400 dependent ops, one fused
  kernel) on 100 elements, then ``float(y[0])``; reported per op.
- ``softmax``: a row softmax of 8x16 float32 (two reductions, broadcasts, one kernel),
  realized without a read: the Python cost of a small non-elementwise graph.

Min of N repeats (the machines are shared); ``--profile`` runs cProfile on one case instead.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
import run

import zyxarray as xp


def best(fn, repeat: int) -> float:
    fn()         # one more warm-up than run.best's: the first call may compile
    return run.best(fn, repeat)


def cases(dev: str):
    z = xp.asarray(np.arange(100, dtype=np.float32), device=dev)

    def small() -> float:
        return float(xp.sum(z * 2 + 1))

    def chain() -> float:
        y = z
        for _ in range(200):
            y = y * 0.999 + 0.001
        return float(y[0])

    x = xp.asarray(np.random.default_rng(0).random((8, 16), dtype=np.float32), device=dev)

    def softmax() -> None:
        e = xp.exp(x - xp.max(x, axis=1, keepdims=True))
        realize(e / xp.sum(e, axis=1, keepdims=True))

    return small, chain, softmax


def realize(a: xp.Array) -> None:
    from zyxarray._lazy.realize import realize as r
    r(a._node)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--device", default="cpu")
    p.add_argument("--repeat", type=int, default=2000)
    p.add_argument("--profile", choices=["small", "chain", "softmax"])
    args = p.parse_args()
    small, chain, softmax = cases(args.device)
    if args.profile:
        import cProfile
        import pstats
        fn = {"small": small, "chain": chain, "softmax": softmax}[args.profile]
        n = 100 if args.profile == "chain" else 5000
        fn()
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(n):
            fn()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return
    t_small = best(small, args.repeat)
    t_chain = best(chain, max(args.repeat // 40, 5))
    t_softmax = best(softmax, args.repeat)
    load = os.getloadavg()[0]
    print(f"cache-hit realization, 100 elements: {1e6 * t_small:7.1f} us   (target < 50 us)")
    print(f"200 x (y*0.999+0.001) + read:         {1e6 * t_chain / 400:7.2f} us/op "
          f"({1e3 * t_chain:.2f} ms, target < 10 us/op)")
    print(f"row softmax 8x16, realized:          {1e6 * t_softmax:7.1f} us")
    print(f"min of {args.repeat} / {max(args.repeat // 40, 5)} repeats, load average {load:.2f}")


if __name__ == "__main__":
    main()
