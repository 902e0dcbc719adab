"""The Array object: attributes, the private constructor, and every observation (which
realizes the pending graph): bool/int/float/complex/index, len, iter, repr, __array__,
DLPack, tolist, item, to_device; NumPy's ndarray methods, with NumPy's parameters."""

from __future__ import annotations

import math

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import Input, assert_close, check_against_numpy


def test_constructor_points_to_asarray() -> None:
    with pytest.raises(TypeError, match="asarray"):
        xp.Array([1, 2, 3])
    with pytest.raises(TypeError, match="asarray"):
        xp.Array()


def test_attributes(device: str) -> None:
    a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = xp.asarray(a, device=device)
    assert x.dtype == xp.int16
    assert x.shape == (2, 3, 4) and isinstance(x.shape, tuple)
    assert x.ndim == 3 and x.size == 24
    assert x.itemsize == 2 and x.nbytes == 48
    assert x.device.name == device
    assert x.__array_namespace__() is xp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")
    with pytest.raises(TypeError):
        hash(x)


@pytest.mark.usefixtures("kernels_only")   # (small cpu results are not computed now)
def test_attributes_do_not_compute(device: str) -> None:
    """shape, dtype, ndim, size and device are known without running anything."""
    x = xp.exp(xp.asarray(np.ones((3, 5)), device=device)) + 1
    before = len(xp.explain(x))
    assert (x.shape, x.dtype, x.ndim, x.size, x.device.name) == \
        ((3, 5), xp.float64, 2, 15, device)
    assert len(xp.explain(x)) == before == 1


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex128"])
def test_python_scalar_conversions(device: str, dtype: str) -> None:
    value = {"bool": True, "int8": -5, "uint64": 2**63 + 1, "float32": -2.5,
             "complex128": 1 - 2j}[dtype]
    # a pending (unrealized) 0-d result: each conversion realizes it
    a = xp.asarray(np.array([value], dtype), device=device)
    x = xp.where(xp.asarray(True, device=device), a, a)[0]
    assert x.dtype == getattr(xp, dtype)
    v = np.array(value, dtype)
    assert complex(x) == complex(v)
    if dtype != "complex128":
        assert float(x) == float(v)
        assert int(x) == int(v)
        assert bool(x) == bool(v)
    else:
        with pytest.raises(TypeError):
            float(x)
        with pytest.raises(TypeError):
            int(x)
    if dtype in ("int8", "uint64"):
        assert x.__index__() == int(v)
        assert [10, 20, 30, 40][xp.asarray(1, device=device)] == 20
    else:
        with pytest.raises(TypeError):
            x.__index__()
    assert x.item() == v.item()


def test_scalar_conversion_errors(device: str) -> None:
    x = xp.asarray([1.0, 2.0], device=device)
    for fn in (int, float, complex):
        with pytest.raises(TypeError):
            fn(x)
    with pytest.raises(ValueError, match="truth value"):   # NumPy's error for if x:
        bool(x)
    with pytest.raises(ValueError):
        int(xp.asarray(math.nan, device=device))
    with pytest.raises(OverflowError):
        int(xp.asarray(math.inf, device=device))


def test_len_and_iter(device: str) -> None:
    a = np.arange(6).reshape(3, 2) * 10
    x = xp.asarray(a, device=device) + 0
    assert len(x) == 3
    rows = list(x)
    assert len(rows) == 3
    for r, want in zip(rows, a):
        assert isinstance(r, xp.Array)
        assert_close(r, want)
    with pytest.raises(TypeError):
        len(xp.asarray(1, device=device))
    with pytest.raises(TypeError):
        iter(xp.asarray(1, device=device))
    assert list(xp.zeros((0, 2), device=device)) == []


def test_repr_and_str(device: str) -> None:
    x = xp.asarray([1.5, -2.0], device=device) * 2
    r = repr(x)
    # as NumPy prints it: float64 is NumPy's default and is not shown (test_numpy_protocols)
    assert r.startswith("array(") and "3." in r and "-4." in r
    assert "float32" in repr(xp.asarray([1.0], dtype=xp.float32, device=device))
    from zyxarray._devices import registry
    if registry.get(device) is not registry.default():
        assert device in r
    assert "3." in str(x)
    assert "int8" in repr(xp.asarray(np.zeros((2, 0), np.int8), device=device))


def test_array_protocol(device: str) -> None:
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = xp.asarray(a, device=device).T * 1
    out = np.asarray(x)
    assert isinstance(out, np.ndarray) and out.dtype == np.float32
    np.testing.assert_array_equal(out, a.T)
    np.testing.assert_array_equal(np.asarray(x, dtype=np.float64), a.T.astype(np.float64))
    with pytest.raises(ValueError):
        np.asarray(x, copy=False)
    # the host copy is independent of the array
    out[...] = 0
    np.testing.assert_array_equal(np.asarray(x), a.T)


