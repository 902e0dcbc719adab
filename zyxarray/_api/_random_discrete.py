"""The rest of ``numpy.random``'s integer distributions, as ``Generator`` methods (and
``RandomState``'s and the module's legacy functions), drawn inside the kernels as
``_random.py``'s are: a mixin that ``_random_distributions.Distributions`` extends.

Layer: ``_api``. Exact methods of bounded work on the Philox draws of ``_random_sampling``
(no data-dependent loops: a rejection sampler's attempts are an axis that a reduction walks,
``_first_accepted``, and returns the mode in the rare case that all of them fail):

- ``logseries``: a mixture of geometrics (Kemp, "Efficient generation of logarithmically
  distributed pseudo-random variables", 1981): with Q = 1 - (1 - p)**U, X | Q is geometric
  of P(X > k) = Q**k. Two uniforms, no rejection.
- ``zipf``: Devroye's rejection from floor(U**(-1/(a - 1))) (Non-Uniform Random Variate
  Generation, 1986, X.6), the proposal restricted to values below 2**63 (NumPy rejects the
  values beyond int64, so its variates follow the same truncated law). Each attempt is
  accepted with probability above 0.70 for every a > 1 (0.7023 as a -> 1, computed), so all
  ``ZIPF_ATTEMPTS`` fail with probability below 0.3**30 < 2.1e-16.
- ``hypergeometric``: reduced by symmetry to g = min(ngood, nbad) good items and s =
  min(nsample, N - nsample) draws (N = ngood + nbad), then, as ``binomial``: inversion by
  sequential search where the mean s g / N is below 30 (its steps bound the tail below
  1e-16 by Chernoff's bound, which holds for the hypergeometric as its moment generating
  function is below the binomial's, Hoeffding 1963), and from 30 Stadlober's ratio of
  uniforms ("The ratio of uniforms approach for generating discrete random variates",
  1990: a = mean + 1/2, h = 2 sqrt(2/e) sqrt(variance + 1/2) + 3 - 2 sqrt(3/e)); its hat
  was checked against the exact pmf on 1.2 million parameter sets (N up to 2e9), and each
  attempt is accepted with probability above 0.598 where the mean is 30 or more (the least,
  checked exhaustively for N < 400: g = s = 60, N = 120), so all
  ``HYPERGEOMETRIC_ATTEMPTS`` fail with probability below 0.41**40 < 3.2e-16. Its
  log-factorial differences are Stirling's with the large terms cancelled analytically
  (absolute error about 1e-11 at N = 1e9).
- ``multinomial`` and ``multivariate_hypergeometric``: a binary tree of conditional
  binomials (hypergeometrics) over the categories: a node's count splits between its two
  halves, one vectorized draw per level, so k categories cost ceil(log2 k) samplers.

The numbers differ from NumPy's, the distributions do not. Imports ``_random_sampling``
and ``_api`` functions, never ``_random_distributions`` (which imports this module).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _dtypes as dt
from . import _elementwise_functions as ew
from ._array_object import Array
from ._creation_functions import _shape, asarray, zeros
from ._data_type_functions import astype
from ._manipulation_functions import broadcast_to, concat, moveaxis, reshape, stack
from ._random_sampling import (
    _INVERSION_MAX,
    _binomial,
    _check,
    _count_inversion,
    _Draw,
    _first_accepted,
    _fixed_constants,
    _float64_on,
    _host,
    _operand,
    _out_shape,
    _shape_of,
    _stirling_tail,
)
from ._searching_functions import where
from ._statistical_functions import sum as reduce_sum

#: independent attempts of the Zipf sampler (each accepted with probability > 0.70)
ZIPF_ATTEMPTS = 30
#: independent attempts of the hypergeometric ratio of uniforms (each > 0.598)
HYPERGEOMETRIC_ATTEMPTS = 40
#: the largest float64 below 2**63: counts are clipped to it before the cast to int64
_INT64_TOP = float(2**63 - 1024)
_LOG_2_63 = 63 * math.log(2.0)
#: Stadlober's constants of the ratio-of-uniforms hat
_D1 = 2.0 * math.sqrt(2.0 / math.e)
_D2 = 3.0 - 2.0 * math.sqrt(3.0 / math.e)
#: NumPy's Generator bound on ngood and nbad (the legacy RandomState has none)
_HYPERGEOMETRIC_MAX = 1e9


def _chernoff_steps(mean: float) -> int:
    """The smallest K > mean with exp(-mean) (e mean / K)**K < 1e-16: Chernoff's bound on
    P(X >= K) for a sum of draws without replacement of that mean (Hoeffding 1963: its
    moment generating function is below the binomial's, itself below the Poisson's)."""
    k = int(mean) + 1
    while -mean + k * (1.0 + math.log(mean / k)) > math.log(1e-16):
        k += 1
    return k


#: (largest mean, inversion steps) of the hypergeometric inversion
_HYPER_STEPS = tuple((m, _chernoff_steps(m)) for m in (1.0, 4.0, 10.0, _INVERSION_MAX))


def _setup64(gen: Any, name: str, size: Any, device: Any, *params: Any
             ) -> tuple[_Draw, list[Array], tuple[int, ...]]:
    """The draw and float64 parameters of an integer distribution (computed in float64:
    its variates reach 2**63)."""
    dev = gen._device_for(name, device, *params)
    shape = _out_shape(name, size, *params)
    work = _float64_on(name, dev)
    return gen._draw(shape, dev), [_operand(p, shape, work, dev) for p in params], shape


def _check_together(name: str, values: list[Any], bad: Callable[..., Any],
                    message: str) -> None:
    """NumPy's check of a relation between parameters given as host data (broadcast)."""
    hosts = [_host(v) for v in values]
    if all(h is not None and h.size for h in hosts) and np.any(bad(*hosts)):
        raise ValueError(f"{name}: {message}")


