"""NumPy's memory-layout face (issue 13, item 3): strides, base, flags, flat, view,
setflags, resize, real/imag, lib.stride_tricks, against NumPy on every device."""

from __future__ import annotations

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close

H = np.arange(24, dtype=np.float64).reshape(4, 6)


def test_strides_base_and_flags(device: str) -> None:
    a = xp.asarray(H, device=device)
    h = H.copy()
    for make in (lambda m: m, lambda m: m[1:, ::2], lambda m: m.T, lambda m: m[2],
                 lambda m: m[::-1, 1:4]):
        got, want = make(a), make(h)
        assert got.strides == want.strides, (got.strides, want.strides)
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.f_contiguous == want.flags.f_contiguous
        assert got.flags.owndata == want.flags.owndata
        assert got.flags["WRITEABLE"] and got.flags.writeable
    assert a.base is None and a[1:].base is a and a.T.base is a and a[1:][1:].base is a
    assert a.copy().base is None


def test_setflags_makes_an_array_read_only(device: str) -> None:
    a = xp.asarray(H, device=device)
    a.setflags(write=False)
    for write in (lambda: a.__setitem__(0, 1.0), lambda: a[1:].__setitem__(0, 1.0)):
        with pytest.raises(ValueError, match="read-only"):
            write()
    v = a[1:]
    with pytest.raises(ValueError):
        v.flags.writeable = True          # a view of a read-only array stays read-only
    a.flags.writeable = True
    a[0, 0] = -1.0
    assert float(v[-1, -1]) == 23.0 and float(a[0, 0]) == -1.0


def test_flat(device: str) -> None:
    a = xp.asarray(H, device=device)
    h = H.copy()
    assert float(a.flat[7]) == h.flat[7]
    assert_close(a.flat[3:9], h.flat[3:9])
    t, ht = a.T, h.T                       # not contiguous: flat walks it in C order
    t.flat[[1, 5, 7]] = -1.0
    ht.flat[[1, 5, 7]] = -1.0
    t.flat[2:4] = 9.0
    ht.flat[2:4] = 9.0
    assert_close(a, h)
    assert [float(v) for v in xp.asarray([1.0, 2.0], device=device).flat] == [1.0, 2.0]
    a.flat = 3.0
    assert_close(a, np.full((4, 6), 3.0))


def test_view_and_dtype_views(device: str) -> None:
    a = xp.asarray(H, device=device)
    v = a.view()
    v[0, 0] = 100.0
    assert float(a[0, 0]) == 100.0
    h = H.copy()
    h[0, 0] = 100.0
    assert_close(a.view(xp.int64), h.view(np.int64))
    assert_close(a[1].view(xp.int32), h[1].view(np.int32))
    with pytest.raises(ValueError):
        xp.asarray(np.zeros(3, np.int8), device=device).view(xp.int16)


def test_resize_real_and_imag(device: str) -> None:
    a = xp.asarray(np.arange(6.0), device=device)
    a.resize((2, 4))
    h = np.arange(6.0)
    h.resize((2, 4))
    assert_close(a, h)
    b = xp.asarray(np.arange(4.0), device=device)
    view = b[1:]
    with pytest.raises(ValueError, match="cannot resize"):
        b.resize(8)
    del view
    z = xp.asarray(np.array([1 + 2j, 3 - 4j]), device=device)
    hz = np.array([1 + 2j, 3 - 4j])
    z.real = xp.asarray([10.0, 20.0], device=device)
    hz.real = [10.0, 20.0]
    z.imag = 0.5
    hz.imag = 0.5
    assert_close(z, hz)
    assert_close(z.real, hz.real)
    assert_close(z.imag, hz.imag)
    with pytest.raises(ValueError, match="read-only"):
        z.imag[0] = 1.0                     # not a view here: refused, never lost
    r = xp.asarray([1.0, 2.0], device=device)
    r.real[0] = 5.0                         # the real part of a real array is itself
    assert float(r[0]) == 5.0 and float(xp.sum(r.imag)) == 0.0


def test_stride_tricks(device: str) -> None:
    from numpy.lib.stride_tricks import as_strided, sliding_window_view
    a = xp.asarray(np.arange(10.0), device=device)
    h = np.arange(10.0)
    assert_close(xp.lib.stride_tricks.sliding_window_view(a, 4), sliding_window_view(h, 4))
    m = xp.asarray(H, device=device)
    assert_close(xp.lib.stride_tricks.sliding_window_view(m, (2, 3)),
                 sliding_window_view(H, (2, 3)))
    assert_close(xp.lib.stride_tricks.sliding_window_view(m, 3, axis=1),
                 sliding_window_view(H, 3, axis=1))
    win = xp.lib.stride_tricks.sliding_window_view(a, 3)
    with pytest.raises(ValueError, match="read-only"):
        win[0, 0] = 1.0
    s = xp.lib.stride_tricks.as_strided(a, shape=(4, 3), strides=(16, 8))
    assert_close(s, as_strided(h, shape=(4, 3), strides=(16, 8)))
    s[0, 0] = -1.0                            # writeable by default, as in NumPy
    assert float(a[0]) == -1.0
    with pytest.raises(ValueError, match="outside"):
        xp.lib.stride_tricks.as_strided(a, shape=(4, 4), strides=(24, 8))
    assert xp.shares_memory(a, s) and not xp.shares_memory(a, a.copy())
