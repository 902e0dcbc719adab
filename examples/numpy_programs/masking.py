"""Clean a data set: masks, fancy indexing and in-place updates through views."""
import numpy as np

readings = np.array([[12.0, -1.0, 14.5, 13.0],
                     [11.5, 12.5, -1.0, 99.0],
                     [13.0, 12.0, 12.5, 14.0]])

invalid = readings < 0
readings[invalid] = np.nan
outliers = np.where(readings > 50)
readings[outliers] = np.nan
col_means = np.nanmean(readings, axis=0)
rows, cols = np.where(np.isnan(readings))
readings[rows, cols] = np.take(col_means, cols)

first = readings[0]
first[:] = first * 10          # a view: the update lands in readings
readings[:, -1] += 1

picked = readings[[2, 0], 1:3]
order = np.argsort(readings[:, 0])
ranked = readings[order]
clipped = np.clip(readings, 12.0, 100.0)
counts = np.count_nonzero(readings > 13, axis=1)
total = np.sum([1, 2, 3]) + readings.sum()
shifted = readings + [1, 2, 3, 4]

print(f"total {total:.2f}, counts {counts}")

results = {"readings": readings, "picked": picked, "ranked": ranked, "clipped": clipped,
           "counts": counts, "total": total, "shifted": shifted, "means": col_means}
