"""NumPy's type names: the dtype class, scalar types, the abstract type hierarchy and the
type queries, for code written against NumPy.

Layer: ``_api``. Imports nothing below ``_api`` but NumPy's type objects.

zyxarray's dtypes (``_dtypes.DType``) compare equal to NumPy's dtypes and scalar types, and
calling one converts as NumPy's scalar types do (``float64(3)`` is NumPy's scalar). The
abstract types (``generic``, ``number``, ``integer``, ``floating``...) are NumPy's own classes,
so ``issubdtype(x.dtype, floating)`` and ``isinstance(numpy_scalar, integer)`` answer as
NumPy does; zyxarray's arrays of shape () are arrays, not instances of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtypes as dt
from ._array_object import Array

#: NumPy's dtype constructor and class: ``dtype("float32")`` is ``float32``
dtype = dt.DType

#: for ``isinstance(x, ndarray)``: zyxarray's array class (it is not constructed directly)
ndarray = Array

generic = np.generic
number = np.number
integer = np.integer
signedinteger = np.signedinteger
unsignedinteger = np.unsignedinteger
inexact = np.inexact
floating = np.floating
complexfloating = np.complexfloating

intc = dt.int32
uintc = dt.uint32
longlong = dt.int64
ulonglong = dt.uint64
short = dt.int16
ushort = dt.uint16
byte = dt.int8
ubyte = dt.uint8

#: NumPy's typecodes table (the characters of each kind)
typecodes = dict(np.typecodes)


def _np_type(x: Any) -> Any:
    """What NumPy's type functions understand: zyxarray dtypes become NumPy's, arrays their
    dtype."""
    if isinstance(x, dt.DType):
        return x.np
    if isinstance(x, Array):
        return x.dtype.np
    return x


def issubdtype(arg1: Any, arg2: Any) -> bool:
    """True if ``arg1`` is a subtype of ``arg2`` in NumPy's type hierarchy (either may be a
    zyxarray dtype, a NumPy dtype or scalar type, or an abstract type such as ``floating``)."""
    return bool(np.issubdtype(_np_type(arg1), _np_type(arg2)))


def promote_types(type1: Any, type2: Any) -> dt.DType:
    """The smallest dtype both can be cast to safely (NumPy's ``promote_types``)."""
    return dt.to_dtype(np.promote_types(_np_type(type1), _np_type(type2)), "promote_types")


def min_scalar_type(a: Any) -> dt.DType:
    """The smallest dtype that holds the value ``a`` (NumPy's ``min_scalar_type``)."""
    if isinstance(a, Array):
        if a.ndim:
            return a.dtype
        a = a.item()
    found = np.min_scalar_type(a)
    return dt.to_dtype(found, "min_scalar_type")


def isscalar(element: Any) -> bool:
    """True for Python and NumPy scalars (and strings), as NumPy's ``isscalar``; arrays,
    0-d ones included, are not scalars."""
    return bool(np.isscalar(element))


def mintypecode(typechars: Any, typeset: str = "GDFgdf", default: str = "d") -> str:
    """The character of the smallest type in ``typeset`` that all ``typechars`` can be
    safely cast to (NumPy's ``mintypecode``)."""
    return str(np.mintypecode(typechars, typeset, default))
