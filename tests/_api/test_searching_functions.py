"""where against NumPy 2: three-way broadcasting, promotion of x1/x2 (arrays and Python
scalars), non-bool conditions (truth value), and mixing devices."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import DTYPES, SIGNED, Input, check_against_numpy, inputs


@given(data=st.data())
def test_where(device: str, data: st.DataObject) -> None:
    cshape, s1, s2 = data.draw(hnp.mutually_broadcastable_shapes(
        num_shapes=3, min_dims=0, max_dims=3, min_side=0, max_side=3)).input_shapes
    cdtype = data.draw(st.sampled_from(("bool", "bool", "int8", "float64")), label="cond")
    d1 = data.draw(st.sampled_from(DTYPES), label="dtype1")
    d2 = data.draw(st.one_of(st.just(d1), st.sampled_from(DTYPES)), label="dtype2")
    if {d1, d2} & {"uint64"} and {d1, d2} & set(SIGNED):
        d2 = d1                           # refused pairing: tested in test_errors
    c = data.draw(inputs(cdtype, cshape), label="condition")
    a = data.draw(inputs(d1, s1), label="x1")
    b = data.draw(inputs(d2, s2), label="x2")
    check_against_numpy(device, xp.where, np.where, [c, a, b], kind="exact")


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "complex64", "bool"])
def test_where_with_python_scalars(device: str, dtype: str) -> None:
    """A Python scalar branch is weak (NEP 50): the array's dtype wins where it can hold it."""
    c = Input(np.array([True, False, True]), [])
    x = Input(np.array([1, 0, 1], dtype), [])
    for s in (True, 1, 2.5, 1j):
        if isinstance(s, complex) and dtype != "complex64":
            continue
        if isinstance(s, float) and dtype in ("bool", "int8", "uint8"):
            continue
        if isinstance(s, int) and not isinstance(s, bool) and dtype == "bool":
            continue
        # the scalar as a 0-d NumPy array of the weakly promoted dtype
        s_np = np.asarray(s, dtype=np.result_type(np.zeros(0, dtype), s))
        check_against_numpy(device, partial(_where_scalar_second, s=s),
                            partial(_where_scalar_second, s=s_np, lib=np), [c, x])
        check_against_numpy(device, partial(_where_scalar_first, s=s),
                            partial(_where_scalar_first, s=s_np, lib=np), [c, x])


def _where_scalar_second(cond: Any, arr: Any, s: Any, lib: Any = xp) -> Any:
    return lib.where(cond, arr, s)


def _where_scalar_first(cond: Any, arr: Any, s: Any, lib: Any = xp) -> Any:
    return lib.where(cond, s, arr)


def test_where_errors(device: str) -> None:
    x = xp.asarray([1.0, 2.0], device=device)
    with pytest.raises(ValueError, match="where"):
        xp.where(xp.asarray([True, False, True], device=device), x, x)
    other = "reference" if device != "reference" else "cpu"
    with pytest.raises(ValueError):
        xp.where(xp.asarray([True, False], device=other), x, x)
    with pytest.raises(ValueError):
        xp.where(xp.asarray([True, False], device=device), x, x.to_device(other))


def test_where_with_python_bool_condition(device: str) -> None:
    x = xp.asarray([1.0, 2.0], device=device)
    y = xp.where(True, x, 0.0)
    assert y.device.name == device
    np.testing.assert_array_equal(np.asarray(y), [1.0, 2.0])
