"""The HIP C++ dialect for ``hip:N`` devices (AMD GPUs; hiprtc compiles it at run time).

Layer: ``_codegen``. Imports the CUDA dialect's base (``cuda.CudaFamilyRenderer``: kernel
signature, buffers, arguments, shared arrays, shuffle reductions) and ``c_math``.

A HIP kernel is self-contained: it includes no header and calls no device library. The
same text therefore compiles

* with hiprtc on a ROCm machine (the runtime),
* with clang alone (``clang -x hip -nogpulib -nogpuinc --cuda-device-only
  --offload-arch=gfx942``), which is how CI checks every kernel for real AMD targets without
  ROCm or an AMD GPU, and reads the registers and spills of the code objects,
* with NVRTC for an NVIDIA GPU, through the prelude's NVIDIA branch (CUDA's names for the
  few HIP ones), so that the kernels' numerics are checked on real hardware.

What makes that possible:

* the prelude defines what HIP's headers would (``__global__``, ``__device__``,
  ``__shared__``, ``__launch_bounds__``) only where they are missing, and spells a work
  item's ids, the barrier and the cross-lane shuffle with clang's AMDGPU builtins
  (``__builtin_amdgcn_workitem_id_x``, ``s_barrier`` between work-group fences,
  ``ds_bpermute``), which hiprtc and clang both have;
* every math function is the project's own: the transcendental functions are ``c_math``'s
  (as on the cpu device), with a Payne-Hanek reduction for sin/cos/tan of huge arguments,
  hypot and nextafter from ``c_math`` too, and an exact fmod here; the primitives AMD GPUs
  have as instructions (fabs, sqrt, fma, floor, rint, ldexp, frexp, copysign, ...) are
  clang's ``__builtin_`` functions, which NVRTC also takes;
* complex numbers are ``zx_float2``/``zx_double2`` (two fields ``x``, ``y``), defined by the
  prelude, with ``complex_vec``'s helpers calling the functions above;
* floating-point contraction is off in the source (``#pragma STDC FP_CONTRACT OFF``; clang
  contracts ``a * b + c`` by default for HIP), as every other dialect computes.

Group reductions shuffle within a wavefront of ``kernel.meta["subgroup"]`` lanes: 64 on CDNA
(MI300 ``gfx942``, MI200 ``gfx90a``), 32 on RDNA (``gfx1100``) and NVIDIA; a kernel whose
meta does not say (built by hand, not lowered for a device) combines through work-group
memory.
"""

from __future__ import annotations

import re

import numpy as np

from . import c_math
from .cstyle import LIBM_ONLY
from .cuda import CudaFamilyRenderer
from .ir import Instr, Kernel, Op

KERNEL_NAME = "zx_kernel"

