"""Bad calls raise the standard's exceptions with messages that name the function and the
shapes or dtypes involved (NumPy raises the same exception types)."""

from __future__ import annotations

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close

BINARY = ["add", "subtract", "multiply", "divide", "pow", "maximum", "atan2", "equal", "less",
          "bitwise_and", "logical_or", "hypot"]


@pytest.mark.parametrize("name", BINARY)
def test_broadcast_mismatch_names_function_and_shapes(device: str, name: str) -> None:
    x = xp.asarray(np.ones((2, 3), np.int32), device=device)
    y = xp.asarray(np.ones((4,), np.int32), device=device)
    with pytest.raises(ValueError, match=rf"{name}.*\(2, 3\).*\(4,\)"):
        getattr(xp, name)(x, y)
    with pytest.raises(ValueError):
        getattr(np, {"pow": "power", "atan2": "arctan2"}.get(name, name))(
            np.ones((2, 3), np.int32), np.ones(4, np.int32))


def test_broadcast_mismatch_in_operators_and_where(device: str) -> None:
    x = xp.asarray(np.ones((2, 3)), device=device)
    y = xp.asarray(np.ones((3, 2)), device=device)
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(3, 2\)"):
        x + y
    with pytest.raises(ValueError, match="where"):
        xp.where(x > 0, x, y)
    with pytest.raises(ValueError):
        x += xp.asarray(np.ones((2, 2, 3)), device=device)


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor",
                                  "bitwise_left_shift", "bitwise_right_shift"])
def test_bitwise_on_floats_names_function_and_dtype(device: str, name: str) -> None:
    x = xp.asarray(np.ones(3, np.float32), device=device)
    with pytest.raises(TypeError, match=rf"{name}.*float32"):
        getattr(xp, name)(x, x)
    with pytest.raises(TypeError, match=name):
        getattr(xp, name)(xp.asarray(np.ones(3, np.int8), device=device), x)


def test_uint64_with_signed_names_function_and_dtypes(device: str) -> None:
    u = xp.asarray(np.ones(3, np.uint64), device=device)
    for dtype in ("int8", "int16", "int32", "int64"):
        s = xp.asarray(np.ones(3, dtype), device=device)
        with pytest.raises(TypeError, match=rf"add.*(uint64.*{dtype}|{dtype}.*uint64)"):
            xp.add(u, s)
        with pytest.raises(TypeError, match="uint64"):
            s * u
    # with a Python int the array's dtype wins (NEP 50): no error
    np.testing.assert_array_equal(np.asarray(u + 1), np.full(3, 2, np.uint64))


@pytest.mark.parametrize("name,dtype", [("negative", "bool"), ("abs", "bool"),
                                        ("floor", "complex64"), ("signbit", "int32"),
                                        ("bitwise_invert", "float64"), ("less", "complex128"),
                                        ("maximum", "complex64"), ("subtract", "bool")])
def test_wrong_dtype_category(device: str, name: str, dtype: str) -> None:
    x = xp.asarray(np.ones(2, dtype), device=device)
    fn = getattr(xp, name)
    with pytest.raises(TypeError, match=rf"{name}.*{dtype}"):
        fn(x) if name not in ("less", "maximum", "subtract") else fn(x, x)


@pytest.mark.parametrize("call", [
    lambda x: xp.sum(x, axis=3),
    lambda x: xp.mean(x, axis=-4),
    lambda x: xp.max(x, axis=(0, 3)),
    lambda x: xp.flip(x, axis=5),
    lambda x: xp.squeeze(x, axis=7),
    lambda x: xp.expand_dims(x, axis=-5),
    lambda x: xp.permute_dims(x, (0, 1, 3)),
    lambda x: xp.any(x, axis=3),
], ids=["sum", "mean", "max", "flip", "squeeze", "expand_dims", "permute_dims", "any"])
def test_invalid_axis(device: str, call) -> None:  # type: ignore[no-untyped-def]
    x = xp.asarray(np.ones((1, 2, 3)), device=device)
    with pytest.raises((ValueError, IndexError), match=r"axis|axes|permutation"):
        call(x)


def test_unsupported_dtypes_and_devices() -> None:
    with pytest.raises(TypeError, match="float128"):
        xp.zeros(3, dtype=np.longdouble)
    with pytest.raises(TypeError):
        xp.zeros(3, dtype="not a dtype")
    with pytest.raises(ValueError, match="unknown device"):
        xp.zeros(3, device="tpu:7")


def test_non_array_arguments() -> None:
    """Objects that are not array-likes are refused, naming the function; array-likes are
    taken as NumPy takes them (tests/_api/test_arguments.py)."""
    with pytest.raises(TypeError, match="sin"):
        xp.sin("1.0")
    with pytest.raises(TypeError, match="add"):
        xp.add(None, 2)
    with pytest.raises(TypeError, match="sin"):
        xp.sin([1.0, "a"])
    with pytest.raises(TypeError, match="explain"):
        xp.explain(np.ones(3))


def test_numpy_errors_for_numpy_mistakes(device: str) -> None:
    """The error NumPy raises, naming the function: the truth value of several elements, an
    integer to a negative integer power (a silent 0 before), a misspelt dtype in zeros (the
    message named ``full``), an axis out of range as ``exceptions.AxisError``."""
    x = xp.asarray([2, 3], device=device)
    for values in ([1, 2], []):
        with pytest.raises(ValueError, match="__bool__: the truth value"):
            bool(xp.asarray(values, device=device))
    assert bool(xp.asarray([[5]], device=device))
    for call in (lambda: x ** -1, lambda: xp.pow(x, xp.asarray([1, -2], device=device)),
                 lambda: 2 ** xp.asarray([1, -1], device=device)):
        with pytest.raises(ValueError, match="pow: integers to negative integer powers"):
            call()
    assert_close(x ** xp.asarray([0, 2], device=device), np.array([1, 9]))
    assert_close(xp.astype(x, xp.float64 if xp.Device(device).info.float64 else xp.float32)
                 ** -1, np.array([0.5, 1 / 3]), rtol=1e-6)
    for fn in ("zeros", "ones", "empty", "full", "zeros_like", "full_like"):
        args = {"full": (3, 1.0), "zeros_like": (x,), "full_like": (x, 1)}.get(fn, (3,))
        with pytest.raises(TypeError, match=f"^{fn}: 'flaot32' is not a data type"):
            getattr(xp, fn)(*args, dtype="flaot32")
    with pytest.raises(xp.exceptions.AxisError, match="sum: axis 5"):
        xp.sum(x, axis=5)
    assert xp.AxisError is xp.exceptions.AxisError and issubclass(xp.AxisError, IndexError)
