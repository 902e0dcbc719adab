"""Compile-check the CUDA rendering of every kernel the test session builds.

CI has ``nvcc`` but no GPU. While the tests run, every kernel a device compiles is also
lowered for a CUDA device (sm_90, 1024 threads per block) and rendered as CUDA C++; at the
end of the session the distinct sources are compiled with ``nvcc --ptx`` in batches (each
kernel in its own namespace, renamed), so a CUDA renderer error fails the run without a GPU.
Enabled when ``nvcc`` is on PATH; ``ZYXARRAY_CUDA_CHECK=0`` turns it off.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

BATCH = 60
CUDA_INFO_ARGS = dict(name="cuda:check", kind="cuda", language="cuda", style="threads",
                      max_work_group=1024, local_memory=48 * 1024, simd_lanes=1,
                      compute_units=132)


class KernelCheck:
    """What the session-end checks of a rendering share: kernels recorded as the tests build
    them (``record``), by key, and rendering errors; a pytest-xdist worker hands ``state``
    to the controller, which ``merge``s every worker's."""

    def __init__(self) -> None:
        self.sources: dict[tuple, Any] = {}
        self.errors: list[str] = []

    def install(self) -> None:
        install_recorder(self.record)

    def record(self, c: Any) -> None:
        raise NotImplementedError

    def state(self) -> dict:
        """What the check has recorded (a pytest-xdist worker hands it to the controller)."""
        return {"sources": self.sources, "errors": self.errors}

    def merge(self, state: dict) -> None:
        self.sources.update(state["sources"])
        self.errors += state["errors"]


class CudaCheck(KernelCheck):
    def __init__(self, nvcc: str) -> None:
        from zyxarray._devices.base import DeviceInfo
        super().__init__()
        self.nvcc = nvcc
        self.info = DeviceInfo(**CUDA_INFO_ARGS)   # type: ignore[arg-type]

    def record(self, c: Any) -> None:
        from zyxarray._codegen import render
        from zyxarray._lazy.lower import canonicalize, lower, phases
        if c.info.kind == "cuda":
            return
        cc = canonicalize(c.plan, self.info)
        if (cc.key, 0) in self.sources:
            return
        try:
            for phase in range(phases(cc)):
                self.sources[(cc.key, phase)] = render(lower(cc, "kernel", phase), "cuda")
        except Exception as e:   # a lowering/rendering failure is a renderer bug too
            self.errors.append(f"rendering failed: {type(e).__name__}: {e}")

    def check(self) -> list[str]:
        """Compile everything recorded; a list of failures (empty when all compile)."""
        failures = list(self.errors)
        sources = list(self.sources.values())
        with tempfile.TemporaryDirectory() as tmp:
            def compile_batch(start: int) -> str | None:
                batch = sources[start:start + BATCH]
                text = "\n".join(
                    f"namespace k{start + i} {{\n"
                    + re.sub(r"\bzx_kernel\b", f"zx_kernel_{start + i}", src) + "\n}"
                    for i, src in enumerate(batch))
                path = os.path.join(tmp, f"batch{start}.cu")
                with open(path, "w") as f:
                    f.write(text)
                # (NVVM at -O0: the check is whether the source compiles, which the front
                # end and NVVM's verifier decide; optimizing made it 2.6x slower)
                cmd = [self.nvcc, "--ptx", "-arch=sm_90", "-std=c++17", "-w", "-Xcicc", "-O0",
                       "-o", path + ".ptx", path]
                proc = subprocess.run(cmd, capture_output=True, text=True)
                if proc.returncode != 0:
                    return (f"nvcc rejected kernels {start}..{start + len(batch) - 1}:"
                            f"\n{proc.stderr[-4000:]}")
                return None

            # (one nvcc per core: the batches are independent)
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                failures += [f for f in pool.map(compile_batch,
                                                 range(0, len(sources), BATCH)) if f]
        return failures


def install_recorder(record: Any) -> None:
    """Call ``record(c)`` with the canonical form of every kernel the session runs (before
    the device's own program is looked up or built). The SPIR-V check uses it too."""
    from zyxarray._lazy import realize
    original = realize._program

    def recording(c: Any, *args: Any) -> Any:
        record(c)
        return original(c, *args)

    realize._program = recording


def enabled() -> str | None:
    """The nvcc to use, or None when the check is off or impossible."""
    if os.environ.get("ZYXARRAY_CUDA_CHECK", "1") == "0":
        return None
    return shutil.which("nvcc")
