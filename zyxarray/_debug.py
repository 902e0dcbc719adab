"""Named debug topics, switched on by ZYXARRAY_DEBUG, the config file's ``debug`` list or the
``debug()`` context manager.

Foundation module: importable from every layer; imports only ``zyxarray._config``.

    ZYXARRAY_DEBUG=schedule,source python script.py
    with zyxarray.debug("compile", "launch"): ...
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from . import _config

TOPICS = _config.DEBUG_TOPICS

_active: set[str] = set()


def _parse(spec: str | None) -> set[str]:
    if not spec:
        return set()
    names = {s.strip().lower() for s in spec.split(",") if s.strip()}
    if names & {"1", "all", "true", "yes"}:
        return set(TOPICS)
    unknown = names - set(TOPICS)
    if unknown:
        print(f"zyxarray: unknown ZYXARRAY_DEBUG topics {sorted(unknown)}; "
              f"known: {', '.join(TOPICS)}", file=sys.stderr)
    return names & set(TOPICS)


_active |= set(_config.get("debug"))     # (ZYXARRAY_DEBUG, else the config file's list)


def enabled(topic: str) -> bool:
    """Whether ``topic`` is being logged now (cheap: call it before formatting a message)."""
    return topic in _active


def active() -> bool:
    """Whether any topic is being logged now (fast paths that log nothing check it)."""
    return bool(_active)


def log(topic: str, message: str) -> None:
    """Write one message under ``topic`` to stderr if that topic is on."""
    if topic in _active:
        print(f"[zyxarray:{topic}] {message}", file=sys.stderr)


@contextlib.contextmanager
def debug(*topics: str) -> Iterator[None]:
    """Turn topics on inside a ``with`` block: ``with zyxarray.debug("schedule"): ...``."""
    wanted = _parse(",".join(topics))
    added = wanted - _active
    _active.update(added)
    try:
        yield
    finally:
        _active.difference_update(added)
