"""dask (``_api/_dask.py``): zyxarray arrays as the chunks of dask arrays, on every device
with the threaded scheduler, and across worker processes with ``dask.distributed``: the
chunks stay zyxarray arrays on their device through from_array, random numbers, elementwise
functions, reductions, matmul, concatenate and rechunk, and results match NumPy's."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

# (PoCL's opencl runs the backend tests, not these: tests/conftest.py, numpy_layer)
pytestmark = pytest.mark.numpy_layer

ROOT = Path(__file__).resolve().parents[2]


def _chunks(d: da.Array) -> list:
    return list(dask.compute(*d.to_delayed().ravel(), scheduler="threads"))


def _on(device: str, chunks: list) -> None:
    for c in chunks:
        assert isinstance(c, xp.Array), type(c)
        assert c.device == xp.Device(device)


def test_dask_is_registered() -> None:
    from dask.array.chunk_types import is_valid_chunk_type
    from dask.array.dispatch import concatenate_lookup
    assert is_valid_chunk_type(xp.Array)
    assert concatenate_lookup.dispatch(xp.Array) is not concatenate_lookup.dispatch(object)


def test_operations_keep_zyxarray_chunks_on_their_device(device: str) -> None:
    rng = np.random.default_rng(0)
    host = rng.standard_normal((12, 8)).astype(np.float32)
    x = xp.asarray(host, device=device)
    d = da.from_array(x, chunks=(4, 3))
    assert isinstance(d._meta, xp.Array)
    _on(device, _chunks(d))
    cases = [
        (lambda a: (a * 2 + 1).sum(axis=0), lambda h: (h * 2 + 1).sum(axis=0)),
        (lambda a: da.exp(a).mean(axis=1, keepdims=True),
         lambda h: np.exp(h).mean(axis=1, keepdims=True)),
        (lambda a: a.max(), lambda h: h.max()),
        (lambda a: a.std(axis=0), lambda h: h.std(axis=0)),
        (lambda a: a.argmin(axis=1), lambda h: h.argmin(axis=1)),
        (lambda a: a @ a.T, lambda h: h @ h.T),
        (lambda a: da.concatenate([a, a[:4]], axis=0), lambda h: np.concatenate([h, h[:4]])),
        (lambda a: a.rechunk((6, 8)).cumsum(axis=0), lambda h: h.cumsum(axis=0)),
        (lambda a: da.where(a > 0, a, 0.0)[::2, 1:5], lambda h: np.where(h > 0, h, 0)[::2, 1:5]),
        (lambda a: da.einsum("ij,ij->j", a, a), lambda h: np.einsum("ij,ij->j", h, h)),
        (lambda a: da.nansum(a, axis=1), lambda h: np.nansum(h, axis=1)),
    ]
    for fn, expected in cases:
        out = fn(d)
        _on(device, _chunks(out))
        got = out.compute(scheduler="threads")
        assert isinstance(got, xp.Array) and got.device == xp.Device(device)
        assert_close(got, expected(host).astype(np.asarray(got).dtype), rtol=1e-5, atol=1e-5)


def test_random_chunks_are_drawn_by_zyxarray() -> None:
    def draw(seed: int) -> da.Array:
        return da.random.default_rng(xp.random.default_rng(seed)).standard_normal(
            (4000,), chunks=1000)

    a = draw(5)
    chunks = _chunks(a)
    _on(xp.Device(xp.__array_namespace_info__().default_device()).name, chunks)
    values = np.asarray(a.compute(scheduler="threads"))
    np.testing.assert_array_equal(values, np.asarray(draw(5).compute(scheduler="threads")))
    assert not np.array_equal(values[:1000], values[1000:2000])   # independent chunk streams
    assert abs(values.mean()) < 0.1 and abs(values.std() - 1) < 0.1


def test_a_local_cluster_of_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Several worker processes: chunks made on the workers by zyxarray, pickled between
    them, reduced; the client gets a zyxarray array."""
    distributed = pytest.importorskip("distributed")
    # (the workers import this checkout's zyxarray, and share the session's kernel cache)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, memory_limit="1GiB") as cluster, \
            distributed.Client(cluster) as client:
        rng = da.random.default_rng(xp.random.default_rng(11))
        a = rng.random((400, 300), chunks=(100, 100))
        kinds = [f.result(timeout=120) for f in client.compute(
            [dask.delayed(lambda c: type(c).__module__)(c) for c in a.to_delayed().ravel()])]
        assert set(kinds) == {"zyxarray._api._array_object"}
        mean = client.compute((a * 2).mean(axis=0)).result(timeout=120)
        total = client.compute(da.concatenate([a, a]).sum()).result(timeout=120)
        local = np.asarray(a.compute(scheduler="threads"))
    assert isinstance(mean, xp.Array) and isinstance(total, xp.Array)
    assert_close(mean, (local * 2).mean(axis=0), rtol=1e-12, atol=0)
    assert_close(total, np.float64(2 * local.sum()), rtol=1e-12, atol=0)


def test_the_bigger_than_memory_example(monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/dask_bigger_than_memory.py at a small size: zyxarray chunks, statistics of a
    standard normal sample, results back as zyxarray arrays."""
    pytest.importorskip("distributed")
    import sys
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    sys.modules.pop("dask_bigger_than_memory", None)
    import dask_bigger_than_memory as example
    results, _, chunk_type = example.run(0.02, 2, use_numpy=False, timeout=120)
    assert chunk_type == "zyxarray._api._array_object"
    n = int(0.02 * 2**30) // (8 * example.COLUMNS) * example.COLUMNS
    mean, std = np.asarray(results["mean"]), np.asarray(results["std"])
    assert isinstance(results["mean"], xp.Array) and mean.shape == (example.COLUMNS,)
    assert abs(mean.mean()) < 0.01 and abs(std.mean() - 1) < 0.01
    assert abs(int(results["beyond_3_sigma"]) / n - 0.0027) < 0.001


def test_sizeof_measures_and_keeps_results() -> None:
    from dask.sizeof import sizeof
    x = xp.random.default_rng(1).random((100, 10))
    assert not x._node.realized
    assert sizeof(x) == 100 * 10 * x.dtype.itemsize
    assert x._node.realized                 # (a kept result is data, read by all its readers)
