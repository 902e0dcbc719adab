"""Masked arrays (``zyxarray.ma``): NumPy's ``numpy.ma`` over device arrays.

Layer: ``_api``. A ``MaskedArray`` holds two zyxarray arrays on one device, its ``data`` and
a boolean ``mask`` (or ``nomask``: no element is masked), and a ``fill_value``. Everything is
composed of zyxarray's public functions and stays lazy: arithmetic combines masks with
logical_or and masks what NumPy's ma masks (division by zero, the logarithm or square root of
numbers outside their domain, non-finite results of the domained functions); reductions skip
masked elements through ``where=`` and mask the slices in which every element is masked.
Imports only the ``_api`` modules and ``_lazy.graph``; never ``_codegen`` or ``_devices``.

Data is read to the host only where NumPy's result depends on it beyond its shape:

- a result with no dimensions (``x[i]``, a reduction over every axis) is ``masked`` or a 0-d
  array, as NumPy gives ``masked`` or a scalar: one mask value is read when there is a mask;
- ``compressed()`` (its length is the number of unmasked elements), ``is_masked``, printing,
  ``tolist`` and the conversions to Python scalars.

Deviations from NumPy are marked ``# Note:``; the main one: NumPy "shrinks" a mask that
turns out to be all False to ``nomask`` (that needs the data), zyxarray keeps it as an array
of False, which prints ``mask=[False, ...]`` instead of ``mask=False`` and means the same.
"""

from __future__ import annotations

import builtins
import itertools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._lazy import graph as g
from . import _dtypes as dt
from . import _elementwise_functions as ew
from . import _manipulation_functions as mf
from . import _searching_functions as sr
from . import _statistical_functions as sf
from . import _utility_functions as ut
from ._array_object import Array
from ._creation_functions import asarray as _asarray
from ._creation_functions import full
from ._creation_functions import zeros as _zeros
from ._data_type_functions import astype
from ._numpy_args import as_array, write_out
from ._numpy_compat import cumprod as _cumprod
from ._numpy_compat import cumsum as _cumsum
from ._numpy_statistics import median as _plain_median
from ._sorting_functions import sort as _sort

#: "no element is masked": NumPy's own sentinel (``numpy.ma.nomask``), so either compares
#: by identity
nomask = np.ma.nomask
#: NumPy's exceptions, so ``except numpy.ma.MaskError`` catches zyxarray's too
MAError = np.ma.MAError
MaskError = np.ma.MaskError

_DEFAULT_FILL = {"b": np.True_, "i": np.int64(999999), "u": np.uint64(999999),
                 "f": np.float64(1e20), "c": np.complex128(1e20 + 0j)}
_TINY = float(np.finfo(np.float64).tiny)
_OPERANDS = (Array, bool, int, float, complex, np.ndarray, np.generic, list, tuple)


# -- fill values ---------------------------------------------------------------------------
def _np_dtype(obj: Any) -> np.dtype:
    """The NumPy dtype of an array, a dtype or a scalar."""
    if isinstance(obj, (MaskedArray, Array)):
        return obj.dtype.np
    if isinstance(obj, dt.DType):
        return obj.np
    if isinstance(obj, (np.dtype, type)):
        return np.dtype(obj)
    return np.asarray(obj).dtype


def default_fill_value(obj: Any) -> Any:
    """NumPy's default fill value for ``obj``'s dtype: True, 999999 or 1e20 (+0j)."""
    return _DEFAULT_FILL[_np_dtype(obj).kind]


def minimum_fill_value(obj: Any) -> Any:
    """The largest value of ``obj``'s dtype (what ``min`` fills masked elements with)."""
    d = _np_dtype(obj)
    if d.kind == "b":
        return np.True_
    if d.kind in "iu":
        return d.type(np.iinfo(d).max)
    return d.type(np.inf)


def maximum_fill_value(obj: Any) -> Any:
    """The smallest value of ``obj``'s dtype (what ``max`` fills masked elements with)."""
    d = _np_dtype(obj)
    if d.kind == "b":
        return np.False_
    if d.kind in "iu":
        return d.type(np.iinfo(d).min)
    return d.type(-np.inf)


def _check_fill(value: Any, dtype: dt.DType) -> Any:
    """``value`` as a fill value of ``dtype`` (a NumPy array on the host); TypeError when it
    does not convert, as NumPy's."""
    if value is None:
        return np.array(default_fill_value(dtype))
    if isinstance(value, Array):
        value = np.asarray(value)       # (a fill value is kept on the host)
    if isinstance(value, str):
        raise TypeError(f"Cannot set fill value of string with array of dtype {dtype.name}")
    try:
        return np.asarray(value, dtype=dtype.np)
    except (OverflowError, ValueError, TypeError) as e:
        raise TypeError(f"Cannot convert fill_value {value!r} to dtype {dtype.name}") from e


def _carried_fill(fill: Any, dtype: dt.DType) -> Any:
    """A fill value carried over to a result of ``dtype``: as it is, as NumPy's results
    keep their operand's (None when it does not convert to ``dtype``)."""
    if fill is None:
        return None
    try:
        _check_fill(fill, dtype)
    except TypeError:
        return None
    return fill


# -- operands ------------------------------------------------------------------------------
def _is_const(x: Any) -> bool:
    return x is masked or x is np.ma.masked


def _device(*xs: Any) -> Any:
    """The device of the first array among ``xs`` (None: the default device)."""
    for x in xs:
        if _is_const(x):
            continue
        if isinstance(x, MaskedArray):
            return x._data.device
        if isinstance(x, Array):
            return x.device
    return None


def _parts(x: Any, device: Any) -> tuple[Any, Any]:
    """(data, mask) of an operand on ``device``: data an Array (a NumPy float 0.0 for the
    ``masked`` constant), mask None (nomask), True (``masked``: everything) or a bool
    Array."""
    if _is_const(x):
        return np.float64(0.0), True
    if isinstance(x, MaskedArray):
        return x._data, x._mask
    if isinstance(x, np.ma.MaskedArray):
        m = np.ma.getmask(x)
        return (_asarray(np.ma.getdata(x), device=device),
                None if m is nomask else _asarray(m, device=device))
    if isinstance(x, Array):
        return x, None
    # numpy.ma's operations take an operand's data as an array: a Python scalar becomes a
    # 0-d int64/float64/complex128 array there, which promotes (float32 data * 2 is float64)
    return as_array(np.asarray(x) if isinstance(x, (bool, int, float, complex)) else x,
                    device=device), None


def _full_mask(mask: Any, shape: tuple[int, ...], device: Any) -> Array:
    """A mask part (None, True or a bool Array) as a writable bool array of ``shape``."""
    if mask is None:
        return _zeros(shape, dtype=dt.bool, device=device)
    if mask is True:
        return full(shape, True, dtype=dt.bool, device=device)
    if mask.shape != shape:
        return mf.broadcast_to(mask, shape).copy()   # (a copy: a broadcast is read-only)
    return mask


def _or_masks(shape: tuple[int, ...], device: Any, *masks: Any) -> Array | None:
    """The union of mask parts, of ``shape`` (None when none of them masks anything)."""
    if builtins.any(m is True for m in masks):
        return full(shape, True, dtype=dt.bool, device=device)
    arrays = [m for m in masks if isinstance(m, Array)]
    if not arrays:
        return None
    out = arrays[0]
    for m in arrays[1:]:
        out = ew.logical_or(out, m)
    return _full_mask(out, shape, device)


def _scalar(data: Array, mask: Any) -> Any:
    """A result with no dimensions: ``masked`` or the 0-d data, as NumPy gives ``masked``
    or a scalar (reads the one mask value when there is a mask)."""
    if mask is None:
        return data
    if mask is True or bool(mask):
        return masked
    return data


def _result(data: Array, mask: Any, fill: Any = None) -> Any:
    """A masked result: ``masked``/0-d data without dimensions, else a MaskedArray."""
    if data.ndim == 0:
        return _scalar(data, mask)
    return MaskedArray._make(data, _full_mask(mask, data.shape, data.device)
                             if mask is not None else None, fill)


def _keep_first(mask: Array | None, first: Any, result: Array) -> Array:
    """NumPy's data under masked results: the first operand's (cast to the result's dtype;
    a complex operand of a real result is left out, as its imaginary part would be)."""
    if mask is None:
        return result
    if isinstance(first, Array) and first.dtype in dt.COMPLEX_FLOATING and \
            result.dtype not in dt.COMPLEX_FLOATING:
        return result
    return astype(sr.where(mask, first, result), result.dtype)


