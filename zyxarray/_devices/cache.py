"""The on-disk kernel cache: compiled artifacts keyed by a hash of everything that shaped them.

Layer: ``_devices``. Imports nothing above it.

Files are written to a temporary name in the cache directory and renamed into place, so
concurrent processes never see a half-written entry; an entry that fails to load is
recompiled and replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path

from .. import _debug, _env


def key(*parts: str | bytes) -> str:
    """A stable hex digest of the parts (source, compiler identity, flags, device)."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else p.encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


def enabled() -> bool:
    return _env.get(_env.DISK_CACHE, "1") not in ("0", "false", "no")


def directory(kind: str) -> Path:
    d = _env.cache_dir() / kind
    d.mkdir(parents=True, exist_ok=True)
    return d


def lookup(kind: str, digest: str, suffix: str) -> Path | None:
    """The cached file for ``digest`` if there is one."""
    if not enabled():
        return None
    path = directory(kind) / f"{digest}{suffix}"
    return path if path.exists() else None


def store_file(kind: str, digest: str, suffix: str, produced: Path) -> Path:
    """Move a freshly produced file into the cache atomically and return its final path."""
    final = directory(kind) / f"{digest}{suffix}"
    os.replace(produced, final)
    _debug.log("compile", f"cached {final}")
    return final


def temp_path(kind: str, suffix: str) -> Path:
    """A unique temporary file name inside the cache directory (same filesystem as entries)."""
    fd, name = tempfile.mkstemp(prefix=".tmp-", suffix=suffix, dir=directory(kind))
    os.close(fd)
    return Path(name)


def store_bytes(kind: str, digest: str, suffix: str, data: bytes) -> Path:
    tmp = temp_path(kind, suffix)
    tmp.write_bytes(data)
    return store_file(kind, digest, suffix, tmp)


def remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()
