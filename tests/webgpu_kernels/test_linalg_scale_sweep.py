"""Every linalg function at entries near the ends of the dtype's range, on every kernel path
(stacks of 8 x 8 and 32 x 32: the one-dispatch kernels; 130 x 130: the blocked
factorisations, the tridiagonal eigensolver, the augmented svd).

Why: NVIDIA's compiler reassociates products with scale factors, and kernels that were exact on
lavapipe gave NaN at float32 1e20 and a backward error of 0.5 at 1e-20 on the H100 (the wide QR
panel, 2026-11-26). Each function's result on s * A is
compared with NumPy's in float64 on the same input, relative to the size of that result, so a
kernel whose squares overflow or flush to zero fails here whatever the adapter."""

import numpy as np
import pytest

SHAPES = [(16, 8, 8), (4, 32, 32), (130, 130)]
SCALES = {"float32": (1e30, 1e20, 1e-20, 1e-30), "float64": (1e200, 1e-200)}
TOL = {"float32": 2e-3, "float64": 1e-9}


@pytest.fixture
def xp(wgpu_xp):
    return wgpu_xp


def _f64_ok(xp):
    return xp.__array_namespace_info__().capabilities().get("float64", True)


def _inputs(shape, dtype, scale):
    """A well-conditioned general matrix G and a symmetric positive definite S, scaled."""
    rng = np.random.default_rng(sum(shape))
    n = shape[-1]
    g = rng.standard_normal(shape) + 3.0 * np.eye(n)
    q = rng.standard_normal(shape)
    s = q @ np.swapaxes(q, -1, -2) / n + np.eye(n)
    return (g * scale).astype(dtype), (s * scale).astype(dtype)


def _close(name, got, want, tol):
    got = np.asarray(got, np.float64)
    want = np.asarray(want, np.float64)
    assert np.all(np.isfinite(got)), f"{name}: non-finite entries"
    size = np.abs(want).max()
    err = np.abs(got - want).max()
    assert err <= tol * size, f"{name}: max error {err:.3g} against {size:.3g}"


def _close_norm(name, got, want, own, tol):
    """A norm NumPy computes from powers of the entries (fro, ord 2, ...) overflows or flushes
    to zero in the input's dtype, and numr, like NumPy and CuPy, may do the same: where
    NumPy's own-dtype result is inf or 0, either that or the true norm passes. ``want``:
    s * norm(A) (NumPy's float64 norm of s * A itself underflows at 1e-200, ord 3.5)."""
    got, want, own = (np.asarray(x, np.float64) for x in (got, want, own))
    lost = ~np.isfinite(own) | (own == 0)
    same = lost & (got == own)
    keep = ~same
    if keep.any():
        _close(name, got[keep], want[keep], tol)


def _host(x):
    return np.asarray(x.to_device("cpu"))


def _cases():
    # the one-dispatch stacks at every scale; the blocked 130 x 130 paths (~15 s each on
    # lavapipe) at one scale of each end in CI, at every scale with NUMR_TEST_SLOW=1
    out = []
    for d, ss in SCALES.items():
        for s in ss:
            for shape in SHAPES:
                big = len(shape) == 2
                marks = (pytest.mark.slow,) if big and s not in (1e-30, 1e200) else ()
                out.append(pytest.param(shape, d, s, marks=marks,
                                        id=f"{d}-{s:g}-{'x'.join(map(str, shape))}"))
    return out


@pytest.mark.parametrize("shape,dtype,scale", _cases())
def test_linalg_at_the_ends_of_the_range(xp, shape, dtype, scale):
    if dtype == "float64" and not _f64_ok(xp):
        pytest.skip("no shader-f64")
    g, s = _inputs(shape, dtype, scale)
    G, S = xp.asarray(g), xp.asarray(s)
    g64, s64 = g.astype(np.float64), s.astype(np.float64)
    tol = TOL[dtype]
    n = shape[-1]
    b = np.ones(shape[:-1] + (1,), dtype)

    _close("cholesky", _host(xp.linalg.cholesky(S)), np.linalg.cholesky(s64), tol)
    _close("solve", _host(xp.linalg.solve(G, xp.asarray(b))),
           np.linalg.solve(g64, b.astype(np.float64)), tol)
    _close("inv", _host(xp.linalg.inv(G)), np.linalg.inv(g64), tol)
    sign, logabs = xp.linalg.slogdet(G)
    sign64, logabs64 = np.linalg.slogdet(g64)
    np.testing.assert_array_equal(_host(sign), sign64)
    # log|det| = n log s + O(1): compare absolutely, at the size of the O(1) part's error
    np.testing.assert_allclose(_host(logabs), logabs64, rtol=0,
                               atol=tol * n * 10, err_msg="slogdet")

    q, r = xp.linalg.qr(G)
    q, r = _host(q).astype(np.float64), _host(r).astype(np.float64)
    _close("qr: Q R", q @ r, g64, tol)
    _close("qr: Q^T Q", np.swapaxes(q, -1, -2) @ q, np.broadcast_to(np.eye(n), q.shape), tol)

    w = _host(xp.linalg.eigvalsh(S))
    _close("eigvalsh", w, np.linalg.eigvalsh(s64), tol)
    w, v = xp.linalg.eigh(S)
    w, v = _host(w).astype(np.float64), _host(v).astype(np.float64)
    _close("eigh: V diag(w) V^T", (v * w[..., None, :]) @ np.swapaxes(v, -1, -2), s64, tol)

    sv = _host(xp.linalg.svdvals(G))
    _close("svdvals", sv, np.linalg.svd(g64, compute_uv=False), tol)
    u, sv, vh = xp.linalg.svd(G, full_matrices=False)
    u, sv, vh = (_host(x).astype(np.float64) for x in (u, sv, vh))
    _close("svd: U diag(s) Vh", (u * sv[..., None, :]) @ vh, g64, tol)

    for ord_ in ("fro", "nuc", 2, -2, 1, np.inf):
        _close_norm(f"matrix_norm {ord_}", _host(xp.linalg.matrix_norm(G, ord=ord_)),
                    scale * np.linalg.norm(g64 / scale, ord=ord_, axis=(-2, -1)),
                    np.linalg.norm(g, ord=ord_, axis=(-2, -1)), tol)
    for ord_ in (2, 1, np.inf, 3.5, -np.inf):
        _close_norm(f"vector_norm {ord_}",
                    _host(xp.linalg.vector_norm(G, axis=-1, ord=ord_)),
                    scale * np.linalg.norm(g64 / scale, ord=ord_, axis=-1),
                    np.linalg.norm(g, ord=ord_, axis=-1),
                    tol)
    _close("pinv", _host(xp.linalg.pinv(G)), np.linalg.pinv(g64), tol)
    np.testing.assert_array_equal(_host(xp.linalg.matrix_rank(G)),
                                  np.linalg.matrix_rank(g64))
