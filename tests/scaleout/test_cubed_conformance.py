"""array-api-tests on Cubed: over numr chunks no failure that Cubed over NumPy chunks does not
also show (conformance/results/cubed-*.json, conformance/cubed_compare.py).

The committed comparison is checked always; a small deterministic subset of the suite runs
live on Cubed over numr cpu chunks where the suite checkout is available
(ARRAY_API_TESTS_DIR, ../array-api-tests, /work/array-api-tests).
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
# (numpy run, numr run, comparison): the whole suite but its special cases, and the special
# cases on their own
PAIRS = [("cubed-numpy", "cubed-numr-cpu", "cubed-comparison"),
         ("cubed-numpy-special", "cubed-numr-cpu-special", "cubed-comparison-special")]


def _compare_module():
    spec = importlib.util.spec_from_file_location("cubed_compare", CONF / "cubed_compare.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _pairs():
    return [p for p in PAIRS if (RESULTS / f"{p[0]}.json").exists()]


@pytest.mark.parametrize("pair", _pairs(), ids=lambda p: p[2])
def test_committed_runs_show_no_numr_only_failure(pair, tmp_path):
    cc = _compare_module()
    numpy_run, numr_run = (json.loads((RESULTS / f"{n}.json").read_text()) for n in pair[:2])
    assert numpy_run["chunk_namespace"] == "numpy"
    assert numr_run["chunk_namespace"] == "numr_array_api.distributed.cpu"
    assert numr_run["counts"]["total"] > 0 and numr_run["counts"]["error"] == 0
    explained = cc.read_explained()
    c = cc.compare(numpy_run, numr_run, explained)
    assert not c["settings_differ"], c["settings_differ"]
    assert not c["unexplained"], c["unexplained"]
    assert not c["stale_explanations"], c["stale_explanations"]
    # the committed comparison is the one these results give
    out = tmp_path / "c.md"
    cc.main(["--numpy", str(RESULTS / f"{pair[0]}.json"), "--numr",
             str(RESULTS / f"{pair[1]}.json"), "--out", str(out)])
    assert out.read_text() == (RESULTS / f"{pair[2]}.md").read_text()


def test_both_comparisons_are_committed():
    assert [p[2] for p in _pairs()] == [p[2] for p in PAIRS]


def _suite():
    for d in (os.environ.get("ARRAY_API_TESTS_DIR"), ROOT.parent / "array-api-tests",
              "/work/array-api-tests"):
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
