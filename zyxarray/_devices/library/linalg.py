"""Host implementations of the linalg library ops (registered with ``@host_impl``).

Layer: ``_devices``.
"""

from __future__ import annotations

from . import host_impl  # noqa: F401
