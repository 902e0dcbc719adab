"""astype, can_cast, result_type, finfo, iinfo, isdtype against NumPy 2."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import zyxarray as xp
from tests.helpers import (
    COMPLEX,
    DTYPES,
    FLOAT,
    INTEGER,
    REAL_FLOAT,
    Input,
    assert_close,
    check_against_numpy,
    elements,
    inputs,
)


def _source_elements(src: str, dst: str) -> st.SearchStrategy:
    """Values whose conversion the standard defines: a float going to an integer dtype must
    be finite and in range (C leaves the rest undefined, and so does the standard)."""
    s, d = np.dtype(src), np.dtype(dst)
    if s.kind in "fc" and d.kind in "iu":
        info = np.iinfo(d)
        lo, hi = max(float(info.min), -1e15), min(float(info.max), 1e15)
        if s in (np.float32, np.complex64):
            # bounds representable in float32, rounded inward
            lo32, hi32 = np.float32(lo), np.float32(hi)
            if lo32 < lo:
                lo32 = np.nextafter(lo32, np.float32(0))
            if hi32 > hi:
                hi32 = np.nextafter(hi32, np.float32(0))
            lo, hi = float(lo32), float(hi32)
        return elements(src, lo=lo, hi=hi, specials=False)
    return elements(src)


@given(data=st.data())
def test_astype(device: str, data: st.DataObject) -> None:
    src = data.draw(st.sampled_from(DTYPES), label="from")
    dst = data.draw(st.sampled_from(DTYPES), label="to")
    if src in COMPLEX and dst not in COMPLEX + ("bool",):
        # the standard leaves complex -> real undefined (NumPy drops the imaginary part)
        dst = data.draw(st.sampled_from(COMPLEX + ("bool",)), label="to (complex source)")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    a = data.draw(inputs(src, shape, _source_elements(src, dst)), label="x")
    check_against_numpy(device, lambda x: xp.astype(x, getattr(xp, dst)),
                        lambda x: x.astype(dst), [a], kind="exact")


def test_astype_copy_and_device(device: str) -> None:
    x = xp.asarray([1, 2, 3], device=device)
    assert xp.astype(x, xp.int64, copy=False) is x
    y = xp.astype(x, xp.int64)
    assert y is not x
    assert_close(y, np.array([1, 2, 3]))
    other = "reference" if device != "reference" else "cpu"
    z = xp.astype(x, xp.float32, device=other)
    assert z.device.name == other
    assert_close(z, np.array([1, 2, 3], np.float32))
    with pytest.raises(TypeError, match="astype"):
        xp.astype([1, 2], xp.int8)
    with pytest.raises(TypeError, match="astype"):
        xp.astype(x, np.longdouble)


def test_float_to_int_truncates(device: str) -> None:
    a = np.array([2.9, -2.9, 0.5, -0.5, 127.99, -128.5], np.float64)
    for dst in ("int8", "int64", "int32"):
        check_against_numpy(device, lambda x, d=dst: xp.astype(x, getattr(xp, d)),
                            partial(np.asarray, dtype=dst), [Input(a, [])])


def test_bool_conversion_is_nonzero(device: str) -> None:
    for dtype, values in (("float64", [0.0, -0.0, 0.5, np.nan, np.inf]),
                          ("complex128", [0j, 1j, -0.0 + 0j, 2 + 0j]),
                          ("int8", [0, -1, 5]), ("uint64", [0, 2**63])):
        check_against_numpy(device, lambda x: xp.astype(x, xp.bool),
                            lambda x: x.astype(bool), [Input(np.array(values, dtype), [])])


def test_result_type_and_can_cast() -> None:
    for d1 in DTYPES:
        for d2 in DTYPES:
            a, b = getattr(xp, d1), getattr(xp, d2)
            assert xp.can_cast(a, b) == np.can_cast(d1, d2, "safe"), (d1, d2)
    assert xp.result_type(xp.int8, 1) == xp.int8
    assert xp.result_type(xp.int8, 1.0) == xp.float64
    assert xp.result_type(xp.float32, 1j) == xp.complex64
    assert xp.result_type(xp.bool, True) == xp.bool
    assert xp.result_type(xp.asarray([1], dtype=xp.int16), xp.int32) == xp.int32
    with pytest.raises(TypeError, match=r"uint64.*int64|int64.*uint64"):
        xp.result_type(xp.uint64, xp.int64)


@pytest.mark.parametrize("dtype", FLOAT)
def test_finfo(dtype: str) -> None:
    f = xp.finfo(getattr(xp, dtype))
    n = np.finfo(dtype)
    assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == \
        (n.bits, float(n.eps), float(n.max), float(n.min), float(n.smallest_normal))
    assert f.dtype == getattr(xp, n.dtype.name)


@pytest.mark.parametrize("dtype", INTEGER)
def test_iinfo(dtype: str) -> None:
    i = xp.iinfo(getattr(xp, dtype))
    n = np.iinfo(dtype)
    assert (i.bits, i.max, i.min) == (n.bits, int(n.max), int(n.min))
    assert i.dtype == getattr(xp, dtype)


def test_info_errors() -> None:
    with pytest.raises(TypeError, match="finfo"):
        xp.finfo(xp.int32)
    with pytest.raises(TypeError, match="iinfo"):
        xp.iinfo(xp.float32)


def test_isdtype() -> None:
    kinds = {"bool": ("bool",), "signed integer": ("int8", "int16", "int32", "int64"),
             "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
             "integral": INTEGER, "real floating": REAL_FLOAT, "complex floating": COMPLEX,
             "numeric": INTEGER + FLOAT}
    for name in DTYPES:
        d = getattr(xp, name)
        for kind, members in kinds.items():
            assert xp.isdtype(d, kind) == (name in members), (name, kind)
        assert xp.isdtype(d, ("bool", "complex floating")) == (name in ("bool",) + COMPLEX)
        assert xp.isdtype(d, d)
    with pytest.raises(ValueError):
        xp.isdtype(xp.int8, "whatever")


def test_dtype_objects() -> None:
    for name in DTYPES:
        d = getattr(xp, name)
        assert d == np.dtype(name) and d == getattr(xp, name)
        assert hash(d) == hash(np.dtype(name))
        assert d.name == name
    assert xp.int8 != xp.uint8
    assert xp.float32 != None  # noqa: E711 - the comparison itself is under test
