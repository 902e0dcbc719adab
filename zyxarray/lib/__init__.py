"""zyxarray.lib: the parts of ``numpy.lib`` that NumPy code reaches for (``stride_tricks``).

This module only re-exports names.
"""

from __future__ import annotations

from .._api._numpy_args import Unsupported
from . import stride_tricks

add_newdoc = Unsupported("lib.add_newdoc", "it attaches docstrings to NumPy's compiled "
                         "objects; zyxarray's functions have their own")

__all__ = ["add_newdoc", "stride_tricks"]
