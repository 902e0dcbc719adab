"""Mix integer, float and boolean data, as real code does."""
import numpy as np

counts = np.array([3, 0, 7, 2], dtype=np.int32)
weights = np.array([0.5, 1.5, 0.25, 2.0], dtype=np.float32)
flags = counts > 1

scaled = counts * weights
ratio = counts / counts.sum()
as_float = counts.astype(np.float64) + np.float64(3)
bits = counts & 0b110
total = np.int64(counts.sum()) * 2
mixed = counts + 1.5
masked_mean = np.mean(weights[flags])
info = np.finfo(np.float32)
big = np.iinfo(np.int32).max - counts
is_float = np.issubdtype(scaled.dtype, np.floating)
rounded = np.round(ratio, 3)
floor_div = counts // 2
power = np.power(counts, 2)

print("dtypes:", scaled.dtype, ratio.dtype, mixed.dtype, total.dtype if hasattr(total, "dtype") else type(total))

results = {"scaled": scaled, "ratio": ratio, "as_float": as_float, "bits": bits,
           "total": total, "mixed": mixed, "masked_mean": masked_mean, "eps": info.eps,
           "big": big, "is_float": is_float, "rounded": rounded, "floor_div": floor_div,
           "power": power, "flags": flags}