def _fill_of(*xs: Any) -> Any:
    """The fill value a result takes over: the first masked array operand's."""
    for x in xs:
        if isinstance(x, MaskedArray) and not _is_const(x):
            return x._fill_value
    return None


# -- elementwise operations ----------------------------------------------------------------
def _divide_domain(a: Any, b: Any) -> Any:
    """NumPy's ``_DomainSafeDivide`` as a mask part: ``|a| * tiny >= |b|`` for floats (b == 0,
    or a quotient past the largest float64), ``b == 0`` for integers."""
    if not isinstance(b, Array):        # the masked constant: masked anyway
        return None
    if np.result_type(_np_dtype(a), _np_dtype(b)).kind not in "fc":
        return ew.equal(b, 0)
    scaled = ew.multiply(ew.abs(a), _TINY) if isinstance(a, Array) else builtins.abs(a) * _TINY
    return ew.less_equal(ew.abs(b), scaled)


def _binary(fn: Callable[[Any, Any], Array], a: Any, b: Any, domain: Any = None,
            invalid: bool = False) -> tuple[Array, Array | None, Any, Any]:
    """(data, mask, first operand's data, fill) of ``fn(a, b)`` on masked operands: the masks
    combined, plus ``domain(da, db)`` and the non-finite results when ``invalid``."""
    device = _device(a, b)
    da, ma_ = _parts(a, device)
    db, mb = _parts(b, device)
    if not isinstance(da, Array) and not isinstance(db, Array):
        da = as_array(da, device=device)
    result = fn(da, db)
    masks = [ma_, mb]
    if domain is not None:
        masks.append(domain(da, db))
    if invalid and result.dtype in dt.FLOATING:
        masks.append(ew.logical_not(ew.isfinite(result)))
    mask = _or_masks(result.shape, result.device, *masks)
    return result, mask, da, _fill_of(a, b)


def _foreign(x: Any) -> bool:
    """True for an operand the masked operators leave to the other side (NotImplemented)."""
    return x is None or not isinstance(x, (*_OPERANDS, MaskedArray))


def _arith(fn: Callable[[Any, Any], Array], a: Any, b: Any, domain: Any = None) -> Any:
    """A masked arithmetic result (NumPy's ``_MaskedBinaryOperation``, and with ``domain``
    its ``_DomainedBinaryOperation``, which also masks non-finite results)."""
    data, mask, first, fill = _binary(fn, a, b, domain, invalid=domain is not None)
    data = _keep_first(mask, first, data)
    return _result(data, mask, _carried_fill(fill, data.dtype))


def _power(a: Any, b: Any) -> Any:
    """``a ** b``: non-finite results masked; their data is the fill value (NumPy's)."""
    # Note: float results always get a mask array (NumPy's is nomask when no result of an
    # unmasked input is invalid: that reads them)
    data, mask, first, fill = _binary(ew.pow, a, b, invalid=True)
    data = _keep_first(mask, first, data)
    if mask is not None and data.dtype in dt.FLOATING:
        bad = ew.logical_not(ew.isfinite(data))
        fv = _check_fill(_carried_fill(fill, data.dtype), data.dtype)
        data = sr.where(bad, fv[()], data)
    return _result(data, mask, _carried_fill(fill, data.dtype))


def _compare(fn: Callable[[Any, Any], Array], a: Any, b: Any, eq: bool | None) -> Any:
    """A masked comparison (NumPy's ``MaskedArray._comparison``): masked where either is;
    for ``==``/``!=`` the data under the mask compares the masks themselves."""
    data, mask, _, fill = _binary(fn, a, b)
    if mask is not None and eq is not None:
        device = data.device
        ma_ = _full_mask(_parts(a, device)[1], data.shape, device)
        mb = _full_mask(_parts(b, device)[1], data.shape, device)
        data = sr.where(mask, fn(ma_, mb), data)
    try:
        bool_fill = None if fill is None else _check_fill(fill, dt.bool)
    except TypeError:
        bool_fill = None
    return _result(data, mask, bool_fill)


def _unary(fn: Callable[[Array], Array], x: Any, domain: Callable[[Array], Array] | None = None
           ) -> Any:
    """A masked elementwise function (NumPy's ``_MaskedUnaryOperation``): with ``domain``,
    the elements outside it and the non-finite results are masked too."""
    device = _device(x)
    d, m = _parts(x, device)
    d = as_array(d, device=device)
    result = fn(d)
    masks = [m]
    if domain is not None:
        if result.dtype in dt.FLOATING:
            masks.append(ew.logical_not(ew.isfinite(result)))
        masks.append(domain(d))
    mask = _or_masks(result.shape, result.device, *masks)
    result = _keep_first(mask, d, result)
    return _result(result, mask, _carried_fill(_fill_of(x), result.dtype))


# The domains compare complex numbers as NumPy does: lexicographically (real part first)
def _lex_below(x: Array, bound: float, inclusive: bool) -> Array:
    """``x < bound`` (``<=`` when ``inclusive``), complex numbers lexicographically."""
    less = ew.less_equal if inclusive else ew.less
    if x.dtype not in dt.COMPLEX_FLOATING:
        return less(x, bound)
    re, im = ew.real(x), ew.imag(x)
    return ew.logical_or(ew.less(re, bound), ew.logical_and(ew.equal(re, bound), less(im, 0)))


def _lex_above(x: Array, bound: float) -> Array:
    """``x > bound``, complex numbers lexicographically."""
    if x.dtype not in dt.COMPLEX_FLOATING:
        return ew.greater(x, bound)
    re, im = ew.real(x), ew.imag(x)
    return ew.logical_or(ew.greater(re, bound),
                         ew.logical_and(ew.equal(re, bound), ew.greater(im, 0)))


def _negative_domain(x: Array) -> Array:
    return _lex_below(x, 0, False)


def _nonpositive_domain(x: Array) -> Array:
    return _lex_below(x, 0, True)


def _unit_domain(x: Array) -> Array:
    return ew.logical_or(_lex_below(x, -1, False), _lex_above(x, 1))


def _tan_domain(x: Array) -> Array:
    return ew.less(ew.abs(ew.cos(x)), 1e-35)


# -- construction --------------------------------------------------------------------------
def _holds_masked(obj: Any) -> bool:
    """Whether a (nested) list or tuple holds the ``masked`` constant."""
    return builtins.any(_is_const(o) or (isinstance(o, (list, tuple)) and _holds_masked(o))
                        for o in obj)


def _numpy_masked(obj: Any) -> Any:
    """A (nested) list with zyxarray's ``masked`` replaced by NumPy's, for ``numpy.ma``."""
    if isinstance(obj, (list, tuple)):
        return [_numpy_masked(o) for o in obj]
    return np.ma.masked if _is_const(obj) else obj


def _split(data: Any, dtype: Any, device: Any) -> tuple[Array, Any, Any, bool]:
    """(data, mask part, fill value, hard mask) of a constructor's ``data`` argument."""
    fill, hard = None, False
    m: Any
    if _is_const(data):
        d, m = _asarray(0.0, dtype=dt.float64, device=device), True
    elif isinstance(data, MaskedArray):
        d, m, fill, hard = data._data, data._mask, data._fill_value, data._hardmask
    elif isinstance(data, np.ma.MaskedArray) or (isinstance(data, (list, tuple))
                                                 and _holds_masked(data)):
        # host data with masked elements: numpy.ma sorts out the mask (and NumPy's dtype)
        h = np.ma.array(_numpy_masked(data) if isinstance(data, (list, tuple)) else data)
        hm = np.ma.getmask(h)
        d = _asarray(np.ma.getdata(h), device=device)
        m = None if hm is nomask else _asarray(hm, device=device)
    else:
        d, m = as_array(data, device=device), None
    if dtype is not None:
        d = astype(d, dt.to_dtype(dtype, "masked_array"))
    return d, m, fill, hard


def _as_masked(a: Any, device: Any) -> MaskedArray:
    """``a`` as a masked array (itself if it is one; host data goes to ``device``)."""
    if isinstance(a, MaskedArray):
        return a
    d, m, fill, _ = _split(a, None, device)
    return MaskedArray._make(d, None if m is None else _full_mask(m, d.shape, d.device),
                             _carried_fill(fill, d.dtype))


