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

from .. import _config, _debug


def key(*parts: str | bytes) -> str:
    """A stable hex digest of the parts (source, compiler identity, flags, device)."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else p.encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


def enabled() -> bool:
    """ZYXARRAY_DISK_CACHE, else the config file's ``disk_cache`` (on by default)."""
    return bool(_config.get("disk_cache"))


def root() -> Path:
    """The cache directory (``_config.cache_dir``): one folder per device kind below it."""
    return _config.cache_dir()


def directory(kind: str) -> Path:
    d = root() / kind
    d.mkdir(parents=True, exist_ok=True)
    return d


def trim(limit: int | None = None) -> int:
    """Delete the least recently used entries (by access, else modification time) until the
    cache holds at most ``limit`` bytes (the config's ``cache_max_bytes``; nothing to do
    without one). Returns the bytes deleted."""
    limit = _config.get("cache_max_bytes") if limit is None else limit
    if not limit:
        return 0
    entries = []
    for path in root().rglob("*"):
        with contextlib.suppress(OSError):
            if path.is_file() and not path.name.startswith(".tmp-"):
                st = path.stat()
                entries.append((max(st.st_atime, st.st_mtime), st.st_size, path))
    total = sum(size for _, size, _ in entries)
    deleted = 0
    for _, size, path in sorted(entries, key=lambda e: e[0]):
        if total <= limit:
            break
        with contextlib.suppress(OSError):
            path.unlink()
            total -= size
            deleted += size
    if deleted:
        _debug.log("compile", f"kernel cache trimmed by {deleted} bytes to {total} "
                              f"(limit {limit})")
    return deleted


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
    global _stores
    _stores += 1
    if _stores % TRIM_EVERY == 1 and _config.get("cache_max_bytes"):
        trim()
    return final


#: with ``cache_max_bytes`` set, the cache is trimmed at the first store and every
#: TRIM_EVERY stores after it (a walk of the directory each time)
TRIM_EVERY = 32
_stores = 0


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
