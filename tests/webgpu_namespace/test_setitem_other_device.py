"""x[key] = scalar on a non-default WebGPU device (found by SciPy's
test_logsumexp.py::test_device, which iterates every device): the scalar must be made on x's
adapter, not the default one (wgpu refused the bind group: buffers of two devices)."""

import numpy as np
import pytest


@pytest.fixture
def dev1(wx, webgpu_two_devices):
    xp, _, d1 = webgpu_two_devices
    assert xp is wx
    return d1


@pytest.mark.parametrize("n", [1, 3, 33])
def test_mask_and_index_set_scalar_on_second_device(wx, dev1, n):
    a = np.arange(n, dtype=np.float32) - 1.0
    x = wx.asarray(a, device=dev1)
    x[x > 0.5] = 0.0
    want = a.copy()
    want[want > 0.5] = 0.0
    assert x.device == dev1
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), want)
    x[wx.asarray([0], device=dev1)] = 7.0
    want[[0]] = 7.0
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), want)
    x[x < 0] = -0.0
    want[want < 0] = -0.0
    np.testing.assert_array_equal(np.signbit(np.asarray(x.to_device("cpu"))), np.signbit(want))


def test_inplace_scalar_on_second_device(wx, dev1):
    a = np.arange(5, dtype=np.float32)
    x = wx.asarray(a, device=dev1)
    x += 2.0
    x *= 3.0
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), (a + 2) * 3)
    assert x.device == dev1


def test_python_scalar_with_0d_array_on_second_device(wx, dev1):
    """eps * m with a 0-d m on another adapter (SciPy stats.skew / kurtosis / kstat): the
    scalar follows the array, whichever side it is on and whatever the shapes."""
    m = wx.mean(wx.asarray([1.0, 2.0, 4.0], device=dev1, dtype=wx.float32))
    for r in (2.0 * m, m * 2.0, m - 1.0, 1.0 - m, m <= 3.0, 3.0 <= m, m ** 2.0):
        assert r.device == dev1
    np.testing.assert_allclose(float((2.0 * m).to_device("cpu")), 2 * 7 / 3, rtol=1e-6)
    x = wx.asarray([1.0, 0.0, 3.0], device=dev1, dtype=wx.float32)
    for r in (wx.where(x > 0.5, float("nan"), x), wx.where(x > 0.5, x, 0.0),
              wx.where(wx.asarray(True, device=dev1), 1.0, m)):
        assert r.device == dev1
    got = np.asarray(wx.where(x > 0.5, float("nan"), x).to_device("cpu"))
    np.testing.assert_array_equal(np.isnan(got), [True, False, True])
