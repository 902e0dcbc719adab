"""Data in and out at scale (issue 18): lazy safetensors and dask, with NumPy beside.

Usage: python bench/data_io.py [--gib 4] [--dask-gib 4] [--workers 2] [--skip-dask]

- safetensors: a file of ``--gib`` GiB (one tensor, written sparse: its data reads as zeros
  and takes no disk) is opened with ``zyxarray.load_safetensors`` (header and mapping only)
  and with the ``safetensors`` package's ``safe_open`` (NumPy); then one slice of 1,000 rows
  is read. Printed: the time to open, the resident memory (RSS) before and after the slice,
  and the bytes zyxarray copied from the file.
- dask: ``examples/dask_bigger_than_memory.py`` with zyxarray chunks and with NumPy chunks
  (an array four times one worker's memory limit, statistics on a LocalCluster).

Nothing is asserted: these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
import zyxarray as xp
from zyxarray._lazy.files import stats

COLUMNS = 4096


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def sparse_file(path: str, gib: float) -> int:
    """A safetensors file of one float32 tensor (rows x COLUMNS) of about ``gib`` GiB, its
    data a hole (zeros). Returns the row count."""
    rows = int(gib * 2**30) // (4 * COLUMNS)
    nbytes = rows * COLUMNS * 4
    header = json.dumps({"w": {"dtype": "F32", "shape": [rows, COLUMNS],
                               "data_offsets": [0, nbytes]}}).encode()
    header += b" " * (-len(header) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header)
        f.truncate(8 + len(header) + nbytes)
    return rows


def bench_safetensors(gib: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.safetensors")
        rows = sparse_file(path, gib)
        print(f"safetensors: one float32 tensor of {rows} x {COLUMNS} "
              f"({os.path.getsize(path) / 2**30:.2f} GiB)")
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            tensors = xp.load_safetensors(path)
            best = min(best, time.perf_counter() - t0)
        print(f"  zyxarray.load_safetensors: opened in {best * 1e3:.2f} ms")
        try:
            from safetensors import safe_open
            t0 = time.perf_counter()
            with safe_open(path, framework="numpy") as f:
                f.keys()
            print(f"  safetensors.safe_open:     opened in "
                  f"{(time.perf_counter() - t0) * 1e3:.2f} ms")
        except ImportError:
            pass
        before, copied = rss_mib(), stats["file_bytes"]
        part = tensors["w"][rows // 2:rows // 2 + 1000]
        total = float(xp.sum(part))
        after = rss_mib()
        print(f"  a slice of 1000 rows ({1000 * COLUMNS * 4 / 2**20:.1f} MiB) summed "
              f"({total}): RSS {before:.0f} -> {after:.0f} MiB (+{after - before:.1f}), "
              f"{(stats['file_bytes'] - copied) / 2**20:.1f} MiB copied from the file")


def bench_dask(gib: float, workers: int) -> None:
    import dask_bigger_than_memory as example
    times = {}
    for use_numpy in (False, True):
        results, seconds, chunk_type = example.run(gib, workers, use_numpy)
        times[use_numpy] = seconds
        print(f"dask: {gib:.1f} GiB on {workers} workers of {gib / 4:.2f} GiB, chunks of "
              f"{chunk_type.split('.')[0]:9}: {seconds:6.2f} s "
              f"(beyond 3 sigma: {int(results['beyond_3_sigma'])})")
    print(f"  zyxarray chunks against NumPy chunks: {times[True] / times[False]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=4.0)
    parser.add_argument("--dask-gib", type=float, default=4.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-dask", action="store_true")
    args = parser.parse_args()
    bench_safetensors(args.gib)
    if not args.skip_dask:
        bench_dask(args.dask_gib, args.workers)


if __name__ == "__main__":
    main()
