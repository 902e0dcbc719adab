"""Tests for the parts of zyxarray/_codegen/c_math.py meant for devices without a math library
(the HIP dialect): ``preamble(..., far_trig=True)`` (sin/cos/tan with a Payne-Hanek reduction
for huge arguments), ``prefix`` (the ``__device__ inline`` rendering), and the ``DEVICE_ONLY``
functions hypot and nextafter.

The C text is compiled with gcc for the host and compared with NumPy as in test_c_math.py
(whose harness helpers this file reuses); the ``__device__ inline`` rendering is compiled as
AMD GPU code with clang-19 and as CUDA code with nvcc, when they are installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from tests._codegen.test_c_math import (
    GCC,
    SUFFIXES,
    WIDE_IS_LONGDOUBLE,
    _around,
    _build,
    _random_bits,
    c_math,
    reference,
    ulp_errors,
)
from tests.helpers import two_over_pi

pytestmark = pytest.mark.skipif(GCC is None, reason="gcc is not installed")

TRIG = ("sin", "cos", "tan")
NUMPY_TRIG = {"sin": np.sin, "cos": np.cos, "tan": np.tan}
BINARY = ("hypot", "nextafter")
#: where far_trig switches to Payne-Hanek (|x| above it, finite)
THRESHOLD = {"f32": 2.0**50, "f64": 2.0**51}
CTYPE = {"f32": "float", "f64": "double"}
UINT = {"f32": np.uint32, "f64": np.uint64}


# -- the compiled harnesses -----------------------------------------------------------------------
def _compile(tmp, stem: str, names: tuple[str, ...], far_trig: bool):
    return _build(tmp, names=names, far_trig=far_trig, binary=set(BINARY), stem=stem)


@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    """(far_trig=True with hypot and nextafter, far_trig=False): built side by side."""
    tmp = tmp_path_factory.mktemp("c_math_device")
    with ThreadPoolExecutor(2) as pool:
        far = pool.submit(_compile, tmp, "far", (*TRIG, *BINARY), True)
        near = pool.submit(_compile, tmp, "near", TRIG, False)
        return far.result(), near.result()


def apply(lib, name: str, suffix: str, *args: np.ndarray) -> np.ndarray:
    ffi, handle = lib
    arrays = [np.ascontiguousarray(a, dtype=SUFFIXES[suffix]) for a in args]
    out = np.empty_like(arrays[0])
    ptrs = [ffi.cast(f"{CTYPE[suffix]}*", ffi.from_buffer(a)) for a in (*arrays, out)]
    getattr(handle, f"apply_{name}_{suffix}")(*ptrs, len(out))
    return out


# -- huge arguments -------------------------------------------------------------------------------

def near_multiples(prec: int, exponents) -> list[float]:
    """For each k, the numbers m * 2^k (m of ``prec`` bits) closest to a multiple of pi/2
    that continued fractions find: m near combinations of the convergents' denominators of
    frac(2^k * 2/pi). These are where a reduction loses the most bits."""
    top, bits = two_over_pi()
    lo, hi = 1 << (prec - 1), 1 << prec
    out = []
    for k in exponents:
        den = 1 << (bits - k)
        num = top % den                  # frac(2^k 2/pi) = num / den
        qs = [0, 1]
        a, b = den, num
        while b and qs[-1] < hi:
            t = a // b
            a, b = b, a - t * b
            qs.append(t * qs[-1] + qs[-2])
        best: dict[int, int] = {}
        for qa, qb in zip(qs[2:], qs[1:]):
            for ca in range(-3, 4):
                for cb in range(-3, 4):
                    m = ca * qa + cb * qb
                    for c in (1, -(-lo // max(abs(m), 1))):
                        mm = abs(m) * c
                        if lo <= mm < hi:
                            r = mm * num % den
                            best[mm] = min(r, den - r)
        for m in sorted(best, key=best.get)[:2]:
            out.append(float(m) * 2.0**k)
    return out


def huge_inputs(suffix: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(ordinary huge arguments, arguments close to multiples of pi/2), both signs."""
    dtype = SUFFIXES[suffix]
    fi = np.finfo(dtype)
    rng = np.random.default_rng(zlib.crc32(f"huge {suffix}".encode()))
    if suffix == "f64":
        random = [10.0 ** rng.uniform(15, 308, n), np.exp2(rng.uniform(51, 1024, n))]
        edges = [2.0**51, 2.0**52, 2.0**53, 2.0**63, 2.0**64, 1e15, 1e16, 1e22, 1e300,
                 float(fi.max), float(np.finfo(np.float32).max), 2.0**1023]
        hard = near_multiples(53, range(0, 972, 16))
        hard.append(6381956970095103 * 2.0**797)       # the closest float64 of all (~2^-61)
    else:
        random = [np.exp2(rng.uniform(50, 128, n))]
        edges = [2.0**50, 2.0**51, 2.0**64, 1e20, 1e30, float(fi.max), 2.0**127]
        hard = near_multiples(24, range(27, 105))
    with np.errstate(over="ignore"):
        ordinary = np.concatenate([*(r.astype(dtype) for r in random),
                                   _around([e for e in edges if e <= fi.max], dtype, 4)])
    ordinary = ordinary[np.isfinite(ordinary)]     # (with the edges' neighbours below them)
    hard = np.array(hard, dtype=dtype)
    return np.concatenate([ordinary, -ordinary]), np.concatenate([hard, -hard])


