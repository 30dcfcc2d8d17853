"""svd / svdvals of real matrices on webgpu through the augmented matrix [[0, A], [A^T, 0]]
and the tridiagonal eigensolver (ops/linalg_spectral/svd_aug.py), against NumPy in
float64: singular values, reconstruction, orthogonality (never raw vector signs), the path
taken and its fallback to the Jacobi path where the pairs +-s mix."""

import numpy as np
import pytest

from numr_array_api import tuning

C = 10.0   # tolerances: C n eps ||A||


@pytest.fixture
def xp(wgpu_xp):
    from numr_array_api._core.config import host_conversion
    # the default threshold (64) would leave lavapipe-sized cases on the Jacobi path
    with tuning.override(SVD_AUG_MIN=32), host_conversion("allow"):
        yield wgpu_xp


@pytest.fixture
def calls():
    from numr_array_api.backends.webgpu.ops.linalg_spectral import svd_aug
    before = dict(svd_aug.CALLS)

    def delta():
        return {k: svd_aug.CALLS[k] - before[k] for k in before}
    return delta


def _host(x):
    return np.asarray(x.to_device("cpu"))


def _skip_f64(xp, dtype):
    if dtype == "float64" and not xp.__array_namespace_info__().capabilities().get(
            "float64", True):
        pytest.skip("no shader-f64")


def _orth(n, rng):
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.sign(np.diag(r))


def _check_svd(xp, an, full=False):
    """svd and svdvals of the host array ``an`` against NumPy; returns nothing, asserts."""
    dtype = an.dtype
    ref = an.astype(np.float64)
    M, N = an.shape[-2:]
    K = min(M, N)
    eps = float(np.finfo(np.float32 if dtype == np.float16 else dtype).eps)
    tol = C * max(M, N) * eps
    sref = np.linalg.svd(ref, compute_uv=False)
    scale = max(float(np.abs(sref).max()), 1e-30)
    x = xp.asarray(an)
    u, s, vh = (_host(y) for y in xp.linalg.svd(x, full_matrices=full))
    sv = _host(xp.linalg.svdvals(x))
    assert s.dtype == dtype and u.dtype == dtype and vh.dtype == dtype
    assert u.shape == an.shape[:-2] + ((M, M) if full else (M, K))
    assert vh.shape == an.shape[:-2] + ((N, N) if full else (K, N))
    for got in (s, sv):
        got = got.astype(np.float64)
        assert np.all(got >= 0) and np.all(np.diff(got, axis=-1) <= 0)
        assert np.abs(got - sref).max() <= tol * scale
    u64, vh64 = u.astype(np.float64), vh.astype(np.float64)
    rec = (u64[..., :, :K] * s.astype(np.float64)[..., None, :]) @ vh64[..., :K, :]
    assert np.abs(rec - ref).max() <= tol * scale
    eu = np.swapaxes(u64, -1, -2) @ u64 - np.eye(u.shape[-1])
    ev = vh64 @ np.swapaxes(vh64, -1, -2) - np.eye(vh.shape[-2])
    assert np.abs(eu).max() <= tol and np.abs(ev).max() <= tol


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(64, 64), (96, 40), (40, 96), (2, 3, 48, 48), (33, 200)])
def test_random_takes_the_path(xp, calls, dtype, shape):
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(hash(shape) % 2**32)
    _check_svd(xp, rng.standard_normal(shape).astype(dtype))
    d = calls()
    assert d["svd"] >= 2 and d["fallback"] == 0   # svd and svdvals, no fallback


def test_square_full_matrices_and_float16(xp, calls):
    rng = np.random.default_rng(3)
    _check_svd(xp, rng.standard_normal((50, 50)).astype("float64"), full=True)
    a = rng.standard_normal((40, 40)).astype("float16")
    x = xp.asarray(a)
    s = _host(xp.linalg.svdvals(x))
    assert s.dtype == np.float16
    sref = np.linalg.svd(a.astype(np.float64), compute_uv=False)
    assert np.abs(s.astype(np.float64) - sref).max() <= 2e-3 * sref.max()
    assert calls()["svd"] >= 3


