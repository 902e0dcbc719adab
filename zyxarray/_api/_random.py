"""Random sampling (``numpy.random``): ``default_rng`` and ``Generator``, the legacy
``RandomState`` and the module functions that use a global one.

Layer: ``_api``. The numbers are made on the array's device, inside the generated kernels,
from the lazy graph: no host arrays, no NumPy random numbers. The bit generator is
Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3",
SC 2011), a counter-based generator: the 128 bits of element ``i`` of a draw are a pure
function of the key and the counter ``offset + i``, ten rounds of 32x32->64-bit products
(uint64 multiplies), shifts, masks and xors of an iota. A draw is one elementwise
expression that fuses into its consumers (``rng.random(n) * 2 + 1`` is one kernel), and the
same seed gives the same numbers on every device. The key comes from the seed (SplitMix64 on
the host); the generator's state is a Python int, the offset, advanced by the number of
elements each call draws, so successive calls read disjoint counters.

Counter words: (offset + i) low and high 32 bits, then the block number (an element that
needs more than 128 bits reads blocks 0, 1, ...), then 0. Kernels hold no data-dependent
loops, so the discrete samplers are exact methods of bounded work: inversion by sequential
search unrolled as a chain of ``where``s for small means, and a rejection sampler with a
fixed number of independent attempts (attempt i reads block i) for large ones, the attempts
laid along an axis that a search walks (``Op.FIRST``: each element's loop stops at its first
accepted attempt, which is then made again for its value; ``_random_sampling._first_accepted``).

Imports ``_lazy.graph`` and the ``_api`` functions; never ``numpy.random``'s generators.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._devices import registry
from .._devices.base import Device
from .._lazy import graph as g
from . import _dtypes as dt
from . import _elementwise_functions as ew
from ._array_object import Array
from ._creation_functions import _shape, asarray
from ._data_type_functions import astype
from ._linalg_functions import cholesky, eigh, svd
from ._linear_algebra_functions import matmul
from ._manipulation_functions import broadcast_to, normalize_axis, reshape
from ._numpy_args import write_out
from ._random_distributions import LEGACY, Distributions
from ._random_sampling import (
    _LAM_MAX,
    _M32,
    _M64,
    _U64,
    Word,
    _array,
    _binomial,
    _bounds,
    _check,
    _Draw,
    _float64_on,
    _float_dtype,
    _fresh,
    _host,
    _integers_built,
    _key,
    _operand,
    _out_shape,
    _poisson,
    _seed_words,
    _shape_of,
    _standard_exponential,
    _standard_normal,
    _templated,
    _uniform_built,
    _w,
    _work_float,
)
from ._searching_functions import searchsorted, where
from ._sorting_functions import argsort
from ._statistical_functions import cumulative_sum


class Philox:
    """The Philox4x32-10 counter-based bit generator (NumPy's ``numpy.random.Philox`` has
    the same rounds). Its state is a 64-bit key, made from the seed by SplitMix64, and a
    64-bit counter offset, advanced by every draw."""

    def __init__(self, seed: Any = None, *, counter: int = 0, key: int | None = None) -> None:
        if key is not None:
            if seed is not None:
                raise ValueError("Philox: seed and key cannot both be used")
            if not 0 <= int(key) <= _M64:
                raise ValueError(f"Philox: key must be in [0, 2**64), got {key}")
            self._key = int(key)
            self._seed_seq = np.random.SeedSequence(self._key)
        else:
            words = _seed_words(seed, "Philox")
            self._key = _key(words)
            # (``spawn`` of it gives independent streams: dask draws each chunk from one)
            self._seed_seq = seed if isinstance(seed, np.random.SeedSequence) else \
                np.random.SeedSequence(words)
        self._counter = int(counter) & _M64

    def _reserve(self, n: int) -> int:
        """The first of ``n`` fresh counters (the offset moves past them)."""
        start = self._counter
        self._counter = (start + n) & _M64
        return start

    @property
    def state(self) -> dict[str, Any]:
        return {"bit_generator": "Philox", "state": {"key": self._key,
                                                     "counter": self._counter}}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        if not isinstance(value, dict) or value.get("bit_generator") != "Philox":
            raise ValueError("state must be a dict made by a Philox bit generator's state")
        self._key = int(value["state"]["key"]) & _M64
        self._counter = int(value["state"]["counter"]) & _M64

    def advance(self, delta: int) -> Philox:
        """Skip ``delta`` counters (as ``delta`` drawn elements would)."""
        self._counter = (self._counter + int(delta)) & _M64
        return self

    def random_raw(self, size: Any = None, *, device: Any = None) -> Array:
        """Raw 64-bit words (uint64) on ``device``."""
        dev = registry.default() if device is None else registry.get(device)
        shape = () if size is None else _shape("random_raw", size)
        return _Draw(self._key, self._reserve(math.prod(shape)), shape, dev).bits64()

    def __repr__(self) -> str:
        return "Philox()"


# -- Generator ------------------------------------------------------------------------------
# Note: with ``size=None`` (and scalar parameters) the methods return a 0-d array on the
# device, as CuPy does, where NumPy returns a Python float or int. The float methods' dtype
# defaults to None: float64, or float32 on a device without float64.
class Generator(Distributions):
    """NumPy's ``Generator`` on a ``Philox`` bit generator: every method draws on a device,
    lazily, in the kernels that read the numbers.

    ``device=`` (here or per call) picks the device; the default device when None. Arrays
    given as parameters (loc, scale, p...) fix it."""

    def __init__(self, bit_generator: Philox, *, device: Any = None) -> None:
        if not isinstance(bit_generator, Philox):
            raise TypeError(f"Generator: expected a zyxarray.random.Philox bit generator, "
                            f"got {type(bit_generator).__name__}")
        self._bit_generator = bit_generator
        self._device = None if device is None else registry.get(device)

    @property
    def bit_generator(self) -> Philox:
        return self._bit_generator

    def __repr__(self) -> str:
        where_ = self._device.name if self._device is not None else "the default device"
        return f"Generator(Philox) on {where_}"

    # helpers
    def _device_for(self, name: str, device: Any, *params: Any) -> Device:
        found = {p.device for p in params if isinstance(p, Array)}
        if len(found) > 1:
            raise ValueError(f"{name}: parameters are on different devices "
                             f"({', '.join(sorted(d.name for d in found))})")
        if device is not None:
            want = registry.get(device)
            if found and want not in found:
                raise ValueError(f"{name}: device={want.name}, but the parameters are on "
                                 f"{found.pop().name}")
            return want
        if found:
            return found.pop()
        return self._device if self._device is not None else registry.default()

    def _draw(self, shape: tuple[int, ...], device: Device) -> _Draw:
        return _Draw(self._bit_generator._key,
                     self._bit_generator._reserve(math.prod(shape)), shape, device)

    def _floats(self, name: str, size: Any, dtype: Any, out: Any, device: Any,
                make: Callable[[_Draw, dt.DType], Array]) -> Array:
        dev = self._device_for(name, device, out)
        d = _float_dtype(name, dtype, dev)
        if out is not None:
            if not isinstance(out, Array):
                raise TypeError(f"{name}: out must be a zyxarray array")
            if out.dtype != d:
                raise TypeError(f"{name}: out has dtype {out.dtype.name}, expected {d.name}")
            if size is not None and _shape(name, size) != out.shape:
                raise ValueError(f"{name}: size {size} does not match out.shape "
                                 f"{out.shape}")
            size = out.shape
        shape = () if size is None else _shape(name, size)
        work = _work_float(dev)
        result = make(self._draw(shape, dev), work)
        return write_out(name, out, result if result.dtype == d else astype(result, d))

    # continuous distributions
    def random(self, size: Any = None, dtype: Any = None, out: Any = None, *,
               device: Any = None) -> Array:
        """Uniform floats in [0, 1): 53 random bits each for float64, 24 for float32.
        ``dtype`` float64 (float32 on a device without float64) or float32."""
        return self._floats("random", size, dtype, out, device,
                            lambda draw, work: _templated(_uniform_built, draw, [], (work,))[0])

    def standard_normal(self, size: Any = None, dtype: Any = None, out: Any = None, *,
                        device: Any = None) -> Array:
        """Standard normal floats (Box-Muller: exact)."""
        return self._floats("standard_normal", size, dtype, out, device, _standard_normal)

    def standard_exponential(self, size: Any = None, dtype: Any = None, method: str = "zig",
                             out: Any = None, *, device: Any = None) -> Array:
        """Exponential floats of mean 1 (by inversion; ``method`` is accepted, as NumPy's
        'zig' or 'inv', and changes nothing)."""
        if method not in ("zig", "inv"):
            raise ValueError(f"standard_exponential: method must be 'zig' or 'inv', got "
                             f"{method!r}")
        return self._floats("standard_exponential", size, dtype, out, device,
                            _standard_exponential)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *,
               device: Any = None) -> Array:
        """Normal floats of mean ``loc`` and standard deviation ``scale`` (which broadcast
        to ``size``); ValueError for a negative scale."""
        _check("normal", scale, lambda s: s < 0, "scale < 0")
        dev = self._device_for("normal", device, loc, scale)
        shape = _out_shape("normal", size, loc, scale)
        work = _work_float(dev)
        s = _operand(scale, shape, work, dev)
        z = _standard_normal(self._draw(shape, dev), work)
        return where(s < 0.0, math.nan, _operand(loc, shape, work, dev) + s * z)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None, *,
                device: Any = None) -> Array:
        """Uniform floats in [low, high) (NumPy also allows low > high)."""
        host_low, host_high = _host(low), _host(high)
        if host_low is not None and host_high is not None and host_low.size and \
                host_high.size and not np.all(np.isfinite(host_high - host_low)):
            raise OverflowError("uniform: high - low range exceeds valid bounds")
        dev = self._device_for("uniform", device, low, high)
        shape = _out_shape("uniform", size, low, high)
        work = _work_float(dev)
        lo = _operand(low, shape, work, dev)
        span = _operand(high, shape, work, dev) - lo
        return lo + span * self._draw(shape, dev).unit(0, 0, work)

    def exponential(self, scale: Any = 1.0, size: Any = None, *,
                    device: Any = None) -> Array:
        """Exponential floats of mean ``scale`` (by inversion: -scale log u)."""
        _check("exponential", scale, lambda s: s < 0, "scale < 0")
        dev = self._device_for("exponential", device, scale)
        shape = _out_shape("exponential", size, scale)
        work = _work_float(dev)
        s = _operand(scale, shape, work, dev)
        e = _standard_exponential(self._draw(shape, dev), work)
        return where(s < 0.0, math.nan, s * e)

    def multivariate_normal(self, mean: Any, cov: Any, size: Any = None,
                            check_valid: str = "warn", tol: float = 1e-8, *,
                            method: str = "svd", device: Any = None) -> Array:
        """Normal vectors of mean ``mean`` (n,) and covariance ``cov`` (n, n): shape
        ``size + (n,)``. ``method``: 'svd' (NumPy's default), 'eigh' or 'cholesky' factor
        ``cov`` on its device; ``check_valid`` ('warn', 'raise', 'ignore') checks that a
        covariance given as host data is positive semidefinite. The SVD and eigh factors
        are unique up to signs, which device libraries pick differently: only 'cholesky'
        gives the same numbers from one seed on every device."""
        # Note: a covariance given as a device array is not checked (that would read it
        # back); where it is not positive semidefinite the results are not normal.
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("multivariate_normal: check_valid must equal 'warn', 'raise', "
                             "or 'ignore'")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError(f"multivariate_normal: method must be 'svd', 'eigh' or "
                             f"'cholesky', got {method!r}")
        if len(_shape_of(mean)) != 1:
            raise ValueError("multivariate_normal: mean must be 1 dimensional")
        n = _shape_of(mean)[0]
        if _shape_of(cov) != (n, n):
            raise ValueError("multivariate_normal: mean and cov must have same length, and "
                             "cov must be 2 dimensional and square")
        host_cov = _host(cov)
        if host_cov is not None and check_valid != "ignore" and method != "cholesky":
            _check_psd(host_cov, method, check_valid, tol)
        dev = self._device_for("multivariate_normal", device, mean, cov)
        shape = (() if size is None else _shape("multivariate_normal", size)) + (n,)
        work = _work_float(dev)
        c = _operand(cov, (n, n), work, dev)
        if method == "cholesky":
            factor = cholesky(c).mT
        elif method == "eigh":
            values, vectors = eigh(c)
            factor = reshape(ew.sqrt(ew.abs(values)), (n, 1)) * vectors.mT
        else:
            _, s, vh = svd(c)
            factor = reshape(ew.sqrt(s), (n, 1)) * vh
        z = _standard_normal(self._draw(shape, dev), work)
        return matmul(z, factor) + _operand(mean, (n,), work, dev)

    # discrete distributions
    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = np.int64,
                 endpoint: bool = False, *, device: Any = None) -> Array:
        """Uniform integers in [low, high) ([low, high] if ``endpoint``; [0, low) without
        ``high``) of ``dtype`` (an integer dtype or bool). Lemire's multiply-shift on 128
        random bits per value: each value's probability is within a relative 2**-64 of
        uniform. Bounds given as host data are checked as NumPy does."""
        # Note: bounds given as device arrays are not checked (that would read them back);
        # where low >= high the values are unspecified.
        d = dt.to_dtype(dtype, "integers")
        if d not in dt.INTEGER and d != dt.bool:
            raise TypeError(f"integers: unsupported dtype {d.name} for integers")
        if high is None:
            low, high = 0, low
            _check("integers", high, lambda h: h <= 0, "high <= 0")
        dev = self._device_for("integers", device, low, high)
        shape = _out_shape("integers", size, low, high)
        info = (0, 1) if d == dt.bool else (int(np.iinfo(d.np).min), int(np.iinfo(d.np).max))
        _check_integer_bounds(low, high, info, d, endpoint)
        draw = self._draw(shape, dev)
        lo = _u64_word(low, shape, dev)
        span = _w(Op.SUB, _u64_word(high, shape, dev), lo, dev)
        if endpoint:
            span = _w(Op.ADD, span, 1, dev)
        value = _templated(_integers_built, draw, [_array(lo), _array(span)], ())[0]
        return astype(value, d)

    def poisson(self, lam: Any = 1.0, size: Any = None, *, device: Any = None) -> Array:
        """Poisson integers (int64) of mean ``lam``, exact: inversion by sequential search
        (unrolled to the steps that leave a tail below 1e-16) for lam < 30, Hörmann's PTRS
        rejection with 22 independent attempts from 30 (all fail with probability < 1e-15;
        the mode is returned then)."""
        _check("poisson", lam, lambda v: ~(v >= 0), "lam < 0 or lam is NaN")
        _check("poisson", lam, lambda v: v > _LAM_MAX, "lam value too large")
        dev = self._device_for("poisson", device, lam)
        shape = _out_shape("poisson", size, lam)
        lo, hi = _bounds(_host(lam))
        m = _operand(lam, shape, _float64_on("poisson", dev), dev)
        x = _poisson(self._draw(shape, dev), ew.maximum(m, 0.0), lo, hi)
        invalid = ~((m >= 0.0) & (m <= _LAM_MAX))
        return astype(where(invalid, -1.0, x), dt.int64)

    def binomial(self, n: Any, p: Any, size: Any = None, *, device: Any = None) -> Array:
        """Binomial integers (int64) of ``n`` trials (truncated to integers) of success
        probability ``p``, exact: with q = min(p, 1-p), inversion by sequential search for
        n q < 30, Hörmann's BTRS rejection with 25 independent attempts from 30 (all fail
        with probability < 1e-15; the mode is returned then)."""
        _check("binomial", n, lambda v: v < 0, "n < 0")
        _check("binomial", p, lambda v: ~((v >= 0) & (v <= 1)), "p < 0, p > 1 or p is NaN")
        dev = self._device_for("binomial", device, n, p)
        shape = _out_shape("binomial", size, n, p)
        host_n, host_p = _host(n), _host(p)
        lo = hi = None
        if host_n is not None and host_p is not None and host_n.size and host_p.size:
            nq = np.trunc(host_n) * np.minimum(host_p, 1.0 - host_p)
            lo, hi = float(np.min(nq)), float(np.max(nq))
        trials = ew.trunc(_operand(n, shape, _float64_on("binomial", dev), dev))
        prob = _operand(p, shape, dt.float64, dev)
        invalid = ~((trials >= 0.0) & (prob >= 0.0) & (prob <= 1.0))
        x = _binomial(self._draw(shape, dev), where(invalid, 0.0, trials),
                      where(invalid, 0.0, prob), lo, hi)
        return astype(where(invalid, -1.0, x), dt.int64)

    # permutations and sampling
    def _keys(self, shape: tuple[int, ...], device: Device) -> Array:
        """64 random bits per element: sorting them gives a uniform permutation (ties, of
        probability below n**2 / 2**65, keep their index order)."""
        return self._draw(shape, device).bits64()

    def _permutation_indices(self, n: int, device: Device) -> Array:
        return argsort(self._keys((n,), device))

    def permutation(self, x: Any, axis: int = 0, *, device: Any = None) -> Array:
        """A permuted ``arange(x)`` (x an int), or a permuted copy of the array ``x`` along
        ``axis`` (sorting random 64-bit keys on the device)."""
        if isinstance(x, (int, np.integer)) and not isinstance(x, builtins.bool):
            dev = self._device_for("permutation", device)
            return self._permutation_indices(int(x), dev)
        dev = self._device_for("permutation", device, x)
        a = x if isinstance(x, Array) else asarray(x, device=dev)
        if a.ndim == 0:
            raise np.exceptions.AxisError(axis, 0)
        ax = normalize_axis("permutation", axis, a.ndim)
        return _take(a, self._permutation_indices(a.shape[ax], dev), ax)

    def shuffle(self, x: Any, axis: int = 0) -> None:
        """Permute ``x`` in place along ``axis`` (a zyxarray array, written through
        ``x[...] =``, or a host list or NumPy array)."""
        # Note: a host sequence is permuted on the host, by indices drawn on the generator's
        # device and read back (its elements are host data).
        if isinstance(x, (Array, np.ndarray)) and x.ndim == 0:
            raise TypeError("shuffle: a 0-d array cannot be shuffled")
        if isinstance(x, Array):
            ax = normalize_axis("shuffle", axis, x.ndim)
            x[...] = _take(x, self._permutation_indices(x.shape[ax], x.device), ax)
            return
        if not isinstance(x, np.ndarray) and not hasattr(x, "__setitem__"):
            raise TypeError(f"shuffle: expected an array or a mutable sequence, got "
                            f"{type(x).__name__}")
        ax = normalize_axis("shuffle", axis, np.ndim(x) if isinstance(x, np.ndarray) else 1)
        n = x.shape[ax] if isinstance(x, np.ndarray) else len(x)
        order = np.asarray(self._permutation_indices(n, self._device_for("shuffle", None)))
        if isinstance(x, np.ndarray):
            x[...] = np.take(x, order, axis=ax)
        else:
            x[:] = [x[int(i)] for i in order]

    def permuted(self, x: Any, *, axis: int | None = None, out: Any = None,
                 device: Any = None) -> Array:
        """``x`` with each slice along ``axis`` permuted independently (the flattened array
        when ``axis`` is None)."""
        dev = self._device_for("permuted", device, x)
        a = x if isinstance(x, Array) else asarray(x, device=dev)
        if axis is None:
            flat = reshape(a, (-1,))
            result = reshape(_take(flat, self._permutation_indices(flat.shape[0], dev), 0),
                             a.shape)
        else:
            ax = normalize_axis("permuted", axis, a.ndim)
            order = argsort(self._keys(a.shape, dev), axis=ax)
            result = Array._new(g.library("take_along_axis", (a._node, order._node),
                                          {"axis": ax}, a.dtype.np, a.shape))
        return write_out("permuted", out, result)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None,
               axis: int = 0, shuffle: bool = True, *, device: Any = None) -> Array:
        """Samples from ``arange(a)`` (a an int) or from the array ``a`` along ``axis``:
        with replacement (uniform indices, or by inverting the cumulative sum of ``p``),
        or without (the first of a random ordering: random 64-bit keys, or exponential keys
        E/p for weights ``p``, which draws as successive sampling does). ``p`` given as host
        data is checked as NumPy does. ``shuffle`` is accepted: the samples come in random
        order either way."""
        dev = self._device_for("choice", device, a, p)
        shape = () if size is None else _shape("choice", size)
        k = math.prod(shape)
        pop: Array | None = None
        if isinstance(a, Array) and a.ndim:
            pop = a
        elif isinstance(a, Array) or np.ndim(a) == 0:
            # (a 0-d device array is read back: its value decides the result's range and,
            # without replacement, how many keys to sort)
            n = int(a)
            if n < 0 or (n == 0 and k > 0):
                raise ValueError("choice: a must be a positive integer unless no samples "
                                 "are taken")
        else:
            pop = asarray(a, device=dev)
        if pop is not None:
            ax = normalize_axis("choice", axis, pop.ndim) if pop.ndim else 0
            n = pop.shape[ax]
        if n == 0 and k:
            raise ValueError("choice: a cannot be empty unless no samples are taken")
        weights = None if p is None else _choice_weights(p, n, k, replace, dev)
        if not replace and k > n:
            raise ValueError("choice: Cannot take a larger sample than population when "
                             "replace is False")
        if replace:
            if weights is None:
                index = self.integers(0, builtins.max(n, 1), size=(k,), device=dev)
            else:
                cdf = cumulative_sum(weights)
                u = self._draw((k,), dev).unit(0, 0, weights.dtype) * cdf[-1]
                index = ew.minimum(searchsorted(cdf, u, side="right"), n - 1)
        else:
            if weights is None:
                keys = self._keys((n,), dev)
            else:
                keys = _standard_exponential(self._draw((n,), dev), weights.dtype) / weights
            index = argsort(keys)[:k]
        if pop is None:
            return reshape(index, shape)
        taken = _take(pop, index, ax)
        return reshape(taken, pop.shape[:ax] + shape + pop.shape[ax + 1:])

    def bytes(self, length: int) -> builtins.bytes:
        """``length`` random bytes (a host ``bytes``, read back from the device)."""
        values = self.integers(0, 256, size=int(length), dtype=dt.uint8)
        return np.asarray(values).tobytes()


def _check_psd(cov: np.ndarray, method: str, check_valid: str, tol: float) -> None:
    """NumPy's check that a host covariance is positive semidefinite (on the host copy)."""
    if method == "svd":
        _, s, vh = np.linalg.svd(cov)
        ok = np.allclose(np.dot(vh.T * s, vh), cov, rtol=tol, atol=tol)
    else:
        ok = bool(np.all(np.linalg.eigvalsh(cov) >= -tol))
    if ok:
        return
    message = "multivariate_normal: covariance is not symmetric positive-semidefinite."
    if check_valid == "raise":
        raise ValueError(message)
    import warnings
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def _check_integer_bounds(low: Any, high: Any, info: tuple[int, int], d: dt.DType,
                          endpoint: bool) -> None:
    """NumPy's checks of ``integers``' bounds given as host data."""
    lo = None if isinstance(low, Array) else np.asarray(low).astype(object)
    hi = None if isinstance(high, Array) else np.asarray(high).astype(object)
    for v in (lo, hi):
        if v is not None and v.dtype.kind not in "biuf" and any(
                not isinstance(x, (int, float, np.integer, np.floating)) for x in v.flat):
            raise TypeError(f"integers: bounds must be integers, got {v!r}")
    top = info[1] if endpoint else info[1] + 1
    if lo is not None and lo.size and np.any(lo < info[0]):
        raise ValueError(f"integers: low is out of bounds for {d.name}")
    if hi is not None and hi.size and np.any(hi > top):
        raise ValueError(f"integers: high is out of bounds for {d.name}")
    if lo is not None and hi is not None and lo.size and hi.size and \
            np.any((lo > hi) if endpoint else (lo >= hi)):
        raise ValueError(f"integers: low {'>' if endpoint else '>='} high")


