"""Which tests of the consumers' suites run: the whole selection, and the CI subset."""

import importlib.util
from pathlib import Path

# SciPy subpackages whose tests are run with -m array_api_backends (issue 13's list).
SCIPY_MODULES = ("special", "stats", "fft", "_lib", "cluster", "signal", "ndimage")


def _package_dir(name):
    spec = importlib.util.find_spec(name)
    return Path(spec.origin).parent


def sklearn_modules(exclude=()):
    """The installed scikit-learn's test modules that take part in its array-API testing:
    every test file that mentions ``array_api`` or the namespace generators, plus
    sklearn/tests/test_common.py (its estimator checks carry check_array_api_* ids).
    Sorted, so the selection is deterministic for one scikit-learn version."""
    root = _package_dir("sklearn")
    mods = set()
    for f in root.rglob("test_*.py"):
        text = f.read_text(encoding="utf-8", errors="replace")
        if "array_api" in text or "yield_namespace" in text:
            mods.add(f)
    mods.add(root / "tests" / "test_common.py")
    names = sorted(".".join(("sklearn",) + f.relative_to(root).with_suffix("").parts)
                   for f in mods)
    return [n for n in names if n not in exclude]


# The CI subset (2 cores, lavapipe; see README.md "CI subset"). Deterministic: module lists,
# each run whole with the suite's own selection.
#
# scikit-learn: every array-API test module but test_logistic (LogisticRegression's lbfgs
# iterations: ~170 s per namespace on lavapipe, the same code paths as Ridge / LDA / GMM
# otherwise covered). SciPy: the subpackages and modules below (~1 in 10 of SciPy's array-API
# tests): cluster (kmeans / vq / hierarchy, indexing-heavy), fft but its DCT / DST module
# (test_real_transforms: 6112 tests, ~61 s per namespace on lavapipe with its baseline, the
# same fft kernels as test_basic; CI's 40 minutes ran short), _lib (the array-API helpers
# every SciPy function goes through), special's logsumexp / softmax. The whole suites run
# with `run.py` without --subset (results/consumers-*.md).
CI_SKLEARN_EXCLUDE = ("sklearn.linear_model.tests.test_logistic",)
CI_SCIPY = ("scipy.cluster", "scipy.fft.tests.test_basic", "scipy.fft.tests.test_helper",
            "scipy.fft.tests.test_fftlog", "scipy._lib",
            "scipy.special.tests.test_logsumexp")


def ci_selection(suite):
    """pytest targets of the CI subset."""
    if suite == "sklearn":
        return ["--pyargs", *sklearn_modules(CI_SKLEARN_EXCLUDE), "-k", "array_api"]
    return ["--pyargs", *CI_SCIPY, "-m", "array_api_backends"]
