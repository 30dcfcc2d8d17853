"""scikit-learn's and SciPy's own array-API test suites on numr's namespaces.

Runs conformance/consumers/run.py (CI: on webgpu; NUMR_TEST_SLOW=1: every backend),
array-api-strict as the baseline in the
same run, and fails on any numr failure not covered by a reviewed cause (class "numr",
conformance/consumers/causes.py) or any crashed numr test. Which tests: the documented CI subset (selection.py: one module of each
kind of consumer code, a few minutes on 2 cores); with NUMR_TEST_SLOW=1 the whole suites
(the GPU machine's acceptance runs).

Runs only with NUMR_TEST_CONSUMERS=1 (CI sets it in .ci/test) or NUMR_TEST_SLOW=1. Both
suites of a backend come from one runner call (a module-scoped fixture); .ci/test's workers take
whole files (--dist loadfile), so the runner calls of this file run one after the other.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RUNNER = REPO / "conformance" / "consumers" / "run.py"

WHOLE = os.environ.get("NUMR_TEST_SLOW") == "1"
pytestmark = pytest.mark.skipif(
    not (os.environ.get("NUMR_TEST_CONSUMERS") == "1" or WHOLE),
    reason="consumer suites: set NUMR_TEST_CONSUMERS=1 (CI) or NUMR_TEST_SLOW=1")


def _xdist_available():
    try:
        import xdist  # noqa: F401
        return True
    except ImportError:
        return False


@pytest.fixture(scope="module")
def consumers(xp, backend_name, tmp_path_factory):
    if backend_name != "webgpu" and not WHOLE:
        # CI: the backend with kernels of its own (cpu shares the front-end and wraps NumPy);
        # the GPU machine runs the whole suites on cpu, cuda and webgpu
        pytest.skip("CI runs the consumers' subset on webgpu; NUMR_TEST_SLOW=1 runs the whole "
                    "suites on every backend")
    out = tmp_path_factory.mktemp("consumers") / f"{backend_name}.json"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    env.pop("SCIPY_ARRAY_API", None)  # the runner sets it for its own subprocesses
    cmd = [sys.executable, str(RUNNER), "--backend", backend_name, "--no-write", "--json",
           str(out)] + ([] if WHOLE else ["--subset", "ci"])
    if _xdist_available():
        cmd += ["-n", "2"]
    proc = subprocess.run(cmd, cwd=str(REPO), env=env, capture_output=True, text=True,
                          timeout=1800)
    if not out.exists():
        pytest.fail(f"the runner wrote no summary (exit {proc.returncode}):\n"
                    f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(out.read_text()), proc


# numr failures known and still open, each with its cause; a failure outside this list fails
# CI, and an entry that stops firing is reported so it gets removed
KNOWN_OPEN = {
    # (F5, Ridge(solver="svd") float32 on webgpu, closed: 32-bit eigh / svd compute in
    # float64 where the adapter grants shader-f64, ops/linalg_spectral/mixin._wider)
}


@pytest.mark.parametrize("suite", ["sklearn", "scipy"])
def test_consumer_suite_has_no_counted_failure(consumers, suite):
    summary, proc = consumers
    r = summary["suites"][suite]
    assert not r["error"], r["error"]
    # the suite really ran numr and the baseline (a run that selects nothing cannot pass)
    assert r["numr"]["passed"] > 50 and r["strict"]["passed"] > 50, (r["numr"], r["strict"])
    crashed = [c["id"] for c in r["crashes"] if "numr_array_api" in c["id"]]
    assert not crashed, f"crashed numr tests: {crashed}"
    import re
    bad = [f"{f['id']}: {f['exc'].get('type')}: {f['exc'].get('message')}"
           for f in r["failures"] if f["class"] != "peer"
           and not any(re.search(k, f["id"]) for k in KNOWN_OPEN)]
    # every failure counts unless the test excuses CuPy / PyTorch by name ("peer")
    assert not bad, f"{len(bad)} failures:\n" + "\n".join(bad[:40])


@pytest.fixture(scope="module")
def scipy_on_the_gpu(xp, backend_name, tmp_path_factory):
    """SciPy's own tests of functions it runs on the host for device arrays, routed to numr
    (numr_array_api.scipy.enable()) with every host copy an error: CI's share on webgpu, the
    whole SciPy-on-the-GPU files on the GPU machine."""
    if backend_name == "cpu" or (backend_name != "webgpu" and not WHOLE):
        pytest.skip("SciPy on the GPU: CI runs its share on webgpu; NUMR_TEST_SLOW=1 runs the "
                    "whole files on webgpu and cuda")
    out = tmp_path_factory.mktemp("scipy-gpu") / f"{backend_name}.json"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    env.pop("SCIPY_ARRAY_API", None)
    cmd = [sys.executable, str(RUNNER), "--backend", backend_name, "--suite", "scipy",
           "--subset", "scipy-gpu" if WHOLE else "scipy-gpu-ci", "--cpu-only-tests",
           "--scipy-routes", "--host-conversion", "raise", "--no-write", "--json", str(out)]
    if _xdist_available():
        cmd += ["-n", "2"]
    proc = subprocess.run(cmd, cwd=str(REPO), env=env, capture_output=True, text=True,
                          timeout=1800)
    if not out.exists():
        pytest.fail(f"the runner wrote no summary (exit {proc.returncode}):\n"
                    f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(out.read_text())


def test_scipy_on_the_gpu_routes_with_no_host_copy(scipy_on_the_gpu):
    r = scipy_on_the_gpu["suites"]["scipy"]
    assert not r["error"], r["error"]
    assert r["numr"]["passed"] > 300, r["numr"]
    if WHOLE:
        return   # the whole files include functions numr does not cover: counts are reported
    bad = [f"{f['id']}: {f['exc'].get('type')}: {f['exc'].get('message')}"
           for f in r["failures"] if f["class"] != "peer"]
    assert not bad, f"{len(bad)} failures:\n" + "\n".join(bad[:40])
