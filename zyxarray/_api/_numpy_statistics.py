"""NumPy's statistics: comparisons (isclose, allclose, array_equal, array_equiv), average, ptp,
order statistics (median, quantile, percentile), the NaN-ignoring reductions (nan*), and
counting (bincount, digitize, histogram, histogram2d, histogram_bin_edges).

Layer: ``_api``. Everything is composed of the public lazy functions (``where``, ``sum``,
``sort``, ``searchsorted``, ``cumulative_sum``...) plus one gather (a ``take_along_axis``
LIBRARY node whose indices are in bounds by construction, so no host check is needed), so
results stay lazy and fuse. Only what decides a result's shape is realized: ``bincount``'s
largest value, and the data of ``histogram`` with a string ``bins`` estimator. Must not import
``_codegen`` or ``_devices``.

Order statistics sort along the reduced axes (moved last and flattened, as NumPy's tuple
``axis`` does), then gather at the positions the method gives (Hyndman and Fan's definitions
as NumPy implements them). A slice with a NaN gives NaN (NaN sorts last); the nan* versions
count the non-NaN values of each slice and gather at positions computed from that count.
"""

from __future__ import annotations

import builtins
import cmath
import math
from typing import Any

import numpy as np

from .._lazy import graph as g
from . import _dtypes as dt
from . import _elementwise_functions as ew
from . import _hot
from . import _manipulation_functions as mf
from . import _searching_functions as sr
from . import _statistical_functions as sf
from . import _utility_functions as uf
from ._array_object import Array
from ._creation_functions import arange, asarray, full
from ._numpy_args import as_array, as_arrays, device_for, write_out
from ._sorting_functions import argsort, sort

# -- comparisons ---------------------------------------------------------------------------


def _is_py_scalar(v: Any) -> bool:
    return isinstance(v, (builtins.bool, int, float, complex)) and not isinstance(v, np.generic)


def isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08,
            equal_nan: bool = False) -> Array:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (and equal infinities), NumPy's test;
    ``equal_nan`` makes NaN close to NaN. Python scalars take part weakly (a float32 array is
    compared in float32); integer ``b`` is compared as floats."""
    if _is_py_scalar(a) and _is_py_scalar(b):
        a, b = as_arrays(a, b)
    device = device_for(a, b, rtol, atol)
    x = a if _is_py_scalar(a) else as_array(a, device=device)
    y = b if _is_py_scalar(b) else as_array(b, device=device)
    if isinstance(y, Array) and y.dtype not in dt.FLOATING:
        y = y.astype(dt.result_type_of(y, 1.0))
    elif isinstance(y, (builtins.bool, int)):
        y = float(y)
    rtol = rtol if _is_py_scalar(rtol) else as_array(rtol, device=device)
    atol = atol if _is_py_scalar(atol) else as_array(atol, device=device)
    abs_y = ew.abs(y) if isinstance(y, Array) else abs(y)
    finite_y = ew.isfinite(y) if isinstance(y, Array) else cmath.isfinite(y)
    bound = atol + rtol * abs_y         # Python numbers, or arrays through their operators
    close = ew.logical_and(ew.less_equal(ew.abs(ew.subtract(x, y)), bound), finite_y)
    close = ew.logical_or(close, ew.equal(x, y))
    if equal_nan:
        nan_x = ew.isnan(x) if isinstance(x, Array) else cmath.isnan(x)
        nan_y = ew.isnan(y) if isinstance(y, Array) else cmath.isnan(y)
        close = ew.logical_or(close, ew.logical_and(nan_x, nan_y))
    return close


# Note: allclose, array_equal and array_equiv return a 0-d bool array (NumPy: a Python bool),
# so they stay lazy; ``if allclose(a, b):`` and ``bool(...)`` work as with NumPy.
def allclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08,
             equal_nan: bool = False) -> Array:
    """Whether every element of ``a`` is close to ``b`` (``isclose``), as a 0-d bool array."""
    return uf.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _false(device: Any) -> Array:
    return asarray(False, device=device)


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Array:
    """Whether the two have the same shape and elements (NaN equals NaN with ``equal_nan``),
    as a 0-d bool array."""
    x, y = as_arrays(a1, a2)
    sf.device_of("array_equal", (x, y))
    if x.shape != y.shape:
        return _false(x.device)
    same = ew.equal(x, y)
    if equal_nan and (x.dtype in dt.FLOATING or y.dtype in dt.FLOATING):
        same = ew.logical_or(same, ew.logical_and(ew.isnan(x), ew.isnan(y)))
    return uf.all(same)


def array_equiv(a1: Any, a2: Any) -> Array:
    """Whether the two broadcast to one shape and are equal there, as a 0-d bool array."""
    x, y = as_arrays(a1, a2)
    sf.device_of("array_equiv", (x, y))
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return _false(x.device)
    return uf.all(ew.equal(x, y))


# -- average, ptp --------------------------------------------------------------------------


def _weights_like(name: str, x: Array, weights: Any, axis: Any) -> Array:
    """``weights`` as an Array that broadcasts against ``x``: of x's shape, or (given
    ``axis``) of the shape of x along ``axis``, as NumPy's average and quantile take them."""
    w = as_array(weights, device=x.device)
    sf.device_of(name, (x, w))
    if w.shape == x.shape:
        return w
    if axis is None:
        raise TypeError(f"{name}: axis must be specified when shapes of a {x.shape} and "
                        f"weights {w.shape} differ")
    given = tuple(mf.normalize_axis(name, a, x.ndim) for a in
                  (axis if isinstance(axis, tuple) else (axis,)))
    if w.shape != tuple(x.shape[a] for a in given):
        raise ValueError(f"{name}: shape of weights {w.shape} must be consistent with shape "
                         f"of a {x.shape} along axis {axis}")
    w = mf.permute_dims(w, tuple(int(i) for i in np.argsort(given)))
    return mf.reshape(w, tuple(s if i in given else 1 for i, s in enumerate(x.shape)))


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *,
            keepdims: bool = False) -> Any:
    """The (weighted) mean over ``axis``; with ``returned``, also the sum of the weights (the
    element count without weights), broadcast to the average's shape."""
    x = as_array(a)
    if weights is None:
        avg = sf.mean(x, axis, keepdims=keepdims)
        scale: Array = full(avg.shape, x.size / builtins.max(avg.size, 1), dtype=avg.dtype,
                            device=x.device)
    else:
        w = _weights_like("average", x, weights, axis)
        if x.dtype in dt.FLOATING:
            rd = dt.result_type_of(x, w, where="average")
        else:
            rd = dt.result_type_of(x, w, dt.float64, where="average")
        rd = _device_float(rd, x.device)
        # Note: weights that sum to zero give inf/NaN (NumPy raises ZeroDivisionError, which
        # needs the sum on the host)
        scale = sf.sum(w, axis, dtype=rd, keepdims=keepdims)
        total = sf.sum(ew.multiply(x.astype(rd) if x.dtype != rd else x, w), axis,
                       dtype=rd, keepdims=keepdims)
        avg = ew.divide(total, scale)
    if not returned:
        return avg
    if scale.shape != avg.shape:
        scale = mf.broadcast_to(scale, avg.shape)
    return avg, scale


