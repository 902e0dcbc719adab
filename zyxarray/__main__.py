"""``python -m zyxarray``: what zyxarray found on this machine, and a check that it works.

Layer: the top level, beside ``__init__``. Uses the public namespace, and reads the device
registry, the kernel cache's location and realize's counters; it changes none of them.

``--config`` prints the effective settings of the config file instead (see ``_config``).

Prints the version, every device with its ``DeviceInfo`` description, the runtimes that were
skipped and why, and the default device. Then it runs a small fused computation on the
default device (or ``--device``): an elementwise chain and a row softmax of it, shows how
many kernels ``explain`` plans and their loop strategies, compares the values with NumPy,
and times the first realization (which may compile) and a rerun of the same structure on new
data (an in-memory cache hit). Exit status: 0 when every value matches NumPy, 1 otherwise.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from typing import Any

import numpy as np

import zyxarray as xp
from zyxarray import _config, _env
from zyxarray._devices import cache, registry
from zyxarray._devices.base import Device
from zyxarray._lazy import realize as _realize

ROWS, COLS = 64, 128          # 8192 elements: big enough to be a real kernel, quick to check
RTOL, ATOL = 1e-5, 1e-5       # float32: the expression's values are O(1) to O(50)


def _expression(inputs: list[Any]) -> tuple[Any, Any]:
    """y = a*b + c*d - exp(e)*0.5 and its softmax over rows, written once for both libraries
    (``xp`` arrays or NumPy arrays: the same code runs on either)."""
    a, b, c, d, e = inputs
    ns = xp if isinstance(a, xp.Array) else np
    y = a * b + c * d - ns.exp(e) * 0.5
    m = ns.max(y, axis=1, keepdims=True)
    z = ns.exp(y - m)
    s = z / ns.sum(z, axis=1, keepdims=True)
    return y, s


def _inputs(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((ROWS, COLS)).astype(np.float32) for _ in range(5)]


def _counters(device: Device) -> tuple[int, int, int | None, int]:
    """(kernels launched, programs built, compiler runs or None where the device has no
    compiler, in-memory cache hits) so far in this process."""
    stats = getattr(_realize, "stats", {})
    compiles = getattr(device, "compiles", None)
    return (int(stats.get("kernels", 0)), int(stats.get("compiles", 0)),
            None if compiles is None else int(compiles), int(stats.get("cache_hits", 0)))


def _built(built: int, compiled: int | None) -> str:
    if compiled is None:
        return f"{built} program(s) built (this device compiles nothing)"
    return (f"{built} program(s) built: {compiled} compiled, {built - compiled} loaded from "
            "the disk cache")


def _run(device: Device, seed: int) -> tuple[float, bool, float]:
    """Build, realize and check once: (seconds to realize, values match NumPy, max error)."""
    host = _inputs(seed)
    y, s = _expression([xp.asarray(x, device=device) for x in host])
    t0 = time.perf_counter()
    got_s = np.asarray(s)     # one kernel: y is fused into the softmax
    got_y = np.asarray(y)     # y was never stored: its own elementwise kernel
    seconds = time.perf_counter() - t0
    want_y, want_s = _expression(host)
    ok = bool(np.allclose(got_y, want_y, rtol=RTOL, atol=ATOL)
              and np.allclose(got_s, want_s, rtol=RTOL, atol=ATOL)
              and got_s.dtype == want_s.dtype and got_s.shape == want_s.shape)
    err = float(max(np.max(np.abs(got_y - want_y)), np.max(np.abs(got_s - want_s))))
    return seconds, ok, err


def _report_devices() -> Device:
    print(f"zyxarray {xp.__version__} (Python {platform.python_version()}, "
          f"NumPy {np.__version__}, Array API {xp.__array_api_version__})")
    print("devices:")
    for name, dev in registry.devices().items():
        print(f"  {name:<12} {dev.info.description}")
    skipped = registry.skipped()
    print("skipped:" if skipped else "skipped: none")
    for reason in skipped:
        print(f"  {reason}")
    default = registry.default()
    print(f"default device: {default.name}")
    where = cache.root() if cache.enabled() else \
        f"off ({_config.current().sources['disk_cache']})"
    print(f"kernel cache on disk: {where}")
    from ._api import _hot
    print("element loops: " + (
        "in C (_api/_hot.c)" if _hot.core is not None else "in Python (ZYXARRAY_HOT=0)"
        if _env.get(_env.HOT) == "0" else
        "in Python (_api/_hot.c did not build: ZYXARRAY_DEBUG=compile says why)"))
    return default


def _print_config() -> int:
    """``--config``: every setting of the config schema with its value and source. Exit
    status 1 when the file has problems (each is printed)."""
    cfg = _config.read()
    print(f"config file: {cfg.path}")
    for key, value in cfg.values.items():
        print(f"  {key:<16} {value!r:<40} ({cfg.sources[key]})")
    for problem in cfg.problems:
        print(f"problem: {problem}")
    return 1 if cfg.problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m zyxarray", description=__doc__.split(
        "\n")[0].strip("`: "))
    parser.add_argument("--device", help="run the check on this device instead of the default "
                                         "(e.g. cpu, reference)")
    parser.add_argument("--config", action="store_true",
                        help="print the effective settings, where each came from (default, "
                             "the config file, the environment) and the file's problems")
    args = parser.parse_args(argv)
    if args.config:
        return _print_config()

    default = _report_devices()
    try:
        device = registry.get(args.device) if args.device else default
    except ValueError as e:
        parser.error(str(e))
    print()
    print(f"check on {device.name}: float32 arrays of shape ({ROWS}, {COLS})")

    y, s = _expression([xp.asarray(x, device=device) for x in _inputs(0)])
    for label, arr in (("y = a*b + c*d - exp(e)*0.5", y), ("s = softmax(y, axis=1)", s)):
        plan = xp.explain(arr)
        strategies = ", ".join(k.strategy for k in plan) or "-"
        print(f"  {label:<28} {len(plan)} kernel(s) planned ({strategies})")

    ran0, built0, cc0, _ = _counters(device)
    first, ok1, err1 = _run(device, seed=0)
    ran1, built1, cc1, hits1 = _counters(device)
    rerun, ok2, err2 = _run(device, seed=1)
    ran2, built2, _, hits2 = _counters(device)

    compiled = None if cc1 is None or cc0 is None else cc1 - cc0
    print(f"  first realization (s, then y): {1e3 * first:8.2f} ms, {ran1 - ran0} kernel(s) run, "
          + _built(built1 - built0, compiled))
    print(f"  rerun on new data:             {1e3 * rerun:8.2f} ms, {ran2 - ran1} kernel(s) run, "
          f"{hits2 - hits1} in-memory cache hit(s), {built2 - built1} program(s) built")
    ok = ok1 and ok2
    print(f"  against NumPy: {'OK' if ok else 'MISMATCH'} "
          f"(max abs error {max(err1, err2):.2e}, rtol {RTOL}, atol {ATOL})")
    print("OK" if ok else "FAILED: zyxarray's results differ from NumPy's")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
