"""The JSON config file: its schema, its validation, and the effective settings with where each
came from (the default, the file, or an environment variable, which wins).

Layer: foundation (imports ``_env`` only). The file is ``$ZYXARRAY_CONFIG``, else
``$XDG_CONFIG_HOME/zyxarray/config.json``, else ``~/.config/zyxarray/config.json``::

    {
      "disabled": ["opencl", "cuda:1"],         device kinds or names to skip
      "devices": {"cuda": [0, 2]},               the only ids of a kind to use
      "default_device": "cuda:0",                a device name or "auto" (ZYXARRAY_DEVICE
                                                 wins)
      "memory_limit": {"cuda:0": "20GiB", "cpu": 8589934592},   per device name or kind
      "cache_dir": "~/scratch/zyx-cache",        ZYXARRAY_CACHE_DIR wins
      "cache_max_bytes": "2GiB",                 oldest entries go past this size
      "disk_cache": true,                        ZYXARRAY_DISK_CACHE wins
      "tune": false,                             ZYXARRAY_TUNE wins
      "debug": ["compile", "memory"],            ZYXARRAY_DEBUG wins
      "unpickle_device": "default"               where an unpickled array of a device
                                                 this machine lacks goes: "default" or a
                                                 device name; unset: an error
                                                 (ZYXARRAY_UNPICKLE_DEVICE wins)
    }

Every key is optional. An unknown key, a value of the wrong type, a malformed size or a file
that is not JSON is reported once, as a warning naming the file and the key, and that setting
keeps its default (the rest of the file is used); nothing is ignored silently. ``python -m zyxarray
--config`` prints the effective settings and the source of each.
"""

from __future__ import annotations

import json
import re
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import _env

#: the debug topics (``_debug.TOPICS`` is this tuple)
DEBUG_TOPICS = ("devices", "graph", "schedule", "ir", "source", "compile", "launch", "memory",
                "tune", "profile")
