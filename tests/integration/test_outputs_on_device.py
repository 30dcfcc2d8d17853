"""Outputs stay on the device: scikit-learn's and SciPy's array-API-capable
estimators and functions, fed numr arrays, return arrays of the input's namespace and device.

The calls (and every fitted attribute / result checked) are in _device_checks.py, run in a
fresh interpreter with SCIPY_ARRAY_API=1 and NUMR_HOST_CONVERSION=warn. Named list
(scikit-learn 1.9.1: the estimators whose tags declare array_api_support, less the
search / ensemble wrappers and LogisticRegression / PoissonRegressor (slow on lavapipe;
covered by the consumers' suites); SciPy 1.17.1):

- scikit-learn estimators: PCA, Ridge(solver="svd"), RidgeCV, LinearDiscriminantAnalysis,
  GaussianNB, StandardScaler, MinMaxScaler, Normalizer, Binarizer, PolynomialFeatures,
  KernelCenterer, Nystroem, LabelEncoder (fitted attributes and transform / predict outputs).
  KMeans is not array-API-capable in 1.9.1 (no array_api_support tag): not listed.
- scikit-learn metrics: pairwise euclidean_distances, rbf / linear / polynomial / sigmoid /
  chi2 kernels, cosine_similarity, pairwise_distances, confusion_matrix.
- SciPy: special logsumexp / softmax / log_softmax / erf / gammaln / entr; stats zscore /
  moment / skew / kurtosis / variation / gmean / describe / ttest_1samp / pearsonr; fft fft /
  rfft / ifft / fftfreq / dct; cluster.vq whiten / vq.

Where the consumer itself leaves the device:

- SCALAR_RESULTS: scikit-learn's score metrics return a Python float by design
  (``float(...)`` of a 0-d array): r2_score, mean_squared_error, accuracy_score, zero_one_loss.
- HOST_ROUND_TRIPS: SciPy runs a compiled (NumPy-only) kernel: it converts the input with
  ``np.asarray`` and the result back with ``xp.asarray(..., device=...)``, so the result is on
  the device but the data went through host memory (numr's HostConversionWarning on a GPU
  namespace): special erf / gammaln / entr (ufuncs; SciPy delegates only to CuPy / PyTorch /
  JAX), stats ttest_1samp / pearsonr (the p-value through special's distribution functions),
  fft.dct (pocketfft), cluster.vq.vq (its C kernel). On cpu the same conversion is zero-copy
  and not warned about.
"""

import pytest

SCALAR_RESULTS = {"metrics.r2_score", "metrics.mean_squared_error", "metrics.accuracy_score",
                  "metrics.zero_one_loss"}
HOST_ROUND_TRIPS = {"special.erf", "special.gammaln", "special.entr", "stats.ttest_1samp",
                    "stats.pearsonr", "fft.dct", "cluster.vq.vq"}
EXPECTED = [
    "PCA", "Ridge(solver='svd')", "RidgeCV", "LinearDiscriminantAnalysis", "GaussianNB",
    "StandardScaler", "MinMaxScaler", "Normalizer", "Binarizer", "PolynomialFeatures",
    "KernelCenterer", "Nystroem", "LabelEncoder",
    "metrics.pairwise.euclidean_distances", "metrics.pairwise.rbf_kernel",
    "metrics.pairwise.linear_kernel", "metrics.pairwise.polynomial_kernel",
    "metrics.pairwise.cosine_similarity", "metrics.pairwise.sigmoid_kernel",
    "metrics.pairwise.chi2_kernel", "metrics.pairwise_distances", "metrics.confusion_matrix",
    *sorted(SCALAR_RESULTS),
    "special.logsumexp", "special.softmax", "special.log_softmax", "special.erf",
    "special.gammaln", "special.entr", "stats.zscore", "stats.moment", "stats.skew",
    "stats.kurtosis", "stats.variation", "stats.gmean", "stats.describe", "stats.ttest_1samp",
    "stats.pearsonr", "fft.fft", "fft.rfft", "fft.ifft", "fft.fftfreq", "fft.dct",
    "cluster.vq.whiten", "cluster.vq.vq",
]


@pytest.fixture(scope="module")
def report(device_report):
    return device_report


def _leaves(desc):
    if desc.get("kind") == "tuple":
        for d in desc["items"]:
            yield from _leaves(d)
    else:
        yield desc


@pytest.mark.parametrize("name", EXPECTED)
def test_outputs_on_input_device(report, name, xp):
    r = report[name]
    assert r["ok"], r.get("error", "") + "\n" + r.get("trace", "")
    for attr, desc in r["outputs"].items():
        if name in SCALAR_RESULTS:
            assert desc["type"] == "builtins.float", (attr, desc)
            continue
        arrays = [d for d in _leaves(desc) if "namespace" in d]
        assert arrays, f"{name}.{attr}: no array among {desc}"
        for d in arrays:
            assert d["on_input_device"], (
                f"{name}.{attr}: {d['type']} of {d.get('namespace')} on {d.get('device')}, "
                f"not {xp.__name__} on the input's device")


def test_host_round_trips_are_the_listed_ones(report, backend_name):
    """On webgpu, exactly the HOST_ROUND_TRIPS functions go through host memory (so the list
    in this module's docstring stays true)."""
    if backend_name != "webgpu":
        pytest.skip("conversions are zero-copy and unwarned on cpu; cuda not characterised here")
    seen = {name for name, r in report.items() if r.get("ok") and r.get("host_conversions")}
    assert seen == HOST_ROUND_TRIPS, {"unlisted": sorted(seen - HOST_ROUND_TRIPS),
                                      "no longer converting": sorted(HOST_ROUND_TRIPS - seen)}
