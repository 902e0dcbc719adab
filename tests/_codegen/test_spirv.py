"""The SPIR-V renderer (``_codegen/spirv.py``): every thread-style strategy renders a module
that ``spirv-val`` accepts for Vulkan 1.1, and what it cannot render yet is refused by name.
(The session-wide check in ``tests/spirv_check.py`` validates every kernel the tests build;
``tests/_devices/test_vulkan.py`` runs modules on lavapipe against NumPy.)"""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._codegen import render
from zyxarray._codegen.spirv import MAGIC
from zyxarray._devices.base import DeviceInfo
from zyxarray._lazy.lower import canonicalize, lower, phases
from zyxarray._lazy.schedule import schedule

#: kernels of graphs built on small cpu arrays, which must stay lazy (not results
#: computed at once: ``_api/_hot.c``)
pytestmark = pytest.mark.usefixtures("kernels_only")

INFO = DeviceInfo(name="vulkan:test", kind="vulkan", language="spirv", style="threads",
                  max_work_group=1024, local_memory=32768, simd_lanes=1, launch_bounds=True)


def _modules(y: xp.Array) -> list[tuple[str, bytes]]:
    out = []
    for plan in schedule([y._node.base()]):
        c = canonicalize(plan, INFO)
        for phase in range(phases(c)):
            out.append((c.strategy, render(lower(c, "k", phase), "spirv").binary))
    return out


def _validate(data: bytes, path: Path, env: str = "vulkan1.1") -> None:
    """``spirv-val`` accepts the module ``data`` (written to ``path``) for ``env``."""
    path.write_bytes(data)
    done = subprocess.run(["spirv-val", "--target-env", env, str(path)], capture_output=True,
                          text=True)
    assert done.returncode == 0, f"{path.name}: {done.stderr}"


