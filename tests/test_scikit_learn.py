"""scikit-learn's array API dispatch on zyxarray arrays, against the same estimators and
metrics on NumPy arrays, on every device.

The cases are the ones that returned wrong numbers on cpu and reference while a pooled
buffer exported to NumPy without a copy could be recycled under its reader (issue 12:
``label_binarize`` returned each row's class index where the one-hot 1 belongs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import RidgeClassifier, RidgeClassifierCV
from sklearn.metrics import brier_score_loss, log_loss
from sklearn.preprocessing import LabelBinarizer, label_binarize

import zyxarray as xp

_rng = np.random.default_rng(0)
X = _rng.standard_normal((60, 5))
Y = _rng.integers(0, 3, 60)
P = _rng.random((60, 3))
P /= P.sum(axis=1, keepdims=True)
P1 = _rng.random(60)

Case = Callable[[Callable[[np.ndarray], Any]], Any]

CASES: dict[str, Case] = {
    "label_binarize": lambda a: label_binarize(a(np.array([0, 1, 2, 1, 0, 2, 2, 1])),
                                               classes=a(np.array([0, 1, 2]))),
    "LabelBinarizer": lambda a: LabelBinarizer().fit(a(Y)).transform(a(Y)),
    "RidgeClassifier-svd": lambda a: RidgeClassifier(solver="svd").fit(a(X), a(Y))
    .decision_function(a(X)),
    "RidgeClassifierCV": lambda a: RidgeClassifierCV().fit(a(X), a(Y)).decision_function(a(X)),
    "log_loss": lambda a: log_loss(a(Y), a(P)),
    "brier_score_loss": lambda a: brier_score_loss(a((Y > 0).astype(np.int64)), a(P1)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_array_api_dispatch_matches_numpy(device: str, case: str) -> None:
    run = CASES[case]
    expected = np.asarray(run(lambda h: h), dtype=np.float64)
    with sklearn.config_context(array_api_dispatch=True):
        got = run(lambda h: xp.asarray(h, device=device))
    if isinstance(got, xp.Array):
        assert got.device == xp.asarray(0, device=device).device
        got = got.to_device("cpu")
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), expected, rtol=1e-6,
                               atol=1e-9)


def test_library_code_that_creates_arrays_without_a_device_runs_under_a_device_block(
        device: str) -> None:
    """``LinearDiscriminantAnalysis(priors=...)`` turns the priors into an array without
    ``device=``: on a device other than the default that mixes devices (a clear error naming
    the function), and under ``with xp.Device(device):`` it runs there (issue 17)."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA

    priors = np.array([0.2, 0.3, 0.5])
    expected = LDA(priors=priors).fit(X, Y).predict_proba(X)
    with sklearn.config_context(array_api_dispatch=True):
        Xd, Yd = xp.asarray(X, device=device), xp.asarray(Y, device=device)
        if xp.Device(device) is not xp.__array_namespace_info__().default_device():
            with pytest.raises(ValueError, match="arrays are on different devices"):
                LDA(priors=priors).fit(Xd, Yd)
        with xp.Device(device):
            got = LDA(priors=priors).fit(Xd, Yd).predict_proba(Xd)
    assert got.device == xp.Device(device)
    np.testing.assert_allclose(np.asarray(got.to_device("cpu")), expected, rtol=1e-6,
                               atol=1e-9)
