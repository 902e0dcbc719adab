"""More of ``numpy.random``'s distributions, as ``Generator`` methods (and ``RandomState``'s
and the module's legacy functions): drawn on the device inside the kernels, as
``_random.py``'s are.

Layer: ``_api``. Each is an exact transform of the Philox draws of ``_random_sampling``:

- by inversion of one uniform: ``laplace``, ``logistic``, ``gumbel``, ``weibull``,
  ``pareto``, ``power``, ``rayleigh``, ``standard_cauchy`` (tan of a uniform angle),
  ``triangular``, ``geometric`` (int64);
- from a normal: ``lognormal``;
- gammas by Marsaglia and Tsang's method ("A simple method for generating gamma variables",
  2000): a normal and a uniform per attempt, accepted with probability above 0.95 for shape
  >= 1, with ``GAMMA_ATTEMPTS`` independent attempts laid along an axis that a reduction
  walks (``_first_accepted``: all fail with probability below 1e-20; the mean is returned
  then); a shape below 1 draws shape + 1 and scales by u ** (1 / shape). From them:
  ``standard_gamma``, ``gamma``, ``chisquare``, ``beta``, ``standard_t``, ``f``,
  ``negative_binomial`` (a Poisson of a gamma) and ``dirichlet``.

The numbers differ from NumPy's (another generator and other methods), the distributions
do not. Parameters broadcast as NumPy's do; invalid ones raise NumPy's ValueError where
they are host values, and give NaN where they are device arrays.
"""

from __future__ import annotations

import math
from typing import Any

from . import _dtypes as dt
from . import _elementwise_functions as ew
from ._array_object import Array
from ._data_type_functions import astype
from ._random_sampling import (
    _check,
    _Draw,
    _first_accepted,
    _float64_on,
    _operand,
    _out_shape,
    _poisson,
    _standard_exponential,
    _standard_normal,
    _work_float,
)
from ._searching_functions import where
from ._statistical_functions import sum as reduce_sum

#: independent attempts of the gamma sampler (each accepted with probability > 0.95)
GAMMA_ATTEMPTS = 16


def _setup(gen: Any, name: str, size: Any, device: Any, *params: Any
           ) -> tuple[_Draw, dt.DType, list[Array], tuple[int, ...]]:
    dev = gen._device_for(name, device, *params)
    shape = _out_shape(name, size, *params)
    work = _work_float(dev)
    return gen._draw(shape, dev), work, [_operand(p, shape, work, dev) for p in params], shape


def _u(draw: _Draw, work: dt.DType) -> Array:
    """Uniform in (0, 1]: logs of it are finite."""
    return draw.unit(0, 0, work, open_low=True)


def _gamma_attempt(draw: _Draw, d: Array) -> tuple[Array, Array]:
    """One Marsaglia-Tsang attempt for shape d + 1/3 >= 1: (accepted, d v)."""
    work = dt.float64 if d.dtype == dt.float64 else d.dtype
    c = 1.0 / ew.sqrt(d * 9.0)
    x = _standard_normal(draw, work)
    t = x * c + 1.0
    v = t * t * t
    u = draw.unit(GAMMA_ATTEMPTS, 0, work, open_low=True)   # (blocks the normals do not use)
    safe = ew.maximum(v, 1e-300 if work == dt.float64 else 1e-30)
    ok = (v > 0.0) & (ew.log(u) < x * x * 0.5 + d - d * safe + d * ew.log(safe))
    return ok, d * safe


def _standard_gamma(draw: _Draw, shape_: Array, work: dt.DType) -> Array:
    """Gamma variates of scale 1 and shape ``shape_`` (> 0; 0 gives 0)."""
    boosted = where(shape_ < 1.0, shape_ + 1.0, shape_)
    d = boosted - 1.0 / 3.0
    found, value = _first_accepted(draw, [d], GAMMA_ATTEMPTS, _gamma_attempt)
    g = where(found, value, boosted)
    # shape < 1: Gamma(a) = Gamma(a + 1) U^(1/a) (U from a block no attempt reads)
    u = draw.unit(2 * GAMMA_ATTEMPTS, 0, work, open_low=True)
    small = g * ew.exp(ew.log(u) / ew.maximum(shape_, 1e-300 if work == dt.float64 else 1e-30))
    out = where(shape_ < 1.0, small, g)
    return where(shape_ == 0.0, 0.0, where(shape_ > 0.0, out, math.nan))


