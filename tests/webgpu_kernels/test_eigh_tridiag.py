"""eigh / eigvalsh of large real symmetric matrices on webgpu through the tridiagonal path
(ops/linalg_spectral/tridiag.py) against NumPy in float64: eigenvalues, reconstruction
and orthogonality (never raw vector signs). Larger sizes need NUMR_TEST_SLOW=1."""

import os

import numpy as np
import pytest

from numr_array_api import tuning

SLOW = os.environ.get("NUMR_TEST_SLOW") == "1"
SIZES = [65, 128, 200] + ([300, 512] if SLOW else [])
DTYPES = ["float32", "float64"]
C = 10.0   # tolerances: C n eps ||A||


@pytest.fixture
def xp(wgpu_xp):
    from numr_array_api._core.config import host_conversion
    with tuning.override(EIGH_TRIDIAG_MIN=65), host_conversion("allow"):
        yield wgpu_xp


@pytest.fixture
def calls():
    from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag
    before = dict(tridiag.CALLS)

    def delta():
        return {k: tridiag.CALLS[k] - before[k] for k in before}
    return delta


def _host(x):
    return np.asarray(x.to_device("cpu")) if hasattr(x, "to_device") else np.asarray(x)


def _skip_f64(xp, dtype):
    if dtype == "float64" and not xp.__array_namespace_info__().capabilities().get(
            "float64", True):
        pytest.skip("no shader-f64")


def _orth(n, rng):
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.sign(np.diag(r))


def _from_spectrum(lam, rng):
    q = _orth(len(lam), rng)
    a = (q * lam) @ q.T
    return (a + a.T) / 2


def _check(xp, a, dtype, calls, vectors=True, nvec=1):
    """Run eigvalsh and eigh on ``a`` (stack or matrix, host float64) in ``dtype`` and
    compare with NumPy; the tridiagonal path must have run without falling back."""
    an = np.asarray(a, dtype=dtype)
    ref = an.astype(np.float64)
    n = an.shape[-1]
    eps = float(np.finfo(dtype).eps)
    wr = np.linalg.eigvalsh(ref)
    nrm = np.linalg.norm(ref, 2, axis=(-2, -1))[..., None]
    x = xp.asarray(an)
    w = _host(xp.linalg.eigvalsh(x))
    assert w.dtype == np.dtype(dtype)
    assert np.all(np.abs(w.astype(np.float64) - wr) <= C * n * eps * nrm), \
        np.max(np.abs(w - wr) / nrm) / (n * eps)
    d = calls()
    assert d["tridiag"] >= 1, d
    if not vectors:
        return
    w2, v = xp.linalg.eigh(x)
    w2, v = _host(w2).astype(np.float64), _host(v)
    assert v.dtype == np.dtype(dtype)
    v = v.astype(np.float64)
    assert np.all(np.abs(w2 - wr) <= C * n * eps * nrm)
    # ascending
    assert np.all(np.diff(w2, axis=-1) >= -C * n * eps * nrm)
    res = np.linalg.norm(ref @ v - v * w2[..., None, :], 2, axis=(-2, -1))
    assert np.all(res <= C * n * eps * nrm[..., 0]), res / (n * eps * nrm[..., 0])
    vtv = np.swapaxes(v, -1, -2) @ v - np.eye(n)
    orth = np.linalg.norm(vtv, 2, axis=(-2, -1))
    assert np.all(orth <= C * n * eps), orth / (n * eps)
    d = calls()
    assert d["vectors"] >= nvec and d["fallback"] == 0, d


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_random(xp, calls, n, dtype):
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n))
    _check(xp, (a + a.T) / 2, dtype, calls)


@pytest.mark.parametrize("dtype", DTYPES)
def test_ill_conditioned(xp, calls, dtype):
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(1)
    n = 128
    cond = 1e6 if dtype == "float32" else 1e12
    lam = np.logspace(0, -np.log10(cond), n) * rng.choice([-1.0, 1.0], n)
    _check(xp, _from_spectrum(lam, rng), dtype, calls)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", ["identity", "projection", "diag_repeats", "scaled_eye",
                                  "two_clusters"])
