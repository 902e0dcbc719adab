"""zyxarray.polynomial.polynomial: power series with coefficients in increasing degree
(NumPy's ``numpy.polynomial.polynomial``): the functions on coefficient arrays and the
``Polynomial`` class.

Layer: ``_api`` (a public subpackage, like ``linalg.py``, with its code here): it builds
graph nodes through the ``_api`` functions and a few ``_lazy.graph`` constructors, and never
imports ``_devices``. Evaluation, derivatives, integrals,
products and fits are lazy graph operations (products are ``convolve``, a fit is
``linalg.lstsq``, roots are ``linalg.eigvals`` of the companion matrix).

# Note: NumPy drops zero leading terms from the results of polyadd, polysub, polymul,
# polydiv and polyroots (``trimseq``), and from the coefficients ``polyint`` integrates when
# they are all zero; the number of coefficients then depends on their values, so these read
# the (short) coefficient array back from the device. So do the comparisons of two
# Polynomials' domains and windows, ``==``, ``trim`` and printing.
"""

from __future__ import annotations

import builtins
import numbers
import operator
import warnings
from typing import Any

import numpy as np

from .._api import _dtypes as dt
from .._api import _elementwise_functions as ew
from .._api import _manipulation_functions as mf
from .._api import _statistical_functions as sf
from .._api._array_object import Array
from .._api._creation_functions import arange, asarray
from .._api._indexing_functions import take
from .._api._linalg_functions import eigvals, lstsq
from .._api._numpy_args import as_array, device_for
from .._api._numpy_math import convolve
from .._api._searching_functions import where
from .._api._sorting_functions import argsort
from .._codegen.ir import Op
from .._lazy import graph as g

__all__ = [
    "Polynomial", "polyadd", "polycompanion", "polyder", "polydiv", "polyfit",
    "polyfromroots", "polyint", "polymul", "polypow", "polyroots", "polysub", "polyval",
    "polyvander",
]


# -- coefficient arrays -----------------------------------------------------------------------
def _cast(a: Array, dtype: dt.DType) -> Array:
    return a if a.dtype == dtype else Array._new(g.cast(a._node, dtype.np))


def _float(a: Array) -> Array:
    """Integers and bools as float64 (NumPy's ``as_series`` and ``c + 0.0``)."""
    return a if a.dtype in dt.FLOATING else _cast(a, dt.float64)


def _series(c: Any, device: Any = None) -> Array:
    """One coefficient array: 1-D, not empty, floating."""
    a = as_array(c, device=device)
    if a.ndim == 0:
        a = mf.reshape(a, (1,))
    if a.ndim != 1:
        raise ValueError(f"polynomial: coefficient array is not 1-d (shape {a.shape})")
    if a.size == 0:
        raise ValueError("polynomial: coefficient array is empty")
    return _float(a)


def _pair(c1: Any, c2: Any) -> tuple[Array, Array]:
    """Two coefficient arrays of one dtype on one device."""
    device = device_for(c1, c2)
    a, b = _series(c1, device), _series(c2, device)
    common = dt.result_type_of(a, b, where="polynomial")
    return _cast(a, common), _cast(b, common)


def _trimseq(c: Array) -> Array:
    """c without its zero highest-degree coefficients (at least one stays). Reads c back:
    the result's length depends on its values."""
    host = np.asarray(c)
    nonzero = np.flatnonzero(host != 0)
    keep = int(nonzero[-1]) + 1 if nonzero.size else 1
    return c if keep == c.shape[0] else c[:keep]


def _padded_sum(a: Array, b: Array, sign: float) -> Array:
    n = builtins.max(a.shape[0], b.shape[0])
    a = _pad_end(a, n)
    b = _pad_end(b, n)
    return ew.add(a, b) if sign > 0 else ew.subtract(a, b)


def _pad_end(a: Array, n: int) -> Array:
    if a.shape[0] == n:
        return a
    zeros = Array._new(_zeros_node(a, n - a.shape[0]))
    return mf.concat([a, zeros])


