"""Implicit host conversion policy: numr_array_api.set_host_conversion / host_conversion."""

import warnings

import numpy as np
import pytest

import numr_array_api as numr
from numr_array_api._core.config import HostConversionWarning


@pytest.fixture(autouse=True)
def _restore_policy():
    saved = numr.get_host_conversion()
    yield
    numr.set_host_conversion(saved)


def test_set_and_get(xp):
    for p in ("allow", "warn", "raise"):
        numr.set_host_conversion(p)
        assert numr.get_host_conversion() == p
    with pytest.raises(ValueError, match="policy"):
        numr.set_host_conversion("sometimes")
    with pytest.raises(ValueError, match="policy"):
        numr.host_conversion("never")


def test_context_manager_restores(xp):
    numr.set_host_conversion("warn")
    with numr.host_conversion("raise") as cm:
        assert numr.get_host_conversion() == "raise"
        with numr.host_conversion("allow"):
            assert numr.get_host_conversion() == "allow"
        assert numr.get_host_conversion() == "raise"
    assert numr.get_host_conversion() == "warn"
    with pytest.raises(KeyError):
        with numr.host_conversion("allow"):
            raise KeyError("x")
    assert numr.get_host_conversion() == "warn"
    assert cm is not None


@pytest.mark.parametrize("policy", ["allow", "warn", "raise"])
def test_cpu_always_converts_silently(xp, backend_name, policy):
    if backend_name != "cpu":
        pytest.skip("cpu arrays only")
    x = xp.asarray([1.0, 2.0])
    with numr.host_conversion(policy):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.asarray(x).tolist() == [1.0, 2.0]
            assert float(x[0]) == 1.0
            assert x.to_device("cpu") is x


@pytest.mark.parametrize("policy", ["allow", "warn", "raise"])
def test_device_arrays_follow_policy(xp, backend_name, policy):
    if backend_name == "cpu":
        pytest.skip("needs a device backend (webgpu / cuda)")
    x = xp.asarray([1.0, 2.0])
    with numr.host_conversion(policy):
        if policy == "raise":
            with pytest.raises(numr.errors.HostTransferError):
                np.asarray(x)
        elif policy == "warn":
            with pytest.warns(HostConversionWarning):
                np.asarray(x)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                assert np.asarray(x).tolist() == [1.0, 2.0]
        # explicit transfers are never refused
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert np.asarray(x.to_device("cpu")).tolist() == [1.0, 2.0]


def test_host_transfer_error_is_runtime_error():
    assert issubclass(numr.errors.HostTransferError, RuntimeError)
    assert issubclass(numr.errors.HostTransferError, numr.errors.NumrError)


def test_a_device_arrays_host_copy_refuses_writes_that_would_be_lost(xp, backend_name):
    """np.asarray of a device array is a copy: a write into it never reaches the array, so
    it is refused (read-only) instead of lost; np.array asks for a copy and may write it.
    cpu arrays share their memory with NumPy, so writes there do reach the array."""
    x = xp.asarray([1.0, 2.0])
    with numr.host_conversion("allow"):
        host = np.asarray(x)
        converted = np.asarray(x, dtype=np.float32)
        fresh = np.array(x)
    fresh += 1
    assert fresh.tolist() == [2.0, 3.0]
    if backend_name == "cpu":
        host += 1
        assert float(x[0]) == 2.0
        return
    for h in (host, converted):
        with pytest.raises(ValueError, match="read-only"):
            h += 1
    assert [float(x[0]), float(x[1])] == [1.0, 2.0]


def test_scipy_output_into_a_device_array_is_never_silently_unwritten(xp, backend_name,
                                                                         monkeypatch):
    """SciPy's ndimage writes output= into np.asarray(output): for a device array that is
    the host copy, so the call fails loudly instead of leaving the array unwritten."""
    ndi = pytest.importorskip("scipy.ndimage")
    if backend_name == "cpu":
        pytest.skip("cpu arrays are NumPy memory: SciPy writes them in place")
    x = xp.asarray(np.arange(25.0).reshape(5, 5))
    out = xp.zeros((5, 5))
    with numr.host_conversion("allow"):
        try:
            ndi.gaussian_filter(x, 1.0, output=out)
        except ValueError as e:
            assert "read-only" in str(e)
            return
    # a SciPy that writes device outputs correctly (a GPU route) must have written them
    np.testing.assert_allclose(np.asarray(out.to_device("cpu")),
                               ndi.gaussian_filter(np.arange(25.0).reshape(5, 5), 1.0))
