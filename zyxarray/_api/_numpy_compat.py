"""NumPy names that the standard renamed or left out, for code written against NumPy.

Layer: ``_api``. Each is a thin ``def`` over a standard function (or, for ``einsum``, a
LIBRARY node computed by NumPy on host memory).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._lazy import graph as g
from . import _dtypes as dt
from . import _elementwise_functions as ew
from . import _manipulation_functions as mf
from . import _statistical_functions as sf
from ._array_object import Array
from ._creation_functions import asarray
from ._linear_algebra_functions import matmul
from ._numpy_args import write_out


def _arr(x: Any) -> Array:
    return x if isinstance(x, Array) else asarray(x)


def concatenate(arrays: Any, axis: int | None = 0) -> Array:
    """NumPy's name for ``concat``."""
    return mf.concat([_arr(a) for a in arrays], axis=axis)


def transpose(x: Any, axes: Any = None) -> Array:
    """Axes reversed, or permuted as ``axes`` says (NumPy's ``transpose``)."""
    x = _arr(x)
    return x.T if axes is None else mf.permute_dims(x, tuple(axes))


def power(x1: Any, x2: Any) -> Array:
    """NumPy's name for ``pow``."""
    return ew.pow(x1, x2)


def absolute(x: Any) -> Array:
    """NumPy's name for ``abs``."""
    return ew.abs(x)


def arccos(x: Any) -> Array:
    return ew.acos(x)


def arcsin(x: Any) -> Array:
    return ew.asin(x)


def arctan(x: Any) -> Array:
    return ew.atan(x)


def arctan2(x1: Any, x2: Any) -> Array:
    return ew.atan2(x1, x2)


def arccosh(x: Any) -> Array:
    return ew.acosh(x)


def arcsinh(x: Any) -> Array:
    return ew.asinh(x)


def arctanh(x: Any) -> Array:
    return ew.atanh(x)


def invert(x: Any) -> Array:
    return ew.bitwise_invert(x)


def left_shift(x1: Any, x2: Any) -> Array:
    return ew.bitwise_left_shift(x1, x2)


def right_shift(x1: Any, x2: Any) -> Array:
    return ew.bitwise_right_shift(x1, x2)


def amax(x: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
         initial: Any = None, where: Any = True) -> Array:
    """NumPy's alias of ``max``."""
    return sf.max(x, axis, out, keepdims, initial, where)


def amin(x: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
         initial: Any = None, where: Any = True) -> Array:
    """NumPy's alias of ``min``."""
    return sf.min(x, axis, out, keepdims, initial, where)


def cumsum(x: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Array:
    """NumPy's cumsum: flattens when ``axis`` is None; small integers accumulate in
    int64/uint64."""
    x = _arr(x)
    if axis is None:
        x, axis = mf.reshape(x, (-1,)), 0
    return write_out("cumsum", out, sf.cumulative_sum(x, axis=axis, dtype=dtype))


def cumprod(x: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Array:
    """NumPy's cumprod: flattens when ``axis`` is None."""
    x = _arr(x)
    if axis is None:
        x, axis = mf.reshape(x, (-1,)), 0
    return write_out("cumprod", out, sf.cumulative_prod(x, axis=axis, dtype=dtype))


def dot(a: Any, b: Any) -> Array:
    """NumPy's dot: a product for scalars, matmul for 1-D and 2-D, else a sum over a's last
    axis and b's second-to-last (as NumPy)."""
    a, b = _arr(a), _arr(b)
    if a.ndim == 0 or b.ndim == 0:
        return ew.multiply(a, b)
    if b.ndim <= 2:
        return matmul(a, b)
    return _dot_nd(a, b)


def _dot_nd(a: Array, b: Array) -> Array:
    # dot(a, b)[i..., j..., k] = sum(a[i..., :] * b[j..., :, k])
    bt = mf.moveaxis(b, -2, 0)                       # (n, j..., k)
    a2 = mf.reshape(a, (-1, a.shape[-1]))            # (I, n)
    b2 = mf.reshape(bt, (bt.shape[0], -1))           # (n, J*K)
    out = matmul(a2, b2)
    return mf.reshape(out, a.shape[:-1] + b.shape[:-2] + b.shape[-1:])


def _einsum_shape(subscripts: str, shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    sub = subscripts.replace(" ", "")
    inputs, _, output = sub.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: {len(terms)} operands in {subscripts!r}, got {len(shapes)}")
    sizes: dict[str, int] = {}
    ell: tuple[int, ...] = ()
    counts: dict[str, int] = {}
    for term, shape in zip(terms, shapes):
        labels = term.replace("...", "")
        n_ell = len(shape) - len(labels)
        if "..." in term:
            left = term.index("...")
            ell = tuple(np.broadcast_shapes(ell, shape[left:left + n_ell]))
            dims = shape[:left] + shape[left + n_ell:]
        else:
            if n_ell:
                raise ValueError(f"einsum: {term!r} does not match shape {shape}")
            dims = shape
        for c, s in zip(labels, dims):
            if sizes.get(c, s) != s and 1 not in (s, sizes[c]):
                raise ValueError(f"einsum: label {c!r} has sizes {sizes[c]} and {s}")
            sizes[c] = max(s, sizes.get(c, s)) if s != 1 else sizes.get(c, s)
            counts[c] = counts.get(c, 0) + 1
    if not _:
        output = ("..." if ell or any("..." in t for t in terms) else "") + \
            "".join(sorted(c for c, k in counts.items() if k == 1))
    head, sep, tail = output.partition("...")
    out = [sizes[c] for c in head]
    if sep:
        out += list(ell)
    out += [sizes[c] for c in tail]
    return tuple(out)


def einsum(subscripts: str, *operands: Any, out: Any = None, dtype: Any = None,
           order: str = "K", casting: str = "safe", optimize: Any = False) -> Array:
    """Einstein summation (NumPy's, on host memory, as a LIBRARY node). ``dtype`` is the
    dtype computed in (operands cast to it under ``casting``); ``order`` and ``optimize``
    change nothing here (the result is row-major; NumPy's contraction order is used)."""
    if not isinstance(subscripts, str):
        raise TypeError("einsum: the subscripts must be a string (the interleaved form "
                        "einsum(a, [0, 1], b, [1, 2]) is not supported)")
    arrays = [_arr(a) for a in operands]
    common = dt.result_type_of(*arrays, where="einsum")
    if dtype is not None:
        wanted = dt.to_dtype(dtype, "einsum")
        for a in arrays:
            if not np.can_cast(a.dtype.np, wanted.np, casting=casting):
                raise TypeError(f"einsum: cannot cast {a.dtype} to {wanted} under "
                                f"casting={casting!r}")
        common = wanted
    shape = _einsum_shape(subscripts, [a.shape for a in arrays])
    node = g.library("einsum", tuple(g.cast(a._node, common.np) for a in arrays),
                     {"subscripts": subscripts}, common.np, shape)
    return write_out("einsum", out, Array._new(node))


def ravel(x: Any) -> Array:
    return mf.reshape(_arr(x), (-1,))


def ndim(x: Any) -> int:
    return _arr(x).ndim


def shape(x: Any) -> tuple[int, ...]:
    return _arr(x).shape


def size(x: Any) -> int:
    return _arr(x).size


float_ = dt.float64
int_ = dt.int64
bool_ = dt.bool
double = dt.float64
single = dt.float32
cdouble = dt.complex128
csingle = dt.complex64
intp = dt.int64
uintp = dt.uint64
