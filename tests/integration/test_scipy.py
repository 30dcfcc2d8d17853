"""Array-agnostic SciPy functions on numr arrays (checks run in a subprocess with
SCIPY_ARRAY_API=1; see conftest.py)."""

import pytest

CHECKS = ["logsumexp", "softmax", "zscore", "moment", "skew_kurtosis", "scipy_fft",
          "fftconvolve"]


@pytest.mark.parametrize("name", CHECKS)
def test_scipy_function(scipy_report, name):
    r = scipy_report[name]
    assert r["ok"], r["detail"]
