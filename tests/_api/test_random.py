"""zyxarray.random: Philox4x32-10 against its known answers, every distribution's moments and
a goodness-of-fit test (Kolmogorov-Smirnov for continuous ones, chi-square for discrete ones)
on fixed seeds, the same stream on every device, fusion into consumers, shapes, dtypes and
``size`` forms, the legacy RandomState and module functions, and NumPy's errors.

The seeds are fixed, so every statistical test is deterministic; its thresholds (p > 1e-4,
moments within 6 standard errors) are those a random seed would pass with near certainty.
Each test compares the device's numbers with the reference device's: they must be equal.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from scipy import stats

import zyxarray as xp
from tests.helpers import REFERENCE
from zyxarray._api import _random_sampling
from zyxarray._codegen.ir import Op
from zyxarray._devices import registry

N = 20_000
P_MIN = 1e-4


# -- helpers ----------------------------------------------------------------------------------
def _same_on_reference(device: str, draw: Callable[[str], Any], exact: bool = True) -> np.ndarray:
    """``draw(device)`` as a host array, after checking that the reference device draws the
    same numbers from the same seed (floats through log/cos may differ in the last bits)."""
    got = np.asarray(draw(device))
    if device != REFERENCE:
        ref = np.asarray(draw(REFERENCE))
        assert got.dtype == ref.dtype and got.shape == ref.shape
        if exact:
            np.testing.assert_array_equal(got, ref, err_msg=f"{device} vs reference")
        else:
            np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12,
                                       err_msg=f"{device} vs reference")
    return got


def _moments(x: np.ndarray, mean: float, var: float, excess_kurtosis: float) -> None:
    """Sample mean and variance within 6 standard errors of ``mean`` and ``var``."""
    n = x.size
    assert abs(x.mean() - mean) < 6 * math.sqrt(var / n), (x.mean(), mean)
    se_var = var * math.sqrt((excess_kurtosis + 2) / n)
    assert abs(x.var() - var) < 6 * se_var + 1e-12, (x.var(), var)


def _ks(x: np.ndarray, cdf: Callable[[np.ndarray], np.ndarray]) -> None:
    """Kolmogorov-Smirnov test of ``x`` against ``cdf``: of cdf(x) against the uniform
    distribution (the same statistic; the CDFs are computed here, in NumPy, so the test
    does not depend on SciPy's array API dispatch of its special functions)."""
    p = stats.kstest(cdf(x.ravel().astype(np.float64)), "uniform").pvalue
    assert p > P_MIN, f"Kolmogorov-Smirnov p = {p}"


_erfc = np.frompyfunc(math.erfc, 1, 1)


def _uniform_cdf(low: float = 0.0, width: float = 1.0) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: (x - low) / width


def _normal_cdf(mean: float = 0.0, sd: float = 1.0) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: 0.5 * _erfc(-(x - mean) / (sd * math.sqrt(2))).astype(np.float64)


def _exponential_cdf(scale: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: -np.expm1(-x / scale)


def _poisson_pmf(k: np.ndarray, m: float) -> np.ndarray:
    return np.array([math.exp(j * math.log(m) - m - math.lgamma(j + 1)) for j in k])


def _binomial_pmf(k: np.ndarray, n: int, p: float) -> np.ndarray:
    return np.array([math.exp(math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
                              + j * math.log(p) + (n - j) * math.log1p(-p)) for j in k])


def _chi_square(x: np.ndarray, pmf: np.ndarray, support: np.ndarray) -> None:
    """Counts of ``support``'s values against ``pmf``; cells expected below 5 are lumped
    with everything outside the support."""
    x = x.ravel()
    observed = np.array([np.count_nonzero(x == s) for s in support], dtype=np.float64)
    expected = pmf * x.size
    keep = expected >= 5
    obs = np.append(observed[keep], x.size - observed[keep].sum())
    exp = np.append(expected[keep], x.size - expected[keep].sum())
    if exp[-1] < 1e-9:
        assert obs[-1] == 0, "values outside the support"
        obs, exp = obs[:-1], exp[:-1]
    p = stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue
    assert p > P_MIN, f"chi-square p = {p}"


def _rng(seed: int, device: str) -> Any:
    return xp.random.default_rng(seed, device=device)


# -- the bit generator --------------------------------------------------------------------
# Random123's known-answer vectors for philox4x32_10: (counter, key) -> output
KNOWN_ANSWERS = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF, 0xFFFFFFFF), (0x408F276D, 0x41C83B0E, 0xA20BC7C6,
                                                    0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def test_philox_known_answers(device: str) -> None:
    for counter, key, expected in KNOWN_ANSWERS:
        words = tuple(xp.asarray([c], dtype=xp.uint64, device=device)._node for c in counter)
        keys = _random_sampling._split_key(key[0] | key[1] << 32)
        out = _random_sampling._philox(words, keys, xp.asarray(0, device=device).device)
        got = tuple(int(np.asarray(xp.Array._new(w))[0]) for w in out)  # type: ignore
        assert got == expected, [hex(v) for v in got]


def test_draw_is_one_fused_kernel_reading_no_memory(device: str) -> None:
    rng = _rng(0, device)
    plan = xp.explain(rng.random(1000) * 2 + 1)
    assert len(plan) == 1
    kernel = plan[0]
    assert kernel.strategy != "library" and kernel.ir is not None
    inputs = [i for i in kernel.ir.instrs if i.op == Op.BUF and not i.arg[2]]
    assert inputs == [], "the numbers come from the index, not from memory"
    # into a reduction too, and a normal draw scaled by an array parameter
    # (counted outside the asserts: pytest's rewriting keeps the draw alive there, and a
    # draw a live array shows is stored with the graph, as it is deep: schedule._held)
    kernels = len(xp.explain(xp.sum(rng.random(1000))))
    assert kernels == 1
    loc = xp.asarray(np.arange(3.0), device=device)
    kernels = len(xp.explain(rng.normal(loc, 2.0, size=(4, 3)) * 3))
    assert kernels == 1


def test_calls_reuse_their_kernel(device: str) -> None:
    """The seed, the offset and scalar parameters are kernel arguments: another call plans
    the same kernel (no compile), whatever their values."""
    def names(rng: Any, k: int) -> list[str]:
        return [p[0].name for p in (xp.explain(rng.random(5)),
                                    xp.explain(rng.normal(float(k), 2.0, 5)),
                                    xp.explain(rng.integers(k, 21 + k, 5)),
                                    xp.explain(rng.poisson(1.0 / (k + 1), 5)))]
    first = names(_rng(0, device), 0)
    rng = _rng(1, device)
    for k in (2, 3, 21):        # (small offsets and values equal some of the kernel's constants)
        rng.random(k)
        assert names(rng, k) == first


def test_seeds_and_streams(device: str) -> None:
    a = np.asarray(_rng(7, device).random(100))
    b = np.asarray(_rng(7, device).random(100))
    np.testing.assert_array_equal(a, b)
    assert not np.any(a == np.asarray(_rng(8, device).random(100)))
    rng = _rng(7, device)
    first, second = np.asarray(rng.random(100)), np.asarray(rng.random(100))
    np.testing.assert_array_equal(first, a)
    assert not np.any(first == second)
    # successive draws read disjoint counters: a draw of 200 is the two draws of 100
    np.testing.assert_array_equal(np.asarray(_rng(7, device).random(200)),
                                  np.concatenate([first, second]))
    # successive calls are uncorrelated
    u, v = np.asarray(rng.random(N)), np.asarray(rng.random(N))
    assert abs(np.corrcoef(u, v)[0, 1]) < 6 / math.sqrt(N)
    # the state restores the stream; sequences and big ints seed
    state = rng.bit_generator.state
    c = np.asarray(rng.integers(0, 1000, 50))
    rng.bit_generator.state = state
    np.testing.assert_array_equal(np.asarray(rng.integers(0, 1000, 50)), c)
    np.testing.assert_array_equal(np.asarray(_rng([1, 2], device).random(5)),
                                  np.asarray(_rng([1, 2], device).random(5)))
    assert not np.any(np.asarray(_rng([1, 2], device).random(5)) ==
                      np.asarray(_rng([2, 1], device).random(5)))
    assert not np.any(np.asarray(_rng(2**70, device).random(5)) ==
                      np.asarray(_rng(2**70 + 1, device).random(5)))
    # seed None takes fresh entropy
    assert not np.any(np.asarray(xp.random.default_rng(device=device).random(5)) ==
                      np.asarray(xp.random.default_rng(device=device).random(5)))


# -- continuous distributions ---------------------------------------------------------------
def test_random(device: str) -> None:
    x = _same_on_reference(device, lambda d: _rng(1, d).random(N))
    assert x.dtype == np.float64 and x.min() >= 0 and x.max() < 1
    _moments(x, 0.5, 1 / 12, -1.2)
    _ks(x, _uniform_cdf())
    # 53 random bits: the values are multiples of 2**-53, not all of 2**-32
    assert np.all(x * 2.0**53 == np.floor(x * 2.0**53))
    assert np.any(x * 2.0**32 != np.floor(x * 2.0**32))
    y = _same_on_reference(device, lambda d: _rng(1, d).random((100, 200), dtype=np.float32))
    assert y.dtype == np.float32 and y.shape == (100, 200) and y.min() >= 0 and y.max() < 1
    _ks(y, _uniform_cdf())


def test_standard_normal_and_normal(device: str) -> None:
    z = _same_on_reference(device, lambda d: _rng(2, d).standard_normal(N), exact=False)
    _moments(z, 0.0, 1.0, 0.0)
    _ks(z, _normal_cdf())
    loc, scale = np.array([-3.0, 0.5, 10.0, 2.0]), np.array([0.5, 2.0, 1.0, 3.0])
    x = _same_on_reference(device, lambda d: _rng(3, d).normal(
        xp.asarray(loc, device=d), scale, size=(N // 4, 4)), exact=False)
    assert x.shape == (N // 4, 4)
    for j in range(4):
        _moments(x[:, j], loc[j], scale[j] ** 2, 0.0)
        _ks(x[:, j], _normal_cdf(loc[j], scale[j]))
    f = np.asarray(_rng(2, device).standard_normal(N, dtype=np.float32))
    assert f.dtype == np.float32
    np.testing.assert_allclose(f, z.astype(np.float32), rtol=1e-6, atol=1e-6)


def test_uniform_and_exponential(device: str) -> None:
    x = _same_on_reference(device, lambda d: _rng(4, d).uniform(-2.0, 3.0, N))
    assert x.min() >= -2 and x.max() < 3
    _moments(x, 0.5, 25 / 12, -1.2)
    _ks(x, _uniform_cdf(-2.0, 5.0))
    e = _same_on_reference(device, lambda d: _rng(5, d).exponential(2.5, N), exact=False)
    assert e.min() >= 0
    _moments(e, 2.5, 6.25, 6.0)
    _ks(e, _exponential_cdf(2.5))
    s = np.asarray(_rng(5, device).standard_exponential(N))
    np.testing.assert_allclose(s * 2.5, e, rtol=1e-14)


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(device: str, method: str) -> None:
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]])

    def draw(d: str) -> Any:
        return _rng(6, d).multivariate_normal(mean, xp.asarray(cov, device=d), size=N,
                                              method=method)
    if method == "cholesky":
        x = _same_on_reference(device, draw, exact=False)
    else:   # (SVD and eigh factors are unique up to signs, which libraries pick differently)
        x = np.asarray(draw(device))
    assert x.shape == (N, 3)
    np.testing.assert_allclose(x.mean(axis=0), mean, atol=6 * math.sqrt(2.0 / N))
    np.testing.assert_allclose(np.cov(x.T), cov, atol=6 * 2.0 * math.sqrt(2.0 / N))
    # each coordinate is normal; so is a fixed projection
    for j in range(3):
        _ks(x[:, j], _normal_cdf(mean[j], math.sqrt(cov[j, j])))
    w = np.array([1.0, -1.0, 2.0])
    _ks(x @ w, _normal_cdf(mean @ w, math.sqrt(w @ cov @ w)))


# -- discrete distributions -----------------------------------------------------------------
def test_integers(device: str) -> None:
    x = _same_on_reference(device, lambda d: _rng(8, d).integers(0, 10, N))
    assert x.dtype == np.int64
    _chi_square(x, np.full(10, 0.1), np.arange(10))
    y = _same_on_reference(device, lambda d: _rng(9, d).integers(3, 9, (N,), dtype=np.uint8,
                                                                  endpoint=True))
    assert y.dtype == np.uint8
    _chi_square(y, np.full(7, 1 / 7), np.arange(3, 10))
    # the whole int64 range: the top 4 bits are uniform, and negatives appear
    w = _same_on_reference(device, lambda d: _rng(10, d).integers(
        -2**63, 2**63 - 1, N, endpoint=True))
    _chi_square((w.view(np.uint64) >> np.uint64(60)).astype(np.int64), np.full(16, 1 / 16),
                np.arange(16))
    # a range that is not a power of two, near 2**63: Lemire's method has no modulo bias
    r = 3 * 2**61
    v = _same_on_reference(device, lambda d: _rng(11, d).integers(0, r, N, dtype=np.uint64))
    _chi_square((v // np.uint64(2**61)).astype(np.int64), np.full(3, 1 / 3), np.arange(3))
    # bounds as arrays (host and device) broadcast against size
    lo, hi = np.array([0, 100, -50]), np.array([2, 110, -40])
    z = _same_on_reference(device, lambda d: _rng(12, d).integers(
        xp.asarray(lo, device=d), hi, size=(N // 3, 3)))
    for j in range(3):
        _chi_square(z[:, j], np.full(hi[j] - lo[j], 1 / (hi[j] - lo[j])),
                    np.arange(lo[j], hi[j]))
    b = np.asarray(_rng(13, device).integers(0, 2, 1000, dtype=bool))
    assert b.dtype == np.bool_ and 400 < b.sum() < 600


def test_poisson(device: str) -> None:
    lam = np.array([0.5, 4.0, 17.0, 29.5, 30.0, 250.0])     # inversion and PTRS both
    x = _same_on_reference(device, lambda d: _rng(14, d).poisson(
        xp.asarray(lam[:, None], device=d), size=(6, N // 2)))
    assert x.dtype == np.int64 and x.shape == (6, N // 2)
    for j, m in enumerate(lam):
        _moments(x[j].astype(np.float64), m, m, 1 / m)
        support = np.arange(0, int(m + 12 * math.sqrt(m) + 12))
        _chi_square(x[j], _poisson_pmf(support, m), support)
    # a scalar mean builds one branch only; lam = 0 gives zeros
    s = np.asarray(_rng(15, device).poisson(2.0, N))
    _chi_square(s, _poisson_pmf(np.arange(20), 2.0), np.arange(20))
    assert not np.any(np.asarray(_rng(15, device).poisson(0.0, 100)))


def test_binomial(device: str) -> None:
    n = np.array([5, 40, 1000, 100, 1000, 70])
    p = np.array([0.3, 0.9, 0.01, 0.45, 0.6, 1.0])       # n q below and above 30, p > 1/2
    x = _same_on_reference(device, lambda d: _rng(16, d).binomial(
        xp.asarray(n[:, None], device=d), p[:, None], size=(6, N // 2)))
    assert x.dtype == np.int64
    for j in range(6):
        mean, var = n[j] * p[j], n[j] * p[j] * (1 - p[j])
        if var == 0:
            assert np.all(x[j] == n[j])
            continue
        _moments(x[j].astype(np.float64), mean, var, (1 - 6 * p[j] * (1 - p[j])) / var)
        support = np.arange(0, n[j] + 1)
        _chi_square(x[j], _binomial_pmf(support, n[j], p[j]), support)
    zero = np.asarray(_rng(17, device).binomial(0, 0.5, 10))
    assert zero.dtype == np.int64 and not np.any(zero)


def test_choice(device: str) -> None:
    p = np.array([0.1, 0.0, 0.2, 0.4, 0.3])
    x = _same_on_reference(device, lambda d: _rng(18, d).choice(5, N, p=p))
    _chi_square(x, p, np.arange(5))
    pop = np.array([10.0, 20.0, 30.0, 40.0])
    u = _same_on_reference(device, lambda d: _rng(19, d).choice(
        xp.asarray(pop, device=d), (100, 200)))
    assert u.shape == (100, 200) and u.dtype == np.float64
    _chi_square(u, np.full(4, 0.25), pop)
    # without replacement: distinct values, each position uniform
    w = np.stack([np.asarray(_rng(s, device).choice(6, 3, replace=False)) for s in range(300)])
    assert all(len(set(row)) == 3 for row in w.tolist())
    _chi_square(w[:, 0], np.full(6, 1 / 6), np.arange(6))
    # weighted, without replacement: the first pick follows p, zero weights never come
    q = np.array([0.5, 0.3, 0.2, 0.0])
    v = np.stack([np.asarray(_rng(s, device).choice(4, 3, replace=False, p=q))
                  for s in range(300)])
    assert not np.any(v == 3) and all(len(set(row)) == 3 for row in v.tolist())
    _chi_square(v[:, 0], q[:3], np.arange(3))
    # along an axis of a 2-D population (a non-contiguous view)
    a = xp.asarray(np.arange(24).reshape(4, 6), device=device).T
    c = np.asarray(_rng(20, device).choice(a, 5, axis=1))
    assert c.shape == (6, 5)
    assert np.all(np.isin(c, np.arange(24).reshape(4, 6).T))
    assert np.all(c % 6 == np.arange(6)[:, None])


def test_permutation_shuffle_permuted(device: str) -> None:
    perm = _same_on_reference(device, lambda d: _rng(21, d).permutation(1000))
    assert perm.dtype == np.int64 and sorted(perm.tolist()) == list(range(1000))
    # every ordering of 4 rows of 3 equally likely: 24 cells
    rows = _same_on_reference(device, lambda d: _rng(22, d).permuted(
        xp.broadcast_to(xp.arange(4, device=d), (6000, 4)), axis=1))
    codes = rows @ np.array([64, 16, 4, 1])
    support = np.array([np.dot(o, [64, 16, 4, 1]) for o in itertools.permutations(range(4))])
    _chi_square(codes, np.full(24, 1 / 24), support)
    # permutation of an array along an axis, of a transposed view
    base = np.arange(12.0).reshape(3, 4)
    x = xp.asarray(base, device=device).T
    y = np.asarray(_rng(23, device).permutation(x, axis=1))
    assert sorted(map(tuple, y.T.tolist())) == sorted(map(tuple, base.tolist()))
    # shuffle: in place along axis 0, seen by a view of the array
    a = xp.asarray(np.arange(20).reshape(10, 2), device=device)
    view = a[:3]
    _rng(24, device).shuffle(a)
    got = np.asarray(a)
    assert sorted(got[:, 0].tolist()) == list(range(0, 20, 2))
    np.testing.assert_array_equal(got[:, 1], got[:, 0] + 1)
    np.testing.assert_array_equal(np.asarray(view), got[:3])
    assert not np.array_equal(got, np.arange(20).reshape(10, 2))
    items = list(range(10))
    _rng(25, device).shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))


# -- shapes, dtypes, size forms, devices ------------------------------------------------------
def test_size_forms_and_dtypes(device: str) -> None:
    rng = _rng(26, device)
    for value, dtype in [(rng.random(), np.float64), (rng.standard_normal(), np.float64),
                         (rng.integers(5), np.int64), (rng.poisson(), np.int64),
                         (rng.binomial(3, 0.5), np.int64), (rng.choice(4), np.int64),
                         (rng.normal(1.0, 2.0), np.float64), (rng.exponential(), np.float64)]:
        # Note: size=None gives a 0-d array on the device (NumPy: a Python scalar)
        assert isinstance(value, xp.Array) and value.shape == () and value.dtype == dtype
        assert value.device.name == device
    assert rng.random(3).shape == (3,)
    assert rng.random((2, 0)).shape == (2, 0)
    assert rng.random(np.int64(4)).shape == (4,)
    assert rng.normal([1.0, 2.0]).shape == (2,)
    assert rng.normal(0.0, [[1.0], [2.0]], size=(2, 3)).shape == (2, 3)
    assert rng.integers(0, 5, size=[2, 2], dtype=np.int16).dtype == np.int16
    assert rng.multivariate_normal([0.0, 0.0], np.eye(2), (4, 5)).shape == (4, 5, 2)
    assert rng.choice(np.ones((3, 2)), 4).shape == (4, 2)
    out = xp.zeros((2, 3), device=device)
    assert rng.random(out=out) is out
    assert np.all((np.asarray(out) > 0) & (np.asarray(out) < 1))
    # device: the generator's, the call's, or that of an array parameter
    other = next(d for d in registry.devices() if d != device)
    assert rng.random(2, device=other).device.name == other
    assert xp.random.default_rng(1, device=other).normal(
        xp.asarray([0.0], device=device)).device.name == device
    with pytest.raises(ValueError):
        rng.normal(xp.asarray([0.0], device=device), 1.0, device=other)


def test_legacy_random_state(device: str) -> None:
    rs = xp.random.RandomState(5, device=device)
    a = np.asarray(rs.rand(2, 3))
    assert a.shape == (2, 3) and a.dtype == np.float64
    rs.seed(5)
    np.testing.assert_array_equal(np.asarray(rs.random_sample((2, 3))), a)
    state = rs.get_state()
    b = np.asarray(rs.randn(4))
    rs.set_state(state)
    np.testing.assert_array_equal(np.asarray(rs.standard_normal(4)), b)
    r = np.asarray(rs.randint(3, 9, size=N))
    assert r.dtype == np.int64
    _chi_square(r, np.full(6, 1 / 6), np.arange(3, 9))
    assert rs.randint(4).shape == ()
    assert np.asarray(rs.uniform(2.0, 3.0, 5)).min() >= 2
    assert rs.normal(size=(2, 2)).shape == (2, 2)
    assert sorted(np.asarray(rs.permutation(5)).tolist()) == list(range(5))
    assert rs.choice([1, 2, 3], 4).shape == (4,)
    assert rs.poisson(3.0, 2).dtype == np.int64 and rs.binomial(4, 0.5).shape == ()
    assert rs.exponential(2.0, 3).shape == (3,)
    assert rs.multivariate_normal([0.0], [[1.0]], 2).shape == (2, 1)
    x = xp.arange(6, device=device)
    rs.shuffle(x)
    assert sorted(np.asarray(x).tolist()) == list(range(6))


def test_module_functions() -> None:
    xp.random.seed(123)
    a = np.asarray(xp.random.rand(5))
    xp.random.seed(123)
    np.testing.assert_array_equal(np.asarray(xp.random.random(5)), a)
    np.testing.assert_array_equal(np.asarray(xp.random.random_sample(5)),
                                  np.asarray(xp.random.RandomState(123).random(10))[5:])
    assert xp.random.randn(2, 2).shape == (2, 2)
    assert xp.random.randint(0, 3, 4).dtype == np.int64
    assert xp.random.normal(1.0, 0.0, 3).shape == (3,)
    np.testing.assert_array_equal(np.asarray(xp.random.normal(1.0, 0.0, 3)), 1.0)
    assert xp.random.uniform(size=2).shape == (2,)
    assert xp.random.choice(5, 2, replace=False).shape == (2,)
    assert sorted(np.asarray(xp.random.permutation(4)).tolist()) == [0, 1, 2, 3]
    y = xp.arange(5)
    xp.random.shuffle(y)
    assert sorted(np.asarray(y).tolist()) == [0, 1, 2, 3, 4]
    state = xp.random.get_state()
    c = np.asarray(xp.random.standard_normal(3))
    xp.random.set_state(state)
    np.testing.assert_array_equal(np.asarray(xp.random.standard_normal(3)), c)
    assert xp.random.poisson(1.0, 3).shape == (3,) and xp.random.binomial(2, 0.5).shape == ()
    assert xp.random.exponential(size=2).shape == (2,)
    assert xp.random.standard_exponential(2).shape == (2,)
    assert xp.random.multivariate_normal([0.0, 1.0], np.eye(2)).shape == (2,)
    assert len(xp.random.bytes(7)) == 7


# -- errors -----------------------------------------------------------------------------------
ERRORS: list[Callable[[Any], Any]] = [
    lambda r: r.random(dtype=np.int32),
    lambda r: r.random(size=-1),
    lambda r: r.random(size=2.5),
    lambda r: r.standard_normal(dtype=np.int64),
    lambda r: r.normal(0.0, -1.0),
    lambda r: r.normal([0.0, 1.0], [1.0, -1.0]),
    lambda r: r.normal([0.0, 1.0, 2.0], 1.0, size=(2,)),
    lambda r: r.uniform(0.0, np.inf),
    lambda r: r.exponential(-1.0),
    lambda r: r.integers(0),
    lambda r: r.integers(5, 3),
    lambda r: r.integers(5, 5),
    lambda r: r.integers(0, 300, dtype=np.uint8),
    lambda r: r.integers(-1, 3, dtype=np.uint8),
    lambda r: r.integers(0, 2, dtype=np.float64),
    lambda r: r.integers([0, 5], [3, 4]),
    lambda r: r.poisson(-1.0),
    lambda r: r.poisson(np.nan),
    lambda r: r.poisson(1e19),
    lambda r: r.binomial(-1, 0.5),
    lambda r: r.binomial(10, 1.5),
    lambda r: r.binomial(10, np.nan),
    lambda r: r.choice(0),
    lambda r: r.choice(-1),
    lambda r: r.choice([]),
    lambda r: r.choice(5, size=6, replace=False),
    lambda r: r.choice(5, p=[0.5, 0.5]),
    lambda r: r.choice(3, p=[0.5, 0.6, -0.1]),
    lambda r: r.choice(3, p=[0.5, 0.6, 0.1]),
    lambda r: r.choice(3, size=3, replace=False, p=[0.5, 0.5, 0.0]),
    lambda r: r.choice([[1, 2], [3, 4]], p=[[0.5, 0.5]]),
    lambda r: r.permutation(np.ones(())),
    lambda r: r.multivariate_normal([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]),
    lambda r: r.multivariate_normal([[0.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]),
    lambda r: r.multivariate_normal([0.0, 0.0], [[1.0, 2.0], [2.0, 1.0]], check_valid="raise"),
    lambda r: r.multivariate_normal([0.0], [[1.0]], check_valid="maybe"),
    # the distributions of _random_distributions and _random_discrete
    lambda r: r.wald(0.0, 1.0),
    lambda r: r.wald([1.0, 2.0], [1.0, -1.0]),
    lambda r: r.vonmises(0.0, -1.0),
    lambda r: r.vonmises([0.0, 1.0], [1.0, 2.0, 3.0]),
    lambda r: r.noncentral_chisquare(0.0, 1.0),
    lambda r: r.noncentral_chisquare(1.0, -1.0),
    lambda r: r.noncentral_f(0.0, 1.0, 1.0),
    lambda r: r.noncentral_f(1.0, 0.0, 1.0),
    lambda r: r.noncentral_f(1.0, 1.0, -1.0),
    lambda r: r.zipf(1.0),
    lambda r: r.zipf([2.0, np.nan]),
    lambda r: r.logseries(1.0),
    lambda r: r.logseries(-0.1),
    lambda r: r.hypergeometric(-1, 5, 2),
    lambda r: r.hypergeometric(1, -5, 2),
    lambda r: r.hypergeometric(1, 5, -2),
    lambda r: r.hypergeometric(1, 5, 7),
    lambda r: r.hypergeometric([1, 10], 5, [[2], [7]]),
    lambda r: r.hypergeometric(10**9, 5, 7),
    lambda r: r.hypergeometric([5, 5, 5], 5, 3, size=(2,)),
    lambda r: r.multinomial(-1, [0.5, 0.5]),
    lambda r: r.multinomial(3, [0.7, 0.7, 0.1]),
    lambda r: r.multinomial(3, [-0.1, 0.5, 0.6]),
    lambda r: r.multinomial(3, [np.nan, 0.5]),
    lambda r: r.multinomial(3, 0.5),
    lambda r: r.multinomial(3, []),
    lambda r: r.multinomial(3, [[0.5, 0.5], [0.2, 0.8], [0.1, 0.9]], size=(4, 2)),
    lambda r: r.multivariate_hypergeometric([-1, 2], 1),
    lambda r: r.multivariate_hypergeometric([[3, 2]], 1),
    lambda r: r.multivariate_hypergeometric([3.5, 2], 1),
    lambda r: r.multivariate_hypergeometric([3, 2], 6),
    lambda r: r.multivariate_hypergeometric([3, 2], -1),
    lambda r: r.multivariate_hypergeometric([3, 2], [1]),
    lambda r: r.multivariate_hypergeometric([3, 2], 1, method="other"),
    lambda r: r.multivariate_hypergeometric([10**9, 2], 1),
]


@pytest.mark.parametrize("call", ERRORS)
def test_errors_like_numpy(device: str, call: Callable[[Any], Any]) -> None:
    with pytest.raises(Exception) as expected:
        call(np.random.default_rng(0))
    with pytest.raises(expected.type):
        call(_rng(0, device))


def test_seed_errors() -> None:
    for seed, np_call, xp_call in [
            (-1, np.random.default_rng, xp.random.default_rng),
            (1.5, np.random.default_rng, xp.random.default_rng),
            (-1, np.random.RandomState, xp.random.RandomState),
            (2**32, np.random.RandomState, xp.random.RandomState)]:
        with pytest.raises(Exception) as expected:
            np_call(seed)
        with pytest.raises(expected.type):
            xp_call(seed)
    with pytest.raises(TypeError):
        np.random.rand(2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        xp.random.rand(2.5)  # type: ignore[arg-type]


def test_device_array_parameters_are_not_read_back(device: str) -> None:
    """Invalid parameters in device arrays give NaN (floats) or -1 (integers) where NumPy
    raises: checking them would read the device's memory."""
    rng = _rng(27, device)
    s = np.asarray(rng.normal(0.0, xp.asarray([-1.0, 1.0], device=device)))
    assert np.isnan(s[0]) and np.isfinite(s[1])
    # (the kernels of test_poisson and test_binomial: the same structure, other sizes)
    lam = xp.asarray([[-1.0], [math.nan], [2.0], [1e19], [50.0], [0.0]], device=device)
    k = np.asarray(rng.poisson(lam, size=(6, 2))).T
    assert np.all(k[:, :2] == -1) and np.all(k[:, 3] == -1) and np.all(k[:, [2, 4, 5]] >= 0)
    b = np.asarray(rng.binomial(
        xp.asarray([[10], [-1], [10], [10], [100], [70]], device=device),
        xp.asarray([[0.5], [0.5], [2.0], [math.nan], [0.5], [1.0]], device=device),
        size=(6, 2))).T
    assert np.all(b[:, 1:4] == -1) and np.all((b[:, 0] >= 0) & (b[:, 0] <= 10))
    assert np.all(b[:, 5] == 70)


# -- the distributions of _random_distributions -------------------------------------------------
MORE_CONTINUOUS: dict[str, tuple[Callable[[Any, int], Any], Any]] = {
    "lognormal": (lambda r, n: r.lognormal(0.5, 0.75, n),
                  stats.lognorm(0.75, scale=math.exp(0.5))),
    "laplace": (lambda r, n: r.laplace(1.0, 2.0, n), stats.laplace(1.0, 2.0)),
    "logistic": (lambda r, n: r.logistic(1.0, 2.0, n), stats.logistic(1.0, 2.0)),
    "gumbel": (lambda r, n: r.gumbel(1.0, 2.0, n), stats.gumbel_r(1.0, 2.0)),
    "weibull": (lambda r, n: r.weibull(1.5, n), stats.weibull_min(1.5)),
    "pareto": (lambda r, n: r.pareto(3.0, n), stats.lomax(3.0)),
    "power": (lambda r, n: r.power(3.0, n), stats.powerlaw(3.0)),
    "rayleigh": (lambda r, n: r.rayleigh(2.0, n), stats.rayleigh(scale=2.0)),
    "standard_cauchy": (lambda r, n: r.standard_cauchy(n), stats.cauchy()),
    "triangular": (lambda r, n: r.triangular(0.0, 1.0, 4.0, n), stats.triang(0.25, 0, 4)),
    "standard_gamma": (lambda r, n: r.standard_gamma(2.5, n), stats.gamma(2.5)),
    "gamma of a shape below 1": (lambda r, n: r.gamma(0.3, 2.0, n), stats.gamma(0.3, scale=2)),
    "chisquare": (lambda r, n: r.chisquare(5.0, n), stats.chi2(5.0)),
    "beta": (lambda r, n: r.beta(2.0, 3.0, n), stats.beta(2.0, 3.0)),
    "standard_t": (lambda r, n: r.standard_t(10.0, n), stats.t(10.0)),
    "f": (lambda r, n: r.f(5.0, 10.0, n), stats.f(5.0, 10.0)),
    "wald": (lambda r, n: r.wald(1.5, 2.0, n), stats.invgauss(0.75, scale=2.0)),
    "wald of a small shape": (lambda r, n: r.wald(2.0, 0.01, n), stats.invgauss(200, scale=0.01)),
    "vonmises": (lambda r, n: r.vonmises(0.0, 2.0, n), stats.vonmises(2.0)),
    "vonmises of a small kappa": (lambda r, n: r.vonmises(0.0, 1e-3, n), stats.vonmises(1e-3)),
    "noncentral_chisquare": (lambda r, n: r.noncentral_chisquare(3.0, 2.0, n),
                             stats.ncx2(3.0, 2.0)),
    "noncentral_chisquare of df below 1": (lambda r, n: r.noncentral_chisquare(0.5, 4.0, n),
                                           stats.ncx2(0.5, 4.0)),
    "noncentral_f": (lambda r, n: r.noncentral_f(3.0, 8.0, 2.5, n), stats.ncf(3.0, 8.0, 2.5)),
}


@pytest.mark.parametrize("name", sorted(MORE_CONTINUOUS))
def test_more_continuous_distributions_fit(name: str) -> None:
    draw, dist = MORE_CONTINUOUS[name]
    x = np.asarray(draw(_rng(11, "cpu"), N))
    assert x.dtype == np.float64 and x.shape == (N,) and np.isfinite(x).all()
    _ks(x, dist.cdf)


def test_more_distributions_are_the_same_on_every_device(device: str) -> None:
    for name in ("gamma of a shape below 1", "beta", "laplace"):
        draw, _ = MORE_CONTINUOUS[name]
        _same_on_reference(device, lambda d, draw=draw: draw(_rng(12, d), 500), exact=False)
    g = _same_on_reference(device, lambda d: _rng(13, d).geometric(0.3, 500))
    assert g.dtype == np.int64 and g.min() >= 1


def test_more_discrete_distributions_and_dirichlet() -> None:
    g = np.asarray(_rng(14, "cpu").geometric(0.25, N))
    support = np.arange(1, 60)
    _chi_square(g, stats.geom(0.25).pmf(support), support)
    nb = np.asarray(_rng(15, "cpu").negative_binomial(5, 0.4, N))
    assert nb.dtype == np.int64
    support = np.arange(0, 80)
    _chi_square(nb, stats.nbinom(5, 0.4).pmf(support), support)
    d = np.asarray(_rng(16, "cpu").dirichlet([1.0, 2.0, 3.0], size=N))
    assert d.shape == (N, 3) and np.allclose(d.sum(axis=1), 1.0)
    _moments(d[:, 2], 0.5, 0.5 * 0.5 / 7, 0.0)


def test_more_distributions_check_their_parameters() -> None:
    r = _rng(17, "cpu")
    for call in (lambda: r.gamma(-1.0), lambda: r.beta(0.0, 1.0), lambda: r.geometric(1.5),
                 lambda: r.triangular(2.0, 1.0, 3.0), lambda: r.chisquare(0.0),
                 lambda: r.lognormal(0.0, -1.0), lambda: r.weibull(-1.0)):
        with pytest.raises(ValueError):
            call()
    # device arrays are not read back: an invalid one gives NaN
    bad = np.asarray(r.gamma(xp.asarray([2.0, -1.0]), 1.0))
    assert np.isfinite(bad[0]) and np.isnan(bad[1])
    # the legacy interface has them too
    assert xp.random.RandomState(3).lognormal(size=4).shape == (4,)
    assert xp.random.gamma(2.0, 2.0, size=(2, 3)).shape == (2, 3)
    assert xp.random.standard_t(5.0, size=3).dtype == xp.float64


# -- von Mises, Zipf, logseries, hypergeometric, multinomial ------------------------------------
def _chi_square_binned(x: np.ndarray, dist: Any, cells: int = 30) -> None:
    """Chi-square of a discrete ``x`` of wide support over ``cells`` bins, where single
    values are expected too rarely: bins between normal quantiles (SciPy's hypergeometric
    ppf takes seconds at N = 2e9), their probabilities from ``dist``'s CDF."""
    levels = stats.norm.ppf(np.linspace(0.001, 0.999, cells))
    edges = np.unique(np.round(dist.mean() + dist.std() * levels))
    expected = np.diff(np.concatenate([[0.0], dist.cdf(edges), [1.0]])) * x.size
    observed = np.diff(np.concatenate([[0], np.searchsorted(np.sort(x.ravel()), edges,
                                                             side="right"), [x.size]]))
    p = stats.chisquare(observed, expected * observed.sum() / expected.sum()).pvalue
    assert p > P_MIN, f"chi-square p = {p}"


def _joint_codes(x: np.ndarray, base: int) -> np.ndarray:
    """Rows of counts as single integers (digits in ``base``), for a chi-square of the
    joint distribution."""
    return x @ base ** np.arange(x.shape[-1])[::-1]


def test_vonmises_wraps_and_concentrates() -> None:
    r = _rng(30, "cpu")
    x = np.asarray(r.vonmises(3.0, 1.5, N))       # around 3, wrapped into [-pi, pi)
    assert x.min() >= -math.pi and x.max() < math.pi and np.any(x < 0)
    _ks((x - 3.0 + math.pi) % (2 * math.pi) - math.pi, stats.vonmises(1.5).cdf)
    # a huge kappa is exact too (no normal approximation): the angle / sd is normal
    y = np.asarray(r.vonmises(-1.0, 1e8, N))
    _ks((y + 1.0) * 1e4, _normal_cdf())
    assert np.all(np.asarray(r.vonmises(0.5, np.inf, 10)) == 0.5)
    z = np.asarray(r.vonmises(0.0, 0.0, N))       # kappa 0: uniform
    _ks(z, _uniform_cdf(-math.pi, 2 * math.pi))


def test_zipf_and_logseries() -> None:
    for seed, a in ((31, 2.0), (32, 1.3), (33, 6.0)):
        x = np.asarray(_rng(seed, "cpu").zipf(a, N))
        assert x.dtype == np.int64 and x.min() >= 1
        support = np.arange(1, 3000)
        _chi_square(x, stats.zipf(a).pmf(support), support)
    # a near 1: the values reach the int64 range and stay in it (NumPy's truncation)
    near = np.asarray(_rng(34, "cpu").zipf(1.0001, 1000))
    assert near.min() >= 1 and near.max() > 2**40
    assert np.all(np.asarray(_rng(34, "cpu").zipf(np.inf, 5)) == 1)
    for seed, p in ((35, 0.2), (36, 0.9), (37, 0.9999)):
        y = np.asarray(_rng(seed, "cpu").logseries(p, N))
        assert y.dtype == np.int64 and y.min() >= 1
        support = np.arange(1, 20_000)
        _chi_square(y, stats.logser(p).pmf(support), support)
    assert np.all(np.asarray(_rng(38, "cpu").logseries(0.0, 5)) == 1)


# (good, bad, sample): inversion (reduced mean < 30), the ratio of uniforms with each of the
# symmetries, its least accepting case (60, 60, 60), and a rare success in a huge population
HYPERGEOMETRIC = [(10, 20, 5), (50, 50, 30), (1000, 2000, 600), (200, 100, 250), (60, 60, 60),
                  (5, 10**6, 300_000), (3000, 1000, 3500)]


@pytest.mark.parametrize("params", HYPERGEOMETRIC, ids=str)
def test_hypergeometric(params: tuple[int, int, int]) -> None:
    good, bad, sample = params
    x = np.asarray(_rng(39, "cpu").hypergeometric(good, bad, sample, N))
    assert x.dtype == np.int64
    dist = stats.hypergeom(good + bad, good, sample)
    support = np.arange(0, sample + 1)
    _chi_square(x, dist.pmf(support), support)
    _moments(x.astype(np.float64), dist.mean(), dist.var(), dist.stats(moments="k"))


def test_hypergeometric_of_a_large_population() -> None:
    """NumPy's largest parameters (ngood, nbad < 1e9): the log-factorial differences keep
    their precision."""
    for seed, (good, bad, sample) in ((40, (5 * 10**8, 4 * 10**8, 3 * 10**8)),
                                      (41, (999_999_999, 999_999_999, 10**9))):
        x = np.asarray(_rng(seed, "cpu").hypergeometric(good, bad, sample, N))
        dist = stats.hypergeom(good + bad, good, sample)
        _chi_square_binned(x, dist)
        _moments(x.astype(np.float64), dist.mean(), dist.var(), 0.0)


def test_multinomial() -> None:
    p = np.array([0.1, 0.2, 0.3, 0.4, 0.0])
    # the joint distribution of a small n (5 categories: a tree of 3 levels)
    x = np.asarray(_rng(42, "cpu").multinomial(4, p, N))
    assert x.dtype == np.int64 and x.shape == (N, 5)
    assert np.all(x.sum(axis=1) == 4) and not np.any(x[:, 4])
    support = np.array([c for c in itertools.product(range(5), repeat=5) if sum(c) == 4])
    _chi_square(_joint_codes(x, 5), stats.multinomial(4, p).pmf(support),
                _joint_codes(support, 5))
    # a large n (binomials by BTRS): each count is binomial, the covariances -n p_i p_j
    y = np.asarray(_rng(43, "cpu").multinomial(1000, [0.25, 0.5, 0.25], N))
    assert np.all(y.sum(axis=1) == 1000)
    for j, q in enumerate([0.25, 0.5, 0.25]):
        support = np.arange(0, 1001)
        _chi_square(y[:, j], _binomial_pmf(support, 1000, q), support)
    cov = np.cov(y[:, 0], y[:, 2])[0, 1]
    assert abs(cov + 1000 * 0.25 * 0.25) < 6 * 1000 * 0.25 * 0.75 / math.sqrt(N)
    # the last probability is 1 - sum(others), whatever its value (as NumPy's)
    z = np.asarray(_rng(44, "cpu").multinomial(10, [0.5, 0.2], 2000))
    assert 0.4 < z[:, 0].mean() / 10 < 0.6 and np.all(z.sum(axis=1) == 10)


def test_a_multinomial_is_remade_with_small_results_computed_now(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the cpu device computing small results now (``_api/_hot.c``), a multinomial's
    tree of samplers is still remade from its templates at each call (about 90 nodes made
    in Python), not built op by op: its padded weights are small arrays in memory, and a
    ``where`` of them selected now inside the library's own algorithm (``graph.literals``)
    made each call's tree new (2,000 nodes a call, 6 -> 23 ms)."""
    from zyxarray._api import _hot
    from zyxarray._lazy import graph
    rng = _rng(46, "cpu")
    first = np.asarray(rng.multinomial(600, [1 / 6] * 6, size=2000))
    assert _hot.now_max() > 0 and np.all(first.sum(axis=1) == 600)
    made: list[str] = []
    init = graph.Node.__init__
    monkeypatch.setattr(graph.Node, "__init__", lambda self, *a, **k: (made.append(a[0]),
                                                                         init(self, *a, **k))[1])
    again = np.asarray(rng.multinomial(600, [1 / 6] * 6, size=2000))
    assert np.all(again.sum(axis=1) == 600) and not np.array_equal(first, again)
    assert len(made) < 300, len(made)


def test_multivariate_hypergeometric() -> None:
    colors = [2, 3, 4]
    x = np.asarray(_rng(45, "cpu").multivariate_hypergeometric(colors, 4, N))
    assert x.dtype == np.int64 and x.shape == (N, 3) and np.all(x.sum(axis=1) == 4)
    support = np.array([c for c in itertools.product(*(range(k + 1) for k in colors))
                        if sum(c) == 4])
    _chi_square(_joint_codes(x, 5), stats.multivariate_hypergeom(colors, 4).pmf(support),
                _joint_codes(support, 5))
    # a larger case: each count is hypergeometric (inversion and ratio of uniforms)
    big = [300, 20, 500, 180]
    y = np.asarray(_rng(46, "cpu").multivariate_hypergeometric(big, 400, N, method="count"))
    assert np.all(y.sum(axis=1) == 400)
    for j, k in enumerate(big):
        support = np.arange(0, k + 1)
        _chi_square(y[:, j], stats.hypergeom(1000, k, 400).pmf(support), support)


def test_array_parameters_broadcast() -> None:
    """Parameters as host and device arrays, broadcast against ``size``: each column follows
    its own parameters."""
    a = np.array([1.5, 2.0, 4.0])
    x = np.asarray(_rng(47, "cpu").zipf(xp.asarray(a), size=(N // 2, 3)))
    assert x.shape == (N // 2, 3)
    for j in range(3):
        support = np.arange(1, 3000)
        _chi_square(x[:, j], stats.zipf(a[j]).pmf(support), support)
    good, bad = np.array([10, 400, 30]), np.array([[20], [300]])
    h = np.asarray(_rng(48, "cpu").hypergeometric(good, xp.asarray(bad), 25,
                                                  size=(N // 4, 2, 3)))
    for i in range(2):
        for j in range(3):
            support = np.arange(0, 26)
            _chi_square(h[:, i, j], stats.hypergeom(good[j] + bad[i, 0], good[j],
                                                    25).pmf(support), support)
    # multinomial: n and pvals' other axes broadcast; each row has its own probabilities
    pvals = np.array([[0.5, 0.5], [0.2, 0.8], [0.9, 0.1]])
    m = np.asarray(_rng(49, "cpu").multinomial(np.array([[20], [3]]), pvals))
    assert m.shape == (2, 3, 2) and np.all(m.sum(axis=-1) == [[20], [3]])
    many = np.asarray(_rng(50, "cpu").multinomial(20, xp.asarray(pvals), size=(N // 4, 3)))
    for j in range(3):
        support = np.arange(0, 21)
        _chi_square(many[:, j, 0], _binomial_pmf(support, 20, pvals[j, 0]), support)
    w = np.asarray(_rng(51, "cpu").wald([1.0, 5.0], 2.0, size=(N // 2, 2)))
    for j, mean in enumerate([1.0, 5.0]):
        _ks(w[:, j], stats.invgauss(mean / 2.0, scale=2.0).cdf)
    v = np.asarray(_rng(52, "cpu").vonmises([0.0, 1.0], [[0.5], [8.0]], size=(N // 4, 2, 2)))
    for i, kappa in enumerate([0.5, 8.0]):
        for j, mu in enumerate([0.0, 1.0]):
            _ks((v[:, i, j] - mu + math.pi) % (2 * math.pi) - math.pi,
                stats.vonmises(kappa).cdf)


NEW_SHAPES: list[Callable[[Any], Any]] = [
    lambda r: r.wald(1.0, 1.0),
    lambda r: r.wald([1.0, 2.0], 1.0, size=(3, 2)),
    lambda r: r.vonmises([0.0, 1.0], [[1.0], [2.0]]),
    lambda r: r.noncentral_chisquare([0.5, 2.0], 1.0, size=(3, 2)),
    lambda r: r.noncentral_f(2.0, 3.0, [1.0, 2.0]),
    lambda r: r.zipf(2.0),
    lambda r: r.zipf([2.0, 3.0]),
    lambda r: r.logseries(0.5, size=(2, 3)),
    lambda r: r.hypergeometric(3, 4, 2),
    lambda r: r.hypergeometric([3, 4], 5, [[1], [2], [3]]),
    lambda r: r.hypergeometric(5.5, 5, 2),
    lambda r: r.multinomial(3, [0.5, 0.5]),
    lambda r: r.multinomial([3, 4], [0.5, 0.5], size=(5, 2)),
    lambda r: r.multinomial([[1], [2]], [[0.5, 0.5], [0.2, 0.8], [0.1, 0.9]]),
    lambda r: r.multinomial(3, [[0.5, 0.5], [0.2, 0.8], [0.1, 0.9]], size=(4, 3)),
    lambda r: r.multinomial(3.5, [1.0]),
    lambda r: r.multinomial(3, [0.2, 0.3, 0.1, 0.15, 0.25], size=7),
    lambda r: r.multivariate_hypergeometric([3, 2, 5], 4),
    lambda r: r.multivariate_hypergeometric([3, 2, 5], 4, size=(2, 3), method="count"),
    lambda r: r.multivariate_hypergeometric([], 0),
]


def test_new_distributions_shapes_and_dtypes_like_numpy() -> None:
    for call in NEW_SHAPES:
        expected = np.asarray(call(np.random.default_rng(0)))
        got = call(_rng(53, "cpu"))
        assert isinstance(got, xp.Array)
        assert (got.shape, np.asarray(got).dtype) == (expected.shape, expected.dtype)


def test_new_distributions_are_the_same_on_every_device(device: str) -> None:
    _same_on_reference(device, lambda d: _rng(54, d).vonmises(0.5, [0.0, 2.0, 1e6], (50, 3)),
                       exact=False)
    h = _same_on_reference(device, lambda d: _rng(55, d).hypergeometric(
        xp.asarray([10, 1000], device=d), [20, 2000], [5, 600], (50, 2)))
    assert h.dtype == np.int64 and h.max() <= 600


def test_new_distributions_legacy_and_device_arrays() -> None:
    rs = xp.random.RandomState(4)
    for name, args in [("wald", (1.0, 2.0)), ("vonmises", (0.0, 1.0)), ("zipf", (2.0,)),
                       ("logseries", (0.5,)), ("hypergeometric", (5, 6, 4)),
                       ("noncentral_chisquare", (2.0, 1.0)),
                       ("noncentral_f", (2.0, 3.0, 1.0))]:
        assert getattr(rs, name)(*args, size=3).shape == (3,)
        assert getattr(xp.random, name)(*args, size=3).dtype == getattr(np.random, name)(
            *args, size=3).dtype
    assert xp.random.multinomial(5, [0.5, 0.5], size=3).shape == (3, 2)
    assert rs.multinomial(5, [0.2, 0.8]).shape == (2,)
    assert not hasattr(xp.random, "multivariate_hypergeometric")   # (NumPy has none either)
    # the legacy checks differ from the Generator's, as NumPy's do
    assert np.all(np.asarray(rs.hypergeometric(10**9, 5, 7, size=3)) == 7)
    for call, error in [(lambda: rs.hypergeometric(1, 5, 0), ValueError),
                        (lambda: rs.multinomial([3, 4], [0.5, 0.5]), TypeError),
                        (lambda: rs.multinomial(3, [[0.5, 0.5]]), ValueError)]:
        with pytest.raises(error):
            call()
    assert _rng(56, "cpu").hypergeometric(1, 5, 0).shape == ()
    # device arrays are not read back: invalid parameters give -1 (counts) or NaN
    r, d = _rng(57, "cpu"), xp.asarray
    assert np.asarray(r.zipf(d([2.0, 1.0]))).tolist()[1] == -1
    assert np.asarray(r.logseries(d([0.5, 1.0]))).tolist()[1] == -1
    h = np.asarray(r.hypergeometric(d([5, -1, 5]), 5, d([3, 3, 11])))
    assert h[0] >= 0 and np.all(h[1:] == -1)
    m = np.asarray(r.multinomial(4, d([[0.5, 0.5], [1.5, -0.5]])))
    assert np.all(m[0] >= 0) and np.all(m[1] == -1)
    assert np.isnan(np.asarray(r.wald(d([1.0, -1.0]), 1.0))[1])
    assert np.isnan(np.asarray(r.vonmises(0.0, d([1.0, -1.0])))[1])
    assert np.isnan(np.asarray(r.noncentral_chisquare(d([2.0, 0.0]), 1.0))[1])


def test_seed_sequences_seed_every_generator() -> None:
    """``zyxarray.random.SeedSequence`` is NumPy's: its spawned children are independent,
    reproducible seeds for ``default_rng`` and ``Philox`` (``RandomState`` refuses one, as
    NumPy's does)."""
    children = xp.random.SeedSequence(1234).spawn(2)
    a, b = (np.asarray(xp.random.default_rng(c).random(64)) for c in children)
    assert not np.array_equal(a, b)
    again = xp.random.SeedSequence(1234).spawn(2)[0]
    np.testing.assert_array_equal(np.asarray(xp.random.default_rng(again).random(64)), a)
    np.testing.assert_array_equal(
        np.asarray(xp.random.Generator(xp.random.Philox(again)).random(64)), a)
    with pytest.raises(TypeError):
        xp.random.RandomState(xp.random.SeedSequence(7))


@pytest.mark.parametrize("name", ["PCG64", "PCG64DXSM", "MT19937", "SFC64"])
def test_sequential_bit_generators_are_refused_clearly(name: str) -> None:
    with pytest.raises(TypeError, match=f"{name}.*Philox"):
        xp.random.Generator(getattr(xp.random, name)(1))


def test_a_rejection_sampler_stops_at_its_first_accepted_attempt(device: str) -> None:
    """A sampler's attempts are a ``FIRST`` reduction: no attempt is computed after the
    first accepted one (an IF inside the reduction loop), then that attempt is made again
    for its value, in one kernel. A GPU's work item walks its element's attempts alone (the
    IF reads its running minimum); a loops-style device's block of 16 elements walks them
    together, their lanes vectorized, while one of them has found nothing (an OR of the
    lanes' minimums)."""
    rng = _rng(41, device)
    plans = xp.explain(rng.gamma(2.5, size=500))
    assert len(plans) == 1
    ir = plans[0].ir
    assert ir is not None
    ins = ir.instrs
    ops = [i.op for i in ins]
    loops = [k for k, i in enumerate(ins) if i.op is Op.RANGE and i.arg == "reduce"]
    assert loops, "the attempts are a loop"
    if plans[0].strategy == "column":
        lanes = [k for k, i in enumerate(ins) if i.op is Op.RANGE and i.arg == "lane"]
        assert len(lanes) == 2 and loops[0] < lanes[0], "lanes inside the attempt loop"
        guard = ops.index(Op.IF)
        assert lanes[0] < guard < lanes[1], "a test of the lanes, then the attempt"
        test = ins[ins[guard].srcs[0]]
        assert test.op is Op.ACC_RESULT and ins[test.srcs[0]].arg[0] == "OR"
    else:
        assert Op.ACC_SCAN in ops, "the search reads its running minimum"
        first = ops.index(Op.ACC_SCAN)
        assert ops[first + 1:].index(Op.IF) < 3, "and guards the attempt with it"
    assert abs(float(xp.mean(rng.gamma(2.5, size=4000))) - 2.5) < 0.15


def test_hypergeometric_builds_only_the_branch_its_host_parameters_need(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Host parameters whose reduced means are all at least 30 take the ratio-of-uniforms
    sampler alone: the inversion's hundreds of steps are not built (nor computed)."""
    from zyxarray._api import _random_discrete

    def refused(*args: Any) -> Any:
        raise AssertionError("the inversion was built")

    params = [xp.asarray(v) for v in (600, 400, 300)]     # (device data: bounds unknown)
    want = np.asarray(_rng(9, "cpu").hypergeometric(*params, size=500))
    monkeypatch.setattr(_random_discrete, "_hyper_inversion", refused)
    got = np.asarray(_rng(9, "cpu").hypergeometric(600, 400, 300, size=500))
    np.testing.assert_array_equal(got, want)
    assert abs(got.mean() - 180) < 2


def test_first_is_the_min_of_a_rising_search(device: str) -> None:
    """``Op.FIRST`` (a search: the first index along the axis where a condition holds, else
    the stop value) gives what MIN gives, with and without early exits, whatever the
    layout: rows of every length, all found, none found."""
    from zyxarray._lazy import graph as g
    h = np.random.default_rng(3).random((37, 23)) < 0.2
    h[0] = False
    h[1] = True
    c = xp.asarray(h, device=device)
    for axis, shape in ((1, (1, 23)), (0, (37, 1))):
        n = h.shape[axis]
        index = xp.reshape(xp.astype(xp.arange(n, device=device), xp.float64), shape)
        candidates = xp.where(c, index, 99.0)
        got = xp.Array._new(g.reduce(candidates._node, Op.FIRST, (axis,)))
        want = np.where(h, np.arange(float(n)).reshape(shape), 99.0).min(axis=axis,
                                                                         keepdims=True)
        np.testing.assert_array_equal(np.asarray(got), want)
        # a stop read from memory, not a constant: walked whole, as the MIN it is (a
        # loops device's block of points once tested no lane and computed nothing)
        stops = xp.where(c, index, xp.asarray(np.full(h.shape, 99.0), device=device))
        got = xp.Array._new(g.reduce(stops._node, Op.FIRST, (axis,)))
        np.testing.assert_array_equal(np.asarray(got), want)


def test_philox_remade_from_its_template_draws_what_its_operators_draw(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Draws after the first of a structure remake Philox's nodes, and a normal's, from a
    template (``graph.rebuilt``) with the new key and offset: the same variates as built
    by the operators, for other seeds, offsets and shapes."""
    def draws() -> list[np.ndarray]:
        out = []
        for seed in (3, 4):
            rng = _rng(seed, "cpu")
            out += [np.asarray(rng.random(50)), np.asarray(rng.standard_normal((4, 5))),
                    np.asarray(rng.gamma(2.5, size=40)), np.asarray(rng.integers(0, 9, 30))]
        return out

    from zyxarray._lazy import graph
    templated = draws()
    assert any(k[0] is _random_sampling._philox_of for k in graph._rebuilt)
    assert any(k[0] is _random_sampling._templated_of and k[1][0] is
               _random_sampling._standard_normal_built for k in graph._rebuilt)
    _same_as_built(monkeypatch, templated, draws)


def _same_as_built(monkeypatch: pytest.MonkeyPatch, templated: list[np.ndarray],
                   draws: Callable[[], list[np.ndarray]]) -> None:
    """``draws()`` again with every graph built by its operators (no template): the values
    ``templated`` holds."""
    from zyxarray._lazy import graph
    monkeypatch.setattr(graph, "rebuilt", lambda build, params, inputs, values=False:
                        build(*inputs, *params))
    for a, b in zip(templated, draws()):
        np.testing.assert_array_equal(a, b)


def test_rejection_attempts_remade_from_templates_draw_what_their_builders_draw(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A rejection sampler's attempts are remade from a template (``graph.rebuilt``) keyed
    by the structure of the draw and by the values of scalar parameters (which the attempt
    may fold): the same variates as built each time, when the parameters change between
    calls and come back, and for parameter arrays."""
    def draws() -> list[np.ndarray]:
        rng = _rng(21, "cpu")
        out = []
        for shape in (2.0, 3.5, 2.0, np.linspace(0.5, 9.0, 60), 2.0):
            out.append(np.asarray(rng.gamma(shape, size=60)))
        for lam in (40.0, 90.0, 40.0):
            out.append(np.asarray(rng.poisson(lam, size=50)))
        out.append(np.asarray(rng.vonmises(0.3, 4.0, size=40)))
        return out

    from zyxarray._lazy import graph
    templated = draws()
    assert any(k[0] is _random_sampling._templated_of and k[1][0] is
               _random_sampling._attempts_on for k in graph._rebuilt)
    _same_as_built(monkeypatch, templated, draws)