@pytest.mark.parametrize("suffix", sorted(SUFFIXES))
@pytest.mark.parametrize("name", TRIG)
def test_far_trig_huge_arguments(libs, name: str, suffix: str) -> None:
    """Beyond the threshold (and around it): within 1 ulp of the exact result (long double or
    mpmath) and within 3 ulp of NumPy; at the arguments closest to multiples of pi/2 only the
    exact reference is used, since glibc's sin/cos (so NumPy's) lose up to 1e5 ulp there."""
    n = 10_000 if (suffix == "f32" or WIDE_IS_LONGDOUBLE) else 500
    ordinary, hard = huge_inputs(suffix, n)
    x = np.concatenate([ordinary, hard])
    out = apply(libs[0], name, suffix, x)
    assert np.all(np.isfinite(out))
    err = ulp_errors(out, reference(name, suffix, (x,)), suffix)
    worst = int(np.argmax(err))
    bound = 1.0 + 0.5 * (suffix == "f64" and not WIDE_IS_LONGDOUBLE)
    assert err[worst] <= bound, (
        f"zx_{name}_{suffix}({float(x[worst])!r}): {err[worst]:.3f} ulp, got {out[worst]!r}")
    # NumPy: within 3 ulp, or within 1 ulp more than NumPy's own error where that is larger
    # (NumPy's float32 tan is up to 4 ulp off on 400000 huge arguments)
    numpy = NUMPY_TRIG[name](ordinary)
    own = ulp_errors(numpy, reference(name, suffix, (ordinary,)), suffix)
    numpy_err = ulp_errors(out[:len(ordinary)], numpy.astype(np.float64), suffix)
    worst = int(np.argmax(numpy_err - np.maximum(3.0, own + 1.0)))
    assert numpy_err[worst] <= max(3.0, own[worst] + 1.0), (
        f"zx_{name}_{suffix}({float(ordinary[worst])!r}): {numpy_err[worst]:.3f} ulp from NumPy")