#: the device kinds (the registry's; repeated here for validation)
KINDS = ("cuda", "hip", "opencl", "vulkan", "cpu", "reference")

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$", re.I)
_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def parse_size(value: Any) -> int:
    """Bytes from an int or a string such as ``"512MiB"``, ``"8 GB"`` (ValueError if not)."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a size")
    if isinstance(value, int):
        if value <= 0:
            raise ValueError(f"{value} is not a positive size")
        return value
    if isinstance(value, str):
        m = _SIZE.match(value)
        if m:
            n = float(m.group(1)) * _UNITS[(m.group(2) or "B").lower()]
            if n > 0:
                return int(n)
    raise ValueError(f"{value!r} is not a size (bytes, or a string like '8GiB')")


def _names(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError("must be a list of device kinds or names (strings)")
    for v in value:
        if v.split(":")[0].strip().lower() not in KINDS:
            raise ValueError(f"{v!r} is not a device kind or name ({', '.join(KINDS)}, "
                             "optionally ':N')")
    return [v.strip().lower() for v in value]


def _ids(value: Any) -> dict[str, list[int]]:
    if not isinstance(value, dict):
        raise ValueError("must be an object mapping a device kind to a list of ids")
    out = {}
    for kind, ids in value.items():
        if kind not in KINDS:
            raise ValueError(f"{kind!r} is not a device kind ({', '.join(KINDS)})")
        if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                and i >= 0 for i in ids):
            raise ValueError(f"{kind!r}: must be a list of device ids (integers >= 0)")
        out[kind] = list(ids)
    return out


def _device_name(value: Any) -> str:
    if isinstance(value, str) and value.strip().lower() == "auto":
        return "auto"
    if not isinstance(value, str) or value.split(":")[0].strip().lower() not in KINDS:
        raise ValueError(f"{value!r} is not a device name ({', '.join(KINDS)}, optionally "
                         "':N')")
    return value.strip().lower()


def _fallback_device(value: Any) -> str:
    if isinstance(value, str) and value.strip().lower() == "default":
        return "default"
    if isinstance(value, str) and value.strip().lower() == "auto":
        raise ValueError("'auto' is not a device to unpickle onto (use 'default' or a name)")
    return _device_name(value)


def _limits(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ValueError("must be an object mapping a device name or kind to a size")
    out = {}
    for name, size in value.items():
        _device_name(name)
        out[name.strip().lower()] = parse_size(size)
    return out


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{value!r} is not true or false")
    return value


def _path(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{value!r} is not a directory path")
    return value


def _topics(value: Any) -> list[str]:
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(t, str) for t in items):
        raise ValueError("must be a list of debug topics (or one comma-separated string)")
    topics = [t.strip().lower() for t in items if t.strip()]
    if any(t in ("1", "all", "true", "yes") for t in topics):
        return list(DEBUG_TOPICS)
    unknown = sorted(set(topics) - set(DEBUG_TOPICS))
    if unknown:
        raise ValueError(f"unknown topics {unknown} (known: {', '.join(DEBUG_TOPICS)})")
    return topics


def _env_bool(text: str) -> bool:
    return text.strip().lower() not in ("0", "false", "no", "off", "")


#: key -> (validator of the file's value, default, environment variable and its parser)
SCHEMA: dict[str, tuple[Any, Any, str | None, Any]] = {
    "disabled": (_names, [], None, None),
    "devices": (_ids, {}, None, None),
    "default_device": (_device_name, None, _env.DEVICE, str),
    "memory_limit": (_limits, {}, None, None),
    "cache_dir": (_path, None, _env.CACHE_DIR, str),
    "cache_max_bytes": (parse_size, None, None, None),
    "disk_cache": (_bool, True, _env.DISK_CACHE, _env_bool),
    "tune": (_bool, False, _env.TUNE, _env_bool),
    "debug": (_topics, [], _env.DEBUG, lambda s: s),
    "unpickle_device": (_fallback_device, None, _env.UNPICKLE_DEVICE, str),
}


@dataclass
class Config:
    """The effective settings: ``values[key]`` and ``sources[key]`` ("default", "file
    <path>", "environment <VAR>"), and the problems found in the file."""

    path: str
    values: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def get(self, key: str) -> Any:
        return self.values[key]


def read(path: Any = None) -> Config:
    """Read and validate the config file (``path``, else the usual place) and apply the
    environment; never raises for a bad file (its problems are in ``problems``)."""
    p = _env.config_path() if path is None else path
    cfg = Config(str(p))
    data: dict[str, Any] = {}
    try:
        if p.exists():
            loaded = json.loads(p.read_text())
            if isinstance(loaded, dict):
                data = loaded
            else:
                cfg.problems.append(f"{p}: the file must hold a JSON object, not "
                                    f"{type(loaded).__name__}")
    except (OSError, ValueError) as e:
        cfg.problems.append(f"{p}: unreadable ({e})")
    for key in data:
        if key not in SCHEMA:
            cfg.problems.append(f"{p}: unknown key {key!r} (known: {', '.join(SCHEMA)})")
    for key, (validate, default, var, parse_env) in SCHEMA.items():
        value, source = default, "default"
        if key in data:
            try:
                value, source = validate(data[key]), f"file {p}"
            except ValueError as e:
                cfg.problems.append(f"{p}: key {key!r}: {e}")
        if var is not None and _env.get(var):
            try:
                value = parse_env(_env.get(var))
                if key == "debug":
                    value = _topics(value)
                source = f"environment {var}"
            except ValueError as e:
                cfg.problems.append(f"environment {var}: {e}")
        cfg.values[key], cfg.sources[key] = value, source
    return cfg


_lock = threading.Lock()
_current: Config | None = None


def current() -> Config:
    """The effective config, read once per process; its problems are warned about once."""
    global _current
    if _current is None:
        with _lock:
            if _current is None:
                cfg = read()
                for problem in cfg.problems:    # (attributed to the file, not to Python)
                    warnings.warn_explicit(f"zyxarray config: {problem}; that setting is not "
                                           "used", RuntimeWarning, cfg.path, 0)
                _current = cfg
    return _current


def reload() -> Config:
    """Read the file and the environment again (tests, or after editing the file)."""
    global _current
    with _lock:
        _current = None
    return current()


def get(key: str) -> Any:
    """One effective setting (``SCHEMA``'s keys). Its environment variable is read now (a
    change after import is seen, as tests and notebooks expect); the file once."""
    var = SCHEMA[key][2]
    if var is not None:
        text = _env.get(var)
        if text:
            try:
                value = SCHEMA[key][3](text)
                return _topics(value) if key == "debug" else value
            except ValueError:
                pass          # (reported by current(): the file's or the default value)
    return current().values[key]


def cache_dir() -> Path:
    """The kernel cache directory: ZYXARRAY_CACHE_DIR, the file's ``cache_dir``, else
    $XDG_CACHE_HOME/zyxarray (``_env.cache_dir``)."""
    value = get("cache_dir")
    return Path(value).expanduser() if value else _env.cache_dir()
