"""Compile the HIP rendering of every kernel the test session builds for real AMD targets.

CI has no AMD GPU and no ROCm, but Debian's clang compiles HIP device code for AMD targets
by itself (HIP kernels include no header and call no device library: see
``zyxarray/_codegen/hip.py``). While the tests run, every kernel a device compiles is also
lowered for a HIP device twice: with 64-lane wavefronts (CDNA: compiled for ``gfx942``,
MI300, and ``gfx90a``, MI200) and with 32-lane ones (RDNA: ``gfx1100``, Radeon RX 7900).
At the end of the session the distinct sources are compiled in batches (each kernel renamed,
in its own namespace) with ``clang -x hip -nogpulib -nogpuinc --cuda-device-only -O3``, and
the code objects' metadata (``llvm-readelf --notes``) is read: a compile error, or a kernel
that spills VGPRs to scratch memory, fails the run (SGPR spills are counted: see
``_spills_to_memory``). A kernel whose text is the same for both wavefront widths (no
whole-group reduction) is compiled once, for all three targets.

While the tests run, each process compiles the kernels it has recorded so far (the ones whose
text is the same for both widths, in batches) in a background thread, with clang at the
lowest CPU priority: the time the tests leave the cores idle (about 7% of two cores) does
part of the work, and the end of the session compiles only what is left.

Enabled when ``clang-19`` (or ``$ZYXARRAY_HIP_CLANG``) and ``llvm-readelf-19`` are found;
``ZYXARRAY_HIP_CHECK=0`` turns it off; ``ZYXARRAY_HIP_CHECK_DUMP=<folder>`` writes the
failing kernels' sources there, and those that spill SGPRs or use scratch memory in its
``sgpr_spills`` folder.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.cuda_check import KernelCheck

BATCH = 40
#: (wavefront width, targets compiled with that rendering)
TARGETS = ((64, ("gfx942", "gfx90a")), (32, ("gfx1100",)))
HIP_INFO_ARGS = dict(kind="hip", language="hip", style="threads", max_work_group=1024,
                     local_memory=64 * 1024, simd_lanes=1, compute_units=304)
FLAGS = ("-x", "hip", "-nogpulib", "-nogpuinc", "--cuda-device-only", "--no-gpu-bundle-output",
         "-std=c++17", "-O3", "-ffp-contract=off", "-c")

_FIELD = re.compile(r"^\s*-?\s*\.(\w+):\s*(\S+)\s*$")


class HipCheck(KernelCheck):
    def __init__(self, clang: str, readelf: str) -> None:
        from zyxarray._devices.base import DeviceInfo
        from zyxarray._devices.cuda import INLINE_SHAPES_ABOVE
        super().__init__()
        self.clang, self.readelf = clang, readelf
        self.infos = {w: DeviceInfo(name=f"hip:check{w}", extra={
            "subgroup": w, "inline_shapes": INLINE_SHAPES_ABOVE},
            **HIP_INFO_ARGS)  # type: ignore[arg-type]
                      for w, _ in TARGETS}
        #: (key, phase) -> (source for 64-lane wavefronts, source for 32 or None if the same)
        self.sources: dict[tuple, tuple[str, str | None]] = {}
        self.stats: dict[str, Any] = {}
        #: what the background thread compiled: source text -> its kernels' metadata
        #: (every target), and the failures it met
        self.early: dict[str, list[dict[str, Any]]] = {}
        self.early_failures: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def install(self) -> None:
        super().install()
        self._thread = threading.Thread(target=self._background, name="hip-check",
                                        daemon=True)
        self._thread.start()

    def _background(self) -> None:
        """Compile recorded kernels of one text for every target, a batch at a time, while
        the session runs (clang at the lowest priority: only idle cores do this work)."""
        (wide, wide_archs), (narrow, narrow_archs) = TARGETS
        archs = wide_archs + narrow_archs
        with tempfile.TemporaryDirectory() as tmp:
            n = 0
            while not self._stop.wait(3.0):
                texts = [a for a, b in list(self.sources.values()) if b is None]
                batch = [a for a in dict.fromkeys(texts) if a not in self.early][:BATCH]
                if len(batch) < BATCH:
                    continue
                n += 1
                failure, found = _compile_batch(self.clang, self.readelf, f"{wide}/{narrow}",
                                                archs, batch, 0, os.path.join(tmp, str(n)),
                                                nice=True)
                if failure:
                    self.early_failures.append(failure)
                for a in batch:
                    self.early[a] = []
                for k in found:     # (the source kept only where it is reported or dumped)
                    keep = _spills_to_memory(k) or (
                        os.environ.get("ZYXARRAY_HIP_CHECK_DUMP")
                        and (int(k.get("sgpr_spill_count", 0))
                             or int(k.get("private_segment_fixed_size", 0))))
                    text = k["text"] if keep else k.pop("text")
                    self.early[text].append(k)

    def stop(self) -> None:
        """End the background compiles (the batch in flight finishes)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def state(self) -> dict:
        self.stop()
        return {**super().state(), "early": self.early, "early_failures": self.early_failures}

    def merge(self, state: dict) -> None:
        super().merge(state)
        self.early.update(state.get("early", {}))
        self.early_failures += state.get("early_failures", [])

    def record(self, c: Any) -> None:
        from zyxarray._codegen import render
        from zyxarray._codegen.ir import Op
        from zyxarray._lazy.lower import canonicalize, lower, phases
        wide, narrow = (self.infos[w] for w, _ in TARGETS)
        cc = canonicalize(c.plan, wide)
        if (cc.key, 0) in self.sources:
            return
        try:
            for phase in range(phases(cc)):
                k = lower(cc, "kernel", phase)
                src = render(k, "hip")
                # the wavefront width matters only to whole-group reductions: other kernels
                # are the same text for both widths (compiled once, for every target)
                other = None
                if any(x.op is Op.GROUP_REDUCE for x in k.instrs):
                    other = render(lower(canonicalize(c.plan, narrow), "kernel", phase), "hip")
                self.sources[(cc.key, phase)] = (src, other)
        except Exception as e:   # a lowering/rendering failure is a renderer bug too
            self.errors.append(f"HIP rendering failed: {type(e).__name__}: {e}")

    def count(self) -> int:
        """Renderings recorded (a kernel whose text differs by wavefront counts twice)."""
        return sum(1 + (other is not None) for _, other in self.sources.values())

    def check(self) -> list[str]:
        """Compile everything recorded for every target; a list of failures (compile errors
        and kernels that spill), empty when all is well. ``stats`` gets the register use."""
        self.stop()
        failures = list(self.errors) + self.early_failures
        (wide, wide_archs), (narrow, narrow_archs) = TARGETS
        # (kernels of different structures can render to the same text: compiled once)
        entries = list(dict.fromkeys(self.sources[k] for k in sorted(self.sources, key=repr)))
        kernels: list[dict[str, Any]] = [k for ks in self.early.values() for k in ks]
        groups = [(f"{wide}/{narrow}", wide_archs + narrow_archs,
                   [a for a, b in entries if b is None and a not in self.early]),
                  (str(wide), wide_archs, [a for a, b in entries if b is not None]),
                  (str(narrow), narrow_archs, [b for _, b in entries if b is not None])]
        jobs = [(wave, archs, sources[i:i + BATCH], i) for wave, archs, sources in groups
                for i in range(0, len(sources), BATCH)]
        with tempfile.TemporaryDirectory() as tmp:
            def compile_batch(job: tuple) -> tuple[str | None, list[dict[str, Any]]]:
                wave, archs, batch, start = job
                return _compile_batch(self.clang, self.readelf, wave, archs, batch, start,
                                      os.path.join(tmp, f"w{wave.replace('/', '_')}_{start}"))

            with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                for failure, found in pool.map(compile_batch, jobs):
                    if failure:
                        failures.append(failure)
                    kernels += found
        dump = os.environ.get("ZYXARRAY_HIP_CHECK_DUMP")   # (a folder for failing kernels)
        for n, k in enumerate(kernels):
            why = _spills_to_memory(k)
            if why:
                failures.append(f"a kernel {why} on {k['arch']}:\n{k['text'][-3000:]}")
            sgprs = int(k.get("sgpr_spill_count", 0))
            scratch = int(k.get("private_segment_fixed_size", 0))
            if dump and (why or sgprs or scratch):  # (SGPR spills and scratch: their folder)
                folder = dump if why else os.path.join(dump, "sgpr_spills")
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, f"kernel{n}_{k['arch']}.hip"), "w") as f:
                    f.write(f"// {k['arch']}: {sgprs} SGPRs spilled, {k.get('sgpr_count')} "
                            f"SGPRs, {k.get('vgpr_count')} VGPRs, {scratch} bytes of "
                            f"scratch\n" + k["text"])
        self.stats = {
            "objects": len(kernels),
            "max_vgprs": max((int(k.get("vgpr_count", 0)) for k in kernels), default=0),
            "scratch": sum(1 for k in kernels if int(k.get("private_segment_fixed_size", 0))),
            "sgpr_spills": sum(1 for k in kernels if int(k.get("sgpr_spill_count", 0))),
        }
        return failures


