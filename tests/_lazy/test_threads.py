"""Threads: independent computations on shared inputs from 8 Python threads at once, on
every device: the registry, the kernel caches, the pools and the graph hold up, and every
thread gets NumPy's values."""

from __future__ import annotations

import threading
import traceback

import numpy as np

import zyxarray as xp

A = np.random.default_rng(0).standard_normal((64, 32)).astype(np.float32)


def test_eight_threads_on_shared_inputs(device: str) -> None:
    shared = xp.asarray(A, device=device)
    errors: list[str] = []

    def work(k: int) -> None:
        try:
            for i in range(8):
                s = xp.sum(xp.exp(shared * ((k + 1) * 0.01)) + i, axis=1)
                m = xp.max(shared[k:k + 8] - k, axis=0)
                z = shared.T @ (shared * 0.5)
                w = xp.asarray(np.full(5, k, np.float32), device=device) * 2
                mine = xp.zeros((4, 4), dtype=xp.float32, device=device)
                mine[k % 4] = k                               # a write to a private array
                expected = (np.exp(A * np.float32((k + 1) * 0.01)) + i).sum(axis=1)
                np.testing.assert_allclose(np.asarray(s), expected, rtol=1e-4)
                np.testing.assert_allclose(np.asarray(m), (A[k:k + 8] - k).max(axis=0))
                np.testing.assert_allclose(np.asarray(z), A.T @ (A * 0.5), rtol=1e-3,
                                           atol=1e-3)
                assert np.asarray(w).tolist() == [2.0 * k] * 5
                assert float(xp.sum(mine)) == 4.0 * k
        except Exception:
            errors.append(traceback.format_exc())

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not any(t.is_alive() for t in threads), "a thread hangs"
    assert not errors, errors[0]
    np.testing.assert_array_equal(np.asarray(shared), A)     # the shared input is intact