def test_dlpack(device: str) -> None:
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    x = xp.asarray(a, device=device) + 1
    if x.device.info.style != "loops":
        # GPU memory: NumPy cannot take it, but may ask for a host copy (CuPy and PyTorch
        # share cuda memory: tests/_api/test_cuda_interop.py)
        assert x.__dlpack_device__()[0] in (2, 4, 7)       # kDLCUDA, kDLOpenCL, kDLVulkan
        with pytest.raises(BufferError):
            np.from_dlpack(x)
        np.testing.assert_array_equal(np.from_dlpack(x, device="cpu"), a + 1)
        with pytest.raises(BufferError):
            x.__dlpack__(dl_device=(1, 0), copy=False)
        return
    assert x.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(x), a + 1)
    np.testing.assert_array_equal(np.from_dlpack(x.T), (a + 1).T)
    copied = np.from_dlpack(x, copy=True)
    copied[...] = 0
    np.testing.assert_array_equal(np.asarray(x), a + 1)


def test_exports_outlive_the_array(device: str) -> None:
    """Memory handed out without a copy stays the reader's after the array that owned it is
    collected: its buffer must not go back to the pool and be reused by the next result
    (issue 12: ``a = np.from_dlpack(x * 3); b = np.from_dlpack(x + 100)`` left ``a``
    equal to ``x + 100``)."""
    import gc

    base = np.arange(10, dtype=np.float32)
    x = xp.asarray(base, device=device)
    host = x.device.info.style == "loops"
    kwargs = {} if host else {"device": "cpu"}

    def exports() -> list:
        return [np.from_dlpack(x * 3, **kwargs),                   # a fresh buffer
                np.from_dlpack((x * 5).reshape(2, 5).T, **kwargs),  # a strided view of one
                np.from_dlpack(x[1:] * 7, **kwargs),                # an offset one
                np.asarray(x * 9), np.array(x * 11), (x * 13).__array__()]

    got = exports()
    gc.collect()
    # the next results would take the freed buffers from the pool
    churn = [x + 100 + i for i in range(8)]
    for c in churn:
        np.from_dlpack(c, **kwargs)
    np.testing.assert_array_equal(got[0], base * 3)
    np.testing.assert_array_equal(got[1], (base * 5).reshape(2, 5).T)
    np.testing.assert_array_equal(got[2], base[1:] * 7)
    np.testing.assert_array_equal(got[3], base * 9)
    np.testing.assert_array_equal(got[4], base * 11)
    np.testing.assert_array_equal(got[5], base * 13)
    if host:
        # the export shares memory (no copy) and keeps it: writes through it stay put
        shared = np.from_dlpack(x * 2)
        shared[0] = 42
        del churn
        gc.collect()
        [np.from_dlpack(x - i) for i in range(4)]
        assert shared[0] == 42 and shared[1] == 2


def test_tolist_and_item(device: str) -> None:
    a = np.array([[1, 2], [3, 4]], np.int64)
    x = xp.asarray(a, device=device) * 2
    assert x.tolist() == (a * 2).tolist()
    assert x.item(1, 0) == 6
    assert xp.asarray(7, device=device).tolist() == 7
    with pytest.raises(TypeError):
        x.item()


def test_to_device(device: str) -> None:
    a = np.linspace(0, 1, 7)
    x = xp.asarray(a, device=device) * 3
    assert x.to_device(device) is x
    for target in ("reference", "cpu"):
        y = x.to_device(target)
        assert y.device.name == target
        assert_close(y, a * 3, rtol=1e-15)
        assert_close(xp.sum(y + 1), np.sum(a * 3 + 1), rtol=1e-12)


def test_mixing_devices_raises(device: str) -> None:
    other = "reference" if device != "reference" else "cpu"
    x = xp.asarray([1.0, 2.0], device=device)
    y = xp.asarray([1.0, 2.0], device=other)
    with pytest.raises(ValueError, match="device"):
        x + y
    with pytest.raises(ValueError, match="device"):
        xp.maximum(x, y)
    with pytest.raises(ValueError):
        x[0] = y[0]


def test_operators_with_unsupported_types(device: str) -> None:
    x = xp.asarray([1, 2], device=device)
    with pytest.raises(TypeError):
        x + "a"
    assert_close(x + [1, 2], np.array([2, 4]))              # NumPy leniency: array-likes
    assert (x == "a") is False
    assert (x != None) is True  # noqa: E711 - Python falls back to identity comparison


