"""array-api-tests on Cubed: over numr chunks no failure that Cubed over NumPy chunks does not
also show (conformance/results/cubed-*.json, conformance/cubed_compare.py).

A small deterministic subset of the suite runs live on Cubed over numr cpu chunks where the
suite checkout is available (ARRAY_API_TESTS_DIR, ../array-api-tests); the whole comparison
is conformance/cubed_compare.py's, run with the suite (conformance/README.md).
"""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "conformance"
RESULTS = CONF / "results"


def _suite():
    for d in (os.environ.get("ARRAY_API_TESTS_DIR"), ROOT.parent / "array-api-tests"):
        if d and (Path(d) / "array_api_tests").is_dir() and any((Path(d) / "array-api").glob("*")):
            return Path(d)
    return None


LIVE = ["test_statistical_functions.py::test_mean", "test_statistical_functions.py::test_std",
        "test_statistical_functions.py::test_var", "test_statistical_functions.py::test_sum",
        "test_statistical_functions.py::test_max", "test_linalg.py::test_matmul",
        "test_linalg.py::test_tensordot", "test_searching_functions.py::test_argmax",
        "test_manipulation_functions.py::test_concat",
        "test_creation_functions.py::test_zeros_like"]


@pytest.mark.skipif(_suite() is None, reason="no array-api-tests checkout")
@pytest.mark.skipif(importlib.util.find_spec("cubed") is None, reason="needs cubed")
def test_live_subset_on_numr_chunks(tmp_path):
    """Cubed's reductions, matmul / tensordot, argmax, concat and zeros_like over numr cpu
    chunks, 10 derandomized examples each: any failure is one Cubed over NumPy shows too."""
    env = dict(os.environ)
    env.pop("CUBED_BACKEND_ARRAY_API_MODULE", None)
    r = subprocess.run(
        [sys.executable, str(CONF / "run.py"), "--cubed-backend",
         "numr_array_api.distributed.cpu", "--tag", "live", "--suite", str(_suite()),
         "--max-examples", "10", "--derandomize", "--no-shrink",
         "--results-dir", str(tmp_path), "--tests", *LIVE],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    res = json.loads((tmp_path / "cubed-live.json").read_text())
    assert res["chunk_namespace"] == "numr_array_api.distributed.cpu"
    assert res["counts"]["passed"] >= len(LIVE) - 2, (r.stdout + r.stderr)[-3000:]
    numpy_fails = {f["id"] for f in json.loads((RESULTS / "cubed-numpy.json").read_text())
                   ["failing"]}
    numr_only = [f for f in res["failing"] if f["id"] not in numpy_fails]
    assert not numr_only, numr_only
