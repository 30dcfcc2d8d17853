"""eigh / eigvalsh / svd / svdvals / pinv / matrix_rank on webgpu (Jacobi kernels) against
NumPy in float64. Signs of vectors are arbitrary: reconstructions, orthogonality and
|dot products| are compared, never raw vectors. Longer sizes need NUMR_TEST_SLOW=1."""

import contextlib
import os
import warnings

import numpy as np
import pytest

from numr_array_api._core.errors import BackendLimitation

SLOW = os.environ.get("NUMR_TEST_SLOW") == "1"
SIZES = [1, 2, 7, 32, 33, 64, 100] + ([128, 200] if SLOW else [])
DTYPES = ["float32", "float64"]
CDTYPES = ["complex64", "complex128"]


@pytest.fixture
def xp(wgpu_xp):
    from numr_array_api._core.config import host_conversion
    with host_conversion("allow"):
        yield wgpu_xp


@pytest.fixture(autouse=True)
def f32_kernels():
    """float32 / complex64 run the 32-bit kernels here (by default they compute in float64
    where the adapter grants shader-f64: test_f32_computed_in_f64 covers that)."""
    from numr_array_api import tuning
    with tuning.override(SPECTRAL_F32="f32"):
        yield


def _lavapipe_loop_guard(xp, e):
    """Whether ``e`` is the CPU adapters' loop guard (lavapipe stops a loop after 65535
    iterations, so the kernels refuse sizes that could reach it): the one refusal expected."""
    from numr_array_api.backends.webgpu.runtime.adapters import is_cpu
    client = xp._backend._client(xp.__array_namespace_info__().default_device())
    return is_cpu(client.info) and "lavapipe stops loops beyond 65535" in str(e)


@contextlib.contextmanager
def _slow_sizes_may_be_refused(xp):
    """lavapipe's loop guard refuses the largest sizes, which only NUMR_TEST_SLOW runs; any
    other refusal, or one on a GPU adapter, fails."""
    try:
        yield
    except BackendLimitation as e:
        if not (SLOW and _lavapipe_loop_guard(xp, e)):
            raise
        pytest.skip(str(e))


def _eps(dtype):
    return float(np.finfo(dtype).eps)


def _n2(x):
    return np.linalg.norm(x, 2, axis=(-2, -1)) if x.size else np.zeros(x.shape[:-2])


def _host(x):
    return np.asarray(x.to_device("cpu")) if hasattr(x, "to_device") else np.asarray(x)


