"""linalg on the GPU (ops/linalg): backward errors against the float64 / complex128 NumPy
reference, singular and non-positive-definite input, empty and batched stacks, stacks of
many small matrices, and no host round trip for the functions ops/linalg implements.

Backward errors are bounded by 10 * n * eps(dtype) (the acceptance bound), with n at
least 2 so a 1x1 case is not held to a single rounding of the reference.
Sizes beyond 200 run with NUMR_TEST_SLOW=1.
"""

import os
import warnings

import numpy as np
import pytest

from numr_array_api._core.errors import InvalidArgument

SLOW = os.environ.get("NUMR_TEST_SLOW") == "1"
SIZES = [1, 7, 32, 33, 64, 65, 200] + ([513, 1024] if SLOW else [])
DTYPES = ["float32", "float64", "complex64", "complex128"]
EPS = {"float32": np.finfo(np.float32).eps, "float64": np.finfo(np.float64).eps,
       "complex64": np.finfo(np.float32).eps, "complex128": np.finfo(np.float64).eps}


def host(x):
    return np.asarray(x.to_device("cpu"))


def ref(a):
    """The float64 / complex128 copy the reference computes with."""
    return np.asarray(a).astype(np.complex128 if np.iscomplexobj(a) else np.float64)


def nrm(a):
    return np.linalg.norm(ref(a).reshape(-1, *a.shape[-2:]), axis=(-2, -1)).max()


def bound(n, dtype):
    return 10 * max(n, 2) * EPS[dtype]


def ct(a):
    return np.conj(np.swapaxes(a, -1, -2))


def random(rng, shape, dtype):
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def conditioned(rng, n, dtype, cond, batch=()):
    """Q1 diag(s) Q2 with singular values from 1 to 1/cond."""
    q1 = np.linalg.qr(random(rng, batch + (n, n), dtype).astype(np.complex128
                      if dtype.startswith("complex") else np.float64))[0]
    q2 = np.linalg.qr(random(rng, batch + (n, n), dtype).astype(q1.dtype))[0]
    s = np.logspace(0, -np.log10(cond), n)
    return ((q1 * s) @ q2).astype(dtype)


def spd(a):
    n = a.shape[-1]
    r = ref(a)
    return (r @ ct(r) + n * np.eye(n)).astype(a.dtype)


def case_pairs():
    out = []
    for n in SIZES:
        for d in DTYPES:
            if n >= 200 and d.startswith("complex") and not SLOW:
                continue
            out.append((n, d))
    return out


@pytest.fixture
def xp(wgpu_xp):
    return wgpu_xp


@pytest.fixture(params=["panel", "regs"])
def chol_panel(request, monkeypatch):
    """The blocked Cholesky's panel kernel: CholRegsSpec (the default) or CholPanelSpec
    (taken where the register panel does not fit the adapter)."""
    if request.param == "panel":
        from numr_array_api.backends.webgpu.ops.linalg import cholesky
        monkeypatch.setattr(cholesky, "regs_spec", lambda *a, **k: None)
    return request.param


def _needs(xp, dtype):
    if dtype in ("float64", "complex128"):
        client = xp.asarray([0.0])._data.client
        if not client.has("shader-f64"):
            pytest.skip("adapter without shader-f64")


# ---- factorisations: backward errors -----------------------------------------------------

@pytest.mark.parametrize("n,dtype", case_pairs())
def test_cholesky_backward_error(xp, n, dtype, chol_panel):
    _needs(xp, dtype)
    rng = np.random.default_rng(n)
    a = spd(random(rng, (2, n, n), dtype))
    low = host(xp.linalg.cholesky(xp.asarray(a)))
    up = host(xp.linalg.cholesky(xp.asarray(a), upper=True))
    assert low.dtype == a.dtype and low.shape == a.shape
    np.testing.assert_array_equal(np.triu(low, 1), 0)
    np.testing.assert_array_equal(np.tril(up, -1), 0)
    err = nrm(ref(a) - ref(low) @ ct(ref(low))) / nrm(a)
    assert err <= bound(n, dtype), err
    np.testing.assert_allclose(up, ct(low), rtol=0, atol=0)