def _corpus() -> dict[str, xp.Array]:
    x = xp.asarray(np.ones((64, 512), np.float32))
    i = xp.asarray(np.ones((64, 512), np.int16))
    z = xp.astype(x, xp.complex64) * (1 + 2j)
    w = xp.astype(z, xp.complex128)
    return {
        "g_elementwise": x * 2 + 1,
        "g_row": xp.max(x, axis=1),
        "g_column": xp.sum(x, axis=0),
        "g_split": xp.sum(xp.reshape(xp.concat([x] * 4), (-1,)) * 2),
        "g_serial": xp.sum(x[:, :5], axis=1),
        "g_tile": x[:, :64] + x[:, :64].T,
        "g_scan": xp.cumulative_prod(x, axis=1),
        "g_scan_serial": xp.cumulative_sum(i, axis=0),
        "argmax": xp.argmax(x * 2, axis=1),
        "integers": (i // 3) % 7 + (i << 2) - (i >> 1) + xp.astype(i > 2, xp.int16) + i ** 3,
        "float64": xp.astype(x, xp.float64) * 0.5 + xp.floor(xp.astype(x, xp.float64)),
        "float16": xp.sum(xp.astype(x, xp.float16) * 3, axis=1),
        "math": xp.exp(x) + xp.sin(xp.astype(x, xp.float64)) + xp.atan2(x, x) + xp.hypot(x, x),
        "complex64": xp.sum(xp.exp(z) * z ** 2.5 / (z + 1j), axis=1) + xp.abs(xp.sqrt(z))[:, 0],
        "complex128": xp.where(xp.real(w) > 0, xp.atanh(w) ** w, xp.conj(w)) + xp.sign(w),
    }


@pytest.mark.skipif(shutil.which("spirv-val") is None, reason="spirv-val is not installed")
@pytest.mark.parametrize("case", sorted(_corpus()))
def test_modules_validate(case: str, tmp_path: Path) -> None:
    for strategy, data in _modules(_corpus()[case]):
        assert struct.unpack("<I", data[:4])[0] == MAGIC
        _validate(data, tmp_path / f"{strategy}.spv")
        if case.startswith("g_"):
            assert strategy.startswith(case)


@pytest.mark.skipif(shutil.which("spirv-val") is None, reason="spirv-val is not installed")
@pytest.mark.parametrize("case", ["g_row", "g_split", "argmax", "complex64", "float16"])
def test_subgroup_reductions_validate(case: str, tmp_path: Path) -> None:
    """Where the device has a fixed subgroup size, work-group reductions shuffle within
    subgroups (OpGroupNonUniformShuffleXor) and combine one slot per subgroup."""
    import dataclasses
    info = dataclasses.replace(INFO, extra={"subgroup": 32})
    seen = 0
    for plan in schedule([_corpus()[case]._node.base()]):
        c = canonicalize(plan, info)
        for phase in range(phases(c)):
            data = render(lower(c, "k", phase), "spirv").binary
            _validate(data, tmp_path / f"{case}{phase}.spv")
            words = struct.unpack(f"<{len(data) // 4}I", data)
            seen += any(w & 0xFFFF == 346 for w in words)     # OpGroupNonUniformShuffleXor
    assert seen


@pytest.mark.skipif(shutil.which("spirv-val") is None, reason="spirv-val is not installed")
def test_a_driver_that_fuses_fma_gets_it(tmp_path: Path) -> None:
    """On a device whose Fma rounds once (DeviceInfo.extra["fused_fma"]) the math routines'
    fma is GLSL.std.450's Fma, not the exact emulation."""
    import dataclasses
    x = xp.asarray(np.ones(4, np.float32))
    (plan,) = schedule([(xp.exp(x) + xp.astype(xp.sin(xp.astype(x, xp.float64)),
                                                xp.float32))._node])
    sizes = []
    for fused in ((False, False), (True, True)):
        info = dataclasses.replace(INFO, extra={"fused_fma": fused})
        data = render(lower(canonicalize(plan, info), "k"), "spirv").binary
        _validate(data, tmp_path / f"k{fused[0]}.spv")
        sizes.append(len(data))
    assert sizes[1] < sizes[0] * 0.8


@pytest.mark.skipif(shutil.which("spirv-val") is None, reason="spirv-val is not installed")
def test_float_controls_the_device_supports_are_requested(tmp_path: Path) -> None:
    """Subnormals and signed zeros/inf/NaN are kept where the device can keep them
    (SPV_KHR_float_controls execution modes from DeviceInfo.extra)."""
    import dataclasses
    info = dataclasses.replace(INFO, extra={"float_controls": [
        ("denorm_preserve", 32), ("signed_zero_inf_nan_preserve", 32),
        ("signed_zero_inf_nan_preserve", 64)]})
    (plan,) = schedule([xp.exp(xp.asarray(np.ones(4, np.float32)))._node])
    data = render(lower(canonicalize(plan, info), "k"), "spirv").binary
    _validate(data, tmp_path / "k.spv", "vulkan1.2")
    assert b"SPV_KHR_float_controls" in data


@pytest.mark.skipif(shutil.which("spirv-val") is None, reason="spirv-val is not installed")
def test_a_device_without_float64_gets_modules_without_it(tmp_path: Path) -> None:
    """c_math's float32 inverse trigonometric functions evaluate the float64 helper; for a
    device without float64 the module uses GLSL.std.450's float32 ones and declares no
    Float64 capability (the float arguments are float32 too)."""
    import dataclasses
    info = dataclasses.replace(INFO, float64=False)
    x = xp.asarray(np.ones(4, np.float32))
    z = xp.astype(x, xp.complex64)
    (plan,) = schedule([(xp.asin(x) + xp.atan2(x, x) * 0.5 + xp.exp(x) + xp.sin(x) ** x
                         + xp.abs(xp.log(z) ** z))._node])
    data = render(lower(canonicalize(plan, info), "k"), "spirv").binary
    _validate(data, tmp_path / "k.spv")
    words = struct.unpack(f"<{len(data) // 4}I", data)
    declared = {words[i + 1] for i in range(5, len(words) - 1) if words[i] == (2 << 16 | 17)}
    assert 1 in declared and 10 not in declared      # (OpCapability Shader, not Float64)


def test_the_source_reads_as_text_and_carries_the_module() -> None:
    (plan,) = schedule([(xp.asarray(np.ones(4, np.float32)) * 3)._node])
    src = render(lower(canonicalize(plan, INFO), "k"), "spirv")
    assert isinstance(src, str) and "SPIR-V module of" in src and "STORE" in src
    assert len(src.binary) % 4 == 0 and len(src.binary) > 100
