"""Run in a fresh interpreter (SCIPY_ARRAY_API=1): scikit-learn estimators fitted on numr
arrays with array_api_dispatch=True return numr arrays equal to the NumPy fit."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _checks_common import check, finish, host, same, xp  # noqa: E402

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

rng = np.random.default_rng(0)
X = rng.standard_normal((60, 5)) @ rng.standard_normal((5, 5)) + rng.standard_normal(5)
y = X @ rng.standard_normal(5) + 0.1 * rng.standard_normal(60)
labels = (X[:, 0] + X[:, 1] > np.median(X[:, 0] + X[:, 1])).astype(np.int64)
labels[::7] = 2  # three classes
Xn, yn, ln = xp.asarray(X), xp.asarray(y), xp.asarray(labels)


def fit_both(make, fit_args_np, fit_args_numr):
    ref = make().fit(*fit_args_np)
    with sklearn.config_context(array_api_dispatch=True):
        est = make().fit(*fit_args_numr)
    return ref, est


@check("pca")
def _():
    ref, est = fit_both(lambda: PCA(n_components=3, svd_solver="full"), (X,), (Xn,))
    with sklearn.config_context(array_api_dispatch=True):
        t = est.transform(Xn)
        inv = est.inverse_transform(t)
    same(t, ref.transform(X), "PCA.transform")
    same(inv, ref.inverse_transform(ref.transform(X)), "PCA.inverse_transform")
    for attr in ("components_", "explained_variance_", "explained_variance_ratio_", "mean_",
                 "singular_values_"):
        same(getattr(est, attr), getattr(ref, attr), f"PCA.{attr}")


@check("ridge_svd")
def _():
    ref, est = fit_both(lambda: Ridge(alpha=0.5, solver="svd"), (X, y), (Xn, yn))
    same(est.coef_, ref.coef_, "Ridge.coef_")
    same(est.intercept_, ref.intercept_, "Ridge.intercept_")
    with sklearn.config_context(array_api_dispatch=True):
        p = est.predict(Xn)
    same(p, ref.predict(X), "Ridge.predict")


@check("lda")
def _():
    ref, est = fit_both(lambda: LinearDiscriminantAnalysis(solver="svd"), (X, labels),
                        (Xn, ln))
    with sklearn.config_context(array_api_dispatch=True):
        pred = est.predict(Xn)
        proba = est.predict_proba(Xn)
        tr = est.transform(Xn)
    same(pred, ref.predict(X), "LDA.predict", atol=0)
    same(proba, ref.predict_proba(X), "LDA.predict_proba", atol=1e-9)
    # the discriminant axes come from an SVD: each is defined up to its sign, and LAPACK
    # and cuSOLVER pick different ones (sklearn's LDA, unlike PCA, does not fix them)
    want = ref.transform(X)
    signs = np.sign(np.sum(host(tr) * want, axis=0))
    assert np.all(signs != 0), "LDA.transform: an axis orthogonal to the reference"
    same(tr * xp.asarray(signs, dtype=tr.dtype, device=tr.device), want, "LDA.transform")
    same(est.coef_, ref.coef_, "LDA.coef_")
    same(est.means_, ref.means_, "LDA.means_")


@check("standard_scaler")
def _():
    ref, est = fit_both(StandardScaler, (X,), (Xn,))
    with sklearn.config_context(array_api_dispatch=True):
        t = est.transform(Xn)
        back = est.inverse_transform(t)
    same(t, ref.transform(X), "StandardScaler.transform")
    same(back, X, "StandardScaler.inverse_transform")
    for attr in ("mean_", "var_", "scale_"):
        same(getattr(est, attr), getattr(ref, attr), f"StandardScaler.{attr}")


@check("set_config_global")
def _():
    """The global switch (sklearn.set_config) works as well as config_context."""
    sklearn.set_config(array_api_dispatch=True)
    try:
        est = StandardScaler().fit(Xn)
        same(est.transform(Xn), StandardScaler().fit(X).transform(X), "set_config")
    finally:
        sklearn.set_config(array_api_dispatch=False)


finish()
