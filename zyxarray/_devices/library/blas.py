"""Host matrix products: NumPy's matmul, which calls the BLAS NumPy ships.

Layer: ``_devices``.
"""

from __future__ import annotations

import numpy as np

from . import host_impl


@host_impl("matmul")
def matmul(a: np.ndarray, b: np.ndarray, *, out: np.ndarray) -> None:
    if out.size == 0:
        return
    if a.dtype == np.bool_:
        out[...] = np.matmul(a.astype(np.uint8), b.astype(np.uint8)) != 0
        return
    np.matmul(a, b, out=out)


@host_impl("einsum")
def einsum(*operands: np.ndarray, out: np.ndarray, subscripts: str) -> None:
    out[...] = np.einsum(subscripts, *operands)
