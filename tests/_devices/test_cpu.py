"""The cpu device: a compiler failure is a CompileError with the source and the log; the
on-disk cache serves repeated compiles and survives a corrupt entry."""

from __future__ import annotations

import numpy as np
import pytest

import zyxarray as xp
from zyxarray import _env
from zyxarray._codegen import render
from zyxarray._devices import cache, registry

pytestmark = pytest.mark.skipif("cpu" not in registry.devices(),
                                reason="no cpu device (no C compiler)")


def test_compile_error_holds_source_and_log() -> None:
    cpu = registry.get("cpu")
    before = cpu.compiles
    with pytest.raises(xp.CompileError) as info:
        cpu.compile("this is not C", None)
    err = info.value
    assert isinstance(err, xp.ZyxarrayError)
    assert err.source == "this is not C"
    assert err.log.strip(), "the compiler's diagnostics are kept"
    assert "error" in err.log.lower()
    assert err.device == "cpu" and err.command
    assert "this is not C" in str(err) and "1  this is not C" in str(err)
    assert cpu.compiles == before + 1


def _fresh_source(tag: str) -> str:
    # a valid kernel whose text no other test produces (the comment changes the digest)
    return (f"/* {tag} */\n#include <stdint.h>\n"
            "void zx_kernel(void** bufs, const int64_t* ip, const double* fp) {\n"
            "  double* out = (double*)bufs[0]; out[0] = fp[0] * 2.0; (void)ip;\n}\n")


def _call(prog, value: float) -> float:  # type: ignore[no-untyped-def]
    cpu = registry.get("cpu")
    buf = cpu.alloc(8)
    prog([buf], [], [value])
    return float(cpu.copy_out(buf).view(np.float64)[0])


def test_second_compile_of_a_source_is_a_cache_hit(request: pytest.FixtureRequest) -> None:
    cpu = registry.get("cpu")
    source = _fresh_source(request.node.nodeid)
    before = cpu.compiles
    assert _call(cpu.compile(source, None), 1.5) == 3.0
    assert cpu.compiles == before + 1
    assert _call(cpu.compile(source, None), 2.0) == 4.0
    assert cpu.compiles == before + 1, "the second compile of the same source is a cache hit"
    if cache.enabled():
        path = cache.lookup("cpu", cache.key(source, cpu._signature), ".so")
        assert path is not None and path.is_relative_to(_env.cache_dir())
    # (a corrupt entry is tested in test_cache.py, in fresh processes: overwriting a
    # shared object this process has loaded would crash it)


def test_generated_kernels_compile(device: str) -> None:
    """Every kernel of a mixed workload renders to C that the compiler accepts (the kernels
    of loop-style devices; thread-style IR has no C rendering)."""
    if registry.get(device).info.style != "loops":
        pytest.skip(f"{device} lowers to thread-style IR, which has no C rendering")
    x = xp.asarray(np.linspace(-1, 1, 24).reshape(2, 3, 4), device=device)
    cpu = registry.get("cpu")
    for e in (xp.exp(x) * x, xp.sum(x, axis=(0, 2)), xp.max(x.T, axis=0),
              xp.where(x > 0, x, 0.0), xp.astype(x * 100, xp.int16) >> 2, xp.std(x, axis=1)):
        for k in xp.explain(e):
            cpu.compile(render(k.ir, "c"), k.ir)
