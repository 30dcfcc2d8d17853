"""Run in a fresh interpreter (SCIPY_ARRAY_API=1) for one backend: call scikit-learn's and
SciPy's array-API-capable estimators / functions on numr arrays and report, for every fitted
attribute and result, its type, namespace and device (test_outputs_on_device.py judges)."""

import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _checks_common import xp  # noqa: E402

import json  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import sklearn  # noqa: E402

rng = np.random.default_rng(0)
X = rng.standard_normal((40, 4))
y = X @ rng.standard_normal(4) + 0.1 * rng.standard_normal(40)
labels = (X[:, 0] > 0).astype(np.int64) + (X[:, 1] > 0.5).astype(np.int64)
Xn, yn, ln = xp.asarray(X), xp.asarray(y), xp.asarray(labels)
DEVICE = Xn.device
OUT = {}


def describe(v):
    if isinstance(v, (tuple, list)) or type(v).__name__.endswith("Result"):
        # SciPy's result objects iterate over their public fields (statistic, pvalue, ...)
        return {"kind": "tuple", "items": [describe(i) for i in v]}
    t = type(v)
    d = {"type": f"{t.__module__}.{t.__qualname__}"}
    if hasattr(v, "__array_namespace__"):
        try:
            d["namespace"] = v.__array_namespace__().__name__
        except Exception as e:  # noqa: BLE001
            d["namespace"] = f"error: {e}"
        d["device"] = str(getattr(v, "device", None))
        d["on_input_device"] = d["namespace"] == xp.__name__ and d["device"] == str(DEVICE)
    else:
        d["on_input_device"] = False
    return d


def record(name, fn):
    from numr_array_api._core.config import HostConversionWarning

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", HostConversionWarning)
            with sklearn.config_context(array_api_dispatch=True):
                res = fn()
        host = sorted({str(w.message).split(";")[0][:160] for w in caught
                       if issubclass(w.category, HostConversionWarning)})
        OUT[name] = {"ok": True, "outputs": {k: describe(v) for k, v in res.items()},
                     "host_conversions": host}
    except Exception as e:  # noqa: BLE001
        OUT[name] = {"ok": False, "error": f"{type(e).__name__}: {str(e)[:300]}",
                     "trace": traceback.format_exc()[-1500:]}


def fitted(est, *args, attrs, methods=()):
    est.fit(*args)
    out = {a: getattr(est, a) for a in attrs}
    for m in methods:
        out[f"{m}()"] = getattr(est, m)(args[0])
    return out


# -- scikit-learn estimators whose tags declare array_api_support (1.9.1) ---------------------
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.kernel_approximation import Nystroem  # noqa: E402
from sklearn.linear_model import Ridge, RidgeCV  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.preprocessing import (Binarizer, KernelCenterer, LabelEncoder,  # noqa: E402
                                   MinMaxScaler, Normalizer, PolynomialFeatures,
                                   StandardScaler)

record("PCA", lambda: fitted(PCA(n_components=2, svd_solver="full"), Xn,
                             attrs=("components_", "explained_variance_", "mean_",
                                    "singular_values_"), methods=("transform",)))
record("Ridge(solver='svd')", lambda: fitted(Ridge(alpha=0.5, solver="svd"), Xn, yn,
                                             attrs=("coef_", "intercept_"), methods=("predict",)))
record("RidgeCV", lambda: fitted(RidgeCV(alphas=(0.1, 1.0)), Xn, yn,
                                 attrs=("coef_", "intercept_"), methods=("predict",)))
record("LinearDiscriminantAnalysis", lambda: fitted(
    LinearDiscriminantAnalysis(), Xn, ln, attrs=("coef_", "intercept_", "means_", "classes_"),
    methods=("predict", "predict_proba", "transform")))
record("GaussianNB", lambda: fitted(GaussianNB(), Xn, ln, attrs=("theta_", "var_", "classes_"),
                                    methods=("predict", "predict_proba")))
record("StandardScaler", lambda: fitted(StandardScaler(), Xn, attrs=("mean_", "scale_", "var_"),
                                        methods=("transform",)))
record("MinMaxScaler", lambda: fitted(MinMaxScaler(), Xn, attrs=("data_min_", "scale_"),
                                      methods=("transform",)))