def _compile_batch(clang: str, readelf: str, wave: str, archs: tuple[str, ...],
                   batch: list[str], start: int, folder: str, nice: bool = False
                   ) -> tuple[str | None, list[dict[str, Any]]]:
    """Compile ``batch`` (kernel sources, renamed ``zx_kernel_<start + i>``, each in its own
    namespace) for ``archs`` in a new ``folder`` (at the lowest CPU priority if ``nice``):
    (clang's error, or None; every kernel's metadata with its ``arch`` and source ``text``)."""
    from zyxarray._codegen.hip import PRELUDE
    parts = [PRELUDE]
    for i, src in enumerate(batch):
        body = re.sub(r"\bzx_kernel\b", f"zx_kernel_{start + i}", src.replace(PRELUDE, "", 1))
        parts.append(f"namespace k{start + i} {{\n{body}\n}}")
    os.makedirs(folder)
    path = os.path.join(folder, "batch.hip")
    with open(path, "w") as f:
        f.write("\n".join(parts))
    cmd = [clang, *FLAGS, *(f"--offload-arch={a}" for a in archs), path]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=folder,
                          preexec_fn=(lambda: os.nice(19)) if nice else None)
    if proc.returncode != 0:
        return (f"clang rejected the HIP rendering of kernels {start}..{start + len(batch) - 1}"
                f" (wavefront {wave}, {', '.join(archs)}):\n{proc.stderr[-4000:]}"), []
    found = []
    for obj in sorted(glob.glob(os.path.join(folder, "*.out"))):
        notes = subprocess.run([readelf, "--notes", obj], capture_output=True, text=True).stdout
        arch = obj.rsplit("-", 1)[-1].removesuffix(".out")
        found += [dict(k, arch=arch, text=batch[int(k["name"].rsplit("_", 1)[1]) - start])
                  for k in _kernels(notes)]
    shutil.rmtree(folder, ignore_errors=True)
    return None, found