def _zeros_node(like: Array, n: int) -> g.Node:
    return g.broadcast(g.const(0, like.dtype.np, like.device), (n,))


def polyadd(c1: Any, c2: Any) -> Array:
    """The sum of two power series (coefficients lowest degree first)."""
    a, b = _pair(c1, c2)
    return _trimseq(_padded_sum(a, b, 1.0))


def polysub(c1: Any, c2: Any) -> Array:
    """The difference of two power series."""
    a, b = _pair(c1, c2)
    return _trimseq(_padded_sum(a, b, -1.0))


def polymul(c1: Any, c2: Any) -> Array:
    """The product of two power series (``convolve`` of the coefficients)."""
    a, b = _pair(c1, c2)
    return _trimseq(convolve(a, b))


def polydiv(c1: Any, c2: Any) -> tuple[Array, Array]:
    """(quotient, remainder) of the division of one power series by another."""
    a, b = _pair(c1, c2)
    a, b = _trimseq(a), _trimseq(b)
    if float(np.abs(np.asarray(b[-1]))) == 0:
        raise ZeroDivisionError("polydiv: division by a zero polynomial")
    n1, n2 = a.shape[0], b.shape[0]
    if n1 < n2:
        return ew.multiply(a[:1], 0), a
    if n2 == 1:
        return ew.divide(a, b[-1]), ew.multiply(a[:1], 0)
    lead = b[-1]
    rest = ew.divide(b[:-1], lead)
    rem = a
    quotient = []
    for j in range(n1 - 1, n2 - 2, -1):
        i = j - (n2 - 1)
        top = rem[j]
        quotient.append(ew.divide(top, lead))
        # subtract top * rest from rem[i:j]
        rem = mf.concat([rem[:i], ew.subtract(rem[i:j], ew.multiply(rest, top)), rem[j:]])
    q = mf.stack(quotient[::-1])
    return q, _trimseq(rem[:n2 - 1])


def polypow(c: Any, pow: Any, maxpower: int | None = None) -> Array:
    """The power series raised to the non-negative integer ``pow``."""
    a = _trimseq(_series(c))
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError(f"polypow: power must be a non-negative integer, got {pow!r}")
    if maxpower is not None and power > maxpower:
        raise ValueError(f"polypow: power {power} is too large (maxpower {maxpower})")
    if power == 0:
        return ew.add(ew.multiply(a[:1], 0), 1)
    out = a
    for _ in range(power - 1):
        out = convolve(out, a)
    return out


def polyval(x: Any, c: Any, tensor: bool = True) -> Any:
    """The power series with coefficients c (lowest degree first; a 2-D c is one series per
    column, broadcast against x when ``tensor``) at x, by Horner's rule. x may be an array,
    array-like, scalar, or a Polynomial (composition)."""
    if isinstance(x, Polynomial):
        coef = _series(c, x.coef.device)
        out: Any = x * 0 + coef[-1]
        for i in range(2, coef.shape[0] + 1):
            out = out * x + coef[-i]
        return out
    device = device_for(x, c)
    coef = as_array(c, device=device)
    if coef.ndim == 0:
        coef = mf.reshape(coef, (1,))
    coef = _float(coef)
    if not isinstance(x, Array) and type(x) not in (int, float, complex, bool):
        x = as_array(x, device=coef.device)
    if isinstance(x, Array) and tensor:
        coef = mf.reshape(coef, coef.shape + (1,) * x.ndim)
    out = ew.add(coef[-1], ew.multiply(x, 0) if isinstance(x, Array) else x * 0)
    for i in range(2, coef.shape[0] + 1):
        out = ew.add(coef[-i], ew.multiply(out, x))
    return out


