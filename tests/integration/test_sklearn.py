"""scikit-learn with array_api_dispatch=True on numr arrays (checks run in a subprocess with
SCIPY_ARRAY_API=1; see conftest.py)."""

import pytest

CHECKS = ["pca", "ridge_svd", "lda", "standard_scaler", "set_config_global"]


@pytest.mark.parametrize("name", CHECKS)
def test_sklearn_estimator(sklearn_report, name):
    r = sklearn_report[name]
    assert r["ok"], r["detail"]