def _H(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _rand(rng, shape, dtype):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _sym(rng, shape, dtype):
    a = _rand(rng, shape, dtype)
    return ((a + _H(a)) / 2).astype(dtype)


def _real(dtype):
    return np.finfo(np.dtype(dtype)).dtype


def _check_eigh(a, w, v, dtype, c=10):
    a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    n = a.shape[-1]
    eps = _eps(dtype)
    scale = np.maximum(_n2(a64), np.finfo(dtype).tiny)
    wr = np.linalg.eigvalsh(a64)
    assert w.dtype == _real(a.dtype) and w.shape == a.shape[:-1]
    assert np.all(np.diff(w, axis=-1) >= 0), "eigenvalues not ascending"
    assert np.max(np.abs(w - wr) / scale[..., None]) <= c * n * eps
    if v is not None:
        assert v.dtype == a.dtype and v.shape == a.shape
        v64 = v.astype(a64.dtype)
        rec = _n2(a64 - (v64 * w[..., None, :]) @ _H(v64)) / scale
        assert rec.max() <= c * n * eps
        orth = _n2(_H(v64) @ v64 - np.eye(n))
        assert orth.max() <= c * n * eps


@pytest.mark.parametrize("dtype", DTYPES + CDTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_eigh_random(xp, dtype, n):
    if dtype in CDTYPES and n > 40 and not SLOW:
        pytest.skip("complex beyond 40: NUMR_TEST_SLOW=1")
    rng = np.random.default_rng(n)
    a = _sym(rng, (3, n, n) if n <= 33 else (n, n), dtype)
    with _slow_sizes_may_be_refused(xp):
        w, v = xp.linalg.eigh(xp.asarray(a))
    _check_eigh(a, _host(w), _host(v), dtype)
    wv = _host(xp.linalg.eigvalsh(xp.asarray(a)))
    _check_eigh(a, wv, None, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_repeated_and_rank_deficient(xp, dtype):
    rng = np.random.default_rng(1)
    q, _ = np.linalg.qr(rng.standard_normal((9, 9)))
    d = np.array([1, 1, 1, 2, 2, -3, -3, 0, 0], float)
    a = np.stack([(q * d) @ q.T, 3 * np.eye(9), np.ones((9, 9)), np.zeros((9, 9))])
    a = ((a + np.swapaxes(a, -1, -2)) / 2).astype(dtype)
    w, v = xp.linalg.eigh(xp.asarray(a))
    _check_eigh(a, _host(w), _host(v), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh_ill_conditioned_and_scaled(xp, dtype):
    rng = np.random.default_rng(2)
    cond = 1e6 if dtype == "float32" else 1e12
    q, _ = np.linalg.qr(rng.standard_normal((20, 20)))
    d = np.logspace(0, -np.log10(cond), 20) * np.where(np.arange(20) % 2, 1, -1)
    a = (q * d) @ q.T
    big = 1e30 if dtype == "float32" else 1e200
    a = np.stack([a, a * big, a / big])
    a = ((a + np.swapaxes(a, -1, -2)) / 2).astype(dtype)
    w, v = xp.linalg.eigh(xp.asarray(a))
    _check_eigh(a, _host(w), _host(v), dtype)


def test_eigh_batched_small_many(xp):
    rng = np.random.default_rng(3)
    a = _sym(rng, (5, 40, 8, 8), "float32")   # 200 matrices in one dispatch
    w, v = xp.linalg.eigh(xp.asarray(a))
    _check_eigh(a, _host(w), _host(v), "float32")


def test_eigh_strided_view_and_float16(xp):
    rng = np.random.default_rng(4)
    a = _sym(rng, (6, 6), "float32")
    big = np.zeros((12, 12), np.float32)
    big[::2, ::2] = a
    x = xp.asarray(big)[::2, ::2]
    w, v = xp.linalg.eigh(x)
    _check_eigh(a, _host(w), _host(v), "float32")
    h = a.astype(np.float16)
    wh = _host(xp.linalg.eigvalsh(xp.asarray(h)))
    assert wh.dtype == np.float16
    np.testing.assert_allclose(wh.astype(np.float64),
                               np.linalg.eigvalsh(h.astype(np.float64)), atol=2e-2)


def _check_svd(a, u, s, vh, dtype, full, c=10):
    a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    M, N = a.shape[-2:]
    K = min(M, N)
    n = max(M, N, 1)
    eps = _eps(dtype)
    scale = np.maximum(_n2(a64), np.finfo(dtype).tiny)
    sr = np.linalg.svd(a64, compute_uv=False)
    assert s.dtype == _real(a.dtype) and s.shape == a.shape[:-2] + (K,)
    assert np.all(np.diff(s, axis=-1) <= 0), "singular values not descending"
    if K:
        assert np.max(np.abs(s - sr) / scale[..., None]) <= c * n * eps
    if u is None:
        return
    assert u.shape == a.shape[:-2] + ((M, M) if full else (M, K))
    assert vh.shape == a.shape[:-2] + ((N, N) if full else (K, N))
    assert u.dtype == a.dtype and vh.dtype == a.dtype
    u64, vh64 = u.astype(a64.dtype), vh.astype(a64.dtype)
    rec = _n2(a64 - (u64[..., :, :K] * s[..., None, :]) @ vh64[..., :K, :]) / scale
    assert rec.max(initial=0) <= c * n * eps
    assert _n2(_H(u64) @ u64 - np.eye(u.shape[-1])).max(initial=0) <= c * n * eps
    assert _n2(vh64 @ _H(vh64) - np.eye(vh.shape[-2])).max(initial=0) \
        <= c * n * eps


SHAPES = [(1, 1), (2, 2), (7, 3), (3, 7), (32, 32), (33, 20), (20, 33), (64, 64), (100, 100),
          (100, 7), (1, 9)] + ([(200, 150), (128, 128)] if SLOW else [])


@pytest.mark.parametrize("dtype", DTYPES + CDTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_svd_random(xp, dtype, shape):
    if dtype in CDTYPES and max(shape) > 40 and not SLOW:
        pytest.skip("complex beyond 40: NUMR_TEST_SLOW=1")
    rng = np.random.default_rng(sum(shape))
    batch = (2,) if max(shape) <= 33 else ()
    a = _rand(rng, batch + shape, dtype)
    for full in (False, True):
        with _slow_sizes_may_be_refused(xp):
            u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=full)
        _check_svd(a, _host(u), _host(s), _host(vh), dtype, full)
    sv = _host(xp.linalg.svdvals(xp.asarray(a)))
    # svdvals may take another path than svd (less workgroup memory without vectors)
    np.testing.assert_allclose(sv, _host(s), rtol=0, atol=10 * max(shape) * _eps(dtype) *
                               _n2(a.astype(np.complex128)).max())


@pytest.mark.parametrize("dtype", DTYPES + CDTYPES)
@pytest.mark.parametrize("shape", [(9, 6), (6, 9), (8, 8)] + ([(70, 10)] if SLOW else []))
def test_svd_rank_deficient(xp, dtype, shape):
    rng = np.random.default_rng(5)
    M, N = shape
    r = 3
    a = (_rand(rng, (M, r), "complex128" if dtype in CDTYPES else "float64") @
         rng.standard_normal((r, N))).astype(dtype)
    z = np.zeros(shape, dtype)
    one = np.zeros(shape, dtype)
    one[0, 0] = 1
    a = np.stack([a, z, one])
    for full in (False, True):
        u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=full)
        _check_svd(a, _host(u), _host(s), _host(vh), dtype, full)
    rank = _host(xp.linalg.matrix_rank(xp.asarray(a)))
    np.testing.assert_array_equal(rank, np.linalg.matrix_rank(a))


@pytest.mark.parametrize("dtype", DTYPES)
def test_svd_ill_conditioned(xp, dtype):
    rng = np.random.default_rng(6)
    cond = 1e6 if dtype == "float32" else 1e12
    q1, _ = np.linalg.qr(rng.standard_normal((30, 30)))
    q2, _ = np.linalg.qr(rng.standard_normal((20, 20)))
    d = np.logspace(0, -np.log10(cond), 20)
    a = q1[:, :20] * d @ q2.T
    big = 1e30 if dtype == "float32" else 1e250
    a = np.stack([a, a * big, a / big]).astype(dtype)
    u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=False)
    _check_svd(a, _host(u), _host(s), _host(vh), dtype, False)


def test_svd_empty_and_degenerate(xp):
    for shape in [(0, 0), (0, 3), (2, 0), (3, 0, 4), (0, 2, 2)]:
        a = np.zeros(shape, np.float32)
        for full in (True, False):
            u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=full)
            ur, sr, vr = np.linalg.svd(a, full_matrices=full)
            assert _host(u).shape == ur.shape and _host(s).shape == sr.shape
            assert _host(vh).shape == vr.shape
            if full:
                np.testing.assert_array_equal(_host(u), ur)
                np.testing.assert_array_equal(_host(vh), vr)
        assert _host(xp.linalg.svdvals(xp.asarray(a))).shape == a.shape[:-2] + (min(shape[-2:]),)
        assert _host(xp.linalg.pinv(xp.asarray(a))).shape == a.shape[:-2] + shape[-2:][::-1]
        np.testing.assert_array_equal(_host(xp.linalg.matrix_rank(xp.asarray(a))),
                                      np.zeros(a.shape[:-2], np.int64))
    for n in (0,):
        w, v = xp.linalg.eigh(xp.asarray(np.zeros((2, n, n), np.float32)))
        assert _host(w).shape == (2, 0) and _host(v).shape == (2, 0, 0)


@pytest.mark.parametrize("dtype", DTYPES + CDTYPES)
@pytest.mark.parametrize("shape", [(5, 5), (7, 4), (4, 7), (2, 3, 6, 6)] +
                         ([(40, 30)] if SLOW else []))
def test_pinv(xp, dtype, shape):
    rng = np.random.default_rng(7)
    a = _rand(rng, shape, dtype)
    if shape[-1] > 2:
        a[..., -1] = 0                    # rank deficient: the cut matters
    p = _host(xp.linalg.pinv(xp.asarray(a)))
    pr = np.linalg.pinv(a.astype(np.complex128 if dtype in CDTYPES else np.float64))
    assert p.dtype == a.dtype and p.shape == pr.shape
    tol = 200 * max(shape[-2:]) * _eps(dtype) * max(1.0, np.abs(pr).max())
    np.testing.assert_allclose(p, pr, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_rank_rtol(xp, dtype):
    rng = np.random.default_rng(8)
    s = np.array([1, 1e-2, 1e-4, 0.0])
    q1, _ = np.linalg.qr(rng.standard_normal((4, 4)))
    q2, _ = np.linalg.qr(rng.standard_normal((4, 4)))
    a = np.stack([(q1 * s) @ q2.T] * 3).astype(dtype)
    for rtol in (None, 1e-3, 1e-1, 0.5):
        r = _host(xp.linalg.matrix_rank(xp.asarray(a), rtol=rtol))
        ref = np.linalg.matrix_rank(a, rtol=rtol)
        np.testing.assert_array_equal(r, ref)
    rt = np.array([1e-5, 1e-3, 1e-1], dtype)
    r = _host(xp.linalg.matrix_rank(xp.asarray(a), rtol=xp.asarray(rt)))
    np.testing.assert_array_equal(r, [3, 2, 1])
    p = _host(xp.linalg.pinv(xp.asarray(a), rtol=xp.asarray(rt)))
    pr = np.linalg.pinv(a.astype(np.float64), rtol=rt)
    # kept singular values span 1e4: the inverse amplifies their rounding that much
    np.testing.assert_allclose(p, pr, atol=10 * 1e4 * _eps(dtype) * np.abs(pr).max())


def test_no_host_fallback(xp):
    from numr_array_api.backends.webgpu.ops.host_fallback import HostFallbackWarning
    rng = np.random.default_rng(9)
    for dtype in DTYPES + CDTYPES + ["float16"]:
        a = xp.asarray(_sym(rng, (2, 5, 5), dtype))
        b = xp.asarray(_rand(rng, (2, 5, 3), dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("error", HostFallbackWarning)
            xp.linalg.eigh(a)
            xp.linalg.eigvalsh(a)
            xp.linalg.svd(b)
            xp.linalg.svd(b, full_matrices=False)
            xp.linalg.svdvals(b)
            xp.linalg.pinv(b)
            xp.linalg.matrix_rank(b)
            xp.linalg.eig(a)
            xp.linalg.eigvals(b[..., :3, :])


def test_svdvals_export_for_other_linalg_code(xp):
    from numr_array_api.backends.webgpu.ops.linalg_spectral import svdvals
    rng = np.random.default_rng(10)
    a = rng.standard_normal((3, 6, 4)).astype("float32")
    s = svdvals(None, xp.asarray(a)._data).to_numpy()
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-5, atol=1e-5)


@pytest.mark.skipif(not SLOW, reason="NUMR_TEST_SLOW=1")
def test_lavapipe_guard_refuses_rather_than_truncates(xp):
    a = np.random.default_rng(11).standard_normal((400, 400)).astype("float32")
    try:
        s = _host(xp.linalg.svdvals(xp.asarray(a)))
    except BackendLimitation as e:
        assert _lavapipe_loop_guard(xp, e), e  # the guard, on a CPU adapter only
        return
    np.testing.assert_allclose(s, np.linalg.svd(a.astype(np.float64), compute_uv=False),
                               atol=400 * 10 * _eps("float32") * np.linalg.norm(a, 2))


_SKLEARN = r'''
import warnings, numpy as np, sklearn
import numr_array_api.webgpu as xp
from numr_array_api.backends.webgpu.ops.host_fallback import HostFallbackWarning
warnings.filterwarnings("error", message=r".*linalg.*", category=HostFallbackWarning)
from sklearn.decomposition import PCA
from sklearn.linear_model import Ridge
rng = np.random.default_rng(0)
X = rng.standard_normal((200, 12)) @ rng.standard_normal((12, 12)) + rng.standard_normal(12)
y = X @ rng.standard_normal(12) + 0.1 * rng.standard_normal(200)
h = lambda a: np.asarray(a.to_device("cpu"))
for dtype, tol in ((np.float64, 1e-9), (np.float32, 2e-4)):
    Xd, yd = X.astype(dtype), y.astype(dtype)
    ref = PCA(n_components=5, svd_solver="full").fit(Xd)
    r = Ridge(alpha=0.5, solver="svd").fit(Xd, yd)
    with sklearn.config_context(array_api_dispatch=True):
        est = PCA(n_components=5, svd_solver="full").fit(xp.asarray(Xd))
        t = est.transform(xp.asarray(Xd))
        e = Ridge(alpha=0.5, solver="svd").fit(xp.asarray(Xd), xp.asarray(yd))
        p = e.predict(xp.asarray(Xd))
    scale = np.abs(ref.transform(Xd)).max()
    for attr in ("components_", "explained_variance_", "singular_values_"):
        want = getattr(ref, attr)
        np.testing.assert_allclose(h(getattr(est, attr)), want, rtol=tol,
                                   atol=tol * np.abs(want).max(), err_msg=attr)
    np.testing.assert_allclose(h(t), ref.transform(Xd), atol=tol * scale)
    np.testing.assert_allclose(h(e.coef_), r.coef_, rtol=tol, atol=tol * np.abs(r.coef_).max())
    np.testing.assert_allclose(h(p), r.predict(Xd), atol=tol * np.abs(yd).max())
print("SKLEARN-OK")
'''


def test_sklearn_pca_and_ridge_svd_without_linalg_host_fallback(wgpu_xp):
    """PCA(svd_solver="full") and Ridge(solver="svd") on webgpu arrays (array_api_dispatch)
    match NumPy's fit, and no linalg function warns HostFallbackWarning (made an error)."""
    pytest.importorskip("sklearn")
    import subprocess
    import sys
    from pathlib import Path
    env = dict(os.environ, SCIPY_ARRAY_API="1", NUMR_HOST_CONVERSION="allow",
               PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[2])] +
                                          [p for p in [os.environ.get("PYTHONPATH")] if p]))
    proc = subprocess.run([sys.executable, "-c", _SKLEARN], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0 and "SKLEARN-OK" in proc.stdout, proc.stderr[-3000:]


def _check_eig(a, w, v, dtype, c=10):
    from scipy.optimize import linear_sum_assignment
    ct = np.result_type(dtype, np.complex64)
    a128 = a.astype(np.complex128)
    n = a.shape[-1]
    eps = _eps(dtype)
    assert w.dtype == ct and w.shape == a.shape[:-1]
    scale = np.maximum(_n2(a128), np.finfo(dtype).tiny)
    wr = np.linalg.eigvals(a128)
    for idx in np.ndindex(a.shape[:-2]):
        d = np.abs(w[idx][:, None] - wr[idx][None, :])
        r, col = linear_sum_assignment(d)
        # eigenvalues of a non-normal matrix are as accurate as their condition allows
        assert d[r, col].max() <= 1e3 * n * eps * scale[idx] + 1e-30, (idx, d[r, col].max())
    if v is not None:
        assert v.dtype == ct and v.shape == a.shape
        v128 = v.astype(np.complex128)
        res = _n2(a128 @ v128 - v128 * w[..., None, :]) / scale
        assert res.max(initial=0) <= c * n * eps
        np.testing.assert_allclose(np.linalg.norm(v128, axis=-2), 1, atol=c * n * eps)


@pytest.mark.parametrize("dtype", DTYPES + CDTYPES)
@pytest.mark.parametrize("n", [1, 2, 3, 7, 16, 33, 64] + ([100] if SLOW else []))
def test_eig_random(xp, dtype, n):
    if dtype in CDTYPES and n > 40 and not SLOW:
        pytest.skip("complex beyond 40: NUMR_TEST_SLOW=1")
    rng = np.random.default_rng(20 + n)
    a = _rand(rng, (3, n, n) if n <= 16 else (n, n), dtype)
    with _slow_sizes_may_be_refused(xp):
        w, v = xp.linalg.eig(xp.asarray(a))
    w, v = _host(w), _host(v)
    _check_eig(a, w, v, dtype)
    np.testing.assert_array_equal(_host(xp.linalg.eigvals(xp.asarray(a))), w)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eig_structured(xp, dtype):
    rot = np.array([[0, 1], [-1, 0.]])
    cases = [np.eye(4), np.zeros((4, 4)), np.triu(np.ones((4, 4))),
             3 * np.eye(4) + np.diag([1.0] * 3, 1),
             np.block([[rot, np.zeros((2, 2))], [np.zeros((2, 2)), 2 * rot]]),
             np.diag([1e6, 1, 1e-6, 0.0])]
    for a in cases:
        a = a.astype(dtype)
        w, v = xp.linalg.eig(xp.asarray(a))
        w, v = _host(w), _host(v)
        n = a.shape[-1]
        a128 = a.astype(np.complex128)
        scale = max(_n2(a128), 1.0)
        assert _n2(a128 @ v - v * w[None, :]) <= 10 * n * _eps(dtype) * scale
        np.testing.assert_allclose(np.sort_complex(np.round(w, 3)),
                                   np.sort_complex(np.round(np.linalg.eigvals(a128), 3)),
                                   atol=1e-3 * scale)


def test_eig_empty_and_float16(xp):
    w, v = xp.linalg.eig(xp.asarray(np.zeros((2, 0, 0), np.float32)))
    assert _host(w).shape == (2, 0) and _host(v).shape == (2, 0, 0)
    assert _host(w).dtype == np.complex64
    w = _host(xp.linalg.eigvals(xp.asarray(np.zeros((0, 3, 3)))))
    assert w.shape == (0, 3) and w.dtype == np.complex128
    h = np.array([[2, 1], [0, 3]], np.float16)
    w = _host(xp.linalg.eigvals(xp.asarray(h)))
    assert w.dtype == np.complex64
    np.testing.assert_allclose(np.sort_complex(w), [2, 3], atol=1e-5)


@pytest.fixture(params=[True], ids=["rounds"])
def rounds(request):
    """Force the dispatch-per-round path (GPUs take it beyond workgroup memory; lavapipe
    only where the one-workgroup kernel's loops would not fit)."""
    from numr_array_api.backends.webgpu.ops.linalg_spectral import mixin
    old, mixin.ROUNDS = mixin.ROUNDS, request.param
    yield
    mixin.ROUNDS = old


@pytest.mark.parametrize("dtype", DTYPES + CDTYPES)
def test_round_path_eigh(xp, rounds, dtype):
    rng = np.random.default_rng(30)
    a = _sym(rng, (2, 9, 9), dtype)
    q, _ = np.linalg.qr(_rand(rng, (12, 12), dtype))
    d = np.array([1, 1, 1, 2, 2, -3, -3, 0, 0, 1e-4, -1e-4, 5.0])
    b = np.stack([(q * d) @ _H(q), np.zeros((12, 12)), 3 * np.eye(12)]).astype(dtype)
    for m in (a, b, _sym(rng, (40, 40), dtype)):
        w, v = xp.linalg.eigh(xp.asarray(m))
        _check_eigh(m, _host(w), _host(v), dtype)
        _check_eigh(m, _host(xp.linalg.eigvalsh(xp.asarray(m))), None, dtype)


@pytest.mark.parametrize("dtype", DTYPES + CDTYPES)
@pytest.mark.parametrize("shape", [(9, 5), (5, 9), (1, 3), (40, 40)])
def test_round_path_svd(xp, rounds, dtype, shape):
    rng = np.random.default_rng(31)
    a = _rand(rng, (2,) + shape, dtype)
    a[1] = 0
    if min(shape) > 2:
        a[1, :, :2] = _rand(rng, shape[:1] + (2,), dtype)      # rank 2
    for full in (False, True):
        u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=full)
        _check_svd(a, _host(u), _host(s), _host(vh), dtype, full)
    _check_svd(a, None, _host(xp.linalg.svdvals(xp.asarray(a))), None, dtype, False)
    big = (1e30 if dtype in ("float32", "complex64") else 1e200)
    u, s, vh = xp.linalg.svd(xp.asarray(a * big), full_matrices=False)
    _check_svd(a * big, _host(u), _host(s), _host(vh), dtype, False)