@_fixed_constants
def _counts(x: Array, ok: Array) -> Array:
    """Float counts as int64, -1 where the parameters are invalid (device arrays)."""
    return astype(where(ok, ew.minimum(x, _INT64_TOP), -1.0), dt.int64)


# -- zipf and logseries -----------------------------------------------------------------------
def _zipf_attempt(draw: _Draw, s: Array, mass: Array, accept_scale: Array
                  ) -> tuple[Array, Array]:
    """One attempt of Devroye's Zipf rejection: (accepted, X). X = floor(U**(-1/s)), s =
    a - 1, with U uniform on (2**(-63 s), 1] (``mass`` = 1 - 2**(-63 s)), computed as
    exp(-log1p(-mass v) / s) so that s near 0 keeps its resolution; accepted when
    V X (T - 1) / (b - 1) <= T / b, T = (1 + 1/X)**s, b = 2**s, written as V X (1 - 1/T)
    <= 1 - 1/b (``accept_scale``), which does not overflow for large a."""
    work = dt.float64
    y = -ew.log1p(-mass * draw.unit(0, 0, work)) / s
    x = ew.minimum(ew.floor(ew.exp(y)), _INT64_TOP)
    shrink = -ew.expm1(-s * ew.log1p(1.0 / x))
    return draw.unit(0, 1, work) * x * shrink <= accept_scale, x


@_fixed_constants
def _zipf(draw: _Draw, a: Array) -> Array:
    s = a - 1.0
    mass = -ew.expm1(-s * _LOG_2_63)
    accept_scale = -ew.expm1(-s * math.log(2.0))
    found, x = _first_accepted(draw, [s, mass, accept_scale], ZIPF_ATTEMPTS, _zipf_attempt)
    return where(found, x, 1.0)


@_fixed_constants
def _logseries(draw: _Draw, p: Array) -> Array:
    """Kemp's mixture: X = floor(1 + log V / log Q), Q = 1 - (1 - p)**U. log Q is
    log1p(-(1 - p)**U) where Q is above 1/2 and log(-expm1(U log(1 - p))) below, exact to
    rounding either way."""
    work = dt.float64
    r = ew.log1p(-p) * draw.unit(0, 0, work)        # log(1 - Q) <= 0
    log_q = where(r < -math.log(2.0), ew.log1p(-ew.exp(r)), ew.log(-ew.expm1(r)))
    v = draw.unit(0, 1, work, open_low=True)
    return ew.floor(ew.log(v) / log_q + 1.0)       # (Q = 0: log V / -inf = 0, X = 1)


