"""Statistics of an array four times larger than one dask worker's memory, computed by
zyxarray on the workers (and the same with NumPy chunks, for comparison).

    python examples/dask_bigger_than_memory.py [--gib 1.0] [--workers 2] [--numpy]

A LocalCluster of worker processes, each allowed ``gib / 4`` of memory, draws the array
chunk by chunk with ``da.random`` (a zyxarray generator: the numbers are made on the
workers, inside the kernels that reduce them, and never exist whole anywhere), then
computes per-column means and standard deviations, the overall maximum and a count of
values beyond three sigma. The results come back to the client as zyxarray arrays.

One worker per GPU: start each worker with its own default device, e.g.
``ZYXARRAY_DEVICE=cuda:0 dask worker tcp://scheduler:8786 --nworkers 1`` and
``ZYXARRAY_DEVICE=cuda:1 dask worker ...`` (or ``CUDA_VISIBLE_DEVICES=N`` per worker with
``ZYXARRAY_DEVICE=cuda:0``); the chunks are drawn and reduced on that worker's GPU. On
the cpu device, give each worker as many zyxarray threads as dask threads
(``ZYXARRAY_NUM_THREADS``, 1 here), or the workers' thread teams fight over the cores.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import dask.array as da
import numpy as np
from dask.distributed import Client, LocalCluster, wait

import zyxarray as xp

COLUMNS = 512


def statistics(rng: Any, rows: int, chunk_rows: int) -> dict[str, Any]:
    """The task graph: a (rows, COLUMNS) float64 standard normal array and its statistics."""
    x = rng.standard_normal((rows, COLUMNS), chunks=(chunk_rows, COLUMNS))
    return {"mean": x.mean(axis=0), "std": x.std(axis=0), "max": x.max(),
            "beyond_3_sigma": (abs(x) > 3).sum()}


def run(gib: float, workers: int, use_numpy: bool, timeout: float = 600
        ) -> tuple[dict[str, Any], float, str]:
    """(the statistics, the seconds they took, the chunks' type) of a ``gib`` GiB array on
    ``workers`` workers, each allowed a quarter of it, at least 1 GiB (a worker process
    needs 100 to 350 MiB of its own: Python, dask, whatever dask imports where it runs). A
    run that takes longer than ``timeout`` raises."""
    rows = int(gib * 2**30) // (8 * COLUMNS)
    chunk_rows = max(1, rows // (16 * workers))
    limit = max(int(gib * 2**30 / 4), 2**30)
    # one zyxarray thread per dask thread: the workers share the machine's cores
    os.environ.setdefault("ZYXARRAY_NUM_THREADS", "1")
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      memory_limit=limit, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        rng = da.random.default_rng(0 if use_numpy else xp.random.default_rng(0))
        graph = statistics(rng, rows, chunk_rows)
        t0 = time.perf_counter()
        names = list(graph)
        futures = client.compute([graph[k] for k in names])
        wait(futures, timeout=timeout)
        results = dict(zip(names, client.gather(futures)))
        seconds = time.perf_counter() - t0
        one_chunk = rng.standard_normal((chunk_rows, COLUMNS), chunks=(chunk_rows, COLUMNS))
        future = client.compute(one_chunk)
        wait([future], timeout=timeout)
        chunk_type = type(future.result()).__module__
    return results, seconds, chunk_type


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=1.0, help="size of the array in GiB")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--numpy", action="store_true", help="NumPy chunks instead")
    args = parser.parse_args()
    results, seconds, chunk_type = run(args.gib, args.workers, args.numpy)
    n = int(args.gib * 2**30) // (8 * COLUMNS) * COLUMNS
    print(f"{args.gib:.2f} GiB on {args.workers} workers of "
          f"{max(args.gib / 4, 1.0):.2f} GiB each, "
          f"chunks of {chunk_type.split('.')[0]}: {seconds:.2f} s")
    print(f"mean of the column means {float(np.mean(np.asarray(results['mean']))):+.5f}, "
          f"mean std {float(np.mean(np.asarray(results['std']))):.5f}, "
          f"max {float(results['max']):.3f}, beyond 3 sigma "
          f"{int(results['beyond_3_sigma']) / n:.5f} (normal: 0.00270)")


if __name__ == "__main__":
    main()
