"""The WebGPU kernels registered in ext (backends/webgpu/ext_kernels.py): fused GEMM
epilogue and its backward against the cpu path, that the fused kernel is what runs, and
Sobol bit-identity with the cpu results."""

import warnings

import numpy as np
import pytest

from _support import slow_beyond_cover, usable
from numr_array_api._algorithms import dispatch as _dispatch
from numr_array_api.ext import linalg, random as R


W = usable("webgpu")
pytestmark = pytest.mark.skipif(W is None, reason="numr_array_api.webgpu has no usable adapter")

if W is not None:
    from numr_array_api.backends.webgpu import ext_kernels
    from numr_array_api.backends.webgpu.ops import matmul as _mm
    from numr_array_api.backends.webgpu.ops.matmul import configs as _cfgs
    from numr_array_api.webgpu import HostFallbackWarning


def _host(x):
    return np.asarray(x.to_device("cpu"))


def _has(feature):
    return W.capabilities()["features"].get(feature, False)


DTYPES = [("float32", 2e-5, 1e-4), ("float16", 2e-2, None)]
if W is not None and _has("shader-f64") and _has("shader-int64"):
    DTYPES.insert(0, ("float64", 1e-12, 1e-11))

# (a shape, b shape, residual shape): 2-D, batched, broadcast batch, K = 1, empty M / N,
# tiles of both configurations (64 and 128) with ragged edges
SHAPES = [
    ((8, 5), (5, 4), (8, 4)),
    ((70, 33), (33, 130), (130,)),
    ((130, 17), (17, 150), (1, 150)),
    ((3, 9, 6), (3, 6, 5), (3, 9, 5)),
    ((3, 1, 9, 6), (2, 6, 5), (2, 9, 5)),
    ((2, 9, 6), (6, 5), (1, 1, 5)),
    ((9, 6), (4, 6, 5), (9, 5)),
    ((7, 1), (1, 6), (7, 6)),
    ((0, 4), (4, 5), (5,)),
    ((6, 4), (4, 0), (6, 0)),
]


def _inputs(rng, sa, sb, sr, dtn):
    return tuple(rng.standard_normal(s).astype(dtn) for s in (sa, sb, (sb[-1],), sr))


# every activation and every dtype at least once in CI, the whole grid with NUMR_TEST_SLOW=1
# (each pair compiles its own fused kernels: ~10 s on lavapipe)
@pytest.mark.parametrize("activation,dtype", slow_beyond_cover(
    linalg.ACTIVATIONS, DTYPES, ids=lambda a, d: f"{a}-{d[0]}"))
def test_fused_forward_matches_cpu(activation, dtype):
    dtn, tol, btol = dtype
    rng = np.random.default_rng(1)
    for i, (sa, sb, sr) in enumerate(SHAPES):
        a, b, c, r = _inputs(rng, sa, sb, sr, dtn)
        ref = linalg.gemm_epilogue(*(x.astype(np.float64) for x in (a, b, c)),
                                   activation=activation, residual=r.astype(np.float64))
        combos = ((c, r), (None, None), (c, None), (None, r))
        # bias / residual code does not depend on the activation: every combination on
        # every shape for "none", for the others the full epilogue and one more in turn
        # (each fused kernel is a compile: ~40 a test took minutes on lavapipe)
        if activation != "none":
            combos = (combos[0], combos[1 + i % 3])
        for bias, res in combos:
            out = linalg.gemm_epilogue(W.asarray(a), W.asarray(b),
                                       None if bias is None else W.asarray(bias),
                                       activation=activation,
                                       residual=None if res is None else W.asarray(res))
            assert out.dtype == getattr(W, dtn) and out.shape == ref.shape
            want = linalg.gemm_epilogue(*(x.astype(np.float64) for x in (a, b)),
                                        None if bias is None else bias.astype(np.float64),
                                        activation=activation,
                                        residual=None if res is None else res.astype(np.float64))
            np.testing.assert_allclose(_host(out).astype(np.float64), want, rtol=tol, atol=tol,
                                       err_msg=f"{sa} {sb} bias={bias is not None} "
                                               f"res={res is not None}")


@pytest.mark.parametrize("activation,dtype", slow_beyond_cover(
    linalg.ACTIVATIONS, [d for d in DTYPES if d[2]], ids=lambda a, d: f"{a}-{d[0]}"))
