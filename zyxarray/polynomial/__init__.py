"""zyxarray.polynomial: NumPy's ``numpy.polynomial`` power series (``Polynomial``, and the
functions on coefficient arrays in ``zyxarray.polynomial.polynomial``), built on lazy
array operations. This package only re-exports; ``_poly1d`` holds NumPy's older
highest-degree-first functions (``poly1d``, ``polyval``, ``polyfit``...), which the main
namespace re-exports.
"""

from __future__ import annotations

from . import polynomial
from .polynomial import Polynomial

__all__ = ["Polynomial", "polynomial"]
