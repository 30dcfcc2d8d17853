"""gemm_epilogue / gemm_epilogue_bwd against float64 NumPy references."""

import numpy as np
import pytest
from scipy import special

from numr_array_api._core.errors import DTypeMismatch, InvalidArgument, ShapeMismatch
from numr_array_api.ext import linalg
from numr_array_api._algorithms.gemm import activations, numpy_impl, portable

from ext_testutil import from_numpy, to_numpy

C, A = 0.7978845608, 0.044715

REF = {
    "none": lambda x: x,
    "relu": lambda x: np.maximum(x, 0.0),
    "gelu": lambda x: 0.5 * x * (1.0 + np.tanh(C * (x + A * x**3))),
    "gelu_erf": lambda x: 0.5 * x * (1.0 + special.erf(x / np.sqrt(2.0))),
    "silu": lambda x: x * special.expit(x),
    "sigmoid": special.expit,
    "tanh": np.tanh,
}


def _dgelu(x):
    t = np.tanh(C * (x + A * x**3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t**2) * C * (1 + 3 * A * x**2)


DREF = {
    "none": lambda x: np.ones_like(x),
    "relu": lambda x: (x > 0).astype(x.dtype),
    "gelu": _dgelu,
    "gelu_erf": lambda x: 0.5 * (1 + special.erf(x / np.sqrt(2))) + x * np.exp(-x * x / 2) / np.sqrt(2 * np.pi),
    "silu": lambda x: special.expit(x) * (1 + x * (1 - special.expit(x))),
    "sigmoid": lambda x: special.expit(x) * (1 - special.expit(x)),
    "tanh": lambda x: 1 - np.tanh(x) ** 2,
}

# (a shape, b shape): 2-D, batched, broadcast batch both ways, K=1, K=0, empty M, empty N
SHAPES = [
    ((5, 7), (7, 3)),
    ((2, 5, 7), (2, 7, 3)),
    ((4, 5, 7), (7, 3)),
    ((5, 7), (4, 7, 3)),
    ((2, 1, 5, 7), (3, 7, 3)),
    ((6, 1), (1, 4)),
    ((3, 0), (0, 4)),
    ((0, 7), (7, 3)),
    ((5, 7), (7, 0)),
    ((2, 0, 7), (7, 3)),
]
TOL = {"float64": dict(rtol=1e-12, atol=1e-13), "float32": dict(rtol=2e-5, atol=2e-5)}


def _out_shape(sa, sb):
    return np.broadcast_shapes(sa[:-2], sb[:-2]) + (sa[-2], sb[-1])


def _data(sa, sb, seed=0, scale=1.5):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(sa) * scale / np.sqrt(max(sa[-1], 1))
    b = rng.standard_normal(sb) * scale
    bias = rng.standard_normal(sb[-1])
    return a, b, bias, rng


def _dtype(xp, name):
    return getattr(xp, name)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("activation", activations.ACTIVATIONS)
@pytest.mark.parametrize("sa,sb", SHAPES)
def test_forward_matches_reference(xp, sa, sb, activation, dtype):
    a, b, bias, rng = _data(sa, sb)
    out_shape = _out_shape(sa, sb)
    residual = rng.standard_normal(out_shape)
    ref = REF[activation](a @ b + bias) + residual
    cast = lambda v: xp.astype(from_numpy(xp, v), _dtype(xp, dtype))
    got = linalg.gemm_epilogue(cast(a), cast(b), cast(bias), activation=activation,
                               residual=cast(residual))
    assert type(got) is type(cast(a))
    assert got.dtype == _dtype(xp, dtype)
    assert tuple(got.shape) == out_shape
    np.testing.assert_allclose(to_numpy(got), ref, **TOL[dtype])


@pytest.mark.parametrize("res_shape", [None, "full", "row", "matrix", "batch1"])
@pytest.mark.parametrize("use_bias", [True, False])
def test_bias_and_residual_variants(xp, res_shape, use_bias):
    sa, sb = (3, 4, 6), (6, 5)
    a, b, bias, rng = _data(sa, sb, seed=1)
    shapes = {None: None, "full": (3, 4, 5), "row": (5,), "matrix": (4, 5), "batch1": (3, 1, 5)}
    rs = shapes[res_shape]
    residual = None if rs is None else rng.standard_normal(rs)
    pre = a @ b + (bias if use_bias else 0)
    ref = REF["gelu"](pre) + (0 if residual is None else residual)
    got = linalg.gemm_epilogue(from_numpy(xp, a), from_numpy(xp, b),
                               from_numpy(xp, bias) if use_bias else None, activation="gelu",
                               residual=None if residual is None else from_numpy(xp, residual))
    np.testing.assert_allclose(to_numpy(got), ref, **TOL["float64"])


def test_large_blocks_and_extreme_values():
    # several epilogue blocks, column blocking (N larger than a block), extreme inputs
    rng = np.random.default_rng(2)
    for sa, sb in (((300, 8), (8, 700)), ((3, 9), (9, 40000))):
        a = rng.standard_normal(sa) * 60
        b = rng.standard_normal(sb)
        bias = rng.standard_normal(sb[-1])
        res = rng.standard_normal((sa[0], sb[-1]))
        for act in activations.ACTIVATIONS:
            with np.errstate(over="ignore"):
                ref = REF[act](a @ b + bias) + res
            got = linalg.gemm_epilogue(a, b, bias, activation=act, residual=res)
            np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("activation", activations.ACTIVATIONS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_numpy_fused_is_bitwise_the_unfused_formula(activation, dtype):
    # the in-place NumPy epilogue performs the same operations as the portable formula
    a, b, bias, _ = _data((2, 33, 17), (17, 29), seed=3, scale=4.0)
    a, b, bias = a.astype(dtype), b.astype(dtype), bias.astype(dtype)
    fused = numpy_impl.gemm_epilogue(a, b, bias, None, activation=activation, dtype=dtype)
    with np.errstate(over="ignore"):
        unfused = portable.gemm_epilogue(np, a, b, bias, None, activation=activation, dtype=dtype)
    np.testing.assert_array_equal(fused, unfused)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_series_erf_accuracy(xp, dtype):
    z = np.linspace(-8, 8, 4001)
    x = xp.astype(from_numpy(xp, z), _dtype(xp, dtype))
    got = to_numpy(activations._series_erf(xp, x)).astype(np.float64)
    ref = special.erf(to_numpy(x).astype(np.float64))
    tol = 2e-15 if dtype == "float64" else 1e-6
    assert np.max(np.abs(got - ref)) <= tol


def test_promotion_and_namespace():
    a = np.ones((2, 3), np.float32)
    b = np.ones((3, 4), np.float64)
    out = linalg.gemm_epilogue(a, b)
    assert out.dtype == np.float64 and isinstance(out, np.ndarray)


# ---- backward ---------------------------------------------------------------------------

def _ref_grads(g, a, b, bias, activation):
    pre = a @ b + (0 if bias is None else bias)
    gp = g * DREF[activation](pre)
    da = gp @ np.swapaxes(b, -1, -2)
    db = np.swapaxes(a, -1, -2) @ gp

    def reduce(x, shape):
        while x.ndim > len(shape):
            x = x.sum(axis=0)
        for i, s in enumerate(shape):
            if s == 1 and x.shape[i] != 1:
                x = x.sum(axis=i, keepdims=True)
        return x

    dbias = None if bias is None else gp.sum(axis=tuple(range(gp.ndim - 1)))
    return reduce(da, a.shape), reduce(db, b.shape), dbias


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("activation", activations.ACTIVATIONS)
@pytest.mark.parametrize("sa,sb", SHAPES)
def test_backward_matches_analytic(xp, sa, sb, activation, dtype):
    a, b, bias, rng = _data(sa, sb, seed=4)
    g = rng.standard_normal(_out_shape(sa, sb))
    ref = _ref_grads(g, a, b, bias, activation)
    cast = lambda v: xp.astype(from_numpy(xp, v), _dtype(xp, dtype))
    got = linalg.gemm_epilogue_bwd(cast(g), cast(a), cast(b), cast(bias), activation=activation)
    tol = dict(rtol=1e-11, atol=1e-12) if dtype == "float64" else dict(rtol=1e-4, atol=1e-4)
    for r, x in zip(ref, got):
        assert tuple(x.shape) == r.shape
        np.testing.assert_allclose(to_numpy(x), r, **tol)


def test_backward_without_bias(xp):
    a, b, _, rng = _data((3, 4, 5), (5, 2), seed=5)
    g = rng.standard_normal((3, 4, 2))
    da, db, dbias = linalg.gemm_epilogue_bwd(from_numpy(xp, g), from_numpy(xp, a), from_numpy(xp, b),
                                             activation="silu")
    assert dbias is None
    ref = _ref_grads(g, a, b, None, "silu")
    np.testing.assert_allclose(to_numpy(da), ref[0], rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(to_numpy(db), ref[1], rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("activation", activations.ACTIVATIONS)
@pytest.mark.parametrize("sa,sb", [((3, 4), (4, 2)), ((2, 1, 3, 4), (3, 4, 2)), ((3, 4), (2, 4, 2))])
def test_backward_finite_differences(sa, sb, activation):
    a, b, bias, rng = _data(sa, sb, seed=6)
    out_shape = _out_shape(sa, sb)
    g = rng.standard_normal(out_shape)
    pre = a @ b + bias
    if activation == "relu" and np.min(np.abs(pre)) < 1e-3:
        pytest.skip("input too close to the ReLU kink")

    def loss(a_, b_, bias_):
        return float(np.sum(g * to_numpy(linalg.gemm_epilogue(a_, b_, bias_, activation=activation))))

    grads = linalg.gemm_epilogue_bwd(g, a, b, bias, activation=activation)
    h = 1e-6
    for i, x in enumerate((a, b, bias)):
        fd = np.zeros_like(x)
        for idx in np.ndindex(*x.shape):
            args = [a.copy(), b.copy(), bias.copy()]
            args[i][idx] += h
            up = loss(*args)
            args[i][idx] -= 2 * h
            fd[idx] = (up - loss(*args)) / (2 * h)
        np.testing.assert_allclose(grads[i], fd, rtol=1e-6, atol=1e-7)


def test_backward_batched_b_is_true_gradient():
    # numr's quirk put the whole batch sum in slice 0 of d_b; here each slice is its own
    a, b, bias, rng = _data((3, 4, 5), (3, 5, 2), seed=7)
    g = rng.standard_normal((3, 4, 2))
    _, db, _ = linalg.gemm_epilogue_bwd(g, a, b, bias, activation="tanh")
    for i in range(3):
        _, db_i, _ = linalg.gemm_epilogue_bwd(g[i], a[i], b[i], bias, activation="tanh")
        np.testing.assert_allclose(db[i], db_i, rtol=1e-13, atol=1e-14)


# ---- validation -------------------------------------------------------------------------

def test_errors_name_the_argument(xp):
    f = lambda *s: from_numpy(xp, np.ones(s))
    a, b = f(4, 3), f(3, 5)
    with pytest.raises(ShapeMismatch, match="'b'"):
        linalg.gemm_epilogue(a, f(4, 5))
    with pytest.raises(ShapeMismatch, match="'bias'"):
        linalg.gemm_epilogue(a, b, f(4))
    with pytest.raises(ShapeMismatch, match="'bias'"):
        linalg.gemm_epilogue(a, b, f(1, 5))
    with pytest.raises(ShapeMismatch, match="'residual'"):
        linalg.gemm_epilogue(a, b, residual=f(2, 4, 5))
    with pytest.raises(ShapeMismatch, match="'a'"):
        linalg.gemm_epilogue(f(3), b)
    with pytest.raises(ShapeMismatch, match="batch"):
        linalg.gemm_epilogue(f(2, 4, 3), f(3, 3, 5))
    with pytest.raises(InvalidArgument, match="'activation'"):
        linalg.gemm_epilogue(a, b, activation="gelu_fast")
    with pytest.raises(DTypeMismatch, match="'a'"):
        linalg.gemm_epilogue(xp.asarray([[1, 2]]), xp.asarray([[1], [2]]))
    with pytest.raises(DTypeMismatch, match="'bias'"):
        linalg.gemm_epilogue(a, b, xp.asarray([1, 2, 3, 4, 5]))
    with pytest.raises(ShapeMismatch, match="'grad'"):
        linalg.gemm_epilogue_bwd(f(4, 4), a, b)
    with pytest.raises(InvalidArgument, match="'activation'"):
        linalg.gemm_epilogue_bwd(f(4, 5), a, b, activation=None)
    # numr's errors are also the standard exception types
    with pytest.raises(ValueError):
        linalg.gemm_epilogue(a, f(4, 5))
    with pytest.raises(TypeError):
        linalg.gemm_epilogue(xp.asarray([[1, 2]]), xp.asarray([[1], [2]]))


def test_mixed_namespaces_rejected():
    import array_api_strict as xs

    with pytest.raises(DTypeMismatch):
        linalg.gemm_epilogue(np.ones((2, 2)), xs.ones((2, 2)))
