"""Tally categories: sorting, unique values with counts, searchsorted and set operations."""
import numpy as np

labels = np.array([3, 1, 2, 3, 3, 1, 5, 2, 2, 3, 8, 1])
scores = np.array([0.5, 0.9, 0.1, 0.7, 0.3, 0.8, 0.2, 0.6, 0.4, 0.95, 0.05, 0.65])

values, counts = np.unique(labels, return_counts=True)
_, first_index, inverse = np.unique(labels, return_index=True, return_inverse=True)
by_label = np.bincount(labels, weights=scores)
top = np.sort(scores)[::-1][:3]
rank = np.argsort(-scores, kind="stable")
where = np.searchsorted(values, [2, 4, 8])
common = np.intersect1d(labels, [1, 2, 7, 8])
missing = np.setdiff1d(np.arange(1, 9), labels)
hist, edges = np.histogram(scores, bins=4, range=(0, 1))
bins = np.digitize(scores, [0.25, 0.5, 0.75])
median = np.median(scores)
p90 = np.percentile(scores, 90)

print("labels:", dict(zip(values.tolist(), counts.tolist())))

results = {"values": values, "counts": counts, "first": first_index, "inverse": inverse,
           "by_label": by_label, "top": top, "rank": rank, "where": where, "common": common,
           "missing": missing, "hist": hist, "edges": edges, "bins": bins, "median": median,
           "p90": p90, "cumsum": np.cumsum(counts), "diff": np.diff(values)}
