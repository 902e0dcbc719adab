"""Small NumPy programs at a million elements and more, timed with NumPy, with zyxarray on a
device and (where installed) with CuPy, in one run (issue 13's target: faster than NumPy on
such arrays).

Usage: python bench/programs.py [--device cpu] [--repeat 5] [--json out.json]

Each program takes the array module and the input data and returns one array; the time is
the best of ``--repeat`` runs after a warm-up (compilation excluded), including reading the
result back to the host. Ratios are NumPy's (or CuPy's) time over zyxarray's: > 1 means
zyxarray is faster. Nothing is asserted: these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import zyxarray
from zyxarray._devices import registry


def standardize(np: Any, data: Any) -> Any:
    """Columns to z-scores, scaled to [0, 1], and each row's norm (4M floats)."""
    z = (data - data.mean(axis=0)) / np.std(data, axis=0, ddof=1)
    scaled = (data - data.min(axis=0)) / np.ptp(data, axis=0)
    return np.linalg.norm(z, axis=1) + scaled.sum(axis=1)


def heat(np: Any, u: Any) -> Any:
    """Ten steps of a 5-point stencil on a 1024 x 1024 grid, padded with zeros each step."""
    for _ in range(10):
        p = np.pad(u, 1)
        u = u + 0.1 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u)
    return u


def clean(np: Any, readings: Any) -> Any:
    """Mask invalid readings, fill them with column means, clip and count (2M floats)."""
    bad = (readings < 0) | (readings > 50)
    masked = np.where(bad, np.nan, readings)
    means = np.nanmean(masked, axis=0)
    filled = np.where(np.isnan(masked), means, masked)
    return np.clip(filled, 1.0, 40.0) * (1 + np.count_nonzero(bad, axis=0))


def softmax_rows(np: Any, x: Any) -> Any:
    """Row softmax then a weighted row sum (4M floats)."""
    e = np.exp(x - x.max(axis=1, keepdims=True))
    s = e / e.sum(axis=1, keepdims=True)
    return (s * x).sum(axis=1)


# -- programs written against the Array API (issue 14's list) --------------------------------
def stencil_concat(xp: Any, u: Any) -> Any:
    """50 steps of a heat equation on 384 x 384, padded by ``concat`` (no value observed
    until the end)."""
    n = u.shape[0]
    for _ in range(50):
        zr = xp.zeros((1, n), dtype=u.dtype)
        p = xp.concat([zr, u, zr], axis=0)
        zc = xp.zeros((n + 2, 1), dtype=u.dtype)
        p = xp.concat([zc, p, zc], axis=1)
        u = u + 0.1 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u)
    return u


def jacobi(np: Any, u: Any) -> Any:
    """30 Jacobi sweeps on 512 x 512 that keep the boundary: the new interior joined to the
    old edges with ``concatenate`` of slices (as NumPy users write it)."""
    for _ in range(30):
        inner = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        mid = np.concatenate([u[1:-1, :1], inner, u[1:-1, -1:]], axis=1)
        u = np.concatenate([u[:1], mid, u[-1:]], axis=0)
    return u


def logistic(xp: Any, data: Any) -> Any:
    """100 gradient steps of a logistic regression on 20,000 x 32."""
    X, y = data[:, :-1], data[:, -1]
    w = xp.zeros(X.shape[1], dtype=X.dtype)
    for _ in range(100):
        p = 1.0 / (1.0 + xp.exp(-(X @ w)))
        w = w - 0.5 * (X.T @ (p - y)) / X.shape[0]
    return w


def kmeans(xp: Any, X: Any) -> Any:
    """20 Lloyd iterations of k-means (k = 8) on 50,000 x 16."""
    centers = X[:8]
    for _ in range(20):
        d = xp.sum((X[:, None, :] - centers[None, :, :]) ** 2, axis=2)
        label = xp.argmin(d, axis=1)
        onehot = xp.astype(label[:, None] == xp.arange(8)[None, :], X.dtype)
        counts = xp.sum(onehot, axis=0)
        centers = (onehot.T @ X) / xp.maximum(counts, 1.0)[:, None]
    return centers


def pca(xp: Any, X: Any) -> Any:
    """The top 4 principal directions of 100,000 x 32 (centering, covariance, eigh)."""
    Xc = X - xp.mean(X, axis=0)
    cov = (Xc.T @ Xc) / (X.shape[0] - 1)
    _, vectors = xp.linalg.eigh(cov)
    top = vectors[:, -4:]
    return xp.abs(Xc @ top)[:1000]


def mlp(xp: Any, X: Any) -> Any:
    """20 training steps of a 64-128-1 MLP (ReLU, squared loss) on 8,192 x 64."""
    W1 = xp.reshape(xp.sin(xp.arange(64 * 128, dtype=X.dtype)), (64, 128)) * 0.1
    W2 = xp.reshape(xp.cos(xp.arange(128, dtype=X.dtype)), (128, 1)) * 0.1
    y = xp.sum(X[:, :4], axis=1, keepdims=True)
    for _ in range(20):
        h = xp.maximum(X @ W1, 0.0)
        err = h @ W2 - y
        gW2 = h.T @ err / X.shape[0]
        gh = (err @ W2.T) * xp.astype(h > 0, X.dtype)
        gW1 = X.T @ gh / X.shape[0]
        W1 = W1 - 0.01 * gW1
        W2 = W2 - 0.01 * gW2
    return W2


