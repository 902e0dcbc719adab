"""Fit a polynomial and a linear model by least squares."""
import numpy as np

x = np.linspace(0, 2, 25)
y = 1.5 * x ** 2 - 0.7 * x + 0.3 + 0.05 * np.sin(7 * x)

A = np.vstack([x ** 2, x, np.ones_like(x)]).T
coef, residuals, rank, sv = np.linalg.lstsq(A, y, rcond=None)
fit = A @ coef
rmse = np.sqrt(np.mean((fit - y) ** 2))

poly = np.polyfit(x, y, 2)
pred = np.polyval(poly, x)

X = np.column_stack([x, np.cos(x)])
X = np.hstack([X, np.ones((len(x), 1))])
w = np.linalg.solve(X.T @ X, X.T @ y)

print(f"coefficients: {coef[0]:.4f} {coef[1]:.4f} {coef[2]:.4f}, rmse {rmse:.5f}")

results = {"coef": coef, "rank": rank, "sv": sv, "fit": fit, "rmse": rmse, "poly": poly,
           "pred": pred, "w": w, "inv_check": np.linalg.inv(X.T @ X) @ (X.T @ X)}
