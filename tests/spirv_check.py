"""Validate the SPIR-V rendering of every kernel the test session builds (issue 15).

While the tests run, every kernel a device compiles is also lowered for a Vulkan device
(thread-style, 1024 items per group) and rendered as SPIR-V, with its buffers bound as
descriptors and again by address (``extra["addresses"]``); at the end of the session each
distinct module goes through ``spirv-val --target-env vulkan1.1``, so a renderer error fails
the run. Kernels with ops the renderer does not render yet (``SpirvUnsupported``) are
counted and their ops listed in the summary. Enabled when ``spirv-val`` is on PATH;
``ZYXARRAY_SPIRV_CHECK=0`` turns it off.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

VULKAN_INFO_ARGS = dict(name="vulkan:check", kind="vulkan", language="spirv", style="threads",
                        max_work_group=1024, local_memory=32 * 1024, simd_lanes=1,
                        compute_units=16, launch_bounds=True)


class SpirvCheck:
    def __init__(self, validator: str) -> None:
        from zyxarray._devices.base import DeviceInfo
        self.validator = validator
        self.info = DeviceInfo(**VULKAN_INFO_ARGS)   # type: ignore[arg-type]
        # (and the same kernels with their buffers by address, as Vulkan devices with
        # bufferDeviceAddress run them)
        self.addressed = DeviceInfo(**VULKAN_INFO_ARGS,  # type: ignore[arg-type]
                                    extra={"addresses": True})
        self.modules: dict[tuple, bytes] = {}
        self.listings: dict[bytes, str] = {}     # module -> the kernel IR it came from
        self.unsupported: Counter[str] = Counter()
        self.errors: list[str] = []

    def install(self) -> None:
        from tests.cuda_check import install_recorder
        install_recorder(self.record)

    def state(self) -> dict:
        """What the check has recorded (a pytest-xdist worker hands it to the controller)."""
        return {"modules": self.modules, "listings": self.listings,
                "unsupported": self.unsupported, "errors": self.errors}

    def merge(self, state: dict) -> None:
        self.modules.update(state["modules"])
        self.listings.update(state["listings"])
        self.unsupported.update(state["unsupported"])
        self.errors += state["errors"]

    def record(self, c: Any) -> None:
        from zyxarray._codegen.spirv import SpirvUnsupported, render
        from zyxarray._lazy.lower import canonicalize, lower, phases
        if c.info.kind == "vulkan":
            return
        try:
            cc = canonicalize(c.plan, self.info)
        except Exception as e:
            self.errors.append(f"canonicalizing for vulkan failed: {type(e).__name__}: {e}")
            return
        if (cc.key, 0) in self.modules:
            return
        try:
            for phase in range(phases(cc)):
                src = render(lower(cc, "kernel", phase))
                self.modules[(cc.key, phase)] = src.binary
                self.listings[src.binary] = str(src)
            ca = canonicalize(c.plan, self.addressed)
            for phase in range(phases(ca)):
                src = render(lower(ca, "kernel", phase))
                self.modules[(cc.key, phase, "addresses")] = src.binary
                self.listings[src.binary] = str(src)
        except SpirvUnsupported as e:
            self.unsupported[_why(str(e))] += 1
            self.modules[(cc.key, 0)] = b""          # (counted once per structure)
        except Exception as e:   # a lowering/rendering failure is a renderer bug
            self.errors.append(f"SPIR-V rendering failed: {type(e).__name__}: {e}")

    def check(self) -> list[str]:
        """Validate every module rendered; a list of failures (empty when all are valid)."""
        failures = list(self.errors)
        modules = [m for m in self.modules.values() if m]
        with tempfile.TemporaryDirectory() as tmp:
            def validate(item: tuple[int, bytes]) -> str | None:
                i, data = item
                path = os.path.join(tmp, f"k{i}.spv")
                with open(path, "wb") as f:
                    f.write(data)
                proc = subprocess.run([self.validator, "--target-env", "vulkan1.1", path],
                                      capture_output=True, text=True)
                if proc.returncode == 0:
                    return None
                dis = shutil.which("spirv-dis")
                listing = ""
                if dis:
                    listing = subprocess.run([dis, path], capture_output=True,
                                             text=True).stdout[-3000:]
                return (f"spirv-val rejected a module:\n{proc.stderr[-2000:]}\n"
                        f"{self.listings.get(data, '')[-3000:]}\n{listing}")

            with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
                for result in pool.map(validate, enumerate(modules)):
                    if result is not None:
                        failures.append(result)
        return failures

    def summary(self) -> str:
        rendered = sum(1 for m in self.modules.values() if m)
        text = f"zyxarray: SPIR-V rendering of {rendered} kernels checked with spirv-val"
        if self.unsupported:
            ops = ", ".join(f"{why} ({n})" for why, n in self.unsupported.most_common(8))
            text += f"; {sum(self.unsupported.values())} not rendered yet: {ops}"
        return text


def _why(message: str) -> str:
    """The op (and dtype) a SpirvUnsupported message names, for the summary's tally."""
    text = message.split(": ", 1)[-1]
    return text.split(" is not")[0].split(" are not")[0][:60]


def enabled() -> str | None:
    """The spirv-val to use, or None when the check is off or impossible."""
    if os.environ.get("ZYXARRAY_SPIRV_CHECK", "1") == "0":
        return None
    return shutil.which("spirv-val")