def nbody(xp: Any, pos: Any) -> Any:
    """One all-pairs gravity step for 2,048 bodies in 3-D."""
    d = pos[None, :, :] - pos[:, None, :]
    r2 = xp.sum(d * d, axis=2) + 1e-3
    inv = r2 ** -1.5
    acc = xp.sum(d * inv[:, :, None], axis=1)
    return pos + 0.01 * acc


def attention(xp: Any, x: Any) -> Any:
    """Single-head attention over 1,024 tokens of width 128 (softmax(QK^T) V)."""
    scores = (x @ x.T) / 128 ** 0.5
    e = xp.exp(scores - xp.max(scores, axis=1, keepdims=True))
    return (e / xp.sum(e, axis=1, keepdims=True)) @ x


def black_scholes(xp: Any, s: Any) -> Any:
    """European call prices for 4 million spot prices (erf through a rational fit)."""
    k, t, r, v = 100.0, 1.0, 0.02, 0.3
    d1 = (xp.log(s / k) + (r + 0.5 * v * v) * t) / (v * t ** 0.5)
    d2 = d1 - v * t ** 0.5

    def cdf(z: Any) -> Any:
        a = xp.abs(z) / 2 ** 0.5
        q = 1.0 / (1.0 + 0.3275911 * a)
        poly = q * (0.254829592 + q * (-0.284496736 + q * (1.421413741 + q * (
            -1.453152027 + q * 1.061405429))))
        erf = 1.0 - poly * xp.exp(-a * a)
        return 0.5 * (1.0 + xp.where(z < 0, -erf, erf))

    return s * cdf(d1) - k * math.exp(-r * t) * cdf(d2)


def inputs(seed: int = 0) -> dict[str, numpy.ndarray]:
    rng = numpy.random.default_rng(seed)
    logistic_data = rng.standard_normal((20_000, 33))
    logistic_data[:, -1] = logistic_data[:, 0] > 0
    return {"standardize": rng.standard_normal((500_000, 8)),
            "heat": rng.random((1024, 1024)),
            "clean": rng.normal(20, 15, (2000, 1000)),
            "softmax_rows": rng.standard_normal((4096, 1024)),
            "stencil_concat": rng.random((384, 384)),
            "jacobi": rng.random((512, 512)),
            "logistic": logistic_data,
            "kmeans": rng.standard_normal((50_000, 16)),
            "pca": rng.standard_normal((100_000, 32)),
            "mlp": rng.standard_normal((8192, 64)),
            "nbody": rng.standard_normal((2048, 3)),
            "attention": rng.standard_normal((1024, 128)) * 0.1,
            "black_scholes": rng.uniform(50, 150, 4_000_000)}


PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    "standardize": standardize, "heat": heat, "clean": clean, "softmax_rows": softmax_rows,
    "stencil_concat": stencil_concat, "jacobi": jacobi, "logistic": logistic, "kmeans": kmeans,
    "pca": pca, "mlp": mlp, "nbody": nbody, "attention": attention, "black_scholes": black_scholes}


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any, float]:
    """(best steady-state time, the result, the first run's time: compiles included)."""
    t0 = time.perf_counter()
    out = fn()
    first = time.perf_counter() - t0
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json")
    parser.add_argument("--only", help="comma-separated program names")
    args = parser.parse_args()
    registry.set_default(args.device)
    try:
        import cupy
    except ImportError:
        cupy = None
    data = inputs()
    wanted = args.only.split(",") if args.only else list(PROGRAMS)
    rows = []
    print(f"{'program':15} {'numpy':>10} {'zyxarray':>10} {'ratio':>7} {'1st run':>9} "
          f"{'cupy':>10} {'vs cupy':>8}  device {args.device}")
    ratios = []
    for name in wanted:
        program, host = PROGRAMS[name], data[name]
        t_np, want, _ = timed(lambda p=program, h=host: p(numpy, h), args.repeat)
        dev = zyxarray.asarray(host, device=args.device)
        # (the result read into NumPy as a NumPy user does, as cupy.asnumpy does below)
        t_zx, got, first = timed(lambda p=program, d=dev: numpy.asarray(p(zyxarray, d)),
                                 args.repeat)
        ok = numpy.allclose(got, want, rtol=1e-5, atol=1e-7, equal_nan=True)
        row = {"program": name, "numpy_s": t_np, "zyx_s": t_zx, "ratio": t_np / t_zx,
               "first_run_s": first, "ok": bool(ok)}
        ratios.append(t_np / t_zx)
        cupy_text = ""
        if cupy is not None and args.device.startswith("cuda"):
            d = cupy.asarray(host)
            t_cp, _, _ = timed(lambda p=program, d=d: cupy.asnumpy(p(cupy, d)), args.repeat)
            row.update(cupy_s=t_cp, vs_cupy=t_cp / t_zx)
            cupy_text = f"{t_cp * 1e3:9.2f}ms {t_cp / t_zx:7.2f}x"
        rows.append(row)
        print(f"{name:15} {t_np * 1e3:9.2f}ms {t_zx * 1e3:9.2f}ms {t_np / t_zx:6.2f}x "
              f"{first:8.2f}s {cupy_text}{'' if ok else '  VALUES DIFFER'}", flush=True)
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"geometric mean vs NumPy: {geo:.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": args.device, "programs": rows}, f, indent=1)


if __name__ == "__main__":
    main()
