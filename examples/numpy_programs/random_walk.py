"""Simulate random walks and estimate probabilities by sampling."""
import numpy as np

rng = np.random.default_rng(42)
steps = rng.choice([-1, 1], size=(2000, 100))
walks = np.cumsum(steps, axis=1)
final = walks[:, -1]
ever_above = np.any(walks >= 10, axis=1).mean()

points = rng.uniform(-1, 1, size=(20000, 2))
inside = np.sum(points ** 2, axis=1) <= 1
pi_estimate = 4 * inside.mean()

normal = rng.normal(loc=2.0, scale=0.5, size=10000)
np.random.seed(0)
legacy = np.random.rand(5000)
shuffled = np.arange(10)
rng.shuffle(shuffled)

print(f"pi ~ {pi_estimate:.3f}, mean final position {final.mean():.2f}")

# random numbers differ between libraries: the results are statistics, compared loosely
results = {"pi": pi_estimate, "final_mean": final.mean() / 10, "final_std": final.std() / 10,
           "ever_above": ever_above, "normal_mean": normal.mean(), "normal_std": normal.std(),
           "legacy_mean": legacy.mean(), "shuffled_sorted": np.sort(shuffled)}
