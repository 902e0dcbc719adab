"""NumPy's older polynomial functions, coefficients highest degree first: ``poly1d``,
``polyval``, ``polyfit``, ``roots``, ``poly``, ``polyder``, ``polyint``, ``polyadd``,
``polysub``, ``polymul``, ``polydiv`` (re-exported by the main namespace, as NumPy's are).

Layer: ``_api`` (kept beside ``zyxarray.polynomial``, whose helpers it shares): graph
operations through the ``_api`` functions; never imports ``_devices``.

# Note: ``poly1d`` drops zero leading coefficients as NumPy's does, and ``roots``, ``poly``,
# ``polymul`` and ``polydiv`` trim theirs or choose a real result when the values allow, as
# NumPy's do; the length (or dtype) then depends on the values, so these read the (short)
# coefficient arrays back. Everything else is lazy.
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

from .._api import _dtypes as dt
from .._api import _elementwise_functions as ew
from .._api import _manipulation_functions as mf
from .._api import _statistical_functions as sf
from .._api._array_object import Array
from .._api._creation_functions import arange, asarray, eye, ones, zeros, zeros_like
from .._api._linalg_functions import eigvals, inv
from .._api._numpy_args import as_array, device_for
from .._api._numpy_math import convolve
from .polynomial import _cast, _fit_inputs, _float

__all__ = [
    "poly", "poly1d", "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul",
    "polysub", "polyval", "roots",
]

def _coefficients(p: Any, device: Any = None) -> Array:
    """p's coefficients as a 1-D array (NumPy's ``atleast_1d``; a poly1d's own)."""
    if isinstance(p, poly1d):
        return p.coeffs
    a = as_array(p, device=device)
    return mf.reshape(a, (1,)) if a.ndim == 0 else a


def _device_of(*ps: Any) -> Any:
    """The device of the first array or poly1d among ``ps`` (None: the default)."""
    return device_for(*(p.coeffs if isinstance(p, poly1d) else p for p in ps))


def _trim_leading(c: Array, atol: float | None = None) -> Array:
    """c without its zero leading coefficients (those of magnitude at most ``atol`` if
    given); reads c back, as its length depends on the values."""
    host = np.asarray(c)
    big = np.abs(host) > atol if atol is not None else host != 0
    first = np.flatnonzero(big)
    return c[int(first[0]):] if first.size else c[:0]


def _zeros(n: int, dtype: dt.DType, device: Any) -> Array:
    return zeros(n, dtype=dtype, device=device)


