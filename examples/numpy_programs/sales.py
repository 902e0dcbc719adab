"""A year of daily sales per store: running totals, moving averages, best and worst days."""
import numpy as np

stores, days = 300, 365
# (deterministic stand-ins for measured data: a trend, a weekly cycle, noise)
t = np.arange(days)
base = 100 + 40 * np.sin(np.arange(stores) * 0.7)[:, None]
weekly = 1 + 0.25 * np.sin(2 * np.pi * t / 7)[None, :]
noise = 10 * np.sin(np.arange(stores * days).reshape(stores, days) * 12.9898) ** 3
sales = base * weekly + 0.05 * t + noise

# running totals and a 7-day moving average through the cumulative sum
running = np.cumsum(sales, axis=1)
window = 7
padded = np.concatenate([np.zeros((stores, 1)), running], axis=1)
moving = (padded[:, window:] - padded[:, :-window]) / window

best_day = np.argmax(sales, axis=1)
worst_day = np.argmin(moving, axis=1)
total = running[:, -1]
share = total / total.sum()

# the first day each store passed half its yearly total
half = (running >= total[:, None] / 2).argmax(axis=1)

# day-over-day growth and the store-to-store profile of the week
growth = np.diff(sales, axis=1) / sales[:, :-1]
by_weekday = sales[:, :364].reshape(stores, 52, 7).mean(axis=1)
profile = by_weekday / by_weekday.mean(axis=1, keepdims=True)

top = np.argsort(total)[::-1][:5]
print("top stores", top, "best days", best_day[top], "half-year day", half[top])
results = {"running": running, "moving": moving, "best_day": best_day,
           "worst_day": worst_day, "share": share, "half": half,
           "growth_max": growth.max(axis=1), "profile": profile, "top": top}
