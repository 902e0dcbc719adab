"""The config file (``zyxarray/_config.py``): its schema and validation (every problem
reported with the file and the key, never ignored silently), the environment winning over
the file, and the settings reaching the registry (kinds, ids, default device, memory limits),
the kernel cache (directory, size limit, on/off), tuning and the debug topics."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from zyxarray import _config
from zyxarray._devices import cache

ROOT = Path(__file__).resolve().parents[1]
VARS = ("ZYXARRAY_DEVICE", "ZYXARRAY_CACHE_DIR", "ZYXARRAY_DISK_CACHE", "ZYXARRAY_TUNE",
        "ZYXARRAY_DEBUG", "ZYXARRAY_UNPICKLE_DEVICE")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for var in VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "config.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_defaults_without_a_file(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    cfg = _config.read(tmp_path / "missing.json")
    assert cfg.problems == []
    assert cfg.values == {"disabled": [], "devices": {}, "default_device": None,
                          "memory_limit": {}, "cache_dir": None, "cache_max_bytes": None,
                          "disk_cache": True, "tune": False, "debug": [],
                          "unpickle_device": None}
    assert set(cfg.sources.values()) == {"default"}


def test_a_valid_file_and_where_each_value_came_from(tmp_path: Path,
                                                     clean_env: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, {"disabled": ["OpenCL", "cuda:1"], "devices": {"cuda": [0, 2]},
                             "default_device": "reference",
                             "memory_limit": {"cpu": "1.5GiB", "cuda:0": 1000},
                             "cache_dir": "~/zyx", "cache_max_bytes": "10 MB",
                             "disk_cache": False, "tune": True, "debug": "compile,memory",
                             "unpickle_device": "Default"})
    cfg = _config.read(path)
    assert cfg.problems == []
    assert cfg.values["disabled"] == ["opencl", "cuda:1"]
    assert cfg.values["memory_limit"] == {"cpu": 3 * 2**29, "cuda:0": 1000}
    assert cfg.values["cache_max_bytes"] == 10**7
    assert cfg.values["debug"] == ["compile", "memory"]
    assert cfg.values["disk_cache"] is False and cfg.values["tune"] is True
    assert cfg.values["unpickle_device"] == "default"
    assert all(src == f"file {path}" for src in cfg.sources.values())
    clean_env.setenv("ZYXARRAY_DEVICE", "cpu")
    clean_env.setenv("ZYXARRAY_TUNE", "0")
    clean_env.setenv("ZYXARRAY_DEBUG", "all")
    cfg = _config.read(path)
    assert cfg.values["default_device"] == "cpu"
    assert cfg.sources["default_device"] == "environment ZYXARRAY_DEVICE"
    assert cfg.values["tune"] is False and cfg.values["debug"] == list(_config.DEBUG_TOPICS)


@pytest.mark.parametrize("data, where", [
    ({"defualt_device": "cpu"}, "unknown key 'defualt_device'"),
    ({"disabled": "opencl"}, "key 'disabled': must be a list"),
    ({"disabled": ["tpu"]}, "key 'disabled': 'tpu' is not a device kind"),
    ({"devices": {"cuda": [-1]}}, "key 'devices': 'cuda': must be a list of device ids"),
    ({"default_device": 3}, "key 'default_device': 3 is not a device name"),
    ({"memory_limit": {"cpu": "lots"}}, "key 'memory_limit': 'lots' is not a size"),
    ({"memory_limit": {"cpu": 0}}, "key 'memory_limit': 0 is not a positive size"),
    ({"cache_max_bytes": True}, "key 'cache_max_bytes': True is not a size"),
    ({"tune": "yes"}, "key 'tune': 'yes' is not true or false"),
    ({"debug": ["compile", "everything"]}, "key 'debug': unknown topics ['everything']"),
    ({"unpickle_device": "auto"}, "key 'unpickle_device': 'auto' is not a device to unpickle"),
    ({"unpickle_device": "gpu"}, "key 'unpickle_device': 'gpu' is not a device name"),
    ("[1, 2]", "the file must hold a JSON object"),
    ("{not json", "unreadable"),
])
def test_every_problem_names_the_file_and_the_key(tmp_path: Path, clean_env: pytest.MonkeyPatch,
                                                 data: object, where: str) -> None:
    path = _write(tmp_path, data)
    cfg = _config.read(path)
    assert len(cfg.problems) == 1 and cfg.problems[0].startswith(f"{path}: ")
    assert where in cfg.problems[0]
    assert cfg.values["tune"] is False            # (a bad setting keeps its default)


def test_problems_are_warned_about_once(tmp_path: Path, clean_env: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, {"bogus": 1, "tune": "yes", "disk_cache": True})
    clean_env.setenv("ZYXARRAY_CONFIG", str(path))
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            cfg = _config.reload()
            _config.current()
            _config.get("tune")
        messages = [str(w.message) for w in seen]
        assert len(messages) == 2 and all(str(path) in m for m in messages)
        assert cfg.values["disk_cache"] is True
    finally:
        clean_env.delenv("ZYXARRAY_CONFIG")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _config.reload()


def test_parse_size() -> None:
    assert _config.parse_size("512MiB") == 512 * 2**20 and _config.parse_size("2 kb") == 2000
    assert _config.parse_size(7) == 7
    for bad in ("", "-1", "1 PiB", 1.5, None, False):
        with pytest.raises(ValueError, match="size"):
            _config.parse_size(bad)


def test_the_cache_keeps_under_its_size_limit(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    d = tmp_path / "cpu"
    d.mkdir()
    for i in range(10):
        (d / f"{i}.so").write_bytes(b"x" * 1000)
        os.utime(d / f"{i}.so", (time.time() - 100 + i, time.time() - 100 + i))
    monkeypatch.setenv("ZYXARRAY_CACHE_DIR", str(tmp_path))   # (the session's comes back)
    assert cache.root() == tmp_path
    assert cache.trim(4500) == 6000
    assert sorted(p.name for p in d.iterdir()) == ["6.so", "7.so", "8.so", "9.so"]
    assert cache.trim(None) == 0          # (no limit configured)


def test_the_settings_reach_the_registry_and_the_pools(tmp_path: Path) -> None:
    """In a fresh process: kinds disabled, a memory limit (MemoryError past it, naming size
    and device), the default device, and ``python -m zyxarray --config``."""
    path = _write(tmp_path, {"disabled": ["opencl", "vulkan", "cuda", "hip"],
                             "default_device": "reference",
                             "memory_limit": {"cpu": "1MiB"}})
    env = {k: v for k, v in os.environ.items() if k not in VARS}
    env.update(ZYXARRAY_CONFIG=str(path), PYTHONPATH=str(ROOT))
    code = """
import zyxarray as xp
from zyxarray._devices import registry
print(sorted(registry.devices()))
print([r for r in registry.skipped() if 'disabled' in r])
print(registry.default().name, registry.get('cpu').pool.capacity)
x = xp.asarray([1.0] * 10, device='cpu')
print(float(xp.sum(x)))
try:
    (xp.arange(400_000.0, device='cpu') * 2).tolist()
except MemoryError as e:
    print('MemoryError', e)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "['cpu', 'reference']"
    assert all(f"{kind}: disabled in {path}" in lines[1] for kind in ("opencl", "vulkan"))
    assert lines[2] == f"reference {2**20}"
    assert lines[3] == "10.0"
    assert lines[4].startswith("MemoryError cannot allocate") and "on device cpu" in lines[4]
    shown = subprocess.run([sys.executable, "-m", "zyxarray", "--config"], capture_output=True,
                           text=True, env=env, timeout=60)
    assert shown.returncode == 0 and f"config file: {path}" in shown.stdout
    assert "'reference'" in shown.stdout and f"(file {path})" in shown.stdout
