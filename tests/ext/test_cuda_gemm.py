"""numr cuda's gemm_epilogue / gemm_epilogue_bwd (backends/cuda_runtime/gemm.py): both paths
(cuBLASLt fused epilogue, cuBLAS + one fused elementwise kernel) and auto, against float64
NumPy references. The GPU tests skip without numr_array_api.cuda and a device; the
binding-table and fallback-policy tests run everywhere."""

import warnings

import numpy as np
import pytest

from numr_array_api._core import environment
from numr_array_api._core.errors import BackendLimitation, InvalidArgument
from numr_array_api.backends.cuda_runtime import cublaslt, gemm
from numr_array_api._algorithms import dispatch as _dispatch
from numr_array_api.ext import linalg
from numr_array_api._algorithms.gemm import activations

from _support import usable
from test_gemm_epilogue import REF, _ref_grads


CUDA = usable("cuda")
needs_cuda = pytest.mark.skipif(CUDA is None, reason="numr_array_api.cuda has no usable device "
                                                     "(needs CuPy and a CUDA GPU)")

ACTS = activations.ACTIVATIONS
TOL = {"float64": dict(rtol=1e-12, atol=1e-12), "float32": dict(rtol=3e-5, atol=3e-5),
       "float16": dict(rtol=1e-2, atol=1e-2)}
BWD_TOL = {"float64": dict(rtol=1e-11, atol=1e-11), "float32": dict(rtol=1e-4, atol=1e-4),
           "float16": dict(rtol=3e-2, atol=3e-2)}
# (a shape, b shape): 2-D, equal batch, a batched with 2-D b (folded), broadcast batch
SHAPES = {"2d": ((64, 48), (48, 40)), "batched": ((3, 16, 24), (3, 24, 20)),
          "fold": ((4, 16, 24), (24, 20)), "bcast": ((2, 1, 8, 12), (3, 12, 10))}


@pytest.fixture(autouse=True)
def _fresh_mode():
    """NUMR_CUDA_GEMM_EPILOGUE is read once: a test that set it leaves it read again."""
    yield
    environment.reload(gemm.ENV_VAR)


def _set_mode(monkeypatch, mode):
    monkeypatch.setenv(gemm.ENV_VAR, mode)
    environment.reload(gemm.ENV_VAR)


# ---- everywhere: binding tables and policy ----------------------------------------------

def test_heuristic_result_layout():
    # cublasLtMatmulHeuristicResult_t: algo (64) + size_t + status + float + int[4] = 96 bytes
    assert cublaslt.ctypes.sizeof(cublaslt._Algo) == 64
    assert cublaslt.ctypes.sizeof(cublaslt._HeuristicResult) == 96


def test_epilogue_table():
    E = cublaslt
    assert E.epilogue_for("none", True, "f") == E.CUBLASLT_EPILOGUE_BIAS == 4
    assert E.epilogue_for("relu", True, "e") == E.CUBLASLT_EPILOGUE_RELU_BIAS == 2 | 4
    assert E.epilogue_for("gelu", True, "f") == E.CUBLASLT_EPILOGUE_GELU_BIAS == 32 | 4
    assert E.epilogue_for("gelu", False, "f") == E.CUBLASLT_EPILOGUE_GELU == 32
    assert E.epilogue_for("none", False, "d") == E.CUBLASLT_EPILOGUE_DEFAULT == 1
    assert E.epilogue_for("gelu", True, "d") is None  # constants differ at float64 precision
    for act in ("gelu_erf", "silu", "sigmoid", "tanh"):
        assert E.epilogue_for(act, True, "f") is None


def test_kernel_sources_cover_every_activation():
    assert set(gemm._FWD) == set(ACTS)
    assert set(gemm._DERIV) == set(ACTS) - {"none"}
    assert repr(activations.GELU_C) in gemm._FWD["gelu"]  # numr's constants, verbatim
    assert repr(activations.GELU_A) in gemm._DERIV["gelu"]


def test_unavailable_library_reports_reason(monkeypatch):
    cublaslt._reset_for_tests()
    monkeypatch.setattr(cublaslt, "_load", lambda: (None, "simulated: no libcublasLt", None))
    try:
        ok, reason = cublaslt.status()
        assert not ok and "simulated" in reason
        assert cublaslt.library() is None
    finally:
        cublaslt._reset_for_tests()


def test_bad_mode_rejected(monkeypatch):
    _set_mode(monkeypatch, "fastest")
    with pytest.raises(InvalidArgument, match=gemm.ENV_VAR):
        gemm.selected_mode()
    _set_mode(monkeypatch, "Fused")
    assert gemm.selected_mode() == "fused"


