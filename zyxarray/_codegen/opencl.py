"""The OpenCL C dialect for ``opencl:N`` devices: one work item per thread of the IR.

Layer: ``_codegen``. Imports the C-family base only.

Every kernel is named ``zx_kernel``; its arguments are the buffers, then each int argument as a
``long``, then each float argument as a ``double`` (``float`` on devices without fp64)::

    __kernel __attribute__((reqd_work_group_size(256, 1, 1)))
    void zx_kernel(__global const float* restrict b0, __global float* restrict b1,
                   long i0, long i1, double f0) {
      const long v4 = (long)get_group_id(0);

OpenCL's math builtins are overloaded (``exp`` serves float and double), ``bool`` cannot be
a kernel argument (bool buffers are ``uchar``), and complex numbers are ``float2``/``double2``
with the helpers of ``complex_vec``.
"""

from __future__ import annotations

import numpy as np

from .cstyle import CStyleRenderer, stored
from .ir import Kernel

KERNEL_NAME = "zx_kernel"



class OpenCLRenderer(CStyleRenderer):
    language = "opencl"
    types = dict(CStyleRenderer.types, bool="bool", int8="char", int16="short", int32="int",
                 int64="long", uint8="uchar", uint16="ushort", uint32="uint", uint64="ulong",
                 complex64="float2", complex128="double2")
    headers = ()
    fn_prefix = "static inline"   # plain C99 inline leaves no definition when a build does
    #                                not inline (NVIDIA with -cl-opt-disable: unresolved extern)
    bitmask_select = False
    vector_complex = True
    vector_make = "({vec})({0}, {1})"
    use_c_math = False
    checked_pow = True     # PoCL's pow(-inf, 0.5f) is NaN
    float_header = ""

    def negate_narrow(self, t: str, x: str, ut: str) -> str:
        """NVIDIA's compiler turns a subtraction of an int16 (or int8) from a zero it can
        see into ``neg.s16``, which its ptxas gets wrong for -32768 (see
        ``CUDARenderer.negate_narrow``). The zero here is the global offset, which the
        compiler cannot know and every launch leaves at 0 (``_devices/opencl.py``)."""
        return f"(({t})(({ut})get_global_offset(0) - ({ut}){x}))"

    def render(self, kernel: Kernel) -> str:
        # OpenCL C contracts a * b + c into one rounding unless told not to (FP_CONTRACT is
        # on by default): NVIDIA's compiler did, 1 ulp off NumPy (the other dialects
        # build with contraction off too)
        text = "#pragma OPENCL FP_CONTRACT OFF\n" + super().render(kernel)
        if kernel.meta.get("fp64", True):
            text = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" + text
        return text

    def fsuffix(self, dtype: np.dtype) -> str:
        return ""

    def float_arg_type(self, kernel: Kernel) -> str:
        return "double" if kernel.meta.get("fp64", True) else "float"

    def signature(self, kernel: Kernel) -> list[str]:
        args = []
        for i, (dtype, writable) in enumerate(kernel.buffers):
            t = "uchar" if dtype.kind == "b" else self.ctype(stored(dtype))
            args.append(f"__global {'' if writable else 'const '}{t}* restrict b{i}")
        args += [f"long i{i}" for i in range(kernel.n_ints)]
        ft = self.float_arg_type(kernel)
        args += [f"{ft} f{i}" for i in range(kernel.n_floats)]
        size = kernel.meta.get("local_size", 1)
        return [f"__kernel __attribute__((reqd_work_group_size({size}, 1, 1)))",
                f"void {KERNEL_NAME}({', '.join(args)}) {{"]

    def buffer_decl(self, index: int, dtype: np.dtype, writable: bool, var: str) -> str:
        t = "uchar" if np.dtype(dtype).kind == "b" else self.ctype(dtype)
        const = "" if writable else "const "
        return f"__global {const}{t}* restrict {var} = b{index};"

    def int_arg(self, index: int) -> str:
        return f"i{index}"

    def float_arg(self, index: int) -> str:
        return f"f{index}"

    def special(self, name: str) -> str:
        return {"group_id": "get_group_id(0)", "local_id": "get_local_id(0)"}[name]

    def shared_array(self, ctype: str, name: str, size: int) -> str:
        return f"__local {ctype} {name}[{size}];"

    def barrier(self) -> str:
        return "barrier(CLK_LOCAL_MEM_FENCE);"
