"""zyxarray.exceptions: NumPy's ``numpy.exceptions`` names that code catches.

``AxisError`` is what every function raises for an axis out of range (a ``ValueError`` and an
``IndexError``, as NumPy's is, so ``except ValueError`` and ``except IndexError`` both catch
it); ``zyxarray.AxisError`` is the same class (NumPy 1's spelling). zyxarray's own errors
(``CompileError``, ``DeviceError``) are in the top namespace.
"""

from __future__ import annotations

from ._api._manipulation_functions import AxisError

__all__ = ["AxisError"]
