"""zyxarray.lib.stride_tricks: strided views of an array's memory (see ``_api._numpy_views``).

This module only re-exports names.
"""

from __future__ import annotations

from .._api._manipulation_functions import broadcast_arrays, broadcast_shapes, broadcast_to
from .._api._numpy_views import as_strided, sliding_window_view

__all__ = ["as_strided", "broadcast_arrays", "broadcast_shapes", "broadcast_to",
           "sliding_window_view"]
