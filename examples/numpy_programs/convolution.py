"""Blur an image with a 3x3 kernel: zero padding, a sliding sum, and an edge filter."""
import numpy as np

image = np.zeros((12, 16))
image[3:9, 4:12] = 1.0
image[5, :] = 0.5
kernel = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype=float)
kernel /= kernel.sum()

padded = np.pad(image, 1, mode="constant")
out = np.zeros_like(image)
for i in range(3):
    for j in range(3):
        out += kernel[i, j] * padded[i:i + image.shape[0], j:j + image.shape[1]]

edges = np.pad(image, 1, mode="edge")
gx = edges[1:-1, 2:] - edges[1:-1, :-2]
gy = edges[2:, 1:-1] - edges[:-2, 1:-1]
magnitude = np.hypot(gx, gy)

signal = np.sin(np.linspace(0, 4 * np.pi, 50))
smooth = np.convolve(signal, np.ones(5) / 5, mode="same")
reflect = np.pad(image, ((2, 2), (1, 3)), mode="reflect")

print("blurred sum %.4f, edge pixels %d" % (out.sum(), np.count_nonzero(magnitude > 0.25)))

results = {"out": out, "magnitude": magnitude, "smooth": smooth, "reflect": reflect,
           "wrap": np.pad(signal[:6], 3, mode="wrap"), "tiled": np.tile(kernel, (2, 3))}