def _u64_word(value: Any, shape: tuple[int, ...], device: Device) -> Word:
    """An integer bound as a uint64 node of ``shape`` (two's complement for negatives); a
    host scalar is one kernel argument."""
    if isinstance(value, Array):
        a = value if value.dtype not in dt.REAL_FLOATING else astype(value, dt.int64)
        return g.cast(broadcast_to(a, shape)._node, _U64)
    host = np.asarray(value)
    if not np.all(np.isfinite(host.astype(np.float64))):
        raise ValueError(f"integers: bounds must be finite, got {value!r}")
    if host.ndim == 0:
        return g.broadcast(_fresh(int(host) & _M64, _U64, device), shape)
    words = np.array([int(v) & _M64 for v in host.flat], dtype=np.uint64).reshape(host.shape)
    return g.cast(broadcast_to(asarray(words, device=device), shape)._node, _U64)


def _take(x: Array, index: Array, axis: int) -> Array:
    """``take`` of indices that are in range by construction: the library node without
    ``take``'s bounds check (which reads the indices back), so it stays lazy."""
    shape = x.shape[:axis] + index.shape + x.shape[axis + 1:]
    node = g.library("take", (x._node, g.cast(index._node, np.int64)), {"axis": axis},
                     x.dtype.np, shape)
    return Array._new(node)