def polyder(c: Any, m: int = 1, scl: Any = 1, axis: int = 0) -> Array:
    """The ``m``-th derivative of the series, each differentiation multiplied by ``scl``."""
    coef = _float(as_array(c))
    if coef.ndim == 0:
        coef = mf.reshape(coef, (1,))
    cnt = operator.index(m)
    if cnt < 0:
        raise ValueError(f"polyder: the order of derivation must be non-negative, got {m}")
    ax = mf.normalize_axis("polyder", axis, coef.ndim)
    if cnt == 0:
        return coef
    coef = mf.moveaxis(coef, ax, 0)
    n = coef.shape[0]
    if cnt >= n:
        coef = ew.multiply(coef[:1], 0)
    else:
        for _ in range(cnt):
            n -= 1
            powers = _cast(arange(1, n + 1, device=coef.device), coef.dtype)
            powers = mf.reshape(powers, (n,) + (1,) * (coef.ndim - 1))
            coef = ew.multiply(ew.multiply(coef[1:], scl), powers)
    return mf.moveaxis(coef, 0, ax)


def polyint(c: Any, m: int = 1, k: Any = (), lbnd: Any = 0, scl: Any = 1,
            axis: int = 0) -> Array:
    """The ``m``-th integral of the series, each integration constant from ``k`` (set so
    the integral is ``k[i]`` at ``lbnd``) and each integration multiplied by ``scl``."""
    coef = _float(as_array(c))
    if coef.ndim == 0:
        coef = mf.reshape(coef, (1,))
    cnt = operator.index(m)
    consts = list(k) if np.iterable(k) else [k]
    if cnt < 0:
        raise ValueError(f"polyint: the order of integration must be non-negative, got {m}")
    if len(consts) > cnt:
        raise ValueError(f"polyint: too many integration constants ({len(consts)} for "
                         f"m={cnt})")
    if np.ndim(lbnd) != 0:
        raise ValueError("polyint: lbnd must be a scalar")
    if np.ndim(scl) != 0:
        raise ValueError("polyint: scl must be a scalar")
    ax = mf.normalize_axis("polyint", axis, coef.ndim)
    if cnt == 0:
        return coef
    consts += [0] * (cnt - len(consts))
    coef = mf.moveaxis(coef, ax, 0)
    for i in range(cnt):
        n = coef.shape[0]
        coef = ew.multiply(coef, scl)
        if n == 1 and not np.any(np.asarray(coef[0])):
            coef = ew.add(coef, consts[i])
            continue
        divisors = _cast(arange(1, n + 1, device=coef.device), coef.dtype)
        divisors = mf.reshape(divisors, (n,) + (1,) * (coef.ndim - 1))
        higher = ew.divide(coef, divisors)
        first = ew.multiply(coef[:1], 0)
        tmp = mf.concat([first, higher])
        offset = ew.subtract(consts[i], polyval(lbnd, tmp))
        coef = mf.concat([ew.add(tmp[:1], offset), tmp[1:]])
    return mf.moveaxis(coef, 0, ax)


def polyvander(x: Any, deg: int) -> Array:
    """The Vandermonde matrix ``V[..., i] = x**i`` for i up to ``deg`` (by products)."""
    ideg = operator.index(deg)
    if ideg < 0:
        raise ValueError(f"polyvander: deg must be non-negative, got {deg}")
    x = _float(as_array(x))
    if x.ndim == 0:
        x = mf.reshape(x, (1,))
    columns = [ew.add(ew.multiply(x, 0), 1)]
    for i in range(ideg):
        columns.append(x if i == 0 else ew.multiply(columns[-1], x))
    return mf.stack(columns, axis=-1)