def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Array:
    """Range of values (maximum minus minimum) over ``axis``; integers wrap as in NumPy."""
    x = as_array(a)
    r = ew.subtract(sf.max(x, axis, keepdims=keepdims), sf.min(x, axis, keepdims=keepdims))
    return write_out("ptp", out, r)


# -- order statistics ----------------------------------------------------------------------

# Hyndman and Fan's continuous methods 4-9: (alpha, beta) of the virtual index
# n*q + alpha + q*(1 - alpha - beta) - 1
_CONTINUOUS = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5),
               "weibull": (0.0, 0.0), "median_unbiased": (1 / 3.0, 1 / 3.0),
               "normal_unbiased": (3 / 8.0, 3 / 8.0)}
# methods that pick one element (its dtype is kept); the others interpolate between two
_PICK = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
_METHODS = ("linear", "midpoint", "averaged_inverted_cdf", *_PICK, *_CONTINUOUS)


def _device_float(d: dt.DType, device: Any) -> dt.DType:
    """``d``, or float32/complex64 on a device without float64."""
    if device.info.float64:
        return d
    return {dt.float64: dt.float32, dt.complex128: dt.complex64}.get(d, d)


def _float(device: Any) -> dt.DType:
    return ew.default_float(device)


def _to_last(name: str, x: Array, axis: Any) -> tuple[Array, tuple[int, ...], tuple[int, ...]]:
    """``x`` with the reduced axes moved last and flattened into one: (array of shape
    kept + (n,), the reduced axes, the result's shape with keepdims)."""
    axes = mf.normalize_axes(name, axis, x.ndim)
    kept = tuple(i for i in range(x.ndim) if i not in axes)
    y = mf.permute_dims(x, kept + axes) if kept + axes != tuple(range(x.ndim)) else x
    n = math.prod(x.shape[a] for a in axes)
    y = mf.reshape(y, tuple(x.shape[i] for i in kept) + (n,))
    keep_shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    return y, axes, keep_shape


def _gather_last(s: Array, idx: Array) -> Array:
    """``s[..., idx]`` per row: ``idx`` (int64, in ``[0, n)`` by construction) has s's rank
    and broadcasts against it outside the last axis."""
    shape = tuple(builtins.max(a, b) for a, b in zip(s.shape[:-1], idx.shape[:-1])) + \
        idx.shape[-1:]
    node = g.library("take_along_axis", (s._node, g.cast(idx._node, np.int64)),
                     {"axis": s.ndim - 1}, s.dtype.np, shape)
    return Array._new(node)


def _positions(method: str, n: Any, q: Array, last: int) -> tuple[Array, Array, Array | None]:
    """(lower index, upper index, interpolation weight or None) of each quantile ``q`` in a
    sorted slice of ``n`` values (an int, or a float Array of per-slice counts), by NumPy's
    rules; indices are clipped to ``[0, last]``."""
    def clip(k: Array) -> Array:
        return ew.clip(k, 0, last)

    if method in ("lower", "higher", "nearest"):
        h = (n - 1) * q
        k = {"lower": ew.floor, "higher": ew.ceil, "nearest": ew.round}[method](h)
        return clip(k), clip(k), None
    if method in ("inverted_cdf", "closest_observation"):
        v = n * q - 1
        if method == "closest_observation":
            v = v - 0.5
        p = ew.floor(v)
        at_p = v == p
        if method == "closest_observation":     # ties go to the even order statistic
            at_p = ew.logical_and(at_p, p % 2 == 1)
        k = sr.where(at_p, p, p + 1)
        return clip(k), clip(k), None
    if method == "linear":
        v = (n - 1) * q
    elif method == "midpoint":
        h = (n - 1) * q
        v = (ew.floor(h) + ew.ceil(h)) * 0.5
    elif method == "averaged_inverted_cdf":
        v = n * q - 1
    else:
        alpha, beta = _CONTINUOUS[method]
        v = n * q + (q * (1 - alpha - beta) + alpha) - 1
    p = ew.floor(v)
    above = v >= n - 1
    below = v < 0
    prev = sr.where(above, -1.0, sr.where(below, 0.0, p))
    gamma = v - prev
    if method == "midpoint":
        gamma = sr.where(v % 1 == 0, 0.0, 0.5)
    elif method == "averaged_inverted_cdf":
        gamma = sr.where(gamma == 0, 0.5, 1.0)
    lo = sr.where(above, n - 1, prev)
    hi = sr.where(above, n - 1, sr.where(below, 0.0, p + 1))
    return clip(lo), clip(hi), gamma


def _lerp(a: Array, b: Array, t: Array) -> Array:
    """a + (b - a) * t, from the nearer end (NumPy's formula: exact at t = 0 and t = 1)."""
    d = b - a
    return sr.where(t >= 0.5, b - d * (1 - t), a + d * t)