@pytest.mark.parametrize("n,dtype", case_pairs())
def test_solve_inv_backward_error(xp, n, dtype):
    _needs(xp, dtype)
    rng = np.random.default_rng(100 + n)
    a = random(rng, (2, n, n), dtype)
    b = random(rng, (2, n, 3), dtype)
    x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(b)))
    assert x.dtype == a.dtype and x.shape == b.shape
    ra, rx, rb = ref(a), ref(x), ref(b)
    for i in range(2):
        err = np.linalg.norm(ra[i] @ rx[i] - rb[i]) / (
            np.linalg.norm(ra[i]) * np.linalg.norm(rx[i]) + np.linalg.norm(rb[i]))
        assert err <= bound(n, dtype), (i, err)
    ai = host(xp.linalg.inv(xp.asarray(a)))
    for i in range(2):
        err = np.linalg.norm(ra[i] @ ref(ai)[i] - np.eye(n)) / (
            np.linalg.norm(ra[i]) * np.linalg.norm(ref(ai)[i]))
        assert err <= bound(n, dtype), (i, err)


@pytest.mark.parametrize("n,dtype", case_pairs())
def test_qr_backward_error_and_orthogonality(xp, n, dtype):
    _needs(xp, dtype)
    rng = np.random.default_rng(200 + n)
    for shape in [(n, n), (n + 5, n), (n, n + 3)]:
        a = random(rng, (2,) + shape, dtype)
        m, k = shape[0], min(shape)
        for mode in ("reduced", "complete"):
            q, r = xp.linalg.qr(xp.asarray(a), mode=mode)
            q, r = host(q), host(r)
            qc = m if mode == "complete" else k
            assert q.shape == (2, m, qc) and r.shape == (2, qc, shape[1])
            assert q.dtype == a.dtype and r.dtype == a.dtype
            np.testing.assert_array_equal(np.tril(r, -1), 0)
            err = nrm(ref(a) - ref(q) @ ref(r)) / nrm(a)
            assert err <= bound(max(shape), dtype), (shape, mode, err)
            orth = nrm(ct(ref(q)) @ ref(q) - np.eye(qc))
            assert orth <= bound(max(shape), dtype), (shape, mode, orth)


@pytest.mark.parametrize("shape", [(1100, 70), (70, 1100)])
def test_qr_tall_and_wide(xp, shape):
    """Panels of more than 1024 rows (lavapipe ends any loop after 65535 iterations per
    invocation: a kernel looping over every row once per column would stop early)."""
    rng = np.random.default_rng(9)
    a = random(rng, shape, "float32")
    q, r = xp.linalg.qr(xp.asarray(a))
    q, r = host(q), host(r)
    assert nrm(ref(a) - ref(q) @ ref(r)) / nrm(a) <= bound(max(shape), "float32")
    assert nrm(ct(ref(q)) @ ref(q) - np.eye(q.shape[1])) <= bound(max(shape), "float32")


@pytest.mark.parametrize("n,dtype", [c for c in case_pairs() if c[0] <= 65])
def test_det_slogdet_against_numpy(xp, n, dtype):
    _needs(xp, dtype)
    rng = np.random.default_rng(300 + n)
    a = (random(rng, (3, n, n), dtype) + 2 * np.eye(n)).astype(dtype)  # well conditioned
    d = host(xp.linalg.det(xp.asarray(a)))
    s, la = xp.linalg.slogdet(xp.asarray(a))
    s, la = host(s), host(la)
    s0, l0 = np.linalg.slogdet(ref(a))
    assert d.dtype == a.dtype and s.dtype == a.dtype
    assert la.dtype == (np.float64 if dtype in ("float64", "complex128") else np.float32)
    tol = 100 * max(n, 2) * EPS[dtype]
    np.testing.assert_allclose(s, s0, rtol=0, atol=tol)
    np.testing.assert_allclose(la, l0, rtol=0, atol=tol * max(1, np.abs(l0).max()))
    if np.abs(l0).max() < 30:  # det itself representable in float32
        np.testing.assert_allclose(d, s0 * np.exp(l0), rtol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_det_with_pivots_beyond_the_range(xp, dtype):
    """Pivots of 1e30 and 1e-30 (float32: their running product overflows) still give
    NumPy's det, which is sign * exp(log|det|)."""
    _needs(xp, dtype)
    big = np.diag([1e30, 1e30, 1e-30, 1e-30, 3.0]).astype(dtype)
    for a in (big, big[::-1, ::-1].copy()):
        np.testing.assert_allclose(host(xp.linalg.det(xp.asarray(a))), np.linalg.det(ref(a)),
                                   rtol=1e-5)
    huge = np.diag([1e30] * 4).astype(dtype)  # overflows float32 for real
    want = np.linalg.det(huge)
    with np.errstate(over="ignore"):
        got = host(xp.linalg.det(xp.asarray(huge)))
    np.testing.assert_allclose(got, want, rtol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [8, 33])
def test_ill_conditioned(xp, n, dtype):
    _needs(xp, dtype)
    rng = np.random.default_rng(400 + n)
    cond = 1e6 if dtype in ("float32", "complex64") else 1e12
    a = conditioned(rng, n, dtype, cond, (2,))
    b = random(rng, (2, n, 2), dtype)
    x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(b)))
    ra, rx, rb = ref(a), ref(x), ref(b)
    for i in range(2):
        err = np.linalg.norm(ra[i] @ rx[i] - rb[i]) / (
            np.linalg.norm(ra[i]) * np.linalg.norm(rx[i]) + np.linalg.norm(rb[i]))
        assert err <= bound(n, dtype), err
    q, r = xp.linalg.qr(xp.asarray(a))
    assert nrm(ra - ref(host(q)) @ ref(host(r))) / nrm(a) <= bound(n, dtype)
    h = (ra @ ct(ra)).astype(dtype)  # SPD with cond^2: keep it inside the dtype's range
    h = ((h + ct(h)) / 2 + np.eye(n) / np.sqrt(cond)).astype(dtype)
    low = host(xp.linalg.cholesky(xp.asarray(h)))
    assert nrm(ref(h) - ref(low) @ ct(ref(low))) / nrm(h) <= bound(n, dtype)


