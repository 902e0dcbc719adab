"""``device="auto"`` (``_lazy/choose.py``): the available device with the best measured
throughput among those that have what the work needs, never the reference interpreter;
measured once per device model and kept in the cache directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import zyxarray as xp
from zyxarray._devices import registry
from zyxarray._lazy import choose

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def scores(monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    table: dict[str, float] = {}
    monkeypatch.setattr(choose, "_scores", table)
    monkeypatch.setattr(choose, "_load", lambda: dict(table))
    monkeypatch.setattr(choose, "_save", lambda s: None)
    return table


def test_auto_is_the_best_scored_device(scores: dict[str, float]) -> None:
    # (one device per model: scores are per model, and identical GPUs tie on score, then
    # go by free memory)
    models: dict[str, object] = {}
    for d in registry.devices().values():
        if d.info.kind != "reference":
            models.setdefault(d.info.description, d)
    devs = list(models.values())
    for rank, dev in enumerate(devs):
        scores[dev.info.description] = 1e9 * (rank + 1)
    assert xp.Device("auto").info.description == devs[-1].info.description
    scores[devs[0].info.description] = 1e12
    assert registry.get("auto").info.description == devs[0].info.description
    assert xp.zeros(2, device="auto").device.info.description == devs[0].info.description


def test_never_the_reference_device_nor_one_without_room(scores: dict[str, float],
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    ref = registry.get("reference")
    scores[ref.info.description] = 1e15
    for dev in registry.devices().values():
        scores.setdefault(dev.info.description, 1e9)
    assert xp.Device("auto") is not ref
    only = {"reference": ref}
    monkeypatch.setattr(registry, "devices", lambda: only)
    with pytest.raises(ValueError, match="device 'auto': no available device"):
        xp.Device("auto")


def test_measure_is_bytes_per_second() -> None:
    rate = choose.measure(registry.get("cpu"))
    assert 1e8 < rate < 1e13


def test_calibration_is_measured_once_and_kept(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZYXARRAY_")}
    env.update(ZYXARRAY_CACHE_DIR=str(tmp_path), ZYXARRAY_DEVICE="auto",
               PYTHONPATH=str(ROOT))
    code = ("import zyxarray as xp\n"
            "from zyxarray._lazy import choose\n"
            "calls = []\n"
            "m = choose.measure\n"
            "choose.measure = lambda d: calls.append(d.name) or m(d)\n"
            "print(xp.__array_namespace_info__().default_device().name, len(calls))\n")
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=300)
    assert first.returncode == 0, first.stderr
    name, measured = first.stdout.split()
    assert name != "reference" and int(measured) >= 1
    saved = json.loads((tmp_path / "calibration.json").read_text())
    assert len(saved) == int(measured) and all(v > 0 for v in saved.values())
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, timeout=300)
    assert again.returncode == 0 and again.stdout.split() == [name, "0"]