def _choice_weights(p: Any, n: int, k: int, replace: bool, device: Device) -> Array:
    """``choice``'s probabilities as a float64 Array, checked as NumPy does when host data."""
    if len(_shape_of(p)) != 1:
        raise ValueError("choice: p must be 1-dimensional")
    if _shape_of(p)[0] != n:
        raise ValueError("choice: a and p must have same size")
    host = _host(p)
    if host is not None:
        if np.any(np.isnan(host)) or np.any(host < 0):
            raise ValueError("choice: probabilities are not non-negative")
        atol = builtins.max(np.sqrt(np.finfo(np.float64).eps), 1e-8)
        if abs(float(np.sum(host)) - 1.0) > atol:
            raise ValueError("choice: probabilities do not sum to 1")
        if not replace and np.count_nonzero(host) < k:
            raise ValueError("choice: fewer non-zero entries in p than size")
    return _operand(p, (n,), _work_float(device), device)


def default_rng(seed: Any = None, *, device: Any = None) -> Generator:
    """A ``Generator`` on a ``Philox`` bit generator seeded by ``seed`` (None: fresh
    entropy from the operating system); a Generator is returned as it is and a Philox is
    wrapped."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox):
        return Generator(seed, device=device)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, builtins.bool) and \
            int(seed) < 0:
        raise ValueError("default_rng: expected non-negative integer")
    return Generator(Philox(seed), device=device)


# -- the legacy RandomState -----------------------------------------------------------------
def _legacy_seed(seed: Any) -> Any:
    """NumPy's rule for RandomState seeds: None, an int in [0, 2**32), or a 1-D sequence
    of such ints."""
    if seed is None:
        return None
    values = np.asarray(seed)
    if values.dtype.kind not in "iu" or values.ndim > 1:
        raise TypeError("RandomState: seed must be an integer or a 1-d sequence of integers")
    if values.size and (values.min() < 0 or values.max() > _M32):
        raise ValueError("RandomState: Seed must be between 0 and 2**32 - 1")
    return seed


# Note: the numbers differ from NumPy's Mersenne Twister; ``get_state`` returns the Philox
# state dict (there is no MT19937 tuple); methods return 0-d arrays on the device where
# NumPy returns Python scalars.
class RandomState:
    """NumPy's legacy ``RandomState`` on a ``Philox`` bit generator; draws on ``device`` (the
    default device when None)."""

    def __init__(self, seed: Any = None, *, device: Any = None) -> None:
        self._gen = Generator(Philox(_legacy_seed(seed)), device=device)

    def __repr__(self) -> str:
        return "RandomState(Philox)"

    def seed(self, seed: Any = None) -> None:
        """Re-seed (None: fresh entropy from the operating system)."""
        self._gen._bit_generator = Philox(_legacy_seed(seed))

    def get_state(self, legacy: bool = True) -> dict[str, Any]:
        """The bit generator's state, a dict (see ``Philox.state``)."""
        return self._gen.bit_generator.state

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore a state that ``get_state`` returned."""
        self._gen.bit_generator.state = state

    def random_sample(self, size: Any = None) -> Array:
        """Uniform float64 in [0, 1)."""
        return self._gen.random(size)

    def random(self, size: Any = None) -> Array:
        """Uniform float64 in [0, 1)."""
        return self._gen.random(size)

    def rand(self, *args: int) -> Array:
        """Uniform float64 in [0, 1) of shape ``args``."""
        return self._gen.random(_dims("rand", args))

    def randn(self, *args: int) -> Array:
        """Standard normal float64 of shape ``args``."""
        return self._gen.standard_normal(_dims("randn", args))

    def randint(self, low: Any, high: Any = None, size: Any = None,
                dtype: Any = int) -> Array:
        """Uniform integers in [low, high) ([0, low) without ``high``)."""
        return self._gen.integers(low, high, size, dtype=dtype)

    def standard_normal(self, size: Any = None) -> Array:
        """Standard normal float64."""
        return self._gen.standard_normal(size)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Array:
        """Normal float64 of mean ``loc`` and standard deviation ``scale``."""
        return self._gen.normal(loc, scale, size)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Array:
        """Uniform float64 in [low, high)."""
        return self._gen.uniform(low, high, size)

    def standard_exponential(self, size: Any = None) -> Array:
        """Exponential float64 of mean 1."""
        return self._gen.standard_exponential(size)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Array:
        """Exponential float64 of mean ``scale``."""
        return self._gen.exponential(scale, size)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Array:
        """Poisson int64 of mean ``lam``."""
        return self._gen.poisson(lam, size)

    def binomial(self, n: Any, p: Any, size: Any = None) -> Array:
        """Binomial int64 of ``n`` trials of probability ``p``."""
        return self._gen.binomial(n, p, size)

    def multivariate_normal(self, mean: Any, cov: Any, size: Any = None,
                            check_valid: str = "warn", tol: float = 1e-8) -> Array:
        """Normal vectors of mean ``mean`` and covariance ``cov`` (through an SVD)."""
        return self._gen.multivariate_normal(mean, cov, size, check_valid, tol)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Array:
        """Samples from ``arange(a)`` or the 1-D ``a``."""
        if not isinstance(a, (int, np.integer)) and len(_shape_of(a)) > 1:
            raise ValueError("choice: a must be 1-dimensional or an integer")
        return self._gen.choice(a, size, replace, p)

    def permutation(self, x: Any) -> Array:
        """A permuted ``arange(x)``, or a permuted copy of ``x`` along its first axis."""
        return self._gen.permutation(x)

    def shuffle(self, x: Any) -> None:
        """Permute ``x`` in place along its first axis."""
        self._gen.shuffle(x)

    def bytes(self, length: int) -> builtins.bytes:
        """``length`` random bytes."""
        return self._gen.bytes(length)


def _legacy_method(name: str) -> Any:
    """RandomState's ``name``: the Generator's, with NumPy's legacy parameters (its
    ``_legacy_<name>`` where the legacy checks differ)."""
    params = LEGACY[name]
    target = f"_legacy_{name}" if hasattr(Generator, f"_legacy_{name}") else name

    def method(self: RandomState, *args: Any, **kwargs: Any) -> Array:
        return getattr(self._gen, target)(*args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"{name}({', '.join(params + ('size',))}): as "
                      f"``Generator.{name}``.")
    return method


for _name in LEGACY:
    setattr(RandomState, _name, _legacy_method(_name))


def _module_function(name: str) -> Any:
    def function(*args: Any, **kwargs: Any) -> Array:
        return getattr(_state(), name)(*args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``RandomState.{name}`` of the global RandomState."
    return function


def _dims(name: str, args: tuple[Any, ...]) -> tuple[int, ...]:
    for a in args:
        if not isinstance(a, (int, np.integer)) or isinstance(a, builtins.bool):
            raise TypeError(f"{name}: '{type(a).__name__}' object cannot be interpreted as "
                            "an integer")
    return _shape(name, tuple(int(a) for a in args))


# -- module functions on a global RandomState -----------------------------------------------
_global: RandomState | None = None


def _state() -> RandomState:
    global _global
    if _global is None:
        _global = RandomState()
    return _global


def seed(seed: Any = None) -> None:
    """Re-seed the global RandomState."""
    _state().seed(seed)


def get_state(legacy: bool = True) -> dict[str, Any]:
    """The global RandomState's state."""
    return _state().get_state(legacy)


