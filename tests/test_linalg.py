"""The linalg extension against NumPy float64 / complex128 references.

Inputs are well-conditioned (diagonally dominant) so float32 results can be held to a
relative tolerance; decompositions that are unique only up to signs or phases (eig, svd,
qr, eigh) are checked through their defining identities instead of elementwise.
"""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from _support import asxp, assert_dtype, get_dtype, to_numpy

FC = ("float32", "float64", "complex64", "complex128")
TOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10}
REAL = {"float32": "float32", "complex64": "float32", "float64": "float64",
        "complex128": "float64"}
COMPLEX = {"float32": "complex64", "complex64": "complex64", "float64": "complex128",
           "complex128": "complex128"}


@pytest.fixture(scope="session")
def la(xp):
    """The namespace: every backend has linalg kernels (the standard's linalg extension)."""
    return xp


def _matrices(rng, stack, m, n, dtype, dominant=True):
    a = rng.standard_normal(stack + (m, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(stack + (m, n))
    if dominant and m == n:
        a = a + 2 * n * np.eye(n)
    return a.astype(dtype)


def _close(actual, expected, dtype, scale=1.0, what="result"):
    assert_dtype(actual, dtype, what)
    got = to_numpy(actual).astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    exp = np.asarray(expected)
    assert got.shape == exp.shape, f"{what}: shape {got.shape} != {exp.shape}"
    tol = TOL[dtype]
    np.testing.assert_allclose(got, exp, rtol=tol, atol=tol * max(scale, 1.0), err_msg=what)


def _cast(r, dtype):
    return (r if np.dtype(dtype).kind == "c" else r.real).astype(dtype)


stacks = st.sampled_from([(), (0,), (1,), (3,), (2, 2)])
sizes = st.integers(0, 5)
fc_names = st.sampled_from(FC)
seeds = st.integers(0, 2**31 - 1)


@given(stack=stacks, n=sizes, name=fc_names, seed=seeds)
def test_inv_det_slogdet_solve(la, stack, n, name, seed):
    xp = la
    get_dtype(xp, name)
    a = _matrices(np.random.default_rng(seed), stack, n, n, name)
    ref = a.astype(COMPLEX[name] if a.dtype.kind == "c" else np.float64)
    x = asxp(xp, a)
    _close(xp.linalg.inv(x), np.linalg.inv(ref), name, what="inv")
    d = np.linalg.det(ref)
    _close(xp.linalg.det(x), d, name, scale=float(np.max(np.abs(d), initial=1)), what="det")
    sign, logabs = xp.linalg.slogdet(x)
    rs, rl = np.linalg.slogdet(ref)
    _close(sign, rs, name, what="slogdet.sign")
    _close(logabs, rl, REAL[name], scale=float(np.max(np.abs(rl), initial=1)),
           what="slogdet.logabsdet")
    b = np.random.default_rng(seed + 1).standard_normal((n,)).astype(name)
    _close(xp.linalg.solve(x, asxp(xp, b)), np.linalg.solve(ref, b.astype(ref.dtype)), name,
           what="solve (1-d x2)")
    assert xp.linalg.solve(x, asxp(xp, b)).shape == stack + (n,)


@given(name=fc_names, seed=seeds)
def test_solve_broadcasts_stacks(la, name, seed):
    xp = la
    get_dtype(xp, name)
    rng = np.random.default_rng(seed)
    a = _matrices(rng, (2, 1), 3, 3, name)
    b = _matrices(rng, (4,), 3, 2, name, dominant=False)
    r = xp.linalg.solve(asxp(xp, a), asxp(xp, b))
    assert r.shape == (2, 4, 3, 2)
    ref = np.linalg.solve(a.astype(np.complex128), b.astype(np.complex128))
    _close(r, ref if a.dtype.kind == "c" else ref.real, name)
    # a (M, K) x2 is always a stack of matrices, never a vector (NumPy 1 guessed here)
    sq = _matrices(rng, (), 3, 3, name, dominant=False)
    assert xp.linalg.solve(asxp(xp, a[0, 0]), asxp(xp, sq)).shape == (3, 3)


@given(stack=stacks, m=sizes, n=sizes, name=fc_names, seed=seeds, full=st.booleans())
def test_svd_qr_identities(la, stack, m, n, name, seed, full):
    xp = la
    get_dtype(xp, name)
    a = _matrices(np.random.default_rng(seed), stack, m, n, name, dominant=False)
    x = asxp(xp, a)
    u, s, vh = xp.linalg.svd(x, full_matrices=full)
    k = min(m, n)
    assert_dtype(u, name), assert_dtype(s, REAL[name]), assert_dtype(vh, name)
    assert u.shape == stack + ((m, m) if full else (m, k))
    assert vh.shape == stack + ((n, n) if full else (k, n))
    un, sn, vhn = to_numpy(u), to_numpy(s), to_numpy(vh)
    rebuilt = (un[..., :, :k] * sn[..., None, :]) @ vhn[..., :k, :]
    _close(xp.asarray(rebuilt), a, name, scale=3 * max(m, n), what="U S Vh")
    _close(xp.linalg.svdvals(x), np.linalg.svd(a.astype(np.complex128), compute_uv=False),
           REAL[name], scale=3 * max(m, n), what="svdvals")
    for mode in ("reduced", "complete"):
        q, r = xp.linalg.qr(x, mode=mode)
        assert_dtype(q, name), assert_dtype(r, name)
        qn, rn = to_numpy(q), to_numpy(r)
        assert np.array_equal(rn, np.triu(rn))
        _close(xp.asarray(qn @ rn), a, name, scale=3 * max(m, n), what=f"qr {mode}")


@given(stack=stacks, n=sizes, name=fc_names, seed=seeds)
def test_eigh_cholesky(la, stack, n, name, seed):
    xp = la
    get_dtype(xp, name)
    g = _matrices(np.random.default_rng(seed), stack, n, n, name)
    a = g @ np.conj(np.swapaxes(g, -1, -2))  # Hermitian positive definite
    x = asxp(xp, a)
    scale = float(np.max(np.abs(a), initial=1))
    w, v = xp.linalg.eigh(x)
    assert_dtype(w, REAL[name]), assert_dtype(v, name)
    ref_w = np.linalg.eigvalsh(a.astype(np.complex128))
    _close(w, ref_w, REAL[name], scale=scale, what="eigh eigenvalues")
    _close(xp.linalg.eigvalsh(x), ref_w, REAL[name], scale=scale, what="eigvalsh")
    vn = to_numpy(v).astype(np.complex128)
    rebuilt = (vn * to_numpy(w)[..., None, :]) @ np.conj(np.swapaxes(vn, -1, -2))
    _close(xp.asarray(_cast(rebuilt, a.dtype)), a, name, scale=scale, what="V diag(w) V^H")
    for upper in (False, True):
        c = to_numpy(xp.linalg.cholesky(x, upper=upper)).astype(np.complex128)
        assert np.array_equal(c, np.triu(c) if upper else np.tril(c))
        ch = np.conj(np.swapaxes(c, -1, -2))
        prod = ch @ c if upper else c @ ch
        _close(xp.asarray(_cast(prod, a.dtype)), a, name, scale=scale, what="cholesky")


@given(stack=stacks, n=sizes, name=fc_names, seed=seeds)
def test_eig_is_always_complex(la, stack, n, name, seed):
    xp = la
    get_dtype(xp, name)
    a = _matrices(np.random.default_rng(seed), stack, n, n, name)
    x = asxp(xp, a)
    w, v = xp.linalg.eig(x)
    ct = COMPLEX[name]
    assert_dtype(w, ct), assert_dtype(v, ct)
    assert_dtype(xp.linalg.eigvals(x), ct)
    wn, vn = to_numpy(w).astype(np.complex128), to_numpy(v).astype(np.complex128)
    scale = float(np.max(np.abs(a), initial=1)) * max(n, 1)
    _close(xp.asarray((a.astype(np.complex128) @ vn).astype(ct)),
           vn * wn[..., None, :], ct, scale=scale, what="A v = w v")
    # eigenvalues come in no defined order: match each to its nearest reference value
    ref = np.linalg.eigvals(a.astype(np.complex128)).reshape(-1, max(n, 1))
    got = to_numpy(xp.linalg.eigvals(x)).astype(np.complex128).reshape(-1, max(n, 1))
    for g, r in zip(got, ref):
        dist = np.abs(g[:, None] - r[None, :])
        tol = TOL[name] * scale
        assert np.all(dist.min(axis=1) <= tol) and np.all(dist.min(axis=0) <= tol), (g, r)


def test_eig_of_symmetric_real_matrix_is_complex(la):
    xp = la
    for name in ("float32", "float64"):
        x = xp.asarray([[2.0, 1.0], [1.0, 2.0]], dtype=getattr(xp, name))
        assert_dtype(xp.linalg.eigvals(x), COMPLEX[name])
        w, v = xp.linalg.eig(x)
        assert_dtype(w, COMPLEX[name]), assert_dtype(v, COMPLEX[name])


@given(stack=stacks, m=st.integers(1, 5), n=st.integers(1, 5), name=fc_names, seed=seeds,
       keepdims=st.booleans(),
       ord=st.sampled_from(["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf]))
def test_matrix_norm(la, stack, m, n, name, seed, keepdims, ord):
    xp = la
    get_dtype(xp, name)
    a = _matrices(np.random.default_rng(seed), stack, m, n, name, dominant=False)
    r = xp.linalg.matrix_norm(asxp(xp, a), keepdims=keepdims, ord=ord)
    ref = np.linalg.norm(a.astype(np.complex128), ord=ord, axis=(-2, -1), keepdims=keepdims) \
        if a.size else np.zeros(stack + ((1, 1) if keepdims else ()))
    _close(r, ref, REAL[name], scale=m * n, what=f"matrix_norm ord={ord}")


@given(shape=st.sampled_from([(0,), (5,), (2, 3), (2, 0, 3), (3, 2, 4)]), name=fc_names,
       seed=seeds, keepdims=st.booleans(), data=st.data(),
       ord=st.sampled_from([2, 1, 0, -1, -2, math.inf, -math.inf, 3, 0.5, -0.5, 40.0]))
def test_vector_norm(la, shape, name, seed, keepdims, data, ord):
    xp = la
    get_dtype(xp, name)
    a = _matrices(np.random.default_rng(seed), (), 1, math.prod(shape), name, False)
    a = a.reshape(shape)
    a[..., :1] = 0  # zeros exercise ord 0 and the negative orders
    axis = data.draw(st.sampled_from([None, -1, 0, tuple(range(len(shape)))]))
    r = xp.linalg.vector_norm(asxp(xp, a), axis=axis, keepdims=keepdims, ord=ord)
    ax = tuple(range(len(shape))) if axis is None else axis
    with np.errstate(all="ignore"):
        mag = np.abs(a.astype(np.complex128))
        if ord == math.inf:
            ref = np.max(mag, axis=ax, keepdims=keepdims, initial=0)
        elif ord == -math.inf:
            ref = np.min(mag, axis=ax, keepdims=keepdims, initial=np.inf)
        elif ord == 0:
            ref = np.sum(mag != 0, axis=ax, keepdims=keepdims).astype(float)
        else:
            ref = np.sum(mag ** ord, axis=ax, keepdims=keepdims) ** (1 / ord)
    _close(r, ref, REAL[name], what=f"vector_norm ord={ord} axis={axis}")


def test_vector_norm_large_order_does_not_overflow(la):
    xp = la
    x = xp.asarray([3e30, 4e30], dtype=xp.float32)
    r = float(xp.linalg.vector_norm(x, ord=5))
    assert math.isclose(r, (3.0 ** 5 + 4.0 ** 5) ** 0.2 * 1e30, rel_tol=1e-5)
    assert float(xp.linalg.vector_norm(xp.asarray([1.0, math.inf]), ord=3)) == math.inf


@given(stack=stacks, m=sizes, n=sizes, name=st.sampled_from(["float32", "float64"]), seed=seeds)
def test_pinv_matrix_rank(la, stack, m, n, name, seed):
    xp = la
    rng = np.random.default_rng(seed)
    k = min(m, n)
    rank = int(rng.integers(0, k + 1))
    a = (rng.standard_normal(stack + (m, rank)) @ rng.standard_normal(stack + (rank, n)))
    a = a.astype(name)
    x = asxp(xp, a)
    r = xp.linalg.matrix_rank(x)
    assert_dtype(r, xp.int64)
    assert r.shape == stack
    assert np.all(to_numpy(r) == rank)
    p = to_numpy(xp.linalg.pinv(x)).astype(np.float64)
    assert p.shape == stack + (n, m)
    _close(xp.asarray((a.astype(np.float64) @ p @ a).astype(name)), a, name,
           scale=10 * max(m, n, 1) ** 2, what="A pinv(A) A")
    # an rtol above 1 cuts every singular value
    assert np.all(to_numpy(xp.linalg.matrix_rank(x, rtol=1.5)) == 0)
    rt = xp.full(stack, 1.5, dtype=getattr(xp, name))
    assert np.all(to_numpy(xp.linalg.matrix_rank(x, rtol=rt)) == 0)


@given(stack=stacks, m=sizes, n=sizes, offset=st.integers(-6, 6),
       name=st.sampled_from(["bool", "int8", "uint16", "int32", "float32", "complex128"]),
       seed=seeds)
def test_diagonal_trace(la, stack, m, n, offset, name, seed):
    xp = la
    get_dtype(xp, name)
    a = (np.random.default_rng(seed).integers(0, 5, stack + (m, n))).astype(name)
    x = asxp(xp, a)
    d = xp.linalg.diagonal(x, offset=offset)
    assert_dtype(d, name)
    ref = np.diagonal(a, offset=offset, axis1=-2, axis2=-1)
    assert np.array_equal(to_numpy(d), ref)
    if d.size:
        # a copy: writing to it leaves x alone
        d[...] = xp.zeros(d.shape, dtype=d.dtype)
        assert np.array_equal(to_numpy(x), a)
    if name == "bool":
        return
    t = xp.linalg.trace(x, offset=offset)
    acc = {"int8": "int64", "uint16": "uint64", "int32": "int64"}.get(name, name)
    assert_dtype(t, acc)
    assert np.array_equal(to_numpy(t), np.trace(a, offset, -2, -1, dtype=acc))
    assert_dtype(xp.linalg.trace(x, offset=offset, dtype=xp.complex128), "complex128")


@given(name=st.sampled_from(["int16", "float32", "float64", "complex64"]), seed=seeds,
       n=sizes)
def test_matrix_power_outer_cross(la, name, seed, n):
    xp = la
    get_dtype(xp, name)
    rng = np.random.default_rng(seed)
    if name != "int16":
        a = _matrices(rng, (2,), n, n, name)
        ref = a.astype(np.complex128)
        for p in (-2, 0, 1, 3):
            _close(xp.linalg.matrix_power(asxp(xp, a), p),
                   np.linalg.matrix_power(ref, p).astype(COMPLEX[name]) if a.dtype.kind == "c"
                   else np.linalg.matrix_power(ref, p).real,
                   name, scale=float(np.max(np.abs(ref), initial=1)) ** 3, what=f"power {p}")
    u = rng.integers(-3, 4, (4, 3)).astype(name)
    v = rng.integers(-3, 4, (3,)).astype(name)
    c = xp.linalg.cross(asxp(xp, u), asxp(xp, v))
    assert_dtype(c, name)
    assert np.array_equal(to_numpy(c), np.cross(u, v))
    c0 = xp.linalg.cross(asxp(xp, u.T), asxp(xp, v[:, None]), axis=-2)
    assert np.array_equal(to_numpy(c0), np.cross(u.T, v[:, None], axis=-2))
    o = xp.linalg.outer(asxp(xp, u[:, 0]), asxp(xp, v))
    assert np.array_equal(to_numpy(o), np.outer(u[:, 0], v))


def test_float32_precision_is_kept(la):
    xp = la
    x = xp.asarray([[4.0, 1.0], [1.0, 3.0]], dtype=xp.float32)
    v = xp.asarray([1.0, 2.0], dtype=xp.float32)
    results = [xp.linalg.inv(x), xp.linalg.det(x), xp.linalg.cholesky(x), xp.linalg.pinv(x),
               xp.linalg.solve(x, v), xp.linalg.matrix_norm(x, ord=2),
               xp.linalg.matrix_norm(x, ord="nuc"), xp.linalg.vector_norm(x, ord=3),
               xp.linalg.matrix_power(x, -1), *xp.linalg.qr(x), *xp.linalg.svd(x),
               *xp.linalg.eigh(x), *xp.linalg.slogdet(x), xp.linalg.svdvals(x)]
    for r in results:
        assert_dtype(r, xp.float32)
    z = xp.asarray([[1 + 1j, 0], [0, 2]], dtype=xp.complex64)
    assert_dtype(xp.linalg.vector_norm(z), xp.float32)
    assert_dtype(xp.linalg.matrix_norm(z), xp.float32)
    assert_dtype(xp.linalg.slogdet(z).logabsdet, xp.float32)
    assert_dtype(xp.linalg.eigvalsh(z), xp.float32)


def test_namedtuples(la):
    xp = la
    x = xp.asarray([[2.0, 0.0], [0.0, 3.0]])
    assert xp.linalg.eigh(x)._fields == ("eigenvalues", "eigenvectors")
    assert xp.linalg.eig(x)._fields == ("eigenvalues", "eigenvectors")
    assert xp.linalg.qr(x)._fields == ("Q", "R")
    assert xp.linalg.slogdet(x)._fields == ("sign", "logabsdet")
    assert xp.linalg.svd(x)._fields == ("U", "S", "Vh")


@pytest.mark.strict_semantics
def test_invalid_input(la):
    from numr_array_api._core.errors import DTypeMismatch, InvalidArgument, ShapeMismatch
    xp = la
    rect = xp.ones((2, 3))
    sq = xp.eye(3)
    ints = xp.ones((3, 3), dtype=xp.int32)
    for f in (xp.linalg.inv, xp.linalg.det, xp.linalg.eig, xp.linalg.eigvals, xp.linalg.eigh,
              xp.linalg.cholesky, xp.linalg.slogdet, lambda a: xp.linalg.matrix_power(a, 2)):
        with pytest.raises(ShapeMismatch):
            f(rect)
        with pytest.raises(DTypeMismatch):
            f(ints)
    with pytest.raises(InvalidArgument):
        xp.linalg.inv(xp.ones(3))
    with pytest.raises(DTypeMismatch):
        xp.linalg.vector_norm(xp.ones(3, dtype=xp.int64))
    with pytest.raises(IndexError):
        xp.linalg.vector_norm(sq, axis=2)
    with pytest.raises(InvalidArgument):
        xp.linalg.matrix_norm(sq, ord="max")
    with pytest.raises(InvalidArgument):
        xp.linalg.matrix_norm(sq, ord=3)
    with pytest.raises(InvalidArgument):
        xp.linalg.qr(sq, mode="r")
    with pytest.raises(ShapeMismatch):
        xp.linalg.solve(sq, xp.ones(2))
    with pytest.raises(ShapeMismatch):
        xp.linalg.solve(xp.ones((2, 3, 3)), xp.ones((4, 3, 1)))
    with pytest.raises(ShapeMismatch):
        xp.linalg.cross(xp.ones(3), xp.ones(2))
    with pytest.raises(InvalidArgument):
        xp.linalg.cross(xp.ones((3, 3)), xp.ones((3, 3)), axis=0)
    with pytest.raises(InvalidArgument):
        xp.linalg.outer(sq, xp.ones(3))
    with pytest.raises(ValueError):  # a singular matrix, named as x
        xp.linalg.inv(xp.zeros((2, 2)))
    with pytest.raises(InvalidArgument):
        xp.linalg.cholesky(-sq)
    with pytest.raises(TypeError):
        xp.linalg.svd(sq, full_matrices=1)


def test_norms_of_empty_matrices(la):
    from numr_array_api._core.errors import InvalidArgument
    xp = la
    e = xp.ones((2, 0, 3))
    for ord in ("fro", "nuc", 1, 2, math.inf):
        r = xp.linalg.matrix_norm(e, ord=ord)
        assert r.shape == (2,) and np.all(to_numpy(r) == 0)
    for ord in (-1, -2, -math.inf):
        with pytest.raises(InvalidArgument):
            xp.linalg.matrix_norm(e, ord=ord)
    assert float(xp.linalg.vector_norm(xp.ones((0,)), ord=math.inf)) == 0
    assert float(xp.linalg.vector_norm(xp.ones((0,)), ord=-math.inf)) == math.inf