# -- NumPy's ndarray methods (NumPy leniency) ---------------------------------------------
# Each call runs unchanged on a NumPy array and on a zyxarray array: NumPy's parameter names
# and positional order.
METHOD_CALLS = {
    "sum": lambda v: v.sum(), "sum_axis_dtype": lambda v: v.sum(0, np.float64),
    "sum_keepdims": lambda v: v.sum(axis=1, keepdims=True), "prod": lambda v: v.prod(1),
    "mean": lambda v: v.mean(0), "mean_dtype": lambda v: v.mean(None, np.float32),
    "std": lambda v: v.std(), "std_ddof": lambda v: v.std(1, ddof=1),
    "var": lambda v: v.var(0, None, None, 1), "min": lambda v: v.min(0),
    "max": lambda v: v.max(axis=(0, 1), keepdims=True), "argmin": lambda v: v.argmin(),
    "argmax": lambda v: v.argmax(1), "argmax_keepdims": lambda v: v.argmax(0, keepdims=True),
    "any": lambda v: v.any(0), "all": lambda v: v.all(), "cumsum": lambda v: v.cumsum(),
    "cumsum_axis": lambda v: v.cumsum(1, np.int64), "reshape": lambda v: v.reshape(4, 3),
    "reshape_tuple": lambda v: v.reshape((2, -1)), "reshape_np_int": lambda v: v.reshape(
        np.int64(12)), "ravel": lambda v: v.ravel(), "flatten": lambda v: v.T.flatten(),
    "astype": lambda v: v.astype(np.int8), "astype_name": lambda v: v.astype("complex64"),
    "copy": lambda v: v.copy(), "transpose": lambda v: v.transpose(),
    "transpose_axes": lambda v: v.transpose(1, 0), "transpose_tuple": lambda v: v.transpose(
        (1, 0)), "squeeze": lambda v: v[None].squeeze(), "squeeze_axis": lambda v: v[:, None]
    .squeeze(1), "clip": lambda v: v.clip(1, 5), "clip_min": lambda v: v.clip(min=2),
    "round": lambda v: (v / 7).round(2), "round_neg": lambda v: (v * 13).round(-1),
    "dot": lambda v: v.dot(v.T), "argsort": lambda v: v.argsort(0), "take": lambda v: v.take(
        [0, 5, -1]), "take_axis": lambda v: v.take([1, 0], 1), "repeat": lambda v: v.repeat(2),
    "repeat_axis": lambda v: v.repeat([1, 0, 2], 0), "real": lambda v: v.real,
    "imag": lambda v: v.imag, "conj": lambda v: v.conj(), "conjugate": lambda v: v.conjugate(),
}


@pytest.mark.parametrize("call", sorted(METHOD_CALLS))
def test_ndarray_methods(device: str, call: str) -> None:
    fn = METHOD_CALLS[call]
    dtype = "complex64" if call in ("real", "imag", "conj", "conjugate") else \
        "float64" if call.startswith(("round", "mean", "std", "var")) else "int16"
    base = (np.array([[3, -1, 4, 1], [5, -9, 2, 6], [5, 3, -5, 8]]) +
            (1j if dtype == "complex64" else 0) * np.arange(12).reshape(3, 4)).astype(dtype)
    a = Input(base, [("index", (slice(None, None, -1),))])
    check_against_numpy(device, fn, fn, [a], rtol=1e-12, atol=1e-12)


def test_in_place_methods_and_attributes(device: str) -> None:
    """sort and fill change the array in place (returning None); nonzero, item, tolist,
    nbytes and itemsize as NumPy's."""
    base = np.array([[3, 1, 2], [9, 7, 8]], np.int32)
    for axis in (-1, 0):
        a, x = base.copy(), xp.asarray(base, device=device)
        assert a.sort(axis) is None and x.sort(axis) is None
        assert_close(x, a)
    a, x = base.copy(), xp.asarray(base, device=device)
    assert a.fill(4) is None and x.fill(4) is None
    assert_close(x, a)
    x = xp.asarray(base, device=device)
    for got, want in zip((x - 1).nonzero(), (base - 1).nonzero()):
        assert_close(got, want)
    assert x.item(4) == base.item(4) and x.item((1, 2)) == base.item((1, 2))
    assert xp.asarray([2.5], device=device).item() == 2.5
    assert x.tolist() == base.tolist() and isinstance(x.tolist()[0][0], int)
    for dtype in ("bool", "int16", "float64", "complex64"):
        y = xp.zeros((3, 5), dtype=getattr(xp, dtype), device=device)
        want = np.zeros((3, 5), dtype)
        assert (y.nbytes, y.itemsize) == (want.nbytes, want.itemsize)


def test_method_errors(device: str) -> None:
    x = xp.asarray(np.ones((2, 3)), device=device)
    with pytest.raises(ValueError, match="out"):           # NumPy's error: a wrong shape
        x.sum(axis=0, out=xp.zeros(2, device=device))
    out = xp.zeros(3, device=device)
    assert x.sum(axis=0, out=out) is out                    # written in place, as NumPy
    assert_close(out, np.full(3, 2.0))
    with pytest.raises((ValueError, IndexError)):
        x.sum(2)
    with pytest.raises(ValueError):
        x.reshape(4, 2)
    with pytest.raises(ValueError):
        x.squeeze(1)
    with pytest.raises((ValueError, IndexError)):
        x.transpose(0, 2)


