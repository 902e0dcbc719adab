"""Damped springs stepped in a loop that reads the energy every step, a per-row ledger
walked row by row, safe division with ``out=``/``where=``, label lookups through a dict,
and a Fibonacci matrix power: the NumPy habits of small simulation and bookkeeping code."""
import numpy as np

# -- 300 damped springs, 150 steps, the total energy observed every step ------------------
n = 300
k = 1.0 + 0.5 * np.sin(np.arange(n) * 0.37)          # stiffness per spring
pos = np.cos(np.arange(n) * 0.11)
vel = np.zeros(n)
dt, damping = 0.05, 0.02
energy = []
for step in range(150):
    acc = -k * pos - damping * vel
    vel += dt * acc
    pos += dt * vel
    energy.append(float((0.5 * vel**2 + 0.5 * k * pos**2).sum()))
energy = np.array(energy)
decay = energy[-1] / energy[0]

# -- a ledger: 40 accounts x 12 months, walked row by row ---------------------------------
months = np.arange(12)
ledger = np.round(100 * np.sin(np.arange(40)[:, None] * 0.3 + months * 0.5) + 20, 2)
balances = []
best_month = []
for row in ledger:
    balances.append(row.sum())
    best_month.append(int(np.argmax(row)))
    row[row < 0] = 0.0                                 # (a write through the row: a view)
balances = np.array(balances)
clipped_total = ledger.sum()
monthly_mean = np.array([ledger[:, m].mean() for m in range(12)])

# -- safe division and bucketing -----------------------------------------------------------
counts = np.array([3.0, 0.0, 5.0, 0.0, 2.0])
totals = np.array([9.0, 4.0, 10.0, 0.0, 7.0])
per_item = np.divide(totals, counts, out=np.zeros_like(totals), where=counts > 0)
weeks, days_left = divmod(np.array([17, 30, 45, 61]), 7)
labels = np.array([2, 0, 1, 2, 2, 0])
names = {0: "low", 1: "mid", 2: "high"}
named = [names[v] for v in labels]
high_count = sum(1 for s in named if s == "high")
has_seven = 7 in np.arange(12).reshape(3, 4)

# -- Fibonacci by an integer matrix power --------------------------------------------------
fib = np.linalg.matrix_power(np.array([[1, 1], [1, 0]]), 60)

results = {
    "energy": energy, "decay": decay, "final_pos": pos,
    "balances": balances, "best_month": np.array(best_month),
    "clipped_total": clipped_total, "monthly_mean": monthly_mean,
    "per_item": per_item, "weeks": weeks, "days_left": days_left,
    "high_count": high_count, "has_seven": has_seven, "fib": fib,
}
print(f"energy decays to {decay:.4f} of its start; fib(60) = {fib[0, 1]}")
