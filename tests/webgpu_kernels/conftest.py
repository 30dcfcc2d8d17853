import contextlib
import gc
import os
import tempfile

import pytest


@pytest.fixture(autouse=True)
def _gib_tests_one_at_a_time(request):
    """The GiB-sized GPU tests (marked gpu and slow) hold 10-40 GiB each: under pytest-xdist
    several ran at once on one GPU and ran it out of memory (H100, 16 workers, 2026-11-26:
    the 10 GiB matmul failed its 6th 2 GiB segment). A file lock lets one run at a time
    across the workers, and each gives its pooled buffers back to the driver after."""
    node = request.node
    if node.get_closest_marker("gpu") is None or node.get_closest_marker("slow") is None:
        yield
        return
    import fcntl
    with open(os.path.join(tempfile.gettempdir(), "numr-gpu-gib-tests.lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            # this worker's earlier tests' pooled buffers go back first (other workers'
            # pools still hold theirs: GPU scripts run these tests after the parallel part)
            gc.collect()
            with contextlib.suppress(Exception):
                import numr_array_api.backends.webgpu as W
                W.get_client().empty_cache()
            yield
        finally:
            gc.collect()
            with contextlib.suppress(Exception):
                import numr_array_api.backends.webgpu as W
                W.get_client().empty_cache()
            fcntl.flock(f, fcntl.LOCK_UN)


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
def launches(monkeypatch):
    """Names of the kernel spec classes launched, with the linalg plans off so every call
    records (and launches) anew."""
    from numr_array_api.backends.webgpu.codegen.spec import Kernel
    seen = []
    orig = Kernel.launch

    def launch(self, *a, **k):
        seen.append(type(self.spec).__name__)
        return orig(self, *a, **k)

    monkeypatch.setattr(Kernel, "launch", launch)
    monkeypatch.setenv("NUMR_WEBGPU_LINALG_PLAN", "0")
    return seen
