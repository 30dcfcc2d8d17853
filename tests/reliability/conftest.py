"""Reliability tests: threads, interrupts, devices, errors, fuzzing, soak.

Two profiles, chosen by ``NUMR_STRESS``:
  ci   (default)  sized for CI on 2 cores: all of tests/reliability in a few minutes
  full            the acceptance profile, for a GPU machine: 16 threads x 2000 mixed ops x
                  10 runs, 50 interrupt runs with a 60 s watchdog each, a 10^5-op soak
"""

import os
import subprocess
import sys

import pytest

from _support import unavailable

STRESS = os.environ.get("NUMR_STRESS", "ci").strip().lower() or "ci"
if STRESS not in ("ci", "full"):
    raise pytest.UsageError(f"NUMR_STRESS must be 'ci' or 'full', got {STRESS!r}")
FULL = STRESS == "full"


def root_conftest():
    """tests/conftest.py as pytest loaded it (``import conftest`` may find another
    directory's conftest.py first, depending on what was collected before)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "conftest.py")
    for m in list(sys.modules.values()):
        if getattr(m, "__file__", None) == path:
            return m
    import importlib.util
    spec = importlib.util.spec_from_file_location("numr_tests_root_conftest", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def require_webgpu():
    """numr_array_api.webgpu with an adapter; otherwise the test fails when webgpu was asked
    for (NUMR_TEST_BACKENDS) and is skipped when it was not."""
    try:
        import numr_array_api.webgpu as xp
        if xp.__array_namespace_info__().devices():
            return xp
        reason = "no WebGPU adapter"
    except Exception as e:  # noqa: BLE001
        reason = f"{type(e).__name__}: {e}"
    unavailable("webgpu", reason)


def sized(ci, full):
    """The figure of the active profile."""
    return full if FULL else ci


def run_python(code, *args, timeout, env=None):
    """Run ``code`` in a fresh interpreter importing this checkout; CompletedProcess."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    e = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""),
             XDG_RUNTIME_DIR=os.environ.get("XDG_RUNTIME_DIR", "/tmp"))
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], env=e,
                          capture_output=True, text=True, timeout=timeout)