def _q_array(name: str, q: Any, x: Array, scale: float
             ) -> tuple[Array, tuple[int, ...], bool, bool]:
    """(q / scale as a flat float Array on x's device, q's shape, whether q is a Python
    scalar, whether q / scale is of an integer dtype). Host values are checked against
    [0, 1] (NumPy's ValueError).

    Note: an Array of q is not checked (that would need its values on the host); values
    outside [0, 1] give the first or last element."""
    weak = type(q) in (int, float)
    if isinstance(q, Array):
        sf.device_of(name, (x, q))
        qa = q if q.dtype in dt.REAL_FLOATING else q.astype(_float(q.device))
        qa = qa if scale == 1 else qa / scale
        return mf.reshape(qa, (-1,)), q.shape, False, scale == 1 and q.dtype.kind in "biu"
    h = np.asarray(q)
    if h.dtype.kind not in "biuf":
        raise TypeError(f"{name}: q must be real numbers, got dtype {h.dtype}")
    h = np.true_divide(h, scale) if scale != 1 else h
    if h.size and not (np.all(h >= 0) and np.all(h <= 1)):
        what = "Percentiles" if scale == 100 else "Quantiles"
        raise ValueError(f"{name}: {what} must be in the range [0, {int(scale)}]")
    fd = _device_float(dt.float32 if h.dtype == np.float32 else dt.float64, x.device).np
    qa = asarray(np.ascontiguousarray(h.reshape(-1), dtype=fd), device=x.device)
    return qa, h.shape, weak, h.dtype.kind in "biu"


def _result_dtype(name: str, x: Array, qa: Array, weak: bool, int_q: bool, method: str,
                  weighted: bool) -> tuple[dt.DType, bool]:
    """(NumPy's dtype of a quantile, whether it picks one element). Methods that pick keep
    the input's dtype (so does 'linear' with integer q, and a weighted quantile); the others
    interpolate in the input's and q's promoted dtype (integers as floats)."""
    if method in _PICK or (method == "linear" and int_q) or weighted:
        return x.dtype, True
    if x.dtype is dt.bool:
        raise TypeError(f"{name}: method {method!r} interpolates, which boolean input "
                        "cannot (use a method that picks an element, such as 'lower')")
    r = np.result_type(x.dtype.np, 0.0 if weak else (np.float64 if int_q else qa.dtype.np))
    return _device_float(dt.from_np(np.dtype(r)), x.device), False


def _check_real(name: str, x: Array) -> None:
    if x.dtype.kind == "c":
        raise TypeError(f"{name}: a must be an array of real numbers, got {x.dtype.name}")


def _quantile(name: str, a: Any, q: Any, axis: Any, out: Any, method: str, keepdims: bool,
              weights: Any, interpolation: Any, scale: float, nan: bool) -> Array:
    if interpolation is not None:
        import warnings
        warnings.warn(f"{name}: the 'interpolation' keyword is deprecated; use 'method'",
                      DeprecationWarning, stacklevel=3)
        method = interpolation
    if method not in _METHODS:
        raise ValueError(f"{name}: {method!r} is not a valid method; use one of "
                         f"{', '.join(_METHODS)}")
    if weights is not None and method != "inverted_cdf":
        raise ValueError(f"{name}: only method 'inverted_cdf' supports weights, got {method!r}")
    x = as_array(a, device=device_for(q, weights))
    _check_real(name, x)
    qa, q_shape, weak, int_q = _q_array(name, q, x, scale)
    rd, pick = _result_dtype(name, x, qa, weak, int_q, method, weights is not None)
    if weights is None and _plain_q(q):
        host = _order_statistic_now(name, x, rd, axis, keepdims, q=q, method=method)
        if host is not None:
            return write_out(name, out, host)
    y, _, keep_shape = _to_last(name, x, axis)
    n = y.shape[-1]
    out_shape = q_shape + (keep_shape if keepdims else y.shape[:-1])
    if n == 0:
        if not nan:
            raise IndexError(f"{name}: cannot take a quantile along an empty axis (shape "
                             f"{x.shape}, axis {axis})")
        return write_out(name, out, full(out_shape, math.nan, dtype=_nan_dtype(rd, x),
                                         device=x.device))
    floating = x.dtype in dt.REAL_FLOATING
    qb = mf.reshape(qa, (1,) * (y.ndim - 1) + (qa.size,))
    valid = ew.logical_not(ew.isnan(y)) if nan and floating else None
    if weights is not None:
        order = argsort(y, axis=-1)
        s = _gather_last(y, order)
        res = _weighted_pick(name, x, y, order, s, weights, axis, qb, valid)
    else:
        s = sort(y, axis=-1, stable=False)     # (values only: any order of equal ones)
        count: Any = n if valid is None else sf.sum(valid, axis=-1, keepdims=True,
                                                     dtype=qa.dtype)
        lo, hi, gamma = _positions("lower" if pick and method not in _PICK else method,
                                   count, qb, n - 1)
        res = _gather_last(s, lo)
        if gamma is not None:
            res = _lerp(res.astype(rd), _gather_last(s, hi).astype(rd), gamma.astype(rd))
    if floating:
        # a slice with a NaN gives NaN (NaN sorts last); the nan* versions: an all-NaN one
        undefined = ew.isnan(s[..., -1:]) if valid is None else \
            ew.logical_not(uf.any(valid, axis=-1, keepdims=True))
        res = sr.where(undefined, math.nan, res)
    res = mf.moveaxis(res.astype(rd) if res.dtype != rd else res, -1, 0)
    return write_out(name, out, mf.reshape(res, out_shape))


#: at most this many float values have their order statistics taken by NumPy where they
#: already lie in the cpu device's memory (``_order_statistic_now``)
HOST_ORDER_MAX = 1 << 16
_HOST_ORDER = {"quantile": np.quantile, "percentile": np.percentile,
               "nanquantile": np.nanquantile, "nanpercentile": np.nanpercentile,
               "median": np.median, "nanmedian": np.nanmedian}


def _plain_q(q: Any) -> bool:
    """Whether ``q`` is a Python number or a flat list or tuple of them."""
    if type(q) in (int, float):
        return True
    return type(q) in (list, tuple) and builtins.all(type(v) in (int, float) for v in q)


