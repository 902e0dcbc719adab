"""Utility functions: all, any.

Layer: ``_api``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from ._array_object import Array
from ._statistical_functions import reduce_node


def all(x: Array, /, *, axis: Any = None, keepdims: bool = False) -> Array:  # noqa: A001
    """Whether every element over ``axis`` is true (non-zero)."""
    node, _ = reduce_node("all", x, Op.AND, axis, keepdims, g.cast(x._node, np.bool_))
    return Array._new(node)


def any(x: Array, /, *, axis: Any = None, keepdims: bool = False) -> Array:  # noqa: A001
    """Whether some element over ``axis`` is true (non-zero)."""
    node, _ = reduce_node("any", x, Op.OR, axis, keepdims, g.cast(x._node, np.bool_))
    return Array._new(node)
