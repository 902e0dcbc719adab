"""scikit-learn's array API dispatch on zyxarray arrays, against the same estimators and
metrics on NumPy arrays, on every device.

``CASES`` are the ones that returned wrong numbers on cpu and reference while a pooled
buffer exported to NumPy without a copy could be recycled under its reader (issue 12:
``label_binarize`` returned each row's class index where the one-hot 1 belongs).
``ESTIMATORS`` is every estimator whose tags say it supports the array API
(``get_tags(est).array_api_support``; a test checks the list is complete for the installed
scikit-learn), fitted and applied; ``METRICS`` the classification, regression and pairwise
metrics of the array API support page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import sklearn
import sklearn.metrics as M
import sklearn.metrics.pairwise as PW
from sklearn.linear_model import RidgeClassifier, RidgeClassifierCV
from sklearn.metrics import brier_score_loss, log_loss
from sklearn.preprocessing import LabelBinarizer, label_binarize
from sklearn.utils import all_estimators

import zyxarray as xp

# (PoCL's opencl runs the backend tests, not these: tests/conftest.py, numpy_layer)
pytestmark = pytest.mark.numpy_layer

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


_r = np.random.default_rng(1)
XS = _r.standard_normal((80, 6))
YC = _r.integers(0, 3, 80)
YR = XS @ _r.standard_normal(6) + 0.1 * _r.standard_normal(80)
YCOUNT = _r.poisson(2.0, 80).astype(np.float64)
DATA = {"X": XS, "K": XS @ XS.T, "yc": YC, "yr": YR, "ycount": YCOUNT, "Xs": XS * 0.3}

#: estimator -> (its parameters, X, y or None, the method whose output is compared)
ESTIMATORS: dict[str, tuple[dict[str, Any], str, str | None, str]] = {
    "Binarizer": ({}, "X", None, "transform"),
    "GaussianNB": ({}, "X", "yc", "predict_proba"),
    "KernelCenterer": ({}, "K", None, "transform"),
    "LabelEncoder": ({}, "yc", None, "transform"),
    "LinearDiscriminantAnalysis": ({}, "X", "yc", "predict_proba"),
    "LogisticRegression": ({}, "X", "yc", "predict_proba"),
    "MinMaxScaler": ({}, "X", None, "transform"),
    "Normalizer": ({}, "X", None, "transform"),
    "Nystroem": ({"random_state": 0, "n_components": 10}, "X", None, "transform"),
    "PCA": ({"n_components": 3, "svd_solver": "full"}, "X", None, "transform"),
    "PoissonRegressor": ({}, "Xs", "ycount", "predict"),
    "PolynomialFeatures": ({}, "X", None, "transform"),
    "Ridge": ({}, "X", "yr", "predict"),
    "RidgeCV": ({}, "X", "yr", "predict"),
    "RidgeClassifierCV": ({}, "X", "yc", "decision_function"),
    "StandardScaler": ({}, "X", None, "transform"),
}

yt, yp = _r.integers(0, 3, 50), _r.integers(0, 3, 50)
ytb, P3 = (yt > 0).astype(np.int64), _r.random((50, 3))
P3 /= P3.sum(axis=1, keepdims=True)
p1, rt, rp = _r.random(50), _r.random(50) + 0.5, _r.random(50) + 0.5
A, B, A2 = _r.random((20, 4)), _r.random((15, 4)), _r.random((15, 4))
#: metric -> its call (arguments through the array maker it is given)
METRICS: dict[str, Case] = {
    "accuracy_score": lambda a: M.accuracy_score(a(yt), a(yp)),
    "balanced_accuracy_score": lambda a: M.balanced_accuracy_score(a(yt), a(yp)),
    "brier_score_loss": lambda a: M.brier_score_loss(a(ytb), a(p1)),
    "cohen_kappa_score": lambda a: M.cohen_kappa_score(a(yt), a(yp)),
    "confusion_matrix": lambda a: M.confusion_matrix(a(yt), a(yp)),
    "f1_score": lambda a: M.f1_score(a(yt), a(yp), average="macro"),
    "fbeta_score": lambda a: M.fbeta_score(a(yt), a(yp), beta=2, average="weighted"),
    "hamming_loss": lambda a: M.hamming_loss(a(yt), a(yp)),
    "jaccard_score": lambda a: M.jaccard_score(a(yt), a(yp), average="micro"),
    "log_loss": lambda a: M.log_loss(a(yt), a(P3)),
    "matthews_corrcoef": lambda a: M.matthews_corrcoef(a(yt), a(yp)),
    "multilabel_confusion_matrix": lambda a: M.multilabel_confusion_matrix(a(yt), a(yp)),
    "precision_score": lambda a: M.precision_score(a(yt), a(yp), average="macro"),
    "recall_score": lambda a: M.recall_score(a(yt), a(yp), average=None),
    "zero_one_loss": lambda a: M.zero_one_loss(a(yt), a(yp)),
    "roc_curve": lambda a: M.roc_curve(a(ytb), a(p1))[1],
    "roc_auc_score": lambda a: M.roc_auc_score(a(ytb), a(p1)),
    "explained_variance_score": lambda a: M.explained_variance_score(a(rt), a(rp)),
    "mean_absolute_error": lambda a: M.mean_absolute_error(a(rt), a(rp)),
    "mean_absolute_percentage_error":
        lambda a: M.mean_absolute_percentage_error(a(rt), a(rp)),
    "mean_gamma_deviance": lambda a: M.mean_gamma_deviance(a(rt), a(rp)),
    "mean_pinball_loss": lambda a: M.mean_pinball_loss(a(rt), a(rp)),
    "mean_poisson_deviance": lambda a: M.mean_poisson_deviance(a(rt), a(rp)),
    "mean_squared_error": lambda a: M.mean_squared_error(a(rt), a(rp)),
    "mean_squared_log_error": lambda a: M.mean_squared_log_error(a(rt), a(rp)),
    "mean_tweedie_deviance": lambda a: M.mean_tweedie_deviance(a(rt), a(rp), power=1.5),
    "median_absolute_error": lambda a: M.median_absolute_error(a(rt), a(rp)),
    "r2_score": lambda a: M.r2_score(a(rt), a(rp)),
    "root_mean_squared_error": lambda a: M.root_mean_squared_error(a(rt), a(rp)),
    "root_mean_squared_log_error": lambda a: M.root_mean_squared_log_error(a(rt), a(rp)),
    "d2_tweedie_score": lambda a: M.d2_tweedie_score(a(rt), a(rp), power=1.5),
    "d2_absolute_error_score": lambda a: M.d2_absolute_error_score(a(rt), a(rp)),
    "d2_pinball_score": lambda a: M.d2_pinball_score(a(rt), a(rp)),
    "additive_chi2_kernel": lambda a: PW.additive_chi2_kernel(a(A), a(B)),
    "chi2_kernel": lambda a: PW.chi2_kernel(a(A), a(B)),
    "cosine_similarity": lambda a: PW.cosine_similarity(a(A), a(B)),
    "cosine_distances": lambda a: PW.cosine_distances(a(A), a(B)),
    "euclidean_distances": lambda a: PW.euclidean_distances(a(A), a(B)),
    "linear_kernel": lambda a: PW.linear_kernel(a(A), a(B)),
    "manhattan_distances": lambda a: PW.manhattan_distances(a(A), a(B)),
    "paired_cosine_distances": lambda a: PW.paired_cosine_distances(a(A2), a(B)),
    "paired_euclidean_distances": lambda a: PW.paired_euclidean_distances(a(A2), a(B)),
    "polynomial_kernel": lambda a: PW.polynomial_kernel(a(A), a(B)),
    "rbf_kernel": lambda a: PW.rbf_kernel(a(A), a(B)),
    "sigmoid_kernel": lambda a: PW.sigmoid_kernel(a(A), a(B)),
    "laplacian_kernel": lambda a: PW.laplacian_kernel(a(A), a(B)),
    "pairwise_distances": lambda a: PW.pairwise_distances(a(A), a(B)),
    "pairwise_kernels": lambda a: PW.pairwise_kernels(a(A), a(B), metric="rbf"),
}


def _estimator_case(name: str) -> Case:
    params, x, y, method = ESTIMATORS[name]
    cls = dict(all_estimators())[name]

    def run(a: Callable[[np.ndarray], Any]) -> Any:
        est = cls(**params)
        data = a(DATA[x])
        est = est.fit(data) if y is None else est.fit(data, a(DATA[y]))
        return getattr(est, method)(data)
    return run


def test_every_estimator_with_array_api_support_is_covered() -> None:
    from sklearn.utils._tags import get_tags

    tagged = set()
    for name, cls in all_estimators():
        try:
            if get_tags(cls()).array_api_support:
                tagged.add(name)
        except (TypeError, AttributeError):     # (meta-estimators need arguments)
            continue
    assert tagged <= set(ESTIMATORS), sorted(tagged - set(ESTIMATORS))


@pytest.mark.parametrize("case", [*CASES, *(f"estimator:{n}" for n in ESTIMATORS),
                                  *(f"metric:{n}" for n in METRICS)])
def test_array_api_dispatch_matches_numpy(device: str, case: str) -> None:
    kind, _, name = case.rpartition(":")
    run = _estimator_case(name) if kind == "estimator" else METRICS[name] if kind else \
        CASES[case]
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
