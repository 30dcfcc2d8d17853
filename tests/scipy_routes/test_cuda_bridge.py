"""The cuda bridge's argument conversion (numr_array_api/scipy/_bridge.py) without a GPU:
cupyx.scipy refuses host data and lists where SciPy takes them, so the bridge hands it CuPy
arrays and tuples. A stand-in ``cupy`` module records what it was asked to convert."""

import inspect
import sys
import types

import numpy as np
import pytest

from numr_array_api.scipy import _bridge


class _Dev:
    """What the stand-in cupy.asarray returns: the host data it was given."""

    def __init__(self, a):
        self.host = np.asarray(a)


@pytest.fixture
def fake_cupy(monkeypatch):
    mod = types.ModuleType("cupy")
    mod.asarray = _Dev
    monkeypatch.setitem(sys.modules, "cupy", mod)
    return mod


def test_host_coefficients_become_device_arrays(fake_cupy):
    b = np.array([1.0, 2.0], np.float32)
    args, kwargs = _bridge._to_cupy((b, [1.0, -0.5], "x-on-device"), {}, "signal", "lfilter")
    assert isinstance(args[0], _Dev) and args[0].host.dtype == np.float32
    assert isinstance(args[1], _Dev)
    np.testing.assert_array_equal(args[1].host, [1.0, -0.5])
    assert args[2] == "x-on-device"   # not an array parameter's host data: left alone


def _bound(module, name, args, kwargs):
    """The arguments as the SciPy function would receive them (the bridge may pass
    keywords by position: it binds them to SciPy's signature)."""
    f = _bridge.native_function(module, name, "cpu")
    return inspect.signature(f).bind(*args, **kwargs).arguments


def test_axes_list_becomes_tuple(fake_cupy):
    got = _bound("signal", "fftconvolve", *_bridge._to_cupy(
        ("a", "k"), {"mode": "same", "axes": [1]}, "signal", "fftconvolve"))
    assert got["axes"] == (1,) and got["mode"] == "same"
    got = _bound("signal", "fftconvolve", *_bridge._to_cupy(
        ("a", "k"), {"axes": -1}, "signal", "fftconvolve"))
    assert got["axes"] == -1


def test_scalars_and_strings_pass_unchanged(fake_cupy):
    kw = {"sigma": 2.0, "mode": "reflect", "truncate": 4.0}
    got = _bound("ndimage", "gaussian_filter",
                 *_bridge._to_cupy(("img",), dict(kw), "ndimage", "gaussian_filter"))
    assert got["input"] == "img"
    assert {k: got[k] for k in kw} == kw