class Distributions:
    """The methods ``Generator`` gets from this module (a mixin)."""

    _device_for: Any
    _draw: Any

    # -- by inversion -----------------------------------------------------------------------
    def lognormal(self, mean: Any = 0.0, sigma: Any = 1.0, size: Any = None, *,
                  device: Any = None) -> Array:
        """exp of normal variates of mean ``mean`` and deviation ``sigma``."""
        _check("lognormal", sigma, lambda s: s < 0, "sigma < 0")
        draw, work, (m, s), _ = _setup(self, "lognormal", size, device, mean, sigma)
        return where(s < 0.0, math.nan, ew.exp(m + s * _standard_normal(draw, work)))

    def laplace(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *,
                device: Any = None) -> Array:
        """Double exponential variates around ``loc``."""
        _check("laplace", scale, lambda s: s < 0, "scale < 0")
        draw, work, (m, s), _ = _setup(self, "laplace", size, device, loc, scale)
        u = draw.unit(0, 0, work) - 0.5          # [-1/2, 1/2)
        e = -ew.log1p(ew.abs(u) * -2.0)          # (|u| < 1/2: finite)
        return where(s < 0.0, math.nan, m + s * where(u < 0.0, -e, e))

    def logistic(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *,
                 device: Any = None) -> Array:
        """Logistic variates: loc + scale log(u / (1 - u))."""
        _check("logistic", scale, lambda s: s < 0, "scale < 0")
        draw, work, (m, s), _ = _setup(self, "logistic", size, device, loc, scale)
        u = _u(draw, work)
        u = where(u == 1.0, 0.5, u)              # (u in (0, 1): the log stays finite)
        return where(s < 0.0, math.nan, m + s * (ew.log(u) - ew.log1p(-u)))

    def gumbel(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *,
               device: Any = None) -> Array:
        """Gumbel (extreme value) variates: loc - scale log(-log u)."""
        _check("gumbel", scale, lambda s: s < 0, "scale < 0")
        draw, work, (m, s), _ = _setup(self, "gumbel", size, device, loc, scale)
        u = draw.unit(0, 0, work)                # [0, 1): -log(1 - u) > 0 unless u = 0
        e = -ew.log1p(-u)
        e = where(e == 0.0, 1e-300 if work == dt.float64 else 1e-30, e)
        return where(s < 0.0, math.nan, m - s * ew.log(e))

    def weibull(self, a: Any, size: Any = None, *, device: Any = None) -> Array:
        """Weibull variates of shape ``a``: E ** (1 / a), E standard exponential."""
        _check("weibull", a, lambda v: v < 0, "a < 0")
        draw, work, (k,), _ = _setup(self, "weibull", size, device, a)
        e = _standard_exponential(draw, work)
        return where(k < 0.0, math.nan, where(k == 0.0, 0.0, ew.pow(e, 1.0 / k)))

    def pareto(self, a: Any, size: Any = None, *, device: Any = None) -> Array:
        """Pareto II (Lomax) variates of shape ``a``: exp(E / a) - 1."""
        _check("pareto", a, lambda v: v <= 0, "a <= 0")
        draw, work, (k,), _ = _setup(self, "pareto", size, device, a)
        return where(k <= 0.0, math.nan, ew.expm1(_standard_exponential(draw, work) / k))

    def power(self, a: Any, size: Any = None, *, device: Any = None) -> Array:
        """Power-function variates in [0, 1] of exponent ``a - 1``: u ** (1 / a)."""
        _check("power", a, lambda v: v <= 0, "a <= 0")
        draw, work, (k,), _ = _setup(self, "power", size, device, a)
        return where(k <= 0.0, math.nan, ew.pow(_u(draw, work), 1.0 / k))

    def rayleigh(self, scale: Any = 1.0, size: Any = None, *, device: Any = None) -> Array:
        """Rayleigh variates: scale sqrt(2 E)."""
        _check("rayleigh", scale, lambda s: s < 0, "scale < 0")
        draw, work, (s,), _ = _setup(self, "rayleigh", size, device, scale)
        return where(s < 0.0, math.nan,
                     s * ew.sqrt(_standard_exponential(draw, work) * 2.0))

    def standard_cauchy(self, size: Any = None, *, device: Any = None) -> Array:
        """Cauchy variates: tan(pi (u - 1/2))."""
        draw, work, _, _ = _setup(self, "standard_cauchy", size, device)
        u = _u(draw, work)
        return ew.tan((u - 0.5) * math.pi)

    def triangular(self, left: Any, mode: Any, right: Any, size: Any = None, *,
                   device: Any = None) -> Array:
        """Triangular variates on [left, right] peaking at ``mode``."""
        _check("triangular", [left, mode], lambda v: v[0] > v[1], "left > mode")
        _check("triangular", [mode, right], lambda v: v[0] > v[1], "mode > right")
        _check("triangular", [left, right], lambda v: v[0] == v[1], "left == right")
        draw, work, (lo, c, hi), _ = _setup(self, "triangular", size, device, left, mode,
                                            right)
        u = draw.unit(0, 0, work)
        span = hi - lo
        cut = (c - lo) / span
        below = lo + ew.sqrt(u * span * (c - lo))
        above = hi - ew.sqrt((1.0 - u) * span * (hi - c))
        return where(u <= cut, below, above)

    def geometric(self, p: Any, size: Any = None, *, device: Any = None) -> Array:
        """Geometric int64 variates (trials to the first success, from 1) of success
        probability ``p``: ceil(log(u) / log(1 - p))."""
        _check("geometric", p, lambda v: ~((v > 0) & (v <= 1)), "p <= 0, p > 1 or p is NaN")
        draw, work, (q,), _ = _setup(self, "geometric", size, device, p)
        work = _float64_on("geometric", draw.device)
        u = _u(draw, work)
        k = ew.ceil(ew.log(u) / ew.log1p(-q))
        k = where(q >= 1.0, 1.0, ew.maximum(k, 1.0))
        return astype(where((q > 0.0) & (q <= 1.0), k, -1.0), dt.int64)

    # -- gammas -----------------------------------------------------------------------------
    def standard_gamma(self, shape: Any, size: Any = None, dtype: Any = None, out: Any = None,
                       *, device: Any = None) -> Array:
        """Gamma variates of scale 1 and shape ``shape`` (Marsaglia-Tsang)."""
        _check("standard_gamma", shape, lambda v: v < 0, "shape < 0")
        draw, work, (k,), _ = _setup(self, "standard_gamma", size, device, shape)
        result = _standard_gamma(draw, k, work)
        if dtype is not None and dt.to_dtype(dtype, "standard_gamma") != result.dtype:
            result = astype(result, dt.to_dtype(dtype, "standard_gamma"))
        if out is not None:
            from ._numpy_args import write_out
            return write_out("standard_gamma", out, result)
        return result

    def gamma(self, shape: Any, scale: Any = 1.0, size: Any = None, *,
              device: Any = None) -> Array:
        """Gamma variates of ``shape`` and ``scale``."""
        _check("gamma", shape, lambda v: v < 0, "shape < 0")
        _check("gamma", scale, lambda v: v < 0, "scale < 0")
        draw, work, (k, s), _ = _setup(self, "gamma", size, device, shape, scale)
        return where(s < 0.0, math.nan, _standard_gamma(draw, k, work) * s)

    def chisquare(self, df: Any, size: Any = None, *, device: Any = None) -> Array:
        """Chi-square variates of ``df`` degrees of freedom: 2 Gamma(df / 2)."""
        _check("chisquare", df, lambda v: v <= 0, "df <= 0")
        draw, work, (n,), _ = _setup(self, "chisquare", size, device, df)
        return where(n <= 0.0, math.nan, _standard_gamma(draw, n * 0.5, work) * 2.0)

    def beta(self, a: Any, b: Any, size: Any = None, *, device: Any = None) -> Array:
        """Beta variates: X / (X + Y) of independent Gamma(a), Gamma(b)."""
        _check("beta", a, lambda v: v <= 0, "a <= 0")
        _check("beta", b, lambda v: v <= 0, "b <= 0")
        draw, work, (p, q), shape = _setup(self, "beta", size, device, a, b)
        x = _standard_gamma(draw, p, work)
        y = _standard_gamma(self._draw(shape, draw.device), q, work)
        return where((p > 0.0) & (q > 0.0), x / (x + y), math.nan)

    def standard_t(self, df: Any, size: Any = None, *, device: Any = None) -> Array:
        """Student's t variates: Z / sqrt(chi2(df) / df)."""
        _check("standard_t", df, lambda v: v <= 0, "df <= 0")
        draw, work, (n,), shape = _setup(self, "standard_t", size, device, df)
        z = _standard_normal(draw, work)
        chi = _standard_gamma(self._draw(shape, draw.device), n * 0.5, work) * 2.0
        return where(n <= 0.0, math.nan, z / ew.sqrt(chi / n))

    def f(self, dfnum: Any, dfden: Any, size: Any = None, *, device: Any = None) -> Array:
        """F variates: (chi2(dfnum) / dfnum) / (chi2(dfden) / dfden)."""
        _check("f", dfnum, lambda v: v <= 0, "dfnum <= 0")
        _check("f", dfden, lambda v: v <= 0, "dfden <= 0")
        draw, work, (m, n), shape = _setup(self, "f", size, device, dfnum, dfden)
        num = _standard_gamma(draw, m * 0.5, work) * 2.0 / m
        den = _standard_gamma(self._draw(shape, draw.device), n * 0.5, work) * 2.0 / n
        return where((m > 0.0) & (n > 0.0), num / den, math.nan)

    def negative_binomial(self, n: Any, p: Any, size: Any = None, *,
                          device: Any = None) -> Array:
        """Negative binomial int64 variates (failures before ``n`` successes of probability
        ``p``): a Poisson of a Gamma(n, (1 - p) / p)."""
        _check("negative_binomial", n, lambda v: v <= 0, "n <= 0")
        _check("negative_binomial", p, lambda v: ~((v > 0) & (v <= 1)),
               "p <= 0, p > 1 or p is NaN")
        draw, work, (k, q), shape = _setup(self, "negative_binomial", size, device, n, p)
        work = _float64_on("negative_binomial", draw.device)
        lam = _standard_gamma(draw, astype(k, work), work) * ((1.0 - q) / q)
        counts = _poisson(self._draw(shape, draw.device), ew.maximum(lam, 0.0), None, None)
        ok = (k > 0.0) & (q > 0.0) & (q <= 1.0)
        return astype(where(ok, where(q >= 1.0, 0.0, counts), -1.0), dt.int64)

    def dirichlet(self, alpha: Any, size: Any = None, *, device: Any = None) -> Array:
        """Dirichlet vectors of concentration ``alpha`` (k,): shape ``size + (k,)``, each
        normalized gammas."""
        _check("dirichlet", alpha, lambda v: v < 0, "alpha < 0")
        k = len(alpha) if not isinstance(alpha, Array) else alpha.shape[-1]
        full = (() if size is None else tuple(
            [size] if isinstance(size, int) else size)) + (k,)
        draw, work, (a,), _ = _setup(self, "dirichlet", full, device, alpha)
        gam = _standard_gamma(draw, a, work)
        total = reduce_sum(gam, axis=-1, keepdims=True)
        return gam / total


#: the legacy names (RandomState and the module functions) with their parameters
LEGACY = {
    "lognormal": ("mean", "sigma"), "laplace": ("loc", "scale"), "logistic": ("loc", "scale"),
    "gumbel": ("loc", "scale"), "weibull": ("a",), "pareto": ("a",), "power": ("a",),
    "rayleigh": ("scale",), "standard_cauchy": (), "triangular": ("left", "mode", "right"),
    "geometric": ("p",), "standard_gamma": ("shape",), "gamma": ("shape", "scale"),
    "chisquare": ("df",), "beta": ("a", "b"), "standard_t": ("df",), "f": ("dfnum", "dfden"),
    "negative_binomial": ("n", "p"), "dirichlet": ("alpha",),
}