def _spills_to_memory(k: dict[str, str]) -> str:
    """Why kernel ``k`` (its metadata) fails the check: VGPR spills, which always go to scratch
    memory. "" when it does not.

    SGPR spills are counted, not failed (``stats``): an SGPR spills into a lane of a VGPR
    (``v_writelane``, no memory traffic) while VGPR lanes are free. Kernels with more than
    ``INLINE_SHAPES_ABOVE`` arguments have their sizes and view parameters written into
    their source (``lower._inline_shapes``), which removed most of them; those left are
    kernels with dozens of 64-bit constants (the random generators' keys and counters,
    fuzzed expressions), which stay arguments so that a loop changing one does not compile
    a kernel per value."""
    vgpr = int(k.get("vgpr_spill_count", 0))
    if vgpr:
        return f"spills {vgpr} VGPRs to scratch memory ({k.get('vgpr_count')} VGPRs)"
    return ""


def _kernels(notes: str) -> list[dict[str, str]]:
    """The kernels' fields (``name``, ``vgpr_count``, ``vgpr_spill_count``, ...) from
    ``llvm-readelf --notes`` of an AMDGPU code object."""
    out: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    for line in notes.splitlines():
        if line.startswith("  - .") or line.startswith("  - .agpr_count"):
            current = {}
            out.append(current)
        m = _FIELD.match(line)
        if m and current is not None and line.startswith(("  - .", "    .")):
            current[m.group(1)] = m.group(2)
    return [k for k in out if "name" in k]


def enabled() -> tuple[str, str] | None:
    """(clang, llvm-readelf) to use, or None when the check is off or impossible."""
    if os.environ.get("ZYXARRAY_HIP_CHECK", "1") == "0":
        return None
    clang = os.environ.get("ZYXARRAY_HIP_CLANG") or shutil.which("clang-19")
    readelf = shutil.which("llvm-readelf-19") or shutil.which("llvm-readelf")
    if not clang or not readelf:
        return None
    return clang, readelf