def _order_statistic_now(name: str, x: Array, rd: dt.DType, axis: Any, keepdims: bool,
                         **kw: Any) -> Array | None:
    """``name`` (median, quantile, percentile and their nan* versions) of float values
    already in the cpu device's memory, at most ``HOST_ORDER_MAX`` of them, by NumPy's
    partition there (what the lazy path's sort and gathers compute, without a sort library
    call, three gathers and their kernels: a median of 100 values 46 -> about 10 us,
    NumPy 7); None where the lazy path serves: another device, pending values, integers
    (NumPy subtracts them in their own dtype), float16, larger inputs."""
    if x.dtype not in (dt.float32, dt.float64) or x.size > HOST_ORDER_MAX or x.size == 0:
        return None
    values = _hot.host_values([x._node])
    if values is None:
        return None
    if axis is not None:        # (the lazy path's checks and errors, not NumPy's)
        axis = mf.normalize_axes(name, axis, x.ndim)
    import warnings
    with warnings.catch_warnings():        # (an all-NaN slice: NaN, without NumPy's warning)
        warnings.simplefilter("ignore", RuntimeWarning)
        res = _HOST_ORDER[name](values[0], axis=axis, keepdims=keepdims, **kw)
    return _hot.wrapped(np.asarray(res, dtype=rd.np), x.device)


def _nan_dtype(rd: dt.DType, x: Array) -> dt.DType:
    return rd if rd in dt.FLOATING else _float(x.device)


def _weighted_pick(name: str, x: Array, y: Array, order: Array, s: Array, weights: Any,
                   axis: Any, qb: Array, valid: Array | None) -> Array:
    """NumPy's weighted 'inverted_cdf': the first sorted value whose cumulative weight
    (normalized to 1) reaches q; leading zero weights are skipped. NaN values weigh nothing
    in the nan* versions.

    Note: negative weights are not rejected, nor weights that sum to zero (NumPy's
    ValueErrors would need their values on the host)."""
    w = _weights_like(name, x, weights, axis)
    w = mf.broadcast_to(w, x.shape) if w.shape != x.shape else w
    wy, _, _ = _to_last(name, w, axis)
    wy = wy.astype(_float(x.device))
    if valid is not None:
        wy = sr.where(valid, wy, 0.0)
    cdf = sf.cumulative_sum(_gather_last(wy, order), axis=-1)
    cdf = cdf / cdf[..., -1:]
    cdf = cdf.astype(qb.dtype) if qb.dtype != cdf.dtype else cdf
    cdf = sr.where(cdf == 0, -1.0, cdf)
    below = ew.less(mf.expand_dims(cdf, axis=-1), mf.expand_dims(qb, axis=-2))
    k = ew.minimum(sf.sum(below, axis=-2), y.shape[-1] - 1)
    return _gather_last(s, k)


def quantile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
             method: str = "linear", keepdims: bool = False, *, weights: Any = None,
             interpolation: Any = None) -> Array:
    """The ``q``-th quantiles (``q`` in [0, 1], any shape: it leads the result's shape) over
    ``axis`` by NumPy's ``method`` (Hyndman and Fan's nine, and 'lower', 'higher',
    'nearest', 'midpoint'); ``weights`` with 'inverted_cdf'. A slice with a NaN gives NaN.
    ``overwrite_input`` is accepted and changes nothing.

    Note: integers interpolate as floats (NumPy subtracts them in their own dtype first,
    which can overflow)."""
    return _quantile("quantile", a, q, axis, out, method, keepdims, weights, interpolation,
                     1, False)


def percentile(a: Any, q: Any, axis: Any = None, out: Any = None,
               overwrite_input: bool = False, method: str = "linear", keepdims: bool = False,
               *, weights: Any = None, interpolation: Any = None) -> Array:
    """The ``q``-th percentiles (``q`` in [0, 100]): ``quantile(a, q / 100, ...)``."""
    return _quantile("percentile", a, q, axis, out, method, keepdims, weights, interpolation,
                     100, False)


def nanquantile(a: Any, q: Any, axis: Any = None, out: Any = None,
                overwrite_input: bool = False, method: str = "linear", keepdims: bool = False,
                *, weights: Any = None, interpolation: Any = None) -> Array:
    """``quantile`` of the non-NaN values of each slice (NaN for an all-NaN slice).

    Note: NumPy's RuntimeWarning for all-NaN slices is not given (it would need the data)."""
    return _quantile("nanquantile", a, q, axis, out, method, keepdims, weights,
                     interpolation, 1, True)


def nanpercentile(a: Any, q: Any, axis: Any = None, out: Any = None,
                  overwrite_input: bool = False, method: str = "linear",
                  keepdims: bool = False, *, weights: Any = None,
                  interpolation: Any = None) -> Array:
    """``percentile`` of the non-NaN values of each slice (NaN for an all-NaN slice)."""
    return _quantile("nanpercentile", a, q, axis, out, method, keepdims, weights,
                     interpolation, 100, True)


