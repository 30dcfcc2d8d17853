"""The opt-in progress bar: off by default, drawn (tqdm, on stderr) for a wait that lasts
its delay, closed when the wait ends; refused settings say what was wrong."""

import sys

import numpy as np
import pytest

import numr_array_api as numr
from numr_array_api._core import environment, progress as display
from numr_array_api.errors import InvalidArgument


@pytest.fixture(autouse=True)
def _restore():
    saved = dict(display._state)
    yield
    display._state.update(saved)


def _long_work(xp):
    x = xp.asarray(np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32))
    return xp.sort(x)


@pytest.mark.webgpu
def test_a_wait_draws_the_bar_with_the_queued_dispatches(capsys):
    xp = pytest.importorskip("numr_array_api.webgpu")
    if not xp.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    pytest.importorskip("tqdm")
    with numr.progress(delay=0.0):
        y = _long_work(xp)
        xp.synchronize()
    err = capsys.readouterr().err
    assert "numr webgpu: GPU work" in err and "dispatch" in err, err[-500:]
    assert np.all(np.diff(np.asarray(y.to_device("cpu"))) >= 0)   # the answer is unchanged


@pytest.mark.webgpu
def test_off_by_default_and_after_the_block(capsys):
    xp = pytest.importorskip("numr_array_api.webgpu")
    if not xp.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    pytest.importorskip("tqdm")
    display._state.update(on=None)
    environment.reload("NUMR_PROGRESS")
    assert not display.enabled()
    with numr.progress(delay=0.0):
        assert display.enabled()
    _long_work(xp)
    xp.synchronize()
    assert "numr webgpu" not in capsys.readouterr().err


def test_the_environment_turns_it_on(monkeypatch):
    pytest.importorskip("tqdm")
    monkeypatch.setenv("NUMR_PROGRESS", "1")
    environment.reload("NUMR_PROGRESS")
    display._state.update(on=None)
    try:
        assert display.enabled()
    finally:
        monkeypatch.delenv("NUMR_PROGRESS")
        environment.reload("NUMR_PROGRESS")


@pytest.mark.parametrize("bad", [-1, float("nan"), "soon", None])
def test_a_bad_delay_is_refused(bad):
    with pytest.raises(InvalidArgument, match="delay"):
        numr.show_progress(delay=bad)


def test_without_tqdm_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ImportError, match="pip install tqdm"):
        numr.show_progress()
    assert not display._state["on"]


def test_cuda_synchronize_polls_its_stream_under_the_bar(capsys):
    pytest.importorskip("tqdm")
    from numr_array_api.backends.cuda_runtime.streams import DeviceClient

    class Stream:
        def __init__(self, busy):
            self.busy, self.synced = busy, 0

        @property
        def done(self):
            self.busy -= 1
            return self.busy <= 0

        def synchronize(self):
            self.synced += 1

    client = object.__new__(DeviceClient)
    client.compute, client.copy = Stream(50), Stream(0)
    with numr.progress(delay=0.0):
        client.synchronize()
    assert client.compute.busy <= 0 and client.compute.synced == 1 and client.copy.synced == 1
    assert "numr cuda: GPU work" in capsys.readouterr().err