@pytest.mark.parametrize("suffix", sorted(SUFFIXES))
def test_far_trig_hard_cases_are_hard(suffix: str) -> None:
    """The generated arguments come within 2^-50 (float64) or 2^-25 (float32) of a multiple
    of pi/2 (relative to pi/2), so the test above exercises the precision of the reduction."""
    _, hard = huge_inputs(suffix, 1)
    top, bits = two_over_pi()
    closest = 1.0
    for v in hard[:len(hard) // 2]:
        m, e = float(v).as_integer_ratio()
        one = 1 << (bits + 16)
        r = (m * top * 2**16 // e) % one          # frac(x * 2/pi) * one
        closest = min(closest, min(r, one - r) / one)
    assert closest < (2.0**-58 if suffix == "f64" else 2.0**-28), closest


@pytest.mark.parametrize("suffix", sorted(SUFFIXES))
def test_far_trig_unchanged_below_threshold(libs, suffix: str) -> None:
    """At and below the threshold (and for inf, NaN, zeros) far_trig gives the same bits."""
    dtype = SUFFIXES[suffix]
    rng = np.random.default_rng(11)
    limit = THRESHOLD[suffix]
    bits = _random_bits(rng, suffix, 20_000)
    small = bits[~(np.abs(bits) > limit) | ~np.isfinite(bits)]
    logs = np.exp2(rng.uniform(-30, np.log2(limit), 20_000)).astype(dtype)
    below = _around([limit], dtype, 6)
    edges = np.concatenate([below[below <= limit], np.array(
        [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, np.pi / 2], dtype)])
    x = np.concatenate([small, logs, -logs, edges, -edges])
    assert np.all(~(np.abs(x) > limit) | ~np.isfinite(x))
    for name in TRIG:
        far, near = apply(libs[0], name, suffix, x), apply(libs[1], name, suffix, x)
        same = (far.view(UINT[suffix]) == near.view(UINT[suffix])) | (np.isnan(far) &
                                                                       np.isnan(near))
        assert same.all(), (name, x[~same][:5])


def test_far_trig_leaves_other_text_alone() -> None:
    """far_trig changes only sin/cos/tan's reduction, and only when asked for."""
    others = [(n, s) for n in sorted(c_math.FUNCTIONS | c_math.DEVICE_ONLY) if n not in TRIG
              for s in SUFFIXES]
    assert c_math.preamble(others, far_trig=True) == c_math.preamble(others)
    for s in SUFFIXES:
        near = c_math.preamble([("sin", s)])
        far = c_math.preamble([("sin", s)], far_trig=True)
        assert "payne_hanek" not in near and "zx__payne_hanek_f64(" in far
        assert f"zx__trig_reduce_near_{s}(" in far


# -- hypot ----------------------------------------------------------------------------------------
def _hypot_reference(x: np.ndarray, y: np.ndarray, suffix: str) -> np.ndarray:
    if suffix == "f32" or WIDE_IS_LONGDOUBLE:
        wide = np.float64 if suffix == "f32" else np.longdouble
        with np.errstate(all="ignore"):
            return np.hypot(x.astype(wide), y.astype(wide))
    mp = pytest.importorskip("mpmath")
    mp.mp.prec = 120
    out = np.hypot(x, y)
    for i in np.nonzero(np.isfinite(out))[0]:
        out[i] = float(mp.hypot(mp.mpf(float(x[i])), mp.mpf(float(y[i]))))
    return out


def hypot_inputs(suffix: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    dtype = SUFFIXES[suffix]
    fi = np.finfo(dtype)
    rng = np.random.default_rng(zlib.crc32(f"hypot {suffix}".encode()))
    lo, hi = np.log2(float(fi.smallest_subnormal)), np.log2(float(fi.max))
    sign = lambda: rng.choice([-1.0, 1.0], n)
    a = np.exp2(rng.uniform(lo, hi, n)) * sign()
    with np.errstate(over="ignore"):
        near = a * np.exp2(rng.uniform(-4, 4, n)) * sign()     # comparable magnitudes
        far = a * np.exp2(rng.uniform(-80, 80, n)) * sign()
    tiny = lambda: np.exp2(rng.uniform(lo, lo + 60, n))     # subnormal and small results
    xs = [_random_bits(rng, suffix, n), a, a, a, tiny()]
    ys = [_random_bits(rng, suffix, n), near, far, np.zeros(n), tiny()]
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, fi.max, -fi.max, fi.smallest_normal,
                        fi.smallest_subnormal, -fi.smallest_subnormal, 1.0, 3.0, -4.0,
                        float(fi.max) / np.sqrt(2.0), float(fi.max) / 2, 2.0**-1000], dtype)
    sx, sy = np.meshgrid(special, special)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        x = np.concatenate([v.astype(dtype) for v in [*xs, sx.ravel()]])
        y = np.concatenate([v.astype(dtype) for v in [*ys, sy.ravel()]])
    return x, y


@pytest.mark.parametrize("suffix", sorted(SUFFIXES))
def test_hypot(libs, suffix: str) -> None:
    """Within 1 ulp everywhere (every exponent, subnormals, overflow to inf), and NumPy's
    special values exactly: hypot(+-inf, nan) = inf, zeros, NaN."""
    n = 50_000 if (suffix == "f32" or WIDE_IS_LONGDOUBLE) else 1_000
    x, y = hypot_inputs(suffix, n)
    out = apply(libs[0], "hypot", suffix, x, y)
    err = ulp_errors(out, _hypot_reference(x, y, suffix), suffix)
    worst = int(np.argmax(err))
    bound = 1.0 + 0.5 * (suffix == "f64" and not WIDE_IS_LONGDOUBLE)
    assert err[worst] <= bound, (float(x[worst]), float(y[worst]), err[worst], out[worst])
    with np.errstate(all="ignore"):
        expected = np.hypot(x, y)
    special = np.isnan(expected) | np.isinf(expected) | (expected == 0)
    same = (np.isnan(out) & np.isnan(expected)) | (
        (out == expected) & (np.signbit(out) == np.signbit(expected)))
    bad = np.nonzero(special & ~same)[0]
    assert bad.size == 0, [(x[i], y[i], out[i], expected[i]) for i in bad[:10]]


# -- nextafter ------------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", sorted(SUFFIXES))
def test_nextafter_exact(libs, suffix: str) -> None:
    """Bit for bit NumPy's (signed zeros, infinities, subnormal and normal boundaries); NaN
    wherever NumPy gives NaN."""
    dtype = SUFFIXES[suffix]
    fi = np.finfo(dtype)
    rng = np.random.default_rng(zlib.crc32(f"nextafter {suffix}".encode()))
    tiny, small = fi.smallest_subnormal, fi.smallest_normal
    edges = [0.0, tiny, 2 * tiny, small, small - tiny, small + small * fi.eps, fi.max,
             np.inf, 1.0, 1.0 + fi.eps, 1.0 - fi.epsneg, 2.0, np.nan]
    special = np.array(edges + [-e for e in edges], dtype)
    sx, sy = np.meshgrid(special, special)
    a, b = _random_bits(rng, suffix, 20_000), _random_bits(rng, suffix, 20_000)
    x = np.concatenate([sx.ravel(), a, a, a, special])
    y = np.concatenate([sy.ravel(), b, a, -a, special[::-1]])
    out = apply(libs[0], "nextafter", suffix, x, y)
    with np.errstate(all="ignore"):
        expected = np.nextafter(x, y)
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(out), nan)
    same = out.view(UINT[suffix]) == expected.view(UINT[suffix])
    bad = np.nonzero(~same & ~nan)[0]
    assert bad.size == 0, [(x[i], y[i], out[i], expected[i]) for i in bad[:10]]


