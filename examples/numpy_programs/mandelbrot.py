"""The Mandelbrot set, as NumPy's documentation draws it: complex arithmetic on a grid,
a mask of the points that escaped, in-place updates through boolean masks."""

import numpy as np


def mandelbrot(h, w, maxit=20, r=2):
    """Returns an image of the Mandelbrot fractal of size (h, w)."""
    x = np.linspace(-2.5, 1.5, 4 * h + 1)
    y = np.linspace(-1.5, 1.5, 3 * w + 1)
    A, B = np.meshgrid(x, y)
    C = A + B * 1j
    z = np.zeros_like(C)
    divtime = maxit + np.zeros(z.shape, dtype=int)
    for i in range(maxit):
        z = z**2 + C
        diverge = abs(z) > r                     # who is diverging
        div_now = diverge & (divtime == maxit)   # who is diverging now
        divtime[div_now] = i                     # note when
        z[diverge] = r                           # avoid diverging too much
    return divtime


image = mandelbrot(40, 40)
inside = image == image.max()
print(f"{inside.sum()} of {image.size} points stay bounded")
results = {
    "image": image,
    "bounded": inside.sum(),
    "escape_histogram": np.bincount(image.ravel()),
    "mean_escape": image.mean(),
}
