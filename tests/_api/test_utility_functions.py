"""any and all against NumPy 2: every dtype (non-zero is true; complex: either part), any
axes, keepdims, empty reductions (any -> False, all -> True)."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import DTYPES, Input, axes_for, check_against_numpy, elements, inputs


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