# -- hypergeometric ---------------------------------------------------------------------------
def _curved(x: Array, y: Array) -> Array:
    """lgamma(x + 1) - lgamma(y + 1) - (x - y) (log(y + 1) - 1) - tail(x) + tail(y) for
    integer-valued x, y >= 0 (tail: ``_stirling_tail``): Stirling's form without its term
    linear in x - y, which callers cancel exactly, and without the tails."""
    return (x + 0.5) * ew.log1p((x - y) / (y + 1.0))


def _hyper_log_f0(g: Array, b: Array, s: Array) -> Array:
    """log P(X = 0) = log(C(b, s) / C(g + b, s)) (s <= b): lgamma terms paired so that the
    linear ones cancel into g log1p(-(g + s) / (N + 1))."""
    n = g + b
    tails = _stirling_tail(b) - _stirling_tail(n) + _stirling_tail(n - s) - \
        _stirling_tail(b - s)
    return _curved(b, n) + _curved(n - s, b - s) + g * ew.log1p(-(g + s) / (n + 1.0)) + tails


def _hyper_inversion(draw: _Draw, g: Array, b: Array, s: Array, steps: int) -> Array:
    """Sequential search from 0 (g, s <= N / 2): p(j) = p(j - 1) (g - j + 1) (s - j + 1) /
    (j (b - s + j)), which reaches 0 past min(g, s) and stays there."""
    first = ew.exp(_hyper_log_f0(g, b, s))
    count = _count_inversion(
        draw.unit(0, 0, dt.float64), first,
        lambda j: (g - float(j - 1)) * (s - float(j - 1)) / ((b - s + float(j)) * float(j)),
        steps)
    return ew.minimum(count, ew.minimum(g, s))


def _hyper_rou_attempt(draw: _Draw, g: Array, s: Array, rest: Array, a: Array, h: Array,
                       m: Array, mode_tails: Array) -> tuple[Array, Array]:
    """One ratio-of-uniforms attempt: (accepted, k). k = floor(a + h (V - 1/2) / U),
    accepted when U**2 <= f(k) / f(m), f the pmf (rest = b - s): log(f(k) / f(m)) is four
    lgamma differences, whose terms linear in m - k cancel into (m - k) log((k + 1) (rest +
    k + 1) / ((g - k + 1) (s - k + 1))), and whose Stirling tails of m (``mode_tails``) are
    the same for every attempt."""
    work = dt.float64
    u = draw.unit(0, 0, work, open_low=True)
    k = ew.floor(a + h * (draw.unit(0, 1, work) - 0.5) / u)
    top = ew.minimum(g, s)
    kk = ew.clip(k, 0.0, top)
    gk, sk, rk = g - kk, s - kk, rest + kk
    log_ratio = _curved(m, kk) + _curved(g - m, gk) + _curved(s - m, sk) + \
        _curved(rest + m, rk) + (m - kk) * ew.log((kk + 1.0) * (rk + 1.0) /
                                                  ((gk + 1.0) * (sk + 1.0))) + \
        mode_tails - _stirling_tail(kk) - _stirling_tail(gk) - _stirling_tail(sk) - \
        _stirling_tail(rk)
    return (k >= 0.0) & (k <= top) & (ew.log(u) * 2.0 <= log_ratio), k


def _hyper_rou(draw: _Draw, g: Array, b: Array, s: Array) -> Array:
    n = g + b
    rest = b - s
    mean = s * g / n
    var = mean * (b / n) * ((n - s) / (n - 1.0))
    m = ew.floor((s + 1.0) * (g + 1.0) / (n + 2.0))
    h = ew.sqrt(var + 0.5) * _D1 + _D2
    mode_tails = _stirling_tail(m) + _stirling_tail(g - m) + _stirling_tail(s - m) + \
        _stirling_tail(rest + m)
    found, k = _first_accepted(draw, [g, s, rest, mean + 0.5, h, m, mode_tails],
                               HYPERGEOMETRIC_ATTEMPTS, _hyper_rou_attempt)
    return where(found, k, m)


