"""Mixed devices: every public function of the namespace (and of ``linalg`` and ``fft``)
refuses arrays on two devices with the same ValueError, naming the function and both
devices, before any work; the operators do too. Run with ``cpu`` and ``reference``, which
every machine has."""

from __future__ import annotations

import types

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._api._device_checks import UNCHECKED
from zyxarray._lazy.realize import stats


def _public() -> list[tuple[str, object]]:
    out = []
    for module, prefix in ((xp, ""), (xp.linalg, "linalg."), (xp.fft, "fft.")):
        for name in module.__all__:
            fn = getattr(module, name, None)
            if isinstance(fn, types.FunctionType) and name not in UNCHECKED:
                out.append((prefix + name, fn))
    return out


PUBLIC = _public()


def _pair() -> tuple[xp.Array, xp.Array]:
    a = xp.asarray(np.arange(1.0, 10.0).reshape(3, 3), device="cpu")
    b = xp.asarray(np.arange(1.0, 10.0).reshape(3, 3), device="reference")
    return a, b


def test_the_namespace_is_covered() -> None:
    assert len(PUBLIC) > 300
    names = {n for n, _ in PUBLIC}
    for must in ("matmul", "einsum", "tensordot", "where", "concat", "stack", "isin",
                 "searchsorted", "take", "linalg.solve", "linalg.lstsq", "fft.fft",
                 "intersect1d", "allclose", "vecdot", "broadcast_arrays", "meshgrid"):
        assert must in names, must


@pytest.mark.parametrize("name", [n for n, _ in PUBLIC])
def test_mixed_devices_are_refused_before_any_work(name: str) -> None:
    fn = dict(PUBLIC)[name]
    a, b = _pair()
    launches = stats.get("kernels", 0)
    for call in (lambda: fn(a, b), lambda: fn([a, b]), lambda: fn(a, x2=b)):
        with pytest.raises(ValueError, match=r"arrays are on different devices \(cpu, "
                                             r"reference\)") as e:
            call()
        assert str(e.value).startswith(fn.__name__ + ":"), str(e.value)
    assert stats.get("kernels", 0) == launches


def test_the_message_names_the_function() -> None:
    a, b = _pair()
    with pytest.raises(ValueError, match=r"^tensordot: arrays are on different devices"):
        xp.tensordot(a, b)
    with pytest.raises(ValueError, match=r"^solve: arrays are on different devices"):
        xp.linalg.solve(a, b)
    with pytest.raises(ValueError, match=r"^concat: arrays are on different devices"):
        xp.concat((a, b))


def test_operators_check_too() -> None:
    a, b = _pair()
    for op in (lambda: a @ b, lambda: a + b, lambda: a < b, lambda: a.__rmatmul__(b)):
        with pytest.raises(ValueError, match="different devices"):
            op()
    i = xp.asarray([0, 1], device="reference")
    with pytest.raises(ValueError, match="index array is on reference"):
        a[i]
    with pytest.raises(ValueError, match="value is on reference"):
        a[0] = b[0]


def test_one_device_and_the_unchecked_functions_still_work() -> None:
    a, b = _pair()
    np.testing.assert_allclose(np.asarray(xp.matmul(a, a)), np.asarray(a) @ np.asarray(a))
    assert xp.asarray(b, device="cpu").device == a.device        # moving data is the point
    assert xp.result_type(a, b) == xp.float64
    assert xp.concat([a, xp.asarray(b, device="cpu")]).shape == (6, 3)
