"""The HIP dialect (``_codegen/hip.py``), checked without an AMD GPU: every strategy compiles
with clang for real AMD targets (CDNA ``gfx942``/``gfx90a`` with 64-lane wavefronts, RDNA
``gfx1100`` with 32) and spills no register to memory, the NVIDIA branch of its prelude
compiles with nvcc, its kernels call no library function, and its reductions shuffle within
the wavefront the device reports. (tests/hip_check.py compiles every kernel the whole suite
builds the same way; on the GPU machine the backend suite runs with the HIP dialect through
NVRTC.)"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import zyxarray as xp
from tests._codegen.test_spirv import _corpus as _spirv_corpus
from tests.hip_check import FLAGS, _kernels, _spills_to_memory
from zyxarray._codegen import render
from zyxarray._codegen.hip import PRELUDE
from zyxarray._devices.base import DeviceInfo
from zyxarray._lazy.lower import canonicalize, lower, phases
from zyxarray._lazy.schedule import schedule

#: kernels of graphs built on small cpu arrays, which must stay lazy (not results
#: computed at once: ``_api/_hot.c``)
pytestmark = pytest.mark.usefixtures("kernels_only")

CLANG = shutil.which("clang-19")
READELF = shutil.which("llvm-readelf-19") or shutil.which("llvm-readelf")
NVCC = shutil.which("nvcc")


def _info(wave: int) -> DeviceInfo:
    return DeviceInfo(name="hip:test", kind="hip", language="hip", style="threads",
                      max_work_group=1024, simd_lanes=1, compute_units=304,
                      local_memory=64 * 1024, extra={"subgroup": wave})


def _sources(y: xp.Array, wave: int = 64) -> list[tuple[str, str]]:
    out = []
    for plan in schedule([y._node.base()]):
        c = canonicalize(plan, _info(wave))
        for phase in range(phases(c)):
            out.append((c.strategy, render(lower(c, "k", phase), "hip")))
    return out


def _corpus() -> dict[str, xp.Array]:
    """test_spirv's corpus (every strategy and dtype) and heavier math."""
    x = xp.asarray(np.ones((64, 512), np.float32))
    d = xp.astype(x, xp.float64)
    return {
        **_spirv_corpus(),
        "float64": d * 0.5 + xp.floor(d) + xp.remainder(d, 0.3) + xp.floor_divide(d, 0.7),
        "math32": xp.exp(x) + xp.sin(x) + xp.atan2(x, x) + xp.hypot(x, x) + x ** 1.5
        + xp.nextafter(x, x + 1) + xp.logaddexp(x, x) + xp.tan(x),
        "math64": xp.log1p(d) + xp.cos(d) + xp.tanh(d) + xp.asinh(d) + d ** 2.5 + xp.expm1(d),
    }


def _compile(sources: list[str], archs: tuple[str, ...], tmp: Path) -> list[dict[str, str]]:
    """Compile each source for ``archs`` with clang; the kernels' metadata."""
    assert CLANG is not None and READELF is not None
    found = []
    for n, src in enumerate(sources):
        d = tmp / f"k{n}"
        d.mkdir(parents=True)
        (d / "k.hip").write_text(src)
        done = subprocess.run([CLANG, *FLAGS, *(f"--offload-arch={a}" for a in archs),
                               "k.hip"], capture_output=True, text=True, cwd=d)
        assert done.returncode == 0, f"clang rejected:\n{src}\n{done.stderr[-3000:]}"
        for obj in sorted(d.glob("*.out")):
            notes = subprocess.run([READELF, "--notes", str(obj)], capture_output=True,
                                   text=True).stdout
            found += [dict(k, arch=obj.name) for k in _kernels(notes)]
    return found


@pytest.mark.skipif(CLANG is None or READELF is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("case", sorted(_corpus()))
def test_kernels_compile_for_amd_targets_without_spills_to_memory(case: str,
                                                                  tmp_path: Path) -> None:
    y = _corpus()[case]
    kernels = _compile([s for _, s in _sources(y, 64)], ("gfx942", "gfx90a"),
                       tmp_path / "64")
    kernels += _compile([s for _, s in _sources(y, 32)], ("gfx1100",), tmp_path / "32")
    assert kernels and {k["name"] for k in kernels} == {"zx_kernel"}
    for k in kernels:
        assert not _spills_to_memory(k), k
        want = "32" if k["arch"].endswith("gfx1100.out") else "64"
        assert k["wavefront_size"] == want, k


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
def test_the_prelude_maps_the_kernels_to_cuda_for_nvidia(tmp_path: Path) -> None:
    """The same HIP text compiles as CUDA (what NVRTC runs on the GPU machine)."""
    for case, y in _corpus().items():
        for n, (_, src) in enumerate(_sources(y, 32)):
            path = tmp_path / f"{case}{n}.cu"
            path.write_text(src)
            done = subprocess.run([NVCC, "--ptx", "-arch=sm_90", "-std=c++17", "-o",
                                   str(path) + ".ptx", str(path)], capture_output=True,
                                  text=True)
            assert done.returncode == 0, f"{case}:\n{done.stderr[-3000:]}"


_LIBM = re.compile(r"(?<![\w.])(exp|log|sin|cos|tan|pow|sqrt|fabs|floor|ceil|fmod|hypot|atan2|"
                   r"copysign|fma|rint|frexp|ldexp|isnan|isinf|signbit|nextafter)f?\s*\(")


def test_kernels_call_no_library_function() -> None:
    """No math library on the device: every call is a builtin or the kernel's own function
    (checked without clang: the text has no call by a libm name)."""
    for case, y in _corpus().items():
        for _, src in _sources(y):
            body = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
            assert not _LIBM.findall(body), (case, sorted(set(_LIBM.findall(body))))
            assert "#include" not in src


def test_reductions_shuffle_within_the_devices_wavefront() -> None:
    x = xp.asarray(np.ones((64, 512), np.float32))
    row = xp.sum(x, axis=1)
    (_, wave64), = _sources(row, 64)
    (_, wave32), = _sources(row, 32)
    assert "for (int o = 32; o > 0; o >>= 1)" in wave64 and "& 63" in wave64
    assert "for (int o = 16; o > 0; o >>= 1)" in wave32 and "& 31" in wave32
    assert "ZX_SHFL_XOR(" in wave64 and "ZX_BARRIER();" in wave64


def test_one_prelude_and_signature_shared_with_cuda() -> None:
    x = xp.asarray(np.ones((64, 512), np.float32))
    (_, src), = _sources(x * 2 + 1)
    assert src.startswith(PRELUDE)
    assert 'extern "C" __global__ void __launch_bounds__(' in src
    assert "zx_kernel(const float* __restrict__ b0, float* __restrict__ b1, long long i0" in src


def test_a_kernel_that_does_not_say_its_wavefront_combines_through_memory() -> None:
    """A hand-built kernel (no ``subgroup`` in its meta) must not guess 64 or 32 lanes."""
    from tests._codegen.test_ir import _thread_sum_kernel
    src = render(_thread_sum_kernel(), "hip").replace(PRELUDE, "")
    assert "ZX_SHFL_XOR(" not in src and "ZX_BARRIER();" in src
    assert "__shfl_xor_sync" in render(_thread_sum_kernel(), "cuda")   # (CUDA: always 32)
