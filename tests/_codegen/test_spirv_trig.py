"""sin, cos and tan of huge arguments in the SPIR-V renderer's modules (``_payne_hanek`` in
``_codegen/spirv.py``, which ``spirv_math._trig_reduce`` takes beyond |x| = 2^51 for float64
and 2^50 for float32), run on the ``vulkan:0`` device (lavapipe in CI) and compared with
mpmath: ordinary huge arguments and the ones closest to multiples of pi/2, where a reduction
that keeps too few bits of x * 2/pi loses every correct digit (and where glibc's sin and cos,
so NumPy's, are themselves off by up to 1e5 ulp: only mpmath is trusted here)."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import two_over_pi
from zyxarray._codegen import c_math, render
from zyxarray._devices import registry
from zyxarray._devices.base import DeviceInfo
from zyxarray._lazy.lower import canonicalize, lower
from zyxarray._lazy.schedule import schedule

mp = pytest.importorskip("mpmath")

DEVICE = "vulkan:0"
TRIG = ("sin", "cos", "tan")
MPMATH = {"sin": mp.sin, "cos": mp.cos, "tan": mp.tan}
#: where the renderer switches to Payne-Hanek (|x| above it)
THRESHOLD = {np.float64: 2.0**51, np.float32: 2.0**50}
BOUND = 3.0         # ulp


@pytest.fixture(scope="module")
def vulkan() -> str:
    if DEVICE not in registry.devices():
        pytest.skip(f"no Vulkan device ({DEVICE})")
    return DEVICE


# -- inputs ---------------------------------------------------------------------------------------

def _distance(x: float) -> float:
    """|x * 2/pi - nearest integer| (to within 2^-1000 or so)."""
    top, bits = two_over_pi()
    num, den = float(x).as_integer_ratio()        # den a power of two
    one = 1 << (bits + 64)
    r = (abs(num) * top << 64) // den % one       # frac(|x| 2/pi) * one
    return min(r, one - r) / one


def near_multiples(prec: int, exponents) -> list[float]:
    """For each k, the two numbers m * 2^k (m of ``prec`` bits) found closest to a multiple
    of pi/2: frac(m * a) near 0 or 1 for a = frac(2^k * 2/pi), with m small combinations (or
    multiples) of the denominators of a's continued-fraction convergents."""
    top, bits = two_over_pi()
    lo, hi = 1 << (prec - 1), 1 << prec
    out = []
    for k in exponents:
        den = 1 << (bits - k)
        num = top % den
        qs = [0, 1]                       # convergents' denominators
        p, q = den, num
        while q and qs[-1] < hi:
            t = p // q
            p, q = q, p - t * q
            qs.append(t * qs[-1] + qs[-2])
        dist: dict[int, int] = {}
        for q1, q0 in zip(qs[2:], qs[1:]):
            for c1 in range(-3, 4):
                for c0 in range(-3, 4):
                    base = abs(c1 * q1 + c0 * q0)
                    if base == 0:
                        continue
                    for scale in (1, -(-lo // base)):
                        cand = base * scale
                        if lo <= cand < hi:
                            r = cand * num % den
                            dist[cand] = min(r, den - r)
        out += [float(cand) * 2.0**k for cand in sorted(dist, key=dist.__getitem__)[:2]]
    return out


def _around(values, dtype, steps: int = 3) -> np.ndarray:
    """Each value and its ``steps`` neighbours on either side."""
    out = []
    for v in np.asarray(values, dtype):
        up = down = v
        out.append(v)
        for _ in range(steps):
            with np.errstate(over="ignore"):      # (past the largest float: inf, dropped)
                up, down = np.nextafter(up, dtype(np.inf)), np.nextafter(down, dtype(0))
            out += [up, down]
    return np.array(out, dtype)


def huge_inputs(dtype) -> tuple[np.ndarray, np.ndarray]:
    """(ordinary huge arguments and the threshold's neighbours, arguments closest to
    multiples of pi/2), both signs. The hard float64 ones are test_c_math_device.py's
    (every 16th exponent there, every 8th here) and the float64 closest of all."""
    rng = np.random.default_rng(zlib.crc32(f"spirv trig {np.dtype(dtype).name}".encode()))
    fi = np.finfo(dtype)
    if dtype == np.float64:
        random = np.concatenate([10.0 ** rng.uniform(15, 308, 400),
                                 np.exp2(rng.uniform(51, 1024, 400))])
        edges = [2.0**51, 2.0**52, 2.0**53, 2.0**63, 2.0**64, 1e16, 1e22, 1e300, 2.0**1023,
                 float(np.finfo(np.float32).max), float(fi.max)]
        hard = near_multiples(53, range(0, 972, 8))
        hard.append(6381956970095103 * 2.0**797)      # the closest float64 of all (~2^-61)
    else:
        random = np.exp2(rng.uniform(50, 128, 800))
        edges = [2.0**50, 2.0**51, 2.0**64, 1e20, 1e30, 2.0**127, float(fi.max)]
        hard = near_multiples(24, range(27, 105))
    ordinary = np.concatenate([random.astype(dtype), _around(edges, dtype, 3)])
    ordinary = ordinary[np.isfinite(ordinary)]
    hard = np.array(hard, dtype)
    return np.concatenate([ordinary, -ordinary]), np.concatenate([hard, -hard])


# -- mpmath references ----------------------------------------------------------------------------
def _exact(name: str, x: np.ndarray) -> list:
    """name(x) to ~120 bits (the working precision covers x's integer bits)."""
    out = []
    for v in x.astype(np.float64):
        _, e = np.frexp(v)
        with mp.workprec(max(int(e), 0) + 160):
            out.append(MPMATH[name](mp.mpf(float(v))))
    return out


def _ulp_errors(got: np.ndarray, exact: list, dtype) -> np.ndarray:
    """|got - exact| in units of the last place of ``dtype`` at ``exact``."""
    nmant = np.finfo(dtype).nmant
    err = []
    with mp.workprec(200):
        for g, e in zip(got.astype(np.float64), exact):
            if not np.isfinite(g):
                err.append(np.inf)
                continue
            ulp = mp.ldexp(1, max(int(mp.floor(mp.log(abs(e), 2))), -1022) - nmant)
            err.append(float(abs(mp.mpf(float(g)) - e) / ulp))
    return np.array(err)


def _rounded_f32(exact: list) -> np.ndarray:
    """The correctly rounded float32 values (rounded once, to nearest even)."""
    out = []
    for e in exact:
        with mp.workprec(24):
            out.append(float(+e))
    return np.array(out, np.float32)


def _ulp_distance_f32(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many float32 values apart a and b are (finite, same sign or not)."""
    def ordered(v: np.ndarray) -> np.ndarray:
        i = v.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    return np.abs(ordered(a) - ordered(b))


def _on_device(name: str, x: np.ndarray, device: str) -> np.ndarray:
    return np.asarray(getattr(xp, name)(xp.asarray(x, device=device)))


# -- tests ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_hard_cases_are_hard(dtype) -> None:
    """The generated arguments are beyond the threshold and come within 2^-58 (float64) or
    2^-28 (float32) of a multiple of pi/2 (in units of pi/2): a reduction that keeps 64 bits
    of x * 2/pi's fraction has next to none left for them."""
    _, hard = huge_inputs(dtype)
    assert np.all(np.abs(hard) > THRESHOLD[dtype])
    closest = min(_distance(float(v)) for v in hard)
    assert closest < (2.0**-58 if dtype == np.float64 else 2.0**-28), closest
    if dtype == np.float64:
        assert _distance(6381956970095103 * 2.0**797) < 2.0**-60


@pytest.mark.parametrize("name", TRIG)
def test_float64_huge_arguments(vulkan: str, name: str) -> None:
    """Within 3 ulp of mpmath for ordinary huge arguments and for the ones closest to
    multiples of pi/2 (e.g. 6381956970095103 * 2^797, 2^-61 from one)."""
    ordinary, hard = huge_inputs(np.float64)
    x = np.concatenate([ordinary, hard])
    got = _on_device(name, x, vulkan)
    assert got.dtype == np.float64
    err = _ulp_errors(got, _exact(name, x), np.float64)
    worst = int(np.argmax(err))
    assert err[worst] <= BOUND, (
        f"{name}({float(x[worst])!r}) on {vulkan}: {err[worst]:.4g} ulp, got {got[worst]!r}")


@pytest.mark.parametrize("name", TRIG)
def test_float32_huge_arguments(vulkan: str, name: str) -> None:
    """Within 3 ulp of the correctly rounded float32 result (from mpmath), ordinary huge
    arguments and the ones closest to multiples of pi/2."""
    ordinary, hard = huge_inputs(np.float32)
    x = np.concatenate([ordinary, hard])
    got = _on_device(name, x, vulkan)
    assert got.dtype == np.float32 and np.all(np.isfinite(got))
    want = _rounded_f32(_exact(name, x))
    dist = _ulp_distance_f32(got, want)
    worst = int(np.argmax(dist))
    assert dist[worst] <= BOUND, (
        f"{name}({float(x[worst])!r}) on {vulkan}: {dist[worst]} ulp from {want[worst]!r}, "
        f"got {got[worst]!r}")


def test_symmetry_and_specials(vulkan: str) -> None:
    """Odd and even as the functions are, bit for bit, for huge arguments; inf and NaN
    give NaN."""
    ordinary, hard = huge_inputs(np.float64)
    half = np.concatenate([ordinary[:len(ordinary) // 2], hard[:len(hard) // 2]])
    x = np.concatenate([half, -half])
    for name, parity in (("sin", -1.0), ("cos", 1.0), ("tan", -1.0)):
        got = _on_device(name, x, vulkan)
        np.testing.assert_array_equal(got[len(half):], parity * got[:len(half)], err_msg=name)
        special = _on_device(name, np.array([np.inf, -np.inf, np.nan]), vulkan)
        assert np.isnan(special).all(), (name, special)


@pytest.mark.skipif(shutil.which("spirv-val") is None, reason="spirv-val is not installed")
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_trig_modules_validate(dtype, tmp_path: Path) -> None:
    """The modules with the reduction (its table a Private array of c_math.TWO_OVER_PI's
    words) are valid SPIR-V for Vulkan 1.1."""
    info = DeviceInfo(name="vulkan:test", kind="vulkan", language="spirv", style="threads",
                      max_work_group=1024, local_memory=32768, simd_lanes=1,
                      launch_bounds=True)
    x = xp.asarray(np.ones(4, dtype))
    (plan,) = schedule([(xp.sin(x) + xp.cos(x) * xp.tan(x))._node.base()])
    data = render(lower(canonicalize(plan, info), "k"), "spirv").binary
    path = tmp_path / "trig.spv"
    path.write_bytes(data)
    done = subprocess.run(["spirv-val", "--target-env", "vulkan1.1", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    words = struct.unpack(f"<{len(data) // 4}I", data)
    # the table: 2/pi's words as 64-bit constants, every one of them
    consts = {words[i + 3] | words[i + 4] << 32 for i in range(len(words) - 4)
              if words[i] == (5 << 16 | 43)}                  # OpConstant, two words
    assert set(c_math.TWO_OVER_PI[1:]) <= consts