@_fixed_constants
def _hypergeometric(draw: _Draw, good: Array, bad: Array, sample: Array,
                    largest: float | None, smallest: float | None = None) -> Array:
    """Hypergeometric variates (float64) of integer-valued good, bad >= 0 and 0 <= sample
    <= good + bad; ``largest`` and ``smallest`` bound the reduced mean when the host knows
    them (None: unknown), so that a branch no element needs is not built (2^22 variates
    of (600, 400, 300) on an H100: 18.5 ms with the unused inversion's 300-odd steps)."""
    n = good + bad
    swap_good = good > bad
    g = where(swap_good, bad, good)
    swap_sample = sample * 2.0 > n
    s = where(swap_sample, n - sample, sample)
    b = n - g
    mean = s * g / ew.maximum(n, 1.0)
    if smallest is not None and smallest >= _INVERSION_MAX:
        y = _hyper_rou(draw, g, b, s)
        z = where(swap_good, s - y, y)
        return where(swap_sample, good - z, z)
    steps = next((k for m, k in _HYPER_STEPS if largest is not None and largest <= m),
                 _HYPER_STEPS[-1][1])
    inversion = _hyper_inversion(draw, g, b, s, steps)
    if largest is None or largest >= _INVERSION_MAX:
        # (elements of the inversion get harmless parameters: g = b = s = 60, mean 30)
        big = mean >= _INVERSION_MAX
        y = where(big, _hyper_rou(draw, where(big, g, 60.0), where(big, b, 60.0),
                                  where(big, s, 60.0)), inversion)
    else:
        y = inversion
    z = where(swap_good, s - y, y)          # good items among the s drawn
    return where(swap_sample, good - z, z)


def _reduced_mean_bounds(good: Any, bad: Any, sample: Any
                         ) -> tuple[float | None, float | None]:
    """The smallest and largest reduced means min(s, N - s) min(g, N - g) / N of host
    parameters ((None, None) for device ones)."""
    hosts = [_host(v) for v in (good, bad, sample)]
    if any(h is None or h.size == 0 for h in hosts):
        return None, None
    g, b, s = np.broadcast_arrays(*(np.trunc(h) for h in hosts))
    n = g + b
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.minimum(s, n - s) * np.minimum(g, b) / np.maximum(n, 1.0)
    return float(np.min(mean)), float(np.max(mean))


# -- a binary tree of conditional splits --------------------------------------------------------
Split = Callable[[_Draw, Array, Array, Array], Array]


@_fixed_constants
def _tree_counts(gen: Any, total: Array, weights: Array, split: Split, categories: int
                 ) -> Array:
    """Counts of the ``categories`` first weights (the last axis; the rest, if any, are
    zeros) adding up to ``total`` (shape ``batch``, ``weights`` of shape broadcasting to
    ``batch + (k,)``): the categories are the leaves of
    a binary tree, and a node's count splits between its halves as ``split(draw, count,
    left weight, right weight)`` draws, one level at a time.

    The tree's nodes are the first axis, the batch the last ones: a level's kernels then
    run along the batch (a multinomial of 2,000 x 6 computed its third level's 2,000 x 4
    samplers four points to a loop, 3.6 of its 4.9 ms). Its numbers are literals, so the
    whole tree stays within ``MAX_KEYED_LEAVES`` and each level's sampler is remade from
    its template (its thirteen float zeros, each a leaf of its own, made every call build
    and walk its 4,500 nodes). The counts come in that layout, shape ``(k,) + batch``: the
    caller's last elementwise step reads them so, and ``moveaxis`` its result."""
    k = categories
    depth = (k - 1).bit_length()
    width = 1 << depth
    if width > weights.shape[-1]:        # (device weights; host ones come padded)
        pad = zeros(weights.shape[:-1] + (width - weights.shape[-1],), dtype=weights.dtype,
                    device=weights.device)
        weights = concat([weights, pad], axis=-1)
    batch = total.shape
    node_first = moveaxis(weights, -1, 0)
    node_first = reshape(node_first, (width,) + (1,) * (len(batch) - node_first.ndim + 1) +
                         node_first.shape[1:])
    levels = [node_first]               # node weights, from the leaves up: each pair's sum
    for _ in range(depth):
        pairs = reshape(levels[-1], (-1, 2) + levels[-1].shape[1:])
        levels.append(pairs[:, 0] + pairs[:, 1])
    counts = reshape(total, (1,) + batch)
    for level in range(depth):
        below = levels[depth - level - 1]
        pairs = reshape(below, (-1, 2) + below.shape[1:])
        left = broadcast_to(pairs[:, 0], counts.shape)
        right = broadcast_to(pairs[:, 1], counts.shape)
        first = split(gen._draw(counts.shape, total.device), counts, left, right)
        counts = reshape(stack([first, counts - first], axis=1), (2 << level,) + batch)
    return counts[:k]


