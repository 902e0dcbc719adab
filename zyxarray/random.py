"""zyxarray.random: NumPy's ``numpy.random``, drawn on the device inside the kernels.

``default_rng(seed)`` gives a ``Generator`` on a ``Philox`` (counter-based) bit generator;
``RandomState`` and the module functions (``seed``, ``rand``, ``randn``, ...) are the legacy
interface on a global RandomState. Draws are lazy elementwise expressions that fuse into
their consumers; the same seed gives the same numbers on every device. This module only
re-exports the public names.
"""

from __future__ import annotations

import numpy as _np

from ._api import _random as _impl
from ._api._numpy_args import Unsupported as _Unsupported
from ._api._random import (
    Generator,
    Philox,
    RandomState,
    binomial,
    bytes,
    choice,
    default_rng,
    exponential,
    get_state,
    multivariate_normal,
    normal,
    permutation,
    poisson,
    rand,
    randint,
    randn,
    random,
    random_sample,
    seed,
    set_state,
    shuffle,
    standard_exponential,
    standard_normal,
    uniform,
)
from ._api._random_distributions import LEGACY as _LEGACY

#: NumPy's host-side entropy pool: a seed for ``default_rng`` and ``Philox``, and ``spawn``
#: for independent streams
SeedSequence = _np.random.SeedSequence

_SEQUENTIAL = ("zyxarray draws random numbers inside its kernels with Philox4x32-10, a "
               "counter-based generator; {} is a sequential generator, whose stream cannot be "
               "computed in parallel on a device. Use default_rng(seed) or "
               "Generator(Philox(seed)) (seeds may be SeedSequences)")
PCG64, PCG64DXSM, MT19937, SFC64 = (
    _Unsupported(f"random.{_n}", _SEQUENTIAL.format(_n))
    for _n in ("PCG64", "PCG64DXSM", "MT19937", "SFC64"))

# the distributions of _random_distributions, as legacy module functions
globals().update({_n: getattr(_impl, _n) for _n in _LEGACY})

__all__ = [
    "Generator", "MT19937", "PCG64", "PCG64DXSM", "Philox", "RandomState", "SFC64",
    "SeedSequence", "binomial", "bytes", "choice", "default_rng",
    "exponential", "get_state", "multivariate_normal", "normal", "permutation", "poisson",
    "rand", "randint", "randn", "random", "random_sample", "seed", "set_state", "shuffle",
    "standard_exponential", "standard_normal", "uniform", *sorted(_LEGACY),
]
