"""Image, grid, signal and chain computations as a NumPy user writes them: a separable blur,
histogram equalization through a masked CDF, the game of life with np.roll, scatter-adds
with np.add.at, a spectrum's peaks, a polynomial fit and a Markov chain's stationary law."""
import numpy as np

# a deterministic 8-bit "photo"
yy, xx = np.mgrid[0:64, 0:48]
img = ((np.sin(xx * 0.3) * np.cos(yy * 0.2) + 1) * 100 + 20).astype(np.uint8)

# separable blur: one kernel along the rows, then along the columns
k = np.array([1, 4, 6, 4, 1], dtype=float)
k /= k.sum()
blur = np.apply_along_axis(lambda r: np.convolve(r, k, mode="same"), 1, img.astype(float))
blur = np.apply_along_axis(lambda c: np.convolve(c, k, mode="same"), 0, blur)

# histogram equalization (the classic masked-CDF recipe)
hist, edges = np.histogram(img, bins=256, range=(0, 256))
cdf = hist.cumsum()
cdf_m = np.ma.masked_equal(cdf, 0)
cdf_m = (cdf_m - cdf_m.min()) * 255 / (cdf_m.max() - cdf_m.min())
lut = np.ma.filled(cdf_m, 0).astype("uint8")
eq = lut[img]

# the game of life on a torus
grid = ((xx[:32, :32] * 7 + yy[:32, :32] * 13) % 5 == 0).astype(int)
for _ in range(10):
    n = sum(np.roll(np.roll(grid, i, 0), j, 1)
            for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
    grid = ((n == 3) | ((grid == 1) & (n == 2))).astype(int)

# scatter-adds: votes per class, with repeats
votes = np.zeros(4, dtype=np.int64)
np.add.at(votes, [0, 2, 2, 3, 2, 0], 1)
totals = np.zeros((2, 3))
np.add.at(totals, ([0, 1, 1], [2, 0, 0]), [0.5, 1.5, 2.0])
buffered = np.zeros(4)
buffered[[1, 1, 3]] += 1          # (buffered: the repeat counts once)

# a spectrum's two strongest frequencies
t = np.arange(256) / 256.0
sig = np.sin(2 * np.pi * 12 * t) + 0.5 * np.sin(2 * np.pi * 40 * t)
spec = np.abs(np.fft.rfft(sig))
freqs = np.fft.rfftfreq(sig.size, d=1 / 256.0)
peaks = np.sort(freqs[np.argsort(spec)[-2:]])

# a quadratic trend and a line through the same points
x = np.linspace(0, 10, 50)
y = 3 * x ** 2 - 2 * x + 1 + np.sin(x)
coef = np.polyfit(x, y, 2)
A = np.vstack([x, np.ones_like(x)]).T
line = np.linalg.lstsq(A, y, rcond=None)[0]

# a Markov chain: powers of the transition matrix and the left eigenvector for 1
P = np.array([[0.9, 0.1, 0.0], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7]])
limit = np.linalg.matrix_power(P, 100)[0]
w, v = np.linalg.eig(P.T)
stat = np.real(v[:, np.argmin(np.abs(w - 1))])
stat = stat / stat.sum()

normal = np.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
print("blur %.3f  eq std %.3f  alive %d  peaks %s" % (blur.mean(), eq.std(), grid.sum(), peaks))
results = {"blur": blur, "eq": eq, "grid": grid, "votes": votes, "totals": totals,
           "buffered": buffered, "peaks": peaks, "coef": coef, "line": line,
           "limit": limit, "stat": stat, "normal": normal,
           "masked_sum": np.add.reduce(np.arange(12).reshape(3, 4), axis=1,
                                       where=np.arange(12).reshape(3, 4) % 3 != 0)}
