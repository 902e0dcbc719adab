"""Python loops as NumPy code is full of: a recurrence by scalar indexing, a pass over rows,
element reads into Python floats, a small gradient descent, and half-precision storage."""
import numpy as np

# an exponential moving average, element by element
prices = np.cumsum(np.sin(np.arange(200) / 7.0)) + 100.0
ema = np.zeros_like(prices)
ema[0] = prices[0]
for i in range(1, len(prices)):
    ema[i] = 0.9 * ema[i - 1] + 0.1 * prices[i]

# a pass over rows: each row normalized by its own norm
table = np.arange(60, dtype=np.float64).reshape(12, 5) % 7 + 1.0
norms = []
for row in table:
    norms.append(float(np.sqrt(row @ row)))
    row /= norms[-1]

# element reads into Python
total = 0.0
for i in range(len(prices)):
    if prices[i] > 100.0:
        total += float(prices[i])

# a small gradient descent on a least-squares problem
A = np.arange(40, dtype=np.float64).reshape(20, 2) / 20.0
b = A @ np.array([2.0, -1.0]) + 0.5
x = np.zeros(2)
for _ in range(200):
    x -= 0.1 * (A.T @ (A @ x - b)) / len(b)

# float16 storage, float32 arithmetic
half = (prices / 100.0).astype(np.float16)
half_mean = half.mean()

print("ema %.4f, norms %.3f, total %.2f, x %s, half %s"
      % (ema[-1], sum(norms), total, np.round(x, 3), half_mean))

results = {"ema": ema, "table": table, "norms": np.array(norms), "total": np.array(total),
           "x": x, "half": half, "half_mean": half_mean}
