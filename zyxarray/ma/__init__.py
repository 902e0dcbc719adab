"""zyxarray.ma: masked arrays, NumPy's ``numpy.ma`` over device arrays.

A ``MaskedArray`` keeps its data and its boolean mask as two zyxarray arrays on one device;
arithmetic, the elementwise functions and the reductions combine and honour the masks
lazily, in fused kernels (``zyxarray._api._masked`` has the details and what reads data to
the host). ``zyxarray.ma.core`` is the same namespace under NumPy's module name. This module
only re-exports the public names.
"""

from __future__ import annotations

from . import core
from .core import *  # noqa: F403 (the same names as zyxarray.ma.core, listed once there)

__all__ = ["core", *core.__all__]