def test_backward_matches_cpu(activation, dtype):
    dtn, tol, btol = dtype
    rng = np.random.default_rng(2)
    for sa, sb, sr in SHAPES:
        a, b, c, _ = _inputs(rng, sa, sb, sr, dtn)
        out_shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
        g = rng.standard_normal(out_shape).astype(dtn)
        for bias in (c, None):
            got = linalg.gemm_epilogue_bwd(W.asarray(g), W.asarray(a), W.asarray(b),
                                           None if bias is None else W.asarray(bias),
                                           activation=activation)
            want = linalg.gemm_epilogue_bwd(g.astype(np.float64), a.astype(np.float64),
                                            b.astype(np.float64),
                                            None if bias is None else bias.astype(np.float64),
                                            activation=activation)
            for x, y in zip(got, want):
                if y is None:
                    assert x is None
                    continue
                assert x.shape == y.shape
                np.testing.assert_allclose(_host(x), y, rtol=btol, atol=btol,
                                           err_msg=f"{sa} {sb}")


def test_mixed_dtypes_promote():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((5, 3)).astype(np.float32)
    b = rng.standard_normal((3, 4)).astype(np.float16)
    out = linalg.gemm_epilogue(W.asarray(a), W.asarray(b), activation="silu")
    assert out.dtype == W.float32
    ref = linalg.gemm_epilogue(a.astype(np.float64), b.astype(np.float64), activation="silu")
    np.testing.assert_allclose(_host(out), ref, rtol=2e-5, atol=2e-5)


def test_strided_views_read_in_place():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((12, 20)).astype(np.float32)
    bt = rng.standard_normal((9, 20)).astype(np.float32)
    r = rng.standard_normal((6, 9)).astype(np.float32)
    wa = W.asarray(a)[::2, ::-1]        # (6, 20) flipped columns
    wb = W.matrix_transpose(W.asarray(bt))  # (20, 9) transposed view
    out = linalg.gemm_epilogue(wa, wb, activation="gelu", residual=W.asarray(r))
    ref = linalg.gemm_epilogue(_host(wa).astype(np.float64), _host(wb).astype(np.float64),
                               activation="gelu", residual=r.astype(np.float64))
    np.testing.assert_allclose(_host(out), ref, rtol=2e-5, atol=2e-5)


def test_registered_kernels_are_used(monkeypatch):
    for op in ("gemm_epilogue", "gemm_epilogue_bwd", "sobol"):
        assert _dispatch.lookup(op, W) is not _dispatch._PORTABLE[op]
    from numr_array_api._algorithms.gemm import portable

    def boom(*a, **k):
        raise AssertionError("portable path used")

    monkeypatch.setattr(portable, "gemm_epilogue", boom)
    calls = []
    real = _mm.gemm

    def spy(a, b, epilogue=None):
        calls.append(epilogue)
        return real(a, b, epilogue)

    monkeypatch.setattr(_mm, "gemm", spy)
    client = W._backend._client(W._ctx.resolve_device(None))
    rng = np.random.default_rng(5)
    a = W.asarray(rng.standard_normal((3, 37, 11)).astype(np.float32))
    b = W.asarray(rng.standard_normal((11, 29)).astype(np.float32))
    c = W.asarray(rng.standard_normal(29).astype(np.float32))
    r = W.asarray(rng.standard_normal((37, 29)).astype(np.float32))
    before = client.pipelines.stats()
    with warnings.catch_warnings():
        warnings.simplefilter("error", HostFallbackWarning)
        out = linalg.gemm_epilogue(a, b, c, activation="tanh", residual=r)
        W.synchronize()
    assert len(calls) == 1 and calls[0] is not None and calls[0].spec.activation == "tanh"
    assert client.pipelines.stats() != before      # a new (epilogue) pipeline was built
    assert out.shape == (3, 37, 29)
    # the backward's grad_pre is one fused dispatch in derivative mode
    calls.clear()
    linalg.gemm_epilogue_bwd(out, a, b, c, activation="tanh")
    assert calls[0] is not None and calls[0].deriv


SOBOL_CASES = [
    (100, 3, dict(skip=5)),
    (64, 4, dict(scramble=True, seed=1)),
    (1000, 7, dict(skip=123, bits=20, scramble=True, seed=3)),
    (500, 5, dict(skip=2**32 - 600, bits=32)),
    (300, 2, dict(bits=32, scramble=True, seed=5)),
    (257, 40, dict(skip=2**24 - 100, bits=30, scramble=True, seed=7)),
    (16, 1, dict(bits=4)),
    (0, 3, dict()),
    (5000, 1, dict(bits=24, skip=2**24 - 5000)),
]


@pytest.mark.parametrize("dtn", ["float64", "float32"])
@pytest.mark.parametrize("n,d,kw", SOBOL_CASES)
def test_sobol_bit_identical_to_cpu(dtn, n, d, kw):
    if dtn == "float64" and not _has("shader-f64"):
        pytest.skip("adapter lacks shader-f64")
    x = R.sobol(n, d, dtype=getattr(W, dtn), xp=W, **kw)
    y = R.sobol(n, d, dtype=getattr(np, dtn), xp=np, **kw)
    assert x.shape == (n, d) and x.dtype == getattr(W, dtn)
    np.testing.assert_array_equal(_host(x), y)
    if dtn == "float32" and n:
        assert float(_host(x).max()) < 1.0