def _fit(van: Array, x: Array, y: Array, order: int, rcond: Any, w: Any
         ) -> tuple[Array, Array, int, Array, float]:
    """The least-squares coefficients for the columns of ``van`` (scaled to unit norm first,
    as NumPy does): (c, residuals, rank, singular values, rcond)."""
    lhs, rhs = van, y
    if w is not None:
        w = _float(as_array(w, device=x.device))
        if w.ndim != 1:
            raise TypeError("polyfit: expected a 1-D vector for w")
        if w.shape[0] != x.shape[0]:
            raise TypeError("polyfit: expected x and w to have the same length")
        lhs = ew.multiply(lhs, mf.reshape(w, (-1, 1)))
        rhs = ew.multiply(rhs, mf.reshape(w, (-1, 1)) if rhs.ndim == 2 else w)
    if rcond is None:
        rcond = x.shape[0] * float(np.finfo(x.dtype.np).eps)
    if lhs.dtype in dt.COMPLEX_FLOATING:
        power = ew.add(ew.square(ew.real(lhs)), ew.square(ew.imag(lhs)))
    else:
        power = ew.square(lhs)
    scale = ew.sqrt(sf.sum(power, axis=0))
    scale = where(ew.equal(scale, 0), ew.add(ew.multiply(scale, 0), 1), scale)
    c, resids, rank, s = lstsq(ew.divide(lhs, scale), rhs, rcond)
    c = ew.divide(c, mf.reshape(scale, (-1, 1)) if c.ndim == 2 else scale)
    return c, resids, rank, s, rcond


