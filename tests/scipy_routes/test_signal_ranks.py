"""numr_array_api.scipy.signal's medfilt, medfilt2d and order_filter equal SciPy's on NumPy
(exactly: a rank filter selects values), on every backend, with no host copy of the data."""

import warnings

import numpy as np
import pytest


ss = pytest.importorskip("scipy.signal")
ns = pytest.importorskip("numr_array_api.scipy.signal")


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _equal(got, ref):
    got = np.asarray(got.to_device("cpu"))
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8])
def test_median_and_order_filters_like_scipy(xp, dtype):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((9, 40)) * 20).astype(dtype)
    for ks in (None, 3, (3, 5), 1):
        _equal(ns.medfilt(xp.asarray(x), ks), ss.medfilt(x, ks))
    for ks in (3, (5, 3)):
        _equal(ns.medfilt2d(xp.asarray(x), ks), ss.medfilt2d(x, ks))
    dom = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1]])
    for rank in (0, 3, 5):
        _equal(ns.order_filter(xp.asarray(x), dom, rank), ss.order_filter(x, dom, rank))
    v = x[1, ::2]                                    # a strided 1-D view
    _equal(ns.medfilt(xp.asarray(x)[1, ::2], 5), ss.medfilt(v, 5))


def test_kernel_larger_than_the_signal_warns_and_pads(xp):
    x = np.arange(4, dtype=np.float32)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got = ns.medfilt(xp.asarray(x), 7)
    assert any("zero-padded" in str(w.message) for w in seen)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _equal(got, ss.medfilt(x, 7))


def test_bad_arguments_raise_value_errors(xp):
    x = xp.asarray(np.ones((4, 4), np.float32))
    with pytest.raises(ValueError):
        ns.medfilt(x, 4)
    with pytest.raises(ValueError):
        ns.order_filter(x, np.ones((2, 3)), 1)
    with pytest.raises(ValueError):
        ns.medfilt(xp.asarray(np.ones(4, np.complex64)))
