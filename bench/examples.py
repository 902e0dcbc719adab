"""The small real NumPy programs of ``examples/numpy_programs``, each timed as written with
NumPy and unchanged under ``import zyxarray as np`` on one device, in one run: how ordinary
NumPy code, not a benchmark kernel, fares (issue 13).

Usage: python bench/examples.py [--device cpu] [--repeat 3] [--only a.py,b.py] [--json out.json]

Each program runs once to warm up (compiles, caches), then the best of ``--repeat`` runs of
the whole program (its prints silenced) is kept; ``first`` is the warm-up run's time. The
ratio is numpy_time / zyxarray_time (> 1: zyxarray is faster). Nothing is asserted: these
machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from zyxarray._devices import registry

PROGRAMS = Path(__file__).resolve().parent.parent / "examples" / "numpy_programs"


def run(source: str, module: str) -> float:
    """Seconds to run the program with ``numpy`` or ``zyxarray`` as ``np``."""
    code = compile(source.replace("import numpy as np", f"import {module} as np"),
                   f"<{module}>", "exec")
    with contextlib.redirect_stdout(io.StringIO()):
        t0 = time.perf_counter()
        exec(code, {"__name__": "__bench__"})
        return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", help="comma-separated file names")
    parser.add_argument("--json")
    args = parser.parse_args()
    registry.set_default(args.device)
    names = set(args.only.split(",")) if args.only else None
    rows: list[dict[str, Any]] = []
    print(f"{'program':26} {'numpy':>10} {'zyxarray':>10} {'ratio':>7} {'first':>8}  "
          f"device {args.device}")
    for path in sorted(PROGRAMS.glob("*.py")):
        if names is not None and path.name not in names:
            continue
        source = path.read_text()
        t_np = min(run(source, "numpy") for _ in range(args.repeat))
        first = run(source, "zyxarray")
        t_zx = min(run(source, "zyxarray") for _ in range(args.repeat))
        rows.append({"program": path.name, "numpy_s": t_np, "zyx_s": t_zx,
                     "ratio": t_np / t_zx, "first_s": first})
        print(f"{path.name:26} {t_np * 1e3:8.2f}ms {t_zx * 1e3:8.2f}ms {t_np / t_zx:6.2f}x "
              f"{first:7.2f}s", flush=True)
    if rows:
        geo = math.exp(sum(math.log(r["ratio"]) for r in rows) / len(rows))
        print(f"geometric mean vs NumPy: {geo:.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": args.device, "programs": rows}, f, indent=1)


if __name__ == "__main__":
    main()
