"""Save arrays to .npy/.npz files and load them back."""
import os
import tempfile

import numpy as np

folder = tempfile.mkdtemp()
grid = np.arange(12, dtype=np.float64).reshape(3, 4) / 7
ids = np.array([4, 8, 15, 16, 23, 42])

np.save(os.path.join(folder, "grid.npy"), grid)
np.savez(os.path.join(folder, "bundle.npz"), grid=grid, ids=ids)
np.savetxt(os.path.join(folder, "grid.csv"), grid, delimiter=",", fmt="%.6f")

loaded = np.load(os.path.join(folder, "grid.npy"))
with np.load(os.path.join(folder, "bundle.npz")) as bundle:
    ids_back = bundle["ids"]
    grid_back = bundle["grid"]
text = np.loadtxt(os.path.join(folder, "grid.csv"), delimiter=",")

print("round trip ok:", np.array_equal(loaded, grid), np.allclose(text, grid, atol=1e-6))

results = {"loaded": loaded, "ids": ids_back, "grid": grid_back, "text": text,
           "same": np.array_equal(ids_back, ids)}
