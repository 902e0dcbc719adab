"""zyxarray.linalg: the standard's linear algebra extension, with NumPy's norm, lstsq and
multi_dot.

Decompositions run on the device's library table (LAPACK through NumPy for host memory);
the arithmetic functions are graph ops that fuse. This module only re-exports the public
names.
"""

from __future__ import annotations

from numpy.linalg import LinAlgError  # raised by the decompositions, as NumPy's are

from ._api._linalg_functions import (
                                     cholesky,
                                     cond,
                                     cross,
                                     det,
                                     diagonal,
                                     eig,
                                     eigh,
                                     eigvals,
                                     eigvalsh,
                                     inv,
                                     lstsq,
                                     matrix_norm,
                                     matrix_power,
                                     matrix_rank,
                                     multi_dot,
                                     norm,
                                     outer,
                                     pinv,
                                     qr,
                                     slogdet,
                                     solve,
                                     svd,
                                     svdvals,
                                     tensordot,
                                     tensorinv,
                                     tensorsolve,
                                     trace,
                                     vector_norm,
)
from ._api._linear_algebra_functions import matmul, matrix_transpose, vecdot

__all__ = [
    "LinAlgError", "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals",
    "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm", "matrix_power", "matrix_rank",
    "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd",
    "svdvals", "tensordot", "tensorinv", "tensorsolve", "trace", "vecdot", "vector_norm",
]

# every public function takes array-likes and refuses arrays on different devices
# (see _api/_arguments.py)
from ._api._arguments import check_namespace as _check_namespace

_check_namespace(globals(), __all__)
del _check_namespace