_OPERATORS = {"add": lambda a, b: a + b, "subtract": lambda a, b: a - b,
              "multiply": lambda a, b: a * b, "divide": lambda a, b: a / b}


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "uint64", "float32",
                                   "float64", "complex64"])
@pytest.mark.parametrize("name", sorted(_OPERATORS))
@pytest.mark.numpy_layer     # (the operators' Python dtype and error rules: kernels as any)
def test_operator_fast_path_matches_the_functions(device: str, dtype: str, name: str) -> None:
    """The operators' one-step path (``_array_object._operator``) gives what the functions
    give: the same dtype and values, and the same errors, for every kind of operand."""
    h = (np.arange(1, 7) % 3 + 1).astype(dtype)
    x = xp.asarray(h, device=device)
    fn, op = getattr(xp, name), _OPERATORS[name]
    for other in (2, -1, 300, 2**64, 0.5, -0.0, True, 1.5j,
                  xp.asarray(h[::-1].copy(), device=device), xp.asarray(h[:1], device=device)):
        for left, right in ((x, other), (other, x)):
            try:
                want = fn(left, right)
            except (TypeError, OverflowError, ValueError) as e:
                with pytest.raises(type(e)):
                    op(left, right)
                continue
            got = op(left, right)
            assert got.dtype == want.dtype, (left, right)
            assert_close(got, np.asarray(want), rtol=1e-6 if "32" in dtype or ("64" in dtype
                         and "c" in dtype) else 0.0)


def test_operator_fast_path_keeps_the_sign_of_zero(device: str) -> None:
    x = xp.asarray(np.array([1.0, -2.0, 0.0]), device=device)
    assert np.signbit(np.asarray(x * -0.0)).tolist() == [True, False, True]
    assert np.signbit(np.asarray(x * 0.0)).tolist() == [False, True, False]
    assert np.signbit(np.asarray(-0.0 - x * 0.0)).tolist() == [True, False, True]
    assert np.isnan(np.asarray(x + float("nan"))).all()


def test_operator_memo_follows_the_constants(device: str) -> None:
    """Operators remember what they built for a structure and an operand; arrays of that
    structure whose constants differ or sit elsewhere still get their own values."""
    h = np.arange(1.0, 6.0)
    x = xp.asarray(h, device=device)
    for c1, c2, c3 in ((0.5, 0.25, 0.5), (0.25, 0.5, 0.5), (0.75, 0.125, 0.5), (2, 3, 2),
                       (0.5, 0.25, 0.25)):
        for _ in range(2):
            got = (x * c1 + c2) * c3
            assert_close(got, (h * c1 + c2) * c3, rtol=1e-15)
            got = c3 - (c1 / x - c2)
            assert_close(got, c3 - (c1 / h - c2), rtol=1e-15)
    i = xp.asarray(np.arange(5, dtype=np.int8), device=device)
    for _ in range(2):
        assert np.asarray(i + 100).tolist() == [100, 101, 102, 103, 104]
        with pytest.raises(OverflowError):
            i + 300


def test_numpy_gets_a_writable_array_of_its_own(device: str) -> None:
    """``np.asarray(x)`` is NumPy's own writable array: writing into it changes nothing in
    zyxarray (on a GPU it is the array the read made, handed over without a second copy)."""
    x = xp.asarray(np.arange(12.0).reshape(3, 4), device=device) * 2
    for view in (x, x.T, x[::2, 1:]):
        a = np.asarray(view)
        assert a.flags.writeable
        a[...] = -1.0
    np.testing.assert_array_equal(np.asarray(x), np.arange(12.0).reshape(3, 4) * 2)


def test_a_read_in_memory_the_device_marked_fresh_is_handed_over() -> None:
    """``__array__`` hands out the host array a device's read made for it alone: one that
    owns its data, or one in memory the device marked ``fresh`` (cuda's pooled pinned
    memory, which NumPy sees as a foreign buffer). Any other foreign memory is copied."""
    from zyxarray._api._array_object import _hand_over
    from zyxarray._devices.base import mark_fresh

    foreign = np.frombuffer(bytearray(64), dtype=np.float64)
    foreign.flags.writeable = False
    copied = _hand_over(foreign)
    assert copied is not foreign and copied.flags.writeable
    marked = mark_fresh(np.frombuffer(bytearray(64), dtype=np.float64))
    marked.flags.writeable = False
    view = marked.reshape(2, 4)
    out = _hand_over(view)
    assert out is view and out.flags.writeable and marked.flags.writeable