# ---- singular, non-positive-definite, non-finite -----------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [4, 40, 70])
def test_rank_deficient(xp, n, dtype):
    _needs(xp, dtype)
    rng = np.random.default_rng(500 + n)
    a = random(rng, (3, n, n), dtype)
    # exactly singular whatever the pivoting: a zero row, a zero column (a repeated row is
    # not: LAPACK too leaves a pivot of rounding size when pivoting separates the copies)
    a[1, 2] = 0
    a[2, :, n // 2] = 0        # zero column
    a = a.astype(dtype)
    d = host(xp.linalg.det(xp.asarray(a)))
    assert d[1] == 0 and d[2] == 0
    s, la = xp.linalg.slogdet(xp.asarray(a))
    s, la = host(s), host(la)
    assert s[1] == 0 and s[2] == 0 and la[1] == -np.inf and la[2] == -np.inf
    with pytest.raises(InvalidArgument, match="Singular"):
        xp.linalg.solve(xp.asarray(a), xp.asarray(random(rng, (3, n, 1), dtype)))
    with pytest.raises(InvalidArgument, match="Singular"):
        xp.linalg.inv(xp.asarray(a[1:2]))
    with pytest.raises(InvalidArgument, match="matrix_power: Singular"):
        xp.linalg.matrix_power(xp.asarray(a[2]), -2)
    # the nonsingular one alone still solves
    x = host(xp.linalg.inv(xp.asarray(a[:1])))
    assert np.all(np.isfinite(x))
    q, r = xp.linalg.qr(xp.asarray(a))
    assert nrm(ref(a) - ref(host(q)) @ ref(host(r))) / nrm(a) <= bound(n, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [3, 70])
def test_cholesky_not_positive_definite_raises(xp, n, dtype, chol_panel):
    _needs(xp, dtype)
    a = np.eye(n, dtype=dtype)
    a[n - 1, n - 1] = -1
    with pytest.raises(InvalidArgument, match="positive definite"):
        xp.linalg.cholesky(xp.asarray(a))
    a[n - 1, n - 1] = np.nan
    with pytest.raises(InvalidArgument):
        xp.linalg.cholesky(xp.asarray(np.stack([np.eye(n, dtype=dtype), a])))


def test_solve_with_nan_is_nan_not_an_error(xp):
    a = np.eye(5, dtype=np.float32)
    a[2, 3] = np.nan
    x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(np.ones(5, np.float32))))
    assert np.isnan(x).any()


# ---- shapes: empty, vectors, broadcasting, many small matrices ---------------------------

