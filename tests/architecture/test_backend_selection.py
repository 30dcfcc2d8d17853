"""A backend the test run asks for (NUMR_TEST_BACKENDS) that cannot be created fails the run
with the cause; one it does not ask for is skipped with the reason in the summary. Checked
by breaking WebGPU client creation on purpose in a child pytest."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

_BREAK = '''
import wgpu
import wgpu.backends.wgpu_native  # installs the real wgpu.gpu
def _broken(*a, **k):
    raise RuntimeError("client creation broken on purpose")
wgpu.gpu.enumerate_adapters_sync = _broken
wgpu.gpu.request_adapter_sync = _broken
'''


def _run(tmp_path, backends):
    (tmp_path / "break_webgpu.py").write_text(_BREAK)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(REPO)] + [
        p for p in [os.environ.get("PYTHONPATH")] if p])
    env["NUMR_TEST_BACKENDS"] = backends
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "break_webgpu", "-p", "no:cacheprovider",
         "-q", "-rs", "-p", "no:xdist", str(REPO / "tests" / "test_sets.py"), "-k",
         "unique_nans_are_distinct"],
        cwd=str(REPO), env=env, capture_output=True, text=True, timeout=300)


def test_requested_backend_that_cannot_be_created_fails_the_run(tmp_path):
    pytest.importorskip("wgpu")
    proc = _run(tmp_path, "cpu,webgpu")
    out = proc.stdout + proc.stderr
    assert proc.returncode not in (0, 5), out[-3000:]
    assert "NUMR_TEST_BACKENDS asks for a backend that cannot be used" in out, out[-3000:]
    assert "broken on purpose" in out, out[-3000:]


def test_backend_not_requested_is_skipped_with_its_reason(tmp_path):
    pytest.importorskip("wgpu")
    proc = _run(tmp_path, "")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "SKIPPED" in out and "numr_array_api.webgpu: no devices" in out, out[-3000:]
    assert "broken on purpose" in out, out[-3000:]
    assert " passed" in out, out[-3000:]
