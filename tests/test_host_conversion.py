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