def _fit_inputs(x: Any, y: Any) -> tuple[Array, Array]:
    device = device_for(x, y)
    x, y = _float(as_array(x, device=device)), _float(as_array(y, device=device))
    if x.ndim != 1:
        raise TypeError(f"polyfit: expected a 1-D vector for x, got shape {x.shape}")
    if x.size == 0:
        raise TypeError("polyfit: expected a non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError(f"polyfit: expected a 1-D or 2-D array for y, got shape {y.shape}")
    if x.shape[0] != y.shape[0]:
        raise TypeError(f"polyfit: expected x and y to have the same length ({x.shape[0]} "
                        f"and {y.shape[0]})")
    return x, y


def polyfit(x: Any, y: Any, deg: Any, rcond: Any = None, full: bool = False,
            w: Any = None) -> Any:
    """The least-squares fit of a power series of degree ``deg`` (or of the terms a list
    of degrees names) to the points (x, y): its coefficients, lowest degree first (one
    column per column of y); with ``full``, also [residuals, rank, singular values,
    rcond]."""
    x, y = _fit_inputs(x, y)
    degrees = np.asarray(deg)
    if degrees.ndim > 1 or degrees.dtype.kind not in "iu" or degrees.size == 0:
        raise TypeError("polyfit: deg must be an int or a non-empty 1-D array of int")
    if degrees.min() < 0:
        raise ValueError("polyfit: expected deg >= 0")
    if degrees.ndim == 0:
        lmax = int(degrees)
        order = lmax + 1
        van = polyvander(x, lmax)
    else:
        degrees = np.sort(degrees)
        lmax = int(degrees[-1])
        order = degrees.size
        van = take(polyvander(x, lmax), asarray(degrees, device=x.device), axis=1)
    c, resids, rank, s, rcond = _fit(van, x, y, order, rcond, w)
    if degrees.ndim > 0:
        rows = np.zeros(lmax + 1, dtype=bool)
        rows[degrees] = True
        position = np.cumsum(rows) - 1
        picked = take(c, asarray(position, device=c.device), axis=0)
        keep = asarray(rows, device=c.device)
        c = where(mf.reshape(keep, (-1,) + (1,) * (c.ndim - 1)), picked, 0.0)
    if rank != order and not full:
        warnings.warn("The fit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, [resids, rank, s, rcond]
    return c


def polycompanion(c: Any) -> Array:
    """The companion matrix of the series (ones below the diagonal, the last column
    ``-c[:-1] / c[-1]``)."""
    coef = _series(c)
    n = coef.shape[0] - 1
    if n < 1:
        raise ValueError("polycompanion: series must have maximum degree of at least 1")
    if n == 1:
        return mf.reshape(ew.negative(ew.divide(coef[0], coef[1])), (1, 1))
    from .._api._creation_functions import eye
    shift = eye(n, n - 1, k=-1, dtype=coef.dtype, device=coef.device)
    last = mf.reshape(ew.negative(ew.divide(coef[:-1], coef[-1])), (n, 1))
    return mf.concat([shift, last], axis=1)


def polyroots(c: Any) -> Array:
    """The roots of the series, sorted (real when they all are). Reads the coefficients
    and roots back: their count and dtype depend on the values."""
    coef = _trimseq(_series(c))
    if coef.shape[0] < 2:
        return coef[:0]
    if coef.shape[0] == 2:
        return mf.reshape(ew.negative(ew.divide(coef[0], coef[1])), (1,))
    companion = polycompanion(coef)
    roots = eigvals(companion[::-1, ::-1])
    return _sorted_roots(roots, coef.dtype)


def _sorted_roots(roots: Array, real_dtype: dt.DType) -> Array:
    """Roots as NumPy's eigvals gives them (real when every imaginary part is zero),
    sorted lexicographically (real part, then imaginary part)."""
    if not np.any(np.asarray(ew.imag(roots))):
        real = ew.real(roots)
        return take(real, argsort(real))
    by_imag = take(roots, argsort(ew.imag(roots)))
    return take(by_imag, argsort(ew.real(by_imag)))


def polyfromroots(roots: Any) -> Array:
    """The coefficients of the monic series with the given roots (lowest degree first)."""
    r = as_array(roots)
    if r.ndim == 0:
        r = mf.reshape(r, (1,))
    r = _float(mf.reshape(r, (-1,)))
    if r.size == 0:
        return asarray([1.0], device=r.device)
    out = None
    one = ew.add(ew.multiply(r[:1], 0), 1)
    for i in range(r.shape[0]):
        factor = mf.concat([ew.negative(r[i:i + 1]), one])
        out = factor if out is None else convolve(out, factor)
    assert out is not None
    return out


# -- the Polynomial class ---------------------------------------------------------------------
def _interval(v: Any, device: Any) -> Array:
    a = _float(as_array(v, device=device))
    if a.shape != (2,):
        raise ValueError(f"Polynomial: a domain or window must have 2 elements, got shape "
                         f"{a.shape}")
    return a


def _range_of(x: Array) -> Array:
    """[min, max] of x (NumPy's getdomain; the corners of the box around complex x)."""
    if x.dtype in dt.COMPLEX_FLOATING:
        re, im = ew.real(x), ew.imag(x)
        lo = Array._new(g.alu(Op.COMPLEX, sf.min(re)._node, sf.min(im)._node, dtype=x.dtype.np))
        hi = Array._new(g.alu(Op.COMPLEX, sf.max(re)._node, sf.max(im)._node, dtype=x.dtype.np))
        return mf.stack([lo, hi])
    return mf.stack([sf.min(x), sf.max(x)])


def _mapparms(old: Array, new: Array) -> tuple[Array, Array]:
    """(off, scl) with ``new = off + scl * old`` (NumPy's ``mapparms``)."""
    old_len = ew.subtract(old[1], old[0])
    new_len = ew.subtract(new[1], new[0])
    off = ew.divide(ew.subtract(ew.multiply(old[1], new[0]), ew.multiply(old[0], new[1])),
                    old_len)
    return off, ew.divide(new_len, old_len)


class Polynomial:
    """A power series ``sum(coef[i] * x**i)`` (NumPy's ``numpy.polynomial.Polynomial``):
    callable, with arithmetic, derivatives, integrals, roots and least-squares fits. A
    ``domain`` is mapped linearly onto the ``window`` before evaluation (both [-1, 1] by
    default)."""

    maxpower = 100
    basis_name = None

    def __init__(self, coef: Any, domain: Any = None, window: Any = None,
                 symbol: str = "x") -> None:
        self.coef = _series(coef)
        device = self.coef.device
        self._plain = domain is None and window is None
        self.domain = _interval([-1.0, 1.0] if domain is None else domain, device)
        self.window = _interval([-1.0, 1.0] if window is None else window, device)
        if not isinstance(symbol, str) or not symbol.isidentifier():
            raise ValueError(f"Polynomial: symbol must be a valid Python identifier, got "
                             f"{symbol!r}")
        self.symbol = symbol

    # -- construction and conversion --------------------------------------------------------
    def _new(self, coef: Any) -> Polynomial:
        out = Polynomial.__new__(type(self))
        out.coef = coef
        out.domain, out.window, out.symbol = self.domain, self.window, self.symbol
        out._plain = self._plain
        return out

    def copy(self) -> Polynomial:
        """A copy (the coefficient array is shared: arrays are not changed in place by
        the methods)."""
        return self._new(self.coef)

    @classmethod
    def identity(cls, domain: Any = None, window: Any = None, symbol: str = "x") -> Polynomial:
        """The polynomial x (mapped from ``window`` to ``domain``)."""
        return cls._identity(domain, window, symbol, device_for(domain, window))

    @classmethod
    def _identity(cls, domain: Any, window: Any, symbol: str, device: Any) -> Polynomial:
        if domain is None and window is None:
            return cls(asarray([0.0, 1.0], device=device), symbol=symbol)
        d = _interval([-1.0, 1.0] if domain is None else domain, device)
        w = _interval([-1.0, 1.0] if window is None else window, d.device)
        off, scl = _mapparms(w, d)
        return cls(mf.stack([off, scl]), domain=d, window=w, symbol=symbol)

    @classmethod
    def basis(cls, deg: int, domain: Any = None, window: Any = None,
              symbol: str = "x") -> Polynomial:
        """The polynomial x**deg."""
        ideg = operator.index(deg)
        if ideg < 0:
            raise ValueError(f"Polynomial.basis: degree must be non-negative, got {deg}")
        coef = np.zeros(ideg + 1)
        coef[-1] = 1.0
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots: Any, domain: Any = (), window: Any = None,
                  symbol: str = "x") -> Polynomial:
        """The monic polynomial with these roots, in ``domain`` (default [-1, 1]; None: the
        roots' range)."""
        r = _float(mf.reshape(as_array(roots), (-1,)))
        if domain is None:
            domain = _range_of(r)
        elif isinstance(domain, (list, tuple)) and len(domain) == 0:
            domain = None
        if domain is None and window is None:
            return cls(polyfromroots(r), symbol=symbol)
        probe = cls([1.0], domain=domain, window=window)
        off, scl = _mapparms(probe.domain, probe.window)
        mapped = ew.add(off, ew.multiply(r, scl))
        coef = ew.divide(polyfromroots(mapped), ew.pow(scl, r.size))
        return cls(coef, domain=probe.domain, window=probe.window, symbol=symbol)

    @classmethod
    def fit(cls, x: Any, y: Any, deg: Any, domain: Any = None, rcond: Any = None,
            full: bool = False, w: Any = None, window: Any = None,
            symbol: str = "x") -> Any:
        """The least-squares fit of degree ``deg`` to (x, y); the domain defaults to the
        range of x (mapped onto the window [-1, 1] for a well-conditioned fit)."""
        xs, _ = _fit_inputs(x, y)
        if domain is None:
            domain = _range_of(xs)
        elif isinstance(domain, (list, tuple)) and len(domain) == 0:
            domain = [-1.0, 1.0]
        d = _interval(domain, xs.device)
        win = _interval([-1.0, 1.0] if window is None else window, xs.device)
        off, scl = _mapparms(d, win)
        res = polyfit(ew.add(off, ew.multiply(xs, scl)), y, deg, rcond=rcond, full=full, w=w)
        if full:
            coef, status = res
            return cls(coef, domain=d, window=win, symbol=symbol), status
        return cls(res, domain=d, window=win, symbol=symbol)

    def convert(self, domain: Any = None, kind: Any = None, window: Any = None) -> Any:
        """The same function as a Polynomial of another domain and window (the defaults:
        the plain power series)."""
        cls = type(self) if kind is None else kind
        return self(cls._identity(domain, window, self.symbol, self.coef.device))

    def mapparms(self) -> tuple[Array, Array]:
        """(off, scl): the domain maps onto the window by ``off + scl * x``."""
        return _mapparms(self.domain, self.window)

    # -- evaluation -------------------------------------------------------------------------
    def _mapped(self, x: Any) -> Any:
        if self._plain:
            return x
        off, scl = self.mapparms()
        if not isinstance(x, (Array, Polynomial)) and type(x) not in (int, float, complex):
            x = as_array(x, device=self.coef.device)
        return off + x * scl if isinstance(x, Polynomial) else ew.add(off, ew.multiply(x, scl))

    def __call__(self, arg: Any) -> Any:
        return polyval(self._mapped(arg), self.coef)

    def degree(self) -> int:
        """The degree: the number of coefficients less one."""
        return self.coef.shape[0] - 1

    def __len__(self) -> int:
        return self.coef.shape[0]

    def __iter__(self) -> Any:
        return iter(self.coef[i] for i in range(self.coef.shape[0]))

    def linspace(self, n: int = 100, domain: Any = None) -> tuple[Array, Array]:
        """(x, self(x)) at ``n`` evenly spaced points of the domain."""
        from .._api._creation_functions import linspace
        d = self.domain if domain is None else _interval(domain, self.coef.device)
        steps = linspace(0.0, 1.0, n, device=self.coef.device)
        x = ew.add(d[0], ew.multiply(steps, ew.subtract(d[1], d[0])))
        return x, self(x)

    def deriv(self, m: int = 1) -> Polynomial:
        """The ``m``-th derivative."""
        if self._plain:
            return self._new(polyder(self.coef, m))
        _, scl = self.mapparms()
        return self._new(polyder(self.coef, m, scl))

    def integ(self, m: int = 1, k: Any = (), lbnd: Any = None) -> Polynomial:
        """The ``m``-th integral, the constants ``k`` giving its values at ``lbnd``
        (default the domain's 0)."""
        if self._plain:
            return self._new(polyint(self.coef, m, k, 0 if lbnd is None else lbnd, 1))
        off, scl = self.mapparms()
        start = 0 if lbnd is None else ew.add(off, ew.multiply(scl, lbnd))
        return self._new(polyint(self.coef, m, k, start, ew.divide(1.0, scl)))

    def roots(self) -> Array:
        """The roots, in the domain."""
        r = polyroots(self.coef)
        if self._plain:
            return r
        off, scl = _mapparms(self.window, self.domain)
        return ew.add(off, ew.multiply(r, scl))

    def cutdeg(self, deg: int) -> Polynomial:
        """The series truncated to degree ``deg``."""
        ideg = operator.index(deg)
        if ideg < 0:
            raise ValueError(f"Polynomial.cutdeg: deg must be non-negative, got {deg}")
        return self.truncate(ideg + 1)

    def truncate(self, size: int) -> Polynomial:
        """The series truncated to its first ``size`` coefficients."""
        isize = operator.index(size)
        if isize < 1:
            raise ValueError(f"Polynomial.truncate: size must be positive, got {size}")
        return self._new(self.coef[:isize])

    def trim(self, tol: float = 0) -> Polynomial:
        """The series without its highest coefficients of magnitude at most ``tol`` (reads
        the coefficients back: the length depends on them)."""
        if tol < 0:
            raise ValueError("Polynomial.trim: tol must be non-negative")
        host = np.abs(np.asarray(self.coef))
        big = np.flatnonzero(host > tol)
        if big.size == 0:
            return self._new(ew.multiply(self.coef[:1], 0))
        return self._new(self.coef[:int(big[-1]) + 1])

    # -- arithmetic -------------------------------------------------------------------------
    def _same_frame(self, other: Polynomial) -> bool:
        if self._plain and other._plain:
            return True
        return bool(np.array_equal(np.asarray(self.domain), np.asarray(other.domain)) and
                    np.array_equal(np.asarray(self.window), np.asarray(other.window)))

    def _other(self, other: Any) -> Any:
        """The coefficients of ``other`` (a Polynomial of the same kind, domain, window and
        symbol, or a number or array of coefficients)."""
        if isinstance(other, Polynomial):
            if type(other) is not type(self):
                raise TypeError("Polynomial types differ")
            if not self._same_frame(other):
                raise TypeError("Domains or windows differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def __add__(self, other: Any) -> Polynomial:
        return self._new(polyadd(self.coef, self._other(other)))

    def __radd__(self, other: Any) -> Polynomial:
        return self._new(polyadd(other, self.coef))

    def __sub__(self, other: Any) -> Polynomial:
        return self._new(polysub(self.coef, self._other(other)))

    def __rsub__(self, other: Any) -> Polynomial:
        return self._new(polysub(other, self.coef))

    def __mul__(self, other: Any) -> Polynomial:
        return self._new(polymul(self.coef, self._other(other)))

    def __rmul__(self, other: Any) -> Polynomial:
        return self._new(polymul(other, self.coef))

    def __truediv__(self, other: Any) -> Polynomial:
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(f"unsupported types for true division: '{type(self).__name__}', "
                            f"'{type(other).__name__}'")
        return self.__floordiv__(other)

    def __floordiv__(self, other: Any) -> Polynomial:
        return self._new(polydiv(self.coef, self._other(other))[0])

    def __rfloordiv__(self, other: Any) -> Polynomial:
        return self._new(polydiv(other, self.coef)[0])

    def __mod__(self, other: Any) -> Polynomial:
        return self._new(polydiv(self.coef, self._other(other))[1])

    def __rmod__(self, other: Any) -> Polynomial:
        return self._new(polydiv(other, self.coef)[1])

    def __divmod__(self, other: Any) -> tuple[Polynomial, Polynomial]:
        q, r = polydiv(self.coef, self._other(other))
        return self._new(q), self._new(r)

    def __rdivmod__(self, other: Any) -> tuple[Polynomial, Polynomial]:
        q, r = polydiv(other, self.coef)
        return self._new(q), self._new(r)

    def __pow__(self, other: Any) -> Polynomial:
        return self._new(polypow(self.coef, other, maxpower=self.maxpower))

    def __neg__(self) -> Polynomial:
        return self._new(ew.negative(self.coef))

    def __pos__(self) -> Polynomial:
        return self

    def __eq__(self, other: object) -> bool:
        """Same kind, domain, window, symbol and coefficients (reads them back)."""
        if not isinstance(other, Polynomial) or type(other) is not type(self):
            return False
        return (self.symbol == other.symbol and self._same_frame(other) and
                self.coef.shape == other.coef.shape and
                bool(np.array_equal(np.asarray(self.coef), np.asarray(other.coef))))

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def has_samecoef(self, other: Polynomial) -> bool:
        return self.coef.shape == other.coef.shape and \
            bool(np.array_equal(np.asarray(self.coef), np.asarray(other.coef)))

    def has_samedomain(self, other: Polynomial) -> bool:
        return bool(np.array_equal(np.asarray(self.domain), np.asarray(other.domain)))

    def has_samewindow(self, other: Polynomial) -> bool:
        return bool(np.array_equal(np.asarray(self.window), np.asarray(other.window)))

    def has_sametype(self, other: Any) -> bool:
        return isinstance(other, type(self))

    # -- printing (reads the values back, as printing an array does) --------------------------
    def _host(self) -> Any:
        return np.polynomial.Polynomial(np.asarray(self.coef), np.asarray(self.domain),
                                        np.asarray(self.window), symbol=self.symbol)

    def __repr__(self) -> str:
        return repr(self._host()).replace("Polynomial(", f"{type(self).__name__}(", 1)

    def __str__(self) -> str:
        return str(self._host())

    def __format__(self, spec: str) -> str:
        return format(self._host(), spec)
