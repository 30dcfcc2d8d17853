"""numr_array_api.scipy.ndimage's Fourier-domain filters against SciPy on NumPy, on every
backend (webgpu: per-axis tables combined by the device's elementwise kernels)."""

import numpy as np
import pytest

from numr_array_api.errors import BackendLimitation

sn = pytest.importorskip("scipy.ndimage")
nn = pytest.importorskip("numr_array_api.scipy.ndimage")

CASES = [("fourier_gaussian", (1.5,), {}), ("fourier_gaussian", ([2.0, 0.5],), {"n": 11, "axis": 0}),
         ("fourier_uniform", (3,), {}), ("fourier_uniform", (2.5,), {"n": 13, "axis": -1}),
         ("fourier_shift", (1.3,), {}), ("fourier_shift", ([0.7, -2],), {"n": 9, "axis": 0})]


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _host(a):
    return np.asarray(a.to_device("cpu")._data)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex64,
                                   np.complex128])
@pytest.mark.parametrize("shape", [(6, 9), (7, 1)])
def test_fourier_filters_equal_scipy(xp, dtype, shape):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape) * 10
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    a = a.astype(dtype)
    x = xp.asarray(a)
    for name, args, kw in CASES:
        ref = getattr(sn, name)(a, *args, **kw)
        g = _host(getattr(nn, name)(x, *args, **kw))
        assert g.dtype == ref.dtype, (name, g.dtype, ref.dtype)
        tol = 1e-6 if ref.dtype in (np.float32, np.complex64) else 1e-13
        np.testing.assert_allclose(g, ref, rtol=0, atol=tol * max(1, np.abs(ref).max()))


def test_fourier_output_array_and_ellipsoid(xp):
    a = np.random.default_rng(1).standard_normal(16)
    x = xp.asarray(a)
    out = xp.zeros(16, dtype=xp.complex128)
    r = nn.fourier_shift(x, 2.5, output=out)
    assert r is out
    np.testing.assert_allclose(_host(out), sn.fourier_shift(a, 2.5), atol=1e-13)
    np.testing.assert_allclose(_host(nn.fourier_ellipsoid(x, 3.0)),
                               sn.fourier_ellipsoid(a, 3.0), atol=1e-13)
    b = np.random.default_rng(2).standard_normal((5, 6, 7))
    for kw in (dict(size=2.0), dict(size=[1.0, 2.0, 3.0], n=13, axis=0)):
        np.testing.assert_allclose(_host(nn.fourier_ellipsoid(xp.asarray(b), **kw)),
                                   sn.fourier_ellipsoid(b, **kw), atol=1e-13)
    if xp.__name__.endswith("webgpu"):
        with pytest.raises(BackendLimitation, match="fourier_ellipsoid"):
            nn.fourier_ellipsoid(xp.asarray(np.ones((4, 4))), 2.0)
    # more than 3 dimensions: SciPy's own NotImplementedError, on every backend
    with pytest.raises(NotImplementedError, match="1d, 2d and 3d"):
        nn.fourier_ellipsoid(xp.asarray(np.ones((2, 2, 2, 2))), 1.0)
    with pytest.raises(RuntimeError):
        nn.fourier_gaussian(x, 1.0, output=xp.zeros(15))
