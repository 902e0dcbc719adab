"""Autotuning: a kernel's work-group size measured on the device (``ZYXARRAY_TUNE=1``).

Layer: ``_lazy``. ``lower`` asks ``choice`` while it canonicalizes a plan; ``realize`` calls
``tuned`` before it launches one, and ``tuned`` measures the candidates through the timer
``realize`` gives it.

What is tuned: the work-group size (``Canonical.lanes``) of the thread-style strategies
(GPUs), among 64 ... 1024 work items as the device and the strategy allow. The first time a
kernel *structure* (its cache key without the device's name and the group size) runs on a
device with tuning on, each candidate is compiled and timed on the kernel's own arguments,
writing into a scratch output (kernels that write into an existing buffer are not tuned:
they may read what they write). The fastest is kept for the process and in
``<cache dir>/tune/<device model>.json``, which every later process reads, tuning on or off,
so it starts tuned. Loop-style devices (the cpu) are not tuned: their parameters are the
SIMD width and the thread count. The ``tune`` debug topic shows each measurement and choice.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import _config, _debug
from .._errors import CompileError, DeviceError

if TYPE_CHECKING:
    from .._devices.base import DeviceInfo
    from .lower import Canonical

CANDIDATES = (64, 128, 256, 512, 1024)
_tables: dict[str, dict[str, int]] = {}      # device model -> {structure digest: lanes}


def enabled() -> bool:
    """Whether kernels not seen before are measured (``ZYXARRAY_TUNE=1``, else the config
    file's ``tune``)."""
    return bool(_config.get("tune"))


def structure(key: tuple) -> str:
    """The digest of a canonical key without the device's name and the group size (the
    key is ``(device name, strategy, lanes, ...)``): one per kernel structure and model."""
    if type(key[-1]) is tuple:
        key = key[:-1]          # (a program with its shapes inlined: the same structure)
    return hashlib.sha1(repr((key[1], key[3:])).encode()).hexdigest()[:20]


def _model(info: DeviceInfo) -> str:
    text = "".join(ch if ch.isalnum() else "_" for ch in f"{info.kind}_{info.description}")
    return text[:120]


def _path(info: DeviceInfo) -> Any:
    return _config.cache_dir() / "tune" / f"{_model(info)}.json"


def _table(info: DeviceInfo) -> dict[str, int]:
    model = _model(info)
    table = _tables.get(model)
    if table is None:
        table = {}
        with contextlib.suppress(OSError, ValueError):
            loaded = json.loads(_path(info).read_text())
            table = {str(k): int(v) for k, v in loaded.items()}
        _tables[model] = table
    return table


def choice(info: DeviceInfo, key: tuple) -> int | None:
    """The group size measured for this structure on this device model, if any."""
    if info.style != "threads":
        return None
    return _table(info).get(structure(key))


def candidates(strategy: str, info: DeviceInfo) -> list[int]:
    """The group sizes ``strategy`` can take on this device."""
    top = max(info.max_work_group, 1)
    low = 128 if strategy == "g_tile" else 64
    return [n for n in CANDIDATES if low <= n <= top]


def tuned(c: Canonical, measure: Callable[[Canonical], float],
          redo: Callable[[int], Canonical]) -> Canonical:
    """``c``, or the canonical form with the group size measured best for its structure:
    measured now (``measure`` gives seconds per launch of a candidate, ``redo`` makes the
    candidate with another group size) if this device model has no choice for it yet."""
    info = c.info
    table = _table(info)
    digest = structure(c.key)
    lanes = table.get(digest)
    if lanes is None:
        best: tuple[float, int] | None = None
        for n in candidates(c.strategy, info):
            cand = c if n == c.lanes else redo(n)
            try:
                t = measure(cand)
            except (DeviceError, CompileError) as e:
                # (a kernel may need more registers than a group that large leaves it)
                _debug.log("tune", f"{info.name} {c.strategy} {digest}: {n} items/group "
                                   f"cannot run: {str(e).splitlines()[0]}")
                continue
            _debug.log("tune", f"{info.name} {c.strategy} {digest}: {n} items/group "
                               f"{1e6 * t:.1f} us")
            if best is None or t < best[0]:
                best = (t, n)
        if best is None:
            return c
        lanes = table[digest] = best[1]
        _debug.log("tune", f"{info.name} {c.strategy} {digest}: chose {lanes} items/group")
        _save(info, table)
    return c if lanes == c.lanes else redo(lanes)


def _save(info: DeviceInfo, table: dict[str, int]) -> None:
    path = _path(info)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(table, indent=0, sort_keys=True))
        os.replace(tmp, path)


def timer_rounds(seconds_per_launch: float) -> int:
    """Launches per timed round: enough that a round takes about a millisecond."""
    return max(1, min(50, math.ceil(1e-3 / max(seconds_per_launch, 1e-7))))
