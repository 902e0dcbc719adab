"""``device="auto"``: the fastest available device, measured, not guessed.

Layer: ``_lazy`` (it runs a kernel through ``realize``). The registry (``_devices``) cannot
import it; it calls ``registry.auto_chooser``, which this module sets at import (``_lazy``'s
``__init__`` imports it).

The measure is what array programs spend their time on: a fused elementwise kernel that
reads two float32 arrays of 2^22 elements and writes one (``a * 2 + b``), timed after its
compile, best of five; the score is the bytes it moves per second. Scores are kept per
device model (its description) in ``<cache dir>/calibration.json``, so a machine measures
once. Among the devices that have what the work needs (float64 unless told otherwise; never
the ``reference`` interpreter), the highest score wins; free memory (``Device.free_memory``:
the runtime's count on cuda, the pool's elsewhere) decides between equal scores and skips
devices with less than the calibration's own 48 MiB free.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path

import numpy as np

from .. import _config, _debug
from .._codegen.ir import Op
from .._devices import registry
from .._devices.base import Device
from . import graph
from .realize import realize

N = 1 << 22                       # elements of each calibration array (16 MiB of float32)
MOVED = 3 * 4 * N                 # bytes a calibration kernel reads and writes
_lock = threading.Lock()
_scores: dict[str, float] = {}    # device model -> bytes per second


def _file() -> Path:
    return _config.cache_dir() / "calibration.json"


def _load() -> dict[str, float]:
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(_file().read_text())
        if isinstance(data, dict):
            return {str(k): float(v) for k, v in data.items()}
    return {}


def _save(scores: dict[str, float]) -> None:
    path = _file()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(scores, indent=1, sort_keys=True))
        tmp.replace(path)


def measure(device: Device) -> float:
    """Bytes per second of a fused ``a * 2 + b`` on ``device`` (2^22 float32 elements)."""
    a = graph.from_host(np.ones(N, np.float32), device)
    b = graph.from_host(np.ones(N, np.float32), device)
    best = float("inf")
    for _ in range(5):
        y = graph.alu(Op.ADD, graph.alu(Op.MUL, a, graph.const(2.0, np.float32, device)), b)
        t0 = time.perf_counter()
        realize(y)
        device.synchronize()
        best = min(best, time.perf_counter() - t0)
        y.buffer = None
    return MOVED / best


def score(device: Device) -> float:
    """The device's calibration score (measured once per model, then from the cache file)."""
    model = device.info.description or device.name
    with _lock:
        if not _scores:
            _scores.update(_load())
        if model in _scores:
            return _scores[model]
    value = measure(device)
    _debug.log("devices", f"calibrated {device.name}: {value / 1e9:.1f} GB/s")
    with _lock:
        _scores[model] = value
        merged = _load()
        merged[model] = value
        _save(merged)
    return value


def choose(float64: bool = True) -> Device:
    """The best available device for work that needs ``float64`` (or not)."""
    candidates = [d for d in registry.devices().values()
                  if d.info.kind != "reference" and (d.info.float64 or not float64)]
    roomy = [d for d in candidates if not d.pool.capacity or d.free_memory() >= 3 * 4 * N]
    if not roomy:
        reasons = "; ".join(registry.skipped()) or "none skipped"
        raise ValueError(f"device 'auto': no available device can take the work (float64: "
                         f"{float64}); devices: {', '.join(registry.devices())}; skipped: "
                         f"{reasons}")
    best = max(roomy, key=lambda d: (score(d), d.free_memory()))
    _debug.log("devices", f"auto: {best.name} of {', '.join(d.name for d in roomy)}")
    return best


registry.auto_chooser = choose
