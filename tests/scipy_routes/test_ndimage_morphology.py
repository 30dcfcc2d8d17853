"""numr_array_api.scipy.ndimage's grey morphology against SciPy on NumPy, on every backend
(webgpu: minimum / maximum stencil kernels with footprints and additive structures, no
host copy)."""

import numpy as np
import pytest

from numr_array_api.errors import BackendLimitation

sn = pytest.importorskip("scipy.ndimage")
nn = pytest.importorskip("numr_array_api.scipy.ndimage")

FUNCS = ("grey_erosion", "grey_dilation", "grey_opening", "grey_closing",
         "morphological_gradient", "morphological_laplace", "white_tophat", "black_tophat")
FOOTPRINT = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]], bool)
STRUCTURE = np.array([[0, 1, 2], [1, 3, 1]], float)


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _host(a):
    return np.asarray(a.to_device("cpu")._data)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("fname", FUNCS)
def test_grey_morphology_equals_scipy(xp, fname, dtype):
    a = np.random.default_rng(2).integers(0, 50, (9, 11)).astype(dtype)
    x = xp.asarray(a)
    for kw in (dict(size=3), dict(footprint=FOOTPRINT, origin=(0, 1)),
               dict(structure=STRUCTURE, mode="constant", cval=2),
               dict(size=(2, 4), mode="wrap")):
        got, ref = getattr(nn, fname)(x, **kw), getattr(sn, fname)(a, **kw)
        g = _host(got)
        assert g.dtype == ref.dtype
        np.testing.assert_array_equal(g, ref)


def test_output_array_and_device_structure(xp):
    a = np.random.default_rng(3).random((8, 9))
    x = xp.asarray(a)
    out = xp.zeros((8, 9), dtype=xp.float64)
    r = nn.grey_dilation(x, structure=xp.asarray(STRUCTURE), output=out)
    assert r is out
    np.testing.assert_array_equal(_host(out), sn.grey_dilation(a, structure=STRUCTURE))
    out2 = xp.zeros((8, 9), dtype=xp.float64)
    nn.morphological_gradient(x, size=3, output=out2)
    np.testing.assert_array_equal(_host(out2), sn.morphological_gradient(a, size=3))


def test_bool_tophats_and_refusals(xp):
    a = np.random.default_rng(4).random((7, 7)) < 0.5
    x = xp.asarray(a)
    for f in ("white_tophat", "black_tophat"):
        np.testing.assert_array_equal(_host(getattr(nn, f)(x, size=3)),
                                      getattr(sn, f)(a, size=3))
    with pytest.raises(ValueError):
        nn.grey_erosion(x)
    if xp.__name__.endswith("webgpu"):
        with pytest.raises(BackendLimitation, match="grey_erosion"):
            nn.grey_erosion(x, structure=np.ones((3, 3)))
        with pytest.raises(BackendLimitation, match="grey_dilation"):
            nn.grey_dilation(xp.asarray(np.arange(9).reshape(3, 3)),
                             structure=np.full((2, 2), 0.5))