def test_empty_and_zero_sized(xp):
    e = xp.asarray(np.zeros((0, 0), np.float32))
    assert host(xp.linalg.cholesky(e)).shape == (0, 0)
    assert host(xp.linalg.inv(e)).shape == (0, 0)
    assert host(xp.linalg.det(e)) == 1
    s, la = xp.linalg.slogdet(e)
    assert host(s) == 1 and host(la) == 0
    q, r = xp.linalg.qr(xp.asarray(np.zeros((3, 0), np.float32)), mode="complete")
    np.testing.assert_array_equal(host(q), np.eye(3))
    assert host(r).shape == (3, 0)
    q, r = xp.linalg.qr(xp.asarray(np.zeros((0, 4), np.float32)))
    assert host(q).shape == (0, 0) and host(r).shape == (0, 4)
    z = xp.asarray(np.zeros((0, 3, 3), np.float32))
    assert host(xp.linalg.det(z)).shape == (0,)
    assert host(xp.linalg.solve(z, xp.asarray(np.zeros((0, 3, 2), np.float32)))).shape == \
        (0, 3, 2)
    assert host(xp.linalg.cholesky(z)).shape == (0, 3, 3)


def test_solve_vector_and_broadcast(xp):
    rng = np.random.default_rng(7)
    a = random(rng, (4, 6, 6), "float64")
    b = random(rng, (6,), "float64")
    np.testing.assert_allclose(host(xp.linalg.solve(xp.asarray(a), xp.asarray(b))),
                               np.linalg.solve(a, b[:, None])[..., 0], rtol=1e-10, atol=1e-12)
    b2 = random(rng, (3, 1, 6, 2), "float64")
    np.testing.assert_allclose(host(xp.linalg.solve(xp.asarray(a[0]), xp.asarray(b2))),
                               np.linalg.solve(a[0], b2), rtol=1e-10, atol=1e-12)
    # strided (transposed) input views
    at = xp.asarray(a)
    at = xp.permute_dims(at, (0, 2, 1))
    np.testing.assert_allclose(host(xp.linalg.inv(at)),
                               np.linalg.inv(np.swapaxes(a, 1, 2)), rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("n", [2, 4, 8, 16])
def test_many_small_matrices(xp, n):
    rng = np.random.default_rng(n)
    count = 10000 if n <= 4 else 2000
    a = random(rng, (count, n, n), "float32")
    b = random(rng, (count, n, 1), "float32")
    ga = xp.asarray(a)
    x = host(xp.linalg.solve(ga, xp.asarray(b)))
    ra, rx = ref(a), ref(x)
    res = np.linalg.norm(ra @ rx - ref(b), axis=(1, 2)) / (
        np.linalg.norm(ra, axis=(1, 2)) * np.linalg.norm(rx, axis=(1, 2))
        + np.linalg.norm(ref(b), axis=(1, 2)))
    assert res.max() <= bound(n, "float32"), res.max()
    np.testing.assert_allclose(host(xp.linalg.det(ga)), np.linalg.det(ra),
                               rtol=1e-3, atol=1e-4 * np.abs(np.linalg.det(ra)).max())
    s = spd(a)
    low = host(xp.linalg.cholesky(xp.asarray(s)))
    err = np.abs(ref(s) - ref(low) @ ct(ref(low))).max() / np.abs(ref(s)).max()
    assert err <= bound(n, "float32"), err
    q, r = xp.linalg.qr(ga)
    err = np.abs(ra - ref(host(q)) @ ref(host(r))).max() / np.abs(ra).max()
    assert err <= bound(n, "float32"), err


def test_stacked_calls_submit_once(xp, monkeypatch):
    """A stacked solve / inv / cholesky records its kernels with early submits held and
    submits them with its status read: one submit a call, even where every dispatch
    crosses the early-submit threshold (forced down to 1 byte here; lavapipe never
    submits early by itself); the same threshold without the hold submits more."""
    client = xp.asarray([0.0])._data.client
    rec = client.recorder
    monkeypatch.setattr(client.recipes, "enabled", False)   # the recorded path, each call
    rng = np.random.default_rng(11)
    a = random(rng, (300, 4, 4), "float32") + 4 * np.eye(4, dtype=np.float32)
    b = random(rng, (300, 4, 1), "float32")
    s = spd(a)
    ga, gb, gs = xp.asarray(a), xp.asarray(b), xp.asarray(s)
    calls = {"solve": lambda: xp.linalg.solve(ga, gb), "inv": lambda: xp.linalg.inv(ga),
             "cholesky": lambda: xp.linalg.cholesky(gs)}
    for f in calls.values():
        f()   # compiled, the pool warm
    xp.synchronize()
    monkeypatch.setattr(rec, "ramp", 1)
    monkeypatch.setattr(rec, "ramp_first", 1)
    monkeypatch.setattr(rec, "submit_bytes", 1)
    for name, f in calls.items():
        before = rec.submits
        r = f()
        assert rec.submits == before + 1, name   # the status read's submit only
        want = {"solve": lambda: np.linalg.solve(ref(a), ref(b)),
                "inv": lambda: np.linalg.inv(ref(a)),
                "cholesky": lambda: np.linalg.cholesky(ref(s))}[name]()
        np.testing.assert_allclose(ref(host(r)), want, rtol=1e-4, atol=1e-4)
    before = rec.submits
    x = xp.exp(ga)     # an unheld dispatch at this threshold submits at once
    assert rec.submits == before + 1
    host(x)


def test_stack_split_across_bindings(xp, small_limits):
    """Stacks beyond one storage binding are factorised in pieces."""
    rng = np.random.default_rng(3)
    a = random(rng, (600, 24, 24), "float32")  # 1.4 MB against a 256 KiB binding
    with small_limits(binding=256 << 10, segment=4 << 20):
        x = host(xp.linalg.inv(xp.asarray(a)))
    ra = ref(a)
    err = np.linalg.norm(ra @ ref(x) - np.eye(24), axis=(1, 2)) / (
        np.linalg.norm(ra, axis=(1, 2)) * np.linalg.norm(ref(x), axis=(1, 2)))
    assert err.max() <= bound(24, "float32")


# ---- the functions built from other GPU ops -----------------------------------------------

def test_simple_functions(xp):
    rng = np.random.default_rng(11)
    a = random(rng, (2, 5, 4), "float32")
    ga = xp.asarray(a)
    for off in (-2, 0, 1, 5):
        np.testing.assert_array_equal(host(xp.linalg.diagonal(ga, offset=off)),
                                      np.diagonal(a, off, -2, -1))
        np.testing.assert_allclose(host(xp.linalg.trace(ga, offset=off)),
                                   np.trace(a, off, axis1=-2, axis2=-1), rtol=1e-6)
    u, v = random(rng, (5,), "complex64"), random(rng, (3,), "complex64")
    np.testing.assert_allclose(host(xp.linalg.outer(xp.asarray(u), xp.asarray(v))),
                               np.outer(u, v), rtol=1e-6)
    c1, c2 = random(rng, (4, 3, 2), "float64"), random(rng, (3, 2), "float64")
    np.testing.assert_allclose(host(xp.linalg.cross(xp.asarray(c1), xp.asarray(c2),
                                                    axis=-2)),
                               np.cross(c1, c2, axis=-2), rtol=1e-12)
    m = random(rng, (3, 6, 6), "float64") / 3
    gm = xp.asarray(m)
    for p in (0, 1, 2, 5, -1, -3):
        np.testing.assert_allclose(host(xp.linalg.matrix_power(gm, p)),
                                   np.linalg.matrix_power(m, p), rtol=1e-8, atol=1e-8)
    z = random(rng, (2, 3, 7), "complex128")
    gz = xp.asarray(z)
    for ordv in ("fro", 1, -1, np.inf, -np.inf):
        for kd in (False, True):
            np.testing.assert_allclose(host(xp.linalg.matrix_norm(gz, ord=ordv, keepdims=kd)),
                                       np.linalg.norm(z, ord=ordv, axis=(-2, -1), keepdims=kd),
                                       rtol=1e-12)
    for r in (random(rng, (2, 6, 4), "float64"), random(rng, (3, 5), "complex128")):
        for ordv in (2, -2, "nuc"):
            np.testing.assert_allclose(host(xp.linalg.matrix_norm(xp.asarray(r), ord=ordv)),
                                       np.linalg.norm(r, ord=ordv, axis=(-2, -1)), rtol=1e-10)
    h = xp.asarray(random(rng, (4, 4), "float32"), dtype=xp.float16)
    n16 = xp.linalg.matrix_norm(h, ord=2)
    assert n16.dtype == xp.float16
    np.testing.assert_allclose(float(host(n16)), np.linalg.norm(host(h).astype(np.float64), 2),
                               rtol=2e-3)
    for ordv in (2, 1, np.inf, -np.inf, 0, 3, 0.5, -1):
        for axis in (None, 1, (0, 2)):
            want = np.linalg.norm(z.reshape(-1) if axis is None else z, ord=ordv,
                                  axis=axis) if not isinstance(axis, tuple) else \
                np.power(np.sum(np.abs(z) ** ordv, axis=axis), 1 / ordv) if ordv not in (
                    0, np.inf, -np.inf) else None
            if want is None:
                continue
            got = host(xp.linalg.vector_norm(gz, axis=axis, ord=ordv))
            np.testing.assert_allclose(got, want, rtol=1e-10)


FUNCS = {
    "cholesky": lambda xp, a: xp.linalg.cholesky(a @ xp.conj(xp.matrix_transpose(a))
                                                 + 8 * xp.eye(8, dtype=a.dtype)),
    "solve": lambda xp, a: xp.linalg.solve(a, a[..., :2]),
    "inv": lambda xp, a: xp.linalg.inv(a),
    "det": lambda xp, a: xp.linalg.det(a),
    "slogdet": lambda xp, a: xp.linalg.slogdet(a),
    "qr": lambda xp, a: xp.linalg.qr(a),
    "matrix_power": lambda xp, a: xp.linalg.matrix_power(a, -3),
    "cross": lambda xp, a: xp.linalg.cross(a[..., :3], a[..., 3:6]),
    "diagonal": lambda xp, a: xp.linalg.diagonal(a, offset=1),
    "trace": lambda xp, a: xp.linalg.trace(a),
    "outer": lambda xp, a: xp.linalg.outer(a[0, 0], a[0, 1]),
    "vector_norm": lambda xp, a: [xp.linalg.vector_norm(a, ord=o) for o in
                                  (2, 1, 0, 3, -2, float("inf"), float("-inf"))],
    "matrix_norm": lambda xp, a: [xp.linalg.matrix_norm(a, ord=o) for o in
                                  ("fro", 1, -1, float("inf"), float("-inf"), 2, -2, "nuc")],
}


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float64"])
@pytest.mark.parametrize("name", sorted(FUNCS))
def test_no_host_fallback(xp, name, dtype):
    """HostFallbackWarning is an error for every function ops/linalg implements."""
    _needs(xp, dtype)
    from numr_array_api.backends.webgpu.ops import host_fallback
    rng = np.random.default_rng(5)
    a = xp.asarray(random(rng, (2, 8, 8), dtype) + 4 * np.eye(8, dtype=dtype))
    host_fallback._warned.clear()  # each name warns once per process: re-arm them
    with warnings.catch_warnings():
        warnings.simplefilter("error", host_fallback.HostFallbackWarning)
        r = FUNCS[name](xp, a)
        for x in (r if isinstance(r, (list, tuple)) else [r]):
            host(x)


def test_plans_replay_with_new_data(xp):
    """Blocked factorisations replay a recorded plan from the second call of a shape on
    (ops/linalg/plan.py): new inputs give their own results, earlier results survive,
    and a failure is still reported on a replay."""
    rng = np.random.default_rng(11)
    n = 70
    mats = [random(rng, (n, n), "float32") + 9 * np.eye(n, dtype=np.float32) for _ in range(2)]
    rhs = random(rng, (n, 3), "float32")
    outs = []
    for a in mats:
        ga = xp.asarray(a)
        outs.append((xp.linalg.cholesky(xp.asarray(spd(a))), xp.linalg.solve(ga, xp.asarray(rhs)),
                     xp.linalg.inv(ga), xp.linalg.qr(ga)))
    for a, (low, x, inv, (q, r)) in zip(mats, outs):
        s, ra = ref(spd(a)), ref(a)
        lo = ref(host(low))
        assert np.abs(s - lo @ ct(lo)).max() / np.abs(s).max() <= bound(n, "float32")
        np.testing.assert_allclose(ref(host(x)), np.linalg.solve(ra, ref(rhs)), rtol=1e-3,
                                   atol=1e-4)
        np.testing.assert_allclose(ref(host(inv)), np.linalg.inv(ra), rtol=1e-3, atol=1e-4)
        assert np.abs(ra - ref(host(q)) @ ref(host(r))).max() / np.abs(ra).max() <= \
            bound(n, "float32")
    bad = mats[0].copy()
    bad[:, 5] = 0
    with pytest.raises(InvalidArgument):
        xp.linalg.solve(xp.asarray(bad), xp.asarray(rhs))
    with pytest.raises(InvalidArgument):
        xp.linalg.inv(xp.asarray(bad))
    with pytest.raises(InvalidArgument):
        xp.linalg.cholesky(xp.asarray(-spd(mats[1])))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("n", [9, 12, 20, 32])
def test_row_kernel_stacks(xp, n, dtype, knobs):
    """Stacks of 9..32 square systems on the row-per-invocation kernel (batch_rows.py):
    solve with 1 / 3 / n right-hand sides and inv against NumPy, a column needing a pivot
    from far below, NaN propagating, and a singular member raising. CPU adapters (where
    it is off by default: llvmpipe compiles it slowly) run the smaller sizes forced on."""
    _needs(xp, dtype)
    # the subgroup-per-matrix kernels (warp.py, tests/webgpu_kernels/test_warp_small.py)
    # take these sizes by default where the adapter has one subgroup size >= n
    knobs(BWARP=False)
    client = xp.asarray([0.0])._data.client
    cpu = str(client.info.get("type", "")).lower() == "cpu"
    if cpu:
        if n > 12 or (n > 9 and dtype != "float32"):   # (float32 <= 16: BatchTinySpec)
            pytest.skip("llvmpipe compiles the bigger row kernels slowly (24 x 24: minutes)")
        knobs(BROWS=True)
    rng = np.random.default_rng(n)
    B = 70
    a = random(rng, (B, n, n), dtype)
    a[5, : n - 1, 0] = 0.0           # the pivot of column 0 is the last row
    for k in (1, 3, n):
        b = random(rng, (B, n, k), dtype)
        x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(b)))
        ra, rx, rb = ref(a), ref(x), ref(b)
        res = np.linalg.norm(ra @ rx - rb, axis=(1, 2)) / (
            np.linalg.norm(ra, axis=(1, 2)) * np.linalg.norm(rx, axis=(1, 2))
            + np.linalg.norm(rb, axis=(1, 2)))
        assert res.max() <= bound(n, dtype), (k, res.max())
    from numr_array_api.backends.webgpu.ops.linalg.batch_rows import BatchRowsSpec
    if n > (16 if dtype == "float32" else 8):   # (smaller ones: one invocation a matrix)
        assert any(isinstance(sp, BatchRowsSpec) and sp.n == n for sp in client._kernels)
    ai = ref(host(xp.linalg.inv(xp.asarray(a))))
    res = np.linalg.norm(ref(a) @ ai - np.eye(n), axis=(1, 2)) / (
        np.linalg.norm(ref(a), axis=(1, 2)) * np.linalg.norm(ai, axis=(1, 2)))
    assert res.max() <= bound(n, dtype), res.max()
    nan = a.copy()
    nan[2, 3, 4] = np.nan
    xn = host(xp.linalg.solve(xp.asarray(nan), xp.asarray(b)))
    assert np.isnan(xn[2]).any() and np.isfinite(xn[[0, 1, 3]]).all()
    sing = a.copy()
    sing[9, :, 2] = 0.0
    with pytest.raises(InvalidArgument):
        xp.linalg.solve(xp.asarray(sing), xp.asarray(b))
    with pytest.raises(InvalidArgument):
        xp.linalg.inv(xp.asarray(sing))


