"""More of ``numpy.random``'s distributions, as ``Generator`` methods (and ``RandomState``'s
and the module's legacy functions): drawn on the device inside the kernels, as
``_random.py``'s are.

Layer: ``_api``. Each is an exact transform of the Philox draws of ``_random_sampling``:

- by inversion of one uniform: ``laplace``, ``logistic``, ``gumbel``, ``weibull``,
  ``pareto``, ``power``, ``rayleigh``, ``standard_cauchy`` (tan of a uniform angle),
  ``triangular``, ``geometric`` (int64);
- from a normal: ``lognormal``;
- ``wald`` by Michael, Schucany and Haas's transformation ("Generating random variates
  using transformations with multiple roots", 1976): a normal and a uniform, no rejection;
- ``vonmises`` by Best and Fisher's rejection from a wrapped Cauchy ("Efficient simulation
  of the von Mises distribution", 1979), its terms written without cancellation so that it
  is exact for every kappa (no uniform or normal approximation at the ends): each attempt
  accepted with probability above 0.657 (its infimum, approached as kappa grows), with
  ``VONMISES_ATTEMPTS`` attempts (all fail with probability below 1.5e-16; mu then);
- gammas by Marsaglia and Tsang's method ("A simple method for generating gamma variables",
  2000): a normal and a uniform per attempt, accepted with probability above 0.95 for shape
  >= 1, with ``GAMMA_ATTEMPTS`` independent attempts laid along an axis that a reduction
  walks (``_first_accepted``: all fail with probability below 1e-20; the mean is returned
  then); a shape below 1 draws shape + 1 and scales by u ** (1 / shape). From them:
  ``standard_gamma``, ``gamma``, ``chisquare``, ``beta``, ``standard_t``, ``f``,
  ``negative_binomial`` (a Poisson of a gamma) and ``dirichlet``;
- ``noncentral_chisquare``: (Z + sqrt(nonc))**2 + chi2(df - 1) for df > 1, a Poisson
  mixture chi2(df + 2 N), N ~ Poisson(nonc / 2), for df <= 1 (only the branches that the
  host-known df need are built); ``noncentral_f`` from it and a chi-square.

The integer distributions that remain (``zipf``, ``logseries``, ``hypergeometric``,
``multinomial``, ``multivariate_hypergeometric``) are in ``_random_discrete``, whose mixin
``Distributions`` extends.

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
from ._random_discrete import DISCRETE_LEGACY, DiscreteDistributions
from ._random_sampling import (
    _bounds,
    _check,
    _Draw,
    _first_accepted,
    _fixed_constants,
    _float64_on,
    _host,
    _operand,
    _out_shape,
    _poisson,
    _standard_exponential,
    _standard_normal,
    _templated,
    _work_float,
)
from ._searching_functions import where
from ._statistical_functions import sum as reduce_sum

#: independent attempts of the gamma sampler (each accepted with probability > 0.95)
GAMMA_ATTEMPTS = 16
#: independent attempts of the von Mises sampler: each is accepted with probability above
#: 0.6577 (the infimum over kappa, computed by integrating the acceptance over the angle),
#: so all 34 fail with probability below 0.3423**34 < 1.5e-16
VONMISES_ATTEMPTS = 34


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
    """Gamma variates of scale 1 and shape ``shape_`` (> 0; 0 gives 0): ``_gamma_built``,
    remade from a template after the first call of a structure."""
    return _templated(_gamma_built, draw, [shape_], (work,))[0]


@_fixed_constants
def _gamma_built(draw: _Draw, shape_: Array, work: dt.DType) -> Array:
    boosted = where(shape_ < 1.0, shape_ + 1.0, shape_)
    d = boosted - 1.0 / 3.0
    found, value = _first_accepted(draw, [d], GAMMA_ATTEMPTS, _gamma_attempt)
    g = where(found, value, boosted)
    # shape < 1: Gamma(a) = Gamma(a + 1) U^(1/a) (U from a block no attempt reads)
    u = draw.unit(2 * GAMMA_ATTEMPTS, 0, work, open_low=True)
    small = g * ew.exp(ew.log(u) / ew.maximum(shape_, 1e-300 if work == dt.float64 else 1e-30))
    out = where(shape_ < 1.0, small, g)
    return where(shape_ == 0.0, 0.0, where(shape_ > 0.0, out, math.nan))


def _vonmises_attempt(draw: _Draw, kappa: Array, rho: Array, gap: Array,
                      spread: Array) -> tuple[Array, Array]:
    """One Best-Fisher attempt: (accepted, t). The proposal is wrapped Cauchy of parameter
    rho, the angle 2 atan(t) of t = spread tan(pi (u - 1/2)), Cauchy (spread = (1 - rho) /
    (1 + rho)); it is accepted with probability c exp(1 - c), c = kappa (r - cos angle), r =
    (1 + rho**2) / (2 rho), here kappa ((1 - rho)**2 / (2 rho) + 2 sin(angle / 2)**2): a sum
    of positive terms, exact where kappa is huge (r - cos angle is tiny there and the
    textbook form cancels) or tiny (r huge). (The angle of the accepted t only is taken.)"""
    work = kappa.dtype
    t = spread * ew.tan((draw.unit(0, 0, work) - 0.5) * math.pi)
    t2 = t * t
    c = kappa * (gap * gap / (rho * 2.0) + t2 / (t2 + 1.0) * 2.0)
    v = draw.unit(0, 1, work, open_low=True)
    return v <= c * ew.exp(1.0 - c), t


@_fixed_constants
def _vonmises(draw: _Draw, kappa: Array, work: dt.DType) -> Array:
    """von Mises angles around 0 of concentration ``kappa`` (>= 0), in (-pi, pi). Kappa is
    clipped to [1e-30, 1e300] (1e30 in float32): the densities differ from the uniform, or
    from the point mass, by less than the precision of the result there."""
    k = ew.clip(kappa, 1e-30, 1e300 if work == dt.float64 else 1e30)
    s = ew.hypot(k * 2.0, 1.0)                  # sqrt(1 + 4 kappa**2)
    tau = s + 1.0
    w = ew.sqrt(tau * 2.0)
    rho = k * 2.0 / (tau + w)
    # 1 - rho = (tau + w - 2 kappa) / (tau + w), with s - 2 kappa = 1 / (s + 2 kappa)
    gap = (1.0 / (s + k * 2.0) + 1.0 + w) / (tau + w)
    found, t = _first_accepted(draw, [k, rho, gap, gap / (2.0 - gap)], VONMISES_ATTEMPTS,
                               _vonmises_attempt)
    return where(found, ew.atan(t) * 2.0, 0.0)


@_fixed_constants
def _noncentral_chisquare(gen: Any, draw: _Draw, df: Array, nonc: Array, work: dt.DType,
                          host_df: Any, host_nonc: Any) -> Array:
    """Noncentral chi-square variates (df > 0, nonc >= 0): (Z + sqrt(nonc))**2 +
    chi2(df - 1) where df > 1, chi2(df + 2 N) with N ~ Poisson(nonc / 2) where df <= 1; a
    branch no element needs (df known on the host) is not built."""
    shape, dev = draw.shape, draw.device
    lo, hi = _bounds(host_df)
    normal = mixture = None
    if hi is None or hi > 1.0:
        z = _standard_normal(draw, work) + ew.sqrt(nonc)
        rest = _standard_gamma(gen._draw(shape, dev), ew.maximum(df - 1.0, 0.0) * 0.5, work)
        normal = z * z + rest * 2.0
    if lo is None or lo <= 1.0:
        small, large = _bounds(host_nonc)
        lam = astype(nonc, _float64_on("noncentral_chisquare", dev)) * 0.5
        n = _poisson(gen._draw(shape, dev), ew.maximum(lam, 0.0),
                     None if small is None else small / 2,
                     None if large is None else large / 2)
        shape_ = df * 0.5 + astype(n, work)
        mixture = _standard_gamma(gen._draw(shape, dev), shape_, work) * 2.0
    if normal is None:
        assert mixture is not None
        return mixture
    if mixture is None:
        return normal
    return where(df > 1.0, normal, mixture)


class Distributions(DiscreteDistributions):
    """The methods ``Generator`` gets from this module and ``_random_discrete`` (a mixin)."""

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

    def wald(self, mean: Any, scale: Any, size: Any = None, *, device: Any = None) -> Array:
        """Wald (inverse Gaussian) variates of mean ``mean`` and shape ``scale`` (Michael,
        Schucany and Haas): with y = Z**2 and a = mean y / (2 scale), the smaller root x =
        mean / (1 + a + sqrt(a (a + 2))) (the textbook form cancels) with probability
        mean / (mean + x), the other root mean**2 / x otherwise."""
        _check("wald", mean, lambda v: v <= 0, "mean <= 0")
        _check("wald", scale, lambda v: v <= 0, "scale <= 0")
        draw, work, (mu, lam), _ = _setup(self, "wald", size, device, mean, scale)
        z = _standard_normal(draw, work)                    # (block 0)
        a = mu * (z * z) / (lam * 2.0)
        root = 1.0 + a + ew.sqrt(a * (a + 2.0))
        small = mu / root
        u = draw.unit(1, 0, work)
        out = where(u * (mu + small) < mu, small, mu * root)
        return where((mu > 0.0) & (lam > 0.0), out, math.nan)

    def vonmises(self, mu: Any, kappa: Any, size: Any = None, *,
                 device: Any = None) -> Array:
        """von Mises angles in [-pi, pi) of mode ``mu`` and concentration ``kappa`` (Best
        and Fisher's rejection, exact for every kappa; see the module's docstring)."""
        _check("vonmises", kappa, lambda v: v < 0, "kappa < 0")
        draw, work, (m, k), _ = _setup(self, "vonmises", size, device, mu, kappa)
        angle = m + _vonmises(draw, k, work)
        wrapped = ew.remainder(angle + math.pi, 2.0 * math.pi) - math.pi
        return where(k >= 0.0, wrapped, math.nan)

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

    def noncentral_chisquare(self, df: Any, nonc: Any, size: Any = None, *,
                             device: Any = None) -> Array:
        """Noncentral chi-square variates of ``df`` degrees of freedom and noncentrality
        ``nonc`` (a normal plus a chi-square for df > 1, a Poisson mixture of chi-squares
        otherwise)."""
        _check("noncentral_chisquare", df, lambda v: v <= 0, "df <= 0")
        _check("noncentral_chisquare", nonc, lambda v: v < 0, "nonc < 0")
        draw, work, (k, lam), _ = _setup(self, "noncentral_chisquare", size, device, df,
                                         nonc)
        value = _noncentral_chisquare(self, draw, k, lam, work, _host(df), _host(nonc))
        return where((k > 0.0) & (lam >= 0.0), value, math.nan)

    def noncentral_f(self, dfnum: Any, dfden: Any, nonc: Any, size: Any = None, *,
                     device: Any = None) -> Array:
        """Noncentral F variates: (chi2(dfnum, nonc) / dfnum) / (chi2(dfden) / dfden)."""
        _check("noncentral_f", dfnum, lambda v: v <= 0, "dfnum <= 0")
        _check("noncentral_f", dfden, lambda v: v <= 0, "dfden <= 0")
        _check("noncentral_f", nonc, lambda v: v < 0, "nonc < 0")
        draw, work, (m, n, lam), shape = _setup(self, "noncentral_f", size, device, dfnum,
                                                dfden, nonc)
        num = _noncentral_chisquare(self, draw, m, lam, work, _host(dfnum), _host(nonc))
        den = _standard_gamma(self._draw(shape, draw.device), n * 0.5, work) * 2.0
        ok = (m > 0.0) & (n > 0.0) & (lam >= 0.0)
        return where(ok, (num * n) / (den * m), math.nan)

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
    "wald": ("mean", "scale"), "vonmises": ("mu", "kappa"),
    "noncentral_chisquare": ("df", "nonc"), "noncentral_f": ("dfnum", "dfden", "nonc"),
    **DISCRETE_LEGACY,
    "lognormal": ("mean", "sigma"), "laplace": ("loc", "scale"), "logistic": ("loc", "scale"),
    "gumbel": ("loc", "scale"), "weibull": ("a",), "pareto": ("a",), "power": ("a",),
    "rayleigh": ("scale",), "standard_cauchy": (), "triangular": ("left", "mode", "right"),
    "geometric": ("p",), "standard_gamma": ("shape",), "gamma": ("shape", "scale"),
    "chisquare": ("df",), "beta": ("a", "b"), "standard_t": ("df",), "f": ("dfnum", "dfden"),
    "negative_binomial": ("n", "p"), "dirichlet": ("alpha",),
}