def test_stacks_beyond_one_binding_and_grid(xp, small_limits):
    """Stacks split into binding-sized pieces (256 KiB here), and more matrices than one
    dispatch has workgroups in x (grid-strided)."""
    rng = np.random.default_rng(40)
    a = _sym(rng, (1500, 8, 8), "float32")            # 375 KiB
    b = _rand(rng, (1500, 6, 8), "float32")
    with small_limits(binding=256 << 10):
        w, v = xp.linalg.eigh(xp.asarray(a))
        u, s, vh = xp.linalg.svd(xp.asarray(b), full_matrices=False)
        e = xp.linalg.eigvals(xp.asarray(a))
    _check_eigh(a, _host(w), _host(v), "float32")
    _check_svd(b, _host(u), _host(s), _host(vh), "float32", False)
    _check_eig(a, _host(e), None, "float32")
    c = _sym(rng, (70000, 2, 2), "float32")
    _check_eigh(c, _host(xp.linalg.eigvalsh(xp.asarray(c))), None, "float32")


@pytest.mark.parametrize("path", [None, True], ids=["default", "rounds"])
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_svd_negligible_columns_completed(xp, path, dtype):
    """Singular values below R eps s_max: their U columns are rounding residues on GPUs that
    flush subnormals (NVIDIA), so they are re-orthogonalised (their own direction kept where
    it survives, else a unit vector's), the basis stays orthonormal. A column 1e-9 inside
    the span and one 1e-9 outside it, on both kernel paths."""
    from numr_array_api.backends.webgpu.ops.linalg_spectral import mixin
    rng = np.random.default_rng(7)
    x, y, z = (_rand(rng, (9,), "complex128" if dtype == "complex64" else "float64")
               for _ in range(3))
    a = np.stack([np.stack([x, y, 1e-9 * (x - 2 * y), 1e-12 * z, 1e-20 * x], axis=1),
                  np.stack([x, 1e-9 * z, y, 1e-9 * x, 0 * x], axis=1)]).astype(dtype)
    old, mixin.ROUNDS = mixin.ROUNDS, path
    try:
        for m in (a, np.swapaxes(a, -1, -2).copy()):
            for full in (False, True):
                u, s, vh = xp.linalg.svd(xp.asarray(m), full_matrices=full)
                _check_svd(m, _host(u), _host(s), _host(vh), dtype, full)
    finally:
        mixin.ROUNDS = old


