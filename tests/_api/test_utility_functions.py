"""any and all against NumPy 2: every dtype (non-zero is true; complex: either part), any
axes, keepdims, empty reductions (any -> False, all -> True); diff (n, axis, prepend and
append)."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import (
    DTYPES,
    Input,
    assert_close,
    axes_for,
    check_against_numpy,
    elements,
    inputs,
)


@pytest.mark.parametrize("name", ["any", "all"])
@given(data=st.data())
def test_any_all(device: str, name: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(DTYPES), label="dtype")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    # mostly zeros, so that both answers occur
    elems = st.one_of(st.just(np.zeros((), dtype).item()), elements(dtype))
    if dtype in ("complex64", "complex128"):
        elems = st.one_of(elems, st.sampled_from([1j, -0.0 + 0j, 2 + 0j]))
    a = data.draw(inputs(dtype, shape, elems), label="x")
    axis = data.draw(axes_for(len(shape)), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    check_against_numpy(device, lambda x: getattr(xp, name)(x, axis=axis, keepdims=keepdims),
                        lambda x: getattr(np, name)(x, axis=axis, keepdims=keepdims), [a])


def test_empty_any_all(device: str) -> None:
    e = Input(np.zeros((0, 2), np.int32), [])
    for name in ("any", "all"):
        for axis in (None, 0, 1):
            check_against_numpy(device, partial(getattr(xp, name), axis=axis),
                                partial(getattr(np, name), axis=axis), [e])


def test_nan_is_true(device: str) -> None:
    x = Input(np.array([np.nan, 0.0, -0.0]), [])
    check_against_numpy(device, xp.any, np.any, [x])
    check_against_numpy(device, lambda v: xp.all(v[:1]), lambda v: np.all(v[:1]), [x])


# -- diff ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "uint8", "float64", "complex64"])
def test_diff(device: str, dtype: str) -> None:
    """n-th differences along any axis; bool differences are xor; unsigned wrap around."""
    base = np.array([[1, 0, 3, 3, 7], [0, 0, 1, 5, 2], [9, 4, 1, 0, 0]]).astype(dtype)
    if dtype == "float64":
        base[1, 1] = np.nan
    a = Input(base, [])
    for n, axis in ((1, -1), (2, 0), (0, 1), (7, 0)):
        check_against_numpy(device, partial(xp.diff, n=n, axis=axis),
                            partial(np.diff, n=n, axis=axis), [a])
    view = Input(base, [("permute", (1, 0)), ("index", (slice(None, None, -2),))])
    check_against_numpy(device, partial(xp.diff, axis=0), partial(np.diff, axis=0), [view])


def test_diff_prepend_append(device: str) -> None:
    a = Input(np.arange(12, dtype=np.float32).reshape(3, 4) ** 2, [])
    pre = Input(np.array([[-1.0], [-2.0], [-3.0]], np.float32), [])
    app = Input(np.ones((3, 2), np.float32), [])
    check_against_numpy(device, lambda x, p, q: xp.diff(x, prepend=p, append=q),
                        lambda x, p, q: np.diff(x, prepend=p, append=q), [a, pre, app])
    check_against_numpy(device, lambda x, p: xp.diff(x, axis=0, n=2, append=p),
                        lambda x, p: np.diff(x, axis=0, n=2, append=p),
                        [a, Input(np.zeros((1, 4), np.float32), [])])
    # Python and NumPy scalars are one slice along the axis (NumPy leniency)
    for value in (0, 2.5, np.float32(2.5)):
        check_against_numpy(device, lambda x, v=value: xp.diff(x, axis=0, prepend=v, append=v),
                            lambda x, v=value: np.diff(x, axis=0, prepend=v, append=v), [a])
    # NumPy's positional order: diff(x, n, axis)
    x, e = a.on(device), a.np
    assert_close(xp.diff(x, 2, 0), np.diff(e, 2, 0))


def test_diff_errors(device: str) -> None:
    x = xp.asarray(np.ones((2, 3)), device=device)
    with pytest.raises((ValueError, IndexError)):           # NumPy: AxisError
        xp.diff(x, axis=2)
    with pytest.raises(ValueError, match="n"):
        xp.diff(x, n=-1)
    with pytest.raises(ValueError):                          # NumPy 2: ValueError too
        xp.diff(xp.asarray(1.0, device=device))
    with pytest.raises(ValueError):                          # shapes differ off the axis
        xp.diff(x, prepend=xp.ones((3, 1), device=device))
