"""The CUDA C++ dialect for ``cuda:N`` devices (compiled by NVRTC at run time), and the base
it shares with the HIP dialect (``hip.py``).

Layer: ``_codegen``. Imports the C-family base only.

Every kernel is ``extern "C"`` and named ``zx_kernel``; its arguments are the buffers, then
each int argument as a ``long long``, then each float argument as a ``double``::

    extern "C" __global__ void __launch_bounds__(256)
    zx_kernel(const float* __restrict__ b0, float* __restrict__ b1, long long i0, double f0) {
      const long long v4 = (long long)blockIdx.x;

NVRTC has no C standard headers: types are C++'s own (``long long``) and the preamble defines
the float limits; complex numbers are ``float2``/``double2`` with the helpers of ``complex_vec``.
"""

from __future__ import annotations

import numpy as np

from .cstyle import CStyleRenderer, stored
from .ir import Instr, Kernel, Op, identity

KERNEL_NAME = "zx_kernel"

PREAMBLE = """#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38f
#endif
#ifndef DBL_MAX
#define DBL_MAX 1.7976931348623157e+308
#endif"""


class CudaFamilyRenderer(CStyleRenderer):
    """What the CUDA and HIP dialects share: ``extern "C" __global__`` kernels with
    ``__launch_bounds__``, buffers as ``__restrict__`` pointers, ints as ``long long`` and
    floats as ``double`` arguments, ``__shared__`` arrays, complex numbers as two-component
    vectors, and whole-group reductions through shuffles within a warp (wavefront) of
    ``kernel.meta["subgroup"]`` lanes (``default_warp`` when the device did not say; with
    neither, the work-group memory tree).

    A dialect sets the types and headers and says how to spell a work item's ids, the barrier
    and the xor shuffle (``special``, ``barrier``, ``shuffle_xor``)."""

    types = dict(CStyleRenderer.types, bool="bool", int8="signed char", int16="short",
                 int32="int", int64="long long", uint8="unsigned char", uint16="unsigned short",
                 uint32="unsigned int", uint64="unsigned long long", complex64="float2",
                 complex128="double2")
    restrict = "__restrict__"
    fn_prefix = "__device__ inline"
    bitmask_select = False
    vector_complex = True
    float_header = ""
    default_warp: int | None = 32
    kernel_attributes = ""        # after __launch_bounds__ (HIP: an occupancy target)

    def render(self, kernel: Kernel) -> str:
        self._warp = int(kernel.meta.get("subgroup") or self.default_warp or 0)
        return super().render(kernel)

    def signature(self, kernel: Kernel) -> list[str]:
        args = []
        for i, (dtype, writable) in enumerate(kernel.buffers):
            args.append(f"{'' if writable else 'const '}{self.ctype(stored(dtype))}* "
                        f"__restrict__ b{i}")
        args += [f"long long i{i}" for i in range(kernel.n_ints)]
        args += [f"double f{i}" for i in range(kernel.n_floats)]
        size = kernel.meta.get("local_size", 1)
        return [f'extern "C" __global__ void __launch_bounds__({size}){self.kernel_attributes}',
                f"{KERNEL_NAME}({', '.join(args)}) {{"]

    def buffer_decl(self, index: int, dtype: np.dtype, writable: bool, var: str) -> str:
        const = "" if writable else "const "
        return f"{const}{self.ctype(dtype)}* __restrict__ {var} = b{index};"

    def int_arg(self, index: int) -> str:
        return f"i{index}"

    def float_arg(self, index: int) -> str:
        return f"f{index}"

    def shared_array(self, ctype: str, name: str, size: int) -> str:
        return f"__shared__ {ctype} {name}[{size}];"

    def shuffle_xor(self, var: str, mask: str, local: str) -> str:
        """``var`` of the lane whose index differs from this one's in the bits ``mask``
        (``local`` is this work item's local id; warps are consecutive local ids)."""
        raise NotImplementedError

    def group_reduce(self, v: str, x: Instr, value: str, local: str) -> list[str]:
        """Whole-group combines (stride 1) of real values go through shuffles: each warp
        combines its values, then the first warp combines the warps' results."""
        combine, size, stride = x.arg
        warp = self._warp
        if not warp or stride != 1 or size < warp or size > warp * warp or size % warp or \
                x.dtype.kind == "c":  # type: ignore[union-attr]
            return super().group_reduce(v, x, value, local)
        t = self.ctype(x.dtype)  # type: ignore[arg-type]
        acc = Instr(Op.ACC, x.dtype, (), (combine, 1))
        mem = f"zx_shared_{v}"
        self._shared.append(self.shared_array(t, mem, warp))

        def warp_combine(var: str) -> list[str]:
            return [f"for (int o = {warp // 2}; o > 0; o >>= 1) {{",
                    f"  const {t} c = {self.shuffle_xor(var, 'o', local)};",
                    f"  {var} = {self._combine(acc, var, 'c')};", "}"]

        warps = size // warp
        shift = warp.bit_length() - 1
        neutral = self.literal(identity(Op(combine), x.dtype), x.dtype)  # type: ignore[arg-type]
        lines = [f"{t} {v}_w = {value};", *warp_combine(f"{v}_w"),
                 f"if (({local} & {warp - 1}) == 0) {mem}[{local} >> {shift}] = {v}_w;",
                 self.barrier(),
                 f"if ({local} < {warp}) {{",
                 f"  {t} {v}_g = {local} < {warps} ? {mem}[{local}] : {neutral};",
                 *("  " + line for line in warp_combine(f"{v}_g")),
                 f"  if ({local} == 0) {mem}[0] = {v}_g;",
                 "}", self.barrier(),
                 f"const {t} {v} = {mem}[0];"]
        return lines


class CUDARenderer(CudaFamilyRenderer):
    language = "cuda"
    headers = (PREAMBLE,)
    vector_make = "make_{vec}({0}, {1})"
    use_c_math = False

    def negate_narrow(self, t: str, x: str, ut: str) -> str:
        """NVIDIA's ptxas computes ``neg.s16`` (and ``neg.s8``) in a 32-bit register
        without sign-extending the result: -(-32768) then reads as 32768 in the next
        comparison or widening (every other int16 value is right). NVVM makes that ``neg``
        of any subtraction from a zero it can see (``__vneg2`` fared no better: its
        ``add.u16x2`` gave 32767), so the zero here is ``blockIdx.z``, which the compilers
        cannot know and every launch leaves at 0 (the grid is one block deep)."""
        return f"(({t})(({ut})blockIdx.z - ({ut}){x}))"

    def special(self, name: str) -> str:
        return {"group_id": "blockIdx.x", "local_id": "threadIdx.x"}[name]

    def barrier(self) -> str:
        return "__syncthreads();"

    def shuffle_xor(self, var: str, mask: str, local: str) -> str:
        return f"__shfl_xor_sync(0xffffffffu, {var}, {mask})"