def set_state(state: dict[str, Any]) -> None:
    """Restore the global RandomState's state."""
    _state().set_state(state)


def rand(*args: int) -> Array:
    """Uniform float64 in [0, 1) of shape ``args``."""
    return _state().rand(*args)


def randn(*args: int) -> Array:
    """Standard normal float64 of shape ``args``."""
    return _state().randn(*args)


def random(size: Any = None) -> Array:
    """Uniform float64 in [0, 1)."""
    return _state().random(size)


def random_sample(size: Any = None) -> Array:
    """Uniform float64 in [0, 1)."""
    return _state().random_sample(size)


def randint(low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Array:
    """Uniform integers in [low, high) ([0, low) without ``high``)."""
    return _state().randint(low, high, size, dtype)


def standard_normal(size: Any = None) -> Array:
    """Standard normal float64."""
    return _state().standard_normal(size)


def normal(loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Array:
    """Normal float64 of mean ``loc`` and standard deviation ``scale``."""
    return _state().normal(loc, scale, size)


def uniform(low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Array:
    """Uniform float64 in [low, high)."""
    return _state().uniform(low, high, size)


def standard_exponential(size: Any = None) -> Array:
    """Exponential float64 of mean 1."""
    return _state().standard_exponential(size)


def exponential(scale: Any = 1.0, size: Any = None) -> Array:
    """Exponential float64 of mean ``scale``."""
    return _state().exponential(scale, size)


def poisson(lam: Any = 1.0, size: Any = None) -> Array:
    """Poisson int64 of mean ``lam``."""
    return _state().poisson(lam, size)


def binomial(n: Any, p: Any, size: Any = None) -> Array:
    """Binomial int64 of ``n`` trials of probability ``p``."""
    return _state().binomial(n, p, size)


def multivariate_normal(mean: Any, cov: Any, size: Any = None, check_valid: str = "warn",
                        tol: float = 1e-8) -> Array:
    """Normal vectors of mean ``mean`` and covariance ``cov``."""
    return _state().multivariate_normal(mean, cov, size, check_valid, tol)


def choice(a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Array:
    """Samples from ``arange(a)`` or the 1-D ``a``."""
    return _state().choice(a, size, replace, p)


def permutation(x: Any) -> Array:
    """A permuted ``arange(x)``, or a permuted copy of ``x`` along its first axis."""
    return _state().permutation(x)


def shuffle(x: Any) -> None:
    """Permute ``x`` in place along its first axis."""
    _state().shuffle(x)


def bytes(length: int) -> builtins.bytes:
    """``length`` random bytes from the global RandomState."""
    return _state().bytes(length)


# the legacy module functions of Distributions' methods (numpy.random.gamma(...), ...)
globals().update({_name: _module_function(_name) for _name in LEGACY})