# ---- GPU ----------------------------------------------------------------------------------

def _out_shape(sa, sb):
    return np.broadcast_shapes(sa[:-2], sb[:-2]) + (sa[-2], sb[-1])


def _data(sa, sb, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(sa) * 1.5 / np.sqrt(sa[-1])).astype(dtype)
    b = rng.standard_normal(sb).astype(dtype)
    bias = rng.standard_normal(sb[-1]).astype(dtype)
    return a, b, bias, rng


def _host(x):
    return np.asarray(x.to_device("cpu")) if hasattr(x, "to_device") else x.get()


def _impl(op="gemm_epilogue"):
    return _dispatch.lookup(op, CUDA)


def _call(path, a, b, bias, res, activation):
    """The registered implementation with a forced path (the public function has no path=)."""
    dt = linalg._result_dtype(CUDA, (("a", a), ("b", b), ("bias", bias), ("residual", res)))
    return _impl()(CUDA, a, b, bias, res, activation=activation, dtype=dt, path=path)


def _cublaslt_should_serve(activation, use_bias, dtype, shape_name, res_kind=None):
    if cublaslt.epilogue_for(activation, use_bias, np.dtype(dtype).char) is None:
        return False
    if shape_name == "bcast":
        return False
    return res_kind is None or (res_kind == "full" and activation == "none")


def _run_path(path, args, activation, expect_served):
    """Run ``path``; for the strict cuBLASLt path, check that it refuses exactly what it
    should, and skip (naming the status) when cuBLASLt itself declines a served case."""
    if path == "cublaslt":
        ok, why = cublaslt.status()
        if not ok:
            pytest.skip(f"cuBLASLt unavailable: {why}")
        if not expect_served:
            with pytest.raises(BackendLimitation):
                _call(path, *args, activation)
            return None
        try:
            return _call(path, *args, activation)
        except BackendLimitation as e:
            if "NOT_SUPPORTED" in str(e) or "no algorithm" in str(e):
                pytest.skip(f"cuBLASLt declined this case on this GPU: {e}")
            raise
    return _call(path, *args, activation)