# -- the interface --------------------------------------------------------------------------------
def test_interface() -> None:
    assert frozenset({"hypot", "nextafter"}) == c_math.DEVICE_ONLY
    assert not c_math.DEVICE_ONLY & c_math.FUNCTIONS    # the cpu dialect keeps libm's
    assert c_math.c_name("hypot", "f32") == "zx_hypot_f32"
    assert c_math.c_name("nextafter", "f64") == "zx_nextafter_f64"
    with pytest.raises(ValueError):
        c_math.c_name("hypot", "f16")
    assert c_math.preamble([], prefix="__device__ inline", far_trig=True) == ""


def test_two_over_pi_constants() -> None:
    """TWO_OVER_PI and PI_HALF_TAIL against mpmath, and shared with the SPIR-V renderer."""
    mp = pytest.importorskip("mpmath")
    words = c_math.TWO_OVER_PI
    assert len(words) == 40 and words[0] == 0 and all(0 <= w < 2**32 for w in words)
    top, bits = two_over_pi()
    with mp.workprec(bits + 64):
        exact = int(mp.floor(2 / mp.pi * mp.mpf(2) ** bits))
        tail = float(mp.pi / 2 - mp.mpf(float.fromhex("0x1.921fb54442d18p+0")))
    assert top == exact
    assert tail == c_math.PI_HALF_TAIL
    spirv = pytest.importorskip("zyxarray._codegen.spirv")
    assert spirv._TWO_OVER_PI is c_math.TWO_OVER_PI
    assert spirv._PI_HALF_TAIL == c_math.PI_HALF_TAIL


