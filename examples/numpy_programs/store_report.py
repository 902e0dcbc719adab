"""A small sales report from CSV text, as one writes it with NumPy: group sums with unique and
bincount, sorting by two keys, percentiles, binning, set operations, along-axis updates,
interpolation, small linear algebra, rolling means."""
import io

import numpy as np

out = {}
csv = io.StringIO("""store,day,units,price
1,1,10,2.5
2,1,3,4.0
1,2,7,2.5
3,2,1,10.0
2,3,8,4.5
3,3,2,9.5
1,3,12,2.0
""")
data = np.genfromtxt(csv, delimiter=",", skip_header=1)
store, day, units, price = data.T
revenue = units * price
stores, inv = np.unique(store, return_inverse=True)
out["rev_by_store"] = np.bincount(inv, weights=revenue).tolist()
out["units_by_store"] = np.bincount(inv, weights=units).astype(int).tolist()
order = np.lexsort((price, store))
out["lexsort"] = order.tolist()
out["argpartition_top2"] = sorted(np.argpartition(revenue, -2)[-2:].tolist())
out["pct"] = np.percentile(revenue, [25, 50, 75]).round(4).tolist()
out["corr"] = round(float(np.corrcoef(units, price)[0, 1]), 6)
bins = np.digitize(price, [3.0, 5.0])
out["digitize"] = bins.tolist()
out["isin"] = np.isin(store, [1, 3]).tolist()
out["setdiff"] = np.setdiff1d(np.arange(5), store.astype(int)).tolist()
out["avg_w"] = round(float(np.average(price, weights=units)), 6)
out["median_ax"] = np.median(data, axis=0).tolist()
out["std_ddof"] = round(float(np.std(units, ddof=1)), 6)
out["ptp"] = float(np.ptp(price))
out["nanargmax"] = int(np.nanargmax(np.array([1.0, np.nan, 3.0, 2.0])))
M = np.arange(12.0).reshape(3, 4)
idx = np.argmax(M, axis=1)[:, None]
out["take_along"] = np.take_along_axis(M, idx, axis=1).ravel().tolist()
np.put_along_axis(M, idx, -1.0, axis=1)
out["put_along"] = M.tolist()
x = np.linspace(0, np.pi, 9)
out["interp"] = np.interp([0.5, 1.5], x, np.sin(x)).round(6).tolist()
out["trapz"] = round(float(np.trapezoid(np.sin(x), x)), 6)
out["gradient"] = np.gradient(np.array([1.0, 4.0, 9.0, 16.0])).tolist()
A = np.array([[4.0, 1.0], [2.0, 3.0]])
out["inv"] = np.linalg.inv(A).round(6).tolist()
out["det"] = round(float(np.linalg.det(A)), 6)
out["solve"] = np.linalg.solve(A, [1.0, 2.0]).round(6).tolist()
out["norms"] = np.linalg.norm(M, axis=1).round(6).tolist()
out["einsum"] = np.einsum("ij,ij->i", M, M).tolist()
out["tensordot"] = np.tensordot(M, np.ones(4), axes=1).tolist()
out["allclose"] = bool(np.allclose(A @ np.linalg.inv(A), np.eye(2)))
out["array_equal"] = bool(np.array_equal(np.arange(3), [0, 1, 2]))
out["iinfo"] = int(np.iinfo(np.int16).max)
out["cumsum_diff"] = np.diff(np.cumsum(units)).tolist()
out["round"] = np.round(np.array([1.2345, 2.5, -0.5]), 2).tolist()
out["sign"] = np.sign(np.array([-2, 0, 3])).tolist()
out["rolling"] = np.convolve(units, np.ones(3) / 3, mode="valid").round(6).tolist()
out["sliding"] = np.lib.stride_tricks.sliding_window_view(units, 3).mean(axis=1).round(6).tolist()
out["triu"] = np.triu(np.ones((3, 3)), 1).sum().item()
out["repeat"] = np.repeat(np.array([1, 2]), [2, 3]).tolist()
out["count"] = int(np.count_nonzero(units > 5))
out["any_all"] = [bool(np.any(units > 11)), bool(np.all(price > 1))]
out["flip"] = np.flipud(np.eye(2)).tolist()
out["item"] = units[2].item()
text = np.array2string(np.array([1.5, 2.25]), precision=2)
print("revenue by store", out["rev_by_store"], text)
results = out