# complex64: ~26 s of compiling on lavapipe; the GPU runs check it
@pytest.mark.parametrize("dtype", ["float32", pytest.param("complex64", marks=pytest.mark.slow)])
def test_round_path_eigh_large(xp, rounds, dtype):
    """The path NVIDIA takes beyond workgroup memory (n = 100): eigenvalues from the
    ||A||_inf-shifted SVD, then vectors from the SVD shifted by ||A||_2 / 8 - lambda_min
    (with the ||A||_inf shift alone the reconstruction was 11 n eps on an H100; 5.7 n eps
    on lavapipe, 3.0 n eps with the second shift), and an indefinite, a definite and a
    negative definite matrix, whose second shifts are positive, negative and large."""
    rng = np.random.default_rng(100)
    a = _sym(rng, (100, 100), dtype)
    q, _ = np.linalg.qr(_rand(rng, (100, 100), dtype))
    d = np.linspace(1, 2, 100)
    b = np.stack([(q * d) @ _H(q), -(q * d) @ _H(q)]).astype(dtype)
    for m in (a, b):
        w, v = xp.linalg.eigh(xp.asarray(m))
        _check_eigh(m, _host(w), _host(v), dtype)


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_f32_computed_in_f64(xp, dtype):
    """Where the adapter grants shader-f64, 32-bit eigh / svd compute in float64 and round
    once: vectors orthogonal to a few eps as LAPACK's (the float32 kernels reach about
    sqrt(M) eps, their convergence threshold; scikit-learn's float32 Ridge test compares at
    ~1 ulp). Both kernel paths; results keep the input's dtypes. (Sizes whose
    32-bit kernel fits workgroup memory and 64-bit one not stay 32-bit: mixin._keeps_cap.)"""
    from numr_array_api import tuning
    from numr_array_api.backends.webgpu.ops.linalg_spectral import mixin
    if not xp.asarray([0.0])._data.client.has("shader-f64"):
        pytest.skip("the adapter lacks shader-f64")
    rng = np.random.default_rng(50)
    a = _rand(rng, (2, 70, 30), dtype)
    h = _sym(rng, (2, 16, 16), dtype)      # in workgroup memory in both widths
    eps = _eps(dtype)
    old = mixin.ROUNDS
    try:
        with tuning.override(SPECTRAL_F32="f64"):
            for path in (None, True):
                mixin.ROUNDS = path
                u, s, vh = (_host(r) for r in xp.linalg.svd(xp.asarray(a),
                                                           full_matrices=False))
                assert u.dtype == vh.dtype == a.dtype and s.dtype == _real(dtype)
                _check_svd(a, u, s, vh, dtype, False, c=0.2)
                assert _n2(_H(u.astype(np.complex128)) @ u - np.eye(30)).max() <= 8 * eps
                w, v = (_host(r) for r in xp.linalg.eigh(xp.asarray(h)))
                assert w.dtype == _real(dtype) and v.dtype == h.dtype
                _check_eigh(h, w, v, dtype, c=0.2)
                sv = _host(xp.linalg.svdvals(xp.asarray(a)))
                np.testing.assert_allclose(sv, s, rtol=4 * eps)
            p = _host(xp.linalg.pinv(xp.asarray(a)))
            assert p.dtype == a.dtype
            np.testing.assert_allclose(p, np.linalg.pinv(a.astype(np.complex128)),
                                       atol=50 * eps)
    finally:
        mixin.ROUNDS = old


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eigvals_of_real_matrices_are_exact_conjugate_pairs(wgpu_xp, dtype):
    # as LAPACK's real Schur form gives them: SciPy's tf2zpk test compares sort(z) with
    # sort(conj(z)) exactly (polynomial roots: eigenvalues of a companion matrix)
    xp = wgpu_xp
    if dtype not in xp.__array_namespace_info__().dtypes():
        pytest.skip(f"no {dtype}")
    roots = np.exp(2j * np.pi * np.arange(1, 16) / 31)
    c = np.real(np.poly(np.concatenate([roots, np.conj(roots), [0.5, -0.25]])))
    C = np.diag(np.ones(len(c) - 2), -1)
    C[0, :] = -c[1:] / c[0]
    rng = np.random.default_rng(3)
    for A in (C, rng.standard_normal((4, 12, 12))):
        A = A.astype(dtype)
        w = xp.linalg.eigvals(xp.asarray(A)).to_device("cpu")
        w = np.asarray(w).reshape(-1, A.shape[-1])
        ref = np.linalg.eigvals(A.astype(np.float64)).reshape(w.shape)
        for got, want in zip(w, ref):
            assert np.array_equal(np.sort_complex(got), np.sort_complex(np.conj(got)))
            tol = 1e-3 if dtype == "float32" else 1e-10
            assert np.abs(np.sort_complex(got) - np.sort_complex(want)).max() <= \
                tol * np.abs(want).max()
        assert np.count_nonzero(w.imag == 0) == np.count_nonzero(ref.imag == 0)
