"""Which tests of the consumers' suites run: the whole selection, and the CI subset."""

import importlib.util
from pathlib import Path

# SciPy subpackages whose tests are run with -m array_api_backends (those with array-API tests).
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


# The CI subset (2 cores, lavapipe, cold shader cache; see README.md "CI subset"):
# deterministic module lists, each module run whole with the suite's own selection. It keeps
# one module of each kind of consumer code, chosen by the time per module recorded in
# ../results/consumers-webgpu.md: scikit-learn's array-API helpers (test_array_api, 591
# tests), an estimator built on linalg (PCA: svd / eigh / qr), one on solvers (Ridge),
# preprocessing, indexing and extmath; SciPy's array-API helpers (_lib), special's
# logsumexp / softmax and fft's helpers. The whole suites (every module of both, all SciPy subpackages) run on the
# GPU machine and from ``run.py`` without --subset; their results are in
# ../results/consumers-*.md.
CI_SKLEARN = (
    "sklearn.utils.tests.test_array_api", "sklearn.decomposition.tests.test_pca",
    "sklearn.linear_model.tests.test_ridge", "sklearn.preprocessing.tests.test_data",
    "sklearn.utils.tests.test_indexing", "sklearn.utils.tests.test_extmath",
)
CI_SCIPY = ("scipy._lib", "scipy.special.tests.test_logsumexp", "scipy.fft.tests.test_helper")


def ci_selection(suite):
    """pytest targets of the CI subset."""
    if suite == "sklearn":
        installed = set(sklearn_modules())
        return ["--pyargs", *[m for m in CI_SKLEARN if m in installed], "-k", "array_api"]
    return ["--pyargs", *CI_SCIPY, "-m", "array_api_backends"]