def test_sobol_kernel_used_and_directions_cached(monkeypatch):
    from numr_array_api._algorithms.qmc import sobol as S

    def boom(*a, **k):
        raise AssertionError("portable Sobol used")

    monkeypatch.setattr(S, "sobol_portable", boom)
    ext_kernels._DIR_CACHE.clear()
    R.sobol(128, 6, dtype=W.float32, xp=W)
    R.sobol(128, 6, skip=128, dtype=W.float64, xp=W) if _has("shader-f64") else None
    assert len(ext_kernels._DIR_CACHE) == 1


@pytest.mark.parametrize("dtn", [d[0] for d in DTYPES if d[0] != "float16"])
@pytest.mark.parametrize("activation", linalg.ACTIVATIONS)
def test_extreme_values_and_nan(dtn, activation):
    # overflowing exp (sigmoid / silu limits), saturated tanh / erf, NaN propagation (relu)
    x = np.array([[-1e4, -100., -30., -1e-3, 0., 1e-3, 30., 100., 1e4, np.nan]]).T.astype(dtn)
    one = np.ones((1, 1), dtn)
    got = _host(linalg.gemm_epilogue(W.asarray(x), W.asarray(one), activation=activation))
    ref = linalg.gemm_epilogue(x, one, activation=activation)
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-30, equal_nan=True)
    g = np.ones_like(ref)
    got = _host(linalg.gemm_epilogue_bwd(W.asarray(g), W.asarray(x), W.asarray(one),
                                         activation=activation)[0])
    ref = linalg.gemm_epilogue_bwd(g, x, one, activation=activation)[0]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-30, equal_nan=True)


@pytest.mark.parametrize("loop", [False, True])
def test_epilogue_store_forms(monkeypatch, loop):
    """Both store forms of the fused epilogue (GemmSpec.epi_loop): one loop over the
    thread's outputs (CPU adapters' default: one inlined copy of the activation, the erf
    kernels compiled in seconds instead of minutes) and one store a register (GPUs'), each
    through the simple, double-buffered and vec4-store GEMMs, against float64."""
    from numr_array_api import tuning
    with tuning.override(GEMM_EPI_LOOP=loop):
        _store_forms(monkeypatch, loop)


def _store_forms(monkeypatch, loop):
    client = W._backend._client(W._ctx.resolve_device(None))
    specs = []
    real = client.kernel

    def spy(spec):
        specs.append(spec)
        return real(spec)

    monkeypatch.setattr(client, "kernel", spy)
    rng = np.random.default_rng(6)
    # ragged edges, a broadcast batch, full vec4-aligned tiles, a batched ragged M
    shapes = [SHAPES[1], SHAPES[4], ((64, 32), (32, 64), (64, 64)),
              ((2, 70, 36), (36, 132), (132,))]
    # the built-in choice (double-buffered), then the simple kernels: vec4 tiles (float32),
    # scalar tiles (the others)
    for pin in (False, True):
        for dtn, tol, _ in DTYPES:
            if pin:
                _cfgs.force(dtn, "4x4k16v" if dtn == "float32" else "4x4k8")
            try:
                for sa, sb, sr in shapes:
                    a, b, c, r = _inputs(rng, sa, sb, sr, dtn)
                    out = linalg.gemm_epilogue(W.asarray(a), W.asarray(b), W.asarray(c),
                                               activation="silu", residual=W.asarray(r))
                    want = linalg.gemm_epilogue(*(x.astype(np.float64) for x in (a, b, c)),
                                                activation="silu", residual=r.astype(np.float64))
                    np.testing.assert_allclose(_host(out).astype(np.float64), want, rtol=tol,
                                               atol=tol, err_msg=f"{dtn} {sa} {sb} {pin} {loop}")
            finally:
                _cfgs.force(dtn, None)
    fused = [s for s in specs if getattr(s, "epilogue", None) is not None]
    assert fused and all(s.epi_loop == loop for s in fused)
    kinds = {("db" if s.cfg.db else "vec" if s.cfg.vec else "scalar") +
             ("-vstore" if s.vstore else "") for s in fused}
    assert {"vec", "scalar", "db", "db-vstore"} <= kinds, kinds


def test_epilogue_store_form_default_follows_the_adapter():
    """GEMM_EPI_LOOP: on for CPU adapters (their tuning table), off for the others."""
    from numr_array_api import tuning
    from numr_array_api.backends.webgpu.runtime.adapters import is_cpu
    client = W._backend._client(W._ctx.resolve_device(None))
    assert tuning.get("GEMM_EPI_LOOP", client) == is_cpu(client.info)
    assert tuning.get("GEMM_EPI_LOOP") is False
    with tuning.override(GEMM_EPI_LOOP=False):
        assert not tuning.get("GEMM_EPI_LOOP", client)
