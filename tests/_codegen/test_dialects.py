"""The GPU dialects' source text, checked without a GPU: signatures, float-only kernels for
devices without fp64, and the group reductions each dialect writes."""

from __future__ import annotations

import numpy as np

import zyxarray as xp
from zyxarray._codegen import render
from zyxarray._devices.base import DeviceInfo
from zyxarray._lazy.lower import canonicalize, lower
from zyxarray._lazy.schedule import schedule


def _source(y: xp.Array, language: str, **info: object) -> str:
    fields = dict(name="gpu:test", kind="test", language=language, style="threads",
                  max_work_group=1024, simd_lanes=1)
    fields.update(info)
    (plan,) = schedule([y._node.base()])
    return render(lower(canonicalize(plan, DeviceInfo(**fields)), "k"), language)  # type: ignore


def _inputs() -> tuple[xp.Array, xp.Array]:
    a = xp.asarray(np.linspace(0.1, 2, 6000, dtype=np.float32).reshape(20, 300), device="cpu")
    c = xp.asarray((np.linspace(0.1, 2, 20) + 1j).astype(np.complex64), device="cpu")
    return a, c


def test_float32_kernels_use_no_double_without_fp64() -> None:
    a, c = _inputs()
    for y in (xp.floor_divide(a, 0.3) + xp.remainder(a, 0.7), xp.sum(a, axis=1) / 3.0,
              a ** 1.5, xp.exp(c) * (2 + 1j), xp.sqrt(c) / c, xp.abs(c)):
        src = _source(y, "opencl", float64=False)
        assert "double" not in src and "cl_khr_fp64" not in src
        assert " float f0" in src or "float f" in src or "f0" not in src
    assert "cl_khr_fp64" in _source(xp.exp(a) * 2.0, "opencl")


def test_signatures() -> None:
    a, _ = _inputs()
    ocl = _source(xp.exp(a) * 2.0, "opencl")
    assert "__kernel __attribute__((reqd_work_group_size(256, 1, 1)))" in ocl
    assert "void zx_kernel(__global const float* restrict b0, __global float* restrict b1, " \
           "long i0" in ocl
    cuda = _source(xp.exp(a) * 2.0, "cuda")
    assert 'extern "C" __global__ void __launch_bounds__(256)' in cuda
    assert "zx_kernel(const float* __restrict__ b0, float* __restrict__ b1, long long i0" in cuda


def test_group_reductions() -> None:
    a, _ = _inputs()
    row = xp.sum(a, axis=1)
    assert "barrier(CLK_LOCAL_MEM_FENCE);" in _source(row, "opencl")
    cuda = _source(row, "cuda")
    assert "__shfl_xor_sync" in cuda                 # whole-group combine: warp shuffles
    column = _source(xp.sum(a, axis=0), "cuda", launch_bounds=True)
    assert "__launch_bounds__(1024)" in column and "__syncthreads();" in column


def test_cpu_complex_abs_and_hypot_are_our_inlined_hypot() -> None:
    """The C dialect computes ``abs`` of complex numbers and ``hypot`` with the project's
    branch-free hypot (inlined, 0.5 ulp), not libm's ``cabs``/``hypot`` calls (20 ns each:
    a Mandelbrot loop's 20 ``abs(z)`` took 7.4 ms of its 10): the kernel source names it,
    and the values are within half an ulp of the exact ones, edge cases as NumPy's."""
    from decimal import Decimal, getcontext
    rng = np.random.default_rng(5)
    z = rng.standard_normal(2000) * 10.0 ** rng.integers(-300, 300, 2000) + \
        1j * rng.standard_normal(2000) * 10.0 ** rng.integers(-300, 300, 2000)
    z[:7] = [complex(np.inf, np.nan), complex(np.nan, 1.0), 3 + 4j, 0j, 1e-320 + 1e-321j,
             complex(-np.inf, 2.0), 1e308 + 1e308j]
    a = xp.asarray(z, device="cpu")
    got = np.asarray(xp.abs(a))
    source = str(xp.explain(xp.abs(a)))
    assert "zx_hypot_f64" in source and "cabs(" not in source
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got[:7], np.abs(z[:7]))
    getcontext().prec = 50
    for v, r in zip(z[7:], got[7:]):
        exact = (Decimal(v.real) ** 2 + Decimal(v.imag) ** 2).sqrt()
        assert abs(Decimal(float(r)) - exact) <= Decimal(float(np.spacing(r))) * Decimal(
            "0.51"), (v, r)
    x, y = z.real[7:].copy(), z.imag[7:].copy()
    h = np.asarray(xp.hypot(xp.asarray(x, device="cpu"), xp.asarray(y, device="cpu")))
    np.testing.assert_array_equal(h, got[7:])
    with np.errstate(over="ignore"):
        small = z[7:].astype(np.complex64)
    single = np.asarray(xp.abs(xp.asarray(small, device="cpu")))
    np.testing.assert_allclose(single, np.abs(small), rtol=2e-7)
