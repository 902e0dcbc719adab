"""The on-disk kernel cache: compiled artifacts keyed by a hash of everything that shaped them.

Layer: ``_devices``. Imports nothing above it.

Files are written to a temporary name in the cache directory and renamed into place, so
concurrent processes never see a half-written entry; an entry that fails to load is
recompiled and replaced. A cache directory that cannot be written (read-only, or its path
blocked by a file) is warned about once; entries already in it are still used, and new ones
go to a temporary directory of this process, deleted at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import shutil
import tempfile
import threading
import warnings
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


_fallback: Path | None = None     # this process's own directory, when root() is unwritable
_fallback_lock = threading.Lock()


def directory(kind: str) -> Path:
    """The directory new entries of ``kind`` are written to (made if needed)."""
    if _fallback is None:
        d = root() / kind
        try:
            d.mkdir(parents=True, exist_ok=True)
            if os.access(d, os.W_OK):
                return d
            raise PermissionError(f"{d} is not writable")
        except OSError as e:
            _fall_back(e)
    assert _fallback is not None
    d = _fallback / kind
    d.mkdir(parents=True, exist_ok=True)
    return d


def _fall_back(error: OSError) -> None:
    global _fallback
    with _fallback_lock:
        if _fallback is not None:
            return
        path = Path(tempfile.mkdtemp(prefix="zyxarray-kernels-"))
        atexit.register(shutil.rmtree, path, ignore_errors=True)
        warnings.warn(f"zyxarray: the kernel cache directory {root()} cannot be written "
                      f"({error}); kernels compiled by this process are kept in {path} until "
                      "it exits", RuntimeWarning, stacklevel=4)
        _fallback = path


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
    for base in (root(), _fallback):
        if base is not None:
            path = base / kind / f"{digest}{suffix}"
            if path.exists():
                return path
    return None


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
