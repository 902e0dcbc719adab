"""NumPy's face of the array object (issue 13, item 3): NumPy's functions and ufuncs on
zyxarray arrays (``__array_function__``, ``__array_ufunc__``), printing and formatting,
pickling and copying, dtypes and scalar types, against NumPy on every device."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close

H = np.array([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]])


def _on(device: str, h: Any = H) -> Any:
    return xp.asarray(h, device=device)


@pytest.mark.parametrize("call", [
    pytest.param(lambda m, x: m.exp(x), id="exp"),
    pytest.param(lambda m, x: m.add(x, 1), id="add-scalar"),
    pytest.param(lambda m, x: m.maximum(x, x[0]), id="maximum-broadcast"),
    pytest.param(lambda m, x: m.absolute(x), id="absolute"),
    pytest.param(lambda m, x: m.true_divide(x, 4), id="true_divide"),
    pytest.param(lambda m, x: m.add.reduce(x, axis=1), id="add.reduce"),
    pytest.param(lambda m, x: m.maximum.reduce(x), id="maximum.reduce"),
    pytest.param(lambda m, x: m.multiply.accumulate(x, axis=1), id="multiply.accumulate"),
    pytest.param(lambda m, x: m.maximum.accumulate(x, axis=1), id="maximum.accumulate"),
    pytest.param(lambda m, x: m.add.reduceat(x, [0, 2], axis=1), id="add.reduceat"),
    pytest.param(lambda m, x: m.subtract.outer(x[0], x[1]), id="subtract.outer"),
    pytest.param(lambda m, x: m.sum(x, axis=0), id="sum"),
    pytest.param(lambda m, x: m.mean(x), id="mean"),
    pytest.param(lambda m, x: m.concatenate([x, x], axis=1), id="concatenate"),
    pytest.param(lambda m, x: m.where(x > 0, x, 0.0), id="where"),
    pytest.param(lambda m, x: m.transpose(x), id="transpose"),
    pytest.param(lambda m, x: m.linalg.norm(x), id="linalg.norm"),
    pytest.param(lambda m, x: m.ptp(x, axis=1), id="ptp"),
])
def test_numpy_functions_run_on_the_device(device: str, call: Any) -> None:
    """``numpy.f(x)`` on a zyxarray array gives a zyxarray array on x's device."""
    x = _on(device)
    got = call(np, x)
    assert isinstance(got, xp.Array), type(got)
    assert got.device == x.device
    assert_close(got, call(np, H), rtol=1e-12)


def test_numpy_running_extrema_and_reduceat_stay_on_the_device(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``numpy.maximum.accumulate(x)`` and ``numpy.add.reduceat(x, ...)`` on a zyxarray
    array run as zyxarray's ufunc methods, not through NumPy on host copies (a logged round
    trip); ``numpy.subtract.accumulate``, which zyxarray lacks, still takes that trip."""
    from zyxarray._api import _numpy_protocols
    trips: list[str] = []
    on_host = _numpy_protocols._on_host
    monkeypatch.setattr(_numpy_protocols, "_on_host",
                        lambda name, *a, **k: trips.append(name) or on_host(name, *a, **k))
    x = _on("cpu")
    assert_close(np.maximum.accumulate(x, axis=1), np.maximum.accumulate(H, axis=1))
    assert_close(np.logical_or.accumulate(x > 0), np.logical_or.accumulate(H > 0))
    assert_close(np.minimum.reduceat(x, [0, 1], axis=1), np.minimum.reduceat(H, [0, 1], axis=1))
    assert trips == []
    assert_close(np.subtract.accumulate(x, axis=1), np.subtract.accumulate(H, axis=1))
    assert trips == ["numpy.subtract.accumulate"]


def test_numpy_ufunc_out_and_where(device: str) -> None:
    x = _on(device)
    out = xp.zeros((2, 3), device=device)
    row = out[0]
    r = np.multiply(x, 2, out=out)
    assert r is out
    assert_close(out, H * 2)
    assert_close(row, H[0] * 2)             # written in place: the view sees it
    np.add(x, 100, out=out, where=x > 0)
    expected = H * 2
    np.add(H, 100, out=expected, where=H > 0)
    assert_close(out, expected)


def test_a_numpy_function_zyxarray_lacks_runs_on_a_host_copy(device: str) -> None:
    """No zyxarray implementation (here ``numpy.unwrap``): NumPy computes on host copies and
    the result comes back to the device (a logged round trip), instead of failing."""
    x = _on(device, np.array([0.0, 3.0, 6.5, 0.2]))
    got = np.unwrap(x)
    assert isinstance(got, xp.Array) and got.device == x.device
    assert_close(got, np.unwrap(np.array([0.0, 3.0, 6.5, 0.2])), rtol=1e-12)


def test_repr_str_and_format_as_numpy(device: str) -> None:
    cases = [np.array([1.0, 2.0]), np.array([1, 2], np.int32), np.array([True, False]),
             np.array([[1.5, 2.25]], np.float32), np.array(3.5), np.array([1 + 2j])]
    for h in cases:
        x = _on(device, h)
        text = repr(x)
        if device != "cpu":
            assert text.endswith(f", device='{device}')")
            text = text[: -len(f", device='{device}')")] + ")"
        assert text == repr(h)
        assert str(x) == str(h)
    s = xp.sum(_on(device))
    assert f"{s:.3f}" == f"{H.sum():.3f}" and f"{s}" == f"{H.sum()}"
    assert f"{_on(device, np.array(7, np.int64)):04d}" == "0007"
    with pytest.raises(TypeError):
        f"{_on(device):.2f}"
    assert repr(xp.float32) == repr(np.dtype(np.float32)) and str(xp.int8) == "int8"


def test_pickle_and_copy(device: str) -> None:
    x = _on(device)
    for y in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x)):
        assert isinstance(y, xp.Array) and y.device == x.device and y.dtype == x.dtype
        assert_close(y, H)
        y[0, 0] = 99.0                    # a copy: x keeps its values
    assert_close(x, H)
    assert pickle.loads(pickle.dumps(xp.float32)) is xp.float32


def test_unpickling_on_a_machine_without_the_device(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error naming the device and the way out; or, as configured, the default device or
    a named one, with a warning."""
    from zyxarray._api._array_object import _rebuild
    monkeypatch.delenv("ZYXARRAY_UNPICKLE_DEVICE", raising=False)
    with pytest.raises(ValueError, match=r"no such device.*unpickle_device"):
        _rebuild(np.zeros(2), "cuda:7")
    for setting, where in (("default", xp.__array_namespace_info__().default_device()),
                           ("reference", xp.Device("reference"))):
        monkeypatch.setenv("ZYXARRAY_UNPICKLE_DEVICE", setting)
        with pytest.warns(RuntimeWarning, match="'cuda:7'.*unpickle_device"):
            y = _rebuild(np.array([1.0, 2.0]), "cuda:7")
        assert y.device == where
        assert_close(y, np.array([1.0, 2.0]))


