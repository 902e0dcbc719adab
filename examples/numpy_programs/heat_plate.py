"""A metal plate held at fixed temperatures on its edges, relaxed by Jacobi sweeps until
the largest change is small (the interior rebuilt between the old edges with
``concatenate``), and heat spreading around a ring (``roll``)."""
import numpy as np

n = 64
plate = np.zeros((n, n))
plate[0, :] = 100.0                  # a hot top edge
plate[:, -1] = np.linspace(100.0, 0.0, n)

sweeps = 0
for sweeps in range(1, 400):
    inner = 0.25 * (plate[:-2, 1:-1] + plate[2:, 1:-1] + plate[1:-1, :-2] + plate[1:-1, 2:])
    middle = np.concatenate([plate[1:-1, :1], inner, plate[1:-1, -1:]], axis=1)
    new = np.concatenate([plate[:1], middle, plate[-1:]], axis=0)
    change = np.abs(new - plate).max()
    plate = new
    if change < 0.2:
        break
print(f"{sweeps} sweeps, centre {plate[n // 2, n // 2]:.2f} degrees")

ring = np.zeros(90)
ring[:5] = 50.0
for _ in range(200):
    ring = ring + 0.2 * (np.roll(ring, 1) + np.roll(ring, -1) - 2 * ring)
print(f"ring: hottest {ring.max():.2f}, coldest {ring.min():.2f}")

results = {"sweeps": sweeps, "plate": plate, "centre": plate[n // 2, n // 2],
           "edge_mean": np.concatenate([plate[0], plate[-1], plate[:, 0], plate[:, -1]]).mean(),
           "ring": ring, "ring_spread": ring.max() - ring.min()}