def test_tall_full_matrices_keeps_jacobi(xp, calls):
    rng = np.random.default_rng(4)
    _check_svd(xp, rng.standard_normal((70, 40)).astype("float64"), full=True)
    assert calls()["svd"] == 1     # svdvals only; svd(full_matrices=True) of 70 x 40 not


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["rank", "ill", "rank1", "zeros"])
def test_degenerate_falls_back_and_matches(xp, calls, dtype, kind):
    """Numerically rank-deficient input: the +-s pairs near 0 mix, the check must send
    svd to the Jacobi path (and its answer must be right); svdvals stays on the path."""
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(5)
    n = 64
    if kind == "rank":
        a = rng.standard_normal((n, 20)) @ rng.standard_normal((20, n))
    elif kind == "ill":
        cond = 1e6 if dtype == "float32" else 1e12
        a = (_orth(n, rng) * np.logspace(0, -np.log10(cond), n)) @ _orth(n, rng)
    elif kind == "rank1":
        a = np.outer(rng.standard_normal(n), rng.standard_normal(n))
    else:
        a = np.zeros((n, n))
    _check_svd(xp, a.astype(dtype))
    d = calls()
    assert d["svd"] == 2 and d["fallback"] == 1


def test_threshold(xp, calls):
    rng = np.random.default_rng(6)
    a = xp.asarray(rng.standard_normal((40, 40)).astype("float32"))
    with tuning.override(SVD_AUG_MIN=41):
        xp.linalg.svd(a)
        xp.linalg.svdvals(a)
    assert calls()["svd"] == 0
    with tuning.override(SVD_AUG_MIN=40):
        xp.linalg.svdvals(a)
    assert calls()["svd"] == 1


def test_default_threshold(xp, calls):
    rng = np.random.default_rng(8)
    k = tuning.knobs()["SVD_AUG_MIN"].default
    with tuning.override(SVD_AUG_MIN=k):
        xp.linalg.svdvals(xp.asarray(rng.standard_normal((k - 1, k + 5)).astype("float32")))
        assert calls()["svd"] == 0
        xp.linalg.svdvals(xp.asarray(rng.standard_normal((k, k + 5)).astype("float32")))
        assert calls()["svd"] == 1


def test_nonfinite_gives_nan(xp):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((48, 48)).astype("float32")
    a[3, 4] = np.nan
    s = _host(xp.linalg.svdvals(xp.asarray(a)))
    assert np.isnan(s).any()
    u, s, vh = (_host(y) for y in xp.linalg.svd(xp.asarray(a)))
    assert np.isnan(s).any()


def test_batch_in_chunks_and_views(xp, calls, monkeypatch):
    """Stacks solved a few matrices per call (binding limits) and non-contiguous inputs
    (a transposed view, a strided slice) give the same answers."""
    from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag
    monkeypatch.setattr(tridiag, "batch_step", lambda *a: 2)
    rng = np.random.default_rng(9)
    a = rng.standard_normal((5, 40, 56)).astype("float32")
    _check_svd(xp, a)
    assert calls()["svd"] >= 6      # three chunks each for svd and svdvals
    _skip_f64(xp, "float64")
    x = xp.asarray(rng.standard_normal((2, 60, 40)).astype("float64"))
    for view in (xp.permute_dims(x, (0, 2, 1)), x[:, ::2, :]):
        s = _host(xp.linalg.svdvals(view))
        ref = np.linalg.svd(_host(view).astype(np.float64), compute_uv=False)
        assert np.abs(s - ref).max() <= C * 60 * np.finfo(np.float64).eps * ref.max()


@pytest.mark.parametrize("scale", [1e30, 1e-30, 1e20, 1e-20])
def test_extreme_scales_float32(xp, calls, scale):
    """Entries whose squares leave float32's range: the tridiagonal path normalises by a
    power of two first (scaled partial sums are not safe from NVIDIA's reassociation)."""
    rng = np.random.default_rng(10)
    a = (rng.standard_normal((64, 64)) * scale).astype("float32")
    _check_svd(xp, a)
    d = calls()
    assert d["svd"] >= 2 and d["fallback"] == 0