@_fixed_constants
def _or_zero(ok: Array, x: Array) -> Array:
    return where(ok, x, 0.0)


@_fixed_constants
def _nonnegative(x: Array) -> Array:
    return x >= 0.0


def _categories(given: Any, weights: Array) -> int:
    """How many categories the caller gave (``_tree_weights`` may have padded them)."""
    return weights.shape[-1] if isinstance(given, Array) else np.shape(given)[-1]


def _tree_weights(host: np.ndarray, device: Any) -> Array:
    """Host weights for ``_tree_counts``, their last axis padded with zeros to a power of
    two here rather than by a ``concat`` there (whose masked reads keep the samplers'
    loops from vectorizing)."""
    k = host.shape[-1]
    width = 1 << (k - 1).bit_length() if k else 0
    if width > k:
        host = np.concatenate([host, np.zeros(host.shape[:-1] + (width - k,))], axis=-1)
    return asarray(host, device=device)


def _probabilities(name: str, pvals: Any, device: Any) -> Array:
    """``multinomial``'s pvals as float64 on ``device``, checked as NumPy does when host
    data, the last replaced by 1 - sum(others) (NumPy ignores its value)."""
    host = _host(pvals)
    if host is not None:
        if host.ndim == 0 or host.shape[-1] == 0:
            raise ValueError(f"{name}: pvals must have at least 1 dimension and the last "
                             "dimension of pvals must be greater than 0.")
        if np.any(~((host >= 0) & (host <= 1))):
            raise ValueError(f"{name}: pvals < 0, pvals > 1 or pvals contains NaNs")
        rest = host[..., :-1].sum(axis=-1)
        if np.any(rest > 1.0 + 1e-12):
            raise ValueError(f"{name}: sum(pvals[:-1]) > 1.0")
        host = host.astype(np.float64)      # (a copy: the caller's list or array is kept)
        host[..., -1] = np.maximum(1.0 - rest, 0.0)
        return _tree_weights(host, device)
    if pvals.ndim == 0 or pvals.shape[-1] == 0:
        raise ValueError(f"{name}: pvals must have at least 1 dimension and the last "
                         "dimension of pvals must be greater than 0.")
    return _last_is_the_rest(astype(pvals, dt.float64))


@_fixed_constants
def _last_is_the_rest(p: Array) -> Array:
    rest = reduce_sum(p[..., :-1], axis=-1, keepdims=True)
    return concat([p[..., :-1], ew.maximum(1.0 - rest, 0.0)], axis=-1)


def _binomial_split(largest: float | None) -> Split:
    def split(draw: _Draw, count: Array, left: Array, right: Array) -> Array:
        total = left + right
        q = where(total > 0.0, left / where(total > 0.0, total, 1.0), 0.0)
        return _binomial(draw, count, ew.minimum(q, 1.0), None, largest)
    return split


def _hypergeometric_split(largest: float | None) -> Split:
    def split(draw: _Draw, count: Array, left: Array, right: Array) -> Array:
        return _hypergeometric(draw, left, right, count, largest)
    return split


