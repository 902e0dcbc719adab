"""CUDA arrays meet CuPy: DLPack both ways without copies, and library ops (cuBLAS matmul,
sorts, scans, cuSOLVER, cuFFT) on the device's own memory. Skipped without a cuda device."""

from __future__ import annotations

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close
from zyxarray._devices import registry
from zyxarray._lazy import realize

CUDA = [n for n in registry.devices() if n.startswith("cuda")]
pytestmark = pytest.mark.skipif(not CUDA, reason="no cuda device")


def test_dlpack_to_cupy_shares_memory() -> None:
    cp = pytest.importorskip("cupy")
    x = xp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), device=CUDA[0]) * 2
    c = cp.from_dlpack(x)
    assert x.__dlpack_device__() == (2, 0)
    np.testing.assert_array_equal(cp.asnumpy(c), np.arange(12).reshape(3, 4) * 2)
    col = cp.from_dlpack(x[:, 1])               # a strided view is shared too
    np.testing.assert_array_equal(cp.asnumpy(col), np.arange(12).reshape(3, 4)[:, 1] * 2)
    c[0, 0] = 100                                # same memory
    assert float(x[0, 0]) == 100


def test_dlpack_from_cupy_shares_memory() -> None:
    cp = pytest.importorskip("cupy")
    c = cp.arange(10, dtype=cp.float64)
    x = xp.from_dlpack(c)
    assert x.device == registry.get(CUDA[0])
    np.testing.assert_array_equal(np.asarray(x * 3), np.arange(10) * 3)
    c[0] = 7.0
    assert float(x[0]) == 7.0


def test_dlpack_with_pytorch_shares_memory() -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    x = xp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), device=CUDA[0]) + 1
    t = torch.from_dlpack(x)
    assert t.is_cuda and t.device.index == 0
    np.testing.assert_array_equal(t.cpu().numpy(), np.arange(12).reshape(3, 4) + 1)
    t[1, 2] = -5.0                                # same memory
    assert float(x[1, 2]) == -5.0
    src = torch.arange(8, dtype=torch.float64, device="cuda:0")
    y = xp.from_dlpack(src)
    assert y.device == registry.get(CUDA[0])
    assert_close(y * 2, np.arange(8.0) * 2)
    src[3] = 100.0
    assert float(y[3]) == 100.0


def test_library_ops_stay_on_the_device() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 48)).astype(np.float32)
    b = rng.standard_normal((48, 32)).astype(np.float32)
    za, zb = xp.asarray(a, device=CUDA[0]), xp.asarray(b, device=CUDA[0])
    assert_close(xp.matmul(za * 2, zb) + 1, (a * 2) @ b + 1, rtol=1e-4, atol=1e-4)
    assert_close(xp.sort(za, axis=1), np.sort(a, axis=1))
    assert_close(xp.argsort(za, axis=0, descending=True),
                 np.flip(np.argsort(np.flip(a, 0), axis=0, kind="stable"), 0) * -1 + 63)
    assert_close(xp.cumulative_sum(za, axis=1), np.cumsum(a, axis=1), rtol=1e-5, atol=1e-5)
    m = a[:32, :32] @ a[:32, :32].T + 32 * np.eye(32, dtype=np.float32)
    zm = xp.asarray(m, device=CUDA[0])
    assert_close(xp.linalg.cholesky(zm), np.linalg.cholesky(m), rtol=1e-4, atol=1e-4)
    assert_close(xp.linalg.inv(zm), np.linalg.inv(m), rtol=1e-3, atol=1e-5)
    w, _ = xp.linalg.eigh(zm)
    assert_close(w, np.linalg.eigvalsh(m), rtol=1e-4, atol=1e-3)
    assert_close(xp.fft.fft(za[0]), np.fft.fft(a[0]), rtol=1e-4, atol=1e-4)


def test_matmul_runs_no_host_round_trip(capsys: pytest.CaptureFixture[str]) -> None:
    za = xp.asarray(np.ones((16, 16), np.float32), device=CUDA[0])
    with xp.debug("launch"):
        np.asarray(xp.matmul(za, za))
    err = capsys.readouterr().err
    assert "library matmul on the device" in err and "round trip" not in err
    assert realize.stats["kernels"] > 0