PRELUDE = r"""/* zyxarray HIP prelude: no headers, nothing to link */
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
/* NVIDIA (NVRTC, nvcc): CUDA's spelling of the few names below */
#define ZX_LOCAL_ID threadIdx.x
#define ZX_GROUP_ID blockIdx.x
#define ZX_GROUP_Z blockIdx.z
#define ZX_BARRIER() __syncthreads()
#define ZX_SHFL_XOR(v, m, lane) __shfl_xor_sync(0xffffffffu, v, m)
#define ZX_OCCUPANCY
#ifdef __CUDACC_RTC__
/* NVRTC has CUDA's math functions built in but not the GNU builtins (nvcc has both) */
#define __builtin_fabs fabs
#define __builtin_fabsf fabsf
#define __builtin_sqrt sqrt
#define __builtin_sqrtf sqrtf
#define __builtin_floor floor
#define __builtin_floorf floorf
#define __builtin_ceil ceil
#define __builtin_ceilf ceilf
#define __builtin_trunc trunc
#define __builtin_truncf truncf
#define __builtin_rint rint
#define __builtin_rintf rintf
#define __builtin_copysign copysign
#define __builtin_copysignf copysignf
#define __builtin_fma fma
#define __builtin_fmaf fmaf
#define __builtin_fmax fmax
#define __builtin_fmaxf fmaxf
#define __builtin_fmin fmin
#define __builtin_fminf fminf
#define __builtin_frexp frexp
#define __builtin_frexpf frexpf
#define __builtin_ldexp ldexp
#define __builtin_ldexpf ldexpf
#define __builtin_isnan isnan
#define __builtin_isinf isinf
#define __builtin_isfinite isfinite
#define __builtin_signbit signbit
#define __builtin_inff() __int_as_float(0x7f800000)
#define __builtin_nanf(s) __int_as_float(0x7fffffff)
#endif
#else
/* AMD GPUs (hiprtc, or clang without HIP's headers) */
#pragma STDC FP_CONTRACT OFF
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(n) __attribute__((amdgpu_flat_work_group_size(1, n)))
#endif
#if defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
/* RDNA: ask for 6 waves per SIMD. Left to itself, the scheduler for 32-lane waves spends up to
   all 256 VGPRs on a large kernel (and spills: a binomial sampler took 256 + 2 on gfx1100,
   131 and none with this), where CDNA's stays near half */
#define ZX_OCCUPANCY __attribute__((amdgpu_waves_per_eu(6)))
#else
#define ZX_OCCUPANCY
#endif
#define ZX_LOCAL_ID __builtin_amdgcn_workitem_id_x()
#define ZX_GROUP_ID __builtin_amdgcn_workgroup_id_x()
#define ZX_GROUP_Z __builtin_amdgcn_workgroup_id_z()
#define ZX_BARRIER() do { __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); \
  __builtin_amdgcn_s_barrier(); __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); } while (0)
/* v of lane (lane ^ m) of this wavefront (lane: the local id within it); up to 8 bytes */
template <typename T> __device__ inline T zx_shfl_xor(T v, int m, int lane) {
  int w[2] = {0, 0};
  __builtin_memcpy(w, &v, sizeof(T));
  const int addr = (lane ^ m) << 2;
  w[0] = __builtin_amdgcn_ds_bpermute(addr, w[0]);
  if (sizeof(T) > 4) w[1] = __builtin_amdgcn_ds_bpermute(addr, w[1]);
  T r;
  __builtin_memcpy(&r, w, sizeof(T));
  return r;
}
#define ZX_SHFL_XOR(v, m, lane) zx_shfl_xor(v, m, lane)
#endif
#ifndef INFINITY
#define INFINITY __builtin_inff()
#endif
#ifndef NAN
#define NAN __builtin_nanf("")
#endif
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38f
#endif
#ifndef DBL_MAX
#define DBL_MAX 1.7976931348623157e+308
#endif
struct __attribute__((aligned(8))) zx_float2 { float x, y; };
struct __attribute__((aligned(16))) zx_double2 { double x, y; };"""

#: C99's fmod, exactly (AMD GPUs have no fmod instruction and LLVM's expansion of ``frem``
#: rounds): |x| is reduced by |y| 2^k, the largest such multiple not above it, until it is
#: below |y| (each step is exact: the difference of two floats within a factor of two).
#: float32 goes through float64, where its result is the same exact value.
FMOD = r"""__device__ inline double zx_fmod_f64(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  if (ax != ax || ay != ay) return x + y;
  if (ax == (double)INFINITY || ay == 0) return (double)NAN;
  if (ax < ay) return x;
  int ey;
  (void)__builtin_frexp(ay, &ey);
  while (ax >= ay) {
    int ex;
    (void)__builtin_frexp(ax, &ex);
    double t = __builtin_ldexp(ay, ex - ey);
    if (t > ax) t *= 0.5;
    ax -= t;
  }
  return __builtin_copysign(ax, x);
}
__device__ inline float zx_fmod_f32(float x, float y) {
  return (float)zx_fmod_f64((double)x, (double)y);
}"""

#: libm names that become clang builtins (instructions, or short sequences, on AMD GPUs)
_PRIMITIVES = ("fabs", "sqrt", "floor", "ceil", "trunc", "rint", "copysign", "fma", "fmax",
               "fmin", "frexp", "ldexp")
_PRIMITIVE_CALL = re.compile(r"\b(" + "|".join(_PRIMITIVES) + r")(f?)\s*\(")
_GENERIC_CALL = re.compile(r"\b(isnan|isinf|isfinite|signbit)\s*\(")
_FMOD_CALL = re.compile(r"\bfmod(f?)\s*\(")
#: c_math's functions, called by their libm names in the shared helpers' text
_C_MATH_CALL = re.compile(r"\b(" + "|".join(sorted(c_math.FUNCTIONS | c_math.DEVICE_ONLY))
                          + r")(f?)\s*\(")
#: the C99 integer type names c_math's text uses
_INT_TYPES = {"uint64_t": "unsigned long long", "int64_t": "long long",
              "uint32_t": "unsigned int", "int32_t": "int"}
_INT_TYPE = re.compile(r"\b(" + "|".join(_INT_TYPES) + r")\b")


def _builtins(text: str) -> str:
    """``text`` with the primitives' libm names made clang's builtins."""
    text = _PRIMITIVE_CALL.sub(lambda m: f"__builtin_{m.group(1)}{m.group(2)}(", text)
    return _GENERIC_CALL.sub(lambda m: f"__builtin_{m.group(1)}(", text)