class DiscreteDistributions:
    """The methods ``Generator`` gets from this module (a mixin)."""

    _device_for: Any
    _draw: Any

    def zipf(self, a: Any, size: Any = None, *, device: Any = None) -> Array:
        """Zipf int64 variates of exponent ``a`` > 1: P(k) proportional to k**-a, k >= 1
        (below 2**63, as NumPy's), by Devroye's rejection with 30 attempts."""
        _check("zipf", a, lambda v: ~(v > 1), "a <= 1 or a is NaN")
        draw, (e,), _ = _setup64(self, "zipf", size, device, a)
        ok = e > 1.0
        return _counts(_zipf(draw, where(ok, e, 2.0)), ok)

    def logseries(self, p: Any, size: Any = None, *, device: Any = None) -> Array:
        """Logarithmic series int64 variates of ``p`` in [0, 1): P(k) = -p**k / (k log(1 -
        p)), k >= 1 (Kemp's mixture of geometrics, exact)."""
        _check("logseries", p, lambda v: ~((v >= 0) & (v < 1)), "p < 0, p >= 1 or p is NaN")
        draw, (q,), _ = _setup64(self, "logseries", size, device, p)
        ok = (q >= 0.0) & (q < 1.0)
        return _counts(_logseries(draw, where(ok, q, 0.5)), ok)

    def hypergeometric(self, ngood: Any, nbad: Any, nsample: Any, size: Any = None, *,
                       device: Any = None) -> Array:
        """Hypergeometric int64 variates: good items among ``nsample`` drawn without
        replacement from ``ngood`` good and ``nbad`` bad ones (inversion for reduced means
        below 30, a ratio of uniforms with 40 attempts from 30)."""
        for value in (ngood, nbad):
            _check("hypergeometric", value, lambda v: v >= _HYPERGEOMETRIC_MAX,
                   "both ngood and nbad must be less than 1000000000")
        return self._hypergeometric("hypergeometric", ngood, nbad, nsample, size, device, 0)

    def _hypergeometric(self, name: str, ngood: Any, nbad: Any, nsample: Any, size: Any,
                        device: Any, least: int) -> Array:
        _check(name, ngood, lambda v: np.trunc(v) < 0, "ngood < 0")
        _check(name, nbad, lambda v: np.trunc(v) < 0, "nbad < 0")
        _check(name, nsample, lambda v: ~(np.trunc(v) >= least),
               "nsample < 0" if least == 0 else "nsample < 1 or nsample is NaN")
        _check_together(name, [ngood, nbad, nsample],
                        lambda g, b, s: np.trunc(g) + np.trunc(b) < np.trunc(s),
                        "ngood + nbad < nsample")
        draw, params, _ = _setup64(self, name, size, device, ngood, nbad, nsample)
        good, bad, sample = (ew.trunc(v) for v in params)
        ok = (good >= 0.0) & (bad >= 0.0) & (sample >= float(least)) & \
            (sample <= good + bad)
        smallest, largest = _reduced_mean_bounds(ngood, nbad, nsample)
        x = _hypergeometric(draw, where(ok, good, 0.0), where(ok, bad, 0.0),
                            where(ok, sample, 0.0), largest, smallest)
        return _counts(x, ok)

    def _legacy_hypergeometric(self, ngood: Any, nbad: Any, nsample: Any,
                               size: Any = None) -> Array:
        """RandomState's: nsample >= 1, and no bound on ngood and nbad."""
        return self._hypergeometric("hypergeometric", ngood, nbad, nsample, size, None, 1)

    def multinomial(self, n: Any, pvals: Any, size: Any = None, *,
                    device: Any = None) -> Array:
        """Multinomial int64 counts of ``n`` trials over the categories of ``pvals`` (its
        last axis; the last probability is taken as 1 - sum(others), as NumPy does):
        shape ``size + (k,)``, or the broadcast shape of n and pvals' other axes + (k,).
        Conditional binomials over a binary tree of the categories."""
        _check("multinomial", n, lambda v: ~(np.trunc(v) >= 0), "n < 0")
        dev = self._device_for("multinomial", device, n, pvals)
        p = _probabilities("multinomial", pvals, dev)
        batch = _out_shape("multinomial", size, n, np.broadcast_to(0.0, p.shape[:-1]))
        trials = ew.trunc(_operand(n, batch, _float64_on("multinomial", dev), dev))
        host_n = _host(n)
        largest = float(np.max(np.trunc(host_n))) / 2 if host_n is not None and \
            host_n.size else None
        ok = _nonnegative(trials)
        if _host(pvals) is None:            # (device pvals: not checked; -1 where invalid)
            bad = reduce_sum(astype(~((p >= 0.0) & (p <= 1.0)), dt.float64), axis=-1)
            ok = ok & (broadcast_to(bad, batch) == 0.0)
        counts = _tree_counts(self, _or_zero(ok, trials), p, _binomial_split(largest),
                              _categories(pvals, p))
        return moveaxis(_counts(counts, reshape(ok, (1,) + batch)), 0, -1)

    def _legacy_multinomial(self, n: Any, pvals: Any, size: Any = None) -> Array:
        """RandomState's: ``n`` an integer and ``pvals`` 1-D."""
        if isinstance(n, Array) or np.ndim(n) != 0:
            raise TypeError("multinomial: an integer is required")
        if len(_shape_of(pvals)) != 1:
            raise ValueError("multinomial: pvals must be a 1-D sequence")
        return self.multinomial(n, pvals, size)

    def multivariate_hypergeometric(self, colors: Any, nsample: Any, size: Any = None,
                                    method: str = "marginals", *,
                                    device: Any = None) -> Array:
        """Counts of each color among ``nsample`` items drawn without replacement from
        ``colors[i]`` items of color i: shape ``size + (k,)``, int64. Conditional
        hypergeometrics over a binary tree of the colors, whatever ``method`` ('marginals'
        or 'count', NumPy's algorithms, which give the same distribution)."""
        # Note: the counts are computed in float64, so sum(colors) must be below 2**53
        # (NumPy's 'count' method takes sums up to 2**63 - 1).
        name = "multivariate_hypergeometric"
        if method not in ("count", "marginals"):
            raise ValueError(f'{name}: method must be "count" or "marginals".')
        host = None if isinstance(colors, Array) else np.asarray(colors)
        if host is not None:
            if host.ndim != 1 or (host.size and (host.dtype.kind not in "iu" or
                                                 np.any(host < 0))):
                raise ValueError(f"{name}: colors must be a one-dimensional sequence of "
                                 "nonnegative integers not exceeding 9223372036854775807.")
            total = int(np.sum(host.astype(object)))
            if method == "marginals" and total >= 10**9:
                raise ValueError(f'{name}: When method is "marginals", sum(colors) must be '
                                 "less than 1000000000.")
            if total >= 2**53:
                raise ValueError(f"{name}: sum(colors) must be below 2**53")
        if isinstance(nsample, Array) or not isinstance(nsample, (int, np.integer)):
            raise ValueError(f"{name}: nsample must be an integer")
        if nsample < 0:
            raise ValueError(f"{name}: nsample must be nonnegative.")
        if host is not None and nsample > total:
            raise ValueError(f"{name}: nsample > sum(colors)")
        dev = self._device_for(name, device, colors)
        batch = () if size is None else _shape(name, size)
        weights = astype(colors, dt.float64) if host is None else \
            _tree_weights(host.astype(np.float64), dev)
        _float64_on(name, dev)
        if weights.shape[-1] == 0:
            return zeros(batch + (0,), dtype=dt.int64, device=dev)
        total_ = _operand(int(nsample), batch, dt.float64, dev)
        counts = _tree_counts(self, total_, weights, _hypergeometric_split(nsample / 2),
                              _categories(colors, weights))
        return moveaxis(astype(counts, dt.int64), 0, -1)


#: the legacy names (RandomState and the module functions) with their parameters
DISCRETE_LEGACY = {
    "zipf": ("a",), "logseries": ("p",), "hypergeometric": ("ngood", "nbad", "nsample"),
    "multinomial": ("n", "pvals"),
}
