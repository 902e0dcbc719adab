"""Loops over elements, as NumPy code writes them (issue 13, item 6).

On a device whose memory is the host's (cpu, reference), ``a[i]`` of realized data reads the
element now (NumPy's ``a[i]``: a scalar, a copy) as a constant, arithmetic of such constants
with Python numbers is computed now (float64 as IEEE double, int64 wrapping), and
``a[i] = value`` stores into the buffer when nothing else shows it. None of this launches a
kernel. On other devices the same code stays lazy. Either way the values are NumPy's.
"""

from __future__ import annotations

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close
from zyxarray._devices import registry
from zyxarray._lazy import realize


def _host_memory(device: str) -> bool:
    return hasattr(registry.get(device), "host_array")


def _kernels() -> int:
    return realize.stats["kernels"]


def test_recurrence_matches_numpy(device: str) -> None:
    def program(np_: object) -> object:
        a = np_.zeros(300)                          # type: ignore[attr-defined]
        for i in range(1, 300):
            a[i] = a[i - 1] * 0.5 + 1
        return a

    got = program(xp)
    assert_close(got, program(np), rtol=0)


def test_element_reads_launch_no_kernel_on_host_memory(device: str) -> None:
    a = xp.asarray(np.linspace(0.0, 1.0, 50), device=device)
    float(a[0])
    before = _kernels()
    total = 0.0
    for i in range(50):
        total += float(a[i] * 2.0 + 1.0)
    assert total == pytest.approx(float(np.sum(np.linspace(0.0, 1.0, 50) * 2.0 + 1.0)))
    if _host_memory(device):
        assert _kernels() == before


def test_element_writes_go_into_the_buffer(device: str) -> None:
    a = xp.asarray(np.arange(10.0), device=device)
    np.asarray(a)
    before = _kernels()
    for i in range(10):
        a[i] = a[i] * 3.0 - 1
    assert_close(a, np.arange(10.0) * 3.0 - 1)
    if _host_memory(device):
        assert _kernels() == before + 0


def test_an_element_is_a_copy(device: str) -> None:
    """``x = a[i]`` keeps its value when ``a[i]`` is written afterwards (NumPy's scalar)."""
    a = xp.asarray(np.arange(5.0), device=device)
    np.asarray(a)
    x = a[2]
    a[2] = 100.0
    assert float(x) == 2.0 and float(a[2]) == 100.0
    assert x.shape == () and x.dtype == xp.float64 and x.device == a.device


def test_a_pending_reader_keeps_the_old_value(device: str) -> None:
    a = xp.asarray(np.arange(5.0), device=device)
    np.asarray(a)
    pending = a * 1.0                       # reads a's buffer later
    a[1] = -7.0
    assert_close(pending, np.arange(5.0))
    assert_close(a, [0.0, -7.0, 2.0, 3.0, 4.0])


def test_constant_arithmetic_follows_the_kernels(device: str) -> None:
    big = xp.asarray(np.array([2**62, 7], dtype=np.int64), device=device)
    np.asarray(big)
    assert int(big[0] * 4 + 1) == 1                     # 2**64 + 1 wraps to 1
    assert int(big[1] - 10) == -3 and int(3 - big[1]) == -4
    f = xp.asarray(np.array([1.0, 0.0, -0.0]), device=device)
    np.asarray(f)
    assert float(f[0] / 0) == float("inf")           # (a kernel divides by zero)
    assert np.isnan(float(f[1] / 0.0))
    assert np.signbit(float(f[2] * 1.0))
    assert float(f[0] / 3) == 1.0 / 3 and float(3 / f[0]) == 3.0
    assert float(f[0] + f[0]) == 2.0


def test_values_numpy_refuses_to_store_take_the_kernel_path(device: str) -> None:
    a = xp.asarray(np.array([1, 2, 3], dtype=np.int8), device=device)
    np.asarray(a)
    with pytest.raises((OverflowError, ValueError, TypeError)):
        a[0] = 1000
    assert_close(a, np.array([1, 2, 3], dtype=np.int8))
    with pytest.raises(TypeError):
        a[1] = 2.7                          # (a float into an integer array: refused)
    a[1] = 5
    assert int(a[1]) == 5
    u = xp.asarray(np.array(-1, dtype=np.int8), device=device)[()]
    assert int(xp.astype(u, xp.uint8)) == 255          # a constant cast as a kernel casts


def test_float32_elements_stay_float32(device: str) -> None:
    a = xp.asarray(np.array([0.1, 0.2], dtype=np.float32), device=device)
    np.asarray(a)
    y = a[0] * 3.0 + a[1]
    assert y.dtype == xp.float32
    want = np.float32(0.1) * np.float32(3.0) + np.float32(0.2)
    assert float(y) == pytest.approx(float(want), rel=1e-6)


def test_two_dimensional_elements(device: str) -> None:
    h = np.arange(20.0).reshape(4, 5)
    a = xp.asarray(h, device=device)
    np.asarray(a)
    before = _kernels()
    assert float(a[2, 3]) == 13.0 and float(a[-1, -2]) == 18.0
    assert float(a.T[3, 2]) == 13.0                     # (a window: strides of its view)
    a[1, 4] = -1.0
    a[-4, 0] = 7
    if _host_memory(device):
        assert _kernels() == before
    h[1, 4], h[0, 0] = -1.0, 7
    assert_close(a, h)
    with pytest.raises(IndexError):
        a[4, 0]
    with pytest.raises(IndexError):
        a[0, -6] = 1.0
    assert_close(a, h)


