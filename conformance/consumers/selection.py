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


# SciPy on the GPU: the test files whose counts compare numr's GPU namespaces with CuPy
# (docs/scipy-gpu.md): SciPy's special / ndimage / signal functions routed to numr
# (run.py --scipy-routes), the tests SciPy marks CPU-only included (--cpu-only-tests), every
# host copy an error (--host-conversion raise).
SCIPY_GPU_FILES = (
    ("special", "test_logsumexp"), ("special", "test_support_alternative_backends"),
    ("stats", "test_stats"), ("stats", "test_morestats"), ("stats", "test_variation"),
    ("stats", "test_entropy"), ("stats", "test_quantile"), ("stats", "test_rank"),
    ("stats", "test_correlation"),
    ("fft", "test_basic"), ("fft", "test_helper"), ("fft", "test_real_transforms"),
    ("fft", "test_fftlog"),
    ("_lib", "test_array_api"), ("_lib", "test__util"),
    ("cluster", "test_vq"), ("cluster", "test_hierarchy"),
    ("signal", "test_windows"), ("ndimage", "test_filters"),
)


def scipy_gpu_modules(files=None):
    """The dotted names of SCIPY_GPU_FILES in the installed SciPy (files move between
    releases: SciPy 1.18 has scipy/cluster/vq/tests/test_vq.py where 1.17 has
    scipy/cluster/tests/test_vq.py)."""
    root = _package_dir("scipy")
    out = []
    for package, name in (SCIPY_GPU_FILES if files is None else files):
        # the public package's file, not a private implementation's namesake
        # (scipy/fft/_pocketfft/tests/test_basic.py)
        found = sorted((root / package).rglob(f"tests/{name}.py"),
                       key=lambda f: (len(f.parts), str(f)))
        if not found:
            raise FileNotFoundError(f"scipy.{package}: no tests/{name}.py in {root}")
        out.append(".".join(("scipy",) + found[0].relative_to(root).with_suffix("").parts))
    return out


def scipy_gpu_selection():
    """pytest targets of the SciPy-on-the-GPU files."""
    return ["--pyargs", *scipy_gpu_modules(), "-m", "array_api_backends"]


# CI's share of SciPy on the GPU (run with --cpu-only-tests --scipy-routes --host-conversion
# raise on webgpu / lavapipe): the tests of SciPy's own files for the functions numr's webgpu
# kernels cover that are CPU-only in SciPy (so every host copy fails the test), a minute on
# 2 cores.
SCIPY_GPU_CI = ((("special", "test_support_alternative_backends"), ("ndimage", "test_filters"),
                 ("fft", "test_real_transforms")),
                "(test_support_alternative_backends and (erf or ndtr or gammaln)) "
                "or uniform_filter or gaussian_filter1d or test_correlate01 or sobel "
                "or (test_identity_1d and 10)")


def scipy_gpu_ci_selection():
    """pytest targets of CI's share of the SciPy-on-the-GPU files."""
    files, expr = SCIPY_GPU_CI
    return ["--pyargs", *scipy_gpu_modules(files), "-m", "array_api_backends", "-k", expr]