LU_VARIANTS = [
    # tournament-pivoting leaves (tslu.py) forced on at 64 rows, candidates and a final
    # round (no one-block leaves), the checked build (tournament kernels, TrsmTileSpec)
    {"LU_TSLU": 64, "LU_TSLU_SOLO": 0, "LINALG_TRUSTED": False},
    # the same without wgpu's runtime checks (the GPU defaults but for SOLO)
    {"LU_TSLU": 64, "LU_TSLU_SOLO": 0},
    # leaves of up to 1024 rows as one block (1 or 2 rows a thread here), no final round
    # (the GPU defaults)
    {"LU_TSLU": 64, "LU_TSLU_SOLO": 1024},
] + ([
    # (slow on llvmpipe: minutes of compiling unrolled kernels; NUMR_TEST_SLOW=1)
    # the same with 2 rows a thread in the candidate round, 4 in the final, tree search;
    # U12 of every recursion node by TrsmSpec blocks (trsm_blocked)
    {"LU_TSLU": 64, "LU_TSLU_RC": 2, "LU_TSLU_RF": 4, "LU_SG": False, "LU_TRSM_MIN": 4096},
] if SLOW else [])


# non-default variants: compiles minutes of unrolled kernels on lavapipe (the GPU runs check them)
@pytest.mark.slow
@pytest.mark.parametrize("variant", LU_VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_lu_variants(xp, variant, knobs):
    """The blocked LU's variants (tuning knobs of ops/linalg/lu.py): solve / inv backward
    errors, det / slogdet against NumPy (sign from the actual interchanges), and an exactly
    singular matrix raising, on 300 x 300 float32 (several candidate blocks of 256 rows)
    and a 2-stack of 150 x 150 with 5 right-hand sides."""
    knobs(**variant)
    rng = np.random.default_rng(77)
    for shape, k in (((300, 300), 64), ((2, 150, 150), 5)):
        n = shape[-1]
        a = random(rng, shape, "float32")
        b = random(rng, shape[:-1] + (k,), "float32")
        x = ref(host(xp.linalg.solve(xp.asarray(a), xp.asarray(b))))
        ra, rb = ref(a), ref(b)
        err = np.linalg.norm(ra @ x - rb) / (np.linalg.norm(ra) * np.linalg.norm(x) +
                                             np.linalg.norm(rb))
        assert err <= bound(n, "float32"), err
        ai = ref(host(xp.linalg.inv(xp.asarray(a))))
        err = np.linalg.norm(ra @ ai - np.eye(n)) / (np.linalg.norm(ra) * np.linalg.norm(ai))
        assert err <= bound(n, "float32"), err
        s, la = xp.linalg.slogdet(xp.asarray(a))
        s0, l0 = np.linalg.slogdet(ra)
        np.testing.assert_array_equal(host(s), s0)
        np.testing.assert_allclose(host(la), l0, rtol=1e-4)
        d = host(xp.linalg.det(xp.asarray(a / np.exp(l0 / n)[..., None, None])))
        np.testing.assert_allclose(d, s0, rtol=1e-2)
    bad = random(rng, (300, 300), "float32")
    bad[:, 200] = 0
    with pytest.raises(InvalidArgument, match="Singular"):
        xp.linalg.solve(xp.asarray(bad), xp.asarray(b[0, :, :1].repeat(2, 0)[:300]))
    with pytest.raises(InvalidArgument, match="Singular"):
        xp.linalg.inv(xp.asarray(bad))
    assert host(xp.linalg.det(xp.asarray(bad))) == 0
    from numr_array_api.backends.webgpu.ops.linalg.tslu import TsluApplySpec, TsluSpec
    specs = list(xp.asarray([0])._data.client._kernels)
    if variant.get("LU_TSLU_SOLO"):
        assert any(isinstance(sp, TsluSpec) and sp.solo for sp in specs)
    if variant.get("LINALG_TRUSTED", True):
        assert any(isinstance(sp, TsluSpec) and sp.trusted and sp.final for sp in specs)
        assert any(isinstance(sp, TsluApplySpec) and sp.trusted for sp in specs)
        from numr_array_api.backends.webgpu.ops.linalg.specs import TrsmTileSpec
        assert any(isinstance(sp, TrsmTileSpec) and sp.trusted for sp in specs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [3, 8, 17, 32])
def test_batch_cholesky_kernel(xp, n, dtype, knobs, launches):
    """BatchCholSpec (the warp kernels off): lower and upper factors against NumPy, a
    member that is not positive definite raising, a NaN member raising, entries of
    1e+-30 (float32) / 1e+-300 (float64), and the spec checked to be the one that ran."""
    _needs(xp, dtype)
    knobs(BWARP=False)
    rng = np.random.default_rng(n)
    big = 1e30 if dtype in ("float32", "complex64") else 1e300
    for scale in (1.0, big, 1 / big):
        a = (ref(spd(random(rng, (40, n, n), dtype))) * scale).astype(dtype)
        low = ref(host(xp.linalg.cholesky(xp.asarray(a))))
        up = ref(host(xp.linalg.cholesky(xp.asarray(a), upper=True)))
        want = np.linalg.cholesky(ref(a))
        tol = bound(n, dtype) * np.abs(want).max()
        assert np.abs(low - want).max() <= tol, (scale, np.abs(low - want).max())
        assert np.abs(up - ct(want)).max() <= tol
    assert "BatchCholSpec" in launches
    bad = ref(spd(random(rng, (5, n, n), dtype))).astype(dtype)
    bad[3, n - 1, n - 1] = -abs(bad[3, n - 1, n - 1])
    with pytest.raises(InvalidArgument):
        xp.linalg.cholesky(xp.asarray(bad))
    bad[3, n - 1, n - 1] = np.nan
    with pytest.raises(InvalidArgument):
        xp.linalg.cholesky(xp.asarray(bad))