def test_elements_index_by_elements_read_from_arrays(device: str) -> None:
    """``conf[t, p] += 1`` over ``zip(labels, predictions)``: the indices are elements read
    from other arrays (and NumPy integers), as in a confusion matrix."""
    t_h, p_h = np.array([0, 1, 2, 2, 1, 0, 2]), np.array([0, 2, 2, 2, 1, 1, 0])
    conf = xp.zeros((3, 3), dtype=xp.int64, device=device)
    for t, p in zip(xp.asarray(t_h, device=device), xp.asarray(p_h, device=device)):
        conf[t, p] += 1
    conf[np.int64(0), np.int32(2)] = 7
    want = np.zeros((3, 3), np.int64)
    for t, p in zip(t_h, p_h):
        want[t, p] += 1
    want[0, 2] = 7
    assert_close(conf, want)


def test_an_array_of_scalars_computed_in_a_loop(device: str) -> None:
    rows = xp.asarray(np.array([[0, 1, 1, 3], [2, 2, 0, 2], [3, 3, 3, 1]]), device=device)
    got = xp.array([xp.bincount(r, minlength=4).argmax() for r in rows])
    assert got.dtype == xp.int64 and got.device == rows.device
    assert_close(got, np.array([1, 2, 3]))
    mixed = xp.array([xp.sum(r) for r in rows] + [2.5])
    assert mixed.dtype == xp.float64
    assert_close(mixed, np.array([5.0, 6.0, 10.0, 2.5]))


def test_elements_of_a_pending_array_compute_it_once(device: str) -> None:
    """``returns[i]`` in a loop, ``returns`` a computed array: on host memory the first read
    computes the whole (small) array, then every read is a memory access."""
    data = np.linspace(1.0, 2.0, 64)
    x = xp.asarray(data, device=device)
    returns = xp.diff(x) / x[:-1]
    before = _kernels()
    got = [float(returns[i]) for i in range(20)]
    assert got == pytest.approx((np.diff(data) / data[:-1])[:20].tolist(), rel=1e-15)
    if _host_memory(device):     # (the cpu device computed this small result already)
        assert _kernels() - before == (0 if device == "cpu" else 1)


def test_elements_of_full_arrays_are_their_value(device: str) -> None:
    """An element of ``full``/``zeros``/``ones`` not yet computed is the fill value, with no
    kernel on any device; a tridiagonal solve over such arrays (the Thomas algorithm) then
    runs element by element without kernels where memory is the host's."""
    c = xp.full(50, -1.0, device=device)
    before = _kernels()
    assert float(c[7]) == -1.0 and int(xp.zeros((3, 4), dtype=xp.int8, device=device)[1, 2]) == 0
    assert _kernels() == before

    def thomas(np_: object) -> object:
        m = 40
        a = np_.full(m, -1.0)                       # type: ignore[attr-defined]
        b = np_.full(m, 2.0)                        # type: ignore[attr-defined]
        d = np_.ones(m)                             # type: ignore[attr-defined]
        cp, dp = np_.zeros(m), np_.zeros(m)         # type: ignore[attr-defined]
        cp[0], dp[0] = a[0] / b[0], d[0] / b[0]
        for i in range(1, m):
            den = b[i] - a[i] * cp[i - 1]
            cp[i] = a[i] / den
            dp[i] = (d[i] - a[i] * dp[i - 1]) / den
        x = np_.zeros(m)                            # type: ignore[attr-defined]
        x[-1] = dp[-1]
        for i in range(m - 2, -1, -1):
            x[i] = dp[i] - cp[i] * x[i + 1]
        return x

    registry.set_default(device)
    try:
        thomas(xp)
        before = _kernels()
        got = thomas(xp)
        assert_close(got, thomas(np), rtol=1e-12)
        if _host_memory(device):
            assert _kernels() - before <= 8       # (the fills; no kernel per element)
    finally:
        registry.set_default(None)


def test_running_sums_in_place_stay_scalars(device: str) -> None:
    """``mean += delta / k`` on 0-d values (Welford's update) gives NumPy's values, and the
    array object is updated in place (another name for it sees the new value)."""
    data = np.sin(np.arange(24) * 0.1)     # (on other devices the loop is one lazy kernel)
    x = xp.asarray(data, device=device)
    mean, m2 = xp.asarray(0.0, device=device), xp.asarray(0.0, device=device)
    alias = mean
    for k in range(1, 25):
        xk = x[k - 1]
        delta = xk - mean
        mean += delta / k
        m2 += delta * (xk - mean)
    assert alias is mean
    assert float(mean) == pytest.approx(float(np.mean(data)), rel=1e-12)
    assert float(m2) / 23 == pytest.approx(float(np.var(data, ddof=1)), rel=1e-10)
    v = xp.asarray(np.arange(4.0), device=device)
    row = v[1:]
    v += 1.0                               # (a view shows it: the aliased path)
    assert np.asarray(row).tolist() == [2.0, 3.0, 4.0]
    i = xp.asarray(3, device=device)
    with pytest.raises(TypeError):
        i += 1.5                           # (int += float: NumPy's same-kind refusal)
