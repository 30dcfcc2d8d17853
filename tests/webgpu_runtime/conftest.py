"""WebGPU runtime tests: skipped as a whole when no WebGPU adapter can be opened."""

import os
import subprocess
import sys

import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

_REASON = None
try:
    import numr_array_api.backends.webgpu as W

    W.get_client()
except Exception as exc:  # no wgpu, no adapter, no device
    _REASON = f"no usable WebGPU adapter: {type(exc).__name__}: {exc}"
    if "webgpu" in os.environ.get("NUMR_TEST_BACKENDS", "").lower():
        # requested: a broken backend fails the run with its cause, never becomes skips
        raise RuntimeError(f"numr_array_api.webgpu is requested (NUMR_TEST_BACKENDS) but "
                           f"cannot be used: {_REASON}") from exc


def pytest_collection_modifyitems(config, items):
    if _REASON is None:
        return
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.skip(reason=_REASON))


@pytest.fixture
def W():
    import numr_array_api.backends.webgpu as mod
    return mod


@pytest.fixture
def client(W):
    return W.get_client()


def run_py(code, env=None, timeout=120):
    """Run ``code`` in a fresh interpreter (own client), return CompletedProcess."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    e = dict(os.environ)
    e["PYTHONPATH"] = root + os.pathsep + e.get("PYTHONPATH", "")
    e.setdefault("XDG_RUNTIME_DIR", "/tmp")
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=e, timeout=timeout)


@pytest.fixture
def eager():
    """Lazy fusion off while the test runs (NUMR_WEBGPU_FUSION=1 turns it on for the
    process): for tests that count the eager path's dispatches and submits."""
    import numr_array_api.webgpu as wx
    with wx.fusion(False):
        yield
