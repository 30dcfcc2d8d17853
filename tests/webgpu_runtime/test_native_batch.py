"""Batches on native handles (runtime/submit.py ``_open_pass``): results, errors raised by
wgpu at the submit, and the wgpu-py object path (profiles)."""

import contextlib

import numpy as np
import pytest
from wgpu.backends.wgpu_native._ffi import lib

from numr_array_api._core import dtypes as D
from numr_array_api._core.errors import InvalidArgument


@pytest.fixture
def native(client):
    rec = client.recorder
    client.synchronize()
    yield rec
    client.synchronize()


@pytest.mark.parametrize("on", [True, False])
def test_results_either_way(W, client, native, on):
    """Native handles, or wgpu-py's objects while a profile records (runtime/profile.py)."""
    from numr_array_api.backends.webgpu.runtime.profile import profile
    if not on and "timestamp-query" not in client.device.features:
        pytest.skip("adapter without timestamp-query: no profile")
    x = W.from_numpy(np.arange(50, dtype=np.float32))
    client.synchronize()
    with contextlib.ExitStack() as stack:
        if not on:
            stack.enter_context(profile(client))
        y = W.astype(W.astype(x, D.float64), D.float32)
        assert native.raw_batch is on          # the batch holding the casts
        assert np.array_equal(W.to_numpy(y), np.arange(50, dtype=np.float32))


def test_a_validation_error_raises_at_the_submit_and_the_recorder_recovers(W, client,
                                                                           native):
    """A dispatch with no pipeline set fails wgpu's validation at the encoder's finish:
    the native path raises numr's InvalidArgument like the object path, releases the
    batch, and the next calls work."""
    x = W.from_numpy(np.arange(8, dtype=np.float32))
    client.synchronize()
    cp = native._open_pass()
    assert native.raw_batch
    lib.wgpuComputePassEncoderDispatchWorkgroups(cp, 1, 1, 1)   # no pipeline: invalid
    with pytest.raises(InvalidArgument, match="[Pp]ipeline"):
        native.flush()
    assert native.cpass is None and native.encoder is None
    y = W.astype(x, D.float64)
    assert np.array_equal(W.to_numpy(y), np.arange(8, dtype=np.float64))


def test_a_stray_encoder_is_released(W, client, native):
    """An encoder without its pass (an interrupt between the two native calls of
    _open_pass) is released by the next flush, not reused."""
    native.raw_batch = True
    native.encoder = native._raw_encoder()
    native.flush()
    assert native.encoder is None
    x = W.from_numpy(np.arange(4, dtype=np.float32))
    assert np.array_equal(W.to_numpy(W.astype(x, D.float64)), np.arange(4.0))
