"""Library operations on host memory: the per-device implementation table's host column.

Layer: ``_devices``. Imports nothing above it.

Matmul, sorting, cumulative sums, linear algebra decompositions, FFT and the data-dependent
set functions are graph nodes (``LIBRARY``) rather than generated kernels. A device whose
memory is the host's (cpu, reference) runs them here, on zero-copy NumPy views of its buffers,
with NumPy's BLAS/LAPACK/pocketfft underneath. A device without its own implementation of an
op gets an explicit round trip through the host, logged under the ``launch`` debug topic.

Each implementation takes host arrays and ``out`` (an array of the result's shape and dtype
to fill) plus keyword parameters. The implementations live in this package's modules, one per
family (``blas``, ``sorting``, ``linalg``, ``fft``, ``indexing``); each registers itself with
``@host_impl(name)``. Devices with their own implementations register them per device kind
with ``@device_impl(kind, name)`` (``cuda``: CuPy's cuBLAS, cuSOLVER, cuFFT and sorts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

HostImpl = Callable[..., None]

HOST: dict[str, HostImpl] = {}
#: (device kind, op name) -> an implementation on that device's own memory (its arrays are
#: the device's array type, e.g. CuPy views for ``cuda``)
DEVICE: dict[tuple[str, str], HostImpl] = {}


def host_impl(name: str) -> Callable[[HostImpl], HostImpl]:
    def register(fn: HostImpl) -> HostImpl:
        HOST[name] = fn
        return fn
    return register


def device_impl(kind: str, name: str) -> Callable[[HostImpl], HostImpl]:
    def register(fn: HostImpl) -> HostImpl:
        DEVICE[(kind, name)] = fn
        return fn
    return register


def on_device(kind: str, name: str) -> HostImpl | None:
    """The implementation of ``name`` resident on devices of ``kind``, if there is one."""
    return DEVICE.get((kind, name))


def run_host(name: str, inputs: list[np.ndarray], out: np.ndarray, params: dict[str, Any]
             ) -> None:
    """Run the host implementation of ``name`` into ``out``."""
    HOST[name](*inputs, out=out, **params)


# the families register their implementations on import (after host_impl exists)
from . import blas, cuda, fft, indexing, linalg, sorting  # noqa: E402, F401
