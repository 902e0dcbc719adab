"""dask: zyxarray arrays as the chunks of ``dask.array`` arrays.

Layer: ``_api``. Most of what dask does to a chunk goes through NumPy's protocols, which
zyxarray arrays route to zyxarray (``__array_function__``, ``__array_ufunc__``):
``numpy.sum(chunk, axis=0, keepdims=True)`` runs ``zyxarray.sum`` on the chunk's device. The
rest goes through dask's dispatch tables, which ``register`` fills for ``Array`` as dask's
own code fills them for CuPy: concatenation, ``take``, ``tensordot``, ``einsum``, empty
arrays, percentiles, element counts and conversion to NumPy; and ``Array`` is registered as
a chunk type, so dask arrays of zyxarray chunks mix with NumPy scalars and arrays as those of
CuPy chunks do.

Laziness across tasks: with dask's local schedulers a task's result is passed to the next
tasks as it is, so a chunk that is never observed stays a graph and fuses into the kernels
of the tasks that read it (a chunk of random numbers is drawn inside the reduction that
sums it, and never stored). ``dask.distributed`` keeps task results in worker memory and
measures each with ``sizeof``: zyxarray's ``sizeof`` realizes the array there, so a kept
result is data that its readers share (as a NumPy chunk would be), and its size is right.

zyxarray does not import dask: ``install`` registers at once if ``dask.array`` is already
imported, and otherwise puts a one-shot finder on ``sys.meta_path`` that registers right
after ``dask.array`` finishes importing.

Random numbers: ``da.random.default_rng(zyxarray.random.default_rng(seed))`` draws every
chunk on the workers with a zyxarray generator (dask spawns one ``Philox`` per chunk from
the seed's ``SeedSequence``), so the numbers never exist on the client.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

import numpy as np

from .._lazy.realize import realize
from ._array_object import Array

_registered = False


def register() -> None:
    """Fill dask's dispatch tables for zyxarray arrays (once)."""
    global _registered
    if _registered:
        return
    _registered = True
    from dask.array import backends, dispatch
    from dask.array.chunk_types import register_chunk_type

    import zyxarray as xp

    def concatenate(arrays: Any, axis: int = 0) -> Array:
        return xp.concat(list(arrays), axis=axis)

    def einsum(*operands: Any, **kwargs: Any) -> Array:
        kwargs.pop("casting", None)        # (NumPy's casting and order mean nothing here)
        kwargs.pop("order", None)
        return xp.einsum(*operands, **kwargs)

    def divide(x1: Any, x2: Any, dtype: Any = None) -> Array:
        out = xp.divide(x1, x2)          # (dask passes NumPy's ufunc keyword dtype=)
        return out if dtype is None else xp.astype(out, dtype)

    dispatch.concatenate_lookup.register(Array, concatenate)
    dispatch.take_lookup.register(Array, xp.take)
    dispatch.tensordot_lookup.register(Array, xp.tensordot)
    dispatch.einsum_lookup.register(Array, einsum)
    dispatch.empty_lookup.register(Array, xp.empty)
    dispatch.divide_lookup.register(Array, divide)
    dispatch.percentile_lookup.register(Array, backends.percentile)
    dispatch.numel_lookup.register(Array, backends._numel_arraylike)
    dispatch.nannumel_lookup.register(Array, backends._nannumel)
    dispatch.to_numpy_dispatch.register(Array, lambda data, **kwargs: np.asarray(data))
    register_chunk_type(Array)

    from dask.sizeof import sizeof

    @sizeof.register(Array)
    def sizeof_array(x: Array) -> int:
        # dask.distributed measures every task result it keeps: a kept result is data that
        # each task needing it reads, not a graph that each of them would compute again
        # (a chunk of random numbers read by four reductions would be drawn four times), so
        # it is realized here, on its device, and its size is its bytes there.
        realize(x._node)
        return int(x.nbytes)


class _RegisterAfter(importlib.abc.Loader):
    """A loader that runs another loader, then ``register``."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        register()


class _DaskFinder(importlib.abc.MetaPathFinder):
    """Finds nothing itself: when ``dask.array`` is imported, it takes the spec the other
    finders give and has its module register zyxarray once executed (then leaves)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "dask.array":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _RegisterAfter(spec.loader)
        return spec


def install() -> None:
    """Register with dask now if ``dask.array`` is imported, else when it is."""
    if "dask.array" in sys.modules:
        register()
    elif not any(isinstance(f, _DaskFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _DaskFinder())