def _median(name: str, a: Any, axis: Any, out: Any, keepdims: bool, nan: bool) -> Array:
    x = as_array(a)
    rd = _device_float(x.dtype if x.dtype in dt.FLOATING else dt.float64, x.device)
    host = _order_statistic_now(name, x, rd, axis, keepdims)
    if host is not None:
        return write_out(name, out, host)
    y, _, keep_shape = _to_last(name, x, axis)
    n = y.shape[-1]
    out_shape = keep_shape if keepdims else y.shape[:-1]
    if n == 0:
        # Note: NumPy also warns (RuntimeWarning: Mean of empty slice)
        return write_out(name, out, full(out_shape, math.nan, dtype=rd, device=x.device))
    # (the values only: equal ones in any order, NumPy's introsort, not its stable sort,
    # which took a 20,000-value median 1.1 ms against NumPy's 0.15 by partition)
    s = sort(y, axis=-1, stable=False)
    inexact = x.dtype in dt.FLOATING
    if nan and inexact:
        count = sf.sum(ew.logical_not(ew.isnan(y)), axis=-1, keepdims=True)
        lo = ew.clip((count - 1) // 2, 0, n - 1)
        first = _gather_last(s, lo).astype(rd)
        second = _gather_last(s, ew.clip(count // 2, 0, n - 1)).astype(rd)
        res = sr.where(lo == count // 2, first, (first + second) / 2)
        res = sr.where(count == 0, math.nan, res)
    else:
        first = s[..., (n - 1) // 2:(n - 1) // 2 + 1].astype(rd)
        res = first if n % 2 else (first + s[..., n // 2:n // 2 + 1].astype(rd)) / 2
        if inexact:     # a slice with a NaN gives NaN (NaN sorts last)
            res = sr.where(ew.isnan(s[..., -1:]), math.nan, res)
    return write_out(name, out, mf.reshape(res, out_shape))


def median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
           keepdims: bool = False) -> Array:
    """The median over ``axis`` (the mean of the two middle values of an even count; NaN for
    a slice with a NaN, and for an empty one). ``overwrite_input`` changes nothing."""
    return _median("median", a, axis, out, keepdims, False)


def nanmedian(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
              keepdims: bool = False) -> Array:
    """The median of the non-NaN values of each slice (NaN for an all-NaN slice)."""
    return _median("nanmedian", a, axis, out, keepdims, True)


# -- NaN-ignoring reductions ---------------------------------------------------------------
# Note: NumPy's RuntimeWarnings for all-NaN slices are not given (they would need the data).


def _nan_replaced(x: Array, fill: float) -> Array:
    """``x`` with its NaNs replaced by ``fill`` (integers and bools have none)."""
    if x.dtype not in dt.FLOATING:
        return x
    return sr.where(ew.isnan(x), fill, x)


def nansum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
           keepdims: bool = False, initial: Any = None, where: Any = True) -> Array:
    """``sum`` with NaNs counted as zero."""
    return sf.sum(_nan_replaced(as_array(a), 0.0), axis, dtype, out, keepdims, initial, where)


def nanprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False, initial: Any = None, where: Any = True) -> Array:
    """``prod`` with NaNs counted as one."""
    return sf.prod(_nan_replaced(as_array(a), 1.0), axis, dtype, out, keepdims, initial, where)


def nancumsum(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Array:
    """``cumsum`` with NaNs counted as zero."""
    from ._numpy_compat import cumsum
    return cumsum(_nan_replaced(as_array(a), 0.0), axis, dtype, out)


def nancumprod(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Array:
    """``cumprod`` with NaNs counted as one."""
    from ._numpy_compat import cumprod
    return cumprod(_nan_replaced(as_array(a), 1.0), axis, dtype, out)


def _nan_extremum(name: str, a: Any, largest: bool, axis: Any, out: Any, keepdims: bool,
                  initial: Any, where: Any) -> Array:
    x = as_array(a)
    reduce = sf.max if largest else sf.min
    if x.dtype not in dt.FLOATING:
        return reduce(x, axis, out, keepdims, initial, where)
    nan = ew.isnan(x)
    r = reduce(sr.where(nan, -math.inf if largest else math.inf, x), axis, None, keepdims,
               initial, where)
    if initial is None:     # an all-NaN slice gives NaN (with ``initial``: initial)
        r = sr.where(uf.all(nan, axis, keepdims=keepdims), math.nan, r)
    return write_out(name, out, r)


def nanmax(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = None, where: Any = True) -> Array:
    """The largest non-NaN element over ``axis`` (NaN for an all-NaN slice)."""
    return _nan_extremum("nanmax", a, True, axis, out, keepdims, initial, where)


def nanmin(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = None, where: Any = True) -> Array:
    """The smallest non-NaN element over ``axis`` (NaN for an all-NaN slice)."""
    return _nan_extremum("nanmin", a, False, axis, out, keepdims, initial, where)


# Note: an all-NaN slice gives -1 (NumPy raises ValueError, which would need the data on the
# host).
def _nan_arg(name: str, a: Any, largest: bool, axis: Any, out: Any, keepdims: bool) -> Array:
    x = as_array(a)
    find = sr.argmax if largest else sr.argmin
    if x.dtype not in dt.FLOATING:
        return find(x, axis, out, keepdims=keepdims)
    nan = ew.isnan(x)
    r = find(sr.where(nan, -math.inf if largest else math.inf, x), axis, keepdims=keepdims)
    r = sr.where(uf.all(nan, axis, keepdims=keepdims), -1, r)
    return write_out(name, out, r)


def nanargmax(a: Any, axis: int | None = None, out: Any = None, *,
              keepdims: bool = False) -> Array:
    """Index of the largest non-NaN element (-1 for an all-NaN slice)."""
    return _nan_arg("nanargmax", a, True, axis, out, keepdims)


def nanargmin(a: Any, axis: int | None = None, out: Any = None, *,
              keepdims: bool = False) -> Array:
    """Index of the smallest non-NaN element (-1 for an all-NaN slice)."""
    return _nan_arg("nanargmin", a, False, axis, out, keepdims)


def _not_nan(x: Array, where: Any) -> Any:
    """The elements a nan* reduction uses: non-NaN and selected by ``where``."""
    keep = ew.logical_not(ew.isnan(x))
    if where is True:
        return keep
    return ew.logical_and(keep, as_array(where, device=x.device))


def nanmean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False, *, where: Any = True) -> Array:
    """The mean of the non-NaN elements over ``axis`` (NaN for an all-NaN slice)."""
    x = as_array(a)
    if x.dtype not in dt.FLOATING:
        return sf.mean(x, axis, dtype, out, keepdims, where=where)
    return sf.mean(x, axis, dtype, out, keepdims, where=_not_nan(x, where))


def nanvar(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
           keepdims: bool = False, *, where: Any = True, mean: Any = None,
           correction: float | None = None) -> Array:
    """The variance of the non-NaN elements over ``axis``, dividing by their count minus
    ``ddof`` (NaN where that is not positive)."""
    x = as_array(a)
    if x.dtype not in dt.FLOATING:
        return sf.var(x, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                      correction=correction)
    keep = _not_nan(x, where)
    v = sf.var(x, axis, dtype, None, ddof, keepdims, where=keep, mean=mean,
               correction=correction)
    dof = sf.sum(keep, axis, keepdims=keepdims) - (ddof if correction is None else correction)
    return write_out("nanvar", out, sr.where(dof <= 0, math.nan, v))


def nanstd(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
           keepdims: bool = False, *, where: Any = True, mean: Any = None,
           correction: float | None = None) -> Array:
    """The standard deviation of the non-NaN elements (the square root of ``nanvar``)."""
    v = nanvar(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
               correction=correction)
    return write_out("nanstd", out, ew.sqrt(v))


# -- counting: bincount, digitize, histograms ----------------------------------------------

# Above this many (element, bin) pairs, bins are counted by sorting instead of comparing
# every element with every bin (one fused reduction, exact sums of weights).
ONE_HOT_MAX = 1 << 22


def _count_bins(idx: Array, weights: Array | None, length: int) -> Array:
    """How many of the int64 ``idx`` (1-D) fall in each bin ``0..length-1`` (the sum of their
    ``weights`` if given); indices outside are ignored.

    Small problems compare every index with every bin in one fused reduction; large ones sort
    the indices and find each bin's run with ``searchsorted`` (weights: differences of the
    running sum over the sorted order, which NumPy's own histogram uses for explicit bins)."""
    device = idx.device
    bins = arange(length, dtype=dt.int64, device=device)
    if idx.size * length <= ONE_HOT_MAX:
        hit = idx[:, None] == bins[None, :]
        if weights is None:
            return sf.sum(hit, axis=0)
        return sf.sum(sr.where(hit, weights[:, None], 0), axis=0)
    edges = arange(length + 1, dtype=dt.int64, device=device)
    if weights is None:
        starts = sr.searchsorted(sort(idx), edges)
        return starts[1:] - starts[:-1]
    order = argsort(idx)
    starts = sr.searchsorted(_gather_last(idx, order), edges)
    running = sf.cumulative_sum(_gather_last(weights, order), include_initial=True)
    at = _gather_last(running, starts)
    return at[1:] - at[:-1]


def bincount(x: Any, /, weights: Any = None, minlength: int = 0) -> Array:
    """How often each value 0, 1, ... occurs in the non-negative integers ``x`` (1-D), or
    the sum of the ``weights`` (float64) at each value; at least ``minlength`` long.

    Realizes ``max(x)`` and ``min(x)``: the length depends on the largest value."""
    x = as_array(x, device=device_for(weights))
    if x.ndim != 1:
        raise ValueError(f"bincount: x must be 1-D, got shape {x.shape} (object too "
                         f"{'deep' if x.ndim > 1 else 'small'} for desired array)")
    if x.dtype not in dt.INTEGER and x.dtype is not dt.bool:
        raise TypeError(f"bincount: cannot cast array data from {x.dtype.name} to int64 "
                        "according to the rule 'safe'")
    if minlength is None:
        raise TypeError("bincount: use 0 instead of None for minlength")
    minlength = int(minlength)
    if minlength < 0:
        raise ValueError(f"bincount: 'minlength' must not be negative, got {minlength}")
    w = None
    if weights is not None:
        w = as_array(weights, device=x.device)
        sf.device_of("bincount", (x, w))
        if w.shape != x.shape:
            raise ValueError(f"bincount: the weights {w.shape} and list {x.shape} don't have "
                             "the same length")
        if w.dtype.kind == "c":
            raise TypeError(f"bincount: weights must be real, got {w.dtype.name}")
        w = w.astype(_float(x.device))
    length = minlength
    if x.size:
        if hasattr(x.device, "host_array"):     # (in host memory: read where it lies)
            host = x._host()
            top, bottom = int(host.max()), int(host.min())
            if w is None and bottom >= 0 and _hot.now_max():
                # (counts of values already read from host memory: counted there, exactly,
                # by NumPy's loop; the lazy one-hot reduction or sort costs a realization
                # per call, which a loop of bincounts pays each step)
                counts = np.bincount(host.astype(np.int64), minlength=minlength)
                return _hot.wrapped(counts, x.device)    # (NumPy's new array: no copy)
        else:                                   # (two reductions, one read)
            top, bottom = (int(v) for v in mf.stack(
                [sf.max(x).astype(dt.int64), sf.min(x).astype(dt.int64)])._host())
        if bottom < 0:
            raise ValueError("bincount: 'list' argument must have no negative elements")
        length = builtins.max(top + 1, minlength)
    idx = x.astype(dt.int64) if x.dtype is not dt.int64 else x
    if length == 0:
        return full((0,), 0, dtype=dt.int64 if w is None else w.dtype, device=x.device)
    return _count_bins(idx, w, length)


def _monotonic(bins: np.ndarray) -> int:
    """1 if ``bins`` never decreases, -1 if it never increases, else 0."""
    d = np.diff(bins)
    return 1 if np.all(d >= 0) else (-1 if np.all(d <= 0) else 0)


def digitize(x: Any, bins: Any, right: bool = False) -> Array:
    """The index of the bin of each ``x`` in the monotonic 1-D ``bins`` (``bins[i-1] <= x <
    bins[i]`` for increasing bins, ``right`` puts the equality on the other side); int64.

    Note: the monotonicity of device-resident ``bins`` is not checked (it would need their
    values); their direction is read on the device."""
    device = device_for(x, bins)
    xa = as_array(x, device=device)
    if xa.dtype.kind == "c":
        raise TypeError("digitize: x may not be complex")
    side = "left" if right else "right"
    if not isinstance(bins, Array):
        hb = np.asarray(bins)
        if hb.ndim != 1:
            raise ValueError(f"digitize: bins must be 1-D, got shape {hb.shape}")
        mono = _monotonic(hb) if hb.size else 1
        if mono == 0:
            raise ValueError("digitize: bins must be monotonically increasing or decreasing")
        b = as_array(hb, device=xa.device)
        if mono == 1:
            return sr.searchsorted(b, xa, side)
        return b.shape[0] - sr.searchsorted(mf.flip(b), xa, side)
    sf.device_of("digitize", (xa, bins))
    if bins.ndim != 1:
        raise ValueError(f"digitize: bins must be 1-D, got shape {bins.shape}")
    up = sr.searchsorted(bins, xa, side)
    if bins.shape[0] < 2:
        return up
    down = bins.shape[0] - sr.searchsorted(mf.flip(bins), xa, side)
    return sr.where(bins[-1] < bins[0], down, up)


_ESTIMATORS = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")


def _outer_edges(name: str, a: Array, range: Any) -> tuple[Any, Any]:
    """The first and last edge: ``range`` checked (host values), or the data's minimum and
    maximum as lazy 0-d arrays (0 and 1 for no data); equal ends move apart by 0.5.

    Note: with ``range=None``, NaN or infinite data give NaN or infinite edges and no counts
    (NumPy raises ValueError, which would need the minimum and maximum on the host)."""
    if range is not None:
        lo, hi = range
        if lo > hi:
            raise ValueError(f"{name}: max must be larger than min in range parameter")
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError(f"{name}: supplied range of [{lo}, {hi}] is not finite")
        if lo == hi:
            return lo - 0.5, hi + 0.5
        return lo, hi
    if a.size == 0:
        return 0, 1
    lo, hi = sf.min(a), sf.max(a)
    same = lo == hi
    return sr.where(same, lo - 0.5, lo), sr.where(same, hi + 0.5, hi)


def _linspace_edges(lo: Any, hi: Any, n: int, dtype: dt.DType, device: Any) -> Array:
    """NumPy's ``linspace(lo, hi, n + 1, dtype=dtype)``: k * ((hi - lo) / n) + lo, the last
    one hi, computed in the ends' dtype (float64 for Python numbers) and then converted."""
    calc = next((v.dtype for v in (lo, hi) if isinstance(v, Array)), _float(device))
    lo, hi = (v.astype(calc) if isinstance(v, Array) else v for v in (lo, hi))
    k = arange(n + 1, dtype=calc, device=device)
    edges = sr.where(k == n, hi, k * ((hi - lo) / n) + lo)
    return edges.astype(dtype) if edges.dtype != dtype else edges


def _edge_dtype(range: Any, a: Array) -> dt.DType:
    """NumPy's dtype of the edges of ``a``'s histogram: the edges' and a's (floats)."""
    ends = tuple(range) if range is not None else (a.dtype.np.type(0),) * 2
    r = np.result_type(*ends, a.dtype.np)
    if r.kind in "biu":
        r = np.dtype(np.float64)
    return _device_float(dt.from_np(r), a.device)


def _edges(name: str, a: Array, bins: Any, range: Any, weights: Array | None) -> Array:
    """The bin edges of the flat ``a``: from a count, a string estimator (which realizes
    ``a``: the count depends on the data) or given edges."""
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"{name}: {bins!r} is not a valid estimator for bins; use one "
                             f"of {', '.join(_ESTIMATORS)}")
        if weights is not None:
            raise TypeError(f"{name}: automated estimation of the number of bins is not "
                            "supported for weighted data")
        edges = np.histogram_bin_edges(a._host(), bins=bins, range=range)
        return asarray(edges, device=a.device)
    ndim = bins.ndim if isinstance(bins, Array) else np.ndim(bins)
    if ndim > 1:
        raise ValueError(f"{name}: bins must be 1d, when an array")
    if ndim == 1 and isinstance(bins, Array):
        # Note: device-resident edges are not checked for monotonicity (that would need
        # their values on the host)
        sf.device_of(name, (a, bins))
        return bins
    if ndim == 1:
        hb = np.asarray(bins)
        if hb.size and np.any(hb[:-1] > hb[1:]):
            raise ValueError(f"{name}: bins must increase monotonically, when an array")
        return asarray(hb, device=a.device)
    n = _bin_count(name, bins)     # (a 0-d Array is realized: it decides the shape)
    lo, hi = _outer_edges(name, a, range)
    return _linspace_edges(lo, hi, n, _edge_dtype(range, a), a.device)


def _bin_index(a: Array, edges: Array) -> Array:
    """The bin of each element of the flat ``a``: ``edges[i] <= v < edges[i+1]``, the last
    bin closed; -1 or len(edges) - 1 outside (NaN: outside)."""
    nb = edges.shape[0] - 1
    idx = sr.searchsorted(edges, a, "right") - 1
    return sr.where(a == edges[-1], nb - 1, idx)


def _flat(name: str, a: Any, weights: Any) -> tuple[Array, Array | None]:
    x = as_array(a, device=device_for(weights))
    if x.dtype.kind == "c":
        raise TypeError(f"{name}: complex data are not supported")
    w = None
    if weights is not None:
        w = as_array(weights, device=x.device)
        sf.device_of(name, (x, w))
        if w.shape != x.shape:
            raise ValueError(f"{name}: weights of shape {w.shape} should have the shape of a "
                             f"{x.shape}")
        w = mf.reshape(w, (-1,))
    return mf.reshape(x, (-1,)), w


def histogram_bin_edges(a: Any, bins: Any = 10, range: Any = None,
                        weights: Any = None) -> Array:
    """The edges ``histogram`` would use: ``bins`` equal bins over ``range`` (default: the
    data's minimum to maximum, lazily), the given edges, or a string estimator's (realizes
    ``a``: the number of bins depends on the data)."""
    x, w = _flat("histogram_bin_edges", a, weights)
    return _edges("histogram_bin_edges", x, bins, range, w)


def histogram(a: Any, bins: Any = 10, range: Any = None, density: Any = None,
              weights: Any = None) -> tuple[Array, Array]:
    """(counts, edges) of the flattened ``a``: how many values (the sum of their ``weights``,
    in the weights' dtype) fall in each bin; bins are half-open but the last, which is
    closed; values outside the range are left out. ``density`` divides by the total and the
    bin widths (float64). Lazy unless ``bins`` is a string estimator."""
    x, w = _flat("histogram", a, weights)
    if w is None:
        host = _histogram_now(x, bins, range, density)
        if host is not None:
            return host
    edges = _edges("histogram", x, bins, range, w)
    nb = edges.shape[0] - 1
    if nb < 0:
        raise ValueError("histogram: bins must have at least one edge")
    idx = _bin_index(x, edges) if x.size else x.astype(dt.int64)
    wide = None if w is None else w.astype(_wide(w.dtype, x.device))
    counts = _count_bins(idx, wide, nb)
    if w is not None and counts.dtype != w.dtype:
        counts = counts.astype(w.dtype)
    if density:
        f = _float(x.device)
        widths = (edges[1:] - edges[:-1]).astype(f)
        counts = counts.astype(f) / widths / sf.sum(counts).astype(f)
    return counts, edges


def _histogram_now(x: Array, bins: Any, range: Any, density: Any
                   ) -> tuple[Array, Array] | None:
    """``histogram`` of real values already in the cpu device's memory (at most
    ``HOST_ORDER_MAX``), a number of bins or a list of edges, a range of numbers or None and
    no weights, by NumPy there: its bins and counts (178 us of edges, bin indices and a
    counting reduction before for 100 values; NumPy 25). None where the lazy path serves
    (it raises the errors too)."""
    number = (int, float)
    if (x.dtype not in dt.REAL_FLOATING and x.dtype not in dt.INTEGER) or \
            x.dtype is dt.float16 or x.size > HOST_ORDER_MAX or x.size == 0 or \
            not (type(bins) is int or (type(bins) in (list, tuple) and
                                        builtins.all(type(b) in number for b in bins))) or \
            not (range is None or (type(range) in (list, tuple) and len(range) == 2 and
                                   builtins.all(type(r) in number for r in range))):
        return None
    values = _hot.host_values([x._node])
    if values is None:
        return None
    try:
        counts, edges = np.histogram(values[0], bins, range, density=bool(density))
    except (ValueError, TypeError):     # (the lazy path raises the call's own error)
        return None
    return _hot.wrapped(counts, x.device), _hot.wrapped(edges, x.device)


def _wide(d: dt.DType, device: Any) -> dt.DType:
    """The dtype weights are summed in: float64 (complex128 for complex weights)."""
    return _device_float(dt.complex128 if d.kind == "c" else dt.float64, device)


def _axis_edges(name: str, v: Array, bins: Any, range: Any) -> Array:
    """histogram2d's edges along one coordinate (NumPy's histogramdd: equal bins are
    ``linspace``'s dtype, that of the ends)."""
    if (bins.ndim if isinstance(bins, Array) else np.ndim(bins)) >= 1:
        return _edges(name, v, bins, None, None)
    n = _bin_count(name, bins)     # (a 0-d Array is realized: it decides the shape)
    lo, hi = _outer_edges(name, v, range)
    ends = tuple(range) if range is not None else (v.dtype.np.type(0),) * 2
    r = np.result_type(*ends, 1.0)
    r = np.dtype(np.float64) if r.kind in "biu" else r
    return _linspace_edges(lo, hi, n, _device_float(dt.from_np(r), v.device), v.device)


def _bin_count(name: str, bins: Any) -> int:
    """A number of bins: a positive integer (NumPy's TypeError and ValueError otherwise)."""
    import operator
    try:
        n = operator.index(bins)
    except TypeError:
        raise TypeError(f"{name}: bins must be an integer, a string, or an array, got "
                        f"{bins!r}") from None
    if n < 1:
        raise ValueError(f"{name}: bins must be positive, when an integer (got {n})")
    return n


def histogram2d(x: Any, y: Any, bins: Any = 10, range: Any = None, density: Any = None,
                weights: Any = None) -> tuple[Array, Array, Array]:
    """(H, xedges, yedges): the 2-D histogram of the points (x[i], y[i]) (float64 counts,
    sums of ``weights`` if given). ``bins``: a count, [nx, ny], one array of edges for both,
    or [xedges, yedges] (a mix of counts and edges too); ``range``: [[xmin, xmax], [ymin,
    ymax]] (an entry may be None). Lazy."""
    name = "histogram2d"
    device = device_for(x, y, weights, bins)
    xa, ya = as_array(x, device=device), as_array(y, device=device)
    sf.device_of(name, (xa, ya))
    if xa.ndim != 1 or ya.ndim != 1 or xa.shape != ya.shape:
        raise ValueError(f"{name}: x and y must have the same length (shapes {xa.shape} and "
                         f"{ya.shape})")
    # NumPy stacks the coordinates, so both take their common dtype
    common = dt.result_type_of(xa, ya, where=name)
    xa, ya = xa.astype(common), ya.astype(common)
    _, w = _flat(name, xa, weights)
    if isinstance(bins, (list, tuple)) or (isinstance(bins, (Array, np.ndarray)) and
                                           bins.ndim >= 1):
        if len(bins) == 1:
            raise ValueError(f"{name}: bins must be a count, two counts or arrays of edges, "
                             "or one array of edges")
        if len(bins) != 2:
            bins = [bins, bins]
    else:
        bins = [bins, bins]
    ranges = [None, None] if range is None else list(range)
    xe = _axis_edges(name, xa, bins[0], ranges[0])
    ye = _axis_edges(name, ya, bins[1], ranges[1])
    nx, ny = xe.shape[0] - 1, ye.shape[0] - 1
    ix, iy = _bin_index(xa, xe), _bin_index(ya, ye)
    inside = ew.logical_and(ew.logical_and(ix >= 0, ix < nx), ew.logical_and(iy >= 0, iy < ny))
    flat = sr.where(inside, ix * ny + iy, -1)
    f = _float(xa.device)
    hist = _count_bins(flat, None if w is None else w.astype(_wide(w.dtype, xa.device)), nx * ny)
    hist = mf.reshape(hist.astype(f) if hist.dtype.kind != "c" else hist, (nx, ny))
    if density:
        dx = (xe[1:] - xe[:-1]).astype(f)
        dy = (ye[1:] - ye[:-1]).astype(f)
        hist = hist / dx[:, None] / dy[None, :] / sf.sum(hist)
    return hist, xe, ye