def _mask_for(mask: Any, shape: tuple[int, ...], device: Any) -> Array | None:
    """A ``mask=`` argument as a bool array of ``shape`` (None for nomask). A single value
    masks everything or nothing; one of the data's size is reshaped; anything else is a
    MaskError, as in NumPy."""
    if mask is nomask:
        return None
    if _is_const(mask):
        mask = True
    if isinstance(mask, MaskedArray):
        mask = mask.filled(True)
    m = as_array(mask, device=device)
    if m.dtype != dt.bool:
        m = astype(m, dt.bool)
    if m.shape == shape:
        return m
    n = math.prod(shape)
    if m.size == 1:
        return mf.broadcast_to(mf.reshape(m, ()), shape).copy()
    if m.size == n:
        return mf.reshape(m, shape)
    raise MaskError(f"Mask and data not compatible: data size is {n}, mask size is {m.size}.")


def _plain_key(key: Any) -> Any:
    """An index with masked arrays replaced by their data (NumPy indexes with the data)."""
    if isinstance(key, tuple):
        return tuple(_plain_key(k) for k in key)
    if isinstance(key, MaskedArray):
        return key._data
    return key


def _keeps_array(key: Any) -> bool:
    """Whether indexing with ``key`` gives an array even with no dimensions left (NumPy:
    a key with an Ellipsis)."""
    return key is Ellipsis or (isinstance(key, tuple)
                               and builtins.any(k is Ellipsis for k in key))


def _wide(x: MaskedArray, dtype: Any) -> dt.DType:
    """The dtype of a masked mean or variance: complex128 for complex data, else float64
    (NumPy divides the masked sum by an integer count, which gives these)."""
    complex_ = x.dtype in dt.COMPLEX_FLOATING or (
        dtype is not None and dt.to_dtype(dtype, "mean") in dt.COMPLEX_FLOATING)
    return dt.complex128 if complex_ else dt.float64


