"""numr_array_api.scipy.enable(): SciPy's special / ndimage / signal functions routed to
numr for numr arrays. The dispatch it patches is private to SciPy, so the first test fails
loudly when an installed SciPy release changes it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("scipy")

import numr_array_api.scipy as nsp  # noqa: E402
from numr_array_api.errors import BackendUnavailable  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def test_installed_scipy_has_the_dispatch_the_routing_relies_on():
    import scipy
    version = ".".join(scipy.__version__.split(".")[:2])
    assert version in nsp.SUPPORTED, (
        f"SciPy {scipy.__version__} is installed; numr_array_api.scipy.enable() was written "
        f"against {nsp.SUPPORTED}: read its dispatch and extend _routing.py")
    nsp.check_dispatch()


def _pytest_in_fresh_interpreter(args, env_extra, timeout=600):
    env = dict(os.environ, **env_extra)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *args], env=env, capture_output=True,
                          text=True, timeout=timeout, cwd=str(REPO))


def test_routes_on_every_backend():
    """routed_cases.py in an interpreter where SciPy's array API support is on."""
    proc = _pytest_in_fresh_interpreter([str(HERE / "routed_cases.py")],
                                        {"SCIPY_ARRAY_API": "1"})
    tail = proc.stdout[-6000:] + proc.stderr[-3000:]
    assert proc.returncode == 0, tail
    assert " passed" in proc.stdout and " failed" not in proc.stdout, tail


def test_enable_refuses_without_scipys_array_api_support():
    code = ("import numr_array_api.scipy as s\n"
            "try:\n    s.enable()\nexcept Exception as e:\n"
            "    print(type(e).__name__, e)\nelse:\n    print('ENABLED')\n")
    env = {k: v for k, v in os.environ.items() if k != "SCIPY_ARRAY_API"}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120, cwd=str(REPO))
    assert "BackendUnavailable" in proc.stdout and "SCIPY_ARRAY_API" in proc.stdout, \
        proc.stdout + proc.stderr
    assert issubclass(BackendUnavailable, RuntimeError)