class poly1d:
    """A polynomial with coefficients highest degree first (NumPy's ``poly1d``): callable,
    with arithmetic (+, -, *, ** with numbers and polynomials; / by a number, or by a
    polynomial giving (quotient, remainder)), ``deriv``, ``integ`` and ``roots``."""

    __hash__ = None  # type: ignore[assignment]
    _coeffs: Array
    _variable: str

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c = _coefficients(c_or_r)
        if c.ndim > 1:
            raise ValueError(f"poly1d: polynomial must be 1-d only, got shape {c.shape}")
        c = _trim_leading(c)
        if c.shape[0] == 0:
            c = _zeros(1, c.dtype, c.device)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    # -- coefficients -------------------------------------------------------------------------
    @property
    def coeffs(self) -> Array:
        """The coefficients, highest degree first."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value: Any) -> None:
        if value is not self._coeffs:
            raise AttributeError("poly1d: cannot set the coefficients attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self) -> str:
        return self._variable

    @property
    def order(self) -> int:
        """The degree."""
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self) -> Array:
        """The roots (``roots`` of the coefficients)."""
        return roots(self._coeffs)

    r = roots

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = np.asarray(self._coeffs)
        return out if dtype is None else out.astype(dtype)

    def __len__(self) -> int:
        return self.order

    def __iter__(self) -> Any:
        return iter(self._coeffs[i] for i in range(self._coeffs.shape[0]))

    def __getitem__(self, power: int) -> Array:
        """The coefficient of ``x**power`` (0 beyond the polynomial's degree)."""
        index = self.order - power
        if power > self.order or power < 0:
            return _zeros(1, self._coeffs.dtype, self._coeffs.device)[0]
        return self._coeffs[index]

    def __setitem__(self, power: int, value: Any) -> None:
        if power < 0:
            raise ValueError("poly1d: does not support negative powers")
        c = self._coeffs
        if power > self.order:
            c = mf.concat([_zeros(power - self.order, c.dtype, c.device), c])
        else:
            c = Array._new(c._node)
        c[c.shape[0] - 1 - power] = value
        self._coeffs = c

    # -- evaluation and calculus ----------------------------------------------------------------
    def __call__(self, val: Any) -> Any:
        return polyval(self._coeffs, val)

    def deriv(self, m: int = 1) -> poly1d:
        """The ``m``-th derivative."""
        return poly1d(polyder(self._coeffs, m))

    def integ(self, m: int = 1, k: Any = 0) -> poly1d:
        """The ``m``-th integral with integration constants ``k``."""
        return poly1d(polyint(self._coeffs, m, k))

    # -- arithmetic -------------------------------------------------------------------------
    def _like(self, other: Any) -> poly1d:
        """``other`` as a poly1d, host data on this polynomial's device."""
        return other if isinstance(other, poly1d) else \
            poly1d(_coefficients(other, self._coeffs.device))

    def __neg__(self) -> poly1d:
        return poly1d(ew.negative(self._coeffs))

    def __pos__(self) -> poly1d:
        return self

    def __mul__(self, other: Any) -> poly1d:
        if np.isscalar(other):
            return poly1d(ew.multiply(self._coeffs, other))
        return poly1d(polymul(self._coeffs, self._like(other)._coeffs))

    def __rmul__(self, other: Any) -> poly1d:
        return self.__mul__(other)

    def __add__(self, other: Any) -> poly1d:
        return poly1d(polyadd(self._coeffs, self._like(other)._coeffs))

    def __radd__(self, other: Any) -> poly1d:
        return poly1d(polyadd(self._like(other)._coeffs, self._coeffs))

    def __sub__(self, other: Any) -> poly1d:
        return poly1d(polysub(self._coeffs, self._like(other)._coeffs))

    def __rsub__(self, other: Any) -> poly1d:
        return poly1d(polysub(self._like(other)._coeffs, self._coeffs))

    def __pow__(self, val: Any) -> poly1d:
        scalar = bool(np.isscalar(val))
        power: Any = val
        if not scalar or int(power) != power or power < 0:
            raise ValueError("poly1d: power to non-negative integers only")
        result: Any = asarray([1], device=self._coeffs.device)
        for _ in range(int(power)):
            result = polymul(self._coeffs, result)
        return poly1d(result)

    def __truediv__(self, other: Any) -> Any:
        if np.isscalar(other):
            return poly1d(ew.divide(self._coeffs, other))
        return polydiv(self, self._like(other))

    def __rtruediv__(self, other: Any) -> Any:
        if np.isscalar(other):
            return poly1d(ew.divide(other, self._coeffs))
        return polydiv(self._like(other), self)

    def __eq__(self, other: object) -> Any:
        """Whether the coefficients are equal (reads them back)."""
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool(np.all(np.asarray(self._coeffs) == np.asarray(other._coeffs)))

    def __ne__(self, other: object) -> Any:
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    # -- printing (reads the values back, as printing an array does) --------------------------
    def __repr__(self) -> str:
        return repr(np.poly1d(np.asarray(self._coeffs)))

    def __str__(self) -> str:
        return str(np.poly1d(np.asarray(self._coeffs), variable=self._variable))


# -- functions on coefficient arrays ----------------------------------------------------------
def polyval(p: Any, x: Any) -> Any:
    """The polynomial with coefficients p (highest degree first) at x, by Horner's rule; a
    poly1d x gives the composition."""
    if isinstance(x, poly1d):
        coef = _coefficients(p, x.coeffs.device)
        y: Any = poly1d(_zeros(1, coef.dtype, coef.device))
        for i in range(coef.shape[0]):
            y = y * x + coef[i]
        return y
    device = device_for(p, x)
    coef = _coefficients(p, device)
    xa = as_array(x, device=coef.device)
    y = zeros_like(xa)
    for i in range(coef.shape[0]):
        y = ew.add(ew.multiply(y, xa), coef[i])
    return y


def _aligned(a1: Any, a2: Any, op: Any) -> Any:
    """``op`` of two coefficient vectors, the shorter padded with leading zeros; a poly1d
    if either is one."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    device = _device_of(a1, a2)
    a, b = _coefficients(a1, device), _coefficients(a2, device)
    diff = b.shape[0] - a.shape[0]
    if diff > 0:
        a = mf.concat([_zeros(diff, a.dtype, a.device), a])
    elif diff < 0:
        b = mf.concat([_zeros(-diff, b.dtype, b.device), b])
    val = op(a, b)
    return poly1d(val) if truepoly else val


def polyadd(a1: Any, a2: Any) -> Any:
    """The sum of two polynomials; a poly1d if either is one."""
    return _aligned(a1, a2, ew.add)


def polysub(a1: Any, a2: Any) -> Any:
    """The difference of two polynomials; a poly1d if either is one."""
    return _aligned(a1, a2, ew.subtract)


def polymul(a1: Any, a2: Any) -> Any:
    """The product of two polynomials (``convolve`` of their coefficients, zero leading
    ones dropped first); a poly1d if either is one."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    device = _device_of(a1, a2)
    val = convolve(poly1d(_coefficients(a1, device)).coeffs,
                   poly1d(_coefficients(a2, device)).coeffs)
    return poly1d(val) if truepoly else val


def polydiv(u: Any, v: Any) -> tuple[Any, Any]:
    """(quotient, remainder) of the division of two polynomials (floats); poly1ds if
    either is one. The remainder's leading coefficients within 1e-8 of zero are dropped."""
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    device = _device_of(u, v)
    a = ew.add(_coefficients(u, device), 0.0)
    b = ew.add(_coefficients(v, device), 0.0)
    common = dt.result_type_of(a, b, where="polydiv")
    a, b = _cast(a, common), _cast(b, common)
    m, n = a.shape[0] - 1, b.shape[0] - 1
    scale = ew.divide(1.0, b[0])
    r = a
    quotient = []
    for k in range(m - n + 1):
        d = ew.multiply(scale, r[k])
        quotient.append(d)
        r = mf.concat([r[:k], ew.subtract(r[k:k + n + 1], ew.multiply(d, b)),
                       r[k + n + 1:]])
    q = mf.stack(quotient) if quotient else _zeros(1, common, a.device)
    host = np.asarray(r)
    drop = 0
    while drop < host.shape[0] - 1 and np.allclose(host[drop], 0, rtol=1e-14):
        drop += 1
    r = r[drop:]
    if truepoly:
        return poly1d(q), poly1d(r)
    return q, r


def polyder(p: Any, m: int = 1) -> Any:
    """The ``m``-th derivative; a poly1d for a poly1d."""
    order = operator.index(m)
    if order < 0:
        raise ValueError("polyder: order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    val = _coefficients(p)
    for _ in range(order):
        n = val.shape[0] - 1
        powers = arange(n, 0, -1, device=val.device)
        val = ew.multiply(val[:-1], powers) if n > 0 else val[:0]
    return poly1d(val) if truepoly else val


def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The ``m``-th integral, with the integration constants ``k`` (a scalar for every
    step, or one per step); a poly1d for a poly1d."""
    order = operator.index(m)
    if order < 0:
        raise ValueError("polyint: order of integral must be positive (see polyder)")
    truepoly = isinstance(p, poly1d)
    val = _coefficients(p)
    if k is None:
        consts: Any = _zeros(order, dt.float64, val.device)
    else:
        consts = _float(_coefficients(k, val.device))
        if consts.shape[0] == 1 and order > 1:
            consts = ew.multiply(consts[0], ones(order, dtype=consts.dtype, device=val.device))
        if consts.shape[0] < order:
            raise ValueError("polyint: k must be a scalar or a rank-1 array of length 1 "
                             "or >m")
    for i in range(order):
        n = val.shape[0]
        divided = ew.divide(val, arange(n, 0, -1, device=val.device))
        common = dt.result_type_of(divided, consts, where="polyint")
        val = mf.concat([_cast(divided, common), _cast(consts[i:i + 1], common)])
    return poly1d(val) if truepoly else val


def poly(seq_of_zeros: Any) -> Any:
    """The coefficients of the monic polynomial with these roots (or, for a square matrix,
    of its characteristic polynomial); real when the complex roots come in conjugate
    pairs (checked on the host, as the dtype depends on it)."""
    z = _coefficients(seq_of_zeros)
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = eigvals(z)
    elif z.ndim == 1:
        if z.dtype not in dt.FLOATING:
            z = _cast(z, dt.float64)
    else:
        raise ValueError("poly: input must be 1-d or a non-empty square 2-d array")
    if z.shape[0] == 0:
        return 1.0
    one = ones(1, dtype=z.dtype, device=z.device)
    a = one
    for i in range(z.shape[0]):
        a = convolve(a, mf.concat([one, ew.negative(z[i:i + 1])]))
    if a.dtype in dt.COMPLEX_FLOATING:
        host = np.asarray(z).astype(complex)
        if np.all(np.sort(host) == np.sort(host.conjugate())):
            a = ew.real(a)
    return a


def roots(p: Any) -> Array:
    """The roots of the polynomial with coefficients p (highest degree first): the
    eigenvalues of its companion matrix, plus a zero root for each zero trailing
    coefficient; real when they all are. Reads p and the eigenvalues back (the count and
    dtype depend on the values)."""
    c = _coefficients(p)
    if c.ndim != 1:
        raise ValueError(f"roots: input must be a rank-1 array, got shape {c.shape}")
    host = np.asarray(c)
    nonzero = np.flatnonzero(host)
    if nonzero.size == 0:
        return _zeros(0, dt.float64, c.device)
    trailing = c.shape[0] - int(nonzero[-1]) - 1
    c = _float(c[int(nonzero[0]):int(nonzero[-1]) + 1])
    n = c.shape[0]
    if n > 1:
        top = mf.reshape(ew.negative(ew.divide(c[1:], c[0])), (1, n - 1))
        below = eye(n - 2, n - 1, dtype=c.dtype, device=c.device)
        found = eigvals(mf.concat([top, below], axis=0))
        if not np.any(np.asarray(ew.imag(found))):
            found = ew.real(found)
    else:
        found = _zeros(0, c.dtype, c.device)
    if trailing:
        found = mf.concat([found, _zeros(trailing, found.dtype, found.device)])
    return found


def _vander(x: Array, n: int) -> Array:
    """Columns ``x**(n-1), ..., x, 1`` (by products, as NumPy's vander)."""
    columns = [ew.add(ew.multiply(x, 0), 1)]
    for _ in range(n - 1):
        columns.append(x if len(columns) == 1 else ew.multiply(columns[-1], x))
    return mf.stack(columns[::-1], axis=1)


def polyfit(x: Any, y: Any, deg: int, rcond: Any = None, full: bool = False, w: Any = None,
            cov: Any = False) -> Any:
    """The least-squares polynomial fit of degree ``deg`` to the points (x, y) (one fit per
    column of a 2-D y): coefficients highest degree first; with ``full`` also residuals,
    rank, singular values and rcond; with ``cov`` also the coefficients' covariance
    (scaled by the residuals unless ``cov='unscaled'``). Warns with NumPy's RankWarning
    when the fit is rank deficient."""
    order = operator.index(deg) + 1
    if order < 1:
        raise ValueError("polyfit: expected deg >= 0")
    x, y = _fit_inputs(x, y)
    if w is not None:
        wa = as_array(w, device=x.device)
        if wa.ndim != 1:
            raise TypeError("polyfit: expected a 1-d array for weights")
        if wa.shape[0] != y.shape[0]:
            raise TypeError("polyfit: expected w and y to have the same length")
    lhs = _vander(x, order)
    # (NumPy scales the columns by sqrt(sum(lhs * lhs)), even for complex x)
    c, resids, rank, s, rcond = _fit_legacy(lhs, x, y, rcond, w)
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        return c, _covariance(lhs, w, x, order, resids, cov, y.ndim)
    return c


def _fit_legacy(lhs: Array, x: Array, y: Array, rcond: Any, w: Any
                ) -> tuple[Array, Array, int, Array, float]:
    from .._api._linalg_functions import lstsq
    rhs = y
    if w is not None:
        wa = _float(as_array(w, device=x.device))
        lhs = ew.multiply(lhs, mf.reshape(wa, (-1, 1)))
        rhs = ew.multiply(rhs, mf.reshape(wa, (-1, 1)) if rhs.ndim == 2 else wa)
    if rcond is None:
        rcond = x.shape[0] * float(np.finfo(x.dtype.np).eps)
    scale = ew.sqrt(sf.sum(ew.multiply(lhs, lhs), axis=0))
    c, resids, rank, s = lstsq(ew.divide(lhs, scale), rhs, rcond)
    c = ew.divide(c, mf.reshape(scale, (-1, 1)) if c.ndim == 2 else scale)
    return c, resids, rank, s, rcond


def _covariance(lhs: Array, w: Any, x: Array, order: int, resids: Array, cov: Any,
                ndim: int) -> Array:
    """NumPy's ``polyfit(cov=...)``: inv(A^T A) of the scaled (weighted) Vandermonde
    matrix, unscaled by the column norms, times resids / (len(x) - order)."""
    if w is not None:
        lhs = ew.multiply(lhs, mf.reshape(_float(as_array(w, device=x.device)), (-1, 1)))
    scale = ew.sqrt(sf.sum(ew.multiply(lhs, lhs), axis=0))
    scaled = ew.divide(lhs, scale)
    base = inv(scaled.T @ scaled)
    base = ew.divide(base, ew.multiply(mf.reshape(scale, (-1, 1)), mf.reshape(scale, (1, -1))))
    if cov == "unscaled":
        return base if ndim == 1 else mf.reshape(base, base.shape + (1,))
    if x.shape[0] <= order:
        raise ValueError("polyfit: the number of data points must exceed order to scale the "
                         "covariance matrix")
    fac = ew.divide(resids, x.shape[0] - order)
    if ndim == 1:
        return ew.multiply(base, fac)
    return ew.multiply(mf.reshape(base, base.shape + (1,)), fac)

