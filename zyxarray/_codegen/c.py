"""The C99 dialect for the ``cpu`` device: OpenMP for the parallel loop, cffi-callable.

Layer: ``_codegen``. Imports the C-family base only.

Every kernel has one signature, so one cffi declaration serves all of them::

    void zx_kernel(void** restrict bufs, const int64_t* restrict ip, const double* restrict fp) {
      const float* restrict v0 = (const float*)bufs[0];
      ...
      #pragma omp parallel for schedule(static) if (ip[3] != 0)
      for (int64_t v7 = 0; v7 < v5; v7++) {
"""

from __future__ import annotations

import numpy as np

from .cstyle import CStyleRenderer
from .ir import BOOL, Kernel

KERNEL_NAME = "zx_kernel"
CDEF = f"void {KERNEL_NAME}(void** bufs, const int64_t* ip, const double* fp);"


#: every kernel's stop flag: the cpu runtime sets it (through cffi) when Ctrl-C arrives during
#: a launch, and each pass of the outer loop skips its work once it is set
ABORT = "zx_abort"


class CRenderer(CStyleRenderer):
    language = "c"
    wraps_signed = True     # (the cpu device compiles with -fwrapv)
    headers = (*CStyleRenderer.headers, f"volatile int {ABORT} = 0;")

    def signature(self, kernel: Kernel) -> list[str]:
        return [f"void {KERNEL_NAME}(void** restrict bufs, const int64_t* restrict ip, "
                "const double* restrict fp) {",
                "  (void)ip; (void)fp;"]

    def buffer_decl(self, index: int, dtype: np.dtype, writable: bool, var: str) -> str:
        # (bool buffers as bytes: gcc vectorizes no loop that loads a _Bool, and a mask
        # read next to float64 values kept a sampler's loop scalar; stores of 0 and 1 and
        # ``load``'s ``!= 0`` give the same values)
        t = "uint8_t" if dtype == BOOL else self.ctype(dtype)
        const = "" if writable else "const "
        return f"{const}{t}* restrict {var} = ({const}{t}*)bufs[{index}];"

    def load(self, buf: str, index: str, dtype: np.dtype) -> str:
        return f"({buf}[{index}] != 0)" if dtype == BOOL else f"{buf}[{index}]"

    def global_loop(self, var: str, start: str, end: str, kernel: Kernel) -> list[str]:
        flag = kernel.meta.get("parallel_arg")
        pragma = "#pragma omp parallel for schedule(static)"
        if flag is not None:
            pragma += f" if (ip[{flag}] != 0)"
        return [pragma, f"for (int64_t {var} = {start}; {var} < {end}; {var}++) {{",
                f"  if ({ABORT}) continue;"]

    def loop_check(self, var: str, kind: str) -> str | None:
        # every 4096 passes of a reduction's loop (a pass is a block of SIMD lanes or one
        # step of a serial reduction): one or two a millisecond, nothing measurable
        if kind == "reduce":
            return f"if (({var} & 4095) == 0 && {ABORT}) break;"
        return None