class MaskedArray:
    """An array with a mask (NumPy's ``numpy.ma.MaskedArray``; ``masked_array`` is this
    class): ``data`` and ``mask`` are zyxarray arrays on one device, ``mask`` is ``nomask``
    when no element is masked. Operations combine the masks lazily; see the module
    docstring for what reads data to the host."""

    __array_priority__ = 15
    __hash__ = None  # type: ignore[assignment]
    _data: Array
    _mask: Array | None
    _fill_value: Any
    _hardmask: bool

    def __init__(self, data: Any = None, mask: Any = nomask, dtype: Any = None,
                 copy: bool = False, subok: bool = True, ndmin: int = 0,
                 fill_value: Any = None, keep_mask: bool = True, hard_mask: Any = None,
                 shrink: bool = True, order: Any = None) -> None:
        if data is None:
            # Note: NumPy makes a 0-d object array of None; zyxarray has no object dtype
            raise TypeError("MaskedArray: data must be given (an array-like)")
        device = _device(data, mask)
        d, own, fill, hard = _split(data, dtype, device)
        if ndmin > d.ndim:
            d = mf.reshape(d, (1,) * (ndmin - d.ndim) + d.shape)
            own = own if not isinstance(own, Array) else mf.reshape(own, d.shape)
        own = None if own is None else _full_mask(own, d.shape, d.device)
        given = _mask_for(mask, d.shape, d.device)
        if given is None:
            m = own if keep_mask else None
        elif keep_mask and own is not None:
            m = ew.logical_or(own, given)
        else:
            m = given
        if copy:
            d = d.copy()
            m = None if m is None else m.copy()
        self._data = d
        self._mask = m
        self._fill_value = _check_fill(fill_value, d.dtype) if fill_value is not None else \
            _carried_fill(fill, d.dtype)
        self._hardmask = hard if hard_mask is None else bool(hard_mask)

    @staticmethod
    def _make(data: Array, mask: Array | None, fill: Any = None,
              hard: bool = False) -> MaskedArray:
        """A masked array of these parts (no checks: ``mask`` has the data's shape)."""
        self = object.__new__(MaskedArray)
        self._data = data
        self._mask = mask
        self._fill_value = fill
        self._hardmask = hard
        return self

    def _like(self, data: Array, mask: Array | None) -> MaskedArray:
        """A view or copy of this array: its fill value and hardness kept."""
        return MaskedArray._make(data, mask, _carried_fill(self._fill_value, data.dtype),
                                 self._hardmask)

    # -- attributes -----------------------------------------------------------------------
    @property
    def data(self) -> Array:
        """The underlying data (masked elements included), shared with this array."""
        return self._data

    @property
    def mask(self) -> Any:
        """The bool mask (True: masked), or ``nomask``; writes into it mask elements."""
        return nomask if self._mask is None else self._mask

    @mask.setter
    def mask(self, value: Any) -> None:
        if value is nomask:
            if self._mask is not None and not self._hardmask:
                self._mask[...] = False
            return
        m = _mask_for(value, self.shape, self._data.device)
        assert m is not None
        if self._mask is None:
            self._mask = m.copy()
        elif self._hardmask:
            self._mask[...] = ew.logical_or(self._mask, m)
        else:
            self._mask[...] = m

    @property
    def fill_value(self) -> Any:
        """The value ``filled()`` puts in masked places (NumPy's defaults: True, 999999,
        1e20)."""
        if self._fill_value is None:
            return default_fill_value(self.dtype)
        return self._fill_value[()]

    @fill_value.setter
    def fill_value(self, value: Any) -> None:
        self._fill_value = None if value is None else _check_fill(value, self.dtype)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._data.shape

    @property
    def dtype(self) -> dt.DType:
        return self._data.dtype

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def size(self) -> int:
        return self._data.size

    @property
    def device(self) -> Any:
        return self._data.device

    @property
    def T(self) -> MaskedArray:
        return self.transpose()

    @property
    def hardmask(self) -> bool:
        """Whether assignments leave masked elements masked (``harden_mask``)."""
        return self._hardmask

    def harden_mask(self) -> MaskedArray:
        """From now on, assigning a value does not unmask an element."""
        self._hardmask = True
        return self

    def soften_mask(self) -> MaskedArray:
        """From now on, assigning a value unmasks the element (the default)."""
        self._hardmask = False
        return self

    # -- conversions ----------------------------------------------------------------------
    def filled(self, fill_value: Any = None) -> Array:
        """The data with masked elements replaced by ``fill_value`` (default: the array's
        fill value); without a mask, the data itself."""
        if self._mask is None:
            return self._data
        if isinstance(fill_value, (Array, MaskedArray)):
            return astype(sr.where(self._mask, getdata(fill_value), self._data), self.dtype)
        fv = _check_fill(fill_value, self.dtype) if fill_value is not None else \
            np.asarray(self.fill_value)
        # (NumPy's default fill values are wider than small dtypes: cast as its copyto does)
        fv = fv.astype(self.dtype.np)
        value = fv[()] if fv.ndim == 0 else _asarray(fv, device=self.device)
        return sr.where(self._mask, value, self._data)

    def compressed(self) -> Array:
        """The unmasked elements, flattened. Its length is the number of unmasked elements,
        so the mask is read (realized) first."""
        if self._mask is None:
            return mf.reshape(self._data, (-1,))
        return self._data[ew.logical_not(self._mask)]

    def _host(self) -> np.ma.MaskedArray:
        """A ``numpy.ma`` copy on the host (for printing and ``tolist``)."""
        mask = nomask if self._mask is None else np.asarray(self._mask)
        host = np.ma.array(np.asarray(self._data), mask=mask)
        if self._fill_value is not None:
            # a fill value carried over from an operand of another dtype prints as NumPy's
            # does (its own dtype): set as it is
            host._fill_value = np.asarray(self._fill_value)  # type: ignore[attr-defined]
        return host

    def __repr__(self) -> str:
        """NumPy's ``masked_array(data=..., mask=..., fill_value=...)``.

        Note: without the device (zyxarray's arrays add ``device=`` to theirs)."""
        return repr(self._host())

    def __str__(self) -> str:
        return str(self._host())

    def tolist(self, fill_value: Any = None) -> Any:
        """Nested lists of Python values, None for masked elements (or ``fill_value``)."""
        if fill_value is not None:
            return self.filled(fill_value).tolist()
        return self._host().tolist()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """The data, masked elements included (as ``numpy.asarray`` of a NumPy masked array
        gives); use ``filled()`` for the masked elements replaced."""
        return self._data.__array__(dtype, copy)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """NumPy's ufuncs of the same names as this module's functions (``numpy.add(a, m)``,
        ``numpy.sqrt(m)``) run as those; other uses are refused (TypeError)."""
        fn = _UFUNCS.get(ufunc.__name__) if method == "__call__" and not kwargs else None
        if fn is None:
            return NotImplemented
        return fn(*inputs)

    def _one(self, name: str) -> bool:
        """Whether the single element is masked (reads it); TypeError unless size 1."""
        if self.size != 1:
            raise TypeError(f"{name}: only length-1 arrays can be converted to Python scalars")
        return self._mask is not None and bool(self._mask.reshape(()))

    def __bool__(self) -> bool:
        return bool(self._data)

    def __float__(self) -> float:
        if self._one("float"):
            warnings.warn("Warning: converting a masked element to nan.", UserWarning,
                          stacklevel=2)
            return math.nan
        return float(self._data.reshape(()))

    def __int__(self) -> int:
        if self._one("int"):
            raise MaskError("Cannot convert masked element to a Python int.")
        return int(self._data.reshape(()))

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self) -> Any:
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __copy__(self) -> MaskedArray:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> MaskedArray:
        return self.copy()

    # -- shape ----------------------------------------------------------------------------
    def astype(self, dtype: Any, order: str = "K", casting: str = "unsafe",
               subok: bool = True, copy: bool = True) -> MaskedArray:
        """The data converted to ``dtype``; the mask copied."""
        data = astype(self._data, dt.to_dtype(dtype, "astype"))
        return self._like(data, None if self._mask is None else self._mask.copy())

    def reshape(self, *shape: Any, order: str = "C") -> MaskedArray:
        """Data and mask in a new shape (views where the data's would be)."""
        return self._like(self._data.reshape(*shape, order=order),
                          None if self._mask is None else self._mask.reshape(*shape,
                                                                              order=order))

    def ravel(self, order: str = "C") -> MaskedArray:
        return self._like(self._data.ravel(order),
                          None if self._mask is None else self._mask.ravel(order))

    def flatten(self, order: str = "C") -> MaskedArray:
        return self.ravel(order).copy()

    def squeeze(self, axis: Any = None) -> MaskedArray:
        return self._like(self._data.squeeze(axis),
                          None if self._mask is None else self._mask.squeeze(axis))

    def transpose(self, *axes: Any) -> MaskedArray:
        return self._like(self._data.transpose(*axes),
                          None if self._mask is None else self._mask.transpose(*axes))

    def swapaxes(self, axis1: int, axis2: int) -> MaskedArray:
        return self._like(self._data.swapaxes(axis1, axis2),
                          None if self._mask is None else self._mask.swapaxes(axis1, axis2))

    def copy(self, order: str = "C") -> MaskedArray:
        """A copy of data and mask: later writes to either are not seen by the other."""
        return self._like(self._data.copy(), None if self._mask is None else self._mask.copy())

    # -- indexing -------------------------------------------------------------------------
    def __getitem__(self, key: Any) -> Any:
        """Data and mask indexed alike; a single element is ``masked`` when it is masked
        (reads that mask value), else a 0-d array of the data."""
        key = _plain_key(key)
        data = self._data[key]
        mask = None if self._mask is None else self._mask[key]
        if data.ndim == 0 and not _keeps_array(key):
            return _scalar(data, mask)
        return self._like(data, mask)

    def __setitem__(self, key: Any, value: Any) -> None:
        """``masked`` masks the elements; a value is written and unmasks them (unless the
        mask is hard); a masked array's mask is copied along with its data."""
        key = _plain_key(key)
        device = self._data.device
        if _is_const(value):
            if self._mask is None:
                self._mask = _zeros(self.shape, dtype=dt.bool, device=device)
            self._mask[key] = True
            return
        dval, mval = _parts(value, device)
        if self._hardmask and self._mask is not None:
            old = self._mask[key]
            self._data[key] = sr.where(old, self._data[key], dval)
            if mval is not None:
                self._mask[key] = ew.logical_or(old, mval)
            return
        self._data[key] = dval
        if mval is not None and self._mask is None:
            self._mask = _zeros(self.shape, dtype=dt.bool, device=device)
        if self._mask is not None:
            self._mask[key] = False if mval is None else mval

    # -- operators ------------------------------------------------------------------------
    def _op(self, fn: Callable[[Any, Any], Array], other: Any, reflected: bool = False,
            domain: Any = None) -> Any:
        if _foreign(other):
            return NotImplemented
        return _arith(fn, other, self, domain) if reflected else _arith(fn, self, other, domain)

    def _cmp(self, fn: Callable[[Any, Any], Array], other: Any, eq: bool | None) -> Any:
        if _foreign(other):
            return NotImplemented
        return _compare(fn, self, other, eq)

    def _inplace(self, fn: Callable[[Any, Any], Array], other: Any, domain: Any = None) -> Any:
        """``self op= other`` in place (seen by views): masks combined, the data under the
        masked elements left as it was (NumPy's)."""
        if _foreign(other):
            return NotImplemented
        if _is_const(self):
            return self
        data, mask, _, _ = _binary(fn, self, other, domain, invalid=domain is not None)
        if data.shape != self.shape:
            raise ValueError(f"in-place operation: the result shape {data.shape} differs from "
                             f"the array's shape {self.shape}")
        if data.dtype != self.dtype and not np.can_cast(data.dtype.np, self.dtype.np,
                                                        "same_kind"):
            raise TypeError(f"Cannot cast ufunc '{fn.__name__}' output from {data.dtype} to "
                            f"{self.dtype} with casting rule 'same_kind'")
        data = astype(data, self.dtype)
        if mask is not None:
            data = sr.where(mask, self._data, data)
        self._data[...] = data
        if mask is not None:
            if self._mask is None:
                self._mask = mask
            else:
                self._mask[...] = mask
        return self

    def __add__(self, o: Any) -> Any: return self._op(ew.add, o)
    def __radd__(self, o: Any) -> Any: return self._op(ew.add, o, True)
    def __iadd__(self, o: Any) -> Any: return self._inplace(ew.add, o)
    def __sub__(self, o: Any) -> Any: return self._op(ew.subtract, o)
    def __rsub__(self, o: Any) -> Any: return self._op(ew.subtract, o, True)
    def __isub__(self, o: Any) -> Any: return self._inplace(ew.subtract, o)
    def __mul__(self, o: Any) -> Any: return self._op(ew.multiply, o)
    def __rmul__(self, o: Any) -> Any: return self._op(ew.multiply, o, True)
    def __imul__(self, o: Any) -> Any: return self._inplace(ew.multiply, o)
    def __truediv__(self, o: Any) -> Any: return self._op(ew.divide, o, False, _divide_domain)
    def __rtruediv__(self, o: Any) -> Any: return self._op(ew.divide, o, True, _divide_domain)
    def __itruediv__(self, o: Any) -> Any: return self._inplace(ew.divide, o, _divide_domain)

    def __floordiv__(self, o: Any) -> Any:
        return self._op(ew.floor_divide, o, False, _divide_domain)

    def __rfloordiv__(self, o: Any) -> Any:
        return self._op(ew.floor_divide, o, True, _divide_domain)

    def __ifloordiv__(self, o: Any) -> Any:
        return self._inplace(ew.floor_divide, o, _divide_domain)

    def __mod__(self, o: Any) -> Any: return self._op(ew.remainder, o, False, _divide_domain)
    def __rmod__(self, o: Any) -> Any: return self._op(ew.remainder, o, True, _divide_domain)

    def __pow__(self, o: Any) -> Any:
        return NotImplemented if _foreign(o) else _power(self, o)

    def __rpow__(self, o: Any) -> Any:
        return NotImplemented if _foreign(o) else _power(o, self)

    def __and__(self, o: Any) -> Any: return self._op(ew.bitwise_and, o)
    def __rand__(self, o: Any) -> Any: return self._op(ew.bitwise_and, o, True)
    def __or__(self, o: Any) -> Any: return self._op(ew.bitwise_or, o)
    def __ror__(self, o: Any) -> Any: return self._op(ew.bitwise_or, o, True)
    def __xor__(self, o: Any) -> Any: return self._op(ew.bitwise_xor, o)
    def __rxor__(self, o: Any) -> Any: return self._op(ew.bitwise_xor, o, True)
    def __eq__(self, o: object) -> Any: return self._cmp(ew.equal, o, True)  # type: ignore
    def __ne__(self, o: object) -> Any: return self._cmp(ew.not_equal, o, False)  # type: ignore
    def __lt__(self, o: Any) -> Any: return self._cmp(ew.less, o, None)
    def __le__(self, o: Any) -> Any: return self._cmp(ew.less_equal, o, None)
    def __gt__(self, o: Any) -> Any: return self._cmp(ew.greater, o, None)
    def __ge__(self, o: Any) -> Any: return self._cmp(ew.greater_equal, o, None)
    def __neg__(self) -> Any: return _unary(ew.negative, self)
    def __pos__(self) -> Any: return _unary(ew.positive, self)
    def __abs__(self) -> Any: return _unary(ew.abs, self)
    def __invert__(self) -> Any: return _unary(ew.bitwise_invert, self)

    # -- reductions -----------------------------------------------------------------------
    def _valid(self) -> Any:
        """The ``where=`` of a reduction: the unmasked elements (True: all of them)."""
        return True if self._mask is None else ew.logical_not(self._mask)

    def _all_masked(self, axis: Any, keepdims: bool) -> Array | None:
        """The reduction's mask: the slices in which every element is masked."""
        return None if self._mask is None else ut.all(self._mask, axis, None, keepdims)

    def count(self, axis: Any = None, keepdims: bool = False) -> Any:
        """How many elements are unmasked (over ``axis``): an int64 array; without a mask
        and over every axis, the size as a Python int (as NumPy)."""
        if self._mask is None:
            if axis is None and not keepdims:
                return self.size
            axes = mf.normalize_axes("count", axis, self.ndim)
            shape = tuple(1 if i in axes else s for i, s in enumerate(self.shape)
                          if keepdims or i not in axes)
            n = math.prod(self.shape[a] for a in axes)
            return full(shape, n, dtype=dt.int64, device=self.device)
        return sf.sum(ew.logical_not(self._mask), axis, dt.int64, None, keepdims)

    def sum(self, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False) -> Any:
        """Sum of the unmasked elements over ``axis``; masked where all of a slice is."""
        data = sf.sum(self._data, axis, dtype, None, keepdims, where=self._valid())
        return _deliver("sum", out, data, self._all_masked(axis, keepdims))

    def prod(self, axis: Any = None, dtype: Any = None, out: Any = None,
             keepdims: bool = False) -> Any:
        """Product of the unmasked elements over ``axis``."""
        data = sf.prod(self._data, axis, dtype, None, keepdims, where=self._valid())
        return _deliver("prod", out, data, self._all_masked(axis, keepdims))

    product = prod

    def mean(self, axis: Any = None, dtype: Any = None, out: Any = None,
             keepdims: bool = False) -> Any:
        """Mean of the unmasked elements over ``axis``. With a mask the result is float64
        (complex128), as NumPy's, which divides the masked sum by an integer count; without
        one it has the data's float dtype."""
        if self._mask is None:
            data = sf.mean(self._data, axis, dtype, None, keepdims)
        else:
            data = sf.mean(astype(self._data, _wide(self, dtype)), axis, None, None, keepdims,
                           where=self._valid())
        return _deliver("mean", out, data, self._all_masked(axis, keepdims))

    def _var(self, axis: Any, dtype: Any, ddof: float, keepdims: bool
             ) -> tuple[Array, Array | None]:
        if self._mask is None:
            return sf.var(self._data, axis, dtype, None, ddof, keepdims), None
        data = sf.var(astype(self._data, _wide(self, dtype)), axis, None, None, ddof, keepdims,
                      where=self._valid())
        # a slice of at most ddof unmasked elements has no variance: masked (NumPy's)
        return data, ew.less_equal(self.count(axis, keepdims), ddof)

    def var(self, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
            keepdims: bool = False) -> Any:
        """Variance of the unmasked elements over ``axis`` (``ddof``: delta degrees of
        freedom); masked where at most ``ddof`` elements are unmasked."""
        data, mask = self._var(axis, dtype, ddof, keepdims)
        return _deliver("var", out, data, mask)

    def std(self, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
            keepdims: bool = False) -> Any:
        """Standard deviation of the unmasked elements (the square root of ``var``)."""
        data, mask = self._var(axis, dtype, ddof, keepdims)
        return _deliver("std", out, ew.sqrt(data), mask)

    def min(self, axis: Any = None, out: Any = None, fill_value: Any = None,
            keepdims: bool = False) -> Any:
        """Smallest unmasked element over ``axis`` (masked ones count as ``fill_value``,
        by default the dtype's largest value)."""
        fv = minimum_fill_value(self) if fill_value is None else fill_value
        data = sf.min(self.filled(fv), axis, None, keepdims)
        return _deliver("min", out, data, self._all_masked(axis, keepdims))

    def max(self, axis: Any = None, out: Any = None, fill_value: Any = None,
            keepdims: bool = False) -> Any:
        """Largest unmasked element over ``axis`` (masked ones count as ``fill_value``, by
        default the dtype's smallest value)."""
        fv = maximum_fill_value(self) if fill_value is None else fill_value
        data = sf.max(self.filled(fv), axis, None, keepdims)
        return _deliver("max", out, data, self._all_masked(axis, keepdims))

    def all(self, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
        """Whether every unmasked element over ``axis`` is true."""
        data = ut.all(self.filled(True), axis, None, keepdims)
        return _deliver("all", out, data, self._all_masked(axis, keepdims))

    def any(self, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
        """Whether some unmasked element over ``axis`` is true."""
        data = ut.any(self.filled(False), axis, None, keepdims)
        return _deliver("any", out, data, self._all_masked(axis, keepdims))

    def argmin(self, axis: Any = None, fill_value: Any = None, out: Any = None, *,
               keepdims: bool = False) -> Array:
        """Index of the smallest unmasked element (masked ones count as ``fill_value``): a
        plain int64 array, as NumPy's."""
        fv = minimum_fill_value(self) if fill_value is None else fill_value
        return write_out("argmin", out, sr.argmin(self.filled(fv), axis, keepdims=keepdims))

    def argmax(self, axis: Any = None, fill_value: Any = None, out: Any = None, *,
               keepdims: bool = False) -> Array:
        """Index of the largest unmasked element (masked ones count as ``fill_value``)."""
        fv = maximum_fill_value(self) if fill_value is None else fill_value
        return write_out("argmax", out, sr.argmax(self.filled(fv), axis, keepdims=keepdims))

    def cumsum(self, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
        """Cumulative sum (masked elements count as 0 and stay masked; flattened when
        ``axis`` is None)."""
        return self._cumulative("cumsum", _cumsum(self.filled(0), axis, dtype), axis, out)

    def cumprod(self, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
        """Cumulative product (masked elements count as 1 and stay masked)."""
        return self._cumulative("cumprod", _cumprod(self.filled(1), axis, dtype), axis, out)

    def _cumulative(self, name: str, data: Array, axis: Any, out: Any) -> Any:
        mask = self._mask
        if mask is not None:
            mask = (mf.reshape(mask, (-1,)) if axis is None else mask).copy()
        if out is not None:
            return _deliver(name, out, data, mask)
        return MaskedArray._make(data, mask)


def _deliver(name: str, out: Any, data: Array, mask: Array | None) -> Any:
    """A reduction's result: ``masked`` or a 0-d array without dimensions, else a masked
    array; with ``out`` (a masked or plain array), written there and returned."""
    if out is None:
        return _result(data, mask)
    if isinstance(out, MaskedArray):
        if out.shape != data.shape:
            raise ValueError(f"{name}: out has shape {out.shape}, the result {data.shape}")
        out._data[...] = data
        if mask is not None and out._mask is None:
            out._mask = _zeros(out.shape, dtype=dt.bool, device=out.device)
        if out._mask is not None:
            out._mask[...] = False if mask is None else mask
        return out
    return write_out(name, out, data)


class MaskedConstant(MaskedArray):
    """``masked``: one masked element of no device (NumPy's ``MaskedConstant``). It prints
    ``--``; combined with arrays it masks the results; assigned into a masked array it masks
    the elements. Its own data (0.0) and mask (True) are made on the default device when
    first asked for."""

    _singleton: MaskedConstant | None = None

    def __new__(cls) -> MaskedConstant:
        if cls._singleton is None:
            self = object.__new__(cls)
            self._fill_value = None
            self._hardmask = False
            cls._singleton = self
        return cls._singleton

    def __init__(self) -> None:
        """(The one instance is set up by ``__new__``.)"""

    def __getattr__(self, name: str) -> Any:
        if name in ("_data", "_mask"):
            self._data = _asarray(0.0, dtype=dt.float64)
            self._mask = _asarray(True)
            return getattr(self, name)
        raise AttributeError(name)

    def __repr__(self) -> str:
        return "masked"

    def __str__(self) -> str:
        return "--"

    def __format__(self, spec: str) -> str:
        if spec:
            warnings.warn("Format strings passed to MaskedConstant are ignored, but in future "
                          "may error or produce different behavior", FutureWarning,
                          stacklevel=2)
        return "--"

    def __setitem__(self, key: Any, value: Any) -> None:
        raise ValueError("masked: the masked constant is read-only")

    def copy(self, order: str = "C") -> MaskedConstant:
        return self

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (MaskedConstant, ())


masked = MaskedConstant()
masked_singleton = masked
masked_array = MaskedArray


# -- construction and masks ----------------------------------------------------------------
def array(data: Any, dtype: Any = None, copy: bool = False, order: Any = None,
          mask: Any = nomask, fill_value: Any = None, keep_mask: bool = True,
          hard_mask: bool = False, shrink: bool = True, subok: bool = True,
          ndmin: int = 0) -> MaskedArray:
    """A masked array of ``data`` (an array-like, possibly with ``masked`` elements, or a
    masked array, whose mask is kept and combined with ``mask`` when ``keep_mask``)."""
    return MaskedArray(data, mask=mask, dtype=dtype, copy=copy, ndmin=ndmin,
                       fill_value=fill_value, keep_mask=keep_mask, hard_mask=hard_mask,
                       shrink=shrink, order=order)


def asarray(a: Any, dtype: Any = None, order: Any = None) -> MaskedArray:
    """``a`` as a masked array, sharing its data and mask (a new MaskedArray object)."""
    return MaskedArray(a, dtype=dtype, copy=False, keep_mask=True)


def asanyarray(a: Any, dtype: Any = None) -> MaskedArray:
    """``a`` itself when it is a masked array (of ``dtype``), else ``asarray(a)``."""
    if isinstance(a, MaskedArray) and (dtype is None or dt.to_dtype(dtype) == a.dtype):
        return a
    return MaskedArray(a, dtype=dtype, copy=False, keep_mask=True)


def masked_all(shape: Any, dtype: Any = float) -> MaskedArray:
    """An array of ``shape`` with every element masked (its data zeros)."""
    data = _zeros(shape, dtype=dt.to_dtype(dtype, "masked_all"))
    return MaskedArray._make(data, full(data.shape, True, dtype=dt.bool))


def zeros(shape: Any, dtype: Any = float, order: Any = "C", *, device: Any = None
          ) -> MaskedArray:
    """Zeros, no element masked."""
    return MaskedArray._make(_zeros(shape, dtype=dt.to_dtype(dtype, "zeros"), device=device),
                             None)


def ones(shape: Any, dtype: Any = float, order: Any = "C", *, device: Any = None
         ) -> MaskedArray:
    """Ones, no element masked."""
    return MaskedArray._make(full(shape, 1, dtype=dt.to_dtype(dtype, "ones"), device=device),
                             None)


def isMaskedArray(x: Any) -> bool:
    """Whether ``x`` is a zyxarray masked array (``masked`` included)."""
    return isinstance(x, MaskedArray)


isMA = isMaskedArray
isarray = isMaskedArray


def getmask(a: Any) -> Any:
    """The mask of ``a``: a bool array, or ``nomask`` (for anything that is not a masked
    array too)."""
    if isinstance(a, MaskedArray):
        return a.mask
    return nomask


def getmaskarray(arr: Any) -> Array:
    """The mask of ``arr`` as a full bool array (all False where there is no mask)."""
    if isinstance(arr, MaskedArray):
        return _full_mask(arr._mask, arr.shape, arr.device)
    x = as_array(arr)
    return _zeros(x.shape, dtype=dt.bool, device=x.device)


def getdata(a: Any, subok: bool = True) -> Array:
    """The data of ``a`` (masked elements included) as an array."""
    if isinstance(a, MaskedArray):
        return a._data
    if isinstance(a, np.ma.MaskedArray):
        return _asarray(np.ma.getdata(a))
    return as_array(a)


def filled(a: Any, fill_value: Any = None) -> Array:
    """``a`` with its masked elements replaced by ``fill_value`` (a plain array)."""
    if isinstance(a, MaskedArray):
        return a.filled(fill_value)
    return getdata(a)


def compressed(x: Any) -> Array:
    """The unmasked elements of ``x``, flattened (reads the mask: see ``compressed()``)."""
    return asanyarray(x).compressed()


def is_masked(x: Any) -> bool:
    """Whether some element of ``x`` is masked (reads the mask: a Python bool)."""
    if _is_const(x):
        return True
    if not isinstance(x, MaskedArray) or x._mask is None:
        return False
    return bool(ut.any(x._mask))


def make_mask(m: Any, copy: bool = False, shrink: bool = True, dtype: Any = bool) -> Any:
    """``m`` as a bool mask (``nomask`` stays ``nomask``).

    Note: NumPy returns ``nomask`` for a mask of no True element (``shrink``); zyxarray does
    that for host data only, and keeps a device array as it is (finding out needs its data).
    """
    if m is nomask:
        return nomask
    if isinstance(m, MaskedArray):
        m = m.filled(True)
    if not isinstance(m, Array):
        host = np.ma.make_mask(np.asarray(m), copy=copy, shrink=shrink)
        return nomask if host is nomask else _asarray(host)
    result = astype(m, dt.bool)
    return result.copy() if copy else result


def make_mask_none(newshape: Any, dtype: Any = None) -> Array:
    """A mask of ``newshape`` with no element masked."""
    return _zeros(newshape, dtype=dt.bool)


def mask_or(m1: Any, m2: Any, copy: bool = False, shrink: bool = True) -> Any:
    """The union of two masks (``nomask`` when both are ``nomask``)."""
    if m1 is nomask or m1 is False:
        return make_mask(m2, copy=copy, shrink=shrink)
    if m2 is nomask or m2 is False:
        return make_mask(m1, copy=copy, shrink=shrink)
    if m1 is m2 and isinstance(m1, Array):
        return m1
    a, b = make_mask(m1, shrink=False), make_mask(m2, shrink=False)
    device = _device(a, b)
    return ew.logical_or(as_array(a, device=device), as_array(b, device=device))


def masked_where(condition: Any, a: Any, copy: bool = True) -> MaskedArray:
    """``a`` with the elements where ``condition`` holds masked (added to its own mask).
    IndexError when the condition has another shape, as NumPy's."""
    x = _as_masked(a, _device(a, condition))
    cond = as_array(condition.filled(True) if isinstance(condition, MaskedArray)
                    else condition, device=x.device)
    cond = astype(cond, dt.bool)
    if cond.ndim and cond.shape != x.shape:
        raise IndexError(f"Inconsistent shape between the condition and the input (got "
                         f"{cond.shape} and {x.shape})")
    # Note: an all-False mask stays an array (NumPy shrinks it to nomask: that reads it)
    mask = _full_mask(cond, x.shape, x.device)
    if x._mask is not None:
        mask = ew.logical_or(mask, x._mask)
    data = x._data.copy() if copy else x._data
    result = MaskedArray._make(data, mask, x._fill_value, x._hardmask)
    if not copy and isinstance(a, MaskedArray) and a._mask is None:
        a._mask = mask          # (NumPy shares the new mask with an unmasked input)
    return result


def masked_equal(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``x`` with the elements equal to ``value`` masked; ``value`` is the fill value."""
    result = masked_where(ew.equal(getdata(x), value), x, copy=copy)
    result.fill_value = value
    return result


def masked_not_equal(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``x`` with the elements other than ``value`` masked."""
    return masked_where(ew.not_equal(getdata(x), value), x, copy=copy)


def masked_greater(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``x`` with the elements greater than ``value`` masked."""
    return masked_where(ew.greater(getdata(x), value), x, copy=copy)


def masked_greater_equal(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``x`` with the elements greater than or equal to ``value`` masked."""
    return masked_where(ew.greater_equal(getdata(x), value), x, copy=copy)


def masked_less(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``x`` with the elements less than ``value`` masked."""
    return masked_where(ew.less(getdata(x), value), x, copy=copy)


def masked_less_equal(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``x`` with the elements less than or equal to ``value`` masked."""
    return masked_where(ew.less_equal(getdata(x), value), x, copy=copy)


def masked_inside(x: Any, v1: Any, v2: Any, copy: bool = True) -> MaskedArray:
    """``x`` with the elements in the closed interval [v1, v2] masked (either order)."""
    lo, hi = (v2, v1) if v2 < v1 else (v1, v2)
    d = getdata(x)
    return masked_where(ew.logical_and(ew.greater_equal(d, lo), ew.less_equal(d, hi)), x,
                        copy=copy)


def masked_outside(x: Any, v1: Any, v2: Any, copy: bool = True) -> MaskedArray:
    """``x`` with the elements outside the closed interval [v1, v2] masked."""
    lo, hi = (v2, v1) if v2 < v1 else (v1, v2)
    d = getdata(x)
    return masked_where(ew.logical_or(ew.less(d, lo), ew.greater(d, hi)), x, copy=copy)


def masked_values(x: Any, value: Any, rtol: float = 1e-05, atol: float = 1e-08,
                  copy: bool = True, shrink: bool = True) -> MaskedArray:
    """``x`` with the elements close to ``value`` masked (equal, for non-float dtypes);
    ``value`` is the fill value, and fills the elements that were masked already."""
    xnew = filled(asanyarray(x), value)
    if xnew.dtype in dt.REAL_FLOATING:
        close = ew.less_equal(ew.abs(ew.subtract(xnew, value)), atol + rtol * builtins.abs(value))
        cond = ew.logical_or(close, ew.equal(xnew, value))
    else:
        cond = ew.equal(xnew, value)
    return MaskedArray(xnew.copy() if copy else xnew, mask=cond, fill_value=value)


def masked_invalid(a: Any, copy: bool = True) -> MaskedArray:
    """``a`` with its NaN and infinite elements masked (the mask is always an array)."""
    d = getdata(a)
    return masked_where(ew.logical_not(ew.isfinite(d)), a, copy=copy)


def fix_invalid(a: Any, mask: Any = nomask, copy: bool = True,
                fill_value: Any = None) -> MaskedArray:
    """``a`` with its NaN and infinite elements masked and replaced by ``fill_value``
    (default: the array's fill value).

    Note: for float data the mask is an array even when no element was invalid."""
    result = MaskedArray(a, mask=mask, copy=copy)
    if result.dtype not in dt.FLOATING:
        return result
    invalid = ew.logical_not(ew.isfinite(result._data))
    if result._mask is None:
        result._mask = invalid
    else:
        result._mask[...] = ew.logical_or(result._mask, invalid)
    fv = result.fill_value if fill_value is None else fill_value
    result._data[...] = sr.where(invalid, _check_fill(fv, result.dtype)[()], result._data)
    return result


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """Elements of ``x`` where ``condition`` holds, else of ``y``, with their masks; masked
    where the condition is masked. With the condition alone, ``nonzero(filled(condition,
    False))`` (which reads it)."""
    if x is None and y is None:
        return sr.nonzero(filled(condition, False))
    if x is None or y is None:
        raise ValueError("where: must provide both 'x' and 'y' or neither")
    device = _device(condition, x, y)
    cond = astype(as_array(filled(condition, False) if isinstance(condition, MaskedArray)
                           else condition, device=device), dt.bool)
    cm = condition._mask if isinstance(condition, MaskedArray) else None
    xd, xm = _parts(x, device)
    yd, ym = _parts(y, device)
    # a masked branch takes the other's dtype (NumPy)
    if xm is True and ym is not True:
        xd = _zeros((), dtype=as_array(yd, device=device).dtype, device=device)
    if ym is True and xm is not True:
        yd = _zeros((), dtype=as_array(xd, device=device).dtype, device=device)
    if not isinstance(xd, Array) and not isinstance(yd, Array):
        xd = as_array(xd, device=device)
    data = sr.where(cond, xd, yd)
    if cm is None and xm is None and ym is None:
        return MaskedArray._make(data, None)
    shape = data.shape
    # Note: an all-False mask stays an array (NumPy shrinks it to nomask: that reads it)
    mask = sr.where(cond, _full_mask(xm, shape, device), _full_mask(ym, shape, device))
    if cm is not None:
        mask = ew.logical_or(mask, cm)
    return MaskedArray._make(data, _full_mask(mask, shape, device))


def concatenate(arrays: Any, axis: int | None = 0) -> MaskedArray:
    """Masked arrays (or array-likes) joined along ``axis``, masks too."""
    device = _device(*arrays)
    parts = [_parts(a, device) for a in arrays]
    datas = [as_array(d, device=device) for d, _ in parts]
    data = mf.concat(datas, axis=axis)
    if builtins.all(m is None for _, m in parts):
        return MaskedArray._make(data, None)
    # Note: an all-False mask stays an array (NumPy shrinks it to nomask: that reads it)
    masks = [_full_mask(m, d.shape, device) for d, (_, m) in zip(datas, parts)]
    return MaskedArray._make(data, mf.reshape(mf.concat(masks, axis=axis), data.shape))


# -- elementwise functions -----------------------------------------------------------------
def exp(x: Any) -> Any:
    """Elementwise e**x (masked where x is)."""
    return _unary(ew.exp, x)


def log(x: Any) -> Any:
    """Natural logarithm; masked also where x <= 0 or the result is not finite."""
    return _unary(ew.log, x, _nonpositive_domain)


def log2(x: Any) -> Any:
    """Base-2 logarithm; masked also where x <= 0 or the result is not finite."""
    return _unary(ew.log2, x, _nonpositive_domain)


def log10(x: Any) -> Any:
    """Base-10 logarithm; masked also where x <= 0 or the result is not finite."""
    return _unary(ew.log10, x, _nonpositive_domain)


def sqrt(x: Any) -> Any:
    """Square root; masked also where x < 0 or the result is not finite."""
    return _unary(ew.sqrt, x, _negative_domain)


def absolute(x: Any) -> Any:
    """Absolute value (masked where x is)."""
    return _unary(ew.abs, x)


abs = absolute


def negative(x: Any) -> Any:
    """-x (masked where x is)."""
    return _unary(ew.negative, x)


def sin(x: Any) -> Any:
    """Sine (masked where x is)."""
    return _unary(ew.sin, x)


def cos(x: Any) -> Any:
    """Cosine (masked where x is)."""
    return _unary(ew.cos, x)


def tan(x: Any) -> Any:
    """Tangent; masked also where cos(x) is within 1e-35 of 0 or the result not finite."""
    return _unary(ew.tan, x, _tan_domain)


def arcsin(x: Any) -> Any:
    """Inverse sine; masked also where |x| > 1."""
    return _unary(ew.asin, x, _unit_domain)


def arccos(x: Any) -> Any:
    """Inverse cosine; masked also where |x| > 1."""
    return _unary(ew.acos, x, _unit_domain)


def arctan(x: Any) -> Any:
    """Inverse tangent (masked where x is)."""
    return _unary(ew.atan, x)


def sinh(x: Any) -> Any:
    """Hyperbolic sine (masked where x is)."""
    return _unary(ew.sinh, x)


def cosh(x: Any) -> Any:
    """Hyperbolic cosine (masked where x is)."""
    return _unary(ew.cosh, x)


def tanh(x: Any) -> Any:
    """Hyperbolic tangent (masked where x is)."""
    return _unary(ew.tanh, x)


def floor(x: Any) -> Any:
    """Floor (masked where x is)."""
    return _unary(ew.floor, x)


def ceil(x: Any) -> Any:
    """Ceiling (masked where x is)."""
    return _unary(ew.ceil, x)


def add(a: Any, b: Any) -> Any:
    """a + b, masked where either is."""
    return _arith(ew.add, a, b)


def subtract(a: Any, b: Any) -> Any:
    """a - b, masked where either is."""
    return _arith(ew.subtract, a, b)


def multiply(a: Any, b: Any) -> Any:
    """a * b, masked where either is."""
    return _arith(ew.multiply, a, b)


def divide(a: Any, b: Any) -> Any:
    """a / b, masked where either is, where b is 0 and where the result is not finite."""
    return _arith(ew.divide, a, b, _divide_domain)


true_divide = divide


def floor_divide(a: Any, b: Any) -> Any:
    """a // b, masked where either is and where b is 0."""
    return _arith(ew.floor_divide, a, b, _divide_domain)


def remainder(a: Any, b: Any) -> Any:
    """a % b, masked where either is and where b is 0."""
    return _arith(ew.remainder, a, b, _divide_domain)


mod = remainder


def power(a: Any, b: Any) -> Any:
    """a ** b, masked where either is and where the result is not finite."""
    return _power(a, b)


def equal(a: Any, b: Any) -> Any:
    """a == b, masked where either is."""
    return _compare(ew.equal, a, b, True)


def not_equal(a: Any, b: Any) -> Any:
    """a != b, masked where either is."""
    return _compare(ew.not_equal, a, b, False)


def less(a: Any, b: Any) -> Any:
    """a < b, masked where either is."""
    return _compare(ew.less, a, b, None)


def less_equal(a: Any, b: Any) -> Any:
    """a <= b, masked where either is."""
    return _compare(ew.less_equal, a, b, None)


def greater(a: Any, b: Any) -> Any:
    """a > b, masked where either is."""
    return _compare(ew.greater, a, b, None)


def greater_equal(a: Any, b: Any) -> Any:
    """a >= b, masked where either is."""
    return _compare(ew.greater_equal, a, b, None)


def logical_and(a: Any, b: Any) -> Any:
    """a and b elementwise, masked where either is."""
    return _arith(ew.logical_and, a, b)


def logical_or(a: Any, b: Any) -> Any:
    """a or b elementwise, masked where either is."""
    return _arith(ew.logical_or, a, b)


def logical_not(x: Any) -> Any:
    """not x elementwise (masked where x is)."""
    return _unary(ew.logical_not, x)


#: NumPy's ufuncs (by name) that ``MaskedArray.__array_ufunc__`` runs as this module's
#: functions
_UFUNCS: dict[str, Callable[..., Any]] = {
    "exp": exp, "log": log, "log2": log2, "log10": log10, "sqrt": sqrt,
    "absolute": absolute, "negative": negative, "sin": sin, "cos": cos, "tan": tan,
    "arcsin": arcsin, "arccos": arccos, "arctan": arctan, "sinh": sinh, "cosh": cosh,
    "tanh": tanh, "floor": floor, "ceil": ceil, "add": add, "subtract": subtract,
    "multiply": multiply, "divide": divide, "floor_divide": floor_divide,
    "remainder": remainder, "power": power, "equal": equal, "not_equal": not_equal,
    "less": less, "less_equal": less_equal, "greater": greater,
    "greater_equal": greater_equal, "logical_and": logical_and, "logical_or": logical_or,
    "logical_not": logical_not,
}


# -- reductions ----------------------------------------------------------------------------
def count(self: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """How many elements of ``self`` are unmasked (see ``MaskedArray.count``)."""
    return asanyarray(self).count(axis, keepdims)


def sum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
        keepdims: bool = False) -> Any:
    """Sum of the unmasked elements (see ``MaskedArray.sum``)."""
    return asanyarray(a).sum(axis, dtype, out, keepdims)


def prod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
         keepdims: bool = False) -> Any:
    """Product of the unmasked elements."""
    return asanyarray(a).prod(axis, dtype, out, keepdims)


product = prod


def mean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
         keepdims: bool = False) -> Any:
    """Mean of the unmasked elements (see ``MaskedArray.mean``)."""
    return asanyarray(a).mean(axis, dtype, out, keepdims)


def var(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
        keepdims: bool = False) -> Any:
    """Variance of the unmasked elements."""
    return asanyarray(a).var(axis, dtype, out, ddof, keepdims)


def std(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
        keepdims: bool = False) -> Any:
    """Standard deviation of the unmasked elements."""
    return asanyarray(a).std(axis, dtype, out, ddof, keepdims)


def min(obj: Any, axis: Any = None, out: Any = None, fill_value: Any = None,
        keepdims: bool = False) -> Any:
    """Smallest unmasked element."""
    return asanyarray(obj).min(axis, out, fill_value, keepdims)


def max(obj: Any, axis: Any = None, out: Any = None, fill_value: Any = None,
        keepdims: bool = False) -> Any:
    """Largest unmasked element."""
    return asanyarray(obj).max(axis, out, fill_value, keepdims)


def all(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
    """Whether every unmasked element is true."""
    return asanyarray(a).all(axis, out, keepdims)


def any(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
    """Whether some unmasked element is true."""
    return asanyarray(a).any(axis, out, keepdims)


def argmin(a: Any, axis: Any = None, fill_value: Any = None, out: Any = None, *,
           keepdims: bool = False) -> Array:
    """Index of the smallest unmasked element."""
    return asanyarray(a).argmin(axis, fill_value, out, keepdims=keepdims)


def argmax(a: Any, axis: Any = None, fill_value: Any = None, out: Any = None, *,
           keepdims: bool = False) -> Array:
    """Index of the largest unmasked element."""
    return asanyarray(a).argmax(axis, fill_value, out, keepdims=keepdims)


def cumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    """Cumulative sum, masked elements counted as 0 (and still masked)."""
    return asanyarray(a).cumsum(axis, dtype, out)


def cumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    """Cumulative product, masked elements counted as 1 (and still masked)."""
    return asanyarray(a).cumprod(axis, dtype, out)


def _gather_last(s: Array, idx: Array) -> Array:
    """``s[..., idx]`` per row (``idx``: one int64 index per row, in range by construction,
    so without take_along_axis's bounds check, which reads the indices)."""
    node = g.library("take_along_axis", (s._node, g.cast(idx._node, np.int64)),
                     {"axis": s.ndim - 1}, s.dtype.np, idx.shape)
    return Array._new(node)


def _to_last(x: Array, axes: tuple[int, ...]) -> Array:
    """``x`` with ``axes`` moved last and flattened into one."""
    kept = tuple(i for i in range(x.ndim) if i not in axes)
    y = mf.permute_dims(x, kept + axes) if kept + axes != tuple(range(x.ndim)) else x
    return mf.reshape(y, tuple(x.shape[i] for i in kept) + (math.prod(x.shape[a]
                                                                      for a in axes),))


def median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
           keepdims: bool = False) -> Any:
    """The median of the unmasked elements over ``axis``: masked elements sort last and
    each slice takes the middle of its own count (the mean of the two middle values of an
    even count); masked where every element of a slice is; NaN where an unmasked element
    is NaN. Float data keeps its dtype, other data gives float64. ``overwrite_input``
    changes nothing."""
    if not isinstance(a, MaskedArray) or a._mask is None:
        r = _plain_median(getdata(a), axis, None, False, keepdims)
        return _deliver("median", out, r, None)
    axes = mf.normalize_axes("median", axis, a.ndim)
    shape = tuple(1 if i in axes else s for i, s in enumerate(a.shape)
                  if keepdims or i not in axes)
    y, m = _to_last(a._data, axes), _to_last(a._mask, axes)
    n = y.shape[-1]
    floating = y.dtype in dt.REAL_FLOATING
    rd = y.dtype if floating else dt.float64
    if n == 0:
        return _deliver("median", out, full(shape, math.nan, dtype=rd, device=a.device),
                        full(shape, True, dtype=dt.bool, device=a.device))
    # masked elements as NaN (floats) or the largest value sort after every unmasked one
    # that could be a middle value
    big = math.nan if floating else (True if y.dtype == dt.bool else
                                     int(np.iinfo(y.dtype.np).max))
    s = _sort(sr.where(m, big, y), axis=-1)
    valid = ew.logical_not(m)
    cnt = sf.sum(valid, -1, dt.int64, None, True)
    lo = ew.clip(ew.floor_divide(ew.subtract(cnt, 1), 2), 0, n - 1)
    hi = ew.clip(ew.floor_divide(cnt, 2), 0, n - 1)
    first = astype(_gather_last(s, lo), rd)
    second = astype(_gather_last(s, hi), rd)
    res = sr.where(ew.equal(lo, hi), first, ew.divide(ew.add(first, second), 2))
    if floating:
        has_nan = ut.any(ew.logical_and(ew.isnan(y), valid), -1, None, True)
        res = sr.where(has_nan, math.nan, res)
    return _deliver("median", out, mf.reshape(res, shape),
                    mf.reshape(ew.equal(cnt, 0), shape))


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: Any, *args: Any,
                     **kwargs: Any) -> MaskedArray:
    """``func1d`` called on each 1-D slice of ``arr`` along ``axis`` (a masked array; a
    Python loop over the other axes, as NumPy's), the results (scalars, ``masked`` or 1-D
    arrays of one length) stacked into a masked array."""
    x = asanyarray(arr)
    ax = mf.normalize_axis("apply_along_axis", axis, x.ndim)
    other = tuple(s for i, s in enumerate(x.shape) if i != ax)
    outs = [func1d(x[ind[:ax] + (slice(None),) + ind[ax:]], *args, **kwargs)
            for ind in itertools.product(*(range(s) for s in other))]
    if not outs:
        raise ValueError(f"apply_along_axis: cannot apply a function along axis {ax} when "
                         f"the other axes are empty (shape {x.shape})")
    parts = [_parts(o, x.device) for o in outs]
    datas = [as_array(d, device=x.device) for d, _ in parts]
    each = datas[0].shape
    if len(each) > 1 or builtins.any(d.shape != each for d in datas):
        raise ValueError(f"apply_along_axis: the function must return scalars or 1-D arrays "
                         f"of one length, got shapes {datas[0].shape} and others")
    rt = dt.result_type_of(*datas, where="apply_along_axis")
    data = mf.reshape(mf.stack([astype(d, rt) for d in datas]), other + each)
    mask = None
    if not builtins.all(m is None for _, m in parts):
        masks = [_full_mask(m, each, x.device) for _, m in parts]
        mask = mf.reshape(mf.stack(masks), other + each)
    if each:
        data = mf.moveaxis(data, -1, ax)
        mask = None if mask is None else mf.moveaxis(mask, -1, ax).copy()
    return MaskedArray._make(data, mask)