def test_repeated(xp, calls, dtype, kind):
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(2)
    n = 100
    if kind == "identity":
        a = np.eye(n)
    elif kind == "scaled_eye":
        a = -3.5 * np.eye(n)
    elif kind == "projection":
        q = _orth(n, rng)[:, : n // 2]
        a = q @ q.T
        a = (a + a.T) / 2
    elif kind == "diag_repeats":
        a = np.diag(rng.permutation(np.repeat([-2.0, 0.0, 1.0, 5.0], n // 4)))
    else:   # close but distinct eigenvalues, two tight clusters
        lam = np.concatenate([1 + 1e-5 * rng.standard_normal(n // 2),
                              -1 + 1e-5 * rng.standard_normal(n - n // 2)])
        a = _from_spectrum(lam, rng)
    _check(xp, a, dtype, calls)


@pytest.mark.parametrize("dtype", DTYPES)
def test_rank_deficient(xp, calls, dtype):
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(3)
    n = 96
    b = rng.standard_normal((n, n // 4))
    _check(xp, b @ b.T, dtype, calls)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scale", [1e-15, 1e15, 1e-20, 1e20, 1e-30, 1e30, "graded"])
def test_scaled_graded(xp, calls, dtype, scale):
    """Entries whose squares overflow or flush in float32 from 1e+-20: the path normalises
    each matrix by a power of two first (NVIDIA's compiler may reassociate the kernels'
    scaled partial sums; the wide QR panel broke there on the H100)."""
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(4)
    n = 80
    a = rng.standard_normal((n, n))
    a = (a + a.T) / 2
    if scale == "graded":
        g = np.logspace(0, -3, n)
        a = g[:, None] * a * g[None, :]
    else:
        a = a * scale
    _check(xp, a, dtype, calls)


@pytest.mark.parametrize("dtype", DTYPES)
def test_batched(xp, calls, dtype):
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(5)
    n = 70
    a = rng.standard_normal((3, n, n))
    a = a + np.swapaxes(a, -1, -2)
    a[1] = np.eye(n)      # a batch member with a fully split T
    _check(xp, a, dtype, calls)


@pytest.mark.parametrize("dtype", DTYPES)
def test_strided_view_and_lower(xp, calls, dtype):
    """A strided view input, and only the lower triangle read (UPLO='L')."""
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(6)
    n = 72
    big = rng.standard_normal((2 * n, 2 * n)).astype(dtype)
    x = xp.asarray(big)[::2, 1::2]
    sub = big[::2, 1::2].astype(np.float64)
    sym = np.tril(sub) + np.tril(sub, -1).T
    eps = float(np.finfo(dtype).eps)
    nrm = np.linalg.norm(sym, 2)
    w, v = xp.linalg.eigh(x)
    w, v = _host(w).astype(np.float64), _host(v).astype(np.float64)
    assert np.max(np.abs(w - np.linalg.eigvalsh(sym))) <= C * n * eps * nrm
    assert np.linalg.norm(sym @ v - v * w, 2) <= C * n * eps * nrm
    assert np.linalg.norm(v.T @ v - np.eye(n), 2) <= C * n * eps
    assert calls()["vectors"] >= 1 and calls()["fallback"] == 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_input(xp, calls, dtype):
    _skip_f64(xp, dtype)
    n = 66
    a = np.eye(n, dtype=dtype)
    a[5, 3] = a[3, 5] = np.nan
    w = _host(xp.linalg.eigvalsh(xp.asarray(a)))
    assert np.isnan(w).all()
    w, v = xp.linalg.eigh(xp.asarray(a))
    assert np.isnan(_host(w)).all() and np.isnan(_host(v)).any()
    assert calls()["tridiag"] >= 2


def test_threshold(xp, calls):
    """Below EIGH_TRIDIAG_MIN the Jacobi path answers; from it, the tridiagonal path (the
    same eigenvalues)."""
    rng = np.random.default_rng(7)
    n = 65
    a = rng.standard_normal((n, n)).astype("float32")
    a = (a + a.T) / 2
    with tuning.override(EIGH_TRIDIAG_MIN=66):
        w = _host(xp.linalg.eigvalsh(xp.asarray(a)))
    assert calls()["tridiag"] == 0
    w2 = _host(xp.linalg.eigvalsh(xp.asarray(a)))
    assert calls()["tridiag"] == 1
    assert np.max(np.abs(w - w2)) <= 10 * n * np.finfo(np.float32).eps * np.abs(w).max()


def test_fallback_on_failed_check(xp, calls, monkeypatch):
    """A failed orthogonality check returns the Jacobi path's (correct) answer."""
    from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag
    monkeypatch.setattr(tridiag, "ORTH_TOL", -1.0)
    rng = np.random.default_rng(8)
    n = 65
    a = rng.standard_normal((n, n))
    a = (a + a.T) / 2
    w, v = xp.linalg.eigh(xp.asarray(a))
    w, v = _host(w), _host(v)
    assert calls()["fallback"] == 1
    eps = np.finfo(np.float64).eps
    assert np.linalg.norm(a @ v - v * w, 2) <= C * n * eps * np.linalg.norm(a, 2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_chunks_and_block_width(xp, calls, dtype, monkeypatch):
    """Batches split over several calls (binding limits) and other back-transformation
    block widths give the same answers."""
    from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag
    monkeypatch.setattr(tridiag, "batch_step", lambda *a: 2)
    rng = np.random.default_rng(9)
    n = 67
    a = rng.standard_normal((5, n, n))
    with tuning.override(EIGH_BT_NB=40):
        _check(xp, a + np.swapaxes(a, -1, -2), dtype, calls)
    assert calls()["tridiag"] >= 6


@pytest.mark.parametrize("dtype", DTYPES)
def test_inverse_iteration_scratch_in_leader_ranges(xp, calls, dtype, small_limits,
                                                   monkeypatch):
    """The inverse iteration's scratch (5 n per cluster leader) beyond one binding goes in
    leader ranges, several dispatches: the same answers (n = 100 float64: 5 n^2 * 8 =
    400 KB, one n^2 matrix 80 KB; a 128 KB binding holds 32 leaders' scratch)."""
    from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag
    from numr_array_api.backends.webgpu.ops.linalg_spectral.trd_vectors import InvIterSpec
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(11)
    n = 100
    a = rng.standard_normal((n, n))
    starts = []
    with small_limits(binding=128 << 10, segment=128 << 10) as client:
        real = client.kernel

        def spy(spec):
            k = real(spec)
            if not isinstance(spec, InvIterSpec):
                return k

            class Spy:
                def launch(self, grid, **kw):
                    starts.append(kw["l0"])
                    return k.launch(grid, **kw)
            return Spy()
        monkeypatch.setattr(client, "kernel", spy)
        monkeypatch.setattr(client.recipes, "enabled", False)
        assert tridiag.batch_step(client, n, 8, True) >= 1
        _check(xp, (a + a.T) / 2, dtype, calls)
    assert len(set(starts)) > 1 and min(starts) == 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_member_of_batch(xp, calls, dtype):
    """A NaN matrix in a batch gives NaN for that matrix only."""
    rng = np.random.default_rng(10)
    n = 65
    a = rng.standard_normal((3, n, n))
    a = (a + np.swapaxes(a, -1, -2)).astype(dtype)
    a[1, 7, 2] = np.nan
    w, v = xp.linalg.eigh(xp.asarray(a))
    w, v = _host(w).astype(np.float64), _host(v).astype(np.float64)
    assert np.isnan(w[1]).all() and np.isnan(v[1]).all()
    eps = float(np.finfo(dtype).eps)
    for b in (0, 2):
        ref = a[b].astype(np.float64)
        ref = np.tril(ref) + np.tril(ref, -1).T
        nrm = np.linalg.norm(ref, 2)
        assert np.max(np.abs(w[b] - np.linalg.eigvalsh(ref))) <= C * n * eps * nrm
        assert np.linalg.norm(ref @ v[b] - v[b] * w[b], 2) <= C * n * eps * nrm
        assert np.linalg.norm(v[b].T @ v[b] - np.eye(n), 2) <= C * n * eps
    assert calls()["fallback"] == 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_replayed_calls(xp, calls, dtype):
    """Repeated calls of one signature replay their recorded dispatches (recipes) and
    still answer for their own input."""
    rng = np.random.default_rng(11)
    n = 66
    for i in range(3):
        a = rng.standard_normal((n, n))
        _check(xp, a + a.T, dtype, calls, nvec=i + 1)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [65, 130])
def test_tight_clusters(xp, calls, dtype, n):
    """Two clusters of close (1e-5 apart) eigenvalues: computed together, re-orthogonalised."""
    rng = np.random.default_rng(12)
    lam = np.concatenate([1 + 1e-5 * rng.standard_normal(n // 2),
                          -1 + 1e-5 * rng.standard_normal(n - n // 2)])
    _check(xp, _from_spectrum(lam, rng), dtype, calls)


# knob values away from their defaults (the GPU runs check them)
@pytest.mark.slow
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rpw", [1, 2])
def test_symv_rows_per_workgroup(xp, calls, dtype, rpw):
    """TrdSymv2Spec's other rows a workgroup (EIGH_SYMV_RPW) give the same accuracy, over
    several panels (n = 100: the GEMM update between them) and a batch."""
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(14)
    n = 100
    a = rng.standard_normal((2, n, n))
    with tuning.override(EIGH_SYMV_RPW=rpw):
        _check(xp, a + np.swapaxes(a, -1, -2), dtype, calls)


# knob values away from their defaults (the GPU runs check them); the tuning epoch is in
# the recipe keys, so the calls of one test do not replay another value's dispatches
@pytest.mark.slow
@pytest.mark.parametrize("knobs", [{"EIGH_MSECT_WG": 128}, {"EIGH_MSECT_WG": 256},
                                   {"EIGH_BT_NB": 64}],
                         ids=lambda e: ",".join(f"{k}={v}" for k, v in e.items()))
@pytest.mark.parametrize("dtype", DTYPES)
def test_kernel_variants(xp, calls, dtype, knobs):
    """Other multisection widths and block reflector widths give NumPy's answers too:
    n = 130 has two back-transformation blocks (128 and 1 columns: the batched T's
    padding), a matrix with a repeated eigenvalue cluster exercises inverse iteration's
    chains."""
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(31)
    n = 130
    lam = np.concatenate([rng.standard_normal(n - 10), np.full(10, 0.5)])
    with tuning.override(**knobs):
        _check(xp, np.stack([_from_spectrum(lam, rng), _from_spectrum(rng.standard_normal(n),
                                                                      rng)]), dtype, calls)


def test_column_chain_binds_one_group(xp, monkeypatch):
    """The column chain's two kernels share one bind group layout (trd_chain.CHAIN_BUFS): a
    replayed eigvalsh sets a bind group only where the layout or the buffers change, far
    fewer SetBindGroup calls than dispatches."""
    from numr_array_api.backends.webgpu.runtime import submit
    real = submit._lib

    class Counting:
        n = 0

        def __getattr__(self, name):
            f = getattr(real, name)
            if name != "wgpuComputePassEncoderSetBindGroup":
                return f

            def counted(*a):
                Counting.n += 1
                return f(*a)
            return counted

    rng = np.random.default_rng(33)
    a = rng.standard_normal((100, 100))
    x = xp.asarray(a + a.T)
    xp.linalg.eigvalsh(x)          # captures the recipe
    monkeypatch.setattr(submit, "_lib", Counting())
    xp.linalg.eigvalsh(x)          # replays it
    monkeypatch.setattr(submit, "_lib", real)
    # 99 columns: ~200 chain dispatches
    assert Counting.n <= 40, Counting.n


@pytest.mark.parametrize("dtype", DTYPES)
def test_tridiagonal_kernels_read_views_of_one_buffer(xp, dtype):
    """d and e as views of one buffer at unrelated offsets (the column chain's workspace
    holds both): the bisection and inverse iteration kernels index each by its own offset
    (they once indexed E from D's, which only fresh arrays of offset 0 satisfied)."""
    _skip_f64(xp, dtype)
    from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag
    rng = np.random.default_rng(41)
    n = 80
    d, e = rng.standard_normal(n), rng.standard_normal(n)
    e[-1] = 0.0
    t = np.diag(d) + np.diag(e[:-1], 1) + np.diag(e[:-1], -1)
    buf = xp.asarray(np.concatenate([np.full(7, 1e3), e, np.full(5, -1e3), d]).astype(dtype))
    s = buf._data
    dv = s[12 + n:].reshape((1, n))
    ev = s[7:7 + n].reshape((1, n))
    wt = np.linalg.eigvalsh(t)
    eps = float(np.finfo(dtype).eps)
    tol = C * n * eps * np.abs(wt).max()
    w = tridiag.eigenvalues(s.client, dv, ev).to_numpy()[0]
    assert np.abs(w - wt).max() <= tol
    w2, z = tridiag.serial_vectors(xp._backend, dv, ev)
    w2, z = w2.to_numpy()[0].astype(np.float64), z.to_numpy()[0].astype(np.float64)
    assert np.abs(w2 - wt).max() <= tol
    assert np.abs(t @ z - z * w2).max() <= tol


def test_chain_arrays_share_one_buffer_where_they_may(xp, small_limits):
    """The column chain's nine arrays are views of one buffer, and separate buffers when the
    workspace exceeds a binding."""
    from numr_array_api._core import dtypes as dt
    from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag
    client = xp.asarray([0.0])._data.client

    def buffers(B, n, cl=client):
        arrs = tridiag._chain_arrays(B, n, dt.float32, cl)
        assert [a.shape for a in arrs] == [(B,) + sh for _, sh in tridiag._chain_shapes(n)]
        return len({id(a.block) for a in arrs})
    assert buffers(2, 100) == 1
    with small_limits(binding=128 << 10, segment=128 << 10) as small:
        assert buffers(1, 200, small) == 9      # 67064 words * 4 bytes > 128 KiB
        assert buffers(1, 60, small) == 1
