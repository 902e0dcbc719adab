"""Logistic regression by gradient descent, written as NumPy code is written.

Run: ``python examples/logistic_regression.py [device] [steps]`` (device: cpu, opencl:0,
cuda:0, reference...). It trains the same model with NumPy and with zyxarray on the device,
prints both times and the largest difference of the weights.
"""

from __future__ import annotations

import sys
import time

import numpy

import zyxarray


def train(np, X, y, steps: int, lr: float = 0.1):
    """``np`` is the array module: numpy or zyxarray."""
    n = X.shape[0]
    w = np.zeros_like(X[0])
    b = 0.0
    for _ in range(steps):
        z = X @ w + b
        p = 1.0 / (1.0 + np.exp(-z))
        grad_w = X.T @ (p - y) / n
        grad_b = np.sum(p - y) / n
        w = w - lr * grad_w
        b = b - lr * float(grad_b)
    return w, b


def main() -> None:
    device = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    rng = numpy.random.default_rng(0)
    X = rng.standard_normal((2000, 20))
    y = (X @ rng.standard_normal(20) > 0).astype(numpy.float64)

    t = time.perf_counter()
    w_np, b_np = train(numpy, X, y, steps)
    t_np = time.perf_counter() - t

    Xz = zyxarray.asarray(X, device=device)
    yz = zyxarray.asarray(y, device=device)
    train(zyxarray, Xz, yz, 2)                      # compile outside the timing
    t = time.perf_counter()
    w_z, b_z = train(zyxarray, Xz, yz, steps)
    w_z = numpy.asarray(w_z.to_device("cpu"))
    t_z = time.perf_counter() - t

    err = max(float(numpy.max(numpy.abs(w_z - w_np))), abs(b_z - b_np))
    print(f"logistic regression, {steps} steps, {X.shape}: NumPy {t_np * 1e3:.1f} ms, "
          f"zyxarray {device} {t_z * 1e3:.1f} ms ({t_np / t_z:.2f}x NumPy); max |diff| {err:.2e}")
    if err > 1e-8:
        sys.exit(1)


if __name__ == "__main__":
    main()
