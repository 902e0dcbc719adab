"""zyxarray.typing: annotations for code typed against ``numpy.typing``.

``NDArray[np.float64]`` and the rest work in annotations; zyxarray's arrays are ``Array``
whatever their dtype, so the subscript is accepted and not checked.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from ._api._array_object import Array


class NDArray:
    """``NDArray[dtype]``: a zyxarray array (the dtype parameter is for the reader)."""

    def __class_getitem__(cls, item: Any) -> type[Array]:
        return Array


ArrayLike: TypeAlias = Any
DTypeLike: TypeAlias = Any
NBitBase = Any

__all__ = ["ArrayLike", "DTypeLike", "NBitBase", "NDArray"]