@needs_cuda
@pytest.mark.parametrize("path", ["auto", "fused", "cublaslt"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("activation", ACTS)
@pytest.mark.parametrize("use_bias", [True, False])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_forward(shape, use_bias, activation, dtype, path):
    sa, sb = SHAPES[shape]
    a, b, bias, _ = _data(sa, sb, dtype)
    with np.errstate(over="ignore"):
        ref = REF[activation](a.astype(np.float64) @ b.astype(np.float64)
                              + (bias.astype(np.float64) if use_bias else 0))
    args = (CUDA.asarray(a), CUDA.asarray(b), CUDA.asarray(bias) if use_bias else None, None)
    got = _run_path(path, args, activation,
                    _cublaslt_should_serve(activation, use_bias, dtype, shape))
    if got is None:
        return
    assert got.__array_namespace__() is CUDA
    assert got.dtype == getattr(CUDA, dtype)
    assert tuple(got.shape) == _out_shape(sa, sb)
    np.testing.assert_allclose(_host(got).astype(np.float64), ref, **TOL[dtype])


@needs_cuda
@pytest.mark.parametrize("path", ["auto", "fused", "cublaslt"])
@pytest.mark.parametrize("activation", ["none", "relu", "gelu", "silu"])
@pytest.mark.parametrize("res_kind", ["full", "row", "matrix", "batch1"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_residual_variants(dtype, res_kind, activation, path):
    sa, sb = (3, 16, 24), (3, 24, 20)
    a, b, bias, rng = _data(sa, sb, dtype, seed=1)
    rs = {"full": (3, 16, 20), "row": (20,), "matrix": (16, 20), "batch1": (3, 1, 20)}[res_kind]
    res = rng.standard_normal(rs).astype(dtype)
    ref = REF[activation](a.astype(np.float64) @ b + bias) + res
    args = (CUDA.asarray(a), CUDA.asarray(b), CUDA.asarray(bias), CUDA.asarray(res))
    got = _run_path(path, args, activation,
                    _cublaslt_should_serve(activation, True, dtype, "batched", res_kind))
    if got is not None:
        np.testing.assert_allclose(_host(got), ref, **TOL[dtype])


@needs_cuda
def test_mixed_dtypes_promote_and_cast_in_kernel():
    a, b, bias, rng = _data((32, 16), (16, 24), np.float16, seed=2)
    res = rng.standard_normal((32, 24)).astype(np.float32)
    ref = REF["silu"](a.astype(np.float64) @ b.astype(np.float64) + bias) + res
    for path in ("auto", "fused"):
        got = _call(path, CUDA.asarray(a), CUDA.asarray(b), CUDA.asarray(bias),
                    CUDA.asarray(res), "silu")
        assert got.dtype == CUDA.float32
        np.testing.assert_allclose(_host(got), ref, rtol=2e-3, atol=2e-3)  # f16 inputs


@needs_cuda
@pytest.mark.parametrize("path", ["auto", "fused"])
@pytest.mark.parametrize("activation", ["relu", "gelu", "tanh"])
def test_non_contiguous_inputs(activation, path):
    rng = np.random.default_rng(3)
    at = rng.standard_normal((24, 40))  # a is its transpose view
    bw = rng.standard_normal((24, 60))  # b is every other column
    biasw = rng.standard_normal(60)  # bias is every other element
    rt = rng.standard_normal((30, 40))  # residual is its transpose view
    ref = REF[activation](at.T @ bw[:, ::2] + biasw[::2]) + rt.T
    A = CUDA.matrix_transpose(CUDA.asarray(at))
    B = CUDA.asarray(bw)[:, ::2]
    bias = CUDA.asarray(biasw)[::2]
    R = CUDA.matrix_transpose(CUDA.asarray(rt))
    got = _call(path, A, B, bias, R, activation)
    np.testing.assert_allclose(_host(got), ref, **TOL["float64"])


@needs_cuda
def test_strided_views_served_by_strict_cublaslt_are_refused():
    ok, why = cublaslt.status()
    if not ok:
        pytest.skip(f"cuBLASLt unavailable: {why}")
    at = CUDA.asarray(np.ones((8, 16)))
    b = CUDA.asarray(np.ones((8, 4)))
    with pytest.raises(BackendLimitation, match="non-contiguous"):
        _call("cublaslt", CUDA.matrix_transpose(at), b, CUDA.asarray(np.ones(4)), None, "relu")


@needs_cuda
@pytest.mark.parametrize("mode", ["auto", "fused", "cublaslt"])
def test_env_var_selects_path(monkeypatch, mode):
    _set_mode(monkeypatch, mode)
    a, b, bias, rng = _data((2, 32, 16), (2, 16, 24), np.float32, seed=4)
    ref = REF["gelu"](a.astype(np.float64) @ b + bias)
    got = linalg.gemm_epilogue(CUDA.asarray(a), CUDA.asarray(b), CUDA.asarray(bias),
                               activation="gelu")
    np.testing.assert_allclose(_host(got), ref, **TOL["float32"])


@needs_cuda
def test_unavailable_cublaslt_falls_back(monkeypatch):
    cublaslt._reset_for_tests()
    monkeypatch.setattr(cublaslt, "_load", lambda: (None, "simulated: no libcublasLt", None))
    try:
        a, b, bias, _ = _data((64, 32), (32, 48), np.float32, seed=5)
        ref = REF["relu"](a.astype(np.float64) @ b + bias)
        for mode in ("auto", "cublaslt"):
            _set_mode(monkeypatch, mode)
            got = linalg.gemm_epilogue(CUDA.asarray(a), CUDA.asarray(b), CUDA.asarray(bias),
                                       activation="relu")
            np.testing.assert_allclose(_host(got), ref, **TOL["float32"])
        with pytest.raises(BackendLimitation, match="simulated"):
            _call("cublaslt", CUDA.asarray(a), CUDA.asarray(b), CUDA.asarray(bias), None, "relu")
    finally:
        cublaslt._reset_for_tests()


@needs_cuda
def test_failing_cublaslt_call_warns_once_and_falls_back(monkeypatch):
    if not cublaslt.status()[0]:
        pytest.skip("cuBLASLt unavailable")

    def boom(*args, **kwargs):
        raise cublaslt.CublasLtError("cublasLtMatmul", 13)  # EXECUTION_FAILED

    monkeypatch.setattr(cublaslt, "matmul", boom)
    monkeypatch.setattr(gemm, "_warned", set())
    a, b, bias, _ = _data((16, 8), (8, 12), np.float32, seed=6)
    ref = REF["relu"](a.astype(np.float64) @ b + bias)
    args = (CUDA.asarray(a), CUDA.asarray(b), CUDA.asarray(bias), None)
    with pytest.warns(RuntimeWarning, match="EXECUTION_FAILED"):
        got = _call("auto", *args, "relu")
    np.testing.assert_allclose(_host(got), ref, **TOL["float32"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _call("auto", *args, "relu")  # reported once
    with pytest.raises(BackendLimitation, match="EXECUTION_FAILED"):
        _call("cublaslt", *args, "relu")


@needs_cuda
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("activation", ACTS)
@pytest.mark.parametrize("shape", list(SHAPES) + ["bcast_a"])
@pytest.mark.parametrize("use_bias", [True, False])
def test_backward_matches_analytic(use_bias, shape, activation, dtype):
    sa, sb = SHAPES.get(shape, ((5, 7, 9), (3, 1, 9, 4)))
    a, b, bias, rng = _data(sa, sb, dtype, seed=7)
    g = rng.standard_normal(_out_shape(sa, sb)).astype(dtype)
    f64 = lambda x: x.astype(np.float64)
    if activation == "relu":
        # relu' jumps at 0: where the rounded pre-activation may sit on the other side of 0
        # than the float64 one, no gradient flows in, so either side is right
        z = f64(a) @ f64(b) + (f64(bias) if use_bias else 0.0)
        near = np.abs(z) < 64 * np.finfo(dtype).eps * max(1.0, float(np.max(np.abs(z))))
        g = np.where(near, 0, g).astype(dtype)
    ref = _ref_grads(f64(g), f64(a), f64(b), f64(bias) if use_bias else None, activation)
    got = linalg.gemm_epilogue_bwd(CUDA.asarray(g), CUDA.asarray(a), CUDA.asarray(b),
                                   CUDA.asarray(bias) if use_bias else None,
                                   activation=activation)
    assert (got[2] is None) == (not use_bias)
    for r, x in zip(ref, got):
        if r is None:
            continue
        assert tuple(x.shape) == r.shape and x.dtype == getattr(CUDA, dtype)
        scale = max(1.0, float(np.max(np.abs(r)))) if dtype == "float16" else 1.0
        tol = BWD_TOL[dtype]
        np.testing.assert_allclose(_host(x).astype(np.float64), r, rtol=tol["rtol"],
                                   atol=tol["atol"] * scale)


@needs_cuda
def test_empty_and_k_zero():
    for sa, sb in (((3, 0), (0, 4)), ((0, 7), (7, 3)), ((5, 7), (7, 0)), ((2, 0, 7), (7, 3))):
        a, b, bias, rng = _data(sa, sb, np.float64, seed=8)
        ref = REF["sigmoid"](a @ b + bias)
        got = linalg.gemm_epilogue(CUDA.asarray(a), CUDA.asarray(b), CUDA.asarray(bias),
                                   activation="sigmoid")
        np.testing.assert_allclose(_host(got), ref, **TOL["float64"])
        g = rng.standard_normal(ref.shape)
        refs = _ref_grads(g, a, b, bias, "sigmoid")
        gots = linalg.gemm_epilogue_bwd(CUDA.asarray(g), CUDA.asarray(a), CUDA.asarray(b),
                                        CUDA.asarray(bias), activation="sigmoid")
        for r, x in zip(refs, gots):
            np.testing.assert_allclose(_host(x), r, **TOL["float64"])


@needs_cuda
def test_plain_cupy_namespace():
    cupy = pytest.importorskip("cupy")
    a, b, bias, rng = _data((2, 16, 8), (8, 12), np.float32, seed=9)
    res = rng.standard_normal((16, 12)).astype(np.float32)
    ref = REF["tanh"](a.astype(np.float64) @ b + bias) + res
    out = linalg.gemm_epilogue(cupy.asarray(a), cupy.asarray(b), cupy.asarray(bias),
                               activation="tanh", residual=cupy.asarray(res))
    assert isinstance(out, cupy.ndarray)
    np.testing.assert_allclose(out.get(), ref, **TOL["float32"])
    g = rng.standard_normal(ref.shape).astype(np.float32)
    got = linalg.gemm_epilogue_bwd(cupy.asarray(g), cupy.asarray(a), cupy.asarray(b),
                                   cupy.asarray(bias), activation="tanh")
    for r, x in zip(_ref_grads(g.astype(np.float64), a.astype(np.float64),
                               b.astype(np.float64), bias.astype(np.float64), "tanh"), got):
        assert isinstance(x, cupy.ndarray)
        np.testing.assert_allclose(x.get(), r, **BWD_TOL["float32"])
