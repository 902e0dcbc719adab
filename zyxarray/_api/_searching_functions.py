"""Searching functions: where.

Layer: ``_api``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._lazy import graph as g
from ._array_object import Array
from ._elementwise_functions import broadcast_node, broadcast_shapes, operands


def where(condition: Any, x1: Any, x2: Any, /) -> Array:
    """Elements of x1 where condition is true, else of x2 (all three broadcast)."""
    if not isinstance(condition, Array):
        from ._creation_functions import asarray
        condition = asarray(condition)
    (a, b), _, _ = operands("where", x1, x2)
    shape = broadcast_shapes("where", condition.shape, a.shape)
    cond = broadcast_node(g.cast(condition._node, np.bool_), shape)
    return Array._new(g.alu(Op.WHERE, cond, broadcast_node(a, shape), broadcast_node(b, shape)))
