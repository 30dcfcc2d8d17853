"""The runtime as seen through ``numr_array_api.webgpu``: honest per-adapter dtype reporting,
flat memory under many mixed small ops."""

import gc
import warnings

import numpy as np
import pytest

from numr_array_api._core import dtypes as D
from numr_array_api._core.errors import BackendLimitation


def _host(x):
    return x._ctx.be.to_numpy(x._data)  # explicit: no host-conversion policy warning


@pytest.fixture(scope="module")
def wx():
    import numr_array_api.webgpu as wx
    if not wx.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    return wx


def test_info_dtypes_per_device_match_the_runtime(wx, W):
    info = wx.__array_namespace_info__()
    for dev in info.devices():
        listed = set(info.dtypes(device=dev).values())
        native = set(W.native_dtypes(dev.index))
        assert listed == {d for d in D.STANDARD_DTYPES if d in native}, dev
        # the client (device features actually granted) agrees with the adapter's features
        assert [d.name for d in W.native_dtypes(dev.index)] == \
            W.get_client(dev.index).capabilities()["native_dtypes"]
        kinds = info.dtypes(device=dev, kind="real floating")
        assert set(kinds.values()) == {d for d in listed if d.kind == "f"}


def test_every_listed_dtype_computes_and_no_unlisted_one_is_claimed(wx):
    info = wx.__array_namespace_info__()
    for dev in info.devices():
        listed = set(info.dtypes(device=dev).values())
        for d in D.STANDARD_DTYPES:
            a = (np.arange(12) % 5).astype(d.np)
            x = wx.asarray(a, device=dev) if d is not D.bool_ else None
            if d in listed:
                if d is D.bool_:
                    x = wx.asarray(a.astype(bool), device=dev)
                    r = wx.logical_not(x)
                    assert np.array_equal(_host(r), ~a.astype(bool))
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    r = wx.abs(wx.add(x, x))
                    got = _host(r)
                e = np.abs(a + a)  # complex abs is real, as in the standard
                assert got.dtype == e.dtype and np.array_equal(got, e), (dev, d)
            elif d.kind in "fc":
                # not listed: computing on it raises, never a silent wrong answer
                with pytest.raises(BackendLimitation):
                    wx.abs(x)


def test_memory_flat_over_10k_mixed_small_ops(wx):
    x = wx.asarray(np.linspace(0, 1, 64, dtype=np.float32))

    def step(y):
        y = wx.multiply(wx.add(y, x), 0.5)  # converges to x
        e = wx.exp(y[::2])
        s = wx.add(y[1:], y[:-1])
        return y, e, s

    y = x
    for _ in range(100):
        y, e, s = step(y)
    del e, s
    wx.synchronize()
    gc.collect()
    base = wx.memory_stats()["allocated_bytes"]
    n_ops = 0
    while n_ops < 10_000:
        y, e, s = step(y)
        n_ops += 4
    del e, s
    wx.synchronize()
    gc.collect()
    assert wx.memory_stats()["allocated_bytes"] == base
    got = _host(y)
    assert np.allclose(got, np.linspace(0, 1, 64, dtype=np.float32))


def test_default_dtypes_follow_the_device(wx):
    """On an adapter without 64-bit types, defaults (info API and creation) are 32-bit."""
    info = wx.__array_namespace_info__()
    for dev in info.devices():
        native = info.dtypes(device=dev)
        dflt = info.default_dtypes(device=dev)
        assert dflt["real floating"].name in native
        assert dflt["integral"].name in native
        assert dflt["indexing"].name in native
        assert wx.asarray([1.0, 2.0], device=dev).dtype == dflt["real floating"]
        assert wx.asarray(3, device=dev).dtype == dflt["integral"]
        assert wx.zeros(2, device=dev).dtype == dflt["real floating"]
        assert wx.arange(3, device=dev).dtype == dflt["integral"]
        r = wx.linspace(0, 1, 3, device=dev)
        assert r.dtype == dflt["real floating"]
        assert np.allclose(np.asarray(r.to_device("cpu")), [0, 0.5, 1])