class HIPRenderer(CudaFamilyRenderer):
    language = "hip"
    types = dict(CudaFamilyRenderer.types, complex64="zx_float2", complex128="zx_double2")
    headers = (PRELUDE,)
    vector_make = "{vec}{{{0}, {1}}}"
    use_c_math = True
    c_math_options = {"prefix": "__device__ inline", "far_trig": True}
    default_warp = None      # (AMD wavefronts are 64 or 32 lanes: only the device knows)
    kernel_attributes = " ZX_OCCUPANCY"

    def render(self, kernel: Kernel) -> str:
        self._fmod = False
        text = super().render(kernel)
        if self._fmod:
            text = text.replace(PRELUDE, PRELUDE + "\n" + FMOD, 1)
        text = _builtins(text)     # (c_math's text calls the primitives by libm's names)
        return _INT_TYPE.sub(lambda m: _INT_TYPES[m.group(1)], text)

    def _body(self, kernel: Kernel) -> list[str]:
        return [self._own_math(line) for line in super()._body(kernel)]

    def _own_math(self, text: str) -> str:
        """``text`` with its libm calls made to the kernel's own functions: c_math's (each
        recorded for the preamble) and the exact fmod. (``render`` turns the primitives into
        clang's builtins once, over the whole text.)"""
        def to_c_math(m: re.Match[str]) -> str:
            name, f = m.group(1), m.group(2)
            suffix = "f32" if f else "f64"
            self._math.add((name, suffix))
            return c_math.c_name(name, suffix) + "("

        def to_fmod(m: re.Match[str]) -> str:
            self._fmod = True
            return f"zx_fmod_{'f32' if m.group(1) else 'f64'}("

        text = _C_MATH_CALL.sub(to_c_math, text)
        return _FMOD_CALL.sub(to_fmod, text)     # (render makes the primitives builtins)

    def helper(self, kind: str, dtype: np.dtype) -> str:
        name = super().helper(kind, dtype)
        self._helpers[name] = self._own_math(self._helpers[name])
        return name

    def half(self) -> None:
        if "zx_half" not in self._helpers:
            super().half()
            self._helpers["zx_half"] = self._own_math(self._helpers["zx_half"])

    def math(self, name: str, dtype: np.dtype) -> str:
        """c_math's function for every name it has (sin, cos and tan too: with
        ``far_trig`` its reduction is exact for every argument), else libm's name (a
        primitive that ``_own_math`` makes a builtin)."""
        d = np.dtype(dtype)
        if name in c_math.FUNCTIONS or name in c_math.DEVICE_ONLY or name in LIBM_ONLY:
            suffix = "f32" if d == np.float32 else "f64"
            self._math.add((name, suffix))
            return c_math.c_name(name, suffix)
        return super().math(name, d)

    def complex_libm(self, name: str, part: str) -> str:
        """What ``complex_vec``'s helpers call for the math library name ``name``."""
        suffix = "f32" if part == "float" else "f64"
        if name in c_math.FUNCTIONS or name in c_math.DEVICE_ONLY:
            self._math.add((name, suffix))
            return c_math.c_name(name, suffix)
        if name in ("isnan", "isinf", "isfinite", "signbit"):
            return f"__builtin_{name}"
        return f"__builtin_{name}{'f' if part == 'float' else ''}"

    def _vector_complex_expr(self, ins: Instr, a: list[str], src: np.dtype) -> str:
        if ins.op is Op.WHERE:     # part by part: clang selects between two structs' stack
            c, x, y = a            # slots (scratch memory) for a plain ``c ? x : y``
            return self.make_complex(f"({c} ? ({x}).x : ({y}).x)", f"({c} ? ({x}).y : ({y}).y)",
                                     src)
        return super()._vector_complex_expr(ins, a, src)

    def negate_narrow(self, t: str, x: str, ut: str) -> str:
        """As the CUDA dialect's: subtracted from the work-group id's z component (0: every
        launch is one group deep), a zero no compiler can see. NVIDIA's ptxas gets
        ``neg.s16`` of -32768 wrong, and this dialect runs there too (its NVIDIA branch)."""
        return f"(({t})(({ut})ZX_GROUP_Z - ({ut}){x}))"

    def special(self, name: str) -> str:
        return {"group_id": "ZX_GROUP_ID", "local_id": "ZX_LOCAL_ID"}[name]

    def barrier(self) -> str:
        return "ZX_BARRIER();"

    def shuffle_xor(self, var: str, mask: str, local: str) -> str:
        return f"ZX_SHFL_XOR({var}, {mask}, (int)({local} & {self._warp - 1}))"