def test_prefix_rendering() -> None:
    """``prefix`` replaces every ``static inline`` and drops the #include lines."""
    used = [(n, s) for n in sorted(c_math.FUNCTIONS | c_math.DEVICE_ONLY) for s in SUFFIXES]
    for far in (False, True):
        plain = c_math.preamble(used, far_trig=far)
        device = c_math.preamble(used, prefix="__device__ inline", far_trig=far)
        assert plain.startswith("#include") and "#include" not in device
        assert "static" not in device
        assert device.count("__device__ inline") == plain.count("static inline")
        heads = re.findall(r"^(\w[^(\n]*?) zx_\w+\(", device, flags=re.MULTILINE)
        assert heads and all(h.startswith("__device__ inline ") for h in heads)


# -- device compilers -----------------------------------------------------------------------------
_KERNEL_ARGS = "(const {t}* x, const {t}* y, {t}* o, int n)"


def _device_source(header: str, thread: str, extern: str) -> str:
    names = sorted(c_math.FUNCTIONS | c_math.DEVICE_ONLY)
    text = [header, c_math.preamble([(n, s) for n in names for s in SUFFIXES],
                                    prefix="__device__ inline", far_trig=True)]
    for s, t in CTYPE.items():
        calls = " + ".join(f"zx_{n}_{s}(x[i], y[i])" if n in ("atan2", "pow", *BINARY)
                           else f"zx_{n}_{s}(x[i])" for n in names)
        text.append(f"{extern}__global__ void k_{s}" + _KERNEL_ARGS.format(t=t) +
                    f" {{\n    int i = {thread};\n    if (i < n) o[i] = {calls};\n}}\n")
    return "\n".join(text)


HIP_HEADER = """\
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define fma __builtin_fma
#define fmaf __builtin_fmaf
#define fabs __builtin_fabs
#define fabsf __builtin_fabsf
#define sqrt __builtin_sqrt
#define sqrtf __builtin_sqrtf
#define copysign __builtin_copysign
#define copysignf __builtin_copysignf
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
typedef unsigned int uint32_t;
typedef int int32_t;
typedef unsigned long long uint64_t;
typedef long long int64_t;
"""

# CUDA's <cmath> overloads make fma(double, double, int) (c_math writes integer literals) a
# host-only template: the device's fma is named instead, as a dialect would
CUDA_HEADER = """\
#include <stdint.h>
#define fma __fma_rn
#define fmaf __fmaf_rn
#define sqrt __dsqrt_rn
#define sqrtf __fsqrt_rn
"""


def test_device_rendering_compiles_for_amd_gpus(tmp_path) -> None:
    """clang-19, HIP device code for gfx942 (MI300): compiles, and uses no scratch memory
    (the limbs and 2/pi's table stay out of it)."""
    clang = shutil.which("clang-19")
    if clang is None:
        pytest.skip("clang-19 is not installed")
    src = tmp_path / "c_math.hip"
    src.write_text(_device_source(HIP_HEADER, "__builtin_amdgcn_workitem_id_x()",
                                  'extern "C" '))
    obj = tmp_path / "c_math.o"
    result = subprocess.run(
        [clang, "-x", "hip", "-nogpulib", "-nogpuinc", "--cuda-device-only",
         "--no-gpu-bundle-output", "--offload-arch=gfx942", "-O3", "-ffp-contract=off", "-c",
         str(src), "-o", str(obj)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr[-4000:]
    readelf = shutil.which("llvm-readelf-19")
    if readelf is not None:
        notes = subprocess.run([readelf, "--notes", str(obj)], capture_output=True, text=True,
                               check=True).stdout
        scratch = re.findall(r"\.private_segment_fixed_size:\s*(\d+)", notes)
        assert len(scratch) == 2 and set(scratch) == {"0"}, notes[-3000:]


def test_device_rendering_compiles_with_nvcc(tmp_path) -> None:
    """nvcc, CUDA device code for sm_90: compiles with no stack frame."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not installed")
    src = tmp_path / "c_math.cu"
    src.write_text(_device_source(CUDA_HEADER, "blockIdx.x * blockDim.x + threadIdx.x",
                                  'extern "C" '))
    result = subprocess.run([nvcc, "-arch=sm_90", "--fmad=false", "--resource-usage", "-c",
                             str(src), "-o", str(tmp_path / "c_math.o")],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr[-4000:]
    frames = re.findall(r"(\d+) bytes stack frame", result.stdout + result.stderr)
    assert frames and set(frames) == {"0"}, result.stdout + result.stderr