def test_scalars_reductions_and_dtypes_behave_like_numpy(device: str) -> None:
    x = _on(device)
    total = xp.sum(x)
    assert float(total) == H.sum() and total > 5 and not total < 5
    n = xp.sum(_on(device, np.array([1, 2])))
    assert list(range(n)) == [0, 1, 2] and H[n - 2, n - 1] == H[1, 2]
    assert xp.float64(3) == 3.0 and isinstance(xp.float64(3), np.float64)
    assert xp.int32(7.9) == 7
    assert_close(xp.float32(x), H.astype(np.float32))
    assert xp.dtype("float32") is xp.float32 and xp.dtype(np.int16) is xp.int16
    assert np.dtype(xp.float32) == np.float32 and x.dtype == np.float64
    assert xp.issubdtype(x.dtype, xp.floating) and not xp.issubdtype(x.dtype, xp.integer)
    assert np.issubdtype(xp.int8, np.signedinteger)
    assert xp.promote_types(xp.int8, np.uint8) == xp.int16
    assert xp.min_scalar_type(300) == xp.uint16
    assert isinstance(x, xp.ndarray) and not xp.isscalar(x) and xp.isscalar(3.0)
    with pytest.raises(TypeError, match="not supported by zyxarray"):
        xp.zeros(3, dtype=xp.object_)


def test_array_and_copy(device: str) -> None:
    x = _on(device)
    a = xp.array(x)
    b = xp.asarray(x)
    c = xp.array([[1, 2], [3, 4]], dtype=xp.float32, ndmin=3)
    assert c.shape == (1, 2, 2) and c.dtype == xp.float32
    x[0, 0] = -7.0
    assert float(a[0, 0]) == 1.5 and float(b[0, 0]) == -7.0      # copy / no copy
    stacked = xp.asarray([x[0], x[1]])              # a list of device arrays: stacked there
    assert stacked.device == x.device
    assert_close(stacked, np.asarray(x))
    assert_close(xp.copy([1, 2]), np.array([1, 2]))
    with pytest.raises(ValueError, match="infs or NaNs"):
        xp.asarray_chkfinite([1.0, np.inf])
    assert_close(xp.identity(3), np.identity(3))


def _double(x: xp.Array) -> xp.Array:
    return x * 2


def test_arrays_of_every_device_cross_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """multiprocessing (a spawned pool: a fresh interpreter) sends arrays of each device to a
    child and back; each comes back on its device with its values."""
    import multiprocessing
    import os
    from pathlib import Path

    from zyxarray._devices import registry
    root = str(Path(__file__).resolve().parents[2])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [root, *filter(None, [os.environ.get("PYTHONPATH")])]))
    arrays = [xp.asarray(H, device=name) for name in registry.devices()]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        back = pool.map(_double, arrays, chunksize=len(arrays))
    for a, b in zip(arrays, back):
        assert isinstance(b, xp.Array) and b.device == a.device
        assert_close(b, H * 2)
