import contextlib

import pytest


@pytest.fixture
def wgpu_xp():
    xp = pytest.importorskip("numr_array_api.webgpu")
    if not xp.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    return xp


@pytest.fixture
def small_limits(wgpu_xp):
    """Shrink the default adapter's storage-binding limit and buffer size for one test, so
    the slab / multi-buffer paths run on megabytes instead of gigabytes."""
    client = wgpu_xp.asarray([0.0])._data.client

    @contextlib.contextmanager
    def limits(binding=1 << 20, segment=4 << 20):
        old = (client.max_binding, client.segment_bytes, client.single_buffer_max)
        client.max_binding, client.segment_bytes, client.single_buffer_max = (
            binding, segment, segment)
        try:
            yield client
        finally:
            client.max_binding, client.segment_bytes, client.single_buffer_max = old

    return limits


@pytest.fixture
def knobs():
    """``knobs(NAME=value, ...)``: tuning knobs pinned for the rest of one test
    (``NAME=None``: back to the adapter's value), unpinned after it."""
    from numr_array_api import tuning
    pinned = set()

    def pin(**values):
        pinned.update(values)
        tuning.force(**values)

    yield pin
    tuning.force(**{n: None for n in pinned})


@pytest.fixture
def launches(monkeypatch, knobs):
    """Names of the kernel spec classes launched, with the linalg plans off so every call
    records (and launches) anew."""
    from numr_array_api.backends.webgpu.codegen.spec import Kernel
    seen = []
    orig = Kernel.launch

    def launch(self, *a, **k):
        seen.append(type(self.spec).__name__)
        return orig(self, *a, **k)

    monkeypatch.setattr(Kernel, "launch", launch)
    knobs(LINALG_PLAN=False)
    return seen
