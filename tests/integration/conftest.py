"""Integration tests with SciPy / scikit-learn array API dispatch.

SCIPY_ARRAY_API must be set before scipy (or sklearn) is first imported. It is set here at
import time, but another test module in the same pytest process may already have imported
scipy, so the actual checks run in a fresh interpreter (see _run_checks), which makes them
independent of import order.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("SCIPY_ARRAY_API", "1")

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def run_checks(script, backend, timeout=300):
    """Run ``script`` (a file in this folder) for ``backend`` in a fresh interpreter with
    SCIPY_ARRAY_API=1; return its JSON report {check: {"ok": bool, "detail": str}}."""
    env = dict(os.environ)
    env["SCIPY_ARRAY_API"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in
                                                        [env.get("PYTHONPATH")] if p])
    env.setdefault("NUMR_HOST_CONVERSION", "allow")
    proc = subprocess.run([sys.executable, str(HERE / script), backend], env=env,
                          capture_output=True, text=True, timeout=timeout, cwd=str(REPO))
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("NUMR-REPORT ")]
    if proc.returncode != 0 or not lines:
        pytest.fail(f"{script} failed (rc={proc.returncode}):\n{proc.stdout[-4000:]}\n"
                    f"{proc.stderr[-4000:]}")
    return json.loads(lines[-1][len("NUMR-REPORT "):])


@pytest.fixture(scope="module")
def sklearn_report(xp, backend_name):
    return run_checks("_sklearn_checks.py", backend_name)


@pytest.fixture(scope="module")
def scipy_report(xp, backend_name):
    return run_checks("_scipy_checks.py", backend_name)


@pytest.fixture(scope="module")
def device_report(xp, backend_name):
    """_device_checks.py's report (test_outputs_on_device.py), with host conversions of
    device arrays warned (so the report can list them)."""
    old = os.environ.get("NUMR_HOST_CONVERSION")
    os.environ["NUMR_HOST_CONVERSION"] = "warn"
    try:
        return run_checks("_device_checks.py", backend_name, timeout=600)
    finally:
        if old is None:
            os.environ.pop("NUMR_HOST_CONVERSION", None)
        else:
            os.environ["NUMR_HOST_CONVERSION"] = old