record("Normalizer", lambda: fitted(Normalizer(), Xn, attrs=(), methods=("transform",)))
record("Binarizer", lambda: fitted(Binarizer(), Xn, attrs=(), methods=("transform",)))
record("PolynomialFeatures", lambda: fitted(PolynomialFeatures(2), Xn, attrs=(),
                                            methods=("transform",)))
record("KernelCenterer", lambda: fitted(KernelCenterer(), xp.matmul(Xn, xp.matrix_transpose(Xn)),
                                        attrs=("K_fit_rows_",), methods=("transform",)))
record("Nystroem", lambda: fitted(Nystroem(n_components=10, random_state=0), Xn,
                                  attrs=("components_", "normalization_"), methods=("transform",)))
record("LabelEncoder", lambda: {"classes_": LabelEncoder().fit(ln).classes_,
                                "transform()": LabelEncoder().fit(ln).transform(ln)})

# -- scikit-learn metrics and pairwise kernels ------------------------------------------------
from sklearn import metrics  # noqa: E402
from sklearn.metrics import pairwise  # noqa: E402

for name in ("euclidean_distances", "rbf_kernel", "linear_kernel", "polynomial_kernel",
             "cosine_similarity", "sigmoid_kernel", "chi2_kernel"):
    f = getattr(pairwise, name)
    A = xp.abs(Xn) if name == "chi2_kernel" else Xn
    record(f"metrics.pairwise.{name}", lambda f=f, A=A: {"result": f(A)})
record("metrics.pairwise_distances", lambda: {"result": metrics.pairwise_distances(Xn)})
record("metrics.r2_score", lambda: {"result": metrics.r2_score(yn, yn * 0.9)})
record("metrics.mean_squared_error", lambda: {"result": metrics.mean_squared_error(yn, yn * 0.9)})
record("metrics.accuracy_score", lambda: {"result": metrics.accuracy_score(ln, ln)})
record("metrics.confusion_matrix", lambda: {"result": metrics.confusion_matrix(ln, ln)})
record("metrics.zero_one_loss", lambda: {"result": metrics.zero_one_loss(ln, ln)})

# -- SciPy (array-API capable per its docs; compiled paths are CPU-only there) ----------------
from scipy import cluster, fft, special, stats  # noqa: E402

P = xp.abs(Xn) + 0.5
record("special.logsumexp", lambda: {"result": special.logsumexp(Xn, axis=0)})
record("special.softmax", lambda: {"result": special.softmax(Xn, axis=1)})
record("special.log_softmax", lambda: {"result": special.log_softmax(Xn, axis=1)})
record("special.erf", lambda: {"result": special.erf(Xn)})
record("special.gammaln", lambda: {"result": special.gammaln(P)})
record("special.entr", lambda: {"result": special.entr(P)})
record("stats.zscore", lambda: {"result": stats.zscore(Xn, axis=0)})
record("stats.moment", lambda: {"result": stats.moment(Xn, order=3, axis=0)})
record("stats.skew", lambda: {"result": stats.skew(Xn, axis=0)})
record("stats.kurtosis", lambda: {"result": stats.kurtosis(Xn, axis=0)})
record("stats.variation", lambda: {"result": stats.variation(P, axis=0)})
record("stats.gmean", lambda: {"result": stats.gmean(P, axis=0)})
record("stats.describe", lambda: {"result": stats.describe(Xn, axis=0)})
record("stats.ttest_1samp", lambda: {"result": stats.ttest_1samp(Xn, 0.0, axis=0)})
record("stats.pearsonr", lambda: {"result": stats.pearsonr(Xn[:, 0], Xn[:, 1])})
record("fft.fft", lambda: {"result": fft.fft(Xn, axis=0)})
record("fft.rfft", lambda: {"result": fft.rfft(Xn, axis=0)})
record("fft.ifft", lambda: {"result": fft.ifft(fft.fft(Xn, axis=0), axis=0)})
record("fft.fftfreq", lambda: {"result": fft.fftfreq(8, xp=xp)})
record("fft.dct", lambda: {"result": fft.dct(Xn, axis=0)})
record("cluster.vq.whiten", lambda: {"result": cluster.vq.whiten(Xn)})
record("cluster.vq.vq", lambda: {"result": cluster.vq.vq(Xn, Xn[:3, :])})

print("NUMR-REPORT " + json.dumps(OUT))
