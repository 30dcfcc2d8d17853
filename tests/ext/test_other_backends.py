"""numr's GPU namespaces (webgpu, cuda) when they import and have a device: the portable
paths must give the CPU's bits for Sobol / Halton / LHS and close GEMM results."""


import numpy as np
import pytest

from _support import usable

from numr_array_api.ext import linalg, random as R


BACKENDS = [(n, xp) for n, xp in (("webgpu", usable("webgpu")), ("cuda", usable("cuda")))
            if xp is not None]

pytestmark = [
    pytest.mark.skipif(not BACKENDS, reason="no numr GPU namespace usable here"),
    pytest.mark.filterwarnings("ignore::Warning"),
]


@pytest.fixture(params=[xp for _, xp in BACKENDS], ids=[n for n, _ in BACKENDS])
def gpu(request):
    return request.param


def _host(x):
    return np.asarray(x.to_device("cpu"))


def test_sequences_identical_to_cpu(gpu):
    for dt in ("float64", "float32"):
        kw = dict(dtype=getattr(gpu, dt), xp=gpu)
        np_dt = getattr(np, dt)
        np.testing.assert_array_equal(_host(R.sobol(100, 3, skip=5, **kw)),
                                      R.sobol(100, 3, skip=5, dtype=np_dt, xp=np))
        np.testing.assert_array_equal(_host(R.sobol(64, 4, scramble=True, seed=1, **kw)),
                                      R.sobol(64, 4, scramble=True, seed=1, dtype=np_dt, xp=np))
        np.testing.assert_array_equal(_host(R.halton(50, 3, scramble=True, seed=2, **kw)),
                                      R.halton(50, 3, scramble=True, seed=2, dtype=np_dt, xp=np))
        np.testing.assert_array_equal(_host(R.latin_hypercube(10, 3, seed=2, **kw)),
                                      R.latin_hypercube(10, 3, seed=2, dtype=np_dt, xp=np))


@pytest.mark.parametrize("activation", linalg.ACTIVATIONS)
def test_gemm_close_to_cpu(gpu, activation):
    rng = np.random.default_rng(0)
    a, b, c = rng.standard_normal((2, 8, 5)), rng.standard_normal((5, 4)), rng.standard_normal(4)
    out = linalg.gemm_epilogue(gpu.asarray(a), gpu.asarray(b), gpu.asarray(c), activation=activation)
    assert out.__array_namespace__() is gpu
    ref = linalg.gemm_epilogue(a, b, c, activation=activation)
    np.testing.assert_allclose(_host(out), ref, rtol=1e-12, atol=1e-13)
    g = linalg.gemm_epilogue_bwd(out, gpu.asarray(a), gpu.asarray(b), gpu.asarray(c), activation=activation)
    gr = linalg.gemm_epilogue_bwd(ref, a, b, c, activation=activation)
    for x, y in zip(g, gr):
        np.testing.assert_allclose(_host(x), y, rtol=1e-11, atol=1e-12)
